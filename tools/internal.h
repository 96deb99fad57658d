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
#include "inspect/inspect.h"
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
int cmd_seat(int argc, char **argv, const tool_globals *g);
/* `mentat verify --report FILE` (tools/verify_report.c): an exit status. */
int tool_verify_report(const tool_globals *g, const char *path);
int cmd_log(int argc, char **argv, const tool_globals *g);
int cmd_state(int argc, char **argv, const tool_globals *g);
int cmd_verify(int argc, char **argv, const tool_globals *g);
int cmd_doctor(int argc, char **argv, const tool_globals *g);
int cmd_backup(int argc, char **argv, const tool_globals *g);
int cmd_restore(int argc, char **argv, const tool_globals *g);
int cmd_reveal(int argc, char **argv, const tool_globals *g);
int cmd_play(int argc, char **argv, const tool_globals *g);
int cmd_bench(int argc, char **argv, const tool_globals *g);
int cmd_scenario(int argc, char **argv, const tool_globals *g);
int cmd_audit(int argc, char **argv, const tool_globals *g);
int cmd_proof(int argc, char **argv, const tool_globals *g);
int cmd_serve(int argc, char **argv, const tool_globals *g);

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

/* The whole file at path ("-": standard input) in a new NUL-terminated
 * buffer (free it): 0, or an errno code. */
int tool_slurp(char **out, size_t *len_out, const char *path);

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

/* The JSON writer is the library's (inspect_json, inspect/json_out.c);
 * the tools write through it under their own short names. */
typedef inspect_json tool_json;
#define TOOL_JSON_DEPTH INSPECT_JSON_DEPTH
#define tool_json_init inspect_json_init
#define tool_json_object_begin inspect_json_object_begin
#define tool_json_object_end inspect_json_object_end
#define tool_json_array_begin inspect_json_array_begin
#define tool_json_array_end inspect_json_array_end
#define tool_json_key inspect_json_key
#define tool_json_string inspect_json_string
#define tool_json_int inspect_json_int
#define tool_json_uint inspect_json_uint
#define tool_json_bool inspect_json_bool
#define tool_json_member_string inspect_json_member_string
#define tool_json_member_int inspect_json_member_int
#define tool_json_member_uint inspect_json_member_uint
#define tool_json_member_bool inspect_json_member_bool
#define tool_json_member_seats inspect_json_member_seats
#define tool_json_null inspect_json_null
#define tool_json_hex inspect_json_hex
#define tool_json_raw inspect_json_raw
#define tool_json_finish inspect_json_finish
#define tool_json_write_string inspect_json_write_string

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
/* Flushes stdout: a write error on it (a full disk, a closed pipe, /dev/full)
 * is said on stderr and turns exit status ex 0 into TOOL_EXIT_USAGE. */
int tool_stdout_finish(const tool_globals *g, int ex);

/* Runs fn(ctx) in a child process (tools/isolate.c) and returns its exit
 * status; *sig_out is the signal that killed it (then TOOL_EXIT_CHECK), or
 * 0. The child dies with the caller. */
int tool_fork_call(int *sig_out, int (*fn)(void *ctx), void *ctx);
/* Runs a subcommand in a child: a fault while reading the ledger (SIGSEGV,
 * SIGBUS, ...) is reported as a damaged ledger, exit TOOL_EXIT_CHECK; a
 * child killed from outside kills the caller the same way. */
int tool_isolated_run(int (*run)(int argc, char **argv, const tool_globals *g), int argc,
                      char **argv, const tool_globals *g);

/* Lower-case hex of bytes into out (2n+1 bytes). */
void tool_hex(char *out, const uint8_t *bytes, size_t n);
#define TOOL_ISO_TIME_CHARS 32
/* Unix milliseconds as "2025-11-30T04:00:00.123Z". */
void tool_iso_time(char out[TOOL_ISO_TIME_CHARS], uint64_t ms);
/* "atreides" or "engine" for ENGINE_SEAT_ENGINE, from the room config. */
#define tool_seat_faction inspect_seat_faction

/* Opens the ledger named by the globals. A read-only open of a missing
 * file fails with a message saying so. A write open of a missing file
 * makes the ledger under a hidden temporary name beside it, which only
 * tool_ledger_close puts in place, so a command that fails creates
 * nothing. Prints any failure and returns an exit status (0 on success). */
int tool_ledger_open(ledger **out, const tool_globals *g, int is_read_only);
/* Closes db (NULL is fine) and returns the command's exit status: a ledger
 * this command made is linked into place when ex is 0 or 1 and removed
 * when ex is 2 (or when another process made one at the path meanwhile,
 * then exit 2). Every command that opens for writing closes with this. */
int tool_ledger_close(const tool_globals *g, ledger *db, int ex);
/* Says that the ledger this command is making is to be put in place
 * whatever its exit status: from here on it holds what was acknowledged
 * (`games` calls it once its checks are done and the games begin). */
void tool_ledger_keep(void);
/* Looks up a room given on the command line: 0, or prints why not and
 * returns an exit status (an unknown room is TOOL_EXIT_USAGE). */
int tool_room_get(ledger_room_info *out, ledger *db, const tool_globals *g, const char *room);
/* Writes a file through write(f, ctx) (0 or -1) with ledger_outfile: under
 * a temporary name beside path, renamed into place once complete, so path
 * is either the whole file or untouched, and refused as
 * ledger_outfile_check refuses (flags: LEDGER_OUT_*); "-" writes to
 * standard output. TOOL_EXIT_OK, or prints why not and returns the exit
 * status. */
int tool_file_write(ledger *db, const tool_globals *g, const char *path, unsigned flags,
                    int (*write)(FILE *f, void *ctx), void *ctx);
/* The preamble of a command on one room: tool_ledger_open, tool_room_get
 * of `room`, then the version an --at option names (at_s NULL: the head)
 * into *at_out (may be NULL). 0 with *db_out open (the caller closes it,
 * with tool_ledger_close when opened for writing); or prints why not (the
 * ledger, a malformed --at, an unknown room, a version past the head),
 * closes what it opened, sets *db_out NULL and returns an exit status. */
int tool_open_room_at(ledger **db_out, ledger_room_info *info, uint32_t *at_out,
                      const tool_globals *g, int is_read_only, const char *room,
                      const char *at_s);
/* Collects every room code (in code order) into a new array of
 * SCHEMA_ROOM_CHARS + 1 byte entries; free() it. 0 or a ledger code. */
