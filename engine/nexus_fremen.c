/*
 * nexus_fremen.c - the panels of the Fremen Nexus card (E3 p.11; the
 * digest's EXPANSIONS_AND_NEXUS.md 5.2 rows 10-12; docs/RULINGS.md R85,
 * R89, R94) as power rows: engine/points.c offers them to the seat holding
 * the card, in the mode the card has for it. Betrayal (row 10) is built:
 * (a) no worm ride for the Fremen this turn, (b) no two-territory move for
 * the phase, each an effect record setting their row aside. Secret Ally
 * (b) (row 12b) is built: in Revival, 3 forces revived free, counted among
 * the seat's revivals this turn (an effect record engine/phase_revival.c
 * reads). Its (a) (safe from a worm) and Cunning (11) are named and
 * refused with their rows. A row never mutates but through its `use`.
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

/* Row 10: (a) "the Fremen may not ride a worm this turn"; (b) they lose
 * "the two-territory movement advantage during Shipment and Movement" of
 * this turn (R94). Each sets aside the Fremen's own row at that point
 * until the turn ends: an effect record, the card spent. */
enum { NO_RIDE = 1, NO_TWO_TERRITORIES = 2 };

/* (a) before the worm's ride of this turn's Spice Blow; (b) before the end
 * of this turn's Shipment and Movement: both last the turn. */
static int betrayal_now(const engine_state *st, unsigned alternative)
{
    return st->phase >= ENGINE_PHASE_STORM &&
           st->phase <= (alternative == NO_RIDE ? ENGINE_PHASE_SPICE_BLOW
                                                : ENGINE_PHASE_SHIPMENT_MOVEMENT);
}

static int may_betray(const engine_state *st, unsigned owner, unsigned seat)
{
    (void)owner;
    (void)seat;
    return (betrayal_now(st, NO_RIDE) || betrayal_now(st, NO_TWO_TERRITORIES)) &&
           (st->n_effects < ENGINE_EFFECT_MAX ||
            engine_effect_find(st, ENGINE_EFFECT_NEXUS_BANNED) != NULL);
}

static engine_verdict betrayal(engine_verdict_detail *why, engine_state *st, unsigned owner,
                               const engine_action *act, engine_rng *rng)
{
    (void)rng;
    unsigned alternative = (unsigned)act->arg[1];
    int fremen = engine__seat_of(st, ENGINE_FACTION_FREMEN);
    if (!betrayal_now(st, alternative) || fremen < 0)
        return engine__reject(why, ENGINE_REJECT_WRONG_PHASE, 1, act->arg[1]);
    engine_effect e = {ENGINE_EFFECT_NEXUS_BANNED, ENGINE_FACTION_FREMEN, (uint8_t)fremen,
                       alternative == NO_RIDE ? ENGINE__POINT_WORM_RIDE
                                              : ENGINE__POINT_MOVE_ALLOWANCE,
                       ENGINE_EXPIRY_TURN, 0};
    (void)engine__effect_add(st, &e); /* may_betray: a slot, or the last one renewed */
    engine__nexus_spend(st, owner);
    return ENGINE_ACCEPTED;
}

static size_t betrayal_legal(engine_legal *out, size_t cap, const engine_state *st,
                             unsigned seat, int16_t id)
{
    size_t n = 0;
    for (unsigned alternative = NO_RIDE; alternative <= NO_TWO_TERRITORIES; alternative++) {
        if (!betrayal_now(st, alternative))
            continue;
        engine__nexus_push(out, cap, &n, seat, id, (int16_t)alternative, (int16_t)alternative, 0, 0);
    }
    return n;
}

static const engine_power_form betrayal_form = {
    .slug = "nexus_fremen_betrayal", .n_args = 1,
    .arg_name = {"alternative"}, .arg_type = {ENGINE_ARG_INT},
    .lo = {NO_RIDE}, .hi = {NO_TWO_TERRITORIES}, .fallback = {NO_RIDE},
};
static const engine_power_form cunning_form = {.slug = "nexus_fremen_cunning"};
static const engine_power_form secret_ally_form = {
    .slug = "nexus_fremen_secret_ally", .n_args = 1,
    .arg_name = {"forces"}, .arg_type = {ENGINE_ARG_INT},
    .lo = {1}, .hi = {FREE_FORCES}, .fallback = {FREE_FORCES},
};

static const engine__power_row rows[] = {
    {.point = ENGINE__POINT_POWER, .faction = ENGINE_FACTION_FREMEN, .to = ENGINE__TO_OWNER,
     .since = ENGINE__RULE_SINCE(ENGINE__RULE_NEXUS_PANELS), .nexus = 1 + ENGINE_NEXUS_BETRAYAL,
     .when = may_betray, .source = "E3 p.11, Fremen Nexus card (Betrayal); digest 5.2 row 10",
     .form = &betrayal_form, .use = betrayal, .legal = betrayal_legal},
    ENGINE__NEXUS_NOT_BUILT(ENGINE_FACTION_FREMEN, ENGINE_NEXUS_CUNNING, &cunning_form),
    {.point = ENGINE__POINT_POWER, .faction = ENGINE_FACTION_FREMEN, .to = ENGINE__TO_OWNER,
     .since = ENGINE__RULE_SINCE(ENGINE__RULE_NEXUS_PANELS), .nexus = 1 + ENGINE_NEXUS_SECRET_ALLY,
     .when = may_revive, .source = "E3 p.11, Fremen Nexus card (Secret Ally, b); digest 5.2 row 12",
     .form = &secret_ally_form, .use = secret_ally, .legal = secret_ally_legal},
};

const engine__power_family engine__nexus_fremen = {rows, sizeof rows / sizeof rows[0]};
