/*
 * phase_battle.c - the Battle phase (DUNE_RULES_DIGEST.md 4.7,
 * LR 1.07; rulings in docs/RULINGS.md "Battle"): wherever two factions'
 * forces meet in a territory (not the Polar Sink, not across the storm)
 * they fight, the aggressor in storm order choosing its battles. Before the
 * plans: the Bene Gesserit Voice, then Atreides prescience (each may be
 * cancelled with Karama by any other seat, engine/karama.c). The plans (leader or Cheap
 * Hero, weapon, defense, dial; in the Advanced game the forces by strength
 * with their spice support, engine/advanced.c) are secret until both
 * are in; then traitors may be called (Harkonnen also for its ally);
 * weapons and defenses resolve, a lasgun meeting a shield explodes; the
 * higher total wins, ties to the aggressor; the loser loses every force
 * there and its cards, the winner its dialled forces, keeping what it may;
 * killed leaders go to the Tanks and the winner is paid their strength.
 *
 * Invariants: (1) a plan is in the state from its commitment, but no view
 * shows it to the other side until both are in (engine/view.c); (2) the
 * seats asked at each step follow from public facts only.
 */
#include <assert.h>
#include <string.h>

#include "engine/phase.h"

#define SEAT_NONE 0xFF
#define CARD_NONE 0xFF
#define SIDE_NONE 0xFF
#define LEADER_NONE (-1)

/* ============================================================ helpers */

static unsigned territory_forces(const engine_state *st, unsigned territory, unsigned seat)
{
    unsigned n = 0;
    for (unsigned l = 0; l < ENGINE_LOCATION_COUNT; l++)
        if (engine__locations[l].territory == territory)
            n += (unsigned)st->forces[l][seat] + st->special[l][seat];
    return n;
}

static unsigned card_class(const engine_state *st, int card)
{
    return card < 0 ? 0 : engine__card_kinds[st->card_kind[card]].classes;
}

static int holds(const engine_state *st, unsigned seat, int card)
{
    return card >= 0 && card < st->n_cards && st->card[card].place == ENGINE_PLACE_HAND &&
           st->card[card].holder == seat;
}

static int is_weapon_slot(unsigned classes)
{
    return (classes & (ENGINE_CARD_CLASS_WEAPON_PROJECTILE | ENGINE_CARD_CLASS_WEAPON_POISON |
                       ENGINE_CARD_CLASS_WEAPON_SPECIAL | ENGINE_CARD_CLASS_WORTHLESS)) != 0;
}

static int is_defense_slot(unsigned classes)
{
    return (classes & (ENGINE_CARD_CLASS_DEFENSE_PROJECTILE | ENGINE_CARD_CLASS_DEFENSE_POISON |
                       ENGINE_CARD_CLASS_WORTHLESS)) != 0;
}

/* A leader may fight if alive in the seat's pool (its own, or a captive
 * it holds, engine/capture.c) and not used in another territory this
 * phase (LR 1.07.04.02, 2.05.10.01). */
static int leader_available(const engine_state *st, unsigned seat, unsigned leader)
{
    return engine_leader_holder(st, leader) == (int)seat &&
           (st->leader_territory[leader] == SEAT_NONE ||
            st->leader_territory[leader] == st->battle_territory);
}
static unsigned side_of(const engine_state *st, int seat);

/* The Voice cast on the battle being fought: the Bene Gesserit's own or
 * ally's, or (rules version 8 on) their Nexus card's as a Secret Ally
 * (engine/nexus_bene_gesserit.c); one a battle. */
static const engine_effect *voice_cast(const engine_state *st)
{
    const engine_effect *e = engine_effect_find(st, ENGINE_EFFECT_VOICE);
    return e ? e : engine_effect_find(st, ENGINE_EFFECT_NEXUS_VOICE);
}

/* A leader or Cheap Hero must be played when one is available; a Cheap
 * Hero the Voice forbids is not available (LR 1.07.04.02, 2.02.06). */
static int must_play_a_leader(const engine_state *st, unsigned seat, unsigned side)
{
    for (unsigned l = 0; l < ENGINE_LEADER_COUNT; l++)
        if (leader_available(st, seat, l))
            return 1;
    if (engine__card_in_hand(st, seat, ENGINE_CARD_CHEAP_HERO) == CARD_NONE)
        return 0;
    const engine_effect *voice = voice_cast(st);
    int voiced = voice && voice->value == ENGINE_VOICE_CHEAP_HERO && !voice->arg &&
                 side < 2 && voice->owner == st->battle_seat[side];
    return !voiced;
}

int engine__battle_leader_required(const engine_state *st, unsigned seat)
{
    return must_play_a_leader(st, seat, side_of(st, (int)seat));
}

/* Two seats fight in a territory when some of their forces there are
 * joined by sectors out of the storm (LR 1.07.01; docs/RULINGS.md). */
static int meet(const engine_state *st, unsigned territory, unsigned a, unsigned b)
{
    for (unsigned start = 0; start < ENGINE_LOCATION_HMS; start++) {
        if (engine__locations[start].territory != territory ||
            !(st->forces[start][a] || st->special[start][a]))
            continue;
        if (engine__in_storm(st, start)) {
            if (st->forces[start][b] || st->special[start][b])
                return 1;
            continue;
        }
        uint8_t seen[ENGINE_LOCATION_COUNT] = {0}, stack[ENGINE_LOCATION_COUNT];
        unsigned top = 0;
        stack[top++] = (uint8_t)start;
        seen[start] = 1;
        while (top) {
            unsigned l = stack[--top];
            if (st->forces[l][b] || st->special[l][b])
                return 1;
            const engine__location_row *row = &engine__locations[l];
            for (unsigned i = 0; i < row->n_adj; i++) {
                unsigned m = row->adj[i];
                if (!seen[m] && engine__locations[m].territory == territory &&
                    !engine__in_storm(st, m)) {
                    seen[m] = 1;
                    stack[top++] = (uint8_t)m;
                }
            }
        }
    }
    return 0;
}

static int fights_in(unsigned territory)
{
    return territory != ENGINE_TERRITORY_POLAR_SINK &&
           territory != ENGINE_TERRITORY_HIDDEN_MOBILE_STRONGHOLD;
}

static int has_battle(const engine_state *st, unsigned aggressor)
{
    for (unsigned t = 0; t < ENGINE_TERRITORY_COUNT; t++) {
        if (!fights_in(t) || !territory_forces(st, t, aggressor))
            continue;
        for (unsigned s = 0; s < st->config.n_seats; s++)
            if (s != aggressor && meet(st, t, aggressor, s))
                return 1;
    }
    return 0;
}

/* The side (0 aggressor, 1 defender) a seat fights for or helps as ally,
 * or SIDE_NONE. */
static unsigned side_of(const engine_state *st, int seat)
{
    if (seat < 0)
        return SIDE_NONE;
    /* A side not yet named (0xFF) has no ally to look up: a decoded state
     * may ask before the battle's sides are set. */
    for (unsigned i = 0; i < 2; i++)
        if (st->battle_seat[i] < ENGINE_MAX_SEATS &&
            (st->battle_seat[i] == seat || st->ally[st->battle_seat[i]] == seat))
            return i;
    return SIDE_NONE;
}

static void await(engine_state *st, unsigned step, uint16_t seats)
{
    st->step = (uint8_t)step;
    st->awaiting = seats;
    st->answered = 0;
}

/* ====================================================== the sequence */

static void next_battle(engine_state *st, engine_rng *rng);
static void ask_plans(engine_state *st);

void engine__battle_begin(engine_state *st, engine_rng *rng)
{
    engine__phase_enter(st, ENGINE_PHASE_BATTLE);
    engine__advisors_stewards(st); /* Advanced: before the battles (LR 2.02.21) */
    st->aggressor_index = 0;
    memset(st->leader_territory, SEAT_NONE, sizeof st->leader_territory);
    engine__kh_turn_begins(st);
    next_battle(st, rng);
}

