/*
 * test_codec.c - the protobuf codec of schema/codec.c: every record
 * survives decode(encode(x)) == x, and decoding refuses, naming the field,
 * every kind of bad input (missing field, unspecified or out-of-range
 * enum, wrong byte length, unknown field, unknown action kind, bad room
 * code, truncated bytes, trailing garbage, out-of-range arguments).
 *
 * Bad inputs are made from good ones with a small protobuf writer of our
 * own (never protobuf-c), so the decoder is checked against bytes it did
 * not produce.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "schema/schema.h"

#define ROOM "K7Q2MZ9B"

/* ======================================================= wire writer */

typedef struct buf {
    uint8_t b[2048];
    size_t n;
} buf;

static void put_raw(buf *p, const void *d, size_t n)
{
    assert_true(p->n + n <= sizeof p->b);
    memcpy(p->b + p->n, d, n);
    p->n += n;
}

static void put_varint(buf *p, uint64_t v)
{
    do {
        uint8_t byte = (uint8_t)(v & 0x7f);
        v >>= 7;
        if (v != 0)
            byte |= 0x80;
        put_raw(p, &byte, 1);
    } while (v != 0);
}

static void put_uint(buf *p, unsigned id, uint64_t v)
{
    put_varint(p, (uint64_t)id << 3);
    put_varint(p, v);
}

static void put_bytes(buf *p, unsigned id, const void *d, size_t n)
{
    put_varint(p, (uint64_t)id << 3 | 2);
    put_varint(p, n);
    put_raw(p, d, n);
}

static void put_fixed32(buf *p, unsigned id, uint32_t v)
{
    uint8_t le[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    put_varint(p, (uint64_t)id << 3 | 5);
    put_raw(p, le, 4);
}

static void put_msg(buf *p, unsigned id, const buf *sub)
{
    put_bytes(p, id, sub->b, sub->n);
}

static uint64_t get_varint(const uint8_t *in, size_t len, size_t *pos)
{
    uint64_t v = 0;
    for (unsigned shift = 0;; shift += 7) {
        assert_true(*pos < len);
        v |= (uint64_t)(in[*pos] & 0x7f) << shift;
        if ((in[(*pos)++] & 0x80) == 0)
            return v;
    }
}

/* out = in without any top-level field `id`. */
static void without(buf *out, const uint8_t *in, size_t len, unsigned id)
{
    size_t pos = 0;
    out->n = 0;
    while (pos < len) {
        size_t at = pos;
        uint64_t key = get_varint(in, len, &pos);
        switch (key & 7) {
        case 0: (void)get_varint(in, len, &pos); break;
        case 1: pos += 8; break;
        case 2: pos += (size_t)get_varint(in, len, &pos); break;
        case 5: pos += 4; break;
        default: fail_msg("wire type %u", (unsigned)(key & 7));
        }
        if ((key >> 3) != id)
            put_raw(out, in + at, pos - at);
    }
}

/* ========================================================== fixtures */

static void fill(uint8_t *p, size_t n, uint8_t seed)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)(seed + 7 * i);
}

/* An action of `kind` with every argument set, near the top of its range
 * when `high`. */
static engine_action sample_action(unsigned kind, int high)
{
    const engine_action_spec *spec = engine_action_spec_of(kind);
    engine_action a;
    memset(&a, 0, sizeof a);
    assert_non_null(spec);
    a.kind = (uint8_t)kind;
    for (unsigned i = 0; i < spec->n_args; i++) {
        switch ((engine_arg_type)spec->arg_type[i]) {
        case ENGINE_ARG_INT: a.arg[i] = (int16_t)(high ? INT16_MAX - (int)i : 3 + (int)i); break;
        case ENGINE_ARG_FACTION: a.arg[i] = high ? ENGINE_FACTION_MORITANI : ENGINE_FACTION_HARKONNEN; break;
        case ENGINE_ARG_LEADER: a.arg[i] = high ? ENGINE_LEADER_COUNT - 1 : 17; break;
        case ENGINE_ARG_TERRITORY: a.arg[i] = high ? ENGINE_TERRITORY_COUNT - 1 : 5; break;
        case ENGINE_ARG_LOCATION: a.arg[i] = high ? ENGINE_LOCATION_COUNT - 1 : 7; break;
        case ENGINE_ARG_CARD: a.arg[i] = high ? ENGINE_TREACHERY_MAX - 1 : 9; break;
        case ENGINE_ARG_SIGNED: a.arg[i] = (int16_t)(high ? INT16_MAX : -2); break;
        case ENGINE_ARG_COUNT1: a.arg[i] = (int16_t)(high ? INT16_MAX : 1 + (int)i); break;
        }
    }
    return a;
}

static codec_event sample_event(unsigned kind, uint8_t seat)
{
    codec_event ev;
    memset(&ev, 0, sizeof ev);
    ev.version = 42;
    ev.has_prev_hash = 1;
    fill(ev.prev_hash, sizeof ev.prev_hash, 1);
    ev.seat = seat;
    ev.action = sample_action(kind, 0);
    ev.action.seat = seat;
    ev.committed_at = UINT64_C(1735689600123);
    fill(ev.state_digest, sizeof ev.state_digest, 2);
    ev.has_signature = 1; /* format 1; format 2 drops key_id and signature */
    ev.key_id = 0xDEADBEEF;
    fill(ev.signature, sizeof ev.signature, 3);
    return ev;
}

static codec_genesis sample_genesis(void)
{
    codec_genesis g;
    memset(&g, 0, sizeof g);
    g.format_version = 1;
    memcpy(g.room, ROOM, sizeof g.room);
    g.config.n_seats = 4;
    g.config.faction[0] = ENGINE_FACTION_ATREIDES;
    g.config.faction[1] = ENGINE_FACTION_BENE_GESSERIT;
    g.config.faction[2] = ENGINE_FACTION_FREMEN;
    g.config.faction[3] = ENGINE_FACTION_HARKONNEN;
    g.config.is_advanced = 0;
    g.config.turn_limit = 10;
    g.config.modules = 0;
    g.config.rules_version = ENGINE_RULES_VERSION;
    fill(g.seed_commitment, sizeof g.seed_commitment, 4);
    fill(g.sealed_seed, sizeof g.sealed_seed, 5);
    g.audit_key_id = 7;
    g.key_id = 8;
    g.created_at = UINT64_C(1735689600000);
    fill(g.signature, sizeof g.signature, 6);
    return g;
}

static void assert_action_eq(const engine_action *a, const engine_action *b)
{
    assert_int_equal(a->kind, b->kind);
    assert_int_equal(a->seat, b->seat);
    for (unsigned i = 0; i < ENGINE_ACTION_MAX_ARGS; i++)
        assert_int_equal(a->arg[i], b->arg[i]);
}

static void assert_event_eq(const codec_event *a, const codec_event *b)
{
    assert_int_equal(a->version, b->version);
    assert_int_equal(a->has_prev_hash, b->has_prev_hash);
    if (a->has_prev_hash)
        assert_memory_equal(a->prev_hash, b->prev_hash, SCHEMA_HASH_BYTES);
    assert_int_equal(a->seat, b->seat);
    assert_action_eq(&a->action, &b->action);
    assert_int_equal(a->committed_at, b->committed_at);
    assert_memory_equal(a->state_digest, b->state_digest, SCHEMA_HASH_BYTES);
    assert_int_equal(a->has_signature, b->has_signature);
    assert_int_equal(a->key_id, b->key_id);
    if (a->has_signature)
        assert_memory_equal(a->signature, b->signature, SCHEMA_SIG_BYTES);
}

