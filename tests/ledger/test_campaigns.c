/*
 * test_campaigns.c - the durability campaigns, each ending in one summary
 * line "campaign <name>: ...": kill -9 during appends, a group commit, a
 * backup and a restore; single-byte changes of archives and ledgers; a
 * full file system; writers and readers at once on one file.
 *
 * Real processes on a real LMDB file: a child (fork, its own handle)
 * works and reports on a pipe what was acknowledged; the parent kills it
 * with SIGKILL at a random moment and then checks that every acknowledged
 * event is there, that the ledger verifies, and that nothing is left that
 * looks like a ledger or an archive. `make test` runs a few trials of each
 * (MENTAT_CAMPAIGN_TRIALS, default 4); `make soak` runs many.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <time.h>

#include "tests/ledger/helpers.h"

#define ARCHIVE_NAME "a.mentat-archive"

static unsigned n_trials = 4;
static char mentat_bin[PATH_MAX];

/* ============================================================ helpers */

static void sleep_us(long us)
{
    struct timespec ts = {us / 1000000, (us % 1000000) * 1000};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Reads what a child wrote: every whole uint32 pair (index, version); the
 * highest version per index 0 and 1 in acked[], how many pairs of each
 * index 0..2 in n_of[] (may be NULL). Returns how many pairs in all. */
static uint32_t read_acks_of(int fd, uint32_t acked[2], unsigned long n_of[3])
{
    uint32_t pair[2], n = 0;
    acked[0] = acked[1] = 0;
    while (read(fd, pair, sizeof pair) == (ssize_t)sizeof pair) {
        if (pair[0] < 2 && pair[1] > acked[pair[0]])
            acked[pair[0]] = pair[1];
        if (n_of != NULL && pair[0] < 3)
            n_of[pair[0]]++;
        n++;
    }
    return n;
}

static uint32_t read_acks(int fd, uint32_t acked[2])
{
    return read_acks_of(fd, acked, NULL);
}

static void ack(int fd, uint32_t room, uint32_t version)
{
    uint32_t pair[2] = {room, version};
    if (write(fd, pair, sizeof pair) != (ssize_t)sizeof pair)
        _exit(3);
}

/* Names in dir that are neither the ledger, its lock file, the keys nor
 * an expected file; hidden ones (a temporary name) counted apart. */
static unsigned debris(const char *dir, const char *expected, unsigned *hidden_out)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    unsigned n = 0, hidden = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        const char *s = e->d_name;
        if (strcmp(s, ".") == 0 || strcmp(s, "..") == 0 || strcmp(s, "mentat.db") == 0 ||
            strcmp(s, "mentat.db-lock") == 0 || strcmp(s, "keys") == 0 ||
            (expected != NULL && strcmp(s, expected) == 0))
            continue;
        if (s[0] == '.')
            hidden++;
        else
            n++;
    }
    closedir(d);
    if (hidden_out != NULL)
        *hidden_out += hidden;
    return n;
}

/* Appends legal actions to room until the game ends, acknowledging each
 * on fd. */
static void append_forever(fixture *f, const char *room, int fd)
{
    engine_action act;
    uint32_t head;
    while (next_action(f->db, &act, room, &head)) {
        ledger_append_result res;
        int rc = ledger_append(f->db, &res, room, head, &act);
        if (rc != 0 || res.verdict != ENGINE_ACCEPTED)
            _exit(4);
        ack(fd, 0, res.receipt.version);
    }
    _exit(0);
}

typedef struct group_job {
    ledger_group *group;
    const char *room;
    const uint8_t *seed;           /* the room's seed: the thread folds on its own */
    uint32_t index;
    int fd;
} group_job;

/* One thread of a group commit: its room's state folded in memory (a
 * handle is not shared between threads), every append through the group. */
