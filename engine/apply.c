/*
 * apply.c - engine_apply and engine_legal_actions: the generic checks every
 * action passes (known kind, seat, phase, step, awaited, arguments in
 * range) before its handler, the rule half of the action table, and the
 * verdict names. Rules specific to a kind live in its phase's file.
 *
 * Invariants: (1) a rejected action leaves the state byte-identical: the
 * generic checks mutate nothing and every handler validates before it
 * mutates; (2) an action engine_legal_actions describes is never rejected,
 * and one it does not describe always is; (3) a side action (a row whose
 * phase is ENGINE__PHASE_ANY) is checked against the step's prompt, not a
 * step of its own, and its families follow the step's for each seat, so a
 * seat's first family is always its step's decision; (4) while a window
 * is open (engine/frame.c) the answers its point lists (rows whose phase
 * is ENGINE__PHASE_WINDOW and whose step is that point) are the only kinds
 * accepted and its point's families the only ones offered (with the side
 * actions where the point admits them), and they are refused when no such
 * window is on top.
 */
#include <assert.h>
#include <string.h>

#include "engine/phase.h"

#define SEAT_NONE 0xFF

const engine__action_rule engine__action_rules[ENGINE_ACTION_KIND_COUNT] = {
    [ENGINE_ACTION_NONE] = {0, 0, NULL},
    [ENGINE_ACTION_PREDICT] = {ENGINE_PHASE_SETUP, SETUP_STEP_PREDICTION, engine__predict},
    [ENGINE_ACTION_TRAITOR_PICK] = {ENGINE_PHASE_SETUP, SETUP_STEP_TRAITORS, engine__traitor_pick},
    [ENGINE_ACTION_FREMEN_PLACE] = {ENGINE_PHASE_SETUP, SETUP_STEP_FREMEN, engine__fremen_place},
    [ENGINE_ACTION_BG_PLACE] = {ENGINE_PHASE_SETUP, SETUP_STEP_BG_PLACE, engine__bg_place},
    [ENGINE_ACTION_STORM_DIAL] = {ENGINE_PHASE_STORM, STORM_STEP_DIAL, engine__storm_dial},
    [ENGINE_ACTION_ALLIANCE_PROPOSE] = {ENGINE_PHASE_SPICE_BLOW, BLOW_STEP_NEXUS,
                                        engine__alliance_propose},
    [ENGINE_ACTION_ALLIANCE_ACCEPT] = {ENGINE_PHASE_SPICE_BLOW, BLOW_STEP_NEXUS,
                                       engine__alliance_accept},
    [ENGINE_ACTION_ALLIANCE_REFUSE] = {ENGINE_PHASE_SPICE_BLOW, BLOW_STEP_NEXUS,
                                       engine__alliance_refuse},
    [ENGINE_ACTION_ALLIANCE_BREAK] = {ENGINE_PHASE_SPICE_BLOW, BLOW_STEP_NEXUS,
                                      engine__alliance_break},
    [ENGINE_ACTION_NEXUS_DONE] = {ENGINE_PHASE_SPICE_BLOW, BLOW_STEP_NEXUS, engine__nexus_done},
    [ENGINE_ACTION_WORM_RIDE] = {ENGINE_PHASE_SPICE_BLOW, BLOW_STEP_WORM_RIDE, engine__worm_ride},
    [ENGINE_ACTION_WORM_RIDE_PASS] = {ENGINE_PHASE_SPICE_BLOW, BLOW_STEP_WORM_RIDE,
                                      engine__worm_ride_pass},
    [ENGINE_ACTION_CHARITY_CLAIM] = {ENGINE_PHASE_CHOAM_CHARITY, CHARITY_STEP_CLAIM,
                                     engine__charity_claim},
    [ENGINE_ACTION_CHARITY_DECLINE] = {ENGINE_PHASE_CHOAM_CHARITY, CHARITY_STEP_CLAIM,
                                       engine__charity_decline},
    [ENGINE_ACTION_ALLY_SUPPORT] = {ENGINE_PHASE_BIDDING, BIDDING_STEP_SUPPORT,
                                    engine__ally_support},
    [ENGINE_ACTION_BID] = {ENGINE_PHASE_BIDDING, BIDDING_STEP_AUCTION, engine__bid},
    [ENGINE_ACTION_BID_PASS] = {ENGINE_PHASE_BIDDING, BIDDING_STEP_AUCTION, engine__bid_pass},
    [ENGINE_ACTION_KARAMA_TAKE] = {ENGINE_PHASE_BIDDING, BIDDING_STEP_AUCTION,
                                   engine__karama_take},
    [ENGINE_ACTION_EMPEROR_REVIVAL] = {ENGINE__PHASE_WINDOW, ENGINE_WINDOW_ALLY_REVIVAL,
                                       engine__emperor_revival},
    [ENGINE_ACTION_REVIVE] = {ENGINE_PHASE_REVIVAL, REVIVAL_STEP_REVIVE, engine__revive},
    [ENGINE_ACTION_GHOLA] = {ENGINE__PHASE_ANY, 0, engine__ghola},
    [ENGINE_ACTION_SHIP] = {ENGINE_PHASE_SHIPMENT_MOVEMENT, SHIP_STEP_SHIP, engine__ship},
    [ENGINE_ACTION_FREMEN_SEND] = {ENGINE_PHASE_SHIPMENT_MOVEMENT, SHIP_STEP_SHIP,
                                   engine__fremen_send},
    [ENGINE_ACTION_CROSS_SHIP] = {ENGINE_PHASE_SHIPMENT_MOVEMENT, SHIP_STEP_SHIP,
                                  engine__cross_ship},
    [ENGINE_ACTION_SHIP_BACK] = {ENGINE_PHASE_SHIPMENT_MOVEMENT, SHIP_STEP_SHIP, engine__ship_back},
    [ENGINE_ACTION_SHIP_PASS] = {ENGINE_PHASE_SHIPMENT_MOVEMENT, SHIP_STEP_SHIP, engine__ship_pass},
    [ENGINE_ACTION_BG_SEND] = {ENGINE__PHASE_WINDOW, ENGINE_WINDOW_BG_SEND, engine__bg_send},
    [ENGINE_ACTION_MOVE] = {ENGINE_PHASE_SHIPMENT_MOVEMENT, SHIP_STEP_MOVE, engine__move},
    [ENGINE_ACTION_HAJR_MOVE] = {ENGINE_PHASE_SHIPMENT_MOVEMENT, SHIP_STEP_MOVE, engine__hajr_move},
    [ENGINE_ACTION_MOVE_PASS] = {ENGINE_PHASE_SHIPMENT_MOVEMENT, SHIP_STEP_MOVE, engine__move_pass},
    [ENGINE_ACTION_BATTLE_CHOOSE] = {ENGINE_PHASE_BATTLE, BATTLE_STEP_CHOOSE, engine__battle_choose},
    [ENGINE_ACTION_PRESCIENCE] = {ENGINE__PHASE_WINDOW, ENGINE_WINDOW_PRESCIENCE,
                                  engine__prescience},
    [ENGINE_ACTION_PRESCIENCE_PASS] = {ENGINE__PHASE_WINDOW, ENGINE_WINDOW_PRESCIENCE,
                                       engine__prescience_pass},
    [ENGINE_ACTION_PRESCIENCE_ANSWER] = {ENGINE__PHASE_WINDOW, ENGINE_WINDOW_PRESCIENCE_ANSWER,
                                         engine__prescience_answer},
    [ENGINE_ACTION_VOICE] = {ENGINE__PHASE_WINDOW, ENGINE_WINDOW_VOICE, engine__voice},
    [ENGINE_ACTION_VOICE_PASS] = {ENGINE__PHASE_WINDOW, ENGINE_WINDOW_VOICE, engine__voice_pass},
    [ENGINE_ACTION_KARAMA_CANCEL] = {ENGINE__PHASE_WINDOW, ENGINE_WINDOW_KARAMA,
                                     engine__karama_cancel},
    [ENGINE_ACTION_KARAMA_ALLOW] = {ENGINE__PHASE_WINDOW, ENGINE_WINDOW_KARAMA,
                                    engine__karama_allow},
    [ENGINE_ACTION_BATTLE_PLAN] = {ENGINE_PHASE_BATTLE, BATTLE_STEP_PLAN, engine__battle_plan},
    [ENGINE_ACTION_TRAITOR_CALL] = {ENGINE_PHASE_BATTLE, BATTLE_STEP_TRAITOR, engine__traitor_call},
    [ENGINE_ACTION_KEEP_CARDS] = {ENGINE_PHASE_BATTLE, BATTLE_STEP_KEEP, engine__keep_cards},
    [ENGINE_ACTION_WEATHER_CONTROL] = {ENGINE_PHASE_STORM, STORM_STEP_CARDS,
                                       engine__weather_control},
    [ENGINE_ACTION_FAMILY_ATOMICS] = {ENGINE_PHASE_STORM, STORM_STEP_CARDS, engine__family_atomics},
    [ENGINE_ACTION_STORM_CARDS_PASS] = {ENGINE_PHASE_STORM, STORM_STEP_CARDS,
                                        engine__storm_cards_pass},
    [ENGINE_ACTION_TRUTHTRANCE] = {ENGINE__PHASE_ANY, 0, engine__truthtrance},
    [ENGINE_ACTION_TRUTHTRANCE_ANSWER] = {ENGINE__PHASE_WINDOW, ENGINE_WINDOW_TRUTHTRANCE,
                                          engine__truthtrance_answer},
    [ENGINE_ACTION_SHIP_KARAMA_FROM] = {ENGINE_PHASE_SHIPMENT_MOVEMENT, SHIP_STEP_SHIP,
                                        engine__ship_karama_from},
    [ENGINE_ACTION_SHIP_KARAMA_ANSWER] = {ENGINE__PHASE_WINDOW, ENGINE_WINDOW_SHIP_PAYER,
                                          engine__ship_karama_answer},
    [ENGINE_ACTION_FREMEN_PROTECT_ALLY] = {ENGINE__PHASE_WINDOW, ENGINE_WINDOW_WORM_ALLY,
                                           engine__fremen_protect_ally},
    [ENGINE_ACTION_FREMEN_ALLY_REVIVAL] = {ENGINE__PHASE_WINDOW, ENGINE_WINDOW_ALLY_REVIVAL,
                                           engine__fremen_ally_revival},
    [ENGINE_ACTION_KARAMA_POLICY] = {ENGINE__PHASE_ANY, 0, engine__karama_policy},
    [ENGINE_ACTION_NEXUS_DRAW] = {ENGINE_PHASE_SPICE_BLOW, BLOW_STEP_NEXUS_DRAW,
                                  engine__nexus_draw},
    [ENGINE_ACTION_POWER] = {ENGINE__PHASE_ANY, 0, engine__power},
    [ENGINE_ACTION_ANSWER] = {ENGINE__PHASE_WINDOW, ENGINE_WINDOW_GENERIC, engine__answer},
};

