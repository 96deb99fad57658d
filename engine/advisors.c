/*
 * advisors.c - the Bene Gesserit's advisors on the board (Advanced, LR
 * 2.02.11-2.02.21): the side their tokens in a territory take when more
 * arrive, where an advisor may accompany another's shipment, and the
 * advisors that become fighters when alone, and the Karama that may stop a
 * flip (rules version 7). The phases call these where
 * tokens arrive or a phase begins; the rows of powers_bene_gesserit.c say
 * whom they apply to and from which rules version, so this file names no
 * faction. Engine layer: no I/O, no allocation.
 */
#include "engine/internal.h"

static int in_territory(unsigned loc, unsigned territory)
{
    return engine__locations[loc].territory == territory;
}

int engine__advisors_encoded(const engine_state *st)
{
    return st->config.is_advanced && engine__rule(st, ENGINE__RULE_ADVANCED_ADVISORS);
}

int engine__advisors_in(const engine_state *st, unsigned territory)
{
    for (unsigned l = 0; l < ENGINE_LOCATION_COUNT; l++)
        if (in_territory(l, territory) && st->advisors[l])
            return 1;
    return 0;
}

int engine__advisors_arriving(const engine_state *st, unsigned seat, unsigned territory)
{
    return engine__point_owner(st, ENGINE__POINT_ADVISORS_ARRIVE) == (int)seat &&
           engine__advisors_in(st, territory);
}

void engine__tokens_arrive(engine_state *st, unsigned seat, unsigned loc, unsigned plain,
                           unsigned elite)
{
    if (engine__advisors_arriving(st, seat, engine__locations[loc].territory))
        st->advisors[loc] = (uint8_t)(st->advisors[loc] + plain);
    else
        st->forces[loc][seat] = (uint8_t)(st->forces[loc][seat] + plain);
    st->special[loc][seat] = (uint8_t)(st->special[loc][seat] + elite);
}

int engine__advisors_moving(const engine_state *st, unsigned seat, unsigned territory)
{
    return engine__advisors_arriving(st, seat, territory);
}

int engine__advisors_stay(const engine_state *st, unsigned seat, unsigned territory)
{
    int others = 0;
    for (unsigned l = 0; l < ENGINE_LOCATION_COUNT; l++) {
        if (!in_territory(l, territory))
            continue;
        if (st->forces[l][seat] || st->special[l][seat])
            return 0; /* adaptive force: fighters there (LR 2.02.20) */
        if (st->advisors[l])
            return 1; /* adaptive force: advisors there */
        for (unsigned s = 0; s < st->config.n_seats; s++)
            others |= s != seat && (st->forces[l][s] || st->special[l][s]);
    }
    return others; /* else ENLISTMENT (LR 2.02.14) */
}

int engine__advisors_may_take_up_arms(const engine_state *st, unsigned seat, unsigned from,
                                      unsigned territory)
{
    if (!engine__advisors_moving(st, seat, from) || !engine__advisors_stay(st, seat, territory) ||
        engine__advisors_in(st, territory))
        return 0;
    /* PEACETIME (LR 2.02.18): never beside the ally's forces */
    uint8_t a = st->ally[seat];
    return a >= st->config.n_seats || !engine__occupies(st, territory, a);
}

unsigned engine__advisors_accompany_at(const engine_state *st, unsigned shipper, unsigned loc)
{
    int bg = engine__point_owner(st, ENGINE__POINT_ADVISORS_ACCOMPANY);
    if (bg < 0 || (unsigned)bg == shipper || loc >= ENGINE_LOCATION_HMS ||
        engine__occupies(st, engine__locations[loc].territory, (unsigned)bg))
        return 0;
    return loc + 1;
}

/* 1 if no other seat than `bg` has forces in `territory` (LR 2.02.21). */
static int alone(const engine_state *st, unsigned territory, unsigned bg)
{
    for (unsigned s = 0; s < st->config.n_seats; s++)
        if (s != bg && engine__occupies(st, territory, s))
            return 0;
    return 1;
}

int engine__advisors_stormed_in(const engine_state *st, unsigned territory)
{
    for (unsigned l = 0; l < ENGINE_LOCATION_COUNT; l++)
        if (in_territory(l, territory) && st->advisors[l] && engine__in_storm(st, l))
            return 1;
    return 0;
}

void engine__advisors_to_fighters(engine_state *st, unsigned bg, unsigned territory)
{
    /* every location of the territory at once: one side per territory */
    for (unsigned l = 0; l < ENGINE_LOCATION_COUNT; l++)
        if (in_territory(l, territory)) {
            st->forces[l][bg] = (uint8_t)(st->forces[l][bg] + st->advisors[l]);
            st->advisors[l] = 0;
        }
}

void engine__advisors_lost(engine_state *st, unsigned bg, unsigned loc)
{
    st->seat[bg].tanks = (uint8_t)(st->seat[bg].tanks + st->advisors[loc]);
    st->advisors[loc] = 0;
}

void engine__advisors_stewards(engine_state *st)
{
    int bg = engine__point_owner(st, ENGINE__POINT_ADVISORS_STEWARDS);
    if (bg < 0)
        return;
    for (unsigned l = 0; l < ENGINE_LOCATION_COUNT; l++) {
        unsigned t = engine__locations[l].territory;
        if (st->advisors[l] && alone(st, t, (unsigned)bg) && !engine__advisors_stormed_in(st, t))
            engine__advisors_to_fighters(st, (unsigned)bg, t);
    }
}

/* The flip's advantage is granted by the row of the point's owner (the
 * WARTIME power's, engine/powers_bene_gesserit.c). */
static unsigned flip_advantage(const engine_state *st, unsigned bg)
{
    if (!engine__rule(st, ENGINE__RULE_ADVANCED_KARAMA) || !engine__advisors_encoded(st))
        return ENGINE_ADVANTAGE_NONE;
    for (unsigned i = 0; i < ENGINE__POINT_ROWS_MAX; i++) {
        const engine__power_row *r = engine__point_row_nth(st, ENGINE__POINT_POWER, bg, i, NULL);
        if (r && r->advantage != ENGINE_ADVANTAGE_NONE && r->faction == st->seat[bg].faction &&
            engine__point_owner(st, ENGINE__POINT_ADVISORS) == (int)bg)
            return r->advantage;
    }
    return ENGINE_ADVANTAGE_NONE;
}

int engine__advisors_flip_held(engine_state *st, const engine_action *act, unsigned bg)
{
    unsigned a = flip_advantage(st, bg);
    return a != ENGINE_ADVANTAGE_NONE && engine__karama_hold(st, act, ENGINE_ADVANTAGE_BIT(a), bg);
}

int engine__advisors_flip_stopped(engine_state *st)
{
    int bg = engine__point_owner(st, ENGINE__POINT_ADVISORS);
    unsigned a = bg >= 0 ? flip_advantage(st, (unsigned)bg) : ENGINE_ADVANTAGE_NONE;
    return a != ENGINE_ADVANTAGE_NONE && engine__karama_consume(st, a);
}
