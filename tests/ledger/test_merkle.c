/*
 * test_merkle.c - the RFC 9162 Merkle tree: the published transparency-dev
 * test vectors (tests/fixtures/merkle/), the proofs made from a list of
 * leaves against a naive tree, and each room's tree as the ledger keeps it
 * (stored nodes, the fold from the chain for rooms without them, restore).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tests/ledger/helpers.h"

#define VECTORS "tests/fixtures/merkle"
#define MAX_LEAVES 140

/* ================================================== an in-memory tree */

typedef struct mem_tree {
    size_t n;
    uint8_t leaf[MAX_LEAVES][LEDGER_TREE_HASH_BYTES];
} mem_tree;

/* MTH of RFC 9162 2.1.1, the plain recursion. */
static void mth(uint8_t out[LEDGER_TREE_HASH_BYTES], const mem_tree *t, uint64_t b, uint64_t e)
{
    if (e - b == 1) {
        memcpy(out, t->leaf[b], LEDGER_TREE_HASH_BYTES);
        return;
    }
    uint64_t k = 1;
    while (k << 1 < e - b)
        k <<= 1;
    uint8_t l[LEDGER_TREE_HASH_BYTES], r[LEDGER_TREE_HASH_BYTES];
    mth(l, t, b, b + k);
    mth(r, t, b + k, e);
    ledger_merkle_node_hash(out, l, r);
}

static int mem_subtree(void *ctx, uint8_t out[LEDGER_TREE_HASH_BYTES], uint64_t b, uint64_t e)
{
    const mem_tree *t = ctx;
    assert_true(b < e && e <= t->n);
    mth(out, t, b, e);
    return 0;
}

/* The 8 leaf inputs of transparency-dev's testonly/constants.go. */
static void reference_tree(mem_tree *t)
{
    static const char *const hex[8] = {"", "00", "10", "2021", "3031", "40414243",
                                       "5051525354555657", "606162636465666768696a6b6c6d6e6f"};
    t->n = 8;
    for (size_t i = 0; i < 8; i++) {
        uint8_t in[16];
        size_t len = 0;
        assert_int_equal(sodium_hex2bin(in, sizeof in, hex[i], strlen(hex[i]), NULL, &len, NULL),
                         0);
        ledger_merkle_leaf_hash(t->leaf[i], in, len);
    }
}

static void hex32(uint8_t out[32], const char *hex)
{
    assert_int_equal(sodium_hex2bin(out, 32, hex, 64, NULL, NULL, NULL), 0);
}

static void test_merkle__reference_roots(void **state)
{
    (void)state;
    /* testonly/constants.go RootHashes(), sizes 0..8 */
    static const char *const roots[9] = {
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
        "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
        "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
        "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
        "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
        "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
        "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
        "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
    };
    mem_tree t;
    reference_tree(&t);
    uint8_t want[32], got[32];
    hex32(want, roots[0]);
    ledger_merkle_empty_root(got);
    assert_memory_equal(got, want, 32);
    for (uint64_t n = 1; n <= 8; n++) {
        hex32(want, roots[n]);
        mth(got, &t, 0, n);
        assert_memory_equal(got, want, 32);
    }
}

/* ======================================================== the vectors */

typedef struct vector {
    int is_consistency;
    uint64_t a, b;                 /* leafIdx, treeSize / size1, size2 */
    uint8_t h1[32], h2[32];        /* leafHash, root / root1, root2 */
    ledger_tree_proof proof;
    int want_err;
    int is_leaf_sized;             /* h1 is 32 bytes: a leaf hash of another size is refused */
    char desc[128];
} vector;

static uint64_t u64_member(const codec_json_token *tok, const char *text, const char *key)
{
    int i = codec_json_member(tok, 0, text, key);
    assert_true(i >= 0 && tok[i].type == CODEC_JSON_NUMBER);
    return strtoull(text + tok[i].start, NULL, 10);
}

/* A base64 hash into out: 1 if it is 32 bytes. The vectors also hold
 * hashes of other lengths ("", "WrongLeaf"): those are zero-padded to 32
 * bytes, which keeps them unequal to every real hash and equal to each
 * other only when their bytes are, as the reference compares them. */
