/*
 * test_intrusion.c - the Bene Gesserit's INTRUSION (Advanced, rules
 * version 8, LR 2.02.15; docs/RULINGS.md R136), through the engine API on
 * constructed positions: which entries open the window bg_intrusion
 * (another faction's shipment, send, site-to-site shipment, move or worm
 * ride into a territory where the Bene Gesserit have fighters) and which
 * never do (their ally's, their own, a move inside the territory, only
 * advisors there, a Basic room, an Advanced room of version 7), that the
 * entry waits on the Bene Gesserit alone with nothing mutated, that the
 * answers engine_apply accepts are exactly the legal families, and what
 * follows each answer (the advisor that may then accompany a shipment).
 * The rule itself, with the Karama that may stop the flip, is the
 * scenario tests/scenarios/advanced_advisors_intrusion.json.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "engine/engine.h"
#include "tests/support/support.h"

static const uint8_t SEED[ENGINE_SEED_BYTES] = {12, 5, 20, 27};

enum { HARKONNEN, BG, EMPEROR };

/* Harkonnen, Bene Gesserit and Emperor at 10 spice each, the Bene
 * Gesserit with 2 fighters in Imperial Basin (sector 9) and 3 advisors in
 * Arrakeen beside 1 Emperor force, the Harkonnen with 3 forces in
 * Carthag, entering Shipment and Movement (the Harkonnen first). */
static void position(engine_state *st, int advanced, unsigned version)
{
    static const uint8_t factions[3] = {ENGINE_FACTION_HARKONNEN, ENGINE_FACTION_BENE_GESSERIT,
                                        ENGINE_FACTION_EMPEROR};
    test_position_table(st, 3, factions, advanced, version, SEED, 10);
    int basin = engine_location_find(ENGINE_TERRITORY_IMPERIAL_BASIN, 9);
    int arrakeen = engine_location_find(ENGINE_TERRITORY_ARRAKEEN, 9);
    int carthag = engine_location_find(ENGINE_TERRITORY_CARTHAG, 10);
    assert_true(basin >= 0 && arrakeen >= 0 && carthag >= 0);
    assert_int_equal(engine_position_forces(st, BG, (unsigned)basin, 2, 0), 0);
    if (advanced)
        assert_int_equal(engine_position_advisors(st, BG, (unsigned)arrakeen, 3), 0);
    assert_int_equal(engine_position_forces(st, EMPEROR, (unsigned)arrakeen, 1, 0), 0);
    assert_int_equal(engine_position_forces(st, HARKONNEN, (unsigned)carthag, 3, 0), 0);
    engine_rng rng;
    engine_rng_init(&rng, SEED, 1);
    assert_int_equal(engine_position_enter(st, ENGINE_PHASE_SHIPMENT_MOVEMENT, 3, 0, &rng), 0);
    assert_int_equal(engine_state_awaiting(st), 1u << HARKONNEN);
}

static int16_t at(unsigned territory, int sector)
{
    int l = engine_location_find(territory, sector);
    assert_true(l >= 0);
    return (int16_t)l;
}

static engine_verdict apply(engine_state *st, const engine_action *act)
{
    engine_rng rng;
    engine_rng_init(&rng, SEED, 2);
    return engine_apply(NULL, st, act, &rng);
}

/* 1 if the window bg_intrusion is open over `st`, asking the Bene
 * Gesserit alone, the entering seat its user. */
static int intrusion_open(const engine_state *st, unsigned user)
{
    const engine_frame *f = engine_window_top(st);
    if (f == NULL || f->window != (uint16_t)engine_window_id("bg_intrusion"))
        return 0;
    assert_int_equal(f->asked, 1u << BG);
    assert_int_equal(f->user, user);
    return 1;
}

static engine_action answer(int16_t flip)
{
    engine_action a = {.kind = ENGINE_ACTION_ANSWER, .seat = BG,
                       .arg = {engine_window_id("bg_intrusion"), flip}};
    return a;
}

