/*
 * action_json.c - actions as JSON text: {"kind":"storm_dial","value":7}.
 *
 * Layer: schema. Generic over the engine's action table
 * (engine_action_spec_of): the field names are the table's argument names
 * and each value is read and written by its argument type, so a new
 * action kind needs no code here. Names come from the engine's name
 * functions (engine/data/names.c). It never allocates, never accepts a
 * field it does not know or a value out of range, and never decides a rule:
 * a well-formed action may still be refused by the engine.
 *
 * Value forms, by argument type:
 *   INT         a JSON integer
 *   CARD        a card number (integer)
 *   FACTION     a faction slug, "bene_gesserit"
 *   LEADER      a leader slug, "thufir_hawat", or its table index
 * A leader or card may be null (or -1) for "none" where the wire field
 * can hold it; the engine decides where none is allowed.
 *   TERRITORY   a territory slug, "sietch_tabr", or its index
 *   LOCATION    {"territory":"<slug>","sector":N} ("sector" omitted for a
 *               territory with no sector: Polar Sink, the HMS), or its index
 * Writing uses the first form of each.
 */
#include <stdio.h>
#include <string.h>

#include "schema/internal.h"
#include "schema/schema.h"

#define ACTION_JSON_TOKENS 64      /* an action needs at most 1 + 2 + 8 * 6 */
#define NAME_CHARS 64              /* longest name or slug read, with its NUL */
#define SHOW_CHARS 32              /* longest piece of input quoted in a message */

/* ============================================================ reading */

/* The raw text of string token t, cut to SHOW_CHARS bytes at a character
 * boundary, for an error message (the tokenizer refused control bytes). */
static const char *show(char buf[SHOW_CHARS + 4], const codec_json_token *t, const char *text)
{
    size_t n = t->end - t->start;
    if (n > SHOW_CHARS) {
        n = SHOW_CHARS;
        while (n > 0 && ((unsigned char)text[t->start + n] & 0xC0) == 0x80)
            n--;
        memcpy(buf, text + t->start, n);
        memcpy(buf + n, "...", 4);
        return buf;
    }
    memcpy(buf, text + t->start, n);
    buf[n] = '\0';
    return buf;
}

/* An integer in lo..hi. `name` names the field. */
static int int_from_json(int16_t *out, const codec_json_token *t, const char *text,
                         const char *name, int32_t lo, int32_t hi, char *err)
{
    int64_t v;
    if (t->type != CODEC_JSON_NUMBER)
        return codec__fail(err, "action JSON: \"%s\": expected an integer", name);
    if (codec_json_int(&v, t, text) != 0)
        return codec__fail(err, "action JSON: \"%s\": not an integer in range %d..%d", name,
                           (int)lo, (int)hi);
    if (v < lo || v > hi)
        return codec__fail(err, "action JSON: \"%s\": value %lld out of range %d..%d", name,
                           (long long)v, (int)lo, (int)hi);
    *out = (int16_t)v;
    return SCHEMA_OK;
}

/* The unescaped text of string token t into buf (NAME_CHARS bytes): 0, or
 * -1 if it is no string or too long to be any name we know. */
static int name_from_json(char buf[NAME_CHARS], const codec_json_token *t, const char *text)
{
    if (t->type != CODEC_JSON_STRING || codec_json_string(buf, NAME_CHARS, t, text) != 0)
        return -1;
    return 0;
}

