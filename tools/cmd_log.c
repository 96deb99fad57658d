/*
 * cmd_log.c - `mentat log`: the events of a room, one line each (or one
 * JSON array): version, acting seat, action, commit time, event hash; or,
 * with --seat, --public or --auditor, each event as that viewer was told
 * it, in sentences; with --rejections, the refused actions instead.
 *
 * Layer: tools. Events come verified from ledger_event_foreach. An event's
 * own hash is not stored in it: it is the prev_hash of the next event, or
 * the head hash for the last one, so the walk reads one event past --to.
 * The sentences are inspect_log_walk's, computed from the viewer's views
 * and the action fields the viewer may see (inspect/log.c).
 */
#include <string.h>

#include <sodium.h>

#include "inspect/inspect.h"
#include "tools/internal.h"

static const char help[] =
    "usage: mentat log ROOM [--from V] [--to V] [--seat S | --public | --auditor]\n"
    "       mentat log ROOM --rejections [--from V] [--to V]\n"
    "\n"
    "Prints the events of ROOM from version --from (default 1) to --to (default\n"
    "the head), one line each: version, acting seat and faction, the action as\n"
    "JSON, when it was committed (UTC) and the first 8 bytes of its event hash.\n"
    "With --json, an array of objects that also carry the full event hash, the\n"
    "state digest, the key id and the signature. (`mentat verify` checks the\n"
    "signatures and the hash chain; log only reads.) Without the audit key\n"
    "(and before `mentat reveal`) it is the public view: an action with secret\n"
    "arguments shows only its kind, as {\"kind\":K,\"sealed\":true} (and\n"
    "\"sealed\": true in --json), and a line on stderr says so.\n"
    "\n"
    "  --seat S    each event as seat S (1..N or a faction of the room) was told\n"
    "              it, in sentences: what was done, then what followed (the\n"
    "              storm, spice blows, worms, cards bought and drawn, plans\n"
    "              revealed, battles won, losses, spice, phases, the victory).\n"
    "              Secret arguments of others (storm dials, battle plans,\n"
    "              traitor picks, the prediction) are not told; cards are named\n"
    "              only when the seat has seen them.\n"
    "  --public    each event as a spectator was told it\n"
    "  --auditor   each event in sentences with every hidden fact\n"
    "  With one of these, --json prints an array of {version, seat, faction,\n"
    "  action (hidden arguments null), text}; the sentences need the audit key.\n"
    "\n"
    "  --rejections  the actions the ledger refused instead, in the order they\n"
    "              came (numbered from 0): the version acted on, the seat, the\n"
    "              action in full, when, and why, the field at fault named as in\n"
    "              the action's JSON (\"no_path (to = funeral_plain sector 14)\").\n"
    "              --from/--to select by the version acted on (default all).\n"
    "              --json: [{n, version, seat, faction, action, reason, arg,\n"
    "              value, detail, at}].\n"
    "\n"
    "Examples:\n"
    "  mentat log K7QX2M9P\n"
    "  mentat log K7QX2M9P --from 10 --to 20\n"
    "  mentat log K7QX2M9P --seat harkonnen --from 10 --to 20\n"
    "  mentat log K7QX2M9P --json | jq '.[] | select(.faction == \"fremen\")'\n"
    "  mentat log K7QX2M9P --rejections\n";

typedef struct log_ctx {
    const tool_globals *g;
    tool_json *j;                  /* NULL = text */
    const engine_config *cfg;
    uint32_t to;                   /* the last version printed */
    int is_public;                 /* 1 = no audit key: secret arguments shown sealed */
    int has_pending;               /* 1 = `pending` awaits its hash */
    codec_event pending;
    int rc;                        /* first failure while printing */
} log_ctx;

/* An action whose secret arguments the reader may not see: its kind and
 * "sealed", nothing of its arguments. */
static void sealed_action_json(char *out, size_t cap, unsigned kind)
{
    const engine_action_spec *spec = engine_action_spec_of(kind);
    snprintf(out, cap, "{\"kind\":\"%s\",\"sealed\":true}",
             spec != NULL ? spec->name : "unknown");
}

