/*
 * stream.c - the push stream: server-sent events, one per new version of
 * a room, each carrying what changed in the subscriber's own view since
 * the last event it was sent, and the log sentences of the versions it
 * had not seen.
 *
 * Layer: server. The first event of a connection (and every event of one
 * opened with ?full=1) carries the whole view,
 *     id: V
 *     event: update
 *     data: {"version":V,"view":{...},"log":[...]}
 * where view is what GET .../view answers; every later one only the
 * view's top-level members that changed since the event of version B,
 *     data: {"version":V,"base":B,"set":{...},"unset":[...],"log":[...]}
 * (view_diff.c), which most events shrink to a few hundred bytes. log is
 * what GET .../log answers for the versions after the last one the
 * subscriber saw (its Last-Event-ID on a reconnect). When the subscriber
 * is one version behind, its log line comes from the room's cached
 * states, viewed for it (4), with no ledger read; further behind, from
 * inspect_log_walk.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "server/internal.h"

struct server_stream {
    server *s;
    server__room *r;
    uint8_t viewer;                /* a seat, the public or the referee */
    uint32_t last_seen;            /* version of the last event sent; SERVER_STREAM_FRESH */
    struct timespec opened;        /* CLOCK_MONOTONIC at open */
    engine_state *cur, *prev;      /* owned: the room's states copied, so that the
                                      JSON is made without its mutex */
    int is_full_only;              /* 1 = ?full=1: every event carries the whole view */
    char *sent;                    /* the view JSON of the last event (owned), or NULL */
    uint32_t sent_version;         /* its version */
    server__member sent_members[SERVER__MEMBERS_MAX]; /* its members */
    int n_sent_members;            /* their number; -1: not a view (send whole) */
    struct timespec sent_at;       /* CLOCK_MONOTONIC when it was made */
};

int server_stream_open(server_stream **stream_out, server_response *out, server *s,
                       const server_request *req, uint32_t last_seen)
{
    *stream_out = NULL;
    memset(out, 0, sizeof *out);
    char code[SCHEMA_ROOM_CHARS + 2] = "";
    const char *p = req->path != NULL ? req->path : "";
    const char *prefix = "/api/rooms/";
    size_t n = strlen(prefix);
    if (strncmp(p, prefix, n) != 0 || strlen(p) != n + SCHEMA_ROOM_CHARS + strlen("/events") ||
        strcmp(p + n + SCHEMA_ROOM_CHARS, "/events") != 0) {
        server__fail(out, 404, "no such path");
        return -1;
    }
    memcpy(code, p + n, SCHEMA_ROOM_CHARS);
    server__room *r;
    if (server__room_of_request(&r, out, s, code) != 0)
        return -1;
    (void)server__room_sync(s, r); /* another process may have appended */
    uint8_t viewer;
    if (server__request_viewer(&viewer, out, s, r, req) != 0)
        return -1;
    server_stream *st = calloc(1, sizeof *st);
    if (st != NULL) {
        st->cur = malloc(sizeof *st->cur);
        st->prev = malloc(sizeof *st->prev);
    }
    if (st == NULL || st->cur == NULL || st->prev == NULL) {
        server_stream_close(st);
        server__fail(out, 500, "out of memory");
        return -1;
    }
    char full[4];
    if (server__query_get(full, sizeof full, req->query, "full") == 1 && strcmp(full, "1") == 0)
        st->is_full_only = 1;
    st->s = s;
    st->r = r;
    st->viewer = viewer;
    pthread_mutex_lock(&r->mutex);
    if (last_seen != SERVER_STREAM_FRESH && last_seen > r->version)
        last_seen = SERVER_STREAM_FRESH; /* a version this room never had: start afresh */
    pthread_mutex_unlock(&r->mutex);
    st->last_seen = last_seen;
    clock_gettime(CLOCK_MONOTONIC, &st->opened);
    *stream_out = st;
    return 0;
}

void server_stream_close(server_stream *st)
{
    if (st == NULL)
        return;
    free(st->cur);
    free(st->prev);
    free(st->sent);
    free(st);
}

static int is_expired(const server_stream *st)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec - st->opened.tv_sec >= SERVER_STREAM_SECONDS;
}

static int is_stopping(server *s)
{
    pthread_mutex_lock(&s->rooms_mutex);
    int v = s->is_stopping;
    pthread_mutex_unlock(&s->rooms_mutex);
    return v;
}

