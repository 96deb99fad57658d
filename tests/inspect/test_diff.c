/*
 * test_diff.c - the difference between versions: between every pair of
 * consecutive versions of a played game it reports the action's effect
 * (forces where a seat shipped or moved, unless its ally stood there or a
 * Karama window holds the action; the card a buyer gained, each
 * seat's spice, the phase), nothing between a version and itself, and, in
 * a seat's views, no card face the seat has not seen.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tests/inspect/helpers.h"

/* The advantages the open Karama window offers (0 none), and those a
 * Karama cancelled until the retake. */
static uint32_t offered(const engine_state *st)
{
    const engine_frame *f = engine_window_find(st, ENGINE_WINDOW_KARAMA);
    return f ? f->rows : 0;
}

#define CHANGES_MAX 4096

static int setup(void **state)
{
    engine_config cfg;
    test_config_six(&cfg);
    *state = ifix_new(&cfg, 0xd1ff0001u, 3000, 8);
    return 0;
}

static int teardown(void **state)
{
    ifix_free(*state);
    return 0;
}

static const inspect_change *find(const inspect_change *c, size_t n, unsigned kind, int seat,
                                  int where)
{
    for (size_t i = 0; i < n; i++)
        if (c[i].kind == kind && (seat < 0 || c[i].seat == seat) &&
            (where < 0 || c[i].where == where))
            return &c[i];
    return NULL;
}

/* 1 if `seat`'s ally has forces in the territory of `loc`: forces moving
 * there are lost (LR 1.06.07), so none arrive. */
static int beside_ally(const engine_state *st, unsigned seat, int loc)
{
    unsigned a = st->ally[seat], t = engine_location_territory((unsigned)loc);
    if (a >= st->config.n_seats || t == ENGINE_TERRITORY_POLAR_SINK)
        return 0;
    for (unsigned l = 0; l < ENGINE_LOCATION_COUNT; l++)
        if (engine_location_territory(l) == t && (st->forces[l][a] || st->special[l][a]))
            return 1;
    return 0;
}

static void test_diff__consecutive_versions_show_the_action(void **state)
{
    ifix *f = *state;
    static engine_state a, b;
    inspect_change *c = malloc(CHANGES_MAX * sizeof *c);
    assert_non_null(c);
    unsigned n_ships = 0, n_moves = 0, n_sales = 0;
    ifix_state(f, &a, 0);
    assert_int_equal(inspect_diff(c, CHANGES_MAX, &a, &a), 0);
    for (uint32_t v = 1; v <= f->head; v++) {
        ifix_state(f, &b, v);
        codec_event ev;
        assert_int_equal(ledger_event_get(f->db, &ev, f->room, v), 0);
        size_t n = inspect_diff(c, CHANGES_MAX, &a, &b);
        assert_true(n <= CHANGES_MAX);
        /* (1): a fixed order, by kind. */
        for (size_t i = 1; i < n; i++)
            assert_true(c[i - 1].kind <= c[i].kind);
        const engine_action *x = &ev.action;
        if ((x->kind == ENGINE_ACTION_SHIP || x->kind == ENGINE_ACTION_FREMEN_SEND) &&
            x->arg[1] > 0) {
            const inspect_change *ch = find(c, n, INSPECT_CHANGE_FORCES, x->seat, x->arg[0]);
            if (offered(&b) == 0 && !beside_ally(&a, x->seat, x->arg[0])) {
                if (ch == NULL || ch->after <= ch->before)
                    fail_msg("version %u: a shipment of %d to location %d shows no forces arriving",
                             v, x->arg[1], x->arg[0]);
                assert_non_null(find(c, n, INSPECT_CHANGE_RESERVES, x->seat, -1));
                n_ships++;
            }
        }
        /* A move within its own territory changes nothing. */
        if (x->kind == ENGINE_ACTION_MOVE && x->arg[2] > 0 &&
            engine_location_territory((unsigned)x->arg[1]) != (unsigned)x->arg[0]) {
            const inspect_change *ch = find(c, n, INSPECT_CHANGE_FORCES, x->seat, x->arg[1]);
            if ((ch == NULL || ch->after <= ch->before) && offered(&b) == 0 &&
                !beside_ally(&a, x->seat, x->arg[1]))
                fail_msg("version %u: a move to location %d shows no forces arriving", v,
                         x->arg[1]);
            n_moves++;
        }
        for (unsigned k = 0; k < b.n_cards; k++)
            if (a.card[k].place == ENGINE_PLACE_AUCTION && b.card[k].place == ENGINE_PLACE_HAND) {
                const inspect_change *ch =
                    find(c, n, INSPECT_CHANGE_CARD_GAINED, b.card[k].holder, (int)k);
                assert_non_null(ch);
                assert_int_equal(ch->after, b.card_kind[k]);
                n_sales++;
            }
        for (uint8_t s = 0; s < b.config.n_seats; s++) {
            const inspect_change *ch = find(c, n, INSPECT_CHANGE_SEAT_SPICE, s, -1);
            if (a.seat[s].spice == b.seat[s].spice) {
                assert_null(ch);
            } else {
                assert_non_null(ch);
                assert_int_equal(ch->before, a.seat[s].spice);
                assert_int_equal(ch->after, b.seat[s].spice);
            }
        }
        const inspect_change *ph = find(c, n, INSPECT_CHANGE_PHASE, -1, -1);
        assert_int_equal(ph != NULL, a.phase != b.phase);
        for (size_t i = 0; i < n; i++)
            assert_true(c[i].text[0] != '\0');
        a = b;
    }
    assert_true(n_ships > 0);
    assert_true(n_moves > 0);
    assert_true(n_sales > 0);
    free(c);
}

