/*
 * fuzz_ledger_record.c - libFuzzer target for the ledger's readers of
 * stored bytes (ledger/event.c, ledger/checkpoint.c, ledger/read.c): a
 * tagged event record, a tagged genesis record, a compressed checkpoint
 * value (plain, or sealed and opened with a fixed room key), a tagged
 * rejection record. The first input byte chooses which. Never crash; a refusal is
 * LEDGER_ECORRUPT with a one-line message; whatever is accepted has a
 * canonical form of the documented size, encodes again to bytes that
 * decode to the same record (events, genesis), and a checkpoint's state
 * passes the engine's check.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ledger/internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static ledger *handle(void)
{
    static ledger *db;
    if (db == NULL) {
        db = calloc(1, sizeof *db);
        db->scratch = malloc(LEDGER_SCRATCH_BYTES);
        db->dctx = ZSTD_createDCtx();
        db->max_dup_bytes = 511;
        if (db->scratch == NULL || db->dctx == NULL)
            abort();
    }
    db->errmsg[0] = '\0';
    return db;
}

static void check_refusal(ledger *db, int rc)
{
    if (rc != LEDGER_ECORRUPT)
        abort();
    size_t n = strnlen(db->errmsg, sizeof db->errmsg);
    if (n == 0 || n == sizeof db->errmsg || memchr(db->errmsg, '\n', n) != NULL)
        abort();
}

static int event_eq(const codec_event *a, const codec_event *b)
{
    return a->version == b->version && a->has_prev_hash == b->has_prev_hash &&
           a->seat == b->seat && a->action.kind == b->action.kind &&
           a->action.seat == b->action.seat &&
           memcmp(a->action.arg, b->action.arg, sizeof a->action.arg) == 0 &&
           a->committed_at == b->committed_at &&
           memcmp(a->state_digest, b->state_digest, SCHEMA_HASH_BYTES) == 0 &&
           a->has_signature == b->has_signature && a->key_id == b->key_id &&
           (!a->has_signature || memcmp(a->signature, b->signature, SCHEMA_SIG_BYTES) == 0) &&
           a->has_seat_signature == b->has_seat_signature &&
           (!a->has_seat_signature ||
            memcmp(a->seat_signature, b->seat_signature, SCHEMA_SIG_BYTES) == 0) &&
           a->has_bind_key == b->has_bind_key &&
           (!a->has_bind_key || memcmp(a->bind_key, b->bind_key, SCHEMA_KEY_BYTES) == 0) &&
           a->sealed_len == b->sealed_len &&
           memcmp(a->sealed_action, b->sealed_action, a->sealed_len) == 0;
}

static void event_record(ledger *db, const uint8_t *in, size_t len)
{
    static uint8_t again[LEDGER_EVENT_RECORD_MAX];
    uint8_t canon[LEDGER_EVENT_CANONICAL_MAX];
    codec_event ev, back;
    size_t n;
    int rc = ledger__event_record_decode(db, &ev, in, len);
    if (rc != 0) {
        check_refusal(db, rc);
        return;
    }
    if (ledger__event_record_encode(db, again, sizeof again, &n, &ev) != 0 ||
        ledger__event_record_decode(db, &back, again, n) != 0 || !event_eq(&ev, &back))
        abort();
    ev.has_prev_hash = 1;
    memset(ev.prev_hash, 0x5A, sizeof ev.prev_hash);
    size_t clen = ledger__event_canonical(canon, "23456789", &ev);
    /* format 1: 96 + 2n bytes, format 2: 92 + 2n (no key id), format 3:
     * 124 + 2n (the sealed action's hash); 64 more with a seat signature */
    const engine_action_spec *spec = engine_action_spec_of(ev.action.kind);
    size_t want = (ev.has_signature ? 96u : ev.sealed_len != 0 ? 124u : 92u) +
                  2u * engine_action_n_given(&ev.action) +
                  (ev.has_seat_signature ? SCHEMA_SIG_BYTES : 0u);
    if (clen != 0 && (spec == NULL || clen != want))
        abort();
}

static void genesis_record(ledger *db, const uint8_t *in, size_t len)
{
    static uint8_t again[LEDGER_GENESIS_CANONICAL_MAX];
    codec_genesis g, back;
    size_t n;
    int rc = ledger__genesis_record_decode(db, &g, in, len);
    if (rc != 0) {
        check_refusal(db, rc);
        return;
    }
    if (ledger__genesis_record_encode(db, again, sizeof again, &n, &g) != 0 ||
        ledger__genesis_record_decode(db, &back, again, n) != 0 ||
        back.position_len != g.position_len ||
        (g.position_len > 0 && memcmp(back.position, g.position, g.position_len) != 0))
        abort();
    static uint8_t canon2[LEDGER_GENESIS_CANONICAL_MAX];
    uint8_t hash[SCHEMA_HASH_BYTES];
    size_t clen = ledger__genesis_canonical(again, sizeof again, &g);
    size_t clen2 = ledger__genesis_canonical(canon2, sizeof canon2, &back);
    if (clen != clen2 || memcmp(again, canon2, clen) != 0 ||
        memcmp(g.signature, back.signature, SCHEMA_SIG_BYTES) != 0)
        abort();
    if (clen != 0 && clen != 165 + g.position_len)
        abort();
    if ((ledger__genesis_hash(hash, &g) == 0) != (clen != 0))
        abort();
}

static void checkpoint_value(ledger *db, const uint8_t *in, size_t len)
{
    static engine_state st;
    uint32_t version = 0;
    if (len >= 4) {
        version = ledger__be32_get(in);
        in += 4;
        len -= 4;
    }
    /* A sealed checkpoint (tag 0x03) is opened with a fixed room key. */
    static const uint8_t key[LEDGER_ROOM_KEY_BYTES] = {0x4d, 0x4e, 0x43, 0x4b};
    int rc = ledger__checkpoint_decode(db, &st, "23456789", version, in, len, key);
    if (rc != 0) {
        check_refusal(db, rc);
        return;
    }
    if (engine_state_check(&st) != 0)
        abort();
}

static void rejection_record(ledger *db, const uint8_t *in, size_t len)
{
    codec_rejection r, back;
    uint8_t again[1 + 512];
    size_t n;
    int rc = ledger__rejection_record_decode(db, &r, in, len);
    if (rc != 0) {
        check_refusal(db, rc);
        return;
    }
    /* What is accepted encodes again and decodes to the same record. */
    again[0] = LEDGER_TAG_PROTOBUF;
    if (codec_rejection_encode(again + 1, sizeof again - 1, &n, &r) != 0 ||
        ledger__rejection_record_decode(db, &back, again, n + 1) != 0)
        abort();
    if (strcmp(r.room, back.room) != 0 || r.seat != back.seat ||
        r.expected_version != back.expected_version || r.action.kind != back.action.kind ||
        memcmp(r.action.arg, back.action.arg, sizeof r.action.arg) != 0 ||
        r.reason != back.reason || r.detail_arg != back.detail_arg ||
        r.detail_value != back.detail_value || r.at != back.at ||
        r.sealed_len != back.sealed_len ||
        memcmp(r.sealed_action, back.sealed_action, r.sealed_len) != 0)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    ledger *db = handle();
    switch (data[0] % 4) {
    case 0:
        event_record(db, data + 1, size - 1);
        break;
    case 1:
        genesis_record(db, data + 1, size - 1);
        break;
    case 2:
        checkpoint_value(db, data + 1, size - 1);
        break;
    default:
        rejection_record(db, data + 1, size - 1);
        break;
    }
    return 0;
}
