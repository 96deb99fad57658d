/*
 * test_safety.c - operator safety, end to end through the real binary: no
 * command damages a ledger, a damaged file never crashes a reader, and a
 * failing command leaves nothing behind (docs/CLI.md "Safety").
 *
 * Each case runs `mentat` (fork/exec) in a fresh temporary directory with
 * a ledger of one played room, and checks exit statuses, the one-line
 * messages, and the directory before and after: every name and the bytes
 * of every file but the LMDB lock files, whose reader slots readers touch.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>

#include "tests/support/support.h"

#define ERR_FILE ".safety-err"
#define OUT_FILE ".safety-out"
#define PAIR "atreides,harkonnen"

static char mentat_bin[PATH_MAX];

typedef struct world {
    char dir[PATH_MAX];
    char old_cwd[PATH_MAX];
    char room[16];                 /* the played room */
} world;

/* ============================================================ running */

typedef struct run_result {
    int status;                    /* exit status, or 128 + signal */
    char err[4096];                /* stderr, cut to fit */
    size_t n_err_lines;
} run_result;

/* Runs mentat with args (NULL-terminated), stdout to out_path. */
static int run_to(run_result *r, const char *out_path, const char *const *args)
{
    r->status = test_spawn(mentat_bin, out_path, ERR_FILE, args);
    FILE *f = fopen(ERR_FILE, "rb");
    assert_non_null(f);
    size_t len = fread(r->err, 1, sizeof r->err - 1, f);
    fclose(f);
    r->err[len] = '\0';
    r->n_err_lines = 0;
    for (size_t i = 0; i < len; i++)
        r->n_err_lines += r->err[i] == '\n';
    return r->status;
}

#if defined(__GNUC__)
__attribute__((sentinel))
#endif
static int run(run_result *r, const char *out_path, ...)
{
    const char *args[64];
    va_list ap;
    va_start(ap, out_path);
    test_args_collect(args, 64, ap);
    va_end(ap);
    return run_to(r, out_path, args);
}

#define EXPECT(status, r, out, ...)                                                \
    do {                                                                           \
        int got_ = run((r), (out), __VA_ARGS__, (const char *)NULL);               \
        if (got_ != (status))                                                      \
            print_error("exit %d, expected %d; stderr: %s\n", got_, (status),      \
                        (r)->err);                                                 \
        assert_int_equal(got_, (status));                                          \
    } while (0)

/* ====================================================== the directory */

static int is_ours(const char *name)
{
    return strcmp(name, ERR_FILE) == 0 || strcmp(name, OUT_FILE) == 0;
}

static void digest_tree(crypto_generichash_state *h, const char *dir)
{
    struct dirent **names = NULL;
    int n = scandir(dir, &names, NULL, alphasort);
    assert_true(n >= 0);
    for (int i = 0; i < n; i++) {
        const char *name = names[i]->d_name;
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/%s", dir, name);
        struct stat st;
        if (strcmp(name, ".") != 0 && strcmp(name, "..") != 0 && !is_ours(name) &&
            lstat(path, &st) == 0) {
            crypto_generichash_update(h, (const uint8_t *)path, strlen(path) + 1);
            size_t nl = strlen(name);
            int is_lock = nl > 5 && strcmp(name + nl - 5, "-lock") == 0;
            if (S_ISDIR(st.st_mode)) {
                digest_tree(h, path);
            } else if (S_ISREG(st.st_mode) && !is_lock) {
                size_t len;
                char *bytes = test_slurp(path, &len);
                crypto_generichash_update(h, (const uint8_t *)bytes, len);
                free(bytes);
            }
        }
        free(names[i]);
    }
    free(names);
}

/* BLAKE2b of the working directory: names, and bytes but of lock files. */
static void dir_digest(uint8_t out[32])
{
    crypto_generichash_state h;
    crypto_generichash_init(&h, NULL, 0, 32);
    digest_tree(&h, ".");
    crypto_generichash_final(&h, out, 32);
}

