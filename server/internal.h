/*
 * internal.h - what the files of server/ share and nothing outside
 * includes: the server handle, the rooms it has loaded, tokens, and the
 * ledger gate.
 *
 * Invariants (cited by number in the files):
 *  (1) The ledger handle is touched only under the gate: group appends
 *      hold its read side (they may run together: the group serialises
 *      them), every other use of the handle its write side.
 *  (2) Lock order: a room's mutex, then the gate; never the other way.
 *  (3) A room's cached states are the ledger's states at `version` and
 *      `version - 1`, changed under the room's mutex only after a durable
 *      append: by folding the appended action with the room's seed and
 *      the version's randomness, exactly as the ledger did (engine_apply
 *      is a pure function), or else from ledger_state_at.
 *  (4) A client is sent only engine_view(cur, its viewer), the log lines
 *      inspect_log_describe makes from views, and the full state only for
 *      the referee token.
 */
#ifndef MENTAT_SERVER_INTERNAL_H
#define MENTAT_SERVER_INTERNAL_H

#include <pthread.h>
#include <stdio.h>

#include "inspect/inspect.h"
#include "server/server.h"

#define SERVER__ROOMS_MAX 1024       /* rooms loaded at once */
#define SERVER__WATCH_MS 250L       /* how often the heads are read for appends by other processes */
#define SERVER__VIEWER_NONE 0xFD     /* a token that names nobody (not a seat, the public or the engine) */

/* One room the server has loaded. */
typedef struct server__room {
    char code[SCHEMA_ROOM_CHARS + 1];
    pthread_mutex_t mutex;         /* guards everything below (2) */
    pthread_cond_t changed;        /* broadcast when version moves or the server stops */
    engine_config config;
    uint32_t version;              /* head version of the cached states (3) */
    engine_state *cur;             /* full state at version; owned */
    engine_state *prev;            /* full state at version - 1 (valid if has_prev) */
    int has_prev;
    engine_action last;            /* the action of version, as stored */
    uint8_t seed[ENGINE_SEED_BYTES]; /* the room's seed (ledger_room_seed): folds appends (3) */
    int has_seed;
    uint8_t bot_level[ENGINE_MAX_SEATS]; /* level + 1 for a bot seat, 0 for a person */
    uint8_t is_joined[ENGINE_MAX_SEATS]; /* 1 = a person took the seat's token */
    int is_queued;                 /* 1 = on the bot queue */
    uint16_t bound;                /* bit s: seat s is bound to a seat key (at creation or
                                      as it joined); under mutex */
} server__room;

struct server {
    server_options opt;
    uint8_t secret[32];            /* keys tokens; read from keys_dir */
    ledger_group *group;           /* group commit across rooms */
    pthread_rwlock_t gate;         /* (1) */
    pthread_mutex_t rooms_mutex;   /* guards rooms, n_rooms, the bot queue and is_stopping */
    server__room *rooms[SERVER__ROOMS_MAX];
    size_t n_rooms;
    pthread_cond_t bot_wake;       /* a room joined the bot queue, or stop */
    server__room *bot_queue[SERVER__ROOMS_MAX];
    size_t n_bot_queue;
    pthread_t bot_thread[8];
    unsigned n_bot_threads;
    int is_stopping;               /* 1 = refuse new actions */
    unsigned n_in_flight;          /* appends under way */
    pthread_cond_t idle;           /* n_in_flight fell to 0 */
    pthread_t watch_thread;        /* reads the heads for other processes' appends */
    int has_watch;
    pthread_cond_t watch_wake;     /* stop */
    FILE *table;                   /* the room table, appended to */
    struct server__http *http;     /* the MHD daemon, or NULL */
};

/* ---- rooms.c */

/* The room called code, loaded from the ledger on first use: 0, or
 * SERVER_EINPUT (not a room code), LEDGER_ENOTFOUND (no such room) or
 * another ledger code. */
int server__room_get(server__room **out, server *s, const char *code);
/* The room called code for a request: 0, or -1 with *out failed (400 a
 * malformed code, 404 no such room, 500 an unreadable one). */
int server__room_of_request(server__room **r, server_response *out, server *s, const char *code);
/* Creates a room (bots per seat, level + 1 or 0) and records it in the
 * table: 0 and the code, or a ledger code (err set). */
int server__room_create(server__room **out, server *s, const engine_config *cfg,
                        const uint8_t bot_level[ENGINE_MAX_SEATS], const ledger_seat_keys *seats,
                        char err[SERVER_ERRMSG]);
/* Marks seat joined in memory and in the table: 0, or -1 when it is a
 * bot's or already taken. */
