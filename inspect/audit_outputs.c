/*
 * audit_outputs.c - the output paths of inspect/ that a seat or spectator
 * reaches, as rows for the audit: each row prints, into a caller's
 * buffer, exactly what the function its command calls gives that viewer
 * after an event (the log line of `mentat log --seat`, the changes of
 * `mentat diff`, the SVG of `mentat render`).
 *
 * The audit compares these bytes between worlds the viewer cannot tell
 * apart, so a mistake in a printing path (the full state walked where a
 * view was meant) shows even when engine_view is right. The rows of the
 * tools layer (state, replay, log JSON, the bots' input) are added by
 * tools/audit_outputs.c, which passes the whole table to the audit.
 *
 * Layer: inspect. Each row reads the states it is given and writes only
 * the caller's buffer (through fmemopen for the functions that print to
 * a FILE); nothing here is on a command's path. The rows keep their
 * scratch (views, changes) in static storage: one audit at a time.
 */
#include <string.h>

#include "inspect/internal.h"

/* What print(f, ctx) writes, into out (cap bytes, through fmemopen): the
 * byte count, 0 when it fails. */
static size_t buffer_print(char *out, size_t cap, int (*print)(FILE *f, void *ctx), void *ctx)
{
    if (cap == 0)
        return 0;
    FILE *f = fmemopen(out, cap, "w");
    if (f == NULL)
        return 0;
    int rc = print(f, ctx);
    long n = ftell(f);
    fclose(f);
    if (rc != 0 || n < 0)
        return 0;
    return (size_t)n;
}

/* ---- log: the line `mentat log --seat` is told, from the seat's views */

static size_t emit_log(char *out, size_t cap, const engine_state *before,
                       const engine_state *after, const engine_action *act, uint32_t version,
                       uint8_t viewer)
{
    if (act == NULL || cap == 0)
        return 0;
    static engine_state vb, va;
    static inspect_log_line line;
    engine_view(&vb, before, viewer);
    engine_view(&va, after, viewer);
    inspect_log_describe(&line, &vb, &va, act, version, viewer);
    int n = snprintf(out, cap, "%u %u %u [%d %d %d %d %d %d] %s", line.version, line.seat,
                     line.kind, line.action.arg[0], line.action.arg[1], line.action.arg[2],
                     line.action.arg[3], line.action.arg[4], line.action.arg[5], line.text);
    return n < 0 ? 0 : (size_t)n;
}

/* ---- diff: what `mentat diff` lists between the versions before and
 * after the event, as the viewer could see them */

static size_t emit_diff(char *out, size_t cap, const engine_state *before,
                        const engine_state *after, const engine_action *act, uint32_t version,
                        uint8_t viewer)
{
    (void)act;
    (void)version;
    static engine_state vb, va;
    static inspect_change changes[256];
    engine_view(&vb, before, viewer);
    engine_view(&va, after, viewer);
    size_t n = inspect_diff(changes, sizeof changes / sizeof changes[0], &vb, &va);
    inspect__text t;
    inspect__text_init(&t, out, cap);
    inspect__text_add(&t, "%zu", n);
    for (size_t i = 0; i < n && i < sizeof changes / sizeof changes[0]; i++) {
        const inspect_change *c = &changes[i];
        inspect__text_add(&t, "\n%u %u %d %d %d %s", c->kind, c->seat, c->where, (int)c->before,
                          (int)c->after, c->text);
    }
    return t.len;
}

/* ---- render: the SVG `mentat render` draws of the viewer's view */

typedef struct render_ctx {
    const engine_state *view;
} render_ctx;

static int print_render(FILE *f, void *vctx)
{
    const render_ctx *c = vctx;
    inspect_render_options opt;
    inspect_render_options_init(&opt);
    return inspect_render_svg(f, c->view, &opt);
}

static size_t emit_render(char *out, size_t cap, const engine_state *before,
                          const engine_state *after, const engine_action *act, uint32_t version,
                          uint8_t viewer)
{
    (void)before;
    (void)act;
    (void)version;
    static engine_state view;
    engine_view(&view, after, viewer);
    render_ctx c = {&view};
    return buffer_print(out, cap, print_render, &c);
}

const inspect_audit_output inspect__outputs[INSPECT__N_OUTPUTS] = {
    {"log_line", "log", emit_log, 0},
    {"diff", "diff", emit_diff, 0},
    {"render_svg", "render", emit_render, 1},
};

const inspect_audit_output *inspect_audit_outputs(size_t *n_out)
{
    *n_out = INSPECT__N_OUTPUTS;
    return inspect__outputs;
}
