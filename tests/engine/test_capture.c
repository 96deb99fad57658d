/*
 * test_capture.c - the Harkonnen's capture or kill of leaders (Advanced,
 * rules version 8; LR 2.05.10-2.05.13; ADVANCED_RULES.md 6.5, 8 items
 * 12-14, 10 #6; docs/RULINGS.md R154-R158) through the engine API on
 * constructed positions: in force only in an Advanced room of version 8
 * with the Harkonnen, so that earlier rooms fold and encode as before;
 * the draw takes only the loser's active leaders; each decision, the
 * illegal ones refused with the state untouched; a captive fields for
 * its captor, goes back after a battle it survives (not after one won by
 * a traitor), to the Tanks of its own faction when killed, called as a
 * traitor by whoever holds its card, and home at a prison break; it blocks none of its faction's revivals; a Karama stops
 * one decision; random legal play keeps every invariant; the bots decide
 * at every level. The rules with their sources are also the
 * tests/scenarios/advanced_harkonnen_*.json scenarios.
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

static const uint8_t SEED[ENGINE_SEED_BYTES] = {2, 5, 10, 13};

enum { HARKONNEN = 0, ATREIDES = 1, EMPEROR = 2 };

static int leader(const char *slug)
{
    int l = engine_leader_from_slug(slug);
    assert_true(l >= 0);
    return l;
}

/* Harkonnen, Atreides and Emperor; the Harkonnen and the Atreides with 4
 * forces each on The Great Flat (and, with `second`, 3 each in the Plastic
 * Basin too), 10 spice each; `dead` Atreides leaders in the Tanks and
 * `captive` (or NULL) held by the Harkonnen; in the Battle. */
static void battle(engine_state *st, int advanced, unsigned version, const char *const *dead,
                   const char *captive, int second)
{
    engine_config cfg;
    engine_config_init(&cfg);
    cfg.n_seats = 3;
    cfg.faction[HARKONNEN] = ENGINE_FACTION_HARKONNEN;
    cfg.faction[ATREIDES] = ENGINE_FACTION_ATREIDES;
    cfg.faction[EMPEROR] = ENGINE_FACTION_EMPEROR;
    cfg.is_advanced = (uint8_t)advanced;
    cfg.rules_version = (uint16_t)version;
    engine_rng rng;
    engine_rng_init(&rng, SEED, 0);
    assert_int_equal(engine_position_new(NULL, st, &cfg, &rng), ENGINE_ACCEPTED);
    int flat = engine_location_find(ENGINE_TERRITORY_THE_GREAT_FLAT, 14);
    int basin = engine_location_find(ENGINE_TERRITORY_PLASTIC_BASIN, 11);
    assert_true(flat >= 0 && basin >= 0);
    for (uint8_t s = 0; s < 2; s++) {
        assert_int_equal(engine_position_forces(st, s, (unsigned)flat, 4, 0), 0);
        if (second)
            assert_int_equal(engine_position_forces(st, s, (unsigned)basin, 3, 0), 0);
        assert_int_equal(engine_position_seat_spice(st, s, 10), 0);
    }
    for (; dead && *dead; dead++)
        assert_int_equal(engine_position_leader_dead(st, (unsigned)leader(*dead)), 0);
    if (captive)
        assert_int_equal(engine_position_captive(st, (unsigned)leader(captive)), 0);
    engine_rng_init(&rng, SEED, 1);
    assert_int_equal(engine_position_enter(st, ENGINE_PHASE_BATTLE, 3, 0, &rng), 0);
    assert_int_equal(engine_state_check(st), 0);
}

static engine_verdict apply(engine_state *st, const engine_action *act, unsigned n)
{
    engine_rng rng;
    engine_rng_init(&rng, SEED, 10 + n);
    return engine_apply(NULL, st, act, &rng);
}

static engine_action simple(unsigned kind, uint8_t seat, int arg0)
{
    engine_action act = {(uint8_t)kind, seat, {0}};
    act.arg[0] = (int16_t)arg0;
    return act;
}

static engine_action power(uint8_t seat, const char *slug)
{
    return simple(ENGINE_ACTION_POWER, seat, engine_power_from_slug(slug));
}

