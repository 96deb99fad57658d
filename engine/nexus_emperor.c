/*
 * nexus_emperor.c - the panels of the Emperor Nexus card (E3 p.11; the
 * digest's EXPANSIONS_AND_NEXUS.md 5.2 rows 7-9; docs/RULINGS.md R85, R88)
 * as power rows: engine/points.c offers them to the seat holding the card,
 * in the mode the card has for it. Secret Ally (b) (row 9b) is built: in
 * Revival, 3 extra forces revived free beyond the seat's limit. From rules
 * version 8, played at the moment of a lot won (engine/nexus_moment.c):
 * Secret Ally (a) (row 9a), the buyer keeps its spice, and Betrayal (a)
 * (row 7a), the Emperor pays for the lot his ally won; and in Advanced
 * rooms the Betrayal's (b) (row 7b), no Sardaukar bonus in a battle while
 * plans are made, and the Cunning (row 8), up to five ordinary forces
 * counting as Sardaukar in a battle without any, each a power of its own
 * played while the plans are made. Before version 8 they are named and
 * refused with their rows. A row never mutates but through its `use`.
 */
#include <assert.h>

#include "engine/internal.h"
#include "engine/phase.h"

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

/* Rows 7a and 9a (rules version 8): who pays for a lot, decided at the
 * lot's moment (engine/nexus_moment.c) as an effect record the payment
 * reads (engine__nexus_pays). */
enum { PAYS_NOBODY = 1, PAYS_EMPEROR = 2 };

int engine__nexus_at_lot_won(const engine_state *st, unsigned owner, unsigned seat, int point)
{
    (void)st;
    (void)owner;
    (void)seat;
    return point == ENGINE_NEXUS_AT_LOT_WON;
}

int engine__nexus_at_ally_purchase(const engine_state *st, unsigned owner, unsigned seat,
                                   int point)
{
    (void)st;
    (void)owner;
    (void)seat;
    return point == ENGINE_NEXUS_AT_ALLY_PURCHASE;
}

/* The moment of a lot won with spice (R142, R143): when the buyer is the
 * Emperor's ally, every other seat's (a Betrayal of the Emperor may be
 * anyone's but his), else the buyer's own. */
int engine__nexus_lot_won(engine_state *st, unsigned buyer)
{
    int emperor = engine__seat_of(st, ENGINE_FACTION_EMPEROR);
    if (emperor >= 0 && st->ally[emperor] == buyer)
        return engine__nexus_moment(st, ENGINE_NEXUS_AT_ALLY_PURCHASE,
                                    (uint16_t)(((1u << st->config.n_seats) - 1u) &
                                               ~(unsigned)ENGINE_SEAT_BIT((unsigned)emperor)),
                                    (int)buyer);
    return engine__nexus_moment(st, ENGINE_NEXUS_AT_LOT_WON, (uint16_t)ENGINE_SEAT_BIT(buyer),
                                (int)buyer);
}

static int has_slot(const engine_state *st, unsigned owner, unsigned seat)
{
    (void)owner;
    (void)seat;
    return st->phase == ENGINE_PHASE_BIDDING && st->n_effects < ENGINE_EFFECT_MAX &&
           engine_effect_find(st, ENGINE_EFFECT_NEXUS_PAYMENT) == NULL;
}

static engine_verdict decide_payment(engine_verdict_detail *why, engine_state *st,
                                     unsigned owner, const engine_action *moment, unsigned who)
{
    int buyer = moment->arg[1];
    if (buyer < 0 || buyer >= st->config.n_seats || (unsigned)buyer != st->high_bidder)
        return engine__reject(why, ENGINE_REJECT_WRONG_STEP, -1, 0);
    engine_effect e = {ENGINE_EFFECT_NEXUS_PAYMENT, ENGINE_FACTION_EMPEROR, (uint8_t)buyer,
                       (uint8_t)who, ENGINE_EXPIRY_PHASE, 0};
    if (!has_slot(st, owner, owner) || engine__effect_add(st, &e) != 0)
        return engine__reject(why, ENGINE_REJECT_WRONG_STEP, -1, 0);
    engine__nexus_spend(st, owner);
    return ENGINE_ACCEPTED;
}

/* Row 9a: "keep the spice of a card you buy" (R142): the buyer won with a
 * spice bid, which it (with its ally's allowance) could pay: the card is
 * free, nobody pays anybody. */
