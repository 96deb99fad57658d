/*
 * test_key_chain.c - the pinned signing key chain: the first key the
 * ledger wrote with, each rotation signed by the key it retired; a keys
 * directory that is not the ledger's refused for writing; a key outside
 * the chain, a forged rotation and a retired key signing after its
 * retirement each failing verify; archives of another ledger keeping
 * their own chain; a ledger whose key an older build rotated (a stored
 * file) re-pinned with the retired secrets that build kept.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tests/ledger/helpers.h"

static int put_key_body(ledger_txn *txn, void *ctx)
{
    const codec_key *key = ctx;
    uint8_t kbuf[4], vbuf[160];
    size_t len = 0;
    ledger__be32_put(kbuf, key->key_id);
    vbuf[0] = LEDGER_TAG_PROTOBUF;
    assert_int_equal(codec_key_encode(vbuf + 1, sizeof vbuf - 1, &len, key), 0);
    MDB_val k = {sizeof kbuf, kbuf}, v = {len + 1, vbuf};
    return ledger__put(txn, txn->db->dbi_keys, &k, &v, 0);
}

/* Writes a row of `keys` straight into the file, as an operator could. */
static void put_key(ledger *db, const codec_key *key)
{
    assert_int_equal(ledger__write(db, put_key_body, (void *)key), 0);
}

static codec_key key_row(ledger *db, uint32_t id)
{
    ledger_txn txn;
    codec_key k;
    int is_stored = 0;
    assert_int_equal(ledger__txn_begin(&txn, db, 0), 0);
    assert_int_equal(ledger__key_record(db, &txn, &k, id, &is_stored), 0);
    ledger__txn_abort(&txn);
    assert_true(is_stored);
    return k;
}

static int chain_check(ledger *db, uint32_t id)
{
    ledger_txn txn;
    codec_key k;
    assert_int_equal(ledger__txn_begin(&txn, db, 0), 0);
    int rc = ledger__key_chain_check(db, &txn, &k, id);
    ledger__txn_abort(&txn);
    return rc;
}

static void expect_verify_fails(ledger *db, const char *room, uint32_t version, const char *why)
{
    ledger_verify_report rep;
    assert_int_equal(ledger_verify_room(db, &rep, room, 1), LEDGER_EBADSIG);
    assert_int_equal(rep.bad_version, version);
    if (strstr(rep.reason, why) == NULL)
        fail_msg("verify says \"%s\", not \"%s\"", rep.reason, why);
}

/* Closes f and opens its ledger again with new keys of another ledger,
 * made in `other` (f->dir/other-keys). */
static void reopen_with_other_keys(fixture *f, char *other, size_t cap)
{
    char err[SCHEMA_ERRMSG];
    fixture_close(f);
    snprintf(other, cap, "%s/other-keys", f->dir);
    assert_int_equal(ledger_keygen(other, err), 0);
    f->opt.keys_dir = other;
    assert_int_equal(fixture_open(f), 0);
}

/* Format 1 (is_signing_events): the forged link is named at the first
 * event the second key signed (3); format 2: at the head (6), signed by
 * the third key, whose chain runs through it. */
