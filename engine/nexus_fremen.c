/*
 * nexus_fremen.c - the panels of the Fremen Nexus card (E3 p.11; the
 * digest's EXPANSIONS_AND_NEXUS.md 5.2 rows 10-12; docs/RULINGS.md R85,
 * R89, R94) as power rows: engine/points.c offers them to the seat holding
 * the card, in the mode the card has for it. Betrayal (row 10) is built:
 * (a) no worm ride for the Fremen this turn, (b) no two-territory move for
 * the phase, each an effect record setting their row aside. Secret Ally
 * (b) (row 12b) is built: in Revival, 3 forces revived free, counted among
 * the seat's revivals this turn (an effect record engine/phase_revival.c
 * reads). Cunning (row 11, from rules version 7) is built: a worm
 * striking where no Fremen stand may still be ridden by one group from one
 * desert territory (an effect record the ride step reads). Secret Ally (a)
 * (row 12a, from rules version 8) is built: forces not devoured by the
 * worm about to strike them, played in the Nexus window of the holder's
 * own moment (engine/nexus_moment.c). A row never mutates but through its
 * `use`.
 */
#include "engine/internal.h"
#include "engine/phase.h"

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

/* Row 11: "when a worm appears in a territory with no Fremen forces, the
 * Fremen may still ride it with one group from one desert territory"
 * (R127). Played in the Nexus that worm brought (the Fremen's own prompt
 * before the ride step), it names the territory; the ride step then takes
 * its riders from there, storm and occupancy as for any ride: an effect
 * record, the card spent. */
static int is_desert(unsigned t)
{
    unsigned kind = engine__territories[t].kind;
    return kind == ENGINE_TERRAIN_SAND || kind == ENGINE_TERRAIN_SHIELDED_SAND;
}

/* A territory the Fremen's group may ride this worm from. */
static int may_ride_from(const engine_state *st, unsigned t)
{
    unsigned elite = 0;
    return t < ENGINE_TERRITORY_COUNT && t != st->worm_territory && is_desert(t) &&
           engine__worm_riders_in(st, t, &elite) + elite > 0;
}

static int may_ride(const engine_state *st, unsigned owner, unsigned seat)
{
    (void)seat;
    unsigned elite;
    return st->phase == ENGINE_PHASE_SPICE_BLOW && st->step == BLOW_STEP_NEXUS &&
           st->worm_territory < ENGINE_TERRITORY_COUNT &&
           engine__point_owner(st, ENGINE__POINT_WORM_RIDE) == (int)owner &&
           engine__worm_riders_in(st, st->worm_territory, &elite) + elite == 0 &&
           st->n_effects < ENGINE_EFFECT_MAX &&
           engine_effect_find(st, ENGINE_EFFECT_NEXUS_RIDE) == NULL;
}

unsigned engine__nexus_ride_from(const engine_state *st, unsigned worm)
{
    const engine_effect *e = engine_effect_find(st, ENGINE_EFFECT_NEXUS_RIDE);
    return e != NULL && e->arg == (int16_t)worm ? e->value : worm;
}

static engine_verdict cunning(engine_verdict_detail *why, engine_state *st, unsigned owner,
                              const engine_action *act, engine_rng *rng)
{
    (void)rng;
    int t = act->arg[1];
    if (t < 0 || !may_ride_from(st, (unsigned)t))
        return engine__reject(why, ENGINE_REJECT_RIDE_SOURCE, 1, t);
    engine_effect e = {ENGINE_EFFECT_NEXUS_RIDE, ENGINE_FACTION_FREMEN, (uint8_t)owner,
                       (uint8_t)t, ENGINE_EXPIRY_PHASE, (int16_t)st->worm_territory};
    if (engine__effect_add(st, &e) != 0) /* may_ride: a slot */
        return engine__reject(why, ENGINE_REJECT_WRONG_STEP, -1, 0);
    engine__nexus_spend(st, owner);
    return ENGINE_ACCEPTED;
}

static size_t cunning_legal(engine_legal *out, size_t cap, const engine_state *st, unsigned seat,
                            int16_t id)
{
    size_t n = 0;
    for (unsigned t = 0; t < ENGINE_TERRITORY_COUNT; t++)
        if (may_ride_from(st, t))
            engine__nexus_push(out, cap, &n, seat, id, (int16_t)t, (int16_t)t, 0, 0);
    return n;
}

