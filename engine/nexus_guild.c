/*
 * nexus_guild.c - the panels of the Spacing Guild Nexus card (E3 p.11; the
 * digest's EXPANSIONS_AND_NEXUS.md 5.2 rows 16-18; docs/RULINGS.md R85,
 * R92) as power rows: engine/points.c offers them to the seat holding the
 * card, in the mode the card has for it. Secret Ally (row 18) is built:
 * the holder's shipment of its turn at the Guild's rates (half price,
 * rounded up), paid to the bank, from its reserves (rules version 6 on),
 * or (from version 7) site to site, or back to its reserves at 1 spice per
 * 2 forces: three rows, one use. Cunning (row 17, from version 7): a
 * second shipment right after the Guild's turn, an effect record the
 * phase asks as that turn ends. Betrayal (16, a window on another's
 * payment) is named and refused with its row. A row never mutates but
 * through its `use`.
 */
#include "engine/internal.h"
#include "engine/phase.h"

static unsigned guild_rate(unsigned loc, unsigned forces)
{
    return (engine__ship_price(loc) * forces + 1) / 2;
}

/* The most of its `here` forces the seat can pay for at `price`. */
static unsigned most_affordable(const engine_state *st, unsigned seat, unsigned here,
                                unsigned (*price)(unsigned loc, unsigned forces), unsigned loc)
{
    while (here > 0 && price(loc, here) > st->seat[seat].spice)
        here--;
    return here;
}

/* Back to reserves at the Guild's rate for it, 1 spice per 2 forces
 * rounded up (LR 2.06.05), whatever the location left. */
static unsigned back_rate(unsigned loc, unsigned forces)
{
    (void)loc;
    return (forces + 1) / 2;
}

/* Row 18, from rules version 7: "cross-shipping or returning to reserves
 * is allowed as the shipping action" (R92): argument 1 the location left,
 * 2 where to (cross) or the forces (back), 3 the forces (cross). */
static engine_verdict board_shipment(engine_verdict_detail *why, engine_state *st, unsigned owner,
                                     const engine_action *act, int cross)
{
    int from = act->arg[1], to = cross ? act->arg[2] : -1, forces = act->arg[cross ? 3 : 2];
    unsigned cost = forces < 1 ? 0
                    : cross && to >= 0 && to < ENGINE_LOCATION_HMS
                        ? guild_rate((unsigned)to, (unsigned)forces)
                        : back_rate(0, (unsigned)forces);
    engine_verdict v = engine__ship_board_by_panel(why, st, owner, from, to, forces, cost);
    if (v == ENGINE_ACCEPTED)
        engine__nexus_spend(st, owner);
    return v;
}

static engine_verdict secret_ally_cross(engine_verdict_detail *why, engine_state *st,
                                        unsigned owner, const engine_action *act, engine_rng *rng)
{
    (void)rng;
    return board_shipment(why, st, owner, act, 1);
}

static engine_verdict secret_ally_back(engine_verdict_detail *why, engine_state *st,
                                       unsigned owner, const engine_action *act, engine_rng *rng)
{
    (void)rng;
    return board_shipment(why, st, owner, act, 0);
}

/* One family per location left (its forces, out of the storm) and, for a
 * cross-shipment, per destination it may land at. */
static size_t board_legal(engine_legal *out, size_t cap, const engine_state *st, unsigned seat,
                          int16_t id, int cross)
{
    size_t n = 0;
    for (unsigned from = 0; from < ENGINE_LOCATION_HMS; from++) {
        unsigned here = st->forces[from][seat];
        if (here == 0 || engine__in_storm(st, from))
            continue;
        for (unsigned to = 0; to < (cross ? ENGINE_LOCATION_HMS : 1u); to++) {
            if (cross && (to == from || !engine__panel_may_land(st, seat, to)))
                continue;
            unsigned most = most_affordable(st, seat, here, cross ? guild_rate : back_rate, to);
            if (most == 0)
                continue;
            engine_legal f;
            engine__legal_init(&f, ENGINE_ACTION_POWER, (uint8_t)seat);
            f.lo[0] = f.hi[0] = id;
            f.lo[1] = f.hi[1] = (int16_t)from;
            unsigned k = 2;
            if (cross) {
                f.lo[2] = f.hi[2] = (int16_t)to;
                k = 3;
            }
            f.lo[k] = 1;
            f.hi[k] = (int16_t)most;
            engine__legal_push(out, cap, &n, &f);
        }
    }
    return n;
}

