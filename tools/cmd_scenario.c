/*
 * cmd_scenario.c - `mentat scenario FILE`: runs a scenario document (a
 * constructed position, actions, expected results; docs/SCENARIOS.md)
 * through the engine in memory and reports each expectation as met or
 * missed; `mentat scenario export ROOM`: a room's position written as
 * such a document (scenario_export.c).
 *
 * Layer: tools. Reading and running are scenario.c's; this file reads the
 * file, prints the report and picks the exit status: 0 every expectation
 * met, 1 some missed, 2 the file is unreadable or malformed. Running a
 * scenario never opens a ledger: a scenario is never a room; export only
 * reads one.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tools/internal.h"

static const char help[] =
    "usage: mentat scenario FILE [--state | --seat S | --public] [--json]\n"
    "       mentat scenario export ROOM [--at V] [--out FILE]  (see its --help)\n"
    "\n"
    "Runs a scenario: builds the position FILE describes (a constructed\n"
    "position, never a room: no ledger is opened), folds its actions through\n"
    "the engine in memory, and reports each expectation as met or missed.\n"
    "Exit status 0 if every one is met, 1 if any is missed, 2 if FILE cannot\n"
    "be read or is malformed (the message names the JSON path at fault).\n"
    "The format is in docs/SCENARIOS.md.\n"
    "\n"
    "  --state   also print the state after the last action (with --json, as\n"
    "            \"state\", in the form of `mentat state --json`)\n"
    "  --seat S  the same, as seat S (1..N or a faction) knows it, with what S\n"
    "            may do there (its legal actions), as `mentat state --seat`\n"
    "  --public  the same, as a spectator knows it\n"
    "  --json    one object: {\"file\",\"name\",\"rule\",\"checks\":[{\"what\",\n"
    "            \"expected\",\"got\",\"met\"}...],\"met\",\"missed\",\"ok\"}\n"
    "\n"
    "Example: a Guild shipment at half price, in tests/scenarios/ style:\n"
    "  {\n"
    "    \"name\": \"Guild ships at half price, to the bank\",\n"
    "    \"rule\": \"LR 2.06.03; DUNE_RULES_DIGEST.md 4.6\",\n"
    "    \"rules\": \"basic\",\n"
    "    \"factions\": [\"guild\", \"harkonnen\"],\n"
    "    \"seed\": 1,\n"
    "    \"position\": {\n"
    "      \"turn\": 2, \"phase\": \"shipment_movement\", \"storm_sector\": 0,\n"
    "      \"seat_spice\": [{\"seat\": \"guild\", \"spice\": 10}]\n"
    "    },\n"
    "    \"actions\": [\n"
    "      {\"seat\": \"guild\", \"expect\": \"accepted\",\n"
    "       \"action\": {\"kind\": \"ship\", \"location\": {\"territory\": \"basin\",\n"
    "                  \"sector\": 8}, \"forces\": 3, \"elite\": 0, \"karama\": 0}}\n"
    "    ],\n"
    "    \"expect\": {\"seat_spice\": [{\"seat\": \"guild\", \"spice\": 7}],\n"
    "               \"forces\": [{\"seat\": \"guild\", \"territory\": \"basin\",\n"
    "                           \"forces\": 3}]}\n"
    "  }\n"
    "Seats are 1..N in the order of \"factions\", or faction names. In an\n"
    "action, a treachery card may be named by its kind (\"weapon\": \"crysknife\"):\n"
    "the acting seat's card of that kind.\n"
    "\n"
    "Examples:\n"
    "  mentat scenario tests/scenarios/battle_rulebook_example.json\n"
    "  mentat scenario my-dispute.json --state\n"
    "  for f in tests/scenarios/*.json; do mentat scenario \"$f\" || echo \"$f\"; done\n";

/* ============================================================ export */

