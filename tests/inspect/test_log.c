/*
 * test_log.c - the per-seat log: over whole games, no line names a card
 * face its viewer has not seen (the public's: no hand card at all), checked
 * against the full state; the buyer hears "you bought a Lasgun for 3
 * spice" and the table "Harkonnen bought a card for 3 spice"; secret
 * arguments (dials, plans, traitor picks, the prediction) are masked and
 * change nothing in others' lines; the storm, battles and the victory are
 * told.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tests/inspect/helpers.h"

#define MAX_LINES 4000

typedef struct lines {
    inspect_log_line *line;        /* owned: line[v - 1] */
    uint32_t n;
} lines;

static int keep(void *ctx, const inspect_log_line *line)
{
    lines *l = ctx;
    assert_true(l->n < MAX_LINES);
    assert_int_equal(line->version, l->n + 1);
    l->line[l->n++] = *line;
    return 0;
}

static void walk(lines *out, ifix *f, uint8_t viewer)
{
    out->line = calloc(MAX_LINES, sizeof *out->line);
    assert_non_null(out->line);
    out->n = 0;
    int rc = inspect_log_walk(f->db, f->room, viewer, 1, 0, keep, out);
    if (rc != 0)
        fprintf(stderr, "inspect_log_walk: %d %s\n", rc, ledger_errmsg(f->db));
    assert_int_equal(rc, 0);
    assert_int_equal(out->n, f->head);
}

typedef struct game {
    ifix *f;
    lines by_viewer[ENGINE_MAX_SEATS + 1]; /* seats, then the public */
} game;

static int setup(void **state)
{
    game *g = calloc(1, sizeof *g);
    engine_config cfg;
    test_config_six(&cfg);
    g->f = ifix_new(&cfg, 0x10c0001u, 3000, 8); /* short folds: seven walks of the game */
    for (unsigned s = 0; s <= cfg.n_seats; s++)
        walk(&g->by_viewer[s], g->f, s < cfg.n_seats ? (uint8_t)s : ENGINE_VIEW_PUBLIC);
    *state = g;
    return 0;
}

static int teardown(void **state)
{
    game *g = *state;
    for (unsigned s = 0; s <= ENGINE_MAX_SEATS; s++)
        free(g->by_viewer[s].line);
    ifix_free(g->f);
    free(g);
    return 0;
}

/* The text with every territory name blanked ("Shield Wall" is no Shield,
 * "Gara Kulon" no Kulon). */
static void without_territories(char *out, size_t cap, const char *text)
{
    snprintf(out, cap, "%s", text);
    for (unsigned t = 0; t < ENGINE_TERRITORY_COUNT; t++) {
        const char *name = engine_territory_name(t);
        size_t n = strlen(name);
        for (char *p = strstr(out, name); p != NULL; p = strstr(p + n, name))
            memset(p, '#', n);
    }
}

static int knows(const engine_state *full, unsigned card, uint8_t viewer)
{
    if (full->card[card].known_by & ENGINE_KNOWN_PUBLIC)
        return 1;
    return viewer < full->config.n_seats && ((full->card[card].known_by >> viewer) & 1u);
}

/* The card an action plays openly by its very kind (a Karama card to take
 * the card up, Weather Control, ...), which every seat sees played even
 * if a reshuffle in the same fold hides the card again; else -1. */
static int openly_played(const engine_action *x)
{
    switch (x->kind) {
    case ENGINE_ACTION_KARAMA_TAKE:
    case ENGINE_ACTION_KARAMA_CANCEL:
        return ENGINE_CARD_KARAMA;
    case ENGINE_ACTION_BID:
        return x->arg[1] == 1 ? ENGINE_CARD_KARAMA : -1;
    case ENGINE_ACTION_SHIP:
        return x->arg[3] == 1 ? ENGINE_CARD_KARAMA : -1;
    case ENGINE_ACTION_HAJR_MOVE:
        return ENGINE_CARD_HAJR;
    case ENGINE_ACTION_WEATHER_CONTROL:
        return ENGINE_CARD_WEATHER_CONTROL;
    case ENGINE_ACTION_FAMILY_ATOMICS:
        return ENGINE_CARD_FAMILY_ATOMICS;
    case ENGINE_ACTION_TRUTHTRANCE:
        return ENGINE_CARD_TRUTHTRANCE;
    case ENGINE_ACTION_GHOLA:
        return ENGINE_CARD_TLEILAXU_GHOLA;
    default:
        return -1;
    }
}

