/*
 * phase_spice_blow.c - Spice Blow and Nexus, Basic game (DUNE_RULES_DIGEST.md
 * 4.2, LR 1.02; rulings in docs/RULINGS.md "Spice Blow and Nexus"): reveal
 * spice cards until a territory card places its spice; Shai-Hulud devours
 * the territory of the topmost territory card of the discard pile (Fremen
 * and the Fremen's ally unharmed, unless a Karama window cancels it,
 * engine/karama.c) and brings a Nexus, in which alliances are
 * proposed, accepted, refused and broken; then the Fremen may ride the worm.
 * On turn 1 worms are set aside and shuffled back, and there is no Nexus.
 * The Advanced game (rules version 6 on, engine__double_blow) reveals two
 * piles, A then B, each with its Nexus and rides, a pile's further worms
 * placed by the owner of ENGINE__POINT_WORM_PLACEMENT (LR 1.13.02-03,
 * 2.04.15; docs/RULINGS.md R95-R101); it never names a faction.
 *
 * Invariant: every draw comes from the deck; an empty deck is refilled by
 * shuffling the discard pile (in the double blow all but pile A's topmost
 * territory card and what lies on it), and the shuffled cards are known
 * to no one; a Basic room never touches the double blow's fields.
 */
#include <string.h>

#include "engine/phase.h"

#define SEAT_NONE 0xFF

/* ============================================================ the deck */

/* The pile the blow reveals onto: the discard pile of the Basic game, in
 * the Advanced double blow pile A or pile B (LR 1.13.02). */
static uint8_t *pile_cards(engine_state *st, uint8_t **n_out)
{
    int is_b = st->blow_pile != 0;
    *n_out = is_b ? &st->n_spice_discard_b : &st->n_spice_discard;
    return is_b ? st->spice_discard_b : st->spice_discard;
}

/* The cards a reshuffle turns into the new deck (LR 1.02.01): the whole
 * discard pile; in the double blow every card of pile A under its topmost
 * territory card, which stays with whatever lies on it, and every card of
 * pile B (LR 1.13.03; docs/RULINGS.md "Double spice blow", D4). */
static void spice_reshuffle(engine_state *st, engine_rng *rng)
{
    int is_double = engine__double_blow(st);
    unsigned keep = st->n_spice_discard; /* pile A's cards from index keep up stay */
    if (!is_double)
        keep = 0;
    for (unsigned i = st->n_spice_discard; is_double && i-- > 0;)
        if (!engine__spice_cards[st->spice_discard[i]].is_worm) {
            keep = i;
            break;
        }
    for (unsigned i = 0; i < (is_double ? keep : st->n_spice_discard); i++) {
        uint8_t c = st->spice_discard[i];
        st->spice_card[c].place = ENGINE_PLACE_DECK;
        st->spice_card[c].known_by = 0;
        st->spice_deck[st->n_spice_deck++] = c;
    }
    if (is_double) {
        memmove(st->spice_discard, st->spice_discard + keep, st->n_spice_discard - keep);
        st->n_spice_discard = (uint8_t)(st->n_spice_discard - keep);
        for (unsigned i = 0; i < st->n_spice_discard_b; i++) {
            uint8_t c = st->spice_discard_b[i];
            st->spice_card[c].place = ENGINE_PLACE_DECK;
            st->spice_card[c].known_by = 0;
            st->spice_deck[st->n_spice_deck++] = c;
        }
        st->n_spice_discard_b = 0;
    } else {
        st->n_spice_discard = 0;
    }
    engine__shuffle(st->spice_deck, st->n_spice_deck, rng);
    for (unsigned i = 0; i < st->n_spice_deck; i++)
        st->spice_card[st->spice_deck[i]].known_by = 0;
}

static int spice_draw(engine_state *st, engine_rng *rng)
{
    if (st->n_spice_deck == 0)
        spice_reshuffle(st, rng);
    if (st->n_spice_deck == 0)
        return -1;
    return st->spice_deck[--st->n_spice_deck];
}

static void spice_discard(engine_state *st, unsigned card)
{
    uint8_t *n;
    uint8_t *cards = pile_cards(st, &n);
    st->spice_card[card].place = ENGINE_PLACE_DISCARD;
    st->spice_card[card].known_by = engine__shown(st);
    cards[(*n)++] = (uint8_t)card;
}

/* Territory of the topmost territory card of the pile, or
 * ENGINE_TERRITORY_COUNT if the pile holds none ("if any", LR 1.13.02.02). */
