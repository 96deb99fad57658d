/*
 * test_cli.c - the `mentat` command end to end: each case runs the real
 * binary (fork/exec) in a fresh temporary directory and checks its exit
 * status, stdout and stderr.
 *
 * The binary is $MENTAT_BIN, else the `mentat` of the build this suite
 * was built in (build/tests/tools/test_cli -> build/mentat), else
 * ./mentat. Legal actions are found in-process through the public APIs
 * (ledger_state_at, engine_legal_actions) and the tools' own chooser.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine/engine.h"
#include "ledger/ledger.h"
#include "schema/schema.h"
#include "tools/internal.h"
#include "tests/support/support.h"

#define SIX_FACTIONS "atreides,bene_gesserit,emperor,fremen,harkonnen,guild"

typedef struct cli_fixture {
    char dir[PATH_MAX];            /* the temporary directory, the cwd of every run */
    char old_cwd[PATH_MAX];
} cli_fixture;

/* The binary under test, absolute; set once in main. */
static char mentat_bin[PATH_MAX];

/* ============================================================ running */

typedef test_run_result run_result;

/* Runs mentat with the arguments (NULL-terminated) and fills *r. */
static int run_argv(run_result *r, const char *const *args)
{
    return test_run_argv(r, mentat_bin, ".cli-out", ".cli-err", args);
}

#if defined(__GNUC__)
__attribute__((sentinel))
#endif
static int run(run_result *r, ...)
{
    const char *args[64];
    int n = 0;
    va_list ap;
    va_start(ap, r);
    for (;;) {
        const char *a = va_arg(ap, const char *);
        assert_true(n < 63);
        args[n++] = a;
        if (a == NULL)
            break;
    }
    va_end(ap);
    return run_argv(r, args);
}

/* Runs and expects `status`; prints what the command said otherwise. */
#define EXPECT(status, r, ...)                                                     \
    do {                                                                           \
        int got_ = run((r), __VA_ARGS__, (const char *)NULL);                      \
        if (got_ != (status))                                                      \
            print_error("exit %d, expected %d\nstdout: %s\nstderr: %s\n", got_,    \
                        (status), (r)->out, (r)->err);                             \
        assert_int_equal(got_, (status));                                          \
    } while (0)

/* ============================================================ helpers */

/* Parses text as JSON; returns the token count (asserts it parses). */
static int parse_json(codec_json_token *tok, size_t cap, const char *text)
{
    char err[SCHEMA_ERRMSG] = "";
    int n = codec_json_parse(tok, cap, text, strlen(text), err);
    if (n <= 0)
        print_error("not JSON (%s): %s\n", err, text);
    assert_true(n > 0);
    return n;
}

static int64_t json_int_member(const codec_json_token *tok, int obj, const char *text,
                               const char *key)
{
    int i = codec_json_member(tok, obj, text, key);
    if (i < 0)
        print_error("no \"%s\" in %s\n", key, text);
    assert_true(i >= 0);
    int64_t v = 0;
    assert_int_equal(codec_json_int(&v, &tok[i], text), 0);
    return v;
}

static void json_string_member(char *out, size_t cap, const codec_json_token *tok, int obj,
                               const char *text, const char *key)
{
    int i = codec_json_member(tok, obj, text, key);
    if (i < 0)
        print_error("no \"%s\" in %s\n", key, text);
    assert_true(i >= 0);
    int rc = codec_json_string(out, cap, &tok[i], text);
    if (rc != 0)
        print_error("\"%s\" is no string of fewer than %zu bytes in %s\n", key, cap, text);
    assert_int_equal(rc, 0);
}

static void hex_decode(uint8_t *out, const char *hex, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned v;
        assert_int_equal(sscanf(hex + 2 * i, "%2x", &v), 1);
        out[i] = (uint8_t)v;
    }
}

static void keygen(void)
{
    run_result r;
    EXPECT(0, &r, "keygen");
    test_run_free(&r);
}

/* Creates a six-seat basic room; its code goes to room. */
static void room_create(char room[SCHEMA_ROOM_CHARS + 1], const char *db)
{
    run_result r;
    EXPECT(0, &r, "--db", db, "room", "create", "--players", "6", "--rules", "basic",
           "--factions", SIX_FACTIONS);
    assert_int_equal(strlen(r.out), SCHEMA_ROOM_CHARS + 1); /* code and newline */
    memcpy(room, r.out, SCHEMA_ROOM_CHARS);
    room[SCHEMA_ROOM_CHARS] = '\0';
    test_run_free(&r);
}

typedef struct legal_pick {
    uint32_t version;              /* the head it is legal at */
    engine_action act;             /* a legal action */
    char json[512];                /* its JSON */
    char seat[8];                  /* its seat, 1-based, as text */
    char wrong_seat[8];            /* a seat for which the same action is illegal, or "" */
} legal_pick;

/* Reads the room's head in-process and draws one legal action. */
static void pick_legal(legal_pick *p, const char *db_path, const char *room, uint64_t seed)
{
    ledger_options opt;
    ledger_options_init(&opt);
    opt.path = db_path;
    opt.keys_dir = "mentat.keys";
    opt.is_read_only = 1;
    ledger *db = NULL;
    assert_int_equal(ledger_open(&db, &opt), 0);
    uint8_t hash[SCHEMA_HASH_BYTES];
    assert_int_equal(ledger_head(db, room, &p->version, hash), 0);
    engine_state st;
    assert_int_equal(ledger_state_at(db, &st, room, p->version), 0);
    ledger_close(db);

    static engine_legal legal[ENGINE_LEGAL_MAX];
    size_t n = engine_legal_actions(legal, ENGINE_LEGAL_MAX, &st, ENGINE_SEAT_ENGINE);
    assert_true(n > 0);
    if (n > ENGINE_LEGAL_MAX)
        n = ENGINE_LEGAL_MAX;
    tool_prng prng;
    tool_prng_init(&prng, seed);
    const engine_legal *fam = &legal[tool_prng_range(&prng, 0, (int32_t)n - 1)];
    assert_int_equal(tool_action_draw(&p->act, fam, &prng), 0);
    assert_int_equal(codec_action_to_json(p->json, sizeof p->json, &p->act), 0);
    snprintf(p->seat, sizeof p->seat, "%u", p->act.seat + 1u);

    p->wrong_seat[0] = '\0';
    for (uint8_t s = 0; s < st.config.n_seats && p->wrong_seat[0] == '\0'; s++) {
        engine_action other = p->act;
        other.seat = s;
        int is_legal = 0;
        for (size_t i = 0; i < n; i++)
            is_legal |= engine_legal_contains(&legal[i], &other);
        if (!is_legal)
            snprintf(p->wrong_seat, sizeof p->wrong_seat, "%u", s + 1u);
    }
}

/* Appends a legal action through the CLI; returns the new head. */
static uint32_t act_legal(const char *db, const char *room, uint64_t seed)
{
    legal_pick p;
    pick_legal(&p, db, room, seed);
    char version[16];
    snprintf(version, sizeof version, "%u", p.version);
    run_result r;
    EXPECT(0, &r, "--db", db, "act", room, "--seat", p.seat, "--version", version,
           "--action", p.json);
    assert_non_null(strstr(r.out, "accepted"));
    test_run_free(&r);
    return p.version + 1;
}

/* ============================================================ fixtures */

static int setup(void **state)
{
    cli_fixture *fx = calloc(1, sizeof *fx);
    if (fx == NULL || test_tmpdir_enter(fx->dir, fx->old_cwd, "mentat-cli") != 0)
        return -1;
    unsetenv(TOOL_KEYS_ENV);
    *state = fx;
    return 0;
}

