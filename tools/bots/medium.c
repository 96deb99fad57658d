/*
 * bots/medium.c - the Medium bot: sound heuristics for every phase, read
 * from the seat's view. Hard (bots/hard.c) and Brutal (bots/brutal.c) build
 * on these.
 *
 * Layer: tools. Its judgements are integer scores in spice-like units: what
 * forces are worth where they land (strongholds, spice, safety from storm
 * and from a stronger enemy), what a card is worth to this faction, how
 * likely a battle plan wins against the opponent's forces, leaders and
 * cards as far as the view shows them. No floating point: a bot's choices
 * are part of a game that must replay identically everywhere.
 */
#include <string.h>

#include "tools/internal.h"

/* =========================================================== board */

void bot__board_init(bot__board *b, const engine_state *v, unsigned seat)
{
    memset(b, 0, sizeof *b);
    bot__territory_forces(b->tf, v);
    b->seat = (uint8_t)seat;
    b->ally = (int8_t)bot__ally(v, seat);
    for (unsigned t = 0; t < ENGINE_TERRITORY_COUNT; t++)
        b->owner[t] = (int8_t)bot__controller(b->tf, v, t);
    for (unsigned s = 0; s < v->config.n_seats; s++)
        b->held[s] = (uint8_t)bot__strongholds_held(b->tf, v, s);
    b->rate = (uint8_t)engine_collection_rate(v, seat);
}

/* Enemy forces in t (not the seat's, not its ally's) and the strongest
 * enemy there. */
static unsigned enemies_in(const bot__board *b, const engine_state *v, unsigned t, int *who)
{
    unsigned n = 0, most = 0;
    *who = -1;
    for (unsigned s = 0; s < v->config.n_seats; s++) {
        if (s == b->seat || (int)s == b->ally || b->tf[t][s] == 0)
            continue;
        n += b->tf[t][s];
        if (b->tf[t][s] > most) {
            most = b->tf[t][s];
            *who = (int)s;
        }
    }
    return n;
}

/* The storm's reach next turn: sectors 1..6 ahead of it. */
int bot__storm_may_hit(const engine_state *v, unsigned loc)
{
    int sector = engine_location_sector(loc);
    if (sector < 0 || engine_territory_is_storm_safe(v, engine_location_territory(loc)))
        return 0;
    int ahead = (sector - (int)v->storm_sector + ENGINE_SECTOR_COUNT) % ENGINE_SECTOR_COUNT;
    return ahead >= 1 && ahead <= 6;
}

/* Of n forces a send lands at `loc`, those that live: half of them,
 * rounded up, die at once under the storm (the Advanced Fremen's storm
 * migration, LR 2.04.17; the engine offers such a send only there). */
unsigned bot__send_survivors(const engine_state *v, unsigned loc, unsigned n)
{
    return engine_location_sector(loc) == (int)v->storm_sector ? n - (n + 1) / 2 : n;
}

/* Chance in percent that `mine` forces (with the seat's best leader) beat
 * `theirs` forces with their best leader, roughly: a margin of a few
 * forces is safe, an even fight a coin. */
int bot__battle_odds(unsigned mine, unsigned my_leader, unsigned theirs, unsigned their_leader)
{
    int edge = (int)(mine + my_leader) - (int)(theirs + their_leader);
    return bot__clamp(50 + edge * 12, 3, 97);
}

/* Spice-like worth of n more forces of the seat at loc. */
int bot__place_value(const bot__ctx *c, const bot__board *b, unsigned loc, unsigned n)
{
    const engine_state *v = c->v;
    unsigned t = engine_location_territory(loc);
    unsigned me = c->seat;
    if (n == 0)
        return 0;
    if (t == ENGINE_TERRITORY_POLAR_SINK)
        return (int)(n < 3 ? n : 3);
    if (b->ally >= 0 && b->tf[t][b->ally] > 0)
        return -1000; /* forces joining their ally die (R39) */
    int who;
    unsigned enemy = enemies_in(b, v, t, &who);
    unsigned mine = b->tf[t][me];
    unsigned my_leader = bot__best_leader(v, me, t);
    unsigned their_leader = who >= 0 ? bot__best_leader(v, (unsigned)who, t) : 0;
    int value = 0;
    if (engine_territory_is_stronghold(t)) {
        if (enemy == 0) {
            if (mine > 0) {
                /* Reinforce a stronghold held thinly. */
                value = mine + n <= 5 ? (int)n * 3 : (mine < 5 ? (int)(5 - mine) * 3 : 1);
            } else {
                value = 45 + (n >= 3 ? 10 : (int)n * 3) + (n > 6 ? 0 : (int)n);
                if (b->held[me] >= 2)
                    value += 120; /* the third stronghold: a victory */
                else if (b->held[me] == 1)
                    value += 20;
            }
        } else {
            int odds = bot__battle_odds(mine + n, my_leader, enemy, their_leader);
            value = (60 + (who >= 0 && b->held[who] >= 2 ? 60 : 0)) * odds / 100 -
                    (int)(mine + n) * (100 - odds) / 60;
        }
    } else {
        unsigned spice = v->spice[loc];
        unsigned before = mine * b->rate < spice ? mine * b->rate : spice;
        unsigned after = (mine + n) * b->rate < spice ? (mine + n) * b->rate : spice;
        value = (int)(after - before);
        if (value == 0)
            value = engine_territory_is_storm_safe(v, t) ? 1 : 0;
        if (bot__storm_may_hit(v, loc))
            value = value * 2 / 5 - (int)n;
        if (enemy > 0) {
            int odds = bot__battle_odds(mine + n, my_leader, enemy, their_leader);
            value = value * odds / 100 - (int)(mine + n) * (100 - odds) / 60;
        }
    }
    return value;
}