/* The Harkonnen's shipment of 2 into Imperial Basin opens the window in
 * an Advanced room of version 8 only; held, nothing of it is made yet,
 * the state round-trips, and the Harkonnen may not act. */
static void test_intrusion__shipment_version_8_advanced_only(void **state)
{
    (void)state;
    static const struct {
        int advanced;
        unsigned version;
        int asked;
    } cases[] = {{1, 8, 1}, {1, 7, 0}, {0, 8, 0}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        engine_state st;
        position(&st, cases[i].advanced, cases[i].version);
        engine_action ship = {.kind = ENGINE_ACTION_SHIP, .seat = HARKONNEN,
                              .arg = {at(ENGINE_TERRITORY_IMPERIAL_BASIN, 9), 2}};
        engine_state before = st;
        assert_int_equal(apply(&st, &ship), ENGINE_ACCEPTED);
        assert_int_equal(intrusion_open(&st, HARKONNEN), cases[i].asked);
        if (!cases[i].asked)
            continue;
        assert_int_equal(engine_state_awaiting(&st), 1u << BG);
        assert_int_equal(st.forces[ship.arg[0]][HARKONNEN], 0);
        assert_int_equal(st.seat[HARKONNEN].spice, before.seat[HARKONNEN].spice);
        assert_int_equal(test_state_round_trip(&st), 0);
        engine_action pass = {.kind = ENGINE_ACTION_MOVE_PASS, .seat = HARKONNEN};
        engine_state w = st;
        assert_int_not_equal(apply(&w, &pass), ENGINE_ACCEPTED);
        assert_memory_equal(&w, &st, sizeof st);
    }
}

/* The answers accepted are exactly the legal families (flip 0 or 1, the
 * Bene Gesserit alone); after either the shipment is made and the Bene
 * Gesserit are asked for their send: flipped, their tokens there are all
 * advisors and an advisor may accompany the shipment (LR 2.02.11: no
 * fighters there now); kept, 2 fighters, and it may not. */
static void test_intrusion__answers_legal_exactly_then_the_send(void **state)
{
    (void)state;
    engine_state st;
    position(&st, 1, 8);
    int16_t basin = at(ENGINE_TERRITORY_IMPERIAL_BASIN, 9);
    engine_action ship = {.kind = ENGINE_ACTION_SHIP, .seat = HARKONNEN, .arg = {basin, 2}};
    assert_int_equal(apply(&st, &ship), ENGINE_ACCEPTED);
    assert_true(intrusion_open(&st, HARKONNEN));
    unsigned accepted = 0;
    for (uint8_t seat = 0; seat < 3; seat++)
        for (int16_t flip = -1; flip <= 2; flip++) {
            engine_action a = answer(flip);
            a.seat = seat;
            engine_state w = st;
            int ok = apply(&w, &a) == ENGINE_ACCEPTED;
            assert_int_equal(ok, test_legal_contains(&st, &a));
            if (!ok) {
                assert_memory_equal(&w, &st, sizeof st);
                continue;
            }
            accepted++;
            assert_int_equal(seat, BG);
            assert_int_equal(w.forces[basin][HARKONNEN], 2);
            assert_int_equal(w.seat[HARKONNEN].spice, 10 - 4);
            assert_int_equal(w.forces[basin][BG], flip ? 0 : 2);
            assert_int_equal(w.advisors[basin], flip ? 2 : 0);
            assert_int_equal(engine_state_awaiting(&w), 1u << BG); /* the send */
            assert_int_equal(w.bg_accompany, flip ? basin + 1 : 0);
        }
    assert_int_equal(accepted, 2u);
}

/* No window: the Bene Gesserit's ally entering, a territory holding only
 * their advisors, their own shipment; another faction's move from
 * outside opens it, and the move is made once they answer. */
