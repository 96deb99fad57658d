/*
 * cmd_audit.c - `mentat audit`: the hidden-information audit of one room
 * or every room (counterfactual replay, inspect_audit_room), and its
 * self-test against planted leaks (inspect_audit_self_test).
 *
 * Layer: tools. The audit is inspect/audit.c's; this file picks the rooms
 * and the viewer, shows progress on a terminal, and turns the reports
 * into text or JSON and an exit status: 1 when a leak is found (or a
 * room's events do not re-fold), 2 for bad usage or a room that cannot be
 * audited (no audit key). It never writes.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "inspect/inspect.h"
#include "tools/internal.h"

static const char help[] =
    "usage: mentat audit ROOM [--seat S | --public] [--fact F,...] [--trials N] [--steps N]\n"
    "                         [--sample-seed N] [--json --sign]\n"
    "       mentat audit --all [same options]\n"
    "       mentat audit --self-test\n"
    "\n"
    "Checks that no seat was shown a hidden fact it was not entitled to, by\n"
    "counterfactual replay: at sampled versions (always including the opening\n"
    "position) and for each seat and the public in turn, it changes one fact that\n"
    "viewer cannot know (two treachery card faces, where two traitors lie or which\n"
    "one a seat keeps, the unseen spice deck's order, the prediction, the other\n"
    "side's battle plan or prescience answer, another dialer's storm dial), then\n"
    "replays the room's following actions in both worlds with the room's own\n"
    "randomness. Until the viewer legitimately learns the changed fact, its view,\n"
    "who is asked, its legal actions, its log line of each event, the verdicts of\n"
    "probe actions and the size of each must be identical. Each difference is a\n"
    "leak: version, seat, the hidden fact and the field that differed. After every\n"
    "event it also recomputes from a table of the rules who may know each card,\n"
    "traitor and spice card, and a known_by mark the rules do not give is a leak\n"
    "(channel marks); every output path a viewer reaches (log, state, replay,\n"
    "diff, render, scenario, the bots' input) is compared byte for byte as its\n"
    "command prints it (channel output); and what a viewer saw earlier must stay\n"
    "marked, with reshuffles dealing faces afresh (channel history). It ends with\n"
    "the action kinds played and the hidden facts changed. Needs the room's seed:\n"
    "its revealed seed (`mentat reveal`, kept in the room's archive), so anyone\n"
    "holding the archive can audit a revealed room with no audit key, else the\n"
    "audit key. Exit status 1 if any leak is found.\n"
    "\n"
    "  --all          every room of the ledger (progress on stderr if a terminal)\n"
    "  --seat S       audit only seat S (1..n or a faction); --public the public\n"
    "  --fact F,...   change only these facts: card_faces, traitors, spice_deck,\n"
    "                 prediction, battle_plan, storm_dial, nexus_cards (default: all)\n"
    "  --trials N     counterfactual pairs per room (default 32 per viewer audited)\n"
    "  --steps N      events replayed per pair at most (default: up to the head)\n"
    "  --sample-seed N  which versions, seats and facts are sampled (default 0)\n"
    "  --sign         with ROOM and --json: adds \"signed_report\", the room, the\n"
    "                 head and tree head audited, the method, the seed it used,\n"
    "                 the viewer, facts and sample seed, the trials, steps,\n"
    "                 comparisons, leaks and verdict, signed with the ledger key\n"
    "                 (needs the signing key); `mentat verify --report FILE`\n"
    "                 checks it against the room\n"
    "  --self-test    audit games played in memory against planted leaks (a hand\n"
    "                 card in the public view, a traitor in another seat's view, a\n"
    "                 drawn card in the public log, a prompt only the holder of a\n"
    "                 secret card gets, a rejection naming a hidden card, a view\n"
    "                 whose size depends on a hidden card, a secret action's\n"
    "                 arguments in the log, the log told from the full state, a\n"
    "                 peek marked known to all, a reshuffle keeping each number's\n"
    "                 face); exit 0 only if every one is caught\n"
    "\n"
    "Examples:\n"
    "  mentat audit K7QX2M9P\n"
    "  mentat audit --all --trials 40 --steps 100\n"
    "  mentat audit K7QX2M9P --seat atreides --json | jq '.leaks[]'\n"
    "  mentat audit --self-test\n"
    "  mentat audit K7QX2M9P --json --sign > K7QX2M9P.audit.json\n";

typedef struct audit_totals {
    size_t n_rooms;                /* rooms audited */
    size_t n_failed;               /* rooms that could not be audited */
    uint64_t n_trials, n_steps, n_comparisons, n_learned, n_diverged;
    uint64_t n_marks_events, n_marks_forgotten; /* events whose marks were checked by rule */
    uint64_t n_by_kind[ENGINE_ACTION_KIND_COUNT]; /* events audited, per action kind */
    uint64_t n_by_fact[INSPECT_FACT_COUNT]; /* pairs, per hidden fact changed */
    uint64_t n_leaks;              /* leaks found in all */
    int exit_failure;              /* worst exit status of a room that could not be audited */
    uint8_t viewer;                /* the viewer option of the last room audited */
} audit_totals;

