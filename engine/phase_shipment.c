/*
 * phase_shipment.c - Shipment and Movement, Basic game (DUNE_RULES_DIGEST.md
 * 4.6, LR 1.06; rulings in docs/RULINGS.md "Shipment and Movement"): in
 * storm order each seat makes one shipment, then one move. Shipment costs
 * 1 per force into a stronghold and 2 elsewhere, paid to the Guild or the
 * bank (Guild and its ally half price; Karama at half price to the bank,
 * the shipper's own or, named and willing, another seat's: the proposal is
 * held and that seat alone asked, docs/RULINGS.md R67);
 * the Guild may also ship site to site or back to reserves (each of these
 * advantages waits on a Karama window first, engine/karama.c); the Fremen send
 * their reserves free near the Great Flat; the Bene Gesserit may send a
 * force free to the Polar Sink when another faction ships from off-planet.
 * A move takes one group from one territory to one location: 1 territory,
 * Fremen 2, 3 with ornithopters (forces in Arrakeen or Carthag); never into,
 * out of or through the storm, nor into or through a stronghold two other
 * factions hold. Forces ending beside their ally's (but in the Polar Sink)
 * are lost. Atreides see the top card of the spice deck.
 */
#include <assert.h>
#include <string.h>

#include "engine/phase.h"

#define SEAT_NONE 0xFF
#define CARD_NONE 0xFF
#define FAR 0xFF
#define ORNITHOPTER_MOVES 3 /* territories a move crosses with ornithopters (4.6) */

/* ====================================================== places, paths */

static int in_territory(unsigned loc, unsigned territory)
{
    return engine__locations[loc].territory == territory;
}

static unsigned forces_in(const engine_state *st, unsigned territory, unsigned seat,
                          unsigned *elite_out)
{
    unsigned plain = 0, elite = 0;
    for (unsigned l = 0; l < ENGINE_LOCATION_COUNT; l++)
        if (in_territory(l, territory)) {
            plain += st->forces[l][seat];
            elite += st->special[l][seat];
        }
    if (elite_out)
        *elite_out = elite;
    return plain;
}

/* The plain tokens of `seat` at `l` that move: its forces, or the Bene
 * Gesserit's advisors where theirs stand (Advanced, rules version 6 on;
 * one side per territory, so never both). */
static unsigned plain_at(const engine_state *st, unsigned l, unsigned seat)
{
    return st->forces[l][seat] +
           (st->advisors[l] && engine__advisors_moving(st, seat, engine__locations[l].territory)
                ? st->advisors[l]
                : 0u);
}

/* Territories a group of `seat` leaving `territory` may cross in one
 * move (LR 1.06.05, 2.04.06): 1 as the rows of ENGINE__POINT_MOVE_ALLOWANCE
 * change it (the Fremen's 2 is an advantage a Karama may cancel for one
 * move); advisors never use ornithopters (LR 2.02.12). */
static unsigned allowance(const engine_state *st, unsigned seat, unsigned territory)
{
    if (engine__advisors_moving(st, seat, territory))
        return 1;
    if (engine_seat_has_ornithopters(st, seat))
        return ORNITHOPTER_MOVES;
    return (unsigned)engine__point_value(st, ENGINE__POINT_MOVE_ALLOWANCE, seat, 1);
}

/* The advantage a move by `seat` crossing more than one territory within
 * `limit` uses: that of the row that raised its allowance (the Fremen's
 * F1), or NONE (ornithopters, no row, or a Karama cancelled it). */
static unsigned far_advantage(const engine_state *st, unsigned seat, unsigned limit)
{
    const engine__power_row *r = engine__point_row(st, ENGINE__POINT_MOVE_ALLOWANCE, seat, NULL);
    return r && limit > 1 &&
                   limit == (unsigned)engine__point_value(st, ENGINE__POINT_MOVE_ALLOWANCE, seat, 1)
               ? r->advantage
               : ENGINE_ADVANTAGE_NONE;
}

/* Territories crossed on the shortest path from `from` to every location,
 * FAR where none: same-territory steps cost 0, borders 1; no location in
 * storm, no stronghold two other factions hold (LR 1.06.05.02-03). */
static void distances(uint8_t dist[ENGINE_LOCATION_COUNT], const engine_state *st,
                      unsigned from, unsigned seat)
{
    /* 0-1 breadth-first search: a double-ended queue of locations, steps
     * within a territory at the front, border crossings at the back. */
    uint8_t queue[2 * ENGINE_LOCATION_COUNT * ENGINE_LOCATION_MAX_ADJ];
    size_t head = (size_t)ENGINE_LOCATION_COUNT * ENGINE_LOCATION_MAX_ADJ, tail = head;
    memset(dist, FAR, ENGINE_LOCATION_COUNT);
    if (engine__in_storm(st, from))
        return;
    dist[from] = 0;
    queue[tail++] = (uint8_t)from;
    while (head < tail) {
        unsigned l = queue[head++];
        const engine__location_row *row = &engine__locations[l];
        for (unsigned i = 0; i < row->n_adj; i++) {
            unsigned m = row->adj[i];
            unsigned t = engine__locations[m].territory;
            if (engine__in_storm(st, m))
                continue;
            int crossing = t != row->territory;
            if (crossing && engine__stronghold_full(st, t, seat))
                continue;
            unsigned d = (unsigned)dist[l] + (crossing ? 1u : 0u);
            if (d >= dist[m])
                continue;
            dist[m] = (uint8_t)d;
            if (crossing)
                queue[tail++] = (uint8_t)m;
            else
                queue[--head] = (uint8_t)m;
        }
    }
}

/* 1 if forces standing at `l` may not be part of a move to `to`: from
 * rules version 3 on a move ends in a different sector (LR 1.06.08). */
static int stays(const engine_state *st, unsigned l, unsigned to)
{
    return l == to && engine__rule(st, ENGINE__RULE_MOVE_TO_DIFFERENT_SECTOR);
}

/* 1 if location l of the move's territory is one the group may leave:
 * every one when the move names no source (0), else the one it names
 * (rules version 4 on, LR 1.06.05). */
static int from_source(unsigned l, unsigned source)
{
    return source == 0 || l == source;
}

/* Forces of `seat` in `territory` (at `source` when it names one) that can
 * reach `to` this move. */
static unsigned movable(const engine_state *st, unsigned seat, unsigned territory, unsigned to,
                        unsigned source, unsigned *elite_out)
{
    uint8_t dist[ENGINE_LOCATION_COUNT];
    unsigned limit = allowance(st, seat, territory), plain = 0, elite = 0;
    for (unsigned l = 0; l < ENGINE_LOCATION_HMS; l++) {
        if (!in_territory(l, territory) || !from_source(l, source) ||
            !(plain_at(st, l, seat) || st->special[l][seat]) || stays(st, l, to))
            continue;
        distances(dist, st, l, seat);
        if (dist[to] <= limit) {
            plain += plain_at(st, l, seat);
            elite += st->special[l][seat];
        }
    }
    *elite_out = elite;
    return plain;
}

/* The forces of `seat` in `territory` go to the Tanks when its ally has
 * forces there, but in the Polar Sink (LR 1.06.07). In the Advanced game
 * (rules version 6 on) the Bene Gesserit's advisors count as forces for
 * it, both ways (D2, docs/RULINGS.md R112). */
static void ally_losses(engine_state *st, unsigned seat, unsigned territory)
{
    uint8_t a = st->ally[seat];
    if (a == SEAT_NONE || territory == ENGINE_TERRITORY_POLAR_SINK)
        return;
    unsigned elite;
    if (!forces_in(st, territory, a, &elite) && !elite && !engine__advisors_arriving(st, a, territory))
        return;
    int advisors = engine__advisors_moving(st, seat, territory);
    for (unsigned l = 0; l < ENGINE_LOCATION_COUNT; l++)
        if (in_territory(l, territory)) {
            engine__forces_to_tanks(st, l, (uint8_t)seat, st->forces[l][seat], st->special[l][seat]);
            if (advisors)
                engine__advisors_lost(st, seat, l);
        }
}

/* Forces ending a shipment or move beside their ally's: lost at once
 * under rules version 2; from version 3 on the seat's forces in every
 * territory it shares with its ally are lost at the end of its Shipment
 * and Movement instead (end_seat), so a group shipped beside the ally may
 * still move away (docs/RULINGS.md R39). */
static void ally_conflict(engine_state *st, unsigned seat, unsigned territory)
{
    if (!engine__rule(st, ENGINE__RULE_ALLY_TANKS_AFTER_MOVEMENT))
        ally_losses(st, seat, territory);
}

/* 1 if `seat` may put forces at `loc` now (ship or send): not in the
 * storm, and not a third faction in a stronghold, but as advisors joining
 * its advisors there (Advanced, LR 1.06.03.05, 2.02.20). */
static int may_land_at(const engine_state *st, unsigned loc, unsigned seat, int storm_ok)
{
    if (loc >= ENGINE_LOCATION_HMS || (engine__in_storm(st, loc) && !storm_ok))
        return 0;
    unsigned t = engine__locations[loc].territory;
    return !engine__stronghold_full(st, t, seat) || engine__advisors_arriving(st, seat, t);
}

static int may_land(const engine_state *st, unsigned loc, unsigned seat)
{
    return may_land_at(st, loc, seat, 0);
}

/* Storm migration (Advanced Fremen, rules version 7 on, LR 2.04.17): a
 * send may land in the storm, where the point's rows say how many of the
 * forces sent die at once. */
