/*
 * cmd_verify.c - `mentat verify`: checks one room or every room of the
 * ledger (genesis, dense versions, hash chain, signatures, re-folded state
 * digests and engine invariants when the seed can be had, and the receipts
 * given on the command line or in a file) and names the first bad version.
 *
 * Layer: tools. The checking is inspect_room_verify's (ledger_verify_room,
 * then the receipts); this file reads the receipts, walks the rooms, shows
 * progress on a terminal and turns the findings into output and an exit
 * status (1 when any room fails). It never writes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "inspect/inspect.h"
#include "tools/internal.h"

static const char help[] =
    "usage: mentat verify ROOM [--threads 1|2] [--receipts FILE] [--receipt JSON]...\n"
    "       mentat verify --all [--threads 1|2] [--receipts FILE] [--receipt JSON]...\n"
    "       mentat verify --report FILE\n"
    "\n"
    "Checks a room from its genesis to its head: the genesis signature, that\n"
    "versions are dense, the hash chain, every signature against the key that\n"
    "made it, and (when the audit key or a revealed seed gives the seed) re-folds\n"
    "every action comparing each stored state digest, and the engine invariants\n"
    "at every checkpoint interval (64th version) and the last.\n"
    "Then every receipt given: it must be signed by a key the ledger knows and\n"
    "name an existing event whose hash it carries; a receipt with a signed tree\n"
    "head must be joined to the room's head by a consistency proof (RFC 9162);\n"
    "no version may be claimed by two receipts with different event hashes or\n"
    "tree heads. A room truncated or rolled back below a receipt, rewritten\n"
    "after one, or forked (a receipt the ledger contradicts while a later one\n"
    "matches) is named, with the versions where the histories part: after the\n"
    "last receipt the ledger matches, at most the first it does not.\n"
    "The head record is a signed tree head (the receipt of the head version):\n"
    "its root must be the tree of the stored events, so a room whose last\n"
    "events were deleted fails without any receipt, unless the whole file was\n"
    "put back as it was (receipts catch that). A head an older build wrote is\n"
    "unsigned, and said so.\n"
    "In a Nexus Cards room re-folded, every Nexus draw opportunity must open\n"
    "once and close once with one answer from each unallied seat it asks, and\n"
    "every window frame opened must close exactly once (one still open at the\n"
    "head is the game waiting); a violation is named with its version.\n"
    "Prints ok, or the first bad version (the lowest, the ledger's or a\n"
    "receipt's) and why. Exit status 1 if any room fails, and with one ROOM\n"
    "if a --receipt names another room (it was not checked); receipts of\n"
    "other rooms in a --receipts file are counted on stderr and left alone.\n"
    "\n"
    "  --all            every room of the ledger (progress on stderr if a terminal);\n"
    "                   a receipt naming a room the ledger lacks fails too\n"
    "  --threads N      1 or 2 (default 1): 2 checks signatures alongside the fold\n"
    "  --receipts FILE  receipts, one JSON object a line as `mentat act --json`\n"
    "                   prints them (- for standard input; blank lines and lines\n"
    "                   starting with # are skipped). At most 16 MiB and 4096\n"
    "                   bytes a line, no NUL byte, every other line a receipt:\n"
    "                   else nothing is verified and the line at fault is named\n"
    "  --receipt JSON   one receipt on the command line; may be repeated\n"
    "\n"
    "Every event of a seat the room binds to a key must carry that seat's\n"
    "signature of its action (`mentat act --seat-key`), and it is checked; an\n"
    "event of an unbound seat or of the engine must carry none.\n"
    "\n"
    "--report FILE checks a signed audit report (`mentat audit ROOM --json\n"
    "--sign`, or its \"signed_report\" alone) against the room here: signed by a\n"
    "key of this ledger's chain, naming the room's own chain hash, tree root\n"
    "and time at the version it audited. Exit 1 if it does not hold.\n"
    "\n"
    "An event whose secret arguments are sealed with the room key (format 3)\n"
    "is checked in the chain and the tree by anyone; its seat signature, over\n"
    "the real action, only by a reader holding the room key (the audit key, or\n"
    "after `mentat reveal`): without it they are counted as not opened.\n"
    "\n"

    "--json prints {\"rooms\":[{\"room\",\"ok\",\"n_events\",\"n_seat_signatures\",\n"
    "\"n_sealed_unopened\",\"refolded\",\"head_signed\",\"public_views\",\n"
    "\"n_receipts\",\"bad_version\",\"reason\",\"receipt\",\"differs_from\",\"differs_to\"}],\n"
    "\"ok\"}; bad_version, reason and receipt only for a room that fails (\"receipt\"\n"
    "true: a receipt's check failed), differs_from and differs_to when a\n"
    "receipt's history parts from the ledger's in that range.\n"
    "\n"
    "Examples:\n"
    "  mentat verify K7QX2M9P\n"
    "  mentat verify --all --threads 2\n"
    "  mentat verify K7QX2M9P --receipts harkonnen-receipts.jsonl\n"
    "  mentat verify --all --json | jq '.rooms[] | select(.ok | not)'\n"
    "  mentat verify --report K7QX2M9P.audit.json\n";


/* Receipts read from --receipts and --receipt, in the order given. */
typedef struct receipt_list {
    codec_receipt *r;              /* owned */
    size_t n;                      /* receipts read */
    size_t cap;                    /* allocated */
} receipt_list;

