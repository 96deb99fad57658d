/*
 * factions.c - the twelve factions, one row per engine_faction: starting
 * spice and forces, where forces start, free revival, hand limit, cards and
 * traitors at setup, the title sentences name it by and the name of its
 * elite forces.
 *
 * Facts only, from DUNE_RULES_DIGEST.md section 3.2. `forces` counts plain
 * forces and `special_forces` elite ones, as follows: Emperor 20 with up to
 * 5 of them Sardaukar and Fremen 20 with up to 3 Fedaykin (the Advanced
 * split, so special_forces is a part of forces), Ixians 13 suboids plus 7
 * cyborgs (special_forces on top of forces). start_territory is
 * ENGINE_TERRITORY_COUNT with start_forces 0 where the faction starts
 * off-planet or chooses where to stand (Fremen, Moritani; the Bene Gesserit's
 * Advanced advisor placement is a rule). Faction powers are hooks, not rows
 * here.
 */
#include "engine/internal.h"

#define NO_TERRITORY ENGINE_TERRITORY_COUNT

const engine__faction_row engine__factions[ENGINE_FACTION_COUNT] = {
    [ENGINE_FACTION_ATREIDES] = {
        .name = "Atreides", .slug = "atreides", .title = "Atreides",
        .elite = NULL,
        .spice = 10, .forces = 20, .special_forces = 0,
        .start_territory = ENGINE_TERRITORY_ARRAKEEN, .start_forces = 10,
        .free_revival = 2, .hand_limit = 4, .start_cards = 1,
        .traitors_kept = 1, .is_classic = 1,
    },
    [ENGINE_FACTION_BENE_GESSERIT] = {
        .name = "Bene Gesserit", .slug = "bene_gesserit", .title = "Bene Gesserit",
        .elite = NULL,
        .spice = 5, .forces = 20, .special_forces = 0,
        .start_territory = ENGINE_TERRITORY_POLAR_SINK, .start_forces = 1,
        .free_revival = 1, .hand_limit = 4, .start_cards = 1,
        .traitors_kept = 1, .is_classic = 1,
    },
    [ENGINE_FACTION_EMPEROR] = {
        .name = "Emperor", .slug = "emperor", .title = "Emperor",
        .elite = "Sardaukar",
        .spice = 10, .forces = 20, .special_forces = 5,
        .start_territory = NO_TERRITORY, .start_forces = 0,
        .free_revival = 1, .hand_limit = 4, .start_cards = 1,
        .traitors_kept = 1, .is_classic = 1,
    },
    [ENGINE_FACTION_FREMEN] = {
        .name = "Fremen", .slug = "fremen", .title = "Fremen",
        .elite = "Fedaykin",
        .spice = 3, .forces = 20, .special_forces = 3,
        .start_territory = NO_TERRITORY, .start_forces = 0,
        .free_revival = 3, .hand_limit = 4, .start_cards = 1,
        .traitors_kept = 1, .is_classic = 1,
    },
    [ENGINE_FACTION_HARKONNEN] = {
        .name = "Harkonnen", .slug = "harkonnen", .title = "Harkonnen",
        .elite = NULL,
        .spice = 10, .forces = 20, .special_forces = 0,
        .start_territory = ENGINE_TERRITORY_CARTHAG, .start_forces = 10,
        .free_revival = 2, .hand_limit = 8, .start_cards = 2,
        .traitors_kept = 4, .is_classic = 1,
    },
    [ENGINE_FACTION_GUILD] = {
        .name = "Spacing Guild", .slug = "guild", .title = "Guild",
        .elite = NULL,
        .spice = 5, .forces = 20, .special_forces = 0,
        .start_territory = ENGINE_TERRITORY_TUEKS_SIETCH, .start_forces = 5,
        .free_revival = 1, .hand_limit = 4, .start_cards = 1,
        .traitors_kept = 1, .is_classic = 1,
    },
    [ENGINE_FACTION_IXIANS] = {
        .name = "Ixians", .slug = "ixians", .title = "Ixians",
        .elite = "cyborgs",
        .spice = 10, .forces = 13, .special_forces = 7,
        .start_territory = ENGINE_TERRITORY_HIDDEN_MOBILE_STRONGHOLD,
        .start_forces = 6,
        .free_revival = 1, .hand_limit = 4, .start_cards = 1,
        .traitors_kept = 1, .is_classic = 0,
    },
    [ENGINE_FACTION_TLEILAXU] = {
        .name = "Tleilaxu", .slug = "tleilaxu", .title = "Tleilaxu",
        .elite = NULL,
        .spice = 5, .forces = 20, .special_forces = 0,
        .start_territory = NO_TERRITORY, .start_forces = 0,
        .free_revival = 2, .hand_limit = 4, .start_cards = 1,
        .traitors_kept = 0, .is_classic = 0,
    },
    [ENGINE_FACTION_CHOAM] = {
        .name = "CHOAM", .slug = "choam", .title = "CHOAM",
        .elite = NULL,
        .spice = 2, .forces = 20, .special_forces = 0,
        .start_territory = NO_TERRITORY, .start_forces = 0,
        .free_revival = 0, .hand_limit = 5, .start_cards = 1,
        .traitors_kept = 1, .is_classic = 0,
    },
    [ENGINE_FACTION_RICHESE] = {
        .name = "Richese", .slug = "richese", .title = "Richese",
        .elite = NULL,
        .spice = 5, .forces = 20, .special_forces = 0,
        .start_territory = NO_TERRITORY, .start_forces = 0,
        .free_revival = 2, .hand_limit = 4, .start_cards = 1,
        .traitors_kept = 1, .is_classic = 0,
    },
    [ENGINE_FACTION_ECAZ] = {
        .name = "Ecaz", .slug = "ecaz", .title = "Ecaz",
        .elite = NULL,
        .spice = 12, .forces = 20, .special_forces = 0,
        .start_territory = ENGINE_TERRITORY_IMPERIAL_BASIN, .start_forces = 6,
        .free_revival = 2, .hand_limit = 4, .start_cards = 1,
        .traitors_kept = 1, .is_classic = 0,
    },
    [ENGINE_FACTION_MORITANI] = {
        .name = "Moritani", .slug = "moritani", .title = "Moritani",
        .elite = NULL,
        .spice = 12, .forces = 20, .special_forces = 0,
        .start_territory = NO_TERRITORY, .start_forces = 0,
        .free_revival = 2, .hand_limit = 4, .start_cards = 1,
        .traitors_kept = 1, .is_classic = 0,
    },
};

_Static_assert(sizeof engine__factions / sizeof engine__factions[0]
                   == ENGINE_FACTION_COUNT,
               "one row per faction");
_Static_assert(ENGINE_FACTION_CLASSIC_LAST - ENGINE_FACTION_CLASSIC_FIRST + 1
                   == 6,
               "the six classic factions come first");
