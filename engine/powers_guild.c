/*
 * powers_guild.c - the Spacing Guild's powers as rows (internal.h,
 * engine__power_row; DUNE_RULES_DIGEST.md 3.3, LR 2.06): what the phase
 * files ask of them at their rule points (engine/points.c). A row holds
 * facts and small functions over the state; it never mutates the state
 * and never names another family's faction.
 */
#include "engine/internal.h"

/* At the end of the last turn with no winner, when the Fremen have not
 * won, the Guild win (with their ally). */
static int default_victory(const engine_state *st, unsigned owner, unsigned seat, int value)
{
    (void)st;
    (void)owner;
    (void)seat;
    (void)value;
    return ENGINE_VICTORY_GUILD;
}

/* G7 (Advanced, rules version 7 on): the Guild takes its whole turn at
 * any one boundary of Shipment and Movement (LR 2.06.12). At each
 * boundary before its storm-order place the phase asks it whether it acts
 * now, at that place whether it delays; an answer at each boundary, not a
 * standing choice, so it decides on the board it sees (docs/RULINGS.md
 * R124). 0 keeps storm order: the default of a bot that knows no better. */
static const engine_power_form act_now_form = {
    .slug = ENGINE__WINDOW_TURN_NOW,
    .n_args = 1,
    .arg_name = {"act"},
    .arg_type = {ENGINE_ARG_INT},
    .lo = {0},
    .hi = {1},
    .fallback = {0},
};

static const engine_power_form delay_form = {
    .slug = ENGINE__WINDOW_TURN_DELAY,
    .n_args = 1,
    .arg_name = {"delay"},
    .arg_type = {ENGINE_ARG_INT},
    .lo = {0},
    .hi = {1},
    .fallback = {0},
};

/* Acting out of order (either answer 1) is held first: a Karama may stop
 * it (FAQ20 pp. 7-8), and the Guild then keeps its storm-order place. */
static engine_verdict timing_answer(engine_verdict_detail *why, engine_state *st, engine_frame *f,
                                    const engine_action *act, engine_rng *rng)
{
    (void)why;
    (void)f;
    (void)rng;
    if (act->arg[1] == 1)
        engine__karama_hold(st, act, ENGINE_ADVANTAGE_BIT(ENGINE_ADVANTAGE_GUILD_OUT_OF_TURN),
                            act->seat);
    return ENGINE_ACCEPTED;
}

static void timing_close(engine_state *st, const engine_frame *f, const engine_action *answer,
                         engine_rng *rng)
{
    (void)f;
    int stopped = engine__karama_consume(st, ENGINE_ADVANTAGE_GUILD_OUT_OF_TURN);
    engine__guild_turn_answered(st, answer->arg[1] == 1, stopped, rng);
}

#define GUILD .faction = ENGINE_FACTION_GUILD
#define FROM(change) .since = ENGINE__RULE_SINCE(ENGINE__RULE_##change)

static const engine__power_row rows[] = {
    /* G7: out of turn; the advantage a Karama stops, held as it is used. */
    {.point = ENGINE__POINT_SHIP_ANY_TIME, GUILD, .to = ENGINE__TO_OWNER,
     .game = ENGINE__GAME_ADVANCED, FROM(ADVANCED_GUILD_TIMING),
     .advantage = ENGINE_ADVANTAGE_GUILD_OUT_OF_TURN, .karama = ENGINE__KARAMA_STANDING,
     .source = "LR 2.06.12"},
    {.point = ENGINE__POINT_WINDOW, GUILD, .to = ENGINE__TO_OWNER, .game = ENGINE__GAME_ADVANCED,
     FROM(ADVANCED_GUILD_TIMING), .form = &act_now_form, .answer = timing_answer,
     .close = timing_close, .source = "LR 2.06.12.01"},
    {.point = ENGINE__POINT_WINDOW, GUILD, .to = ENGINE__TO_OWNER, .game = ENGINE__GAME_ADVANCED,
     FROM(ADVANCED_GUILD_TIMING), .form = &delay_form, .answer = timing_answer,
     .close = timing_close, .source = "LR 2.06.12.02"},
    /* Advanced, rules version 8 on: the faction Karama power, a shipment
     * cancelled as it is made (engine/karama_shipment.c). */
    {.point = ENGINE__POINT_WINDOW, GUILD, .to = ENGINE__TO_OWNER, .game = ENGINE__GAME_ADVANCED,
     FROM(ADVANCED_KARAMA_GUILD), .form = &engine__guild_stop_form, .answer = engine__guild_stop,
     .close = engine__guild_stopped, .legal = engine__guild_stop_legal, .source = "LR 1.14.05"},
    /* G1: the other factions pay the Guild for their shipments. */
    {.point = ENGINE__POINT_SHIPPING_PAYEE, .faction = ENGINE_FACTION_GUILD, .to = ENGINE__TO_OWNER,
     .advantage = ENGINE_ADVANTAGE_GUILD_PAYMENT, .karama = ENGINE__KARAMA_STANDING, .source = "LR 2.06.04"},
    /* G4, G5: half price, for the Guild and for its ally. */
    {.point = ENGINE__POINT_SHIPPING_HALF, .faction = ENGINE_FACTION_GUILD, .to = ENGINE__TO_OWNER,
     .advantage = ENGINE_ADVANTAGE_GUILD_HALF_PRICE, .karama = ENGINE__KARAMA_CANCELS, .source = "LR 2.06.06"},
    {.point = ENGINE__POINT_SHIPPING_HALF, .faction = ENGINE_FACTION_GUILD, .to = ENGINE__TO_ALLY,
     .advantage = ENGINE_ADVANTAGE_GUILD_ALLY_HALF_PRICE, .karama = ENGINE__KARAMA_CANCELS | ENGINE__KARAMA_BY_ALLY, .source = "LR 2.06.09"},
    /* G2, G6: site to site, for the Guild and for its ally. */
    {.point = ENGINE__POINT_SHIP_ACROSS, .faction = ENGINE_FACTION_GUILD, .to = ENGINE__TO_OWNER,
     .advantage = ENGINE_ADVANTAGE_GUILD_CROSS_SHIP, .karama = ENGINE__KARAMA_CANCELS, .source = "LR 2.06.05.02"},
    {.point = ENGINE__POINT_SHIP_ACROSS, .faction = ENGINE_FACTION_GUILD, .to = ENGINE__TO_ALLY,
     .advantage = ENGINE_ADVANTAGE_GUILD_ALLY_CROSS_SHIP, .karama = ENGINE__KARAMA_CANCELS | ENGINE__KARAMA_BY_ALLY, .source = "LR 2.06.10"},
    /* G3: back to reserves, the Guild's alone. */
    {.point = ENGINE__POINT_SHIP_BACK, .faction = ENGINE_FACTION_GUILD, .to = ENGINE__TO_OWNER,
     .advantage = ENGINE_ADVANTAGE_GUILD_SHIP_BACK, .karama = ENGINE__KARAMA_CANCELS, .source = "LR 2.06.05"},
    /* After the Fremen's special victory (order 0), before the Fremen's
     * default (order 2). */
    {.point = ENGINE__POINT_LAST_TURN, .faction = ENGINE_FACTION_GUILD, .to = ENGINE__TO_OWNER,
     .order = 1, .fn = default_victory, .source = "LR 2.06.08"},
};

const engine__power_family engine__powers_guild = {rows, sizeof rows / sizeof rows[0]};