static void *group_thread(void *arg)
{
    group_job *j = arg;
    engine_state *st = malloc(sizeof *st);
    engine_config cfg;
    test_config_six(&cfg);
    engine_rng rng;
    engine_rng_init(&rng, j->seed, 0);
    if (st == NULL || engine_setup(NULL, st, &cfg, &rng) != ENGINE_ACCEPTED)
        _exit(2);
    engine_action act;
    for (uint32_t version = 0; legal_first(&act, st); version++) {
        ledger_append_result res;
        int rc = ledger_group_append(j->group, &res, j->room, version, &act);
        if (rc != 0 || res.verdict != ENGINE_ACCEPTED)
            _exit(4);
        engine_rng_init(&rng, j->seed, version + 1);
        if (engine_apply(NULL, st, &act, &rng) != ENGINE_ACCEPTED)
            _exit(4);
        ack(j->fd, j->index, res.receipt.version);
    }
    free(st);
    return NULL;
}

/* Forks a child that runs fn(ctx) with the fixture reopened; returns its
 * pid, the read end of its pipe in *fd_out. */
static pid_t child_start(fixture *f, void (*fn)(fixture *f, void *ctx, int fd), void *ctx,
                         int *fd_out)
{
    int p[2];
    assert_int_equal(pipe(p), 0);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(p[0]);
        if (fixture_open(f) != 0)
            _exit(2);
        fn(f, ctx, p[1]);
        _exit(0);
    }
    close(p[1]);
    *fd_out = p[0];
    return pid;
}

static void child_kill(pid_t pid)
{
    kill(pid, SIGKILL);
    int ws;
    while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
        ;
}

static void run_appends(fixture *f, void *ctx, int fd)
{
    append_forever(f, ctx, fd);
}

typedef struct group_rooms {
    char room[2][SCHEMA_ROOM_CHARS + 1];
    uint8_t seed[2][ENGINE_SEED_BYTES];
} group_rooms;

static void run_group(fixture *f, void *ctx, int fd)
{
    group_rooms *g = ctx;
    ledger_group *group;
    if (ledger_group_new(&group, f->db) != 0)
        _exit(2);
    group_job jobs[2];
    pthread_t t[2];
    for (uint32_t i = 0; i < 2; i++) {
        jobs[i] = (group_job){group, g->room[i], g->seed[i], i, fd};
        if (pthread_create(&t[i], NULL, group_thread, &jobs[i]) != 0)
            _exit(2);
    }
    pthread_join(t[0], NULL);
    pthread_join(t[1], NULL);
}

/* ========================================================= campaigns */

static void kill_appends(int is_group)
{
    uint64_t prng = is_group ? 77 : 7;
    unsigned long n_acked = 0, n_lost = 0, n_debris = 0, n_unverified = 0;
    for (unsigned t = 0; t < n_trials; t++) {
        fixture *f = fixture_new(4);
        group_rooms g;
        engine_config cfg;
        test_config_six(&cfg);
        for (int r = 0; r < 2; r++) {
            randombytes_buf(g.seed[r], sizeof g.seed[r]);
            assert_int_equal(ledger_room_create_seeded(f->db, g.room[r], &cfg, g.seed[r]), 0);
        }
        char (*rooms)[SCHEMA_ROOM_CHARS + 1] = g.room;
        fixture_close(f);
        int fd;
        pid_t pid = child_start(f, is_group ? run_group : run_appends,
                                is_group ? (void *)&g : (void *)rooms[0], &fd);
        sleep_us(5000 + (long)test_prng_below(&prng, 60000));
        child_kill(pid);
        uint32_t acked[2];
        n_acked += read_acks(fd, acked);
        close(fd);
        assert_int_equal(fixture_open(f), 0);
        for (int r = 0; r < 2; r++) {
            uint32_t head;
            assert_int_equal(ledger_head(f->db, rooms[r], &head, NULL), 0);
            n_lost += head < acked[r];
            n_unverified += verify_ok(f->db, rooms[r]) != 0;
        }
        n_debris += debris(f->dir, NULL, NULL);
        fixture_free(f);
    }
    printf("campaign kill -9 during %s: %u trials, %lu events acknowledged, %lu rooms behind "
           "a receipt, %lu ledgers failing verification, %lu files of debris\n",
           is_group ? "group commits (2 threads)" : "appends", n_trials, n_acked, n_lost,
           n_unverified, n_debris);
    assert_int_equal(n_lost, 0);
    assert_int_equal(n_unverified, 0);
    assert_int_equal(n_debris, 0);
}

