/*
 * test_verify.c - receipts held outside the ledger: every genuine receipt
 * of a played room verifies; a receipt whose event hash or signature was
 * tampered with, one naming a version the room does not have, and two
 * different receipts claiming one version are each caught at that exact
 * version; receipts of other rooms are left alone; receipts are read from
 * the JSON `mentat act --json` prints; and `mentat verify --receipts`
 * exits 1 naming the version.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>

#include "tests/inspect/helpers.h"
#include "tools/internal.h"

static int setup(void **state)
{
    engine_config cfg;
    test_config_six(&cfg);
    *state = ifix_new(&cfg, 0x7e1f0001u, 60, 16);
    return 0;
}

static int teardown(void **state)
{
    ifix_free(*state);
    return 0;
}

static void test_verify__genuine_receipts_hold(void **state)
{
    ifix *f = *state;
    inspect_verify_report rep;
    ifix_verify(f, &rep, f->receipt, f->head);
    if (!rep.is_ok)
        fail_msg("version %u: %s", rep.bad_version, rep.reason);
    assert_int_equal(rep.n_receipts, f->head);
    assert_int_equal(rep.n_events, f->head);
    assert_true(rep.is_refolded);
    /* A receipt repeated (a retry's original) is the same claim. */
    codec_receipt twice[2] = {f->receipt[4], f->receipt[4]};
    ifix_verify(f, &rep, twice, 2);
    assert_true(rep.is_ok);
}

static void test_verify__tampered_receipts_are_caught(void **state)
{
    ifix *f = *state;
    inspect_verify_report rep;
    codec_receipt *r = malloc(f->head * sizeof *r);
    assert_non_null(r);

    /* A flipped bit of one event hash. */
    memcpy(r, f->receipt, f->head * sizeof *r);
    r[30].event_hash[7] ^= 0x10;
    ifix_verify(f, &rep, r, f->head);
    assert_false(rep.is_ok);
    assert_true(rep.is_receipt_failure);
    assert_int_equal(rep.bad_version, 31);

    /* A flipped bit of a signature. */
    memcpy(r, f->receipt, f->head * sizeof *r);
    r[11].signature[3] ^= 0x01;
    ifix_verify(f, &rep, r, f->head);
    assert_false(rep.is_ok);
    assert_int_equal(rep.bad_version, 12);

    /* A version moved: the signature no longer covers it. */
    memcpy(r, f->receipt, f->head * sizeof *r);
    r[20].version = 22;
    ifix_verify(f, &rep, r, f->head);
    assert_false(rep.is_ok);
    assert_int_equal(rep.bad_version, 22);

    /* The first failure is the lowest version, whatever the order given. */
    memcpy(r, f->receipt, f->head * sizeof *r);
    r[40].event_hash[0] ^= 1;
    r[9].event_hash[0] ^= 1;
    ifix_verify(f, &rep, r, f->head);
    assert_int_equal(rep.bad_version, 10);
    free(r);
}

static void test_verify__a_version_claimed_twice(void **state)
{
    ifix *f = *state;
    inspect_verify_report rep;
    codec_receipt two[2] = {f->receipt[14], f->receipt[14]};
    two[1].event_hash[31] ^= 0x80;
    ifix_verify(f, &rep, two, 2);
    assert_false(rep.is_ok);
    assert_int_equal(rep.bad_version, 15);
    assert_non_null(strstr(rep.reason, "claimed by two receipts"));
}

static void test_verify__missing_version_and_other_rooms(void **state)
{
    ifix *f = *state;
    inspect_verify_report rep;
    /* A receipt naming a version the room does not have (as after a
     * rewrite that shortened the room) fails at that version. */
    codec_receipt past = f->receipt[0];
    past.version = f->head + 5;
    ifix_verify(f, &rep, &past, 1);
    assert_false(rep.is_ok);
    assert_int_equal(rep.bad_version, f->head + 5);

    codec_receipt other = f->receipt[0];
    memcpy(other.room, "ZZZZZZZZ", SCHEMA_ROOM_CHARS);
    ifix_verify(f, &rep, &other, 1);
    assert_true(rep.is_ok);
    assert_int_equal(rep.n_receipts, 0);
}

static void receipt_json(char *out, size_t cap, const codec_receipt *r)
{
    char hash[2 * SCHEMA_HASH_BYTES + 1], sig[2 * SCHEMA_SIG_BYTES + 1];
    char root[2 * SCHEMA_HASH_BYTES + 1];
    tool_hex(hash, r->event_hash, SCHEMA_HASH_BYTES);
    tool_hex(sig, r->signature, SCHEMA_SIG_BYTES);
    tool_hex(root, r->tree_root, SCHEMA_HASH_BYTES);
    assert_true(r->has_tree_head);
    snprintf(out, cap,
             "{\"verdict\":\"accepted\",\"retry\":false,\"room\":\"%s\",\"version\":%u,"
             "\"event_hash\":\"%s\",\"key_id\":%u,\"signature\":\"%s\",\"tree_root\":\"%s\","
             "\"tree_time\":%llu}",
             r->room, r->version, hash, r->key_id, sig, root,
             (unsigned long long)r->tree_time);
}

