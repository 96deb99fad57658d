/*
 * rules_v1.c - what rules version 1 does differently, each difference a
 * small function chosen by a row of engine/rules.c that holds from
 * version 2 on (ENGINE__RULE_KARAMA_WINDOW, _KARAMA_SHIPMENT,
 * _CARDS_WHEN_ASKED, _WINDOW_ENCODING): the 47-kind action table, the
 * Karama window asking only the seat a Voice or a prescience question is
 * used against, the Ghola and the Truthtrance in their one step each, and
 * the state encoding's battle steps and Truthtrance fields
 * (docs/ARCHITECTURE.md "Rules versions", docs/FORMAT.md). Version 1 is
 * folded, never played: a room is created under it nowhere
 * (engine_rules_version_is_creatable).
 * Engine layer: no I/O, no allocation; it never compares a version number.
 */
#include "engine/phase.h"

#define SEAT_NONE 0xFF

int engine_rules_version_is_creatable(unsigned version)
{
    return engine_rules_version_is_folded(version) &&
           version >= engine__rule_changes[ENGINE__RULE_KARAMA_WINDOW].from;
}

/* ======================================================== the actions */

int engine__kind_in_force(const engine_state *st, unsigned kind)
{
    /* version 1's table ends with truthtrance_answer (46) */
    return kind <= ENGINE_ACTION_TRUTHTRANCE_ANSWER || engine__rule(st, ENGINE__RULE_KARAMA_SHIPMENT);
}

unsigned engine__args_in_force(const engine_state *st, unsigned kind)
{
    const engine_action_spec *spec = engine_action_spec_of(kind);
    /* karama_cancel's advantage, optional so that version 1's karama_cancel
     * (no argument) reads and signs as it did, is required from version 2 */
    if (kind == ENGINE_ACTION_KARAMA_CANCEL)
        return engine__rule(st, ENGINE__RULE_KARAMA_WINDOW) ? spec->n_args : 0;
    return engine__rule(st, ENGINE__RULE_OPTIONAL_ARGS) ? spec->n_args
                                                        : (unsigned)(spec->n_args - spec->n_optional);
}

/* ==================================================== the Karama window */

/* The seat on the other side of the battle from `user`. */
static unsigned opponent_of(const engine_state *st, unsigned user)
{
    unsigned a = st->battle_seat[0];
    return a < ENGINE_MAX_SEATS && (a == user || st->ally[a] == user) ? st->battle_seat[1] : a;
}

uint16_t engine__karama_asked_v1(const engine_state *st, uint32_t offered, unsigned user)
{
    static const uint32_t in_battle =
        ENGINE_ADVANTAGE_BIT(ENGINE_ADVANTAGE_ATREIDES_PRESCIENCE) |
        ENGINE_ADVANTAGE_BIT(ENGINE_ADVANTAGE_ATREIDES_ALLY_PRESCIENCE) |
        ENGINE_ADVANTAGE_BIT(ENGINE_ADVANTAGE_BG_VOICE) |
        ENGINE_ADVANTAGE_BIT(ENGINE_ADVANTAGE_BG_ALLY_VOICE);
    if (st->phase != ENGINE_PHASE_BATTLE || (offered & ~in_battle) != 0)
        return 0;
    unsigned victim = opponent_of(st, user);
    if (victim >= st->config.n_seats || !engine__holds_cards(st, victim))
        return 0;
    return (uint16_t)ENGINE_SEAT_BIT(victim);
}

/* ============================================ the Ghola and Truthtrance */

int engine__card_step_v1(const engine_state *st, unsigned kind)
{
    if (engine_window_top(st) != NULL)
        return 0;
    if (kind == ENGINE_ACTION_GHOLA)
        return st->phase == ENGINE_PHASE_REVIVAL && st->step == REVIVAL_STEP_REVIVE;
    if (kind == ENGINE_ACTION_TRUTHTRANCE)
        return st->phase == ENGINE_PHASE_BATTLE && st->step == BATTLE_STEP_PLAN;
    return 0;
}