/* {"territory":"<slug>","sector":N} at token `obj`. */
static int location_from_json(int16_t *out, const codec_json_token *tok, int obj,
                              const char *text, const char *name, char *err)
{
    char buf[NAME_CHARS], shown[SHOW_CHARS + 4];
    int territory_at = -1, sector_at = -1, loc, territory;
    int16_t sector = ENGINE_NO_SECTOR;
    uint32_t i = (uint32_t)obj + 1;
    int rc;

    for (uint32_t m = 0; m < tok[obj].size; m++) {
        const codec_json_token *key = &tok[i];
        int *slot = codec_json_eq(key, text, "territory") ? &territory_at
                  : codec_json_eq(key, text, "sector") ? &sector_at : NULL;
        if (slot == NULL)
            return codec__fail(err, "action JSON: \"%s\": unknown field \"%s\"", name,
                               show(shown, key, text));
        if (*slot >= 0)
            return codec__fail(err, "action JSON: \"%s\": duplicate field \"%s\"", name,
                               show(shown, key, text));
        *slot = (int)i + 1;
        i = tok[i + 1].next;
    }
    if (territory_at < 0)
        return codec__fail(err, "action JSON: \"%s\": missing field \"territory\"", name);
    if (name_from_json(buf, &tok[territory_at], text) != 0
        || (territory = engine_territory_from_slug(buf)) < 0) {
        if (tok[territory_at].type != CODEC_JSON_STRING)
            return codec__fail(err, "action JSON: \"%s\": \"territory\": expected a territory name", name);
        return codec__fail(err, "action JSON: \"%s\": unknown territory \"%s\"", name,
                           show(shown, &tok[territory_at], text));
    }
    if (sector_at >= 0) {
        rc = int_from_json(&sector, &tok[sector_at], text, "sector", 0,
                           ENGINE_SECTOR_COUNT - 1, err);
        if (rc != 0)
            return rc;
    }
    loc = engine_location_find((unsigned)territory, sector);
    if (loc < 0) {
        if (sector_at < 0)
            return codec__fail(err, "action JSON: \"%s\": %s needs a \"sector\"", name, buf);
        return codec__fail(err, "action JSON: \"%s\": %s does not lie in sector %d", name, buf,
                           (int)sector);
    }
    *out = (int16_t)loc;
    return SCHEMA_OK;
}

/* A name (string) through `lookup`, or an index in lo..hi. */
static int named_from_json(int16_t *out, const codec_json_token *t, const char *text,
                           const char *name, const char *what, int (*lookup)(const char *),
                           int32_t lo, int32_t hi, char *err)
{
    char buf[NAME_CHARS], shown[SHOW_CHARS + 4];
    int v;
    if (t->type == CODEC_JSON_NUMBER)
        return int_from_json(out, t, text, name, lo, hi, err);
    if (t->type != CODEC_JSON_STRING)
        return codec__fail(err, "action JSON: \"%s\": expected a %s name or index", name, what);
    if (name_from_json(buf, t, text) != 0 || (v = lookup(buf)) < 0 || v > hi)
        return codec__fail(err, "action JSON: \"%s\": unknown %s \"%s\"", name, what,
                           show(shown, t, text));
    *out = (int16_t)v;
    return SCHEMA_OK;
}

