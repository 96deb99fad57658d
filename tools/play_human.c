/*
 * play_human.c - `mentat play ROOM --seat S --bots LEVEL`: one person at
 * the terminal plays seat S, bots of LEVEL play every other seat, each
 * action through the real append path.
 *
 * Layer: tools. The person is shown only seat S's view (engine_view,
 * printed by the library) and numbered choices made from S's legal
 * families; for a family with ranged numbers it asks each number (enter
 * takes the family's example value). Nothing is typed as JSON. Input is
 * read line by line, so a pipe can play (the tests do); the end of input
 * stops the game where it stands (exit 0). Before each choice the log
 * of what the bots did since the last one is printed, as the seat was
 * told it; karama_policy (a standing setting of advantage bits) is kept
 * off the numbered list, for `mentat act`. A bot's move the engine
 * refuses is a bot bug: it is printed and exits 1.
 */
#include <stdlib.h>
#include <string.h>

#include "tools/internal.h"

#define LINE_CHARS 256

/* One line of input without its newline: 0, or -1 at the end of input. */
static int read_line(char out[LINE_CHARS], FILE *in)
{
    if (fgets(out, LINE_CHARS, in) == NULL)
        return -1;
    out[strcspn(out, "\r\n")] = '\0';
    return 0;
}

/* A number in [lo, hi] from the person, def on an empty line: 0, or -1
 * at the end of input. */
static int ask_number(int *out, FILE *in, const char *what, int lo, int hi, int def)
{
    for (;;) {
        printf("%s [%d..%d, enter = %d]: ", what, lo, hi, def);
        fflush(stdout);
        char line[LINE_CHARS];
        if (read_line(line, in) != 0)
            return -1;
        if (line[0] == '\0') {
            *out = def;
            return 0;
        }
        char *end;
        long v = strtol(line, &end, 10);
        if (*end == '\0' && v >= lo && v <= hi) {
            *out = (int)v;
            return 0;
        }
        printf("  not a number from %d to %d\n", lo, hi);
    }
}

/* The seat's view as text, without the library's list of families (the
 * numbered menu replaces it). */
static void print_view(const engine_state *view, const char *room, uint32_t version)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (f == NULL)
        return;
    tool_state_doc d = {room, version, version, view, NULL, 0, 0};
    tool_state_print(f, &d);
    if (fclose(f) != 0) {
        free(buf);
        return;
    }
    char *tail = NULL;
    for (char *p = strstr(buf, "\n\nseat "); p != NULL; p = strstr(p + 1, "\n\nseat "))
        tail = p;
    if (tail != NULL)
        tail[1] = '\0';
    fputs(buf, stdout);
    free(buf);
}

/* The person's action for seat from its families: 0 and *out, or -1 at
 * the end of input. */
static int ask_action(engine_action *out, FILE *in, const engine_state *view,
                      const engine_legal *legal, size_t n)
{
    for (;;) {
        puts("\nyour choices:");
        for (size_t i = 0; i < n; i++) {
            char line[1024];
            inspect_legal_text(line, sizeof line, view, &legal[i]);
            printf("  %zu) %s\n", i + 1, line);
        }
        int k;
        if (ask_number(&k, in, "choice", 1, (int)n, 1) != 0)
            return -1;
        const engine_legal *l = &legal[k - 1];
        const engine_action_spec *spec = engine_action_spec_of(l->kind);
        inspect_legal_example(out, l);
        for (unsigned i = 0; spec != NULL && i < spec->n_args; i++) {
            unsigned type = spec->arg_type[i];
            if (l->lo[i] == l->hi[i] ||
                (type != ENGINE_ARG_INT && type != ENGINE_ARG_SIGNED && type != ENGINE_ARG_COUNT1))
                continue;
            int v, one = type == ENGINE_ARG_COUNT1; /* a count held as n + 1: asked as n */
            char what[80];
            snprintf(what, sizeof what, "  %s", spec->arg_name[i]);
            if (ask_number(&v, in, what, l->lo[i] - one, l->hi[i] - one, out->arg[i] - one) != 0)
                return -1;
            out->arg[i] = (int16_t)(v + one);
        }
        if (engine_legal_contains(l, out))
            return 0;
        if (l->sum >= 0) {
            printf("  those numbers must add up to %d; choose again\n", l->sum);
            continue;
        }
        /* The caps (an Advanced battle plan's spice support): say which. */
        char line[1024];
        inspect_legal_text(line, sizeof line, view, l);
        printf("  those numbers break a limit of %s; choose again\n", line);
    }
}

/* Drops the karama_policy families from legal[0..n) (unless nothing else
 * is left): a standing setting of raw advantage bits, not a move of the
 * game; `mentat act` sets it. Returns the families kept. */
static size_t without_policy(engine_legal *legal, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (legal[i].kind != ENGINE_ACTION_KARAMA_POLICY)
            legal[k++] = legal[i];
    return k != 0 ? k : n;
}

