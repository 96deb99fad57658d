/*
 * test_bots_nexus_window.c - the bots and the neutral Nexus window
 * (tools/bots/nexus.c; engine/nexus_window.c, rules version 7): a Voice
 * against its own battle, held in the window, is stopped by a Medium,
 * Hard or Brutal bot holding the Bene Gesserit card (panel 4), from its
 * own view, and passed by one holding another card, and by Easy; every
 * level's answer is one of its legal families and the engine accepts it;
 * Easy sets its standing policy to be asked nowhere at its first prompt
 * offering it, the others keep the default. From rules version 8, in the
 * window of a seat's own moment (engine/nexus_moment.c), Medium and up
 * play the panel their own card plays there (12a as a worm strikes, 15 in
 * the Mentat Pause, then its returns) and pass holding another card.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "tests/support/support.h"
#include "tools/internal.h"

static const uint8_t SEED[ENGINE_SEED_BYTES] = {91};

enum { BG = 0, HARKONNEN = 1, ATREIDES = 2, N_SEATS = 3 };

/* The Bene Gesserit fight the Harkonnen, who hold the Nexus card printed
 * for `card`; the Atreides hold the Fremen's. */
static void position(engine_state *st, engine_rng *rng, unsigned card)
{
    engine_config cfg;
    engine_config_init(&cfg);
    cfg.n_seats = N_SEATS;
    cfg.faction[BG] = ENGINE_FACTION_BENE_GESSERIT;
    cfg.faction[HARKONNEN] = ENGINE_FACTION_HARKONNEN;
    cfg.faction[ATREIDES] = ENGINE_FACTION_ATREIDES;
    cfg.modules = ENGINE_MODULE_NEXUS_CARDS;
    engine_rng_init(rng, SEED, 0);
    assert_int_equal(engine_position_new(NULL, st, &cfg, rng), ENGINE_ACCEPTED);
    int at = engine_location_find(ENGINE_TERRITORY_THE_GREAT_FLAT, 14);
    assert_true(at >= 0);
    unsigned flat = (unsigned)at;
    assert_int_equal(engine_position_forces(st, BG, flat, 5, 0), 0);
    assert_int_equal(engine_position_forces(st, HARKONNEN, flat, 5, 0), 0);
    assert_true(engine_position_nexus_give(st, HARKONNEN, card) >= 0);
    assert_true(engine_position_nexus_give(st, ATREIDES, ENGINE_FACTION_FREMEN) >= 0);
    assert_int_equal(engine_position_enter(st, ENGINE_PHASE_BATTLE, 3, 0, rng), 0);
    engine_action voice = {ENGINE_ACTION_VOICE, BG, {0, 2}};
    assert_int_equal(engine_apply(NULL, st, &voice, rng), ENGINE_ACCEPTED);
    assert_non_null(engine_nexus_window(st));
}

/* `seat`'s bot of `level` decides; its action must be legal and accepted
 * (on a copy). */
static engine_action decide(const engine_state *st, unsigned seat, unsigned level)
{
    bot_input *in = malloc(sizeof *in);
    assert_non_null(in);
    bot *b;
    assert_int_equal(bot_new(&b, (uint8_t)seat, (bot_level)level, 5), BOT_OK);
    bot_input_build(in, st, (uint8_t)seat, 10, 0);
    engine_action act;
    assert_int_equal(bot_decide(&act, b, in), BOT_OK);
    engine_state copy = *st;
    engine_rng rng;
    engine_rng_init(&rng, SEED, 11);
    assert_int_equal(engine_apply(NULL, &copy, &act, &rng), ENGINE_ACCEPTED);
    bot_free(b);
    free(in);
    return act;
}

