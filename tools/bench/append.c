/*
 * bench/append.c - durable appends, timed: Mentat through ledger_append
 * and ledger_group_append, the SQLite peer through its own transactions,
 * on the same games.
 *
 * Layer: tools; bench only. Rooms are made and their streams drawn in
 * chunks before each chunk's clock starts, so the clocks hold appends
 * only: for Mentat the whole append path (head, fold, digest, sign, write,
 * sync), for the peer the same work with SQLite underneath. A chunk is
 * small enough for its rooms to stay in the ledger's room cache, as the
 * rooms a game server is playing do. Concurrent runs use persistent
 * threads released together by one broadcast; each appends its own rooms,
 * one after another, each action only after the previous is durable, as a
 * seat's client would. The batching peer has one writer thread that takes
 * whatever is queued into one transaction (Mentat's group commit does the
 * same with a leader taken from the callers).
 *
 * The sides take turns chunk by chunk (the order rotating), each in its
 * own files, so that a noisy neighbour on this shared machine slows them
 * alike instead of spoiling one side's whole run.
 */
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "tools/internal.h"

/* =========================================================== sequential */

/* Makes rooms for one chunk: up to n_rooms, and no more events in all than
 * `budget`. The number of events planned goes to *planned_out. */
static int chunk_make(uint32_t *planned_out, bench_rooms *rooms, bench_ctx *c, ledger *db,
                      unsigned n_rooms, uint32_t budget)
{
    uint32_t planned = 0;
    for (unsigned k = 0; k < n_rooms && planned < budget; k++) {
        if (bench_rooms_add(rooms, c, db, budget - planned) != 0)
            return -1;
        uint32_t n = rooms->room[rooms->n - 1].n_actions;
        if (n == 0)
            return bench_fail(c, "the engine offers no action in a new room");
        planned += n;
    }
    *planned_out = planned;
    return 0;
}

/* Inserts the genesis rows of rooms[first, first + n) and points heads at
 * them (not timed). */
static int peer_chunk_begin(bench_ctx *c, bench_peer *p, bench_peer_head *heads,
                            const bench_rooms *rooms, size_t first, size_t n)
{
    if (bench_peer_genesis(p, &rooms->room[first], n) != 0)
        return bench_fail(c, "%s", bench_peer_errmsg(p));
    for (size_t i = 0; i < n; i++)
        bench_peer_head_init(&heads[i], &rooms->room[first + i]);
    return 0;
}

static int mentat_rooms(bench_ctx *c, ledger *db, const bench_rooms *rooms, size_t first)
{
    for (size_t r = first; r < rooms->n; r++)
        for (uint32_t i = 0; i < rooms->room[r].n_actions; i++)
            if (bench_room_append(c, db, &rooms->room[r], i) != 0)
                return -1;
    return 0;
}

static int peer_rooms(bench_ctx *c, bench_peer *p, bench_peer_head *heads, size_t n)
{
    for (size_t r = 0; r < n; r++) {
        bench_peer_head *h = &heads[r];
        assert(h->room != NULL); /* peer_chunk_begin pointed it at its room */
        while (h->version < h->room->n_actions)
            if (bench_peer_append(p, &h, 1) != 0)
                return bench_fail(c, "%s", bench_peer_errmsg(p));
    }
    return 0;
}

