/*
 * nexus.c - the lifecycle of the Nexus Cards module (E3 p.11; the digest's
 * EXPANSIONS_AND_NEXUS.md 5.1; rulings in docs/RULINGS.md "Nexus Cards"):
 * the twelve cards' deck and discard, at most one held card a seat, the
 * draw opportunity at the end of the Spice Blow and Nexus phase, the
 * own-faction redraw by a policy chosen before the draw, the discard on
 * every alliance formation, the reshuffle of an exhausted deck and the
 * mode of a held card by native roster identity. Panels are rows in
 * engine/nexus_<faction>.c, never here.
 *
 * Invariants: (1) a room without ENGINE_MODULE_NEXUS_CARDS never reaches
 * any function here that mutates (every entry checks the module first),
 * so its state and digests are those of version 4; (2) a Nexus card is
 * not a treachery card: it is in nexus_card[], never in card[], and no
 * treachery rule reads it; (3) the whole opportunity (every draw, every
 * replacement, every own-faction redraw, every reshuffle) is dealt inside
 * the fold of the answer that closes it, with that event's randomness, so
 * no public state ever waits between a draw and a redraw, and replaying,
 * retrying or reading never draws anew; (4) a seat with an ally holds no
 * Nexus card. Engine layer: no I/O, no allocation.
 */
#include <string.h>

#include "engine/phase.h"

#define SEAT_NONE 0xFF

_Static_assert(ENGINE_NEXUS_CARD_COUNT == ENGINE_FACTION_COUNT, "one Nexus card per faction");

static int has_module(const engine_state *st)
{
    return (st->config.modules & ENGINE_MODULE_NEXUS_CARDS) != 0;
}

/* ============================================================ the deck */

void engine__nexus_setup(engine_state *st, engine_rng *rng)
{
    if (!has_module(st))
        return;
    for (unsigned i = 0; i < ENGINE_NEXUS_CARD_COUNT; i++) {
        st->nexus_face[i] = (uint8_t)i;
        st->nexus_card[i].place = ENGINE_PLACE_DECK;
        st->nexus_card[i].holder = SEAT_NONE;
        st->nexus_card[i].known_by = 0;
        st->nexus_deck[i] = (uint8_t)i;
    }
    st->n_nexus_deck = ENGINE_NEXUS_CARD_COUNT;
    st->n_nexus_discard = 0;
    engine__shuffle(st->nexus_face, ENGINE_NEXUS_CARD_COUNT, rng);
    engine__shuffle(st->nexus_deck, ENGINE_NEXUS_CARD_COUNT, rng);
}

/* The discard pile becomes the deck: its faces are dealt anew to its card
 * numbers, so a number seen in the discard says nothing in the deck, and
 * nobody knows any of them (E3 p.11: "shuffle the discard pile"). */
static void reshuffle(engine_state *st, engine_rng *rng)
{
    uint8_t faces[ENGINE_NEXUS_CARD_COUNT];
    unsigned n = st->n_nexus_discard;
    for (unsigned i = 0; i < n; i++)
        faces[i] = st->nexus_face[st->nexus_discard[i]];
    engine__shuffle(faces, n, rng);
    for (unsigned i = 0; i < n; i++) {
        uint8_t c = st->nexus_discard[i];
        st->nexus_face[c] = faces[i];
        st->nexus_card[c].place = ENGINE_PLACE_DECK;
        st->nexus_card[c].known_by = 0;
        st->nexus_deck[st->n_nexus_deck++] = c;
    }
    st->n_nexus_discard = 0;
    engine__shuffle(st->nexus_deck, st->n_nexus_deck, rng);
}

/* Discards a held card. Who knew it still knows it; a card discarded
 * unplayed is not shown to the table (played cards are, by their panel). */
static void discard(engine_state *st, unsigned card)
{
    st->nexus_card[card].place = ENGINE_PLACE_DISCARD;
    st->nexus_card[card].holder = SEAT_NONE;
    st->nexus_discard[st->n_nexus_discard++] = (uint8_t)card;
}

/* The top card to `seat`, known to it alone; -1 if deck and discard are
 * both empty (never with 3..6 seats: at most 6 are held, invariant 4). */
static int draw(engine_state *st, unsigned seat, engine_rng *rng)
{
    if (st->n_nexus_deck == 0)
        reshuffle(st, rng);
    if (st->n_nexus_deck == 0)
        return -1;
    uint8_t c = st->nexus_deck[--st->n_nexus_deck];
    st->nexus_card[c].place = ENGINE_PLACE_HAND;
    st->nexus_card[c].holder = (uint8_t)seat;
    st->nexus_card[c].known_by = (uint16_t)ENGINE_SEAT_BIT(seat);
    return c;
}

