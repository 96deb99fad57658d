/*
 * bots/game.c - a game played to its end by bots: in memory (the engine
 * alone) or through a ledger (every action appended, signed, with group
 * commit), optionally moved mid-game through backup archives into fresh
 * ledgers; and a pool of threads that plays many such games.
 *
 * Layer: tools. The loop asks the awaited seats in turn, each through
 * bot_input_build (its own view and legal actions) and bot_decide, and
 * submits the answer. A game is a function of its spec alone (room seed,
 * factions, bot levels and seeds), whatever the thread, the order games
 * finish in, or the ledger a continuation moved it to.
 *
 * Through a ledger: a ledger handle is shared between threads only through
 * its ledger_group. Every other use of the main handle (creating the room,
 * a backup, restoring a finished continuation, reading the final state)
 * happens under the write side of bot_gate, which waits until no group
 * append is in flight, so no two threads ever touch the handle at once.
 * Each seat plays with a key of its own: the loop makes one Ed25519 key
 * pair per seat in memory, the room binds their public keys at creation,
 * and every action of a seat is signed with its key (ledger_seat_sign)
 * over the chain hash it acts on, the last receipt's event hash.
 * The loop folds each accepted action into its own copy of the state (it
 * knows the room's seed, having made it) and, at the end, compares that
 * copy's digest with the ledger's own state: a difference is reported,
 * never hidden.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sodium.h>

#include "tools/internal.h"

#define GAME_MAX_ACTIONS 20000u

/* ============================================================ seeds */

void bot_game_seeds(uint8_t room_seed[ENGINE_SEED_BYTES], uint64_t *bots_seed, uint64_t run_seed,
                    uint32_t game)
{
    uint8_t msg[32], h[ENGINE_SEED_BYTES + 8];
    memcpy(msg, "mentat games v1 ", 16);
    for (unsigned i = 0; i < 8; i++)
        msg[16 + i] = (uint8_t)(run_seed >> (8 * i));
    for (unsigned i = 0; i < 4; i++)
        msg[24 + i] = (uint8_t)(game >> (8 * i));
    memset(msg + 28, 0, 4);
    crypto_generichash(h, sizeof h, msg, sizeof msg, NULL, 0);
    memcpy(room_seed, h, ENGINE_SEED_BYTES);
    uint64_t b = 0;
    for (unsigned i = 0; i < 8; i++)
        b |= (uint64_t)h[ENGINE_SEED_BYTES + i] << (8 * i);
    *bots_seed = b;
}

/* ============================================================= gate */

struct bot_gate {
    pthread_mutex_t mutex;         /* guards the counts */
    pthread_cond_t cond;           /* signalled when they change */
    unsigned readers;              /* group appends in flight */
    unsigned writers_waiting;      /* writers queued: readers hold back */
    int is_writing;                /* 1 = a writer holds the handle */
};

int bot_gate_new(bot_gate **out)
{
    bot_gate *g = calloc(1, sizeof *g);
    *out = g;
    if (g == NULL)
        return -1;
    pthread_mutex_init(&g->mutex, NULL);
    pthread_cond_init(&g->cond, NULL);
    return 0;
}

void bot_gate_free(bot_gate *g)
{
    if (g == NULL)
        return;
    pthread_cond_destroy(&g->cond);
    pthread_mutex_destroy(&g->mutex);
    free(g);
}

static void gate_read_begin(bot_gate *g)
{
    pthread_mutex_lock(&g->mutex);
    while (g->is_writing || g->writers_waiting)
        pthread_cond_wait(&g->cond, &g->mutex);
    g->readers++;
    pthread_mutex_unlock(&g->mutex);
}

static void gate_read_end(bot_gate *g)
{
    pthread_mutex_lock(&g->mutex);
    if (--g->readers == 0)
        pthread_cond_broadcast(&g->cond);
    pthread_mutex_unlock(&g->mutex);
}

