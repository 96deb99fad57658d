/*
 * nexus_fremen.c - the panels of the Fremen Nexus card (E3 p.11; the
 * digest's EXPANSIONS_AND_NEXUS.md 5.2 rows 10-12; docs/RULINGS.md R85,
 * R89) as power rows: engine/points.c offers them to the seat holding the
 * card, in the mode the card has for it. Secret Ally (b) (row 12b) is
 * built: in Revival, 3 forces revived free, counted among the seat's
 * revivals this turn (an effect record engine/phase_revival.c reads).
 * Its (a) (safe from a worm), Betrayal (10) and Cunning (11) are named
 * and refused with their rows. A row never mutates but through its `use`.
 */
#include "engine/internal.h"

#define FREE_FORCES 3 /* "revive 3 forces free" */

/* 1 in Revival while the seat may still revive a force this turn. */
static int may_revive(const engine_state *st, unsigned owner, unsigned seat)
{
    return engine__nexus_in_revival(st, owner, seat) && engine__nexus_revived(st, owner) == 0 &&
           !(st->answered & ENGINE_SEAT_BIT(owner));
}

/* Row 12b: free, and among the seat's three revivals this turn (the seeds'
 * composition: it consumes the ordinary free-revival ledger; not [TO]'s
 * "free revival becomes 3", digest 7.4). */
static engine_verdict secret_ally(engine_verdict_detail *why, engine_state *st, unsigned owner,
                                  const engine_action *act, engine_rng *rng)
{
    (void)rng;
    return engine__nexus_revive_panel(why, st, owner, act, 1);
}

static size_t secret_ally_legal(engine_legal *out, size_t cap, const engine_state *st,
                                unsigned seat, int16_t id)
{
    return engine__nexus_forces_legal(out, cap, st, seat, id, FREE_FORCES);
}

static const engine_power_form betrayal_form = {.slug = "nexus_fremen_betrayal"};
static const engine_power_form cunning_form = {.slug = "nexus_fremen_cunning"};
static const engine_power_form secret_ally_form = {
    .slug = "nexus_fremen_secret_ally", .n_args = 1,
    .arg_name = {"forces"}, .arg_type = {ENGINE_ARG_INT},
    .lo = {1}, .hi = {FREE_FORCES}, .fallback = {FREE_FORCES},
};

static const engine__power_row rows[] = {
    ENGINE__NEXUS_NOT_BUILT(ENGINE_FACTION_FREMEN, ENGINE_NEXUS_BETRAYAL, &betrayal_form),
    ENGINE__NEXUS_NOT_BUILT(ENGINE_FACTION_FREMEN, ENGINE_NEXUS_CUNNING, &cunning_form),
    {.point = ENGINE__POINT_POWER, .faction = ENGINE_FACTION_FREMEN, .to = ENGINE__TO_OWNER,
     .since = ENGINE__RULE_SINCE(ENGINE__RULE_NEXUS_PANELS), .nexus = 1 + ENGINE_NEXUS_SECRET_ALLY,
     .when = may_revive, .source = "E3 p.11, Fremen Nexus card (Secret Ally, b); digest 5.2 row 12",
     .form = &secret_ally_form, .use = secret_ally, .legal = secret_ally_legal},
};

const engine__power_family engine__nexus_fremen = {rows, sizeof rows / sizeof rows[0]};