int engine_nexus_held(const engine_state *st, unsigned seat)
{
    if (!has_module(st))
        return -1;
    for (unsigned c = 0; c < ENGINE_NEXUS_CARD_COUNT; c++)
        if (st->nexus_card[c].place == ENGINE_PLACE_HAND && st->nexus_card[c].holder == seat)
            return (int)c;
    return -1;
}

int engine_nexus_mode_of(const engine_state *st, unsigned seat, unsigned faction)
{
    if (seat >= st->config.n_seats || faction >= ENGINE_NEXUS_CARD_COUNT)
        return -1;
    if (st->seat[seat].faction == faction)
        return ENGINE_NEXUS_CUNNING;
    return engine__seat_of(st, faction) >= 0 ? ENGINE_NEXUS_BETRAYAL : ENGINE_NEXUS_SECRET_ALLY;
}

/* ==================================================== alliance discard */

/* E3 p.11: whoever joins an alliance discards his Nexus card. The hook
 * every alliance formation calls, inside the accepted action. */
void engine__nexus_alliance_formed(engine_state *st, unsigned a, unsigned b)
{
    if (!has_module(st))
        return;
    int held = engine_nexus_held(st, a);
    if (held >= 0)
        discard(st, (unsigned)held);
    held = engine_nexus_held(st, b);
    if (held >= 0)
        discard(st, (unsigned)held);
}

/* ===================================================== the opportunity */

int engine__nexus_draw_begin(engine_state *st)
{
    if (!has_module(st) || !st->is_nexus_this_phase)
        return 0;
    uint16_t unallied = 0;
    int alliance = 0;
    for (unsigned s = 0; s < st->config.n_seats; s++) {
        if (st->ally[s] == SEAT_NONE)
            unallied |= (uint16_t)ENGINE_SEAT_BIT(s);
        else
            alliance = 1;
    }
    if (!alliance || unallied == 0)
        return 0;
    st->step = BLOW_STEP_NEXUS_DRAW;
    st->awaiting = unallied;
    st->answered = 0;
    st->nexus_drawing = 0;
    return 1;
}

/* One seat's draw with its policy (E3 p.11: "may immediately discard it
 * and draw again"): its held card first to the discard, then the top card,
 * again while its own faction's card comes and the policy says so. At
 * most two own-faction cards can come: once its own card is discarded the
 * deck holds it no more, and a reshuffle brings it back at most once
 * before other cards (at least six are neither held nor drawn).
 *
 * Card numbers carry no identity, and nobody knows a face in the deck, so
 * a redraw is dealt by moving faces, not numbers: the faces of the deck
 * move up one place (the next card's face onto the top number, the one
 * the seat will hold), and the own card's face goes to the discard on the
 * bottom number. Every later draw then takes the very numbers it would
 * have taken without the redraw, and no view tells it by which number a
 * seat holds (engine/view.c (5); docs/RULINGS.md R80). */
static void deal_seat(engine_state *st, unsigned seat, unsigned policy, engine_rng *rng)
{
    int held = engine_nexus_held(st, seat);
    if (held >= 0)
        discard(st, (unsigned)held);
    for (unsigned redraws = 0;; redraws++) {
        if (st->n_nexus_deck == 0)
            reshuffle(st, rng);
        if (st->n_nexus_deck == 0)
            return;
        unsigned n = st->n_nexus_deck;
        uint8_t top = st->nexus_deck[n - 1];
        int stop = st->nexus_face[top] != st->seat[seat].faction ||
                   policy == ENGINE_NEXUS_KEEP ||
                   (policy == ENGINE_NEXUS_REDRAW_ONCE && redraws == 1) || redraws == 2;
        if (stop) {
            draw(st, seat, rng);
            return;
        }
        uint8_t own = st->nexus_face[top];
        for (unsigned i = n - 1; i > 0; i--)
            st->nexus_face[st->nexus_deck[i]] = st->nexus_face[st->nexus_deck[i - 1]];
        uint8_t bottom = st->nexus_deck[0];
        st->nexus_face[bottom] = own;
        memmove(st->nexus_deck, st->nexus_deck + 1, n - 1u);
        st->n_nexus_deck = (uint8_t)(n - 1u);
        st->nexus_card[bottom].known_by = (uint16_t)ENGINE_SEAT_BIT(seat);
        discard(st, bottom);
    }
}

/* Every drawer in storm order (docs/RULINGS.md: an implementation
 * convention, the sources name no order), then CHOAM Charity. */
static void deal(engine_state *st, engine_rng *rng)
{
    uint8_t order[ENGINE_MAX_SEATS];
    unsigned n = engine__storm_order(st, order);
    for (unsigned i = 0; i < n; i++)
        if (st->nexus_drawing & ENGINE_SEAT_BIT(order[i]))
            deal_seat(st, order[i], st->nexus_policy[order[i]], rng);
    st->nexus_drawing = 0;
    memset(st->nexus_policy, 0, sizeof st->nexus_policy);
    engine__charity_begin(st, rng);
}