/* What a seat may do in each step of each built phase. */
#define MAX_STEPS 12
static const engine__legal_fn step_legal[ENGINE_PHASE_COUNT][MAX_STEPS] = {
    [ENGINE_PHASE_SETUP] = {
        [SETUP_STEP_PREDICTION] = engine__legal_predict,
        [SETUP_STEP_TRAITORS] = engine__legal_traitor_pick,
        [SETUP_STEP_FREMEN] = engine__legal_fremen_place,
        [SETUP_STEP_BG_PLACE] = engine__legal_bg_place,
    },
    [ENGINE_PHASE_STORM] = {
        [STORM_STEP_DIAL] = engine__legal_storm_dial,
        [STORM_STEP_CARDS] = engine__legal_storm_cards,
        [STORM_STEP_LOSSES] = engine__legal_power_decision,
    },
    [ENGINE_PHASE_SPICE_BLOW] = {
        [BLOW_STEP_NEXUS] = engine__legal_nexus,
        [BLOW_STEP_WORM_RIDE] = engine__legal_worm_ride,
        [BLOW_STEP_NEXUS_DRAW] = engine__legal_nexus_draw,
        [BLOW_STEP_WORM_PLACE] = engine__legal_power_decision,
        [BLOW_STEP_KARAMA_WORM] = engine__legal_power_decision,
    },
    [ENGINE_PHASE_CHOAM_CHARITY] = {[CHARITY_STEP_CLAIM] = engine__legal_charity},
    [ENGINE_PHASE_BIDDING] = {
        [BIDDING_STEP_SUPPORT] = engine__legal_support,
        [BIDDING_STEP_AUCTION] = engine__legal_auction,
    },
    [ENGINE_PHASE_REVIVAL] = {
        [REVIVAL_STEP_REVIVE] = engine__legal_revive,
    },
    [ENGINE_PHASE_SHIPMENT_MOVEMENT] = {
        [SHIP_STEP_SHIP] = engine__legal_ship,
        [SHIP_STEP_MOVE] = engine__legal_move,
    },
    [ENGINE_PHASE_BATTLE] = {
        [BATTLE_STEP_CHOOSE] = engine__legal_battle,
        [BATTLE_STEP_PLAN] = engine__legal_battle,
        [BATTLE_STEP_TRAITOR] = engine__legal_battle,
        [BATTLE_STEP_KEEP] = engine__legal_battle,
        [BATTLE_STEP_CAPTURE] = engine__legal_power_decision,
    },
    /* rules version 8: the returns of traitors a panel drew at the
     * Mentat Pause's own moment (engine/nexus_moment.c) */
    [ENGINE_PHASE_MENTAT_PAUSE] = {engine__nexus_legal_owed},
};
_Static_assert(SETUP_STEP_COUNT <= MAX_STEPS && BLOW_STEP_COUNT <= MAX_STEPS &&
               BIDDING_STEP_COUNT <= MAX_STEPS && REVIVAL_STEP_COUNT <= MAX_STEPS &&
               SHIP_STEP_COUNT <= MAX_STEPS && BATTLE_STEP_COUNT <= MAX_STEPS,
               "step_legal has a column for every step");

