/*
 * karama_shipment.c - the Spacing Guild's Karama power (LR 1.14.05;
 * Advanced, rules version 8 on; docs/RULINGS.md R138): once a game, with a
 * Karama card spent, in the Shipment and Movement phase, "cancel one
 * off-planet shipment of any one player", as it is made. Every shipment
 * from reserves by another seat (a `ship`, or a `ship_karama_from` its
 * payer agreed to pay), checked in full and past its Karama window, is
 * held in the window `guild_karama_stop`, asking the row's owner alone
 * while its power is unused and it holds any card (hand sizes are public,
 * so being asked says nothing of a Karama, R57). Allowed, the shipment is
 * made as it was; cancelled, nothing of it happens (the forces stay in
 * reserves, no spice is paid, a Karama meant to pay for it is kept) and
 * the shipper's shipment for the turn is spent: it goes on to its move.
 * The Fremen send, a cross-ship and a shipment back to reserves are not
 * off-planet shipments and are never held.
 *
 * The window's held action is the shipment, so nothing is added to the
 * state. The rows are the Guild's (engine/powers_guild.c); this file names
 * no faction. Engine layer: no I/O, no allocation, no clock.
 */
#include "engine/internal.h"

#define CARD_NONE 0xFF

static int stop_window_id(void)
{
    return engine_window_id(engine__guild_stop_form.slug);
}

/* 1 while this window or the Bene Gesserit's Intrusion window resumes:
 * the shipment being made was allowed here, or was asked here before the
 * Intrusion held it (engine__ship asks this window first), so it is not
 * held again. */
static int resuming_here(const engine_state *st)
{
    int16_t intrusion = engine_window_id(ENGINE__WINDOW_INTRUSION);
    for (unsigned i = 0; i < st->n_frames; i++)
        if (st->frame[i].is_resuming && st->frame[i].point == ENGINE_WINDOW_GENERIC &&
            (st->frame[i].window == stop_window_id() ||
             st->frame[i].window == (uint16_t)intrusion))
            return 1;
    return 0;
}

int engine__guild_stop_hold(engine_state *st, const engine_action *shipment)
{
    const engine__power_row *r = engine__generic_window(st, stop_window_id());
    if (r == NULL || resuming_here(st))
        return 0;
    int owner = engine__seat_of(st, r->faction);
    if (owner < 0 || (unsigned)owner == shipment->seat ||
        (st->karama_power_used & ENGINE_SEAT_BIT((unsigned)owner)) ||
        !engine__holds_cards(st, (unsigned)owner))
        return 0;
    return engine__window_open(st, stop_window_id(), shipment->seat, (unsigned)owner, shipment,
                               (uint16_t)ENGINE_SEAT_BIT((unsigned)owner)) != NULL;
}

/* Allowing, always; cancelling, with a Karama to spend. */
size_t engine__guild_stop_legal(engine_legal *out, size_t cap, const engine_state *st,
                                unsigned seat, int16_t id)
{
    size_t n = 0;
    int most = engine_karama_card(st, seat) != CARD_NONE;
    engine__legal_push1(out, cap, &n, ENGINE_ACTION_ANSWER, (uint8_t)seat, id, id, 0, most);
    return n;
}

engine_verdict engine__guild_stop(engine_verdict_detail *why, engine_state *st, engine_frame *f,
                                  const engine_action *act, engine_rng *rng)
{
    (void)f;
    (void)rng;
    if (act->arg[1] == 1 && engine_karama_card(st, act->seat) == CARD_NONE)
        return engine__reject(why, ENGINE_REJECT_NO_KARAMA, 1, act->arg[1]);
    return ENGINE_ACCEPTED;
}

void engine__guild_stopped(engine_state *st, const engine_frame *f, const engine_action *answer,
                           engine_rng *rng)
{
    if (answer->arg[1] != 1) {
        engine__shipment_made_held(st, &f->held, rng);
        return;
    }
    engine__karama_power_spend(st, answer->seat);
    engine__shipment_cancelled(st, &f->held);
}

const engine_power_form engine__guild_stop_form = {
    .slug = "guild_karama_stop",
    .n_args = 1,
    .arg_name = {"cancel"},
    .arg_type = {ENGINE_ARG_INT},
    .lo = {0},
    .hi = {1},
    .fallback = {0},
};
