/*
 * advanced.c - the Advanced game's phase rules that belong to no faction
 * (ADVANCED_RULES.md, LR 1.13): when they are in force (the double spice
 * blow of rules version 6 on, whose procedure is engine/phase_spice_blow.c's,
 * LR 1.13.02), and the stronghold income of the Spice Collection (LR
 * 1.13.01). The faction
 * abilities of the Advanced game are rows in the file of their family
 * (engine/powers_*.c, `.game = ENGINE__GAME_ADVANCED`). Each rule here is
 * in force only in an Advanced room played by a rules version that has
 * it (row ENGINE__RULE_ROOM_OPTIONS), so a Basic room, and an Advanced
 * room recorded by an earlier build, folds exactly as before. Engine
 * layer: no I/O, no allocation, no clock; it never names a faction.
 */
#include <assert.h>
#include <string.h>

#include "engine/internal.h"

/* What each stronghold pays its occupants from the bank in the Spice
 * Collection (LR 1.13.01; ADVANCED_RULES.md 3). One row per paying
 * stronghold; the others pay nothing. */
static const struct {
    uint8_t territory;             /* engine_territory */
    uint8_t spice;                 /* paid to each faction occupying it */
} income[] = {
    {ENGINE_TERRITORY_ARRAKEEN, 2},
    {ENGINE_TERRITORY_CARTHAG, 2},
    {ENGINE_TERRITORY_TUEKS_SIETCH, 1},
};

int engine__advanced(const engine_state *st)
{
    return st->config.is_advanced && engine__rule(st, ENGINE__RULE_ROOM_OPTIONS);
}

int engine__double_blow(const engine_state *st)
{
    return st->config.is_advanced && engine__rule(st, ENGINE__RULE_ADVANCED_DOUBLE_BLOW);
}

unsigned engine__stronghold_income(const engine_state *st, unsigned seat)
{
    if (!engine__advanced(st))
        return 0;
    unsigned total = 0;
    /* Every occupant collects, not only a sole one: occupation at
     * collection is all the rule asks (LR 1.13.01; docs/RULINGS.md
     * "Stronghold income"). Advisors occupy nothing (LR 2.02.12):
     * engine__occupies counts fighters only. */
    for (unsigned i = 0; i < sizeof income / sizeof income[0]; i++)
        if (engine__occupies(st, income[i].territory, seat))
            total += income[i].spice;
    return total;
}

/* ======================================================= spice support */

/* The Advanced battle plan commits forces by class and strength (LR
 * 1.13.04; ADVANCED_RULES.md 4.2): `dial` plain forces at full strength,
 * each supported by 1 spice, `half` plain forces unsupported at half
 * strength, `elite` and `elite_half` the same of the elite forces
 * (Sardaukar, Fedaykin). Strengths are counted in half points, so every
 * total is exact (4.1: "keep all strengths as integer half-points"). A
 * seat whose forces fight at full strength without spice (the Fremen's
 * BATTLE HARDENED, ENGINE__POINT_BATTLE_HARDENED) commits no half-strength
 * forces and pays nothing. */

#define HALF_POINTS 2              /* a plain force at full strength */

/* The seat's plain and elite forces in the territory of the battle. */
static void present(const engine_state *st, unsigned seat, unsigned *plain, unsigned *elite)
{
    *plain = *elite = 0;
    for (unsigned l = 0; l < ENGINE_LOCATION_COUNT; l++)
        if (engine__locations[l].territory == st->battle_territory) {
            *plain += st->forces[l][seat];
            *elite += st->special[l][seat];
        }
}

unsigned engine__battle_elite(const engine_state *st, unsigned seat)
{
    unsigned plain, elite;
    present(st, seat, &plain, &elite);
    return elite;
}

static int hardened(const engine_state *st, unsigned seat)
{
    return engine__point_holds(st, ENGINE__POINT_BATTLE_HARDENED, seat);
}

unsigned engine__plan_support(const engine_state *st, unsigned seat, const engine_battle_plan *p)
{
    return hardened(st, seat) ? 0u : (unsigned)p->dial + p->elite;
}

unsigned engine__plan_strength2(const engine_state *st, unsigned seat, const engine_battle_plan *p)
{
    /* An elite force's full strength, in half points, against this
     * battle's opponent (the Sardaukar's 2 but against the Fremen, the
     * Fedaykin's 2: rows at ENGINE__POINT_ELITE_VALUE). */
    unsigned elite2 = (unsigned)engine__point_value(st, ENGINE__POINT_ELITE_VALUE, seat,
                                                    HALF_POINTS);
    return (unsigned)p->dial * HALF_POINTS + p->half + p->elite * elite2 +
           p->elite_half * (elite2 / 2) +
           engine__nexus_elite_bonus2(st, seat, p, elite2); /* the Emperor Cunning (Nexus) */
}

