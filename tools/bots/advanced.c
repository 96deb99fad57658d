/*
 * bots/advanced.c - the Advanced game's decisions for every level from
 * Medium up: a battle plan's forces by strength and their spice support
 * (LR 1.13.04). A level chooses its plan as in the Basic game, its dial
 * being the strength it wants from its forces; here that strength is
 * bought as cheaply as the plan's family allows: elite forces before
 * plain ones (an elite is worth more for the same spice), at full
 * strength while the spice lasts, then at half strength for nothing; and
 * the Fremen's further worms of a pile (LR 2.04.15), sent where they
 * devour the most forces of others. Easy places them at random.
 *
 * The Kwisatz Haderach (LR 2.01.11, 2.01.14): it joins every battle it
 * may, its +2 being free but for its one territory a turn, and it is
 * revived at once for its 2 spice.
 *
 * INTRUSION (LR 2.02.15): the Bene Gesserit's fighters become advisors
 * when the faction entering would outnumber them (Easy: at random).
 * The Harkonnen's capture or kill (LR 2.05.10), at every level: a strong
 * leader is captured (it fights for them, and its owner lacks it) while
 * enough of their own leaders live that a prison break is far off; any
 * other is killed for the 2 spice. Easy captures only the strongest.
 *
 * Layer: tools. Like all bot code it reads the seat's view and legal
 * families only: the strength of a commitment is its own plan's, counted
 * by the engine on a copy of the view (engine_plan_forces_strength2).
 */
#include <string.h>

#include "tools/internal.h"

/* The order forces are added in, and the argument each one raises:
 * elite at full, plain at full, elite at half, plain at half. */
static const uint8_t order[] = {6, 4, 7, 5};

/* The family holding the plan's leader, Cheap Hero and cards, or NULL. */
static const engine_legal *plan_family(const bot__ctx *c, const engine_action *plan)
{
    for (size_t i = 0; i < c->n_legal; i++) {
        const engine_legal *l = &c->legal[i];
        if (l->kind == ENGINE_ACTION_BATTLE_PLAN && l->lo[0] == plan->arg[0] &&
            l->lo[1] == plan->arg[1] && l->lo[2] == plan->arg[2] && l->lo[3] == plan->arg[3])
            return l;
    }
    return NULL;
}

int bot__advanced_plan(engine_action *out, const bot__ctx *c)
{
    const engine_legal *l = plan_family(c, out);
    if (l == NULL)
        return -1;
    unsigned side = c->v->battle_seat[0] == c->seat ? 0 : 1;
    unsigned want2 = 2u * (unsigned)(out->arg[4] > 0 ? out->arg[4] : 0);
    engine_state probe;
    memcpy(&probe, c->v, sizeof probe);
    engine_battle_plan *p = &probe.plan[side];
    p->dial = p->half = p->elite = p->elite_half = 0;
    for (unsigned i = 4; i < ENGINE_ACTION_MAX_ARGS; i++)
        out->arg[i] = l->lo[i];
    for (unsigned k = 0; k < sizeof order; k++) {
        unsigned a = order[k];
        while (engine_plan_forces_strength2(&probe, side) < want2 && out->arg[a] < l->hi[a]) {
            out->arg[a]++;
            if (!engine_legal_caps_hold(l, out->arg)) {
                out->arg[a]--;
                break;
            }
            p->dial = (uint8_t)out->arg[4]; /* the rest held as n + 1 (ENGINE_ARG_COUNT1) */
            p->half = (uint8_t)(out->arg[5] - 1);
            p->elite = (uint8_t)(out->arg[6] - 1);
            p->elite_half = (uint8_t)(out->arg[7] - 1);
        }
    }
    return engine_legal_contains(l, out) ? BOT_OK : -1;
}

/* A pile's further worm, the Fremen's to place (LR 2.04.15): where it
 * devours the most forces of others, the seat's own and its ally's being
 * spared; with nobody to devour, the first sand territory offered. */
