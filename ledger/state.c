/*
 * state.c - room states as the ledger needs them: a small LRU cache of
 * recent head states and unsealed seeds on the handle, and the fold that
 * rebuilds a state from the nearest checkpoint and the events after it.
 *
 * Part of ledger/. The fold draws randomness only from (seed, version) of
 * the event being folded, and a cached state is used only when it matches
 * the head record's version and hash; a cache entry written by a
 * transaction that aborts is dropped (internal.h (3)).
 */
#include <string.h>

#include "ledger/internal.h"

ledger_cache_entry *ledger__cache_find(ledger *db, const char *room)
{
    for (int i = 0; i < LEDGER_CACHE_ROOMS; i++) {
        ledger_cache_entry *e = &db->cache[i];
        if (memcmp(e->room, room, SCHEMA_ROOM_CHARS) == 0) {
            e->used = ++db->cache_tick;
            return e;
        }
    }
    return NULL;
}

ledger_cache_entry *ledger__cache_take(ledger *db, const char *room)
{
    ledger_cache_entry *e = ledger__cache_find(db, room);
    if (e != NULL)
        return e;
    ledger_cache_entry *victim = &db->cache[0];
    for (int i = 0; i < LEDGER_CACHE_ROOMS; i++) {
        ledger_cache_entry *c = &db->cache[i];
        if (c->room[0] == '\0') {
            victim = c;
            break;
        }
        if (c->used < victim->used)
            victim = c;
    }
    memset(victim, 0, sizeof *victim);
    memcpy(victim->room, room, SCHEMA_ROOM_CHARS);
    victim->used = ++db->cache_tick;
    return victim;
}

void ledger__cache_forget(ledger *db, const char *room)
{
    for (int i = 0; i < LEDGER_CACHE_ROOMS; i++)
        if (memcmp(db->cache[i].room, room, SCHEMA_ROOM_CHARS) == 0)
            memset(&db->cache[i], 0, sizeof db->cache[i]);
}

/* Folds events from+1..to onto st (the state after `from`). Each must be
 * accepted and reproduce its stored digest. */
static int fold(ledger *db, ledger_txn *txn, engine_state *st, const char *room, uint32_t from,
                uint32_t to, const uint8_t seed[ENGINE_SEED_BYTES])
{
    for (uint32_t v = from + 1; v <= to; v++) {
        const uint8_t *rec;
        size_t len;
        codec_event ev;
        int rc = ledger__event_read(db, txn, room, v, &rec, &len);
        if (rc == LEDGER_ENOTFOUND)
            return LEDGER_CORRUPT_MSG(db, "room %s: event %u is missing", room, v);
        if (rc != 0)
            return rc;
        rc = ledger__event_record_decode(db, &ev, rec, len);
        if (rc != 0)
            return rc;
        if (ev.version != v)
            return LEDGER_CORRUPT_MSG(db, "room %s: event %u says it is %u", room, v, ev.version);
        engine_action act;
        rc = ledger__event_open(db, txn, &act, room, &ev); /* its secrets, if sealed */
        if (rc != 0)
            return rc;
        engine_rng rng;
        engine_verdict_detail why = {-1, 0};
        engine_rng_init(&rng, seed, v);
        engine_verdict verdict = engine_apply(&why, st, &act, &rng);
        sodium_memzero(&act, sizeof act);
        if (verdict != ENGINE_ACCEPTED)
            return LEDGER_CORRUPT_MSG(db, "room %s: event %u is refused on replay: %s", room, v,
                                      engine_verdict_name(verdict));
        uint8_t digest[ENGINE_DIGEST_BYTES];
        engine_state_digest(digest, st);
        if (memcmp(digest, ev.state_digest, sizeof digest) != 0)
            return ledger__fail(db, LEDGER_EBADSIG, "room %s: event %u: the replayed state "
                                "differs from its digest", room, v);
    }
    return 0;
}

int ledger__state_load(ledger *db, ledger_txn *txn, engine_state *out, const char *room,
                       uint32_t version)
{
    ledger_head_rec head;
    int rc = ledger__head_read(db, txn, &head, room);
    if (rc != 0)
        return rc;
    if (version > head.version)
        return ledger__fail(db, LEDGER_ENOTFOUND, "room %s has no version %u (head %u)", room,
                            version, head.version);
    ledger_cache_entry *e = ledger__cache_find(db, room);
    if (e != NULL && e->has_state && e->version == version && version == head.version &&
        memcmp(e->hash, head.hash, SCHEMA_HASH_BYTES) == 0) {
        *out = e->state;
        return 0;
    }
    uint32_t from = 0;
    uint8_t seed[ENGINE_SEED_BYTES];
    int has_seed = 0;
    rc = ledger__checkpoint_find(db, txn, out, &from, NULL, room, version);
    if (rc == LEDGER_ENOTFOUND) {
        /* No checkpoint (a restored room): the opening position. */
        codec_genesis g;
        rc = ledger__room_seed(db, txn, room, seed);
        if (rc == 0)
            rc = ledger__genesis_read(db, txn, &g, room);
        if (rc == 0)
            rc = ledger__opening_state_in(db, txn, out, &g, seed);
        if (rc != 0)
            goto out;
        has_seed = 1;
        from = 0;
    } else if (rc != 0) {
        goto out;
    }
    if (from < version) {
        if (!has_seed)
            rc = ledger__room_seed(db, txn, room, seed);
        if (rc == 0)
            rc = fold(db, txn, out, room, from, version, seed);
        if (rc != 0)
            goto out;
    }
    if (version == head.version) {
        e = ledger__cache_take(db, room);
        e->has_state = 1;
        e->version = version;
        memcpy(e->hash, head.hash, SCHEMA_HASH_BYTES);
        e->state = *out;
        if (txn->is_write)
            e->is_dirty = 1; /* (3) */
    }
out:
    sodium_memzero(seed, sizeof seed);
    return rc;
}