int tool_room_codes(char (**out)[SCHEMA_ROOM_CHARS + 1], size_t *n_out, ledger *db);

/* ============================================================= state */

/* States, legal families and log lines are printed by the library
 * (inspect/view_json.c): the same text and JSON that the server sends. */
typedef inspect_state_doc tool_state_doc;
#define tool_state_print inspect_state_print
#define tool_state_json inspect_state_json
#define tool_victory_name inspect_victory_name

/* ============================================================== HTTP */

/* A loopback HTTP client (http_client.c), for the bench and the suites. */
typedef struct tool_http_reply {
    unsigned status;               /* HTTP status */
    char *body;                    /* into raw; NUL-terminated */
    size_t body_len;
    char *raw;                     /* owned: the whole reply */
    size_t raw_len, cap;
} tool_http_reply;

/* One request to 127.0.0.1:port (token as "Authorization: Bearer", body
 * as JSON; either may be NULL), its reply read within timeout_ms: 0, or
 * -1 (no connection, no reply in time). Release with tool_http_reply_free. */
int tool_http_request(tool_http_reply *out, unsigned port, const char *method, const char *path,
                      const char *token, const char *body, int timeout_ms);
void tool_http_reply_free(tool_http_reply *r);

/* A kept-alive connection to 127.0.0.1:port: {-1, port} before the first
 * request. tool_http_conn_request answers as tool_http_request, on this
 * connection (made again once if the server had closed it). */
typedef struct tool_http_conn {
    int fd;                        /* the socket, -1 none yet */
    unsigned port;
} tool_http_conn;
int tool_http_conn_request(tool_http_reply *out, tool_http_conn *c, const char *method,
                           const char *path, const char *token, const char *body, int timeout_ms);
void tool_http_conn_close(tool_http_conn *c);

/* A push stream of server-sent events being read. */
typedef struct tool_http_stream {
    int fd;                        /* the connection, -1 closed */
    unsigned status;               /* the reply's status */
    tool_http_reply buf;           /* bytes read and not yet parsed, from off */
    size_t off;
} tool_http_stream;

/* Opens GET path as a push stream (with Last-Event-ID when not NULL):
 * 0 once the reply's head is in (see status), or -1. */
int tool_http_stream_open(tool_http_stream *out, unsigned port, const char *path,
                          const char *token, const char *last_event_id, int timeout_ms);
/* The next event's data line (a new string: free()) and id: 0, or -1
 * (closed, or nothing within timeout_ms). Keep-alive comments are skipped. */
int tool_http_stream_next(char **data_out, uint32_t *id_out, tool_http_stream *st,
                          int timeout_ms);
void tool_http_stream_close(tool_http_stream *st);

/* The document `mentat state` prints for `viewer` of the full state st:
 * its view (made in *view unless the auditor) and, for a seat, its legal
 * families (made in legal, ENGINE_LEGAL_MAX entries) (cmd_state.c). */
void tool_state_doc_for(tool_state_doc *d, engine_state *view, engine_legal *legal,
                        const engine_state *st, uint8_t viewer, const char *room,
                        uint32_t version, uint32_t head);
/* The document as `mentat state` writes it: text, or one JSON line. */
void tool_state_write(FILE *f, int is_json, const tool_state_doc *d);
/* What `mentat replay` writes: the event line (NULL at the opening) and
 * the state document, text or JSON (cmd_replay.c). */
struct inspect_log_line;
void tool_replay_write(FILE *f, int is_json, const engine_config *cfg, uint8_t viewer,
                       const struct inspect_log_line *line, const tool_state_doc *d);

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

/* The seat keys a command signs with (seat_keys.c). tool_seat_keys_load
 * reads the comma-separated secret key files of `list` (NULL: none), each
 * matched to the seat room binds to its public key; every seat of
 * `needed` the room binds must have one. An exit status; on failure a
 * one-line error and nothing loaded. tool_seat_keys_append appends act at
 * `expected`, signed with its seat's key when the room binds that seat,
 * as ledger_append_signed; a loaded tool_seat_keys is wiped after use. */
typedef struct tool_seat_keys {
    uint16_t bound;                /* seats the room binds */
    uint16_t have;                 /* seats with a secret key in sk */
    uint8_t sk[ENGINE_MAX_SEATS][LEDGER_SEAT_SECRET_BYTES];
} tool_seat_keys;
int tool_seat_keys_load(tool_seat_keys *k, const tool_globals *g, ledger *db,
                        const ledger_room_info *info, const char *list, uint16_t needed);
int tool_seat_keys_append(const tool_seat_keys *k, ledger *db, ledger_append_result *res,
                          const char *room, uint32_t expected, const engine_action *act);
void tool_seat_keys_wipe(tool_seat_keys *k);

/* `mentat play --seat S` (play_human.c): the person at `in` plays seat
 * `human`, bots of `level` (seeded from seed) the others, until the game
 * ends, max_actions are appended or the input ends; each action of a seat
 * the room binds signed with its key of `keys`. An exit status. */
int tool_play_human(const tool_globals *g, ledger *db, const ledger_room_info *info,
                    const tool_seat_keys *keys, uint8_t human, unsigned level, uint64_t seed,
                    uint32_t max_actions, FILE *in);

/* ============================================================= bench */

/* `mentat bench` (cmd_bench.c and tools/bench/): Mentat measured in
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
    ledger_seat_keys seat_keys;    /* the seats' public keys every bench room binds */
    uint8_t seat_sk[ENGINE_MAX_SEATS][LEDGER_SEAT_SECRET_BYTES]; /* and their secret keys */
    int is_progress;               /* 1 = stderr is a terminal: show progress */
    char err[BENCH_ERRMSG];        /* why the last step failed */
} bench_ctx;

/* ---- bench/run.c: clock, medians, files, progress */

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

/* ---- bench/room.c: rooms and their legal action streams */

typedef struct bench_room {
    char room[SCHEMA_ROOM_CHARS + 1]; /* the room's code in its ledger */
    uint8_t seed[ENGINE_SEED_BYTES];  /* its seed (revealed, forced) */
    engine_state opening;          /* the position at version 0 */
    uint8_t genesis_hash[SCHEMA_HASH_BYTES]; /* what its first action acts on */
    uint32_t n_actions;            /* actions in the stream */
    engine_action *action;         /* owned: the stream, each legal where it stands */
} bench_room;