/* Spice-like worth lost when n of the seat's forces leave territory t. */
int bot__leave_cost(const bot__ctx *c, const bot__board *b, unsigned t, unsigned n)
{
    const engine_state *v = c->v;
    unsigned mine = b->tf[t][c->seat];
    if (engine_territory_is_stronghold(t)) {
        if (n >= mine)
            return b->owner[t] == (int)c->seat ? 55 + (b->held[c->seat] >= 3 ? 200 : 0) : 10;
        return mine - n < 3 ? 8 : 2;
    }
    unsigned spice = bot__spice_in(v, t);
    unsigned before = mine * b->rate < spice ? mine * b->rate : spice;
    unsigned left = mine - (n < mine ? n : mine);
    unsigned after = left * b->rate < spice ? left * b->rate : spice;
    int cost = (int)(before - after);
    /* Leaving sand the storm may strike is a gain. */
    for (unsigned l = 0; l < ENGINE_LOCATION_COUNT; l++)
        if (bot__forces_at(v, l, c->seat) && engine_location_territory(l) == t && bot__storm_may_hit(v, l)) {
            cost -= (int)n;
            break;
        }
    return cost;
}

/* Spice a shipment of `kind` (SHIP, FREMEN_SEND or CROSS_SHIP) of n to
 * loc costs, as the engine charges it: a Fremen send is free (LR 2.04.05;
 * engine_shipment_cost does not price it), every other shipment is
 * engine_shipment_cost, whoever makes it (the Fremen's site-to-site
 * shipment as the Guild's ally pays the Guild's rate). */
int bot__ship_cost(const bot__ctx *c, unsigned kind, unsigned loc, unsigned n, int karama)
{
    if (kind == ENGINE_ACTION_FREMEN_SEND)
        return 0;
    return (int)engine_shipment_cost(c->v, c->seat, loc, n, karama);
}

/* Spice the seat keeps back for bids and battles. */
int bot__spice_reserve(const bot__ctx *c)
{
    /* Hard: spice kept is worth nothing once the game ends. */
    if (c->level >= BOT_LEVEL_HARD && c->v->turn >= c->v->config.turn_limit)
        return 0;
    switch (c->faction) {
    case ENGINE_FACTION_GUILD:
        return 6; /* hoards: its victory comes to the patient */
    case ENGINE_FACTION_EMPEROR:
        return 4;
    case ENGINE_FACTION_FREMEN:
        return 0;
    default:
        return 2;
    }
}

/* ============================================================ storm */

/* Forces of other (non-allied) seats minus the seat's own that a storm
 * moving `move` sectors from where it is would kill. */
int bot__storm_score(const bot__ctx *c, unsigned move)
{
    const engine_state *v = c->v;
    int ally = bot__ally(v, c->seat), score = 0;
    for (unsigned l = 0; l < ENGINE_LOCATION_COUNT; l++) {
        int sector = engine_location_sector(l);
        if (sector < 0 || engine_territory_is_storm_safe(v, engine_location_territory(l)))
            continue;
        unsigned ahead = (unsigned)((sector - (int)v->storm_sector + ENGINE_SECTOR_COUNT) %
                                    ENGINE_SECTOR_COUNT);
        if (ahead == 0 || ahead > move)
            continue;
        for (unsigned s = 0; s < v->config.n_seats; s++) {
            unsigned f = bot__forces_at(v, l, s);
            if (s == c->seat || (int)s == ally)
                score -= 3 * (int)f;
            else
                score += 2 * (int)f;
        }
    }
    return score;
}

int bot__medium_storm_dial(engine_action *out, bot__ctx *c)
{
    const engine_legal *l = bot__family(c, ENGINE_ACTION_STORM_DIAL);
    if (l == NULL)
        return -1;
    /* The other dial: uniform over the same range. */
    int best = -1, best_score = 0;
    for (int d = l->lo[0]; d <= l->hi[0]; d++) {
        int score = 0;
        for (int o = l->lo[0]; o <= l->hi[0]; o++)
            score += bot__storm_score(c, (unsigned)(d + o));
        if (best < 0 || score > best_score ||
            (score == best_score && tool_prng_range(&c->rng, 0, 1))) {
            best = d;
            best_score = score;
        }
    }
    bot__action_lo(out, l);
    out->arg[0] = (int16_t)best;
    return BOT_OK;
}

int bot__medium_storm_cards(engine_action *out, bot__ctx *c)
{
    const engine_state *v = c->v;
    const engine_legal *atomics = bot__family(c, ENGINE_ACTION_FAMILY_ATOMICS);
    if (atomics != NULL) {
        /* Open the Shield Wall when rivals sit behind it and the seat does not. */
        unsigned theirs = 0, mine = 0;
        int ally = bot__ally(v, c->seat);
        for (unsigned s = 0; s < v->config.n_seats; s++) {
            unsigned f = bot__forces_in(v, ENGINE_TERRITORY_ARRAKEEN, s) +
                         bot__forces_in(v, ENGINE_TERRITORY_CARTHAG, s) +
                         bot__forces_in(v, ENGINE_TERRITORY_SHIELD_WALL, s);
            if (s == c->seat || (int)s == ally)
                mine += f;
            else
                theirs += f;
        }
        if (theirs >= 8 && mine == 0) {
            bot__action_lo(out, atomics);
            return BOT_OK;
        }
    }
    const engine_legal *wc = bot__family(c, ENGINE_ACTION_WEATHER_CONTROL);
    if (wc != NULL) {
        /* Natural move: 2..6, about 4. */
        int natural = bot__storm_score(c, 4), best = -1, best_score = 0;
        for (int m = wc->lo[0]; m <= wc->hi[0]; m++) {
            int s = bot__storm_score(c, (unsigned)m);
            if (best < 0 || s > best_score) {
                best = m;
                best_score = s;
            }
        }
        if (best >= 0 && best_score >= natural + 8) {
            bot__action_lo(out, wc);
            out->arg[0] = (int16_t)best;
            return BOT_OK;
        }
    }
    return bot__plain(out, c, ENGINE_ACTION_STORM_CARDS_PASS);
}

