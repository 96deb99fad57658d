/*
 * test_view_json.c - what a viewer receives as JSON (inspect/view_json.c):
 * every legal family of a seat carries an example action that the codec
 * reads back as is and the engine accepts, at every position of seeded
 * random games of two to six seats, Basic and Advanced; a seat's JSON
 * lists every family, however many there are.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/inspect/helpers.h"

#define GAMES 12
#define MAX_ACTIONS 400

static engine_legal legal[ENGINE_LEGAL_MAX];

/* Every example of every family of every seat of st is pasted as JSON
 * into the codec and applied to a copy of st: it must be accepted.
 * Returns the examples checked. */
static unsigned check_examples(const engine_state *st, const uint8_t seed[ENGINE_SEED_BYTES],
                               uint32_t version)
{
    static engine_state copy;
    unsigned checked = 0;
    for (uint8_t s = 0; s < st->config.n_seats; s++) {
        size_t n = engine_legal_actions(legal, ENGINE_LEGAL_MAX, st, s);
        assert_true(n <= ENGINE_LEGAL_MAX);
        for (size_t i = 0; i < n; i++) {
            engine_action ex, back;
            inspect_legal_example(&ex, &legal[i]);
            assert_true(engine_legal_contains(&legal[i], &ex));
            char json[1024], err[SCHEMA_ERRMSG];
            assert_int_equal(codec_action_to_json(json, sizeof json, &ex), 0);
            int rc = codec_action_from_json(&back, json, strlen(json), err);
            if (rc != 0)
                fail_msg("example %s not read back: %s", json, err);
            back.seat = s;
            memcpy(&copy, st, sizeof copy);
            engine_rng rng;
            engine_rng_init(&rng, seed, version + 1u);
            engine_verdict_detail why;
            engine_verdict v = engine_apply(&why, &copy, &back, &rng);
            if (v != ENGINE_ACCEPTED)
                fail_msg("seat %u example %s at version %u refused: %s", s + 1u, json,
                         version, engine_verdict_name(v));
            checked++;
        }
    }
    return checked;
}

static void test_view_json__every_example_is_accepted(void **state)
{
    (void)state;
    static engine_state st;
    uint64_t prng = 0x5eed;
    unsigned checked = 0;
    for (unsigned g = 0; g < GAMES; g++) {
        engine_config cfg;
        test_random_config(&cfg, 2u + g % 5u, (int)(g % 2u), &prng);
        uint8_t seed[ENGINE_SEED_BYTES];
        for (size_t i = 0; i < sizeof seed; i++)
            seed[i] = (uint8_t)test_prng_next(&prng);
        engine_rng rng;
        engine_rng_init(&rng, seed, 0);
        assert_int_equal(engine_setup(NULL, &st, &cfg, &rng), ENGINE_ACCEPTED);
        for (uint32_t version = 0; version < MAX_ACTIONS; version++) {
            checked += check_examples(&st, seed, version);
            engine_action act;
            if (test_random_legal(&act, &st, &prng) != 0)
                break;
            engine_rng_init(&rng, seed, version + 1u);
            assert_int_equal(engine_apply(NULL, &st, &act, &rng), ENGINE_ACCEPTED);
        }
    }
    assert_true(checked > 1000);
}

/* The seat's JSON lists every family with its example; the public view
 * lists none. */
static void test_view_json__seat_json_lists_every_family(void **state)
{
    (void)state;
    static engine_state st, view;
    engine_config cfg;
    test_config_six(&cfg);
    uint8_t seed[ENGINE_SEED_BYTES] = {7};
    engine_rng rng;
    engine_rng_init(&rng, seed, 0);
    assert_int_equal(engine_setup(NULL, &st, &cfg, &rng), ENGINE_ACCEPTED);
    uint64_t prng = 11;
    size_t most = 0;
    for (uint32_t version = 0; version < 300; version++) {
        for (uint8_t s = 0; s < cfg.n_seats; s++) {
            size_t n = engine_legal_actions(legal, ENGINE_LEGAL_MAX, &st, s);
            if (n <= most || n < 2)
                continue;
            most = n;
            engine_view(&view, &st, s);
            inspect_state_doc d = {"TESTROOM", version, version, &view, legal, n, 0};
            char *buf = ifix_state_json(&d);
            size_t n_examples = 0;
            for (const char *p = buf; (p = strstr(p, "\"example\":{")) != NULL; p++)
                n_examples++;
            assert_int_equal(n_examples, n);
            free(buf);
            /* The text lists them all too: one "e.g." line each. */
            size_t len = 0;
            FILE *f = open_memstream(&buf, &len);
            assert_non_null(f);
            inspect_state_print(f, &d);
            assert_int_equal(fclose(f), 0);
            n_examples = 0;
            for (const char *p = buf; (p = strstr(p, "    e.g. {")) != NULL; p++)
                n_examples++;
            assert_int_equal(n_examples, n);
            assert_null(strstr(buf, "more (--json"));
            free(buf);
        }
        engine_action act;
        if (test_random_legal(&act, &st, &prng) != 0)
            break;
        engine_rng_init(&rng, seed, version + 1u);
        assert_int_equal(engine_apply(NULL, &st, &act, &rng), ENGINE_ACCEPTED);
    }
    assert_true(most > 100); /* a position with more families than the old text cap */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_view_json__every_example_is_accepted),
        cmocka_unit_test(test_view_json__seat_json_lists_every_family),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
