/*
 * bots/karama_powers.c - the faction Karama powers of the Advanced game
 * (LR 1.14), used from Medium up with simple heuristics; Easy leaves them
 * to the generic chooser (a row's default, when it draws one). The
 * Emperor's free revival (1.14.02): a leader when none is left to fight,
 * else 3 forces (a Sardaukar among them when it may) once that many are
 * in the Tanks.
 *
 * Layer: tools. Like all bot code it reads the seat's view and legal
 * families only: whether it holds a card to spend is in its families.
 */
#include "tools/internal.h"

#define KARAMA_REVIVAL_WORTH 3 /* forces in the Tanks worth the power */

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

int bot__karama_powers(engine_action *out, const bot__ctx *c)
{
    return emperor_revival(out, c);
}