static int print_event(log_ctx *lc, const codec_event *ev, const uint8_t *hash)
{
    char action[1024];
    int is_sealed = lc->is_public && engine_action_secret_args(&ev->action) != 0;
    if (is_sealed)
        sealed_action_json(action, sizeof action, ev->action.kind);
    else if (codec_action_to_json(action, sizeof action, &ev->action) != 0) {
        tool_err(lc->g, "version %u: the action cannot be written as JSON", ev->version);
        return LEDGER_ERROR;
    }
    char when[TOOL_ISO_TIME_CHARS];
    tool_iso_time(when, ev->committed_at);
    char hex[2 * SCHEMA_SIG_BYTES + 1];
    const char *faction = tool_seat_faction(lc->cfg, ev->seat);
    if (lc->j == NULL) {
        char who[32];
        if (ev->seat == ENGINE_SEAT_ENGINE)
            snprintf(who, sizeof who, "engine");
        else
            snprintf(who, sizeof who, "seat %u %s", ev->seat + 1u, faction);
        if (hash != NULL)
            tool_hex(hex, hash, 8);
        else
            snprintf(hex, sizeof hex, "?");
        printf("%6u  %-22s  %s  %s  %s\n", ev->version, who, action, when, hex);
        return 0;
    }
    tool_json *j = lc->j;
    tool_json_object_begin(j);
    tool_json_member_uint(j, "version", ev->version);
    tool_json_key(j, "seat");
    if (ev->seat == ENGINE_SEAT_ENGINE)
        tool_json_null(j);
    else
        tool_json_uint(j, ev->seat + 1u);
    tool_json_member_string(j, "faction", faction);
    tool_json_key(j, "action");
    tool_json_raw(j, action);
    tool_json_member_bool(j, "sealed", is_sealed);
    tool_json_member_string(j, "committed_at", when);
    tool_json_key(j, "event_hash");
    if (hash != NULL)
        tool_json_hex(j, hash, SCHEMA_HASH_BYTES);
    else
        tool_json_null(j);
    tool_json_key(j, "state_digest");
    tool_json_hex(j, ev->state_digest, SCHEMA_HASH_BYTES);
    /* Format 2 events carry no signature of their own: the head's signed
     * tree head covers them. */
    tool_json_key(j, "key_id");
    if (ev->has_signature)
        tool_json_uint(j, ev->key_id);
    else
        tool_json_null(j);
    tool_json_key(j, "signature");
    if (ev->has_signature)
        tool_json_hex(j, ev->signature, SCHEMA_SIG_BYTES);
    else
        tool_json_null(j);
    tool_json_object_end(j);
    return 0;
}

static int on_event(void *ctx, const codec_event *ev)
{
    log_ctx *lc = ctx;
    if (lc->has_pending) {
        int rc = print_event(lc, &lc->pending, ev->has_prev_hash ? ev->prev_hash : NULL);
        if (rc != 0) {
            lc->rc = rc;
            return rc;
        }
    }
    lc->has_pending = ev->version <= lc->to;
    if (lc->has_pending)
        lc->pending = *ev;
    return 0;
}

/* ============================================================ rejections */

typedef struct rejections_ctx {
    tool_json *j;                  /* NULL = text */
    const engine_config *cfg;
    uint32_t from, to;             /* versions acted on to list */
    size_t n_listed;
} rejections_ctx;

static int print_rejection(void *ctx, uint32_t n, const codec_rejection *r)
{
    rejections_ctx *rc = ctx;
    if (r->expected_version < rc->from || r->expected_version > rc->to)
        return 0;
    rc->n_listed++;
    char action[1024];
    if (r->sealed_len != 0) /* its secret arguments, sealed to an audit key not held here */
        sealed_action_json(action, sizeof action, r->action.kind);
    else if (codec_action_to_json(action, sizeof action, &r->action) != 0)
        snprintf(action, sizeof action, "null");
    char when[TOOL_ISO_TIME_CHARS];
    tool_iso_time(when, r->at);
    char text[160];
    inspect_rejection_text(text, sizeof text, r->reason, r->action.kind, r->detail_arg,
                           r->detail_value);
    if (r->sealed_len != 0) {
        const char *name = engine_verdict_name(r->reason);
        snprintf(text, sizeof text, "%s (its secret arguments are sealed: no audit key)",
                 name != NULL ? name : "unknown_reason");
    }
    const char *faction = tool_seat_faction(rc->cfg, r->seat);
    if (rc->j == NULL) {
        char who[32];
        snprintf(who, sizeof who, "seat %u %s", r->seat + 1u, faction);
        printf("%4u  at %-6u  %-22s  %s  %s  refused: %s\n", n, r->expected_version, who,
               action, when, text);
        return 0;
    }
    tool_json *j = rc->j;
    const char *reason = engine_verdict_name(r->reason);
    const char *arg = inspect_rejection_arg(r->action.kind, r->detail_arg);
    tool_json_object_begin(j);
    tool_json_member_uint(j, "n", n);
    tool_json_member_uint(j, "version", r->expected_version);
    tool_json_member_uint(j, "seat", r->seat + 1u);
    tool_json_member_string(j, "faction", faction);
    tool_json_key(j, "action");
    tool_json_raw(j, action);
    tool_json_member_string(j, "reason", reason != NULL ? reason : "unknown_reason");
    tool_json_key(j, "arg");
    if (arg != NULL)
        tool_json_string(j, arg);
    else
        tool_json_null(j);
    tool_json_member_int(j, "value", r->detail_value);
    tool_json_member_string(j, "detail", text);
    tool_json_key(j, "sealed");
    tool_json_bool(j, r->sealed_len != 0);
    tool_json_member_string(j, "at", when);
    tool_json_object_end(j);
    return 0;
}

