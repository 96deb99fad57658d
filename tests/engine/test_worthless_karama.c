/*
 * test_worthless_karama.c - the Karama that stops one use of a worthless
 * card the Bene Gesserit play as a Karama (Advanced, rules version 8;
 * FAQ20 p. 7; docs/RULINGS.md R113), through the engine API: their
 * shipment at the Guild's rate paid with a worthless card is held in a
 * Karama window offering bg_worthless_karama only from version 8 (under
 * version 7 it is made at once, and the advantage is not offered, so
 * the stored rooms' policies and digests stay as they were); the Karama
 * window's answers accepted are exactly its legal families. The rule
 * itself is tests/scenarios/advanced_karama_bg_worthless_stopped.json.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "engine/engine.h"
#include "tests/support/support.h"

static const uint8_t SEED[ENGINE_SEED_BYTES] = {12, 5, 20, 28};

enum { BG, EMPEROR, HARKONNEN };

#define WORTHLESS ENGINE_ADVANTAGE_BIT(ENGINE_ADVANTAGE_BG_WORTHLESS_KARAMA)

/* The Bene Gesserit holding La La La, the Emperor a Karama, in the Bene
 * Gesserit's shipment of an Advanced room of `version`. */
static void position(engine_state *st, unsigned version)
{
    static const uint8_t factions[3] = {ENGINE_FACTION_BENE_GESSERIT, ENGINE_FACTION_EMPEROR,
                                        ENGINE_FACTION_HARKONNEN};
    test_position_table(st, 3, factions, 1, version, SEED, 10);
    assert_true(engine_position_give_card(st, BG, ENGINE_CARD_LA_LA_LA) >= 0);
    assert_true(engine_position_give_card(st, EMPEROR, ENGINE_CARD_KARAMA) >= 0);
    engine_rng rng;
    engine_rng_init(&rng, SEED, 1);
    assert_int_equal(engine_position_enter(st, ENGINE_PHASE_SHIPMENT_MOVEMENT, 3, 0, &rng), 0);
    assert_int_equal(engine_state_awaiting(st), 1u << BG);
}

static engine_verdict apply(engine_state *st, const engine_action *act)
{
    engine_rng rng;
    engine_rng_init(&rng, SEED, 2);
    return engine_apply(NULL, st, act, &rng);
}

static void test_worthless_karama__stoppable_from_version_8(void **state)
{
    (void)state;
    int loc = engine_location_find(ENGINE_TERRITORY_THE_GREAT_FLAT, 14);
    assert_true(loc >= 0);
    for (unsigned version = 7; version <= 8; version++) {
        engine_state st;
        position(&st, version);
        assert_int_equal((engine_karama_offered(&st) & WORTHLESS) != 0, version == 8);
        engine_action ship = {.kind = ENGINE_ACTION_SHIP, .seat = BG,
                              .arg = {(int16_t)loc, 2, 0, 1}};
        assert_true(test_legal_contains(&st, &ship));
        assert_int_equal(apply(&st, &ship), ENGINE_ACCEPTED);
        const engine_frame *f = engine_window_top(&st);
        if (version == 7) {
            assert_null(f); /* made at once: 2 spice at the Karama rate */
            assert_int_equal(st.forces[loc][BG], 2);
            continue;
        }
        assert_non_null(f);
        assert_int_equal(f->point, ENGINE_WINDOW_KARAMA);
        assert_int_equal(f->rows, WORTHLESS);
        assert_int_equal(f->asked, 1u << EMPEROR);
        assert_int_equal(st.forces[loc][BG], 0);
        assert_int_equal(test_state_round_trip(&st), 0);
        /* the answers accepted are exactly the families: allow, or a
         * cancel naming the one advantage offered */
        unsigned accepted = 0;
        for (int a = 0; a < ENGINE_ADVANTAGE_COUNT + 1; a++)
            for (unsigned kind = ENGINE_ACTION_KARAMA_CANCEL; kind <= ENGINE_ACTION_KARAMA_ALLOW;
                 kind++) {
                engine_action ans = {.kind = (uint8_t)kind, .seat = EMPEROR, .arg = {(int16_t)a}};
                if (kind == ENGINE_ACTION_KARAMA_ALLOW && a != 0)
                    continue;
                engine_state w = st;
                int ok = apply(&w, &ans) == ENGINE_ACCEPTED;
                assert_int_equal(ok, test_legal_contains(&st, &ans));
                if (!ok) {
                    assert_memory_equal(&w, &st, sizeof st);
                    continue;
                }
                accepted++;
                int stopped = kind == ENGINE_ACTION_KARAMA_CANCEL;
                assert_int_equal(w.forces[loc][BG], stopped ? 0 : 2);
                /* the worthless card is discarded either way */
                assert_int_equal(engine_karama_card(&w, BG), 0xFFu);
            }
        assert_int_equal(accepted, 2u);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_worthless_karama__stoppable_from_version_8),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
