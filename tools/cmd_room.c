/*
 * cmd_room.c - `mentat room create` and `mentat room list`.
 *
 * Layer: tools. It turns options into an engine_config and hands it to
 * ledger_room_create, which asks the engine; it never validates a rule
 * itself beyond the shape of the command line (the engine says why it
 * refuses a faction or a module, and we print that).
 */
#include <stdlib.h>
#include <string.h>

#include "tools/internal.h"

static const char help[] =
    "usage: mentat room create --players N --factions LIST --rules basic|advanced\n"
    "                          [--modules LIST] [--turns T]\n"
    "       mentat room list\n"
    "\n"
    "room create deals a new game and prints its room code. Seats are numbered\n"
    "1..N in the order of --factions (N must equal their number). The seed is\n"
    "drawn now, committed to in the signed genesis and sealed to the audit key.\n"
    "\n"
    "  --players N      2..6\n"
    "  --factions LIST  comma-separated: atreides, bene_gesserit, emperor, fremen,\n"
    "                   harkonnen, guild (ixians, tleilaxu, choam, richese, ecaz,\n"
    "                   moritani are refused by the engine for now, with its reason)\n"
    "  --rules R        basic or advanced\n"
    "  --modules LIST   nexus_cards, tech_tokens, leader_skills, stronghold_cards,\n"
    "                   homeworlds, discovery_tokens, expansion_treachery (the engine\n"
    "                   refuses modules it does not have yet, with its reason)\n"
    "  --turns T        game length, 1..20 (default 10)\n"
    "\n"
    "room list prints every room: code, head version, rules, factions, creation.\n"
    "\n"
    "Examples:\n"
    "  mentat room create --players 6 --rules basic \\\n"
    "      --factions atreides,bene_gesserit,emperor,fremen,harkonnen,guild\n"
    "  mentat room create --players 2 --factions atreides,harkonnen --rules advanced --turns 5\n"
    "  ROOM=$(mentat room create --players 3 --factions fremen,emperor,guild --rules basic)\n"
    "  mentat room list --json\n";

/* ============================================================ create */

/* The ledger refused cfg: asks the engine why (engine_setup with a
 * throwaway stream; nothing is kept) and names the faction or module it
 * does not play yet. 0 if it printed that, -1 to fall back on the
 * ledger's message. */
static int explain_refusal(const tool_globals *g, const engine_config *cfg)
{
    static const uint8_t zero_seed[ENGINE_SEED_BYTES];
    engine_rng rng;
    engine_state st;
    engine_verdict_detail why = {-1, 0};
    engine_rng_init(&rng, zero_seed, 0);
    engine_verdict v = engine_setup(&why, &st, cfg, &rng);
    if (v != ENGINE_REJECT_RULE_NOT_IMPLEMENTED)
        return -1;
    const char *reason = engine_verdict_name(v);
    if (why.arg >= 0 && why.arg < cfg->n_seats) {
        tool_err(g, "the engine does not play %s yet (%s)",
                 tool_seat_faction(cfg, (uint8_t)why.arg), reason);
        return 0;
    }
    if (cfg->modules != 0) {
        fprintf(stderr, "mentat %s: the engine does not have the module%s", g->cmd,
                (cfg->modules & (cfg->modules - 1)) != 0 ? "s" : "");
        int n = 0;
        for (unsigned m = 0; m < TOOL_MODULE_COUNT; m++)
            if (cfg->modules & (1u << m))
                fprintf(stderr, "%s %s", n++ != 0 ? "," : "", tool_module_names[m]);
        fprintf(stderr, " yet (%s)\n", reason);
        return 0;
    }
    return -1;
}

