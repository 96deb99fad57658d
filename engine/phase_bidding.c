/*
 * phase_bidding.c - the Bidding phase (DUNE_RULES_DIGEST.md 4.4, LR 1.04;
 * rulings in docs/RULINGS.md "Bidding"): one card drawn per seat able to
 * bid; cards auctioned face down one at a time in storm order; bids within
 * the bidder's spice plus what its ally allows (a Karama lifts the limit or
 * takes the card free); payment to the Emperor or the bank; hand limits;
 * Atreides see each card as it comes up; Harkonnen draw a free card with
 * each purchase; when everyone passes, the card and the rest go back on top
 * of the deck and the phase ends. The Atreides' look, the Emperor's payment
 * and the Harkonnen's free card each wait on a Karama window first
 * (engine/karama.c), holding the auction's automatic step.
 *
 * Invariant: the auction's public part (whose turn, the high bid and
 * bidder, who passed) depends only on public facts; what a card is stays in
 * known_by.
 */
#include <assert.h>
#include <string.h>

#include "engine/phase.h"

#define SEAT_NONE 0xFF
#define CARD_NONE 0xFF

static int has_room(const engine_state *st, unsigned seat)
{
    return engine__hand_size(st, seat) < engine__factions[st->seat[seat].faction].hand_limit;
}

static uint16_t eligible(const engine_state *st)
{
    uint16_t m = 0;
    for (unsigned s = 0; s < st->config.n_seats; s++)
        if (has_room(st, s))
            m |= ENGINE_SEAT_BIT(s);
    return m;
}
/* The most spice the seat may bid: its own plus its ally's allowance. */
static unsigned bid_limit(const engine_state *st, unsigned seat)
{
    unsigned limit = st->seat[seat].spice;
    uint8_t a = st->ally[seat];
    if (a != SEAT_NONE) {
        unsigned allowed = st->ally_support[a];
        limit += allowed < st->seat[a].spice ? allowed : st->seat[a].spice;
    }
    return limit;
}

/* A Karama bid may exceed the bidder's spice, up to one more than the
 * most any seat could bid in spice: enough to beat every paid bid, and
 * bounded, so two Karama bids cannot outbid each other forever
 * (docs/RULINGS.md R26). */
static unsigned karama_bid_cap(const engine_state *st)
{
    unsigned most = 0;
    for (unsigned s = 0; s < st->config.n_seats; s++) {
        unsigned l = bid_limit(st, s);
        if (l > most)
            most = l;
    }
    return most + 1;
}

/* ========================================================== the deck */

/* The discard pile becomes the new deck. Shuffling deals the faces afresh
 * to the card numbers, so a number seen face up before the shuffle tells
 * nothing after it (the invariant engine/view.c relies on). */
static void treachery_reshuffle(engine_state *st, engine_rng *rng)
{
    uint8_t kinds[ENGINE_TREACHERY_MAX];
    for (unsigned i = 0; i < st->n_discard; i++) {
        uint8_t c = st->discard[i];
        st->card[c].place = ENGINE_PLACE_DECK;
        st->card[c].known_by = 0;
        kinds[i] = st->card_kind[c];
        st->deck[st->n_deck++] = c;
    }
    engine__shuffle(kinds, st->n_discard, rng);
    for (unsigned i = 0; i < st->n_discard; i++)
        st->card_kind[st->discard[i]] = kinds[i];
    st->n_discard = 0;
}

/* Draws the top treachery card, reshuffling the discard pile into a new
 * deck when it runs out (LR 1.04.09); CARD_NONE if there is none at all. */
unsigned engine__treachery_draw(engine_state *st, engine_rng *rng)
{
    if (st->n_deck == 0)
        treachery_reshuffle(st, rng);
    if (st->n_deck == 0)
        return CARD_NONE;
    return st->deck[--st->n_deck];
}

void engine__treachery_discard(engine_state *st, unsigned card)
{
    st->card[card].place = ENGINE_PLACE_DISCARD;
    st->card[card].holder = SEAT_NONE;
    st->card[card].known_by = engine__shown(st);
    st->discard[st->n_discard++] = (uint8_t)card;
}