static unsigned top_territory(engine_state *st)
{
    uint8_t *n;
    const uint8_t *cards = pile_cards(st, &n);
    for (unsigned i = *n; i-- > 0;) {
        const engine__spice_card_row *row = &engine__spice_cards[cards[i]];
        if (!row->is_worm)
            return row->territory;
    }
    return ENGINE_TERRITORY_COUNT;
}

/* ========================================================= Shai-Hulud */

/* The advantage keeping `seat`'s forces from the worm, the row of
 * ENGINE__POINT_WORM_STRIKES that applies to it: the Fremen's own, their
 * ally's (LR 2.04.07, 2.04.10; docs/RULINGS.md "Fremen protect their
 * ally": from rules version 3 on only when the Fremen decided so), or
 * NONE. */
static unsigned worm_advantage(const engine_state *st, unsigned seat)
{
    const engine__power_row *r = engine__point_row(st, ENGINE__POINT_WORM_STRIKES, seat, NULL);
    return r ? r->advantage : ENGINE_ADVANTAGE_NONE;
}

/* Fremen are never devoured, nor their ally, unless a Karama cancelled
 * that protection for this worm. */
static int is_worm_proof(const engine_state *st, unsigned seat)
{
    unsigned a = worm_advantage(st, seat);
    return a != ENGINE_ADVANTAGE_NONE && !engine__karama_cancelled(st, a);
}

/* 1 if `seat` has forces (or Bene Gesserit advisors) in `territory`. */
static int stands_in(const engine_state *st, unsigned territory, unsigned seat)
{
    int bg = engine__point_owner(st, ENGINE__POINT_ADVISORS);
    for (unsigned l = 0; l < ENGINE_LOCATION_COUNT; l++)
        if (engine__locations[l].territory == territory &&
            (st->forces[l][seat] || st->special[l][seat] || (bg == (int)seat && st->advisors[l])))
            return 1;
    return 0;
}

/* Every force in the territory goes to the Tanks but the worm-proof, and
 * its spice to the bank (LR 1.02.05); the territory is the worm's, to be
 * ridden from after the Nexus (in the double blow one of the pile's). */
static void devour(engine_state *st, unsigned territory)
{
    int bg = engine__point_owner(st, ENGINE__POINT_ADVISORS);
    for (unsigned l = 0; l < ENGINE_LOCATION_COUNT; l++) {
        if (engine__locations[l].territory != territory)
            continue;
        for (uint8_t s = 0; s < st->config.n_seats; s++)
            if (!is_worm_proof(st, s) && !engine__nexus_spared(st, s, territory))
                engine__forces_to_tanks(st, l, s, st->forces[l][s], st->special[l][s]);
        if (st->advisors[l] && bg >= 0 && !is_worm_proof(st, (unsigned)bg) &&
            !engine__nexus_spared(st, (unsigned)bg, territory)) {
            st->seat[bg].tanks = (uint8_t)(st->seat[bg].tanks + st->advisors[l]);
            st->advisors[l] = 0;
        }
        st->spice_burned += st->spice[l];
        st->spice[l] = 0;
    }
    engine__karama_consume_at(st, ENGINE__POINT_WORM_STRIKES);
    engine__effect_remove(st, ENGINE_EFFECT_NEXUS_SPARED, -1); /* used up by this worm */
    st->fremen_gifts &= (uint8_t)~ENGINE_GIFT_WORM; /* the choice was for this worm */
    st->worm_territory = (uint8_t)territory;
    if (engine__double_blow(st))
        st->worms_struck |= UINT64_C(1) << territory;
}

unsigned engine__worm_riders_in(const engine_state *st, unsigned t, unsigned *elite_out)
{
    int fremen = engine__point_owner(st, ENGINE__POINT_WORM_RIDE);
    unsigned plain = 0, elite = 0;
    if (fremen >= 0 && t < ENGINE_TERRITORY_COUNT)
        for (unsigned l = 0; l < ENGINE_LOCATION_COUNT; l++)
            if (engine__locations[l].territory == t && !engine__in_storm(st, l)) {
                plain += st->forces[l][fremen];
                elite += st->special[l][fremen];
            }
    if (elite_out)
        *elite_out = elite;
    return plain;
}

/* The territory the riders leave: the struck one, or the one a Nexus
 * panel names for this worm (engine__nexus_ride_from). */
static unsigned ride_from(const engine_state *st)
{
    return st->worm_territory < ENGINE_TERRITORY_COUNT
               ? engine__nexus_ride_from(st, st->worm_territory)
               : ENGINE_TERRITORY_COUNT;
}

/* Fremen forces that could ride the worm: in the struck territory, out of
 * the storm (LR 2.04.08). */
