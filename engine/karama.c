/*
 * karama.c - the Karama window: a Karama card cancels one use of a faction
 * advantage the rules mark with a star, when that faction attempts it
 * (LR 3.01.11.01; docs/RULINGS.md "Karama"). The power row granting an
 * advantage says whether and how a Karama cancels it (engine/powers_*.c,
 * its `karama` and `retake` columns); the phases call engine__karama_hold
 * with the advantages their rule points name at the moment a power is
 * used, and this file does the rest.
 *
 * A window (a frame of point KARAMA, engine/frame.c) opens when an action
 * that uses an advantage has been checked in full: the action is held in
 * the frame, not applied, and the game waits on every seat holding any
 * treachery card (hand sizes are public) but the advantage's owner and, for
 * an alliance advantage, the ally using it (from rules version 3, only
 * those whose standing policy asks). If no seat is left, there is no
 * window. Every asked seat allows or cancels: the first cancel closes the
 * window, all allowing applies the held action as it was. A cancel of an
 * advantage that changes the action drops the held action and asks the
 * same seat again at the same step, where the advantage is now unavailable
 * (an ENGINE_EFFECT_CANCELLED record); one that only changes who is paid
 * or what is gained applies the held action without it.
 *
 * Invariants: (1) a window is public: what it offers, whose power, the held
 * action and the seats asked follow from public facts, and being asked says
 * nothing of a seat's hand; (2) KARAMA_ALLOW is always legal for an asked
 * seat, so a window never stalls; (3) a held action was accepted by its
 * handler in the state it is resumed in (allowing changes nothing), so
 * resuming it cannot fail; (4) every CANCELLED record names the one seat
 * that must retake its action, and they are removed when that seat acts or
 * the phase ends (a shipment it proposes with another seat's Karama acts
 * once that seat pays, not before).
 */
#include <assert.h>
#include <string.h>

#include "engine/phase.h"

#define SEAT_NONE 0xFF
#define CARD_NONE 0xFF

/* The row granting an advantage says whether and how a Karama cancels it
 * (internal.h ENGINE__KARAMA_*): its faction, whether the owner's ally
 * uses it, whether the held action stands without it, and the action
 * retaken in its place. */
_Static_assert(ENGINE_ADVANTAGE_COUNT <= 32 && ENGINE_ADVANTAGE_BASIC_COUNT <= ENGINE_ADVANTAGE_COUNT,
               "advantages fit a 32-bit mask");

static const engine__power_row *row_of(unsigned advantage)
{
    const engine__power_row *r = engine__advantage_row(advantage);
    assert(r != NULL && (r->karama & ENGINE__KARAMA_CANCELS));
    return r;
}

int engine__karama_cancelled(const engine_state *st, unsigned advantage)
{
    return (engine_effect_sources(st, ENGINE_EFFECT_CANCELLED) & ENGINE_ADVANTAGE_BIT(advantage)) != 0;
}

/* The seat that must retake its action without the cancelled advantages
 * (every record names the same one), SEAT_NONE for none. */
static unsigned retake_seat(const engine_state *st)
{
    const engine_effect *e = engine_effect_find(st, ENGINE_EFFECT_CANCELLED);
    return e ? e->owner : SEAT_NONE;
}

/* The lowest advantage in `offered`, a non-empty mask of advantages: its
 * row names the faction owning every one of them. */
static unsigned first_advantage(uint32_t offered)
{
    unsigned first = 1;
    while (!(offered & ENGINE_ADVANTAGE_BIT(first)))
        first++;
    return first;
}

/* ================================================ the standing policy */

/* The advantages used against one side of a battle (the Advanced ones
 * exist from rules version 7 only, the elite's and BATTLE HARDENED from
 * version 8). */
