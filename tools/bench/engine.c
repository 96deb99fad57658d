/*
 * bench/engine.c - the engine's own cost: the median time of one
 * engine_apply and of one engine_legal_actions call (every seat), over
 * complete 6-seat Basic games played in memory with the bench's chooser;
 * and the same over Advanced positions (battles with spice support, the
 * Spice Collection's stronghold income, then the turns on to the game's
 * end, double spice blows included), constructed with the engine's
 * position API so that every one of them starts with battles.
 *
 * Layer: tools; bench only. Nothing is stored; the clock is read around
 * each call alone, never around the chooser.
 */
#include <stdlib.h>
#include <string.h>

#include "tools/internal.h"

#define ENGINE_BENCH_CALLS_MAX 400000u

/* The timings of one run: each call's microseconds. */
typedef struct timings {
    double *apply, *legal;
    size_t n_apply, n_legal;
    engine_legal *fam;             /* scratch families */
} timings;

static int timings_open(timings *t, bench_ctx *c)
{
    memset(t, 0, sizeof *t);
    t->apply = malloc(ENGINE_BENCH_CALLS_MAX * sizeof *t->apply);
    t->legal = malloc(ENGINE_BENCH_CALLS_MAX * sizeof *t->legal);
    t->fam = malloc(ENGINE_LEGAL_MAX * sizeof *t->fam);
    if (t->apply == NULL || t->legal == NULL || t->fam == NULL) {
        bench_fail(c, "out of memory");
        return -1;
    }
    return 0;
}

static void timings_close(timings *t)
{
    free(t->apply);
    free(t->legal);
    free(t->fam);
}

/* Plays st with the chooser until nothing is legal, timing every call. */
static int play_timed(timings *t, bench_ctx *c, engine_state *st, const uint8_t *seed)
{
    engine_rng rng;
    /* every call times a legal_actions, and all but a game's last an
     * apply too, so the legal timings are the ones that run out first */
    for (uint32_t v = 1; t->n_legal < ENGINE_BENCH_CALLS_MAX; v++) {
        double t0 = bench_now();
        size_t n = engine_legal_actions(t->fam, ENGINE_LEGAL_MAX, st, ENGINE_SEAT_ENGINE);
        t->legal[t->n_legal++] = (bench_now() - t0) * 1e6;
        if (n == 0)
            return 0;
        if (n > ENGINE_LEGAL_MAX)
            n = ENGINE_LEGAL_MAX;
        engine_action act;
        if (tool_action_draw(&act, &t->fam[tool_prng_range(&c->chooser, 0, (int32_t)n - 1)],
                             &c->chooser) != 0) {
            bench_fail(c, "the engine offered an empty family");
            return -1;
        }
        engine_rng_init(&rng, seed, v);
        t0 = bench_now();
        engine_verdict verdict = engine_apply(NULL, st, &act, &rng);
        t->apply[t->n_apply++] = (bench_now() - t0) * 1e6;
        if (verdict != ENGINE_ACCEPTED) {
            bench_fail(c, "a legal action was refused: %s", engine_verdict_name(verdict));
            return -1;
        }
    }
    return 0;
}

int bench_engine_us(double *apply_us_out, double *legal_us_out, bench_ctx *c, unsigned games)
{
    timings t;
    int ret = -1;
    if (timings_open(&t, c) != 0)
        goto out;
    for (unsigned g = 0; g < games && t.n_legal < ENGINE_BENCH_CALLS_MAX; g++) {
        uint8_t seed[ENGINE_SEED_BYTES] = {(uint8_t)g, 0x42};
        engine_config cfg;
        bench_config_init(&cfg);
        engine_state st;
        engine_rng rng;
        engine_rng_init(&rng, seed, 0);
        if (engine_setup(NULL, &st, &cfg, &rng) != ENGINE_ACCEPTED) {
            bench_fail(c, "the engine refuses the bench's table");
            goto out;
        }
        if (play_timed(&t, c, &st, seed) != 0)
            goto out;
        bench_progress(c, "engine: game %u/%u", g + 1, games);
    }
    *apply_us_out = bench_median(t.apply, t.n_apply);
    *legal_us_out = bench_median(t.legal, t.n_legal);
    ret = 0;
out:
    timings_close(&t);
    return ret;
}

/* Where the Advanced positions' three battles are fought, and the
 * strongholds whose income is collected after them. */
static const uint8_t battlefields[] = {
    ENGINE_TERRITORY_THE_GREAT_FLAT, ENGINE_TERRITORY_CARTHAG, ENGINE_TERRITORY_ARRAKEEN,
};

int bench_engine_advanced_us(double *apply_us_out, double *legal_us_out, bench_ctx *c,
                             unsigned positions)
{
    timings t;
    int ret = -1;
    if (timings_open(&t, c) != 0)
        goto out;
    for (unsigned g = 0; g < positions && t.n_legal < ENGINE_BENCH_CALLS_MAX; g++) {
        uint8_t seed[ENGINE_SEED_BYTES] = {(uint8_t)g, 0x43};
        engine_config cfg;
        bench_config_init(&cfg);
        cfg.is_advanced = 1;
        engine_state st;
        engine_rng rng;
        engine_rng_init(&rng, seed, 0);
        if (engine_position_new(NULL, &st, &cfg, &rng) != ENGINE_ACCEPTED) {
            bench_fail(c, "the engine refuses the bench's Advanced table");
            goto out;
        }
        /* Seats 2k and 2k+1 meet in battlefield k, with their elite
         * forces, some spice and a card or two. */
        for (uint8_t s = 0; s < cfg.n_seats; s++) {
            int loc = engine_location_find(battlefields[s / 2], -1);
            for (unsigned l = 0; loc < 0 && l < ENGINE_LOCATION_COUNT; l++)
                if (engine_location_territory(l) == battlefields[s / 2])
                    loc = (int)l;
            unsigned elite = st.seat[s].special_reserves < 3 ? st.seat[s].special_reserves : 3;
            if (loc < 0 ||
                engine_position_forces(&st, s, (unsigned)loc, 4 + (g + s) % 6, elite) != 0 ||
                engine_position_seat_spice(&st, s, (g * 5 + s * 3) % 11) != 0) {
                bench_fail(c, "the engine refuses the bench's Advanced position");
                goto out;
            }
            (void)engine_position_give_card(&st, s, (g + s) % 2 ? ENGINE_CARD_CRYSKNIFE
                                                                : ENGINE_CARD_SHIELD);
        }
        if (engine_position_enter(&st, ENGINE_PHASE_BATTLE, 3, 0, &rng) != 0) {
            bench_fail(c, "the engine refuses to enter the Advanced battles");
            goto out;
        }
        if (play_timed(&t, c, &st, seed) != 0)
            goto out;
        bench_progress(c, "engine, Advanced: position %u/%u", g + 1, positions);
    }
    *apply_us_out = bench_median(t.apply, t.n_apply);
    *legal_us_out = bench_median(t.legal, t.n_legal);
    ret = 0;
out:
    timings_close(&t);
    return ret;
}
