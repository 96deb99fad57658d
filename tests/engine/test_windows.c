/*
 * test_windows.c - a window added in one file is opened, asked, answered
 * and closed by the generic `answer` action (rules version 6;
 * docs/ARCHITECTURE.md "Generic window answers"). This file defines the
 * Emperor and Harkonnen families itself, so the linker takes them instead
 * of engine/powers_emperor.c and engine/powers_harkonnen.c: in this
 * binary the Emperor have one made-up power and the Harkonnen one made-up
 * window, and neither any of their real rows.
 *
 * The made-up rule, "the Emperor's levy": the Emperor, on the generic
 * `power` action, levy 1 or 2 spice on the Harkonnen, which opens the
 * window "levy" over the step, asking the Harkonnen alone. They answer
 * with `answer`: pay, or defy (an advantage a Karama may cancel: the levy
 * is then paid anyway), and burn a tithe of 1 or 2 spice whose size is
 * secret. The Harkonnen borrow the advantage of their free card (H1),
 * whose real row this binary does not link. The same rows drive the
 * legal families, the handler, the Karama window nested over the levy,
 * the state encoding, the wire, the action JSON, the log, the state
 * JSON's families and a bot's default, through a real ledger that
 * verifies.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tests/engine/generic.h"
#include "tools/internal.h"

static const uint8_t SEED[ENGINE_SEED_BYTES] = {11};

#define DEFIANCE ENGINE_ADVANTAGE_HARKONNEN_FREE_CARD

/* ===================================================== the made-up rows */

/* The levy is asked of the Harkonnen seat (there is at most one). */
static uint16_t harkonnen_bit(const engine_state *st)
{
    int h = engine__seat_of(st, ENGINE_FACTION_HARKONNEN);
    return (uint16_t)(h < 0 ? 0u : 1u << h);
}

static engine_verdict levy(engine_verdict_detail *why, engine_state *st, unsigned owner,
                           const engine_action *act, engine_rng *rng)
{
    (void)why;
    (void)rng;
    uint16_t asked = harkonnen_bit(st);
    engine__window_open(st, engine_window_id("levy"), owner,
                        engine__lowest_seat(asked), act, asked);
    return ENGINE_ACCEPTED;
}

static const engine_power_form levy_form = {
    .slug = "emperor_levy",
    .n_args = 1,
    .arg_name = {"spice"},
    .arg_type = {ENGINE_ARG_INT},
    .lo = {1},
    .hi = {2},
    .fallback = {1},
};

/* An answer that defies is held first in a Karama window (the defiance is
 * the advantage); every other answer stands as it is. */
static engine_verdict levy_answer(engine_verdict_detail *why, engine_state *st, engine_frame *f,
                                  const engine_action *act, engine_rng *rng)
{
    (void)why;
    (void)f;
    (void)rng;
    if (act->arg[1] == 1)
        engine__karama_hold(st, act, ENGINE_ADVANTAGE_BIT(DEFIANCE), act->seat);
    return ENGINE_ACCEPTED;
}

/* The window closed: the tithe burns; the levy is paid to the Emperor
 * unless the Harkonnen defied and no Karama cancelled it; what a seat
 * does not hold it does not pay. */
static void levy_close(engine_state *st, const engine_frame *f, const engine_action *answer,
                       engine_rng *rng)
{
    (void)rng;
    unsigned h = answer->seat, e = f->owner;
    int cancelled = engine__karama_consume(st, DEFIANCE);
    unsigned tithe = (unsigned)answer->arg[2];
    if (tithe > st->seat[h].spice)
        tithe = st->seat[h].spice;
    st->seat[h].spice = (uint16_t)(st->seat[h].spice - tithe);
    st->spice_burned += tithe;
    if (answer->arg[1] == 1 && !cancelled)
        return;
    unsigned due = (unsigned)f->held.arg[1];
    if (due > st->seat[h].spice)
        due = st->seat[h].spice;
    st->seat[h].spice = (uint16_t)(st->seat[h].spice - due);
    st->seat[e].spice = (uint16_t)(st->seat[e].spice + due);
}

