/*
 * test_rooms.c - rooms played by earlier builds replay forever: every
 * revealed archive in tests/fixtures/rooms/ (manifest.json) is restored by
 * the real binary into a fresh ledger with fresh keys (--trust-keys),
 * verified with every event re-folded, and its head state digest and head
 * event hash must be the manifest's. Every rules version stored is folded,
 * version 1 included (engine/rules_v1.c): none is skipped in silence.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "tests/support/support.h"

#define MANIFEST "tests/fixtures/rooms/manifest.json"
#define MIN_ROOMS 18               /* five each of versions 4, 3 and 2, three of version 1 */

static char mentat_bin[PATH_MAX];
static char fixtures[PATH_MAX];    /* absolute tests/fixtures/rooms */

/* One manifest row. */
typedef struct room_row {
    char file[64];
    char room[16];
    unsigned rules_version;
    unsigned events;
    char head_state_digest[65];
    char head_event_hash[65];
} room_row;

/* The string value of "key" in the one-line object at row, into out. */
static void field_string(char *out, size_t cap, const char *row, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\": \"", key);
    const char *p = strstr(row, pat);
    assert_non_null(p);
    p += strlen(pat);
    const char *end = strchr(p, '"');
    assert_non_null(end);
    assert_true((size_t)(end - p) < cap);
    memcpy(out, p, (size_t)(end - p));
    out[end - p] = '\0';
}

static unsigned field_number(const char *row, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\": ", key);
    const char *p = strstr(row, pat);
    assert_non_null(p);
    return (unsigned)strtoul(p + strlen(pat), NULL, 10);
}

/* The manifest's rows (one room object per line) into rows[0..cap). */
static size_t manifest_read(room_row *rows, size_t cap)
{
    char *text = test_slurp(MANIFEST, NULL);
    size_t n = 0;
    for (char *line = strstr(text, "{\"file\""); line != NULL;
         line = strstr(line + 1, "{\"file\"")) {
        char *eol = strchr(line, '\n');
        if (eol != NULL)
            *eol = '\0';
        assert_true(n < cap);
        room_row *r = &rows[n++];
        field_string(r->file, sizeof r->file, line, "file");
        field_string(r->room, sizeof r->room, line, "room");
        r->rules_version = field_number(line, "rules_version");
        r->events = field_number(line, "events");
        field_string(r->head_state_digest, sizeof r->head_state_digest, line,
                     "head_state_digest");
        field_string(r->head_event_hash, sizeof r->head_event_hash, line, "head_event_hash");
        if (eol != NULL)
            *eol = '\n';
    }
    free(text);
    return n;
}

/* The value of the last "key":"..." in json, into out (65 bytes). */
static void last_hex(char out[65], const char *json, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":\"", key);
    const char *last = NULL;
    for (const char *p = strstr(json, pat); p != NULL; p = strstr(p + 1, pat))
        last = p;
    assert_non_null(last);
    last += strlen(pat);
    assert_true(strlen(last) > 64 && last[64] == '"');
    memcpy(out, last, 64);
    out[64] = '\0';
}

static int run(test_run_result *r, const char *dir, const char *const *args)
{
    char out[PATH_MAX], err[PATH_MAX];
    snprintf(out, sizeof out, "%.*s/out", PATH_MAX - 8, dir);
    snprintf(err, sizeof err, "%.*s/err", PATH_MAX - 8, dir);
    return test_run_argv(r, mentat_bin, out, err, args);
}

/* Restores one room into a fresh ledger under dir and checks it. */
static void room_check(const room_row *row, const char *dir)
{
    char archive[PATH_MAX], db[PATH_MAX], keys[PATH_MAX], n_events[32];
    int len = snprintf(archive, sizeof archive, "%s/%s", fixtures, row->file);
    assert_true(len > 0 && (size_t)len < sizeof archive);
    snprintf(db, sizeof db, "%.*s/%s.db", PATH_MAX - 40, dir, row->room);
    snprintf(keys, sizeof keys, "%.*s/%s.keys", PATH_MAX - 40, dir, row->room);
    snprintf(n_events, sizeof n_events, "\"n_events\":%u", row->events);
    test_run_result r;

    const char *keygen[] = {"--db", db, "--keys", keys, "keygen", NULL};
    assert_int_equal(run(&r, dir, keygen), 0);
    test_run_free(&r);

    /* every version stored is folded, version 1 too (engine/rules_v1.c) */
    if (!engine_rules_version_is_folded(row->rules_version))
        fail_msg("%s: rules version %u is not folded by this build (%u to %u)", row->file,
                 row->rules_version, ENGINE_RULES_VERSION_MIN, ENGINE_RULES_VERSION);
    const char *restore[] = {"--db", db, "--keys", keys, "restore", "--trust-keys", archive,
                             NULL};
    int status = run(&r, dir, restore);
    if (status != 0)
        fail_msg("%s: restore exit %d: %s", row->file, status, r.err);
    test_run_free(&r);

    const char *verify[] = {"--db", db, "--keys", keys, "--json", "verify", row->room, NULL};
    status = run(&r, dir, verify);
    if (status != 0 || strstr(r.out, "\"ok\":true,") == NULL ||
        strstr(r.out, "\"refolded\":true") == NULL || strstr(r.out, n_events) == NULL)
        fail_msg("%s: verify exit %d: %s%s", row->file, status, r.out, r.err);
    test_run_free(&r);

    /* verify re-folded every event and found each stored digest equal to
     * its re-fold: the head's is then the re-folded head state. */
    const char *log[] = {"--db", db, "--keys", keys, "--json", "log", row->room, NULL};
    assert_int_equal(run(&r, dir, log), 0);
    char digest[65], hash[65];
    last_hex(digest, r.out, "state_digest");
    last_hex(hash, r.out, "event_hash");
    if (strcmp(digest, row->head_state_digest) != 0 || strcmp(hash, row->head_event_hash) != 0)
        fail_msg("%s: head digest %s hash %s, the manifest says %s and %s", row->file, digest,
                 hash, row->head_state_digest, row->head_event_hash);
    test_run_free(&r);
}

static void test_rooms__every_stored_room_replays_to_its_digest(void **state)
{
    (void)state;
    room_row rows[64];
    size_t n = manifest_read(rows, sizeof rows / sizeof rows[0]);
    assert_true(n >= MIN_ROOMS);
    unsigned of_version[ENGINE_RULES_VERSION + 1] = {0};
    char dir[PATH_MAX], old_cwd[PATH_MAX];
    assert_non_null(realpath("tests/fixtures/rooms", fixtures));
    assert_int_equal(test_tmpdir_enter(dir, old_cwd, "mentat-rooms"), 0);
    for (size_t i = 0; i < n; i++) {
        room_check(&rows[i], dir);
        if (rows[i].rules_version <= ENGINE_RULES_VERSION)
            of_version[rows[i].rules_version]++;
    }
    assert_int_equal(test_tmpdir_leave(dir, old_cwd), 0);
    /* a stored room of every version this build folds, the newest too */
    for (unsigned v = ENGINE_RULES_VERSION_MIN; v <= ENGINE_RULES_VERSION; v++)
        if (of_version[v] == 0)
            fail_msg("no stored room of rules version %u in %s", v, MANIFEST);
}

int main(int argc, char **argv)
{
    (void)argc;
    if (test_find_mentat(mentat_bin, argv[0], "test_rooms") != 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rooms__every_stored_room_replays_to_its_digest),
    };
    return cmocka_run_group_tests_name("rooms", tests, NULL, NULL);
}
