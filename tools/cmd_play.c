/*
 * cmd_play.c - `mentat play`: plays a room with uniformly random legal
 * actions through the real append path, until no seat has a legal action
 * or --max-actions is reached; with --seat S, a person plays seat S at the
 * terminal against bots (play_human.c).
 *
 * Layer: tools. Each step reads the head state (ledger_state_at), lists
 * engine_legal_actions for every seat, draws a family and then its
 * arguments with the tool's own seeded PRNG, and appends with
 * ledger_append at the head version: the same path as `mentat act`. The
 * PRNG only chooses what to submit; the game's randomness is the room's.
 * A legal action refused is an engine bug: it is printed, and exit is 1.
 */
#include <assert.h>
#include <inttypes.h>
#include <string.h>
#include <unistd.h>

#include <sodium.h>

#include "inspect/inspect.h"
#include "tools/internal.h"

static const char help[] =
    "usage: mentat play ROOM [--seed S] [--max-actions N] [--seat-key FILE,...]\n"
    "       mentat play ROOM --seat S [--bots LEVEL] [--seed S] [--max-actions N]\n"
    "                        [--seat-key FILE,...]\n"
    "\n"
    "Plays ROOM from its head with random legal actions: at each step it asks\n"
    "the engine for every seat's legal actions, picks one family of actions\n"
    "uniformly, then each argument uniformly in its range (arguments that must\n"
    "add up to a total are drawn uniformly among the tuples that do), and\n"
    "appends it at the head version, signed, exactly as `mentat act` would.\n"
    "It stops when no seat has a legal action (the game is over, or waits on\n"
    "something the engine does not offer yet) or after N accepted actions\n"
    "(default 100000), and prints how many were accepted and the phase reached.\n"
    "A legal action that the engine then refuses is printed and exits 1.\n"
    "\n"
    "With --seat S (or --human S) you play seat S at the terminal and bots of\n"
    "LEVEL (easy, medium, hard, brutal; default medium) play the others: at each\n"
    "of your decisions you see your seat's view and numbered choices made from\n"
    "its legal actions, and type a number (enter takes the first choice, or a\n"
    "range's example value). The end of input stops where the game stands.\n"
    "\n"
    "  --seat S         the seat you play (1..N or a faction); --human S likewise\n"
    "  --bots LEVEL     the other seats' bots (default medium)\n"
    "  --seed S         seed of the chooser (default: drawn from the system\n"
    "                   CSPRNG and printed, so a run on a copy of the same\n"
    "                   ledger can be repeated)\n"
    "  --max-actions N  stop after N accepted actions\n"
    "  --seat-key FILES the secret keys (`mentat seat keygen`) of the seats the\n"
    "                   room binds (`room create --seat-keys`), comma-separated:\n"
    "                   each key signs its own seat's actions, as `act --seat-key`\n"
    "                   does. Play acts for every seat, so every bound seat needs\n"
    "                   its key; a missing one exits 2 before anything is written\n"
    "\n"
    "Examples:\n"
    "  mentat play K7QX2M9P\n"
    "  mentat play K7QX2M9P --seed 42 --max-actions 20 && mentat log K7QX2M9P\n"
    "  mentat play K7QX2M9P --seat atreides --bots easy\n"
    "  yes '' | mentat play K7QX2M9P --human 1 --max-actions 50   # always the first choice\n"
    "  mentat play K7QX2M9P --seat-key alice.seat,bob.seat --max-actions 40\n";

#define PLAY_DEFAULT_MAX 100000u
#define DRAW_TRIES 10000

/* ============================================================== PRNG */

void tool_prng_init(tool_prng *r, uint64_t seed)
{
    r->s = seed;
}