static int print_line(void *ctx, const inspect_log_line *line)
{
    (void)ctx;
    printf("  %u: %s\n", line->version, line->text);
    return 0;
}

int tool_play_human(const tool_globals *g, ledger *db, const ledger_room_info *info,
                    const tool_seat_keys *keys, uint8_t human, unsigned level, uint64_t seed,
                    uint32_t max_actions, FILE *in)
{
    bot *bots[ENGINE_MAX_SEATS] = {0};
    engine_state *st = malloc(sizeof *st), *view = malloc(sizeof *view);
    bot_input *bin = malloc(sizeof *bin);
    engine_legal *legal = malloc(ENGINE_LEGAL_MAX * sizeof *legal);
    int ex = TOOL_EXIT_OK;
    if (st == NULL || view == NULL || bin == NULL || legal == NULL) {
        tool_err(g, "out of memory");
        ex = TOOL_EXIT_USAGE;
        goto out;
    }
    for (uint8_t s = 0; s < info->config.n_seats; s++)
        if (s != human && bot_new(&bots[s], s, (bot_level)level, seed + s) != BOT_OK) {
            tool_err(g, "out of memory");
            ex = TOOL_EXIT_USAGE;
            goto out;
        }
    printf("room %s: you are seat %u %s; the other seats are %s bots\n", info->room, human + 1u,
           tool_seat_faction(&info->config, human), bot_level_name(level));
    uint32_t n_actions = 0, shown = UINT32_MAX;
    uint32_t told = 0;             /* the log is told to the person up to this version */
    {
        uint8_t h[SCHEMA_HASH_BYTES];
        if (ledger_head(db, info->room, &told, h) != 0)
            told = 0;
    }
    for (;;) {
        uint32_t version;
        uint8_t hash[SCHEMA_HASH_BYTES];
        int rc = ledger_head(db, info->room, &version, hash);
        if (rc == 0)
            rc = ledger_state_at(db, st, info->room, version);
        if (rc != 0) {
            ex = tool_ledger_fail(g, db, rc);
            goto out;
        }
        if (st->phase == ENGINE_PHASE_GAME_OVER || n_actions >= max_actions) {
            engine_view(view, st, human);
            print_view(view, info->room, version);
            printf("%s at version %u\n", st->phase == ENGINE_PHASE_GAME_OVER
                                             ? "the game is over" : "--max-actions reached",
                   version);
            goto out;
        }
        uint16_t awaiting = engine_state_awaiting(st);
        engine_action act;
        int have = 0, all_bots = (awaiting & (1u << human)) == 0;
        for (int forced = 0; !have && forced <= all_bots; forced++)
            for (uint8_t s = 0; !have && s < info->config.n_seats; s++) {
                if (s == human || !(awaiting & (1u << s)))
                    continue;
                bot_input_build(bin, st, s, version, forced);
                have = bin->n_legal != 0 && bot_decide(&act, bots[s], bin) == BOT_OK;
            }
        size_t n = 0;
        if (!have && (awaiting & (1u << human))) {
            n = engine_legal_actions(legal, ENGINE_LEGAL_MAX, st, human);
            if (n > ENGINE_LEGAL_MAX)
                n = ENGINE_LEGAL_MAX;
            n = without_policy(legal, n);
        }
        if (!have && n == 0) {
            printf("no seat can act at version %u: stopped\n", version);
            goto out;
        }
        if (!have) {
            if (told < version) {
                /* what the other seats did since the person last chose,
                 * as the person's seat was told it */
                puts("\nsince your last choice:");
                rc = inspect_log_walk(db, info->room, human, told + 1, version, print_line, NULL);
                if (rc != 0) {
                    ex = tool_ledger_fail(g, db, rc);
                    goto out;
                }
                told = version;
            }
            engine_view(view, st, human);
            if (shown != version)
                print_view(view, info->room, version);
            shown = version;
            if (ask_action(&act, in, view, legal, n) != 0) {
                printf("\nend of input: stopped at version %u\n", version);
                goto out;
            }
            act.seat = human;
        }
        ledger_append_result res;
        rc = tool_seat_keys_append(keys, db, &res, info->room, version, &act);
        if (rc != 0) {
            ex = tool_ledger_fail(g, db, rc);
            goto out;
        }
        if (res.verdict != ENGINE_ACCEPTED) {
            const char *why = engine_verdict_name(res.verdict);
            if (have) {
                tool_err(g, "a bot's action was refused at version %u: %s", version, why);
                ex = TOOL_EXIT_CHECK;
                goto out;
            }
            printf("refused: %s\n", why);
            continue;
        }
        n_actions++;
        if (!have) {
            printf("done: version %u\n", version + 1u);
            told = version + 1u;   /* the person's own action */
        }
    }
out:
    for (unsigned s = 0; s < ENGINE_MAX_SEATS; s++)
        bot_free(bots[s]);
    free(st);
    free(view);
    free(bin);
    free(legal);
    return ex;
}
