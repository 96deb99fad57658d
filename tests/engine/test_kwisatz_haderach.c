/*
 * test_kwisatz_haderach.c - the Kwisatz Haderach (Advanced, rules version
 * 6; LR 2.01.10-15; its use stoppable by a Karama from version 7, FAQ20
 * pp. 7-8) through the engine API on constructed positions: in
 * force only in an Advanced room of version 6 with the Atreides, so that
 * a Basic room and an Advanced room of version 5 fold and encode as
 * before; its declaration is a new hidden fact until the plans are
 * revealed; random legal play with it awake keeps every invariant; the
 * bots from Medium up declare it and revive it, Easy leaves it. The
 * rules themselves, with their sources, are the
 * tests/scenarios/advanced_kh_*.json scenarios.
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

static const uint8_t SEED[ENGINE_SEED_BYTES] = {2, 1, 10, 15};

enum { ATREIDES = 0, HARKONNEN = 1 };

/* Atreides and Harkonnen, 5 forces each on The Great Flat and 10 spice,
 * the Kwisatz Haderach awake when the rules have it, in the Battle. */
static int battle(engine_state *st, int advanced, unsigned version)
{
    test_battle_table(st, ENGINE_FACTION_ATREIDES, ENGINE_FACTION_HARKONNEN, advanced, version,
                      SEED);
    engine_rng rng;
    int awake = engine_position_kwisatz_haderach(st, ENGINE_KH_AWAKENING_LOSSES, 0);
    engine_rng_init(&rng, SEED, 1);
    assert_int_equal(engine_position_enter(st, ENGINE_PHASE_BATTLE, 3, 0, &rng), 0);
    assert_int_equal(engine_state_check(st), 0);
    return awake;
}

static engine_verdict apply(engine_state *st, const engine_action *act, unsigned n)
{
    engine_rng rng;
    engine_rng_init(&rng, SEED, 10 + n);
    return engine_apply(NULL, st, act, &rng);
}

static engine_action declare(int use)
{
    engine_action act = {ENGINE_ACTION_POWER, ATREIDES, {0}};
    act.arg[0] = (int16_t)engine_power_from_slug("kwisatz_haderach");
    act.arg[1] = (int16_t)use;
    return act;
}

static engine_action pass_prescience(void)
{
    engine_action act = {ENGINE_ACTION_PRESCIENCE_PASS, ATREIDES, {0}};
    return act;
}

static int leader_of(unsigned faction)
{
    for (int l = 0; l < ENGINE_LEADER_COUNT; l++)
        if (engine_leader_faction((unsigned)l) == faction)
            return l;
    fail();
    return -1;
}

static engine_action plan(uint8_t seat, unsigned faction)
{
    engine_action act = {ENGINE_ACTION_BATTLE_PLAN, seat, {0, -1, -1, -1, 1, 1, 1, 1}};
    act.arg[0] = (int16_t)leader_of(faction);
    return act;
}

/* The two worlds give the Harkonnen and a spectator identical views. */
static void same_to_others(const engine_state world[2])
{
    static const uint8_t viewers[] = {HARKONNEN, ENGINE_VIEW_PUBLIC};
    for (unsigned i = 0; i < sizeof viewers; i++) {
        engine_state a, b;
        engine_view(&a, &world[0], viewers[i]);
        engine_view(&b, &world[1], viewers[i]);
        static uint8_t x[ENGINE_STATE_ENCODED_MAX], y[ENGINE_STATE_ENCODED_MAX];
        size_t lx = test_state_canonical(x, &a), ly = test_state_canonical(y, &b);
        assert_int_equal(lx, ly);
        assert_memory_equal(x, y, lx);
    }
}

static unsigned hand_size(const engine_state *st, unsigned seat)
{
    unsigned n = 0;
    for (unsigned c = 0; c < st->n_cards; c++)
        n += st->card[c].place == ENGINE_PLACE_HAND && st->card[c].holder == seat;
    return n;
}

/* 1 if `seat` is offered the power `id`. */
static int power_offered(const engine_state *st, uint8_t seat, int id)
{
    static engine_legal legal[512];
    size_t n = engine_legal_actions(legal, 512, st, seat);
    for (size_t i = 0; i < n && i < 512; i++)
        if (legal[i].kind == ENGINE_ACTION_POWER && legal[i].lo[0] == id)
            return 1;
    return 0;
}

/* In force in an Advanced room of version 6 alone: elsewhere the position
 * refuses it, the power is no power of the Atreides, and the state
 * encodes as under version 5 (no byte of it). */
