/*
 * bots/hard.c - the Hard bot: Medium's heuristics plus evaluation, and
 * defence against a stronghold victory about to happen.
 *
 * Layer: tools. Three things beyond Medium:
 *   - battle plans are scored, every legal plan and dial, by their chance
 *     of winning and what winning or losing costs: the opponent's forces
 *     and best leader, the cards this seat has seen in its hand, whether
 *     each leader survives the weapons it may meet, traitors this seat
 *     holds and traitors that may be held against it (bot__plan_score);
 *   - shipments and moves are rescored by bot__eval of the board each
 *     leaves, its battles settled by strength and its spice collected;
 *   - a rival (with its ally) that holds enough strongholds to win at the
 *     Mentat Pause, or is one short, makes contesting the weakest of its
 *     strongholds (with forces enough to win the battle there) or denying
 *     it an empty one worth more than the seat's own plans. Medium only
 *     prizes a stronghold whose holder holds two others; Hard reckons who
 *     wins as things stand, alliances and the Bene Gesserit prediction
 *     included, and weighs the Guild's turn-limit victory.
 * bot__eval scores a whole state for a seat from public facts; Brutal
 * scores the ends of its playouts with it. Like all bot code it reads the
 * seat's view only.
 */
#include <stdlib.h>
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
        if (engine_territory_is_stronghold(t) && b->tf[t][s])
            v += 10 + (int)b->tf[t][s];
    }
    v += (int)board * 3 + (int)st->seat[s].reserves * 2 + (int)st->seat[s].spice * 2;
    uint8_t hand[ENGINE_TREACHERY_MAX];
    v += (int)bot__hand(hand, st, s) * 6;
    for (unsigned l = 0; l < ENGINE_LEADER_COUNT; l++)
        if (engine_leader_holder(st, l) == (int)s)
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
    unsigned t = engine_location_territory(loc);
    if (!engine_territory_is_stronghold(t))
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
    unsigned t = engine_location_territory(loc);
    if (c->faction != ENGINE_FACTION_FREMEN || v->turn + 1 < v->config.turn_limit ||
        !engine_territory_is_fremen_sietch(t))
        return 0;
    return b->owner[t] != (int)c->seat ? 30 + (int)n : 0;
}

static int hard_bonus(const bot__ctx *c, const bot__board *b, unsigned loc, unsigned n)
{
    return defence_bonus(c, b, loc, n) + fremen_bonus(c, b, loc, n);
}

/* ======================================================= projection */

/* Takes n of the seat's forces out of territory t, location by location. */
static void take_forces(engine_state *p, unsigned t, unsigned seat, unsigned n)
{
    for (unsigned l = 0; l < ENGINE_LOCATION_COUNT && n > 0; l++) {
        if (engine_location_territory(l) != t)
            continue;
        unsigned k = p->forces[l][seat] < n ? p->forces[l][seat] : n;
        p->forces[l][seat] = (uint8_t)(p->forces[l][seat] - k);
        n -= k;
    }
}

/* The board a shipment or move leaves, then its battles settled by
 * strength (forces and best leader; the loser loses all there, the winner
 * as many as half the loser's) and its spice collected: what Hard
 * evaluates. Public facts only; `p` is a copy of the view. */
