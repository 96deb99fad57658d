/*
 * cmd_doctor.c - `mentat doctor`: what is damaged in a ledger file and
 * what can still be exported to archives.
 *
 * Layer: tools. The file's meta pages are read without mapping
 * (ledger_file_check); every read through LMDB (the room list, each
 * room's verification and its trial export) runs in a child process of
 * its own (tools/isolate.c) that opens the ledger read-only, so a fault on
 * a damaged page is one finding, never the end of the report. Children
 * hand their results back in shared memory. It never writes to the ledger;
 * with --out DIR it writes the archives it can, through ledger_backup_room.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tools/internal.h"

#define DOCTOR_ROOMS_MAX 65536     /* rooms listed; more are said to be left out */

static const char help[] =
    "usage: mentat doctor [--out DIR] [--db PATH] [--json]\n"
    "\n"
    "Examines the ledger file without trusting it and says what is damaged\n"
    "and what can still be saved: first the file itself (its size and both\n"
    "LMDB meta pages, read without mapping the file), then, if they are\n"
    "sound, every room: its verification (genesis, chain, signatures and\n"
    "re-folded digests, as `mentat verify`) and a trial export to an archive.\n"
    "Each read runs in a process of its own, so a room whose pages make\n"
    "LMDB fault is reported as damaged and the others are still examined.\n"
    "Exit 0 when nothing is damaged, 1 when something is.\n"
    "\n"
    "  --out DIR  write the archive of every room that can be exported into\n"
    "             DIR (made if absent) as ROOM.mentat-archive; `mentat restore\n"
    "             --all DIR` reads them into a new ledger. Only rooms that\n"
    "             verify are exported (restore refuses the archive of a room\n"
    "             that does not); a damaged room is listed as NOT exportable\n"
    "\n"
    "Examples:\n"
    "  mentat doctor\n"
    "  mentat --db damaged.db doctor --out rescued/; mentat --db new.db restore --all rescued/\n"
    "  (`;`, not `&&`: doctor exits 1 when something is damaged, which is when\n"
    "  the rescue is wanted)\n"
    "  mentat doctor --json\n";

typedef struct room_finding {
    char room[SCHEMA_ROOM_CHARS + 1];
    int is_verified;               /* 1 = verification held */
    uint32_t n_events;             /* events verification examined */
    uint32_t bad_version;          /* where it failed, when not verified */
    int verify_signal;             /* the signal the verifying child died of, or 0 */
    char reason[200];              /* why verification failed */
    int is_exportable;             /* 1 = the archive could be written */
    int export_signal;             /* the signal the exporting child died of, or 0 */
    char export_error[200];        /* why the export failed */
} room_finding;

/* What the children write; one mapping shared with them. */
typedef struct doctor_shared {
    size_t n_rooms;                /* rooms the listing child found */
    int is_list_done;              /* 1 = the listing child finished */
    int list_rc;                   /* its ledger code */
    char list_error[256];
    char rooms[DOCTOR_ROOMS_MAX][SCHEMA_ROOM_CHARS + 1];
    room_finding finding;          /* the room being examined */
} doctor_shared;

typedef struct doctor_ctx {
    const tool_globals *g;
    doctor_shared *sh;
    const char *room;              /* the room being examined */
    const char *out_dir;           /* where its archive goes (a scratch directory without --out) */
} doctor_ctx;

static int open_ro(ledger **db, const tool_globals *g, char *err, size_t cap)
{
    ledger_options opt;
    ledger_options_init(&opt);
    opt.path = g->db_path;
    opt.keys_dir = g->keys_dir;
    opt.is_read_only = 1;
    int rc = ledger_open(db, &opt);
    if (rc != 0) {
        snprintf(err, cap, "%s", ledger_errmsg(*db));
        ledger_close(*db);
        *db = NULL;
    }
    return rc;
}

static int list_one(void *ctx, const ledger_room_info *room)
{
    doctor_shared *sh = ctx;
    if (sh->n_rooms == DOCTOR_ROOMS_MAX)
        return 1;
    memcpy(sh->rooms[sh->n_rooms++], room->room, SCHEMA_ROOM_CHARS + 1);
    return 0;
}