static const char *const verdict_names[ENGINE_VERDICT_COUNT] = {
    [ENGINE_ACCEPTED] = "accepted",
    [ENGINE_REJECT_UNKNOWN_KIND] = "unknown_kind",
    [ENGINE_REJECT_BAD_SEAT] = "bad_seat",
    [ENGINE_REJECT_WRONG_PHASE] = "wrong_phase",
    [ENGINE_REJECT_NOT_AWAITED] = "not_awaited",
    [ENGINE_REJECT_ALREADY_ANSWERED] = "already_answered",
    [ENGINE_REJECT_ARG_OUT_OF_RANGE] = "arg_out_of_range",
    [ENGINE_REJECT_PHASE_NOT_IMPLEMENTED] = "phase_not_implemented",
    [ENGINE_REJECT_GAME_OVER] = "game_over",
    [ENGINE_REJECT_RULE_NOT_IMPLEMENTED] = "rule_not_implemented",
    [ENGINE_REJECT_BAD_CONFIG] = "bad_config",
    [ENGINE_REJECT_PREDICT_OWN_FACTION] = "predict_own_faction",
    [ENGINE_REJECT_PREDICT_FACTION_ABSENT] = "predict_faction_absent",
    [ENGINE_REJECT_PREDICT_TURN] = "predict_turn",
    [ENGINE_REJECT_TRAITOR_NOT_DEALT] = "traitor_not_dealt",
    [ENGINE_REJECT_FREMEN_PLACEMENT_TOTAL] = "fremen_placement_total",
    [ENGINE_REJECT_BG_PLACEMENT_LOCATION] = "bg_placement_location",
    [ENGINE_REJECT_STORM_DIAL_RANGE] = "storm_dial_range",
    [ENGINE_REJECT_NOT_A_DIALER] = "not_a_dialer",
    [ENGINE_REJECT_ALLY_SELF] = "ally_self",
    [ENGINE_REJECT_ALREADY_ALLIED] = "already_allied",
    [ENGINE_REJECT_NOT_ALLIED] = "not_allied",
    [ENGINE_REJECT_NO_PROPOSAL] = "no_proposal",
    [ENGINE_REJECT_ALREADY_PROPOSED] = "already_proposed",
    [ENGINE_REJECT_ALREADY_BROKE] = "already_broke",
    [ENGINE_REJECT_RIDE_SOURCE] = "ride_source",
    [ENGINE_REJECT_RIDE_DESTINATION] = "ride_destination",
    [ENGINE_REJECT_STORM_BLOCKS] = "storm_blocks",
    [ENGINE_REJECT_OCCUPANCY_LIMIT] = "occupancy_limit",
    [ENGINE_REJECT_CHARITY_NOT_ELIGIBLE] = "charity_not_eligible",
    [ENGINE_REJECT_BID_TOO_LOW] = "bid_too_low",
    [ENGINE_REJECT_BID_OVER_LIMIT] = "bid_over_limit",
    [ENGINE_REJECT_NO_KARAMA] = "no_karama",
    [ENGINE_REJECT_SUPPORT_OVER_SPICE] = "support_over_spice",
    [ENGINE_REJECT_REVIVAL_LIMIT] = "revival_limit",
    [ENGINE_REJECT_REVIVAL_TANKS] = "revival_tanks",
    [ENGINE_REJECT_CANNOT_PAY] = "cannot_pay",
    [ENGINE_REJECT_LEADER_NOT_REVIVABLE] = "leader_not_revivable",
    [ENGINE_REJECT_NO_GHOLA] = "no_ghola",
    [ENGINE_REJECT_NOT_EMPEROR_ALLY] = "not_emperor_ally",
    [ENGINE_REJECT_FREMEN_CANNOT_SHIP] = "fremen_cannot_ship",
    [ENGINE_REJECT_NOT_ENOUGH_FORCES] = "not_enough_forces",
    [ENGINE_REJECT_NOT_YOUR_POWER] = "not_your_power",
    [ENGINE_REJECT_SEND_DESTINATION] = "send_destination",
    [ENGINE_REJECT_NO_PATH] = "no_path",
    [ENGINE_REJECT_NO_HAJR] = "no_hajr",
    [ENGINE_REJECT_NO_SUCH_BATTLE] = "no_such_battle",
    [ENGINE_REJECT_LEADER_UNAVAILABLE] = "leader_unavailable",
    [ENGINE_REJECT_LEADER_REQUIRED] = "leader_required",
    [ENGINE_REJECT_CARD_NOT_HELD] = "card_not_held",
    [ENGINE_REJECT_CARD_WRONG_SLOT] = "card_wrong_slot",
    [ENGINE_REJECT_CARDS_WITHOUT_LEADER] = "cards_without_leader",
    [ENGINE_REJECT_DIAL_RANGE] = "dial_range",
    [ENGINE_REJECT_VOICE_DISOBEYED] = "voice_disobeyed",
    [ENGINE_REJECT_PRESCIENCE_MISMATCH] = "prescience_mismatch",
    [ENGINE_REJECT_NOT_A_TRAITOR] = "not_a_traitor",
    [ENGINE_REJECT_CARD_NOT_KEPT] = "card_not_kept",
    [ENGINE_REJECT_NO_CARD] = "no_card",
    [ENGINE_REJECT_ATOMICS_OUT_OF_REACH] = "atomics_out_of_reach",
    [ENGINE_REJECT_ADVANTAGE_CANCELLED] = "advantage_cancelled",
    [ENGINE_REJECT_PAYER_HOLDS_NO_CARDS] = "payer_holds_no_cards",
    [ENGINE_REJECT_WRONG_STEP] = "wrong_step",
    [ENGINE_REJECT_MOVE_SAME_SECTOR] = "move_same_sector",
    [ENGINE_REJECT_ALREADY_MOVED] = "already_moved",
    [ENGINE_REJECT_NEXUS_RETURN_OWED] = "nexus_return_owed",
};
_Static_assert(sizeof verdict_names / sizeof verdict_names[0] == ENGINE_VERDICT_COUNT,
               "a name for every verdict");