/* --rejections: every refused action acted on a version in from..to. */
static int list_rejections(const tool_globals *g, ledger *db, const ledger_room_info *info,
                           uint32_t from, uint32_t to)
{
    tool_json j;
    rejections_ctx rc = {NULL, &info->config, from, to, 0};
    if (g->is_json) {
        tool_json_init(&j, stdout);
        tool_json_array_begin(&j);
        rc.j = &j;
    }
    int ex = TOOL_EXIT_OK;
    int r = ledger_rejection_foreach(db, info->room, print_rejection, &rc);
    if (r != 0)
        ex = tool_ledger_fail(g, db, r);
    if (g->is_json) {
        tool_json_array_end(&j);
        tool_json_finish(&j);
    } else if (r == 0 && rc.n_listed == 0) {
        printf("room %s has no refused actions%s\n", info->room,
               from != 0 || to != info->version ? " in that range" : "");
    }
    return ex;
}

void tool_log_line_print(FILE *f, const engine_config *cfg, const inspect_log_line *line)
{
    const char *who = line->seat == ENGINE_SEAT_ENGINE
                          ? "engine" : tool_seat_faction(cfg, line->seat);
    fprintf(f, "%6u  %-14s  %s\n", line->version, who, line->text);
}


/* ================================================================ told */

typedef struct told_ctx {
    tool_json *j;                  /* NULL = text */
    const engine_config *cfg;
} told_ctx;

static int print_told(void *ctx, const inspect_log_line *line)
{
    told_ctx *tc = ctx;
    if (tc->j != NULL) {
        tool_log_line_json(tc->j, tc->cfg, line);
        return 0;
    }
    tool_log_line_print(stdout, tc->cfg, line);
    return 0;
}