static int migrates(const engine_state *st, unsigned seat)
{
    return engine__point_holds(st, ENGINE__POINT_SEND_INTO_STORM, seat);
}

static int may_send_land(const engine_state *st, unsigned loc, unsigned seat)
{
    return may_land_at(st, loc, seat, migrates(st, seat));
}

/* ============================================================ shipping */

/* The advantage of the row at `p` that applies to `seat` (the Guild's
 * own or its ally's), or NONE: no row, or a Karama cancelled it for this
 * shipment. */
static unsigned uncancelled(const engine_state *st, engine__point p, unsigned seat)
{
    const engine__power_row *r = engine__point_row(st, p, seat, NULL);
    unsigned a = r ? r->advantage : ENGINE_ADVANTAGE_NONE;
    return a != ENGINE_ADVANTAGE_NONE && !engine__karama_cancelled(st, a) ? a
                                                                           : ENGINE_ADVANTAGE_NONE;
}

/* The half-price advantage `seat` ships with now (G4, G5), or NONE: none,
 * or a Karama cancelled it for this shipment. */
static unsigned half_price(const engine_state *st, unsigned seat)
{
    return uncancelled(st, ENGINE__POINT_SHIPPING_HALF, seat);
}

/* The site-to-site or return advantage `seat` may use now (G2, G3 for the
 * Guild; G6 for its ally), or NONE. */
static unsigned special_shipment(const engine_state *st, unsigned seat, engine__point p)
{
    return uncancelled(st, p, seat);
}

/* The price of shipping n forces to `loc` (LR 1.06.02; 2.06.06, 2.06.09). */
static unsigned ship_cost(const engine_state *st, unsigned seat, unsigned loc, unsigned n,
                          int karama)
{
    unsigned per = engine__territories[engine__locations[loc].territory].kind ==
                           ENGINE_TERRAIN_STRONGHOLD ? 1u : 2u;
    unsigned full = per * n;
    return (karama || half_price(st, seat) != ENGINE_ADVANTAGE_NONE) ? (full + 1) / 2 : full;
}

unsigned engine__ship_cost(const engine_state *st, unsigned seat, unsigned loc, unsigned n,
                           int karama)
{
    return ship_cost(st, seat, loc, n, karama);
}

/* 1 if a shipment by `seat` costing `cost` pays the Guild (LR 2.06.04). */
static int pays_guild(const engine_state *st, unsigned seat, unsigned cost, int karama)
{
    int guild = engine__point_owner(st, ENGINE__POINT_SHIPPING_PAYEE);
    return guild >= 0 && (unsigned)guild != seat && !karama && cost > 0;
}

/* The advantages a shipment by `seat` uses, each of which a Karama window
 * may cancel: the half price, the Guild's payment, and `special` (G2, G3,
 * G6 or NONE). */
static uint32_t shipment_advantages(const engine_state *st, unsigned seat, unsigned cost,
                                    int karama, int is_half, unsigned special)
{
    uint32_t used = 0;
    unsigned half = half_price(st, seat);
    if (is_half && !karama && half != ENGINE_ADVANTAGE_NONE)
        used |= ENGINE_ADVANTAGE_BIT(half);
    if (pays_guild(st, seat, cost, karama))
        used |= ENGINE_ADVANTAGE_BIT(engine__point_owner_advantage(st, ENGINE__POINT_SHIPPING_PAYEE));
    if (special != ENGINE_ADVANTAGE_NONE)
        used |= ENGINE_ADVANTAGE_BIT(special);
    return used;
}

/* Pays the Guild, or the bank when there is no Guild, the Guild pays, a
 * Karama bought the rate or a Karama cancelled the Guild's payment
 * (LR 2.06.02, 2.06.04, 3.01.11). */
static void pay_shipment(engine_state *st, unsigned seat, unsigned cost, int karama)
{
    int guild = engine__point_owner(st, ENGINE__POINT_SHIPPING_PAYEE);
    st->seat[seat].spice = (uint16_t)(st->seat[seat].spice - cost);
    if (pays_guild(st, seat, cost, karama) &&
        !engine__karama_consume_at(st, ENGINE__POINT_SHIPPING_PAYEE))
        st->seat[guild].spice = (uint16_t)(st->seat[guild].spice + cost);
    else
        st->spice_burned += cost;
}

/* The seats that send their reserves instead of shipping (the Fremen,
 * LR 2.04.05), and where to: the row of ENGINE__POINT_SHIP_SEND. */
static int sends(const engine_state *st, unsigned seat)
{
    return engine__point_holds(st, ENGINE__POINT_SHIP_SEND, seat);
}

static int may_send_to(const engine_state *st, unsigned seat, unsigned loc)
{
    return engine__point_allows(st, ENGINE__POINT_SHIP_SEND, seat, (int)loc);
}

/* =========================================================== the turn */

static void begin_seat(engine_state *st, engine_rng *rng);

static void await_seat(engine_state *st, unsigned step, unsigned seat)
{
    st->step = (uint8_t)step;
    st->awaiting = ENGINE_SEAT_BIT(seat);
    st->answered = 0;
}

/* ------------------------------------------- a turn at any one boundary */

/* The seat owning ENGINE__POINT_SHIP_ANY_TIME (Advanced, rules version 7
 * on: the Guild, LR 2.06.12), or -1. It takes its whole turn (one
 * shipment, then one move) at any one boundary of the phase: the start,
 * or after any other seat's complete turn. At each boundary before its
 * storm-order place it is asked whether it acts now (window
 * ENGINE__WINDOW_TURN_NOW), at its place whether it delays
 * (ENGINE__WINDOW_TURN_DELAY, not asked once it is the only one left),
 * after it whether it acts now; all others done, it acts. Acting out of
 * order is held for a Karama (the point's row); stopped, it acts at its
 * storm-order place (ENGINE_GUILD_TURN_IN_ORDER). */
static int any_time_seat(const engine_state *st)
{
    return engine__point_owner(st, ENGINE__POINT_SHIP_ANY_TIME);
}

unsigned engine__ship_seat(const engine_state *st)
{
    if (st->guild_turn & ENGINE_GUILD_TURN_ACTING)
        return (unsigned)any_time_seat(st);
    if (st->ship_index >= st->config.n_seats)
        return SEAT_NONE;
    uint8_t order[ENGINE_MAX_SEATS];
    engine__storm_order(st, order);
    return order[st->ship_index];
}

/* The seat in turn, inside the phase's turns (there is one). */
static unsigned current_seat(const engine_state *st)
{
    unsigned seat = engine__ship_seat(st);
    assert(seat < ENGINE_MAX_SEATS);
    return seat;
}

/* 1 if the any-time seat `g` may still take its turn this phase. */
static int may_act_any_time(const engine_state *st, int g)
{
    return g >= 0 && !(st->guild_turn & (ENGINE_GUILD_TURN_DONE | ENGINE_GUILD_TURN_ACTING));
}

/* The any-time seat takes its turn now, ahead of `ship_index`, or last,
 * having delayed (a Karama that kept it in order after its place was
 * passed leaves it the last turn: nothing of that is left to keep). */
static void act_any_time(engine_state *st, unsigned g)
{
    st->guild_turn = (uint8_t)((st->guild_turn & ~ENGINE_GUILD_TURN_IN_ORDER) |
                               ENGINE_GUILD_TURN_ACTING);
    await_seat(st, SHIP_STEP_SHIP, g);
}

/* A boundary of the phase: the next seat in storm order is up, unless
 * the any-time seat, asked here, acts first. `ask` is 0 right after it
 * delayed (the same boundary). */
static void boundary(engine_state *st, engine_rng *rng, int ask)
{
    unsigned n = st->config.n_seats;
    int g = any_time_seat(st);
    uint8_t order[ENGINE_MAX_SEATS];
    engine__storm_order(st, order);
    /* its place in storm order, once it has had its turn: passed over */
    if (st->ship_index < n && g >= 0 && order[st->ship_index] == (unsigned)g &&
        (st->guild_turn & ENGINE_GUILD_TURN_DONE))
        st->ship_index++;
    if (st->ship_index >= n) {
        if (may_act_any_time(st, g)) {
            act_any_time(st, (unsigned)g); /* it delayed to the last */
            return;
        }
        st->guild_turn = 0;
        engine__battle_begin(st, rng);
        return;
    }
    unsigned next = order[st->ship_index];
    await_seat(st, SHIP_STEP_SHIP, next);
    if (!may_act_any_time(st, g))
        return;
    uint16_t bit = ENGINE_SEAT_BIT((unsigned)g);
    if (next == (unsigned)g) {
        /* its storm-order place: it may delay, unless stopped or last */
        if (!(st->guild_turn & ENGINE_GUILD_TURN_IN_ORDER) && st->ship_index + 1u < n)
            engine__window_open(st, engine_window_id(ENGINE__WINDOW_TURN_DELAY), (unsigned)g,
                                (unsigned)g, NULL, bit);
    } else if (ask && !(st->guild_turn & ENGINE_GUILD_TURN_IN_ORDER)) {
        engine__window_open(st, engine_window_id(ENGINE__WINDOW_TURN_NOW), (unsigned)g,
                            (unsigned)g, NULL, bit);
    }
}

/* The any-time seat answered at a boundary (its windows' close, after a
 * Karama window on acting out of order, if any, resumed): `out_of_order`
 * 1 if it acts now ahead of its place or delays at it, `stopped` 1 if a
 * Karama cancelled that, when it keeps its storm-order place. */
