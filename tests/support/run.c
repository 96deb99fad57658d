/*
 * run.c - running the mentat binary for the CLI suites: fork/exec with
 * stdout and stderr sent to files, then both read back whole. Test code
 * only; failures are cmocka assertions.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/support/support.h"

char *test_slurp(const char *path, size_t *len_out)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    assert_non_null(buf);
    for (;;) {
        if (len + 1 >= cap) {
            cap *= 2;
            buf = realloc(buf, cap);
            assert_non_null(buf);
        }
        size_t n = fread(buf + len, 1, cap - 1 - len, f);
        if (n == 0)
            break;
        len += n;
    }
    fclose(f);
    buf[len] = '\0';
    if (len_out != NULL)
        *len_out = len;
    return buf;
}

void test_copy_file(const char *from, const char *to, unsigned mode)
{
    size_t len = 0;
    char *bytes = test_slurp(from, &len);
    FILE *fp = fopen(to, "wb");
    assert_non_null(fp);
    assert_int_equal(fwrite(bytes, 1, len, fp), len);
    assert_int_equal(fclose(fp), 0);
    assert_int_equal(chmod(to, (mode_t)mode), 0);
    free(bytes);
}

void test_run_free(test_run_result *r)
{
    free(r->out);
    free(r->err);
    r->out = r->err = NULL;
}

int test_spawn(char *bin, const char *out_path, const char *err_path, const char *const *args)
{
    char *argv[64];
    int n = 0;
    argv[n++] = bin;
    while (args[n - 1] != NULL) {
        assert_true(n < 63);
        /* execv takes char *const[] and never writes the strings */
        union {
            const char *in;
            char *out;
        } arg = {args[n - 1]};
        argv[n] = arg.out;
        n++;
    }
    argv[n] = NULL;
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        FILE *o = freopen(out_path, "wb", stdout);
        FILE *e = freopen(err_path, "wb", stderr);
        if (o == NULL || e == NULL)
            _exit(126);
        execv(bin, argv);
        _exit(127);
    }
    int ws;
    while (waitpid(pid, &ws, 0) < 0)
        assert_int_equal(errno, EINTR);
    return WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
}

void test_args_collect(const char **args, size_t cap, va_list ap)
{
    for (size_t n = 0;; n++) {
        assert_true(n < cap);
        args[n] = va_arg(ap, const char *);
        if (args[n] == NULL)
            break;
    }
}

int test_run_argv(test_run_result *r, char *bin, const char *out_path,
                  const char *err_path, const char *const *args)
{
    r->status = test_spawn(bin, out_path, err_path, args);
    r->out = test_slurp(out_path, &r->out_len);
    r->err = test_slurp(err_path, NULL);
    return r->status;
}

int test_has_bytes(const uint8_t *hay, size_t len, const uint8_t *needle, size_t n)
{
    for (size_t i = 0; n > 0 && i + n <= len; i++)
        if (memcmp(hay + i, needle, n) == 0)
            return 1;
    return 0;
}
