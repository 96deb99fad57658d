/*
 * rooms.c - the rooms the server has loaded: their head states cached,
 * their bot seats and joined seats, appends through group commit, and
 * the room table file that keeps bots and joined seats across restarts.
 *
 * Layer: server. The ledger is the truth: a room's cache is only ever
 * refreshed from ledger_state_at after a durable append (3), and the
 * handle is only touched under the gate (1). The table file holds no
 * game fact, only who plays a seat: one line per room created ("room
 * CODE L1,..,L6", a bot's level + 1 per seat, 0 for a person) and per
 * seat joined ("join CODE SEAT"), each synced before it is acknowledged;
 * a torn last line is ignored at load. Another process (`mentat act`)
 * may append to the same ledger: a watch thread reads the loaded rooms'
 * heads every SERVER__WATCH_MS and refreshes and pushes any that moved,
 * and the routes refresh a room before they read it.
 */
#include <sodium.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "server/internal.h"

/* ============================================================ cache */

/* Brings r's cache to the ledger's head (3). Needs r->mutex; takes the
 * gate's write side (2). 0 or a ledger code. */
static int room_refresh(server *s, server__room *r)
{
    int rc = 0;
    pthread_rwlock_wrlock(&s->gate);
    uint32_t head = 0;
    uint8_t hash[SCHEMA_HASH_BYTES];
    rc = ledger_head(s->opt.db, r->code, &head, hash);
    if (rc != 0 || head == r->version)
        goto out;
    if (head == r->version + 1u) {
        engine_state *t = r->prev;
        r->prev = r->cur;
        r->cur = t;
    } else if (head > 0) {
        rc = ledger_state_at(s->opt.db, r->prev, r->code, head - 1u);
        if (rc != 0)
            goto out;
    }
    rc = ledger_state_at(s->opt.db, r->cur, r->code, head);
    if (rc != 0)
        goto out;
    ledger_seat_keys keys; /* a seat may have been bound as it joined */
    rc = ledger_room_seat_keys(s->opt.db, &keys, r->code);
    if (rc != 0)
        goto out;
    r->bound = keys.bound;
    r->has_prev = head > 0;
    if (head > 0) {
        codec_event ev;
        rc = ledger_event_get(s->opt.db, &ev, r->code, head);
        if (rc != 0)
            goto out;
        r->last = ev.action;
    }
    r->version = head;
out:
    pthread_rwlock_unlock(&s->gate);
    if (rc != 0)
        r->version = UINT32_MAX; /* unknown: the next refresh reloads both states */
    return rc;
}

/* Folds act, appended as version, onto the cached head (3): 1 if done,
 * 0 if the cache is not at version - 1 (or has no seed): then refresh. */
static int room_fold(server__room *r, const engine_action *act, uint32_t version)
{
    if (!r->has_seed || r->version == UINT32_MAX || version != r->version + 1u)
        return version <= r->version && r->version != UINT32_MAX; /* a retry: nothing new */
    memcpy(r->prev, r->cur, sizeof *r->prev);
    engine_rng rng;
    engine_rng_init(&rng, r->seed, version);
    if (engine_apply(NULL, r->cur, act, &rng) != ENGINE_ACCEPTED) {
        memcpy(r->cur, r->prev, sizeof *r->cur);
        r->version = UINT32_MAX; /* cannot be: the ledger accepted it; reload */
        return 0;
    }
    r->has_prev = 1;
    r->last = *act;
    r->version = version;
    return 1;
}

static server__room *room_alloc(const char *code)
{
    server__room *r = calloc(1, sizeof *r);
    if (r == NULL)
        return NULL;
    r->cur = malloc(sizeof *r->cur);
    r->prev = malloc(sizeof *r->prev);
    if (r->cur == NULL || r->prev == NULL) {
        free(r->cur);
        free(r->prev);
        free(r);
        return NULL;
    }
    memcpy(r->code, code, SCHEMA_ROOM_CHARS);
    r->code[SCHEMA_ROOM_CHARS] = '\0';
    r->version = UINT32_MAX;
    pthread_mutex_init(&r->mutex, NULL);
    pthread_cond_init(&r->changed, NULL);
    return r;
}

static void room_free(server__room *r)
{
    sodium_memzero(r->seed, sizeof r->seed);
    pthread_mutex_destroy(&r->mutex);
    pthread_cond_destroy(&r->changed);
    free(r->cur);
    free(r->prev);
    free(r);
}

