/*
 * bot_hard.c - the Hard bot: Medium's heuristics plus an evaluation of the
 * board, and defence against a stronghold victory about to happen.
 *
 * Layer: tools. A seat (with its ally) that holds enough strongholds at the
 * Mentat Pause wins; Hard looks for rivals who hold them now or are one
 * short, and values shipments and moves that contest the weakest of their
 * strongholds (with forces enough to win the battle there) or deny them
 * an empty one, before its own plans. Medium does not: it only looks
 * after itself. bot__eval scores a whole state for a seat; Brutal scores
 * the ends of its playouts with it.
 */
#include <string.h>

#include "tools/internal.h"

/* ======================================================= evaluation */

/* A seat's standing on the board, public facts only. */
static int standing(const bot__board *b, const engine_state *st, unsigned s)
{
    int v = (int)b->held[s] * 120;
    unsigned board = 0;
    for (unsigned t = 0; t < ENGINE_TERRITORY_COUNT; t++) {
        board += b->tf[t][s];
        if (bot__is_stronghold(t) && b->tf[t][s])
            v += 10 + (int)b->tf[t][s];
    }
    v += (int)board * 3 + (int)st->seat[s].reserves * 2 + (int)st->seat[s].spice * 2;
    uint8_t hand[ENGINE_TREACHERY_MAX];
    v += (int)bot__hand(hand, st, s) * 6;
    for (unsigned l = 0; l < ENGINE_LEADER_COUNT; l++)
        if (engine_leader_faction(l) == st->seat[s].faction && st->leader[l].place == ENGINE_PLACE_POOL)
            v += (int)engine_leader_strength(l) * 2;
    /* Spice its forces stand on: next collection. */
    for (unsigned l = 0; l < ENGINE_LOCATION_COUNT; l++)
        if (st->spice[l] && bot__forces_at(st, l, s)) {
            unsigned take = bot__forces_at(st, l, s) * 2;
            v += (int)(take < st->spice[l] ? take : st->spice[l]);
        }
    return v;
}

int bot__eval(const engine_state *st, unsigned seat)
{
    if (st->phase == ENGINE_PHASE_GAME_OVER)
        return (st->winners & (1u << seat)) ? 100000 : -100000;
    bot__board b;
    bot__board_init(&b, st, seat);
    int team[ENGINE_MAX_SEATS];
    for (unsigned s = 0; s < st->config.n_seats; s++)
        team[s] = standing(&b, st, s);
    int mine = team[seat], best = -1000000;
    int ally = bot__ally(st, seat);
    if (ally >= 0)
        mine += team[ally] / 2;
    for (unsigned s = 0; s < st->config.n_seats; s++) {
        if (s == seat || (int)s == ally)
            continue;
        int theirs = team[s];
        int a = bot__ally(st, s);
        if (a >= 0)
            theirs += team[a] / 2;
        unsigned held = (unsigned)b.held[s] + (a >= 0 ? (unsigned)b.held[a] : 0u);
        if (held >= (a >= 0 ? 4u : 3u))
            theirs += 500; /* wins at the Mentat Pause as things stand */
        if (theirs > best)
            best = theirs;
    }
    unsigned my_held = (unsigned)b.held[seat] + (ally >= 0 ? (unsigned)b.held[ally] : 0u);
    if (my_held >= (ally >= 0 ? 4u : 3u))
        mine += 500;
    return mine - best;
}

/* ========================================================== threats */

void bot__threats(uint16_t *winning, uint16_t *close, const bot__board *b, const engine_state *v)
{
    *winning = *close = 0;
    for (unsigned s = 0; s < v->config.n_seats; s++) {
        int a = bot__ally(v, s);
        unsigned held = (unsigned)b->held[s] + (a >= 0 ? (unsigned)b->held[a] : 0u);
        unsigned need = a >= 0 ? 4 : 3;
        if (held >= need)
            *winning |= (uint16_t)(1u << s);
        else if (held + 1 == need)
            *close |= (uint16_t)(1u << s);
    }
}