void engine__guild_turn_answered(engine_state *st, int out_of_order, int stopped, engine_rng *rng)
{
    int g = any_time_seat(st);
    if (g < 0 || !out_of_order)
        return; /* the step below, as it was */
    if (stopped) {
        st->guild_turn |= ENGINE_GUILD_TURN_IN_ORDER;
        return;
    }
    if (engine__ship_seat(st) == (unsigned)g) { /* it delays: the next seat is up */
        st->ship_index++;
        boundary(st, rng, 0);
        return;
    }
    act_any_time(st, (unsigned)g);
}

static void end_seat(engine_state *st, engine_rng *rng)
{
    if (engine__nexus_ship_again(st, current_seat(st))) {
        st->has_moved = 0;
        await_seat(st, SHIP_STEP_SHIP, current_seat(st));
        return;
    }
    unsigned seat = current_seat(st);
    if (engine__rule(st, ENGINE__RULE_ALLY_TANKS_AFTER_MOVEMENT))
        for (unsigned t = 0; t < ENGINE_TERRITORY_COUNT; t++)
            ally_losses(st, seat, t);
    st->has_moved = 0;
    int g = any_time_seat(st);
    if (g >= 0 && seat == (unsigned)g) {
        int acted_out_of_order = (st->guild_turn & ENGINE_GUILD_TURN_ACTING) != 0;
        st->guild_turn = ENGINE_GUILD_TURN_DONE;
        if (acted_out_of_order) {
            begin_seat(st, rng); /* the seat it went ahead of is up, unasked */
            return;
        }
    }
    st->ship_index++;
    begin_seat(st, rng);
}

static void begin_seat(engine_state *st, engine_rng *rng)
{
    boundary(st, rng, 1);
}

/* The seat's SHIP step is over: the seats it named are forgotten. */
static void to_move(engine_state *st)
{
    st->karama_ship_named = 0;
    await_seat(st, SHIP_STEP_MOVE, current_seat(st));
    if (engine__nexus_shipped_again(st, current_seat(st)))
        st->has_moved = 1;
}

/* Atreides see the top card of the spice deck (LR 2.01.07), unless a
 * Karama prevented it; then the first seat ships. */
void engine__shipment_resume(engine_state *st, engine_rng *rng)
{
    int atreides = engine__point_owner(st, ENGINE__POINT_SPICE_PEEK);
    if (!engine__karama_consume_at(st, ENGINE__POINT_SPICE_PEEK) && atreides >= 0 &&
        st->n_spice_deck > 0)
        st->spice_card[st->spice_deck[st->n_spice_deck - 1]].known_by |=
            ENGINE_SEAT_BIT(atreides);
    begin_seat(st, rng);
}

/* The Atreides' look is prevented by a Karama before it happens
 * (LR 3.01.11.02): a window holds the phase's start first. */
void engine__shipment_begin(engine_state *st, engine_rng *rng)
{
    st->emperor_ally_revivals = 0;
    engine__phase_enter(st, ENGINE_PHASE_SHIPMENT_MOVEMENT);
    st->ship_index = 0;
    st->guild_turn = 0;
    int atreides = engine__point_owner(st, ENGINE__POINT_SPICE_PEEK);
    if (atreides >= 0 && st->n_spice_deck > 0) {
        engine_action step;
        memset(&step, 0, sizeof step);
        step.seat = (uint8_t)atreides;
        if (engine__karama_hold(st, &step,
                                ENGINE_ADVANTAGE_BIT(engine__point_owner_advantage(
                                    st, ENGINE__POINT_SPICE_PEEK)),
                                (unsigned)atreides))
            return;
    }
    engine__shipment_resume(st, rng);
}

/* After an off-planet shipment by another faction to `loc` the Bene
 * Gesserit may send one force free to the Polar Sink (LR 2.02.05), or in
 * the Advanced game an advisor to `loc` (LR 2.02.11): a BG_SEND window
 * over the shipper's SHIP step asks them. */
static void after_shipment(engine_state *st, unsigned shipper, int off_planet, unsigned loc)
{
    int bg = engine__point_owner(st, ENGINE__POINT_SHIPMENT_MADE);
    st->karama_ship_named = 0;
    if (off_planet && bg >= 0 && (unsigned)bg != shipper && st->seat[bg].reserves > 0) {
        st->bg_accompany = (uint8_t)engine__advisors_accompany_at(st, shipper, loc);
        engine__frame_push(st, ENGINE_WINDOW_BG_SEND, shipper, (unsigned)bg, NULL,
                           ENGINE_SEAT_BIT((unsigned)bg));
        return;
    }
    to_move(st);
}

/* The Bene Gesserit answered: the shipper moves. */
void engine__bg_send_resume(engine_state *st, const engine_frame *f, const engine_action *answer,
                            engine_rng *rng)
{
    (void)f;
    (void)answer;
    (void)rng;
    st->bg_accompany = 0;
    to_move(st);
}

/* The forces of a shipment from reserves by `seat` (arguments 0..2 of
 * SHIP and SHIP_KARAMA_FROM). Mutates nothing. */
static engine_verdict ship_source(engine_verdict_detail *why, const engine_state *st,
                                  unsigned seat, int loc, int plain, int elite)
{
    const engine_seat_state *p = &st->seat[seat];
    if (sends(st, seat))
        return engine__reject(why, ENGINE_REJECT_FREMEN_CANNOT_SHIP, -1, 0);
    if (loc < 0 || loc >= ENGINE_LOCATION_HMS)
        return engine__reject(why, ENGINE_REJECT_ARG_OUT_OF_RANGE, 0, loc);
    if (plain < 0 || elite < 0 || plain + elite < 1 || plain > p->reserves ||
        elite > p->special_reserves)
        return engine__reject(why, ENGINE_REJECT_NOT_ENOUGH_FORCES, 1, plain);
    return ENGINE_ACCEPTED;
}

/* Where it lands and what it costs (at the Karama rate when `karama`):
 * *cost_out the price. Mutates nothing. */
static engine_verdict ship_landing(engine_verdict_detail *why, const engine_state *st,
                                   unsigned seat, int loc, unsigned n, int karama,
                                   unsigned *cost_out)
{
    if (engine__in_storm(st, (unsigned)loc))
        return engine__reject(why, ENGINE_REJECT_STORM_BLOCKS, 0, loc);
    if (!may_land(st, (unsigned)loc, seat))
        return engine__reject(why, ENGINE_REJECT_OCCUPANCY_LIMIT, 0, loc);
    unsigned cost = ship_cost(st, seat, (unsigned)loc, n, karama);
    if (cost > st->seat[seat].spice)
        return engine__reject(why, ENGINE_REJECT_CANNOT_PAY, -1, (int32_t)cost);
    *cost_out = cost;
    return ENGINE_ACCEPTED;
}

/* Makes a shipment from reserves already checked: pays, lands, then the
 * Bene Gesserit may send (R37). */
static void land(engine_state *st, unsigned seat, unsigned loc, unsigned plain, unsigned elite,
                 unsigned cost, int karama)
{
    engine_seat_state *p = &st->seat[seat];
    pay_shipment(st, seat, cost, karama);
    p->reserves = (uint8_t)(p->reserves - plain);
    p->special_reserves = (uint8_t)(p->special_reserves - elite);
    engine__tokens_arrive(st, seat, loc, plain, elite);
    ally_conflict(st, seat, engine__locations[loc].territory);
    after_shipment(st, seat, 1, loc);
}

/* Normal shipment from reserves: args location, forces, elite, karama. */
engine_verdict engine__ship(engine_verdict_detail *why, engine_state *st, const engine_action *act,
                            engine_rng *rng)
{
    (void)rng;
    int loc = act->arg[0], plain = act->arg[1], elite = act->arg[2], karama = act->arg[3];
    engine_verdict v = ship_source(why, st, act->seat, loc, plain, elite);
    if (v != ENGINE_ACCEPTED)
        return v;
    if (karama < 0 || karama > 1)
        return engine__reject(why, ENGINE_REJECT_ARG_OUT_OF_RANGE, 3, karama);
    unsigned card = karama ? engine_karama_card(st, act->seat) : CARD_NONE;
    if (karama && card == CARD_NONE)
        return engine__reject(why, ENGINE_REJECT_NO_KARAMA, 3, karama);
    unsigned cost;
    v = ship_landing(why, st, act->seat, loc, (unsigned)(plain + elite), karama, &cost);
    if (v != ENGINE_ACCEPTED)
        return v;
    if (engine__karama_hold(st, act,
                            shipment_advantages(st, act->seat, cost, karama, 1,
                                                ENGINE_ADVANTAGE_NONE),
                            act->seat))
        return ENGINE_ACCEPTED;
    if (engine__guild_stop_hold(st, act)) /* Advanced, rules version 8 (R138) */
        return ENGINE_ACCEPTED;
    if (engine__advisors_intrusion_hold(st, act)) /* INTRUSION (rules version 8) */
        return ENGINE_ACCEPTED;
    if (card != CARD_NONE)
        engine__treachery_discard(st, card);
    land(st, act->seat, (unsigned)loc, (unsigned)plain, (unsigned)elite, cost, karama);
    return ENGINE_ACCEPTED;
}

/* ====================================== shipments a Nexus panel prices */

/* 1 while `seat` may ship from reserves now: its own SHIP step, no window
 * open, and it ships (the Fremen send instead). */