static void gate_write_begin(bot_gate *g)
{
    pthread_mutex_lock(&g->mutex);
    g->writers_waiting++;
    while (g->is_writing || g->readers)
        pthread_cond_wait(&g->cond, &g->mutex);
    g->writers_waiting--;
    g->is_writing = 1;
    pthread_mutex_unlock(&g->mutex);
}

static void gate_write_end(bot_gate *g)
{
    pthread_mutex_lock(&g->mutex);
    g->is_writing = 0;
    pthread_cond_broadcast(&g->cond);
    pthread_mutex_unlock(&g->mutex);
}

/* ============================================================ a game */

typedef struct game {
    const bot_game_spec *spec;
    bot *bots[ENGINE_MAX_SEATS];
    bot_input *in;                 /* scratch, the worker's */
    engine_state st;               /* the game as folded here */
    uint32_t version;              /* actions accepted */
    uint32_t n_window;             /* of those, Karama window answers */
    uint32_t n_cancelled[ENGINE_ADVANTAGE_COUNT]; /* of those, cancels, by advantage */
    uint32_t n_nexus_answers, n_nexus_draws; /* Nexus Cards draw answers, of them draws */
    uint32_t n_nexus_panels[ENGINE_NEXUS_PANEL_COUNT + 1]; /* Nexus cards played, by panel row */
    uint32_t n_captures[3];        /* capture_leader, kill_leader, spare_leader accepted */
    uint8_t last;                  /* seat that acted last */
} game;

static int game_open(game *gm, const bot_game_spec *spec, bot_input *in, char *err, size_t err_len)
{
    memset(gm, 0, sizeof *gm);
    gm->spec = spec;
    gm->in = in;
    gm->last = (uint8_t)(spec->config.n_seats - 1);
    for (unsigned s = 0; s < spec->config.n_seats; s++)
        if (bot_new(&gm->bots[s], (uint8_t)s, (bot_level)spec->level[s],
                    bot__mix(spec->bots_seed, s)) != BOT_OK) {
            snprintf(err, err_len, "out of memory");
            return -1;
        }
    engine_rng rng;
    engine_rng_init(&rng, spec->room_seed, 0);
    engine_verdict_detail why = {-1, 0};
    engine_verdict v = engine_setup(&why, &gm->st, &spec->config, &rng);
    if (v != ENGINE_ACCEPTED) {
        snprintf(err, err_len, "the engine refuses this table: %s", engine_verdict_name(v));
        return -1;
    }
    return 0;
}

static void game_close(game *gm)
{
    for (unsigned s = 0; s < ENGINE_MAX_SEATS; s++)
        bot_free(gm->bots[s]);
}

/* The next action: the awaited seats asked in turn after the last one
 * that acted; a seat that waits yields; if all wait, the first must act. */
static int game_next(engine_action *out, game *gm)
{
    const engine_state *st = &gm->st;
    uint16_t open = engine_state_awaiting(st);
    unsigned n = st->config.n_seats;
    for (int forced = 0; forced < 2; forced++)
        for (unsigned k = 1; k <= n; k++) {
            uint8_t seat = (uint8_t)((gm->last + k) % n);
            if (!(open & (1u << seat)))
                continue;
            bot_input_build(gm->in, st, seat, gm->version, forced);
            int rc = bot_decide(out, gm->bots[seat], gm->in);
            if (rc == BOT_OK) {
                gm->last = seat;
                return 0;
            }
            if (rc != BOT_WAIT)
                return -1;
        }
    return -1;
}