static void assert_genesis_eq(const codec_genesis *a, const codec_genesis *b)
{
    assert_int_equal(a->format_version, b->format_version);
    assert_string_equal(a->room, b->room);
    assert_int_equal(a->config.n_seats, b->config.n_seats);
    for (unsigned i = 0; i < a->config.n_seats; i++)
        assert_int_equal(a->config.faction[i], b->config.faction[i]);
    assert_int_equal(a->config.is_advanced, b->config.is_advanced);
    assert_int_equal(a->config.turn_limit, b->config.turn_limit);
    assert_int_equal(a->config.modules, b->config.modules);
    assert_int_equal(a->config.is_constructed, b->config.is_constructed);
    assert_int_equal(a->config.rules_version, b->config.rules_version);
    assert_memory_equal(a->seed_commitment, b->seed_commitment, SCHEMA_HASH_BYTES);
    assert_memory_equal(a->sealed_seed, b->sealed_seed, SCHEMA_SEALED_SEED_BYTES);
    assert_int_equal(a->audit_key_id, b->audit_key_id);
    assert_int_equal(a->key_id, b->key_id);
    assert_int_equal(a->created_at, b->created_at);
    assert_int_equal(a->position_len, b->position_len);
    if (a->position_len != 0)
        assert_memory_equal(a->position, b->position, a->position_len);
    assert_memory_equal(a->signature, b->signature, SCHEMA_SIG_BYTES);
    assert_int_equal(a->is_fork, b->is_fork);
    if (a->is_fork) {
        assert_string_equal(a->fork_room, b->fork_room);
        assert_int_equal(a->fork_version, b->fork_version);
        assert_memory_equal(a->fork_hash, b->fork_hash, SCHEMA_HASH_BYTES);
    }
}

/* Encodes a sample event into p. */
static void event_bytes(buf *p, const codec_event *ev)
{
    assert_int_equal(codec_event_encode(p->b, sizeof p->b, &p->n, ev, 1), SCHEMA_OK);
}

static void genesis_bytes(buf *p, const codec_genesis *g)
{
    assert_int_equal(codec_genesis_encode(p->b, sizeof p->b, &p->n, g), SCHEMA_OK);
}

/* Decoding `p` as an event fails with exactly `msg`. */
static void expect_event_error(const buf *p, const char *msg)
{
    codec_event ev;
    char err[SCHEMA_ERRMSG] = "";
    int rc = codec_event_decode(&ev, p->b, p->n, err);
    if (rc != SCHEMA_EDECODE)
        fail_msg("decoded (rc %d), expected \"%s\"", rc, msg);
    assert_string_equal(err, msg);
    /* a refused decode leaves nothing behind */
    assert_int_equal(ev.version, 0);
    assert_int_equal(ev.action.kind, 0);
}

static void expect_genesis_error(const buf *p, const char *msg)
{
    codec_genesis g;
    char err[SCHEMA_ERRMSG] = "";
    int rc = codec_genesis_decode(&g, p->b, p->n, err);
    if (rc != SCHEMA_EDECODE)
        fail_msg("decoded (rc %d), expected \"%s\"", rc, msg);
    assert_string_equal(err, msg);
}

/* An event whose Action field is `action` (wire bytes of an Action). */
static void event_with_action(buf *out, const buf *action)
{
    codec_event ev = sample_event(ENGINE_ACTION_STORM_DIAL, 0);
    buf good;
    event_bytes(&good, &ev);
    without(out, good.b, good.n, 4);
    put_msg(out, 4, action);
}

/* ========================================================= round trips */

static void test_codec__action_round_trip_every_kind(void **state)
{
    (void)state;
    for (unsigned kind = 1; kind < ENGINE_ACTION_KIND_COUNT; kind++)
        for (int high = 0; high <= 1; high++) {
            engine_action a = sample_action(kind, high), back;
            uint8_t out[256];
            size_t len;
            char err[SCHEMA_ERRMSG] = "";
            assert_int_equal(codec_action_encode(out, sizeof out, &len, &a), SCHEMA_OK);
            if (codec_action_decode(&back, out, len, err) != SCHEMA_OK)
                fail_msg("kind %u: %s", kind, err);
            assert_action_eq(&a, &back);
        }
}

/* An optional argument absent (0) is not on the wire nor in the JSON, so
 * an event of an older rules version encodes as it did; given, it round
 * trips; on the wire it is never 0 (docs/FORMAT.md "Optional arguments"). */
static void test_codec__optional_argument_absent_or_given(void **state)
{
    (void)state;
    engine_action a = {ENGINE_ACTION_MOVE, 0, {5, 3, 2, 0, 0}}, back;
    uint8_t out[64];
    size_t len;
    char err[SCHEMA_ERRMSG] = "", json[256];
    /* Action.move (field 28): from 5, to 3, forces 2, elite 0, no field 700 */
    static const uint8_t plain[] = {0xE2, 0x01, 0x08, 0x08, 0x05, 0x10, 0x03, 0x18, 0x02,
                                    0x20, 0x00};
    assert_int_equal(codec_action_encode(out, sizeof out, &len, &a), SCHEMA_OK);
    assert_int_equal(len, sizeof plain);
    assert_memory_equal(out, plain, sizeof plain);
    assert_int_equal(codec_action_to_json(json, sizeof json, &a), SCHEMA_OK);
    assert_null(strstr(json, "source"));
    assert_int_equal(codec_action_from_json(&back, json, strlen(json), err), SCHEMA_OK);
    assert_int_equal(back.arg[4], 0);
    /* given: field 700 (key 0xE0 0x2B) */
    a.arg[4] = 2;
    assert_int_equal(codec_action_encode(out, sizeof out, &len, &a), SCHEMA_OK);
    assert_int_equal(len, sizeof plain + 3);
    assert_int_equal(codec_action_decode(&back, out, len, err), SCHEMA_OK);
    assert_int_equal(back.arg[4], 2);
    assert_int_equal(codec_action_to_json(json, sizeof json, &a), SCHEMA_OK);
    assert_non_null(strstr(json, "\"source\":"));
    assert_int_equal(codec_action_from_json(&back, json, strlen(json), err), SCHEMA_OK);
    assert_int_equal(back.arg[4], 2);
    /* field 700 present with 0 is refused */
    static const uint8_t zero[] = {0xE2, 0x01, 0x0B, 0x08, 0x05, 0x10, 0x03, 0x18, 0x02,
                                   0x20, 0x00, 0xE0, 0x2B, 0x00};
    assert_int_equal(codec_action_decode(&back, zero, sizeof zero, err), SCHEMA_EDECODE);
    assert_non_null(strstr(err, "optional argument given must not be 0"));
}

