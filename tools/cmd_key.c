/*
 * cmd_key.c - `mentat key rotate`: retires the ledger's signing key and
 * makes a new one, endorsed by the old one, whose secret is destroyed. The
 * retired public key stays in the ledger, so events it signed still verify.
 *
 * Layer: tools. It calls ledger_key_rotate; it never touches key files.
 */
#include <string.h>

#include "tools/internal.h"

static const char help[] =
    "usage: mentat key rotate [--db PATH] [--keys DIR]\n"
    "\n"
    "Retires the current signing key of the ledger and makes a new one. The\n"
    "old key signs the rotation (the ledger's key chain: verify follows it\n"
    "from the first key), then its secret is destroyed. Events and receipts\n"
    "signed by the old key before it was retired still verify, because its\n"
    "public key stays in the ledger. Prints the new key id.\n"
    "\n"
    "Examples:\n"
    "  mentat key rotate\n"
    "  mentat --db /srv/mentat.db --keys /srv/keys key rotate --json\n";

int cmd_key(int argc, char **argv, const tool_globals *gin)
{
    tool_globals g = *gin;
    const char *pos[1];
    size_t n_pos = 0;
    int r = tool_args_parse(&g, argc, argv, NULL, pos, 1, &n_pos, help);
    if (r != TOOL_PARSED)
        return r == TOOL_HELP ? TOOL_EXIT_OK : TOOL_EXIT_USAGE;
    if (n_pos != 1 || strcmp(pos[0], "rotate") != 0) {
        tool_err(&g, n_pos == 0 ? "missing subcommand (mentat key rotate)"
                                : "unknown subcommand (mentat key rotate)");
        return TOOL_EXIT_USAGE;
    }
    g.cmd = "key rotate";

    ledger *db;
    int ex = tool_ledger_open(&db, &g, 0);
    if (ex != TOOL_EXIT_OK)
        return ex;
    uint32_t id = 0;
    int rc = ledger_key_rotate(db, &id);
    if (rc != 0) {
        ex = tool_ledger_fail(&g, db, rc);
        goto out;
    }
    if (g.is_json) {
        tool_json j;
        tool_json_init(&j, stdout);
        tool_json_object_begin(&j);
        tool_json_member_uint(&j, "key_id", id);
        tool_json_object_end(&j);
        tool_json_finish(&j);
    } else {
        printf("new signing key %u; the old one is retired (its secret destroyed) and its events "
               "still verify\n", id);
    }
out:
    return tool_ledger_close(&g, db, ex);
}