static int child_list(void *vctx)
{
    doctor_ctx *c = vctx;
    ledger *db = NULL;
    c->sh->list_rc = open_ro(&db, c->g, c->sh->list_error, sizeof c->sh->list_error);
    if (c->sh->list_rc == 0) {
        c->sh->list_rc = ledger_room_foreach(db, list_one, c->sh);
        if (c->sh->list_rc != 0 && c->sh->list_rc != 1)
            snprintf(c->sh->list_error, sizeof c->sh->list_error, "%s", ledger_errmsg(db));
        if (c->sh->list_rc == 1)
            c->sh->list_rc = 0;    /* stopped at DOCTOR_ROOMS_MAX */
    }
    ledger_close(db);
    c->sh->is_list_done = 1;
    return 0;
}

static int child_verify(void *vctx)
{
    doctor_ctx *c = vctx;
    room_finding *f = &c->sh->finding;
    ledger *db = NULL;
    if (open_ro(&db, c->g, f->reason, sizeof f->reason) != 0)
        return 0;
    ledger_verify_report rep;
    memset(&rep, 0, sizeof rep);
    int rc = ledger_verify_room(db, &rep, c->room, 1);
    f->n_events = rep.n_events;
    f->is_verified = rc == 0;
    f->bad_version = rep.bad_version;
    if (rc == LEDGER_ECORRUPT || rc == LEDGER_EBADSIG)
        snprintf(f->reason, sizeof f->reason, "%s", rep.reason);
    else if (rc != 0)
        snprintf(f->reason, sizeof f->reason, "%s", ledger_errmsg(db));
    ledger_close(db);
    return 0;
}

static int child_export(void *vctx)
{
    doctor_ctx *c = vctx;
    room_finding *f = &c->sh->finding;
    ledger *db = NULL;
    if (open_ro(&db, c->g, f->export_error, sizeof f->export_error) != 0)
        return 0;
    char path[4200];
    snprintf(path, sizeof path, "%s/%s%s", c->out_dir, c->room, LEDGER_ARCHIVE_SUFFIX);
    int rc = ledger_backup_room(db, c->room, path);
    f->is_exportable = rc == 0;
    if (rc != 0)
        snprintf(f->export_error, sizeof f->export_error, "%s", ledger_errmsg(db));
    ledger_close(db);
    return 0;
}

static void signal_text(char *out, size_t cap, const char *what, int sig)
{
    snprintf(out, cap, "%s stopped on signal %d (%s): its pages are damaged", what, sig,
             strsignal(sig));
}

static void file_text(const ledger_file_report *fr, const char *path)
{
    printf("file %s: %llu bytes, page size %u\n", path, (unsigned long long)fr->file_bytes,
           fr->page_size);
    for (int i = 0; i < 2; i++)
        printf("  meta page %d: %s, transaction %llu, last page %llu%s\n", i,
               fr->is_meta_ok[i] ? "sound" : "DAMAGED", (unsigned long long)fr->txnid[i],
               (unsigned long long)fr->last_page[i], fr->used_meta == i ? " (in use)" : "");
    if (fr->damage[0] != '\0')
        printf("  DAMAGED: %s\n", fr->damage);
}

static void file_json(tool_json *j, const ledger_file_report *fr, const char *path)
{
    tool_json_key(j, "file");
    tool_json_object_begin(j);
    tool_json_member_string(j, "path", path);
    tool_json_member_uint(j, "bytes", fr->file_bytes);
    tool_json_member_uint(j, "page_size", fr->page_size);
    tool_json_key(j, "meta");
    tool_json_array_begin(j);
    for (int i = 0; i < 2; i++) {
        tool_json_object_begin(j);
        tool_json_member_bool(j, "ok", fr->is_meta_ok[i]);
        tool_json_member_uint(j, "txnid", fr->txnid[i]);
        tool_json_member_uint(j, "last_page", fr->last_page[i]);
        tool_json_member_bool(j, "in_use", fr->used_meta == i);
        tool_json_object_end(j);
    }
    tool_json_array_end(j);
    tool_json_member_bool(j, "ok", fr->damage[0] == '\0');
    if (fr->damage[0] != '\0')
        tool_json_member_string(j, "damage", fr->damage);
    tool_json_object_end(j);
}

