/*
 * args.c - the command line: the option parser every subcommand uses, and
 * strict parsers for numbers, faction lists, module lists and seats.
 *
 * Layer: tools. Everything here reads bytes from the command line, so
 * nothing is asserted about them: a bad value is refused with a message
 * and the caller exits TOOL_EXIT_USAGE. It never opens the ledger.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tools/internal.h"

const char *const tool_module_names[TOOL_MODULE_COUNT] = {
    "nexus_cards", "tech_tokens", "leader_skills", "stronghold_cards",
    "homeworlds", "discovery_tokens", "expansion_treachery",
};

/* ======================================================= the parser */

static const tool_opt *find_opt(const tool_opt *opts, const char *name, size_t name_len)
{
    for (const tool_opt *o = opts; o != NULL && o->name != NULL; o++)
        if (strlen(o->name) == name_len && strncmp(o->name, name, name_len) == 0)
            return o;
    return NULL;
}

int tool_args_parse(tool_globals *g, int argc, char **argv, const tool_opt *opts,
                    const char **pos, size_t max_pos, size_t *n_pos_out,
                    const char *help)
{
    static const tool_opt globals_template[] = {
        {"--db", "PATH", NULL, NULL},
        {"--keys", "DIR", NULL, NULL},
        {"--json", NULL, NULL, NULL},
        {NULL, NULL, NULL, NULL},
    };
    int is_json = g->is_json;
    tool_opt globals[4];
    memcpy(globals, globals_template, sizeof globals);
    globals[0].value = &g->db_path;
    globals[1].value = &g->keys_dir;
    globals[2].is_set = &is_json;

    size_t n_pos = 0;
    int is_options_over = 0;
    /* Valued options seen once: a second --seat is a mistake, not an override. */
    const char **seen[32];
    size_t n_seen = 0;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!is_options_over && strcmp(a, "--") == 0) {
            is_options_over = 1;
            continue;
        }
        if (!is_options_over && (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0)) {
            fputs(help, stdout);
            return TOOL_HELP;
        }
        if (is_options_over || a[0] != '-' || a[1] == '\0') {
            if (n_pos == max_pos) {
                tool_err(g, "unexpected argument '%s' (see mentat %s --help)", a, g->cmd);
                return TOOL_BAD_USAGE;
            }
            pos[n_pos++] = a;
            continue;
        }
        const char *eq = strchr(a, '=');
        size_t name_len = eq != NULL ? (size_t)(eq - a) : strlen(a);
        const tool_opt *o = find_opt(opts, a, name_len);
        if (o == NULL)
            o = find_opt(globals, a, name_len);
        if (o == NULL) {
            tool_err(g, "unknown option '%.*s' (see mentat %s --help)", (int)name_len, a, g->cmd);
            return TOOL_BAD_USAGE;
        }
        if (o->metavar == NULL) {
            if (eq != NULL) {
                tool_err(g, "option %s takes no value", o->name);
                return TOOL_BAD_USAGE;
            }
            if (o->is_set != NULL)
                *o->is_set = 1;
            continue;
        }
        const char *v;
        if (eq != NULL) {
            v = eq + 1;
        } else if (i + 1 < argc) {
            v = argv[++i];
        } else {
            tool_err(g, "option %s needs a value %s", o->name, o->metavar);
            return TOOL_BAD_USAGE;
        }
        for (size_t k = 0; k < n_seen; k++)
            if (seen[k] == o->value) {
                tool_err(g, "option %s given twice", o->name);
                return TOOL_BAD_USAGE;
            }
        if (n_seen < sizeof seen / sizeof seen[0])
            seen[n_seen++] = o->value;
        *o->value = v;
        if (o->is_set != NULL)
            *o->is_set = 1;
    }
    g->is_json = is_json;
    if (n_pos_out != NULL)
        *n_pos_out = n_pos;
    return TOOL_PARSED;
}

/* ======================================================= small values */

int tool_parse_u64(uint64_t *out, const char *s)
{
    if (s == NULL || *s < '0' || *s > '9')
        return -1;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno != 0 || *end != '\0')
        return -1;
    *out = (uint64_t)v;
    return 0;
}

int tool_parse_uint(uint32_t *out, const char *s, uint32_t min, uint32_t max)
{
    uint64_t v;
    if (tool_parse_u64(&v, s) != 0 || v < min || v > max)
        return -1;
    *out = (uint32_t)v;
    return 0;
}

/* Calls fn on each comma-separated item of list (empty items refused). */
static int foreach_item(const char *list, char *err,
                        int (*fn)(void *ctx, const char *item, char *err), void *ctx)
{
    const char *p = list;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma != NULL ? (size_t)(comma - p) : strlen(p);
        char item[64];
        if (len == 0 || len >= sizeof item) {
            snprintf(err, SCHEMA_ERRMSG, "bad list '%s': empty or overlong item", list);
            return -1;
        }
        memcpy(item, p, len);
        item[len] = '\0';
        if (fn(ctx, item, err) != 0)
            return -1;
        if (comma == NULL)
            return 0;
        p = comma + 1;
    }
}

static int add_faction(void *ctx, const char *item, char *err)
{
    engine_config *cfg = ctx;
    engine_faction f = engine_faction_from_name(item);
    if (f == ENGINE_FACTION_NONE) {
        snprintf(err, SCHEMA_ERRMSG, "unknown faction '%.63s' (see mentat room --help)", item);
        return -1;
    }
    for (unsigned s = 0; s < cfg->n_seats; s++)
        if (cfg->faction[s] == f) {
            snprintf(err, SCHEMA_ERRMSG, "faction '%s' listed twice", item);
            return -1;
        }
    if (cfg->n_seats == ENGINE_MAX_SEATS) {
        snprintf(err, SCHEMA_ERRMSG, "more than %d factions", ENGINE_MAX_SEATS);
        return -1;
    }
    cfg->faction[cfg->n_seats++] = (uint8_t)f;
    return 0;
}

int tool_parse_factions(engine_config *cfg, const char *list, char *err)
{
    cfg->n_seats = 0;
    return foreach_item(list, err, add_faction, cfg);
}

static int add_module(void *ctx, const char *item, char *err)
{
    uint32_t *mask = ctx;
    for (unsigned i = 0; i < TOOL_MODULE_COUNT; i++)
        if (strcmp(item, tool_module_names[i]) == 0) {
            *mask |= 1u << i;
            return 0;
        }
    snprintf(err, SCHEMA_ERRMSG, "unknown module '%.63s' (see mentat room --help)", item);
    return -1;
}

int tool_parse_modules(uint32_t *out, const char *list, char *err)
{
    *out = 0;
    return foreach_item(list, err, add_module, out);
}

int tool_parse_seat(uint8_t *out, const char *s, const engine_config *cfg, char *err)
{
    uint32_t n;
    if (tool_parse_uint(&n, s, 1, cfg->n_seats) == 0) {
        *out = (uint8_t)(n - 1);
        return 0;
    }
    engine_faction f = engine_faction_from_name(s);
    if (f != ENGINE_FACTION_NONE) {
        for (uint8_t i = 0; i < cfg->n_seats; i++)
            if (cfg->faction[i] == f) {
                *out = i;
                return 0;
            }
        snprintf(err, SCHEMA_ERRMSG, "no seat plays %s in this room", s);
        return -1;
    }
    snprintf(err, SCHEMA_ERRMSG, "bad seat '%s': give 1..%u or a faction of the room",
             s, cfg->n_seats);
    return -1;
}
