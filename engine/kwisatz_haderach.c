/*
 * kwisatz_haderach.c - the Kwisatz Haderach's token in the Advanced game
 * (LR 2.01.10-15; ADVANCED_RULES.md 6.1; docs/RULINGS.md R102-R105): how
 * its owner's losses in battles awaken it, whether it may join the
 * battle under way, what it adds to a total, what kills it, and its
 * revival. The battle and revival phases call these helpers; its owner
 * is the seat of the row at ENGINE__POINT_KWISATZ_HADERACH
 * (engine/powers_atreides.c), whose game and version range put it in
 * force only in an Advanced room of rules version 6 on, so nothing here
 * names a faction or a version. Engine layer: no I/O, no allocation, no
 * clock.
 */
#include "engine/internal.h"

/* What the token adds to the total of the leader or Cheap Hero it
 * accompanies, in half points (LR 2.01.11: +2), and its revival price
 * (LR 2.01.14: 2 spice). */
#define KH_STRENGTH_HALF_POINTS 4
#define KH_REVIVAL_COST 2

int engine__kh_owner(const engine_state *st)
{
    return engine__point_owner(st, ENGINE__POINT_KWISATZ_HADERACH);
}

int engine_kh_in_force(const engine_state *st)
{
    return engine__kh_owner(st) >= 0;
}

void engine__kh_battle_losses(engine_state *st, unsigned seat, unsigned n)
{
    int owner = engine__kh_owner(st);
    if (owner < 0 || (unsigned)owner != seat || n == 0)
        return;
    /* Every token lost inside a battle counts: as the loser, the winner's
     * dialled losses, betrayed, in an explosion (ADVANCED_RULES.md 8 item
     * 11). Past 255 nothing more can change. */
    unsigned total = st->kh_losses + n;
    st->kh_losses = (uint8_t)(total > 255 ? 255 : total);
}

int engine__kh_is_awake(const engine_state *st)
{
    return engine__kh_owner(st) >= 0 && st->kh_losses >= ENGINE_KH_AWAKENING_LOSSES;
}

int engine__kh_may_join(const engine_state *st)
{
    /* One territory a turn, any number of battles in it (LR 2.01.12). */
    return engine__kh_is_awake(st) && st->kh_state != ENGINE_KH_DEAD &&
           (st->kh_territory == 0 || st->kh_territory == st->battle_territory + 1);
}

int engine__kh_joins(const engine_state *st, unsigned side)
{
    return side < 2 && st->plan[side].kwisatz_haderach == ENGINE_KH_WITH;
}

unsigned engine__kh_strength2(const engine_state *st, unsigned side, int hero_survives)
{
    /* No +2 when the leader or Cheap Hero it accompanies dies (LR 2.01.11). */
    return engine__kh_joins(st, side) && hero_survives ? KH_STRENGTH_HALF_POINTS : 0u;
}

void engine__kh_after_battle(engine_state *st, int is_explosion, unsigned traitor_winner)
{
    for (unsigned i = 0; i < 2; i++) {
        if (!engine__kh_joins(st, i))
            continue;
        /* Only a lasgun and a shield in a battle it joined kill it; no
         * weapon does (LR 2.01.13). */
        if (is_explosion)
            st->kh_state = ENGINE_KH_DEAD;
        /* A win by a traitor does not use its one territory (LR
         * 1.07.06.07.01; ADVANCED_RULES.md 8 item 12). */
        if (traitor_winner != i)
            st->kh_territory = (uint8_t)(st->battle_territory + 1);
    }
}

void engine__kh_turn_begins(engine_state *st)
{
    st->kh_territory = 0;
}

void engine__kh_revival_ends(engine_state *st)
{
    if (st->kh_state == ENGINE_KH_REVIVED)
        st->kh_state = ENGINE_KH_ALIVE;
}

int engine__kh_revived_now(const engine_state *st, unsigned seat)
{
    int owner = engine__kh_owner(st);
    return owner >= 0 && (unsigned)owner == seat && st->kh_state == ENGINE_KH_REVIVED;
}

engine_verdict engine__kh_revivable(const engine_state *st, unsigned seat, int *arg)
{
    int owner = engine__kh_owner(st);
    *arg = 0;
    if (owner < 0 || (unsigned)owner != seat || st->kh_state != ENGINE_KH_DEAD)
        return ENGINE_REJECT_LEADER_NOT_REVIVABLE;
    /* Revived like a leader, once each of the faction's leaders has died
     * at least once or is not in its pool (LR 2.01.14; docs/RULINGS.md
     * R105); the token itself is never one of them (LR 2.01.15). */
    unsigned faction = st->seat[seat].faction;
    for (unsigned l = 0; l < ENGINE_LEADER_COUNT; l++)
        if (engine__leaders[l].faction == faction && st->leader[l].place == ENGINE_PLACE_POOL &&
            st->leader[l].deaths == 0 && !engine__captive(st, l))
            return ENGINE_REJECT_LEADER_NOT_REVIVABLE;
    if (st->seat[seat].spice < KH_REVIVAL_COST)
        return ENGINE_REJECT_CANNOT_PAY;
    return ENGINE_ACCEPTED;
}

void engine__kh_revive(engine_state *st, unsigned seat)
{
    st->seat[seat].spice = (uint16_t)(st->seat[seat].spice - KH_REVIVAL_COST);
    st->spice_burned += KH_REVIVAL_COST;
    st->kh_state = ENGINE_KH_REVIVED;
}

int engine__kh_check(const engine_state *st)
{
    int carried = engine__advanced(st) && engine__rule(st, ENGINE__RULE_ADVANCED_KH);
    if (!carried)
        return st->kh_losses == 0 && st->kh_state == 0 && st->kh_territory == 0 &&
               st->plan[0].kwisatz_haderach == 0 && st->plan[1].kwisatz_haderach == 0;
    return st->kh_state <= ENGINE_KH_REVIVED && st->kh_territory <= ENGINE_TERRITORY_COUNT &&
           st->plan[0].kwisatz_haderach <= ENGINE_KH_WITH &&
           st->plan[1].kwisatz_haderach <= ENGINE_KH_WITH;
}
