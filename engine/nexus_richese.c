/*
 * nexus_richese.c - the panels of the Richese Nexus card (E3 p.11; the
 * digest's EXPANSIONS_AND_NEXUS.md 5.2 rows 28-30; docs/RULINGS.md R85,
 * R93) as power rows: engine/points.c offers them to the seat holding the
 * card, in the mode the card has for it. Secret Ally (row 30) is built:
 * instead of its normal shipment, the holder ships up to 5 forces from its
 * reserves for the price of one force there. Betrayal (28) and Cunning
 * (29) need the Richese seated and are named and refused with their rows.
 * A row never mutates but through its `use`.
 */
#include "engine/internal.h"

#define MOST_FORCES 5 /* "a reserve shipment of up to five forces" */

static unsigned most_for_one(const engine_state *st, unsigned seat, unsigned loc)
{
    unsigned n = st->seat[seat].reserves;
    if (engine__ship_price(loc) > st->seat[seat].spice)
        return 0;
    return n < MOST_FORCES ? n : MOST_FORCES;
}

/* The price of one force at `loc`, whatever the forces shipped. */
static unsigned one_force(unsigned loc, unsigned forces)
{
    (void)forces;
    return engine__ship_price(loc);
}

/* Row 30: "priced as one": the price of one force at that destination,
 * paid as any shipment (to the Guild when seated, else the bank), never
 * halved again (R93). */
static engine_verdict secret_ally(engine_verdict_detail *why, engine_state *st, unsigned owner,
                                  const engine_action *act, engine_rng *rng)
{
    (void)rng;
    return engine__nexus_ship(why, st, owner, act, one_force, 0);
}

static size_t secret_ally_legal(engine_legal *out, size_t cap, const engine_state *st,
                                unsigned seat, int16_t id)
{
    return engine__nexus_ship_legal(out, cap, st, seat, id, most_for_one);
}

static const engine_power_form betrayal_form = {.slug = "nexus_richese_betrayal"};
static const engine_power_form cunning_form = {.slug = "nexus_richese_cunning"};
static const engine_power_form secret_ally_form = {
    .slug = "nexus_richese_secret_ally", .n_args = 2,
    .arg_name = {"to", "forces"}, .arg_type = {ENGINE_ARG_LOCATION, ENGINE_ARG_INT},
    .lo = {0, 1}, .hi = {ENGINE_LOCATION_HMS - 1, MOST_FORCES}, .fallback = {0, MOST_FORCES},
};

static const engine__power_row rows[] = {
    ENGINE__NEXUS_NOT_BUILT(ENGINE_FACTION_RICHESE, ENGINE_NEXUS_BETRAYAL, &betrayal_form),
    ENGINE__NEXUS_NOT_BUILT(ENGINE_FACTION_RICHESE, ENGINE_NEXUS_CUNNING, &cunning_form),
    {.point = ENGINE__POINT_POWER, .faction = ENGINE_FACTION_RICHESE, .to = ENGINE__TO_OWNER,
     .since = ENGINE__RULE_SINCE(ENGINE__RULE_NEXUS_PANELS), .nexus = 1 + ENGINE_NEXUS_SECRET_ALLY,
     .when = engine__nexus_may_ship,
     .source = "E3 p.11, Richese Nexus card (Secret Ally); digest 5.2 row 30",
     .form = &secret_ally_form, .use = secret_ally, .legal = secret_ally_legal},
};

const engine__power_family engine__nexus_richese = {rows, sizeof rows / sizeof rows[0]};