typedef struct bench_rooms {
    bench_room *room;              /* owned */
    size_t n;                      /* rooms made */
    size_t cap;                    /* rooms allocated */
} bench_rooms;

/* The table the bench plays: six seats, Advanced rules (the longest game
 * the engine plays so far). */
void bench_config_init(engine_config *cfg);
/* Creates a room in db binding its seats to `seats` (NULL: none),
 * reveals its seed and plays it in memory with c->chooser from
 * engine_legal_actions until no seat may act or max_actions are drawn;
 * nothing is appended. 0, or -1 (c->err). */
int bench_room_new(bench_room *out, bench_ctx *c, ledger *db, uint32_t max_actions,
                   const ledger_seat_keys *seats);
void bench_room_free(bench_room *r);
/* Appends a new room made by bench_room_new: 0, or -1 (c->err). */
int bench_rooms_add(bench_rooms *rs, bench_ctx *c, ledger *db, uint32_t max_actions);
/* The same, binding no seat: for the HTTP bench, whose server does not
 * pass seat signatures yet. */
int bench_rooms_add_unbound(bench_rooms *rs, bench_ctx *c, ledger *db, uint32_t max_actions);
void bench_rooms_free(bench_rooms *rs);
/* Appends action i of r (version i + 1) with ledger_append; -1 (c->err)
 * unless it is accepted. */
int bench_room_append(bench_ctx *c, ledger *db, const bench_room *r, uint32_t i);
/* The acting seat's signature of act on version (chain hash prev) of
 * room into sig, as its client would make it: sig, or NULL for an
 * automatic step (no seat signs). */
const uint8_t *bench_seat_sign(const bench_ctx *c, uint8_t sig[SCHEMA_SIG_BYTES],
                               const char *room, uint32_t version,
                               const uint8_t prev[SCHEMA_HASH_BYTES], const engine_action *act);

/* ---- bench/sqlite.c: the SQLite peer */

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

/* ---- bench/append.c: durable appends, Mentat and the peer */

typedef struct bench_append_result {
    double mentat;                 /* events/s through ledger_append / ledger_group_append */
    double sqlite;                 /* events/s, the peer, a transaction per event */
    double sqlite_batched;         /* events/s, the batching peer (concurrent only) */
    double bytes_per_event;        /* sequential: events_bytes per event of Mentat's ledger */
    uint64_t n_events;             /* appended by each side */
} bench_append_result;

/* One run of sequential appends, about n_events per side: rooms made
 * n_per_chunk at a time (not timed), then each side appends their streams
 * room after room, one transaction and one sync per event. No chunk starts
 * after max_seconds (a slow disk makes a shorter run, not a longer one).
 * bytes_per_event is of rooms written whole, one after another. */
int bench_append_sequential(bench_append_result *out, bench_ctx *c, uint32_t n_events,
                            unsigned n_per_chunk, double max_seconds);
/* One run of concurrent appends: n_threads threads each appending its own
 * rooms, rooms_per_thread of them per chunk (each of at most room_events
 * events, made before the chunk's clocks start), chunks until n_events or
 * max_seconds; Mentat through ledger_group_append, the peer with a
 * connection and a transaction per thread and event, and the peer
 * batching through one writer that commits whatever is queued in one
 * transaction. */
int bench_append_concurrent(bench_append_result *out, bench_ctx *c, unsigned n_threads,
                            unsigned rooms_per_thread, uint32_t room_events, uint64_t n_events,
                            double max_seconds);

/* ---- bench/history.c: long histories and their size */

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

/* ---- bench/read.c: replay and verification */

/* Median milliseconds of ledger_state_at at n_samples random versions of
 * room (1..n_versions). */
int bench_replay_ms(double *ms_out, bench_ctx *c, ledger *db, const bench_room *room,
                    uint32_t n_versions, unsigned n_samples);
/* Signatures per second (the ledger's and the seats', every one it checks)
 * of ledger_verify_room over rooms, with threads. */
int bench_verify_rate(double *rate_out, bench_ctx *c, ledger *db, const bench_rooms *rooms,
                      unsigned threads);
/* crypto_sign_verify_detached calls per second on ~150-byte messages, the
 * n_calls shared by `threads` (1 or 2) threads. */
int bench_raw_verify_rate(double *rate_out, bench_ctx *c, unsigned n_calls, unsigned threads);

/* ---- bench/proof.c: Merkle proofs */

/* Median microseconds of ledger_proof_inclusion (a random version) and
 * ledger_proof_consistency (from a random smaller size) in the tree of
 * room's first `size` events, n_samples of each, every proof checked. */
int bench_proof_us(double *inclusion_us_out, double *consistency_us_out, bench_ctx *c,
                   ledger *db, const bench_room *room, uint32_t size, unsigned n_samples);

/* ---- bench/engine.c: the engine's cost per call */

/* Median microseconds of one engine_apply and of one engine_legal_actions
 * call (every seat), over `games` complete games in memory. 0, or -1. */
int bench_engine_us(double *apply_us_out, double *legal_us_out, bench_ctx *c, unsigned games);
/* The same over `positions` constructed Advanced positions of 6 seats,
 * three battles each with spice support, played on until the Advanced
 * game's first unbuilt phase. 0, or -1. */
int bench_engine_advanced_us(double *apply_us_out, double *legal_us_out, bench_ctx *c,
                             unsigned positions);

/* ---- bench/audit.c: the hidden-information audit */

/* Median seconds of inspect_audit_room (default pairs and steps) over
 * `repeats` runs on one complete 6-seat Basic game, played with c->chooser
 * and appended to a ledger of the run (not timed); the game's length in
 * *n_events_out. 0, or -1 (c->err). */
int bench_audit_game_s(double *seconds_out, uint32_t *n_events_out, bench_ctx *c,
                       unsigned repeats);

/* ========================================================= scenario */

/* `mentat scenario` (scenario.c reads and runs, cmd_scenario.c prints):
 * a constructed position, actions and expectations from a JSON document
 * (docs/SCENARIOS.md), run in memory through the engine. */

#define TOOL_SCENARIO_ERRMSG 400   /* "<json path>: <what is wrong>" */
#define TOOL_SCENARIO_NAME 512     /* "name" and "rule" of a document */
#define TOOL_SCENARIO_TEXT 640     /* what a check is about */

