/*
 * fuzz_proof.c - libFuzzer target for what a seat hands the checkers: a
 * proof as `mentat proof --json` prints it, a receipt as `mentat act
 * --json` prints it (inspect_proof_parse, inspect_receipt_parse), and raw
 * proof hashes with any sizes (ledger_merkle_*_verify). Never crash,
 * refuse with a one-line message; a proof accepted is checked without
 * reading past its hashes, and a check either holds or says why in one
 * line.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "inspect/inspect.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_message(const char *err)
{
    const char *nul = memchr(err, '\0', SCHEMA_ERRMSG);
    if (nul == NULL || nul == err || memchr(err, '\n', (size_t)(nul - err)) != NULL)
        abort();
}

static uint64_t u64_at(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | p[i];
    return v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[SCHEMA_ERRMSG], why[SCHEMA_ERRMSG];
    inspect_proof p;
    memset(err, 0x55, sizeof err);
    if (inspect_proof_parse(&p, (const char *)data, size, err) == 0) {
        if (p.proof.n_hashes > LEDGER_PROOF_MAX || strlen(p.room) != SCHEMA_ROOM_CHARS)
            abort();
        why[0] = '\0';
        if (inspect_proof_check(&p, why) != 0)
            check_message(why);
    } else {
        check_message(err);
    }
    codec_receipt r;
    memset(err, 0x55, sizeof err);
    if (inspect_receipt_parse(&r, (const char *)data, size, err) != 0)
        check_message(err);
    else if (r.version == 0)
        abort();
    ledger_audit_report ar;
    uint8_t bytes[LEDGER_AUDIT_REPORT_BYTES];
    memset(err, 0x55, sizeof err);
    if (inspect_audit_report_parse(&ar, (const char *)data, size, err) != 0)
        check_message(err);
    else if (ledger_audit_report_canonical(bytes, &ar) != LEDGER_AUDIT_REPORT_BYTES)
        abort(); /* a report read is one that encodes */

    /* Raw: two sizes, two roots, then hashes. */
    if (size >= 16 + 64) {
        ledger_tree_proof raw;
        uint64_t a = u64_at(data), b = u64_at(data + 8);
        raw.n_hashes = (size - 80) / LEDGER_TREE_HASH_BYTES;
        if (raw.n_hashes > LEDGER_PROOF_MAX)
            raw.n_hashes = LEDGER_PROOF_MAX;
        memcpy(raw.hash, data + 80, raw.n_hashes * LEDGER_TREE_HASH_BYTES);
        int rc1 = ledger_merkle_consistency_verify(a, b, &raw, data + 16, data + 48);
        int rc2 = ledger_merkle_inclusion_verify(a, b, data + 16, &raw, data + 48);
        if ((rc1 != 0 && rc1 != LEDGER_EBADSIG) || (rc2 != 0 && rc2 != LEDGER_EBADSIG))
            abort();
        if (rc2 == 0 && a >= b) /* an index outside the tree never verifies */
            abort();
    }
    return 0;
}