static engine_action plan(uint8_t seat, const char *who, int card, unsigned dial)
{
    engine_action act = {ENGINE_ACTION_BATTLE_PLAN, seat, {0, -1, -1, -1, 0, 1, 1, 1}};
    act.arg[0] = (int16_t)(who ? leader(who) : -1);
    act.arg[2] = (int16_t)card;
    act.arg[4] = (int16_t)dial;
    return act;
}

/* Fights the battle on the state: the aggressor chooses the territory if
 * asked, the Atreides pass prescience; both commit; `calls` bit 0: the
 * Atreides call a traitor, bit 1: the Harkonnen. */
static unsigned fight(engine_state *st, unsigned v, unsigned territory, engine_action hark,
                      engine_action atreides, unsigned calls)
{
    if (st->step == ENGINE_BATTLE_STEP_CHOOSE) {
        uint8_t aggressor = engine_state_awaiting(st) == (1u << ATREIDES) ? ATREIDES : HARKONNEN;
        engine_action choose = simple(ENGINE_ACTION_BATTLE_CHOOSE, aggressor, (int)territory);
        choose.arg[1] = aggressor == ATREIDES ? ENGINE_FACTION_HARKONNEN : ENGINE_FACTION_ATREIDES;
        assert_int_equal(apply(st, &choose, v++), ENGINE_ACCEPTED);
    }
    if (!st->config.is_advanced) /* no forces by strength */
        hark.arg[5] = hark.arg[6] = hark.arg[7] = atreides.arg[5] = atreides.arg[6] =
            atreides.arg[7] = 0;
    engine_action pass = simple(ENGINE_ACTION_PRESCIENCE_PASS, ATREIDES, 0);
    assert_int_equal(apply(st, &pass, v++), ENGINE_ACCEPTED);
    assert_int_equal(apply(st, &atreides, v++), ENGINE_ACCEPTED);
    assert_int_equal(apply(st, &hark, v++), ENGINE_ACCEPTED);
    engine_action call_a = simple(ENGINE_ACTION_TRAITOR_CALL, ATREIDES, (int)(calls & 1));
    engine_action call_h = simple(ENGINE_ACTION_TRAITOR_CALL, HARKONNEN, (int)(calls >> 1 & 1));
    assert_int_equal(apply(st, &call_a, v++), ENGINE_ACCEPTED);
    assert_int_equal(apply(st, &call_h, v++), ENGINE_ACCEPTED);
    assert_int_equal(engine_state_check(st), 0);
    return v;
}

static int asked_to_capture(const engine_state *st)
{
    return st->phase == ENGINE_PHASE_BATTLE && st->step == ENGINE_BATTLE_STEP_CAPTURE &&
           engine_state_awaiting(st) == (1u << HARKONNEN);
}

static const char *const FOUR_DEAD[] = {"thufir_hawat", "lady_jessica", "gurney_halleck",
                                        "dr_wellington_yueh", NULL};

/* Feyd-Rautha beats `loser` (the one active Atreides leader, `dead` the
 * rest), `holder` holding a Karama, and the Harkonnen capture: the
 * capture is held in a Karama window. */
static void capture_held(engine_state *st, const char *const *dead, const char *loser,
                         uint8_t holder)
{
    battle(st, 1, 8, dead, NULL, 0);
    assert_true(engine_position_give_card(st, holder, ENGINE_CARD_KARAMA) >= 0);
    fight(st, 0, 0, plan(HARKONNEN, "feyd_rautha", -1, 2), plan(ATREIDES, loser, -1, 0), 0);
    engine_action take = power(HARKONNEN, "capture_leader");
    assert_int_equal(apply(st, &take, 1), ENGINE_ACCEPTED);
}

/* In force in an Advanced room of version 8 alone: after the Harkonnen
 * win, an Advanced room of version 7 and a Basic room go on to the next
 * phase, the capture powers are no powers of theirs, a captive cannot be
 * placed, and the state encodes the captives (8 bytes) and the leader
 * drawn (1) under version 8 only. */
