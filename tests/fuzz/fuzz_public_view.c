/*
 * fuzz_public_view.c - libFuzzer target for the readers of stored public
 * views (ledger/public_view.c, engine_view_decode): the first input byte
 * chooses a view's canonical encoding (0) or a full block's bytes (1),
 * each view of which is decoded too. Never crash; a refused block is
 * LEDGER_ECORRUPT with a one-line message; a view that decodes encodes
 * again to the very bytes it came from, and decodes again to the same.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ledger/internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define RAW_CAP ((size_t)LEDGER_VIEW_BLOCK * (2 + ENGINE_STATE_ENCODED_MAX))

static ledger *handle(void)
{
    static ledger *db;
    if (db == NULL) {
        db = calloc(1, sizeof *db);
        if (db == NULL || (db->dctx = ZSTD_createDCtx()) == NULL)
            abort();
    }
    db->errmsg[0] = '\0';
    return db;
}

static void view(const uint8_t *in, size_t len)
{
    static engine_state st, back;
    static uint8_t again[ENGINE_STATE_ENCODED_MAX];
    if (engine_view_decode(&st, in, len) != 0)
        return;
    if (st.viewer != ENGINE_VIEW_PUBLIC)
        abort();
    size_t n = engine_state_encode(again, sizeof again, &st);
    if (n != len || memcmp(again, in, len) != 0)
        abort();
    if (engine_view_decode(&back, again, n) != 0)
        abort();
    if (engine_state_decode(&back, in, len) == 0) /* a view is never a state */
        abort();
}

static void block(const uint8_t *in, size_t len)
{
    static uint8_t *raw;
    size_t off[LEDGER_VIEW_BLOCK], lens[LEDGER_VIEW_BLOCK];
    if (raw == NULL && (raw = malloc(RAW_CAP)) == NULL)
        abort();
    ledger *db = handle();
    int rc = ledger__view_block_decode(db, off, lens, raw, RAW_CAP, "23456789", 0, in, len, NULL,
                                       0);
    if (rc != 0) {
        size_t n = strnlen(db->errmsg, sizeof db->errmsg);
        if (rc != LEDGER_ECORRUPT || n == 0 || n == sizeof db->errmsg ||
            memchr(db->errmsg, '\n', n) != NULL)
            abort();
        return;
    }
    for (unsigned i = 0; i < LEDGER_VIEW_BLOCK; i++) {
        if (lens[i] == 0 || lens[i] > ENGINE_STATE_ENCODED_MAX || off[i] + lens[i] > RAW_CAP)
            abort();
        view(raw + off[i], lens[i]);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    if (data[0] % 2 == 0)
        view(data + 1, size - 1);
    else
        block(data + 1, size - 1);
    return 0;
}