static const engine_power_form levy_answer_form = {
    .slug = "levy",
    .n_args = 2,
    .arg_name = {"defy", "tithe"},
    .arg_type = {ENGINE_ARG_INT, ENGINE_ARG_INT},
    .lo = {0, 1},
    .hi = {1, 2},
    .fallback = {0, 1},
    .secret_args = 0x02, /* tithe */
};

static const engine__power_row emperor_rows[] = {
    {.point = ENGINE__POINT_POWER, .faction = ENGINE_FACTION_EMPEROR, .to = ENGINE__TO_OWNER,
     .since = ENGINE__RULE_SINCE(ENGINE__RULE_GENERIC_WINDOWS), .source = "(made up)",
     .form = &levy_form, .use = levy},
};
const engine__power_family engine__powers_emperor = {emperor_rows,
                                                     sizeof emperor_rows / sizeof emperor_rows[0]};

static const engine__power_row harkonnen_rows[] = {
    {.point = ENGINE__POINT_WINDOW, .faction = ENGINE_FACTION_HARKONNEN, .to = ENGINE__TO_OWNER,
     .advantage = DEFIANCE, .karama = ENGINE__KARAMA_STANDING, .source = "(made up)",
     .form = &levy_answer_form, .answer = levy_answer, .close = levy_close},
};
const engine__power_family engine__powers_harkonnen = {
    harkonnen_rows, sizeof harkonnen_rows / sizeof harkonnen_rows[0]};

/* ============================================================ helpers */

enum { EMPEROR_SEAT = GENERIC_EMPEROR_SEAT, HARKONNEN_SEAT = GENERIC_HARKONNEN_SEAT };

/* Emperor and Harkonnen with 10 spice each, the Emperor holding a
 * Karama, in the Emperor's MOVE step. */
static void position_at(engine_state *st, unsigned rules_version)
{
    generic_position(st, rules_version, EMPEROR_SEAT, SEED);
    for (uint8_t s = 0; s < 2; s++)
        assert_int_equal(engine_position_seat_spice(st, s, 10), 0);
    assert_true(engine_position_give_card(st, EMPEROR_SEAT, ENGINE_CARD_KARAMA) >= 0);
}

static engine_action generic(unsigned kind, unsigned seat, int id, int a1, int a2)
{
    engine_action a;
    memset(&a, 0, sizeof a);
    a.kind = (uint8_t)kind;
    a.seat = (uint8_t)seat;
    a.arg[0] = (int16_t)id;
    a.arg[1] = (int16_t)a1;
    a.arg[2] = (int16_t)a2;
    return a;
}

static engine_action levy_action(unsigned seat, int spice)
{
    return generic(ENGINE_ACTION_POWER, seat, engine_power_id("emperor_levy"), spice, 0);
}

static engine_action answer_action(unsigned seat, int defy, int tithe)
{
    return generic(ENGINE_ACTION_ANSWER, seat, engine_window_id("levy"), defy, tithe);
}

static engine_verdict apply_why(engine_state *st, const engine_action *a, engine_verdict_detail *why)
{
    engine_rng rng;
    engine_rng_init(&rng, SEED, 3);
    return engine_apply(why, st, a, &rng);
}

static void accept(engine_state *st, const engine_action *a)
{
    engine_verdict_detail why;
    engine_verdict v = apply_why(st, a, &why);
    if (v != ENGINE_ACCEPTED)
        fail_msg("refused: %s (arg %d)", engine_verdict_name(v), why.arg);
    assert_int_equal(engine_state_check(st), 0);
}

/* The families of `seat`'s answer to the levy, or NULL. */
static const engine_legal *answer_family(engine_legal *legal, size_t cap, const engine_state *st,
                                         unsigned seat)
{
    size_t n = engine_legal_actions(legal, cap, st, (uint8_t)seat);
    assert_true(n <= cap);
    for (size_t i = 0; i < n; i++)
        if (legal[i].kind == ENGINE_ACTION_ANSWER)
            return &legal[i];
    return NULL;
}

