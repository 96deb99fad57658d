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
#include <unistd.h>

#include "tools/internal.h"

/* ============================================================ errors */

/* An error line is one line of at most this many bytes of message: input
 * echoed in it (a 70 KB room code) is cut, and a newline in it becomes a
 * space. */
#define ERR_LINE_MAX 480

void tool_err(const tool_globals *g, const char *fmt, ...)
{
    char msg[ERR_LINE_MAX + 1];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    for (char *p = msg; *p != '\0'; p++)
        if (*p == '\n' || *p == '\r')
            *p = ' ';
    fprintf(stderr, "mentat %s: %s%s\n", g->cmd != NULL ? g->cmd : "", msg,
            n > ERR_LINE_MAX ? "..." : "");
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
    if (rc == ENOSPC)
        tool_err(g, "%s; nothing was acknowledged past the last receipt",
                 msg != NULL && msg[0] != '\0' ? msg : "the disk is full");
    else if (msg != NULL && msg[0] != '\0')
        tool_err(g, "%s", msg);
    else
        tool_err(g, "%s (code %d)", tool_strerror(rc), rc);
    return tool_exit_for(rc);
}

/* 1 once a failed write to standard output has been told (by
 * tool_file_write), so that tool_stdout_finish does not tell it again. */
static int is_stdout_failure_told;

int tool_stdout_finish(const tool_globals *g, int ex)
{
    int is_bad = fflush(stdout) != 0 || ferror(stdout);
    int why = errno;
    if (!is_bad)
        return ex;
    if (is_stdout_failure_told)
        return ex == TOOL_EXIT_OK ? TOOL_EXIT_USAGE : ex;
    tool_err(g, "cannot write standard output: %s",
             why == ENOSPC ? "the disk is full" : why != 0 ? strerror(why) : "write error");
    return ex == TOOL_EXIT_OK ? TOOL_EXIT_USAGE : ex;
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

/* A ledger this command is making (tools/internal.h tool_ledger_open):
 * built under `tmp` until tool_ledger_close links it to `path`. One at a
 * time: a command opens one ledger. */
static struct {
    int is_active;
    int is_kept;                   /* 1 = linked into place whatever the exit status */
    char tmp[4096];
    char path[4096];
} pending;

static void pending_remove(void)
{
    char lock[4200];
    snprintf(lock, sizeof lock, "%s-lock", pending.tmp);
    unlink(pending.tmp);
    unlink(lock);
    pending.is_active = 0;
    pending.is_kept = 0;
}

/* A fresh name beside path for a ledger being made; 0, or -1. */
static int pending_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    int n = slash == NULL ? snprintf(pending.tmp, sizeof pending.tmp, ".%s.pending-XXXXXX", path)
                          : snprintf(pending.tmp, sizeof pending.tmp, "%.*s/.%s.pending-XXXXXX",
                                     (int)(slash - path), path, slash + 1);
    if (n < 0 || (size_t)n >= sizeof pending.tmp ||
        (size_t)snprintf(pending.path, sizeof pending.path, "%s", path) >= sizeof pending.path)
        return -1;
    int fd = mkstemp(pending.tmp);
    if (fd < 0)
        return -1;
    close(fd);
    unlink(pending.tmp);           /* the name only: ledger_open makes the file */
    return 0;
}

int tool_ledger_open(ledger **out, const tool_globals *g, int is_read_only)
{
    struct stat sb;
    *out = NULL;
    int is_missing = stat(g->db_path, &sb) != 0 && errno == ENOENT;
    if (is_read_only && is_missing) {
        tool_err(g, "no ledger at %s (rooms are made with `mentat room create`; "
                    "--db names another ledger)", g->db_path);
        return TOOL_EXIT_USAGE;
    }
    ledger_options opt;
    ledger_options_init(&opt);
    opt.path = g->db_path;
    opt.keys_dir = g->keys_dir;
    opt.is_read_only = is_read_only;
    if (!is_read_only && is_missing)
        ledger_temp_sweep(g->db_path);
    if (!is_read_only && is_missing && !pending.is_active && pending_name(g->db_path) == 0) {
        pending.is_active = 1;
        opt.path = pending.tmp;
    }
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
        if (pending.is_active)
            pending_remove();
        return tool_exit_for(rc);
    }
    if (ledger_warning(db)[0] != '\0')
        tool_err(g, "warning: %s", ledger_warning(db));
    *out = db;
    return TOOL_EXIT_OK;
}

void tool_ledger_keep(void)
{
    pending.is_kept = pending.is_active;
}

int tool_ledger_close(const tool_globals *g, ledger *db, int ex)
{
    ledger_close(db);
    if (!pending.is_active)
        return ex;
    /* (A command that failed creates nothing: exit 2 is bad usage or input,
     * and whatever it wrote goes with the file.) */
    if ((ex != TOOL_EXIT_USAGE || pending.is_kept) && link(pending.tmp, pending.path) != 0) {
        tool_err(g, "cannot create the ledger %s: %s; nothing was written", pending.path,
                 errno == EEXIST ? "another process made it meanwhile" : strerror(errno));
        ex = TOOL_EXIT_USAGE;
    }
    pending_remove();
    return ex;
}

