/*
 * bench/proof.c - Merkle proofs, timed: an inclusion proof of a random
 * version and a consistency proof from a random size, both in the tree
 * of one room's first n events (ledger_proof_inclusion,
 * ledger_proof_consistency), each made from the ledger file and checked
 * as a seat would check it.
 *
 * Layer: tools; bench only. It never writes a ledger. The timing covers
 * making the proof (its read transaction included), not checking it; a
 * proof that does not check fails the bench.
 */
#include <stdlib.h>

#include "tools/internal.h"

int bench_proof_us(double *inclusion_us_out, double *consistency_us_out, bench_ctx *c,
                   ledger *db, const bench_room *room, uint32_t size, unsigned n_samples)
{
    if (size < 2 || n_samples == 0)
        return bench_fail(c, "no tree to prove in");
    ledger_tree_head head;
    int rc = ledger_tree_head_get(db, &head, room->room, size);
    if (rc != 0)
        return bench_ledger_fail(c, db, rc, "tree head");
    double *inc = calloc(n_samples, sizeof *inc), *con = calloc(n_samples, sizeof *con);
    int ret = -1;
    if (inc == NULL || con == NULL) {
        bench_fail(c, "out of memory");
        goto out;
    }
    for (unsigned i = 0; i < n_samples; i++) {
        ledger_tree_proof p;
        ledger_tree_head old;
        uint8_t hash[SCHEMA_HASH_BYTES], leaf[LEDGER_TREE_HASH_BYTES];
        uint32_t v = (uint32_t)tool_prng_range(&c->chooser, 1, (int32_t)size);
        double t0 = bench_now();
        rc = ledger_proof_inclusion(db, &p, hash, room->room, v, size);
        inc[i] = (bench_now() - t0) * 1e6;
        ledger_merkle_leaf_hash(leaf, hash, sizeof hash);
        if (rc != 0) {
            bench_ledger_fail(c, db, rc, "inclusion proof");
            goto out;
        }
        if (ledger_merkle_inclusion_verify(v - 1, size, leaf, &p, head.root) != 0) {
            bench_fail(c, "the inclusion proof of version %u does not check", v);
            goto out;
        }
        uint32_t m = (uint32_t)tool_prng_range(&c->chooser, 1, (int32_t)size - 1);
        rc = ledger_tree_head_get(db, &old, room->room, m);
        if (rc != 0) {
            bench_ledger_fail(c, db, rc, "tree head");
            goto out;
        }
        t0 = bench_now();
        rc = ledger_proof_consistency(db, &p, room->room, m, size);
        con[i] = (bench_now() - t0) * 1e6;
        if (rc != 0) {
            bench_ledger_fail(c, db, rc, "consistency proof");
            goto out;
        }
        if (ledger_merkle_consistency_verify(m, size, &p, old.root, head.root) != 0) {
            bench_fail(c, "the consistency proof from %u events does not check", m);
            goto out;
        }
    }
    *inclusion_us_out = bench_median(inc, n_samples);
    *consistency_us_out = bench_median(con, n_samples);
    ret = 0;
out:
    free(inc);
    free(con);
    return ret;
}
