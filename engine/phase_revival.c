/*
 * phase_revival.c - the Revival phase (DUNE_RULES_DIGEST.md 4.5, LR 1.05;
 * rulings in docs/RULINGS.md "Revival"): up to 3 forces a turn from the
 * Tanks, the first few free (per faction; 3 for the Fremen's ally), the
 * rest 2 spice each to the bank; one leader a turn at its strength once all
 * the faction's leaders have died; the Emperor may pay for up to 3 extra
 * revivals of its ally's forces. No storm order: every seat answers at
 * once. The Emperor's offer and the Fremen ally's third free revival wait
 * on a Karama window (engine/karama.c). The Tleilaxu Ghola card, an extra
 * revival of a leader or up to 5 forces free, is played at any time (a side
 * action, engine/side.c); its handler lives here with the revival it
 * extends.
 */
#include "engine/phase.h"

#define SEAT_NONE 0xFF
#define CARD_NONE 0xFF
#define REVIVAL_LIMIT 3
#define REVIVAL_PRICE 2
#define EMPEROR_EXTRA_MAX 3
#define GHOLA_FORCES 5

/* The elite forces a seat may still revive this turn (LR 2.03.10,
 * 2.04.20: one Sardaukar, one Fedaykin a turn). From rules version 6 an
 * Advanced game counts every source, the Ghola included (ADVANCED_RULES.md
 * 8 item 21; docs/RULINGS.md R106); before, only the revival itself was
 * bound, to one: `before` is what a source allowed then. */
static unsigned elite_left(const engine_state *st, unsigned seat, unsigned before)
{
    if (!engine__advanced(st) || !engine__rule(st, ENGINE__RULE_ADVANCED_ELITE_REVIVAL))
        return before;
    return st->elite_revival_turn[seat] == st->turn ? 0u : 1u;
}

static void elite_revived(engine_state *st, unsigned seat, unsigned elite)
{
    if (elite && engine__advanced(st) && engine__rule(st, ENGINE__RULE_ADVANCED_ELITE_REVIVAL))
        st->elite_revival_turn[seat] = st->turn;
}

unsigned engine__revival_elite_left(const engine_state *st, unsigned seat)
{
    return elite_left(st, seat, 1);
}

void engine__revival_elite_revived(engine_state *st, unsigned seat, unsigned elite)
{
    elite_revived(st, seat, elite);
}

/* The free revivals of a seat's own faction. */
static unsigned own_free_revivals(const engine_state *st, unsigned seat)
{
    return engine__factions[st->seat[seat].faction].free_revival;
}

/* The own free revivals as the rows of ENGINE__POINT_FREE_REVIVAL change
 * them: the Fremen's ally revives 3 free (LR 2.04.11), unless a Karama
 * cancelled it for this revival; from rules version 3 on only when the
 * Fremen gave it ("at your discretion"). */
static unsigned free_revivals(const engine_state *st, unsigned seat)
{
    unsigned free = (unsigned)engine__point_value(st, ENGINE__POINT_FREE_REVIVAL, seat,
                                                  (int)own_free_revivals(st, seat));
    unsigned nexus = engine__nexus_revived(st, seat);
    return free > nexus ? free - nexus : 0;
}

/* The forces a seat may revive this turn: 3 (LR 1.05.02), less those a
 * Nexus card revived that count among them (engine/nexus_fremen.c: they
 * also used up as many free revivals, above). */
static unsigned revival_limit(const engine_state *st, unsigned seat)
{
    unsigned nexus = engine__nexus_revived(st, seat);
    return REVIVAL_LIMIT > nexus ? REVIVAL_LIMIT - nexus : 0;
}

/* Revivals `seat` may add beyond the limit this phase (the Emperor's
 * offer to its ally, LR 2.03.07). */
static unsigned extra_revivals(const engine_state *st, unsigned seat)
{
    return (unsigned)engine__point_value(st, ENGINE__POINT_REVIVAL_LIMIT, seat, 0);
}