int server__room_join(server *s, server__room *r, uint8_t seat);
/* Appends act for seat at expected version through the group (1), with
 * the seat's signature (64 bytes) if the room binds the seat, or with
 * bind_key (32 bytes, NULL for none) the key it binds the seat to as its
 * player joins (ledger_append_bind), then refreshes the room's cache (3)
 * and wakes subscribers and bots. 0 and *res, or a ledger code
 * (LEDGER_ECONFLICT...). -2: the server is stopping. */
int server__room_append(ledger_append_result *res, server *s, server__room *r,
                        uint32_t expected, const engine_action *act, const uint8_t *seat_sig,
                        const uint8_t *bind_key);
/* Brings r's cache to the ledger's head if another process moved it,
 * then queues the bots and wakes subscribers: 0 or a ledger code. Takes
 * r->mutex, then the gate (2). */
int server__room_sync(server *s, server__room *r);
/* Queues the room for the bots if a bot seat is awaited. Needs r->mutex. */
void server__room_queue_bots(server *s, server__room *r);
/* Replays the table file at open: 0, or -1 (err). */
int server__table_load(server *s, char err[SERVER_ERRMSG]);

/* ---- token.c */

/* The token of seat (0..5) of room code, or of the referee (seat
 * ENGINE_SEAT_ENGINE, code ignored), as hex. */
void server__token(char out[SERVER_TOKEN_CHARS + 1], const server *s, const char *code,
                   uint8_t seat);
/* Whom token names in room r: a seat, ENGINE_SEAT_ENGINE (referee),
 * ENGINE_VIEW_PUBLIC (no token), or SERVER__VIEWER_NONE (a wrong one).
 * Constant time in the token's bytes (sodium_memcmp). */
uint8_t server__viewer_of(const server *s, const server__room *r, const char *token);
/* Loads or creates keys_dir/serve.secret: 0, or -1 (err). */
int server__secret_load(uint8_t out[32], const char *keys_dir, char err[SERVER_ERRMSG]);

/* ---- api.c */

/* The value of key in a query string into out (percent-decoded): 1 if
 * present, 0 if not, -1 if too long or malformed. */
int server__query_get(char *out, size_t cap, const char *query, const char *key);
/* Whom the request is, in room r: its token's viewer (Authorization or
 * ?token=), for the referee the seat named by ?seat=N (or the public with
 * ?public=1). 0, or -1 with a 4xx in *out. */
int server__request_viewer(uint8_t *out_viewer, server_response *out, const server *s,
                           const server__room *r, const server_request *req);
/* {"error": msg} with status into *out. */
void server__fail(server_response *out, unsigned status, const char *msg);
/* The JSON a viewer receives of full state st of room code after
 * version (head: the room's head), (4): inspect_state_json of the
 * viewer's view, with the legal families for a seat. */
void server__doc_json(inspect_json *j, const char *code, uint32_t version, uint32_t head,
                      const engine_state *st, uint8_t viewer);

/* The log line of `last` (version) told from prev to cur as the viewer
 * saw them, as one element of an open array. */
void server__step_log_json(inspect_json *j, uint32_t version, const engine_state *cur,
                           const engine_state *prev, const engine_action *last, uint8_t viewer);

/* server_update_json into an open writer. */
void server__update_json(inspect_json *j, const char *code, uint32_t version,
                         const engine_state *cur, const engine_state *prev,
                         const engine_action *last, uint8_t viewer);

/* The log lines of versions from..to of r for viewer, as a JSON array's
 * elements (the caller opens and closes the array). Takes the gate (1). */
void server__log_json(inspect_json *j, server *s, const server__room *r, uint8_t viewer,
                      uint32_t from, uint32_t to);

/* ---- view_diff.c */

#define SERVER__MEMBERS_MAX 64       /* top-level members of a view, at most */

/* One member of a JSON object: offsets into its text. */
typedef struct server__member {
    size_t key, key_len;           /* the key's characters, without quotes */
    size_t value, value_len;       /* the value's text */
} server__member;

/* The members of the one object in text: their number, or -1 if it is
 * not one object of plain keys or has more than cap members. */
int server__members(server__member *out, size_t cap, const char *text, size_t len);
/* Writes "base":B,"set":{the members of b (view text now) whose text
 * differs from a's (view text old, of version base)},"unset":[the keys of
 * a that b lacks]: what turns the old view into the new one. */
void server__diff_write(FILE *f, uint32_t base, const char *old, const server__member *a, int na,
                        const char *now, const server__member *b, int nb);

/* ---- bots.c */

int server__bots_start(server *s, char err[SERVER_ERRMSG]);
void server__bots_stop(server *s);

#endif
