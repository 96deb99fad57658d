/*
 * facts.c - the engine's fact tables, read-only, for its clients (engine.h
 * "Facts"): card classes, terrain, the strongholds, storm protection,
 * faction titles and counts, the Fremen's opening, ornithopters, the
 * shipping price and the steps clients read.
 *
 * Each answer comes from the table or the rule the engine itself plays by
 * (engine/data/, the shipment's price in engine/phase_shipment.c), so a
 * client can never disagree with a fold. Every function checks its index
 * first and answers its declared value for anything out of range; none
 * keeps state, allocates or mutates the state it is handed.
 */
#include <string.h>

#include "engine/phase.h"

/* ========================================================== advantages */

/* The advantages a Karama may cancel, by name (the rows granting them,
 * engine/powers_*.c, say how). */
static const char *const advantage_names[ENGINE_ADVANTAGE_COUNT] = {
    [ENGINE_ADVANTAGE_ATREIDES_CARD_PEEK] = "atreides_card_peek",
    [ENGINE_ADVANTAGE_ATREIDES_SPICE_PEEK] = "atreides_spice_peek",
    [ENGINE_ADVANTAGE_ATREIDES_PRESCIENCE] = "atreides_prescience",
    [ENGINE_ADVANTAGE_ATREIDES_ALLY_PRESCIENCE] = "atreides_ally_prescience",
    [ENGINE_ADVANTAGE_BG_POLAR_SINK_SEND] = "bg_polar_sink_send",
    [ENGINE_ADVANTAGE_BG_VOICE] = "bg_voice",
    [ENGINE_ADVANTAGE_BG_ALLY_VOICE] = "bg_ally_voice",
    [ENGINE_ADVANTAGE_EMPEROR_CARD_PAYMENT] = "emperor_card_payment",
    [ENGINE_ADVANTAGE_EMPEROR_ALLY_REVIVAL] = "emperor_ally_revival",
    [ENGINE_ADVANTAGE_FREMEN_MOVE] = "fremen_move",
    [ENGINE_ADVANTAGE_FREMEN_WORM] = "fremen_worm",
    [ENGINE_ADVANTAGE_FREMEN_ALLY_WORM] = "fremen_ally_worm",
    [ENGINE_ADVANTAGE_FREMEN_ALLY_REVIVAL] = "fremen_ally_revival",
    [ENGINE_ADVANTAGE_HARKONNEN_FREE_CARD] = "harkonnen_free_card",
    [ENGINE_ADVANTAGE_GUILD_PAYMENT] = "guild_payment",
    [ENGINE_ADVANTAGE_GUILD_CROSS_SHIP] = "guild_cross_ship",
    [ENGINE_ADVANTAGE_GUILD_SHIP_BACK] = "guild_ship_back",
    [ENGINE_ADVANTAGE_GUILD_HALF_PRICE] = "guild_half_price",
    [ENGINE_ADVANTAGE_GUILD_ALLY_HALF_PRICE] = "guild_ally_half_price",
    [ENGINE_ADVANTAGE_GUILD_ALLY_CROSS_SHIP] = "guild_ally_cross_ship",
    [ENGINE_ADVANTAGE_ATREIDES_KH] = "atreides_kwisatz_haderach",
    [ENGINE_ADVANTAGE_BG_CHARITY] = "bg_advanced_charity",
    [ENGINE_ADVANTAGE_FREMEN_STORM_LOSSES] = "fremen_half_storm_losses",
    [ENGINE_ADVANTAGE_BG_FLIP] = "bg_advisors_flip",
    [ENGINE_ADVANTAGE_GUILD_OUT_OF_TURN] = "guild_out_of_turn",
    [ENGINE_ADVANTAGE_EMPEROR_SARDAUKAR] = "emperor_sardaukar",
    [ENGINE_ADVANTAGE_FREMEN_FEDAYKIN] = "fremen_fedaykin",
    [ENGINE_ADVANTAGE_FREMEN_BATTLE_HARDENED] = "fremen_battle_hardened",
    [ENGINE_ADVANTAGE_FREMEN_STORM_PEEK] = "fremen_storm_peek",
    [ENGINE_ADVANTAGE_FREMEN_WORM_PLACEMENT] = "fremen_worm_placement",
    [ENGINE_ADVANTAGE_HARKONNEN_CAPTURE] = "harkonnen_capture",
};

