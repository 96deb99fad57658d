/*
 * test_web.c - the web client in a real browser: `mentat serve` on
 * loopback, a room of one seat and five bots, and tests/web/play.js
 * driving Debian's headless Chromium through puppeteer-core (installed,
 * pinned by tests/web/package-lock.json, into tests/web/node_modules on
 * first run) to play the whole game by clicking the page's forms, checking
 * after every decision that the page holds nothing hidden from the seat.
 * Screenshots of the board at three moments go to <build>/web-screenshots/.
 * A second game has the page create its room (room.html?create=1), seat 1
 * bound to the page's WebCrypto Ed25519 key: every action of seat 1 then
 * carries the page's signature, and `mentat verify` counts one seat
 * signature per action of seat 1 in the ledger.
 *
 * Without chromium, node or npm (scripts/deps.sh installs them), or when
 * puppeteer-core cannot be installed, this suite fails, saying which: it
 * never passes without having run the browser.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "schema/schema.h"
#include "server/server.h"
#include "tests/support/support.h"
#include "tools/internal.h"

#define BOTS "{\"2\":\"medium\",\"3\":\"easy\",\"4\":\"medium\",\"5\":\"easy\",\"6\":\"medium\"}"

static char mentat_bin[PATH_MAX];
static char build_dir[PATH_MAX];   /* absolute: where the screenshots go */

/* The string member key of JSON text into out. */
static void member_string(char *out, size_t cap, const char *json, const char *key)
{
    codec_json_token tok[256];
    int n = codec_json_parse(tok, 256, json, strlen(json), NULL);
    int t = n > 0 ? codec_json_member(tok, 0, json, key) : -1;
    if (t < 0 || codec_json_string(out, cap, &tok[t], json) != 0)
        fail_msg("no %s in %.300s", key, json);
}

static int have(const char *tool)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "command -v %s > /dev/null 2>&1", tool);
    return system(cmd) == 0;
}

/* Checks the tools, installs puppeteer-core, enters a fresh directory
 * (dir, old) and starts the server there. */
static void web_start(char *repo, char *dir, char *old, pid_t *pid, unsigned *port,
                      char referee[SERVER_TOKEN_CHARS + 1])
{
    const char *need[] = {"chromium", "node", "npm"};
    for (size_t i = 0; i < 3; i++)
        if (!have(need[i]))
            fail_msg("%s is missing: run scripts/deps.sh (the browser test cannot run)", need[i]);
    assert_non_null(getcwd(repo, PATH_MAX));
    char cmd[3 * PATH_MAX];
    snprintf(cmd, sizeof cmd,
             "cd %s/tests/web && { [ -d node_modules/puppeteer-core ] || "
             "npm ci --no-audit --no-fund --loglevel=error > npm.log 2>&1; }",
             repo);
    if (system(cmd) != 0)
        fail_msg("npm ci in tests/web failed (see tests/web/npm.log): puppeteer-core is needed");

    assert_int_equal(test_tmpdir_enter(dir, old, "mentat-web"), 0);
    test_run_result r;
    const char *keygen[] = {"--keys", "keys", "keygen", NULL};
    assert_int_equal(test_run_argv(&r, mentat_bin, ".out", ".err", keygen), 0);
    test_run_free(&r);
    char web[PATH_MAX + 16];
    snprintf(web, sizeof web, "%s/tools/web", repo);
    test_serve_start(pid, port, referee, mentat_bin, web);
}

static void test_web__plays_a_game_in_chromium(void **state)
{
    (void)state;
    char repo[PATH_MAX], dir[PATH_MAX], old[PATH_MAX], cmd[3 * PATH_MAX];
    pid_t pid;
    unsigned port;
    char referee[SERVER_TOKEN_CHARS + 1];
    web_start(repo, dir, old, &pid, &port, referee);

    tool_http_reply rep;
    const char body[] = "{\"factions\":[\"atreides\",\"bene_gesserit\",\"emperor\",\"fremen\","
                        "\"harkonnen\",\"guild\"],\"rules\":\"basic\",\"turns\":1,\"bots\":" BOTS "}";
    assert_int_equal(tool_http_request(&rep, port, "POST", "/api/rooms", NULL, body, 20000), 0);
    assert_int_equal(rep.status, 201);
    char room[SCHEMA_ROOM_CHARS + 1], token[SERVER_TOKEN_CHARS + 1], path[64];
    member_string(room, sizeof room, rep.body, "room");
    tool_http_reply_free(&rep);
    snprintf(path, sizeof path, "/api/rooms/%s/join", room);
    assert_int_equal(tool_http_request(&rep, port, "POST", path, NULL, "{\"seat\":1}", 20000), 0);
    assert_int_equal(rep.status, 200);
    member_string(token, sizeof token, rep.body, "token");
    tool_http_reply_free(&rep);

    snprintf(cmd, sizeof cmd, "node %s/tests/web/play.js http://127.0.0.1:%u %s %s %s %s/web-screenshots",
             repo, port, room, token, referee, build_dir);
    int status = system(cmd);
    assert_int_equal(test_serve_signal(pid, SIGTERM), 0);
    assert_int_equal(test_tmpdir_leave(dir, old), 0);
    if (status != 0)
        fail_msg("the browser test failed (its message is above)");
    const char *shots[] = {"start", "middle", "end"};
    for (size_t i = 0; i < 3; i++) {
        char png[PATH_MAX + 64];
        snprintf(png, sizeof png, "%s/web-screenshots/%s.png", build_dir, shots[i]);
        assert_int_equal(access(png, R_OK), 0);
    }
}