#define BATTLE_ADVANTAGES                                              \
    (ENGINE_ADVANTAGE_BIT(ENGINE_ADVANTAGE_ATREIDES_PRESCIENCE) |      \
     ENGINE_ADVANTAGE_BIT(ENGINE_ADVANTAGE_ATREIDES_ALLY_PRESCIENCE) | \
     ENGINE_ADVANTAGE_BIT(ENGINE_ADVANTAGE_BG_VOICE) |                 \
     ENGINE_ADVANTAGE_BIT(ENGINE_ADVANTAGE_BG_ALLY_VOICE) |            \
     ENGINE_ADVANTAGE_BIT(ENGINE_ADVANTAGE_ATREIDES_KH) |              \
     ENGINE_ADVANTAGE_BIT(ENGINE_ADVANTAGE_EMPEROR_SARDAUKAR) |        \
     ENGINE_ADVANTAGE_BIT(ENGINE_ADVANTAGE_FREMEN_FEDAYKIN) |          \
     ENGINE_ADVANTAGE_BIT(ENGINE_ADVANTAGE_FREMEN_BATTLE_HARDENED) |   \
     ENGINE_ADVANTAGE_BIT(ENGINE_ADVANTAGE_HARKONNEN_CAPTURE))

/* 1 if `seat`'s standing policy asks it about one of `offered`: from rules
 * version 3 on a window asks only the seats whose policy wants one of its
 * advantages (a public choice, made whatever the seat holds); under
 * version 2 every seat holding a card was asked. */
static int wants(const engine_state *st, unsigned seat, uint32_t offered, unsigned user)
{
    if (!engine__rule(st, ENGINE__RULE_KARAMA_POLICY) || (st->karama_ask[seat] & offered))
        return 1;
    /* Used against the seat: a battle advantage in its own battle, on the
     * side neither the user nor the user's ally is on (public facts). */
    return (st->karama_ask_own[seat] & offered & BATTLE_ADVANTAGES) &&
           st->phase == ENGINE_PHASE_BATTLE &&
           (seat == st->battle_seat[0] || seat == st->battle_seat[1]) && seat != user &&
           st->ally[user] != seat;
}

#define POLICY_HALF 10             /* advantages per argument: 1..10, then 11..20 */
#define POLICY_HALF_MAX ((1 << POLICY_HALF) - 1)
_Static_assert(2 * POLICY_HALF == ENGINE_ADVANTAGE_BASIC_COUNT - 1,
               "two arguments cover the Basic advantages");
_Static_assert(ENGINE_ADVANTAGE_COUNT - ENGINE_ADVANTAGE_BASIC_COUNT <= 15,
               "one 15-bit argument covers the appended advantages");

/* An Advanced room of rules version 7 on offers the Advanced advantages
 * whose rows are in force in it (a later version's only from that
 * version: the Harkonnen's capture from 8). */
uint32_t engine_karama_offered(const engine_state *st)
{
    if (!engine__rule(st, ENGINE__RULE_ADVANCED_KARAMA) || !engine__advanced(st))
        return ENGINE_ADVANTAGE_BASIC;
    uint32_t offered = ENGINE_ADVANTAGE_BASIC;
    for (unsigned a = ENGINE_ADVANTAGE_BASIC_COUNT; a < ENGINE_ADVANTAGE_COUNT; a++) {
        const engine__power_row *r = engine__advantage_row(a);
        if (r && engine__row_in_force(st, r))
            offered |= ENGINE_ADVANTAGE_BIT(a);
    }
    return offered;
}

void engine_karama_policy_masks(uint32_t *ask_out, uint32_t *own_out, const engine_action *act)
{
    uint32_t a[6];
    for (unsigned i = 0; i < 6; i++)
        a[i] = (uint16_t)act->arg[i];
    *ask_out = (a[0] << 1 | a[1] << (1 + POLICY_HALF) | a[4] << ENGINE_ADVANTAGE_BASIC_COUNT) &
               ENGINE_ADVANTAGE_ALL;
    *own_out = (a[2] << 1 | a[3] << (1 + POLICY_HALF) | a[5] << ENGINE_ADVANTAGE_BASIC_COUNT) &
               ENGINE_ADVANTAGE_ALL;
}

void engine_karama_policy_set(engine_action *act, uint32_t ask, uint32_t own)
{
    const uint32_t wide = ENGINE_ADVANTAGE_ALL >> ENGINE_ADVANTAGE_BASIC_COUNT;
    act->arg[0] = (int16_t)(ask >> 1 & POLICY_HALF_MAX);
    act->arg[1] = (int16_t)(ask >> (1 + POLICY_HALF) & POLICY_HALF_MAX);
    act->arg[2] = (int16_t)(own >> 1 & POLICY_HALF_MAX);
    act->arg[3] = (int16_t)(own >> (1 + POLICY_HALF) & POLICY_HALF_MAX);
    act->arg[4] = (int16_t)(ask >> ENGINE_ADVANTAGE_BASIC_COUNT & wide);
    act->arg[5] = (int16_t)(own >> ENGINE_ADVANTAGE_BASIC_COUNT & wide);
}