size_t engine__legal_side_v1(engine_legal *out, size_t cap, const engine_state *st, uint8_t seat)
{
    if (engine__card_step_v1(st, ENGINE_ACTION_GHOLA))
        return engine__legal_ghola(out, cap, st, seat);
    if (engine__card_step_v1(st, ENGINE_ACTION_TRUTHTRANCE))
        return engine__legal_truthtrance(out, cap, st, seat);
    return 0;
}

/* ======================================================= the encoding */

/* The battle's steps as version 1 numbers them (docs/FORMAT.md), by the
 * step versions 2 on encode. */
enum {
    V1_CHOOSE = 0, V1_VOICE, V1_VOICE_KARAMA, V1_PRESCIENCE, V1_PRESCIENCE_KARAMA,
    V1_PRESCIENCE_ANSWER, V1_PLAN, V1_TRUTH_ANSWER, V1_TRAITOR, V1_KEEP, V1_STEP_COUNT
};
static const uint8_t v1_step[BATTLE_STEP_COUNT] = {
    [BATTLE_STEP_CHOOSE] = V1_CHOOSE,
    [BATTLE_STEP_VOICE] = V1_VOICE,
    [BATTLE_STEP_PRESCIENCE] = V1_PRESCIENCE,
    [BATTLE_STEP_PRESCIENCE_ANSWER] = V1_PRESCIENCE_ANSWER,
    [BATTLE_STEP_PLAN] = V1_PLAN,
    [BATTLE_STEP_TRAITOR] = V1_TRAITOR,
    [BATTLE_STEP_KEEP] = V1_KEEP,
};

/* Version 1 kept the Truthtrance fields as the deal left them (0) until
 * its first Battle phase cleared the question (0xFF); its answer stayed 0
 * until one was given, and then the last one. */
static int before_first_battle(const engine_state *st)
{
    return st->turn == 0 || (st->turn == 1 && st->phase < ENGINE_PHASE_BATTLE);
}

void engine__pause_to_v1(engine__legacy_pause *p, const engine_state *st)
{
    const engine_effect *answer = engine_effect_find(st, ENGINE_EFFECT_ANSWER);
    if (p->tt_pending == SEAT_NONE && before_first_battle(st))
        p->tt_pending = 0;
    p->tt_answer = answer ? answer->value : 0;
    if (st->phase != ENGINE_PHASE_BATTLE || p->step >= BATTLE_STEP_COUNT)
        return;
    if (p->offered != 0) {
        /* version 1 applied the Voice or the question, then asked the seat
         * it was used against for its Karama, in a step of its own */
        const engine_action *held = &p->pending;
        if (held->kind == ENGINE_ACTION_VOICE) {
            p->step = V1_VOICE_KARAMA;
            p->voice_must = (uint8_t)held->arg[0];
            p->voice_class = (uint8_t)held->arg[1];
        } else {
            p->step = V1_PRESCIENCE_KARAMA;
            p->prescience_element = (uint8_t)held->arg[0];
        }
        return;
    }
    if (p->tt_pending != SEAT_NONE) {
        /* the answer was a step of its own, the plan's answers kept aside */
        p->step = V1_TRUTH_ANSWER;
        p->tt_saved = p->answered;
        p->awaiting = (uint16_t)ENGINE_SEAT_BIT(p->tt_pending);
        p->answered = 0;
        return;
    }
    p->step = v1_step[p->step];
}

