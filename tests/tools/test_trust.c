/*
 * test_trust.c - what lets others check a room without trusting its
 * operator, through the `mentat` command: seat-signed actions (`seat
 * keygen`, `room create --seat-keys`, `act --seat-key`, `play --seat-key`, `verify` of every
 * seat signature, `games` binding its bots' keys), the audit of a revealed
 * room from its archive alone on another host, signed audit reports
 * (`audit --json --sign`, `verify --report`), a refused action's
 * secrets sealed without the audit key (`log --rejections`), a room's
 * states sealed until its reveal, and rooms moved to another host's audit
 * key (`room reseal`, `key audit-pub`).
 *
 * Runs the real binary in a fresh temporary directory; legal actions are
 * found in-process through the public APIs. Each refusal is checked for
 * its exit status (2), its one-line reason and that nothing was written.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#include "engine/engine.h"
#include "ledger/ledger.h"
#include "schema/schema.h"
#include "tools/internal.h"
#include "tests/support/support.h"

typedef struct seat_fixture {
    char dir[PATH_MAX];
    char old_cwd[PATH_MAX];
} seat_fixture;

static char mentat_bin[PATH_MAX];

/* Runs mentat with args (NULL-terminated), expects `status`; r keeps the output. */
static void expect(int status, test_run_result *r, const char *const *args)
{
    int got = test_run_argv(r, mentat_bin, ".seat-out", ".seat-err", args);
    if (got != status)
        print_error("%s: exit %d, expected %d\nstdout: %s\nstderr: %s\n", args[0], got, status,
                    r->out, r->err);
    assert_int_equal(got, status);
}

/* A refusal: exit 2 with one line on stderr holding `why`. */
static void expect_refused(const char *const *args, const char *why)
{
    test_run_result r;
    expect(2, &r, args);
    if (strstr(r.err, why) == NULL)
        print_error("expected \"%s\" in: %s\n", why, r.err);
    assert_non_null(strstr(r.err, why));
    const char *nl = strchr(r.err, '\n');
    assert_non_null(nl);
    assert_int_equal(nl[1], '\0');
    test_run_free(&r);
}

static ledger *open_with(const char *path, int is_read_only)
{
    ledger_options opt;
    ledger_options_init(&opt);
    opt.path = path;
    opt.keys_dir = "mentat.keys";
    opt.is_read_only = is_read_only;
    ledger *db = NULL;
    assert_int_equal(ledger_open(&db, &opt), 0);
    return db;
}

static ledger *open_ro(const char *path)
{
    return open_with(path, 1);
}

/* The room's head version and a legal action there as JSON, its seat 1-based. */
static uint32_t pick(char json[512], char seat[8], engine_action *act, const char *room)
{
    ledger *db = open_ro("mentat.db");
    uint32_t version;
    assert_int_equal(ledger_head(db, room, &version, NULL), 0);
    static engine_state st;
    assert_int_equal(ledger_state_at(db, &st, room, version), 0);
    ledger_close(db);
    static engine_legal legal[ENGINE_LEGAL_MAX];
    size_t n = engine_legal_actions(legal, ENGINE_LEGAL_MAX, &st, ENGINE_SEAT_ENGINE);
    assert_true(n > 0);
    tool_prng prng;
    tool_prng_init(&prng, version + 1);
    assert_int_equal(tool_action_draw(act, &legal[0], &prng), 0);
    assert_int_equal(codec_action_to_json(json, 512, act), 0);
    snprintf(seat, 8, "%u", act->seat + 1u);
    return version;
}

static uint32_t head_of(const char *room)
{
    ledger *db = open_ro("mentat.db");
    uint32_t version;
    assert_int_equal(ledger_head(db, room, &version, NULL), 0);
    ledger_close(db);
    return version;
}

/* The ledger's keys, in the fixture's directory. */
static void make_ledger_keys(void)
{
    test_run_result r;
    const char *kg[] = {"keygen", NULL};
    expect(0, &r, kg);
    test_run_free(&r);
}

static void seat_keygen(const char *out, char hex[2 * SCHEMA_KEY_BYTES + 1])
{
    test_run_result r;
    const char *args[] = {"seat", "keygen", "--out", out, NULL};
    expect(0, &r, args);
    assert_int_equal(strlen(r.out), 2 * SCHEMA_KEY_BYTES + 1);
    memcpy(hex, r.out, (size_t)2 * SCHEMA_KEY_BYTES);
    hex[(size_t)2 * SCHEMA_KEY_BYTES] = '\0';
    test_run_free(&r);
}