static void test_capture__only_in_version_8_advanced(void **state)
{
    (void)state;
    static const struct {
        int advanced;
        unsigned version;
    } cases[] = {{1, 8}, {1, 7}, {0, 8}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        engine_state st;
        battle(&st, cases[i].advanced, cases[i].version, FOUR_DEAD, NULL, 0);
        fight(&st, 0, 0, plan(HARKONNEN, "feyd_rautha", -1, 2), plan(ATREIDES, "duncan_idaho", -1, 1),
              0);
        int in_force = cases[i].advanced && cases[i].version >= 8;
        assert_int_equal(asked_to_capture(&st), in_force);
        assert_int_equal(st.capture_leader, in_force ? 1 + leader("duncan_idaho") : 0);
        engine_state before = st;
        engine_action take = power(HARKONNEN, "capture_leader");
        engine_verdict_detail why;
        engine_verdict got = engine_apply(&why, &st, &take, NULL);
        if (!in_force) {
            assert_int_not_equal(st.phase, ENGINE_PHASE_BATTLE);
            assert_int_not_equal(got, ENGINE_ACCEPTED);
            assert_memory_equal(&before, &st, sizeof st);
            engine_state fresh;
            battle(&fresh, cases[i].advanced, cases[i].version, NULL, NULL, 0);
            assert_int_equal(engine_position_captive(&fresh, (unsigned)leader("duncan_idaho")), -1);
            continue;
        }
        assert_int_equal(got, ENGINE_ACCEPTED);
    }
    engine_state v7, v8;
    battle(&v7, 1, 7, NULL, NULL, 0);
    battle(&v8, 1, 8, NULL, NULL, 0);
    static uint8_t x[ENGINE_STATE_ENCODED_MAX];
    assert_int_equal(engine_state_encode(x, sizeof x, &v8), engine_state_encode(x, sizeof x, &v7) +
                                                           9 + 4 + 1); /* and the Karama stops' mask, the Atreides' look */
}

/* The draw takes one of the loser's active leaders: its pool and the
 * leader it fought with if it survived, never one in the Tanks, one used
 * in another territory this turn, nor a leader another seat holds; over
 * many draws every active one comes up. No active leader: nothing is
 * asked. */
static void test_capture__draw_takes_only_active_leaders(void **state)
{
    (void)state;
    static const char *const two_dead[] = {"thufir_hawat", "dr_wellington_yueh", NULL};
    unsigned drawn[ENGINE_LEADER_COUNT] = {0};
    for (unsigned seed = 0; seed < 60; seed++) {
        engine_state st;
        battle(&st, 1, 8, two_dead, NULL, 1);
        /* Gurney fights first in the Plastic Basin, the Atreides winning;
         * he may not be taken after the battle on The Great Flat. */
        unsigned v = fight(&st, 100 * seed, ENGINE_TERRITORY_PLASTIC_BASIN,
                           plan(HARKONNEN, "umman_kudu", -1, 0),
                           plan(ATREIDES, "gurney_halleck", -1, 3), 0);
        assert_false(asked_to_capture(&st));
        fight(&st, v, ENGINE_TERRITORY_THE_GREAT_FLAT, plan(HARKONNEN, "feyd_rautha", -1, 3),
              plan(ATREIDES, "duncan_idaho", -1, 0), 0);
        assert_true(asked_to_capture(&st));
        unsigned l = st.capture_leader - 1u;
        assert_true(l == (unsigned)leader("duncan_idaho") || l == (unsigned)leader("lady_jessica"));
        drawn[l]++;
    }
    assert_true(drawn[leader("duncan_idaho")] > 0 && drawn[leader("lady_jessica")] > 0);
    /* Every Atreides leader dead but the one killed in this battle: no draw. */
    static const char *const all_but_duncan[] = {"thufir_hawat", "lady_jessica", "gurney_halleck",
                                                 "dr_wellington_yueh", NULL};
    engine_state st;
    battle(&st, 1, 8, all_but_duncan, NULL, 0);
    int lasgun = engine_position_give_card(&st, HARKONNEN, ENGINE_CARD_LASGUN);
    assert_true(lasgun >= 0);
    fight(&st, 0, 0, plan(HARKONNEN, "feyd_rautha", lasgun, 2),
          plan(ATREIDES, "duncan_idaho", -1, 1), 0);
    assert_false(asked_to_capture(&st));
    assert_int_equal(engine_leader_holder(&st, (unsigned)leader("duncan_idaho")), -1);
}

/* Capture, kill, neither: where the leader goes, who is paid; then the
 * decision is over and refused again; another seat may never decide; a
 * refused decision changes nothing. */
