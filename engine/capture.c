/*
 * capture.c - the Harkonnen's capture or kill of leaders in the Advanced
 * game (LR 2.05.10-2.05.13; ADVANCED_RULES.md 6.5, 8 items 12-14, 10 #6;
 * docs/RULINGS.md R154-R158): after a battle its owner won, one of the
 * loser's active leaders drawn at random, which the owner captures (it
 * joins its pool), kills (face down to the Tanks, 2 spice from the bank)
 * or leaves; a captive fighting for its captor and going back after a
 * battle it survives, or when all its captor's own leaders are dead. The
 * battle phase calls engine__capture_after_battle as each battle ends;
 * the captor is the owner of the row at ENGINE__POINT_CAPTURE
 * (engine/powers_harkonnen.c), in force only in an Advanced room of rules
 * version 8 on, so nothing here names a faction or a version, and every
 * other room never has a captive. Engine layer: no I/O, no allocation, no
 * clock; the draw is the event's randomness (engine_rng).
 */
#include <assert.h>

#include "engine/phase.h"

#define SEAT_NONE 0xFF
#define KILL_SPICE 2               /* from the bank to the captor (LR 2.05.10.02) */
#define FACE_DOWN_DEATHS 2         /* a leader killed face down counts as killed twice */

enum { CHOICE_NEITHER = 0, CHOICE_CAPTURE = 1, CHOICE_KILL = 2 };

static int captor(const engine_state *st)
{
    return engine__point_owner(st, ENGINE__POINT_CAPTURE);
}

static uint64_t bit(unsigned leader)
{
    return (uint64_t)1u << leader;
}

int engine__capture_encoded(const engine_state *st)
{
    return engine__advanced(st) && engine__rule(st, ENGINE__RULE_ADVANCED_CAPTURE);
}

int engine_captives_in_force(const engine_state *st)
{
    return captor(st) >= 0;
}

int engine__captive(const engine_state *st, unsigned leader)
{
    return leader < ENGINE_LEADER_COUNT && (st->captives & bit(leader)) != 0;
}

int engine_leader_holder(const engine_state *st, unsigned leader)
{
    if (leader >= ENGINE_LEADER_COUNT || st->leader[leader].place != ENGINE_PLACE_POOL)
        return -1;
    if (engine__captive(st, leader))
        return captor(st);
    return engine__seat_of(st, engine__leaders[leader].faction);
}

/* The captor's side in the battle under way, or 2. */
static unsigned captor_side(const engine_state *st, int h)
{
    return h < 0 ? 2u : st->battle_seat[0] == h ? 0u : st->battle_seat[1] == h ? 1u : 2u;
}

/* 1 if the captor's own leaders are all in the Tanks. */
static int own_leaders_dead(const engine_state *st, unsigned h)
{
    for (unsigned l = 0; l < ENGINE_LEADER_COUNT; l++)
        if (engine__leaders[l].faction == st->seat[h].faction &&
            st->leader[l].place == ENGINE_PLACE_POOL)
            return 0;
    return 1;
}

/* The captive the captor fought with goes back to the faction that last
 * had it after a battle it survived (LR 2.05.10.01), but not after one
 * the captor won by calling a traitor (LR 1.07.06.07.01; ADVANCED_RULES.md
 * 8 item 12). */
static void release_used(engine_state *st, unsigned side)
{
    int l = st->plan[side].leader;
    if (l < 0 || !engine__captive(st, (unsigned)l) || st->traitor_called == (1u << side))
        return;
    st->captives &= ~bit((unsigned)l);
}

/* The loser's active leaders: in its pool (its own, not captives), not
 * used in another territory this turn; the leader it fought with, if it
 * survived, among them (LR 2.05.10; ADVANCED_RULES.md 6.5 item 2). */
static unsigned candidates(uint8_t out[ENGINE_LEADER_COUNT], const engine_state *st,
                           unsigned loser)
{
    unsigned n = 0;
    for (unsigned l = 0; l < ENGINE_LEADER_COUNT; l++)
        if (engine_leader_holder(st, l) == (int)loser &&
            (st->leader_territory[l] == SEAT_NONE ||
             st->leader_territory[l] == st->battle_territory))
            out[n++] = (uint8_t)l;
    return n;
}

