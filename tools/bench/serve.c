/*
 * bench/serve.c - the game host under load (serve_vs_direct): the same
 * games played through `mentat serve`'s HTTP API on loopback and through
 * ledger_group_append directly, in the same run.
 *
 * Layer: tools; bench only. The HTTP side: a server in this process on
 * its own durable ledger, n rooms of six seats, every seat joined and
 * subscribed to its push stream (a reader thread each, reading every
 * event), and one client thread per room posting that room's actions one
 * after another on one kept-alive connection, each only once the previous
 * is acknowledged, as a seat's client would; the clock runs from the first post to the last
 * acknowledgement, and each post's time to its acknowledgement is a
 * latency sample. The direct side: the same rooms (same seeds, same
 * actions) in a fresh durable ledger, one thread per room appending
 * through one ledger_group. Rooms are made and their streams drawn before
 * either clock starts.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "server/server.h"
#include "tools/internal.h"

#define SEATS 6
#define THREAD_STACK ((size_t)256 * 1024)
#define HTTP_TIMEOUT_MS 60000
#define STREAM_TIMEOUT_MS 60000

typedef struct serve_run {
    bench_ctx *c;
    const bench_rooms *rooms;
    unsigned port;
    char (*token)[SEATS][SERVER_TOKEN_CHARS + 1]; /* per room and seat */
    pthread_mutex_t mutex;
    pthread_cond_t cond;
    unsigned n_ready;              /* streams open, clients waiting */
    int is_go;                     /* 1 = clients start */
    int is_failed;
    char err[BENCH_ERRMSG];
    double *latency;               /* one per action, ms */
    uint64_t n_pushed;             /* events read by the streams */
} serve_run;

typedef struct serve_job {
    serve_run *run;
    size_t room;
    unsigned seat;
    ledger_group *group;           /* direct side */
    size_t first_sample;           /* index of the room's first latency sample */
} serve_job;

static void run_fail(serve_run *run, const char *what, const char *room)
{
    pthread_mutex_lock(&run->mutex);
    if (!run->is_failed)
        snprintf(run->err, sizeof run->err, "serve bench, room %s: %s", room, what);
    run->is_failed = 1;
    pthread_cond_broadcast(&run->cond);
    pthread_mutex_unlock(&run->mutex);
}

static void ready_and_wait(serve_run *run)
{
    pthread_mutex_lock(&run->mutex);
    run->n_ready++;
    pthread_cond_broadcast(&run->cond);
    while (!run->is_go && !run->is_failed)
        pthread_cond_wait(&run->cond, &run->mutex);
    pthread_mutex_unlock(&run->mutex);
}

/* One seat's push stream, read until it has seen the room's last version. */
static void *stream_main(void *arg)
{
    serve_job *job = arg;
    serve_run *run = job->run;
    const bench_room *r = &run->rooms->room[job->room];
    char path[64];
    snprintf(path, sizeof path, "/api/rooms/%s/events", r->room);
    tool_http_stream st;
    int rc = tool_http_stream_open(&st, run->port, path, run->token[job->room][job->seat], NULL,
                                   STREAM_TIMEOUT_MS);
    if (rc != 0 || st.status != 200) {
        run_fail(run, "a push stream did not open", r->room);
        if (rc == 0)
            tool_http_stream_close(&st);
        return NULL;
    }
    pthread_mutex_lock(&run->mutex);
    run->n_ready++;
    pthread_cond_broadcast(&run->cond);
    pthread_mutex_unlock(&run->mutex);
    uint32_t id = 0;
    uint64_t n = 0;
    while (id < r->n_actions) {
        char *data;
        if (tool_http_stream_next(&data, &id, &st, STREAM_TIMEOUT_MS) != 0) {
            run_fail(run, "a push stream ended early", r->room);
            break;
        }
        free(data);
        n++;
    }
    tool_http_stream_close(&st);
    pthread_mutex_lock(&run->mutex);
    run->n_pushed += n;
    pthread_mutex_unlock(&run->mutex);
    return NULL;
}