int engine__panel_may_ship(const engine_state *st, unsigned seat)
{
    return engine__panel_shipment_turn(st, seat) && st->seat[seat].reserves > 0;
}

int engine__panel_shipment_turn(const engine_state *st, unsigned seat)
{
    return st->phase == ENGINE_PHASE_SHIPMENT_MOVEMENT && st->step == SHIP_STEP_SHIP &&
           engine_window_top(st) == NULL && (st->awaiting & ENGINE_SEAT_BIT(seat)) &&
           !(st->answered & ENGINE_SEAT_BIT(seat)) && !sends(st, seat);
}

int engine__panel_may_land(const engine_state *st, unsigned seat, unsigned loc)
{
    return may_land(st, loc, seat);
}

unsigned engine__ship_price(unsigned loc)
{
    return engine__territories[engine__locations[loc].territory].kind == ENGINE_TERRAIN_STRONGHOLD
               ? 1u : 2u;
}

/* A shipment from reserves a Nexus panel prices (engine/nexus_guild.c,
 * nexus_richese.c): checked as any shipment from reserves, `cost` paid to
 * the bank (`to_bank`) or as any shipment, landed as any (the Bene
 * Gesserit may send after it); no Karama window: the panel is the card
 * played (docs/RULINGS.md R92, R93). */
engine_verdict engine__ship_by_panel(engine_verdict_detail *why, engine_state *st, unsigned seat,
                                     int loc, int forces, unsigned cost, int to_bank)
{
    engine_verdict v = ship_source(why, st, seat, loc, forces, 0);
    if (v != ENGINE_ACCEPTED)
        return v;
    if (engine__in_storm(st, (unsigned)loc))
        return engine__reject(why, ENGINE_REJECT_STORM_BLOCKS, 0, loc);
    if (!may_land(st, (unsigned)loc, seat))
        return engine__reject(why, ENGINE_REJECT_OCCUPANCY_LIMIT, 0, loc);
    if (cost > st->seat[seat].spice)
        return engine__reject(why, ENGINE_REJECT_CANNOT_PAY, -1, (int32_t)cost);
    land(st, seat, (unsigned)loc, (unsigned)forces, 0, cost, to_bank);
    return ENGINE_ACCEPTED;
}

/* A shipment from the board a Nexus panel makes instead of the seat's
 * shipment (engine/nexus_guild.c): `forces` of its own from `from` to
 * `to`, or back to its reserves when `to` is -1, `cost` paid to the bank;
 * checked in full first, as the Guild's own (engine__cross_ship,
 * engine__ship_back), and no Karama window (the card played, R92). */
engine_verdict engine__ship_board_by_panel(engine_verdict_detail *why, engine_state *st,
                                           unsigned seat, int from, int to, int forces,
                                           unsigned cost)
{
    if (from < 0 || from >= ENGINE_LOCATION_HMS)
        return engine__reject(why, ENGINE_REJECT_ARG_OUT_OF_RANGE, 1, from);
    if (to < -1 || to >= ENGINE_LOCATION_HMS || to == from)
        return engine__reject(why, ENGINE_REJECT_ARG_OUT_OF_RANGE, 2, to);
    if (forces < 1 || forces > st->forces[from][seat])
        return engine__reject(why, ENGINE_REJECT_NOT_ENOUGH_FORCES, to < 0 ? 2 : 3, forces);
    if (engine__in_storm(st, (unsigned)from))
        return engine__reject(why, ENGINE_REJECT_STORM_BLOCKS, 1, from);
    if (to >= 0 && engine__in_storm(st, (unsigned)to))
        return engine__reject(why, ENGINE_REJECT_STORM_BLOCKS, 2, to);
    if (to >= 0 && !may_land(st, (unsigned)to, seat))
        return engine__reject(why, ENGINE_REJECT_OCCUPANCY_LIMIT, 2, to);
    if (cost > st->seat[seat].spice)
        return engine__reject(why, ENGINE_REJECT_CANNOT_PAY, -1, (int32_t)cost);
    pay_shipment(st, seat, cost, 1);
    st->forces[from][seat] = (uint8_t)(st->forces[from][seat] - forces);
    if (to < 0) {
        st->seat[seat].reserves = (uint8_t)(st->seat[seat].reserves + forces);
    } else {
        engine__tokens_arrive(st, seat, (unsigned)to, (unsigned)forces, 0);
        ally_conflict(st, seat, engine__locations[to].territory);
    }
    to_move(st);
    return ENGINE_ACCEPTED;
}

/* A seat the shipper may name as payer now: another seat, holding a
 * treachery card (hand sizes are public), not named yet this shipment turn
 * (docs/RULINGS.md R67). Its hand is not looked at. */
static int may_name(const engine_state *st, unsigned shipper, unsigned payer)
{
    return payer != shipper && !(st->karama_ship_named & ENGINE_SEAT_BIT(payer)) &&
           engine__holds_cards(st, payer);
}

/* A shipment from reserves at Guild rates paid to the bank, with the
 * Karama of another seat (LR 3.01.11.03 "for any faction"; [FAQ20]): args
 * location, forces, elite, the payer's faction. Checked in full, then held:
 * the game waits on the payer alone (R67). */
engine_verdict engine__ship_karama_from(engine_verdict_detail *why, engine_state *st,
                                        const engine_action *act, engine_rng *rng)
{
    (void)rng;
    int loc = act->arg[0], plain = act->arg[1], elite = act->arg[2], f = act->arg[3];
    engine_verdict v = ship_source(why, st, act->seat, loc, plain, elite);
    if (v != ENGINE_ACCEPTED)
        return v;
    int payer = f >= 0 && f < ENGINE_FACTION_COUNT ? engine__seat_of(st, (unsigned)f) : -1;
    if (payer < 0 || payer == act->seat)
        return engine__reject(why, ENGINE_REJECT_ARG_OUT_OF_RANGE, 3, f);
    if (st->karama_ship_named & ENGINE_SEAT_BIT(payer))
        return engine__reject(why, ENGINE_REJECT_ALREADY_PROPOSED, 3, f);
    if (!engine__holds_cards(st, (unsigned)payer))
        return engine__reject(why, ENGINE_REJECT_PAYER_HOLDS_NO_CARDS, 3, f);
    unsigned cost;
    v = ship_landing(why, st, act->seat, loc, (unsigned)(plain + elite), 1, &cost);
    if (v != ENGINE_ACCEPTED)
        return v;
    st->karama_ship_named |= ENGINE_SEAT_BIT(payer);
    engine__frame_push(st, ENGINE_WINDOW_SHIP_PAYER, act->seat, (unsigned)payer, act,
                       ENGINE_SEAT_BIT((unsigned)payer));
    return ENGINE_ACCEPTED;
}

/* The payer's answer: 1 discards its Karama face up and the held shipment
 * is made at the Karama rate, paid to the bank (R34, R61); 0 declines and
 * gives the shipper its SHIP step back as it was. */
engine_verdict engine__ship_karama_answer(engine_verdict_detail *why, engine_state *st,
                                          const engine_action *act, engine_rng *rng)
{
    int pay = act->arg[0];
    if (pay < 0 || pay > 1)
        return engine__reject(why, ENGINE_REJECT_ARG_OUT_OF_RANGE, 0, pay);
    if (pay && engine_karama_card(st, act->seat) == CARD_NONE)
        return engine__reject(why, ENGINE_REJECT_NO_KARAMA, 0, pay);
    engine__frame_close(st, act, rng);
    return ENGINE_ACCEPTED;
}

/* The payer answered: the window is off the stack and the shipper's SHIP
 * step is below it as it was; paid, the held shipment is made. */
void engine__ship_karama_resume(engine_state *st, const engine_frame *f,
                                const engine_action *answer, engine_rng *rng)
{
    if (!answer->arg[0] || engine__guild_stop_hold(st, &f->held))
        return;
    engine__shipment_made_held(st, &f->held, rng);
}

void engine__shipment_made_held(engine_state *st, const engine_action *made, engine_rng *rng)
{
    if (made->kind == ENGINE_ACTION_SHIP) {
        engine__ship(NULL, st, made, rng);
        return;
    }
    unsigned payer = (unsigned)engine__seat_of(st, (unsigned)made->arg[3]);
    unsigned card = engine_karama_card(st, payer);
    unsigned loc = (unsigned)made->arg[0], plain = (unsigned)made->arg[1],
             elite = (unsigned)made->arg[2];
    engine__treachery_discard(st, card);
    land(st, made->seat, loc, plain, elite, ship_cost(st, made->seat, loc, plain + elite, 1), 1);
    /* The shipper has acted: a cancellation it retook with is used up. */
    engine__karama_after(st, made);
}

void engine__shipment_cancelled(engine_state *st, const engine_action *made)
{
    to_move(st);
    engine__karama_after(st, made);
}

