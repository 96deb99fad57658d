/*
 * locations.c - the location graph: every territory cut by the sectors it
 * spans, one row per (territory, sector) place a force can stand, and the
 * territory adjacency the graph implies.
 *
 * Facts only, from DUNE_RULES_DIGEST.md: rows 0..85 and their neighbours are
 * section 1.5 (treachery.online's location numbers; parts as the digest names
 * them, "" where it names none), row 86 is the Hidden Mobile Stronghold,
 * which has no fixed edges (it joins the territory it is attached to, which
 * is state). engine__territory_adj is section 1.4 written out; the data test
 * checks that it equals what the location graph implies. Neighbour lists are
 * ascending and symmetric. Whether a path is open (storm, occupancy) is a
 * rule and lives elsewhere.
 */
#include "engine/internal.h"

#define T(name) ENGINE_TERRITORY_##name

/* ========================================================== locations */

/* { territory, sector, part, n_adj, { neighbours } } */
const engine__location_row engine__locations[ENGINE_LOCATION_COUNT] = {
    [0] = { T(POLAR_SINK), ENGINE_NO_SECTOR, "", 19, {
            1, 2, 9, 10, 11, 21, 25, 26, 27, 28, 29, 57, 58, 65, 70, 71, 72,
            80, 81 } },
    [1] = { T(IMPERIAL_BASIN), 8, "East", 6, { 0, 2, 29, 43, 44, 47 } },
    [2] = { T(IMPERIAL_BASIN), 9, "Center", 7, { 0, 1, 3, 5, 43, 50, 57 } },
    [3] = { T(IMPERIAL_BASIN), 10, "West", 4, { 2, 4, 54, 57 } },
    [4] = { T(CARTHAG), 10, "", 5, { 3, 54, 55, 57, 64 } },
    [5] = { T(ARRAKEEN), 9, "", 3, { 2, 43, 50 } },
    [6] = { T(TUEKS_SIETCH), 4, "", 3, { 24, 34, 40 } },
    [7] = { T(SIETCH_TABR), 13, "", 3, { 60, 63, 66 } },
    [8] = { T(HABBANYA_SIETCH), 16, "", 2, { 82, 83 } },
    [9] = { T(CIELAGO_NORTH), 0, "West", 6, { 0, 10, 12, 81, 84, 85 } },
    [10] = { T(CIELAGO_NORTH), 1, "Center", 4, { 0, 9, 11, 13 } },
    [11] = { T(CIELAGO_NORTH), 2, "East", 6, { 0, 10, 14, 19, 21, 23 } },
    [12] = { T(CIELAGO_DEPRESSION), 0, "West", 4, { 9, 13, 15, 85 } },
    [13] = { T(CIELAGO_DEPRESSION), 1, "Center", 5, { 10, 12, 14, 16, 17 } },
    [14] = { T(CIELAGO_DEPRESSION), 2, "East", 4, { 11, 13, 18, 19 } },
    [15] = { T(MERIDIAN), 0, "West", 4, { 12, 16, 83, 85 } },
    [16] = { T(MERIDIAN), 1, "East", 3, { 13, 15, 17 } },
    [17] = { T(CIELAGO_SOUTH), 1, "West", 3, { 13, 16, 18 } },
    [18] = { T(CIELAGO_SOUTH), 2, "East", 3, { 14, 17, 19 } },
    [19] = { T(CIELAGO_EAST), 2, "West", 5, { 11, 14, 18, 20, 23 } },
    [20] = { T(CIELAGO_EAST), 3, "East", 3, { 19, 23, 39 } },
    [21] = { T(HARG_PASS), 3, "West", 5, { 0, 11, 22, 23, 25 } },
    [22] = { T(HARG_PASS), 4, "East", 4, { 21, 24, 25, 30 } },
    [23] = { T(FALSE_WALL_SOUTH), 3, "West", 6, { 11, 19, 20, 21, 24, 39 } },
    [24] = { T(FALSE_WALL_SOUTH), 4, "East", 6, { 6, 22, 23, 30, 34, 40 } },
    [25] = { T(FALSE_WALL_EAST), 4, "Far South", 5, { 0, 21, 22, 26, 30 } },
    [26] = { T(FALSE_WALL_EAST), 5, "South", 4, { 0, 25, 27, 31 } },
    [27] = { T(FALSE_WALL_EAST), 6, "Middle", 4, { 0, 26, 28, 32 } },
    [28] = { T(FALSE_WALL_EAST), 7, "North", 5, { 0, 27, 29, 33, 46 } },
    [29] = { T(FALSE_WALL_EAST), 8, "Far North", 4, { 0, 1, 28, 47 } },
    [30] = { T(THE_MINOR_ERG), 4, "Far South", 5, { 22, 24, 25, 31, 34 } },
    [31] = { T(THE_MINOR_ERG), 5, "South", 4, { 26, 30, 32, 35 } },
    [32] = { T(THE_MINOR_ERG), 6, "North", 4, { 27, 31, 33, 36 } },
    [33] = { T(THE_MINOR_ERG), 7, "Far North", 4, { 28, 32, 37, 46 } },
    [34] = { T(PASTY_MESA), 4, "Far South", 5, { 6, 24, 30, 35, 40 } },
    [35] = { T(PASTY_MESA), 5, "South", 4, { 31, 34, 36, 41 } },
    [36] = { T(PASTY_MESA), 6, "North", 4, { 32, 35, 37, 38 } },
    [37] = { T(PASTY_MESA), 7, "Far North", 4, { 33, 36, 46, 48 } },
    [38] = { T(RED_CHASM), 6, "", 2, { 36, 41 } },
    [39] = { T(SOUTH_MESA), 3, "South", 3, { 20, 23, 40 } },
    [40] = { T(SOUTH_MESA), 4, "Middle", 5, { 6, 24, 34, 39, 41 } },
    [41] = { T(SOUTH_MESA), 5, "North", 3, { 35, 38, 40 } },
    [42] = { T(BASIN), 8, "", 4, { 43, 44, 45, 49 } },
    [43] = { T(RIM_WALL_WEST), 8, "", 6, { 1, 2, 5, 42, 44, 49 } },
    [44] = { T(HOLE_IN_THE_ROCK), 8, "", 5, { 1, 42, 43, 45, 47 } },
    [45] = { T(SIHAYA_RIDGE), 8, "", 4, { 42, 44, 47, 48 } },
    [46] = { T(SHIELD_WALL), 7, "South", 5, { 28, 33, 37, 47, 48 } },
    [47] = { T(SHIELD_WALL), 8, "North", 5, { 1, 29, 44, 45, 46 } },
    [48] = { T(GARA_KULON), 7, "", 3, { 37, 45, 46 } },
    [49] = { T(OLD_GAP), 8, "East", 3, { 42, 43, 50 } },
    [50] = { T(OLD_GAP), 9, "Middle", 4, { 2, 5, 49, 51 } },
    [51] = { T(OLD_GAP), 10, "West", 3, { 50, 52, 54 } },
    [52] = { T(BROKEN_LAND), 10, "East", 3, { 51, 53, 54 } },
    [53] = { T(BROKEN_LAND), 11, "West", 4, { 52, 55, 59, 61 } },
    [54] = { T(TSIMPO), 10, "East", 5, { 3, 4, 51, 52, 55 } },
    [55] = { T(TSIMPO), 11, "Middle", 6, { 4, 53, 54, 56, 61, 64 } },
    [56] = { T(TSIMPO), 12, "West", 3, { 55, 62, 65 } },
    [57] = { T(ARSUNT), 10, "East", 6, { 0, 2, 3, 4, 58, 64 } },
    [58] = { T(ARSUNT), 11, "West", 4, { 0, 57, 64, 65 } },
    [59] = { T(ROCK_OUTCROPPINGS), 12, "North", 3, { 53, 60, 62 } },
    [60] = { T(ROCK_OUTCROPPINGS), 13, "South", 4, { 7, 59, 63, 66 } },
    [61] = { T(PLASTIC_BASIN), 11, "North", 3, { 53, 55, 62 } },
    [62] = { T(PLASTIC_BASIN), 12, "Middle", 5, { 56, 59, 61, 63, 65 } },
    [63] = { T(PLASTIC_BASIN), 13, "South", 8, {
            7, 60, 62, 65, 66, 68, 69, 70 } },
    [64] = { T(HAGGA_BASIN), 11, "East", 5, { 4, 55, 57, 58, 65 } },
    [65] = { T(HAGGA_BASIN), 12, "West", 7, { 0, 56, 58, 62, 63, 64, 70 } },
    [66] = { T(BIGHT_OF_THE_CLIFF), 13, "North", 4, { 7, 60, 63, 67 } },
    [67] = { T(BIGHT_OF_THE_CLIFF), 14, "South", 2, { 66, 68 } },
    [68] = { T(FUNERAL_PLAIN), 14, "", 3, { 63, 67, 69 } },
    [69] = { T(THE_GREAT_FLAT), 14, "", 4, { 63, 68, 71, 74 } },
    [70] = { T(WIND_PASS), 13, "Far North", 4, { 0, 63, 65, 71 } },
    [71] = { T(WIND_PASS), 14, "North", 4, { 0, 69, 70, 72 } },
    [72] = { T(WIND_PASS), 15, "South", 6, { 0, 71, 73, 74, 77, 80 } },
    [73] = { T(WIND_PASS), 16, "Far South", 4, { 72, 78, 80, 84 } },
    [74] = { T(THE_GREATER_FLAT), 15, "", 4, { 69, 72, 75, 77 } },
    [75] = { T(HABBANYA_ERG), 15, "West", 3, { 74, 76, 82 } },
    [76] = { T(HABBANYA_ERG), 16, "East", 3, { 75, 78, 82 } },
    [77] = { T(FALSE_WALL_WEST), 15, "North", 3, { 72, 74, 78 } },
    [78] = { T(FALSE_WALL_WEST), 16, "Middle", 5, { 73, 76, 77, 79, 82 } },
    [79] = { T(FALSE_WALL_WEST), 17, "South", 3, { 78, 83, 84 } },
    [80] = { T(WIND_PASS_NORTH), 16, "North", 4, { 0, 72, 73, 81 } },
    [81] = { T(WIND_PASS_NORTH), 17, "South", 4, { 0, 9, 80, 84 } },
    [82] = { T(HABBANYA_RIDGE_FLAT), 16, "West", 5, { 8, 75, 76, 78, 83 } },
    [83] = { T(HABBANYA_RIDGE_FLAT), 17, "East", 5, { 8, 15, 79, 82, 84 } },
    [84] = { T(CIELAGO_WEST), 17, "North", 6, { 9, 73, 79, 81, 83, 85 } },
    [85] = { T(CIELAGO_WEST), 0, "South", 4, { 9, 12, 15, 84 } },
    [ENGINE_LOCATION_HMS] =
        { T(HIDDEN_MOBILE_STRONGHOLD), ENGINE_NO_SECTOR, "", 0, { 0 } },
};

