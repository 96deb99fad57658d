/*
 * test_scenario_format.c - the scenario fields referees asked for
 * (docs/SCENARIOS.md): branches from one position, each its own line of
 * play with its own checks and the randomness a room would have drawn;
 * entering the setup at a given step; the Advanced Bene Gesserit's
 * advisors placed and checked;
 * the new expectations refused as malformed, with the JSON path at
 * fault, when they are written wrong. Their passing use is in
 * tests/scenarios/ (battle_branches_shield_or_snooper.json,
 * battle_lasgun_shield_explosion.json).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/internal.h"

/* A two-seat Shipment position; %s is spliced in after "position". */
static const char doc_head[] =
    "{\"factions\": [\"guild\", \"harkonnen\"], \"seed\": 3,"
    " \"position\": {\"turn\": 2, \"phase\": \"shipment_movement\", \"storm_sector\": 0,"
    "   \"seat_spice\": [{\"seat\": \"guild\", \"spice\": 10}]}";

static int run_doc(tool_scenario_result *res, char *err, const char *tail)
{
    char doc[4096];
    snprintf(doc, sizeof doc, "%s%s}", doc_head, tail);
    return tool_scenario_run(res, doc, strlen(doc), err);
}

static void expect_malformed(const char *tail, const char *path)
{
    static tool_scenario_result res;
    char err[TOOL_SCENARIO_ERRMSG];
    int rc = run_doc(&res, err, tail);
    if (rc != -1 || strstr(err, path) == NULL)
        print_error("rc %d, \"%s\" for %s (wanted %s)\n", rc, err, tail, path);
    assert_int_equal(rc, -1);
    assert_non_null(strstr(err, path));
}

static void test_scenario_format__malformed_fields_name_their_path(void **state)
{
    (void)state;
    expect_malformed(", \"expect\": {\"cards\": [{\"card\": \"lasgun\", \"place\": \"hand\"}]}",
                     "expect.cards[0]");
    expect_malformed(", \"expect\": {\"cards\": [{\"card\": \"lasgun\", \"place\": \"deck\","
                     " \"seat\": 1}]}", "expect.cards[0]");
    expect_malformed(", \"expect\": {\"cards\": [{\"card\": \"lasgun\", \"place\": \"attic\"}]}",
                     "expect.cards[0].place");
    expect_malformed(", \"expect\": {\"deck_sizes\": {\"trechery\": 3}}", "expect.deck_sizes");
    expect_malformed(", \"expect\": {\"bank\": {\"paid\": -1}}", "expect.bank.paid");
    expect_malformed(", \"expect\": {\"spice_discard\": [\"arrakeen\"]}",
                     "expect.spice_discard[0]");
    expect_malformed(", \"expect\": {\"leaders\": [{\"leader\": \"feyd_rautha\"}]}",
                     "expect.leaders[0]");
    expect_malformed(", \"expect\": {\"leaders\": [{\"leader\": \"feyd_rautha\", \"place\": \"out\"}]}",
                     "expect.leaders[0].place");
    expect_malformed(", \"expect\": {\"battle\": {\"territory\": \"carthag\", \"aggressor\": 1}}",
                     "expect.battle");
    expect_malformed(", \"expect\": {\"last_battle\": {\"territory\": \"carthag\", \"aggressor\": 1,"
                     " \"defender\": 2}}", "expect.last_battle");
    expect_malformed(", \"branches\": [{\"actions\": []}]", "branches[0]");
    expect_malformed(", \"branches\": [{\"name\": \"a\", \"actions\": [{\"seat\": 9,"
                     " \"action\": {\"kind\": \"ship_pass\"}}]}]", "branches[0].actions[0]");
    expect_malformed(", \"branches\": [{\"name\": \"a\", \"expect\": {\"turn\": \"two\"}}]",
                     "branches[0].expect.turn");
}

static void expect_doc_malformed(const char *doc, const char *path, const char *words)
{
    static tool_scenario_result res;
    char err[TOOL_SCENARIO_ERRMSG];
    int rc = tool_scenario_run(&res, doc, strlen(doc), err);
    if (rc != -1 || strstr(err, path) == NULL || strstr(err, words) == NULL)
        print_error("rc %d, \"%s\" (wanted %s: %s)\n", rc, err, path, words);
    assert_int_equal(rc, -1);
    assert_non_null(strstr(err, path));
    assert_non_null(strstr(err, words));
}

/* A setup position: the opening deal, the earlier steps taken, the game
 * waiting on the step named; refused when the step is unknown or never
 * comes, or with an edit beside it. */
static void test_scenario_format__entering_the_setup(void **state)
{
    (void)state;
    static tool_scenario_result res;
    char err[TOOL_SCENARIO_ERRMSG];
    const char *ok = "{\"factions\": [\"atreides\", \"harkonnen\"], \"seed\": 2,"
                     " \"position\": {\"phase\": \"setup\", \"step\": \"traitor_pick\"},"
                     " \"expect\": {\"phase\": \"setup\", \"awaiting\": [\"atreides\"]}}";
    assert_int_equal(tool_scenario_run(&res, ok, strlen(ok), err), 0);
    assert_int_equal(res.n_missed, 0);
    assert_true(res.start.config.is_constructed);
    tool_scenario_result_free(&res);
    expect_doc_malformed("{\"factions\": [\"atreides\", \"harkonnen\"], \"position\":"
                         " {\"phase\": \"setup\", \"step\": \"bg_place\"}}",
                         "position.step", "never asks for bg_place");
    expect_doc_malformed("{\"factions\": [\"atreides\", \"harkonnen\"], \"position\":"
                         " {\"phase\": \"setup\", \"step\": \"jump\"}}",
                         "position.step", "unknown action kind");
    expect_doc_malformed("{\"factions\": [\"atreides\", \"harkonnen\"], \"position\":"
                         " {\"phase\": \"setup\", \"turn\": 1}}", "position", "turn");
}