static void write_file(const char *path, const void *bytes, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(bytes, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
}

/* ============================================================ fixture */

static int setup(void **state)
{
    world *w = calloc(1, sizeof *w);
    assert_non_null(w);
    assert_int_equal(test_tmpdir_enter(w->dir, w->old_cwd, "mentat-safety"), 0);
    run_result r;
    EXPECT(0, &r, "/dev/null", "keygen");
    EXPECT(0, &r, OUT_FILE, "room", "create", "--players", "2", "--factions", PAIR, "--rules",
           "basic");
    size_t len;
    char *code = test_slurp(OUT_FILE, &len);
    assert_true(len >= 8);
    memcpy(w->room, code, 8);
    free(code);
    EXPECT(0, &r, "/dev/null", "play", w->room, "--seed", "3", "--max-actions", "6");
    *state = w;
    return 0;
}

static int teardown(void **state)
{
    world *w = *state;
    assert_int_equal(test_tmpdir_leave(w->dir, w->old_cwd), 0);
    free(w);
    return 0;
}

/* ============================================================== cases */

static void test_safety__outputs_never_replace_what_they_must_not(void **state)
{
    world *w = *state;
    run_result r;
    uint8_t before[32], after[32];
    assert_int_equal(mkdir("adir", 0755), 0);
    assert_int_equal(symlink("mentat.db", "alink"), 0);
    dir_digest(before);
    static const char *const targets[] = {
        "mentat.db", "mentat.db-lock", "mentat.keys/signing.key", "mentat.keys/new",
        "adir", "alink", "/dev/full", "/dev/null",
    };
    for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++) {
        EXPECT(2, &r, "/dev/null", "render", w->room, "--out", targets[i]);
        assert_int_equal(r.n_err_lines, 1);
        EXPECT(2, &r, "/dev/null", "backup", w->room, "--out", targets[i]);
        assert_int_equal(r.n_err_lines, 1);
        EXPECT(2, &r, "/dev/null", "backup", w->room, "--out", targets[i], "--force");
        dir_digest(after);
        assert_memory_equal(before, after, 32);
    }
    /* a directory holding the live ledger is no backup directory */
    EXPECT(2, &r, "/dev/null", "backup", "--all", "--out", ".");
    dir_digest(after);
    assert_memory_equal(before, after, 32);

    /* another ledger: only with --force, and then it is an archive */
    size_t len;
    char *bytes = test_slurp("mentat.db", &len);
    write_file("other.db", bytes, len);
    free(bytes);
    EXPECT(2, &r, "/dev/null", "backup", w->room, "--out", "other.db");
    assert_non_null(strstr(r.err, "--force"));
    EXPECT(0, &r, "/dev/null", "backup", w->room, "--out", "other.db", "--force");
    EXPECT(0, &r, "/dev/null", "--db", "fresh.db", "restore", "other.db");

    /* an ordinary file is replaced whole, with nothing left beside it */
    EXPECT(0, &r, "/dev/null", "render", w->room, "--out", "board.svg");
    EXPECT(0, &r, "/dev/null", "render", w->room, "--out", "board.svg", "--public");
    DIR *d = opendir(".");
    assert_non_null(d);
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        assert_null(strstr(e->d_name, ".board.svg."));
    closedir(d);
}

