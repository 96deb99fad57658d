/*
 * test_bench.c - `mentat bench --quick --json` runs to the end and reports
 * every figure, every rate and every target as the README and later work
 * read them: finite positive numbers and booleans. It does not check the
 * targets themselves: the machine is shared and noisy, and the bench
 * measures rather than judges.
 *
 * The binary is found as every CLI suite finds it (test_find_mentat:
 * $MENTAT_BIN, else the build's mentat beside this test, else ./mentat).
 */
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "schema/schema.h"
#include "tests/support/support.h"

#define OUT_MAX (1 << 16)
#define TOKENS 512

static const char *const figures[] = {
    "append_sequential_vs_sqlite",
    "append_concurrent_vs_sqlite",
    "append_concurrent_vs_sqlite_batched",
    "replay_to_version_ms",
    "verify_vs_raw",
    "verify_two_cores_vs_raw",
    "raw_two_threads_vs_raw",
    "bytes_per_event",
    "bytes_per_event_interleaved",
    "file_bytes_per_event",
    "audit_game_s",
    "apply_us",
    "legal_actions_us",
    "apply_us_advanced",
    "legal_actions_us_advanced",
    "serve_vs_direct",
    "serve_action_p50_ms",
    "serve_action_p99_ms",
};

static const char *const targeted[] = {
    "append_sequential_vs_sqlite",
    "append_concurrent_vs_sqlite",
    "replay_to_version_ms",
    "verify_vs_raw",
    "verify_two_cores_vs_raw",
    "bytes_per_event",
    "bytes_per_event_interleaved",
    "audit_game_s",
    "apply_us",
    "legal_actions_us",
    "apply_us_advanced",
    "legal_actions_us_advanced",
    "serve_vs_direct",
};

static const char *const rates[] = {
    "mentat_append_sequential",
    "sqlite_append_sequential",
    "mentat_append_concurrent",
    "sqlite_append_concurrent",
    "sqlite_append_concurrent_batched",
    "mentat_verify_one_thread",
    "mentat_verify_two_threads",
    "raw_ed25519_verify",
    "raw_ed25519_verify_two_threads",
};

static char mentat_path[PATH_MAX];

static const char *mentat_bin(void)
{
    return mentat_path;
}

/* Runs `mentat <args>` and keeps its stdout; returns the exit status. */
static int run(char *out, size_t cap, const char *args)
{
    char cmd[PATH_MAX + 256];
    snprintf(cmd, sizeof cmd, "%s %s", mentat_bin(), args);
    FILE *f = popen(cmd, "r");
    assert_non_null(f);
    size_t n = fread(out, 1, cap - 1, f);
    out[n] = '\0';
    int status = pclose(f);
    assert_true(WIFEXITED(status));
    return WEXITSTATUS(status);
}

/* The number in member `key` of object `obj`, finite and > 0. */
static void check_positive(const codec_json_token *tok, int obj, const char *text,
                           const char *key)
{
    int m = codec_json_member(tok, obj, text, key);
    if (m < 0)
        fail_msg("no field \"%s\"", key);
    if (tok[m].type != CODEC_JSON_NUMBER)
        fail_msg("\"%s\" is not a number", key);
    char num[64];
    size_t len = tok[m].end - tok[m].start;
    assert_true(len < sizeof num);
    memcpy(num, text + tok[m].start, len);
    num[len] = '\0';
    char *end;
    double v = strtod(num, &end);
    if (*end != '\0' || !isfinite(v) || v <= 0)
        fail_msg("\"%s\" is %s, not a finite positive number", key, num);
}

static void test_bench__quick_json_has_every_figure(void **state)
{
    (void)state;
    if (access(mentat_bin(), X_OK) != 0)
        fail_msg("no %s to run (make builds it; MENTAT_BIN names another)",
                 mentat_bin());
    char *out = malloc(OUT_MAX);
    assert_non_null(out);
    int status = run(out, OUT_MAX, "bench --quick --json");
    if (status != 0)
        fail_msg("%s bench --quick --json exited %d", mentat_bin(), status);

    static codec_json_token tok[TOKENS];
    char err[SCHEMA_ERRMSG];
    int n = codec_json_parse(tok, TOKENS, out, strlen(out), err);
    if (n <= 0)
        fail_msg("not one JSON document: %s", err);
    assert_int_equal(tok[0].type, CODEC_JSON_OBJECT);

    for (size_t i = 0; i < sizeof figures / sizeof figures[0]; i++)
        check_positive(tok, 0, out, figures[i]);

    int r = codec_json_member(tok, 0, out, "rates");
    assert_true(r >= 0);
    assert_int_equal(tok[r].type, CODEC_JSON_OBJECT);
    for (size_t i = 0; i < sizeof rates / sizeof rates[0]; i++)
        check_positive(tok, r, out, rates[i]);

    int t = codec_json_member(tok, 0, out, "targets");
    assert_true(t >= 0);
    assert_int_equal(tok[t].type, CODEC_JSON_OBJECT);
    for (size_t i = 0; i < sizeof targeted / sizeof targeted[0]; i++) {
        int m = codec_json_member(tok, t, out, targeted[i]);
        if (m < 0 || tok[m].type != CODEC_JSON_BOOL)
            fail_msg("targets.%s is not a boolean", targeted[i]);
    }
    check_positive(tok, 0, out, "history_events");
    free(out);
}

static void test_bench__usage(void **state)
{
    (void)state;
    char out[8192];
    assert_int_equal(run(out, sizeof out, "bench --help"), 0);
    assert_non_null(strstr(out, "--quick"));
    assert_int_equal(run(out, sizeof out, "bench --no-such-option 2>/dev/null"), 2);
}

int main(int argc, char **argv)
{
    (void)argc;
    if (test_find_mentat(mentat_path, argv[0], "test_bench") != 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bench__usage),
        cmocka_unit_test(test_bench__quick_json_has_every_figure),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
