/*
 * phase_battle.c - the Battle phase (DUNE_RULES_DIGEST.md 4.7, LR 1.07).
 * Not built yet: the game waits on nobody once it is entered.
 */
#include "engine/phase.h"

void engine__battle_begin(engine_state *st, engine_rng *rng)
{
    (void)rng;
    engine__phase_enter(st, ENGINE_PHASE_BATTLE);
}