static void test_codec__action_none_values(void **state)
{
    engine_action a, back;
    uint8_t out[64];
    size_t len;
    char err[SCHEMA_ERRMSG] = "";
    buf bad, action, variant;
    (void)state;

    /* revive and ghola name "no leader" as -1, a sint32 on the wire */
    memset(&a, 0, sizeof a);
    a.kind = ENGINE_ACTION_REVIVE;
    a.arg[0] = 2;
    a.arg[2] = -1;
    assert_int_equal(codec_action_encode(out, sizeof out, &len, &a), SCHEMA_OK);
    assert_int_equal(codec_action_decode(&back, out, len, err), SCHEMA_OK);
    assert_action_eq(&a, &back);
    a.arg[2] = -2;
    assert_int_equal(codec_action_encode(out, sizeof out, &len, &a), SCHEMA_ERROR);

    variant.n = 0;
    put_uint(&variant, 1, 1);
    put_uint(&variant, 2, 3);                      /* zigzag 3 = -2 */
    action.n = 0;
    put_msg(&action, ENGINE_ACTION_GHOLA, &variant);
    event_with_action(&bad, &action);
    expect_event_error(&bad, "Event.action.ghola.leader: value -2 out of range -1..61");

    /* a battle plan without leader, cheap hero, weapon or defense */
    memset(&a, 0, sizeof a);
    a.kind = ENGINE_ACTION_BATTLE_PLAN;
    a.arg[0] = a.arg[1] = a.arg[2] = a.arg[3] = -1;
    a.arg[4] = 7;
    assert_int_equal(codec_action_encode(out, sizeof out, &len, &a), SCHEMA_OK);
    assert_int_equal(codec_action_decode(&back, out, len, err), SCHEMA_OK);
    assert_action_eq(&a, &back);

    /* traitor_pick's leader is a uint32: never "no leader" */
    memset(&a, 0, sizeof a);
    a.kind = ENGINE_ACTION_TRAITOR_PICK;
    a.arg[0] = -1;
    assert_int_equal(codec_action_encode(out, sizeof out, &len, &a), SCHEMA_ERROR);
}

static void test_codec__event_round_trip_every_kind_and_seat(void **state)
{
    (void)state;
    static const uint8_t seats[] = {0, 1, 5, ENGINE_SEAT_ENGINE};
    for (unsigned kind = 1; kind < ENGINE_ACTION_KIND_COUNT; kind++)
        for (size_t s = 0; s < sizeof seats; s++) {
            codec_event ev = sample_event(kind, seats[s]), back;
            char err[SCHEMA_ERRMSG] = "";
            buf p;
            event_bytes(&p, &ev);
            if (codec_event_decode(&back, p.b, p.n, err) != SCHEMA_OK)
                fail_msg("kind %u seat %u: %s", kind, seats[s], err);
            assert_event_eq(&ev, &back);
            assert_int_equal(back.action.seat, back.seat);
        }
}

/* Format 2: neither key_id nor signature on the wire, and none decoded;
 * one of the two without the other is refused. */
static void test_codec__event_of_format_2(void **state)
{
    (void)state;
    codec_event ev = sample_event(ENGINE_ACTION_STORM_DIAL, 1), back;
    uint8_t with[256], without[256];
    size_t with_len, without_len;
    char err[SCHEMA_ERRMSG] = "";
    assert_int_equal(codec_event_encode(with, sizeof with, &with_len, &ev, 1), SCHEMA_OK);
    ev.has_signature = 0;
    ev.key_id = 0;
    assert_int_equal(codec_event_encode(without, sizeof without, &without_len, &ev, 1),
                     SCHEMA_OK);
    assert_int_equal(with_len - without_len, 5 + 2 + SCHEMA_SIG_BYTES); /* fixed32 and bytes */
    assert_int_equal(codec_event_decode(&back, without, without_len, err), SCHEMA_OK);
    assert_event_eq(&ev, &back);
    assert_false(back.has_signature);
    /* the key id alone (the signature's field cut off the end) */
    assert_int_equal(codec_event_decode(&back, with, with_len - 2 - SCHEMA_SIG_BYTES, err),
                     SCHEMA_EDECODE);
    assert_non_null(strstr(err, "go together"));
}

/* Format 3: a sealed action of 42..58 bytes decodes back; one out of
 * that range, or beside a signature (format 1), is refused. */
static void test_codec__event_of_format_3(void **state)
{
    (void)state;
    codec_event ev = sample_event(ENGINE_ACTION_STORM_DIAL, 1), back;
    uint8_t out[512];
    size_t len;
    char err[SCHEMA_ERRMSG] = "";
    ev.has_signature = 0;
    ev.key_id = 0;
    ev.sealed_len = SCHEMA_SEALED_EVENT_MIN + 2;
    fill(ev.sealed_action, ev.sealed_len, 31);
    assert_int_equal(codec_event_encode(out, sizeof out, &len, &ev, 1), SCHEMA_OK);
    assert_int_equal(codec_event_decode(&back, out, len, err), SCHEMA_OK);
    assert_int_equal(back.sealed_len, ev.sealed_len);
    assert_memory_equal(back.sealed_action, ev.sealed_action, ev.sealed_len);
    ev.has_signature = 1;
    assert_int_equal(codec_event_encode(out, sizeof out, &len, &ev, 1), SCHEMA_ERROR);
    ev.has_signature = 0;
    ev.sealed_len = SCHEMA_SEALED_EVENT_MIN - 1;
    assert_int_equal(codec_event_encode(out, sizeof out, &len, &ev, 1), SCHEMA_ERROR);
}

static void test_codec__event_stored_without_prev_hash(void **state)
{
    codec_event ev = sample_event(ENGINE_ACTION_PREDICT, 1), back;
    uint8_t with[256], stored[256];
    size_t with_len, stored_len;
    (void)state;
    assert_int_equal(codec_event_encode(with, sizeof with, &with_len, &ev, 1), SCHEMA_OK);
    assert_int_equal(codec_event_encode(stored, sizeof stored, &stored_len, &ev, 0), SCHEMA_OK);
    assert_int_equal(with_len, stored_len + 2 + SCHEMA_HASH_BYTES);
    assert_int_equal(codec_event_decode(&back, stored, stored_len, NULL), SCHEMA_OK);
    assert_int_equal(back.has_prev_hash, 0);
    ev.has_prev_hash = 0;
    assert_event_eq(&ev, &back);
}

static void test_codec__genesis_round_trip(void **state)
{
    codec_genesis g = sample_genesis(), back;
    char err[SCHEMA_ERRMSG] = "";
    buf p;
    (void)state;
    genesis_bytes(&p, &g);
    if (codec_genesis_decode(&back, p.b, p.n, err) != SCHEMA_OK)
        fail_msg("%s", err);
    assert_genesis_eq(&g, &back);
    for (unsigned i = g.config.n_seats; i < ENGINE_MAX_SEATS; i++)
        assert_int_equal(back.config.faction[i], ENGINE_FACTION_NONE);
}

static void test_codec__genesis_round_trip_advanced_constructed(void **state)
{
    static const uint8_t position[] = {9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 0xFF};
    codec_genesis g = sample_genesis(), back;
    char err[SCHEMA_ERRMSG] = "";
    buf p;
    (void)state;
    g.config.n_seats = ENGINE_MAX_SEATS;
    for (unsigned i = 0; i < ENGINE_MAX_SEATS; i++)
        g.config.faction[i] = (uint8_t)(ENGINE_FACTION_MORITANI - i);
    g.config.is_advanced = 1;
    g.config.turn_limit = ENGINE_MAX_TURN_LIMIT;
    g.config.modules = 1u << 0 | 1u << 2 | 1u << 6;
    g.config.is_constructed = 1;
    g.position = position;
    g.position_len = sizeof position;
    genesis_bytes(&p, &g);
    if (codec_genesis_decode(&back, p.b, p.n, err) != SCHEMA_OK)
        fail_msg("%s", err);
    assert_genesis_eq(&g, &back);
    /* the position is borrowed from the input */
    assert_true(back.position >= p.b && back.position + back.position_len <= p.b + p.n);
}