static void test_safety__damaged_files_are_refused_never_crash(void **state)
{
    world *w = *state;
    run_result r;
    size_t len;
    char *bytes = test_slurp("mentat.db", &len);
    write_file("t.db", bytes, 8192);       /* head -c 8192 */
    static const char *const cmds[][6] = {
        {"room", "list", NULL}, {"log", "ROOM", NULL}, {"state", "ROOM", "--json", NULL},
        {"verify", "--all", NULL}, {"backup", "ROOM", "--out", "x.arch", NULL},
        {"doctor", NULL},
    };
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        const char *args[10] = {"--db", "t.db"};
        size_t n = 2;
        for (size_t k = 0; cmds[i][k] != NULL; k++)
            args[n++] = strcmp(cmds[i][k], "ROOM") == 0 ? w->room : cmds[i][k];
        args[n] = NULL;
        run_to(&r, OUT_FILE, args);
        if (r.status != 1)
            print_error("%s: exit %d: %s\n", cmds[i][0], r.status, r.err);
        assert_int_equal(r.status, 1);
        char *out = test_slurp(OUT_FILE, NULL); /* doctor reports on stdout */
        assert_true(strstr(r.err, "truncated") != NULL || strstr(out, "truncated") != NULL);
        free(out);
    }
    assert_int_equal(access("x.arch", F_OK), -1);

    /* single-byte changes: never a crash or a hang; what verifies reads
     * back exactly as before */
    EXPECT(0, &r, OUT_FILE, "log", w->room, "--json");
    size_t base_len;
    char *base_log = test_slurp(OUT_FILE, &base_len);
    uint64_t prng = 15;
    unsigned n_trials = 40, n_refused = 0;
    for (unsigned t = 0; t < n_trials; t++) {
        char *copy = malloc(len);
        assert_non_null(copy);
        memcpy(copy, bytes, len);
        size_t at = test_prng_below(&prng, (uint32_t)len);
        copy[at] = (char)((uint8_t)copy[at] ^ (uint8_t)(1u + test_prng_below(&prng, 255)));
        unlink("f.db-lock");
        write_file("f.db", copy, len);
        free(copy);
        run(&r, "/dev/null", "--db", "f.db", "verify", "--all", (const char *)NULL);
        assert_true(r.status == 0 || r.status == 1);
        int verified = r.status == 0;
        run(&r, OUT_FILE, "--db", "f.db", "log", w->room, "--json", (const char *)NULL);
        assert_true(r.status <= 2);
        if (verified && r.status == 0) {
            size_t l;
            char *log = test_slurp(OUT_FILE, &l);
            assert_int_equal(l, base_len);
            assert_memory_equal(log, base_log, l);
            free(log);
        }
        n_refused += !verified;
        run(&r, "/dev/null", "--db", "f.db", "doctor", (const char *)NULL);
        assert_true(r.status == 0 || r.status == 1);
        assert_int_equal(r.status, verified ? 0 : 1);
    }
    print_message("flips: %u trials, %u found damaged, 0 crashes\n", n_trials, n_refused);
    free(base_log);
    free(bytes);
}

/* A stored ledger with one byte changed in a page of one room's events,
 * where LMDB's cursor faults (SIGSEGV) on reading it: a reader reports
 * damage, doctor saves the two other rooms. */
static void test_safety__a_fault_inside_lmdb_is_damage(void **state)
{
    (void)state;
    run_result r;
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/tests/fixtures/damaged/segv-in-lmdb.db",
             ((world *)*state)->old_cwd);
    size_t len;
    char *bytes = test_slurp(path, &len);
    write_file("segv.db", bytes, len);
    free(bytes);
    EXPECT(1, &r, "/dev/null", "--db", "segv.db", "verify", "--all");
    assert_int_equal(r.n_err_lines, 1);
    assert_non_null(strstr(r.err, "is damaged: reading it stopped on SIGSEGV"));
    EXPECT(1, &r, OUT_FILE, "--db", "segv.db", "doctor", "--out", "saved");
    char *out = test_slurp(OUT_FILE, NULL);
    assert_non_null(strstr(out, "1 of 3 rooms damaged, 2 exportable"));
    free(out);
    EXPECT(0, &r, "/dev/null", "--db", "saved.db", "restore", "--all", "saved", "--trust-keys");
    EXPECT(0, &r, OUT_FILE, "--db", "saved.db", "verify", "--all");
    out = test_slurp(OUT_FILE, NULL);
    assert_non_null(strstr(out, "all 2 rooms ok"));
    free(out);
}

