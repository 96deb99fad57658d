/*
 * scenario.c - scenarios: a constructed position, actions and expected
 * results read from a JSON document (docs/SCENARIOS.md), run through the
 * engine in memory. `mentat scenario` (cmd_scenario.c) prints the result.
 *
 * Layer: tools. The position is built only through the engine's public
 * position API (engine_position_*), which keeps every invariant and marks
 * the configuration constructed; actions are decoded by the schema's
 * action JSON codec and folded by engine_apply. Nothing is written: a
 * scenario never touches a ledger, so it can never pass for a room.
 *
 * A document is read twice. The first pass validates all of it and builds
 * the position, so that a malformed document is refused before anything
 * runs, with a message naming the JSON path of the problem. The second
 * pass runs the actions and evaluates every expectation against the
 * states reached. Invariants:
 * (1) randomness: the position (engine_position_new, then _enter, or the
 *     opening deal of engine_setup) draws from engine_rng(seed, 0), a
 *     setup step taken to reach position.step k from engine_rng(seed, k); an action draws from engine_rng(seed, v),
 *     v = position.version + 1 + the actions accepted before it, as the
 *     ledger would number its event (a position exported from a room at
 *     version V goes on with that room's numbering);
 * (2) a miss is recorded, never fatal: a scenario runs to its end and
 *     reports every expectation.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "inspect/inspect.h"
#include "tools/internal.h"

#define PATH_CHARS 128             /* a JSON path, "position.forces[12].territory" */
#define NAME_CHARS 64              /* the longest slug read */
#define NO_KIND 0xFF               /* an action argument given as is, not as a card kind */
#define SCENARIO_MAX_BYTES (4u << 20)

typedef struct sc_action {
    engine_action act;             /* seat, kind, args; card args resolved when run */
    uint8_t card_kind[ENGINE_ACTION_MAX_ARGS]; /* per arg: a kind to resolve, or NO_KIND */
    int expect;                    /* engine_verdict expected */
    int then;                      /* token of its "then" object, -1 none */
} sc_action;

/* A battle as the runner saw it resolved (run_actions). */
typedef struct sc_battle {
    int is_known;                  /* 1 once an action resolved a battle */
    unsigned territory;            /* engine_territory */
    uint8_t aggressor, defender;   /* seats */
    int winner;                    /* the seat left with forces there, -1 none (both lost all) */
} sc_battle;

typedef struct sc_ctx {
    const char *text;              /* the document */
    const codec_json_token *tok;   /* its tokens */
    char *err;                     /* TOOL_SCENARIO_ERRMSG bytes */
    engine_config cfg;             /* seats and rules */
    uint8_t seed[ENGINE_SEED_BYTES];
    uint32_t version;              /* position.version: actions the position stands after */
    const engine_state *st;        /* check pass: the state expectations read; NULL when validating */
    const engine_state *start;     /* the position as entered (the bank counts from it) */
    sc_battle last_battle;         /* the last battle resolved by an action run so far */
    tool_scenario_result *res;     /* where checks go */
    const char *when;              /* "" or "after action 3: ", prefixed to check names */
    const char *branch;            /* "" or "branch \"name\": ", prefixed before `when` */
    uint32_t n_before;             /* actions accepted before this line of play (a branch's trunk) */
} sc_ctx;

