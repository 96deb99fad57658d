/*
 * server.h - the game host: rooms played over HTTP (JSON API and a push
 * stream of server-sent events) on one open ledger, with bots in seats.
 *
 * Layer: server, above inspect and below tools. It holds the ledger open,
 * appends every action through group commit (ledger_group_append) across
 * rooms, and sends each client exactly what inspect_state_json and
 * inspect_log_line_json make of engine_view for its seat (or the public
 * view); only the referee token sees the full state. Bots are not decided
 * here: the caller supplies them (server_bot_ops), so the bots' code stays
 * in tools/.
 *
 * What it must never do: acknowledge an action before its transaction is
 * durable, show a client anything but its own viewer's view, trust a byte
 * of a request (every malformed request is a 4xx with a JSON error and
 * writes nothing), compare a token in variable time.
 *
 * Return codes: 0, or SERVER_E* below, or a ledger code passed through;
 * the message is in the err buffer the call was given.
 */
#ifndef MENTAT_SERVER_H
#define MENTAT_SERVER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "engine/engine.h"
#include "ledger/ledger.h"

#define SERVER_ERROR (-30801)        /* anything else (memory, a thread, the socket) */
#define SERVER_EINPUT (-30802)       /* bad options */
#define SERVER_ERRMSG 256

#define SERVER_TOKEN_CHARS 64        /* a token: 32 bytes as lower-case hex */
#define SERVER_BODY_MAX 16384        /* bytes of a request body, at most */
#define SERVER_MAX_CONNECTIONS 1024  /* open connections, at most */
#define SERVER_CONNECTION_SECONDS 30 /* idle time before a connection is closed */
#define SERVER_STREAM_SECONDS 600    /* a push stream is closed after this (clients reconnect) */
#define SERVER_PUSH_GAP_MS 20        /* a push stream's events are at least this far apart */

/* Bots, supplied by the caller. Each bot thread of the server calls
 * thread_begin once (its scratch), then decide for every bot seat awaited,
 * then thread_end. decide gets the full state (it must decide from the
 * seat's view alone: the tools' bots build that view themselves) and
 * returns 0 with *out, 1 to wait for other seats (only when !is_forced),
 * or -1. */
typedef struct server_bot_ops {
    void *(*thread_begin)(void *ctx);
    int (*decide)(engine_action *out, void *thread, const engine_state *full, uint8_t seat,
                  unsigned level, uint64_t seed, uint32_t version, int is_forced);
    void (*thread_end)(void *thread);
    void *ctx;                     /* passed to thread_begin */
    const char *const *level_names; /* level i's name ("easy"), n_levels of them */
    unsigned n_levels;
    unsigned default_level;        /* a bot seat given as true */
} server_bot_ops;

typedef struct server_options {
    ledger *db;                    /* the open ledger; the server owns its use until server_close */
    const char *keys_dir;          /* where the server's token secret is kept (created 0600) */
    const char *state_path;        /* the room table (bots, joined seats), e.g. "<db>.serve" */
    const char *web_dir;           /* static files served under "/", or NULL for none */
    const char *const *module_names; /* bit i of engine_config.modules is module_names[i] */
    unsigned n_module_names;
    const server_bot_ops *bots;    /* NULL: no bot seats may be created */
    unsigned n_bot_threads;        /* 0 = 2 */
} server_options;

void server_options_init(server_options *opt);

typedef struct server server;      /* opaque */

/* Opens the server's state (secret, room table) and starts its bot
 * threads; no socket yet. 0, or a code with err set. */
int server_new(server **out, const server_options *opt, char err[SERVER_ERRMSG]);
/* Stops the bot threads (a decision in flight is finished and appended)
 * and frees everything. The ledger stays open (the caller's). */
void server_free(server *s);

/* The referee token: shows any seat's view and the full state. */
void server_referee_token(const server *s, char out[SERVER_TOKEN_CHARS + 1]);

/* ---------------------------------------------------------- handlers */

/* One request, as the HTTP glue (or a fuzz target) gives it. */
typedef struct server_request {
    const char *method;            /* "GET", "POST", ... */
    const char *path;              /* "/api/rooms/AB12CD34/view", no query */
    const char *query;             /* "at=3&token=..." (may be NULL) */
    const char *token;             /* from "Authorization: Bearer T", or NULL */
    const char *body;              /* the body (NUL-terminated), or NULL */
    size_t body_len;
} server_request;

typedef struct server_response {
    unsigned status;               /* HTTP status */
    const char *content_type;      /* static string */
    char *body;                    /* owned (server_response_free), may be NULL */
    size_t body_len;
    char *file_path;               /* a static file to send instead of body; owned */
    const char *allow;             /* a 405's Allow header (static string), or NULL */
} server_response;

/* Answers one request. Never fails: a bad request is a 4xx with
 * {"error": ...}; a failure of the server a 5xx. The push stream
 * ("/api/rooms/R/events") is not handled here (server_stream_*). */
void server_handle(server_response *out, server *s, const server_request *req);
void server_response_free(server_response *r);

/* ------------------------------------------- what a viewer receives */

/* The JSON a viewer receives of the full state st of room `code` after
 * `version` (head: the room's head): inspect_state_json of the viewer's
 * engine_view, with its legal families for a seat; the full state for
 * ENGINE_SEAT_ENGINE (the referee). GET .../view answers exactly this. */
void server_view_json(FILE *f, const char *code, uint32_t version, uint32_t head,
                      const engine_state *st, uint8_t viewer);
/* The data of the push event a subscriber one version behind receives:
 * {"version","view","log":[the line of `last` told from prev to cur as
 * the viewer saw them]}; prev NULL (a fresh subscriber) gives an empty
 * log. The audit compares these bytes between worlds. */
void server_update_json(FILE *f, const char *code, uint32_t version, const engine_state *cur,
                        const engine_state *prev, const engine_action *last, uint8_t viewer);

/* ---------------------------------------------------- the push stream */

typedef struct server_stream server_stream; /* one subscriber; opaque */

#define SERVER_STREAM_FRESH UINT32_MAX /* last_seen of a first connection */

/* A subscriber to room events for the viewer the request's token names,
 * resuming after version `last_seen` (Last-Event-ID), or
 * SERVER_STREAM_FRESH: the current view first (with no log lines), then
 * each new event. 0, or a 4xx in *out (then no stream). */
int server_stream_open(server_stream **stream_out, server_response *out, server *s,
                       const server_request *req, uint32_t last_seen);
/* Waits up to wait_ms for what the subscriber has not seen and writes it
 * as server-sent events into a new buffer (*out, *len_out; free()): one
 * event per new version, "id: V", "data: {view, log}". *len_out 0 = only
 * a keep-alive comment is due. Returns 0, or 1 when the stream must end
 * (the server is stopping, or SERVER_STREAM_SECONDS passed). */
int server_stream_next(char **out, size_t *len_out, server_stream *st, unsigned wait_ms);
void server_stream_close(server_stream *st);

/* ------------------------------------------------------- HTTP on MHD */

/* Listens on host:port (IPv4 literal; port 0 picks one: *port_out) and
 * serves until server_stop. 0, or a code with err set. */
int server_listen(server *s, const char *host, unsigned port, unsigned *port_out,
                  char err[SERVER_ERRMSG]);
/* Refuses new actions (503), lets the appends in flight commit, ends the
 * push streams and closes the socket. Safe to call once from any thread
 * that is not a request handler. */
void server_stop(server *s);

#endif
