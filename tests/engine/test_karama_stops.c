/*
 * test_karama_stops.c - the Karama stops of the Emperor's and Fremen's
 * Advanced abilities (rules version 8; FAQ20 pp. 7-8; engine/karama_stops.c;
 * docs/RULINGS.md R131-R135) through the engine API on constructed
 * positions: a plan using the Sardaukar's worth is held before it is
 * committed, its arguments hidden from every other seat; stopped, the
 * side plans again, its elite counted as normal forces for the rest of the
 * battle, and the stop is recorded in the state's encoding; an answer of
 * prescience on that side's dial binds it no more; an Advanced room of
 * version 7 holds nothing and encodes as before; the look at the next
 * storm card stopped hides the drawn card from the Fremen too; the bots
 * from Medium up play the stops from their own view, Easy lets them
 * stand. The rules with their sources are the
 * tests/scenarios/advanced_karama_{emperor_sardaukar,fremen_battle,
 * fremen_storm_peek,fremen_worm_placement}.json scenarios; advantages are
 * named, never numbered.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine/engine.h"
#include "tests/support/support.h"
#include "tools/internal.h"

static const uint8_t SEED[ENGINE_SEED_BYTES] = {8, 26, 30, 4};

enum { EMPEROR = 0, HARKONNEN = 1, ATREIDES = 2 };

#define SARDAUKAR ENGINE_ADVANTAGE_EMPEROR_SARDAUKAR
#define SARDAUKAR_BIT ENGINE_ADVANTAGE_BIT(ENGINE_ADVANTAGE_EMPEROR_SARDAUKAR)

static unsigned first_loc(unsigned territory)
{
    for (unsigned l = 0; l < ENGINE_LOCATION_COUNT; l++)
        if (engine_location_territory(l) == territory)
            return l;
    fail();
    return 0;
}

static engine_verdict apply(engine_state *st, const engine_action *act, unsigned n)
{
    engine_rng rng;
    engine_rng_init(&rng, SEED, 10 + n);
    return engine_apply(NULL, st, act, &rng);
}

/* A cleared Advanced table of three seats, f0..f2 their factions. */
static void table(engine_state *st, uint8_t f0, uint8_t f1, uint8_t f2, unsigned version)
{
    engine_config cfg;
    engine_config_init(&cfg);
    cfg.n_seats = 3;
    cfg.faction[0] = f0;
    cfg.faction[1] = f1;
    cfg.faction[2] = f2;
    cfg.is_advanced = 1;
    cfg.rules_version = (uint16_t)version;
    engine_rng rng;
    engine_rng_init(&rng, SEED, 0);
    assert_int_equal(engine_position_new(NULL, st, &cfg, &rng), ENGINE_ACCEPTED);
}

/* The Emperor (2 Sardaukar and 4 forces, 4 spice) and the Harkonnen (7
 * forces, 10 spice, a Karama) fight in Carthag; the Atreides elsewhere
 * with `atreides_card` (a Karama) or none, allied to the Harkonnen when
 * `allied`; an Advanced room of `version`. */
static void battle(engine_state *st, unsigned version, int atreides_card, int allied)
{
    table(st, ENGINE_FACTION_EMPEROR, ENGINE_FACTION_HARKONNEN, ENGINE_FACTION_ATREIDES, version);
    engine_rng rng;
    unsigned carthag = first_loc(ENGINE_TERRITORY_CARTHAG);
    assert_int_equal(engine_position_forces(st, EMPEROR, carthag, 4, 2), 0);
    assert_int_equal(engine_position_forces(st, HARKONNEN, carthag, 7, 0), 0);
    assert_int_equal(engine_position_forces(st, ATREIDES, first_loc(ENGINE_TERRITORY_ARRAKEEN), 3, 0), 0);
    assert_int_equal(engine_position_seat_spice(st, EMPEROR, 4), 0);
    assert_int_equal(engine_position_seat_spice(st, HARKONNEN, 10), 0);
    assert_true(engine_position_give_card(st, HARKONNEN, ENGINE_CARD_KARAMA) >= 0);
    if (atreides_card)
        assert_true(engine_position_give_card(st, ATREIDES, ENGINE_CARD_KARAMA) >= 0);
    if (allied)
        assert_int_equal(engine_position_alliance(st, HARKONNEN, ATREIDES), 0);
    engine_rng_init(&rng, SEED, 1);
    assert_int_equal(engine_position_enter(st, ENGINE_PHASE_BATTLE, 4, 0, &rng), 0);
    assert_int_equal(engine_state_check(st), 0);
}