/* One expectation, met or not. */
typedef struct tool_scenario_check {
    char what[TOOL_SCENARIO_TEXT]; /* "action 2, seat 1 atreides: {...}", "seat 1 atreides spice" */
    char expected[200];            /* "accepted", "14", "1 atreides, 2 fremen" */
    char got[200];                 /* the same form, as found */
    int is_met;                    /* 1 if got equals expected */
} tool_scenario_check;

typedef struct tool_scenario_result {
    char name[TOOL_SCENARIO_NAME]; /* the document's "name", or "" */
    char rule[TOOL_SCENARIO_NAME]; /* its "rule", or "" */
    engine_state start;            /* the constructed position, as entered */
    engine_state final;            /* the state after the last action */
    uint32_t n_accepted;           /* actions accepted */
    tool_scenario_check *checks;   /* owned: every check, in the order made */
    size_t n_checks;
    size_t cap_checks;
    size_t n_missed;               /* checks not met */
    int is_out_of_memory;          /* 1 if some check could not be recorded */
} tool_scenario_result;

/* Reads the scenario document text[0..len), builds its position, runs its
 * actions and checks its expectations. 0: *out holds every check (met or
 * not); release it with tool_scenario_result_free. -1: the document is
 * malformed (nothing was run); err (TOOL_SCENARIO_ERRMSG bytes) holds one
 * line naming the JSON path of the problem. */
int tool_scenario_run(tool_scenario_result *out, const char *text, size_t len, char *err);
void tool_scenario_result_free(tool_scenario_result *r);
/* Writes st, the full state of `room` after `version`, to f as a scenario
 * document that rebuilds it exactly (position {"version", "state"}) and
 * expects its own readable facts (phase, turn, storm, awaiting, winners,
 * spice, hand sizes); with the room's seed as "seed_hex" when seed is not
 * NULL, so that actions after it draw what the room drew. 0, or -1 (the
 * state does not encode, or f failed). */
int tool_scenario_export(FILE *f, const engine_state *st, const char *room, uint32_t version,
                         const uint8_t *seed);

/* ======================================================== inspection */

/* `mentat replay`, `diff`, `render`, and `log --seat/--public` (the
 * commands over inspect/; their shared output is inspect_out.c's). */
int cmd_replay(int argc, char **argv, const tool_globals *g);
int cmd_diff(int argc, char **argv, const tool_globals *g);
int cmd_render(int argc, char **argv, const tool_globals *g);

/* The viewer named by --seat S, --public or --auditor (at most one; none
 * gives default_viewer): TOOL_EXIT_OK and *out, or prints why not and
 * returns TOOL_EXIT_USAGE. */
int tool_viewer_parse(uint8_t *out, const tool_globals *g, const engine_config *cfg,
                      const char *seat_s, int is_public, int is_auditor, uint8_t default_viewer);
/* The view of room `room` at version *at (has_version 0: its head) as
 * --seat/--public/--auditor choose (default the auditor): fills info,
 * *viewer, *at and view. Without the audit key the auditor's and the
 * public's are the public view stored at the append: *is_keyless 1 and
 * *viewer the public. TOOL_EXIT_OK, or an exit code once the error is
 * printed (`flag` names the version option in it, e.g. "--at"). */
int tool_view_at(engine_state *view, int *is_keyless, ledger_room_info *info, uint8_t *viewer,
                 uint32_t *at, ledger *db, const tool_globals *g, const char *room,
                 const char *seat_s, int is_public, int is_auditor, int has_version,
                 const char *flag);
/* "seat 2 bene_gesserit", "the public" or "the auditor". */
void tool_viewer_text(char *out, size_t cap, const engine_config *cfg, uint8_t viewer);
/* The same, and with is_keyless what a reader without the audit key sees. */
void tool_viewer_keyless_text(char *out, size_t cap, const engine_config *cfg, uint8_t viewer,
                              int is_keyless);
/* Viewers, masked actions and log lines as JSON are the library's. */
#define tool_viewer_json inspect_viewer_json
#define tool_masked_action_json inspect_masked_action_json
#define tool_log_line_json inspect_log_line_json
/* The line as `mentat log --seat` prints it (cmd_log.c). */
void tool_log_line_print(FILE *f, const engine_config *cfg, const struct inspect_log_line *line);
/* Every output path a seat or spectator reaches, one row each, for the
 * audit (tools/audit_outputs.c): inspect's rows, then the commands'. */
struct inspect_audit_output;
const struct inspect_audit_output *tool_audit_outputs(size_t *n_out);

/* ============================================================== bots */

/* Bots (tools/bots/): players of four levels that decide from their own
 * seat's view and that seat's legal actions alone. A bot_input is made
 * only by bot_input_build, from the full state and one seat; bot_decide
 * refuses an input made for another seat, or a state that is not that
 * seat's view (BOT_EREFUSED). A bot keeps no state between decisions: its
 * randomness is a stream keyed by its seed and the version acted on, so a
 * game replays from its room seed and bot list, and a game moved to
 * another ledger plays on identically. */

typedef enum bot_level {
    BOT_LEVEL_EASY = 0,            /* sensible legal moves at random */
    BOT_LEVEL_MEDIUM,              /* sound heuristics per phase and faction */
    BOT_LEVEL_HARD,                /* Medium plus board evaluation and defence */
    BOT_LEVEL_BRUTAL,              /* Hard plus search over sampled worlds */
    BOT_LEVEL_COUNT
} bot_level;

#define BOT_OK 0
#define BOT_WAIT 1                 /* nothing to do until another seat has acted */
#define BOT_ERROR (-1)             /* no legal action in the input, or no memory */
#define BOT_EREFUSED (-2)          /* the input is another seat's, or not a view */

/* What one seat is given to decide: its view and its legal families. */
typedef struct bot_input {
    engine_state view;             /* engine_view(st, seat) */
    uint32_t version;              /* the version the state is after (public) */
    uint8_t seat;                  /* whose view and legal actions these are */
    uint8_t is_forced;             /* 1 = every awaited seat waits: this one must act */
    size_t n_legal;                /* families in legal, at most ENGINE_LEGAL_MAX */
    engine_legal legal[ENGINE_LEGAL_MAX]; /* engine_legal_actions(st, seat) */
} bot_input;

/* The only maker of a bot_input: `st` must be the full state (viewer
 * ENGINE_SEAT_ENGINE), `seat` one of its seats. ~150 KB: allocate once. */
void bot_input_build(bot_input *out, const engine_state *st, uint8_t seat, uint32_t version,
                     int is_forced);

