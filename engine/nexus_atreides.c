/*
 * nexus_atreides.c - the panels of the Atreides Nexus card (E3 p.11; the
 * digest's EXPANSIONS_AND_NEXUS.md 5.2 rows 1-3; docs/RULINGS.md R85,
 * R128; the card's readable reference is engine/data/nexus_cards.c) as
 * power rows: engine/points.c offers them to the seat holding the card,
 * in the mode the card has for it. Betrayal (row 1) answers the neutral
 * Nexus window from rules version 7 (engine/nexus_window.c). Cunning
 * (row 2, from rules version 7): in the Atreides' own battle, after the
 * ordinary prescience was answered and once the other side's plan is
 * committed, a second, different element of it is told to the Atreides
 * (an effect record a view tells the two seats only). Secret Ally (3)
 * is named and refused with its row. A row never mutates but through
 * its `use`, and never names another card's panel.
 */
#include "engine/internal.h"
#include "engine/phase.h"

/* The index of `seat` among the battle's two sides, or -1. */
static int side_of(const engine_state *st, unsigned seat)
{
    if (st->phase != ENGINE_PHASE_BATTLE || st->battle_territory >= ENGINE_TERRITORY_COUNT)
        return -1;
    for (int i = 0; i < 2; i++)
        if (st->battle_seat[i] == seat)
            return i;
    return -1;
}

/* The elements a prescience may name, as the ordinary one (R75: the
 * Advanced dial is not asked). */
static int last_element(const engine_state *st)
{
    return engine__advanced(st) ? ENGINE_PRESCIENCE_DEFENSE : ENGINE_PRESCIENCE_DIAL;
}

/* The ordinary prescience's answer in this battle, bound on the other side. */
static const engine_effect *first_answer(const engine_state *st, unsigned other)
{
    const engine_effect *e = engine_effect_find(st, ENGINE_EFFECT_PRESCIENCE);
    return e != NULL && e->owner == other ? e : NULL;
}

/* Row 2: "learn a second, different element of the opponent's plan"
 * (R128): at the Atreides' own plan prompt in their battle, their plan
 * not committed; told (may_tell) once the ordinary prescience is answered
 * and the other side's plan committed, so that the element is what it
 * plays, its actual card. */
static int may_learn(const engine_state *st, unsigned owner, unsigned seat)
{
    (void)seat;
    int i = side_of(st, owner);
    return i >= 0 && st->step == BATTLE_STEP_PLAN && engine__plans_asked(st) &&
           !st->plan[i].is_committed && st->n_effects < ENGINE_EFFECT_MAX &&
           engine_effect_find(st, ENGINE_EFFECT_NEXUS_PRESCIENCE) == NULL;
}

/* The first answer, when the element may be told now (may_learn holds). */
static const engine_effect *may_tell(const engine_state *st, unsigned owner)
{
    int i = side_of(st, owner);
    return i >= 0 && st->plan[1 - i].is_committed ? first_answer(st, st->battle_seat[1 - i])
                                                  : NULL;
}

/* The value of `element` in plan p, as a prescience answer gives it. */
static int element_value(const engine_battle_plan *p, int element)
{
    switch (element) {
    case ENGINE_PRESCIENCE_LEADER:
        return p->cheap_hero != -1 ? ENGINE_PRESCIENCE_CHEAP_HERO : p->leader;
    case ENGINE_PRESCIENCE_WEAPON:
        return p->weapon;
    case ENGINE_PRESCIENCE_DEFENSE:
        return p->defense;
    default:
        return p->dial;
    }
}

