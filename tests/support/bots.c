/*
 * bots.c - a bot's choice for the engine tests: the action a bot of one
 * level in one seat decides from its own view of a state, its standing
 * Karama policy applied first where it would set one (a side action, on a
 * copy: the state given is never changed).
 */
#include <stdlib.h>

#include "tests/support/support.h"
#include "tools/internal.h"

int test_bot_choice(engine_action *out, const engine_state *st, uint8_t seat, int level,
                    const uint8_t seed[ENGINE_SEED_BYTES])
{
    bot_input *in = malloc(sizeof *in);
    engine_state *now = malloc(sizeof *now);
    bot *b = NULL;
    int rc = -1;
    if (in == NULL || now == NULL || bot_new(&b, seat, (bot_level)level, 7) != BOT_OK)
        goto done;
    *now = *st;
    for (unsigned v = 5; v < 64; v++) {
        bot_input_build(in, now, seat, v, 1);
        if (bot_decide(out, b, in) != BOT_OK)
            break;
        if (out->kind != ENGINE_ACTION_KARAMA_POLICY) {
            rc = 0;
            break;
        }
        engine_rng rng;
        engine_rng_init(&rng, seed, 10 + v);
        if (engine_apply(NULL, now, out, &rng) != ENGINE_ACCEPTED)
            break;
    }
done:
    bot_free(b);
    free(now);
    free(in);
    return rc;
}
