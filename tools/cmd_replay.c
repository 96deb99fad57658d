/*
 * cmd_replay.c - `mentat replay`: any room at any version as a seat, the
 * public or the auditor saw it: the board summary of inspect/view_json.c for
 * that view, preceded by the event that led there as that viewer was told
 * it.
 *
 * Layer: tools. The replay is inspect_room_replay's (nearest checkpoint
 * plus a fold, then engine_view), the sentence inspect_log_walk's; the
 * printing is the library's (inspect/view_json.c). Nothing is written.
 */
#include <string.h>

#include "inspect/inspect.h"
#include "tools/internal.h"

static const char help[] =
    "usage: mentat replay ROOM [--to V] [--seat S | --public | --auditor]\n"
    "\n"
    "Replays ROOM to version V (default the head; 0 is the opening position)\n"
    "from its nearest checkpoint and prints the board as one viewer saw it\n"
    "then: the event at V as that viewer was told it, turn, phase, the storm,\n"
    "whose decision is pending, each seat's spice, reserves, Tanks and hand as\n"
    "the viewer knows it, then forces and spice per territory and sector.\n"
    "\n"
    "  --seat S    as seat S (1..N or a faction of the room) saw it: cards it\n"
    "              has not seen, others' traitors and secret dials show as ?\n"
    "  --public    as a spectator saw it: public facts only\n"
    "  --auditor   every hidden fact (the default)\n"
    "\n"
    "Replaying needs the audit key (--keys) to unseal the room's seed; without\n"
    "it the auditor's and the public's replay is the public view stored with\n"
    "each event, and says so (\"keyless\": true in --json; --seat needs the\n"
    "key; a room stored by an older build keeps no such views). --json\n"
    "prints {\"room\",\"version\",\"viewer\",\"event\",\"state\"}: \"event\" is the\n"
    "log line of version V (null at 0), \"state\" the object `mentat state\n"
    "--json` prints for the same viewer.\n"
    "\n"
    "Examples:\n"
    "  mentat replay K7QX2M9P --to 40 --seat harkonnen\n"
    "  mentat replay K7QX2M9P --to 0 --public\n"
    "  mentat replay K7QX2M9P --to 120 --seat 3 --json | jq '.state.seats[2].hand'\n";

static int keep_line(void *ctx, const inspect_log_line *line)
{
    *(inspect_log_line *)ctx = *line;
    return 0;
}

void tool_replay_write(FILE *f, int is_json, const engine_config *cfg, uint8_t viewer,
                       const struct inspect_log_line *line, const tool_state_doc *d)
{
    if (is_json) {
        tool_json j;
        tool_json_init(&j, f);
        tool_json_object_begin(&j);
        tool_json_member_string(&j, "room", d->room);
        tool_json_member_uint(&j, "version", d->version);
        tool_json_key(&j, "viewer");
        tool_viewer_json(&j, cfg, viewer);
        if (d->is_keyless)
            tool_json_member_bool(&j, "keyless", 1);
        tool_json_key(&j, "event");
        if (line != NULL)
            tool_log_line_json(&j, cfg, line);
        else
            tool_json_null(&j);
        tool_json_key(&j, "state");
        tool_state_json(&j, d);
        tool_json_object_end(&j);
        tool_json_finish(&j);
        return;
    }
    char who[128];
    tool_viewer_keyless_text(who, sizeof who, cfg, viewer, d->is_keyless);
    fprintf(f, "replay of %s to version %u as %s\n", d->room, d->version, who);
    if (line != NULL)
        fprintf(f, "event %u: %s\n", line->version, line->text);
    else
        fprintf(f, "the opening position (no event yet)\n");
    fputc('\n', f);
    tool_state_print(f, d);
}

int cmd_replay(int argc, char **argv, const tool_globals *gin)
{
    tool_globals g = *gin;
    const char *to_s = NULL, *seat_s = NULL;
    int is_public = 0, is_auditor = 0;
    const tool_opt opts[] = {
        {"--to", "V", &to_s, NULL},
        {"--seat", "S", &seat_s, NULL},
        {"--public", NULL, NULL, &is_public},
        {"--auditor", NULL, NULL, &is_auditor},
        {NULL, NULL, NULL, NULL},
    };
    const char *pos[1];
    size_t n_pos = 0;
    int r = tool_args_parse(&g, argc, argv, opts, pos, 1, &n_pos, help);
    if (r != TOOL_PARSED)
        return r == TOOL_HELP ? TOOL_EXIT_OK : TOOL_EXIT_USAGE;
    if (n_pos == 0) {
        tool_err(&g, "missing ROOM (see mentat replay --help)");
        return TOOL_EXIT_USAGE;
    }
    uint32_t to = 0;
    if (to_s != NULL && tool_parse_uint(&to, to_s, 0, UINT32_MAX) != 0) {
        tool_err(&g, "--to must be a version, not '%s'", to_s);
        return TOOL_EXIT_USAGE;
    }

    ledger *db;
    int ex = tool_ledger_open(&db, &g, 1);
    if (ex != TOOL_EXIT_OK)
        return ex;
    ledger_room_info info;
    uint8_t viewer;
    static engine_state view;
    int is_keyless = 0;
    ex = tool_view_at(&view, &is_keyless, &info, &viewer, &to, db, &g, pos[0], seat_s, is_public,
                      is_auditor, to_s != NULL, "--to");
    if (ex != TOOL_EXIT_OK)
        goto out;
    int rc;
    static inspect_log_line line;
    int has_line = 0;
    if (to > 0) {
        rc = inspect_log_walk(db, info.room, viewer, to, to, keep_line, &line);
        if (rc != 0) {
            ex = tool_ledger_fail(&g, db, rc);
            goto out;
        }
        has_line = 1;
    }
    tool_state_doc d = {info.room, to, info.version, &view, NULL, 0, is_keyless};
    tool_replay_write(stdout, g.is_json, &info.config, viewer, has_line ? &line : NULL, &d);
out:
    ledger_close(db);
    return ex;
}
