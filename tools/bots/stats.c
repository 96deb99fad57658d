/*
 * bots/stats.c - what a run of bot games reports: games completed, actions
 * accepted and refused, victories by faction, bot level and kind, turns,
 * actions per game, speed, and one digest over every game's final state;
 * and the bench's two game figures.
 *
 * Layer: tools. Reads finished results only. The digest is BLAKE2b-256
 * over the games' final state digests in game order, so it depends on the
 * games and not on which thread played which or when it finished.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "tools/internal.h"

void bot_stats_compute(bot_stats *out, const bot_game_spec *specs, const bot_game_result *results,
                       size_t n)
{
    memset(out, 0, sizeof *out);
    crypto_generichash_state h;
    crypto_generichash_init(&h, NULL, 0, sizeof out->digest);
    out->n_games = n;
    for (size_t i = 0; i < n; i++) {
        const bot_game_result *r = &results[i];
        const bot_game_spec *sp = &specs[i];
        crypto_generichash_update(&h, r->digest, sizeof r->digest);
        out->n_actions += r->n_actions;
        out->n_rejected += r->n_rejected;
        out->n_restores += r->n_restores;
        out->n_mismatches += r->is_ledger_mismatch;
        out->turns += r->turn;
        if (i == 0 || r->n_actions < out->actions_min)
            out->actions_min = r->n_actions;
        if (r->n_actions > out->actions_max)
            out->actions_max = r->n_actions;
        if (r->rc != 0)
            out->n_failed++;
        if (!r->is_complete)
            continue;
        out->n_completed++;
        if (r->victory_kind < sizeof out->kinds / sizeof out->kinds[0])
            out->kinds[r->victory_kind]++;
        for (unsigned s = 0; s < sp->config.n_seats; s++) {
            unsigned f = sp->config.faction[s], l = sp->level[s];
            int won = (r->winners >> s) & 1;
            if (f < ENGINE_FACTION_COUNT) {
                out->seats[f]++;
                out->wins[f] += (unsigned)won;
            }
            if (l < BOT_LEVEL_COUNT) {
                out->level_seats[l]++;
                out->level_wins[l] += (unsigned)won;
            }
        }
    }
    crypto_generichash_final(&h, out->digest, sizeof out->digest);
}

static unsigned turn_limit_wins(const bot_stats *s)
{
    return s->kinds[ENGINE_VICTORY_FREMEN] + s->kinds[ENGINE_VICTORY_GUILD] +
           s->kinds[ENGINE_VICTORY_DEFAULT_FREMEN] + s->kinds[ENGINE_VICTORY_MOST_STRONGHOLDS];
}

static double per(double a, double b)
{
    return b > 0 ? a / b : 0;
}

/* A fraction printed with 3 decimals as a JSON number. */
static void json_fixed(tool_json *j, double v, int decimals)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%.*f", decimals, v);
    tool_json_raw(j, buf);
}

