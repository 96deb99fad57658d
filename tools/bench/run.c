/*
 * bench/run.c - the harness of `mentat bench`: the clock, medians, the
 * run's temporary directory and keys, file names, error lines and the
 * progress line.
 *
 * Layer: tools. Everything the bench writes lives under one mkdtemp
 * directory in /tmp, removed at the end of the run; nothing here touches
 * a user's ledger or keys. Speed is only ever reported as a ratio made in
 * the same run (STYLE.md), so this file measures nothing by itself.
 */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>

#include "tools/internal.h"

/* ============================================================== clock */

double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double bench_median(double *v, size_t n)
{
    if (n == 0)
        return 0;
    qsort(v, n, sizeof v[0], cmp_double);
    if (n % 2 == 1)
        return v[n / 2];
    return (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* ============================================================= errors */

int bench_fail(bench_ctx *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->err, sizeof c->err, fmt, ap);
    va_end(ap);
    return -1;
}

int bench_ledger_fail(bench_ctx *c, ledger *db, int rc, const char *what)
{
    const char *msg = db != NULL ? ledger_errmsg(db) : NULL;
    if (msg == NULL || msg[0] == '\0')
        msg = tool_strerror(rc);
    return bench_fail(c, "%s: %s (code %d)", what, msg, rc);
}

/* ============================================================== files */

int bench_ctx_open(bench_ctx *c)
{
    snprintf(c->dir, sizeof c->dir, "/tmp/mentat-bench-XXXXXX");
    if (mkdtemp(c->dir) == NULL) {
        int e = errno;
        c->dir[0] = '\0';
        return bench_fail(c, "cannot make a temporary directory in /tmp: %s", strerror(e));
    }
    snprintf(c->keys_dir, sizeof c->keys_dir, "%s/keys", c->dir);
    char err[SCHEMA_ERRMSG] = "";
    int rc = ledger_keygen(c->keys_dir, err);
    if (rc != 0)
        return bench_fail(c, "keygen in %s: %s", c->keys_dir,
                          err[0] != '\0' ? err : tool_strerror(rc));
    /* The peer signs with its own key; only storage differs, not the work. */
    uint8_t pk[crypto_sign_PUBLICKEYBYTES];
    crypto_sign_keypair(pk, c->peer_sk);
    c->peer_key_id = (uint32_t)pk[0] << 24 | (uint32_t)pk[1] << 16 | (uint32_t)pk[2] << 8 | pk[3];
    /* The seats of every bench room sign their own actions. */
    for (unsigned s = 0; s < ENGINE_MAX_SEATS; s++) {
        crypto_sign_keypair(c->seat_keys.key[s], c->seat_sk[s]);
        c->seat_keys.bound |= (uint16_t)(1u << s);
    }
    return 0;
}

static int remove_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(path) == 0 ? 0 : errno;
}

void bench_ctx_close(bench_ctx *c)
{
    if (c->dir[0] != '\0')
        nftw(c->dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
    sodium_memzero(c->peer_sk, sizeof c->peer_sk);
    c->dir[0] = '\0';
}

void bench_path_new(char out[BENCH_PATH_MAX], bench_ctx *c, const char *tag)
{
    snprintf(out, BENCH_PATH_MAX, "%s/%u-%s", c->dir, ++c->n_files, tag);
}

void bench_files_remove(const char *path)
{
    static const char *const suffix[] = {"", "-lock", "-wal", "-shm", "-journal"};
    char name[BENCH_PATH_MAX + 16];
    for (size_t i = 0; i < sizeof suffix / sizeof suffix[0]; i++) {
        snprintf(name, sizeof name, "%s%s", path, suffix[i]);
        unlink(name);
    }
}

int bench_ledger_open(ledger **out, bench_ctx *c, const char *path, int is_unsafe_no_sync)
{
    ledger_options opt;
    ledger_options_init(&opt);
    opt.path = path;
    opt.keys_dir = c->keys_dir;
    opt.is_unsafe_no_sync = is_unsafe_no_sync;
    ledger *db = NULL;
    int rc = ledger_open(&db, &opt);
    if (rc != 0) {
        bench_ledger_fail(c, db, rc, "open ledger");
        ledger_close(db);
        *out = NULL;
        return -1;
    }
    *out = db;
    return 0;
}

void bench_ledger_drop(ledger *db, const char *path)
{
    ledger_close(db);
    bench_files_remove(path);
}

/* =========================================================== progress */

void bench_progress(const bench_ctx *c, const char *fmt, ...)
{
    if (!c->is_progress)
        return;
    fputs("\r\033[K", stderr);
    if (fmt != NULL) {
        va_list ap;
        va_start(ap, fmt);
        fputs("bench: ", stderr);
        vfprintf(stderr, fmt, ap);
        va_end(ap);
    }
    fflush(stderr);
}
