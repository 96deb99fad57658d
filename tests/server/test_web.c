/*
 * test_web.c - the web client in a real browser: `mentat serve` on
 * loopback, a room of one seat and five bots, and tests/web/play.js
 * driving Debian's headless Chromium through puppeteer-core (installed,
 * pinned by tests/web/package-lock.json, into tests/web/node_modules on
 * first run) to play the whole game by clicking the page's forms, checking
 * after every decision that the page holds nothing hidden from the seat.
 * Screenshots of the board at three moments go to <build>/web-screenshots/.
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

static void test_web__plays_a_game_in_chromium(void **state)
{
    (void)state;
    const char *need[] = {"chromium", "node", "npm"};
    for (size_t i = 0; i < 3; i++)
        if (!have(need[i]))
            fail_msg("%s is missing: run scripts/deps.sh (the browser test cannot run)", need[i]);
    char repo[PATH_MAX];
    assert_non_null(getcwd(repo, sizeof repo));
    char cmd[3 * PATH_MAX];
    snprintf(cmd, sizeof cmd,
             "cd %s/tests/web && { [ -d node_modules/puppeteer-core ] || "
             "npm ci --no-audit --no-fund --loglevel=error > npm.log 2>&1; }",
             repo);
    if (system(cmd) != 0)
        fail_msg("npm ci in tests/web failed (see tests/web/npm.log): puppeteer-core is needed");

    char dir[PATH_MAX], old[PATH_MAX];
    assert_int_equal(test_tmpdir_enter(dir, old, "mentat-web"), 0);
    test_run_result r;
    const char *keygen[] = {"--keys", "keys", "keygen", NULL};
    assert_int_equal(test_run_argv(&r, mentat_bin, ".out", ".err", keygen), 0);
    test_run_free(&r);
    char web[PATH_MAX + 16];
    snprintf(web, sizeof web, "%s/tools/web", repo);
    pid_t pid;
    unsigned port;
    char referee[SERVER_TOKEN_CHARS + 1];
    test_serve_start(&pid, &port, referee, mentat_bin, web);

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
    };
    return cmocka_run_group_tests_name("web", tests, NULL, NULL);
}