static void test_log__no_line_names_a_card_its_viewer_has_not_seen(void **state)
{
    game *g = *state;
    ifix *f = g->f;
    static engine_state before, after;
    char text[INSPECT_TEXT_CHARS];
    unsigned n_named = 0;
    ifix_state(f, &before, 0);
    for (uint32_t v = 1; v <= f->head; v++) {
        ifix_state(f, &after, v);
        codec_event ev;
        assert_int_equal(ledger_event_get(f->db, &ev, f->room, v), 0);
        int open = openly_played(&ev.action);
        for (unsigned s = 0; s <= after.config.n_seats; s++) {
            uint8_t viewer = s < after.config.n_seats ? (uint8_t)s : ENGINE_VIEW_PUBLIC;
            without_territories(text, sizeof text, g->by_viewer[s].line[v - 1].text);
            for (unsigned k = 0; k < ENGINE_CARD_KIND_COUNT; k++) {
                if (strstr(text, engine_card_kind_name(k)) == NULL)
                    continue;
                int ok = (int)k == open;
                for (unsigned c = 0; c < after.n_cards && !ok; c++)
                    ok = (after.card_kind[c] == k && knows(&after, c, viewer)) ||
                         (before.card_kind[c] == k && knows(&before, c, viewer));
                if (!ok)
                    fail_msg("version %u, viewer %u names %s, which it has not seen: %s", v,
                             viewer, engine_card_kind_name(k), g->by_viewer[s].line[v - 1].text);
                n_named++;
            }
        }
        before = after;
    }
    assert_true(n_named > 0); /* faces were named where they were known */
}

static void test_log__buyer_hears_the_face_the_table_a_card(void **state)
{
    game *g = *state;
    ifix *f = g->f;
    static engine_state before, after;
    unsigned n_sales = 0;
    ifix_state(f, &before, 0);
    for (uint32_t v = 1; v <= f->head; v++) {
        ifix_state(f, &after, v);
        codec_event ev;
        assert_int_equal(ledger_event_get(f->db, &ev, f->room, v), 0);
        for (unsigned c = 0; c < after.n_cards && ev.action.kind != ENGINE_ACTION_KARAMA_TAKE;
             c++) {
            if (before.card[c].place != ENGINE_PLACE_AUCTION ||
                after.card[c].place != ENGINE_PLACE_HAND || before.high_bid_karama != 0xFF)
                continue;
            uint8_t buyer = after.card[c].holder;
            /* A bid no one else may top closes the auction at once. */
            unsigned price = ev.action.kind == ENGINE_ACTION_BID ? (unsigned)ev.action.arg[0]
                                                                 : before.high_bid;
            char want[160];
            snprintf(want, sizeof want, "You bought a%s %s for %u spice.",
                     strchr("AEIOU", engine_card_kind_name(after.card_kind[c])[0]) ? "n" : "",
                     engine_card_kind_name(after.card_kind[c]), price);
            const char *mine = g->by_viewer[buyer].line[v - 1].text;
            if (strstr(mine, want) == NULL)
                fail_msg("version %u: the buyer was told \"%s\", not \"%s\"", v, mine, want);
            snprintf(want, sizeof want, "%s bought a card for %u spice.",
                     inspect_faction_title(after.config.faction[buyer]), price);
            const char *pub = g->by_viewer[after.config.n_seats].line[v - 1].text;
            if (strstr(pub, want) == NULL)
                fail_msg("version %u: the table was told \"%s\", not \"%s\"", v, pub, want);
            n_sales++;
        }
        before = after;
    }
    assert_true(n_sales > 0);
}