static void test_capture__each_decision(void **state)
{
    (void)state;
    static const char *const slugs[] = {"capture_leader", "kill_leader", "spare_leader"};
    unsigned duncan = (unsigned)leader("duncan_idaho");
    for (unsigned k = 0; k < 3; k++) {
        engine_state st;
        battle(&st, 1, 8, FOUR_DEAD, NULL, 0);
        fight(&st, 0, 0, plan(HARKONNEN, "feyd_rautha", -1, 2),
              plan(ATREIDES, "duncan_idaho", -1, 1), 0);
        assert_true(asked_to_capture(&st));
        unsigned spice = st.seat[HARKONNEN].spice, minted = st.spice_minted;
        engine_state before = st;
        static const uint8_t others[] = {ATREIDES, EMPEROR};
        for (unsigned o = 0; o < sizeof others; o++) {
            engine_action theirs = power(others[o], slugs[k]);
            assert_int_equal(apply(&st, &theirs, 1), ENGINE_REJECT_NOT_AWAITED);
            assert_memory_equal(&before, &st, sizeof st);
        }
        engine_action keep = simple(ENGINE_ACTION_KEEP_CARDS, HARKONNEN, 0);
        assert_int_not_equal(apply(&st, &keep, 1), ENGINE_ACCEPTED);
        engine_action bad = power(HARKONNEN, slugs[k]);
        bad.arg[1] = 1; /* an argument the form does not declare */
        assert_int_equal(apply(&st, &bad, 1), ENGINE_REJECT_ARG_OUT_OF_RANGE);
        assert_memory_equal(&before, &st, sizeof st);
        engine_action decide = power(HARKONNEN, slugs[k]);
        assert_true(test_legal_contains(&st, &decide) > 0);
        assert_int_equal(apply(&st, &decide, 2), ENGINE_ACCEPTED);
        assert_int_equal(engine_state_check(&st), 0);
        assert_int_equal(test_state_round_trip(&st), 0);
        assert_int_equal(st.capture_leader, 0);
        assert_int_not_equal(st.phase, ENGINE_PHASE_BATTLE);
        int holder = engine_leader_holder(&st, duncan);
        assert_int_equal(holder, k == 0 ? HARKONNEN : k == 1 ? -1 : ATREIDES);
        assert_int_equal(st.leader[duncan].place, k == 1 ? ENGINE_PLACE_TANKS : ENGINE_PLACE_POOL);
        if (k == 1)
            assert_int_equal(st.leader[duncan].deaths, 2); /* face down: as killed twice */
        unsigned paid = k == 1 ? 2u : 0u;
        /* Collection may pay them too; the kill's 2 come from the bank. */
        assert_true(st.seat[HARKONNEN].spice >= spice + paid);
        assert_true(st.spice_minted >= minted + paid);
        engine_action again = power(HARKONNEN, slugs[k]);
        assert_int_equal(apply(&st, &again, 3), ENGINE_REJECT_NOT_YOUR_POWER);
    }
}

/* No capture when the Harkonnen lose, nor after a lasgun and a shield
 * (no winner: ADVANCED_RULES.md 8 item 14); one after a win by a
 * traitor. */
static void test_capture__only_after_a_win(void **state)
{
    (void)state;
    engine_state st;
    battle(&st, 1, 8, FOUR_DEAD, NULL, 0);
    fight(&st, 0, 0, plan(HARKONNEN, "umman_kudu", -1, 0), plan(ATREIDES, "duncan_idaho", -1, 3), 0);
    assert_false(asked_to_capture(&st));

    battle(&st, 1, 8, NULL, NULL, 0);
    int lasgun = engine_position_give_card(&st, HARKONNEN, ENGINE_CARD_LASGUN);
    int shield = engine_position_give_card(&st, ATREIDES, ENGINE_CARD_SHIELD);
    assert_true(lasgun >= 0 && shield >= 0);
    engine_action defended = plan(ATREIDES, "duncan_idaho", -1, 1);
    defended.arg[3] = (int16_t)shield;
    fight(&st, 0, 0, plan(HARKONNEN, "feyd_rautha", lasgun, 2), defended, 0);
    assert_false(asked_to_capture(&st));

    battle(&st, 1, 8, NULL, NULL, 0);
    assert_int_equal(engine_position_traitor(&st, HARKONNEN, (unsigned)leader("duncan_idaho")), 0);
    fight(&st, 0, 0, plan(HARKONNEN, "umman_kudu", -1, 0), plan(ATREIDES, "duncan_idaho", -1, 3), 2);
    assert_true(asked_to_capture(&st));
    assert_int_not_equal(st.capture_leader - 1, leader("duncan_idaho")); /* the traitor died */
}