/* The value of argument i of `spec` (action kind `kind`) at token v. */
static int arg_from_json(int16_t *out, unsigned kind, const engine_action_spec *spec,
                         unsigned i, const codec_json_token *tok, int v, const char *text,
                         char *err)
{
    const codec_json_token *t = &tok[v];
    const char *name = spec->arg_name[i];
    char buf[NAME_CHARS], shown[SHOW_CHARS + 4];
    int32_t lo, hi;
    engine_faction f;

    codec__arg_range(&lo, &hi, kind, i);
    if (t->type == CODEC_JSON_NULL && (spec->arg_type[i] == ENGINE_ARG_LEADER
                                       || spec->arg_type[i] == ENGINE_ARG_CARD)) {
        if (lo > CODEC_NONE)
            return codec__fail(err, "action JSON: \"%s\": %s needs a value, not null",
                               name, spec->name);
        *out = CODEC_NONE;
        return SCHEMA_OK;
    }
    /* The advantage a Karama cancels may be named ("bg_voice") as well as
     * numbered; it is written as its number. */
    if (kind == ENGINE_ACTION_KARAMA_CANCEL && i == 0)
        return named_from_json(out, t, text, name, "advantage", engine_advantage_from_name, lo, hi,
                               err);
    switch ((engine_arg_type)spec->arg_type[i]) {
    case ENGINE_ARG_INT:
    case ENGINE_ARG_SIGNED:
    case ENGINE_ARG_CARD:
        return int_from_json(out, t, text, name, lo, hi, err);
    case ENGINE_ARG_COUNT1: {
        /* The count n, held as n + 1 (engine.h). */
        int rc = int_from_json(out, t, text, name, lo, hi - 1, err);
        if (rc == SCHEMA_OK)
            (*out)++;
        return rc;
    }
    case ENGINE_ARG_FACTION:
        if (t->type != CODEC_JSON_STRING)
            return codec__fail(err, "action JSON: \"%s\": expected a faction name", name);
        if (name_from_json(buf, t, text) != 0
            || (f = engine_faction_from_name(buf)) == ENGINE_FACTION_NONE)
            return codec__fail(err, "action JSON: \"%s\": unknown faction \"%s\"", name,
                               show(shown, t, text));
        *out = (int16_t)f;
        return SCHEMA_OK;
    case ENGINE_ARG_LEADER:
        return named_from_json(out, t, text, name, "leader", engine_leader_from_slug, lo, hi,
                               err);
    case ENGINE_ARG_TERRITORY:
        return named_from_json(out, t, text, name, "territory", engine_territory_from_slug,
                               lo, hi, err);
    case ENGINE_ARG_LOCATION:
        if (t->type == CODEC_JSON_OBJECT)
            return location_from_json(out, tok, v, text, name, err);
        if (t->type != CODEC_JSON_NUMBER)
            return codec__fail(err, "action JSON: \"%s\": expected a location object or index",
                               name);
        return int_from_json(out, t, text, name, lo, hi, err);
    }
    return codec__fail(err, "action JSON: \"%s\": argument of unknown type %u", name,
                       (unsigned)spec->arg_type[i]);
}

/* The id field of a generic action ("power", "window": the table's name
 * of argument 0): a row's slug, or an id. */
static int generic_from_json(int16_t *out, int *at, unsigned kind, const codec_json_token *tok,
                             const char *text, char *err)
{
    char buf[NAME_CHARS], shown[SHOW_CHARS + 4];
    const char *field = engine_action_spec_of(kind)->arg_name[0];
    uint32_t i = 1;
    int id;
    for (uint32_t m = 0; m < tok[0].size; m++) {
        if (codec_json_eq(&tok[i], text, field)) {
            if (*at >= 0)
                return codec__fail(err, "action JSON: duplicate field \"%s\"", field);
            *at = (int)i + 1;
        }
        i = tok[i + 1].next;
    }
    if (*at < 0)
        return codec__fail(err, "action JSON: missing field \"%s\"", field);
    const codec_json_token *t = &tok[*at];
    if (t->type == CODEC_JSON_NUMBER)
        return int_from_json(out, t, text, field, 0, INT16_MAX, err);
    if (t->type != CODEC_JSON_STRING)
        return codec__fail(err, "action JSON: \"%s\": expected a %s name", field, field);
    if (name_from_json(buf, t, text) != 0 || (id = engine_generic_from_slug(kind, buf)) < 0)
        return codec__fail(err, "action JSON: unknown %s \"%s\"", field, show(shown, t, text));
    *out = (int16_t)id;
    return SCHEMA_OK;
}