static void battle_end(engine_state *st, engine_rng *rng)
{
    st->battle_territory = ENGINE_TERRITORY_COUNT;
    st->battle_seat[0] = st->battle_seat[1] = SEAT_NONE;
    memset(st->leader_territory, SEAT_NONE, sizeof st->leader_territory);
    engine__collection_begin(st, rng);
}

static void clear_battle(engine_state *st)
{
    for (unsigned i = 0; i < 2; i++) {
        engine_battle_plan *p = &st->plan[i];
        p->leader = p->cheap_hero = p->weapon = p->defense = -1;
        p->dial = p->half = p->elite = p->elite_half = 0;
        p->is_committed = 0;
        p->kwisatz_haderach = ENGINE_KH_UNDECLARED;
    }
    engine__effect_remove(st, ENGINE_EFFECT_VOICE, -1);
    engine__effect_remove(st, ENGINE_EFFECT_PRESCIENCE, -1);
    engine__effect_remove(st, ENGINE_EFFECT_NEXUS_PRESCIENCE, -1);
    engine__nexus_battle_over(st); /* the Emperor's panels' records (rules version 8) */
    engine__effect_remove(st, ENGINE_EFFECT_NEXUS_VOICE, -1);
    st->traitor_called = 0;
    st->battle_winner = SIDE_NONE;
    engine__karama_stops_battle_ends(st);
    st->karama_plan_seen = 0; /* the Atreides' Karama look, for one battle (R139) */
}

/* Starts the battle in `territory` between the aggressor and `defender`. */
static void start_battle(engine_state *st, unsigned territory, unsigned defender)
{
    uint8_t order[ENGINE_MAX_SEATS];
    engine__storm_order(st, order);
    clear_battle(st);
    st->battle_territory = (uint8_t)territory;
    st->battle_seat[0] = order[st->aggressor_index];
    st->battle_seat[1] = (uint8_t)defender;
    /* The step asks for both plans; the Voice first, then prescience, are
     * windows over it (docs/RULINGS.md "Voice before prescience"). */
    ask_plans(st);
    int bg = engine__point_owner(st, ENGINE__POINT_VOICE);
    if (side_of(st, bg) != SIDE_NONE) {
        engine__frame_push(st, ENGINE_WINDOW_VOICE, (unsigned)bg, (unsigned)bg, NULL,
                           ENGINE_SEAT_BIT((unsigned)bg));
        return;
    }
    if (engine__nexus_voice_ask(st)) /* the Bene Gesserit absent: their card's Voice first */
        return;
    engine__ask_prescience(st);
}

/* The aggressor chooses among its battles; with one it is fought at once. */
static void next_battle(engine_state *st, engine_rng *rng)
{
    uint8_t order[ENGINE_MAX_SEATS];
    engine__storm_order(st, order);
    clear_battle(st);
    for (; st->aggressor_index < st->config.n_seats; st->aggressor_index++) {
        unsigned a = order[st->aggressor_index];
        if (!has_battle(st, a))
            continue;
        unsigned n = 0, only_t = 0, only_s = 0;
        for (unsigned t = 0; t < ENGINE_TERRITORY_COUNT; t++) {
            if (!fights_in(t) || !territory_forces(st, t, a))
                continue;
            for (unsigned s = 0; s < st->config.n_seats; s++)
                if (s != a && meet(st, t, a, s)) {
                    n++;
                    only_t = t;
                    only_s = s;
                }
        }
        if (n == 1) {
            start_battle(st, only_t, only_s);
            return;
        }
        st->battle_territory = ENGINE_TERRITORY_COUNT;
        await(st, BATTLE_STEP_CHOOSE, ENGINE_SEAT_BIT(a));
        return;
    }
    battle_end(st, rng);
}

/* The Atreides side may ask one element of the other side's plan. */
void engine__ask_prescience(engine_state *st)
{
    int atreides = engine__point_owner(st, ENGINE__POINT_PRESCIENCE);
    if (side_of(st, atreides) != SIDE_NONE)
        engine__frame_push(st, ENGINE_WINDOW_PRESCIENCE, (unsigned)atreides, (unsigned)atreides,
                           NULL, ENGINE_SEAT_BIT((unsigned)atreides));
}

static void ask_plans(engine_state *st)
{
    await(st, BATTLE_STEP_PLAN,
          (uint16_t)(ENGINE_SEAT_BIT(st->battle_seat[0]) | ENGINE_SEAT_BIT(st->battle_seat[1])));
}

engine_verdict engine__battle_choose(engine_verdict_detail *why, engine_state *st,
                                     const engine_action *act, engine_rng *rng)
{
    (void)rng;
    int t = act->arg[0];
    int d = act->arg[1] >= 0 && act->arg[1] < ENGINE_FACTION_COUNT
                ? engine__seat_of(st, (unsigned)act->arg[1]) : -1;
    if (t < 0 || t >= ENGINE_TERRITORY_COUNT || !fights_in((unsigned)t) || d < 0 ||
        d == act->seat || !meet(st, (unsigned)t, act->seat, (unsigned)d))
        return engine__reject(why, ENGINE_REJECT_NO_SUCH_BATTLE, t < 0 || t >= ENGINE_TERRITORY_COUNT ? 0 : 1,
                              act->arg[1]);
    start_battle(st, (unsigned)t, (unsigned)d);
    return ENGINE_ACCEPTED;
}

/* ================================================ Voice and prescience */

/* Whether a card belongs to a Voice class. */
static int in_voice_class(const engine_state *st, int card, unsigned vclass)
{
    if (card < 0)
        return 0;
    unsigned c = card_class(st, card);
    switch ((engine_voice_class)vclass) {
    case ENGINE_VOICE_POISON_WEAPON:
        return (c & ENGINE_CARD_CLASS_WEAPON_POISON) != 0;
    case ENGINE_VOICE_PROJECTILE_WEAPON:
        return (c & ENGINE_CARD_CLASS_WEAPON_PROJECTILE) != 0;
    case ENGINE_VOICE_POISON_DEFENSE:
        return (c & ENGINE_CARD_CLASS_DEFENSE_POISON) != 0;
    case ENGINE_VOICE_PROJECTILE_DEFENSE:
        return (c & ENGINE_CARD_CLASS_DEFENSE_PROJECTILE) != 0;
    case ENGINE_VOICE_WORTHLESS:
        return (c & ENGINE_CARD_CLASS_WORTHLESS) != 0;
    case ENGINE_VOICE_CHEAP_HERO:
        return (c & ENGINE_CARD_CLASS_LEADER) != 0;
    case ENGINE_VOICE_LASGUN:
        return (c & ENGINE_CARD_CLASS_WEAPON_SPECIAL) != 0;
    case ENGINE_VOICE_NONE:
    case ENGINE_VOICE_CLASS_COUNT:
        return 0;
    }
    return 0;
}

static unsigned victim_of(const engine_state *st, unsigned power_seat)
{
    unsigned side = side_of(st, (int)power_seat);
    return st->battle_seat[1 - side];
}

/* The advantage a Voice or a prescience question uses: the row at its
 * point applying to the seat fighting on the user's side, the faction's
 * own in its own battle, the alliance one in its ally's (LR 2.01.08-09,
 * 2.02.06-07). */
static unsigned battle_advantage(const engine_state *st, engine__point p, unsigned seat)
{
    unsigned side = side_of(st, (int)seat);
    return side < 2 ? engine__point_advantage(st, p, st->battle_seat[side]) : 0;
}

static unsigned voice_advantage(const engine_state *st, unsigned seat)
{
    return battle_advantage(st, ENGINE__POINT_VOICE, seat);
}

static unsigned prescience_advantage(const engine_state *st, unsigned seat)
{
    return battle_advantage(st, ENGINE__POINT_PRESCIENCE, seat);
}

/* The Voice, and prescience, may be cancelled with Karama by any other
 * seat (docs/RULINGS.md R42 and "Karama"): each is held in a Karama window
 * over its own (engine/karama.c); a cancel applies VOICE_PASS,
 * PRESCIENCE_PASS. The Voice cast binds the other side until the plans
 * are revealed: an effect record for the battle. */
