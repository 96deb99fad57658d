/*
 * audit_report.c - a signed audit report as JSON: written by `mentat audit
 * --json --sign` (the "signed_report" member) and read back by `mentat
 * verify --report FILE`, which hands it to ledger_audit_report_check.
 *
 * Layer: inspect. Reads only; never writes to the ledger. The reader takes
 * bytes from outside (a report an auditor handed over): it validates every
 * member, requires the signed bytes it carries to be exactly the ones its
 * members encode, and never asserts on them (tests/fuzz/fuzz_proof.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inspect/internal.h"

#define REPORT_TOKENS 8192        /* `audit --json --sign`'s whole output, leaks and all */
#define VIEWER_ALL 0xFD            /* INSPECT_AUDIT_ALL_SEATS */

static const char *seed_name(uint8_t s)
{
    return s == LEDGER_AUDIT_SEED_REVEALED ? "revealed" : "audit_key";
}

void inspect_json_audit_report(inspect_json *j, const ledger_audit_report *r)
{
    uint8_t bytes[LEDGER_AUDIT_REPORT_BYTES];
    char seed[24];
    size_t len = ledger_audit_report_canonical(bytes, r);
    inspect_json_object_begin(j);
    inspect_json_member_string(j, "room", r->room);
    inspect_json_member_uint(j, "version", r->version);
    inspect_json_key(j, "head_hash");
    inspect_json_hex(j, r->head_hash, SCHEMA_HASH_BYTES);
    inspect_json_key(j, "tree_root");
    inspect_json_hex(j, r->tree_root, LEDGER_TREE_HASH_BYTES);
    inspect_json_member_uint(j, "tree_time", r->tree_time);
    inspect_json_member_string(j, "method", "counterfactual");
    inspect_json_member_string(j, "seed", seed_name(r->seed_source));
    inspect_json_key(j, "viewer");
    if (r->viewer == ENGINE_VIEW_PUBLIC)
        inspect_json_string(j, "public");
    else if (r->viewer == VIEWER_ALL)
        inspect_json_string(j, "all");
    else
        inspect_json_uint(j, r->viewer + 1u);
    inspect_json_member_uint(j, "facts", r->facts);
    snprintf(seed, sizeof seed, "%" PRIu64, r->sample_seed); /* a string: past 2^53 */
    inspect_json_member_string(j, "sample_seed", seed);
    inspect_json_member_uint(j, "trials", r->n_trials);
    inspect_json_member_uint(j, "steps", r->n_steps);
    inspect_json_member_uint(j, "comparisons", r->n_comparisons);
    inspect_json_member_uint(j, "leaks", r->n_leaks);
    inspect_json_member_string(j, "verdict", r->is_leaky ? "leaks" : "no_leak");
    inspect_json_member_uint(j, "key_id", r->key_id);
    inspect_json_key(j, "public_key");
    inspect_json_hex(j, r->public_key, SCHEMA_KEY_BYTES);
    inspect_json_key(j, "signed_bytes");
    inspect_json_hex(j, bytes, len);
    inspect_json_key(j, "signature");
    inspect_json_hex(j, r->signature, SCHEMA_SIG_BYTES);
    inspect_json_object_end(j);
}

static int fail(char *err, const char *what)
{
    if (err != NULL)
        snprintf(err, SCHEMA_ERRMSG, "not a signed audit report: %s", what);
    return INSPECT_EINPUT;
}

/* An integer member of object `obj` in [0, max]. */
static int uint_member(uint64_t *out, const codec_json_token *tok, int obj, const char *text,
                       const char *key, uint64_t max)
{
    int64_t v;
    int i = codec_json_member(tok, obj, text, key);
    if (i < 0 || tok[i].type != CODEC_JSON_NUMBER || codec_json_int(&v, &tok[i], text) != 0 ||
        v < 0 || (uint64_t)v > max)
        return -1;
    *out = (uint64_t)v;
    return 0;
}