_Static_assert(sizeof engine__locations / sizeof engine__locations[0]
                   == ENGINE_LOCATION_COUNT,
               "one row per location");
_Static_assert(ENGINE_LOCATION_HMS == ENGINE_LOCATION_COUNT - 1,
               "the HMS is the last location");

#undef T

/* ================================================ territory adjacency */

#define BIT(name) (UINT64_C(1) << ENGINE_TERRITORY_##name)

/* Section 1.4; the Hidden Mobile Stronghold borders nothing by itself. */
const uint64_t engine__territory_adj[ENGINE_TERRITORY_COUNT] = {
    [ENGINE_TERRITORY_POLAR_SINK] =
        BIT(IMPERIAL_BASIN) | BIT(CIELAGO_NORTH) | BIT(HARG_PASS) |
        BIT(FALSE_WALL_EAST) | BIT(ARSUNT) | BIT(HAGGA_BASIN) |
        BIT(WIND_PASS) | BIT(WIND_PASS_NORTH),
    [ENGINE_TERRITORY_IMPERIAL_BASIN] =
        BIT(POLAR_SINK) | BIT(CARTHAG) | BIT(ARRAKEEN) | BIT(FALSE_WALL_EAST) |
        BIT(RIM_WALL_WEST) | BIT(HOLE_IN_THE_ROCK) | BIT(SHIELD_WALL) |
        BIT(OLD_GAP) | BIT(TSIMPO) | BIT(ARSUNT),
    [ENGINE_TERRITORY_CARTHAG] =
        BIT(IMPERIAL_BASIN) | BIT(TSIMPO) | BIT(ARSUNT) | BIT(HAGGA_BASIN),
    [ENGINE_TERRITORY_ARRAKEEN] =
        BIT(IMPERIAL_BASIN) | BIT(RIM_WALL_WEST) | BIT(OLD_GAP),
    [ENGINE_TERRITORY_TUEKS_SIETCH] =
        BIT(FALSE_WALL_SOUTH) | BIT(PASTY_MESA) | BIT(SOUTH_MESA),
    [ENGINE_TERRITORY_SIETCH_TABR] =
        BIT(ROCK_OUTCROPPINGS) | BIT(PLASTIC_BASIN) | BIT(BIGHT_OF_THE_CLIFF),
    [ENGINE_TERRITORY_HABBANYA_SIETCH] =
        BIT(HABBANYA_RIDGE_FLAT),
    [ENGINE_TERRITORY_CIELAGO_NORTH] =
        BIT(POLAR_SINK) | BIT(CIELAGO_DEPRESSION) | BIT(CIELAGO_EAST) |
        BIT(HARG_PASS) | BIT(FALSE_WALL_SOUTH) | BIT(WIND_PASS_NORTH) |
        BIT(CIELAGO_WEST),
    [ENGINE_TERRITORY_CIELAGO_DEPRESSION] =
        BIT(CIELAGO_NORTH) | BIT(MERIDIAN) | BIT(CIELAGO_SOUTH) |
        BIT(CIELAGO_EAST) | BIT(CIELAGO_WEST),
    [ENGINE_TERRITORY_MERIDIAN] =
        BIT(CIELAGO_DEPRESSION) | BIT(CIELAGO_SOUTH) |
        BIT(HABBANYA_RIDGE_FLAT) | BIT(CIELAGO_WEST),
    [ENGINE_TERRITORY_CIELAGO_SOUTH] =
        BIT(CIELAGO_DEPRESSION) | BIT(MERIDIAN) | BIT(CIELAGO_EAST),
    [ENGINE_TERRITORY_CIELAGO_EAST] =
        BIT(CIELAGO_NORTH) | BIT(CIELAGO_DEPRESSION) | BIT(CIELAGO_SOUTH) |
        BIT(FALSE_WALL_SOUTH) | BIT(SOUTH_MESA),
    [ENGINE_TERRITORY_HARG_PASS] =
        BIT(POLAR_SINK) | BIT(CIELAGO_NORTH) | BIT(FALSE_WALL_SOUTH) |
        BIT(FALSE_WALL_EAST) | BIT(THE_MINOR_ERG),
    [ENGINE_TERRITORY_FALSE_WALL_SOUTH] =
        BIT(TUEKS_SIETCH) | BIT(CIELAGO_NORTH) | BIT(CIELAGO_EAST) |
        BIT(HARG_PASS) | BIT(THE_MINOR_ERG) | BIT(PASTY_MESA) |
        BIT(SOUTH_MESA),
    [ENGINE_TERRITORY_FALSE_WALL_EAST] =
        BIT(POLAR_SINK) | BIT(IMPERIAL_BASIN) | BIT(HARG_PASS) |
        BIT(THE_MINOR_ERG) | BIT(SHIELD_WALL),
    [ENGINE_TERRITORY_THE_MINOR_ERG] =
        BIT(HARG_PASS) | BIT(FALSE_WALL_SOUTH) | BIT(FALSE_WALL_EAST) |
        BIT(PASTY_MESA) | BIT(SHIELD_WALL),
    [ENGINE_TERRITORY_PASTY_MESA] =
        BIT(TUEKS_SIETCH) | BIT(FALSE_WALL_SOUTH) | BIT(THE_MINOR_ERG) |
        BIT(RED_CHASM) | BIT(SOUTH_MESA) | BIT(SHIELD_WALL) | BIT(GARA_KULON),
    [ENGINE_TERRITORY_RED_CHASM] =
        BIT(PASTY_MESA) | BIT(SOUTH_MESA),
    [ENGINE_TERRITORY_SOUTH_MESA] =
        BIT(TUEKS_SIETCH) | BIT(CIELAGO_EAST) | BIT(FALSE_WALL_SOUTH) |
        BIT(PASTY_MESA) | BIT(RED_CHASM),
    [ENGINE_TERRITORY_BASIN] =
        BIT(RIM_WALL_WEST) | BIT(HOLE_IN_THE_ROCK) | BIT(SIHAYA_RIDGE) |
        BIT(OLD_GAP),
    [ENGINE_TERRITORY_RIM_WALL_WEST] =
        BIT(IMPERIAL_BASIN) | BIT(ARRAKEEN) | BIT(BASIN) |
        BIT(HOLE_IN_THE_ROCK) | BIT(OLD_GAP),
    [ENGINE_TERRITORY_HOLE_IN_THE_ROCK] =
        BIT(IMPERIAL_BASIN) | BIT(BASIN) | BIT(RIM_WALL_WEST) |
        BIT(SIHAYA_RIDGE) | BIT(SHIELD_WALL),
    [ENGINE_TERRITORY_SIHAYA_RIDGE] =
        BIT(BASIN) | BIT(HOLE_IN_THE_ROCK) | BIT(SHIELD_WALL) |
        BIT(GARA_KULON),
    [ENGINE_TERRITORY_SHIELD_WALL] =
        BIT(IMPERIAL_BASIN) | BIT(FALSE_WALL_EAST) | BIT(THE_MINOR_ERG) |
        BIT(PASTY_MESA) | BIT(HOLE_IN_THE_ROCK) | BIT(SIHAYA_RIDGE) |
        BIT(GARA_KULON),
    [ENGINE_TERRITORY_GARA_KULON] =
        BIT(PASTY_MESA) | BIT(SIHAYA_RIDGE) | BIT(SHIELD_WALL),
    [ENGINE_TERRITORY_OLD_GAP] =
        BIT(IMPERIAL_BASIN) | BIT(ARRAKEEN) | BIT(BASIN) | BIT(RIM_WALL_WEST) |
        BIT(BROKEN_LAND) | BIT(TSIMPO),
    [ENGINE_TERRITORY_BROKEN_LAND] =
        BIT(OLD_GAP) | BIT(TSIMPO) | BIT(ROCK_OUTCROPPINGS) |
        BIT(PLASTIC_BASIN),
    [ENGINE_TERRITORY_TSIMPO] =
        BIT(IMPERIAL_BASIN) | BIT(CARTHAG) | BIT(OLD_GAP) | BIT(BROKEN_LAND) |
        BIT(PLASTIC_BASIN) | BIT(HAGGA_BASIN),
    [ENGINE_TERRITORY_ARSUNT] =
        BIT(POLAR_SINK) | BIT(IMPERIAL_BASIN) | BIT(CARTHAG) |
        BIT(HAGGA_BASIN),
    [ENGINE_TERRITORY_ROCK_OUTCROPPINGS] =
        BIT(SIETCH_TABR) | BIT(BROKEN_LAND) | BIT(PLASTIC_BASIN) |
        BIT(BIGHT_OF_THE_CLIFF),
    [ENGINE_TERRITORY_PLASTIC_BASIN] =
        BIT(SIETCH_TABR) | BIT(BROKEN_LAND) | BIT(TSIMPO) |
        BIT(ROCK_OUTCROPPINGS) | BIT(HAGGA_BASIN) | BIT(BIGHT_OF_THE_CLIFF) |
        BIT(FUNERAL_PLAIN) | BIT(THE_GREAT_FLAT) | BIT(WIND_PASS),
    [ENGINE_TERRITORY_HAGGA_BASIN] =
        BIT(POLAR_SINK) | BIT(CARTHAG) | BIT(TSIMPO) | BIT(ARSUNT) |
        BIT(PLASTIC_BASIN) | BIT(WIND_PASS),
    [ENGINE_TERRITORY_BIGHT_OF_THE_CLIFF] =
        BIT(SIETCH_TABR) | BIT(ROCK_OUTCROPPINGS) | BIT(PLASTIC_BASIN) |
        BIT(FUNERAL_PLAIN),
    [ENGINE_TERRITORY_FUNERAL_PLAIN] =
        BIT(PLASTIC_BASIN) | BIT(BIGHT_OF_THE_CLIFF) | BIT(THE_GREAT_FLAT),
    [ENGINE_TERRITORY_THE_GREAT_FLAT] =
        BIT(PLASTIC_BASIN) | BIT(FUNERAL_PLAIN) | BIT(WIND_PASS) |
        BIT(THE_GREATER_FLAT),
    [ENGINE_TERRITORY_WIND_PASS] =
        BIT(POLAR_SINK) | BIT(PLASTIC_BASIN) | BIT(HAGGA_BASIN) |
        BIT(THE_GREAT_FLAT) | BIT(THE_GREATER_FLAT) | BIT(FALSE_WALL_WEST) |
        BIT(WIND_PASS_NORTH) | BIT(CIELAGO_WEST),
    [ENGINE_TERRITORY_THE_GREATER_FLAT] =
        BIT(THE_GREAT_FLAT) | BIT(WIND_PASS) | BIT(HABBANYA_ERG) |
        BIT(FALSE_WALL_WEST),
    [ENGINE_TERRITORY_HABBANYA_ERG] =
        BIT(THE_GREATER_FLAT) | BIT(FALSE_WALL_WEST) |
        BIT(HABBANYA_RIDGE_FLAT),
    [ENGINE_TERRITORY_FALSE_WALL_WEST] =
        BIT(WIND_PASS) | BIT(THE_GREATER_FLAT) | BIT(HABBANYA_ERG) |
        BIT(HABBANYA_RIDGE_FLAT) | BIT(CIELAGO_WEST),
    [ENGINE_TERRITORY_WIND_PASS_NORTH] =
        BIT(POLAR_SINK) | BIT(CIELAGO_NORTH) | BIT(WIND_PASS) |
        BIT(CIELAGO_WEST),
    [ENGINE_TERRITORY_HABBANYA_RIDGE_FLAT] =
        BIT(HABBANYA_SIETCH) | BIT(MERIDIAN) | BIT(HABBANYA_ERG) |
        BIT(FALSE_WALL_WEST) | BIT(CIELAGO_WEST),
    [ENGINE_TERRITORY_CIELAGO_WEST] =
        BIT(CIELAGO_NORTH) | BIT(CIELAGO_DEPRESSION) | BIT(MERIDIAN) |
        BIT(WIND_PASS) | BIT(FALSE_WALL_WEST) | BIT(WIND_PASS_NORTH) |
        BIT(HABBANYA_RIDGE_FLAT),
    [ENGINE_TERRITORY_HIDDEN_MOBILE_STRONGHOLD] =
        0,
};

_Static_assert(sizeof engine__territory_adj / sizeof engine__territory_adj[0]
                   == ENGINE_TERRITORY_COUNT,
               "one mask per territory");
