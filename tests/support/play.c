/*
 * play.c - random legal play for the tests: families from
 * engine_legal_actions, arguments drawn uniformly within their ranges (a
 * family with a required sum draws all but the last and retries until the
 * last fits); or an action kind first, uniformly among the legal ones,
 * so that rare kinds (a pass beside many families) are played too; a
 * state's canonical bytes to compare positions by; an action tried on
 * a copy; and the constructed Nexus room and generic actions of the panel
 * tests.
 */
#include <stdlib.h>
#include <string.h>

#include "tests/support/support.h"

uint64_t test_prng_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

uint32_t test_prng_below(uint64_t *state, uint32_t n)
{
    if (n == 0) /* a caller's bug: there is nothing to draw from */
        abort();
    return (uint32_t)(test_prng_next(state) % n);
}

static int16_t draw(uint64_t *prng, int lo, int hi)
{
    return (int16_t)(lo + (int)test_prng_below(prng, (uint32_t)(hi - lo + 1)));
}

static int draw_family(engine_action *out, const engine_legal *l, uint64_t *prng);

static engine_legal legal[ENGINE_LEGAL_MAX];

/* Every seat's legal families in st, into legal: their count. */
static size_t legal_of(const engine_state *st)
{
    size_t n = engine_legal_actions(legal, ENGINE_LEGAL_MAX, st, ENGINE_SEAT_ENGINE);
    return n < ENGINE_LEGAL_MAX ? n : ENGINE_LEGAL_MAX;
}

int test_legal_contains(const engine_state *st, const engine_action *act)
{
    size_t n = engine_legal_actions(legal, ENGINE_LEGAL_MAX, st, ENGINE_SEAT_ENGINE);
    if (n > ENGINE_LEGAL_MAX)
        return -1;
    for (size_t i = 0; i < n; i++)
        if (engine_legal_contains(&legal[i], act))
            return 1;
    return 0;
}

void test_position_table(engine_state *st, unsigned n, const uint8_t *faction, int advanced,
                         unsigned version, const uint8_t seed[ENGINE_SEED_BYTES], unsigned spice)
{
    engine_config cfg;
    engine_config_init(&cfg);
    cfg.n_seats = (uint8_t)n;
    memcpy(cfg.faction, faction, n);
    cfg.is_advanced = (uint8_t)advanced;
    cfg.rules_version = (uint16_t)version;
    engine_rng rng;
    engine_rng_init(&rng, seed, 0);
    if (engine_position_new(NULL, st, &cfg, &rng) != ENGINE_ACCEPTED)
        abort();
    for (unsigned s = 0; s < n; s++)
        if (engine_position_seat_spice(st, (uint8_t)s, spice) != 0)
            abort();
}

int test_random_legal(engine_action *out, const engine_state *st, uint64_t *prng)
{
    size_t n = legal_of(st);
    if (n == 0)
        return -1;
    return draw_family(out, &legal[test_prng_below(prng, (uint32_t)n)], prng);
}

int test_random_legal_by_kind(engine_action *out, const engine_state *st, uint64_t *prng)
{
    size_t n = legal_of(st);
    if (n == 0)
        return -1;
    uint8_t kinds[ENGINE_ACTION_KIND_COUNT];
    unsigned n_kinds = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned k = 0;
        while (k < n_kinds && kinds[k] != legal[i].kind)
            k++;
        if (k == n_kinds)
            kinds[n_kinds++] = legal[i].kind;
    }
    uint8_t kind = kinds[test_prng_below(prng, n_kinds)];
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (legal[i].kind == kind)
            legal[m++] = legal[i];
    return draw_family(out, &legal[test_prng_below(prng, (uint32_t)m)], prng);
}

static int draw_family(engine_action *out, const engine_legal *l, uint64_t *prng)
{
    memset(out, 0, sizeof *out);
    out->kind = l->kind;
    out->seat = l->seat;
    int n_args = (int)engine_legal_n_given(l); /* an absent optional argument is not drawn */
    for (int tries = 0; tries < 1000; tries++) {
        int total = 0;
        for (int i = 0; i < n_args; i++) {
            out->arg[i] = draw(prng, l->lo[i], l->hi[i]);
            total += out->arg[i];
        }
        if (l->sum < 0) {
            engine_legal_clip(l, out->arg); /* the caps, if any */
            return 0;
        }
        /* Fix the last argument to meet the sum. */
        int last = n_args - 1;
        int need = l->sum - (total - out->arg[last]);
        if (need >= l->lo[last] && need <= l->hi[last]) {
            out->arg[last] = (int16_t)need;
            return 0;
        }
    }
    /* Greedy fill: lows first, then raise in order. */
    int rest = l->sum;
    for (int i = 0; i < n_args; i++) {
        out->arg[i] = l->lo[i];
        rest -= l->lo[i];
    }
    for (int i = 0; i < n_args && rest > 0; i++) {
        int room = l->hi[i] - out->arg[i];
        int add = rest < room ? rest : room;
        out->arg[i] = (int16_t)(out->arg[i] + add);
        rest -= add;
    }
    return 0;
}

