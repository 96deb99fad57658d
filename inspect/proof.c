/*
 * proof.c - Merkle proofs as a seat holds them: made from the ledger
 * (inclusion of a version in a tree head, consistency between two tree
 * heads), read back from the JSON `mentat proof --json` prints, and
 * checked with nothing but their own bytes.
 *
 * Layer: inspect. Reads only; never writes to the ledger. The reader takes
 * bytes from outside (a file a seat was handed): it validates every member
 * and never asserts on them (tests/fuzz/fuzz_proof.c).
 */
#include <stdio.h>
#include <string.h>

#include "inspect/internal.h"

/* ================================================================ hex */

int inspect__hex_member(uint8_t *out, size_t n, const codec_json_token *tok, int i,
                        const char *text)
{
    return i < 0 || codec_json_hex(out, n, &tok[i], text) != 0 ? -1 : 0;
}

/* ============================================================= making */

int inspect_proof_inclusion(inspect_proof *out, ledger *db, const char *room, uint32_t version,
                            uint32_t size)
{
    memset(out, 0, sizeof *out);
    snprintf(out->room, sizeof out->room, "%s", room);
    out->version = version;
    out->size = size;
    ledger_tree_head th;
    int rc = ledger_tree_head_get(db, &th, room, size);
    if (rc == 0)
        rc = ledger_proof_inclusion(db, &out->proof, out->event_hash, room, version, size);
    if (rc != 0)
        return rc;
    memcpy(out->root, th.root, sizeof out->root);
    out->time = th.time;
    out->has_event_hash = 1;
    ledger_merkle_leaf_hash(out->leaf, out->event_hash, sizeof out->event_hash);
    return 0;
}

int inspect_proof_consistency(inspect_proof *out, ledger *db, const char *room,
                              uint32_t size1, uint32_t size2)
{
    memset(out, 0, sizeof *out);
    snprintf(out->room, sizeof out->room, "%s", room);
    out->is_consistency = 1;
    out->size1 = size1;
    out->size = size2;
    ledger_tree_head th1, th2;
    int rc = ledger_tree_head_get(db, &th1, room, size1);
    if (rc == 0)
        rc = ledger_tree_head_get(db, &th2, room, size2);
    if (rc == 0)
        rc = ledger_proof_consistency(db, &out->proof, room, size1, size2);
    if (rc != 0)
        return rc;
    memcpy(out->root1, th1.root, sizeof out->root1);
    memcpy(out->root, th2.root, sizeof out->root);
    out->time = th2.time;
    return 0;
}

/* ============================================================ reading */

#define PROOF_TOKENS (16 + LEDGER_PROOF_MAX)

static int fail(char *err, const char *what)
{
    if (err != NULL)
        snprintf(err, SCHEMA_ERRMSG, "not a proof: %s", what);
    return INSPECT_EINPUT;
}

/* A member that is an integer in [lo, UINT32_MAX]. */
static int u32_member(uint32_t *out, const codec_json_token *tok, const char *text,
                      const char *key, int64_t lo)
{
    int64_t v;
    int i = codec_json_member(tok, 0, text, key);
    if (i < 0 || tok[i].type != CODEC_JSON_NUMBER || codec_json_int(&v, &tok[i], text) != 0 ||
        v < lo || v > UINT32_MAX)
        return -1;
    *out = (uint32_t)v;
    return 0;
}

/* The members each kind of proof may have, as `proof --json` prints them:
 * any other member, or one given twice, is refused (as in action JSON). */
static const char *const inclusion_members[] = {
    "room", "kind", "version", "size", "event_hash", "leaf", "root", "time", "proof", NULL,
};
static const char *const consistency_members[] = {
    "room", "kind", "size1", "size2", "root1", "root2", "time", "proof", NULL,
};

static int members_known(const codec_json_token *tok, const char *json,
                         const char *const *known, char *err)
{
    uint32_t i = 1;
    unsigned seen = 0;
    for (uint32_t m = 0; m < tok[0].size; m++) {
        const codec_json_token *key = &tok[i];
        i = tok[i + 1].next;
        unsigned k = 0;
        while (known[k] != NULL && !codec_json_eq(key, json, known[k]))
            k++;
        if (known[k] == NULL || (seen & (1u << k)) != 0) {
            if (err != NULL)
                snprintf(err, SCHEMA_ERRMSG, "not a proof: %s member \"%.*s\"",
                         known[k] == NULL ? "unknown" : "duplicate",
                         (int)(key->end - key->start > 40 ? 40 : key->end - key->start),
                         json + key->start);
            return INSPECT_EINPUT;
        }
        seen |= 1u << k;
    }
    return 0;
}

