/*
 * test_server.c - `mentat serve` over real HTTP on loopback: a whole game
 * of one seat against five bots through the JSON API, the seat's view
 * byte for byte the JSON of `mentat state --seat --json`; malformed
 * requests answered 4xx with a JSON error and nothing written (headers
 * past a connection's memory: libmicrohttpd's own 431); the push
 * stream and its resumption from Last-Event-ID; SIGKILL and SIGTERM in
 * the middle of games, every acknowledged action then found in the
 * ledger (`mentat verify --receipts`); the curl examples of docs/API.md.
 *
 * Each case starts its own server (port 0: the kernel picks a free one)
 * in a fresh temporary directory and stops it by its process id.
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
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>

#include "ledger/ledger.h"
#include "schema/schema.h"
#include "server/server.h"
#include "tests/support/support.h"
#include "tools/internal.h"

#define TIMEOUT_MS 20000
#define SIX "[\"atreides\",\"bene_gesserit\",\"emperor\",\"fremen\",\"harkonnen\",\"guild\"]"
#define FIVE_BOTS "{\"2\":\"medium\",\"3\":\"easy\",\"4\":\"medium\",\"5\":\"easy\",\"6\":\"medium\"}"
#define MAX_TOKENS 65536

static char mentat_bin[PATH_MAX];

typedef struct fixture {
    char dir[PATH_MAX];
    char old_cwd[PATH_MAX];
    char web[PATH_MAX + 16];
    pid_t pid;                     /* the server, 0 none */
    unsigned port;
    char referee[SERVER_TOKEN_CHARS + 1];
} fixture;

/* ============================================================ server */

static void server_start(fixture *fx)
{
    test_serve_start(&fx->pid, &fx->port, fx->referee, mentat_bin, fx->web);
}

static int server_signal(fixture *fx, int sig)
{
    int status = test_serve_signal(fx->pid, sig);
    fx->pid = 0;
    return status;
}

static int setup(void **state)
{
    fixture *fx = calloc(1, sizeof *fx);
    if (fx == NULL || test_tmpdir_enter(fx->dir, fx->old_cwd, "mentat-serve") != 0)
        return -1;
    snprintf(fx->web, sizeof fx->web, "%s/tools/web", fx->old_cwd);
    test_run_result r;
    const char *args[] = {"--keys", "keys", "keygen", NULL};
    if (test_run_argv(&r, mentat_bin, ".out", ".err", args) != 0)
        return -1;
    test_run_free(&r);
    *state = fx;
    return 0;
}

static int teardown(void **state)
{
    fixture *fx = *state;
    if (fx->pid > 0)
        (void)server_signal(fx, SIGKILL);
    int rc = test_tmpdir_leave(fx->dir, fx->old_cwd);
    free(fx);
    return rc;
}

/* ============================================================ HTTP */

/* A request expected to answer `status`; the reply (free it). */
static tool_http_reply http(const fixture *fx, unsigned status, const char *method,
                            const char *path, const char *token, const char *body)
{
    tool_http_reply r;
    int rc = tool_http_request(&r, fx->port, method, path, token, body, TIMEOUT_MS);
    if (rc != 0)
        fail_msg("%s %s: no reply", method, path);
    if (r.status != status)
        fail_msg("%s %s: %u, expected %u: %s", method, path, r.status, status, r.body);
    return r;
}

typedef struct doc {
    codec_json_token *tok;
    const char *text;
} doc;

static doc doc_of(const char *text)
{
    doc d = {malloc(MAX_TOKENS * sizeof(codec_json_token)), text};
    assert_non_null(d.tok);
    int n = codec_json_parse(d.tok, MAX_TOKENS, text, strlen(text), NULL);
    if (n <= 0)
        fail_msg("not JSON: %.300s", text);
    return d;
}

static int member(const doc *d, int obj, const char *key)
{
    int t = codec_json_member(d->tok, obj, d->text, key);
    if (t < 0)
        fail_msg("no %s in %.300s", key, d->text);
    return t;
}

static int64_t int_of(const doc *d, int t)
{
    int64_t v;
    assert_int_equal(codec_json_int(&v, &d->tok[t], d->text), 0);
    return v;
}

static void string_of(char *out, size_t cap, const doc *d, int t)
{
    assert_int_equal(codec_json_string(out, cap, &d->tok[t], d->text), 0);
}

/* The raw text of value token t into a new string. */
static char *raw_of(const doc *d, int t)
{
    uint32_t s = d->tok[t].start, e = d->tok[t].end;
    if (d->tok[t].type == CODEC_JSON_STRING)
        s--, e++;
    char *out = malloc(e - s + 1);
    assert_non_null(out);
    memcpy(out, d->text + s, e - s);
    out[e - s] = '\0';
    return out;
}

/* Creates a room of six seats, bots in seats 2..6, and joins seat 1:
 * the room's code and seat 1's token. */
static void room_with_bots(const fixture *fx, char room[SCHEMA_ROOM_CHARS + 1],
                           char token[SERVER_TOKEN_CHARS + 1], unsigned turns)
{
    char body[512];
    snprintf(body, sizeof body, "{\"factions\":%s,\"rules\":\"basic\",\"turns\":%u,\"bots\":%s}",
             SIX, turns, FIVE_BOTS);
    tool_http_reply r = http(fx, 201, "POST", "/api/rooms", NULL, body);
    doc d = doc_of(r.body);
    string_of(room, SCHEMA_ROOM_CHARS + 1, &d, member(&d, 0, "room"));
    free(d.tok);
    tool_http_reply_free(&r);
    char path[64];
    snprintf(path, sizeof path, "/api/rooms/%s/join", room);
    r = http(fx, 200, "POST", path, NULL, "{\"seat\":\"atreides\"}");
    d = doc_of(r.body);
    string_of(token, SERVER_TOKEN_CHARS + 1, &d, member(&d, 0, "token"));
    free(d.tok);
    tool_http_reply_free(&r);
    /* A seat is joined once. */
    r = http(fx, 409, "POST", path, NULL, "{\"seat\":1}");
    tool_http_reply_free(&r);
}

/* Seat 1's view; *awaited 1 if the game waits on seat 1 with families,
 * *over 1 once the game has ended; returns the body (free it). */
static char *seat_view(const fixture *fx, const char *room, const char *token, uint32_t *version,
                       int *awaited, int *over)
{
    char path[64];
    snprintf(path, sizeof path, "/api/rooms/%s/view", room);
    tool_http_reply r = http(fx, 200, "GET", path, token, NULL);
    doc d = doc_of(r.body);
    *version = (uint32_t)int_of(&d, member(&d, 0, "version"));
    char phase[32];
    string_of(phase, sizeof phase, &d, member(&d, 0, "phase"));
    *over = strcmp(phase, "game_over") == 0;
    int aw = member(&d, 0, "awaiting");
    *awaited = 0;
    for (uint32_t k = 0, e = (uint32_t)aw + 1; k < d.tok[aw].size; k++, e = d.tok[e].next)
        *awaited |= int_of(&d, (int)e) == 1;
    *awaited &= d.tok[member(&d, 0, "legal")].size > 0;
    free(d.tok);
    char *body = strdup(r.body);
    tool_http_reply_free(&r);
    return body;
}

