/*
 * generic.c - the generic actions: a power whose row sits at
 * ENGINE__POINT_POWER declares its form (slug, argument names, types,
 * ranges, secret ones, a bot's default) and what using it does (rules
 * version 5 on, the kind `power`), and a window whose row sits at
 * ENGINE__POINT_WINDOW declares its answer's form and what an answer does
 * (rules version 6 on, the kind `answer`). This file turns the rows into
 * the actions' legal families and handlers, so a new power or window adds
 * a row, not an action kind. The codec, the action JSON, the log and the
 * bots read the same forms through engine_generic_form. It knows no power
 * and no window itself. Engine layer: no I/O, no allocation, no clock.
 */
#include <string.h>

#include "engine/internal.h"

/* FNV-1a folded to 1..32767: the wire id of a slug, stable forever. */
static int16_t slug_id(const char *slug)
{
    uint32_t h = 2166136261u;
    for (const unsigned char *p = (const unsigned char *)slug; *p; p++)
        h = (h ^ *p) * 16777619u;
    return (int16_t)(1 + h % 32767u);
}

int16_t engine_power_id(const char *slug)
{
    return slug_id(slug);
}

int16_t engine_window_id(const char *slug)
{
    return slug_id(slug);
}

/* The rule point whose rows declare the forms of a generic kind, or
 * ENGINE__POINT_COUNT for any other kind. */
static unsigned point_of(unsigned kind)
{
    return kind == ENGINE_ACTION_POWER    ? ENGINE__POINT_POWER
           : kind == ENGINE_ACTION_ANSWER ? ENGINE__POINT_WINDOW
                                          : ENGINE__POINT_COUNT;
}

int engine_action_is_generic(unsigned kind)
{
    return point_of(kind) != ENGINE__POINT_COUNT;
}

/* The row of `fam` at `point` declaring the form with id `id`, or NULL. */
static const engine__power_row *row_in(const engine__power_family *fam, unsigned point, int id)
{
    for (size_t i = 0; fam && i < fam->n; i++) {
        const engine__power_row *r = &fam->rows[i];
        if (r->point == point && r->form && slug_id(r->form->slug) == id)
            return r;
    }
    return NULL;
}

/* The row of any family (a faction's, a Nexus card's, the Nexus Cards
 * module's) at `point` declaring the form with id `id`, or NULL. */
static const engine__power_row *row_of(unsigned point, int id)
{
    const engine__power_row *module = row_in(&engine__nexus_module, point, id);
    if (module)
        return module;
    for (unsigned f = 0; f < ENGINE_FACTION_COUNT; f++) {
        const engine__power_row *r = row_in(engine__power_families[f], point, id);
        if (!r)
            r = row_in(engine__nexus_families[f], point, id);
        if (r)
            return r;
    }
    return NULL;
}

const engine_power_form *engine_generic_form(unsigned kind, int id)
{
    unsigned point = point_of(kind);
    const engine__power_row *r = point < ENGINE__POINT_COUNT ? row_of(point, id) : NULL;
    return r ? r->form : NULL;
}

int engine_generic_from_slug(unsigned kind, const char *slug)
{
    int id = slug_id(slug);
    const engine_power_form *form = engine_generic_form(kind, id);
    return form && strcmp(form->slug, slug) == 0 ? id : -1;
}

const engine_power_form *engine_power_form_of(int id)
{
    return engine_generic_form(ENGINE_ACTION_POWER, id);
}

int engine_power_from_slug(const char *slug)
{
    return engine_generic_from_slug(ENGINE_ACTION_POWER, slug);
}

const engine_power_form *engine_window_form_of(int id)
{
    return engine_generic_form(ENGINE_ACTION_ANSWER, id);
}

int engine_window_from_slug(const char *slug)
{
    return engine_generic_from_slug(ENGINE_ACTION_ANSWER, slug);
}

const engine_action_spec *engine_action_spec_for(engine_action_spec *buf, unsigned kind,
                                                 int arg0)
{
    const engine_action_spec *table = engine_action_spec_of(kind);
    const engine_power_form *form = engine_generic_form(kind, arg0);
    if (form == NULL)
        return table;
    memset(buf, 0, sizeof *buf);
    buf->name = table->name;
    buf->n_args = (uint8_t)(1 + form->n_args);
    buf->arg_name[0] = table->arg_name[0];
    buf->arg_type[0] = table->arg_type[0];
    for (unsigned a = 0; a < form->n_args && a < ENGINE_POWER_MAX_ARGS; a++) {
        buf->arg_name[1 + a] = form->arg_name[a];
        buf->arg_type[1 + a] = form->arg_type[a];
    }
    return buf;
}