/* The state decodes from its encoding to the same bytes. */
static void round_trip(const engine_state *st)
{
    static uint8_t buf[ENGINE_STATE_ENCODED_MAX], again[ENGINE_STATE_ENCODED_MAX];
    static engine_state back;
    size_t len = engine_state_encode(buf, sizeof buf, st);
    assert_true(len > 0 && len <= sizeof buf);
    assert_int_equal(engine_state_decode(&back, buf, len), 0);
    assert_int_equal(back.n_frames, st->n_frames);
    for (unsigned i = 0; i < st->n_frames; i++) {
        assert_int_equal(back.frame[i].point, st->frame[i].point);
        assert_int_equal(back.frame[i].window, st->frame[i].window);
        assert_int_equal(back.frame[i].asked, st->frame[i].asked);
    }
    assert_int_equal(engine_state_encode(again, sizeof again, &back), len);
    assert_memory_equal(buf, again, len);
}

/* ============================================================== tests */

/* The levy opens the window; the Harkonnen alone are asked and offered
 * the row's family; every refusal leaves the state as it was; the answer
 * closes the window and the step below goes on. */
static void test_windows__opened_answered_refused(void **state)
{
    (void)state;
    engine_legal legal[512];
    engine_verdict_detail why;
    static engine_state st, before;
    int id = engine_window_from_slug("levy");
    assert_int_equal(id, engine_window_id("levy"));
    assert_int_equal(engine_window_from_slug("levee"), -1);
    assert_ptr_equal(engine_window_form_of(id), &levy_answer_form);
    assert_int_equal(engine_power_from_slug("levy"), -1); /* names of its own */

    position_at(&st, ENGINE_RULES_VERSION);
    engine_action lv = levy_action(EMPEROR_SEAT, 2);
    accept(&st, &lv);
    const engine_frame *f = engine_window_top(&st);
    assert_non_null(f);
    assert_int_equal(f->point, ENGINE_WINDOW_GENERIC);
    assert_int_equal(f->window, id);
    assert_int_equal(f->owner, EMPEROR_SEAT);
    assert_int_equal(f->held.kind, ENGINE_ACTION_POWER);
    assert_int_equal(engine_state_awaiting(&st), 1u << HARKONNEN_SEAT);
    assert_int_equal(st.step, SHIP_STEP_MOVE); /* the step below is untouched */
    round_trip(&st);

    /* offered to the seat asked, from the row's form, and to no one else */
    const engine_legal *l = answer_family(legal, 512, &st, HARKONNEN_SEAT);
    assert_non_null(l);
    assert_int_equal(l->lo[0], id);
    assert_int_equal(l->hi[0], id);
    assert_int_equal(l->lo[1], 0);
    assert_int_equal(l->hi[1], 1);
    assert_int_equal(l->lo[2], 1);
    assert_int_equal(l->hi[2], 2);
    assert_int_equal(engine_legal_actions(legal, 512, &st, EMPEROR_SEAT), 0);

    /* refusals */
    before = st;
    engine_action a = answer_action(EMPEROR_SEAT, 0, 1); /* a seat not asked */
    assert_int_equal(apply_why(&st, &a, &why), ENGINE_REJECT_NOT_AWAITED);
    a = answer_action(HARKONNEN_SEAT, 0, 1); /* a wrong window id */
    a.arg[0] = (int16_t)(id == 1 ? 2 : id - 1);
    assert_int_equal(apply_why(&st, &a, &why), ENGINE_REJECT_ARG_OUT_OF_RANGE);
    assert_int_equal(why.arg, 0);
    a = answer_action(HARKONNEN_SEAT, 0, 3); /* out of the form's range */
    assert_int_equal(apply_why(&st, &a, &why), ENGINE_REJECT_ARG_OUT_OF_RANGE);
    assert_int_equal(why.arg, 2);
    a = answer_action(HARKONNEN_SEAT, 2, 1);
    assert_int_equal(apply_why(&st, &a, &why), ENGINE_REJECT_ARG_OUT_OF_RANGE);
    assert_int_equal(why.arg, 1);
    a = answer_action(HARKONNEN_SEAT, 0, 1); /* an argument the form does not declare */
    a.arg[3] = 1;
    assert_int_equal(apply_why(&st, &a, &why), ENGINE_REJECT_ARG_OUT_OF_RANGE);
    assert_int_equal(why.arg, 3);
    a = generic(ENGINE_ACTION_MOVE_PASS, EMPEROR_SEAT, 0, 0, 0); /* the step waits */
    assert_int_not_equal(apply_why(&st, &a, &why), ENGINE_ACCEPTED);
    a = levy_action(EMPEROR_SEAT, 1); /* no side action over this window */
    assert_int_not_equal(apply_why(&st, &a, &why), ENGINE_ACCEPTED);
    assert_memory_equal(&before, &st, sizeof st);

    /* the answer the family holds: paid, the tithe burned, the step back */
    a = answer_action(HARKONNEN_SEAT, 0, 2);
    assert_true(engine_legal_contains(l, &a));
    accept(&st, &a);
    assert_int_equal(st.n_frames, 0);
    assert_int_equal(st.seat[HARKONNEN_SEAT].spice, 10 - 2 - 2);
    assert_int_equal(st.seat[EMPEROR_SEAT].spice, 10 + 2);
    assert_int_equal(st.spice_burned, before.spice_burned + 2);
    assert_int_equal(engine_state_awaiting(&st), 1u << EMPEROR_SEAT);
    assert_int_equal(st.step, SHIP_STEP_MOVE);

    /* rules version 5: the kind did not exist (nor the power opening it) */
    position_at(&st, 5);
    before = st;
    a = answer_action(HARKONNEN_SEAT, 0, 1);
    assert_int_equal(apply_why(&st, &a, &why), ENGINE_REJECT_UNKNOWN_KIND);
    a = levy_action(EMPEROR_SEAT, 1);
    assert_int_equal(apply_why(&st, &a, &why), ENGINE_REJECT_NOT_YOUR_POWER);
    assert_memory_equal(&before, &st, sizeof st);
}