/* The auction's automatic steps a Karama window may hold (engine/karama.c):
 * a sale's payment, which the Emperor receives (E1), then its card, with
 * the Harkonnen's free one (H1); and each card coming up, which the
 * Atreides see (A1). */
enum { SALE_PAY = 0, SALE_CARD = 1, SALE_SHOW = 2 };

static void to_hand(engine_state *st, unsigned card, unsigned seat)
{
    st->card[card].place = ENGINE_PLACE_HAND;
    st->card[card].holder = (uint8_t)seat;
    st->card[card].known_by |= ENGINE_SEAT_BIT(seat);
}

/* ======================================================= the auction */

static void bidding_end(engine_state *st, engine_rng *rng)
{
    st->n_auction = 0;
    st->auction_index = 0;
    st->bid_opener = st->bid_turn = st->high_bidder = SEAT_NONE;
    st->high_bid_karama = CARD_NONE;
    st->high_bid = 0;
    st->bid_passes = 0;
    memset(st->ally_support, 0, sizeof st->ally_support);
    engine__revival_begin(st, rng);
}

/* Returns the card up and every later one to the top of the deck, the
 * card up on top (LR 1.04.07). */
static void return_unsold(engine_state *st)
{
    for (unsigned i = st->n_auction; i-- > st->auction_index;) {
        uint8_t c = st->auction[i];
        st->card[c].place = ENGINE_PLACE_DECK;
        st->deck[st->n_deck++] = c;
    }
    st->auction_index = st->n_auction;
}

/* The next seat after `from` in storm order that may bid, or SEAT_NONE. */
static unsigned next_bidder(const engine_state *st, unsigned from, int include_from)
{
    uint8_t order[ENGINE_MAX_SEATS];
    unsigned n = engine__storm_order(st, order), at = 0;
    assert(n >= ENGINE_MIN_SEATS && n <= ENGINE_MAX_SEATS);
    uint16_t can = eligible(st);
    for (unsigned i = 0; i < n; i++)
        if (order[i] == from)
            at = i;
    for (unsigned k = include_from ? 0 : 1; k <= n; k++) {
        unsigned s = order[(at + k) % n];
        if (can & ENGINE_SEAT_BIT(s))
            return s;
    }
    return SEAT_NONE;
}

static void await_bid(engine_state *st, unsigned seat)
{
    assert(seat < ENGINE_MAX_SEATS);
    st->bid_turn = (uint8_t)seat;
    st->awaiting = ENGINE_SEAT_BIT(seat);
    st->answered = 0;
}

static int hold_step(engine_state *st, unsigned stage, unsigned arg, unsigned user,
                     unsigned advantage);

/* The card up is shown to the Atreides, unless a Karama prevented it
 * (LR 2.01.05), and `opener` opens the bidding. */
static void card_show(engine_state *st, unsigned opener)
{
    uint8_t card = st->auction[st->auction_index];
    int atreides = engine__point_owner(st, ENGINE__POINT_CARD_UP);
    if (!engine__karama_consume_at(st, ENGINE__POINT_CARD_UP) && atreides >= 0)
        st->card[card].known_by |= ENGINE_SEAT_BIT(atreides);
    st->bid_opener = (uint8_t)opener;
    st->high_bidder = SEAT_NONE;
    st->high_bid_karama = CARD_NONE;
    st->high_bid = 0;
    st->bid_passes = 0;
    await_bid(st, opener);
}

/* Puts the next card up, or ends the phase. The Atreides' look at it is
 * prevented by a Karama before it happens (LR 2.01.05, 3.01.11.02): a
 * window holds the card's coming up first. */
