/*
 * verify.c - checking a room end to end (genesis signature, dense versions,
 * the hash chain, every signature against the key that made it, the head,
 * the checkpoints, and, when the seed can be had, a re-fold comparing
 * every state digest and the engine's invariants), and checking a receipt.
 *
 * Part of ledger/. It never writes, never trusts a checkpoint or a cache
 * (the fold starts from the opening position), and never crashes on
 * damaged bytes: each problem is reported as the first bad version with a
 * one-line reason.
 *
 * Digests are compared at every version; the engine's invariants
 * (engine_state_check) at every K-th version (K, the handle's checkpoint
 * interval) and at the last one folded. A digest that matches proves the
 * fold reproduced the writer's state byte for byte; the invariants are the
 * engine checking itself, and a full check costs as much as the rest of
 * the fold (see "Verifying" in docs/ARCHITECTURE.md).
 *
 * With threads = 2 a second thread checks signatures from the start,
 * taking each event as soon as this one has read and linked it (it sleeps
 * on a condition variable while it is ahead of the reader, never spins);
 * this one then folds and joins it on whatever signatures are left. The
 * events are copied out of LMDB first, so the second thread never touches
 * the handle or a transaction.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ledger/internal.h"

/* A problem found: the earliest version wins. */
typedef struct finding {
    int rc;                        /* 0 = none */
    uint32_t version;
    char reason[200];
} finding;