uint8_t engine_generic_secret_mask(const engine_action *act)
{
    if (!engine_action_is_generic(act->kind))
        return 0;
    const engine_power_form *form = engine_generic_form(act->kind, act->arg[0]);
    return (uint8_t)(form ? (unsigned)form->secret_args << 1 : 0xFEu);
}

/* One family of a generic kind: arg 0 fixed at the row's id, the rest
 * the form's ranges. */
static void form_family(engine_legal *l, unsigned kind, uint8_t seat,
                        const engine_power_form *form)
{
    engine__legal_init(l, kind, seat);
    l->lo[0] = l->hi[0] = slug_id(form->slug);
    for (unsigned a = 0; a < form->n_args; a++) {
        l->lo[1 + a] = form->lo[a];
        l->hi[1 + a] = form->hi[a];
    }
}

/* ARG_OUT_OF_RANGE naming the first argument outside the form (an
 * argument it does not declare must be 0), or ACCEPTED. */
static engine_verdict form_check(engine_verdict_detail *why, const engine_power_form *form,
                                 const engine_action *act)
{
    for (unsigned i = 0; i < ENGINE_POWER_MAX_ARGS; i++) {
        int16_t v = act->arg[1 + i];
        int ok = i < form->n_args ? v >= form->lo[i] && v <= form->hi[i] : v == 0;
        if (!ok)
            return engine__reject(why, ENGINE_REJECT_ARG_OUT_OF_RANGE, (int)(1 + i), v);
    }
    return ENGINE_ACCEPTED;
}

/* ============================================================= powers */

/* The row of power `id` that `seat` may use now (its own or its ally's,
 * in force, its `when` agreeing), with its owner; NULL if none. */
static const engine__power_row *usable(const engine_state *st, unsigned seat, int id,
                                       unsigned *owner)
{
    for (unsigned i = 0; i < ENGINE__POINT_ROWS_MAX; i++) {
        unsigned o;
        const engine__power_row *r = engine__point_row_nth(st, ENGINE__POINT_POWER, seat, i, &o);
        if (r && r->form && slug_id(r->form->slug) == id) {
            *owner = o;
            return r;
        }
    }
    return NULL;
}

size_t engine__legal_power(engine_legal *out, size_t cap, const engine_state *st, uint8_t seat)
{
    size_t n = 0;
    if (!engine__rule(st, ENGINE__RULE_GENERIC_ACTIONS))
        return 0;
    for (unsigned i = 0; i < ENGINE__POINT_ROWS_MAX; i++) {
        unsigned owner;
        const engine__power_row *r = engine__point_row_nth(st, ENGINE__POINT_POWER, seat, i, &owner);
        if (!r || !r->form || !r->use || r->decision)
            continue;
        if (r->legal) {
            n += r->legal(out && n < cap ? out + n : NULL, n < cap ? cap - n : 0, st, seat,
                          engine_power_id(r->form->slug));
            continue;
        }
        engine_legal l;
        form_family(&l, ENGINE_ACTION_POWER, seat, r->form);
        if (!r->fn || r->form->n_args == 0) {
            engine__legal_push(out, cap, &n, &l);
            continue;
        }
        /* narrower than the form: a family per value its row allows now */
        for (int v = r->form->lo[0]; v <= r->form->hi[0]; v++)
            if (r->fn(st, owner, seat, v)) {
                l.lo[1] = l.hi[1] = (int16_t)v;
                engine__legal_push(out, cap, &n, &l);
            }
    }
    return n;
}

size_t engine__legal_power_decision(engine_legal *out, size_t cap, const engine_state *st,
                                    uint8_t seat)
{
    size_t n = 0;
    for (unsigned i = 0; i < ENGINE__POINT_ROWS_MAX; i++) {
        unsigned owner;
        const engine__power_row *r = engine__point_row_nth(st, ENGINE__POINT_POWER, seat, i, &owner);
        if (r && r->form && r->use && r->decision)
            n += r->decision(out && n < cap ? out + n : NULL, n < cap ? cap - n : 0, st, seat);
    }
    return n;
}