static void test_trust__keygen_files_and_refusals(void **state)
{
    (void)state;
    char hex[2 * SCHEMA_KEY_BYTES + 1];
    seat_keygen("a.seat", hex);
    struct stat st;
    assert_int_equal(stat("a.seat", &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600);
    assert_int_equal(st.st_size, 64);
    size_t len = 0;
    char *pub = test_slurp("a.seat.pub", &len);
    assert_non_null(pub);
    assert_int_equal(len, 2 * SCHEMA_KEY_BYTES + 1);
    assert_memory_equal(pub, hex, (size_t)2 * SCHEMA_KEY_BYTES);
    free(pub);
    char *before = test_slurp("a.seat", &len);
    const char *again[] = {"seat", "keygen", "--out", "a.seat", NULL};
    expect_refused(again, "refusing to overwrite");
    char *after = test_slurp("a.seat", &len);
    assert_memory_equal(before, after, 64);
    free(before);
    free(after);
    const char *no_out[] = {"seat", "keygen", NULL};
    expect_refused(no_out, "--out FILE");
    const char *bad_sub[] = {"seat", "make", "--out", "x.seat", NULL};
    expect_refused(bad_sub, "unknown subcommand");
    assert_int_not_equal(access("x.seat", F_OK), 0);
    test_run_result r;
    const char *json[] = {"seat", "keygen", "--out", "j.seat", "--json", NULL};
    expect(0, &r, json);
    assert_non_null(strstr(r.out, "\"public_key\""));
    assert_null(strstr(r.out, "secret_key\":")); /* the file's name only, never the key */
    test_run_free(&r);
}

/* Two seats bound, then: unsigned, wrongly signed and stale-signed acts
 * refused with nothing written; the right key accepted; verify counts it;
 * a seat signature altered in the file fails verify. */
/* The ledger's keys and two seat key pairs, a.seat and b.seat. */
static void keys_and_two_seats(char a[2 * SCHEMA_KEY_BYTES + 1], char b[2 * SCHEMA_KEY_BYTES + 1])
{
    make_ledger_keys();
    seat_keygen("a.seat", a);
    seat_keygen("b.seat", b);
}

static void test_trust__bound_room_through_the_command(void **state)
{
    (void)state;
    test_run_result r;
    char a[2 * SCHEMA_KEY_BYTES + 1], b[2 * SCHEMA_KEY_BYTES + 1];
    keys_and_two_seats(a, b);

    const char *bad1[] = {"room", "create", "--players", "2", "--factions", "atreides,harkonnen",
                          "--rules", "basic", "--seat-keys", "3=a.seat.pub", NULL};
    expect_refused(bad1, "--seat-keys");
    const char *bad2[] = {"room", "create", "--players", "2", "--factions", "atreides,harkonnen",
                          "--rules", "basic", "--seat-keys", "1=a.seat", NULL};
    expect_refused(bad2, "no seat public key");
    const char *bad3[] = {"room", "create", "--players", "2", "--factions", "atreides,harkonnen",
                          "--rules", "basic", "--seat-keys", "1=a.seat.pub,atreides=b.seat.pub",
                          NULL};
    expect_refused(bad3, "two keys");
    const char *bad4[] = {"room", "create", "--players", "2", "--factions", "atreides,harkonnen",
                          "--rules", "basic", "--seat-keys", "1=a.seat.pub,2=a.seat.pub", NULL};
    expect_refused(bad4, "same key");
    const char *create[] = {"room", "create", "--players", "2", "--factions",
                            "atreides,harkonnen", "--rules", "basic", "--seat-keys",
                            "1=a.seat.pub,harkonnen=b.seat.pub", NULL};
    expect(0, &r, create);
    char room[SCHEMA_ROOM_CHARS + 1];
    assert_int_equal(strlen(r.out), SCHEMA_ROOM_CHARS + 1);
    memcpy(room, r.out, SCHEMA_ROOM_CHARS);
    room[SCHEMA_ROOM_CHARS] = '\0';
    test_run_free(&r);
    ledger *db = open_ro("mentat.db");
    ledger_seat_keys keys;
    assert_int_equal(ledger_room_seat_keys(db, &keys, room), 0);
    ledger_close(db);
    assert_int_equal(keys.bound, 0x3);

    for (unsigned i = 0; i < 4; i++) {
        char json[512], seat[8], version[16];
        engine_action act;
        uint32_t v = pick(json, seat, &act, room);
        snprintf(version, sizeof version, "%u", v);
        const char *own = act.seat == 0 ? "a.seat" : "b.seat";
        const char *other = act.seat == 0 ? "b.seat" : "a.seat";
        const char *unsigned_act[] = {"act", room, "--seat", seat, "--version", version,
                                      "--action", json, NULL};
        expect_refused(unsigned_act, "carries no seat signature");
        const char *wrong[] = {"act", room, "--seat", seat, "--version", version, "--action",
                               json, "--seat-key", other, NULL};
        expect_refused(wrong, "not seat");
        const char *missing[] = {"act", room, "--seat", seat, "--version", version, "--action",
                                 json, "--seat-key", "nothing.seat", NULL};
        expect_refused(missing, "--seat-key");
        assert_int_equal(head_of(room), v);
        const char *good[] = {"act", room, "--seat", seat, "--version", version, "--action",
                              json, "--seat-key", own, NULL};
        expect(0, &r, good);
        assert_non_null(strstr(r.out, "accepted"));
        test_run_free(&r);
        assert_int_equal(head_of(room), v + 1);
    }

    const char *verify[] = {"verify", room, "--json", NULL};
    expect(0, &r, verify);
    assert_non_null(strstr(r.out, "\"n_seat_signatures\":4"));
    test_run_free(&r);

    /* Flip one bit of version 2's seat signature wherever it lies in the
     * file (LMDB's copy-on-write leaves older copies in free pages). */
    db = open_ro("mentat.db");
    codec_event ev;
    assert_int_equal(ledger_event_get(db, &ev, room, 2), 0);
    ledger_close(db);
    assert_true(ev.has_seat_signature);
    size_t len = 0, n_found = 0;
    uint8_t *file = (uint8_t *)test_slurp("mentat.db", &len);
    assert_non_null(file);
    for (size_t i = 0; i + SCHEMA_SIG_BYTES <= len; i++)
        if (memcmp(file + i, ev.seat_signature, SCHEMA_SIG_BYTES) == 0) {
            file[i + 9] ^= 0x10;
            n_found++;
        }
    assert_true(n_found > 0);
    FILE *fp = fopen("mentat.db", "wb");
    assert_non_null(fp);
    assert_int_equal(fwrite(file, 1, len, fp), len);
    assert_int_equal(fclose(fp), 0);
    free(file);
    const char *verify_text[] = {"verify", room, NULL};
    expect(1, &r, verify_text);
    assert_non_null(strstr(r.out, "BAD at version 2"));
    test_run_free(&r);
}

/* `mentat act --seat-key FILE --bind`: a room created with no seat bound;
 * each seat's first action binds it to its key, after which its actions
 * need that key; --bind without a key, a second binding and a key another
 * seat holds are refused in one line, nothing written; verify counts them. */
static void test_trust__act_binds_a_joining_seat(void **state)
{
    (void)state;
    test_run_result r;
    char a[2 * SCHEMA_KEY_BYTES + 1], b[2 * SCHEMA_KEY_BYTES + 1];
    keys_and_two_seats(a, b);
    const char *create[] = {"room", "create", "--players", "2", "--factions",
                            "atreides,harkonnen", "--rules", "basic", NULL};
    expect(0, &r, create);
    char room[SCHEMA_ROOM_CHARS + 1];
    memcpy(room, r.out, SCHEMA_ROOM_CHARS);
    room[SCHEMA_ROOM_CHARS] = '\0';
    test_run_free(&r);

    unsigned n_signed = 0, n_binds = 0;
    for (unsigned i = 0; i < 6; i++) {
        char json[512], seat[8], version[16];
        engine_action act;
        uint32_t v = pick(json, seat, &act, room);
        snprintf(version, sizeof version, "%u", v);
        if (act.seat == ENGINE_SEAT_ENGINE)
            continue;
        const char *own = act.seat == 0 ? "a.seat" : "b.seat";
        const char *other = act.seat == 0 ? "b.seat" : "a.seat";
        ledger *db = open_ro("mentat.db");
        ledger_seat_keys keys;
        assert_int_equal(ledger_room_seat_keys(db, &keys, room), 0);
        ledger_close(db);
        int is_bound = keys.bound >> act.seat & 1;
        const char *no_key[] = {"act", room, "--seat", seat, "--version", version, "--action",
                                json, "--bind", NULL};
        expect_refused(no_key, "--bind");
        if (!is_bound && (keys.bound & ~(1u << act.seat)) != 0) {
            /* The other seat joined with `other`: it binds no second seat. */
            const char *taken[] = {"act", room, "--seat", seat, "--version", version,
                                   "--action", json, "--seat-key", other, "--bind", NULL};
            expect_refused(taken, "already seat");
        }
        if (is_bound) {
            const char *again[] = {"act", room, "--seat", seat, "--version", version,
                                   "--action", json, "--seat-key", own, "--bind", NULL};
            expect_refused(again, "already bound");
            const char *bare[] = {"act", room, "--seat", seat, "--version", version,
                                  "--action", json, NULL};
            expect_refused(bare, "carries no seat signature");
        }
        assert_int_equal(head_of(room), v);
        const char *bind[] = {"act", room, "--seat", seat, "--version", version, "--action",
                              json, "--seat-key", own, "--bind", "--json", NULL};
        const char *signed_act[] = {"act", room, "--seat", seat, "--version", version,
                                    "--action", json, "--seat-key", own, NULL};
        expect(0, &r, is_bound ? signed_act : bind);
        assert_non_null(strstr(r.out, "accepted"));
        test_run_free(&r);
        n_binds += !is_bound;
        n_signed++;
        assert_int_equal(head_of(room), v + 1);
    }
    assert_int_equal(n_binds, 2);
    const char *verify[] = {"verify", room, "--json", NULL};
    expect(0, &r, verify);
    char want[64];
    snprintf(want, sizeof want, "\"n_seat_signatures\":%u,", n_signed);
    assert_non_null(strstr(r.out, want));
    test_run_free(&r);
}

/* `mentat play` acts for every seat, so each seat a room binds needs its
 * key (--seat-key, a list): without one, or with a key of no seat, it
 * refuses before anything is written; with them, every action is signed
 * by its own seat and verify counts one seat signature an event. */
static void test_trust__play_signs_bound_seats(void **state)
{
    (void)state;
    test_run_result r;
    make_ledger_keys();
    char a[2 * SCHEMA_KEY_BYTES + 1], b[2 * SCHEMA_KEY_BYTES + 1], c[2 * SCHEMA_KEY_BYTES + 1];
    seat_keygen("a.seat", a);
    seat_keygen("b.seat", b);
    seat_keygen("c.seat", c);
    const char *create[] = {"room", "create", "--players", "2", "--factions",
                            "atreides,harkonnen", "--rules", "basic", "--seat-keys",
                            "1=a.seat.pub,2=b.seat.pub", NULL};
    expect(0, &r, create);
    char room[SCHEMA_ROOM_CHARS + 1];
    memcpy(room, r.out, SCHEMA_ROOM_CHARS);
    room[SCHEMA_ROOM_CHARS] = '\0';
    test_run_free(&r);

    const char *none[] = {"play", room, "--seed", "3", "--max-actions", "20", NULL};
    expect_refused(none, "seat 1 (atreides) is bound to a key");
    const char *half[] = {"play", room, "--seed", "3", "--max-actions", "20", "--seat-key",
                          "a.seat", NULL};
    expect_refused(half, "seat 2 (harkonnen) is bound to a key");
    const char *foreign[] = {"play", room, "--seed", "3", "--seat-key", "a.seat,c.seat", NULL};
    expect_refused(foreign, "c.seat is the key of no seat");
    const char *twice[] = {"play", room, "--seed", "3", "--seat-key", "a.seat,a.seat", NULL};
    expect_refused(twice, "two keys");
    const char *human[] = {"play", room, "--seat", "1", "--bots", "easy", "--seat-key",
                           "a.seat", NULL};
    expect_refused(human, "seat 2 (harkonnen) is bound to a key");
    assert_int_equal(head_of(room), 0);

    const char *play[] = {"play", room, "--seed", "3", "--max-actions", "25", "--seat-key",
                          "b.seat,a.seat", NULL};
    expect(0, &r, play);
    assert_non_null(strstr(r.out, "25 actions accepted"));
    test_run_free(&r);
    assert_int_equal(head_of(room), 25);
    const char *verify[] = {"verify", room, "--json", NULL};
    expect(0, &r, verify);
    assert_non_null(strstr(r.out, "\"n_seat_signatures\":25"));
    test_run_free(&r);
}

/* Every bot game binds its seats and signs every seat's action. */
static void test_trust__games_bind_their_bots(void **state)
{
    (void)state;
    test_run_result r;
    make_ledger_keys();
    const char *games[] = {"games", "--players", "3", "--rules", "basic", "--games", "2",
                           "--seed", "11", "--jobs", "2", "--turns", "1", "--continuations",
                           "1", NULL};
    expect(0, &r, games);
    test_run_free(&r);
    ledger_verify_report rep;
    char rooms[2][SCHEMA_ROOM_CHARS + 1];
    unsigned n = 0;
    const char *list[] = {"room", "list", "--json", NULL};
    expect(0, &r, list);
    for (const char *p = r.out; (p = strstr(p, "\"room\":\"")) != NULL && n < 2; p += 8) {
        memcpy(rooms[n], p + 8, SCHEMA_ROOM_CHARS);
        rooms[n++][SCHEMA_ROOM_CHARS] = '\0';
    }
    test_run_free(&r);
    assert_int_equal(n, 2);
    ledger *db = open_ro("mentat.db");
    for (unsigned i = 0; i < n; i++) { /* every seat bound, every seat's event signed */
        ledger_seat_keys keys;
        assert_int_equal(ledger_room_seat_keys(db, &keys, rooms[i]), 0);
        assert_int_equal(keys.bound, 0x7);
        assert_int_equal(ledger_verify_room(db, &rep, rooms[i], 2), 0);
        assert_true(rep.n_events > 0);
        unsigned n_seat = 0;
        for (uint32_t v = 1; v <= rep.n_events; v++) {
            codec_event ev;
            assert_int_equal(ledger_event_get(db, &ev, rooms[i], v), 0);
            assert_int_equal(ev.has_seat_signature, ev.seat != ENGINE_SEAT_ENGINE);
            n_seat += ev.has_seat_signature != 0;
        }
        assert_int_equal(rep.n_seat_signatures, n_seat);
    }
    ledger_close(db);
}

/* Another host: its own directory and keys, the room restored from its
 * archive alone (the archive's keys trusted: they are the room's). */
static void other_host(const char *archive)
{
    test_run_result r;
    assert_int_equal(mkdir("other", 0700), 0);
    assert_int_equal(chdir("other"), 0);
    make_ledger_keys();
    const char *restore[] = {"restore", archive, "--trust-keys", NULL};
    expect(0, &r, restore);
    test_run_free(&r);
}

/* Plays one short bot game; its room code into room. */
/* A bots' game of `turns` turns from seed, in a ledger of its own. */
static void game_of(char room[SCHEMA_ROOM_CHARS + 1], const char *seed, const char *turns)
{
    test_run_result r;
    make_ledger_keys();
    const char *games[] = {"games", "--players", "2", "--factions", "atreides,harkonnen",
                           "--rules", "basic", "--seed", seed, "--turns", turns, NULL};
    expect(0, &r, games);
    const char *p = strstr(r.out, "rooms: ");
    assert_non_null(p);
    memcpy(room, p + 7, SCHEMA_ROOM_CHARS);
    room[SCHEMA_ROOM_CHARS] = '\0';
    test_run_free(&r);
}

static void one_game(char room[SCHEMA_ROOM_CHARS + 1])
{
    game_of(room, "5", "1");
}

/* A revealed room audits from its archive on a host without the
 * operator's audit key; before the reveal it cannot. */
static void test_trust__third_party_audit_after_reveal(void **state)
{
    (void)state;
    char room[SCHEMA_ROOM_CHARS + 1];
    one_game(room);
    test_run_result r;
    const char *backup_early[] = {"backup", room, "--out", "early.mentat-archive", NULL};
    expect(0, &r, backup_early);
    test_run_free(&r);
    const char *reveal[] = {"reveal", room, NULL};
    expect(0, &r, reveal);
    test_run_free(&r);
    const char *backup[] = {"backup", room, "--out", "room.mentat-archive", NULL};
    expect(0, &r, backup);
    test_run_free(&r);

    other_host("../early.mentat-archive");
    const char *audit[] = {"audit", room, "--trials", "6", NULL};
    expect_refused(audit, "cannot be audited");
    /* The archive of a game not revealed holds its secrets sealed: the
     * log there is the public view. */
    const char *log[] = {"log", room, "--json", NULL};
    expect(0, &r, log);
    assert_null(strstr(r.out, "\"traitor_pick\",\"leader\""));
    assert_null(strstr(r.out, "\"storm_dial\",\"value\""));
    assert_non_null(strstr(r.out, "{\"kind\":\"storm_dial\",\"sealed\":true}"));
    test_run_free(&r);
    assert_int_equal(chdir(".."), 0);
    test_rm_tree("other");

    other_host("../room.mentat-archive");
    /* Not the operator's audit key: the room is sealed to another. */
    struct stat st;
    assert_int_equal(stat("mentat.keys/audit.key", &st), 0);
    expect(0, &r, audit);
    assert_non_null(strstr(r.out, " ok "));
    assert_non_null(strstr(r.out, "no leak"));
    test_run_free(&r);
    /* Revealed: the archive's room key opens every sealed action. */
    expect(0, &r, log);
    assert_non_null(strstr(r.out, "{\"kind\":\"storm_dial\",\"value\":"));
    test_run_free(&r);
    /* With no key directory at all, too. */
    test_rm_tree("mentat.keys");
    expect(0, &r, audit);
    test_run_free(&r);
    assert_int_equal(chdir(".."), 0);
}

/* The ledger key alone, in signing-only/: a reader without the audit key. */
static void signing_only(void)
{
    if (mkdir("signing-only", 0700) == 0)
        test_copy_file("mentat.keys/signing.key", "signing-only/signing.key", 0600);
}

/* A refused storm dial: its value sealed in the file, listed with the
 * audit key, listed sealed without it. */
static void test_trust__refused_secrets_sealed(void **state)
{
    (void)state;
    test_run_result r;
    const char *kg[] = {"keygen", NULL};
    expect(0, &r, kg);
    test_run_free(&r);
    const char *create[] = {"room", "create", "--players", "2", "--factions",
                            "atreides,harkonnen", "--rules", "basic", NULL};
    expect(0, &r, create);
    char room[SCHEMA_ROOM_CHARS + 1];
    assert_true(strlen(r.out) >= SCHEMA_ROOM_CHARS); /* the code, alone on its line */
    memcpy(room, r.out, SCHEMA_ROOM_CHARS);
    room[SCHEMA_ROOM_CHARS] = '\0';
    test_run_free(&r);
    const char *act[] = {"act", room, "--seat", "2", "--version", "0", "--action",
                         "{\"kind\":\"storm_dial\",\"value\":17}", NULL};
    expect(2, &r, act); /* setup is not the storm: refused, and recorded */
    test_run_free(&r);
    const char *list[] = {"log", room, "--rejections", "--json", NULL};
    expect(0, &r, list);
    assert_non_null(strstr(r.out, "\"value\":17"));
    assert_non_null(strstr(r.out, "\"sealed\":false"));
    test_run_free(&r);
    signing_only();
    const char *keyless[] = {"--keys", "signing-only", "log", room, "--rejections", "--json",
                             NULL};
    expect(0, &r, keyless);
    assert_null(strstr(r.out, "\"value\":17"));
    assert_non_null(strstr(r.out, "{\"kind\":\"storm_dial\",\"sealed\":true}"));
    assert_non_null(strstr(r.out, "\"sealed\":true,"));
    test_run_free(&r);
}

/* A room's states (its checkpoints) are sealed with the room key: a
 * reader without the audit key sees only the public view stored with the
 * events, exactly the auditor's --public, and is told so (a seat's view is
 * refused with one line), verify still checks the chain, and the log is the
 * public view (every secret argument sealed); once revealed, the same
 * reader sees what the auditor sees and audits the room. */
static void test_trust__states_sealed_until_the_reveal(void **state)
{
    (void)state;
    char room[SCHEMA_ROOM_CHARS + 1];
    one_game(room);
    signing_only();
    test_run_result r, full;
    const char *keyed[] = {"state", room, "--at", "0", "--json", NULL};
    expect(0, &full, keyed);
    assert_non_null(strstr(full.out, "\"traitors\""));
    const char *views[][9] = {
        {"--keys", "signing-only", "state", room, "--at", "0", "--json", NULL},
        {"--keys", "signing-only", "state", room, "--public", NULL},
        {"--keys", "signing-only", "replay", room, "--to", "0", "--public", NULL},
        {"--keys", "signing-only", "diff", room, "0", "1", "--public", NULL},
    };
    /* Without the key each shows the public view stored with the events,
     * and says so: the very view the auditor's --public gives. */
    for (size_t i = 0; i < sizeof views / sizeof views[0]; i++) {
        expect(0, &r, views[i]);
        assert_true(strstr(r.out, "\"keyless\":true") != NULL ||
                    strstr(r.out, "no audit key") != NULL);
        test_run_free(&r);
    }
    test_run_result pub;
    const char *keyed_public[] = {"state", room, "--at", "0", "--public", "--json", NULL};
    expect(0, &pub, keyed_public);
    const char *mark = "\"view\":\"public\",";
    char *at_mark = strstr(pub.out, mark);
    assert_non_null(at_mark);
    char *want = malloc(strlen(pub.out) + 32);
    assert_non_null(want);
    snprintf(want, strlen(pub.out) + 32, "%.*s\"keyless\":true,%s",
             (int)(at_mark - pub.out + (ptrdiff_t)strlen(mark)), pub.out,
             at_mark + strlen(mark));
    expect(0, &r, views[0]);
    assert_string_equal(r.out, want);
    test_run_free(&r);
    free(want);
    test_run_free(&pub);
    const char *seat_view[] = {"--keys", "signing-only", "state", room, "--seat", "1", NULL};
    expect_refused(seat_view, "its states are sealed with the room key");
    const char *verify[] = {"--keys", "signing-only", "verify", room, NULL};
    expect(0, &r, verify);
    assert_non_null(strstr(r.out, " ok "));
    test_run_free(&r);
    /* The log: with the key every traitor pick and storm dial in full,
     * without it each sealed, and a line saying the view is public. */
    const char *log_keyed[] = {"log", room, "--json", NULL};
    const char *log_keyless[] = {"--keys", "signing-only", "log", room, "--json", NULL};
    expect(0, &r, log_keyed);
    assert_non_null(strstr(r.out, "{\"kind\":\"traitor_pick\",\"leader\":\""));
    assert_non_null(strstr(r.out, "{\"kind\":\"storm_dial\",\"value\":"));
    test_run_free(&r);
    expect(0, &r, log_keyless);
    assert_null(strstr(r.out, "\"traitor_pick\",\"leader\""));
    assert_null(strstr(r.out, "\"storm_dial\",\"value\""));
    assert_non_null(
        strstr(r.out, "{\"kind\":\"traitor_pick\",\"sealed\":true},\"sealed\":true"));
    assert_non_null(strstr(r.out, "{\"kind\":\"storm_dial\",\"sealed\":true}"));
    assert_non_null(strstr(r.err, "public view: no audit key"));
    test_run_free(&r);

    const char *reveal[] = {"reveal", room, NULL};
    expect(0, &r, reveal);
    test_run_free(&r);
    expect(0, &r, views[0]);
    assert_string_equal(r.out, full.out);
    test_run_free(&r);
    test_run_free(&full);
    const char *audit[] = {"--keys", "signing-only", "audit", room, "--trials", "4", NULL};
    expect(0, &r, audit);
    assert_non_null(strstr(r.out, " ok "));
    test_run_free(&r);
}

/* No secret of a genuine game at rest: a room replayed from a bots' game
 * (same seed, same actions) up to a battle plan, before the battle is
 * revealed. Neither the plan (its event record in the clear, its action
 * bytes, its JSON) nor the opening deck order (its bytes in the state
 * encoding, its JSON) is anywhere in the ledger file, its archive or any
 * keyless output; the auditor's outputs show both (so the needles are
 * real). */
static void test_trust__no_secret_of_a_game_at_rest(void **state)
{
    (void)state;
    test_run_result r;
    char played[SCHEMA_ROOM_CHARS + 1], room[SCHEMA_ROOM_CHARS + 1];
    game_of(played, "7", "3");

    /* The played room's first battle plan, and the room replayed to it. */
    ledger *db = open_with("mentat.db", 0);
    ledger_room_info info;
    assert_int_equal(ledger_room_info_get(db, &info, played), 0);
    codec_event plan;
    uint32_t v_plan = 0;
    for (uint32_t v = 1; v <= info.version && v_plan == 0; v++) {
        assert_int_equal(ledger_event_get(db, &plan, played, v), 0);
        if (plan.action.kind == ENGINE_ACTION_BATTLE_PLAN)
            v_plan = v;
    }
    assert_true(v_plan > 0);
    assert_int_equal(plan.is_sealed, 0);
    uint8_t seed[ENGINE_SEED_BYTES];
    assert_int_equal(ledger_room_seed(db, seed, played), 0);
    assert_int_equal(ledger_room_create_seeded(db, room, &info.config, seed), 0);
    sodium_memzero(seed, sizeof seed);
    for (uint32_t v = 1; v <= v_plan; v++) {
        codec_event ev;
        ledger_append_result res;
        assert_int_equal(ledger_event_get(db, &ev, played, v), 0);
        assert_int_equal(ledger_append(db, &res, room, v - 1, &ev.action), 0);
        assert_int_equal(res.verdict, ENGINE_ACCEPTED);
        codec_event mine;
        assert_int_equal(ledger_event_get(db, &mine, room, v), 0);
        assert_memory_equal(mine.state_digest, ev.state_digest, SCHEMA_HASH_BYTES);
    }
    static engine_state st;
    assert_int_equal(ledger_state_at(db, &st, room, 0), 0);
    static uint8_t enc[ENGINE_STATE_ENCODED_MAX];
    size_t enc_len = engine_state_encode(enc, sizeof enc, &st);
    assert_true(enc_len > 0 && st.n_deck >= 16);
    assert_true(test_has_bytes(enc, enc_len, st.deck, st.n_deck)); /* the deck as the state holds it */
    ledger_close(db);

    /* The needles: the plan's event record and action in the clear, and
     * both as the auditor's outputs print them. */
    codec_event clear = plan;
    clear.sealed_len = 0;
    clear.is_sealed = 0;
    uint8_t rec[512], act_bytes[64];
    size_t rec_len = 0, act_len = 0;
    assert_int_equal(codec_event_encode(rec, sizeof rec, &rec_len, &clear, 0), 0);
    assert_int_equal(codec_action_encode(act_bytes, sizeof act_bytes, &act_len, &plan.action), 0);
    char plan_json[512];
    assert_int_equal(codec_action_to_json(plan_json, sizeof plan_json, &plan.action), 0);
    const char *plan_args = strchr(plan_json, ',');  /* past the kind: the secret arguments */
    assert_non_null(plan_args);
    char at_plan[16];
    snprintf(at_plan, sizeof at_plan, "%u", v_plan);
    const char *keyed_state[] = {"state", room, "--at", "0", "--json", NULL};
    expect(0, &r, keyed_state);
    const char *deck = strstr(r.out, "\"treachery_deck_order\":[");
    assert_non_null(deck);
    const char *deck_end = strchr(deck, ']');
    assert_non_null(deck_end);
    char *deck_json = strndup(deck, (size_t)(deck_end - deck + 1));
    test_run_free(&r);
    const char *keyed_log[] = {"log", room, "--json", NULL};
    expect(0, &r, keyed_log);
    assert_non_null(strstr(r.out, plan_args));
    test_run_free(&r);

    /* The file and the archive: neither needle. */
    const char *backup[] = {"backup", room, "--out", "room.mentat-archive", NULL};
    expect(0, &r, backup);
    test_run_free(&r);
    const char *files[] = {"mentat.db", "room.mentat-archive"};
    for (size_t i = 0; i < 2; i++) {
        size_t len = 0;
        uint8_t *bytes = (uint8_t *)test_slurp(files[i], &len);
        assert_false(test_has_bytes(bytes, len, rec + 1, rec_len - 1));
        assert_false(test_has_bytes(bytes, len, act_bytes, act_len));
        assert_false(test_has_bytes(bytes, len, st.deck, st.n_deck));
        assert_false(test_has_bytes(bytes, len, enc, enc_len));
        free(bytes);
    }

    /* Every keyless output: neither needle. */
    signing_only();
    const char *outputs[][11] = {
        {"--keys", "signing-only", "log", room, NULL},
        {"--keys", "signing-only", "log", room, "--json", NULL},
        {"--keys", "signing-only", "log", room, "--public", "--json", NULL},
        {"--keys", "signing-only", "log", room, "--rejections", "--json", NULL},
        {"--keys", "signing-only", "state", room, "--at", "0", "--json", NULL},
        {"--keys", "signing-only", "state", room, "--at", at_plan, "--public", "--json", NULL},
        {"--keys", "signing-only", "replay", room, "--to", at_plan, "--public", NULL},
        {"--keys", "signing-only", "diff", room, "0", at_plan, "--public", NULL},
        {"--keys", "signing-only", "render", room, "--at", at_plan, "--public", "--out",
         "board.svg", NULL},
        {"--keys", "signing-only", "state", room, "--at", at_plan, "--json", NULL},
        {"--keys", "signing-only", "state", room, "--at", at_plan, NULL},
        {"--keys", "signing-only", "replay", room, "--to", at_plan, "--json", NULL},
        {"--keys", "signing-only", "diff", room, "0", at_plan, "--json", NULL},
        {"--keys", "signing-only", "render", room, "--at", at_plan, "--out", "-", NULL},
        {"--keys", "signing-only", "verify", room, "--json", NULL},
        {"--keys", "signing-only", "proof", room, "--inclusion", at_plan, NULL},
    };
    for (size_t i = 0; i < sizeof outputs / sizeof outputs[0]; i++) {
        int got = test_run_argv(&r, mentat_bin, ".seat-out", ".seat-err", outputs[i]);
        if ((i >= 4 && i <= 8) || i >= 11) /* state, replay, diff, render: the public view */
            assert_int_equal(got, 0);
        const char *texts[] = {r.out, r.err};
        for (size_t t = 0; t < 2; t++) {
            if (strstr(texts[t], plan_args) != NULL || strstr(texts[t], deck_json) != NULL)
                print_error("%s %s leaks: %s\n", outputs[i][2], outputs[i][4], texts[t]);
            assert_null(strstr(texts[t], plan_args));
            assert_null(strstr(texts[t], deck_json));
        }
        test_run_free(&r);
    }
    free(deck_json);
}

static char *hex_member(const char *json, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":\"", key);
    const char *p = strstr(json, pat);
    assert_non_null(p);
    p += strlen(pat);
    const char *e = strchr(p, '"');
    assert_non_null(e);
    return strndup(p, (size_t)(e - p));
}