static int hash_of(uint8_t out[32], const codec_json_token *t, const char *text)
{
    uint8_t buf[64];
    size_t len = 0;
    memset(out, 0, 32);
    assert_int_equal(t->type, CODEC_JSON_STRING);
    assert_int_equal(sodium_base642bin(buf, sizeof buf, text + t->start, t->end - t->start,
                                       NULL, &len, NULL, sodium_base64_VARIANT_ORIGINAL), 0);
    assert_true(len <= 32);
    memcpy(out, buf, len);
    return len == 32;
}

static void vector_read(vector *v, const char *path)
{
    static codec_json_token tok[256];
    size_t len;
    char *text = test_slurp(path, &len);
    char err[SCHEMA_ERRMSG];
    assert_true(codec_json_parse(tok, 256, text, len, err) > 0);
    memset(v, 0, sizeof *v);
    v->is_consistency = codec_json_member(tok, 0, text, "size1") >= 0;
    v->a = u64_member(tok, text, v->is_consistency ? "size1" : "leafIdx");
    v->b = u64_member(tok, text, v->is_consistency ? "size2" : "treeSize");
    int i1 = codec_json_member(tok, 0, text, v->is_consistency ? "root1" : "leafHash");
    int i2 = codec_json_member(tok, 0, text, v->is_consistency ? "root2" : "root");
    assert_true(i1 >= 0 && i2 >= 0);
    v->is_leaf_sized = hash_of(v->h1, &tok[i1], text);
    (void)hash_of(v->h2, &tok[i2], text);
    int ip = codec_json_member(tok, 0, text, "proof");
    assert_true(ip >= 0);
    if (tok[ip].type == CODEC_JSON_ARRAY) {
        int e = ip + 1;
        for (uint32_t k = 0; k < tok[ip].size; k++, e = (int)tok[e].next) {
            assert_true(v->proof.n_hashes < LEDGER_PROOF_MAX);
            (void)hash_of(v->proof.hash[v->proof.n_hashes++], &tok[e], text);
        }
    }
    int iw = codec_json_member(tok, 0, text, "wantErr");
    assert_true(iw >= 0);
    assert_int_equal(tok[iw].type, CODEC_JSON_BOOL);
    v->want_err = text[tok[iw].start] == 't';
    int id = codec_json_member(tok, 0, text, "desc");
    if (id >= 0 && codec_json_string(v->desc, sizeof v->desc, &tok[id], text) != 0)
        v->desc[0] = '\0';
    free(text);
}

/* Calls fn for each .json file under dir, recursively; returns the count. */
static size_t each_vector(const char *dir, void (*fn)(const char *path, void *ctx), void *ctx)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        assert_int_equal(stat(path, &st), 0);
        if (S_ISDIR(st.st_mode))
            n += each_vector(path, fn, ctx);
        else if (strstr(e->d_name, ".json") != NULL) {
            fn(path, ctx);
            n++;
        }
    }
    closedir(d);
    return n;
}

typedef struct vector_run {
    mem_tree ref;                  /* the reference tree */
    size_t n_made;                 /* happy paths whose proof we made again */
} vector_run;

static void check_vector(const char *path, void *ctx)
{
    vector_run *run = ctx;
    mem_tree *ref = &run->ref;
    vector v;
    vector_read(&v, path);
    int rc = LEDGER_EBADSIG;
    if (v.is_consistency)
        rc = ledger_merkle_consistency_verify(v.a, v.b, &v.proof, v.h1, v.h2);
    else if (v.is_leaf_sized)
        rc = ledger_merkle_inclusion_verify(v.a, v.b, v.h1, &v.proof, v.h2);
    if ((rc != 0) != v.want_err)
        fail_msg("%s (%s): verify says %d, wantErr %d", path, v.desc, rc, v.want_err);
    /* The happy paths over the reference tree: the proof we make is theirs. */
    if (!v.want_err && v.b <= ref->n) {
        uint8_t root[32];
        mth(root, ref, 0, v.b);
        if (memcmp(root, v.h2, 32) != 0)
            return; /* a vector over other leaves */
        ledger_tree_proof mine;
        int mrc = v.is_consistency
                      ? ledger__merkle_consistency(&mine, mem_subtree, ref, v.a, v.b)
                      : ledger__merkle_inclusion(&mine, mem_subtree, ref, v.a, v.b);
        assert_int_equal(mrc, 0);
        assert_int_equal(mine.n_hashes, v.proof.n_hashes);
        assert_memory_equal(mine.hash, v.proof.hash, 32 * mine.n_hashes);
        run->n_made++;
    }
}

