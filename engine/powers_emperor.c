/*
 * powers_emperor.c - the Emperor's powers as rows (internal.h,
 * engine__power_row; DUNE_RULES_DIGEST.md 3.3, LR 2.03): what the phase
 * files ask of them at their rule points (engine/points.c). A row holds
 * facts and small functions over the state; it never mutates the state
 * and never names another family's faction.
 */
#include "engine/internal.h"

/* The ally may revive beyond the limit as many forces as the Emperor
 * offered to pay for this Revival (the offer was the advantage, answered
 * by its Karama window: a cancel left it at 0). */
static int ally_extra_revivals(const engine_state *st, unsigned owner, unsigned seat, int value)
{
    (void)owner;
    (void)seat;
    return value + st->emperor_ally_revivals;
}

/* Advanced: a Sardaukar is worth two forces at full strength (LR 2.03.08;
 * half points: 4, and 2 unsupported), but only one against the Fremen
 * (LR 2.03.09, which names them; not against their ally, ADVANCED_RULES.md
 * 8 item 9). The opponent is the other side of the battle under way. */
#define SARDAUKAR_HALF_POINTS 4

static int sardaukar_value(const engine_state *st, unsigned owner, unsigned seat, int value)
{
    (void)seat;
    unsigned opponent = st->battle_seat[0] == owner ? st->battle_seat[1] : st->battle_seat[0];
    if (opponent < st->config.n_seats && st->seat[opponent].faction == ENGINE_FACTION_FREMEN)
        return value;
    return SARDAUKAR_HALF_POINTS;
}

static const engine__power_row rows[] = {
    /* E1: the other factions pay the Emperor for the cards they buy. */
    {.point = ENGINE__POINT_CARD_PAYEE, .faction = ENGINE_FACTION_EMPEROR, .to = ENGINE__TO_OWNER,
     .advantage = ENGINE_ADVANTAGE_EMPEROR_CARD_PAYMENT, .karama = ENGINE__KARAMA_STANDING, .source = "LR 2.03.04"},
    /* E2: the Emperor may pay for up to 3 extra revivals of its ally... */
    {.point = ENGINE__POINT_ALLY_REVIVAL_PAID, .faction = ENGINE_FACTION_EMPEROR,
     .to = ENGINE__TO_OWNER, .advantage = ENGINE_ADVANTAGE_EMPEROR_ALLY_REVIVAL, .karama = ENGINE__KARAMA_CANCELS, .retake = ENGINE_ACTION_EMPEROR_REVIVAL,
     .source = "LR 2.03.07"},
    /* Advanced: the Sardaukar in battle (in force from rules version 5). */
    {.point = ENGINE__POINT_ELITE_VALUE, .faction = ENGINE_FACTION_EMPEROR, .to = ENGINE__TO_OWNER,
     .game = ENGINE__GAME_ADVANCED, .since = ENGINE__RULE_SINCE(ENGINE__RULE_ROOM_OPTIONS),
     .fn = sardaukar_value, .source = "LR 2.03.08-09"},
    /* ...which the ally then revives beyond the limit. */
    {.point = ENGINE__POINT_REVIVAL_LIMIT, .faction = ENGINE_FACTION_EMPEROR, .to = ENGINE__TO_ALLY,
     .fn = ally_extra_revivals, .source = "LR 2.03.07"},
};

const engine__power_family engine__powers_emperor = {rows, sizeof rows / sizeof rows[0]};