static void test_bots_nexus_window__the_holder_stops_a_voice_against_it(void **state)
{
    (void)state;
    engine_state *st = malloc(sizeof *st);
    assert_non_null(st);
    engine_rng rng;
    position(st, &rng, ENGINE_FACTION_BENE_GESSERIT);
    int16_t id = (int16_t)engine_window_from_slug("nexus");
    for (unsigned level = BOT_LEVEL_MEDIUM; level < BOT_LEVEL_COUNT; level++) {
        engine_action act = decide(st, HARKONNEN, level);
        assert_int_equal(act.kind, ENGINE_ACTION_ANSWER);
        assert_int_equal(act.arg[0], id);
        assert_int_equal(act.arg[1], 4);
    }
    /* Easy passes; the Atreides, not in the battle and holding another
     * card, pass at every level. */
    engine_action act = decide(st, HARKONNEN, BOT_LEVEL_EASY);
    assert_int_equal(act.kind, ENGINE_ACTION_ANSWER);
    assert_int_equal(act.arg[1], 0);
    for (unsigned level = 0; level < BOT_LEVEL_COUNT; level++) {
        act = decide(st, ATREIDES, level);
        assert_int_equal(act.kind, ENGINE_ACTION_ANSWER);
        assert_int_equal(act.arg[1], 0);
    }
    /* Holding another card, the Harkonnen pass. */
    position(st, &rng, ENGINE_FACTION_EMPEROR);
    for (unsigned level = 0; level < BOT_LEVEL_COUNT; level++) {
        act = decide(st, HARKONNEN, level);
        assert_int_equal(act.kind, ENGINE_ACTION_ANSWER);
        assert_int_equal(act.arg[1], 0);
    }
    free(st);
}

static void test_bots_nexus_window__policy_from_the_level_alone(void **state)
{
    (void)state;
    engine_state *st = malloc(sizeof *st);
    assert_non_null(st);
    engine_rng rng;
    position(st, &rng, ENGINE_FACTION_BENE_GESSERIT);
    /* The window closed by passes; the plans' step asks both sides, where
     * the policy is offered. */
    engine_action pass = {ENGINE_ACTION_ANSWER, HARKONNEN, {0}};
    pass.arg[0] = (int16_t)engine_window_from_slug("nexus");
    assert_int_equal(engine_apply(NULL, st, &pass, &rng), ENGINE_ACCEPTED);
    pass.seat = ATREIDES;
    assert_int_equal(engine_apply(NULL, st, &pass, &rng), ENGINE_ACCEPTED);
    assert_null(engine_nexus_window(st));
    int16_t policy = (int16_t)engine_power_from_slug("nexus_policy");
    engine_state *medium = malloc(sizeof *medium);
    assert_non_null(medium);
    *medium = *st;
    /* Easy: its Karama policy first (engine/karama.c), then the Nexus one. */
    engine_action act = decide(st, HARKONNEN, BOT_LEVEL_EASY);
    if (act.kind == ENGINE_ACTION_KARAMA_POLICY) {
        assert_int_equal(engine_apply(NULL, st, &act, &rng), ENGINE_ACCEPTED);
        act = decide(st, HARKONNEN, BOT_LEVEL_EASY);
    }
    assert_int_equal(act.kind, ENGINE_ACTION_POWER);
    assert_int_equal(act.arg[0], policy);
    assert_int_equal(act.arg[1], ENGINE_NEXUS_POINTS_ALL);
    /* Medium keeps the default: whatever it plays, never the policy. */
    for (int i = 0; i < 2; i++) {
        act = decide(medium, HARKONNEN, BOT_LEVEL_MEDIUM);
        assert_false(act.kind == ENGINE_ACTION_POWER && act.arg[0] == policy);
        if (act.kind != ENGINE_ACTION_KARAMA_POLICY)
            break;
        assert_int_equal(engine_apply(NULL, medium, &act, &rng), ENGINE_ACCEPTED);
    }
    free(medium);
    free(st);
}

/* Seat 0 holds the card printed `card`, seat 1 the Guild's; the Fremen and
 * the Harkonnen absent. The worm of turn 2 strikes Cielago North, where
 * both stand (`pause` 0), or turn 2's Mentat Pause (`pause` 1). */
