/*
 * bots/easy.c - the Easy bot, and the generic chooser every level falls
 * back on: sensible legal moves drawn at random.
 *
 * Layer: tools. Easy plays like a beginner who knows the rules: it claims
 * charity, calls its traitors, revives what is free, bids a little on
 * cards it can afford, ships and moves now and then towards strongholds
 * and spice, and draws battle plans at random. Every choice is drawn from
 * the seat's legal families with the bot's own stream (bot__ctx.rng); it
 * reads nothing but the seat's view.
 */
#include <string.h>

#include "tools/internal.h"

/* A family drawn uniformly, then its arguments, open ranges narrowed to
 * something sensible (a Karama bid's range is the whole int16). */
int bot__easy_any(engine_action *out, bot__ctx *c)
{
    if (c->n_legal == 0)
        return BOT_ERROR;
    engine_legal l = c->legal[tool_prng_range(&c->rng, 0, (int32_t)c->n_legal - 1)];
    /* a generic power: the default its row gives, whatever the bot knows */
    if (engine_generic_default(out, &l) == 0)
        return BOT_OK;
    for (unsigned i = 0; i < ENGINE_ACTION_MAX_ARGS; i++)
        if (l.hi[i] > l.lo[i] + 40 && l.sum < 0)
            l.hi[i] = (int16_t)(l.lo[i] + 3);
    if (tool_action_draw(out, &l, &c->rng) != 0)
        return BOT_ERROR;
    return BOT_OK;
}

/* Every argument at the top of its range: call the traitor, keep the cards. */
int bot__always_max(engine_action *out, bot__ctx *c)
{
    const engine_legal *l = &c->legal[0];
    bot__action_lo(out, l);
    for (unsigned i = 0; i < ENGINE_ACTION_MAX_ARGS; i++)
        out->arg[i] = l->hi[i];
    engine_legal_clip(l, out->arg);
    return l->sum < 0 ? BOT_OK : -1;
}

/* The family that declines: pass, allow, no storm card, not paying for
 * another's shipment (its lowest argument, 0). */
int bot__easy_pass(engine_action *out, bot__ctx *c)
{
    static const uint8_t passes[] = {
        ENGINE_ACTION_STORM_CARDS_PASS, ENGINE_ACTION_VOICE_PASS, ENGINE_ACTION_KARAMA_ALLOW,
        ENGINE_ACTION_PRESCIENCE_PASS,  ENGINE_ACTION_WORM_RIDE_PASS, ENGINE_ACTION_SHIP_PASS,
        ENGINE_ACTION_MOVE_PASS,        ENGINE_ACTION_BID_PASS, ENGINE_ACTION_SHIP_KARAMA_ANSWER,
    };
    for (size_t i = 0; i < sizeof passes; i++)
        if (bot__plain(out, c, passes[i]) == 0)
            return BOT_OK;
    return -1;
}

int bot__easy_charity(engine_action *out, bot__ctx *c)
{
    if (bot__plain(out, c, ENGINE_ACTION_CHARITY_CLAIM) == 0)
        return BOT_OK;
    return bot__plain(out, c, ENGINE_ACTION_CHARITY_DECLINE);
}

int bot__easy_support(engine_action *out, bot__ctx *c)
{
    return bot__plain(out, c, ENGINE_ACTION_ALLY_SUPPORT);
}

/* Proposes now and then, accepts half the time, then leaves. */
int bot__easy_nexus(engine_action *out, bot__ctx *c)
{
    for (size_t i = 0; i < c->n_legal; i++)
        if (c->legal[i].kind == ENGINE_ACTION_ALLIANCE_ACCEPT && tool_prng_range(&c->rng, 0, 1)) {
            bot__action_lo(out, &c->legal[i]);
            return BOT_OK;
        }
    for (size_t i = 0; i < c->n_legal; i++)
        if (c->legal[i].kind == ENGINE_ACTION_ALLIANCE_REFUSE) {
            bot__action_lo(out, &c->legal[i]);
            return BOT_OK;
        }
    if (tool_prng_range(&c->rng, 0, 9) < 2) {
        size_t n = 0, pick[ENGINE_MAX_SEATS];
        for (size_t i = 0; i < c->n_legal && n < ENGINE_MAX_SEATS; i++)
            if (c->legal[i].kind == ENGINE_ACTION_ALLIANCE_PROPOSE)
                pick[n++] = i;
        if (n > 0) {
            bot__action_lo(out, &c->legal[pick[tool_prng_range(&c->rng, 0, (int32_t)n - 1)]]);
            return BOT_OK;
        }
    }
    return bot__plain(out, c, ENGINE_ACTION_NEXUS_DONE);
}

/* Bids one more than the high bid, half the time, while it costs at most
 * half its spice; never with Karama. */