static void test_log__secret_arguments_are_masked(void **state)
{
    game *g = *state;
    ifix *f = g->f;
    unsigned n_secret = 0;
    static engine_state b_full, a_full, b_view, a_view;
    for (uint32_t v = 1; v <= f->head; v++) {
        codec_event ev;
        assert_int_equal(ledger_event_get(f->db, &ev, f->room, v), 0);
        unsigned k = ev.action.kind;
        if (k != ENGINE_ACTION_STORM_DIAL && k != ENGINE_ACTION_BATTLE_PLAN &&
            k != ENGINE_ACTION_TRAITOR_PICK && k != ENGINE_ACTION_PREDICT)
            continue;
        n_secret++;
        engine_action m;
        assert_int_equal(inspect_action_mask(&m, &ev.action, ev.seat), 0);
        assert_int_equal(inspect_action_mask(&m, &ev.action, ENGINE_SEAT_ENGINE), 0);
        assert_true(inspect_action_mask(&m, &ev.action, ENGINE_VIEW_PUBLIC) > 0);
        assert_int_equal(m.arg[0], INSPECT_ARG_HIDDEN);
        /* Another seat's line is the same whatever the secret was. */
        uint8_t other = (uint8_t)((ev.seat + 1) % 6);
        ifix_state(f, &b_full, v - 1);
        ifix_state(f, &a_full, v);
        engine_view(&b_view, &b_full, other);
        engine_view(&a_view, &a_full, other);
        engine_action changed = ev.action;
        changed.arg[0] = (int16_t)(changed.arg[0] + 1);
        inspect_log_line x, y;
        inspect_log_describe(&x, &b_view, &a_view, &ev.action, v, other);
        inspect_log_describe(&y, &b_view, &a_view, &changed, v, other);
        assert_string_equal(x.text, y.text);
        assert_string_equal(x.text, g->by_viewer[other].line[v - 1].text);
        if (k == ENGINE_ACTION_STORM_DIAL)
            assert_non_null(strstr(x.text, "dialled the storm."));
    }
    assert_true(n_secret > 10);
}

/* The Atreides' own log tells them the prescience answer their view
 * shows (the value in the masked action and in the sentence); a seat
 * outside the battle is told only that it was answered. */
static void test_log__atreides_are_told_the_prescience_answer(void **state)
{
    game *g = *state;
    ifix *f = g->f;
    static engine_state full, view;
    unsigned n_answers = 0;
    for (uint32_t v = 1; v <= f->head; v++) {
        codec_event ev;
        assert_int_equal(ledger_event_get(f->db, &ev, f->room, v), 0);
        if (ev.action.kind != ENGINE_ACTION_PRESCIENCE_ANSWER)
            continue;
        ifix_state(f, &full, v);
        int atreides = -1;
        for (uint8_t s = 0; s < full.config.n_seats; s++)
            if (full.config.faction[s] == ENGINE_FACTION_ATREIDES)
                atreides = s;
        assert_true(atreides >= 0);
        engine_view(&view, &full, (uint8_t)atreides);
        const inspect_log_line *line = &g->by_viewer[atreides].line[v - 1];
        n_answers++;
        assert_int_equal(engine_battle_prescience_answer(&view), ev.action.arg[0]);
        assert_int_equal(line->action.arg[0], ev.action.arg[0]);
        assert_non_null(strstr(line->text, "answered the prescience question: "));
        /* A seat outside the battle is not told. */
        for (uint8_t s = 0; s < full.config.n_seats; s++)
            if (s != atreides && s != ev.seat && s != full.battle_seat[0] &&
                s != full.battle_seat[1] && full.ally[s] != atreides) {
                assert_int_equal(g->by_viewer[s].line[v - 1].action.arg[0], INSPECT_ARG_HIDDEN);
                assert_non_null(strstr(g->by_viewer[s].line[v - 1].text,
                                       "answered the prescience question."));
            }
    }
    assert_true(n_answers > 0);
}

/* Plays game k of a six-seat Basic series in memory with random legal
 * actions, calling each(ctx, before, act, after, version) per action. */
