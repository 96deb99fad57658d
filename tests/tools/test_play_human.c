/*
 * test_play_human.c - `mentat play ROOM --seat S --bots LEVEL` through a
 * pipe: a person's lines on standard input play seat 1 of a six-seat
 * room to the end against bots, shown only seat 1's view; a line that is
 * no choice is asked again; the end of input stops cleanly; bad options
 * exit 2; in a room of bound seats every seat signs with its key. The
 * room then verifies.
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

#include "schema/schema.h"
#include "tests/support/support.h"

#define SIX_FACTIONS "atreides,bene_gesserit,emperor,fremen,harkonnen,guild"

static char mentat_bin[PATH_MAX];

typedef struct fixture {
    char dir[PATH_MAX];
    char old_cwd[PATH_MAX];
    char room[SCHEMA_ROOM_CHARS + 1];
} fixture;

static int run(test_run_result *r, const char *const *args)
{
    return test_run_argv(r, mentat_bin, ".out", ".err", args);
}

/* `mentat ARGS < input` with input's text on standard input. */
static int run_piped(test_run_result *r, const char *input, const char *args)
{
    FILE *f = fopen("input.txt", "w");
    assert_non_null(f);
    fputs(input, f);
    fclose(f);
    char cmd[PATH_MAX + 256];
    snprintf(cmd, sizeof cmd, "exec '%s' --keys keys %s < input.txt", mentat_bin, args);
    const char *sh[] = {"-c", cmd, NULL};
    return test_run_argv(r, (char *)"/bin/sh", ".out", ".err", sh);
}

static int setup(void **state)
{
    fixture *fx = calloc(1, sizeof *fx);
    if (fx == NULL || test_tmpdir_enter(fx->dir, fx->old_cwd, "mentat-play-human") != 0)
        return -1;
    test_run_result r;
    const char *keygen[] = {"--keys", "keys", "keygen", NULL};
    if (run(&r, keygen) != 0)
        return -1;
    test_run_free(&r);
    const char *create[] = {"--keys", "keys", "room", "create", "--players", "6", "--rules",
                            "basic", "--turns", "1", "--factions", SIX_FACTIONS, NULL};
    if (run(&r, create) != 0 || strlen(r.out) != SCHEMA_ROOM_CHARS + 1)
        return -1;
    memcpy(fx->room, r.out, SCHEMA_ROOM_CHARS);
    test_run_free(&r);
    *state = fx;
    return 0;
}

static int teardown(void **state)
{
    fixture *fx = *state;
    int rc = test_tmpdir_leave(fx->dir, fx->old_cwd);
    free(fx);
    return rc;
}

/* Empty lines take every default: the game is played to its end, seat 1
 * shown only its own view, and the room verifies. */
static void test_play_human__pipe_plays_to_the_end(void **state)
{
    fixture *fx = *state;
    char input[8192];
    memset(input, '\n', sizeof input - 1);
    input[sizeof input - 1] = '\0';
    char args[128];
    snprintf(args, sizeof args, "play %s --seat 1 --bots easy --seed 3", fx->room);
    test_run_result r;
    int status = run_piped(&r, input, args);
    if (status != 0)
        fail_msg("exit %d: %s", status, r.err);
    assert_non_null(strstr(r.out, "you are seat 1 atreides"));
    assert_non_null(strstr(r.out, "your choices:"));
    assert_non_null(strstr(r.out, "the game is over"));
    assert_non_null(strstr(r.out, "view of seat 1 atreides"));
    assert_null(strstr(r.out, "view of seat 2"));
    assert_null(strstr(r.out, "e.g. {")); /* the numbered menu, not JSON */
    /* the bots' actions between the person's choices are told, and the
     * raw karama_policy bits are not offered as a move */
    assert_non_null(strstr(r.out, "since your last choice:"));
    assert_null(strstr(r.out, ") karama_policy"));
    test_run_free(&r);
    const char *verify[] = {"--keys", "keys", "verify", fx->room, NULL};
    assert_int_equal(run(&r, verify), 0);
    test_run_free(&r);
}

