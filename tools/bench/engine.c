/*
 * bench/engine.c - the engine's own cost: the median time of one
 * engine_apply and of one engine_legal_actions call (every seat), over
 * complete 6-seat Basic games played in memory with the bench's chooser.
 *
 * Layer: tools; bench only. Nothing is stored; the clock is read around
 * each call alone, never around the chooser.
 */
#include <stdlib.h>
#include <string.h>

#include "tools/internal.h"

#define ENGINE_BENCH_CALLS_MAX 400000u

int bench_engine_us(double *apply_us_out, double *legal_us_out, bench_ctx *c, unsigned games)
{
    double *apply = malloc(ENGINE_BENCH_CALLS_MAX * sizeof *apply);
    double *legal = malloc(ENGINE_BENCH_CALLS_MAX * sizeof *legal);
    engine_legal *fam = malloc(ENGINE_LEGAL_MAX * sizeof *fam);
    size_t n_apply = 0, n_legal = 0;
    int ret = -1;
    if (apply == NULL || legal == NULL || fam == NULL) {
        bench_fail(c, "out of memory");
        goto out;
    }
    for (unsigned g = 0; g < games; g++) {
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
        for (uint32_t v = 1; n_apply < ENGINE_BENCH_CALLS_MAX; v++) {
            double t0 = bench_now();
            size_t n = engine_legal_actions(fam, ENGINE_LEGAL_MAX, &st, ENGINE_SEAT_ENGINE);
            legal[n_legal++] = (bench_now() - t0) * 1e6;
            if (n == 0)
                break;
            if (n > ENGINE_LEGAL_MAX)
                n = ENGINE_LEGAL_MAX;
            engine_action act;
            if (tool_action_draw(&act, &fam[tool_prng_range(&c->chooser, 0, (int32_t)n - 1)],
                                 &c->chooser) != 0) {
                bench_fail(c, "the engine offered an empty family");
                goto out;
            }
            engine_rng_init(&rng, seed, v);
            t0 = bench_now();
            engine_verdict verdict = engine_apply(NULL, &st, &act, &rng);
            apply[n_apply++] = (bench_now() - t0) * 1e6;
            if (verdict != ENGINE_ACCEPTED) {
                bench_fail(c, "a legal action was refused: %s", engine_verdict_name(verdict));
                goto out;
            }
        }
        bench_progress(c, "engine: game %u/%u", g + 1, games);
    }
    *apply_us_out = bench_median(apply, n_apply);
    *legal_us_out = bench_median(legal, n_legal);
    ret = 0;
out:
    free(apply);
    free(legal);
    free(fam);
    return ret;
}
