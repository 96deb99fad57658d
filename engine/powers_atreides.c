/*
 * powers_atreides.c - the Atreides' powers as rows (internal.h,
 * engine__power_row; DUNE_RULES_DIGEST.md 3.3, LR 2.01): what the phase
 * files ask of them at their rule points (engine/points.c). A row holds
 * facts and small functions over the state; it never mutates the state
 * and never names another family's faction.
 */
#include "engine/internal.h"

/* ====================================== Advanced: the Kwisatz Haderach */

/* The side `seat` fights for itself in the battle under way, or 2. */
static unsigned fighting_side(const engine_state *st, unsigned seat)
{
    return st->battle_seat[0] == seat ? 0u : st->battle_seat[1] == seat ? 1u : 2u;
}

/* The owner, asked for its plan and not yet committed, declares once
 * whether the Kwisatz Haderach accompanies its leader or Cheap Hero: the
 * token is awake and may join this territory's battles, and the plan
 * has a leader or a Cheap Hero to carry it (LR 2.01.11-12); not after a
 * Karama stopped its use in this battle (rules version 7 on). */
static int kh_may_declare(const engine_state *st, unsigned owner, unsigned seat)
{
    unsigned side = fighting_side(st, seat);
    return seat == owner && side < 2 && engine__plans_asked(st) &&
           !st->plan[side].is_committed &&
           st->plan[side].kwisatz_haderach == ENGINE_KH_UNDECLARED && engine__kh_may_join(st) &&
           engine__battle_leader_required(st, seat) &&
           !engine__karama_cancelled(st, ENGINE_ADVANTAGE_ATREIDES_KH);
}

static engine_verdict kh_declare(engine_verdict_detail *why, engine_state *st, unsigned owner,
                                 const engine_action *act, engine_rng *rng)
{
    (void)why;
    (void)rng;
    /* Rules version 7: a Karama may stop its use in this battle, before
     * the plans are revealed (FAQ20 pp. 7-8). Every declaration is held,
     * with or without the token, so the window says nothing of the
     * secret choice; stopped, the owner is asked again and may no longer
     * declare (its plan goes without it). */
    if (engine__rule(st, ENGINE__RULE_ADVANCED_KARAMA) &&
        engine__karama_hold(st, act, ENGINE_ADVANTAGE_BIT(ENGINE_ADVANTAGE_ATREIDES_KH), owner))
        return ENGINE_ACCEPTED;
    unsigned side = fighting_side(st, owner);
    st->plan[side].kwisatz_haderach = (uint8_t)act->arg[1]; /* ENGINE_KH_WITHOUT or _WITH */
    return ENGINE_ACCEPTED;
}

static const engine_power_form kh_form = {
    .slug = "kwisatz_haderach",
    .n_args = 1,
    .arg_name = {"use"},
    .arg_type = {ENGINE_ARG_INT},
    .lo = {ENGINE_KH_WITHOUT},     /* 1: without, 2: with; a secret is never 0 (absent) */
    .hi = {ENGINE_KH_WITH},
    .fallback = {ENGINE_KH_WITHOUT},
    .secret_args = 0x01, /* use: secret with the plan (LR 1.07.04) */
};

/* In the Revival, while its seat is asked, the token in the Tanks is
 * revived for 2 spice instead of a leader (LR 2.01.14). */
static int kh_may_revive(const engine_state *st, unsigned owner, unsigned seat)
{
    int arg;
    return seat == owner && st->phase == ENGINE_PHASE_REVIVAL &&
           engine__kh_revivable(st, seat, &arg) == ENGINE_ACCEPTED;
}

static engine_verdict kh_revive(engine_verdict_detail *why, engine_state *st, unsigned owner,
                                const engine_action *act, engine_rng *rng)
{
    (void)act;
    (void)rng;
    int arg;
    engine_verdict v = engine__kh_revivable(st, owner, &arg);
    if (v != ENGINE_ACCEPTED)
        return engine__reject(why, v, arg, 0);
    engine__kh_revive(st, owner);
    return ENGINE_ACCEPTED;
}

static const engine_power_form kh_revival_form = {
    .slug = "kwisatz_haderach_revival",
    .n_args = 0,
};