engine_verdict engine__voice(engine_verdict_detail *why, engine_state *st,
                             const engine_action *act, engine_rng *rng)
{
    int must = act->arg[0], vclass = act->arg[1];
    if (must < 0 || must > 1)
        return engine__reject(why, ENGINE_REJECT_ARG_OUT_OF_RANGE, 0, must);
    if (vclass <= ENGINE_VOICE_NONE || vclass >= ENGINE_VOICE_CLASS_COUNT)
        return engine__reject(why, ENGINE_REJECT_ARG_OUT_OF_RANGE, 1, vclass);
    unsigned advantage = voice_advantage(st, act->seat);
    if (engine__karama_hold(st, act, ENGINE_ADVANTAGE_BIT(advantage), act->seat) ||
        engine__nexus_hold(st, act, ENGINE_NEXUS_AT_VOICE))
        return ENGINE_ACCEPTED;
    engine_effect e = {ENGINE_EFFECT_VOICE, (uint8_t)advantage,
                       (uint8_t)victim_of(st, act->seat), (uint8_t)vclass, ENGINE_EXPIRY_BATTLE,
                       (int16_t)must};
    int full = engine__effect_add(st, &e);
    assert(full == 0); /* one Voice a battle */
    (void)full;
    engine__frame_close(st, act, rng);
    return ENGINE_ACCEPTED;
}

engine_verdict engine__voice_pass(engine_verdict_detail *why, engine_state *st,
                                  const engine_action *act, engine_rng *rng)
{
    (void)why;
    engine__frame_close(st, act, rng);
    return ENGINE_ACCEPTED;
}

/* The elements prescience may ask. The Advanced dial is a strength of
 * forces at full and half strength with its spice support (LR 1.13.04):
 * up to rules version 6 the Advanced game asked only the leader, the
 * weapon and the defense (docs/RULINGS.md R75); from version 7 on the
 * dial too, answered by strength and support (engine/advanced.c, R117). */
static int last_element(const engine_state *st)
{
    return engine__advanced(st) && !engine__dial_prescience(st) ? ENGINE_PRESCIENCE_DEFENSE
                                                                 : ENGINE_PRESCIENCE_DIAL;
}

/* The Voice window closed, cast or not: prescience next. */
void engine__voice_resume(engine_state *st, const engine_frame *f, const engine_action *answer,
                          engine_rng *rng)
{
    (void)f;
    (void)answer;
    (void)rng;
    engine__ask_prescience(st);
}

engine_verdict engine__prescience(engine_verdict_detail *why, engine_state *st,
                                  const engine_action *act, engine_rng *rng)
{
    int element = act->arg[0];
    if (element < ENGINE_PRESCIENCE_LEADER || element > last_element(st))
        return engine__reject(why, ENGINE_REJECT_ARG_OUT_OF_RANGE, 0, element);
    if (engine__karama_hold(st, act, ENGINE_ADVANTAGE_BIT(prescience_advantage(st, act->seat)),
                            act->seat) ||
        engine__nexus_hold(st, act, ENGINE_NEXUS_AT_PRESCIENCE))
        return ENGINE_ACCEPTED;
    engine__frame_close(st, act, rng);
    return ENGINE_ACCEPTED;
}

engine_verdict engine__prescience_pass(engine_verdict_detail *why, engine_state *st,
                                       const engine_action *act, engine_rng *rng)
{
    (void)why;
    engine__frame_close(st, act, rng);
    return ENGINE_ACCEPTED;
}

/* The question window closed: a question asked opens the answer's, which
 * holds the question, over the plans. */
void engine__prescience_resume(engine_state *st, const engine_frame *f,
                               const engine_action *answer, engine_rng *rng)
{
    (void)f;
    (void)rng;
    if (answer->kind != ENGINE_ACTION_PRESCIENCE)
        return;
    engine__frame_push(st, ENGINE_WINDOW_PRESCIENCE_ANSWER, answer->seat, answer->seat, answer,
                       ENGINE_SEAT_BIT(victim_of(st, answer->seat)));
}

void engine__prescience_answer_resume(engine_state *st, const engine_frame *f,
                                      const engine_action *answer, engine_rng *rng)
{
    (void)st;
    (void)f;
    (void)answer;
    (void)rng;
}

/* ============================================ the battle's read-outs */

unsigned engine_battle_voice(const engine_state *st)
{
    const engine_effect *e = voice_cast(st);
    return e ? e->value : ENGINE_VOICE_NONE;
}

int engine_battle_voice_must(const engine_state *st)
{
    const engine_effect *e = voice_cast(st);
    return e ? e->arg : 0;
}

unsigned engine_battle_prescience(const engine_state *st)
{
    const engine_frame *f = engine_window_find(st, ENGINE_WINDOW_PRESCIENCE_ANSWER);
    if (f)
        return (unsigned)f->held.arg[0];
    const engine_effect *e = engine_effect_find(st, ENGINE_EFFECT_PRESCIENCE);
    return e ? e->value : ENGINE_PRESCIENCE_NONE;
}

/* The Advanced dial's answer is packed in its effect (engine/advanced.c). */
static int dial_answered(const engine_state *st, const engine_effect *e)
{
    return e && e->value == ENGINE_PRESCIENCE_DIAL && engine__dial_prescience(st);
}

int engine_battle_prescience_answer(const engine_state *st)
{
    const engine_effect *e = engine_effect_find(st, ENGINE_EFFECT_PRESCIENCE);
    if (dial_answered(st, e))
        return (int)engine__dial_answer_strength2(e->arg);
    return e ? e->arg : 0;
}

int engine_battle_prescience_support(const engine_state *st)
{
    const engine_effect *e = engine_effect_find(st, ENGINE_EFFECT_PRESCIENCE);
    return dial_answered(st, e) ? (int)engine__dial_answer_support(e->arg) : 0;
}

int engine__plans_asked(const engine_state *st)
{
    return st->phase == ENGINE_PHASE_BATTLE && st->step == BATTLE_STEP_PLAN &&
           !engine_window_find(st, ENGINE_WINDOW_VOICE) &&
           !engine_window_find(st, ENGINE_WINDOW_PRESCIENCE) &&
           !engine_window_find(st, ENGINE_WINDOW_PRESCIENCE_ANSWER);
}

/* ============================================================ the plan */

/* Whether plan p of `seat` obeys the rules, the Voice and the prescience
 * answer; returns the verdict and the argument at fault. */