static void test_intrusion__who_and_where(void **state)
{
    (void)state;
    int16_t basin9 = at(ENGINE_TERRITORY_IMPERIAL_BASIN, 9);
    int16_t basin10 = at(ENGINE_TERRITORY_IMPERIAL_BASIN, 10);
    /* the ally ships in: no window, the send is asked */
    engine_state st;
    position(&st, 1, 8);
    assert_int_equal(engine_position_alliance(&st, HARKONNEN, BG), 0);
    engine_action ship = {.kind = ENGINE_ACTION_SHIP, .seat = HARKONNEN, .arg = {basin9, 1}};
    assert_int_equal(apply(&st, &ship), ENGINE_ACCEPTED);
    assert_false(intrusion_open(&st, HARKONNEN));
    /* onto advisors only: no window */
    position(&st, 1, 8);
    ship.arg[0] = (int16_t)engine_location_find(ENGINE_TERRITORY_ARRAKEEN, 9);
    assert_int_equal(apply(&st, &ship), ENGINE_ACCEPTED);
    assert_false(intrusion_open(&st, HARKONNEN));
    /* a move from Carthag into Imperial Basin: the window, the move held */
    position(&st, 1, 8);
    engine_action pass = {.kind = ENGINE_ACTION_SHIP_PASS, .seat = HARKONNEN};
    assert_int_equal(apply(&st, &pass), ENGINE_ACCEPTED);
    engine_action move = {.kind = ENGINE_ACTION_MOVE, .seat = HARKONNEN,
                          .arg = {ENGINE_TERRITORY_CARTHAG, basin10, 1}};
    assert_true(test_legal_contains(&st, &move));
    assert_int_equal(apply(&st, &move), ENGINE_ACCEPTED);
    assert_true(intrusion_open(&st, HARKONNEN));
    assert_int_equal(st.forces[basin10][HARKONNEN], 0);
    engine_action keep = answer(0);
    assert_int_equal(apply(&st, &keep), ENGINE_ACCEPTED);
    assert_int_equal(st.forces[basin10][HARKONNEN], 1);
    assert_int_equal(st.forces[basin9][BG], 2);
    assert_false(intrusion_open(&st, HARKONNEN));
    /* the Harkonnen (holding no card) are done: the Bene Gesserit's own
     * shipment into Imperial Basin opens nothing */
    assert_int_equal(engine_state_awaiting(&st), 1u << BG);
    engine_action own = {.kind = ENGINE_ACTION_SHIP, .seat = BG, .arg = {basin9, 1}};
    assert_int_equal(apply(&st, &own), ENGINE_ACCEPTED);
    assert_false(intrusion_open(&st, BG));
    assert_int_equal(st.forces[basin9][BG], 3);
}

/* A move from one sector of Imperial Basin to another enters nothing:
 * no window, made at once. */
static void test_intrusion__move_inside_the_territory(void **state)
{
    (void)state;
    engine_state st;
    position(&st, 1, 8);
    int16_t basin9 = at(ENGINE_TERRITORY_IMPERIAL_BASIN, 9);
    int16_t basin10 = at(ENGINE_TERRITORY_IMPERIAL_BASIN, 10);
    /* the Harkonnen ship 1 in, the Bene Gesserit keep their fighters */
    engine_action ship = {.kind = ENGINE_ACTION_SHIP, .seat = HARKONNEN, .arg = {basin10, 1}};
    assert_int_equal(apply(&st, &ship), ENGINE_ACCEPTED);
    assert_true(intrusion_open(&st, HARKONNEN));
    engine_action keep = answer(0);
    assert_int_equal(apply(&st, &keep), ENGINE_ACCEPTED);
    engine_action no_send = {.kind = ENGINE_ACTION_BG_SEND, .seat = BG, .arg = {0, 0}};
    assert_int_equal(apply(&st, &no_send), ENGINE_ACCEPTED);
    engine_action move = {.kind = ENGINE_ACTION_MOVE, .seat = HARKONNEN,
                          .arg = {ENGINE_TERRITORY_IMPERIAL_BASIN, basin9, 1}};
    assert_true(test_legal_contains(&st, &move));
    assert_int_equal(apply(&st, &move), ENGINE_ACCEPTED);
    assert_false(intrusion_open(&st, HARKONNEN));
    assert_int_equal(st.forces[basin9][HARKONNEN], 1);
}

