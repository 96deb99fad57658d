/*
 * bench/room.c - the rooms the bench plays and their streams of legal
 * actions.
 *
 * Layer: tools. A room is created in a real ledger (its seed drawn and
 * sealed by the ledger), its seed is revealed with ledger_reveal (forced:
 * the game is not over) and the game is played in memory, action by
 * action, from engine_legal_actions with the bench's own chooser, the
 * engine folding each one with the room's randomness. Nothing is appended
 * here: the stream is what the timed runs then submit, so choosing an
 * action is never inside a clock, and the SQLite peer folds the very same
 * games. Events never bypass the engine: every action of a stream is one
 * the engine offered and accepted where it stands. Every room binds its
 * seats to the run's seat keys, and each append carries the acting seat's
 * signature, made inside the clock as its client would make it.
 */
#include <stdlib.h>
#include <string.h>

#include "tools/internal.h"

/* Six seats of the Basic game played to the longest turn limit, so one
 * room's history runs past BENCH_LONG_HISTORY events. */
void bench_config_init(engine_config *cfg)
{
    engine_config_init(cfg);
    cfg->n_seats = ENGINE_MAX_SEATS;
    for (unsigned s = 0; s < ENGINE_MAX_SEATS; s++)
        cfg->faction[s] = (uint8_t)(ENGINE_FACTION_CLASSIC_FIRST + s);
    cfg->turn_limit = ENGINE_MAX_TURN_LIMIT;
}

void bench_room_free(bench_room *r)
{
    if (r == NULL)
        return;
    free(r->action);
    r->action = NULL;
    r->n_actions = 0;
}

/* Grows r->action to hold at least n actions: 0 or -1. */
static int reserve(bench_room *r, uint32_t *cap, uint32_t n)
{
    if (n <= *cap)
        return 0;
    uint32_t want = *cap != 0 ? *cap * 2 : 16;
    if (want < n)
        want = n;
    engine_action *p = realloc(r->action, (size_t)want * sizeof *p);
    if (p == NULL)
        return -1;
    r->action = p;
    *cap = want;
    return 0;
}

int bench_room_new(bench_room *out, bench_ctx *c, ledger *db, uint32_t max_actions,
                   const ledger_seat_keys *seats)
{
    memset(out, 0, sizeof *out);
    engine_config cfg;
    bench_config_init(&cfg);
    int rc = ledger_room_create_bound(db, out->room, &cfg, NULL, seats);
    if (rc != 0)
        return bench_ledger_fail(c, db, rc, "room create");
    rc = ledger_reveal(db, out->seed, out->room, 1);
    if (rc != 0)
        return bench_ledger_fail(c, db, rc, "reveal");
    rc = ledger_state_at(db, &out->opening, out->room, 0);
    if (rc == 0)
        rc = ledger_chain_hash(db, out->genesis_hash, out->room, 0);
    if (rc != 0)
        return bench_ledger_fail(c, db, rc, "opening position");

    engine_legal legal[ENGINE_LEGAL_MAX];
    engine_state st = out->opening;
    uint32_t cap = 0;
    while (out->n_actions < max_actions) {
        size_t n = engine_legal_actions(legal, ENGINE_LEGAL_MAX, &st, ENGINE_SEAT_ENGINE);
        if (n == 0)
            break;
        if (n > ENGINE_LEGAL_MAX)
            n = ENGINE_LEGAL_MAX;
        const engine_legal *fam = &legal[tool_prng_range(&c->chooser, 0, (int32_t)n - 1)];
        engine_action act;
        if (tool_action_draw(&act, fam, &c->chooser) != 0)
            return bench_fail(c, "room %s version %u: the engine offered an empty family",
                              out->room, out->n_actions);
        engine_rng rng;
        engine_rng_init(&rng, out->seed, out->n_actions + 1);
        engine_verdict v = engine_apply(NULL, &st, &act, &rng);
        if (v != ENGINE_ACCEPTED) {
            const char *name = engine_verdict_name(v);
            return bench_fail(c, "room %s version %u: a legal action was refused: %s",
                              out->room, out->n_actions + 1, name != NULL ? name : "?");
        }
        if (reserve(out, &cap, out->n_actions + 1) != 0)
            return bench_fail(c, "out of memory");
        out->action[out->n_actions++] = act;
    }
    return 0;
}

static int rooms_add(bench_rooms *rs, bench_ctx *c, ledger *db, uint32_t max_actions,
                     const ledger_seat_keys *seats)
{
    if (rs->n == rs->cap) {
        size_t cap = rs->cap != 0 ? rs->cap * 2 : 32;
        bench_room *p = realloc(rs->room, cap * sizeof *p);
        if (p == NULL)
            return bench_fail(c, "out of memory");
        rs->room = p;
        rs->cap = cap;
    }
    bench_room *r = &rs->room[rs->n];
    if (bench_room_new(r, c, db, max_actions, seats) != 0) {
        bench_room_free(r);
        return -1;
    }
    rs->n++;
    return 0;
}

int bench_rooms_add(bench_rooms *rs, bench_ctx *c, ledger *db, uint32_t max_actions)
{
    return rooms_add(rs, c, db, max_actions, &c->seat_keys);
}

int bench_rooms_add_unbound(bench_rooms *rs, bench_ctx *c, ledger *db, uint32_t max_actions)
{
    return rooms_add(rs, c, db, max_actions, NULL);
}

void bench_rooms_free(bench_rooms *rs)
{
    for (size_t i = 0; i < rs->n; i++)
        bench_room_free(&rs->room[i]);
    free(rs->room);
    memset(rs, 0, sizeof *rs);
}

const uint8_t *bench_seat_sign(const bench_ctx *c, uint8_t sig[SCHEMA_SIG_BYTES],
                               const char *room, uint32_t version,
                               const uint8_t prev[SCHEMA_HASH_BYTES], const engine_action *act)
{
    if (act->seat >= ENGINE_MAX_SEATS ||
        ledger_seat_sign(sig, c->seat_sk[act->seat], room, version, prev, act) != 0)
        return NULL;
    return sig;
}

int bench_room_append(bench_ctx *c, ledger *db, const bench_room *r, uint32_t i)
{
    ledger_append_result res;
    uint8_t prev[SCHEMA_HASH_BYTES], sig[SCHEMA_SIG_BYTES];
    int rc = ledger_chain_hash(db, prev, r->room, i); /* what the seat's client holds */
    if (rc != 0)
        return bench_ledger_fail(c, db, rc, "chain hash");
    rc = ledger_append_signed(db, &res, r->room, i, &r->action[i],
                              bench_seat_sign(c, sig, r->room, i, prev, &r->action[i]));
    if (rc != 0)
        return bench_ledger_fail(c, db, rc, "append");
    if (res.verdict != ENGINE_ACCEPTED || res.is_retry) {
        const char *name = engine_verdict_name(res.verdict);
        return bench_fail(c, "room %s version %u: append %s", r->room, i + 1,
                          res.is_retry ? "taken for a retry" : name != NULL ? name : "?");
    }
    return 0;
}
