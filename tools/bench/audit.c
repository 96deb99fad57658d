/*
 * bench/audit.c - the bench's audit figure: seconds for the
 * hidden-information audit (inspect_audit_room, default pairs and steps,
 * every output path of tools/audit_outputs.c) of one complete 6-seat
 * Basic game.
 *
 * Layer: tools. The room is played to its end with the bench's chooser
 * and appended through ledger_append to a ledger in the run's directory
 * (not timed); only the audit, which reads the ledger, unseals the seed
 * with the run's audit key, re-folds every event and replays its pairs,
 * is inside the clock.
 */
#include <stdlib.h>
#include <string.h>

#include "inspect/inspect.h"
#include "tools/internal.h"

#define AUDIT_GAME_MAX_ACTIONS 20000u

/* Creates a 6-seat Basic room of the standard length in db and plays it
 * to its end. */
static int audit_room_make(char room[SCHEMA_ROOM_CHARS + 1], uint32_t *n_events_out,
                           bench_ctx *c, ledger *db)
{
    engine_config cfg;
    engine_config_init(&cfg);
    cfg.n_seats = ENGINE_MAX_SEATS;
    for (unsigned s = 0; s < ENGINE_MAX_SEATS; s++)
        cfg.faction[s] = (uint8_t)(ENGINE_FACTION_CLASSIC_FIRST + s);
    int rc = ledger_room_create(db, room, &cfg);
    if (rc != 0)
        return bench_ledger_fail(c, db, rc, "audit room create");
    engine_legal *legal = malloc(ENGINE_LEGAL_MAX * sizeof *legal);
    engine_state *st = malloc(sizeof *st);
    int ret = -1;
    if (legal == NULL || st == NULL) {
        ret = bench_fail(c, "out of memory");
        goto out;
    }
    uint32_t v = 0;
    for (; v < AUDIT_GAME_MAX_ACTIONS; v++) {
        rc = ledger_state_at(db, st, room, v);
        if (rc != 0) {
            ret = bench_ledger_fail(c, db, rc, "audit room state");
            goto out;
        }
        size_t n = engine_legal_actions(legal, ENGINE_LEGAL_MAX, st, ENGINE_SEAT_ENGINE);
        if (n == 0)
            break;
        if (n > ENGINE_LEGAL_MAX)
            n = ENGINE_LEGAL_MAX;
        engine_action act;
        if (tool_action_draw(&act, &legal[tool_prng_range(&c->chooser, 0, (int32_t)n - 1)],
                             &c->chooser) != 0) {
            ret = bench_fail(c, "audit room: an empty family at version %u", v);
            goto out;
        }
        ledger_append_result res;
        rc = ledger_append(db, &res, room, v, &act);
        if (rc != 0) {
            ret = bench_ledger_fail(c, db, rc, "audit room append");
            goto out;
        }
        if (res.verdict != ENGINE_ACCEPTED) {
            ret = bench_fail(c, "audit room version %u: a legal action refused (%s)", v + 1,
                             engine_verdict_name(res.verdict));
            goto out;
        }
    }
    if (st->phase != ENGINE_PHASE_GAME_OVER) {
        ret = bench_fail(c, "audit room: the game stopped at version %u before its end", v);
        goto out;
    }
    *n_events_out = v;
    ret = 0;
out:
    free(legal);
    free(st);
    return ret;
}

int bench_audit_game_s(double *seconds_out, uint32_t *n_events_out, bench_ctx *c,
                       unsigned repeats)
{
    char path[BENCH_PATH_MAX];
    bench_path_new(path, c, "audit.db");
    ledger *db;
    if (bench_ledger_open(&db, c, path, 1) != 0)
        return -1;
    inspect_audit_report *rep = malloc(sizeof *rep);
    double runs[16];
    int ret = -1;
    char room[SCHEMA_ROOM_CHARS + 1];
    if (rep == NULL) {
        ret = bench_fail(c, "out of memory");
        goto out;
    }
    bench_progress(c, "audit: playing a 6-seat game");
    if (audit_room_make(room, n_events_out, c, db) != 0)
        goto out;
    if (repeats > sizeof runs / sizeof runs[0])
        repeats = sizeof runs / sizeof runs[0];
    for (unsigned k = 0; k < repeats; k++) {
        bench_progress(c, "audit: run %u/%u", k + 1, repeats);
        inspect_audit_options opt;
        inspect_audit_options_init(&opt);
        opt.keys_dir = c->keys_dir;
        /* As `mentat audit` runs it: every output path compared too. */
        inspect_audit_observer obs = inspect_audit_genuine;
        obs.outputs = tool_audit_outputs(&obs.n_outputs);
        opt.observer = &obs;
        double t0 = bench_now();
        int rc = inspect_audit_room(rep, db, room, &opt);
        runs[k] = bench_now() - t0;
        if (rc != 0) {
            ret = bench_fail(c, "audit of room %s: %s", room, rep->errmsg);
            goto out;
        }
    }
    *seconds_out = bench_median(runs, repeats);
    ret = 0;
out:
    free(rep);
    bench_ledger_drop(db, path);
    return ret;
}