static void test_campaigns__kill_during_appends(void **state)
{
    (void)state;
    kill_appends(0);
}

static void test_campaigns__kill_during_group_commit(void **state)
{
    (void)state;
    kill_appends(1);
}

typedef struct backup_ctx {
    const char *room;
    char path[256];
} backup_ctx;

static void run_backups(fixture *f, void *ctx, int fd)
{
    backup_ctx *b = ctx;
    for (uint32_t n = 1;; n++) {
        if (ledger_backup_room(f->db, b->room, b->path) != 0)
            _exit(4);
        ack(fd, 0, n);
    }
}

static void test_campaigns__kill_during_backup(void **state)
{
    (void)state;
    uint64_t prng = 11;
    unsigned long n_written = 0, n_bad = 0, n_debris = 0;
    unsigned hidden = 0;
    fixture *f = fixture_new(16);
    char room[SCHEMA_ROOM_CHARS + 1], out[200];
    room_new(f->db, room);
    uint32_t n_events = play(f->db, room, 40);
    fixture_close(f);
    snprintf(out, sizeof out, "%s/out", f->dir);
    for (unsigned t = 0; t < n_trials; t++) {
        test_rm_tree(out);
        assert_int_equal(mkdir(out, 0700), 0);
        backup_ctx b = {room, ""};
        snprintf(b.path, sizeof b.path, "%s/%s", out, ARCHIVE_NAME);
        int fd;
        pid_t pid = child_start(f, run_backups, &b, &fd);
        sleep_us(1000 + (long)test_prng_below(&prng, 30000));
        child_kill(pid);
        uint32_t acked[2];
        n_written += read_acks(fd, acked);
        close(fd);
        n_debris += debris(out, ARCHIVE_NAME, &hidden);
        if (access(b.path, F_OK) == 0) {
            /* what is there is a whole archive */
            fixture *g = fixture_new(16);
            ledger_restore_report rep;
            int rc = ledger_restore(g->db, &rep, b.path, 1);
            n_bad += rc != 0 || rep.n_events != n_events || verify_ok(g->db, room) != 0;
            fixture_free(g);
        } else {
            n_bad += acked[0] != 0;    /* a finished backup must be there */
        }
    }
    test_rm_tree(out);
    fixture_free(f);
    printf("campaign kill -9 during backups: %u trials, %lu archives finished, %lu archive "
           "paths holding anything but a whole archive, %lu files of debris (%u hidden)\n",
           n_trials, n_written, n_bad, n_debris, hidden);
    assert_int_equal(n_bad, 0);
    assert_int_equal(n_debris, 0);
}

typedef struct restore_ctx {
    char archive[256];
    char path[256];
} restore_ctx;

static void run_restore(fixture *f, void *ctx, int fd)
{
    restore_ctx *r = ctx;
    ledger_close(f->db);
    f->db = NULL;
    f->opt.path = r->path;         /* a new ledger: created, then restored */
    ledger *db;
    if (ledger_open(&db, &f->opt) != 0)
        _exit(2);
    ack(fd, 0, 1);
    ledger_restore_report rep;
    if (ledger_restore(db, &rep, r->archive, 1) != 0)
        _exit(4);
    ack(fd, 0, 2);
    ledger_close(db);
    _exit(0);
}

