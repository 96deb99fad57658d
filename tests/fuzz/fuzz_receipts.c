/*
 * fuzz_receipts.c - libFuzzer target for a receipts file (`mentat verify
 * --receipts FILE`, bytes a seat kept outside the ledger): never crash,
 * refuse with one line naming the line at fault; what is accepted has one
 * well-formed receipt per non-blank, non-comment line, and parses again to
 * the same receipts.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "inspect/inspect.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[SCHEMA_ERRMSG];
    codec_receipt *r = NULL, *again = NULL;
    size_t n = 0, n_again = 0;
    memset(err, 0, sizeof err);
    int rc = inspect_receipts_parse(&r, &n, (const char *)data, size, err);
    if (rc != 0) {
        const char *nul = memchr(err, '\0', sizeof err);
        if (r != NULL || n != 0 || nul == NULL || nul == err ||
            memchr(err, '\n', (size_t)(nul - err)) != NULL)
            abort();
        return 0;
    }
    if (memchr(data, '\0', size) != NULL)
        abort();
    for (size_t i = 0; i < n; i++)
        if (strlen(r[i].room) != SCHEMA_ROOM_CHARS || r[i].version == 0)
            abort();
    if (inspect_receipts_parse(&again, &n_again, (const char *)data, size, err) != 0 ||
        n_again != n || (n != 0 && memcmp(r, again, n * sizeof *r) != 0))
        abort();
    free(r);
    free(again);
    return 0;
}
