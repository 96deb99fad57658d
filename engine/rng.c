/*
 * rng.c - the engine's only source of randomness: a ChaCha20 keystream
 * keyed by BLAKE2b-256(seed || version), so the event at version v always
 * draws the same numbers and reading, retrying or replaying never draws
 * new ones. Uniform integers by rejection (no modulo bias); shuffles by
 * Fisher-Yates. No clock, no global state, no allocation.
 */
#include <string.h>

#include <sodium.h>

#include "engine/internal.h"

void engine_rng_init(engine_rng *rng, const uint8_t seed[ENGINE_SEED_BYTES], uint32_t version)
{
    uint8_t msg[ENGINE_SEED_BYTES + 4];
    memcpy(msg, seed, ENGINE_SEED_BYTES);
    msg[32] = (uint8_t)(version >> 24);
    msg[33] = (uint8_t)(version >> 16);
    msg[34] = (uint8_t)(version >> 8);
    msg[35] = (uint8_t)version;
    crypto_generichash(rng->key, sizeof rng->key, msg, sizeof msg, NULL, 0);
    rng->block = 0;
    rng->pos = sizeof rng->buf;
    memset(rng->buf, 0, sizeof rng->buf);
}

static uint32_t next_u32(engine_rng *rng)
{
    static const uint8_t nonce[crypto_stream_chacha20_NONCEBYTES] = {0};
    if ((size_t)rng->pos + 4 > sizeof rng->buf) {
        memset(rng->buf, 0, sizeof rng->buf);
        crypto_stream_chacha20_xor_ic(rng->buf, rng->buf, sizeof rng->buf, nonce,
                                      rng->block, rng->key);
        rng->block++;
        rng->pos = 0;
    }
    const uint8_t *p = rng->buf + rng->pos;
    rng->pos = (uint8_t)(rng->pos + 4);
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

uint32_t engine_rng_uniform(engine_rng *rng, uint32_t n)
{
    /* Reject the top (2^32 mod n) values so every residue is equally likely. */
    uint32_t limit = (uint32_t)(-n % n);
    uint32_t x;
    do
        x = next_u32(rng);
    while (x < limit);
    return x % n;
}

void engine__shuffle(uint8_t *items, size_t n, engine_rng *rng)
{
    for (size_t i = n; i > 1; i--) {
        size_t j = engine_rng_uniform(rng, (uint32_t)i);
        uint8_t t = items[i - 1];
        items[i - 1] = items[j];
        items[j] = t;
    }
}