static void test_safety__a_failing_command_creates_nothing(void **state)
{
    (void)state;
    run_result r;
    uint8_t before[32], after[32];
    assert_int_equal(mkdir("empty", 0755), 0);
    assert_int_equal(chdir("empty"), 0);
    write_file("junk.mentat-archive", "junk", 4);
    write_file("e.db", "", 0);
    dir_digest(before);
    EXPECT(2, &r, "/dev/null", "room", "create", "--players", "2", "--factions", PAIR,
           "--rules", "basic");
    EXPECT(2, &r, "/dev/null", "games", "--players", "2", "--rules", "basic");
    EXPECT(2, &r, "/dev/null", "restore", "/dev/null");
    EXPECT(2, &r, "/dev/null", "restore", "junk.mentat-archive");
    EXPECT(2, &r, "/dev/null", "--keys", "../mentat.keys", "restore", "junk.mentat-archive");
    EXPECT(2, &r, "/dev/null", "--keys", "../mentat.keys", "restore", "--all", ".");
    EXPECT(2, &r, "/dev/null", "--keys", "../mentat.keys", "act", "ABCDEFGH", "--seat", "1",
           "--version", "0", "--action", "{\"kind\":\"storm_dial\",\"value\":3}");
    EXPECT(2, &r, "/dev/null", "--db", "e.db", "--keys", "../mentat.keys", "act", "ABCDEFGH",
           "--seat", "1", "--version", "0", "--action", "{\"kind\":\"storm_dial\",\"value\":3}");
    assert_non_null(strstr(r.err, "empty"));
    dir_digest(after);
    assert_memory_equal(before, after, 32);
    /* and one that succeeds leaves exactly a ledger and its lock file */
    EXPECT(0, &r, "/dev/null", "--keys", "../mentat.keys", "room", "create", "--players", "2",
           "--factions", PAIR, "--rules", "basic");
    size_t n = 0;
    DIR *d = opendir(".");
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        n += e->d_name[0] != '.' || is_ours(e->d_name);
    closedir(d);
    /* junk, e.db, mentat.db and our stderr file: the lock file it was made
     * with stayed with its temporary name */
    assert_int_equal(n, 4);
    assert_int_equal(chdir(".."), 0);
}

static void test_safety__output_write_errors_fail(void **state)
{
    world *w = *state;
    run_result r;
    EXPECT(2, &r, "/dev/full", "room", "list");
    assert_non_null(strstr(r.err, "cannot write standard output"));
    EXPECT(2, &r, "/dev/full", "log", w->room, "--json");
    EXPECT(2, &r, "/dev/full", "state", w->room, "--json");
    EXPECT(2, &r, "/dev/full", "verify", "--all");
    EXPECT(2, &r, "/dev/full", "replay", w->room, "--to", "2");
    EXPECT(2, &r, "/dev/full", "diff", w->room, "1", "3");
    EXPECT(2, &r, "/dev/full", "render", w->room, "--out", "-");
    /* told once, in one line */
    assert_int_equal(r.n_err_lines, 1);
    assert_non_null(strstr(r.err, "the disk is full"));
    EXPECT(2, &r, "/dev/full", "--help");
}

static void test_safety__receipt_files_are_read_strictly(void **state)
{
    world *w = *state;
    run_result r;
    char zeros[100000];
    memset(zeros, 0, sizeof zeros);
    write_file("nul.jsonl", zeros, sizeof zeros);
    EXPECT(2, &r, "/dev/null", "verify", w->room, "--receipts", "nul.jsonl");
    assert_int_equal(r.n_err_lines, 1);
    assert_non_null(strstr(r.err, "NUL"));
    time_t t0 = time(NULL);
    EXPECT(2, &r, "/dev/null", "verify", w->room, "--receipts", "/dev/zero");
    assert_true(time(NULL) - t0 < 10);
    char line[5000];
    memset(line, ' ', sizeof line);
    line[sizeof line - 1] = '\n';
    write_file("long.jsonl", line, sizeof line);
    EXPECT(2, &r, "/dev/null", "verify", w->room, "--receipts", "long.jsonl");
    assert_non_null(strstr(r.err, "line 1"));
    write_file("skip.jsonl", "# none\n\n  \n", 11);
    EXPECT(0, &r, "/dev/null", "verify", w->room, "--receipts", "skip.jsonl");
}