static void rotations_chain_to_the_first_key(int is_signing_events)
{
    fixture *f = fixture_new(0);
    char room[SCHEMA_ROOM_CHARS + 1];
    f->db->is_signing_events = is_signing_events;
    room_new(f->db, room);
    uint32_t first = f->db->key_id, second = 0, third = 0;
    assert_int_equal(play(f->db, room, 2), 2);
    assert_int_equal(ledger_key_rotate(f->db, &second), 0);
    assert_int_equal(play(f->db, room, 2), 2);
    assert_int_equal(ledger_key_rotate(f->db, &third), 0);
    assert_int_equal(play(f->db, room, 2), 2);
    assert_int_equal(verify_ok(f->db, room), 0);

    codec_key k2 = key_row(f->db, second), k3 = key_row(f->db, third);
    assert_true(k2.has_predecessor && k2.predecessor == first);
    assert_true(k3.has_predecessor && k3.predecessor == second);
    assert_false(key_row(f->db, first).has_predecessor);
    assert_int_equal(chain_check(f->db, third), 0);

    /* A rotation whose endorsement is not the old key's: forged. */
    codec_key forged = k2;
    forged.endorsement[3] ^= 1;
    put_key(f->db, &forged);
    assert_int_equal(chain_check(f->db, third), LEDGER_EBADSIG);
    assert_non_null(strstr(ledger_errmsg(f->db), "not signed by the key it replaced"));
    expect_verify_fails(f->db, room, is_signing_events ? 3 : 6,
                        "not signed by the key it replaced");
    put_key(f->db, &k2);
    assert_int_equal(verify_ok(f->db, room), 0);

    /* A second "first key" slipped into the table: the chain is forged. */
    uint8_t pk[SCHEMA_KEY_BYTES], sk[LEDGER_SIGN_SECRET_BYTES];
    crypto_sign_keypair(pk, sk);
    codec_key intruder;
    memset(&intruder, 0, sizeof intruder);
    intruder.key_id = ledger__key_id(pk);
    memcpy(intruder.public_key, pk, sizeof pk);
    intruder.created_at = 1;
    put_key(f->db, &intruder);
    assert_int_equal(chain_check(f->db, intruder.key_id), LEDGER_EBADSIG);
    expect_verify_fails(f->db, room, 0, "both claim to be the ledger's first signing key");
    fixture_free(f);
}

static void test_key_chain__rotations_chain_to_the_first_key(void **state)
{
    (void)state;
    rotations_chain_to_the_first_key(1);
}

static void test_key_chain__rotations_chain_unsigned_events(void **state)
{
    (void)state;
    rotations_chain_to_the_first_key(0);
}

static void test_key_chain__retired_key_may_not_sign_after(void **state)
{
    (void)state;
    fixture *f = fixture_new(0);
    char room[SCHEMA_ROOM_CHARS + 1];
    f->db->is_signing_events = 1; /* format 1: each event signed */
    room_new(f->db, room);
    uint32_t first = f->db->key_id;
    assert_int_equal(play(f->db, room, 4), 4);
    assert_int_equal(ledger_key_rotate(f->db, NULL), 0);
    assert_int_equal(verify_ok(f->db, room), 0);
    /* The retirement moved back before event 3 (as if the old key had
     * signed events 3 and 4 after it was retired). */
    codec_event ev;
    assert_int_equal(ledger_event_get(f->db, &ev, room, 3), 0);
    codec_key old = key_row(f->db, first);
    old.retired_at = ev.committed_at - 1;
    put_key(f->db, &old);
    uint32_t bad = 1; /* events of one millisecond: the first past the retirement */
    for (; bad < 3; bad++) {
        codec_event e;
        assert_int_equal(ledger_event_get(f->db, &e, room, bad), 0);
        if (e.committed_at > old.retired_at)
            break;
    }
    expect_verify_fails(f->db, room, bad, "after it was retired");
    fixture_free(f);
}

/* Format 2: the head is the one signature; signed by a key whose
 * retirement is put back before the head's tree time, it fails verify, as
 * does any read that leans on it. */
static void test_key_chain__retired_key_may_not_sign_the_head(void **state)
{
    (void)state;
    fixture *f = fixture_new(0);
    char room[SCHEMA_ROOM_CHARS + 1];
    room_new(f->db, room);
    uint32_t first = f->db->key_id;
    assert_int_equal(play(f->db, room, 4), 4);
    assert_int_equal(verify_ok(f->db, room), 0);
    codec_event ev;
    assert_int_equal(ledger_event_get(f->db, &ev, room, 4), 0);
    assert_false(ev.has_signature);
    codec_key k = key_row(f->db, first);
    k.retired_at = ev.committed_at - 1;
    put_key(f->db, &k);
    expect_verify_fails(f->db, room, 4, "after it was retired");
    assert_int_equal(ledger_event_get(f->db, &ev, room, 2), LEDGER_EBADSIG);
    fixture_free(f);
}