/* The highest value of each policy argument in this room: args 0..3 the
 * Basic twenty, args 4 and 5 (rules version 7 on) the advantages after
 * them the room can offer, none in a Basic room. The advantages offered
 * are a prefix of the enum, so each argument is one range. */
static void policy_hi(int16_t hi[6], const engine_state *st)
{
    hi[0] = hi[1] = hi[2] = hi[3] = POLICY_HALF_MAX;
    hi[4] = hi[5] = (int16_t)(engine_karama_offered(st) >> ENGINE_ADVANTAGE_BASIC_COUNT);
}

/* The seat's standing policy, changed at most once a turn (so a game is
 * not made of policy changes): the advantages it is asked about in every
 * window, and those asked only when used against it in its own battle
 * (engine_karama_policy_masks; docs/ARCHITECTURE.md "Responses"). */
engine_verdict engine__karama_policy(engine_verdict_detail *why, engine_state *st,
                                     const engine_action *act, engine_rng *rng)
{
    (void)rng;
    if (!engine__rule(st, ENGINE__RULE_KARAMA_POLICY))
        return engine__reject(why, ENGINE_REJECT_RULE_NOT_IMPLEMENTED, -1, st->config.rules_version);
    if (st->karama_policy_set & ENGINE_SEAT_BIT(act->seat))
        return engine__reject(why, ENGINE_REJECT_ALREADY_ANSWERED, -1, 0);
    int16_t hi[6];
    policy_hi(hi, st);
    for (int i = 0; i < 6; i++)
        if (act->arg[i] < 0 || act->arg[i] > hi[i])
            return engine__reject(why, ENGINE_REJECT_ARG_OUT_OF_RANGE, i, act->arg[i]);
    st->karama_policy_set |= ENGINE_SEAT_BIT(act->seat);
    engine_karama_policy_masks(&st->karama_ask[act->seat], &st->karama_ask_own[act->seat], act);
    return ENGINE_ACCEPTED;
}

size_t engine__legal_karama_policy(engine_legal *out, size_t cap, const engine_state *st,
                                   uint8_t seat)
{
    size_t n = 0;
    if (!engine__rule(st, ENGINE__RULE_KARAMA_POLICY) ||
        (st->karama_policy_set & ENGINE_SEAT_BIT(seat)))
        return 0;
    engine_legal l;
    engine__legal_init(&l, ENGINE_ACTION_KARAMA_POLICY, seat);
    policy_hi(l.hi, st);
    engine__legal_push(out, cap, &n, &l);
    return n;
}

/* ========================================================= the window */

int engine__karama_hold(engine_state *st, const engine_action *act, uint32_t offered,
                        unsigned user)
{
    offered &= ENGINE_ADVANTAGE_ALL & ~engine_effect_sources(st, ENGINE_EFFECT_CANCELLED);
    /* A held action being resumed is not held again; an automatic step its
     * fold reaches may be. */
    if ((engine__frame_resuming(st) && act->kind != ENGINE_ACTION_NONE) || offered == 0 ||
        st->phase == ENGINE_PHASE_SETUP)
        return 0;
    unsigned first = first_advantage(offered);
    unsigned faction = row_of(first)->faction;
    int owner = engine__seat_of(st, faction);
    assert(owner >= 0);
    int alliance = 0;
    for (unsigned a = first; a < ENGINE_ADVANTAGE_COUNT; a++)
        if (offered & ENGINE_ADVANTAGE_BIT(a)) {
            assert(row_of(a)->faction == faction);
            alliance |= (row_of(a)->karama & ENGINE__KARAMA_BY_ALLY) != 0;
        }
    uint16_t asked = 0;
    for (unsigned s = 0; s < st->config.n_seats; s++)
        if (s != (unsigned)owner && !(alliance && s == user) && engine__holds_cards(st, s) &&
            wants(st, s, offered, user))
            asked |= ENGINE_SEAT_BIT(s);
    if (!engine__rule(st, ENGINE__RULE_KARAMA_WINDOW))
        asked = engine__karama_asked_v1(st, offered, user);
    if (asked == 0)
        return 0;
    engine_frame *f = engine__frame_push(st, ENGINE_WINDOW_KARAMA, (unsigned)owner, user, act, asked);
    f->rows = offered;
    return 1;
}