static const char *const phase_names[ENGINE_PHASE_COUNT] = {
    [ENGINE_PHASE_SETUP] = "setup",
    [ENGINE_PHASE_STORM] = "storm",
    [ENGINE_PHASE_SPICE_BLOW] = "spice_blow",
    [ENGINE_PHASE_CHOAM_CHARITY] = "choam_charity",
    [ENGINE_PHASE_BIDDING] = "bidding",
    [ENGINE_PHASE_REVIVAL] = "revival",
    [ENGINE_PHASE_SHIPMENT_MOVEMENT] = "shipment_movement",
    [ENGINE_PHASE_BATTLE] = "battle",
    [ENGINE_PHASE_SPICE_COLLECTION] = "spice_collection",
    [ENGINE_PHASE_MENTAT_PAUSE] = "mentat_pause",
    [ENGINE_PHASE_GAME_OVER] = "game_over",
};
_Static_assert(sizeof phase_names / sizeof phase_names[0] == ENGINE_PHASE_COUNT,
               "a name for every phase");

const char *engine_verdict_name(engine_verdict v)
{
    return (unsigned)v < ENGINE_VERDICT_COUNT ? verdict_names[v] : "unknown_verdict";
}

const char *engine_phase_name(unsigned p)
{
    return p < ENGINE_PHASE_COUNT ? phase_names[p] : NULL;
}

