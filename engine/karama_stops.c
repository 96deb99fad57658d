/*
 * karama_stops.c - the Karama stops of the Emperor's and the Fremen's
 * Advanced abilities that a Karama may stop for longer than the one
 * action held (rules version 8 on; ADVANCED_RULES.md 5, FAQ20 pp. 7-8;
 * docs/RULINGS.md R131-R135). The rows granting them are the families'
 * (engine/powers_emperor.c, engine/powers_fremen.c, their `karama`
 * column with ENGINE__KARAMA_LASTS); the Karama window is engine/karama.c.
 *
 * Three are battle stops: the Sardaukar's worth of two (LR 2.03.08), the
 * Fedaykin's (LR 2.04.18) and BATTLE HARDENED (LR 2.04.21). Each plan of
 * a side whose tokens in the battle would use one is held in a Karama
 * window before it is committed (so before the plans are revealed, and
 * being held says nothing of the plan: the window follows from who fights
 * and which tokens stand there); a cancel drops the plan and the side
 * plans again without the ability, which then stays stopped until the
 * battle ends. A prescience answer on that side's dial, given of a plan
 * the ability shaped, binds it no more (R133). The fourth is the Fremen's
 * look at the next storm card (LR 2.04.14): stopped, the card is drawn
 * all the same and moves the storm next turn, but no view shows it to
 * the Fremen until then.
 *
 * Invariant: karama_stopped is 0 outside an Advanced room of rules
 * version 8 on; its battle bits only in the Battle phase. Engine layer:
 * no I/O, no allocation, no clock; it names no faction.
 */
#include "engine/internal.h"

#define BIT(a) ENGINE_ADVANTAGE_BIT(ENGINE_ADVANTAGE_##a)
#define BATTLE_STOPS (BIT(EMPEROR_SARDAUKAR) | BIT(FREMEN_FEDAYKIN) | BIT(FREMEN_BATTLE_HARDENED))
#define STORM_STOPS BIT(FREMEN_STORM_PEEK)
#define HALF_POINTS 2              /* a plain force at full strength */

int engine__karama_stops_encoded(const engine_state *st)
{
    return engine__advanced(st) && engine__rule(st, ENGINE__RULE_ADVANCED_KARAMA_STOPS);
}

int engine__karama_stopped(const engine_state *st, unsigned advantage)
{
    return engine__karama_cancelled(st, advantage) ||
           (st->karama_stopped & ENGINE_ADVANTAGE_BIT(advantage)) != 0;
}

void engine__karama_stop_lasts(engine_state *st, unsigned advantage, unsigned seat)
{
    st->karama_stopped |= ENGINE_ADVANTAGE_BIT(advantage);
    if (!(ENGINE_ADVANTAGE_BIT(advantage) & BATTLE_STOPS))
        return;
    /* The side redoes its plan: an answer on its dial no longer binds it. */
    const engine_effect *e = engine_effect_find(st, ENGINE_EFFECT_PRESCIENCE);
    if (e && e->owner == seat && e->value == ENGINE_PRESCIENCE_DIAL)
        engine__effect_remove(st, ENGINE_EFFECT_PRESCIENCE, -1);
}

/* The advantage of the first row at `p` applying to `seat` that grants a
 * battle stop, or NONE. */
static unsigned battle_advantage(const engine_state *st, engine__point p, unsigned seat)
{
    const engine__power_row *r;
    for (unsigned i = 0; (r = engine__point_row_nth(st, p, seat, i, NULL)) != NULL; i++)
        if (r->advantage != ENGINE_ADVANTAGE_NONE && (ENGINE_ADVANTAGE_BIT(r->advantage) & BATTLE_STOPS))
            return r->advantage;
    return ENGINE_ADVANTAGE_NONE;
}

uint32_t engine__karama_plan_offered(const engine_state *st, unsigned seat)
{
    if (!engine__karama_stops_encoded(st) || st->phase != ENGINE_PHASE_BATTLE)
        return 0;
    uint32_t used = 0;
    /* The elite worth two: only where elite tokens stand and their worth
     * is more than a plain force's (not the Sardaukar against the Fremen). */
    unsigned elite = engine__point_value(st, ENGINE__POINT_ELITE_VALUE, seat, HALF_POINTS) > HALF_POINTS
                         ? battle_advantage(st, ENGINE__POINT_ELITE_VALUE, seat)
                         : ENGINE_ADVANTAGE_NONE;
    if (elite != ENGINE_ADVANTAGE_NONE && engine__battle_elite(st, seat) > 0)
        used |= ENGINE_ADVANTAGE_BIT(elite);
    unsigned hardened = battle_advantage(st, ENGINE__POINT_BATTLE_HARDENED, seat);
    if (hardened != ENGINE_ADVANTAGE_NONE)
        used |= ENGINE_ADVANTAGE_BIT(hardened);
    return used & ~st->karama_stopped;
}

void engine__karama_stops_battle_ends(engine_state *st)
{
    st->karama_stopped &= ~(uint32_t)BATTLE_STOPS;
}

void engine__karama_stops_storm_begins(engine_state *st)
{
    st->karama_stopped &= ~(uint32_t)STORM_STOPS;
}

int engine__karama_stops_check(const engine_state *st)
{
    if (!engine__karama_stops_encoded(st))
        return st->karama_stopped == 0;
    return !(st->karama_stopped & ~(uint32_t)(BATTLE_STOPS | STORM_STOPS)) &&
           (!(st->karama_stopped & BATTLE_STOPS) || st->phase == ENGINE_PHASE_BATTLE);
}