static size_t secret_ally_cross_legal(engine_legal *out, size_t cap, const engine_state *st,
                                      unsigned seat, int16_t id)
{
    return board_legal(out, cap, st, seat, id, 1);
}

static size_t secret_ally_back_legal(engine_legal *out, size_t cap, const engine_state *st,
                                     unsigned seat, int16_t id)
{
    return board_legal(out, cap, st, seat, id, 0);
}

static int may_ship_from_board(const engine_state *st, unsigned owner, unsigned seat)
{
    (void)seat;
    return engine__panel_shipment_turn(st, owner);
}

/* The most forces of its reserves the seat can pay for at `loc`. */
static unsigned most_at_rates(const engine_state *st, unsigned seat, unsigned loc)
{
    return most_affordable(st, seat, st->seat[seat].reserves, guild_rate, loc);
}

/* Row 18 (first alternative): "use Guild shipping prices" as the
 * shipment of its turn; the Guild is absent, so the bank is paid. */
static engine_verdict secret_ally(engine_verdict_detail *why, engine_state *st, unsigned owner,
                                  const engine_action *act, engine_rng *rng)
{
    (void)rng;
    return engine__nexus_ship(why, st, owner, act, guild_rate, 1);
}

static size_t secret_ally_legal(engine_legal *out, size_t cap, const engine_state *st,
                                unsigned seat, int16_t id)
{
    return engine__nexus_ship_legal(out, cap, st, seat, id, most_at_rates);
}

/* Row 17: "right after your Shipment and Movement turn, make a second
 * shipment; that group may not move unless you play Hajr" (R126). The
 * record says it is owed (value 1), then being made (2); the phase asks
 * it as the turn ends and as the shipment is over
 * (engine__nexus_ship_again, engine__nexus_shipped_again), so the card
 * discarded takes nothing with it (G4). */
enum { SHIP_OWED = 1, SHIP_MAKING = 2 };

static engine_effect *second_shipment(engine_state *st, unsigned seat, unsigned value)
{
    for (unsigned i = 0; i < st->n_effects; i++) {
        engine_effect *e = &st->effect[i];
        if (e->kind == ENGINE_EFFECT_NEXUS_SHIPMENT && e->owner == seat && e->value == value)
            return e;
    }
    return NULL;
}

int engine__nexus_ship_again(engine_state *st, unsigned seat)
{
    engine_effect *e = second_shipment(st, seat, SHIP_OWED);
    if (e == NULL)
        return 0;
    e->value = SHIP_MAKING;
    return 1;
}

int engine__nexus_shipped_again(engine_state *st, unsigned seat)
{
    if (second_shipment(st, seat, SHIP_MAKING) == NULL)
        return 0;
    (void)engine__effect_remove(st, ENGINE_EFFECT_NEXUS_SHIPMENT, ENGINE_FACTION_GUILD);
    return 1;
}

/* In its own Shipment and Movement turn, at its SHIP or MOVE prompt, no
 * window open, before the turn ends; a record slot free. */
static int may_ship_twice(const engine_state *st, unsigned owner, unsigned seat)
{
    (void)seat;
    return st->phase == ENGINE_PHASE_SHIPMENT_MOVEMENT &&
           (st->step == SHIP_STEP_SHIP || st->step == SHIP_STEP_MOVE) &&
           engine_window_top(st) == NULL && st->awaiting == ENGINE_SEAT_BIT(owner) &&
           !(st->answered & ENGINE_SEAT_BIT(owner)) && st->n_effects < ENGINE_EFFECT_MAX &&
           engine_effect_find(st, ENGINE_EFFECT_NEXUS_SHIPMENT) == NULL;
}

static engine_verdict cunning(engine_verdict_detail *why, engine_state *st, unsigned owner,
                              const engine_action *act, engine_rng *rng)
{
    (void)act;
    (void)rng;
    engine_effect e = {ENGINE_EFFECT_NEXUS_SHIPMENT, ENGINE_FACTION_GUILD, (uint8_t)owner,
                       SHIP_OWED, ENGINE_EXPIRY_PHASE, 0};
    if (engine__effect_add(st, &e) != 0) /* may_ship_twice: a slot */
        return engine__reject(why, ENGINE_REJECT_WRONG_STEP, -1, 0);
    engine__nexus_spend(st, owner);
    return ENGINE_ACCEPTED;
}