static const char export_help[] =
    "usage: mentat scenario export ROOM [--at V] [--out FILE]\n"
    "\n"
    "Writes the position of ROOM after version V (default the head) as a\n"
    "scenario document: the exact state with every hidden fact (hands,\n"
    "traitors, deck orders, plans), so it needs the audit key, and the\n"
    "position's readable facts (phase, turn, storm, awaiting, winners, spice,\n"
    "hand sizes) as its expectations. `mentat scenario FILE` rebuilds that very\n"
    "position (constructed, so never a room) and meets every expectation; add\n"
    "\"actions\" to the file to play \"what if\" from it. The file is written\n"
    "whole or not at all; - or no --out writes it to standard output.\n"
    "\n"
    "Examples:\n"
    "  mentat scenario export K7QX2M9P --at 120 --out dispute.json\n"
    "  mentat scenario export K7QX2M9P | jq .expect\n";

typedef struct export_job {
    const engine_state *st;
    const char *room;
    uint32_t version;
} export_job;

static int export_to(FILE *f, void *ctx)
{
    const export_job *job = ctx;
    return tool_scenario_export(f, job->st, job->room, job->version, NULL);
}

static int scenario_export(int argc, char **argv, tool_globals *g)
{
    const char *at_s = NULL, *out_s = NULL;
    const tool_opt opts[] = {
        {"--at", "V", &at_s, NULL},
        {"--out", "FILE", &out_s, NULL},
        {NULL, NULL, NULL, NULL},
    };
    const char *pos[1];
    size_t n_pos = 0;
    int r = tool_args_parse(g, argc, argv, opts, pos, 1, &n_pos, export_help);
    if (r != TOOL_PARSED)
        return r == TOOL_HELP ? TOOL_EXIT_OK : TOOL_EXIT_USAGE;
    if (n_pos == 0) {
        tool_err(g, "missing ROOM (see mentat scenario export --help)");
        return TOOL_EXIT_USAGE;
    }
    if (out_s == NULL || out_s[0] == '\0')
        out_s = "-";
    ledger *db;
    ledger_room_info info;
    uint32_t at;
    int ex = tool_open_room_at(&db, &info, &at, g, 1, pos[0], at_s);
    if (ex != TOOL_EXIT_OK)
        return ex;
    static engine_state st;
    int rc = ledger_state_at(db, &st, info.room, at);
    if (rc != 0) {
        ex = tool_ledger_fail(g, db, rc);
        goto out;
    }
    export_job job = {&st, info.room, at};
    ex = tool_file_write(db, g, out_s, 0u, export_to, &job);
    if (ex != TOOL_EXIT_OK)
        goto out;
    if (strcmp(out_s, "-") != 0) {
        if (g->is_json) {
            tool_json j;
            tool_json_init(&j, stdout);
            tool_json_object_begin(&j);
            tool_json_member_string(&j, "room", info.room);
            tool_json_member_uint(&j, "version", at);
            tool_json_member_string(&j, "out", out_s);
            tool_json_object_end(&j);
            tool_json_finish(&j);
        } else {
            printf("wrote %s: room %s at version %u\n", out_s, info.room, at);
        }
    }
out:
    ledger_close(db);
    return ex;
}

static void print_text(const tool_scenario_result *r, const char *file, const tool_state_doc *d)
{
    printf("scenario %s%s%s\n", file, r->name[0] != '\0' ? ": " : "", r->name);
    if (r->rule[0] != '\0')
        printf("rule: %s\n", r->rule);
    for (size_t i = 0; i < r->n_checks; i++) {
        const tool_scenario_check *k = &r->checks[i];
        if (k->is_met)
            printf("  ok    %s: %s\n", k->what, k->got);
        else
            printf("  MISS  %s: %s, expected %s\n", k->what, k->got, k->expected);
    }
    printf("%zu expectation%s: %zu met, %zu missed\n", r->n_checks, r->n_checks == 1 ? "" : "s",
           r->n_checks - r->n_missed, r->n_missed);
    if (d != NULL) {
        putchar('\n');
        tool_state_print(stdout, d);
    }
}