/* Posts the example of family k (mod their number) of seat 1's view:
 * the reply's status (200, or 409 when a bot moved first) and, when
 * accepted, its receipt line appended to `receipts` (may be NULL). */
static unsigned act_example(const fixture *fx, const char *room, const char *token,
                            const char *view, uint32_t version, unsigned k, FILE *receipts)
{
    doc d = doc_of(view);
    int legal = member(&d, 0, "legal");
    uint32_t e = (uint32_t)legal + 1;
    for (unsigned i = 0; i < k % d.tok[legal].size; i++)
        e = d.tok[e].next;
    char *example = raw_of(&d, member(&d, (int)e, "example"));
    free(d.tok);
    char body[1200], path[64];
    snprintf(body, sizeof body, "{\"version\":%u,\"action\":%s}", version, example);
    free(example);
    snprintf(path, sizeof path, "/api/rooms/%s/actions", room);
    tool_http_reply r;
    assert_int_equal(tool_http_request(&r, fx->port, "POST", path, token, body, TIMEOUT_MS), 0);
    unsigned status = r.status;
    if (status != 200 && status != 409)
        fail_msg("%s refused: %u %s", body, status, r.body);
    if (status == 200 && receipts != NULL)
        fprintf(receipts, "%s\n", r.body);
    tool_http_reply_free(&r);
    return status;
}

/* `mentat state ROOM --seat 1 --at V --json`'s stdout (free it). */
static char *cli_state(const char *room, uint32_t version, const char *seat)
{
    char at[16];
    snprintf(at, sizeof at, "%u", version);
    test_run_result r;
    const char *args[] = {"--keys", "keys", "state", room, "--at", at, "--json",
                          seat != NULL ? "--seat" : NULL, seat, NULL};
    assert_int_equal(test_run_argv(&r, mentat_bin, ".out", ".err", args), 0);
    char *out = strdup(r.out);
    test_run_free(&r);
    return out;
}

/* s with its "head":N member as "head":0 (in place): the head moves
 * with the bots between two reads of the same version. */
static char *headless(char *s)
{
    char *p = strstr(s, "\"head\":");
    if (p != NULL) {
        p += 7;
        char *e = p;
        while (*e >= '0' && *e <= '9')
            e++;
        *p = '0';
        memmove(p + 1, e, strlen(e) + 1);
    }
    return s;
}

/* Acts as seat 1 (the example of its first family) once it is asked,
 * retrying after a conflict with a bot: the version acted on. */
static uint32_t act_when_asked(const fixture *fx, const char *room, const char *token)
{
    for (int i = 0; i < 5000; i++) {
        uint32_t version;
        int awaited, over;
        char *view = seat_view(fx, room, token, &version, &awaited, &over);
        assert_false(over);
        unsigned status = awaited ? act_example(fx, room, token, view, version, 0, NULL) : 0;
        free(view);
        if (status == 200)
            return version;
        usleep(2000);
    }
    fail_msg("seat 1 was never asked");
    return 0;
}

/* ============================================================ cases */

/* A whole game as seat 1 against five bots through the API; at every
 * seat-1 decision the view is byte for byte `mentat state --seat 1
 * --json` at that version, and differs from the referee's full state. */
static void test_server__plays_a_game_against_bots(void **state)
{
    fixture *fx = *state;
    server_start(fx);
    char room[SCHEMA_ROOM_CHARS + 1], token[SERVER_TOKEN_CHARS + 1];
    room_with_bots(fx, room, token, 1);
    struct timespec t0, now;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    unsigned decisions = 0, compared = 0;
    int over = 0;
    while (!over) {
        uint32_t version;
        int awaited;
        char *view = seat_view(fx, room, token, &version, &awaited, &over);
        if (awaited && !over) {
            if (decisions % 8 == 0) {
                char *cli = cli_state(room, version, "1");
                /* The head may have moved (a bot): compare only if not. */
                uint32_t v2;
                int aw2, over2;
                char *again = seat_view(fx, room, token, &v2, &aw2, &over2);
                if (v2 == version) {
                    assert_string_equal(headless(view), headless(cli));
                    char path[80];
                    snprintf(path, sizeof path, "/api/rooms/%s/view?at=%u", room, version);
                    tool_http_reply full = http(fx, 200, "GET", path, fx->referee, NULL);
                    assert_string_not_equal(full.body, view);
                    char *cli_full = cli_state(room, version, NULL);
                    assert_string_equal(headless(full.body), headless(cli_full));
                    free(cli_full);
                    tool_http_reply_free(&full);
                    compared++;
                }
                free(again);
                free(cli);
            }
            (void)act_example(fx, room, token, view, version, decisions, NULL);
            decisions++;
        } else if (!over) {
            usleep(2000);
        }
        free(view);
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (now.tv_sec - t0.tv_sec > 120)
            fail_msg("the game did not end in 120 s (%u decisions)", decisions);
    }
    assert_true(decisions > 5);
    assert_true(compared > 0);
    /* A past version as seat 1 saw it, and the log as it was told. */
    char path[80];
    snprintf(path, sizeof path, "/api/rooms/%s/view?at=3", room);
    tool_http_reply r = http(fx, 200, "GET", path, token, NULL);
    char *cli = cli_state(room, 3, "1");
    assert_string_equal(headless(r.body), headless(cli));
    free(cli);
    tool_http_reply_free(&r);
    snprintf(path, sizeof path, "/api/rooms/%s/log?from=1&to=4", room);
    r = http(fx, 200, "GET", path, token, NULL);
    doc d = doc_of(r.body);
    assert_int_equal(d.tok[0].type, CODEC_JSON_ARRAY);
    assert_int_equal(d.tok[0].size, 4);
    free(d.tok);
    tool_http_reply_free(&r);
    assert_int_equal(server_signal(fx, SIGTERM), 0);
}

typedef struct bad_request {
    unsigned status;
    int token;                     /* 0 none, 1 seat 1's, 2 a wrong one, 3 seat 2's (a bot) */
    const char *method;
    const char *path;              /* %s is the room */
    const char *body;
} bad_request;