/* Folds an accepted action into the loop's own state. */
static int game_fold(game *gm, const engine_action *act)
{
    engine_rng rng;
    engine_rng_init(&rng, gm->spec->room_seed, gm->version + 1);
    engine_verdict v = engine_apply(NULL, &gm->st, act, &rng);
    if (v != ENGINE_ACCEPTED)
        return -1;
    gm->version++;
    gm->n_window += act->kind == ENGINE_ACTION_KARAMA_ALLOW ||
                    act->kind == ENGINE_ACTION_KARAMA_CANCEL || act->kind == ENGINE_ACTION_ANSWER;
    if (act->kind == ENGINE_ACTION_KARAMA_CANCEL) /* accepted: the advantage is in range */
        gm->n_cancelled[act->arg[0]]++;
    gm->n_nexus_answers += act->kind == ENGINE_ACTION_NEXUS_DRAW;
    gm->n_nexus_draws += act->kind == ENGINE_ACTION_NEXUS_DRAW && act->arg[0] == 1;
    if (act->kind == ENGINE_ACTION_POWER)
        gm->n_nexus_panels[engine_nexus_panel_of_power(act->arg[0])]++;
    static const char *const decisions[3] = {"capture_leader", "kill_leader", "spare_leader"};
    for (unsigned i = 0; i < 3 && act->kind == ENGINE_ACTION_POWER; i++)
        gm->n_captures[i] += act->arg[0] == engine_power_id(decisions[i]);
    /* a panel played in the neutral Nexus window (rules version 7 on) */
    if (act->kind == ENGINE_ACTION_ANSWER &&
        (act->arg[0] == engine_window_from_slug("nexus") ||
         act->arg[0] == engine_window_from_slug("nexus_moment")) && /* rules version 8 on */
        act->arg[1] > 0 && act->arg[1] <= ENGINE_NEXUS_PANEL_COUNT)
        gm->n_nexus_panels[act->arg[1]]++;
    gm->n_nexus_panels[engine_nexus_panel_of_answer(act)]++; /* a card's own window */
    return 0;
}

static void game_result(bot_game_result *out, const game *gm)
{
    out->n_actions = gm->version;
    out->n_window = gm->n_window;
    memcpy(out->n_cancelled, gm->n_cancelled, sizeof out->n_cancelled);
    out->n_nexus_answers = gm->n_nexus_answers;
    out->n_nexus_draws = gm->n_nexus_draws;
    memcpy(out->n_nexus_panels, gm->n_nexus_panels, sizeof out->n_nexus_panels);
    out->karama_powers = 0;
    for (unsigned s = 0; s < gm->st.config.n_seats; s++)
        if (gm->st.karama_power_used & (1u << s))
            out->karama_powers |= (uint16_t)(1u << gm->st.seat[s].faction);
    memcpy(out->n_captures, gm->n_captures, sizeof out->n_captures);
    out->turn = gm->st.turn;
    out->phase = gm->st.phase;
    out->winners = gm->st.winners;
    out->victory_kind = gm->st.victory_kind;
    out->is_complete = gm->st.phase == ENGINE_PHASE_GAME_OVER;
    engine_state_digest(out->digest, &gm->st);
}

static int game_done(const game *gm)
{
    return gm->st.phase == ENGINE_PHASE_GAME_OVER || engine_state_awaiting(&gm->st) == 0 ||
           gm->version >= (gm->spec->max_actions ? gm->spec->max_actions : GAME_MAX_ACTIONS);
}

int bot_game_play_memory(bot_game_result *out, const bot_game_spec *spec, bot_input *in)
{
    game gm;
    memset(out, 0, sizeof *out);
    int rc = game_open(&gm, spec, in, out->err, sizeof out->err);
    while (rc == 0 && !game_done(&gm)) {
        engine_action act;
        if (game_next(&act, &gm) != 0) {
            snprintf(out->err, sizeof out->err, "no bot could act at version %u", gm.version);
            rc = -1;
            break;
        }
        if (game_fold(&gm, &act) != 0) {
            out->n_rejected++;
            snprintf(out->err, sizeof out->err, "a bot's action was refused at version %u",
                     gm.version + 1);
            rc = -1;
        }
    }
    game_result(out, &gm);
    game_close(&gm);
    out->rc = rc;
    return rc;
}

/* ============================================== through the ledger */

/* Versions at which a game moves to a fresh ledger: k of them, drawn from
 * the game's seed in [1, BOT_CONTINUE_SPAN], ascending and distinct. */