static int teardown(void **state)
{
    cli_fixture *fx = *state;
    int rc = test_tmpdir_leave(fx->dir, fx->old_cwd);
    free(fx);
    return rc;
}

/* ============================================================== cases */

/* Every room code in a help's examples (a word of 8 letters and digits
 * with a digit in it, after "mentat ") is one the parser accepts, so an
 * example pasted with its code replaced by a real one is the only edit. */
static void examples_name_real_codes(const char *help)
{
    static const char alphabet[] = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ";
    for (const char *line = strstr(help, "  mentat "); line != NULL;
         line = strstr(line + 1, "  mentat ")) {
        const char *end = strchr(line, '\n');
        if (end == NULL)
            end = line + strlen(line);
        for (const char *w = line; w < end;) {
            while (w < end && *w == ' ')
                w++;
            size_t n = 0, n_digits = 0, n_bad = 0;
            while (w + n < end && (isalnum((unsigned char)w[n]) || w[n] == '_')) {
                n_digits += isdigit((unsigned char)w[n]) != 0;
                n_bad += strchr(alphabet, w[n]) == NULL;
                n++;
            }
            int is_delimited = w + n == end || w[n] == ' ' || w[n] == '.';
            if (n == SCHEMA_ROOM_CHARS && n_digits > 0 && is_delimited && n_bad != 0)
                print_error("help example with a room code the parser refuses: %.*s\n",
                            (int)(end - line), line);
            assert_false(n == SCHEMA_ROOM_CHARS && n_digits > 0 && is_delimited && n_bad != 0);
            w += n;
            while (w < end && *w != ' ')
                w++;
        }
    }
}

static void test_cli__help_exits_0_everywhere(void **state)
{
    (void)state;
    static const char *const cmds[][3] = {
        {"--help", NULL, NULL},       {"help", NULL, NULL},
        {"help", "act", NULL},        {"keygen", "--help", NULL},
        {"key", "--help", NULL},      {"key", "rotate", "--help"},
        {"room", "--help", NULL},     {"room", "create", "--help"},
        {"room", "list", "--help"},   {"act", "--help", NULL},
        {"room", "fork", "--help"},   {"scenario", "export", "--help"},
        {"log", "--help", NULL},      {"state", "--help", NULL},
        {"verify", "--help", NULL},   {"backup", "--help", NULL},
        {"restore", "--help", NULL},  {"reveal", "--help", NULL},
        {"play", "--help", NULL},     {"bench", "--help", NULL},
        {"log", "-h", NULL},          {"proof", "--help", NULL},
        {"audit", "--help", NULL},    {"doctor", "--help", NULL},
        {"diff", "--help", NULL},     {"render", "--help", NULL},
        {"replay", "--help", NULL},   {"scenario", "--help", NULL},
        {"games", "--help", NULL},    {"tournament", "--help", NULL},
    };
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        const char *args[4] = {cmds[i][0], cmds[i][1], cmds[i][2], NULL};
        run_result r;
        int st = run_argv(&r, args);
        if (st != 0)
            print_error("mentat %s %s: exit %d: %s\n", cmds[i][0],
                        cmds[i][1] != NULL ? cmds[i][1] : "", st, r.err);
        assert_int_equal(st, 0);
        assert_non_null(strstr(r.out, "usage: mentat"));
        examples_name_real_codes(r.out);
        test_run_free(&r);
    }
    /* The top help lists every command and teaches by example. */
    run_result r;
    EXPECT(0, &r, "--help");
    static const char *const names[] = {"keygen", "key", "room", "act", "log", "state",
                                        "verify", "backup", "restore", "reveal", "play",
                                        "bench", "proof"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        assert_non_null(strstr(r.out, names[i]));
    assert_non_null(strstr(r.out, "mentat room create"));
    test_run_free(&r);
}

static void test_cli__bad_usage_exits_2(void **state)
{
    (void)state;
    run_result r;
    EXPECT(2, &r, "frobnicate");
    assert_non_null(strstr(r.err, "unknown command 'frobnicate'"));
    assert_string_equal(r.out, "");
    test_run_free(&r);
    EXPECT(2, &r, "--frob");
    assert_non_null(strstr(r.err, "unknown option"));
    test_run_free(&r);
    EXPECT(2, &r, "log", "ABCDEFGH", "--frob");
    assert_non_null(strstr(r.err, "mentat log: unknown option '--frob'"));
    test_run_free(&r);
    EXPECT(2, &r, "room", "create", "--players", "7", "--rules", "basic", "--factions",
           SIX_FACTIONS);
    assert_non_null(strstr(r.err, "mentat room create: --players"));
    test_run_free(&r);
    EXPECT(2, &r, "room", "create", "--players", "5", "--rules", "basic", "--factions",
           SIX_FACTIONS);
    test_run_free(&r);
    EXPECT(2, &r, "room", "create", "--players", "2", "--rules", "basic", "--factions",
           "atreides,sardaukar");
    assert_non_null(strstr(r.err, "unknown faction 'sardaukar'"));
    test_run_free(&r);
    EXPECT(2, &r, "room", "create", "--players", "2", "--rules", "basic", "--factions",
           "atreides,harkonnen", "--modules", "spice_must_flow");
    test_run_free(&r);
    EXPECT(2, &r, "act");
    assert_non_null(strstr(r.err, "missing ROOM"));
    test_run_free(&r);
    EXPECT(2, &r, "verify");
    test_run_free(&r);
    static const char *const none[] = {NULL};
    assert_int_equal(run_argv(&r, none), 2);
    assert_non_null(strstr(r.err, "usage: mentat"));
    test_run_free(&r);
    EXPECT(2, &r, "room", "frob");
    test_run_free(&r);
    EXPECT(2, &r, "log", "ABCDEFGH", "--from", "x");
    test_run_free(&r);
    EXPECT(2, &r, "room", "list", "--db");
    assert_non_null(strstr(r.err, "needs a value"));
    test_run_free(&r);
}

