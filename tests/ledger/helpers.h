/*
 * helpers.h - what the ledger suites share: a fresh ledger with real keys
 * in a temporary directory, a standard six-seat configuration, and a
 * player that appends the engine's first legal action.
 *
 * Included by tests/ledger/test_*.c only; every function is static inline
 * so a suite that does not use one does not warn.
 */
#ifndef MENTAT_TESTS_LEDGER_HELPERS_H
#define MENTAT_TESTS_LEDGER_HELPERS_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ledger/internal.h"
#include "tests/support/support.h"

typedef struct fixture {
    char dir[64];                  /* the temporary directory */
    char path[128];                /* dir/mentat.db */
    char keys[128];                /* dir/keys */
    ledger *db;                    /* open handle, or NULL */
    ledger_options opt;            /* as opened */
} fixture;

/* MENTAT_KEEP_TMP=1 keeps the directories, to look at the files. */
static inline void fixture_rm(fixture *f)
{
    const char *keep = getenv("MENTAT_KEEP_TMP");
    if (keep != NULL && keep[0] == '1')
        fprintf(stderr, "kept %s\n", f->dir);
    else if (f->dir[0] != '\0')
        test_rm_tree(f->dir);
}

/* Makes the directory and names the ledger and keys in it; makes neither
 * file. */
static inline void fixture_make_bare(fixture *f)
{
    memset(f, 0, sizeof *f);
    snprintf(f->dir, sizeof f->dir, "/tmp/mentat-ledger-XXXXXX");
    assert_non_null(mkdtemp(f->dir));
    snprintf(f->path, sizeof f->path, "%s/mentat.db", f->dir);
    snprintf(f->keys, sizeof f->keys, "%s/keys", f->dir);
    ledger_options_init(&f->opt);
    f->opt.path = f->path;
    f->opt.keys_dir = f->keys;
}

/* Makes the directory and keys; does not open the ledger. */
static inline void fixture_make(fixture *f)
{
    fixture_make_bare(f);
    char err[SCHEMA_ERRMSG] = "";
    assert_int_equal(ledger_keygen(f->keys, err), 0);
}

static inline int fixture_open(fixture *f)
{
    int rc = ledger_open(&f->db, &f->opt);
    if (rc != 0) {
        fprintf(stderr, "ledger_open: %s\n", ledger_errmsg(f->db));
        ledger_close(f->db);
        f->db = NULL;
    }
    return rc;
}

static inline void fixture_close(fixture *f)
{
    ledger_close(f->db);
    f->db = NULL;
}

static inline fixture *fixture_new(unsigned checkpoint_every)
{
    fixture *f = calloc(1, sizeof *f);
    assert_non_null(f);
    fixture_make(f);
    f->opt.checkpoint_every = checkpoint_every;
    assert_int_equal(fixture_open(f), 0);
    return f;
}

/* A fresh ledger with a copy of the keys in keys_from (the same host's
 * keys: the audit key that opens what its rooms sealed). */
static inline fixture *fixture_new_with_keys(unsigned checkpoint_every, const char *keys_from)
{
    fixture *f = calloc(1, sizeof *f);
    assert_non_null(f);
    fixture_make_bare(f);
    assert_int_equal(mkdir(f->keys, 0700), 0);
    const char *names[] = {LEDGER_SIGNING_FILE, LEDGER_AUDIT_FILE};
    for (size_t i = 0; i < 2; i++) {
        char from[256], to[256];
        snprintf(from, sizeof from, "%s/%s", keys_from, names[i]);
        snprintf(to, sizeof to, "%s/%s", f->keys, names[i]);
        test_copy_file(from, to, 0600);
    }
    f->opt.checkpoint_every = checkpoint_every;
    assert_int_equal(fixture_open(f), 0);
    return f;
}

/* Reopens f with a keys directory holding only its signing key (made on
 * first use, in f's directory): a reader without the audit key. */
static inline void fixture_reopen_keyless(fixture *f)
{
    char from[256], to[256];
    static char keyless[160];
    fixture_close(f);
    snprintf(keyless, sizeof keyless, "%s/signing-only", f->dir);
    if (mkdir(keyless, 0700) == 0) {
        snprintf(from, sizeof from, "%s/%s", f->keys, LEDGER_SIGNING_FILE);
        snprintf(to, sizeof to, "%s/%s", keyless, LEDGER_SIGNING_FILE);
        test_copy_file(from, to, 0600);
    }
    f->opt.keys_dir = keyless;
    assert_int_equal(fixture_open(f), 0);
}

