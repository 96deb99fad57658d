/*
 * bots/karama_powers.c - the faction Karama powers of the Advanced game
 * (LR 1.14), used from Medium up with simple heuristics; Easy leaves them
 * to the generic chooser (a row's default, when it draws one). The
 * Emperor's free revival (1.14.02): a leader when none is left to fight,
 * else 3 forces (a Sardaukar among them when it may) once that many are
 * in the Tanks. The Fremen's worm (1.14.03): where it devours the most
 * forces of others (not the ally's), when that is at least 4; else
 * declined. The Harkonnen's hand (1.14.04), at every level: the largest
 * hand of a player not their ally, when it holds at least 3 cards (hand
 * sizes are public); the cards given back are, from Medium up, the least
 * worth of the Harkonnen hand (bot__faction_card_worth), at Easy the
 * window's default. The Guild's stop (1.14.05), at every level: a
 * shipment of another player not their ally, of 5 forces or more, or of 3
 * or more into a stronghold, is cancelled when the window lets them (it
 * is in their families only holding a Karama). The Atreides' look
 * (1.14.01), at every level: at the first plan of a battle they may, the
 * other side's, and their own plan waits (BOT_WAIT, unless forced) until
 * that side has committed, so it is made seeing it.
 *
 * Layer: tools. Like all bot code it reads the seat's view and legal
 * families only: whether it holds a card to spend is in its families.
 */
#include "tools/internal.h"

#define KARAMA_REVIVAL_WORTH 3 /* forces in the Tanks worth the power */
#define KARAMA_WORM_WORTH 4    /* forces of others a worm must devour */

static int emperor_revival(engine_action *out, const bot__ctx *c)
{
    int id = engine_power_from_slug("emperor_karama_revival");
    const engine_legal *forces = NULL, *leader = NULL;
    for (size_t i = 0; i < c->n_legal; i++) {
        const engine_legal *l = &c->legal[i];
        if (l->kind != ENGINE_ACTION_POWER || l->lo[0] != id)
            continue;
        if (l->lo[3] >= 0)
            leader = leader ? leader : l;
        else if (!forces || l->hi[1] + l->hi[2] > forces->hi[1] + forces->hi[2])
            forces = l;
    }
    if (leader && bot__leaders_ready(c->v, c->seat, ENGINE_TERRITORY_COUNT) == 0) {
        bot__action_lo(out, leader);
        return BOT_OK;
    }
    if (forces && forces->hi[1] + forces->hi[2] >= KARAMA_REVIVAL_WORTH) {
        bot__action_lo(out, forces);
        out->arg[1] = forces->hi[1];
        return BOT_OK;
    }
    return -1;
}

/* Forces of seats other than `seat` and its ally in `territory`. */
static unsigned others_in(const engine_state *v, unsigned seat, unsigned territory)
{
    int ally = bot__ally(v, seat);
    unsigned n = 0;
    for (unsigned loc = 0; loc < ENGINE_LOCATION_COUNT; loc++) {
        if (engine_location_territory(loc) != territory)
            continue;
        for (unsigned s = 0; s < v->config.n_seats; s++)
            if (s != seat && (int)s != ally)
                n += (unsigned)v->forces[loc][s] + v->special[loc][s];
    }
    return n;
}

static int fremen_worm(engine_action *out, const bot__ctx *c)
{
    int id = engine_power_from_slug("fremen_karama_worm");
    int pass = engine_power_from_slug("fremen_karama_worm_pass");
    const engine_legal *none = NULL, *best = NULL;
    unsigned most = 0;
    for (size_t i = 0; i < c->n_legal; i++) {
        const engine_legal *l = &c->legal[i];
        if (l->kind == ENGINE_ACTION_POWER && l->lo[0] == pass)
            none = l;
        if (l->kind != ENGINE_ACTION_POWER || l->lo[0] != id)
            continue;
        unsigned n = others_in(c->v, c->seat, (unsigned)l->lo[1]);
        if (n > most) {
            most = n;
            best = l;
        }
    }
    const engine_legal *pick = best && most >= KARAMA_WORM_WORTH ? best : none;
    if (pick == NULL)
        return -1;
    bot__action_lo(out, pick);
    return BOT_OK;
}

#define KARAMA_HAND_WORTH 3 /* cards in a hand worth taking */

static unsigned hand_of(const engine_state *v, unsigned seat)
{
    unsigned n = 0;
    for (unsigned i = 0; i < v->n_cards; i++)
        n += v->card[i].place == ENGINE_PLACE_HAND && v->card[i].holder == seat;
    return n;
}