static int leader_of(unsigned faction)
{
    for (int l = 0; l < ENGINE_LEADER_COUNT; l++)
        if (engine_leader_faction((unsigned)l) == faction)
            return l;
    fail();
    return -1;
}

/* A plan of `seat`: its first leader, forces by strength held as n + 1. */
static engine_action plan(uint8_t seat, unsigned faction, int dial, int half, int elite,
                          int elite_half)
{
    engine_action act = {ENGINE_ACTION_BATTLE_PLAN, seat, {0, -1, -1, -1, 0, 0, 0, 0}};
    act.arg[0] = (int16_t)leader_of(faction);
    act.arg[4] = (int16_t)dial;
    act.arg[5] = (int16_t)(half + 1);
    act.arg[6] = (int16_t)(elite + 1);
    act.arg[7] = (int16_t)(elite_half + 1);
    return act;
}

static unsigned side_of(const engine_state *st, unsigned seat)
{
    return st->battle_seat[0] == seat ? 0u : 1u;
}

static unsigned hand_size(const engine_state *st, unsigned seat)
{
    unsigned n = 0;
    for (unsigned c = 0; c < st->n_cards; c++)
        n += st->card[c].place == ENGINE_PLACE_HAND && st->card[c].holder == seat;
    return n;
}

/* The Emperor's plan with both Sardaukar at full strength is held in a
 * Karama window offering their worth alone, asking the seats holding a
 * card but the Emperor; nothing of the plan is committed, and no other
 * seat's view (nor a spectator's) shows its arguments. Two worlds whose
 * held plans differ look the same to them. */
static void test_karama_stops__plan_held_hidden(void **state)
{
    (void)state;
    engine_state world[2];
    for (unsigned w = 0; w < 2; w++) {
        battle(&world[w], 8, 1, 0);
        engine_action p = plan(EMPEROR, ENGINE_FACTION_EMPEROR, w ? 2 : 0, w ? 2 : 4, 2, 0);
        assert_int_equal(apply(&world[w], &p, 2), ENGINE_ACCEPTED);
        const engine_frame *f = engine_window_top(&world[w]);
        assert_non_null(f);
        assert_int_equal(f->point, ENGINE_WINDOW_KARAMA);
        assert_int_equal(f->rows, SARDAUKAR_BIT);
        assert_int_equal(f->asked, (1u << HARKONNEN) | (1u << ATREIDES));
        assert_int_equal(world[w].plan[side_of(&world[w], EMPEROR)].is_committed, 0);
        assert_int_equal(engine_state_check(&world[w]), 0);
        assert_int_equal(test_state_round_trip(&world[w]), 0);
    }
    static const uint8_t viewers[] = {HARKONNEN, ATREIDES, ENGINE_VIEW_PUBLIC};
    for (unsigned i = 0; i < sizeof viewers; i++) {
        engine_state a, b;
        engine_view(&a, &world[0], viewers[i]);
        engine_view(&b, &world[1], viewers[i]);
        for (unsigned k = 0; k < ENGINE_ACTION_MAX_ARGS; k++)
            assert_int_equal(engine_window_top(&a)->held.arg[k], 0);
        static uint8_t x[ENGINE_STATE_ENCODED_MAX], y[ENGINE_STATE_ENCODED_MAX];
        size_t lx = test_state_canonical(x, &a), ly = test_state_canonical(y, &b);
        assert_int_equal(lx, ly);
        assert_memory_equal(x, y, lx);
    }
    engine_state mine;
    engine_view(&mine, &world[1], EMPEROR);
    assert_int_equal(engine_window_top(&mine)->held.arg[4], 2);
}

/* Allowed, the plan stands as made: the Sardaukar worth two (4 + 2 + 1
 * = 7, 14 half points). Cancelled, the card is spent, the plan dropped,
 * the Emperor asked again; the same plan commits without a second window
 * and is worth 2 + 2 + 1 = 5; the stop is in the state (and its
 * encoding) until the battle ends. The Emperor may not cancel its own
 * advantage; a stop once played is not offered again in the battle. */
