/*
 * advanced.c - the Advanced game's phase rules that belong to no faction
 * (ADVANCED_RULES.md, LR 1.13): when they are in force, and the
 * stronghold income of the Spice Collection (LR 1.13.01). The faction
 * abilities of the Advanced game are rows in the file of their family
 * (engine/powers_*.c, `.game = ENGINE__GAME_ADVANCED`). Each rule here is
 * in force only in an Advanced room played by a rules version that has
 * it (row ENGINE__RULE_ROOM_OPTIONS), so a Basic room, and an Advanced
 * room recorded by an earlier build, folds exactly as before. Engine
 * layer: no I/O, no allocation, no clock; it never names a faction.
 */
#include "engine/internal.h"

/* What each stronghold pays its occupants from the bank in the Spice
 * Collection (LR 1.13.01; ADVANCED_RULES.md 3). One row per paying
 * stronghold; the others pay nothing. */
static const struct {
    uint8_t territory;             /* engine_territory */
    uint8_t spice;                 /* paid to each faction occupying it */
} income[] = {
    {ENGINE_TERRITORY_ARRAKEEN, 2},
    {ENGINE_TERRITORY_CARTHAG, 2},
    {ENGINE_TERRITORY_TUEKS_SIETCH, 1},
};

int engine__advanced(const engine_state *st)
{
    return st->config.is_advanced && engine__rule(st, ENGINE__RULE_ROOM_OPTIONS);
}

unsigned engine__stronghold_income(const engine_state *st, unsigned seat)
{
    if (!engine__advanced(st))
        return 0;
    unsigned total = 0;
    /* Every occupant collects, not only a sole one: occupation at
     * collection is all the rule asks (LR 1.13.01; docs/RULINGS.md
     * "Stronghold income"). Advisors occupy nothing (LR 2.02.12):
     * engine__occupies counts fighters only. */
    for (unsigned i = 0; i < sizeof income / sizeof income[0]; i++)
        if (engine__occupies(st, income[i].territory, seat))
            total += income[i].spice;
    return total;
}