static engine_verdict check_plan(const engine_state *st, unsigned seat, unsigned side,
                                 const engine_battle_plan *p, int *arg)
{
    unsigned forces = territory_forces(st, st->battle_territory, seat);
    *arg = 0;
    if (p->leader != LEADER_NONE &&
        (p->leader < 0 || p->leader >= ENGINE_LEADER_COUNT ||
         !leader_available(st, seat, (unsigned)p->leader)))
        return ENGINE_REJECT_LEADER_UNAVAILABLE;
    *arg = 1;
    if (p->cheap_hero != -1 &&
        (!holds(st, seat, p->cheap_hero) || !(card_class(st, p->cheap_hero) & ENGINE_CARD_CLASS_LEADER)))
        return ENGINE_REJECT_CARD_NOT_HELD;
    if (p->leader != LEADER_NONE && p->cheap_hero != -1)
        return ENGINE_REJECT_CARD_WRONG_SLOT;
    int has_leader = p->leader != LEADER_NONE || p->cheap_hero != -1;
    *arg = 0;
    if (!has_leader && must_play_a_leader(st, seat, side))
        return ENGINE_REJECT_LEADER_REQUIRED; /* LR 1.07.04.02 */
    /* The Kwisatz Haderach declared for this battle accompanies a leader
     * or a Cheap Hero (LR 2.01.11). */
    if (!has_leader && p->kwisatz_haderach == ENGINE_KH_WITH)
        return ENGINE_REJECT_LEADER_REQUIRED;
    *arg = 2;
    if (p->weapon != -1) {
        if (!holds(st, seat, p->weapon))
            return ENGINE_REJECT_CARD_NOT_HELD;
        if (!is_weapon_slot(card_class(st, p->weapon)))
            return ENGINE_REJECT_CARD_WRONG_SLOT;
        if (!has_leader)
            return ENGINE_REJECT_CARDS_WITHOUT_LEADER;
    }
    *arg = 3;
    if (p->defense != -1) {
        if (!holds(st, seat, p->defense) || p->defense == p->weapon)
            return ENGINE_REJECT_CARD_NOT_HELD;
        if (!is_defense_slot(card_class(st, p->defense)))
            return ENGINE_REJECT_CARD_WRONG_SLOT;
        if (!has_leader)
            return ENGINE_REJECT_CARDS_WITHOUT_LEADER;
    }
    *arg = 4;
    if (engine__advanced(st)) {
        /* Forces by strength and their spice support (engine/advanced.c). */
        engine_verdict v = engine__plan_forces_check(st, seat, p, arg);
        if (v != ENGINE_ACCEPTED)
            return v;
    } else if (p->dial > forces) {
        return ENGINE_REJECT_DIAL_RANGE;
    }
    /* The Voice binds the seat it was cast on. */
    const engine_effect *voice = voice_cast(st);
    if (voice && voice->owner == seat) {
        unsigned vc = voice->value;
        int played = in_voice_class(st, p->weapon, vc) || in_voice_class(st, p->defense, vc) ||
                     in_voice_class(st, p->cheap_hero, vc);
        *arg = -1;
        if (!voice->arg && played)
            return ENGINE_REJECT_VOICE_DISOBEYED;
        if (voice->arg && !played) {
            /* "Must play" binds only if the seat can comply: it holds such a
             * card and may play cards at all (LR 2.02.06). */
            int able = 0;
            for (unsigned i = 0; i < st->n_cards; i++)
                if (holds(st, seat, (int)i) && in_voice_class(st, (int)i, vc) &&
                    ((card_class(st, (int)i) & ENGINE_CARD_CLASS_LEADER) || must_play_a_leader(st, seat, side)))
                    able = 1;
            if (able)
                return ENGINE_REJECT_VOICE_DISOBEYED;
        }
    }
    /* A prescience answer binds its element. */
    const engine_effect *answer = engine_effect_find(st, ENGINE_EFFECT_PRESCIENCE);
    if (answer && answer->owner == seat && st->step == BATTLE_STEP_PLAN) {
        int v = answer->arg;
        int ok = 1;
        switch (answer->value) {
        case ENGINE_PRESCIENCE_LEADER:
            ok = v == ENGINE_PRESCIENCE_CHEAP_HERO ? p->cheap_hero != -1 : p->leader == v && p->cheap_hero == -1;
            break;
        case ENGINE_PRESCIENCE_WEAPON:
            ok = p->weapon == v;
            break;
        case ENGINE_PRESCIENCE_DEFENSE:
            ok = p->defense == v;
            break;
        case ENGINE_PRESCIENCE_DIAL:
            ok = engine__dial_prescience(st)
                     ? engine__plan_strength2(st, seat, p) == engine__dial_answer_strength2(v) &&
                           engine__plan_support(st, seat, p) == engine__dial_answer_support(v)
                     : p->dial == v;
            break;
        default:
            break;
        }
        *arg = -1;
        if (!ok)
            return ENGINE_REJECT_PRESCIENCE_MISMATCH;
    }
    return ENGINE_ACCEPTED;
}

static void plan_from_action(engine_battle_plan *p, const engine_action *act)
{
    p->leader = (int8_t)act->arg[0];
    p->cheap_hero = (int8_t)act->arg[1];
    p->weapon = (int8_t)act->arg[2];
    p->defense = (int8_t)act->arg[3];
    p->dial = (uint8_t)act->arg[4];
    p->is_committed = 1;
    /* counts held as n + 1 (ENGINE_ARG_COUNT1); absent in the Basic game */
    p->half = (uint8_t)(act->arg[5] ? act->arg[5] - 1 : 0);
    p->elite = (uint8_t)(act->arg[6] ? act->arg[6] - 1 : 0);
    p->elite_half = (uint8_t)(act->arg[7] ? act->arg[7] - 1 : 0);
}

static int args_in_range(const engine_state *st, const engine_action *act)
{
    return act->arg[0] >= -1 && act->arg[0] < ENGINE_LEADER_COUNT && act->arg[1] >= -1 &&
           act->arg[1] < ENGINE_TREACHERY_MAX && act->arg[2] >= -1 &&
           act->arg[2] < ENGINE_TREACHERY_MAX && act->arg[3] >= -1 &&
           act->arg[3] < ENGINE_TREACHERY_MAX && act->arg[4] >= 0 && act->arg[4] <= 255 &&
           /* forces by strength, held as n + 1: every Advanced plan has them
            * (LR 1.13.04), no Basic one */
           (engine__advanced(st)
                ? act->arg[5] >= 1 && act->arg[5] <= 256 && act->arg[6] >= 1 &&
                      act->arg[6] <= 256 && act->arg[7] >= 1 && act->arg[7] <= 256
                : act->arg[5] == 0 && act->arg[6] == 0 && act->arg[7] == 0);
}

static size_t plan_families(engine_legal *out, size_t cap, const engine_state *st, uint8_t seat);

/* Whether some plan obeys everything once `value` answers the prescience
 * question: an answer that would leave no legal plan is refused, so the
 * battle can always go on. */
static engine_effect answer_effect(const engine_state *st, const engine_frame *question,
                                   uint8_t seat, int value)
{
    engine_effect e = {ENGINE_EFFECT_PRESCIENCE,
                       (uint8_t)prescience_advantage(st, question->held.seat), seat,
                       (uint8_t)question->held.arg[0], ENGINE_EXPIRY_BATTLE, (int16_t)value};
    return e;
}

static int answer_leaves_a_plan(const engine_state *st, uint8_t seat, int value)
{
    engine_state probe = *st;
    engine_effect e = answer_effect(st, engine_window_find(st, ENGINE_WINDOW_PRESCIENCE_ANSWER),
                                    seat, value);
    engine__effect_add(&probe, &e);
    return plan_families(NULL, 0, &probe, seat) > 0;
}

/* The prescience answer: the value of the asked element, which then binds
 * the plan (LR 2.01.05). */