static void card_up(engine_state *st, engine_rng *rng)
{
    if (st->auction_index >= st->n_auction || eligible(st) == 0) {
        return_unsold(st);
        bidding_end(st, rng);
        return;
    }
    unsigned opener;
    if (st->bid_opener == SEAT_NONE) {
        uint8_t order[ENGINE_MAX_SEATS];
        engine__storm_order(st, order);
        opener = next_bidder(st, order[0], 1);
    } else {
        opener = next_bidder(st, st->bid_opener, 0);
    }
    int atreides = engine__point_owner(st, ENGINE__POINT_CARD_UP);
    if (atreides >= 0 &&
        hold_step(st, SALE_SHOW, opener, (unsigned)atreides,
                  engine__point_owner_advantage(st, ENGINE__POINT_CARD_UP)))
        return;
    card_show(st, opener);
}

static void start_auction(engine_state *st, engine_rng *rng)
{
    st->step = BIDDING_STEP_AUCTION;
    card_up(st, rng);
}

void engine__bidding_begin(engine_state *st, engine_rng *rng)
{
    engine__phase_enter(st, ENGINE_PHASE_BIDDING);
    st->bid_opener = st->bid_turn = st->high_bidder = SEAT_NONE;
    st->high_bid_karama = CARD_NONE;
    st->n_auction = 0;
    st->auction_index = 0;
    uint16_t can = eligible(st);
    /* One card per seat able to bid, drawn face down (LR 1.04.02). */
    for (unsigned s = 0; s < st->config.n_seats; s++) {
        if (!(can & ENGINE_SEAT_BIT(s)))
            continue;
        unsigned c = engine__treachery_draw(st, rng);
        if (c == CARD_NONE)
            break;
        st->card[c].place = ENGINE_PLACE_AUCTION;
        st->auction[st->n_auction++] = (uint8_t)c;
    }
    if (st->n_auction == 0) {
        bidding_end(st, rng);
        return;
    }
    /* Allied seats first say how much of their spice the ally may bid. */
    st->step = BIDDING_STEP_SUPPORT;
    for (unsigned s = 0; s < st->config.n_seats; s++)
        if (st->ally[s] != SEAT_NONE)
            st->awaiting |= ENGINE_SEAT_BIT(s);
    if (!st->awaiting)
        start_auction(st, rng);
}

engine_verdict engine__ally_support(engine_verdict_detail *why, engine_state *st,
                                    const engine_action *act, engine_rng *rng)
{
    int amount = act->arg[0];
    if (st->ally[act->seat] == SEAT_NONE)
        return engine__reject(why, ENGINE_REJECT_NOT_ALLIED, -1, 0);
    if (amount < 0 || amount > st->seat[act->seat].spice)
        return engine__reject(why, ENGINE_REJECT_SUPPORT_OVER_SPICE, 0, amount);
    st->ally_support[act->seat] = (uint16_t)amount;
    st->answered |= ENGINE_SEAT_BIT(act->seat);
    if (st->answered == st->awaiting)
        start_auction(st, rng);
    return ENGINE_ACCEPTED;
}

/* The buyer takes the card; a Harkonnen buyer draws one more free if its
 * hand has room (LR 2.05.08), unless a Karama cancelled it; then the next
 * card comes up. */
static void sold(engine_state *st, unsigned buyer, engine_rng *rng)
{
    uint8_t card = st->auction[st->auction_index++];
    to_hand(st, card, buyer);
    int free_card = !engine__karama_consume_at(st, ENGINE__POINT_CARD_BOUGHT);
    if (free_card && engine__point_holds(st, ENGINE__POINT_CARD_BOUGHT, buyer) && has_room(st, buyer)) {
        unsigned extra = engine__treachery_draw(st, rng);
        if (extra != CARD_NONE) {
            st->card[extra].known_by = 0;
            to_hand(st, extra, buyer);
        }
    }
    card_up(st, rng);
}

/* Pays `amount` from the buyer (then its ally's allowance) to the Emperor,
 * or to the bank when there is no Emperor, the Emperor bought or a Karama
 * cancelled the Emperor's payment (LR 2.03.02, 2.03.04). */
