/*
 * cmd_bench.c - `mentat bench`: the benchmark. Every figure is a ratio
 * against a peer or the raw primitive measured in the same run on the same
 * machine (or, for replay and size, an absolute figure that does not
 * depend on the machine's speed: milliseconds per read, bytes per event).
 *
 * Layer: tools. This file plans the run (default or --quick), runs each
 * measurement `repeats` times, interleaving the sides so that a noisy
 * neighbour hurts both, takes medians, and prints a table or one JSON
 * object. The measurements are in tools/bench/. The bench measures; it
 * does not judge: a missed target is printed clearly and the exit status
 * is still 0. Exit 1 only if a measurement could not be made (a ledger or
 * SQLite failure, a legal action refused).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>

#include "tools/internal.h"

static const char help[] =
    "usage: mentat bench [--quick] [--json]\n"
    "\n"
    "Measures Mentat on this machine, as ratios made in the same run:\n"
    "  durable appends to one room at a time against a SQLite peer built into\n"
    "  the bench (WAL, synchronous=FULL, one JSON row and one transaction per\n"
    "  event, the same hashing, folding and signing work);\n"
    "  16 rooms appended by 16 threads through group commit against the same\n"
    "  peer with 16 threads (and against a peer that batches the same way);\n"
    "  the state at a random version of a long room, in milliseconds;\n"
    "  verifying rooms against raw Ed25519 verifications, on 1 and 2 threads;\n"
    "  bytes per event of one room's history and of 50 rooms interleaved\n"
    "  (events with their tree records);\n"
    "  an inclusion and a consistency proof in the tree of a 1,000-event\n"
    "  room, each made from the file and checked, in microseconds;\n"
    "  the hidden-information audit of one complete 6-seat game, in seconds;\n"
    "  complete 6-seat Basic games a second with Medium bots, in memory and\n"
    "  through a durable ledger with group commit (2 threads each);\n"
    "  64 rooms played over `mentat serve`'s HTTP API on loopback, every seat\n"
    "  subscribed to its push stream, against ledger_group_append of the same\n"
    "  games (serve_vs_direct), with each action's latency to its durable\n"
    "  acknowledgement (p50, p99).\n"
    "Each figure is the median of several runs. Rooms are played with legal\n"
    "actions from the engine; every file lives in a temporary directory under\n"
    "/tmp, removed at the end. The default run takes about a minute (a slow\n"
    "disk shortens its runs rather than lengthening it: at most ~3 minutes).\n"
    "Missed targets are printed; the exit status is 0 unless a measurement\n"
    "failed.\n"
    "\n"
    "  --quick   a smaller run (well under 30 seconds), for tests\n"
    "  --json    one JSON object on stdout\n"
    "\n"
    "Examples:\n"
    "  mentat bench\n"
    "  mentat bench --quick --json | jq .targets\n";

#define CHOOSER_SEED 20250101u     /* the chooser's seed: same choices every run */
#define MAX_REPEATS 9
#define VERIFY_SLICE_EVENTS 8000u  /* events verified per run, at least, in slices */
#define MAX_VERIFY_SLICES 8

/* ================================================================ plan */

typedef struct bench_plan {
    unsigned repeats;              /* runs of each measurement; the median is reported */
    uint32_t seq_events;           /* events per sequential run, each side */
    unsigned seq_chunk_rooms;      /* rooms made before each timed stretch */
    double seq_seconds;            /* no new chunk of a sequential run after this */
    unsigned conc_threads;         /* threads, one room each at a time */
    unsigned conc_rooms_per_thread;/* rooms per thread per chunk */
    uint32_t conc_room_events;     /* at most, per room of a concurrent run */
    uint32_t conc_events;          /* per concurrent run, each side (at least) */
    double conc_seconds;           /* no new chunk of a concurrent run after this */
    uint32_t history_events;       /* wanted in one room's history */
    unsigned interleaved_rooms;    /* rooms written round-robin */
    uint32_t interleaved_events;   /* events in the interleaved ledger */
    unsigned replay_samples;       /* random versions read per run */
    unsigned raw_verify_calls;     /* raw verifications per run */
    unsigned serve_rooms;          /* rooms played over HTTP and directly */
    uint32_t serve_room_actions;   /* actions per room, at most */
} bench_plan;

