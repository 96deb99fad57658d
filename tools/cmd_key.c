/*
 * cmd_key.c - `mentat key rotate`: retires the ledger's signing key and
 * makes a new one, endorsed by the old one, whose secret is destroyed. The
 * retired public key stays in the ledger, so events it signed still verify.
 * `mentat key repin`: endorses the rotations a build older than the key
 * chain made, with the retired secrets it kept, and destroys them.
 * `mentat key audit-pub`: prints the audit public key of --keys, what a
 * host hands to `room reseal --to-audit-key` (never the secret half).
 *
 * Layer: tools. It calls ledger_key_rotate; it never touches key files.
 */
#include <string.h>

#include "tools/internal.h"

static const char help[] =
    "usage: mentat key rotate [--db PATH] [--keys DIR]\n"
    "       mentat key repin [--db PATH] [--keys DIR]\n"
    "       mentat key audit-pub [--keys DIR]\n"
    "\n"
    "rotate: retires the current signing key of the ledger and makes a new\n"
    "one. The old key signs the rotation (the ledger's key chain: verify\n"
    "follows it from the first key), then its secret is destroyed. Events and\n"
    "receipts signed by the old key before it was retired still verify,\n"
    "because its public key stays in the ledger. Prints the new key id.\n"
    "\n"
    "repin: for a ledger whose key was rotated by a build older than the key\n"
    "chain (verify: \"both claim to be the ledger's first signing key\"). Such\n"
    "a build kept each retired key as signing-<id>.retired in the keys\n"
    "directory; repin signs each old rotation with the key it retired, records\n"
    "the endorsements in one transaction, then destroys those retired secrets.\n"
    "It needs every retired secret and the ledger's newest key in --keys, and\n"
    "writes nothing otherwise (exit 2 with the reason; exit 1 when the keys\n"
    "are not one line of rotations). A ledger whose chain is whole is left\n"
    "as it is.\n"
    "\n"
    "audit-pub: prints the audit public key of the keys directory as 64 hex\n"
    "digits and a newline (with --json its key id too), the file a host that is\n"
    "to receive rooms hands to `mentat room reseal --to-audit-key`. It opens no\n"
    "ledger and never prints the secret key.\n"
    "\n"
    "Examples:\n"
    "  mentat key rotate\n"
    "  mentat --db /srv/mentat.db --keys /srv/keys key rotate --json\n"
    "  mentat key repin && mentat verify --all\n"
    "  mentat --db /srv/mentat.db --keys /srv/keys key repin --json\n"
    "  mentat --keys /srv/new/keys key audit-pub > new-audit.pub\n";

static int audit_pub(const tool_globals *g)
{
    uint8_t pk[SCHEMA_KEY_BYTES];
    uint32_t id = 0;
    char err[SCHEMA_ERRMSG] = "", hex[2 * SCHEMA_KEY_BYTES + 1];
    int rc = ledger_audit_public(pk, &id, g->keys_dir, err);
    if (rc != 0) {
        tool_err(g, "%s", err);
        return TOOL_EXIT_USAGE;
    }
    tool_hex(hex, pk, sizeof pk);
    if (g->is_json) {
        tool_json j;
        tool_json_init(&j, stdout);
        tool_json_object_begin(&j);
        tool_json_member_uint(&j, "audit_key_id", id);
        tool_json_member_string(&j, "public_key", hex);
        tool_json_object_end(&j);
        tool_json_finish(&j);
    } else {
        printf("%s\n", hex);
    }
    return tool_stdout_finish(g, TOOL_EXIT_OK);
}

static int repin(tool_globals *g, ledger *db)
{
    ledger_repin_report rep;
    int rc = ledger_key_repin(db, &rep);
    if (rc != 0)
        return tool_ledger_fail(g, db, rc);
    if (g->is_json) {
        tool_json j;
        tool_json_init(&j, stdout);
        tool_json_object_begin(&j);
        tool_json_member_uint(&j, "endorsed", rep.n_endorsed);
        tool_json_key(&j, "chain");
        tool_json_array_begin(&j);
        for (unsigned i = 0; rep.n_endorsed > 0 && i <= rep.n_endorsed; i++)
            tool_json_uint(&j, rep.key_id[i]);
        tool_json_array_end(&j);
        tool_json_object_end(&j);
        tool_json_finish(&j);
    } else if (rep.n_endorsed == 0) {
        printf("the key chain is whole: nothing to re-pin\n");
    } else {
        printf("re-pinned %u rotation%s made before the key chain:", rep.n_endorsed,
               rep.n_endorsed == 1 ? "" : "s");
        for (unsigned i = 0; i <= rep.n_endorsed; i++)
            printf("%s%08x", i == 0 ? " " : " -> ", rep.key_id[i]);
        printf("; the retired secrets are destroyed\n");
    }
    return TOOL_EXIT_OK;
}

int cmd_key(int argc, char **argv, const tool_globals *gin)
{
    tool_globals g = *gin;
    const char *pos[1];
    size_t n_pos = 0;
    int r = tool_args_parse(&g, argc, argv, NULL, pos, 1, &n_pos, help);
    if (r != TOOL_PARSED)
        return r == TOOL_HELP ? TOOL_EXIT_OK : TOOL_EXIT_USAGE;
    if (n_pos == 1 && strcmp(pos[0], "audit-pub") == 0) {
        g.cmd = "key audit-pub";
        return audit_pub(&g);
    }
    int is_repin = n_pos == 1 && strcmp(pos[0], "repin") == 0;
    if (n_pos != 1 || (!is_repin && strcmp(pos[0], "rotate") != 0)) {
        tool_err(&g, n_pos == 0 ? "missing subcommand (mentat key rotate | repin | audit-pub)"
                                : "unknown subcommand (mentat key rotate | repin | audit-pub)");
        return TOOL_EXIT_USAGE;
    }
    g.cmd = is_repin ? "key repin" : "key rotate";

    ledger *db;
    int ex = tool_ledger_open(&db, &g, 0);
    if (ex != TOOL_EXIT_OK)
        return ex;
    if (is_repin) {
        ex = repin(&g, db);
        goto out;
    }
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
        printf("new signing key %08x; the old one is retired (its secret destroyed) and its events "
               "still verify\n", id);
    }
out:
    return tool_ledger_close(&g, db, ex);
}
