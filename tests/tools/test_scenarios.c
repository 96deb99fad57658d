/*
 * test_scenarios.c - the rule scenarios: `mentat scenario` (the real
 * binary, fork/exec) over every file in tests/scenarios/, each of which
 * must meet all its expectations (exit 0); a fixture with deliberately
 * wrong expectations must exit 1 and one malformed on purpose must exit 2,
 * naming the JSON path at fault. Run from the repository root, as `make
 * check` runs every suite.
 *
 * The binary is $MENTAT_BIN, else the `mentat` of the build this suite was
 * built in (<build>/tests/tools/test_scenarios -> <build>/mentat).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "schema/schema.h"
#include "tests/support/support.h"

#define SCENARIO_DIR "tests/scenarios"
/* Scenario files named in argument lists (one string each). */
static const char WORM_JSON[] = SCENARIO_DIR "/spice_blow_worm.json";
static const char PRESCIENCE_JSON[] = SCENARIO_DIR "/battle_prescience.json";
static const char RULEBOOK_JSON[] = SCENARIO_DIR "/battle_rulebook_example.json";
#define WRONG_FIXTURE "tests/fixtures/scenario_wrong_expectation.json"
#define MALFORMED_FIXTURE "tests/fixtures/scenario_malformed.json"
#define MIN_SCENARIOS 30           /* the rule examples issues 3 and 4 ask for */

static char mentat_bin[PATH_MAX];
static char out_path[PATH_MAX], err_path[PATH_MAX];

typedef test_run_result run_result;

/* Runs mentat with args (NULL-terminated), output to temporary files. */
static int run_argv(run_result *r, const char *const *args)
{
    return test_run_argv(r, mentat_bin, out_path, err_path, args);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* ============================================================== cases */

static void test_scenarios__every_rule_scenario_passes(void **state)
{
    (void)state;
    DIR *d = opendir(SCENARIO_DIR);
    if (d == NULL)
        fail_msg("cannot open %s (run from the repository root): %s", SCENARIO_DIR,
                 strerror(errno));
    char *names[256];
    size_t n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        size_t len = strlen(e->d_name);
        if (len > 5 && strcmp(e->d_name + len - 5, ".json") == 0) {
            assert_true(n < 256);
            names[n] = malloc(sizeof SCENARIO_DIR + 1 + len);
            assert_non_null(names[n]);
            sprintf(names[n], "%s/%s", SCENARIO_DIR, e->d_name);
            n++;
        }
    }
    closedir(d);
    qsort(names, n, sizeof names[0], by_name);
    assert_true(n >= MIN_SCENARIOS);
    size_t failed = 0;
    for (size_t i = 0; i < n; i++) {
        const char *args[] = {"scenario", names[i], NULL};
        run_result r;
        if (run_argv(&r, args) != 0) {
            print_error("%s: exit %d\n%s%s\n", names[i], r.status, r.out, r.err);
            failed++;
        } else {
            /* Every file cites the rule it checks. */
            if (strstr(r.out, "\nrule: ") == NULL) {
                print_error("%s: no \"rule\" field\n", names[i]);
                failed++;
            }
        }
        test_run_free(&r);
        free(names[i]);
    }
    assert_int_equal(failed, 0);
}

/* The JSON report: one object, every check met. */
static void test_scenarios__json_report(void **state)
{
    (void)state;
    const char *args[] = {"scenario", RULEBOOK_JSON, "--json",
                          NULL};
    run_result r;
    assert_int_equal(run_argv(&r, args), 0);
    static codec_json_token tok[4096];
    char err[SCHEMA_ERRMSG];
    assert_true(codec_json_parse(tok, 4096, r.out, strlen(r.out), err) > 0);
    int ok = codec_json_member(tok, 0, r.out, "ok");
    assert_true(ok >= 0);
    assert_int_equal(tok[ok].type, CODEC_JSON_BOOL);
    assert_memory_equal(r.out + tok[ok].start, "true", 4);
    int checks = codec_json_member(tok, 0, r.out, "checks");
    assert_true(checks >= 0);
    assert_true(tok[checks].size > 10);
    int met = codec_json_member(tok, 0, r.out, "met");
    int64_t v = 0;
    assert_int_equal(codec_json_int(&v, &tok[met], r.out), 0);
    assert_int_equal(v, tok[checks].size);
    test_run_free(&r);
}

/* The same file twice gives the same report and final state, byte for byte. */
static void test_scenarios__deterministic(void **state)
{
    (void)state;
    const char *args[] = {"scenario", WORM_JSON, "--json", "--state",
                          NULL};
    run_result a, b;
    assert_int_equal(run_argv(&a, args), 0);
    assert_int_equal(run_argv(&b, args), 0);
    assert_string_equal(a.out, b.out);
    assert_non_null(strstr(a.out, "\"constructed\":true"));
    test_run_free(&a);
    test_run_free(&b);
}

