/*
 * phase.h - the phase machine, drawn once. Internal to engine/.
 *
 *   engine_setup ──> SETUP ─────────────────────────────────────────┐
 *                    step PREDICTION   Bene Gesserit predicts        │
 *                    step TRAITORS     each seat keeps a traitor     │
 *                    step FREMEN       Fremen place 10 forces        │
 *                    step BG_PLACE     (Advanced) BG places advisor  │
 *                    (a step whose faction is absent is skipped;     │
 *                     starting treachery cards are dealt after the   │
 *                     last placement)                                │
 *   ┌────────────────────────────────────────────────────────────────┘
 *   v            turn := turn + 1
 *   STORM ─ step CARDS (after turn 1): Weather Control, Family Atomics;
 *   │       step DIAL: two dialers dial in secret (0..20 on turn 1, 1..3
 *   │       later); storm_move() kills, burns spice, moves the storm
 *   v
 *   SPICE_BLOW ─> CHOAM_CHARITY ─> BIDDING ─> REVIVAL ─> SHIPMENT_MOVEMENT
 *        ─> BATTLE ─> SPICE_COLLECTION ─> MENTAT_PAUSE ─┬─> STORM (next turn)
 *                                                       └─> GAME_OVER
 *
 * Transitions and the function that performs each:
 *   SETUP/PREDICTION -> SETUP/TRAITORS     setup_advance()    (phase_setup.c)
 *   SETUP/TRAITORS   -> SETUP/FREMEN       setup_advance()
 *   SETUP/FREMEN     -> SETUP/BG_PLACE     setup_advance()
 *   SETUP/last       -> STORM/DIAL         setup_advance() -> engine__storm_begin()
 *   STORM/DIAL       -> SPICE_BLOW         engine__spice_blow_begin() (phase_spice_blow.c)
 *   SPICE_BLOW        reveal until a territory card; after a worm (not on
 *                     turn 1) step NEXUS, then WORM_RIDE if the Fremen
 *                     survived in the struck territory; before a worm
 *                     strikes the Fremen's ally, step WORM_ALLY (waiting
 *                     on nobody) under a WORM_ALLY window asking the Fremen
 *   SPICE_BLOW        with the Nexus Cards, after a Nexus while an alliance
 *                     exists: step NEXUS_DRAW, the unallied seats   (nexus.c)
 *   SPICE_BLOW        Advanced (rules version 6): pile A, its Nexus and
 *                     rides (one WORM_RIDE per territory struck), then
 *                     pile B, its Nexus and rides; a pile's second worm
 *                     on is placed at step WORM_PLACE by the power's
 *                     owner (the Fremen); NEXUS_DRAW only after pile B;
 *                     from rules version 7, turn 2, step KARAMA_WORM
 *                     first asks the Fremen for their Karama worm
 *   SPICE_BLOW/last  -> CHOAM_CHARITY      engine__charity_begin()    (phase_charity.c)
 *   CHARITY/CLAIM    -> BIDDING            engine__bidding_begin()    (phase_bidding.c)
 *   BIDDING/SUPPORT  -> BIDDING/AUCTION    one card at a time, storm order
 *   BIDDING/AUCTION  -> REVIVAL            engine__revival_begin()    (phase_revival.c)
 *   REVIVAL/EMPEROR  -> REVIVAL/REVIVE     EMPEROR waits on nobody under an
 *                                          ALLY_REVIVAL window asking the patrons
 *   REVIVAL/REVIVE   -> SHIPMENT_MOVEMENT  engine__shipment_begin()   (phase_shipment.c)
 *   SHIPMENT_MOVEMENT  per seat in storm order: SHIP -> MOVE; an off-planet
 *                      shipment by another opens a BG_SEND window over SHIP
 *                      (the Bene Gesserit alone), which sends or not and
 *                      goes on to MOVE; a shipment
 *                      proposed at the Karama rate with another seat's card
 *                      opens a SHIP_PAYER window over SHIP (that seat
 *                      alone), which ships (as SHIP with a Karama) or
 *                      gives SHIP back
 *   SHIPMENT_MOVEMENT -> BATTLE            engine__battle_begin()     (phase_battle.c)
 *   BATTLE            per battle: CHOOSE (when the aggressor has a choice)
 *                     -> PLAN -> TRAITOR -> KEEP, the PLAN step first under
 *                     the windows VOICE -> PRESCIENCE -> PRESCIENCE_ANSWER
 *   BATTLE -> SPICE_COLLECTION             engine__collection_begin() (phase_collection.c)
 *   SPICE_COLLECTION -> MENTAT_PAUSE       engine__mentat_pause_begin() (phase_mentat_pause.c)
 *   MENTAT_PAUSE -> GAME_OVER              a victory, or the end of the last turn
 *   MENTAT_PAUSE -> STORM                  engine__storm_begin(): the next turn,
 *                                          step CARDS first when a seat holds cards
 *   In the Advanced game the Spice Blow (double blow) is not built yet: the
 *   game stops there likewise.
 *
 * Side actions (engine/side.c): in any step of a built phase after SETUP,
 * a seat the game waits on that has not answered may also play a card
 * usable at any time (Tleilaxu Ghola, Truthtrance); doing so answers
 * nothing and leaves phase, step, awaiting and answered as they were, so
 * no seat is ever asked because it holds a card.
 *
 * Windows (engine/frame.c): every pause that asks a seat in the middle of
 * a step is a frame on the window stack, above the step, which keeps its
 * own awaiting and answered untouched: a Truthtrance question (its target
 * answers, engine/side.c), a Karama window (engine/karama.c: an action
 * using a faction advantage a Karama may cancel is checked in full and
 * held in the frame, the seats asked allow or cancel, all allowing applies
 * it, the first cancel applies it without the advantage or drops it and
 * gives the step back with the advantage unavailable, an
 * ENGINE_EFFECT_CANCELLED record, until the seat has acted), a shipment
 * held for another seat's Karama (its payer pays or declines,
 * engine/phase_shipment.c), the Bene Gesserit's send, a battle's Voice and
 * prescience (engine/phase_battle.c) and the Fremen's and the patrons'
 * choices for their allies (engine/phase_spice_blow.c, phase_revival.c). While a frame is open the game waits on its
 * asked seats, whose answers, the kinds its point lists, are the only
 * actions accepted; the answer that closes it pops it and calls its
 * point's resume function. No seat left to ask means no window.
 *
 * Guaranteed in every phase (engine_state_check asserts each):
 *   (1) answered is a subset of awaiting, awaiting a subset of the seats;
 *   (2) every component is in exactly one place (cards, traitors, spice
 *       cards, leaders, forces), force totals per faction are the printed
 *       ones, and seat plus board spice equals minted minus burned;
 *   (3) in a built phase before GAME_OVER some awaited seat has not yet
 *       answered and has a legal action;
 *   (4) turn is 0 in SETUP and 1..turn_limit afterwards;
 *   (5) the window stack holds one frame, a Truthtrance question above a
 *       window admitting side actions, or a Karama window above the Bene
 *       Gesserit's send, the Voice, the prescience question or the
 *       patrons' choices (the shapes the encoding of rules versions 2 to
 *       5 holds), each asking someone who has not answered; a pending
 *       Truthtrance question has an asker and a target, two different
 *       seats, in a built phase after SETUP and before GAME_OVER; (3)
 *       holds for what it paused;
 *   (6) an open Karama window offers advantages of one faction, present,
 *       whose seat it does not ask, holds an action of the current phase
 *       over a step or a window that waits on somebody; a cancellation
 *       names the seat that must retake, which that step waits on (or
 *       whose shipment proposal is held);
 *   (7) a shipment proposal paid with another seat's Karama is held in a
 *       SHIP_PAYER window over the SHIP step of the seat in turn, still
 *       valid as checked, the window asking the payer alone;
 *       the seats named are cleared when that seat's SHIP step ends, and
 *       a BG_SEND window over that step asks the Bene Gesserit alone;
 *   (8) in the battle's PLAN step every seat still to commit has a legal
 *       plan: what binds a plan (a prescience answer naming a card, a
 *       leader or a Cheap Hero) is still playable by the side it binds, so
 *       a world where the named card has another face is not one the game
 *       can reach.
 *   A constructed position under construction (engine/position.c) sits in
 *   SETUP at step SETUP_STEP_COUNT and waits on nobody until it enters a
 *   phase.
 */