static const bench_plan plan_default = {
    .repeats = 5,
    .seq_events = 2000,
    .seq_chunk_rooms = 32,
    .seq_seconds = 10,
    .conc_threads = 16,
    .conc_rooms_per_thread = 3,
    .conc_room_events = 40,
    .conc_events = 3200,
    .conc_seconds = 12,
    .history_events = BENCH_LONG_HISTORY,
    .interleaved_rooms = 50,
    .interleaved_events = 10000,  /* 200 a room, as a server's rooms grow together */
    .replay_samples = 1001,
    .raw_verify_calls = 20000,
    .serve_rooms = 64,
    .serve_room_actions = 120,
};

static const bench_plan plan_quick = {
    .repeats = 3,
    .seq_events = 200,
    .seq_chunk_rooms = 32,
    .seq_seconds = 2,
    .conc_threads = 16,
    .conc_rooms_per_thread = 1,
    .conc_room_events = 40,
    .conc_events = 160,
    .conc_seconds = 3,
    .history_events = 200,
    .interleaved_rooms = 50,
    .interleaved_events = 500,
    .replay_samples = 201,
    .raw_verify_calls = 4000,
    .serve_rooms = 8,
    .serve_room_actions = 20,
};

/* ============================================================= figures */

typedef enum figure_id {
    FIG_APPEND_SEQ = 0,
    FIG_APPEND_CONC,
    FIG_APPEND_CONC_BATCHED,
    FIG_REPLAY_MS,
    FIG_VERIFY,
    FIG_VERIFY_TWO,
    FIG_RAW_TWO,
    FIG_BYTES,
    FIG_BYTES_INTERLEAVED,
    FIG_FILE_BYTES,
    FIG_FILE_BYTES_INTERLEAVED,
    FIG_BYTES_IN_TURN,
    FIG_AUDIT_GAME_S,
    FIG_PROOF_INCLUSION_US,
    FIG_PROOF_CONSISTENCY_US,
    FIG_APPLY_US,
    FIG_LEGAL_US,
    FIG_APPLY_US_ADVANCED,
    FIG_LEGAL_US_ADVANCED,
    FIG_GAMES_MEMORY,
    FIG_GAMES_LEDGER,
    FIG_WINDOW_SHARE,
    FIG_SERVE_VS_DIRECT,
    FIG_SERVE_P50_MS,
    FIG_SERVE_P99_MS,
    FIG_COUNT
} figure_id;

typedef struct figure_spec {
    const char *name;              /* JSON field */
    const char *what;              /* one line for the table */
    int target_kind;               /* 0 none, 1 at least, -1 at most */
    double target;
} figure_spec;