static void project(engine_state *p, const bot__ctx *c, const engine_action *act)
{
    unsigned me = c->seat;
    switch (act->kind) {
    case ENGINE_ACTION_SHIP:
    case ENGINE_ACTION_FREMEN_SEND: {
        unsigned loc = (unsigned)act->arg[0], n = (unsigned)act->arg[1];
        int cost = bot__ship_cost(c, act->kind, loc, n, act->kind == ENGINE_ACTION_SHIP && act->arg[3]);
        unsigned lands = act->kind == ENGINE_ACTION_FREMEN_SEND ? bot__send_survivors(p, loc, n) : n;
        p->forces[loc][me] = (uint8_t)(p->forces[loc][me] + lands);
        p->seat[me].reserves = (uint8_t)(p->seat[me].reserves > n ? p->seat[me].reserves - n : 0);
        p->seat[me].spice = (uint16_t)(p->seat[me].spice > cost ? p->seat[me].spice - cost : 0);
        break;
    }
    case ENGINE_ACTION_CROSS_SHIP: {
        unsigned from = (unsigned)act->arg[0], to = (unsigned)act->arg[1], n = (unsigned)act->arg[2];
        int cost = bot__ship_cost(c, act->kind, to, n, 0);
        p->forces[from][me] = (uint8_t)(p->forces[from][me] - (n < p->forces[from][me] ? n : p->forces[from][me]));
        p->forces[to][me] = (uint8_t)(p->forces[to][me] + n);
        p->seat[me].spice = (uint16_t)(p->seat[me].spice > cost ? p->seat[me].spice - cost : 0);
        break;
    }
    case ENGINE_ACTION_MOVE:
    case ENGINE_ACTION_HAJR_MOVE: {
        unsigned n = (unsigned)act->arg[2], loc = (unsigned)act->arg[1];
        take_forces(p, (unsigned)act->arg[0], me, n);
        p->forces[loc][me] = (uint8_t)(p->forces[loc][me] + n);
        break;
    }
    default:
        break;
    }
    unsigned tf[ENGINE_TERRITORY_COUNT][ENGINE_MAX_SEATS];
    bot__territory_forces(tf, p);
    for (unsigned t = 1; t < ENGINE_TERRITORY_COUNT; t++) { /* not the Polar Sink */
        for (int round = 0; round < ENGINE_MAX_SEATS; round++) {
            int a = -1, d = -1;
            for (unsigned s = 0; s < p->config.n_seats && d < 0; s++) {
                if (tf[t][s] == 0)
                    continue;
                if (a < 0)
                    a = (int)s;
                else if (p->ally[s] != a)
                    d = (int)s;
            }
            if (d < 0)
                break;
            unsigned sa = tf[t][a] + bot__best_leader(p, (unsigned)a, t);
            unsigned sd = tf[t][d] + bot__best_leader(p, (unsigned)d, t);
            int win = sa >= sd ? a : d, lose = win == a ? d : a;
            unsigned loss = tf[t][lose] / 2;
            take_forces(p, t, (unsigned)lose, tf[t][lose]);
            take_forces(p, t, (unsigned)win, loss);
            p->seat[lose].tanks = (uint8_t)(p->seat[lose].tanks + tf[t][lose]);
            tf[t][win] -= loss < tf[t][win] ? loss : tf[t][win];
            tf[t][lose] = 0;
        }
    }
    for (unsigned l = 0; l < ENGINE_LOCATION_COUNT; l++) {
        if (p->spice[l] == 0)
            continue;
        for (unsigned s = 0; s < p->config.n_seats; s++) {
            unsigned f = bot__forces_at(p, l, s);
            if (f == 0)
                continue;
            unsigned take = f * 2 < p->spice[l] ? f * 2 : p->spice[l];
            p->spice[l] = (uint8_t)(p->spice[l] - take);
            p->seat[s].spice = (uint16_t)(p->seat[s].spice + take);
        }
    }
}

#define HARD_RESCORED 10

/* Medium's best few candidates, rescored by the evaluation of the board
 * each leaves (against passing), plus the defence bonus already in them. */
