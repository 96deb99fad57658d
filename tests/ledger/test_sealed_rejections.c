/*
 * test_sealed_rejections.c - a refused action's secret arguments are never
 * stored in the clear: the room key (sealed to the audit key in `meta`)
 * seals them, with the detail value when it is about one of them. With the
 * audit key a reader gets the action as it was refused; without it, the
 * action sealed; a sealed record altered in the file is corrupt; a public
 * action's rejection is stored as it was.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tests/ledger/helpers.h"

#define TURN_REFUSED 77            /* a prediction's turn past any game */

typedef struct got {
    size_t n;
    codec_rejection r[4];
} got;

static int collect(void *ctx, uint32_t n, const codec_rejection *r)
{
    got *g = ctx;
    (void)n;
    if (g->n < 4)
        g->r[g->n++] = *r;
    return 0;
}

static void test_sealed_rejections__secret_arguments_sealed(void **state)
{
    (void)state;
    fixture *f = fixture_new(0);
    char room[SCHEMA_ROOM_CHARS + 1];
    room_new(f->db, room);
    engine_action act;
    uint32_t head;
    assert_true(next_action(f->db, &act, room, &head));
    assert_int_equal(act.kind, ENGINE_ACTION_PREDICT); /* the six-seat table opens with it */
    engine_action bad = act;
    bad.arg[1] = TURN_REFUSED;
    ledger_append_result res;
    assert_int_equal(ledger_append(f->db, &res, room, head, &bad), 0);
    assert_int_not_equal(res.verdict, ENGINE_ACCEPTED);
    assert_int_equal(res.why.arg, 1);
    assert_int_equal(res.why.value, TURN_REFUSED);

    /* In the file: the turn nowhere, neither as the argument nor as the
     * detail, nor the canonical action bytes that carry it. */
    uint8_t rec[512];
    size_t len = raw_value_get(f->db, f->db->dbi_rejections, room, 0, rec, sizeof rec);
    codec_rejection stored;
    assert_int_equal(codec_rejection_decode(&stored, rec + 1, len - 1, NULL), 0);
    assert_int_equal(stored.action.arg[0], 0);
    assert_int_equal(stored.action.arg[1], 0);
    assert_int_equal(stored.detail_value, 0);
    assert_true(stored.sealed_len > 0);
    uint8_t canon[2 + 2 * ENGINE_ACTION_MAX_ARGS];
    size_t clen = ledger__action_canonical(canon, sizeof canon, &bad);
    assert_false(test_has_bytes(rec, len, canon, clen));

    /* With the audit key: as refused. */
    got g = {0};
    assert_int_equal(ledger_rejection_foreach(f->db, room, collect, &g), 0);
    assert_int_equal(g.n, 1);
    assert_int_equal(g.r[0].sealed_len, 0);
    assert_int_equal(g.r[0].action.arg[0], bad.arg[0]);
    assert_int_equal(g.r[0].action.arg[1], TURN_REFUSED);
    assert_int_equal(g.r[0].detail_value, TURN_REFUSED);

    /* A public action's rejection (a bid before the bidding) is stored as
     * it was. */
    engine_action other;
    memset(&other, 0, sizeof other);
    other.kind = ENGINE_ACTION_BID;
    other.seat = act.seat;
    other.arg[0] = 3;
    assert_int_equal(engine_action_secret_mask(other.kind), 0);
    assert_int_equal(ledger_append(f->db, &res, room, head, &other), 0);
    assert_int_not_equal(res.verdict, ENGINE_ACCEPTED);
    uint8_t rec1[512];
    size_t len1 = raw_value_get(f->db, f->db->dbi_rejections, room, 1, rec1, sizeof rec1);
    codec_rejection stored1;
    assert_int_equal(codec_rejection_decode(&stored1, rec1 + 1, len1 - 1, NULL), 0);
    assert_int_equal(stored1.sealed_len, 0);
    assert_int_equal(stored1.action.arg[0], 3);
    g.n = 0;
    assert_int_equal(ledger_rejection_foreach(f->db, room, collect, &g), 0);
    assert_int_equal(g.n, 2);
    assert_int_equal(g.r[1].sealed_len, 0);
    assert_int_equal(g.r[1].action.arg[0], 3);

    /* Without the audit key: sealed, its secret arguments 0. */
    fixture_reopen_keyless(f);
    g.n = 0;
    assert_int_equal(ledger_rejection_foreach(f->db, room, collect, &g), 0);
    assert_true(g.r[0].sealed_len > 0);
    assert_int_equal(g.r[0].action.arg[1], 0);
    assert_int_equal(g.r[0].detail_value, 0);
    fixture_reopen_keyed(f);

    /* A sealed byte altered: corrupt, never another action. */
    rec[len - 3] ^= 0x01;
    assert_non_null(f->db);
    raw_value_put(f->db, f->db->dbi_rejections, room, 0, rec, len);
    assert_int_equal(ledger_rejection_foreach(f->db, room, collect, &g), LEDGER_ECORRUPT);
    fixture_free(f);
}

int main(void)
{
    if (sodium_init() < 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sealed_rejections__secret_arguments_sealed),
    };
    return cmocka_run_group_tests_name("ledger_sealed_rejections", tests, NULL, NULL);
}