/* ============================================================ nexus */

/* How much `seat` wants `other` as its ally, as far as the view shows. */
int bot__partner_score(const engine_state *v, const bot__board *b, unsigned seat, unsigned other)
{
    int score = (int)b->held[other] * 30 + (int)v->seat[other].spice / 2;
    for (unsigned t = 0; t < ENGINE_TERRITORY_COUNT; t++)
        score += (int)b->tf[t][other] / 2;
    score += bot__faction_synergy(v, seat, v->seat[other].faction);
    return score;
}

/* Whether `seat` would take `proposer` as its ally now: it wants one, and
 * the proposer is nearly the best of the seats still in the Nexus. */
static int would_accept(const engine_state *v, const bot__board *b, unsigned seat,
                        unsigned proposer)
{
    if (!bot__faction_wants_alliance(v, b, seat))
        return 0;
    int best = 0;
    for (unsigned s = 0; s < v->config.n_seats; s++) {
        if (s == seat || v->ally[s] != 0xFF || (v->answered & (1u << s)))
            continue;
        int sc = bot__partner_score(v, b, seat, s);
        best = sc > best ? sc : best;
    }
    return bot__partner_score(v, b, seat, proposer) * 10 >= best * 7;
}

int bot__medium_nexus(engine_action *out, bot__ctx *c)
{
    const engine_state *v = c->v;
    bot__board b;
    bot__board_init(&b, v, c->seat);
    /* Answer proposals first: the proposer waits on the answer. */
    for (size_t i = 0; i < c->n_legal; i++) {
        const engine_legal *l = &c->legal[i];
        if (l->kind != ENGINE_ACTION_ALLIANCE_ACCEPT)
            continue;
        int from = bot__seat_of(v, (unsigned)l->lo[0]);
        if (from >= 0 && would_accept(v, &b, c->seat, (unsigned)from)) {
            bot__action_lo(out, l);
            return BOT_OK;
        }
    }
    for (size_t i = 0; i < c->n_legal; i++)
        if (c->legal[i].kind == ENGINE_ACTION_ALLIANCE_REFUSE) {
            bot__action_lo(out, &c->legal[i]);
            return BOT_OK;
        }
    /* A proposal of ours not yet answered: let the other seat answer. */
    for (unsigned s = 0; s < v->config.n_seats; s++)
        if ((v->nexus_proposals[c->seat] & (1u << s)) && !(v->answered & (1u << s)) &&
            v->ally[c->seat] == 0xFF && v->ally[s] == 0xFF)
            return BOT_WAIT;
    /* Propose to the best partner that would accept. The view keeps no
     * record of a refusal (and the engine lets a refused seat propose
     * again), so a bot that keeps no memory proposes only now and then:
     * otherwise two seats that disagree would never leave the Nexus. */
    if (bot__faction_wants_alliance(v, &b, c->seat) && tool_prng_range(&c->rng, 0, 9) < 6) {
        int best = -1, best_score = 0;
        for (unsigned s = 0; s < v->config.n_seats; s++) {
            if (s == c->seat || v->ally[s] != 0xFF || (v->answered & (1u << s)) ||
                (v->nexus_proposals[c->seat] & (1u << s)) || !would_accept(v, &b, s, c->seat))
                continue;
            int sc = bot__partner_score(v, &b, c->seat, s);
            if (best < 0 || sc > best_score) {
                best = (int)s;
                best_score = sc;
            }
        }
        for (size_t i = 0; best >= 0 && i < c->n_legal; i++) {
            const engine_legal *l = &c->legal[i];
            if (l->kind == ENGINE_ACTION_ALLIANCE_PROPOSE && l->lo[0] == v->seat[best].faction) {
                bot__action_lo(out, l);
                return BOT_OK;
            }
        }
    }
    return bot__plain(out, c, ENGINE_ACTION_NEXUS_DONE);
}

/* The Nexus Cards' draw opportunity, from its own view: a seat holding no
 * card draws one, a seat holding one keeps it (a replacement would cycle
 * the small deck into reshuffles inside an opportunity, docs/RULINGS.md
 * R80's residual); its own faction's card (its Cunning) is redrawn once
 * unless that panel is built. */
/* A window's answer: the Guild's turn (Advanced, LR 2.06.12) is best
 * taken last, once every other seat has shipped and moved (its holding
 * pattern: it delays at its place and waits at every boundary, acting
 * when it is the only one left); any other window, its row's default. */
int bot__medium_answer(engine_action *out, bot__ctx *c)
{
    const engine_legal *l = &c->legal[0];
    if (engine_generic_default(out, l) != 0)
        return -1;
    if (l->lo[0] == engine_window_id("guild_delay"))
        out->arg[1] = (int16_t)bot__clamp(1, l->lo[1], l->hi[1]);
    return BOT_OK;
}

int bot__medium_nexus_draw(engine_action *out, bot__ctx *c)
{
    const engine_legal *l = bot__family(c, ENGINE_ACTION_NEXUS_DRAW);
    if (l == NULL)
        return -1;
    bot__action_lo(out, l);
    out->arg[0] = engine_nexus_held(c->v, c->seat) < 0 ? 1 : 0;
    out->arg[1] = engine_nexus_panel_built(c->faction, ENGINE_NEXUS_CUNNING)
                      ? ENGINE_NEXUS_KEEP
                      : ENGINE_NEXUS_REDRAW_ONCE;
    return BOT_OK;
}

/* ======================================================= spice blow */

