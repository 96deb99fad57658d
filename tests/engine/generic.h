/*
 * generic.h - what the suites of the generic kinds share
 * (tests/engine/test_points.c: a made-up power; test_windows.c: a made-up
 * window): the two-seat position they start from, the check that the
 * state JSON tells a generic family from its row with an example `act`
 * reads back, playing a genuine six-seat room until a generic family is
 * offered, and the walk over every generic row that a bot's default
 * answers. Test code only: static inline, asserts with cmocka.
 */
#ifndef MENTAT_TESTS_ENGINE_GENERIC_H
#define MENTAT_TESTS_ENGINE_GENERIC_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/phase.h"
#include "inspect/inspect.h"
#include "schema/schema.h"
#include "tests/ledger/helpers.h"
#include "tools/internal.h"

enum { GENERIC_EMPEROR_SEAT = 0, GENERIC_HARKONNEN_SEAT = 1 };

/* Emperor (seat 0) and Harkonnen (seat 1) each with 3 forces on The
 * Great Flat (sector 14), the storm far away, under `rules_version`, in
 * the MOVE step of seat `mover`. */
static inline void generic_position(engine_state *st, unsigned rules_version, unsigned mover,
                                    const uint8_t seed[ENGINE_SEED_BYTES])
{
    engine_config cfg;
    engine_config_init(&cfg);
    cfg.rules_version = (uint16_t)rules_version;
    cfg.n_seats = 2;
    cfg.faction[GENERIC_EMPEROR_SEAT] = ENGINE_FACTION_EMPEROR;
    cfg.faction[GENERIC_HARKONNEN_SEAT] = ENGINE_FACTION_HARKONNEN;
    engine_rng rng;
    engine_rng_init(&rng, seed, 0);
    assert_int_equal(engine_position_new(NULL, st, &cfg, &rng), ENGINE_ACCEPTED);
    int flat = engine_location_find(ENGINE_TERRITORY_THE_GREAT_FLAT, 14);
    assert_true(flat >= 0);
    for (uint8_t s = 0; s < 2; s++)
        assert_int_equal(engine_position_forces(st, s, (unsigned)flat, 3, 0), 0);
    assert_int_equal(engine_position_enter(st, ENGINE_PHASE_SHIPMENT_MOVEMENT, 2, 5, &rng), 0);
    /* Pass until the mover's MOVE step. */
    for (int guard = 0; guard < 8; guard++) {
        unsigned s = engine_state_awaiting(st) & (1u << GENERIC_EMPEROR_SEAT)
                         ? GENERIC_EMPEROR_SEAT : GENERIC_HARKONNEN_SEAT;
        if (s == mover && st->step == SHIP_STEP_MOVE)
            return;
        engine_action a;
        memset(&a, 0, sizeof a);
        a.kind = st->step == SHIP_STEP_SHIP ? ENGINE_ACTION_SHIP_PASS : ENGINE_ACTION_MOVE_PASS;
        a.seat = (uint8_t)s;
        assert_int_equal(engine_apply(NULL, st, &a, &rng), ENGINE_ACCEPTED);
    }
    fail_msg("the MOVE step of seat %u never came", mover);
}

/* The state JSON of generic family `l`: its kind, its row's slug under
 * the kind's id field ("power", "window"), every argument its form names,
 * and an example that `act` reads back and the family contains. */