static unsigned riders(const engine_state *st, unsigned *elite_out)
{
    return engine__worm_riders_in(st, ride_from(st), elite_out);
}

/* ========================================================= the phase */

static void blow_end(engine_state *st, engine_rng *rng)
{
    st->worm_territory = ENGINE_TERRITORY_COUNT;
    st->blow_pile = st->pile_worms = 0;
    st->worms_struck = 0;
    if (engine__nexus_draw_begin(st))
        return; /* the Nexus Cards' draw opportunity closes the phase (engine/nexus.c) */
    engine__charity_begin(st, rng);
}

static void blow(engine_state *st, int worm, engine_rng *rng);

/* A pile is done with, its Nexus and rides too: in the double blow pile B
 * is revealed after pile A (LR 1.13.02.03), else the phase ends. */
static void pile_end(engine_state *st, engine_rng *rng)
{
    if (engine__double_blow(st) && st->blow_pile == 0) {
        st->blow_pile = 1;
        st->pile_worms = 0;
        st->worms_struck = 0;
        st->worm_territory = ENGINE_TERRITORY_COUNT;
        blow(st, 0, rng);
        return;
    }
    blow_end(st, rng);
}

/* After the Nexus the Fremen may ride the worm: in the double blow each
 * worm of the pile, one territory struck at a time, lowest first. */
static void next_ride(engine_state *st, engine_rng *rng)
{
    for (;;) {
        if (engine__double_blow(st)) {
            if (st->worms_struck == 0) {
                st->worm_territory = ENGINE_TERRITORY_COUNT;
                pile_end(st, rng);
                return;
            }
            unsigned t = 0;
            while (!(st->worms_struck >> t & 1))
                t++;
            st->worm_territory = (uint8_t)t;
        }
        unsigned elite;
        unsigned plain = riders(st, &elite);
        if (plain + elite > 0) {
            st->step = BLOW_STEP_WORM_RIDE;
            st->awaiting = ENGINE_SEAT_BIT(engine__point_owner(st, ENGINE__POINT_WORM_RIDE));
            st->answered = 0;
            return;
        }
        if (!engine__double_blow(st)) {
            blow_end(st, rng);
            return;
        }
        st->worms_struck &= ~(UINT64_C(1) << st->worm_territory);
    }
}

/* A ride from the worm's territory is taken or passed. */
static void ridden(engine_state *st, engine_rng *rng)
{
    if (!engine__double_blow(st)) {
        blow_end(st, rng);
        return;
    }
    st->worms_struck &= ~(UINT64_C(1) << st->worm_territory);
    next_ride(st, rng);
}

static void after_nexus(engine_state *st, engine_rng *rng)
{
    memset(st->nexus_proposals, 0, sizeof st->nexus_proposals);
    memset(st->nexus_refused, 0, sizeof st->nexus_refused);
    st->nexus_broken = 0;
    next_ride(st, rng);
}

/* Before the worm devours `territory`, the Fremen's protection of their own
 * forces there and their ally's waits on a Karama window (LR 2.04.07,
 * 2.04.10, 3.01.11.01); returns 1 if the blow is held. */
static int hold_worm(engine_state *st, unsigned territory)
{
    int fremen = engine__point_owner(st, ENGINE__POINT_WORM_STRIKES);
    if (fremen < 0)
        return 0;
    uint32_t used = 0;
    unsigned user = (unsigned)fremen;
    unsigned own = worm_advantage(st, (unsigned)fremen);
    if (own != ENGINE_ADVANTAGE_NONE && stands_in(st, territory, (unsigned)fremen))
        used |= ENGINE_ADVANTAGE_BIT(own);
    uint8_t ally = st->ally[fremen];
    unsigned spared = ally != SEAT_NONE ? worm_advantage(st, ally) : ENGINE_ADVANTAGE_NONE;
    if (spared != ENGINE_ADVANTAGE_NONE && stands_in(st, territory, ally)) {
        used |= ENGINE_ADVANTAGE_BIT(spared);
        if (!(used & ENGINE_ADVANTAGE_BIT(own)))
            user = ally;
    }
    engine_action step;
    memset(&step, 0, sizeof step);
    step.seat = (uint8_t)user;
    step.arg[0] = (int16_t)territory;
    return engine__karama_hold(st, &step, used, user);
}

/* From rules version 3 on, before a worm strikes a territory where the
 * Fremen's ally stands (public facts), a WORM_ALLY window asks the Fremen
 * whether it is spared, over the step of the worm about to strike, which
 * waits on nobody; the territory waits in worm_territory. Returns 1 if
 * asked. */
