/*
 * audit_outputs.c - every output path of the mentat command that shows a
 * seat or a spectator anything, one row each, for the audit to compare
 * between worlds the viewer cannot tell apart (inspect_audit_output).
 *
 * Each row prints, into the audit's buffer, what the command prints: it
 * calls the very function the command calls (tool_state_write for
 * `mentat state`, tool_replay_write for `replay`, tool_log_line_print and
 * tool_log_line_json for `log`, bot_input_build for the bots of `games`,
 * `tournament` and `bench`, server_view_json and server_update_json for
 * what `mentat serve` answers and pushes), on the full states of the
 * audit's worlds. The
 * rows of inspect/ (log line, diff, render) come first. tests/tools checks
 * that every command whose options name a viewer has a row here.
 *
 * Layer: tools. Writes only the caller's buffer; used only by `mentat
 * audit`, the bench and the tests. Scratch is static: one audit at a time.
 */
#include <string.h>

#include "inspect/inspect.h"
#include "server/server.h"
#include "tools/internal.h"

#define AUDIT_ROOM "AUDITOUT"      /* the room code the printed documents name */

/* Prints into out through a FILE (fmemopen); the byte count, 0 on failure. */
static size_t buffer_write(char *out, size_t cap, void (*write)(FILE *f, const void *ctx),
                           const void *ctx)
{
    if (cap == 0)
        return 0;
    FILE *f = fmemopen(out, cap, "w");
    if (f == NULL)
        return 0;
    write(f, ctx);
    long n = ftell(f);
    fclose(f);
    return n < 0 ? 0 : (size_t)n;
}

/* The log line the viewer is told of act, as inspect_log_walk makes it. */
static void told(inspect_log_line *line, const engine_state *before, const engine_state *after,
                 const engine_action *act, uint32_t version, uint8_t viewer)
{
    static engine_state vb, va;
    engine_view(&vb, before, viewer);
    engine_view(&va, after, viewer);
    inspect_log_describe(line, &vb, &va, act, version, viewer);
}

/* ---- state and replay */

typedef struct doc_ctx {
    const tool_state_doc *d;
    const inspect_log_line *line;  /* replay: the event's line, or NULL */
    uint8_t viewer;
    int is_json, is_replay;
} doc_ctx;

static void write_doc(FILE *f, const void *vctx)
{
    const doc_ctx *c = vctx;
    if (c->is_replay)
        tool_replay_write(f, c->is_json, &c->d->st->config, c->viewer, c->line, c->d);
    else
        tool_state_write(f, c->is_json, c->d);
}

static size_t emit_doc(char *out, size_t cap, const engine_state *before, const engine_state *after,
                       const engine_action *act, uint32_t version, uint8_t viewer, int is_json,
                       int is_replay)
{
    static engine_state view;
    static engine_legal legal[ENGINE_LEGAL_MAX];
    static inspect_log_line line;
    tool_state_doc d;
    if (is_replay) {
        /* `mentat replay` shows the view alone, with the event's line */
        engine_view(&view, after, viewer);
        d = (tool_state_doc){AUDIT_ROOM, version, version, &view, NULL, 0, 0};
        if (act != NULL)
            told(&line, before, after, act, version, viewer);
    } else {
        tool_state_doc_for(&d, &view, legal, after, viewer, AUDIT_ROOM, version, version);
    }
    doc_ctx c = {&d, is_replay && act != NULL ? &line : NULL, viewer, is_json, is_replay};
    return buffer_write(out, cap, write_doc, &c);
}

/* One row per document and form, each emit_doc with its flags. */
#define DOC_ROW(fn, is_json, is_replay)                                                   \
    static size_t fn(char *out, size_t cap, const engine_state *before,                  \
                     const engine_state *after, const engine_action *act, uint32_t version, \
                     uint8_t viewer)                                                      \
    {                                                                                     \
        return emit_doc(out, cap, before, after, act, version, viewer, is_json, is_replay); \
    }
DOC_ROW(emit_state_text, 0, 0)
DOC_ROW(emit_state_json, 1, 0)
DOC_ROW(emit_replay_text, 0, 1)
DOC_ROW(emit_replay_json, 1, 1)

/* ---- log: as `mentat log --seat` prints a line, text and JSON */

typedef struct line_ctx {
    const engine_config *cfg;
    const inspect_log_line *line;
    int is_json;
} line_ctx;

static void write_line(FILE *f, const void *vctx)
{
    const line_ctx *c = vctx;
    if (!c->is_json) {
        tool_log_line_print(f, c->cfg, c->line);
        return;
    }
    tool_json j;
    tool_json_init(&j, f);
    tool_log_line_json(&j, c->cfg, c->line);
    tool_json_finish(&j);
}