typedef struct bot bot;                 /* one bot: seat, level, seed; opaque */
typedef struct bot_scratch bot_scratch; /* Brutal's search buffers; opaque */

/* A bot for `seat` of `level` drawing from `seed`: BOT_OK or BOT_ERROR (no
 * memory; *out is then NULL). Release with bot_free. */
int bot_new(bot **out, uint8_t seat, bot_level level, uint64_t seed);
void bot_free(bot *b);
uint8_t bot_seat(const bot *b);
bot_level bot_level_of(const bot *b);
/* The bot's action for `in`: BOT_OK and *out, one of in->legal's actions;
 * BOT_WAIT (only when !in->is_forced); BOT_EREFUSED when in is not this
 * bot's seat's view; BOT_ERROR when in has no legal action. */
int bot_decide(engine_action *out, bot *b, const bot_input *in);

/* "easy", "medium", "hard", "brutal"; NULL if out of range. */
const char *bot_level_name(unsigned level);
/* The level named s, or -1. */
int bot_level_from_name(const char *s);
/* A comma-separated list of level names into out[0..cap): 0 and *n_out,
 * or -1 (an unknown name, an empty item, too many). */
int bot_levels_parse(uint8_t *out, size_t cap, size_t *n_out, const char *list);

/* ---- bots/world.c: the world sampler */

/* A full state consistent with `view` (a seat's, or the public's): every
 * fact the view hides drawn at random among those the viewer cannot rule
 * out, with r. engine_view(out, viewer) then equals view and the engine
 * invariants hold. 0, or -1 when the view is not one the sampler can
 * complete (out is then unspecified). A full state is copied as it is. */
int bot_world_sample(engine_state *out, const engine_state *view, tool_prng *r);
/* The treachery deck's kinds for a configuration (dealt by engine_setup):
 * counts per kind and the number of cards; 0, or -1 if the engine refuses
 * the configuration. */
int bot_world_composition(uint8_t counts[ENGINE_CARD_KIND_COUNT], unsigned *n_cards_out,
                          const engine_config *cfg);

/* ---- bots/game.c: games played by bots */

#define BOT_CONTINUE_MAX 16        /* continuations a game can make */
#define BOT_CONTINUE_SPAN 400      /* they happen at versions 1..400 */
#define BOT_JOBS_MAX 64
#define BOT_PATH_MAX 512

/* One game: everything it is a function of. */
typedef struct bot_game_spec {
    engine_config config;          /* seats, factions, rules */
    uint8_t level[ENGINE_MAX_SEATS]; /* bot_level per seat */
    uint8_t room_seed[ENGINE_SEED_BYTES]; /* the room's seed */
    uint64_t bots_seed;            /* seat s's bot draws from bot__mix(bots_seed, s) */
    uint32_t max_actions;          /* stop unfinished after this many; 0 = 20000 */
} bot_game_spec;

typedef struct bot_game_result {
    char room[SCHEMA_ROOM_CHARS + 1]; /* its room (ledger games), else "" */
    uint32_t n_actions;            /* actions accepted */
    uint32_t n_window;             /* of those, window answers (karama_allow, _cancel, answer) */
    uint32_t n_cancelled[ENGINE_ADVANTAGE_COUNT]; /* of those, karama_cancel, by advantage */
    uint32_t n_nexus_answers;      /* of those, Nexus Cards draw answers (nexus_draw) */
    uint32_t n_nexus_draws;        /* of those, answers that drew */
    uint32_t n_nexus_panels[ENGINE_NEXUS_PANEL_COUNT + 1]; /* Nexus cards played, by the
                                      panel's row (1..36; engine_nexus_panel_of_power) */
    uint16_t karama_powers;        /* factions (bit each) that used their Karama power */
    uint32_t n_captures[3];        /* Advanced: the Harkonnen's decisions on a leader drawn,
                                      capture_leader, kill_leader, spare_leader */
    uint32_t n_rejected;           /* actions refused: must stay 0 */
    uint32_t n_restores;           /* continuations made */
    uint8_t turn;                  /* turn reached */
    uint8_t phase;                 /* phase reached: GAME_OVER when complete */
    uint8_t victory_kind;          /* engine_victory_kind */
    uint8_t is_complete;           /* 1 = GAME_OVER */
    uint8_t is_ledger_mismatch;    /* 1 = the ledger's final state is not the one folded */
    uint16_t winners;              /* seats that won */
    uint8_t digest[ENGINE_DIGEST_BYTES]; /* the final state's */
    int rc;                        /* 0, or the failure (err says what) */
    char err[240];                 /* what failed */
} bot_game_result;

/* The seeds of game `game` of a run seeded `run_seed`. */
void bot_game_seeds(uint8_t room_seed[ENGINE_SEED_BYTES], uint64_t *bots_seed, uint64_t run_seed,
                    uint32_t game);

/* Shares a ledger handle between the group's appends (readers) and
 * everything else (writer), never both at once; opaque. */
typedef struct bot_gate bot_gate;
/* 0, or -1 when out of memory. */
int bot_gate_new(bot_gate **out);
void bot_gate_free(bot_gate *g);

/* Where ledger games go. */
typedef struct bot_game_ledger {
    ledger *db;                    /* the main ledger */
    ledger_group *group;           /* group commit on db; NULL = ledger_append */
    bot_gate *gate;                /* guards db between threads */
    const char *keys_dir;          /* the run's keys, for continuation ledgers */
    const char *work_dir;          /* archives and continuation ledgers go here */
    unsigned continuations;        /* K: moves through a backup per game */
    int is_unsafe_no_sync;         /* continuation ledgers without fsync (bench) */
} bot_game_ledger;

/* Plays a game in memory / through the ledger to its end: 0, or -1 with
 * out->err (a refused action counts in out->n_rejected). `in` is scratch. */
int bot_game_play_memory(bot_game_result *out, const bot_game_spec *spec, bot_input *in);
int bot_game_play_ledger(bot_game_result *out, const bot_game_spec *spec,
                         const bot_game_ledger *lg, bot_input *in);

/* Plays specs[0..n) with `jobs` threads (the caller's among them), each
 * game by play(results[i], specs[i], ctx, scratch); a progress line on
 * stderr when is_progress. 0, or -1 if a worker got no memory. */
typedef int (*bot_play_fn)(bot_game_result *out, const bot_game_spec *spec, void *ctx,
                           bot_input *in);