static const bad_request bad_requests[] = {
    {400, 0, "GET", "/api/rooms/NOPE1234", NULL},
    {404, 0, "GET", "/api/rooms/ZZZZZZZZ", NULL},
    {400, 0, "GET", "/api/rooms/NOPE1234/view", NULL},
    {404, 0, "GET", "/api/rooms/ZZZZZZZZ/view", NULL},
    {400, 0, "GET", "/api/rooms/NOPE1234/log", NULL},
    {404, 0, "GET", "/api/rooms/ZZZZZZZZ/log", NULL},
    {400, 0, "GET", "/api/rooms/NOPE1234/board.svg", NULL},
    {404, 0, "GET", "/api/rooms/ZZZZZZZZ/board.svg", NULL},
    {400, 0, "GET", "/api/rooms/NOPE1234/events", NULL},
    {404, 0, "GET", "/api/rooms/ZZZZZZZZ/events", NULL},
    {400, 0, "POST", "/api/rooms/NOPE1234/join", "{\"seat\":1}"},
    {404, 0, "POST", "/api/rooms/ZZZZZZZZ/join", "{\"seat\":1}"},
    {400, 0, "POST", "/api/rooms/NOPE1234/actions", "{\"version\":0,\"action\":{\"kind\":\"move_pass\"}}"},
    {404, 0, "POST", "/api/rooms/ZZZZZZZZ/actions", "{\"version\":0,\"action\":{\"kind\":\"move_pass\"}}"},
    {400, 0, "GET", "/api/rooms/abc", NULL},
    {404, 0, "GET", "/api/nothing", NULL},
    {404, 0, "GET", "/../../etc/passwd", NULL},
    {404, 0, "GET", "/%%2e%%2e/etc/passwd", NULL},
    {404, 0, "GET", "/.hidden.html", NULL},
    {404, 0, "GET", "/api/rooms/%s/nothing", NULL},
    {405, 0, "DELETE", "/index.html", NULL},
    {405, 0, "DELETE", "/api/rooms/%s", NULL},
    {405, 1, "PUT", "/api/rooms/%s/actions", "{}"},
    {405, 0, "GET", "/api/rooms/%s/join", NULL},
    {405, 0, "GET", "/api/rooms", NULL},
    {403, 2, "GET", "/api/rooms/%s/view", NULL},
    {403, 1, "GET", "/api/rooms/%s/view?seat=2", NULL},
    {400, 1, "GET", "/api/rooms/%s/view?at=x", NULL},
    {400, 1, "GET", "/api/rooms/%s/view?at=99999", NULL},
    {400, 1, "GET", "/api/rooms/%s/view?seat=9", NULL},
    {403, 0, "POST", "/api/rooms/%s/actions", "{\"version\":0,\"action\":{\"kind\":\"move_pass\"}}"},
    {403, 2, "POST", "/api/rooms/%s/actions", "{\"version\":0,\"action\":{\"kind\":\"move_pass\"}}"},
    {400, 1, "POST", "/api/rooms/%s/actions", "{\"version\":0"},
    {400, 1, "POST", "/api/rooms/%s/actions", "[1,2]"},
    {400, 1, "POST", "/api/rooms/%s/actions", NULL},
    {400, 1, "POST", "/api/rooms/%s/actions", "{\"action\":{\"kind\":\"move_pass\"}}"},
    {400, 1, "POST", "/api/rooms/%s/actions", "{\"version\":-1,\"action\":{\"kind\":\"move_pass\"}}"},
    {400, 1, "POST", "/api/rooms/%s/actions", "{\"version\":0,\"action\":{\"kind\":\"no_such\"}}"},
    {400, 1, "POST", "/api/rooms/%s/actions", "{\"version\":0,\"action\":7}"},
    {409, 1, "POST", "/api/rooms/%s/actions", "{\"version\":0,\"action\":{\"kind\":\"move_pass\"}}"},
    {409, 0, "POST", "/api/rooms/%s/join", "{\"seat\":2}"},
    {400, 0, "POST", "/api/rooms/%s/join", "{\"seat\":7}"},
    {400, 0, "POST", "/api/rooms/%s/join", "{\"seat\":\"ixians\"}"},
    {400, 0, "POST", "/api/rooms", "{\"factions\":[\"atreides\"]}"},
    {400, 0, "POST", "/api/rooms", "{\"factions\":[\"atreides\",\"nobody\"]}"},
    {400, 0, "POST", "/api/rooms", "{\"factions\":" SIX ",\"rules\":\"odd\"}"},
    {400, 0, "POST", "/api/rooms", "{\"factions\":" SIX ",\"turns\":99}"},
    {400, 0, "POST", "/api/rooms", "{\"factions\":" SIX ",\"bots\":{\"9\":\"easy\"}}"},
    {400, 0, "POST", "/api/rooms", "{\"factions\":" SIX ",\"bots\":{\"2\":\"godlike\"}}"},
    {400, 0, "POST", "/api/rooms", "{\"factions\":" SIX ",\"modules\":[\"nothing\"]}"},
    {400, 0, "POST", "/api/rooms", "not json"},
    {400, 0, "POST", "/api/rooms", "{\"factions\":" SIX ",\"rules\":\"advanced\"}"},
    {400, 0, "POST", "/api/rooms", "{\"factions\":[\"atreides\",\"ixians\"]}"},
    {400, 0, "POST", "/api/rooms", "{\"factions\":" SIX ",\"modules\":[\"leader_skills\"]}"},
};

/* A room the engine would refuse or could not play: 400 with the
 * engine's reason in words, as `mentat room create` says it. */
static void test_server__create_refusals_say_why(void **state)
{
    static const struct {
        const char *body, *says;
    } cases[] = {
        {"{\"factions\":" SIX ",\"rules\":\"advanced\"}", "until the whole Advanced game is built"},
        {"{\"factions\":[\"atreides\",\"ixians\"]}",
         "factions: the engine does not play ixians yet (rule_not_implemented)"},
        {"{\"factions\":" SIX ",\"modules\":[\"leader_skills\",\"homeworlds\"]}",
         "modules: the engine does not have the modules leader_skills, homeworlds yet (rule_not_implemented)"},
    };
    fixture *fx = *state;
    server_start(fx);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tool_http_reply r = http(fx, 400, "POST", "/api/rooms", NULL, cases[i].body);
        doc d = doc_of(r.body);
        char msg[256];
        string_of(msg, sizeof msg, &d, member(&d, 0, "error"));
        if (strstr(msg, cases[i].says) == NULL)
            fail_msg("%s: %s", cases[i].body, msg);
        assert_null(strstr(msg, "detail"));
        free(d.tok);
        tool_http_reply_free(&r);
    }
    assert_int_equal(server_signal(fx, SIGTERM), 0);
}

/* The status a POST to path answers when sent with a header of
 * header_bytes characters, over a plain socket (the client's own request
 * buffer is smaller); 0 if there is no answer. */
static unsigned raw_status(unsigned port, const char *path, size_t header_bytes)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    assert_true(fd >= 0);
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    assert_int_equal(connect(fd, (struct sockaddr *)&a, sizeof a), 0);
    size_t cap = header_bytes + 256, n = 0;
    char *req = malloc(cap);
    assert_non_null(req);
    n += (size_t)snprintf(req, cap, "POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ", path);
    memset(req + n, 'a', header_bytes);
    n += header_bytes;
    n += (size_t)snprintf(req + n, cap - n, "\r\nContent-Length: 2\r\n\r\n{}");
    for (size_t off = 0; off < n;) {
        ssize_t k = send(fd, req + off, n - off, MSG_NOSIGNAL);
        if (k <= 0)
            break; /* the server may close before it has read it all */
        off += (size_t)k;
    }
    free(req);
    char buf[64] = "";
    ssize_t got = recv(fd, buf, sizeof buf - 1, 0);
    close(fd);
    unsigned status = 0;
    if (got > 0 && sscanf(buf, "HTTP/1.%*c %u", &status) != 1)
        status = 0;
    return status;
}