void engine_config_init(engine_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->turn_limit = ENGINE_DEFAULT_TURN_LIMIT;
    cfg->rules_version = ENGINE_RULES_VERSION;
    for (unsigned s = 0; s < ENGINE_MAX_SEATS; s++)
        cfg->faction[s] = ENGINE_FACTION_NONE;
}

int engine__phase_is_built(const engine_state *st)
{
    switch ((engine_phase)st->phase) {
    case ENGINE_PHASE_SETUP:
    case ENGINE_PHASE_STORM:
    case ENGINE_PHASE_CHOAM_CHARITY:
    case ENGINE_PHASE_BIDDING:
    case ENGINE_PHASE_REVIVAL:
    case ENGINE_PHASE_SHIPMENT_MOVEMENT:
    case ENGINE_PHASE_BATTLE:
    case ENGINE_PHASE_SPICE_COLLECTION:
    case ENGINE_PHASE_MENTAT_PAUSE:
    case ENGINE_PHASE_GAME_OVER:
        return 1;
    case ENGINE_PHASE_SPICE_BLOW:
        /* the Advanced double blow is built from rules version 6 on */
        return !st->config.is_advanced || engine__double_blow(st);
    case ENGINE_PHASE_COUNT:
        return 0;
    }
    return 0;
}