static int harkonnen_hand(engine_action *out, const bot__ctx *c)
{
    int id = engine_power_from_slug("harkonnen_karama_hand");
    int ally = bot__ally(c->v, c->seat);
    const engine_legal *best = NULL;
    unsigned most = 0;
    for (size_t i = 0; i < c->n_legal; i++) {
        const engine_legal *l = &c->legal[i];
        if (l->kind != ENGINE_ACTION_POWER || l->lo[0] != id)
            continue;
        int s = bot__seat_of(c->v, (unsigned)l->lo[1]);
        if (s < 0 || s == ally)
            continue;
        unsigned n = hand_of(c->v, (unsigned)s);
        if (n > most) {
            most = n;
            best = l;
        }
    }
    if (best == NULL || most < KARAMA_HAND_WORTH)
        return -1;
    bot__action_lo(out, best);
    return BOT_OK;
}

/* The card of least worth to give back (Medium up). */
static int harkonnen_return(engine_action *out, const bot__ctx *c)
{
    int id = engine_window_from_slug("harkonnen_karama_return");
    const engine_legal *worst = NULL;
    int least = 0;
    for (size_t i = 0; i < c->n_legal; i++) {
        const engine_legal *l = &c->legal[i];
        if (l->kind != ENGINE_ACTION_ANSWER || l->lo[0] != id)
            continue;
        int w = bot__faction_card_worth(c, bot__kind_of(c->v, (unsigned)l->lo[1]));
        if (worst == NULL || w < least) {
            least = w;
            worst = l;
        }
    }
    if (worst == NULL)
        return -1;
    bot__action_lo(out, worst);
    return BOT_OK;
}

#define STOP_FORCES 5            /* forces a shipment must bring to be cancelled */
#define STOP_STRONGHOLD_FORCES 3 /* ... into a stronghold */

static int guild_stop(engine_action *out, const bot__ctx *c)
{
    int id = engine_window_from_slug("guild_karama_stop");
    const engine_frame *f = engine_window_top(c->v);
    for (size_t i = 0; f != NULL && i < c->n_legal; i++) {
        const engine_legal *l = &c->legal[i];
        if (l->kind != ENGINE_ACTION_ANSWER || l->lo[0] != id)
            continue;
        const engine_action *ship = &f->held;
        unsigned n = (unsigned)(ship->arg[1] + ship->arg[2]);
        unsigned loc = (unsigned)ship->arg[0];
        int strong = loc < ENGINE_LOCATION_COUNT &&
                     engine_territory_is_stronghold(engine_location_territory(loc));
        int worth = (int)ship->seat != bot__ally(c->v, c->seat) &&
                    (n >= STOP_FORCES || (strong && n >= STOP_STRONGHOLD_FORCES));
        bot__action_lo(out, l);
        out->arg[1] = (int16_t)(worth && l->hi[1] >= 1);
        return BOT_OK;
    }
    return -1;
}

static int atreides_plan(engine_action *out, const bot__ctx *c)
{
    int id = engine_power_from_slug("atreides_karama_plan");
    int planning = 0;
    for (size_t i = 0; i < c->n_legal; i++) {
        const engine_legal *l = &c->legal[i];
        if (l->kind == ENGINE_ACTION_POWER && l->lo[0] == id) {
            bot__action_lo(out, l);
            return BOT_OK;
        }
        planning |= l->kind == ENGINE_ACTION_BATTLE_PLAN;
    }
    const engine_state *v = c->v;
    if (!planning || c->is_forced || (v->karama_plan_seen >> 4) != c->seat + 1u)
        return -1;
    for (unsigned side = 0; side < 2; side++)
        if (v->battle_seat[side] == (v->karama_plan_seen & 0x0Fu) - 1u && !v->plan[side].is_committed)
            return BOT_WAIT;
    return -1;
}

int bot__karama_powers(engine_action *out, const bot__ctx *c)
{
    if (harkonnen_hand(out, c) == BOT_OK || guild_stop(out, c) == BOT_OK)
        return BOT_OK;
    int rc = atreides_plan(out, c);
    if (rc == BOT_OK || rc == BOT_WAIT)
        return rc;
    if (c->level == BOT_LEVEL_EASY)
        return -1;
    if (harkonnen_return(out, c) == BOT_OK)
        return BOT_OK;
    if (fremen_worm(out, c) == BOT_OK)
        return BOT_OK;
    return emperor_revival(out, c);
}