static void test_cli__game_round_trip(void **state)
{
    (void)state;
    run_result r;
    keygen();
    EXPECT(2, &r, "keygen");                  /* never overwrites */
    assert_non_null(strstr(r.err, "already exist"));
    test_run_free(&r);

    /* factions and modules the engine does not have yet: its reason */
    EXPECT(2, &r, "room", "create", "--players", "2", "--rules", "basic", "--factions",
           "atreides,ixians");
    assert_non_null(strstr(r.err, "mentat room create: the engine does not play ixians"));
    test_run_free(&r);
    EXPECT(2, &r, "room", "create", "--players", "3", "--rules", "basic", "--factions",
           "atreides,harkonnen,fremen", "--modules", "nexus_cards,tech_tokens");
    assert_non_null(strstr(r.err, "does not have the module tech_tokens yet"));
    test_run_free(&r);
    /* the Nexus Cards: 3..6 seats; with 2 refused, with its reason */
    EXPECT(2, &r, "room", "create", "--players", "2", "--rules", "basic", "--factions",
           "atreides,harkonnen", "--modules", "nexus_cards");
    assert_non_null(strstr(r.err, "nexus_cards needs 3 to 6 seats: with 2 nobody is unallied"));
    assert_int_equal(r.out_len, 0);
    test_run_free(&r);
    EXPECT(0, &r, "--db", "nexus.db", "room", "create", "--players", "3", "--rules", "basic",
           "--factions", "atreides,harkonnen,fremen", "--modules", "nexus_cards");
    test_run_free(&r);
    EXPECT(0, &r, "--db", "nexus.db", "--json", "room", "list");
    assert_non_null(strstr(r.out, "\"modules\":[\"nexus_cards\"]"));
    test_run_free(&r);

    /* the Advanced game cannot be played yet: refused with the reason */
    EXPECT(2, &r, "room", "create", "--players", "2", "--rules", "advanced", "--factions",
           "atreides,harkonnen");
    assert_non_null(strstr(r.err, "mentat room create: --rules advanced is refused"));
    assert_int_equal(r.out_len, 0);
    test_run_free(&r);

    char room[SCHEMA_ROOM_CHARS + 1];
    room_create(room, "mentat.db");

    /* room list, --json before or after the command */
    codec_json_token tok[4096];
    EXPECT(0, &r, "--json", "room", "list");
    parse_json(tok, 4096, r.out);
    assert_int_equal(tok[0].type, CODEC_JSON_ARRAY);
    assert_int_equal(tok[0].size, 1);
    char s[64];
    json_string_member(s, sizeof s, tok, 1, r.out, "room");
    assert_string_equal(s, room);
    json_string_member(s, sizeof s, tok, 1, r.out, "rules");
    assert_string_equal(s, "basic");
    assert_int_equal(json_int_member(tok, 1, r.out, "version"), 0);
    assert_non_null(strstr(r.out, "\"factions\":[\"atreides\",\"bene_gesserit\""));
    /* where the game stands: the opening awaits the seats of the setup */
    assert_int_equal(json_int_member(tok, 1, r.out, "turn"), 0);
    json_string_member(s, sizeof s, tok, 1, r.out, "phase");
    assert_string_equal(s, engine_phase_name(ENGINE_PHASE_SETUP));
    int aw = codec_json_member(tok, 1, r.out, "awaiting");
    assert_true(aw > 0);
    assert_int_equal(tok[aw].type, CODEC_JSON_ARRAY);
    assert_true(tok[aw].size > 0);
    int64_t first_awaited = 0;
    assert_int_equal(codec_json_int(&first_awaited, &tok[aw + 1], r.out), 0);
    assert_true(first_awaited >= 1 && first_awaited <= 6);
    int wn = codec_json_member(tok, 1, r.out, "winners");
    assert_true(wn > 0);
    assert_int_equal(tok[wn].size, 0);
    char *first = strdup(r.out);
    test_run_free(&r);
    EXPECT(0, &r, "room", "list", "--json");
    assert_string_equal(r.out, first);
    free(first);
    test_run_free(&r);
    EXPECT(0, &r, "room", "list");
    assert_non_null(strstr(r.out, room));
    char awaiting[64];
    snprintf(awaiting, sizeof awaiting, "awaiting %d %s", (int)first_awaited,
             tool_seat_faction(&(engine_config){.n_seats = 6, .faction = {0, 1, 2, 3, 4, 5}},
                               (uint8_t)(first_awaited - 1)));
    assert_non_null(strstr(r.out, awaiting));
    test_run_free(&r);

    /* a legal action, accepted with a receipt */
    legal_pick p;
    pick_legal(&p, "mentat.db", room, 1);
    assert_int_equal(p.version, 0);
    EXPECT(0, &r, "act", room, "--seat", p.seat, "--version", "0", "--action", p.json,
           "--json");
    parse_json(tok, 4096, r.out);
    json_string_member(s, sizeof s, tok, 0, r.out, "verdict");
    assert_string_equal(s, "accepted");
    assert_int_equal(json_int_member(tok, 0, r.out, "version"), 1);
    json_string_member(s, sizeof s, tok, 0, r.out, "room");
    assert_string_equal(s, room);
    assert_non_null(strstr(r.out, "\"retry\":false"));
    char hash[2 * SCHEMA_HASH_BYTES + 1];
    json_string_member(hash, sizeof hash, tok, 0, r.out, "event_hash");
    assert_int_equal(strlen(hash), 2 * SCHEMA_HASH_BYTES);
    test_run_free(&r);

    /* the same action at the same version again: the original receipt */
    EXPECT(0, &r, "act", room, "--seat", p.seat, "--version", "0", "--action", p.json,
           "--json");
    assert_non_null(strstr(r.out, "\"retry\":true"));
    assert_non_null(strstr(r.out, hash));
    test_run_free(&r);

    /* the seat by faction name, text receipt */
    legal_pick q;
    pick_legal(&q, "mentat.db", room, 2);
    assert_int_equal(q.version, 1);
    EXPECT(0, &r, "act", room, "--seat", tool_seat_faction(&(engine_config){
               .n_seats = 6, .faction = {0, 1, 2, 3, 4, 5}}, q.act.seat),
           "--version", "1", "--action", q.json);
    assert_non_null(strstr(r.out, "accepted"));
    assert_non_null(strstr(r.out, "signature"));
    test_run_free(&r);

    /* without the audit key the head state after version 0 is
     * unknown (the seed stays sealed), and said to be */
    EXPECT(0, &r, "--keys", "no-keys-here", "room", "list");
    assert_non_null(strstr(r.out, "? (needs the audit key)"));
    test_run_free(&r);
    EXPECT(0, &r, "--keys", "no-keys-here", "room", "list", "--json");
    assert_non_null(strstr(r.out, "\"phase\":null"));
    test_run_free(&r);

    /* log: one line per event, with the first 8 bytes of the hash */
    EXPECT(0, &r, "log", room);
    assert_non_null(strstr(r.out, "seat"));
    char prefix[17];
    memcpy(prefix, hash, 16);
    prefix[16] = '\0';
    assert_non_null(strstr(r.out, prefix));
    size_t lines = 0;
    for (const char *c = r.out; *c != '\0'; c++)
        lines += *c == '\n';
    assert_int_equal(lines, 2);
    test_run_free(&r);
    EXPECT(0, &r, "log", room, "--json", "--from", "1", "--to", "1");
    parse_json(tok, 4096, r.out);
    assert_int_equal(tok[0].type, CODEC_JSON_ARRAY);
    assert_int_equal(tok[0].size, 1);
    char logged[2 * SCHEMA_HASH_BYTES + 1];
    json_string_member(logged, sizeof logged, tok, 1, r.out, "event_hash");
    assert_string_equal(logged, hash);
    assert_int_equal(json_int_member(tok, 1, r.out, "seat"), p.act.seat + 1);
    int ia = codec_json_member(tok, 1, r.out, "action");
    assert_true(ia > 0);
    assert_int_equal(tok[ia].type, CODEC_JSON_OBJECT);
    test_run_free(&r);
    EXPECT(2, &r, "log", room, "--to", "99");
    test_run_free(&r);

    /* state, text and JSON */
    EXPECT(0, &r, "state", room);
    assert_non_null(strstr(r.out, "phase"));
    assert_non_null(strstr(r.out, "seat 6 guild"));
    test_run_free(&r);
    EXPECT(0, &r, "state", room, "--at", "0", "--json");
    parse_json(tok, 4096, r.out);
    assert_int_equal(json_int_member(tok, 0, r.out, "version"), 0);
    assert_int_equal(json_int_member(tok, 0, r.out, "head"), 2);
    json_string_member(s, sizeof s, tok, 0, r.out, "phase");
    assert_string_equal(s, engine_phase_name(ENGINE_PHASE_SETUP));
    int seats = codec_json_member(tok, 0, r.out, "seats");
    assert_true(seats > 0);
    assert_int_equal(tok[seats].size, 6);
    test_run_free(&r);

    /* a fork at version 1: a new room, listed as such, that verifies */
    EXPECT(0, &r, "room", "fork", room, "--at", "1");
    assert_int_equal(strlen(r.out), SCHEMA_ROOM_CHARS + 1);
    char fork[SCHEMA_ROOM_CHARS + 1];
    memcpy(fork, r.out, SCHEMA_ROOM_CHARS);
    fork[SCHEMA_ROOM_CHARS] = '\0';
    test_run_free(&r);
    char forked[64];
    snprintf(forked, sizeof forked, "fork of %s at 1", room);
    EXPECT(0, &r, "room", "list");
    assert_non_null(strstr(r.out, fork));
    assert_non_null(strstr(r.out, forked));
    test_run_free(&r);
    EXPECT(0, &r, "state", fork, "--json");
    assert_non_null(strstr(r.out, "\"constructed\":true"));
    test_run_free(&r);
    EXPECT(2, &r, "room", "fork", room, "--at", "3");
    assert_non_null(strstr(r.err, "past the head"));
    test_run_free(&r);
    EXPECT(2, &r, "room", "fork", room);
    test_run_free(&r);

    /* verify */
    EXPECT(0, &r, "verify", room);
    assert_non_null(strstr(r.out, " ok "));
    test_run_free(&r);
    EXPECT(0, &r, "verify", "--all", "--threads", "2", "--json");
    parse_json(tok, 4096, r.out);
    assert_non_null(strstr(r.out, "\"ok\":true"));
    test_run_free(&r);
}