void bot_stats_json(tool_json *j, const bot_stats *s, double seconds)
{
    tool_json_member_uint(j, "started", s->n_games);
    tool_json_member_uint(j, "completed", s->n_completed);
    tool_json_member_uint(j, "failed", s->n_failed);
    tool_json_member_uint(j, "accepted", s->n_actions);
    tool_json_member_uint(j, "rejections", s->n_rejected);
    tool_json_member_uint(j, "restores", s->n_restores);
    tool_json_member_uint(j, "ledger_mismatches", s->n_mismatches);
    tool_json_key(j, "turns");
    tool_json_object_begin(j);
    tool_json_member_uint(j, "total", s->turns);
    tool_json_key(j, "mean");
    json_fixed(j, per((double)s->turns, (double)s->n_games), 2);
    tool_json_object_end(j);
    tool_json_key(j, "actions_per_game");
    tool_json_object_begin(j);
    tool_json_key(j, "mean");
    json_fixed(j, per((double)s->n_actions, (double)s->n_games), 1);
    tool_json_member_uint(j, "min", s->actions_min);
    tool_json_member_uint(j, "max", s->actions_max);
    tool_json_object_end(j);
    tool_json_key(j, "seconds");
    json_fixed(j, seconds, 3);
    tool_json_key(j, "games_per_s");
    json_fixed(j, per((double)s->n_games, seconds), 3);
    tool_json_key(j, "actions_per_s");
    json_fixed(j, per((double)s->n_actions, seconds), 1);

    tool_json_key(j, "victories");
    tool_json_object_begin(j);
    tool_json_key(j, "by_faction");
    tool_json_object_begin(j);
    for (unsigned f = 0; f < ENGINE_FACTION_COUNT; f++) {
        if (s->seats[f] == 0)
            continue;
        tool_json_key(j, engine_faction_name(f));
        tool_json_object_begin(j);
        tool_json_member_uint(j, "seats", s->seats[f]);
        tool_json_member_uint(j, "wins", s->wins[f]);
        tool_json_object_end(j);
    }
    tool_json_object_end(j);
    tool_json_key(j, "by_level");
    tool_json_object_begin(j);
    for (unsigned l = 0; l < BOT_LEVEL_COUNT; l++) {
        if (s->level_seats[l] == 0)
            continue;
        tool_json_key(j, bot_level_name(l));
        tool_json_object_begin(j);
        tool_json_member_uint(j, "seats", s->level_seats[l]);
        tool_json_member_uint(j, "wins", s->level_wins[l]);
        tool_json_object_end(j);
    }
    tool_json_object_end(j);
    tool_json_key(j, "by_kind");
    tool_json_object_begin(j);
    for (unsigned k = ENGINE_VICTORY_STRONGHOLDS; k <= ENGINE_VICTORY_MOST_STRONGHOLDS; k++) {
        tool_json_key(j, tool_victory_name(k));
        tool_json_uint(j, s->kinds[k]);
    }
    tool_json_member_uint(j, "turn_limit", turn_limit_wins(s));
    tool_json_object_end(j);
    tool_json_object_end(j);

    tool_json_key(j, "digest");
    tool_json_hex(j, s->digest, sizeof s->digest);
}

void bot_stats_print(FILE *f, const bot_stats *s, double seconds)
{
    char hex[2 * ENGINE_DIGEST_BYTES + 1];
    tool_hex(hex, s->digest, sizeof s->digest);
    fprintf(f, "games: %zu started, %zu completed, %zu failed\n", s->n_games, s->n_completed,
            s->n_failed);
    fprintf(f, "actions: %llu accepted, %llu rejected; %.1f a game (min %u, max %u)\n",
            (unsigned long long)s->n_actions, (unsigned long long)s->n_rejected,
            per((double)s->n_actions, (double)s->n_games), s->actions_min, s->actions_max);
    fprintf(f, "turns: %.2f a game\n", per((double)s->turns, (double)s->n_games));
    if (s->n_restores != 0 || s->n_mismatches != 0)
        fprintf(f, "continuations: %llu restores; ledger mismatches: %zu\n",
                (unsigned long long)s->n_restores, s->n_mismatches);
    fprintf(f, "speed: %.3f s, %.3f games/s, %.1f actions/s\n", seconds,
            per((double)s->n_games, seconds), per((double)s->n_actions, seconds));
    fputs("victories by faction (wins/seats):", f);
    for (unsigned fa = 0; fa < ENGINE_FACTION_COUNT; fa++)
        if (s->seats[fa] != 0)
            fprintf(f, " %s %u/%u", engine_faction_name(fa), s->wins[fa], s->seats[fa]);
    fputs("\nvictories by level (wins/seats):", f);
    for (unsigned l = 0; l < BOT_LEVEL_COUNT; l++)
        if (s->level_seats[l] != 0)
            fprintf(f, " %s %u/%u", bot_level_name(l), s->level_wins[l], s->level_seats[l]);
    fputs("\nvictories by kind:", f);
    for (unsigned k = ENGINE_VICTORY_STRONGHOLDS; k <= ENGINE_VICTORY_MOST_STRONGHOLDS; k++)
        fprintf(f, " %s %u", tool_victory_name(k), s->kinds[k]);
    fprintf(f, " (turn limit %u)\n", turn_limit_wins(s));
    fprintf(f, "digest: %s\n", hex);
}

