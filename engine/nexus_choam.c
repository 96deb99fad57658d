/*
 * nexus_choam.c - the panels of the CHOAM Nexus card (E3 p.11; the
 * digest's EXPANSIONS_AND_NEXUS.md 5.2 rows 25-27; docs/RULINGS.md R151, R153;
 * the card's readable reference is engine/data/nexus_cards.c) as power and
 * window rows: engine/points.c offers them to the seat holding the card,
 * in the mode the card has for it. The Secret Ally's (a) (row 27, from
 * rules version 8): as Spice Collection ends, one window asks every seat
 * that could, from public facts, hold the card and a worthless card the
 * same question (pass, or discard a card); only the holder may discard,
 * a worthless card of its own, for 2 spice from the bank. Its (b): after
 * a battle won, the winner is asked when it could hold the card and the
 * loser holds a card; the holder alone may look, and secretly sees one
 * random card of the loser's hand (its played ones are discarded by
 * then). The Betrayal (25) and the Cunning (26) are named and refused
 * with their rows.
 * A row never mutates but through its `use` or `answer`, and never names
 * another card's panel.
 */
#include "engine/internal.h"
#include "engine/phase.h"

#define WORTHLESS_SPICE 2 /* the face: "discard a worthless card for 2 spice" */

static const engine_power_form worthless_form = {
    .slug = "nexus_worthless", .n_args = 1,
    .arg_name = {"card"}, .arg_type = {ENGINE_ARG_CARD},
    .lo = {-1}, .hi = {ENGINE_TREACHERY_MAX - 1},
    .fallback = {-1}, /* none: pass */
};

/* 1 if `seat` holds this card as its Secret Ally. */
static int holds_secret_ally(const engine_state *st, unsigned seat)
{
    return engine__nexus_holds_as(st, seat, ENGINE_FACTION_CHOAM, ENGINE_NEXUS_SECRET_ALLY);
}

/* 1 if card `i` is a worthless card in `seat`'s hand. */
static int worthless_held(const engine_state *st, unsigned seat, int i)
{
    return i >= 0 && (unsigned)i < st->n_cards && st->card[i].place == ENGINE_PLACE_HAND &&
           st->card[i].holder == seat && st->card_kind[i] < ENGINE_CARD_KIND_COUNT &&
           (engine_card_kind_classes(st->card_kind[i]) & ENGINE_CARD_CLASS_WORTHLESS);
}

/* From public facts alone, whether `seat` could play (a) now: it could
 * hold the card, and it holds a treachery card (how many is public). */
static int could_discard(const engine_state *st, unsigned seat)
{
    if (!engine__nexus_could_hold(st, seat, ENGINE_FACTION_CHOAM, ENGINE_NEXUS_SECRET_ALLY))
        return 0;
    for (unsigned i = 0; i < st->n_cards; i++)
        if (st->card[i].place == ENGINE_PLACE_HAND && st->card[i].holder == seat)
            return 1;
    return 0;
}

int engine__nexus_collection_ask(engine_state *st)
{
    if (!engine__nexus_in_force(st, ENGINE__RULE_NEXUS_WORTHLESS_SPICE))
        return 0;
    uint16_t asked = 0;
    for (unsigned s = 0; s < st->config.n_seats; s++)
        if (could_discard(st, s))
            asked |= (uint16_t)ENGINE_SEAT_BIT(s);
    return asked != 0 && engine__window_open(st, engine_window_id(worthless_form.slug),
                                             0, 0,
                                             NULL, asked) != NULL;
}

/* Row 27 (a): "discard a worthless card for 2 spice" (R151); -1 passes. */
static engine_verdict worthless_answer(engine_verdict_detail *why, engine_state *st,
                                       engine_frame *f, const engine_action *act,
                                       engine_rng *rng)
{
    (void)f;
    (void)rng;
    int card = act->arg[1];
    if (card == -1)
        return ENGINE_ACCEPTED;
    if (!holds_secret_ally(st, act->seat))
        return engine__reject(why, ENGINE_REJECT_CARD_NOT_HELD, 0, act->arg[0]);
    if (!worthless_held(st, act->seat, card))
        return engine__reject(why, ENGINE_REJECT_ARG_OUT_OF_RANGE, 1, card);
    engine__treachery_discard(st, (unsigned)card);
    st->seat[act->seat].spice = (uint16_t)(st->seat[act->seat].spice + WORTHLESS_SPICE);
    st->spice_minted += WORTHLESS_SPICE;
    engine__nexus_spend(st, act->seat);
    return ENGINE_ACCEPTED;
}

/* Pass for every seat asked; a family per worthless card for the holder
 * alone (its legal actions are its own). */
static size_t worthless_legal(engine_legal *out, size_t cap, const engine_state *st,
                              unsigned seat, int16_t id)
{
    size_t n = 0;
    engine__legal_push1(out, cap, &n, ENGINE_ACTION_ANSWER, (uint8_t)seat, id, id, -1, -1);
    for (unsigned i = 0; holds_secret_ally(st, seat) && i < st->n_cards; i++)
        if (worthless_held(st, seat, (int)i))
            engine__legal_push1(out, cap, &n, ENGINE_ACTION_ANSWER, (uint8_t)seat, id, id,
                                (int)i, (int)i);
    return n;
}

static void worthless_close(engine_state *st, const engine_frame *f, const engine_action *answer,
                            engine_rng *rng)
{
    (void)f;
    (void)answer;
    engine__mentat_pause_begin(st, rng);
}

