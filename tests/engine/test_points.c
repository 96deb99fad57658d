/*
 * test_points.c - a power added in one file takes effect at its rule
 * point (docs/ARCHITECTURE.md "How to add a power"). This file defines the
 * Harkonnen family itself, so the linker takes it instead of
 * engine/powers_harkonnen.c: in this binary the Harkonnen have one made-up
 * power, "Harkonnen forces move two territories", and none of their real
 * ones. A constructed position then shows the legal writer and the handler
 * both honour it, for the Harkonnen and for no one else.
 *
 * A second made-up power, "harkonnen_bribe", is on the generic `power`
 * action (rules version 5): its row declares its arguments, and the same
 * row drives its legal family, its handler, the protobuf wire, the action
 * JSON, the log (its secret argument hidden from other seats), the state
 * JSON's families with their example, and a bot's default, with no code of
 * its own anywhere else.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tests/engine/generic.h"

static const uint8_t SEED[ENGINE_SEED_BYTES] = {10};

/* The made-up power: at least two territories a move. */
static int two_territories(const engine_state *st, unsigned owner, unsigned seat, int value)
{
    (void)st;
    (void)owner;
    (void)seat;
    return value < 2 ? 2 : value;
}

/* The made-up generic power: the Harkonnen pay 1 or 2 spice to the bank
 * (how much is secret) to bribe the officials of a territory, offered
 * while they hold at least 2, so that every use the family describes is
 * accepted (engine/apply.c invariant (2)). */
static int can_bribe(const engine_state *st, unsigned owner, unsigned seat)
{
    (void)seat;
    return st->seat[owner].spice >= 2;
}

static engine_verdict bribe(engine_verdict_detail *why, engine_state *st, unsigned owner,
                            const engine_action *act, engine_rng *rng)
{
    (void)why;
    (void)rng;
    st->seat[owner].spice = (uint16_t)(st->seat[owner].spice - act->arg[2]);
    st->spice_burned = st->spice_burned + (uint32_t)(uint16_t)act->arg[2];
    return ENGINE_ACCEPTED;
}

static const engine_power_form bribe_form = {
    .slug = "harkonnen_bribe",
    .n_args = 2,
    .arg_name = {"territory", "spice"},
    .arg_type = {ENGINE_ARG_TERRITORY, ENGINE_ARG_INT},
    .lo = {0, 1},
    .hi = {ENGINE_TERRITORY_COUNT - 1, 2},
    .fallback = {ENGINE_TERRITORY_THE_GREAT_FLAT, 1},
    .secret_args = 0x02, /* spice */
};

static const engine__power_row rows[] = {
    {.point = ENGINE__POINT_MOVE_ALLOWANCE, .faction = ENGINE_FACTION_HARKONNEN,
     .to = ENGINE__TO_OWNER, .fn = two_territories, .source = "(made up)"},
    {.point = ENGINE__POINT_POWER, .faction = ENGINE_FACTION_HARKONNEN,
     .to = ENGINE__TO_OWNER, .when = can_bribe, .source = "(made up)", .form = &bribe_form,
     .use = bribe},
};
const engine__power_family engine__powers_harkonnen = {rows, sizeof rows / sizeof rows[0]};

enum { EMPEROR_SEAT = GENERIC_EMPEROR_SEAT, HARKONNEN_SEAT = GENERIC_HARKONNEN_SEAT };

static void position_at(engine_state *st, unsigned mover, unsigned rules_version)
{
    generic_position(st, rules_version, mover, SEED);
}

static void position(engine_state *st, unsigned mover)
{
    position_at(st, mover, ENGINE_RULES_VERSION);
}

/* 1 if the legal families of `seat` hold a move of 3 forces from The
 * Great Flat to `to`. */
static int legal_move(const engine_state *st, unsigned seat, int to)
{
    engine_legal legal[512];
    size_t n = engine_legal_actions(legal, 512, st, (uint8_t)seat);
    assert_true(n <= 512);
    engine_action a = {ENGINE_ACTION_MOVE, (uint8_t)seat,
                       {ENGINE_TERRITORY_THE_GREAT_FLAT, (int16_t)to, 3, 0}};
    for (size_t i = 0; i < n; i++)
        if (engine_legal_contains(&legal[i], &a))
            return 1;
    return 0;
}