static void room_text(const room_finding *f)
{
    if (f->is_verified)
        printf("%s  ok       %u events verified", f->room, f->n_events);
    else if (f->verify_signal != 0)
        printf("%s  DAMAGED  %s", f->room, f->reason);
    else if (f->bad_version == 0 && f->n_events == 0)
        printf("%s  DAMAGED  at the genesis: %s", f->room, f->reason);
    else
        printf("%s  DAMAGED  at version %u: %s", f->room, f->bad_version, f->reason);
    if (f->is_exportable)
        printf("; exportable\n");
    else
        printf("; NOT exportable: %s\n", f->export_error);
}

static void room_json(tool_json *j, const room_finding *f)
{
    tool_json_object_begin(j);
    tool_json_member_string(j, "room", f->room);
    tool_json_member_bool(j, "verified", f->is_verified);
    tool_json_member_uint(j, "n_events", f->n_events);
    if (!f->is_verified) {
        if (f->verify_signal == 0)
            tool_json_member_uint(j, "bad_version", f->bad_version);
        else
            tool_json_member_uint(j, "signal", (uint64_t)f->verify_signal);
        tool_json_member_string(j, "reason", f->reason);
    }
    tool_json_member_bool(j, "exportable", f->is_exportable);
    if (!f->is_exportable)
        tool_json_member_string(j, "export_error", f->export_error);
    tool_json_object_end(j);
}

