/*
 * karama_card.c - which card a seat would spend as a Karama card: a
 * Karama, or, for the seat holding the row at ENGINE__POINT_WORTHLESS_KARAMA
 * (the Bene Gesserit of an Advanced room, rules version 7 on:
 * engine/powers_bene_gesserit.c), a worthless card (LR 1.14.06, 2.02.22).
 * Every use of a Karama asks this one question (the Karama window's
 * cancel, a shipment at the Guild's rate for oneself or another seat, a
 * bid beyond one's spice, a card taken free, a faction Karama power), so
 * the legal families and engine_apply agree. And the faction Karama
 * powers' once-a-game record (LR 1.14.00), a seat mask of the Advanced
 * block, public: the powers themselves are rows of their families
 * (engine/powers_*.c) that spend the card here. Reads hidden hands:
 * callers that must stay public (who a window asks) ask hand sizes
 * instead. Engine layer: no I/O, no allocation, no clock; only
 * engine__karama_power_spend mutates the state, and it names no faction.
 */
#include "engine/internal.h"

#define CARD_NONE 0xFF

unsigned engine__karama_card_except(const engine_state *st, unsigned seat, unsigned except)
{
    if (seat >= st->config.n_seats)
        return CARD_NONE;
    /* A worthless card first: it has no other use, and the Karama kept
     * serves the same uses later (docs/RULINGS.md R113). */
    if (engine__point_holds(st, ENGINE__POINT_WORTHLESS_KARAMA, seat))
        for (unsigned i = 0; i < st->n_cards; i++)
            if (i != except && st->card[i].place == ENGINE_PLACE_HAND &&
                st->card[i].holder == seat && st->card_kind[i] < ENGINE_CARD_KIND_COUNT &&
                (engine_card_kind_classes(st->card_kind[i]) & ENGINE_CARD_CLASS_WORTHLESS))
                return i;
    for (unsigned i = 0; i < st->n_cards; i++)
        if (i != except && st->card[i].place == ENGINE_PLACE_HAND && st->card[i].holder == seat &&
            st->card_kind[i] == ENGINE_CARD_KARAMA)
            return i;
    return CARD_NONE;
}

unsigned engine_karama_card(const engine_state *st, unsigned seat)
{
    return engine__karama_card_except(st, seat, CARD_NONE);
}

/* ================================================ faction Karama powers */

int engine__karama_powers_carried(const engine_state *st)
{
    return engine__advanced(st) && engine__rule(st, ENGINE__RULE_ADVANCED_KARAMA_EMPEROR);
}

int engine__karama_power_ready(const engine_state *st, unsigned seat)
{
    return engine__karama_powers_carried(st) && seat < st->config.n_seats &&
           !(st->karama_power_used & ENGINE_SEAT_BIT(seat)) &&
           engine_karama_card(st, seat) != CARD_NONE;
}

void engine__karama_power_spend(engine_state *st, unsigned seat)
{
    engine__treachery_discard(st, engine_karama_card(st, seat));
    st->karama_power_used |= ENGINE_SEAT_BIT(seat);
}