static void test_kwisatz_haderach__only_in_version_6_advanced(void **state)
{
    (void)state;
    static const struct {
        int advanced;
        unsigned version;
        int in_force;
    } cases[] = {{1, 6, 1}, {1, 5, 0}, {0, 6, 0}, {0, 5, 0}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        engine_state st, before;
        int awake = battle(&st, cases[i].advanced, cases[i].version);
        assert_int_equal(engine_kh_in_force(&st), cases[i].in_force);
        assert_int_equal(awake, cases[i].in_force ? 0 : -1);
        engine_action pass = pass_prescience(), kh = declare(ENGINE_KH_WITH);
        assert_int_equal(apply(&st, &pass, 0), ENGINE_ACCEPTED);
        memcpy(&before, &st, sizeof before);
        engine_verdict v = apply(&st, &kh, 1);
        if (!cases[i].in_force) {
            assert_int_not_equal(v, ENGINE_ACCEPTED);
            assert_memory_equal(&before, &st, sizeof st);
            continue;
        }
        assert_int_equal(v, ENGINE_ACCEPTED);
        assert_int_equal(st.plan[0].kwisatz_haderach, ENGINE_KH_WITH);
        assert_int_equal(test_state_round_trip(&st), 0);
    }
    /* The same position encodes, under version 6, one byte per plan and
     * three more for the token than under version 5, and one per seat for
     * the turn's elite revivals (docs/FORMAT.md), beside the other blocks
     * of an Advanced state of version 6: the double blow's (pile B's count,
     * the pile, its worms, 8 bytes of territories struck) and the advisor's
     * accompanying send (1). */
    engine_state v5, v6;
    battle(&v5, 1, 5);
    battle(&v6, 1, 6);
    static uint8_t x[ENGINE_STATE_ENCODED_MAX], y[ENGINE_STATE_ENCODED_MAX];
    size_t l5 = engine_state_encode(x, sizeof x, &v5), l6 = engine_state_encode(y, sizeof y, &v6);
    assert_int_equal(l6, l5 + 2 + 3 + 2 + (1 + 1 + 1 + 8) + 1);
}

/* The declaration is a new hidden fact until the plans are revealed: two
 * worlds where the Atreides declared with and without it, then committed
 * the same plan, give the Harkonnen and a spectator identical views; the
 * Atreides see their own; once both plans are in, everyone sees it. */
static void test_kwisatz_haderach__declaration_hidden_until_reveal(void **state)
{
    (void)state;
    engine_state world[2];
    for (unsigned w = 0; w < 2; w++) {
        engine_state *st = &world[w];
        assert_int_equal(battle(st, 1, 6), 0);
        engine_action pass = pass_prescience(), kh = declare(w ? ENGINE_KH_WITH : ENGINE_KH_WITHOUT);
        engine_action mine = plan(ATREIDES, ENGINE_FACTION_ATREIDES);
        assert_int_equal(apply(st, &pass, 0), ENGINE_ACCEPTED);
        assert_int_equal(apply(st, &kh, 1), ENGINE_ACCEPTED);
        assert_int_equal(apply(st, &mine, 2), ENGINE_ACCEPTED);
    }
    same_to_others(world);
    engine_state own;
    engine_view(&own, &world[1], ATREIDES);
    assert_int_equal(own.plan[0].kwisatz_haderach, ENGINE_KH_WITH);
    engine_action theirs = plan(HARKONNEN, ENGINE_FACTION_HARKONNEN);
    assert_int_equal(apply(&world[1], &theirs, 3), ENGINE_ACCEPTED);
    engine_view(&own, &world[1], HARKONNEN);
    assert_int_equal(own.plan[0].kwisatz_haderach, ENGINE_KH_WITH); /* revealed */
}

/* Random legal play from a battle with the token awake, the Atreides
 * holding cards: every chosen action accepted, the invariants kept, the
 * encoding round-trips, and the declaration is played both ways. */
static void test_kwisatz_haderach__random_battles(void **state)
{
    (void)state;
    unsigned declared[3] = {0};
    for (uint64_t g = 0; g < 120; g++) {
        uint64_t prng = g * 0x9E3779B97F4A7C15u + 5;
        engine_state st;
        assert_int_equal(battle(&st, 1, 6), 0);
        for (unsigned v = 2; st.phase == ENGINE_PHASE_BATTLE && v < 100; v++) {
            engine_action act;
            if (test_random_legal_by_kind(&act, &st, &prng) != 0)
                break;
            assert_true(test_legal_contains(&st, &act) > 0);
            if (act.kind == ENGINE_ACTION_POWER && act.arg[1] <= ENGINE_KH_WITH)
                declared[act.arg[1]]++;
            assert_int_equal(apply(&st, &act, v), ENGINE_ACCEPTED);
            assert_int_equal(engine_state_check(&st), 0);
            assert_int_equal(test_state_round_trip(&st), 0);
        }
        assert_int_not_equal(st.phase, ENGINE_PHASE_BATTLE); /* the battle ends */
    }
    assert_true(declared[ENGINE_KH_WITHOUT] > 0);
    assert_true(declared[ENGINE_KH_WITH] > 0);
}

