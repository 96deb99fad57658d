/*
 * tree.c - each room's Merkle tree as the `trees` database keeps it, and
 * the tree heads and proofs read from it.
 *
 * Part of ledger/. Leaf v-1 of a room's tree is SHA-256(0x00 || event hash
 * of version v) (ledger/merkle.c hashes). Every LEDGER_TREE_GROUP events
 * the room gets one `trees` duplicate, in the transaction of the event
 * that completes the group (size s, a multiple of 8):
 *   s u32 BE        the group's end
 *   32 bytes        the chain hash of event s: where the next group's
 *                   leaves start
 *   32 bytes each   for l = 3 .. 3 + ctz(s / 8), at most up to level
 *                   LEDGER_TREE_TOP_LEVEL: node (level l, index
 *                   s / 2^l - 1), the subtree of the 2^l leaves ending at s
 * About 68 to 100 bytes per 8 events. A node of fewer leaves or above the
 * top level, or one whose group record is absent (a room written before
 * `trees` existed), is computed from its children, and leaves from the
 * chain: correct, only slower. A record of the wrong size for its group
 * is corrupt, never guessed at. This file never signs (receipts carry the
 * tree heads).
 */
#include <string.h>

#include "ledger/internal.h"

/* ============================================================ records */

/* Nodes in the record of group end `size`. */
static unsigned record_nodes(uint32_t size)
{
    unsigned top = LEDGER_TREE_GROUP_LOG;
    while (top < LEDGER_TREE_TOP_LEVEL && size % (2u << top) == 0)
        top++;
    return top - LEDGER_TREE_GROUP_LOG + 1;
}

/* The record of group end `size`, borrowed (4): 0, MDB_NOTFOUND, or an
 * error. */
static int record_get(ledger *db, ledger_txn *txn, const uint8_t **out, const char *room,
                      uint32_t size)
{
    if (!db->has_trees)
        return MDB_NOTFOUND;
    uint8_t prefix[4];
    ledger__be32_put(prefix, size);
    MDB_cursor *cur;
    int rc = ledger__cursor_open(txn, db->dbi_trees, &cur);
    if (rc != 0)
        return rc;
    MDB_val k = {SCHEMA_ROOM_CHARS, (void *)room}, v = {sizeof prefix, prefix};
    rc = ledger__cursor_get(txn, cur, &k, &v, MDB_GET_BOTH_RANGE);
    mdb_cursor_close(cur);
    if (rc == 0 && (v.mv_size < sizeof prefix || memcmp(v.mv_data, prefix, sizeof prefix) != 0))
        return MDB_NOTFOUND;
    if (rc != 0)
        return rc;
    if (size % LEDGER_TREE_GROUP != 0 ||
        v.mv_size != 4 + LEDGER_TREE_HASH_BYTES * (1 + (size_t)record_nodes(size)))
        return LEDGER_CORRUPT_MSG(db, "room %s: the tree record of size %u has %zu bytes", room,
                                  size, v.mv_size);
    *out = (const uint8_t *)v.mv_data + 4;
    return 0;
}

int ledger__trees_init(ledger *db, ledger_txn *txn, const char *room)
{
    return ledger__dups_open(db, txn, db->dbi_trees, room);
}

/* ========================================================= the oracle */

/* What the tree hashes are read from: the room in txn, and the leaves of
 * one group kept from the last time one was needed. */
typedef struct tree_src {
    ledger *db;
    ledger_txn *txn;
    const char *room;
    uint64_t n_leaves;             /* leaves that exist: no leaf at or past it is read */
    uint32_t group;                /* group of leaf[], valid for n_group leaves */
    uint32_t n_group;
    uint8_t leaf[LEDGER_TREE_GROUP][LEDGER_TREE_HASH_BYTES];
    uint8_t event[LEDGER_TREE_GROUP][SCHEMA_HASH_BYTES]; /* their event hashes */
} tree_src;

static void src_init(tree_src *s, ledger *db, ledger_txn *txn, const char *room, uint64_t n)
{
    s->db = db;
    s->txn = txn;
    s->room = room;
    s->n_leaves = n;
    s->group = 0;
    s->n_group = 0;
}