typedef struct progress_ctx {
    size_t room, n_rooms;          /* 1-based room being audited, of n_rooms */
    const char *code;
} progress_ctx;

static void on_progress(void *vctx, unsigned done, unsigned total)
{
    const progress_ctx *p = vctx;
    fprintf(stderr, "\raudit: room %zu of %zu (%s), pair %u of %u   ", p->room, p->n_rooms,
            p->code, done, total);
    fflush(stderr);
}

/* A comma-separated list of fact names into a mask: 0, or -1. */
static int parse_facts(uint32_t *out, const char *list)
{
    *out = 0;
    const char *p = list;
    for (;;) {
        size_t n = strcspn(p, ",");
        unsigned f = 0;
        for (; f < INSPECT_FACT_COUNT; f++)
            if (strlen(inspect_audit_fact_name(f)) == n &&
                strncmp(p, inspect_audit_fact_name(f), n) == 0)
                break;
        if (f == INSPECT_FACT_COUNT)
            return -1;
        *out |= 1u << f;
        if (p[n] == '\0')
            return 0;
        p += n + 1;
    }
}

static void leak_json(tool_json *j, const engine_config *cfg, const inspect_audit_leak *l)
{
    tool_json_object_begin(j);
    tool_json_member_string(j, "room", l->room);
    tool_json_member_uint(j, "version", l->version);
    tool_json_member_uint(j, "at_version", l->at_version);
    tool_json_key(j, "viewer");
    if (cfg != NULL)
        tool_viewer_json(j, cfg, l->seat);
    else if (l->seat == ENGINE_VIEW_PUBLIC)
        tool_json_string(j, "public");
    else
        tool_json_uint(j, l->seat + 1u);
    tool_json_member_string(j, "fact", inspect_audit_fact_name(l->fact));
    tool_json_member_string(j, "channel", inspect_audit_channel_name(l->channel));
    tool_json_member_string(j, "field", l->field);
    tool_json_member_string(j, "hidden", l->hidden);
    tool_json_member_string(j, "detail", l->detail);
    tool_json_object_end(j);
}

static void leak_print(const engine_config *cfg, const inspect_audit_leak *l)
{
    char who[64];
    if (cfg != NULL)
        tool_viewer_text(who, sizeof who, cfg, l->seat);
    else if (l->seat == ENGINE_VIEW_PUBLIC)
        snprintf(who, sizeof who, "the public");
    else
        snprintf(who, sizeof who, "seat %u", l->seat + 1u);
    printf("  LEAK to %s, changed at version %u, told apart at version %u (%s)\n", who,
           l->version, l->at_version, inspect_audit_fact_name(l->fact));
    printf("    hidden: %s\n", l->hidden);
    printf("    %s (%s): %s\n", l->field, inspect_audit_channel_name(l->channel), l->detail);
}

/* Audits one room; prints its text lines and appends its leaks to the
 * JSON array `leaks` (j non-NULL). */