static int ask_fremen(engine_state *st, unsigned territory)
{
    int fremen = engine__point_owner(st, ENGINE__POINT_WORM_ALLY_CHOICE);
    if (fremen < 0 || st->ally[fremen] == SEAT_NONE ||
        !stands_in(st, territory, st->ally[fremen]))
        return 0;
    st->worm_territory = (uint8_t)territory;
    st->step = BLOW_STEP_WORM_ALLY;
    st->awaiting = 0;
    st->answered = 0;
    engine__frame_push(st, ENGINE_WINDOW_WORM_ALLY, (unsigned)fremen, st->ally[fremen], NULL,
                       ENGINE_SEAT_BIT((unsigned)fremen));
    return 1;
}

/* The seats with forces (or advisors) in `territory`. */
static uint16_t standing_in(const engine_state *st, unsigned territory)
{
    uint16_t seats = 0;
    for (unsigned s = 0; s < st->config.n_seats; s++)
        if (stands_in(st, territory, s))
            seats |= (uint16_t)ENGINE_SEAT_BIT(s);
    return seats;
}

/* The worm strikes `territory` (after the windows it may open, when it
 * returns 1: they resume the blow). From rules version 8 in a Nexus
 * Cards room, the moment of every seat whose forces it strikes
 * (engine/nexus_moment.c). */
static int strike(engine_state *st, unsigned territory)
{
    if (ask_fremen(st, territory) || hold_worm(st, territory) ||
        engine__nexus_moment(st, ENGINE_NEXUS_AT_WORM, standing_in(st, territory),
                             (int)territory))
        return 1;
    devour(st, territory);
    return 0;
}

void engine__spice_blow_resume(engine_state *st, unsigned territory, engine_rng *rng)
{
    devour(st, territory);
    blow(st, 1, rng);
}

/* From turn 2 the owner of ENGINE__POINT_KARAMA_WORM, if it has not used
 * its Karama power and holds any card (hand sizes are public: being asked
 * says nothing of a Karama), is asked before the first reveal whether it
 * places a worm (LR 1.14.03; docs/RULINGS.md R115). Returns 1 if asked. */
static int ask_karama_worm(engine_state *st)
{
    int fremen = engine__point_owner(st, ENGINE__POINT_KARAMA_WORM);
    if (fremen < 0 || st->turn < 2 || (st->karama_power_used & ENGINE_SEAT_BIT((unsigned)fremen)) ||
        !engine__holds_cards(st, (unsigned)fremen))
        return 0;
    st->step = BLOW_STEP_KARAMA_WORM;
    st->awaiting = ENGINE_SEAT_BIT((unsigned)fremen);
    st->answered = 0;
    return 1;
}

/* Like engine__worm_placing: not under a window held over the step (one
 * resuming the step's own held action is closing). */
static int under_window(const engine_state *st)
{
    for (unsigned i = 0; i < st->n_frames; i++)
        if (!engine__windows[st->frame[i].point].is_question && !st->frame[i].is_resuming)
            return 1;
    return 0;
}

int engine__karama_worm_asking(const engine_state *st)
{
    return st->phase == ENGINE_PHASE_SPICE_BLOW && st->step == BLOW_STEP_KARAMA_WORM &&
           !under_window(st);
}

void engine__karama_worm(engine_state *st, int territory, engine_rng *rng)
{
    if (territory < 0)
        blow(st, 0, rng);
    else
        engine__worm_placed(st, (unsigned)territory, rng);
}

void engine__spice_blow_begin(engine_state *st, engine_rng *rng)
{
    engine__phase_enter(st, ENGINE_PHASE_SPICE_BLOW);
    st->is_nexus_this_phase = 0;
    st->worm_territory = ENGINE_TERRITORY_COUNT;
    if (st->config.is_advanced && !engine__double_blow(st))
        return; /* an Advanced room of a version before 6: not built (engine__phase_is_built) */
    if (ask_karama_worm(st))
        return;
    blow(st, 0, rng);
}

/* ================================================= further worms (Adv) */

int engine__worm_placing(const engine_state *st)
{
    /* Not under a window held over the step (a question only pauses it). */
    return st->phase == ENGINE_PHASE_SPICE_BLOW && st->step == BLOW_STEP_WORM_PLACE &&
           !under_window(st);
}

void engine__worm_placed(engine_state *st, unsigned territory, engine_rng *rng)
{
    if (!strike(st, territory))
        blow(st, 1, rng);
}

void engine__worm_unplaced(engine_state *st, engine_rng *rng)
{
    unsigned territory = top_territory(st);
    if (territory < ENGINE_TERRITORY_COUNT && strike(st, territory))
        return;
    blow(st, 1, rng);
}