static void test_codec__genesis_of_a_fork(void **state)
{
    static const uint8_t position[] = {1, 2, 3, 4};
    codec_genesis g = sample_genesis(), back;
    char err[SCHEMA_ERRMSG] = "";
    buf p;
    (void)state;
    g.config.is_constructed = 1;
    g.position = position;
    g.position_len = sizeof position;
    g.is_fork = 1;
    memcpy(g.fork_room, "XGURKZTA", sizeof g.fork_room);
    g.fork_version = 120;
    fill(g.fork_hash, sizeof g.fork_hash, 9);
    genesis_bytes(&p, &g);
    if (codec_genesis_decode(&back, p.b, p.n, err) != SCHEMA_OK)
        fail_msg("%s", err);
    assert_genesis_eq(&g, &back);
    /* a fork is constructed, with its position: else it does not encode */
    g.config.is_constructed = 0;
    g.position_len = 0;
    assert_int_equal(codec_genesis_encode(p.b, sizeof p.b, &p.n, &g), SCHEMA_ERROR);
    /* a fork field alone is refused */
    g = sample_genesis();
    genesis_bytes(&p, &g);
    p.b[p.n++] = 0xe8; /* key of field 221 (fork_of_version), varint: (221 << 3) | 0 */
    p.b[p.n++] = 0x0d;
    p.b[p.n++] = 7;
    expect_genesis_error(&p, "Genesis.fork_of_room: a fork names its room, version and hash");
}

static void test_codec__rejection_round_trip(void **state)
{
    codec_rejection r, back;
    uint8_t out[256];
    size_t len;
    char err[SCHEMA_ERRMSG] = "";
    (void)state;
    memset(&r, 0, sizeof r);
    memcpy(r.room, ROOM, sizeof r.room);
    r.seat = 2;
    r.expected_version = 0;
    r.action = sample_action(ENGINE_ACTION_STORM_DIAL, 0);
    r.action.seat = 2;
    r.reason = ENGINE_REJECT_STORM_DIAL_RANGE;
    r.detail_arg = 0;
    r.detail_value = -40;
    r.at = 99;
    assert_int_equal(codec_rejection_encode(out, sizeof out, &len, &r), SCHEMA_OK);
    if (codec_rejection_decode(&back, out, len, err) != SCHEMA_OK)
        fail_msg("%s", err);
    assert_string_equal(back.room, ROOM);
    assert_int_equal(back.seat, 2);
    assert_int_equal(back.expected_version, 0);
    assert_action_eq(&r.action, &back.action);
    assert_int_equal(back.reason, ENGINE_REJECT_STORM_DIAL_RANGE);
    assert_int_equal(back.detail_arg, 0);
    assert_int_equal(back.detail_value, -40);
    assert_int_equal(back.at, 99);

    r.detail_arg = -1;
    r.detail_value = 0;
    assert_int_equal(codec_rejection_encode(out, sizeof out, &len, &r), SCHEMA_OK);
    assert_int_equal(codec_rejection_decode(&back, out, len, err), SCHEMA_OK);
    assert_int_equal(back.detail_arg, -1);
    assert_int_equal(back.detail_value, 0);
}

static void test_codec__receipt_round_trip(void **state)
{
    codec_receipt r, back;
    uint8_t out[256];
    size_t len;
    (void)state;
    memset(&r, 0, sizeof r);
    memcpy(r.room, ROOM, sizeof r.room);
    r.version = 12;
    fill(r.event_hash, sizeof r.event_hash, 10);
    r.key_id = 3;
    fill(r.signature, sizeof r.signature, 11);
    assert_int_equal(codec_receipt_encode(out, sizeof out, &len, &r), SCHEMA_OK);
    assert_int_equal(codec_receipt_decode(&back, out, len, NULL), SCHEMA_OK);
    assert_string_equal(back.room, ROOM);
    assert_int_equal(back.version, 12);
    assert_memory_equal(back.event_hash, r.event_hash, SCHEMA_HASH_BYTES);
    assert_int_equal(back.key_id, 3);
    assert_memory_equal(back.signature, r.signature, SCHEMA_SIG_BYTES);
}

static void test_codec__checkpoint_round_trip(void **state)
{
    uint8_t st[300];
    codec_checkpoint c, back;
    uint8_t out[512];
    size_t len;
    (void)state;
    fill(st, sizeof st, 12);
    memset(&c, 0, sizeof c);
    memcpy(c.room, ROOM, sizeof c.room);
    c.version = 0;
    c.state = st;
    c.state_len = sizeof st;
    fill(c.state_digest, sizeof c.state_digest, 13);
    assert_int_equal(codec_checkpoint_encode(out, sizeof out, &len, &c), SCHEMA_OK);
    assert_int_equal(codec_checkpoint_decode(&back, out, len, NULL), SCHEMA_OK);
    assert_string_equal(back.room, ROOM);
    assert_int_equal(back.version, 0);
    assert_int_equal(back.state_len, sizeof st);
    assert_memory_equal(back.state, st, sizeof st);
    assert_true(back.state >= out && back.state + back.state_len <= out + len);
    assert_memory_equal(back.state_digest, c.state_digest, SCHEMA_HASH_BYTES);
}

static void test_codec__key_round_trip(void **state)
{
    codec_key k, back;
    uint8_t out[128];
    size_t len;
    (void)state;
    for (int variant = 0; variant < 2; variant++) {
        memset(&k, 0, sizeof k);
        k.key_id = 0x01020304;
        fill(k.public_key, sizeof k.public_key, 14);
        k.created_at = 1000;
        k.retired_at = variant ? 2000 : 0;
        k.is_audit = variant;
        assert_int_equal(codec_key_encode(out, sizeof out, &len, &k), SCHEMA_OK);
        assert_int_equal(codec_key_decode(&back, out, len, NULL), SCHEMA_OK);
        assert_int_equal(back.key_id, k.key_id);
        assert_memory_equal(back.public_key, k.public_key, SCHEMA_KEY_BYTES);
        assert_int_equal(back.created_at, 1000);
        assert_int_equal(back.retired_at, k.retired_at);
        assert_int_equal(back.is_audit, k.is_audit);
    }
}