engine_verdict engine__plan_forces_check(const engine_state *st, unsigned seat,
                                         const engine_battle_plan *p, int *arg)
{
    unsigned plain, elite;
    present(st, seat, &plain, &elite);
    *arg = 4;
    if ((unsigned)p->dial + p->half > plain)
        return ENGINE_REJECT_DIAL_RANGE;
    *arg = 6;
    if ((unsigned)p->elite + p->elite_half > elite)
        return ENGINE_REJECT_DIAL_RANGE;
    if (hardened(st, seat)) {
        /* Always at full strength: no force at half (LR 2.04.21). */
        *arg = p->half ? 5 : 7;
        if (p->half || p->elite_half)
            return ENGINE_REJECT_DIAL_RANGE;
        return ENGINE_ACCEPTED;
    }
    /* One spice behind the shield for each force at full strength (LR
     * 1.13.04.04); an ally's spice does not count (docs/RULINGS.md R77). */
    *arg = 4;
    if (engine__plan_support(st, seat, p) > st->seat[seat].spice)
        return ENGINE_REJECT_CANNOT_PAY;
    return ENGINE_ACCEPTED;
}

void engine__plan_forces_legal(engine_legal *l, const engine_state *st, unsigned seat)
{
    unsigned plain, elite;
    present(st, seat, &plain, &elite);
    /* Arguments 5..7 are counts held as n + 1 (ENGINE_ARG_COUNT1), so an
     * Advanced plan always carries them: 1 is none. */
    l->lo[4] = 0;
    l->lo[5] = l->lo[6] = l->lo[7] = 1;
    l->hi[4] = (int16_t)plain;
    l->hi[6] = (int16_t)(elite + 1);
    if (hardened(st, seat)) {
        l->hi[5] = l->hi[7] = 1;
        return;
    }
    l->hi[5] = (int16_t)(plain + 1);
    l->hi[7] = (int16_t)(elite + 1);
    unsigned spice = st->seat[seat].spice;
    /* dial + half within the plain forces, elite + elite_half within the
     * elite ones, dial + elite within the spice (each count held as n + 1
     * adds its one to the cap). */
    l->cap_mask[0] = 1u << 4 | 1u << 5;
    l->cap[0] = (int16_t)(plain + 1);
    l->cap_mask[1] = 1u << 6 | 1u << 7;
    l->cap[1] = (int16_t)(elite + 2);
    if (spice < plain + elite) {
        l->cap_mask[2] = 1u << 4 | 1u << 6;
        l->cap[2] = (int16_t)(spice + 1);
    }
}

/* ============================================ prescience of the dial */

/* In the Advanced game the dial of a plan is its forces by strength with
 * the spice supporting them (LR 1.13.04): the Atreides asking "the
 * number" (LR 2.01.05) learn both, the strength in half points and the
 * spice, and the plan must then give exactly both (docs/RULINGS.md R117).
 * Before rules version 7 the question was refused (R75). */

#define DIAL_ANSWER_UNIT 128       /* packed = strength2 + support * 128 */

int engine__dial_prescience(const engine_state *st)
{
    return engine__advanced(st) && engine__rule(st, ENGINE__RULE_ADVANCED_PRESCIENCE_DIAL);
}

int16_t engine__dial_answer_pack(unsigned strength2, unsigned support)
{
    assert(strength2 <= ENGINE__DIAL_ANSWER_STRENGTH_MAX &&
           support <= ENGINE__DIAL_ANSWER_SUPPORT_MAX);
    return (int16_t)(strength2 + support * DIAL_ANSWER_UNIT);
}

unsigned engine__dial_answer_strength2(int packed)
{
    return packed < 0 ? 0u : (unsigned)packed % DIAL_ANSWER_UNIT;
}

unsigned engine__dial_answer_support(int packed)
{
    return packed < 0 ? 0u : (unsigned)packed / DIAL_ANSWER_UNIT;
}

/* The elite forces' full strength of `seat` in half points, as
 * engine__plan_strength2 counts it. */
static unsigned elite_strength2(const engine_state *st, unsigned seat)
{
    return (unsigned)engine__point_value(st, ENGINE__POINT_ELITE_VALUE, seat, HALF_POINTS);
}

