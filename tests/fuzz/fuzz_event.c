/*
 * fuzz_event.c - libFuzzer target for the event decoder (stored events
 * come from disk and from archives): never crash, refuse with a one-line
 * message, never answer SCHEMA_ERROR for bad bytes; whatever it accepts
 * encodes again, decodes to the same event and re-encodes to the same
 * bytes.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "schema/schema.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int event_eq(const codec_event *a, const codec_event *b)
{
    return a->version == b->version && a->has_prev_hash == b->has_prev_hash
        && (!a->has_prev_hash || memcmp(a->prev_hash, b->prev_hash, SCHEMA_HASH_BYTES) == 0)
        && a->seat == b->seat && a->action.kind == b->action.kind
        && a->action.seat == b->action.seat
        && memcmp(a->action.arg, b->action.arg, sizeof a->action.arg) == 0
        && a->committed_at == b->committed_at
        && memcmp(a->state_digest, b->state_digest, SCHEMA_HASH_BYTES) == 0
        && a->has_signature == b->has_signature && a->key_id == b->key_id
        && memcmp(a->signature, b->signature, SCHEMA_SIG_BYTES) == 0
        && a->has_seat_signature == b->has_seat_signature
        && (!a->has_seat_signature ||
            memcmp(a->seat_signature, b->seat_signature, SCHEMA_SIG_BYTES) == 0)
        && a->has_bind_key == b->has_bind_key
        && (!a->has_bind_key || memcmp(a->bind_key, b->bind_key, SCHEMA_KEY_BYTES) == 0)
        && a->sealed_len == b->sealed_len
        && memcmp(a->sealed_action, b->sealed_action, a->sealed_len) == 0;
}

/* A refusal says why, in one line. */
static void check_message(const char *err)
{
    const char *nul = memchr(err, '\0', SCHEMA_ERRMSG);
    if (nul == NULL || nul == err || memchr(err, '\n', (size_t)(nul - err)) != NULL)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static uint8_t again[4096], third[4096];
    codec_event ev, back;
    char err[SCHEMA_ERRMSG];
    size_t len, len3;
    int rc;

    memset(err, 'x', sizeof err);
    rc = codec_event_decode(&ev, data, size, err);
    if (rc == SCHEMA_EDECODE) {
        check_message(err);
        return 0;
    }
    if (rc != SCHEMA_OK || ev.action.seat != ev.seat)
        abort();
    if (codec_event_encode(again, sizeof again, &len, &ev, 1) != SCHEMA_OK)
        abort();
    if (codec_event_decode(&back, again, len, err) != SCHEMA_OK || !event_eq(&ev, &back))
        abort();
    if (codec_event_encode(third, sizeof third, &len3, &back, 1) != SCHEMA_OK || len3 != len
        || memcmp(third, again, len) != 0)
        abort();
    /* as stored: the same event without its prev_hash */
    if (codec_event_encode(again, sizeof again, &len, &ev, 0) != SCHEMA_OK
        || codec_event_decode(&back, again, len, err) != SCHEMA_OK || back.has_prev_hash)
        abort();
    back.has_prev_hash = ev.has_prev_hash;
    memcpy(back.prev_hash, ev.prev_hash, SCHEMA_HASH_BYTES);
    if (!event_eq(&ev, &back))
        abort();
    return 0;
}