int bot_games_run(bot_game_result *results, const bot_game_spec *specs, size_t n, unsigned jobs,
                  bot_play_fn play, void *ctx, int is_progress, const char *label);
int bot_play_memory(bot_game_result *out, const bot_game_spec *spec, void *ctx, bot_input *in);
/* ctx: a bot_game_ledger. */
int bot_play_ledger(bot_game_result *out, const bot_game_spec *spec, void *ctx, bot_input *in);

/* ---- bots/stats.c: summaries of games */

/* What `mentat games`, `tournament` and `bench` report of finished games. */
typedef struct bot_stats {
    size_t n_games;                /* started */
    size_t n_completed;            /* reached GAME_OVER */
    size_t n_failed;               /* stopped by an error */
    uint64_t n_actions;            /* accepted, all games */
    uint64_t n_rejected;           /* refused: must be 0 */
    uint64_t n_restores;           /* continuations made */
    size_t n_mismatches;           /* ledger final state not the one folded */
    uint64_t turns;                /* turns reached, summed */
    uint32_t actions_min;          /* per game */
    uint32_t actions_max;
    unsigned seats[ENGINE_FACTION_COUNT]; /* seats played per faction */
    unsigned wins[ENGINE_FACTION_COUNT];  /* of them, won */
    unsigned level_seats[BOT_LEVEL_COUNT];
    unsigned level_wins[BOT_LEVEL_COUNT];
    unsigned kinds[8];             /* games won per engine_victory_kind */
    uint8_t digest[ENGINE_DIGEST_BYTES]; /* BLAKE2b of every final digest, in game order */
} bot_stats;

void bot_stats_compute(bot_stats *out, const bot_game_spec *specs, const bot_game_result *results,
                       size_t n);
/* The summary's fields into an open JSON object. */
void bot_stats_json(tool_json *j, const bot_stats *s, double seconds);
/* The same as text, one fact a line. */
void bot_stats_print(FILE *f, const bot_stats *s, double seconds);

/* ---- internal to tools/bots/ */

/* What a bot is asked: one decision per step of the game. MISSING (0) is
 * what a kind the decision table forgot would map to: none does
 * (tests/tools/test_bots.c walks every kind), and bot__choose never takes
 * it for a decision. ANY: no decision of its own, the generic chooser
 * draws one; GENERIC: a generic kind (a power, a window's answer), its
 * row's default (engine_generic_default). */
typedef enum bot__decision {
    BOT__DECISION_MISSING = 0, BOT__ANY, BOT__GENERIC,
    BOT__PREDICT, BOT__TRAITOR_PICK, BOT__FREMEN_PLACE, BOT__BG_PLACE, BOT__STORM_DIAL,
    BOT__STORM_CARDS, BOT__NEXUS, BOT__WORM_RIDE, BOT__CHARITY, BOT__SUPPORT, BOT__AUCTION,
    BOT__EMPEROR_REVIVAL, BOT__REVIVE, BOT__SHIP, BOT__BG_SEND, BOT__MOVE, BOT__BATTLE_CHOOSE,
    BOT__PRESCIENCE, BOT__PRESCIENCE_ANSWER, BOT__VOICE, BOT__KARAMA, BOT__PLAN,
    BOT__TRUTH_ANSWER, BOT__TRAITOR_CALL, BOT__KEEP, BOT__SIDE, BOT__KARAMA_SHIP,
    BOT__NEXUS_DRAW,
    BOT__DECISION_COUNT
} bot__decision;
/* The decision a family of `kind` asks for, BOT__DECISION_MISSING for a
 * kind the table has no row for (or an unknown kind). */
unsigned bot__decision_of(unsigned kind);

/* One decision being made. */
typedef struct bot__ctx {
    const engine_state *v;         /* the seat's view; borrowed */
    const engine_legal *legal;     /* its legal families; borrowed */
    size_t n_legal;
    uint8_t seat;                  /* the deciding seat */
    uint8_t faction;               /* its faction */
    uint8_t level;                 /* bot_level deciding */
    uint8_t is_forced;             /* 1 = may not wait */
    uint32_t version;              /* version acted on */
    uint64_t seed;                 /* the bot's seed */
    tool_prng rng;                 /* this decision's stream: (seed, version) */
    bot_scratch *scratch;          /* Brutal's buffers, or NULL (no search) */
} bot__ctx;

/* A decision maker: BOT_OK (or BOT_WAIT) and *out, or -1 to leave the
 * decision to the level below. */
typedef int (*bot__fn)(engine_action *out, bot__ctx *c);

void bot__ctx_init(bot__ctx *c, const engine_state *view, const engine_legal *legal,
                   size_t n_legal, uint8_t seat, unsigned level, uint64_t seed, uint32_t version,
                   int is_forced, bot_scratch *scratch);
/* Decides by the decision table, without bot_decide's checks (playouts). */
int bot__choose(engine_action *out, bot__ctx *c);
uint64_t bot__mix(uint64_t a, uint64_t b);
bot_scratch *bot__scratch_new(void);
void bot__scratch_free(bot_scratch *s);

/* Families and actions. */
const engine_legal *bot__family(const bot__ctx *c, unsigned kind);
/* Drops from legal[0..n) the families naming an optional argument (a
 * move's source, rules version 4): the bots play the plain forms, which
 * the rules still allow, so their play is the same under every version
 * (a generic kind's arguments are its row's form, and kept).
 * Returns the families kept, in order. */
size_t bot__plain_families(engine_legal *legal, size_t n);
void bot__action_lo(engine_action *out, const engine_legal *l);
int bot__plain(engine_action *out, const bot__ctx *c, unsigned kind);
int bot__clamp(int v, int lo, int hi);

/* The board, read from a view. */
#define BOT_CONTESTED (-2)
unsigned bot__forces_at(const engine_state *v, unsigned loc, unsigned seat);
unsigned bot__forces_in(const engine_state *v, unsigned t, unsigned seat);
void bot__territory_forces(unsigned out[ENGINE_TERRITORY_COUNT][ENGINE_MAX_SEATS],
                           const engine_state *v);
unsigned bot__spice_in(const engine_state *v, unsigned t);
int bot__controller(unsigned tf[ENGINE_TERRITORY_COUNT][ENGINE_MAX_SEATS],
                    const engine_state *v, unsigned t);
unsigned bot__strongholds_held(unsigned tf[ENGINE_TERRITORY_COUNT][ENGINE_MAX_SEATS],
                               const engine_state *v, unsigned seat);