static void test_cli__refusals_exit_2(void **state)
{
    (void)state;
    run_result r;
    keygen();
    char room[SCHEMA_ROOM_CHARS + 1];
    room_create(room, "mentat.db");
    legal_pick p;
    pick_legal(&p, "mentat.db", room, 3);

    /* malformed JSON, an unknown kind */
    EXPECT(2, &r, "act", room, "--seat", "1", "--version", "0", "--action", "{\"kind\":");
    assert_non_null(strstr(r.err, "mentat act: bad action"));
    test_run_free(&r);
    EXPECT(2, &r, "act", room, "--seat", "1", "--version", "0", "--action",
           "{\"kind\":\"fold_space\",\"value\":1}");
    assert_non_null(strstr(r.err, "bad action"));
    test_run_free(&r);

    /* the wrong seat: rejected by the rules, the reason named */
    if (p.wrong_seat[0] != '\0') {
        EXPECT(2, &r, "act", room, "--seat", p.wrong_seat, "--version", "0", "--action",
               p.json, "--json");
        assert_non_null(strstr(r.err, "rejected"));
        codec_json_token tok[64];
        parse_json(tok, 64, r.out);
        char s[64];
        json_string_member(s, sizeof s, tok, 0, r.out, "verdict");
        assert_string_equal(s, "rejected");
        json_string_member(s, sizeof s, tok, 0, r.out, "reason");
        assert_true(strlen(s) > 0);
        test_run_free(&r);
    }
    /* a seat that is not at the table */
    EXPECT(2, &r, "act", room, "--seat", "7", "--version", "0", "--action", p.json);
    test_run_free(&r);
    EXPECT(2, &r, "act", room, "--seat", "ixians", "--version", "0", "--action", p.json);
    test_run_free(&r);

    /* the field at fault named by slug, in the message and in --json */
    EXPECT(2, &r, "act", room, "--seat", "bene_gesserit", "--version", "0", "--action",
           "{\"kind\":\"predict\",\"faction\":\"bene_gesserit\",\"turn\":3}", "--json");
    assert_non_null(strstr(r.err, "rejected: predict_own_faction (faction = bene_gesserit)"));
    assert_non_null(strstr(r.out, "\"detail\":\"predict_own_faction (faction = bene_gesserit)\""));
    assert_non_null(strstr(r.out, "\"arg\":\"faction\""));
    test_run_free(&r);

    /* versions: ahead of the head is not stale, behind it is */
    EXPECT(2, &r, "act", room, "--seat", p.seat, "--version", "5", "--action", p.json);
    assert_non_null(strstr(r.err, "version 5 is beyond the head"));
    assert_null(strstr(r.err, "stale"));
    test_run_free(&r);
    uint32_t head = act_legal("mentat.db", room, 3);
    assert_int_equal(head, 1);
    legal_pick q;
    pick_legal(&q, "mentat.db", room, 4);
    EXPECT(2, &r, "act", room, "--seat", q.seat, "--version", "0", "--action", q.json,
           "--json");
    assert_non_null(strstr(r.err, "version 0 is stale: the head of"));
    assert_non_null(strstr(r.out, "\"head_version\":1"));
    test_run_free(&r);

    /* the ledger's refused actions, listed: the wrong seat's (if any) and
     * the Bene Gesserit's own prediction, in that order; conflicts are
     * not refusals and are not recorded */
    EXPECT(0, &r, "log", room, "--rejections", "--json");
    codec_json_token rt[256];
    parse_json(rt, 256, r.out);
    assert_int_equal(rt[0].type, CODEC_JSON_ARRAY);
    int n_refused = p.wrong_seat[0] != '\0' ? 2 : 1;
    assert_int_equal(rt[0].size, n_refused);
    int last = 1;
    for (int i = 1; i < n_refused; i++)
        last = (int)rt[last].next;
    assert_int_equal(json_int_member(rt, last, r.out, "n"), n_refused - 1);
    assert_int_equal(json_int_member(rt, last, r.out, "version"), 0);
    assert_int_equal(json_int_member(rt, last, r.out, "seat"), 2);
    char rs[128];
    json_string_member(rs, sizeof rs, rt, last, r.out, "reason");
    assert_string_equal(rs, "predict_own_faction");
    json_string_member(rs, sizeof rs, rt, last, r.out, "detail");
    assert_string_equal(rs, "predict_own_faction (faction = bene_gesserit)");
    test_run_free(&r);
    EXPECT(0, &r, "log", room, "--rejections");
    assert_non_null(strstr(r.out, "seat 2 bene_gesserit"));
    assert_non_null(strstr(r.out, "refused: predict_own_faction (faction = bene_gesserit)"));
    test_run_free(&r);
    EXPECT(0, &r, "log", room, "--rejections", "--from", "1");
    assert_non_null(strstr(r.out, "no refused actions in that range"));
    test_run_free(&r);
    EXPECT(2, &r, "log", room, "--rejections", "--seat", "1");
    test_run_free(&r);

    /* unknown rooms */
    EXPECT(2, &r, "act", "NOSUCHRM", "--seat", "1", "--version", "0", "--action", p.json);
    assert_non_null(strstr(r.err, "unknown room 'NOSUCHRM'"));
    test_run_free(&r);
    EXPECT(2, &r, "log", "NOSUCHRM");
    test_run_free(&r);
    EXPECT(2, &r, "state", "NOSUCHRM");
    test_run_free(&r);
    EXPECT(2, &r, "verify", "NOSUCHRM");
    test_run_free(&r);
    EXPECT(2, &r, "backup", "NOSUCHRM", "--out", "x.archive");
    test_run_free(&r);
    EXPECT(2, &r, "state", "much-too-long-a-room-code");
    test_run_free(&r);
}

/* Stored rooms of earlier rules versions (tests/fixtures/rooms): an
 * Advanced room of rules version 2 restores, verifies and re-folds to the
 * head digest its manifest records, though new Advanced rooms are refused;
 * a room of rules version 1 restores, verifies (re-folded) and is listed
 * too. */
