/*
 * test_play.c - properties over thousands of seeded random games through
 * every built phase: every legal action is accepted and keeps the
 * invariants; an arbitrary action is accepted exactly when a legal family
 * contains it, and a rejection leaves the state byte-identical; the
 * canonical encoding round-trips; the same seed replays the same game.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>
#include <sodium.h>

#include "engine/engine.h"
#include "tests/support/support.h"

#define GAMES_PER_SIZE 200

static int legal_contains(const engine_state *st, const engine_action *act)
{
    int c = test_legal_contains(st, act);
    assert_true(c >= 0);
    return c;
}

/* An arbitrary action: a known or unknown kind, any seat, small args. */
static void random_action(engine_action *act, uint64_t *prng)
{
    memset(act, 0, sizeof *act);
    act->kind = (uint8_t)test_prng_below(prng, ENGINE_ACTION_KIND_COUNT + 1);
    act->seat = (uint8_t)test_prng_below(prng, ENGINE_MAX_SEATS + 1);
    unsigned n = test_prng_below(prng, ENGINE_ACTION_MAX_ARGS + 1);
    for (unsigned i = 0; i < n; i++)
        act->arg[i] = (int16_t)((int)test_prng_below(prng, 90) - 2);
}

static void encode_round_trip(const engine_state *st)
{
    static uint8_t a[ENGINE_STATE_ENCODED_MAX], b[ENGINE_STATE_ENCODED_MAX];
    size_t la = engine_state_encode(a, sizeof a, st);
    assert_true(la <= sizeof a);
    engine_state back;
    assert_int_equal(engine_state_decode(&back, a, la), 0);
    size_t lb = engine_state_encode(b, sizeof b, &back);
    assert_int_equal(la, lb);
    assert_memory_equal(a, b, la);
}

/* Plays one game to its end, under rules version `rules` (0: the
 * newest); returns its digest. */
static void play_game(uint8_t digest[32], unsigned n_seats, int advanced, uint64_t seed,
                      int probe, unsigned rules)
{
    uint64_t prng = seed;
    uint8_t room_seed[ENGINE_SEED_BYTES] = {0};
    memcpy(room_seed, &seed, sizeof seed);
    engine_config cfg;
    test_random_config(&cfg, n_seats, advanced, &prng);
    /* A Basic table in four of three seats or more carries the Nexus Cards. */
    if (!advanced && n_seats >= ENGINE_NEXUS_MIN_SEATS && seed % 4 == 1 && rules == 0)
        cfg.modules = ENGINE_MODULE_NEXUS_CARDS;
    if (rules != 0)
        cfg.rules_version = (uint16_t)rules;
    engine_state st;
    engine_rng rng;
    engine_rng_init(&rng, room_seed, 0);
    assert_int_equal(engine_setup(NULL, &st, &cfg, &rng), ENGINE_ACCEPTED);
    for (uint32_t version = 1; version < 100000; version++) {
        assert_int_equal(engine_state_check(&st), 0);
        if (probe)
            encode_round_trip(&st);
        if (probe) {
            /* Arbitrary actions: accepted exactly when legal. */
            for (int i = 0; i < 20; i++) {
                engine_action act;
                random_action(&act, &prng);
                engine_state copy = st;
                int want = legal_contains(&st, &act);
                engine_rng_init(&rng, room_seed, version);
                engine_verdict v = engine_apply(NULL, &copy, &act, &rng);
                if (want)
                    assert_int_equal(v, ENGINE_ACCEPTED);
                else {
                    assert_int_not_equal(v, ENGINE_ACCEPTED);
                    assert_memory_equal(&copy, &st, sizeof st);
                }
            }
        }
        engine_action act;
        if (test_random_legal(&act, &st, &prng) != 0)
            break;
        assert_true(legal_contains(&st, &act));
        engine_rng_init(&rng, room_seed, version);
        engine_verdict_detail why;
        engine_verdict v = engine_apply(&why, &st, &act, &rng);
        assert_int_equal(v, ENGINE_ACCEPTED);
    }
    /* Every game ends, the Advanced game (rules version 6: every phase
     * built) as the Basic one. */
    assert_int_equal(st.phase, ENGINE_PHASE_GAME_OVER);
    assert_int_equal(engine_state_awaiting(&st), 0);
    engine_action any = {ENGINE_ACTION_STORM_DIAL, 0, {1}};
    engine_rng_init(&rng, room_seed, 999);
    assert_int_equal(engine_apply(NULL, &st, &any, &rng), ENGINE_REJECT_GAME_OVER);
    engine_state_digest(digest, &st);
}

static void test_play__random_games_every_table_size(void **state)
{
    (void)state;
    uint8_t d[32];
    for (unsigned n = ENGINE_MIN_SEATS; n <= ENGINE_MAX_SEATS; n++)
        for (uint64_t g = 0; g < GAMES_PER_SIZE; g++)
            play_game(d, n, g % 4 == 1, g * 7919 + n, g < 20, 0); /* one in four Advanced */
}