static engine_verdict move(engine_state *st, unsigned seat, int to)
{
    engine_action a = {ENGINE_ACTION_MOVE, (uint8_t)seat,
                       {ENGINE_TERRITORY_THE_GREAT_FLAT, (int16_t)to, 3, 0}};
    engine_rng rng;
    engine_rng_init(&rng, SEED, 1);
    return engine_apply(NULL, st, &a, &rng);
}

static void test_points__made_up_power_moves_two(void **state)
{
    (void)state;
    /* The Bight of the Cliff is two territories from The Great Flat. */
    int bight = engine_location_find(ENGINE_TERRITORY_BIGHT_OF_THE_CLIFF, 14);
    assert_true(bight >= 0);
    engine_state st;
    position(&st, HARKONNEN_SEAT);
    assert_int_equal(engine__point_value(&st, ENGINE__POINT_MOVE_ALLOWANCE, HARKONNEN_SEAT, 1), 2);
    assert_true(legal_move(&st, HARKONNEN_SEAT, bight));
    assert_int_equal(move(&st, HARKONNEN_SEAT, bight), ENGINE_ACCEPTED);
    assert_int_equal(st.forces[bight][HARKONNEN_SEAT], 3);
    assert_int_equal(engine_state_check(&st), 0);

    /* The Emperor has no such row: the same move is neither offered nor taken. */
    position(&st, EMPEROR_SEAT);
    assert_int_equal(engine__point_value(&st, ENGINE__POINT_MOVE_ALLOWANCE, EMPEROR_SEAT, 1), 1);
    assert_false(legal_move(&st, EMPEROR_SEAT, bight));
    engine_state before = st;
    assert_int_equal(move(&st, EMPEROR_SEAT, bight), ENGINE_REJECT_NO_PATH);
    assert_memory_equal(&before, &st, sizeof st);
}

/* The family of the generic power `id` among seat's, or NULL. */
static const engine_legal *power_family(engine_legal *legal, size_t cap, const engine_state *st,
                                        unsigned seat, int id)
{
    size_t n = engine_legal_actions(legal, cap, st, (uint8_t)seat);
    assert_true(n <= cap);
    for (size_t i = 0; i < n; i++)
        if (legal[i].kind == ENGINE_ACTION_POWER && legal[i].lo[0] == id)
            return &legal[i];
    return NULL;
}

static engine_action bribe_action(unsigned seat, int territory, int spice)
{
    engine_action a;
    memset(&a, 0, sizeof a);
    a.kind = ENGINE_ACTION_POWER;
    a.seat = (uint8_t)seat;
    a.arg[0] = engine_power_id("harkonnen_bribe");
    a.arg[1] = (int16_t)territory;
    a.arg[2] = (int16_t)spice;
    return a;
}

static engine_verdict apply_why(engine_state *st, const engine_action *a, engine_verdict_detail *why)
{
    engine_rng rng;
    engine_rng_init(&rng, SEED, 2);
    return engine_apply(why, st, a, &rng);
}

/* Offered to the Harkonnen alone, accepted from them, refused with a
 * verdict naming the argument for a value out of the row's range, and
 * not a kind at all before rules version 5. */
