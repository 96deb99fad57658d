/*
 * secret.c - which arguments of an action are secret: known to the acting
 * seat (and the auditor) when it is submitted, to nobody else until a rule
 * reveals them (engine.h, engine_action_secret_mask). The log, the views
 * and what the ledger keeps sealed read it from here, so no client keeps a
 * table of its own.
 *
 * Part of engine/. Facts only: two tables, read-only, and a lookup. It
 * never reads a state, allocates or does I/O. The core rules' secret
 * actions are the first table; an action a faction power makes takes its
 * mask from that power's row (the `secret_args` column of engine/powers_*.c)
 * at the point the second table names, so the row stays the one place the
 * power is written down.
 */
#include "engine/internal.h"

/* Secret arguments of the core rules' actions (bit i: argument i). */
static const struct {
    uint8_t kind;                  /* engine_action_kind */
    uint8_t mask;                  /* bit i: argument i is secret */
    const char *source;            /* the rule that keeps them secret */
} core[] = {
    /* The dials are secret; only the storm's total move is told. */
    {ENGINE_ACTION_STORM_DIAL, 0x01, "LR 1.01.01"},
    /* Each keeps one of the traitors dealt, face down. */
    {ENGINE_ACTION_TRAITOR_PICK, 0x01, "LR 0.04 (setup: traitors)"},
    /* The element asked is told to the Atreides side alone. */
    {ENGINE_ACTION_PRESCIENCE_ANSWER, 0x03, "LR 2.01 (Atreides: battle prescience), 1.13.04"},
    /* Plans are made in secret and revealed together. */
    {ENGINE_ACTION_BATTLE_PLAN, 0xFF, "LR 1.07.04, 1.07.05, 1.13.04 (forces by strength)"},
    /* The Nexus Cards: the own-faction policy is the drawer's alone. */
    {ENGINE_ACTION_NEXUS_DRAW, 0x02, "docs/RULINGS.md R80"},
    /* A generic power: which of its arguments are secret is its row's
     * form (engine_generic_secret_mask); by kind alone, any of them may be
     * (the power's id, argument 0, is public). */
    {ENGINE_ACTION_POWER, 0xFE, "docs/ARCHITECTURE.md (generic actions)"},
    /* A generic window's answer: its row's answer form, as a power's. */
    {ENGINE_ACTION_ANSWER, 0xFE, "docs/ARCHITECTURE.md (generic window answers)"},
};

/* Actions a faction power makes, and the point of its row. */
static const struct {
    uint8_t kind;                  /* engine_action_kind */
    uint8_t point;                 /* engine__point of the power's row */
} power_action[] = {
    {ENGINE_ACTION_PREDICT, ENGINE__POINT_SETUP_PREDICTION},
};

uint8_t engine_action_secret_mask(unsigned kind)
{
    if (kind == ENGINE_ACTION_NONE)
        return 0;
    if (engine_action_spec_of(kind) == NULL)
        return 0xFF; /* an unknown kind: nothing of it is shown */
    uint8_t mask = 0;
    for (size_t i = 0; i < sizeof core / sizeof core[0]; i++)
        if (core[i].kind == kind)
            mask |= core[i].mask;
    for (size_t i = 0; i < sizeof power_action / sizeof power_action[0]; i++) {
        if (power_action[i].kind != kind)
            continue;
        for (unsigned f = 0; f < ENGINE_FACTION_COUNT; f++) {
            const engine__power_family *fam = engine__power_families[f];
            for (size_t r = 0; fam != NULL && r < fam->n; r++)
                if (fam->rows[r].point == power_action[i].point)
                    mask |= fam->rows[r].secret_args;
        }
    }
    return mask;
}

uint8_t engine_action_secret_args(const engine_action *act)
{
    return engine_action_is_generic(act->kind) ? engine_generic_secret_mask(act)
                                               : engine_action_secret_mask(act->kind);
}