/* The window, its held entry and the stance it changes are public
 * (docs/RULINGS.md R112, R136): every seat's view and the spectator's
 * hold the same frame and the same board, before and after the answer. */
static void test_intrusion__public_in_every_view(void **state)
{
    (void)state;
    engine_state st;
    position(&st, 1, 8);
    int16_t basin = at(ENGINE_TERRITORY_IMPERIAL_BASIN, 9);
    engine_action ship = {.kind = ENGINE_ACTION_SHIP, .seat = HARKONNEN, .arg = {basin, 2}};
    assert_int_equal(apply(&st, &ship), ENGINE_ACCEPTED);
    for (int answered = 0; answered <= 1; answered++) {
        static engine_state v[4];
        static const uint8_t viewer[4] = {HARKONNEN, BG, EMPEROR, ENGINE_VIEW_PUBLIC};
        for (unsigned i = 0; i < 4; i++)
            engine_view(&v[i], &st, viewer[i]);
        for (unsigned i = 1; i < 4; i++) {
            assert_int_equal(v[i].n_frames, v[0].n_frames);
            assert_memory_equal(v[i].frame, v[0].frame, sizeof v[0].frame);
            assert_memory_equal(v[i].forces, v[0].forces, sizeof v[0].forces);
            assert_memory_equal(v[i].advisors, v[0].advisors, sizeof v[0].advisors);
        }
        unsigned t = ENGINE_TERRITORY_COUNT, n = 0;
        assert_int_equal(engine_intrusion_entry(&v[3], &t, &n), !answered);
        assert_int_equal(t, answered ? ENGINE_TERRITORY_COUNT : ENGINE_TERRITORY_IMPERIAL_BASIN);
        assert_int_equal(n, answered ? 0 : 2);
        engine_action flip = answer(1);
        if (!answered)
            assert_int_equal(apply(&st, &flip), ENGINE_ACCEPTED);
    }
    assert_int_equal(st.advisors[basin], 2);
}

/* A Fremen send onto the Bene Gesserit's fighters in The Great Flat is
 * an entry too (LR glossary "Enters": sending): held, then made. */
static void test_intrusion__fremen_send(void **state)
{
    (void)state;
    static const uint8_t factions[3] = {ENGINE_FACTION_FREMEN, ENGINE_FACTION_BENE_GESSERIT,
                                        ENGINE_FACTION_HARKONNEN};
    engine_state st;
    test_position_table(&st, 3, factions, 1, 8, SEED, 10);
    int16_t flat = at(ENGINE_TERRITORY_THE_GREAT_FLAT, 14);
    assert_int_equal(engine_position_forces(&st, BG, (unsigned)flat, 1, 0), 0);
    engine_rng rng;
    engine_rng_init(&rng, SEED, 1);
    assert_int_equal(engine_position_enter(&st, ENGINE_PHASE_SHIPMENT_MOVEMENT, 3, 0, &rng), 0);
    engine_action send = {.kind = ENGINE_ACTION_FREMEN_SEND, .seat = 0, .arg = {flat, 3}};
    assert_true(engine_state_awaiting(&st) & 1u);
    assert_true(test_legal_contains(&st, &send));
    assert_int_equal(apply(&st, &send), ENGINE_ACCEPTED);
    assert_true(intrusion_open(&st, 0));
    assert_int_equal(st.forces[flat][0], 0);
    engine_action flip = answer(1);
    assert_int_equal(apply(&st, &flip), ENGINE_ACCEPTED);
    assert_int_equal(st.forces[flat][0], 3);
    assert_int_equal(st.forces[flat][BG], 0);
    assert_int_equal(st.advisors[flat], 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_intrusion__shipment_version_8_advanced_only),
        cmocka_unit_test(test_intrusion__answers_legal_exactly_then_the_send),
        cmocka_unit_test(test_intrusion__who_and_where),
        cmocka_unit_test(test_intrusion__move_inside_the_territory),
        cmocka_unit_test(test_intrusion__public_in_every_view),
        cmocka_unit_test(test_intrusion__fremen_send),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
