/*
 * fuzz_state.c - libFuzzer target for the engine state decoder (the bytes
 * of a checkpoint come from disk or an archive): never crash; whatever it
 * accepts passes the invariants and re-encodes to the very same bytes.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "engine/engine.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static uint8_t again[ENGINE_STATE_ENCODED_MAX];
    if (sodium_init() < 0)
        abort();
    engine_state st;
    if (engine_state_decode(&st, data, size) != 0)
        return 0;
    if (engine_state_check(&st) != 0)
        abort();
    size_t len = engine_state_encode(again, sizeof again, &st);
    if (len != size || memcmp(again, data, size) != 0)
        abort();
    return 0;
}
