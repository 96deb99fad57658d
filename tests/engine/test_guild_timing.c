/*
 * test_guild_timing.c - the Spacing Guild's out-of-turn Shipment and
 * Movement (Advanced, rules version 7 on; LR 2.06.12, ADVANCED_RULES.md
 * 6.6, docs/RULINGS.md R124) through the engine API on constructed
 * positions: asked at the start of the phase and after every other
 * seat's complete turn whether it acts now, at its storm-order place
 * whether it delays; never in the middle of another's turn, once a
 * phase, no delay once it is the only one left; a Karama stops it acting
 * out of order (it keeps its place); nothing of it in a Basic room nor in
 * an Advanced room of version 6; the states it makes encode and decode to
 * the same bytes. The scenario tests/scenarios/advanced_guild_out_of_turn.json
 * plays the rule through the scenario runner.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "engine/phase.h"
#include "tests/support/support.h"

static const uint8_t SEED[ENGINE_SEED_BYTES] = {6, 6, 2, 6, 12};

enum { N_SEATS = 4 };
static const uint8_t FACTIONS[N_SEATS] = {ENGINE_FACTION_EMPEROR, ENGINE_FACTION_GUILD,
                                          ENGINE_FACTION_HARKONNEN,
                                          ENGINE_FACTION_BENE_GESSERIT};
enum { GUILD = 1 };

/* A four-seat position entering Shipment and Movement with the Guild at
 * index `place` of the storm order (found by trying the storm's sectors),
 * `order` the order; every seat asked about no advantage, so no Karama
 * window opens unless a test sets one. */
static void table(engine_state *st, int advanced, unsigned version, unsigned place,
                  uint8_t order[ENGINE_MAX_SEATS], engine_rng *rng)
{
    engine_config cfg;
    engine_config_init(&cfg);
    cfg.n_seats = N_SEATS;
    memcpy(cfg.faction, FACTIONS, N_SEATS);
    cfg.is_advanced = (uint8_t)advanced;
    cfg.rules_version = (uint16_t)version;
    engine_rng_init(rng, SEED, 0);
    assert_int_equal(engine_position_new(NULL, st, &cfg, rng), ENGINE_ACCEPTED);
    for (unsigned s = 0; s < N_SEATS; s++) {
        assert_int_equal(engine_position_seat_spice(st, (uint8_t)s, 10), 0);
        st->karama_ask[s] = 0;
        st->karama_ask_own[s] = 0;
    }
    for (unsigned sector = 0; sector < ENGINE_SECTOR_COUNT; sector++) {
        st->storm_sector = (uint8_t)sector;
        engine__storm_order(st, order);
        if (order[place] == GUILD) {
            assert_int_equal(engine_position_enter(st, ENGINE_PHASE_SHIPMENT_MOVEMENT, 2, sector, rng), 0);
            assert_int_equal(engine_state_check(st), 0);
            return;
        }
    }
    fail_msg("no storm sector puts the Guild at place %u", place);
}

static engine_action action(unsigned kind, unsigned seat)
{
    engine_action a;
    memset(&a, 0, sizeof a);
    a.kind = (uint8_t)kind;
    a.seat = (uint8_t)seat;
    return a;
}

static engine_action answer(const char *slug, int value)
{
    engine_action a = action(ENGINE_ACTION_ANSWER, GUILD);
    a.arg[0] = engine_window_id(slug);
    a.arg[1] = (int16_t)value;
    return a;
}

static engine_verdict apply(engine_state *st, engine_action a, engine_rng *rng)
{
    engine_verdict v = engine_apply(NULL, st, &a, rng);
    assert_int_equal(engine_state_check(st), 0);
    return v;
}

/* `seat` passes its shipment and its move. */
static void pass_turn(engine_state *st, unsigned seat, engine_rng *rng)
{
    assert_int_equal(engine_state_awaiting(st), 1u << seat);
    assert_int_equal(st->step, SHIP_STEP_SHIP);
    assert_int_equal(apply(st, action(ENGINE_ACTION_SHIP_PASS, seat), rng), ENGINE_ACCEPTED);
    assert_int_equal(st->step, SHIP_STEP_MOVE);
    assert_int_equal(apply(st, action(ENGINE_ACTION_MOVE_PASS, seat), rng), ENGINE_ACCEPTED);
}