static void print_json(const tool_scenario_result *r, const char *file, const tool_state_doc *d)
{
    tool_json j;
    tool_json_init(&j, stdout);
    tool_json_object_begin(&j);
    tool_json_member_string(&j, "file", file);
    tool_json_member_string(&j, "name", r->name);
    tool_json_member_string(&j, "rule", r->rule);
    tool_json_member_uint(&j, "actions_accepted", r->n_accepted);
    tool_json_key(&j, "checks");
    tool_json_array_begin(&j);
    for (size_t i = 0; i < r->n_checks; i++) {
        const tool_scenario_check *k = &r->checks[i];
        tool_json_object_begin(&j);
        tool_json_member_string(&j, "what", k->what);
        tool_json_member_string(&j, "expected", k->expected);
        tool_json_member_string(&j, "got", k->got);
        tool_json_member_bool(&j, "met", k->is_met);
        tool_json_object_end(&j);
    }
    tool_json_array_end(&j);
    tool_json_member_uint(&j, "met", r->n_checks - r->n_missed);
    tool_json_member_uint(&j, "missed", r->n_missed);
    tool_json_member_bool(&j, "ok", r->n_missed == 0);
    if (d != NULL) {
        tool_json_key(&j, "state");
        tool_state_json(&j, d);
    }
    tool_json_object_end(&j);
    tool_json_finish(&j);
}

int cmd_scenario(int argc, char **argv, const tool_globals *gin)
{
    tool_globals g = *gin;
    /* `scenario export ...`: the word first after the command (a file
     * named export is ./export). */
    if (argc >= 2 && strcmp(argv[1], "export") == 0) {
        g.cmd = "scenario export";
        return scenario_export(argc - 1, argv + 1, &g);
    }
    int with_state = 0, is_public = 0;
    const char *seat_s = NULL;
    const tool_opt opts[] = {
        {"--state", NULL, NULL, &with_state},
        {"--seat", "S", &seat_s, NULL},
        {"--public", NULL, NULL, &is_public},
        {NULL, NULL, NULL, NULL},
    };
    const char *pos[1];
    size_t n_pos = 0;
    int r = tool_args_parse(&g, argc, argv, opts, pos, 1, &n_pos, help);
    if (r != TOOL_PARSED)
        return r == TOOL_HELP ? TOOL_EXIT_OK : TOOL_EXIT_USAGE;
    if (n_pos == 0) {
        tool_err(&g, "missing FILE (see mentat scenario --help)");
        return TOOL_EXIT_USAGE;
    }
    if (with_state + is_public + (seat_s != NULL) > 1) {
        tool_err(&g, "--state, --seat and --public exclude each other");
        return TOOL_EXIT_USAGE;
    }
    char *text = NULL;
    size_t len = 0;
    int rc = tool_slurp(&text, &len, pos[0]);
    if (rc != 0) {
        tool_err(&g, "cannot read %s: %s", pos[0], strerror(rc));
        return TOOL_EXIT_USAGE;
    }
    static tool_scenario_result res;
    char err[TOOL_SCENARIO_ERRMSG];
    int ex = TOOL_EXIT_OK;
    if (tool_scenario_run(&res, text, len, err) != 0) {
        tool_err(&g, "%s: %s", pos[0], err);
        ex = TOOL_EXIT_USAGE;
        goto out;
    }
    if (res.is_out_of_memory) {
        tool_err(&g, "%s: out of memory", pos[0]);
        ex = TOOL_EXIT_USAGE;
        goto out;
    }
    /* The final state, as the auditor or a viewer knows it. */
    static engine_state view;
    uint8_t viewer = ENGINE_SEAT_ENGINE;
    if (is_public) {
        viewer = ENGINE_VIEW_PUBLIC;
    } else if (seat_s != NULL) {
        char why[SCHEMA_ERRMSG];
        if (tool_parse_seat(&viewer, seat_s, &res.final.config, why) != 0) {
            tool_err(&g, "--seat: %s", why);
            ex = TOOL_EXIT_USAGE;
            goto out;
        }
    }
    static engine_legal legal[ENGINE_LEGAL_MAX];
    tool_state_doc d;
    tool_state_doc_for(&d, &view, legal, &res.final, viewer, NULL, res.n_accepted,
                       res.n_accepted);
    int shows = with_state || is_public || seat_s != NULL;
    if (g.is_json)
        print_json(&res, pos[0], shows ? &d : NULL);
    else
        print_text(&res, pos[0], shows ? &d : NULL);
    ex = res.n_missed == 0 ? TOOL_EXIT_OK : TOOL_EXIT_CHECK;
out:
    tool_scenario_result_free(&res);
    free(text);
    return ex;
}