int bot__medium_worm_ride(engine_action *out, bot__ctx *c)
{
    bot__board b;
    bot__board_init(&b, c->v, c->seat);
    const engine_legal *best = NULL;
    int best_value = 0;
    for (size_t i = 0; i < c->n_legal; i++) {
        const engine_legal *l = &c->legal[i];
        if (l->kind != ENGINE_ACTION_WORM_RIDE || l->lo[1] == 0)
            continue;
        int value = bot__place_value(c, &b, (unsigned)l->lo[0], (unsigned)l->hi[1]);
        if (value > best_value) {
            best = l;
            best_value = value;
        }
    }
    if (best != NULL && best_value >= 6) {
        bot__action_lo(out, best);
        out->arg[1] = best->hi[1];
        out->arg[2] = best->hi[2];
        return BOT_OK;
    }
    return bot__plain(out, c, ENGINE_ACTION_WORM_RIDE_PASS);
}

/* ========================================================== bidding */

int bot__medium_support(engine_action *out, bot__ctx *c)
{
    const engine_legal *l = bot__family(c, ENGINE_ACTION_ALLY_SUPPORT);
    if (l == NULL)
        return -1;
    bot__action_lo(out, l);
    int spice = c->v->seat[c->seat].spice;
    int give = c->faction == ENGINE_FACTION_EMPEROR ? spice / 2
             : c->faction == ENGINE_FACTION_GUILD   ? 0
                                                    : spice / 4;
    out->arg[0] = (int16_t)bot__clamp(give, l->lo[0], l->hi[0]);
    return BOT_OK;
}

int bot__medium_auction(engine_action *out, bot__ctx *c)
{
    const engine_state *v = c->v;
    int card = v->auction_index < v->n_auction ? v->auction[v->auction_index] : -1;
    unsigned kind = card >= 0 ? bot__kind_of(v, (unsigned)card) : ENGINE_CARD_KIND_UNKNOWN;
    int worth = bot__faction_card_worth(c, kind);
    int ally = bot__ally(v, c->seat);
    int spice = (int)v->seat[c->seat].spice + (ally >= 0 ? (int)v->ally_support[ally] : 0);
    int most = worth < spice - bot__spice_reserve(c) ? worth : spice - bot__spice_reserve(c);
    /* The Emperor is paid for every card another seat buys: it raises a
     * rival's price while it would still be glad to own the card. */
    if (c->faction == ENGINE_FACTION_EMPEROR && v->high_bidder != 0xFF &&
        v->high_bidder != c->seat && most < worth + 2 && worth + 2 <= spice)
        most = worth + 2;
    const engine_legal *take = bot__family(c, ENGINE_ACTION_KARAMA_TAKE);
    if (take != NULL && c->level >= BOT_LEVEL_HARD && kind != ENGINE_CARD_KIND_UNKNOWN &&
        worth >= 9 && (int)v->high_bid + 2 >= spice) {
        bot__action_lo(out, take);
        return BOT_OK;
    }
    for (size_t i = 0; i < c->n_legal; i++) {
        const engine_legal *l = &c->legal[i];
        if (l->kind != ENGINE_ACTION_BID || l->lo[1] != 0)
            continue;
        if (l->lo[0] <= most) {
            bot__action_lo(out, l);
            return BOT_OK;
        }
    }
    return bot__plain(out, c, ENGINE_ACTION_BID_PASS);
}

/* ========================================================== revival */

int bot__medium_emperor_revival(engine_action *out, bot__ctx *c)
{
    const engine_legal *l = bot__family(c, ENGINE_ACTION_EMPEROR_REVIVAL);
    if (l == NULL)
        return -1;
    bot__action_lo(out, l);
    int a = bot__ally(c->v, c->seat);
    if (a >= 0 && c->v->seat[a].tanks >= 4 && c->v->seat[c->seat].spice >= 8)
        out->arg[0] = l->hi[0];
    return BOT_OK;
}

static int medium_wartime(engine_action *out, bot__ctx *c);

int bot__medium_revive(engine_action *out, bot__ctx *c)
{
    if (medium_wartime(out, c) == BOT_OK)
        return BOT_OK;
    const engine_state *v = c->v;
    int spice = v->seat[c->seat].spice;
    /* Tleilaxu Ghola: a leader when none is left, else five forces. */
    int no_leader = bot__leaders_ready(v, c->seat, ENGINE_TERRITORY_COUNT) == 0;
    const engine_legal *ghola_leader = NULL, *ghola_forces = NULL;
    for (size_t i = 0; i < c->n_legal; i++) {
        const engine_legal *l = &c->legal[i];
        if (l->kind != ENGINE_ACTION_GHOLA)
            continue;
        if (l->lo[1] >= 0) {
            if (ghola_leader == NULL || engine_leader_strength((unsigned)l->lo[1]) >
                                            engine_leader_strength((unsigned)ghola_leader->lo[1]))
                ghola_leader = l;
        } else {
            ghola_forces = l;
        }
    }
    if (ghola_leader != NULL && no_leader) {
        bot__action_lo(out, ghola_leader);
        return BOT_OK;
    }
    if (ghola_forces != NULL && ghola_forces->hi[0] >= 4) {
        bot__action_lo(out, ghola_forces);
        out->arg[0] = ghola_forces->hi[0];
        return BOT_OK;
    }
    /* A leader when the pool is empty and the seat can pay; then forces:
     * the free ones, more when rich. */
    const engine_legal *pick = NULL;
    for (size_t i = 0; i < c->n_legal; i++) {
        const engine_legal *l = &c->legal[i];
        if (l->kind != ENGINE_ACTION_REVIVE || l->lo[1] != 0)
            continue;
        if (l->lo[2] >= 0) {
            unsigned cost = engine_leader_strength((unsigned)l->lo[2]);
            if (no_leader && (int)cost + 2 <= spice &&
                (pick == NULL || pick->lo[2] < 0 ||
                 cost > engine_leader_strength((unsigned)pick->lo[2])))
                pick = l;
        } else if (pick == NULL) {
            pick = l;
        }
    }
    if (pick == NULL)
        return bot__easy_revive(out, c);
    bot__action_lo(out, pick);
    int want = (int)engine_faction_free_revival(c->faction);
    int left = spice - (pick->lo[2] >= 0 ? (int)engine_leader_strength((unsigned)pick->lo[2]) : 0);
    if (left >= 8 + bot__spice_reserve(c))
        want += 1;
    if (left >= 14 + bot__spice_reserve(c))
        want += 1;
    out->arg[0] = (int16_t)bot__clamp(want, pick->lo[0], pick->hi[0]);
    return BOT_OK;
}