static void test_campaigns__kill_during_restore(void **state)
{
    (void)state;
    uint64_t prng = 13;
    unsigned long n_done = 0, n_bad = 0, n_debris = 0, n_absent = 0;
    unsigned hidden = 0;
    fixture *f = fixture_new(16);
    char room[SCHEMA_ROOM_CHARS + 1], dir[200];
    room_new(f->db, room);
    uint32_t n_events = play(f->db, room, 60);
    restore_ctx r;
    snprintf(r.archive, sizeof r.archive, "%s/%s", f->dir, ARCHIVE_NAME);
    assert_int_equal(ledger_backup_room(f->db, room, r.archive), 0);
    fixture_close(f);
    snprintf(dir, sizeof dir, "%s/r", f->dir);
    snprintf(r.path, sizeof r.path, "%s/mentat.db", dir);
    assert_int_equal(mkdir(dir, 0700), 0);
    for (unsigned t = 0; t < n_trials; t++) {
        /* the ledger goes; hidden names left by a killed creation stay, for
         * the next creation to sweep */
        char lock[300];
        snprintf(lock, sizeof lock, "%s-lock", r.path);
        unlink(r.path);
        unlink(lock);
        int fd;
        pid_t pid = child_start(f, run_restore, &r, &fd);
        sleep_us((long)test_prng_below(&prng, 40000));
        child_kill(pid);
        uint32_t acked[2];
        read_acks(fd, acked);
        close(fd);
        n_done += acked[0] == 2;
        n_debris += debris(dir, NULL, &hidden);
        if (access(r.path, F_OK) != 0) {
            n_absent++;
            n_bad += acked[0] != 0;    /* an opened ledger must be there */
            continue;
        }
        /* a valid ledger: empty, or the whole room */
        ledger_options opt = f->opt;
        opt.path = r.path;
        ledger *db;
        assert_int_equal(ledger_open(&db, &opt), 0);
        uint32_t head = 0;
        int rc = ledger_head(db, room, &head, NULL);
        if (rc == 0)
            n_bad += head != n_events || verify_ok(db, room) != 0;
        else
            n_bad += rc != LEDGER_ENOTFOUND || acked[0] == 2;
        ledger_close(db);
    }
    /* what a killed creation left is swept by the next one */
    unsigned left = 0, swept = 0;
    debris(dir, NULL, &left);
    swept = ledger_temp_sweep(r.path);
    unsigned after = 0;
    debris(dir, NULL, &after);
    test_rm_tree(dir);
    fixture_free(f);
    printf("campaign kill -9 during restores: %u trials, %lu finished, %lu before the ledger "
           "existed, %lu ledgers half-made or half-restored, %lu files of debris (%u hidden "
           "temporary names left by killed creations, each swept by the next creation: %u "
           "after the last trial, %u after a sweep)\n",
           n_trials, n_done, n_absent, n_bad, n_debris, hidden, left, after);
    assert_int_equal(n_bad, 0);
    assert_int_equal(n_debris, 0);
    assert_int_equal(after, 0);
    (void)swept;
}

/* Writes bytes to path with one byte among the first `within` changed. */
static void write_flipped(const char *path, char *bytes, size_t len, size_t within,
                          uint64_t *prng)
{
    size_t at = test_prng_below(prng, (uint32_t)within);
    uint8_t mask = (uint8_t)(1u + test_prng_below(prng, 255));
    bytes[at] = (char)((uint8_t)bytes[at] ^ mask);
    FILE *out = fopen(path, "wb");
    assert_non_null(out);
    assert_int_equal(fwrite(bytes, 1, len, out), len);
    fclose(out);
    bytes[at] = (char)((uint8_t)bytes[at] ^ mask);
}

static void test_campaigns__flips_in_archives(void **state)
{
    (void)state;
    uint64_t prng = 17;
    fixture *f = fixture_new(16);
    char room[SCHEMA_ROOM_CHARS + 1], path[200], flipped[200];
    room_new(f->db, room);
    play(f->db, room, 30);
    snprintf(path, sizeof path, "%s/%s", f->dir, ARCHIVE_NAME);
    snprintf(flipped, sizeof flipped, "%s/flipped.mentat-archive", f->dir);
    assert_int_equal(ledger_backup_room(f->db, room, path), 0);
    size_t len;
    char *bytes = test_slurp(path, &len);
    fixture *g = fixture_new(16);
    unsigned n = 20 * n_trials, n_missed = 0;
    for (unsigned t = 0; t < n; t++) {
        write_flipped(flipped, bytes, len, len, &prng);
        ledger_restore_report rep;
        n_missed += ledger_restore(g->db, &rep, flipped, 1) == 0;
    }
    uint32_t head = 0;
    int rc = ledger_head(g->db, room, &head, NULL);
    printf("campaign single-byte changes of an archive: %u changes, %u restored undetected\n",
           n, n_missed);
    assert_int_equal(n_missed, 0);
    assert_int_equal(rc, LEDGER_ENOTFOUND);
    free(bytes);
    fixture_free(g);
    fixture_free(f);
}