/* A leader may be revived once every leader of its faction has died; of
 * those in the Tanks, only the ones killed the fewest times (LR 1.05.04). */
static int leader_revivable(const engine_state *st, unsigned seat, unsigned leader)
{
    unsigned faction = st->seat[seat].faction;
    if (leader >= ENGINE_LEADER_COUNT || engine__leaders[leader].faction != faction ||
        st->leader[leader].place != ENGINE_PLACE_TANKS)
        return 0;
    /* The Kwisatz Haderach revived took the turn's leader revival (LR 2.01.14). */
    if (engine__kh_revived_now(st, seat))
        return 0;
    unsigned fewest = 255;
    for (unsigned l = 0; l < ENGINE_LEADER_COUNT; l++) {
        /* A captive is in another pool: it blocks nothing (LR 2.05.10.01). */
        if (engine__leaders[l].faction != faction || st->leader[l].place == ENGINE_PLACE_OUT ||
            engine__captive(st, l))
            continue;
        if (st->leader[l].deaths == 0)
            return 0;
        if (st->leader[l].place == ENGINE_PLACE_TANKS && st->leader[l].deaths < fewest)
            fewest = st->leader[l].deaths;
    }
    return st->leader[leader].deaths == fewest;
}

/* Whether a seat has anything to revive: public facts only, so that being
 * asked reveals nothing of a hand. */
static int has_dead(const engine_state *st, unsigned seat)
{
    const engine_seat_state *p = &st->seat[seat];
    if (p->tanks + p->special_tanks > 0)
        return 1;
    for (unsigned l = 0; l < ENGINE_LEADER_COUNT; l++)
        if (engine__leaders[l].faction == p->faction && st->leader[l].place == ENGINE_PLACE_TANKS)
            return 1;
    /* the Kwisatz Haderach in the Tanks (Advanced, LR 2.01.14) */
    return st->kh_state == ENGINE_KH_DEAD && engine__kh_owner(st) == (int)seat;
}

/* The phase is over: the Fremen's gift was for this Revival only. */
static void revival_end(engine_state *st, engine_rng *rng)
{
    st->fremen_gifts &= (uint8_t)~ENGINE_GIFT_REVIVAL;
    engine__kh_revival_ends(st);
    engine__shipment_begin(st, rng);
}

static void revive_step(engine_state *st, engine_rng *rng)
{
    st->step = REVIVAL_STEP_REVIVE;
    st->awaiting = 0;
    st->answered = 0;
    for (unsigned s = 0; s < st->config.n_seats; s++)
        if (has_dead(st, s))
            st->awaiting |= ENGINE_SEAT_BIT(s);
    if (!st->awaiting)
        revival_end(st, rng);
}

/* A patron of an ally (the Emperor, the Fremen) has decided; once each
 * asked has, the window closes. */
static void patron_answered(engine_state *st, const engine_action *act, engine_rng *rng)
{
    engine_frame *f = engine__frame_top(st);
    f->answered |= ENGINE_SEAT_BIT(act->seat);
    if (f->answered == f->asked)
        engine__frame_close(st, act, rng);
}

/* Every seat with something to revive is asked. */
void engine__ally_revival_resume(engine_state *st, const engine_frame *f,
                                 const engine_action *answer, engine_rng *rng)
{
    (void)f;
    (void)answer;
    revive_step(st, rng);
}