static int rescore(engine_action *out, bot__ctx *c, bot__candidates *cs, unsigned pass_kind,
                   int threshold)
{
    if (cs->n == 0)
        return bot__plain(out, c, pass_kind);
    engine_state *p = malloc(sizeof *p);
    if (p == NULL) {
        free(p);
        if (cs->score[0] >= threshold) {
            *out = cs->act[0];
            return BOT_OK;
        }
        return bot__plain(out, c, pass_kind);
    }
    engine_action pass;
    if (bot__plain(&pass, c, pass_kind) != 0)
        pass = cs->act[0];
    *p = *c->v;
    project(p, c, &pass);
    int base = bot__eval(p, c->seat);
    int best = 0, best_score = 0;
    unsigned n = cs->n < HARD_RESCORED ? cs->n : HARD_RESCORED;
    for (unsigned i = 0; i < n; i++) {
        *p = *c->v;
        project(p, c, &cs->act[i]);
        int score = bot__eval(p, c->seat) - base + cs->score[i];
        if (cs->act[i].kind == pass_kind)
            score = cs->score[i];
        if (i == 0 || score > best_score) {
            best = (int)i;
            best_score = score;
        }
    }
    free(p);
    if (best_score >= threshold) {
        *out = cs->act[best];
        return BOT_OK;
    }
    return bot__plain(out, c, pass_kind);
}

int bot__hard_ship(engine_action *out, bot__ctx *c)
{
    bot__board b;
    bot__board_init(&b, c->v, c->seat);
    bot__candidates cs;
    bot__ship_candidates(&cs, c, &b, hard_bonus);
    return rescore(out, c, &cs, ENGINE_ACTION_SHIP_PASS,
                   c->faction == ENGINE_FACTION_GUILD ? 16 : 4);
}

