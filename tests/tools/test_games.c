/*
 * test_games.c - bot games through the real ledger: every action signed
 * and appended with group commit from two threads, the ledger's final
 * states those of play in memory, every room verifying; continuations
 * through backup archives into fresh ledgers end exactly where
 * uninterrupted play ends; `mentat games --json` reports completed games,
 * no rejection and the same digest for the same seed.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
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

typedef struct games_fixture {
    char dir[64];                  /* temporary directory */
    char keys[128];                /* dir/keys */
    char work[128];                /* dir/work: continuation files */
} games_fixture;

static int setup(void **state)
{
    games_fixture *f = calloc(1, sizeof *f);
    assert_non_null(f);
    snprintf(f->dir, sizeof f->dir, "/tmp/mentat-games-XXXXXX");
    assert_non_null(mkdtemp(f->dir));
    snprintf(f->keys, sizeof f->keys, "%s/keys", f->dir);
    snprintf(f->work, sizeof f->work, "%s/work", f->dir);
    assert_int_equal(mkdir(f->work, 0700), 0);
    char err[SCHEMA_ERRMSG];
    assert_int_equal(ledger_keygen(f->keys, err), 0);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    games_fixture *f = *state;
    test_rm_tree(f->dir);
    free(f);
    return 0;
}

static void specs_init(bot_game_spec *specs, size_t n, unsigned seats, uint64_t seed)
{
    for (size_t i = 0; i < n; i++) {
        bot_game_spec *sp = &specs[i];
        memset(sp, 0, sizeof *sp);
        engine_config_init(&sp->config);
        sp->config.n_seats = (uint8_t)seats;
        sp->config.turn_limit = 6;
        for (unsigned s = 0; s < seats; s++) {
            sp->config.faction[s] = (uint8_t)(ENGINE_FACTION_CLASSIC_FIRST + (s + i) % 6);
            sp->level[s] = (uint8_t)((s + i) % 3); /* easy, medium, hard */
        }
        bot_game_seeds(sp->room_seed, &sp->bots_seed, seed, (uint32_t)i);
    }
}

/* Opens the ledger file `name` of the fixture's directory, with its keys:
 * without fsync (fast tests; durability is the ledger suite's) or
 * read-only. */
static ledger *ledger_at(const games_fixture *f, const char *name, int is_read_only)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", f->dir, name);
    ledger_options opt;
    ledger_options_init(&opt);
    opt.path = path;
    opt.keys_dir = f->keys;
    opt.is_unsafe_no_sync = !is_read_only;
    opt.is_read_only = is_read_only;
    ledger *db = NULL;
    assert_int_equal(ledger_open(&db, &opt), 0);
    return db;
}

/* Plays specs through a ledger at path (K continuations each), checks
 * every game and returns the results (caller frees). */
static bot_game_result *play_ledger(const games_fixture *f, const char *name,
                                    const bot_game_spec *specs, size_t n, unsigned k)
{
    ledger *db = ledger_at(f, name, 0);
    ledger_group *group = NULL;
    bot_gate *gate = NULL;
    assert_int_equal(ledger_group_new(&group, db), 0);
    assert_int_equal(bot_gate_new(&gate), 0);
    bot_game_ledger lg = {db, group, gate, f->keys, f->work, k, 1};
    bot_game_result *r = calloc(n, sizeof *r);
    assert_non_null(r);
    assert_int_equal(bot_games_run(r, specs, n, 2, bot_play_ledger, &lg, 0, ""), 0);
    for (size_t i = 0; i < n; i++) {
        if (r[i].rc != 0)
            print_error("game %zu: %s\n", i, r[i].err);
        assert_int_equal(r[i].rc, 0);
        assert_true(r[i].is_complete);
        assert_int_equal(r[i].n_rejected, 0);
        assert_false(r[i].is_ledger_mismatch);
        /* The room in the main ledger is complete and verifies. */
        ledger_verify_report rep;
        assert_int_equal(ledger_verify_room(db, &rep, r[i].room, 1), 0);
        assert_int_equal(rep.n_events, r[i].n_actions);
        assert_true(rep.is_refolded);
    }
    ledger_group_free(group);
    bot_gate_free(gate);
    ledger_close(db);
    return r;
}