static int receipt_push(receipt_list *l, const tool_globals *g, const codec_receipt *r)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 16;
        codec_receipt *p = realloc(l->r, cap * sizeof *p);
        if (p == NULL) {
            tool_err(g, "out of memory");
            return TOOL_EXIT_USAGE;
        }
        l->r = p;
        l->cap = cap;
    }
    l->r[l->n++] = *r;
    return TOOL_EXIT_OK;
}

static int receipt_add(receipt_list *l, const tool_globals *g, const char *json, size_t len,
                       const char *where)
{
    char err[SCHEMA_ERRMSG];
    codec_receipt r;
    if (inspect_receipt_parse(&r, json, len, err) != 0) {
        tool_err(g, "%s: %s", where, err);
        return TOOL_EXIT_USAGE;
    }
    return receipt_push(l, g, &r);
}

/* Reads the receipts file at path ("-": stdin), at most
 * INSPECT_RECEIPTS_FILE_MAX bytes (a bigger file, or /dev/zero, is refused
 * once that much is read), and parses it strictly. */
static int receipts_read(receipt_list *l, const tool_globals *g, const char *path)
{
    int is_stdin = strcmp(path, "-") == 0;
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    if (f == NULL) {
        tool_err(g, "cannot read %s: %s", path, strerror(errno));
        return TOOL_EXIT_USAGE;
    }
    size_t cap = INSPECT_RECEIPTS_FILE_MAX + 1, len = 0;
    char *text = malloc(cap);
    int ex = TOOL_EXIT_OK;
    if (text == NULL) {
        tool_err(g, "out of memory");
        ex = TOOL_EXIT_USAGE;
        goto out;
    }
    size_t got;
    while (len < cap && (got = fread(text + len, 1, cap - len, f)) > 0)
        len += got;
    if (ferror(f)) {
        tool_err(g, "cannot read %s: %s", path, strerror(errno));
        ex = TOOL_EXIT_USAGE;
        goto out;
    }
    codec_receipt *r = NULL;
    size_t n = 0;
    char err[SCHEMA_ERRMSG];
    if (inspect_receipts_parse(&r, &n, text, len, err) != 0) {
        tool_err(g, "%s: %s", path, err);
        ex = TOOL_EXIT_USAGE;
        goto out;
    }
    for (size_t i = 0; i < n && ex == TOOL_EXIT_OK; i++)
        ex = receipt_push(l, g, &r[i]);
    free(r);
out:
    free(text);
    if (!is_stdin)
        fclose(f);
    return ex;
}

/* Why the digests were not re-folded: no audit key in the key directory,
 * or one that is not this room's (the room's seed is sealed to another). */
static const char *no_refold_why(const tool_globals *g)
{
    char path[4200];
    /* the audit key file of a key directory (docs/FORMAT.md) */
    snprintf(path, sizeof path, "%s/audit.key", g->keys_dir);
    return access(path, F_OK) == 0
               ? "digests not re-folded: the audit key here is not this room's"
               : "digests not re-folded: no audit key";
}

/* A fork's link to its origin is checked only when the origin is in this
 * ledger: 1 if room is a fork whose origin is not. */
static int is_fork_unlinked(ledger *db, const char *room, char origin[SCHEMA_ROOM_CHARS + 1],
                            uint32_t *at)
{
    ledger_room_info info, o;
    if (ledger_room_info_get(db, &info, room) != 0 || !info.is_fork)
        return 0;
    memcpy(origin, info.fork_room, SCHEMA_ROOM_CHARS + 1);
    *at = info.fork_version;
    return ledger_room_info_get(db, &o, info.fork_room) == LEDGER_ENOTFOUND;
}

typedef struct verify_totals {
    size_t n_rooms, n_bad;
} verify_totals;