static const figure_spec figures[FIG_COUNT] = {
    [FIG_APPEND_SEQ] = {"append_sequential_vs_sqlite",
                        "durable appends, one room at a time: Mentat / SQLite", 1, 0.7},
    [FIG_APPEND_CONC] = {"append_concurrent_vs_sqlite",
                         "16 threads: Mentat group commit / SQLite, a txn per event", 1, 5},
    [FIG_APPEND_CONC_BATCHED] = {"append_concurrent_vs_sqlite_batched",
                                 "16 threads: Mentat group commit / SQLite batched", 0, 0},
    [FIG_REPLAY_MS] = {"replay_to_version_ms",
                       "state at a random version of one room, median ms", -1, 1},
    [FIG_VERIFY] = {"verify_vs_raw", "verify rooms, 1 thread / raw Ed25519 verify", 1, 0.9},
    [FIG_VERIFY_TWO] = {"verify_two_cores_vs_raw",
                        "verify rooms, 2 threads / raw Ed25519 verify (1 thread)", 1, 1.8},
    [FIG_RAW_TWO] = {"raw_two_threads_vs_raw",
                     "raw Ed25519 verify, 2 threads / 1 thread: what 2 cores give here", 0, 0},
    [FIG_BYTES] = {"bytes_per_event", "events and tree records, bytes per event, one room", -1,
                   200},
    [FIG_BYTES_INTERLEAVED] = {"bytes_per_event_interleaved",
                               "events and tree records, bytes per event, 50 rooms interleaved",
                               -1, 230},
    [FIG_FILE_BYTES] = {"file_bytes_per_event", "whole file bytes per event, one room", 0, 0},
    [FIG_FILE_BYTES_INTERLEAVED] = {"file_bytes_per_event_interleaved",
                                    "whole file bytes per event, 50 rooms interleaved", 0, 0},
    [FIG_BYTES_IN_TURN] = {"bytes_per_event_rooms_in_turn",
                           "events database bytes per event, rooms written whole in turn", 0,
                           0},
    [FIG_AUDIT_GAME_S] = {"audit_game_s",
                          "hidden-information audit of one complete 6-seat game, seconds", -1,
                          30},
    [FIG_PROOF_INCLUSION_US] = {"proof_inclusion_us",
                                "inclusion proof in a 1,000-event room, median microseconds", -1,
                                20},
    [FIG_PROOF_CONSISTENCY_US] = {"proof_consistency_us",
                                  "consistency proof in a 1,000-event room, median microseconds",
                                  -1, 20},
    [FIG_APPLY_US] = {"apply_us", "engine_apply, median microseconds", -1, 2},
    [FIG_LEGAL_US] = {"legal_actions_us", "engine_legal_actions (every seat), median microseconds",
                      -1, 20},
    [FIG_APPLY_US_ADVANCED] = {"apply_us_advanced",
                               "engine_apply, Advanced positions (battles with spice support), "
                               "median microseconds", -1, 2},
    [FIG_LEGAL_US_ADVANCED] = {"legal_actions_us_advanced",
                               "engine_legal_actions (every seat), Advanced positions, median "
                               "microseconds", -1, 20},
    [FIG_GAMES_MEMORY] = {"games_per_s_memory",
                          "complete 6-seat games/s, Medium bots, in memory, 2 threads", 0, 0},
    [FIG_GAMES_LEDGER] = {"games_per_s_ledger",
                          "complete 6-seat games/s, Medium bots, durable ledger, group commit, "
                          "2 threads", 0, 0},
    [FIG_WINDOW_SHARE] = {"window_share",
                          "share of accepted actions that are Karama window answers, 6-seat "
                          "Medium games", -1, 0.10},
    [FIG_SERVE_VS_DIRECT] = {"serve_vs_direct",
                             "rooms over HTTP, every seat pushed / ledger_group_append, actions/s",
                             1, 0.5},
    [FIG_SERVE_P50_MS] = {"serve_action_p50_ms",
                          "an action over HTTP, post to durable acknowledgement, median ms", 0,
                          0},
    [FIG_SERVE_P99_MS] = {"serve_action_p99_ms",
                          "an action over HTTP, post to durable acknowledgement, 99th pct ms", 0,
                          0},
};
_Static_assert(sizeof figures / sizeof figures[0] == FIG_COUNT, "one spec per figure");

typedef enum rate_id {
    RATE_MENTAT_SEQ = 0,
    RATE_SQLITE_SEQ,
    RATE_MENTAT_CONC,
    RATE_SQLITE_CONC,
    RATE_SQLITE_CONC_BATCHED,
    RATE_VERIFY_ONE,
    RATE_VERIFY_TWO,
    RATE_RAW_VERIFY,
    RATE_RAW_VERIFY_TWO,
    RATE_COUNT
} rate_id;

static const char *const rate_names[RATE_COUNT] = {
    [RATE_MENTAT_SEQ] = "mentat_append_sequential",
    [RATE_SQLITE_SEQ] = "sqlite_append_sequential",
    [RATE_MENTAT_CONC] = "mentat_append_concurrent",
    [RATE_SQLITE_CONC] = "sqlite_append_concurrent",
    [RATE_SQLITE_CONC_BATCHED] = "sqlite_append_concurrent_batched",
    [RATE_VERIFY_ONE] = "mentat_verify_one_thread",
    [RATE_VERIFY_TWO] = "mentat_verify_two_threads",
    [RATE_RAW_VERIFY] = "raw_ed25519_verify",
    [RATE_RAW_VERIFY_TWO] = "raw_ed25519_verify_two_threads",
};
_Static_assert(sizeof rate_names / sizeof rate_names[0] == RATE_COUNT, "one name per rate");

