/*
 * test_replay.c - replaying a room to any version: the auditor's state at
 * every version equals an independent fold from the genesis (same digest,
 * and the digest stored in the event), through checkpoints; a seat's
 * replay is exactly its engine_view and shows no card of another seat it
 * has not seen, nor another seat's traitor; bad viewers and versions are
 * refused.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tests/inspect/helpers.h"

static int setup(void **state)
{
    engine_config cfg;
    test_config_six(&cfg);
    /* A checkpoint every 16 events: most versions fold from one. */
    ifix *f = ifix_new(&cfg, 0x5eed0001u, 3000, 16);
    assert_true(f->head > 100);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    ifix_free(*state);
    return 0;
}

static void test_replay__every_version_equals_fold_from_genesis(void **state)
{
    ifix *f = *state;
    uint8_t seed[ENGINE_SEED_BYTES];
    assert_int_equal(ledger_reveal(f->db, seed, f->room, 1), 0);
    ledger_room_info info;
    assert_int_equal(ledger_room_info_get(f->db, &info, f->room), 0);

    static engine_state fold, replayed;
    engine_rng rng;
    engine_verdict_detail why;
    engine_rng_init(&rng, seed, 0);
    memset(&fold, 0, sizeof fold);
    assert_int_equal(engine_setup(&why, &fold, &info.config, &rng), ENGINE_ACCEPTED);
    uint8_t a[ENGINE_DIGEST_BYTES], b[ENGINE_DIGEST_BYTES];
    for (uint32_t v = 0; v <= f->head; v++) {
        if (v > 0) {
            codec_event ev;
            assert_int_equal(ledger_event_get(f->db, &ev, f->room, v), 0);
            engine_rng_init(&rng, seed, v);
            assert_int_equal(engine_apply(&why, &fold, &ev.action, &rng), ENGINE_ACCEPTED);
            engine_state_digest(a, &fold);
            assert_memory_equal(a, ev.state_digest, ENGINE_DIGEST_BYTES);
        }
        assert_int_equal(inspect_room_replay(&replayed, f->db, f->room, v, ENGINE_SEAT_ENGINE),
                         0);
        engine_state_digest(a, &fold);
        engine_state_digest(b, &replayed);
        if (memcmp(a, b, sizeof a) != 0)
            fail_msg("version %u: the replay differs from the fold from genesis", v);
    }
}

/* Every card in another seat's hand whose face `viewer` has not seen is
 * unknown in its replay, every one it has seen is shown as it is; likewise
 * traitors. */
static void check_view(const engine_state *full, const engine_state *view, uint8_t viewer,
                       uint32_t v)
{
    for (unsigned c = 0; c < full->n_cards; c++) {
        const engine_card_state *cs = &full->card[c];
        int knows = viewer < full->config.n_seats && ((cs->known_by >> viewer) & 1u);
        if (cs->known_by & ENGINE_KNOWN_PUBLIC)
            knows = 1;
        if (knows)
            assert_int_equal(view->card_kind[c], full->card_kind[c]);
        else if (view->card_kind[c] != ENGINE_CARD_KIND_UNKNOWN)
            fail_msg("version %u, viewer %u: card %u (%s, place %u, holder %u) is shown", v,
                     viewer, c, engine_card_kind_name(full->card_kind[c]), cs->place, cs->holder);
    }
    for (unsigned l = 0; l < ENGINE_LEADER_COUNT; l++) {
        const engine_card_state *t = &full->traitor[l];
        if (t->place != ENGINE_PLACE_HAND || t->holder == viewer)
            continue;
        int knows = (t->known_by & ENGINE_KNOWN_PUBLIC) ||
                    (viewer < full->config.n_seats && ((t->known_by >> viewer) & 1u));
        if (!knows && view->traitor[l].place != ENGINE_PLACE_HIDDEN)
            fail_msg("version %u, viewer %u: the traitor %s of seat %u is shown", v, viewer,
                     engine_leader_name(l), t->holder);
    }
}

static void test_replay__seat_views_show_no_hidden_card(void **state)
{
    ifix *f = *state;
    static engine_state full, view, expect;
    unsigned n_hidden = 0;
    for (uint32_t v = 0; v <= f->head; v += 3) {
        ifix_state(f, &full, v);
        for (unsigned s = 0; s <= full.config.n_seats; s++) {
            uint8_t viewer = s < full.config.n_seats ? (uint8_t)s : ENGINE_VIEW_PUBLIC;
            assert_int_equal(inspect_room_replay(&view, f->db, f->room, v, viewer), 0);
            engine_view(&expect, &full, viewer);
            assert_memory_equal(&view, &expect, sizeof view);
            assert_int_equal(view.viewer, viewer);
            check_view(&full, &view, viewer, v);
            for (unsigned c = 0; c < view.n_cards; c++)
                n_hidden += view.card_kind[c] == ENGINE_CARD_KIND_UNKNOWN &&
                            full.card[c].place == ENGINE_PLACE_HAND;
        }
    }
    assert_true(n_hidden > 0); /* the game did hide hands */
}

static void test_replay__bad_viewer_and_version_refused(void **state)
{
    ifix *f = *state;
    static engine_state view;
    assert_int_equal(inspect_room_replay(&view, f->db, f->room, 1, 6), INSPECT_EINPUT);
    assert_int_equal(inspect_room_replay(&view, f->db, f->room, 1, 0x80), INSPECT_EINPUT);
    assert_int_equal(inspect_room_replay(&view, f->db, f->room, f->head + 1, 0),
                     LEDGER_ENOTFOUND);
    assert_int_equal(inspect_room_replay(&view, f->db, "ZZZZZZZZ", 0, 0), LEDGER_ENOTFOUND);
    engine_config cfg;
    test_config_six(&cfg);
    assert_true(inspect_viewer_is_valid(&cfg, 5));
    assert_false(inspect_viewer_is_valid(&cfg, 6));
    assert_true(inspect_viewer_is_valid(&cfg, ENGINE_VIEW_PUBLIC));
    assert_true(inspect_viewer_is_valid(&cfg, ENGINE_SEAT_ENGINE));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_replay__every_version_equals_fold_from_genesis),
        cmocka_unit_test(test_replay__seat_views_show_no_hidden_card),
        cmocka_unit_test(test_replay__bad_viewer_and_version_refused),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