int bot__ally(const engine_state *v, unsigned seat);
int bot__seat_of(const engine_state *v, unsigned faction);
/* A world a bot supposes: the prescience answer it gives (when one was
 * given), or the answer's binding lifted. */
void bot__suppose_answer(engine_state *w, int value);
void bot__lift_answer(engine_state *w);
unsigned bot__kind_of(const engine_state *v, unsigned card);
unsigned bot__hand(uint8_t out[ENGINE_TREACHERY_MAX], const engine_state *v, unsigned seat);
unsigned bot__hand_classes(const engine_state *v, unsigned seat);
int bot__leader_ready(const engine_state *v, unsigned seat, unsigned leader, unsigned t);
unsigned bot__best_leader(const engine_state *v, unsigned seat, unsigned t);
unsigned bot__leaders_ready(const engine_state *v, unsigned seat, unsigned t);
/* Percent chance `opponent` (or its Harkonnen ally) holds the traitor of
 * `leader`, as `seat` sees it. */
unsigned bot__traitor_risk(const engine_state *v, unsigned seat, unsigned leader,
                           unsigned opponent);

/* The board summarised for one seat (bots/medium.c). */
typedef struct bot__board {
    unsigned tf[ENGINE_TERRITORY_COUNT][ENGINE_MAX_SEATS]; /* forces per territory and seat */
    int8_t owner[ENGINE_TERRITORY_COUNT]; /* sole occupant, -1 nobody, BOT_CONTESTED */
    uint8_t held[ENGINE_MAX_SEATS];       /* strongholds each seat controls */
    uint8_t seat;                  /* whose summary */
    int8_t ally;                   /* its ally, -1 none */
    uint8_t rate;                  /* spice it collects a force: 2, 3 with ornithopters */
} bot__board;
void bot__board_init(bot__board *b, const engine_state *v, unsigned seat);

#define BOT_CANDIDATES 16
/* The best actions found, best first. */
typedef struct bot__candidates {
    engine_action act[BOT_CANDIDATES];
    int score[BOT_CANDIDATES];
    unsigned n;
} bot__candidates;
void bot__candidates_add(bot__candidates *cs, const engine_action *act, int score);

/* A battle as one combatant sees it (bots/hard.c). */
typedef struct bot__battle {
    unsigned t;                    /* territory */
    unsigned side;                 /* 0 aggressor (wins ties), 1 defender */
    unsigned opponent;             /* the other combatant's seat */
    unsigned mine;                 /* forces there */
    unsigned theirs;
    unsigned their_leader;         /* strength of their best leader available */
    unsigned unseen;               /* their cards this seat has not seen */
    unsigned their_classes;        /* classes of their cards it has seen */
    int stake;                     /* what the territory is worth */
    unsigned seen_element;         /* prescience element answered to this side, 0 none */
    int seen_value;                /* its answer */
} bot__battle;

typedef int (*bot__bonus_fn)(const bot__ctx *c, const bot__board *b, unsigned loc, unsigned n);

/* bots/easy.c */
int bot__easy_any(engine_action *out, bot__ctx *c);
int bot__always_max(engine_action *out, bot__ctx *c);
int bot__easy_pass(engine_action *out, bot__ctx *c);
int bot__easy_charity(engine_action *out, bot__ctx *c);
int bot__medium_nexus_draw(engine_action *out, bot__ctx *c);
int bot__medium_answer(engine_action *out, bot__ctx *c);
/* A held Nexus card's panel, played before the step's decision
 * (tools/bots/nexus.c): BOT_OK and *out, or -1 (Easy: always). */
int bot__nexus_play(engine_action *out, bot__ctx *c);
/* The seat's standing Nexus window policy from its level alone, set at the
 * first prompt offering it (rules version 7 on). */
int bot__nexus_policy(engine_action *out, const bot__ctx *c);
/* A shipment chosen, made through a held Nexus card when it is cheaper
 * (Medium and up; tools/bots/nexus.c). */
void bot__nexus_ship(engine_action *out, const bot__ctx *c);
int bot__easy_support(engine_action *out, bot__ctx *c);
int bot__easy_nexus(engine_action *out, bot__ctx *c);
int bot__easy_auction(engine_action *out, bot__ctx *c);
int bot__easy_revive(engine_action *out, bot__ctx *c);
int bot__easy_ship(engine_action *out, bot__ctx *c);
int bot__easy_move(engine_action *out, bot__ctx *c);
int bot__easy_plan(engine_action *out, bot__ctx *c);

/* bots/medium.c */
int bot__storm_may_hit(const engine_state *v, unsigned loc);
unsigned bot__send_survivors(const engine_state *v, unsigned loc, unsigned n);
int bot__battle_odds(unsigned mine, unsigned my_leader, unsigned theirs, unsigned their_leader);
int bot__place_value(const bot__ctx *c, const bot__board *b, unsigned loc, unsigned n);
int bot__leave_cost(const bot__ctx *c, const bot__board *b, unsigned t, unsigned n);
int bot__ship_cost(const bot__ctx *c, unsigned kind, unsigned loc, unsigned n, int karama);
int bot__spice_reserve(const bot__ctx *c);
int bot__storm_score(const bot__ctx *c, unsigned move);
int bot__partner_score(const engine_state *v, const bot__board *b, unsigned seat, unsigned other);
void bot__ship_candidates(bot__candidates *cs, bot__ctx *c, const bot__board *b,
                          bot__bonus_fn bonus);
void bot__move_candidates(bot__candidates *cs, bot__ctx *c, const bot__board *b,
                          bot__bonus_fn bonus);
int bot__medium_storm_dial(engine_action *out, bot__ctx *c);
int bot__medium_storm_cards(engine_action *out, bot__ctx *c);
int bot__medium_nexus(engine_action *out, bot__ctx *c);
int bot__medium_worm_ride(engine_action *out, bot__ctx *c);
int bot__medium_support(engine_action *out, bot__ctx *c);
int bot__medium_auction(engine_action *out, bot__ctx *c);
int bot__medium_emperor_revival(engine_action *out, bot__ctx *c);
int bot__medium_revive(engine_action *out, bot__ctx *c);
int bot__medium_ship(engine_action *out, bot__ctx *c);
int bot__medium_bg_send(engine_action *out, bot__ctx *c);
int bot__medium_move(engine_action *out, bot__ctx *c);
int bot__medium_battle_choose(engine_action *out, bot__ctx *c);
int bot__medium_plan(engine_action *out, bot__ctx *c);
int bot__medium_prescience_answer(engine_action *out, bot__ctx *c);
int bot__medium_karama(engine_action *out, bot__ctx *c);
int bot__medium_karama_ship(engine_action *out, bot__ctx *c);

