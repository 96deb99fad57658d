/*
 * nexus_harkonnen.c - the panels of the Harkonnen Nexus card (E3 p.11; the
 * digest's EXPANSIONS_AND_NEXUS.md 5.2 rows 13-15; docs/RULINGS.md R85,
 * R86) as power rows: engine/points.c offers them to the seat holding the
 * card, in the mode the card has for it. Cunning (row 14) is built: at any
 * safe boundary (R85) the Harkonnen draw a traitor card, then shuffle one
 * they hold back (engine/nexus.c: the draw and the record of what is owed,
 * then the return, which spends the card). Betrayal (13) cancels a traitor
 * the Harkonnen call, in the neutral Nexus window (rules version 7,
 * engine/nexus_window.c). Secret Ally (15, rules version 8) draws two
 * traitors in the Mentat Pause and returns two, in the Nexus window of the
 * holder's own moment (engine/nexus_moment.c; before version 8 named and
 * refused with its row). A row never mutates but through its `use`.
 */
#include "engine/internal.h"

/* Row 14: any time, with a traitor left in the deck and none owed. */
static int can_draw_one(const engine_state *st, unsigned owner, unsigned seat)
{
    (void)seat;
    return engine__nexus_can_draw_traitors(st, owner, 1);
}

/* Row 14 (E3 p.11 face): "draw a Traitor Card, then choose one held Traitor
 * Card to shuffle back" - the draw first (the seeds: in the order stated),
 * the return with nexus_traitor_return, which the seat owes before it does
 * anything else. */
static engine_verdict cunning(engine_verdict_detail *why, engine_state *st, unsigned owner,
                              const engine_action *act, engine_rng *rng)
{
    (void)rng;
    if (!engine__nexus_can_draw_traitors(st, owner, 1))
        return engine__reject(why, ENGINE_REJECT_NO_CARD, 0, act->arg[0]);
    engine__nexus_draw_traitors(st, owner, 1);
    return ENGINE_ACCEPTED;
}

/* Row 13 (digest 5.2; face: "cancel a traitor the Harkonnen just
 * revealed"), rules version 7, played in the neutral Nexus window over the
 * Harkonnen's traitor call: that traitor card goes back into the traitor
 * deck, shuffled, the Harkonnen are owed a replacement drawn in the Mentat
 * Pause (a record, G4: owed even once the battle is over), and the battle
 * resolves as if no traitor had been called (docs/RULINGS.md R123). */
static engine_verdict betrayal(engine_verdict_detail *why, engine_state *st, unsigned owner,
                               const engine_action *held, engine_rng *rng)
{
    int leader = engine__battle_traitor_of(st, held->seat);
    if (leader >= 0)
        engine__nexus_traitor_to_deck(st, held->seat, (unsigned)leader, rng);
    engine_effect e = {ENGINE_EFFECT_NEXUS_TRAITOR_OWED, ENGINE_FACTION_HARKONNEN, held->seat, 1,
                       ENGINE_EXPIRY_REPLACED, 0};
    (void)engine__effect_add(st, &e);
    return engine__nexus_stop(why, st, owner, held, rng);
}

/* Row 15 (E3 p.11 face: "draw two Traitor Cards, then shuffle two you
 * hold back"), rules version 8: played in the Nexus window of the holder's
 * own moment in the Mentat Pause (engine/nexus_moment.c; R141). Both drawn
 * first, then both returned (the seeds: in the order stated), with
 * nexus_traitor_return, which the seat owes before anything else and
 * whose last return spends the card. For the Tleilaxu the cards kept are
 * Face Dancers (E3 FAQ): that branch waits for the Tleilaxu. */
#define SECRET_ALLY_TRAITORS 2

static int can_draw_two(const engine_state *st, unsigned owner, unsigned seat)
{
    (void)seat;
    return st->seat[owner].faction != ENGINE_FACTION_TLEILAXU &&
           engine__nexus_can_draw_traitors(st, owner, SECRET_ALLY_TRAITORS);
}

