/*
 * support.h - helpers shared by the test suites: a seeded PRNG, a
 * uniformly random legal action drawn from engine_legal_actions, running
 * the mentat binary with its output captured, scratch directories and
 * their removal, and the standard six-seat configuration.
 */
#ifndef MENTAT_TESTS_SUPPORT_H
#define MENTAT_TESTS_SUPPORT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/engine.h"

/* splitmix64: the tests' own randomness, never the engine's. */
uint64_t test_prng_next(uint64_t *state);
uint32_t test_prng_below(uint64_t *state, uint32_t n);

/* Draws a uniformly chosen legal family, then its arguments, into *out.
 * Returns 0, or -1 if no seat has a legal action. */
int test_random_legal(engine_action *out, const engine_state *st, uint64_t *prng);
/* The same with the action kind drawn first, uniformly among the kinds
 * some family offers, then a family of that kind. */
int test_random_legal_by_kind(engine_action *out, const engine_state *st, uint64_t *prng);
/* 1 if a legal family of some seat in st holds act, 0 if none does, -1
 * if the families overflow ENGINE_LEGAL_MAX (a test failure). */
int test_legal_contains(const engine_state *st, const engine_action *act);

/* The mentat binary the CLI suites run, as an absolute path in out
 * (PATH_MAX bytes): $MENTAT_BIN, else <build>/mentat beside the test
 * binary argv0 (<build>/tests/tools/test_x), else ./mentat. 0, or -1 with
 * a message on stderr naming the suite. */
int test_find_mentat(char *out, const char *argv0, const char *suite);

/* What a run of the mentat binary said. */
typedef struct test_run_result {
    int status;                    /* exit status, or 128 + signal */
    char *out;                     /* stdout, NUL-terminated */
    size_t out_len;                /* bytes of stdout */
    char *err;                     /* stderr, NUL-terminated */
} test_run_result;

/* The whole file at path, NUL-terminated, malloc'd; its length in
 * *len_out unless NULL. Asserts it can be read. */
char *test_slurp(const char *path, size_t *len_out);
/* 1 if the n bytes at needle (n > 0) are somewhere in hay[0..len): a
 * secret looked for in a file or an output. */
int test_has_bytes(const uint8_t *hay, size_t len, const uint8_t *needle, size_t n);

/* Copies the file at from to to (made or replaced), then gives it mode. */
void test_copy_file(const char *from, const char *to, unsigned mode);

/* Frees what a run captured (not r itself). */
void test_run_free(test_run_result *r);

/* Runs bin with args (NULL-terminated, at most 62), its stdout and stderr
 * to the files out_path and err_path (a device such as /dev/full is fine);
 * returns its exit status, or 128 + the signal that killed it. */
int test_spawn(char *bin, const char *out_path, const char *err_path, const char *const *args);

/* The arguments of a variadic call, up to a NULL (included), into args
 * (cap entries; asserts they fit). */
void test_args_collect(const char **args, size_t cap, va_list ap);

/* Runs bin with args (NULL-terminated, at most 62), its stdout and stderr
 * to the files out_path and err_path, and fills *r with its exit status
 * and both outputs. Returns the status. */
int test_run_argv(test_run_result *r, char *bin, const char *out_path,
                  const char *err_path, const char *const *args);

/* Makes a fresh directory <$TMPDIR, else /tmp>/<prefix>-XXXXXX, its path
 * in dir (PATH_MAX bytes), and enters it, the old working directory saved
 * in old_cwd (PATH_MAX bytes). 0, or -1. */
int test_tmpdir_enter(char *dir, char *old_cwd, const char *prefix);

/* Returns to old_cwd and removes dir with all it holds. 0, or -1. */
int test_tmpdir_leave(const char *dir, const char *old_cwd);

/* rm -r of a directory tree a suite made (no symlinks in it); a plain
 * file is unlinked. Entries whose path would pass 1023 bytes are left. */
void test_rm_tree(const char *path);

/* The canonical bytes of st (ENGINE_STATE_ENCODED_MAX bytes at out) with
 * its constructed flag cleared: equal for a room's state and the same
 * position rebuilt as a scenario or a fork. Asserts it encodes. */
size_t test_state_canonical(uint8_t *out, const engine_state *st);

/* The verdict of `a` applied to a copy of st (st unchanged), or
 * ENGINE_VERDICT_COUNT, no verdict, if a refusal changed the copy: a
 * refusal changes nothing. */
engine_verdict test_try(engine_verdict_detail *why, const engine_state *st,
                        const engine_action *a, engine_rng *rng);

/* 0 when st re-encodes byte for byte through its canonical encoding (the
 * fields of rules versions 2 to 8) and decodes back to the same step, the
 * same window frames and the same effect records; -1 otherwise. */
int test_state_round_trip(const engine_state *st);

/* What a bot of `level` in `seat` decides in `st` once it has set its
 * standing Karama policy (tests/support/bots.c); 0, or -1 if it cannot. */
int test_bot_choice(engine_action *out, const engine_state *st, uint8_t seat, unsigned level,
                    const uint8_t seed[ENGINE_SEED_BYTES]);

/* Six classic seats: every setup step (prediction, traitors, Fremen). */
void test_config_six(engine_config *cfg);

/* A configuration of n seats with a random choice of classic factions. */
void test_random_config(engine_config *cfg, unsigned n_seats, int is_advanced, uint64_t *prng);

/* `mentat serve` (bin) on 127.0.0.1, port 0, with --web web and
 * --keys keys, in the current directory: its pid, port and referee token
 * (64 hex digits) once it prints them (serve.c). */
#include <sys/types.h>
/* Forks `mentat serve` as test_serve_start does, with the extra
 * arguments (NULL-terminated, at most 7; or NULL), stdout to ./serve.out:
 * its pid, without waiting. */
pid_t test_serve_spawn(char *bin, const char *web, const char *const *extra);
void test_serve_start(pid_t *pid_out, unsigned *port_out, char referee_out[65], char *bin,
                      const char *web);
/* Sends sig to the server and reaps it: its exit status, 128 + signal if
 * killed. */
int test_serve_signal(pid_t pid, int sig);

#endif
