/*
 * internal.h - what the files of tools/ share: the global options, the
 * option parser, the JSON writer, output helpers and one entry point per
 * subcommand. Nothing outside tools/ (and its tests) includes it.
 *
 * The tools are thin (STYLE.md section 1): they parse arguments, call the
 * public APIs of engine/, schema/ and ledger/, and print. No rule is
 * decided here and no byte of the ledger is read except through ledger.h.
 *
 * Exit status of every subcommand (DESIGN.md "The command"):
 *   TOOL_EXIT_OK     0  success
 *   TOOL_EXIT_CHECK  1  a check found a problem (verify, damaged ledger bytes,
 *                       a rejection during `mentat play`)
 *   TOOL_EXIT_USAGE  2  bad usage or input (unknown option, malformed JSON,
 *                       unknown room, stale version, refused action, ...)
 */
#ifndef MENTAT_TOOLS_INTERNAL_H
#define MENTAT_TOOLS_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "engine/engine.h"
#include "ledger/ledger.h"
#include "schema/schema.h"

#define TOOL_EXIT_OK 0
#define TOOL_EXIT_CHECK 1
#define TOOL_EXIT_USAGE 2

#define TOOL_DEFAULT_DB "./mentat.db"
#define TOOL_KEYS_ENV "MENTAT_KEYS"

/* Optional modules by name: bit 1 << i of engine_config.modules is
 * tool_module_names[i]. */
#define TOOL_MODULE_COUNT 7
extern const char *const tool_module_names[TOOL_MODULE_COUNT];

/* ========================================================== globals */

typedef struct tool_globals {
    const char *db_path;           /* --db PATH; default TOOL_DEFAULT_DB */
    const char *keys_dir;          /* --keys DIR, else $MENTAT_KEYS, else LEDGER_DEFAULT_KEYS_DIR */
    int is_json;                   /* 1 = --json: one JSON document on stdout */
    const char *cmd;               /* the subcommand, for messages ("room create") */
} tool_globals;

/* Subcommands: argv[0] is the subcommand's name, argv[1..argc) the rest
 * of the command line; each returns an exit status. */
int cmd_keygen(int argc, char **argv, const tool_globals *g);
int cmd_key(int argc, char **argv, const tool_globals *g);
int cmd_room(int argc, char **argv, const tool_globals *g);
int cmd_act(int argc, char **argv, const tool_globals *g);
int cmd_log(int argc, char **argv, const tool_globals *g);
int cmd_state(int argc, char **argv, const tool_globals *g);
int cmd_verify(int argc, char **argv, const tool_globals *g);
int cmd_backup(int argc, char **argv, const tool_globals *g);
int cmd_restore(int argc, char **argv, const tool_globals *g);
int cmd_reveal(int argc, char **argv, const tool_globals *g);
int cmd_play(int argc, char **argv, const tool_globals *g);
int cmd_bench(int argc, char **argv, const tool_globals *g);

/* ===================================================== option parser */

/* One option of a subcommand. Terminate a table with {NULL, NULL, NULL, NULL}. */
typedef struct tool_opt {
    const char *name;              /* "--seat" */
    const char *metavar;           /* "S" when it takes a value; NULL for a flag */
    const char **value;            /* where the value goes (valued options) */
    int *is_set;                   /* set to 1 when present (flags; may be NULL for valued) */
} tool_opt;

#define TOOL_PARSED 0              /* go on */
#define TOOL_HELP 1                /* --help printed the help: exit 0 */
#define TOOL_BAD_USAGE (-1)        /* a message was printed: exit 2 */

/* Parses argv[1..argc) against `opts` and the global options (--db,
 * --keys, --json, --help), which may appear anywhere; "--name=value" and
 * "--name value" both work, and "--" ends the options. Positionals go to
 * pos[0..max_pos) in order and their number to *n_pos_out. Prints `help`
 * on --help, and one line on stderr for a usage error. */
int tool_args_parse(tool_globals *g, int argc, char **argv, const tool_opt *opts,
                    const char **pos, size_t max_pos, size_t *n_pos_out,
                    const char *help);

/* Strict decimal parse of s into [min, max]: 0, or -1 (nothing printed). */
int tool_parse_uint(uint32_t *out, const char *s, uint32_t min, uint32_t max);
int tool_parse_u64(uint64_t *out, const char *s);
/* Reads a comma-separated list of faction slugs into cfg->faction and
 * cfg->n_seats: 0, or -1 with a message in err (SCHEMA_ERRMSG bytes). */