/* The top window is `slug`, asking the Guild alone. */
static void asked(const engine_state *st, const char *slug)
{
    const engine_frame *f = engine_window_top(st);
    assert_non_null(f);
    assert_int_equal(f->point, ENGINE_WINDOW_GENERIC);
    assert_int_equal(f->window, (uint16_t)engine_window_id(slug));
    assert_int_equal(engine_state_awaiting(st), 1u << GUILD);
}

/* The seat `seat` is up, nothing asked of the Guild. */
static void up(const engine_state *st, unsigned seat)
{
    assert_null(engine_window_top(st));
    assert_int_equal(st->phase, ENGINE_PHASE_SHIPMENT_MOVEMENT);
    assert_int_equal(st->step, SHIP_STEP_SHIP);
    assert_int_equal(engine_state_awaiting(st), 1u << seat);
}

static void phase_over(const engine_state *st)
{
    assert_int_not_equal(st->phase, ENGINE_PHASE_SHIPMENT_MOVEMENT);
    assert_int_equal(st->guild_turn, 0);
}

/* Ahead of schedule (LR 2.06.12.01): asked at the start and after the
 * first seat's complete turn, never inside it; acting, it takes its whole
 * turn, the seat it went ahead of follows unasked, its own place is
 * passed over. */
static void test_guild_timing__ahead_of_schedule(void **state)
{
    (void)state;
    engine_state st;
    engine_rng rng;
    uint8_t order[ENGINE_MAX_SEATS];
    table(&st, 1, 7, 2, order, &rng);
    asked(&st, ENGINE__WINDOW_TURN_NOW);
    /* the first seat waits on the Guild's answer */
    assert_int_equal(apply(&st, action(ENGINE_ACTION_SHIP_PASS, order[0]), &rng),
                     ENGINE_REJECT_WRONG_STEP);
    /* the other window's id, an answer out of the form's range */
    assert_int_equal(apply(&st, answer(ENGINE__WINDOW_TURN_DELAY, 1), &rng),
                     ENGINE_REJECT_ARG_OUT_OF_RANGE);
    assert_int_equal(apply(&st, answer(ENGINE__WINDOW_TURN_NOW, 2), &rng),
                     ENGINE_REJECT_ARG_OUT_OF_RANGE);
    assert_int_equal(apply(&st, answer(ENGINE__WINDOW_TURN_NOW, 0), &rng), ENGINE_ACCEPTED);
    up(&st, order[0]);
    /* never in the middle of another's turn */
    assert_int_not_equal(apply(&st, answer(ENGINE__WINDOW_TURN_NOW, 1), &rng), ENGINE_ACCEPTED);
    assert_int_equal(apply(&st, action(ENGINE_ACTION_SHIP_PASS, order[0]), &rng), ENGINE_ACCEPTED);
    assert_null(engine_window_top(&st));
    assert_int_not_equal(apply(&st, answer(ENGINE__WINDOW_TURN_NOW, 1), &rng), ENGINE_ACCEPTED);
    assert_int_equal(apply(&st, action(ENGINE_ACTION_MOVE_PASS, order[0]), &rng), ENGINE_ACCEPTED);
    /* after the first seat's complete turn: asked again; it acts */
    asked(&st, ENGINE__WINDOW_TURN_NOW);
    assert_int_equal(apply(&st, answer(ENGINE__WINDOW_TURN_NOW, 1), &rng), ENGINE_ACCEPTED);
    up(&st, GUILD);
    assert_int_equal(st.guild_turn, ENGINE_GUILD_TURN_ACTING);
    assert_int_equal(engine__ship_seat(&st), GUILD);
    /* the seat it went ahead of waits */
    assert_int_equal(apply(&st, action(ENGINE_ACTION_SHIP_PASS, order[1]), &rng),
                     ENGINE_REJECT_NOT_AWAITED);
    pass_turn(&st, GUILD, &rng);
    assert_int_equal(st.guild_turn, ENGINE_GUILD_TURN_DONE);
    /* once a phase: the seat it went ahead of, unasked, then past its place */
    up(&st, order[1]);
    pass_turn(&st, order[1], &rng);
    up(&st, order[3]);
    pass_turn(&st, order[3], &rng);
    phase_over(&st);
}