engine_verdict engine__prescience_answer(engine_verdict_detail *why, engine_state *st,
                                         const engine_action *act, engine_rng *rng)
{
    int v = act->arg[0], support = act->arg[1] - 1; /* held as n + 1 */
    const engine_frame *question = engine_window_top(st);
    unsigned element = (unsigned)question->held.arg[0];
    /* The Advanced dial's answer also gives its spice support (R117). */
    int with_support = element == ENGINE_PRESCIENCE_DIAL && engine__dial_prescience(st);
    if (with_support ? act->arg[1] == 0 : act->arg[1] != 0)
        return engine__reject(why, ENGINE_REJECT_ARG_OUT_OF_RANGE, 1, act->arg[1]);
    unsigned side = st->battle_seat[0] == act->seat ? 0 : 1;
    /* The answer must be one some legal plan has: try it as a plan. */
    engine_battle_plan p = {LEADER_NONE, -1, -1, -1, 0, 0, 0, 0, 0, ENGINE_KH_UNDECLARED};
    int ok = 0, arg;
    unsigned forces = territory_forces(st, st->battle_territory, act->seat);
    switch (element) {
    case ENGINE_PRESCIENCE_LEADER:
        if (v == ENGINE_PRESCIENCE_CHEAP_HERO) {
            unsigned ch = engine__card_in_hand(st, act->seat, ENGINE_CARD_CHEAP_HERO);
            p.cheap_hero = ch == CARD_NONE ? -1 : (int8_t)ch;
            ok = ch != CARD_NONE;
        } else {
            p.leader = (int8_t)v;
            ok = v >= LEADER_NONE && v < ENGINE_LEADER_COUNT;
        }
        break;
    case ENGINE_PRESCIENCE_WEAPON:
    case ENGINE_PRESCIENCE_DEFENSE:
        ok = v >= -1 && v < ENGINE_TREACHERY_MAX;
        break;
    case ENGINE_PRESCIENCE_DIAL:
        ok = v >= 0 && (with_support ? v <= ENGINE__DIAL_ANSWER_STRENGTH_MAX
                                     : (unsigned)v <= forces);
        break;
    default:
        break;
    }
    if (!ok)
        return engine__reject(why, ENGINE_REJECT_ARG_OUT_OF_RANGE, 0, v);
    if (with_support) {
        if (support < 0 || support > ENGINE__DIAL_ANSWER_SUPPORT_MAX)
            return engine__reject(why, ENGINE_REJECT_ARG_OUT_OF_RANGE, 1, support);
    }
    int held = with_support ? engine__dial_answer_pack((unsigned)v, (unsigned)support) : v;
    if (element == ENGINE_PRESCIENCE_LEADER &&
        check_plan(st, act->seat, side, &p, &arg) == ENGINE_REJECT_LEADER_UNAVAILABLE)
        return engine__reject(why, ENGINE_REJECT_LEADER_UNAVAILABLE, 0, v);
    if (element == ENGINE_PRESCIENCE_LEADER && v == LEADER_NONE && must_play_a_leader(st, act->seat, side))
        return engine__reject(why, ENGINE_REJECT_LEADER_REQUIRED, 0, v);
    if ((element == ENGINE_PRESCIENCE_WEAPON || element == ENGINE_PRESCIENCE_DEFENSE) &&
        v >= 0) {
        unsigned c = card_class(st, v);
        int slot_ok = element == ENGINE_PRESCIENCE_WEAPON ? is_weapon_slot(c) : is_defense_slot(c);
        if (!holds(st, act->seat, v) || !slot_ok || !must_play_a_leader(st, act->seat, side))
            return engine__reject(why, ENGINE_REJECT_CARD_NOT_HELD, 0, v);
    }
    if (!answer_leaves_a_plan(st, act->seat, held))
        return engine__reject(why, ENGINE_REJECT_VOICE_DISOBEYED, 0, v);
    engine_effect e = answer_effect(st, question, act->seat, held);
    int full = engine__effect_add(st, &e);
    assert(full == 0); /* one answer a battle */
    (void)full;
    if ((element == ENGINE_PRESCIENCE_WEAPON || element == ENGINE_PRESCIENCE_DEFENSE) &&
        v >= 0) {
        /* The card named is shown to the Atreides side (LR 2.01.05). */
        int atreides = engine__point_owner(st, ENGINE__POINT_PRESCIENCE);
        unsigned other = st->battle_seat[1 - side];
        st->card[v].known_by |= (uint16_t)(ENGINE_SEAT_BIT(atreides) | ENGINE_SEAT_BIT(other));
    }
    engine__frame_close(st, act, rng);
    return ENGINE_ACCEPTED;
}

static void reveal_plans(engine_state *st, engine_rng *rng);

engine_verdict engine__battle_plan(engine_verdict_detail *why, engine_state *st,
                                   const engine_action *act, engine_rng *rng)
{
    if (!args_in_range(st, act))
        return engine__reject(why, ENGINE_REJECT_ARG_OUT_OF_RANGE, -1, 0);
    unsigned side = st->battle_seat[0] == act->seat ? 0 : 1;
    engine_battle_plan p;
    plan_from_action(&p, act);
    p.kwisatz_haderach = st->plan[side].kwisatz_haderach; /* declared before (LR 2.01.11) */
    int arg;
    engine_verdict v = check_plan(st, act->seat, side, &p, &arg);
    if (v != ENGINE_ACCEPTED)
        return engine__reject(why, v, arg, arg >= 0 ? act->arg[arg] : 0);
    /* Rules version 8: a plan using the elite's worth or BATTLE HARDENED
     * waits on a Karama window first (engine/karama_stops.c). */
    if (engine__karama_hold(st, act, engine__karama_plan_offered(st, act->seat), act->seat))
        return ENGINE_ACCEPTED;
    st->plan[side] = p;
    engine__karama_plan_committed(st); /* seen by the Atreides' Karama (R139) */
    st->answered |= ENGINE_SEAT_BIT(act->seat);
    if (st->answered == st->awaiting)
        reveal_plans(st, rng);
    return ENGINE_ACCEPTED;
}

/* ======================================================== resolution */

static void play_card(engine_state *st, int card)
{
    if (card < 0)
        return;
    st->card[card].place = ENGINE_PLACE_PLAYED;
    st->card[card].known_by = engine__shown(st);
}

/* Plans are revealed together; then the traitor calls (LR 1.07.05). Every
 * side may be asked, and Harkonnen when allied to a side (LR 2.05.06), so
 * being asked reveals no traitor. */
static void reveal_plans(engine_state *st, engine_rng *rng)
{
    (void)rng;
    for (unsigned i = 0; i < 2; i++) {
        engine_battle_plan *p = &st->plan[i];
        play_card(st, p->cheap_hero);
        play_card(st, p->weapon);
        play_card(st, p->defense);
        if (p->leader >= 0)
            st->leader_territory[p->leader] = st->battle_territory;
    }
    uint16_t ask = (uint16_t)(ENGINE_SEAT_BIT(st->battle_seat[0]) | ENGINE_SEAT_BIT(st->battle_seat[1]));
    int hark = engine__point_owner(st, ENGINE__POINT_TRAITOR_REVEALED);
    if (hark >= 0 && side_of(st, hark) != SIDE_NONE)
        ask |= ENGINE_SEAT_BIT(hark);
    await(st, BATTLE_STEP_TRAITOR, ask);
}

/* The side a seat's traitor call serves. */
static unsigned caller_side(const engine_state *st, unsigned seat)
{
    for (unsigned i = 0; i < 2; i++)
        if (st->battle_seat[i] == seat)
            return i;
    return side_of(st, (int)seat);
}

/* The opposing leader is a traitor this seat holds. */
static int may_call(const engine_state *st, unsigned seat)
{
    unsigned side = caller_side(st, seat);
    if (side == SIDE_NONE)
        return 0;
    int leader = st->plan[1 - side].leader;
    /* A leader the Kwisatz Haderach accompanies is never a traitor (LR
     * 2.01.11; not for the Harkonnen's ally either). */
    if (engine__kh_joins(st, 1 - side))
        return 0;
    return leader >= 0 && st->traitor[leader].place == ENGINE_PLACE_HAND &&
           st->traitor[leader].holder == seat;
}

static void kill_leader(engine_state *st, int leader)
{
    if (leader < 0)
        return;
    st->leader[leader].place = ENGINE_PLACE_TANKS;
    st->leader[leader].deaths++;
    engine__capture_leader_killed(st, (unsigned)leader);
}

static void lose_all_forces(engine_state *st, unsigned seat)
{
    engine__kh_battle_losses(st, seat, territory_forces(st, st->battle_territory, seat));
    for (unsigned l = 0; l < ENGINE_LOCATION_COUNT; l++)
        if (engine__locations[l].territory == st->battle_territory)
            engine__forces_to_tanks(st, l, (uint8_t)seat, st->forces[l][seat], st->special[l][seat]);
}

/* `plain` plain and `elite` elite forces of the seat in the battle's
 * territory go to the Tanks, in location order. */
static void lose_by_class(engine_state *st, unsigned seat, unsigned plain, unsigned elite)
{
    for (unsigned l = 0; l < ENGINE_LOCATION_COUNT && (plain || elite); l++) {
        if (engine__locations[l].territory != st->battle_territory)
            continue;
        unsigned p = st->forces[l][seat] < plain ? st->forces[l][seat] : plain;
        unsigned e = st->special[l][seat] < elite ? st->special[l][seat] : elite;
        engine__forces_to_tanks(st, l, (uint8_t)seat, p, e);
        engine__kh_battle_losses(st, seat, p + e);
        plain -= p;
        elite -= e;
    }
}