static engine_action bot_choice_of(const engine_state *st, uint8_t seat, bot_level level)
{
    engine_action act;
    assert_int_equal(test_bot_choice(&act, st, seat, (int)level, SEED), 0);
    return act;
}

static engine_action bot_choice(const engine_state *st, bot_level level)
{
    return bot_choice_of(st, ATREIDES, level);
}

/* From Medium up the bots declare the token with every plan it may join
 * and revive it when they can; Easy plans without it. */
static void test_kwisatz_haderach__bots(void **state)
{
    (void)state;
    engine_state st;
    assert_int_equal(battle(&st, 1, 6), 0);
    engine_action pass = pass_prescience();
    assert_int_equal(apply(&st, &pass, 0), ENGINE_ACCEPTED);
    static const bot_level levels[] = {BOT_LEVEL_MEDIUM, BOT_LEVEL_HARD, BOT_LEVEL_BRUTAL};
    for (size_t i = 0; i < sizeof levels / sizeof levels[0]; i++) {
        engine_action act = bot_choice(&st, levels[i]);
        assert_int_equal(act.kind, ENGINE_ACTION_POWER);
        assert_int_equal(act.arg[0], engine_power_from_slug("kwisatz_haderach"));
        assert_int_equal(act.arg[1], ENGINE_KH_WITH);
    }
    assert_int_equal(bot_choice(&st, BOT_LEVEL_EASY).kind, ENGINE_ACTION_BATTLE_PLAN);
    /* The token in the Tanks, every leader dead once: revived. */
    engine_config cfg = st.config;
    engine_rng rng;
    engine_rng_init(&rng, SEED, 0);
    assert_int_equal(engine_position_new(NULL, &st, &cfg, &rng), ENGINE_ACCEPTED);
    for (int l = 0; l < ENGINE_LEADER_COUNT; l++)
        if (engine_leader_faction((unsigned)l) == ENGINE_FACTION_ATREIDES)
            assert_int_equal(engine_position_leader_dead(&st, (unsigned)l), 0);
    assert_int_equal(engine_position_seat_spice(&st, ATREIDES, 5), 0);
    assert_int_equal(engine_position_kwisatz_haderach(&st, ENGINE_KH_AWAKENING_LOSSES, 1), 0);
    assert_int_equal(engine_position_enter(&st, ENGINE_PHASE_REVIVAL, 3, 0, &rng), 0);
    engine_action act = bot_choice(&st, BOT_LEVEL_MEDIUM);
    assert_int_equal(act.kind, ENGINE_ACTION_POWER);
    assert_int_equal(act.arg[0], engine_power_from_slug("kwisatz_haderach_revival"));
    assert_int_equal(apply(&st, &act, 1), ENGINE_ACCEPTED);
    assert_int_equal(st.kh_state, ENGINE_KH_REVIVED);
}

/* A battle of rules version `version`, the Harkonnen holding a Karama,
 * in which the Atreides passed prescience and declared `use`. */
static void declared(engine_state *st, unsigned version, int use)
{
    assert_int_equal(battle(st, 1, version), 0);
    assert_true(engine_position_give_card(st, HARKONNEN, ENGINE_CARD_KARAMA) >= 0);
    engine_action pass = pass_prescience(), d = declare(use);
    assert_int_equal(apply(st, &pass, 0), ENGINE_ACCEPTED);
    assert_int_equal(apply(st, &d, 1), ENGINE_ACCEPTED);
}

/* Rules version 7: a Karama may stop the token's use in one battle, before
 * the plans are revealed (FAQ20 pp. 7-8; docs/RULINGS.md R118). Every
 * declaration, with or without it, is held in a Karama window asking the
 * Harkonnen (they hold a Karama), the secret choice hidden from them;
 * allowed, the declaration stands; cancelled, the card is spent, the
 * Atreides are asked again, may no longer declare, and their plan goes
 * without it. Under version 6 there is no window (the test above). */
