/*
 * fuzz_archive.c - libFuzzer target for archive import (archives come from
 * outside): the bytes are written to a file and restored, trusting the
 * archive's keys, into one ledger made once per process. Never crash or
 * read out of bounds; a refusal says why in one line; an archive that is
 * accepted leaves a room that verifies, and restoring it again adds
 * nothing.
 *
 * An input that starts with the archive magic is the archive file as is.
 * Any other input is taken as the records of an archive without its
 * trailer: the target appends the right trailer, compresses them and adds
 * the file digest, so that mutations reach the record parser and the
 * verification behind the digests, which random bytes never match.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sodium.h>
#include <zstd.h>

#include "ledger/ledger.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The process's ledger: libFuzzer calls the target many times per run. */
static struct {
    ledger *db;
    char dir[64];                  /* mkdtemp */
    char keys[128];                /* dir/keys */
    char path[128];                /* dir/mentat.db */
    char input[128];               /* dir/input.mentat-archive */
} fx;

static void remove_in(const char *dir, const char *name)
{
    char p[256];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    unlink(p);
}

static void cleanup(void)
{
    ledger_close(fx.db);
    fx.db = NULL;
    remove_in(fx.keys, "signing.key");
    remove_in(fx.keys, "audit.key");
    rmdir(fx.keys);
    remove_in(fx.dir, "mentat.db");
    remove_in(fx.dir, "mentat.db-lock");
    remove_in(fx.dir, "input.mentat-archive");
    rmdir(fx.dir);
}

static void init(void)
{
    char err[SCHEMA_ERRMSG] = "";
    ledger_options opt;
    if (sodium_init() < 0)
        abort();
    snprintf(fx.dir, sizeof fx.dir, "/tmp/mentat-fuzz-archive-XXXXXX");
    if (mkdtemp(fx.dir) == NULL)
        abort();
    snprintf(fx.keys, sizeof fx.keys, "%s/keys", fx.dir);
    snprintf(fx.path, sizeof fx.path, "%s/mentat.db", fx.dir);
    snprintf(fx.input, sizeof fx.input, "%s/input.mentat-archive", fx.dir);
    atexit(cleanup);
    if (ledger_keygen(fx.keys, err) != 0) {
        fprintf(stderr, "fuzz_archive: keygen: %s\n", err);
        abort();
    }
    ledger_options_init(&opt);
    opt.path = fx.path;
    opt.keys_dir = fx.keys;
    opt.is_unsafe_no_sync = 1; /* a scratch ledger: speed over durability */
    if (ledger_open(&fx.db, &opt) != 0) {
        fprintf(stderr, "fuzz_archive: open: %s\n", ledger_errmsg(fx.db));
        abort();
    }
}

static void write_input(const uint8_t *data, size_t size)
{
    int fd = open(fx.input, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0)
        abort();
    while (size > 0) {
        ssize_t w = write(fd, data, size);
        if (w <= 0)
            abort();
        data += w;
        size -= (size_t)w;
    }
    if (close(fd) != 0)
        abort();
}

static const uint8_t archive_magic[8] = {'M', 'E', 'N', 'T', 'A', 'T', 'A', 0x01};

static size_t put_uvarint(uint8_t *p, size_t v)
{
    size_t k = 0;
    do {
        p[k++] = (uint8_t)((v & 0x7F) | (v > 0x7F ? 0x80 : 0));
        v >>= 7;
    } while (v > 0);
    return k;
}

/* Records + a correct trailer, in a zstd frame, behind the magic and
 * before the file digest (docs/FORMAT.md, "Archives"). 0, or -1 if the
 * input is too large to wrap. */
static int wrap_records(uint8_t **out, size_t *out_len, const uint8_t *data, size_t size)
{
    static const uint8_t digest_frame[8] = {0x50, 0x2A, 0x4D, 0x18, 32, 0, 0, 0};
    uint8_t trailer[64], rec[128];
    size_t rec_len = 0;
    codec_archive_record t;
    uint32_t n_records = 0;
    if (size > ((size_t)1 << 20))
        return -1;
    /* Count the records as the reader will, to give the trailer's count. */
    for (size_t at = 0; at < size;) {
        size_t len = 0, k = 0;
        while (at + k < size && k < 3) {
            len |= (size_t)(data[at + k] & 0x7F) << (7 * k);
            if ((data[at + k++] & 0x80) == 0)
                break;
        }
        at += k + len;
        n_records++;
    }
    memset(&t, 0, sizeof t);
    t.kind = CODEC_ARCHIVE_TRAILER;
    t.n_records = n_records;
    crypto_generichash(t.digest, sizeof t.digest, data, size, NULL, 0);
    if (codec_archive_record_encode(rec, sizeof rec, &rec_len, &t) != 0)
        abort();
    size_t tlen = put_uvarint(trailer, rec_len);
    memcpy(trailer + tlen, rec, rec_len);
    tlen += rec_len;

    uint8_t *content = malloc(size + tlen);
    size_t bound = ZSTD_compressBound(size + tlen);
    uint8_t *file = malloc(sizeof archive_magic + bound + sizeof digest_frame + 32);
    ZSTD_CCtx *z = ZSTD_createCCtx();
    if (content == NULL || file == NULL || z == NULL)
        abort();
    memcpy(content, data, size);
    memcpy(content + size, trailer, tlen);
    memcpy(file, archive_magic, sizeof archive_magic);
    if (ZSTD_isError(ZSTD_CCtx_setParameter(z, ZSTD_c_checksumFlag, 1)))
        abort();
    size_t zlen = ZSTD_compress2(z, file + sizeof archive_magic, bound, content, size + tlen);
    if (ZSTD_isError(zlen))
        abort();
    size_t len = sizeof archive_magic + zlen;
    memcpy(file + len, digest_frame, sizeof digest_frame);
    crypto_generichash(file + len + sizeof digest_frame, 32, file, len, NULL, 0);
    len += sizeof digest_frame + 32;
    ZSTD_freeCCtx(z);
    free(content);
    *out = file;
    *out_len = len;
    return 0;
}

/* A refusal says why, in one line. */
static void check_message(void)
{
    const char *msg = ledger_errmsg(fx.db);
    if (msg[0] == '\0' || strchr(msg, '\n') != NULL)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ledger_restore_report rep, again;
    ledger_verify_report vr;
    uint8_t *wrapped = NULL;
    size_t wrapped_len = 0;
    if (fx.db == NULL)
        init();
    if (size < sizeof archive_magic || memcmp(data, archive_magic, sizeof archive_magic) != 0) {
        if (wrap_records(&wrapped, &wrapped_len, data, size) != 0)
            return 0;
        data = wrapped;
        size = wrapped_len;
    }
    write_input(data, size);
    free(wrapped);
    if (ledger_restore(fx.db, &rep, fx.input, 1) != 0) {
        check_message();
        return 0;
    }
    if (ledger_verify_room(fx.db, &vr, rep.room, 1) != 0) {
        fprintf(stderr, "fuzz_archive: restored room %s does not verify: %s\n", rep.room,
                ledger_errmsg(fx.db));
        abort();
    }
    if (ledger_restore(fx.db, &again, fx.input, 1) != 0 || again.n_added != 0 ||
        again.is_new_room)
        abort();
    return 0;
}