/* The cancellation is used up: the seat retook its action (4). */
static void consume(engine_state *st)
{
    engine__effect_remove(st, ENGINE_EFFECT_CANCELLED, -1);
}

/* 1 if `seat`'s action was performed, not held: no window, or one holding
 * an automatic step its fold reached, and no shipment of its held for
 * another seat's Karama (engine/phase_shipment.c), nor an entry of its
 * held for the Bene Gesserit's Intrusion (engine/advisors.c). */
static int performed_by_retake(const engine_state *st, unsigned seat)
{
    const engine_frame *window = engine_window_find(st, ENGINE_WINDOW_KARAMA);
    const engine_frame *ship = engine_window_find(st, ENGINE_WINDOW_SHIP_PAYER);
    return seat == retake_seat(st) && !(ship && ship->owner == seat) &&
           !engine__advisors_intrusion_holds(st, seat) &&
           (window == NULL || window->held.kind == ENGINE_ACTION_NONE);
}

int engine__karama_consume(engine_state *st, unsigned advantage)
{
    return engine__effect_remove(st, ENGINE_EFFECT_CANCELLED, (int)advantage);
}

int engine__karama_consume_at(engine_state *st, unsigned point)
{
    int removed = 0;
    for (unsigned i = st->n_effects; i-- > 0;) {
        const engine_effect *e = &st->effect[i];
        if (e->kind != ENGINE_EFFECT_CANCELLED)
            continue;
        const engine__power_row *r = engine__advantage_row(e->source);
        if (r && r->point == point)
            removed |= engine__karama_consume(st, e->source);
    }
    return removed;
}

static void resume_step(engine_state *st, const engine_action *held, engine_rng *rng);

/* Applies a held action exactly as it was attempted, bar the advantages
 * now cancelled (3); an automatic step goes on from the stage it was held
 * at (its later stages may hold it again). */
static void resume(engine_state *st, const engine_action *held, engine_rng *rng)
{
    if (held->kind != ENGINE_ACTION_NONE) {
        engine_verdict v = engine__action_rules[held->kind].handle(NULL, st, held, rng);
        assert(v == ENGINE_ACCEPTED);
        (void)v;
    } else {
        resume_step(st, held, rng);
    }
    if (performed_by_retake(st, held->seat))
        consume(st);
}

void engine__karama_after(engine_state *st, const engine_action *act)
{
    if (performed_by_retake(st, act->seat))
        consume(st);
}

/* The Karama card `seat` may spend on a window: one in its hand, from
 * rules version 7 (where a window may open during an auction: a flip of
 * advisors) but the one it set aside for the high bid
 * (engine/phase_bidding.c); CARD_NONE if none. */
static unsigned spendable_karama(const engine_state *st, unsigned seat)
{
    unsigned aside = engine__rule(st, ENGINE__RULE_ADVANCED_KARAMA) ? st->high_bid_karama : CARD_NONE;
    /* A card promised to the seat's battle plan is not one (rules version
     * 8 on, docs/RULINGS.md R130: engine/karama_card.c). */
    return engine__karama_card_except(st, seat, aside);
}

/* The advantage a cancel names: arg 0; under rules version 1, whose
 * karama_cancel names none (0), the one its window offers. */
static int cancelled_advantage(const engine_state *st, const engine_frame *f,
                               const engine_action *answer)
{
    if (answer->arg[0] == 0 && !engine__rule(st, ENGINE__RULE_KARAMA_WINDOW) && f->rows != 0)
        return (int)first_advantage(f->rows);
    return answer->arg[0];
}

/* A Karama cancels one use of the named advantage (LR 3.01.11.01): arg 0
 * the advantage, which the window must offer. The card is discarded face
 * up, and the window closes. */