/* What contesting or denying is worth for n forces landing at loc. */
static int defence_bonus(const bot__ctx *c, const bot__board *b, unsigned loc, unsigned n)
{
    const engine_state *v = c->v;
    unsigned t = bot__territory_of(loc);
    if (!bot__is_stronghold(t))
        return 0;
    uint16_t winning, close;
    bot__threats(&winning, &close, b, v);
    uint16_t friends = (uint16_t)(1u << c->seat);
    if (b->ally >= 0)
        friends |= (uint16_t)(1u << b->ally);
    winning &= (uint16_t)~friends;
    close &= (uint16_t)~friends;
    /* The Bene Gesserit let their predicted winner win on its turn. */
    for (unsigned s = 0; s < v->config.n_seats; s++)
        if (bot__faction_prediction_due(c, s)) {
            winning &= (uint16_t)~(1u << s);
            close &= (uint16_t)~(1u << s);
        }
    int weight = c->faction == ENGINE_FACTION_GUILD ? 3 : 2;
    int owner = b->owner[t];
    if (owner >= 0 && (unsigned)owner != c->seat) {
        unsigned mine = b->tf[t][c->seat] + n;
        int odds = bot__battle_odds(mine, bot__best_leader(v, c->seat, t), b->tf[t][owner],
                                    bot__best_leader(v, (unsigned)owner, t));
        if (winning & (1u << owner))
            return weight * 120 * odds / 100;
        if (close & (1u << owner))
            return weight * 25 * odds / 100;
        return 0;
    }
    if (owner == -1 && close != 0 && n >= 2)
        return weight * 20;
    return 0;
}

/* The Fremen on the last turns: their special victory needs Sietch Tabr
 * and Habbanya Sietch free of others. */
static int fremen_bonus(const bot__ctx *c, const bot__board *b, unsigned loc, unsigned n)
{
    const engine_state *v = c->v;
    unsigned t = bot__territory_of(loc);
    if (c->faction != ENGINE_FACTION_FREMEN || v->turn + 1 < v->config.turn_limit ||
        (t != ENGINE_TERRITORY_SIETCH_TABR && t != ENGINE_TERRITORY_HABBANYA_SIETCH))
        return 0;
    return b->owner[t] != (int)c->seat ? 30 + (int)n : 0;
}

static int hard_bonus(const bot__ctx *c, const bot__board *b, unsigned loc, unsigned n)
{
    return defence_bonus(c, b, loc, n) + fremen_bonus(c, b, loc, n);
}

int bot__hard_ship(engine_action *out, bot__ctx *c)
{
    bot__board b;
    bot__board_init(&b, c->v, c->seat);
    bot__candidates cs;
    bot__ship_candidates(&cs, c, &b, hard_bonus);
    int threshold = c->faction == ENGINE_FACTION_GUILD ? 16 : 4;
    if (cs.n > 0 && cs.score[0] >= threshold) {
        *out = cs.act[0];
        return BOT_OK;
    }
    return bot__plain(out, c, ENGINE_ACTION_SHIP_PASS);
}

int bot__hard_move(engine_action *out, bot__ctx *c)
{
    bot__board b;
    bot__board_init(&b, c->v, c->seat);
    bot__candidates cs;
    bot__move_candidates(&cs, c, &b, hard_bonus);
    if (cs.n > 0 && cs.score[0] >= 4) {
        *out = cs.act[0];
        return BOT_OK;
    }
    return bot__plain(out, c, ENGINE_ACTION_MOVE_PASS);
}

void bot__hard_ship_candidates(bot__candidates *cs, bot__ctx *c)
{
    bot__board b;
    bot__board_init(&b, c->v, c->seat);
    bot__ship_candidates(cs, c, &b, hard_bonus);
}

void bot__hard_move_candidates(bot__candidates *cs, bot__ctx *c)
{
    bot__board b;
    bot__board_init(&b, c->v, c->seat);
    bot__move_candidates(cs, c, &b, hard_bonus);
}