typedef struct bench_report {
    const bench_plan *plan;        /* the plan run */
    int is_quick;                  /* 1 = --quick */
    double runs[RATE_COUNT][MAX_REPEATS]; /* events/s of each run, in run order */
    unsigned n_runs[RATE_COUNT];   /* runs recorded per rate */
    double rate[RATE_COUNT];       /* medians, events/s */
    double value[FIG_COUNT];       /* the figures */
    double replay_runs[MAX_REPEATS]; /* median ms of each run */
    double in_turn_runs[MAX_REPEATS]; /* bytes per event of each sequential run */
    uint32_t history_events;       /* events in the one-room history */
    uint64_t interleaved_events;   /* events in the interleaved ledger */
    size_t interleaved_rooms_made; /* rooms the interleaved ledger needed */
    uint64_t seq_events;           /* in the shortest sequential run, each side */
    uint64_t conc_events;          /* in the shortest concurrent run, each side */
    double verify_events_per_room; /* mean length of the rooms verified */
    double seconds;                /* the whole run */
    double serve_http_rate;        /* actions/s over HTTP (serve_vs_direct) */
    double serve_direct_rate;      /* actions/s through ledger_group_append */
    uint64_t serve_actions;        /* actions each side */
    uint64_t serve_pushed;         /* push events the subscribers read */
} bench_report;

static void add_run(bench_report *rep, rate_id r, double v)
{
    if (rep->n_runs[r] < MAX_REPEATS)
        rep->runs[r][rep->n_runs[r]++] = v;
}

static int is_met(figure_id f, double v)
{
    const figure_spec *s = &figures[f];
    if (s->target_kind > 0)
        return v >= s->target;
    if (s->target_kind < 0)
        return v <= s->target;
    return 1;
}

/* =========================================================== measuring */

static int measure_append(bench_report *rep, bench_ctx *c)
{
    const bench_plan *p = rep->plan;
    for (unsigned k = 0; k < p->repeats; k++) {
        bench_append_result res;
        if (bench_append_sequential(&res, c, p->seq_events, p->seq_chunk_rooms,
                                    p->seq_seconds) != 0)
            return -1;
        add_run(rep, RATE_MENTAT_SEQ, res.mentat);
        add_run(rep, RATE_SQLITE_SEQ, res.sqlite);
        rep->in_turn_runs[k] = res.bytes_per_event;
        if (k == 0 || res.n_events < rep->seq_events)
            rep->seq_events = res.n_events;
    }
    for (unsigned k = 0; k < p->repeats; k++) {
        bench_append_result res;
        if (bench_append_concurrent(&res, c, p->conc_threads, p->conc_rooms_per_thread,
                                    p->conc_room_events, p->conc_events,
                                    p->conc_seconds) != 0)
            return -1;
        add_run(rep, RATE_MENTAT_CONC, res.mentat);
        add_run(rep, RATE_SQLITE_CONC, res.sqlite);
        add_run(rep, RATE_SQLITE_CONC_BATCHED, res.sqlite_batched);
        if (k == 0 || res.n_events < rep->conc_events)
            rep->conc_events = res.n_events;
    }
    return 0;
}

/* serve_vs_direct once (each side is long already): the ratio, p50, p99. */
static int measure_serve(bench_report *rep, bench_ctx *c)
{
    bench_serve_result res;
    if (bench_serve(&res, c, rep->plan->serve_rooms, rep->plan->serve_room_actions) != 0)
        return -1;
    rep->value[FIG_SERVE_VS_DIRECT] = res.direct_rate > 0 ? res.http_rate / res.direct_rate : 0;
    rep->value[FIG_SERVE_P50_MS] = res.p50_ms;
    rep->value[FIG_SERVE_P99_MS] = res.p99_ms;
    rep->serve_http_rate = res.http_rate;
    rep->serve_direct_rate = res.direct_rate;
    rep->serve_actions = res.n_actions;
    rep->serve_pushed = res.n_pushed;
    return 0;
}

