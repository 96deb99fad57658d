/*
 * test_keys.c - key files and the `keys` table: modes, no overwriting,
 * rotation that keeps old events verifiable, and wrong or corrupt key
 * files refused with LEDGER_EKEY.
 */
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tests/ledger/helpers.h"

static mode_t mode_of(const char *dir, const char *name)
{
    char path[256];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    assert_int_equal(stat(path, &st), 0);
    return st.st_mode & 07777;
}

static off_t size_of(const char *dir, const char *name)
{
    char path[256];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    assert_int_equal(stat(path, &st), 0);
    return st.st_size;
}

static void write_file(const char *dir, const char *name, const void *data, size_t len)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, data, len), (ssize_t)len);
    close(fd);
}

static void read_file(const char *dir, const char *name, void *out, size_t len)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int fd = open(path, O_RDONLY);
    assert_true(fd >= 0);
    assert_int_equal(read(fd, out, len), (ssize_t)len);
    close(fd);
}

static void test_keys__keygen_modes_and_sizes(void **state)
{
    (void)state;
    fixture f;
    fixture_make(&f);
    assert_int_equal(mode_of(f.dir, "keys"), 0700);
    assert_int_equal(mode_of(f.keys, LEDGER_SIGNING_FILE), 0600);
    assert_int_equal(mode_of(f.keys, LEDGER_AUDIT_FILE), 0600);
    assert_int_equal(size_of(f.keys, LEDGER_SIGNING_FILE), 64);
    assert_int_equal(size_of(f.keys, LEDGER_AUDIT_FILE), 64);
    /* no temporary files left behind */
    DIR *d = opendir(f.keys);
    struct dirent *e;
    int n = 0;
    while ((e = readdir(d)) != NULL)
        if (e->d_name[0] != '.')
            n++;
        else
            assert_true(strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0);
    closedir(d);
    assert_int_equal(n, 2);
    /* the key id is the BLAKE2b prefix of the public key */
    uint8_t sk[64], h[32];
    read_file(f.keys, LEDGER_SIGNING_FILE, sk, sizeof sk);
    crypto_generichash(h, sizeof h, sk + 32, 32, NULL, 0);
    assert_int_equal(fixture_open(&f), 0);
    assert_int_equal(f.db->key_id, ledger__be32_get(h));
    assert_int_equal(ledger__key_id(sk + 32), f.db->key_id);
    fixture_close(&f);
    fixture_rm(&f);
}

static void test_keys__refuse_overwrite(void **state)
{
    (void)state;
    fixture f;
    fixture_make(&f);
    uint8_t before[64], after[64];
    read_file(f.keys, LEDGER_SIGNING_FILE, before, sizeof before);
    char err[SCHEMA_ERRMSG] = "";
    assert_int_equal(ledger_keygen(f.keys, err), LEDGER_EEXISTS);
    assert_true(strlen(err) > 0);
    read_file(f.keys, LEDGER_SIGNING_FILE, after, sizeof after);
    assert_memory_equal(before, after, sizeof before);
    /* one file alone is enough to refuse */
    char path[256];
    snprintf(path, sizeof path, "%s/%s", f.keys, LEDGER_SIGNING_FILE);
    assert_int_equal(unlink(path), 0);
    assert_int_equal(ledger_keygen(f.keys, NULL), LEDGER_EEXISTS);
    fixture_rm(&f);
}

/* Format 1 (is_signing_events): each event names the key that signed it.
 * Format 2: none does; the head's signed tree head, by the new key once it
 * rotated in, covers the events of both. */