/* The loaded room called code, or NULL. Needs s->rooms_mutex. */
static server__room *room_find(server *s, const char *code)
{
    for (size_t i = 0; i < s->n_rooms; i++)
        if (strcmp(s->rooms[i]->code, code) == 0)
            return s->rooms[i];
    return NULL;
}

int server__room_get(server__room **out, server *s, const char *code)
{
    *out = NULL;
    if (!ledger_room_code_valid(code))
        return SERVER_EINPUT;
    pthread_mutex_lock(&s->rooms_mutex);
    server__room *r = room_find(s, code);
    if (r != NULL) {
        pthread_mutex_unlock(&s->rooms_mutex);
        *out = r;
        return 0;
    }
    if (s->n_rooms == SERVER__ROOMS_MAX) {
        pthread_mutex_unlock(&s->rooms_mutex);
        return SERVER_ERROR;
    }
    ledger_room_info info;
    pthread_rwlock_wrlock(&s->gate);
    int rc = ledger_room_info_get(s->opt.db, &info, code);
    pthread_rwlock_unlock(&s->gate);
    if (rc == 0 && (r = room_alloc(code)) == NULL)
        rc = SERVER_ERROR;
    if (rc == 0) {
        r->config = info.config;
        pthread_rwlock_wrlock(&s->gate);
        r->has_seed = ledger_room_seed(s->opt.db, r->seed, code) == 0;
        ledger_seat_keys keys;
        if (ledger_room_seat_keys(s->opt.db, &keys, code) == 0)
            r->bound = keys.bound;
        else
            rc = SERVER_ERROR;
        pthread_rwlock_unlock(&s->gate);
        if (rc == 0) {
            pthread_mutex_lock(&r->mutex);
            rc = room_refresh(s, r);
            pthread_mutex_unlock(&r->mutex);
        }
        if (rc != 0)
            room_free(r);
        else
            s->rooms[s->n_rooms++] = r;
    }
    pthread_mutex_unlock(&s->rooms_mutex);
    if (rc == 0)
        *out = r;
    return rc;
}

/* ============================================================ watch */

int server__room_sync(server *s, server__room *r)
{
    pthread_mutex_lock(&r->mutex);
    uint32_t was = r->version;
    int rc = room_refresh(s, r);
    if (r->version != was) {
        server__room_queue_bots(s, r);
        pthread_cond_broadcast(&r->changed);
    }
    pthread_mutex_unlock(&r->mutex);
    return rc;
}

/* Every SERVER__WATCH_MS: the heads of the loaded rooms, read under one
 * hold of the gate, and a sync of each room whose head is not the one
 * cached (another process appended to the ledger). */
static void *watch_main(void *arg)
{
    server *s = arg;
    pthread_mutex_lock(&s->rooms_mutex);
    while (!s->is_stopping) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += SERVER__WATCH_MS * 1000000L;
        until.tv_sec += until.tv_nsec / 1000000000L;
        until.tv_nsec %= 1000000000L;
        (void)pthread_cond_timedwait(&s->watch_wake, &s->rooms_mutex, &until);
        size_t n = s->n_rooms;
        pthread_mutex_unlock(&s->rooms_mutex);
        for (size_t i = 0; i < n; i++) {
            server__room *r = s->rooms[i]; /* rooms[i < n] never move */
            uint32_t head = 0, cached;
            uint8_t hash[SCHEMA_HASH_BYTES];
            pthread_rwlock_wrlock(&s->gate); /* (1) */
            int rc = ledger_head(s->opt.db, r->code, &head, hash);
            pthread_rwlock_unlock(&s->gate);
            pthread_mutex_lock(&r->mutex);
            cached = r->version;
            pthread_mutex_unlock(&r->mutex);
            if (rc == 0 && head != cached)
                (void)server__room_sync(s, r);
        }
        pthread_mutex_lock(&s->rooms_mutex);
    }
    pthread_mutex_unlock(&s->rooms_mutex);
    return NULL;
}

/* ============================================================ table */

/* Appends one line to the table and syncs it: 0, or -1. */
static int table_write(server *s, const char *line)
{
    if (s->table == NULL)
        return 0;
    if (fputs(line, s->table) == EOF || fflush(s->table) != 0 || fsync(fileno(s->table)) != 0)
        return -1;
    return 0;
}