/* In the double blow every worm of a pile after its first is placed by
 * the owner of ENGINE__POINT_WORM_PLACEMENT, when one plays (LR 2.04.15;
 * counted per pile, docs/RULINGS.md "Double spice blow"): the step waits
 * on it. Returns 1 if asked. */
static int ask_placer(engine_state *st)
{
    if (!engine__double_blow(st) || st->pile_worms++ == 0)
        return 0;
    int placer = engine__point_owner(st, ENGINE__POINT_WORM_PLACEMENT);
    if (placer < 0)
        return 0;
    st->step = BLOW_STEP_WORM_PLACE;
    st->awaiting = ENGINE_SEAT_BIT((unsigned)placer);
    st->answered = 0;
    return 1;
}

/* Reveals spice cards until a territory card (`worm`: one came already),
 * then the pile's Nexus if a worm came (LR 1.02.03, 1.13.02). */
static void blow(engine_state *st, int worm, engine_rng *rng)
{
    for (;;) {
        int card = spice_draw(st, rng);
        if (card < 0)
            break;
        const engine__spice_card_row *row = &engine__spice_cards[card];
        if (row->is_worm) {
            if (st->turn == 1) {
                /* Turn 1: set aside, shuffled back after the phase (LR 1.02.02). */
                st->spice_card[card].place = ENGINE_PLACE_SET_ASIDE;
                st->spice_card[card].known_by = engine__shown(st);
                continue;
            }
            unsigned territory = top_territory(st);
            spice_discard(st, (unsigned)card);
            worm = 1;
            if (ask_placer(st))
                return;
            /* No territory card under it: the worm strikes nothing, and
             * is a worm all the same (LR 1.13.02.02 "if any"). */
            if (territory < ENGINE_TERRITORY_COUNT && strike(st, territory))
                return;
            continue;
        }
        /* A territory card: its spice on the icon sector unless the storm
         * is there (LR 1.02.04). */
        if (!engine__in_storm(st, row->location)) {
            st->spice[row->location] = (uint8_t)(st->spice[row->location] + row->amount);
            st->spice_minted += row->amount;
        }
        spice_discard(st, (unsigned)card);
        break;
    }
    /* Turn 1's worms set aside go back at the end of the phase: after
     * pile B in the double blow (LR 1.02.02). */
    if (st->turn == 1 && (!engine__double_blow(st) || st->blow_pile == 1)) {
        int moved = 0;
        for (unsigned c = 0; c < st->n_spice_cards; c++)
            if (st->spice_card[c].place == ENGINE_PLACE_SET_ASIDE) {
                st->spice_card[c].place = ENGINE_PLACE_DECK;
                st->spice_deck[st->n_spice_deck++] = (uint8_t)c;
                moved = 1;
            }
        if (moved) {
            engine__shuffle(st->spice_deck, st->n_spice_deck, rng);
            for (unsigned i = 0; i < st->n_spice_deck; i++)
                st->spice_card[st->spice_deck[i]].known_by = 0;
        }
    }
    if (worm) {
        /* A Nexus follows a worm (LR 1.02.03), in the double blow each
         * pile's; recorded as a fact of the phase, which the Nexus of
         * pile B never clears (ADVANCED_RULES.md 2.4). */
        st->is_nexus_this_phase = 1;
        st->step = BLOW_STEP_NEXUS;
        st->awaiting = (uint16_t)((1u << st->config.n_seats) - 1);
        st->answered = 0;
        return;
    }
    pile_end(st, rng);
}

/* The Fremen's answer for their ally (1 spared, 0 not), which closes the
 * window. */
engine_verdict engine__fremen_protect_ally(engine_verdict_detail *why, engine_state *st,
                                           const engine_action *act, engine_rng *rng)
{
    int protect = act->arg[0];
    if (protect < 0 || protect > 1)
        return engine__reject(why, ENGINE_REJECT_ARG_OUT_OF_RANGE, 0, protect);
    if (protect)
        st->fremen_gifts |= ENGINE_GIFT_WORM;
    engine__frame_close(st, act, rng);
    return ENGINE_ACCEPTED;
}

/* Then the worm's Karama window, nested in this one's close, or the
 * strike. */
void engine__worm_ally_resume(engine_state *st, const engine_frame *f, const engine_action *answer,
                              engine_rng *rng)
{
    (void)f;
    (void)answer;
    unsigned territory = st->worm_territory;
    if (!hold_worm(st, territory))
        engine__spice_blow_resume(st, territory, rng);
}