/* ============================================================= bench */

#define BENCH_GAMES_MEMORY 24
#define BENCH_GAMES_LEDGER 8

static void bench_specs(bot_game_spec *specs, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        bot_game_spec *sp = &specs[i];
        memset(sp, 0, sizeof *sp);
        engine_config_init(&sp->config);
        sp->config.n_seats = ENGINE_MAX_SEATS;
        for (unsigned s = 0; s < ENGINE_MAX_SEATS; s++) {
            sp->config.faction[s] = (uint8_t)(ENGINE_FACTION_CLASSIC_FIRST + s);
            sp->level[s] = BOT_LEVEL_MEDIUM;
        }
        bot_game_seeds(sp->room_seed, &sp->bots_seed, UINT64_C(0xbe9c4), (uint32_t)i);
    }
}

int bot_bench_games(double *memory_out, double *ledger_out, double *window_share_out,
                    const char *dir, const char *keys_dir, char *err, size_t err_len)
{
    size_t n = BENCH_GAMES_MEMORY > BENCH_GAMES_LEDGER ? BENCH_GAMES_MEMORY : BENCH_GAMES_LEDGER;
    bot_game_spec *specs = calloc(n, sizeof *specs);
    bot_game_result *results = calloc(n, sizeof *results);
    ledger *db = NULL;
    ledger_group *group = NULL;
    bot_gate *gate = NULL;
    int rc = -1;
    if (specs == NULL || results == NULL) {
        snprintf(err, err_len, "out of memory");
        goto out;
    }
    bench_specs(specs, n);
    double t0 = bench_now();
    if (bot_games_run(results, specs, BENCH_GAMES_MEMORY, 2, bot_play_memory, NULL, 0, "") != 0)
        goto out;
    *memory_out = BENCH_GAMES_MEMORY / (bench_now() - t0);
    uint64_t n_actions = 0, n_window = 0;
    for (size_t i = 0; i < BENCH_GAMES_MEMORY; i++) {
        if (results[i].rc != 0 || !results[i].is_complete) {
            snprintf(err, err_len, "game %zu: %s", i, results[i].err);
            goto out;
        }
        n_actions += results[i].n_actions;
        n_window += results[i].n_window;
    }
    *window_share_out = n_actions ? (double)n_window / (double)n_actions : 0;

    char path[BOT_PATH_MAX];
    snprintf(path, sizeof path, "%s/games.db", dir);
    ledger_options opt;
    ledger_options_init(&opt);
    opt.path = path;
    opt.keys_dir = keys_dir;
    if (ledger_open(&db, &opt) != 0 || ledger_group_new(&group, db) != 0 ||
        bot_gate_new(&gate) != 0) {
        snprintf(err, err_len, "opening %s: %s", path, ledger_errmsg(db));
        goto out;
    }
    bot_game_ledger lg = {db, group, gate, keys_dir, dir, 0, 0};
    t0 = bench_now();
    if (bot_games_run(results, specs, BENCH_GAMES_LEDGER, 2, bot_play_ledger, &lg, 0, "") != 0)
        goto out;
    *ledger_out = BENCH_GAMES_LEDGER / (bench_now() - t0);
    for (size_t i = 0; i < BENCH_GAMES_LEDGER; i++)
        if (results[i].rc != 0 || !results[i].is_complete || results[i].is_ledger_mismatch) {
            snprintf(err, err_len, "ledger game %zu: %s", i, results[i].err);
            goto out;
        }
    rc = 0;
out:
    ledger_group_free(group);
    ledger_close(db);
    bot_gate_free(gate);
    free(specs);
    free(results);
    return rc;
}
