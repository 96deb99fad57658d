/*
 * bots/karama_stops.c - the Karama stops of the Emperor's and Fremen's
 * Advanced abilities (rules version 8; engine/karama_stops.c), played
 * from Medium up with simple heuristics; Easy lets every advantage stand
 * (its policy asks about none). In its own battle, against the opponent's
 * plan: the elite's worth of two (Sardaukar, Fedaykin) when 2 or more
 * elite tokens stand there; else BATTLE HARDENED when the Fremen there
 * outnumber the spice they hold (they cannot pay for full strength). A
 * further worm the Fremen place where 4 or more of the seat's and its
 * ally's forces stand. From Hard up, the Fremen's look at the next storm
 * card when 6 or more of the seat's forces stand in sand the storm may
 * cross.
 *
 * Layer: tools. Like all bot code it reads the seat's view and legal
 * families only: a held plan's arguments are hidden from it, so it
 * judges by what stands in the territory, which is public.
 */
#include "tools/internal.h"

#define ELITE_WORTH 2              /* elite tokens that make their worth worth a card */
#define WORM_WORTH 4               /* own and allied forces a placed worm must threaten */
#define PEEK_WORTH 6               /* own forces in open sand */

#define BIT(a) ENGINE_ADVANTAGE_BIT(ENGINE_ADVANTAGE_##a)

void bot__karama_stops_policy(uint32_t *ask, uint32_t *own, const bot__ctx *c)
{
    if (c->level == BOT_LEVEL_EASY)
        return;
    *own |= BIT(EMPEROR_SARDAUKAR) | BIT(FREMEN_FEDAYKIN) | BIT(FREMEN_BATTLE_HARDENED);
    *ask |= BIT(FREMEN_WORM_PLACEMENT);
    if (c->level >= BOT_LEVEL_HARD)
        *ask |= BIT(FREMEN_STORM_PEEK);
}

/* Plain and elite forces of `seat` in `territory`. */
static void forces_in(const engine_state *v, unsigned seat, unsigned territory, unsigned *plain,
                      unsigned *elite)
{
    *plain = *elite = 0;
    for (unsigned l = 0; l < ENGINE_LOCATION_COUNT; l++)
        if (engine_location_territory(l) == territory) {
            *plain += v->forces[l][seat];
            *elite += v->special[l][seat];
        }
}

static int cancel_with(engine_action *out, const engine_legal *cancel, unsigned advantage)
{
    bot__action_lo(out, cancel);
    out->arg[0] = (int16_t)advantage;
    return BOT_OK;
}

/* Forces of `seat` in sand territories a storm can cross. */
static unsigned in_open_sand(const engine_state *v, unsigned seat)
{
    unsigned n = 0;
    for (unsigned l = 0; l < ENGINE_LOCATION_COUNT; l++) {
        unsigned t = engine_location_territory(l);
        if (!engine_territory_is_stronghold(t) && !engine_territory_is_storm_safe(v, t))
            n += (unsigned)v->forces[l][seat] + v->special[l][seat];
    }
    return n;
}

int bot__karama_stops(engine_action *out, const bot__ctx *c, const engine_frame *window,
                      const engine_legal *cancel)
{
    const engine_state *v = c->v;
    if (cancel == NULL || c->level == BOT_LEVEL_EASY)
        return -1;
    unsigned rows = window->rows, user = window->held.seat;
    int ally = bot__ally(v, c->seat);
    int fights = v->phase == ENGINE_PHASE_BATTLE &&
                 (v->battle_seat[0] == c->seat || v->battle_seat[1] == c->seat) &&
                 user != c->seat && (int)user != ally;
    if (fights && (rows & (BIT(EMPEROR_SARDAUKAR) | BIT(FREMEN_FEDAYKIN) | BIT(FREMEN_BATTLE_HARDENED)))) {
        unsigned plain, elite;
        forces_in(v, user, v->battle_territory, &plain, &elite);
        if (elite >= ELITE_WORTH && (rows & BIT(EMPEROR_SARDAUKAR)))
            return cancel_with(out, cancel, ENGINE_ADVANTAGE_EMPEROR_SARDAUKAR);
        if (elite >= ELITE_WORTH && (rows & BIT(FREMEN_FEDAYKIN)))
            return cancel_with(out, cancel, ENGINE_ADVANTAGE_FREMEN_FEDAYKIN);
        if ((rows & BIT(FREMEN_BATTLE_HARDENED)) && plain + elite > v->seat[user].spice)
            return cancel_with(out, cancel, ENGINE_ADVANTAGE_FREMEN_BATTLE_HARDENED);
    }
    if ((rows & BIT(FREMEN_WORM_PLACEMENT)) && (int)user != c->seat && (int)user != ally &&
        window->held.arg[1] >= 0 && window->held.arg[1] < ENGINE_TERRITORY_COUNT) {
        unsigned plain, elite, at_stake = 0;
        forces_in(v, c->seat, (unsigned)window->held.arg[1], &plain, &elite);
        at_stake += plain + elite;
        if (ally >= 0) {
            forces_in(v, (unsigned)ally, (unsigned)window->held.arg[1], &plain, &elite);
            at_stake += plain + elite;
        }
        if (at_stake >= WORM_WORTH)
            return cancel_with(out, cancel, ENGINE_ADVANTAGE_FREMEN_WORM_PLACEMENT);
    }
    if ((rows & BIT(FREMEN_STORM_PEEK)) && c->level >= BOT_LEVEL_HARD && (int)user != ally &&
        in_open_sand(v, c->seat) >= PEEK_WORTH)
        return cancel_with(out, cancel, ENGINE_ADVANTAGE_FREMEN_STORM_PEEK);
    return -1;
}
