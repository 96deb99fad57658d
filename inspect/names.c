/*
 * names.c - how inspect/ names things for people: factions by title, seats
 * as "you" for the viewer, locations, leaders, the faces of treachery
 * cards as a view knows them, spice cards, the field at fault in a
 * rejection; and the bounded text builder every sentence is written with.
 *
 * Layer: inspect. Reads only the engine_state it is handed (a view, when
 * the words are for a seat) and the engine's name functions; never the
 * ledger. A card whose face the view marks unknown has no name here.
 */
#include <assert.h>
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "inspect/internal.h"

/* ======================================================= text builder */

void inspect__text_init(inspect__text *t, char *buf, size_t cap)
{
    assert(cap >= 1);
    t->buf = buf;
    t->cap = cap;
    t->len = 0;
    buf[0] = '\0';
}

static void text_vadd(inspect__text *t, const char *fmt, va_list ap)
{
    if (t->len + 1 >= t->cap)
        return;
    int n = vsnprintf(t->buf + t->len, t->cap - t->len, fmt, ap);
    if (n < 0)
        return;
    t->len += (size_t)n;
    if (t->len >= t->cap)
        t->len = t->cap - 1;
}

void inspect__text_add(inspect__text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    text_vadd(t, fmt, ap);
    va_end(ap);
}

void inspect__text_sentence(inspect__text *t, const char *fmt, ...)
{
    if (t->len != 0)
        inspect__text_add(t, " ");
    size_t start = t->len;
    va_list ap;
    va_start(ap, fmt);
    text_vadd(t, fmt, ap);
    va_end(ap);
    if (start < t->len)
        t->buf[start] = (char)toupper((unsigned char)t->buf[start]);
}

/* ============================================================== names */

const char *inspect_faction_title(unsigned faction)
{
    return engine_faction_title(faction);
}

int inspect__seat_of(const engine_state *st, unsigned f)
{
    for (unsigned s = 0; s < st->config.n_seats && s < ENGINE_MAX_SEATS; s++)
        if (st->config.faction[s] == f)
            return (int)s;
    return -1;
}

const char *inspect__seat_title(const engine_state *st, uint8_t seat)
{
    if (seat == ENGINE_SEAT_ENGINE)
        return "the engine";
    if (seat >= st->config.n_seats || seat >= ENGINE_MAX_SEATS)
        return "?";
    return inspect_faction_title(st->config.faction[seat]);
}

const char *inspect__who(const engine_state *view, uint8_t seat)
{
    if (seat == view->viewer && seat < ENGINE_MAX_SEATS)
        return "you";
    return inspect__seat_title(view, seat);
}

const char *inspect__territory(unsigned t)
{
    const char *s = engine_territory_name(t);
    return s != NULL ? s : "?";
}

const char *inspect__leader(unsigned leader)
{
    const char *s = engine_leader_name(leader);
    return s != NULL ? s : "?";
}

void inspect__location_text(char *out, size_t cap, unsigned loc)
{
    if (loc >= ENGINE_LOCATION_COUNT) {
        snprintf(out, cap, "?");
        return;
    }
    const char *name = inspect__territory(engine_location_territory(loc));
    int sector = engine_location_sector(loc);
    if (sector == ENGINE_NO_SECTOR)
        snprintf(out, cap, "%s", name);
    else
        snprintf(out, cap, "%s (sector %d)", name, sector);
}

const char *inspect__card_face(const engine_state *view, int card)
{
    if (card < 0 || card >= view->n_cards || card >= ENGINE_TREACHERY_MAX)
        return NULL;
    if (view->card_kind[card] == ENGINE_CARD_KIND_UNKNOWN)
        return NULL;
    return engine_card_kind_name(view->card_kind[card]);
}

const char *inspect__spice_card_name(unsigned card, int *is_worm_out, unsigned *territory_out)
{
    if (is_worm_out != NULL)
        *is_worm_out = 0;
    if (territory_out != NULL)
        *territory_out = ENGINE_TERRITORY_COUNT;
    for (unsigned n = 0;; n++) {
        int w = engine_spice_worm(n);
        if (w < 0)
            break;
        if ((unsigned)w == card) {
            if (is_worm_out != NULL)
                *is_worm_out = 1;
            return "Shai-Hulud";
        }
    }
    for (unsigned t = 0; t < ENGINE_TERRITORY_COUNT; t++)
        if (engine_spice_card_of(t) == (int)card) {
            if (territory_out != NULL)
                *territory_out = t;
            return inspect__territory(t);
        }
    return "?";
}

const char *inspect__elite_name(const engine_state *st, uint8_t seat)
{
    const char *name = seat < st->config.n_seats && seat < ENGINE_MAX_SEATS
                           ? engine_faction_elite_name(st->config.faction[seat])
                           : NULL;
    return name != NULL ? name : "elite forces";
}