/* Defiance is an advantage: a Karama window stands over the levy, holding
 * the answer. Allowed, the defiance stands (nothing is paid); cancelled,
 * the answer stands without it (the levy is paid) and the card is gone. */
static void test_windows__nested_under_a_karama(void **state)
{
    (void)state;
    engine_legal legal[512];
    static engine_state st, allowed;
    position_at(&st, ENGINE_RULES_VERSION);
    engine_action lv = levy_action(EMPEROR_SEAT, 2);
    accept(&st, &lv);
    engine_action defy = answer_action(HARKONNEN_SEAT, 1, 1);
    accept(&st, &defy);
    assert_int_equal(st.n_frames, 2);
    const engine_frame *k = engine_window_top(&st);
    assert_int_equal(k->point, ENGINE_WINDOW_KARAMA);
    assert_int_equal(k->held.kind, ENGINE_ACTION_ANSWER);
    assert_int_equal(k->rows, ENGINE_ADVANTAGE_BIT(DEFIANCE));
    assert_int_equal(st.frame[0].point, ENGINE_WINDOW_GENERIC);
    assert_int_equal(st.frame[0].answered, 0); /* answered once the Karama window closes */
    assert_int_equal(engine_state_awaiting(&st), 1u << EMPEROR_SEAT);
    assert_int_equal(st.seat[HARKONNEN_SEAT].spice, 10); /* nothing done yet */
    assert_null(answer_family(legal, 512, &st, HARKONNEN_SEAT));
    round_trip(&st);

    allowed = st;
    engine_action allow = generic(ENGINE_ACTION_KARAMA_ALLOW, EMPEROR_SEAT, 0, 0, 0);
    accept(&allowed, &allow);
    assert_int_equal(allowed.n_frames, 0);
    assert_int_equal(allowed.seat[HARKONNEN_SEAT].spice, 10 - 1);
    assert_int_equal(allowed.seat[EMPEROR_SEAT].spice, 10);
    assert_int_equal(engine_state_awaiting(&allowed), 1u << EMPEROR_SEAT);

    engine_action cancel = generic(ENGINE_ACTION_KARAMA_CANCEL, EMPEROR_SEAT, DEFIANCE, 0, 0);
    accept(&st, &cancel);
    assert_int_equal(st.n_frames, 0);
    assert_int_equal(st.n_effects, 0); /* the cancellation was used up */
    assert_int_equal(st.seat[HARKONNEN_SEAT].spice, 10 - 1 - 2);
    assert_int_equal(st.seat[EMPEROR_SEAT].spice, 10 + 2);
    assert_int_equal(engine__card_in_hand(&st, EMPEROR_SEAT, ENGINE_CARD_KARAMA), 0xFF);
    assert_int_equal(engine_state_awaiting(&st), 1u << EMPEROR_SEAT);
}

