/*
 * fuzz_genesis.c - libFuzzer target for the genesis decoder (the first
 * record of a room, from disk or an archive): never crash, refuse with a
 * one-line message, never answer SCHEMA_ERROR for bad bytes; whatever it
 * accepts encodes again and decodes to the same genesis.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "schema/schema.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int genesis_eq(const codec_genesis *a, const codec_genesis *b)
{
    const engine_config *x = &a->config, *y = &b->config;
    return a->format_version == b->format_version && strcmp(a->room, b->room) == 0
        && x->n_seats == y->n_seats && memcmp(x->faction, y->faction, sizeof x->faction) == 0
        && x->is_advanced == y->is_advanced && x->turn_limit == y->turn_limit
        && x->modules == y->modules && x->is_constructed == y->is_constructed
        && x->rules_version == y->rules_version
        && memcmp(a->seed_commitment, b->seed_commitment, SCHEMA_HASH_BYTES) == 0
        && memcmp(a->sealed_seed, b->sealed_seed, SCHEMA_SEALED_SEED_BYTES) == 0
        && a->audit_key_id == b->audit_key_id && a->key_id == b->key_id
        && a->created_at == b->created_at && a->position_len == b->position_len
        && (a->position_len == 0 || memcmp(a->position, b->position, a->position_len) == 0)
        && memcmp(a->signature, b->signature, SCHEMA_SIG_BYTES) == 0
        && a->is_fork == b->is_fork && a->is_position_sealed == b->is_position_sealed
        && (!a->is_fork || (strcmp(a->fork_room, b->fork_room) == 0
                            && a->fork_version == b->fork_version
                            && memcmp(a->fork_hash, b->fork_hash, SCHEMA_HASH_BYTES) == 0))
        && a->seat_bound == b->seat_bound
        && memcmp(a->seat_key, b->seat_key, sizeof a->seat_key) == 0;
}

static void check_message(const char *err)
{
    const char *nul = memchr(err, '\0', SCHEMA_ERRMSG);
    if (nul == NULL || nul == err || memchr(err, '\n', (size_t)(nul - err)) != NULL)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    codec_genesis g, back;
    char err[SCHEMA_ERRMSG];
    uint8_t *again;
    size_t need, len;
    int rc;

    memset(err, 'x', sizeof err);
    rc = codec_genesis_decode(&g, data, size, err);
    if (rc == SCHEMA_EDECODE) {
        check_message(err);
        return 0;
    }
    if (rc != SCHEMA_OK)
        abort();
    /* borrowed bytes lie inside the input */
    if (g.position_len != 0 && (g.position < data || g.position + g.position_len > data + size))
        abort();
    if (codec_genesis_encode(NULL, 0, &need, &g) != SCHEMA_ESPACE || need == 0)
        abort();
    again = malloc(need);
    if (again == NULL)
        abort();
    if (codec_genesis_encode(again, need, &len, &g) != SCHEMA_OK || len != need)
        abort();
    if (codec_genesis_decode(&back, again, len, err) != SCHEMA_OK || !genesis_eq(&g, &back))
        abort();
    free(again);
    return 0;
}
