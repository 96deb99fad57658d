/*
 * test_seat_sig.c - seats that sign their own actions: a room whose
 * genesis binds its seats to Ed25519 keys accepts an action of a bound
 * seat only with that seat's signature of (room, version, chain hash,
 * action), stores it, and verify and restore check every one.
 *
 * Real LMDB file, real libsodium keys; the refusals are checked to write
 * nothing (head, events and rejections unchanged), and the forgeries are
 * made the way an operator holding the ledger key would make them.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include "tests/ledger/helpers.h"

typedef struct sfix {
    fixture *f;
    char room[SCHEMA_ROOM_CHARS + 1];  /* all six seats bound */
    char other[SCHEMA_ROOM_CHARS + 1]; /* seats 1..3 bound to the same keys, 4..6 unbound */
    uint8_t sk[ENGINE_MAX_SEATS][LEDGER_SEAT_SECRET_BYTES];
    ledger_seat_keys keys;
} sfix;

static int setup(void **state)
{
    sfix *s = calloc(1, sizeof *s);
    assert_non_null(s);
    s->f = fixture_new(16);
    engine_config cfg;
    test_config_six(&cfg);
    for (unsigned i = 0; i < cfg.n_seats; i++) {
        crypto_sign_keypair(s->keys.key[i], s->sk[i]);
        s->keys.bound |= (uint16_t)(1u << i);
    }
    assert_int_equal(ledger_room_create_bound(s->f->db, s->room, &cfg, NULL, &s->keys), 0);
    ledger_seat_keys half = s->keys;
    half.bound = 0x7;
    assert_int_equal(ledger_room_create_bound(s->f->db, s->other, &cfg, NULL, &half), 0);
    *state = s;
    return 0;
}

static int teardown(void **state)
{
    sfix *s = *state;
    fixture_free(s->f);
    sodium_memzero(s->sk, sizeof s->sk);
    free(s);
    return 0;
}

/* The next action of room and the version it acts on, signed by its seat's key. */
static void next_signed(sfix *s, const char *room, engine_action *act, uint32_t *head,
                        uint8_t sig[SCHEMA_SIG_BYTES])
{
    uint8_t prev[SCHEMA_HASH_BYTES];
    assert_true(next_action(s->f->db, act, room, head));
    assert_true(act->seat < ENGINE_MAX_SEATS);
    assert_int_equal(ledger_chain_hash(s->f->db, prev, room, *head), 0);
    assert_int_equal(ledger_seat_sign(sig, s->sk[act->seat], room, *head, prev, act), 0);
}

/* Appends n signed actions to room. */
static void play_signed(sfix *s, const char *room, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        engine_action act;
        uint32_t head;
        uint8_t sig[SCHEMA_SIG_BYTES];
        next_signed(s, room, &act, &head, sig);
        ledger_append_result res;
        int rc = ledger_append_signed(s->f->db, &res, room, head, &act, sig);
        if (rc != 0)
            fprintf(stderr, "append: %s\n", ledger_errmsg(s->f->db));
        assert_int_equal(rc, 0);
        assert_int_equal(res.verdict, ENGINE_ACCEPTED);
    }
}

/* The append is refused with LEDGER_EINPUT naming `why`, and nothing of
 * the room changed: not its head, not its events, not its rejections. */
static void expect_refused(sfix *s, const char *room, uint32_t head, const engine_action *act,
                           const uint8_t *sig, const char *why)
{
    room_mark before, after;
    room_mark_get(s->f->db, &before, room);
    ledger_append_result res;
    int rc = ledger_append_signed(s->f->db, &res, room, head, act, sig);
    assert_int_equal(rc, LEDGER_EINPUT);
    if (strstr(ledger_errmsg(s->f->db), why) == NULL)
        fprintf(stderr, "expected \"%s\" in: %s\n", why, ledger_errmsg(s->f->db));
    assert_non_null(strstr(ledger_errmsg(s->f->db), why));
    assert_non_null(strstr(ledger_errmsg(s->f->db), "nothing written"));
    assert_null(strchr(ledger_errmsg(s->f->db), '\n'));
    room_mark_get(s->f->db, &after, room);
    assert_int_equal(after.version, before.version);
    assert_memory_equal(after.hash, before.hash, sizeof after.hash);
    assert_int_equal(after.n_rejections, before.n_rejections);
}