/* The winner loses the forces it dialled. Basic: the winner chooses which,
 * the engine takes plain forces first (docs/RULINGS.md "Losses"); Advanced:
 * exactly those its plan committed, by class (LR 1.13.04.05). */
static void lose_forces(engine_state *st, unsigned side)
{
    unsigned seat = st->battle_seat[side];
    const engine_battle_plan *p = &st->plan[side];
    if (engine__advanced(st)) {
        lose_by_class(st, seat, (unsigned)p->dial + p->half, (unsigned)p->elite + p->elite_half);
        return;
    }
    unsigned plain = 0;
    for (unsigned l = 0; l < ENGINE_LOCATION_COUNT; l++)
        if (engine__locations[l].territory == st->battle_territory)
            plain += st->forces[l][seat];
    plain = plain < p->dial ? plain : p->dial;
    lose_by_class(st, seat, plain, p->dial - plain);
}

/* Advanced: the spice supporting each side's forces goes to the bank, but
 * a side that alone called a traitor keeps its own (LR 1.13.04.05,
 * 1.13.05; two traitors or a lasgun and a shield: both pay, D6,
 * docs/RULINGS.md R76). `called`: engine_state.traitor_called. */
static void pay_support(engine_state *st, unsigned called)
{
    if (!engine__advanced(st))
        return;
    for (unsigned i = 0; i < 2; i++) {
        if (called == (1u << i))
            continue;
        engine_seat_state *p = &st->seat[st->battle_seat[i]];
        unsigned pay = engine_plan_support(st, i);
        pay = pay < p->spice ? pay : p->spice; /* checked at the plan; spice cannot drop since */
        p->spice = (uint16_t)(p->spice - pay);
        st->spice_burned += pay;
    }
}

static void discard_plan(engine_state *st, unsigned side)
{
    engine_battle_plan *p = &st->plan[side];
    if (p->cheap_hero >= 0)
        engine__treachery_discard(st, (unsigned)p->cheap_hero);
    if (p->weapon >= 0)
        engine__treachery_discard(st, (unsigned)p->weapon);
    if (p->defense >= 0)
        engine__treachery_discard(st, (unsigned)p->defense);
    p->cheap_hero = p->weapon = p->defense = -1;
}

static void pay_winner(engine_state *st, unsigned side, unsigned amount)
{
    st->seat[st->battle_seat[side]].spice = (uint16_t)(st->seat[st->battle_seat[side]].spice + amount);
    st->spice_minted += amount;
}

static void finish_battle(engine_state *st, engine_rng *rng)
{
    /* Cards still played are the winner's kept ones: back to its hand. */
    for (unsigned i = 0; i < 2; i++) {
        engine_battle_plan *p = &st->plan[i];
        int cards[3] = {p->cheap_hero, p->weapon, p->defense};
        for (unsigned c = 0; c < 3; c++)
            if (cards[c] >= 0) {
                st->card[cards[c]].place = ENGINE_PLACE_HAND;
                st->card[cards[c]].holder = st->battle_seat[i];
            }
    }
    st->last_wheel[0] = st->battle_seat[0];
    st->last_wheel[1] = st->battle_seat[1];
    /* Advanced: the winner may capture or kill one of the loser's leaders
     * (engine/capture.c), the next battle waiting on that decision. */
    if (engine__capture_after_battle(st, rng))
        return;
    engine__battle_after_capture(st, rng);
}

void engine__battle_next(engine_state *st, engine_rng *rng)
{
    next_battle(st, rng);
}

/* After the Harkonnen's capture or kill: the CHOAM card's window, which
 * goes on to the next battle, or the next battle. */
void engine__battle_after_capture(engine_state *st, engine_rng *rng)
{
    if (engine__nexus_battle_won_ask(st))
        return;
    next_battle(st, rng);
}

/* The winner keeps what it may (weapons and defenses) or discards; Cheap
 * Heroes and worthless cards always go (DUNE_RULES_DIGEST.md 2.1). */
static void winner_cards(engine_state *st, unsigned side, engine_rng *rng)
{
    engine_battle_plan *p = &st->plan[side];
    st->battle_winner = (uint8_t)side; /* until the next battle clears it */
    if (p->cheap_hero >= 0) {
        engine__treachery_discard(st, (unsigned)p->cheap_hero);
        p->cheap_hero = -1;
    }
    if (p->weapon >= 0 && !engine__card_kinds[st->card_kind[p->weapon]].is_kept) {
        engine__treachery_discard(st, (unsigned)p->weapon);
        p->weapon = -1;
    }
    if (p->defense >= 0 && !engine__card_kinds[st->card_kind[p->defense]].is_kept) {
        engine__treachery_discard(st, (unsigned)p->defense);
        p->defense = -1;
    }
    if (p->weapon >= 0 || p->defense >= 0) {
        await(st, BATTLE_STEP_KEEP, ENGINE_SEAT_BIT(st->battle_seat[side]));
        return;
    }
    finish_battle(st, rng);
}

static int kills(const engine_state *st, int weapon, int defense)
{
    unsigned w = card_class(st, weapon), d = card_class(st, defense);
    if (w & ENGINE_CARD_CLASS_WEAPON_SPECIAL)
        return 1;
    if ((w & ENGINE_CARD_CLASS_WEAPON_PROJECTILE) && !(d & ENGINE_CARD_CLASS_DEFENSE_PROJECTILE))
        return 1;
    if ((w & ENGINE_CARD_CLASS_WEAPON_POISON) && !(d & ENGINE_CARD_CLASS_DEFENSE_POISON))
        return 1;
    return 0;
}

static int is_shield(const engine_state *st, int card)
{
    return card >= 0 && st->card_kind[card] == ENGINE_CARD_SHIELD;
}

