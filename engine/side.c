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
 * in every view); it is a window (engine/frame.c, point TRUTHTRANCE) on
 * top of the step: the game waits on the target alone, whose yes/no
 * answer is the only action accepted, and answering it closes the window
 * and leaves the answer as a record (ENGINE_EFFECT_ANSWER) until the next
 * question, the paused step going on exactly as it was.
 */
#include <assert.h>

#include "engine/phase.h"

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
    /* The question replaces the record of the last one (rules version 1:
     * its answer does, the last one standing meanwhile). */
    if (engine__rule(st, ENGINE__RULE_CARDS_WHEN_ASKED))
        engine__effect_remove(st, ENGINE_EFFECT_ANSWER, -1);
    engine__frame_push(st, ENGINE_WINDOW_TRUTHTRANCE, act->seat, act->seat, NULL,
                       ENGINE_SEAT_BIT((unsigned)t));
    return ENGINE_ACCEPTED;
}

/* The target's answer, recorded for all to see; the paused step resumes
 * (its awaiting and answered were never touched). Argument: 1 yes, 0 no. */
engine_verdict engine__truthtrance_answer(engine_verdict_detail *why, engine_state *st,
                                          const engine_action *act, engine_rng *rng)
{
    int yes = act->arg[0];
    if (yes < 0 || yes > 1)
        return engine__reject(why, ENGINE_REJECT_ARG_OUT_OF_RANGE, 0, yes);
    engine__frame_close(st, act, rng);
    return ENGINE_ACCEPTED;
}

/* The question closes: its answer is kept, public, until the next one. */
void engine__truthtrance_resume(engine_state *st, const engine_frame *f,
                                const engine_action *answer, engine_rng *rng)
{
    (void)rng;
    engine__effect_remove(st, ENGINE_EFFECT_ANSWER, -1);
    engine_effect e = {ENGINE_EFFECT_ANSWER, ENGINE_CARD_TRUTHTRANCE, f->owner,
                       (uint8_t)answer->arg[0], ENGINE_EXPIRY_REPLACED, 0};
    int full = engine__effect_add(st, &e);
    assert(full == 0); /* one record of its kind, and a frame is open only while there is room */
    (void)full;
}

size_t engine__legal_truthtrance(engine_legal *out, size_t cap, const engine_state *st,
                                 uint8_t seat)
{
    size_t n = 0;
    if (engine__card_in_hand(st, seat, ENGINE_CARD_TRUTHTRANCE) == CARD_NONE)
        return 0;
    for (uint8_t s = 0; s < st->config.n_seats; s++) {
        if (s == seat)
            continue;
        engine__legal_push1(out, cap, &n, ENGINE_ACTION_TRUTHTRANCE, seat, st->seat[s].faction,
                            st->seat[s].faction, 0, 0);
    }
    return n;
}

size_t engine__legal_question(engine_legal *out, size_t cap, const engine_state *st,
                              uint8_t seat)
{
    size_t n = 0;
    const engine_frame *f = engine_window_top(st);
    if (!f || f->point != ENGINE_WINDOW_TRUTHTRANCE || !(f->asked & ENGINE_SEAT_BIT(seat)))
        return 0;
    engine__legal_push1(out, cap, &n, ENGINE_ACTION_TRUTHTRANCE_ANSWER, seat, 0, 1, 0, 0);
    return n;
}

/* ======================================================= side actions */

/* The families of each side action, one row a kind; each of these kinds
 * has phase ENGINE__PHASE_ANY in the action table (engine/apply.c). */
static const engine__legal_fn side_legal[] = {
    engine__legal_ghola,           /* ENGINE_ACTION_GHOLA (engine/phase_revival.c) */
    engine__legal_truthtrance,     /* ENGINE_ACTION_TRUTHTRANCE */
    engine__legal_karama_policy,   /* ENGINE_ACTION_KARAMA_POLICY (engine/karama.c) */
    engine__legal_power,           /* ENGINE_ACTION_POWER (engine/generic.c) */
};

size_t engine__legal_side(engine_legal *out, size_t cap, const engine_state *st, uint8_t seat)
{
    size_t n = 0;
    const engine_frame *f = engine_window_top(st);
    if (st->phase == ENGINE_PHASE_SETUP || (f && !engine__windows[f->point].admits_side))
        return 0;
    if (!engine__rule(st, ENGINE__RULE_CARDS_WHEN_ASKED))
        return engine__legal_side_v1(out, cap, st, seat);
    for (size_t i = 0; i < sizeof side_legal / sizeof side_legal[0]; i++)
        n += side_legal[i](out && n < cap ? out + n : NULL, n < cap ? cap - n : 0, st, seat);
    return n;
}