engine_verdict engine__karama_cancel(engine_verdict_detail *why, engine_state *st,
                                     const engine_action *act, engine_rng *rng)
{
    const engine_frame *f = engine_window_top(st);
    int a = cancelled_advantage(st, f, act);
    if (a <= ENGINE_ADVANTAGE_NONE || a >= ENGINE_ADVANTAGE_COUNT ||
        !(f->rows & ENGINE_ADVANTAGE_BIT((unsigned)a)))
        return engine__reject(why, ENGINE_REJECT_ARG_OUT_OF_RANGE, 0, a);
    unsigned card = spendable_karama(st, act->seat);
    if (card == CARD_NONE)
        return engine__reject(why, ENGINE_REJECT_NO_KARAMA, -1, 0);
    engine__treachery_discard(st, card);
    engine__frame_close(st, act, rng);
    return ENGINE_ACCEPTED;
}

/* Lets the advantage stand; when every seat asked has, the window closes. */
engine_verdict engine__karama_allow(engine_verdict_detail *why, engine_state *st,
                                    const engine_action *act, engine_rng *rng)
{
    (void)why;
    engine_frame *f = engine__frame_top(st);
    f->answered |= ENGINE_SEAT_BIT(act->seat);
    if (f->answered == f->asked)
        engine__frame_close(st, act, rng);
    return ENGINE_ACCEPTED;
}

/* The window closed: all allowing applies the held action as it was; a
 * cancel records the cancellation until the user retakes (4), and applies
 * the held action without the advantage, or the retake in its place, or
 * gives the step back to the user. */
void engine__karama_resume(engine_state *st, const engine_frame *f, const engine_action *answer,
                           engine_rng *rng)
{
    if (answer->kind != ENGINE_ACTION_KARAMA_CANCEL) {
        resume(st, &f->held, rng);
        return;
    }
    unsigned a = (unsigned)cancelled_advantage(st, f, answer);
    /* A new cancellation names the seat retaking; earlier ones bind it too. */
    for (unsigned i = 0; i < st->n_effects; i++)
        if (st->effect[i].kind == ENGINE_EFFECT_CANCELLED)
            st->effect[i].owner = f->held.seat;
    engine_effect e = {ENGINE_EFFECT_CANCELLED, (uint8_t)a, f->held.seat, SEAT_NONE,
                       ENGINE_EXPIRY_PHASE, 0};
    int full = engine__effect_add(st, &e);
    assert(full == 0); /* one record per advantage, fewer advantages than records */
    (void)full;
    const engine__power_row *row = row_of(a);
    if (row->karama & ENGINE__KARAMA_LASTS)
        engine__karama_stop_lasts(st, a, f->held.seat); /* engine/karama_stops.c */
    if (row->karama & ENGINE__KARAMA_STANDS) {
        resume(st, &f->held, rng);
    } else if (row->retake != ENGINE_ACTION_NONE) {
        engine_action instead;
        memset(&instead, 0, sizeof instead);
        instead.kind = row->retake;
        instead.seat = f->held.seat;
        resume(st, &instead, rng);
    }
}

size_t engine__legal_karama(engine_legal *out, size_t cap, const engine_state *st, uint8_t seat)
{
    size_t n = 0;
    const engine_frame *f = engine_window_top(st);
    if (!f || f->point != ENGINE_WINDOW_KARAMA || !(f->asked & ~f->answered & ENGINE_SEAT_BIT(seat)))
        return 0;
    engine__legal_push1(out, cap, &n, ENGINE_ACTION_KARAMA_ALLOW, seat, 0, 0, 0, 0);
    if (spendable_karama(st, seat) == CARD_NONE)
        return n;
    if (!engine__rule(st, ENGINE__RULE_KARAMA_WINDOW)) { /* version 1: no argument */
        engine__legal_push1(out, cap, &n, ENGINE_ACTION_KARAMA_CANCEL, seat, 0, 0, 0, 0);
        return n;
    }
    for (unsigned a = 1; a < ENGINE_ADVANTAGE_COUNT; a++)
        if (f->rows & ENGINE_ADVANTAGE_BIT(a))
            engine__legal_push1(out, cap, &n, ENGINE_ACTION_KARAMA_CANCEL, seat, (int)a, (int)a, 0, 0);
    return n;
}

