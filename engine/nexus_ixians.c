/*
 * nexus_ixians.c - the panels of the Ixian Nexus card (E3 p.11; the
 * digest's EXPANSIONS_AND_NEXUS.md 5.2 rows 19-21; seed 004;
 * docs/RULINGS.md R152; the card's readable reference is
 * engine/data/nexus_cards.c) as power and window rows: engine/points.c
 * offers them to the seat holding the card, in the mode the card has for
 * it. The Secret Ally (row 21, from rules version 8): right after a
 * genuine purchase (every card the auction sells, paid or bought with a
 * Karama; not the Harkonnen's free card, not a gift), one window asks the
 * buyer if it could, from public facts, hold the card; only the holder
 * may discard the card it just bought and draw the deck top in its place
 * (a full hand allowed; an empty deck reshuffles the discard, which may
 * give the same card back). The Betrayal (19) and the Cunning (20) are
 * named and refused with their rows. A row never mutates but through its
 * `use` or `answer`, and never names another card's panel.
 */
#include "engine/internal.h"
#include "engine/phase.h"

#define CARD_NONE 0xFF

static const engine_power_form replace_form = {
    .slug = "nexus_replace", .n_args = 1,
    .arg_name = {"replace"}, .arg_type = {ENGINE_ARG_INT},
    .lo = {0}, .hi = {1}, .fallback = {0}, /* 0: keep the card bought */
};

static int holds_secret_ally(const engine_state *st, unsigned seat)
{
    return engine__nexus_holds_as(st, seat, ENGINE_FACTION_IXIANS, ENGINE_NEXUS_SECRET_ALLY);
}

/* The card the auction just sold, still in the buyer's hand, or -1. */
static int just_bought(const engine_state *st, unsigned buyer)
{
    if (st->auction_index == 0 || st->auction_index > st->n_auction)
        return -1;
    unsigned card = st->auction[st->auction_index - 1u];
    return card < st->n_cards && st->card[card].place == ENGINE_PLACE_HAND &&
                   st->card[card].holder == buyer
               ? (int)card
               : -1;
}

int engine__nexus_purchase_ask(engine_state *st, unsigned buyer)
{
    if (!engine__nexus_in_force(st, ENGINE__RULE_NEXUS_REPLACEMENT) ||
        buyer >= st->config.n_seats || just_bought(st, buyer) < 0 ||
        !engine__nexus_could_hold(st, buyer, ENGINE_FACTION_IXIANS, ENGINE_NEXUS_SECRET_ALLY))
        return 0;
    return engine__window_open(st, engine_window_id(replace_form.slug), buyer, buyer, NULL,
                               ENGINE_SEAT_BIT(buyer)) != NULL;
}

/* Row 21: "discard the treachery card you just bought and draw the top
 * card of the deck" (R152): discarded first, face up, then the deck top
 * drawn (reshuffling the discard when the deck is empty), seen by the
 * holder alone; no refund; not a purchase (no Harkonnen card for it). */
static engine_verdict replace_answer(engine_verdict_detail *why, engine_state *st,
                                     engine_frame *f, const engine_action *act, engine_rng *rng)
{
    (void)f;
    if (act->arg[1] == 0)
        return ENGINE_ACCEPTED;
    int card = just_bought(st, act->seat);
    if (!holds_secret_ally(st, act->seat))
        return engine__reject(why, ENGINE_REJECT_CARD_NOT_HELD, 0, act->arg[0]);
    if (card < 0) /* the window asks only the buyer of a card it holds */
        return engine__reject(why, ENGINE_REJECT_WRONG_STEP, -1, 0);
    uint16_t known = st->card[card].known_by;
    engine__treachery_discard(st, (unsigned)card);
    unsigned drawn = engine__treachery_draw(st, rng);
    if (drawn != CARD_NONE) { /* the discard holds at least the card just put there */
        st->card[drawn].place = ENGINE_PLACE_HAND;
        st->card[drawn].holder = (uint8_t)act->seat;
        /* What others knew of the card drawn stays (R129); the card just
         * discarded, redrawn at once from a deck of it alone, is known as
         * it was. */
        if (drawn == (unsigned)card)
            st->card[drawn].known_by = known;
        st->card[drawn].known_by |= (uint16_t)ENGINE_SEAT_BIT(act->seat);
    }
    engine__nexus_spend(st, act->seat);
    return ENGINE_ACCEPTED;
}

/* Keep for the buyer asked; the replacement for the holder alone. */
static size_t replace_legal(engine_legal *out, size_t cap, const engine_state *st, unsigned seat,
                            int16_t id)
{
    return engine__nexus_yes_no_legal(out, cap, st, seat, id, ENGINE_FACTION_IXIANS);
}

static void replace_close(engine_state *st, const engine_frame *f, const engine_action *answer,
                          engine_rng *rng)
{
    (void)f;
    (void)answer;
    engine__bidding_card_up(st, rng);
}

static const engine_power_form betrayal_form = {.slug = "nexus_ixians_betrayal"};
static const engine_power_form cunning_form = {.slug = "nexus_ixians_cunning"};
static const engine_power_form secret_ally_form = {.slug = "nexus_ixians_secret_ally"};

static const engine__power_row rows[] = {
    ENGINE__NEXUS_NOT_BUILT(ENGINE_FACTION_IXIANS, ENGINE_NEXUS_BETRAYAL, &betrayal_form),
    ENGINE__NEXUS_NOT_BUILT(ENGINE_FACTION_IXIANS, ENGINE_NEXUS_CUNNING, &cunning_form),
    /* Secret Ally (row 21): named until rules version 8, then played in the
     * window below after a purchase, never as a power */
    ENGINE__NEXUS_NOT_BUILT_UNTIL(ENGINE_FACTION_IXIANS, ENGINE_NEXUS_SECRET_ALLY,
                                  &secret_ally_form, ENGINE__RULE_NEXUS_REPLACEMENT),
    {.point = ENGINE__POINT_WINDOW, .faction = ENGINE_FACTION_IXIANS, .to = ENGINE__TO_OWNER,
     .since = ENGINE__RULE_SINCE(ENGINE__RULE_NEXUS_REPLACEMENT),
     .nexus = 1 + ENGINE_NEXUS_SECRET_ALLY,
     .source = "E3 p.11, Ixian Nexus card (Secret Ally); seed 004; digest 5.2 row 21",
     .form = &replace_form, .legal = replace_legal, .answer = replace_answer,
     .close = replace_close},
};

const engine__power_family engine__nexus_ixians = {rows, sizeof rows / sizeof rows[0]};
