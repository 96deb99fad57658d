/*
 * phase_mentat_pause.c - the Mentat Pause and the game's end
 * (DUNE_RULES_DIGEST.md 4.9-4.10, LR 1.09, 2.02.01, 2.04.09, 2.06.08;
 * rulings in docs/RULINGS.md "Victory"): a seat alone in 3 strongholds, or
 * two allies holding 4 between them, win; several qualifying, the first in
 * storm order wins (with its ally); the Bene Gesserit win alone if they
 * predicted that winner and turn; after the last turn the Fremen's or the
 * Guild's special victory. The game then ends in GAME_OVER, where no seat
 * may act; otherwise the next turn begins.
 */
#include "engine/phase.h"

#define SEAT_NONE 0xFF
#define STRONGHOLDS_ALONE 3
#define STRONGHOLDS_ALLIED 4

int engine__occupies(const engine_state *st, unsigned territory, unsigned seat)
{
    for (unsigned l = 0; l < ENGINE_LOCATION_COUNT; l++)
        if (engine__locations[l].territory == territory && (st->forces[l][seat] || st->special[l][seat]))
            return 1;
    return 0;
}

/* The seat alone in a territory (BG advisors do not count), or SEAT_NONE. */
static unsigned controller(const engine_state *st, unsigned territory)
{
    unsigned who = SEAT_NONE;
    for (unsigned s = 0; s < st->config.n_seats; s++)
        if (engine__occupies(st, territory, s)) {
            if (who != SEAT_NONE)
                return SEAT_NONE;
            who = s;
        }
    return who;
}

static unsigned controlled(const engine_state *st, unsigned seat)
{
    unsigned n = 0;
    for (unsigned i = 0; i < ENGINE_STRONGHOLD_COUNT; i++)
        n += controller(st, engine_stronghold(i)) == seat;
    return n;
}

static uint16_t with_ally(const engine_state *st, unsigned seat)
{
    uint16_t m = ENGINE_SEAT_BIT(seat);
    if (st->ally[seat] != SEAT_NONE)
        m |= ENGINE_SEAT_BIT(st->ally[seat]);
    return m;
}

static void game_over(engine_state *st, uint16_t winners, unsigned kind)
{
    engine__phase_enter(st, ENGINE_PHASE_GAME_OVER);
    st->winners = winners;
    st->victory_kind = (uint8_t)kind;
}

/* End of the last turn with no winner (LR 2.04.09, 2.06.08): the special
 * victories are rows of ENGINE__POINT_LAST_TURN, asked in their order. */
static void last_turn(engine_state *st)
{
    unsigned owner;
    int kind = engine__point_decide(st, ENGINE__POINT_LAST_TURN, 0, &owner);
    if (kind) {
        game_over(st, with_ally(st, owner), (unsigned)kind);
        return;
    }
    /* Neither: whoever holds the most strongholds; all who tie (LR 1.09.03). */
    unsigned best = 0;
    uint16_t winners = 0;
    for (unsigned s = 0; s < st->config.n_seats; s++) {
        unsigned n = controlled(st, s);
        if (n > best) {
            best = n;
            winners = 0;
        }
        if (n == best)
            winners |= ENGINE_SEAT_BIT(s);
    }
    game_over(st, winners, ENGINE_VICTORY_MOST_STRONGHOLDS);
}

void engine__mentat_pause_begin(engine_state *st, engine_rng *rng)
{
    engine__phase_enter(st, ENGINE_PHASE_MENTAT_PAUSE);
    engine__nexus_mentat_pause(st); /* replacements a Nexus panel owes (rules version 7) */
    uint8_t order[ENGINE_MAX_SEATS];
    unsigned n = engine__storm_order(st, order);
    for (unsigned i = 0; i < n; i++) {
        unsigned s = order[i];
        uint8_t a = st->ally[s];
        unsigned held = controlled(st, s) + (a != SEAT_NONE ? controlled(st, a) : 0);
        unsigned need = a != SEAT_NONE ? STRONGHOLDS_ALLIED : STRONGHOLDS_ALONE;
        if (held < need)
            continue;
        uint16_t winners = with_ally(st, s);
        /* A row may take the win for its owner alone: the Bene Gesserit's
         * prediction came true (LR 2.02.01). */
        unsigned alone;
        int kind = engine__point_decide(st, ENGINE__POINT_MENTAT_PAUSE, winners, &alone);
        if (kind) {
            game_over(st, ENGINE_SEAT_BIT(alone), (unsigned)kind);
            return;
        }
        game_over(st, winners, ENGINE_VICTORY_STRONGHOLDS);
        return;
    }
    if (st->turn >= st->config.turn_limit) {
        last_turn(st);
        return;
    }
    /* every seat's own moment of the Mentat Pause (Nexus Cards, rules
     * version 8): the window's close begins the storm */
    if (engine__nexus_moment(st, ENGINE_NEXUS_AT_MENTAT_PAUSE,
                             (uint16_t)((1u << st->config.n_seats) - 1u), 0))
        return;
    engine__storm_begin(st, rng);
}