typedef void (*each_action_fn)(void *ctx, const engine_state *before, const engine_action *act,
                               const engine_state *after, uint32_t v);

static void play_in_memory(uint64_t prng, each_action_fn each, void *ctx)
{
    static engine_state st, before;
    engine_config cfg;
    test_config_six(&cfg);
    uint8_t seed[ENGINE_SEED_BYTES];
    for (size_t i = 0; i < sizeof seed; i++)
        seed[i] = (uint8_t)test_prng_next(&prng);
    engine_rng rng;
    engine_rng_init(&rng, seed, 0);
    assert_int_equal(engine_setup(NULL, &st, &cfg, &rng), ENGINE_ACCEPTED);
    for (uint32_t v = 1; v <= 3000; v++) {
        engine_action act;
        if (test_random_legal(&act, &st, &prng) != 0)
            break;
        before = st;
        engine_rng_init(&rng, seed, v);
        assert_int_equal(engine_apply(NULL, &st, &act, &rng), ENGINE_ACCEPTED);
        each(ctx, &before, &act, &st, v);
    }
}

static void prescience_card_named(void *ctx, const engine_state *before,
                                  const engine_action *act, const engine_state *st, uint32_t v)
{
    static engine_state b_view, a_view;
    unsigned *n_cards = ctx;
    unsigned element = engine_battle_prescience(before);
    if (act->kind != ENGINE_ACTION_PRESCIENCE_ANSWER || (element != 2 && element != 3) ||
        act->arg[0] < 0)
        return;
    engine_view(&b_view, before, 0); /* seat 1: the Atreides */
    engine_view(&a_view, st, 0);
    inspect_log_line line;
    inspect_log_describe(&line, &b_view, &a_view, act, v, 0);
    const char *face = engine_card_kind_name(a_view.card_kind[act->arg[0]]);
    assert_non_null(face);
    if (strstr(line.text, face) == NULL)
        print_error("\"%s\" does not name the %s\n", line.text, face);
    assert_non_null(strstr(line.text, face));
    assert_int_equal(line.action.arg[0], act->arg[0]);
    (*n_cards)++;
}

/* In games played in memory: every prescience answer naming a weapon or
 * a defense is told to the Atreides by the card's face their view shows,
 * never as "a card". */
static void test_log__atreides_are_told_the_card_prescience_names(void **state)
{
    (void)state;
    unsigned n_cards = 0;
    for (uint64_t k = 1; k <= 200 && n_cards < 3; k++)
        play_in_memory(k * 0x9e3779b97f4a7c15ull, prescience_card_named, &n_cards);
    assert_true(n_cards > 0);
}

typedef struct pass_counts {
    unsigned n_allow, n_hajr;
} pass_counts;

static void pass_named(void *ctx, const engine_state *before, const engine_action *act,
                       const engine_state *st, uint32_t v)
{
    static engine_state b_view, a_view;
    pass_counts *c = ctx;
    const engine_frame *w = engine_window_find(before, ENGINE_WINDOW_KARAMA);
    int is_allow = act->kind == ENGINE_ACTION_KARAMA_ALLOW && w != NULL;
    int is_hajr_pass = act->kind == ENGINE_ACTION_MOVE_PASS && before->has_moved;
    if (!is_allow && !is_hajr_pass)
        return;
    engine_view(&b_view, before, ENGINE_VIEW_PUBLIC);
    engine_view(&a_view, st, ENGINE_VIEW_PUBLIC);
    inspect_log_line line;
    inspect_log_describe(&line, &b_view, &a_view, act, v, ENGINE_VIEW_PUBLIC);
    if (is_allow) {
        unsigned named = 0;
        for (unsigned a = 1; a < ENGINE_ADVANTAGE_COUNT; a++)
            if ((w->rows & ENGINE_ADVANTAGE_BIT(a)) &&
                strstr(line.text, engine_advantage_name(a)) != NULL)
                named++;
        if (named == 0 || strstr(line.text, "let it stand") != NULL)
            print_error("\"%s\" does not say what was let stand\n", line.text);
        assert_true(named > 0);
        assert_null(strstr(line.text, "let it stand"));
        c->n_allow++;
    } else {
        assert_non_null(strstr(line.text, "made no further move"));
        assert_null(strstr(line.text, "did not move"));
        c->n_hajr++;
    }
}