/* Holding pattern (LR 2.06.12.02): at its place it delays; the next seat
 * is up at once (the same boundary, not asked again), after that seat's
 * turn it is asked whether it acts now; with every other seat done it
 * acts, last, unasked. */
static void test_guild_timing__holding_pattern(void **state)
{
    (void)state;
    engine_state st;
    engine_rng rng;
    uint8_t order[ENGINE_MAX_SEATS];
    table(&st, 1, 7, 1, order, &rng);
    asked(&st, ENGINE__WINDOW_TURN_NOW);
    assert_int_equal(apply(&st, answer(ENGINE__WINDOW_TURN_NOW, 0), &rng), ENGINE_ACCEPTED);
    pass_turn(&st, order[0], &rng);
    asked(&st, ENGINE__WINDOW_TURN_DELAY);
    assert_int_equal(apply(&st, answer(ENGINE__WINDOW_TURN_NOW, 0), &rng),
                     ENGINE_REJECT_ARG_OUT_OF_RANGE);
    assert_int_equal(apply(&st, answer(ENGINE__WINDOW_TURN_DELAY, 1), &rng), ENGINE_ACCEPTED);
    up(&st, order[2]);
    assert_int_equal(st.guild_turn, 0);
    pass_turn(&st, order[2], &rng);
    asked(&st, ENGINE__WINDOW_TURN_NOW);
    assert_int_equal(apply(&st, answer(ENGINE__WINDOW_TURN_NOW, 0), &rng), ENGINE_ACCEPTED);
    pass_turn(&st, order[3], &rng);
    /* the only one left: it acts, unasked */
    up(&st, GUILD);
    assert_int_equal(st.guild_turn, ENGINE_GUILD_TURN_ACTING);
    pass_turn(&st, GUILD, &rng);
    phase_over(&st);
}

/* At its place, answering 0 it takes its turn there; last in storm order
 * it is never offered a delay (the only one left). */
static void test_guild_timing__no_delay_when_last(void **state)
{
    (void)state;
    engine_state st;
    engine_rng rng;
    uint8_t order[ENGINE_MAX_SEATS];
    table(&st, 1, 7, 3, order, &rng);
    for (unsigned i = 0; i < 3; i++) {
        asked(&st, ENGINE__WINDOW_TURN_NOW);
        assert_int_equal(apply(&st, answer(ENGINE__WINDOW_TURN_NOW, 0), &rng), ENGINE_ACCEPTED);
        pass_turn(&st, order[i], &rng);
    }
    up(&st, GUILD);
    assert_int_not_equal(apply(&st, answer(ENGINE__WINDOW_TURN_DELAY, 1), &rng), ENGINE_ACCEPTED);
    pass_turn(&st, GUILD, &rng);
    phase_over(&st);

    table(&st, 1, 7, 1, order, &rng);
    assert_int_equal(apply(&st, answer(ENGINE__WINDOW_TURN_NOW, 0), &rng), ENGINE_ACCEPTED);
    pass_turn(&st, order[0], &rng);
    asked(&st, ENGINE__WINDOW_TURN_DELAY);
    assert_int_equal(apply(&st, answer(ENGINE__WINDOW_TURN_DELAY, 0), &rng), ENGINE_ACCEPTED);
    up(&st, GUILD);
    assert_int_equal(st.guild_turn, 0);
    pass_turn(&st, GUILD, &rng);
    up(&st, order[2]); /* unasked: it has had its turn */
    pass_turn(&st, order[2], &rng);
    pass_turn(&st, order[3], &rng);
    phase_over(&st);
}

