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

#define ACTION_JSON_TOKENS 64

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

void tool_viewer_text(char *out, size_t cap, const engine_config *cfg, uint8_t viewer)
{
    if (viewer == ENGINE_SEAT_ENGINE)
        snprintf(out, cap, "the auditor");
    else if (viewer == ENGINE_VIEW_PUBLIC)
        snprintf(out, cap, "the public");
    else
        snprintf(out, cap, "seat %u %s", viewer + 1u, tool_seat_faction(cfg, viewer));
}

void tool_viewer_json(tool_json *j, const engine_config *cfg, uint8_t viewer)
{
    if (viewer == ENGINE_SEAT_ENGINE) {
        tool_json_string(j, "auditor");
        return;
    }
    if (viewer == ENGINE_VIEW_PUBLIC) {
        tool_json_string(j, "public");
        return;
    }
    tool_json_object_begin(j);
    tool_json_member_uint(j, "seat", viewer + 1u);
    tool_json_member_string(j, "faction", tool_seat_faction(cfg, viewer));
    tool_json_object_end(j);
}

void tool_masked_action_json(tool_json *j, const engine_action *masked)
{
    /* The action JSON of the codec, with each hidden argument written as
     * null: hidden ones are zeroed for the codec, then replaced. */
    const engine_action_spec *spec = engine_action_spec_of(masked->kind);
    engine_action a = *masked;
    unsigned hidden = 0;
    for (unsigned i = 0; i < ENGINE_ACTION_MAX_ARGS; i++)
        if (a.arg[i] == INSPECT_ARG_HIDDEN) {
            a.arg[i] = 0;
            hidden |= 1u << i;
        }
    char text[1024];
    codec_json_token tok[ACTION_JSON_TOKENS];
    int n = -1;
    if (spec != NULL && codec_action_to_json(text, sizeof text, &a) == 0)
        n = codec_json_parse(tok, ACTION_JSON_TOKENS, text, strlen(text), NULL);
    if (n <= 0 || tok[0].type != CODEC_JSON_OBJECT) {
        tool_json_object_begin(j);
        tool_json_member_uint(j, "kind", masked->kind);
        tool_json_object_end(j);
        return;
    }
    if (hidden == 0) {
        tool_json_raw(j, text);
        return;
    }
    tool_json_object_begin(j);
    int k = 1;
    for (uint32_t m = 0; m < tok[0].size; m++) {
        int key = k, val = k + 1;
        char name[64];
        if (codec_json_string(name, sizeof name, &tok[key], text) != 0)
            name[0] = '\0';
        tool_json_key(j, name);
        int is_hidden = 0;
        for (unsigned i = 0; i < spec->n_args; i++)
            if ((hidden & (1u << i)) && strcmp(spec->arg_name[i], name) == 0)
                is_hidden = 1;
        if (is_hidden) {
            tool_json_null(j);
        } else {
            /* A string token's span leaves out its quotes. */
            uint32_t s = tok[val].start, e = tok[val].end;
            if (tok[val].type == CODEC_JSON_STRING)
                s--, e++;
            char raw[512];
            size_t len = e - s < sizeof raw - 1 ? e - s : sizeof raw - 1;
            memcpy(raw, text + s, len);
            raw[len] = '\0';
            tool_json_raw(j, raw);
        }
        k = (int)tok[val].next;
    }
    tool_json_object_end(j);
}

int tool_view_at(engine_state *view, ledger_room_info *info, uint8_t *viewer, uint32_t *at,
                 ledger *db, const tool_globals *g, const char *room, const char *seat_s,
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
    int rc = inspect_room_replay(view, db, info->room, *at, *viewer);
    return rc != 0 ? tool_ledger_fail(g, db, rc) : TOOL_EXIT_OK;
}