static void rotation_keeps_old_events_verifiable(int is_signing_events)
{
    fixture *f = fixture_new(0);
    char room[SCHEMA_ROOM_CHARS + 1];
    f->db->is_signing_events = is_signing_events;
    room_new(f->db, room);
    assert_int_equal(play(f->db, room, 2), 2);
    uint32_t old_id = f->db->key_id, new_id = 0;
    uint32_t no_id = is_signing_events ? old_id : 0; /* what format 2 decodes */
    codec_event ev;
    assert_int_equal(ledger_event_get(f->db, &ev, room, 1), 0);
    assert_int_equal(ev.key_id, no_id);
    assert_int_equal(ev.has_signature, is_signing_events);
    ledger_append_result first;
    engine_action act;
    uint32_t head;
    assert_true(next_action(f->db, &act, room, &head));
    uint8_t old_sk[LEDGER_SIGN_SECRET_BYTES]; /* a copy an operator kept aside */
    read_file(f->keys, LEDGER_SIGNING_FILE, old_sk, sizeof old_sk);

    assert_int_equal(ledger_key_rotate(f->db, &new_id), 0);
    assert_int_not_equal(new_id, old_id);
    assert_int_equal(f->db->key_id, new_id);
    assert_int_equal(mode_of(f->keys, LEDGER_SIGNING_FILE), 0600);
    /* the retired secret is destroyed: no file of the directory holds it */
    DIR *d = opendir(f->keys);
    assert_non_null(d);
    struct dirent *de;
    size_t n_files = 0;
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.')
            continue;
        char p[512];
        snprintf(p, sizeof p, "%s/%.255s", f->keys, de->d_name);
        size_t len;
        char *bytes = test_slurp(p, &len);
        for (size_t i = 0; i + 32 <= len; i++)
            assert_true(memcmp(bytes + i, old_sk, 32) != 0);
        free(bytes);
        n_files++;
    }
    closedir(d);
    assert_int_equal(n_files, 2); /* signing.key and audit.key */

    assert_int_equal(ledger_append(f->db, &first, room, head, &act), 0);
    assert_int_equal(first.receipt.key_id, new_id);
    assert_int_equal(ledger_event_get(f->db, &ev, room, head + 1), 0);
    assert_int_equal(ev.key_id, is_signing_events ? new_id : 0);
    assert_int_equal(ledger_event_get(f->db, &ev, room, 1), 0);
    assert_int_equal(ev.key_id, no_id);
    assert_int_equal(verify_ok(f->db, room), 0);

    /* the table: the old key retired, the new one active */
    ledger_txn txn;
    uint8_t pk[SCHEMA_KEY_BYTES];
    assert_int_equal(ledger__txn_begin(&txn, f->db, 0), 0);
    uint8_t kbuf[4];
    ledger__be32_put(kbuf, old_id);
    MDB_val k = {4, kbuf}, v;
    assert_int_equal(ledger__get(&txn, f->db->dbi_keys, &k, &v), 0);
    codec_key key;
    assert_int_equal(codec_key_decode(&key, (const uint8_t *)v.mv_data + 1, v.mv_size - 1, NULL),
                     0);
    assert_true(key.retired_at != 0);
    assert_int_equal(ledger__key_public(f->db, &txn, new_id, pk), 0);
    assert_int_equal(ledger__key_public(f->db, &txn, f->db->audit_key_id, pk), LEDGER_ENOTFOUND);
    ledger__txn_abort(&txn);

    /* reopened with the new key file: still all verifiable */
    fixture_close(f);
    assert_int_equal(fixture_open(f), 0);
    assert_int_equal(f->db->key_id, new_id);
    assert_int_equal(verify_ok(f->db, room), 0);
    assert_int_equal(ledger_receipt_check(f->db, &first.receipt), 0);

    /* a copy of the retired key put back in place may not sign again */
    char path[256];
    snprintf(path, sizeof path, "%s/%s", f->keys, LEDGER_SIGNING_FILE);
    fixture_close(f);
    assert_int_equal(unlink(path), 0);
    write_file(f->keys, LEDGER_SIGNING_FILE, old_sk, sizeof old_sk);
    sodium_memzero(old_sk, sizeof old_sk);
    assert_int_equal(fixture_open(f), 0);
    if (next_action(f->db, &act, room, &head)) {
        ledger_append_result res;
        assert_int_equal(ledger_append(f->db, &res, room, head, &act), LEDGER_EKEY);
    }
    char name[SCHEMA_ROOM_CHARS + 1];
    engine_config cfg;
    test_config_six(&cfg);
    assert_int_equal(ledger_room_create(f->db, name, &cfg), LEDGER_EKEY);
    assert_non_null(strstr(ledger_errmsg(f->db), "retired"));
    fixture_free(f);
}

static void test_keys__rotation_keeps_old_events_verifiable(void **state)
{
    (void)state;
    rotation_keeps_old_events_verifiable(1);
}

static void test_keys__rotation_keeps_unsigned_events_verifiable(void **state)
{
    (void)state;
    rotation_keeps_old_events_verifiable(0);
}

static void expect_open_ekey(fixture *f, const char *why)
{
    ledger *db = NULL;
    int rc = ledger_open(&db, &f->opt);
    assert_int_equal(rc, LEDGER_EKEY);
    assert_non_null(db);
    assert_non_null(strstr(ledger_errmsg(db), why));
    ledger_close(db);
}