/* Fremen send: args location, forces, elite (LR 2.04.05). */
engine_verdict engine__fremen_send(engine_verdict_detail *why, engine_state *st,
                                   const engine_action *act, engine_rng *rng)
{
    (void)rng;
    engine_seat_state *p = &st->seat[act->seat];
    int loc = act->arg[0], plain = act->arg[1], elite = act->arg[2];
    if (!sends(st, act->seat))
        return engine__reject(why, ENGINE_REJECT_NOT_YOUR_POWER, -1, 0);
    if (loc < 0 || loc >= ENGINE_LOCATION_HMS || !may_send_to(st, act->seat, (unsigned)loc))
        return engine__reject(why, ENGINE_REJECT_SEND_DESTINATION, 0, loc);
    if (plain < 0 || elite < 0 || plain + elite < 1 || plain > p->reserves ||
        elite > p->special_reserves)
        return engine__reject(why, ENGINE_REJECT_NOT_ENOUGH_FORCES, 1, plain);
    int into_storm = engine__in_storm(st, (unsigned)loc);
    if (into_storm && !migrates(st, act->seat))
        return engine__reject(why, ENGINE_REJECT_STORM_BLOCKS, 0, loc);
    if (!may_send_land(st, (unsigned)loc, act->seat))
        return engine__reject(why, ENGINE_REJECT_OCCUPANCY_LIMIT, 0, loc);
    if (engine__advisors_intrusion_hold(st, act))
        return ENGINE_ACCEPTED;
    p->reserves = (uint8_t)(p->reserves - plain);
    p->special_reserves = (uint8_t)(p->special_reserves - elite);
    st->forces[loc][act->seat] = (uint8_t)(st->forces[loc][act->seat] + plain);
    st->special[loc][act->seat] = (uint8_t)(st->special[loc][act->seat] + elite);
    if (into_storm) {
        /* those the rows say die at once, plain forces first (R125) */
        unsigned lose = (unsigned)engine__point_value(st, ENGINE__POINT_SEND_INTO_STORM, act->seat,
                                                      plain + elite);
        unsigned lose_plain = lose < (unsigned)plain ? lose : (unsigned)plain;
        engine__forces_to_tanks(st, (unsigned)loc, act->seat, lose_plain, lose - lose_plain);
    }
    ally_conflict(st, act->seat, engine__locations[loc].territory);
    after_shipment(st, act->seat, 0, (unsigned)loc);
    return ENGINE_ACCEPTED;
}

/* Guild (or its ally) ships from one location to another at half price:
 * args from, to, forces, elite (LR 2.06.05.02, 2.06.10). */
engine_verdict engine__cross_ship(engine_verdict_detail *why, engine_state *st,
                                  const engine_action *act, engine_rng *rng)
{
    (void)rng;
    int from = act->arg[0], to = act->arg[1], plain = act->arg[2], elite = act->arg[3];
    if (!engine__point_holds(st, ENGINE__POINT_SHIP_ACROSS, act->seat))
        return engine__reject(why, ENGINE_REJECT_NOT_YOUR_POWER, -1, 0);
    unsigned special = special_shipment(st, act->seat, ENGINE__POINT_SHIP_ACROSS);
    if (special == ENGINE_ADVANTAGE_NONE)
        return engine__reject(why, ENGINE_REJECT_ADVANTAGE_CANCELLED, -1, 0);
    if (from < 0 || from >= ENGINE_LOCATION_HMS || to < 0 || to >= ENGINE_LOCATION_HMS || from == to)
        return engine__reject(why, ENGINE_REJECT_ARG_OUT_OF_RANGE, from == to ? 1 : 0, to);
    if (plain < 0 || elite < 0 || plain + elite < 1 || plain > st->forces[from][act->seat] ||
        elite > st->special[from][act->seat])
        return engine__reject(why, ENGINE_REJECT_NOT_ENOUGH_FORCES, 2, plain);
    if (engine__in_storm(st, (unsigned)from) || engine__in_storm(st, (unsigned)to))
        return engine__reject(why, ENGINE_REJECT_STORM_BLOCKS, 1, to);
    if (!may_land(st, (unsigned)to, act->seat))
        return engine__reject(why, ENGINE_REJECT_OCCUPANCY_LIMIT, 1, to);
    unsigned cost = ship_cost(st, act->seat, (unsigned)to, (unsigned)(plain + elite), 0);
    if (cost > st->seat[act->seat].spice)
        return engine__reject(why, ENGINE_REJECT_CANNOT_PAY, -1, (int32_t)cost);
    if (engine__karama_hold(st, act, shipment_advantages(st, act->seat, cost, 0, 1, special),
                            act->seat))
        return ENGINE_ACCEPTED;
    if (engine__locations[from].territory != engine__locations[to].territory &&
        engine__advisors_intrusion_hold(st, act))
        return ENGINE_ACCEPTED;
    pay_shipment(st, act->seat, cost, 0);
    st->forces[from][act->seat] = (uint8_t)(st->forces[from][act->seat] - plain);
    st->special[from][act->seat] = (uint8_t)(st->special[from][act->seat] - elite);
    engine__tokens_arrive(st, act->seat, (unsigned)to, (unsigned)plain, (unsigned)elite);
    ally_conflict(st, act->seat, engine__locations[to].territory);
    to_move(st);
    return ENGINE_ACCEPTED;
}

/* Guild (or its ally) ships from the board back to reserves, 1 spice per
 * 2 forces rounded up: args from, forces, elite (LR 2.06.05). */
engine_verdict engine__ship_back(engine_verdict_detail *why, engine_state *st,
                                 const engine_action *act, engine_rng *rng)
{
    (void)rng;
    int from = act->arg[0], plain = act->arg[1], elite = act->arg[2];
    engine_seat_state *p = &st->seat[act->seat];
    /* the Guild's alone, not its ally's (LR 2.06.05, 2.06.10) */
    if (!engine__point_holds(st, ENGINE__POINT_SHIP_BACK, act->seat))
        return engine__reject(why, ENGINE_REJECT_NOT_YOUR_POWER, -1, 0);
    unsigned special = special_shipment(st, act->seat, ENGINE__POINT_SHIP_BACK);
    if (special == ENGINE_ADVANTAGE_NONE)
        return engine__reject(why, ENGINE_REJECT_ADVANTAGE_CANCELLED, -1, 0);
    if (from < 0 || from >= ENGINE_LOCATION_HMS)
        return engine__reject(why, ENGINE_REJECT_ARG_OUT_OF_RANGE, 0, from);
    if (plain < 0 || elite < 0 || plain + elite < 1 || plain > st->forces[from][act->seat] ||
        elite > st->special[from][act->seat])
        return engine__reject(why, ENGINE_REJECT_NOT_ENOUGH_FORCES, 1, plain);
    if (engine__in_storm(st, (unsigned)from))
        return engine__reject(why, ENGINE_REJECT_STORM_BLOCKS, 0, from);
    unsigned cost = (unsigned)(plain + elite + 1) / 2;
    if (cost > p->spice)
        return engine__reject(why, ENGINE_REJECT_CANNOT_PAY, -1, (int32_t)cost);
    if (engine__karama_hold(st, act, shipment_advantages(st, act->seat, cost, 0, 0, special),
                            act->seat))
        return ENGINE_ACCEPTED;
    pay_shipment(st, act->seat, cost, 0);
    st->forces[from][act->seat] = (uint8_t)(st->forces[from][act->seat] - plain);
    st->special[from][act->seat] = (uint8_t)(st->special[from][act->seat] - elite);
    p->reserves = (uint8_t)(p->reserves + plain);
    p->special_reserves = (uint8_t)(p->special_reserves + elite);
    to_move(st);
    return ENGINE_ACCEPTED;
}

engine_verdict engine__ship_pass(engine_verdict_detail *why, engine_state *st,
                                 const engine_action *act, engine_rng *rng)
{
    (void)why;
    (void)act;
    (void)rng;
    to_move(st);
    return ENGINE_ACCEPTED;
}

/* The Bene Gesserit answer: 1 sends a force to the Polar Sink, 0 not; `to`
 * (rules version 4 on) names the destination, which in the Basic game is
 * the Polar Sink alone, location 0, as when it is absent (LR 2.02.05). In
 * the Advanced game (rules version 6 on) it may instead be the location of
 * the shipment just made, where the force is an advisor (LR 2.02.11). */
engine_verdict engine__bg_send(engine_verdict_detail *why, engine_state *st,
                               const engine_action *act, engine_rng *rng)
{
    int yes = act->arg[0], to = act->arg[1];
    int with = st->bg_accompany ? st->bg_accompany - 1 : -1;
    if (yes < 0 || yes > 1)
        return engine__reject(why, ENGINE_REJECT_ARG_OUT_OF_RANGE, 0, yes);
    if (to != 0 && (to != with || !yes))
        return engine__reject(why, ENGINE_REJECT_SEND_DESTINATION, 1, to);
    if (yes) {
        if (st->seat[act->seat].reserves == 0)
            return engine__reject(why, ENGINE_REJECT_NOT_ENOUGH_FORCES, 0, yes);
        unsigned send = engine__point_owner_advantage(st, ENGINE__POINT_SHIPMENT_MADE);
        if (engine__karama_cancelled(st, send))
            return engine__reject(why, ENGINE_REJECT_ADVANTAGE_CANCELLED, 0, yes);
        if (engine__karama_hold(st, act, ENGINE_ADVANTAGE_BIT(send),
                                act->seat))
            return ENGINE_ACCEPTED;
        st->seat[act->seat].reserves--;
        if (to == with)
            st->advisors[to]++;
        else /* location 0 is the Polar Sink */
            engine__tokens_arrive(st, act->seat, 0, 1, 0);
    }
    engine__frame_close(st, act, rng);
    return ENGINE_ACCEPTED;
}

/* A move: args from territory, to location, forces, elite and (rules
 * version 4 on) source, the location of `from` it leaves. *held_out is
 * set when the move waits on a Karama window instead (the Fremen crossing
 * a second territory, LR 2.04.06). */