/* bots/faction.c */
int bot__faction_predict(engine_action *out, bot__ctx *c);
int bot__faction_traitor(engine_action *out, bot__ctx *c);
int bot__faction_fremen_place(engine_action *out, bot__ctx *c);
int bot__faction_prescience(engine_action *out, bot__ctx *c);
int bot__faction_voice(engine_action *out, bot__ctx *c);
int bot__voice_class(bot__ctx *c, unsigned fighter, unsigned opponent);
int bot__faction_card_worth(const bot__ctx *c, unsigned kind);
int bot__faction_synergy(const engine_state *v, unsigned seat, unsigned other);
int bot__faction_wants_alliance(const engine_state *v, const bot__board *b, unsigned seat);
int bot__faction_prediction_due(const bot__ctx *c, unsigned winner);

/* bots/hard.c */
/* A state's worth to a seat and its ally against the best rival team;
 * +-100000 once the game is over. Public facts only (a view will do). */
int bot__eval(const engine_state *st, unsigned seat);
/* Seats (with their ally) holding enough strongholds to win at the Mentat
 * Pause, and those one short. */
void bot__threats(uint16_t *winning, uint16_t *close, const bot__board *b, const engine_state *v);
int bot__hard_ship(engine_action *out, bot__ctx *c);
int bot__hard_move(engine_action *out, bot__ctx *c);
void bot__hard_ship_candidates(bot__candidates *cs, bot__ctx *c);
void bot__hard_move_candidates(bot__candidates *cs, bot__ctx *c);
/* The battle as one combatant sees it, each plan's expected worth (the
 * opponent's forces, leaders and cards as far as seen, leader survival,
 * traitors either way), and the best plans. */
void bot__battle_init(bot__battle *bt, const bot__ctx *c);
int bot__plan_score(const bot__ctx *c, const bot__battle *bt, const engine_action *plan);
/* Hard's plans for the seat's battle, best first; their number. */
unsigned bot__hard_plans(bot__candidates *cs, bot__ctx *c);
int bot__hard_plan(engine_action *out, bot__ctx *c);

/* bots/advanced.c: the Advanced plan's forces by strength for the dial
 * (the strength wanted, in forces) a level chose in out->arg[4]. */
int bot__advanced_plan(engine_action *out, const bot__ctx *c);
/* Advanced, Medium up: the Fremen's further worm where it devours most. */
int bot__advanced_place_worm(engine_action *out, const bot__ctx *c);
/* The Kwisatz Haderach's powers, from Medium up: declared with every
 * plan it may join (at the step's first prompt, so declaring says
 * nothing of the plan), revived whenever it can be; -1 when neither is
 * offered. */
int bot__advanced_kh(engine_action *out, const bot__ctx *c);
/* INTRUSION (rules version 8, LR 2.02.15), every level, from the seat's
 * view of the entry held (engine_intrusion_entry): Easy flips at random;
 * from Medium up the fighters become advisors when the entering faction
 * would then outnumber them there (a battle they would likely lose; as
 * advisors they fight none), and stay fighters otherwise; -1 when the
 * window is not bg_intrusion. */
int bot__advanced_intrusion(engine_action *out, bot__ctx *c);
/* Advanced (rules version 8): the Harkonnen's capture or kill of the
 * leader drawn after a battle won, at every level (LR 2.05.10). */
int bot__advanced_capture(engine_action *out, const bot__ctx *c);
/* bots/karama_powers.c: a faction Karama power worth using now (the
 * Emperor's and the Fremen's from Medium up, the others' at every level),
 * BOT_WAIT while a plan the Atreides' look names is not committed yet; -1
 * when none is offered or worth it. */
int bot__karama_powers(engine_action *out, const bot__ctx *c);
/* bots/karama_stops.c: the Karama stops of the Emperor's and Fremen's
 * Advanced abilities (rules version 8), from Medium up: the advantages
 * its standing policy asks about (ask, own: ENGINE_ADVANTAGE_BIT masks,
 * added to `ask` and `own`), and, in the Karama window `window` whose
 * cancel family is `cancel`, a cancel worth playing now; -1 when none. */
void bot__karama_stops_policy(uint32_t *ask, uint32_t *own, const bot__ctx *c);
int bot__karama_stops(engine_action *out, const bot__ctx *c, const engine_frame *window,
                      const engine_legal *cancel);

/* bots/brutal.c */
int bot__brutal_plan(engine_action *out, bot__ctx *c);
int bot__brutal_ship(engine_action *out, bot__ctx *c);
int bot__brutal_move(engine_action *out, bot__ctx *c);

/* ---- bench/serve.c: the game host under load */

typedef struct bench_serve_result {
    double http_rate;              /* actions/s acknowledged through the HTTP API */
    double direct_rate;            /* actions/s through ledger_group_append, same games */
    double p50_ms, p99_ms;         /* an action's post to its durable acknowledgement */
    uint64_t n_actions;            /* actions each side */
    uint64_t n_pushed;             /* push events the subscribers read */
    uint32_t n_streams;            /* subscribers: six per room */
} bench_serve_result;

/* n_rooms games of up to room_actions actions each, through `mentat
 * serve` on loopback (every seat subscribed to its push stream, a client
 * thread per room) and through ledger_group_append (a thread per room),
 * each in its own durable ledger: 0, or -1 (c->err). */
int bench_serve(bench_serve_result *out, bench_ctx *c, unsigned n_rooms, uint32_t room_actions);

/* `mentat games` and `mentat tournament` */
int cmd_games(int argc, char **argv, const tool_globals *g);
int cmd_tournament(int argc, char **argv, const tool_globals *g);
/* The bench's game figures (bots/stats.c): games per second with Medium
 * bots at 6 seats, in memory and through a durable ledger in dir (keys in
 * keys_dir) with group commit and 2 jobs, and the share of accepted
 * actions in the memory games that are Karama window answers. 0, or -1
 * with err. */
int bot_bench_games(double *memory_out, double *ledger_out, double *window_share_out,
                    const char *dir, const char *keys_dir, char *err, size_t err_len);

#endif