static void test_seat_sig__signed_actions_stored_and_verified(void **state)
{
    sfix *s = *state;
    play_signed(s, s->room, 20);
    ledger_seat_keys got;
    assert_int_equal(ledger_room_seat_keys(s->f->db, &got, s->room), 0);
    assert_int_equal(got.bound, s->keys.bound);
    assert_memory_equal(got.key, s->keys.key, sizeof got.key);
    for (uint32_t v = 1; v <= 20; v++) {
        codec_event ev;
        assert_int_equal(ledger_event_get(s->f->db, &ev, s->room, v), 0);
        if (ev.seat == ENGINE_SEAT_ENGINE) {
            assert_false(ev.has_seat_signature);
            continue;
        }
        assert_true(ev.has_seat_signature);
        uint8_t msg[LEDGER_SEAT_MESSAGE_MAX];
        size_t len = ledger_seat_message(msg, s->room, v - 1, ev.prev_hash, &ev.action);
        assert_true(len > 0);
        /* Anyone with the genesis checks it with libsodium alone. */
        assert_int_equal(crypto_sign_verify_detached(ev.seat_signature, msg, len,
                                                     s->keys.key[ev.seat]),
                         0);
    }
    for (unsigned threads = 1; threads <= 2; threads++) {
        ledger_verify_report rep;
        assert_int_equal(ledger_verify_room(s->f->db, &rep, s->room, threads), 0);
        assert_int_equal(rep.n_events, 20);
        assert_int_equal(rep.n_seat_signatures, 20);
    }
}

static void test_seat_sig__refusals_write_nothing(void **state)
{
    sfix *s = *state;
    play_signed(s, s->room, 3);
    engine_action act;
    uint32_t head;
    uint8_t sig[SCHEMA_SIG_BYTES], prev[SCHEMA_HASH_BYTES], bad[SCHEMA_SIG_BYTES];
    next_signed(s, s->room, &act, &head, sig);
    uint8_t seat = act.seat;

    /* Missing. */
    expect_refused(s, s->room, head, &act, NULL, "carries no seat signature");
    /* Wrong: another seat's key, a key the room does not know, a bit flipped. */
    uint8_t other_seat = (uint8_t)((seat + 1) % 6);
    assert_int_equal(ledger_chain_hash(s->f->db, prev, s->room, head), 0);
    assert_int_equal(ledger_seat_sign(bad, s->sk[other_seat], s->room, head, prev, &act), 0);
    expect_refused(s, s->room, head, &act, bad, "is seat");
    uint8_t rogue_pk[SCHEMA_KEY_BYTES], rogue_sk[LEDGER_SEAT_SECRET_BYTES];
    crypto_sign_keypair(rogue_pk, rogue_sk);
    assert_int_equal(ledger_seat_sign(bad, rogue_sk, s->room, head, prev, &act), 0);
    expect_refused(s, s->room, head, &act, bad, "does not sign this action");
    memcpy(bad, sig, sizeof bad);
    bad[17] ^= 0x40;
    expect_refused(s, s->room, head, &act, bad, "does not sign this action");
    /* For another room (the same seat's key there), another version. */
    uint8_t other_prev[SCHEMA_HASH_BYTES];
    assert_int_equal(ledger_chain_hash(s->f->db, other_prev, s->other, 0), 0);
    assert_int_equal(ledger_seat_sign(bad, s->sk[seat], s->other, 0, other_prev, &act), 0);
    expect_refused(s, s->room, head, &act, bad, "does not sign this action");
    assert_int_equal(ledger_seat_sign(bad, s->sk[seat], s->room, head + 1, prev, &act), 0);
    expect_refused(s, s->room, head, &act, bad, "does not sign this action");
    /* For another seat's action: the same move signed as another seat's. */
    engine_action as_other = act;
    as_other.seat = other_seat;
    assert_int_equal(ledger_seat_sign(bad, s->sk[seat], s->room, head, prev, &as_other), 0);
    expect_refused(s, s->room, head, &act, bad, "does not sign this action");
    /* For another action. */
    engine_action changed = act;
    changed.kind = (uint8_t)(act.kind == 1 ? 2 : 1);
    memset(changed.arg, 0, sizeof changed.arg);
    assert_int_equal(ledger_seat_sign(bad, s->sk[seat], s->room, head, prev, &changed), 0);
    expect_refused(s, s->room, head, &act, bad, "does not sign this action");

    /* The good one is accepted; its retry carries the very signature. */
    ledger_append_result res;
    assert_int_equal(ledger_append_signed(s->f->db, &res, s->room, head, &act, sig), 0);
    assert_int_equal(res.verdict, ENGINE_ACCEPTED);
    assert_int_equal(ledger_append_signed(s->f->db, &res, s->room, head, &act, sig), 0);
    assert_true(res.is_retry);
    expect_refused(s, s->room, head, &act, NULL, "carries no seat signature");
    /* Replayed: the signature of version head used again at head + 1. */
    expect_refused(s, s->room, head + 1, &act, sig, "does not sign this action");
    /* An automatic step never carries one. */
    engine_action eng;
    memset(&eng, 0, sizeof eng);
    eng.kind = act.kind;
    eng.seat = ENGINE_SEAT_ENGINE;
    expect_refused(s, s->room, head + 1, &eng, sig, "automatic step");
    assert_int_equal(verify_ok(s->f->db, s->room), 0);
    sodium_memzero(rogue_sk, sizeof rogue_sk);
}