static void test_kwisatz_haderach__karama_stops_its_use(void **state)
{
    (void)state;
    const uint32_t kh = ENGINE_ADVANTAGE_BIT(ENGINE_ADVANTAGE_ATREIDES_KH);
    engine_state world[2];
    for (unsigned w = 0; w < 2; w++) {
        declared(&world[w], 7, w ? ENGINE_KH_WITH : ENGINE_KH_WITHOUT);
        const engine_frame *f = engine_window_top(&world[w]);
        assert_non_null(f);
        assert_int_equal(f->point, ENGINE_WINDOW_KARAMA);
        assert_int_equal(f->rows, kh);
        assert_int_equal(f->asked, 1u << HARKONNEN);
        assert_int_equal(world[w].plan[0].kwisatz_haderach, ENGINE_KH_UNDECLARED);
        assert_int_equal(engine_state_check(&world[w]), 0);
        assert_int_equal(test_state_round_trip(&world[w]), 0);
    }
    /* The window tells the Harkonnen and a spectator nothing of it. */
    same_to_others(world);
    engine_state mine;
    engine_view(&mine, &world[1], ATREIDES);
    assert_int_equal(engine_window_top(&mine)->held.arg[1], ENGINE_KH_WITH);
    /* Allowed: the declaration stands as made. */
    engine_state allowed = world[1];
    engine_action allow = {ENGINE_ACTION_KARAMA_ALLOW, HARKONNEN, {0}};
    assert_int_equal(apply(&allowed, &allow, 2), ENGINE_ACCEPTED);
    assert_null(engine_window_top(&allowed));
    assert_int_equal(allowed.plan[0].kwisatz_haderach, ENGINE_KH_WITH);
    assert_int_equal(engine_state_check(&allowed), 0);
    /* Cancelled: the card is gone, the Atreides are asked again and may
     * not declare; the plan they commit goes without the token. */
    engine_state stopped = world[1];
    engine_action cancel = {ENGINE_ACTION_KARAMA_CANCEL, HARKONNEN, {ENGINE_ADVANTAGE_ATREIDES_KH}};
    unsigned hand = hand_size(&stopped, HARKONNEN);
    assert_int_equal(apply(&stopped, &cancel, 3), ENGINE_ACCEPTED);
    assert_null(engine_window_top(&stopped));
    assert_int_equal(hand_size(&stopped, HARKONNEN), hand - 1);
    assert_int_equal(stopped.plan[0].kwisatz_haderach, ENGINE_KH_UNDECLARED);
    assert_int_equal(engine_state_check(&stopped), 0);
    int id = engine_power_from_slug("kwisatz_haderach");
    assert_false(power_offered(&stopped, ATREIDES, id));
    engine_action again = declare(ENGINE_KH_WITH);
    assert_int_equal(apply(&stopped, &again, 4), ENGINE_REJECT_NOT_YOUR_POWER);
    engine_action p = plan(ATREIDES, ENGINE_FACTION_ATREIDES);
    assert_int_equal(apply(&stopped, &p, 5), ENGINE_ACCEPTED);
    assert_int_equal(engine_effect_sources(&stopped, ENGINE_EFFECT_CANCELLED), 0);
    assert_int_not_equal(stopped.plan[0].kwisatz_haderach, ENGINE_KH_WITH);
    assert_int_equal(engine_state_check(&stopped), 0);
    /* Version 6: no window, the declaration applies at once. */
    engine_state v6;
    declared(&v6, 6, ENGINE_KH_WITH);
    assert_null(engine_window_top(&v6));
    assert_int_equal(v6.plan[0].kwisatz_haderach, ENGINE_KH_WITH);
}

/* From Medium up the bots ask about the token in their own battle (their
 * policy follows from the level and the room alone) and cancel it from
 * their own view when it would join their battle; Easy lets it stand. */
static void test_kwisatz_haderach__bots_cancel_it(void **state)
{
    (void)state;
    engine_state st;
    declared(&st, 7, ENGINE_KH_WITH);
    assert_non_null(engine_window_top(&st));
    static const bot_level levels[] = {BOT_LEVEL_MEDIUM, BOT_LEVEL_HARD, BOT_LEVEL_BRUTAL};
    for (size_t i = 0; i < sizeof levels / sizeof levels[0]; i++) {
        engine_action act = bot_choice_of(&st, HARKONNEN, levels[i]);
        assert_int_equal(act.kind, ENGINE_ACTION_KARAMA_CANCEL);
        assert_int_equal(act.arg[0], ENGINE_ADVANTAGE_ATREIDES_KH);
    }
    assert_int_equal(bot_choice_of(&st, HARKONNEN, BOT_LEVEL_EASY).kind, ENGINE_ACTION_KARAMA_ALLOW);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kwisatz_haderach__only_in_version_6_advanced),
        cmocka_unit_test(test_kwisatz_haderach__karama_stops_its_use),
        cmocka_unit_test(test_kwisatz_haderach__bots_cancel_it),
        cmocka_unit_test(test_kwisatz_haderach__declaration_hidden_until_reveal),
        cmocka_unit_test(test_kwisatz_haderach__random_battles),
        cmocka_unit_test(test_kwisatz_haderach__bots),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
