/*
 * cmd_render.c - `mentat render`: an SVG picture of Arrakis at a version
 * as one viewer saw it.
 *
 * Layer: tools. The view is inspect_room_replay's, the picture
 * inspect_render_svg's; this file names the output and writes it
 * atomically (a temporary file beside it, renamed into place), so a
 * browser never reads half a picture.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "inspect/inspect.h"
#include "tools/internal.h"

static const char help[] =
    "usage: mentat render ROOM [--at V] [--seat S | --public | --auditor] --out FILE.svg\n"
    "\n"
    "Draws the board of ROOM after version V (default the head) as one viewer\n"
    "saw it, as a standalone SVG any browser opens: the 18 storm sectors as a\n"
    "ring around the Polar Sink, every territory labelled with its name, the\n"
    "storm's sector shaded, forces as markers in each faction's colour with\n"
    "their counts (* elite, a advisors), spice amounts on orange diamonds, and\n"
    "a panel with the turn, the phase, who is awaited and each seat's spice,\n"
    "reserves, Tanks and hand as the viewer knows it. The layout is a\n"
    "schematic of the board: territories are placed by their sectors.\n"
    "\n"
    "  --seat S    as seat S (1..N or a faction of the room) saw it\n"
    "  --public    as a spectator saw it\n"
    "  --auditor   everything (the default)\n"
    "  --out FILE  where the SVG goes; - for standard output. FILE is written\n"
    "              under a temporary name beside it and renamed into place; a\n"
    "              ledger, a lock or key file, a directory, a device or a link\n"
    "              is refused (--force replaces another ledger)\n"
    "  --force     replace FILE even if it is a ledger (never this one)\n"
    "  --size N    the board's width and height in pixels (default 900)\n"
    "\n"
    "Examples:\n"
    "  mentat render K7QX2M9P --at 120 --seat fremen --out turn3-fremen.svg\n"
    "  mentat render K7QX2M9P --public --out - > board.svg\n";

typedef struct render_job {
    const engine_state *view;
    const inspect_render_options *opt;
} render_job;

static int render_to(FILE *f, void *ctx)
{
    const render_job *job = ctx;
    return inspect_render_svg(f, job->view, job->opt) == 0 ? 0 : -1;
}

int cmd_render(int argc, char **argv, const tool_globals *gin)
{
    tool_globals g = *gin;
    const char *at_s = NULL, *seat_s = NULL, *out_s = NULL, *size_s = NULL;
    int is_public = 0, is_auditor = 0, is_forced = 0;
    const tool_opt opts[] = {
        {"--force", NULL, NULL, &is_forced},
        {"--at", "V", &at_s, NULL},
        {"--seat", "S", &seat_s, NULL},
        {"--public", NULL, NULL, &is_public},
        {"--auditor", NULL, NULL, &is_auditor},
        {"--out", "FILE", &out_s, NULL},
        {"--size", "N", &size_s, NULL},
        {NULL, NULL, NULL, NULL},
    };
    const char *pos[1];
    size_t n_pos = 0;
    int r = tool_args_parse(&g, argc, argv, opts, pos, 1, &n_pos, help);
    if (r != TOOL_PARSED)
        return r == TOOL_HELP ? TOOL_EXIT_OK : TOOL_EXIT_USAGE;
    if (n_pos == 0) {
        tool_err(&g, "missing ROOM (see mentat render --help)");
        return TOOL_EXIT_USAGE;
    }
    if (out_s == NULL || out_s[0] == '\0') {
        tool_err(&g, "missing --out FILE.svg (- for standard output)");
        return TOOL_EXIT_USAGE;
    }
    uint32_t at = 0, size = 900;
    if (at_s != NULL && tool_parse_uint(&at, at_s, 0, UINT32_MAX) != 0) {
        tool_err(&g, "--at must be a version, not '%s'", at_s);
        return TOOL_EXIT_USAGE;
    }
    if (size_s != NULL && tool_parse_uint(&size, size_s, 300, 8000) != 0) {
        tool_err(&g, "--size must be 300..8000 pixels, not '%s'", size_s);
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
    ex = tool_view_at(&view, &is_keyless, &info, &viewer, &at, db, &g, pos[0], seat_s, is_public,
                      is_auditor, at_s != NULL, "--at");
    if (ex != TOOL_EXIT_OK)
        goto out;
    char who[128], title[160];
    tool_viewer_keyless_text(who, sizeof who, &info.config, viewer, is_keyless);
    snprintf(title, sizeof title, "room %s at version %u of %u%s", info.room, at, info.version,
             is_keyless ? ", the public view (no audit key)" : "");
    inspect_render_options ro;
    inspect_render_options_init(&ro);
    ro.title = title;
    ro.size = size;

    render_job job = {&view, &ro};
    int is_stdout = strcmp(out_s, "-") == 0;
    ex = tool_file_write(db, &g, out_s, is_forced ? LEDGER_OUT_FORCE : 0u, render_to, &job);
    if (ex != TOOL_EXIT_OK)
        goto out;
    if (!is_stdout && g.is_json) {
        tool_json j;
        tool_json_init(&j, stdout);
        tool_json_object_begin(&j);
        tool_json_member_string(&j, "room", info.room);
        tool_json_member_uint(&j, "version", at);
        tool_json_key(&j, "viewer");
        tool_viewer_json(&j, &info.config, viewer);
        if (is_keyless)
            tool_json_member_bool(&j, "keyless", 1);
        tool_json_member_string(&j, "out", out_s);
        tool_json_object_end(&j);
        tool_json_finish(&j);
    } else if (!is_stdout) {
        printf("wrote %s: room %s at version %u as %s\n", out_s, info.room, at, who);
    }
out:
    ledger_close(db);
    return ex;
}