int codec_action_from_json(engine_action *out, const char *json, size_t len, char *err)
{
    codec_json_token tok[ACTION_JSON_TOKENS];
    char buf[NAME_CHARS], shown[SHOW_CHARS + 4];
    const engine_action_spec *spec;
    int seen[ENGINE_ACTION_MAX_ARGS] = {0};
    int n, kind_at = -1, power_at = -1, rc;
    engine_action_kind kind;
    engine_action_spec form_spec;
    uint32_t i;

    memset(out, 0, sizeof *out);
    n = codec_json_parse(tok, ACTION_JSON_TOKENS, json, len, err);
    if (n == SCHEMA_ESPACE)
        return codec__fail(err, "action JSON: more than %d values", ACTION_JSON_TOKENS);
    if (n < 0)
        return n;
    if (tok[0].type != CODEC_JSON_OBJECT)
        return codec__fail(err, "action JSON: not an object");

    /* the kind first: it says which fields may follow */
    i = 1;
    for (uint32_t m = 0; m < tok[0].size; m++) {
        if (codec_json_eq(&tok[i], json, "kind")) {
            if (kind_at >= 0)
                return codec__fail(err, "action JSON: duplicate field \"kind\"");
            kind_at = (int)i + 1;
        }
        i = tok[i + 1].next;
    }
    if (kind_at < 0)
        return codec__fail(err, "action JSON: missing field \"kind\"");
    if (tok[kind_at].type != CODEC_JSON_STRING)
        return codec__fail(err, "action JSON: \"kind\": expected an action name");
    kind = ENGINE_ACTION_NONE;
    if (name_from_json(buf, &tok[kind_at], json) == 0)
        kind = engine_action_kind_from_name(buf);
    spec = engine_action_spec_of(kind);
    if (spec == NULL)
        return codec__fail(err, "action JSON: unknown action kind \"%s\"",
                           show(shown, &tok[kind_at], json));
    /* a generic power or window answer: its "power" or "window" next,
     * whose row names the rest */
    if (engine_action_is_generic(kind)) {
        rc = generic_from_json(&out->arg[0], &power_at, kind, tok, json, err);
        if (rc != 0)
            return rc;
        seen[0] = 1;
        spec = engine_action_spec_for(&form_spec, kind, out->arg[0]);
    }

    i = 1;
    for (uint32_t m = 0; m < tok[0].size; m++) {
        const codec_json_token *key = &tok[i];
        int v = (int)i + 1;
        unsigned a;
        i = tok[i + 1].next;
        if (v == kind_at || v == power_at)
            continue;
        for (a = 0; a < spec->n_args; a++)
            if (codec_json_eq(key, json, spec->arg_name[a]))
                break;
        if (a == spec->n_args)
            return codec__fail(err, "action JSON: unknown field \"%s\" for %s",
                               show(shown, key, json), spec->name);
        if (seen[a])
            return codec__fail(err, "action JSON: duplicate field \"%s\"", spec->arg_name[a]);
        seen[a] = 1;
        rc = arg_from_json(&out->arg[a], kind, spec, a, tok, v, json, err);
        if (rc != 0) {
            memset(out, 0, sizeof *out);
            return rc;
        }
    }
    /* an optional argument left out is absent (0), but one before a later
     * given one is there: a count held as n + 1 is then a count of 0 (the
     * signed bytes and the text have no gap to leave) */
    for (unsigned a = 0; a < (unsigned)(spec->n_args - spec->n_optional); a++)
        if (!seen[a]) {
            memset(out, 0, sizeof *out);
            return codec__fail(err, "action JSON: missing field \"%s\"", spec->arg_name[a]);
        }
    unsigned last = 0;
    for (unsigned a = 0; a < spec->n_args; a++)
        if (seen[a])
            last = a;
    for (unsigned a = (unsigned)(spec->n_args - spec->n_optional); a < last; a++)
        if (!seen[a] && spec->arg_type[a] == ENGINE_ARG_COUNT1)
            out->arg[a] = 1;
    out->kind = (uint8_t)kind;
    rc = codec__action_check(out, err, "action JSON");
    if (rc != 0)
        memset(out, 0, sizeof *out);
    return rc;
}

/* ============================================================ writing */

typedef struct writer {
    char *out;                 /* the caller's buffer */
    size_t cap;                /* its size */
    size_t len;                /* bytes written, without the NUL */
    int is_full;               /* 1 once something did not fit */
} writer;

