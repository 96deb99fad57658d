/*
 * verify_report.c - `mentat verify --report FILE`: checks a signed audit
 * report (`mentat audit ROOM --json --sign`) against the room in this
 * ledger: its signature by a key of the ledger's chain, and that the head
 * and tree head it names are the room's own history at that version.
 *
 * Layer: tools. The reading is inspect_audit_report_parse's, the checking
 * ledger_audit_report_check's; this file prints the verdict. It never
 * writes. Exit 0 when the report holds, 1 when it does not, 2 when the
 * file is no report or the room is not here.
 */
#include <stdlib.h>
#include <string.h>

#include "inspect/inspect.h"
#include "tools/internal.h"

#define REPORT_FILE_MAX ((size_t)16 << 20)

static const char *viewer_text(char *buf, size_t cap, uint8_t viewer)
{
    if (viewer == ENGINE_VIEW_PUBLIC)
        return "the public";
    if (viewer == INSPECT_AUDIT_ALL_SEATS)
        return "every seat and the public";
    snprintf(buf, cap, "seat %u", viewer + 1u);
    return buf;
}

int tool_verify_report(const tool_globals *g, const char *path)
{
    char *text = NULL, err[SCHEMA_ERRMSG] = "";
    size_t len = 0;
    int rc = tool_slurp(&text, &len, path);
    if (rc != 0) {
        tool_err(g, "--report %s: %s", path, strerror(rc));
        return TOOL_EXIT_USAGE;
    }
    ledger_audit_report r;
    memset(&r, 0, sizeof r);
    if (len > REPORT_FILE_MAX)
        snprintf(err, sizeof err, "more than %zu bytes", REPORT_FILE_MAX);
    else if (inspect_audit_report_parse(&r, text, len, err) == 0)
        err[0] = '\0';
    free(text);
    if (err[0] != '\0') {
        tool_err(g, "--report %s: %s", path, err);
        return TOOL_EXIT_USAGE;
    }
    ledger *db;
    int ex = tool_ledger_open(&db, g, 1);
    if (ex != TOOL_EXIT_OK)
        return ex;
    ledger_room_info info;
    ex = tool_room_get(&info, db, g, r.room);
    if (ex != TOOL_EXIT_OK)
        goto out;
    rc = ledger_audit_report_check(db, &r);
    if (rc != 0 && rc != LEDGER_EBADSIG) {
        ex = tool_ledger_fail(g, db, rc);
        goto out;
    }
    char who[16];
    if (g->is_json) {
        tool_json j;
        tool_json_init(&j, stdout);
        tool_json_object_begin(&j);
        tool_json_member_string(&j, "room", r.room);
        tool_json_member_uint(&j, "version", r.version);
        tool_json_member_bool(&j, "ok", rc == 0);
        if (rc != 0)
            tool_json_member_string(&j, "reason", ledger_errmsg(db));
        tool_json_member_string(&j, "verdict", r.is_leaky ? "leaks" : "no_leak");
        tool_json_member_uint(&j, "key_id", r.key_id);
        tool_json_object_end(&j);
        tool_json_finish(&j);
    } else if (rc == 0) {
        printf("%s  report ok  version %u: %u pairs for %s, %llu comparisons, %s (seed %s), "
               "signed by key %08x\n", r.room, r.version, r.n_trials,
               viewer_text(who, sizeof who, r.viewer), (unsigned long long)r.n_comparisons,
               r.is_leaky ? "LEAKS found" : "no leak",
               r.seed_source == LEDGER_AUDIT_SEED_REVEALED ? "revealed" : "from the audit key",
               r.key_id);
    } else {
        printf("%s  report BAD: %s\n", r.room, ledger_errmsg(db));
    }
    ex = rc == 0 ? TOOL_EXIT_OK : TOOL_EXIT_CHECK;
out:
    return tool_ledger_close(g, db, ex);
}