/* The chain hash of event `version` (0: the genesis) where a group starts. */
static int group_start(tree_src *s, uint8_t out[SCHEMA_HASH_BYTES], uint32_t version)
{
    if (version == 0) {
        codec_genesis g;
        int rc = ledger__genesis_read(s->db, s->txn, &g, s->room);
        if (rc != 0)
            return rc;
        if (ledger__genesis_hash(out, &g) != 0)
            return LEDGER_CORRUPT_MSG(s->db, "room %s: the genesis has no canonical form",
                                      s->room);
        return 0;
    }
    const uint8_t *rec;
    int rc = record_get(s->db, s->txn, &rec, s->room, version);
    if (rc == 0)
        memcpy(out, rec, SCHEMA_HASH_BYTES);
    if (rc == MDB_NOTFOUND)
        rc = ledger__event_hash_at(s->db, s->txn, out, s->room, version);
    return rc;
}

static int leaf(tree_src *s, uint8_t out[LEDGER_TREE_HASH_BYTES], uint64_t index)
{
    uint32_t g = (uint32_t)(index / LEDGER_TREE_GROUP), i = (uint32_t)(index % LEDGER_TREE_GROUP);
    if (index >= s->n_leaves)
        return LEDGER_ERROR; /* the proof code never asks past the tree */
    if (s->group != g || s->n_group <= i) {
        uint8_t chain[SCHEMA_HASH_BYTES];
        uint32_t start = g * LEDGER_TREE_GROUP;
        uint64_t end = (uint64_t)start + LEDGER_TREE_GROUP;
        uint32_t n = (uint32_t)((end < s->n_leaves ? end : s->n_leaves) - start);
        int rc = group_start(s, chain, start);
        if (rc == 0)
            rc = ledger__chain_walk(s->db, s->txn, chain, s->event, s->room, start + 1,
                                    start + n);
        if (rc != 0)
            return rc;
        for (uint32_t k = 0; k < n; k++)
            ledger_merkle_leaf_hash(s->leaf[k], s->event[k], SCHEMA_HASH_BYTES);
        s->group = g;
        s->n_group = n;
    }
    memcpy(out, s->leaf[i], LEDGER_TREE_HASH_BYTES);
    return 0;
}

static unsigned log2_exact(uint64_t n)
{
    unsigned l = 0;
    while (((uint64_t)1 << l) < n)
        l++;
    return l;
}

/* ledger__subtree_fn over the room: stored nodes where there are some. */
static int subtree(void *ctx, uint8_t out[LEDGER_TREE_HASH_BYTES], uint64_t begin, uint64_t end)
{
    tree_src *s = ctx;
    uint64_t n = end - begin;
    if (end <= begin)
        return LEDGER_ERROR; /* the proof code asks only for ranges of leaves */
    if (n == 1)
        return leaf(s, out, begin);
    uint64_t k;
    if ((n & (n - 1)) == 0 && (begin & (n - 1)) == 0) { /* a perfect, aligned subtree */
        unsigned level = log2_exact(n);
        if (level >= LEDGER_TREE_GROUP_LOG && level <= LEDGER_TREE_TOP_LEVEL) {
            const uint8_t *rec = NULL;
            int rc = record_get(s->db, s->txn, &rec, s->room, (uint32_t)end);
            if (rc == 0 && rec != NULL)
                memcpy(out,
                       rec + (size_t)LEDGER_TREE_HASH_BYTES *
                                 (1 + (size_t)level - LEDGER_TREE_GROUP_LOG),
                       LEDGER_TREE_HASH_BYTES);
            if (rc != MDB_NOTFOUND)
                return rc;
        }
        k = n / 2;
    } else {
        k = 1;
        while (k << 1 < n)
            k <<= 1;
    }
    uint8_t left[LEDGER_TREE_HASH_BYTES], right[LEDGER_TREE_HASH_BYTES];
    int rc = subtree(s, left, begin, begin + k);
    if (rc == 0)
        rc = subtree(s, right, begin + k, end);
    if (rc == 0)
        ledger_merkle_node_hash(out, left, right);
    return rc;
}

/* ============================================================ writing */

/* Puts the record of group end `version`: the chain hash, then its
 * record_nodes(version) nodes, from level LEDGER_TREE_GROUP_LOG up. */