int tool_parse_factions(engine_config *cfg, const char *list, char *err);
/* Reads a comma-separated list of module names into a bit mask. */
int tool_parse_modules(uint32_t *out, const char *list, char *err);
/* A seat given as 1..n_seats or as the name of a faction in the room:
 * 0 and the engine seat index (0-based), or -1 with a message in err. */
int tool_parse_seat(uint8_t *out, const char *s, const engine_config *cfg, char *err);

/* ========================================================= JSON out */

#define TOOL_JSON_DEPTH 16

/* A streaming JSON writer: compact, with proper string escaping. */
typedef struct tool_json {
    FILE *f;                       /* where it writes */
    int depth;                     /* open containers, 0..TOOL_JSON_DEPTH-1 */
    uint8_t has_items[TOOL_JSON_DEPTH]; /* 1 = the container at this depth has a member */
    int is_after_key;              /* 1 = a key was written; its value comes next */
} tool_json;

void tool_json_init(tool_json *j, FILE *f);
void tool_json_object_begin(tool_json *j);
void tool_json_object_end(tool_json *j);
void tool_json_array_begin(tool_json *j);
void tool_json_array_end(tool_json *j);
void tool_json_key(tool_json *j, const char *key);
void tool_json_string(tool_json *j, const char *s);
void tool_json_int(tool_json *j, int64_t v);
void tool_json_uint(tool_json *j, uint64_t v);
void tool_json_bool(tool_json *j, int v);
void tool_json_null(tool_json *j);
void tool_json_hex(tool_json *j, const uint8_t *bytes, size_t n);
/* Writes `json`, already a valid JSON value, as the next value. */
void tool_json_raw(tool_json *j, const char *json);
/* Ends the document with a newline (all containers must be closed). */
void tool_json_finish(tool_json *j);
/* Writes s as a JSON string (quotes included) to f. */
void tool_json_write_string(FILE *f, const char *s);

/* =========================================================== output */