const char *engine_advantage_name(unsigned advantage)
{
    return advantage < ENGINE_ADVANTAGE_COUNT ? advantage_names[advantage] : NULL;
}

int engine_advantage_from_name(const char *name)
{
    for (unsigned a = 1; a < ENGINE_ADVANTAGE_COUNT; a++)
        if (strcmp(advantage_names[a], name) == 0)
            return (int)a;
    return -1;
}

/* ========================================================== card kinds */

unsigned engine_card_kind_classes(unsigned kind)
{
    return kind < ENGINE_CARD_KIND_COUNT ? engine__card_kinds[kind].classes : 0;
}

/* ========================================================= territories */

int engine_territory_terrain(unsigned t)
{
    return t < ENGINE_TERRITORY_COUNT ? engine__territories[t].kind : -1;
}

/* The strongholds of the territory table but the Hidden Mobile
 * Stronghold, which counts for victory only with the Ixians. */
int engine_territory_is_stronghold(unsigned t)
{
    return t < ENGINE_TERRITORY_COUNT && t != ENGINE_TERRITORY_HIDDEN_MOBILE_STRONGHOLD &&
           engine__territories[t].kind == ENGINE_TERRAIN_STRONGHOLD;
}

unsigned engine_stronghold(unsigned i)
{
    for (unsigned t = 0; t < ENGINE_TERRITORY_COUNT; t++)
        if (engine_territory_is_stronghold(t) && i-- == 0)
            return t;
    return ENGINE_TERRITORY_COUNT;
}

/* Family Atomics lays the Shield Wall's shelter (Arrakeen, Carthag and
 * the Imperial Basin) open to the storm (DUNE_RULES_DIGEST.md 1.3); the
 * storm's move in engine/phase_storm.c asks this. */
int engine_territory_is_storm_safe(const engine_state *st, unsigned t)
{
    if (t >= ENGINE_TERRITORY_COUNT)
        return 0;
    if (st->is_shield_wall_down && (engine__shield_wall_shelters >> t & 1))
        return 0;
    return engine__territories[t].is_storm_safe;
}

unsigned engine_fremen_start_territory(unsigned i)
{
    return i < ENGINE_FREMEN_START_TERRITORIES ? engine__fremen_start[i] : ENGINE_TERRITORY_COUNT;
}

int engine_territory_is_fremen_sietch(unsigned t)
{
    return t < ENGINE_TERRITORY_COUNT && (engine__fremen_sietches >> t & 1);
}

/* Movement and collection both read it (engine/phase_shipment.c,
 * engine/phase_collection.c). */
int engine_seat_has_ornithopters(const engine_state *st, unsigned seat)
{
    if (seat >= st->config.n_seats || seat >= ENGINE_MAX_SEATS)
        return 0;
    for (unsigned l = 0; l < ENGINE_LOCATION_COUNT; l++)
        if ((engine__ornithopter_cities >> engine__locations[l].territory & 1) &&
            (st->forces[l][seat] || st->special[l][seat]))
            return 1;
    return 0;
}

unsigned engine_collection_rate(const engine_state *st, unsigned seat)
{
    if (seat >= st->config.n_seats || seat >= ENGINE_MAX_SEATS)
        return 0;
    return engine_seat_has_ornithopters(st, seat) ? 3 : 2;
}

/* ============================================================ factions */

const char *engine_faction_title(unsigned f)
{
    return f < ENGINE_FACTION_COUNT ? engine__factions[f].title : "?";
}

