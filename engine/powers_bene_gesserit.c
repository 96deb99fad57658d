/*
 * powers_bene_gesserit.c - the Bene Gesserit's powers as rows
 * (internal.h, engine__power_row; DUNE_RULES_DIGEST.md 3.3, LR 2.02):
 * what the phase files ask of them at their rule points
 * (engine/points.c). A row holds facts and small functions over the
 * state; it never mutates the state and never names another family's
 * faction.
 */
#include "engine/internal.h"

/* The prediction came true: the Bene Gesserit alone take the win of the
 * seats `winners` (ENGINE_SEAT_BIT mask). */
static int prediction(const engine_state *st, unsigned owner, unsigned seat, int winners)
{
    (void)owner;
    (void)seat;
    int predicted = st->prediction_faction < ENGINE_FACTION_COUNT
                        ? engine__seat_of(st, st->prediction_faction) : -1;
    return predicted >= 0 && st->prediction_turn == st->turn &&
                   ((unsigned)winners & ENGINE_SEAT_BIT(predicted))
               ? ENGINE_VICTORY_PREDICTION
               : 0;
}

/* Advanced: CHOAM's 2 spice, whatever the Bene Gesserit hold (LR 2.02.09). */
#define ADVANCED_CHARITY 2

static int advanced_charity(const engine_state *st, unsigned owner, unsigned seat, int value)
{
    (void)st;
    (void)owner;
    (void)seat;
    return value + ADVANCED_CHARITY;
}

/* WARTIME (Advanced, LR 2.02.17): before Shipment and Movement (from the
 * end of the Spice Blow and Nexus, as [TO] does: CHOAM Charity, Bidding,
 * Revival) the advisors of one territory all become fighters, publicly;
 * never under the storm (STORMED IN, 2.02.19), never beside the ally's
 * forces (PEACETIME, 2.02.18), never as a third faction in a stronghold
 * (1.06.03). The verdict refusing territory `t` now, ACCEPTED if none. */
#define SEAT_NONE 0xFF

static engine_verdict wartime_refusal(const engine_state *st, unsigned owner, int t)
{
    if (st->phase != ENGINE_PHASE_CHOAM_CHARITY && st->phase != ENGINE_PHASE_BIDDING &&
        st->phase != ENGINE_PHASE_REVIVAL)
        return ENGINE_REJECT_NOT_YOUR_POWER;
    if (t < 0 || t >= ENGINE_TERRITORY_HIDDEN_MOBILE_STRONGHOLD ||
        !engine__advisors_in(st, (unsigned)t))
        return ENGINE_REJECT_NOT_ENOUGH_FORCES;
    if (engine__advisors_stormed_in(st, (unsigned)t))
        return ENGINE_REJECT_STORM_BLOCKS;
    if (st->ally[owner] != SEAT_NONE && engine__occupies(st, (unsigned)t, st->ally[owner]))
        return ENGINE_REJECT_NOT_YOUR_POWER;
    if (engine__stronghold_full(st, (unsigned)t, owner))
        return ENGINE_REJECT_OCCUPANCY_LIMIT;
    return ENGINE_ACCEPTED;
}

static int wartime_allows(const engine_state *st, unsigned owner, unsigned seat, int t)
{
    (void)seat;
    return wartime_refusal(st, owner, t) == ENGINE_ACCEPTED;
}

static engine_verdict wartime(engine_verdict_detail *why, engine_state *st, unsigned owner,
                              const engine_action *act, engine_rng *rng)
{
    (void)rng;
    engine_verdict v = wartime_refusal(st, owner, act->arg[1]);
    if (v != ENGINE_ACCEPTED)
        return engine__reject(why, v, 1, act->arg[1]);
    /* Rules version 7: a Karama may stop the flip (engine/advisors.c). */
    if (engine__advisors_flip_held(st, act, owner))
        return ENGINE_ACCEPTED;
    if (!engine__advisors_flip_stopped(st))
        engine__advisors_to_fighters(st, owner, (unsigned)act->arg[1]);
    return ENGINE_ACCEPTED;
}