static void moment_position(engine_state *st, engine_rng *rng, unsigned card, int pause)
{
    test_nexus_three_seats(st, rng, SEED, ENGINE_RULES_VERSION, ENGINE_FACTION_ATREIDES,
                           ENGINE_FACTION_EMPEROR, ENGINE_FACTION_BENE_GESSERIT);
    assert_true(engine_position_nexus_give(st, 0, card) >= 0);
    assert_true(engine_position_nexus_give(st, 1, ENGINE_FACTION_GUILD) >= 0);
    if (pause) {
        assert_int_equal(engine_position_enter(st, ENGINE_PHASE_MENTAT_PAUSE, 2, 0, rng), 0);
        return;
    }
    int north = engine_location_find(ENGINE_TERRITORY_CIELAGO_NORTH, 2);
    assert_true(north >= 0);
    assert_int_equal(engine_position_forces(st, 0, (unsigned)north, 4, 0), 0);
    assert_int_equal(engine_position_forces(st, 1, (unsigned)north, 4, 0), 0);
    assert_int_equal(engine_position_spice_discard(
                         st, (unsigned)engine_spice_card_of(ENGINE_TERRITORY_CIELAGO_NORTH)),
                     0);
    assert_int_equal(engine_position_spice_top(
                         st, (unsigned)engine_spice_card_of(ENGINE_TERRITORY_THE_GREAT_FLAT)),
                     0);
    assert_int_equal(engine_position_spice_top(st, (unsigned)engine_spice_worm(0)), 0);
    assert_int_equal(engine_position_enter(st, ENGINE_PHASE_SPICE_BLOW, 2, 0, rng), 0);
}

static void test_bots_nexus_window__own_moments(void **state)
{
    (void)state;
    engine_state *st = malloc(sizeof *st);
    assert_non_null(st);
    engine_rng rng;
    int16_t id = (int16_t)engine_window_from_slug("nexus_moment");
    static const struct {
        uint8_t card, pause, panel;
    } moments[] = {{ENGINE_FACTION_FREMEN, 0, 12}, {ENGINE_FACTION_HARKONNEN, 1, 15}};
    for (size_t m = 0; m < sizeof moments / sizeof moments[0]; m++) {
        moment_position(st, &rng, moments[m].card, moments[m].pause);
        assert_non_null(engine_nexus_moment_window(st));
        for (unsigned level = BOT_LEVEL_MEDIUM; level < BOT_LEVEL_COUNT; level++) {
            engine_action act = decide(st, 0, level);
            assert_int_equal(act.kind, ENGINE_ACTION_ANSWER);
            assert_int_equal(act.arg[0], id);
            assert_int_equal(act.arg[1], moments[m].panel);
            act = decide(st, 1, level); /* another card: pass */
            assert_int_equal(act.kind, ENGINE_ACTION_ANSWER);
            assert_int_equal(act.arg[1], 0);
        }
    }
    /* After 15, the returns: a Medium bot makes them, and the storm begins. */
    engine_action act = decide(st, 0, BOT_LEVEL_MEDIUM);
    assert_int_equal(engine_apply(NULL, st, &act, &rng), ENGINE_ACCEPTED);
    engine_action pass = {ENGINE_ACTION_ANSWER, 1, {id, 0}};
    assert_int_equal(engine_apply(NULL, st, &pass, &rng), ENGINE_ACCEPTED);
    for (int k = 0; k < 2; k++) {
        assert_int_equal(st->phase, ENGINE_PHASE_MENTAT_PAUSE);
        act = decide(st, 0, BOT_LEVEL_MEDIUM);
        assert_int_equal(act.arg[0], engine_power_from_slug("nexus_traitor_return"));
        assert_int_equal(engine_apply(NULL, st, &act, &rng), ENGINE_ACCEPTED);
    }
    assert_int_equal(st->phase, ENGINE_PHASE_STORM);
    free(st);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bots_nexus_window__the_holder_stops_a_voice_against_it),
        cmocka_unit_test(test_bots_nexus_window__policy_from_the_level_alone),
        cmocka_unit_test(test_bots_nexus_window__own_moments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