static void write_file(const char *path, const char *text)
{
    FILE *fp = fopen(path, "wb");
    assert_non_null(fp);
    assert_int_equal(fputs(text, fp) >= 0, 1);
    assert_int_equal(fclose(fp), 0);
}

/* audit --json --sign, checked by verify --report and by libsodium alone;
 * altered, it fails. */
static void test_trust__signed_audit_report(void **state)
{
    (void)state;
    char room[SCHEMA_ROOM_CHARS + 1];
    one_game(room);
    test_run_result r;
    const char *text_sign[] = {"audit", room, "--sign", NULL};
    expect_refused(text_sign, "--json");
    const char *sign[] = {"audit", room, "--trials", "6", "--json", "--sign", NULL};
    expect(0, &r, sign);
    char *report = strdup(r.out);
    test_run_free(&r);
    assert_non_null(strstr(report, "\"signed_report\":{"));
    assert_non_null(strstr(report, "\"seed\":\"audit_key\""));
    assert_non_null(strstr(report, "\"verdict\":\"no_leak\""));
    write_file("report.json", report);
    const char *check[] = {"verify", "--report", "report.json", NULL};
    expect(0, &r, check);
    assert_non_null(strstr(r.out, "report ok"));
    test_run_free(&r);

    /* Anyone with the public key: libsodium over signed_bytes. */
    char *bytes_hex = hex_member(report, "signed_bytes");
    char *sig_hex = hex_member(report, "signature");
    char *pk_hex = hex_member(strstr(report, "\"signed_report\""), "public_key");
    uint8_t bytes[LEDGER_AUDIT_REPORT_BYTES], sig[SCHEMA_SIG_BYTES], pk[SCHEMA_KEY_BYTES];
    size_t n = 0;
    assert_int_equal(sodium_hex2bin(bytes, sizeof bytes, bytes_hex, strlen(bytes_hex), NULL, &n,
                                    NULL),
                     0);
    assert_int_equal(n, sizeof bytes);
    assert_int_equal(sodium_hex2bin(sig, sizeof sig, sig_hex, strlen(sig_hex), NULL, &n, NULL),
                     0);
    assert_int_equal(sodium_hex2bin(pk, sizeof pk, pk_hex, strlen(pk_hex), NULL, &n, NULL), 0);
    assert_memory_equal(bytes, "MNAR", 4);
    assert_memory_equal(bytes + 5, room, SCHEMA_ROOM_CHARS);
    assert_int_equal(crypto_sign_verify_detached(sig, bytes, sizeof bytes, pk), 0);
    bytes[124] ^= 1; /* the leak count */
    assert_int_not_equal(crypto_sign_verify_detached(sig, bytes, sizeof bytes, pk), 0);

    /* A member altered: its signed bytes no longer match (exit 2). */
    char *bad = strdup(report);
    char *v = strstr(strstr(bad, "\"signed_report\""), "\"comparisons\":");
    assert_non_null(v);
    v[strlen("\"comparisons\":")] = v[strlen("\"comparisons\":")] == '9' ? '8' : '9';
    write_file("bad.json", bad);
    const char *check_bad[] = {"verify", "--report", "bad.json", NULL};
    expect_refused(check_bad, "signed_bytes");
    /* The signature altered: it fails (exit 1). */
    memcpy(bad, report, strlen(report) + 1);
    char *s = strstr(bad, sig_hex);
    assert_non_null(s);
    s[0] = s[0] == '0' ? '1' : '0';
    write_file("bad.json", bad);
    expect(1, &r, check_bad);
    assert_non_null(strstr(r.out, "report BAD"));
    test_run_free(&r);
    free(bad);
    free(bytes_hex);
    free(sig_hex);
    free(pk_hex);
    free(report);

    /* Without the signing key nothing is printed at all. */
    assert_int_equal(rename("mentat.keys/signing.key", "signing.key.away"), 0);
    expect(2, &r, sign);
    assert_int_equal(r.out[0], '\0');
    assert_non_null(strstr(r.err, "signing key"));
    test_run_free(&r);
}