static void audit_one(const tool_globals *g, ledger *db, tool_json *j, const char *room,
                      const inspect_audit_options *base, const char *seat_s, int is_public,
                      audit_totals *t, inspect_audit_report *rep)
{
    ledger_room_info info;
    int rc = ledger_room_info_get(db, &info, room);
    if (rc != 0) {
        tool_err(g, "room %s: %s", room, ledger_errmsg(db));
        t->n_failed++;
        t->exit_failure = tool_exit_for(rc);
        return;
    }
    inspect_audit_options opt = *base;
    if (is_public) {
        opt.seat = ENGINE_VIEW_PUBLIC;
    } else if (seat_s != NULL) {
        char err[SCHEMA_ERRMSG];
        if (tool_parse_seat(&opt.seat, seat_s, &info.config, err) != 0) {
            tool_err(g, "room %s: %s", room, err);
            t->n_failed++;
            t->exit_failure = TOOL_EXIT_USAGE;
            return;
        }
    }
    t->viewer = opt.seat;
    rc = inspect_audit_room(rep, db, room, &opt);
    if (opt.progress != NULL) {
        fprintf(stderr, "\r%70s\r", "");
        fflush(stderr);
    }
    if (rc != 0) {
        tool_err(g, "room %s cannot be audited: %s", room, rep->errmsg);
        t->n_failed++;
        int ex = rc == LEDGER_EBADSIG || rc == LEDGER_ECORRUPT ? TOOL_EXIT_CHECK : TOOL_EXIT_USAGE;
        if (t->exit_failure == 0 || ex == TOOL_EXIT_CHECK)
            t->exit_failure = ex;
        return;
    }
    t->n_rooms++;
    t->n_trials += rep->n_trials;
    t->n_steps += rep->n_steps;
    t->n_comparisons += rep->n_comparisons;
    t->n_learned += rep->n_learned;
    t->n_diverged += rep->n_diverged;
    t->n_leaks += rep->n_leaks;
    t->n_marks_events += rep->n_marks_events;
    t->n_marks_forgotten += rep->n_marks_forgotten;
    for (unsigned k = 0; k < ENGINE_ACTION_KIND_COUNT; k++)
        t->n_by_kind[k] += rep->n_by_kind[k];
    for (unsigned f = 0; f < INSPECT_FACT_COUNT; f++)
        t->n_by_fact[f] += rep->n_by_fact[f];
    size_t kept = rep->n_leaks < INSPECT_AUDIT_MAX_LEAKS ? rep->n_leaks : INSPECT_AUDIT_MAX_LEAKS;
    if (j != NULL) {
        for (size_t i = 0; i < kept; i++)
            leak_json(j, &info.config, &rep->leak[i]);
        return;
    }
    if (rep->n_leaks == 0) {
        printf("%s  ok  %u events, %u pairs, %llu steps, %llu comparisons, marks of %u events "
               "by rule, no leak\n", room, rep->n_events, rep->n_trials,
               (unsigned long long)rep->n_steps, (unsigned long long)rep->n_comparisons,
               rep->n_marks_events);
        if (rep->n_marks_forgotten > 0)
            printf("  note: %u marks the rules give are not set, first %s\n",
                   rep->n_marks_forgotten, rep->marks_forgotten);
        return;
    }
    printf("%s  LEAKS  %u of %u pairs told apart (%u events, %llu comparisons)\n", room,
           rep->n_leaks, rep->n_trials, rep->n_events, (unsigned long long)rep->n_comparisons);
    for (size_t i = 0; i < kept; i++)
        leak_print(&info.config, &rep->leak[i]);
    if (rep->n_leaks > kept)
        printf("  ... and %u more\n", rep->n_leaks - (uint32_t)kept);
}

/* What the audit exercised: the action kinds its rooms played and the
 * hidden facts it changed, with counts. */
static void coverage_print(const audit_totals *t)
{
    unsigned n = 0, all = ENGINE_ACTION_KIND_COUNT - 1u;
    for (unsigned k = ENGINE_ACTION_NONE + 1; k < ENGINE_ACTION_KIND_COUNT; k++)
        n += t->n_by_kind[k] > 0;
    printf("exercised %u of %u action kinds", n, all);
    const char *sep = "; not played: ";
    for (unsigned k = ENGINE_ACTION_NONE + 1; k < ENGINE_ACTION_KIND_COUNT; k++)
        if (t->n_by_kind[k] == 0) {
            printf("%s%s", sep, engine_action_spec_of(k)->name);
            sep = ", ";
        }
    printf("\nhidden facts changed:");
    for (unsigned f = 0; f < INSPECT_FACT_COUNT; f++)
        printf(" %s %llu%s", inspect_audit_fact_name(f), (unsigned long long)t->n_by_fact[f],
               f + 1 < INSPECT_FACT_COUNT ? "," : "\n");
}