static int record_put(ledger *db, ledger_txn *txn, const char *room, uint32_t version,
                      const uint8_t hash[SCHEMA_HASH_BYTES],
                      const uint8_t (*nodes)[LEDGER_TREE_HASH_BYTES])
{
    uint8_t buf[4 + LEDGER_TREE_HASH_BYTES * (2 + LEDGER_TREE_TOP_LEVEL - LEDGER_TREE_GROUP_LOG)];
    unsigned n = record_nodes(version);
    ledger__be32_put(buf, version);
    memcpy(buf + 4, hash, SCHEMA_HASH_BYTES);
    memcpy(buf + 4 + LEDGER_TREE_HASH_BYTES, nodes, (size_t)LEDGER_TREE_HASH_BYTES * n);
    MDB_val k = {SCHEMA_ROOM_CHARS, (void *)room};
    MDB_val v = {4 + LEDGER_TREE_HASH_BYTES * (1 + (size_t)n), buf};
    int rc = ledger__put(txn, db->dbi_trees, &k, &v, MDB_APPENDDUP);
    if (rc == MDB_KEYEXIST)
        return LEDGER_CORRUPT_MSG(db, "room %s: the tree record of size %u is out of order", room,
                                  version);
    return rc;
}

int ledger__tree_extend(ledger *db, ledger_txn *txn, const char *room, uint32_t version,
                        const uint8_t hash[SCHEMA_HASH_BYTES])
{
    if (version % LEDGER_TREE_GROUP != 0)
        return 0;
    tree_src s;
    src_init(&s, db, txn, room, version);
    uint8_t node[1 + LEDGER_TREE_TOP_LEVEL - LEDGER_TREE_GROUP_LOG][LEDGER_TREE_HASH_BYTES];
    uint8_t left[LEDGER_TREE_HASH_BYTES];
    unsigned n = record_nodes(version);
    int rc = subtree(&s, node[0], version - LEDGER_TREE_GROUP, version);
    /* Each larger subtree this event completes: its left half ends where
     * the right half (the node just made) begins. */
    for (unsigned i = 1; rc == 0 && i < n; i++) {
        uint32_t half = LEDGER_TREE_GROUP << (i - 1);
        rc = subtree(&s, left, version - 2 * (uint64_t)half, version - half);
        if (rc == 0)
            ledger_merkle_node_hash(node[i], left, node[i - 1]);
    }
    if (rc != 0)
        return rc;
    return record_put(db, txn, room, version, hash, (const uint8_t(*)[LEDGER_TREE_HASH_BYTES])node);
}

int ledger__tree_range(ledger *db, ledger_txn *txn, ledger__range *out, const char *room,
                       uint32_t size)
{
    tree_src s;
    src_init(&s, db, txn, room, size);
    memset(out, 0, sizeof *out);
    uint64_t begin = 0;
    for (unsigned b = 32; b-- > 0;) {
        uint64_t width = (uint64_t)1 << b;
        if ((size & width) == 0)
            continue;
        int rc = subtree(&s, out->hash[out->n], begin, begin + width);
        if (rc != 0)
            return rc;
        out->n++;
        begin += width;
    }
    out->size = size;
    return 0;
}

int ledger__tree_append(ledger *db, ledger_txn *txn, ledger__range *range,
                        uint8_t root_out[LEDGER_TREE_HASH_BYTES], const char *room,
                        uint32_t version, const uint8_t hash[SCHEMA_HASH_BYTES])
{
    uint8_t levels[LEDGER__RANGE_MAX][LEDGER_TREE_HASH_BYTES], leaf_hash[LEDGER_TREE_HASH_BYTES];
    if (range->size + 1 != version)
        return ledger__fail(db, LEDGER_ERROR, "room %s: a tree of %llu events extended by "
                            "event %u", room, (unsigned long long)range->size, version);
    ledger_merkle_leaf_hash(leaf_hash, hash, SCHEMA_HASH_BYTES);
    ledger__range_push(range, leaf_hash, levels);
    ledger__range_root(range, root_out);
    if (version % LEDGER_TREE_GROUP != 0)
        return 0;
    return record_put(db, txn, room, version, hash,
                      (const uint8_t(*)[LEDGER_TREE_HASH_BYTES])levels[LEDGER_TREE_GROUP_LOG]);
}

/* ============================================================ reading */

int ledger__tree_root(ledger *db, ledger_txn *txn, uint8_t out[LEDGER_TREE_HASH_BYTES],
                      const char *room, uint32_t size)
{
    if (size == 0) {
        ledger_merkle_empty_root(out);
        return 0;
    }
    tree_src s;
    src_init(&s, db, txn, room, size);
    return subtree(&s, out, 0, size);
}

/* Opens a read txn and checks that room has at least `size` events. */
static int begin_sized(ledger *db, ledger_txn *txn, const char *room, uint32_t size)
{
    if (!ledger__room_valid(room))
        return ledger__room_refuse(db, room);
    int rc = ledger__txn_begin(txn, db, 0);
    if (rc != 0)
        return rc;
    ledger_head_rec head;
    rc = ledger__head_read(db, txn, &head, room);
    if (rc == 0 && size > head.version)
        rc = ledger__fail(db, LEDGER_EINPUT, "room %s has %u events, not %u", room, head.version,
                          size);
    if (rc != 0)
        ledger__txn_abort(txn);
    return rc;
}