#ifndef MENTAT_ENGINE_PHASE_H
#define MENTAT_ENGINE_PHASE_H

#include "engine/internal.h"

enum engine__setup_step {
    SETUP_STEP_PREDICTION = 0,
    SETUP_STEP_TRAITORS,
    SETUP_STEP_FREMEN,
    SETUP_STEP_BG_PLACE,
    SETUP_STEP_COUNT
};

enum engine__storm_step {
    STORM_STEP_DIAL = 0,           /* two dialers dial in secret */
    STORM_STEP_CARDS,              /* after turn 1: Weather Control, Family Atomics, or pass */
    STORM_STEP_LOSSES,             /* (Advanced, rules version 7) the storm has moved: the
                                      Fremen choose which of their tokens it takes, one
                                      location at a time (storm_loss_at) */
    STORM_STEP_COUNT
};

enum engine__battle_step {
    BATTLE_STEP_CHOOSE = 0,        /* the aggressor picks a territory and opponent */
    BATTLE_STEP_VOICE,             /* never taken: the VOICE window over PLAN, told so */
    BATTLE_STEP_PRESCIENCE,        /* never taken: the PRESCIENCE window, told so */
    BATTLE_STEP_PRESCIENCE_ANSWER, /* never taken: the PRESCIENCE_ANSWER window, told so */
    BATTLE_STEP_PLAN,              /* both sides commit plans in secret */
    BATTLE_STEP_TRAITOR,           /* plans revealed; each side may call a traitor */
    BATTLE_STEP_KEEP,              /* the winner keeps or discards its cards */
    BATTLE_STEP_CAPTURE,           /* (Advanced, rules version 8) the owner of
                                      ENGINE__POINT_CAPTURE, having won, captures or kills
                                      the leader drawn (engine/capture.c) */
    BATTLE_STEP_COUNT
};

