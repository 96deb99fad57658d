/*
 * test_state.c - `mentat state` views end to end: a room is played a few
 * steps with `mentat play`, then the auditor's full state, one seat's view
 * and the public view are printed by the real binary (fork/exec, in a
 * temporary directory) and compared: a seat sees its own card faces and
 * not the others' (which the auditor names), the public sees no face at
 * all, and a seat's view lists what it is asked to decide.
 *
 * The binary is $MENTAT_BIN, else the `mentat` of the build this suite was
 * built in (<build>/tests/tools/test_state -> <build>/mentat).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine/engine.h"
#include "schema/schema.h"
#include "tools/internal.h"
#include "tests/support/support.h"

#define SIX_FACTIONS "atreides,bene_gesserit,emperor,fremen,harkonnen,guild"
#define MAX_TOKENS 32768

static char mentat_bin[PATH_MAX];

typedef struct fixture {
    char dir[PATH_MAX];            /* the temporary directory, cwd of every run */
    char old_cwd[PATH_MAX];
    char room[SCHEMA_ROOM_CHARS + 1]; /* the room played */
} fixture;

/* ============================================================ running */

typedef test_run_result run_result;

#if defined(__GNUC__)
__attribute__((sentinel))
#endif
static int run(run_result *r, ...)
{
    const char *args[32];
    int n = 0;
    va_list ap;
    va_start(ap, r);
    for (;;) {
        const char *a = va_arg(ap, const char *);
        assert_true(n < 31);
        args[n++] = a;
        if (a == NULL)
            break;
    }
    va_end(ap);
    return test_run_argv(r, mentat_bin, ".out", ".err", args);
}

#define EXPECT(status, r, ...)                                                     \
    do {                                                                           \
        int got_ = run((r), __VA_ARGS__, (const char *)NULL);                      \
        if (got_ != (status))                                                      \
            print_error("exit %d, expected %d\nstdout: %s\nstderr: %s\n", got_,    \
                        (status), (r)->out, (r)->err);                             \
        assert_int_equal(got_, (status));                                          \
    } while (0)

/* ============================================================== JSON */

typedef struct doc {
    run_result r;                  /* the command's output */
    codec_json_token *tok;         /* its tokens */
} doc;

static void doc_load(doc *d)
{
    char err[SCHEMA_ERRMSG] = "";
    d->tok = malloc(MAX_TOKENS * sizeof *d->tok);
    assert_non_null(d->tok);
    int n = codec_json_parse(d->tok, MAX_TOKENS, d->r.out, strlen(d->r.out), err);
    if (n <= 0)
        print_error("not JSON (%s): %s\n", err, d->r.out);
    assert_true(n > 0);
}

static void doc_free(doc *d)
{
    free(d->tok);
    test_run_free(&d->r);
}

static int member(const doc *d, int obj, const char *key)
{
    int i = codec_json_member(d->tok, obj, d->r.out, key);
    if (i < 0)
        print_error("no \"%s\" in %.400s\n", key, d->r.out);
    assert_true(i >= 0);
    return i;
}

/* Element k of array token a. */
static int element(const doc *d, int a, unsigned k)
{
    assert_int_equal(d->tok[a].type, CODEC_JSON_ARRAY);
    assert_true(k < d->tok[a].size);
    uint32_t e = (uint32_t)a + 1;
    while (k-- > 0)
        e = d->tok[e].next;
    return (int)e;
}

static int64_t int_of(const doc *d, int t)
{
    int64_t v = 0;
    assert_int_equal(codec_json_int(&v, &d->tok[t], d->r.out), 0);
    return v;
}

/* The seat object of seat s (1-based). */
static int seat_obj(const doc *d, unsigned s)
{
    int seats = member(d, 0, "seats");
    int o = element(d, seats, s - 1);
    assert_int_equal(int_of(d, member(d, o, "seat")), s);
    return o;
}

/* ============================================================ fixture */