static void test_key_chain__foreign_keys_directory_refused(void **state)
{
    (void)state;
    fixture *f = fixture_new(0);
    char room[SCHEMA_ROOM_CHARS + 1];
    room_new(f->db, room);
    assert_int_equal(play(f->db, room, 1), 1);
    uint32_t ours = f->db->key_id, head;
    engine_action act;
    assert_true(next_action(f->db, &act, room, &head));

    /* Another keys directory on the same ledger: reads work, writes not. */
    char other[160];
    reopen_with_other_keys(f, other, sizeof other);
    assert_int_equal(verify_ok(f->db, room), 0);
    ledger_append_result res;
    assert_int_equal(ledger_append(f->db, &res, room, head, &act), LEDGER_EKEY);
    char want[64];
    snprintf(want, sizeof want, "from %08x", ours);
    assert_non_null(strstr(ledger_errmsg(f->db), "not this ledger's"));
    assert_non_null(strstr(ledger_errmsg(f->db), want));
    char name[SCHEMA_ROOM_CHARS + 1];
    engine_config cfg;
    test_config_six(&cfg);
    assert_int_equal(ledger_room_create(f->db, name, &cfg), LEDGER_EKEY);
    assert_int_equal(ledger_key_rotate(f->db, NULL), LEDGER_EKEY);
    uint32_t n;
    assert_int_equal(ledger_head(f->db, room, &n, NULL), 0);
    assert_int_equal(n, head); /* nothing written */
    fixture_close(f);
    f->opt.keys_dir = f->keys;
    assert_int_equal(fixture_open(f), 0);
    assert_int_equal(play(f->db, room, 1), 1);
    fixture_free(f);
}

static void test_key_chain__archives_keep_their_own_chain(void **state)
{
    (void)state;
    fixture *a = fixture_new(0), *b = fixture_new(0);
    char room[SCHEMA_ROOM_CHARS + 1], mine[SCHEMA_ROOM_CHARS + 1], path[200];
    room_new(a->db, room);
    assert_int_equal(play(a->db, room, 2), 2);
    assert_int_equal(ledger_key_rotate(a->db, NULL), 0);
    assert_int_equal(play(a->db, room, 2), 2);
    snprintf(path, sizeof path, "%s/room.mentat-archive", a->dir);
    assert_int_equal(ledger_backup_room(a->db, room, path), 0);

    room_new(b->db, mine);
    ledger_restore_report rep;
    assert_int_equal(ledger_restore(b->db, &rep, path, 1), 0);
    assert_int_equal(verify_ok(b->db, room), 0);
    assert_int_equal(verify_ok(b->db, mine), 0);
    codec_key k = key_row(b->db, a->db->key_id);
    assert_true(k.is_imported && k.has_predecessor);
    assert_false(key_row(b->db, b->db->key_id).is_imported);
    /* B still writes with its own keys, and only with them. */
    assert_int_equal(play(b->db, mine, 1), 1);
    fixture_free(b);
    fixture_free(a);
}

/* A room made after a rotation is signed only by the rotated-in key: its
 * archive still carries the whole chain back to the first key, so a fresh
 * ledger that restores it can check the rotation's endorsement. */
