/*
 * powers_harkonnen.c - the Harkonnen's powers as rows (internal.h,
 * engine__power_row; DUNE_RULES_DIGEST.md 3.3, LR 2.05): what the phase
 * files ask of them at their rule points (engine/points.c). A row holds
 * facts and small functions over the state; it never mutates the state
 * and never names another family's faction.
 */
#include "engine/internal.h"

static const engine__power_row rows[] = {
    /* H1: a free card with each card bought, when the hand has room. */
    {.point = ENGINE__POINT_CARD_BOUGHT, .faction = ENGINE_FACTION_HARKONNEN, .to = ENGINE__TO_OWNER,
     .advantage = ENGINE_ADVANTAGE_HARKONNEN_FREE_CARD, .karama = ENGINE__KARAMA_STANDING, .source = "LR 2.05.08"},
    /* Traitors may be called in the ally's battle too (no Karama, R66). */
    {.point = ENGINE__POINT_TRAITOR_REVEALED, .faction = ENGINE_FACTION_HARKONNEN,
     .to = ENGINE__TO_OWNER | ENGINE__TO_ALLY, .source = "LR 2.05.06"},
    /* Advanced, rules version 8 on: the faction Karama power, a hand taken
     * and as many cards given back (engine/karama_hand.c). */
    {.point = ENGINE__POINT_POWER, .faction = ENGINE_FACTION_HARKONNEN, .to = ENGINE__TO_OWNER,
     .game = ENGINE__GAME_ADVANCED, .since = ENGINE__RULE_SINCE(ENGINE__RULE_ADVANCED_KARAMA_HARKONNEN),
     .when = engine__harkonnen_hand_when, .form = &engine__harkonnen_hand_form,
     .use = engine__harkonnen_hand, .legal = engine__harkonnen_hand_legal, .source = "LR 1.14.04"},
    {.point = ENGINE__POINT_WINDOW, .faction = ENGINE_FACTION_HARKONNEN, .to = ENGINE__TO_OWNER,
     .game = ENGINE__GAME_ADVANCED, .since = ENGINE__RULE_SINCE(ENGINE__RULE_ADVANCED_KARAMA_HARKONNEN),
     .form = &engine__harkonnen_return_form, .answer = engine__harkonnen_return,
     .close = engine__harkonnen_returned, .legal = engine__harkonnen_return_legal,
     .source = "LR 1.14.04"},
};

const engine__power_family engine__powers_harkonnen = {rows, sizeof rows / sizeof rows[0]};