static inline void generic_family_json(const engine_state *st, const engine_legal *l,
                                       const char *kind, const char *slug)
{
    char *buf = NULL, want[96], err[256];
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    assert_non_null(f);
    inspect_json j;
    inspect_json_init(&j, f);
    inspect_legal_json(&j, st, l);
    inspect_json_finish(&j);
    assert_int_equal(fclose(f), 0);
    snprintf(want, sizeof want, "\"kind\":\"%s\"", kind);
    assert_non_null(strstr(buf, want));
    snprintf(want, sizeof want, "\"%s\":\"%s\"", engine_action_spec_of(l->kind)->arg_name[0], slug);
    assert_non_null(strstr(buf, want));
    const engine_power_form *form = engine_generic_form(l->kind, l->lo[0]);
    assert_non_null(form);
    for (unsigned a = 0; a < form->n_args; a++) {
        snprintf(want, sizeof want, "\"name\":\"%s\"", form->arg_name[a]);
        assert_non_null(strstr(buf, want));
    }
    const char *ex = strstr(buf, "\"example\":");
    assert_non_null(ex);
    ex += strlen("\"example\":");
    /* the example is one object: up to its closing brace */
    const char *end = strchr(ex, '}');
    assert_non_null(end);
    engine_action e;
    assert_int_equal(codec_action_from_json(&e, ex, (size_t)(end + 1 - ex), err), 0);
    e.seat = l->seat;
    assert_true(engine_legal_contains(l, &e));
    free(buf);
}

/* Plays room `room` of `db` with the bots until the seat of `faction` is
 * offered a family of generic `kind` with id `id`: that seat, *head_out
 * the version and *st the state there. */
static inline unsigned generic_play_until(engine_state *st, uint32_t *head_out, ledger *db,
                                          const char *room, unsigned faction, unsigned kind, int id)
{
    static engine_legal legal[512];
    for (int guard = 0; guard < 2000; guard++) {
        assert_int_equal(ledger_head(db, room, head_out, NULL), 0);
        assert_int_equal(ledger_state_at(db, st, room, *head_out), 0);
        int s = engine__seat_of(st, faction);
        size_t n = s >= 0 ? engine_legal_actions(legal, 512, st, (uint8_t)s) : 0;
        for (size_t i = 0; i < n && i < 512; i++)
            if (legal[i].kind == kind && legal[i].lo[0] == id)
                return (unsigned)s;
        assert_int_equal(play(db, room, 1), 1);
    }
    fail_msg("no family of kind %u offered", kind);
    return 0;
}

/* Every row of `fam` at a generic point (a power, a window) is answered
 * by the bots' mapping: its kind has a decision, the row's default fills
 * its family (engine_generic_default) with the form's fallback, inside
 * the family. Returns the rows walked. */
static inline unsigned generic_rows_defaulted_in(const engine__power_family *fam)
{
    unsigned walked = 0;
    for (size_t i = 0; fam && i < fam->n; i++) {
        const engine__power_row *r = &fam->rows[i];
        if ((r->point != ENGINE__POINT_POWER && r->point != ENGINE__POINT_WINDOW) || !r->form)
            continue;
        unsigned kind = r->point == ENGINE__POINT_POWER ? ENGINE_ACTION_POWER
                                                        : ENGINE_ACTION_ANSWER;
        assert_int_not_equal(bot__decision_of(kind), BOT__DECISION_MISSING);
        engine_legal l;
        engine__legal_init(&l, kind, 0);
        l.lo[0] = l.hi[0] = engine_power_id(r->form->slug);
        for (unsigned a = 0; a < r->form->n_args; a++) {
            l.lo[1 + a] = r->form->lo[a];
            l.hi[1 + a] = r->form->hi[a];
        }
        engine_action d;
        assert_int_equal(engine_generic_default(&d, &l), 0);
        assert_true(engine_legal_contains(&l, &d));
        for (unsigned a = 0; a < r->form->n_args; a++)
            assert_int_equal(d.arg[1 + a], r->form->fallback[a]);
        walked++;
    }
    return walked;
}

/* The same over every family: the factions' and the Nexus cards'. */
static inline unsigned generic_rows_defaulted(void)
{
    unsigned walked = 0;
    for (unsigned f = 0; f < ENGINE_FACTION_COUNT; f++)
        walked += generic_rows_defaulted_in(engine__power_families[f]) +
                  generic_rows_defaulted_in(engine__nexus_families[f]);
    return walked;
}

#endif
