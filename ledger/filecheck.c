/*
 * filecheck.c - the check of a ledger file before LMDB maps it: its two
 * meta pages, read with read(2), and its size against the last page they
 * say is in use.
 *
 * Part of ledger/. LMDB trusts the file: a file shorter than its last used
 * page dies of SIGBUS on the first read past the end, a damaged meta page
 * sends it to any page. What can be checked without mapping is checked
 * here, so that such a file is refused with a message naming the damage.
 * It never writes and never maps; it reads the first two pages only.
 *
 * The meta page as LMDB 0.9 writes it on a 64-bit build (lmdb/mdb.c
 * MDB_page and MDB_meta; offsets from the start of the page):
 *
 *   off  len  field
 *     0    8  mp_pgno: 0 or 1, the page's own number
 *    10    2  mp_flags: P_META (0x08)
 *    16    4  mm_magic 0xBEEFC0DE
 *    20    4  mm_version 1
 *    40    4  mm_dbs[FREE_DBI].md_pad: the page size
 *    80    8  mm_dbs[FREE_DBI].md_root: a page number, or P_INVALID (~0)
 *   128    8  mm_dbs[MAIN_DBI].md_root: likewise
 *   136    8  mm_last_pg: the last page in use
 *   144    8  mm_txnid: the transaction that wrote it; the larger is used
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ledger/internal.h"

#define META_BYTES 152
#define META_FLAGS_AT 10
#define META_MAGIC_AT 16
#define META_VERSION_AT 20
#define META_PSIZE_AT 40
#define META_FREE_ROOT_AT 80
#define META_MAIN_ROOT_AT 128
#define META_LAST_PAGE_AT 136
#define META_TXNID_AT 144
#define P_META 0x08u
#define LMDB_MAGIC 0xBEEFC0DEu
#define LMDB_DATA_VERSION 1u
#define P_INVALID UINT64_MAX
#define PAGE_MIN 512u
#define PAGE_MAX 65536u

static uint64_t u64_at(const uint8_t *p, size_t off)
{
    uint64_t v;
    memcpy(&v, p + off, sizeof v);
    return v;
}

static uint32_t u32_at(const uint8_t *p, size_t off)
{
    uint32_t v;
    memcpy(&v, p + off, sizeof v);
    return v;
}

/* What is wrong with meta page i (text in why), or "" when it is sound. */
static void meta_check(char *why, size_t cap, ledger_file_report *r, int i, const uint8_t *m)
{
    why[0] = '\0';
    uint16_t flags;
    memcpy(&flags, m + META_FLAGS_AT, sizeof flags);
    uint32_t psize = u32_at(m, META_PSIZE_AT);
    r->txnid[i] = u64_at(m, META_TXNID_AT);
    r->last_page[i] = u64_at(m, META_LAST_PAGE_AT);
    uint64_t roots[2] = {u64_at(m, META_FREE_ROOT_AT), u64_at(m, META_MAIN_ROOT_AT)};
    if (u32_at(m, META_MAGIC_AT) != LMDB_MAGIC)
        snprintf(why, cap, "meta page %d has no LMDB magic", i);
    else if (u32_at(m, META_VERSION_AT) != LMDB_DATA_VERSION)
        snprintf(why, cap, "meta page %d has LMDB data version %u, not %u", i,
                 u32_at(m, META_VERSION_AT), LMDB_DATA_VERSION);
    else if (u64_at(m, 0) != (uint64_t)i || (flags & P_META) == 0)
        snprintf(why, cap, "meta page %d is not marked as meta page %d", i, i);
    else if (psize != r->page_size)
        snprintf(why, cap, "meta page %d gives page size %u, meta page 0 %u", i, psize,
                 r->page_size);
    else if (r->last_page[i] < 1)
        snprintf(why, cap, "meta page %d gives last page %llu", i,
                 (unsigned long long)r->last_page[i]);
    else if ((r->last_page[i] + 1) > r->file_bytes / r->page_size)
        snprintf(why, cap,
                 "the file is truncated: %llu bytes, but meta page %d uses pages up to %llu "
                 "(%llu bytes)",
                 (unsigned long long)r->file_bytes, i, (unsigned long long)r->last_page[i],
                 (unsigned long long)(r->last_page[i] + 1) * r->page_size);
    else
        for (int k = 0; k < 2; k++)
            if (roots[k] != P_INVALID && (roots[k] < 2 || roots[k] > r->last_page[i])) {
                snprintf(why, cap, "meta page %d gives a %s root at page %llu, outside 2..%llu",
                         i, k == 0 ? "free-list" : "main", (unsigned long long)roots[k],
                         (unsigned long long)r->last_page[i]);
                break;
            }
}

