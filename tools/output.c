/*
 * output.c - what every subcommand shares besides parsing: error lines,
 * return codes turned into words and exit statuses, hex and time text,
 * and opening the ledger and a room named on the command line.
 *
 * Layer: tools. Errors go to stderr as one line "mentat <cmd>: <what>",
 * data to stdout. Nothing here decides a rule or reads ledger bytes.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "tools/internal.h"

/* ============================================================ errors */

void tool_err(const tool_globals *g, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "mentat %s: ", g->cmd != NULL ? g->cmd : "");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

const char *tool_strerror(int rc)
{
    switch (rc) {
    case LEDGER_OK: return "success";
    case LEDGER_ERROR: return "failed";
    case LEDGER_ENOTFOUND: return "not found";
    case LEDGER_ECONFLICT: return "the head is not at the expected version";
    case LEDGER_ECORRUPT: return "stored bytes are malformed";
    case LEDGER_EBADSIG: return "a signature, hash or digest does not match";
    case LEDGER_EFULL: return "the ledger is full";
    case LEDGER_EBADTXN: return "transaction failed earlier";
    case LEDGER_EEXISTS: return "already exists";
    case LEDGER_EKEY: return "key missing, unreadable or wrong";
    case LEDGER_EDIVERGED: return "the archive's history diverges from the room's";
    case LEDGER_EINPUT: return "bad input";
    case SCHEMA_ERROR: return "codec failure";
    case SCHEMA_EDECODE: return "not a valid message";
    case SCHEMA_ESPACE: return "buffer too small";
    default: break;
    }
    if (rc > 0)
        return strerror(rc);
    return "storage error";
}

int tool_exit_for(int rc)
{
    return rc == LEDGER_ECORRUPT || rc == LEDGER_EBADSIG ? TOOL_EXIT_CHECK : TOOL_EXIT_USAGE;
}

int tool_ledger_fail(const tool_globals *g, ledger *db, int rc)
{
    const char *msg = db != NULL ? ledger_errmsg(db) : NULL;
    if (msg != NULL && msg[0] != '\0')
        tool_err(g, "%s", msg);
    else
        tool_err(g, "%s (code %d)", tool_strerror(rc), rc);
    return tool_exit_for(rc);
}

/* ============================================================== text */

void tool_hex(char *out, const uint8_t *bytes, size_t n)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = digits[bytes[i] >> 4];
        out[2 * i + 1] = digits[bytes[i] & 15];
    }
    out[2 * n] = '\0';
}

void tool_iso_time(char out[TOOL_ISO_TIME_CHARS], uint64_t ms)
{
    time_t secs = (time_t)(ms / 1000);
    struct tm tm;
    if (gmtime_r(&secs, &tm) == NULL) {
        snprintf(out, TOOL_ISO_TIME_CHARS, "@%llu", (unsigned long long)ms);
        return;
    }
    size_t n = strftime(out, TOOL_ISO_TIME_CHARS - 6, "%Y-%m-%dT%H:%M:%S", &tm);
    if (n == 0) {
        snprintf(out, TOOL_ISO_TIME_CHARS, "@%llu", (unsigned long long)ms);
        return;
    }
    snprintf(out + n, TOOL_ISO_TIME_CHARS - n, ".%03uZ", (unsigned)(ms % 1000));
}

/* ======================================================= the ledger */

int tool_ledger_open(ledger **out, const tool_globals *g, int is_read_only)
{
    struct stat sb;
    *out = NULL;
    if (is_read_only && stat(g->db_path, &sb) != 0 && errno == ENOENT) {
        tool_err(g, "no ledger at %s (rooms are made with `mentat room create`; "
                    "--db names another ledger)", g->db_path);
        return TOOL_EXIT_USAGE;
    }
    ledger_options opt;
    ledger_options_init(&opt);
    opt.path = g->db_path;
    opt.keys_dir = g->keys_dir;
    opt.is_read_only = is_read_only;
    ledger *db = NULL;
    int rc = ledger_open(&db, &opt);
    if (rc != 0) {
        const char *msg = db != NULL ? ledger_errmsg(db) : NULL;
        if (msg != NULL && msg[0] != '\0')
            tool_err(g, "cannot open ledger %s%s: %s", g->db_path,
                     is_read_only ? "" : " for writing", msg);
        else
            tool_err(g, "cannot open ledger %s%s: %s", g->db_path,
                     is_read_only ? "" : " for writing", tool_strerror(rc));
        ledger_close(db);
        return tool_exit_for(rc);
    }
    *out = db;
    return TOOL_EXIT_OK;
}

int tool_room_get(ledger_room_info *out, ledger *db, const tool_globals *g, const char *room)
{
    if (strlen(room) > SCHEMA_ROOM_CHARS) {
        tool_err(g, "unknown room '%s' (room codes have %d characters)", room,
                 SCHEMA_ROOM_CHARS);
        return TOOL_EXIT_USAGE;
    }
    int rc = ledger_room_info_get(db, out, room);
    if (rc == LEDGER_EINPUT) {
        tool_err(g, "unknown room '%s': %s", room, ledger_errmsg(db));
        return TOOL_EXIT_USAGE;
    }
    if (rc == LEDGER_ENOTFOUND) {
        tool_err(g, "unknown room '%s' in %s (see mentat room list)", room, g->db_path);
        return TOOL_EXIT_USAGE;
    }
    if (rc != 0)
        return tool_ledger_fail(g, db, rc);
    return TOOL_EXIT_OK;
}

typedef struct room_codes {
    char (*code)[SCHEMA_ROOM_CHARS + 1];
    size_t n, cap;
} room_codes;

static int collect_code(void *ctx, const ledger_room_info *room)
{
    room_codes *rc = ctx;
    if (rc->n == rc->cap) {
        size_t cap = rc->cap != 0 ? 2 * rc->cap : 16;
        void *p = realloc(rc->code, cap * sizeof rc->code[0]);
        if (p == NULL)
            return ENOMEM;
        rc->code = p;
        rc->cap = cap;
    }
    memcpy(rc->code[rc->n], room->room, sizeof rc->code[0]);
    rc->code[rc->n][SCHEMA_ROOM_CHARS] = '\0';
    rc->n++;
    return 0;
}

int tool_room_codes(char (**out)[SCHEMA_ROOM_CHARS + 1], size_t *n_out, ledger *db)
{
    room_codes c = {NULL, 0, 0};
    int rc = ledger_room_foreach(db, collect_code, &c);
    if (rc != 0) {
        free(c.code);
        *out = NULL;
        *n_out = 0;
        return rc;
    }
    *out = c.code;
    *n_out = c.n;
    return 0;
}
