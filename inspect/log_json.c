/*
 * log_json.c - the JSON of who a viewer is, of an action as a viewer was
 * told it (hidden arguments null) and of one log line: what `mentat log
 * --seat`, `mentat replay` and the server's push stream send.
 *
 * Layer: inspect. It writes what it is given: a masked action's hidden
 * arguments (INSPECT_ARG_HIDDEN) are printed as null and never looked up.
 */
#include <string.h>

#include "inspect/internal.h"

#define ACTION_JSON_TOKENS 64

const char *inspect_seat_faction(const engine_config *cfg, uint8_t seat)
{
    if (seat == ENGINE_SEAT_ENGINE)
        return "engine";
    if (seat >= cfg->n_seats)
        return "?";
    const char *name = engine_faction_name(cfg->faction[seat]);
    return name != NULL ? name : "?";
}

void inspect_viewer_json(inspect_json *j, const engine_config *cfg, uint8_t viewer)
{
    if (viewer == ENGINE_SEAT_ENGINE) {
        inspect_json_string(j, "auditor");
        return;
    }
    if (viewer == ENGINE_VIEW_PUBLIC) {
        inspect_json_string(j, "public");
        return;
    }
    inspect_json_object_begin(j);
    inspect_json_member_uint(j, "seat", viewer + 1u);
    inspect_json_member_string(j, "faction", inspect_seat_faction(cfg, viewer));
    inspect_json_object_end(j);
}

void inspect_masked_action_json(inspect_json *j, const engine_action *masked)
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
        inspect_json_object_begin(j);
        inspect_json_member_uint(j, "kind", masked->kind);
        inspect_json_object_end(j);
        return;
    }
    if (hidden == 0) {
        inspect_json_raw(j, text);
        return;
    }
    inspect_json_object_begin(j);
    int k = 1;
    for (uint32_t m = 0; m < tok[0].size; m++) {
        int key = k, val = k + 1;
        char name[64];
        if (codec_json_string(name, sizeof name, &tok[key], text) != 0)
            name[0] = '\0';
        inspect_json_key(j, name);
        int is_hidden = 0;
        for (unsigned i = 0; i < spec->n_args; i++)
            if ((hidden & (1u << i)) && strcmp(spec->arg_name[i], name) == 0)
                is_hidden = 1;
        if (is_hidden) {
            inspect_json_null(j);
        } else {
            /* A string token's span leaves out its quotes. */
            uint32_t s = tok[val].start, e = tok[val].end;
            if (tok[val].type == CODEC_JSON_STRING)
                s--, e++;
            char raw[512];
            size_t len = e - s < sizeof raw - 1 ? e - s : sizeof raw - 1;
            memcpy(raw, text + s, len);
            raw[len] = '\0';
            inspect_json_raw(j, raw);
        }
        k = (int)tok[val].next;
    }
    inspect_json_object_end(j);
}

/* The log line of `line` as one JSON object. */
void inspect_log_line_json(inspect_json *j, const engine_config *cfg, const inspect_log_line *line)
{
    inspect_json_object_begin(j);
    inspect_json_member_uint(j, "version", line->version);
    inspect_json_key(j, "seat");
    if (line->seat == ENGINE_SEAT_ENGINE)
        inspect_json_null(j);
    else
        inspect_json_uint(j, line->seat + 1u);
    inspect_json_member_string(j, "faction", inspect_seat_faction(cfg, line->seat));
    inspect_json_key(j, "action");
    inspect_masked_action_json(j, &line->action);
    inspect_json_member_string(j, "text", line->text);
    inspect_json_object_end(j);
}
