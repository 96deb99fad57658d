/*
 * bots.c - what a bot decides for the tests: a bot of a level asked in a
 * state, its standing Karama policy (its first prompt of a turn) applied
 * first, so the action returned is the decision the state asks for.
 */
#include <stdlib.h>

#include "tests/support/support.h"
#include "tools/internal.h"

int test_bot_choice(engine_action *out, const engine_state *st, uint8_t seat, unsigned level,
                    const uint8_t seed[ENGINE_SEED_BYTES])
{
    bot_input *in = malloc(sizeof *in);
    engine_state *now = malloc(sizeof *now);
    bot *b = NULL;
    int rc = -1;
    if (in == NULL || now == NULL || bot_new(&b, seat, (bot_level)level, 7) != BOT_OK)
        goto out;
    *now = *st;
    for (unsigned v = 5; v < 50; v++) {
        bot_input_build(in, now, seat, v, 1);
        if (bot_decide(out, b, in) != BOT_OK)
            goto out;
        if (out->kind != ENGINE_ACTION_KARAMA_POLICY) {
            rc = 0;
            goto out;
        }
        engine_rng rng;
        engine_rng_init(&rng, seed, 10 + v);
        if (engine_apply(NULL, now, out, &rng) != ENGINE_ACCEPTED)
            goto out;
    }
out:
    bot_free(b);
    free(now);
    free(in);
    return rc;
}