static void test_codec__archive_record_round_trip_every_kind(void **state)
{
    uint8_t stored[40];
    (void)state;
    fill(stored, sizeof stored, 15);
    for (unsigned kind = CODEC_ARCHIVE_HEADER; kind <= CODEC_ARCHIVE_SEALED_SEED; kind++) {
        codec_archive_record r, back;
        uint8_t out[256];
        size_t len;
        char err[SCHEMA_ERRMSG] = "";
        memset(&r, 0, sizeof r);
        r.kind = (uint8_t)kind;
        switch ((codec_archive_kind)kind) {
        case CODEC_ARCHIVE_HEADER:
            r.format_version = 1;
            memcpy(r.room, ROOM, sizeof r.room);
            r.n_events = 300;
            r.created_at = 77;
            break;
        case CODEC_ARCHIVE_KEY:
            r.key.key_id = 5;
            fill(r.key.public_key, SCHEMA_KEY_BYTES, 16);
            r.key.created_at = 6;
            r.key.is_audit = 1;
            break;
        case CODEC_ARCHIVE_GENESIS:
        case CODEC_ARCHIVE_EVENT:
        case CODEC_ARCHIVE_ROOM_KEY:
        case CODEC_ARCHIVE_SEALED_SEED:
            r.bytes = stored;
            r.bytes_len = sizeof stored;
            break;
        case CODEC_ARCHIVE_REVEALED_SEED:
        case CODEC_ARCHIVE_REVEALED_ROOM_KEY:
            fill(r.seed, sizeof r.seed, 17);
            break;
        case CODEC_ARCHIVE_TRAILER:
            r.n_records = 302;
            fill(r.digest, sizeof r.digest, 18);
            break;
        case CODEC_ARCHIVE_HEAD:
            memcpy(r.head.room, ROOM, sizeof r.head.room);
            r.head.version = 300;
            fill(r.head.event_hash, SCHEMA_HASH_BYTES, 19);
            r.head.key_id = 9;
            fill(r.head.signature, SCHEMA_SIG_BYTES, 20);
            r.head.has_tree_head = 1;
            fill(r.head.tree_root, SCHEMA_HASH_BYTES, 21);
            r.head.tree_time = 1234;
            break;
        }
        assert_int_equal(codec_archive_record_encode(out, sizeof out, &len, &r), SCHEMA_OK);
        if (codec_archive_record_decode(&back, out, len, err) != SCHEMA_OK)
            fail_msg("kind %u: %s", kind, err);
        assert_int_equal(back.kind, kind);
        assert_int_equal(back.format_version, r.format_version);
        assert_string_equal(back.room, r.room);
        assert_int_equal(back.n_events, r.n_events);
        assert_int_equal(back.created_at, r.created_at);
        assert_int_equal(back.key.key_id, r.key.key_id);
        assert_memory_equal(back.key.public_key, r.key.public_key, SCHEMA_KEY_BYTES);
        assert_int_equal(back.key.created_at, r.key.created_at);
        assert_int_equal(back.key.is_audit, r.key.is_audit);
        assert_int_equal(back.bytes_len, r.bytes_len);
        if (r.bytes_len != 0)
            assert_memory_equal(back.bytes, stored, sizeof stored);
        assert_memory_equal(back.seed, r.seed, sizeof r.seed);
        assert_int_equal(back.n_records, r.n_records);
        assert_memory_equal(back.digest, r.digest, sizeof r.digest);
        assert_memory_equal(&back.head, &r.head, sizeof r.head);
    }
    /* A head without its tree head is refused both ways. */
    codec_archive_record r, back;
    uint8_t out[256];
    size_t len;
    memset(&r, 0, sizeof r);
    r.kind = CODEC_ARCHIVE_HEAD;
    memcpy(r.head.room, ROOM, sizeof r.head.room);
    r.head.version = 3;
    assert_int_equal(codec_archive_record_encode(out, sizeof out, &len, &r), SCHEMA_ERROR);
    /* ... and a receipt without it, put as field 800 by hand, refused */
    codec_receipt bare;
    memset(&bare, 0, sizeof bare);
    memcpy(bare.room, ROOM, sizeof bare.room);
    bare.version = 3;
    uint8_t receipt[200];
    size_t rlen;
    assert_int_equal(codec_receipt_encode(receipt, sizeof receipt, &rlen, &bare), SCHEMA_OK);
    assert_true(rlen < 128);
    out[0] = 0x82; /* field 800, length-delimited: (800 << 3) | 2 = 0x1902 as a varint */
    out[1] = 0x32;
    out[2] = (uint8_t)rlen;
    memcpy(out + 3, receipt, rlen);
    len = rlen + 3;
    char err[SCHEMA_ERRMSG] = "";
    assert_int_equal(codec_archive_record_decode(&back, out, len, err), SCHEMA_EDECODE);
    assert_non_null(strstr(err, "tree head"));
}

/* ============================================================ encoders */

static void test_codec__encode_reports_space_needed(void **state)
{
    codec_event ev = sample_event(ENGINE_ACTION_FREMEN_PLACE, 3);
    uint8_t out[256];
    size_t need, len;
    (void)state;
    assert_int_equal(codec_event_encode(NULL, 0, &need, &ev, 1), SCHEMA_ESPACE);
    assert_true(need > 0);
    assert_int_equal(codec_event_encode(out, need - 1, &len, &ev, 1), SCHEMA_ESPACE);
    assert_int_equal(len, need);
    assert_int_equal(codec_event_encode(out, need, &len, &ev, 1), SCHEMA_OK);
    assert_int_equal(len, need);
}

static void test_codec__encode_refuses_what_decode_would(void **state)
{
    uint8_t out[512];
    size_t len;
    codec_event ev;
    codec_genesis g;
    engine_action a;
    (void)state;

    ev = sample_event(ENGINE_ACTION_STORM_DIAL, 1);
    ev.action.seat = 2;                            /* action.seat != seat */
    assert_int_equal(codec_event_encode(out, sizeof out, &len, &ev, 1), SCHEMA_ERROR);
    ev = sample_event(ENGINE_ACTION_STORM_DIAL, ENGINE_MAX_SEATS);
    assert_int_equal(codec_event_encode(out, sizeof out, &len, &ev, 1), SCHEMA_ERROR);
    ev = sample_event(ENGINE_ACTION_STORM_DIAL, 1);
    ev.version = 0;
    assert_int_equal(codec_event_encode(out, sizeof out, &len, &ev, 1), SCHEMA_ERROR);

    a = sample_action(ENGINE_ACTION_STORM_DIAL, 0);
    a.arg[0] = -1;
    assert_int_equal(codec_action_encode(out, sizeof out, &len, &a), SCHEMA_ERROR);
    a = sample_action(ENGINE_ACTION_STORM_DIAL, 0);
    a.arg[1] = 1;                                  /* an unused argument */
    assert_int_equal(codec_action_encode(out, sizeof out, &len, &a), SCHEMA_ERROR);
    a.kind = ENGINE_ACTION_KIND_COUNT;
    assert_int_equal(codec_action_encode(out, sizeof out, &len, &a), SCHEMA_ERROR);
    a.kind = ENGINE_ACTION_NONE;
    assert_int_equal(codec_action_encode(out, sizeof out, &len, &a), SCHEMA_ERROR);
    a = sample_action(ENGINE_ACTION_TRAITOR_PICK, 0);
    a.arg[0] = ENGINE_LEADER_COUNT;
    assert_int_equal(codec_action_encode(out, sizeof out, &len, &a), SCHEMA_ERROR);

    g = sample_genesis();
    memcpy(g.room, "K7Q2MZ9I", 9);                 /* I is not in the alphabet */
    assert_int_equal(codec_genesis_encode(out, sizeof out, &len, &g), SCHEMA_ERROR);
    g = sample_genesis();
    g.config.faction[1] = g.config.faction[0];
    assert_int_equal(codec_genesis_encode(out, sizeof out, &len, &g), SCHEMA_ERROR);
    g = sample_genesis();
    g.config.n_seats = 1;
    assert_int_equal(codec_genesis_encode(out, sizeof out, &len, &g), SCHEMA_ERROR);
    g = sample_genesis();
    g.config.modules = 1u << 7;
    assert_int_equal(codec_genesis_encode(out, sizeof out, &len, &g), SCHEMA_ERROR);
    g = sample_genesis();
    g.position = out;
    g.position_len = 4;                            /* a position in a genuine room */
    assert_int_equal(codec_genesis_encode(out + 8, sizeof out - 8, &len, &g), SCHEMA_ERROR);
}

/* ============================================================ refusals */