/* Every malformed request: its 4xx, a JSON {"error"}, and the ledger
 * unchanged (the room's head and the number of rooms). */
static void test_server__malformed_requests_are_4xx(void **state)
{
    fixture *fx = *state;
    server_start(fx);
    char room[SCHEMA_ROOM_CHARS + 1], token[SERVER_TOKEN_CHARS + 1];
    room_with_bots(fx, room, token, 1);
    usleep(300000); /* the bots play up to seat 1's first decision */
    uint32_t before;
    int awaited, over;
    free(seat_view(fx, room, token, &before, &awaited, &over));
    for (size_t i = 0; i < sizeof bad_requests / sizeof bad_requests[0]; i++) {
        const bad_request *b = &bad_requests[i];
        char path[256];
        snprintf(path, sizeof path, b->path, room);
        const char *tok = b->token == 1 ? token
                          : b->token == 2 ? "0000000000000000000000000000000000000000000000000000000000000000"
                                          : NULL;
        tool_http_reply r = http(fx, b->status, b->method, path, tok, b->body);
        doc d = doc_of(r.body);
        int e = member(&d, 0, "error");
        assert_int_equal(d.tok[e].type, CODEC_JSON_STRING);
        free(d.tok);
        tool_http_reply_free(&r);
    }
    /* A 405 says what the path takes; the browser's icon request is a 204. */
    static const struct {
        const char *method, *path, *allow;
    } methods[] = {
        {"DELETE", "/api/rooms/%s", "\r\nAllow: GET, HEAD\r\n"},
        {"DELETE", "/api/rooms/%s/actions", "\r\nAllow: POST\r\n"},
        {"PUT", "/api/rooms", "\r\nAllow: POST\r\n"},
        {"POST", "/index.html", "\r\nAllow: GET, HEAD\r\n"},
    };
    for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++) {
        char p405[96];
        snprintf(p405, sizeof p405, methods[i].path, room);
        tool_http_reply m = http(fx, 405, methods[i].method, p405, NULL, NULL);
        if (strstr(m.raw, methods[i].allow) == NULL)
            fail_msg("%s %s: no %s", methods[i].method, p405, methods[i].allow);
        tool_http_reply_free(&m);
    }
    tool_http_reply icon = http(fx, 204, "GET", "/favicon.ico", NULL, NULL);
    tool_http_reply_free(&icon);
    /* An oversized body: 413, nothing read of it. */
    size_t n = SERVER_BODY_MAX + 100;
    char *big = malloc(n + 1);
    assert_non_null(big);
    memset(big, ' ', n);
    big[0] = '{';
    big[n - 1] = '}';
    big[n] = '\0';
    char path[64];
    snprintf(path, sizeof path, "/api/rooms/%s/actions", room);
    tool_http_reply r = http(fx, 413, "POST", path, token, big);
    tool_http_reply_free(&r);
    /* Headers past the 32 KiB a connection may hold: refused by
     * libmicrohttpd itself (431), and the server goes on answering. */
    assert_int_equal(raw_status(fx->port, path, 40000), 431);
    r = http(fx, 200, "GET", "/api/health", NULL, NULL);
    tool_http_reply_free(&r);
    free(big);
    uint32_t after;
    free(seat_view(fx, room, token, &after, &awaited, &over));
    assert_int_equal(after, before);
    /* No room was made by the refused creations: the table has one. */
    char *table = test_slurp("mentat.db.serve", NULL);
    assert_non_null(table);
    unsigned rooms = 0;
    for (const char *p = table; (p = strstr(p, "room ")) != NULL; p++)
        rooms++;
    assert_int_equal(rooms, 1);
    free(table);
}

/* Creates a room of two open seats from body, joins both: the room,
 * their tokens, the seat (0-based) the game awaits at version 0 and the
 * example action of its first legal family (free it). */
static char *two_seat_room(const fixture *fx, const char *body, char room[SCHEMA_ROOM_CHARS + 1],
                           char token[2][SERVER_TOKEN_CHARS + 1], unsigned *acting)
{
    tool_http_reply r = http(fx, 201, "POST", "/api/rooms", NULL, body);
    doc d = doc_of(r.body);
    char path[96];
    string_of(room, SCHEMA_ROOM_CHARS + 1, &d, member(&d, 0, "room"));
    free(d.tok);
    tool_http_reply_free(&r);
    for (unsigned seat = 0; seat < 2; seat++) {
        char join[32];
        snprintf(path, sizeof path, "/api/rooms/%s/join", room);
        snprintf(join, sizeof join, "{\"seat\":%u}", seat + 1);
        r = http(fx, 200, "POST", path, NULL, join);
        d = doc_of(r.body);
        string_of(token[seat], SERVER_TOKEN_CHARS + 1, &d, member(&d, 0, "token"));
        free(d.tok);
        tool_http_reply_free(&r);
    }
    snprintf(path, sizeof path, "/api/rooms/%s/view", room);
    char *example = NULL;
    for (unsigned seat = 0; seat < 2 && example == NULL; seat++) {
        r = http(fx, 200, "GET", path, token[seat], NULL);
        d = doc_of(r.body);
        int legal = member(&d, 0, "legal");
        if (d.tok[legal].size > 0) {
            example = raw_of(&d, member(&d, legal + 1, "example"));
            *acting = seat;
        }
        free(d.tok);
        tool_http_reply_free(&r);
    }
    assert_non_null(example);
    return example;
}

/* `mentat act` appending to the ledger the server holds open: the
 * server's push stream carries the new version without any request to
 * it, the room and the seat's view show it, and a post at the old
 * version is a conflict naming the true head (one beyond it says so). */