static size_t emit_line(char *out, size_t cap, const engine_state *before,
                        const engine_state *after, const engine_action *act, uint32_t version,
                        uint8_t viewer, int is_json)
{
    if (act == NULL)
        return 0;
    static inspect_log_line line;
    told(&line, before, after, act, version, viewer);
    line_ctx c = {&after->config, &line, is_json};
    return buffer_write(out, cap, write_line, &c);
}

static size_t emit_log_text(char *out, size_t cap, const engine_state *before,
                            const engine_state *after, const engine_action *act, uint32_t version,
                            uint8_t viewer)
{
    return emit_line(out, cap, before, after, act, version, viewer, 0);
}

static size_t emit_log_json(char *out, size_t cap, const engine_state *before,
                            const engine_state *after, const engine_action *act, uint32_t version,
                            uint8_t viewer)
{
    return emit_line(out, cap, before, after, act, version, viewer, 1);
}

/* ---- the bots' input: what a bot of `games` and `tournament` decides from */

static size_t emit_bot_input(char *out, size_t cap, const engine_state *before,
                             const engine_state *after, const engine_action *act,
                             uint32_t version, uint8_t viewer)
{
    (void)before;
    (void)act;
    if (viewer >= after->config.n_seats || cap < 16)
        return 0;
    static bot_input in;
    size_t n = 0;
    for (int forced = 0; forced < 2; forced++) {
        bot_input_build(&in, after, viewer, version, forced);
        size_t m = engine_state_encode((uint8_t *)out + n, cap - n, &in.view);
        n += m < cap - n ? m : cap - n;
        size_t tail = sizeof in.version + 2 + sizeof in.n_legal + in.n_legal * sizeof in.legal[0];
        if (tail > cap - n)
            return n;
        memcpy(out + n, &in.version, sizeof in.version);
        n += sizeof in.version;
        out[n++] = (char)in.seat;
        out[n++] = (char)in.is_forced;
        memcpy(out + n, &in.n_legal, sizeof in.n_legal);
        n += sizeof in.n_legal;
        memcpy(out + n, in.legal, in.n_legal * sizeof in.legal[0]);
        n += in.n_legal * sizeof in.legal[0];
    }
    return n;
}

/* ---- serve: what GET .../view answers, and what a push event carries */

typedef struct serve_ctx {
    const engine_state *before, *after;
    const engine_action *act;
    uint32_t version;
    uint8_t viewer;
    int is_push;
} serve_ctx;

static void write_serve(FILE *f, const void *vctx)
{
    const serve_ctx *c = vctx;
    if (c->is_push)
        server_update_json(f, AUDIT_ROOM, c->version, c->after,
                           c->act != NULL ? c->before : NULL, c->act, c->viewer);
    else
        server_view_json(f, AUDIT_ROOM, c->version, c->version, c->after, c->viewer);
}

static size_t emit_serve_view(char *out, size_t cap, const engine_state *before,
                              const engine_state *after, const engine_action *act,
                              uint32_t version, uint8_t viewer)
{
    serve_ctx c = {before, after, act, version, viewer, 0};
    return buffer_write(out, cap, write_serve, &c);
}

static size_t emit_serve_push(char *out, size_t cap, const engine_state *before,
                              const engine_state *after, const engine_action *act,
                              uint32_t version, uint8_t viewer)
{
    serve_ctx c = {before, after, act, version, viewer, 1};
    return buffer_write(out, cap, write_serve, &c);
}

#define MAX_ROWS 24

const inspect_audit_output *tool_audit_outputs(size_t *n_out)
{
    static const inspect_audit_output own[] = {
        {"log_text", "log", emit_log_text, 0},
        {"log_json", "log", emit_log_json, 0},
        {"state_text", "state scenario", emit_state_text, 1},
        {"state_json", "state scenario", emit_state_json, 1},
        {"replay_text", "replay", emit_replay_text, 1},
        {"replay_json", "replay", emit_replay_json, 1},
        {"bot_input", "games tournament", emit_bot_input, 0},
        {"serve_view", "serve", emit_serve_view, 1},
        {"serve_push", "serve", emit_serve_push, 1},
    };
    static inspect_audit_output rows[MAX_ROWS];
    static size_t n_rows;
    if (n_rows == 0) {
        size_t n_inspect;
        const inspect_audit_output *base = inspect_audit_outputs(&n_inspect);
        for (size_t i = 0; i < n_inspect && n_rows < MAX_ROWS; i++)
            rows[n_rows++] = base[i];
        for (size_t i = 0; i < sizeof own / sizeof own[0] && n_rows < MAX_ROWS; i++)
            rows[n_rows++] = own[i];
    }
    *n_out = n_rows;
    return rows;
}