/* A line that is no choice is asked again; the end of input stops. */
static void test_play_human__bad_lines_and_end_of_input(void **state)
{
    fixture *fx = *state;
    char args[128];
    snprintf(args, sizeof args, "play %s --human atreides --bots medium", fx->room);
    test_run_result r;
    assert_int_equal(run_piped(&r, "abc\n999\n1\n", args), 0);
    assert_non_null(strstr(r.out, "not a number from 1 to"));
    assert_non_null(strstr(r.out, "done: version"));
    assert_non_null(strstr(r.out, "end of input: stopped at version"));
    test_run_free(&r);
}

/* A room whose seats are bound to keys: the person and the bots each sign
 * with their seat's key (--seat-key), so every event carries its seat's
 * signature and the room verifies. */
static void test_play_human__bound_seats_sign(void **state)
{
    (void)state;
    test_run_result r;
    const char *ka[] = {"seat", "keygen", "--out", "a.seat", NULL};
    const char *kb[] = {"seat", "keygen", "--out", "b.seat", NULL};
    assert_int_equal(run(&r, ka), 0);
    test_run_free(&r);
    assert_int_equal(run(&r, kb), 0);
    test_run_free(&r);
    const char *create[] = {"--keys", "keys", "room", "create", "--players", "2", "--rules",
                            "basic", "--turns", "1", "--factions", "atreides,harkonnen",
                            "--seat-keys", "1=a.seat.pub,2=b.seat.pub", NULL};
    assert_int_equal(run(&r, create), 0);
    char room[SCHEMA_ROOM_CHARS + 1];
    assert_int_equal(strlen(r.out), SCHEMA_ROOM_CHARS + 1);
    memcpy(room, r.out, SCHEMA_ROOM_CHARS);
    room[SCHEMA_ROOM_CHARS] = '\0';
    test_run_free(&r);
    char input[4096];
    memset(input, '\n', sizeof input - 1);
    input[sizeof input - 1] = '\0';
    char args[160];
    snprintf(args, sizeof args, "play %s --seat 1 --bots easy --seed 3 --max-actions 40 "
             "--seat-key a.seat,b.seat", room);
    int status = run_piped(&r, input, args);
    if (status != 0)
        fail_msg("exit %d: %s", status, r.err);
    assert_non_null(strstr(r.out, "done: version")); /* the person acted */
    assert_non_null(strstr(r.out, "the game is over"));
    test_run_free(&r);
    const char *verify[] = {"--keys", "keys", "verify", room, NULL};
    assert_int_equal(run(&r, verify), 0);
    unsigned events = 0, signatures = 0;
    const char *ok = strstr(r.out, "ok  ");
    assert_non_null(ok);
    assert_int_equal(sscanf(ok, "ok  %u events", &events), 1);
    const char *seats = strstr(r.out, "; ");
    assert_non_null(seats);
    assert_int_equal(sscanf(seats, "; %u seat signatures", &signatures), 1);
    assert_true(events > 10);
    assert_int_equal(signatures, events);
    test_run_free(&r);
}

static void test_play_human__bad_options_exit_2(void **state)
{
    fixture *fx = *state;
    const char *bad[][8] = {
        {"--keys", "keys", "play", fx->room, "--bots", "easy", NULL},
        {"--keys", "keys", "play", fx->room, "--seat", "1", "--bots", NULL},
        {"--keys", "keys", "play", fx->room, "--seat", "7", NULL},
        {"--keys", "keys", "play", fx->room, "--seat", "1", "--human", NULL},
    };
    const char *godlike[] = {"--keys", "keys", "play", fx->room, "--seat", "1", "--bots",
                             "godlike", NULL};
    test_run_result r;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(run(&r, bad[i]), 2);
        assert_true(r.err[0] != '\0');
        test_run_free(&r);
    }
    assert_int_equal(run(&r, godlike), 2);
    assert_non_null(strstr(r.err, "--bots"));
    test_run_free(&r);
}

int main(int argc, char **argv)
{
    (void)argc;
    if (test_find_mentat(mentat_bin, argv[0], "test_play_human") != 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_play_human__pipe_plays_to_the_end, setup, teardown),
        cmocka_unit_test_setup_teardown(test_play_human__bad_lines_and_end_of_input, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_play_human__bound_seats_sign, setup, teardown),
        cmocka_unit_test_setup_teardown(test_play_human__bad_options_exit_2, setup, teardown),
    };
    return cmocka_run_group_tests_name("play_human", tests, NULL, NULL);
}
