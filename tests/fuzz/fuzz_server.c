/*
 * fuzz_server.c - libFuzzer target for the server's request handlers
 * (requests come from outside): the input is a request, split into
 * lines: the method, the path with its query, which token to send ("-"
 * none, "seat" seat 1's, "referee", or the line itself), then the body.
 * It goes to server_handle, or for a path ending in /events to the push
 * stream (opened, read once without waiting, closed), on a server over
 * one ledger made once per process with one room. Never crash, never
 * answer outside 200..599, and every 4xx and 5xx is a JSON object with
 * an "error".
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sodium.h>

#include "schema/schema.h"
#include "server/server.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define LINE_MAX_CHARS 4096

static struct {
    ledger *db;
    server *srv;
    char dir[64];
    char keys[128];
    char path[128];
    char room_path[64];            /* "/api/rooms/CODE" */
    char seat_token[SERVER_TOKEN_CHARS + 1];
    char referee[SERVER_TOKEN_CHARS + 1];
} fx;

static void remove_in(const char *dir, const char *name)
{
    char p[256];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    unlink(p);
}

static void cleanup(void)
{
    server_free(fx.srv);
    ledger_close(fx.db);
    remove_in(fx.keys, "signing.key");
    remove_in(fx.keys, "audit.key");
    remove_in(fx.keys, "serve.secret");
    rmdir(fx.keys);
    remove_in(fx.dir, "mentat.db");
    remove_in(fx.dir, "mentat.db-lock");
    rmdir(fx.dir);
}

/* Answers one request made in memory; aborts on a broken answer. */
static void handle(server_response *out, const char *method, const char *path, const char *query,
                   const char *token, const char *body)
{
    server_request req = {method, path, query, token, body, body != NULL ? strlen(body) : 0};
    server_handle(out, fx.srv, &req);
    if (out->status < 200 || out->status > 599)
        abort();
    if (out->status >= 400) {
        codec_json_token tok[16];
        int n = out->body != NULL
                    ? codec_json_parse(tok, 16, out->body, out->body_len, NULL)
                    : -1;
        if (n <= 0 || codec_json_member(tok, 0, out->body, "error") < 0)
            abort();
    }
}

static void init(void)
{
    char err[SERVER_ERRMSG] = "";
    if (sodium_init() < 0)
        abort();
    snprintf(fx.dir, sizeof fx.dir, "/tmp/mentat-fuzz-server-XXXXXX");
    if (mkdtemp(fx.dir) == NULL)
        abort();
    snprintf(fx.keys, sizeof fx.keys, "%s/keys", fx.dir);
    snprintf(fx.path, sizeof fx.path, "%s/mentat.db", fx.dir);
    atexit(cleanup);
    if (ledger_keygen(fx.keys, err) != 0)
        abort();
    ledger_options opt;
    ledger_options_init(&opt);
    opt.path = fx.path;
    opt.keys_dir = fx.keys;
    opt.is_unsafe_no_sync = 1; /* a scratch ledger: speed over durability */
    if (ledger_open(&fx.db, &opt) != 0)
        abort();
    server_options so;
    server_options_init(&so);
    so.db = fx.db;
    so.keys_dir = fx.keys;
    if (server_new(&fx.srv, &so, err) != 0) {
        fprintf(stderr, "fuzz_server: %s\n", err);
        abort();
    }
    static const char body[] =
        "{\"factions\":[\"atreides\",\"harkonnen\",\"fremen\"],\"rules\":\"basic\"}";
    server_response r;
    handle(&r, "POST", "/api/rooms", NULL, NULL, body);
    codec_json_token tok[64];
    char room[SCHEMA_ROOM_CHARS + 1];
    int n = r.body != NULL ? codec_json_parse(tok, 64, r.body, r.body_len, NULL) : -1;
    int t = n > 0 ? codec_json_member(tok, 0, r.body, "room") : -1;
    if (r.status != 201 || t < 0 || codec_json_string(room, sizeof room, &tok[t], r.body) != 0)
        abort();
    server_response_free(&r);
    snprintf(fx.room_path, sizeof fx.room_path, "/api/rooms/%s", room);
    char join[80];
    snprintf(join, sizeof join, "%s/join", fx.room_path);
    handle(&r, "POST", join, NULL, NULL, "{\"seat\":1}");
    n = r.body != NULL ? codec_json_parse(tok, 64, r.body, r.body_len, NULL) : -1;
    t = n > 0 ? codec_json_member(tok, 0, r.body, "token") : -1;
    if (r.status != 200 || t < 0 ||
        codec_json_string(fx.seat_token, sizeof fx.seat_token, &tok[t], r.body) != 0)
        abort();
    server_response_free(&r);
    server_referee_token(fx.srv, fx.referee);
}

/* The next line of the input (at most LINE_MAX_CHARS - 1 bytes) into out. */
static void next_line(char *out, const uint8_t **p, const uint8_t *end)
{
    size_t n = 0;
    while (*p < end && **p != '\n') {
        if (n + 1 < LINE_MAX_CHARS)
            out[n++] = (char)**p;
        (*p)++;
    }
    if (*p < end)
        (*p)++;
    out[n] = '\0';
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (fx.srv == NULL)
        init();
    static char method[LINE_MAX_CHARS], target[LINE_MAX_CHARS], token_line[LINE_MAX_CHARS];
    const uint8_t *p = data, *end = data + size;
    next_line(method, &p, end);
    next_line(target, &p, end);
    next_line(token_line, &p, end);
    char *body = malloc((size_t)(end - p) + 1);
    if (body == NULL)
        return 0;
    memcpy(body, p, (size_t)(end - p));
    body[end - p] = '\0';
    /* "@" stands for the room's path, so that mutations reach its routes. */
    char path[2 * LINE_MAX_CHARS];
    if (target[0] == '@')
        snprintf(path, sizeof path, "%s%s", fx.room_path, target + 1);
    else
        snprintf(path, sizeof path, "%s", target);
    char *query = strchr(path, '?');
    if (query != NULL)
        *query++ = '\0';
    const char *token = strcmp(token_line, "-") == 0         ? NULL
                        : strcmp(token_line, "seat") == 0    ? fx.seat_token
                        : strcmp(token_line, "referee") == 0 ? fx.referee
                                                             : token_line;
    size_t plen = strlen(path);
    if (plen >= 7 && strcmp(path + plen - 7, "/events") == 0) {
        server_request req = {method, path, query, token, body, strlen(body)};
        server_response r;
        server_stream *st;
        if (server_stream_open(&st, &r, fx.srv, &req, (uint32_t)size % 4u) == 0) {
            char *ev;
            size_t n;
            (void)server_stream_next(&ev, &n, st, 0);
            free(ev);
            server_stream_close(st);
        }
        server_response_free(&r);
    } else {
        server_response r;
        handle(&r, method, path, query, token, body[0] != '\0' ? body : NULL);
        server_response_free(&r);
    }
    free(body);
    return 0;
}
