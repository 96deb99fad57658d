/*
 * inspect_out.c - what the inspection commands (replay, log --seat, diff,
 * render) share: the viewer named on the command line, how a viewer is
 * printed, and an action masked for a viewer as JSON.
 *
 * Layer: tools. Thin: the inspecting is inspect/'s; this file turns its
 * results into text and JSON and never reads a hidden argument it was not
 * given (a masked action's hidden arguments are printed as null).
 */
#include <string.h>

#include "inspect/inspect.h"
#include "tools/internal.h"

int tool_viewer_parse(uint8_t *out, const tool_globals *g, const engine_config *cfg,
                      const char *seat_s, int is_public, int is_auditor, uint8_t default_viewer)
{
    if ((seat_s != NULL) + (is_public != 0) + (is_auditor != 0) > 1) {
        tool_err(g, "give at most one of --seat, --public and --auditor");
        return TOOL_EXIT_USAGE;
    }
    *out = default_viewer;
    if (is_public)
        *out = ENGINE_VIEW_PUBLIC;
    else if (is_auditor)
        *out = ENGINE_SEAT_ENGINE;
    else if (seat_s != NULL) {
        char err[SCHEMA_ERRMSG];
        if (tool_parse_seat(out, seat_s, cfg, err) != 0) {
            tool_err(g, "--seat: %s", err);
            return TOOL_EXIT_USAGE;
        }
    }
    return TOOL_EXIT_OK;
}

void tool_viewer_keyless_text(char *out, size_t cap, const engine_config *cfg, uint8_t viewer,
                              int is_keyless)
{
    tool_viewer_text(out, cap, cfg, viewer);
    if (is_keyless) {
        size_t n = strlen(out);
        snprintf(out + n, cap - n, " (no audit key: the public view stored with each event)");
    }
}

void tool_viewer_text(char *out, size_t cap, const engine_config *cfg, uint8_t viewer)
{
    if (viewer == ENGINE_SEAT_ENGINE)
        snprintf(out, cap, "the auditor");
    else if (viewer == ENGINE_VIEW_PUBLIC)
        snprintf(out, cap, "the public");
    else
        snprintf(out, cap, "seat %u %s", viewer + 1u, tool_seat_faction(cfg, viewer));
}

int tool_view_at(engine_state *view, int *is_keyless, ledger_room_info *info, uint8_t *viewer,
                 uint32_t *at, ledger *db, const tool_globals *g, const char *room, const char *seat_s,
                 int is_public, int is_auditor, int has_version, const char *flag)
{
    int ex = tool_room_get(info, db, g, room);
    if (ex != TOOL_EXIT_OK)
        return ex;
    ex = tool_viewer_parse(viewer, g, &info->config, seat_s, is_public, is_auditor,
                           ENGINE_SEAT_ENGINE);
    if (ex != TOOL_EXIT_OK)
        return ex;
    if (!has_version)
        *at = info->version;
    if (*at > info->version) {
        tool_err(g, "%s %u is past the head of %s (version %u)", flag, *at, info->room,
                 info->version);
        return TOOL_EXIT_USAGE;
    }
    int rc = inspect_room_view(view, is_keyless, db, info->room, *at, *viewer);
    if (rc == 0 && *is_keyless)
        *viewer = ENGINE_VIEW_PUBLIC; /* all a reader without the audit key sees */
    return rc != 0 ? tool_ledger_fail(g, db, rc) : TOOL_EXIT_OK;
}
