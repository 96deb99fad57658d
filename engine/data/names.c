/*
 * names.c - names and slugs of factions, territories, locations, leaders and
 * card kinds, and the reverse look-ups, all read from the fact tables.
 *
 * These answer text and JSON: a slug is stable (it is printed and parsed),
 * a name is for people. Every function checks its index before touching a
 * table and answers NULL, -1, ENGINE_FACTION_NONE (or the value its
 * declaration names) for anything out of range; look-ups by string compare
 * exactly and accept NULL as unknown. No state, no allocation.
 */
#include <string.h>

#include "engine/internal.h"

/* ============================================================ factions */

const char *engine_faction_name(unsigned f)
{
    return f < ENGINE_FACTION_COUNT ? engine__factions[f].slug : NULL;
}

engine_faction engine_faction_from_name(const char *s)
{
    if (s == NULL)
        return ENGINE_FACTION_NONE;
    for (unsigned f = 0; f < ENGINE_FACTION_COUNT; f++)
        if (strcmp(s, engine__factions[f].slug) == 0)
            return (engine_faction)f;
    return ENGINE_FACTION_NONE;
}

/* ========================================================= territories */

const char *engine_territory_name(unsigned t)
{
    return t < ENGINE_TERRITORY_COUNT ? engine__territories[t].name : NULL;
}

const char *engine_territory_slug(unsigned t)
{
    return t < ENGINE_TERRITORY_COUNT ? engine__territories[t].slug : NULL;
}

int engine_territory_from_slug(const char *s)
{
    if (s == NULL)
        return -1;
    for (unsigned t = 0; t < ENGINE_TERRITORY_COUNT; t++)
        if (strcmp(s, engine__territories[t].slug) == 0)
            return (int)t;
    return -1;
}

/* =========================================================== locations */

/* ENGINE_TERRITORY_COUNT for a location out of range. */
unsigned engine_location_territory(unsigned loc)
{
    return loc < ENGINE_LOCATION_COUNT ? engine__locations[loc].territory
                                       : ENGINE_TERRITORY_COUNT;
}

/* ENGINE_NO_SECTOR also for a location out of range. */
int engine_location_sector(unsigned loc)
{
    return loc < ENGINE_LOCATION_COUNT ? engine__locations[loc].sector
                                       : ENGINE_NO_SECTOR;
}

/* The Polar Sink and the HMS are found with sector ENGINE_NO_SECTOR. */
int engine_location_find(unsigned territory, int sector)
{
    for (unsigned loc = 0; loc < ENGINE_LOCATION_COUNT; loc++)
        if (engine__locations[loc].territory == territory
            && engine__locations[loc].sector == sector)
            return (int)loc;
    return -1;
}

/* ============================================================= leaders */

const char *engine_leader_name(unsigned leader)
{
    return leader < ENGINE_LEADER_COUNT ? engine__leaders[leader].name : NULL;
}

const char *engine_leader_slug(unsigned leader)
{
    return leader < ENGINE_LEADER_COUNT ? engine__leaders[leader].slug : NULL;
}

int engine_leader_from_slug(const char *s)
{
    if (s == NULL)
        return -1;
    for (unsigned l = 0; l < ENGINE_LEADER_COUNT; l++)
        if (strcmp(s, engine__leaders[l].slug) == 0)
            return (int)l;
    return -1;
}

/* ENGINE_FACTION_NONE for Vidal and for a leader out of range. */
unsigned engine_leader_faction(unsigned leader)
{
    return leader < ENGINE_LEADER_COUNT ? engine__leaders[leader].faction
                                        : ENGINE_FACTION_NONE;
}

/* 0 for Zoal (variable) and for a leader out of range. */
unsigned engine_leader_strength(unsigned leader)
{
    return leader < ENGINE_LEADER_COUNT ? engine__leaders[leader].strength
                                        : 0;
}

/* ========================================================== card kinds */

const char *engine_card_kind_name(unsigned kind)
{
    return kind < ENGINE_CARD_KIND_COUNT ? engine__card_kinds[kind].name
                                         : NULL;
}

const char *engine_card_kind_slug(unsigned kind)
{
    return kind < ENGINE_CARD_KIND_COUNT ? engine__card_kinds[kind].slug
                                         : NULL;
}