void engine__revival_begin(engine_state *st, engine_rng *rng)
{
    engine__phase_enter(st, ENGINE_PHASE_REVIVAL);
    st->emperor_ally_revivals = 0;
    st->fremen_gifts &= (uint8_t)~ENGINE_GIFT_REVIVAL;
    uint16_t ask = 0;
    int emperor = engine__point_owner(st, ENGINE__POINT_ALLY_REVIVAL_PAID);
    if (emperor >= 0 && st->ally[emperor] != SEAT_NONE) {
        const engine_seat_state *ally = &st->seat[st->ally[emperor]];
        if (ally->tanks + ally->special_tanks > REVIVAL_LIMIT &&
            st->seat[emperor].spice >= REVIVAL_PRICE)
            ask |= ENGINE_SEAT_BIT(emperor);
    }
    /* From rules version 3 on the Fremen decide whether their ally revives
     * 3 free (LR 2.04.11), asked on public facts (the row says which). */
    unsigned giver;
    if (engine__point_decide(st, ENGINE__POINT_ALLY_REVIVAL_GIFT, 0, &giver))
        ask |= ENGINE_SEAT_BIT(giver);
    if (ask) {
        /* An ALLY_REVIVAL window asks them, over a step waiting on nobody. */
        st->step = REVIVAL_STEP_EMPEROR;
        unsigned first = engine__lowest_seat(ask);
        engine__frame_push(st, ENGINE_WINDOW_ALLY_REVIVAL, first, first, NULL, ask);
        return;
    }
    revive_step(st, rng);
}

/* The Emperor offers to pay for up to 3 extra revivals of its ally's forces
 * beyond the ally's limit, 2 spice each (LR 2.03.07). An offer waits on a
 * Karama window first; a cancel leaves the offer at 0 (engine/karama.c). */
engine_verdict engine__emperor_revival(engine_verdict_detail *why, engine_state *st,
                                       const engine_action *act, engine_rng *rng)
{
    int n = act->arg[0];
    if (engine__point_owner(st, ENGINE__POINT_ALLY_REVIVAL_PAID) != act->seat)
        return engine__reject(why, ENGINE_REJECT_NOT_YOUR_POWER, -1, 0);
    if (n < 0 || n > EMPEROR_EXTRA_MAX)
        return engine__reject(why, ENGINE_REJECT_ARG_OUT_OF_RANGE, 0, n);
    if (n * REVIVAL_PRICE > st->seat[act->seat].spice)
        return engine__reject(why, ENGINE_REJECT_CANNOT_PAY, 0, n);
    if (n > 0 && engine__karama_hold(st, act,
                                     ENGINE_ADVANTAGE_BIT(engine__point_owner_advantage(
                                         st, ENGINE__POINT_ALLY_REVIVAL_PAID)),
                                     act->seat))
        return ENGINE_ACCEPTED;
    st->emperor_ally_revivals = (uint8_t)n;
    patron_answered(st, act, rng);
    return ENGINE_ACCEPTED;
}

/* The Fremen give their ally 3 free revivals this phase (1) or not (0). */
engine_verdict engine__fremen_ally_revival(engine_verdict_detail *why, engine_state *st,
                                           const engine_action *act, engine_rng *rng)
{
    int give = act->arg[0];
    if (engine__point_owner(st, ENGINE__POINT_ALLY_REVIVAL_GIFT) != act->seat)
        return engine__reject(why, ENGINE_REJECT_NOT_YOUR_POWER, -1, 0);
    if (give < 0 || give > 1)
        return engine__reject(why, ENGINE_REJECT_ARG_OUT_OF_RANGE, 0, give);
    if (give)
        st->fremen_gifts |= ENGINE_GIFT_REVIVAL;
    patron_answered(st, act, rng);
    return ENGINE_ACCEPTED;
}

/* Forces (plain and elite) and at most one leader (LR 1.05). Arguments:
 * forces, elite, leader (-1 none). */