static void test_games__ledger_games_are_memory_games(void **state)
{
    games_fixture *f = *state;
    enum { N = 4 };
    bot_game_spec specs[N];
    specs_init(specs, N, 3, 11);
    bot_game_result *led = play_ledger(f, "a.db", specs, N, 0);
    bot_game_result mem[N];
    assert_int_equal(bot_games_run(mem, specs, N, 2, bot_play_memory, NULL, 0, ""), 0);
    for (size_t i = 0; i < N; i++) {
        assert_int_equal(mem[i].n_actions, led[i].n_actions);
        assert_memory_equal(mem[i].digest, led[i].digest, sizeof mem[i].digest);
        assert_int_equal(led[i].n_restores, 0);
    }
    free(led);
}

/* Games with the Nexus Cards, through the ledger: every level draws,
 * keeps and declines from its own view, the games complete with no
 * refusal, and the draw opportunity comes up. A small set: the 1,000-game
 * campaign is `make soak`. */
static void test_games__nexus_cards_games_complete(void **state)
{
    games_fixture *f = *state;
    enum { N = 6 };
    bot_game_spec specs[N];
    specs_init(specs, N, 5, 21);
    for (size_t i = 0; i < N; i++) {
        specs[i].config.modules = ENGINE_MODULE_NEXUS_CARDS;
        for (unsigned s = 0; s < 5; s++)
            specs[i].level[s] = (uint8_t)((s + i) % BOT_LEVEL_COUNT);
    }
    bot_game_result *led = play_ledger(f, "n.db", specs, N, 0);
    uint32_t answers = 0, draws = 0, panels = 0;
    for (size_t i = 0; i < N; i++) {
        answers += led[i].n_nexus_answers;
        draws += led[i].n_nexus_draws;
        for (unsigned p = 1; p <= ENGINE_NEXUS_PANEL_COUNT; p++)
            panels += led[i].n_nexus_panels[p];
    }
    print_message("nexus cards: %u games, %u draw answers, %u draws, %u panels played\n",
                  (unsigned)N, answers, draws, panels);
    assert_true(panels <= draws); /* a card is played at most once */
    assert_true(draws > 0);
    assert_true(answers > draws); /* some declined or kept */
    free(led);
}

/* Advanced games (rules version 6) through the ledger, one at each table
 * size from 2 to 6 seats, every level seated: each decides from its own
 * view (the Advanced decisions no level makes yet take the legal
 * default), every game completes, no refusal, every room verifies and
 * re-folds. A small set: the 1,000-game campaign is `make soak`. */
static void test_games__advanced_games_complete(void **state)
{
    games_fixture *f = *state;
    enum { N = 5 };
    bot_game_spec specs[N];
    for (size_t i = 0; i < N; i++) {
        unsigned seats = (unsigned)(ENGINE_MIN_SEATS + i);
        specs_init(&specs[i], 1, seats, 31 + i);
        specs[i].config.is_advanced = 1;
        for (unsigned s = 0; s < seats; s++)
            specs[i].level[s] = (uint8_t)((s + i) % BOT_LEVEL_COUNT);
    }
    bot_game_result *led = play_ledger(f, "adv.db", specs, N, 0);
    uint32_t actions = 0;
    for (size_t i = 0; i < N; i++)
        actions += led[i].n_actions;
    print_message("advanced: %u games, %u actions\n", (unsigned)N, actions);
    free(led);
}

