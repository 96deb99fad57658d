/*
 * helpers.h - what the inspect suites share: a fresh ledger with real keys
 * in a temporary directory, and a room played to its end (or a cap) with
 * random legal actions through the real append path, its receipts kept.
 * The room's seed and the choice of actions both follow from one seed, so
 * a suite plays the same game every run.
 *
 * Included by tests/inspect/test_*.c and tests/tools/test_scenario_export.c;
 * every function is static inline
 * so a suite that does not use one does not warn.
 */
#ifndef MENTAT_TESTS_INSPECT_HELPERS_H
#define MENTAT_TESTS_INSPECT_HELPERS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "inspect/inspect.h"
#include "tests/support/support.h"

typedef struct ifix {
    char dir[64];                  /* the temporary directory */
    char path[128];                /* dir/mentat.db */
    char keys[128];                /* dir/keys */
    ledger *db;                    /* open handle */
    char room[SCHEMA_ROOM_CHARS + 1];
    uint32_t head;                 /* versions played */
    codec_receipt *receipt;        /* receipt[v - 1] is version v's; owned */
} ifix;

/* A ledger with one room of cfg played with random legal actions (seed
 * `seed`) until no seat may act or max_actions are appended; checkpoints
 * every `checkpoint_every` events. */
static inline ifix *ifix_new(const engine_config *cfg, uint64_t seed, uint32_t max_actions,
                             unsigned checkpoint_every)
{
    ifix *f = calloc(1, sizeof *f);
    assert_non_null(f);
    snprintf(f->dir, sizeof f->dir, "/tmp/mentat-inspect-XXXXXX");
    assert_non_null(mkdtemp(f->dir));
    snprintf(f->path, sizeof f->path, "%s/mentat.db", f->dir);
    snprintf(f->keys, sizeof f->keys, "%s/keys", f->dir);
    char err[SCHEMA_ERRMSG] = "";
    assert_int_equal(ledger_keygen(f->keys, err), 0);
    ledger_options opt;
    ledger_options_init(&opt);
    opt.path = f->path;
    opt.keys_dir = f->keys;
    opt.checkpoint_every = checkpoint_every;
    opt.is_unsafe_no_sync = 1; /* hundreds of commits; durability is not under test */
    int rc = ledger_open(&f->db, &opt);
    if (rc != 0)
        fprintf(stderr, "ledger_open: %s\n", ledger_errmsg(f->db));
    assert_int_equal(rc, 0);
    /* The room's seed from the play seed: the same game every run. */
    uint8_t room_seed[ENGINE_SEED_BYTES];
    uint64_t x = seed;
    for (size_t i = 0; i < sizeof room_seed; i++)
        room_seed[i] = (uint8_t)test_prng_next(&x);
    rc = ledger_room_create_seeded(f->db, f->room, cfg, room_seed);
    if (rc != 0)
        fprintf(stderr, "ledger_room_create: %s\n", ledger_errmsg(f->db));
    assert_int_equal(rc, 0);
    f->receipt = calloc(max_actions + 1u, sizeof *f->receipt);
    assert_non_null(f->receipt);
    static engine_state st;
    uint64_t prng = seed;
    while (f->head < max_actions) {
        assert_int_equal(ledger_state_at(f->db, &st, f->room, f->head), 0);
        engine_action act;
        if (test_random_legal(&act, &st, &prng) != 0)
            break;
        ledger_append_result res;
        rc = ledger_append(f->db, &res, f->room, f->head, &act);
        if (rc != 0)
            fprintf(stderr, "ledger_append: %s\n", ledger_errmsg(f->db));
        assert_int_equal(rc, 0);
        assert_int_equal(res.verdict, ENGINE_ACCEPTED);
        f->receipt[f->head] = res.receipt;
        f->head++;
    }
    return f;
}

static inline void ifix_free(ifix *f)
{
    if (f == NULL)
        return;
    ledger_close(f->db);
    const char *keep = getenv("MENTAT_KEEP_TMP");
    if (keep != NULL && keep[0] == '1')
        fprintf(stderr, "kept %s\n", f->dir);
    else
        test_rm_tree(f->dir);
    free(f->receipt);
    free(f);
}

/* inspect_room_verify of the fixture's room with receipts r[0..n),
 * asserting it reaches a verdict. */
static inline void ifix_verify(ifix *f, inspect_verify_report *rep, const codec_receipt *r,
                               size_t n)
{
    int rc = inspect_room_verify(rep, f->db, f->room, r, n, 1);
    if (rc != 0)
        fprintf(stderr, "inspect_room_verify: %s\n", ledger_errmsg(f->db));
    assert_int_equal(rc, 0);
}

/* The full state after version v (asserting it can be had). */
static inline void ifix_state(ifix *f, engine_state *out, uint32_t v)
{
    int rc = ledger_state_at(f->db, out, f->room, v);
    if (rc != 0)
        fprintf(stderr, "ledger_state_at %u: %s\n", v, ledger_errmsg(f->db));
    assert_int_equal(rc, 0);
}

/* The state document d as JSON text (inspect_state_json), finished;
 * free it. */
static inline char *ifix_state_json(const inspect_state_doc *d)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    inspect_json j;
    inspect_json_init(&j, f);
    inspect_state_json(&j, d);
    inspect_json_finish(&j);
    assert_int_equal(fclose(f), 0);
    return buf;
}

#endif
