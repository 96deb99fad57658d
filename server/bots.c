/*
 * bots.c - the server's bot threads: each takes a room off the bot queue,
 * asks the caller's bots (server_bot_ops) for every bot seat the game
 * awaits, and appends their actions through group commit like any client.
 *
 * Layer: server. No bot is decided here (the bots are the tools'); a bot
 * gets the full state under its room's mutex and the tools' code builds
 * that seat's view itself. A bot that asks to wait is forced only when
 * every seat awaited is a bot that waits. An action a bot chose and the
 * engine refused is a bot bug: it is dropped and the room is not queued
 * again until something else moves it.
 */
#include <stdlib.h>
#include <string.h>

#include "server/internal.h"

/* The bot seed of seat in room code: from the room's code, so a bot
 * plays the same way after a restart. */
static uint64_t bot_seed(const char *code, uint8_t seat)
{
    uint64_t h = UINT64_C(1469598103934665603);
    for (const char *p = code; *p != '\0'; p++)
        h = (h ^ (uint8_t)*p) * UINT64_C(1099511628211);
    return (h ^ seat) * UINT64_C(1099511628211);
}

/* One decision in room r, if a bot seat is awaited: 1 if an action was
 * appended, 0 if none. */
static int room_step(server *s, server__room *r, void *thread, engine_state *full)
{
    const server_bot_ops *ops = s->opt.bots;
    pthread_mutex_lock(&r->mutex);
    r->is_queued = 0;
    memcpy(full, r->cur, sizeof *full);
    uint32_t version = r->version;
    uint8_t level[ENGINE_MAX_SEATS];
    memcpy(level, r->bot_level, sizeof level);
    pthread_mutex_unlock(&r->mutex);
    if (version == UINT32_MAX)
        return 0;

    uint16_t awaiting = engine_state_awaiting(full);
    int all_bots = 1, any = 0;
    for (uint8_t seat = 0; seat < full->config.n_seats; seat++)
        if (awaiting & (1u << seat)) {
            any = 1;
            all_bots &= level[seat] != 0;
        }
    for (int forced = 0; any && forced <= all_bots; forced++)
        for (uint8_t seat = 0; seat < full->config.n_seats; seat++) {
            if (!(awaiting & (1u << seat)) || level[seat] == 0)
                continue;
            engine_action act;
            int rc = ops->decide(&act, thread, full, seat, level[seat] - 1u,
                                 bot_seed(r->code, seat), version, forced);
            if (rc != 0)
                continue;
            ledger_append_result res;
            rc = server__room_append(&res, s, r, version, &act, NULL, NULL);
            return rc == 0 && res.verdict == ENGINE_ACCEPTED;
        }
    return 0;
}

static void *bot_main(void *arg)
{
    server *s = arg;
    const server_bot_ops *ops = s->opt.bots;
    void *thread = ops->thread_begin != NULL ? ops->thread_begin(ops->ctx) : NULL;
    engine_state *full = malloc(sizeof *full);
    pthread_mutex_lock(&s->rooms_mutex);
    while (!s->is_stopping && full != NULL) {
        if (s->n_bot_queue == 0) {
            pthread_cond_wait(&s->bot_wake, &s->rooms_mutex);
            continue;
        }
        server__room *r = s->bot_queue[0];
        for (size_t i = 1; i < s->n_bot_queue; i++)
            s->bot_queue[i - 1] = s->bot_queue[i];
        s->n_bot_queue--;
        pthread_mutex_unlock(&s->rooms_mutex);
        (void)room_step(s, r, thread, full);
        pthread_mutex_lock(&s->rooms_mutex);
    }
    pthread_mutex_unlock(&s->rooms_mutex);
    free(full);
    if (ops->thread_end != NULL)
        ops->thread_end(thread);
    return NULL;
}

int server__bots_start(server *s, char err[SERVER_ERRMSG])
{
    if (s->opt.bots == NULL)
        return 0;
    unsigned n = s->opt.n_bot_threads == 0 ? 2 : s->opt.n_bot_threads;
    if (n > sizeof s->bot_thread / sizeof s->bot_thread[0])
        n = sizeof s->bot_thread / sizeof s->bot_thread[0];
    for (unsigned i = 0; i < n; i++) {
        if (pthread_create(&s->bot_thread[i], NULL, bot_main, s) != 0) {
            snprintf(err, SERVER_ERRMSG, "cannot start a bot thread");
            return -1;
        }
        s->n_bot_threads++;
    }
    return 0;
}

void server__bots_stop(server *s)
{
    pthread_mutex_lock(&s->rooms_mutex);
    s->is_stopping = 1;
    pthread_cond_broadcast(&s->bot_wake);
    pthread_mutex_unlock(&s->rooms_mutex);
    for (unsigned i = 0; i < s->n_bot_threads; i++)
        pthread_join(s->bot_thread[i], NULL);
    s->n_bot_threads = 0;
}
