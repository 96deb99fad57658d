/*
 * cmd_keygen.c - `mentat keygen`: makes the ledger's keys (an Ed25519
 * signing key and an X25519 audit key pair) in the --keys directory.
 *
 * Layer: tools. It calls ledger_keygen and prints where the keys went; it
 * never overwrites a key (the ledger refuses, and so do we).
 */
#include "tools/internal.h"

static const char help[] =
    "usage: mentat keygen [--keys DIR]\n"
    "\n"
    "Makes the ledger's keys in DIR (default mentat.keys, or $MENTAT_KEYS):\n"
    "an Ed25519 signing key for events and receipts, and an X25519 audit key\n"
    "pair to which each room's secret seed is sealed. The directory is made\n"
    "mode 0700 (an existing one open to others is made 0700 too) and the key\n"
    "files 0600. Existing keys are never overwritten (exit 2); use `mentat key\n"
    "rotate` to replace the signing key. A signing key others may read or\n"
    "write is refused for writing (docs/CLI.md \"Keys\").\n"
    "\n"
    "Examples:\n"
    "  mentat keygen\n"
    "  mentat keygen --keys /srv/mentat/keys\n"
    "  MENTAT_KEYS=/srv/mentat/keys mentat keygen\n";

int cmd_keygen(int argc, char **argv, const tool_globals *gin)
{
    tool_globals g = *gin;
    int r = tool_args_parse(&g, argc, argv, NULL, NULL, 0, NULL, help);
    if (r != TOOL_PARSED)
        return r == TOOL_HELP ? TOOL_EXIT_OK : TOOL_EXIT_USAGE;

    char err[SCHEMA_ERRMSG] = "";
    int rc = ledger_keygen(g.keys_dir, err);
    if (rc == LEDGER_EEXISTS) {
        tool_err(&g, "keys already exist in %s (nothing written; `mentat key rotate` "
                     "replaces the signing key)", g.keys_dir);
        return TOOL_EXIT_USAGE;
    }
    if (rc != 0) {
        tool_err(&g, "%s: %s", g.keys_dir, err[0] != '\0' ? err : tool_strerror(rc));
        return tool_exit_for(rc);
    }
    if (g.is_json) {
        tool_json j;
        tool_json_init(&j, stdout);
        tool_json_object_begin(&j);
        tool_json_member_string(&j, "keys", g.keys_dir);
        tool_json_object_end(&j);
        tool_json_finish(&j);
    } else {
        printf("keys written to %s\n", g.keys_dir);
    }
    return TOOL_EXIT_OK;
}
