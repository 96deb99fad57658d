/*
 * points.c - the rule points: phase code asks a point (internal.h,
 * engine__point) and this file walks the power rows of the seated
 * factions (engine/powers_*.c) to answer. It knows no faction and no
 * power: what a power does is in its row. A row is in force when the
 * game (Basic, Advanced) and the rules version (engine/rules.c) allow
 * it; it applies to its owner and/or its owner's ally as its `to` says,
 * when its `when` (if any) agrees. Rows at one point are taken lower
 * `order` first, then in seat order, then in table order. Engine layer:
 * no I/O, no allocation, no clock.
 */
#include "engine/internal.h"

#define SEAT_NONE 0xFF

const engine__power_family *const engine__power_families[ENGINE_FACTION_COUNT] = {
    [ENGINE_FACTION_ATREIDES] = &engine__powers_atreides,
    [ENGINE_FACTION_BENE_GESSERIT] = &engine__powers_bene_gesserit,
    [ENGINE_FACTION_EMPEROR] = &engine__powers_emperor,
    [ENGINE_FACTION_FREMEN] = &engine__powers_fremen,
    [ENGINE_FACTION_HARKONNEN] = &engine__powers_harkonnen,
    [ENGINE_FACTION_GUILD] = &engine__powers_guild,
};

static const engine__power_family *family_of(const engine_state *st, unsigned seat)
{
    unsigned f = st->seat[seat].faction;
    return f < ENGINE_FACTION_COUNT ? engine__power_families[f] : NULL;
}

int engine__row_in_force(const engine_state *st, const engine__power_row *r)
{
    if (r->game == ENGINE__GAME_ADVANCED && !st->config.is_advanced)
        return 0;
    if (r->game == ENGINE__GAME_BASIC && st->config.is_advanced)
        return 0;
    if (r->since && !engine__rule(st, (engine__rule_change)(r->since - 1)))
        return 0;
    return !r->until || !engine__rule(st, (engine__rule_change)(r->until - 1));
}

/* A row found for a question, with the seat owning it. */
typedef struct match {
    const engine__power_row *row;
    unsigned owner;
} match;

/* Adds the rows of `fam` at `p` in force, played in Nexus mode `nexus`
 * (0: a faction's powers), whose `to` has `to` and whose `when` agrees for
 * `seat` (seat SEAT_NONE: `when` not asked), keeping the list ordered by
 * `order` (stable). */
static unsigned collect_family(match *m, unsigned n, const engine_state *st,
                               const engine__power_family *fam, unsigned nexus, engine__point p,
                               unsigned owner, unsigned to, unsigned seat)
{
    for (size_t i = 0; fam && i < fam->n && n < ENGINE__POINT_ROWS_MAX; i++) {
        const engine__power_row *r = &fam->rows[i];
        if (r->point != p || r->nexus != nexus || !(r->to & to) ||
            !engine__row_in_force(st, r) || (nexus == 0 && engine__nexus_banned(st, owner, p)) ||
            (seat != SEAT_NONE && r->when && !r->when(st, owner, seat)))
            continue;
        unsigned j = n++;
        for (; j > 0 && m[j - 1].row->order > r->order; j--)
            m[j] = m[j - 1];
        m[j].row = r;
        m[j].owner = owner;
    }
    return n;
}

/* The rows of `owner`'s faction family, the Nexus Cards module's in a
 * room with it (every seat's), then the panels of the Nexus card it holds
 * in the mode that card has for it (engine_nexus_mode_of). */
static unsigned collect(match *m, unsigned n, const engine_state *st, engine__point p,
                        unsigned owner, unsigned to, unsigned seat)
{
    n = collect_family(m, n, st, family_of(st, owner), 0, p, owner, to, seat);
    if (st->config.modules & ENGINE_MODULE_NEXUS_CARDS)
        n = collect_family(m, n, st, &engine__nexus_module, 0, p, owner, to, seat);
    int card = engine_nexus_held(st, owner);
    if (card < 0 || st->nexus_face[card] >= ENGINE_FACTION_COUNT)
        return n;
    unsigned face = st->nexus_face[card];
    int mode = engine_nexus_mode_of(st, owner, face);
    return collect_family(m, n, st, engine__nexus_families[face], 1u + (unsigned)mode, p, owner,
                          to, seat);
}