static void put(writer *w, const char *s)
{
    size_t n = strlen(s);
    if (w->is_full || w->cap - w->len <= n) {
        w->is_full = 1;
        return;
    }
    memcpy(w->out + w->len, s, n + 1);
    w->len += n;
}

/* A JSON string. Names and slugs are plain ASCII, but escape anyway. */
static void put_string(writer *w, const char *s)
{
    char one[8];
    put(w, "\"");
    for (; *s != '\0'; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            snprintf(one, sizeof one, "\\%c", c);
        else if (c < 0x20)
            snprintf(one, sizeof one, "\\u%04x", c);
        else {
            one[0] = (char)c;
            one[1] = '\0';
        }
        put(w, one);
    }
    put(w, "\"");
}

static void put_int(writer *w, long v)
{
    char num[24];
    snprintf(num, sizeof num, "%ld", v);
    put(w, num);
}

/* The value of one argument: 0, or -1 if the engine has no name for it. */
static int arg_to_json(writer *w, unsigned type, int16_t v)
{
    const char *s = NULL;
    int sector;
    if (v == CODEC_NONE && (type == ENGINE_ARG_LEADER || type == ENGINE_ARG_CARD)) {
        put(w, "null");
        return 0;
    }
    switch ((engine_arg_type)type) {
    case ENGINE_ARG_INT:
    case ENGINE_ARG_SIGNED:
    case ENGINE_ARG_CARD:
        put_int(w, v);
        return 0;
    case ENGINE_ARG_COUNT1:
        put_int(w, v - 1); /* held as n + 1; an absent one is never written */
        return 0;
    case ENGINE_ARG_FACTION:
        s = engine_faction_name((unsigned)v);
        break;
    case ENGINE_ARG_LEADER:
        s = engine_leader_slug((unsigned)v);
        break;
    case ENGINE_ARG_TERRITORY:
        s = engine_territory_slug((unsigned)v);
        break;
    case ENGINE_ARG_LOCATION:
        s = engine_territory_slug(engine_location_territory((unsigned)v));
        if (s == NULL)
            return -1;
        put(w, "{\"territory\":");
        put_string(w, s);
        sector = engine_location_sector((unsigned)v);
        if (sector != ENGINE_NO_SECTOR) {
            put(w, ",\"sector\":");
            put_int(w, sector);
        }
        put(w, "}");
        return 0;
    }
    if (s == NULL)
        return -1;
    put_string(w, s);
    return 0;
}

int codec_action_to_json(char *out, size_t cap, const engine_action *act)
{
    const engine_action_spec *spec = engine_action_spec_of(act->kind);
    engine_action_spec form_spec;
    writer w;

    w.out = out;
    w.cap = cap;
    w.len = 0;
    w.is_full = 0;
    if (cap > 0)
        out[0] = '\0';
    if (spec == NULL || codec__action_check(act, NULL, "action") != 0)
        return SCHEMA_ERROR;
    put(&w, "{\"kind\":");
    put_string(&w, spec->name);
    unsigned n = engine_action_n_given(act), a = 0;
    const engine_power_form *form = engine_generic_form(act->kind, act->arg[0]);
    if (form != NULL) {
        /* a generic power or answer: its slug, then every argument its row
         * names */
        put(&w, ",");
        put_string(&w, spec->arg_name[0]);
        put(&w, ":");
        put_string(&w, form->slug);
        spec = engine_action_spec_for(&form_spec, act->kind, act->arg[0]);
        n = spec->n_args;
        a = 1;
    }
    for (; a < n; a++) {
        put(&w, ",");
        put_string(&w, spec->arg_name[a]);
        put(&w, ":");
        if (arg_to_json(&w, spec->arg_type[a], act->arg[a]) != 0) {
            if (cap > 0)
                out[0] = '\0';
            return SCHEMA_ERROR;
        }
    }
    put(&w, "}");
    if (w.is_full) {
        if (cap > 0)
            out[0] = '\0';
        return SCHEMA_ESPACE;
    }
    return SCHEMA_OK;
}