int bench_append_sequential(bench_append_result *out, bench_ctx *c, uint32_t n_events,
                            unsigned n_per_chunk, double max_seconds)
{
    double start = bench_now();
    memset(out, 0, sizeof *out);
    char path[BENCH_PATH_MAX], peer_path[BENCH_PATH_MAX];
    bench_path_new(path, c, "sequential.mentat");
    bench_path_new(peer_path, c, "sequential.sqlite");
    ledger *db;
    if (bench_ledger_open(&db, c, path, 0) != 0)
        return -1;
    int ret = -1;
    bench_rooms rooms;
    memset(&rooms, 0, sizeof rooms);
    bench_peer *p = NULL;
    bench_peer_head *heads = calloc(n_per_chunk, sizeof *heads);
    if (heads == NULL) {
        bench_fail(c, "out of memory");
        goto out;
    }
    if (bench_peer_open(&p, c, peer_path) != 0)
        goto out;
    uint32_t done = 0;
    double elapsed[2] = {0, 0};    /* Mentat, SQLite */
    for (unsigned k = 0; done < n_events && (k == 0 || bench_now() - start < max_seconds); k++) {
        size_t first = rooms.n;
        uint32_t planned = 0;
        if (chunk_make(&planned, &rooms, c, db, n_per_chunk, n_events - done) != 0 ||
            peer_chunk_begin(c, p, heads, &rooms, first, rooms.n - first) != 0)
            goto out;
        bench_progress(c, "append, one room at a time: %u/%u events", done, n_events);
        for (unsigned turn = 0; turn < 2; turn++) {
            unsigned side = (turn + k) % 2;
            double t0 = bench_now();
            int rc = side == 0 ? mentat_rooms(c, db, &rooms, first)
                               : peer_rooms(c, p, heads, rooms.n - first);
            elapsed[side] += bench_now() - t0;
            if (rc != 0)
                goto out;
        }
        done += planned;
    }
    ledger_stats st;
    int rc = ledger_stats_get(db, &st);
    if (rc != 0) {
        bench_ledger_fail(c, db, rc, "stats");
        goto out;
    }
    if (st.n_events != done) {
        bench_fail(c, "the ledger counts %llu events, %u were appended",
                   (unsigned long long)st.n_events, done);
        goto out;
    }
    out->n_events = done;
    out->mentat = elapsed[0] > 0 ? done / elapsed[0] : 0;
    out->sqlite = elapsed[1] > 0 ? done / elapsed[1] : 0;
    out->bytes_per_event = done > 0 ? (double)st.events_bytes / done : 0;
    ret = 0;
out:
    free(heads);
    bench_peer_close(p);
    bench_files_remove(peer_path);
    bench_rooms_free(&rooms);
    bench_ledger_drop(db, path);
    return ret;
}

/* =========================================================== concurrent */

typedef enum crew_mode {
    CREW_MENTAT = 0,               /* ledger_group_append */
    CREW_SQLITE,                   /* each thread its connection and transactions */
    CREW_SQLITE_BATCHED,           /* one writer commits whatever is queued */
    CREW_COUNT
} crew_mode;

/* The batched peer's queue: callers wait until their event is durable. */
typedef struct batch_req {
    bench_peer_head *head;
    int state;                     /* 0 waiting, 1 durable, -1 failed */
} batch_req;

typedef struct batcher {
    pthread_mutex_t mu;
    pthread_cond_t has_work;       /* signalled to the writer */
    pthread_cond_t has_done;       /* broadcast to the callers */
    batch_req **queue;             /* n_queue waiting requests, room for every thread */
    size_t n_queue;
    int is_stopping;
    int is_running;                /* 1 = the writer thread was started */
    bench_peer *peer;              /* the writer's connection */
    pthread_t writer;
    char err[BENCH_ERRMSG];        /* the writer's last failure */
} batcher;

#define BATCH_MAX 64               /* requests one transaction takes at most */

typedef struct crew crew;

typedef struct worker {
    crew *crew;
    unsigned index;                /* 0..n_threads-1 */
    pthread_t thread;
    bench_peer *peer;              /* CREW_SQLITE: its own connection */
    int rc;                        /* 0, or -1 with err */
    char err[BENCH_ERRMSG];
} worker;

/* Persistent threads: crew_run releases them all on one broadcast and
 * waits until each has done its rooms of the chunk. */