int bot__easy_auction(engine_action *out, bot__ctx *c)
{
    for (size_t i = 0; i < c->n_legal; i++) {
        const engine_legal *l = &c->legal[i];
        if (l->kind != ENGINE_ACTION_BID || l->lo[1] != 0)
            continue;
        if (l->lo[0] <= c->v->seat[c->seat].spice / 2 + 1 && tool_prng_range(&c->rng, 0, 1)) {
            bot__action_lo(out, l);
            return BOT_OK;
        }
    }
    return bot__plain(out, c, ENGINE_ACTION_BID_PASS);
}

/* What is free: the free forces, no leader. */
int bot__easy_revive(engine_action *out, bot__ctx *c)
{
    for (size_t i = 0; i < c->n_legal; i++) {
        const engine_legal *l = &c->legal[i];
        if (l->kind != ENGINE_ACTION_REVIVE || l->lo[2] != -1 || l->lo[1] != 0)
            continue;
        bot__action_lo(out, l);
        out->arg[0] = (int16_t)bot__clamp((int)engine_faction_free_revival(c->faction), l->lo[0], l->hi[0]);
        return BOT_OK;
    }
    return -1;
}

/* 1 if forces ending at `loc` would join the seat's ally (and die there). */
static int joins_ally(const bot__ctx *c, unsigned loc)
{
    int a = bot__ally(c->v, c->seat);
    unsigned t = engine_location_territory(loc);
    return a >= 0 && t != ENGINE_TERRITORY_POLAR_SINK && bot__forces_in(c->v, t, (unsigned)a) > 0;
}

/* 1 if loc is a stronghold or holds spice. */
static int attractive(const bot__ctx *c, unsigned loc)
{
    return engine_territory_is_stronghold(engine_location_territory(loc)) || c->v->spice[loc] > 0;
}

/* A random family of `kinds` whose destination (argument `dest`) is
 * attractive, with a random count in its range up to `most`. */
static int easy_go(engine_action *out, bot__ctx *c, const uint8_t *kinds, size_t n_kinds,
                   unsigned dest, unsigned count, int most)
{
    size_t n = 0;
    size_t pick[256];
    for (size_t i = 0; i < c->n_legal && n < 256; i++) {
        const engine_legal *l = &c->legal[i];
        int ok = 0;
        for (size_t k = 0; k < n_kinds; k++)
            ok |= l->kind == kinds[k];
        if (ok && l->lo[3] == 0 && attractive(c, (unsigned)l->lo[dest]) &&
            !joins_ally(c, (unsigned)l->lo[dest]))
            pick[n++] = i;
    }
    if (n == 0)
        return -1;
    const engine_legal *l = &c->legal[pick[tool_prng_range(&c->rng, 0, (int32_t)n - 1)]];
    bot__action_lo(out, l);
    int hi = l->hi[count] < most ? l->hi[count] : most;
    if (hi < l->lo[count])
        hi = l->lo[count];
    out->arg[count] = (int16_t)tool_prng_range(&c->rng, l->lo[count], hi);
    return BOT_OK;
}

int bot__easy_ship(engine_action *out, bot__ctx *c)
{
    static const uint8_t kinds[] = {ENGINE_ACTION_SHIP, ENGINE_ACTION_FREMEN_SEND};
    if (tool_prng_range(&c->rng, 0, 9) < 4 && easy_go(out, c, kinds, 2, 0, 1, 8) == 0)
        return BOT_OK;
    return bot__plain(out, c, ENGINE_ACTION_SHIP_PASS);
}

int bot__easy_move(engine_action *out, bot__ctx *c)
{
    static const uint8_t kinds[] = {ENGINE_ACTION_MOVE};
    if (tool_prng_range(&c->rng, 0, 9) < 5 && easy_go(out, c, kinds, 1, 1, 2, 20) == 0)
        return BOT_OK;
    return bot__plain(out, c, ENGINE_ACTION_MOVE_PASS);
}

/* A plan family at random (Truthtrance never), its dial at random. */
int bot__easy_plan(engine_action *out, bot__ctx *c)
{
    size_t n = 0;
    for (size_t i = 0; i < c->n_legal; i++)
        n += c->legal[i].kind == ENGINE_ACTION_BATTLE_PLAN;
    if (n == 0)
        return -1;
    size_t k = (size_t)tool_prng_range(&c->rng, 0, (int32_t)n - 1);
    for (size_t i = 0; i < c->n_legal; i++) {
        if (c->legal[i].kind != ENGINE_ACTION_BATTLE_PLAN || k-- != 0)
            continue;
        return tool_action_draw(out, &c->legal[i], &c->rng) == 0 ? BOT_OK : -1;
    }
    return -1;
}
