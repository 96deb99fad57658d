/*
 * karama_hand.c - the Harkonnen's Karama power (LR 1.14.04; Advanced,
 * rules version 8 on; docs/RULINGS.md R137): once a game, with a Karama
 * card spent, in the Bidding phase, the Harkonnen take another player's
 * whole hand, then give that player back as many cards as they took,
 * chosen freely from the Harkonnen hand (the cards just taken among them:
 * ADVANCED_RULES.md 8 item 26). Two steps: the power
 * `harkonnen_karama_hand` (naming the target) takes the hand at once and
 * opens the window `harkonnen_karama_return` over the step below, asking
 * the Harkonnen alone; each answer gives back one card, and the window
 * opens again until as many were given back as were taken. What the
 * window still owes is its held action (argument 2), so the swap keeps no
 * field of its own and a state outside it encodes as before.
 *
 * What each seat learns is the cards' known_by, as for every card that
 * changes hands (inspect/audit_marks.c: a card taken goes face down to its
 * holder, who sees it): the Harkonnen the hand they took, the target the
 * cards it gets back; nobody else learns a face. The rows are the
 * Harkonnen's (engine/powers_harkonnen.c); this file never names another
 * faction. Engine layer: no I/O, no allocation, no clock.
 */
#include "engine/internal.h"

#define SEAT_NONE 0xFF
#define ARG_OWED 2                 /* the held action's argument: cards still owed */

static int hand_window_id(void)
{
    return engine_window_id(engine__harkonnen_return_form.slug);
}

/* The target's seat the action names (a faction), or SEAT_NONE. */
static unsigned target_of(const engine_state *st, unsigned owner, int faction)
{
    int s = faction >= 0 && faction < ENGINE_FACTION_COUNT ? engine__seat_of(st, (unsigned)faction)
                                                           : -1;
    return s < 0 || (unsigned)s == owner || engine__hand_size(st, (unsigned)s) == 0
               ? SEAT_NONE
               : (unsigned)s;
}

int engine__harkonnen_hand_when(const engine_state *st, unsigned owner, unsigned seat)
{
    (void)owner;
    (void)seat;
    return st->phase == ENGINE_PHASE_BIDDING;
}

/* One family per other seat holding a card, while the power is ready and
 * a window can open. */
size_t engine__harkonnen_hand_legal(engine_legal *out, size_t cap, const engine_state *st,
                                    unsigned seat, int16_t id)
{
    size_t n = 0;
    if (!engine__karama_power_ready(st, seat) || st->n_frames >= ENGINE_FRAME_MAX)
        return 0;
    for (unsigned s = 0; s < st->config.n_seats; s++)
        if (target_of(st, seat, st->seat[s].faction) == s)
            engine__legal_push1(out, cap, &n, ENGINE_ACTION_POWER, (uint8_t)seat, id, id,
                                st->seat[s].faction, st->seat[s].faction);
    return n;
}

engine_verdict engine__harkonnen_hand(engine_verdict_detail *why, engine_state *st,
                                      unsigned owner, const engine_action *act, engine_rng *rng)
{
    (void)rng;
    if (st->karama_power_used & ENGINE_SEAT_BIT(owner))
        return engine__reject(why, ENGINE_REJECT_ALREADY_ANSWERED, 0, act->arg[0]);
    if (!engine__karama_power_ready(st, owner))
        return engine__reject(why, ENGINE_REJECT_NO_KARAMA, -1, 0);
    unsigned target = target_of(st, owner, act->arg[1]);
    if (target == SEAT_NONE || st->n_frames >= ENGINE_FRAME_MAX)
        return engine__reject(why, ENGINE_REJECT_ARG_OUT_OF_RANGE, 1, act->arg[1]);
    engine__karama_power_spend(st, owner);
    unsigned taken = 0;
    for (unsigned i = 0; i < st->n_cards; i++) {
        engine_card_state *c = &st->card[i];
        if (c->place != ENGINE_PLACE_HAND || c->holder != target)
            continue;
        c->holder = (uint8_t)owner;
        c->known_by |= (uint16_t)ENGINE_SEAT_BIT(owner);
        taken++;
    }
    engine_action held = *act;
    held.arg[ARG_OWED] = (int16_t)taken;
    engine__window_open(st, hand_window_id(), owner, target, &held, (uint16_t)ENGINE_SEAT_BIT(owner));
    return ENGINE_ACCEPTED;
}

/* The open give-back window (the top frame), or NULL. */
static const engine_frame *open_return(const engine_state *st)
{
    const engine_frame *f = engine_window_top(st);
    return f && f->point == ENGINE_WINDOW_GENERIC && f->window == hand_window_id() ? f : NULL;
}

size_t engine__harkonnen_return_legal(engine_legal *out, size_t cap, const engine_state *st,
                                      unsigned seat, int16_t id)
{
    size_t n = 0;
    if (open_return(st) == NULL)
        return 0;
    for (unsigned i = 0; i < st->n_cards; i++)
        if (st->card[i].place == ENGINE_PLACE_HAND && st->card[i].holder == seat)
            engine__legal_push1(out, cap, &n, ENGINE_ACTION_ANSWER, (uint8_t)seat, id, id, (int)i,
                                (int)i);
    return n;
}

engine_verdict engine__harkonnen_return(engine_verdict_detail *why, engine_state *st,
                                        engine_frame *f, const engine_action *act, engine_rng *rng)
{
    (void)rng;
    int card = act->arg[1];
    if (card >= st->n_cards || st->card[card].place != ENGINE_PLACE_HAND ||
        st->card[card].holder != act->seat)
        return engine__reject(why, ENGINE_REJECT_ARG_OUT_OF_RANGE, 1, card);
    st->card[card].holder = f->user;
    st->card[card].known_by |= (uint16_t)ENGINE_SEAT_BIT(f->user);
    return ENGINE_ACCEPTED;
}

/* One card given back: the window opens again while more are owed. */
void engine__harkonnen_returned(engine_state *st, const engine_frame *f,
                                const engine_action *answer, engine_rng *rng)
{
    (void)answer;
    (void)rng;
    engine_action held = f->held;
    held.arg[ARG_OWED] = (int16_t)(held.arg[ARG_OWED] - 1);
    if (held.arg[ARG_OWED] > 0)
        engine__window_open(st, hand_window_id(), f->owner, f->user, &held, f->asked);
}

unsigned engine__karama_hand_owed(const engine_state *st, unsigned seat)
{
    for (unsigned i = 0; i < st->n_frames; i++) {
        const engine_frame *f = &st->frame[i];
        if (f->point == ENGINE_WINDOW_GENERIC && f->window == hand_window_id() &&
            f->owner == seat && f->user < st->config.n_seats && f->user != seat &&
            f->held.arg[ARG_OWED] > 0 &&
            f->held.arg[ARG_OWED] <= engine__factions[st->seat[f->user].faction].hand_limit)
            return (unsigned)f->held.arg[ARG_OWED];
    }
    return 0;
}

const engine_power_form engine__harkonnen_hand_form = ENGINE__TARGET_FORM("harkonnen_karama_hand");

const engine_power_form engine__harkonnen_return_form = {
    .slug = "harkonnen_karama_return",
    .n_args = 1,
    .arg_name = {"card"},
    .arg_type = {ENGINE_ARG_CARD},
    .lo = {0},
    .hi = {ENGINE_TREACHERY_MAX - 1},
    .fallback = {0},
};
