/*
 * keys.c - the ledger's keys: the Ed25519 signing key and the X25519 audit
 * key in the keys directory, their ids, the `keys` table of public keys by
 * id, signing and verifying, key rotation, and re-pinning the rotations
 * of a build older than the key chain.
 *
 * Part of ledger/. A secret key never leaves this handle: it is never
 * written to the ledger, printed, or kept after ledger_close. A key file is
 * never overwritten (a retired signing key is kept beside the new one), and
 * a key id is never reused for a different public key.
 *
 * Key files (docs/FORMAT.md):
 *   signing.key   64 bytes: the Ed25519 secret key (libsodium layout:
 *                 32-byte seed then the 32-byte public key), mode 0600
 *   audit.key     64 bytes: X25519 secret key (32) then public key (32)
 *   signing-<id>.retired   a retired signing key, <id> 8 lower-case hex
 * Key id: the first 4 bytes of BLAKE2b-256(public key), big-endian.
 * `keys` table: key id (u32 BE) -> tag 0x01 + Key protobuf.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ledger/internal.h"

uint32_t ledger__key_id(const uint8_t pk[SCHEMA_KEY_BYTES])
{
    uint8_t h[32];
    crypto_generichash(h, sizeof h, pk, SCHEMA_KEY_BYTES, NULL, 0);
    return ledger__be32_get(h);
}

static void set_err(char *err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* One line into err (SCHEMA_ERRMSG bytes, may be NULL); long paths are cut. */
static void set_err(char *err, const char *fmt, ...)
{
    if (err == NULL)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, SCHEMA_ERRMSG, fmt, ap);
    va_end(ap);
}

/* ========================================================== key files */

/* Writes data to dir/name atomically with mode 0600: a temporary file,
 * fsynced, then linked into place (link never replaces an existing file,
 * so a key is never overwritten), then the directory fsynced. */
int ledger__key_file_write(const char *dir, const char *name, const uint8_t *data, size_t len,
                          char *err)
{
    char tmp[4096], path[4096];
    int fd = -1, rc = LEDGER_ERROR;
    if ((size_t)snprintf(tmp, sizeof tmp, "%s/.%s.XXXXXX", dir, name) >= sizeof tmp ||
        (size_t)snprintf(path, sizeof path, "%s/%s", dir, name) >= sizeof path) {
        set_err(err, "key path too long: %s/%s", dir, name);
        return LEDGER_EINPUT;
    }
    fd = mkstemp(tmp);
    if (fd < 0) {
        set_err(err, "cannot create a key file in %s: %s", dir, strerror(errno));
        return LEDGER_EKEY;
    }
    if (fchmod(fd, 0600) != 0 || write(fd, data, len) != (ssize_t)len || fsync(fd) != 0) {
        set_err(err, "cannot write %s: %s", tmp, strerror(errno));
        rc = LEDGER_EKEY;
        goto out;
    }
    if (close(fd) != 0) {
        fd = -1;
        set_err(err, "cannot write %s: %s", tmp, strerror(errno));
        rc = LEDGER_EKEY;
        goto out;
    }
    fd = -1;
    if (link(tmp, path) != 0) {
        if (errno == EEXIST) {
            set_err(err, "%s/%s exists; refusing to overwrite a key", dir, name);
            rc = LEDGER_EEXISTS;
        } else {
            set_err(err, "cannot create %s: %s", path, strerror(errno));
            rc = LEDGER_EKEY;
        }
        goto out;
    }
    int dfd = open(dir, O_RDONLY | O_DIRECTORY);
    if (dfd >= 0) {
        fsync(dfd);
        close(dfd);
    }
    rc = 0;
out:
    if (fd >= 0)
        close(fd);
    unlink(tmp);
    return rc;
}

/* Reads exactly len bytes of dir/name. 1 = read, 0 = absent, or an error
 * with the message in err. */