int engine__pause_from_v1(engine__legacy_pause *p, const engine_state *st)
{
    static const engine_action none;
    unsigned n = st->config.n_seats;
    p->owner = p->user = p->retake = SEAT_NONE;
    p->ship_seat = p->ship_payer = SEAT_NONE;
    p->tt_asker = SEAT_NONE;
    p->pending = none;
    if (p->tt_pending == 0 && before_first_battle(st))
        p->tt_pending = SEAT_NONE;
    if (p->tt_answer > 1)
        return -1;
    if (p->tt_answer == 0) /* no answer, or a "no" (version 1 writes both so) */
        p->tt_answer = SEAT_NONE;
    /* the asker of the last answer is not written: unknown (SEAT_NONE) */
    p->tt_kept = SEAT_NONE;
    if (p->tt_pending != SEAT_NONE) {
        p->tt_kept = p->tt_answer;
        p->tt_answer = SEAT_NONE;
    }
    if (st->phase != ENGINE_PHASE_BATTLE)
        return p->tt_pending == SEAT_NONE && p->tt_saved == 0 ? 0 : -1;
    if (p->step >= V1_STEP_COUNT)
        return -1;
    unsigned a = st->battle_seat[0], d = st->battle_seat[1];
    uint16_t plans = 0;
    if (a < n && d < n)
        plans = (uint16_t)(ENGINE_SEAT_BIT(a) | ENGINE_SEAT_BIT(d));
    if (p->tt_pending != SEAT_NONE || p->tt_saved != 0) {
        /* the asker, which version 1 does not write: the side asked for its
         * plan that had not answered, other than the target */
        unsigned t = p->tt_pending;
        if (p->step != V1_TRUTH_ANSWER || t >= n || p->awaiting != ENGINE_SEAT_BIT(t) ||
            p->answered != 0 || (p->tt_saved & ~plans))
            return -1;
        uint16_t could = (uint16_t)(plans & ~p->tt_saved & ~ENGINE_SEAT_BIT(t));
        if (could == 0)
            return -1;
        p->tt_asker = (uint8_t)engine__lowest_seat(could);
        p->step = BATTLE_STEP_PLAN;
        p->awaiting = plans;
        p->answered = p->tt_saved;
        return 0;
    }
    if (p->step == V1_VOICE_KARAMA || p->step == V1_PRESCIENCE_KARAMA) {
        int is_voice = p->step == V1_VOICE_KARAMA;
        engine__point point = is_voice ? ENGINE__POINT_VOICE : ENGINE__POINT_PRESCIENCE;
        int owner = engine__point_owner(st, point);
        if (owner < 0 || plans == 0 || (is_voice && p->voice_class == ENGINE_VOICE_NONE) ||
            (!is_voice && p->prescience_element == ENGINE_PRESCIENCE_NONE))
            return -1;
        unsigned mine = opponent_of(st, opponent_of(st, (unsigned)owner));
        p->pending.kind = is_voice ? ENGINE_ACTION_VOICE : ENGINE_ACTION_PRESCIENCE;
        p->pending.seat = (uint8_t)owner;
        if (is_voice) {
            p->pending.arg[0] = p->voice_must;
            p->pending.arg[1] = p->voice_class;
            p->voice_must = 0;
            p->voice_class = ENGINE_VOICE_NONE;
        } else {
            p->pending.arg[0] = p->prescience_element;
            p->prescience_element = ENGINE_PRESCIENCE_NONE;
        }
        p->offered = ENGINE_ADVANTAGE_BIT(engine__point_advantage(st, point, mine));
        p->owner = p->user = (uint8_t)owner;
        p->saved_awaiting = (uint16_t)ENGINE_SEAT_BIT((unsigned)owner);
        p->saved_answered = 0;
        p->step = is_voice ? BATTLE_STEP_VOICE : BATTLE_STEP_PRESCIENCE;
        return 0;
    }
    for (unsigned s = 0; s < BATTLE_STEP_COUNT; s++)
        if (v1_step[s] == p->step) {
            p->step = (uint8_t)s;
            return 0;
        }
    return -1;
}

int engine__pause_v1_kept(engine_state *st, const engine__legacy_pause *p)
{
    if (p->tt_kept == SEAT_NONE)
        return 0;
    engine_effect e = {ENGINE_EFFECT_ANSWER, ENGINE_CARD_TRUTHTRANCE, SEAT_NONE, p->tt_kept,
                       ENGINE_EXPIRY_REPLACED, 0};
    return engine__effect_add(st, &e);
}