static void test_cli__stored_rooms_of_earlier_builds(void **state)
{
    cli_fixture *fx = *state;
    run_result r;
    char adv[PATH_MAX + 64], v1[PATH_MAX + 64], manifest[PATH_MAX + 64];
    snprintf(adv, sizeof adv, "%s/tests/fixtures/rooms/v2/KBSVYWFD.mentat-archive", fx->old_cwd);
    snprintf(v1, sizeof v1, "%s/tests/fixtures/rooms/v1/FKN99V27.mentat-archive", fx->old_cwd);
    snprintf(manifest, sizeof manifest, "%s/tests/fixtures/rooms/manifest.json", fx->old_cwd);
    keygen();
    EXPECT(0, &r, "restore", adv, "--trust-keys");
    test_run_free(&r);
    /* rules version 1 is folded (engine/rules_v1.c) */
    EXPECT(0, &r, "restore", v1, "--trust-keys");
    test_run_free(&r);
    EXPECT(0, &r, "verify", "KBSVYWFD");
    assert_non_null(strstr(r.out, "re-folded"));
    test_run_free(&r);
    EXPECT(0, &r, "verify", "FKN99V27");
    assert_non_null(strstr(r.out, "re-folded"));
    test_run_free(&r);
    /* the head digest is the manifest's */
    char *m = test_slurp(manifest, NULL);
    char *at = strstr(m, "\"room\": \"KBSVYWFD\"");
    assert_non_null(at);
    char *dg = strstr(at, "\"head_state_digest\": \"");
    assert_non_null(dg);
    dg += strlen("\"head_state_digest\": \"");
    EXPECT(0, &r, "log", "KBSVYWFD", "--json");
    codec_json_token tok[4096];
    int n = parse_json(tok, 4096, r.out);
    assert_true(n > 0);
    char digest[2 * SCHEMA_HASH_BYTES + 1];
    int last = 1;
    for (uint32_t i = 1; i < tok[0].size; i++)
        last = (int)tok[last].next;
    json_string_member(digest, sizeof digest, tok, last, r.out, "state_digest");
    assert_memory_equal(digest, dg, sizeof digest - 1);
    test_run_free(&r);
    free(m);
    EXPECT(0, &r, "room", "list");
    assert_non_null(strstr(r.out, "KBSVYWFD"));
    assert_non_null(strstr(r.out, "advanced"));
    assert_non_null(strstr(r.out, "FKN99V27"));
    test_run_free(&r);
    EXPECT(0, &r, "room", "list", "--json");
    assert_non_null(strstr(r.out, "\"room\":\"KBSVYWFD\""));
    test_run_free(&r);
}

static void test_cli__verify_names_tampered_version(void **state)
{
    (void)state;
    run_result r;
    keygen();
    char room[SCHEMA_ROOM_CHARS + 1];
    room_create(room, "mentat.db");
    EXPECT(0, &r, "play", room, "--seed", "5", "--max-actions", "3", "--json");
    codec_json_token tok[256];
    parse_json(tok, 256, r.out);
    int64_t n = json_int_member(tok, 0, r.out, "accepted");
    assert_int_equal(json_int_member(tok, 0, r.out, "rejected"), 0);
    test_run_free(&r);
    if (n < 2)
        skip();

    EXPECT(0, &r, "verify", room);
    test_run_free(&r);
    EXPECT(0, &r, "log", room, "--json", "--from", "2", "--to", "2");
    parse_json(tok, 256, r.out);
    char digest_hex[2 * SCHEMA_HASH_BYTES + 1];
    json_string_member(digest_hex, sizeof digest_hex, tok, 1, r.out, "state_digest");
    test_run_free(&r);
    uint8_t digest[SCHEMA_HASH_BYTES];
    hex_decode(digest, digest_hex, sizeof digest);

    /* Flip a byte of the event's state digest wherever it lies in the
     * file (a stale copy of the page may hold it too): the re-fold names
     * the version (an event of format 2 has no signature of its own). */
    size_t len;
    char *file = test_slurp("mentat.db", &len);
    FILE *f = fopen("mentat.db", "r+b");
    assert_non_null(f);
    int n_found = 0;
    for (size_t i = 0; i + sizeof digest <= len; i++)
        if (memcmp(file + i, digest, sizeof digest) == 0) {
            assert_int_equal(fseek(f, (long)(i + 10), SEEK_SET), 0);
            assert_int_not_equal(fputc((unsigned char)file[i + 10] ^ 0x01, f), EOF);
            n_found++;
        }
    assert_int_equal(fclose(f), 0);
    free(file);
    assert_true(n_found > 0);

    EXPECT(1, &r, "verify", room);
    assert_non_null(strstr(r.out, "version 2"));
    test_run_free(&r);
    EXPECT(1, &r, "verify", "--all", "--json");
    parse_json(tok, 256, r.out);
    assert_non_null(strstr(r.out, "\"bad_version\":2"));
    assert_non_null(strstr(r.out, "\"ok\":false"));
    test_run_free(&r);

    /* doctor does not call the damaged room exportable, nor write its
     * archive (restore would refuse it) */
    EXPECT(1, &r, "doctor", "--out", "rescued");
    assert_non_null(strstr(r.out, "NOT exportable: it fails verification"));
    assert_non_null(strstr(r.out, "1 of 1 rooms damaged, 0 exportable"));
    test_run_free(&r);
    char path[64];
    snprintf(path, sizeof path, "rescued/%s.mentat-archive", room);
    assert_int_not_equal(access(path, F_OK), 0);
}

/* Writes s to path. */
static void put_file(const char *path, const char *s)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    assert_true(fputs(s, f) >= 0);
    assert_int_equal(fclose(f), 0);
}

static void test_cli__proofs_check_without_the_ledger(void **state)
{
    (void)state;
    run_result r;
    keygen();
    char room[SCHEMA_ROOM_CHARS + 1];
    room_create(room, "mentat.db");
    EXPECT(0, &r, "play", room, "--seed", "7", "--max-actions", "20");
    test_run_free(&r);

    EXPECT(0, &r, "proof", room, "--inclusion", "5", "--size", "20");
    assert_non_null(strstr(r.out, "version 5 is in the tree of 20 events"));
    test_run_free(&r);
    EXPECT(0, &r, "proof", room, "--inclusion", "5", "--size", "20", "--json");
    put_file("inclusion.json", r.out);
    codec_json_token tok[256];
    parse_json(tok, 256, r.out);
    assert_int_equal(json_int_member(tok, 0, r.out, "size"), 20);
    test_run_free(&r);
    EXPECT(0, &r, "proof", room, "--consistency", "7", "20", "--json");
    put_file("consistency.json", r.out);
    char *good = strdup(r.out);
    assert_non_null(good);
    /* strict as action JSON: a member a proof does not have, or one given
     * twice, is refused (exit 2), not ignored */
    char extra[4096];
    snprintf(extra, sizeof extra, "{\"sizee\":3,%s", strchr(r.out, '{') + 1);
    put_file("extra.json", extra);
    snprintf(extra, sizeof extra, "{\"size1\":7,%s", strchr(r.out, '{') + 1);
    put_file("twice.json", extra);
    test_run_free(&r);
    EXPECT(2, &r, "proof", "--check", "extra.json");
    assert_non_null(strstr(r.err, "unknown member \"sizee\""));
    test_run_free(&r);
    EXPECT(2, &r, "proof", "--check", "twice.json");
    assert_non_null(strstr(r.err, "duplicate member \"size1\""));
    test_run_free(&r);

    /* Checked from the files alone: no ledger in the directory. */
    assert_int_equal(rename("mentat.db", "aside.db"), 0);
    EXPECT(0, &r, "proof", "--check", "inclusion.json");
    assert_non_null(strstr(r.out, "ok: room"));
    test_run_free(&r);
    EXPECT(0, &r, "proof", "--check", "consistency.json", "--json");
    assert_non_null(strstr(r.out, "\"ok\":true"));
    test_run_free(&r);
    /* One hex digit of root1 changed: the proof no longer holds. */
    char *p = strstr(good, "\"root1\":\"") + 9;
    *p = *p == 'a' ? 'b' : 'a';
    put_file("bad.json", good);
    free(good);
    EXPECT(1, &r, "proof", "--check", "bad.json");
    assert_non_null(strstr(r.out, "BAD"));
    test_run_free(&r);
    put_file("junk.json", "{\"room\":\"ABCDEFGH\",\"kind\":\"inclusion\"}");
    EXPECT(2, &r, "proof", "--check", "junk.json");
    assert_non_null(strstr(r.err, "not a proof"));
    assert_ptr_equal(strchr(r.err, '\n'), r.err + strlen(r.err) - 1); /* one line */
    test_run_free(&r);
    assert_int_equal(rename("aside.db", "mentat.db"), 0);

    /* Bad usage is one line and exit 2. */
    EXPECT(2, &r, "proof", room);
    test_run_free(&r);
    EXPECT(2, &r, "proof", room, "--inclusion", "21");
    assert_non_null(strstr(r.err, "has 20 events"));
    test_run_free(&r);
    EXPECT(2, &r, "proof", room, "--consistency", "9", "3");
    test_run_free(&r);
    EXPECT(2, &r, "proof", room, "--inclusion", "0");
    test_run_free(&r);
    EXPECT(2, &r, "proof", "--check", "inclusion.json", "--inclusion", "3");
    test_run_free(&r);
}