static void test_points__generic_power_offered_and_applied(void **state)
{
    (void)state;
    int id = engine_power_from_slug("harkonnen_bribe");
    assert_int_equal(id, engine_power_id("harkonnen_bribe"));
    assert_true(id > 0);
    assert_int_equal(engine_power_from_slug("harkonnen_bribeed"), -1);
    engine_legal legal[512];
    engine_state st;
    engine_verdict_detail why;
    position(&st, HARKONNEN_SEAT);

    const engine_legal *l = power_family(legal, 512, &st, HARKONNEN_SEAT, id);
    assert_non_null(l);
    assert_int_equal(l->hi[0], id);
    assert_int_equal(l->lo[2], 1);
    assert_int_equal(l->hi[2], 2);
    assert_null(power_family(legal, 512, &st, EMPEROR_SEAT, id));

    /* wrong seat: the Emperor, not awaited now, and when awaited without
     * such a power */
    engine_state before = st;
    engine_action a = bribe_action(EMPEROR_SEAT, ENGINE_TERRITORY_THE_GREAT_FLAT, 2);
    assert_int_equal(apply_why(&st, &a, &why), ENGINE_REJECT_NOT_AWAITED);
    engine_state emperor;
    position(&emperor, EMPEROR_SEAT);
    assert_null(power_family(legal, 512, &emperor, EMPEROR_SEAT, id));
    assert_int_equal(apply_why(&emperor, &a, &why), ENGINE_REJECT_NOT_YOUR_POWER);
    assert_int_equal(why.arg, 0);
    /* out of the row's range: the argument is named */
    a = bribe_action(HARKONNEN_SEAT, ENGINE_TERRITORY_THE_GREAT_FLAT, 3);
    assert_int_equal(apply_why(&st, &a, &why), ENGINE_REJECT_ARG_OUT_OF_RANGE);
    assert_int_equal(why.arg, 2);
    assert_false(engine_legal_contains(power_family(legal, 512, &st, HARKONNEN_SEAT, id), &a));
    /* an argument the row does not declare */
    a = bribe_action(HARKONNEN_SEAT, ENGINE_TERRITORY_THE_GREAT_FLAT, 1);
    a.arg[3] = 1;
    assert_int_equal(apply_why(&st, &a, &why), ENGINE_REJECT_ARG_OUT_OF_RANGE);
    assert_int_equal(why.arg, 3);
    /* a power no row declares */
    a = bribe_action(HARKONNEN_SEAT, ENGINE_TERRITORY_THE_GREAT_FLAT, 1);
    a.arg[0] = (int16_t)(id == 1 ? 2 : id - 1);
    assert_int_equal(apply_why(&st, &a, &why), ENGINE_REJECT_ARG_OUT_OF_RANGE);
    assert_int_equal(why.arg, 0);
    /* not offered now (its `when`): under 2 spice */
    engine_state poor = st;
    poor.seat[HARKONNEN_SEAT].spice = 1;
    assert_null(power_family(legal, 512, &poor, HARKONNEN_SEAT, id));
    a = bribe_action(HARKONNEN_SEAT, ENGINE_TERRITORY_ARRAKEEN, 1);
    assert_int_equal(apply_why(&poor, &a, &why), ENGINE_REJECT_NOT_YOUR_POWER);
    assert_memory_equal(&before, &st, sizeof st);

    /* accepted: the row's handler ran, and the MOVE step still waits */
    a = bribe_action(HARKONNEN_SEAT, ENGINE_TERRITORY_THE_GREAT_FLAT, 2);
    assert_true(engine_legal_contains(power_family(legal, 512, &st, HARKONNEN_SEAT, id), &a));
    assert_int_equal(apply_why(&st, &a, &why), ENGINE_ACCEPTED);
    assert_int_equal(st.seat[HARKONNEN_SEAT].spice + 2, before.seat[HARKONNEN_SEAT].spice);
    assert_int_equal(st.step, SHIP_STEP_MOVE);
    assert_int_equal(engine_state_check(&st), 0);

    /* the bots' default: the row's fallback, legal and accepted */
    engine_action d;
    l = power_family(legal, 512, &st, HARKONNEN_SEAT, id);
    assert_int_equal(engine_generic_default(&d, l), 0);
    assert_int_equal(d.arg[1], ENGINE_TERRITORY_THE_GREAT_FLAT);
    assert_int_equal(d.arg[2], 1);
    assert_true(engine_legal_contains(l, &d));
    assert_int_equal(apply_why(&st, &d, &why), ENGINE_ACCEPTED);
    assert_int_equal(engine_generic_default(&d, &legal[0]) == 0, legal[0].kind == ENGINE_ACTION_POWER);

    /* rules version 4: the kind did not exist */
    position_at(&st, HARKONNEN_SEAT, 4);
    assert_null(power_family(legal, 512, &st, HARKONNEN_SEAT, id));
    before = st;
    a = bribe_action(HARKONNEN_SEAT, ENGINE_TERRITORY_THE_GREAT_FLAT, 2);
    assert_int_equal(apply_why(&st, &a, &why), ENGINE_REJECT_UNKNOWN_KIND);
    assert_memory_equal(&before, &st, sizeof st);
}

