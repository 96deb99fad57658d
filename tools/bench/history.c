/*
 * bench/history.c - the long histories the bench reads back, and their
 * size on disk: one room played as long as the engine goes, and rooms
 * written interleaved round-robin as a game server writes them.
 *
 * Layer: tools; bench only. These ledgers are opened with
 * is_unsafe_no_sync because nothing about their writes is timed: the
 * bytes LMDB lays out are the same with or without the sync. Every event
 * is an action the engine offered and then accepted through
 * ledger_append; when the engine cannot take one room to the length
 * asked, the history is as long as it goes and says so (n_events).
 */
#include <stdlib.h>
#include <string.h>

#include "tools/internal.h"

static int history_open(bench_history *h, bench_ctx *c, const char *tag)
{
    memset(h, 0, sizeof *h);
    bench_path_new(h->path, c, tag);
    return bench_ledger_open(&h->db, c, h->path, 1);
}

/* Checks the ledger's count and fills the sizes. */
static int history_sizes(bench_history *h, bench_ctx *c)
{
    ledger_stats st;
    int rc = ledger_stats_get(h->db, &st);
    if (rc != 0)
        return bench_ledger_fail(c, h->db, rc, "stats");
    if (st.n_events != h->n_events)
        return bench_fail(c, "the ledger counts %llu events, %llu were appended",
                          (unsigned long long)st.n_events, (unsigned long long)h->n_events);
    if (h->n_events == 0)
        return bench_fail(c, "the engine offers no action in a new room");
    h->bytes_per_event = (double)st.events_bytes / (double)h->n_events;
    h->file_bytes_per_event = (double)st.file_bytes / (double)h->n_events;
    return 0;
}

/* The ledger's digest at the head of r equals the bench's own fold of the
 * stream: the streams are folded with the randomness the ledger uses. */
static int same_fold(bench_ctx *c, ledger *db, const bench_room *r)
{
    engine_state st = r->opening;
    for (uint32_t i = 0; i < r->n_actions; i++) {
        engine_rng rng;
        engine_rng_init(&rng, r->seed, i + 1);
        if (engine_apply(NULL, &st, &r->action[i], &rng) != ENGINE_ACCEPTED)
            return bench_fail(c, "room %s: the stream no longer folds at %u", r->room, i + 1);
    }
    uint8_t mine[ENGINE_DIGEST_BYTES];
    engine_state_digest(mine, &st);
    codec_event ev;
    int rc = ledger_event_get(db, &ev, r->room, r->n_actions);
    if (rc != 0)
        return bench_ledger_fail(c, db, rc, "event get");
    if (memcmp(mine, ev.state_digest, sizeof mine) != 0)
        return bench_fail(c, "room %s: the ledger's digest at %u is not the bench's fold",
                          r->room, r->n_actions);
    return 0;
}

int bench_history_single(bench_history *out, bench_ctx *c, uint32_t max_events)
{
    if (history_open(out, c, "single.mentat") != 0)
        return -1;
    if (bench_rooms_add(&out->rooms, c, out->db, max_events) != 0)
        return -1;
    const bench_room *r = &out->rooms.room[0];
    for (uint32_t i = 0; i < r->n_actions; i++) {
        if (i % 100 == 0)
            bench_progress(c, "one room's history: %u/%u events", i, r->n_actions);
        if (bench_room_append(c, out->db, r, i) != 0)
            return -1;
        out->n_events++;
    }
    if (history_sizes(out, c) != 0)
        return -1;
    return same_fold(c, out->db, r);
}

int bench_history_interleaved(bench_history *out, bench_ctx *c, unsigned n_rooms,
                              uint32_t n_events)
{
    if (history_open(out, c, "interleaved.mentat") != 0)
        return -1;
    size_t *live = calloc(n_rooms, sizeof *live);  /* index into out->rooms per slot */
    uint32_t *next = calloc(n_rooms, sizeof *next); /* next action of each slot's room */
    int ret = -1;
    if (live == NULL || next == NULL) {
        bench_fail(c, "out of memory");
        goto out;
    }
    for (unsigned s = 0; s < n_rooms; s++) {
        if (bench_rooms_add(&out->rooms, c, out->db, UINT32_MAX) != 0)
            goto out;
        live[s] = out->rooms.n - 1;
    }
    while (out->n_events < n_events) {
        bench_progress(c, "%u rooms interleaved: %llu/%u events", n_rooms,
                       (unsigned long long)out->n_events, n_events);
        for (unsigned s = 0; s < n_rooms && out->n_events < n_events; s++) {
            if (next[s] == out->rooms.room[live[s]].n_actions) {
                /* That game waits on nobody: a new one starts in its place. */
                if (bench_rooms_add(&out->rooms, c, out->db, UINT32_MAX) != 0)
                    goto out;
                live[s] = out->rooms.n - 1;
                next[s] = 0;
                if (out->rooms.room[live[s]].n_actions == 0) {
                    bench_fail(c, "the engine offers no action in a new room");
                    goto out;
                }
            }
            if (bench_room_append(c, out->db, &out->rooms.room[live[s]], next[s]) != 0)
                goto out;
            next[s]++;
            out->n_events++;
        }
    }
    ret = history_sizes(out, c);
out:
    free(live);
    free(next);
    return ret;
}

void bench_history_close(bench_history *h)
{
    if (h->db != NULL)
        bench_ledger_drop(h->db, h->path);
    h->db = NULL;
    bench_rooms_free(&h->rooms);
}