static engine_verdict keep_spice(engine_verdict_detail *why, engine_state *st, unsigned owner,
                                 const engine_action *moment, engine_rng *rng)
{
    (void)rng;
    if ((unsigned)moment->arg[1] != owner)
        return engine__reject(why, ENGINE_REJECT_NOT_YOUR_POWER, 1, moment->arg[1]);
    return decide_payment(why, st, owner, moment, PAYS_NOBODY);
}

/* Row 7a: "the Emperor pays for a card his ally buys" (R143). */
static engine_verdict emperor_pays(engine_verdict_detail *why, engine_state *st, unsigned owner,
                                   const engine_action *moment, engine_rng *rng)
{
    (void)rng;
    return decide_payment(why, st, owner, moment, PAYS_EMPEROR);
}

/* The invoice (R143): the Emperor pays all of the price he can, the ally
 * the rest from its own spice (at most what it lacks: its bid was within
 * its spice and the Emperor's), all of it to the bank; or nobody pays. */
int engine__nexus_pays(engine_state *st, unsigned buyer, unsigned amount)
{
    const engine_effect *e = engine_effect_find(st, ENGINE_EFFECT_NEXUS_PAYMENT);
    if (e == NULL || e->owner != buyer)
        return 0;
    unsigned who = e->value;
    engine__effect_remove(st, ENGINE_EFFECT_NEXUS_PAYMENT, -1);
    int emperor = engine__seat_of(st, ENGINE_FACTION_EMPEROR);
    if (who != PAYS_EMPEROR || emperor < 0)
        return 1;
    engine_seat_state *emp = &st->seat[emperor];
    unsigned paid = amount < emp->spice ? amount : emp->spice;
    unsigned rest = amount - paid;
    emp->spice = (uint16_t)(emp->spice - paid);
    st->ally_support[emperor] =
        (uint16_t)(st->ally_support[emperor] > paid ? st->ally_support[emperor] - paid : 0);
    assert(rest <= st->seat[buyer].spice); /* the bid was within both */
    st->seat[buyer].spice = (uint16_t)(st->seat[buyer].spice - rest);
    st->spice_burned += amount;
    return 1;
}

/* ============================================ the Advanced panels (v8) */

#define CUNNING_FORCES 5 /* "up to five of your ordinary forces" */

/* While the battle's plans are made (the plan step, `seat` a side whose
 * plan is not committed yet), in an Advanced room. */
static int making_plans(const engine_state *st, unsigned seat)
{
    if (!st->config.is_advanced || st->phase != ENGINE_PHASE_BATTLE ||
        st->step != BATTLE_STEP_PLAN || st->battle_territory >= ENGINE_TERRITORY_COUNT)
        return 0;
    for (unsigned i = 0; i < 2; i++)
        if (st->battle_seat[i] == seat)
            return !st->plan[i].is_committed;
    return 0;
}

static void in_battle(const engine_state *st, unsigned seat, unsigned *plain, unsigned *elite)
{
    *plain = *elite = 0;
    for (unsigned l = 0; l < ENGINE_LOCATION_COUNT; l++)
        if (engine__locations[l].territory == st->battle_territory) {
            *plain += st->forces[l][seat];
            *elite += st->special[l][seat];
        }
}

/* Row 7b: "cancel the Sardaukar bonus in a battle while plans are made"
 * (R144): the Emperor fights, the holder plays it at its own prompt of the
 * plan step; the Emperor's row at ENGINE__POINT_ELITE_VALUE is set aside
 * for this battle (his Sardaukar count as ordinary forces). */
static int may_cancel_bonus(const engine_state *st, unsigned owner, unsigned seat)
{
    (void)seat;
    int emperor = engine__seat_of(st, ENGINE_FACTION_EMPEROR);
    return emperor >= 0 && making_plans(st, owner) &&
           (st->battle_seat[0] == emperor || st->battle_seat[1] == emperor) &&
           !engine__nexus_banned(st, (unsigned)emperor, ENGINE__POINT_ELITE_VALUE) &&
           st->n_effects < ENGINE_EFFECT_MAX;
}