/* In a room binding seats 1..3, seats 4..6 act unsigned, and are refused
 * a signature; an unbound room takes no signature at all. */
static void test_seat_sig__unbound_seats_carry_none(void **state)
{
    sfix *s = *state;
    char plain[SCHEMA_ROOM_CHARS + 1];
    room_new(s->f->db, plain);
    engine_action act;
    uint32_t head;
    uint8_t sig[SCHEMA_SIG_BYTES];
    next_signed(s, plain, &act, &head, sig);
    expect_refused(s, plain, head, &act, sig, "is not bound to a key");
    assert_int_equal(play(s->f->db, plain, 5), 5);
    unsigned n_unsigned = 0, n_signed = 0;
    for (unsigned i = 0; i < 40; i++) {
        next_signed(s, s->other, &act, &head, sig);
        ledger_append_result res;
        if (act.seat >= 3) {
            expect_refused(s, s->other, head, &act, sig, "is not bound to a key");
            assert_int_equal(ledger_append(s->f->db, &res, s->other, head, &act), 0);
            n_unsigned++;
        } else {
            expect_refused(s, s->other, head, &act, NULL, "carries no seat signature");
            assert_int_equal(ledger_append_signed(s->f->db, &res, s->other, head, &act, sig), 0);
            n_signed++;
        }
        assert_int_equal(res.verdict, ENGINE_ACCEPTED);
    }
    assert_true(n_unsigned > 0 && n_signed > 0);
    ledger_verify_report rep;
    assert_int_equal(ledger_verify_room(s->f->db, &rep, s->other, 2), 0);
    assert_int_equal(rep.n_seat_signatures, n_signed);
    assert_int_equal(verify_ok(s->f->db, plain), 0);
}

static void flip_seat_sig(ledger *db, const char *room, codec_event *ev)
{
    (void)db;
    (void)room;
    assert_true(ev->has_seat_signature);
    ev->seat_signature[5] ^= 1;
}

/* The operator, with the ledger's key but not the seat's: signs the seat
 * message with a key of its own and the event with the ledger key. */