void engine__phase_enter(engine_state *st, unsigned phase)
{
    st->phase = (uint8_t)phase;
    st->step = 0;
    st->awaiting = 0;
    st->answered = 0;
    /* A Karama's cancellation lasts until the retake, at most to the end
     * of the phase (docs/RULINGS.md "Karama"). */
    engine__effect_expire(st, phase);
}

/* ============================================================== apply */

/* The phase a kind belongs to: its own, or for a window's answer the
 * phase its point was a step of (a wrong step is told there). */
static unsigned home_phase(const engine__action_rule *rule)
{
    return rule->phase == ENGINE__PHASE_WINDOW ? engine__windows[rule->step].home_phase
                                               : rule->phase;
}

unsigned engine__action_home_phase(unsigned kind)
{
    return home_phase(&engine__action_rules[kind]);
}

/* NOT_AWAITED; from rules version 3 on its detail names the seats the
 * game waits on (a public fact). */
static engine_verdict not_awaited(engine_verdict_detail *why, const engine_state *st)
{
    if (!engine__rule(st, ENGINE__RULE_WRONG_STEP))
        return ENGINE_REJECT_NOT_AWAITED;
    return engine__reject(why, ENGINE_REJECT_NOT_AWAITED, -1, engine_state_awaiting(st));
}