static void test_verify__receipt_json_round_trip(void **state)
{
    ifix *f = *state;
    char json[640], err[SCHEMA_ERRMSG];
    codec_receipt back;
    receipt_json(json, sizeof json, &f->receipt[2]);
    assert_int_equal(inspect_receipt_parse(&back, json, strlen(json), err), 0);
    assert_memory_equal(&back, &f->receipt[2], sizeof back);
    static const char *const bad[] = {
        "", "[]", "{\"room\":\"ABCDEFGH\"}", "{\"verdict\":\"rejected\"}",
        "{\"room\":\"ABC\",\"version\":1,\"event_hash\":\"00\",\"key_id\":1,\"signature\":\"00\"}",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(inspect_receipt_parse(&back, bad[i], strlen(bad[i]), err),
                         INSPECT_EINPUT);
    /* An unterminated object is refused too. */
    size_t n = strlen(json);
    json[n - 1] = ' ';
    assert_int_equal(inspect_receipt_parse(&back, json, n, err), INSPECT_EINPUT);
}

/* Runs `mentat verify ROOM --receipts FILE --json` with stdout in a file;
 * returns the exit status and the output in out. */
static int run_verify(ifix *f, const char *receipts_path, char *out, size_t cap)
{
    char out_path[160];
    snprintf(out_path, sizeof out_path, "%s/verify.out", f->dir);
    fflush(stdout);
    int saved = dup(STDOUT_FILENO);
    int fd = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    assert_true(saved >= 0 && fd >= 0);
    dup2(fd, STDOUT_FILENO);
    close(fd);
    tool_globals g;
    memset(&g, 0, sizeof g);
    g.db_path = f->path;
    g.keys_dir = f->keys;
    g.cmd = "verify";
    char a0[] = "verify", a2[] = "--receipts", a4[] = "--json";
    char room[SCHEMA_ROOM_CHARS + 1], path[200];
    snprintf(room, sizeof room, "%s", f->room);
    snprintf(path, sizeof path, "%s", receipts_path);
    char *argv[] = {a0, room, a2, path, a4, NULL};
    /* The ledger is open in this process: close it while the command runs. */
    ledger_close(f->db);
    f->db = NULL;
    int ex = cmd_verify(5, argv, &g);
    fflush(stdout);
    dup2(saved, STDOUT_FILENO);
    close(saved);
    ledger_options opt;
    ledger_options_init(&opt);
    opt.path = f->path;
    opt.keys_dir = f->keys;
    opt.is_unsafe_no_sync = 1;
    assert_int_equal(ledger_open(&f->db, &opt), 0);
    FILE *in = fopen(out_path, "r");
    assert_non_null(in);
    size_t n = fread(out, 1, cap - 1, in);
    out[n] = '\0';
    fclose(in);
    return ex;
}

static void test_verify__command_exits_1_at_the_version(void **state)
{
    ifix *f = *state;
    char path[160], line[640], out[4096];
    snprintf(path, sizeof path, "%s/receipts.jsonl", f->dir);
    FILE *w = fopen(path, "w");
    assert_non_null(w);
    fputs("# receipts kept by the Harkonnen\n\n", w);
    for (uint32_t v = 0; v < f->head; v++) {
        receipt_json(line, sizeof line, &f->receipt[v]);
        fprintf(w, "%s\n", line);
    }
    fclose(w);
    assert_int_equal(run_verify(f, path, out, sizeof out), TOOL_EXIT_OK);
    assert_non_null(strstr(out, "\"ok\":true"));

    codec_receipt bad = f->receipt[25];
    bad.event_hash[5] ^= 0x44;
    w = fopen(path, "a");
    assert_non_null(w);
    receipt_json(line, sizeof line, &bad);
    fprintf(w, "%s\n", line);
    fclose(w);
    assert_int_equal(run_verify(f, path, out, sizeof out), TOOL_EXIT_CHECK);
    assert_non_null(strstr(out, "\"bad_version\":26"));
    assert_non_null(strstr(out, "\"receipt\":true"));

    w = fopen(path, "a");
    assert_non_null(w);
    fputs("{not json\n", w);
    fclose(w);
    assert_int_equal(run_verify(f, path, out, sizeof out), TOOL_EXIT_USAGE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_verify__genuine_receipts_hold),
        cmocka_unit_test(test_verify__tampered_receipts_are_caught),
        cmocka_unit_test(test_verify__a_version_claimed_twice),
        cmocka_unit_test(test_verify__missing_version_and_other_rooms),
        cmocka_unit_test(test_verify__receipt_json_round_trip),
        cmocka_unit_test(test_verify__command_exits_1_at_the_version),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