struct crew {
    crew_mode mode;
    unsigned n_threads;
    unsigned rooms_per_thread;
    ledger_group *group;           /* CREW_MENTAT */
    const bench_ctx *c;            /* the seats' keys (read only) */
    batcher *batch;                /* CREW_SQLITE_BATCHED */
    const bench_room *rooms;       /* this chunk's rooms (Mentat) */
    bench_peer_head *heads;        /* this chunk's heads (peer) */
    size_t n_rooms;                /* in this chunk */
    pthread_mutex_t mu;
    pthread_cond_t go;             /* a new chunk, or is_done */
    pthread_cond_t finished;       /* a thread finished its part */
    unsigned chunk;                /* chunks released so far */
    unsigned n_started;            /* threads running */
    unsigned n_finished;           /* of them, done with this chunk */
    int is_done;                   /* leave */
    int is_init;                   /* 1 = mu and the conditions exist */
};

static void *batch_writer(void *arg)
{
    batcher *b = arg;
    batch_req *taken[BATCH_MAX];
    bench_peer_head *heads[BATCH_MAX];
    pthread_mutex_lock(&b->mu);
    for (;;) {
        while (b->n_queue == 0 && !b->is_stopping)
            pthread_cond_wait(&b->has_work, &b->mu);
        if (b->n_queue == 0)
            break;
        size_t n = b->n_queue < BATCH_MAX ? b->n_queue : BATCH_MAX;
        /* The queue holds pointers to requests: the sizes are of pointers. */
        /* NOLINTBEGIN(bugprone-sizeof-expression) */
        memcpy(taken, b->queue, n * sizeof taken[0]);
        memmove(b->queue, b->queue + n, (b->n_queue - n) * sizeof b->queue[0]);
        /* NOLINTEND(bugprone-sizeof-expression) */
        b->n_queue -= n;
        pthread_mutex_unlock(&b->mu);
        for (size_t i = 0; i < n; i++)
            heads[i] = taken[i]->head;
        int rc = bench_peer_append(b->peer, heads, n);
        pthread_mutex_lock(&b->mu);
        if (rc != 0)
            snprintf(b->err, sizeof b->err, "%s", bench_peer_errmsg(b->peer));
        for (size_t i = 0; i < n; i++)
            taken[i]->state = rc == 0 ? 1 : -1;
        pthread_cond_broadcast(&b->has_done);
    }
    pthread_mutex_unlock(&b->mu);
    return NULL;
}

static int batch_append(worker *w, batcher *b, bench_peer_head *h)
{
    batch_req req = {h, 0};
    pthread_mutex_lock(&b->mu);
    b->queue[b->n_queue++] = &req;
    pthread_cond_signal(&b->has_work);
    while (req.state == 0)
        pthread_cond_wait(&b->has_done, &b->mu);
    if (req.state < 0)
        snprintf(w->err, sizeof w->err, "%s", b->err);
    pthread_mutex_unlock(&b->mu);
    return req.state > 0 ? 0 : -1;
}

static int work_mentat(worker *w, const bench_room *room)
{
    uint8_t prev[SCHEMA_HASH_BYTES], sig[SCHEMA_SIG_BYTES];
    memcpy(prev, room->genesis_hash, sizeof prev); /* then each receipt's event hash */
    for (uint32_t i = 0; i < room->n_actions; i++) {
        ledger_append_result res;
        int rc = ledger_group_append_signed(w->crew->group, &res, room->room, i,
                                            &room->action[i],
                                            bench_seat_sign(w->crew->c, sig, room->room, i, prev,
                                                            &room->action[i]));
        if (rc != 0) {
            snprintf(w->err, sizeof w->err, "room %s version %u: group append: %s (code %d)",
                     room->room, i + 1, tool_strerror(rc), rc);
            return -1;
        }
        if (res.verdict != ENGINE_ACCEPTED || res.is_retry) {
            const char *name = engine_verdict_name(res.verdict);
            snprintf(w->err, sizeof w->err, "room %s version %u: group append %s", room->room,
                     i + 1, res.is_retry ? "taken for a retry" : name != NULL ? name : "?");
            return -1;
        }
        memcpy(prev, res.receipt.event_hash, sizeof prev);
    }
    return 0;
}