int inspect_proof_parse(inspect_proof *out, const char *json, size_t len, char *err)
{
    codec_json_token tok[PROOF_TOKENS];
    char perr[SCHEMA_ERRMSG] = "";
    memset(out, 0, sizeof *out);
    int n = codec_json_parse(tok, PROOF_TOKENS, json, len, perr);
    if (n == SCHEMA_ESPACE)
        return fail(err, "too many members or hashes");
    if (n < 0) {
        if (err != NULL)
            snprintf(err, SCHEMA_ERRMSG, "not a proof: %.140s", perr);
        return INSPECT_EINPUT;
    }
    if (tok[0].type != CODEC_JSON_OBJECT)
        return fail(err, "not a JSON object");
    int i = codec_json_member(tok, 0, json, "room");
    if (i < 0 || tok[i].type != CODEC_JSON_STRING ||
        codec_json_string(out->room, sizeof out->room, &tok[i], json) != 0 ||
        strlen(out->room) != SCHEMA_ROOM_CHARS)
        return fail(err, "\"room\" must be a room code of 8 characters");
    i = codec_json_member(tok, 0, json, "kind");
    if (i >= 0 && codec_json_eq(&tok[i], json, "consistency"))
        out->is_consistency = 1;
    else if (i < 0 || !codec_json_eq(&tok[i], json, "inclusion"))
        return fail(err, "\"kind\" must be \"inclusion\" or \"consistency\"");
    if (members_known(tok, json, out->is_consistency ? consistency_members : inclusion_members,
                      err) != 0)
        return INSPECT_EINPUT;
    if (out->is_consistency) {
        if (u32_member(&out->size1, tok, json, "size1", 1) != 0 ||
            u32_member(&out->size, tok, json, "size2", 1) != 0)
            return fail(err, "\"size1\" and \"size2\" must be sizes from 1");
        if (inspect__hex_member(out->root1, sizeof out->root1, tok,
                                codec_json_member(tok, 0, json, "root1"), json) != 0 ||
            inspect__hex_member(out->root, sizeof out->root, tok,
                                codec_json_member(tok, 0, json, "root2"), json) != 0)
            return fail(err, "\"root1\" and \"root2\" must be 64 hex digits");
    } else {
        if (u32_member(&out->version, tok, json, "version", 1) != 0 ||
            u32_member(&out->size, tok, json, "size", 1) != 0)
            return fail(err, "\"version\" and \"size\" must be numbers from 1");
        if (inspect__hex_member(out->leaf, sizeof out->leaf, tok,
                                codec_json_member(tok, 0, json, "leaf"), json) != 0 ||
            inspect__hex_member(out->root, sizeof out->root, tok,
                                codec_json_member(tok, 0, json, "root"), json) != 0)
            return fail(err, "\"leaf\" and \"root\" must be 64 hex digits");
        i = codec_json_member(tok, 0, json, "event_hash");
        if (i >= 0) {
            if (inspect__hex_member(out->event_hash, sizeof out->event_hash, tok, i, json) != 0)
                return fail(err, "\"event_hash\" must be 64 hex digits");
            out->has_event_hash = 1;
        }
    }
    i = codec_json_member(tok, 0, json, "proof");
    if (i < 0 || tok[i].type != CODEC_JSON_ARRAY)
        return fail(err, "\"proof\" must be an array of hashes");
    if (tok[i].size > LEDGER_PROOF_MAX)
        return fail(err, "\"proof\" has more hashes than any tree of 2^32 events needs");
    int e = i + 1;
    for (uint32_t k = 0; k < tok[i].size; k++, e = (int)tok[e].next)
        if (inspect__hex_member(out->proof.hash[k], LEDGER_TREE_HASH_BYTES, tok, e, json) != 0)
            return fail(err, "every hash of \"proof\" must be 64 hex digits");
    out->proof.n_hashes = tok[i].size;
    return 0;
}

/* ============================================================ checking */

int inspect_proof_check(const inspect_proof *p, char *why)
{
    int rc;
    if (p->is_consistency) {
        rc = ledger_merkle_consistency_verify(p->size1, p->size, &p->proof, p->root1, p->root);
        if (rc != 0 && why != NULL)
            snprintf(why, SCHEMA_ERRMSG, "the proof does not show the tree of %u events (root1) "
                     "as the first %u events of the tree of %u (root2)", p->size1, p->size1,
                     p->size);
        return rc;
    }
    if (p->has_event_hash) {
        uint8_t leaf[LEDGER_TREE_HASH_BYTES];
        ledger_merkle_leaf_hash(leaf, p->event_hash, sizeof p->event_hash);
        if (memcmp(leaf, p->leaf, sizeof leaf) != 0) {
            if (why != NULL)
                snprintf(why, SCHEMA_ERRMSG, "the leaf is not the leaf hash of the event hash");
            return LEDGER_EBADSIG;
        }
    }
    rc = ledger_merkle_inclusion_verify((uint64_t)p->version - 1, p->size, p->leaf, &p->proof,
                                        p->root);
    if (rc != 0 && why != NULL)
        snprintf(why, SCHEMA_ERRMSG, "the proof does not lead from the leaf of version %u to "
                 "the root of the tree of %u events", p->version, p->size);
    return rc;
}