/* A captive is fielded like the captor's own leader and not by its
 * faction; after a battle it survived it goes back to its faction (its
 * territory used), but not after one the captor won by a traitor; killed
 * in battle it lies in the Tanks for its own faction. */
static void test_capture__captive_fights_and_goes_back(void **state)
{
    (void)state;
    unsigned duncan = (unsigned)leader("duncan_idaho");
    engine_state st;
    battle(&st, 1, 8, NULL, "duncan_idaho", 0);
    assert_int_equal(engine_leader_holder(&st, duncan), HARKONNEN);
    engine_state before = st;
    engine_action pass = simple(ENGINE_ACTION_PRESCIENCE_PASS, ATREIDES, 0);
    assert_int_equal(apply(&st, &pass, 0), ENGINE_ACCEPTED);
    engine_action theirs = plan(ATREIDES, "duncan_idaho", -1, 1);
    assert_int_not_equal(apply(&st, &theirs, 1), ENGINE_ACCEPTED);
    st = before;
    fight(&st, 0, 0, plan(HARKONNEN, "duncan_idaho", -1, 0), plan(ATREIDES, "thufir_hawat", -1, 3), 0);
    assert_false(asked_to_capture(&st));
    assert_int_equal(engine_leader_holder(&st, duncan), ATREIDES);

    /* Won by a traitor: kept. */
    battle(&st, 1, 8, NULL, "duncan_idaho", 0);
    assert_int_equal(engine_position_traitor(&st, HARKONNEN, (unsigned)leader("thufir_hawat")), 0);
    fight(&st, 0, 0, plan(HARKONNEN, "duncan_idaho", -1, 0), plan(ATREIDES, "thufir_hawat", -1, 3), 2);
    assert_true(asked_to_capture(&st));
    engine_action spare = power(HARKONNEN, "spare_leader");
    assert_int_equal(apply(&st, &spare, 30), ENGINE_ACCEPTED);
    assert_int_equal(engine_leader_holder(&st, duncan), HARKONNEN);

    /* Killed: in the Tanks, its own faction's to revive. */
    battle(&st, 1, 8, NULL, "duncan_idaho", 0);
    int knife = engine_position_give_card(&st, ATREIDES, ENGINE_CARD_CRYSKNIFE);
    assert_true(knife >= 0);
    fight(&st, 0, 0, plan(HARKONNEN, "duncan_idaho", -1, 0), plan(ATREIDES, "thufir_hawat", knife, 3), 0);
    assert_int_equal(st.leader[duncan].place, ENGINE_PLACE_TANKS);
    assert_false(st.captives & ((uint64_t)1 << duncan));
    assert_int_equal(engine_state_check(&st), 0);
}

/* No loyalty (LR 2.05.13): whoever holds a captive's traitor card may
 * call it, here its own faction; the traitor dies, in the Tanks for the
 * Atreides, and the caller wins. */
static void test_capture__captive_may_be_a_traitor(void **state)
{
    (void)state;
    unsigned duncan = (unsigned)leader("duncan_idaho");
    engine_state st;
    battle(&st, 1, 8, NULL, "duncan_idaho", 0);
    assert_int_equal(engine_position_traitor(&st, ATREIDES, duncan), 0);
    fight(&st, 0, 0, plan(HARKONNEN, "duncan_idaho", -1, 3), plan(ATREIDES, "thufir_hawat", -1, 0), 1);
    assert_int_equal(st.leader[duncan].place, ENGINE_PLACE_TANKS);
    assert_int_equal(st.captives, 0);
    assert_false(asked_to_capture(&st));
    assert_int_equal(engine_state_check(&st), 0);
}

/* Prison break: when the last of the Harkonnen's own leaders dies, every
 * captive goes home; and a captive blocks none of its faction's leader
 * revivals (LR 2.05.11; ADVANCED_RULES.md 6.5 item 9). */
