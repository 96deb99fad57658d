/*
 * powers_guild.c - the Spacing Guild's powers as rows (internal.h,
 * engine__power_row; DUNE_RULES_DIGEST.md 3.3, LR 2.06): what the phase
 * files ask of them at their rule points (engine/points.c). A row holds
 * facts and small functions over the state; it never mutates the state
 * and never names another family's faction.
 */
#include "engine/internal.h"

/* At the end of the last turn with no winner, when the Fremen have not
 * won, the Guild win (with their ally). */
static int default_victory(const engine_state *st, unsigned owner, unsigned seat, int value)
{
    (void)st;
    (void)owner;
    (void)seat;
    (void)value;
    return ENGINE_VICTORY_GUILD;
}

static const engine__power_row rows[] = {
    /* G1: the other factions pay the Guild for their shipments. */
    {.point = ENGINE__POINT_SHIPPING_PAYEE, .faction = ENGINE_FACTION_GUILD, .to = ENGINE__TO_OWNER,
     .advantage = ENGINE_ADVANTAGE_GUILD_PAYMENT, .karama = ENGINE__KARAMA_STANDING, .source = "LR 2.06.04"},
    /* G4, G5: half price, for the Guild and for its ally. */
    {.point = ENGINE__POINT_SHIPPING_HALF, .faction = ENGINE_FACTION_GUILD, .to = ENGINE__TO_OWNER,
     .advantage = ENGINE_ADVANTAGE_GUILD_HALF_PRICE, .karama = ENGINE__KARAMA_CANCELS, .source = "LR 2.06.06"},
    {.point = ENGINE__POINT_SHIPPING_HALF, .faction = ENGINE_FACTION_GUILD, .to = ENGINE__TO_ALLY,
     .advantage = ENGINE_ADVANTAGE_GUILD_ALLY_HALF_PRICE, .karama = ENGINE__KARAMA_CANCELS | ENGINE__KARAMA_BY_ALLY, .source = "LR 2.06.09"},
    /* G2, G6: site to site, for the Guild and for its ally. */
    {.point = ENGINE__POINT_SHIP_ACROSS, .faction = ENGINE_FACTION_GUILD, .to = ENGINE__TO_OWNER,
     .advantage = ENGINE_ADVANTAGE_GUILD_CROSS_SHIP, .karama = ENGINE__KARAMA_CANCELS, .source = "LR 2.06.05.02"},
    {.point = ENGINE__POINT_SHIP_ACROSS, .faction = ENGINE_FACTION_GUILD, .to = ENGINE__TO_ALLY,
     .advantage = ENGINE_ADVANTAGE_GUILD_ALLY_CROSS_SHIP, .karama = ENGINE__KARAMA_CANCELS | ENGINE__KARAMA_BY_ALLY, .source = "LR 2.06.10"},
    /* G3: back to reserves, the Guild's alone. */
    {.point = ENGINE__POINT_SHIP_BACK, .faction = ENGINE_FACTION_GUILD, .to = ENGINE__TO_OWNER,
     .advantage = ENGINE_ADVANTAGE_GUILD_SHIP_BACK, .karama = ENGINE__KARAMA_CANCELS, .source = "LR 2.06.05"},
    /* After the Fremen's special victory (order 0), before the Fremen's
     * default (order 2). */
    {.point = ENGINE__POINT_LAST_TURN, .faction = ENGINE_FACTION_GUILD, .to = ENGINE__TO_OWNER,
     .order = 1, .fn = default_victory, .source = "LR 2.06.08"},
};

const engine__power_family engine__powers_guild = {rows, sizeof rows / sizeof rows[0]};