/* The rooms of this chunk that are worker w's: a contiguous block. */
static int work_chunk(worker *w)
{
    crew *cr = w->crew;
    size_t first = (size_t)w->index * cr->rooms_per_thread;
    size_t last = first + cr->rooms_per_thread;
    if (last > cr->n_rooms)
        last = cr->n_rooms;
    for (size_t r = first; r < last; r++) {
        if (cr->mode == CREW_MENTAT) {
            if (work_mentat(w, &cr->rooms[r]) != 0)
                return -1;
            continue;
        }
        bench_peer_head *h = &cr->heads[r];
        assert(h->room != NULL);
        while (h->version < h->room->n_actions) {
            if (cr->mode == CREW_SQLITE) {
                if (bench_peer_append(w->peer, &h, 1) != 0) {
                    snprintf(w->err, sizeof w->err, "%s", bench_peer_errmsg(w->peer));
                    return -1;
                }
            } else if (batch_append(w, cr->batch, h) != 0) {
                return -1;
            }
        }
    }
    return 0;
}

static void *worker_main(void *arg)
{
    worker *w = arg;
    crew *cr = w->crew;
    unsigned seen = 0;
    pthread_mutex_lock(&cr->mu);
    for (;;) {
        while (cr->chunk == seen && !cr->is_done)
            pthread_cond_wait(&cr->go, &cr->mu);
        if (cr->is_done)
            break;
        seen = cr->chunk;
        pthread_mutex_unlock(&cr->mu);
        if (w->rc == 0)
            w->rc = work_chunk(w);
        pthread_mutex_lock(&cr->mu);
        if (++cr->n_finished == cr->n_started)
            pthread_cond_signal(&cr->finished);
    }
    pthread_mutex_unlock(&cr->mu);
    return NULL;
}

/* Opens the workers' connections (CREW_SQLITE) and starts the threads.
 * On failure crew_stop still undoes what was done. */
static int crew_start(crew *cr, worker *w, bench_ctx *c, const char *peer_path)
{
    pthread_mutex_init(&cr->mu, NULL);
    pthread_cond_init(&cr->go, NULL);
    pthread_cond_init(&cr->finished, NULL);
    cr->is_init = 1;
    cr->c = c;
    for (unsigned t = 0; t < cr->n_threads; t++) {
        w[t].crew = cr;
        w[t].index = t;
        if (cr->mode == CREW_SQLITE && bench_peer_open(&w[t].peer, c, peer_path) != 0)
            return -1;
    }
    for (unsigned t = 0; t < cr->n_threads; t++) {
        if (pthread_create(&w[t].thread, NULL, worker_main, &w[t]) != 0)
            return bench_fail(c, "cannot start thread %u", t);
        cr->n_started++;
    }
    return 0;
}

/* Runs the current chunk on every thread: its wall time in seconds. */
static double crew_run(crew *cr)
{
    pthread_mutex_lock(&cr->mu);
    cr->n_finished = 0;
    cr->chunk++;
    double t0 = bench_now();
    pthread_cond_broadcast(&cr->go);
    while (cr->n_finished < cr->n_started)
        pthread_cond_wait(&cr->finished, &cr->mu);
    double t1 = bench_now();
    pthread_mutex_unlock(&cr->mu);
    return t1 - t0;
}