static void pay_for_card(engine_state *st, unsigned buyer, unsigned amount)
{
    int to_bank = engine__karama_consume_at(st, ENGINE__POINT_CARD_PAYEE);
    int emperor = engine__point_owner(st, ENGINE__POINT_CARD_PAYEE);
    unsigned own = amount < st->seat[buyer].spice ? amount : st->seat[buyer].spice;
    unsigned rest = amount - own;
    st->seat[buyer].spice = (uint16_t)(st->seat[buyer].spice - own);
    if (rest) {
        uint8_t a = st->ally[buyer];
        st->seat[a].spice = (uint16_t)(st->seat[a].spice - rest);
        st->ally_support[a] = (uint16_t)(st->ally_support[a] - rest);
    }
    if (emperor >= 0 && (unsigned)emperor != buyer && !to_bank)
        st->seat[emperor].spice = (uint16_t)(st->seat[emperor].spice + amount);
    else
        st->spice_burned += amount;
}

/* Holds the auction at `stage` (SALE_*; `arg` its argument) when it uses
 * `advantage` and a seat may be asked; returns 1 if it is held. */
static int hold_step(engine_state *st, unsigned stage, unsigned arg, unsigned user,
                     unsigned advantage)
{
    engine_action step;
    memset(&step, 0, sizeof step);
    step.seat = (uint8_t)user;
    step.arg[0] = (int16_t)stage;
    step.arg[1] = (int16_t)arg;
    return engine__karama_hold(st, &step, ENGINE_ADVANTAGE_BIT(advantage), user);
}

static int hold_sale(engine_state *st, unsigned stage, unsigned advantage)
{
    return hold_step(st, stage, 0, st->high_bidder, advantage);
}

static void sale(engine_state *st, unsigned stage, engine_rng *rng);

void engine__bidding_resume(engine_state *st, unsigned stage, unsigned opener, engine_rng *rng)
{
    if (stage == SALE_SHOW)
        card_show(st, opener);
    else
        sale(st, stage, rng);
}

static void sale(engine_state *st, unsigned stage, engine_rng *rng)
{
    unsigned buyer = st->high_bidder;
    if (stage == SALE_PAY) {
        if (st->high_bid_karama != CARD_NONE)
            engine__treachery_discard(st, st->high_bid_karama); /* pays nothing */
        else
            pay_for_card(st, buyer, st->high_bid);
        /* The Harkonnen's free card, when its hand has room for both. */
        if (engine__point_holds(st, ENGINE__POINT_CARD_BOUGHT, buyer) &&
            engine__hand_size(st, buyer) + 1 < engine__factions[st->seat[buyer].faction].hand_limit &&
            hold_sale(st, SALE_CARD, engine__point_advantage(st, ENGINE__POINT_CARD_BOUGHT, buyer)))
            return;
    }
    sold(st, buyer, rng);
}

/* The card up goes to the high bidder; the Emperor's payment, when it
 * receives one, first waits for a Karama window. */
static void sell(engine_state *st, engine_rng *rng)
{
    unsigned buyer = st->high_bidder;
    int emperor = engine__point_owner(st, ENGINE__POINT_CARD_PAYEE);
    if (st->high_bid_karama == CARD_NONE && st->high_bid > 0 && emperor >= 0 &&
        (unsigned)emperor != buyer &&
        hold_sale(st, SALE_PAY, engine__point_owner_advantage(st, ENGINE__POINT_CARD_PAYEE)))
        return;
    sale(st, SALE_PAY, rng);
}

static void after_pass_or_bid(engine_state *st, engine_rng *rng)
{
    uint16_t can = eligible(st);
    if (st->high_bidder != SEAT_NONE) {
        uint16_t rivals = (uint16_t)(can & ~ENGINE_SEAT_BIT(st->high_bidder));
        if ((st->bid_passes & rivals) == rivals) {
            sell(st, rng);
            return;
        }
    } else if ((st->bid_passes & can) == can) {
        /* Everyone passed: this card and the rest go back (LR 1.04.07). */
        return_unsold(st);
        bidding_end(st, rng);
        return;
    }
    unsigned next = next_bidder(st, st->bid_turn, 0);
    if (next == st->high_bidder)
        next = next_bidder(st, next, 0);
    await_bid(st, next);
}