static int measure_read(bench_report *rep, bench_ctx *c)
{
    const bench_plan *p = rep->plan;
    bench_history one, many;
    memset(&one, 0, sizeof one);
    memset(&many, 0, sizeof many);
    int ret = -1;
    if (bench_history_single(&one, c, p->history_events) != 0)
        goto out;
    rep->history_events = (uint32_t)one.n_events;
    rep->value[FIG_BYTES] = one.bytes_per_event;
    rep->value[FIG_FILE_BYTES] = one.file_bytes_per_event;
    if (bench_history_interleaved(&many, c, p->interleaved_rooms, p->interleaved_events) != 0)
        goto out;
    rep->interleaved_events = many.n_events;
    rep->interleaved_rooms_made = many.rooms.n;
    rep->value[FIG_BYTES_INTERLEAVED] = many.bytes_per_event;
    rep->value[FIG_FILE_BYTES_INTERLEAVED] = many.file_bytes_per_event;

    /* Verification reads the one long room once it is long; until the
     * engine plays that far, every room of the interleaved ledger. */
    int is_long = one.n_events >= BENCH_LONG_HISTORY;
    ledger *vdb = is_long ? one.db : many.db;
    const bench_rooms *vrooms = is_long ? &one.rooms : &many.rooms;
    uint64_t n_verified = is_long ? one.n_events : many.n_events;
    rep->verify_events_per_room = (double)n_verified / (double)vrooms->n;
    /* The raw primitive and the two verifications take turns in slices (a
     * short history is verified several times a run), so that a noisy
     * neighbour slows the three alike; each run's rate is over its slices. */
    unsigned n_slices = n_verified > 0 ? (unsigned)(VERIFY_SLICE_EVENTS / n_verified) : 1;
    if (n_slices < 1)
        n_slices = 1;
    if (n_slices > MAX_VERIFY_SLICES)
        n_slices = MAX_VERIFY_SLICES;
    for (unsigned k = 0; k < p->repeats; k++) {
        double ms, inv_raw = 0, inv_raw2 = 0, inv_v1 = 0, inv_v2 = 0;
        bench_progress(c, "replay and verify: run %u/%u", k + 1, p->repeats);
        if (bench_replay_ms(&ms, c, one.db, &one.rooms.room[0], rep->history_events,
                            p->replay_samples) != 0)
            goto out;
        for (unsigned s = 0; s < n_slices; s++) {
            /* Equal work per slice: the run's rate is the harmonic mean. */
            double raw, raw2, v1, v2;
            if (bench_raw_verify_rate(&raw, c, p->raw_verify_calls / n_slices, 1) != 0 ||
                bench_verify_rate(&v1, c, vdb, vrooms, 1) != 0 ||
                bench_verify_rate(&v2, c, vdb, vrooms, 2) != 0 ||
                bench_raw_verify_rate(&raw2, c, p->raw_verify_calls / n_slices, 2) != 0)
                goto out;
            inv_raw += 1 / raw;
            inv_raw2 += 1 / raw2;
            inv_v1 += 1 / v1;
            inv_v2 += 1 / v2;
        }
        rep->replay_runs[k] = ms;
        add_run(rep, RATE_RAW_VERIFY, n_slices / inv_raw);
        add_run(rep, RATE_RAW_VERIFY_TWO, n_slices / inv_raw2);
        add_run(rep, RATE_VERIFY_ONE, n_slices / inv_v1);
        add_run(rep, RATE_VERIFY_TWO, n_slices / inv_v2);
    }
    /* Proofs in the one room's tree of (up to) 1,000 events. */
    uint32_t tree_size = one.rooms.room[0].n_actions;
    if (tree_size > BENCH_LONG_HISTORY)
        tree_size = BENCH_LONG_HISTORY;
    bench_progress(c, "proofs in a tree of %u events", tree_size);
    if (bench_proof_us(&rep->value[FIG_PROOF_INCLUSION_US], &rep->value[FIG_PROOF_CONSISTENCY_US],
                       c, one.db, &one.rooms.room[0], tree_size, p->replay_samples) != 0)
        goto out;
    ret = 0;
out:
    bench_history_close(&one);
    bench_history_close(&many);
    return ret;
}

