/*
 * cmd_games.c - `mentat games`: fresh rooms played to their end by bots,
 * every action appended through the ledger (signed, group commit), and a
 * summary of what happened.
 *
 * Layer: tools. It parses the options, makes one spec per game (seeds
 * derived from --seed, factions drawn or given, bot levels), hands them to
 * the game pool (bots/game.c) and prints the summary (bots/stats.c). With
 * --continuations K each game moves through K backup archives into fresh
 * ledgers and plays on there, then comes home to the main ledger; every
 * game is then replayed in memory without interruption and the two final
 * digests must agree. Exit 1 when a game failed, an action was refused or
 * a digest disagreed.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sodium.h>

#include "tools/internal.h"

static const char help[] =
    "usage: mentat games --players N [--factions LIST] --rules R [--games G]\n"
    "                    [--bots LEVELS] [--seed S] [--jobs J] [--continuations K]\n"
    "                    [--turns T] [--modules LIST] [--db PATH] [--json]\n"
    "\n"
    "Creates G fresh rooms in the ledger and plays each to its end with bots,\n"
    "appending every action through the same signed, compare-and-swap path as\n"
    "`mentat act`, J games at a time sharing one group commit. Each bot decides\n"
    "from its own seat's view and legal actions alone. Prints games started and\n"
    "completed, actions accepted and rejected (a rejection is a bug: exit 1),\n"
    "victories by faction, bot level and kind, turns, actions per game, games\n"
    "per second, a digest of every game's final state and the codes of the\n"
    "rooms it created, in game order.\n"
    "\n"
    "  --players N        seats per table, 2..6\n"
    "  --factions LIST    the factions, in seat order (default: N classic factions\n"
    "                     drawn afresh for each game from the seed)\n"
    "  --rules R          basic, or advanced: the Advanced game with what of it\n"
    "                     is built (setup, the double spice blow with the Fremen's\n"
    "                     worms, stronghold income, the Bene Gesserit's charity,\n"
    "                     battles with spice support, the Fremen's storm deck and\n"
    "                     storm losses); decisions a bot does not make yet take\n"
    "                     the legal default\n"
    "  --games G          games to play (default 1)\n"
    "  --bots LEVELS      easy, medium, hard or brutal: one for every seat, or a\n"
    "                     comma-separated list, one per seat (default medium)\n"
    "  --seed S           a reproducible run: room seeds and bot seeds derive\n"
    "                     from S, so the same seed and bots play the same games,\n"
    "                     action for action (anyone knowing S knows every room's\n"
    "                     seed). Without it each room's secret seed comes from\n"
    "                     the system's CSPRNG and the bots' from a random S\n"
    "                     (printed)\n"
    "  --jobs J           games played at once, one thread each (default 1)\n"
    "  --continuations K  move each game through a backup archive into a fresh\n"
    "                     ledger at K versions drawn from its seed, and play on\n"
    "                     there; the finished games must equal uninterrupted play\n"
    "  --turns T          turn limit, 1..20 (default 10)\n"
    "  --modules LIST     optional modules, as for mentat room create: nexus_cards\n"
    "                     (the Nexus Cards, 3..6 seats)\n"
    "\n"
    "Examples:\n"
    "  mentat games --players 6 --rules basic --games 10 --jobs 2\n"
    "  mentat games --players 4 --rules basic --bots easy,medium,hard,brutal --seed 7\n"
    "  mentat games --players 3 --rules basic --games 4 --continuations 3 --json\n"
    "  mentat games --players 5 --rules basic --games 20 --modules nexus_cards --seed 3\n"
    "  mentat games --players 6 --rules advanced --games 10 --bots easy,medium,hard,brutal,medium,easy\n";

/* Draws n distinct classic factions for one game. */
static void draw_factions(engine_config *cfg, unsigned n, uint64_t seed, uint32_t game)
{
    uint8_t f[ENGINE_MAX_SEATS];
    for (unsigned i = 0; i < ENGINE_MAX_SEATS; i++)
        f[i] = (uint8_t)(ENGINE_FACTION_CLASSIC_FIRST + i);
    tool_prng r;
    tool_prng_init(&r, bot__mix(seed ^ UINT64_C(0xfac7), game));
    for (unsigned i = ENGINE_MAX_SEATS; i > 1; i--) {
        unsigned j = (unsigned)tool_prng_range(&r, 0, (int32_t)i - 1);
        uint8_t t = f[i - 1];
        f[i - 1] = f[j];
        f[j] = t;
    }
    cfg->n_seats = (uint8_t)n;
    for (unsigned i = 0; i < n; i++)
        cfg->faction[i] = f[i];
}