/* The number of events whose seat is `seat` in `mentat log --json`. */
static unsigned seat_events(const char *log, unsigned seat)
{
    char pat[48];
    snprintf(pat, sizeof pat, ",\"seat\":%u,\"faction\"", seat);
    unsigned n = 0;
    for (const char *p = strstr(log, pat); p != NULL; p = strstr(p + 1, pat))
        n++;
    return n;
}

static void test_web__signs_a_bound_seat_in_chromium(void **state)
{
    (void)state;
    char repo[PATH_MAX], dir[PATH_MAX], old[PATH_MAX], cmd[3 * PATH_MAX];
    pid_t pid;
    unsigned port;
    char referee[SERVER_TOKEN_CHARS + 1];
    web_start(repo, dir, old, &pid, &port, referee);

    snprintf(cmd, sizeof cmd, "node %s/tests/web/play.js http://127.0.0.1:%u new - %s %s/web-screenshots-signed",
             repo, port, referee, build_dir);
    int status = system(cmd);
    assert_int_equal(test_serve_signal(pid, SIGTERM), 0);
    if (status != 0) {
        assert_int_equal(test_tmpdir_leave(dir, old), 0);
        fail_msg("the browser test of a bound seat failed (its message is above)");
    }
    char file[PATH_MAX + 32], room[SCHEMA_ROOM_CHARS + 1];
    snprintf(file, sizeof file, "%s/web-screenshots-signed/room.txt", build_dir);
    char *txt = test_slurp(file, NULL);
    snprintf(room, sizeof room, "%.*s", (int)strcspn(txt, "\n"), txt);
    free(txt);

    test_run_result r;
    const char *log[] = {"--keys", "keys", "log", room, "--json", NULL};
    assert_int_equal(test_run_argv(&r, mentat_bin, ".out", ".err", log), 0);
    unsigned n_seat1 = seat_events(r.out, 1);
    test_run_free(&r);
    const char *verify[] = {"--keys", "keys", "verify", room, "--json", NULL};
    int rc = test_run_argv(&r, mentat_bin, ".out", ".err", verify);
    char want[64];
    snprintf(want, sizeof want, "\"n_seat_signatures\":%u,", n_seat1);
    int counted = strstr(r.out, want) != NULL;
    if (rc != 0 || n_seat1 == 0 || !counted)
        print_message("verify (%d), %u events of seat 1: %s%s\n", rc, n_seat1, r.out, r.err);
    test_run_free(&r);
    assert_int_equal(test_tmpdir_leave(dir, old), 0);
    assert_int_equal(rc, 0);
    assert_true(n_seat1 > 0);
    assert_true(counted);
}

int main(int argc, char **argv)
{
    (void)argc;
    if (test_find_mentat(mentat_bin, argv[0], "test_web") != 0)
        return 1;
    /* <build>/tests/server/test_web: the build folder is three levels up. */
    char *abs = realpath(argv[0], NULL);
    if (abs == NULL)
        return 1;
    for (int up = 0; up < 3; up++) {
        char *slash = strrchr(abs, '/');
        if (slash != NULL)
            *slash = '\0';
    }
    snprintf(build_dir, sizeof build_dir, "%s", abs);
    free(abs);
    signal(SIGPIPE, SIG_IGN);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_web__plays_a_game_in_chromium),
        cmocka_unit_test(test_web__signs_a_bound_seat_in_chromium),
    };
    return cmocka_run_group_tests_name("web", tests, NULL, NULL);
}