/* "mentat <cmd>: <what>" on stderr, one line. */
void tool_err(const tool_globals *g, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* A short description of a return code (ledger, schema, errno or LMDB). */
const char *tool_strerror(int rc);
/* Exit status for a failed ledger call: TOOL_EXIT_CHECK when stored bytes
 * proved damaged (LEDGER_ECORRUPT, LEDGER_EBADSIG), else TOOL_EXIT_USAGE. */
int tool_exit_for(int rc);
/* Prints the failure of a ledger call on db: ledger_errmsg when it says
 * something, else tool_strerror; returns tool_exit_for(rc). */
int tool_ledger_fail(const tool_globals *g, ledger *db, int rc);

/* Lower-case hex of bytes into out (2n+1 bytes). */
void tool_hex(char *out, const uint8_t *bytes, size_t n);
#define TOOL_ISO_TIME_CHARS 32
/* Unix milliseconds as "2025-11-30T04:00:00.123Z". */
void tool_iso_time(char out[TOOL_ISO_TIME_CHARS], uint64_t ms);
/* "atreides" or "engine" for ENGINE_SEAT_ENGINE, from the room config. */
const char *tool_seat_faction(const engine_config *cfg, uint8_t seat);

/* Opens the ledger named by the globals. A read-only open of a missing
 * file fails with a message saying so. Prints any failure and returns an
 * exit status (0 on success). */
int tool_ledger_open(ledger **out, const tool_globals *g, int is_read_only);
/* Looks up a room given on the command line: 0, or prints why not and
 * returns an exit status (an unknown room is TOOL_EXIT_USAGE). */
int tool_room_get(ledger_room_info *out, ledger *db, const tool_globals *g, const char *room);
/* Collects every room code (in code order) into a new array of
 * SCHEMA_ROOM_CHARS + 1 byte entries; free() it. 0 or a ledger code. */
int tool_room_codes(char (**out)[SCHEMA_ROOM_CHARS + 1], size_t *n_out, ledger *db);

/* ============================================================= state */

/* The auditor's full state, as text or as one JSON object (print_state.c).
 * `version` is the version the state is after, `head` the room's head. */
void tool_state_print(FILE *f, const char *room, uint32_t version, uint32_t head,
                      const engine_state *st);
void tool_state_json(tool_json *j, const char *room, uint32_t version, uint32_t head,
                     const engine_state *st);

/* ============================================================== play */

/* The tool's own PRNG (splitmix64): for `mentat play` only, never for
 * anything the engine folds. */
typedef struct tool_prng {
    uint64_t s;                    /* state */
} tool_prng;

void tool_prng_init(tool_prng *r, uint64_t seed);
uint64_t tool_prng_next(tool_prng *r);
/* Uniform in [lo, hi] (lo <= hi), without modulo bias. */
int32_t tool_prng_range(tool_prng *r, int32_t lo, int32_t hi);
/* Draws one action of family l uniformly: each argument in [lo, hi]; when
 * l->sum >= 0, uniformly among the tuples adding up to sum (rejection
 * sampling, bounded, then a feasible-range draw). 0, or -1 if no tuple
 * of the family adds up to sum. */
int tool_action_draw(engine_action *out, const engine_legal *l, tool_prng *r);

/* ============================================================= bench */

/* `mentat bench` (cmd_bench.c and tools/bench_*.c): Mentat measured in
 * one run against a SQLite peer built into the bench and against the raw
 * primitives, as ratios. Every ledger and database lives in the run's
 * temporary directory and is removed with it. A failing step returns -1
 * with one line in bench_ctx.err. */

#define BENCH_PATH_MAX 512
#define BENCH_DIR_MAX 64           /* "/tmp/mentat-bench-XXXXXX" and a little */
#define BENCH_ERRMSG 320
#define BENCH_LONG_HISTORY 1000u   /* events wanted in one room's history */

typedef struct bench_ctx {
    char dir[BENCH_DIR_MAX];       /* the run's temporary directory */
    char keys_dir[BENCH_DIR_MAX + 8]; /* <dir>/keys: ledger_keygen's, shared by its ledgers */
    unsigned n_files;              /* ledger and database files named so far */
    tool_prng chooser;             /* picks the legal actions to submit (fixed seed) */
    uint8_t peer_sk[64];           /* the SQLite peer's Ed25519 signing key */
    uint32_t peer_key_id;          /* its id (first 4 bytes of the public key) */
    int is_progress;               /* 1 = stderr is a terminal: show progress */
    char err[BENCH_ERRMSG];        /* why the last step failed */
} bench_ctx;

/* ---- bench_run.c: clock, medians, files, progress */

/* Seconds on the monotonic clock. */
double bench_now(void);
/* The median of v[0..n) (sorts v in place); 0 when n is 0. */
double bench_median(double *v, size_t n);
/* Makes the run's temporary directory (mkdtemp under /tmp) and its keys:
 * 0, or -1 with c->err set. */
int bench_ctx_open(bench_ctx *c);
/* Removes the run's directory and everything in it. */
void bench_ctx_close(bench_ctx *c);
/* A fresh file name in the run's directory: "<dir>/<n>-<tag>". */
void bench_path_new(char out[BENCH_PATH_MAX], bench_ctx *c, const char *tag);
/* Removes path and its companions (-lock, -wal, -shm, -journal). */
void bench_files_remove(const char *path);
/* Opens a new ledger at path with the run's keys; is_unsafe_no_sync only
 * for ledgers whose writes are not timed. 0, or -1 (c->err). */
int bench_ledger_open(ledger **out, bench_ctx *c, const char *path, int is_unsafe_no_sync);
/* Closes db and removes its files. */
void bench_ledger_drop(ledger *db, const char *path);
/* Sets c->err (printf format) and returns -1. */
int bench_fail(bench_ctx *c, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Sets c->err from a failed ledger call on db and returns -1. */
int bench_ledger_fail(bench_ctx *c, ledger *db, int rc, const char *what);
/* One progress line on stderr, replaced by the next, when c->is_progress;
 * fmt NULL clears it. */
void bench_progress(const bench_ctx *c, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* ---- bench_room.c: rooms and their legal action streams */

typedef struct bench_room {
    char room[SCHEMA_ROOM_CHARS + 1]; /* the room's code in its ledger */
    uint8_t seed[ENGINE_SEED_BYTES];  /* its seed (revealed, forced) */
    engine_state opening;          /* the position at version 0 */
    uint32_t n_actions;            /* actions in the stream */
    engine_action *action;         /* owned: the stream, each legal where it stands */
} bench_room;

typedef struct bench_rooms {
    bench_room *room;              /* owned, n of cap */
    size_t n, cap;
} bench_rooms;

/* The table the bench plays: six seats, Advanced rules (the longest game
 * the engine plays so far). */
void bench_config_init(engine_config *cfg);
/* Creates a room in db, reveals its seed and plays it in memory with
 * c->chooser from engine_legal_actions until no seat may act or
 * max_actions are drawn; nothing is appended. 0, or -1 (c->err). */
int bench_room_new(bench_room *out, bench_ctx *c, ledger *db, uint32_t max_actions);
void bench_room_free(bench_room *r);
/* Appends a new room made by bench_room_new: 0, or -1 (c->err). */
int bench_rooms_add(bench_rooms *rs, bench_ctx *c, ledger *db, uint32_t max_actions);
void bench_rooms_free(bench_rooms *rs);
/* Appends action i of r (version i + 1) with ledger_append; -1 (c->err)
 * unless it is accepted. */
int bench_room_append(bench_ctx *c, ledger *db, const bench_room *r, uint32_t i);

/* ---- bench_sqlite.c: the SQLite peer */

/* One connection to the peer's database: a real sqlite3 file in WAL mode
 * with synchronous=FULL and one table events(room, version, body), one
 * JSON row per event, written one transaction per call. Not shared
 * between threads. */
typedef struct bench_peer bench_peer;

/* The head of one room as the peer's game server caches it. */
typedef struct bench_peer_head {
    const bench_room *room;        /* its stream; borrowed */
    uint32_t version;              /* head version */
    engine_state state;            /* state after `version` */
} bench_peer_head;

void bench_peer_head_init(bench_peer_head *h, const bench_room *room);
/* Opens (creating) the database at path: 0, or -1 (c->err). */
int bench_peer_open(bench_peer **out, bench_ctx *c, const char *path);
void bench_peer_close(bench_peer *p);
/* Writes the genesis rows of rooms[0..n) in one transaction. */
int bench_peer_genesis(bench_peer *p, const bench_room *rooms, size_t n);
/* Appends the next action of each head (distinct rooms) in one
 * transaction: per event it
 * reads the room's last row, hashes it (BLAKE2b), folds the action into
 * the cached state, digests the state, signs (Ed25519) and inserts a JSON
 * row; heads advance only when the transaction commits. SQLITE_BUSY waits
 * (busy timeout). 0, or -1 with the message on the connection. */
int bench_peer_append(bench_peer *p, bench_peer_head *const *heads, size_t n);
const char *bench_peer_errmsg(const bench_peer *p);

/* ---- bench_append.c: durable appends, Mentat and the peer */

typedef struct bench_append_result {
    double mentat;                 /* events/s through ledger_append / ledger_group_append */
    double sqlite;                 /* events/s, the peer, a transaction per event */
    double sqlite_batched;         /* events/s, the batching peer (concurrent only) */
    double bytes_per_event;        /* sequential: events_bytes per event of Mentat's ledger */
    uint64_t n_events;             /* appended by each side */
} bench_append_result;

/* One run of sequential appends, about n_events per side: rooms made
 * n_per_chunk at a time (not timed), then each side appends their streams
 * room after room, one transaction and one sync per event. bytes_per_event
 * is of rooms written whole, one after another. */
int bench_append_sequential(bench_append_result *out, bench_ctx *c, uint32_t n_events,
                            unsigned n_per_chunk);
/* One run of concurrent appends: n_threads threads each appending its own
 * rooms, rooms_per_thread of them per chunk (each of at most room_events
 * events, made before the chunk's clocks start), chunks until n_events;
 * Mentat through ledger_group_append, the peer with a connection and a
 * transaction per thread and event, and the peer batching through one
 * writer that commits whatever is queued in one transaction. */
int bench_append_concurrent(bench_append_result *out, bench_ctx *c, unsigned n_threads,
                            unsigned rooms_per_thread, uint32_t room_events, uint64_t n_events);

/* ---- bench_history.c: long histories and their size */

typedef struct bench_history {
    char path[BENCH_PATH_MAX];     /* the ledger file */
    ledger *db;                    /* open on it */
    bench_rooms rooms;             /* its rooms */
    uint64_t n_events;             /* events appended */
    double bytes_per_event;        /* events_bytes / events */
    double file_bytes_per_event;   /* file_bytes / events */
} bench_history;

/* One room played as long as the engine goes, up to max_events. */
int bench_history_single(bench_history *out, bench_ctx *c, uint32_t max_events);
/* n_rooms rooms written round-robin, one event each in turn, a finished
 * room replaced by a fresh one, until n_events. */
int bench_history_interleaved(bench_history *out, bench_ctx *c, unsigned n_rooms,
                              uint32_t n_events);
void bench_history_close(bench_history *h);

/* ---- bench_read.c: replay and verification */

/* Median milliseconds of ledger_state_at at n_samples random versions of
 * room (1..n_versions). */
int bench_replay_ms(double *ms_out, bench_ctx *c, ledger *db, const bench_room *room,
                    uint32_t n_versions, unsigned n_samples);
/* Events per second of ledger_verify_room over rooms, with threads. */
int bench_verify_rate(double *rate_out, bench_ctx *c, ledger *db, const bench_rooms *rooms,
                      unsigned threads);
/* crypto_sign_verify_detached calls per second on ~150-byte messages. */
int bench_raw_verify_rate(double *rate_out, bench_ctx *c, unsigned n_calls);

#endif
