/*
 * phase_collection.c - Spice Collection (DUNE_RULES_DIGEST.md 4.8, LR 1.08):
 * every seat with forces in a sector holding spice collects 2 spice per
 * force there, 3 if it has forces in Arrakeen or Carthag (ornithopters,
 * engine_collection_rate in engine/facts.c), never more than lies there;
 * in the Advanced game each seat occupying a stronghold that pays income
 * takes it from the bank besides (LR 1.13.01, engine/advanced.c). No
 * decisions: it runs inside the fold of the action that ended the Battle
 * phase, but for the Nexus Cards' window as it ends (rules version 8,
 * engine/nexus_choam.c).
 */
#include "engine/phase.h"

void engine__collection_begin(engine_state *st, engine_rng *rng)
{
    engine__phase_enter(st, ENGINE_PHASE_SPICE_COLLECTION);
    uint8_t order[ENGINE_MAX_SEATS];
    unsigned n = engine__storm_order(st, order);
    for (unsigned i = 0; i < n; i++) {
        unsigned s = order[i];
        unsigned rate = engine_collection_rate(st, s);
        for (unsigned l = 0; l < ENGINE_LOCATION_COUNT; l++) {
            unsigned forces = (unsigned)st->forces[l][s] + st->special[l][s];
            if (!forces || !st->spice[l])
                continue;
            unsigned take = forces * rate < st->spice[l] ? forces * rate : st->spice[l];
            st->spice[l] = (uint8_t)(st->spice[l] - take);
            st->seat[s].spice = (uint16_t)(st->seat[s].spice + take);
        }
        unsigned income = engine__stronghold_income(st, s);
        st->seat[s].spice = (uint16_t)(st->seat[s].spice + income);
        st->spice_minted += income;
    }
    if (engine__nexus_collection_ask(st)) /* the CHOAM card's window closes it */
        return;
    engine__mentat_pause_begin(st, rng);
}
