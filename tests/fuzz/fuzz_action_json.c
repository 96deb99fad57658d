/*
 * fuzz_action_json.c - libFuzzer target for action text (typed by people
 * and bots): never crash, refuse with a one-line message; whatever
 * codec_action_from_json accepts is written by codec_action_to_json, reads
 * back as the same action and writes the same text again. The JSON
 * readers (strings, integers, member look-up) run over every token too.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "schema/schema.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_message(const char *err)
{
    const char *nul = memchr(err, '\0', SCHEMA_ERRMSG);
    if (nul == NULL || nul == err || memchr(err, '\n', (size_t)(nul - err)) != NULL)
        abort();
}

/* The JSON readers on whatever tokens the text has. */
static void read_tokens(const char *text, size_t size)
{
    codec_json_token tok[64];
    char out[64];
    int n = codec_json_parse(tok, 64, text, size, NULL);
    for (int i = 0; i < n; i++) {
        int64_t v;
        if (tok[i].start > tok[i].end || tok[i].end > size || tok[i].next <= (uint32_t)i
            || tok[i].next > (uint32_t)n)
            abort();
        if (tok[i].type == CODEC_JSON_STRING) {
            int rc = codec_json_string(out, sizeof out, &tok[i], text);
            if (rc == SCHEMA_OK && !codec_json_eq(&tok[i], text, out))
                abort();
        } else if (tok[i].type == CODEC_JSON_NUMBER) {
            if (codec_json_int(&v, &tok[i], text) != SCHEMA_OK && v != 0)
                abort();
        }
        else if (tok[i].type == CODEC_JSON_OBJECT)
            (void)codec_json_member(tok, i, text, "kind");
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    engine_action a, back;
    char err[SCHEMA_ERRMSG], text[1024], again[1024];
    const char *json = (const char *)data;
    int rc;

    read_tokens(json, size);
    memset(err, 'x', sizeof err);
    rc = codec_action_from_json(&a, json, size, err);
    if (rc == SCHEMA_EDECODE) {
        check_message(err);
        return 0;
    }
    if (rc != SCHEMA_OK)
        abort();
    if (codec_action_to_json(text, sizeof text, &a) != SCHEMA_OK)
        abort();
    if (codec_action_from_json(&back, text, strlen(text), err) != SCHEMA_OK
        || memcmp(&a, &back, sizeof a) != 0)
        abort();
    if (codec_action_to_json(again, sizeof again, &back) != SCHEMA_OK || strcmp(text, again) != 0)
        abort();
    return 0;
}