int engine__plan_forces_next(engine_battle_plan *p, unsigned *cursor, const engine_state *st,
                             unsigned seat, int packed)
{
    unsigned plain, elite;
    present(st, seat, &plain, &elite);
    unsigned want2 = engine__dial_answer_strength2(packed);
    unsigned want_support = engine__dial_answer_support(packed);
    unsigned e2 = elite_strength2(st, seat), side = elite + 1;
    /* The cursor runs over (dial, elite, elite_half); half follows. */
    for (; *cursor < (plain + 1) * side * side; (*cursor)++) {
        unsigned c = *cursor;
        unsigned eh = c % side, el = c / side % side, dial = c / side / side;
        if (el + eh > elite)
            continue;
        unsigned base = dial * HALF_POINTS + el * e2 + eh * (e2 / 2);
        if (base > want2 || want2 - base > plain - dial)
            continue;
        engine_battle_plan q = *p;
        q.dial = (uint8_t)dial;
        q.half = (uint8_t)(want2 - base);
        q.elite = (uint8_t)el;
        q.elite_half = (uint8_t)eh;
        int arg;
        if (engine__plan_support(st, seat, &q) != want_support ||
            engine__plan_forces_check(st, seat, &q, &arg) != ENGINE_ACCEPTED)
            continue;
        *p = q;
        (*cursor)++;
        return 1;
    }
    return 0;
}

size_t engine__legal_dial_answers(engine_legal *out, size_t cap, size_t n, const engine_state *st,
                                  uint8_t seat)
{
    /* Every (strength, support) some forces part gives, as bits: a
     * (dial, elite, elite_half) gives its support with the strengths of
     * every count of half-strength plain forces (a run). */
    uint64_t given[ENGINE__DIAL_ANSWER_SUPPORT_MAX + 1][2];
    memset(given, 0, sizeof given);
    unsigned plain, elite;
    present(st, seat, &plain, &elite);
    unsigned e2 = elite_strength2(st, seat);
    for (unsigned dial = 0; dial <= plain; dial++)
        for (unsigned el = 0; el <= elite; el++)
            for (unsigned eh = 0; el + eh <= elite; eh++) {
                engine_battle_plan q = {-1, -1, -1, -1, (uint8_t)dial, 1, 0,
                                        (uint8_t)el, (uint8_t)eh, ENGINE_KH_UNDECLARED};
                int arg;
                unsigned base = dial * HALF_POINTS + el * e2 + eh * (e2 / 2);
                unsigned support = engine__plan_support(st, seat, &q);
                for (unsigned half = 0; half <= plain - dial; half++) {
                    q.half = (uint8_t)half;
                    if (base + half > ENGINE__DIAL_ANSWER_STRENGTH_MAX ||
                        support > ENGINE__DIAL_ANSWER_SUPPORT_MAX ||
                        engine__plan_forces_check(st, seat, &q, &arg) != ENGINE_ACCEPTED)
                        continue;
                    given[support][(base + half) / 64] |= UINT64_C(1) << ((base + half) % 64);
                }
            }
    for (unsigned support = 0; support <= ENGINE__DIAL_ANSWER_SUPPORT_MAX; support++)
        for (unsigned v = 0; v <= ENGINE__DIAL_ANSWER_STRENGTH_MAX; v++) {
            if (!(given[support][v / 64] >> (v % 64) & 1))
                continue;
            unsigned last = v;
            while (last < ENGINE__DIAL_ANSWER_STRENGTH_MAX &&
                   given[support][(last + 1) / 64] >> ((last + 1) % 64) & 1)
                last++;
            /* the support a count held as n + 1 */
            engine__legal_push1(out, cap, &n, ENGINE_ACTION_PRESCIENCE_ANSWER, seat, (int)v,
                                (int)last, (int)support + 1, (int)support + 1);
            v = last;
        }
    return n;
}

int engine_is_advanced(const engine_state *st)
{
    return engine__advanced(st);
}

unsigned engine_plan_forces_strength2(const engine_state *st, unsigned side)
{
    if (side > 1)
        return 0;
    const engine_battle_plan *p = &st->plan[side];
    if (!engine__advanced(st))
        return (unsigned)p->dial * HALF_POINTS;
    unsigned seat = st->battle_seat[side];
    return seat < st->config.n_seats ? engine__plan_strength2(st, seat, p) : 0u;
}

unsigned engine_plan_support(const engine_state *st, unsigned side)
{
    if (side > 1 || !engine__advanced(st))
        return 0;
    unsigned seat = st->battle_seat[side];
    return seat < st->config.n_seats ? engine__plan_support(st, seat, &st->plan[side]) : 0u;
}