int ledger_file_check_bytes(ledger_file_report *out, const uint8_t *bytes, size_t len,
                            uint64_t file_bytes, const char *name)
{
    memset(out, 0, sizeof *out);
    out->used_meta = -1;
    out->file_bytes = file_bytes;
    /* Not an LMDB file at all is the wrong file, not a damaged ledger. */
    if (len < META_BYTES) {
        snprintf(out->damage, sizeof out->damage, "%s is not a Mentat ledger (too short for "
                 "an LMDB file)", name);
        return LEDGER_EINPUT;
    }
    if (u32_at(bytes, 0) == LMDB_MAGIC) {
        snprintf(out->damage, sizeof out->damage, "%s is an LMDB lock file, not a ledger", name);
        return LEDGER_EINPUT;
    }
    if (u32_at(bytes, META_MAGIC_AT) != LMDB_MAGIC) {
        snprintf(out->damage, sizeof out->damage, "%s is not a Mentat ledger (no LMDB magic)",
                 name);
        return LEDGER_EINPUT;
    }
    out->page_size = u32_at(bytes, META_PSIZE_AT);
    if (out->page_size < PAGE_MIN || out->page_size > PAGE_MAX ||
        (out->page_size & (out->page_size - 1)) != 0) {
        snprintf(out->damage, sizeof out->damage, "meta page 0 gives page size %u",
                 out->page_size);
        return LEDGER_ECORRUPT;
    }
    if (len < (size_t)out->page_size + META_BYTES) {
        snprintf(out->damage, sizeof out->damage,
                 "the file is truncated: %s has no meta page 1", name);
        return LEDGER_ECORRUPT;
    }
    const uint8_t *m[2] = {bytes, bytes + out->page_size};
    char why[2][200];
    for (int i = 0; i < 2; i++) {
        meta_check(why[i], sizeof why[i], out, i, m[i]);
        out->is_meta_ok[i] = why[i][0] == '\0';
    }
    if (out->is_meta_ok[0] || out->is_meta_ok[1])
        out->used_meta = !out->is_meta_ok[1] ? 0 : !out->is_meta_ok[0] ? 1
                         : out->txnid[1] > out->txnid[0] ? 1 : 0;
    if (!out->is_meta_ok[0] || !out->is_meta_ok[1]) {
        snprintf(out->damage, sizeof out->damage, "%s", why[out->is_meta_ok[0] ? 1 : 0]);
        return LEDGER_ECORRUPT;
    }
    return 0;
}

int ledger_file_check(ledger_file_report *out, const char *path)
{
    static const size_t head_max = 2 * (size_t)PAGE_MAX; /* both meta pages, whatever the size */
    memset(out, 0, sizeof *out);
    out->used_meta = -1;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        snprintf(out->damage, sizeof out->damage, "%s: %s", path, strerror(e));
        return e;
    }
    uint8_t *head = malloc(head_max);
    size_t got = 0;
    int rc = 0;
    if (head == NULL) {
        snprintf(out->damage, sizeof out->damage, "out of memory");
        rc = LEDGER_ERROR;
        goto out;
    }
    while (got < head_max) {
        ssize_t r = pread(fd, head + got, head_max - got, (off_t)got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            rc = errno;
            snprintf(out->damage, sizeof out->damage, "%s: %s", path, strerror(rc));
            goto out;
        }
        if (r == 0)
            break;
        got += (size_t)r;
    }
    /* The size after the metas: a writer only grows the file, and writes
     * its pages before the meta that names them. */
    struct stat st;
    if (fstat(fd, &st) != 0) {
        rc = errno;
        snprintf(out->damage, sizeof out->damage, "%s: %s", path, strerror(rc));
        goto out;
    }
    rc = ledger_file_check_bytes(out, head, got, (uint64_t)st.st_size, path);
out:
    free(head);
    close(fd);
    return rc;
}