/* A keys directory for another host: the ledger's signing key and an
 * audit key of its own (made by keygen in a scratch directory); its audit
 * public key, as `key audit-pub` prints it, into pub_file. */
static void host_keys(const char *dir, const char *pub_file)
{
    test_run_result r;
    char scratch[PATH_MAX], from[PATH_MAX + 16], to[PATH_MAX + 16];
    snprintf(scratch, sizeof scratch, "%s.scratch", dir);
    const char *kg[] = {"--keys", scratch, "keygen", NULL};
    expect(0, &r, kg);
    test_run_free(&r);
    assert_int_equal(mkdir(dir, 0700), 0);
    test_copy_file("mentat.keys/signing.key", (snprintf(to, sizeof to, "%s/signing.key", dir), to),
                   0600);
    snprintf(from, sizeof from, "%s/audit.key", scratch);
    snprintf(to, sizeof to, "%s/audit.key", dir);
    test_copy_file(from, to, 0600);
    test_rm_tree(scratch);
    const char *pub[] = {"--keys", dir, "key", "audit-pub", NULL};
    expect(0, &r, pub);
    assert_int_equal(strlen(r.out), 2 * SCHEMA_KEY_BYTES + 1);
    write_file(pub_file, r.out);
    test_run_free(&r);
}

