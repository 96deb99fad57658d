/*
 * action.c - the action table: one row per action kind, naming its
 * arguments and their types. Text formats (JSON, the log) and the codec
 * read names from here; the generic checks of engine_apply read the rest.
 * Facts only: no rule is decided in this file.
 */
#include <string.h>

#include "engine/internal.h"

static const engine_action_spec action_specs[ENGINE_ACTION_KIND_COUNT] = {
    [ENGINE_ACTION_NONE] = {"none", 0, {0}, {0}, 0},
    [ENGINE_ACTION_PREDICT] = {"predict", 2,
        {"faction", "turn"},
        {ENGINE_ARG_FACTION, ENGINE_ARG_INT}, 0},
    [ENGINE_ACTION_TRAITOR_PICK] = {"traitor_pick", 1,
        {"leader"},
        {ENGINE_ARG_LEADER}, 0},
    [ENGINE_ACTION_FREMEN_PLACE] = {"fremen_place", 6,
        {"sietch_tabr", "false_wall_south", "false_wall_west",
         "fedaykin_sietch_tabr", "fedaykin_false_wall_south", "fedaykin_false_wall_west"},
        {ENGINE_ARG_INT, ENGINE_ARG_INT, ENGINE_ARG_INT,
         ENGINE_ARG_INT, ENGINE_ARG_INT, ENGINE_ARG_INT}, 0},
    [ENGINE_ACTION_BG_PLACE] = {"bg_place", 1,
        {"location"},
        {ENGINE_ARG_LOCATION}, 0},
    [ENGINE_ACTION_STORM_DIAL] = {"storm_dial", 1,
        {"value"},
        {ENGINE_ARG_INT}, 0},
    [ENGINE_ACTION_ALLIANCE_PROPOSE] = {"alliance_propose", 1, {"faction"}, {ENGINE_ARG_FACTION}, 0},
    [ENGINE_ACTION_ALLIANCE_ACCEPT] = {"alliance_accept", 1, {"faction"}, {ENGINE_ARG_FACTION}, 0},
    [ENGINE_ACTION_ALLIANCE_REFUSE] = {"alliance_refuse", 1, {"faction"}, {ENGINE_ARG_FACTION}, 0},
    [ENGINE_ACTION_ALLIANCE_BREAK] = {"alliance_break", 0, {0}, {0}, 0},
    [ENGINE_ACTION_NEXUS_DONE] = {"nexus_done", 0, {0}, {0}, 0},
    [ENGINE_ACTION_WORM_RIDE] = {"worm_ride", 3,
        {"location", "forces", "elite"},
        {ENGINE_ARG_LOCATION, ENGINE_ARG_INT, ENGINE_ARG_INT}, 0},
    [ENGINE_ACTION_WORM_RIDE_PASS] = {"worm_ride_pass", 0, {0}, {0}, 0},
    [ENGINE_ACTION_CHARITY_CLAIM] = {"charity_claim", 0, {0}, {0}, 0},
    [ENGINE_ACTION_CHARITY_DECLINE] = {"charity_decline", 0, {0}, {0}, 0},
    [ENGINE_ACTION_ALLY_SUPPORT] = {"ally_support", 1, {"spice"}, {ENGINE_ARG_INT}, 0},
    [ENGINE_ACTION_BID] = {"bid", 2, {"spice", "karama"}, {ENGINE_ARG_INT, ENGINE_ARG_INT}, 0},
    [ENGINE_ACTION_BID_PASS] = {"bid_pass", 0, {0}, {0}, 0},
    [ENGINE_ACTION_KARAMA_TAKE] = {"karama_take", 0, {0}, {0}, 0},
    [ENGINE_ACTION_EMPEROR_REVIVAL] = {"emperor_revival", 1, {"forces"}, {ENGINE_ARG_INT}, 0},
    [ENGINE_ACTION_REVIVE] = {"revive", 3,
        {"forces", "elite", "leader"},
        {ENGINE_ARG_INT, ENGINE_ARG_INT, ENGINE_ARG_LEADER}, 0},
    [ENGINE_ACTION_GHOLA] = {"ghola", 2, {"forces", "leader"}, {ENGINE_ARG_INT, ENGINE_ARG_LEADER}, 0},
    [ENGINE_ACTION_SHIP] = {"ship", 4,
        {"location", "forces", "elite", "karama"},
        {ENGINE_ARG_LOCATION, ENGINE_ARG_INT, ENGINE_ARG_INT, ENGINE_ARG_INT}, 0},
    [ENGINE_ACTION_FREMEN_SEND] = {"fremen_send", 3,
        {"location", "forces", "elite"},
        {ENGINE_ARG_LOCATION, ENGINE_ARG_INT, ENGINE_ARG_INT}, 0},
    [ENGINE_ACTION_CROSS_SHIP] = {"cross_ship", 4,
        {"from", "to", "forces", "elite"},
        {ENGINE_ARG_LOCATION, ENGINE_ARG_LOCATION, ENGINE_ARG_INT, ENGINE_ARG_INT}, 0},
    [ENGINE_ACTION_SHIP_BACK] = {"ship_back", 3,
        {"from", "forces", "elite"},
        {ENGINE_ARG_LOCATION, ENGINE_ARG_INT, ENGINE_ARG_INT}, 0},
    [ENGINE_ACTION_SHIP_PASS] = {"ship_pass", 0, {0}, {0}, 0},
    /* to: the destination (rules version 4 on), absent = location 0, the
     * Polar Sink (LR 2.02.05) */
    [ENGINE_ACTION_BG_SEND] = {"bg_send", 2, {"send", "to"}, {ENGINE_ARG_INT, ENGINE_ARG_LOCATION},
                               1},
    /* source: the location of `from` the group leaves (rules version 4
     * on), absent = from every sector that can reach (LR 1.06.05) */
    /* `fighters` (Advanced, rules version 6): 1 = advisors moving into an
     * occupied territory take up arms (LR 2.02.16) */
    [ENGINE_ACTION_MOVE] = {"move", 6,
        {"from", "to", "forces", "elite", "source", "fighters"},
        {ENGINE_ARG_TERRITORY, ENGINE_ARG_LOCATION, ENGINE_ARG_INT, ENGINE_ARG_INT,
         ENGINE_ARG_LOCATION, ENGINE_ARG_INT}, 2},
    [ENGINE_ACTION_HAJR_MOVE] = {"hajr_move", 6,
        {"from", "to", "forces", "elite", "source", "fighters"},
        {ENGINE_ARG_TERRITORY, ENGINE_ARG_LOCATION, ENGINE_ARG_INT, ENGINE_ARG_INT,
         ENGINE_ARG_LOCATION, ENGINE_ARG_INT}, 2},
    [ENGINE_ACTION_MOVE_PASS] = {"move_pass", 0, {0}, {0}, 0},
    [ENGINE_ACTION_BATTLE_CHOOSE] = {"battle_choose", 2,
        {"territory", "opponent"},
        {ENGINE_ARG_TERRITORY, ENGINE_ARG_FACTION}, 0},
    [ENGINE_ACTION_PRESCIENCE] = {"prescience", 1, {"element"}, {ENGINE_ARG_INT}, 0},
    [ENGINE_ACTION_PRESCIENCE_PASS] = {"prescience_pass", 0, {0}, {0}, 0},
    /* support: the Advanced dial's spice support (rules version 7 on), the
     * value then the forces' strength in half points (R117); a count held
     * as n + 1, always given there, so a secret answer is of one size */
    [ENGINE_ACTION_PRESCIENCE_ANSWER] = {"prescience_answer", 2, {"value", "support"},
                                         {ENGINE_ARG_SIGNED, ENGINE_ARG_COUNT1}, 1},
    [ENGINE_ACTION_VOICE] = {"voice", 2, {"must", "class"}, {ENGINE_ARG_INT, ENGINE_ARG_INT}, 0},
    [ENGINE_ACTION_VOICE_PASS] = {"voice_pass", 0, {0}, {0}, 0},
    [ENGINE_ACTION_KARAMA_CANCEL] = {"karama_cancel", 1, {"advantage"}, {ENGINE_ARG_INT}, 1},
    [ENGINE_ACTION_KARAMA_ALLOW] = {"karama_allow", 0, {0}, {0}, 0},
    /* half, elite, elite_half: the Advanced game's forces by strength
     * (rules version 5 on, LR 1.13.04; dial is then the plain forces at
     * full strength), counts held plus one so that an Advanced plan
     * always carries all three and its size says nothing; absent (0) in
     * the Basic game */
    [ENGINE_ACTION_BATTLE_PLAN] = {"battle_plan", 8,
        {"leader", "cheap_hero", "weapon", "defense", "dial", "half", "elite", "elite_half"},
        {ENGINE_ARG_LEADER, ENGINE_ARG_CARD, ENGINE_ARG_CARD, ENGINE_ARG_CARD, ENGINE_ARG_INT,
         ENGINE_ARG_COUNT1, ENGINE_ARG_COUNT1, ENGINE_ARG_COUNT1}, 3},
    [ENGINE_ACTION_TRAITOR_CALL] = {"traitor_call", 1, {"call"}, {ENGINE_ARG_INT}, 0},
    [ENGINE_ACTION_KEEP_CARDS] = {"keep_cards", 2, {"weapon", "defense"},
                                  {ENGINE_ARG_INT, ENGINE_ARG_INT}, 0},
    [ENGINE_ACTION_WEATHER_CONTROL] = {"weather_control", 1, {"sectors"}, {ENGINE_ARG_INT}, 0},
    [ENGINE_ACTION_FAMILY_ATOMICS] = {"family_atomics", 0, {0}, {0}, 0},
    [ENGINE_ACTION_STORM_CARDS_PASS] = {"storm_cards_pass", 0, {0}, {0}, 0},
    [ENGINE_ACTION_TRUTHTRANCE] = {"truthtrance", 1, {"target"}, {ENGINE_ARG_FACTION}, 0},
    [ENGINE_ACTION_TRUTHTRANCE_ANSWER] = {"truthtrance_answer", 1, {"yes"}, {ENGINE_ARG_INT}, 0},
    [ENGINE_ACTION_SHIP_KARAMA_FROM] = {"ship_karama_from", 4,
        {"location", "forces", "elite", "payer"},
        {ENGINE_ARG_LOCATION, ENGINE_ARG_INT, ENGINE_ARG_INT, ENGINE_ARG_FACTION}, 0},
    [ENGINE_ACTION_SHIP_KARAMA_ANSWER] = {"ship_karama_answer", 1, {"pay"}, {ENGINE_ARG_INT}, 0},
    [ENGINE_ACTION_FREMEN_PROTECT_ALLY] = {"fremen_protect_ally", 1, {"protect"}, {ENGINE_ARG_INT}, 0},
    [ENGINE_ACTION_FREMEN_ALLY_REVIVAL] = {"fremen_ally_revival", 1, {"give"}, {ENGINE_ARG_INT}, 0},
    /* ask_21_31, own_21_31: the advantages after the Basic twenty (rules
     * version 7 on, an Advanced room), absent (0) elsewhere */
    [ENGINE_ACTION_KARAMA_POLICY] = {"karama_policy", 6,
        {"ask_1_10", "ask_11_20", "own_1_10", "own_11_20", "ask_21_31", "own_21_31"},
        {ENGINE_ARG_INT, ENGINE_ARG_INT, ENGINE_ARG_INT, ENGINE_ARG_INT, ENGINE_ARG_INT,
         ENGINE_ARG_INT}, 2},
    [ENGINE_ACTION_NEXUS_DRAW] = {"nexus_draw", 2, {"draw", "policy"},
        {ENGINE_ARG_INT, ENGINE_ARG_INT}, 0},
    /* generic (rules version 5 on): the power's id, then the arguments its
     * row's form names (engine_power_form); text names them from the form */
    [ENGINE_ACTION_POWER] = {"power", 8,
        {"power", "arg1", "arg2", "arg3", "arg4", "arg5", "arg6", "arg7"},
        {ENGINE_ARG_INT, ENGINE_ARG_SIGNED, ENGINE_ARG_SIGNED, ENGINE_ARG_SIGNED,
         ENGINE_ARG_SIGNED, ENGINE_ARG_SIGNED, ENGINE_ARG_SIGNED, ENGINE_ARG_SIGNED}, 7},
    /* generic (rules version 6 on): the window's id, then the arguments its
     * row's answer form names */
    [ENGINE_ACTION_ANSWER] = {"answer", 8,
        {"window", "arg1", "arg2", "arg3", "arg4", "arg5", "arg6", "arg7"},
        {ENGINE_ARG_INT, ENGINE_ARG_SIGNED, ENGINE_ARG_SIGNED, ENGINE_ARG_SIGNED,
         ENGINE_ARG_SIGNED, ENGINE_ARG_SIGNED, ENGINE_ARG_SIGNED, ENGINE_ARG_SIGNED}, 7},
};
_Static_assert(sizeof action_specs / sizeof action_specs[0] == ENGINE_ACTION_KIND_COUNT,
               "one row per action kind");