/* Row 12a: "your forces are not devoured by a worm" (R140), rules version
 * 8: played in the Nexus window of the holder's own moment, as a worm is
 * about to strike a territory where its forces stand (the window asks
 * every seat standing there that holds a Nexus card, the Fremen absent):
 * that worm takes none of its forces there (advisors too), the others as
 * ever; an effect record the strike uses up, the card spent. */
static int may_spare(const engine_state *st, unsigned owner, unsigned seat)
{
    (void)owner;
    (void)seat;
    return st->phase == ENGINE_PHASE_SPICE_BLOW && st->n_effects < ENGINE_EFFECT_MAX;
}

static engine_verdict spare(engine_verdict_detail *why, engine_state *st, unsigned owner,
                            const engine_action *moment, engine_rng *rng)
{
    (void)rng;
    int t = moment->arg[1];
    engine_effect e = {ENGINE_EFFECT_NEXUS_SPARED, ENGINE_FACTION_FREMEN, (uint8_t)owner,
                       (uint8_t)t, ENGINE_EXPIRY_PHASE, 0};
    if (t < 0 || t >= ENGINE_TERRITORY_COUNT || engine__effect_add(st, &e) != 0)
        return engine__reject(why, ENGINE_REJECT_WRONG_STEP, -1, 0);
    engine__nexus_spend(st, owner);
    return ENGINE_ACCEPTED;
}

int engine__nexus_spared(const engine_state *st, unsigned seat, unsigned territory)
{
    for (unsigned i = 0; i < st->n_effects; i++)
        if (st->effect[i].kind == ENGINE_EFFECT_NEXUS_SPARED && st->effect[i].owner == seat &&
            st->effect[i].value == territory)
            return 1;
    return 0;
}

static const engine_power_form betrayal_form = {
    .slug = "nexus_fremen_betrayal", .n_args = 1,
    .arg_name = {"alternative"}, .arg_type = {ENGINE_ARG_INT},
    .lo = {NO_RIDE}, .hi = {NO_TWO_TERRITORIES}, .fallback = {NO_RIDE},
};
static const engine_power_form cunning_form = {
    .slug = "nexus_fremen_cunning", .n_args = 1,
    .arg_name = {"from"}, .arg_type = {ENGINE_ARG_TERRITORY},
    .lo = {0}, .hi = {ENGINE_TERRITORY_COUNT - 1}, .fallback = {0},
};
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
    ENGINE__NEXUS_NOT_BUILT_UNTIL(ENGINE_FACTION_FREMEN, ENGINE_NEXUS_CUNNING, &cunning_form,
                                  ENGINE__RULE_NEXUS_OWN_PANELS),
    {.point = ENGINE__POINT_POWER, .faction = ENGINE_FACTION_FREMEN, .to = ENGINE__TO_OWNER,
     .since = ENGINE__RULE_SINCE(ENGINE__RULE_NEXUS_OWN_PANELS),
     .nexus = 1 + ENGINE_NEXUS_CUNNING, .when = may_ride,
     .source = "E3 p.11, Fremen Nexus card (Cunning); digest 5.2 row 11",
     .form = &cunning_form, .use = cunning, .legal = cunning_legal},
    {.point = ENGINE__POINT_POWER, .faction = ENGINE_FACTION_FREMEN, .to = ENGINE__TO_OWNER,
     .since = ENGINE__RULE_SINCE(ENGINE__RULE_NEXUS_PANELS), .nexus = 1 + ENGINE_NEXUS_SECRET_ALLY,
     .when = may_revive, .source = "E3 p.11, Fremen Nexus card (Secret Ally, b); digest 5.2 row 12",
     .form = &secret_ally_form, .use = secret_ally, .legal = secret_ally_legal},
    {.point = ENGINE__POINT_NEXUS_ANSWER, .faction = ENGINE_FACTION_FREMEN,
     .to = ENGINE__TO_OWNER, .since = ENGINE__RULE_SINCE(ENGINE__RULE_NEXUS_MOMENTS),
     .nexus = 1 + ENGINE_NEXUS_SECRET_ALLY, .fn = engine__nexus_at_worm, .when = may_spare,
     .source = "E3 p.11, Fremen Nexus card (Secret Ally, a); digest 5.2 row 12 (R140)",
     .use = spare},
};

const engine__power_family engine__nexus_fremen = {rows, sizeof rows / sizeof rows[0]};