typedef struct games_opts {
    uint32_t players, games, jobs, continuations, turns;
    uint64_t seed;                 /* --seed, else drawn from the system CSPRNG */
    int has_seed;                  /* 1 = --seed given: room seeds derive from it */
    int has_factions;
    engine_config factions;        /* when given */
    uint8_t levels[ENGINE_MAX_SEATS];
    size_t n_levels;
    uint32_t modules;              /* --modules: ENGINE_MODULE_* bits */
    int is_advanced;               /* --rules advanced */
} games_opts;

static void make_specs(bot_game_spec *specs, const games_opts *o)
{
    for (uint32_t i = 0; i < o->games; i++) {
        bot_game_spec *sp = &specs[i];
        memset(sp, 0, sizeof *sp);
        engine_config_init(&sp->config);
        if (o->has_factions) {
            sp->config.n_seats = o->factions.n_seats;
            memcpy(sp->config.faction, o->factions.faction, sizeof sp->config.faction);
        } else {
            draw_factions(&sp->config, o->players, o->seed, i);
        }
        sp->config.turn_limit = (uint8_t)o->turns;
        sp->config.modules = o->modules;
        sp->config.is_advanced = (uint8_t)o->is_advanced;
        for (unsigned s = 0; s < sp->config.n_seats; s++)
            sp->level[s] = o->levels[o->n_levels == 1 ? 0 : s];
        bot_game_seeds(sp->room_seed, &sp->bots_seed, o->seed, i);
        /* Without --seed a room's secret seed is the system's randomness,
         * never something derived from a printed or guessable value. */
        if (!o->has_seed)
            randombytes_buf(sp->room_seed, sizeof sp->room_seed);
    }
}

/* The directory part of path ("." when it has none). */
static void dir_of(char *out, size_t cap, const char *path)
{
    const char *slash = strrchr(path, '/');
    if (slash == NULL)
        snprintf(out, cap, ".");
    else if (slash == path)
        snprintf(out, cap, "/");
    else
        snprintf(out, cap, "%.*s", (int)(slash - path), path);
}

/* How many times panel row `p` of the Nexus Cards was played in `n` games. */
static uint64_t panels_played(const bot_game_result *results, uint32_t n, unsigned p)
{
    uint64_t played = 0;
    for (uint32_t i = 0; i < n; i++)
        played += results[i].n_nexus_panels[p];
    return played;
}

/* Removes our own work directory and the files a failed game left in it. */
static void remove_work_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (d != NULL) {
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                continue;
            char path[BOT_PATH_MAX + 300];
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            unlink(path);
        }
        closedir(d);
    }
    if (rmdir(dir) != 0)
        fprintf(stderr, "mentat games: could not remove %s\n", dir);
}