static void test_cli__backup_restore_round_trip(void **state)
{
    (void)state;
    run_result r;
    keygen();
    char room[SCHEMA_ROOM_CHARS + 1];
    room_create(room, "mentat.db");
    EXPECT(0, &r, "play", room, "--seed", "9", "--max-actions", "4");
    assert_non_null(strstr(r.out, "0 rejected"));
    test_run_free(&r);

    EXPECT(0, &r, "backup", room, "--out", "room.archive");
    assert_non_null(strstr(r.out, room));
    test_run_free(&r);
    EXPECT(0, &r, "--db", "restored.db", "restore", "room.archive", "--json");
    codec_json_token tok[4096];
    parse_json(tok, 4096, r.out);
    char s[64];
    json_string_member(s, sizeof s, tok, 0, r.out, "status");
    assert_string_equal(s, "new");
    json_string_member(s, sizeof s, tok, 0, r.out, "room");
    assert_string_equal(s, room);
    int64_t n_events = json_int_member(tok, 0, r.out, "n_events");
    assert_int_equal(json_int_member(tok, 0, r.out, "n_added"), n_events);
    test_run_free(&r);
    EXPECT(0, &r, "--db", "restored.db", "verify", room);
    test_run_free(&r);

    /* the same history in both ledgers */
    EXPECT(0, &r, "log", room, "--json");
    char *original = strdup(r.out);
    test_run_free(&r);
    EXPECT(0, &r, "--db", "restored.db", "log", room, "--json");
    assert_string_equal(r.out, original);
    free(original);
    test_run_free(&r);

    /* again: nothing to add */
    EXPECT(0, &r, "--db", "restored.db", "restore", "room.archive");
    assert_non_null(strstr(r.out, "0 added"));
    test_run_free(&r);

    /* a longer history extends the restored room */
    act_legal("mentat.db", room, 11);
    EXPECT(0, &r, "backup", room, "--out", "room.archive");
    test_run_free(&r);
    EXPECT(0, &r, "--db", "restored.db", "restore", "room.archive");
    assert_non_null(strstr(r.out, "1 added"));
    assert_non_null(strstr(r.out, "extended"));
    test_run_free(&r);

    /* --all writes a directory */
    EXPECT(0, &r, "backup", "--all", "--out", "all");
    assert_non_null(strstr(r.out, "1 rooms"));
    test_run_free(&r);
}