static void coverage_json(tool_json *j, const audit_totals *t)
{
    tool_json_key(j, "action_kinds");
    tool_json_object_begin(j);
    for (unsigned k = ENGINE_ACTION_NONE + 1; k < ENGINE_ACTION_KIND_COUNT; k++)
        tool_json_member_uint(j, engine_action_spec_of(k)->name, t->n_by_kind[k]);
    tool_json_object_end(j);
    tool_json_key(j, "facts");
    tool_json_object_begin(j);
    for (unsigned f = 0; f < INSPECT_FACT_COUNT; f++)
        tool_json_member_uint(j, inspect_audit_fact_name(f), t->n_by_fact[f]);
    tool_json_object_end(j);
}

static int self_test(const tool_globals *g)
{
    inspect_audit_self_report *r = malloc(sizeof *r);
    if (r == NULL) {
        tool_err(g, "out of memory");
        return TOOL_EXIT_USAGE;
    }
    int is_progress = !g->is_json && isatty(STDERR_FILENO);
    if (is_progress) {
        fprintf(stderr, "audit: self-test running...");
        fflush(stderr);
    }
    int rc = inspect_audit_self_test(r);
    if (is_progress) {
        fprintf(stderr, "\r%40s\r", "");
        fflush(stderr);
    }
    if (rc != 0) {
        tool_err(g, "the self-test could not run (%d)", rc);
        free(r);
        return TOOL_EXIT_USAGE;
    }
    if (g->is_json) {
        tool_json j;
        tool_json_init(&j, stdout);
        tool_json_object_begin(&j);
        tool_json_member_uint(&j, "planted", r->n_plants);
        tool_json_member_uint(&j, "caught", r->n_caught);
        tool_json_member_uint(&j, "comparisons", r->n_comparisons);
        tool_json_key(&j, "results");
        tool_json_array_begin(&j);
        for (size_t i = 0; i < r->n_plants; i++) {
            const inspect_audit_self_result *x = &r->result[i];
            tool_json_object_begin(&j);
            tool_json_member_string(&j, "name", x->plant->name);
            tool_json_member_string(&j, "what", x->plant->what);
            tool_json_member_bool(&j, "caught", x->is_caught);
            if (x->is_caught) {
                tool_json_key(&j, "leak");
                leak_json(&j, NULL, &x->first);
            }
            tool_json_object_end(&j);
        }
        tool_json_array_end(&j);
        tool_json_member_uint(&j, "genuine_leaks", r->n_genuine_leaks);
        if (r->n_genuine_leaks > 0) {
            tool_json_key(&j, "genuine_leak");
            leak_json(&j, NULL, &r->genuine);
        }
        tool_json_object_end(&j);
        tool_json_finish(&j);
    } else {
        for (size_t i = 0; i < r->n_plants; i++) {
            const inspect_audit_self_result *x = &r->result[i];
            printf("planted leak %zu of %zu, %s (%s): ", i + 1, r->n_plants,
                   x->plant->name, x->plant->what);
            if (!x->is_caught) {
                printf("NOT CAUGHT (%u other differences)\n", x->n_leaks);
                continue;
            }
            printf("caught\n    %s (%s) at version %u: %s\n", x->first.field,
                   inspect_audit_channel_name(x->first.channel), x->first.at_version,
                   x->first.detail);
        }
        printf("caught %zu of %zu planted leaks (%llu comparisons)\n", r->n_caught, r->n_plants,
               (unsigned long long)r->n_comparisons);
        if (r->n_genuine_leaks > 0)
            printf("note: the genuine observer itself was told apart %u times in these games, "
                   "first: %s (%s) when %s; run `mentat audit` on real rooms\n",
                   r->n_genuine_leaks, r->genuine.field,
                   inspect_audit_channel_name(r->genuine.channel), r->genuine.hidden);
    }
    int ex = r->n_caught == r->n_plants ? TOOL_EXIT_OK : TOOL_EXIT_CHECK;
    free(r);
    return ex;
}