engine_verdict engine__revive(engine_verdict_detail *why, engine_state *st,
                              const engine_action *act, engine_rng *rng)
{
    engine_seat_state *p = &st->seat[act->seat];
    int plain = act->arg[0], elite = act->arg[1], leader = act->arg[2];
    if (plain < 0 || plain > p->tanks)
        return engine__reject(why, ENGINE_REJECT_REVIVAL_TANKS, 0, plain);
    if (elite < 0 || elite > p->special_tanks ||
        (unsigned)elite > elite_left(st, act->seat, 1)) /* one elite a turn (LR 2.03.10) */
        return engine__reject(why, ENGINE_REJECT_REVIVAL_TANKS, 1, elite);
    unsigned extra_max = extra_revivals(st, act->seat);
    unsigned total = (unsigned)(plain + elite), limit = revival_limit(st, act->seat);
    if (total > limit + extra_max)
        return engine__reject(why, ENGINE_REJECT_REVIVAL_LIMIT, 0, (int32_t)total);
    if (leader < -1 || (leader >= 0 && !leader_revivable(st, act->seat, (unsigned)leader)))
        return engine__reject(why, ENGINE_REJECT_LEADER_NOT_REVIVABLE, 2, leader);
    unsigned own = total < limit ? total : limit;
    unsigned free = free_revivals(st, act->seat);
    unsigned cost = own > free ? (own - free) * REVIVAL_PRICE : 0;
    if (leader >= 0)
        cost += engine__leaders[leader].revival_cost;
    unsigned extra = total - own;
    int emperor = engine__point_owner(st, ENGINE__POINT_REVIVAL_LIMIT);
    if (cost > p->spice)
        return engine__reject(why, ENGINE_REJECT_CANNOT_PAY, -1, (int32_t)cost);
    if (extra && st->seat[emperor].spice < extra * REVIVAL_PRICE)
        return engine__reject(why, ENGINE_REJECT_CANNOT_PAY, -1, (int32_t)(extra * REVIVAL_PRICE));
    /* The Fremen ally's third free revival waits on a Karama window when
     * it is used (LR 2.04.11, 3.01.11.01). */
    if (own > own_free_revivals(st, act->seat) && free > own_free_revivals(st, act->seat) &&
        engine__karama_hold(st, act,
                            ENGINE_ADVANTAGE_BIT(engine__point_advantage(
                                st, ENGINE__POINT_FREE_REVIVAL, act->seat)),
                            act->seat))
        return ENGINE_ACCEPTED;
    p->spice = (uint16_t)(p->spice - cost);
    if (extra)
        st->seat[emperor].spice = (uint16_t)(st->seat[emperor].spice - extra * REVIVAL_PRICE);
    st->spice_burned += cost + extra * REVIVAL_PRICE;
    p->tanks = (uint8_t)(p->tanks - plain);
    p->reserves = (uint8_t)(p->reserves + plain);
    p->special_tanks = (uint8_t)(p->special_tanks - elite);
    p->special_reserves = (uint8_t)(p->special_reserves + elite);
    elite_revived(st, act->seat, (unsigned)elite);
    if (leader >= 0)
        st->leader[leader].place = ENGINE_PLACE_POOL;
    st->answered |= ENGINE_SEAT_BIT(act->seat);
    if (st->answered == st->awaiting)
        revival_end(st, rng);
    return ENGINE_ACCEPTED;
}

/* A leader revived by Ghola while its seat is asked for a battle plan may
 * be played in that plan; the revival is refused when it would leave the
 * seat no plan that keeps its prescience answer (docs/RULINGS.md "Ghola"). */
static int ghola_keeps_a_plan(const engine_state *st, uint8_t seat, unsigned leader)
{
    if (!engine__plans_asked(st))
        return 1;
    engine_state probe = *st;
    probe.leader[leader].place = ENGINE_PLACE_POOL;
    return engine__battle_plan_exists(&probe, seat);
}

/* The forces in the Tanks a Ghola may revive: the plain ones, and the
 * elite ones a seat may still revive this turn (none bound before). */
static unsigned ghola_dead(const engine_state *st, unsigned seat)
{
    const engine_seat_state *p = &st->seat[seat];
    unsigned elite = elite_left(st, seat, p->special_tanks);
    return (unsigned)p->tanks + (p->special_tanks < elite ? p->special_tanks : elite);
}