static void test_diff__a_seat_sees_no_unseen_face(void **state)
{
    ifix *f = *state;
    static engine_state a, b, va, vb;
    inspect_change *c = malloc(CHANGES_MAX * sizeof *c);
    assert_non_null(c);
    unsigned n_unknown = 0;
    uint32_t step = f->head / 40 + 1;
    for (uint32_t v = step; v <= f->head; v += step) {
        ifix_state(f, &a, v - step);
        ifix_state(f, &b, v);
        for (unsigned s = 0; s <= 6; s++) {
            uint8_t viewer = s < 6 ? (uint8_t)s : ENGINE_VIEW_PUBLIC;
            assert_int_equal(inspect_room_replay(&va, f->db, f->room, v - step, viewer), 0);
            assert_int_equal(inspect_room_replay(&vb, f->db, f->room, v, viewer), 0);
            size_t n = inspect_diff(c, CHANGES_MAX, &va, &vb);
            for (size_t i = 0; i < n && i < CHANGES_MAX; i++) {
                if (c[i].kind != INSPECT_CHANGE_CARD_GAINED && c[i].kind != INSPECT_CHANGE_CARD_LOST)
                    continue;
                unsigned k = (unsigned)c[i].where;
                int32_t face = c[i].kind == INSPECT_CHANGE_CARD_GAINED ? c[i].after : c[i].before;
                int known = (b.card[k].known_by & ENGINE_KNOWN_PUBLIC) ||
                            (a.card[k].known_by & ENGINE_KNOWN_PUBLIC) ||
                            (viewer < 6 && ((((unsigned)b.card[k].known_by | a.card[k].known_by) >> viewer) & 1u));
                if (face == ENGINE_CARD_KIND_UNKNOWN)
                    n_unknown++;
                else if (!known)
                    fail_msg("versions %u..%u, viewer %u: %s names a card it has not seen",
                             v - step, v, viewer, c[i].text);
            }
        }
    }
    assert_true(n_unknown > 0);
    free(c);
}

static void test_diff__names_and_overflow(void **state)
{
    ifix *f = *state;
    static engine_state a, b;
    ifix_state(f, &a, 0);
    ifix_state(f, &b, f->head);
    inspect_change few[3];
    size_t n = inspect_diff(few, 3, &a, &b);
    assert_true(n > 3); /* counted past cap, written up to it */
    assert_string_equal(inspect_change_kind_name(INSPECT_CHANGE_BOARD_SPICE), "board_spice");
    assert_string_equal(inspect_change_kind_name(INSPECT_CHANGE_KIND_COUNT), "?");
    for (unsigned k = 0; k < INSPECT_CHANGE_KIND_COUNT; k++)
        assert_string_not_equal(inspect_change_kind_name(k), "?");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_diff__consecutive_versions_show_the_action),
        cmocka_unit_test(test_diff__a_seat_sees_no_unseen_face),
        cmocka_unit_test(test_diff__names_and_overflow),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