/* One room's client: its actions posted in order with the acting seat's token. */
static void *client_main(void *arg)
{
    serve_job *job = arg;
    serve_run *run = job->run;
    const bench_room *r = &run->rooms->room[job->room];
    char path[64];
    snprintf(path, sizeof path, "/api/rooms/%s/actions", r->room);
    tool_http_conn conn = {-1, run->port};
    ready_and_wait(run);
    for (uint32_t i = 0; i < r->n_actions && !run->is_failed; i++) {
        const engine_action *act = &r->action[i];
        char json[1024], body[1200];
        if (act->seat >= SEATS || codec_action_to_json(json, sizeof json, act) != 0) {
            run_fail(run, "an action has no JSON", r->room);
            break;
        }
        snprintf(body, sizeof body, "{\"version\":%u,\"action\":%s}", i, json);
        double t0 = bench_now();
        tool_http_reply rep;
        int rc = tool_http_conn_request(&rep, &conn, "POST", path,
                                        run->token[job->room][act->seat], body, HTTP_TIMEOUT_MS);
        run->latency[job->first_sample + i] = (bench_now() - t0) * 1000.0;
        if (rc != 0 || rep.status != 200) {
            char what[160];
            snprintf(what, sizeof what, "version %u answered %u: %.80s", i + 1,
                     rc == 0 ? rep.status : 0, rc == 0 ? rep.body : "no reply");
            run_fail(run, what, r->room);
        }
        if (rc == 0)
            tool_http_reply_free(&rep);
    }
    tool_http_conn_close(&conn);
    return NULL;
}

/* One room's direct appends through the group. */
static void *direct_main(void *arg)
{
    serve_job *job = arg;
    serve_run *run = job->run;
    const bench_room *r = &run->rooms->room[job->room];
    ready_and_wait(run);
    for (uint32_t i = 0; i < r->n_actions && !run->is_failed; i++) {
        ledger_append_result res;
        int rc = ledger_group_append(job->group, &res, run->token[job->room][0], i, &r->action[i]);
        if (rc != 0 || res.verdict != ENGINE_ACCEPTED)
            run_fail(run, "a direct append failed", r->room);
    }
    return NULL;
}

static int start(pthread_t *t, void *(*fn)(void *), void *arg)
{
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, THREAD_STACK);
    int rc = pthread_create(t, &attr, fn, arg);
    pthread_attr_destroy(&attr);
    return rc;
}

/* Starts n jobs of fn, waits until `ready` of them said so, releases them
 * all and times them to the end: seconds, or -1. */