/* The wire and the action JSON read and write the power from its row. */
static void test_points__generic_power_codec(void **state)
{
    (void)state;
    engine_action a = bribe_action(0, ENGINE_TERRITORY_THE_GREAT_FLAT, 2), b;
    char err[256], json[256];
    uint8_t wire[64];
    size_t len;

    assert_int_equal(codec_action_encode(wire, sizeof wire, &len, &a), 0);
    assert_int_equal(codec_action_decode(&b, wire, len, err), 0);
    assert_memory_equal(&a, &b, sizeof a);
    /* an argument that is 0 is absent, as in the signed bytes */
    engine_action z = bribe_action(0, 0, 2);
    assert_int_equal(engine_action_n_given(&z), 3);
    assert_int_equal(codec_action_encode(wire, sizeof wire, &len, &z), 0);
    assert_int_equal(codec_action_decode(&b, wire, len, err), 0);
    assert_memory_equal(&z, &b, sizeof z);

    assert_int_equal(codec_action_to_json(json, sizeof json, &a), 0);
    assert_string_equal(json, "{\"kind\":\"power\",\"power\":\"harkonnen_bribe\","
                              "\"territory\":\"the_great_flat\",\"spice\":2}");
    assert_int_equal(codec_action_from_json(&b, json, strlen(json), err), 0);
    assert_memory_equal(&a, &b, sizeof a);

    static const struct {
        const char *json, *err;
    } bad[] = {
        {"{\"kind\":\"power\",\"territory\":\"the_great_flat\",\"spice\":2}",
         "missing field \"power\""},
        {"{\"kind\":\"power\",\"power\":\"atreides_hoard\",\"spice\":2}",
         "unknown power \"atreides_hoard\""},
        {"{\"kind\":\"power\",\"power\":\"harkonnen_bribe\",\"spice\":2}",
         "missing field \"territory\""},
        {"{\"kind\":\"power\",\"power\":\"harkonnen_bribe\",\"territory\":\"x\",\"spice\":2}",
         "unknown territory \"x\""},
        {"{\"kind\":\"power\",\"power\":\"harkonnen_bribe\",\"territory\":3,\"spice\":2,"
         "\"arg3\":1}", "unknown field \"arg3\""},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = '\0';
        assert_int_not_equal(codec_action_from_json(&b, bad[i].json, strlen(bad[i].json), err), 0);
        assert_non_null(strstr(err, bad[i].err));
    }
    /* a power this build has no row for still reads and writes, by id */
    engine_action u = a;
    u.arg[0] = (int16_t)(a.arg[0] == 1 ? 2 : a.arg[0] - 1);
    assert_null(engine_power_form_of(u.arg[0]));
    assert_int_equal(codec_action_to_json(json, sizeof json, &u), 0);
    assert_int_equal(codec_action_from_json(&b, json, strlen(json), err), 0);
    assert_memory_equal(&u, &b, sizeof u);
}

/* The log tells the power from its row, its secret argument to its user
 * alone; the state JSON lists its family with an example `act` reads. */
