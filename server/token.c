/*
 * token.c - seat and referee tokens: BLAKE2b-256 keyed with the server's
 * secret over (room, seat), so a token survives a restart without being
 * stored, and a token of one room or seat says nothing of another's.
 *
 * Layer: server. The secret lives in keys_dir/serve.secret (0600), made
 * on first use from libsodium's randombytes. A token given by a client is
 * compared with sodium_memcmp only, never with strcmp (its time must not
 * tell how many leading bytes were right).
 */
#include <errno.h>
#include <fcntl.h>
#include <sodium.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "server/internal.h"

#define SECRET_FILE "serve.secret"

void server__token(char out[SERVER_TOKEN_CHARS + 1], const server *s, const char *code,
                   uint8_t seat)
{
    uint8_t msg[SCHEMA_ROOM_CHARS + 8] = {0};
    size_t n = 0;
    if (seat == ENGINE_SEAT_ENGINE) {
        memcpy(msg, "referee", 7);
        n = 7;
    } else {
        memcpy(msg, "seat", 4);
        memcpy(msg + 4, code, SCHEMA_ROOM_CHARS);
        msg[4 + SCHEMA_ROOM_CHARS] = seat;
        n = 5 + SCHEMA_ROOM_CHARS;
    }
    uint8_t h[32];
    crypto_generichash(h, sizeof h, msg, n, s->secret, sizeof s->secret);
    sodium_bin2hex(out, SERVER_TOKEN_CHARS + 1, h, sizeof h);
}

/* 1 if token equals the expected token, in constant time. */
static int token_eq(const char *token, const char *expected)
{
    return sodium_memcmp(token, expected, SERVER_TOKEN_CHARS) == 0;
}

uint8_t server__viewer_of(const server *s, const server__room *r, const char *token)
{
    if (token == NULL || token[0] == '\0')
        return ENGINE_VIEW_PUBLIC;
    if (strlen(token) != SERVER_TOKEN_CHARS)
        return SERVER__VIEWER_NONE;
    char want[SERVER_TOKEN_CHARS + 1];
    uint8_t who = SERVER__VIEWER_NONE;
    server__token(want, s, NULL, ENGINE_SEAT_ENGINE);
    if (token_eq(token, want))
        who = ENGINE_SEAT_ENGINE;
    for (uint8_t seat = 0; r != NULL && seat < r->config.n_seats; seat++) {
        server__token(want, s, r->code, seat);
        if (token_eq(token, want))
            who = seat;
    }
    return who;
}

void server_referee_token(const server *s, char out[SERVER_TOKEN_CHARS + 1])
{
    server__token(out, s, NULL, ENGINE_SEAT_ENGINE);
}

int server__secret_load(uint8_t out[32], const char *keys_dir, char err[SERVER_ERRMSG])
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", keys_dir, SECRET_FILE);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        ssize_t n = read(fd, out, 32);
        close(fd);
        if (n != 32) {
            snprintf(err, SERVER_ERRMSG, "%.160s is not a 32-byte secret", path);
            return -1;
        }
        return 0;
    }
    if (errno != ENOENT) {
        snprintf(err, SERVER_ERRMSG, "%.160s: %s", path, strerror(errno));
        return -1;
    }
    (void)mkdir(keys_dir, 0700);
    char tmp[1100];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) {
        snprintf(err, SERVER_ERRMSG, "%.160s: %s", tmp, strerror(errno));
        return -1;
    }
    randombytes_buf(out, 32);
    int ok = write(fd, out, 32) == 32 && fsync(fd) == 0;
    ok = close(fd) == 0 && ok;
    if (!ok || rename(tmp, path) != 0) {
        snprintf(err, SERVER_ERRMSG, "writing %.160s: %s", path, strerror(errno));
        unlink(tmp);
        return -1;
    }
    return 0;
}
