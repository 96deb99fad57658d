/*
 * isolate.c - running a command, or one read of a ledger, in a child
 * process, so that a fault inside LMDB on a damaged file is reported as
 * damage instead of killing the command.
 *
 * Layer: tools. LMDB trusts its pages: a flipped byte in a branch page can
 * send mdb_cursor_get out of the map (SIGSEGV), a file shorter than its
 * last page faults on the first touch past the end (SIGBUS). ledger_open
 * refuses what can be checked before mapping (both meta pages, the size);
 * what cannot is read here, in a child that may die without taking the
 * command with it. The child dies with its parent (PR_SET_PDEATHSIG), so a
 * kill -9 of the command stops its work too. Nothing here reads a ledger.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tools/internal.h"

/* The signals that mean "the reader faulted on what it read". */
static int is_fault(int sig)
{
    return sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE || sig == SIGILL || sig == SIGABRT;
}

int tool_fork_call(int *sig_out, int (*fn)(void *ctx), void *ctx)
{
    *sig_out = 0;
    fflush(stdout);
    fflush(stderr);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0)
        return fn(ctx); /* no child to be had: run unprotected */
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent)
            _exit(TOOL_EXIT_USAGE);
        /* exit, not _exit: the sanitizers' leak check runs in the child,
         * where the command's memory is. */
        exit(fn(ctx));
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return TOOL_EXIT_USAGE;
    if (WIFSIGNALED(status)) {
        *sig_out = WTERMSIG(status);
        return TOOL_EXIT_CHECK;
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : TOOL_EXIT_USAGE;
}

typedef struct command_call {
    int (*run)(int argc, char **argv, const tool_globals *g);
    int argc;
    char **argv;
    const tool_globals *g;
} command_call;

static int call_command(void *ctx)
{
    command_call *c = ctx;
    return tool_stdout_finish(c->g, c->run(c->argc, c->argv, c->g));
}

int tool_isolated_run(int (*run)(int argc, char **argv, const tool_globals *g), int argc,
                      char **argv, const tool_globals *g)
{
    command_call c = {run, argc, argv, g};
    int sig = 0;
    int ex = tool_fork_call(&sig, call_command, &c);
    if (sig == 0)
        return ex;
    if (!is_fault(sig)) {
        /* Killed from outside: die the same way. */
        signal(sig, SIG_DFL);
        raise(sig);
        return 128 + sig;
    }
    tool_err(g, "the ledger %s is damaged: reading it stopped on %s (`mentat doctor` "
                "says what can still be exported)",
             g->db_path, sig == SIGBUS ? "SIGBUS" : sig == SIGSEGV ? "SIGSEGV" : strsignal(sig));
    return TOOL_EXIT_CHECK;
}