static double ratio(double a, double b)
{
    return b > 0 ? a / b : 0;
}

static void summarise(bench_report *rep)
{
    for (unsigned r = 0; r < RATE_COUNT; r++) {
        double sorted[MAX_REPEATS];  /* the runs stay in their order for --json */
        memcpy(sorted, rep->runs[r], sizeof sorted);
        rep->rate[r] = bench_median(sorted, rep->n_runs[r]);
    }
    double *v = rep->value;
    v[FIG_APPEND_SEQ] = ratio(rep->rate[RATE_MENTAT_SEQ], rep->rate[RATE_SQLITE_SEQ]);
    v[FIG_APPEND_CONC] = ratio(rep->rate[RATE_MENTAT_CONC], rep->rate[RATE_SQLITE_CONC]);
    v[FIG_APPEND_CONC_BATCHED] =
        ratio(rep->rate[RATE_MENTAT_CONC], rep->rate[RATE_SQLITE_CONC_BATCHED]);
    v[FIG_VERIFY] = ratio(rep->rate[RATE_VERIFY_ONE], rep->rate[RATE_RAW_VERIFY]);
    v[FIG_VERIFY_TWO] = ratio(rep->rate[RATE_VERIFY_TWO], rep->rate[RATE_RAW_VERIFY]);
    v[FIG_RAW_TWO] = ratio(rep->rate[RATE_RAW_VERIFY_TWO], rep->rate[RATE_RAW_VERIFY]);
    v[FIG_REPLAY_MS] = bench_median(rep->replay_runs, rep->plan->repeats);
    v[FIG_BYTES_IN_TURN] = bench_median(rep->in_turn_runs, rep->plan->repeats);
}

/* ============================================================== output */

/* A finite number as JSON text with a few significant digits. */
static void json_number(tool_json *j, double v)
{
    char buf[64];
    if (!isfinite(v))
        v = 0;
    snprintf(buf, sizeof buf, "%.6g", v);
    tool_json_raw(j, buf);
}

static int is_short_history(const bench_report *rep)
{
    return rep->history_events < rep->plan->history_events;
}