static void test_games__continuations_match_uninterrupted_play(void **state)
{
    games_fixture *f = *state;
    enum { N = 3 };
    bot_game_spec specs[N];
    specs_init(specs, N, 4, 12);
    bot_game_result *plain = play_ledger(f, "plain.db", specs, N, 0);
    bot_game_result *moved = play_ledger(f, "moved.db", specs, N, 3);
    unsigned restores = 0;
    for (size_t i = 0; i < N; i++) {
        assert_int_equal(plain[i].n_actions, moved[i].n_actions);
        assert_memory_equal(plain[i].digest, moved[i].digest, sizeof plain[i].digest);
        restores += moved[i].n_restores;
    }
    assert_true(restores >= N); /* each game moved at least once */
    /* Nothing is left behind in the work directory. */
    DIR *d = opendir(f->work);
    assert_non_null(d);
    struct dirent *e;
    unsigned left = 0;
    while ((e = readdir(d)) != NULL)
        left += e->d_name[0] != '.';
    closedir(d);
    assert_int_equal(left, 0);
    free(plain);
    free(moved);
}

typedef int command_fn(int argc, char **argv, const tool_globals *g);

/* Runs `cmd` (a command's entry) in a child with stdout to a file, --json
 * and the ledger db at f->dir/db; returns its exit status and the output
 * (caller frees). */
static char *command_json(int *status, const games_fixture *f, command_fn *cmd, const char *db,
                          int argc, char **argv)
{
    char out_path[256];
    snprintf(out_path, sizeof out_path, "%s/out.json", f->dir);
    fflush(stdout);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        if (freopen(out_path, "wb", stdout) == NULL)
            _exit(126);
        tool_globals g;
        memset(&g, 0, sizeof g);
        char db_path[256];
        snprintf(db_path, sizeof db_path, "%s/%s", f->dir, db);
        g.db_path = db_path;
        g.keys_dir = f->keys;
        g.is_json = 1;
        int rc = cmd(argc, argv, &g);
        fflush(stdout);
        _exit(rc);
    }
    int ws;
    assert_int_equal(waitpid(pid, &ws, 0), pid);
    *status = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128;
    FILE *in = fopen(out_path, "rb");
    assert_non_null(in);
    char *buf = calloc(1, 65536);
    assert_non_null(buf);
    size_t len = fread(buf, 1, 65535, in);
    fclose(in);
    buf[len] = '\0';
    return buf;
}

/* `mentat games --json` of three fixed-seed games, `extra` appended. */
static char *games_json(int *status, const games_fixture *f, const char *db, const char *extra)
{
    char *argv[] = {"games", "--players", "3", "--rules", "basic", "--games", "3",
                    "--bots", "easy,medium,hard", "--seed", "99", "--jobs", "2",
                    "--turns", "5", (char *)extra, NULL};
    return command_json(status, f, cmd_games, db, extra != NULL ? 16 : 15, argv);
}

static int64_t member_int(const codec_json_token *tok, const char *text, const char *key)
{
    int i = codec_json_member(tok, 0, text, key);
    if (i < 0)
        print_error("no \"%s\" in %s\n", key, text);
    assert_true(i >= 0);
    int64_t v;
    assert_int_equal(codec_json_int(&v, &tok[i], text), 0);
    return v;
}

/* The "rooms" of a `games --json` report are exactly the rooms of the
 * ledger db, each played to its end. */
static void rooms_are_the_ledgers(const games_fixture *f, const char *db,
                                  const codec_json_token *tok, const char *text, int n_games)
{
    int arr = codec_json_member(tok, 0, text, "rooms");
    assert_true(arr >= 0);
    assert_int_equal(tok[arr].type, CODEC_JSON_ARRAY);
    assert_int_equal(tok[arr].size, n_games);
    ledger *l = ledger_at(f, db, 1);
    char (*codes)[SCHEMA_ROOM_CHARS + 1] = NULL;
    size_t n_codes = 0;
    assert_int_equal(tool_room_codes(&codes, &n_codes, l), 0);
    assert_int_equal(n_codes, (size_t)n_games);
    static engine_state st;
    uint32_t item = (uint32_t)arr + 1;
    for (int i = 0; i < n_games; i++, item = tok[item].next) {
        char room[SCHEMA_ROOM_CHARS + 1];
        assert_int_equal(codec_json_string(room, sizeof room, &tok[item], text), 0);
        int is_listed = 0;
        for (size_t k = 0; k < n_codes; k++)
            is_listed |= strcmp(codes[k], room) == 0;
        assert_true(is_listed);
        ledger_room_info info;
        assert_int_equal(ledger_room_info_get(l, &info, room), 0);
        assert_int_equal(ledger_state_at(l, &st, room, info.version), 0);
        assert_int_equal(st.phase, ENGINE_PHASE_GAME_OVER);
    }
    free(codes);
    ledger_close(l);
}