static void test_server__sees_appends_by_another_process(void **state)
{
    fixture *fx = *state;
    server_start(fx);
    char room[SCHEMA_ROOM_CHARS + 1], path[96], token[2][SERVER_TOKEN_CHARS + 1];
    unsigned acting = 2;
    char *example = two_seat_room(fx, "{\"factions\":[\"atreides\",\"harkonnen\"],\"rules\":\"basic\"}",
                                  room, token, &acting);
    tool_http_reply r;
    doc d;
    tool_http_stream st;
    snprintf(path, sizeof path, "/api/rooms/%s/events", room);
    assert_int_equal(tool_http_stream_open(&st, fx->port, path, token[acting], NULL, TIMEOUT_MS), 0);
    char *data;
    uint32_t id = 99;
    assert_int_equal(tool_http_stream_next(&data, &id, &st, TIMEOUT_MS), 0);
    assert_int_equal(id, 0);
    free(data);

    char seat_arg[4];
    snprintf(seat_arg, sizeof seat_arg, "%u", acting + 1);
    test_run_result run;
    const char *args[] = {"--keys", "keys", "act", room, "--seat", seat_arg, "--version", "0",
                          "--action", example, NULL};
    assert_int_equal(test_run_argv(&run, mentat_bin, ".out", ".err", args), 0);
    test_run_free(&run);

    /* Pushed with no request made to the server. */
    assert_int_equal(tool_http_stream_next(&data, &id, &st, TIMEOUT_MS), 0);
    assert_int_equal(id, 1);
    free(data);
    tool_http_stream_close(&st);
    snprintf(path, sizeof path, "/api/rooms/%s", room);
    r = http(fx, 200, "GET", path, NULL, NULL);
    d = doc_of(r.body);
    assert_int_equal(int_of(&d, member(&d, 0, "version")), 1);
    free(d.tok);
    tool_http_reply_free(&r);

    char body[1200];
    snprintf(path, sizeof path, "/api/rooms/%s/actions", room);
    snprintf(body, sizeof body, "{\"version\":0,\"action\":%s}", example);
    r = http(fx, 200, "POST", path, token[acting], body); /* the same action again: a retry */
    d = doc_of(r.body);
    assert_true(d.tok[member(&d, 0, "retry")].type == CODEC_JSON_BOOL && strstr(r.body, "\"retry\":true"));
    free(d.tok);
    tool_http_reply_free(&r);
    r = http(fx, 409, "POST", path, token[1 - acting], body);
    d = doc_of(r.body);
    assert_int_equal(int_of(&d, member(&d, 0, "head")), 1);
    char msg[128];
    string_of(msg, sizeof msg, &d, member(&d, 0, "error"));
    assert_string_equal(msg, "conflict: the head has moved to 1");
    free(d.tok);
    tool_http_reply_free(&r);
    snprintf(body, sizeof body, "{\"version\":7,\"action\":%s}", example);
    r = http(fx, 409, "POST", path, token[acting], body);
    d = doc_of(r.body);
    string_of(msg, sizeof msg, &d, member(&d, 0, "error"));
    assert_string_equal(msg, "conflict: version 7 is beyond the head 1");
    free(d.tok);
    tool_http_reply_free(&r);
    free(example);
    assert_int_equal(server_signal(fx, SIGTERM), 0);
}

static void hex_of(char *out, const uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        snprintf(out + 2 * i, 3, "%02x", b[i]);
}

/* Two seat key pairs, the public keys also in hex. */
static void seat_key_pairs(uint8_t pk[2][SCHEMA_KEY_BYTES], uint8_t sk[2][LEDGER_SEAT_SECRET_BYTES],
                           char pk_hex[2][2 * SCHEMA_KEY_BYTES + 1])
{
    for (unsigned i = 0; i < 2; i++) {
        crypto_sign_keypair(pk[i], sk[i]);
        hex_of(pk_hex[i], pk[i], SCHEMA_KEY_BYTES);
    }
}

/* The server's seat message (is_bind: binding message) for the action
 * example at version 0, and the chain hash in it, both in hex. */
static void seat_message_of(char msg_hex[2 * LEDGER_SEAT_MESSAGE_MAX + 1],
                            char chain_hex[2 * SCHEMA_HASH_BYTES + 1], const fixture *fx,
                            const char *room, const char *token, const char *example, int is_bind)
{
    char mpath[96], body[1400];
    snprintf(mpath, sizeof mpath, "/api/rooms/%s/seat_message", room);
    snprintf(body, sizeof body, "{\"version\":0,\"action\":%s%s}", example,
             is_bind ? ",\"bind\":true" : "");
    tool_http_reply r = http(fx, 200, "POST", mpath, token, body);
    doc d = doc_of(r.body);
    string_of(msg_hex, 2 * LEDGER_SEAT_MESSAGE_MAX + 1, &d, member(&d, 0, "message"));
    string_of(chain_hex, 2 * SCHEMA_HASH_BYTES + 1, &d, member(&d, 0, "chain_hash"));
    free(d.tok);
    tool_http_reply_free(&r);
}

/* A room created over the API with both seats bound to Ed25519 keys: an
 * action without the seat's signature is a 400, with a wrong one a 403
 * (nothing written), with the seat message signed (ledger_seat_sign, the
 * bytes `mentat act --seat-key` signs) it is accepted; the room says
 * which seats are bound, and a bot's seat cannot be. */
static void test_server__bound_seats_sign_their_actions(void **state)
{
    fixture *fx = *state;
    server_start(fx);
    uint8_t pk[2][SCHEMA_KEY_BYTES], sk[2][LEDGER_SEAT_SECRET_BYTES];
    char pk_hex[2][2 * SCHEMA_KEY_BYTES + 1], body[1400];
    seat_key_pairs(pk, sk, pk_hex);
    snprintf(body, sizeof body, "{\"factions\":[\"atreides\",\"harkonnen\"],\"rules\":\"basic\","
             "\"bots\":{\"2\":\"easy\"},\"seat_keys\":{\"2\":\"%s\"}}", pk_hex[1]);
    tool_http_reply r = http(fx, 400, "POST", "/api/rooms", NULL, body);
    tool_http_reply_free(&r);
    snprintf(body, sizeof body, "{\"factions\":[\"atreides\",\"harkonnen\"],\"rules\":\"basic\","
             "\"seat_keys\":{\"1\":\"%s\",\"harkonnen\":\"%s\"}}", pk_hex[0], pk_hex[1]);
    char room[SCHEMA_ROOM_CHARS + 1], path[96], token[2][SERVER_TOKEN_CHARS + 1];
    unsigned acting = 2;
    char *example = two_seat_room(fx, body, room, token, &acting);
    snprintf(path, sizeof path, "/api/rooms/%s", room);
    r = http(fx, 200, "GET", path, NULL, NULL);
    assert_non_null(strstr(r.body, "\"bound\":true"));
    assert_null(strstr(r.body, "\"bound\":false"));
    tool_http_reply_free(&r);

    snprintf(path, sizeof path, "/api/rooms/%s/actions", room);
    snprintf(body, sizeof body, "{\"version\":0,\"action\":%s}", example);
    r = http(fx, 400, "POST", path, token[acting], body);
    assert_non_null(strstr(r.body, "seat_sig"));
    tool_http_reply_free(&r);
    /* The other seat's signature of the same bytes is not this seat's. */
    engine_action act;
    char err[SCHEMA_ERRMSG];
    assert_int_equal(codec_action_from_json(&act, example, strlen(example), err), 0);
    act.seat = (uint8_t)acting;
    uint8_t chain[SCHEMA_HASH_BYTES], sig[SCHEMA_SIG_BYTES];
    ledger *db;
    ledger_options lo;
    ledger_options_init(&lo);
    lo.path = "mentat.db";
    lo.keys_dir = "keys";
    lo.is_read_only = 1;
    assert_int_equal(ledger_open(&db, &lo), 0);
    assert_int_equal(ledger_chain_hash(db, chain, room, 0), 0);
    ledger_close(db);
    char sig_hex[2 * SCHEMA_SIG_BYTES + 1];
    assert_int_equal(ledger_seat_sign(sig, sk[1 - acting], room, 0, chain, &act), 0);
    hex_of(sig_hex, sig, sizeof sig);
    snprintf(body, sizeof body, "{\"version\":0,\"action\":%s,\"seat_sig\":\"%s\"}", example, sig_hex);
    r = http(fx, 403, "POST", path, token[acting], body);
    tool_http_reply_free(&r);
    assert_int_equal(ledger_seat_sign(sig, sk[acting], room, 0, chain, &act), 0);
    hex_of(sig_hex, sig, sizeof sig);
    /* The server's seat message is those bytes: signed, the same signature. */
    char msg_hex[2 * LEDGER_SEAT_MESSAGE_MAX + 1], chain_hex[2 * SCHEMA_HASH_BYTES + 1];
    seat_message_of(msg_hex, chain_hex, fx, room, token[acting], example, 0);
    char want_chain[2 * SCHEMA_HASH_BYTES + 1];
    hex_of(want_chain, chain, sizeof chain);
    assert_string_equal(chain_hex, want_chain);
    uint8_t msg[LEDGER_SEAT_MESSAGE_MAX], sig2[SCHEMA_SIG_BYTES];
    size_t msg_len = strlen(msg_hex) / 2;
    assert_true(msg_len > 0 && msg_len <= sizeof msg);
    for (size_t i = 0; i < msg_len; i++) {
        unsigned byte;
        assert_int_equal(sscanf(msg_hex + 2 * i, "%2x", &byte), 1);
        msg[i] = (uint8_t)byte;
    }
    crypto_sign_detached(sig2, NULL, msg, msg_len, sk[acting]);
    assert_memory_equal(sig2, sig, sizeof sig);
    snprintf(body, sizeof body, "{\"version\":0,\"action\":%s,\"seat_sig\":\"%s\"}", example, sig_hex);
    r = http(fx, 200, "POST", path, token[acting], body);
    tool_http_reply_free(&r);
    /* The ledger verifies with the seat's signature in the event. */
    test_run_result run;
    const char *args[] = {"--keys", "keys", "verify", room, NULL};
    assert_int_equal(test_run_argv(&run, mentat_bin, ".out", ".err", args), 0);
    test_run_free(&run);
    free(example);
    assert_int_equal(server_signal(fx, SIGTERM), 0);
}