engine_verdict engine_apply(engine_verdict_detail *why, engine_state *st,
                            const engine_action *act, engine_rng *rng)
{
    if (why) {
        why->arg = -1;
        why->value = 0;
    }
    const engine_action_spec *spec = engine_action_spec_of(act->kind);
    /* the generic kinds do not exist before the rules versions adding them */
    if (!spec || (act->kind == ENGINE_ACTION_POWER && !engine__rule(st, ENGINE__RULE_GENERIC_ACTIONS)) ||
        (act->kind == ENGINE_ACTION_ANSWER && !engine__rule(st, ENGINE__RULE_GENERIC_WINDOWS)) ||
        !engine__kind_in_force(st, act->kind))
        return engine__reject(why, ENGINE_REJECT_UNKNOWN_KIND, -1, act->kind);
    if (st->phase == ENGINE_PHASE_GAME_OVER)
        return ENGINE_REJECT_GAME_OVER;
    if (act->seat >= st->config.n_seats)
        return engine__reject(why, ENGINE_REJECT_BAD_SEAT, -1, act->seat);
    /* optional arguments are unused before the rules version adding them */
    for (int i = (int)engine__args_in_force(st, act->kind); i < ENGINE_ACTION_MAX_ARGS; i++)
        if (act->arg[i] != 0)
            return engine__reject(why, ENGINE_REJECT_ARG_OUT_OF_RANGE, i, act->arg[i]);
    if (!engine__phase_is_built(st))
        return engine__reject(why, ENGINE_REJECT_PHASE_NOT_IMPLEMENTED, -1, st->phase);
    const engine__action_rule *rule = &engine__action_rules[act->kind];
    uint16_t bit = ENGINE_SEAT_BIT(act->seat);
    unsigned home = home_phase(rule);
    const engine_frame *top = engine_window_top(st);
    if (top) {
        /* An open window admits the answers its point lists, from the
         * seats it asks (and side actions where its point says so); a
         * question refuses a seat it does not ask before anything else. */
        const engine__window_row *point = &engine__windows[top->point];
        int is_open = (top->asked & ~top->answered & bit) != 0;
        if (point->is_question && !is_open)
            return not_awaited(why, st);
        int is_answer = rule->phase == ENGINE__PHASE_WINDOW && rule->step == top->point;
        int is_side = rule->phase == ENGINE__PHASE_ANY && point->admits_side;
        if (!is_answer && !is_side) {
            if (!point->is_question && home == st->phase && engine__rule(st, ENGINE__RULE_WRONG_STEP))
                return engine__reject(why, ENGINE_REJECT_WRONG_STEP, -1,
                                      (int32_t)engine__told_step(st));
            return engine__reject(why, ENGINE_REJECT_WRONG_PHASE, -1, st->phase);
        }
        if (!(top->asked & bit))
            return not_awaited(why, st);
        if (top->answered & bit)
            return ENGINE_REJECT_ALREADY_ANSWERED;
    } else {
        /* A side action is legal in any step after setup (docs/RULINGS.md
         * R32, R50), a window's answer in no step, every other kind in its
         * own. */
        int step_ok = rule->phase == ENGINE__PHASE_ANY
                          ? st->phase != ENGINE_PHASE_SETUP &&
                                (engine__rule(st, ENGINE__RULE_CARDS_WHEN_ASKED) ||
                                 engine__card_step_v1(st, act->kind))
                          : rule->phase == st->phase && rule->step == st->step;
        if (!step_ok && home == st->phase && engine__rule(st, ENGINE__RULE_WRONG_STEP))
            return engine__reject(why, ENGINE_REJECT_WRONG_STEP, -1, st->step);
        if (!step_ok)
            return engine__reject(why, ENGINE_REJECT_WRONG_PHASE, -1, st->phase);
        /* Either way by a seat the step waits on; a side action does not
         * answer it. */
        if (!(st->awaiting & bit))
            return not_awaited(why, st);
        if (st->answered & bit)
            return ENGINE_REJECT_ALREADY_ANSWERED;
    }
    /* Traitors a Nexus panel drew go back before the seat does anything
     * else but answer a window admitting no side action (engine/nexus.c). */
    engine_verdict v = engine__nexus_gate(why, st, act,
                                          top != NULL && !engine__windows[top->point].admits_side);
    if (v != ENGINE_ACCEPTED)
        return v;
    v = rule->handle(why, st, act, rng);
    if (v == ENGINE_ACCEPTED && home < ENGINE_PHASE_COUNT)
        engine__karama_after(st, act);
#ifndef NDEBUG
    if (v == ENGINE_ACCEPTED)
        assert(engine_state_check(st) == 0);
#endif
    return v;
}

/* ====================================================== legal actions */

void engine__legal_init(engine_legal *l, unsigned kind, uint8_t seat)
{
    memset(l, 0, sizeof *l);
    l->kind = (uint8_t)kind;
    l->seat = seat;
    l->sum = -1;
}

void engine__legal_push(engine_legal *out, size_t cap, size_t *n, const engine_legal *l)
{
    if (*n < cap)
        out[*n] = *l;
    (*n)++;
}

void engine__legal_push1(engine_legal *out, size_t cap, size_t *n, unsigned kind, uint8_t seat,
                         int lo0, int hi0, int lo1, int hi1)
{
    engine_legal l;
    engine__legal_init(&l, kind, seat);
    l.lo[0] = (int16_t)lo0;
    l.hi[0] = (int16_t)hi0;
    l.lo[1] = (int16_t)lo1;
    l.hi[1] = (int16_t)hi1;
    engine__legal_push(out, cap, n, &l);
}