/* Reopens f with its own keys. */
static inline void fixture_reopen_keyed(fixture *f)
{
    fixture_close(f);
    f->opt.keys_dir = f->keys;
    assert_int_equal(fixture_open(f), 0);
}

static inline void fixture_free(fixture *f)
{
    if (f == NULL)
        return;
    fixture_close(f);
    fixture_rm(f);
    free(f);
}

static inline void room_new(ledger *db, char room[SCHEMA_ROOM_CHARS + 1])
{
    engine_config cfg;
    test_config_six(&cfg);
    int rc = ledger_room_create(db, room, &cfg);
    if (rc != 0)
        fprintf(stderr, "ledger_room_create: %s\n", ledger_errmsg(db));
    assert_int_equal(rc, 0);
}

/* The first legal action in `st` (family 0, its lowest arguments, raised
 * in order to meet a required sum). 0 if there is none. */
static inline int legal_first(engine_action *out, const engine_state *st)
{
    engine_legal legal[16]; /* family 0 is all we take; callable from any thread */
    size_t n = engine_legal_actions(legal, 16, st, ENGINE_SEAT_ENGINE);
    if (n == 0)
        return 0;
    const engine_legal *l = &legal[0];
    const engine_action_spec *spec = engine_action_spec_of(l->kind);
    assert_non_null(spec);
    memset(out, 0, sizeof *out);
    out->kind = l->kind;
    out->seat = l->seat;
    int total = 0;
    for (unsigned i = 0; i < spec->n_args; i++) {
        out->arg[i] = l->lo[i];
        total += l->lo[i];
    }
    for (unsigned i = 0; l->sum >= 0 && i < spec->n_args && total < l->sum; i++) {
        int room_left = l->hi[i] - out->arg[i];
        int add = l->sum - total < room_left ? l->sum - total : room_left;
        out->arg[i] = (int16_t)(out->arg[i] + add);
        total += add;
    }
    assert_true(engine_legal_contains(l, out));
    return 1;
}

/* The next legal action of `room` at its head; 0 if the game waits on
 * nothing the engine can take yet. */
static inline int next_action(ledger *db, engine_action *out, const char *room, uint32_t *head_out)
{
    static engine_state st;
    uint32_t head = 0;
    assert_int_equal(ledger_head(db, room, &head, NULL), 0);
    int rc = ledger_state_at(db, &st, room, head);
    if (rc != 0)
        fprintf(stderr, "ledger_state_at: %s\n", ledger_errmsg(db));
    assert_int_equal(rc, 0);
    if (head_out != NULL)
        *head_out = head;
    return legal_first(out, &st);
}

/* Appends up to n legal actions; returns how many were accepted. */
static inline uint32_t play(ledger *db, const char *room, uint32_t n)
{
    uint32_t done = 0;
    engine_action act;
    uint32_t head;
    while (done < n && next_action(db, &act, room, &head)) {
        ledger_append_result res;
        int rc = ledger_append(db, &res, room, head, &act);
        if (rc != 0)
            fprintf(stderr, "ledger_append of kind %u seat %u args %d %d %d %d: %s\n", act.kind,
                    act.seat, act.arg[0], act.arg[1], act.arg[2], act.arg[3],
                    ledger_errmsg(db));
        assert_int_equal(rc, 0);
        assert_int_equal(res.verdict, ENGINE_ACCEPTED);
        done++;
    }
    return done;
}

/* The stored value under the 12-byte key (room, u32 n) of dbi, copied
 * into out (cap bytes): its length. Straight through LMDB, to look at
 * or damage what the ledger wrote. */
static inline size_t raw_value_get(ledger *db, MDB_dbi dbi, const char *room, uint32_t n,
                                   uint8_t *out, size_t cap)
{
    MDB_txn *txn;
    uint8_t k[SCHEMA_ROOM_CHARS + 4];
    memcpy(k, room, SCHEMA_ROOM_CHARS);
    ledger__be32_put(k + SCHEMA_ROOM_CHARS, n);
    MDB_val key = {sizeof k, k}, v;
    assert_int_equal(mdb_txn_begin(db->env, NULL, MDB_RDONLY, &txn), 0);
    assert_int_equal(mdb_get(txn, dbi, &key, &v), 0);
    assert_true(v.mv_size <= cap);
    memcpy(out, v.mv_data, v.mv_size);
    mdb_txn_abort(txn);
    return v.mv_size;
}