/* `mentat` on the file, killed by timeout(1) after 30 s: its status. */
static int mentat_on(const char *db, const char *out, const char *const *cmd)
{
    const char *args[16] = {"-s", "KILL", "30", mentat_bin, "--db", db};
    size_t n = 6;
    for (; *cmd != NULL; cmd++)
        args[n++] = *cmd;
    args[n] = NULL;
    return test_spawn((char *)"/usr/bin/timeout", out, "/dev/null", args);
}

static void test_campaigns__flips_in_ledgers(void **state)
{
    (void)state;
    uint64_t prng = 19;
    fixture *f = fixture_new(8);
    char room[SCHEMA_ROOM_CHARS + 1], path[200], base[200], got[200];
    room_new(f->db, room);
    play(f->db, room, 60);
    fixture_close(f);
    snprintf(path, sizeof path, "%s/f.db", f->dir);
    snprintf(base, sizeof base, "%s/base.json", f->dir);
    snprintf(got, sizeof got, "%s/got.json", f->dir);
    const char *log_cmd[] = {"--keys", f->keys, "log", room, "--json", NULL};
    const char *verify_cmd[] = {"--keys", f->keys, "verify", "--all", NULL};
    assert_int_equal(mentat_on(f->path, base, log_cmd), 0);
    size_t len, base_len;
    char *bytes = test_slurp(f->path, &len);
    char *base_log = test_slurp(base, &base_len);
    /* within the pages in use: the changes that can matter */
    ledger_file_report fr;
    assert_int_equal(ledger_file_check(&fr, f->path), 0);
    size_t used = (size_t)(fr.last_page[fr.used_meta] + 1) * fr.page_size;
    unsigned n = 10 * n_trials, n_found = 0, n_same = 0, n_crash = 0, n_hang = 0, n_silent = 0;
    for (unsigned t = 0; t < n; t++) {
        write_flipped(path, bytes, len, used < len ? used : len, &prng);
        char lock[220];
        snprintf(lock, sizeof lock, "%s-lock", path);
        unlink(lock);
        int v = mentat_on(path, "/dev/null", verify_cmd);
        int l = mentat_on(path, got, log_cmd);
        n_hang += v == 128 + SIGKILL || l == 128 + SIGKILL || v == 124 || l == 124;
        n_crash += (v > 2 && v < 124) || (v > 128 && v != 128 + SIGKILL) ||
                   (l > 2 && l < 124) || (l > 128 && l != 128 + SIGKILL);
        if (v == 0 && l == 0) {
            size_t gl;
            char *g = test_slurp(got, &gl);
            int same = gl == base_len && memcmp(g, base_log, gl) == 0;
            n_same += same ? 1u : 0u;
            n_silent += same ? 0u : 1u;    /* verified, yet reads differently */
            free(g);
        } else {
            n_found++;
        }
    }
    printf("campaign single-byte changes of a ledger: %u changes in its %zu used bytes, %u "
           "found damaged, %u harmless (verified and read the same), %u undetected, %u "
           "crashes, %u hangs\n",
           n, used, n_found, n_same, n_silent, n_crash, n_hang);
    assert_int_equal(n_crash, 0);
    assert_int_equal(n_hang, 0);
    assert_int_equal(n_silent, 0);
    free(bytes);
    free(base_log);
    fixture_rm(f);
    free(f);
}