static engine_verdict cancel_bonus(engine_verdict_detail *why, engine_state *st, unsigned owner,
                                   const engine_action *act, engine_rng *rng)
{
    (void)rng;
    if (!may_cancel_bonus(st, owner, act->seat))
        return engine__reject(why, ENGINE_REJECT_WRONG_STEP, 0, act->arg[0]);
    int emperor = engine__seat_of(st, ENGINE_FACTION_EMPEROR);
    engine_effect e = {ENGINE_EFFECT_NEXUS_BANNED, ENGINE_FACTION_EMPEROR, (uint8_t)emperor,
                       ENGINE__POINT_ELITE_VALUE, ENGINE_EXPIRY_BATTLE, 0};
    if (engine__effect_add(st, &e) != 0)
        return engine__reject(why, ENGINE_REJECT_WRONG_STEP, 0, act->arg[0]);
    engine__nexus_spend(st, owner);
    return ENGINE_ACCEPTED;
}

/* Row 8: "up to five of your ordinary forces count as Sardaukar in this
 * battle, provided no Sardaukar of yours are in it" (R145), before the
 * Emperor's plan: a value modifier only (the forces stay ordinary for
 * losses, revival and the Tanks), an effect record. */
static int may_count_as_sardaukar(const engine_state *st, unsigned owner, unsigned seat)
{
    (void)seat;
    unsigned plain, elite;
    if (!making_plans(st, owner))
        return 0;
    in_battle(st, owner, &plain, &elite);
    return elite == 0 && plain > 0 && st->n_effects < ENGINE_EFFECT_MAX &&
           engine_effect_find(st, ENGINE_EFFECT_NEXUS_ELITE) == NULL;
}

static engine_verdict count_as_sardaukar(engine_verdict_detail *why, engine_state *st,
                                         unsigned owner, const engine_action *act,
                                         engine_rng *rng)
{
    (void)rng;
    unsigned plain, elite;
    in_battle(st, owner, &plain, &elite);
    if (!making_plans(st, owner))
        return engine__reject(why, ENGINE_REJECT_WRONG_STEP, 0, act->arg[0]);
    if (elite > 0) /* a Sardaukar of its own in this battle */
        return engine__reject(why, ENGINE_REJECT_ARG_OUT_OF_RANGE, 0, act->arg[0]);
    if ((unsigned)act->arg[1] > plain)
        return engine__reject(why, ENGINE_REJECT_ARG_OUT_OF_RANGE, 1, act->arg[1]);
    engine_effect e = {ENGINE_EFFECT_NEXUS_ELITE, ENGINE_FACTION_EMPEROR, (uint8_t)owner,
                       (uint8_t)act->arg[1], ENGINE_EXPIRY_BATTLE, 0};
    if (!may_count_as_sardaukar(st, owner, owner) || engine__effect_add(st, &e) != 0)
        return engine__reject(why, ENGINE_REJECT_WRONG_STEP, 0, act->arg[0]);
    engine__nexus_spend(st, owner);
    return ENGINE_ACCEPTED;
}

static size_t cunning_legal(engine_legal *out, size_t cap, const engine_state *st, unsigned seat,
                            int16_t id)
{
    size_t n = 0;
    unsigned plain, elite;
    in_battle(st, seat, &plain, &elite);
    engine__nexus_push(out, cap, &n, seat, id, 1,
                       (int16_t)(plain < CUNNING_FORCES ? plain : CUNNING_FORCES), 0, 0);
    return n;
}

unsigned engine__nexus_elite_bonus2(const engine_state *st, unsigned seat,
                                    const engine_battle_plan *p, unsigned elite2)
{
    const engine_effect *e = engine_effect_find(st, ENGINE_EFFECT_NEXUS_ELITE);
    if (e == NULL || e->owner != seat || elite2 <= 2)
        return 0;
    unsigned full = e->value < p->dial ? e->value : p->dial;
    unsigned left = e->value - full;
    unsigned half = left < p->half ? left : p->half;
    return full * (elite2 - 2u) + half * (elite2 / 2u - 1u);
}

void engine__nexus_battle_over(engine_state *st)
{
    engine__effect_remove(st, ENGINE_EFFECT_NEXUS_ELITE, -1);
    for (unsigned i = st->n_effects; i-- > 0;)
        if (st->effect[i].kind == ENGINE_EFFECT_NEXUS_BANNED &&
            st->effect[i].expiry == ENGINE_EXPIRY_BATTLE) {
            engine_effect e = st->effect[i];
            engine__effect_remove(st, ENGINE_EFFECT_NEXUS_BANNED, e.source);
            break; /* one a battle: the Emperor Betrayal's (b) */
        }
}