static void test_merkle__published_vectors(void **state)
{
    (void)state;
    static vector_run run;
    reference_tree(&run.ref);
    size_t n = each_vector(VECTORS "/inclusion", check_vector, &run);
    n += each_vector(VECTORS "/consistency", check_vector, &run);
    assert_true(n >= 190);        /* 197 files in the copy */
    assert_true(run.n_made >= 8); /* the happy paths of inclusion/ and consistency/ 0..4 */
    fprintf(stderr, "%zu vectors, %zu proofs made again\n", n, run.n_made);
}

/* ============================================== every proof, both ways */

static void test_merkle__every_proof_of_130_leaves(void **state)
{
    (void)state;
    static mem_tree t;
    t.n = 130;
    for (size_t i = 0; i < t.n; i++) {
        uint8_t d = (uint8_t)i;
        ledger_merkle_leaf_hash(t.leaf[i], &d, 1);
    }
    static uint8_t root[131][32];
    for (uint64_t n = 1; n <= t.n; n++)
        mth(root[n], &t, 0, n);
    ledger_tree_proof p;
    for (uint64_t n = 1; n <= t.n; n++) {
        for (uint64_t i = 0; i < n; i++) {
            assert_int_equal(ledger__merkle_inclusion(&p, mem_subtree, &t, i, n), 0);
            assert_int_equal(ledger_merkle_inclusion_verify(i, n, t.leaf[i], &p, root[n]), 0);
            /* another leaf, another index, a tampered hash: refused */
            assert_int_not_equal(
                ledger_merkle_inclusion_verify(i, n, t.leaf[(i + 1) % t.n], &p, root[n]), 0);
            if (n > 1)
                assert_int_not_equal(
                    ledger_merkle_inclusion_verify((i + 1) % n, n, t.leaf[i], &p, root[n]), 0);
            if (p.n_hashes > 0) {
                p.hash[p.n_hashes - 1][0] ^= 1;
                assert_int_not_equal(ledger_merkle_inclusion_verify(i, n, t.leaf[i], &p, root[n]),
                                     0);
            }
        }
        for (uint64_t m = 1; m <= n; m++) {
            assert_int_equal(ledger__merkle_consistency(&p, mem_subtree, &t, m, n), 0);
            assert_int_equal(ledger_merkle_consistency_verify(m, n, &p, root[m], root[n]), 0);
            if (m < n) {
                assert_int_not_equal(
                    ledger_merkle_consistency_verify(m, n, &p, root[m + 1], root[n]), 0);
                p.hash[0][5] ^= 1;
                assert_int_not_equal(ledger_merkle_consistency_verify(m, n, &p, root[m], root[n]),
                                     0);
            }
        }
    }
    assert_int_equal(ledger__merkle_inclusion(&p, mem_subtree, &t, 5, 5), LEDGER_EINPUT);
    assert_int_equal(ledger__merkle_consistency(&p, mem_subtree, &t, 0, 5), LEDGER_EINPUT);
    assert_int_equal(ledger__merkle_consistency(&p, mem_subtree, &t, 6, 5), LEDGER_EINPUT);
}

/* ================================================== the ledger's tree */

/* The room's tree rebuilt from its chain hashes, leaf by leaf. */
static void room_tree(mem_tree *t, ledger *db, const char *room, uint32_t n)
{
    ledger_txn txn;
    assert_int_equal(ledger__txn_begin(&txn, db, 0), 0);
    t->n = n;
    for (uint32_t v = 1; v <= n; v++) {
        uint8_t h[SCHEMA_HASH_BYTES];
        assert_int_equal(ledger__event_hash_at(db, &txn, h, room, v), 0);
        ledger_merkle_leaf_hash(t->leaf[v - 1], h, sizeof h);
    }
    ledger__txn_abort(&txn);
}