static void test_safety__key_files_open_to_others(void **state)
{
    world *w = *state;
    run_result r;
    assert_int_equal(chmod("mentat.keys/signing.key", 0644), 0);
    EXPECT(2, &r, "/dev/null", "room", "create", "--players", "2", "--factions", PAIR,
           "--rules", "basic");
    assert_non_null(strstr(r.err, "open to other users"));
    EXPECT(0, &r, "/dev/null", "verify", w->room);
    assert_non_null(strstr(r.err, "warning"));
    assert_int_equal(chmod("mentat.keys/signing.key", 0600), 0);
    assert_int_equal(chmod("mentat.keys/audit.key", 0640), 0);
    EXPECT(0, &r, "/dev/null", "verify", w->room);
    assert_non_null(strstr(r.err, "audit key"));
    assert_int_equal(chmod("mentat.keys/audit.key", 0600), 0);
    EXPECT(0, &r, "/dev/null", "verify", w->room);
    assert_int_equal(r.err[0], '\0');
    /* keygen into an existing open directory makes it private */
    assert_int_equal(mkdir("k2", 0755), 0);
    assert_int_equal(chmod("k2", 0755), 0);
    EXPECT(0, &r, "/dev/null", "--keys", "k2", "keygen");
    struct stat st;
    assert_int_equal(stat("k2", &st), 0);
    assert_int_equal(st.st_mode & 0777, 0700);
}

/* The opening deck order of the one room of a games run into db. */
static char *opening_of(const char *db, const char *seed)
{
    run_result r;
    if (seed != NULL)
        EXPECT(0, &r, "/dev/null", "--db", db, "games", "--players", "2", "--rules", "basic",
               "--turns", "1", "--seed", seed);
    else
        EXPECT(0, &r, "/dev/null", "--db", db, "games", "--players", "2", "--rules", "basic",
               "--turns", "1");
    EXPECT(0, &r, OUT_FILE, "--db", db, "room", "list", "--json");
    char *list = test_slurp(OUT_FILE, NULL);
    char *at = strstr(list, "\"room\":\"");
    assert_non_null(at);
    char room[9];
    memcpy(room, at + 8, 8);
    room[8] = '\0';
    free(list);
    EXPECT(0, &r, OUT_FILE, "--db", db, "state", room, "--at", "0", "--json");
    char *state = test_slurp(OUT_FILE, NULL);
    char *deck = strstr(state, "\"treachery_deck_order\"");
    assert_non_null(deck);
    char *copy = strndup(deck, 400);
    free(state);
    return copy;
}

static void test_safety__room_seeds_come_from_the_system(void **state)
{
    (void)state;
    char *a = opening_of("s1.db", "5"), *b = opening_of("s2.db", "5");
    assert_string_equal(a, b);                /* --seed: reproducible */
    char *c = opening_of("r1.db", NULL), *d = opening_of("r2.db", NULL);
    assert_string_not_equal(c, d);            /* otherwise the CSPRNG's */
    assert_string_not_equal(a, c);
    free(a);
    free(b);
    free(c);
    free(d);
}