int bot__hard_move(engine_action *out, bot__ctx *c)
{
    bot__board b;
    bot__board_init(&b, c->v, c->seat);
    bot__candidates cs;
    bot__move_candidates(&cs, c, &b, hard_bonus);
    return rescore(out, c, &cs, ENGINE_ACTION_MOVE_PASS, 4);
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

/* ========================================================== battles */

/* The battle as this seat sees it. */
void bot__battle_init(bot__battle *bt, const bot__ctx *c)
{
    const engine_state *v = c->v;
    memset(bt, 0, sizeof *bt);
    bt->t = v->battle_territory;
    bt->side = v->battle_seat[0] == c->seat ? 0 : 1;
    bt->opponent = v->battle_seat[1 - bt->side];
    if (bt->opponent >= v->config.n_seats)
        bt->opponent = c->seat;
    bt->mine = bot__forces_in(v, bt->t, c->seat);
    bt->theirs = bot__forces_in(v, bt->t, bt->opponent);
    bt->their_leader = bot__best_leader(v, bt->opponent, bt->t);
    /* The opponent's hand: kinds this seat has seen, and how many unseen. */
    for (unsigned i = 0; i < v->n_cards; i++) {
        if (v->card[i].place != ENGINE_PLACE_HAND || v->card[i].holder != bt->opponent)
            continue;
        unsigned k = v->card_kind[i];
        if (k == ENGINE_CARD_KIND_UNKNOWN)
            bt->unseen++;
        else
            bt->their_classes |= engine_card_kind_classes(k);
    }
    bt->stake = engine_territory_is_stronghold(bt->t) ? 30 : 6 + (int)bot__spice_in(v, bt->t) / 2;
    bot__board b;
    bot__board_init(&b, v, c->seat);
    if (engine_territory_is_stronghold(bt->t) && (b.held[bt->opponent] >= 3 || b.held[c->seat] >= 2))
        bt->stake += 60;
    /* The prescience answer, when this seat is on the Atreides side. */
    int atreides = bot__seat_of(v, ENGINE_FACTION_ATREIDES);
    if (atreides >= 0 && (atreides == (int)c->seat || bot__ally(v, c->seat) == atreides) &&
        bt->opponent != (unsigned)atreides) {
        bt->seen_element = engine_battle_prescience(v);
        bt->seen_value = engine_battle_prescience_answer(v);
        /* The Advanced dial is told in half points: as whole ones here. */
        if (bt->seen_element == ENGINE_PRESCIENCE_DIAL && engine_is_advanced(v))
            bt->seen_value = (bt->seen_value + 1) / 2;
    }
}

/* Chance (percent) the opponent holds and plays a card of `cls`. */
static int p_class(const bot__battle *bt, unsigned cls, int per_unseen)
{
    if (bt->their_classes & cls)
        return 85;
    return bot__clamp((int)bt->unseen * per_unseen, 0, 70);
}

int bot__plan_score(const bot__ctx *c, const bot__battle *bt, const engine_action *plan)
{
    const engine_state *v = c->v;
    int leader = plan->arg[0], hero = plan->arg[1], weapon = plan->arg[2], defense = plan->arg[3];
    int dial = plan->arg[4];
    unsigned wk = weapon >= 0 ? bot__kind_of(v, (unsigned)weapon) : ENGINE_CARD_KIND_UNKNOWN;
    unsigned dk = defense >= 0 ? bot__kind_of(v, (unsigned)defense) : ENGINE_CARD_KIND_UNKNOWN;
    unsigned wc = engine_card_kind_classes(wk), dc = engine_card_kind_classes(dk);
    int my_strength = leader >= 0 ? (int)engine_leader_strength((unsigned)leader) : 0;
    int has_leader = leader >= 0 || hero >= 0;
    /* Will my leader live? Their weapons against my defense. */
    int p_proj = p_class(bt, ENGINE_CARD_CLASS_WEAPON_PROJECTILE, 12);
    int p_poison = p_class(bt, ENGINE_CARD_CLASS_WEAPON_POISON, 12);
    int p_lasgun = p_class(bt, ENGINE_CARD_CLASS_WEAPON_SPECIAL, 3);
    if (bt->seen_element == ENGINE_PRESCIENCE_WEAPON) {
        unsigned k = bt->seen_value >= 0 ? engine_card_kind_classes(bot__kind_of(v, (unsigned)bt->seen_value)) : 0;
        p_proj = k & ENGINE_CARD_CLASS_WEAPON_PROJECTILE ? 100 : 0;
        p_poison = k & ENGINE_CARD_CLASS_WEAPON_POISON ? 100 : 0;
        p_lasgun = k & ENGINE_CARD_CLASS_WEAPON_SPECIAL ? 100 : 0;
    }
    int die = 0;
    if (!(dc & ENGINE_CARD_CLASS_DEFENSE_PROJECTILE))
        die += p_proj;
    if (!(dc & ENGINE_CARD_CLASS_DEFENSE_POISON))
        die += p_poison;
    die += p_lasgun;
    die = bot__clamp(die * 4 / 5, 0, 95);
    int my_live = has_leader ? 100 - die : 0;
    /* Will theirs? My weapon against their defense. */
    int their_live = 100;
    if (wc & ENGINE_CARD_CLASS_WEAPON_PROJECTILE)
        their_live = p_class(bt, ENGINE_CARD_CLASS_DEFENSE_PROJECTILE, 12);
    else if (wc & ENGINE_CARD_CLASS_WEAPON_POISON)
        their_live = p_class(bt, ENGINE_CARD_CLASS_DEFENSE_POISON, 12);
    else if (wc & ENGINE_CARD_CLASS_WEAPON_SPECIAL)
        their_live = 0;
    int their_strength = (int)bt->their_leader;
    if (bt->seen_element == ENGINE_PRESCIENCE_LEADER)
        their_strength = bt->seen_value >= 0 ? (int)engine_leader_strength((unsigned)bt->seen_value) : 0;
    /* Traitors: mine called on them, theirs on mine. */
    int p_betrayed = 0, p_betray = 0;
    if (leader >= 0)
        p_betrayed = (int)bot__traitor_risk(v, c->seat, (unsigned)leader, bt->opponent);
    for (unsigned l = 0; l < ENGINE_LEADER_COUNT; l++)
        if (v->traitor[l].place == ENGINE_PLACE_HAND && v->traitor[l].holder == c->seat &&
            bot__leader_ready(v, bt->opponent, l, bt->t)) {
            int likely = engine_leader_strength(l) == bt->their_leader ? 55 : 20;
            if (bt->seen_element == ENGINE_PRESCIENCE_LEADER)
                likely = bt->seen_value == (int)l ? 100 : 0;
            p_betray = p_betray > likely ? p_betray : likely;
        }
    /* Their dial: any of 0..theirs, higher more likely (weight x+1). */
    long win = 0, total = 0;
    int theirs = (int)bt->theirs;
    int x0 = 0;
    if (bt->seen_element == ENGINE_PRESCIENCE_DIAL)
        x0 = theirs = bt->seen_value;
    for (int x = x0; x <= theirs; x++) {
        long w = x + 1;
        for (int a = 0; a < 2; a++)
            for (int o = 0; o < 2; o++) {
                long p = (a ? my_live : 100 - my_live) * (long)(o ? their_live : 100 - their_live);
                int mine_total = dial + (a ? my_strength : 0);
                int their_total = x + (o ? their_strength : 0);
                int won = bt->side == 0 ? mine_total >= their_total : mine_total > their_total;
                win += won ? w * p : 0;
                total += w * p;
            }
    }
    int p_win = total ? (int)(win * 100 / total) : 50;
    p_win = p_win * (100 - p_betrayed) / 100;
    p_win = p_win + (100 - p_win) * p_betray / 100;
    /* Spice-like utility: the stake, forces kept or lost, leaders, cards. */
    int lost_if_win = dial * (100 - p_betray) / 100;
    int u_win = bt->stake + ((int)bt->mine - lost_if_win) * 2 - lost_if_win * 2 +
                (100 - their_live) * their_strength / 100;
    int u_lose = -(int)bt->mine * 2 - bt->stake / 2;
    int u = (p_win * u_win + (100 - p_win) * u_lose) / 100;
    u -= die * my_strength / 50; /* my leader's death and its price */
    u -= (100 - p_win) * (bot__faction_card_worth(c, wk) + bot__faction_card_worth(c, dk)) / 150;
    if (wc & ENGINE_CARD_CLASS_WORTHLESS)
        u += 2; /* dumped at no cost */
    if (dc & ENGINE_CARD_CLASS_WORTHLESS)
        u += 2;
    if ((wc & ENGINE_CARD_CLASS_WEAPON_SPECIAL) && (dc & ENGINE_CARD_CLASS_DEFENSE_PROJECTILE))
        u -= 40; /* a lasgun and my own shield explode */
    if (wc & ENGINE_CARD_CLASS_WEAPON_SPECIAL)
        u -= p_class(bt, ENGINE_CARD_CLASS_DEFENSE_PROJECTILE, 12) * (int)bt->mine / 40;
    return u;
}

/* The dials to try for a plan family. */
static unsigned dials(int out[24], int lo, int hi)
{
    unsigned n = 0;
    if (hi - lo < 22) {
        for (int d = lo; d <= hi; d++)
            out[n++] = d;
        return n;
    }
    for (int i = 0; i < 22; i++)
        out[n++] = lo + (hi - lo) * i / 21;
    return n;
}

static void plan_candidates(bot__candidates *cs, bot__ctx *c, const bot__battle *bt)
{
    cs->n = 0;
    for (size_t i = 0; i < c->n_legal; i++) {
        const engine_legal *l = &c->legal[i];
        if (l->kind != ENGINE_ACTION_BATTLE_PLAN)
            continue;
        int ds[24];
        unsigned nd = dials(ds, l->lo[4], l->hi[4]);
        for (unsigned k = 0; k < nd; k++) {
            engine_action act;
            bot__action_lo(&act, l);
            act.arg[4] = (int16_t)ds[k];
            bot__candidates_add(cs, &act, bot__plan_score(c, bt, &act));
        }
    }
}

unsigned bot__hard_plans(bot__candidates *cs, bot__ctx *c)
{
    bot__battle bt;
    bot__battle_init(&bt, c);
    plan_candidates(cs, c, &bt);
    return cs->n;
}

/* Hard's plan: the best of every legal plan and dial by expected worth. */
int bot__hard_plan(engine_action *out, bot__ctx *c)
{
    bot__candidates cs;
    if (bot__hard_plans(&cs, c) == 0)
        return -1;
    *out = cs.act[0];
    return BOT_OK;
}