/* Stops the threads: 0, or -1 with the first worker's failure in c->err. */
static int crew_stop(crew *cr, worker *w, bench_ctx *c)
{
    if (!cr->is_init || w == NULL)
        return 0;
    pthread_mutex_lock(&cr->mu);
    cr->is_done = 1;
    pthread_cond_broadcast(&cr->go);
    pthread_mutex_unlock(&cr->mu);
    int ret = 0;
    for (unsigned t = 0; t < cr->n_threads; t++) {
        if (t < cr->n_started)
            pthread_join(w[t].thread, NULL);
        if (w[t].rc != 0 && ret == 0)
            ret = bench_fail(c, "thread %u: %s", t, w[t].err);
        bench_peer_close(w[t].peer);
        w[t].peer = NULL;
    }
    pthread_mutex_destroy(&cr->mu);
    pthread_cond_destroy(&cr->go);
    pthread_cond_destroy(&cr->finished);
    cr->is_init = 0;
    return ret;
}

static int chunk_ok(const crew *cr, const worker *w)
{
    for (unsigned t = 0; t < cr->n_threads; t++)
        if (w[t].rc != 0)
            return 0;
    return 1;
}

static int batcher_start(batcher *b, bench_ctx *c, const char *path, unsigned n_threads)
{
    memset(b, 0, sizeof *b);
    if (n_threads > BATCH_MAX)
        return bench_fail(c, "at most %d threads", BATCH_MAX);
    b->queue = calloc(n_threads, sizeof *b->queue); /* NOLINT(bugprone-sizeof-expression): pointers */
    if (b->queue == NULL)
        return bench_fail(c, "out of memory");
    if (bench_peer_open(&b->peer, c, path) != 0)
        return -1;
    pthread_mutex_init(&b->mu, NULL);
    pthread_cond_init(&b->has_work, NULL);
    pthread_cond_init(&b->has_done, NULL);
    if (pthread_create(&b->writer, NULL, batch_writer, b) != 0)
        return bench_fail(c, "cannot start the writer thread");
    b->is_running = 1;
    return 0;
}

static void batcher_stop(batcher *b)
{
    if (b->is_running) {
        pthread_mutex_lock(&b->mu);
        b->is_stopping = 1;
        pthread_cond_signal(&b->has_work);
        pthread_mutex_unlock(&b->mu);
        pthread_join(b->writer, NULL);
    }
    if (b->peer != NULL) {
        pthread_mutex_destroy(&b->mu);
        pthread_cond_destroy(&b->has_work);
        pthread_cond_destroy(&b->has_done);
    }
    bench_peer_close(b->peer);
    free(b->queue);
    memset(b, 0, sizeof *b);
}

