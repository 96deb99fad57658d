/*
 * karama_plan.c - the Atreides' Karama power (LR 1.14.01; Advanced, rules
 * version 8 on; docs/RULINGS.md R139): once a game, with a Karama card
 * spent, in the Battle phase, "see one player's entire battle plan".
 * `atreides_karama_plan` names a side of the battle whose plans are being
 * made (the Atreides asked for theirs, any side but their own), before the
 * plans are revealed: that side's plan is the Atreides' to see from the
 * moment it is committed (at once if it already is) until the reveal, its
 * cards marked known to them (engine/view.c shows the rest of it), so the
 * Atreides may make their own plan after seeing it. The record is one
 * field of the Advanced block, `karama_plan_seen` (low 4 bits the seat
 * seen + 1, high 4 bits the seer + 1; 0 none), cleared with every battle
 * and encoded only in Advanced rooms of version 8. The rows are the Atreides' (engine/powers_atreides.c); this
 * file names no faction. Engine layer: no I/O, no allocation, no clock.
 */
#include "engine/internal.h"

int engine__karama_plan_carried(const engine_state *st)
{
    return engine__karama_powers_carried(st) &&
           engine__rule(st, ENGINE__RULE_ADVANCED_KARAMA_ATREIDES);
}

/* The side (0, 1) `faction` fights in the current battle, else -1. */
static int side_of_faction(const engine_state *st, int faction)
{
    int s = faction >= 0 && faction < ENGINE_FACTION_COUNT ? engine__seat_of(st, (unsigned)faction)
                                                           : -1;
    for (int i = 0; i < 2 && s >= 0; i++)
        if (st->battle_seat[i] == (unsigned)s)
            return i;
    return -1;
}

int engine__karama_plan_when(const engine_state *st, unsigned owner, unsigned seat)
{
    (void)seat;
    (void)owner;
    return engine__plans_asked(st);
}

size_t engine__karama_plan_legal(engine_legal *out, size_t cap, const engine_state *st,
                                 unsigned seat, int16_t id)
{
    size_t n = 0;
    if (!engine__karama_power_ready(st, seat))
        return 0;
    for (unsigned i = 0; i < 2; i++) {
        unsigned s = st->battle_seat[i];
        if (s < st->config.n_seats && s != seat)
            engine__legal_push1(out, cap, &n, ENGINE_ACTION_POWER, (uint8_t)seat, id, id,
                                st->seat[s].faction, st->seat[s].faction);
    }
    return n;
}

int engine__karama_plan_seer(const engine_state *st)
{
    return st->karama_plan_seen ? (int)(st->karama_plan_seen >> 4) - 1 : -1;
}

int engine__karama_plan_seen_seat(const engine_state *st)
{
    return st->karama_plan_seen ? (int)(st->karama_plan_seen & 0x0Fu) - 1 : -1;
}

/* The cards of the seen plan, once committed, are the seer's. */
static void mark_seen(engine_state *st)
{
    int seen = engine__karama_plan_seen_seat(st), owner = engine__karama_plan_seer(st);
    if (seen < 0 || owner < 0)
        return;
    for (unsigned i = 0; i < 2; i++) {
        const engine_battle_plan *p = &st->plan[i];
        if (st->battle_seat[i] != (unsigned)seen || !p->is_committed)
            continue;
        const int cards[3] = {p->weapon, p->defense, p->cheap_hero};
        for (unsigned k = 0; k < 3; k++)
            if (cards[k] >= 0 && cards[k] < st->n_cards)
                st->card[cards[k]].known_by |= (uint16_t)ENGINE_SEAT_BIT(owner);
    }
}

engine_verdict engine__karama_plan(engine_verdict_detail *why, engine_state *st, unsigned owner,
                                   const engine_action *act, engine_rng *rng)
{
    (void)rng;
    if (st->karama_power_used & ENGINE_SEAT_BIT(owner))
        return engine__reject(why, ENGINE_REJECT_ALREADY_ANSWERED, 0, act->arg[0]);
    if (!engine__karama_power_ready(st, owner))
        return engine__reject(why, ENGINE_REJECT_NO_KARAMA, -1, 0);
    int side = side_of_faction(st, act->arg[1]);
    if (side < 0 || st->battle_seat[side] == owner)
        return engine__reject(why, ENGINE_REJECT_ARG_OUT_OF_RANGE, 1, act->arg[1]);
    engine__karama_power_spend(st, owner);
    st->karama_plan_seen = (uint8_t)((owner + 1u) << 4 | (st->battle_seat[side] + 1u));
    mark_seen(st);
    return ENGINE_ACCEPTED;
}

void engine__karama_plan_committed(engine_state *st)
{
    mark_seen(st);
}

int engine_karama_plan_shown(const engine_state *st, unsigned viewer, unsigned side)
{
    return side < 2 && engine__karama_plan_seer(st) == (int)viewer &&
           engine__karama_plan_seen_seat(st) == (int)st->battle_seat[side] &&
           st->plan[side].is_committed;
}

int engine__karama_plan_check(const engine_state *st)
{
    if (st->karama_plan_seen == 0)
        return 1;
    int seer = engine__karama_plan_seer(st), seen = engine__karama_plan_seen_seat(st);
    return engine__karama_plan_carried(st) && st->phase == ENGINE_PHASE_BATTLE && seer >= 0 &&
           seen >= 0 && seer != seen && (unsigned)seer < st->config.n_seats &&
           (st->karama_power_used & ENGINE_SEAT_BIT((unsigned)seer)) &&
           (st->battle_seat[0] == (unsigned)seen || st->battle_seat[1] == (unsigned)seen);
}

const engine_power_form engine__karama_plan_form = ENGINE__TARGET_FORM("atreides_karama_plan");