/* Row 27 (b): after a battle won, the winner (the battle's winning
 * side) is asked when it could hold the card and the loser holds a
 * treachery card; how many it holds is public. */
static const engine_power_form glimpse_form = {
    .slug = "nexus_glimpse", .n_args = 1,
    .arg_name = {"look"}, .arg_type = {ENGINE_ARG_INT},
    .lo = {0}, .hi = {1}, .fallback = {0}, /* 0: pass */
};

/* The loser's cards in hand: those it did not use in the battle (its
 * played ones are discarded by now); `pick` (< the count) chosen, or -1. */
static int loser_card(const engine_state *st, unsigned *count, unsigned pick)
{
    unsigned loser = st->battle_seat[1 - st->battle_winner], n = 0;
    int chosen = -1;
    for (unsigned i = 0; i < st->n_cards; i++)
        if (st->card[i].place == ENGINE_PLACE_HAND && st->card[i].holder == loser &&
            n++ == pick)
            chosen = (int)i;
    *count = n;
    return chosen;
}

int engine__nexus_battle_won_ask(engine_state *st)
{
    unsigned count = 0;
    if (!engine__nexus_in_force(st, ENGINE__RULE_NEXUS_GLIMPSE) || st->battle_winner > 1)
        return 0;
    unsigned winner = st->battle_seat[st->battle_winner];
    (void)loser_card(st, &count, 0);
    if (count == 0 || winner >= st->config.n_seats ||
        !engine__nexus_could_hold(st, winner, ENGINE_FACTION_CHOAM, ENGINE_NEXUS_SECRET_ALLY))
        return 0;
    return engine__window_open(st, engine_window_id(glimpse_form.slug), winner, winner, NULL,
                               ENGINE_SEAT_BIT(winner)) != NULL;
}

/* "Secretly see one random card of the loser's hand not used in that
 * battle" (R153): drawn by the engine, seen by the holder alone (its
 * known_by; the audit counts it as told). */
static engine_verdict glimpse_answer(engine_verdict_detail *why, engine_state *st, engine_frame *f,
                                     const engine_action *act, engine_rng *rng)
{
    (void)f;
    if (act->arg[1] == 0)
        return ENGINE_ACCEPTED;
    if (!holds_secret_ally(st, act->seat))
        return engine__reject(why, ENGINE_REJECT_CARD_NOT_HELD, 0, act->arg[0]);
    unsigned count = 0;
    (void)loser_card(st, &count, 0);
    int card = loser_card(st, &count, engine_rng_uniform(rng, count));
    if (card >= 0) /* the window opens only while the loser holds one */
        st->card[card].known_by |= (uint16_t)ENGINE_SEAT_BIT(act->seat);
    engine__nexus_spend(st, act->seat);
    return ENGINE_ACCEPTED;
}

static size_t glimpse_legal(engine_legal *out, size_t cap, const engine_state *st, unsigned seat,
                            int16_t id)
{
    return engine__nexus_yes_no_legal(out, cap, st, seat, id, ENGINE_FACTION_CHOAM);
}

static void glimpse_close(engine_state *st, const engine_frame *f, const engine_action *answer,
                          engine_rng *rng)
{
    (void)f;
    (void)answer;
    engine__battle_next(st, rng);
}

static const engine_power_form betrayal_form = {.slug = "nexus_choam_betrayal"};
static const engine_power_form cunning_form = {.slug = "nexus_choam_cunning"};
static const engine_power_form secret_ally_form = {.slug = "nexus_choam_secret_ally"};

static const engine__power_row rows[] = {
    ENGINE__NEXUS_NOT_BUILT(ENGINE_FACTION_CHOAM, ENGINE_NEXUS_BETRAYAL, &betrayal_form),
    ENGINE__NEXUS_NOT_BUILT(ENGINE_FACTION_CHOAM, ENGINE_NEXUS_CUNNING, &cunning_form),
    /* Secret Ally (row 27): named until rules version 8, then played in the
     * windows below, (a) and (b), never as a power */
    ENGINE__NEXUS_NOT_BUILT_UNTIL(ENGINE_FACTION_CHOAM, ENGINE_NEXUS_SECRET_ALLY,
                                  &secret_ally_form, ENGINE__RULE_NEXUS_WORTHLESS_SPICE),
    {.point = ENGINE__POINT_WINDOW, .faction = ENGINE_FACTION_CHOAM, .to = ENGINE__TO_OWNER,
     .since = ENGINE__RULE_SINCE(ENGINE__RULE_NEXUS_WORTHLESS_SPICE),
     .nexus = 1 + ENGINE_NEXUS_SECRET_ALLY,
     .source = "E3 p.11, CHOAM Nexus card (Secret Ally, a); digest 5.2 row 27",
     .form = &worthless_form, .legal = worthless_legal, .answer = worthless_answer,
     .close = worthless_close},
    {.point = ENGINE__POINT_WINDOW, .faction = ENGINE_FACTION_CHOAM, .to = ENGINE__TO_OWNER,
     .since = ENGINE__RULE_SINCE(ENGINE__RULE_NEXUS_GLIMPSE),
     .nexus = 1 + ENGINE_NEXUS_SECRET_ALLY,
     .source = "E3 p.11, CHOAM Nexus card (Secret Ally, b); digest 5.2 row 27",
     .form = &glimpse_form, .legal = glimpse_legal, .answer = glimpse_answer,
     .close = glimpse_close},
};

const engine__power_family engine__nexus_choam = {rows, sizeof rows / sizeof rows[0]};