void engine__capture_leader_killed(engine_state *st, unsigned leader)
{
    int h = captor(st);
    if (h < 0 || !st->captives)
        return;
    /* A captive killed is in the Tanks for its own faction (LR 2.05.12). */
    if (engine__captive(st, leader)) {
        st->captives &= ~bit(leader);
        return;
    }
    /* Prison break: the moment the last of the captor's own leaders dies,
     * every captive goes back (LR 2.05.11). */
    if (engine__leaders[leader].faction == st->seat[h].faction && own_leaders_dead(st, (unsigned)h))
        st->captives = 0;
}

int engine__capture_after_battle(engine_state *st, engine_rng *rng)
{
    int h = captor(st);
    if (h < 0 || !engine__capture_encoded(st))
        return 0;
    unsigned side = captor_side(st, h);
    if (side > 1)
        return 0;
    if (st->battle_winner == side) {
        uint8_t pool[ENGINE_LEADER_COUNT];
        unsigned n = candidates(pool, st, st->battle_seat[1 - side]);
        if (n > 0) {
            st->capture_leader = (uint8_t)(1u + pool[engine_rng_uniform(rng, n)]);
            st->step = BATTLE_STEP_CAPTURE;
            st->awaiting = ENGINE_SEAT_BIT((unsigned)h);
            st->answered = 0;
            return 1;
        }
    }
    release_used(st, side);
    return 0;
}

int engine__capture_asking(const engine_state *st)
{
    return st->phase == ENGINE_PHASE_BATTLE && st->step == BATTLE_STEP_CAPTURE &&
           st->capture_leader != 0;
}

void engine__capture_decided(engine_state *st, unsigned choice, engine_rng *rng)
{
    int h = captor(st);
    assert(h >= 0 && engine__capture_asking(st));
    unsigned l = st->capture_leader - 1u;
    st->capture_leader = 0;
    if (choice == CHOICE_CAPTURE) {
        st->captives |= bit(l);
    } else if (choice == CHOICE_KILL) {
        /* Face down: revived only after the faction's leaders killed once
         * (LR 2.05.10.02, 1.05.04; docs/RULINGS.md R156). */
        engine_leader_state *ls = &st->leader[l];
        ls->place = ENGINE_PLACE_TANKS;
        ls->deaths = (uint8_t)(ls->deaths + 1u < FACE_DOWN_DEATHS ? FACE_DOWN_DEATHS
                               : ls->deaths < 255 ? ls->deaths + 1u : 255u);
        st->seat[h].spice = (uint16_t)(st->seat[h].spice + KILL_SPICE);
        st->spice_minted += KILL_SPICE;
    }
    release_used(st, captor_side(st, h));
    engine__battle_after_capture(st, rng);
}

int engine__capture_check(const engine_state *st)
{
    if (!engine__capture_encoded(st))
        return st->captives == 0 && st->capture_leader == 0;
    int h = captor(st);
    if (st->captives >> ENGINE_LEADER_COUNT)
        return 0;
    for (unsigned l = 0; l < ENGINE_LEADER_COUNT; l++)
        if (engine__captive(st, l) &&
            (h < 0 || st->leader[l].place != ENGINE_PLACE_POOL ||
             engine__leaders[l].faction == st->seat[h].faction))
            return 0;
    int at_step = st->phase == ENGINE_PHASE_BATTLE && st->step == BATTLE_STEP_CAPTURE;
    if (at_step != (st->capture_leader != 0))
        return 0;
    if (!at_step)
        return 1;
    unsigned l = st->capture_leader - 1u;
    unsigned side = captor_side(st, h);
    return l < ENGINE_LEADER_COUNT && side < 2 && st->battle_winner == side &&
           st->awaiting == ENGINE_SEAT_BIT((unsigned)h) &&
           engine_leader_holder(st, l) == st->battle_seat[1 - side];
}