/* The audit key id room's seed is sealed to, as readers see it. */
static uint32_t seal_of(const char *room)
{
    ledger *db = open_ro("mentat.db");
    uint32_t id = 0;
    uint8_t sealed[SCHEMA_SEALED_SEED_BYTES];
    assert_int_equal(ledger_room_seal(db, &id, sealed, room), 0);
    ledger_close(db);
    return id;
}

/* 0 if the keys in keys_dir give room's seed. */
static int seed_with(const char *keys_dir, const char *room)
{
    ledger_options opt;
    ledger_options_init(&opt);
    opt.path = "mentat.db";
    opt.keys_dir = keys_dir;
    opt.is_read_only = 1;
    ledger *db = NULL;
    assert_int_equal(ledger_open(&db, &opt), 0);
    uint8_t seed[ENGINE_SEED_BYTES];
    int rc = ledger_room_seed(db, seed, room);
    ledger_close(db);
    return rc;
}

/* `room reseal`: refused without the room's audit key and, for --all,
 * when any room cannot be resealed (every room left as it was); then
 * every room moves to the new host's audit key in one run, and that host
 * re-folds, audits, opens the sealed refusal and reveals, while the old
 * audit key opens neither the new seed seal nor the room key. */
static void test_trust__reseal_to_a_new_host(void **state)
{
    (void)state;
    test_run_result r;
    char played[SCHEMA_ROOM_CHARS + 1], fresh[SCHEMA_ROOM_CHARS + 1];
    one_game(played);
    const char *create[] = {"room", "create", "--players", "2", "--factions",
                            "atreides,harkonnen", "--rules", "basic", NULL};
    expect(0, &r, create);
    memcpy(fresh, r.out, SCHEMA_ROOM_CHARS);
    fresh[SCHEMA_ROOM_CHARS] = '\0';
    test_run_free(&r);
    const char *act[] = {"act", fresh, "--seat", "2", "--version", "0", "--action",
                         "{\"kind\":\"storm_dial\",\"value\":17}", NULL};
    expect(2, &r, act); /* refused and recorded, its dial sealed with the room key */
    test_run_free(&r);
    host_keys("host2.keys", "host2.pub");
    host_keys("third.keys", "third.pub");
    const uint32_t old_id = seal_of(played);
    assert_int_equal(seal_of(fresh), old_id);

    assert_int_equal(mkdir("empty.keys", 0700), 0);
    const char *no_audit[] = {"--keys", "empty.keys", "key", "audit-pub", NULL};
    expect_refused(no_audit, "no audit key in empty.keys");
    const char *usage[] = {"room", "reseal", "--to-audit-key", "host2.pub", NULL};
    expect_refused(usage, "either ROOM or --all");
    const char *no_key[] = {"room", "reseal", played, NULL};
    expect_refused(no_key, "--to-audit-key");
    write_file("bad.pub", "not a key\n");
    const char *bad_pub[] = {"room", "reseal", played, "--to-audit-key", "bad.pub", NULL};
    expect_refused(bad_pub, "no audit public key");
    const char *not_held[] = {"--keys", "host2.keys", "room", "reseal", played,
                              "--to-audit-key", "third.pub", NULL};
    expect_refused(not_held, "only the room's may reseal it");
    assert_int_equal(seal_of(played), old_id);

    /* One room moved elsewhere: --all refuses before it writes anything. */
    const char *one[] = {"room", "reseal", fresh, "--to-audit-key", "third.pub", NULL};
    expect(0, &r, one);
    assert_non_null(strstr(r.out, "(seed and room key)"));
    test_run_free(&r);
    const uint32_t third_id = seal_of(fresh);
    assert_int_not_equal(third_id, old_id);
    const char *all[] = {"room", "reseal", "--all", "--to-audit-key", "host2.pub", "--json",
                         NULL};
    expect_refused(all, "nothing resealed");
    assert_int_equal(seal_of(played), old_id);
    assert_int_equal(seal_of(fresh), third_id);
    const char *back[] = {"--keys", "third.keys", "room", "reseal", fresh, "--to-audit-key",
                          "host2.pub", NULL};
    expect(0, &r, back);
    test_run_free(&r);
    expect(0, &r, all);
    assert_non_null(strstr(r.out, "\"resealed\":1,\"n_rooms\":2"));
    assert_non_null(strstr(r.out, "\"resealed\":false")); /* fresh: already on host2's key */
    test_run_free(&r);
    const uint32_t new_id = seal_of(played);
    assert_int_equal(seal_of(fresh), new_id);
    assert_int_not_equal(new_id, old_id);

    /* The old audit key opens no new seal. */
    assert_int_equal(seed_with("mentat.keys", played), LEDGER_EKEY);
    assert_int_equal(seed_with("host2.keys", played), 0);
    const char *old_log[] = {"log", fresh, "--rejections", "--json", NULL};
    expect(0, &r, old_log);
    assert_null(strstr(r.out, "\"value\":17"));
    assert_non_null(strstr(r.out, "\"sealed\":true"));
    test_run_free(&r);
    const char *old_audit[] = {"audit", played, "--trials", "4", NULL};
    expect_refused(old_audit, "sealed to audit key");
    const char *old_reveal[] = {"reveal", played, NULL};
    expect_refused(old_reveal, "sealed to audit key");

    /* The new host reads, verifies (re-folding), audits and reveals. */
    const char *new_log[] = {"--keys", "host2.keys", "log", fresh, "--rejections", "--json",
                             NULL};
    expect(0, &r, new_log);
    assert_non_null(strstr(r.out, "\"value\":17"));
    test_run_free(&r);
    const char *new_verify[] = {"--keys", "host2.keys", "verify", played, NULL};
    expect(0, &r, new_verify);
    assert_non_null(strstr(r.out, "re-folded"));
    test_run_free(&r);
    const char *new_audit[] = {"--keys", "host2.keys", "audit", played, "--trials", "4", NULL};
    expect(0, &r, new_audit);
    assert_non_null(strstr(r.out, "no leak"));
    test_run_free(&r);
    /* Its archive carries the seal as resealed: restored on the new
     * host's own ledger, it opens with the new audit key and re-folds. */
    const char *backup[] = {"backup", played, "--out", "played.mentat-archive", NULL};
    expect(0, &r, backup);
    test_run_free(&r);
    const char *restore[] = {"--keys", "host2.keys", "--db", "moved.db", "restore",
                             "played.mentat-archive", "--trust-keys", NULL};
    expect(0, &r, restore);
    test_run_free(&r);
    const char *moved_verify[] = {"--keys", "host2.keys", "--db", "moved.db", "verify", played,
                                  "--json", NULL};
    expect(0, &r, moved_verify);
    assert_non_null(strstr(r.out, "\"refolded\":true"));
    test_run_free(&r);
    const char *moved_state[] = {"--keys", "host2.keys", "--db", "moved.db", "state", played,
                                 "--at", "1", "--json", NULL};
    expect(0, &r, moved_state);
    test_run_free(&r);
    /* The old host's keys open nothing of it: the public view only, which
     * the restore wrote as it re-folded; a seat's view is refused. */
    const char *moved_old[] = {"--db", "moved.db", "state", played, "--at", "1", NULL};
    expect(0, &r, moved_old);
    assert_non_null(strstr(r.out, "no audit key: the public view"));
    test_run_free(&r);
    const char *moved_seat[] = {"--db", "moved.db", "state", played, "--at", "1", "--seat", "1",
                                NULL};
    expect_refused(moved_seat, "audit key");
    const char *new_reveal[] = {"--keys", "host2.keys", "reveal", played, NULL};
    expect(0, &r, new_reveal);
    assert_non_null(strstr(r.out, "matches commitment"));
    test_run_free(&r);
}

