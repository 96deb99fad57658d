/*
 * group.c - group commit: many threads append through one handle, and the
 * requests that wait together share one write transaction and one sync.
 *
 * Part of ledger/. Leader/follower: a caller queues its request; if no
 * commit is running it becomes the leader, takes every queued request,
 * runs them as one ledger_append_batch with the mutex released, then
 * hands each follower its result and wakes them. Only the leader touches
 * the handle (and its cache), so the handle needs no lock of its own; no
 * caller returns before the batch holding its request has committed.
 *
 * The leader signs the receipts in the batch's transaction (each is the
 * signed tree head its room's head record stores, ledger/append.c (A4)).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ledger/internal.h"

typedef struct group_req {
    ledger_append_req req;         /* what to append */
    const uint8_t *seat_sig;       /* its seat's signature, or NULL; the caller's, who waits */
    const uint8_t *bind_key;       /* the key it binds its seat to, or NULL; the caller's */
    ledger_append_result *out;     /* the caller's result */
    int rc;                        /* its return code, once done */
    int is_done;                   /* 1 = the batch holding it has ended */
    char errmsg[256];              /* the handle's message if it failed */
    struct group_req *next;        /* queue link */
} group_req;

struct ledger_group {
    ledger *db;                    /* the handle; only the leader uses it */
    pthread_mutex_t mutex;         /* guards everything below */
    pthread_cond_t cond;           /* signalled when a batch ends */
    group_req *head;               /* waiting requests, in arrival order */
    group_req *tail;               /* the last of them */
    int is_running;                /* 1 = a leader is committing a batch */
    ledger_append_req *reqs;       /* the leader's batch, cap entries, reused */
    const uint8_t **sigs;          /* their seat signatures */
    const uint8_t **binds;         /* the keys they bind their seats to (NULL: none) */
    ledger_append_result *results; /* its results */
    int *rcs;                      /* its return codes */
    size_t cap;                    /* entries allocated in the three arrays */
};

int ledger_group_new(ledger_group **out, ledger *db)
{
    *out = NULL;
    ledger_group *g = calloc(1, sizeof *g);
    if (g == NULL)
        return ledger__fail(db, LEDGER_ERROR, "out of memory");
    g->db = db;
    if (pthread_mutex_init(&g->mutex, NULL) != 0) {
        free(g);
        return ledger__fail(db, LEDGER_ERROR, "pthread_mutex_init failed");
    }
    if (pthread_cond_init(&g->cond, NULL) != 0) {
        pthread_mutex_destroy(&g->mutex);
        free(g);
        return ledger__fail(db, LEDGER_ERROR, "pthread_cond_init failed");
    }
    *out = g;
    return 0;
}

void ledger_group_free(ledger_group *g)
{
    if (g == NULL)
        return;
    assert(g->head == NULL && !g->is_running);
    pthread_cond_destroy(&g->cond);
    pthread_mutex_destroy(&g->mutex);
    free(g->reqs);
    free(g->sigs);
    free(g->binds);
    free(g->results);
    free(g->rcs);
    free(g);
}

static int reserve(ledger_group *g, size_t n)
{
    if (n <= g->cap)
        return 0;
    size_t cap = g->cap ? g->cap : 16;
    while (cap < n)
        cap *= 2;
    ledger_append_req *r = realloc(g->reqs, cap * sizeof *r);
    if (r != NULL)
        g->reqs = r;
    ledger_append_result *o = realloc(g->results, cap * sizeof *o);
    if (o != NULL)
        g->results = o;
    int *c = realloc(g->rcs, cap * sizeof *c);
    if (c != NULL)
        g->rcs = c;
    const uint8_t **s = realloc(g->sigs, cap * sizeof *s);
    if (s != NULL)
        g->sigs = s;
    const uint8_t **bk = realloc(g->binds, cap * sizeof *bk);
    if (bk != NULL)
        g->binds = bk;
    if (r == NULL || o == NULL || c == NULL || s == NULL || bk == NULL)
        return -1;
    g->cap = cap;
    return 0;
}

/* Runs one batch of the taken requests, with the mutex released. */
static void lead(ledger_group *g, group_req *batch)
{
    size_t n = 0;
    for (group_req *r = batch; r != NULL; r = r->next)
        n++;
    int rc = reserve(g, n);
    if (rc != 0) {
        for (group_req *r = batch; r != NULL; r = r->next) {
            r->rc = LEDGER_ERROR;
            snprintf(r->errmsg, sizeof r->errmsg, "out of memory");
        }
        return;
    }
    size_t i = 0;
    for (group_req *r = batch; r != NULL; r = r->next, i++) {
        g->reqs[i] = r->req;
        g->sigs[i] = r->seat_sig;
        g->binds[i] = r->bind_key;
    }
    rc = ledger__append_batch_signed(g->db, g->results, g->rcs, g->reqs, g->sigs, g->binds, n);
    i = 0;
    for (group_req *r = batch; r != NULL; r = r->next, i++) {
        *r->out = g->results[i];
        r->rc = rc != 0 ? rc : g->rcs[i];
        if (r->rc != 0)
            snprintf(r->errmsg, sizeof r->errmsg, "%s", ledger_errmsg(g->db));
    }
}

int ledger_group_append(ledger_group *g, ledger_append_result *out, const char *room,
                        uint32_t expected_version, const engine_action *act)
{
    return ledger_group_append_signed(g, out, room, expected_version, act, NULL);
}

int ledger_group_append_signed(ledger_group *g, ledger_append_result *out, const char *room,
                               uint32_t expected_version, const engine_action *act,
                               const uint8_t *seat_sig)
{
    return ledger_group_append_bind(g, out, room, expected_version, act, seat_sig, NULL);
}

int ledger_group_append_bind(ledger_group *g, ledger_append_result *out, const char *room,
                             uint32_t expected_version, const engine_action *act,
                             const uint8_t seat_sig[SCHEMA_SIG_BYTES],
                             const uint8_t bind_key[SCHEMA_KEY_BYTES])
{
    group_req me;
    memset(&me, 0, sizeof me);
    me.req.room = room;
    me.req.expected_version = expected_version;
    me.req.action = *act;
    me.bind_key = bind_key;
    me.seat_sig = seat_sig; /* the caller waits here: it outlives the batch */
    me.out = out;

    pthread_mutex_lock(&g->mutex);
    if (g->tail != NULL)
        g->tail->next = &me;
    else
        g->head = &me;
    g->tail = &me;
    while (!me.is_done) {
        if (g->is_running) {
            pthread_cond_wait(&g->cond, &g->mutex);
            continue;
        }
        /* Lead: take every waiting request (this one among them). */
        group_req *batch = g->head;
        g->head = g->tail = NULL;
        g->is_running = 1;
        pthread_mutex_unlock(&g->mutex);
        lead(g, batch);
        pthread_mutex_lock(&g->mutex);
        for (group_req *r = batch, *next; r != NULL; r = next) {
            next = r->next; /* r may return and vanish once marked done */
            r->next = NULL;
            r->is_done = 1;
        }
        g->is_running = 0;
        pthread_cond_broadcast(&g->cond);
    }
    pthread_mutex_unlock(&g->mutex);
    if (me.rc != 0) {
        /* The message lives on the handle, which the next leader may be
         * writing: hand it over under the mutex. */
        pthread_mutex_lock(&g->mutex);
        if (!g->is_running)
            ledger__fail(g->db, me.rc, "%s", me.errmsg);
        pthread_mutex_unlock(&g->mutex);
    }
    return me.rc;
}