size_t engine_legal_actions(engine_legal *out, size_t cap, const engine_state *st, uint8_t seat)
{
    size_t n = 0;
    if (st->phase == ENGINE_PHASE_GAME_OVER || !engine__phase_is_built(st))
        return 0;
    uint16_t open = engine_state_awaiting(st);
    /* An open window: the families of its point for the seats it asks. */
    const engine_frame *top = engine_window_top(st);
    int is_step = top == NULL || engine__windows[top->point].admits_side;
    engine__legal_fn legal = top ? engine__windows[top->point].legal
                             : st->step < MAX_STEPS ? step_legal[st->phase][st->step] : NULL;
    if (!legal)
        return 0;
    for (uint8_t s = 0; s < st->config.n_seats; s++) {
        if (seat != ENGINE_SEAT_ENGINE && s != seat)
            continue;
        if (!(open & ENGINE_SEAT_BIT(s)))
            continue;
        if (is_step && engine__nexus_owed(st, s)) {
            n += engine__nexus_legal_owed(out && n < cap ? out + n : NULL, n < cap ? cap - n : 0, st, s);
            continue;
        }
        n += legal(out && n < cap ? out + n : NULL, n < cap ? cap - n : 0, st, s);
        /* The step's own families first, then the side actions. */
        if (is_step)
            n += engine__legal_side(out && n < cap ? out + n : NULL, n < cap ? cap - n : 0, st, s);
    }
    return n;
}

/* The top window that is not a question, NULL for the step (a question
 * is set aside: it is always answerable). */
static const engine_frame *asking_frame(const engine_state *st)
{
    for (unsigned i = st->n_frames; i-- > 0;)
        if (!engine__windows[st->frame[i].point].is_question)
            return &st->frame[i];
    return NULL;
}

uint16_t engine__open_seats(const engine_state *st)
{
    const engine_frame *f = asking_frame(st);
    return f ? (uint16_t)(f->asked & ~f->answered) : (uint16_t)(st->awaiting & ~st->answered);
}

int engine__any_legal(const engine_state *st)
{
    if (st->phase == ENGINE_PHASE_GAME_OVER || !engine__phase_is_built(st))
        return 0;
    const engine_frame *f = asking_frame(st);
    engine__legal_fn legal = f ? engine__windows[f->point].legal
                             : st->step < MAX_STEPS ? step_legal[st->phase][st->step] : NULL;
    if (!legal)
        return 0;
    uint16_t open = engine__open_seats(st);
    for (uint8_t s = 0; s < st->config.n_seats; s++)
        if ((open & ENGINE_SEAT_BIT(s)) && legal(NULL, 0, st, s) > 0)
            return 1;
    return 0;
}

int engine_legal_contains(const engine_legal *l, const engine_action *act)
{
    if (act->kind != l->kind || act->seat != l->seat)
        return 0;
    const engine_action_spec *spec = engine_action_spec_of(act->kind);
    if (!spec)
        return 0;
    int total = 0;
    for (int i = 0; i < ENGINE_ACTION_MAX_ARGS; i++) {
        if (act->arg[i] < l->lo[i] || act->arg[i] > l->hi[i])
            return 0;
        if (i < spec->n_args)
            total += act->arg[i];
    }
    return (l->sum < 0 || total == l->sum) && engine_legal_caps_hold(l, act->arg);
}

static int cap_total(const engine_legal *l, unsigned k, const int16_t *arg)
{
    int total = 0;
    for (unsigned i = 0; i < ENGINE_ACTION_MAX_ARGS; i++)
        if (l->cap_mask[k] & (1u << i))
            total += arg[i];
    return total;
}

int engine_legal_caps_hold(const engine_legal *l, const int16_t arg[ENGINE_ACTION_MAX_ARGS])
{
    for (unsigned k = 0; k < ENGINE_LEGAL_CAPS; k++)
        if (l->cap_mask[k] && cap_total(l, k, arg) > l->cap[k])
            return 0;
    return 1;
}

void engine_legal_clip(const engine_legal *l, int16_t arg[ENGINE_ACTION_MAX_ARGS])
{
    /* Caps are upper bounds over nonnegative sums, so lowering an argument
     * never breaks another; lo meets them all, so this ends inside. */
    for (unsigned k = 0; k < ENGINE_LEGAL_CAPS; k++) {
        if (!l->cap_mask[k])
            continue;
        int over = cap_total(l, k, arg) - l->cap[k];
        for (unsigned i = ENGINE_ACTION_MAX_ARGS; i-- > 0 && over > 0;) {
            if (!(l->cap_mask[k] & (1u << i)))
                continue;
            int down = arg[i] - l->lo[i] < over ? arg[i] - l->lo[i] : over;
            arg[i] = (int16_t)(arg[i] - down);
            over -= down;
        }
    }
}
