/*
 * mentat.c - main() of the `mentat` command and its subcommand table.
 *
 * Layer: tools. It reads the global options given before the subcommand,
 * finds the subcommand in the table and hands it the rest of the command
 * line (global options after the subcommand are read by its own parser).
 * It holds no logic of any subcommand; one tools/cmd_<name>.c each.
 */
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "tools/internal.h"

typedef struct tool_command {
    const char *name;              /* as typed: "room" */
    int (*run)(int argc, char **argv, const tool_globals *g);
    const char *summary;           /* one line for `mentat --help` */
    int is_isolated;               /* 1 = reads a ledger: run in a child (tools/isolate.c) */
} tool_command;

static const tool_command commands[] = {
    {"keygen", cmd_keygen, "make the ledger's signing and audit keys", 0},
    {"key", cmd_key, "key rotate | repin: retire the signing key; endorse an older build's rotations", 1},
    {"seat", cmd_seat, "seat keygen: the key pair a seat signs its own actions with", 0},
    {"room", cmd_room, "room create | room list | room fork", 1},
    {"act", cmd_act, "append one action of a seat; prints the signed receipt", 1},
    {"log", cmd_log, "the events of a room, raw or as a seat was told them", 1},
    {"state", cmd_state, "a room at a version: full state, a seat's view or the public's", 1},
    {"replay", cmd_replay, "a room at any version as a seat, the public or the auditor saw it", 1},
    {"diff", cmd_diff, "what changed between two versions, as a viewer could see it", 1},
    {"render", cmd_render, "an SVG picture of Arrakis at a version, as a viewer saw it", 1},
    {"verify", cmd_verify, "check signatures, hash chain, digests and receipts of rooms", 1},
    {"proof", cmd_proof, "Merkle proofs of a room: a version in a tree head, two heads agreeing", 1},
    {"doctor", cmd_doctor, "what is damaged in a ledger file and what can still be exported", 1},
    {"audit", cmd_audit, "check that no seat was shown what it may not know", 1},
    {"backup", cmd_backup, "write a room's archive, or every room's", 1},
    {"restore", cmd_restore, "read an archive into this ledger", 1},
    {"reveal", cmd_reveal, "reveal a room's seed and check it against its commitment", 1},
    {"play", cmd_play, "play random legal actions through the real append path", 1},
    {"games", cmd_games, "play fresh rooms to their end with bots, through the ledger", 1},
    {"tournament", cmd_tournament, "rate the bot levels against each other, with intervals", 0},
    {"bench", cmd_bench, "the benchmark", 0},
    {"scenario", cmd_scenario, "run a scenario file (position, actions, expectations)", 0},
    {"serve", cmd_serve, "host games over HTTP: JSON API, push stream, web client, bots", 0},
};

static const char usage_head[] =
    "usage: mentat [--db PATH] [--keys DIR] [--json] <command> [<args>]\n"
    "\n"
    "Mentat keeps games of Dune in a signed, replayable ledger.\n"
    "\n"
    "Commands:\n";

static const char usage_tail[] =
    "\n"
    "Global options (before or after the command):\n"
    "  --db PATH    the ledger file (default ./mentat.db)\n"
    "  --keys DIR   the key directory (default mentat.keys, or $MENTAT_KEYS)\n"
    "  --json       print one JSON document on stdout instead of text\n"
    "  --help       help for mentat or for a command (mentat help CMD too)\n"
    "\n"
    "Exit status: 0 success, 1 a check found a problem (a damaged ledger too),\n"
    "2 bad usage or input (an output that cannot be written, a full disk too).\n"
    "\n"
    "Getting started:\n"
    "  mentat keygen\n"
    "  mentat room create --players 6 --rules basic \\\n"
    "      --factions atreides,bene_gesserit,emperor,fremen,harkonnen,guild\n"
    "  mentat state ROOM                 # who is awaited, and everything else\n"
    "  mentat act ROOM --seat bene_gesserit --version 0 \\\n"
    "      --action '{\"kind\":\"predict\",\"faction\":\"fremen\",\"turn\":5}'\n"
    "  mentat log ROOM\n"
    "  mentat verify --all\n";

static void usage(FILE *f)
{
    fputs(usage_head, f);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].summary);
    fputs(usage_tail, f);
}

static const tool_command *find_command(const char *name)
{
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    return NULL;
}

/* Reads a global option at argv[*i]: 1 if it was one, 0 if not, -1 bad. */
static int global_option(tool_globals *g, int argc, char **argv, int *i)
{
    const char *a = argv[*i];
    if (strcmp(a, "--json") == 0) {
        g->is_json = 1;
        return 1;
    }
    static const char *const valued[] = {"--db", "--keys"};
    for (size_t k = 0; k < 2; k++) {
        size_t n = strlen(valued[k]);
        if (strncmp(a, valued[k], n) != 0 || (a[n] != '\0' && a[n] != '='))
            continue;
        const char *v;
        if (a[n] == '=')
            v = a + n + 1;
        else if (*i + 1 < argc)
            v = argv[++*i];
        else {
            fprintf(stderr, "mentat: option %s needs a value\n", valued[k]);
            return -1;
        }
        if (k == 0)
            g->db_path = v;
        else
            g->keys_dir = v;
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    tool_globals g;
    memset(&g, 0, sizeof g);
    g.db_path = TOOL_DEFAULT_DB;
    g.keys_dir = getenv(TOOL_KEYS_ENV);
    if (g.keys_dir == NULL || g.keys_dir[0] == '\0')
        g.keys_dir = LEDGER_DEFAULT_KEYS_DIR;

    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return tool_stdout_finish(&g, TOOL_EXIT_OK);
        }
        int r = global_option(&g, argc, argv, &i);
        if (r < 0)
            return TOOL_EXIT_USAGE;
        if (r == 0) {
            fprintf(stderr, "mentat: unknown option '%s' (see mentat --help)\n", argv[i]);
            return TOOL_EXIT_USAGE;
        }
    }
    if (i == argc) {
        usage(stderr);
        return TOOL_EXIT_USAGE;
    }
    if (strcmp(argv[i], "help") == 0) {
        if (i + 1 == argc) {
            usage(stdout);
            return TOOL_EXIT_OK;
        }
        const tool_command *c = find_command(argv[i + 1]);
        if (c == NULL) {
            fprintf(stderr, "mentat: unknown command '%s' (see mentat --help)\n", argv[i + 1]);
            return TOOL_EXIT_USAGE;
        }
        char help_opt[] = "--help";
        char *sub_argv[] = {argv[i + 1], help_opt, NULL};
        g.cmd = c->name;
        return tool_stdout_finish(&g, c->run(2, sub_argv, &g));
    }
    const tool_command *c = find_command(argv[i]);
    if (c == NULL) {
        fprintf(stderr, "mentat: unknown command '%s' (see mentat --help)\n", argv[i]);
        return TOOL_EXIT_USAGE;
    }
    g.cmd = c->name;
    if (sodium_init() < 0) {
        fprintf(stderr, "mentat: libsodium failed to initialise\n");
        return TOOL_EXIT_USAGE;
    }
    if (!c->is_isolated)
        return tool_stdout_finish(&g, c->run(argc - i, argv + i, &g));
    return tool_isolated_run(c->run, argc - i, argv + i, &g);
}