/* The wire, the action JSON, the log, the state JSON and a bot all read
 * the answer from its row. */
static void test_windows__told_from_the_row(void **state)
{
    (void)state;
    engine_action a = answer_action(HARKONNEN_SEAT, 0, 2), b;
    char err[256], json[256];
    uint8_t wire[64];
    size_t len, len2;

    /* the wire: round trip, and a secret argument's size tells nothing */
    assert_int_equal(codec_action_encode(wire, sizeof wire, &len, &a), 0);
    assert_int_equal(codec_action_decode(&b, wire, len, err), 0);
    b.seat = a.seat; /* the event carries the seat */
    assert_memory_equal(&a, &b, sizeof a);
    engine_action a1 = answer_action(HARKONNEN_SEAT, 0, 1);
    assert_int_equal(codec_action_encode(wire, sizeof wire, &len2, &a1), 0);
    assert_int_equal(len, len2);

    assert_int_equal(codec_action_to_json(json, sizeof json, &a), 0);
    assert_string_equal(json, "{\"kind\":\"answer\",\"window\":\"levy\",\"defy\":0,\"tithe\":2}");
    assert_int_equal(codec_action_from_json(&b, json, strlen(json), err), 0);
    b.seat = a.seat;
    assert_memory_equal(&a, &b, sizeof a);
    static const struct {
        const char *json, *err;
    } bad[] = {
        {"{\"kind\":\"answer\",\"defy\":0,\"tithe\":2}", "missing field \"window\""},
        {"{\"kind\":\"answer\",\"window\":\"levee\",\"tithe\":2}", "unknown window \"levee\""},
        {"{\"kind\":\"answer\",\"window\":\"levy\",\"defy\":0,\"tithe\":2,\"spice\":1}",
         "unknown field \"spice\""},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = '\0';
        assert_int_not_equal(codec_action_from_json(&b, bad[i].json, strlen(bad[i].json), err), 0);
        assert_non_null(strstr(err, bad[i].err));
    }

    /* the log: the tithe is the Harkonnen's alone */
    static engine_state st, after, vb, va;
    position_at(&st, ENGINE_RULES_VERSION);
    engine_action lv = levy_action(EMPEROR_SEAT, 1);
    accept(&st, &lv);
    after = st;
    accept(&after, &a);
    inspect_log_line line;
    engine_view(&vb, &st, HARKONNEN_SEAT);
    engine_view(&va, &after, HARKONNEN_SEAT);
    inspect_log_describe(&line, &vb, &va, &a, 9, HARKONNEN_SEAT);
    assert_non_null(strstr(line.text, "answered levy (defy 0, tithe 2)"));
    engine_view(&vb, &st, EMPEROR_SEAT);
    engine_view(&va, &after, EMPEROR_SEAT);
    inspect_log_describe(&line, &vb, &va, &a, 9, EMPEROR_SEAT);
    assert_non_null(strstr(line.text, "answered levy (defy 0, tithe secret)"));
    assert_int_equal(line.action.arg[2], INSPECT_ARG_HIDDEN);
    assert_int_equal(engine_action_secret_args(&a), 0x04);

    /* the state JSON: the family, named by its window, with an example
     * `act` reads back and the family holds */
    engine_legal legal[512];
    const engine_legal *l = answer_family(legal, 512, &st, HARKONNEN_SEAT);
    assert_non_null(l);
    generic_family_json(&st, l, "answer", "levy");

    /* a bot at any level answers with the row's default, which is legal */
    assert_int_equal(bot__decision_of(ENGINE_ACTION_ANSWER), BOT__GENERIC);
    /* the levy (the Emperor's) and its window (the Harkonnen's), the
     * families this test links */
    assert_int_equal(generic_rows_defaulted_in(engine__power_families[ENGINE_FACTION_EMPEROR]) +
                         generic_rows_defaulted_in(engine__power_families[ENGINE_FACTION_HARKONNEN]),
                     2);
    assert_true(generic_rows_defaulted() >= 2);
    for (unsigned level = 0; level < BOT_LEVEL_COUNT; level++) {
        static bot_input in;
        bot *bt = NULL;
        assert_int_equal(bot_new(&bt, HARKONNEN_SEAT, (bot_level)level, 7), 0);
        bot_input_build(&in, &st, HARKONNEN_SEAT, 9, 0);
        engine_action d;
        assert_int_equal(bot_decide(&d, bt, &in), BOT_OK);
        assert_int_equal(d.kind, ENGINE_ACTION_ANSWER);
        assert_int_equal(d.arg[1], 0);
        assert_int_equal(d.arg[2], 1);
        bot_free(bt);
    }
}