static void test_key_chain__archive_of_a_later_room_carries_the_chain(void **state)
{
    (void)state;
    fixture *a = fixture_new(0), *b = fixture_new(0);
    char room[SCHEMA_ROOM_CHARS + 1], path[200];
    uint32_t first = a->db->key_id, second = 0;
    assert_int_equal(ledger_key_rotate(a->db, &second), 0);
    room_new(a->db, room);
    assert_int_equal(play(a->db, room, 3), 3);
    snprintf(path, sizeof path, "%s/later.mentat-archive", a->dir);
    assert_int_equal(ledger_backup_room(a->db, room, path), 0);

    ledger_restore_report rep;
    assert_int_equal(ledger_restore(b->db, &rep, path, 1), 0);
    assert_int_equal(verify_ok(b->db, room), 0);
    codec_key k2 = key_row(b->db, second), k1 = key_row(b->db, first);
    assert_true(k2.is_imported && k2.has_predecessor && k2.predecessor == first);
    assert_true(k1.is_imported && !k1.has_predecessor);
    fixture_free(b);
    fixture_free(a);
}

/* tests/fixtures/ledgers/rotated_before_chain (its README.md): a ledger
 * the build before the key chain wrote and rotated twice. */
#define OLD_DIR "tests/fixtures/ledgers/rotated_before_chain"
#define OLD_ROOM "UCNXKY3V"
#define OLD_EVENTS 30u
#define OLD_KEY_FIRST 0x3dae2519u
#define OLD_KEY_SECOND 0xfa90f1c7u
#define OLD_KEY_NOW 0x1f014127u

static void retired_name(char *out, size_t cap, const fixture *f, uint32_t id)
{
    snprintf(out, cap, "%s/signing-%08x.retired", f->keys, id);
}

/* A copy of the stored ledger and its keys directory in f, opened. */
static fixture *old_rotation_copy(void)
{
    static const char *const key_files[] = {"signing.key", "audit.key",
                                            "signing-3dae2519.retired",
                                            "signing-fa90f1c7.retired"};
    fixture *f = calloc(1, sizeof *f);
    assert_non_null(f);
    fixture_make_bare(f);
    assert_int_equal(mkdir(f->keys, 0700), 0);
    test_copy_file(OLD_DIR "/mentat.db", f->path, 0600);
    for (size_t i = 0; i < sizeof key_files / sizeof key_files[0]; i++) {
        char from[256], to[256];
        snprintf(from, sizeof from, "%s/keys/%s", OLD_DIR, key_files[i]);
        snprintf(to, sizeof to, "%s/%s", f->keys, key_files[i]);
        test_copy_file(from, to, 0600);
    }
    assert_int_equal(fixture_open(f), 0);
    return f;
}

static void expect_repin_refused(fixture *f, int rc, const char *why)
{
    ledger_repin_report rep;
    assert_int_equal(ledger_key_repin(f->db, &rep), rc);
    if (strstr(ledger_errmsg(f->db), why) == NULL)
        fail_msg("repin says \"%s\", not \"%s\"", ledger_errmsg(f->db), why);
    assert_int_equal(rep.n_endorsed, 0);
    expect_verify_fails(f->db, OLD_ROOM, 0, "mentat key repin"); /* nothing written */
    assert_false(key_row(f->db, OLD_KEY_SECOND).has_predecessor);
}