static unsigned continue_points(uint32_t *out, unsigned k, const bot_game_spec *spec)
{
    tool_prng r;
    tool_prng_init(&r, bot__mix(spec->bots_seed, UINT64_C(0xc0471e)));
    unsigned n = 0;
    if (k > BOT_CONTINUE_MAX)
        k = BOT_CONTINUE_MAX;
    while (n < k) {
        uint32_t v = (uint32_t)tool_prng_range(&r, 1, BOT_CONTINUE_SPAN);
        int dup = 0;
        for (unsigned i = 0; i < n; i++)
            dup |= out[i] == v;
        if (!dup)
            out[n++] = v;
    }
    for (unsigned i = 1; i < n; i++)
        for (unsigned j = i; j > 0 && out[j - 1] > out[j]; j--) {
            uint32_t t = out[j];
            out[j] = out[j - 1];
            out[j - 1] = t;
        }
    return n;
}

static void remove_ledger_files(const char *path)
{
    char lock[BOT_PATH_MAX + 8];
    snprintf(lock, sizeof lock, "%s-lock", path);
    unlink(path);
    unlink(lock);
}

/* Opens a fresh ledger at path with the run's keys. */
static int fresh_ledger(ledger **out, const bot_game_ledger *lg, const char *path, char *err,
                        size_t err_len)
{
    ledger_options opt;
    ledger_options_init(&opt);
    opt.path = path;
    opt.keys_dir = lg->keys_dir;
    opt.is_unsafe_no_sync = lg->is_unsafe_no_sync;
    int rc = ledger_open(out, &opt);
    if (rc != 0) {
        snprintf(err, err_len, "opening %.100s: %.120s", path, ledger_errmsg(*out));
        ledger_close(*out);
        *out = NULL;
    }
    return rc;
}