/* ================================================ shipment, movement */

/* Candidate counts to try for a family range [lo, hi]. */
static unsigned counts(int out[10], int lo, int hi)
{
    static const int wanted[] = {2, 3, 4, 6, 8, 12};
    unsigned n = 0;
    out[n++] = lo;
    for (size_t i = 0; i < sizeof wanted / sizeof wanted[0]; i++)
        if (wanted[i] > lo && wanted[i] < hi)
            out[n++] = wanted[i];
    if (hi != lo)
        out[n++] = hi;
    return n;
}

void bot__candidates_add(bot__candidates *cs, const engine_action *act, int score)
{
    /* Keep the best BOT_CANDIDATES, sorted by score, ties in order found. */
    unsigned at = cs->n;
    while (at > 0 && cs->score[at - 1] < score)
        at--;
    if (at >= BOT_CANDIDATES)
        return;
    unsigned last = cs->n < BOT_CANDIDATES ? cs->n : BOT_CANDIDATES - 1;
    for (unsigned i = last; i > at; i--) {
        cs->act[i] = cs->act[i - 1];
        cs->score[i] = cs->score[i - 1];
    }
    cs->act[at] = *act;
    cs->score[at] = score;
    if (cs->n < BOT_CANDIDATES)
        cs->n++;
}

void bot__ship_candidates(bot__candidates *cs, bot__ctx *c, const bot__board *b,
                          bot__bonus_fn bonus)
{
    const engine_state *v = c->v;
    int spice = v->seat[c->seat].spice;
    int reserve = bot__spice_reserve(c);
    cs->n = 0;
    for (size_t i = 0; i < c->n_legal; i++) {
        const engine_legal *l = &c->legal[i];
        engine_action act;
        if (l->kind == ENGINE_ACTION_SHIP_PASS) {
            bot__action_lo(&act, l);
            bot__candidates_add(cs, &act, 0);
            continue;
        }
        unsigned loc, ci;
        int karama = 0;
        if (l->kind == ENGINE_ACTION_SHIP) {
            loc = (unsigned)l->lo[0];
            ci = 1;
            karama = l->lo[3];
        } else if (l->kind == ENGINE_ACTION_FREMEN_SEND) {
            loc = (unsigned)l->lo[0];
            ci = 1;
        } else if (l->kind == ENGINE_ACTION_CROSS_SHIP) {
            loc = (unsigned)l->lo[1];
            ci = 2;
        } else {
            continue;
        }
        if (karama && c->level < BOT_LEVEL_HARD)
            continue;
        /* From reserves the elite forces go first (worth more in
         * battle), a plain force with them; a family of elite forces
         * alone ships them alone. */
        int from_reserves = l->kind != ENGINE_ACTION_CROSS_SHIP;
        int elite_only = from_reserves && l->hi[ci] == 0;
        int most = from_reserves ? l->hi[ci] + l->hi[ci + 1] : l->hi[ci];
        if (from_reserves && l->cap_mask[0])
            most = l->cap[0];
        int ns[10];
        unsigned nn = counts(ns, elite_only ? l->lo[ci + 1] : l->lo[ci], most);
        for (unsigned k = 0; k < nn; k++) {
            unsigned n = (unsigned)ns[k];
            int e = !from_reserves ? 0
                    : elite_only  ? (int)n
                    : l->hi[ci + 1] < (int)n - 1 ? l->hi[ci + 1]
                                                  : (int)n - 1;
            unsigned lands = l->kind == ENGINE_ACTION_FREMEN_SEND ? bot__send_survivors(v, loc, n) : n;
            int value = bot__place_value(c, b, loc, lands) - 2 * (int)(n - lands);
            if (bonus != NULL)
                value += bonus(c, b, loc, n);
            if (l->kind == ENGINE_ACTION_CROSS_SHIP)
                value -= bot__leave_cost(c, b, engine_location_territory((unsigned)l->lo[0]), n);
            int cost = bot__ship_cost(c, l->kind, loc, n, karama);
            if (karama)
                cost += 6; /* the Karama card itself */
            int over = reserve - (spice - cost);
            int score = value - cost - (over > 0 ? over * 2 : 0);
            if (c->faction == ENGINE_FACTION_FREMEN)
                score -= (int)n / 3; /* reserves kept for later sends */
            bot__action_lo(&act, l);
            act.arg[ci] = (int16_t)((int)n - e);
            if (from_reserves)
                act.arg[ci + 1] = (int16_t)e;
            bot__candidates_add(cs, &act, score);
        }
    }
}

int bot__medium_ship(engine_action *out, bot__ctx *c)
{
    bot__board b;
    bot__board_init(&b, c->v, c->seat);
    bot__candidates cs;
    bot__ship_candidates(&cs, c, &b, NULL);
    int threshold = c->faction == ENGINE_FACTION_GUILD ? 20 : 4;
    if (cs.n > 0 && cs.score[0] >= threshold) {
        *out = cs.act[0];
        return BOT_OK;
    }
    return bot__plain(out, c, ENGINE_ACTION_SHIP_PASS);
}

/* Sends the free force; in the Advanced game an advisor with a stranger's
 * shipment when it lands in a stronghold or on spice (a foothold to turn
 * to fighters later), else the fighter to the Polar Sink. */
