/*
 * territories.c - the 43 territories of the board, one row each, indexed by
 * engine_territory (the numbering of DUNE_RULES_DIGEST.md section 1.2).
 *
 * Facts only: name, slug, kind, storm and worm protection as the digest
 * gives them (section 1.2 table; storm protection per section 1.3:
 * strongholds, rock, the Polar Sink, the Imperial Basin while the Shield
 * Wall stands, and the Hidden Mobile Stronghold). Whether the Shield Wall
 * still stands is state, not a fact: rules read is_storm_safe together with
 * it. Then the territory sets some rules name: the Shield Wall's shelter,
 * the ornithopter cities, the Fremen's sietches and opening territories. Nothing
 * here decides a rule.
 */
#include "engine/internal.h"

#define ROW(name, slug, kind, storm_safe, worm_safe) \
    { name, slug, ENGINE_TERRAIN_##kind, storm_safe, worm_safe }

const engine__territory_row engine__territories[ENGINE_TERRITORY_COUNT] = {
    /* ROW(name, slug, kind, is_storm_safe, is_worm_safe) */
    [ENGINE_TERRITORY_POLAR_SINK] =
        ROW("Polar Sink", "polar_sink", POLAR_SINK, 1, 1),
    [ENGINE_TERRITORY_IMPERIAL_BASIN] =
        ROW("Imperial Basin", "imperial_basin", SHIELDED_SAND, 1, 0),
    [ENGINE_TERRITORY_CARTHAG] =
        ROW("Carthag", "carthag", STRONGHOLD, 1, 1),
    [ENGINE_TERRITORY_ARRAKEEN] =
        ROW("Arrakeen", "arrakeen", STRONGHOLD, 1, 1),
    [ENGINE_TERRITORY_TUEKS_SIETCH] =
        ROW("Tuek's Sietch", "tueks_sietch", STRONGHOLD, 1, 1),
    [ENGINE_TERRITORY_SIETCH_TABR] =
        ROW("Sietch Tabr", "sietch_tabr", STRONGHOLD, 1, 1),
    [ENGINE_TERRITORY_HABBANYA_SIETCH] =
        ROW("Habbanya Sietch", "habbanya_sietch", STRONGHOLD, 1, 1),
    [ENGINE_TERRITORY_CIELAGO_NORTH] =
        ROW("Cielago North", "cielago_north", SAND, 0, 0),
    [ENGINE_TERRITORY_CIELAGO_DEPRESSION] =
        ROW("Cielago Depression", "cielago_depression", SAND, 0, 0),
    [ENGINE_TERRITORY_MERIDIAN] =
        ROW("Meridian", "meridian", SAND, 0, 0),
    [ENGINE_TERRITORY_CIELAGO_SOUTH] =
        ROW("Cielago South", "cielago_south", SAND, 0, 0),
    [ENGINE_TERRITORY_CIELAGO_EAST] =
        ROW("Cielago East", "cielago_east", SAND, 0, 0),
    [ENGINE_TERRITORY_HARG_PASS] =
        ROW("Harg Pass", "harg_pass", SAND, 0, 0),
    [ENGINE_TERRITORY_FALSE_WALL_SOUTH] =
        ROW("False Wall South", "false_wall_south", ROCK, 1, 1),
    [ENGINE_TERRITORY_FALSE_WALL_EAST] =
        ROW("False Wall East", "false_wall_east", ROCK, 1, 1),
    [ENGINE_TERRITORY_THE_MINOR_ERG] =
        ROW("The Minor Erg", "the_minor_erg", SAND, 0, 0),
    [ENGINE_TERRITORY_PASTY_MESA] =
        ROW("Pasty Mesa", "pasty_mesa", ROCK, 1, 1),
    [ENGINE_TERRITORY_RED_CHASM] =
        ROW("Red Chasm", "red_chasm", SAND, 0, 0),
    [ENGINE_TERRITORY_SOUTH_MESA] =
        ROW("South Mesa", "south_mesa", SAND, 0, 0),
    [ENGINE_TERRITORY_BASIN] =
        ROW("Basin", "basin", SAND, 0, 0),
    [ENGINE_TERRITORY_RIM_WALL_WEST] =
        ROW("Rim Wall West", "rim_wall_west", ROCK, 1, 1),
    [ENGINE_TERRITORY_HOLE_IN_THE_ROCK] =
        ROW("Hole In The Rock", "hole_in_the_rock", SAND, 0, 0),
    [ENGINE_TERRITORY_SIHAYA_RIDGE] =
        ROW("Sihaya Ridge", "sihaya_ridge", SAND, 0, 0),
    [ENGINE_TERRITORY_SHIELD_WALL] =
        ROW("Shield Wall", "shield_wall", ROCK, 1, 1),
    [ENGINE_TERRITORY_GARA_KULON] =
        ROW("Gara Kulon", "gara_kulon", SAND, 0, 0),
    [ENGINE_TERRITORY_OLD_GAP] =
        ROW("Old Gap", "old_gap", SAND, 0, 0),
    [ENGINE_TERRITORY_BROKEN_LAND] =
        ROW("Broken Land", "broken_land", SAND, 0, 0),
    [ENGINE_TERRITORY_TSIMPO] =
        ROW("Tsimpo", "tsimpo", SAND, 0, 0),
    [ENGINE_TERRITORY_ARSUNT] =
        ROW("Arsunt", "arsunt", SAND, 0, 0),
    [ENGINE_TERRITORY_ROCK_OUTCROPPINGS] =
        ROW("Rock Outcroppings", "rock_outcroppings", SAND, 0, 0),
    [ENGINE_TERRITORY_PLASTIC_BASIN] =
        ROW("Plastic Basin", "plastic_basin", ROCK, 1, 1),
    [ENGINE_TERRITORY_HAGGA_BASIN] =
        ROW("Hagga Basin", "hagga_basin", SAND, 0, 0),
    [ENGINE_TERRITORY_BIGHT_OF_THE_CLIFF] =
        ROW("Bight Of The Cliff", "bight_of_the_cliff", SAND, 0, 0),
    [ENGINE_TERRITORY_FUNERAL_PLAIN] =
        ROW("Funeral Plain", "funeral_plain", SAND, 0, 0),
    [ENGINE_TERRITORY_THE_GREAT_FLAT] =
        ROW("The Great Flat", "the_great_flat", SAND, 0, 0),
    [ENGINE_TERRITORY_WIND_PASS] =
        ROW("Wind Pass", "wind_pass", SAND, 0, 0),
    [ENGINE_TERRITORY_THE_GREATER_FLAT] =
        ROW("The Greater Flat", "the_greater_flat", SAND, 0, 0),
    [ENGINE_TERRITORY_HABBANYA_ERG] =
        ROW("Habbanya Erg", "habbanya_erg", SAND, 0, 0),
    [ENGINE_TERRITORY_FALSE_WALL_WEST] =
        ROW("False Wall West", "false_wall_west", ROCK, 1, 1),
    [ENGINE_TERRITORY_WIND_PASS_NORTH] =
        ROW("Wind Pass North", "wind_pass_north", SAND, 0, 0),
    [ENGINE_TERRITORY_HABBANYA_RIDGE_FLAT] =
        ROW("Habbanya Ridge Flat", "habbanya_ridge_flat", SAND, 0, 0),
    [ENGINE_TERRITORY_CIELAGO_WEST] =
        ROW("Cielago West", "cielago_west", SAND, 0, 0),
    [ENGINE_TERRITORY_HIDDEN_MOBILE_STRONGHOLD] =
        ROW("Hidden Mobile Stronghold", "hidden_mobile_stronghold",
            STRONGHOLD, 1, 1),
};

#define T(t) (UINT64_C(1) << ENGINE_TERRITORY_##t)

/* The territories the Shield Wall shields from the storm while it stands
 * (section 1.3); Family Atomics lays them open. */
const uint64_t engine__shield_wall_shelters = T(IMPERIAL_BASIN) | T(ARRAKEEN) | T(CARTHAG);

/* The cities with ornithopters: a seat with forces in one moves 3
 * territories and collects 3 spice a force (sections 4.6 and 4.8). */
const uint64_t engine__ornithopter_cities = T(ARRAKEEN) | T(CARTHAG);

/* The sietches the Fremen's special victory needs free of others
 * (LR 2.04.09; section 4.10). */
const uint64_t engine__fremen_sietches = T(SIETCH_TABR) | T(HABBANYA_SIETCH);

/* The Fremen's opening territories (LR 2.04.02), in the order of the
 * arguments of ENGINE_ACTION_FREMEN_PLACE. */
const uint8_t engine__fremen_start[ENGINE_FREMEN_START_TERRITORIES] = {
    ENGINE_TERRITORY_SIETCH_TABR,
    ENGINE_TERRITORY_FALSE_WALL_SOUTH,
    ENGINE_TERRITORY_FALSE_WALL_WEST,
};

_Static_assert(sizeof engine__territories / sizeof engine__territories[0]
                   == ENGINE_TERRITORY_COUNT,
               "one row per territory");
_Static_assert(ENGINE_TERRITORY_COUNT <= 64,
               "territory sets are uint64_t bit masks");