/* An automatic step held in a window: a worm about to devour (F2, F3); a
 * card coming up for auction (A1), a sale (E1, H1); the Shipment phase's
 * start (A2); the charity's (the Bene Gesserit's Advanced charity); the
 * storm's move (the Fremen's half losses). */
static void resume_step(engine_state *st, const engine_action *held, engine_rng *rng)
{
    if (st->phase == ENGINE_PHASE_BIDDING)
        engine__bidding_resume(st, (unsigned)held->arg[0], (unsigned)held->arg[1], rng);
    else if (st->phase == ENGINE_PHASE_SPICE_BLOW)
        engine__spice_blow_resume(st, (unsigned)held->arg[0], rng);
    else if (st->phase == ENGINE_PHASE_CHOAM_CHARITY)
        engine__charity_resume(st, rng);
    else if (st->phase == ENGINE_PHASE_STORM)
        engine__storm_resume(st, (unsigned)held->arg[0], rng);
    else
        engine__shipment_resume(st, rng);
}

/* ========================================================= invariants */

int engine__karama_check(const engine_state *st)
{
    unsigned n = st->config.n_seats;
    uint16_t all = (uint16_t)((1u << n) - 1);
    uint32_t cancelled = engine_effect_sources(st, ENGINE_EFFECT_CANCELLED);
    unsigned retake = retake_seat(st);
    const engine_frame *ship = engine_window_find(st, ENGINE_WINDOW_SHIP_PAYER);
    for (unsigned i = 0; i < st->n_effects; i++)
        if (st->effect[i].kind == ENGINE_EFFECT_CANCELLED &&
            (st->effect[i].owner != retake || st->effect[i].value != SEAT_NONE ||
             st->effect[i].expiry != ENGINE_EXPIRY_PHASE))
            return 0;
    if (cancelled & ~ENGINE_ADVANTAGE_ALL)
        return 0;
    if (retake != SEAT_NONE && retake >= n)
        return 0;
    const engine_frame *f = engine_window_find(st, ENGINE_WINDOW_KARAMA);
    if (f == NULL)
        return retake == SEAT_NONE || (ship && ship->owner == retake) ||
               (st->awaiting & ~st->answered & ENGINE_SEAT_BIT(retake));
    /* The seats asked below the window: by the window it stands over, or
     * by the step. */
    const engine_frame *below = f > st->frame ? f - 1 : NULL;
    uint16_t asked = (uint16_t)(st->awaiting | (below ? below->asked : 0));
    uint16_t open = (uint16_t)((st->awaiting & ~st->answered) |
                               (below ? below->asked & ~below->answered : 0));
    const engine_action *p = &f->held;
    if ((f->rows & ~ENGINE_ADVANTAGE_ALL) || f->rows == 0)
        return 0;
    const engine__power_row *row = engine__advantage_row(first_advantage(f->rows));
    if (row == NULL)
        return 0;
    int owner = engine__seat_of(st, row->faction);
    return owner >= 0 && f->owner == (unsigned)owner && f->user < n &&
           p->kind < ENGINE_ACTION_KIND_COUNT && p->seat < n &&
           (p->kind == ENGINE_ACTION_NONE || p->kind == ENGINE_ACTION_ANSWER ||
            p->kind == ENGINE_ACTION_POWER ||
            engine__action_home_phase(p->kind) == st->phase) &&
           !(st->awaiting & ~all) && !(st->answered & ~st->awaiting) &&
           (p->kind == ENGINE_ACTION_NONE || open != 0) &&
           (p->kind != ENGINE_ACTION_NONE || st->phase == ENGINE_PHASE_BIDDING ||
            st->phase == ENGINE_PHASE_SHIPMENT_MOVEMENT || st->phase == ENGINE_PHASE_CHOAM_CHARITY ||
            (st->phase == ENGINE_PHASE_STORM && p->arg[0] >= 0) ||
            (st->phase == ENGINE_PHASE_SPICE_BLOW && p->arg[0] >= 0 &&
             p->arg[0] < ENGINE_TERRITORY_COUNT)) &&
           !(f->asked & ENGINE_SEAT_BIT(f->owner)) && st->phase != ENGINE_PHASE_SETUP &&
           st->phase != ENGINE_PHASE_GAME_OVER &&
           (retake == SEAT_NONE || (asked & ENGINE_SEAT_BIT(retake)));
}
