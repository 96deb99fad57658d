/*
 * verify.c - a room's every claim checked: the ledger's own verification
 * (genesis, dense versions, hash chain, signatures, re-folded digests at
 * every version and engine invariants at every K-th and the last,
 * ledger_verify_room), in a Nexus Cards room the receipts of its draw
 * opportunities and windows (inspect_room_nexus_check), and then the
 * receipts its seats hold outside the ledger.
 *
 * Layer: inspect. Reads only; never writes to the ledger.
 *
 * What a receipt must satisfy, each failure reported with its version:
 *   (1) it verifies with ledger_receipt_check: signed by a key the ledger
 *       knows, naming an existing event whose hash it carries;
 *   (2) a version is claimed once: two receipts naming the same (room,
 *       version) must carry the same event hash. A retry of an append
 *       returns the original receipt, so an honest ledger never issues
 *       two different ones for one version; two that differ prove a
 *       rewrite even if one of them still matches the ledger.
 * The first failure reported is the one at the lowest version; on a tie
 * the ledger's own finding wins, then the receipt given first.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inspect/internal.h"

/* ============================================================= parsing */

#define RECEIPT_TOKENS 64

static int fail_parse(char *err, const char *what)
{
    if (err != NULL)
        snprintf(err, SCHEMA_ERRMSG, "not a receipt: %s", what);
    return INSPECT_EINPUT;
}

int inspect_receipt_parse(codec_receipt *out, const char *json, size_t len, char *err)
{
    codec_json_token tok[RECEIPT_TOKENS];
    char perr[SCHEMA_ERRMSG] = "";
    memset(out, 0, sizeof *out);
    int n = codec_json_parse(tok, RECEIPT_TOKENS, json, len, perr);
    if (n == SCHEMA_ESPACE)
        return fail_parse(err, "too many members");
    if (n < 0) {
        if (err != NULL)
            snprintf(err, SCHEMA_ERRMSG, "not a receipt: %.140s", perr);
        return INSPECT_EINPUT;
    }
    if (tok[0].type != CODEC_JSON_OBJECT)
        return fail_parse(err, "not a JSON object");
    int i = codec_json_member(tok, 0, json, "verdict");
    if (i >= 0 && !codec_json_eq(&tok[i], json, "accepted"))
        return fail_parse(err, "its verdict is not \"accepted\"");

    i = codec_json_member(tok, 0, json, "room");
    if (i < 0 || tok[i].type != CODEC_JSON_STRING ||
        codec_json_string(out->room, sizeof out->room, &tok[i], json) != 0 ||
        strlen(out->room) != SCHEMA_ROOM_CHARS)
        return fail_parse(err, "\"room\" must be a room code of 8 characters");
    int64_t v;
    i = codec_json_member(tok, 0, json, "version");
    if (i < 0 || tok[i].type != CODEC_JSON_NUMBER || codec_json_int(&v, &tok[i], json) != 0 ||
        v < 1 || v > UINT32_MAX)
        return fail_parse(err, "\"version\" must be a version from 1");
    out->version = (uint32_t)v;
    i = codec_json_member(tok, 0, json, "event_hash");
    if (inspect__hex_member(out->event_hash, SCHEMA_HASH_BYTES, tok, i, json) != 0)
        return fail_parse(err, "\"event_hash\" must be 64 hex digits");
    i = codec_json_member(tok, 0, json, "key_id");
    if (i < 0 || tok[i].type != CODEC_JSON_NUMBER || codec_json_int(&v, &tok[i], json) != 0 ||
        v < 0 || v > UINT32_MAX)
        return fail_parse(err, "\"key_id\" must be a number");
    out->key_id = (uint32_t)v;
    i = codec_json_member(tok, 0, json, "signature");
    if (inspect__hex_member(out->signature, SCHEMA_SIG_BYTES, tok, i, json) != 0)
        return fail_parse(err, "\"signature\" must be 128 hex digits");
    /* The signed tree head: both members or neither (an older receipt). */
    i = codec_json_member(tok, 0, json, "tree_root");
    int t = codec_json_member(tok, 0, json, "tree_time");
    if ((i < 0) != (t < 0))
        return fail_parse(err, "a tree head needs both \"tree_root\" and \"tree_time\"");
    if (i >= 0) {
        out->has_tree_head = 1;
        if (inspect__hex_member(out->tree_root, SCHEMA_HASH_BYTES, tok, i, json) != 0)
            return fail_parse(err, "\"tree_root\" must be 64 hex digits");
        if (tok[t].type != CODEC_JSON_NUMBER || codec_json_int(&v, &tok[t], json) != 0 || v < 0)
            return fail_parse(err, "\"tree_time\" must be unix milliseconds");
        out->tree_time = (uint64_t)v;
    }
    return 0;
}