/* A seat holding a Karama and asked about the advantage. */
static unsigned karama_seat(engine_state *st, unsigned seat)
{
    assert_true(engine_position_give_card(st, (uint8_t)seat, ENGINE_CARD_KARAMA) >= 0);
    st->karama_ask[seat] = ENGINE_ADVANTAGE_BIT(ENGINE_ADVANTAGE_GUILD_OUT_OF_TURN);
    return seat;
}

/* FAQ20 pp. 7-8: a Karama played when the Guild tries to act ahead of
 * schedule; stopped, it acts at its storm-order place, never asked
 * again; allowed, it acts. */
static void test_guild_timing__karama_stops_acting_ahead(void **state)
{
    (void)state;
    engine_state st, allowed;
    engine_rng rng, rng2;
    uint8_t order[ENGINE_MAX_SEATS];
    table(&st, 1, 7, 2, order, &rng);
    unsigned k = karama_seat(&st, order[0]);
    asked(&st, ENGINE__WINDOW_TURN_NOW);
    assert_int_equal(apply(&st, answer(ENGINE__WINDOW_TURN_NOW, 1), &rng), ENGINE_ACCEPTED);
    const engine_frame *f = engine_window_top(&st);
    assert_non_null(f);
    assert_int_equal(f->point, ENGINE_WINDOW_KARAMA);
    assert_int_equal(f->rows, ENGINE_ADVANTAGE_BIT(ENGINE_ADVANTAGE_GUILD_OUT_OF_TURN));
    assert_int_equal(engine_state_awaiting(&st), 1u << k);
    allowed = st;
    rng2 = rng;

    engine_action cancel = action(ENGINE_ACTION_KARAMA_CANCEL, k);
    cancel.arg[0] = ENGINE_ADVANTAGE_GUILD_OUT_OF_TURN;
    assert_int_equal(apply(&st, cancel, &rng), ENGINE_ACCEPTED);
    assert_int_equal(engine__card_in_hand(&st, k, ENGINE_CARD_KARAMA), 0xFF);
    assert_int_equal(st.guild_turn, ENGINE_GUILD_TURN_IN_ORDER);
    assert_int_equal(st.n_effects, 0); /* the cancellation used up */
    up(&st, order[0]);
    pass_turn(&st, order[0], &rng);
    up(&st, order[1]); /* not asked again */
    pass_turn(&st, order[1], &rng);
    up(&st, GUILD); /* at its place, no delay offered */
    pass_turn(&st, GUILD, &rng);
    up(&st, order[3]);
    pass_turn(&st, order[3], &rng);
    phase_over(&st);

    assert_int_equal(apply(&allowed, action(ENGINE_ACTION_KARAMA_ALLOW, k), &rng2), ENGINE_ACCEPTED);
    up(&allowed, GUILD);
    assert_int_equal(allowed.guild_turn, ENGINE_GUILD_TURN_ACTING);
    pass_turn(&allowed, GUILD, &rng2);
    up(&allowed, order[0]);
}

/* A Karama against the holding pattern: the Guild acts now, at its place. */
static void test_guild_timing__karama_stops_delay(void **state)
{
    (void)state;
    engine_state st;
    engine_rng rng;
    uint8_t order[ENGINE_MAX_SEATS];
    table(&st, 1, 7, 0, order, &rng);
    unsigned k = karama_seat(&st, order[1]);
    asked(&st, ENGINE__WINDOW_TURN_DELAY);
    assert_int_equal(apply(&st, answer(ENGINE__WINDOW_TURN_DELAY, 1), &rng), ENGINE_ACCEPTED);
    engine_action cancel = action(ENGINE_ACTION_KARAMA_CANCEL, k);
    cancel.arg[0] = ENGINE_ADVANTAGE_GUILD_OUT_OF_TURN;
    assert_int_equal(apply(&st, cancel, &rng), ENGINE_ACCEPTED);
    up(&st, GUILD);
    assert_int_equal(st.guild_turn, ENGINE_GUILD_TURN_IN_ORDER);
    pass_turn(&st, GUILD, &rng);
    up(&st, order[1]);
    pass_turn(&st, order[1], &rng);
    up(&st, order[2]);
}

