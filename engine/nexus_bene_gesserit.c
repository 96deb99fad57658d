/*
 * nexus_bene_gesserit.c - the panels of the Bene Gesserit Nexus card (E3 p.11; the
 * digest's EXPANSIONS_AND_NEXUS.md 5.2; the card's readable reference is
 * engine/data/nexus_cards.c) as power rows: engine/points.c offers them to
 * the seat holding the card, in the mode the card has for it. A panel
 * not built is named, so that playing it is refused with its row
 * (rule_not_implemented); the Betrayal (row 4) answers the neutral
 * Nexus window from rules version 7 (engine/nexus_window.c). A row never
 * mutates but through its `use`, and never names another card's panel.
 */
#include "engine/internal.h"

static const engine_power_form betrayal_form = {.slug = "nexus_bene_gesserit_betrayal"};
static const engine_power_form cunning_form = {.slug = "nexus_bene_gesserit_cunning"};
static const engine_power_form secret_ally_form = {.slug = "nexus_bene_gesserit_secret_ally"};

static const engine__power_row rows[] = {
    /* Betrayal (row 4): stops one Voice, in the neutral Nexus window from rules
     * version 7 (engine/nexus_window.c); until then named, not built */
    ENGINE__NEXUS_NOT_BUILT_UNTIL_WINDOWS(ENGINE_FACTION_BENE_GESSERIT, ENGINE_NEXUS_BETRAYAL, &betrayal_form),
    ENGINE__NEXUS_STOP_ROW(ENGINE_FACTION_BENE_GESSERIT, ENGINE_NEXUS_BETRAYAL, engine__nexus_at_voice,
                           "E3 p.11; EXPANSIONS_AND_NEXUS.md 5.2 row 4 (docs/RULINGS.md R121)"),
    ENGINE__NEXUS_NOT_BUILT(ENGINE_FACTION_BENE_GESSERIT, ENGINE_NEXUS_CUNNING, &cunning_form),
    ENGINE__NEXUS_NOT_BUILT(ENGINE_FACTION_BENE_GESSERIT, ENGINE_NEXUS_SECRET_ALLY, &secret_ally_form),
};

const engine__power_family engine__nexus_bene_gesserit = {rows, sizeof rows / sizeof rows[0]};