int bot__advanced_place_worm(engine_action *out, const bot__ctx *c)
{
    const engine_legal *first = &c->legal[0];
    const engine_power_form *form =
        first->kind == ENGINE_ACTION_POWER ? engine_power_form_of(first->lo[0]) : NULL;
    if (form == NULL || strcmp(form->slug, "place_worm") != 0)
        return -1;
    unsigned forces[ENGINE_TERRITORY_COUNT][ENGINE_MAX_SEATS];
    bot__territory_forces(forces, c->v);
    uint8_t ally = c->v->ally[c->seat];
    const engine_legal *best = first;
    unsigned most = 0;
    for (size_t i = 0; i < c->n_legal; i++) {
        const engine_legal *l = &c->legal[i];
        if (l->kind != ENGINE_ACTION_POWER || l->lo[0] != first->lo[0] ||
            (unsigned)l->lo[1] >= ENGINE_TERRITORY_COUNT)
            continue;
        unsigned devoured = 0;
        for (unsigned s = 0; s < c->v->config.n_seats; s++)
            if (s != c->seat && s != ally)
                devoured += forces[l->lo[1]][s];
        if (devoured > most) {
            most = devoured;
            best = l;
        }
    }
    bot__action_lo(out, best);
    return BOT_OK;
}

int bot__advanced_kh(engine_action *out, const bot__ctx *c)
{
    int declare = engine_power_from_slug("kwisatz_haderach");
    int revive = engine_power_from_slug("kwisatz_haderach_revival");
    for (size_t i = 0; i < c->n_legal; i++) {
        const engine_legal *l = &c->legal[i];
        if (l->kind != ENGINE_ACTION_POWER || (l->lo[0] != declare && l->lo[0] != revive))
            continue;
        bot__action_lo(out, l);
        if (l->lo[0] == declare)
            out->arg[1] = l->hi[1]; /* with it */
        return BOT_OK;
    }
    return -1;
}

int bot__advanced_intrusion(engine_action *out, bot__ctx *c)
{
    unsigned t, entering;
    const engine_frame *f = engine_window_top(c->v);
    if (!engine_intrusion_entry(c->v, &t, &entering) || c->n_legal == 0 ||
        c->legal[0].kind != ENGINE_ACTION_ANSWER || engine_generic_default(out, &c->legal[0]) != 0)
        return -1;
    unsigned fighters = 0, theirs = entering;
    for (unsigned l = 0; l < ENGINE_LOCATION_COUNT; l++)
        if (engine_location_territory(l) == t) {
            fighters += c->v->forces[l][c->seat];
            theirs += (unsigned)c->v->forces[l][f->user] + c->v->special[l][f->user];
        }
    int flip = c->level == BOT_LEVEL_EASY ? tool_prng_range(&c->rng, 0, 1) : theirs > fighters;
    out->arg[1] = (int16_t)bot__clamp(flip, c->legal[0].lo[1], c->legal[0].hi[1]);
    return BOT_OK;
}

/* Strength from which a drawn leader is captured rather than killed, by
 * level (Easy: only the strongest), and the own leaders alive below which
 * a capture would soon break out (LR 2.05.11). */
#define CAPTURE_STRENGTH_EASY 5
#define CAPTURE_STRENGTH 4
#define CAPTURE_OWN_ALIVE 2

int bot__advanced_capture(engine_action *out, const bot__ctx *c)
{
    int capture = engine_power_from_slug("capture_leader");
    int kill = engine_power_from_slug("kill_leader");
    const engine_legal *take = NULL, *slay = NULL;
    for (size_t i = 0; i < c->n_legal; i++) {
        const engine_legal *l = &c->legal[i];
        if (l->kind == ENGINE_ACTION_POWER && l->lo[0] == capture)
            take = l;
        if (l->kind == ENGINE_ACTION_POWER && l->lo[0] == kill)
            slay = l;
    }
    if (take == NULL || slay == NULL || c->v->capture_leader == 0)
        return -1;
    unsigned drawn = c->v->capture_leader - 1u;
    unsigned alive = 0;
    for (unsigned l = 0; l < ENGINE_LEADER_COUNT; l++)
        alive += engine_leader_faction(l) == c->faction && c->v->leader[l].place == ENGINE_PLACE_POOL;
    unsigned strong = c->level == BOT_LEVEL_EASY ? CAPTURE_STRENGTH_EASY : CAPTURE_STRENGTH;
    int keep = engine_leader_strength(drawn) >= strong &&
               (c->level == BOT_LEVEL_EASY || alive >= CAPTURE_OWN_ALIVE);
    bot__action_lo(out, keep ? take : slay);
    return BOT_OK;
}