static int setup(void **state)
{
    fixture *fx = calloc(1, sizeof *fx);
    if (fx == NULL || test_tmpdir_enter(fx->dir, fx->old_cwd, "mentat-state") != 0)
        return -1;
    unsetenv(TOOL_KEYS_ENV);
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

/* Keys, a six-seat Basic room, and `steps` random legal actions. */
static void played_room(fixture *fx, const char *steps)
{
    run_result r;
    EXPECT(0, &r, "keygen");
    test_run_free(&r);
    EXPECT(0, &r, "room", "create", "--players", "6", "--rules", "basic", "--factions",
           SIX_FACTIONS);
    assert_int_equal(strlen(r.out), SCHEMA_ROOM_CHARS + 1);
    memcpy(fx->room, r.out, SCHEMA_ROOM_CHARS);
    fx->room[SCHEMA_ROOM_CHARS] = '\0';
    test_run_free(&r);
    EXPECT(0, &r, "play", fx->room, "--seed", "7", "--max-actions", steps);
    test_run_free(&r);
}

/* The auditor's state of the room as JSON in *full, the first seat it
 * awaits in *asked; returns the "awaiting" token. */
static int full_state_load(doc *full, const fixture *fx, unsigned *asked)
{
    EXPECT(0, &full->r, "state", fx->room, "--json");
    doc_load(full);
    int awaiting = member(full, 0, "awaiting");
    assert_true(full->tok[awaiting].size > 0);
    *asked = (unsigned)int_of(full, element(full, awaiting, 0));
    return awaiting;
}

/* ============================================================== cases */

/* A seat's view names its own cards and not the others', which the
 * auditor's full state names; traitors likewise. The seat is the Emperor
 * (seat 3): the Atreides see every card put up for auction, so their view
 * rightly names cards others bought. */
static void test_state__seat_sees_own_hand_only(void **state)
{
    fixture *fx = *state;
    played_room(fx, "30");
    doc full, view;
    EXPECT(0, &full.r, "state", fx->room, "--json");
    doc_load(&full);
    EXPECT(0, &view.r, "state", fx->room, "--seat", "3", "--json");
    doc_load(&view);
    doc pub;
    EXPECT(0, &pub.r, "state", fx->room, "--public", "--json");
    doc_load(&pub);

    char s[64];
    assert_int_equal(codec_json_string(s, sizeof s, &view.tok[member(&view, 0, "view")],
                                       view.r.out), 0);
    assert_string_equal(s, "seat");
    assert_int_equal(int_of(&view, member(&view, 0, "viewer")), 3);
    assert_int_equal(full.tok[member(&full, 0, "viewer")].type, CODEC_JSON_NULL);

    unsigned others_named = 0;
    for (unsigned seat = 1; seat <= 6; seat++) {
        int fh = member(&full, seat_obj(&full, seat), "hand");
        int vh = member(&view, seat_obj(&view, seat), "hand");
        assert_int_equal(full.tok[fh].size, view.tok[vh].size); /* hand sizes are public */
        for (unsigned k = 0; k < full.tok[fh].size; k++) {
            int fc = element(&full, fh, k), vc = element(&view, vh, k);
            assert_int_equal(full.tok[fc].type, CODEC_JSON_STRING); /* the auditor sees all */
            if (seat == 3) {
                char a[64], b[64];
                assert_int_equal(view.tok[vc].type, CODEC_JSON_STRING);
                assert_int_equal(codec_json_string(a, sizeof a, &full.tok[fc], full.r.out), 0);
                assert_int_equal(codec_json_string(b, sizeof b, &view.tok[vc], view.r.out), 0);
                assert_string_equal(a, b);
            } else {
                /* Nothing in this short game shows the Emperor another's
                 * card but what every spectator sees too (a Karama shown
                 * for a bid beyond one's spice). */
                int pc = element(&pub, member(&pub, seat_obj(&pub, seat), "hand"), k);
                assert_int_equal(view.tok[vc].type, pub.tok[pc].type);
                if (view.tok[vc].type == CODEC_JSON_NULL)
                    others_named++;
            }
        }
        int vt = member(&view, seat_obj(&view, seat), "traitors");
        int ft = member(&full, seat_obj(&full, seat), "traitors");
        assert_int_equal(full.tok[ft].type, CODEC_JSON_ARRAY);
        if (seat == 3)
            assert_int_equal(view.tok[vt].type, CODEC_JSON_ARRAY);
        else
            assert_int_equal(view.tok[vt].type, CODEC_JSON_NULL);
    }
    assert_true(others_named > 0); /* every seat holds a starting card */
    /* Deck orders: the auditor's are named, the seat's are not. */
    int fdeck = member(&full, 0, "spice_deck_order"), vdeck = member(&view, 0, "spice_deck_order");
    assert_true(full.tok[fdeck].size > 0);
    assert_int_equal(full.tok[element(&full, fdeck, 0)].type, CODEC_JSON_STRING);
    assert_int_equal(view.tok[element(&view, vdeck, 0)].type, CODEC_JSON_NULL);
    /* The prediction is the Bene Gesserit's (seat 2), hidden from seat 3. */
    assert_int_equal(full.tok[member(&full, 0, "prediction")].type, CODEC_JSON_OBJECT);
    assert_int_equal(view.tok[member(&view, 0, "prediction")].type, CODEC_JSON_NULL);
    doc bg;
    EXPECT(0, &bg.r, "state", fx->room, "--seat", "bene_gesserit", "--json");
    doc_load(&bg);
    assert_int_equal(bg.tok[member(&bg, 0, "prediction")].type, CODEC_JSON_OBJECT);
    doc_free(&bg);
    doc_free(&full);
    doc_free(&view);
    doc_free(&pub);
}

/* The public view names no card in any hand but one shown to all (a Karama
 * shown for a bid beyond one's spice, which every seat's view names too),
 * no traitor, no prediction. */
static void test_state__public_names_no_hand_card(void **state)
{
    fixture *fx = *state;
    played_room(fx, "30");
    doc pub;
    EXPECT(0, &pub.r, "state", fx->room, "--public", "--json");
    doc_load(&pub);
    unsigned named = 0;
    for (unsigned seat = 1; seat <= 6; seat++) {
        int o = seat_obj(&pub, seat);
        int h = member(&pub, o, "hand");
        for (unsigned k = 0; k < pub.tok[h].size; k++) {
            int c = element(&pub, h, k);
            if (pub.tok[c].type == CODEC_JSON_NULL)
                continue;
            /* A face the public sees, every seat sees. */
            char face[64], seen[64];
            assert_int_equal(codec_json_string(face, sizeof face, &pub.tok[c], pub.r.out), 0);
            for (unsigned viewer = 1; viewer <= 6; viewer++) {
                doc v;
                char who[4];
                snprintf(who, sizeof who, "%u", viewer);
                EXPECT(0, &v.r, "state", fx->room, "--seat", who, "--json");
                doc_load(&v);
                int vc = element(&v, member(&v, seat_obj(&v, seat), "hand"), k);
                assert_int_equal(codec_json_string(seen, sizeof seen, &v.tok[vc], v.r.out), 0);
                assert_string_equal(face, seen);
                doc_free(&v);
            }
            named++;
        }
        assert_int_equal(pub.tok[member(&pub, o, "traitors")].type, CODEC_JSON_NULL);
    }
    assert_int_equal(pub.tok[member(&pub, 0, "prediction")].type, CODEC_JSON_NULL);
    assert_int_equal(pub.tok[member(&pub, 0, "legal")].type, CODEC_JSON_NULL);
    assert_int_equal(pub.tok[member(&pub, 0, "awaiting")].type, CODEC_JSON_ARRAY);
    doc_free(&pub);

    /* Text: hand lines show "?" for every face but the ones named above,
     * and the end says whom the game waits on. */
    run_result r;
    EXPECT(0, &r, "state", fx->room, "--public");
    assert_non_null(strstr(r.out, "public view"));
    assert_non_null(strstr(r.out, "the game waits on"));
    for (const char *line = r.out; line != NULL && *line != '\0';) {
        const char *end = strchr(line, '\n');
        size_t len = end != NULL ? (size_t)(end - line) : strlen(line);
        if (len > 8 && strncmp(line, "  hand: ", 8) == 0) {
            const char *colon = memchr(line + 8, ':', len - 8);
            if (colon != NULL)
                for (const char *c = colon + 1; c < line + len; c++)
                    if (*c != ' ' && *c != ',' && *c != '?') {
                        assert_true(named > 0);
                        named--; /* one named face: skip past its "(#n)" */
                        const char *close = memchr(c, ')', (size_t)(line + len - c));
                        assert_non_null(close);
                        c = close;
                    }
        }
        line = end != NULL ? end + 1 : NULL;
    }
    test_run_free(&r);
}

/* A seat the game waits on sees its legal families: kind and, per argument,
 * name, lo and hi; a seat not awaited has nothing to decide. */
static void test_state__seat_sees_its_legal_families(void **state)
{
    fixture *fx = *state;
    played_room(fx, "25");
    doc full;
    unsigned asked;
    int awaiting = full_state_load(&full, fx, &asked);
    unsigned idle = 0;
    for (unsigned s = 1; s <= 6 && idle == 0; s++) {
        int waiting = 0;
        for (unsigned k = 0; k < full.tok[awaiting].size; k++)
            waiting |= int_of(&full, element(&full, awaiting, k)) == s;
        if (!waiting)
            idle = s;
    }
    doc_free(&full);

    char seat[8];
    snprintf(seat, sizeof seat, "%u", asked);
    doc view;
    EXPECT(0, &view.r, "state", fx->room, "--seat", seat, "--json");
    doc_load(&view);
    int legal = member(&view, 0, "legal");
    assert_int_equal(view.tok[legal].type, CODEC_JSON_ARRAY);
    assert_true(view.tok[legal].size > 0);
    for (unsigned k = 0; k < view.tok[legal].size; k++) {
        int fam = element(&view, legal, k);
        char kind[64];
        assert_int_equal(codec_json_string(kind, sizeof kind, &view.tok[member(&view, fam, "kind")],
                                           view.r.out), 0);
        assert_int_not_equal(engine_action_kind_from_name(kind), ENGINE_ACTION_NONE);
        assert_int_equal(int_of(&view, member(&view, fam, "seat")), asked);
        int args = member(&view, fam, "args");
        const engine_action_spec *spec = engine_action_spec_of(engine_action_kind_from_name(kind));
        /* every argument of the kind, but its optional trailing ones that
         * the family does not give (engine_legal_n_given: a karama_policy
         * of a Basic room names no Advanced advantage) */
        assert_true(view.tok[args].size >= (unsigned)(spec->n_args - spec->n_optional) &&
                    view.tok[args].size <= spec->n_args);
        for (unsigned a = 0; a < view.tok[args].size; a++) {
            int arg = element(&view, args, a);
            assert_true(view.r.out[0] != '\0');
            assert_true(codec_json_eq(&view.tok[member(&view, arg, "name")], view.r.out,
                                      spec->arg_name[a]));
            assert_true(int_of(&view, member(&view, arg, "lo")) <=
                        int_of(&view, member(&view, arg, "hi")));
        }
    }
    doc_free(&view);

    run_result r;
    EXPECT(0, &r, "state", fx->room, "--seat", seat);
    assert_non_null(strstr(r.out, "is asked to decide"));
    test_run_free(&r);
    if (idle != 0) {
        snprintf(seat, sizeof seat, "%u", idle);
        EXPECT(0, &r, "state", fx->room, "--seat", seat);
        assert_non_null(strstr(r.out, "has nothing to decide"));
        test_run_free(&r);
    }
}

/* The example printed with each legal family is accepted by `mentat act`
 * as printed: 30 steps, each pasting the example of a different family
 * (k-th family at step k, wrapping) of the first seat awaited. */
static void test_state__printed_examples_are_accepted(void **state)
{
    fixture *fx = *state;
    played_room(fx, "0");
    for (unsigned step = 0; step < 30; step++) {
        doc full;
        unsigned asked;
        (void)full_state_load(&full, fx, &asked);
        unsigned version = (unsigned)int_of(&full, member(&full, 0, "version"));
        doc_free(&full);
        char seat[8], ver[16];
        snprintf(seat, sizeof seat, "%u", asked);
        snprintf(ver, sizeof ver, "%u", version);
        doc view;
        EXPECT(0, &view.r, "state", fx->room, "--seat", seat, "--json");
        doc_load(&view);
        int legal = member(&view, 0, "legal");
        assert_true(view.tok[legal].size > 0);
        int fam = element(&view, legal, step % view.tok[legal].size);
        int ex = member(&view, fam, "example");
        assert_int_equal(view.tok[ex].type, CODEC_JSON_OBJECT);
        char action[1024];
        size_t len = view.tok[ex].end - view.tok[ex].start;
        assert_true(len < sizeof action);
        memcpy(action, view.r.out + view.tok[ex].start, len);
        action[len] = '\0';
        doc_free(&view);
        /* The text form prints the very same example. */
        run_result r;
        EXPECT(0, &r, "state", fx->room, "--seat", seat);
        char line[1100];
        snprintf(line, sizeof line, "    e.g. %s\n", action);
        assert_non_null(strstr(r.out, line));
        test_run_free(&r);
        EXPECT(0, &r, "act", fx->room, "--seat", seat, "--version", ver, "--action", action);
        test_run_free(&r);
    }
}

static void test_state__bad_viewers_exit_2(void **state)
{
    fixture *fx = *state;
    played_room(fx, "3");
    run_result r;
    EXPECT(2, &r, "state", fx->room, "--seat", "7");
    assert_non_null(strstr(r.err, "--seat"));
    test_run_free(&r);
    EXPECT(2, &r, "state", fx->room, "--seat", "ixians");
    test_run_free(&r);
    EXPECT(2, &r, "state", fx->room, "--seat", "1", "--public");
    assert_non_null(strstr(r.err, "exclude"));
    test_run_free(&r);
    EXPECT(0, &r, "state", fx->room, "--seat", "guild", "--at", "0");
    assert_non_null(strstr(r.out, "view of seat 6 guild"));
    test_run_free(&r);
    EXPECT(0, &r, "state", "--help");
    assert_non_null(strstr(r.out, "--public"));
    test_run_free(&r);
}

/* ================================================================ main */

static int find_binary(const char *argv0)
{
    return test_find_mentat(mentat_bin, argv0, "test_state");
}

int main(int argc, char **argv)
{
    (void)argc;
    if (find_binary(argv[0]) != 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_state__seat_sees_own_hand_only, setup, teardown),
        cmocka_unit_test_setup_teardown(test_state__public_names_no_hand_card, setup, teardown),
        cmocka_unit_test_setup_teardown(test_state__seat_sees_its_legal_families, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_state__printed_examples_are_accepted, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_state__bad_viewers_exit_2, setup, teardown),
    };
    return cmocka_run_group_tests_name("state", tests, NULL, NULL);
}