int bot__medium_bg_send(engine_action *out, bot__ctx *c)
{
    const engine_legal *l = bot__family(c, ENGINE_ACTION_BG_SEND);
    if (l == NULL)
        return -1;
    bot__action_lo(out, l);
    out->arg[0] = l->hi[0];
    /* never beside the ally's shipment: one of them would be lost (D2) */
    const engine_frame *send = engine_window_find(c->v, ENGINE_WINDOW_BG_SEND);
    if (send == NULL || send->owner == c->v->ally[c->seat])
        return BOT_OK;
    for (size_t i = 0; i < c->n_legal; i++) {
        const engine_legal *a = &c->legal[i];
        if (a->kind != ENGINE_ACTION_BG_SEND || a->lo[1] <= 0)
            continue;
        unsigned loc = (unsigned)a->lo[1];
        if (engine_territory_is_stronghold(engine_location_territory(loc)) || c->v->spice[loc])
            bot__action_lo(out, a);
    }
    return BOT_OK;
}

/* WARTIME (Advanced): turns to fighters the advisors of a stronghold where
 * they are at least as many as any other faction's forces there. */
static int medium_wartime(engine_action *out, bot__ctx *c)
{
    int16_t id = engine_power_id("bg_wartime");
    for (size_t i = 0; i < c->n_legal; i++) {
        const engine_legal *l = &c->legal[i];
        if (l->kind != ENGINE_ACTION_POWER || l->lo[0] != id ||
            !engine_territory_is_stronghold((unsigned)l->lo[1]))
            continue;
        unsigned mine = 0, most = 0, other[ENGINE_MAX_SEATS] = {0};
        for (unsigned loc = 0; loc < ENGINE_LOCATION_COUNT; loc++) {
            if (engine_location_territory(loc) != (unsigned)l->lo[1])
                continue;
            mine += c->v->advisors[loc];
            for (unsigned s = 0; s < c->v->config.n_seats; s++)
                other[s] += s == c->seat ? 0u : c->v->forces[loc][s] + c->v->special[loc][s];
        }
        for (unsigned s = 0; s < c->v->config.n_seats; s++)
            most = other[s] > most ? other[s] : most;
        if (mine >= most) {
            bot__action_lo(out, l);
            return BOT_OK;
        }
    }
    return -1;
}

/* Pays for a shipment with its Karama only when its ally ships; declines
 * any other seat (the answer is always legal, and a seat is named at most
 * once a shipment turn, so declining never loops). */
int bot__medium_karama_ship(engine_action *out, bot__ctx *c)
{
    const engine_legal *l = bot__family(c, ENGINE_ACTION_SHIP_KARAMA_ANSWER);
    if (l == NULL)
        return -1;
    bot__action_lo(out, l);
    const engine_frame *ship = engine_window_find(c->v, ENGINE_WINDOW_SHIP_PAYER);
    if (ship != NULL && c->v->ally[c->seat] == ship->owner)
        out->arg[0] = l->hi[0];
    return BOT_OK;
}

/* TAKE UP ARMS (Advanced Bene Gesserit, LR 2.02.16): advisors moved in as
 * fighters (a move family with `fighters` 1) are worth it where they
 * would outnumber every other faction there, a stronghold most of all;
 * elsewhere they stay advisors, out of the battle. Public facts only. */
static int take_up_arms(const bot__ctx *c, unsigned territory, unsigned n)
{
    unsigned most = 0;
    for (unsigned s = 0; s < c->v->config.n_seats; s++)
        if (s != c->seat) {
            unsigned f = bot__forces_in(c->v, territory, s);
            most = f > most ? f : most;
        }
    if (n <= most)
        return -4;
    return engine_territory_is_stronghold(territory) ? 6 : 1;
}

void bot__move_candidates(bot__candidates *cs, bot__ctx *c, const bot__board *b,
                          bot__bonus_fn bonus)
{
    cs->n = 0;
    for (size_t i = 0; i < c->n_legal; i++) {
        const engine_legal *l = &c->legal[i];
        engine_action act;
        if (l->kind == ENGINE_ACTION_MOVE_PASS) {
            bot__action_lo(&act, l);
            bot__candidates_add(cs, &act, 0);
            continue;
        }
        if (l->kind != ENGINE_ACTION_MOVE && l->kind != ENGINE_ACTION_HAJR_MOVE)
            continue;
        /* A group is plain forces, its elite forces going along when all
         * of them go; or (a family of elite forces alone) the elite. */
        unsigned from = (unsigned)l->lo[0], loc = (unsigned)l->lo[1];
        unsigned elite_only = l->hi[2] == 0;
        int ns[10];
        unsigned nn = elite_only ? counts(ns, l->lo[3], l->hi[3]) : counts(ns, l->lo[2], l->hi[2]);
        for (unsigned k = 0; k < nn; k++) {
            unsigned e = elite_only ? (unsigned)ns[k] : ns[k] == l->hi[2] ? (unsigned)l->hi[3] : 0u;
            unsigned n = (elite_only ? 0u : (unsigned)ns[k]) + e;
            int value;
            if (engine_location_territory(loc) == from)
                value = -(int)n; /* a reshuffle within the territory */
            else
                value = bot__place_value(c, b, loc, n) - bot__leave_cost(c, b, from, n);
            if (bonus != NULL)
                value += bonus(c, b, loc, n);
            if (l->lo[5] == 1)
                value += take_up_arms(c, engine_location_territory(loc), n);
            bot__action_lo(&act, l);
            act.arg[2] = (int16_t)(n - e);
            act.arg[3] = (int16_t)e;
            bot__candidates_add(cs, &act, value);
        }
    }
}

int bot__medium_move(engine_action *out, bot__ctx *c)
{
    bot__board b;
    bot__board_init(&b, c->v, c->seat);
    bot__candidates cs;
    bot__move_candidates(&cs, c, &b, NULL);
    if (cs.n > 0 && cs.score[0] >= 4) {
        *out = cs.act[0];
        return BOT_OK;
    }
    return bot__plain(out, c, ENGINE_ACTION_MOVE_PASS);
}