size_t engine__legal_fremen_protect_ally(engine_legal *out, size_t cap, const engine_state *st,
                                         uint8_t seat)
{
    (void)st;
    size_t n = 0;
    engine__legal_push1(out, cap, &n, ENGINE_ACTION_FREMEN_PROTECT_ALLY, seat, 0, 1, 0, 0);
    return n;
}

/* ============================================================== Nexus */

static int target_seat(const engine_state *st, int faction)
{
    if (faction < 0 || faction >= ENGINE_FACTION_COUNT)
        return -1;
    return engine__seat_of(st, (unsigned)faction);
}

static void nexus_answered(engine_state *st, uint8_t seat, engine_rng *rng)
{
    st->answered |= ENGINE_SEAT_BIT(seat);
    if (st->answered == st->awaiting)
        after_nexus(st, rng);
}

/* An alliance is proposed to another unallied seat, once per Nexus. */
engine_verdict engine__alliance_propose(engine_verdict_detail *why, engine_state *st,
                                        const engine_action *act, engine_rng *rng)
{
    (void)rng;
    int t = target_seat(st, act->arg[0]);
    if (t < 0)
        return engine__reject(why, ENGINE_REJECT_ARG_OUT_OF_RANGE, 0, act->arg[0]);
    if (t == act->seat)
        return engine__reject(why, ENGINE_REJECT_ALLY_SELF, 0, act->arg[0]);
    if (st->ally[act->seat] != SEAT_NONE || st->ally[t] != SEAT_NONE)
        return engine__reject(why, ENGINE_REJECT_ALREADY_ALLIED, 0, act->arg[0]);
    if (st->answered & ENGINE_SEAT_BIT(t))
        return engine__reject(why, ENGINE_REJECT_NOT_AWAITED, 0, act->arg[0]);
    if ((st->nexus_proposals[act->seat] | st->nexus_refused[act->seat]) & ENGINE_SEAT_BIT(t))
        return engine__reject(why, ENGINE_REJECT_ALREADY_PROPOSED, 0, act->arg[0]);
    st->nexus_proposals[act->seat] |= ENGINE_SEAT_BIT(t);
    return ENGINE_ACCEPTED;
}

/* A proposal is accepted: both are allies at once, publicly (LR 1.02.06). */
/* The seat whose proposal to the actor an accept or a refusal answers,
 * with the verdict when there is none: the seat named must have proposed
 * to the actor in this Nexus. */
static engine_verdict proposer(engine_verdict_detail *why, const engine_state *st,
                               const engine_action *act, int *t)
{
    *t = target_seat(st, act->arg[0]);
    if (*t < 0)
        return engine__reject(why, ENGINE_REJECT_ARG_OUT_OF_RANGE, 0, act->arg[0]);
    if (!(st->nexus_proposals[*t] & ENGINE_SEAT_BIT(act->seat)))
        return engine__reject(why, ENGINE_REJECT_NO_PROPOSAL, 0, act->arg[0]);
    return ENGINE_ACCEPTED;
}

engine_verdict engine__alliance_accept(engine_verdict_detail *why, engine_state *st,
                                       const engine_action *act, engine_rng *rng)
{
    (void)rng;
    int t;
    engine_verdict v = proposer(why, st, act, &t);
    if (v != ENGINE_ACCEPTED)
        return v;
    if (st->ally[act->seat] != SEAT_NONE || st->ally[t] != SEAT_NONE)
        return engine__reject(why, ENGINE_REJECT_ALREADY_ALLIED, 0, act->arg[0]);
    st->ally[act->seat] = (uint8_t)t;
    st->ally[t] = act->seat;
    st->nexus_proposals[t] &= (uint16_t)~ENGINE_SEAT_BIT(act->seat);
    st->ally_support[act->seat] = st->ally_support[t] = 0;
    engine__nexus_alliance_formed(st, act->seat, (unsigned)t);
    return ENGINE_ACCEPTED;
}

engine_verdict engine__alliance_refuse(engine_verdict_detail *why, engine_state *st,
                                       const engine_action *act, engine_rng *rng)
{
    (void)rng;
    int t;
    engine_verdict v = proposer(why, st, act, &t);
    if (v != ENGINE_ACCEPTED)
        return v;
    st->nexus_proposals[t] &= (uint16_t)~ENGINE_SEAT_BIT(act->seat);
    st->nexus_refused[t] |= ENGINE_SEAT_BIT(act->seat); /* once per pair per Nexus (R19) */
    return ENGINE_ACCEPTED;
}