int bot_game_play_ledger(bot_game_result *out, const bot_game_spec *spec,
                         const bot_game_ledger *lg, bot_input *in)
{
    game gm;
    memset(out, 0, sizeof *out);
    ledger *cur = lg->db;          /* where the game is now: the main ledger, or a continuation */
    char cur_path[BOT_PATH_MAX] = "";
    uint32_t points[BOT_CONTINUE_MAX];
    unsigned n_points = continue_points(points, lg->continuations, spec), next_point = 0;
    ledger_seat_keys keys;
    uint8_t sk[ENGINE_MAX_SEATS][LEDGER_SEAT_SECRET_BYTES], prev[SCHEMA_HASH_BYTES];
    uint8_t sig[SCHEMA_SIG_BYTES];
    memset(&keys, 0, sizeof keys);
    for (unsigned s = 0; s < spec->config.n_seats; s++) { /* each bot a key of its own */
        crypto_sign_keypair(keys.key[s], sk[s]);
        keys.bound |= (uint16_t)(1u << s);
    }
    int rc = game_open(&gm, spec, in, out->err, sizeof out->err);
    if (rc != 0)
        goto out;
    gate_write_begin(lg->gate);
    rc = ledger_room_create_bound(lg->db, out->room, &spec->config, spec->room_seed, &keys);
    if (rc == 0)
        rc = ledger_chain_hash(lg->db, prev, out->room, 0);
    if (rc != 0)
        snprintf(out->err, sizeof out->err, "creating a room: %s", ledger_errmsg(lg->db));
    gate_write_end(lg->gate);
    if (rc != 0)
        goto out;

    while (!game_done(&gm)) {
        engine_action act;
        if (game_next(&act, &gm) != 0) {
            snprintf(out->err, sizeof out->err, "no bot could act at version %u", gm.version);
            rc = -1;
            goto out;
        }
        ledger_append_result res;
        memset(&res, 0, sizeof res);
        const uint8_t *seat_sig = NULL;
        if (act.seat != ENGINE_SEAT_ENGINE) {
            if (ledger_seat_sign(sig, sk[act.seat], out->room, gm.version, prev, &act) != 0) {
                snprintf(out->err, sizeof out->err, "version %u: no seat message", gm.version + 1);
                rc = -1;
                goto out;
            }
            seat_sig = sig;
        }
        if (cur == lg->db && lg->group != NULL) {
            gate_read_begin(lg->gate);
            rc = ledger_group_append_signed(lg->group, &res, out->room, gm.version, &act,
                                            seat_sig);
            gate_read_end(lg->gate);
        } else {
            rc = ledger_append_signed(cur, &res, out->room, gm.version, &act, seat_sig);
        }
        if (rc != 0) {
            snprintf(out->err, sizeof out->err, "appending version %u: %s", gm.version + 1,
                     tool_strerror(rc));
            goto out;
        }
        if (res.verdict != ENGINE_ACCEPTED) {
            out->n_rejected++;
            snprintf(out->err, sizeof out->err, "version %u refused: %s", gm.version + 1,
                     engine_verdict_name(res.verdict));
            rc = -1;
            goto out;
        }
        memcpy(prev, res.receipt.event_hash, sizeof prev); /* what the next action acts on */
        if (game_fold(&gm, &act) != 0) {
            snprintf(out->err, sizeof out->err, "the ledger accepted what the engine refuses");
            rc = -1;
            goto out;
        }
        if (next_point < n_points && gm.version == points[next_point] && !game_done(&gm)) {
            /* Continuation: back up, restore into a fresh ledger, play on there. */
            next_point++;
            char archive[BOT_PATH_MAX], path[BOT_PATH_MAX];
            snprintf(archive, sizeof archive, "%s/%s-%u.mentat-archive", lg->work_dir, out->room,
                     gm.version);
            snprintf(path, sizeof path, "%s/%s-%u.db", lg->work_dir, out->room, gm.version);
            if (cur == lg->db)
                gate_write_begin(lg->gate);
            rc = ledger_backup_room(cur, out->room, archive);
            if (rc != 0)
                snprintf(out->err, sizeof out->err, "backup at version %u: %s", gm.version,
                         ledger_errmsg(cur));
            if (cur == lg->db)
                gate_write_end(lg->gate);
            if (rc != 0)
                goto out;
            ledger *fresh;
            rc = fresh_ledger(&fresh, lg, path, out->err, sizeof out->err);
            ledger_restore_report rep;
            if (rc == 0) {
                rc = ledger_restore(fresh, &rep, archive, 0);
                if (rc != 0) {
                    snprintf(out->err, sizeof out->err, "restore at version %u: %s", gm.version,
                             ledger_errmsg(fresh));
                    ledger_close(fresh);
                    remove_ledger_files(path);
                }
            }
            unlink(archive);
            if (rc != 0)
                goto out;
            if (cur != lg->db) {
                ledger_close(cur);
                remove_ledger_files(cur_path);
            }
            cur = fresh;
            memcpy(cur_path, path, sizeof path);
            out->n_restores++;
        }
    }
    game_result(out, &gm);

    /* The ledger's own state must be the one folded here. */
    engine_state *head = malloc(sizeof *head);
    if (head == NULL) {
        rc = -1;
        goto out;
    }
    if (cur == lg->db)
        gate_write_begin(lg->gate);
    rc = ledger_state_at(cur, head, out->room, gm.version);
    if (cur == lg->db)
        gate_write_end(lg->gate);
    if (rc == 0) {
        uint8_t d[ENGINE_DIGEST_BYTES];
        engine_state_digest(d, head);
        out->is_ledger_mismatch = memcmp(d, out->digest, sizeof d) != 0;
    } else {
        snprintf(out->err, sizeof out->err, "reading the final state: %s", ledger_errmsg(cur));
    }
    free(head);
    if (rc != 0)
        goto out;
    if (cur != lg->db) {
        /* Home again: the finished game extends the room in the main ledger. */
        char archive[BOT_PATH_MAX];
        snprintf(archive, sizeof archive, "%s/%s-final.mentat-archive", lg->work_dir, out->room);
        rc = ledger_backup_room(cur, out->room, archive);
        if (rc != 0) {
            snprintf(out->err, sizeof out->err, "final backup: %s", ledger_errmsg(cur));
            goto out;
        }
        gate_write_begin(lg->gate);
        ledger_restore_report rep;
        rc = ledger_restore(lg->db, &rep, archive, 0);
        if (rc != 0)
            snprintf(out->err, sizeof out->err, "restoring the finished game: %s",
                     ledger_errmsg(lg->db));
        gate_write_end(lg->gate);
        unlink(archive);
    }
out:
    sodium_memzero(sk, sizeof sk);
    if (cur != lg->db) {
        ledger_close(cur);
        remove_ledger_files(cur_path);
    }
    if (out->n_actions == 0)
        game_result(out, &gm);
    game_close(&gm);
    out->rc = rc;
    return rc;
}