static void test_games__command_reports_and_repeats(void **state)
{
    games_fixture *f = *state;
    int st1, st2, st3;
    char *a = games_json(&st1, f, "one.db", NULL);
    char *b = games_json(&st2, f, "two.db", NULL);
    char *c = games_json(&st3, f, "three.db", "--continuations=2");
    assert_int_equal(st1, 0);
    assert_int_equal(st2, 0);
    assert_int_equal(st3, 0);
    static codec_json_token ta[512], tb[512], tc[512];
    char err[SCHEMA_ERRMSG];
    assert_true(codec_json_parse(ta, 512, a, strlen(a), err) > 0);
    assert_true(codec_json_parse(tb, 512, b, strlen(b), err) > 0);
    assert_true(codec_json_parse(tc, 512, c, strlen(c), err) > 0);
    assert_int_equal(member_int(ta, a, "completed"), 3);
    assert_int_equal(member_int(ta, a, "rejections"), 0);
    assert_int_equal(member_int(tc, c, "continuation_mismatches"), 0);
    assert_true(member_int(tc, c, "restores") >= 3);
    char da[80], db[80], dc[80];
    assert_int_equal(codec_json_string(da, sizeof da, &ta[codec_json_member(ta, 0, a, "digest")], a), 0);
    assert_int_equal(codec_json_string(db, sizeof db, &tb[codec_json_member(tb, 0, b, "digest")], b), 0);
    assert_int_equal(codec_json_string(dc, sizeof dc, &tc[codec_json_member(tc, 0, c, "digest")], c), 0);
    assert_string_equal(da, db);
    assert_string_equal(da, dc);
    assert_int_equal(strlen(da), 64);
    assert_true(codec_json_member(ta, 0, a, "victories") >= 0);
    assert_true(codec_json_member(ta, 0, a, "games_per_s") >= 0);
    rooms_are_the_ledgers(f, "one.db", ta, a, 3);
    free(a);
    free(b);
    free(c);
}

/* `mentat tournament --rules advanced` plays Advanced games (the issue's
 * "the tournament orders the four levels ... in Advanced games"; the
 * ordering itself is measured at length by `make soak`): every game
 * complete, none refused, the report says which rules. */
static void test_games__advanced_tournament(void **state)
{
    games_fixture *f = *state;
    char *argv[] = {"tournament", "--games", "6", "--levels", "easy,brutal", "--players", "3",
                    "--rules", "advanced", "--turns", "3", "--jobs", "2", NULL};
    int status;
    char *out = command_json(&status, f, cmd_tournament, "unused.db", 13, argv);
    assert_int_equal(status, 0);
    static codec_json_token tok[1024];
    char err[SCHEMA_ERRMSG];
    assert_true(codec_json_parse(tok, 1024, out, strlen(out), err) > 0);
    char rules[16];
    int i = codec_json_member(tok, 0, out, "rules");
    assert_true(i >= 0);
    assert_int_equal(codec_json_string(rules, sizeof rules, &tok[i], out), 0);
    assert_string_equal(rules, "advanced");
    assert_int_equal(member_int(tok, out, "games"), 6);
    assert_int_equal(member_int(tok, out, "completed"), 6);
    assert_int_equal(member_int(tok, out, "rejections"), 0);
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_games__ledger_games_are_memory_games, setup, teardown),
        cmocka_unit_test_setup_teardown(test_games__nexus_cards_games_complete, setup, teardown),
        cmocka_unit_test_setup_teardown(test_games__advanced_games_complete, setup, teardown),
        cmocka_unit_test_setup_teardown(test_games__advanced_tournament, setup, teardown),
        cmocka_unit_test_setup_teardown(test_games__continuations_match_uninterrupted_play, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_games__command_reports_and_repeats, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