int cmd_doctor(int argc, char **argv, const tool_globals *gin)
{
    tool_globals g = *gin;
    const char *out_s = NULL;
    const tool_opt opts[] = {
        {"--out", "DIR", &out_s, NULL},
        {NULL, NULL, NULL, NULL},
    };
    int r = tool_args_parse(&g, argc, argv, opts, NULL, 0, NULL, help);
    if (r != TOOL_PARSED)
        return r == TOOL_HELP ? TOOL_EXIT_OK : TOOL_EXIT_USAGE;
    struct stat st;
    if (stat(g.db_path, &st) != 0) {
        tool_err(&g, "no ledger at %s: %s", g.db_path, strerror(errno));
        return TOOL_EXIT_USAGE;
    }
    if (!S_ISREG(st.st_mode)) {
        tool_err(&g, "%s is not a regular file", g.db_path);
        return TOOL_EXIT_USAGE;
    }
    char scratch[4096] = "";
    if (out_s != NULL) {
        if (out_s[0] == '\0' || (mkdir(out_s, 0700) != 0 && errno != EEXIST) ||
            stat(out_s, &st) != 0 || !S_ISDIR(st.st_mode)) {
            tool_err(&g, "--out %s: not a directory that can be made", out_s);
            return TOOL_EXIT_USAGE;
        }
    } else {
        const char *tmp = getenv("TMPDIR");
        snprintf(scratch, sizeof scratch, "%s/mentat-doctor-XXXXXX",
                 tmp != NULL && tmp[0] != '\0' ? tmp : "/tmp");
        if (mkdtemp(scratch) == NULL) {
            tool_err(&g, "cannot make a scratch directory in %s: %s",
                     tmp != NULL ? tmp : "/tmp", strerror(errno));
            return TOOL_EXIT_USAGE;
        }
    }
    doctor_shared *sh = mmap(NULL, sizeof *sh, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
                             -1, 0);
    if (sh == MAP_FAILED) {
        tool_err(&g, "out of memory");
        if (scratch[0] != '\0')
            rmdir(scratch);
        return TOOL_EXIT_USAGE;
    }
    doctor_ctx c = {&g, sh, NULL, out_s != NULL ? out_s : scratch};
    ledger_file_report fr;
    int frc = ledger_file_check(&fr, g.db_path);
    if (frc == LEDGER_EINPUT) {
        tool_err(&g, "%s", fr.damage);
        munmap(sh, sizeof *sh);
        if (scratch[0] != '\0')
            rmdir(scratch);
        return TOOL_EXIT_USAGE;
    }
    int is_damaged = frc != 0;
    size_t n_damaged = 0, n_exportable = 0;
    tool_json j;
    if (g.is_json) {
        tool_json_init(&j, stdout);
        tool_json_object_begin(&j);
        file_json(&j, &fr, g.db_path);
    } else {
        file_text(&fr, g.db_path);
    }
    int sig = 0;
    if (frc == 0) {
        tool_fork_call(&sig, child_list, &c);
        if (sig != 0 || !sh->is_list_done || sh->list_rc != 0) {
            is_damaged = 1;
            if (sig != 0)
                signal_text(sh->list_error, sizeof sh->list_error, "listing the rooms", sig);
        }
    }
    if (g.is_json) {
        tool_json_key(&j, "rooms");
        tool_json_array_begin(&j);
    } else if (frc == 0 && !is_damaged) {
        printf("rooms: %zu%s\n", sh->n_rooms,
               sh->n_rooms == DOCTOR_ROOMS_MAX ? " (more left out)" : "");
    }
    for (size_t i = 0; frc == 0 && i < sh->n_rooms; i++) {
        room_finding *f = &sh->finding;
        memset(f, 0, sizeof *f);
        memcpy(f->room, sh->rooms[i], sizeof f->room);
        c.room = f->room;
        tool_fork_call(&f->verify_signal, child_verify, &c);
        if (f->verify_signal != 0)
            signal_text(f->reason, sizeof f->reason, "verifying", f->verify_signal);
        /* A room that fails verification is not exported: `restore`
         * checks the same and would refuse its archive. */
        if (!f->is_verified)
            snprintf(f->export_error, sizeof f->export_error,
                     "it fails verification, and restore refuses such an archive; nothing "
                     "written");
        else
            tool_fork_call(&f->export_signal, child_export, &c);
        if (f->export_signal != 0) {
            f->is_exportable = 0;
            signal_text(f->export_error, sizeof f->export_error, "exporting",
                        f->export_signal);
        }
        if (out_s == NULL) {
            char path[4200];
            snprintf(path, sizeof path, "%s/%s%s", scratch, f->room, LEDGER_ARCHIVE_SUFFIX);
            unlink(path);
        }
        n_damaged += f->is_verified ? 0u : 1u;
        n_exportable += f->is_exportable ? 1u : 0u;
        if (g.is_json)
            room_json(&j, f);
        else
            room_text(f);
    }
    is_damaged |= n_damaged != 0;
    if (g.is_json) {
        tool_json_array_end(&j);
        if (frc == 0 && sh->list_error[0] != '\0')
            tool_json_member_string(&j, "rooms_error", sh->list_error);
        tool_json_member_uint(&j, "n_rooms", sh->n_rooms);
        tool_json_member_uint(&j, "n_damaged", n_damaged);
        tool_json_member_uint(&j, "n_exportable", n_exportable);
        tool_json_member_bool(&j, "ok", !is_damaged);
        tool_json_object_end(&j);
        tool_json_finish(&j);
    } else if (frc != 0) {
        printf("nothing can be read safely through LMDB; restore the rooms from their "
               "archives\n");
    } else if (sh->list_error[0] != '\0') {
        printf("the room list cannot be read: %s\n", sh->list_error);
    } else {
        printf("%zu of %zu rooms damaged, %zu exportable%s%s\n", n_damaged, sh->n_rooms,
               n_exportable, out_s != NULL ? "; archives in " : "", out_s != NULL ? out_s : "");
    }
    munmap(sh, sizeof *sh);
    if (scratch[0] != '\0')
        rmdir(scratch);
    return is_damaged ? TOOL_EXIT_CHECK : TOOL_EXIT_OK;
}
