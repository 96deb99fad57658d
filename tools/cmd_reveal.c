/*
 * cmd_reveal.c - `mentat reveal`: unseals a room's secret seed with the
 * audit key, checks it against the commitment in the signed genesis, and
 * records it as revealed, so anyone can re-check every shuffle.
 *
 * Layer: tools. The unsealing, the check and the record are ledger_reveal's;
 * before the game is over the ledger refuses unless --force.
 */
#include <string.h>

#include "tools/internal.h"

static const char help[] =
    "usage: mentat reveal ROOM [--force]\n"
    "\n"
    "Reveals the secret seed of ROOM: unseals it with the audit key, checks\n"
    "it against the commitment in the room's signed genesis, records it in the\n"
    "ledger (archives then carry it) and prints it. With the seed, anyone can\n"
    "replay every shuffle and draw of the game. The room key is published\n"
    "with it, so the room's sealed checkpoints and refused actions' secrets\n"
    "open for any reader of the ledger. Refused while the game is not\n"
    "over, unless --force (which gives away every hidden card of a live game).\n"
    "\n"
    "Examples:\n"
    "  mentat reveal K7QX2M9P\n"
    "  mentat reveal K7QX2M9P --force --json\n";

int cmd_reveal(int argc, char **argv, const tool_globals *gin)
{
    tool_globals g = *gin;
    int is_forced = 0;
    const tool_opt opts[] = {
        {"--force", NULL, NULL, &is_forced},
        {NULL, NULL, NULL, NULL},
    };
    const char *pos[1];
    size_t n_pos = 0;
    int r = tool_args_parse(&g, argc, argv, opts, pos, 1, &n_pos, help);
    if (r != TOOL_PARSED)
        return r == TOOL_HELP ? TOOL_EXIT_OK : TOOL_EXIT_USAGE;
    if (n_pos == 0) {
        tool_err(&g, "missing ROOM (see mentat reveal --help)");
        return TOOL_EXIT_USAGE;
    }

    ledger *db;
    ledger_room_info info;
    int ex = tool_open_room_at(&db, &info, NULL, &g, 0, pos[0], NULL);
    if (ex != TOOL_EXIT_OK)
        return ex;
    uint8_t seed[ENGINE_SEED_BYTES];
    int rc = ledger_reveal(db, seed, info.room, is_forced);
    if (rc != 0) {
        ex = tool_ledger_fail(&g, db, rc);
        goto out;
    }
    codec_genesis gen;
    memset(&gen, 0, sizeof gen);
    rc = ledger_genesis_get(db, &gen, info.room);
    if (rc != 0) {
        ex = tool_ledger_fail(&g, db, rc);
        goto out;
    }
    char seed_hex[2 * ENGINE_SEED_BYTES + 1], commit_hex[2 * SCHEMA_HASH_BYTES + 1];
    tool_hex(seed_hex, seed, sizeof seed);
    tool_hex(commit_hex, gen.seed_commitment, sizeof gen.seed_commitment);
    if (g.is_json) {
        tool_json j;
        tool_json_init(&j, stdout);
        tool_json_object_begin(&j);
        tool_json_member_string(&j, "room", info.room);
        tool_json_member_string(&j, "seed", seed_hex);
        tool_json_member_string(&j, "commitment", commit_hex);
        tool_json_member_bool(&j, "matches_commitment", 1);
        tool_json_object_end(&j);
        tool_json_finish(&j);
    } else {
        printf("seed        %s\n", seed_hex);
        printf("commitment  %s\n", commit_hex);
        printf("matches commitment\n");
    }
out:
    return tool_ledger_close(&g, db, ex);
}