int ledger__key_file_read(uint8_t *out, size_t len, const char *dir, const char *name, char *err)
{
    char path[4096];
    if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, name) >= sizeof path) {
        set_err(err, "key path too long: %s/%s", dir, name);
        return LEDGER_EKEY;
    }
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        if (errno == ENOENT)
            return 0;
        set_err(err, "cannot read %s: %s", path, strerror(errno));
        return LEDGER_EKEY;
    }
    uint8_t buf[128];
    ssize_t n = read(fd, buf, sizeof buf);
    int saved = errno;
    close(fd);
    if (n < 0) {
        set_err(err, "cannot read %s: %s", path, strerror(saved));
        return LEDGER_EKEY;
    }
    if ((size_t)n != len) {
        set_err(err, "%s has %zd bytes, not %zu", path, n, len);
        sodium_memzero(buf, sizeof buf);
        return LEDGER_EKEY;
    }
    memcpy(out, buf, len);
    sodium_memzero(buf, sizeof buf);
    return 1;
}

static int file_exists(const char *dir, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    struct stat st;
    return lstat(path, &st) == 0;
}

int ledger_keygen(const char *keys_dir, char *err)
{
    uint8_t sign_sk[LEDGER_SIGN_SECRET_BYTES], sign_pk[SCHEMA_KEY_BYTES];
    uint8_t audit[LEDGER_AUDIT_FILE_BYTES];
    int rc;
    if (keys_dir == NULL || keys_dir[0] == '\0') {
        set_err(err, "no keys directory given");
        return LEDGER_EINPUT;
    }
    if (mkdir(keys_dir, 0700) != 0 && errno != EEXIST) {
        set_err(err, "cannot create %s: %s", keys_dir, strerror(errno));
        return errno == ENOENT ? LEDGER_EINPUT : LEDGER_EKEY;
    }
    struct stat st;
    if (stat(keys_dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        set_err(err, "%s is not a directory", keys_dir);
        return LEDGER_EINPUT;
    }
    if (ledger__keys_dir_tighten(keys_dir) != 0) {
        set_err(err, "cannot make %s private (chmod 700): %s", keys_dir, strerror(errno));
        return LEDGER_EKEY;
    }
    if (file_exists(keys_dir, LEDGER_SIGNING_FILE) || file_exists(keys_dir, LEDGER_AUDIT_FILE)) {
        set_err(err, "%s already holds keys; refusing to overwrite them", keys_dir);
        return LEDGER_EEXISTS;
    }
    crypto_sign_keypair(sign_pk, sign_sk);
    crypto_box_keypair(audit + 32, audit);
    rc = ledger__key_file_write(keys_dir, LEDGER_AUDIT_FILE, audit, sizeof audit, err);
    if (rc == 0) {
        rc = ledger__key_file_write(keys_dir, LEDGER_SIGNING_FILE, sign_sk, sizeof sign_sk, err);
        if (rc != 0) { /* never leave half a key set behind */
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", keys_dir, LEDGER_AUDIT_FILE);
            unlink(path);
        }
    }
    sodium_memzero(sign_sk, sizeof sign_sk);
    sodium_memzero(audit, sizeof audit);
    return rc;
}

static uint64_t file_mtime_ms(const char *dir, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    struct stat st;
    if (stat(path, &st) != 0)
        return 0;
    return (uint64_t)st.st_mtim.tv_sec * 1000u + (uint64_t)st.st_mtim.tv_nsec / 1000000u;
}

/* Checks a signing secret key and takes its public half. */
static int adopt_signing_key(ledger *db, const uint8_t sk[LEDGER_SIGN_SECRET_BYTES])
{
    uint8_t pk[SCHEMA_KEY_BYTES], sk2[LEDGER_SIGN_SECRET_BYTES];
    crypto_sign_seed_keypair(pk, sk2, sk); /* the seed is the first 32 bytes */
    int ok = sodium_memcmp(sk2, sk, sizeof sk2) == 0;
    sodium_memzero(sk2, sizeof sk2);
    if (!ok)
        return 0;
    memcpy(db->signing_sk, sk, LEDGER_SIGN_SECRET_BYTES);
    memcpy(db->signing_pk, pk, SCHEMA_KEY_BYTES);
    db->key_id = ledger__key_id(pk);
    db->has_signing_key = 1;
    db->is_key_registered = 0;
    return 1;
}

int ledger__keys_load(ledger *db)
{
    char err[SCHEMA_ERRMSG] = "";
    uint8_t sk[LEDGER_SIGN_SECRET_BYTES], audit[LEDGER_AUDIT_FILE_BYTES];
    int rc = ledger__key_file_read(sk, sizeof sk, db->keys_dir, LEDGER_SIGNING_FILE, err);
    if (rc < 0)
        return ledger__fail(db, rc, "%s", err);
    if (rc == 1) {
        int ok = adopt_signing_key(db, sk);
        sodium_memzero(sk, sizeof sk);
        if (!ok)
            return ledger__fail(db, LEDGER_EKEY, "%s/%s is not an Ed25519 secret key",
                                db->keys_dir, LEDGER_SIGNING_FILE);
        db->key_created_at = file_mtime_ms(db->keys_dir, LEDGER_SIGNING_FILE);
    }
    rc = ledger__key_file_read(audit, sizeof audit, db->keys_dir, LEDGER_AUDIT_FILE, err);
    if (rc < 0)
        return ledger__fail(db, rc, "%s", err);
    if (rc == 1) {
        uint8_t pk[SCHEMA_KEY_BYTES];
        int bad = crypto_scalarmult_base(pk, audit) != 0 ||
                  sodium_memcmp(pk, audit + 32, SCHEMA_KEY_BYTES) != 0;
        if (!bad) {
            memcpy(db->audit_sk, audit, SCHEMA_KEY_BYTES);
            memcpy(db->audit_pk, audit + 32, SCHEMA_KEY_BYTES);
            db->audit_key_id = ledger__key_id(db->audit_pk);
            db->has_audit_key = 1;
        }
        sodium_memzero(audit, sizeof audit);
        if (bad)
            return ledger__fail(db, LEDGER_EKEY, "%s/%s is not an X25519 key pair",
                                db->keys_dir, LEDGER_AUDIT_FILE);
    }
    return 0;
}

/* ========================================================= keys table */

static int key_get(ledger *db, ledger_txn *txn, codec_key *out, uint32_t key_id)
{
    uint8_t kbuf[4];
    char err[SCHEMA_ERRMSG] = "";
    ledger__be32_put(kbuf, key_id);
    MDB_val k = {sizeof kbuf, kbuf}, v;
    int rc = ledger__get(txn, db->dbi_keys, &k, &v);
    if (rc == MDB_NOTFOUND)
        return ledger__fail(db, LEDGER_ENOTFOUND, "no key %08x in the ledger", key_id);
    if (rc != 0)
        return rc;
    const uint8_t *p = v.mv_data;
    if (v.mv_size < 2 || p[0] != LEDGER_TAG_PROTOBUF)
        return LEDGER_CORRUPT_MSG(db, "key %08x: bad record", key_id);
    if (codec_key_decode(out, p + 1, v.mv_size - 1, err) != 0)
        return LEDGER_CORRUPT_MSG(db, "key %08x: %s", key_id, err);
    if (out->key_id != key_id || ledger__key_id(out->public_key) != key_id)
        return LEDGER_CORRUPT_MSG(db, "key %08x: stored under the wrong id", key_id);
    return 0;
}

static int key_put(ledger *db, ledger_txn *txn, const codec_key *key)
{
    uint8_t kbuf[4], vbuf[128];
    size_t len = 0;
    ledger__be32_put(kbuf, key->key_id);
    vbuf[0] = LEDGER_TAG_PROTOBUF;
    int rc = codec_key_encode(vbuf + 1, sizeof vbuf - 1, &len, key);
    if (rc != 0)
        return ledger__fail(db, LEDGER_ERROR, "key %08x cannot be encoded (%d)", key->key_id, rc);
    MDB_val k = {sizeof kbuf, kbuf}, v = {len + 1, vbuf};
    return ledger__put(txn, db->dbi_keys, &k, &v, 0);
}

/* Puts one key if absent; refuses an id taken by another public key. */
static int register_one(ledger *db, ledger_txn *txn, uint32_t key_id,
                        const uint8_t pk[SCHEMA_KEY_BYTES], uint64_t created_at, int is_audit)
{
    codec_key key;
    int rc = key_get(db, txn, &key, key_id);
    if (rc == 0) {
        if (sodium_memcmp(key.public_key, pk, SCHEMA_KEY_BYTES) != 0)
            return ledger__fail(db, LEDGER_EKEY, "key id %08x is taken by a different key", key_id);
        if (key.is_audit != is_audit)
            return ledger__fail(db, LEDGER_EKEY, "key %08x is registered as an %s key", key_id,
                                key.is_audit ? "audit" : "signing");
        if (!is_audit && key.retired_at != 0)
            return ledger__fail(db, LEDGER_EKEY, "signing key %08x was retired; it may not sign",
                                key_id);
        return 0;
    }
    if (rc != LEDGER_ENOTFOUND)
        return rc;
    memset(&key, 0, sizeof key);
    key.key_id = key_id;
    memcpy(key.public_key, pk, SCHEMA_KEY_BYTES);
    key.created_at = created_at ? created_at : ledger_now_ms();
    key.is_audit = is_audit;
    rc = key_put(db, txn, &key);
    if (rc == 0)
        txn->did_register_keys = 1;
    return rc;
}

int ledger__keys_register(ledger *db, ledger_txn *txn)
{
    if (!db->has_signing_key)
        return ledger__fail(db, LEDGER_EKEY, "no signing key in %s: the ledger may not be written",
                            db->keys_dir);
    if (db->is_key_registered)
        return 0;
    int rc = ledger__key_chain_admits(db, txn); /* not trusted on first write */
    if (rc == 0)
        rc = register_one(db, txn, db->key_id, db->signing_pk, db->key_created_at, 0);
    if (rc == 0 && db->has_audit_key)
        rc = register_one(db, txn, db->audit_key_id, db->audit_pk, 0, 1);
    if (rc == 0)
        txn->did_register_keys = 1; /* both known to be present once this commits */
    return rc;
}

int ledger__key_public(ledger *db, ledger_txn *txn, uint32_t key_id,
                       uint8_t pk_out[SCHEMA_KEY_BYTES])
{
    codec_key key;
    int rc = key_get(db, txn, &key, key_id);
    if (rc != 0)
        return rc;
    if (key.is_audit)
        return ledger__fail(db, LEDGER_ENOTFOUND, "key %08x is an audit key; it cannot sign",
                            key_id);
    memcpy(pk_out, key.public_key, SCHEMA_KEY_BYTES);
    return 0;
}

int ledger__sign(ledger *db, uint8_t sig_out[SCHEMA_SIG_BYTES], const uint8_t *msg, size_t len)
{
    if (!db->has_signing_key)
        return ledger__fail(db, LEDGER_EKEY, "no signing key in %s", db->keys_dir);
    crypto_sign_detached(sig_out, NULL, msg, len, db->signing_sk);
    return 0;
}

int ledger__verify_sig(const uint8_t sig[SCHEMA_SIG_BYTES], const uint8_t *msg, size_t len,
                       const uint8_t pk[SCHEMA_KEY_BYTES])
{
    return crypto_sign_verify_detached(sig, msg, len, pk) == 0 ? 0 : LEDGER_EBADSIG;
}

/* ============================================================ rotation */

typedef struct rotate_ctx {
    uint32_t old_id;
    const uint8_t *old_pk;
    uint64_t old_created_at;
    uint64_t now;
    codec_key next;                /* the new key's row: endorsed by the old key */
} rotate_ctx;

/* Marks the old key retired (registering it first if needed) and puts the
 * new one with its endorsement. */
static int rotate_body(ledger_txn *txn, void *vctx)
{
    rotate_ctx *ctx = vctx;
    ledger *db = txn->db;
    codec_key key;
    int rc = ledger__key_chain_admits(db, txn); /* the key retired is the ledger's */
    if (rc != 0)
        return rc;
    rc = key_get(db, txn, &key, ctx->old_id);
    if (rc == LEDGER_ENOTFOUND) {
        memset(&key, 0, sizeof key);
        key.key_id = ctx->old_id;
        memcpy(key.public_key, ctx->old_pk, SCHEMA_KEY_BYTES);
        key.created_at = ctx->old_created_at ? ctx->old_created_at : ctx->now;
    } else if (rc != 0) {
        return rc;
    }
    if (key.retired_at == 0)
        key.retired_at = ctx->now;
    rc = key_put(db, txn, &key);
    if (rc == 0)
        rc = key_put(db, txn, &ctx->next);
    if (rc == 0 && db->has_audit_key)
        rc = register_one(db, txn, db->audit_key_id, db->audit_pk, 0, 1);
    return rc;
}

/* A fresh key pair whose id no key the ledger knows has. */
static int fresh_key(ledger *db, uint8_t pk[SCHEMA_KEY_BYTES],
                     uint8_t sk[LEDGER_SIGN_SECRET_BYTES], uint32_t old_id)
{
    for (int tries = 0; tries < 8; tries++) {
        crypto_sign_keypair(pk, sk);
        uint32_t id = ledger__key_id(pk);
        ledger_txn txn;
        codec_key key;
        int rc = ledger__txn_begin(&txn, db, 0);
        if (rc == 0) {
            rc = key_get(db, &txn, &key, id);
            ledger__txn_abort(&txn);
        }
        if (rc == LEDGER_ENOTFOUND && id != old_id && id != db->audit_key_id)
            return 0;
        if (rc != 0 && rc != LEDGER_ENOTFOUND) {
            sodium_memzero(sk, LEDGER_SIGN_SECRET_BYTES);
            return rc;
        }
    }
    sodium_memzero(sk, LEDGER_SIGN_SECRET_BYTES);
    return ledger__fail(db, LEDGER_EKEY, "cannot find a free key id");
}

/* Overwrites the file at path with zeros, synced, so the secret it held is
 * gone from the disk blocks it used (as far as the file system rewrites in
 * place), before it is replaced. */
static int destroy_secret(const char *path, size_t len)
{
    uint8_t zero[LEDGER_SIGN_SECRET_BYTES];
    memset(zero, 0, sizeof zero);
    int fd = open(path, O_WRONLY);
    if (fd < 0)
        return -1;
    int ok = len <= sizeof zero && pwrite(fd, zero, len, 0) == (ssize_t)len && fsync(fd) == 0;
    return close(fd) == 0 && ok ? 0 : -1;
}

int ledger_key_rotate(ledger *db, uint32_t *new_id_out)
{
    char err[SCHEMA_ERRMSG] = "", next_name[64], path[4096], next_path[4096];
    uint8_t sk[LEDGER_SIGN_SECRET_BYTES], pk[SCHEMA_KEY_BYTES];
    uint8_t old_pk[SCHEMA_KEY_BYTES], msg[LEDGER_ENDORSEMENT_BYTES];
    if (db->is_read_only)
        return ledger__fail(db, LEDGER_EINPUT, "the ledger was opened read-only");
    if (!db->has_signing_key)
        return ledger__fail(db, LEDGER_EKEY, "no signing key in %s to rotate", db->keys_dir);
    uint32_t old_id = db->key_id;
    memcpy(old_pk, db->signing_pk, sizeof old_pk);

    int rc = fresh_key(db, pk, sk, old_id);
    if (rc != 0)
        return rc;
    rotate_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.old_id = old_id;
    ctx.old_pk = old_pk;
    ctx.old_created_at = db->key_created_at;
    ctx.now = ledger_now_ms();
    ctx.next.key_id = ledger__key_id(pk);
    memcpy(ctx.next.public_key, pk, SCHEMA_KEY_BYTES);
    ctx.next.created_at = ctx.now;
    ctx.next.has_predecessor = 1;
    ctx.next.predecessor = old_id;
    size_t len = ledger__endorsement_canonical(msg, old_id, ctx.next.key_id, pk);
    crypto_sign_detached(ctx.next.endorsement, NULL, msg, len, db->signing_sk);

    /* The new secret is written beside the old first; then the ledger
     * records the rotation; then the old secret is overwritten and the
     * new file takes its name. A failure before the rename leaves the old
     * key in place (and the ledger, if it committed, expecting the new one
     * in signing.key.next: the message says so). */
    snprintf(next_name, sizeof next_name, "%s.next", LEDGER_SIGNING_FILE);
    snprintf(path, sizeof path, "%s/%s", db->keys_dir, LEDGER_SIGNING_FILE);
    snprintf(next_path, sizeof next_path, "%s/%s", db->keys_dir, next_name);
    unlink(next_path); /* a rotation that stopped before the ledger recorded it */
    rc = ledger__key_file_write(db->keys_dir, next_name, sk, sizeof sk, err);
    if (rc != 0) {
        sodium_memzero(sk, sizeof sk);
        return ledger__fail(db, rc, "%s", err);
    }
    rc = ledger__write(db, rotate_body, &ctx);
    if (rc != 0) {
        unlink(next_path);
        sodium_memzero(sk, sizeof sk);
        return rc;
    }
    if (destroy_secret(path, LEDGER_SIGN_SECRET_BYTES) != 0 || rename(next_path, path) != 0) {
        sodium_memzero(sk, sizeof sk);
        return ledger__fail(db, LEDGER_EKEY, "the ledger now signs with key %08x, but %s could "
                            "not replace %s: %s (rename it by hand)", ctx.next.key_id, next_path,
                            path, strerror(errno));
    }
    int dfd = open(db->keys_dir, O_RDONLY | O_DIRECTORY);
    if (dfd >= 0) {
        fsync(dfd);
        close(dfd);
    }
    sodium_memzero(db->signing_sk, sizeof db->signing_sk); /* the retired secret, in memory too */
    int ok = adopt_signing_key(db, sk);
    sodium_memzero(sk, sizeof sk);
    assert(ok);
    (void)ok;
    db->key_created_at = file_mtime_ms(db->keys_dir, LEDGER_SIGNING_FILE);
    db->is_key_registered = 1;
    if (new_id_out != NULL)
        *new_id_out = db->key_id;
    return 0;
}

/* ========================================================== re-pinning */

typedef struct repin_ctx {
    codec_key row[LEDGER_REPIN_MAX]; /* the ledger's first keys, oldest first */
    size_t n;
    int is_full;                   /* more than LEDGER_REPIN_MAX of them */
} repin_ctx;

static int collect_first(void *vctx, const codec_key *k)
{
    repin_ctx *ctx = vctx;
    if (k->is_imported || k->has_predecessor)
        return 0;
    if (ctx->n == LEDGER_REPIN_MAX) {
        ctx->is_full = 1;
        return 0;
    }
    ctx->row[ctx->n++] = *k;
    return 0;
}

static int by_creation(const void *a, const void *b)
{
    const codec_key *x = a, *y = b;
    if (x->created_at != y->created_at)
        return x->created_at < y->created_at ? -1 : 1;
    return (x->key_id > y->key_id) - (x->key_id < y->key_id);
}

/* Signs row[i]'s rotation with the retired secret of row[i - 1]. */
static int endorse_with_retired(ledger *db, codec_key *next, const codec_key *retired)
{
    char name[64], err[SCHEMA_ERRMSG] = "";
    uint8_t sk[LEDGER_SIGN_SECRET_BYTES], pk[SCHEMA_KEY_BYTES], msg[LEDGER_ENDORSEMENT_BYTES];
    snprintf(name, sizeof name, "signing-%08x.retired", retired->key_id);
    int rc = ledger__key_file_read(sk, sizeof sk, db->keys_dir, name, err);
    if (rc == 0)
        return ledger__fail(db, LEDGER_EKEY, "the rotation from key %08x to %08x needs the "
                            "retired secret %s/%s, which is gone: the chain cannot be re-pinned",
                            retired->key_id, next->key_id, db->keys_dir, name);
    if (rc < 0)
        return ledger__fail(db, LEDGER_EKEY, "%s", err);
    crypto_sign_ed25519_sk_to_pk(pk, sk);
    if (sodium_memcmp(pk, retired->public_key, sizeof pk) != 0) {
        sodium_memzero(sk, sizeof sk);
        return ledger__fail(db, LEDGER_EKEY, "%s/%s is not the secret of key %08x", db->keys_dir,
                            name, retired->key_id);
    }
    next->has_predecessor = 1;
    next->predecessor = retired->key_id;
    size_t len = ledger__endorsement_canonical(msg, retired->key_id, next->key_id,
                                               next->public_key);
    crypto_sign_detached(next->endorsement, NULL, msg, len, sk);
    sodium_memzero(sk, sizeof sk);
    return 0;
}

static int repin_body(ledger_txn *txn, void *vctx)
{
    repin_ctx *ctx = vctx;
    ledger *db = txn->db;
    ctx->n = 0;
    ctx->is_full = 0;
    int rc = ledger__each_signing_key(db, txn, collect_first, ctx);
    if (rc != 0 || ctx->n < 2)
        return rc;
    if (ctx->is_full)
        return ledger__fail(db, LEDGER_EBADSIG, "more than %d keys claim to be the ledger's "
                            "first signing key", LEDGER_REPIN_MAX);
    qsort(ctx->row, ctx->n, sizeof ctx->row[0], by_creation);
    const codec_key *last = &ctx->row[ctx->n - 1];
    if (last->key_id != db->key_id)
        return ledger__fail(db, LEDGER_EKEY, "the newest of the ledger's keys is %08x, and %s "
                            "holds key %08x: re-pin with the keys directory that signs for the "
                            "ledger", last->key_id, db->keys_dir, db->key_id);
    /* Such a build stamped the new key with its file's time, taken just
     * before the old one's retirement: the order is by creation, and
     * every key but the newest must have been retired. */
    for (size_t i = 0; i + 1 < ctx->n; i++)
        if (ctx->row[i].retired_at == 0)
            return ledger__fail(db, LEDGER_EBADSIG, "key %08x was never retired, yet key %08x "
                                "was made after it: the keys are not one line of rotations, and "
                                "the chain cannot be re-pinned", ctx->row[i].key_id,
                                ctx->row[i + 1].key_id);
    if (last->retired_at != 0)
        return ledger__fail(db, LEDGER_EBADSIG, "the ledger's newest key %08x is retired: the "
                            "chain cannot be re-pinned", last->key_id);
    for (size_t i = 1; i < ctx->n; i++) {
        rc = endorse_with_retired(db, &ctx->row[i], &ctx->row[i - 1]);
        if (rc == 0)
            rc = key_put(db, txn, &ctx->row[i]);
        if (rc != 0)
            return rc;
    }
    codec_key mine;
    return ledger__key_chain_check(db, txn, &mine, db->key_id); /* the chain now holds */
}

int ledger_key_repin(ledger *db, ledger_repin_report *out)
{
    memset(out, 0, sizeof *out);
    if (db->is_read_only)
        return ledger__fail(db, LEDGER_EINPUT, "the ledger was opened read-only");
    if (!db->has_signing_key)
        return ledger__fail(db, LEDGER_EKEY, "no signing key in %s", db->keys_dir);
    repin_ctx *ctx = calloc(1, sizeof *ctx);
    if (ctx == NULL)
        return ledger__fail(db, LEDGER_ERROR, "out of memory");
    int rc = ledger__write(db, repin_body, ctx);
    if (rc == 0 && ctx->n >= 2) {
        out->n_endorsed = (unsigned)(ctx->n - 1);
        for (size_t i = 0; i < ctx->n; i++)
            out->key_id[i] = ctx->row[i].key_id;
        /* The endorsements are durable: the retired secrets go, as key
         * rotate destroys the secret it retires. */
        for (size_t i = 0; i + 1 < ctx->n; i++) {
            char path[4096];
            snprintf(path, sizeof path, "%s/signing-%08x.retired", db->keys_dir,
                     ctx->row[i].key_id);
            if (destroy_secret(path, LEDGER_SIGN_SECRET_BYTES) != 0 || unlink(path) != 0)
                rc = ledger__fail(db, LEDGER_EKEY, "the chain is re-pinned, but %s could not be "
                                  "destroyed: %s (delete it by hand)", path, strerror(errno));
        }
        int dfd = open(db->keys_dir, O_RDONLY | O_DIRECTORY);
        if (dfd >= 0) {
            fsync(dfd);
            close(dfd);
        }
    }
    free(ctx);
    return rc;
}