/* =========================================================== battle */

int bot__medium_battle_choose(engine_action *out, bot__ctx *c)
{
    const engine_legal *best = NULL;
    int best_edge = 0;
    for (size_t i = 0; i < c->n_legal; i++) {
        const engine_legal *l = &c->legal[i];
        if (l->kind != ENGINE_ACTION_BATTLE_CHOOSE)
            continue;
        int other = bot__seat_of(c->v, (unsigned)l->lo[1]);
        unsigned t = (unsigned)l->lo[0];
        int edge = (int)bot__forces_in(c->v, t, c->seat) -
                   (other >= 0 ? (int)bot__forces_in(c->v, t, (unsigned)other) : 0);
        if (best == NULL || edge > best_edge) {
            best = l;
            best_edge = edge;
        }
    }
    if (best == NULL)
        return -1;
    bot__action_lo(out, best);
    return BOT_OK;
}

/* Medium's plan, by rule of thumb: its strongest leader, a weapon and a
 * defense when it has them (worthless cards to get rid of them), and the
 * dial that beats the opponent's forces and best leader if it can; when
 * it cannot, the weakest leader, no cards and no dial: the loser loses
 * everything there anyway. */
int bot__medium_plan(engine_action *out, bot__ctx *c)
{
    const engine_state *v = c->v;
    bot__battle bt;
    bot__battle_init(&bt, c);
    int need = (int)bt.theirs + (int)bt.their_leader + (bt.side == 0 ? 0 : 1);
    const engine_legal *best = NULL;
    int best_score = 0, hopeless = 0;
    unsigned my_best = bot__best_leader(v, c->seat, bt.t);
    if ((int)(bt.mine + my_best) < need - 2)
        hopeless = 1;
    for (size_t i = 0; i < c->n_legal; i++) {
        const engine_legal *l = &c->legal[i];
        if (l->kind != ENGINE_ACTION_BATTLE_PLAN)
            continue;
        int strength = l->lo[0] >= 0 ? (int)engine_leader_strength((unsigned)l->lo[0]) : 0;
        unsigned wc = l->lo[2] >= 0 ? engine_card_kind_classes(bot__kind_of(v, (unsigned)l->lo[2])) : 0;
        unsigned dc = l->lo[3] >= 0 ? engine_card_kind_classes(bot__kind_of(v, (unsigned)l->lo[3])) : 0;
        int score;
        if (hopeless)
            score = -strength * 4 - (l->lo[2] >= 0 && !(wc & ENGINE_CARD_CLASS_WORTHLESS)) * 10 -
                    (l->lo[3] >= 0 && !(dc & ENGINE_CARD_CLASS_WORTHLESS)) * 10 + (l->lo[1] >= 0) * 30;
        else
            score = strength * 4 +
                    ((wc & (ENGINE_CARD_CLASS_WEAPON_PROJECTILE | ENGINE_CARD_CLASS_WEAPON_POISON)) ? 10 : 0) +
                    ((dc & (ENGINE_CARD_CLASS_DEFENSE_PROJECTILE | ENGINE_CARD_CLASS_DEFENSE_POISON)) ? 10 : 0) +
                    ((wc | dc) & ENGINE_CARD_CLASS_WORTHLESS ? 1 : 0) - (l->lo[1] >= 0) * 20;
        if (best == NULL || score > best_score) {
            best = l;
            best_score = score;
        }
    }
    if (best == NULL)
        return -1;
    bot__action_lo(out, best);
    int strength = best->lo[0] >= 0 ? (int)engine_leader_strength((unsigned)best->lo[0]) : 0;
    int dial = hopeless ? 0 : need - strength;
    out->arg[4] = (int16_t)bot__clamp(dial, best->lo[4], best->hi[4]);
    return BOT_OK;
}

/* The Advanced dial's answer (a family per support, strengths in half
 * points): a strength above half the opponent's forces, the smallest,
 * with the least spice, but some while the seat holds any (its plans buy
 * strength with support, as when unasked); else the greatest strength. */
static int medium_dial_answer(engine_action *out, bot__ctx *c)
{
    bot__battle bt;
    bot__battle_init(&bt, c);
    int target2 = 2 * ((int)bt.theirs / 2 + 1);
    int has_spice = c->v->seat[c->seat].spice > 0;
    long best_score = 0;
    int best = -1, best_v = 0;
    for (size_t i = 0; i < c->n_legal; i++) {
        const engine_legal *l = &c->legal[i];
        if (l->kind != ENGINE_ACTION_PRESCIENCE_ANSWER)
            continue;
        int support = l->lo[1] - 1; /* held as n + 1 */
        int reach = l->hi[0] >= target2;
        int v = !reach ? l->hi[0] : l->lo[0] > target2 ? l->lo[0] : target2;
        long score = (reach ? 1000000L : 0) + (support > 0 || !has_spice ? 100000L : 0) -
                     100L * support + (reach ? -v : v);
        if (best < 0 || score > best_score) {
            best = (int)i;
            best_score = score;
            best_v = v;
        }
    }
    if (best < 0)
        return -1;
    bot__action_lo(out, &c->legal[best]);
    out->arg[0] = (int16_t)best_v;
    return BOT_OK;
}

