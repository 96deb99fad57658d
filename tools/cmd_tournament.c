/*
 * cmd_tournament.c - `mentat tournament`: bot levels against each other
 * at mixed tables, and each level's rating with a confidence interval.
 *
 * Layer: tools. Games are played in memory (the engine and the bots; no
 * ledger) by the game pool. Game i seats the levels in rotation (seat s
 * plays LIST[(s + i) mod L]) and the factions in rotation too (every L
 * games the table turns by one classic faction), so every level meets
 * every faction and seat equally often. A multi-player game gives
 * pairwise results: each winner beat each loser of another level (allied
 * winners beat nobody; losers to a third seat tie and count for nothing).
 * Ratings are Bradley-Terry strengths fitted by minorisation-maximisation
 * (Hunter 2004) on those results, with one virtual win and one virtual
 * loss between every pair of levels so that a level that never wins still
 * has a finite rating; shown on the Elo scale (400 log10), the first level
 * of LIST at 0. The 95% intervals are bootstrap percentiles: the games are
 * resampled with replacement BOOTSTRAP times and the ratings refitted;
 * a gap between two levels is significant when its own interval excludes
 * zero. Floating point appears only here, in what is printed.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tools/internal.h"

#define BOOTSTRAP 1000
#define FIT_ROUNDS 300

static const char help[] =
    "usage: mentat tournament --games G --levels LIST [--players N] [--seed S]\n"
    "                         [--jobs J] [--turns T] [--rules R] [--json]\n"
    "\n"
    "Plays G games in memory between bot levels at mixed tables, seats\n"
    "and factions rotated, and prints each level's rating (Bradley-Terry on\n"
    "the pairwise results of every game, Elo scale, the first level at 0) with\n"
    "a 95% bootstrap confidence interval, each gap between consecutive levels\n"
    "with its interval, and whether the levels are ordered as listed with every\n"
    "gap significant. Exit 1 if a game failed or an action was refused.\n"
    "\n"
    "  --games G      games to play\n"
    "  --levels LIST  distinct levels, weakest first: easy,medium,hard,brutal\n"
    "  --players N    seats per table, 2..6 (default: the number of levels, at\n"
    "                 least 2)\n"
    "  --seed S       the run's seed (default 1): room and bot seeds derive from it\n"
    "  --jobs J       games played at once (default 1)\n"
    "  --turns T      turn limit, 1..20 (default 10)\n"
    "  --rules R      basic (default) or advanced: the Advanced game, as for\n"
    "                 mentat games --rules advanced\n"
    "\n"
    "Examples:\n"
    "  mentat tournament --games 400 --levels easy,medium,hard,brutal --jobs 2\n"
    "  mentat tournament --games 100 --levels medium,hard --players 4 --json\n"
    "  mentat tournament --games 400 --levels easy,medium,hard,brutal --rules advanced\n";

/* Pairwise results of one game: w[a][b] = wins of level a over level b. */
typedef struct game_pairs {
    uint8_t w[BOT_LEVEL_COUNT][BOT_LEVEL_COUNT];
} game_pairs;

static void pairs_of(game_pairs *out, const bot_game_spec *sp, const bot_game_result *r,
                     const uint8_t *level_index)
{
    memset(out, 0, sizeof *out);
    if (!r->is_complete)
        return;
    for (unsigned a = 0; a < sp->config.n_seats; a++)
        for (unsigned b = 0; b < sp->config.n_seats; b++) {
            unsigned la = level_index[sp->level[a]], lb = level_index[sp->level[b]];
            if (la == lb || !((r->winners >> a) & 1) || ((r->winners >> b) & 1))
                continue;
            out->w[la][lb]++;
        }
}

/* Bradley-Terry by MM; ratings on the Elo scale, level 0 at 0. */
static void fit(double *rating, double w[BOT_LEVEL_COUNT][BOT_LEVEL_COUNT], unsigned n)
{
    double p[BOT_LEVEL_COUNT];
    for (unsigned i = 0; i < n; i++)
        p[i] = 1.0;
    for (int round = 0; round < FIT_ROUNDS; round++) {
        for (unsigned i = 0; i < n; i++) {
            double wins = 0, denom = 0;
            for (unsigned j = 0; j < n; j++) {
                if (j == i)
                    continue;
                double games = w[i][j] + w[j][i] + 2.0; /* the virtual win and loss */
                wins += w[i][j] + 1.0;
                denom += games / (p[i] + p[j]);
            }
            p[i] = denom > 0 ? wins / denom : p[i];
        }
        double logmean = 0;
        for (unsigned i = 0; i < n; i++)
            logmean += log(p[i]);
        logmean /= n;
        for (unsigned i = 0; i < n; i++)
            p[i] /= exp(logmean);
    }
    for (unsigned i = 0; i < n; i++)
        rating[i] = 400.0 * log10(p[i] / p[0]);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The 2.5% and 97.5% points of v[0..n) (sorted in place). */
static void interval(double *lo, double *hi, double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_double);
    *lo = v[(size_t)((double)(n - 1) * 0.025 + 0.5)];
    *hi = v[(size_t)((double)(n - 1) * 0.975 + 0.5)];
}