/* In games played in memory: a seat letting a Karama window's advantage
 * stand is told with the advantage and whose it is (never a bare "let it
 * stand"), and a seat passing the Hajr question after its own move is told
 * it made no further move (not that it did not move). */
static void test_log__passes_name_what_they_pass(void **state)
{
    (void)state;
    pass_counts c = {0, 0};
    for (uint64_t k = 1; k <= 60 && (c.n_allow < 3 || c.n_hajr < 3); k++)
        play_in_memory(k * 0x2545f4914f6cdd1dull, pass_named, &c);
    assert_true(c.n_allow > 0);
    assert_true(c.n_hajr > 0);
}

static void test_log__the_game_is_told(void **state)
{
    game *g = *state;
    const lines *pub = &g->by_viewer[6];
    unsigned storm = 0, battles = 0, blows = 0, over = 0, you = 0;
    for (uint32_t i = 0; i < pub->n; i++) {
        storm += strstr(pub->line[i].text, "The storm moved") != NULL;
        battles += strstr(pub->line[i].text, "won the battle") != NULL ||
                   strstr(pub->line[i].text, "exploded") != NULL ||
                   strstr(pub->line[i].text, "Both leaders") != NULL;
        blows += strstr(pub->line[i].text, "Spice blow") != NULL;
        over += strstr(pub->line[i].text, "The game is over") != NULL;
        you += strstr(pub->line[i].text, "You ") != NULL || strstr(pub->line[i].text, "you ") != NULL;
    }
    assert_true(storm > 0);
    assert_true(blows > 0);
    assert_true(battles > 0);
    assert_int_equal(you, 0); /* the public is nobody */
    static engine_state head;
    ifix_state(g->f, &head, g->f->head);
    assert_int_equal(over, head.phase == ENGINE_PHASE_GAME_OVER);
    /* A seat's own actions are "you". */
    unsigned own = 0;
    for (uint32_t i = 0; i < g->by_viewer[0].n; i++)
        own += g->by_viewer[0].line[i].seat == 0 &&
               strncmp(g->by_viewer[0].line[i].text, "You ", 4) == 0;
    assert_true(own > 0);
}

static void test_log__walk_ranges(void **state)
{
    game *g = *state;
    ifix *f = g->f;
    lines l;
    l.line = calloc(MAX_LINES, sizeof *l.line);
    l.n = 9; /* keep() checks versions from 10 */
    assert_int_equal(inspect_log_walk(f->db, f->room, 2, 10, 20, keep, &l), 0);
    assert_int_equal(l.n, 20);
    assert_string_equal(l.line[9].text, g->by_viewer[2].line[9].text);
    assert_int_equal(inspect_log_walk(f->db, f->room, 2, 20, 10, keep, &l), INSPECT_EINPUT);
    assert_int_equal(inspect_log_walk(f->db, f->room, 2, 1, f->head + 1, keep, &l),
                     INSPECT_EINPUT);
    assert_int_equal(inspect_log_walk(f->db, f->room, 9, 1, 2, keep, &l), INSPECT_EINPUT);
    free(l.line);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_log__no_line_names_a_card_its_viewer_has_not_seen),
        cmocka_unit_test(test_log__buyer_hears_the_face_the_table_a_card),
        cmocka_unit_test(test_log__secret_arguments_are_masked),
        cmocka_unit_test(test_log__atreides_are_told_the_prescience_answer),
        cmocka_unit_test(test_log__atreides_are_told_the_card_prescience_names),
        cmocka_unit_test(test_log__passes_name_what_they_pass),
        cmocka_unit_test(test_log__the_game_is_told),
        cmocka_unit_test(test_log__walk_ranges),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