/* Every root and a spread of proofs of the ledger equal the naive tree's. */
static void same_as_naive(ledger *db, const char *room, const mem_tree *t)
{
    uint32_t n = (uint32_t)t->n;
    for (uint32_t size = 1; size <= n; size++) {
        ledger_tree_head th;
        uint8_t want[32];
        assert_int_equal(ledger_tree_head_get(db, &th, room, size), 0);
        mth(want, t, 0, size);
        assert_memory_equal(th.root, want, 32);
        assert_int_equal(th.size, size);
        for (uint32_t v = 1; v <= size; v += 7) {
            ledger_tree_proof p, q;
            uint8_t hash[SCHEMA_HASH_BYTES], leaf[32];
            assert_int_equal(ledger_proof_inclusion(db, &p, hash, room, v, size), 0);
            ledger_merkle_leaf_hash(leaf, hash, sizeof hash);
            assert_memory_equal(leaf, t->leaf[v - 1], 32);
            assert_int_equal(ledger__merkle_inclusion(&q, mem_subtree, (void *)t, v - 1, size), 0);
            assert_int_equal(p.n_hashes, q.n_hashes);
            assert_memory_equal(p.hash, q.hash, 32 * p.n_hashes);
            assert_int_equal(ledger_proof_consistency(db, &p, room, v, size), 0);
            assert_int_equal(ledger__merkle_consistency(&q, mem_subtree, (void *)t, v, size), 0);
            assert_int_equal(p.n_hashes, q.n_hashes);
            assert_memory_equal(p.hash, q.hash, 32 * p.n_hashes);
        }
    }
}

static size_t count_tree_records(ledger *db, const char *room)
{
    ledger_txn txn;
    MDB_cursor *cur;
    MDB_val k = {SCHEMA_ROOM_CHARS, (void *)room}, v;
    size_t n = 0;
    assert_int_equal(ledger__txn_begin(&txn, db, 0), 0);
    assert_int_equal(ledger__cursor_open(&txn, db->dbi_trees, &cur), 0);
    int rc = ledger__cursor_get(&txn, cur, &k, &v, MDB_SET_KEY);
    while (rc == 0) {
        n += v.mv_size > 4; /* not the version-0 marker */
        rc = ledger__cursor_get(&txn, cur, &k, &v, MDB_NEXT_DUP);
    }
    mdb_cursor_close(cur);
    ledger__txn_abort(&txn);
    return n;
}

/* Every tree record of `room` in a also in b, byte for byte; returns how
 * many were compared. */
static size_t same_tree_records(ledger *a, ledger *b, const char *room)
{
    ledger_txn ta, tb;
    MDB_cursor *ca, *cb;
    size_t n = 0;
    assert_int_equal(ledger__txn_begin(&ta, a, 0), 0);
    assert_int_equal(ledger__txn_begin(&tb, b, 0), 0);
    assert_int_equal(ledger__cursor_open(&ta, a->dbi_trees, &ca), 0);
    assert_int_equal(ledger__cursor_open(&tb, b->dbi_trees, &cb), 0);
    MDB_val k = {SCHEMA_ROOM_CHARS, (void *)room}, v;
    int rc = ledger__cursor_get(&ta, ca, &k, &v, MDB_SET_KEY);
    for (; rc == 0; rc = ledger__cursor_get(&ta, ca, &k, &v, MDB_NEXT_DUP)) {
        if (v.mv_size <= 4)
            continue; /* the version-0 marker and fillers */
        MDB_val kb = {SCHEMA_ROOM_CHARS, (void *)room}, vb = {4, v.mv_data};
        assert_int_equal(ledger__cursor_get(&tb, cb, &kb, &vb, MDB_GET_BOTH_RANGE), 0);
        assert_int_equal(vb.mv_size, v.mv_size);
        assert_memory_equal(vb.mv_data, v.mv_data, v.mv_size);
        n++;
    }
    mdb_cursor_close(ca);
    mdb_cursor_close(cb);
    ledger__txn_abort(&ta);
    ledger__txn_abort(&tb);
    return n;
}

static int drop_trees_body(ledger_txn *txn, void *ctx)
{
    MDB_val k = {SCHEMA_ROOM_CHARS, ctx};
    return ledger__del(txn, txn->db->dbi_trees, &k, NULL);
}