static void test_codec__refuses_missing_field(void **state)
{
    codec_event ev = sample_event(ENGINE_ACTION_PREDICT, 1);
    codec_genesis g = sample_genesis();
    buf good, bad, action, variant;
    (void)state;

    event_bytes(&good, &ev);
    without(&bad, good.b, good.n, 6);
    expect_event_error(&bad, "Event.state_digest: missing required field");
    without(&bad, good.b, good.n, 1);
    expect_event_error(&bad, "Event.version: missing required field");
    without(&bad, good.b, good.n, 4);
    expect_event_error(&bad, "Event.action: missing required field");
    /* prev_hash is optional */
    without(&bad, good.b, good.n, 2);
    assert_int_equal(codec_event_decode(&ev, bad.b, bad.n, NULL), SCHEMA_OK);

    /* inside the action */
    variant.n = 0;
    put_uint(&variant, 1, 3);                      /* faction, no turn */
    action.n = 0;
    put_msg(&action, ENGINE_ACTION_PREDICT, &variant);
    event_with_action(&bad, &action);
    expect_event_error(&bad, "Event.action.predict.turn: missing required field");

    genesis_bytes(&good, &g);
    without(&bad, good.b, good.n, 2);
    expect_genesis_error(&bad, "Genesis.room: missing required field");
    without(&bad, good.b, good.n, 17);
    expect_genesis_error(&bad, "Genesis.signature: missing required field");
    /* empty input: the first required field is missing */
    bad.n = 0;
    expect_event_error(&bad, "Event.version: missing required field");
}

static void test_codec__refuses_unspecified_enum(void **state)
{
    codec_genesis g = sample_genesis();
    buf good, bad, action, variant;
    (void)state;

    genesis_bytes(&good, &g);
    without(&bad, good.b, good.n, 3);
    put_uint(&bad, 3, 0);
    expect_genesis_error(&bad, "Genesis.rules: unspecified");
    without(&bad, good.b, good.n, 8);
    put_uint(&bad, 8, 0);
    expect_genesis_error(&bad, "Genesis.hash_algorithm: unspecified");
    without(&bad, good.b, good.n, 9);
    put_uint(&bad, 9, 0);
    expect_genesis_error(&bad, "Genesis.signature_algorithm: unspecified");
    without(&bad, good.b, good.n, 5);
    put_uint(&bad, 5, 1);
    put_uint(&bad, 5, 0);
    expect_genesis_error(&bad, "Genesis.seats[1]: unspecified");

    variant.n = 0;
    put_uint(&variant, 1, 0);
    put_uint(&variant, 2, 1);
    action.n = 0;
    put_msg(&action, ENGINE_ACTION_PREDICT, &variant);
    event_with_action(&bad, &action);
    expect_event_error(&bad, "Event.action.predict.faction: unspecified");
}

static void test_codec__refuses_out_of_range_enum(void **state)
{
    codec_genesis g = sample_genesis();
    buf good, bad, action, variant;
    (void)state;

    genesis_bytes(&good, &g);
    without(&bad, good.b, good.n, 3);
    put_uint(&bad, 3, 3);
    expect_genesis_error(&bad, "Genesis.rules: value 3 out of range 1..2");
    without(&bad, good.b, good.n, 8);
    put_uint(&bad, 8, 2);
    expect_genesis_error(&bad, "Genesis.hash_algorithm: value 2 out of range 1..1");
    without(&bad, good.b, good.n, 5);
    put_uint(&bad, 5, 1);
    put_uint(&bad, 5, 13);
    expect_genesis_error(&bad, "Genesis.seats[1]: value 13 out of range 1..12");
    without(&bad, good.b, good.n, 6);
    put_uint(&bad, 6, 8);
    expect_genesis_error(&bad, "Genesis.modules[0]: value 8 out of range 1..7");
    /* a negative enum, sign-extended to ten bytes */
    without(&bad, good.b, good.n, 3);
    put_uint(&bad, 3, UINT64_MAX);
    expect_genesis_error(&bad, "Genesis.rules: value out of range");
    /* 2^32 + 1 would be truncated to 1 by protobuf-c */
    without(&bad, good.b, good.n, 3);
    put_uint(&bad, 3, (UINT64_C(1) << 32) + 1);
    expect_genesis_error(&bad, "Genesis.rules: value out of range");

    variant.n = 0;
    put_uint(&variant, 1, 13);
    put_uint(&variant, 2, 1);
    action.n = 0;
    put_msg(&action, ENGINE_ACTION_PREDICT, &variant);
    event_with_action(&bad, &action);
    expect_event_error(&bad, "Event.action.predict.faction: value 13 out of range 1..12");
}

static void test_codec__refuses_wrong_byte_length(void **state)
{
    codec_event ev = sample_event(ENGINE_ACTION_STORM_DIAL, 0);
    codec_genesis g = sample_genesis();
    uint8_t bytes[100] = {0};
    buf good, bad;
    (void)state;

    event_bytes(&good, &ev);
    without(&bad, good.b, good.n, 6);
    put_bytes(&bad, 6, bytes, 31);
    expect_event_error(&bad, "Event.state_digest: expected 32 bytes, got 31");
    without(&bad, good.b, good.n, 6);
    put_bytes(&bad, 6, bytes, 33);
    expect_event_error(&bad, "Event.state_digest: expected 32 bytes, got 33");
    without(&bad, good.b, good.n, 2);
    put_bytes(&bad, 2, bytes, 0);
    expect_event_error(&bad, "Event.prev_hash: expected 32 bytes, got 0");
    without(&bad, good.b, good.n, 8);
    put_bytes(&bad, 8, bytes, 63);
    expect_event_error(&bad, "Event.signature: expected 64 bytes, got 63");

    genesis_bytes(&good, &g);
    without(&bad, good.b, good.n, 11);
    put_bytes(&bad, 11, bytes, 79);
    expect_genesis_error(&bad, "Genesis.sealed_seed: expected 80 bytes, got 79");
    without(&bad, good.b, good.n, 10);
    put_bytes(&bad, 10, bytes, 64);
    expect_genesis_error(&bad, "Genesis.seed_commitment: expected 32 bytes, got 64");

    {
        codec_key k;
        char err[SCHEMA_ERRMSG] = "";
        bad.n = 0;
        put_fixed32(&bad, 1, 9);
        put_bytes(&bad, 2, bytes, 33);
        put_uint(&bad, 3, 1);
        assert_int_equal(codec_key_decode(&k, bad.b, bad.n, err), SCHEMA_EDECODE);
        assert_string_equal(err, "Key.public_key: expected 32 bytes, got 33");
    }
    {
        codec_archive_record r;
        char err[SCHEMA_ERRMSG] = "";
        bad.n = 0;
        put_bytes(&bad, 5, bytes, 31);
        assert_int_equal(codec_archive_record_decode(&r, bad.b, bad.n, err), SCHEMA_EDECODE);
        assert_string_equal(err, "ArchiveRecord.revealed_seed: expected 32 bytes, got 31");
    }
}

static void test_codec__refuses_unknown_field(void **state)
{
    codec_event ev = sample_event(ENGINE_ACTION_STORM_DIAL, 0);
    buf good, bad, action, variant;
    (void)state;

    event_bytes(&good, &ev);
    bad = good;
    put_uint(&bad, 9, 1);
    expect_event_error(&bad, "Event: unknown field 9");
    bad = good;
    put_bytes(&bad, 1000, "x", 1);
    expect_event_error(&bad, "Event: unknown field 1000");

    variant.n = 0;
    put_uint(&variant, 1, 5);
    put_uint(&variant, 2, 5);
    action.n = 0;
    put_msg(&action, ENGINE_ACTION_STORM_DIAL, &variant);
    event_with_action(&bad, &action);
    expect_event_error(&bad, "Event.action.storm_dial: unknown field 2");

    {
        codec_archive_record r;
        char err[SCHEMA_ERRMSG] = "";
        buf key;
        key.n = 0;
        put_fixed32(&key, 1, 1);
        put_bytes(&key, 2, good.b, 32);
        put_uint(&key, 3, 1);
        put_uint(&key, 6, 1);
        bad.n = 0;
        put_msg(&bad, 2, &key);
        assert_int_equal(codec_archive_record_decode(&r, bad.b, bad.n, err), SCHEMA_EDECODE);
        assert_string_equal(err, "ArchiveRecord.key: unknown field 6");
    }
}

