/*
 * generic.c - the generic power action (rules version 5 on): a power whose
 * row sits at ENGINE__POINT_POWER declares its form (slug, argument names,
 * types, ranges, secret ones, a bot's default) and what using it does, and
 * this file turns the row into the action's legal families and its
 * handler, so a new power adds a row, not an action kind. The codec, the
 * action JSON, the log and the bots read the same form through
 * engine_power_form_of. It knows no power itself. Engine layer: no I/O,
 * no allocation, no clock.
 */
#include <string.h>

#include "engine/internal.h"

int16_t engine_power_id(const char *slug)
{
    uint32_t h = 2166136261u;
    for (const unsigned char *p = (const unsigned char *)slug; *p; p++)
        h = (h ^ *p) * 16777619u;
    return (int16_t)(1 + h % 32767u);
}

/* The row of `fam` declaring the power with id `id`, or NULL. */
static const engine__power_row *row_in(const engine__power_family *fam, int id)
{
    for (size_t i = 0; fam && i < fam->n; i++) {
        const engine__power_row *r = &fam->rows[i];
        if (r->point == ENGINE__POINT_POWER && r->form && engine_power_id(r->form->slug) == id)
            return r;
    }
    return NULL;
}

/* The row of any family (a faction's, a Nexus card's) declaring the power
 * with id `id`, or NULL. */
static const engine__power_row *row_of(int id)
{
    for (unsigned f = 0; f < ENGINE_FACTION_COUNT; f++) {
        const engine__power_row *r = row_in(engine__power_families[f], id);
        if (!r)
            r = row_in(engine__nexus_families[f], id);
        if (r)
            return r;
    }
    return NULL;
}

const engine_power_form *engine_power_form_of(int id)
{
    const engine__power_row *r = row_of(id);
    return r ? r->form : NULL;
}

int engine_power_from_slug(const char *slug)
{
    int id = engine_power_id(slug);
    const engine_power_form *form = engine_power_form_of(id);
    return form && strcmp(form->slug, slug) == 0 ? id : -1;
}

const engine_action_spec *engine_action_spec_for(engine_action_spec *buf, unsigned kind,
                                                 int arg0)
{
    const engine_action_spec *table = engine_action_spec_of(kind);
    const engine_power_form *form =
        kind == ENGINE_ACTION_POWER ? engine_power_form_of(arg0) : NULL;
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
    if (act->kind != ENGINE_ACTION_POWER)
        return 0;
    const engine_power_form *form = engine_power_form_of(act->arg[0]);
    return (uint8_t)(form ? (unsigned)form->secret_args << 1 : 0xFEu);
}

/* The row of power `id` that `seat` may use now (its own or its ally's,
 * in force, its `when` agreeing), with its owner; NULL if none. */
static const engine__power_row *usable(const engine_state *st, unsigned seat, int id,
                                       unsigned *owner)
{
    for (unsigned i = 0; i < ENGINE__POINT_ROWS_MAX; i++) {
        unsigned o;
        const engine__power_row *r = engine__point_row_nth(st, ENGINE__POINT_POWER, seat, i, &o);
        if (r && r->form && engine_power_id(r->form->slug) == id) {
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
        engine__legal_init(&l, ENGINE_ACTION_POWER, seat);
        l.lo[0] = l.hi[0] = engine_power_id(r->form->slug);
        for (unsigned a = 0; a < r->form->n_args; a++) {
            l.lo[1 + a] = r->form->lo[a];
            l.hi[1 + a] = r->form->hi[a];
        }
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
    const engine_power_form *form = r->form;
    for (unsigned i = 0; i < ENGINE_POWER_MAX_ARGS; i++) {
        int16_t v = act->arg[1 + i];
        int ok = i < form->n_args ? v >= form->lo[i] && v <= form->hi[i] : v == 0;
        if (!ok)
            return engine__reject(why, ENGINE_REJECT_ARG_OUT_OF_RANGE, (int)(1 + i), v);
    }
    return r->use(why, st, owner, act, rng);
}

int engine_generic_default(engine_action *out, const engine_legal *l)
{
    const engine_power_form *form =
        l->kind == ENGINE_ACTION_POWER ? engine_power_form_of(l->lo[0]) : NULL;
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