static void test_capture__prison_break_and_revival(void **state)
{
    (void)state;
    unsigned duncan = (unsigned)leader("duncan_idaho");
    engine_state st;
    battle(&st, 1, 8, NULL, "duncan_idaho", 0);
    static const char *const hark[] = {"feyd_rautha", "beast_rabban", "piter_de_vries",
                                       "captain_iakin_nefud", NULL};
    for (unsigned i = 0; hark[i]; i++)
        assert_int_equal(engine_position_leader_dead(&st, (unsigned)leader(hark[i])), 0);
    int knife = engine_position_give_card(&st, ATREIDES, ENGINE_CARD_CRYSKNIFE);
    assert_true(knife >= 0);
    fight(&st, 0, 0, plan(HARKONNEN, "umman_kudu", -1, 3), plan(ATREIDES, "thufir_hawat", knife, 0), 0);
    assert_int_equal(st.leader[leader("umman_kudu")].place, ENGINE_PLACE_TANKS);
    assert_int_equal(engine_leader_holder(&st, duncan), ATREIDES);
    assert_int_equal(st.captives, 0);

    /* Revival: four Atreides leaders dead once, Duncan a captive: one of
     * them may be revived. */
    engine_config cfg = st.config;
    engine_rng rng;
    engine_rng_init(&rng, SEED, 0);
    assert_int_equal(engine_position_new(NULL, &st, &cfg, &rng), ENGINE_ACCEPTED);
    for (unsigned i = 0; FOUR_DEAD[i]; i++)
        assert_int_equal(engine_position_leader_dead(&st, (unsigned)leader(FOUR_DEAD[i])), 0);
    assert_int_equal(engine_position_seat_spice(&st, ATREIDES, 10), 0);
    assert_int_equal(engine_position_captive(&st, duncan), 0);
    engine_rng_init(&rng, SEED, 1);
    assert_int_equal(engine_position_enter(&st, ENGINE_PHASE_REVIVAL, 3, 0, &rng), 0);
    engine_action revive = {ENGINE_ACTION_REVIVE, ATREIDES, {0, 0, 0}};
    revive.arg[2] = (int16_t)leader("dr_wellington_yueh");
    assert_true(test_legal_contains(&st, &revive) > 0);
    assert_int_equal(apply(&st, &revive, 1), ENGINE_ACCEPTED);
}

/* A Karama stops one decision: the window asks the seats holding cards
 * but the Harkonnen; cancelled, the leader stays where it was and the
 * battle goes on; allowed, the decision stands. */
static void test_capture__karama_stops_one_decision(void **state)
{
    (void)state;
    unsigned duncan = (unsigned)leader("duncan_idaho");
    for (int cancel = 0; cancel < 2; cancel++) {
        engine_state st;
        capture_held(&st, FOUR_DEAD, "duncan_idaho", EMPEROR);
        const engine_frame *f = engine_window_top(&st);
        assert_non_null(f);
        assert_int_equal(f->point, ENGINE_WINDOW_KARAMA);
        assert_int_equal(f->asked, (1u << EMPEROR));
        assert_true(f->rows & ENGINE_ADVANTAGE_BIT(ENGINE_ADVANTAGE_HARKONNEN_CAPTURE));
        engine_action answer = simple(cancel ? ENGINE_ACTION_KARAMA_CANCEL : ENGINE_ACTION_KARAMA_ALLOW,
                                      EMPEROR, cancel ? ENGINE_ADVANTAGE_HARKONNEN_CAPTURE : 0);
        assert_int_equal(apply(&st, &answer, 2), ENGINE_ACCEPTED);
        assert_int_equal(engine_state_check(&st), 0);
        assert_int_equal(engine_leader_holder(&st, duncan), cancel ? ATREIDES : HARKONNEN);
        assert_int_not_equal(st.phase, ENGINE_PHASE_BATTLE);
        assert_null(engine_effect_find(&st, ENGINE_EFFECT_CANCELLED));
    }
    /* The bots' policy may name it, and the Karama policy's wide argument
     * covers it in a room of version 8. */
    engine_state st;
    battle(&st, 1, 8, NULL, NULL, 0);
    assert_true(engine_karama_offered(&st) & ENGINE_ADVANTAGE_BIT(ENGINE_ADVANTAGE_HARKONNEN_CAPTURE));
    assert_string_equal(engine_advantage_name(ENGINE_ADVANTAGE_HARKONNEN_CAPTURE), "harkonnen_capture");
}

/* Random legal play through battles with captives about: every action
 * chosen accepted, the invariants kept, the encoding round-trips; each
 * decision is played. */