engine_verdict engine__power(engine_verdict_detail *why, engine_state *st,
                             const engine_action *act, engine_rng *rng)
{
    unsigned owner = 0;
    const engine__power_row *r = usable(st, act->seat, act->arg[0], &owner);
    if (r && !r->use && r->nexus) /* a panel of the card it holds, not built yet */
        return engine__reject(why, ENGINE_REJECT_RULE_NOT_IMPLEMENTED, 0,
                              (int32_t)engine_nexus_panel_row(r->faction, r->nexus - 1u));
    if (!r || !r->use)
        return engine__reject(why, engine_power_form_of(act->arg[0]) ? ENGINE_REJECT_NOT_YOUR_POWER
                                                                     : ENGINE_REJECT_ARG_OUT_OF_RANGE,
                              0, act->arg[0]);
    engine_verdict v = form_check(why, r->form, act);
    return v != ENGINE_ACCEPTED ? v : r->use(why, st, owner, act, rng);
}

/* ============================================================ windows */

const engine__power_row *engine__generic_window(const engine_state *st, int id)
{
    const engine__power_row *r = row_of(ENGINE__POINT_WINDOW, id);
    return r && r->answer && engine__rule(st, ENGINE__RULE_GENERIC_WINDOWS) &&
                   engine__row_in_force(st, r)
               ? r
               : NULL;
}

engine_frame *engine__window_open(engine_state *st, int id, unsigned owner, unsigned user,
                                  const engine_action *held, uint16_t asked)
{
    uint16_t all = (uint16_t)((1u << st->config.n_seats) - 1);
    asked &= all;
    if (engine__generic_window(st, id) == NULL || asked == 0 || st->n_frames >= ENGINE_FRAME_MAX)
        return NULL;
    engine_frame *f = engine__frame_push(st, ENGINE_WINDOW_GENERIC, owner, user, held, asked);
    f->window = (uint16_t)id;
    return f;
}

/* The top frame if it is the generic window `id`, else NULL. */
static engine_frame *open_window(engine_state *st, int id)
{
    engine_frame *f = engine__frame_top(st);
    return f && f->point == ENGINE_WINDOW_GENERIC && f->window == id ? f : NULL;
}

size_t engine__legal_answer(engine_legal *out, size_t cap, const engine_state *st, uint8_t seat)
{
    size_t n = 0;
    const engine_frame *f = engine_window_top(st);
    if (!f || f->point != ENGINE_WINDOW_GENERIC || !(f->asked & ~f->answered & ENGINE_SEAT_BIT(seat)))
        return 0;
    const engine__power_row *r = engine__generic_window(st, f->window);
    if (!r)
        return 0;
    if (r->legal) /* narrower than the form: the seat's own answers */
        return r->legal(out, cap, st, seat, (int16_t)f->window);
    engine_legal l;
    form_family(&l, ENGINE_ACTION_ANSWER, seat, r->form);
    engine__legal_push(out, cap, &n, &l);
    return n;
}

/* An answer to the open window (engine_apply checked that a generic
 * window is on top and asks this seat): arg 0 must name it, the rest its
 * form; the row's `answer` does the rest. The seat has answered unless
 * its answer is held above the window (a Karama window); once every seat
 * asked has, the window closes. */
engine_verdict engine__answer(engine_verdict_detail *why, engine_state *st,
                              const engine_action *act, engine_rng *rng)
{
    engine_frame *f = open_window(st, act->arg[0]);
    const engine__power_row *r = f ? engine__generic_window(st, f->window) : NULL;
    if (!r)
        return engine__reject(why, ENGINE_REJECT_ARG_OUT_OF_RANGE, 0, act->arg[0]);
    engine_verdict v = form_check(why, r->form, act);
    if (v == ENGINE_ACCEPTED)
        v = r->answer(why, st, f, act, rng);
    if (v != ENGINE_ACCEPTED || engine__frame_top(st) != f)
        return v;
    f->answered |= ENGINE_SEAT_BIT(act->seat);
    if (f->answered == f->asked)
        engine__frame_close(st, act, rng);
    engine__karama_after(st, act);
    return ENGINE_ACCEPTED;
}

void engine__answer_resume(engine_state *st, const engine_frame *f, const engine_action *answer,
                           engine_rng *rng)
{
    const engine__power_row *r = engine__generic_window(st, f->window);
    if (r && r->close)
        r->close(st, f, answer, rng);
}

/* ================================================================ bots */

int engine_generic_default(engine_action *out, const engine_legal *l)
{
    const engine_power_form *form = engine_generic_form(l->kind, l->lo[0]);
    if (!form)
        return -1;
    memset(out, 0, sizeof *out);
    out->kind = l->kind;
    out->seat = l->seat;
    out->arg[0] = l->lo[0];
    for (unsigned i = 0; i < form->n_args; i++) {
        int16_t v = form->fallback[i];
        out->arg[1 + i] = v < l->lo[1 + i] ? l->lo[1 + i] : v > l->hi[1 + i] ? l->hi[1 + i] : v;
    }
    return 0;
}