static void print_json(const bench_report *rep, long n_cpus, const char *date)
{
    tool_json j;
    tool_json_init(&j, stdout);
    tool_json_object_begin(&j);
    for (unsigned f = 0; f < FIG_COUNT; f++) {
        tool_json_key(&j, figures[f].name);
        json_number(&j, rep->value[f]);
    }
    tool_json_key(&j, "rates");
    tool_json_object_begin(&j);
    for (unsigned r = 0; r < RATE_COUNT; r++) {
        tool_json_key(&j, rate_names[r]);
        json_number(&j, rep->rate[r]);
    }
    tool_json_object_end(&j);
    tool_json_key(&j, "runs");
    tool_json_object_begin(&j);
    for (unsigned r = 0; r < RATE_COUNT; r++) {
        tool_json_key(&j, rate_names[r]);
        tool_json_array_begin(&j);
        for (unsigned k = 0; k < rep->n_runs[r]; k++)
            json_number(&j, rep->runs[r][k]);
        tool_json_array_end(&j);
    }
    tool_json_object_end(&j);
    tool_json_key(&j, "targets");
    tool_json_object_begin(&j);
    for (unsigned f = 0; f < FIG_COUNT; f++)
        if (figures[f].target_kind != 0) {
            tool_json_key(&j, figures[f].name);
            tool_json_bool(&j, is_met((figure_id)f, rep->value[f]));
        }
    tool_json_object_end(&j);
    tool_json_key(&j, "target_values");
    tool_json_object_begin(&j);
    for (unsigned f = 0; f < FIG_COUNT; f++)
        if (figures[f].target_kind != 0) {
            char buf[64];
            snprintf(buf, sizeof buf, "%s %g", figures[f].target_kind > 0 ? ">=" : "<=",
                     figures[f].target);
            tool_json_key(&j, figures[f].name);
            tool_json_string(&j, buf);
        }
    tool_json_object_end(&j);
    tool_json_member_uint(&j, "history_events", rep->history_events);
    tool_json_member_uint(&j, "history_events_wanted", rep->plan->history_events);
    tool_json_member_uint(&j, "sequential_events_per_run_min", rep->seq_events);
    tool_json_member_uint(&j, "concurrent_events_per_run_min", rep->conc_events);
    tool_json_member_uint(&j, "concurrent_threads", rep->plan->conc_threads);
    tool_json_member_uint(&j, "interleaved_events", rep->interleaved_events);
    tool_json_member_uint(&j, "interleaved_rooms_made", rep->interleaved_rooms_made);
    tool_json_key(&j, "verify_events_per_room");
    json_number(&j, rep->verify_events_per_room);
    tool_json_key(&j, "serve");
    tool_json_object_begin(&j);
    tool_json_member_uint(&j, "rooms", rep->plan->serve_rooms);
    tool_json_member_uint(&j, "push_streams", (uint64_t)rep->plan->serve_rooms * 6u);
    tool_json_member_uint(&j, "actions", rep->serve_actions);
    tool_json_member_uint(&j, "push_events_read", rep->serve_pushed);
    tool_json_key(&j, "http_actions_per_s");
    json_number(&j, rep->serve_http_rate);
    tool_json_key(&j, "direct_actions_per_s");
    json_number(&j, rep->serve_direct_rate);
    tool_json_object_end(&j);
    tool_json_member_uint(&j, "repeats", rep->plan->repeats);
    tool_json_member_bool(&j, "quick", rep->is_quick);
    tool_json_member_int(&j, "cpus", n_cpus);
    tool_json_member_string(&j, "date", date);
    tool_json_key(&j, "seconds");
    json_number(&j, rep->seconds);
    tool_json_key(&j, "notes");
    tool_json_array_begin(&j);
    if (is_short_history(rep)) {
        char note[320];
        snprintf(note, sizeof note,
                 "the engine plays only %u events in one room (setup and the first storm; "
                 "later phases are not built): replay and bytes_per_event are measured on "
                 "that history, not on %u events",
                 rep->history_events, rep->plan->history_events);
        tool_json_string(&j, note);
    }
    tool_json_array_end(&j);
    tool_json_object_end(&j);
    tool_json_finish(&j);
}

static void print_value(char out[32], figure_id f, double v)
{
    if (f == FIG_REPLAY_MS || f == FIG_WINDOW_SHARE)
        snprintf(out, 32, "%.4f", v);
    else if (f >= FIG_BYTES)
        snprintf(out, 32, "%.1f", v);
    else
        snprintf(out, 32, "%.2f", v);
}

static void print_table(const bench_report *rep, long n_cpus, const char *date)
{
    printf("mentat bench%s: %s, %ld CPUs, median of %u runs, %.0f s\n\n",
           rep->is_quick ? " --quick" : "", date, n_cpus, rep->plan->repeats, rep->seconds);
    printf("%-38s %10s  %-9s %s\n", "figure", "value", "target", "");
    unsigned n_missed = 0;
    for (unsigned f = 0; f < FIG_COUNT; f++) {
        char value[32], target[32] = "";
        print_value(value, (figure_id)f, rep->value[f]);
        const char *verdict = "";
        if (figures[f].target_kind != 0) {
            snprintf(target, sizeof target, "%s %g", figures[f].target_kind > 0 ? ">=" : "<=",
                     figures[f].target);
            int met = is_met((figure_id)f, rep->value[f]);
            verdict = met ? "met" : "MISSED";
            n_missed += !met;
        }
        printf("%-38s %10s  %-9s %s\n", figures[f].name, value, target, verdict);
    }
    printf("\nrates (events/s; verifications/s for raw)\n");
    for (unsigned r = 0; r < RATE_COUNT; r++)
        printf("  %-36s %10.0f\n", rate_names[r], rep->rate[r]);
    printf("\nwhat each figure is\n");
    for (unsigned f = 0; f < FIG_COUNT; f++)
        printf("  %-36s %s\n", figures[f].name, figures[f].what);
    printf("\nruns: sequential >= %llu events per run and side; concurrent >= %llu events, %u "
           "threads;\n      %llu events over %zu rooms interleaved; verification over %.1f "
           "events per room\n",
           (unsigned long long)rep->seq_events, (unsigned long long)rep->conc_events,
           rep->plan->conc_threads, (unsigned long long)rep->interleaved_events,
           rep->interleaved_rooms_made, rep->verify_events_per_room);
    if (is_short_history(rep))
        printf("\nnote: the engine plays only %u events in one room (setup and the first "
               "storm;\n      later phases are not built), so replay and bytes_per_event are "
               "measured\n      on that history, not on %u events.\n",
               rep->history_events, rep->plan->history_events);
    if (n_missed != 0)
        printf("\n%u target%s MISSED (see above)\n", n_missed, n_missed == 1 ? "" : "s");
    else
        printf("\nevery target met\n");
}