static void test_key_chain__older_build_rotations_repinned(void **state)
{
    (void)state;
    fixture *f = old_rotation_copy();
    assert_int_equal(f->db->key_id, OLD_KEY_NOW);
    /* As stored: three first keys, a forged chain by this build's rules,
     * and the reason names the way out. No write is admitted. */
    expect_verify_fails(f->db, OLD_ROOM, 0, "both claim to be the ledger's first signing key");
    expect_verify_fails(f->db, OLD_ROOM, 0, "mentat key repin");
    engine_action act;
    uint32_t head = 0, n = 0;
    assert_true(next_action(f->db, &act, OLD_ROOM, &head));
    assert_int_equal(head, OLD_EVENTS);
    ledger_append_result res;
    assert_int_not_equal(ledger_append(f->db, &res, OLD_ROOM, head, &act), 0);

    /* A retired secret missing, or not the retired key's: refused whole. */
    char retired[256], aside[300];
    retired_name(retired, sizeof retired, f, OLD_KEY_SECOND);
    snprintf(aside, sizeof aside, "%s.aside", retired);
    assert_int_equal(rename(retired, aside), 0);
    expect_repin_refused(f, LEDGER_EKEY, "signing-fa90f1c7.retired, which is gone");
    char first[256];
    retired_name(first, sizeof first, f, OLD_KEY_FIRST);
    test_copy_file(first, retired, 0600); /* the first key's secret under the second's name */
    expect_repin_refused(f, LEDGER_EKEY, "is not the secret of key fa90f1c7");
    assert_int_equal(rename(aside, retired), 0);

    /* The keys directory of another ledger may not re-pin this one. */
    char other[160];
    reopen_with_other_keys(f, other, sizeof other);
    expect_repin_refused(f, LEDGER_EKEY, "the newest of the ledger's keys is 1f014127");
    fixture_close(f);
    f->opt.keys_dir = f->keys;
    assert_int_equal(fixture_open(f), 0);

    /* Re-pinned: the chain runs first -> second -> now, each rotation
     * signed by the key it retired; the retired secrets are gone. */
    ledger_repin_report rep;
    assert_int_equal(ledger_key_repin(f->db, &rep), 0);
    assert_int_equal(rep.n_endorsed, 2);
    assert_int_equal(rep.key_id[0], OLD_KEY_FIRST);
    assert_int_equal(rep.key_id[1], OLD_KEY_SECOND);
    assert_int_equal(rep.key_id[2], OLD_KEY_NOW);
    codec_key k2 = key_row(f->db, OLD_KEY_SECOND), k3 = key_row(f->db, OLD_KEY_NOW);
    assert_true(k2.has_predecessor && k2.predecessor == OLD_KEY_FIRST);
    assert_true(k3.has_predecessor && k3.predecessor == OLD_KEY_SECOND);
    assert_false(key_row(f->db, OLD_KEY_FIRST).has_predecessor);
    struct stat st;
    assert_int_not_equal(stat(retired, &st), 0);
    assert_int_not_equal(stat(first, &st), 0);
    ledger_verify_report vr;
    assert_int_equal(ledger_verify_room(f->db, &vr, OLD_ROOM, 2), 0);
    assert_int_equal(vr.n_events, OLD_EVENTS);
    assert_true(vr.is_refolded && vr.is_head_signed);

    /* Whole now: a second repin changes nothing, the ledger writes, the
     * endorsements are checked like any rotation's, and it rotates on. */
    assert_int_equal(ledger_key_repin(f->db, &rep), 0);
    assert_int_equal(rep.n_endorsed, 0);
    assert_int_equal(play(f->db, OLD_ROOM, 2), 2);
    assert_int_equal(ledger_key_rotate(f->db, NULL), 0);
    assert_int_equal(play(f->db, OLD_ROOM, 1), 1);
    assert_int_equal(verify_ok(f->db, OLD_ROOM), 0);
    assert_int_equal(ledger_head(f->db, OLD_ROOM, &n, NULL), 0);
    assert_int_equal(n, OLD_EVENTS + 3);
    codec_key forged = k2;
    forged.endorsement[0] ^= 1;
    put_key(f->db, &forged);
    expect_verify_fails(f->db, OLD_ROOM, 13, "not signed by the key it replaced");
    fixture_free(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_key_chain__rotations_chain_to_the_first_key),
        cmocka_unit_test(test_key_chain__retired_key_may_not_sign_after),
        cmocka_unit_test(test_key_chain__rotations_chain_unsigned_events),
        cmocka_unit_test(test_key_chain__retired_key_may_not_sign_the_head),
        cmocka_unit_test(test_key_chain__foreign_keys_directory_refused),
        cmocka_unit_test(test_key_chain__archives_keep_their_own_chain),
        cmocka_unit_test(test_key_chain__archive_of_a_later_room_carries_the_chain),
        cmocka_unit_test(test_key_chain__older_build_rotations_repinned),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