static int room_create(int argc, char **argv, tool_globals *g)
{
    const char *players = NULL, *factions = NULL, *rules = NULL, *modules = NULL,
               *turns = NULL;
    const tool_opt opts[] = {
        {"--players", "N", &players, NULL},
        {"--factions", "LIST", &factions, NULL},
        {"--rules", "basic|advanced", &rules, NULL},
        {"--modules", "LIST", &modules, NULL},
        {"--turns", "T", &turns, NULL},
        {NULL, NULL, NULL, NULL},
    };
    int r = tool_args_parse(g, argc, argv, opts, NULL, 0, NULL, help);
    if (r != TOOL_PARSED)
        return r == TOOL_HELP ? TOOL_EXIT_OK : TOOL_EXIT_USAGE;
    if (players == NULL || factions == NULL || rules == NULL) {
        tool_err(g, "missing %s (see mentat room --help)",
                 players == NULL ? "--players N" : factions == NULL ? "--factions LIST"
                                                                    : "--rules basic|advanced");
        return TOOL_EXIT_USAGE;
    }

    engine_config cfg;
    engine_config_init(&cfg);
    char err[SCHEMA_ERRMSG];
    uint32_t n_players, n_turns;
    if (tool_parse_uint(&n_players, players, ENGINE_MIN_SEATS, ENGINE_MAX_SEATS) != 0) {
        tool_err(g, "--players must be %d..%d, not '%s'", ENGINE_MIN_SEATS, ENGINE_MAX_SEATS,
                 players);
        return TOOL_EXIT_USAGE;
    }
    if (tool_parse_factions(&cfg, factions, err) != 0) {
        tool_err(g, "--factions: %s", err);
        return TOOL_EXIT_USAGE;
    }
    if (cfg.n_seats != n_players) {
        tool_err(g, "--players %u but %u factions listed", n_players, cfg.n_seats);
        return TOOL_EXIT_USAGE;
    }
    if (strcmp(rules, "basic") == 0) {
        cfg.is_advanced = 0;
    } else if (strcmp(rules, "advanced") == 0) {
        cfg.is_advanced = 1;
    } else {
        tool_err(g, "--rules must be basic or advanced, not '%s'", rules);
        return TOOL_EXIT_USAGE;
    }
    if (modules != NULL && tool_parse_modules(&cfg.modules, modules, err) != 0) {
        tool_err(g, "--modules: %s", err);
        return TOOL_EXIT_USAGE;
    }
    if (turns != NULL) {
        if (tool_parse_uint(&n_turns, turns, 1, ENGINE_MAX_TURN_LIMIT) != 0) {
            tool_err(g, "--turns must be 1..%d, not '%s'", ENGINE_MAX_TURN_LIMIT, turns);
            return TOOL_EXIT_USAGE;
        }
        cfg.turn_limit = (uint8_t)n_turns;
    }

    ledger *db;
    int ex = tool_ledger_open(&db, g, 0);
    if (ex != TOOL_EXIT_OK)
        return ex;
    char room[SCHEMA_ROOM_CHARS + 1];
    int rc = ledger_room_create(db, room, &cfg);
    if (rc == LEDGER_EINPUT && explain_refusal(g, &cfg) == 0) {
        ex = TOOL_EXIT_USAGE;
        goto out;
    }
    if (rc != 0) {
        ex = tool_ledger_fail(g, db, rc);
        goto out;
    }
    if (g->is_json) {
        tool_json j;
        tool_json_init(&j, stdout);
        tool_json_object_begin(&j);
        tool_json_member_string(&j, "room", room);
        tool_json_object_end(&j);
        tool_json_finish(&j);
    } else {
        printf("%s\n", room);
    }
out:
    return tool_ledger_close(g, db, ex);
}

/* ============================================================== list */

typedef struct list_ctx {
    tool_json *j;                  /* NULL = text */
    size_t n_rooms;
} list_ctx;