/* Sleeps out what is left of SERVER_PUSH_GAP_MS since the last event:
 * the versions made meanwhile go out together in the next one. */
static void keep_gap(const server_stream *st)
{
    if (st->sent == NULL)
        return;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    long long ns = (long long)(now.tv_sec - st->sent_at.tv_sec) * 1000000000LL +
                   (now.tv_nsec - st->sent_at.tv_nsec);
    long long gap = (long long)SERVER_PUSH_GAP_MS * 1000000LL;
    if (ns >= 0 && ns < gap) {
        struct timespec rest = {0, (long)(gap - ns)};
        nanosleep(&rest, NULL);
    }
}

int server_stream_next(char **out, size_t *len_out, server_stream *st, unsigned wait_ms)
{
    *out = NULL;
    *len_out = 0;
    server__room *r = st->r;
    if (is_stopping(st->s) || is_expired(st))
        return 1;
    keep_gap(st);
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += wait_ms / 1000u;
    until.tv_nsec += (long)(wait_ms % 1000u) * 1000000L;
    if (until.tv_nsec >= 1000000000L) {
        until.tv_sec++;
        until.tv_nsec -= 1000000000L;
    }
    pthread_mutex_lock(&r->mutex);
    while (st->last_seen != SERVER_STREAM_FRESH && r->version == st->last_seen &&
           !is_stopping(st->s))
        if (pthread_cond_timedwait(&r->changed, &r->mutex, &until) != 0)
            break;
    if (r->version == st->last_seen || r->version == UINT32_MAX) {
        pthread_mutex_unlock(&r->mutex);
        return is_stopping(st->s);
    }
    /* The states are copied and the mutex let go: the JSON is the
     * costly part, and the room's next append must not wait on it. */
    uint32_t version = r->version, from = st->last_seen + 1u;
    int is_fresh = st->last_seen == SERVER_STREAM_FRESH;
    int has_prev = r->has_prev && !is_fresh && from == version;
    engine_action last = r->last;
    memcpy(st->cur, r->cur, sizeof *st->cur);
    if (has_prev)
        memcpy(st->prev, r->prev, sizeof *st->prev);
    pthread_mutex_unlock(&r->mutex);
    /* The view, then the event: the view alone, or what changed in it. */
    char *view = NULL;
    size_t view_len = 0;
    FILE *f = open_memstream(&view, &view_len);
    if (f == NULL)
        return 1;
    inspect_json vj;
    inspect_json_init(&vj, f);
    server__doc_json(&vj, r->code, version, version, st->cur, st->viewer);
    if (fclose(f) != 0) {
        free(view);
        return 1;
    }
    f = open_memstream(out, len_out);
    if (f == NULL) {
        free(view);
        return 1;
    }
    server__member members[SERVER__MEMBERS_MAX];
    int n_members = server__members(members, SERVER__MEMBERS_MAX, view, view_len);
    fprintf(f, "id: %u\nevent: update\ndata: {\"version\":%u,", version, version);
    if (st->sent != NULL && !st->is_full_only && st->n_sent_members >= 0 && n_members >= 0) {
        server__diff_write(f, st->sent_version, st->sent, st->sent_members, st->n_sent_members,
                           view, members, n_members);
    } else {
        fputs("\"view\":", f);
        fwrite(view, 1, view_len, f);
    }
    fputs(",\"log\":", f);
    inspect_json j;
    inspect_json_init(&j, f);
    inspect_json_array_begin(&j);
    if (has_prev) {
        /* one step behind: the line from the copied states, no ledger read */
        server__step_log_json(&j, version, st->cur, st->prev, &last, st->viewer);
    } else if (!is_fresh && from >= 1 && from <= version) {
        /* further behind: the lines from the ledger */
        server__log_json(&j, st->s, r, st->viewer, from, version);
    }
    inspect_json_array_end(&j);
    fputs("}\n\n", f);
    free(st->sent);
    st->sent = view;
    st->sent_version = version;
    clock_gettime(CLOCK_MONOTONIC, &st->sent_at);
    st->n_sent_members = n_members;
    if (n_members > 0)
        memcpy(st->sent_members, members, (size_t)n_members * sizeof members[0]);
    st->last_seen = version;
    if (fclose(f) != 0) {
        free(*out);
        *out = NULL;
        *len_out = 0;
        return 1;
    }
    return 0;
}