enum engine__blow_step {
    BLOW_STEP_NEXUS = 0,           /* every seat negotiates, then says done */
    BLOW_STEP_WORM_RIDE,           /* the Fremen may ride the worm */
    BLOW_STEP_WORM_ALLY,           /* (rules version 3) a worm about to strike
                                      worm_territory: waits on nobody, under the
                                      WORM_ALLY window or its Karama window */
    BLOW_STEP_NEXUS_DRAW,          /* (Nexus Cards) the unallied seats draw, replace or
                                      decline, as one opportunity (engine/nexus.c) */
    BLOW_STEP_WORM_PLACE,          /* (Advanced, rules version 6) a pile's second worm or
                                      later: its placer names the sand territory it strikes */
    BLOW_STEP_KARAMA_WORM,         /* (Advanced, rules version 7) as the blow begins, from
                                      turn 2: the Fremen place a worm with their Karama
                                      power, or decline */
    BLOW_STEP_COUNT
};

enum engine__charity_step {
    CHARITY_STEP_CLAIM = 0,        /* seats with 0 or 1 spice claim or decline */
    CHARITY_STEP_COUNT
};

enum engine__bidding_step {
    BIDDING_STEP_SUPPORT = 0,      /* allied seats set the spice their ally may bid with */
    BIDDING_STEP_AUCTION,          /* one seat at a time bids or passes */
    BIDDING_STEP_COUNT
};

enum engine__shipment_step {
    SHIP_STEP_SHIP = 0,            /* the seat in turn ships, sends or passes */
    SHIP_STEP_BG_SEND,             /* never a step now: names the BG_SEND window (the Bene
                                      Gesserit may send a force to the Polar Sink) in the
                                      canonical encoding (engine/frame.c) */
    SHIP_STEP_MOVE,                /* the seat in turn moves (Hajr: once more) or passes */
    SHIP_STEP_KARAMA_ANSWER,       /* never a step now: names the SHIP_PAYER window in the
                                      encoding of rules versions 2 and 3 (engine/frame.c) */
    SHIP_STEP_COUNT
};