static double run_jobs(serve_run *run, serve_job *jobs, size_t n, void *(*fn)(void *),
                       unsigned ready)
{
    pthread_t *t = n != 0 ? calloc(n, sizeof *t) : NULL;
    if (t == NULL)
        return -1;
    size_t started = 0;
    for (; started < n; started++)
        if (start(&t[started], fn, &jobs[started]) != 0)
            break;
    if (started < n)
        run_fail(run, "cannot start a thread", "-");
    pthread_mutex_lock(&run->mutex);
    while (run->n_ready < ready && !run->is_failed)
        pthread_cond_wait(&run->cond, &run->mutex);
    run->is_go = 1;
    pthread_cond_broadcast(&run->cond);
    pthread_mutex_unlock(&run->mutex);
    double t0 = bench_now();
    for (size_t i = 0; i < started; i++)
        pthread_join(t[i], NULL);
    double s = bench_now() - t0;
    free(t);
    return run->is_failed ? -1 : s;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The HTTP side: joins, streams, clients. Fills *rate_out, the latencies. */
static int http_side(double *rate_out, serve_run *run, ledger *db, uint64_t n_actions)
{
    bench_ctx *c = run->c;
    const bench_rooms *rooms = run->rooms;
    server_options opt;
    server_options_init(&opt);
    opt.db = db;
    opt.keys_dir = c->keys_dir;
    char err[SERVER_ERRMSG];
    server *s = NULL;
    if (server_new(&s, &opt, err) != 0 || server_listen(s, "127.0.0.1", 0, &run->port, err) != 0) {
        server_free(s);
        return bench_fail(c, "serve bench: %s", err);
    }
    int rc = 0;
    for (size_t i = 0; i < rooms->n && rc == 0; i++)
        for (unsigned seat = 0; seat < SEATS && rc == 0; seat++) {
            char path[64], body[32];
            snprintf(path, sizeof path, "/api/rooms/%s/join", rooms->room[i].room);
            snprintf(body, sizeof body, "{\"seat\":%u}", seat + 1u);
            tool_http_reply rep;
            codec_json_token tok[32];
            if (tool_http_request(&rep, run->port, "POST", path, NULL, body, HTTP_TIMEOUT_MS) != 0) {
                rc = bench_fail(c, "serve bench: joining a seat: no reply");
                break;
            }
            int n = codec_json_parse(tok, 32, rep.body, rep.body_len, NULL);
            int t = n > 0 ? codec_json_member(tok, 0, rep.body, "token") : -1;
            if (rep.status != 200 || t < 0 ||
                codec_json_string(run->token[i][seat], SERVER_TOKEN_CHARS + 1, &tok[t],
                                  rep.body) != 0)
                rc = bench_fail(c, "serve bench: joining a seat: %u %.80s", rep.status, rep.body);
            tool_http_reply_free(&rep);
        }
    size_t n_streams = rooms->n * SEATS;
    serve_job *jobs = rooms->n != 0 ? calloc(n_streams + rooms->n, sizeof *jobs) : NULL;
    pthread_t *readers = rooms->n != 0 ? calloc(n_streams, sizeof *readers) : NULL;
    size_t n_readers = 0;
    if (rc == 0 && (jobs == NULL || readers == NULL))
        rc = bench_fail(c, "out of memory");
    size_t sample = 0;
    for (size_t i = 0; rc == 0 && jobs != NULL && readers != NULL && i < rooms->n; i++) {
        for (unsigned seat = 0; seat < SEATS; seat++) {
            serve_job *j = &jobs[i * SEATS + seat];
            j->run = run;
            j->room = i;
            j->seat = seat;
            if (start(&readers[n_readers], stream_main, j) != 0) {
                rc = bench_fail(c, "serve bench: cannot start a stream thread");
                break;
            }
            n_readers++;
        }
        serve_job *cj = &jobs[n_streams + i];
        cj->run = run;
        cj->room = i;
        cj->first_sample = sample;
        sample += rooms->room[i].n_actions;
    }
    if (rc == 0 && jobs != NULL) {
        bench_progress(c, "serve_vs_direct: %zu rooms over HTTP, %zu push streams", rooms->n,
                       n_streams);
        double secs = run_jobs(run, &jobs[n_streams], rooms->n, client_main,
                            (unsigned)(n_streams + rooms->n));
        if (secs <= 0)
            rc = bench_fail(c, "%s", run->err);
        else
            *rate_out = (double)n_actions / secs;
    }
    if (rc != 0)
        run_fail(run, "stopped", "-");
    else
        bench_progress(c, "serve_vs_direct: the push streams catch up");
    /* Each reader ends once it has read its room's last version (or its
     * stream fails, or times out): then the server stops. */
    for (size_t i = 0; i < n_readers; i++)
        pthread_join(readers[i], NULL);
    if (rc == 0 && run->is_failed)
        rc = bench_fail(c, "%s", run->err);
    server_stop(s);
    server_free(s);
    free(readers);
    free(jobs);
    return rc;
}

/* The direct side: the same rooms in a fresh ledger, group appends. */
static int direct_side(double *rate_out, serve_run *run, uint64_t n_actions)
{
    bench_ctx *c = run->c;
    const bench_rooms *rooms = run->rooms;
    char path[BENCH_PATH_MAX];
    bench_path_new(path, c, "direct");
    ledger *db;
    if (bench_ledger_open(&db, c, path, 0) != 0)
        return -1;
    int rc = 0;
    engine_config cfg;
    bench_config_init(&cfg);
    /* The direct rooms' codes go where the tokens were: token[i][0]. */
    for (size_t i = 0; i < rooms->n && rc == 0; i++) {
        char code[SCHEMA_ROOM_CHARS + 1];
        rc = ledger_room_create_seeded(db, code, &cfg, rooms->room[i].seed);
        if (rc != 0)
            rc = bench_ledger_fail(c, db, rc, "room create");
        else
            snprintf(run->token[i][0], SERVER_TOKEN_CHARS + 1, "%s", code);
    }
    ledger_group *group = NULL;
    if (rc == 0 && ledger_group_new(&group, db) != 0)
        rc = bench_fail(c, "serve bench: no group commit");
    serve_job *jobs = rc == 0 && rooms->n != 0 ? calloc(rooms->n, sizeof *jobs) : NULL;
    if (rc == 0 && jobs == NULL)
        rc = bench_fail(c, "out of memory");
    for (size_t i = 0; rc == 0 && jobs != NULL && i < rooms->n; i++) {
        jobs[i].run = run;
        jobs[i].room = i;
        jobs[i].group = group;
    }
    if (rc == 0 && jobs != NULL) {
        run->n_ready = 0;
        run->is_go = 0;
        bench_progress(c, "serve_vs_direct: %zu rooms through ledger_group_append", rooms->n);
        double s = run_jobs(run, jobs, rooms->n, direct_main, (unsigned)rooms->n);
        if (s <= 0)
            rc = bench_fail(c, "%s", run->err);
        else
            *rate_out = (double)n_actions / s;
    }
    free(jobs);
    if (group != NULL)
        ledger_group_free(group);
    bench_ledger_drop(db, path);
    return rc;
}

int bench_serve(bench_serve_result *out, bench_ctx *c, unsigned n_rooms, uint32_t room_actions)
{
    memset(out, 0, sizeof *out);
    if (n_rooms == 0 || room_actions == 0)
        return bench_fail(c, "serve bench: no rooms to play");
    char path[BENCH_PATH_MAX];
    bench_path_new(path, c, "serve");
    ledger *db;
    if (bench_ledger_open(&db, c, path, 0) != 0)
        return -1;
    bench_rooms rooms = {0};
    serve_run run;
    memset(&run, 0, sizeof run);
    run.c = c;
    run.rooms = &rooms;
    pthread_mutex_init(&run.mutex, NULL);
    pthread_cond_init(&run.cond, NULL);
    int rc = 0;
    uint64_t n_actions = 0;
    bench_progress(c, "serve_vs_direct: drawing %u games", n_rooms);
    for (unsigned i = 0; i < n_rooms && rc == 0; i++) {
        rc = bench_rooms_add_unbound(&rooms, c, db, room_actions); /* the server signs no seat yet */
        if (rc == 0)
            n_actions += rooms.room[rooms.n - 1].n_actions;
    }
    run.token = calloc(n_rooms, sizeof *run.token);
    run.latency = calloc(n_actions + 1, sizeof *run.latency);
    if (rc == 0 && (run.token == NULL || run.latency == NULL))
        rc = bench_fail(c, "out of memory");
    if (rc == 0)
        rc = http_side(&out->http_rate, &run, db, n_actions);
    ledger_close(db);
    bench_files_remove(path);
    if (rc == 0)
        rc = direct_side(&out->direct_rate, &run, n_actions);
    if (rc == 0) {
        qsort(run.latency, n_actions, sizeof *run.latency, cmp_double);
        out->p50_ms = run.latency[n_actions / 2];
        out->p99_ms = run.latency[(n_actions * 99) / 100];
        out->n_actions = n_actions;
        out->n_pushed = run.n_pushed;
        out->n_streams = (uint32_t)(rooms.n * SEATS);
    }
    free(run.token);
    free(run.latency);
    bench_rooms_free(&rooms);
    pthread_mutex_destroy(&run.mutex);
    pthread_cond_destroy(&run.cond);
    return rc;
}