static void test_safety__restore_all_reports_each_archive(void **state)
{
    (void)state;
    run_result r;
    EXPECT(0, &r, "/dev/null", "room", "create", "--players", "2", "--factions", PAIR,
           "--rules", "basic");
    EXPECT(0, &r, "/dev/null", "backup", "--all", "--out", "bk");
    write_file("bk/ZZZZZZZZ.mentat-archive", "damaged", 7);
    EXPECT(1, &r, OUT_FILE, "--db", "r.db", "--json", "restore", "--all", "bk");
    char *out = test_slurp(OUT_FILE, NULL);
    assert_non_null(strstr(out, "\"n_restored\":2"));
    assert_non_null(strstr(out, "\"file\":\"ZZZZZZZZ.mentat-archive\",\"ok\":false"));
    free(out);
    EXPECT(0, &r, "/dev/null", "--db", "r.db", "verify", "--all");
    unlink("bk/ZZZZZZZZ.mentat-archive");
    EXPECT(0, &r, OUT_FILE, "--db", "r2.db", "restore", "--all", "bk");
    out = test_slurp(OUT_FILE, NULL);
    assert_non_null(strstr(out, "2 of 2 archives restored"));
    free(out);
    EXPECT(2, &r, "/dev/null", "--db", "r3.db", "restore", "--all", "mentat.db");
    EXPECT(2, &r, "/dev/null", "--db", "r3.db", "restore", "bk");
    assert_int_equal(access("r3.db", F_OK), -1);
}

static void test_safety__doctor_says_what_can_be_saved(void **state)
{
    world *w = *state;
    run_result r;
    EXPECT(0, &r, OUT_FILE, "doctor");
    char *out = test_slurp(OUT_FILE, NULL);
    assert_non_null(strstr(out, "0 of 1 rooms damaged, 1 exportable"));
    free(out);
    EXPECT(0, &r, "/dev/null", "doctor", "--out", "saved");
    char path[64];
    snprintf(path, sizeof path, "saved/%s.mentat-archive", w->room);
    assert_int_equal(access(path, F_OK), 0);
    EXPECT(0, &r, "/dev/null", "--db", "back.db", "restore", "--all", "saved");
    EXPECT(0, &r, "/dev/null", "--db", "back.db", "verify", "--all");
    size_t len;
    char *bytes = test_slurp("mentat.db", &len);
    write_file("t.db", bytes, len / 2);
    free(bytes);
    EXPECT(1, &r, OUT_FILE, "--db", "t.db", "--json", "doctor");
    out = test_slurp(OUT_FILE, NULL);
    assert_non_null(strstr(out, "truncated"));
    assert_non_null(strstr(out, "\"ok\":false"));
    free(out);
}