static engine_verdict move(engine_verdict_detail *why, engine_state *st, const engine_action *act,
                           int *held_out)
{
    *held_out = 0;
    int from = act->arg[0], to = act->arg[1], plain = act->arg[2], elite = act->arg[3];
    int source = act->arg[4], fighters = act->arg[5];
    if (from < 0 || from >= ENGINE_TERRITORY_HIDDEN_MOBILE_STRONGHOLD)
        return engine__reject(why, ENGINE_REJECT_ARG_OUT_OF_RANGE, 0, from);
    if (to < 0 || to >= ENGINE_LOCATION_HMS)
        return engine__reject(why, ENGINE_REJECT_ARG_OUT_OF_RANGE, 1, to);
    if (source < 0 || source >= ENGINE_LOCATION_HMS ||
        (source != 0 && !in_territory((unsigned)source, (unsigned)from)))
        return engine__reject(why, ENGINE_REJECT_ARG_OUT_OF_RANGE, 4, source);
    if (source != 0 && !plain_at(st, (unsigned)source, act->seat) &&
        !st->special[source][act->seat])
        return engine__reject(why, ENGINE_REJECT_NOT_ENOUGH_FORCES, 4, source);
    if (plain < 0 || elite < 0 || plain + elite < 1)
        return engine__reject(why, ENGINE_REJECT_NOT_ENOUGH_FORCES, 2, plain);
    if (engine__in_storm(st, (unsigned)to))
        return engine__reject(why, ENGINE_REJECT_STORM_BLOCKS, 1, to);
    unsigned dest = engine__locations[to].territory;
    if (dest != (unsigned)from && engine__stronghold_full(st, dest, act->seat))
        return engine__reject(why, ENGINE_REJECT_OCCUPANCY_LIMIT, 1, to);
    if (fighters != 0 &&
        (fighters != 1 || !engine__advisors_may_take_up_arms(st, act->seat, (unsigned)from, dest)))
        return engine__reject(why, ENGINE_REJECT_ARG_OUT_OF_RANGE, 5, fighters);
    unsigned have_elite;
    unsigned have = movable(st, act->seat, (unsigned)from, (unsigned)to, (unsigned)source,
                            &have_elite);
    if ((unsigned)plain > have || (unsigned)elite > have_elite) {
        /* Forces standing in the storm cannot leave it (LR 1.06.05.02). */
        int all_in_storm = 1, any = 0;
        for (unsigned l = 0; l < ENGINE_LOCATION_HMS; l++)
            if (in_territory(l, (unsigned)from) && from_source(l, (unsigned)source) &&
                (plain_at(st, l, act->seat) || st->special[l][act->seat])) {
                any = 1;
                all_in_storm &= engine__in_storm(st, l);
            }
        int only_staying = stays(st, (unsigned)to, (unsigned)to) && in_territory((unsigned)to, (unsigned)from) &&
                           from_source((unsigned)to, (unsigned)source) &&
                           (plain_at(st, (unsigned)to, act->seat) || st->special[to][act->seat]);
        engine_verdict v = have + have_elite ? ENGINE_REJECT_NOT_ENOUGH_FORCES
                           : any && all_in_storm ? ENGINE_REJECT_STORM_BLOCKS
                           : only_staying        ? ENGINE_REJECT_MOVE_SAME_SECTOR
                                                 : ENGINE_REJECT_NO_PATH;
        return engine__reject(why, v, 1, to);
    }
    /* Take the group from the source sectors that reach, in location order. */
    uint8_t dist[ENGINE_LOCATION_COUNT];
    unsigned limit = allowance(st, act->seat, (unsigned)from), left = (unsigned)plain,
             left_e = (unsigned)elite;
    uint8_t take[ENGINE_LOCATION_COUNT][2];
    memset(take, 0, sizeof take);
    int is_far = 0; /* a group taken crosses more than one territory */
    for (unsigned l = 0; l < ENGINE_LOCATION_HMS && (left || left_e); l++) {
        if (!in_territory(l, (unsigned)from) || !from_source(l, (unsigned)source) ||
            !(plain_at(st, l, act->seat) || st->special[l][act->seat]) ||
            stays(st, l, (unsigned)to))
            continue;
        distances(dist, st, l, act->seat);
        if (dist[to] > limit)
            continue;
        is_far |= dist[to] > 1;
        unsigned here = plain_at(st, l, act->seat);
        unsigned p = here < left ? here : left;
        unsigned e = st->special[l][act->seat] < left_e ? st->special[l][act->seat] : left_e;
        take[l][0] = (uint8_t)p;
        take[l][1] = (uint8_t)e;
        left -= p;
        left_e -= e;
    }
    unsigned power = far_advantage(st, act->seat, limit);
    if (is_far && power != ENGINE_ADVANTAGE_NONE &&
        engine__karama_hold(st, act, ENGINE_ADVANTAGE_BIT(power), act->seat)) {
        *held_out = 1;
        return ENGINE_ACCEPTED;
    }
    /* Rules version 7: taking up arms is a flip a Karama may stop. */
    if (fighters == 1 && engine__advisors_flip_held(st, act, act->seat)) {
        *held_out = 1;
        return ENGINE_ACCEPTED;
    }
    if (dest != (unsigned)from && engine__advisors_intrusion_hold(st, act)) {
        *held_out = 1; /* INTRUSION (rules version 8) */
        return ENGINE_ACCEPTED;
    }
    if (fighters == 1 && engine__advisors_flip_stopped(st))
        fighters = 0;
    int as_advisors = engine__advisors_moving(st, act->seat, (unsigned)from);
    int stay_advisors = as_advisors && !fighters && engine__advisors_stay(st, act->seat, dest);
    for (unsigned l = 0; l < ENGINE_LOCATION_HMS; l++) {
        uint8_t *group = as_advisors ? &st->advisors[l] : &st->forces[l][act->seat];
        *group = (uint8_t)(*group - take[l][0]);
        st->special[l][act->seat] = (uint8_t)(st->special[l][act->seat] - take[l][1]);
    }
    if (stay_advisors)
        st->advisors[to] = (uint8_t)(st->advisors[to] + plain);
    else
        engine__tokens_arrive(st, act->seat, (unsigned)to, (unsigned)plain, (unsigned)elite);
    ally_conflict(st, act->seat, dest);
    return ENGINE_ACCEPTED;
}

/* The seat's own move is made. From rules version 3 on a seat holding any
 * card (hand sizes are public) is asked once more, for a Hajr that may move
 * any group, the one just moved too (LR 3.01.09); else its turn ends. */
static void after_own_move(engine_state *st, engine_rng *rng)
{
    if (engine__rule(st, ENGINE__RULE_HAJR_AFTER_OWN_MOVE) &&
        engine__holds_cards(st, current_seat(st))) {
        st->has_moved = 1;
        return;
    }
    end_seat(st, rng);
}

engine_verdict engine__move(engine_verdict_detail *why, engine_state *st, const engine_action *act,
                            engine_rng *rng)
{
    if (st->has_moved)
        return engine__reject(why, ENGINE_REJECT_ALREADY_MOVED, -1, 0);
    int held;
    engine_verdict v = move(why, st, act, &held);
    if (v == ENGINE_ACCEPTED && !held)
        after_own_move(st, rng);
    return v;
}

/* Hajr: one more move, before the seat's own or (rules version 3 on)
 * after it, which then ends the turn (DUNE_RULES_DIGEST.md 2.1; LR 3.01.09). */
engine_verdict engine__hajr_move(engine_verdict_detail *why, engine_state *st,
                                 const engine_action *act, engine_rng *rng)
{
    unsigned card = engine__card_in_hand(st, act->seat, ENGINE_CARD_HAJR);
    if (card == CARD_NONE)
        return engine__reject(why, ENGINE_REJECT_NO_HAJR, -1, 0);
    int held;
    engine_verdict v = move(why, st, act, &held);
    if (v == ENGINE_ACCEPTED && !held) {
        engine__treachery_discard(st, card);
        if (st->has_moved)
            end_seat(st, rng);
    }
    return v;
}

engine_verdict engine__move_pass(engine_verdict_detail *why, engine_state *st,
                                 const engine_action *act, engine_rng *rng)
{
    (void)why;
    (void)act;
    end_seat(st, rng);
    return ENGINE_ACCEPTED;
}

/* ===================================================== legal families */

/* Elite forces (Sardaukar, Fedaykin) are ordinary tokens in shipment and
 * movement (LR 2.03.08, 2.04.18): a shipment or move always accepted
 * them, but before rules version 7 the legal families offered plain
 * forces only; from version 7 on they offer the elite too (R116). */
static int elite_offered_at_all(const engine_state *st)
{
    return engine__rule(st, ENGINE__RULE_ADVANCED_ELITE_FAMILIES);
}

/* The elite forces in reserve a shipment's legal families offer. */
static unsigned elite_reserves(const engine_state *st, unsigned seat)
{
    return elite_offered_at_all(st) ? st->seat[seat].special_reserves : 0u;
}

static void push(engine_legal *out, size_t cap, size_t *n, unsigned kind, uint8_t seat,
                 const int16_t lo[ENGINE_ACTION_MAX_ARGS], const int16_t hi[ENGINE_ACTION_MAX_ARGS])
{
    engine_legal l;
    engine__legal_init(&l, kind, seat);
    memcpy(l.lo, lo, sizeof l.lo);
    memcpy(l.hi, hi, sizeof l.hi);
    engine__legal_push(out, cap, n, &l);
}