static const engine_power_form betrayal_form = {.slug = "nexus_guild_betrayal"};
static const engine_power_form cunning_form = {.slug = "nexus_guild_cunning"};
static const engine_power_form secret_ally_form = {
    .slug = "nexus_guild_secret_ally", .n_args = 2,
    .arg_name = {"to", "forces"}, .arg_type = {ENGINE_ARG_LOCATION, ENGINE_ARG_INT},
    .lo = {0, 1}, .hi = {ENGINE_LOCATION_HMS - 1, 20}, .fallback = {0, 1},
};
static const engine_power_form secret_ally_cross_form = {
    .slug = "nexus_guild_secret_ally_cross", .n_args = 3,
    .arg_name = {"from", "to", "forces"},
    .arg_type = {ENGINE_ARG_LOCATION, ENGINE_ARG_LOCATION, ENGINE_ARG_INT},
    .lo = {0, 0, 1}, .hi = {ENGINE_LOCATION_HMS - 1, ENGINE_LOCATION_HMS - 1, 20},
    .fallback = {0, 0, 1},
};
static const engine_power_form secret_ally_back_form = {
    .slug = "nexus_guild_secret_ally_back", .n_args = 2,
    .arg_name = {"from", "forces"}, .arg_type = {ENGINE_ARG_LOCATION, ENGINE_ARG_INT},
    .lo = {0, 1}, .hi = {ENGINE_LOCATION_HMS - 1, 20}, .fallback = {0, 1},
};

static const engine__power_row rows[] = {
    ENGINE__NEXUS_NOT_BUILT(ENGINE_FACTION_GUILD, ENGINE_NEXUS_BETRAYAL, &betrayal_form),
    ENGINE__NEXUS_NOT_BUILT_UNTIL(ENGINE_FACTION_GUILD, ENGINE_NEXUS_CUNNING, &cunning_form,
                                  ENGINE__RULE_NEXUS_OWN_PANELS),
    {.point = ENGINE__POINT_POWER, .faction = ENGINE_FACTION_GUILD, .to = ENGINE__TO_OWNER,
     .since = ENGINE__RULE_SINCE(ENGINE__RULE_NEXUS_OWN_PANELS),
     .nexus = 1 + ENGINE_NEXUS_CUNNING, .when = may_ship_twice,
     .source = "E3 p.11, Spacing Guild Nexus card (Cunning); digest 5.2 row 17",
     .form = &cunning_form, .use = cunning},
    {.point = ENGINE__POINT_POWER, .faction = ENGINE_FACTION_GUILD, .to = ENGINE__TO_OWNER,
     .since = ENGINE__RULE_SINCE(ENGINE__RULE_NEXUS_PANELS), .nexus = 1 + ENGINE_NEXUS_SECRET_ALLY,
     .when = engine__nexus_may_ship,
     .source = "E3 p.11, Spacing Guild Nexus card (Secret Ally); digest 5.2 row 18",
     .form = &secret_ally_form, .use = secret_ally, .legal = secret_ally_legal},
    {.point = ENGINE__POINT_POWER, .faction = ENGINE_FACTION_GUILD, .to = ENGINE__TO_OWNER,
     .since = ENGINE__RULE_SINCE(ENGINE__RULE_NEXUS_OWN_PANELS),
     .nexus = 1 + ENGINE_NEXUS_SECRET_ALLY, .when = may_ship_from_board,
     .source = "E3 p.11, Spacing Guild Nexus card (Secret Ally, cross-ship); digest 5.2 row 18",
     .form = &secret_ally_cross_form, .use = secret_ally_cross, .legal = secret_ally_cross_legal},
    {.point = ENGINE__POINT_POWER, .faction = ENGINE_FACTION_GUILD, .to = ENGINE__TO_OWNER,
     .since = ENGINE__RULE_SINCE(ENGINE__RULE_NEXUS_OWN_PANELS),
     .nexus = 1 + ENGINE_NEXUS_SECRET_ALLY, .when = may_ship_from_board,
     .source = "E3 p.11, Spacing Guild Nexus card (Secret Ally, ship back); digest 5.2 row 18",
     .form = &secret_ally_back_form, .use = secret_ally_back, .legal = secret_ally_back_legal},
};

const engine__power_family engine__nexus_guild = {rows, sizeof rows / sizeof rows[0]};
