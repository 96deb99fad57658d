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
#include <assert.h>

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

/* ================================================ INTRUSION (version 8) */

/* The actions that bring forces into a territory, and the argument
 * naming the location they enter (engine/engine.h). */
static const struct {
    uint8_t kind, to_arg, forces_arg; /* plain forces, then elite */
} entries[] = {
    {ENGINE_ACTION_SHIP, 0, 1},       {ENGINE_ACTION_FREMEN_SEND, 0, 1},
    {ENGINE_ACTION_CROSS_SHIP, 1, 2}, {ENGINE_ACTION_MOVE, 1, 2},
    {ENGINE_ACTION_HAJR_MOVE, 1, 2},  {ENGINE_ACTION_WORM_RIDE, 0, 1},
};

/* The territory `act` enters, ENGINE_TERRITORY_COUNT if it is none of
 * the entries; *forces_out (may be NULL) the forces entering. */
static unsigned entered_by(const engine_action *act, unsigned *forces_out)
{
    for (size_t i = 0; i < sizeof entries / sizeof entries[0]; i++) {
        int loc = act->arg[entries[i].to_arg];
        if (entries[i].kind != act->kind || loc < 0 || loc >= ENGINE_LOCATION_COUNT)
            continue;
        if (forces_out)
            *forces_out = (unsigned)(act->arg[entries[i].forces_arg] +
                                     act->arg[entries[i].forces_arg + 1]);
        return engine__locations[loc].territory;
    }
    return ENGINE_TERRITORY_COUNT;
}

static unsigned entered(const engine_action *act)
{
    return entered_by(act, NULL);
}

/* 1 while the Intrusion window is resuming the action it held (the
 * re-run must not be held again). */
static int resuming_intrusion(const engine_state *st)
{
    int16_t id = engine_window_id(ENGINE__WINDOW_INTRUSION);
    for (unsigned i = 0; i < st->n_frames; i++)
        if (st->frame[i].is_resuming && st->frame[i].point == ENGINE_WINDOW_GENERIC &&
            st->frame[i].window == (uint16_t)id)
            return 1;
    return 0;
}

int engine_intrusion_entry(const engine_state *st, unsigned *territory_out,
                           unsigned *forces_out)
{
    const engine_frame *f = engine_window_top(st);
    unsigned forces = 0;
    if (f == NULL || f->point != ENGINE_WINDOW_GENERIC ||
        f->window != (uint16_t)engine_window_id(ENGINE__WINDOW_INTRUSION))
        return 0;
    unsigned t = entered_by(&f->held, &forces);
    if (t >= ENGINE_TERRITORY_COUNT)
        return 0;
    *territory_out = t;
    *forces_out = forces;
    return 1;
}

int engine__advisors_intrusion_holds(const engine_state *st, unsigned seat)
{
    const engine_frame *f = engine_window_top(st);
    return f != NULL && f->point == ENGINE_WINDOW_GENERIC &&
           f->window == (uint16_t)engine_window_id(ENGINE__WINDOW_INTRUSION) &&
           f->held.seat == seat;
}

int engine__advisors_intrusion_hold(engine_state *st, const engine_action *act)
{
    unsigned seat = act->seat, territory = entered(act);
    int bg = engine__point_owner(st, ENGINE__POINT_ADVISORS);
    if (!engine__rule(st, ENGINE__RULE_ADVANCED_INTRUSION) || !engine__advisors_encoded(st) ||
        bg < 0 || (unsigned)bg == seat || st->ally[bg] == seat ||
        territory >= ENGINE_TERRITORY_COUNT || !engine__occupies(st, territory, (unsigned)bg) ||
        resuming_intrusion(st))
        return 0;
    /* The Bene Gesserit alone are asked; the user is the seat entering. */
    return engine__window_open(st, engine_window_id(ENGINE__WINDOW_INTRUSION), (unsigned)bg, seat,
                               act, ENGINE_SEAT_BIT((unsigned)bg)) != NULL;
}

engine_verdict engine__advisors_intrusion_answer(engine_state *st, const engine_action *answer)
{
    /* A flip is one use a Karama may stop (FAQ20 pp. 7-8): held first. */
    if (answer->arg[1] == 1)
        engine__advisors_flip_held(st, answer, answer->seat);
    return ENGINE_ACCEPTED;
}

/* The fighters of seat `bg` in `territory` all become advisors (one side
 * per territory, LR 2.02.20). */
static void fighters_to_advisors(engine_state *st, unsigned bg, unsigned territory)
{
    for (unsigned l = 0; l < ENGINE_LOCATION_COUNT; l++)
        if (in_territory(l, territory)) {
            st->advisors[l] = (uint8_t)(st->advisors[l] + st->forces[l][bg]);
            st->forces[l][bg] = 0;
        }
}

/* The Bene Gesserit answered: flipped (and not stopped), their fighters
 * become advisors before the held action applies, so what follows the
 * entry (the advisor that may accompany a shipment, a battle) sees them
 * as advisors; then the action applies exactly as it was checked (its
 * entry cannot be refused by fewer fighters there). */
void engine__advisors_intrusion_close(engine_state *st, const engine_frame *f,
                                      const engine_action *answer, engine_rng *rng)
{
    int stopped = engine__advisors_flip_stopped(st);
    if (answer->arg[1] == 1 && !stopped)
        fighters_to_advisors(st, f->owner, entered(&f->held));
    engine_verdict v = engine__action_rules[f->held.kind].handle(NULL, st, &f->held, rng);
    assert(v == ENGINE_ACCEPTED); /* checked in full before it was held */
    (void)v;
    /* performed now: a cancellation its seat retook with is used up, as
     * engine_apply would have after the handler */
    engine__karama_after(st, &f->held);
}