/* ============================================================= pool */

typedef struct pool {
    const bot_game_spec *specs;
    bot_game_result *results;
    size_t n;
    bot_play_fn play;
    void *ctx;
    pthread_mutex_t mutex;
    size_t next;                   /* next game to start */
    size_t done;                   /* games finished */
    int is_progress;               /* 1 = a progress line on stderr */
    const char *label;
    double t0;                     /* bench_now() at the start */
    double shown;                  /* when the line was last drawn */
    int failed;                    /* a worker could not get its scratch */
} pool;

static void *worker(void *arg)
{
    pool *p = arg;
    bot_input *in = malloc(sizeof *in);
    if (in == NULL) {
        pthread_mutex_lock(&p->mutex);
        p->failed = 1;
        pthread_mutex_unlock(&p->mutex);
        return NULL;
    }
    for (;;) {
        pthread_mutex_lock(&p->mutex);
        size_t i = p->next < p->n ? p->next++ : p->n;
        pthread_mutex_unlock(&p->mutex);
        if (i >= p->n)
            break;
        p->play(&p->results[i], &p->specs[i], p->ctx, in);
        pthread_mutex_lock(&p->mutex);
        p->done++;
        double now = bench_now();
        if (p->is_progress && (now - p->shown >= 0.2 || p->done == p->n)) {
            p->shown = now;
            fprintf(stderr, "\r%s: %zu/%zu games, %.2f games/s   ", p->label, p->done, p->n,
                    (double)p->done / (now - p->t0 > 1e-9 ? now - p->t0 : 1e-9));
            fflush(stderr);
        }
        pthread_mutex_unlock(&p->mutex);
    }
    free(in);
    return NULL;
}

int bot_games_run(bot_game_result *results, const bot_game_spec *specs, size_t n, unsigned jobs,
                  bot_play_fn play, void *ctx, int is_progress, const char *label)
{
    pool p;
    memset(&p, 0, sizeof p);
    p.specs = specs;
    p.results = results;
    p.n = n;
    p.play = play;
    p.ctx = ctx;
    p.is_progress = is_progress;
    p.label = label;
    p.t0 = p.shown = bench_now();
    pthread_mutex_init(&p.mutex, NULL);
    if (jobs < 1)
        jobs = 1;
    if (jobs > BOT_JOBS_MAX)
        jobs = BOT_JOBS_MAX;
    pthread_t th[BOT_JOBS_MAX];
    unsigned started = 0;
    for (unsigned j = 1; j < jobs; j++) {
        if (pthread_create(&th[started], NULL, worker, &p) != 0)
            break;
        started++;
    }
    worker(&p);
    for (unsigned j = 0; j < started; j++)
        pthread_join(th[j], NULL);
    pthread_mutex_destroy(&p.mutex);
    if (is_progress)
        fprintf(stderr, "\r%60s\r", "");
    return p.failed ? -1 : 0;
}

int bot_play_memory(bot_game_result *out, const bot_game_spec *spec, void *ctx, bot_input *in)
{
    (void)ctx;
    return bot_game_play_memory(out, spec, in);
}

int bot_play_ledger(bot_game_result *out, const bot_game_spec *spec, void *ctx, bot_input *in)
{
    return bot_game_play_ledger(out, spec, ctx, in);
}
