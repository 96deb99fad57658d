/*
 * nexus_moritani.c - the panels of the Moritani Nexus card (E3 p.11; the
 * digest's EXPANSIONS_AND_NEXUS.md 5.2; the card's readable reference is
 * engine/data/nexus_cards.c) as power rows: engine/points.c offers them to
 * the seat holding the card, in the mode the card has for it. None is
 * built yet: each is named, so that playing it is refused with its row
 * (rule_not_implemented). A row never mutates but through its `use`, and
 * never names another card's panel.
 */
#include "engine/internal.h"

static const engine_power_form betrayal_form = {.slug = "nexus_moritani_betrayal"};
static const engine_power_form cunning_form = {.slug = "nexus_moritani_cunning"};
static const engine_power_form secret_ally_form = {.slug = "nexus_moritani_secret_ally"};

static const engine__power_row rows[] = {
    ENGINE__NEXUS_NOT_BUILT(ENGINE_FACTION_MORITANI, ENGINE_NEXUS_BETRAYAL, &betrayal_form),
    ENGINE__NEXUS_NOT_BUILT(ENGINE_FACTION_MORITANI, ENGINE_NEXUS_CUNNING, &cunning_form),
    ENGINE__NEXUS_NOT_BUILT(ENGINE_FACTION_MORITANI, ENGINE_NEXUS_SECRET_ALLY, &secret_ally_form),
};

const engine__power_family engine__nexus_moritani = {rows, sizeof rows / sizeof rows[0]};