static void test_merkle__room_tree(void **state)
{
    (void)state;
    fixture *f = fixture_new(0);
    char room[SCHEMA_ROOM_CHARS + 1];
    room_new(f->db, room);
    uint32_t n = play(f->db, room, 70);
    assert_int_equal(n, 70);
    static mem_tree t;
    room_tree(&t, f->db, room, n);
    /* a record per group of 8 */
    assert_int_equal(count_tree_records(f->db, room), 8);
    same_as_naive(f->db, room, &t);
    assert_int_equal(verify_ok(f->db, room), 0);

    /* out of range */
    ledger_tree_proof p;
    ledger_tree_head th;
    assert_int_equal(ledger_proof_inclusion(f->db, &p, NULL, room, 71, 71), LEDGER_EINPUT);
    assert_int_equal(ledger_proof_inclusion(f->db, &p, NULL, room, 0, 5), LEDGER_EINPUT);
    assert_int_equal(ledger_proof_inclusion(f->db, &p, NULL, room, 6, 5), LEDGER_EINPUT);
    assert_int_equal(ledger_proof_consistency(f->db, &p, room, 0, 5), LEDGER_EINPUT);
    assert_int_equal(ledger_proof_consistency(f->db, &p, room, 9, 5), LEDGER_EINPUT);
    assert_int_equal(ledger_tree_head_get(f->db, &th, room, 71), LEDGER_EINPUT);
    assert_int_equal(ledger_tree_head_get(f->db, &th, "ZZZZZZZZ", 1), LEDGER_ENOTFOUND);

    /* the same tree from a room without records (an older writer's):
     * folded from the chain, and appends go on from there */
    assert_int_equal(ledger__write(f->db, drop_trees_body, room), 0);
    assert_int_equal(count_tree_records(f->db, room), 0);
    same_as_naive(f->db, room, &t);
    assert_int_equal(play(f->db, room, 2), 2);
    room_tree(&t, f->db, room, n + 2);
    assert_int_equal(count_tree_records(f->db, room), 1); /* the group ending at 72 */
    same_as_naive(f->db, room, &t);

    /* a restored room gets the same records as one played */
    char archive[160];
    snprintf(archive, sizeof archive, "%s/room.mentat-archive", f->dir);
    assert_int_equal(ledger_backup_room(f->db, room, archive), 0);
    fixture *g = fixture_new(0);
    fixture_close(g);
    g->opt.keys_dir = f->keys;
    assert_int_equal(fixture_open(g), 0);
    ledger_restore_report rep;
    assert_int_equal(ledger_restore(g->db, &rep, archive, 0), 0);
    assert_int_equal(count_tree_records(g->db, room), 9);
    same_as_naive(g->db, room, &t);
    assert_int_equal(same_tree_records(f->db, g->db, room), 1);

    /* appends from a fresh handle take the room's range from `trees`
     * (and the chain where records are missing); what they write is what
     * a restore computes from the chain alone */
    fixture_close(f);
    assert_int_equal(fixture_open(f), 0);
    assert_int_equal(play(f->db, room, 19), 19);
    room_tree(&t, f->db, room, n + 21);
    same_as_naive(f->db, room, &t);
    assert_int_equal(verify_ok(f->db, room), 0);
    assert_int_equal(ledger_backup_room(f->db, room, archive), 0);
    fixture *h = fixture_new(0);
    fixture_close(h);
    h->opt.keys_dir = f->keys;
    assert_int_equal(fixture_open(h), 0);
    assert_int_equal(ledger_restore(h->db, &rep, archive, 0), 0);
    assert_int_equal(same_tree_records(f->db, h->db, room), 3); /* 72, 80, 88 */
    fixture_free(h);
    fixture_free(g);
    fixture_free(f);
}

/* ============================================ rooms of earlier builds */

/* Member `key` of object token obj, which must be there. */
static const codec_json_token *member(const codec_json_token *tok, int obj, const char *text,
                                      const char *key)
{
    int i = codec_json_member(tok, obj, text, key);
    assert_true(i >= 0);
    return &tok[i];
}

static void member_string(char *out, size_t cap, const codec_json_token *tok, int obj,
                          const char *text, const char *key)
{
    assert_int_equal(codec_json_string(out, cap, member(tok, obj, text, key), text), 0);
}