static void find(finding *f, int rc, uint32_t version, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static void find(finding *f, int rc, uint32_t version, const char *fmt, ...)
{
    if (f->rc != 0 && f->version <= version)
        return;
    va_list ap;
    va_start(ap, fmt);
    f->rc = rc;
    f->version = version;
    vsnprintf(f->reason, sizeof f->reason, fmt, ap);
    va_end(ap);
}

typedef struct ckpt_seen {
    uint32_t version;
    uint8_t digest[ENGINE_DIGEST_BYTES]; /* of the checkpoint's state */
} ckpt_seen;

typedef struct verify_job {
    const char *room;
    codec_event *ev;               /* events 1..n_ok, linked, owned: as stored */
    engine_action *act;            /* the action of each, a sealed one opened; owned */
    uint8_t *is_unopened;          /* 1 = its sealed action not opened (no room key); owned */
    uint32_t n_unopened;           /* events with is_unopened */
    uint8_t (*pk)[SCHEMA_KEY_BYTES]; /* signer of each event */
    uint32_t n_ok;                 /* events that decoded and linked */
    atomic_uint n_ready;           /* events 1..n_ready linked: their signatures may be checked; written under lock */
    int is_gathered;               /* 1 = n_ready is final; under lock */
    pthread_mutex_t lock;          /* guards the writes of n_ready and is_gathered */
    pthread_cond_t more;           /* signalled when either changes */
    atomic_uint next_sig;          /* next event whose signature nobody took yet */
    finding sig[2];                /* first bad signature seen by each worker */
    ledger_seat_keys seats;        /* every seat's key, bound at creation or as it joined */
    unsigned n_seats;              /* the room's seats */
    uint16_t *bound_before;        /* bound_before[i]: the seats bound before event i; owned */
    /* fold */
    int has_seed;
    uint8_t seed[ENGINE_SEED_BYTES];
    engine_state *state;           /* the opening position, then folded */
    uint32_t check_every;          /* invariants at every such version (and the last) */
    ckpt_seen *ckpt;               /* checkpoints with a decoded state */
    size_t n_ckpt;
    finding fold;                  /* first bad fold */
    uint8_t (*view)[ENGINE_DIGEST_BYTES]; /* view[v]: digest of the public view the fold
                                      gives after v, 0..n_ok; owned (NULL: not folded) */
    int is_head_signed;            /* the head's signed tree head held */
} verify_job;

/* The reader has linked events 1..n_ready (is_final: and no more will
 * come): wakes a worker waiting for them. */
static void sig_publish(verify_job *job, uint32_t n_ready, int is_final)
{
    pthread_mutex_lock(&job->lock);
    atomic_store_explicit(&job->n_ready, n_ready, memory_order_release);
    job->is_gathered = is_final;
    pthread_cond_signal(&job->more);
    pthread_mutex_unlock(&job->lock);
}

/* 1 once event index i is linked, 0 if it never will be: sleeps while the
 * events are still being read. The unlocked look is the common case (the
 * reader is far ahead of the signatures); the wait re-checks under the
 * lock the reader publishes under, so no wake-up is lost. */
static int sig_ready(verify_job *job, uint32_t i)
{
    if (i < atomic_load_explicit(&job->n_ready, memory_order_acquire))
        return 1;
    pthread_mutex_lock(&job->lock);
    while (i >= atomic_load_explicit(&job->n_ready, memory_order_relaxed) && !job->is_gathered)
        pthread_cond_wait(&job->more, &job->lock);
    int is_ready = i < atomic_load_explicit(&job->n_ready, memory_order_relaxed);
    pthread_mutex_unlock(&job->lock);
    return is_ready;
}

/* Checks signatures, taking events one at a time from the shared counter
 * so two workers split them evenly; `worker` says whose finding to fill. */
static void check_signatures_as(verify_job *job, unsigned worker)
{
    uint8_t canon[LEDGER_EVENT_CANONICAL_MAX];
    for (;;) {
        uint32_t i = atomic_fetch_add(&job->next_sig, 1u);
        if (!sig_ready(job, i))
            break;
        const codec_event *ev = &job->ev[i];
        size_t len = ledger__event_canonical(canon, job->room, ev);
        if (len == 0 || (ev->has_signature &&
                         ledger__verify_sig(ev->signature, canon, len, job->pk[i]) != 0))
            find(&job->sig[worker], LEDGER_EBADSIG, ev->version, "bad signature (key %08x)",
                 ev->key_id);
        char why[240];
        if (job->is_unopened[i])
            continue; /* the seat signed its real action, sealed from this reader */
        const ledger_seat_keys *k = &job->seats; /* the keys bound before this event */
        ledger_seat_keys before;
        if (job->bound_before[i] != job->seats.bound) { /* a seat bound later: not yet */
            before = job->seats;
            before.bound = job->bound_before[i];
            k = &before;
        }
        if (ledger__seat_sig_verify(why, sizeof why, k, job->n_seats, job->room,
                                    ev->version - 1, ev->prev_hash, &job->act[i],
                                    ev->has_seat_signature ? ev->seat_signature : NULL,
                                    ev->has_bind_key ? ev->bind_key : NULL) != 0)
            find(&job->sig[worker], LEDGER_EBADSIG, ev->version, "%s", why);
    }
}

static void *check_signatures(void *vjob)
{
    check_signatures_as(vjob, 1);
    return NULL;
}

static void refold(verify_job *job)
{
    engine_state *st = job->state;
    size_t c = 0;
    if (job->view != NULL)
        ledger__view_digest(job->view[0], st);
    for (uint32_t i = 0; i < job->n_ok; i++) {
        const codec_event *ev = &job->ev[i];
        engine_rng rng;
        engine_verdict_detail why = {-1, 0};
        engine_rng_init(&rng, job->seed, ev->version);
        engine_verdict v = engine_apply(&why, st, &job->act[i], &rng);
        if (v != ENGINE_ACCEPTED) {
            find(&job->fold, LEDGER_EBADSIG, ev->version, "the engine refuses it on replay: %s",
                 engine_verdict_name(v));
            return;
        }
        int broken = ev->version % job->check_every == 0 || i + 1 == job->n_ok
                         ? engine_state_check(st)
                         : 0;
        if (broken != 0) {
            find(&job->fold, LEDGER_ECORRUPT, ev->version, "%d engine invariants broken", broken);
            return;
        }
        uint8_t digest[ENGINE_DIGEST_BYTES];
        engine_state_digest(digest, st);
        if (memcmp(digest, ev->state_digest, sizeof digest) != 0) {
            find(&job->fold, LEDGER_EBADSIG, ev->version, "state digest differs from the fold");
            return;
        }
        if (job->view != NULL)
            ledger__view_digest(job->view[i + 1], st);
        while (c < job->n_ckpt && job->ckpt[c].version < ev->version)
            c++;
        if (c < job->n_ckpt && job->ckpt[c].version == ev->version &&
            memcmp(job->ckpt[c].digest, digest, sizeof digest) != 0) {
            find(&job->fold, LEDGER_ECORRUPT, ev->version, "checkpoint differs from the fold");
            return;
        }
    }
}

/* The head's signed tree head: its root is the tree of the stored events,
 * its time its event's, and a key the ledger knows signed it. */
static int head_check(ledger *db, ledger_txn *txn, finding *f, const char *room,
                      const ledger_head_rec *head, const uint8_t root[LEDGER_TREE_HASH_BYTES],
                      uint64_t time)
{
    if (memcmp(root, head->tree_root, LEDGER_TREE_HASH_BYTES) != 0) {
        find(f, LEDGER_EBADSIG, head->version, "the head's signed tree root is not the root "
             "of the stored events (truncated or rewritten)");
        return 0;
    }
    if (head->tree_time != time) {
        find(f, LEDGER_EBADSIG, head->version, "the head's tree time is not its event's");
        return 0;
    }
    int rc = ledger__head_sig_check(db, txn, room, head);
    if (rc == LEDGER_EBADSIG) {
        find(f, LEDGER_EBADSIG, head->version, "the head: %s", ledger_errmsg(db));
        return 0;
    }
    return rc;
}

/* A fork whose origin is in this ledger must be what its genesis says:
 * the origin's chain hash at the version named, and (when both seeds can
 * be had) the origin's state there, constructed, as its opening. The
 * origin's state is read as ledger_state_at reads it; verifying the origin
 * checks that. A fork restored into a ledger without its origin is
 * checked as any constructed room. */
static int fork_check(ledger *db, ledger_txn *txn, verify_job *job, finding *f,
                      const codec_genesis *g)
{
    if (!g->is_fork)
        return 0;
    ledger_head_rec head;
    int rc = ledger__head_read(db, txn, &head, g->fork_room);
    if (rc == LEDGER_ENOTFOUND)
        return 0;
    if (rc != 0)
        return rc;
    uint8_t hash[SCHEMA_HASH_BYTES];
    if (g->fork_version > head.version ||
        ledger__event_hash_at(db, txn, hash, g->fork_room, g->fork_version) != 0 ||
        sodium_memcmp(hash, g->fork_hash, sizeof hash) != 0) {
        find(f, LEDGER_EBADSIG, 0, "not a fork of %s at %u: that version has another hash",
             g->fork_room, g->fork_version);
        return 0;
    }
    if (!job->has_seed)
        return 0;
    engine_state *origin = malloc(sizeof *origin);
    uint8_t *a = malloc(ENGINE_STATE_ENCODED_MAX), *b = malloc(ENGINE_STATE_ENCODED_MAX);
    if (origin == NULL || a == NULL || b == NULL) {
        rc = ledger__fail(db, LEDGER_ERROR, "out of memory");
        goto out;
    }
    rc = ledger__state_load(db, txn, origin, g->fork_room, g->fork_version);
    if (rc == LEDGER_EKEY) {
        rc = 0; /* the origin's seed is not ours to unseal */
        goto out;
    }
    if (rc != 0)
        goto out;
    origin->config.is_constructed = 1;
    size_t na = engine_state_encode(a, ENGINE_STATE_ENCODED_MAX, origin);
    size_t nb = engine_state_encode(b, ENGINE_STATE_ENCODED_MAX, job->state);
    if (na == 0 || na != nb || memcmp(a, b, na) != 0)
        find(f, LEDGER_EBADSIG, 0, "not a fork of %s at %u: its opening is not that state",
             g->fork_room, g->fork_version);
out:
    free(origin);
    free(a);
    free(b);
    return rc;
}

/* Reads and checks what needs the txn: the genesis, the chain, the head,
 * the keys and checkpoint hashes; copies the events out for the rest. */
static int gather(ledger *db, ledger_txn *txn, verify_job *job, finding *f, const char *room,
                  uint32_t *n_events_out)
{
    codec_genesis g;
    codec_key gkey;
    uint8_t canon[512], hash[SCHEMA_HASH_BYTES];
    ledger_head_rec head;
    int rc = ledger__genesis_read(db, txn, &g, room);
    if (rc == LEDGER_ENOTFOUND || rc == LEDGER_EINPUT)
        return rc;
    if (rc == LEDGER_ECORRUPT) {
        find(f, rc, 0, "genesis: %s", ledger_errmsg(db));
        return 0;
    }
    if (rc != 0)
        return rc;
    uint8_t *gcanon = g.position_len > 0 ? malloc(LEDGER_GENESIS_CANONICAL_MAX) : canon;
    size_t gcap = g.position_len > 0 ? LEDGER_GENESIS_CANONICAL_MAX : sizeof canon;
    if (gcanon == NULL)
        return ledger__fail(db, LEDGER_ERROR, "out of memory");
    size_t glen = ledger__genesis_canonical(gcanon, gcap, &g);
    rc = 0;
    if (glen == 0) {
        find(f, LEDGER_ECORRUPT, 0, "the genesis has no canonical form");
    } else if ((rc = ledger__key_chain_check(db, txn, &gkey, g.key_id)) != 0) {
        if (rc == LEDGER_EBADSIG || rc == LEDGER_ECORRUPT) {
            find(f, LEDGER_EBADSIG, 0, "the genesis: %s", ledger_errmsg(db));
            rc = 0;
        }
    } else if (gkey.retired_at != 0 && g.created_at > gkey.retired_at) {
        find(f, LEDGER_EBADSIG, 0, "the genesis is signed by key %08x after it was retired",
             g.key_id);
    } else if (ledger__verify_sig(g.signature, gcanon, glen, gkey.public_key) != 0) {
        find(f, LEDGER_EBADSIG, 0, "bad genesis signature");
    } else {
        ledger__event_hash(hash, gcanon, glen, g.signature);
    }
    if (gcanon != canon)
        free(gcanon);
    if (rc != 0 || f->rc != 0)
        return rc;
    ledger__seat_keys_of_genesis(&job->seats, &g);
    job->n_seats = g.config.n_seats;

    /* A seed revealed after the game must match the genesis commitment,
     * whichever seed the fold then uses. */
    {
        uint8_t kbuf[sizeof LEDGER_META_REVEAL_PREFIX - 1 + SCHEMA_ROOM_CHARS];
        memcpy(kbuf, LEDGER_META_REVEAL_PREFIX, sizeof LEDGER_META_REVEAL_PREFIX - 1);
        memcpy(kbuf + sizeof LEDGER_META_REVEAL_PREFIX - 1, room, SCHEMA_ROOM_CHARS);
        MDB_val k = {sizeof kbuf, kbuf}, v;
        int rrc = ledger__get(txn, db->dbi_meta, &k, &v);
        if (rrc == 0) {
            uint8_t h[SCHEMA_HASH_BYTES];
            if (v.mv_size != ENGINE_SEED_BYTES) {
                find(f, LEDGER_ECORRUPT, 0, "the revealed seed has %zu bytes", v.mv_size);
                return 0;
            }
            crypto_generichash(h, sizeof h, v.mv_data, ENGINE_SEED_BYTES, NULL, 0);
            if (sodium_memcmp(h, g.seed_commitment, sizeof h) != 0) {
                find(f, LEDGER_EBADSIG, 0, "the revealed seed does not match its commitment");
                return 0;
            }
        } else if (rrc != MDB_NOTFOUND) {
            return rrc;
        }
    }

    /* The seed and the opening position, when they can be had. */
    rc = ledger__room_seed(db, txn, room, job->seed);
    if (rc == 0) {
        job->has_seed = 1;
        rc = ledger__opening_state_in(db, txn, job->state, &g, job->seed);
        if (rc == LEDGER_EKEY) {
            job->has_seed = 0; /* a fork's position sealed from this reader: no re-fold */
            rc = 0;
        }
        if (rc == LEDGER_ECORRUPT) {
            find(f, rc, 0, "%s", ledger_errmsg(db));
            return 0;
        }
        if (rc != 0)
            return rc;
    } else if (rc == LEDGER_EKEY) {
        /* no audit key: verified without the re-fold */
    } else if (rc == LEDGER_EBADSIG || rc == LEDGER_ECORRUPT) {
        find(f, rc, 0, "%s", ledger_errmsg(db));
        return 0;
    } else {
        return rc;
    }

    rc = fork_check(db, txn, job, f, &g);
    if (rc != 0 || f->rc != 0)
        return rc;

    rc = ledger__head_read(db, txn, &head, room);
    if (rc == LEDGER_ENOTFOUND || rc == LEDGER_ECORRUPT) {
        find(f, LEDGER_ECORRUPT, 0, "no valid head record");
        return 0;
    }
    if (rc != 0)
        return rc;
    *n_events_out = head.version;
    job->ev = calloc(head.version ? head.version : 1, sizeof *job->ev);
    job->pk = calloc(head.version ? head.version : 1, sizeof *job->pk);
    job->act = calloc(head.version ? head.version : 1, sizeof *job->act);
    job->is_unopened = calloc(head.version ? head.version : 1, 1);
    job->bound_before = calloc(head.version ? head.version : 1, sizeof *job->bound_before);
    if (job->ev == NULL || job->pk == NULL || job->act == NULL || job->is_unopened == NULL ||
        job->bound_before == NULL)
        return ledger__fail(db, LEDGER_ERROR, "out of memory for %u events", head.version);

    /* The chain, in one pass over the room's duplicates. */
    MDB_cursor *cur = NULL;
    rc = ledger__cursor_open(txn, db->dbi_events, &cur);
    if (rc != 0)
        return rc;
    uint8_t first[LEDGER_EVENT_PREFIX];
    ledger__be32_put(first, 1); /* past the version-0 marker */
    MDB_val k = {SCHEMA_ROOM_CHARS, (void *)room}, v = {sizeof first, first};
    uint32_t want = 1, last_id = 0;
    uint64_t last_retired_at = 0;
    int has_last = 0, has_unsigned = 0;
    uint8_t last_pk[SCHEMA_KEY_BYTES], leaf[LEDGER_TREE_HASH_BYTES];
    ledger_seat_keys joined;       /* the seats the events bind as they join */
    memset(&joined, 0, sizeof joined);
    ledger__range *range = calloc(1, sizeof *range); /* the room's tree, leaf by leaf */
    if (range == NULL)
        return ledger__fail(db, LEDGER_ERROR, "out of memory");
    rc = ledger__cursor_get(txn, cur, &k, &v, MDB_GET_BOTH_RANGE);
    while (rc == 0) {
        const uint8_t *p = v.mv_data;
        if (v.mv_size < LEDGER_EVENT_PREFIX) {
            find(f, LEDGER_ECORRUPT, want, "stored value of %zu bytes", v.mv_size);
            break;
        }
        uint32_t ver = ledger__be32_get(p);
        if (ver != want) {
            if (ver > want && want <= head.version)
                find(f, LEDGER_ECORRUPT, want, "missing (the next stored is %u)", ver);
            else
                find(f, LEDGER_ECORRUPT, want, "event stored under version %u", ver);
            break;
        }
        if (want > head.version) {
            find(f, LEDGER_ECORRUPT, want, "stored past the head (%u)", head.version);
            break;
        }
        codec_event *ev = &job->ev[want - 1];
        if (ledger__event_record_decode(db, ev, p + LEDGER_EVENT_PREFIX,
                                        v.mv_size - LEDGER_EVENT_PREFIX) != 0) {
            find(f, LEDGER_ECORRUPT, want, "%s", ledger_errmsg(db));
            break;
        }
        if (ev->version != want) {
            find(f, LEDGER_ECORRUPT, want, "the record says it is version %u", ev->version);
            break;
        }
        ev->has_prev_hash = 1;
        memcpy(ev->prev_hash, hash, SCHEMA_HASH_BYTES);
        size_t len = ledger__event_canonical(canon, room, ev);
        if (len == 0) {
            find(f, LEDGER_ECORRUPT, want, "no canonical form");
            break;
        }
        ledger__event_chain_hash(hash, canon, len, ev);
        ledger_merkle_leaf_hash(leaf, hash, sizeof hash);
        ledger__range_push(range, leaf, NULL);
        if (!ev->has_signature) { /* format 2: the signed head covers it (below) */
            has_unsigned = 1;
        } else if (!has_last || ev->key_id != last_id) {
            codec_key key;
            int krc = ledger__key_chain_check(db, txn, &key, ev->key_id);
            if (krc == LEDGER_EBADSIG || krc == LEDGER_ECORRUPT) {
                find(f, LEDGER_EBADSIG, want, "%s", ledger_errmsg(db));
                break;
            }
            if (krc != 0) {
                rc = krc;
                break;
            }
            memcpy(last_pk, key.public_key, SCHEMA_KEY_BYTES);
            last_retired_at = key.retired_at;
            last_id = ev->key_id;
            has_last = 1;
        }
        if (ev->has_signature && last_retired_at != 0 && ev->committed_at > last_retired_at) {
            find(f, LEDGER_EBADSIG, want, "signed by key %08x after it was retired", ev->key_id);
            break;
        }
        /* A sealed action, opened when the room key is held. */
        int orc = ledger__event_open(db, txn, &job->act[want - 1], room, ev);
        if (orc == LEDGER_EKEY) {
            job->is_unopened[want - 1] = 1;
            job->n_unopened++;
        } else if (orc == LEDGER_ECORRUPT) {
            find(f, orc, want, "%s", ledger_errmsg(db));
            break;
        } else if (orc != 0) {
            rc = orc;
            break;
        }
        /* A seat bound as it joins: bound from this event on, once. */
        job->bound_before[want - 1] = job->seats.bound;
        if (ev->has_bind_key) {
            char why[160];
            if (ledger__seat_bind_check(why, sizeof why, &job->seats, job->n_seats, ev->seat,
                                        ev->bind_key) != 0) {
                find(f, LEDGER_EBADSIG, want, "%s", why);
                break;
            }
            job->seats.bound = (uint16_t)(job->seats.bound | 1u << ev->seat);
            memcpy(job->seats.key[ev->seat], ev->bind_key, SCHEMA_KEY_BYTES);
            joined.bound = (uint16_t)(joined.bound | 1u << ev->seat);
            memcpy(joined.key[ev->seat], ev->bind_key, SCHEMA_KEY_BYTES);
        }
        memcpy(job->pk[want - 1], last_pk, SCHEMA_KEY_BYTES);
        job->n_ok = want;
        sig_publish(job, want, 0);
        want++;
        rc = ledger__cursor_get(txn, cur, &k, &v, MDB_NEXT_DUP);
    }
    mdb_cursor_close(cur);
    if (rc != 0 && rc != MDB_NOTFOUND) {
        free(range);
        return rc;
    }
    rc = 0;
    if (f->rc == 0 && job->n_ok < head.version)
        find(f, LEDGER_ECORRUPT, job->n_ok + 1, "missing (the head is at %u)", head.version);
    if (f->rc == 0 && memcmp(hash, head.hash, SCHEMA_HASH_BYTES) != 0)
        find(f, LEDGER_EBADSIG, head.version, "the head's hash differs from the chain");
    if (f->rc == 0) { /* the lookup record must say what the events bind */
        ledger_seat_keys stored;
        int brc = ledger__seat_joined_read(db, txn, &stored, room);
        if (brc == LEDGER_ECORRUPT)
            find(f, brc, head.version, "%s", ledger_errmsg(db));
        else if (brc != 0) {
            free(range);
            return brc;
        } else if (stored.bound != joined.bound ||
                   sodium_memcmp(stored.key, joined.key, sizeof stored.key) != 0)
            find(f, LEDGER_ECORRUPT, head.version, "the seat binding record (meta seatbind/%s) "
                 "differs from the bindings its events carry", room);
    }
    if (f->rc == 0 && has_unsigned && !head.is_signed)
        find(f, LEDGER_EBADSIG, head.version, "the head is unsigned, and nothing else "
             "authenticates the events of format 2");
    if (f->rc == 0 && head.is_signed) {
        uint8_t root[LEDGER_TREE_HASH_BYTES];
        ledger__range_root(range, root);
        rc = head_check(db, txn, f, room, &head, root,
                        head.version == 0 ? g.created_at : job->ev[head.version - 1].committed_at);
        job->is_head_signed = rc == 0 && f->rc == 0;
    }
    free(range);
    if (rc != 0)
        return rc;

    /* Checkpoints: their chain hash must be the chain's; their states are
     * compared with the fold. */
    uint8_t kbuf[LEDGER_CKPT_KEY_BYTES];
    memcpy(kbuf, room, SCHEMA_ROOM_CHARS);
    ledger__be32_put(kbuf + SCHEMA_ROOM_CHARS, 0);
    MDB_val ck = {sizeof kbuf, kbuf}, cv;
    rc = ledger__cursor_open(txn, db->dbi_checkpoints, &cur);
    if (rc != 0)
        return rc;
    size_t cap = 0;
    engine_state *tmp = malloc(sizeof *tmp);
    if (tmp == NULL) {
        mdb_cursor_close(cur);
        return ledger__fail(db, LEDGER_ERROR, "out of memory");
    }
    for (rc = ledger__cursor_get(txn, cur, &ck, &cv, MDB_SET_RANGE); rc == 0;
         rc = ledger__cursor_get(txn, cur, &ck, &cv, MDB_NEXT)) {
        if (ck.mv_size != LEDGER_CKPT_KEY_BYTES || memcmp(ck.mv_data, room, SCHEMA_ROOM_CHARS) != 0)
            break;
        uint32_t ver = ledger__be32_get((const uint8_t *)ck.mv_data + SCHEMA_ROOM_CHARS);
        if (ver > job->n_ok)
            break;
        uint8_t chain[SCHEMA_HASH_BYTES], ckhash[SCHEMA_HASH_BYTES];
        int crc = ledger__checkpoint_find(db, txn, job->has_seed ? tmp : NULL, NULL, ckhash,
                                          room, ver);
        int has_state = job->has_seed;
        if (crc == LEDGER_EKEY) {
            /* Sealed with a room key not held: its chain hash is still read. */
            has_state = 0;
            crc = ledger__checkpoint_find(db, txn, NULL, NULL, ckhash, room, ver);
        }
        if (crc == LEDGER_ECORRUPT) {
            find(f, crc, ver, "checkpoint: %s", ledger_errmsg(db));
            continue;
        }
        if (crc != 0) {
            rc = crc;
            break;
        }
        if (ver == 0) {
            if (ledger__genesis_hash(chain, &g) != 0)
                continue;
        } else {
            const codec_event *ev = &job->ev[ver - 1];
            uint8_t c2[LEDGER_EVENT_CANONICAL_MAX];
            size_t len = ledger__event_canonical(c2, room, ev);
            ledger__event_chain_hash(chain, c2, len, ev);
        }
        if (memcmp(chain, ckhash, SCHEMA_HASH_BYTES) != 0)
            find(f, LEDGER_ECORRUPT, ver, "the checkpoint's chain hash differs");
        if (has_state) {
            if (ver == 0) {
                uint8_t d1[ENGINE_DIGEST_BYTES], d2[ENGINE_DIGEST_BYTES];
                engine_state_digest(d1, tmp);
                engine_state_digest(d2, job->state);
                if (memcmp(d1, d2, sizeof d1) != 0)
                    find(f, LEDGER_ECORRUPT, 0, "checkpoint differs from the opening position");
                continue;
            }
            if (job->n_ckpt == cap) {
                size_t ncap = cap ? cap * 2 : 16;
                ckpt_seen *p = realloc(job->ckpt, ncap * sizeof *p);
                if (p == NULL) {
                    rc = ledger__fail(db, LEDGER_ERROR, "out of memory");
                    break;
                }
                job->ckpt = p;
                cap = ncap;
            }
            job->ckpt[job->n_ckpt].version = ver;
            engine_state_digest(job->ckpt[job->n_ckpt].digest, tmp);
            job->n_ckpt++;
        }
    }
    free(tmp);
    mdb_cursor_close(cur);
    if (rc == MDB_NOTFOUND)
        rc = 0;
    return rc;
}

/* The room's public views: each version has one that decodes, and after a
 * fold each is the one the fold gives (a room that keeps none is left, as
 * an older build stored it). A finding goes to f; an error returns. */
static int views_check(ledger *db, const verify_job *job, finding *f,
                       ledger_verify_report *out, const char *room)
{
    ledger_txn txn;
    engine_state first;
    int rc = ledger__txn_begin(&txn, db, 0);
    if (rc != 0)
        return rc;
    rc = ledger__view_get(db, &txn, &first, room, 0);
    if (rc == LEDGER_ENOTFOUND) {
        ledger__txn_abort(&txn);
        return 0;
    }
    uint32_t bad = 0;
    if (rc == 0)
        rc = ledger__view_check(db, &txn, &bad, room, job->n_ok,
                                job->has_seed ? (const uint8_t(*)[ENGINE_DIGEST_BYTES])job->view
                                              : NULL);
    ledger__txn_abort(&txn);
    if (rc == LEDGER_ECORRUPT || rc == LEDGER_EBADSIG || rc == LEDGER_ENOTFOUND) {
        find(f, rc == LEDGER_ENOTFOUND ? LEDGER_ECORRUPT : rc, bad, "%s", db->errmsg);
        return 0;
    }
    if (rc != 0)
        return rc;
    out->has_public_views = 1;
    return 0;
}

int ledger_verify_room(ledger *db, ledger_verify_report *out, const char *room, unsigned threads)
{
    verify_job job;
    finding f;
    ledger_txn txn;
    uint32_t n_events = 0;
    memset(out, 0, sizeof *out);
    memset(&job, 0, sizeof job);
    memset(&f, 0, sizeof f);
    job.room = room;
    job.check_every = db->checkpoint_every;
    job.state = calloc(1, sizeof *job.state);
    if (job.state == NULL)
        return ledger__fail(db, LEDGER_ERROR, "out of memory");
    atomic_init(&job.n_ready, 0u);
    atomic_init(&job.next_sig, 0u);
    if (pthread_mutex_init(&job.lock, NULL) != 0) {
        free(job.state);
        return ledger__fail(db, LEDGER_ERROR, "cannot make a lock");
    }
    if (pthread_cond_init(&job.more, NULL) != 0) {
        pthread_mutex_destroy(&job.lock);
        free(job.state);
        return ledger__fail(db, LEDGER_ERROR, "cannot make a condition variable");
    }
    /* Two workers: the second checks each signature as soon as gather has
     * linked its event; this one then folds and joins it on whatever
     * signatures are left. */
    pthread_t tid;
    int is_threaded = threads >= 2 && pthread_create(&tid, NULL, check_signatures, &job) == 0;
    int rc = ledger__txn_begin(&txn, db, 0);
    if (rc == 0) {
        rc = gather(db, &txn, &job, &f, room, &n_events);
        ledger__txn_abort(&txn);
    }
    /* Events past a structural failure are not examined further (a
     * signature the second worker already took is harmless: the earliest
     * finding wins). */
    if (rc == 0 && f.rc != 0 && job.n_ok >= f.version)
        job.n_ok = f.version ? f.version - 1 : 0;
    if (rc != 0)
        job.n_ok = 0;
    sig_publish(&job, job.n_ok, 1);
    if (job.n_unopened != 0)
        job.has_seed = 0; /* a seed but no room key: sealed actions cannot be folded */
    if (job.has_seed && rc == 0) {
        job.view = malloc(((size_t)job.n_ok + 1) * sizeof *job.view);
        if (job.view == NULL) {
            rc = ledger__fail(db, LEDGER_ERROR, "out of memory");
            goto out;
        }
        refold(&job);
    }
    check_signatures_as(&job, 0);
    if (is_threaded)
        pthread_join(tid, NULL);
    if (rc != 0)
        goto out;
    for (unsigned w = 0; w < 2; w++)
        if (job.sig[w].rc != 0)
            find(&f, job.sig[w].rc, job.sig[w].version, "%s", job.sig[w].reason);
    if (job.fold.rc != 0)
        find(&f, job.fold.rc, job.fold.version, "%s", job.fold.reason);
    if (f.rc == 0) {
        rc = views_check(db, &job, &f, out, room);
        if (rc != 0)
            goto out;
    }

    out->n_events = n_events;
    out->n_signatures = 1u + (job.is_head_signed != 0); /* the genesis, the head */
    for (uint32_t i = 0; i < job.n_ok; i++) {
        int has_seat = job.ev[i].has_seat_signature && !job.is_unopened[i];
        out->n_seat_signatures += has_seat != 0;
        out->n_signatures += (uint32_t)(job.ev[i].has_signature != 0) + (uint32_t)has_seat;
    }
    out->n_sealed_unopened = job.n_unopened;
    out->is_refolded = job.has_seed;
    out->is_head_signed = job.is_head_signed;
    if (f.rc != 0) {
        out->bad_version = f.version;
        snprintf(out->reason, sizeof out->reason, "%s", f.reason);
        rc = ledger__fail(db, f.rc, "room %s: version %u: %s", room, f.version, f.reason);
    }
out:
    pthread_cond_destroy(&job.more);
    pthread_mutex_destroy(&job.lock);
    sodium_memzero(job.seed, sizeof job.seed);
    free(job.ev);
    free(job.pk);
    if (job.act != NULL)
        sodium_memzero(job.act, (n_events ? n_events : 1) * sizeof *job.act);
    free(job.act);
    free(job.is_unopened);
    free(job.bound_before);
    free(job.ckpt);
    free(job.view);
    free(job.state);
    return rc;
}

/* ============================================================ receipts */

int ledger_receipt_check(ledger *db, const codec_receipt *r)
{
    uint8_t canon[LEDGER_RECEIPT_CANONICAL_MAX], pk[SCHEMA_KEY_BYTES], hash[SCHEMA_HASH_BYTES];
    ledger_txn txn;
    ledger_head_rec head;
    size_t len = ledger__receipt_canonical(canon, r);
    if (len == 0)
        return ledger__fail(db, LEDGER_EINPUT, "the receipt names no valid room");
    int rc = ledger__txn_begin(&txn, db, 0);
    if (rc != 0)
        return rc;
    rc = ledger__key_public(db, &txn, r->key_id, pk);
    if (rc == LEDGER_ENOTFOUND) {
        rc = ledger__fail(db, LEDGER_EBADSIG, "the receipt is signed by unknown key %08x",
                          r->key_id);
        goto out;
    }
    if (rc != 0)
        goto out;
    if (ledger__verify_sig(r->signature, canon, len, pk) != 0) {
        rc = ledger__fail(db, LEDGER_EBADSIG, "the receipt's signature is bad");
        goto out;
    }
    if (r->version == 0) {
        rc = ledger__fail(db, LEDGER_EINPUT, "a receipt names a version from 1");
        goto out;
    }
    rc = ledger__head_read(db, &txn, &head, r->room);
    if (rc == LEDGER_ENOTFOUND) {
        rc = ledger__fail(db, LEDGER_ENOTFOUND, "the ledger has no room %s", r->room);
        goto out;
    }
    if (rc != 0)
        goto out;
    if (head.version < r->version) {
        rc = ledger__fail(db, LEDGER_ENOTFOUND, "room %s ends at version %u but the receipt "
                          "was issued for version %u: the room was truncated or rolled back",
                          r->room, head.version, r->version);
        goto out;
    }
    if (r->has_tree_head) {
        rc = ledger__tree_consistent(db, &txn, r->room, r->version, r->tree_root, head.version);
        if (rc == LEDGER_EBADSIG) {
            rc = ledger__fail(db, LEDGER_EBADSIG, "room %s: no consistency proof joins the "
                              "receipt's signed tree head (size %u) to the head (size %u): "
                              "the history was rewritten", r->room, r->version, head.version);
            goto out;
        }
        if (rc != 0)
            goto out;
    }
    rc = ledger__event_hash_at(db, &txn, hash, r->room, r->version);
    if (rc != 0)
        goto out;
    if (sodium_memcmp(hash, r->event_hash, SCHEMA_HASH_BYTES) != 0)
        rc = ledger__fail(db, LEDGER_EBADSIG, "room %s: event %u differs from the receipt's: "
                          "the history was rewritten", r->room, r->version);
out:
    ledger__txn_abort(&txn);
    return rc;
}
