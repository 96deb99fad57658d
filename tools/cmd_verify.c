/*
 * cmd_verify.c - `mentat verify`: checks one room or every room of the
 * ledger (genesis, dense versions, hash chain, signatures, and re-folded
 * state digests when the seed can be had) and names the first bad version.
 *
 * Layer: tools. The checking is ledger_verify_room's; this file walks the
 * rooms, shows progress on a terminal and turns the findings into output
 * and an exit status (1 when any room fails). It never writes.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tools/internal.h"

static const char help[] =
    "usage: mentat verify ROOM [--threads 1|2]\n"
    "       mentat verify --all [--threads 1|2]\n"
    "\n"
    "Checks a room from its genesis to its head: the genesis signature, that\n"
    "versions are dense, the hash chain, every signature against the key that\n"
    "made it, and (when the audit key or a revealed seed gives the seed) re-folds\n"
    "every action comparing each stored state digest. Prints ok, or the first\n"
    "bad version and why. Exit status 1 if any room fails.\n"
    "\n"
    "  --all        every room of the ledger (progress on stderr if a terminal)\n"
    "  --threads N  1 or 2 (default 1): 2 checks signatures alongside the fold\n"
    "\n"
    "Examples:\n"
    "  mentat verify ab12cd34\n"
    "  mentat verify --all --threads 2\n"
    "  mentat verify --all --json | jq '.rooms[] | select(.ok | not)'\n";

typedef struct verify_totals {
    size_t n_rooms, n_bad;
} verify_totals;

/* Verifies one room and prints its line or JSON object: 0 on a verdict
 * (good or bad), else the exit status of an operational failure. */
static int verify_one(const tool_globals *g, ledger *db, tool_json *j, const char *room,
                      unsigned threads, int is_progress, verify_totals *t)
{
    ledger_verify_report rep;
    memset(&rep, 0, sizeof rep);
    int rc = ledger_verify_room(db, &rep, room, threads);
    if (rc != 0 && rc != LEDGER_ECORRUPT && rc != LEDGER_EBADSIG)
        return tool_ledger_fail(g, db, rc);
    rep.reason[sizeof rep.reason - 1] = '\0';
    if (is_progress) {
        /* Clear the progress line before a result that may share the terminal. */
        fprintf(stderr, "\r%40s\r", "");
        fflush(stderr);
    }
    t->n_rooms++;
    t->n_bad += rc != 0;
    if (j != NULL) {
        tool_json_object_begin(j);
        tool_json_key(j, "room");
        tool_json_string(j, room);
        tool_json_key(j, "ok");
        tool_json_bool(j, rc == 0);
        tool_json_key(j, "n_events");
        tool_json_uint(j, rep.n_events);
        tool_json_key(j, "refolded");
        tool_json_bool(j, rep.is_refolded);
        if (rc != 0) {
            tool_json_key(j, "bad_version");
            tool_json_uint(j, rep.bad_version);
            tool_json_key(j, "reason");
            tool_json_string(j, rep.reason);
        }
        tool_json_object_end(j);
    } else if (rc == 0) {
        printf("%s  ok  %u events, %s\n", room, rep.n_events,
               rep.is_refolded ? "signatures, chain and re-folded digests"
                               : "signatures and chain (digests not re-folded: no audit key)");
    } else if (rep.bad_version == 0) {
        printf("%s  BAD at the genesis: %s\n", room, rep.reason);
    } else {
        printf("%s  BAD at version %u: %s\n", room, rep.bad_version, rep.reason);
    }
    return 0;
}

int cmd_verify(int argc, char **argv, const tool_globals *gin)
{
    tool_globals g = *gin;
    const char *threads_s = NULL;
    int is_all = 0;
    const tool_opt opts[] = {
        {"--all", NULL, NULL, &is_all},
        {"--threads", "N", &threads_s, NULL},
        {NULL, NULL, NULL, NULL},
    };
    const char *pos[1];
    size_t n_pos = 0;
    int r = tool_args_parse(&g, argc, argv, opts, pos, 1, &n_pos, help);
    if (r != TOOL_PARSED)
        return r == TOOL_HELP ? TOOL_EXIT_OK : TOOL_EXIT_USAGE;
    if ((n_pos == 1) == (is_all != 0)) {
        tool_err(&g, "give either ROOM or --all (see mentat verify --help)");
        return TOOL_EXIT_USAGE;
    }
    uint32_t threads = 1;
    if (threads_s != NULL && tool_parse_uint(&threads, threads_s, 1, 2) != 0) {
        tool_err(&g, "--threads must be 1 or 2, not '%s'", threads_s);
        return TOOL_EXIT_USAGE;
    }

    ledger *db;
    int ex = tool_ledger_open(&db, &g, 1);
    if (ex != TOOL_EXIT_OK)
        return ex;
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
        ex = verify_one(&g, db, jp, codes[i], threads, is_progress, &t);
    }
    if (g.is_json) {
        tool_json_array_end(&j);
        tool_json_key(&j, "ok");
        tool_json_bool(&j, ex == TOOL_EXIT_OK && t.n_bad == 0);
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
    ledger_close(db);
    return ex;
}
