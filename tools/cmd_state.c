/*
 * cmd_state.c - `mentat state`: the auditor's full state of a room after
 * a version, hidden facts included.
 *
 * Layer: tools. The state comes from ledger_state_at (checkpoint plus
 * fold, with the room's seed unsealed by the audit key); the printing is
 * print_state.c's. Nothing is written.
 */
#include "tools/internal.h"

static const char help[] =
    "usage: mentat state ROOM [--at V]\n"
    "\n"
    "Prints the full state of ROOM after version V (default the head; 0 is\n"
    "the opening position): turn, phase, storm sector, the seats the game is\n"
    "waiting on, and per seat its faction, spice, reserves, forces in the\n"
    "tanks, treachery hand and traitors; then the forces and the spice on the\n"
    "board. This is the auditor's view: it shows every hidden fact, and needs\n"
    "the audit key (--keys) to unseal the room's seed.\n"
    "\n"
    "Examples:\n"
    "  mentat state ab12cd34\n"
    "  mentat state ab12cd34 --at 0          # the opening deal\n"
    "  mentat state ab12cd34 --json | jq '.awaiting'\n";

int cmd_state(int argc, char **argv, const tool_globals *gin)
{
    tool_globals g = *gin;
    const char *at_s = NULL;
    const tool_opt opts[] = {
        {"--at", "V", &at_s, NULL},
        {NULL, NULL, NULL, NULL},
    };
    const char *pos[1];
    size_t n_pos = 0;
    int r = tool_args_parse(&g, argc, argv, opts, pos, 1, &n_pos, help);
    if (r != TOOL_PARSED)
        return r == TOOL_HELP ? TOOL_EXIT_OK : TOOL_EXIT_USAGE;
    if (n_pos == 0) {
        tool_err(&g, "missing ROOM (see mentat state --help)");
        return TOOL_EXIT_USAGE;
    }
    uint32_t at = 0;
    if (at_s != NULL && tool_parse_uint(&at, at_s, 0, UINT32_MAX) != 0) {
        tool_err(&g, "--at must be a version, not '%s'", at_s);
        return TOOL_EXIT_USAGE;
    }

    ledger *db;
    int ex = tool_ledger_open(&db, &g, 1);
    if (ex != TOOL_EXIT_OK)
        return ex;
    ledger_room_info info;
    ex = tool_room_get(&info, db, &g, pos[0]);
    if (ex != TOOL_EXIT_OK)
        goto out;
    if (at_s == NULL)
        at = info.version;
    if (at > info.version) {
        tool_err(&g, "--at %u is past the head of %s (version %u)", at, info.room,
                 info.version);
        ex = TOOL_EXIT_USAGE;
        goto out;
    }
    engine_state st;
    int rc = ledger_state_at(db, &st, info.room, at);
    if (rc != 0) {
        ex = tool_ledger_fail(&g, db, rc);
        goto out;
    }
    if (g.is_json) {
        tool_json j;
        tool_json_init(&j, stdout);
        tool_state_json(&j, info.room, at, info.version, &st);
        tool_json_finish(&j);
    } else {
        tool_state_print(stdout, info.room, at, info.version, &st);
    }
out:
    ledger_close(db);
    return ex;
}