/* An alliance is broken by either partner, once per Nexus per seat. */
engine_verdict engine__alliance_break(engine_verdict_detail *why, engine_state *st,
                                      const engine_action *act, engine_rng *rng)
{
    (void)rng;
    uint8_t a = st->ally[act->seat];
    if (a == SEAT_NONE)
        return engine__reject(why, ENGINE_REJECT_NOT_ALLIED, -1, 0);
    if (st->nexus_broken & ENGINE_SEAT_BIT(act->seat))
        return engine__reject(why, ENGINE_REJECT_ALREADY_BROKE, -1, 0);
    st->ally[act->seat] = st->ally[a] = SEAT_NONE;
    st->ally_support[act->seat] = st->ally_support[a] = 0;
    st->nexus_broken |= ENGINE_SEAT_BIT(act->seat);
    return ENGINE_ACCEPTED;
}

engine_verdict engine__nexus_done(engine_verdict_detail *why, engine_state *st,
                                  const engine_action *act, engine_rng *rng)
{
    (void)why;
    /* Proposals the seat made lapse when it leaves the table. */
    st->nexus_proposals[act->seat] = 0;
    for (unsigned s = 0; s < st->config.n_seats; s++)
        st->nexus_proposals[s] &= (uint16_t)~ENGINE_SEAT_BIT(act->seat);
    nexus_answered(st, act->seat, rng);
    return ENGINE_ACCEPTED;
}

/* ========================================================= worm ride */

/* Occupancy limit: no third faction in a stronghold (LR 1.06.03). */
int engine__stronghold_full(const engine_state *st, unsigned territory, unsigned seat)
{
    if (engine__territories[territory].kind != ENGINE_TERRAIN_STRONGHOLD)
        return 0;
    /* One pass over the locations (movement asks this at every border a
     * path search crosses), marking the seats present. */
    uint16_t others = 0;
    for (unsigned l = 0; l < ENGINE_LOCATION_COUNT; l++) {
        if (engine__locations[l].territory != territory)
            continue;
        for (unsigned s = 0; s < st->config.n_seats; s++)
            if (s != seat && (st->forces[l][s] || st->special[l][s]))
                others |= (uint16_t)ENGINE_SEAT_BIT(s);
    }
    return others != 0 && (others & (others - 1)) != 0; /* two seats or more */
}

static int holds_allied_forces(const engine_state *st, unsigned territory, unsigned seat)
{
    uint8_t a = st->ally[seat];
    if (a == SEAT_NONE || territory == ENGINE_TERRITORY_POLAR_SINK)
        return 0;
    for (unsigned l = 0; l < ENGINE_LOCATION_COUNT; l++)
        if (engine__locations[l].territory == territory && (st->forces[l][a] || st->special[l][a]))
            return 1;
    return 0;
}

/* The Fremen ride the worm with some or all of their forces in the struck
 * territory to any one location out of the storm, holding no allied forces,
 * within the occupancy limit (LR 2.04.08). */
engine_verdict engine__worm_ride(engine_verdict_detail *why, engine_state *st,
                                 const engine_action *act, engine_rng *rng)
{
    int loc = act->arg[0], plain = act->arg[1], elite = act->arg[2];
    unsigned have_elite;
    unsigned have = riders(st, &have_elite);
    if (loc < 0 || loc >= ENGINE_LOCATION_HMS)
        return engine__reject(why, ENGINE_REJECT_RIDE_DESTINATION, 0, loc);
    if (plain < 0 || elite < 0 || plain + elite == 0 || (unsigned)plain > have ||
        (unsigned)elite > have_elite)
        return engine__reject(why, ENGINE_REJECT_RIDE_SOURCE, plain < 0 || plain > (int)have ? 1 : 2,
                              plain);
    unsigned dest = engine__locations[loc].territory, from = ride_from(st);
    if (dest == st->worm_territory || dest == from)
        return engine__reject(why, ENGINE_REJECT_RIDE_DESTINATION, 0, loc);
    if (engine__in_storm(st, (unsigned)loc))
        return engine__reject(why, ENGINE_REJECT_STORM_BLOCKS, 0, loc);
    if (engine__stronghold_full(st, dest, act->seat))
        return engine__reject(why, ENGINE_REJECT_OCCUPANCY_LIMIT, 0, loc);
    if (holds_allied_forces(st, dest, act->seat))
        return engine__reject(why, ENGINE_REJECT_RIDE_DESTINATION, 0, loc);
    if (engine__advisors_intrusion_hold(st, act)) /* INTRUSION (rules version 8) */
        return ENGINE_ACCEPTED;
    /* Take the riders from the struck territory's sectors in location order. */
    unsigned left = (unsigned)plain, left_elite = (unsigned)elite;
    for (unsigned l = 0; l < ENGINE_LOCATION_COUNT; l++) {
        if (engine__locations[l].territory != from || engine__in_storm(st, l))
            continue;
        unsigned p = st->forces[l][act->seat] < left ? st->forces[l][act->seat] : left;
        unsigned e = st->special[l][act->seat] < left_elite ? st->special[l][act->seat] : left_elite;
        st->forces[l][act->seat] = (uint8_t)(st->forces[l][act->seat] - p);
        st->special[l][act->seat] = (uint8_t)(st->special[l][act->seat] - e);
        left -= p;
        left_elite -= e;
    }
    st->forces[loc][act->seat] = (uint8_t)(st->forces[loc][act->seat] + plain);
    st->special[loc][act->seat] = (uint8_t)(st->special[loc][act->seat] + elite);
    ridden(st, rng);
    return ENGINE_ACCEPTED;
}