static void test_campaigns__full_file_system(void **state)
{
    (void)state;
    fixture *f = fixture_new(8);
    char room[SCHEMA_ROOM_CHARS + 1], mnt[200];
    fixture_close(f);
    snprintf(mnt, sizeof mnt, "%s/full", f->dir);
    assert_int_equal(mkdir(mnt, 0700), 0);
    if (geteuid() != 0 || mount("tmpfs", mnt, "tmpfs", 0, "size=512k") != 0) {
        printf("campaign full file system: skipped (mounting a small tmpfs needs root)\n");
        fixture_rm(f);
        free(f);
        skip();
    }
    char path[256];
    snprintf(path, sizeof path, "%s/mentat.db", mnt);
    f->opt.path = path;
    assert_int_equal(fixture_open(f), 0);
    room_new(f->db, room);
    uint32_t acked = 0;
    int rc = 0;
    engine_action act;
    uint32_t head;
    unsigned n_full = 0;
    engine_config cfg;
    test_config_six(&cfg);
    for (unsigned rooms = 0; rc == 0 && rooms < 200; rooms++) {
        while (rc == 0 && next_action(f->db, &act, room, &head)) {
            ledger_append_result res;
            rc = ledger_append(f->db, &res, room, head, &act);
            if (rc == 0)
                acked = res.receipt.version;
        }
        char next[SCHEMA_ROOM_CHARS + 1];
        if (rc == 0 && (rc = ledger_room_create(f->db, next, &cfg)) == 0) {
            memcpy(room, next, sizeof room);
            acked = 0;
        }
    }
    n_full += rc == ENOSPC;
    char msg[256];
    snprintf(msg, sizeof msg, "%s", ledger_errmsg(f->db));
    int says_full = strstr(msg, "disk is full") != NULL;
    /* a backup into the full file system fails whole */
    char arch[300];
    snprintf(arch, sizeof arch, "%s/%s", mnt, ARCHIVE_NAME);
    int brc = ledger_backup_room(f->db, room, arch);
    int backup_absent = access(arch, F_OK) != 0;
    fixture_close(f);
    /* every acknowledged event is there, and the ledger verifies */
    f->opt.is_read_only = 1;
    assert_int_equal(fixture_open(f), 0);
    uint32_t got = 0;
    assert_int_equal(ledger_head(f->db, room, &got, NULL), 0);
    int verified = verify_ok(f->db, room) == 0;
    fixture_close(f);
    unsigned hidden = 0, n_debris = debris(mnt, NULL, &hidden);
    /* `mentat games` into a full disk: exit 2, saying so; what it wrote verifies */
    unlink(path);
    char lock[300], err_path[200], games_db[300];
    snprintf(lock, sizeof lock, "%s-lock", path);
    unlink(lock);
    snprintf(err_path, sizeof err_path, "%s/games.err", f->dir);
    snprintf(games_db, sizeof games_db, "%s/games.db", mnt);
    const char *games[] = {"--db", games_db, "--keys", f->keys, "games", "--players", "2",
                           "--rules", "basic", "--games", "200", "--jobs", "2", NULL};
    int games_exit = test_spawn(mentat_bin, "/dev/null", err_path, games);
    char *games_err = test_slurp(err_path, NULL);
    int games_says_full = strstr(games_err, "the disk is full: nothing was acknowledged") != NULL;
    free(games_err);
    const char *verify[] = {"--db", games_db, "--keys", f->keys, "verify", "--all", NULL};
    int games_verified = test_spawn(mentat_bin, "/dev/null", "/dev/null", verify) == 0;
    umount(mnt);
    printf("campaign full file system (512 KiB tmpfs): appends stopped with %s (\"%s\"), last "
           "room at %u of %u acknowledged, %s; backup into it %s; %u files of debris\n",
           rc == ENOSPC ? "ENOSPC" : "another error", msg, got, acked,
           verified ? "verified" : "NOT verified", brc != 0 && backup_absent ? "refused whole"
                                                                           : "WRONG",
           n_debris + hidden);
    printf("campaign full file system, `mentat games`: exit %d, %s, its rooms %s\n",
           games_exit, games_says_full ? "said the disk is full" : "did NOT say the disk is full",
           games_verified ? "verified" : "NOT verified");
    assert_int_equal(games_exit, 2);
    assert_true(games_says_full);
    assert_true(games_verified);
    assert_int_equal(n_full, 1);
    assert_true(says_full);
    assert_true(got >= acked);
    assert_true(verified);
    assert_true(brc != 0 && backup_absent);
    assert_int_equal(n_debris + hidden, 0);
    fixture_rm(f);
    free(f);
}

typedef struct concurrent_ctx {
    const char *room;
    double until;
    int is_reader;
} concurrent_ctx;