static void forge_seat_sig(ledger *db, const char *room, codec_event *ev)
{
    uint8_t pk[SCHEMA_KEY_BYTES], sk[LEDGER_SEAT_SECRET_BYTES];
    uint8_t canon[LEDGER_EVENT_CANONICAL_MAX];
    crypto_sign_keypair(pk, sk);
    assert_int_equal(ledger_seat_sign(ev->seat_signature, sk, room, ev->version - 1,
                                      ev->prev_hash, &ev->action),
                     0);
    size_t len = ledger__event_canonical(canon, room, ev);
    assert_true(len > 0);
    if (ev->has_signature) /* format 1; format 2 has no signature of its own to make */
        assert_int_equal(ledger__sign(db, ev->signature, canon, len), 0);
    sodium_memzero(sk, sizeof sk);
}

static void expect_bad_at(ledger *db, const char *room, uint32_t version, const char *why)
{
    for (unsigned threads = 1; threads <= 2; threads++) {
        ledger_verify_report rep;
        int rc = ledger_verify_room(db, &rep, room, threads);
        if (rc != LEDGER_EBADSIG || rep.bad_version != version)
            fprintf(stderr, "rc %d at %u: %s\n", rc, rep.bad_version, rep.reason);
        assert_int_equal(rc, LEDGER_EBADSIG);
        assert_int_equal(rep.bad_version, version);
        if (why != NULL)
            assert_non_null(strstr(rep.reason, why));
    }
}

static void forged_and_altered_fail(sfix *s, int is_signing_events)
{
    s->f->db->is_signing_events = is_signing_events;
    play_signed(s, s->room, 12);
    /* The operator cannot append for a bound seat: unsigned, or signed by
     * a key of its own, it is refused. */
    engine_action act;
    uint32_t head;
    uint8_t sig[SCHEMA_SIG_BYTES];
    next_signed(s, s->room, &act, &head, sig);
    expect_refused(s, s->room, head, &act, NULL, "carries no seat signature");
    /* A seat signature altered in the file: the event fails verify. */
    uint32_t v = 5;
    codec_event ev;
    assert_int_equal(ledger_event_get(s->f->db, &ev, s->room, v), 0);
    assert_true(ev.has_seat_signature);
    event_raw_edit(s->f->db, s->room, v, flip_seat_sig);
    expect_bad_at(s->f->db, s->room, v, NULL);
    /* Re-signed by the ledger key around a seat signature it made up
     * (format 1): the ledger's signature holds and only the seat's fails.
     * Format 2: the head's signed tree no longer holds the event either. */
    event_raw_edit(s->f->db, s->room, v, forge_seat_sig);
    assert_int_equal(ledger_event_get(s->f->db, &ev, s->room, v),
                     is_signing_events ? 0 : LEDGER_EBADSIG);
    expect_bad_at(s->f->db, s->room, v, "does not sign this action");
}

static void test_seat_sig__forged_and_altered_fail(void **state)
{
    forged_and_altered_fail(*state, 1);
}

static void test_seat_sig__forged_and_altered_fail_unsigned(void **state)
{
    forged_and_altered_fail(*state, 0);
}

/* An archive of a bound room restores elsewhere with its seat signatures
 * checked (those of sealed actions where the room key can be opened);
 * one whose seat signature was forged is refused whole. */
static void test_seat_sig__restore_checks_seat_signatures(void **state)
{
    sfix *s = *state;
    play_signed(s, s->room, 10);
    char archive[256];
    snprintf(archive, sizeof archive, "%s/bound.mentat-archive", s->f->dir);
    assert_int_equal(ledger_backup_room(s->f->db, s->room, archive), 0);
    fixture *g = fixture_new(16);
    ledger_restore_report rep;
    assert_int_equal(ledger_restore(g->db, &rep, archive, 1), 0);
    assert_int_equal(rep.n_events, 10);
    assert_int_equal(verify_ok(g->db, s->room), 0);
    fixture_free(g);

    event_raw_edit(s->f->db, s->room, 4, forge_seat_sig);
    char forged[256];
    snprintf(forged, sizeof forged, "%s/forged.mentat-archive", s->f->dir);
    assert_int_equal(ledger_backup_room(s->f->db, s->room, forged), 0);
    /* Event 4 (a traitor pick) is sealed: a host with the room's audit key
     * opens it and checks its seat signature. */
    g = fixture_new_with_keys(16, s->f->keys);
    int rc = ledger_restore(g->db, &rep, forged, 1);
    assert_int_equal(rc, LEDGER_EBADSIG);
    assert_non_null(strstr(ledger_errmsg(g->db), "archive event 4"));
    ledger_room_info info;
    assert_int_equal(ledger_room_info_get(g->db, &info, s->room), LEDGER_ENOTFOUND);
    fixture_free(g);
}

