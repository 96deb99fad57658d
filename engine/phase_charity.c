/*
 * phase_charity.c - CHOAM Charity (DUNE_RULES_DIGEST.md 4.3, LR 1.03): each
 * seat holding 0 or 1 spice may claim charity once per turn, which tops it
 * up to 2 spice from the bank. Seats with 2 or more are not asked. A seat
 * a power grants charity to (the Advanced Bene Gesserit, LR 2.02.09:
 * ENGINE__POINT_CHARITY_GRANT) receives it first, whatever it holds, and
 * is not asked. From rules version 7 a Karama may stop an Advanced
 * charity given to a seat holding 2 or more (FAQ20 pp. 7-8; below 2 it
 * tops up like any charity): the phase's start is held in a Karama window
 * (engine/karama.c) before anything is given.
 */
#include "engine/phase.h"

#define CHARITY_LEVEL 2

/* Rules version 7: holds the phase's start while a Karama may stop the
 * charity a power gives a seat holding 2 or more; 1 if held. */
static int held(engine_state *st)
{
    if (!engine__rule(st, ENGINE__RULE_ADVANCED_KARAMA))
        return 0;
    for (unsigned s = 0; s < st->config.n_seats; s++) {
        unsigned a = engine__point_advantage(st, ENGINE__POINT_CHARITY_GRANT, s);
        if (a != ENGINE_ADVANTAGE_NONE && st->seat[s].spice >= CHARITY_LEVEL) {
            engine_action step = {ENGINE_ACTION_NONE, (uint8_t)s, {0}};
            return engine__karama_hold(st, &step, ENGINE_ADVANTAGE_BIT(a), s);
        }
    }
    return 0;
}

void engine__charity_begin(engine_state *st, engine_rng *rng)
{
    engine__phase_enter(st, ENGINE_PHASE_CHOAM_CHARITY);
    st->step = CHARITY_STEP_CLAIM;
    if (!held(st))
        engine__charity_resume(st, rng);
}

/* The grants (a cancelled one's row gives nothing, engine__point_value),
 * then the claims asked. */
void engine__charity_resume(engine_state *st, engine_rng *rng)
{
    for (unsigned s = 0; s < st->config.n_seats; s++) {
        unsigned grant = (unsigned)engine__point_value(st, ENGINE__POINT_CHARITY_GRANT, s, 0);
        if (grant) {
            st->seat[s].spice = (uint16_t)(st->seat[s].spice + grant);
            st->spice_minted += grant;
        } else if (st->seat[s].spice < CHARITY_LEVEL) {
            st->awaiting |= ENGINE_SEAT_BIT(s);
        }
    }
    if (!st->awaiting)
        engine__bidding_begin(st, rng);
}

static void answered(engine_state *st, uint8_t seat, engine_rng *rng)
{
    st->answered |= ENGINE_SEAT_BIT(seat);
    if (st->answered == st->awaiting)
        engine__bidding_begin(st, rng);
}

engine_verdict engine__charity_claim(engine_verdict_detail *why, engine_state *st,
                                     const engine_action *act, engine_rng *rng)
{
    engine_seat_state *p = &st->seat[act->seat];
    if (p->spice >= CHARITY_LEVEL)
        return engine__reject(why, ENGINE_REJECT_CHARITY_NOT_ELIGIBLE, -1, p->spice);
    unsigned gift = CHARITY_LEVEL - p->spice;
    p->spice = CHARITY_LEVEL;
    st->spice_minted += gift;
    answered(st, act->seat, rng);
    return ENGINE_ACCEPTED;
}

engine_verdict engine__charity_decline(engine_verdict_detail *why, engine_state *st,
                                       const engine_action *act, engine_rng *rng)
{
    (void)why;
    answered(st, act->seat, rng);
    return ENGINE_ACCEPTED;
}

size_t engine__legal_charity(engine_legal *out, size_t cap, const engine_state *st, uint8_t seat)
{
    size_t n = 0;
    if (st->seat[seat].spice < CHARITY_LEVEL)
        engine__legal_push1(out, cap, &n, ENGINE_ACTION_CHARITY_CLAIM, seat, 0, 0, 0, 0);
    engine__legal_push1(out, cap, &n, ENGINE_ACTION_CHARITY_DECLINE, seat, 0, 0, 0, 0);
    return n;
}