/* A room created with no seat bound: a player who joins binds its seat
 * to a key of its own with its first action (bind_key and the key's
 * signature of the binding message the server gives with "bind": true).
 * A binding signed by another key is a 403, nothing written; once bound
 * the room says so and a second binding is a 409; verify checks it. */
static void test_server__joined_seat_binds_its_key(void **state)
{
    fixture *fx = *state;
    server_start(fx);
    uint8_t pk[2][SCHEMA_KEY_BYTES], sk[2][LEDGER_SEAT_SECRET_BYTES];
    char pk_hex[2][2 * SCHEMA_KEY_BYTES + 1], body[1400];
    seat_key_pairs(pk, sk, pk_hex);
    char room[SCHEMA_ROOM_CHARS + 1], path[96], mpath[96], token[2][SERVER_TOKEN_CHARS + 1];
    unsigned acting = 2;
    char *example = two_seat_room(fx, "{\"factions\":[\"atreides\",\"harkonnen\"],"
                                  "\"rules\":\"basic\"}", room, token, &acting);
    snprintf(path, sizeof path, "/api/rooms/%s", room);
    tool_http_reply r = http(fx, 200, "GET", path, NULL, NULL);
    assert_null(strstr(r.body, "\"bound\":true"));
    tool_http_reply_free(&r);

    /* The binding message, from the server and as the ledger makes it. */
    char msg_hex[2 * LEDGER_SEAT_MESSAGE_MAX + 1], chain_hex[2 * SCHEMA_HASH_BYTES + 1];
    seat_message_of(msg_hex, chain_hex, fx, room, token[acting], example, 1);
    engine_action act;
    char err[SCHEMA_ERRMSG];
    assert_int_equal(codec_action_from_json(&act, example, strlen(example), err), 0);
    act.seat = (uint8_t)acting;
    uint8_t chain[SCHEMA_HASH_BYTES], msg[LEDGER_SEAT_MESSAGE_MAX], sig[SCHEMA_SIG_BYTES];
    for (size_t i = 0; i < SCHEMA_HASH_BYTES; i++) {
        unsigned byte;
        assert_int_equal(sscanf(chain_hex + 2 * i, "%2x", &byte), 1);
        chain[i] = (uint8_t)byte;
    }
    size_t msg_len = ledger_seat_bind_message(msg, room, 0, chain, &act);
    assert_true(msg_len > 0);
    char want_hex[2 * LEDGER_SEAT_MESSAGE_MAX + 1];
    hex_of(want_hex, msg, msg_len);
    assert_string_equal(msg_hex, want_hex);
    assert_memory_equal(msg, "MNSB", 4);

    /* Signed by the other seat's key: refused, nothing written. */
    char sig_hex[2 * SCHEMA_SIG_BYTES + 1];
    snprintf(path, sizeof path, "/api/rooms/%s/actions", room);
    assert_int_equal(ledger_seat_sign_bind(sig, sk[1 - acting], room, 0, chain, &act), 0);
    hex_of(sig_hex, sig, sizeof sig);
    snprintf(body, sizeof body, "{\"version\":0,\"action\":%s,\"seat_sig\":\"%s\","
             "\"bind_key\":\"%s\"}", example, sig_hex, pk_hex[acting]);
    r = http(fx, 403, "POST", path, token[acting], body);
    tool_http_reply_free(&r);
    snprintf(body, sizeof body, "{\"version\":0,\"action\":%s,\"bind_key\":\"%s\"}",
             example, pk_hex[acting]);
    r = http(fx, 400, "POST", path, token[acting], body);
    assert_non_null(strstr(r.body, "seat_sig"));
    tool_http_reply_free(&r);
    /* Signed by the key it binds: accepted, and the seat is bound. */
    crypto_sign_detached(sig, NULL, msg, msg_len, sk[acting]);
    hex_of(sig_hex, sig, sizeof sig);
    snprintf(body, sizeof body, "{\"version\":0,\"action\":%s,\"seat_sig\":\"%s\","
             "\"bind_key\":\"%s\"}", example, sig_hex, pk_hex[acting]);
    r = http(fx, 200, "POST", path, token[acting], body);
    tool_http_reply_free(&r);
    snprintf(mpath, sizeof mpath, "/api/rooms/%s", room);
    r = http(fx, 200, "GET", mpath, NULL, NULL);
    assert_non_null(strstr(r.body, "\"bound\":true"));
    assert_non_null(strstr(r.body, "\"bound\":false"));
    tool_http_reply_free(&r);
    /* Bound once: a second binding of the seat is a conflict. */
    snprintf(body, sizeof body, "{\"version\":1,\"action\":%s,\"seat_sig\":\"%s\","
             "\"bind_key\":\"%s\"}", example, sig_hex, pk_hex[1 - acting]);
    r = http(fx, 409, "POST", path, token[acting], body);
    assert_non_null(strstr(r.body, "already bound"));
    tool_http_reply_free(&r);
    test_run_result run;
    const char *args[] = {"--keys", "keys", "verify", room, "--json", NULL};
    assert_int_equal(test_run_argv(&run, mentat_bin, ".out", ".err", args), 0);
    assert_non_null(strstr(run.out, "\"n_seat_signatures\":1,"));
    test_run_free(&run);
    free(example);
    sodium_memzero(sk, sizeof sk);
    assert_int_equal(server_signal(fx, SIGTERM), 0);
}

