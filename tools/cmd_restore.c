/*
 * cmd_restore.c - `mentat restore`: reads a room's archive into this
 * ledger, creating the room or extending it.
 *
 * Layer: tools. ledger_restore verifies the whole archive before writing
 * anything; this file opens the ledger for writing, calls it and reports
 * what happened. A damaged or divergent archive is bad input (exit 2).
 */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "tools/internal.h"

static const char help[] =
    "usage: mentat restore FILE [--trust-keys]\n"
    "\n"
    "Reads the archive FILE (from `mentat backup`) into the ledger. The whole\n"
    "archive is checked first (framing, closing digest, genesis, hash chain,\n"
    "signatures); nothing is written unless all of it holds. A room the ledger\n"
    "lacks is created; a room it has is extended when the archive's history\n"
    "continues the room's exactly, and refused when the histories diverge.\n"
    "Prints the room, the events in the archive, the events added, and whether\n"
    "the room is new or extended.\n"
    "\n"
    "Signatures must be by keys this ledger knows, unless --trust-keys: then\n"
    "the public keys carried in the archive are accepted (use it for archives\n"
    "from another ledger whose keys you trust).\n"
    "\n"
    "Examples:\n"
    "  mentat restore K7QX2M9P.mentat-archive\n"
    "  mentat --db restored.db restore K7QX2M9P.mentat-archive\n"
    "  mentat restore --trust-keys their-room.mentat-archive --json\n";

int cmd_restore(int argc, char **argv, const tool_globals *gin)
{
    tool_globals g = *gin;
    int is_trusting = 0;
    const tool_opt opts[] = {
        {"--trust-keys", NULL, NULL, &is_trusting},
        {NULL, NULL, NULL, NULL},
    };
    const char *pos[1];
    size_t n_pos = 0;
    int r = tool_args_parse(&g, argc, argv, opts, pos, 1, &n_pos, help);
    if (r != TOOL_PARSED)
        return r == TOOL_HELP ? TOOL_EXIT_OK : TOOL_EXIT_USAGE;
    if (n_pos == 0) {
        tool_err(&g, "missing FILE (see mentat restore --help)");
        return TOOL_EXIT_USAGE;
    }
    struct stat sb;
    if (stat(pos[0], &sb) != 0) {
        tool_err(&g, "%s: %s", pos[0], strerror(errno));
        return TOOL_EXIT_USAGE;
    }

    ledger *db;
    int ex = tool_ledger_open(&db, &g, 0);
    if (ex != TOOL_EXIT_OK)
        return ex;
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
    const char *status = rep.is_new_room ? "new" : rep.n_added != 0 ? "extended" : "unchanged";
    if (g.is_json) {
        tool_json j;
        tool_json_init(&j, stdout);
        tool_json_object_begin(&j);
        tool_json_member_string(&j, "room", rep.room);
        tool_json_member_uint(&j, "n_events", rep.n_events);
        tool_json_member_uint(&j, "n_added", rep.n_added);
        tool_json_member_string(&j, "status", status);
        tool_json_object_end(&j);
        tool_json_finish(&j);
    } else {
        printf("restored %s: %u events in the archive, %u added, %s\n", rep.room, rep.n_events,
               rep.n_added,
               rep.is_new_room ? "new room" : rep.n_added != 0 ? "room extended"
                                                               : "room already up to date");
    }
out:
    ledger_close(db);
    return ex;
}
