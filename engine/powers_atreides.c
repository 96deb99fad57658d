/*
 * powers_atreides.c - the Atreides' powers as rows (internal.h,
 * engine__power_row; DUNE_RULES_DIGEST.md 3.3, LR 2.01): what the phase
 * files ask of them at their rule points (engine/points.c). A row holds
 * facts and small functions over the state; it never mutates the state
 * and never names another family's faction.
 */
#include "engine/internal.h"

static const engine__power_row rows[] = {
    /* A1: each card up for bid is shown to the Atreides. */
    {.point = ENGINE__POINT_CARD_UP, .faction = ENGINE_FACTION_ATREIDES, .to = ENGINE__TO_OWNER,
     .advantage = ENGINE_ADVANTAGE_ATREIDES_CARD_PEEK, .karama = ENGINE__KARAMA_STANDING, .source = "LR 2.01.05"},
    /* A2: the top card of the spice deck, in the Shipment and Movement. */
    {.point = ENGINE__POINT_SPICE_PEEK, .faction = ENGINE_FACTION_ATREIDES, .to = ENGINE__TO_OWNER,
     .advantage = ENGINE_ADVANTAGE_ATREIDES_SPICE_PEEK, .karama = ENGINE__KARAMA_STANDING, .source = "LR 2.01.07"},
    /* A3, A4: one element of the opponent's plan, in the own battle or the ally's. */
    {.point = ENGINE__POINT_PRESCIENCE, .faction = ENGINE_FACTION_ATREIDES, .to = ENGINE__TO_OWNER,
     .advantage = ENGINE_ADVANTAGE_ATREIDES_PRESCIENCE, .karama = ENGINE__KARAMA_CANCELS, .retake = ENGINE_ACTION_PRESCIENCE_PASS, .source = "LR 2.01.08"},
    {.point = ENGINE__POINT_PRESCIENCE, .faction = ENGINE_FACTION_ATREIDES, .to = ENGINE__TO_ALLY,
     .advantage = ENGINE_ADVANTAGE_ATREIDES_ALLY_PRESCIENCE, .karama = ENGINE__KARAMA_CANCELS, .retake = ENGINE_ACTION_PRESCIENCE_PASS, .source = "LR 2.01.09"},
};

const engine__power_family engine__powers_atreides = {rows, sizeof rows / sizeof rows[0]};