/* No Guild timing in a Basic room of version 7, nor in an Advanced room
 * of version 6 (their stored states fold as they were): storm order,
 * nothing asked. */
static void test_guild_timing__only_advanced_from_version_7(void **state)
{
    (void)state;
    static const struct {
        int advanced;
        unsigned version;
    } rooms[] = {{0, 7}, {1, 6}};
    for (unsigned r = 0; r < sizeof rooms / sizeof rooms[0]; r++) {
        engine_state st;
        engine_rng rng;
        uint8_t order[ENGINE_MAX_SEATS];
        table(&st, rooms[r].advanced, rooms[r].version, 1, order, &rng);
        for (unsigned i = 0; i < N_SEATS; i++) {
            up(&st, order[i]);
            assert_int_not_equal(apply(&st, answer(ENGINE__WINDOW_TURN_NOW, 1), &rng),
                                 ENGINE_ACCEPTED);
            pass_turn(&st, order[i], &rng);
            assert_int_equal(st.guild_turn, 0);
        }
        phase_over(&st);
    }
}

/* `st` encodes, decodes and encodes again to the same bytes. */
static void round_trip(const engine_state *st)
{
    assert_int_equal(test_state_round_trip(st), 0);
}

/* The windows asked, the Guild acting out of order, the Bene Gesserit's
 * send asked over the Guild's shipment made out of order (its shipper is
 * the Guild, not the seat of the storm-order place), and a Karama held
 * over the Guild's answer: each state decodes to the same bytes. */
static void test_guild_timing__states_encode(void **state)
{
    (void)state;
    engine_state st;
    engine_rng rng;
    uint8_t order[ENGINE_MAX_SEATS];
    table(&st, 1, 7, 3, order, &rng);
    unsigned bg = 3;
    assert_int_equal(FACTIONS[bg], ENGINE_FACTION_BENE_GESSERIT);
    round_trip(&st);
    if (order[0] == bg) {
        assert_int_equal(apply(&st, answer(ENGINE__WINDOW_TURN_NOW, 0), &rng), ENGINE_ACCEPTED);
        pass_turn(&st, bg, &rng);
    }
    asked(&st, ENGINE__WINDOW_TURN_NOW);
    round_trip(&st);
    assert_int_equal(apply(&st, answer(ENGINE__WINDOW_TURN_NOW, 1), &rng), ENGINE_ACCEPTED);
    up(&st, GUILD);
    round_trip(&st);
    assert_true(st.seat[GUILD].reserves > 0 && st.seat[bg].reserves > 0);
    engine_action ship = action(ENGINE_ACTION_SHIP, GUILD);
    ship.arg[0] = (int16_t)engine_location_find(ENGINE_TERRITORY_THE_GREAT_FLAT, 14);
    ship.arg[1] = 1;
    assert_int_equal(apply(&st, ship, &rng), ENGINE_ACCEPTED);
    const engine_frame *send = engine_window_top(&st);
    assert_non_null(send);
    assert_int_equal(send->point, ENGINE_WINDOW_BG_SEND);
    assert_int_equal(send->owner, GUILD);
    round_trip(&st);
    /* a Karama window over the Guild's answer */
    table(&st, 1, 7, 2, order, &rng);
    karama_seat(&st, order[0]);
    assert_int_equal(apply(&st, answer(ENGINE__WINDOW_TURN_NOW, 1), &rng), ENGINE_ACCEPTED);
    assert_int_equal(engine_window_top(&st)->point, ENGINE_WINDOW_KARAMA);
    round_trip(&st);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_guild_timing__ahead_of_schedule),
        cmocka_unit_test(test_guild_timing__holding_pattern),
        cmocka_unit_test(test_guild_timing__no_delay_when_last),
        cmocka_unit_test(test_guild_timing__karama_stops_acting_ahead),
        cmocka_unit_test(test_guild_timing__karama_stops_delay),
        cmocka_unit_test(test_guild_timing__only_advanced_from_version_7),
        cmocka_unit_test(test_guild_timing__states_encode),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