static const engine_power_form betrayal_form = {.slug = "nexus_emperor_betrayal"};
static const engine_power_form cunning_form = {
    .slug = "nexus_emperor_cunning", .n_args = 1,
    .arg_name = {"forces"}, .arg_type = {ENGINE_ARG_INT},
    .lo = {1}, .hi = {CUNNING_FORCES}, .fallback = {CUNNING_FORCES},
};
static const engine_power_form secret_ally_form = {
    .slug = "nexus_emperor_secret_ally", .n_args = 1,
    .arg_name = {"forces"}, .arg_type = {ENGINE_ARG_INT},
    .lo = {1}, .hi = {EXTRA_FORCES}, .fallback = {EXTRA_FORCES},
};

static const engine__power_row rows[] = {
    ENGINE__NEXUS_NOT_BUILT_UNTIL(ENGINE_FACTION_EMPEROR, ENGINE_NEXUS_BETRAYAL, &betrayal_form,
                                  ENGINE__RULE_NEXUS_MOMENTS),
    {.point = ENGINE__POINT_NEXUS_ANSWER, .faction = ENGINE_FACTION_EMPEROR,
     .to = ENGINE__TO_OWNER, .since = ENGINE__RULE_SINCE(ENGINE__RULE_NEXUS_MOMENTS),
     .nexus = 1 + ENGINE_NEXUS_BETRAYAL, .fn = engine__nexus_at_ally_purchase, .when = has_slot,
     .source = "E3 p.11, Emperor Nexus card (Betrayal, a); digest 5.2 row 7 (R143)",
     .use = emperor_pays},
    {.point = ENGINE__POINT_NEXUS_ANSWER, .faction = ENGINE_FACTION_EMPEROR,
     .to = ENGINE__TO_OWNER, .since = ENGINE__RULE_SINCE(ENGINE__RULE_NEXUS_MOMENTS),
     .nexus = 1 + ENGINE_NEXUS_SECRET_ALLY, .fn = engine__nexus_at_lot_won, .when = has_slot,
     .source = "E3 p.11, Emperor Nexus card (Secret Ally, a); digest 5.2 row 9 (R142)",
     .use = keep_spice},
    {.point = ENGINE__POINT_POWER, .faction = ENGINE_FACTION_EMPEROR, .to = ENGINE__TO_OWNER,
     .since = ENGINE__RULE_SINCE(ENGINE__RULE_NEXUS_MOMENTS), .nexus = 1 + ENGINE_NEXUS_BETRAYAL,
     .game = ENGINE__GAME_ADVANCED, .when = may_cancel_bonus,
     .source = "E3 p.11, Emperor Nexus card (Betrayal, b; Advanced); digest 5.2 row 7 (R144)",
     .form = &betrayal_form, .use = cancel_bonus},
    ENGINE__NEXUS_NOT_BUILT_UNTIL(ENGINE_FACTION_EMPEROR, ENGINE_NEXUS_CUNNING, &cunning_form,
                                  ENGINE__RULE_NEXUS_MOMENTS),
    {.point = ENGINE__POINT_POWER, .faction = ENGINE_FACTION_EMPEROR, .to = ENGINE__TO_OWNER,
     .since = ENGINE__RULE_SINCE(ENGINE__RULE_NEXUS_MOMENTS), .nexus = 1 + ENGINE_NEXUS_CUNNING,
     .game = ENGINE__GAME_ADVANCED, .when = may_count_as_sardaukar,
     .source = "E3 p.11, Emperor Nexus card (Cunning; Advanced); digest 5.2 row 8 (R145)",
     .form = &cunning_form, .use = count_as_sardaukar, .legal = cunning_legal},
    {.point = ENGINE__POINT_POWER, .faction = ENGINE_FACTION_EMPEROR, .to = ENGINE__TO_OWNER,
     .since = ENGINE__RULE_SINCE(ENGINE__RULE_NEXUS_PANELS), .nexus = 1 + ENGINE_NEXUS_SECRET_ALLY,
     .when = engine__nexus_in_revival,
     .source = "E3 p.11, Emperor Nexus card (Secret Ally, b); digest 5.2 row 9",
     .form = &secret_ally_form, .use = secret_ally, .legal = secret_ally_legal},
};

const engine__power_family engine__nexus_emperor = {rows, sizeof rows / sizeof rows[0]};