/* Tleilaxu Ghola: an extra revival of one leader or up to 5 forces to the
 * reserves, free (DUNE_RULES_DIGEST.md 2.1). Arguments: forces, leader (-1
 * none). Played at any time by a seat that is asked (docs/RULINGS.md
 * "Ghola"); it answers nothing, so a seat asked to revive still revives. */
engine_verdict engine__ghola(engine_verdict_detail *why, engine_state *st,
                             const engine_action *act, engine_rng *rng)
{
    engine_seat_state *p = &st->seat[act->seat];
    int forces = act->arg[0], leader = act->arg[1];
    unsigned card = engine__card_in_hand(st, act->seat, ENGINE_CARD_TLEILAXU_GHOLA);
    if (card == CARD_NONE)
        return engine__reject(why, ENGINE_REJECT_NO_GHOLA, -1, 0);
    if (leader >= 0) {
        if (forces != 0)
            return engine__reject(why, ENGINE_REJECT_ARG_OUT_OF_RANGE, 0, forces);
        if (leader >= ENGINE_LEADER_COUNT || engine__leaders[leader].faction != p->faction ||
            st->leader[leader].place != ENGINE_PLACE_TANKS)
            return engine__reject(why, ENGINE_REJECT_LEADER_NOT_REVIVABLE, 1, leader);
        if (!ghola_keeps_a_plan(st, act->seat, (unsigned)leader))
            return engine__reject(why, ENGINE_REJECT_PRESCIENCE_MISMATCH, 1, leader);
        /* leader_territory is kept: a leader that fought in another
         * territory this phase still may not fight here (LR 1.07.04.02). */
        st->leader[leader].place = ENGINE_PLACE_POOL;
    } else {
        if (leader != -1)
            return engine__reject(why, ENGINE_REJECT_ARG_OUT_OF_RANGE, 1, leader);
        if (forces < 1 || forces > GHOLA_FORCES || (unsigned)forces > ghola_dead(st, act->seat))
            return engine__reject(why, ENGINE_REJECT_REVIVAL_TANKS, 0, forces);
        /* Plain forces first, then elite ones (docs/RULINGS.md "Ghola"). */
        unsigned plain = (unsigned)forces < p->tanks ? (unsigned)forces : p->tanks;
        unsigned elite = (unsigned)forces - plain;
        p->tanks = (uint8_t)(p->tanks - plain);
        p->reserves = (uint8_t)(p->reserves + plain);
        p->special_tanks = (uint8_t)(p->special_tanks - elite);
        p->special_reserves = (uint8_t)(p->special_reserves + elite);
        elite_revived(st, act->seat, elite);
    }
    engine__treachery_discard(st, card);
    /* Rules version 1: a Ghola is played in the Revival phase alone, and
     * one leaving its seat nothing to revive answers for it. */
    if (!engine__rule(st, ENGINE__RULE_CARDS_WHEN_ASKED) && !has_dead(st, act->seat)) {
        st->answered |= ENGINE_SEAT_BIT(act->seat);
        if (st->answered == st->awaiting)
            revival_end(st, rng);
    }
    return ENGINE_ACCEPTED;
}

/* ===================================================== legal families */

size_t engine__legal_emperor(engine_legal *out, size_t cap, const engine_state *st, uint8_t seat)
{
    size_t n = 0;
    if (engine__point_owner(st, ENGINE__POINT_ALLY_REVIVAL_GIFT) == seat) {
        engine__legal_push1(out, cap, &n, ENGINE_ACTION_FREMEN_ALLY_REVIVAL, seat, 0, 1, 0, 0);
        return n;
    }
    unsigned afford = st->seat[seat].spice / REVIVAL_PRICE;
    engine__legal_push1(out, cap, &n, ENGINE_ACTION_EMPEROR_REVIVAL, seat, 0,
                        (int)(afford < EMPEROR_EXTRA_MAX ? afford : EMPEROR_EXTRA_MAX), 0, 0);
    return n;
}