static const engine_power_form wartime_form = {
    .slug = "bg_wartime", .n_args = 1,
    .arg_name = {"territory"},
    .arg_type = {ENGINE_ARG_TERRITORY},
    .lo = {0}, .hi = {ENGINE_TERRITORY_HIDDEN_MOBILE_STRONGHOLD - 1},
    .fallback = {0},
};

/* INTRUSION (Advanced, rules version 8, LR 2.02.15): forces of a faction
 * neither the Bene Gesserit nor their ally enter a territory where they
 * have fighters; asked at once, they may flip them all to advisors
 * (engine/advisors.c holds the entering action). 0 keeps them fighters. */
static const engine_power_form intrusion_form = {
    .slug = ENGINE__WINDOW_INTRUSION, .n_args = 1,
    .arg_name = {"flip"},
    .arg_type = {ENGINE_ARG_INT},
    .lo = {0}, .hi = {1},
    .fallback = {0},
};

static engine_verdict intrusion_answer(engine_verdict_detail *why, engine_state *st,
                                       engine_frame *f, const engine_action *act, engine_rng *rng)
{
    (void)why;
    (void)f;
    (void)rng;
    return engine__advisors_intrusion_answer(st, act);
}

static const engine__power_row rows[] = {
    /* The prediction, written in secret before the traitors: faction, turn. */
    {.point = ENGINE__POINT_SETUP_PREDICTION, .faction = ENGINE_FACTION_BENE_GESSERIT,
     .to = ENGINE__TO_OWNER, .secret_args = 0x3, .source = "LR 2.02.01"},
    {.point = ENGINE__POINT_MENTAT_PAUSE, .faction = ENGINE_FACTION_BENE_GESSERIT,
     .to = ENGINE__TO_OWNER, .fn = prediction, .source = "LR 2.02.01"},
    /* Advanced: the starting force goes anywhere, after the Fremen place. */
    {.point = ENGINE__POINT_SETUP_CHOSEN_START, .faction = ENGINE_FACTION_BENE_GESSERIT,
     .to = ENGINE__TO_OWNER, .game = ENGINE__GAME_ADVANCED, .source = "LR 2.02.08"},
    /* Advisors appear only in the Advanced game: the row needs no game
     * column, a Basic board holds none. */
    {.point = ENGINE__POINT_ADVISORS, .faction = ENGINE_FACTION_BENE_GESSERIT,
     .to = ENGINE__TO_OWNER, .source = "LR 2.02.11"},
    /* Advanced, rules version 6 on: tokens arriving where advisors stand
     * are advisors (a shipment too, D1); an advisor may accompany another's
     * off-planet shipment instead of the fighter to the Polar Sink; advisors
     * alone out of the storm become fighters as the Battle phase begins. */
    {.point = ENGINE__POINT_ADVISORS_ARRIVE, .faction = ENGINE_FACTION_BENE_GESSERIT,
     .to = ENGINE__TO_OWNER, .game = ENGINE__GAME_ADVANCED,
     .since = ENGINE__RULE_SINCE(ENGINE__RULE_ADVANCED_ADVISORS), .source = "LR 2.02.20"},
    {.point = ENGINE__POINT_ADVISORS_ACCOMPANY, .faction = ENGINE_FACTION_BENE_GESSERIT,
     .to = ENGINE__TO_OWNER, .game = ENGINE__GAME_ADVANCED,
     .since = ENGINE__RULE_SINCE(ENGINE__RULE_ADVANCED_ADVISORS), .source = "LR 2.02.11"},
    {.point = ENGINE__POINT_ADVISORS_STEWARDS, .faction = ENGINE_FACTION_BENE_GESSERIT,
     .to = ENGINE__TO_OWNER, .game = ENGINE__GAME_ADVANCED,
     .since = ENGINE__RULE_SINCE(ENGINE__RULE_ADVANCED_ADVISORS), .source = "LR 2.02.21"},
    {.point = ENGINE__POINT_POWER, .faction = ENGINE_FACTION_BENE_GESSERIT,
     .to = ENGINE__TO_OWNER, .game = ENGINE__GAME_ADVANCED,
     .since = ENGINE__RULE_SINCE(ENGINE__RULE_ADVANCED_ADVISORS), .fn = wartime_allows,
     .advantage = ENGINE_ADVANTAGE_BG_FLIP, .karama = ENGINE__KARAMA_STANDING,
     .form = &wartime_form, .use = wartime, .source = "LR 2.02.17; FAQ20 pp. 7-8"},
    {.point = ENGINE__POINT_WINDOW, .faction = ENGINE_FACTION_BENE_GESSERIT,
     .to = ENGINE__TO_OWNER, .game = ENGINE__GAME_ADVANCED,
     .since = ENGINE__RULE_SINCE(ENGINE__RULE_ADVANCED_INTRUSION), .form = &intrusion_form,
     .answer = intrusion_answer, .close = engine__advisors_intrusion_close,
     .source = "LR 2.02.15; FAQ20 p. 4, pp. 7-8"},
    /* Advanced: the charity comes every turn, claimed or not, whatever the
     * Bene Gesserit hold (in force from rules version 5); from version 7
     * a Karama may stop it when they hold 2 or more (engine/phase_charity.c):
     * the phase goes on without it. */
    {.point = ENGINE__POINT_CHARITY_GRANT, .faction = ENGINE_FACTION_BENE_GESSERIT,
     .to = ENGINE__TO_OWNER, .game = ENGINE__GAME_ADVANCED,
     .since = ENGINE__RULE_SINCE(ENGINE__RULE_ROOM_OPTIONS), .advantage = ENGINE_ADVANTAGE_BG_CHARITY,
     .karama = ENGINE__KARAMA_STANDING, .fn = advanced_charity, .source = "LR 2.02.09; FAQ20 pp. 7-8"},
    /* Advanced, rules version 7 on: no faction Karama power; every
     * worthless card serves as a Karama card instead (engine/karama_card.c). */
    {.point = ENGINE__POINT_WORTHLESS_KARAMA, .faction = ENGINE_FACTION_BENE_GESSERIT,
     .to = ENGINE__TO_OWNER, .game = ENGINE__GAME_ADVANCED,
     .since = ENGINE__RULE_SINCE(ENGINE__RULE_ADVANCED_WORTHLESS_KARAMA),
     .source = "LR 1.14.06, 2.02.22"},
    /* B1: one force free to the Polar Sink after another's off-planet shipment. */
    {.point = ENGINE__POINT_SHIPMENT_MADE, .faction = ENGINE_FACTION_BENE_GESSERIT,
     .to = ENGINE__TO_OWNER, .advantage = ENGINE_ADVANTAGE_BG_POLAR_SINK_SEND, .karama = ENGINE__KARAMA_CANCELS, .retake = ENGINE_ACTION_BG_SEND,
     .source = "LR 2.02.05"},
    /* B2, B3: the Voice, in the own battle or the ally's. */
    {.point = ENGINE__POINT_VOICE, .faction = ENGINE_FACTION_BENE_GESSERIT, .to = ENGINE__TO_OWNER,
     .advantage = ENGINE_ADVANTAGE_BG_VOICE, .karama = ENGINE__KARAMA_CANCELS, .retake = ENGINE_ACTION_VOICE_PASS, .source = "LR 2.02.06"},
    {.point = ENGINE__POINT_VOICE, .faction = ENGINE_FACTION_BENE_GESSERIT, .to = ENGINE__TO_ALLY,
     .advantage = ENGINE_ADVANTAGE_BG_ALLY_VOICE, .karama = ENGINE__KARAMA_CANCELS, .retake = ENGINE_ACTION_VOICE_PASS, .source = "LR 2.02.07"},
};

const engine__power_family engine__powers_bene_gesserit = {rows, sizeof rows / sizeof rows[0]};