/* Through a real ledger: a genuine six-seat room played to the first
 * moment the Emperor may levy; the levy and its answer are appended,
 * signed and chained like any event, a seat not asked is refused with
 * nothing appended, and the room verifies (re-folded to every digest). */
static void test_windows__in_the_ledger(void **state)
{
    (void)state;
    fixture *fx = fixture_new(2);
    char room[SCHEMA_ROOM_CHARS + 1];
    room_new(fx->db, room);
    static engine_state st;
    uint32_t head = 0;
    unsigned emperor = generic_play_until(&st, &head, fx->db, room, ENGINE_FACTION_EMPEROR,
                                          ENGINE_ACTION_POWER, engine_power_id("emperor_levy"));
    unsigned h = (unsigned)engine__seat_of(&st, ENGINE_FACTION_HARKONNEN);
    ledger_append_result res;
    engine_action lv = levy_action(emperor, 2);
    assert_int_equal(ledger_append(fx->db, &res, room, head, &lv), 0);
    assert_int_equal(res.verdict, ENGINE_ACCEPTED);
    assert_int_equal(ledger_state_at(fx->db, &st, room, head + 1), 0);
    assert_non_null(engine_window_find(&st, ENGINE_WINDOW_GENERIC));
    unsigned spice = st.seat[h].spice;

    engine_action wrong = answer_action((h + 1) % st.config.n_seats, 0, 1);
    assert_int_equal(ledger_append(fx->db, &res, room, head + 1, &wrong), 0);
    assert_int_equal(res.verdict, ENGINE_REJECT_NOT_AWAITED);
    engine_action a = answer_action(h, 0, 1);
    assert_int_equal(ledger_append(fx->db, &res, room, head + 1, &a), 0);
    assert_int_equal(res.verdict, ENGINE_ACCEPTED);
    assert_int_equal(ledger_state_at(fx->db, &st, room, head + 2), 0);
    assert_null(engine_window_find(&st, ENGINE_WINDOW_GENERIC));
    unsigned paid = spice < 3 ? spice : 3;
    assert_int_equal(st.seat[h].spice, spice - paid);
    uint32_t after = 0;
    assert_int_equal(ledger_head(fx->db, room, &after, NULL), 0);
    assert_int_equal(after, head + 2);
    assert_int_equal(verify_ok(fx->db, room), 0);
    fixture_free(fx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_windows__opened_answered_refused),
        cmocka_unit_test(test_windows__nested_under_a_karama),
        cmocka_unit_test(test_windows__told_from_the_row),
        cmocka_unit_test(test_windows__in_the_ledger),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