static void test_codec__refuses_unknown_action_kind(void **state)
{
    buf bad, action, variant;
    engine_action a;
    char err[SCHEMA_ERRMSG] = "", msg[SCHEMA_ERRMSG];
    (void)state;

    variant.n = 0;
    put_uint(&variant, 1, 5);
    action.n = 0;
    put_msg(&action, ENGINE_ACTION_KIND_COUNT, &variant);
    event_with_action(&bad, &action);
    snprintf(msg, sizeof msg, "Event.action: unknown action kind %d", ENGINE_ACTION_KIND_COUNT);
    expect_event_error(&bad, msg);

    action.n = 0;                                  /* no kind at all */
    event_with_action(&bad, &action);
    expect_event_error(&bad, "Event.action: no action kind set");

    action.n = 0;                                  /* two kinds */
    put_msg(&action, ENGINE_ACTION_STORM_DIAL, &variant);
    put_msg(&action, ENGINE_ACTION_BG_PLACE, &variant);
    event_with_action(&bad, &action);
    expect_event_error(&bad, "Event.action.bg_place: storm_dial already set");

    assert_int_equal(codec_action_decode(&a, action.b, action.n, err), SCHEMA_EDECODE);
    assert_string_equal(err, "Action.bg_place: storm_dial already set");
}

static void test_codec__refuses_bad_room_code(void **state)
{
    static const struct {
        const char *room;
        size_t len;
        const char *msg;
    } cases[] = {
        {"K7Q2MZ9", 7, "Genesis.room: expected 8 characters, got 7"},
        {"K7Q2MZ9BB", 9, "Genesis.room: expected 8 characters, got 9"},
        {"", 0, "Genesis.room: expected 8 characters, got 0"},
        {"k7Q2MZ9B", 8, "Genesis.room: character 1 is not in the room alphabet"},
        {"K7Q2MZ9O", 8, "Genesis.room: character 8 is not in the room alphabet"},
        {"K7Q2MZ9I", 8, "Genesis.room: character 8 is not in the room alphabet"},
        {"K7Q0MZ9B", 8, "Genesis.room: character 4 is not in the room alphabet"},
        {"K7Q1MZ9B", 8, "Genesis.room: character 4 is not in the room alphabet"},
        {"K7Q2MZ9\0", 8, "Genesis.room: NUL byte in string"},
    };
    codec_genesis g = sample_genesis();
    buf good, bad;
    (void)state;

    genesis_bytes(&good, &g);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        without(&bad, good.b, good.n, 2);
        put_bytes(&bad, 2, cases[i].room, cases[i].len);
        expect_genesis_error(&bad, cases[i].msg);
    }
    {
        codec_receipt r;
        char err[SCHEMA_ERRMSG] = "";
        bad.n = 0;
        put_bytes(&bad, 1, "ABCDEFG!", 8);
        put_uint(&bad, 2, 1);
        put_bytes(&bad, 3, good.b, 32);
        put_fixed32(&bad, 4, 1);
        put_bytes(&bad, 5, good.b, 64);
        assert_int_equal(codec_receipt_decode(&r, bad.b, bad.n, err), SCHEMA_EDECODE);
        assert_string_equal(err, "Receipt.room: character 8 is not in the room alphabet");
    }
}

static void test_codec__refuses_truncated_bytes(void **state)
{
    codec_event ev = sample_event(ENGINE_ACTION_FREMEN_PLACE, 2), back;
    codec_genesis g = sample_genesis(), gback;
    buf good;
    (void)state;

    event_bytes(&good, &ev);
    /* Cut just before key_id and signature (the last two fields), the
     * bytes are an event of format 2, which the ledger then hashes as
     * another event; every other cut is refused. */
    const size_t format2_len = good.n - (5 + 2 + SCHEMA_SIG_BYTES);
    for (size_t n = 0; n < good.n; n++) {
        char err[SCHEMA_ERRMSG] = "";
        if (n == format2_len) {
            assert_int_equal(codec_event_decode(&back, good.b, n, err), SCHEMA_OK);
            assert_false(back.has_signature);
            continue;
        }
        assert_int_equal(codec_event_decode(&back, good.b, n, err), SCHEMA_EDECODE);
        assert_true(strncmp(err, "Event", 5) == 0);
    }
    /* cut inside the signature's payload: the signature is the last field */
    {
        buf bad = good;
        char msg[SCHEMA_ERRMSG];
        bad.n -= 1;
        snprintf(msg, sizeof msg, "Event.signature: truncated or malformed at byte %zu",
                 good.n - 2 - SCHEMA_SIG_BYTES);
        expect_event_error(&bad, msg);
    }
    genesis_bytes(&good, &g);
    for (size_t n = 0; n < good.n; n++)
        assert_int_equal(codec_genesis_decode(&gback, good.b, n, NULL), SCHEMA_EDECODE);
}

static void test_codec__refuses_trailing_garbage(void **state)
{
    codec_event ev = sample_event(ENGINE_ACTION_STORM_DIAL, 0);
    buf good, bad;
    uint8_t garbage;
    char at_end[SCHEMA_ERRMSG], version_at_end[SCHEMA_ERRMSG];
    (void)state;

    event_bytes(&good, &ev);
    snprintf(at_end, sizeof at_end, "Event: truncated or malformed at byte %zu", good.n);
    snprintf(version_at_end, sizeof version_at_end,
             "Event.version: truncated or malformed at byte %zu", good.n);
    bad = good;
    garbage = 0x00;                                /* field number 0 */
    put_raw(&bad, &garbage, 1);
    expect_event_error(&bad, at_end);
    bad = good;
    garbage = 0xFF;                                /* a varint that never ends */
    put_raw(&bad, &garbage, 1);
    expect_event_error(&bad, at_end);
    bad = good;
    put_uint(&bad, 3, 1);                          /* a field set again */
    expect_event_error(&bad, "Event.seat: field occurs twice");
    bad = good;
    garbage = 0x0B;                                /* field 1, wire type 3 (group) */
    put_raw(&bad, &garbage, 1);
    expect_event_error(&bad, version_at_end);
}

static void test_codec__refuses_wrong_wire_type(void **state)
{
    codec_event ev = sample_event(ENGINE_ACTION_STORM_DIAL, 0);
    buf good, bad;
    (void)state;
    event_bytes(&good, &ev);
    without(&bad, good.b, good.n, 1);
    put_bytes(&bad, 1, "\x01", 1);
    expect_event_error(&bad, "Event.version: wire type 2, expected 0");
    without(&bad, good.b, good.n, 7);
    put_uint(&bad, 7, 1);
    expect_event_error(&bad, "Event.key_id: wire type 0, expected 5");
}