static void test_karama_stops__sardaukar_stopped(void **state)
{
    (void)state;
    engine_state st;
    battle(&st, 8, 1, 0);
    engine_action p = plan(EMPEROR, ENGINE_FACTION_EMPEROR, 2, 2, 2, 0);
    assert_int_equal(apply(&st, &p, 2), ENGINE_ACCEPTED);
    unsigned side = side_of(&st, EMPEROR);

    engine_state allowed = st;
    engine_action allow_h = {ENGINE_ACTION_KARAMA_ALLOW, HARKONNEN, {0}};
    engine_action allow_a = {ENGINE_ACTION_KARAMA_ALLOW, ATREIDES, {0}};
    assert_int_equal(apply(&allowed, &allow_h, 3), ENGINE_ACCEPTED);
    assert_int_equal(apply(&allowed, &allow_a, 4), ENGINE_ACCEPTED);
    assert_null(engine_window_top(&allowed));
    assert_int_equal(allowed.plan[side].is_committed, 1);
    assert_int_equal(engine_plan_forces_strength2(&allowed, side), 14);
    assert_int_equal(allowed.karama_stopped, 0);

    engine_action own = {ENGINE_ACTION_KARAMA_CANCEL, EMPEROR, {SARDAUKAR}};
    assert_int_not_equal(apply(&st, &own, 5), ENGINE_ACCEPTED);
    engine_action cancel = {ENGINE_ACTION_KARAMA_CANCEL, HARKONNEN, {SARDAUKAR}};
    unsigned hand = hand_size(&st, HARKONNEN);
    assert_int_equal(apply(&st, &cancel, 6), ENGINE_ACCEPTED);
    assert_null(engine_window_top(&st));
    assert_int_equal(hand_size(&st, HARKONNEN), hand - 1);
    assert_int_equal(st.plan[side].is_committed, 0);
    assert_true(st.awaiting & ~st.answered & (1u << EMPEROR));
    assert_int_equal(st.karama_stopped, SARDAUKAR_BIT);
    assert_int_equal(engine_state_check(&st), 0);
    assert_int_equal(test_state_round_trip(&st), 0);
    assert_int_equal(apply(&st, &p, 7), ENGINE_ACCEPTED);
    assert_null(engine_window_top(&st)); /* the Atreides' Karama: nothing offered */
    assert_int_equal(st.plan[side].is_committed, 1);
    assert_int_equal(engine_plan_forces_strength2(&st, side), 10);
    engine_action again = {ENGINE_ACTION_KARAMA_CANCEL, ATREIDES, {SARDAUKAR}};
    assert_int_not_equal(apply(&st, &again, 8), ENGINE_ACCEPTED);
    /* The battle fought, the stop ends with it. */
    engine_action h = plan(HARKONNEN, ENGINE_FACTION_HARKONNEN, 6, 0, 0, 0);
    assert_int_equal(apply(&st, &h, 9), ENGINE_ACCEPTED);
    for (unsigned s = 0; s < 2; s++) {
        engine_action call = {ENGINE_ACTION_TRAITOR_CALL, st.battle_seat[s], {0}};
        assert_int_equal(apply(&st, &call, 10 + s), ENGINE_ACCEPTED);
    }
    /* The Harkonnen, winning, first decide on the leader drawn (R154). */
    if (st.phase == ENGINE_PHASE_BATTLE && st.step == ENGINE_BATTLE_STEP_CAPTURE) {
        engine_action spare = {ENGINE_ACTION_POWER, HARKONNEN,
                               {(int16_t)engine_power_from_slug("spare_leader")}};
        assert_int_equal(apply(&st, &spare, 12), ENGINE_ACCEPTED);
    }
    assert_int_equal(st.karama_stopped, 0);
    assert_int_equal(engine_state_check(&st), 0);
}

/* An answer of prescience on the Emperor's dial (strength and support,
 * R117) given of a plan the Sardaukar's worth shaped binds it no more
 * once stopped (R133): the side redoes its plan. The Atreides, allied to
 * the Harkonnen, ask the dial; the Emperor answer 14 half points on 4
 * spice; their plan matching it is held and stopped; they then commit
 * another. */
