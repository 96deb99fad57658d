/*
 * nexus_ecaz.c - the panels of the Ecaz Nexus card (E3 p.11; the digest's
 * EXPANSIONS_AND_NEXUS.md 5.2 rows 31-33; docs/RULINGS.md R85, R87) as
 * power rows: engine/points.c offers them to the seat holding the card,
 * in the mode the card has for it. Secret Ally (row 33) is built: at any
 * safe boundary (R85) the holder makes another seat say truthfully whether
 * it holds any of the holder's leaders as traitors, not which; the answer
 * is an effect record that a view tells the two of them only. Betrayal
 * (31) and Cunning (32) need the Ecaz seated and are named and refused
 * with their rows. A row never mutates but through its `use`.
 */
#include "engine/internal.h"

/* 1 if `target` holds a traitor card of a leader of `asker`'s faction. */
static int holds_traitor_of(const engine_state *st, unsigned target, unsigned asker)
{
    for (unsigned l = 0; l < ENGINE_LEADER_COUNT; l++)
        if (st->traitor[l].place == ENGINE_PLACE_HAND && st->traitor[l].holder == target &&
            engine__leaders[l].faction == st->seat[asker].faction)
            return 1;
    return 0;
}

static int has_room(const engine_state *st, unsigned owner, unsigned seat)
{
    (void)owner;
    (void)seat;
    return st->n_effects < ENGINE_EFFECT_MAX ||
           engine_effect_find(st, ENGINE_EFFECT_NEXUS_ANSWER) != NULL;
}

/* Row 33 (E3 p.11 face): "make one player disclose whether any of one's
 * leaders are among their traitors, without identifying those leaders".
 * Traitor cards only: the Face Dancers' reading waits for the Tleilaxu
 * (R87). */
static engine_verdict secret_ally(engine_verdict_detail *why, engine_state *st, unsigned owner,
                                  const engine_action *act, engine_rng *rng)
{
    (void)rng;
    int target = engine__seat_of(st, (unsigned)act->arg[1]);
    if (target < 0 || (unsigned)target == owner)
        return engine__reject(why, ENGINE_REJECT_BAD_SEAT, 1, act->arg[1]);
    engine_effect e = {ENGINE_EFFECT_NEXUS_ANSWER, ENGINE_FACTION_ECAZ, (uint8_t)owner,
                       (uint8_t)target, ENGINE_EXPIRY_TURN,
                       (int16_t)(1 + holds_traitor_of(st, (unsigned)target, owner))};
    (void)engine__effect_add(st, &e); /* has_room: a slot, or the last answer renewed */
    engine__nexus_spend(st, owner);
    return ENGINE_ACCEPTED;
}

/* One family per other seat, named by its faction. */
static size_t secret_ally_legal(engine_legal *out, size_t cap, const engine_state *st,
                                unsigned seat, int16_t id)
{
    size_t n = 0;
    for (unsigned s = 0; s < st->config.n_seats; s++) {
        if (s == seat)
            continue;
        engine__nexus_push(out, cap, &n, seat, id, st->seat[s].faction, st->seat[s].faction, 0, 0);
    }
    return n;
}

static const engine_power_form betrayal_form = {.slug = "nexus_ecaz_betrayal"};
static const engine_power_form cunning_form = {.slug = "nexus_ecaz_cunning"};
static const engine_power_form secret_ally_form = {
    .slug = "nexus_ecaz_secret_ally", .n_args = 1,
    .arg_name = {"asked"}, .arg_type = {ENGINE_ARG_FACTION},
    .lo = {0}, .hi = {ENGINE_FACTION_COUNT - 1},
};

static const engine__power_row rows[] = {
    ENGINE__NEXUS_NOT_BUILT(ENGINE_FACTION_ECAZ, ENGINE_NEXUS_BETRAYAL, &betrayal_form),
    ENGINE__NEXUS_NOT_BUILT(ENGINE_FACTION_ECAZ, ENGINE_NEXUS_CUNNING, &cunning_form),
    {.point = ENGINE__POINT_POWER, .faction = ENGINE_FACTION_ECAZ, .to = ENGINE__TO_OWNER,
     .since = ENGINE__RULE_SINCE(ENGINE__RULE_NEXUS_PANELS), .nexus = 1 + ENGINE_NEXUS_SECRET_ALLY,
     .when = has_room, .source = "E3 p.11, Ecaz Nexus card (Secret Ally); digest 5.2 row 33",
     .form = &secret_ally_form, .use = secret_ally, .legal = secret_ally_legal},
};

const engine__power_family engine__nexus_ecaz = {rows, sizeof rows / sizeof rows[0]};