static void test_codec__refuses_out_of_range_values(void **state)
{
    codec_event ev = sample_event(ENGINE_ACTION_STORM_DIAL, 0);
    codec_genesis g = sample_genesis();
    buf good, bad, action, variant;
    (void)state;

    event_bytes(&good, &ev);
    without(&bad, good.b, good.n, 3);
    put_uint(&bad, 3, ENGINE_MAX_SEATS + 1);
    expect_event_error(&bad, "Event.seat: value 7 out of range 0..6");
    without(&bad, good.b, good.n, 1);
    put_uint(&bad, 1, 0);
    expect_event_error(&bad, "Event.version: 0, versions start at 1");
    without(&bad, good.b, good.n, 1);
    put_uint(&bad, 1, UINT64_C(1) << 32);
    expect_event_error(&bad, "Event.version: value out of range");

    variant.n = 0;
    put_uint(&variant, 1, 32768);
    action.n = 0;
    put_msg(&action, ENGINE_ACTION_STORM_DIAL, &variant);
    event_with_action(&bad, &action);
    expect_event_error(&bad, "Event.action.storm_dial.value: value 32768 out of range 0..32767");

    variant.n = 0;
    put_uint(&variant, 1, ENGINE_LEADER_COUNT);
    action.n = 0;
    put_msg(&action, ENGINE_ACTION_TRAITOR_PICK, &variant);
    event_with_action(&bad, &action);
    expect_event_error(&bad, "Event.action.traitor_pick.leader: value 62 out of range 0..61");

    variant.n = 0;
    put_uint(&variant, 1, ENGINE_LOCATION_COUNT);
    action.n = 0;
    put_msg(&action, ENGINE_ACTION_BG_PLACE, &variant);
    event_with_action(&bad, &action);
    expect_event_error(&bad, "Event.action.bg_place.location: value 87 out of range 0..86");

    genesis_bytes(&good, &g);
    without(&bad, good.b, good.n, 7);
    put_uint(&bad, 7, 0);
    expect_genesis_error(&bad, "Genesis.turn_limit: value 0 out of range 1..20");
    without(&bad, good.b, good.n, 7);
    put_uint(&bad, 7, ENGINE_MAX_TURN_LIMIT + 1);
    expect_genesis_error(&bad, "Genesis.turn_limit: value 21 out of range 1..20");
    without(&bad, good.b, good.n, 15);
    put_uint(&bad, 15, 2);
    expect_genesis_error(&bad, "Genesis.constructed: boolean value 2");
}

static void test_codec__refuses_bad_seats_and_modules(void **state)
{
    codec_genesis g = sample_genesis();
    buf good, bad, tmp;
    (void)state;

    genesis_bytes(&good, &g);
    without(&bad, good.b, good.n, 5);
    put_uint(&bad, 5, 1);
    expect_genesis_error(&bad, "Genesis.seats: 1 seats, expected 2..6");
    without(&bad, good.b, good.n, 5);
    for (unsigned f = 1; f <= 7; f++)
        put_uint(&bad, 5, f);
    expect_genesis_error(&bad, "Genesis.seats: 7 seats, expected 2..6");
    without(&bad, good.b, good.n, 5);
    put_uint(&bad, 5, 2);
    put_uint(&bad, 5, 4);
    put_uint(&bad, 5, 2);
    expect_genesis_error(&bad, "Genesis.seats[2]: faction bene_gesserit plays two seats");
    /* packed seats are proto2-legal and accepted */
    without(&bad, good.b, good.n, 5);
    put_bytes(&bad, 5, "\x01\x02\x04\x05", 4);
    {
        codec_genesis back;
        char err[SCHEMA_ERRMSG] = "";
        if (codec_genesis_decode(&back, bad.b, bad.n, err) != SCHEMA_OK)
            fail_msg("%s", err);
        assert_genesis_eq(&g, &back);
    }
    without(&bad, good.b, good.n, 6);
    put_uint(&bad, 6, 3);
    put_uint(&bad, 6, 3);
    expect_genesis_error(&bad, "Genesis.modules[1]: module 3 listed twice");

    /* a position only in a constructed room */
    without(&tmp, good.b, good.n, 15);
    without(&bad, tmp.b, tmp.n, 16);
    put_bytes(&bad, 16, "pos", 3);
    expect_genesis_error(&bad, "Genesis.position: present in a genuine room");
}

static void test_codec__refuses_bad_rejection_and_archive(void **state)
{
    codec_rejection r;
    codec_archive_record ar;
    char err[SCHEMA_ERRMSG] = "", msg[SCHEMA_ERRMSG];
    buf bad, action, variant;
    (void)state;

    variant.n = 0;
    put_uint(&variant, 1, 4);
    action.n = 0;
    put_msg(&action, ENGINE_ACTION_STORM_DIAL, &variant);
    bad.n = 0;
    put_bytes(&bad, 1, ROOM, 8);
    put_uint(&bad, 2, 1);
    put_uint(&bad, 3, 0);
    put_msg(&bad, 4, &action);
    put_uint(&bad, 5, 0);
    put_uint(&bad, 8, 1);
    assert_int_equal(codec_rejection_decode(&r, bad.b, bad.n, err), SCHEMA_EDECODE);
    snprintf(msg, sizeof msg, "Rejection.reason: value 0 out of range 1..%d",
             ENGINE_VERDICT_COUNT - 1);
    assert_string_equal(err, msg);

    bad.n = 0;
    assert_int_equal(codec_archive_record_decode(&ar, bad.b, bad.n, err), SCHEMA_EDECODE);
    assert_string_equal(err, "ArchiveRecord: no record set");
    put_bytes(&bad, 3, "g", 1);
    put_bytes(&bad, 4, "e", 1);
    assert_int_equal(codec_archive_record_decode(&ar, bad.b, bad.n, err), SCHEMA_EDECODE);
    assert_string_equal(err, "ArchiveRecord.event: genesis already set");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_codec__action_round_trip_every_kind),
        cmocka_unit_test(test_codec__action_none_values),
        cmocka_unit_test(test_codec__optional_argument_absent_or_given),
        cmocka_unit_test(test_codec__event_round_trip_every_kind_and_seat),
        cmocka_unit_test(test_codec__event_stored_without_prev_hash),
        cmocka_unit_test(test_codec__event_of_format_2),
        cmocka_unit_test(test_codec__event_of_format_3),
        cmocka_unit_test(test_codec__genesis_round_trip),
        cmocka_unit_test(test_codec__genesis_round_trip_advanced_constructed),
        cmocka_unit_test(test_codec__genesis_of_a_fork),
        cmocka_unit_test(test_codec__rejection_round_trip),
        cmocka_unit_test(test_codec__receipt_round_trip),
        cmocka_unit_test(test_codec__checkpoint_round_trip),
        cmocka_unit_test(test_codec__key_round_trip),
        cmocka_unit_test(test_codec__archive_record_round_trip_every_kind),
        cmocka_unit_test(test_codec__encode_reports_space_needed),
        cmocka_unit_test(test_codec__encode_refuses_what_decode_would),
        cmocka_unit_test(test_codec__refuses_missing_field),
        cmocka_unit_test(test_codec__refuses_unspecified_enum),
        cmocka_unit_test(test_codec__refuses_out_of_range_enum),
        cmocka_unit_test(test_codec__refuses_wrong_byte_length),
        cmocka_unit_test(test_codec__refuses_unknown_field),
        cmocka_unit_test(test_codec__refuses_unknown_action_kind),
        cmocka_unit_test(test_codec__refuses_bad_room_code),
        cmocka_unit_test(test_codec__refuses_truncated_bytes),
        cmocka_unit_test(test_codec__refuses_trailing_garbage),
        cmocka_unit_test(test_codec__refuses_wrong_wire_type),
        cmocka_unit_test(test_codec__refuses_out_of_range_values),
        cmocka_unit_test(test_codec__refuses_bad_seats_and_modules),
        cmocka_unit_test(test_codec__refuses_bad_rejection_and_archive),
    };
    return cmocka_run_group_tests_name("codec", tests, NULL, NULL);
}
