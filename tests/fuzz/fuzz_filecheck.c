/*
 * fuzz_filecheck.c - libFuzzer target for the check of a ledger file
 * before it is mapped (ledger_file_check_bytes: both LMDB meta pages and
 * the size; `mentat doctor` reports it): never crash or read past the
 * bytes; a refusal names the damage in one line; what is accepted has two
 * sound meta pages whose pages fit the file.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ledger/ledger.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ledger_file_report r;
    /* the bytes in a buffer of their own size, so a read past them is seen */
    uint8_t *copy = malloc(size != 0 ? size : 1);
    if (copy == NULL)
        return 0;
    memcpy(copy, data, size);
    int rc = ledger_file_check_bytes(&r, copy, size, size, "fuzz.db");
    free(copy);
    const char *nul = memchr(r.damage, '\0', sizeof r.damage);
    if (nul == NULL || memchr(r.damage, '\n', (size_t)(nul - r.damage)) != NULL)
        abort();
    if (rc == 0) {
        if (r.damage[0] != '\0' || !r.is_meta_ok[0] || !r.is_meta_ok[1] || r.used_meta < 0 ||
            r.page_size == 0 ||
            (r.last_page[r.used_meta] + 1) > r.file_bytes / r.page_size)
            abort();
    } else if ((rc != LEDGER_ECORRUPT && rc != LEDGER_EINPUT) || r.damage[0] == '\0') {
        abort();
    }
    return 0;
}
