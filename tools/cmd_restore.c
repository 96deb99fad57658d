/*
 * cmd_restore.c - `mentat restore`: reads a room's archive into this
 * ledger, creating the room or extending it.
 *
 * Layer: tools. ledger_restore verifies the whole archive before writing
 * anything; this file opens the ledger for writing, calls it and reports
 * what happened. A damaged or divergent archive is bad input (exit 2).
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tools/internal.h"

static const char help[] =
    "usage: mentat restore FILE [--trust-keys]\n"
    "       mentat restore --all DIR [--trust-keys]\n"
    "\n"
    "Reads the archive FILE (from `mentat backup`) into the ledger. The whole\n"
    "archive is checked first (framing, closing digest, genesis, hash chain,\n"
    "signatures); nothing is written unless all of it holds. A room the ledger\n"
    "lacks is created; a room it has is extended when the archive's history\n"
    "continues the room's exactly, and refused when the histories diverge.\n"
    "Prints the room, the events in the archive, the events added, and whether\n"
    "the room is new or extended.\n"
    "\n"
    "With --all, restores every archive of DIR (the files named\n"
    "*.mentat-archive, as `mentat backup --all` writes them), in name order,\n"
    "each checked whole before anything of it is written, and reports each:\n"
    "restored, or why not. Exit 0 when all were restored, 1 when some were\n"
    "not, 2 when none could be.\n"
    "\n"
    "Signatures must be by keys this ledger knows, unless --trust-keys: then\n"
    "the public keys carried in the archive are accepted (use it for archives\n"
    "from another ledger whose keys you trust).\n"
    "\n"
    "Examples:\n"
    "  mentat restore K7QX2M9P.mentat-archive\n"
    "  mentat --db restored.db restore K7QX2M9P.mentat-archive\n"
    "  mentat restore --trust-keys their-room.mentat-archive --json\n"
    "  mentat --db restored.db restore --all /var/backups/mentat/2026-12-01\n";

static const char *status_of(const ledger_restore_report *rep)
{
    return rep->is_new_room ? "new" : rep->n_added != 0 ? "extended" : "unchanged";
}

static void print_one(const ledger_restore_report *rep)
{
    printf("restored %s: %u events in the archive, %u added, %s\n", rep->room, rep->n_events,
           rep->n_added,
           rep->is_new_room ? "new room" : rep->n_added != 0 ? "room extended"
                                                            : "room already up to date");
}

static void json_one(tool_json *j, const ledger_restore_report *rep)
{
    tool_json_member_string(j, "room", rep->room);
    tool_json_member_uint(j, "n_events", rep->n_events);
    tool_json_member_uint(j, "n_added", rep->n_added);
    tool_json_member_string(j, "status", status_of(rep));
}

static int archive_name_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The archive names of dir, sorted, malloc'd (free each and the array). */
static int list_archives(char ***out, size_t *n_out, const char *dir)
{
    *out = NULL;
    *n_out = 0;
    DIR *d = opendir(dir);
    if (d == NULL)
        return errno;
    size_t n = 0, cap = 0, suffix = sizeof LEDGER_ARCHIVE_SUFFIX - 1;
    char **names = NULL;
    struct dirent *e;
    int rc = 0;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len <= suffix || e->d_name[0] == '.' ||
            strcmp(e->d_name + len - suffix, LEDGER_ARCHIVE_SUFFIX) != 0)
            continue;
        if (n == cap) {
            cap = cap != 0 ? 2 * cap : 16;
            char **p = realloc(names, cap * sizeof *p);
            if (p == NULL) {
                rc = ENOMEM;
                break;
            }
            names = p;
        }
        if ((names[n] = strdup(e->d_name)) == NULL) {
            rc = ENOMEM;
            break;
        }
        n++;
    }
    closedir(d);
    if (rc == 0 && n > 1)
        qsort(names, n, sizeof *names, archive_name_cmp);
    *out = names;
    *n_out = n;
    return rc;
}