const engine_action_spec *engine_action_spec_of(unsigned kind)
{
    if (kind == ENGINE_ACTION_NONE || kind >= ENGINE_ACTION_KIND_COUNT)
        return NULL;
    return &action_specs[kind];
}

/* The arguments of `kind` less the trailing optional ones that are 0 in
 * both lo and hi. */
static unsigned n_given(unsigned kind, const int16_t *lo, const int16_t *hi)
{
    const engine_action_spec *spec = engine_action_spec_of(kind);
    if (spec == NULL)
        return 0;
    unsigned n = spec->n_args, first_optional = (unsigned)(spec->n_args - spec->n_optional);
    while (n > first_optional && lo[n - 1] == 0 && hi[n - 1] == 0)
        n--;
    return n;
}

unsigned engine_action_n_given(const engine_action *act)
{
    return n_given(act->kind, act->arg, act->arg);
}

unsigned engine_legal_n_given(const engine_legal *l)
{
    return n_given(l->kind, l->lo, l->hi);
}

engine_action_kind engine_action_kind_from_name(const char *name)
{
    for (unsigned k = 1; k < ENGINE_ACTION_KIND_COUNT; k++)
        if (strcmp(action_specs[k].name, name) == 0)
            return (engine_action_kind)k;
    return ENGINE_ACTION_NONE;
}