/* The final state as one seat knows it, with its legal actions. */
static void test_scenarios__final_view_of_a_seat(void **state)
{
    (void)state;
    const char *args[] = {"scenario", PRESCIENCE_JSON, "--seat",
                          "harkonnen", NULL};
    run_result r;
    assert_int_equal(run_argv(&r, args), 0);
    assert_non_null(strstr(r.out, "view of seat 2 harkonnen"));
    assert_non_null(strstr(r.out, "defender seat 2 harkonnen: leader Feyd Rautha")); /* its own plan */
    test_run_free(&r);
    const char *pub[] = {"scenario", PRESCIENCE_JSON, "--public",
                         "--json", NULL};
    assert_int_equal(run_argv(&r, pub), 0);
    assert_non_null(strstr(r.out, "\"view\":\"public\""));
    assert_non_null(strstr(r.out, "\"hidden\":true")); /* the committed plan */
    test_run_free(&r);
    const char *both[] = {"scenario", PRESCIENCE_JSON, "--seat", "1",
                          "--public", NULL};
    assert_int_equal(run_argv(&r, both), 2);
    test_run_free(&r);
}

static void test_scenarios__wrong_expectation_exits_1(void **state)
{
    (void)state;
    const char *args[] = {"scenario", WRONG_FIXTURE, NULL};
    run_result r;
    assert_int_equal(run_argv(&r, args), 1);
    assert_non_null(strstr(r.out, "MISS  action 1"));
    assert_non_null(strstr(r.out, "accepted, expected cannot_pay"));
    assert_non_null(strstr(r.out, "MISS  seat 1 guild spice: 7, expected 4"));
    assert_non_null(strstr(r.out, "3 missed"));
    test_run_free(&r);
    const char *json_args[] = {"scenario", WRONG_FIXTURE, "--json", NULL};
    assert_int_equal(run_argv(&r, json_args), 1);
    assert_non_null(strstr(r.out, "\"ok\":false"));
    assert_non_null(strstr(r.out, "\"missed\":3"));
    test_run_free(&r);
}

static void test_scenarios__malformed_exits_2(void **state)
{
    (void)state;
    const char *args[] = {"scenario", MALFORMED_FIXTURE, NULL};
    run_result r;
    assert_int_equal(run_argv(&r, args), 2);
    assert_non_null(strstr(r.err, "position.forces[2].territory: unknown territory 'arakeen'"));
    assert_string_equal(r.out, "");
    test_run_free(&r);
    const char *missing[] = {"scenario", "tests/fixtures/no-such-scenario.json", NULL};
    assert_int_equal(run_argv(&r, missing), 2);
    assert_non_null(strstr(r.err, "cannot read"));
    test_run_free(&r);
    const char *none[] = {"scenario", NULL};
    assert_int_equal(run_argv(&r, none), 2);
    test_run_free(&r);
    const char *help[] = {"scenario", "--help", NULL};
    assert_int_equal(run_argv(&r, help), 0);
    assert_non_null(strstr(r.out, "\"factions\""));
    assert_non_null(strstr(r.out, "docs/SCENARIOS.md"));
    test_run_free(&r);
}

/* ================================================================ main */

static int find_binary(const char *argv0)
{
    return test_find_mentat(mentat_bin, argv0, "test_scenarios");
}

int main(int argc, char **argv)
{
    (void)argc;
    if (find_binary(argv[0]) != 0)
        return 1;
    const char *tmp = getenv("TMPDIR");
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s/mentat-scenarios-XXXXXX",
             tmp != NULL && tmp[0] != '\0' ? tmp : "/tmp");
    if (mkdtemp(dir) == NULL)
        return 1;
    snprintf(out_path, sizeof out_path, "%.*s/out", PATH_MAX - 8, dir);
    snprintf(err_path, sizeof err_path, "%.*s/err", PATH_MAX - 8, dir);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scenarios__every_rule_scenario_passes),
        cmocka_unit_test(test_scenarios__json_report),
        cmocka_unit_test(test_scenarios__deterministic),
        cmocka_unit_test(test_scenarios__final_view_of_a_seat),
        cmocka_unit_test(test_scenarios__wrong_expectation_exits_1),
        cmocka_unit_test(test_scenarios__malformed_exits_2),
    };
    int rc = cmocka_run_group_tests_name("scenarios", tests, NULL, NULL);
    remove(out_path);
    remove(err_path);
    rmdir(dir);
    return rc;
}