static void resolve(engine_state *st, engine_rng *rng)
{
    engine_battle_plan *a = &st->plan[0], *d = &st->plan[1];
    unsigned called = st->traitor_called;
    pay_support(st, called);
    if (called == 3) {
        /* Both traitors: both lose everything, nobody is paid (LR 1.07.06.03). */
        for (unsigned i = 0; i < 2; i++) {
            kill_leader(st, st->plan[i].leader);
            lose_all_forces(st, st->battle_seat[i]);
            discard_plan(st, i);
        }
        finish_battle(st, rng);
        return;
    }
    if (called) {
        unsigned win = called == 1 ? 0 : 1, lose = 1 - win;
        int traitor = st->plan[lose].leader;
        kill_leader(st, traitor);
        pay_winner(st, win, engine__leaders[traitor].strength);
        /* From rules version 3 on the caller's leader goes back to its
         * pool, available again this phase (LR 1.07.06.07.01). */
        if (engine__rule(st, ENGINE__RULE_TRAITOR_LEADER_RETURNS) && st->plan[win].leader >= 0)
            st->leader_territory[st->plan[win].leader] = SEAT_NONE;
        engine__kh_after_battle(st, 0, win);
        st->battle_winner = (uint8_t)win;
        lose_all_forces(st, st->battle_seat[lose]);
        discard_plan(st, lose);
        winner_cards(st, win, rng);
        return;
    }
    /* Lasgun and shield: everything there is lost (DUNE_RULES_DIGEST.md 2.1). */
    int lasgun = (card_class(st, a->weapon) | card_class(st, d->weapon)) & ENGINE_CARD_CLASS_WEAPON_SPECIAL;
    if (lasgun && (is_shield(st, a->defense) || is_shield(st, d->defense) ||
                   is_shield(st, a->weapon) || is_shield(st, d->weapon))) {
        kill_leader(st, a->leader);
        kill_leader(st, d->leader);
        engine__kh_after_battle(st, 1, SIDE_NONE);
        for (unsigned s = 0; s < st->config.n_seats; s++)
            lose_all_forces(st, s);
        int bg = engine__point_owner(st, ENGINE__POINT_ADVISORS);
        for (unsigned l = 0; l < ENGINE_LOCATION_COUNT; l++)
            if (engine__locations[l].territory == st->battle_territory) {
                if (st->advisors[l]) {
                    st->seat[bg].tanks = (uint8_t)(st->seat[bg].tanks + st->advisors[l]);
                    st->advisors[l] = 0;
                }
                st->spice_burned += st->spice[l];
                st->spice[l] = 0;
            }
        discard_plan(st, 0);
        discard_plan(st, 1);
        finish_battle(st, rng);
        return;
    }
    int has_leader[2] = {a->leader >= 0 || a->cheap_hero >= 0, d->leader >= 0 || d->cheap_hero >= 0};
    int dead[2] = {has_leader[0] && kills(st, d->weapon, a->defense),
                   has_leader[1] && kills(st, a->weapon, d->defense)};
    /* Totals in half points: the Advanced forces count half strength
     * (LR 1.13.04), the Basic dial whole ones. */
    unsigned total[2];
    for (unsigned i = 0; i < 2; i++) {
        int l = st->plan[i].leader;
        total[i] = engine_plan_forces_strength2(st, i) +
                   (l >= 0 && !dead[i] ? 2u * engine__leaders[l].strength : 0u) +
                   engine__kh_strength2(st, i, has_leader[i] && !dead[i]);
    }
    engine__kh_after_battle(st, 0, SIDE_NONE);
    unsigned win = total[0] >= total[1] ? 0 : 1, lose = 1 - win;
    unsigned paid = 0;
    for (unsigned i = 0; i < 2; i++)
        if (dead[i] && st->plan[i].leader >= 0) {
            paid += engine__leaders[st->plan[i].leader].strength;
            kill_leader(st, st->plan[i].leader);
        }
    pay_winner(st, win, paid);
    st->battle_winner = (uint8_t)win;
    lose_all_forces(st, st->battle_seat[lose]);
    discard_plan(st, lose);
    lose_forces(st, win);
    winner_cards(st, win, rng);
}

int engine__battle_traitor_of(const engine_state *st, unsigned seat)
{
    return may_call(st, seat) ? st->plan[1 - caller_side(st, seat)].leader : -1;
}

engine_verdict engine__traitor_call(engine_verdict_detail *why, engine_state *st,
                                    const engine_action *act, engine_rng *rng)
{
    int yes = act->arg[0];
    if (yes < 0 || yes > 1)
        return engine__reject(why, ENGINE_REJECT_ARG_OUT_OF_RANGE, 0, yes);
    if (yes) {
        if (!may_call(st, act->seat))
            return engine__reject(why, ENGINE_REJECT_NOT_A_TRAITOR, 0, yes);
        if (engine__nexus_hold(st, act, ENGINE_NEXUS_AT_TRAITOR))
            return ENGINE_ACCEPTED;
        unsigned side = caller_side(st, act->seat);
        assert(side < 2); /* may_call: the seat serves a side */
        int leader = st->plan[1 - side].leader;
        st->traitor_called |= (uint8_t)(1u << side);
        st->traitor[leader].known_by = engine__shown(st);
    }
    st->answered |= ENGINE_SEAT_BIT(act->seat);
    if (st->answered == st->awaiting)
        resolve(st, rng);
    return ENGINE_ACCEPTED;
}

engine_verdict engine__keep_cards(engine_verdict_detail *why, engine_state *st,
                                  const engine_action *act, engine_rng *rng)
{
    engine_battle_plan *p = &st->plan[st->battle_winner];
    int keep_w = act->arg[0], keep_d = act->arg[1];
    if (keep_w < 0 || keep_w > 1 || keep_d < 0 || keep_d > 1)
        return engine__reject(why, ENGINE_REJECT_ARG_OUT_OF_RANGE, keep_w < 0 || keep_w > 1 ? 0 : 1, 0);
    if ((keep_w && p->weapon < 0) || (keep_d && p->defense < 0))
        return engine__reject(why, ENGINE_REJECT_CARD_NOT_KEPT, keep_w && p->weapon < 0 ? 0 : 1, 1);
    if (!keep_w && p->weapon >= 0) {
        engine__treachery_discard(st, (unsigned)p->weapon);
        p->weapon = -1;
    }
    if (!keep_d && p->defense >= 0) {
        engine__treachery_discard(st, (unsigned)p->defense);
        p->defense = -1;
    }
    finish_battle(st, rng);
    return ENGINE_ACCEPTED;
}

/* ===================================================== legal families */

/* A plan family of p's leader and cards (arguments 0..3), the rest of
 * its arguments the caller's. */
static void plan_family(engine_legal *l, uint8_t seat, const engine_battle_plan *p)
{
    engine__legal_init(l, ENGINE_ACTION_BATTLE_PLAN, seat);
    l->lo[0] = l->hi[0] = p->leader;
    l->lo[1] = l->hi[1] = p->cheap_hero;
    l->lo[2] = l->hi[2] = p->weapon;
    l->lo[3] = l->hi[3] = p->defense;
}

/* The plans of p's leader and cards, one family for each forces part
 * that gives the Advanced dial's answer `packed` (R117). */
static size_t push_forces_parts(engine_legal *out, size_t cap, size_t n, const engine_state *st,
                                uint8_t seat, const engine_battle_plan *p, int packed)
{
    engine_battle_plan q = *p;
    unsigned cursor = 0;
    while (engine__plan_forces_next(&q, &cursor, st, seat, packed)) {
        engine_legal l;
        plan_family(&l, seat, &q);
        l.lo[4] = l.hi[4] = q.dial;
        /* counts held as n + 1 (ENGINE_ARG_COUNT1) */
        l.lo[5] = l.hi[5] = (int16_t)(q.half + 1);
        l.lo[6] = l.hi[6] = (int16_t)(q.elite + 1);
        l.lo[7] = l.hi[7] = (int16_t)(q.elite_half + 1);
        engine__legal_push(out, cap, &n, &l);
    }
    return n;
}

/* Every legal battle plan of `seat`: each leader choice, weapon and
 * defense, with the dials that pass. */