int tool_room_get(ledger_room_info *out, ledger *db, const tool_globals *g, const char *room)
{
    if (strlen(room) > SCHEMA_ROOM_CHARS) {
        tool_err(g, "unknown room '%s' (room codes have %d characters)", room,
                 SCHEMA_ROOM_CHARS);
        return TOOL_EXIT_USAGE;
    }
    /* Codes are upper case and their alphabet has no letter that reads
     * differently in lower case: a code typed in lower case is that code. */
    char upper[SCHEMA_ROOM_CHARS + 1];
    size_t n = strlen(room);
    for (size_t i = 0; i <= n; i++)
        upper[i] = room[i] >= 'a' && room[i] <= 'z' ? (char)(room[i] - 'a' + 'A') : room[i];
    int rc = ledger_room_info_get(db, out, upper);
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

int tool_slurp(char **out, size_t *len_out, const char *path)
{
    int is_stdin = strcmp(path, "-") == 0;
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    if (f == NULL)
        return errno;
    size_t cap = 8192, len = 0;
    char *buf = malloc(cap);
    int rc = 0;
    while (buf != NULL) {
        if (len + 1 >= cap) {
            char *grown = realloc(buf, cap * 2);
            if (grown == NULL) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = grown;
            cap *= 2;
        }
        size_t n = fread(buf + len, 1, cap - 1 - len, f);
        if (n == 0)
            break;
        len += n;
    }
    if (buf == NULL)
        rc = ENOMEM;
    else if (ferror(f))
        rc = EIO;
    if (!is_stdin)
        fclose(f);
    if (rc != 0) {
        free(buf);
        return rc;
    }
    buf[len] = '\0';
    *out = buf;
    *len_out = len;
    return 0;
}

int tool_file_write(ledger *db, const tool_globals *g, const char *path, unsigned flags,
                    int (*write)(FILE *f, void *ctx), void *ctx)
{
    if (strcmp(path, "-") == 0) {
        if (write(stdout, ctx) == 0 && fflush(stdout) == 0 && !ferror(stdout))
            return TOOL_EXIT_OK;
        tool_err(g, "cannot write standard output%s",
                 errno == ENOSPC ? ": the disk is full" : "");
        is_stdout_failure_told = 1;
        return TOOL_EXIT_USAGE;
    }
    ledger_outfile of;
    of.fd = -1;
    if (ledger_outfile_open(db, &of, path, flags) != 0) {
        tool_err(g, "cannot write %s: %s", path, ledger_errmsg(db));
        return TOOL_EXIT_USAGE;
    }
    /* A stream on a copy of the fd: closing it leaves the file's own fd to
     * the commit, which syncs it before the rename. */
    int fd = dup(of.fd);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (f == NULL) {
        tool_err(g, "cannot write %s: %s", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        ledger_outfile_abort(&of);
        return TOOL_EXIT_USAGE;
    }
    int rc = write(f, ctx);
    int closed = fclose(f);
    int why = errno;
    if (rc != 0 || closed != 0) {
        tool_err(g, "cannot write %s: %s", path,
                 closed != 0 && why == ENOSPC ? "the disk is full" : "write failed");
        ledger_outfile_abort(&of);
        return TOOL_EXIT_USAGE;
    }
    rc = ledger_outfile_commit(db, &of, flags);
    if (rc != 0) {
        tool_err(g, "cannot write %s: %s", path, ledger_errmsg(db));
        return tool_exit_for(rc);
    }
    return TOOL_EXIT_OK;
}

static int room_at(ledger_room_info *out, uint32_t *at_out, ledger *db, const tool_globals *g,
                   const char *room, const char *at_s)
{
    uint32_t at = 0;
    if (at_s != NULL && tool_parse_uint(&at, at_s, 0, UINT32_MAX) != 0) {
        tool_err(g, "--at must be a version, not '%s'", at_s);
        return TOOL_EXIT_USAGE;
    }
    int ex = tool_room_get(out, db, g, room);
    if (ex != TOOL_EXIT_OK)
        return ex;
    if (at_s == NULL)
        at = out->version;
    if (at > out->version) {
        tool_err(g, "--at %u is past the head of %s (version %u)", at, out->room, out->version);
        return TOOL_EXIT_USAGE;
    }
    *at_out = at;
    return TOOL_EXIT_OK;
}

int tool_open_room_at(ledger **db_out, ledger_room_info *info, uint32_t *at_out,
                      const tool_globals *g, int is_read_only, const char *room,
                      const char *at_s)
{
    int ex = tool_ledger_open(db_out, g, is_read_only);
    if (ex != TOOL_EXIT_OK)
        return ex;
    uint32_t at;
    ex = room_at(info, &at, *db_out, g, room, at_s);
    if (ex != TOOL_EXIT_OK) {
        ex = tool_ledger_close(g, *db_out, ex);
        *db_out = NULL;
        return ex;
    }
    if (at_out != NULL)
        *at_out = at;
    return TOOL_EXIT_OK;
}