/* Puts len bytes at val under (room, u32 n) of dbi, over what is there. */
static inline void raw_value_put(ledger *db, MDB_dbi dbi, const char *room, uint32_t n,
                                 const uint8_t *val, size_t len)
{
    MDB_txn *txn;
    uint8_t k[SCHEMA_ROOM_CHARS + 4];
    memcpy(k, room, SCHEMA_ROOM_CHARS);
    ledger__be32_put(k + SCHEMA_ROOM_CHARS, n);
    MDB_val key = {sizeof k, k}, v = {len, (void *)val};
    assert_int_equal(mdb_txn_begin(db->env, NULL, 0, &txn), 0);
    assert_int_equal(mdb_put(txn, dbi, &key, &v, 0), 0);
    assert_int_equal(mdb_txn_commit(txn), 0);
}

static inline int verify_ok(ledger *db, const char *room)
{
    ledger_verify_report rep;
    int rc = ledger_verify_room(db, &rep, room, 1);
    if (rc != 0)
        fprintf(stderr, "verify %s: version %u: %s\n", room, rep.bad_version, rep.reason);
    return rc;
}

/* What of a room a refusal must leave as it was: its head and its count
 * of rejections. */
typedef struct room_mark {
    uint32_t version;
    uint8_t hash[SCHEMA_HASH_BYTES];
    uint32_t n_rejections;
} room_mark;

static inline void room_mark_get(ledger *db, room_mark *out, const char *room)
{
    ledger_txn txn;
    ledger_head_rec h;
    assert_int_equal(ledger__txn_begin(&txn, db, 0), 0);
    assert_int_equal(ledger__head_read(db, &txn, &h, room), 0);
    ledger__txn_abort(&txn);
    out->version = h.version;
    memcpy(out->hash, h.hash, sizeof out->hash);
    out->n_rejections = h.n_rejections;
}

/* Rewrites the stored record of (room, version) in place through edit,
 * which gets the decoded event (prev_hash linked) and may re-sign it; the
 * record must keep its size. Straight through LMDB, as an operator would. */
static inline void event_raw_edit(ledger *db, const char *room, uint32_t version,
                                  void (*edit)(ledger *db, const char *room, codec_event *ev))
{
    codec_event ev;
    uint8_t prev[SCHEMA_HASH_BYTES], rec[LEDGER_EVENT_RECORD_MAX + 4];
    size_t rec_len = 0;
    ledger_txn rt;
    assert_int_equal(ledger__txn_begin(&rt, db, 0), 0);
    assert_int_equal(ledger__event_hash_at(db, &rt, prev, room, version - 1), 0);
    ledger__txn_abort(&rt);
    MDB_txn *txn;
    MDB_cursor *cur;
    uint8_t vbuf[4];
    ledger__be32_put(vbuf, version);
    MDB_val k = {SCHEMA_ROOM_CHARS, (void *)room}, v = {4, vbuf};
    assert_int_equal(mdb_txn_begin(db->env, NULL, 0, &txn), 0);
    assert_int_equal(mdb_cursor_open(txn, db->dbi_events, &cur), 0);
    assert_int_equal(mdb_cursor_get(cur, &k, &v, MDB_GET_BOTH_RANGE), 0);
    assert_int_equal(ledger__be32_get(v.mv_data), version);
    assert_int_equal(ledger__event_record_decode(db, &ev, (uint8_t *)v.mv_data + 4,
                                                 v.mv_size - 4),
                     0);
    size_t old_len = v.mv_size;
    ev.has_prev_hash = 1;
    memcpy(ev.prev_hash, prev, sizeof prev);
    edit(db, room, &ev);
    memcpy(rec, vbuf, 4);
    assert_int_equal(ledger__event_record_encode(db, rec + 4, sizeof rec - 4, &rec_len, &ev), 0);
    assert_int_equal(rec_len + 4, old_len); /* same size: the dup stays in its place */
    MDB_val nv = {old_len, rec};
    assert_int_equal(mdb_cursor_put(cur, &k, &nv, MDB_CURRENT), 0);
    mdb_cursor_close(cur);
    assert_int_equal(mdb_txn_commit(txn), 0);
    ledger__cache_forget(db, room);
}

#endif