static void test_capture__random_battles(void **state)
{
    (void)state;
    unsigned decided = 0;
    for (uint64_t g = 0; g < 80; g++) {
        uint64_t prng = g * 0x9E3779B97F4A7C15u + 3;
        engine_state st;
        battle(&st, 1, 8, NULL, g % 2 ? "thufir_hawat" : NULL, 1);
        for (unsigned v = 2; st.phase == ENGINE_PHASE_BATTLE && v < 200; v++) {
            engine_action act;
            if (test_random_legal_by_kind(&act, &st, &prng) != 0)
                break;
            assert_true(test_legal_contains(&st, &act) > 0);
            decided += act.kind == ENGINE_ACTION_POWER;
            assert_int_equal(apply(&st, &act, v), ENGINE_ACCEPTED);
            assert_int_equal(engine_state_check(&st), 0);
            assert_int_equal(test_state_round_trip(&st), 0);
        }
        assert_int_not_equal(st.phase, ENGINE_PHASE_BATTLE);
    }
    assert_true(decided > 0);
}

/* What a bot of `level` decides in `st` for the Harkonnen. */
static engine_action bot_choice(const engine_state *st, bot_level level)
{
    engine_action act;
    assert_int_equal(test_bot_choice(&act, st, HARKONNEN, (int)level, SEED), 0);
    return act;
}

/* Every level decides from its view: a weak leader drawn is killed for
 * the spice, a strong one captured from Medium up while the Harkonnen's
 * own leaders live (Easy only the strongest); each choice is legal. A
 * loser holding a Karama stops the capture of its strong leader from
 * Medium up; Easy lets it be. */
static void test_capture__bots(void **state)
{
    (void)state;
    static const char *const dead_but_thufir[] = {"duncan_idaho", "lady_jessica", "gurney_halleck",
                                                  "dr_wellington_yueh", NULL};
    int capture = engine_power_from_slug("capture_leader"), kill = engine_power_from_slug("kill_leader");
    for (unsigned strong = 0; strong < 2; strong++) {
        engine_state st;
        battle(&st, 1, 8, strong ? dead_but_thufir : FOUR_DEAD, NULL, 0);
        fight(&st, 0, 0, plan(HARKONNEN, "feyd_rautha", -1, 2),
              plan(ATREIDES, strong ? "thufir_hawat" : "duncan_idaho", -1, 0), 0);
        assert_true(asked_to_capture(&st));
        for (unsigned level = BOT_LEVEL_EASY; level < BOT_LEVEL_COUNT; level++) {
            engine_action act = bot_choice(&st, (bot_level)level);
            assert_int_equal(act.kind, ENGINE_ACTION_POWER);
            assert_true(test_legal_contains(&st, &act) > 0);
            /* Thufir (5) is captured at every level, Duncan (2) killed. */
            assert_int_equal(act.arg[0], strong ? capture : kill);
        }
    }
    engine_state st;
    capture_held(&st, dead_but_thufir, "thufir_hawat", ATREIDES);
    for (unsigned level = BOT_LEVEL_EASY; level < BOT_LEVEL_COUNT; level++) {
        engine_action act;
        assert_int_equal(test_bot_choice(&act, &st, ATREIDES, (int)level, SEED), 0);
        assert_true(test_legal_contains(&st, &act) > 0);
        if (level == BOT_LEVEL_EASY) {
            assert_int_equal(act.kind, ENGINE_ACTION_KARAMA_ALLOW);
        } else {
            assert_int_equal(act.kind, ENGINE_ACTION_KARAMA_CANCEL);
            assert_int_equal(act.arg[0], ENGINE_ADVANTAGE_HARKONNEN_CAPTURE);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_capture__only_in_version_8_advanced),
        cmocka_unit_test(test_capture__draw_takes_only_active_leaders),
        cmocka_unit_test(test_capture__each_decision),
        cmocka_unit_test(test_capture__only_after_a_win),
        cmocka_unit_test(test_capture__captive_fights_and_goes_back),
        cmocka_unit_test(test_capture__captive_may_be_a_traitor),
        cmocka_unit_test(test_capture__prison_break_and_revival),
        cmocka_unit_test(test_capture__karama_stops_one_decision),
        cmocka_unit_test(test_capture__random_battles),
        cmocka_unit_test(test_capture__bots),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