/* The families of a shipment from reserves of `plain` plain and `elite`
 * elite forces, `most` of them in all (what the seat can pay for), the
 * counts in arguments 1 and 2 and the rest as `lo`/`hi` give them: plain
 * forces with elite ones, capped at `most` together, and elite forces
 * alone, so no family admits an empty shipment. */
static void push_shipment(engine_legal *out, size_t cap, size_t *n, unsigned kind, uint8_t seat,
                          int16_t lo[ENGINE_ACTION_MAX_ARGS], int16_t hi[ENGINE_ACTION_MAX_ARGS],
                          unsigned plain, unsigned elite, unsigned most)
{
    engine_legal l;
    engine__legal_init(&l, kind, seat);
    memcpy(l.lo, lo, sizeof l.lo);
    memcpy(l.hi, hi, sizeof l.hi);
    if (plain && most) {
        l.lo[1] = 1;
        l.hi[1] = (int16_t)(plain < most ? plain : most);
        l.lo[2] = 0;
        l.hi[2] = (int16_t)(elite < most - 1 ? elite : most - 1);
        if ((unsigned)(l.hi[1] + l.hi[2]) > most) {
            l.cap_mask[0] = 1u << 1 | 1u << 2;
            l.cap[0] = (int16_t)most;
        }
        engine__legal_push(out, cap, n, &l);
    }
    if (elite && most) {
        l.lo[1] = l.hi[1] = 0;
        l.lo[2] = 1;
        l.hi[2] = (int16_t)(elite < most ? elite : most);
        l.cap_mask[0] = 0;
        l.cap[0] = 0;
        engine__legal_push(out, cap, n, &l);
    }
}

/* The most forces (of `have`) whose shipping to loc costs no more than spice. */
static unsigned affordable(const engine_state *st, unsigned seat, unsigned loc, unsigned have,
                           int karama)
{
    unsigned n = have;
    while (n > 0 && ship_cost(st, seat, loc, n, karama) > st->seat[seat].spice)
        n--;
    return n;
}

/* Shipments proposed with another seat's Karama (R67): per location, the
 * forces the shipper can pay for at the Karama rate, and the factions it
 * may name as payer in runs of consecutive values. */
static size_t legal_karama_from(engine_legal *out, size_t cap, const engine_state *st,
                                uint8_t seat, size_t n)
{
    int16_t run_lo[ENGINE_FACTION_COUNT], run_hi[ENGINE_FACTION_COUNT];
    unsigned n_runs = 0;
    if (!engine__rule(st, ENGINE__RULE_KARAMA_SHIPMENT))
        return n;
    int open = 0;
    for (unsigned f = 0; f < ENGINE_FACTION_COUNT; f++) {
        int s = engine__seat_of(st, f);
        if (s >= 0 && may_name(st, seat, (unsigned)s)) {
            if (!open)
                run_lo[n_runs] = (int16_t)f;
            run_hi[n_runs] = (int16_t)f;
            open = 1;
        } else if (open) {
            n_runs++;
            open = 0;
        }
    }
    n_runs += (unsigned)open;
    if (n_runs == 0)
        return n;
    for (unsigned loc = 0; loc < ENGINE_LOCATION_HMS; loc++) {
        if (!may_land(st, loc, seat))
            continue;
        unsigned plain = st->seat[seat].reserves, elite = elite_reserves(st, seat);
        unsigned most = affordable(st, seat, loc, plain + elite, 1);
        if (most == 0)
            continue;
        for (unsigned r = 0; r < n_runs; r++) {
            int16_t lo[ENGINE_ACTION_MAX_ARGS] = {(int16_t)loc, 1, 0, run_lo[r]};
            int16_t hi[ENGINE_ACTION_MAX_ARGS] = {(int16_t)loc, (int16_t)most, 0, run_hi[r]};
            push_shipment(out, cap, &n, ENGINE_ACTION_SHIP_KARAMA_FROM, seat, lo, hi, plain, elite,
                          most);
        }
    }
    return n;
}

size_t engine__legal_ship(engine_legal *out, size_t cap, const engine_state *st, uint8_t seat)
{
    size_t n = 0;
    const engine_seat_state *p = &st->seat[seat];
    int has_karama = engine_karama_card(st, seat) != CARD_NONE;
    for (unsigned loc = 0; loc < ENGINE_LOCATION_HMS; loc++) {
        if (!(sends(st, seat) ? may_send_land(st, loc, seat) : may_land(st, loc, seat)))
            continue;
        int16_t lo[ENGINE_ACTION_MAX_ARGS] = {(int16_t)loc, 1, 0, 0};
        int16_t hi[ENGINE_ACTION_MAX_ARGS] = {(int16_t)loc, 0, 0, 0};
        unsigned elite = elite_reserves(st, seat);
        if (sends(st, seat)) {
            if (!may_send_to(st, seat, loc))
                continue;
            push_shipment(out, cap, &n, ENGINE_ACTION_FREMEN_SEND, seat, lo, hi, p->reserves,
                          elite, p->reserves + elite);
            continue;
        }
        for (int karama = 0; karama <= has_karama; karama++) {
            unsigned most = affordable(st, seat, loc, p->reserves + elite, karama);
            lo[3] = hi[3] = (int16_t)karama;
            push_shipment(out, cap, &n, ENGINE_ACTION_SHIP, seat, lo, hi, p->reserves, elite, most);
        }
    }
    if (engine__point_holds(st, ENGINE__POINT_SHIP_ACROSS, seat) ||
        engine__point_holds(st, ENGINE__POINT_SHIP_BACK, seat)) {
        for (unsigned from = 0; from < ENGINE_LOCATION_HMS; from++) {
            unsigned here = st->forces[from][seat];
            if (!here || engine__in_storm(st, from))
                continue;
            unsigned back = (here + 1) / 2 <= p->spice ? here : p->spice * 2;
            if (back > 0 && engine__point_holds(st, ENGINE__POINT_SHIP_BACK, seat) &&
                special_shipment(st, seat, ENGINE__POINT_SHIP_BACK) != ENGINE_ADVANTAGE_NONE) {
                int16_t lo[ENGINE_ACTION_MAX_ARGS] = {(int16_t)from, 1, 0};
                int16_t hi[ENGINE_ACTION_MAX_ARGS] = {(int16_t)from, (int16_t)back, 0};
                push(out, cap, &n, ENGINE_ACTION_SHIP_BACK, seat, lo, hi);
            }
            if (special_shipment(st, seat, ENGINE__POINT_SHIP_ACROSS) == ENGINE_ADVANTAGE_NONE)
                continue;
            for (unsigned to = 0; to < ENGINE_LOCATION_HMS; to++) {
                if (to == from || !may_land(st, to, seat))
                    continue;
                unsigned most = here;
                while (most > 0 && ship_cost(st, seat, to, most, 0) > p->spice)
                    most--;
                if (most == 0)
                    continue;
                int16_t lo[ENGINE_ACTION_MAX_ARGS] = {(int16_t)from, (int16_t)to, 1, 0};
                int16_t hi[ENGINE_ACTION_MAX_ARGS] = {(int16_t)from, (int16_t)to, (int16_t)most, 0};
                push(out, cap, &n, ENGINE_ACTION_CROSS_SHIP, seat, lo, hi);
            }
        }
    }
    if (!sends(st, seat))
        n = legal_karama_from(out, cap, st, seat, n);
    int16_t zero[ENGINE_ACTION_MAX_ARGS] = {0};
    push(out, cap, &n, ENGINE_ACTION_SHIP_PASS, seat, zero, zero);
    return n;
}

size_t engine__legal_ship_karama_answer(engine_legal *out, size_t cap, const engine_state *st,
                                        uint8_t seat)
{
    size_t n = 0;
    engine__legal_push1(out, cap, &n, ENGINE_ACTION_SHIP_KARAMA_ANSWER, seat, 0,
                        engine_karama_card(st, seat) != CARD_NONE, 0, 0);
    return n;
}

size_t engine__legal_bg_send(engine_legal *out, size_t cap, const engine_state *st, uint8_t seat)
{
    size_t n = 0;
    int16_t lo[ENGINE_ACTION_MAX_ARGS] = {0};
    int16_t hi[ENGINE_ACTION_MAX_ARGS] = {
        st->seat[seat].reserves > 0 &&
        !engine__karama_cancelled(st, engine__point_owner_advantage(st, ENGINE__POINT_SHIPMENT_MADE))};
    push(out, cap, &n, ENGINE_ACTION_BG_SEND, seat, lo, hi);
    /* the advisor with the shipment (Advanced, LR 2.02.11) */
    if (hi[0] && st->bg_accompany > 1) {
        lo[0] = 1;
        lo[1] = hi[1] = (int16_t)(st->bg_accompany - 1);
        push(out, cap, &n, ENGINE_ACTION_BG_SEND, seat, lo, hi);
    }
    return n;
}

/* A move family, and when the group is advisors that may take up arms
 * where it goes (LR 2.02.16) the same family with `fighters` 1. */
static size_t push_take_up_arms(engine_legal *out, size_t cap, size_t n, const engine_state *st,
                                unsigned kind, uint8_t seat, int16_t lo[ENGINE_ACTION_MAX_ARGS],
                                int16_t hi[ENGINE_ACTION_MAX_ARGS])
{
    push(out, cap, &n, kind, seat, lo, hi);
    if (engine__advisors_may_take_up_arms(st, seat, (unsigned)lo[0],
                                          engine__locations[lo[1]].territory)) {
        lo[5] = hi[5] = 1;
        push(out, cap, &n, kind, seat, lo, hi);
        lo[5] = hi[5] = 0;
    }
    return n;
}