/* Every subcommand given bad input: exit 2, one line, nothing written. */
static void test_safety__bad_input_battery(void **state)
{
    world *w = *state;
    char big[70000];
    memset(big, 'a', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    char big_kind[sizeof big + 32];
    snprintf(big_kind, sizeof big_kind, "{\"kind\":\"%s\"}", big);
    write_file("scn.json", "{\"position\": [", 14);
    const char *R = w->room;
    const char *const cases[][12] = {
        {"act", NULL},
        {"act", R, "--seat", "99", "--version", "0", "--action", "{\"kind\":\"storm_dial\",\"value\":1}", NULL},
        {"act", R, "--seat", "1", "--version", "99999999999999999999", "--action", "{}", NULL},
        {"act", R, "--seat", "1", "--version", "0", "--action", "{\"kind\":\"\xff\xfe\"}", NULL},
        {"act", R, "--seat", "1", "--version", "0", "--action", big_kind, NULL},
        {"act", R, "--seat", "1", "--version", "0", "--action",
         "{\"kind\":\"storm_dial\",\"value\":99999999999999999999999}", NULL},
        {"log", R, "--from", "-1", NULL},
        {"log", R, "--from", "18446744073709551616", NULL},
        {"log", "NOSUCHRM", NULL},
        {"log", "\xff\xfe", NULL},
        {"log", big, NULL},
        {"log", R, "--seat", "1", "--public", NULL},
        {"log", "--no-such-option", NULL},
        {"state", R, "--at", "abc", NULL},
        {"state", R, "--at", "4294967296", NULL},
        {"state", R, "--seat", "nobody", NULL},
        {"replay", R, "--to", "x", NULL},
        {"diff", R, NULL},
        {"render", R, NULL},
        {"render", R, "--out", "x.svg", "--size", "99999999999", NULL},
        {"room", "create", "--players", "7", NULL},
        {"room", "create", "--players", "2", "--factions", "atreides,\xff", "--rules", "basic", NULL},
        {"room", "create", "--players", "2", "--factions", PAIR, "--rules", "basic", "--turns", "999", NULL},
        {"room", "bogus", NULL},
        {"verify", "--all", "--receipts", "no-such-file", NULL},
        {"verify", R, "--threads", "99", NULL},
        {"verify", R, "--receipt", "{\"room\":1}", NULL},
        {"audit", "NOSUCHRM", NULL},
        {"backup", R, NULL},
        {"backup", "--all", R, "--out", "d", NULL},
        {"restore", NULL},
        {"restore", "no-such-file", NULL},
        {"restore", ".", NULL},
        {"restore", "--all", "mentat.db", NULL},
        {"reveal", "NOSUCHRM", NULL},
        {"games", "--players", "2", "--rules", "basic", "--games", "0", NULL},
        {"games", "--players", "2", "--rules", "basic", "--seed", "-5", NULL},
        {"games", "--players", "2", "--rules", "basic", "--seed", "184467440737095516160", NULL},
        {"games", "--players", "99", "--rules", "basic", NULL},
        {"play", R, "--max-actions", "x", NULL},
        {"scenario", "no-such.json", NULL},
        {"scenario", "scn.json", NULL},
        {"scenario", "mentat.db", NULL},
        {"doctor", "--out", "mentat.db", NULL},
        {"key", "rotate", "extra", NULL},
        {"tournament", "--games", "0", NULL},
        {"tournament", "--games", "2", "--levels", "easy,hard", "--rules", "expert", NULL},
        {"no-such-command", NULL},
        {"--db", "mentat.db-lock", "room", "list", NULL},
        {"--db", "mentat.keys/signing.key", "log", R, NULL},
        {"--db", ".", "room", "list", NULL},
        {"--db", "/dev/null", "verify", "--all", NULL},
    };
    uint8_t before[32], after[32];
    dir_digest(before);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        run_result r;
        run_to(&r, "/dev/null", cases[i]);
        if (r.status != 2 || r.n_err_lines != 1)
            print_error("case %zu (%s %s): exit %d, %zu lines: %.300s\n", i, cases[i][0],
                        cases[i][1] != NULL ? cases[i][1] : "", r.status, r.n_err_lines,
                        r.err);
        assert_int_equal(r.status, 2);
        assert_int_equal(r.n_err_lines, 1);
        dir_digest(after);
        if (memcmp(before, after, 32) != 0)
            print_error("case %zu (%s) changed the directory\n", i, cases[i][0]);
        assert_memory_equal(before, after, 32);
    }
}

int main(int argc, char **argv)
{
    (void)argc;
    if (sodium_init() < 0 || test_find_mentat(mentat_bin, argv[0], "test_safety") != 0)
        return 1;
    /* Under the sanitizers a fault must still reach the command's parent
     * as the signal it is, not as the sanitizer's report and exit. */
    setenv("ASAN_OPTIONS", "handle_segv=0:handle_sigbus=0:handle_abort=0", 1);
    setenv("UBSAN_OPTIONS", "handle_segv=0:handle_sigbus=0", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_safety__outputs_never_replace_what_they_must_not,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_safety__damaged_files_are_refused_never_crash,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_safety__a_fault_inside_lmdb_is_damage, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_safety__a_failing_command_creates_nothing, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_safety__output_write_errors_fail, setup, teardown),
        cmocka_unit_test_setup_teardown(test_safety__receipt_files_are_read_strictly, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_safety__key_files_open_to_others, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_safety__room_seeds_come_from_the_system, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_safety__restore_all_reports_each_archive, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_safety__doctor_says_what_can_be_saved, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_safety__bad_input_battery, setup, teardown),
    };
    return cmocka_run_group_tests_name("tools_safety", tests, NULL, NULL);
}