static void test_keys__wrong_or_corrupt_key_file(void **state)
{
    (void)state;
    fixture f;
    fixture_make(&f);
    uint8_t good[64], bad[64];
    read_file(f.keys, LEDGER_SIGNING_FILE, good, sizeof good);

    write_file(f.keys, LEDGER_SIGNING_FILE, good, 40); /* truncated */
    expect_open_ekey(&f, "40 bytes");
    uint8_t longer[65] = {0};
    write_file(f.keys, LEDGER_SIGNING_FILE, longer, sizeof longer);
    expect_open_ekey(&f, "bytes");
    memcpy(bad, good, sizeof bad);
    bad[40] ^= 1; /* the public half no longer matches the seed */
    write_file(f.keys, LEDGER_SIGNING_FILE, bad, sizeof bad);
    expect_open_ekey(&f, "Ed25519");
    write_file(f.keys, LEDGER_SIGNING_FILE, good, sizeof good);

    uint8_t audit[64];
    read_file(f.keys, LEDGER_AUDIT_FILE, audit, sizeof audit);
    audit[63] ^= 1;
    write_file(f.keys, LEDGER_AUDIT_FILE, audit, sizeof audit);
    expect_open_ekey(&f, "X25519");
    audit[63] ^= 1;
    write_file(f.keys, LEDGER_AUDIT_FILE, audit, sizeof audit);
    assert_int_equal(fixture_open(&f), 0);
    fixture_close(&f);

    /* an unreadable key file (a directory in its place) */
    char path[256];
    snprintf(path, sizeof path, "%s/%s", f.keys, LEDGER_AUDIT_FILE);
    assert_int_equal(unlink(path), 0);
    assert_int_equal(mkdir(path, 0700), 0);
    expect_open_ekey(&f, LEDGER_AUDIT_FILE);
    fixture_rm(&f);
}

static void test_keys__without_keys_read_only_use(void **state)
{
    (void)state;
    fixture *f = fixture_new(0);
    char room[SCHEMA_ROOM_CHARS + 1];
    room_new(f->db, room);
    assert_true(play(f->db, room, 3) >= 1);
    fixture_close(f);

    /* no keys at all: readable, verifiable (without the re-fold), not writable */
    char nokeys[160];
    snprintf(nokeys, sizeof nokeys, "%s/none", f->dir);
    f->opt.keys_dir = nokeys;
    assert_int_equal(fixture_open(f), 0);
    ledger_verify_report rep;
    assert_int_equal(ledger_verify_room(f->db, &rep, room, 2), 0);
    assert_int_equal(rep.is_refolded, 0);
    codec_event ev;
    assert_int_equal(ledger_event_get(f->db, &ev, room, 1), 0);
    engine_action act = ev.action;
    ledger_append_result res;
    uint32_t head;
    assert_int_equal(ledger_head(f->db, room, &head, NULL), 0);
    assert_int_equal(ledger_append(f->db, &res, room, head, &act), LEDGER_EKEY);
    engine_state st;
    assert_int_equal(ledger_state_at(f->db, &st, room, 0), LEDGER_EKEY); /* sealed checkpoint */
    assert_int_equal(ledger_state_at(f->db, &st, room, 1), LEDGER_EKEY); /* needs the seed */
    fixture_close(f);

    /* the seed (and the room key) revealed in `meta` make the re-fold
     * possible again */
    f->opt.keys_dir = f->keys;
    assert_int_equal(fixture_open(f), 0);
    uint8_t seed[ENGINE_SEED_BYTES];
    assert_int_equal(ledger_reveal(f->db, seed, room, 1), 0);
    fixture_close(f);
    f->opt.keys_dir = nokeys;
    assert_int_equal(fixture_open(f), 0);
    assert_int_equal(ledger_verify_room(f->db, &rep, room, 2), 0);
    assert_int_equal(rep.is_refolded, 1);
    assert_int_equal(ledger_state_at(f->db, &st, room, 1), 0);
    fixture_free(f);
}

int main(void)
{
    if (sodium_init() < 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_keys__keygen_modes_and_sizes),
        cmocka_unit_test(test_keys__refuse_overwrite),
        cmocka_unit_test(test_keys__rotation_keeps_old_events_verifiable),
        cmocka_unit_test(test_keys__rotation_keeps_unsigned_events_verifiable),
        cmocka_unit_test(test_keys__wrong_or_corrupt_key_file),
        cmocka_unit_test(test_keys__without_keys_read_only_use),
    };
    return cmocka_run_group_tests_name("ledger_keys", tests, NULL, NULL);
}