/* Families for REVIVE: for each leader choice (none, or one revivable
 * leader) and each elite count, the plain forces the seat can afford. */
size_t engine__legal_revive(engine_legal *out, size_t cap, const engine_state *st, uint8_t seat)
{
    size_t n = 0;
    const engine_seat_state *p = &st->seat[seat];
    unsigned extra_max = extra_revivals(st, seat);
    int emperor = engine__point_owner(st, ENGINE__POINT_REVIVAL_LIMIT);
    unsigned free = free_revivals(st, seat), limit = revival_limit(st, seat);
    for (int leader = -1; leader < ENGINE_LEADER_COUNT; leader++) {
        if (leader >= 0 && !leader_revivable(st, seat, (unsigned)leader))
            continue;
        unsigned base = leader >= 0 ? engine__leaders[leader].revival_cost : 0;
        if (base > p->spice)
            continue;
        unsigned elite_left_now = elite_left(st, seat, 1);
        unsigned elite_max = p->special_tanks < elite_left_now ? p->special_tanks : elite_left_now;
        for (unsigned elite = 0; elite <= elite_max; elite++) {
            /* The most plain forces: limit, tanks, own spice, the Emperor's. */
            unsigned best = 0;
            for (unsigned plain = 0; plain <= p->tanks; plain++) {
                unsigned total = plain + elite;
                if (total > limit + extra_max)
                    break;
                unsigned own = total < limit ? total : limit;
                unsigned cost = base + (own > free ? (own - free) * REVIVAL_PRICE : 0);
                unsigned extra = total - own;
                if (cost > p->spice ||
                    (extra && (unsigned)st->seat[emperor].spice < extra * REVIVAL_PRICE))
                    break;
                best = plain;
            }
            /* Costs rise with the count, so every count up to best is legal. */
            unsigned total0 = elite;
            unsigned own0 = total0 < limit ? total0 : limit;
            if (base + (own0 > free ? (own0 - free) * REVIVAL_PRICE : 0) > p->spice)
                continue;
            engine_legal l;
            engine__legal_init(&l, ENGINE_ACTION_REVIVE, seat);
            l.hi[0] = (int16_t)best;
            l.lo[1] = l.hi[1] = (int16_t)elite;
            l.lo[2] = l.hi[2] = (int16_t)leader;
            engine__legal_push(out, cap, &n, &l);
        }
    }
    return n;
}

/* Families for GHOLA, a side action (engine/side.c): up to 5 forces from
 * the Tanks, or one leader there. */
size_t engine__legal_ghola(engine_legal *out, size_t cap, const engine_state *st, uint8_t seat)
{
    size_t n = 0;
    const engine_seat_state *p = &st->seat[seat];
    if (engine__card_in_hand(st, seat, ENGINE_CARD_TLEILAXU_GHOLA) == CARD_NONE)
        return 0;
    unsigned dead = ghola_dead(st, seat);
    engine_legal l;
    if (dead > 0) {
        engine__legal_init(&l, ENGINE_ACTION_GHOLA, seat);
        l.lo[0] = 1;
        l.hi[0] = (int16_t)(dead < GHOLA_FORCES ? dead : GHOLA_FORCES);
        l.lo[1] = l.hi[1] = -1;
        engine__legal_push(out, cap, &n, &l);
    }
    for (unsigned leader = 0; leader < ENGINE_LEADER_COUNT; leader++)
        if (engine__leaders[leader].faction == p->faction &&
            st->leader[leader].place == ENGINE_PLACE_TANKS &&
            ghola_keeps_a_plan(st, seat, leader)) {
            engine__legal_init(&l, ENGINE_ACTION_GHOLA, seat);
            l.lo[1] = l.hi[1] = (int16_t)leader;
            engine__legal_push(out, cap, &n, &l);
        }
    return n;
}