/* Answers the prescience question with what its plan will hold. */
int bot__medium_prescience_answer(engine_action *out, bot__ctx *c)
{
    const engine_state *v = c->v;
    const engine_legal *best = NULL;
    int best_score = 0;
    for (size_t i = 0; i < c->n_legal; i++) {
        const engine_legal *l = &c->legal[i];
        if (l->kind != ENGINE_ACTION_PRESCIENCE_ANSWER)
            continue;
        int value = l->lo[0], score;
        switch (engine_battle_prescience(v)) {
        case ENGINE_PRESCIENCE_LEADER: /* the strongest, a Cheap Hero after any leader */
            score = value >= 0 ? (int)engine_leader_strength((unsigned)value) * 10 + 1 : 0;
            break;
        case ENGINE_PRESCIENCE_WEAPON:
        case ENGINE_PRESCIENCE_DEFENSE:
            score = value >= 0 ? bot__faction_card_worth(c, bot__kind_of(v, (unsigned)value)) : 0;
            break;
        default: /* the dial */
            score = 0;
            break;
        }
        if (best == NULL || score > best_score) {
            best = l;
            best_score = score;
        }
    }
    if (best == NULL)
        return -1;
    bot__action_lo(out, best);
    if (engine_battle_prescience(v) == ENGINE_PRESCIENCE_DIAL && engine_is_advanced(v))
        return medium_dial_answer(out, c);
    if (engine_battle_prescience(v) == ENGINE_PRESCIENCE_DIAL) {
        bot__battle bt;
        bot__battle_init(&bt, c);
        out->arg[0] = (int16_t)bot__clamp((int)bt.theirs / 2 + 1, best->lo[0], best->hi[0]);
    }
    return BOT_OK;
}

/* A Karama window: cancel a Voice or prescience question held against
 * this seat's own battle when the battle matters, the Kwisatz Haderach
 * about to join its battle (Advanced, rules version 7), a stop of the
 * Emperor's or Fremen's Advanced abilities (version 8,
 * bots/karama_stops.c), or the Fremen's immunity when a worm is about to
 * strike 6 or more of their forces; let every other advantage stand. */
int bot__medium_karama(engine_action *out, bot__ctx *c)
{
    const engine_state *v = c->v;
    const engine_legal *cancel = bot__family(c, ENGINE_ACTION_KARAMA_CANCEL);
    static const engine_frame closed; /* no window: nothing offered, nothing held */
    const engine_frame *window = engine_window_find(v, ENGINE_WINDOW_KARAMA);
    if (window == NULL)
        window = &closed;
    const engine_action *held = &window->held;
    int fights = v->phase == ENGINE_PHASE_BATTLE &&
                 (v->battle_seat[0] == c->seat || v->battle_seat[1] == c->seat);
    if (cancel != NULL && fights && engine_territory_is_stronghold(v->battle_territory)) {
        unsigned classes = bot__hand_classes(v, c->seat);
        unsigned voice_class = held->kind == ENGINE_ACTION_VOICE ? (unsigned)held->arg[1] : 0;
        unsigned element = held->kind == ENGINE_ACTION_PRESCIENCE ? (unsigned)held->arg[0] : 0;
        int hurts = voice_class != 0 && !held->arg[0] &&
                    ((voice_class == ENGINE_VOICE_POISON_WEAPON && (classes & ENGINE_CARD_CLASS_WEAPON_POISON)) ||
                     (voice_class == ENGINE_VOICE_PROJECTILE_WEAPON && (classes & ENGINE_CARD_CLASS_WEAPON_PROJECTILE)) ||
                     (voice_class == ENGINE_VOICE_POISON_DEFENSE && (classes & ENGINE_CARD_CLASS_DEFENSE_POISON)) ||
                     (voice_class == ENGINE_VOICE_PROJECTILE_DEFENSE && (classes & ENGINE_CARD_CLASS_DEFENSE_PROJECTILE)));
        if (hurts || element == ENGINE_PRESCIENCE_WEAPON || element == ENGINE_PRESCIENCE_DEFENSE) {
            bot__action_lo(out, cancel);
            return BOT_OK;
        }
    }
    /* The token's +2 about to join its own battle, wherever it is. */
    if (cancel != NULL && fights && (window->rows & ENGINE_ADVANTAGE_BIT(ENGINE_ADVANTAGE_ATREIDES_KH))) {
        bot__action_lo(out, cancel);
        out->arg[0] = ENGINE_ADVANTAGE_ATREIDES_KH;
        return BOT_OK;
    }
    /* Rules version 8: the Emperor's and Fremen's Advanced abilities. */
    if (bot__karama_stops(out, c, window, cancel) == BOT_OK)
        return BOT_OK;
    /* One of its own strong leaders about to be captured or killed by the
     * Harkonnen after its battle (rules version 8): keep it. */
    if (cancel != NULL && fights && v->capture_leader != 0 &&
        (window->rows & ENGINE_ADVANTAGE_BIT(ENGINE_ADVANTAGE_HARKONNEN_CAPTURE)) &&
        engine_leader_faction(v->capture_leader - 1u) == c->faction &&
        engine_leader_strength(v->capture_leader - 1u) >= 4) {
        bot__action_lo(out, cancel);
        out->arg[0] = ENGINE_ADVANTAGE_HARKONNEN_CAPTURE;
        return BOT_OK;
    }
    /* A worm about to strike a large Fremen army: let it be devoured. */
    int fremen = bot__seat_of(v, ENGINE_FACTION_FREMEN);
    if (cancel != NULL && v->phase == ENGINE_PHASE_SPICE_BLOW && fremen >= 0 &&
        v->ally[c->seat] != fremen &&
        (window->rows & ENGINE_ADVANTAGE_BIT(ENGINE_ADVANTAGE_FREMEN_WORM))) {
        unsigned at_stake = 0;
        for (unsigned l = 0; l < ENGINE_LOCATION_COUNT; l++)
            if (engine_location_territory(l) == (unsigned)held->arg[0])
                at_stake += (unsigned)v->forces[l][fremen] + v->special[l][fremen];
        if (at_stake >= 6) {
            bot__action_lo(out, cancel);
            out->arg[0] = ENGINE_ADVANTAGE_FREMEN_WORM;
            return BOT_OK;
        }
    }
    return bot__plain(out, c, ENGINE_ACTION_KARAMA_ALLOW);
}