int server__table_load(server *s, char err[SERVER_ERRMSG])
{
    if (s->opt.state_path == NULL)
        return 0;
    FILE *f = fopen(s->opt.state_path, "r");
    if (f != NULL) {
        char line[256];
        while (fgets(line, sizeof line, f) != NULL) {
            char code[SCHEMA_ROOM_CHARS + 2];
            unsigned lv[ENGINE_MAX_SEATS], seat;
            server__room *r = NULL;
            if (strchr(line, '\n') == NULL)
                break; /* a torn last line */
            if (sscanf(line, "room %9s %u,%u,%u,%u,%u,%u", code, &lv[0], &lv[1], &lv[2],
                       &lv[3], &lv[4], &lv[5]) == 7) {
                if (server__room_get(&r, s, code) != 0)
                    continue;
                pthread_mutex_lock(&r->mutex);
                for (unsigned i = 0; i < ENGINE_MAX_SEATS; i++)
                    r->bot_level[i] = (uint8_t)(lv[i] <= 16 && i < r->config.n_seats ? lv[i] : 0);
                server__room_queue_bots(s, r);
                pthread_mutex_unlock(&r->mutex);
            } else if (sscanf(line, "join %9s %u", code, &seat) == 2) {
                if (server__room_get(&r, s, code) != 0 || seat >= ENGINE_MAX_SEATS)
                    continue;
                pthread_mutex_lock(&r->mutex);
                r->is_joined[seat] = 1;
                pthread_mutex_unlock(&r->mutex);
            }
        }
        fclose(f);
    }
    s->table = fopen(s->opt.state_path, "a");
    if (s->table == NULL) {
        snprintf(err, SERVER_ERRMSG, "cannot open %.160s for appending", s->opt.state_path);
        return -1;
    }
    return 0;
}

int server__room_create(server__room **out, server *s, const engine_config *cfg,
                        const uint8_t bot_level[ENGINE_MAX_SEATS], const ledger_seat_keys *seats,
                        char err[SERVER_ERRMSG])
{
    char code[SCHEMA_ROOM_CHARS + 1];
    pthread_rwlock_wrlock(&s->gate);
    int rc = ledger_room_create_bound(s->opt.db, code, cfg, NULL, seats);
    if (rc != 0)
        snprintf(err, SERVER_ERRMSG, "%s", ledger_errmsg(s->opt.db));
    pthread_rwlock_unlock(&s->gate);
    if (rc != 0)
        return rc;
    char line[128];
    snprintf(line, sizeof line, "room %s %u,%u,%u,%u,%u,%u\n", code, bot_level[0], bot_level[1],
             bot_level[2], bot_level[3], bot_level[4], bot_level[5]);
    if (table_write(s, line) != 0) {
        snprintf(err, SERVER_ERRMSG, "cannot write the room table");
        return SERVER_ERROR;
    }
    server__room *r;
    rc = server__room_get(&r, s, code);
    if (rc != 0) {
        snprintf(err, SERVER_ERRMSG, "the new room cannot be read back");
        return rc;
    }
    pthread_mutex_lock(&r->mutex);
    memcpy(r->bot_level, bot_level, ENGINE_MAX_SEATS);
    server__room_queue_bots(s, r);
    pthread_mutex_unlock(&r->mutex);
    *out = r;
    return 0;
}

int server__room_join(server *s, server__room *r, uint8_t seat)
{
    pthread_mutex_lock(&r->mutex);
    int rc = -1;
    if (seat < r->config.n_seats && r->bot_level[seat] == 0 && !r->is_joined[seat]) {
        char line[64];
        snprintf(line, sizeof line, "join %s %u\n", r->code, seat);
        if (table_write(s, line) == 0) {
            r->is_joined[seat] = 1;
            rc = 0;
        }
    }
    pthread_mutex_unlock(&r->mutex);
    return rc;
}

/* ============================================================ append */

void server__room_queue_bots(server *s, server__room *r)
{
    uint16_t awaiting = engine_state_awaiting(r->cur);
    int wanted = 0;
    for (unsigned seat = 0; seat < r->config.n_seats; seat++)
        wanted |= (awaiting & (1u << seat)) && r->bot_level[seat] != 0;
    if (!wanted || r->is_queued || s->opt.bots == NULL)
        return;
    pthread_mutex_lock(&s->rooms_mutex);
    if (s->n_bot_queue < SERVER__ROOMS_MAX) {
        s->bot_queue[s->n_bot_queue++] = r;
        r->is_queued = 1;
        pthread_cond_signal(&s->bot_wake);
    }
    pthread_mutex_unlock(&s->rooms_mutex);
}