static int setup(void **state)
{
    seat_fixture *fx = calloc(1, sizeof *fx);
    if (fx == NULL || test_tmpdir_enter(fx->dir, fx->old_cwd, "mentat-trust") != 0)
        return -1;
    unsetenv(TOOL_KEYS_ENV);
    *state = fx;
    return 0;
}

static int teardown(void **state)
{
    seat_fixture *fx = *state;
    int rc = test_tmpdir_leave(fx->dir, fx->old_cwd);
    free(fx);
    return rc;
}

int main(int argc, char **argv)
{
    (void)argc;
    if (sodium_init() < 0 || test_find_mentat(mentat_bin, argv[0], "test_trust") != 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_trust__keygen_files_and_refusals, setup, teardown),
        cmocka_unit_test_setup_teardown(test_trust__bound_room_through_the_command, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_trust__act_binds_a_joining_seat, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_trust__play_signs_bound_seats, setup, teardown),
        cmocka_unit_test_setup_teardown(test_trust__games_bind_their_bots, setup, teardown),
        cmocka_unit_test_setup_teardown(test_trust__third_party_audit_after_reveal, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_trust__signed_audit_report, setup, teardown),
        cmocka_unit_test_setup_teardown(test_trust__refused_secrets_sealed, setup, teardown),
        cmocka_unit_test_setup_teardown(test_trust__reseal_to_a_new_host, setup, teardown),
        cmocka_unit_test_setup_teardown(test_trust__no_secret_of_a_game_at_rest, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_trust__states_sealed_until_the_reveal, setup,
                                        teardown),
    };
    return cmocka_run_group_tests_name("trust", tests, NULL, NULL);
}
