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
    "  --out FILE  where the SVG goes; - for standard output\n"
    "  --size N    the board's width and height in pixels (default 900)\n"
    "\n"
    "Examples:\n"
    "  mentat render K7QX2M9P --at 120 --seat fremen --out turn3-fremen.svg\n"
    "  mentat render K7QX2M9P --public --out - > board.svg\n";

int cmd_render(int argc, char **argv, const tool_globals *gin)
{
    tool_globals g = *gin;
    const char *at_s = NULL, *seat_s = NULL, *out_s = NULL, *size_s = NULL;
    int is_public = 0, is_auditor = 0;
    const tool_opt opts[] = {
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
    char *tmp = NULL;
    FILE *f = NULL;
    int ex = tool_ledger_open(&db, &g, 1);
    if (ex != TOOL_EXIT_OK)
        return ex;
    ledger_room_info info;
    uint8_t viewer;
    static engine_state view;
    ex = tool_view_at(&view, &info, &viewer, &at, db, &g, pos[0], seat_s, is_public, is_auditor,
                      at_s != NULL, "--at");
    if (ex != TOOL_EXIT_OK)
        goto out;
    int rc;
    char who[48], title[128];
    tool_viewer_text(who, sizeof who, &info.config, viewer);
    snprintf(title, sizeof title, "room %s at version %u of %u", info.room, at, info.version);
    inspect_render_options ro;
    inspect_render_options_init(&ro);
    ro.title = title;
    ro.size = size;

    int is_stdout = strcmp(out_s, "-") == 0;
    if (is_stdout) {
        f = stdout;
    } else {
        size_t n = strlen(out_s) + 16;
        tmp = malloc(n);
        if (tmp == NULL) {
            tool_err(&g, "out of memory");
            ex = TOOL_EXIT_USAGE;
            goto out;
        }
        snprintf(tmp, n, "%s.tmp%ld", out_s, (long)getpid());
        f = fopen(tmp, "w");
        if (f == NULL) {
            tool_err(&g, "cannot write %s: %s", tmp, strerror(errno));
            ex = TOOL_EXIT_USAGE;
            goto out;
        }
    }
    rc = inspect_render_svg(f, &view, &ro);
    if (!is_stdout) {
        int closed = fclose(f);
        f = NULL;
        if (rc == 0 && closed == 0 && rename(tmp, out_s) == 0) {
            if (!g.is_json)
                printf("wrote %s: room %s at version %u as %s\n", out_s, info.room, at, who);
        } else {
            tool_err(&g, "cannot write %s", out_s);
            remove(tmp);
            ex = TOOL_EXIT_USAGE;
            goto out;
        }
        if (g.is_json) {
            tool_json j;
            tool_json_init(&j, stdout);
            tool_json_object_begin(&j);
            tool_json_member_string(&j, "room", info.room);
            tool_json_member_uint(&j, "version", at);
            tool_json_key(&j, "viewer");
            tool_viewer_json(&j, &info.config, viewer);
            tool_json_member_string(&j, "out", out_s);
            tool_json_object_end(&j);
            tool_json_finish(&j);
        }
    } else if (rc != 0) {
        tool_err(&g, "cannot write the picture to standard output");
        ex = TOOL_EXIT_USAGE;
    }
out:
    free(tmp);
    ledger_close(db);
    return ex;
}