/* ============================================================ failures */

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static int fail(sc_ctx *c, const char *path, const char *fmt, ...)
{
    va_list ap;
    int n = snprintf(c->err, TOOL_SCENARIO_ERRMSG, "%s: ", path[0] != '\0' ? path : "(document)");
    if (n < 0 || n >= TOOL_SCENARIO_ERRMSG)
        return -1;
    va_start(ap, fmt);
    vsnprintf(c->err + n, TOOL_SCENARIO_ERRMSG - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

/* snprintf that cuts what does not fit: texts here are messages, and a
 * message cut short is still a message. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static void textf(char *out, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out, cap, fmt, ap);
    va_end(ap);
}

/* out = base + suffix ("position" + ".forces"), or base[i]. */
static void path_key(char out[PATH_CHARS], const char *base, const char *key)
{
    textf(out, PATH_CHARS, "%s%s%s", base, base[0] != '\0' ? "." : "", key);
}

static void path_index(char out[PATH_CHARS], const char *base, unsigned i)
{
    textf(out, PATH_CHARS, "%s[%u]", base, i);
}

/* ========================================================= JSON reading */

static const char *type_name(unsigned type)
{
    switch ((codec_json_type)type) {
    case CODEC_JSON_NULL: return "null";
    case CODEC_JSON_BOOL: return "a boolean";
    case CODEC_JSON_NUMBER: return "a number";
    case CODEC_JSON_STRING: return "a string";
    case CODEC_JSON_ARRAY: return "an array";
    case CODEC_JSON_OBJECT: return "an object";
    }
    return "?";
}

static int want_type(sc_ctx *c, int t, const char *path, codec_json_type type)
{
    if (c->tok[t].type != type)
        return fail(c, path, "expected %s, found %s", type_name(type), type_name(c->tok[t].type));
    return 0;
}

/* Checks that object `obj` has only the fields in `allowed` (NULL-ended),
 * each at most once. */
static int check_fields(sc_ctx *c, int obj, const char *path, const char *const *allowed)
{
    if (want_type(c, obj, path, CODEC_JSON_OBJECT) != 0)
        return -1;
    uint32_t i = (uint32_t)obj + 1;
    for (uint32_t m = 0; m < c->tok[obj].size; m++) {
        char key[NAME_CHARS];
        if (codec_json_string(key, sizeof key, &c->tok[i], c->text) != 0)
            return fail(c, path, "unknown field (name too long)");
        int known = 0;
        for (const char *const *a = allowed; *a != NULL; a++)
            known |= strcmp(*a, key) == 0;
        if (!known)
            return fail(c, path, "unknown field \"%s\"", key);
        if (codec_json_member(c->tok, obj, c->text, key) != (int)i + 1)
            return fail(c, path, "duplicate field \"%s\"", key);
        i = c->tok[i + 1].next;
    }
    return 0;
}

/* The value of member `key`, or -1. */
static int member(const sc_ctx *c, int obj, const char *key)
{
    return codec_json_member(c->tok, obj, c->text, key);
}

static int required(sc_ctx *c, int obj, const char *path, const char *key)
{
    int v = member(c, obj, key);
    if (v < 0)
        fail(c, path, "missing field \"%s\"", key);
    return v;
}

static int read_int(sc_ctx *c, int t, const char *path, int64_t lo, int64_t hi, int64_t *out)
{
    if (want_type(c, t, path, CODEC_JSON_NUMBER) != 0)
        return -1;
    if (codec_json_int(out, &c->tok[t], c->text) != 0 || *out < lo || *out > hi)
        return fail(c, path, "expected an integer in %lld..%lld", (long long)lo, (long long)hi);
    return 0;
}

/* Member `key` as an integer in lo..hi; absent: *out = dflt (or an error
 * when dflt < lo, meaning required). */
static int int_field(sc_ctx *c, int obj, const char *path, const char *key, int64_t lo,
                     int64_t hi, int64_t dflt, int64_t *out)
{
    char p[PATH_CHARS];
    path_key(p, path, key);
    int v = member(c, obj, key);
    if (v < 0) {
        if (dflt < lo)
            return fail(c, path, "missing field \"%s\"", key);
        *out = dflt;
        return 0;
    }
    return read_int(c, v, p, lo, hi, out);
}

/* An optional integer field: *out is -1 when it is absent. */
static int opt_int(sc_ctx *c, int obj, const char *path, const char *key, int64_t lo, int64_t hi,
                   int64_t *out)
{
    *out = -1;
    if (member(c, obj, key) < 0)
        return 0;
    return int_field(c, obj, path, key, lo, hi, -1, out);
}

static int read_name(sc_ctx *c, int t, const char *path, char out[NAME_CHARS], const char *what)
{
    if (c->tok[t].type != CODEC_JSON_STRING)
        return fail(c, path, "expected %s name (a string), found %s", what,
                    type_name(c->tok[t].type));
    if (codec_json_string(out, NAME_CHARS, &c->tok[t], c->text) != 0)
        return fail(c, path, "unknown %s (name too long)", what);
    return 0;
}

/* A seat: 1..N, or the slug of a faction at the table. */
static int read_seat(sc_ctx *c, int t, const char *path, uint8_t *out)
{
    if (c->tok[t].type == CODEC_JSON_NUMBER) {
        int64_t v;
        if (read_int(c, t, path, 1, c->cfg.n_seats, &v) != 0)
            return -1;
        *out = (uint8_t)(v - 1);
        return 0;
    }
    char name[NAME_CHARS];
    if (read_name(c, t, path, name, "a seat number or faction") != 0)
        return -1;
    engine_faction f = engine_faction_from_name(name);
    for (uint8_t s = 0; s < c->cfg.n_seats; s++)
        if (f != ENGINE_FACTION_NONE && c->cfg.faction[s] == f) {
            *out = s;
            return 0;
        }
    if (f == ENGINE_FACTION_NONE)
        return fail(c, path, "unknown faction '%s'", name);
    return fail(c, path, "no seat plays %s in this scenario", name);
}

static int seat_field(sc_ctx *c, int obj, const char *path, uint8_t *out)
{
    char p[PATH_CHARS];
    int v = required(c, obj, path, "seat");
    path_key(p, path, "seat");
    return v < 0 ? -1 : read_seat(c, v, p, out);
}

static int read_territory(sc_ctx *c, int t, const char *path, unsigned *out)
{
    char name[NAME_CHARS];
    if (read_name(c, t, path, name, "a territory") != 0)
        return -1;
    int v = engine_territory_from_slug(name);
    if (v < 0)
        return fail(c, path, "unknown territory '%s'", name);
    *out = (unsigned)v;
    return 0;
}

static int read_leader(sc_ctx *c, int t, const char *path, unsigned *out)
{
    char name[NAME_CHARS];
    if (read_name(c, t, path, name, "a leader") != 0)
        return -1;
    int v = engine_leader_from_slug(name);
    if (v < 0)
        return fail(c, path, "unknown leader '%s'", name);
    *out = (unsigned)v;
    return 0;
}

static int card_kind_from_slug(const char *s)
{
    for (unsigned k = 0; k < ENGINE_CARD_KIND_COUNT; k++)
        if (strcmp(engine_card_kind_slug(k), s) == 0)
            return (int)k;
    return -1;
}

static int read_card_kind(sc_ctx *c, int t, const char *path, unsigned *out)
{
    char name[NAME_CHARS];
    if (read_name(c, t, path, name, "a treachery card") != 0)
        return -1;
    int v = card_kind_from_slug(name);
    if (v < 0)
        return fail(c, path, "unknown treachery card '%s'", name);
    *out = (unsigned)v;
    return 0;
}

/* The sectors a territory lies in, as "3, 4, 5" into out. */
static unsigned territory_sectors(char *out, size_t cap, unsigned territory, int *only_loc)
{
    unsigned n = 0;
    size_t len = 0;
    out[0] = '\0';
    for (unsigned loc = 0; loc < ENGINE_LOCATION_COUNT; loc++) {
        if (engine_location_territory(loc) != territory)
            continue;
        *only_loc = (int)loc;
        int sector = engine_location_sector(loc);
        if (len < cap)
            len += (size_t)snprintf(out + len, cap - len, "%s%d", n != 0 ? ", " : "", sector);
        n++;
    }
    return n;
}

/* {"territory", "sector"} in object `obj`: the location, or with
 * may_be_territory and no "sector" in a territory of several sectors,
 * -1 in *loc_out (the whole territory). */
static int read_place(sc_ctx *c, int obj, const char *path, int may_be_territory,
                      unsigned *territory_out, int *loc_out)
{
    char p[PATH_CHARS], sectors[160];
    int t = required(c, obj, path, "territory");
    path_key(p, path, "territory");
    if (t < 0 || read_territory(c, t, p, territory_out) != 0)
        return -1;
    int only = -1;
    unsigned n = territory_sectors(sectors, sizeof sectors, *territory_out, &only);
    int s = member(c, obj, "sector");
    if (s < 0 || c->tok[s].type == CODEC_JSON_NULL) {
        if (n == 1) {
            *loc_out = only;
            return 0;
        }
        if (may_be_territory) {
            *loc_out = -1;
            return 0;
        }
        return fail(c, path, "%s lies in sectors %s: give \"sector\"",
                    engine_territory_slug(*territory_out), sectors);
    }
    int64_t sector;
    path_key(p, path, "sector");
    if (read_int(c, s, p, 0, ENGINE_SECTOR_COUNT - 1, &sector) != 0)
        return -1;
    int loc = engine_location_find(*territory_out, (int)sector);
    if (loc < 0)
        return fail(c, p, "%s does not lie in sector %lld (it lies in %s)",
                    engine_territory_slug(*territory_out), (long long)sector, sectors);
    *loc_out = loc;
    return 0;
}

/* Calls each(c, element, path) for every element of array token a, whose
 * path is p. */
static int each_item(sc_ctx *c, int a, const char *p,
                     int (*each)(sc_ctx *, int, const char *, void *), void *arg)
{
    char pe[PATH_CHARS];
    if (want_type(c, a, p, CODEC_JSON_ARRAY) != 0)
        return -1;
    uint32_t e = (uint32_t)a + 1;
    for (uint32_t i = 0; i < c->tok[a].size; i++) {
        path_index(pe, p, i);
        if (each(c, (int)e, pe, arg) != 0)
            return -1;
        e = c->tok[e].next;
    }
    return 0;
}

/* each_item over array member `key` (absent: nothing). */
static int each_element(sc_ctx *c, int obj, const char *path, const char *key,
                        int (*each)(sc_ctx *, int, const char *, void *), void *arg)
{
    char p[PATH_CHARS];
    int a = member(c, obj, key);
    if (a < 0)
        return 0;
    path_key(p, path, key);
    return each_item(c, a, p, each, arg);
}

/* =========================================================== the checks */

static void check_add(sc_ctx *c, const char *what, const char *expected, const char *got)
{
    tool_scenario_result *r = c->res;
    if (r->n_checks == r->cap_checks) {
        size_t cap = r->cap_checks != 0 ? 2 * r->cap_checks : 32;
        tool_scenario_check *grown = realloc(r->checks, cap * sizeof *grown);
        if (grown == NULL) {
            r->is_out_of_memory = 1;
            return;
        }
        r->checks = grown;
        r->cap_checks = cap;
    }
    tool_scenario_check *k = &r->checks[r->n_checks++];
    snprintf(k->what, sizeof k->what, "%s%s%s", c->branch, c->when, what);
    snprintf(k->expected, sizeof k->expected, "%s", expected);
    snprintf(k->got, sizeof k->got, "%s", got);
    k->is_met = strcmp(expected, got) == 0;
    r->n_missed += !k->is_met;
}

static void check_uint(sc_ctx *c, const char *what, int64_t expected, int64_t got)
{
    char e[32], g[32];
    snprintf(e, sizeof e, "%lld", (long long)expected);
    snprintf(g, sizeof g, "%lld", (long long)got);
    check_add(c, what, e, g);
}

static const char *seat_name(const sc_ctx *c, uint8_t s, char buf[32])
{
    snprintf(buf, 32, "seat %u %s", s + 1u, tool_seat_faction(&c->cfg, s));
    return buf;
}

/* Seats of a mask as "1 atreides, 3 emperor", or "none". */
static void seats_text(char *out, size_t cap, const sc_ctx *c, uint16_t mask)
{
    size_t len = 0;
    out[0] = '\0';
    for (uint8_t s = 0; s < c->cfg.n_seats; s++)
        if ((mask & (1u << s)) && len < cap)
            len += (size_t)snprintf(out + len, cap - len, "%s%u %s", len != 0 ? ", " : "",
                                    s + 1u, tool_seat_faction(&c->cfg, s));
    if (len == 0)
        snprintf(out, cap, "none");
}

/* A seat list (array of seats) as a mask. */
static int read_seat_set(sc_ctx *c, int a, const char *path, uint16_t *out)
{
    char pe[PATH_CHARS];
    *out = 0;
    if (want_type(c, a, path, CODEC_JSON_ARRAY) != 0)
        return -1;
    uint32_t e = (uint32_t)a + 1;
    for (uint32_t i = 0; i < c->tok[a].size; i++) {
        uint8_t s = 0;
        path_index(pe, path, i);
        if (read_seat(c, (int)e, pe, &s) != 0)
            return -1;
        *out = (uint16_t)(*out | (1u << s));
        e = c->tok[e].next;
    }
    return 0;
}

/* The seat's plain forces in the territory (or at loc), its elite ones
 * and its advisors (the Bene Gesserit's only). */
static unsigned forces_in(const engine_state *st, uint8_t seat, unsigned territory, int loc,
                          unsigned *elite_out, unsigned *advisors_out)
{
    unsigned plain = 0, elite = 0, advisors = 0;
    int bg = st->seat[seat].faction == ENGINE_FACTION_BENE_GESSERIT;
    for (unsigned l = 0; l < ENGINE_LOCATION_COUNT; l++)
        if ((loc >= 0 && l == (unsigned)loc) ||
            (loc < 0 && engine_location_territory(l) == territory)) {
            plain += st->forces[l][seat];
            elite += st->special[l][seat];
            advisors += bg ? st->advisors[l] : 0u;
        }
    *elite_out = elite;
    *advisors_out = advisors;
    return plain;
}

static void place_text(char *out, size_t cap, unsigned territory, int loc)
{
    const char *name = engine_territory_name(territory);
    int sector = loc >= 0 ? engine_location_sector((unsigned)loc) : ENGINE_NO_SECTOR;
    if (sector == ENGINE_NO_SECTOR)
        snprintf(out, cap, "%s", name != NULL ? name : "?");
    else
        snprintf(out, cap, "%s sector %d", name != NULL ? name : "?", sector);
}

static int expect_seat_spice(sc_ctx *c, int e, const char *path, void *arg)
{
    static const char *const fields[] = {"seat", "spice", NULL};
    uint8_t s = 0;
    int64_t spice = 0;
    char what[96], b[32];
    (void)arg;
    if (check_fields(c, e, path, fields) != 0 || seat_field(c, e, path, &s) != 0 ||
        int_field(c, e, path, "spice", 0, 65535, -1, &spice) != 0)
        return -1;
    if (c->st != NULL) {
        snprintf(what, sizeof what, "%s spice", seat_name(c, s, b));
        check_uint(c, what, spice, c->st->seat[s].spice);
    }
    return 0;
}

static int expect_forces(sc_ctx *c, int e, const char *path, void *arg)
{
    static const char *const fields[] = {"seat", "territory", "sector", "forces", "elite",
                                         "advisors", NULL};
    uint8_t s = 0;
    unsigned territory = 0;
    int loc = -1;
    int64_t plain = 0, elite = -1, advisors = -1;
    char what[160], b[32], where[64];
    (void)arg;
    if (check_fields(c, e, path, fields) != 0 || seat_field(c, e, path, &s) != 0 ||
        read_place(c, e, path, 1, &territory, &loc) != 0 ||
        int_field(c, e, path, "forces", 0, 255, -1, &plain) != 0 ||
        int_field(c, e, path, "elite", -1, 255, -1, &elite) != 0 ||
        int_field(c, e, path, "advisors", -1, 255, -1, &advisors) != 0)
        return -1;
    if (c->st != NULL) {
        unsigned got_elite, got_advisors;
        unsigned got = forces_in(c->st, s, territory, loc, &got_elite, &got_advisors);
        place_text(where, sizeof where, territory, loc);
        snprintf(what, sizeof what, "forces of %s in %s", seat_name(c, s, b), where);
        check_uint(c, what, plain, got);
        if (elite >= 0) {
            snprintf(what, sizeof what, "elite forces of %s in %s", seat_name(c, s, b), where);
            check_uint(c, what, elite, got_elite);
        }
        if (advisors >= 0) {
            snprintf(what, sizeof what, "advisors of %s in %s", seat_name(c, s, b), where);
            check_uint(c, what, advisors, got_advisors);
        }
    }
    return 0;
}

/* "tanks" and "reserves": {seat, forces, elite?}; arg non-NULL = tanks. */
static int expect_pool(sc_ctx *c, int e, const char *path, void *arg)
{
    static const char *const fields[] = {"seat", "forces", "elite", NULL};
    uint8_t s = 0;
    int64_t plain = 0, elite = 0;
    char what[96], b[32];
    if (check_fields(c, e, path, fields) != 0 || seat_field(c, e, path, &s) != 0 ||
        int_field(c, e, path, "forces", 0, 255, -1, &plain) != 0 ||
        int_field(c, e, path, "elite", -1, 255, -1, &elite) != 0)
        return -1;
    if (c->st != NULL) {
        const engine_seat_state *p = &c->st->seat[s];
        const char *where = arg != NULL ? "in the tanks" : "in reserve";
        snprintf(what, sizeof what, "forces of %s %s", seat_name(c, s, b), where);
        check_uint(c, what, plain, arg != NULL ? p->tanks : p->reserves);
        if (elite >= 0) {
            snprintf(what, sizeof what, "elite forces of %s %s", seat_name(c, s, b), where);
            check_uint(c, what, elite, arg != NULL ? p->special_tanks : p->special_reserves);
        }
    }
    return 0;
}

static int expect_board_spice(sc_ctx *c, int e, const char *path, void *arg)
{
    static const char *const fields[] = {"territory", "sector", "amount", NULL};
    unsigned territory = 0;
    int loc = -1;
    int64_t amount = 0;
    char what[96], where[64];
    (void)arg;
    if (check_fields(c, e, path, fields) != 0 ||
        read_place(c, e, path, 1, &territory, &loc) != 0 ||
        int_field(c, e, path, "amount", 0, 65535, -1, &amount) != 0)
        return -1;
    if (c->st != NULL) {
        unsigned got = 0;
        for (unsigned l = 0; l < ENGINE_LOCATION_COUNT; l++)
            if ((loc >= 0 && l == (unsigned)loc) ||
                (loc < 0 && engine_location_territory(l) == territory))
                got += c->st->spice[l];
        place_text(where, sizeof where, territory, loc);
        snprintf(what, sizeof what, "spice in %s", where);
        check_uint(c, what, amount, got);
    }
    return 0;
}

static int expect_leader(sc_ctx *c, int e, const char *path, void *arg)
{
    static const char *const fields[] = {"leader", "place", "deaths", "held_by", NULL};
    char p[PATH_CHARS], place[NAME_CHARS], what[96];
    unsigned leader = 0;
    int64_t deaths = -1;
    (void)arg;
    if (check_fields(c, e, path, fields) != 0)
        return -1;
    int l = required(c, e, path, "leader"), pl = member(c, e, "place");
    int hb = member(c, e, "held_by");
    if (l < 0 || opt_int(c, e, path, "deaths", 0, 255, &deaths) != 0)
        return -1;
    path_key(p, path, "leader");
    if (read_leader(c, l, p, &leader) != 0)
        return -1;
    path_key(p, path, "place");
    if (pl < 0 && deaths < 0 && hb < 0)
        return fail(c, path, "say the leader's \"place\", its \"deaths\", or \"held_by\"");
    uint8_t holder = 0;
    char hp[PATH_CHARS];
    path_key(hp, path, "held_by");
    if (hb >= 0 && read_seat(c, hb, hp, &holder) != 0)
        return -1;
    if (c->st != NULL && hb >= 0) {
        /* whose pool holds it: its own faction's, or its captor's (LR 2.05.10.01) */
        char want_s[32], got_s[32];
        int got = engine_leader_holder(c->st, leader);
        snprintf(what, sizeof what, "pool holding %s", engine_leader_name(leader));
        check_add(c, what, seat_name(c, holder, want_s),
                  got < 0 ? "none" : seat_name(c, (uint8_t)got, got_s));
    }
    if (pl >= 0 && read_name(c, pl, p, place, "a leader place") != 0)
        return -1;
    if (pl >= 0 && strcmp(place, "pool") != 0 && strcmp(place, "board") != 0 &&
        strcmp(place, "tanks") != 0)
        return fail(c, p, "expected \"pool\", \"board\" or \"tanks\", not '%s'", place);
    if (c->st != NULL && pl >= 0) {
        /* "pool" is any living leader in the pool; "board" the narrower
         * one that fought in this Battle phase and lives. */
        unsigned at = c->st->leader[leader].place;
        int fought = c->st->phase == ENGINE_PHASE_BATTLE &&
                     c->st->leader_territory[leader] != 0xFF;
        const char *got = at == ENGINE_PLACE_POOL
                              ? (fought && strcmp(place, "board") == 0 ? "board" : "pool")
                              : at == ENGINE_PLACE_TANKS ? "tanks" : "out of the game";
        snprintf(what, sizeof what, "place of %s", engine_leader_name(leader));
        check_add(c, what, place, got);
    }
    if (c->st != NULL && deaths >= 0) {
        snprintf(what, sizeof what, "times %s was killed", engine_leader_name(leader));
        check_uint(c, what, deaths, c->st->leader[leader].deaths);
    }
    return 0;
}

static unsigned hand_kinds(const engine_state *st, uint8_t s, unsigned counts[ENGINE_CARD_KIND_COUNT])
{
    unsigned n = 0;
    memset(counts, 0, ENGINE_CARD_KIND_COUNT * sizeof counts[0]);
    for (unsigned i = 0; i < st->n_cards && i < ENGINE_TREACHERY_MAX; i++)
        if (st->card[i].place == ENGINE_PLACE_HAND && st->card[i].holder == s) {
            if (st->card_kind[i] < ENGINE_CARD_KIND_COUNT)
                counts[st->card_kind[i]]++;
            n++;
        }
    return n;
}

static int expect_hand_size(sc_ctx *c, int e, const char *path, void *arg)
{
    static const char *const fields[] = {"seat", "cards", NULL};
    uint8_t s = 0;
    int64_t n = 0;
    char what[96], b[32];
    unsigned counts[ENGINE_CARD_KIND_COUNT];
    (void)arg;
    if (check_fields(c, e, path, fields) != 0 || seat_field(c, e, path, &s) != 0 ||
        int_field(c, e, path, "cards", 0, ENGINE_TREACHERY_MAX, -1, &n) != 0)
        return -1;
    if (c->st != NULL) {
        snprintf(what, sizeof what, "cards in the hand of %s", seat_name(c, s, b));
        check_uint(c, what, n, hand_kinds(c->st, s, counts));
    }
    return 0;
}

/* Card kind counts as "karama, shield, shield" (kind order), or "none". */
static void kinds_text(char *out, size_t cap, const unsigned counts[ENGINE_CARD_KIND_COUNT])
{
    size_t len = 0;
    out[0] = '\0';
    for (unsigned k = 0; k < ENGINE_CARD_KIND_COUNT; k++)
        for (unsigned i = 0; i < counts[k] && len < cap; i++)
            len += (size_t)snprintf(out + len, cap - len, "%s%s", len != 0 ? ", " : "",
                                    engine_card_kind_slug(k));
    if (len == 0)
        snprintf(out, cap, "none");
}

/* Reads {seat, cards: [kind...]}: the seat, then each(c, card, path, arg)
 * for every card. */
static int seat_cards(sc_ctx *c, int e, const char *path, uint8_t *seat,
                      int (*each)(sc_ctx *, int, const char *, void *), void *arg)
{
    static const char *const fields[] = {"seat", "cards", NULL};
    char p[PATH_CHARS];
    if (check_fields(c, e, path, fields) != 0 || seat_field(c, e, path, seat) != 0)
        return -1;
    int a = required(c, e, path, "cards");
    path_key(p, path, "cards");
    if (a < 0)
        return -1;
    return each_item(c, a, p, each, arg);
}

/* arg: unsigned[ENGINE_CARD_KIND_COUNT], counts of the kinds read. */
static int count_card(sc_ctx *c, int e, const char *path, void *arg)
{
    unsigned *counts = arg, kind = 0;
    if (read_card_kind(c, e, path, &kind) != 0)
        return -1;
    counts[kind]++;
    return 0;
}

static int expect_hand(sc_ctx *c, int e, const char *path, void *arg)
{
    uint8_t s;
    char what[96], b[32], want_s[96], got_s[96];
    unsigned want[ENGINE_CARD_KIND_COUNT] = {0}, got[ENGINE_CARD_KIND_COUNT];
    (void)arg;
    if (seat_cards(c, e, path, &s, count_card, want) != 0)
        return -1;
    if (c->st != NULL) {
        hand_kinds(c->st, s, got);
        kinds_text(want_s, sizeof want_s, want);
        kinds_text(got_s, sizeof got_s, got);
        snprintf(what, sizeof what, "hand of %s", seat_name(c, s, b));
        check_add(c, what, want_s, got_s);
    }
    return 0;
}

static int read_phase(sc_ctx *c, int t, const char *path, unsigned *out)
{
    char name[NAME_CHARS];
    if (read_name(c, t, path, name, "a phase") != 0)
        return -1;
    for (unsigned p = 0; p < ENGINE_PHASE_COUNT; p++)
        if (strcmp(engine_phase_name(p), name) == 0) {
            *out = p;
            return 0;
        }
    return fail(c, path, "unknown phase '%s'", name);
}

/* [[a, b], ...] as the ally of each seat (0xFF none). */
static int read_alliances(sc_ctx *c, int a, const char *path, uint8_t ally[ENGINE_MAX_SEATS])
{
    char pe[PATH_CHARS], pp[PATH_CHARS];
    memset(ally, 0xFF, ENGINE_MAX_SEATS);
    if (want_type(c, a, path, CODEC_JSON_ARRAY) != 0)
        return -1;
    uint32_t e = (uint32_t)a + 1;
    for (uint32_t i = 0; i < c->tok[a].size; i++) {
        path_index(pe, path, i);
        if (want_type(c, (int)e, pe, CODEC_JSON_ARRAY) != 0)
            return -1;
        if (c->tok[e].size != 2)
            return fail(c, pe, "an alliance is a pair of seats");
        uint8_t s[2];
        uint32_t k = e + 1;
        for (unsigned j = 0; j < 2; j++) {
            path_index(pp, pe, j);
            if (read_seat(c, (int)k, pp, &s[j]) != 0)
                return -1;
            k = c->tok[k].next;
        }
        if (s[0] == s[1] || ally[s[0]] != 0xFF || ally[s[1]] != 0xFF)
            return fail(c, pe, "a seat allies with one other seat at most");
        ally[s[0]] = s[1];
        ally[s[1]] = s[0];
        e = c->tok[e].next;
    }
    return 0;
}

static void alliances_text(char *out, size_t cap, const sc_ctx *c, const uint8_t ally[])
{
    size_t len = 0;
    out[0] = '\0';
    for (uint8_t s = 0; s < c->cfg.n_seats; s++)
        if (ally[s] < c->cfg.n_seats && ally[s] > s && len < cap)
            len += (size_t)snprintf(out + len, cap - len, "%s%s + %s", len != 0 ? ", " : "",
                                    tool_seat_faction(&c->cfg, s),
                                    tool_seat_faction(&c->cfg, ally[s]));
    if (len == 0)
        snprintf(out, cap, "none");
}

/* The top cards of the treachery deck, last on top, as kinds. */
static int expect_deck_top(sc_ctx *c, int a, const char *path)
{
    char pe[PATH_CHARS], want_s[200], got_s[200];
    size_t wl = 0, gl = 0;
    if (want_type(c, a, path, CODEC_JSON_ARRAY) != 0)
        return -1;
    unsigned n = c->tok[a].size;
    want_s[0] = got_s[0] = '\0';
    uint32_t e = (uint32_t)a + 1;
    for (unsigned i = 0; i < n; i++) {
        unsigned kind = 0;
        path_index(pe, path, i);
        if (read_card_kind(c, (int)e, pe, &kind) != 0)
            return -1;
        if (wl < sizeof want_s)
            wl += (size_t)snprintf(want_s + wl, sizeof want_s - wl, "%s%s", i != 0 ? ", " : "",
                                   engine_card_kind_slug(kind));
        e = c->tok[e].next;
    }
    if (c->st == NULL)
        return 0;
    const engine_state *st = c->st;
    unsigned from = st->n_deck > n ? st->n_deck - n : 0;
    for (unsigned i = from; i < st->n_deck; i++)
        if (gl < sizeof got_s)
            gl += (size_t)snprintf(got_s + gl, sizeof got_s - gl, "%s%s", i != from ? ", " : "",
                                   engine_card_kind_slug(st->card_kind[st->deck[i]]));
    check_add(c, "top of the treachery deck (last on top)", want_s, got_s);
    return 0;
}

/* A spice card as the position names it: its territory's slug, or
 * "shai_hulud". */
static const char *spice_card_slug(unsigned card)
{
    for (unsigned n = 0;; n++) {
        int w = engine_spice_worm(n);
        if (w < 0)
            break;
        if ((unsigned)w == card)
            return "shai_hulud";
    }
    for (unsigned t = 0; t < ENGINE_TERRITORY_COUNT; t++)
        if (engine_spice_card_of(t) == (int)card)
            return engine_territory_slug(t);
    return "?";
}

/* A discard pile, bottom first, exactly: "treachery_discard" (card kind
 * slugs) or "spice_discard" (territory slugs and "shai_hulud"; is_spice
 * 2: "spice_discard_b", the Advanced double blow's pile B). */
static int expect_discard(sc_ctx *c, int a, const char *path, int is_spice)
{
    char pe[PATH_CHARS], name[NAME_CHARS], want_s[200], got_s[200];
    size_t wl = 0, gl = 0;
    if (want_type(c, a, path, CODEC_JSON_ARRAY) != 0)
        return -1;
    want_s[0] = got_s[0] = '\0';
    uint32_t e = (uint32_t)a + 1;
    for (unsigned i = 0; i < c->tok[a].size; i++) {
        path_index(pe, path, i);
        const char *slug = name;
        if (is_spice) {
            if (read_name(c, (int)e, pe, name, "a spice card (territory or shai_hulud)") != 0)
                return -1;
            int t = engine_territory_from_slug(name);
            if (strcmp(name, "shai_hulud") != 0 && (t < 0 || engine_spice_card_of((unsigned)t) < 0))
                return fail(c, pe, "no spice card is named '%s'", name);
        } else {
            unsigned kind = 0;
            if (read_card_kind(c, (int)e, pe, &kind) != 0)
                return -1;
            slug = engine_card_kind_slug(kind);
        }
        if (wl < sizeof want_s)
            wl += (size_t)snprintf(want_s + wl, sizeof want_s - wl, "%s%s", i != 0 ? ", " : "",
                                   slug);
        e = c->tok[e].next;
    }
    if (c->st == NULL)
        return 0;
    const engine_state *st = c->st;
    const uint8_t *spice = is_spice == 2 ? st->spice_discard_b : st->spice_discard;
    unsigned n = is_spice == 2 ? st->n_spice_discard_b : is_spice ? st->n_spice_discard
                                                                 : st->n_discard;
    for (unsigned i = 0; i < n; i++) {
        const char *slug = is_spice ? spice_card_slug(spice[i])
                                    : engine_card_kind_slug(st->card_kind[st->discard[i]]);
        if (gl < sizeof got_s)
            gl += (size_t)snprintf(got_s + gl, sizeof got_s - gl, "%s%s", i != 0 ? ", " : "",
                                   slug);
    }
    check_add(c, is_spice == 2 ? "spice discard pile B (last on top)"
                 : is_spice ? "spice discard pile (last on top)"
                            : "treachery discard pile (last on top)", want_s, got_s);
    return 0;
}

/* "deck_sizes": {treachery, treachery_discard, spice, spice_discard,
 * traitors}, each optional. */
/* A Nexus card is named by the faction printed on it. */
static int read_nexus_card(sc_ctx *c, int t, const char *path, unsigned *out)
{
    char name[NAME_CHARS];
    if (read_name(c, t, path, name, "a Nexus card (a faction)") != 0)
        return -1;
    engine_faction f = engine_faction_from_name(name);
    if (f == ENGINE_FACTION_NONE)
        return fail(c, path, "unknown faction '%s'", name);
    *out = f;
    return 0;
}

/* "nexus_hands": [{seat, card}]: the Nexus card the seat holds (card by
 * faction, null for none). */
static int expect_nexus_hand(sc_ctx *c, int e, const char *path, void *arg)
{
    static const char *const fields[] = {"seat", "card", NULL};
    uint8_t s = 0;
    unsigned f = ENGINE_FACTION_NONE;
    char p[PATH_CHARS], what[96], b[32];
    (void)arg;
    if (check_fields(c, e, path, fields) != 0 || seat_field(c, e, path, &s) != 0)
        return -1;
    int k = required(c, e, path, "card");
    path_key(p, path, "card");
    if (k < 0 || (c->tok[k].type != CODEC_JSON_NULL && read_nexus_card(c, k, p, &f) != 0))
        return -1;
    if (c->st != NULL) {
        int held = engine_nexus_held(c->st, s);
        const char *got = held < 0 ? "none" : engine_faction_name(c->st->nexus_face[held]);
        snprintf(what, sizeof what, "the Nexus card of %s", seat_name(c, s, b));
        check_add(c, what, f == ENGINE_FACTION_NONE ? "none" : engine_faction_name(f),
                  got != NULL ? got : "?");
    }
    return 0;
}

/* "nexus_played": [faction slugs]: the Nexus cards shown face up in the
 * discard pile (played), bottom first, exactly. */
static int expect_nexus_played(sc_ctx *c, int a, const char *path)
{
    char pe[PATH_CHARS], want_s[200], got_s[200];
    size_t wl = 0, gl = 0;
    if (want_type(c, a, path, CODEC_JSON_ARRAY) != 0)
        return -1;
    want_s[0] = got_s[0] = '\0';
    uint32_t e = (uint32_t)a + 1;
    for (unsigned i = 0; i < c->tok[a].size; i++) {
        unsigned f = 0;
        path_index(pe, path, i);
        if (read_nexus_card(c, (int)e, pe, &f) != 0)
            return -1;
        if (wl < sizeof want_s)
            wl += (size_t)snprintf(want_s + wl, sizeof want_s - wl, "%s%s", i != 0 ? ", " : "",
                                   engine_faction_name(f));
        e = c->tok[e].next;
    }
    if (c->st == NULL)
        return 0;
    const engine_state *st = c->st;
    for (unsigned i = 0; i < st->n_nexus_discard; i++) {
        unsigned card = st->nexus_discard[i];
        if (!(st->nexus_card[card].known_by & ENGINE_KNOWN_PUBLIC) || gl >= sizeof got_s)
            continue;
        gl += (size_t)snprintf(got_s + gl, sizeof got_s - gl, "%s%s", gl != 0 ? ", " : "",
                               engine_faction_name(st->nexus_face[card]));
    }
    check_add(c, "Nexus cards played (discard, bottom first)", wl ? want_s : "none",
              gl ? got_s : "none");
    return 0;
}

/* "traitors_held": [{seat, count}]: traitor cards the seat holds. */
static int expect_traitors_held(sc_ctx *c, int e, const char *path, void *arg)
{
    static const char *const fields[] = {"seat", "count", NULL};
    uint8_t s = 0;
    int64_t n = 0;
    char what[96], b[32];
    (void)arg;
    if (check_fields(c, e, path, fields) != 0 || seat_field(c, e, path, &s) != 0 ||
        int_field(c, e, path, "count", 0, ENGINE_LEADER_COUNT, -1, &n) != 0)
        return -1;
    if (c->st != NULL) {
        unsigned held = 0;
        for (unsigned l = 0; l < ENGINE_LEADER_COUNT; l++)
            held += c->st->traitor[l].place == ENGINE_PLACE_HAND && c->st->traitor[l].holder == s;
        snprintf(what, sizeof what, "traitor cards held by %s", seat_name(c, s, b));
        check_uint(c, what, n, held);
    }
    return 0;
}

/* "nexus_question": {asker, asked, answer: "yes"|"no"} or null: the Ecaz
 * Secret Ally's last question this turn (engine/nexus_ecaz.c). */
static int expect_nexus_question(sc_ctx *c, int v, const char *path)
{
    static const char *const fields[] = {"asker", "asked", "answer", NULL};
    char want_s[200] = "none", got_s[200] = "none", name[NAME_CHARS], p[PATH_CHARS], b1[32], b2[32];
    if (c->tok[v].type != CODEC_JSON_NULL) {
        uint8_t asker = 0, asked = 0;
        if (want_type(c, v, path, CODEC_JSON_OBJECT) != 0 || check_fields(c, v, path, fields) != 0)
            return -1;
        int a = required(c, v, path, "asker"), q = required(c, v, path, "asked"),
            k = required(c, v, path, "answer");
        if (a < 0 || q < 0 || k < 0)
            return -1;
        path_key(p, path, "asker");
        if (read_seat(c, a, p, &asker) != 0)
            return -1;
        path_key(p, path, "asked");
        if (read_seat(c, q, p, &asked) != 0)
            return -1;
        path_key(p, path, "answer");
        if (read_name(c, k, p, name, "yes or no") != 0)
            return -1;
        if (strcmp(name, "yes") != 0 && strcmp(name, "no") != 0)
            return fail(c, p, "an answer is yes or no, not '%s'", name);
        snprintf(want_s, sizeof want_s, "%s asked %s: %s", seat_name(c, asker, b1),
                 seat_name(c, asked, b2), name);
    }
    if (c->st == NULL)
        return 0;
    const engine_effect *e = engine_effect_find(c->st, ENGINE_EFFECT_NEXUS_ANSWER);
    if (e != NULL)
        snprintf(got_s, sizeof got_s, "%s asked %s: %s", seat_name(c, e->owner, b1),
                 seat_name(c, e->value, b2), e->arg == 2 ? "yes" : e->arg == 1 ? "no" : "?");
    check_add(c, "the Nexus question (Ecaz Secret Ally)", want_s, got_s);
    return 0;
}

static int expect_deck_sizes(sc_ctx *c, int obj, const char *path)
{
    static const char *const fields[] = {"treachery", "treachery_discard", "spice",
                                         "spice_discard", "traitors", "nexus", "nexus_discard",
                                         NULL};
    if (want_type(c, obj, path, CODEC_JSON_OBJECT) != 0 || check_fields(c, obj, path, fields) != 0)
        return -1;
    for (unsigned i = 0; fields[i] != NULL; i++) {
        int64_t n;
        if (opt_int(c, obj, path, fields[i], 0, 255, &n) != 0)
            return -1;
        if (n < 0 || c->st == NULL)
            continue;
        const engine_state *st = c->st;
        unsigned got = i == 0 ? st->n_deck : i == 1 ? st->n_discard : i == 2 ? st->n_spice_deck
                     : i == 3 ? st->n_spice_discard : i == 4 ? st->n_traitor_deck
                     : i == 5 ? st->n_nexus_deck : st->n_nexus_discard;
        char what[64];
        snprintf(what, sizeof what, "cards in the %s", i == 0 ? "treachery deck"
                 : i == 1 ? "treachery discard pile" : i == 2 ? "spice deck"
                 : i == 3 ? "spice discard pile" : i == 4 ? "traitor deck"
                 : i == 5 ? "Nexus deck" : "Nexus discard pile");
        check_uint(c, what, n, got);
    }
    return 0;
}

/* "kwisatz_haderach": {losses, state}: the Atreides' forces lost in
 * battles (0..255) and the token, "alive" or "dead"; *is_dead -1 when
 * the state is not given, *losses -1 when they are not. */
static int read_kh(sc_ctx *c, int obj, const char *path, int64_t *losses, int *is_dead)
{
    static const char *const fields[] = {"losses", "state", NULL};
    char p[PATH_CHARS], name[NAME_CHARS] = "";
    *is_dead = -1;
    if (want_type(c, obj, path, CODEC_JSON_OBJECT) != 0 ||
        check_fields(c, obj, path, fields) != 0 ||
        opt_int(c, obj, path, "losses", 0, 255, losses) != 0)
        return -1;
    int v = member(c, obj, "state");
    if (v < 0)
        return 0;
    path_key(p, path, "state");
    if (read_name(c, v, p, name, "alive or dead") != 0)
        return -1;
    if (strcmp(name, "alive") != 0 && strcmp(name, "dead") != 0)
        return fail(c, p, "expected alive or dead, not '%s'", name);
    *is_dead = name[0] == 'd';
    return 0;
}

static int expect_kh(sc_ctx *c, int obj, const char *path)
{
    int64_t losses;
    int is_dead;
    if (read_kh(c, obj, path, &losses, &is_dead) != 0)
        return -1;
    if (c->st == NULL)
        return 0;
    if (losses >= 0)
        check_uint(c, "Atreides forces lost in battles", losses, c->st->kh_losses);
    if (is_dead >= 0)
        check_add(c, "the Kwisatz Haderach", is_dead ? "dead" : "alive",
                  c->st->kh_state == ENGINE_KH_DEAD ? "dead" : "alive");
    return 0;
}

/* "bank": {received, paid}: spice returned to and taken from the bank
 * since the position was entered. */
static int expect_bank(sc_ctx *c, int obj, const char *path)
{
    static const char *const fields[] = {"received", "paid", NULL};
    int64_t received, paid;
    if (want_type(c, obj, path, CODEC_JSON_OBJECT) != 0 ||
        check_fields(c, obj, path, fields) != 0 ||
        opt_int(c, obj, path, "received", 0, INT32_MAX, &received) != 0 ||
        opt_int(c, obj, path, "paid", 0, INT32_MAX, &paid) != 0)
        return -1;
    if (c->st == NULL)
        return 0;
    if (received >= 0)
        check_uint(c, "spice the bank received", received,
                   (int64_t)c->st->spice_burned - (int64_t)c->start->spice_burned);
    if (paid >= 0)
        check_uint(c, "spice the bank paid out", paid,
                   (int64_t)c->st->spice_minted - (int64_t)c->start->spice_minted);
    return 0;
}

/* Where a card of a kind is: the treachery deck, the discard pile, a
 * seat's hand, up for auction, in a battle plan, or out of the game. */
static const struct {
    const char *name;              /* as the document names it */
    const char *text;              /* as a check names it */
    uint8_t place;                 /* engine_place */
} card_places[] = {
    {"deck", "in the treachery deck", ENGINE_PLACE_DECK},
    {"discard", "in the treachery discard pile", ENGINE_PLACE_DISCARD},
    {"hand", "in a hand", ENGINE_PLACE_HAND},
    {"auction", "up for auction", ENGINE_PLACE_AUCTION},
    {"played", "in a battle plan", ENGINE_PLACE_PLAYED},
    {"removed", "removed from the game", ENGINE_PLACE_REMOVED},
};

/* "cards": [{card, place, seat, count}]: the cards of that kind there (in
 * that seat's hand for "hand"); count defaults to 1. */
static int expect_card_place(sc_ctx *c, int e, const char *path, void *arg)
{
    static const char *const fields[] = {"card", "place", "seat", "count", NULL};
    char p[PATH_CHARS], place[NAME_CHARS], what[128], b[32];
    unsigned kind = 0;
    uint8_t seat = 0;
    int64_t count;
    (void)arg;
    if (check_fields(c, e, path, fields) != 0)
        return -1;
    int k = required(c, e, path, "card"), pl = required(c, e, path, "place");
    if (k < 0 || pl < 0 || int_field(c, e, path, "count", 0, ENGINE_TREACHERY_MAX, 1, &count) != 0)
        return -1;
    path_key(p, path, "card");
    if (read_card_kind(c, k, p, &kind) != 0)
        return -1;
    path_key(p, path, "place");
    if (read_name(c, pl, p, place, "a card place") != 0)
        return -1;
    size_t w = 0;
    while (w < sizeof card_places / sizeof card_places[0] && strcmp(card_places[w].name, place) != 0)
        w++;
    if (w == sizeof card_places / sizeof card_places[0])
        return fail(c, p, "expected deck, discard, hand, auction, played or removed, not '%s'",
                    place);
    int is_hand = card_places[w].place == ENGINE_PLACE_HAND;
    if (is_hand != (member(c, e, "seat") >= 0))
        return fail(c, path, is_hand ? "a card in a hand names the \"seat\""
                                     : "only a card in a hand names a \"seat\"");
    if (is_hand && seat_field(c, e, path, &seat) != 0)
        return -1;
    if (c->st == NULL)
        return 0;
    unsigned n = 0;
    for (unsigned i = 0; i < c->st->n_cards && i < ENGINE_TREACHERY_MAX; i++)
        n += c->st->card_kind[i] == kind && c->st->card[i].place == card_places[w].place &&
             (!is_hand || c->st->card[i].holder == seat);
    if (is_hand)
        snprintf(what, sizeof what, "%s cards in the hand of %s", engine_card_kind_slug(kind),
                 seat_name(c, seat, b));
    else
        snprintf(what, sizeof what, "%s cards %s", engine_card_kind_slug(kind),
                 card_places[w].text);
    check_uint(c, what, count, n);
    return 0;
}

/* A battle as text: "carthag: 1 atreides against 2 harkonnen". */
static void battle_text(char *out, size_t cap, const sc_ctx *c, unsigned t, uint8_t a, uint8_t d)
{
    char x[32], y[32];
    snprintf(out, cap, "%s: %s against %s", engine_territory_slug(t) != NULL
             ? engine_territory_slug(t) : "?", seat_name(c, a, x), seat_name(c, d, y));
}

/* "battle": {territory, aggressor, defender}, the battle under way, or
 * null for none; "last_battle" adds "winner" (a seat, or null when both
 * sides lost everything) for the last battle an action resolved. */
static int expect_battle(sc_ctx *c, int v, const char *path, int is_last)
{
    static const char *const now_fields[] = {"territory", "aggressor", "defender", NULL};
    static const char *const last_fields[] = {"territory", "aggressor", "defender", "winner",
                                              NULL};
    char p[PATH_CHARS], want_s[160], got_s[160], b[32];
    unsigned t = 0;
    uint8_t a = 0, d = 0, w = 0;
    int is_none = c->tok[v].type == CODEC_JSON_NULL, has_winner = 0;
    if (!is_none) {
        if (want_type(c, v, path, CODEC_JSON_OBJECT) != 0 ||
            check_fields(c, v, path, is_last ? last_fields : now_fields) != 0)
            return -1;
        int tt = required(c, v, path, "territory");
        path_key(p, path, "territory");
        if (tt < 0 || read_territory(c, tt, p, &t) != 0)
            return -1;
        int ta = required(c, v, path, "aggressor"), td = required(c, v, path, "defender");
        path_key(p, path, "aggressor");
        if (ta < 0 || td < 0 || read_seat(c, ta, p, &a) != 0)
            return -1;
        path_key(p, path, "defender");
        if (read_seat(c, td, p, &d) != 0)
            return -1;
        if (is_last) {
            int tw = required(c, v, path, "winner");
            path_key(p, path, "winner");
            if (tw < 0)
                return -1;
            has_winner = c->tok[tw].type != CODEC_JSON_NULL;
            if (has_winner && read_seat(c, tw, p, &w) != 0)
                return -1;
        }
    }
    if (c->st == NULL)
        return 0;
    if (is_none)
        snprintf(want_s, sizeof want_s, "none");
    else
        battle_text(want_s, sizeof want_s, c, t, a, d);
    if (is_last && !is_none) {
        size_t n = strlen(want_s);
        snprintf(want_s + n, sizeof want_s - n, ", won by %s",
                 has_winner ? seat_name(c, w, b) : "nobody");
    }
    const engine_state *st = c->st;
    if (!is_last) {
        if (st->battle_territory >= ENGINE_TERRITORY_COUNT)
            snprintf(got_s, sizeof got_s, "none");
        else
            battle_text(got_s, sizeof got_s, c, st->battle_territory, st->battle_seat[0],
                        st->battle_seat[1]);
    } else if (!c->last_battle.is_known) {
        snprintf(got_s, sizeof got_s, "none");
    } else {
        const sc_battle *lb = &c->last_battle;
        battle_text(got_s, sizeof got_s, c, lb->territory, lb->aggressor, lb->defender);
        size_t n = strlen(got_s);
        snprintf(got_s + n, sizeof got_s - n, ", won by %s",
                 lb->winner >= 0 ? seat_name(c, (uint8_t)lb->winner, b) : "nobody");
    }
    check_add(c, is_last ? "the last battle resolved" : "the battle under way", want_s, got_s);
    return 0;
}

/* An "expect" (or "then") object: validated, and checked when c->st is set. */
static int expect_object(sc_ctx *c, int obj, const char *path)
{
    static const char *const fields[] = {
        "seat_spice", "forces", "tanks", "reserves", "spice", "leaders", "hand_size", "hands",
        "phase", "turn", "storm_sector", "winners", "victory", "alliances", "awaiting",
        "treachery_deck_top", "treachery_discard", "spice_discard", "spice_discard_b",
        "deck_sizes", "bank", "cards", "battle", "last_battle", "nexus_hands", "nexus_played",
        "traitors_held", "nexus_question", "kwisatz_haderach", NULL,
    };
    char p[PATH_CHARS], name[NAME_CHARS], want_s[160], got_s[160];
    if (check_fields(c, obj, path, fields) != 0)
        return -1;
    /* In document order, so the report follows the file. */
    uint32_t i = (uint32_t)obj + 1;
    for (uint32_t m = 0; m < c->tok[obj].size; m++) {
        int v = (int)i + 1;
        if (codec_json_string(name, sizeof name, &c->tok[i], c->text) != 0)
            return -1;
        i = c->tok[i + 1].next;
        path_key(p, path, name);
        int rc = 0;
        if (strcmp(name, "seat_spice") == 0) {
            rc = each_element(c, obj, path, name, expect_seat_spice, NULL);
        } else if (strcmp(name, "forces") == 0) {
            rc = each_element(c, obj, path, name, expect_forces, NULL);
        } else if (strcmp(name, "tanks") == 0) {
            rc = each_element(c, obj, path, name, expect_pool, "tanks");
        } else if (strcmp(name, "reserves") == 0) {
            rc = each_element(c, obj, path, name, expect_pool, NULL);
        } else if (strcmp(name, "spice") == 0) {
            rc = each_element(c, obj, path, name, expect_board_spice, NULL);
        } else if (strcmp(name, "leaders") == 0) {
            rc = each_element(c, obj, path, name, expect_leader, NULL);
        } else if (strcmp(name, "hand_size") == 0) {
            rc = each_element(c, obj, path, name, expect_hand_size, NULL);
        } else if (strcmp(name, "hands") == 0) {
            rc = each_element(c, obj, path, name, expect_hand, NULL);
        } else if (strcmp(name, "nexus_hands") == 0) {
            rc = each_element(c, obj, path, name, expect_nexus_hand, NULL);
        } else if (strcmp(name, "nexus_played") == 0) {
            rc = expect_nexus_played(c, v, p);
        } else if (strcmp(name, "traitors_held") == 0) {
            rc = each_element(c, obj, path, name, expect_traitors_held, NULL);
        } else if (strcmp(name, "nexus_question") == 0) {
            rc = expect_nexus_question(c, v, p);
        } else if (strcmp(name, "phase") == 0) {
            unsigned phase = 0;
            rc = read_phase(c, v, p, &phase);
            if (rc == 0 && c->st != NULL)
                check_add(c, "phase", engine_phase_name(phase), engine_phase_name(c->st->phase));
        } else if (strcmp(name, "turn") == 0 || strcmp(name, "storm_sector") == 0) {
            int64_t n;
            rc = read_int(c, v, p, 0, 255, &n);
            if (rc == 0 && c->st != NULL)
                check_uint(c, name[0] == 't' ? "turn" : "storm sector", n,
                           name[0] == 't' ? c->st->turn : c->st->storm_sector);
        } else if (strcmp(name, "winners") == 0 || strcmp(name, "awaiting") == 0) {
            uint16_t want;
            rc = read_seat_set(c, v, p, &want);
            if (rc == 0 && c->st != NULL) {
                int is_w = name[0] == 'w';
                uint16_t got = is_w ? c->st->winners : engine_state_awaiting(c->st);
                seats_text(want_s, sizeof want_s, c, want);
                seats_text(got_s, sizeof got_s, c, got);
                check_add(c, is_w ? "winners" : "seats awaited", want_s, got_s);
            }
        } else if (strcmp(name, "victory") == 0) {
            char kind[NAME_CHARS];
            rc = read_name(c, v, p, kind, "a victory kind");
            int known = 0;
            for (unsigned k = 0; rc == 0 && tool_victory_name(k) != NULL; k++)
                known |= strcmp(tool_victory_name(k), kind) == 0;
            if (rc == 0 && !known)
                rc = fail(c, p, "unknown victory kind '%s'", kind);
            if (rc == 0 && c->st != NULL) {
                const char *got = c->st->phase == ENGINE_PHASE_GAME_OVER
                                      ? tool_victory_name(c->st->victory_kind) : "none";
                check_add(c, "victory", kind, got != NULL ? got : "?");
            }
        } else if (strcmp(name, "treachery_deck_top") == 0) {
            rc = expect_deck_top(c, v, p);
        } else if (strcmp(name, "treachery_discard") == 0 ||
                   strcmp(name, "spice_discard") == 0) {
            rc = expect_discard(c, v, p, name[0] == 's');
        } else if (strcmp(name, "spice_discard_b") == 0) {
            rc = expect_discard(c, v, p, 2);
        } else if (strcmp(name, "deck_sizes") == 0) {
            rc = expect_deck_sizes(c, v, p);
        } else if (strcmp(name, "bank") == 0) {
            rc = expect_bank(c, v, p);
        } else if (strcmp(name, "kwisatz_haderach") == 0) {
            rc = expect_kh(c, v, p);
        } else if (strcmp(name, "cards") == 0) {
            rc = each_element(c, obj, path, name, expect_card_place, NULL);
        } else if (strcmp(name, "battle") == 0 || strcmp(name, "last_battle") == 0) {
            rc = expect_battle(c, v, p, name[0] == 'l');
        } else if (strcmp(name, "alliances") == 0) {
            uint8_t want[ENGINE_MAX_SEATS];
            rc = read_alliances(c, v, p, want);
            if (rc == 0 && c->st != NULL) {
                alliances_text(want_s, sizeof want_s, c, want);
                alliances_text(got_s, sizeof got_s, c, c->st->ally);
                check_add(c, "alliances", want_s, got_s);
            }
        }
        if (rc != 0)
            return -1;
    }
    return 0;
}

/* ========================================================= the position */

typedef struct sc_build {
    engine_state *st;              /* the position under construction */
    unsigned next_worm;            /* Shai-Hulud cards named so far */
} sc_build;

/* The refusal of engine_position_forces or _tanks: too few in reserve. */
static int short_of_reserves(sc_ctx *c, const char *path, const sc_build *b, uint8_t s,
                             int64_t plain, int64_t elite)
{
    const engine_seat_state *p = &b->st->seat[s];
    char bs[32];
    return fail(c, path, "%s has %u forces and %u elite in reserve, not %lld and %lld",
                seat_name(c, s, bs), p->reserves, p->special_reserves, (long long)plain,
                (long long)elite);
}

/* 1 if the seat's advisors stand in the territory of loc (so its fighters
 * may not be placed there). */
static int other_side(const engine_state *st, uint8_t s, unsigned loc)
{
    unsigned elite, advisors;
    forces_in(st, s, engine_location_territory(loc), -1, &elite, &advisors);
    return advisors != 0;
}

static int pos_forces(sc_ctx *c, int e, const char *path, void *arg)
{
    static const char *const fields[] = {"seat", "territory", "sector", "forces", "elite",
                                         "advisors", NULL};
    sc_build *b = arg;
    uint8_t s = 0;
    unsigned territory = 0;
    int loc = -1;
    int64_t plain = 0, elite = -1, advisors = -1;
    char bs[32];
    if (check_fields(c, e, path, fields) != 0 || seat_field(c, e, path, &s) != 0 ||
        read_place(c, e, path, 0, &territory, &loc) != 0 ||
        int_field(c, e, path, "forces", 0, 255, 0, &plain) != 0 ||
        int_field(c, e, path, "elite", 0, 255, 0, &elite) != 0 ||
        int_field(c, e, path, "advisors", 0, 255, 0, &advisors) != 0)
        return -1;
    if (territory == ENGINE_TERRITORY_HIDDEN_MOBILE_STRONGHOLD)
        return fail(c, path, "no forces may be placed in the Hidden Mobile Stronghold");
    if (advisors != 0) {
        /* Advisors: the Advanced Bene Gesserit's, never beside their fighters. */
        if (!b->st->config.is_advanced ||
            b->st->seat[s].faction != ENGINE_FACTION_BENE_GESSERIT)
            return fail(c, path, "advisors are the Bene Gesserit's, in the Advanced game only");
        if (plain != 0 || elite != 0)
            return fail(c, path, "the Bene Gesserit's forces in one territory are all advisors "
                                 "or all fighters");
        if (engine_position_advisors(b->st, s, (unsigned)loc, (unsigned)advisors) != 0)
            return fail(c, path, "%s has %u forces in reserve, not %lld, or fighters in that "
                                 "territory", seat_name(c, s, bs), b->st->seat[s].reserves,
                        (long long)advisors);
        return 0;
    }
    if (engine_position_forces(b->st, s, (unsigned)loc, (unsigned)plain, (unsigned)elite) != 0)
        return other_side(b->st, s, (unsigned)loc)
                   ? fail(c, path, "the Bene Gesserit's forces in one territory are all "
                                   "advisors or all fighters")
                   : short_of_reserves(c, path, b, s, plain, elite);
    return 0;
}

static int pos_tanks(sc_ctx *c, int e, const char *path, void *arg)
{
    static const char *const fields[] = {"seat", "forces", "elite", NULL};
    sc_build *b = arg;
    uint8_t s;
    int64_t plain, elite;
    if (check_fields(c, e, path, fields) != 0 || seat_field(c, e, path, &s) != 0 ||
        int_field(c, e, path, "forces", 0, 255, 0, &plain) != 0 ||
        int_field(c, e, path, "elite", 0, 255, 0, &elite) != 0)
        return -1;
    if (engine_position_tanks(b->st, s, (unsigned)plain, (unsigned)elite) != 0)
        return short_of_reserves(c, path, b, s, plain, elite);
    return 0;
}

static int pos_spice(sc_ctx *c, int e, const char *path, void *arg)
{
    static const char *const fields[] = {"territory", "sector", "amount", NULL};
    sc_build *b = arg;
    unsigned territory = 0;
    int loc = 0;
    int64_t amount = 0;
    if (check_fields(c, e, path, fields) != 0 ||
        read_place(c, e, path, 0, &territory, &loc) != 0 ||
        int_field(c, e, path, "amount", 0, 255, -1, &amount) != 0)
        return -1;
    if (engine_position_spice(b->st, (unsigned)loc, (unsigned)amount) != 0)
        return fail(c, path, "no spice may lie in %s", engine_territory_slug(territory));
    return 0;
}

static int pos_seat_spice(sc_ctx *c, int e, const char *path, void *arg)
{
    static const char *const fields[] = {"seat", "spice", NULL};
    sc_build *b = arg;
    uint8_t s = 0;
    int64_t spice = 0;
    if (check_fields(c, e, path, fields) != 0 || seat_field(c, e, path, &s) != 0 ||
        int_field(c, e, path, "spice", 0, 9999, -1, &spice) != 0)
        return -1;
    if (engine_position_seat_spice(b->st, s, (unsigned)spice) != 0)
        return fail(c, path, "the engine refused this spice");
    return 0;
}

static unsigned in_deck(const engine_state *st, unsigned kind)
{
    unsigned n = 0;
    for (unsigned i = 0; i < st->n_deck; i++)
        n += st->card_kind[st->deck[i]] == kind;
    return n;
}

typedef struct sc_hand {
    sc_build *b;                   /* the position under construction */
    uint8_t seat;                  /* whose hand the cards go to */
} sc_hand;

/* arg: sc_hand; deals the card read from the deck to the seat. */
static int give_card(sc_ctx *c, int e, const char *path, void *arg)
{
    const sc_hand *h = arg;
    unsigned kind = 0;
    char bs[32];
    if (read_card_kind(c, e, path, &kind) != 0)
        return -1;
    if (in_deck(h->b->st, kind) == 0)
        return fail(c, path, "no %s is left in the treachery deck", engine_card_kind_slug(kind));
    if (engine_position_give_card(h->b->st, h->seat, kind) < 0)
        return fail(c, path, "the hand of %s is full", seat_name(c, h->seat, bs));
    return 0;
}

static int pos_hand(sc_ctx *c, int e, const char *path, void *arg)
{
    sc_hand h = {arg, 0};
    return seat_cards(c, e, path, &h.seat, give_card, &h);
}

static int pos_traitor(sc_ctx *c, int e, const char *path, void *arg)
{
    static const char *const fields[] = {"seat", "leader", NULL};
    sc_build *b = arg;
    uint8_t s;
    unsigned leader = 0;
    char p[PATH_CHARS];
    if (check_fields(c, e, path, fields) != 0 || seat_field(c, e, path, &s) != 0)
        return -1;
    int l = required(c, e, path, "leader");
    path_key(p, path, "leader");
    if (l < 0 || read_leader(c, l, p, &leader) != 0)
        return -1;
    if (engine_position_traitor(b->st, s, leader) != 0)
        return fail(c, p, "the traitor card of %s is not in the traitor deck (its faction does "
                          "not play, or it is dealt already)", engine_leader_slug(leader));
    return 0;
}

/* One leader of a position's list, given to `edit`; `refusal` (naming the
 * leader's slug) when the edit refuses it. */
static int pos_leader_edit(sc_ctx *c, int e, const char *path, engine_state *st,
                           int (*edit)(engine_state *, unsigned), const char *refusal)
{
    unsigned leader = 0;
    if (read_leader(c, e, path, &leader) != 0)
        return -1;
    if (edit(st, leader) != 0)
        return fail(c, path, refusal, engine_leader_slug(leader));
    return 0;
}

static int pos_dead_leader(sc_ctx *c, int e, const char *path, void *arg)
{
    sc_build *b = arg;
    return pos_leader_edit(c, e, path, b->st, engine_position_leader_dead,
                           "%s is not in a leader pool (its faction does not play, or it is "
                           "dead already)");
}

/* "captives": [leader]: Advanced, rules version 8 on: each held in the
 * Harkonnen's pool (LR 2.05.10.01). */
static int pos_captive(sc_ctx *c, int e, const char *path, void *arg)
{
    sc_build *b = arg;
    return pos_leader_edit(c, e, path, b->st, engine_position_captive,
                           "%s cannot be a captive: captives need the Harkonnen in an Advanced "
                           "game of rules version 8 on, and a living leader of another faction");
}

static int pos_deck_top(sc_ctx *c, int e, const char *path, void *arg)
{
    sc_build *b = arg;
    unsigned kind = 0;
    if (read_card_kind(c, e, path, &kind) != 0)
        return -1;
    if (in_deck(b->st, kind) == 0 || engine_position_deck_top(b->st, kind) < 0)
        return fail(c, path, "no %s is left in the treachery deck", engine_card_kind_slug(kind));
    return 0;
}

/* A spice card by slug: a territory's card, or the next Shai-Hulud. */
static int read_spice_card(sc_ctx *c, int e, const char *path, sc_build *b, unsigned *out)
{
    char name[NAME_CHARS];
    if (read_name(c, e, path, name, "a spice card (territory or shai_hulud)") != 0)
        return -1;
    int card;
    if (strcmp(name, "shai_hulud") == 0) {
        card = engine_spice_worm(b->next_worm++);
        if (card < 0)
            return fail(c, path, "no Shai-Hulud card is left");
    } else {
        int t = engine_territory_from_slug(name);
        if (t < 0)
            return fail(c, path, "unknown territory '%s'", name);
        card = engine_spice_card_of((unsigned)t);
        if (card < 0)
            return fail(c, path, "%s has no spice card", name);
    }
    *out = (unsigned)card;
    return 0;
}

/* Reads a spice card and moves it out of the spice deck with put. */
static int put_spice_card(sc_ctx *c, int e, const char *path, sc_build *b,
                          int (*put)(engine_state *, unsigned))
{
    unsigned card = 0;
    if (read_spice_card(c, e, path, b, &card) != 0)
        return -1;
    if (put(b->st, card) != 0)
        return fail(c, path, "that spice card is not in the spice deck (named twice?)");
    return 0;
}

static int pos_spice_top(sc_ctx *c, int e, const char *path, void *arg)
{
    return put_spice_card(c, e, path, arg, engine_position_spice_top);
}

static int pos_spice_discard(sc_ctx *c, int e, const char *path, void *arg)
{
    return put_spice_card(c, e, path, arg, engine_position_spice_discard);
}

/* ---- the Nexus Cards */

static int pos_nexus_pile(sc_ctx *c, int e, const char *path, void *arg, int is_top)
{
    sc_build *b = arg;
    unsigned f;
    if (read_nexus_card(c, e, path, &f) != 0)
        return -1;
    if ((is_top ? engine_position_nexus_top(b->st, f) : engine_position_nexus_discard(b->st, f)) != 0)
        return fail(c, path, "the %s Nexus card is not in the deck (the room carries no "
                             "\"modules\": [\"nexus_cards\"], or it is placed already)",
                    engine_faction_name(f));
    return 0;
}

static int pos_nexus_top(sc_ctx *c, int e, const char *path, void *arg)
{
    return pos_nexus_pile(c, e, path, arg, 1);
}

static int pos_nexus_discard(sc_ctx *c, int e, const char *path, void *arg)
{
    return pos_nexus_pile(c, e, path, arg, 0);
}

static int pos_nexus_hand(sc_ctx *c, int e, const char *path, void *arg)
{
    static const char *const fields[] = {"seat", "card", NULL};
    sc_build *b = arg;
    uint8_t s;
    unsigned f;
    char p[PATH_CHARS];
    if (check_fields(c, e, path, fields) != 0 || seat_field(c, e, path, &s) != 0)
        return -1;
    int k = required(c, e, path, "card");
    path_key(p, path, "card");
    if (k < 0 || read_nexus_card(c, k, p, &f) != 0)
        return -1;
    if (engine_position_nexus_give(b->st, s, f) < 0)
        return fail(c, p, "the %s Nexus card cannot be given (no module, placed already, or "
                          "the seat is allied or holds one)", engine_faction_name(f));
    return 0;
}

/* Builds the position of member "position" (engine/position.c). */
/* Reads a hex string of at most cap bytes into out: its length, or -1
 * (not hex, odd, too long). */
static long read_hex(uint8_t *out, size_t cap, const char *s, size_t n)
{
    if (n % 2 != 0 || n / 2 > cap)
        return -1;
    for (size_t i = 0; i < n / 2; i++) {
        unsigned v = 0;
        for (unsigned k = 0; k < 2; k++) {
            char ch = s[2 * i + k];
            unsigned d = ch >= '0' && ch <= '9' ? (unsigned)(ch - '0')
                         : ch >= 'a' && ch <= 'f' ? (unsigned)(ch - 'a' + 10) : 16u;
            if (d == 16)
                return -1;
            v = v * 16 + d;
        }
        out[i] = (uint8_t)v;
    }
    return (long)(n / 2);
}

/* position {"version", "state"}: the exact state, every hidden fact, as
 * engine_state_encode wrote it (`mentat scenario export`). It must be the
 * header's table and hold every invariant; it becomes constructed. */
static int exact_position(sc_ctx *c, int pos, engine_state *st)
{
    static const char *const fields[] = {"version", "state", NULL};
    const char *path = "position";
    if (check_fields(c, pos, path, fields) != 0)
        return -1;
    int64_t version;
    if (int_field(c, pos, path, "version", 0, INT32_MAX, 0, &version) != 0)
        return -1;
    c->version = (uint32_t)version;
    int t = member(c, pos, "state");
    if (want_type(c, t, "position.state", CODEC_JSON_STRING) != 0)
        return -1;
    static uint8_t bytes[ENGINE_STATE_ENCODED_MAX];
    const codec_json_token *tk = &c->tok[t];
    long n = read_hex(bytes, sizeof bytes, c->text + tk->start, tk->end - tk->start);
    if (n < 0)
        return fail(c, "position.state", "not the lower-case hex of at most %d bytes",
                    ENGINE_STATE_ENCODED_MAX);
    if (engine_state_decode(st, bytes, (size_t)n) != 0)
        return fail(c, "position.state", "not a state this engine decodes");
    const engine_config *h = &c->cfg, *s = &st->config;
    if (s->n_seats != h->n_seats || memcmp(s->faction, h->faction, h->n_seats) != 0 ||
        s->is_advanced != h->is_advanced || s->turn_limit != h->turn_limit)
        return fail(c, "position.state", "a state of another table than \"factions\", "
                                         "\"rules\" and \"turn_limit\" say");
    st->config.is_constructed = 1;
    if (engine_state_check(st) != 0)
        return fail(c, "position.state", "a state that breaks the engine's invariants");
    c->cfg = st->config;
    return 0;
}

/* The table of the header, from engine_rng(seed, 0) (left in *rng for
 * what follows): the opening deal (engine_setup) or the cleared table of
 * the position API (engine_position_new). 0, or -1 if the engine refuses
 * the table. */
static int table_new(sc_ctx *c, engine_state *st, engine_rng *rng, int is_opening)
{
    engine_verdict_detail why;
    engine_rng_init(rng, c->seed, 0);
    engine_verdict v = is_opening ? engine_setup(&why, st, &c->cfg, rng)
                                  : engine_position_new(&why, st, &c->cfg, rng);
    if (v != ENGINE_ACCEPTED)
        return fail(c, "factions", "the engine refused this table: %s", engine_verdict_name(v));
    return 0;
}

/* The first action of legal family l: its lowest arguments, raised in
 * order to meet a required sum. */
static void family_first(engine_action *out, const engine_legal *l)
{
    const engine_action_spec *spec = engine_action_spec_of(l->kind);
    memset(out, 0, sizeof *out);
    out->kind = l->kind;
    out->seat = l->seat;
    int total = 0;
    for (unsigned i = 0; spec != NULL && i < spec->n_args; i++) {
        out->arg[i] = l->lo[i];
        total += l->lo[i];
    }
    for (unsigned i = 0; spec != NULL && l->sum >= 0 && i < spec->n_args && total < l->sum; i++) {
        int room_left = l->hi[i] - out->arg[i];
        int add = l->sum - total < room_left ? l->sum - total : room_left;
        out->arg[i] = (int16_t)(out->arg[i] + add);
        total += add;
    }
}

/* position {"phase": "setup", "step"}: the opening deal of the table, as
 * a room would have it from the scenario's seed; with "step" (an action
 * kind of the setup: traitor_pick, fremen_place, bg_place, storm_dial,
 * ...), the steps before it taken with the first legal action each, until
 * a seat is asked for that kind (position.version counts them). */
static int setup_position(sc_ctx *c, int pos, engine_state *st)
{
    static const char *const fields[] = {"phase", "step", NULL};
    static engine_legal legal[ENGINE_LEGAL_MAX];
    const char *path = "position";
    char name[NAME_CHARS];
    if (check_fields(c, pos, path, fields) != 0)
        return -1;
    engine_rng rng;
    if (table_new(c, st, &rng, 1) != 0)
        return -1;
    st->config.is_constructed = 1;
    c->cfg = st->config;
    int step = member(c, pos, "step");
    if (step < 0)
        return 0;
    if (read_name(c, step, "position.step", name, "an action kind of the setup") != 0)
        return -1;
    engine_action_kind want = engine_action_kind_from_name(name);
    if (want == ENGINE_ACTION_NONE)
        return fail(c, "position.step", "unknown action kind '%s'", name);
    for (uint32_t k = 0; st->phase == ENGINE_PHASE_SETUP && k < 256; k++) {
        size_t n = engine_legal_actions(legal, ENGINE_LEGAL_MAX, st, ENGINE_SEAT_ENGINE);
        if (n > ENGINE_LEGAL_MAX)
            n = ENGINE_LEGAL_MAX;
        for (size_t i = 0; i < n; i++)
            if (legal[i].kind == want) {
                c->version = k;
                return 0;
            }
        if (n == 0)
            break;
        engine_action act;
        family_first(&act, &legal[0]);
        engine_rng_init(&rng, c->seed, k + 1); /* (1) */
        if (engine_apply(NULL, st, &act, &rng) != ENGINE_ACCEPTED)
            break;
    }
    return fail(c, "position.step", "the setup of this table never asks for %s", name);
}

static int build_position(sc_ctx *c, int root, engine_state *st)
{
    static const char *const fields[] = {
        "turn", "phase", "storm_sector", "forces", "tanks", "spice", "seat_spice", "hands",
        "traitors", "dead_leaders", "alliances", "prediction", "treachery_deck_top",
        "spice_deck_top", "spice_discard", "nexus_hands", "nexus_deck_top", "nexus_discard",
        "kwisatz_haderach", "captives", NULL,
    };
    const char *path = "position";
    char p[PATH_CHARS];
    int pos = required(c, root, "", "position");
    if (pos < 0)
        return -1;
    if (member(c, pos, "state") >= 0)
        return exact_position(c, pos, st);
    int ph0 = member(c, pos, "phase");
    if (ph0 >= 0 && c->tok[ph0].type == CODEC_JSON_STRING && codec_json_eq(&c->tok[ph0], c->text, "setup"))
        return setup_position(c, pos, st);
    if (check_fields(c, pos, path, fields) != 0)
        return -1;
    int64_t turn, storm;
    if (int_field(c, pos, path, "turn", 1, c->cfg.turn_limit, -1, &turn) != 0 ||
        int_field(c, pos, path, "storm_sector", 0, ENGINE_SECTOR_COUNT - 1, -1, &storm) != 0)
        return -1;
    unsigned phase = 0;
    int ph = required(c, pos, path, "phase");
    path_key(p, path, "phase");
    if (ph < 0 || read_phase(c, ph, p, &phase) != 0)
        return -1;
    if (phase == ENGINE_PHASE_SETUP || phase == ENGINE_PHASE_GAME_OVER)
        return fail(c, p, "a position enters the setup or a phase of a turn, not %s",
                    engine_phase_name(phase));

    engine_rng rng;
    if (table_new(c, st, &rng, 0) != 0)
        return -1;
    sc_build b = {st, 0};
    if (each_element(c, pos, path, "forces", pos_forces, &b) != 0 ||
        each_element(c, pos, path, "tanks", pos_tanks, &b) != 0 ||
        each_element(c, pos, path, "spice", pos_spice, &b) != 0 ||
        each_element(c, pos, path, "seat_spice", pos_seat_spice, &b) != 0 ||
        each_element(c, pos, path, "hands", pos_hand, &b) != 0 ||
        each_element(c, pos, path, "traitors", pos_traitor, &b) != 0 ||
        each_element(c, pos, path, "dead_leaders", pos_dead_leader, &b) != 0 ||
        each_element(c, pos, path, "captives", pos_captive, &b) != 0)
        return -1;
    int a = member(c, pos, "alliances");
    if (a >= 0) {
        uint8_t ally[ENGINE_MAX_SEATS];
        path_key(p, path, "alliances");
        if (read_alliances(c, a, p, ally) != 0)
            return -1;
        for (uint8_t s = 0; s < c->cfg.n_seats; s++)
            if (ally[s] != 0xFF && ally[s] > s && engine_position_alliance(st, s, ally[s]) != 0)
                return fail(c, p, "the engine refused this alliance");
    }
    int pr = member(c, pos, "prediction");
    if (pr >= 0) {
        static const char *const pf[] = {"faction", "turn", NULL};
        char name[NAME_CHARS];
        int64_t pturn = 0;
        path_key(p, path, "prediction");
        if (check_fields(c, pr, p, pf) != 0)
            return -1;
        int f = required(c, pr, p, "faction");
        if (f < 0 || int_field(c, pr, p, "turn", 1, c->cfg.turn_limit, -1, &pturn) != 0)
            return -1;
        char pf_path[PATH_CHARS];
        path_key(pf_path, p, "faction");
        if (read_name(c, f, pf_path, name, "a faction") != 0)
            return -1;
        engine_faction faction = engine_faction_from_name(name);
        if (faction == ENGINE_FACTION_NONE)
            return fail(c, pf_path, "unknown faction '%s'", name);
        if (engine_position_prediction(st, faction, (unsigned)pturn) != 0)
            return fail(c, p, "a prediction needs the Bene Gesserit at the table and names "
                              "another faction that plays");
    }
    int kh = member(c, pos, "kwisatz_haderach");
    if (kh >= 0) {
        path_key(p, path, "kwisatz_haderach");
        int64_t losses;
        int is_dead;
        if (read_kh(c, kh, p, &losses, &is_dead) != 0)
            return -1;
        if (losses < 0)
            losses = 0;
        if (engine_position_kwisatz_haderach(st, (unsigned)losses, is_dead > 0) != 0)
            return fail(c, p, "the Kwisatz Haderach plays only in an Advanced game with the "
                              "Atreides, and dies only once awake (7 losses)");
    }
    if (each_element(c, pos, path, "treachery_deck_top", pos_deck_top, &b) != 0 ||
        each_element(c, pos, path, "spice_discard", pos_spice_discard, &b) != 0 ||
        each_element(c, pos, path, "spice_deck_top", pos_spice_top, &b) != 0 ||
        each_element(c, pos, path, "nexus_discard", pos_nexus_discard, &b) != 0 ||
        each_element(c, pos, path, "nexus_hands", pos_nexus_hand, &b) != 0 ||
        each_element(c, pos, path, "nexus_deck_top", pos_nexus_top, &b) != 0)
        return -1;
    if (engine_position_enter(st, phase, (unsigned)turn, (unsigned)storm, &rng) != 0)
        return fail(c, path, "the engine cannot enter %s of turn %lld with the storm in sector "
                             "%lld from this position (an invariant would break)",
                    engine_phase_name(phase), (long long)turn, (long long)storm);
    return 0;
}

/* ============================================================ actions */

/* Reads the "action" object: card arguments given as a card kind slug are
 * noted in a->card_kind and passed to the codec as 0; the rest is the
 * codec's (codec_action_from_json). */
static int read_action_json(sc_ctx *c, int obj, const char *path, sc_action *a)
{
    char kind_name[NAME_CHARS];
    memset(a->card_kind, NO_KIND, sizeof a->card_kind);
    if (want_type(c, obj, path, CODEC_JSON_OBJECT) != 0)
        return -1;
    const engine_action_spec *spec = NULL;
    int k = member(c, obj, "kind");
    if (k >= 0 && c->tok[k].type == CODEC_JSON_STRING &&
        codec_json_string(kind_name, sizeof kind_name, &c->tok[k], c->text) == 0)
        spec = engine_action_spec_of(engine_action_kind_from_name(kind_name));
    /* A generic power or window answer: the arguments its form declares. */
    engine_action_spec generic;
    unsigned generic_kind = spec != NULL ? engine_action_kind_from_name(kind_name) : 0;
    int g = spec != NULL && engine_action_is_generic(generic_kind)
                ? member(c, obj, generic_kind == ENGINE_ACTION_POWER ? "power" : "window")
                : -1;
    if (g >= 0 && c->tok[g].type == CODEC_JSON_STRING &&
        codec_json_string(kind_name, sizeof kind_name, &c->tok[g], c->text) == 0) {
        int id = engine_generic_from_slug(generic_kind, kind_name);
        if (id > 0)
            spec = engine_action_spec_for(&generic, generic_kind, id);
    }
    /* Copy the object's text, each card kind slug replaced by 0. */
    const codec_json_token *o = &c->tok[obj];
    size_t cap = (size_t)(o->end - o->start) + 1;
    char *json = malloc(cap);
    if (json == NULL)
        return fail(c, path, "out of memory");
    size_t len = 0;
    json[len++] = '{';
    uint32_t i = (uint32_t)obj + 1;
    for (uint32_t m = 0; m < o->size; m++) {
        const codec_json_token *key = &c->tok[i], *val = &c->tok[i + 1];
        int arg = -1;
        for (unsigned j = 0; spec != NULL && j < spec->n_args; j++)
            if ((spec->arg_type[j] == ENGINE_ARG_CARD || spec->arg_type[j] == ENGINE_ARG_SIGNED) &&
                codec_json_eq(key, c->text, spec->arg_name[j]))
                arg = (int)j;
        if (m != 0)
            json[len++] = ',';
        size_t key_from = key->start - 1, key_to = key->end + 1;
        memcpy(json + len, c->text + key_from, key_to - key_from);
        len += key_to - key_from;
        json[len++] = ':';
        if (arg >= 0 && val->type == CODEC_JSON_STRING) {
            /* A card by kind (a card argument, or a prescience answer
             * naming a weapon or defense), or a leader by slug (a
             * prescience answer naming a leader). */
            char pe[PATH_CHARS], name[NAME_CHARS];
            path_key(pe, path, spec->arg_name[arg]);
            int kind = -1, leader = -1;
            if (codec_json_string(name, sizeof name, val, c->text) == 0) {
                kind = card_kind_from_slug(name);
                if (spec->arg_type[arg] == ENGINE_ARG_SIGNED)
                    leader = engine_leader_from_slug(name);
            }
            if (kind >= 0) {
                a->card_kind[arg] = (uint8_t)kind;
                json[len++] = '0';
            } else if (leader >= 0) {
                len += (size_t)snprintf(json + len, cap - len, "%d", leader);
            } else {
                free(json);
                if (spec->arg_type[arg] == ENGINE_ARG_SIGNED)
                    return fail(c, pe, "expected a number, a treachery card or a leader");
                unsigned unused;
                return read_card_kind(c, (int)i + 1, pe, &unused);
            }
        } else {
            size_t from = val->start, to = val->end;
            if (val->type == CODEC_JSON_STRING) {
                from--;
                to++;
            }
            memcpy(json + len, c->text + from, to - from);
            len += to - from;
        }
        i = c->tok[i + 1].next;
    }
    json[len++] = '}';
    char err[SCHEMA_ERRMSG];
    int rc = codec_action_from_json(&a->act, json, len, err);
    free(json);
    if (rc != 0)
        return fail(c, path, "%s", err);
    return 0;
}

static int read_verdict(sc_ctx *c, int t, const char *path, int *out)
{
    char name[NAME_CHARS];
    if (read_name(c, t, path, name, "a verdict (\"accepted\" or a rejection reason)") != 0)
        return -1;
    if (strcmp(name, "rejected") == 0)
        return fail(c, path, "name the reason: \"accepted\" or a verdict name "
                             "(e.g. \"storm_blocks\")");
    for (unsigned v = 0; v < ENGINE_VERDICT_COUNT; v++)
        if (strcmp(engine_verdict_name((engine_verdict)v), name) == 0) {
            *out = (int)v;
            return 0;
        }
    return fail(c, path, "unknown verdict '%s'", name);
}

static int read_actions(sc_ctx *c, int root, const char *path, sc_action **out, size_t *n_out)
{
    static const char *const fields[] = {"seat", "action", "expect", "then", "note", NULL};
    char p[PATH_CHARS], pe[PATH_CHARS], pf[PATH_CHARS];
    *out = NULL;
    *n_out = 0;
    int a = member(c, root, "actions");
    if (a < 0)
        return 0;
    snprintf(p, sizeof p, "%s", path);
    if (want_type(c, a, p, CODEC_JSON_ARRAY) != 0)
        return -1;
    size_t n = c->tok[a].size;
    sc_action *acts = calloc(n != 0 ? n : 1, sizeof *acts);
    if (acts == NULL)
        return fail(c, p, "out of memory");
    uint32_t e = (uint32_t)a + 1;
    for (size_t i = 0; i < n; i++) {
        sc_action *x = &acts[i];
        path_index(pe, p, (unsigned)i);
        uint8_t seat = 0;
        if (check_fields(c, (int)e, pe, fields) != 0 || seat_field(c, (int)e, pe, &seat) != 0)
            goto bad;
        int act = required(c, (int)e, pe, "action");
        path_key(pf, pe, "action");
        if (act < 0 || read_action_json(c, act, pf, x) != 0)
            goto bad;
        x->act.seat = seat;
        x->expect = ENGINE_ACCEPTED;
        int ex = member(c, (int)e, "expect");
        path_key(pf, pe, "expect");
        if (ex >= 0 && read_verdict(c, ex, pf, &x->expect) != 0)
            goto bad;
        int note = member(c, (int)e, "note");
        path_key(pf, pe, "note");
        if (note >= 0 && want_type(c, note, pf, CODEC_JSON_STRING) != 0)
            goto bad;
        x->then = member(c, (int)e, "then");
        path_key(pf, pe, "then");
        if (x->then >= 0 && expect_object(c, x->then, pf) != 0)
            goto bad;
        e = c->tok[e].next;
    }
    *out = acts;
    *n_out = n;
    return 0;
bad:
    free(acts);
    return -1;
}

/* The card a kind slug names in an action by `seat`: the seat's own card
 * of that kind, else any card of that kind (so that the engine judges a
 * card the seat does not hold), else -1. */
static int resolve_card(const engine_state *st, uint8_t seat, unsigned kind)
{
    int any = -1;
    for (unsigned i = 0; i < st->n_cards && i < ENGINE_TREACHERY_MAX; i++) {
        if (st->card_kind[i] != kind)
            continue;
        if (st->card[i].place == ENGINE_PLACE_HAND && st->card[i].holder == seat)
            return (int)i;
        if (any < 0)
            any = (int)i;
    }
    return any;
}

/* Text of an action for the report: "seat 1 atreides battle_plan {...}". */
static void action_text(char *out, size_t cap, const sc_ctx *c, size_t i, const engine_action *a)
{
    char json[512], b[32];
    if (codec_action_to_json(json, sizeof json, a) != 0)
        snprintf(json, sizeof json, "(kind %u)", a->kind);
    snprintf(out, cap, "action %zu, %s: %s", i + 1, seat_name(c, a->seat, b), json);
}

static void verdict_text(char *out, size_t cap, engine_verdict v, const engine_verdict_detail *why,
                         const engine_action *a)
{
    if (v == ENGINE_ACCEPTED) {
        snprintf(out, cap, "accepted");
        return;
    }
    if (inspect_rejection_arg(a->kind, why->arg) != NULL)
        inspect_rejection_text(out, cap, v, a->kind, why->arg, why->value);
    else
        snprintf(out, cap, "%s", engine_verdict_name(v));
}

/* A rejected action must leave the state byte-identical: `copy` was taken
 * from the state with memcpy before the apply, padding and all, so a byte
 * comparison is exact. */
static int is_byte_identical(const engine_state *copy, const engine_state *st)
{
    /* NOLINTNEXTLINE(bugprone-suspicious-memory-comparison) */
    return memcmp(copy, st, sizeof *copy) == 0;
}

/* Whether seat has forces (plain or elite) anywhere in territory t. */
static int has_forces_in(const engine_state *st, unsigned t, uint8_t seat)
{
    for (unsigned l = 0; l < ENGINE_LOCATION_COUNT; l++)
        if (engine_location_territory(l) == t && (st->forces[l][seat] || st->special[l][seat]))
            return 1;
    return 0;
}

/* The battle under way in `before` is over in `after`: note it, with the
 * side left holding forces there as its winner (LR 1.07.05: the loser
 * loses every force in the territory), or none when both lost all. */
static void note_battle(sc_ctx *c, const engine_state *before, const engine_state *after)
{
    unsigned t = before->battle_territory;
    if (t >= ENGINE_TERRITORY_COUNT)
        return;
    /* Over: another battle (or none) is under way, or the winner was
     * named and is asked which cards to keep. */
    int is_same = after->battle_territory == t &&
                  after->battle_seat[0] == before->battle_seat[0] &&
                  after->battle_seat[1] == before->battle_seat[1] &&
                  after->phase == ENGINE_PHASE_BATTLE;
    if (is_same && !(after->battle_winner != 0xFF && before->battle_winner == 0xFF))
        return;
    sc_battle *b = &c->last_battle;
    b->is_known = 1;
    b->territory = t;
    b->aggressor = before->battle_seat[0];
    b->defender = before->battle_seat[1];
    int a = has_forces_in(after, t, b->aggressor), d = has_forces_in(after, t, b->defender);
    b->winner = a && !d ? b->aggressor : d && !a ? b->defender : -1;
}

static void run_actions(sc_ctx *c, engine_state *st, const sc_action *acts, size_t n)
{
    uint32_t accepted = 0;
    for (size_t i = 0; i < n; i++) {
        engine_action act = acts[i].act;
        for (unsigned j = 0; j < ENGINE_ACTION_MAX_ARGS; j++)
            if (acts[i].card_kind[j] != NO_KIND) {
                int card = resolve_card(st, act.seat, acts[i].card_kind[j]);
                act.arg[j] = (int16_t)card;
            }
        char what[TOOL_SCENARIO_TEXT], got[96];
        action_text(what, sizeof what, c, i, &act);
        engine_rng rng;
        engine_rng_init(&rng, c->seed, c->version + c->n_before + accepted + 1); /* (1) */
        engine_verdict_detail why = {-1, 0};
        static engine_state before;
        memcpy(&before, st, sizeof before);
        engine_verdict v = engine_apply(&why, st, &act, &rng);
        verdict_text(got, sizeof got, v, &why, &act);
        /* The expected text is the verdict name; a rejection also reports
         * its detail, which the comparison ignores. */
        char expected[96];
        snprintf(expected, sizeof expected, "%s", engine_verdict_name((engine_verdict)acts[i].expect));
        if ((int)v == acts[i].expect) {
            snprintf(got, sizeof got, "%s", expected);
        } else if (v != ENGINE_ACCEPTED) {
            /* Say where the game stood, to help whoever wrote the file. */
            char seats[96];
            size_t used = strlen(got);
            seats_text(seats, sizeof seats, c, engine_state_awaiting(st));
            textf(got + used, sizeof got - used, "; in %s the game waits on %s",
                  engine_phase_name(st->phase), seats);
        }
        c->when = "";
        check_add(c, what, expected, got);
        if (v == ENGINE_ACCEPTED) {
            accepted++;
            note_battle(c, &before, st);
            if (engine_state_check(st) != 0)
                check_add(c, "engine invariants after it", "hold", "broken");
        } else if (!is_byte_identical(&before, st)) {
            check_add(c, "state after the rejection", "unchanged", "changed");
        }
        if (acts[i].then >= 0) {
            char when[48];
            snprintf(when, sizeof when, "after action %zu: ", i + 1);
            c->when = when;
            c->st = st;
            expect_object(c, acts[i].then, "then");
            c->st = NULL;
            c->when = "";
        }
    }
    c->res->n_accepted = accepted;
}

/* ============================================================ the run */

static int read_header(sc_ctx *c, int root, tool_scenario_result *res)
{
    static const char *const fields[] = {
        "name", "rule", "description", "rules", "factions", "turn_limit", "seed", "seed_hex",
        "modules", "position", "actions", "expect", "branches", NULL,
    };
    char p[PATH_CHARS], name[NAME_CHARS];
    if (check_fields(c, root, "", fields) != 0)
        return -1;
    static const char *const texts[] = {"name", "rule", "description"};
    for (unsigned i = 0; i < 3; i++) {
        int t = member(c, root, texts[i]);
        if (t < 0)
            continue;
        if (want_type(c, t, texts[i], CODEC_JSON_STRING) != 0)
            return -1;
        char *dst = i == 0 ? res->name : i == 1 ? res->rule : NULL;
        if (dst != NULL && codec_json_string(dst, TOOL_SCENARIO_NAME, &c->tok[t], c->text) != 0)
            return fail(c, texts[i], "longer than %d bytes", TOOL_SCENARIO_NAME - 1);
    }
    engine_config_init(&c->cfg);
    int r = member(c, root, "rules");
    if (r >= 0) {
        if (read_name(c, r, "rules", name, "the rules (basic or advanced)") != 0)
            return -1;
        if (strcmp(name, "basic") != 0 && strcmp(name, "advanced") != 0)
            return fail(c, "rules", "expected \"basic\" or \"advanced\", not '%s'", name);
        c->cfg.is_advanced = name[0] == 'a';
    }
    int64_t n;
    if (int_field(c, root, "", "turn_limit", 1, ENGINE_MAX_TURN_LIMIT, ENGINE_DEFAULT_TURN_LIMIT,
                  &n) != 0)
        return -1;
    c->cfg.turn_limit = (uint8_t)n;
    int f = required(c, root, "", "factions");
    if (f < 0 || want_type(c, f, "factions", CODEC_JSON_ARRAY) != 0)
        return -1;
    if (c->tok[f].size < ENGINE_MIN_SEATS || c->tok[f].size > ENGINE_MAX_SEATS)
        return fail(c, "factions", "a table has %d to %d seats", ENGINE_MIN_SEATS, ENGINE_MAX_SEATS);
    uint32_t e = (uint32_t)f + 1;
    for (uint32_t i = 0; i < c->tok[f].size; i++) {
        path_index(p, "factions", i);
        if (read_name(c, (int)e, p, name, "a faction") != 0)
            return -1;
        engine_faction fac = engine_faction_from_name(name);
        if (fac == ENGINE_FACTION_NONE)
            return fail(c, p, "unknown faction '%s'", name);
        for (uint32_t k = 0; k < i; k++)
            if (c->cfg.faction[k] == fac)
                return fail(c, p, "%s sits at the table twice", name);
        c->cfg.faction[i] = (uint8_t)fac;
        e = c->tok[e].next;
    }
    c->cfg.n_seats = (uint8_t)c->tok[f].size;
    int md = member(c, root, "modules");
    if (md >= 0) {
        if (want_type(c, md, "modules", CODEC_JSON_ARRAY) != 0)
            return -1;
        uint32_t t = (uint32_t)md + 1;
        for (uint32_t i = 0; i < c->tok[md].size; i++) {
            path_index(p, "modules", i);
            if (read_name(c, (int)t, p, name, "a module") != 0)
                return -1;
            unsigned m = 0;
            while (m < TOOL_MODULE_COUNT && strcmp(tool_module_names[m], name) != 0)
                m++;
            if (m == TOOL_MODULE_COUNT)
                return fail(c, p, "unknown module '%s'", name);
            c->cfg.modules |= 1u << m;
            t = c->tok[t].next;
        }
    }
    int64_t seed;
    if (int_field(c, root, "", "seed", 0, INT64_MAX, 0, &seed) != 0)
        return -1;
    /* (1): the seed's 8 bytes, little-endian, then zeros. */
    memset(c->seed, 0, sizeof c->seed);
    for (unsigned i = 0; i < 8; i++)
        c->seed[i] = (uint8_t)((uint64_t)seed >> (8 * i));
    int sh = member(c, root, "seed_hex");
    if (sh >= 0) {
        if (member(c, root, "seed") >= 0)
            return fail(c, "seed_hex", "\"seed\" and \"seed_hex\" exclude each other");
        if (want_type(c, sh, "seed_hex", CODEC_JSON_STRING) != 0)
            return -1;
        const codec_json_token *tk = &c->tok[sh];
        if (read_hex(c->seed, sizeof c->seed, c->text + tk->start, tk->end - tk->start) !=
            (long)sizeof c->seed)
            return fail(c, "seed_hex", "not the lower-case hex of %d bytes", ENGINE_SEED_BYTES);
    }
    return 0;
}

/* "branches": lines of play from the state after "actions", each with its
 * own actions and expectations, its checks named "branch \"NAME\": ".
 * With trunk NULL, validates them all (0 or -1); else runs each from a
 * copy of trunk (the document is valid: always 0). */
static int run_branches(sc_ctx *c, const engine_state *trunk)
{
    static const char *const fields[] = {"name", "actions", "expect", "note", NULL};
    char p[PATH_CHARS], pa[PATH_CHARS], px[PATH_CHARS], name[TOOL_SCENARIO_NAME];
    char prefix[TOOL_SCENARIO_NAME + 16];
    int a = member(c, 0, "branches");
    if (a < 0)
        return 0;
    if (want_type(c, a, "branches", CODEC_JSON_ARRAY) != 0)
        return -1;
    static engine_state line;
    const sc_battle trunk_battle = c->last_battle;
    const uint32_t trunk_accepted = c->res->n_accepted;
    uint32_t e = (uint32_t)a + 1;
    for (unsigned i = 0; i < c->tok[a].size; i++, e = c->tok[e].next) {
        path_index(p, "branches", i);
        if (want_type(c, (int)e, p, CODEC_JSON_OBJECT) != 0 ||
            check_fields(c, (int)e, p, fields) != 0)
            return -1;
        int nm = required(c, (int)e, p, "name");
        path_key(pa, p, "name");
        if (nm < 0 || want_type(c, nm, pa, CODEC_JSON_STRING) != 0)
            return -1;
        if (codec_json_string(name, sizeof name, &c->tok[nm], c->text) != 0)
            return fail(c, pa, "longer than %d bytes", TOOL_SCENARIO_NAME - 1);
        int note = member(c, (int)e, "note");
        path_key(pa, p, "note");
        if (note >= 0 && want_type(c, note, pa, CODEC_JSON_STRING) != 0)
            return -1;
        sc_action *acts = NULL;
        size_t n_acts = 0;
        path_key(pa, p, "actions");
        if (read_actions(c, (int)e, pa, &acts, &n_acts) != 0)
            return -1;
        int ex = member(c, (int)e, "expect");
        path_key(px, p, "expect");
        if (trunk == NULL) {
            free(acts);
            if (ex >= 0 && expect_object(c, ex, px) != 0)
                return -1;
            continue;
        }
        snprintf(prefix, sizeof prefix, "branch \"%s\": ", name);
        c->branch = prefix;
        c->n_before = trunk_accepted;
        c->last_battle = trunk_battle;
        line = *trunk;
        run_actions(c, &line, acts, n_acts);
        if (ex >= 0) {
            c->st = &line;
            expect_object(c, ex, px);
            c->st = NULL;
        }
        free(acts);
        c->branch = "";
        c->n_before = 0;
    }
    c->res->n_accepted = trunk_accepted;
    c->last_battle = trunk_battle;
    return 0;
}

int tool_scenario_run(tool_scenario_result *out, const char *text, size_t len, char *err)
{
    memset(out, 0, sizeof *out);
    err[0] = '\0';
    if (len > SCENARIO_MAX_BYTES) {
        snprintf(err, TOOL_SCENARIO_ERRMSG, "(document): larger than %u bytes", SCENARIO_MAX_BYTES);
        return -1;
    }
    size_t cap = len + 1;
    codec_json_token *tok = malloc(cap * sizeof *tok);
    sc_action *acts = NULL;
    size_t n_acts = 0;
    if (tok == NULL) {
        snprintf(err, TOOL_SCENARIO_ERRMSG, "(document): out of memory");
        return -1;
    }
    char jerr[SCHEMA_ERRMSG];
    int n = codec_json_parse(tok, cap, text, len, jerr);
    int rc = -1;
    if (n <= 0) {
        snprintf(err, TOOL_SCENARIO_ERRMSG, "(document): %s", jerr);
        goto out;
    }
    sc_ctx c;
    memset(&c, 0, sizeof c);
    c.text = text;
    c.tok = tok;
    c.err = err;
    c.res = out;
    c.when = "";
    c.branch = "";
    if (read_header(&c, 0, out) != 0 || build_position(&c, 0, &out->final) != 0 ||
        read_actions(&c, 0, "actions", &acts, &n_acts) != 0)
        goto out;
    int ex = member(&c, 0, "expect");
    if (ex >= 0 && expect_object(&c, ex, "expect") != 0)
        goto out;
    if (run_branches(&c, NULL) != 0)
        goto out;
    /* Everything is valid: run, then check. */
    out->start = out->final;
    c.start = &out->start;
    run_actions(&c, &out->final, acts, n_acts);
    if (ex >= 0) {
        c.st = &out->final;
        expect_object(&c, ex, "expect");
        c.st = NULL;
    }
    run_branches(&c, &out->final);
    rc = 0;
out:
    free(acts);
    free(tok);
    return rc;
}

void tool_scenario_result_free(tool_scenario_result *r)
{
    free(r->checks);
    r->checks = NULL;
    r->n_checks = r->cap_checks = 0;
}