/* ============================================================= command */

int cmd_bench(int argc, char **argv, const tool_globals *gin)
{
    tool_globals g = *gin;
    int is_quick = 0;
    const tool_opt opts[] = {
        {"--quick", NULL, NULL, &is_quick},
        {NULL, NULL, NULL, NULL},
    };
    int r = tool_args_parse(&g, argc, argv, opts, NULL, 0, NULL, help);
    if (r != TOOL_PARSED)
        return r == TOOL_HELP ? TOOL_EXIT_OK : TOOL_EXIT_USAGE;
    if (sodium_init() < 0) {
        tool_err(&g, "libsodium failed to initialise");
        return TOOL_EXIT_CHECK;
    }

    bench_report rep;
    memset(&rep, 0, sizeof rep);
    rep.is_quick = is_quick;
    rep.plan = is_quick ? &plan_quick : &plan_default;
    bench_ctx c;
    memset(&c, 0, sizeof c);
    c.is_progress = isatty(STDERR_FILENO);
    tool_prng_init(&c.chooser, CHOOSER_SEED);

    double t0 = bench_now();
    uint32_t audit_events = 0;
    int ok = bench_ctx_open(&c) == 0 && measure_append(&rep, &c) == 0 &&
             measure_read(&rep, &c) == 0 &&
             bench_audit_game_s(&rep.value[FIG_AUDIT_GAME_S], &audit_events, &c,
                                is_quick ? 1 : rep.plan->repeats) == 0 &&
             bench_engine_us(&rep.value[FIG_APPLY_US], &rep.value[FIG_LEGAL_US], &c,
                             is_quick ? 2 : 20) == 0 &&
             bench_engine_advanced_us(&rep.value[FIG_APPLY_US_ADVANCED],
                                      &rep.value[FIG_LEGAL_US_ADVANCED], &c,
                                      is_quick ? 20 : 200) == 0 &&
             bot_bench_games(&rep.value[FIG_GAMES_MEMORY], &rep.value[FIG_GAMES_LEDGER],
                             &rep.value[FIG_WINDOW_SHARE], c.dir, c.keys_dir, c.err,
                             sizeof c.err) == 0 &&
             measure_serve(&rep, &c) == 0;
    bench_progress(&c, NULL);
    bench_ctx_close(&c);
    if (!ok) {
        tool_err(&g, "%s", c.err);
        return TOOL_EXIT_CHECK;
    }
    rep.seconds = bench_now() - t0;
    summarise(&rep);

    char date[TOOL_ISO_TIME_CHARS];
    tool_iso_time(date, ledger_now_ms());
    long n_cpus = sysconf(_SC_NPROCESSORS_ONLN);
    if (g.is_json) {
        print_json(&rep, n_cpus, date);
        /* stdout is the JSON; misses are said on stderr too. */
        for (unsigned f = 0; f < FIG_COUNT; f++)
            if (!is_met((figure_id)f, rep.value[f]))
                tool_err(&g, "target missed: %s = %g (target %s %g)", figures[f].name,
                         rep.value[f], figures[f].target_kind > 0 ? ">=" : "<=",
                         figures[f].target);
    } else {
        print_table(&rep, n_cpus, date);
    }
    return TOOL_EXIT_OK;
}