/* A room of this build's rules verifies with a signed head and re-folds to
 * the digest the manifest holds. */
static void verify_at(ledger *db, const char *room, uint32_t n, const char *digest_hex)
{
    ledger_verify_report vrep;
    int rc = ledger_verify_room(db, &vrep, room, 1);
    if (rc != 0)
        fail_msg("verify %s: %u: %s (%s)", room, vrep.bad_version, vrep.reason,
                 ledger_errmsg(db));
    assert_true(vrep.is_head_signed);
    assert_true(vrep.is_refolded);
    static engine_state st;
    uint8_t digest[ENGINE_DIGEST_BYTES], want[ENGINE_DIGEST_BYTES];
    assert_int_equal(ledger_state_at(db, &st, room, n), 0);
    engine_state_digest(digest, &st);
    hex32(want, digest_hex);
    assert_memory_equal(digest, want, sizeof want);
}

/* Each stored room of this build's rules in tests/fixtures/rooms restores,
 * verifies with a signed head at the manifest's digest, and gets a tree
 * whose proofs hold against that head. */
static void test_merkle__stored_rooms_get_trees(void **state)
{
    (void)state;
    size_t len;
    char *text = test_slurp("tests/fixtures/rooms/manifest.json", &len);
    static codec_json_token tok[4096];
    char err[SCHEMA_ERRMSG];
    assert_true(codec_json_parse(tok, sizeof tok / sizeof tok[0], text, len, err) > 0);
    int rooms = codec_json_member(tok, 0, text, "rooms");
    assert_true(rooms >= 0 && tok[rooms].type == CODEC_JSON_ARRAY && tok[rooms].size >= 8);
    fixture *f = fixture_new(0);
    int e = rooms + 1;
    for (uint32_t k = 0; k < tok[rooms].size; k++, e = (int)tok[e].next) {
        char file[64], path[160], room[SCHEMA_ROOM_CHARS + 1], digest_hex[65];
        int64_t n, rules;
        member_string(file, sizeof file, tok, e, text, "file");
        member_string(room, sizeof room, tok, e, text, "room");
        member_string(digest_hex, sizeof digest_hex, tok, e, text, "head_state_digest");
        assert_int_equal(codec_json_int(&n, member(tok, e, text, "events"), text), 0);
        assert_int_equal(codec_json_int(&rules, member(tok, e, text, "rules_version"), text), 0);
        if (!engine_rules_version_is_folded((unsigned)rules))
            continue; /* a version this build cannot re-fold: test_rooms shows the refusal */
        snprintf(path, sizeof path, "tests/fixtures/rooms/%s", file);
        ledger_restore_report rep;
        int rc = ledger_restore(f->db, &rep, path, 1);
        if (rc != 0)
            fail_msg("restore %s: %s", path, ledger_errmsg(f->db));
        verify_at(f->db, room, (uint32_t)n, digest_hex);
        ledger_tree_head head, mid;
        ledger_tree_proof p;
        uint8_t hash[SCHEMA_HASH_BYTES], leaf[LEDGER_TREE_HASH_BYTES];
        uint32_t size = (uint32_t)n, m = size / 3 + 1;
        assert_int_equal(ledger_tree_head_get(f->db, &head, room, size), 0);
        assert_int_equal(ledger_tree_head_get(f->db, &mid, room, m), 0);
        assert_int_equal(ledger_proof_inclusion(f->db, &p, hash, room, m, size), 0);
        ledger_merkle_leaf_hash(leaf, hash, sizeof hash);
        assert_int_equal(ledger_merkle_inclusion_verify(m - 1, size, leaf, &p, head.root), 0);
        assert_int_equal(ledger_proof_consistency(f->db, &p, room, m, size), 0);
        assert_int_equal(ledger_merkle_consistency_verify(m, size, &p, mid.root, head.root), 0);
    }
    free(text);
    fixture_free(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_merkle__reference_roots),
        cmocka_unit_test(test_merkle__published_vectors),
        cmocka_unit_test(test_merkle__every_proof_of_130_leaves),
        cmocka_unit_test(test_merkle__room_tree),
        cmocka_unit_test(test_merkle__stored_rooms_get_trees),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