/* The view text held with a push event's changes applied: its "set"
 * members replace the held ones and its "unset" ones go (a new string). */
static char *apply_change(const char *held, const doc *ev)
{
    doc h = doc_of(held);
    int set = member(ev, 0, "set"), unset = member(ev, 0, "unset");
    size_t cap = strlen(held) + strlen(ev->text) + 16, n = 0;
    char *out = malloc(cap);
    assert_non_null(out);
    out[n++] = '{';
    uint32_t k = 1, replaced = 0;
    for (uint32_t i = 0; i < h.tok[0].size; i++) {
        char key[64];
        string_of(key, sizeof key, &h, (int)k);
        uint32_t v = k + 1;
        int is_gone = 0;
        uint32_t u = (uint32_t)unset + 1;
        for (uint32_t j = 0; j < ev->tok[unset].size; j++, u = ev->tok[u].next)
            is_gone |= codec_json_eq(&ev->tok[u], ev->text, key);
        if (!is_gone) {
            int t = codec_json_member(ev->tok, set, ev->text, key);
            char *val = t >= 0 ? raw_of(ev, t) : raw_of(&h, (int)v);
            replaced += t >= 0;
            n += (size_t)snprintf(out + n, cap - n, "%s\"%s\":%s", n > 1 ? "," : "", key, val);
            free(val);
        }
        k = h.tok[v].next;
    }
    assert_int_equal(replaced, ev->tok[set].size); /* a view's members are always the same */
    snprintf(out + n, cap - n, "}");
    free(h.tok);
    return out;
}

/* The push stream: the first event is the current view; an action makes
 * the next, which carries only what changed in the view (applied to the
 * view held, it is the view GET .../view answers at that version; with
 * ?full=1 every event is the whole view); a reconnect with Last-Event-ID V
 * gets the whole view and the log lines after V. */
static void test_server__push_stream_resumes(void **state)
{
    fixture *fx = *state;
    server_start(fx);
    char room[SCHEMA_ROOM_CHARS + 1], token[SERVER_TOKEN_CHARS + 1];
    room_with_bots(fx, room, token, 1);
    char path[64];
    snprintf(path, sizeof path, "/api/rooms/%s/events", room);
    /* Wait until seat 1 is asked. */
    uint32_t version = 0;
    int awaited = 0, over = 0;
    char *view = NULL;
    for (int i = 0; i < 2000 && !awaited; i++) {
        free(view);
        view = seat_view(fx, room, token, &version, &awaited, &over);
        if (!awaited)
            usleep(2000);
    }
    assert_true(awaited);
    tool_http_stream st;
    assert_int_equal(tool_http_stream_open(&st, fx->port, path, token, NULL, TIMEOUT_MS), 0);
    assert_int_equal(st.status, 200);
    char *data;
    uint32_t id = 0;
    assert_int_equal(tool_http_stream_next(&data, &id, &st, TIMEOUT_MS), 0);
    assert_true(id >= version); /* the bots may have moved since */
    version = id;
    doc d = doc_of(data);
    char *v = raw_of(&d, member(&d, 0, "view"));
    char at[80];
    snprintf(at, sizeof at, "/api/rooms/%s/view?at=%u", room, id);
    tool_http_reply then = http(fx, 200, "GET", at, token, NULL);
    assert_string_equal(headless(v), headless(strtok(then.body, "\n")));
    tool_http_reply_free(&then);
    char *held = v;
    free(d.tok);
    free(data);
    char full_path[80];
    snprintf(full_path, sizeof full_path, "%s?full=1", path);
    tool_http_stream whole;
    assert_int_equal(tool_http_stream_open(&whole, fx->port, full_path, token, NULL, TIMEOUT_MS), 0);
    assert_int_equal(whole.status, 200);
    uint32_t whole_id = 0;
    assert_int_equal(tool_http_stream_next(&data, &whole_id, &whole, TIMEOUT_MS), 0);
    free(data);
    uint32_t acted = act_when_asked(fx, room, token);
    /* Events come until one carries the version seat 1 made, each with
     * the log lines since the one before and the changes since it. */
    uint32_t seen = version;
    unsigned changes = 0;
    while (seen <= acted) {
        assert_int_equal(tool_http_stream_next(&data, &id, &st, TIMEOUT_MS), 0);
        assert_true(id > seen);
        d = doc_of(data);
        int lines = member(&d, 0, "log");
        assert_int_equal(d.tok[lines].size, id - seen);
        assert_true(codec_json_member(d.tok, 0, d.text, "view") < 0);
        assert_int_equal(int_of(&d, member(&d, 0, "base")), seen);
        char *next = apply_change(held, &d);
        free(held);
        held = next;
        snprintf(at, sizeof at, "/api/rooms/%s/view?at=%u", room, id);
        then = http(fx, 200, "GET", at, token, NULL);
        assert_string_equal(headless(held), headless(strtok(then.body, "\n")));
        tool_http_reply_free(&then);
        changes++;
        free(d.tok);
        free(data);
        seen = id;
    }
    assert_true(changes >= 1);
    free(held);
    /* The stream opened with ?full=1 sends the whole view again. */
    assert_int_equal(tool_http_stream_next(&data, &whole_id, &whole, TIMEOUT_MS), 0);
    d = doc_of(data);
    assert_true(codec_json_member(d.tok, 0, d.text, "view") >= 0);
    assert_true(codec_json_member(d.tok, 0, d.text, "set") < 0);
    free(d.tok);
    free(data);
    tool_http_stream_close(&whole);
    int log;
    tool_http_stream_close(&st);
    free(view);

    /* Resume from `version`: every line after it, up to the event's id. */
    char last[16];
    snprintf(last, sizeof last, "%u", version);
    assert_int_equal(tool_http_stream_open(&st, fx->port, path, token, last, TIMEOUT_MS), 0);
    assert_int_equal(tool_http_stream_next(&data, &id, &st, TIMEOUT_MS), 0);
    d = doc_of(data);
    log = member(&d, 0, "log");
    assert_int_equal(d.tok[log].size, id - version);
    member(&d, 0, "view"); /* a new connection starts from the whole view */
    free(d.tok);
    free(data);
    tool_http_stream_close(&st);
    /* A wrong token opens no stream. */
    assert_int_equal(tool_http_stream_open(&st, fx->port, path, "00", NULL, TIMEOUT_MS), 0);
    assert_int_equal(st.status, 403);
    tool_http_stream_close(&st);
}

/* Plays seat 1 of each room for `steps` decisions, writing receipts. */
static void play_rooms(const fixture *fx, char (*rooms)[SCHEMA_ROOM_CHARS + 1],
                       char (*tokens)[SERVER_TOKEN_CHARS + 1], unsigned n, unsigned steps,
                       FILE *receipts)
{
    for (unsigned k = 0; k < steps; k++)
        for (unsigned i = 0; i < n; i++) {
            uint32_t version;
            int awaited, over;
            char *view = seat_view(fx, rooms[i], tokens[i], &version, &awaited, &over);
            if (awaited && !over)
                (void)act_example(fx, rooms[i], tokens[i], view, version, k, receipts);
            free(view);
        }
}

