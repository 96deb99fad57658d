/*
 * nexus_emperor.c - the panels of the Emperor Nexus card (E3 p.11; the
 * digest's EXPANSIONS_AND_NEXUS.md 5.2 rows 7-9; docs/RULINGS.md R85, R88)
 * as power rows: engine/points.c offers them to the seat holding the card,
 * in the mode the card has for it. Secret Ally (b) (row 9b) is built: in
 * Revival, 3 extra forces revived free beyond the seat's limit. From rules
 * version 8, played at the moment of a lot won (engine/nexus_moment.c):
 * Secret Ally (a) (row 9a), the buyer keeps its spice, and Betrayal (a)
 * (row 7a), the Emperor pays for the lot his ally won. The Betrayal's (b)
 * and the Cunning (8) are Advanced, named and refused with their rows. A
 * row never mutates but through its `use`.
 */
#include <assert.h>

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
                                               ~ENGINE_SEAT_BIT((unsigned)emperor)),
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

static const engine_power_form betrayal_form = {.slug = "nexus_emperor_betrayal"};
static const engine_power_form cunning_form = {.slug = "nexus_emperor_cunning"};
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
    ENGINE__NEXUS_NOT_BUILT(ENGINE_FACTION_EMPEROR, ENGINE_NEXUS_CUNNING, &cunning_form),
    {.point = ENGINE__POINT_POWER, .faction = ENGINE_FACTION_EMPEROR, .to = ENGINE__TO_OWNER,
     .since = ENGINE__RULE_SINCE(ENGINE__RULE_NEXUS_PANELS), .nexus = 1 + ENGINE_NEXUS_SECRET_ALLY,
     .when = engine__nexus_in_revival,
     .source = "E3 p.11, Emperor Nexus card (Secret Ally, b); digest 5.2 row 9",
     .form = &secret_ally_form, .use = secret_ally, .legal = secret_ally_legal},
};

const engine__power_family engine__nexus_emperor = {rows, sizeof rows / sizeof rows[0]};
