/*
 * side.c - side actions: the treachery cards played "at any time"
 * (DUNE_RULES_DIGEST.md 2.1; docs/RULINGS.md R32, R50, R55), the
 * Truthtrance question they may raise, and (rules version 3) the standing
 * Karama policy a seat may set whenever it is asked. A side action is legal in every
 * step of a built phase after setup, for a seat the step waits on that has
 * not answered (engine_apply checks that, engine/apply.c); it answers
 * nothing, so the step goes on where it was.
 *
 * Invariants: (1) no seat is ever asked because it holds a card: side
 * families are offered only to seats the step already waits on, and a side
 * action leaves phase, step, awaiting and answered untouched; (2) a
 * Truthtrance question is public (asker, target and then the answer are
 * in every view); while it is pending the game waits on the target alone,
 * whose yes/no answer is the only action accepted, and answering it
 * resumes the paused step exactly as it was.
 */
#include "engine/phase.h"

#define SEAT_NONE 0xFF
#define CARD_NONE 0xFF

/* ======================================================== Truthtrance */

/* Truthtrance: ask one other seat a yes/no question aloud; the game pauses
 * until the target answers, publicly and truthfully (DUNE_RULES_DIGEST.md
 * 2.1). Argument: the target's faction. */
engine_verdict engine__truthtrance(engine_verdict_detail *why, engine_state *st,
                                   const engine_action *act, engine_rng *rng)
{
    (void)rng;
    int t = act->arg[0] >= 0 && act->arg[0] < ENGINE_FACTION_COUNT
                ? engine__seat_of(st, (unsigned)act->arg[0]) : -1;
    unsigned card = engine__card_in_hand(st, act->seat, ENGINE_CARD_TRUTHTRANCE);
    if (card == CARD_NONE)
        return engine__reject(why, ENGINE_REJECT_NO_CARD, -1, 0);
    if (t < 0 || t == act->seat)
        return engine__reject(why, ENGINE_REJECT_ARG_OUT_OF_RANGE, 0, act->arg[0]);
    engine__treachery_discard(st, card);
    st->truthtrance_asker = act->seat;
    st->truthtrance_pending = (uint8_t)t;
    st->truthtrance_answer = SEAT_NONE;
    return ENGINE_ACCEPTED;
}

/* The target's answer, recorded for all to see; the paused step resumes
 * (its awaiting and answered were never touched). Argument: 1 yes, 0 no. */
engine_verdict engine__truthtrance_answer(engine_verdict_detail *why, engine_state *st,
                                          const engine_action *act, engine_rng *rng)
{
    (void)rng;
    int yes = act->arg[0];
    if (yes < 0 || yes > 1)
        return engine__reject(why, ENGINE_REJECT_ARG_OUT_OF_RANGE, 0, yes);
    st->truthtrance_answer = (uint8_t)yes;
    st->truthtrance_pending = SEAT_NONE;
    return ENGINE_ACCEPTED;
}

static size_t legal_truthtrance(engine_legal *out, size_t cap, const engine_state *st,
                                uint8_t seat)
{
    size_t n = 0;
    if (engine__card_in_hand(st, seat, ENGINE_CARD_TRUTHTRANCE) == CARD_NONE)
        return 0;
    for (uint8_t s = 0; s < st->config.n_seats; s++) {
        if (s == seat)
            continue;
        engine_legal l;
        engine__legal_init(&l, ENGINE_ACTION_TRUTHTRANCE, seat);
        l.lo[0] = l.hi[0] = st->seat[s].faction;
        engine__legal_push(out, cap, &n, &l);
    }
    return n;
}

size_t engine__legal_question(engine_legal *out, size_t cap, const engine_state *st,
                              uint8_t seat)
{
    size_t n = 0;
    if (seat != st->truthtrance_pending)
        return 0;
    engine_legal l;
    engine__legal_init(&l, ENGINE_ACTION_TRUTHTRANCE_ANSWER, seat);
    l.hi[0] = 1;
    engine__legal_push(out, cap, &n, &l);
    return n;
}

/* ======================================================= side actions */

/* The families of each side action, one row a kind; each of these kinds
 * has phase ENGINE__PHASE_ANY in the action table (engine/apply.c). */
static const engine__legal_fn side_legal[] = {
    engine__legal_ghola,           /* ENGINE_ACTION_GHOLA (engine/phase_revival.c) */
    legal_truthtrance,             /* ENGINE_ACTION_TRUTHTRANCE */
    engine__legal_karama_policy,   /* ENGINE_ACTION_KARAMA_POLICY (engine/karama.c) */
};

size_t engine__legal_side(engine_legal *out, size_t cap, const engine_state *st, uint8_t seat)
{
    size_t n = 0;
    if (st->phase == ENGINE_PHASE_SETUP || st->truthtrance_pending != SEAT_NONE)
        return 0;
    for (size_t i = 0; i < sizeof side_legal / sizeof side_legal[0]; i++)
        n += side_legal[i](out && n < cap ? out + n : NULL, n < cap ? cap - n : 0, st, seat);
    return n;
}