/* Verifies one room with the receipts and prints its line or JSON object:
 * 0 on a verdict (good or bad), else the exit status of an operational
 * failure. */
static int verify_one(const tool_globals *g, ledger *db, tool_json *j, const char *room,
                      unsigned threads, const receipt_list *receipts, int is_progress,
                      verify_totals *t)
{
    inspect_verify_report rep;
    int rc = inspect_room_verify(&rep, db, room, receipts->r, receipts->n, threads);
    if (rc != 0)
        return tool_ledger_fail(g, db, rc);
    if (is_progress) {
        /* Clear the progress line before a result that may share the terminal. */
        fprintf(stderr, "\r%40s\r", "");
        fflush(stderr);
    }
    t->n_rooms++;
    t->n_bad += !rep.is_ok;
    char origin[SCHEMA_ROOM_CHARS + 1] = "";
    uint32_t fork_at = 0;
    int is_unlinked = rep.is_ok && is_fork_unlinked(db, room, origin, &fork_at);
    if (j != NULL) {
        tool_json_object_begin(j);
        tool_json_member_string(j, "room", room);
        tool_json_member_bool(j, "ok", rep.is_ok);
        tool_json_member_uint(j, "n_events", rep.n_events);
        tool_json_member_uint(j, "n_seat_signatures", rep.n_seat_signatures);
        tool_json_member_uint(j, "n_sealed_unopened", rep.n_sealed_unopened);
        tool_json_member_bool(j, "refolded", rep.is_refolded);
        tool_json_member_bool(j, "head_signed", rep.is_head_signed);
        tool_json_member_bool(j, "public_views", rep.has_public_views);
        tool_json_member_uint(j, "n_receipts", rep.n_receipts);
        if (is_unlinked)
            tool_json_member_bool(j, "fork_origin_checked", 0);
        if (rep.is_nexus_checked) {
            tool_json_key(j, "nexus");
            tool_json_object_begin(j);
            tool_json_member_uint(j, "n_opportunities", rep.n_nexus_opportunities);
            tool_json_member_uint(j, "n_answers", rep.n_nexus_answers);
            tool_json_member_uint(j, "n_windows", rep.n_windows);
            tool_json_member_uint(j, "n_nexus_windows", rep.n_nexus_windows);
            tool_json_object_end(j);
        }
        if (!rep.is_ok) {
            tool_json_member_uint(j, "bad_version", rep.bad_version);
            tool_json_member_string(j, "reason", rep.reason);
            tool_json_member_bool(j, "receipt", rep.is_receipt_failure);
            if (rep.differs_from != 0) {
                tool_json_member_uint(j, "differs_from", rep.differs_from);
                tool_json_member_uint(j, "differs_to", rep.differs_to);
            }
        }
        tool_json_object_end(j);
    } else if (rep.is_ok) {
        printf("%s  ok  %u events, %s", room, rep.n_events,
               rep.is_refolded ? "signatures, chain and re-folded digests" : "signatures and chain");
        if (!rep.is_refolded)
            printf(" (%s)", no_refold_why(g));
        printf(", %s", rep.is_head_signed ? "signed head"
                                          : "head unsigned (written by an older build, or restored "
                                            "by a ledger without a signing key: only receipts "
                                            "show a truncation)");
        if (rep.n_seat_signatures != 0)
            printf("; %u seat signature%s", rep.n_seat_signatures,
                   rep.n_seat_signatures == 1 ? "" : "s");
        if (rep.n_sealed_unopened != 0)
            printf("; %u sealed action%s not opened (no room key: %s seat signature%s "
                   "unchecked)", rep.n_sealed_unopened, rep.n_sealed_unopened == 1 ? "" : "s",
                   rep.n_sealed_unopened == 1 ? "its" : "their",
                   rep.n_sealed_unopened == 1 ? "" : "s");
        if (rep.n_receipts != 0)
            printf("; %u receipt%s", rep.n_receipts, rep.n_receipts == 1 ? "" : "s");
        if (rep.is_nexus_checked)
            printf("; %u Nexus draw opportunit%s (%u answers) and %u windows (%u Nexus "
                   "windows), each opened and closed once", rep.n_nexus_opportunities,
                   rep.n_nexus_opportunities == 1 ? "y" : "ies", rep.n_nexus_answers,
                   rep.n_windows, rep.n_nexus_windows);
        if (is_unlinked)
            printf("; a fork of %s at %u, which this ledger does not hold: its link to the "
                   "origin was not checked", origin, fork_at);
        printf("; %s", !rep.has_public_views ? "no public views (an older build's room)"
                       : rep.is_refolded ? "public views re-derived"
                                         : "public views stored for every version");
        fputc('\n', stdout);
    } else if (rep.bad_version == 0) {
        printf("%s  BAD at the genesis: %s\n", room, rep.reason);
    } else {
        printf("%s  BAD at version %u: %s\n", room, rep.bad_version, rep.reason);
    }
    return 0;
}

