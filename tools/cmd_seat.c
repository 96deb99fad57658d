/*
 * cmd_seat.c - `mentat seat keygen`: makes the Ed25519 key pair a seat
 * signs its actions with (`mentat act --seat-key`), whose public half a
 * room binds to the seat (`mentat room create --seat-keys`).
 *
 * Layer: tools. It calls ledger_seat_keygen and prints the public key; it
 * never prints or copies the secret key, and never overwrites a file.
 */
#include <string.h>

#include "tools/internal.h"

static const char help[] =
    "usage: mentat seat keygen --out FILE\n"
    "\n"
    "Makes a seat's Ed25519 key pair: FILE gets the secret key (64 bytes,\n"
    "mode 0600) and FILE.pub the public key (64 hex digits and a newline).\n"
    "Prints the public key. An existing FILE or FILE.pub is never\n"
    "overwritten (exit 2, nothing written).\n"
    "\n"
    "Bind the public key to a seat when the room is made (`mentat room create\n"
    "--seat-keys 1=FILE.pub,...`); from then on the ledger accepts an action\n"
    "of that seat only with its signature (`mentat act --seat-key FILE`), and\n"
    "`mentat verify` checks every one: the seat cannot deny an action, and\n"
    "whoever runs the ledger cannot make one up.\n"
    "\n"
    "Examples:\n"
    "  mentat seat keygen --out alice.seat\n"
    "  mentat seat keygen --out ~/.mentat/K7QX2M9P-fremen.seat --json\n";

int cmd_seat(int argc, char **argv, const tool_globals *gin)
{
    tool_globals g = *gin;
    const char *out = NULL;
    const tool_opt opts[] = {
        {"--out", "FILE", &out, NULL},
        {NULL, NULL, NULL, NULL},
    };
    const char *pos[1];
    size_t n_pos = 0;
    int r = tool_args_parse(&g, argc, argv, opts, pos, 1, &n_pos, help);
    if (r != TOOL_PARSED)
        return r == TOOL_HELP ? TOOL_EXIT_OK : TOOL_EXIT_USAGE;
    if (n_pos == 0 || strcmp(pos[0], "keygen") != 0) {
        tool_err(&g, n_pos == 0 ? "missing the subcommand: keygen (see mentat seat --help)"
                                : "unknown subcommand '%s': keygen (see mentat seat --help)",
                 n_pos == 0 ? "" : pos[0]);
        return TOOL_EXIT_USAGE;
    }
    if (out == NULL || out[0] == '\0') {
        tool_err(&g, "missing --out FILE (see mentat seat --help)");
        return TOOL_EXIT_USAGE;
    }
    uint8_t pk[SCHEMA_KEY_BYTES];
    char err[SCHEMA_ERRMSG] = "", hex[2 * SCHEMA_KEY_BYTES + 1];
    int rc = ledger_seat_keygen(pk, out, err);
    if (rc != 0) {
        tool_err(&g, "%s", err[0] != '\0' ? err : tool_strerror(rc));
        return rc == LEDGER_EEXISTS || rc == LEDGER_EINPUT ? TOOL_EXIT_USAGE : tool_exit_for(rc);
    }
    tool_hex(hex, pk, sizeof pk);
    if (g.is_json) {
        char pub[4200];
        snprintf(pub, sizeof pub, "%s.pub", out);
        tool_json j;
        tool_json_init(&j, stdout);
        tool_json_object_begin(&j);
        tool_json_member_string(&j, "secret_key_file", out);
        tool_json_member_string(&j, "public_key_file", pub);
        tool_json_member_string(&j, "public_key", hex);
        tool_json_object_end(&j);
        tool_json_finish(&j);
    } else {
        printf("%s\n", hex);
    }
    return TOOL_EXIT_OK;
}