engine_verdict engine__worm_ride_pass(engine_verdict_detail *why, engine_state *st,
                                      const engine_action *act, engine_rng *rng)
{
    (void)why;
    (void)act;
    ridden(st, rng);
    return ENGINE_ACCEPTED;
}

/* ===================================================== legal families */

static void push_target(engine_legal *out, size_t cap, size_t *n, const engine_state *st,
                        unsigned kind, uint8_t seat, unsigned target)
{
    engine_legal l;
    engine__legal_init(&l, kind, seat);
    l.lo[0] = l.hi[0] = st->seat[target].faction;
    engine__legal_push(out, cap, n, &l);
}

static void push_plain(engine_legal *out, size_t cap, size_t *n, unsigned kind, uint8_t seat)
{
    engine_legal l;
    engine__legal_init(&l, kind, seat);
    engine__legal_push(out, cap, n, &l);
}

size_t engine__legal_nexus(engine_legal *out, size_t cap, const engine_state *st, uint8_t seat)
{
    size_t n = 0;
    for (uint8_t t = 0; t < st->config.n_seats; t++) {
        if (t == seat)
            continue;
        int unallied = st->ally[seat] == SEAT_NONE && st->ally[t] == SEAT_NONE;
        if (unallied && !(st->answered & ENGINE_SEAT_BIT(t)) &&
            !((st->nexus_proposals[seat] | st->nexus_refused[seat]) & ENGINE_SEAT_BIT(t)))
            push_target(out, cap, &n, st, ENGINE_ACTION_ALLIANCE_PROPOSE, seat, t);
        if (st->nexus_proposals[t] & ENGINE_SEAT_BIT(seat)) {
            if (unallied)
                push_target(out, cap, &n, st, ENGINE_ACTION_ALLIANCE_ACCEPT, seat, t);
            push_target(out, cap, &n, st, ENGINE_ACTION_ALLIANCE_REFUSE, seat, t);
        }
    }
    if (st->ally[seat] != SEAT_NONE && !(st->nexus_broken & ENGINE_SEAT_BIT(seat)))
        push_plain(out, cap, &n, ENGINE_ACTION_ALLIANCE_BREAK, seat);
    push_plain(out, cap, &n, ENGINE_ACTION_NEXUS_DONE, seat);
    return n;
}

size_t engine__legal_worm_ride(engine_legal *out, size_t cap, const engine_state *st,
                               uint8_t seat)
{
    size_t n = 0;
    unsigned have_elite;
    unsigned have = riders(st, &have_elite), from = ride_from(st);
    for (unsigned loc = 0; loc < ENGINE_LOCATION_HMS; loc++) {
        unsigned dest = engine__locations[loc].territory;
        if (dest == st->worm_territory || dest == from || engine__in_storm(st, loc) ||
            engine__stronghold_full(st, dest, seat) || holds_allied_forces(st, dest, seat))
            continue;
        /* Families must not admit 0 riders: split on whether plain forces ride. */
        engine_legal l;
        engine__legal_init(&l, ENGINE_ACTION_WORM_RIDE, seat);
        l.lo[0] = l.hi[0] = (int16_t)loc;
        if (have > 0) {
            l.lo[1] = 1;
            l.hi[1] = (int16_t)have;
            l.lo[2] = 0;
            l.hi[2] = (int16_t)have_elite;
            engine__legal_push(out, cap, &n, &l);
        }
        if (have_elite > 0) {
            l.lo[1] = l.hi[1] = 0;
            l.lo[2] = 1;
            l.hi[2] = (int16_t)have_elite;
            engine__legal_push(out, cap, &n, &l);
        }
    }
    push_plain(out, cap, &n, ENGINE_ACTION_WORM_RIDE_PASS, seat);
    return n;
}