enum engine__revival_step {
    REVIVAL_STEP_EMPEROR = 0,      /* the ally revival offers: waits on nobody, under the
                                      ALLY_REVIVAL window asking the Emperor (extra paid
                                      revivals) and (rules version 3) the Fremen (3 free) */
    REVIVAL_STEP_REVIVE,           /* every seat with something to revive */
    REVIVAL_STEP_COUNT
};

/* 1 if the current phase's actions are built (for these rules). */
int engine__phase_is_built(const engine_state *st);

/* Enters the Storm phase of turn st->turn + 1 and asks its dialers (or,
 * with the Advanced storm deck, moves the storm at once). */
void engine__storm_begin(engine_state *st, engine_rng *rng);

/* Leaves whatever phase for `phase`: sets phase, step 0, clears the
 * awaiting and answered masks. */
void engine__phase_enter(engine_state *st, unsigned phase);

/* Phase entries, each running the phase's automatic steps until it waits
 * on a seat or hands over to the next phase. */
void engine__spice_blow_begin(engine_state *st, engine_rng *rng);
void engine__charity_begin(engine_state *st, engine_rng *rng);
void engine__bidding_begin(engine_state *st, engine_rng *rng);
void engine__revival_begin(engine_state *st, engine_rng *rng);
void engine__shipment_begin(engine_state *st, engine_rng *rng);
void engine__battle_begin(engine_state *st, engine_rng *rng);
void engine__collection_begin(engine_state *st, engine_rng *rng);
void engine__mentat_pause_begin(engine_state *st, engine_rng *rng);

/* Resume an automatic step a Karama window held (engine/karama.c): in the
 * auction, `stage` 0 a sale's payment, 1 its card, 2 the card coming up
 * (`opener` opens it; engine/phase_bidding.c); the Atreides' look at the
 * spice deck as Shipment begins (engine/phase_shipment.c). */
void engine__bidding_resume(engine_state *st, unsigned stage, unsigned opener, engine_rng *rng);
/* The next card up, or the phase's end: after a window over a sale. */
void engine__bidding_card_up(engine_state *st, engine_rng *rng);
/* The next battle, or the phase's end: after a window over a battle's end. */
void engine__battle_next(engine_state *st, engine_rng *rng);
void engine__battle_after_capture(engine_state *st, engine_rng *rng);
void engine__shipment_resume(engine_state *st, engine_rng *rng);
/* ... and in the Spice Blow, the worm about to devour `territory`
 * (engine/phase_spice_blow.c). */
void engine__spice_blow_resume(engine_state *st, unsigned territory, engine_rng *rng);
/* The lot's Nexus window closed (engine/nexus_moment.c): the sale pays. */
void engine__bidding_lot_resume(engine_state *st, engine_rng *rng);
/* ... and the Advanced charity about to be given (engine/phase_charity.c),
 * the storm about to move `move` sectors, or (move ENGINE__STORM_RESUME_DRAW,
 * rules version 8 on) the storm deck's card about to be drawn
 * (engine/phase_storm.c). */
#define ENGINE__STORM_RESUME_DRAW 0xFF
void engine__charity_resume(engine_state *st, engine_rng *rng);
void engine__storm_resume(engine_state *st, unsigned move, engine_rng *rng);

/* The Nexus Cards module (engine/nexus.c); each does nothing in a room
 * without it. engine__nexus_setup deals the twelve faces to card numbers
 * and fills the deck (the last draw of the opening position);
 * engine__nexus_draw_begin opens the draw opportunity at the end of the
 * Spice Blow and Nexus phase when a Nexus occurred in it and an alliance
 * exists (1 if opened: the phase waits on it, and its close goes on to
 * CHOAM Charity); engine__nexus_alliance_formed discards the held cards
 * of both partners of an alliance just formed, whichever rule formed it. */
void engine__nexus_setup(engine_state *st, engine_rng *rng);
int engine__nexus_draw_begin(engine_state *st);
void engine__nexus_alliance_formed(engine_state *st, unsigned a, unsigned b);
/* 1 if the module's state keeps its invariants (a room without it: all of
 * it zero), for engine_state_check. */
int engine__nexus_check(const engine_state *st);

/* Seats in storm order, First Player first; returns how many. */
unsigned engine__storm_order(const engine_state *st, uint8_t out[ENGINE_MAX_SEATS]);

#endif
