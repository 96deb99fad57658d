/*
 * test_play.c - the chooser of `mentat play`: its PRNG stays in range and
 * covers it, and drawn actions belong to their family, sums included.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "engine/engine.h"
#include "tools/internal.h"

static void test_play__range_is_covered_and_bounded(void **state)
{
    (void)state;
    tool_prng r;
    tool_prng_init(&r, 42);
    int seen[7] = {0};
    for (int i = 0; i < 7000; i++) {
        int32_t v = tool_prng_range(&r, -3, 3);
        assert_true(v >= -3 && v <= 3);
        seen[v + 3]++;
    }
    for (int i = 0; i < 7; i++)
        assert_true(seen[i] > 800 && seen[i] < 1200);
    assert_int_equal(tool_prng_range(&r, 5, 5), 5);
    int32_t big = tool_prng_range(&r, INT32_MIN, INT32_MAX);
    (void)big;
}

static void test_play__same_seed_same_stream(void **state)
{
    (void)state;
    tool_prng a, b;
    tool_prng_init(&a, 7);
    tool_prng_init(&b, 7);
    for (int i = 0; i < 100; i++)
        assert_true(tool_prng_next(&a) == tool_prng_next(&b));
}

static void test_play__draw_respects_the_sum(void **state)
{
    (void)state;
    /* Fremen placement: three counts adding up to 10. */
    engine_legal l;
    memset(&l, 0, sizeof l);
    l.kind = ENGINE_ACTION_FREMEN_PLACE;
    l.seat = 3;
    l.sum = 10;
    for (int i = 0; i < 3; i++) {
        l.lo[i] = 0;
        l.hi[i] = 10;
    }
    tool_prng r;
    tool_prng_init(&r, 1);
    int hit_ends = 0;
    for (int t = 0; t < 2000; t++) {
        engine_action a;
        assert_int_equal(tool_action_draw(&a, &l, &r), 0);
        assert_int_equal(a.kind, ENGINE_ACTION_FREMEN_PLACE);
        assert_int_equal(a.seat, 3);
        assert_int_equal(a.arg[0] + a.arg[1] + a.arg[2], 10);
        assert_true(engine_legal_contains(&l, &a));
        hit_ends |= (a.arg[0] == 10) | ((a.arg[2] == 10) << 1);
    }
    assert_int_equal(hit_ends, 3);

    /* A thin solution set: only (7, 0, 3) adds up. */
    l.lo[0] = 7; l.hi[0] = 7;
    l.lo[1] = 0; l.hi[1] = 0;
    l.lo[2] = 0; l.hi[2] = 3;
    engine_action a;
    assert_int_equal(tool_action_draw(&a, &l, &r), 0);
    assert_int_equal(a.arg[0], 7);
    assert_int_equal(a.arg[2], 3);
    /* No solution at all. */
    l.sum = 11;
    assert_int_equal(tool_action_draw(&a, &l, &r), -1);
}

static void test_play__draw_without_sum_stays_in_range(void **state)
{
    (void)state;
    engine_legal l;
    memset(&l, 0, sizeof l);
    l.kind = ENGINE_ACTION_STORM_DIAL;
    l.seat = 0;
    l.sum = -1;
    l.lo[0] = 1;
    l.hi[0] = 3;
    tool_prng r;
    tool_prng_init(&r, 2);
    for (int t = 0; t < 300; t++) {
        engine_action a;
        assert_int_equal(tool_action_draw(&a, &l, &r), 0);
        assert_true(a.arg[0] >= 1 && a.arg[0] <= 3);
        for (int i = 1; i < ENGINE_ACTION_MAX_ARGS; i++)
            assert_int_equal(a.arg[i], 0);
    }
    l.kind = ENGINE_ACTION_NONE;
    engine_action a;
    assert_int_equal(tool_action_draw(&a, &l, &r), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_play__range_is_covered_and_bounded),
        cmocka_unit_test(test_play__same_seed_same_stream),
        cmocka_unit_test(test_play__draw_respects_the_sum),
        cmocka_unit_test(test_play__draw_without_sum_stays_in_range),
    };
    return cmocka_run_group_tests_name("play", tests, NULL, NULL);
}
