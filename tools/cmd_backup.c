/*
 * cmd_backup.c - `mentat backup`: writes one room's archive, or one
 * archive per room plus a compact copy of the whole ledger.
 *
 * Layer: tools. The archive format (docs/FORMAT.md) and its atomic write
 * are ledger_backup_room's and ledger_backup_all's; this file only names
 * what to back up and where, and reports it.
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "tools/internal.h"

/* An archive's first bytes (docs/FORMAT.md, "Archive"): "MENTATA" and a
 * format byte. Only a file that starts so is replaced without --force. */
static const char archive_prefix[] = "MENTATA";

/* 1 if path is an existing regular file that does not start as a Mentat
 * archive does (the ledger refuses what is not a regular file itself). */
static int is_other_file(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return 0;
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return 0;
    char head[sizeof archive_prefix - 1];
    size_t n = fread(head, 1, sizeof head, f);
    fclose(f);
    return n != sizeof head || memcmp(head, archive_prefix, sizeof head) != 0;
}

static const char help[] =
    "usage: mentat backup ROOM --out FILE [--force]\n"
    "       mentat backup --all --out DIR [--force]\n"
    "\n"
    "Writes ROOM's archive to FILE: its keys, signed genesis and every signed\n"
    "event, compressed, with a closing digest (docs/FORMAT.md). The file is\n"
    "written under a temporary name and renamed into place, so FILE is either\n"
    "the old archive or the complete new one. `mentat restore` reads it back.\n"
    "\n"
    "With --all, writes one archive per room into DIR (made if absent), named\n"
    "by the ledger, plus DIR/mentat.db, a compact copy of the whole ledger.\n"
    "\n"
    "FILE may not be this ledger, any ledger's lock file, a file of the key\n"
    "directory, a symbolic link, a directory, a device or anything else that\n"
    "is not a regular file, nor \"-\" (archives are binary: name a file). An\n"
    "existing FILE is replaced without a word only if it is a Mentat archive;\n"
    "any other file, another ledger included, only with --force (an earlier\n"
    "DIR/mentat.db copy is replaced without: that is its purpose).\n"
    "\n"
    "Examples:\n"
    "  mentat backup K7QX2M9P --out K7QX2M9P.mentat-archive\n"
    "  mentat backup --all --out /var/backups/mentat/$(date +%F)\n";

static void print_done(const tool_globals *g, const char *room, uint32_t n_events,
                       size_t n_rooms, const char *where)
{
    if (g->is_json) {
        tool_json j;
        tool_json_init(&j, stdout);
        tool_json_object_begin(&j);
        if (room != NULL) {
            tool_json_member_string(&j, "room", room);
            tool_json_member_uint(&j, "n_events", n_events);
        } else {
            tool_json_member_uint(&j, "n_rooms", n_rooms);
        }
        tool_json_member_string(&j, "out", where);
        tool_json_object_end(&j);
        tool_json_finish(&j);
    } else if (room != NULL) {
        printf("backed up %s (%u events) to %s\n", room, n_events, where);
    } else {
        printf("backed up %zu rooms to %s\n", n_rooms, where);
    }
}

/* A failed backup in one line: the ledger's message, which names the
 * file (and with --all the room); the ledger itself was only read, so
 * nothing is said of receipts. */
static int backup_fail(const tool_globals *g, ledger *db, int rc)
{
    tool_err(g, "%s", ledger_errmsg(db));
    return tool_exit_for(rc);
}

int cmd_backup(int argc, char **argv, const tool_globals *gin)
{
    tool_globals g = *gin;
    const char *out_path = NULL;
    int is_all = 0, is_forced = 0;
    const tool_opt opts[] = {
        {"--all", NULL, NULL, &is_all},
        {"--force", NULL, NULL, &is_forced},
        {"--out", "PATH", &out_path, NULL},
        {NULL, NULL, NULL, NULL},
    };
    const char *pos[1];
    size_t n_pos = 0;
    int r = tool_args_parse(&g, argc, argv, opts, pos, 1, &n_pos, help);
    if (r != TOOL_PARSED)
        return r == TOOL_HELP ? TOOL_EXIT_OK : TOOL_EXIT_USAGE;
    if ((n_pos == 1) == (is_all != 0)) {
        tool_err(&g, "give either ROOM or --all (see mentat backup --help)");
        return TOOL_EXIT_USAGE;
    }
    if (out_path == NULL || out_path[0] == '\0') {
        tool_err(&g, "missing --out %s", is_all ? "DIR" : "FILE");
        return TOOL_EXIT_USAGE;
    }
    if (strcmp(out_path, "-") == 0) {
        tool_err(&g, "--out -: an archive is binary and is not written to standard output; "
                     "name a file");
        return TOOL_EXIT_USAGE;
    }
    if (!is_all && !is_forced && is_other_file(out_path)) {
        tool_err(&g, "%s exists and is not a Mentat archive; refusing to replace it "
                     "(--force replaces it)", out_path);
        return TOOL_EXIT_USAGE;
    }

    ledger *db;
    int ex = tool_ledger_open(&db, &g, 1);
    if (ex != TOOL_EXIT_OK)
        return ex;
    int rc;
    unsigned flags = is_forced ? LEDGER_OUT_FORCE : 0u;
    if (is_all) {
        size_t n_rooms = 0;
        rc = ledger_backup_all_flags(db, out_path, &n_rooms, flags);
        if (rc != 0) {
            ex = backup_fail(&g, db, rc);
            goto out;
        }
        print_done(&g, NULL, 0, n_rooms, out_path);
    } else {
        ledger_room_info info;
        ex = tool_room_get(&info, db, &g, pos[0]);
        if (ex != TOOL_EXIT_OK)
            goto out;
        rc = ledger_backup_room_flags(db, info.room, out_path, flags);
        if (rc != 0) {
            ex = backup_fail(&g, db, rc);
            goto out;
        }
        print_done(&g, info.room, info.version, 0, out_path);
    }
out:
    ledger_close(db);
    return ex;
}