unsigned inspect__territory_forces(const engine_state *st, unsigned territory, uint8_t seat)
{
    unsigned n = 0;
    for (unsigned loc = 0; loc < ENGINE_LOCATION_COUNT; loc++)
        if (engine_location_territory(loc) == territory)
            n += (unsigned)st->forces[loc][seat] + st->special[loc][seat];
    return n;
}

/* ========================================================== rejections */

/* The value of an argument of type `type` by slug, as the action's JSON
 * names it ("funeral_plain sector 14", "atreides", "thufir_hawat"). */
static void arg_value_text(char *out, size_t cap, unsigned type, int value)
{
    const char *s = NULL;
    switch ((engine_arg_type)type) {
    case ENGINE_ARG_INT:
    case ENGINE_ARG_SIGNED:
    case ENGINE_ARG_CARD:
        break;
    case ENGINE_ARG_COUNT1:
        snprintf(out, cap, "%d", value - 1); /* held as n + 1 */
        return;
    case ENGINE_ARG_FACTION:
        s = value >= 0 ? engine_faction_name((unsigned)value) : NULL;
        break;
    case ENGINE_ARG_LEADER:
        s = value >= 0 ? engine_leader_slug((unsigned)value) : NULL;
        break;
    case ENGINE_ARG_TERRITORY:
        s = value >= 0 ? engine_territory_slug((unsigned)value) : NULL;
        break;
    case ENGINE_ARG_LOCATION:
        if (value >= 0 && value < ENGINE_LOCATION_COUNT) {
            s = engine_territory_slug(engine_location_territory((unsigned)value));
            int sector = engine_location_sector((unsigned)value);
            if (s != NULL && sector != ENGINE_NO_SECTOR) {
                snprintf(out, cap, "%s sector %d", s, sector);
                return;
            }
        }
        break;
    }
    if (s != NULL)
        snprintf(out, cap, "%s", s);
    else
        snprintf(out, cap, "%d", value);
}

const char *inspect_rejection_arg(unsigned kind, int arg)
{
    const engine_action_spec *spec = engine_action_spec_of(kind);
    if (spec == NULL || arg < 0 || arg >= spec->n_args)
        return NULL;
    return spec->arg_name[arg];
}

void inspect_rejection_text(char *out, size_t cap, unsigned verdict, unsigned kind, int arg,
                            int value)
{
    const char *reason = engine_verdict_name(verdict);
    const char *field = inspect_rejection_arg(kind, arg);
    char v[64];
    if (reason == NULL)
        reason = "unknown_reason";
    if (field != NULL) {
        arg_value_text(v, sizeof v, engine_action_spec_of(kind)->arg_type[arg], value);
        if (verdict == ENGINE_REJECT_STORM_DIAL_RANGE)
            /* the range the dial takes (LR 1.01.01; engine/phase_storm.c) */
            snprintf(out, cap, "%s (%s = %s; a storm dial takes 0..20 on turn 1, 1..3 later)",
                     reason, field, v);
        else
            snprintf(out, cap, "%s (%s = %s)", reason, field, v);
    } else if (verdict == ENGINE_REJECT_WRONG_PHASE && value >= 0 &&
               engine_phase_name((unsigned)value) != NULL) {
        /* every rules version names the phase under way */
        snprintf(out, cap, "%s (the game is in %s)", reason, engine_phase_name((unsigned)value));
    } else if (verdict == ENGINE_REJECT_WRONG_STEP && value >= 0 &&
               engine_step_name(engine_action_phase(kind), (unsigned)value) != NULL) {
        /* rules version 3 on: refused in its own phase, which is at this step */
        unsigned phase = engine_action_phase(kind);
        snprintf(out, cap, "%s (%s is at its %s step)", reason, engine_phase_name(phase),
                 engine_step_name(phase, (unsigned)value));
    } else if (verdict == ENGINE_REJECT_NOT_AWAITED && value > 0 &&
               value < (1 << ENGINE_MAX_SEATS)) {
        /* rules version 3 on: the seats awaited, 1-based as the commands
         * number them (0 before: nobody named) */
        size_t n = (size_t)snprintf(out, cap, "%s (the game waits on seat", reason);
        const char *sep = value & (value - 1) ? "s " : " ";
        for (int s = 0; s < ENGINE_MAX_SEATS && n < cap; s++)
            if (value >> s & 1) {
                n += (size_t)snprintf(out + n, cap - n, "%s%d", sep, s + 1);
                sep = ", ";
            }
        if (n < cap)
            snprintf(out + n, cap - n, ")");
    } else {
        snprintf(out, cap, "%s (value %d)", reason, value);
    }
}