static void json_num(tool_json *j, double v)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%.1f", v);
    tool_json_raw(j, buf);
}

int cmd_tournament(int argc, char **argv, const tool_globals *gin)
{
    tool_globals g = *gin;
    const char *games_s = NULL, *levels_s = NULL, *players_s = NULL, *seed_s = NULL;
    const char *jobs_s = NULL, *turns_s = NULL, *rules_s = NULL;
    const tool_opt opts[] = {
        {"--games", "G", &games_s, NULL},
        {"--levels", "LIST", &levels_s, NULL},
        {"--players", "N", &players_s, NULL},
        {"--seed", "S", &seed_s, NULL},
        {"--jobs", "J", &jobs_s, NULL},
        {"--turns", "T", &turns_s, NULL},
        {"--rules", "R", &rules_s, NULL},
        {NULL, NULL, NULL, NULL},
    };
    size_t n_pos = 0;
    int r = tool_args_parse(&g, argc, argv, opts, NULL, 0, &n_pos, help);
    if (r != TOOL_PARSED)
        return r == TOOL_HELP ? TOOL_EXIT_OK : TOOL_EXIT_USAGE;
    uint32_t games = 0, players = 0, jobs = 1, turns = ENGINE_DEFAULT_TURN_LIMIT;
    uint64_t seed = 1;
    uint8_t levels[BOT_LEVEL_COUNT];
    size_t n_levels = 0;
    if (games_s == NULL || tool_parse_uint(&games, games_s, 1, 10000000) != 0) {
        tool_err(&g, "--games G is required, a number from 1");
        return TOOL_EXIT_USAGE;
    }
    if (levels_s == NULL || bot_levels_parse(levels, BOT_LEVEL_COUNT, &n_levels, levels_s) != 0 ||
        n_levels < 2) {
        tool_err(&g, "--levels must list two or more of easy, medium, hard, brutal");
        return TOOL_EXIT_USAGE;
    }
    if (rules_s != NULL && strcmp(rules_s, "basic") != 0 && strcmp(rules_s, "advanced") != 0) {
        tool_err(&g, "--rules must be basic or advanced, not '%s'", rules_s);
        return TOOL_EXIT_USAGE;
    }
    int is_advanced = rules_s != NULL && strcmp(rules_s, "advanced") == 0;
    const char *rules_name = is_advanced ? "advanced" : "basic";
    uint8_t level_index[BOT_LEVEL_COUNT];
    memset(level_index, 0xFF, sizeof level_index);
    for (size_t i = 0; i < n_levels; i++) {
        if (level_index[levels[i]] != 0xFF) {
            tool_err(&g, "--levels lists %s twice", bot_level_name(levels[i]));
            return TOOL_EXIT_USAGE;
        }
        level_index[levels[i]] = (uint8_t)i;
    }
    players = (uint32_t)n_levels;
    if (players_s != NULL &&
        tool_parse_uint(&players, players_s, ENGINE_MIN_SEATS, ENGINE_MAX_SEATS) != 0) {
        tool_err(&g, "--players must be %d..%d", ENGINE_MIN_SEATS, ENGINE_MAX_SEATS);
        return TOOL_EXIT_USAGE;
    }
    if ((jobs_s != NULL && tool_parse_uint(&jobs, jobs_s, 1, BOT_JOBS_MAX) != 0) ||
        (turns_s != NULL && tool_parse_uint(&turns, turns_s, 1, ENGINE_MAX_TURN_LIMIT) != 0) ||
        (seed_s != NULL && tool_parse_u64(&seed, seed_s) != 0)) {
        tool_err(&g, "bad --jobs, --turns or --seed (see mentat tournament --help)");
        return TOOL_EXIT_USAGE;
    }

    bot_game_spec *specs = calloc(games, sizeof *specs);
    bot_game_result *results = calloc(games, sizeof *results);
    game_pairs *pairs = calloc(games, sizeof *pairs);
    double *boot = calloc((size_t)BOOTSTRAP * 2 * BOT_LEVEL_COUNT, sizeof *boot);
    int ex = TOOL_EXIT_USAGE;
    if (specs == NULL || results == NULL || pairs == NULL || boot == NULL) {
        tool_err(&g, "out of memory for %u games", games);
        goto out;
    }
    for (uint32_t i = 0; i < games; i++) {
        bot_game_spec *sp = &specs[i];
        engine_config_init(&sp->config);
        sp->config.n_seats = (uint8_t)players;
        sp->config.turn_limit = (uint8_t)turns;
        sp->config.is_advanced = (uint8_t)is_advanced;
        unsigned turn_f = (unsigned)(i / n_levels) % ENGINE_MAX_SEATS;
        for (unsigned s = 0; s < players; s++) {
            sp->config.faction[s] =
                (uint8_t)(ENGINE_FACTION_CLASSIC_FIRST + (s + turn_f) % ENGINE_MAX_SEATS);
            sp->level[s] = levels[(s + i) % n_levels];
        }
        bot_game_seeds(sp->room_seed, &sp->bots_seed, seed, i);
    }
    double t0 = bench_now();
    if (bot_games_run(results, specs, games, jobs, bot_play_memory, NULL,
                      isatty(STDERR_FILENO), "tournament") != 0) {
        tool_err(&g, "out of memory");
        goto out;
    }
    double seconds = bench_now() - t0;
    bot_stats st;
    bot_stats_compute(&st, specs, results, games);
    unsigned shown = 0;
    for (uint32_t i = 0; i < games; i++)
        if (results[i].rc != 0 && shown++ < 5)
            tool_err(&g, "game %u: %s", i + 1, results[i].err);

    /* The fit on all games, then the bootstrap. */
    unsigned n = (unsigned)n_levels;
    double w[BOT_LEVEL_COUNT][BOT_LEVEL_COUNT];
    memset(w, 0, sizeof w);
    for (uint32_t i = 0; i < games; i++) {
        pairs_of(&pairs[i], &specs[i], &results[i], level_index);
        for (unsigned a = 0; a < n; a++)
            for (unsigned b = 0; b < n; b++)
                w[a][b] += pairs[i].w[a][b];
    }
    double rating[BOT_LEVEL_COUNT];
    fit(rating, w, n);
    tool_prng rng;
    tool_prng_init(&rng, seed ^ UINT64_C(0xb00757a9));
    for (unsigned b = 0; b < BOOTSTRAP; b++) {
        double bw[BOT_LEVEL_COUNT][BOT_LEVEL_COUNT];
        memset(bw, 0, sizeof bw);
        for (uint32_t k = 0; k < games; k++) {
            const game_pairs *p = &pairs[tool_prng_range(&rng, 0, (int32_t)games - 1)];
            for (unsigned x = 0; x < n; x++)
                for (unsigned y = 0; y < n; y++)
                    bw[x][y] += p->w[x][y];
        }
        double br[BOT_LEVEL_COUNT];
        fit(br, bw, n);
        for (unsigned l = 0; l < n; l++) {
            boot[(size_t)l * BOOTSTRAP + b] = br[l];
            if (l + 1 < n)
                boot[(size_t)(BOT_LEVEL_COUNT + l) * BOOTSTRAP + b] = br[l + 1] - br[l];
        }
    }
    double lo[BOT_LEVEL_COUNT], hi[BOT_LEVEL_COUNT], glo[BOT_LEVEL_COUNT], ghi[BOT_LEVEL_COUNT];
    int ordered = 1;
    for (unsigned l = 0; l < n; l++) {
        interval(&lo[l], &hi[l], &boot[(size_t)l * BOOTSTRAP], BOOTSTRAP);
        if (l + 1 < n) {
            interval(&glo[l], &ghi[l], &boot[(size_t)(BOT_LEVEL_COUNT + l) * BOOTSTRAP], BOOTSTRAP);
            ordered &= glo[l] > 0;
        }
    }

    if (g.is_json) {
        tool_json j;
        tool_json_init(&j, stdout);
        tool_json_object_begin(&j);
        tool_json_member_uint(&j, "games", games);
        tool_json_member_uint(&j, "players", players);
        tool_json_member_string(&j, "rules", rules_name);
        tool_json_member_uint(&j, "turn_limit", turns);
        tool_json_member_uint(&j, "seed", seed);
        tool_json_member_uint(&j, "jobs", jobs);
        tool_json_key(&j, "levels");
        tool_json_array_begin(&j);
        for (unsigned l = 0; l < n; l++)
            tool_json_string(&j, bot_level_name(levels[l]));
        tool_json_array_end(&j);
        tool_json_member_string(&j, "method", "bradley_terry");
        tool_json_member_uint(&j, "bootstrap", BOOTSTRAP);
        tool_json_key(&j, "confidence");
        tool_json_raw(&j, "0.95");
        tool_json_key(&j, "ratings");
        tool_json_array_begin(&j);
        for (unsigned l = 0; l < n; l++) {
            tool_json_object_begin(&j);
            tool_json_member_string(&j, "level", bot_level_name(levels[l]));
            tool_json_key(&j, "rating");
            json_num(&j, rating[l]);
            tool_json_key(&j, "low");
            json_num(&j, lo[l]);
            tool_json_key(&j, "high");
            json_num(&j, hi[l]);
            tool_json_member_uint(&j, "seats", st.level_seats[levels[l]]);
            tool_json_member_uint(&j, "wins", st.level_wins[levels[l]]);
            tool_json_object_end(&j);
        }
        tool_json_array_end(&j);
        tool_json_key(&j, "gaps");
        tool_json_array_begin(&j);
        for (unsigned l = 0; l + 1 < n; l++) {
            tool_json_object_begin(&j);
            tool_json_member_string(&j, "lower", bot_level_name(levels[l]));
            tool_json_member_string(&j, "upper", bot_level_name(levels[l + 1]));
            tool_json_key(&j, "gap");
            json_num(&j, rating[l + 1] - rating[l]);
            tool_json_key(&j, "low");
            json_num(&j, glo[l]);
            tool_json_key(&j, "high");
            json_num(&j, ghi[l]);
            tool_json_member_bool(&j, "significant", glo[l] > 0);
            tool_json_object_end(&j);
        }
        tool_json_array_end(&j);
        tool_json_key(&j, "pairwise");
        tool_json_object_begin(&j);
        for (unsigned a = 0; a < n; a++) {
            tool_json_key(&j, bot_level_name(levels[a]));
            tool_json_object_begin(&j);
            for (unsigned b = 0; b < n; b++)
                if (a != b) {
                    tool_json_key(&j, bot_level_name(levels[b]));
                    tool_json_uint(&j, (uint64_t)w[a][b]);
                }
            tool_json_object_end(&j);
        }
        tool_json_object_end(&j);
        tool_json_member_bool(&j, "ordered", ordered);
        bot_stats_json(&j, &st, seconds);
        tool_json_object_end(&j);
        tool_json_finish(&j);
    } else {
        printf("%u games, %u players a table, %s rules, %u turns, seed %" PRIu64 "\n", games,
               players, rules_name, turns, seed);
        printf("%-8s %8s %18s %7s %7s\n", "level", "rating", "95% interval", "wins", "seats");
        for (unsigned l = 0; l < n; l++)
            printf("%-8s %8.1f   [%6.1f, %6.1f] %7u %7u\n", bot_level_name(levels[l]), rating[l],
                   lo[l], hi[l], st.level_wins[levels[l]], st.level_seats[levels[l]]);
        for (unsigned l = 0; l + 1 < n; l++)
            printf("gap %s > %s: %.1f [%.1f, %.1f]%s\n", bot_level_name(levels[l + 1]),
                   bot_level_name(levels[l]), rating[l + 1] - rating[l], glo[l], ghi[l],
                   glo[l] > 0 ? " significant" : " not significant");
        printf("ordered as listed, every gap significant: %s\n", ordered ? "yes" : "no");
        printf("%llu actions, %llu rejected, %zu of %zu games completed, %.1f s (%.2f games/s)\n",
               (unsigned long long)st.n_actions, (unsigned long long)st.n_rejected,
               st.n_completed, st.n_games, seconds, seconds > 0 ? games / seconds : 0.0);
    }
    ex = st.n_failed == 0 && st.n_rejected == 0 ? TOOL_EXIT_OK : TOOL_EXIT_CHECK;
out:
    free(specs);
    free(results);
    free(pairs);
    free(boot);
    return ex;
}