/* The rows at `p` applying to `seat`: its own, then its ally's. */
static unsigned applying(match *m, const engine_state *st, engine__point p, unsigned seat)
{
    unsigned n = collect(m, 0, st, p, seat, ENGINE__TO_OWNER, seat);
    uint8_t ally = st->ally[seat];
    if (ally != SEAT_NONE && ally < st->config.n_seats)
        n = collect(m, n, st, p, ally, ENGINE__TO_ALLY, seat);
    return n;
}

/* Every row at `p` in force, whoever it applies to. */
static unsigned every(match *m, const engine_state *st, engine__point p)
{
    unsigned n = 0;
    for (unsigned s = 0; s < st->config.n_seats; s++)
        n = collect(m, n, st, p, s, ENGINE__TO_OWNER | ENGINE__TO_ALLY, SEAT_NONE);
    return n;
}

int engine__point_owner(const engine_state *st, engine__point p)
{
    match m[ENGINE__POINT_ROWS_MAX];
    return every(m, st, p) ? (int)m[0].owner : -1;
}

const engine__power_row *engine__point_row(const engine_state *st, engine__point p,
                                           unsigned seat, unsigned *owner_out)
{
    match m[ENGINE__POINT_ROWS_MAX];
    if (!applying(m, st, p, seat))
        return NULL;
    if (owner_out)
        *owner_out = m[0].owner;
    return m[0].row;
}

const engine__power_row *engine__point_row_nth(const engine_state *st, engine__point p,
                                               unsigned seat, unsigned i, unsigned *owner_out)
{
    match m[ENGINE__POINT_ROWS_MAX];
    if (i >= applying(m, st, p, seat))
        return NULL;
    if (owner_out)
        *owner_out = m[i].owner;
    return m[i].row;
}

int engine__point_holds(const engine_state *st, engine__point p, unsigned seat)
{
    return engine__point_row(st, p, seat, NULL) != NULL;
}

int engine__point_value(const engine_state *st, engine__point p, unsigned seat, int base)
{
    match m[ENGINE__POINT_ROWS_MAX];
    unsigned n = applying(m, st, p, seat);
    int v = base;
    for (unsigned i = 0; i < n; i++) {
        const engine__power_row *r = m[i].row;
        if (r->fn && !(r->advantage != ENGINE_ADVANTAGE_NONE &&
                       engine__karama_cancelled(st, r->advantage)))
            v = r->fn(st, m[i].owner, seat, v);
    }
    return v;
}

int engine__point_allows(const engine_state *st, engine__point p, unsigned seat, int arg)
{
    unsigned owner;
    const engine__power_row *r = engine__point_row(st, p, seat, &owner);
    return r && (!r->fn || r->fn(st, owner, seat, arg));
}

int engine__point_decide(const engine_state *st, engine__point p, int arg, unsigned *owner_out)
{
    match m[ENGINE__POINT_ROWS_MAX];
    unsigned n = every(m, st, p);
    for (unsigned i = 0; i < n; i++) {
        int d = m[i].row->fn ? m[i].row->fn(st, m[i].owner, m[i].owner, arg) : 0;
        if (d) {
            if (owner_out)
                *owner_out = m[i].owner;
            return d;
        }
    }
    return 0;
}

unsigned engine__point_advantage(const engine_state *st, engine__point p, unsigned seat)
{
    const engine__power_row *r = engine__point_row(st, p, seat, NULL);
    return r ? r->advantage : ENGINE_ADVANTAGE_NONE;
}

const engine__power_row *engine__advantage_row(unsigned advantage)
{
    if (advantage == ENGINE_ADVANTAGE_NONE)
        return NULL;
    for (unsigned f = 0; f < ENGINE_FACTION_COUNT; f++) {
        const engine__power_family *fam = engine__power_families[f];
        for (size_t i = 0; fam && i < fam->n; i++)
            if (fam->rows[i].advantage == advantage)
                return &fam->rows[i];
    }
    return NULL;
}

unsigned engine__point_owner_advantage(const engine_state *st, engine__point p)
{
    int owner = engine__point_owner(st, p);
    return owner >= 0 ? engine__point_advantage(st, p, (unsigned)owner) : ENGINE_ADVANTAGE_NONE;
}