/* "signed_report": the room's report signed with the ledger key. */
static int sign_report(const tool_globals *g, ledger *db, tool_json *j,
                       const inspect_audit_report *rep, const inspect_audit_options *opt,
                       uint8_t viewer)
{
    ledger_audit_report r;
    memset(&r, 0, sizeof r);
    snprintf(r.room, sizeof r.room, "%s", rep->room);
    r.version = rep->n_events;
    r.method = LEDGER_AUDIT_METHOD_COUNTERFACTUAL;
    r.seed_source = rep->is_revealed_seed ? LEDGER_AUDIT_SEED_REVEALED : LEDGER_AUDIT_SEED_AUDIT_KEY;
    r.viewer = viewer;
    r.facts = opt->facts;
    r.sample_seed = opt->sample_seed;
    r.n_trials = rep->n_trials;
    r.n_steps = rep->n_steps;
    r.n_comparisons = rep->n_comparisons;
    r.n_leaks = rep->n_leaks;
    r.is_leaky = rep->n_leaks != 0;
    int rc = ledger_audit_report_sign(db, &r);
    if (rc != 0)
        return tool_ledger_fail(g, db, rc);
    tool_json_key(j, "signed_report");
    inspect_json_audit_report(j, &r);
    return TOOL_EXIT_OK;
}