/* Receipts naming a room not in codes[0..n): with --all each such room
 * fails (the ledger lacks a room a seat holds a receipt for); with one
 * ROOM they are only counted. */
static size_t foreign_receipts(const receipt_list *l, size_t from, size_t to,
                               char (*codes)[SCHEMA_ROOM_CHARS + 1], size_t n, size_t *first_out)
{
    size_t count = 0;
    for (size_t i = from; i < to; i++) {
        int found = 0;
        for (size_t k = 0; k < n && !found; k++)
            found = strncmp(l->r[i].room, codes[k], SCHEMA_ROOM_CHARS) == 0;
        if (!found && count++ == 0)
            *first_out = i;
    }
    return count;
}

int cmd_verify(int argc, char **argv, const tool_globals *gin)
{
    tool_globals g = *gin;
    const char *threads_s = NULL, *receipts_s = NULL, *report_s = NULL;
    int is_all = 0;
    const tool_opt opts[] = {
        {"--all", NULL, NULL, &is_all},
        {"--threads", "N", &threads_s, NULL},
        {"--receipts", "FILE", &receipts_s, NULL},
        {"--report", "FILE", &report_s, NULL},
        {NULL, NULL, NULL, NULL},
    };
    /* --receipt may be repeated: taken out of argv before the parser,
     * which keeps one value per option. */
    receipt_list receipts = {NULL, 0, 0};
    char **args = malloc((size_t)(argc + 1) * sizeof *args);
    if (args == NULL) {
        tool_err(&g, "out of memory");
        return TOOL_EXIT_USAGE;
    }
    int n_args = 0, ex = TOOL_EXIT_OK;
    for (int i = 0; i < argc && ex == TOOL_EXIT_OK; i++) {
        const char *a = argv[i];
        if (i > 0 && strcmp(a, "--") == 0) {
            while (i < argc)
                args[n_args++] = argv[i++];
            break;
        }
        if (i > 0 && strncmp(a, "--receipt=", 10) == 0) {
            ex = receipt_add(&receipts, &g, a + 10, strlen(a + 10), "--receipt");
        } else if (i > 0 && strcmp(a, "--receipt") == 0) {
            if (i + 1 == argc) {
                tool_err(&g, "option --receipt needs a value");
                ex = TOOL_EXIT_USAGE;
            } else {
                i++;
                ex = receipt_add(&receipts, &g, argv[i], strlen(argv[i]), "--receipt");
            }
        } else {
            args[n_args++] = argv[i];
        }
    }
    args[n_args] = NULL;
    size_t n_given = receipts.n;   /* receipts[0..n_given) came from --receipt */
    const char *pos[1];
    size_t n_pos = 0;
    int r = ex == TOOL_EXIT_OK ? tool_args_parse(&g, n_args, args, opts, pos, 1, &n_pos, help)
                               : TOOL_BAD_USAGE;
    free(args);
    if (r != TOOL_PARSED) {
        free(receipts.r);
        return r == TOOL_HELP ? TOOL_EXIT_OK : TOOL_EXIT_USAGE;
    }
    if (report_s != NULL) {
        free(receipts.r);
        if (n_pos != 0 || is_all || receipts_s != NULL || receipts.n != 0) {
            tool_err(&g, "--report takes no room, --all or receipts: the report names its room");
            return TOOL_EXIT_USAGE;
        }
        return tool_verify_report(&g, report_s);
    }
    if (receipts_s != NULL && receipts_read(&receipts, &g, receipts_s) != TOOL_EXIT_OK) {
        free(receipts.r);
        return TOOL_EXIT_USAGE;
    }
    if ((n_pos == 1) == (is_all != 0)) {
        tool_err(&g, "give either ROOM or --all (see mentat verify --help)");
        free(receipts.r);
        return TOOL_EXIT_USAGE;
    }
    uint32_t threads = 1;
    if (threads_s != NULL && tool_parse_uint(&threads, threads_s, 1, 2) != 0) {
        tool_err(&g, "--threads must be 1 or 2, not '%s'", threads_s);
        free(receipts.r);
        return TOOL_EXIT_USAGE;
    }

    ledger *db;
    ex = tool_ledger_open(&db, &g, 1);
    if (ex != TOOL_EXIT_OK) {
        free(receipts.r);
        return ex;
    }
    char (*codes)[SCHEMA_ROOM_CHARS + 1] = NULL;
    size_t n_codes = 0;
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

    int is_progress = is_all && isatty(STDERR_FILENO);
    tool_json j, *jp = NULL;
    if (g.is_json) {
        tool_json_init(&j, stdout);
        tool_json_object_begin(&j);
        tool_json_key(&j, "rooms");
        tool_json_array_begin(&j);
        jp = &j;
    }
    verify_totals t = {0, 0};
    for (size_t i = 0; i < n_codes && ex == TOOL_EXIT_OK; i++) {
        if (is_progress) {
            fprintf(stderr, "\rverify: room %zu of %zu", i + 1, n_codes);
            fflush(stderr);
        }
        ex = verify_one(&g, db, jp, codes[i], threads, &receipts, is_progress, &t);
    }
    size_t first = 0, n_foreign = foreign_receipts(&receipts, 0, receipts.n, codes, n_codes,
                                                   &first);
    size_t first_given = 0,
           n_foreign_given = foreign_receipts(&receipts, 0, n_given, codes, n_codes, &first_given);
    if (ex == TOOL_EXIT_OK && n_foreign_given != 0 && receipts.r != NULL && !is_all) {
        /* A receipt given on the command line and not checked is no pass:
         * the room fails. */
        t.n_bad++;
        tool_err(&g, "%zu receipt%s given with --receipt name%s another room than %s (the "
                     "first: %.8s version %u) and %s not checked; give %s to verify of that "
                     "room, or use --all", n_foreign_given, n_foreign_given == 1 ? "" : "s",
                 n_foreign_given == 1 ? "s" : "", codes[0], receipts.r[first_given].room,
                 receipts.r[first_given].version, n_foreign_given == 1 ? "it was" : "they were",
                 n_foreign_given == 1 ? "it" : "them");
    } else if (ex == TOOL_EXIT_OK && n_foreign != 0 && !is_all) {
        /* a receipts file may hold a seat's receipts of many rooms */
        fprintf(stderr, "mentat verify: %zu receipt%s of the file name%s other rooms and %s "
                        "not checked (use --all)\n", n_foreign, n_foreign == 1 ? "" : "s",
                n_foreign == 1 ? "s" : "", n_foreign == 1 ? "was" : "were");
    } else if (ex == TOOL_EXIT_OK && n_foreign != 0 && receipts.r != NULL) {
        /* Each room the ledger lacks, once, at its first receipt. */
        for (size_t i = first; i < receipts.n; i++) {
            const codec_receipt *rc = &receipts.r[i];
            int known = 0, seen = 0;
            for (size_t k = 0; k < n_codes && !known; k++)
                known = strncmp(rc->room, codes[k], SCHEMA_ROOM_CHARS) == 0;
            for (size_t k = first; k < i && !seen && !known; k++)
                seen = strncmp(rc->room, receipts.r[k].room, SCHEMA_ROOM_CHARS) == 0;
            if (known || seen)
                continue;
            t.n_rooms++;
            t.n_bad++;
            if (jp != NULL) {
                tool_json_object_begin(jp);
                tool_json_member_string(jp, "room", rc->room);
                tool_json_member_bool(jp, "ok", 0);
                tool_json_member_uint(jp, "n_events", 0);
                tool_json_member_bool(jp, "refolded", 0);
                tool_json_member_uint(jp, "n_receipts", 1);
                tool_json_member_uint(jp, "bad_version", rc->version);
                tool_json_member_string(jp, "reason",
                                        "a receipt names this room, which the ledger does not hold");
                tool_json_member_bool(jp, "receipt", 1);
                tool_json_object_end(jp);
            } else {
                printf("%s  BAD at version %u: a receipt names this room, which the ledger "
                       "does not hold\n", rc->room, rc->version);
            }
        }
    }
    if (g.is_json) {
        tool_json_array_end(&j);
        tool_json_member_bool(&j, "ok", ex == TOOL_EXIT_OK && t.n_bad == 0);
        tool_json_object_end(&j);
        tool_json_finish(&j);
    } else if (is_all && ex == TOOL_EXIT_OK) {
        if (t.n_rooms == 0)
            printf("no rooms in %s\n", g.db_path);
        else if (t.n_bad == 0)
            printf("all %zu rooms ok\n", t.n_rooms);
        else
            printf("%zu of %zu rooms failed\n", t.n_bad, t.n_rooms);
    }
    if (ex == TOOL_EXIT_OK && t.n_bad != 0)
        ex = TOOL_EXIT_CHECK;
out:
    free(codes);
    free(receipts.r);
    ledger_close(db);
    return ex;
}