static engine_verdict cunning(engine_verdict_detail *why, engine_state *st, unsigned owner,
                              const engine_action *act, engine_rng *rng)
{
    (void)rng;
    int element = act->arg[1], i = side_of(st, owner);
    const engine_effect *first = may_tell(st, owner);
    if (i < 0 || first == NULL) /* no first answer yet, or the other plan still open */
        return engine__reject(why, ENGINE_REJECT_WRONG_STEP, -1, 0);
    if (element < ENGINE_PRESCIENCE_LEADER || element > last_element(st) ||
        element == first->value)
        return engine__reject(why, ENGINE_REJECT_ARG_OUT_OF_RANGE, 1, element);
    int value = element_value(&st->plan[1 - i], element);
    engine_effect e = {ENGINE_EFFECT_NEXUS_PRESCIENCE, ENGINE_FACTION_ATREIDES, (uint8_t)owner,
                       (uint8_t)element, ENGINE_EXPIRY_BATTLE, (int16_t)value};
    if (engine__effect_add(st, &e) != 0) /* may_learn: a slot */
        return engine__reject(why, ENGINE_REJECT_WRONG_STEP, -1, 0);
    /* a weapon or defense told is that card, seen (the actual card) */
    if ((element == ENGINE_PRESCIENCE_WEAPON || element == ENGINE_PRESCIENCE_DEFENSE) &&
        value >= 0 && (unsigned)value < st->n_cards)
        st->card[value].known_by |= (uint16_t)ENGINE_SEAT_BIT(owner);
    engine__nexus_spend(st, owner);
    return ENGINE_ACCEPTED;
}

static size_t cunning_legal(engine_legal *out, size_t cap, const engine_state *st, unsigned seat,
                            int16_t id)
{
    size_t n = 0;
    const engine_effect *first = may_tell(st, seat);
    for (int el = ENGINE_PRESCIENCE_LEADER; first != NULL && el <= last_element(st); el++)
        if (el != first->value)
            engine__nexus_push(out, cap, &n, seat, id, (int16_t)el, (int16_t)el, 0, 0);
    return n;
}

static const engine_power_form betrayal_form = {.slug = "nexus_atreides_betrayal"};
static const engine_power_form cunning_form = {
    .slug = "nexus_atreides_cunning", .n_args = 1,
    .arg_name = {"element"}, .arg_type = {ENGINE_ARG_INT},
    .lo = {ENGINE_PRESCIENCE_LEADER}, .hi = {ENGINE_PRESCIENCE_DIAL},
    .fallback = {ENGINE_PRESCIENCE_LEADER},
};
static const engine_power_form secret_ally_form = {.slug = "nexus_atreides_secret_ally"};

static const engine__power_row rows[] = {
    /* Betrayal (row 1): stops one prescience question, in the neutral Nexus window from rules
     * version 7 (engine/nexus_window.c); until then named, not built */
    ENGINE__NEXUS_NOT_BUILT_UNTIL_WINDOWS(ENGINE_FACTION_ATREIDES, ENGINE_NEXUS_BETRAYAL, &betrayal_form),
    ENGINE__NEXUS_STOP_ROW(ENGINE_FACTION_ATREIDES, ENGINE_NEXUS_BETRAYAL, engine__nexus_at_prescience,
                           "E3 p.11; EXPANSIONS_AND_NEXUS.md 5.2 row 1 (docs/RULINGS.md R121)"),
    ENGINE__NEXUS_NOT_BUILT_UNTIL(ENGINE_FACTION_ATREIDES, ENGINE_NEXUS_CUNNING, &cunning_form,
                                  ENGINE__RULE_NEXUS_OWN_PANELS),
    {.point = ENGINE__POINT_POWER, .faction = ENGINE_FACTION_ATREIDES, .to = ENGINE__TO_OWNER,
     .since = ENGINE__RULE_SINCE(ENGINE__RULE_NEXUS_OWN_PANELS),
     .nexus = 1 + ENGINE_NEXUS_CUNNING, .when = may_learn,
     .source = "E3 p.11, Atreides Nexus card (Cunning); digest 5.2 row 2",
     .form = &cunning_form, .use = cunning, .legal = cunning_legal},
    ENGINE__NEXUS_NOT_BUILT(ENGINE_FACTION_ATREIDES, ENGINE_NEXUS_SECRET_ALLY, &secret_ally_form),
};

const engine__power_family engine__nexus_atreides = {rows, sizeof rows / sizeof rows[0]};
