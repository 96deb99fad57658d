/*
 * nexus_tleilaxu.c - the panels of the Tleilaxu Nexus card (E3 p.11; the
 * digest's EXPANSIONS_AND_NEXUS.md 5.2 rows 22-24; docs/RULINGS.md R85,
 * R90) as power rows: engine/points.c offers them to the seat holding the
 * card, in the mode the card has for it. Secret Ally (row 24) is built: in
 * Revival, one of the seat's leaders revived free and up to 5 of its
 * forces at 1 spice each. Betrayal (22) and Cunning (23) need the Tleilaxu
 * seated (Face Dancers) and are named and refused with their rows. A row
 * never mutates but through its `use`.
 */
#include "engine/internal.h"

#define MOST_FORCES 5  /* "up to five forces" */
#define FORCE_PRICE 1  /* "at one spice each", to the bank */

static int own_leader_dead(const engine_state *st, unsigned seat, int leader)
{
    return leader >= 0 && leader < ENGINE_LEADER_COUNT &&
           engine__leaders[leader].faction == st->seat[seat].faction &&
           st->leader[leader].place == ENGINE_PLACE_TANKS;
}

/* The forces it may revive: the Tanks', five, what its spice pays. */
static unsigned most_forces(const engine_state *st, unsigned seat)
{
    unsigned n = engine__nexus_dead(st, seat), pay = st->seat[seat].spice / FORCE_PRICE;
    n = n < MOST_FORCES ? n : MOST_FORCES;
    return n < pay ? n : pay;
}

static int any_leader_dead(const engine_state *st, unsigned seat)
{
    for (int l = 0; l < ENGINE_LEADER_COUNT; l++)
        if (own_leader_dead(st, seat, l))
            return 1;
    return 0;
}

static int may_revive(const engine_state *st, unsigned owner, unsigned seat)
{
    (void)seat;
    return st->phase == ENGINE_PHASE_REVIVAL &&
           (most_forces(st, owner) > 0 || any_leader_dead(st, owner));
}

/* Row 24: a leader (any of its own in the Tanks: the face names no other
 * condition), forces, or both; neither among the seat's revivals this
 * turn (the panel's own revival, as the Ghola's). */
static engine_verdict secret_ally(engine_verdict_detail *why, engine_state *st, unsigned owner,
                                  const engine_action *act, engine_rng *rng)
{
    (void)rng;
    int leader = act->arg[1];
    unsigned forces = (unsigned)act->arg[2];
    if (leader >= 0 && !own_leader_dead(st, owner, leader))
        return engine__reject(why, ENGINE_REJECT_LEADER_NOT_REVIVABLE, 1, leader);
    if (forces > engine__nexus_dead(st, owner))
        return engine__reject(why, ENGINE_REJECT_REVIVAL_TANKS, 2, act->arg[2]);
    if (forces * FORCE_PRICE > st->seat[owner].spice)
        return engine__reject(why, ENGINE_REJECT_CANNOT_PAY, -1, (int32_t)(forces * FORCE_PRICE));
    if (leader < 0 && forces == 0)
        return engine__reject(why, ENGINE_REJECT_ARG_OUT_OF_RANGE, 2, 0);
    st->seat[owner].spice = (uint16_t)(st->seat[owner].spice - forces * FORCE_PRICE);
    st->spice_burned += forces * FORCE_PRICE;
    engine__nexus_revive(st, owner, forces, 0);
    if (leader >= 0)
        st->leader[leader].place = ENGINE_PLACE_POOL;
    engine__nexus_spend(st, owner);
    return ENGINE_ACCEPTED;
}

/* No leader and 1.. forces; each dead leader of its own and 0.. forces. */
static size_t secret_ally_legal(engine_legal *out, size_t cap, const engine_state *st,
                                unsigned seat, int16_t id)
{
    size_t n = 0;
    unsigned most = most_forces(st, seat);
    for (int leader = -1; leader < ENGINE_LEADER_COUNT; leader++) {
        if ((leader < 0 && most == 0) || (leader >= 0 && !own_leader_dead(st, seat, leader)))
            continue;
        engine__nexus_push(out, cap, &n, seat, id, (int16_t)leader, (int16_t)leader,
                           (int16_t)(leader < 0 ? 1 : 0), (int16_t)most);
    }
    return n;
}

static const engine_power_form betrayal_form = {.slug = "nexus_tleilaxu_betrayal"};
static const engine_power_form cunning_form = {.slug = "nexus_tleilaxu_cunning"};
static const engine_power_form secret_ally_form = {
    .slug = "nexus_tleilaxu_secret_ally", .n_args = 2,
    .arg_name = {"leader", "forces"}, .arg_type = {ENGINE_ARG_LEADER, ENGINE_ARG_INT},
    .lo = {-1, 0}, .hi = {ENGINE_LEADER_COUNT - 1, MOST_FORCES}, .fallback = {-1, MOST_FORCES},
};

static const engine__power_row rows[] = {
    ENGINE__NEXUS_NOT_BUILT(ENGINE_FACTION_TLEILAXU, ENGINE_NEXUS_BETRAYAL, &betrayal_form),
    ENGINE__NEXUS_NOT_BUILT(ENGINE_FACTION_TLEILAXU, ENGINE_NEXUS_CUNNING, &cunning_form),
    {.point = ENGINE__POINT_POWER, .faction = ENGINE_FACTION_TLEILAXU, .to = ENGINE__TO_OWNER,
     .since = ENGINE__RULE_SINCE(ENGINE__RULE_NEXUS_PANELS), .nexus = 1 + ENGINE_NEXUS_SECRET_ALLY,
     .when = may_revive, .source = "E3 p.11, Tleilaxu Nexus card (Secret Ally); digest 5.2 row 24",
     .form = &secret_ally_form, .use = secret_ally, .legal = secret_ally_legal},
};

const engine__power_family engine__nexus_tleilaxu = {rows, sizeof rows / sizeof rows[0]};
