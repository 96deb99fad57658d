/*
 * fuzz_archive_record.c - libFuzzer target for the archive record decoder
 * (archives come from outside): never crash, refuse with a one-line
 * message, never answer SCHEMA_ERROR for bad bytes; whatever it accepts
 * encodes again and decodes to the same record (the signed head of field
 * 800 too). A stored genesis or event inside is handed to its own decoder
 * too.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "schema/schema.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int key_eq(const codec_key *a, const codec_key *b)
{
    return a->key_id == b->key_id && memcmp(a->public_key, b->public_key, SCHEMA_KEY_BYTES) == 0
        && a->created_at == b->created_at && a->retired_at == b->retired_at
        && a->is_audit == b->is_audit && a->is_imported == b->is_imported
        && a->has_predecessor == b->has_predecessor && a->predecessor == b->predecessor
        && memcmp(a->endorsement, b->endorsement, SCHEMA_SIG_BYTES) == 0;
}

static int receipt_eq(const codec_receipt *a, const codec_receipt *b)
{
    return strcmp(a->room, b->room) == 0 && a->version == b->version
        && memcmp(a->event_hash, b->event_hash, SCHEMA_HASH_BYTES) == 0 && a->key_id == b->key_id
        && memcmp(a->signature, b->signature, SCHEMA_SIG_BYTES) == 0
        && a->has_tree_head == b->has_tree_head
        && memcmp(a->tree_root, b->tree_root, SCHEMA_HASH_BYTES) == 0 && a->tree_time == b->tree_time;
}

static int record_eq(const codec_archive_record *a, const codec_archive_record *b)
{
    return a->kind == b->kind && a->format_version == b->format_version
        && strcmp(a->room, b->room) == 0 && a->n_events == b->n_events
        && a->created_at == b->created_at && key_eq(&a->key, &b->key)
        && a->bytes_len == b->bytes_len
        && (a->bytes_len == 0 || memcmp(a->bytes, b->bytes, a->bytes_len) == 0)
        && memcmp(a->seed, b->seed, sizeof a->seed) == 0 && a->n_records == b->n_records
        && memcmp(a->digest, b->digest, SCHEMA_HASH_BYTES) == 0
        && receipt_eq(&a->head, &b->head);
}

static void check_message(const char *err)
{
    const char *nul = memchr(err, '\0', SCHEMA_ERRMSG);
    if (nul == NULL || nul == err || memchr(err, '\n', (size_t)(nul - err)) != NULL)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    codec_archive_record r, back;
    char err[SCHEMA_ERRMSG];
    uint8_t *again;
    size_t need, len;
    int rc;

    memset(err, 'x', sizeof err);
    rc = codec_archive_record_decode(&r, data, size, err);
    if (rc == SCHEMA_EDECODE) {
        check_message(err);
        return 0;
    }
    if (rc != SCHEMA_OK || r.kind < CODEC_ARCHIVE_HEADER || r.kind > CODEC_ARCHIVE_SEALED_SEED)
        abort();
    if (r.bytes_len != 0 && (r.bytes < data || r.bytes + r.bytes_len > data + size))
        abort();
    if (codec_archive_record_encode(NULL, 0, &need, &r) != SCHEMA_ESPACE || need == 0)
        abort();
    again = malloc(need);
    if (again == NULL)
        abort();
    if (codec_archive_record_encode(again, need, &len, &r) != SCHEMA_OK || len != need)
        abort();
    if (codec_archive_record_decode(&back, again, len, err) != SCHEMA_OK || !record_eq(&r, &back))
        abort();
    free(again);

    if (r.kind == CODEC_ARCHIVE_GENESIS) {
        codec_genesis g;
        rc = codec_genesis_decode(&g, r.bytes, r.bytes_len, err);
        if (rc != SCHEMA_OK && rc != SCHEMA_EDECODE)
            abort();
    } else if (r.kind == CODEC_ARCHIVE_EVENT) {
        codec_event ev;
        rc = codec_event_decode(&ev, r.bytes, r.bytes_len, err);
        if (rc != SCHEMA_OK && rc != SCHEMA_EDECODE)
            abort();
    }
    return 0;
}