/* Rules version 1 is folded, never played by a room (engine/rules_v1.c),
 * but the engine plays it as it folds it: the same properties hold. */
static void test_play__random_games_rules_version_1(void **state)
{
    (void)state;
    uint8_t d[32];
    for (unsigned n = ENGINE_MIN_SEATS; n <= ENGINE_MAX_SEATS; n++)
        for (uint64_t g = 0; g < 10; g++)
            play_game(d, n, 0, g * 104729 + n, g < 3, 1);
}

static void test_play__same_seed_same_game(void **state)
{
    (void)state;
    uint8_t a[32], b[32], c[32];
    play_game(a, 5, 0, 42, 0, 0);
    play_game(b, 5, 0, 42, 0, 0);
    play_game(c, 5, 0, 43, 0, 0);
    assert_memory_equal(a, b, 32);
    assert_memory_not_equal(a, c, 32);
}

/* The decoder refuses damaged encodings rather than trusting them. */
static void test_play__decode_refuses_damage(void **state)
{
    (void)state;
    uint64_t prng = 5;
    engine_config cfg;
    test_random_config(&cfg, 6, 0, &prng);
    engine_state st;
    engine_rng rng;
    uint8_t seed[ENGINE_SEED_BYTES] = {1};
    engine_rng_init(&rng, seed, 0);
    assert_int_equal(engine_setup(NULL, &st, &cfg, &rng), ENGINE_ACCEPTED);
    uint8_t buf[ENGINE_STATE_ENCODED_MAX];
    size_t len = engine_state_encode(buf, sizeof buf, &st);
    engine_state out;
    for (size_t cut = 0; cut < len; cut++)
        assert_int_equal(engine_state_decode(&out, buf, cut), -1);
    int refused = 0;
    for (size_t i = 0; i < len; i++) {
        buf[i] ^= 0x40;
        refused += engine_state_decode(&out, buf, len) != 0;
        buf[i] ^= 0x40;
    }
    /* Most single flips break an invariant; none may crash. */
    assert_true(refused > (int)len / 2);
}

/* engine_rng_uniform is deterministic per (seed, version) and covers its range. */
static void test_play__rng(void **state)
{
    (void)state;
    uint8_t seed[ENGINE_SEED_BYTES] = {3};
    engine_rng a, b;
    engine_rng_init(&a, seed, 17);
    engine_rng_init(&b, seed, 17);
    unsigned counts[6] = {0};
    for (int i = 0; i < 60000; i++) {
        uint32_t x = engine_rng_uniform(&a, 6);
        assert_int_equal(x, engine_rng_uniform(&b, 6));
        counts[x]++;
    }
    for (int i = 0; i < 6; i++)
        assert_true(counts[i] > 9500 && counts[i] < 10500);
    engine_rng_init(&b, seed, 18);
    engine_rng_init(&a, seed, 17);
    int same = 0;
    for (int i = 0; i < 32; i++)
        same += engine_rng_uniform(&a, 1000000) == engine_rng_uniform(&b, 1000000);
    assert_true(same < 2);
}

/* The state decoder's fuzz corpus holds states of this build's encoding:
 * one of another rules version is refused at its first bytes and fuzzes
 * nothing (`make fuzz-seeds` rewrites it). Inputs named refused-* are
 * states the fuzzer found that the decoder must refuse. */
static void test_play__state_fuzz_corpus_decodes(void **state)
{
    (void)state;
    static uint8_t buf[ENGINE_STATE_ENCODED_MAX + 1];
    const char *dir = "tests/fuzz/corpus/fuzz_state";
    DIR *d = opendir(dir);
    assert_non_null(d);
    unsigned n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (e->d_name[0] == '.')
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *f = fopen(path, "rb");
        assert_non_null(f);
        size_t len = fread(buf, 1, sizeof buf, f);
        fclose(f);
        engine_state st;
        /* an input the fuzzer found, kept to show the decoder refuses it */
        if (strncmp(e->d_name, "refused-", 8) == 0) {
            if (engine_state_decode(&st, buf, len) == 0)
                fail_msg("%s decodes: it must be refused", path);
            continue;
        }
        if (engine_state_decode(&st, buf, len) != 0)
            fail_msg("%s does not decode: run `make fuzz-seeds`", path);
        assert_int_equal(engine_state_check(&st), 0);
        n++;
    }
    closedir(d);
    assert_true(n >= 8);
}

int main(void)
{
    if (sodium_init() < 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_play__random_games_every_table_size),
        cmocka_unit_test(test_play__random_games_rules_version_1),
        cmocka_unit_test(test_play__same_seed_same_game),
        cmocka_unit_test(test_play__decode_refuses_damage),
        cmocka_unit_test(test_play__rng),
        cmocka_unit_test(test_play__state_fuzz_corpus_decodes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