/* restore --all DIR: each archive on its own, each reported. */
static int restore_all(const tool_globals *g, ledger *db, const char *dir, int is_trusting)
{
    char **names = NULL;
    size_t n = 0, n_ok = 0;
    int erc = list_archives(&names, &n, dir);
    if (erc != 0) {
        tool_err(g, "cannot read the directory %s: %s", dir, strerror(erc));
        goto out;
    }
    if (n == 0) {
        tool_err(g, "%s holds no archive (*%s)", dir, LEDGER_ARCHIVE_SUFFIX);
        goto out;
    }
    tool_json j;
    if (g->is_json) {
        tool_json_init(&j, stdout);
        tool_json_object_begin(&j);
        tool_json_key(&j, "archives");
        tool_json_array_begin(&j);
    }
    for (size_t i = 0; i < n; i++) {
        char path[8192];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        ledger_restore_report rep;
        memset(&rep, 0, sizeof rep);
        int rc = ledger_restore(db, &rep, path, is_trusting);
        const char *msg = ledger_errmsg(db);
        n_ok += rc == 0;
        if (g->is_json) {
            tool_json_object_begin(&j);
            tool_json_member_string(&j, "file", names[i]);
            tool_json_member_bool(&j, "ok", rc == 0);
            if (rc == 0)
                json_one(&j, &rep);
            else
                tool_json_member_string(&j, "error",
                                        msg[0] != '\0' ? msg : tool_strerror(rc));
            tool_json_object_end(&j);
        } else if (rc == 0) {
            print_one(&rep);
        } else {
            printf("FAILED %s: %s; nothing of it restored\n", names[i],
                   msg[0] != '\0' ? msg : tool_strerror(rc));
        }
    }
    if (g->is_json) {
        tool_json_array_end(&j);
        tool_json_member_uint(&j, "n_restored", n_ok);
        tool_json_member_uint(&j, "n_failed", n - n_ok);
        tool_json_member_bool(&j, "ok", n_ok == n);
        tool_json_object_end(&j);
        tool_json_finish(&j);
    } else {
        printf("%zu of %zu archives restored from %s\n", n_ok, n, dir);
    }
out:
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    if (n == 0 || n_ok == 0)
        return TOOL_EXIT_USAGE;
    return n_ok == n ? TOOL_EXIT_OK : TOOL_EXIT_CHECK;
}

int cmd_restore(int argc, char **argv, const tool_globals *gin)
{
    tool_globals g = *gin;
    int is_trusting = 0, is_all = 0;
    const tool_opt opts[] = {
        {"--trust-keys", NULL, NULL, &is_trusting},
        {"--all", NULL, NULL, &is_all},
        {NULL, NULL, NULL, NULL},
    };
    const char *pos[1];
    size_t n_pos = 0;
    int r = tool_args_parse(&g, argc, argv, opts, pos, 1, &n_pos, help);
    if (r != TOOL_PARSED)
        return r == TOOL_HELP ? TOOL_EXIT_OK : TOOL_EXIT_USAGE;
    if (n_pos == 0) {
        tool_err(&g, "missing %s (see mentat restore --help)", is_all ? "DIR" : "FILE");
        return TOOL_EXIT_USAGE;
    }
    struct stat sb;
    if (stat(pos[0], &sb) != 0) {
        tool_err(&g, "%s: %s", pos[0], strerror(errno));
        return TOOL_EXIT_USAGE;
    }
    if (is_all != (S_ISDIR(sb.st_mode) != 0)) {
        tool_err(&g, is_all ? "%s is not a directory (restore --all DIR)"
                            : "%s is a directory (restore --all DIR restores its archives)",
                 pos[0]);
        return TOOL_EXIT_USAGE;
    }

    ledger *db;
    int ex = tool_ledger_open(&db, &g, 0);
    if (ex != TOOL_EXIT_OK)
        return ex;
    if (is_all) {
        ex = restore_all(&g, db, pos[0], is_trusting);
        goto out;
    }
    ledger_restore_report rep;
    memset(&rep, 0, sizeof rep);
    int rc = ledger_restore(db, &rep, pos[0], is_trusting);
    if (rc != 0) {
        const char *msg = ledger_errmsg(db);
        tool_err(&g, "%s: %s; nothing restored", pos[0],
                 msg != NULL && msg[0] != '\0' ? msg : tool_strerror(rc));
        /* The archive is the input: a damaged one is bad input, not a
         * finding about this ledger. */
        ex = TOOL_EXIT_USAGE;
        goto out;
    }
    if (g.is_json) {
        tool_json j;
        tool_json_init(&j, stdout);
        tool_json_object_begin(&j);
        json_one(&j, &rep);
        tool_json_object_end(&j);
        tool_json_finish(&j);
    } else {
        print_one(&rep);
    }
out:
    return tool_ledger_close(&g, db, ex);
}