/* splitmix64 (Steele, Lea, Flood 2014). */
uint64_t tool_prng_next(tool_prng *r)
{
    uint64_t z = (r->s += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

int32_t tool_prng_range(tool_prng *r, int32_t lo, int32_t hi)
{
    assert(lo <= hi);
    uint64_t n = (uint64_t)((int64_t)hi - (int64_t)lo) + 1u;
    uint64_t threshold = (UINT64_MAX - n + 1u) % n; /* 2^64 mod n: reject below it */
    uint64_t x;
    do
        x = tool_prng_next(r);
    while (x < threshold);
    return (int32_t)((int64_t)lo + (int64_t)(x % n));
}

/* ======================================================= the chooser */

int tool_action_draw(engine_action *out, const engine_legal *l, tool_prng *r)
{
    const engine_action_spec *spec = engine_action_spec_of(l->kind);
    if (spec == NULL)
        return -1;
    unsigned n = engine_legal_n_given(l); /* an absent optional argument is not drawn */
    memset(out, 0, sizeof *out);
    out->kind = l->kind;
    out->seat = l->seat;
    int32_t min_total = 0, max_total = 0;
    for (unsigned i = 0; i < n; i++) {
        if (l->lo[i] > l->hi[i])
            return -1;
        min_total += l->lo[i];
        max_total += l->hi[i];
    }
    if (l->sum < 0 || n == 0) {
        if (l->sum > 0 && n == 0)
            return -1;
        for (unsigned i = 0; i < n; i++)
            out->arg[i] = (int16_t)tool_prng_range(r, l->lo[i], l->hi[i]);
        engine_legal_clip(l, out->arg); /* the caps, if any */
        return 0;
    }
    if (l->sum < min_total || l->sum > max_total)
        return -1;
    /* Uniform over the tuples adding up to sum: draw all but the last,
     * force the last, retry when it falls out of its range. */
    for (int t = 0; t < DRAW_TRIES; t++) {
        int32_t total = 0;
        for (unsigned i = 0; i + 1 < n; i++) {
            out->arg[i] = (int16_t)tool_prng_range(r, l->lo[i], l->hi[i]);
            total += out->arg[i];
        }
        int32_t last = l->sum - total;
        if (last >= l->lo[n - 1] && last <= l->hi[n - 1]) {
            out->arg[n - 1] = (int16_t)last;
            return 0;
        }
    }
    /* Rarely reached (a thin solution set): draw each argument within what
     * the others can still make up; always succeeds, not quite uniform. */
    int32_t left = l->sum, rest_min = min_total, rest_max = max_total;
    for (unsigned i = 0; i < n; i++) {
        rest_min -= l->lo[i];
        rest_max -= l->hi[i];
        int32_t lo = l->lo[i], hi = l->hi[i];
        if (lo < left - rest_max)
            lo = left - rest_max;
        if (hi > left - rest_min)
            hi = left - rest_min;
        assert(lo <= hi);
        out->arg[i] = (int16_t)tool_prng_range(r, lo, hi);
        left -= out->arg[i];
    }
    return 0;
}

/* ========================================================== the loop */

typedef struct play_result {
    uint64_t seed;
    uint32_t n_accepted, n_rejected;
    uint32_t version;              /* head at the end */
    uint8_t turn, phase;
    const char *stopped;           /* "no_legal_action", "game_over", "max_actions", "rejected" */
} play_result;

static void print_result(const tool_globals *g, const char *room, const play_result *pr)
{
    const char *phase = engine_phase_name(pr->phase);
    if (phase == NULL)
        phase = "?";
    if (g->is_json) {
        tool_json j;
        tool_json_init(&j, stdout);
        tool_json_object_begin(&j);
        tool_json_member_string(&j, "room", room);
        tool_json_member_uint(&j, "seed", pr->seed);
        tool_json_member_uint(&j, "accepted", pr->n_accepted);
        tool_json_member_uint(&j, "rejected", pr->n_rejected);
        tool_json_member_uint(&j, "version", pr->version);
        tool_json_member_uint(&j, "turn", pr->turn);
        tool_json_member_string(&j, "phase", phase);
        tool_json_member_string(&j, "stopped", pr->stopped);
        tool_json_object_end(&j);
        tool_json_finish(&j);
        return;
    }
    const char *why = strcmp(pr->stopped, "game_over") == 0 ? "the game is over"
                    : strcmp(pr->stopped, "max_actions") == 0 ? "--max-actions reached"
                    : strcmp(pr->stopped, "rejected") == 0 ? "a legal action was rejected"
                                                           : "no seat has a legal action";
    printf("played %s with seed %" PRIu64 ": %u actions accepted, %u rejected\n", room,
           pr->seed, pr->n_accepted, pr->n_rejected);
    printf("now at version %u, turn %u, phase %s (stopped: %s)\n", pr->version, pr->turn, phase,
           why);
}

/* The action as JSON, or when the codec cannot write it, its raw numbers. */
static void action_text(char *out, size_t cap, const engine_action *act)
{
    if (codec_action_to_json(out, cap, act) == 0)
        return;
    int n = snprintf(out, cap, "{\"kind\":%u,\"raw_args\":[", act->kind);
    for (unsigned i = 0; i < ENGINE_ACTION_MAX_ARGS && n > 0 && (size_t)n < cap; i++)
        n += snprintf(out + n, cap - (size_t)n, "%s%d", i != 0 ? "," : "", act->arg[i]);
    if (n > 0 && (size_t)n < cap)
        snprintf(out + n, cap - (size_t)n, "]}");
}

static void print_rejected(const tool_globals *g, const engine_config *cfg, uint32_t version,
                           const engine_action *act, const ledger_append_result *res)
{
    char json[1024];
    action_text(json, sizeof json, act);
    char why[160];
    inspect_rejection_text(why, sizeof why, res->verdict, act->kind, res->why.arg,
                           res->why.value);
    tool_err(g, "legal action rejected at version %u: seat %u %s %s: %s", version,
             act->seat + 1u, tool_seat_faction(cfg, act->seat), json, why);
}

int cmd_play(int argc, char **argv, const tool_globals *gin)
{
    tool_globals g = *gin;
    const char *seed_s = NULL, *max_s = NULL, *seat_s = NULL, *human_s = NULL, *bots_s = NULL,
               *seat_key = NULL;
    const tool_opt opts[] = {
        {"--seat-key", "FILE", &seat_key, NULL},
        {"--seed", "S", &seed_s, NULL},
        {"--max-actions", "N", &max_s, NULL},
        {"--seat", "S", &seat_s, NULL},
        {"--human", "S", &human_s, NULL},
        {"--bots", "LEVEL", &bots_s, NULL},
        {NULL, NULL, NULL, NULL},
    };
    const char *pos[1];
    size_t n_pos = 0;
    int r = tool_args_parse(&g, argc, argv, opts, pos, 1, &n_pos, help);
    if (r != TOOL_PARSED)
        return r == TOOL_HELP ? TOOL_EXIT_OK : TOOL_EXIT_USAGE;
    if (n_pos == 0) {
        tool_err(&g, "missing ROOM (see mentat play --help)");
        return TOOL_EXIT_USAGE;
    }
    play_result pr;
    memset(&pr, 0, sizeof pr);
    randombytes_buf(&pr.seed, sizeof pr.seed);
    if (seed_s != NULL && tool_parse_u64(&pr.seed, seed_s) != 0) {
        tool_err(&g, "--seed must be a number, not '%s'", seed_s);
        return TOOL_EXIT_USAGE;
    }
    uint32_t max_actions = PLAY_DEFAULT_MAX;
    if (max_s != NULL && tool_parse_uint(&max_actions, max_s, 0, UINT32_MAX) != 0) {
        tool_err(&g, "--max-actions must be a number, not '%s'", max_s);
        return TOOL_EXIT_USAGE;
    }

    ledger *db;
    ledger_room_info info;
    int ex = tool_open_room_at(&db, &info, NULL, &g, 0, pos[0], NULL);
    if (ex != TOOL_EXIT_OK)
        return ex;
    /* Play acts for every seat (the person's and the bots'): each seat the
     * room binds needs its key before anything is appended. */
    tool_seat_keys keys;
    ex = tool_seat_keys_load(&keys, &g, db, &info, seat_key,
                             (uint16_t)((1u << info.config.n_seats) - 1u));
    if (ex != TOOL_EXIT_OK)
        return tool_ledger_close(&g, db, ex);

    if (seat_s != NULL && human_s != NULL) {
        tool_err(&g, "--seat and --human name the same thing: give one");
        ex = TOOL_EXIT_USAGE;
        goto out;
    }
    if (seat_s == NULL)
        seat_s = human_s;
    if (seat_s == NULL && bots_s != NULL) {
        tool_err(&g, "--bots needs --seat S (the seat you play)");
        ex = TOOL_EXIT_USAGE;
        goto out;
    }
    if (seat_s != NULL) {
        char err[SCHEMA_ERRMSG];
        uint8_t seat;
        int level = bot_level_from_name(bots_s != NULL ? bots_s : "medium");
        if (tool_parse_seat(&seat, seat_s, &info.config, err) != 0) {
            tool_err(&g, "--seat: %s", err);
            ex = TOOL_EXIT_USAGE;
        } else if (level < 0) {
            tool_err(&g, "--bots must be easy, medium, hard or brutal, not '%s'", bots_s);
            ex = TOOL_EXIT_USAGE;
        } else {
            ex = tool_play_human(&g, db, &info, &keys, seat, (unsigned)level, pr.seed, max_actions,
                                 stdin);
        }
        goto out;
    }

    tool_prng prng;
    tool_prng_init(&prng, pr.seed);
    int is_progress = isatty(STDERR_FILENO);
    static const size_t cap = ENGINE_LEGAL_MAX;
    engine_legal legal[ENGINE_LEGAL_MAX];
    engine_state st;
    for (;;) {
        uint8_t hash[SCHEMA_HASH_BYTES];
        int rc = ledger_head(db, info.room, &pr.version, hash);
        if (rc == 0)
            rc = ledger_state_at(db, &st, info.room, pr.version);
        if (rc != 0) {
            ex = tool_ledger_fail(&g, db, rc);
            goto out;
        }
        pr.turn = st.turn;
        pr.phase = st.phase;
        if (pr.n_accepted >= max_actions) {
            pr.stopped = "max_actions";
            break;
        }
        size_t n = engine_legal_actions(legal, cap, &st, ENGINE_SEAT_ENGINE);
        if (n > cap)
            n = cap;
        if (n == 0) {
            pr.stopped = st.phase == ENGINE_PHASE_GAME_OVER ? "game_over" : "no_legal_action";
            break;
        }
        const engine_legal *fam = &legal[tool_prng_range(&prng, 0, (int32_t)n - 1)];
        engine_action act;
        if (tool_action_draw(&act, fam, &prng) != 0) {
            tool_err(&g, "version %u: the engine offered an empty family of %s actions",
                     pr.version, engine_action_spec_of(fam->kind) != NULL
                                     ? engine_action_spec_of(fam->kind)->name : "unknown");
            pr.stopped = "rejected";
            pr.n_rejected++;
            break;
        }
        assert(engine_legal_contains(fam, &act));
        ledger_append_result res;
        memset(&res, 0, sizeof res);
        rc = tool_seat_keys_append(&keys, db, &res, info.room, pr.version, &act);
        if (rc != 0) {
            char json[1024];
            action_text(json, sizeof json, &act);
            tool_err(&g, "appending %s by seat %u %s at version %u: %s", json, act.seat + 1u,
                     tool_seat_faction(&info.config, act.seat), pr.version, ledger_errmsg(db));
            ex = tool_exit_for(rc);
            goto out;
        }
        if (res.verdict != ENGINE_ACCEPTED) {
            print_rejected(&g, &info.config, pr.version, &act, &res);
            pr.n_rejected++;
            pr.stopped = "rejected";
            break;
        }
        pr.n_accepted++;
        if (is_progress && pr.n_accepted % 100 == 0) {
            fprintf(stderr, "\rplay: %u actions", pr.n_accepted);
            fflush(stderr);
        }
    }
    if (is_progress && pr.n_accepted >= 100)
        fprintf(stderr, "\r%40s\r", "");
    print_result(&g, info.room, &pr);
    if (pr.n_rejected != 0)
        ex = TOOL_EXIT_CHECK;
out:
    tool_seat_keys_wipe(&keys);
    return tool_ledger_close(&g, db, ex);
}