/* A bid: at least 1 and above the high bid, within the limit unless a
 * Karama lifts it (LR 1.04.04; Karama, LR 3.01.11). */
engine_verdict engine__bid(engine_verdict_detail *why, engine_state *st, const engine_action *act,
                           engine_rng *rng)
{
    int amount = act->arg[0], karama = act->arg[1];
    if (karama < 0 || karama > 1)
        return engine__reject(why, ENGINE_REJECT_ARG_OUT_OF_RANGE, 1, karama);
    if (amount < 1 || amount <= st->high_bid)
        return engine__reject(why, ENGINE_REJECT_BID_TOO_LOW, 0, amount);
    unsigned karama_card = CARD_NONE;
    if (karama) {
        karama_card = engine_karama_card(st, act->seat);
        if (karama_card == CARD_NONE)
            return engine__reject(why, ENGINE_REJECT_NO_KARAMA, 1, 1);
        if ((unsigned)amount > karama_bid_cap(st))
            return engine__reject(why, ENGINE_REJECT_BID_OVER_LIMIT, 0, amount);
    } else if ((unsigned)amount > bid_limit(st, act->seat)) {
        return engine__reject(why, ENGINE_REJECT_BID_OVER_LIMIT, 0, amount);
    }
    st->high_bid = (uint16_t)amount;
    st->high_bidder = act->seat;
    st->high_bid_karama = (uint8_t)karama_card;
    if (karama_card != CARD_NONE) /* a Karama bid is declared openly */
        st->card[karama_card].known_by = engine__shown(st);
    st->bid_passes = 0;
    after_pass_or_bid(st, rng);
    return ENGINE_ACCEPTED;
}

engine_verdict engine__bid_pass(engine_verdict_detail *why, engine_state *st,
                                const engine_action *act, engine_rng *rng)
{
    (void)why;
    st->bid_passes |= ENGINE_SEAT_BIT(act->seat);
    after_pass_or_bid(st, rng);
    return ENGINE_ACCEPTED;
}

/* Karama: take the card up without paying, ending its auction (LR 3.01.11). */
engine_verdict engine__karama_take(engine_verdict_detail *why, engine_state *st,
                                   const engine_action *act, engine_rng *rng)
{
    unsigned karama = engine_karama_card(st, act->seat);
    if (karama == CARD_NONE)
        return engine__reject(why, ENGINE_REJECT_NO_KARAMA, -1, 0);
    st->high_bidder = act->seat;
    st->high_bid = 0;
    st->high_bid_karama = (uint8_t)karama;
    st->card[karama].known_by = engine__shown(st);
    sell(st, rng);
    return ENGINE_ACCEPTED;
}

/* ===================================================== legal families */

size_t engine__legal_support(engine_legal *out, size_t cap, const engine_state *st, uint8_t seat)
{
    size_t n = 0;
    engine__legal_push1(out, cap, &n, ENGINE_ACTION_ALLY_SUPPORT, seat, 0, st->seat[seat].spice, 0, 0);
    return n;
}

size_t engine__legal_auction(engine_legal *out, size_t cap, const engine_state *st, uint8_t seat)
{
    size_t n = 0;
    unsigned limit = bid_limit(st, seat);
    if (limit > st->high_bid)
        engine__legal_push1(out, cap, &n, ENGINE_ACTION_BID, seat, (int)st->high_bid + 1,
                            (int)limit, 0, 0);
    if (engine_karama_card(st, seat) != CARD_NONE) {
        unsigned most = karama_bid_cap(st);
        if (most > st->high_bid)
            engine__legal_push1(out, cap, &n, ENGINE_ACTION_BID, seat, (int)st->high_bid + 1,
                                (int)most, 1, 1);
        engine__legal_push1(out, cap, &n, ENGINE_ACTION_KARAMA_TAKE, seat, 0, 0, 0, 0);
    }
    engine__legal_push1(out, cap, &n, ENGINE_ACTION_BID_PASS, seat, 0, 0, 0, 0);
    return n;
}