int cmd_log(int argc, char **argv, const tool_globals *gin)
{
    tool_globals g = *gin;
    const char *from_s = NULL, *to_s = NULL, *seat_s = NULL;
    int is_public = 0, is_auditor = 0, is_rejections = 0;
    const tool_opt opts[] = {
        {"--rejections", NULL, NULL, &is_rejections},
        {"--from", "V", &from_s, NULL},
        {"--to", "V", &to_s, NULL},
        {"--seat", "S", &seat_s, NULL},
        {"--public", NULL, NULL, &is_public},
        {"--auditor", NULL, NULL, &is_auditor},
        {NULL, NULL, NULL, NULL},
    };
    const char *pos[1];
    size_t n_pos = 0;
    int r = tool_args_parse(&g, argc, argv, opts, pos, 1, &n_pos, help);
    if (r != TOOL_PARSED)
        return r == TOOL_HELP ? TOOL_EXIT_OK : TOOL_EXIT_USAGE;
    if (n_pos == 0) {
        tool_err(&g, "missing ROOM (see mentat log --help)");
        return TOOL_EXIT_USAGE;
    }
    if (is_rejections && (seat_s != NULL || is_public || is_auditor)) {
        tool_err(&g, "--rejections lists refused actions in full: not with --seat, --public "
                     "or --auditor");
        return TOOL_EXIT_USAGE;
    }
    /* Events start at 1; a refusal may have acted on the opening, 0. */
    uint32_t from = is_rejections ? 0 : 1, to = 0;
    if (from_s != NULL && tool_parse_uint(&from, from_s, is_rejections ? 0 : 1, UINT32_MAX) != 0) {
        tool_err(&g, "--from must be a version %s, not '%s'", is_rejections ? "" : "1 or more",
                 from_s);
        return TOOL_EXIT_USAGE;
    }
    if (to_s != NULL && tool_parse_uint(&to, to_s, 0, UINT32_MAX) != 0) {
        tool_err(&g, "--to must be a version, not '%s'", to_s);
        return TOOL_EXIT_USAGE;
    }

    ledger *db;
    ledger_room_info info;
    int ex = tool_open_room_at(&db, &info, NULL, &g, 1, pos[0], NULL);
    if (ex != TOOL_EXIT_OK)
        return ex;
    uint32_t head;
    uint8_t head_hash[SCHEMA_HASH_BYTES];
    int rc = ledger_head(db, info.room, &head, head_hash);
    if (rc != 0) {
        ex = tool_ledger_fail(&g, db, rc);
        goto out;
    }
    if (to_s == NULL)
        to = head;
    if (to > head) {
        tool_err(&g, "--to %u is past the head of %s (version %u)", to, info.room, head);
        ex = TOOL_EXIT_USAGE;
        goto out;
    }
    if (from > to && !(from_s == NULL && head == 0) && !is_rejections) {
        if (to_s == NULL)
            tool_err(&g, "--from %u is past the head of %s (version %u)", from, info.room,
                     head);
        else
            tool_err(&g, "--from %u is after --to %u", from, to);
        ex = TOOL_EXIT_USAGE;
        goto out;
    }

    if (is_rejections) {
        if (from > to) {
            tool_err(&g, "--from %u is after --to %u", from, to);
            ex = TOOL_EXIT_USAGE;
        } else {
            ex = list_rejections(&g, db, &info, from, to);
        }
        goto out;
    }

    if (seat_s != NULL || is_public || is_auditor) {
        uint8_t viewer;
        ex = tool_viewer_parse(&viewer, &g, &info.config, seat_s, is_public, is_auditor,
                               ENGINE_SEAT_ENGINE);
        if (ex != TOOL_EXIT_OK)
            goto out;
        tool_json tj;
        told_ctx tc = {NULL, &info.config};
        if (g.is_json) {
            tool_json_init(&tj, stdout);
            tool_json_array_begin(&tj);
            tc.j = &tj;
        }
        if (head != 0) {
            rc = inspect_log_walk(db, info.room, viewer, from, to, print_told, &tc);
            if (rc != 0)
                ex = tool_ledger_fail(&g, db, rc);
        } else if (!g.is_json) {
            printf("room %s has no events yet\n", info.room);
        }
        if (g.is_json) {
            tool_json_array_end(&tj);
            tool_json_finish(&tj);
        }
        goto out;
    }

    tool_json j;
    log_ctx lc;
    memset(&lc, 0, sizeof lc);
    lc.g = &g;
    lc.cfg = &info.config;
    lc.to = to;
    if (g.is_json) {
        tool_json_init(&j, stdout);
        tool_json_array_begin(&j);
        lc.j = &j;
    }
    /* Without the audit key (nor a reveal) the public view: every secret
     * argument sealed, and a line saying why. */
    uint8_t seed[ENGINE_SEED_BYTES];
    lc.is_public = ledger_room_seed(db, seed, info.room) == LEDGER_EKEY;
    sodium_memzero(seed, sizeof seed);
    if (lc.is_public)
        tool_err(&g, "public view: no audit key for room %s here, so secret arguments show "
                     "as sealed", info.room);
    if (head != 0) {
        /* One past --to, for the hash of event --to. */
        uint32_t last = to < head ? to + 1 : head;
        rc = ledger_event_foreach(db, info.room, from, last, on_event, &lc);
        if (rc == 0 && lc.has_pending)
            rc = print_event(&lc, &lc.pending,
                             lc.pending.version == head ? head_hash : NULL);
        /* A failure of our own printing was reported where it happened. */
        if (rc != 0)
            ex = lc.rc == 0 ? tool_ledger_fail(&g, db, rc) : tool_exit_for(rc);
    } else if (!g.is_json) {
        printf("room %s has no events yet\n", info.room);
    }
    if (g.is_json) {
        /* Closed even after a failure: the exit status tells, and the
         * events read before the failure stay readable. */
        tool_json_array_end(&j);
        tool_json_finish(&j);
    }
out:
    ledger_close(db);
    return ex;
}