static int report_read(ledger_audit_report *out, const codec_json_token *tok, int o,
                       const char *json, char *err)
{
    uint64_t v;
    char text[24];
    int i = codec_json_member(tok, o, json, "room");
    if (i < 0 || tok[i].type != CODEC_JSON_STRING ||
        codec_json_string(out->room, sizeof out->room, &tok[i], json) != 0 ||
        strlen(out->room) != SCHEMA_ROOM_CHARS)
        return fail(err, "\"room\" must be a room code of 8 characters");
    if (uint_member(&v, tok, o, json, "version", UINT32_MAX) != 0)
        return fail(err, "\"version\" must be a version");
    out->version = (uint32_t)v;
    if (inspect__hex_member(out->head_hash, SCHEMA_HASH_BYTES, tok,
                            codec_json_member(tok, o, json, "head_hash"), json) != 0 ||
        inspect__hex_member(out->tree_root, LEDGER_TREE_HASH_BYTES, tok,
                            codec_json_member(tok, o, json, "tree_root"), json) != 0)
        return fail(err, "\"head_hash\" and \"tree_root\" must be 64 hex digits");
    if (uint_member(&out->tree_time, tok, o, json, "tree_time", INT64_MAX) != 0)
        return fail(err, "\"tree_time\" must be unix milliseconds");
    i = codec_json_member(tok, o, json, "method");
    if (i < 0 || !codec_json_eq(&tok[i], json, "counterfactual"))
        return fail(err, "\"method\" must be \"counterfactual\"");
    out->method = LEDGER_AUDIT_METHOD_COUNTERFACTUAL;
    i = codec_json_member(tok, o, json, "seed");
    if (i >= 0 && codec_json_eq(&tok[i], json, "revealed"))
        out->seed_source = LEDGER_AUDIT_SEED_REVEALED;
    else if (i >= 0 && codec_json_eq(&tok[i], json, "audit_key"))
        out->seed_source = LEDGER_AUDIT_SEED_AUDIT_KEY;
    else
        return fail(err, "\"seed\" must be \"audit_key\" or \"revealed\"");
    i = codec_json_member(tok, o, json, "viewer");
    if (i >= 0 && codec_json_eq(&tok[i], json, "public"))
        out->viewer = ENGINE_VIEW_PUBLIC;
    else if (i >= 0 && codec_json_eq(&tok[i], json, "all"))
        out->viewer = VIEWER_ALL;
    else if (uint_member(&v, tok, o, json, "viewer", ENGINE_MAX_SEATS) == 0 && v >= 1)
        out->viewer = (uint8_t)(v - 1);
    else
        return fail(err, "\"viewer\" must be a seat 1..6, \"public\" or \"all\"");
    if (uint_member(&v, tok, o, json, "facts", UINT32_MAX) != 0)
        return fail(err, "\"facts\" must be a bit mask");
    out->facts = (uint32_t)v;
    i = codec_json_member(tok, o, json, "sample_seed");
    char *end = NULL;
    if (i < 0 || tok[i].type != CODEC_JSON_STRING ||
        codec_json_string(text, sizeof text, &tok[i], json) != 0 || text[0] < '0' ||
        text[0] > '9' || (errno = 0, out->sample_seed = strtoull(text, &end, 10), *end != '\0') ||
        errno != 0)
        return fail(err, "\"sample_seed\" must be a decimal string");
    uint64_t trials, leaks;
    if (uint_member(&trials, tok, o, json, "trials", UINT32_MAX) != 0 ||
        uint_member(&out->n_steps, tok, o, json, "steps", INT64_MAX) != 0 ||
        uint_member(&out->n_comparisons, tok, o, json, "comparisons", INT64_MAX) != 0 ||
        uint_member(&leaks, tok, o, json, "leaks", UINT32_MAX) != 0)
        return fail(err, "\"trials\", \"steps\", \"comparisons\" and \"leaks\" must be counts");
    out->n_trials = (uint32_t)trials;
    out->n_leaks = (uint32_t)leaks;
    i = codec_json_member(tok, o, json, "verdict");
    if (i >= 0 && codec_json_eq(&tok[i], json, "leaks"))
        out->is_leaky = 1;
    else if (i < 0 || !codec_json_eq(&tok[i], json, "no_leak"))
        return fail(err, "\"verdict\" must be \"no_leak\" or \"leaks\"");
    if (out->is_leaky != (out->n_leaks != 0))
        return fail(err, "\"verdict\" does not say what \"leaks\" counts");
    if (uint_member(&v, tok, o, json, "key_id", UINT32_MAX) != 0)
        return fail(err, "\"key_id\" must be a key id");
    out->key_id = (uint32_t)v;
    uint8_t bytes[LEDGER_AUDIT_REPORT_BYTES], mine[LEDGER_AUDIT_REPORT_BYTES];
    if (inspect__hex_member(out->public_key, SCHEMA_KEY_BYTES, tok,
                            codec_json_member(tok, o, json, "public_key"), json) != 0 ||
        inspect__hex_member(out->signature, SCHEMA_SIG_BYTES, tok,
                            codec_json_member(tok, o, json, "signature"), json) != 0 ||
        inspect__hex_member(bytes, sizeof bytes, tok,
                            codec_json_member(tok, o, json, "signed_bytes"), json) != 0)
        return fail(err, "\"public_key\", \"signature\" and \"signed_bytes\" must be hex of "
                    "32, 64 and 137 bytes");
    if (ledger_audit_report_canonical(mine, out) == 0 || memcmp(mine, bytes, sizeof mine) != 0)
        return fail(err, "\"signed_bytes\" are not the bytes its members encode");
    return 0;
}

static int report_tokens(ledger_audit_report *out, const codec_json_token *tok, int n,
                         const char *json, const char *perr, char *err);

int inspect_audit_report_parse(ledger_audit_report *out, const char *json, size_t len, char *err)
{
    char perr[SCHEMA_ERRMSG] = "";
    memset(out, 0, sizeof *out);
    codec_json_token *tok = malloc(REPORT_TOKENS * sizeof *tok);
    if (tok == NULL)
        return fail(err, "out of memory");
    int n = codec_json_parse(tok, REPORT_TOKENS, json, len, perr);
    int rc = report_tokens(out, tok, n, json, perr, err);
    free(tok);
    return rc;
}

static int report_tokens(ledger_audit_report *out, const codec_json_token *tok, int n,
                         const char *json, const char *perr, char *err)
{
    if (n == SCHEMA_ESPACE)
        return fail(err, "too many members");
    if (n < 0) {
        if (err != NULL)
            snprintf(err, SCHEMA_ERRMSG, "not a signed audit report: %.120s", perr);
        return INSPECT_EINPUT;
    }
    if (tok[0].type != CODEC_JSON_OBJECT)
        return fail(err, "not a JSON object");
    /* The report itself, or `mentat audit --json --sign`'s whole output. */
    int o = codec_json_member(tok, 0, json, "signed_report");
    if (o < 0)
        o = 0;
    else if (tok[o].type != CODEC_JSON_OBJECT)
        return fail(err, "\"signed_report\" must be an object");
    int rc = report_read(out, tok, o, json, err);
    if (rc != 0)
        memset(out, 0, sizeof *out);
    return rc;
}
