/*
 * test_turns.c - complete random games: uniformly random legal actions from
 * setup to the game's end, at every table size. Every legal action must be
 * accepted, every arbitrary action accepted exactly when legal, the
 * invariants hold after every step, and every game ends in GAME_OVER with
 * winners (Basic game; the Advanced game stops at its unbuilt Spice Blow).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <sodium.h>

#include "engine/phase.h"
#include "tests/support/support.h"

#define GAMES 600

static unsigned phases_seen[ENGINE_PHASE_COUNT];
static unsigned kinds_seen[ENGINE_ACTION_KIND_COUNT];
static unsigned victories[ENGINE_VICTORY_MOST_STRONGHOLDS + 1];

static int legal_contains(const engine_state *st, const engine_action *act)
{
    int c = test_legal_contains(st, act);
    assert_true(c >= 0);
    return c;
}

static void play_turns(unsigned n_seats, int advanced, uint64_t seed, int probe)
{
    uint64_t prng = seed;
    uint8_t room_seed[ENGINE_SEED_BYTES] = {0};
    memcpy(room_seed, &seed, sizeof seed);
    engine_config cfg;
    test_random_config(&cfg, n_seats, advanced, &prng);
    engine_state st;
    engine_rng rng;
    engine_rng_init(&rng, room_seed, 0);
    assert_int_equal(engine_setup(NULL, &st, &cfg, &rng), ENGINE_ACCEPTED);
    for (uint32_t version = 1; version < 100000; version++) {
        assert_int_equal(engine_state_check(&st), 0);
        phases_seen[st.phase]++;
        if (probe) {
            engine_action act;
            memset(&act, 0, sizeof act);
            act.kind = (uint8_t)test_prng_below(&prng, ENGINE_ACTION_KIND_COUNT);
            act.seat = (uint8_t)test_prng_below(&prng, n_seats);
            for (unsigned i = 0; i < 5; i++)
                act.arg[i] = (int16_t)((int)test_prng_below(&prng, 20) - 1);
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
        engine_action act;
        if (test_random_legal(&act, &st, &prng) != 0)
            break;
        kinds_seen[act.kind]++;
        engine_rng_init(&rng, room_seed, version);
        assert_int_equal(engine_apply(NULL, &st, &act, &rng), ENGINE_ACCEPTED);
    }
    /* Every game ends, the Advanced game (rules version 6) as the Basic
     * one: by a victory or at the turn limit. */
    assert_int_equal(engine_state_awaiting(&st), 0);
    assert_int_equal(st.phase, ENGINE_PHASE_GAME_OVER);
    assert_true(st.winners != 0);
    assert_true(st.victory_kind != ENGINE_VICTORY_NONE);
    victories[st.victory_kind]++;
    engine_action any = {ENGINE_ACTION_STORM_DIAL, 0, {1}};
    engine_rng_init(&rng, room_seed, 1);
    assert_int_equal(engine_apply(NULL, &st, &any, &rng), ENGINE_REJECT_GAME_OVER);
}

static void test_turns__random_games_through_built_phases(void **state)
{
    (void)state;
    for (uint64_t g = 0; g < GAMES; g++)
        play_turns(2 + (unsigned)(g % 5), g % 10 == 9, g * 104729 + 1, g < 60);
    for (unsigned k = 1; k <= ENGINE_VICTORY_MOST_STRONGHOLDS; k++)
        print_message("victory kind %u: %u games\n", k, victories[k]);
    /* The random games exercised every built phase and action kind. */
    assert_true(phases_seen[ENGINE_PHASE_SPICE_BLOW] > 0);
    assert_true(phases_seen[ENGINE_PHASE_CHOAM_CHARITY] > 0);
    assert_true(phases_seen[ENGINE_PHASE_BIDDING] > 0);
    assert_true(phases_seen[ENGINE_PHASE_REVIVAL] > 0);
    for (unsigned k = 1; k < ENGINE_ACTION_KIND_COUNT; k++) {
        if (k == ENGINE_ACTION_BG_PLACE)
            continue; /* Advanced only, reached in fewer games */
        if (kinds_seen[k] == 0)
            print_message("action kind %s never played\n", engine_action_spec_of(k)->name);
    }
    assert_true(kinds_seen[ENGINE_ACTION_ALLIANCE_ACCEPT] > 0);
    assert_true(kinds_seen[ENGINE_ACTION_BID] > 0);
    assert_true(kinds_seen[ENGINE_ACTION_REVIVE] > 0);
    assert_true(kinds_seen[ENGINE_ACTION_CHARITY_CLAIM] > 0);
    assert_true(kinds_seen[ENGINE_ACTION_WORM_RIDE] > 0);
    assert_true(kinds_seen[ENGINE_ACTION_SHIP] > 0);
    assert_true(kinds_seen[ENGINE_ACTION_FREMEN_SEND] > 0);
    assert_true(kinds_seen[ENGINE_ACTION_CROSS_SHIP] > 0);
    assert_true(kinds_seen[ENGINE_ACTION_SHIP_BACK] > 0);
    assert_true(kinds_seen[ENGINE_ACTION_BG_SEND] > 0);
    assert_true(kinds_seen[ENGINE_ACTION_MOVE] > 0);
    assert_true(kinds_seen[ENGINE_ACTION_BATTLE_PLAN] > 0);
    assert_true(kinds_seen[ENGINE_ACTION_TRAITOR_CALL] > 0);
    assert_true(kinds_seen[ENGINE_ACTION_VOICE] > 0);
    assert_true(kinds_seen[ENGINE_ACTION_PRESCIENCE_ANSWER] > 0);
    assert_true(kinds_seen[ENGINE_ACTION_SHIP_KARAMA_FROM] > 0);
    assert_true(kinds_seen[ENGINE_ACTION_SHIP_KARAMA_ANSWER] > 0);
    assert_true(phases_seen[ENGINE_PHASE_GAME_OVER] > 0);
}

int main(void)
{
    if (sodium_init() < 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_turns__random_games_through_built_phases),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