/* ======================================================== verification */

/* 1 if rc is a finding about a receipt rather than a failure to look. */
static int is_receipt_finding(int rc)
{
    return rc == LEDGER_EBADSIG || rc == LEDGER_ENOTFOUND || rc == LEDGER_EINPUT ||
           rc == LEDGER_ECORRUPT;
}

typedef struct receipt_ref {
    uint32_t version;
    size_t index;                  /* in the caller's array */
} receipt_ref;

static int ref_cmp(const void *a, const void *b)
{
    const receipt_ref *x = a, *y = b;
    if (x->version != y->version)
        return x->version < y->version ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* Records a failure at `version` if it comes before the one recorded:
 * 1 if it did. */
static int finding(inspect_verify_report *out, uint32_t version, int is_receipt,
                   const char *reason)
{
    if (!out->is_ok && out->bad_version <= version)
        return 0;
    out->is_ok = 0;
    out->bad_version = version;
    out->is_receipt_failure = is_receipt;
    out->differs_from = out->differs_to = 0;
    snprintf(out->reason, sizeof out->reason, "%s", reason);
    return 1;
}

int inspect_room_verify(inspect_verify_report *out, ledger *db, const char *room,
                        const codec_receipt *receipts, size_t n_receipts, unsigned threads)
{
    memset(out, 0, sizeof *out);
    snprintf(out->room, sizeof out->room, "%s", room);
    out->is_ok = 1;
    ledger_verify_report rep;
    memset(&rep, 0, sizeof rep);
    int rc = ledger_verify_room(db, &rep, room, threads);
    if (rc != 0 && rc != LEDGER_ECORRUPT && rc != LEDGER_EBADSIG)
        return rc;
    out->n_events = rep.n_events;
    out->n_seat_signatures = rep.n_seat_signatures;
    out->n_sealed_unopened = rep.n_sealed_unopened;
    out->is_refolded = rep.is_refolded;
    out->is_head_signed = rep.is_head_signed;
    out->has_public_views = rep.has_public_views;
    if (rc != 0) {
        rep.reason[sizeof rep.reason - 1] = '\0';
        finding(out, rep.bad_version, 0, rep.reason);
    }
    inspect_nexus_report nx;
    rc = inspect_room_nexus_check(&nx, db, room);
    if (rc != 0 && rc != LEDGER_ECORRUPT && rc != LEDGER_EBADSIG)
        return rc;
    out->is_nexus_checked = rc == 0 && nx.is_checked;
    out->n_nexus_opportunities = nx.n_opportunities;
    out->n_nexus_answers = nx.n_answers;
    out->n_windows = nx.n_windows_opened;
    out->n_nexus_windows = nx.n_nexus_windows_opened;
    if (rc == 0 && !nx.is_ok && !out->is_ok && nx.bad_version == out->bad_version) {
        /* Both at one version: what the game shows first, then the ledger's. */
        char both[sizeof out->reason];
        inspect__text t;
        inspect__text_init(&t, both, sizeof both);
        inspect__text_add(&t, "%s; and %s", nx.reason, out->reason);
        memcpy(out->reason, both, sizeof both);
    } else if (rc == 0 && !nx.is_ok) {
        finding(out, nx.bad_version, 0, nx.reason);
    }

    size_t n_mine = 0;
    for (size_t i = 0; i < n_receipts; i++)
        n_mine += strncmp(receipts[i].room, room, SCHEMA_ROOM_CHARS) == 0;
    if (n_mine == 0)
        return 0;
    receipt_ref *refs = malloc(n_mine * sizeof *refs);
    if (refs == NULL)
        return INSPECT_ERROR;
    size_t k = 0;
    for (size_t i = 0; i < n_receipts; i++)
        if (strncmp(receipts[i].room, room, SCHEMA_ROOM_CHARS) == 0)
            refs[k++] = (receipt_ref){receipts[i].version, i};
    qsort(refs, n_mine, sizeof *refs, ref_cmp);
    out->n_receipts = (uint32_t)n_mine;

    /* First every distinct version's own check, then the findings, which
     * say where the histories part: between the last receipt the ledger
     * matches and the first it does not. */
    int *res = calloc(n_mine, sizeof *res);
    char (*msg)[sizeof out->reason] = calloc(n_mine, sizeof *msg);
    if (res == NULL || msg == NULL) {
        free(res);
        free(msg);
        free(refs);
        return INSPECT_ERROR;
    }
    char reason[sizeof out->reason];
    rc = 0;
    for (size_t j = 0; j < n_mine && rc == 0; j++) {
        const codec_receipt *r = &receipts[refs[j].index];
        if (j > 0 && refs[j - 1].version == r->version) {
            res[j] = res[j - 1];
            continue;
        }
        res[j] = ledger_receipt_check(db, r);
        if (res[j] != 0 && !is_receipt_finding(res[j]))
            rc = res[j];
        else if (res[j] != 0)
            snprintf(msg[j], sizeof msg[j], "%s", ledger_errmsg(db));
    }
    for (size_t j = 0; j < n_mine && rc == 0; j++) {
        const codec_receipt *r = &receipts[refs[j].index];
        if (j > 0 && refs[j - 1].version == r->version)
            continue; /* the first receipt of a version speaks for it */
        /* (2), before (1) so that it names the version: the first receipt
         * of this version is the claim; any other with a different hash or
         * tree head contradicts it. */
        for (size_t e = j + 1; e < n_mine && refs[e].version == r->version; e++) {
            const codec_receipt *o = &receipts[refs[e].index];
            if (memcmp(o->event_hash, r->event_hash, SCHEMA_HASH_BYTES) != 0 ||
                (o->has_tree_head && r->has_tree_head &&
                 memcmp(o->tree_root, r->tree_root, SCHEMA_HASH_BYTES) != 0)) {
                snprintf(reason, sizeof reason,
                         "version %u is claimed by two receipts with different event hashes "
                         "or tree heads (receipts %zu and %zu): the ledger signed two histories",
                         r->version, refs[j].index + 1, refs[e].index + 1);
                finding(out, r->version, 1, reason);
                break;
            }
        }
        if (res[j] == 0)
            continue;
        /* (1) */
        if (res[j] == LEDGER_EBADSIG && strstr(msg[j], "rewritten") != NULL) {
            uint32_t good = 0, later = 0;
            size_t later_i = 0;
            for (size_t e = 0; e < j; e++)
                if (res[e] == 0)
                    good = refs[e].version;
            for (size_t e = j + 1; e < n_mine && later == 0; e++)
                if (res[e] == 0 && refs[e].version > r->version) {
                    later = refs[e].version;
                    later_i = refs[e].index;
                }
            if (later != 0)
                snprintf(reason, sizeof reason,
                         "receipt %zu (version %u) contradicts receipt %zu (version %u), which "
                         "the ledger matches: the ledger signed two histories (a fork); they "
                         "differ at a version in %u..%u", refs[j].index + 1, r->version,
                         later_i + 1, later, good + 1, r->version);
            else
                snprintf(reason, sizeof reason,
                         "receipt %zu: %.220s; the first version that differs is in %u..%u",
                         refs[j].index + 1, msg[j], good + 1, r->version);
            if (finding(out, r->version, 1, reason)) {
                out->differs_from = good + 1;
                out->differs_to = r->version;
            }
            continue;
        }
        snprintf(reason, sizeof reason, "receipt %zu: %s", refs[j].index + 1, msg[j]);
        if (finding(out, r->version, 1, reason) && res[j] == LEDGER_ENOTFOUND &&
            out->n_events < r->version) {
            out->differs_from = out->n_events + 1; /* the first version the room lacks */
            out->differs_to = out->differs_from;
        }
    }
    free(res);
    free(msg);
    free(refs);
    return rc;
}