/* `mentat verify ROOM --receipts FILE` passes for each room. */
static void verify_receipts(char (*rooms)[SCHEMA_ROOM_CHARS + 1], unsigned n, const char *file)
{
    for (unsigned i = 0; i < n; i++) {
        test_run_result r;
        const char *args[] = {"--keys", "keys", "verify", rooms[i], "--receipts", file, NULL};
        int status = test_run_argv(&r, mentat_bin, ".out", ".err", args);
        if (status != 0)
            fail_msg("verify %s: %s%s", rooms[i], r.out, r.err);
        test_run_free(&r);
    }
}

/* SIGKILL in the middle of three games, then SIGTERM in the middle of
 * them again (exit 0): after each restart every acknowledged action is in
 * the ledger, and the games play on with the same tokens. */
static void test_server__kill_and_restart_keeps_acknowledged(void **state)
{
    fixture *fx = *state;
    enum { ROOMS = 3 };
    char rooms[ROOMS][SCHEMA_ROOM_CHARS + 1], tokens[ROOMS][SERVER_TOKEN_CHARS + 1];
    server_start(fx);
    for (unsigned i = 0; i < ROOMS; i++)
        room_with_bots(fx, rooms[i], tokens[i], 2);
    FILE *receipts = fopen("receipts.jsonl", "w");
    assert_non_null(receipts);
    play_rooms(fx, rooms, tokens, ROOMS, 6, receipts);
    fflush(receipts);
    assert_int_equal(server_signal(fx, SIGKILL), 128 + SIGKILL);
    verify_receipts(rooms, ROOMS, "receipts.jsonl");

    server_start(fx);
    play_rooms(fx, rooms, tokens, ROOMS, 6, receipts);
    fflush(receipts);
    assert_int_equal(server_signal(fx, SIGTERM), 0);
    verify_receipts(rooms, ROOMS, "receipts.jsonl");
    fclose(receipts);
    char *text = test_slurp("receipts.jsonl", NULL);
    unsigned n = 0;
    for (const char *p = text; (p = strchr(p, '\n')) != NULL; p++)
        n++;
    free(text);
    assert_true(n >= 6);
}

/* Every `curl` line of docs/API.md's examples, run by sh with BASE,
 * ROOM, TOKEN and REFEREE set: each exits 0 and prints JSON (or an SVG). */
static void test_server__api_doc_examples_run(void **state)
{
    fixture *fx = *state;
    server_start(fx);
    char room[SCHEMA_ROOM_CHARS + 1], token[SERVER_TOKEN_CHARS + 1];
    room_with_bots(fx, room, token, 1);
    char doc_path[PATH_MAX + 32];
    snprintf(doc_path, sizeof doc_path, "%s/docs/API.md", fx->old_cwd);
    char *md = test_slurp(doc_path, NULL);
    assert_non_null(md);
    unsigned ran = 0;
    for (char *line = strtok(md, "\n"); line != NULL; line = strtok(NULL, "\n")) {
        if (strncmp(line, "curl ", 5) != 0)
            continue;
        FILE *f = fopen("example.sh", "w");
        assert_non_null(f);
        fprintf(f, "BASE=http://127.0.0.1:%u\nROOM=%s\nTOKEN=%s\nREFEREE=%s\n%s\n", fx->port,
                room, token, fx->referee, line);
        fclose(f);
        test_run_result r;
        const char *args[] = {"example.sh", NULL};
        int status = test_run_argv(&r, (char *)"/bin/sh", ".out", ".err", args);
        if (status != 0 || (r.out[0] != '{' && r.out[0] != '[' && strncmp(r.out, "<svg", 4) != 0 &&
                            strncmp(r.out, "<?xml", 5) != 0 && strncmp(r.out, "id:", 3) != 0))
            fail_msg("%s: exit %d: %.300s %s", line, status, r.out, r.err);
        test_run_free(&r);
        ran++;
    }
    free(md);
    assert_true(ran >= 6);
}

/* `mentat serve --demo --json`: one JSON object naming the URL, the
 * referee token and the demo room, whose seat 1 token opens seat 1's view
 * and whose five other seats are Medium bots; SIGTERM exits 0. */
static void test_server__demo_json(void **state)
{
    fixture *fx = *state;
    const char *demo_json[] = {"--demo", "--json", NULL};
    fx->pid = test_serve_spawn(mentat_bin, fx->web, demo_json);
    char *out = NULL;
    for (int i = 0; i < 1000 && (out == NULL || strchr(out, '\n') == NULL); i++) {
        free(out);
        out = access("serve.out", R_OK) == 0 ? test_slurp("serve.out", NULL) : NULL;
        usleep(10000);
    }
    assert_non_null(out);
    doc d = doc_of(out);
    fx->port = (unsigned)int_of(&d, member(&d, 0, "port"));
    int demo = member(&d, 0, "demo");
    char room[SCHEMA_ROOM_CHARS + 1], token[SERVER_TOKEN_CHARS + 1], play[256];
    string_of(room, sizeof room, &d, member(&d, demo, "room"));
    string_of(token, sizeof token, &d, member(&d, demo, "token"));
    string_of(play, sizeof play, &d, member(&d, demo, "play"));
    assert_non_null(strstr(play, token));
    free(d.tok);
    free(out);
    char path[64];
    snprintf(path, sizeof path, "/api/rooms/%s", room);
    tool_http_reply r = http(fx, 200, "GET", path, NULL, NULL);
    unsigned bots = 0;
    for (const char *p = r.body; (p = strstr(p, "\"bot\":\"medium\"")) != NULL; p++)
        bots++;
    assert_int_equal(bots, 5);
    tool_http_reply_free(&r);
    uint32_t version;
    int awaited, over;
    char *view = seat_view(fx, room, token, &version, &awaited, &over);
    assert_non_null(strstr(view, "\"viewer\":1,"));
    free(view);
    assert_int_equal(server_signal(fx, SIGTERM), 0);
}

int main(int argc, char **argv)
{
    (void)argc;
    if (test_find_mentat(mentat_bin, argv[0], "test_server") != 0)
        return 1;
    signal(SIGPIPE, SIG_IGN);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_server__plays_a_game_against_bots, setup, teardown),
        cmocka_unit_test_setup_teardown(test_server__malformed_requests_are_4xx, setup, teardown),
        cmocka_unit_test_setup_teardown(test_server__create_refusals_say_why, setup, teardown),
        cmocka_unit_test_setup_teardown(test_server__push_stream_resumes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_server__sees_appends_by_another_process, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_server__joined_seat_binds_its_key, setup, teardown),
        cmocka_unit_test_setup_teardown(test_server__bound_seats_sign_their_actions, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_server__kill_and_restart_keeps_acknowledged, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_server__api_doc_examples_run, setup, teardown),
        cmocka_unit_test_setup_teardown(test_server__demo_json, setup, teardown),
    };
    return cmocka_run_group_tests_name("server", tests, NULL, NULL);
}