/* The elite forces of `seat` at `l` a move's legal families offer. */
static unsigned elite_offered(const engine_state *st, unsigned l, unsigned seat)
{
    return elite_offered_at_all(st) ? st->special[l][seat] : 0u;
}

/* The families of a move from t to `to` of up to `plain` plain and
 * `elite` elite forces, source `source` (0 absent): plain forces with any
 * elite forces, and elite forces alone, so no family admits an empty group. */
static size_t push_group(engine_legal *out, size_t cap, size_t n, const engine_state *st,
                         unsigned kind, uint8_t seat, unsigned t, unsigned to, unsigned plain,
                         unsigned elite, unsigned source)
{
    int16_t lo[ENGINE_ACTION_MAX_ARGS] = {(int16_t)t, (int16_t)to, 1, 0, (int16_t)source};
    int16_t hi[ENGINE_ACTION_MAX_ARGS] = {(int16_t)t, (int16_t)to, (int16_t)plain,
                                          (int16_t)elite, (int16_t)source};
    if (plain)
        n = push_take_up_arms(out, cap, n, st, kind, seat, lo, hi);
    if (elite) {
        lo[2] = hi[2] = 0;
        lo[3] = 1;
        n = push_take_up_arms(out, cap, n, st, kind, seat, lo, hi);
    }
    return n;
}

/* The moves from t to `to` naming their source (rules version 4 on): one
 * family per location of t whose forces reach `to`. Location 0, the
 * Polar Sink's only one, is the absent source: its family is the plain one. */
static size_t legal_sources(engine_legal *out, size_t cap, const engine_state *st, uint8_t seat,
                            unsigned kind, unsigned t, unsigned to, size_t n)
{
    unsigned limit = allowance(st, seat, t);
    for (unsigned l = 1; l < ENGINE_LOCATION_HMS; l++) {
        unsigned plain = plain_at(st, l, seat), elite = elite_offered(st, l, seat);
        if (!in_territory(l, t) || !(plain || elite) || stays(st, l, to))
            continue;
        uint8_t dist[ENGINE_LOCATION_COUNT];
        distances(dist, st, l, seat);
        if (dist[to] > limit)
            continue;
        n = push_group(out, cap, n, st, kind, seat, t, to, plain, elite, l);
    }
    return n;
}

static size_t legal_moves(engine_legal *out, size_t cap, const engine_state *st, uint8_t seat,
                          unsigned kind, size_t n)
{
    for (unsigned t = 0; t < ENGINE_TERRITORY_HIDDEN_MOBILE_STRONGHOLD; t++) {
        unsigned limit = 0; /* asked once the territory holds a group */
        /* Forces that can reach each destination, summed over the sectors
         * of t they stand in (one search per sector). */
        unsigned reach[ENGINE_LOCATION_COUNT] = {0}, reach_elite[ENGINE_LOCATION_COUNT] = {0};
        int any = 0;
        for (unsigned l = 0; l < ENGINE_LOCATION_HMS; l++) {
            if (!in_territory(l, t))
                continue;
            unsigned here = plain_at(st, l, seat), elite = elite_offered(st, l, seat);
            if (!(here || elite))
                continue;
            if (!limit)
                limit = allowance(st, seat, t);
            uint8_t dist[ENGINE_LOCATION_COUNT];
            distances(dist, st, l, seat);
            for (unsigned to = 0; to < ENGINE_LOCATION_HMS; to++)
                if (dist[to] <= limit && !stays(st, l, to)) {
                    reach[to] += here;
                    reach_elite[to] += elite;
                    any = 1;
                }
        }
        if (!any)
            continue;
        for (unsigned to = 0; to < ENGINE_LOCATION_HMS; to++) {
            unsigned dest = engine__locations[to].territory;
            if (!(reach[to] || reach_elite[to]) ||
                (dest != t && engine__stronghold_full(st, dest, seat)))
                continue;
            n = push_group(out, cap, n, st, kind, seat, t, to, reach[to], reach_elite[to], 0);
            if (engine__rule(st, ENGINE__RULE_OPTIONAL_ARGS))
                n = legal_sources(out, cap, st, seat, kind, t, to, n);
        }
    }
    return n;
}

size_t engine__legal_move(engine_legal *out, size_t cap, const engine_state *st, uint8_t seat)
{
    size_t n = st->has_moved ? 0 : legal_moves(out, cap, st, seat, ENGINE_ACTION_MOVE, 0);
    if (engine__card_in_hand(st, seat, ENGINE_CARD_HAJR) != CARD_NONE)
        n = legal_moves(out, cap, st, seat, ENGINE_ACTION_HAJR_MOVE, n);
    int16_t zero[ENGINE_ACTION_MAX_ARGS] = {0};
    push(out, cap, &n, ENGINE_ACTION_MOVE_PASS, seat, zero, zero);
    return n;
}

/* ========================================================= invariants */

int engine__shipment_check(const engine_state *st)
{
    unsigned n = st->config.n_seats;
    uint16_t named = st->karama_ship_named;
    int in_phase = st->phase == ENGINE_PHASE_SHIPMENT_MOVEMENT && engine__ship_seat(st) < n;
    const engine_frame *f = engine_window_find(st, ENGINE_WINDOW_SHIP_PAYER);
    const engine_frame *send = engine_window_find(st, ENGINE_WINDOW_BG_SEND);
    if (named >> n)
        return 0;
    /* the Guild's turn: only in the phase, acting out of order only while
     * it may (never once done, nor once a Karama kept it in order) */
    unsigned turn = st->guild_turn;
    if (turn && (any_time_seat(st) < 0 || st->phase != ENGINE_PHASE_SHIPMENT_MOVEMENT ||
                 ((turn & ENGINE_GUILD_TURN_ACTING) &&
                  (turn & (ENGINE_GUILD_TURN_DONE | ENGINE_GUILD_TURN_IN_ORDER)))))
        return 0;
    /* where an advisor may follow a shipment: only while the send is asked */
    if (st->bg_accompany && (send == NULL || st->bg_accompany > ENGINE_LOCATION_HMS ||
                             !engine__advisors_encoded(st)))
        return 0;
    /* the Bene Gesserit asked over the shipper's SHIP step, after its
     * shipment (BG_SEND is a window now, never a step) */
    if (st->phase == ENGINE_PHASE_SHIPMENT_MOVEMENT && st->step == SHIP_STEP_BG_SEND)
        return 0;
    if (send != NULL) {
        int bg = engine__point_owner(st, ENGINE__POINT_SHIPMENT_MADE);
        return f == NULL && in_phase && st->step == SHIP_STEP_SHIP && named == 0 &&
               send->owner == current_seat(st) && bg >= 0 && send->user == (unsigned)bg &&
               send->owner != send->user && send->asked == ENGINE_SEAT_BIT((unsigned)bg) &&
               send->answered == 0 && send->rows == 0 && send->held.kind == ENGINE_ACTION_NONE &&
               st->awaiting == ENGINE_SEAT_BIT(send->owner) && st->answered == 0;
    }
    /* the own move made, Hajr still possible: only in the seat's MOVE step */
    if (st->has_moved > 1 || (st->has_moved && !(in_phase && st->step == SHIP_STEP_MOVE &&
                                                 engine__rule(st, ENGINE__RULE_HAJR_AFTER_OWN_MOVE))))
        return 0;
    /* KARAMA_ANSWER is a window now, never a step (it names one only in
     * the encoding of rules versions 2 and 3) */
    if (st->phase == ENGINE_PHASE_SHIPMENT_MOVEMENT && st->step == SHIP_STEP_KARAMA_ANSWER)
        return 0;
    if (f == NULL)
        return named == 0 || (in_phase && st->step == SHIP_STEP_SHIP &&
                              !(named & ENGINE_SEAT_BIT(current_seat(st))));
    unsigned seat = f->owner, payer = f->user, cost;
    const engine_action *h = &f->held;
    return in_phase && st->step == SHIP_STEP_SHIP && seat == current_seat(st) && payer < n &&
           payer != seat && (named & ENGINE_SEAT_BIT(payer)) && !(named & ENGINE_SEAT_BIT(seat)) &&
           engine_window_find(st, ENGINE_WINDOW_KARAMA) == NULL &&
           st->awaiting == ENGINE_SEAT_BIT(seat) && st->answered == 0 &&
           f->asked == ENGINE_SEAT_BIT(payer) && f->answered == 0 && f->rows == 0 &&
           h->kind == ENGINE_ACTION_SHIP_KARAMA_FROM && h->seat == seat &&
           h->arg[3] == st->seat[payer].faction && h->arg[0] >= 0 && h->arg[0] <= 0xFF &&
           h->arg[1] >= 0 && h->arg[1] <= 0xFF && h->arg[2] >= 0 && h->arg[2] <= 0xFF &&
           ship_source(NULL, st, seat, h->arg[0], h->arg[1], h->arg[2]) == ENGINE_ACCEPTED &&
           ship_landing(NULL, st, seat, h->arg[0], (unsigned)h->arg[1] + (unsigned)h->arg[2], 1,
                        &cost) == ENGINE_ACCEPTED;
}