/* A seat's answer: draw (replacing a held card) or decline, and its
 * own-faction policy (secret); the last answer deals the opportunity. */
engine_verdict engine__nexus_draw(engine_verdict_detail *why, engine_state *st,
                                  const engine_action *act, engine_rng *rng)
{
    int answer = act->arg[0], policy = act->arg[1];
    if (answer < 0 || answer > 1)
        return engine__reject(why, ENGINE_REJECT_ARG_OUT_OF_RANGE, 0, answer);
    if (policy < 0 || policy >= ENGINE_NEXUS_POLICY_COUNT)
        return engine__reject(why, ENGINE_REJECT_ARG_OUT_OF_RANGE, 1, policy);
    uint16_t bit = (uint16_t)ENGINE_SEAT_BIT(act->seat);
    if (answer)
        st->nexus_drawing |= bit;
    st->nexus_policy[act->seat] = (uint8_t)policy;
    st->answered |= bit;
    if (st->answered == st->awaiting)
        deal(st, rng);
    return ENGINE_ACCEPTED;
}

size_t engine__legal_nexus_draw(engine_legal *out, size_t cap, const engine_state *st,
                                uint8_t seat)
{
    (void)st;
    size_t n = 0;
    engine__legal_push1(out, cap, &n, ENGINE_ACTION_NEXUS_DRAW, seat, 0, 1, 0,
                        ENGINE_NEXUS_POLICY_COUNT - 1);
    return n;
}

/* ========================================================== invariants */

int engine__nexus_check(const engine_state *st)
{
    unsigned n = st->config.n_seats;
    if (!has_module(st)) {
        static const engine_state zero;
        return st->config.modules == ENGINE_MODULE_NONE &&
               memcmp(st->nexus_face, zero.nexus_face, sizeof zero.nexus_face) == 0 &&
               memcmp(st->nexus_card, zero.nexus_card, sizeof zero.nexus_card) == 0 &&
               st->n_nexus_deck == 0 && st->n_nexus_discard == 0 && st->nexus_drawing == 0 &&
               memcmp(st->nexus_policy, zero.nexus_policy, sizeof zero.nexus_policy) == 0;
    }
    if ((st->config.modules & ~ENGINE_MODULE_NEXUS_CARDS) ||
        !engine__rule(st, ENGINE__RULE_ROOM_OPTIONS) || n < ENGINE_NEXUS_MIN_SEATS)
        return 0;
    /* Every face once; every card in one place, listed in its pile. */
    uint16_t faces = 0, holders = 0;
    uint8_t listed[ENGINE_NEXUS_CARD_COUNT] = {0};
    for (unsigned i = 0; i < st->n_nexus_deck; i++)
        if (st->nexus_card[st->nexus_deck[i]].place != ENGINE_PLACE_DECK ||
            listed[st->nexus_deck[i]]++)
            return 0;
    for (unsigned i = 0; i < st->n_nexus_discard; i++)
        if (st->nexus_card[st->nexus_discard[i]].place != ENGINE_PLACE_DISCARD ||
            listed[st->nexus_discard[i]]++)
            return 0;
    for (unsigned c = 0; c < ENGINE_NEXUS_CARD_COUNT; c++) {
        const engine_card_state *k = &st->nexus_card[c];
        faces |= (uint16_t)(1u << st->nexus_face[c]);
        if (k->place == ENGINE_PLACE_HAND) {
            /* (4) at most one a seat, none with an ally */
            if (k->holder >= n || (holders & ENGINE_SEAT_BIT(k->holder)) ||
                st->ally[k->holder] != SEAT_NONE)
                return 0;
            holders |= (uint16_t)ENGINE_SEAT_BIT(k->holder);
        } else if ((k->place != ENGINE_PLACE_DECK && k->place != ENGINE_PLACE_DISCARD) ||
                   k->holder != SEAT_NONE || !listed[c]) {
            return 0;
        }
        if ((k->known_by & ~ENGINE_KNOWN_PUBLIC) >> n)
            return 0;
    }
    if (faces != (1u << ENGINE_NEXUS_CARD_COUNT) - 1)
        return 0;
    /* The opportunity's answers live only while it is open. */
    int drawing = st->phase == ENGINE_PHASE_SPICE_BLOW && st->step == BLOW_STEP_NEXUS_DRAW;
    if (st->nexus_drawing & ~(drawing ? st->answered : 0))
        return 0;
    for (unsigned s = 0; s < ENGINE_MAX_SEATS; s++)
        if (st->nexus_policy[s] >= ENGINE_NEXUS_POLICY_COUNT ||
            (st->nexus_policy[s] != 0 && !(drawing && (st->answered & ENGINE_SEAT_BIT(s)))))
            return 0;
    return 1;
}