int bench_append_concurrent(bench_append_result *out, bench_ctx *c, unsigned n_threads,
                            unsigned rooms_per_thread, uint32_t room_events, uint64_t n_events,
                            double max_seconds)
{
    double start = bench_now();
    memset(out, 0, sizeof *out);
    size_t per_chunk = (size_t)n_threads * rooms_per_thread;
    char path[BENCH_PATH_MAX], peer_path[BENCH_PATH_MAX], batched_path[BENCH_PATH_MAX];
    bench_path_new(path, c, "concurrent.mentat");
    bench_path_new(peer_path, c, "concurrent.sqlite");
    bench_path_new(batched_path, c, "batched.sqlite");
    ledger *db;
    if (bench_ledger_open(&db, c, path, 0) != 0)
        return -1;
    int ret = -1;
    bench_rooms rooms;
    memset(&rooms, 0, sizeof rooms);
    bench_peer *setup = NULL, *setup_batched = NULL;
    batcher b;
    memset(&b, 0, sizeof b);
    crew cr[CREW_COUNT];
    worker *w[CREW_COUNT];
    memset(cr, 0, sizeof cr);
    for (unsigned m = 0; m < CREW_COUNT; m++) {
        cr[m].mode = (crew_mode)m;
        cr[m].n_threads = n_threads;
        cr[m].rooms_per_thread = rooms_per_thread;
        w[m] = calloc(n_threads, sizeof *w[m]);
    }
    cr[CREW_SQLITE].heads = calloc(per_chunk, sizeof *cr[CREW_SQLITE].heads);
    cr[CREW_SQLITE_BATCHED].heads = calloc(per_chunk, sizeof *cr[CREW_SQLITE_BATCHED].heads);
    if (w[0] == NULL || w[1] == NULL || w[2] == NULL || cr[CREW_SQLITE].heads == NULL ||
        cr[CREW_SQLITE_BATCHED].heads == NULL) {
        bench_fail(c, "out of memory");
        goto out;
    }
    int rc = ledger_group_new(&cr[CREW_MENTAT].group, db);
    if (rc != 0) {
        bench_ledger_fail(c, db, rc, "group");
        goto out;
    }
    if (bench_peer_open(&setup, c, peer_path) != 0 ||
        bench_peer_open(&setup_batched, c, batched_path) != 0 ||
        batcher_start(&b, c, batched_path, n_threads) != 0)
        goto out;
    cr[CREW_SQLITE_BATCHED].batch = &b;
    if (crew_start(&cr[CREW_MENTAT], w[CREW_MENTAT], c, NULL) != 0 ||
        crew_start(&cr[CREW_SQLITE], w[CREW_SQLITE], c, peer_path) != 0 ||
        crew_start(&cr[CREW_SQLITE_BATCHED], w[CREW_SQLITE_BATCHED], c, NULL) != 0)
        goto out;

    double elapsed[CREW_COUNT] = {0, 0, 0};
    int is_ok = 1;
    for (unsigned k = 0;
         out->n_events < n_events && is_ok && (k == 0 || bench_now() - start < max_seconds);
         k++) {
        size_t first = rooms.n;
        for (size_t r = 0; r < per_chunk && is_ok; r++)
            is_ok = bench_rooms_add(&rooms, c, db, room_events) == 0;
        if (!is_ok ||
            peer_chunk_begin(c, setup, cr[CREW_SQLITE].heads, &rooms, first, per_chunk) != 0 ||
            peer_chunk_begin(c, setup_batched, cr[CREW_SQLITE_BATCHED].heads, &rooms, first,
                             per_chunk) != 0) {
            is_ok = 0;
            break;
        }
        cr[CREW_MENTAT].rooms = &rooms.room[first];
        for (unsigned m = 0; m < CREW_COUNT; m++)
            cr[m].n_rooms = per_chunk;
        bench_progress(c, "append, %u threads: %llu/%llu events", n_threads,
                       (unsigned long long)out->n_events, (unsigned long long)n_events);
        for (unsigned turn = 0; turn < CREW_COUNT && is_ok; turn++) {
            unsigned m = (turn + k) % CREW_COUNT;
            elapsed[m] += crew_run(&cr[m]);
            is_ok = chunk_ok(&cr[m], w[m]);
        }
        for (size_t r = first; r < rooms.n; r++)
            out->n_events += rooms.room[r].n_actions;
    }
    if (is_ok) {
        double n = (double)out->n_events;
        out->mentat = elapsed[CREW_MENTAT] > 0 ? n / elapsed[CREW_MENTAT] : 0;
        out->sqlite = elapsed[CREW_SQLITE] > 0 ? n / elapsed[CREW_SQLITE] : 0;
        out->sqlite_batched =
            elapsed[CREW_SQLITE_BATCHED] > 0 ? n / elapsed[CREW_SQLITE_BATCHED] : 0;
        ret = 0;
    }
out:
    for (unsigned m = 0; m < CREW_COUNT; m++)
        if (crew_stop(&cr[m], w[m], c) != 0)
            ret = -1;
    batcher_stop(&b);
    ledger_group_free(cr[CREW_MENTAT].group);
    for (unsigned m = 0; m < CREW_COUNT; m++) {
        free(w[m]);
        free(cr[m].heads);
    }
    bench_peer_close(setup);
    bench_peer_close(setup_batched);
    bench_files_remove(peer_path);
    bench_files_remove(batched_path);
    bench_rooms_free(&rooms);
    bench_ledger_drop(db, path);
    return ret;
}
