/*
 * bots/brutal.c - the Brutal bot: Hard, plus search over sampled worlds.
 *
 * Layer: tools. For the decisions that matter most (battle plans,
 * shipments, moves) Brutal takes Hard's best few candidates, draws worlds
 * consistent with its view (bot_world_sample: the cards, traitors, deck
 * order and plans it cannot see), plays each candidate forward in each
 * world with the engine itself, every seat played by a Hard or Medium bot
 * deciding from its own view of that world, and keeps the candidate whose
 * outcomes score best (bot__eval). Its worlds and playouts draw only from
 * its own stream, so its choice is as reproducible as any other bot's.
 * A world is never the real state: Brutal sees no more than Hard does.
 */
#include <stdlib.h>
#include <string.h>

#include "tools/internal.h"

#define PLAN_CANDIDATES 6
#define PLAN_WORLDS 8
#define PLAN_PLAYOUT_MAX 60
#define TURN_CANDIDATES 5
#define TURN_WORLDS 3
#define TURN_PLAYOUT_MAX 700

struct bot_scratch {
    engine_state world;            /* a world drawn from the view */
    engine_state sim;              /* that world played forward */
    engine_state view;             /* a simulated seat's view of sim */
    engine_legal legal[ENGINE_LEGAL_MAX]; /* that seat's legal families */
};

bot_scratch *bot__scratch_new(void)
{
    return malloc(sizeof(bot_scratch));
}

void bot__scratch_free(bot_scratch *s)
{
    free(s);
}

typedef int (*stop_fn)(const engine_state *sim, const engine_state *start);

/* Draws a world and checks that every seat it waits on (but `seat`, whose
 * action is tried next) can act in it: a world the engine would find
 * stuck is one the view's hidden facts do not allow after all. */
static int draw_world(bot_scratch *s, const bot__ctx *c, tool_prng *r)
{
    if (bot_world_sample(&s->world, c->v, r) != 0)
        return -1;
    uint16_t open = engine_state_awaiting(&s->world);
    for (unsigned seat = 0; seat < s->world.config.n_seats; seat++) {
        if (!(open & (1u << seat)) || seat == c->seat)
            continue;
        size_t n = engine_legal_actions(NULL, 0, &s->world, (uint8_t)seat);
        if (n == 0)
            return -1;
    }
    return 0;
}

/* Plays s->sim forward, every seat a `level` bot, until stop() or max
 * actions. 0, or -1 when an action was refused (the world is dropped). */
static int playout(bot_scratch *s, unsigned level, tool_prng *r, stop_fn stop,
                   const engine_state *start, unsigned max)
{
    uint8_t seed[ENGINE_SEED_BYTES];
    for (unsigned i = 0; i < ENGINE_SEED_BYTES; i += 8) {
        uint64_t x = tool_prng_next(r);
        memcpy(seed + i, &x, 8);
    }
    uint64_t bots_seed = tool_prng_next(r);
    uint8_t last = 0;
    for (uint32_t version = 1; version <= max; version++) {
        engine_state *sim = &s->sim;
        if (sim->phase == ENGINE_PHASE_GAME_OVER || stop(sim, start))
            return 0;
        uint16_t open = engine_state_awaiting(sim);
        if (open == 0)
            return -1;
        engine_action act;
        int chosen = 0;
        unsigned n = sim->config.n_seats;
        for (unsigned pass = 0; pass < 2 && !chosen; pass++)
            for (unsigned k = 1; k <= n && !chosen; k++) {
                uint8_t seat = (uint8_t)((last + k) % n);
                if (!(open & (1u << seat)))
                    continue;
                engine_view(&s->view, sim, seat);
                size_t nl = engine_legal_actions(s->legal, ENGINE_LEGAL_MAX, sim, seat);
                if (nl > ENGINE_LEGAL_MAX)
                    nl = ENGINE_LEGAL_MAX;
                nl = bot__plain_families(s->legal, nl);
                bot__ctx c;
                bot__ctx_init(&c, &s->view, s->legal, nl, seat, level,
                              bot__mix(bots_seed, seat), version, pass == 1, NULL);
                int rc = bot__choose(&act, &c);
                if (rc == BOT_WAIT && pass == 1)
                    rc = bot__easy_any(&act, &c);
                if (rc == BOT_OK) {
                    chosen = 1;
                    last = seat;
                }
            }
        if (!chosen)
            return -1;
        engine_rng rng;
        engine_rng_init(&rng, seed, version);
        engine_verdict v = engine_apply(NULL, &s->sim, &act, &rng);
        if (v != ENGINE_ACCEPTED)
            return -1;
    }
    return 0;
}

/* ========================================================== battles */

static int battle_over(const engine_state *sim, const engine_state *start)
{
    return sim->phase != ENGINE_PHASE_BATTLE || sim->battle_territory != start->battle_territory ||
           sim->battle_seat[0] != start->battle_seat[0] ||
           sim->battle_seat[1] != start->battle_seat[1] || !sim->plan[0].is_committed ||
           !sim->plan[1].is_committed;
}

/* The prescience answer the seat's own plan implies, when the seat was
 * asked and its view does not show the answer it gave. */