static size_t plan_families(engine_legal *out, size_t cap, const engine_state *st, uint8_t seat)
{
    size_t n = 0;
    unsigned side = st->battle_seat[0] == seat ? 0 : 1;
    int8_t leaders[ENGINE_LEADER_COUNT + ENGINE_TREACHERY_MAX + 1][2];
    unsigned nl = 0;
    for (unsigned l = 0; l < ENGINE_LEADER_COUNT; l++)
        if (leader_available(st, seat, l)) {
            leaders[nl][0] = (int8_t)l;
            leaders[nl++][1] = -1;
        }
    for (unsigned i = 0; i < st->n_cards; i++)
        if (holds(st, seat, (int)i) && (card_class(st, (int)i) & ENGINE_CARD_CLASS_LEADER)) {
            leaders[nl][0] = LEADER_NONE;
            leaders[nl++][1] = (int8_t)i;
        }
    if (!must_play_a_leader(st, seat, side)) {
        leaders[nl][0] = LEADER_NONE;
        leaders[nl++][1] = -1;
    }
    int8_t weapons[ENGINE_TREACHERY_MAX + 1], defenses[ENGINE_TREACHERY_MAX + 1];
    unsigned nw = 0, nd = 0;
    weapons[nw++] = -1;
    defenses[nd++] = -1;
    for (unsigned i = 0; i < st->n_cards; i++) {
        if (!holds(st, seat, (int)i))
            continue;
        if (is_weapon_slot(card_class(st, (int)i)))
            weapons[nw++] = (int8_t)i;
        if (is_defense_slot(card_class(st, (int)i)))
            defenses[nd++] = (int8_t)i;
    }
    unsigned forces = territory_forces(st, st->battle_territory, seat);
    /* Only a prescience answer narrows the dial, to one value. */
    const engine_effect *answer = engine_effect_find(st, ENGINE_EFFECT_PRESCIENCE);
    int dial_locked = st->step == BATTLE_STEP_PLAN && answer && answer->owner == seat &&
                      answer->value == ENGINE_PRESCIENCE_DIAL;
    int lo = dial_locked ? answer->arg : 0;
    int hi = dial_locked ? answer->arg : (int)forces;
    /* The Advanced dial's answer binds the forces part whole: the plans
     * are those of each forces part that gives it (R117). */
    int by_strength = dial_locked && engine__dial_prescience(st);
    engine_battle_plan forces_part = {LEADER_NONE, -1, -1, -1, 0, 1, 0, 0, 0, ENGINE_KH_UNDECLARED};
    unsigned first = 0;
    if (by_strength) {
        if (!engine__plan_forces_next(&forces_part, &first, st, seat, answer->arg))
            return 0;
        lo = hi = forces_part.dial;
    }
    for (unsigned li = 0; li < nl; li++)
        for (unsigned wi = 0; wi < nw; wi++)
            for (unsigned di = 0; di < nd; di++) {
                engine_battle_plan p = {leaders[li][0], leaders[li][1], weapons[wi], defenses[di],
                                        (uint8_t)lo, 1, forces_part.half, forces_part.elite,
                                        forces_part.elite_half, st->plan[side].kwisatz_haderach};
                if (p.weapon >= 0 && p.weapon == p.defense)
                    continue;
                int arg;
                if (check_plan(st, seat, side, &p, &arg) != ENGINE_ACCEPTED)
                    continue;
                if (by_strength) {
                    n = push_forces_parts(out, cap, n, st, seat, &p, answer->arg);
                    continue;
                }
                engine_legal l;
                plan_family(&l, seat, &p);
                l.lo[4] = (int16_t)lo;
                l.hi[4] = (int16_t)hi;
                if (engine__advanced(st))
                    engine__plan_forces_legal(&l, st, seat); /* forces by strength */
                engine__legal_push(out, cap, &n, &l);
            }
    return n;
}

int engine__battle_plan_exists(const engine_state *st, uint8_t seat)
{
    return plan_families(NULL, 0, st, seat) > 0;
}

size_t engine__legal_battle(engine_legal *out, size_t cap, const engine_state *st, uint8_t seat)
{
    size_t n = 0;
    switch ((enum engine__battle_step)st->step) {
    case BATTLE_STEP_CHOOSE:
        for (unsigned t = 0; t < ENGINE_TERRITORY_COUNT; t++) {
            if (!fights_in(t) || !territory_forces(st, t, seat))
                continue;
            for (unsigned s = 0; s < st->config.n_seats; s++)
                if (s != seat && meet(st, t, seat, s))
                    engine__legal_push1(out, cap, &n, ENGINE_ACTION_BATTLE_CHOOSE, seat, (int)t, (int)t,
                          st->seat[s].faction, st->seat[s].faction);
        }
        break;
    case BATTLE_STEP_PLAN:
        n += plan_families(out && n < cap ? out + n : NULL, n < cap ? cap - n : 0, st, seat);
        break;
    case BATTLE_STEP_VOICE:             /* windows now (engine_window_point) */
    case BATTLE_STEP_PRESCIENCE:
    case BATTLE_STEP_PRESCIENCE_ANSWER:
        break;
    case BATTLE_STEP_TRAITOR:
        engine__legal_push1(out, cap, &n, ENGINE_ACTION_TRAITOR_CALL, seat, 0, may_call(st, seat), 0, 0);
        break;
    case BATTLE_STEP_KEEP: {
        if (st->battle_winner > 1)
            break; /* a decoded state without a winner: nothing to keep */
        const engine_battle_plan *p = &st->plan[st->battle_winner];
        engine__legal_push1(out, cap, &n, ENGINE_ACTION_KEEP_CARDS, seat, 0, p->weapon >= 0, 0, p->defense >= 0);
        break;
    }
    case BATTLE_STEP_CAPTURE:           /* the captor's powers (engine__legal_power_decision) */
    case BATTLE_STEP_COUNT:
        break;
    }
    return n;
}

/* The Voice window: the Bene Gesserit name a class, or pass. */
size_t engine__legal_voice(engine_legal *out, size_t cap, const engine_state *st, uint8_t seat)
{
    (void)st;
    size_t n = 0;
    engine__legal_push1(out, cap, &n, ENGINE_ACTION_VOICE, seat, 0, 1, ENGINE_VOICE_NONE + 1,
          ENGINE_VOICE_CLASS_COUNT - 1);
    engine__legal_push1(out, cap, &n, ENGINE_ACTION_VOICE_PASS, seat, 0, 0, 0, 0);
    return n;
}

/* The prescience window: the Atreides ask one element, or pass. */
size_t engine__legal_prescience(engine_legal *out, size_t cap, const engine_state *st,
                                uint8_t seat)
{
    (void)st;
    size_t n = 0;
    engine__legal_push1(out, cap, &n, ENGINE_ACTION_PRESCIENCE, seat, ENGINE_PRESCIENCE_LEADER,
          last_element(st), 0, 0);
    engine__legal_push1(out, cap, &n, ENGINE_ACTION_PRESCIENCE_PASS, seat, 0, 0, 0, 0);
    return n;
}

/* The answer's window: one family per answer that leaves a legal plan. */
size_t engine__legal_prescience_answer(engine_legal *out, size_t cap, const engine_state *st,
                                       uint8_t seat)
{
    size_t n = 0;
    unsigned element = engine_battle_prescience(st);
    unsigned forces = territory_forces(st, st->battle_territory, seat);
    int lo = -1, hi = -1;
    switch (element) {
    case ENGINE_PRESCIENCE_LEADER:
        lo = ENGINE_PRESCIENCE_CHEAP_HERO;
        hi = ENGINE_LEADER_COUNT - 1;
        break;
    case ENGINE_PRESCIENCE_WEAPON:
    case ENGINE_PRESCIENCE_DEFENSE:
        hi = st->n_cards - 1;
        break;
    case ENGINE_PRESCIENCE_DIAL:
        lo = 0;
        hi = (int)forces;
        break;
    default:
        break;
    }
    /* One family per answer that leaves a legal plan. */
    for (int v = lo; v <= hi; v++) {
        if (element == ENGINE_PRESCIENCE_DIAL && engine__dial_prescience(st))
            return engine__legal_dial_answers(out, cap, n, st, seat);
        if (element == ENGINE_PRESCIENCE_DIAL) {
            engine__legal_push1(out, cap, &n, ENGINE_ACTION_PRESCIENCE_ANSWER, seat, lo, hi, 0, 0);
            break;
        }
        if (element == ENGINE_PRESCIENCE_LEADER && v >= 0 && !leader_available(st, seat, (unsigned)v))
            continue;
        if (element == ENGINE_PRESCIENCE_LEADER && v == LEADER_NONE &&
            must_play_a_leader(st, seat, st->battle_seat[0] == seat ? 0u : 1u))
            continue;
        if (element == ENGINE_PRESCIENCE_LEADER && v == ENGINE_PRESCIENCE_CHEAP_HERO &&
            engine__card_in_hand(st, seat, ENGINE_CARD_CHEAP_HERO) == CARD_NONE)
            continue;
        if ((element == ENGINE_PRESCIENCE_WEAPON || element == ENGINE_PRESCIENCE_DEFENSE) &&
            v >= 0) {
            unsigned c = card_class(st, v);
            int slot = element == ENGINE_PRESCIENCE_WEAPON ? is_weapon_slot(c) : is_defense_slot(c);
            if (!holds(st, seat, v) || !slot ||
                !must_play_a_leader(st, seat, st->battle_seat[0] == seat ? 0u : 1u))
                continue;
        }
        if (answer_leaves_a_plan(st, seat, v))
            engine__legal_push1(out, cap, &n, ENGINE_ACTION_PRESCIENCE_ANSWER, seat, v, v, 0, 0);
    }
    return n;
}
