/*
 * nexus_emperor.c - the panels of the Emperor Nexus card (E3 p.11; the
 * digest's EXPANSIONS_AND_NEXUS.md 5.2 rows 7-9; docs/RULINGS.md R85, R88)
 * as power rows: engine/points.c offers them to the seat holding the card,
 * in the mode the card has for it. Secret Ally (b) (row 9b) is built: in
 * Revival, 3 extra forces revived free beyond the seat's limit. Its (a)
 * (keep the spice of a card bought) and Betrayal (7a; 7b is Advanced) and
 * Cunning (8, Advanced) are named and refused with their rows. A row never
 * mutates but through its `use`.
 */
#include "engine/internal.h"

#define EXTRA_FORCES 3 /* "revive 3 extra forces free beyond the normal limit" */

/* Row 9b: forces from the Tanks, free, beyond the limit: they count
 * neither among the seat's revivals this turn nor against its free ones
 * (the seeds' composition: "additional beyond those ledgers"). */
static engine_verdict secret_ally(engine_verdict_detail *why, engine_state *st, unsigned owner,
                                  const engine_action *act, engine_rng *rng)
{
    (void)rng;
    return engine__nexus_revive_panel(why, st, owner, act, 0);
}

static size_t secret_ally_legal(engine_legal *out, size_t cap, const engine_state *st,
                                unsigned seat, int16_t id)
{
    return engine__nexus_forces_legal(out, cap, st, seat, id, EXTRA_FORCES);
}

static const engine_power_form betrayal_form = {.slug = "nexus_emperor_betrayal"};
static const engine_power_form cunning_form = {.slug = "nexus_emperor_cunning"};
static const engine_power_form secret_ally_form = {
    .slug = "nexus_emperor_secret_ally", .n_args = 1,
    .arg_name = {"forces"}, .arg_type = {ENGINE_ARG_INT},
    .lo = {1}, .hi = {EXTRA_FORCES}, .fallback = {EXTRA_FORCES},
};

static const engine__power_row rows[] = {
    ENGINE__NEXUS_NOT_BUILT(ENGINE_FACTION_EMPEROR, ENGINE_NEXUS_BETRAYAL, &betrayal_form),
    ENGINE__NEXUS_NOT_BUILT(ENGINE_FACTION_EMPEROR, ENGINE_NEXUS_CUNNING, &cunning_form),
    {.point = ENGINE__POINT_POWER, .faction = ENGINE_FACTION_EMPEROR, .to = ENGINE__TO_OWNER,
     .since = ENGINE__RULE_SINCE(ENGINE__RULE_NEXUS_PANELS), .nexus = 1 + ENGINE_NEXUS_SECRET_ALLY,
     .when = engine__nexus_in_revival,
     .source = "E3 p.11, Emperor Nexus card (Secret Ally, b); digest 5.2 row 9",
     .form = &secret_ally_form, .use = secret_ally, .legal = secret_ally_legal},
};

const engine__power_family engine__nexus_emperor = {rows, sizeof rows / sizeof rows[0]};