const char *engine_faction_elite_name(unsigned f)
{
    return f < ENGINE_FACTION_COUNT ? engine__factions[f].elite : NULL;
}

unsigned engine_faction_free_revival(unsigned f)
{
    return f < ENGINE_FACTION_COUNT ? engine__factions[f].free_revival : 0;
}

unsigned engine_faction_traitors_kept(unsigned f)
{
    return f < ENGINE_FACTION_COUNT ? engine__factions[f].traitors_kept : 0;
}

/* ============================================================ shipment */

unsigned engine_shipment_cost(const engine_state *st, unsigned seat, unsigned loc, unsigned n,
                              int karama)
{
    if (seat >= st->config.n_seats || seat >= ENGINE_MAX_SEATS || loc >= ENGINE_LOCATION_COUNT)
        return 0;
    return engine__ship_cost(st, seat, loc, n, karama);
}

/* =============================================================== steps */

/* The public step numbers are engine/phase.h's, one for one. */
#define SAME(a, b) ((int)(a) == (int)(b))
_Static_assert(SAME(ENGINE_SETUP_STEP_PREDICTION, SETUP_STEP_PREDICTION) &&
                   SAME(ENGINE_SETUP_STEP_TRAITORS, SETUP_STEP_TRAITORS) &&
                   SAME(ENGINE_SETUP_STEP_FREMEN, SETUP_STEP_FREMEN) &&
                   SAME(ENGINE_SETUP_STEP_BG_PLACE, SETUP_STEP_BG_PLACE) && SETUP_STEP_COUNT == 4,
               "the setup steps of engine.h are phase.h's");
_Static_assert(SAME(ENGINE_STORM_STEP_DIAL, STORM_STEP_DIAL) &&
                   SAME(ENGINE_STORM_STEP_CARDS, STORM_STEP_CARDS) &&
                   SAME(ENGINE_STORM_STEP_LOSSES, STORM_STEP_LOSSES) && STORM_STEP_COUNT == 3,
               "the storm steps of engine.h are phase.h's");
_Static_assert(SAME(ENGINE_BATTLE_STEP_CHOOSE, BATTLE_STEP_CHOOSE) &&
                   SAME(ENGINE_BATTLE_STEP_VOICE, BATTLE_STEP_VOICE) &&
                   SAME(ENGINE_BATTLE_STEP_PRESCIENCE, BATTLE_STEP_PRESCIENCE) &&
                   SAME(ENGINE_BATTLE_STEP_PRESCIENCE_ANSWER, BATTLE_STEP_PRESCIENCE_ANSWER) &&
                   SAME(ENGINE_BATTLE_STEP_PLAN, BATTLE_STEP_PLAN) &&
                   SAME(ENGINE_BATTLE_STEP_TRAITOR, BATTLE_STEP_TRAITOR) &&
                   SAME(ENGINE_BATTLE_STEP_KEEP, BATTLE_STEP_KEEP) &&
                   SAME(ENGINE_BATTLE_STEP_CAPTURE, BATTLE_STEP_CAPTURE) && BATTLE_STEP_COUNT == 8,
               "the battle steps of engine.h are phase.h's");
_Static_assert(SAME(ENGINE_BLOW_STEP_NEXUS_DRAW, BLOW_STEP_NEXUS_DRAW) &&
                   SAME(ENGINE_BLOW_STEP_WORM_PLACE, BLOW_STEP_WORM_PLACE) &&
                   SAME(ENGINE_BLOW_STEP_KARAMA_WORM, BLOW_STEP_KARAMA_WORM),
               "the Spice Blow steps of engine.h are phase.h's");

/* What each step waits for, by phase and step (engine/phase.h): the words
 * a refusal of an action in the wrong step names. */