void test_random_config(engine_config *cfg, unsigned n_seats, int is_advanced, uint64_t *prng)
{
    uint8_t f[6] = {0, 1, 2, 3, 4, 5};
    for (unsigned i = 5; i > 0; i--) {
        unsigned j = test_prng_below(prng, i + 1);
        uint8_t t = f[i];
        f[i] = f[j];
        f[j] = t;
    }
    engine_config_init(cfg);
    cfg->n_seats = (uint8_t)n_seats;
    for (unsigned s = 0; s < n_seats; s++)
        cfg->faction[s] = f[s];
    cfg->is_advanced = (uint8_t)is_advanced;
}

int test_state_round_trip(const engine_state *st)
{
    static uint8_t a[ENGINE_STATE_ENCODED_MAX], b[ENGINE_STATE_ENCODED_MAX];
    static engine_state back;
    size_t n = engine_state_encode(a, sizeof a, st);
    if (n == 0 || n > sizeof a || engine_state_decode(&back, a, n) != 0)
        return -1;
    if (back.step != st->step || back.awaiting != st->awaiting || back.answered != st->answered ||
        back.n_frames != st->n_frames || memcmp(back.frame, st->frame, sizeof st->frame) != 0 ||
        back.n_effects != st->n_effects)
        return -1;
    for (unsigned i = 0; i < st->n_effects; i++) {
        const engine_effect *x = &back.effect[i], *y = &st->effect[i];
        if (x->kind != y->kind || x->source != y->source || x->owner != y->owner ||
            x->value != y->value || x->expiry != y->expiry || x->arg != y->arg)
            return -1;
    }
    return engine_state_encode(b, sizeof b, &back) == n && memcmp(a, b, n) == 0 ? 0 : -1;
}

size_t test_state_canonical(uint8_t *out, const engine_state *st)
{
    static engine_state copy;
    copy = *st;
    copy.config.is_constructed = 0;
    size_t n = engine_state_encode(out, ENGINE_STATE_ENCODED_MAX, &copy);
    if (n == 0)
        abort();
    return n;
}

engine_verdict test_try(engine_verdict_detail *why, const engine_state *st,
                        const engine_action *a, engine_rng *rng)
{
    static engine_state copy;
    static uint8_t before[ENGINE_STATE_ENCODED_MAX], after[ENGINE_STATE_ENCODED_MAX];
    copy = *st;
    engine_verdict v = engine_apply(why, &copy, a, rng);
    if (v == ENGINE_ACCEPTED)
        return v;
    size_t n = test_state_canonical(before, st);
    if (test_state_canonical(after, &copy) != n || memcmp(before, after, n) != 0)
        return ENGINE_VERDICT_COUNT; /* a refusal that changed something */
    return v;
}

engine_verdict test_nexus_room(engine_state *st, engine_rng *rng, const uint8_t *seed,
                               unsigned rules_version, unsigned a, unsigned b, unsigned c)
{
    engine_config cfg;
    engine_config_init(&cfg);
    cfg.n_seats = 3;
    cfg.faction[0] = (uint8_t)a;
    cfg.faction[1] = (uint8_t)b;
    cfg.faction[2] = (uint8_t)c;
    cfg.modules = ENGINE_MODULE_NEXUS_CARDS;
    cfg.rules_version = (uint16_t)rules_version;
    engine_rng_init(rng, seed, 0);
    return engine_position_new(NULL, st, &cfg, rng);
}

engine_action test_generic(unsigned kind, unsigned seat, int id, int a1, int a2)
{
    engine_action act;
    memset(&act, 0, sizeof act);
    act.kind = (uint8_t)kind;
    act.seat = (uint8_t)seat;
    act.arg[0] = (int16_t)id;
    act.arg[1] = (int16_t)a1;
    act.arg[2] = (int16_t)a2;
    return act;
}

void test_battle_table(engine_state *st, unsigned f0, unsigned f1, int is_advanced,
                       unsigned version, const uint8_t seed[ENGINE_SEED_BYTES])
{
    engine_config cfg;
    engine_config_init(&cfg);
    cfg.n_seats = 2;
    cfg.faction[0] = (uint8_t)f0;
    cfg.faction[1] = (uint8_t)f1;
    cfg.is_advanced = (uint8_t)is_advanced;
    cfg.rules_version = (uint16_t)version;
    engine_rng rng;
    engine_rng_init(&rng, seed, 0);
    if (engine_position_new(NULL, st, &cfg, &rng) != ENGINE_ACCEPTED)
        abort();
    int flat = engine_location_find(ENGINE_TERRITORY_THE_GREAT_FLAT, 14);
    for (uint8_t s = 0; s < 2; s++)
        if (flat < 0 || engine_position_forces(st, s, (unsigned)flat, 5, 0) != 0 ||
            engine_position_seat_spice(st, s, 10) != 0)
            abort();
}