static void bind_answer(engine_state *w, unsigned side, const engine_action *plan)
{
    int atreides = bot__seat_of(w, ENGINE_FACTION_ATREIDES);
    if (atreides < 0 || engine_battle_prescience(w) == ENGINE_PRESCIENCE_NONE)
        return;
    unsigned other = w->battle_seat[1 - side];
    int other_is_atreides = other == (unsigned)atreides || w->ally[other] == atreides;
    if (!other_is_atreides)
        return;
    switch (engine_battle_prescience(w)) {
    case ENGINE_PRESCIENCE_LEADER:
        bot__suppose_answer(w, plan->arg[1] >= 0 ? ENGINE_PRESCIENCE_CHEAP_HERO : plan->arg[0]);
        break;
    case ENGINE_PRESCIENCE_WEAPON:
        bot__suppose_answer(w, plan->arg[2]);
        break;
    case ENGINE_PRESCIENCE_DEFENSE:
        bot__suppose_answer(w, plan->arg[3]);
        break;
    default:
        /* The Advanced dial's answer is a strength and its support, which
         * the engine packs: the world is left unbound by it instead. */
        if (engine_is_advanced(w))
            bot__lift_answer(w);
        else
            bot__suppose_answer(w, plan->arg[4]);
        break;
    }
}

/* How one search goes: the candidates it tries, the worlds it draws, the
 * playout's end and length, and for a battle plan the side whose answer
 * binds first (SIDE_FREE for none). */
#define SIDE_FREE 2
typedef struct search {
    unsigned candidates, worlds, playout_max, bind_side;
    stop_fn stop;
} search;

/* The candidate of cs (of its first sp->candidates) whose playouts, one a
 * world drawn, score best on average; the first when none was played. */
static unsigned best_by_playout(bot__ctx *c, const bot__candidates *cs, const search *sp)
{
    bot_scratch *s = c->scratch;
    unsigned k_max = cs->n < sp->candidates ? cs->n : sp->candidates;
    long total[PLAN_CANDIDATES > TURN_CANDIDATES ? PLAN_CANDIDATES : TURN_CANDIDATES] = {0};
    unsigned n_ok[sizeof total / sizeof total[0]] = {0};
    for (unsigned w = 0; w < sp->worlds; w++) {
        if (draw_world(s, c, &c->rng) != 0)
            continue;
        for (unsigned k = 0; k < k_max; k++) {
            s->sim = s->world;
            if (sp->bind_side != SIDE_FREE)
                bind_answer(&s->sim, sp->bind_side, &cs->act[k]);
            engine_rng rng;
            uint8_t seed[ENGINE_SEED_BYTES] = {0};
            engine_rng_init(&rng, seed, 0);
            engine_verdict v = engine_apply(NULL, &s->sim, &cs->act[k], &rng);
            if (v != ENGINE_ACCEPTED)
                continue;
            tool_prng r = c->rng; /* the same playout stream for every candidate */
            if (playout(s, BOT_LEVEL_HARD, &r, sp->stop, &s->world, sp->playout_max) != 0)
                continue;
            total[k] += bot__eval(&s->sim, c->seat);
            n_ok[k]++;
        }
        (void)tool_prng_next(&c->rng);
    }
    unsigned best = 0;
    long best_mean = 0;
    int any = 0;
    for (unsigned k = 0; k < k_max; k++) {
        if (n_ok[k] == 0)
            continue;
        long mean = total[k] / (long)n_ok[k];
        if (!any || mean > best_mean) {
            best = k;
            best_mean = mean;
            any = 1;
        }
    }
    return best;
}

int bot__brutal_plan(engine_action *out, bot__ctx *c)
{
    bot__candidates cs;
    if (bot__hard_plans(&cs, c) == 0)
        return -1;
    if (c->scratch == NULL || cs.n == 1)
        return *out = cs.act[0], BOT_OK;
    const search sp = {PLAN_CANDIDATES, PLAN_WORLDS, PLAN_PLAYOUT_MAX,
                       c->v->battle_seat[0] == c->seat ? 0u : 1u, battle_over};
    *out = cs.act[best_by_playout(c, &cs, &sp)];
    return BOT_OK;
}

/* ======================================================== the turn */

static int turn_over(const engine_state *sim, const engine_state *start)
{
    return sim->turn != start->turn;
}

/* Searches the best few of Hard's candidates by playing the rest of the
 * turn in sampled worlds. */
static int search_turn(engine_action *out, bot__ctx *c, const bot__candidates *cs, unsigned pass_kind)
{
    if (cs->n == 0)
        return bot__plain(out, c, pass_kind);
    if (c->scratch == NULL || cs->n == 1) {
        *out = cs->act[0];
        return BOT_OK;
    }
    const search sp = {TURN_CANDIDATES, TURN_WORLDS, TURN_PLAYOUT_MAX, SIDE_FREE, turn_over};
    *out = cs->act[best_by_playout(c, cs, &sp)];
    return BOT_OK;
}

static void with_pass(bot__candidates *cs, const bot__ctx *c, unsigned pass_kind)
{
    for (unsigned i = 0; i < cs->n && i < TURN_CANDIDATES; i++)
        if (cs->act[i].kind == pass_kind)
            return;
    const engine_legal *l = bot__family(c, pass_kind);
    if (l == NULL)
        return;
    unsigned at = cs->n < TURN_CANDIDATES ? cs->n : TURN_CANDIDATES - 1;
    bot__action_lo(&cs->act[at], l);
    cs->score[at] = 0;
    if (cs->n <= at)
        cs->n = at + 1;
}

int bot__brutal_ship(engine_action *out, bot__ctx *c)
{
    bot__candidates cs;
    bot__hard_ship_candidates(&cs, c);
    with_pass(&cs, c, ENGINE_ACTION_SHIP_PASS);
    return search_turn(out, c, &cs, ENGINE_ACTION_SHIP_PASS);
}

int bot__brutal_move(engine_action *out, bot__ctx *c)
{
    bot__candidates cs;
    bot__hard_move_candidates(&cs, c);
    with_pass(&cs, c, ENGINE_ACTION_MOVE_PASS);
    return search_turn(out, c, &cs, ENGINE_ACTION_MOVE_PASS);
}
