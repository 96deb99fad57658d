/*
 * audit_report.c - a signed audit report: the verdict of a room's privacy
 * audit (the room, the head and tree head it audited, how, how much, and
 * what it found) in canonical bytes signed with the ledger key, so that an
 * auditor can hand it over and anyone can check it with the public key.
 *
 * Part of ledger/. It signs only these canonical bytes, whose magic no
 * other signed record has, never bytes a caller chose; it never signs a
 * report whose head is not the room's chain at that version. docs/FORMAT.md
 * "Audit report" repeats the layout.
 *
 * AUDIT REPORT signed bytes (137 bytes):
 *   off  len  field
 *     0    4  "MNAR"
 *     4    1  format version (LEDGER_FORMAT_VERSION, 1)
 *     5    8  room
 *    13    4  version: the head audited, also the tree size
 *    17   32  chain hash of that version
 *    49   32  tree root of versions 1..version (RFC 9162, ledger/merkle.c)
 *    81    8  tree time: committed_at of that version, unix ms
 *    89    1  method: 1 = counterfactual replay (inspect_audit_room)
 *    90    1  seed: 1 = unsealed with the audit key, 2 = the revealed seed
 *    91    1  viewer: a seat 0..5, 0xFE the public, 0xFD every seat and the public
 *    92    4  facts: bit f for each fact the pairs changed (0 = all)
 *    96    8  sample seed
 *   104    4  trials: pairs built and replayed
 *   108    8  steps: events replayed in both worlds
 *   116    8  comparisons
 *   124    4  leaks found
 *   128    1  verdict: 0 no leak, 1 leaks found
 *   129    4  key_id of the signing key
 *   133    4  reserved, 0
 *   signature = Ed25519 over those bytes
 */
#include <string.h>

#include "ledger/internal.h"

size_t ledger_audit_report_canonical(uint8_t out[LEDGER_AUDIT_REPORT_BYTES],
                                     const ledger_audit_report *r)
{
    if (!ledger__room_valid(r->room) || r->method != LEDGER_AUDIT_METHOD_COUNTERFACTUAL ||
        (r->seed_source != LEDGER_AUDIT_SEED_AUDIT_KEY &&
         r->seed_source != LEDGER_AUDIT_SEED_REVEALED) ||
        r->is_leaky != (r->n_leaks != 0))
        return 0;
    uint8_t *p = out;
    memcpy(p, "MNAR", 4);
    p[4] = LEDGER_FORMAT_VERSION;
    memcpy(p + 5, r->room, SCHEMA_ROOM_CHARS);
    ledger__be32_put(p + 13, r->version);
    memcpy(p + 17, r->head_hash, SCHEMA_HASH_BYTES);
    memcpy(p + 49, r->tree_root, LEDGER_TREE_HASH_BYTES);
    ledger__be64_put(p + 81, r->tree_time);
    p[89] = r->method;
    p[90] = r->seed_source;
    p[91] = r->viewer;
    ledger__be32_put(p + 92, r->facts);
    ledger__be64_put(p + 96, r->sample_seed);
    ledger__be32_put(p + 104, r->n_trials);
    ledger__be64_put(p + 108, r->n_steps);
    ledger__be64_put(p + 116, r->n_comparisons);
    ledger__be32_put(p + 124, r->n_leaks);
    p[128] = (uint8_t)r->is_leaky;
    ledger__be32_put(p + 129, r->key_id);
    ledger__be32_put(p + 133, 0);
    return LEDGER_AUDIT_REPORT_BYTES;
}

/* The room's head at r->version (chain hash, tree root and time) into r. */
static int head_fill(ledger *db, ledger_audit_report *r)
{
    ledger_tree_head th;
    int rc = ledger_chain_hash(db, r->head_hash, r->room, r->version);
    if (rc == 0)
        rc = ledger_tree_head_get(db, &th, r->room, r->version);
    if (rc != 0)
        return rc;
    memcpy(r->tree_root, th.root, sizeof r->tree_root);
    r->tree_time = th.time;
    return 0;
}

int ledger_audit_report_can_sign(ledger *db)
{
    if (!db->has_signing_key)
        return ledger__fail(db, LEDGER_EKEY, "no signing key in %s: the report cannot be signed",
                            db->keys_dir);
    return 0;
}

int ledger_audit_report_sign(ledger *db, ledger_audit_report *r)
{
    uint8_t buf[LEDGER_AUDIT_REPORT_BYTES];
    int rc = ledger_audit_report_can_sign(db);
    if (rc == 0)
        rc = head_fill(db, r);
    if (rc != 0)
        return rc;
    r->key_id = db->key_id;
    if (ledger_audit_report_canonical(buf, r) == 0)
        return ledger__fail(db, LEDGER_EINPUT, "the audit report has no canonical form");
    memcpy(r->public_key, db->signing_pk, SCHEMA_KEY_BYTES);
    return ledger__sign(db, r->signature, buf, sizeof buf);
}

int ledger_audit_report_check(ledger *db, const ledger_audit_report *r)
{
    uint8_t buf[LEDGER_AUDIT_REPORT_BYTES], pk[SCHEMA_KEY_BYTES];
    if (ledger_audit_report_canonical(buf, r) == 0)
        return ledger__fail(db, LEDGER_EINPUT, "the audit report has no canonical form");
    ledger_txn txn;
    int rc = ledger__txn_begin(&txn, db, 0);
    if (rc != 0)
        return rc;
    codec_key key;
    if (db->has_signing_key && r->key_id == db->key_id) {
        /* This host's own key (an auditor's ledger signs with it before it
         * has written anything with it). */
        memcpy(key.public_key, db->signing_pk, SCHEMA_KEY_BYTES);
        rc = 0;
    } else {
        rc = ledger__key_chain_check(db, &txn, &key, r->key_id);
    }
    ledger__txn_abort(&txn);
    if (rc == LEDGER_ENOTFOUND)
        return ledger__fail(db, LEDGER_EBADSIG, "the report is signed by key %08x, which this "
                            "ledger does not know", r->key_id);
    if (rc != 0)
        return rc == LEDGER_ECORRUPT ? ledger__fail(db, LEDGER_EBADSIG, "%s", ledger_errmsg(db))
                                     : rc;
    memcpy(pk, key.public_key, sizeof pk);
    if (ledger__verify_sig(r->signature, buf, sizeof buf, pk) != 0)
        return ledger__fail(db, LEDGER_EBADSIG, "the report's signature is not key %08x's",
                            r->key_id);
    ledger_audit_report here = *r;
    rc = head_fill(db, &here);
    if (rc == LEDGER_ENOTFOUND)
        return ledger__fail(db, LEDGER_EBADSIG, "room %s has no version %u here: %s", r->room,
                            r->version, ledger_errmsg(db));
    if (rc != 0)
        return rc;
    if (memcmp(here.head_hash, r->head_hash, SCHEMA_HASH_BYTES) != 0 ||
        memcmp(here.tree_root, r->tree_root, LEDGER_TREE_HASH_BYTES) != 0 ||
        here.tree_time != r->tree_time)
        return ledger__fail(db, LEDGER_EBADSIG, "room %s at version %u is not the history the "
                            "report audited", r->room, r->version);
    return 0;
}