static const engine__power_row rows[] = {
    /* A1: each card up for bid is shown to the Atreides. */
    {.point = ENGINE__POINT_CARD_UP, .faction = ENGINE_FACTION_ATREIDES, .to = ENGINE__TO_OWNER,
     .advantage = ENGINE_ADVANTAGE_ATREIDES_CARD_PEEK, .karama = ENGINE__KARAMA_STANDING, .source = "LR 2.01.05"},
    /* A2: the top card of the spice deck, in the Shipment and Movement. */
    {.point = ENGINE__POINT_SPICE_PEEK, .faction = ENGINE_FACTION_ATREIDES, .to = ENGINE__TO_OWNER,
     .advantage = ENGINE_ADVANTAGE_ATREIDES_SPICE_PEEK, .karama = ENGINE__KARAMA_STANDING, .source = "LR 2.01.07"},
    /* A3, A4: one element of the opponent's plan, in the own battle or the ally's. */
    {.point = ENGINE__POINT_PRESCIENCE, .faction = ENGINE_FACTION_ATREIDES, .to = ENGINE__TO_OWNER,
     .advantage = ENGINE_ADVANTAGE_ATREIDES_PRESCIENCE, .karama = ENGINE__KARAMA_CANCELS, .retake = ENGINE_ACTION_PRESCIENCE_PASS, .source = "LR 2.01.08"},
    {.point = ENGINE__POINT_PRESCIENCE, .faction = ENGINE_FACTION_ATREIDES, .to = ENGINE__TO_ALLY,
     .advantage = ENGINE_ADVANTAGE_ATREIDES_ALLY_PRESCIENCE, .karama = ENGINE__KARAMA_CANCELS, .retake = ENGINE_ACTION_PRESCIENCE_PASS, .source = "LR 2.01.09"},
    /* Advanced (rules version 6 on): the Kwisatz Haderach, awakened by the
     * owner's losses in battles (engine/kwisatz_haderach.c)... */
    {.point = ENGINE__POINT_KWISATZ_HADERACH, .faction = ENGINE_FACTION_ATREIDES,
     .to = ENGINE__TO_OWNER, .game = ENGINE__GAME_ADVANCED,
     .since = ENGINE__RULE_SINCE(ENGINE__RULE_ADVANCED_KH), .source = "LR 2.01.10"},
    /* ...declared with the plan... */
    {.point = ENGINE__POINT_POWER, .faction = ENGINE_FACTION_ATREIDES, .to = ENGINE__TO_OWNER,
     .game = ENGINE__GAME_ADVANCED, .since = ENGINE__RULE_SINCE(ENGINE__RULE_ADVANCED_KH),
     .advantage = ENGINE_ADVANTAGE_ATREIDES_KH, .karama = ENGINE__KARAMA_CANCELS,
     .retake = ENGINE_ACTION_NONE, .when = kh_may_declare, .form = &kh_form, .use = kh_declare,
     .source = "LR 2.01.11-12; FAQ20 pp. 7-8"},
    /* ...and revived for 2 spice. */
    {.point = ENGINE__POINT_POWER, .faction = ENGINE_FACTION_ATREIDES, .to = ENGINE__TO_OWNER,
     .game = ENGINE__GAME_ADVANCED, .since = ENGINE__RULE_SINCE(ENGINE__RULE_ADVANCED_KH),
     .when = kh_may_revive, .form = &kh_revival_form, .use = kh_revive, .source = "LR 2.01.14"},
    /* Advanced, rules version 8 on: the faction Karama power, a plan seen
     * (engine/karama_plan.c). */
    {.point = ENGINE__POINT_POWER, .faction = ENGINE_FACTION_ATREIDES, .to = ENGINE__TO_OWNER,
     .game = ENGINE__GAME_ADVANCED, .since = ENGINE__RULE_SINCE(ENGINE__RULE_ADVANCED_KARAMA_ATREIDES),
     .when = engine__karama_plan_when, .form = &engine__karama_plan_form,
     .use = engine__karama_plan, .legal = engine__karama_plan_legal, .source = "LR 1.14.01"},
};

const engine__power_family engine__powers_atreides = {rows, sizeof rows / sizeof rows[0]};
