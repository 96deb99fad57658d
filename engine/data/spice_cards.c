/*
 * spice_cards.c - the base-game spice deck, one row per physical card: the
 * 15 territory cards in the digest's order, then the 6 Shai-Hulud cards.
 *
 * Facts only, from DUNE_RULES_DIGEST.md section 2.3 (cards, icon sectors and
 * parts, amounts; they agree with the icon column of section 1.2).
 * `location` is the row of section 1.5 that holds the spice icon, where a
 * blow puts the spice. Worm rows carry no territory, location or amount.
 * Shuffling, dealing and blowing are rules and live elsewhere.
 */
#include "engine/internal.h"

#define SPICE(name, territory, location, amount) \
    { name, 0, ENGINE_TERRITORY_##territory, location, amount }
#define WORM { "Shai-Hulud", 1, 0, 0, 0 }

const engine__spice_card_row engine__spice_cards[ENGINE_SPICE_BASE_CARDS] = {
    /* SPICE(name, territory, icon location, spice)      icon part, sector */
    SPICE("Cielago North", CIELAGO_NORTH, 11, 8),          /* East, s2 */
    SPICE("Cielago South", CIELAGO_SOUTH, 17, 12),         /* West, s1 */
    SPICE("South Mesa", SOUTH_MESA, 40, 10),               /* Middle, s4 */
    SPICE("Red Chasm", RED_CHASM, 38, 8),                  /* s6 */
    SPICE("The Minor Erg", THE_MINOR_ERG, 33, 8),          /* Far North, s7 */
    SPICE("Sihaya Ridge", SIHAYA_RIDGE, 45, 6),            /* s8 */
    SPICE("Old Gap", OLD_GAP, 50, 6),                      /* Middle, s9 */
    SPICE("Broken Land", BROKEN_LAND, 53, 8),              /* West, s11 */
    SPICE("Hagga Basin", HAGGA_BASIN, 65, 6),              /* West, s12 */
    SPICE("Rock Outcroppings", ROCK_OUTCROPPINGS, 60, 6),  /* South, s13 */
    SPICE("Funeral Plain", FUNERAL_PLAIN, 68, 6),          /* s14 */
    SPICE("The Great Flat", THE_GREAT_FLAT, 69, 10),       /* s14 */
    SPICE("Habbanya Erg", HABBANYA_ERG, 75, 8),            /* West, s15 */
    SPICE("Wind Pass North", WIND_PASS_NORTH, 80, 6),      /* North, s16 */
    SPICE("Habbanya Ridge Flat", HABBANYA_RIDGE_FLAT, 83, 10), /* East, s17 */
    WORM, WORM, WORM, WORM, WORM, WORM,
};

_Static_assert(sizeof engine__spice_cards / sizeof engine__spice_cards[0]
                   == ENGINE_SPICE_BASE_CARDS,
               "15 territory cards and 6 Shai-Hulud");
_Static_assert(ENGINE_SPICE_BASE_CARDS <= ENGINE_SPICE_CARD_MAX,
               "the base deck fits the state's spice card arrays");
