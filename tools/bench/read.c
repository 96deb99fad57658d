/*
 * bench/read.c - reading back, timed: the state at a version
 * (ledger_state_at), whole-room verification (ledger_verify_room) and the
 * raw primitive verification is measured against
 * (crypto_sign_verify_detached).
 *
 * Layer: tools; bench only. It never writes a ledger. The raw rate is
 * taken in the same run on messages of an event's size, so that the ratio
 * says how close verifying a room comes to checking its signatures and
 * nothing else.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "tools/internal.h"

#define RAW_MESSAGE_BYTES 150
#define RAW_MESSAGES 64
#define RAW_MAX_THREADS 2

int bench_replay_ms(double *ms_out, bench_ctx *c, ledger *db, const bench_room *room,
                    uint32_t n_versions, unsigned n_samples)
{
    if (n_versions == 0 || n_samples == 0)
        return bench_fail(c, "nothing to replay");
    double *ms = calloc(n_samples, sizeof *ms);
    if (ms == NULL)
        return bench_fail(c, "out of memory");
    int ret = -1;
    for (unsigned i = 0; i < n_samples; i++) {
        uint32_t v = (uint32_t)tool_prng_range(&c->chooser, 1, (int32_t)n_versions);
        engine_state st;
        double t0 = bench_now();
        int rc = ledger_state_at(db, &st, room->room, v);
        ms[i] = (bench_now() - t0) * 1e3;
        if (rc != 0) {
            bench_ledger_fail(c, db, rc, "state at");
            goto out;
        }
    }
    *ms_out = bench_median(ms, n_samples);
    ret = 0;
out:
    free(ms);
    return ret;
}

int bench_verify_rate(double *rate_out, bench_ctx *c, ledger *db, const bench_rooms *rooms,
                      unsigned threads)
{
    uint64_t n_signatures = 0;     /* every stored signature checked: the ledger's and the seats' */
    double elapsed = 0;
    for (size_t r = 0; r < rooms->n; r++) {
        ledger_verify_report rep;
        memset(&rep, 0, sizeof rep);
        double t0 = bench_now();
        int rc = ledger_verify_room(db, &rep, rooms->room[r].room, threads);
        elapsed += bench_now() - t0;
        if (rc != 0) {
            rep.reason[sizeof rep.reason - 1] = '\0';
            return bench_fail(c, "verify room %s: %s at version %u (code %d)",
                              rooms->room[r].room, rep.reason, rep.bad_version, rc);
        }
        if (!rep.is_refolded)
            return bench_fail(c, "verify room %s: digests were not re-folded",
                              rooms->room[r].room);
        n_signatures += rep.n_signatures;
    }
    if (n_signatures == 0 || elapsed <= 0)
        return bench_fail(c, "nothing was verified");
    *rate_out = (double)n_signatures / elapsed;
    return 0;
}

/* One thread's share of the raw verifications: the messages, signatures
 * and key are shared and read-only. */
typedef struct raw_job {
    uint8_t (*msg)[RAW_MESSAGE_BYTES];
    uint8_t (*sig)[crypto_sign_BYTES];
    const uint8_t *pk;
    unsigned n_calls;
    unsigned n_bad;
    pthread_t thread;
} raw_job;

static void *raw_verify(void *arg)
{
    raw_job *j = arg;
    for (unsigned i = 0; i < j->n_calls; i++)
        j->n_bad += crypto_sign_verify_detached(j->sig[i % RAW_MESSAGES], j->msg[i % RAW_MESSAGES],
                                                RAW_MESSAGE_BYTES, j->pk) != 0;
    return NULL;
}

int bench_raw_verify_rate(double *rate_out, bench_ctx *c, unsigned n_calls, unsigned threads)
{
    uint8_t pk[crypto_sign_PUBLICKEYBYTES], sk[crypto_sign_SECRETKEYBYTES];
    uint8_t msg[RAW_MESSAGES][RAW_MESSAGE_BYTES];
    uint8_t sig[RAW_MESSAGES][crypto_sign_BYTES];
    raw_job job[RAW_MAX_THREADS];
    if (threads < 1 || threads > RAW_MAX_THREADS)
        return bench_fail(c, "raw verification on %u threads: 1..%d", threads, RAW_MAX_THREADS);
    crypto_sign_keypair(pk, sk);
    randombytes_buf(msg, sizeof msg);
    for (unsigned i = 0; i < RAW_MESSAGES; i++)
        crypto_sign_detached(sig[i], NULL, msg[i], RAW_MESSAGE_BYTES, sk);
    sodium_memzero(sk, sizeof sk);
    for (unsigned t = 0; t < threads; t++)
        job[t] = (raw_job){msg, sig, pk, n_calls / threads, 0, 0};
    double t0 = bench_now();
    unsigned started = 1;
    for (unsigned t = 1; t < threads; t++, started++)
        if (pthread_create(&job[t].thread, NULL, raw_verify, &job[t]) != 0)
            break;
    raw_verify(&job[0]);
    for (unsigned t = 1; t < started; t++)
        pthread_join(job[t].thread, NULL);
    double elapsed = bench_now() - t0;
    if (started != threads)
        return bench_fail(c, "could not start a verification thread");
    unsigned n_bad = 0, n_done = 0;
    for (unsigned t = 0; t < threads; t++) {
        n_bad += job[t].n_bad;
        n_done += job[t].n_calls;
    }
    if (n_bad != 0)
        return bench_fail(c, "%u raw signatures did not verify", n_bad);
    if (elapsed <= 0)
        return bench_fail(c, "the clock did not move");
    *rate_out = n_done / elapsed;
    return 0;
}