static void test_karama_stops__lifts_dial_answer(void **state)
{
    (void)state;
    engine_state st;
    battle(&st, 8, 0, 1);
    engine_action ask = {ENGINE_ACTION_PRESCIENCE, ATREIDES, {ENGINE_PRESCIENCE_DIAL}};
    assert_int_equal(apply(&st, &ask, 2), ENGINE_ACCEPTED);
    engine_action allow = {ENGINE_ACTION_KARAMA_ALLOW, HARKONNEN, {0}};
    if (engine_window_top(&st)->point == ENGINE_WINDOW_KARAMA)
        assert_int_equal(apply(&st, &allow, 3), ENGINE_ACCEPTED);
    engine_action answer = {ENGINE_ACTION_PRESCIENCE_ANSWER, EMPEROR, {14, 4 + 1}};
    assert_int_equal(apply(&st, &answer, 4), ENGINE_ACCEPTED);
    assert_non_null(engine_effect_find(&st, ENGINE_EFFECT_PRESCIENCE));
    engine_action other = plan(EMPEROR, ENGINE_FACTION_EMPEROR, 0, 4, 2, 0);
    assert_int_equal(apply(&st, &other, 5), ENGINE_REJECT_PRESCIENCE_MISMATCH);
    engine_action p = plan(EMPEROR, ENGINE_FACTION_EMPEROR, 2, 2, 2, 0);
    assert_int_equal(apply(&st, &p, 6), ENGINE_ACCEPTED);
    assert_non_null(engine_window_top(&st));
    engine_action cancel = {ENGINE_ACTION_KARAMA_CANCEL, HARKONNEN, {SARDAUKAR}};
    assert_int_equal(apply(&st, &cancel, 7), ENGINE_ACCEPTED);
    assert_null(engine_effect_find(&st, ENGINE_EFFECT_PRESCIENCE));
    assert_int_equal(engine_state_check(&st), 0);
    assert_int_equal(apply(&st, &other, 8), ENGINE_ACCEPTED);
    assert_int_equal(engine_plan_forces_strength2(&st, side_of(&st, EMPEROR)), 8);
}

/* An Advanced room of rules version 7: the same plan commits at once,
 * with no window, worth its full 14 half points, and the room never
 * carries the stops. */
static void test_karama_stops__version_7_unchanged(void **state)
{
    (void)state;
    engine_state st;
    battle(&st, 7, 1, 0);
    engine_action p = plan(EMPEROR, ENGINE_FACTION_EMPEROR, 2, 2, 2, 0);
    assert_int_equal(apply(&st, &p, 2), ENGINE_ACCEPTED);
    assert_null(engine_window_top(&st));
    unsigned side = side_of(&st, EMPEROR);
    assert_int_equal(st.plan[side].is_committed, 1);
    assert_int_equal(engine_plan_forces_strength2(&st, side), 14);
    assert_int_equal(engine_karama_offered(&st) & SARDAUKAR_BIT, 0);
    /* karama_stopped is not encoded: set, the state is refused. */
    st.karama_stopped = SARDAUKAR_BIT;
    assert_int_not_equal(engine_state_check(&st), 0);
}

/* The Fremen (no forces in the storm's way), the Harkonnen (a Karama)
 * and the Atreides, turn 1 of an Advanced room of version 8: the storm
 * dialled 1 + 1, then the storm deck's draw waits on a Karama window. */
static void storm(engine_state *st)
{
    table(st, ENGINE_FACTION_FREMEN, ENGINE_FACTION_HARKONNEN, ENGINE_FACTION_ATREIDES, 8);
    engine_rng rng;
    assert_true(engine_position_give_card(st, 1, ENGINE_CARD_KARAMA) >= 0);
    engine_rng_init(&rng, SEED, 1);
    assert_int_equal(engine_position_enter(st, ENGINE_PHASE_STORM, 1, 0, &rng), 0);
    for (uint8_t s = 0; s < 3; s++)
        if (st->awaiting & (1u << s)) {
            engine_action dial = {ENGINE_ACTION_STORM_DIAL, s, {1}};
            assert_int_equal(apply(st, &dial, 20 + s), ENGINE_ACCEPTED);
        }
    const engine_frame *f = engine_window_top(st);
    assert_non_null(f);
    assert_int_equal(f->rows, ENGINE_ADVANTAGE_BIT(ENGINE_ADVANTAGE_FREMEN_STORM_PEEK));
    assert_int_equal(f->asked, 1u << 1);
    assert_int_equal(st->next_storm, 0); /* not drawn yet */
    assert_int_equal(engine_state_check(st), 0);
}