int ledger_tree_head_get(ledger *db, ledger_tree_head *out, const char *room, uint32_t size)
{
    ledger_txn txn;
    memset(out, 0, sizeof *out);
    int rc = begin_sized(db, &txn, room, size);
    if (rc != 0)
        return rc;
    memcpy(out->room, room, SCHEMA_ROOM_CHARS);
    out->size = size;
    rc = ledger__tree_root(db, &txn, out->root, room, size);
    if (rc == 0 && size > 0) {
        codec_event ev;
        rc = ledger__event_load(db, &txn, &ev, NULL, room, size);
        out->time = ev.committed_at;
    }
    ledger__txn_abort(&txn);
    return rc;
}

int ledger_proof_inclusion(ledger *db, ledger_tree_proof *out,
                           uint8_t event_hash_out[SCHEMA_HASH_BYTES], const char *room,
                           uint32_t version, uint32_t size)
{
    ledger_txn txn;
    memset(out, 0, sizeof *out);
    if (version == 0 || version > size)
        return ledger__fail(db, LEDGER_EINPUT, "version %u is not in a tree of %u events",
                            version, size);
    int rc = begin_sized(db, &txn, room, size);
    if (rc != 0)
        return rc;
    tree_src s;
    src_init(&s, db, &txn, room, size);
    rc = ledger__merkle_inclusion(out, subtree, &s, version - 1, size);
    uint8_t leaf_hash[LEDGER_TREE_HASH_BYTES];
    if (rc == 0 && event_hash_out != NULL)
        rc = leaf(&s, leaf_hash, version - 1); /* its group, with the event hashes */
    if (rc == 0 && event_hash_out != NULL)
        memcpy(event_hash_out, s.event[(version - 1) % LEDGER_TREE_GROUP], SCHEMA_HASH_BYTES);
    ledger__txn_abort(&txn);
    return rc;
}

int ledger_proof_consistency(ledger *db, ledger_tree_proof *out, const char *room,
                             uint32_t size1, uint32_t size2)
{
    ledger_txn txn;
    memset(out, 0, sizeof *out);
    if (size1 == 0 || size1 > size2)
        return ledger__fail(db, LEDGER_EINPUT, "no consistency proof from %u to %u events "
                            "(sizes from 1, the first no larger)", size1, size2);
    int rc = begin_sized(db, &txn, room, size2);
    if (rc != 0)
        return rc;
    tree_src s;
    src_init(&s, db, &txn, room, size2);
    rc = ledger__merkle_consistency(out, subtree, &s, size1, size2);
    ledger__txn_abort(&txn);
    return rc;
}

int ledger__tree_consistent(ledger *db, ledger_txn *txn, const char *room, uint32_t size1,
                            const uint8_t root1[LEDGER_TREE_HASH_BYTES], uint32_t size2)
{
    uint8_t root2[LEDGER_TREE_HASH_BYTES];
    ledger_tree_proof proof;
    tree_src s;
    src_init(&s, db, txn, room, size2);
    int rc = subtree(&s, root2, 0, size2);
    if (rc == 0)
        rc = ledger__merkle_consistency(&proof, subtree, &s, size1, size2);
    if (rc == 0)
        rc = ledger_merkle_consistency_verify(size1, size2, &proof, root1, root2);
    return rc;
}

int ledger__tree_included(ledger *db, ledger_txn *txn, const char *room, uint32_t version,
                          const uint8_t hash[SCHEMA_HASH_BYTES], uint32_t size,
                          const uint8_t root[LEDGER_TREE_HASH_BYTES])
{
    uint8_t leaf_hash[LEDGER_TREE_HASH_BYTES];
    ledger_tree_proof proof;
    tree_src s;
    if (version == 0 || version > size)
        return ledger__fail(db, LEDGER_EINPUT, "version %u is not in a tree of %u events",
                            version, size);
    src_init(&s, db, txn, room, size);
    int rc = ledger__merkle_inclusion(&proof, subtree, &s, version - 1, size);
    if (rc != 0)
        return rc;
    ledger_merkle_leaf_hash(leaf_hash, hash, SCHEMA_HASH_BYTES);
    return ledger_merkle_inclusion_verify(version - 1, size, leaf_hash, &proof, root);
}