int cmd_audit(int argc, char **argv, const tool_globals *gin)
{
    tool_globals g = *gin;
    const char *seat_s = NULL, *trials_s = NULL, *steps_s = NULL, *sample_s = NULL;
    const char *facts_s = NULL;
    int is_all = 0, is_public = 0, is_self_test = 0, is_sign = 0;
    const tool_opt opts[] = {
        {"--all", NULL, NULL, &is_all},
        {"--seat", "S", &seat_s, NULL},
        {"--fact", "F", &facts_s, NULL},
        {"--public", NULL, NULL, &is_public},
        {"--trials", "N", &trials_s, NULL},
        {"--steps", "N", &steps_s, NULL},
        {"--sample-seed", "N", &sample_s, NULL},
        {"--self-test", NULL, NULL, &is_self_test},
        {"--sign", NULL, NULL, &is_sign},
        {NULL, NULL, NULL, NULL},
    };
    const char *pos[1];
    size_t n_pos = 0;
    int r = tool_args_parse(&g, argc, argv, opts, pos, 1, &n_pos, help);
    if (r != TOOL_PARSED)
        return r == TOOL_HELP ? TOOL_EXIT_OK : TOOL_EXIT_USAGE;
    if (is_self_test) {
        if (n_pos != 0 || is_all || seat_s != NULL || is_public) {
            tool_err(&g, "--self-test takes no room and no viewer");
            return TOOL_EXIT_USAGE;
        }
        return self_test(&g);
    }
    if ((n_pos == 1) == (is_all != 0)) {
        tool_err(&g, "give either ROOM or --all (see mentat audit --help)");
        return TOOL_EXIT_USAGE;
    }
    if (is_sign && (is_all || !g.is_json)) {
        tool_err(&g, "--sign signs one room's JSON report: give ROOM and --json");
        return TOOL_EXIT_USAGE;
    }
    if (seat_s != NULL && is_public) {
        tool_err(&g, "give --seat or --public, not both");
        return TOOL_EXIT_USAGE;
    }
    inspect_audit_options opt;
    inspect_audit_options_init(&opt);
    opt.keys_dir = g.keys_dir;
    /* What every command shows a viewer, compared as it prints it. */
    inspect_audit_observer obs = inspect_audit_genuine;
    obs.outputs = tool_audit_outputs(&obs.n_outputs);
    opt.observer = &obs;
    uint32_t v;
    if (trials_s != NULL) {
        if (tool_parse_uint(&v, trials_s, 1, 1000000) != 0) {
            tool_err(&g, "--trials must be a number 1..1000000, not '%s'", trials_s);
            return TOOL_EXIT_USAGE;
        }
        opt.trials = v;
    }
    if (steps_s != NULL) {
        if (tool_parse_uint(&v, steps_s, 1, UINT32_MAX) != 0) {
            tool_err(&g, "--steps must be a number 1 or more, not '%s'", steps_s);
            return TOOL_EXIT_USAGE;
        }
        opt.max_steps = v;
    }
    if (facts_s != NULL && parse_facts(&opt.facts, facts_s) != 0) {
        tool_err(&g, "--fact takes names from card_faces, traitors, spice_deck, prediction, "
                 "battle_plan, storm_dial, nexus_cards, not '%s'", facts_s);
        return TOOL_EXIT_USAGE;
    }
    if (sample_s != NULL && tool_parse_u64(&opt.sample_seed, sample_s) != 0) {
        tool_err(&g, "--sample-seed must be a number, not '%s'", sample_s);
        return TOOL_EXIT_USAGE;
    }

    ledger *db;
    int ex = tool_ledger_open(&db, &g, 1);
    if (ex != TOOL_EXIT_OK)
        return ex;
    char (*codes)[SCHEMA_ROOM_CHARS + 1] = NULL;
    size_t n_codes = 0;
    inspect_audit_report *rep = NULL;
    int krc = is_sign ? ledger_audit_report_can_sign(db) : 0;
    if (krc != 0) { /* before any output: a report that cannot be signed is not begun */
        ex = tool_ledger_fail(&g, db, krc);
        goto out;
    }
    rep = malloc(sizeof *rep);
    if (rep == NULL) {
        tool_err(&g, "out of memory");
        ex = TOOL_EXIT_USAGE;
        goto out;
    }
    if (is_all) {
        int rc = tool_room_codes(&codes, &n_codes, db);
        if (rc != 0) {
            ex = tool_ledger_fail(&g, db, rc);
            goto out;
        }
    } else {
        ledger_room_info info;
        ex = tool_room_get(&info, db, &g, pos[0]);
        if (ex != TOOL_EXIT_OK)
            goto out;
        codes = malloc(sizeof codes[0]);
        if (codes == NULL) {
            tool_err(&g, "out of memory");
            ex = TOOL_EXIT_USAGE;
            goto out;
        }
        memcpy(codes[0], info.room, sizeof codes[0]);
        n_codes = 1;
    }

    progress_ctx pc = {0, n_codes, ""};
    if (is_all && isatty(STDERR_FILENO)) {
        opt.progress = on_progress;
        opt.progress_ctx = &pc;
    }
    tool_json j, *jp = NULL;
    if (g.is_json) {
        tool_json_init(&j, stdout);
        tool_json_object_begin(&j);
        tool_json_key(&j, "leaks");
        tool_json_array_begin(&j);
        jp = &j;
    }
    audit_totals t;
    memset(&t, 0, sizeof t);
    for (size_t i = 0; i < n_codes; i++) {
        pc.room = i + 1;
        pc.code = codes[i];
        audit_one(&g, db, jp, codes[i], &opt, seat_s, is_public, &t, rep);
    }
    if (g.is_json) {
        tool_json_array_end(&j);
        tool_json_member_uint(&j, "rooms", t.n_rooms);
        tool_json_member_uint(&j, "rooms_not_audited", t.n_failed);
        tool_json_member_uint(&j, "trials", t.n_trials);
        tool_json_member_uint(&j, "steps", t.n_steps);
        tool_json_member_uint(&j, "comparisons", t.n_comparisons);
        tool_json_member_uint(&j, "learned", t.n_learned);
        tool_json_member_uint(&j, "diverged", t.n_diverged);
        tool_json_member_uint(&j, "marks_events", t.n_marks_events);
        tool_json_member_uint(&j, "marks_forgotten", t.n_marks_forgotten);
        tool_json_member_uint(&j, "n_leaks", t.n_leaks);
        coverage_json(&j, &t);
        if (is_sign && t.n_rooms == 1 &&
            (ex = sign_report(&g, db, &j, rep, &opt, t.viewer)) != TOOL_EXIT_OK) {
            tool_json_object_end(&j);
            tool_json_finish(&j);
            goto out;
        }
        tool_json_member_bool(&j, "ok", t.n_leaks == 0 && t.n_failed == 0);
        tool_json_object_end(&j);
        tool_json_finish(&j);
    } else {
        if (is_all && t.n_rooms == 0 && t.n_failed == 0)
            printf("no rooms in %s\n", g.db_path);
        else if (is_all)
            printf("%zu rooms audited, %llu pairs, %llu comparisons: %llu leaks%s\n", t.n_rooms,
                   (unsigned long long)t.n_trials, (unsigned long long)t.n_comparisons,
                   (unsigned long long)t.n_leaks, t.n_failed ? " (some rooms not audited)" : "");
        if (t.n_rooms > 0)
            coverage_print(&t);
    }
    if (t.n_leaks != 0)
        ex = TOOL_EXIT_CHECK;
    else if (t.exit_failure != 0)
        ex = t.exit_failure;
out:
    free(rep);
    free(codes);
    ledger_close(db);
    return ex;
}