static int list_one(void *ctx, const ledger_room_info *room)
{
    list_ctx *lc = ctx;
    const engine_config *cfg = &room->config;
    char when[TOOL_ISO_TIME_CHARS];
    tool_iso_time(when, room->created_at);
    const char *rules = cfg->is_advanced ? "advanced" : "basic";
    lc->n_rooms++;
    if (lc->j != NULL) {
        tool_json *j = lc->j;
        tool_json_object_begin(j);
        tool_json_member_string(j, "room", room->room);
        tool_json_member_uint(j, "version", room->version);
        tool_json_member_string(j, "rules", rules);
        tool_json_key(j, "factions");
        tool_json_array_begin(j);
        for (uint8_t s = 0; s < cfg->n_seats; s++)
            tool_json_string(j, tool_seat_faction(cfg, s));
        tool_json_array_end(j);
        tool_json_key(j, "modules");
        tool_json_array_begin(j);
        for (unsigned m = 0; m < TOOL_MODULE_COUNT; m++)
            if (cfg->modules & (1u << m))
                tool_json_string(j, tool_module_names[m]);
        tool_json_array_end(j);
        tool_json_member_uint(j, "turn_limit", cfg->turn_limit);
        tool_json_member_string(j, "created_at", when);
        tool_json_object_end(j);
        return 0;
    }
    if (lc->n_rooms == 1)
        printf("%-8s  %7s  %-8s  %-24s  %s\n", "ROOM", "VERSION", "RULES", "CREATED",
               "FACTIONS");
    printf("%-8s  %7u  %-8s  %-24s  ", room->room, room->version, rules, when);
    for (uint8_t s = 0; s < cfg->n_seats; s++)
        printf("%s%s", s != 0 ? "," : "", tool_seat_faction(cfg, s));
    putchar('\n');
    return 0;
}

static int room_list(int argc, char **argv, tool_globals *g)
{
    int r = tool_args_parse(g, argc, argv, NULL, NULL, 0, NULL, help);
    if (r != TOOL_PARSED)
        return r == TOOL_HELP ? TOOL_EXIT_OK : TOOL_EXIT_USAGE;
    ledger *db;
    int ex = tool_ledger_open(&db, g, 1);
    if (ex != TOOL_EXIT_OK)
        return ex;
    tool_json j;
    list_ctx lc = {NULL, 0};
    if (g->is_json) {
        tool_json_init(&j, stdout);
        tool_json_array_begin(&j);
        lc.j = &j;
    }
    int rc = ledger_room_foreach(db, list_one, &lc);
    if (g->is_json) {
        tool_json_array_end(&j);
        tool_json_finish(&j);
    } else if (rc == 0 && lc.n_rooms == 0) {
        printf("no rooms in %s\n", g->db_path);
    }
    if (rc != 0)
        ex = tool_ledger_fail(g, db, rc);
    ledger_close(db);
    return ex;
}

/* ========================================================= dispatch */

int cmd_room(int argc, char **argv, const tool_globals *gin)
{
    tool_globals g = *gin;
    /* The action word is the first argument that is neither a global
     * option nor its value; the rest goes to the action's own parser. */
    int k = 1;
    while (k < argc) {
        const char *a = argv[k];
        if (strcmp(a, "--json") == 0 || strncmp(a, "--db=", 5) == 0
            || strncmp(a, "--keys=", 7) == 0)
            k++;
        else if ((strcmp(a, "--db") == 0 || strcmp(a, "--keys") == 0) && k + 1 < argc)
            k += 2;
        else
            break;
    }
    int (*run)(int, char **, tool_globals *) = NULL;
    if (k < argc && strcmp(argv[k], "create") == 0) {
        run = room_create;
        g.cmd = "room create";
    } else if (k < argc && strcmp(argv[k], "list") == 0) {
        run = room_list;
        g.cmd = "room list";
    }
    if (run == NULL) {
        int r = tool_args_parse(&g, argc, argv, NULL, NULL, 0, NULL, help);
        if (r == TOOL_HELP)
            return TOOL_EXIT_OK;
        if (r == TOOL_PARSED)
            tool_err(&g, "missing subcommand: create or list (see mentat room --help)");
        return TOOL_EXIT_USAGE;
    }
    /* argv without the action word, argv[0] kept. */
    char **sub = malloc((size_t)argc * sizeof *sub);
    if (sub == NULL) {
        tool_err(&g, "out of memory");
        return TOOL_EXIT_USAGE;
    }
    int n = 0;
    for (int i = 0; i < argc; i++)
        if (i != k)
            sub[n++] = argv[i];
    int ex = run(n, sub, &g);
    free(sub);
    return ex;
}