/* Advisors: placed from the Bene Gesserit's reserves in an Advanced
 * game and checked apart from fighters; refused, with the path, in a
 * Basic game, for another faction, or beside fighters (LR 2.02.20). */
static void test_scenario_format__advisors(void **state)
{
    (void)state;
    static tool_scenario_result res;
    char err[TOOL_SCENARIO_ERRMSG];
    char doc[1024];
    const char *fmt = "{\"rules\": \"%s\", \"factions\": [\"bene_gesserit\", \"harkonnen\"],"
                      " \"position\": {\"turn\": 2, \"phase\": \"bidding\", \"storm_sector\": 0,"
                      " \"forces\": [{\"seat\": \"harkonnen\", \"territory\": \"carthag\","
                      " \"forces\": 1}, %s]}, \"expect\": {\"forces\": [{\"seat\":"
                      " \"bene_gesserit\", \"territory\": \"carthag\", \"forces\": 0,"
                      " \"advisors\": 3}]}}";
    snprintf(doc, sizeof doc, fmt, "advanced",
             "{\"seat\": \"bene_gesserit\", \"territory\": \"carthag\", \"advisors\": 3}");
    assert_int_equal(tool_scenario_run(&res, doc, strlen(doc), err), 0);
    assert_int_equal(res.n_missed, 0);
    tool_scenario_result_free(&res);
    snprintf(doc, sizeof doc, fmt, "basic",
             "{\"seat\": \"bene_gesserit\", \"territory\": \"carthag\", \"advisors\": 3}");
    expect_doc_malformed(doc, "position.forces[1]", "Advanced game only");
    snprintf(doc, sizeof doc, fmt, "advanced",
             "{\"seat\": \"harkonnen\", \"territory\": \"arrakeen\", \"advisors\": 1}");
    expect_doc_malformed(doc, "position.forces[1]", "Bene Gesserit's");
    snprintf(doc, sizeof doc, fmt, "advanced",
             "{\"seat\": \"bene_gesserit\", \"territory\": \"carthag\", \"forces\": 1,"
             " \"advisors\": 1}");
    expect_doc_malformed(doc, "position.forces[1]", "all advisors or all fighters");
    snprintf(doc, sizeof doc, fmt, "advanced",
             "{\"seat\": \"bene_gesserit\", \"territory\": \"carthag\", \"advisors\": 1},"
             " {\"seat\": \"bene_gesserit\", \"territory\": \"carthag\", \"forces\": 1}");
    expect_doc_malformed(doc, "position.forces[2]", "all advisors or all fighters");
}

/* The same line of play, once straight and once as a branch after a
 * trunk: the same checks met, the same final spice (each action folded
 * with the randomness its version would have in a room). */
static void test_scenario_format__a_branch_goes_on_from_the_trunk(void **state)
{
    (void)state;
    static tool_scenario_result straight, branched;
    char err[TOOL_SCENARIO_ERRMSG];
    const char *ship = "{\"seat\": \"guild\", \"action\": {\"kind\": \"ship\", \"location\":"
                       " {\"territory\": \"basin\", \"sector\": 8}, \"forces\": 3, \"elite\": 0,"
                       " \"karama\": 0}}";
    const char *pass = "{\"seat\": \"guild\", \"action\": {\"kind\": \"move_pass\"}}";
    char tail[2048];
    snprintf(tail, sizeof tail,
             ", \"actions\": [%s, %s], \"expect\": {\"seat_spice\": [{\"seat\": \"guild\","
             " \"spice\": 7}], \"bank\": {\"paid\": 0}}", ship, pass);
    assert_int_equal(run_doc(&straight, err, tail), 0);
    assert_int_equal(straight.n_missed, 0);
    snprintf(tail, sizeof tail,
             ", \"actions\": [%s], \"branches\": ["
             "{\"name\": \"pass\", \"actions\": [%s], \"expect\": {\"seat_spice\":"
             " [{\"seat\": \"guild\", \"spice\": 7}], \"bank\": {\"paid\": 0}}},"
             "{\"name\": \"wrong\", \"expect\": {\"seat_spice\": [{\"seat\": \"guild\","
             " \"spice\": 10}]}}]", ship, pass);
    assert_int_equal(run_doc(&branched, err, tail), 0);
    /* the second branch expects the spice before the shipment: one miss */
    assert_int_equal(branched.n_missed, 1);
    int found = 0;
    for (size_t i = 0; i < branched.n_checks; i++)
        if (strncmp(branched.checks[i].what, "branch \"wrong\": ", 16) == 0) {
            found = 1;
            assert_false(branched.checks[i].is_met);
            assert_string_equal(branched.checks[i].got, "7");
        }
    assert_true(found);
    /* the trunk's state is the document's final state */
    assert_int_equal(branched.n_accepted, 1);
    assert_int_equal(branched.final.seat[0].spice, 7);
    tool_scenario_result_free(&straight);
    tool_scenario_result_free(&branched);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scenario_format__malformed_fields_name_their_path),
        cmocka_unit_test(test_scenario_format__a_branch_goes_on_from_the_trunk),
        cmocka_unit_test(test_scenario_format__entering_the_setup),
        cmocka_unit_test(test_scenario_format__advisors),
    };
    return cmocka_run_group_tests_name("scenario_format", tests, NULL, NULL);
}