static const char *const step_names[ENGINE_PHASE_COUNT][8] = {
    [ENGINE_PHASE_SETUP] = {[SETUP_STEP_PREDICTION] = "prediction",
                            [SETUP_STEP_TRAITORS] = "traitor_picks",
                            [SETUP_STEP_FREMEN] = "fremen_placement",
                            [SETUP_STEP_BG_PLACE] = "bene_gesserit_placement"},
    [ENGINE_PHASE_STORM] = {[STORM_STEP_DIAL] = "storm_dials", [STORM_STEP_CARDS] = "storm_cards",
                            [STORM_STEP_LOSSES] = "fremen_storm_losses"},
    [ENGINE_PHASE_SPICE_BLOW] = {[BLOW_STEP_NEXUS] = "nexus", [BLOW_STEP_WORM_RIDE] = "worm_ride",
                                 [BLOW_STEP_WORM_ALLY] = "fremen_ally_worm_choice",
                                 [BLOW_STEP_NEXUS_DRAW] = "nexus_card_draws",
                                 [BLOW_STEP_WORM_PLACE] = "worm_placement",
                                 [BLOW_STEP_KARAMA_WORM] = "fremen_karama_worm"},
    [ENGINE_PHASE_CHOAM_CHARITY] = {[CHARITY_STEP_CLAIM] = "charity_claims"},
    [ENGINE_PHASE_BIDDING] = {[BIDDING_STEP_SUPPORT] = "ally_support",
                              [BIDDING_STEP_AUCTION] = "auction"},
    [ENGINE_PHASE_REVIVAL] = {[REVIVAL_STEP_EMPEROR] = "ally_revival_offers",
                              [REVIVAL_STEP_REVIVE] = "revivals"},
    [ENGINE_PHASE_SHIPMENT_MOVEMENT] = {[SHIP_STEP_SHIP] = "shipment",
                                        [SHIP_STEP_BG_SEND] = "bene_gesserit_send",
                                        [SHIP_STEP_MOVE] = "movement",
                                        [SHIP_STEP_KARAMA_ANSWER] = "karama_payment_answer"},
    [ENGINE_PHASE_BATTLE] = {[BATTLE_STEP_CHOOSE] = "battle_choice", [BATTLE_STEP_VOICE] = "voice",
                             [BATTLE_STEP_PRESCIENCE] = "prescience",
                             [BATTLE_STEP_PRESCIENCE_ANSWER] = "prescience_answer",
                             [BATTLE_STEP_PLAN] = "battle_plans",
                             [BATTLE_STEP_TRAITOR] = "traitor_calls",
                             [BATTLE_STEP_KEEP] = "keep_or_discard",
                             [BATTLE_STEP_CAPTURE] = "capture_or_kill"},
};
_Static_assert(SETUP_STEP_COUNT <= 8 && BATTLE_STEP_COUNT <= 8 && SHIP_STEP_COUNT <= 8,
               "step_names holds every step");

const char *engine_step_name(unsigned phase, unsigned step)
{
    return phase < ENGINE_PHASE_COUNT && step < 8 ? step_names[phase][step] : NULL;
}

unsigned engine_action_phase(unsigned kind)
{
    if (kind == ENGINE_ACTION_NONE || kind >= ENGINE_ACTION_KIND_COUNT)
        return ENGINE_PHASE_COUNT;
    unsigned p = engine__action_home_phase(kind);
    return p < ENGINE_PHASE_COUNT ? p : ENGINE_PHASE_COUNT;
}

const char *engine_nexus_panel_text(unsigned f, unsigned mode)
{
    return f < ENGINE_NEXUS_CARD_COUNT && mode < ENGINE_NEXUS_MODE_COUNT
               ? engine__nexus_cards[f].panel[mode]
               : NULL;
}

unsigned engine_nexus_panel_row(unsigned f, unsigned mode)
{
    return f < ENGINE_NEXUS_CARD_COUNT && mode < ENGINE_NEXUS_MODE_COUNT
               ? engine__nexus_cards[f].row[mode]
               : 0;
}

unsigned engine_storm_order(const engine_state *st, uint8_t out[ENGINE_MAX_SEATS])
{
    return engine__storm_order(st, out);
}