int server__room_append(ledger_append_result *res, server *s, server__room *r,
                        uint32_t expected, const engine_action *act, const uint8_t *seat_sig,
                        const uint8_t *bind_key)
{
    pthread_mutex_lock(&s->rooms_mutex);
    if (s->is_stopping) {
        pthread_mutex_unlock(&s->rooms_mutex);
        return -2;
    }
    s->n_in_flight++;
    pthread_mutex_unlock(&s->rooms_mutex);

    memset(res, 0, sizeof *res);
    pthread_rwlock_rdlock(&s->gate); /* (1) */
    int rc = ledger_group_append_bind(s->group, res, r->code, expected, act, seat_sig, bind_key);
    pthread_rwlock_unlock(&s->gate);
    if (rc == 0 && res->verdict == ENGINE_ACCEPTED) {
        pthread_mutex_lock(&r->mutex);
        if (bind_key != NULL) /* bound as its player joined: signed from now on */
            r->bound = (uint16_t)(r->bound | 1u << act->seat);
        if (!room_fold(r, act, res->receipt.version))
            (void)room_refresh(s, r); /* a failed refresh reloads on the next one (3) */
        server__room_queue_bots(s, r);
        pthread_cond_broadcast(&r->changed);
        pthread_mutex_unlock(&r->mutex);
    }

    pthread_mutex_lock(&s->rooms_mutex);
    if (--s->n_in_flight == 0)
        pthread_cond_broadcast(&s->idle);
    pthread_mutex_unlock(&s->rooms_mutex);
    return rc;
}

/* ============================================================ lifetime */

void server_options_init(server_options *opt)
{
    memset(opt, 0, sizeof *opt);
}

int server_new(server **out, const server_options *opt, char err[SERVER_ERRMSG])
{
    *out = NULL;
    if (opt->db == NULL || opt->keys_dir == NULL) {
        snprintf(err, SERVER_ERRMSG, "a ledger and a keys directory are needed");
        return SERVER_EINPUT;
    }
    server *s = calloc(1, sizeof *s);
    if (s == NULL) {
        snprintf(err, SERVER_ERRMSG, "out of memory");
        return SERVER_ERROR;
    }
    s->opt = *opt;
    pthread_rwlock_init(&s->gate, NULL);
    pthread_mutex_init(&s->rooms_mutex, NULL);
    pthread_cond_init(&s->bot_wake, NULL);
    pthread_cond_init(&s->idle, NULL);
    pthread_cond_init(&s->watch_wake, NULL);
    int rc = server__secret_load(s->secret, opt->keys_dir, err) != 0 ? SERVER_EINPUT : 0;
    if (rc == 0 && ledger_group_new(&s->group, opt->db) != 0) {
        snprintf(err, SERVER_ERRMSG, "cannot start group commit");
        rc = SERVER_ERROR;
    }
    if (rc == 0 && server__table_load(s, err) != 0)
        rc = SERVER_EINPUT;
    if (rc == 0 && server__bots_start(s, err) != 0)
        rc = SERVER_ERROR;
    if (rc == 0 && pthread_create(&s->watch_thread, NULL, watch_main, s) != 0) {
        snprintf(err, SERVER_ERRMSG, "cannot start the head watch");
        rc = SERVER_ERROR;
    }
    if (rc == 0)
        s->has_watch = 1;
    if (rc != 0) {
        server_free(s);
        return rc;
    }
    *out = s;
    return 0;
}

void server_free(server *s)
{
    if (s == NULL)
        return;
    if (s->http != NULL)
        server_stop(s);
    server__bots_stop(s); /* sets is_stopping */
    if (s->has_watch) {
        pthread_mutex_lock(&s->rooms_mutex);
        pthread_cond_broadcast(&s->watch_wake);
        pthread_mutex_unlock(&s->rooms_mutex);
        pthread_join(s->watch_thread, NULL);
    }
    for (size_t i = 0; i < s->n_rooms; i++)
        room_free(s->rooms[i]);
    if (s->group != NULL)
        ledger_group_free(s->group);
    if (s->table != NULL)
        fclose(s->table);
    sodium_memzero(s->secret, sizeof s->secret);
    pthread_rwlock_destroy(&s->gate);
    pthread_mutex_destroy(&s->rooms_mutex);
    pthread_cond_destroy(&s->bot_wake);
    pthread_cond_destroy(&s->idle);
    pthread_cond_destroy(&s->watch_wake);
    free(s);
}