/* Allowed, the card is drawn and the Fremen see it; stopped, it is drawn
 * all the same, but no view shows it, the Fremen's neither, until the
 * next Storm phase. */
static void test_karama_stops__storm_peek(void **state)
{
    (void)state;
    engine_state st, v;
    storm(&st);
    engine_state allowed = st;
    engine_action allow = {ENGINE_ACTION_KARAMA_ALLOW, 1, {0}};
    assert_int_equal(apply(&allowed, &allow, 30), ENGINE_ACCEPTED);
    assert_int_not_equal(allowed.next_storm, 0);
    engine_view(&v, &allowed, 0);
    assert_int_equal(v.next_storm, allowed.next_storm);
    engine_action cancel = {ENGINE_ACTION_KARAMA_CANCEL, 1, {ENGINE_ADVANTAGE_FREMEN_STORM_PEEK}};
    assert_int_equal(apply(&st, &cancel, 30), ENGINE_ACCEPTED);
    assert_int_equal(st.next_storm, allowed.next_storm); /* the same draw */
    assert_true(st.karama_stopped & ENGINE_ADVANTAGE_BIT(ENGINE_ADVANTAGE_FREMEN_STORM_PEEK));
    for (uint8_t s = 0; s < 3; s++) {
        engine_view(&v, &st, s);
        assert_int_equal(v.next_storm, 0);
    }
    engine_view(&v, &st, ENGINE_VIEW_PUBLIC);
    assert_int_equal(v.next_storm, 0);
    assert_int_equal(engine_state_check(&st), 0);
    assert_int_equal(test_state_round_trip(&st), 0);
}

/* The action the bot of `level` in `seat` chooses from its own view. */
static engine_action bot_choice_of(const engine_state *st, uint8_t seat, bot_level level)
{
    engine_action act;
    assert_int_equal(test_bot_choice(&act, st, seat, (int)level, SEED), 0);
    return act;
}

/* From Medium up a bot fighting the Emperor cancels the Sardaukar's
 * worth (2 of them stand there) from its own view; Easy lets it stand.
 * The bots' standing policy asks about the battle stops in their own
 * battle from Medium up, in a room that offers them. */
static void test_karama_stops__bots(void **state)
{
    (void)state;
    engine_state st;
    battle(&st, 8, 0, 0);
    engine_action p = plan(EMPEROR, ENGINE_FACTION_EMPEROR, 2, 2, 2, 0);
    assert_int_equal(apply(&st, &p, 2), ENGINE_ACCEPTED);
    assert_non_null(engine_window_top(&st));
    static const bot_level levels[] = {BOT_LEVEL_MEDIUM, BOT_LEVEL_HARD, BOT_LEVEL_BRUTAL};
    for (size_t i = 0; i < sizeof levels / sizeof levels[0]; i++) {
        engine_action act = bot_choice_of(&st, HARKONNEN, levels[i]);
        assert_int_equal(act.kind, ENGINE_ACTION_KARAMA_CANCEL);
        assert_int_equal(act.arg[0], SARDAUKAR);
        engine_state after = st;
        assert_int_equal(apply(&after, &act, 3), ENGINE_ACCEPTED);
    }
    assert_int_equal(bot_choice_of(&st, HARKONNEN, BOT_LEVEL_EASY).kind, ENGINE_ACTION_KARAMA_ALLOW);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_karama_stops__plan_held_hidden),
        cmocka_unit_test(test_karama_stops__sardaukar_stopped),
        cmocka_unit_test(test_karama_stops__lifts_dial_answer),
        cmocka_unit_test(test_karama_stops__version_7_unchanged),
        cmocka_unit_test(test_karama_stops__storm_peek),
        cmocka_unit_test(test_karama_stops__bots),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
