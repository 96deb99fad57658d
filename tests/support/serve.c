/*
 * serve.c - `mentat serve` for the suites: started on port 0 in the
 * current directory (keys in ./keys, the ledger ./mentat.db), its port and
 * referee token read from what it prints, stopped by its process id.
 * Test code only; failures are cmocka assertions.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/support/support.h"

#define LISTENING "listening on http://127.0.0.1:"
#define REFEREE "referee token: "

pid_t test_serve_spawn(char *bin, const char *web, const char *const *extra)
{
    const char *argv[16] = {bin, "serve", "--listen", "127.0.0.1:0", "--web", web, "--keys", "keys"};
    size_t n = 8;
    for (size_t i = 0; extra != NULL && extra[i] != NULL && n + 1 < 16; i++)
        argv[n++] = extra[i];
    argv[n] = NULL;
    (void)unlink("serve.out"); /* a restart must not read the last run's port */
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        if (freopen("serve.out", "w", stdout) == NULL || freopen("serve.err", "a", stderr) == NULL)
            _exit(127);
        /* execv takes char *const[] and never writes the strings */
        union {
            const char **in;
            char *const *out;
        } args = {argv};
        execv(bin, args.out);
        _exit(127);
    }
    return pid;
}

void test_serve_start(pid_t *pid_out, unsigned *port_out, char referee_out[65], char *bin,
                      const char *web)
{
    *pid_out = test_serve_spawn(bin, web, NULL);
    for (int i = 0; i < 1000; i++) {
        char *out = access("serve.out", R_OK) == 0 ? test_slurp("serve.out", NULL) : NULL;
        const char *p = out != NULL ? strstr(out, LISTENING) : NULL;
        const char *t = out != NULL ? strstr(out, REFEREE) : NULL;
        if (p != NULL && t != NULL && strchr(t, '\n') != NULL) {
            *port_out = (unsigned)strtoul(p + strlen(LISTENING), NULL, 10);
            memcpy(referee_out, t + strlen(REFEREE), 64);
            referee_out[64] = '\0';
            free(out);
            return;
        }
        free(out);
        usleep(10000);
    }
    fail_msg("the server did not start (see serve.err)");
}

int test_serve_signal(pid_t pid, int sig)
{
    assert_true(pid > 0);
    kill(pid, sig);
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
