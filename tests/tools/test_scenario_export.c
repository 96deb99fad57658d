/*
 * test_scenario_export.c - `mentat scenario export` round trips: real
 * rooms played through the ledger, exported at several versions, and
 * each document run as a scenario must rebuild the room's very state
 * (canonical encodings equal but for the constructed flag) and meet every
 * expectation it wrote; tampered or mismatched documents are refused as
 * malformed; the command writes a file `mentat scenario` accepts.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <limits.h>

#include "tests/inspect/helpers.h"
#include "tools/internal.h"

static char mentat_bin[PATH_MAX];

/* The document tool_scenario_export writes for the room at v (malloc'd). */
static char *export_text(size_t *len_out, ifix *f, const engine_state *st, uint32_t v)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    assert_non_null(m);
    assert_int_equal(tool_scenario_export(m, st, f->room, v, NULL), 0);
    assert_int_equal(fclose(m), 0);
    *len_out = len;
    return buf;
}

static void round_trip(ifix *f, uint32_t v)
{
    static engine_state st;
    static uint8_t a[ENGINE_STATE_ENCODED_MAX], b[ENGINE_STATE_ENCODED_MAX];
    static tool_scenario_result res;
    ifix_state(f, &st, v);
    size_t len;
    char *text = export_text(&len, f, &st, v);
    char err[TOOL_SCENARIO_ERRMSG];
    int rc = tool_scenario_run(&res, text, len, err);
    if (rc != 0)
        print_error("version %u: %s\n", v, err);
    assert_int_equal(rc, 0);
    assert_true(res.start.config.is_constructed);
    size_t na = test_state_canonical(a, &st), nb = test_state_canonical(b, &res.start);
    assert_int_equal(na, nb);
    assert_memory_equal(a, b, na);
    assert_true(res.n_checks >= 6);
    assert_int_equal(res.n_missed, 0);
    tool_scenario_result_free(&res);
    free(text);
}

static void test_scenario_export__rooms_round_trip(void **state)
{
    (void)state;
    engine_config cfg;
    test_config_six(&cfg);
    ifix *f = ifix_new(&cfg, 0x5ce7a210u, 900, 16);
    assert_true(f->head > 300);
    const uint32_t at[] = {0, 1, 7, 64, 65, 250, f->head};
    for (size_t i = 0; i < sizeof at / sizeof at[0]; i++)
        round_trip(f, at[i]);
    ifix_free(f);
}

/* Replaces the first occurrence of `from` in text by `to` (same length). */
static void patch(char *text, const char *from, const char *to)
{
    char *p = strstr(text, from);
    assert_non_null(p);
    assert_int_equal(strlen(from), strlen(to));
    memcpy(p, to, strlen(to));
}

static void expect_malformed(char *text, size_t len, const char *path)
{
    static tool_scenario_result res;
    char err[TOOL_SCENARIO_ERRMSG];
    assert_int_equal(tool_scenario_run(&res, text, len, err), -1);
    if (strstr(err, path) == NULL)
        print_error("%s does not name %s\n", err, path);
    assert_non_null(strstr(err, path));
}

static void test_scenario_export__tampering_is_malformed(void **state)
{
    (void)state;
    engine_config cfg;
    test_config_six(&cfg);
    ifix *f = ifix_new(&cfg, 0x5ce7a211u, 120, 16);
    static engine_state st;
    ifix_state(f, &st, f->head);
    size_t len;
    char *text = export_text(&len, f, &st, f->head);
    /* another table than the state's */
    char *other = strdup(text);
    patch(other, "\"turn_limit\":10", "\"turn_limit\":11");
    expect_malformed(other, len, "position.state");
    free(other);
    /* a state cut short */
    other = strdup(text);
    char *state_key = strstr(other, "\"state\":\"");
    assert_non_null(state_key);
    memcpy(state_key + 9, "zz", 2);
    expect_malformed(other, len, "position.state");
    free(other);
    /* a field the exact position does not have */
    other = strdup(text);
    patch(other, "\"position\":{\"version\"", "\"position\":{\"versiox\"");
    expect_malformed(other, len, "position");
    free(other);
    free(text);
    ifix_free(f);
}

static void test_scenario_export__command_writes_a_scenario(void **state)
{
    (void)state;
    engine_config cfg;
    test_config_six(&cfg);
    ifix *f = ifix_new(&cfg, 0x5ce7a212u, 60, 16);
    char out[256], v[16];
    snprintf(out, sizeof out, "%s/export.json", f->dir);
    snprintf(v, sizeof v, "%u", f->head / 2);
    char o1[256], o2[256];
    snprintf(o1, sizeof o1, "%s/.out", f->dir);
    snprintf(o2, sizeof o2, "%s/.err", f->dir);
    test_run_result r;
    const char *exp[] = {"--db", f->path, "--keys", f->keys, "scenario", "export", f->room,
                         "--at", v, "--out", out, NULL};
    int st = test_run_argv(&r, mentat_bin, o1, o2, exp);
    if (st != 0)
        print_error("%s\n", r.err);
    assert_int_equal(st, 0);
    assert_non_null(strstr(r.out, "wrote "));
    test_run_free(&r);
    const char *run[] = {"scenario", out, NULL};
    st = test_run_argv(&r, mentat_bin, o1, o2, run);
    if (st != 0)
        print_error("%s%s\n", r.out, r.err);
    assert_int_equal(st, 0);
    assert_non_null(strstr(r.out, " 0 missed"));
    test_run_free(&r);
    /* past the head: refused, nothing written */
    snprintf(out, sizeof out, "%s/none.json", f->dir);
    const char *past[] = {"--db", f->path, "--keys", f->keys, "scenario", "export", f->room,
                          "--at", "99999", "--out", out, NULL};
    assert_int_equal(test_run_argv(&r, mentat_bin, o1, o2, past), 2);
    assert_non_null(strstr(r.err, "past the head"));
    assert_int_equal(access(out, F_OK), -1);
    test_run_free(&r);
    ifix_free(f);
}

int main(int argc, char **argv)
{
    (void)argc;
    if (test_find_mentat(mentat_bin, argv[0], "scenario_export") != 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scenario_export__rooms_round_trip),
        cmocka_unit_test(test_scenario_export__tampering_is_malformed),
        cmocka_unit_test(test_scenario_export__command_writes_a_scenario),
    };
    return cmocka_run_group_tests_name("scenario_export", tests, NULL, NULL);
}