static void test_seat_sig__binding_refusals(void **state)
{
    sfix *s = *state;
    engine_config cfg;
    test_config_six(&cfg);
    char room[SCHEMA_ROOM_CHARS + 1];
    ledger_seat_keys k = s->keys;
    k.bound = 1u << 6; /* past the six seats */
    assert_int_equal(ledger_room_create_bound(s->f->db, room, &cfg, NULL, &k), LEDGER_EINPUT);
    k = s->keys;
    memcpy(k.key[2], k.key[1], SCHEMA_KEY_BYTES);
    assert_int_equal(ledger_room_create_bound(s->f->db, room, &cfg, NULL, &k), LEDGER_EINPUT);
    assert_non_null(strstr(ledger_errmsg(s->f->db), "same key"));
    k = s->keys;
    memset(k.key[0], 0, SCHEMA_KEY_BYTES);
    assert_int_equal(ledger_room_create_bound(s->f->db, room, &cfg, NULL, &k), LEDGER_EINPUT);
}

/* Key files: keygen refuses to overwrite, the secret is 0600, the public
 * file reads back as the same key, and a damaged secret is refused. */
static void test_seat_sig__key_files(void **state)
{
    sfix *s = *state;
    char path[256], pub[300], err[SCHEMA_ERRMSG];
    snprintf(path, sizeof path, "%s/alice.seat", s->f->dir);
    snprintf(pub, sizeof pub, "%s.pub", path);
    uint8_t pk[SCHEMA_KEY_BYTES], pk2[SCHEMA_KEY_BYTES], sk[LEDGER_SEAT_SECRET_BYTES];
    assert_int_equal(ledger_seat_keygen(pk, path, err), 0);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600);
    assert_int_equal(ledger_seat_keygen(pk2, path, err), LEDGER_EEXISTS);
    assert_int_equal(ledger_seat_public_load(pk2, pub, err), 0);
    assert_memory_equal(pk, pk2, sizeof pk);
    assert_int_equal(ledger_seat_key_load(sk, pk2, path, err), 0);
    assert_memory_equal(pk, pk2, sizeof pk);
    assert_int_equal(ledger_seat_public_load(pk2, path, err), LEDGER_EKEY); /* a secret is no public key */
    assert_int_equal(ledger_seat_key_load(sk, pk2, pub, err), LEDGER_EKEY);
    /* byte 40 changed to another character (never to the one it holds) */
    FILE *fp = fopen(path, "r+b");
    assert_non_null(fp);
    assert_int_equal(fseek(fp, 40, SEEK_SET), 0);
    int was = fgetc(fp);
    assert_true(was != EOF);
    int now = was == 'x' ? 'y' : 'x';
    assert_int_equal(fseek(fp, 40, SEEK_SET), 0);
    assert_int_equal(fputc(now, fp), now);
    assert_int_equal(fclose(fp), 0);
    assert_int_equal(ledger_seat_key_load(sk, pk2, path, err), LEDGER_EKEY);
    assert_non_null(strstr(err, "no seat key"));
    sodium_memzero(sk, sizeof sk);
}

int main(void)
{
    if (sodium_init() < 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_seat_sig__signed_actions_stored_and_verified, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_seat_sig__refusals_write_nothing, setup, teardown),
        cmocka_unit_test_setup_teardown(test_seat_sig__unbound_seats_carry_none, setup, teardown),
        cmocka_unit_test_setup_teardown(test_seat_sig__forged_and_altered_fail, setup, teardown),
        cmocka_unit_test_setup_teardown(test_seat_sig__forged_and_altered_fail_unsigned, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_seat_sig__restore_checks_seat_signatures, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_seat_sig__binding_refusals, setup, teardown),
        cmocka_unit_test_setup_teardown(test_seat_sig__key_files, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