int cmd_games(int argc, char **argv, const tool_globals *gin)
{
    tool_globals g = *gin;
    const char *players_s = NULL, *factions_s = NULL, *rules_s = NULL, *games_s = NULL;
    const char *bots_s = NULL, *seed_s = NULL, *jobs_s = NULL, *cont_s = NULL, *turns_s = NULL;
    const char *modules_s = NULL;
    const tool_opt opts[] = {
        {"--players", "N", &players_s, NULL},
        {"--factions", "LIST", &factions_s, NULL},
        {"--rules", "R", &rules_s, NULL},
        {"--games", "G", &games_s, NULL},
        {"--bots", "LEVELS", &bots_s, NULL},
        {"--seed", "S", &seed_s, NULL},
        {"--jobs", "J", &jobs_s, NULL},
        {"--continuations", "K", &cont_s, NULL},
        {"--turns", "T", &turns_s, NULL},
        {"--modules", "LIST", &modules_s, NULL},
        {NULL, NULL, NULL, NULL},
    };
    size_t n_pos = 0;
    int r = tool_args_parse(&g, argc, argv, opts, NULL, 0, &n_pos, help);
    if (r != TOOL_PARSED)
        return r == TOOL_HELP ? TOOL_EXIT_OK : TOOL_EXIT_USAGE;

    games_opts o;
    memset(&o, 0, sizeof o);
    o.games = 1;
    o.jobs = 1;
    o.turns = ENGINE_DEFAULT_TURN_LIMIT;
    randombytes_buf(&o.seed, sizeof o.seed);
    char err[SCHEMA_ERRMSG];
    if (rules_s == NULL) {
        tool_err(&g, "--rules basic or --rules advanced is required");
        return TOOL_EXIT_USAGE;
    }
    if (strcmp(rules_s, "basic") != 0 && strcmp(rules_s, "advanced") != 0) {
        tool_err(&g, "--rules must be basic or advanced, not '%s'", rules_s);
        return TOOL_EXIT_USAGE;
    }
    o.is_advanced = strcmp(rules_s, "advanced") == 0;
    if (factions_s != NULL) {
        if (tool_parse_factions(&o.factions, factions_s, err) != 0) {
            tool_err(&g, "%s", err);
            return TOOL_EXIT_USAGE;
        }
        o.has_factions = 1;
    }
    if (players_s != NULL &&
        tool_parse_uint(&o.players, players_s, ENGINE_MIN_SEATS, ENGINE_MAX_SEATS) != 0) {
        tool_err(&g, "--players must be %d..%d, not '%s'", ENGINE_MIN_SEATS, ENGINE_MAX_SEATS,
                 players_s);
        return TOOL_EXIT_USAGE;
    }
    if (players_s == NULL && !o.has_factions) {
        tool_err(&g, "--players N is required (see mentat games --help)");
        return TOOL_EXIT_USAGE;
    }
    if (o.has_factions) {
        if (players_s != NULL && o.players != o.factions.n_seats) {
            tool_err(&g, "--players %u but %u factions", o.players, o.factions.n_seats);
            return TOOL_EXIT_USAGE;
        }
        o.players = o.factions.n_seats;
        if (o.players < ENGINE_MIN_SEATS) {
            tool_err(&g, "--factions needs at least %d factions", ENGINE_MIN_SEATS);
            return TOOL_EXIT_USAGE;
        }
    }
    if (games_s != NULL && tool_parse_uint(&o.games, games_s, 1, 10000000) != 0) {
        tool_err(&g, "--games must be a number from 1, not '%s'", games_s);
        return TOOL_EXIT_USAGE;
    }
    if (jobs_s != NULL && tool_parse_uint(&o.jobs, jobs_s, 1, BOT_JOBS_MAX) != 0) {
        tool_err(&g, "--jobs must be 1..%d, not '%s'", BOT_JOBS_MAX, jobs_s);
        return TOOL_EXIT_USAGE;
    }
    if (cont_s != NULL && tool_parse_uint(&o.continuations, cont_s, 0, BOT_CONTINUE_MAX) != 0) {
        tool_err(&g, "--continuations must be 0..%d, not '%s'", BOT_CONTINUE_MAX, cont_s);
        return TOOL_EXIT_USAGE;
    }
    if (turns_s != NULL && tool_parse_uint(&o.turns, turns_s, 1, ENGINE_MAX_TURN_LIMIT) != 0) {
        tool_err(&g, "--turns must be 1..%d, not '%s'", ENGINE_MAX_TURN_LIMIT, turns_s);
        return TOOL_EXIT_USAGE;
    }
    if (modules_s != NULL && tool_parse_modules(&o.modules, modules_s, err) != 0) {
        tool_err(&g, "--modules: %s", err);
        return TOOL_EXIT_USAGE;
    }
    if ((o.modules & ENGINE_MODULE_NEXUS_CARDS) && o.players < ENGINE_NEXUS_MIN_SEATS) {
        tool_err(&g, "nexus_cards needs %u to %u seats: with %u nobody is unallied while an "
                 "alliance exists", ENGINE_NEXUS_MIN_SEATS, ENGINE_MAX_SEATS, o.players);
        return TOOL_EXIT_USAGE;
    }
    if (seed_s != NULL && tool_parse_u64(&o.seed, seed_s) != 0) {
        tool_err(&g, "--seed must be a number, not '%s'", seed_s);
        return TOOL_EXIT_USAGE;
    }
    o.has_seed = seed_s != NULL;
    o.levels[0] = BOT_LEVEL_MEDIUM;
    o.n_levels = 1;
    if (bots_s != NULL &&
        (bot_levels_parse(o.levels, ENGINE_MAX_SEATS, &o.n_levels, bots_s) != 0 ||
         (o.n_levels != 1 && o.n_levels != o.players))) {
        tool_err(&g, "--bots must be one level, or one per seat (%u), of easy, medium, hard, "
                     "brutal: not '%s'", o.players, bots_s);
        return TOOL_EXIT_USAGE;
    }

    bot_game_spec *specs = calloc(o.games, sizeof *specs);
    bot_game_result *results = calloc(o.games, sizeof *results);
    bot_game_result *replays = NULL;
    ledger *db = NULL;
    ledger_group *group = NULL;
    bot_gate *gate = NULL;
    char work[BOT_PATH_MAX] = "";
    int ex = TOOL_EXIT_USAGE;
    if (specs == NULL || results == NULL) {
        tool_err(&g, "out of memory for %u games", o.games);
        goto out;
    }
    make_specs(specs, &o);
    engine_state *probe = malloc(sizeof *probe);
    engine_rng rng;
    engine_rng_init(&rng, specs[0].room_seed, 0);
    engine_verdict v = probe == NULL ? ENGINE_REJECT_BAD_CONFIG
                                     : engine_setup(NULL, probe, &specs[0].config, &rng);
    free(probe);
    if (v != ENGINE_ACCEPTED) {
        tool_err(&g, "the engine refuses this table: %s", engine_verdict_name(v));
        goto out;
    }

    ex = tool_ledger_open(&db, &g, 0);
    if (ex != TOOL_EXIT_OK)
        goto out;
    int krc = ledger_keys_check(db);
    if (krc != 0) {
        ex = tool_ledger_fail(&g, db, krc);
        goto out;
    }
    ex = TOOL_EXIT_USAGE;
    char dir[BOT_PATH_MAX];
    dir_of(dir, sizeof dir, g.db_path);
    snprintf(work, sizeof work, "%.400s/.mentat-games-XXXXXX", dir);
    if (mkdtemp(work) == NULL) {
        tool_err(&g, "cannot make a work directory next to %s", g.db_path);
        work[0] = '\0';
        goto out;
    }
    if (ledger_group_new(&group, db) != 0 || bot_gate_new(&gate) != 0) {
        tool_err(&g, "out of memory");
        goto out;
    }
    tool_ledger_keep();
    bot_game_ledger lg = {db, group, gate, g.keys_dir, work, o.continuations, 0};
    int is_progress = isatty(STDERR_FILENO);
    double t0 = bench_now();
    if (bot_games_run(results, specs, o.games, o.jobs, bot_play_ledger, &lg, is_progress,
                      "games") != 0) {
        tool_err(&g, "out of memory");
        goto out;
    }
    double seconds = bench_now() - t0;

    size_t cont_mismatches = 0;
    if (o.continuations > 0) {
        replays = calloc(o.games, sizeof *replays);
        if (replays == NULL || bot_games_run(replays, specs, o.games, o.jobs, bot_play_memory,
                                             NULL, is_progress, "uninterrupted replay") != 0) {
            tool_err(&g, "out of memory");
            goto out;
        }
        for (uint32_t i = 0; i < o.games; i++)
            cont_mismatches += memcmp(replays[i].digest, results[i].digest,
                                      sizeof results[i].digest) != 0;
    }

    unsigned shown = 0;
    for (uint32_t i = 0; i < o.games; i++)
        if (results[i].rc != 0 && shown++ < 5)
            tool_err(&g, "game %u (room %s): %s", i + 1,
                     results[i].room[0] ? results[i].room : "-", results[i].err);
    bot_stats st;
    bot_stats_compute(&st, specs, results, o.games);
    if (g.is_json) {
        tool_json j;
        tool_json_init(&j, stdout);
        tool_json_object_begin(&j);
        tool_json_member_uint(&j, "games", o.games);
        tool_json_member_uint(&j, "players", o.players);
        tool_json_member_string(&j, "rules", o.is_advanced ? "advanced" : "basic");
        tool_json_member_uint(&j, "turn_limit", o.turns);
        tool_json_key(&j, "modules");
        tool_json_array_begin(&j);
        for (unsigned m = 0; m < TOOL_MODULE_COUNT; m++)
            if (o.modules & (1u << m))
                tool_json_string(&j, tool_module_names[m]);
        tool_json_array_end(&j);
        tool_json_key(&j, "bots");
        tool_json_array_begin(&j);
        for (size_t i = 0; i < o.n_levels; i++)
            tool_json_string(&j, bot_level_name(o.levels[i]));
        tool_json_array_end(&j);
        tool_json_member_uint(&j, "seed", o.seed);
        tool_json_member_uint(&j, "jobs", o.jobs);
        tool_json_member_uint(&j, "continuations", o.continuations);
        bot_stats_json(&j, &st, seconds);
        /* Window answers (the Karama windows') and the Nexus Cards' draw
         * answers, over the accepted actions. */
        uint64_t n_acts = 0, n_window = 0, n_nexus = 0, n_draws = 0;
        for (uint32_t i = 0; i < o.games; i++) {
            n_acts += results[i].n_actions;
            n_window += results[i].n_window;
            n_nexus += results[i].n_nexus_answers;
            n_draws += results[i].n_nexus_draws;
        }
        tool_json_member_uint(&j, "window_answers", n_window);
        char share[32];
        snprintf(share, sizeof share, "%.4f",
                 n_acts != 0 ? (double)n_window / (double)n_acts : 0.0);
        tool_json_key(&j, "window_share");
        tool_json_raw(&j, share);
        /* Karama cancels, by advantage: {"bg_voice": n, ...} for each cancelled */
        tool_json_key(&j, "karama_cancelled");
        tool_json_object_begin(&j);
        for (unsigned a = 1; a < ENGINE_ADVANTAGE_COUNT; a++) {
            uint64_t n_cancelled = 0;
            for (uint32_t i = 0; i < o.games; i++)
                n_cancelled += results[i].n_cancelled[a];
            if (n_cancelled != 0)
                tool_json_member_uint(&j, engine_advantage_name(a), n_cancelled);
        }
        tool_json_object_end(&j);
        /* Faction Karama powers used (Advanced), by faction: {"emperor": n, ...} */
        tool_json_key(&j, "karama_powers");
        tool_json_object_begin(&j);
        for (unsigned f = 0; f < ENGINE_FACTION_COUNT; f++) {
            uint64_t n_used = 0;
            for (uint32_t i = 0; i < o.games; i++)
                n_used += ((unsigned)results[i].karama_powers >> f) & 1u;
            if (n_used != 0)
                tool_json_member_uint(&j, engine_faction_name(f), n_used);
        }
        tool_json_object_end(&j);
        /* Advanced: the Harkonnen's decisions on the leaders drawn after
         * their battles won (a Karama-stopped one counted as decided) */
        static const char *const decided[3] = {"captured", "killed", "spared"};
        tool_json_key(&j, "captures");
        tool_json_object_begin(&j);
        for (unsigned k = 0; k < 3; k++) {
            uint64_t n_decided = 0;
            for (uint32_t i = 0; i < o.games; i++)
                n_decided += results[i].n_captures[k];
            tool_json_member_uint(&j, decided[k], n_decided);
        }
        tool_json_object_end(&j);
        tool_json_member_uint(&j, "nexus_draw_answers", n_nexus);
        tool_json_member_uint(&j, "nexus_draws", n_draws);
        /* Nexus cards played, by panel: {"14": n, ...} for each row played */
        tool_json_key(&j, "nexus_panels");
        tool_json_object_begin(&j);
        for (unsigned p = 1; p <= ENGINE_NEXUS_PANEL_COUNT; p++) {
            uint64_t n_played = panels_played(results, o.games, p);
            char key[8];
            snprintf(key, sizeof key, "%u", p);
            if (n_played != 0)
                tool_json_member_uint(&j, key, n_played);
        }
        tool_json_object_end(&j);
        tool_json_key(&j, "rooms");
        tool_json_array_begin(&j);
        for (uint32_t i = 0; i < o.games; i++)
            if (results[i].room[0] != '\0')
                tool_json_string(&j, results[i].room);
            else
                tool_json_null(&j);
        tool_json_array_end(&j);
        if (o.continuations > 0) {
            tool_json_member_uint(&j, "continuation_mismatches", cont_mismatches);
        }
        tool_json_object_end(&j);
        tool_json_finish(&j);
    } else {
        printf("%u games of %u players, %s rules%s, %u turns, seed %" PRIu64 ", %u jobs\n",
               o.games, o.players, o.is_advanced ? "advanced" : "basic",
               (o.modules & ENGINE_MODULE_NEXUS_CARDS) ? " with the Nexus Cards" : "", o.turns,
               o.seed, o.jobs);
        bot_stats_print(stdout, &st, seconds);
        if (o.modules & ENGINE_MODULE_NEXUS_CARDS) {
            fputs("nexus panels played (row: times):", stdout);
            for (unsigned p = 1; p <= ENGINE_NEXUS_PANEL_COUNT; p++) {
                uint64_t n_played = panels_played(results, o.games, p);
                if (n_played != 0)
                    printf(" %u: %" PRIu64, p, n_played);
            }
            putchar('\n');
        }
        fputs("rooms:", stdout);
        for (uint32_t i = 0; i < o.games; i++)
            printf(" %s", results[i].room[0] != '\0' ? results[i].room : "-");
        putchar('\n');
        if (o.continuations > 0)
            printf("continuations: %u a game; %zu digests differ from uninterrupted play\n",
                   o.continuations, cont_mismatches);
    }
    ex = st.n_failed == 0 && st.n_rejected == 0 && st.n_mismatches == 0 && cont_mismatches == 0 &&
                 st.n_completed == st.n_games
             ? TOOL_EXIT_OK
             : TOOL_EXIT_CHECK;
    /* A full disk is no finding about the games: exit 2, as for any write. */
    for (uint32_t i = 0; i < o.games; i++)
        if (results[i].rc == ENOSPC || results[i].rc == LEDGER_EFULL) {
            tool_err(&g, "the disk is full: nothing was acknowledged past the last receipt");
            ex = TOOL_EXIT_USAGE;
            break;
        }
out:
    ledger_group_free(group);
    bot_gate_free(gate);
    ex = tool_ledger_close(&g, db, ex);
    if (work[0] != '\0')
        remove_work_dir(work);
    free(specs);
    free(results);
    free(replays);
    return ex;
}