static void test_cli__truncated_archive_restores_nothing(void **state)
{
    (void)state;
    run_result r;
    keygen();
    char room[SCHEMA_ROOM_CHARS + 1];
    room_create(room, "mentat.db");
    EXPECT(0, &r, "play", room, "--seed", "3", "--max-actions", "3");
    test_run_free(&r);
    EXPECT(0, &r, "backup", room, "--out", "room.archive");
    test_run_free(&r);

    size_t len;
    char *bytes = test_slurp("room.archive", &len);
    assert_true(len > 16);
    FILE *f = fopen("cut.archive", "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(bytes, 1, len - 7, f), len - 7);
    assert_int_equal(fclose(f), 0);
    free(bytes);

    EXPECT(2, &r, "--db", "fresh.db", "restore", "cut.archive");
    assert_non_null(strstr(r.err, "mentat restore: cut.archive"));
    assert_non_null(strstr(r.err, "nothing restored"));
    test_run_free(&r);
    int st = run(&r, "--db", "fresh.db", "room", "list", "--json", (const char *)NULL);
    if (st == 0)
        assert_string_equal(r.out, "[]\n");
    else
        assert_int_equal(st, 2);
    test_run_free(&r);

    EXPECT(2, &r, "--db", "fresh.db", "restore", "no-such.archive");
    test_run_free(&r);
}

static void test_cli__bad_db_paths_are_explained(void **state)
{
    (void)state;
    run_result r;
    keygen();
    EXPECT(2, &r, "--db", "nowhere/x.db", "room", "list");
    assert_non_null(strstr(r.err, "mentat room list: no ledger at nowhere/x.db"));
    test_run_free(&r);
    EXPECT(2, &r, "--db", "nowhere/x.db", "log", "ABCDEFGH");
    assert_non_null(strstr(r.err, "no ledger at"));
    test_run_free(&r);
    EXPECT(2, &r, "--db", "nowhere/x.db", "room", "create", "--players", "2", "--rules",
           "basic", "--factions", "atreides,harkonnen");
    assert_non_null(strstr(r.err, "cannot open ledger nowhere/x.db"));
    test_run_free(&r);
    /* not writable even for root */
    EXPECT(2, &r, "--db", "/proc/mentat-test.db", "room", "create", "--players", "2",
           "--rules", "basic", "--factions", "atreides,harkonnen");
    assert_non_null(strstr(r.err, "cannot open ledger /proc/mentat-test.db"));
    test_run_free(&r);
    if (geteuid() != 0) {
        char room[SCHEMA_ROOM_CHARS + 1];
        room_create(room, "ro.db");
        assert_int_equal(chmod("ro.db", 0444), 0);
        EXPECT(2, &r, "--db", "ro.db", "play", room, "--max-actions", "1");
        assert_non_null(strstr(r.err, "cannot open ledger ro.db"));
        test_run_free(&r);
    }
    /* keys missing: the ledger can be read, not written */
    EXPECT(2, &r, "--keys", "no-keys-here", "room", "create", "--players", "2", "--rules",
           "basic", "--factions", "atreides,harkonnen");
    assert_true(strlen(r.err) > 0);
    test_run_free(&r);
}

/* Copies from (relative to the source tree) to `to` in the cwd, mode 0600. */
static void copy_fixture(const cli_fixture *fx, const char *from, const char *to)
{
    char path[PATH_MAX + 128];
    snprintf(path, sizeof path, "%s/%s", fx->old_cwd, from);
    test_copy_file(path, to, 0600);
}

/* A ledger whose key the build before the key chain rotated twice
 * (tests/fixtures/ledgers/rotated_before_chain): verify names `key repin`,
 * which refuses without a retired secret and writes nothing, then
 * re-pins it with them; verify passes and the room plays on. */
static void test_cli__key_repin_of_an_older_build(void **state)
{
    cli_fixture *fx = *state;
    static const char *const files[] = {"signing.key", "audit.key", "signing-3dae2519.retired",
                                        "signing-fa90f1c7.retired"};
    run_result r;
    copy_fixture(fx, "tests/fixtures/ledgers/rotated_before_chain/mentat.db", "mentat.db");
    assert_int_equal(mkdir("mentat.keys", 0700), 0);
    for (size_t i = 1; i < sizeof files / sizeof files[0]; i++) {
        char from[128], to[128];
        snprintf(from, sizeof from, "tests/fixtures/ledgers/rotated_before_chain/keys/%s",
                 files[i]);
        snprintf(to, sizeof to, "mentat.keys/%s", files[i]);
        copy_fixture(fx, from, to);
    }
    copy_fixture(fx, "tests/fixtures/ledgers/rotated_before_chain/keys/signing.key",
                 "mentat.keys/signing.key");
    EXPECT(1, &r, "verify", "--all");
    assert_non_null(strstr(r.out, "mentat key repin"));
    test_run_free(&r);
    assert_int_equal(rename("mentat.keys/signing-3dae2519.retired", "aside"), 0);
    EXPECT(2, &r, "key", "repin");
    assert_non_null(strstr(r.err, "signing-3dae2519.retired, which is gone"));
    test_run_free(&r);
    EXPECT(1, &r, "verify", "--all"); /* nothing written */
    test_run_free(&r);
    assert_int_equal(rename("aside", "mentat.keys/signing-3dae2519.retired"), 0);
    EXPECT(0, &r, "key", "repin");
    assert_non_null(strstr(r.out, "re-pinned 2 rotations"));
    assert_non_null(strstr(r.out, "3dae2519 -> fa90f1c7 -> 1f014127"));
    test_run_free(&r);
    struct stat st;
    assert_int_not_equal(stat("mentat.keys/signing-3dae2519.retired", &st), 0);
    EXPECT(0, &r, "verify", "--all", "--threads", "2");
    assert_non_null(strstr(r.out, "UCNXKY3V  ok  30 events"));
    test_run_free(&r);
    EXPECT(0, &r, "key", "repin", "--json");
    assert_string_equal(r.out, "{\"endorsed\":0,\"chain\":[]}\n");
    test_run_free(&r);
    EXPECT(0, &r, "play", "UCNXKY3V", "--max-actions", "2");
    test_run_free(&r);
    EXPECT(0, &r, "verify", "UCNXKY3V");
    test_run_free(&r);
    EXPECT(2, &r, "key", "unpin");
    assert_non_null(strstr(r.err, "mentat key rotate | repin"));
    test_run_free(&r);
}

static void test_cli__reveal_and_rotate(void **state)
{
    (void)state;
    run_result r;
    keygen();
    char room[SCHEMA_ROOM_CHARS + 1];
    room_create(room, "mentat.db");
    EXPECT(2, &r, "reveal", room);            /* the game is not over */
    test_run_free(&r);
    EXPECT(0, &r, "reveal", room, "--force");
    assert_non_null(strstr(r.out, "matches commitment"));
    test_run_free(&r);
    EXPECT(0, &r, "key", "rotate", "--json");
    codec_json_token tok[16];
    parse_json(tok, 16, r.out);
    assert_true(json_int_member(tok, 0, r.out, "key_id") > 0);
    test_run_free(&r);
    /* events signed before and after the rotation verify */
    act_legal("mentat.db", room, 21);
    EXPECT(0, &r, "verify", room);
    test_run_free(&r);
}

static void test_cli__play_accepts_every_legal_action(void **state)
{
    (void)state;
    run_result r;
    keygen();
    char room[SCHEMA_ROOM_CHARS + 1];
    room_create(room, "mentat.db");
    EXPECT(0, &r, "play", room, "--seed", "1", "--max-actions", "40");
    assert_non_null(strstr(r.out, " 0 rejected"));
    assert_non_null(strstr(r.out, "phase "));
    test_run_free(&r);
    EXPECT(0, &r, "verify", room);
    test_run_free(&r);
}

/* A new user's report: what the commands say to someone who follows the
 * docs. Backups refuse "-" and files that are not archives (unless
 * forced); a receipt of another room given to `verify ROOM` fails; key
 * ids print as 8 hex digits; a room code typed in lower case is accepted; `mentat --help` names `room fork`. */
static void test_cli__newcomer_report(void **state)
{
    (void)state;
    run_result r;
    keygen();
    char room[SCHEMA_ROOM_CHARS + 1], other[SCHEMA_ROOM_CHARS + 1];
    room_create(room, "mentat.db");
    room_create(other, "mentat.db");

    /* backup --out -: refused, no file named "-" */
    EXPECT(2, &r, "backup", room, "--out", "-");
    assert_non_null(strstr(r.err, "name a file"));
    assert_ptr_equal(strchr(r.err, '\n'), r.err + strlen(r.err) - 1); /* one line */
    test_run_free(&r);
    struct stat st;
    assert_int_not_equal(stat("-", &st), 0);

    /* a file that is not an archive is not replaced without --force */
    put_file("notes.md", "# my notes\n");
    EXPECT(2, &r, "backup", room, "--out", "notes.md");
    assert_non_null(strstr(r.err, "not a Mentat archive"));
    assert_non_null(strstr(r.err, "--force"));
    test_run_free(&r);
    size_t len;
    char *kept = test_slurp("notes.md", &len);
    assert_string_equal(kept, "# my notes\n");
    free(kept);
    /* an archive is replaced; --force replaces the other file */
    EXPECT(0, &r, "backup", room, "--out", "room.archive");
    test_run_free(&r);
    EXPECT(0, &r, "backup", room, "--out", "room.archive");
    test_run_free(&r);
    EXPECT(0, &r, "backup", room, "--out", "notes.md", "--force");
    test_run_free(&r);
    EXPECT(0, &r, "--db", "restored.db", "restore", "notes.md");
    test_run_free(&r);

    /* a receipt of the other room given to verify ROOM fails, named */
    legal_pick p;
    pick_legal(&p, "mentat.db", other, 5);
    EXPECT(0, &r, "act", other, "--seat", p.seat, "--version", "0", "--action", p.json,
           "--json");
    char receipt[4096];
    snprintf(receipt, sizeof receipt, "%s", r.out);
    receipt[strcspn(receipt, "\n")] = '\0';
    test_run_free(&r);
    EXPECT(1, &r, "verify", room, "--receipt", receipt);
    assert_non_null(strstr(r.err, other));
    assert_non_null(strstr(r.err, "not checked"));
    test_run_free(&r);
    EXPECT(1, &r, "verify", room, "--receipt", receipt, "--json");
    assert_non_null(strstr(r.out, "\"ok\":false"));
    test_run_free(&r);
    EXPECT(0, &r, "verify", other, "--receipt", receipt);
    test_run_free(&r);
    /* a receipts file may hold many rooms' receipts: the others are counted */
    put_file("receipts.jsonl", receipt);
    EXPECT(0, &r, "verify", room, "--receipts", "receipts.jsonl");
    assert_non_null(strstr(r.err, "1 receipt of the file names other rooms"));
    test_run_free(&r);

    /* key ids: 8 hex digits in act's text receipt and key rotate */
    pick_legal(&p, "mentat.db", room, 6);
    EXPECT(0, &r, "act", room, "--seat", p.seat, "--version", "0", "--action", p.json);
    const char *k = strstr(r.out, "\nkey        ");
    assert_non_null(k);
    k += strlen("\nkey        ");
    assert_int_equal(strspn(k, "0123456789abcdef"), 8);
    assert_int_equal(k[8], '\n');
    test_run_free(&r);
    EXPECT(0, &r, "key", "rotate");
    k = strstr(r.out, "new signing key ");
    assert_non_null(k);
    k += strlen("new signing key ");
    assert_int_equal(strspn(k, "0123456789abcdef"), 8);
    assert_int_equal(k[8], ';');
    test_run_free(&r);

    /* a code typed in lower case is that code; a code that is none is
     * told what codes are */
    char lower[SCHEMA_ROOM_CHARS + 1];
    for (int i = 0; i <= SCHEMA_ROOM_CHARS; i++)
        lower[i] = (char)tolower((unsigned char)room[i]);
    EXPECT(0, &r, "state", lower);
    assert_non_null(strstr(r.out, room));
    test_run_free(&r);
    EXPECT(0, &r, "verify", lower);
    assert_non_null(strstr(r.out, room));
    test_run_free(&r);
    EXPECT(2, &r, "state", "S0VR4VLD"); /* 0 is not in the alphabet */
    assert_non_null(strstr(r.err, "upper-case"));
    test_run_free(&r);

    /* the top help names every room subcommand */
    EXPECT(0, &r, "--help");
    assert_non_null(strstr(r.out, "room fork"));
    test_run_free(&r);
}

/* README.md's first walkthrough, run as written (the block after "## A
 * first game in ten minutes", with ./mentat the binary under test) by
 * sh -e: every command succeeds, and nothing is left in the directory it
 * was run from (its files go to the scratch directory it makes). */
static void test_cli__readme_walkthrough_runs(void **state)
{
    const cli_fixture *fx = *state;
    char path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/README.md", fx->old_cwd);
    size_t len;
    char *readme = test_slurp(path, &len);
    assert_non_null(readme);
    const char *sec = strstr(readme, "\n## A first game in ten minutes\n");
    assert_non_null(sec);
    const char *begin = strstr(sec, "\n```sh\n");
    assert_non_null(begin);
    begin += strlen("\n```sh\n");
    const char *end = strstr(begin, "\n```\n");
    assert_non_null(end);

    assert_int_equal(mkdir("scratch", 0700), 0);
    FILE *f = fopen("walk.sh", "w");
    assert_non_null(f);
    fputs("TMPDIR=$PWD/scratch; export TMPDIR\n", f);
    size_t n_mentat = 0;
    for (const char *c = begin; c < end + 1; c++) {
        if (strncmp(c, "./mentat", 8) == 0) {
            fputs(mentat_bin, f);
            c += 7;
            n_mentat++;
        } else {
            fputc(*c, f);
        }
    }
    assert_int_equal(fclose(f), 0);
    free(readme);
    assert_true(n_mentat >= 3);

    run_result r;
    char sh[] = "/bin/sh";
    const char *args[] = {"-e", "walk.sh", NULL};
    int got = test_run_argv(&r, sh, ".cli-out", ".cli-err", args);
    if (got != 0)
        print_error("exit %d\nstdout: %s\nstderr: %s\n", got, r.out, r.err);
    assert_int_equal(got, 0);
    assert_non_null(strstr(r.out, "accepted"));
    assert_non_null(strstr(r.out, "restored "));
    test_run_free(&r);

    /* only what this test made is here */
    DIR *d = opendir(".");
    assert_non_null(d);
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        const char *nm = e->d_name;
        int is_ours = strcmp(nm, ".") == 0 || strcmp(nm, "..") == 0 ||
                      strcmp(nm, "scratch") == 0 || strcmp(nm, "walk.sh") == 0 ||
                      strcmp(nm, ".cli-out") == 0 || strcmp(nm, ".cli-err") == 0;
        if (!is_ours)
            print_error("the walkthrough left %s behind\n", nm);
        assert_true(is_ours);
    }
    closedir(d);
}