static void run_concurrent(fixture *f, void *vctx, int fd)
{
    concurrent_ctx *c = vctx;
    engine_action act;
    uint32_t head;
    while (now_s() < c->until) {
        if (c->is_reader) {
            uint32_t h = 0;
            if (ledger_head(f->db, c->room, &h, NULL) != 0 || verify_ok(f->db, c->room) != 0)
                _exit(5);
            ack(fd, 1, h + 1);
            continue;
        }
        if (!next_action(f->db, &act, c->room, &head))
            break;
        ledger_append_result res;
        int rc = ledger_append(f->db, &res, c->room, head, &act);
        if (rc == LEDGER_ECONFLICT)
            continue;
        if (rc != 0 || res.verdict != ENGINE_ACCEPTED)
            _exit(4);
        /* Two writers may send the same action at the same head: the
         * second is a retry and gets the first one's receipt (index 2). */
        ack(fd, res.is_retry ? 2 : 0, res.receipt.version);
    }
    _exit(0);
}

static void test_campaigns__writers_and_readers_at_once(void **state)
{
    (void)state;
    fixture *f = fixture_new(8);
    char room[SCHEMA_ROOM_CHARS + 1];
    room_new(f->db, room);
    fixture_close(f);
    enum { N_WRITERS = 3, N_READERS = 2 };
    pid_t pid[N_WRITERS + N_READERS];
    int fd[N_WRITERS + N_READERS];
    concurrent_ctx c[N_WRITERS + N_READERS];
    double until = now_s() + 0.25 * n_trials;
    for (int i = 0; i < N_WRITERS + N_READERS; i++) {
        c[i] = (concurrent_ctx){room, until, i >= N_WRITERS};
        pid[i] = child_start(f, run_concurrent, &c[i], &fd[i]);
    }
    unsigned n_failed = 0;
    uint32_t acked = 0;
    unsigned long n_acks = 0, n_reads = 0, n_retries = 0;
    for (int i = 0; i < N_WRITERS + N_READERS; i++) {
        int ws;
        while (waitpid(pid[i], &ws, 0) < 0 && errno == EINTR)
            ;
        n_failed += !WIFEXITED(ws) || WEXITSTATUS(ws) != 0;
        uint32_t a[2];
        unsigned long n_of[3] = {0, 0, 0};
        read_acks_of(fd[i], a, n_of);
        close(fd[i]);
        n_acks += n_of[0];
        n_retries += n_of[2];
        n_reads += n_of[1];
        if (a[0] > acked)
            acked = a[0];
    }
    assert_int_equal(fixture_open(f), 0);
    uint32_t head = 0;
    assert_int_equal(ledger_head(f->db, room, &head, NULL), 0);
    int verified = verify_ok(f->db, room) == 0;
    printf("campaign writers and readers at once: %d writers, %d readers, %.2f s, %lu events "
           "acknowledged (head %u; %lu retries answered with the same receipt), %lu "
           "verifications while writing, %u processes failed\n",
           N_WRITERS, N_READERS, 0.25 * n_trials, n_acks, head, n_retries, n_reads, n_failed);
    assert_int_equal(n_failed, 0);
    assert_int_equal(head, n_acks);     /* every acknowledged event, each once */
    assert_true(head >= acked);
    assert_true(verified);
    fixture_free(f);
}

int main(int argc, char **argv)
{
    (void)argc;
    const char *t = getenv("MENTAT_CAMPAIGN_TRIALS");
    if (t != NULL && atoi(t) > 0)
        n_trials = (unsigned)atoi(t);
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (sodium_init() < 0 || test_find_mentat(mentat_bin, argv[0], "test_campaigns") != 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_campaigns__kill_during_appends),
        cmocka_unit_test(test_campaigns__kill_during_group_commit),
        cmocka_unit_test(test_campaigns__kill_during_backup),
        cmocka_unit_test(test_campaigns__kill_during_restore),
        cmocka_unit_test(test_campaigns__flips_in_archives),
        cmocka_unit_test(test_campaigns__flips_in_ledgers),
        cmocka_unit_test(test_campaigns__full_file_system),
        cmocka_unit_test(test_campaigns__writers_and_readers_at_once),
    };
    return cmocka_run_group_tests_name("ledger_campaigns", tests, NULL, NULL);
}