static engine_verdict secret_ally(engine_verdict_detail *why, engine_state *st, unsigned owner,
                                  const engine_action *moment, engine_rng *rng)
{
    (void)rng;
    if (st->seat[owner].faction == ENGINE_FACTION_TLEILAXU) /* Face Dancers: not built */
        return engine__reject(why, ENGINE_REJECT_RULE_NOT_IMPLEMENTED, 1,
                              ENGINE_FACTION_TLEILAXU);
    if (st->phase != ENGINE_PHASE_MENTAT_PAUSE)
        return engine__reject(why, ENGINE_REJECT_WRONG_PHASE, 1, moment->arg[0]);
    if (!engine__nexus_can_draw_traitors(st, owner, SECRET_ALLY_TRAITORS))
        return engine__reject(why, ENGINE_REJECT_NO_CARD, 1, 15);
    engine__nexus_draw_traitors(st, owner, SECRET_ALLY_TRAITORS);
    return ENGINE_ACCEPTED;
}

static const engine_power_form betrayal_form = {.slug = "nexus_harkonnen_betrayal"};
static const engine_power_form cunning_form = {.slug = "nexus_harkonnen_cunning"};
static const engine_power_form secret_ally_form = {.slug = "nexus_harkonnen_secret_ally"};

static const engine__power_row rows[] = {
    ENGINE__NEXUS_NOT_BUILT_UNTIL_WINDOWS(ENGINE_FACTION_HARKONNEN, ENGINE_NEXUS_BETRAYAL,
                                          &betrayal_form),
    {.point = ENGINE__POINT_NEXUS_ANSWER, .faction = ENGINE_FACTION_HARKONNEN,
     .to = ENGINE__TO_OWNER, .since = ENGINE__RULE_SINCE(ENGINE__RULE_NEXUS_WINDOWS),
     .nexus = 1 + ENGINE_NEXUS_BETRAYAL, .fn = engine__nexus_at_traitor,
     .source = "E3 p.11; EXPANSIONS_AND_NEXUS.md 5.2 row 13 (docs/RULINGS.md R123)",
     .use = betrayal},
    {.point = ENGINE__POINT_POWER, .faction = ENGINE_FACTION_HARKONNEN, .to = ENGINE__TO_OWNER,
     .since = ENGINE__RULE_SINCE(ENGINE__RULE_NEXUS_PANELS), .nexus = 1 + ENGINE_NEXUS_CUNNING,
     .when = can_draw_one, .source = "E3 p.11, Harkonnen Nexus card (Cunning); digest 5.2 row 14",
     .form = &cunning_form, .use = cunning},
    ENGINE__NEXUS_RETURN_ROW(ENGINE_FACTION_HARKONNEN, ENGINE_NEXUS_CUNNING),
    ENGINE__NEXUS_NOT_BUILT_UNTIL(ENGINE_FACTION_HARKONNEN, ENGINE_NEXUS_SECRET_ALLY,
                                  &secret_ally_form, ENGINE__RULE_NEXUS_MOMENTS),
    {.point = ENGINE__POINT_NEXUS_ANSWER, .faction = ENGINE_FACTION_HARKONNEN,
     .to = ENGINE__TO_OWNER, .since = ENGINE__RULE_SINCE(ENGINE__RULE_NEXUS_MOMENTS),
     .nexus = 1 + ENGINE_NEXUS_SECRET_ALLY, .fn = engine__nexus_at_mentat_pause,
     .when = can_draw_two,
     .source = "E3 p.11, Harkonnen Nexus card (Secret Ally); digest 5.2 row 15 (R141)",
     .use = secret_ally},
    ENGINE__NEXUS_RETURN_ROW(ENGINE_FACTION_HARKONNEN, ENGINE_NEXUS_SECRET_ALLY),
};

const engine__power_family engine__nexus_harkonnen = {rows, sizeof rows / sizeof rows[0]};