/* verify says what it did not check: a fork's link to an origin the
 * ledger does not hold, and digests not re-folded because the audit key
 * at hand is another ledger's (not "no audit key"). */
static void test_cli__verify_says_what_it_did_not_check(void **state)
{
    (void)state;
    run_result r;
    keygen();
    char room[SCHEMA_ROOM_CHARS + 1], fork[SCHEMA_ROOM_CHARS + 1];
    room_create(room, "mentat.db");
    EXPECT(0, &r, "play", room, "--seed", "4", "--max-actions", "3");
    test_run_free(&r);
    EXPECT(0, &r, "room", "fork", room, "--at", "2");
    assert_true(strlen(r.out) >= SCHEMA_ROOM_CHARS);
    memcpy(fork, r.out, SCHEMA_ROOM_CHARS);
    fork[SCHEMA_ROOM_CHARS] = '\0';
    test_run_free(&r);
    /* with its origin at hand the link is checked: no note */
    EXPECT(0, &r, "verify", fork);
    assert_null(strstr(r.out, "not checked"));
    test_run_free(&r);
    EXPECT(0, &r, "backup", fork, "--out", "fork.archive");
    test_run_free(&r);
    EXPECT(0, &r, "--db", "alone.db", "restore", "fork.archive");
    test_run_free(&r);
    EXPECT(0, &r, "--db", "alone.db", "verify", fork);
    assert_non_null(strstr(r.out, room));
    assert_non_null(strstr(r.out, "its link to the origin was not checked"));
    test_run_free(&r);
    EXPECT(0, &r, "--db", "alone.db", "verify", fork, "--json");
    assert_non_null(strstr(r.out, "\"fork_origin_checked\":false"));
    test_run_free(&r);

    EXPECT(0, &r, "--keys", "other.keys", "keygen");
    test_run_free(&r);
    EXPECT(0, &r, "--keys", "other.keys", "verify", room);
    assert_non_null(strstr(r.out, "the audit key here is not this room's"));
    test_run_free(&r);
    EXPECT(0, &r, "--keys", "other.keys", "state", room); /* the stored public view */
    assert_non_null(strstr(r.out, "no audit key: the public view"));
    test_run_free(&r);
    EXPECT(2, &r, "--keys", "other.keys", "state", room, "--seat", "1");
    assert_non_null(strstr(r.err, "the key directory other.keys holds audit key"));
    test_run_free(&r);
    EXPECT(0, &r, "--keys", "no.keys", "verify", room);
    assert_non_null(strstr(r.out, "no audit key"));
    test_run_free(&r);
}

/* ================================================================ main */

static int find_binary(const char *argv0)
{
    return test_find_mentat(mentat_bin, argv0, "test_cli");
}

int main(int argc, char **argv)
{
    (void)argc;
    if (find_binary(argv[0]) != 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_cli__help_exits_0_everywhere, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cli__bad_usage_exits_2, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cli__game_round_trip, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cli__refusals_exit_2, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cli__stored_rooms_of_earlier_builds, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_cli__verify_names_tampered_version, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_cli__proofs_check_without_the_ledger, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_cli__backup_restore_round_trip, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cli__truncated_archive_restores_nothing, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_cli__bad_db_paths_are_explained, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_cli__reveal_and_rotate, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cli__key_repin_of_an_older_build, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cli__play_accepts_every_legal_action, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_cli__newcomer_report, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cli__readme_walkthrough_runs, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cli__verify_says_what_it_did_not_check, setup,
                                        teardown),
    };
    return cmocka_run_group_tests_name("cli", tests, NULL, NULL);
}
