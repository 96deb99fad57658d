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
 *   STORM ─ step DIAL: two dialers dial in secret (0..20 on turn 1,
 *   │       1..3 later); storm_move() kills, burns spice, moves the storm
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
 *   STORM/DIAL       -> SPICE_BLOW         storm_resolve()    (phase_storm.c)
 *   SPICE_BLOW and later                   not built yet: the game waits on
 *                                          nobody and every action is refused
 *                                          with ENGINE_REJECT_PHASE_NOT_IMPLEMENTED.
 *
 * Guaranteed in every phase (engine_state_check asserts each):
 *   (1) answered is a subset of awaiting, awaiting a subset of the seats;
 *   (2) every component is in exactly one place (cards, traitors, spice
 *       cards, leaders, forces), force totals per faction are the printed
 *       ones, and seat plus board spice equals minted minus burned;
 *   (3) in a built phase before GAME_OVER some awaited seat has not yet
 *       answered and has a legal action;
 *   (4) turn is 0 in SETUP and 1..turn_limit afterwards.
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
    STORM_STEP_DIAL = 0,
    STORM_STEP_COUNT
};

/* 1 if the phase's actions are built. */
int engine__phase_is_built(unsigned phase);

/* Enters the Storm phase of turn st->turn + 1 and asks its dialers (or,
 * with the Advanced storm deck, moves the storm at once). */
void engine__storm_begin(engine_state *st, engine_rng *rng);

/* Leaves whatever phase for `phase`: sets phase, step 0, clears the
 * awaiting and answered masks. */
void engine__phase_enter(engine_state *st, unsigned phase);

#endif
