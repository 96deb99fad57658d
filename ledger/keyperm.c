/*
 * keyperm.c - who may read the key files: the permission checks run when
 * a ledger is opened and the tightening of a key directory by keygen.
 *
 * Part of ledger/. The signing key signs every event and the audit key
 * unseals every room's seed; a copy in other hands forges events or reads
 * hidden cards. So (docs/CLI.md "Keys"):
 *   - a signing key that other users may read or write (any of mode 077)
 *     is refused for writing (LEDGER_EKEY), and warned of when reading;
 *   - an audit key open to other users, and a key directory that other
 *     users may enter or write, are warned of (ledger_warning);
 * It reads modes only: never a key's bytes, never a change to a file but
 * the directory keygen makes or is given.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "ledger/internal.h"

#define OTHERS 077u

/* The mode of dir/name, or -1 when there is no such file. */
static long mode_of(const char *dir, const char *name)
{
    char path[4096];
    struct stat st;
    if (name != NULL)
        snprintf(path, sizeof path, "%s/%s", dir, name);
    else
        snprintf(path, sizeof path, "%s", dir);
    if (stat(path, &st) != 0)
        return -1;
    return (long)(st.st_mode & 07777);
}

static void warn(ledger *db, const char *fmt, const char *dir, const char *name, long mode)
{
    if (db->warning[0] != '\0')
        return; /* the first is said; the fix for it shows the rest */
    char what[4200];
    if (name != NULL)
        snprintf(what, sizeof what, "%s/%s", dir, name);
    else
        snprintf(what, sizeof what, "%s", dir);
    snprintf(db->warning, sizeof db->warning, fmt, what, (unsigned)mode);
}

int ledger__keys_perm_check(ledger *db)
{
    db->warning[0] = '\0';
    long sign = mode_of(db->keys_dir, LEDGER_SIGNING_FILE);
    long audit = mode_of(db->keys_dir, LEDGER_AUDIT_FILE);
    long dir = mode_of(db->keys_dir, NULL);
    if (sign >= 0 && (sign & OTHERS) != 0) {
        if (!db->is_read_only)
            return ledger__fail(db, LEDGER_EKEY,
                                "the signing key %s/%s is open to other users (mode %04lo): "
                                "chmod 600 it, and rotate the key if others may have read it",
                                db->keys_dir, LEDGER_SIGNING_FILE, (unsigned long)sign);
        warn(db, "the signing key %s is open to other users (mode %04o): chmod 600 it",
             db->keys_dir, LEDGER_SIGNING_FILE, sign);
    }
    if (audit >= 0 && (audit & OTHERS) != 0)
        warn(db, "the audit key %s is open to other users (mode %04o): chmod 600 it",
             db->keys_dir, LEDGER_AUDIT_FILE, audit);
    if (dir >= 0 && (sign >= 0 || audit >= 0) && (dir & OTHERS) != 0)
        warn(db, "the key directory %s is open to other users (mode %04o): chmod 700 it",
             db->keys_dir, NULL, dir);
    return 0;
}

int ledger__keys_dir_tighten(const char *dir)
{
    long mode = mode_of(dir, NULL);
    if (mode >= 0 && (mode & OTHERS) != 0 && chmod(dir, 0700) != 0)
        return errno;
    return 0;
}

const char *ledger_warning(const ledger *db)
{
    return db != NULL ? db->warning : "";
}