static void test_points__generic_power_log_and_state_json(void **state)
{
    (void)state;
    engine_state st, after, vb, va;
    engine_verdict_detail why;
    position(&st, HARKONNEN_SEAT);
    after = st;
    engine_action a = bribe_action(HARKONNEN_SEAT, ENGINE_TERRITORY_THE_GREAT_FLAT, 2);
    assert_int_equal(apply_why(&after, &a, &why), ENGINE_ACCEPTED);

    inspect_log_line line;
    engine_view(&vb, &st, HARKONNEN_SEAT);
    engine_view(&va, &after, HARKONNEN_SEAT);
    inspect_log_describe(&line, &vb, &va, &a, 9, HARKONNEN_SEAT);
    assert_non_null(strstr(line.text, "harkonnen_bribe"));
    assert_non_null(strstr(line.text, "territory The Great Flat"));
    assert_non_null(strstr(line.text, "spice 2"));
    engine_view(&vb, &st, EMPEROR_SEAT);
    engine_view(&va, &after, EMPEROR_SEAT);
    inspect_log_describe(&line, &vb, &va, &a, 9, EMPEROR_SEAT);
    assert_non_null(strstr(line.text, "harkonnen_bribe"));
    assert_non_null(strstr(line.text, "spice secret"));
    assert_null(strstr(line.text, "spice 2"));
    assert_int_equal(line.action.arg[2], INSPECT_ARG_HIDDEN);
    assert_int_equal(line.action.arg[1], ENGINE_TERRITORY_THE_GREAT_FLAT);

    engine_legal legal[512];
    const engine_legal *l = power_family(legal, 512, &st, HARKONNEN_SEAT, a.arg[0]);
    assert_non_null(l);
    generic_family_json(&st, l, "power", "harkonnen_bribe");

    char text[512];
    inspect_legal_text(text, sizeof text, &st, l);
    assert_non_null(strstr(text, "power: power "));
    assert_non_null(strstr(text, "spice 1..2"));
}

/* Through a real ledger: a genuine six-seat room played to the first
 * moment the Harkonnen are asked and may bribe; the power is appended,
 * signed and chained like any event, and the room verifies (signatures,
 * chain, re-fold to every state digest). */
static void test_points__generic_power_in_the_ledger(void **state)
{
    (void)state;
    fixture *f = fixture_new(0);
    char room[SCHEMA_ROOM_CHARS + 1];
    room_new(f->db, room);
    static engine_state st;
    engine_legal legal[512];
    int id = engine_power_id("harkonnen_bribe");
    uint32_t head = 0;
    unsigned seat = generic_play_until(&st, &head, f->db, room, ENGINE_FACTION_HARKONNEN,
                                       ENGINE_ACTION_POWER, id);
    const engine_legal *l = power_family(legal, 512, &st, seat, id);
    assert_non_null(l);
    assert_int_not_equal(st.phase, ENGINE_PHASE_SETUP); /* a side action: after setup */
    print_message("points: the Harkonnen may bribe at version %u (%s)\n", head,
                  engine_phase_name(st.phase));
    engine_action a = bribe_action(l->seat, ENGINE_TERRITORY_CARTHAG, 2);
    unsigned spice = st.seat[l->seat].spice;
    ledger_append_result res;
    assert_int_equal(ledger_append(f->db, &res, room, head, &a), 0);
    assert_int_equal(res.verdict, ENGINE_ACCEPTED);
    assert_int_equal(ledger_state_at(f->db, &st, room, head + 1), 0);
    assert_int_equal(st.seat[a.seat].spice + 2, spice);
    /* and a wrong seat is refused, nothing appended */
    engine_action w = a;
    w.seat = (uint8_t)((a.seat + 1) % st.config.n_seats);
    assert_int_equal(ledger_append(f->db, &res, room, head + 1, &w), 0);
    assert_int_not_equal(res.verdict, ENGINE_ACCEPTED);
    uint32_t after = 0;
    assert_int_equal(ledger_head(f->db, room, &after, NULL), 0);
    assert_int_equal(after, head + 1);
    assert_int_equal(verify_ok(f->db, room), 0);
    fixture_free(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_points__made_up_power_moves_two),
        cmocka_unit_test(test_points__generic_power_offered_and_applied),
        cmocka_unit_test(test_points__generic_power_codec),
        cmocka_unit_test(test_points__generic_power_log_and_state_json),
        cmocka_unit_test(test_points__generic_power_in_the_ledger),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
