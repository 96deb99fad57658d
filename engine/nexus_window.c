/*
 * nexus_window.c - the neutral Nexus window of the Nexus Cards module
 * (rules version 7 on; the digest's EXPANSIONS_AND_NEXUS.md 5.2 G5, G7;
 * docs/RULINGS.md R120-R122; docs/ARCHITECTURE.md "The Nexus window").
 * Where a held Nexus panel may answer another seat's attempt (a Voice, a
 * prescience question, a traitor the Harkonnen call), the attempt,
 * checked in full, is held in ONE
 * generic window (engine/generic.c, the row `nexus` below) asking every
 * publicly possible holder: a seat holding a Nexus card (who holds one is
 * public) for which some card could be in the mode a panel answering that
 * point needs, given only the seated roster and the attempt's user, and
 * whose standing policy asks it there. Every seat asked gets the same
 * form: pass, or play panel N. A play of a panel the seat does not hold,
 * or one that does not answer this attempt, is refused to it alone. Once
 * every seat asked has answered, the first player in storm order applies
 * its panel (its row's `use`, in the card's file); the attempt applies as
 * it was if nobody played. A native Karama on the same attempt is asked
 * first (engine/karama.c holds it before this window opens, G7).
 *
 * The standing policy (`nexus_policy`, a generic power of every seat of a
 * Nexus room, at most once a turn, whatever it holds): a public mask of
 * the Nexus points it is not asked at, 0 (asked everywhere) by default.
 *
 * Invariants: (1) who is asked follows from public facts only (who holds
 * a Nexus card, the roster, the attempt's user, the policies), never from
 * a face; (2) pass is always legal for an asked seat, so the window never
 * stalls; (3) a played card is spent once (engine__nexus_spend), a card
 * played but not applied (an earlier seat in storm order played) is shown
 * and kept; (4) nothing here runs in a room without the module or before
 * rules version 7. Engine layer: no I/O, no allocation, no clock.
 */
#include <assert.h>
#include <string.h>

#include "engine/phase.h"

#define SEAT_NONE 0xFF

/* The attempts held at each Nexus point, by the kind of the action, and
 * the pass a stop panel applies in its place (every argument 0). */
static const struct {
    uint8_t point;                 /* engine_nexus_point */
    uint8_t kind;                  /* engine_action_kind held there */
    uint8_t pass;                  /* what stopping it applies for its seat */
} held_at[] = {
    {ENGINE_NEXUS_AT_VOICE, ENGINE_ACTION_VOICE, ENGINE_ACTION_VOICE_PASS},
    {ENGINE_NEXUS_AT_PRESCIENCE, ENGINE_ACTION_PRESCIENCE, ENGINE_ACTION_PRESCIENCE_PASS},
    {ENGINE_NEXUS_AT_TRAITOR, ENGINE_ACTION_TRAITOR_CALL, ENGINE_ACTION_TRAITOR_CALL}, /* no call */
};

static unsigned point_of(unsigned kind)
{
    for (size_t i = 0; i < sizeof held_at / sizeof held_at[0]; i++)
        if (held_at[i].kind == kind)
            return held_at[i].point;
    return ENGINE_NEXUS_POINT_COUNT;
}

int engine__nexus_at_voice(const engine_state *st, unsigned owner, unsigned seat, int point)
{
    (void)st;
    (void)owner;
    (void)seat;
    return point == ENGINE_NEXUS_AT_VOICE;
}

int engine__nexus_at_prescience(const engine_state *st, unsigned owner, unsigned seat, int point)
{
    (void)st;
    (void)owner;
    (void)seat;
    return point == ENGINE_NEXUS_AT_PRESCIENCE;
}

static int in_force(const engine_state *st)
{
    return (st->config.modules & ENGINE_MODULE_NEXUS_CARDS) &&
           engine__rule(st, ENGINE__RULE_NEXUS_WINDOWS);
}

static const engine_power_form window_form = {
    .slug = "nexus", .n_args = 1,
    .arg_name = {"panel"}, .arg_type = {ENGINE_ARG_INT},
    .lo = {0}, .hi = {36}, /* 0 = pass, else the panel's row of the matrix (5.2) */
    .fallback = {0},
};

static const engine_power_form policy_form = {
    .slug = "nexus_policy", .n_args = 1,
    .arg_name = {"quiet"}, .arg_type = {ENGINE_ARG_INT},
    .lo = {0}, .hi = {ENGINE_NEXUS_POINTS_ALL},
    .fallback = {0},
};

/* 1 if the panel row `r` answers an attempt at Nexus point `point` by a
 * seat of faction `user` (its `fn` is a pure function of the two). */
int engine__nexus_answers(const engine_state *st, const engine__power_row *r, unsigned user,
                          unsigned point)
{
    return r->point == ENGINE__POINT_NEXUS_ANSWER && r->nexus && r->fn &&
           engine__row_in_force(st, r) && r->fn(st, user, 0, (int)point);
}

/* The faction of the seat whose attempt frame `f` holds. */
static unsigned user_of(const engine_state *st, const engine_frame *f)
{
    return f->held.seat < st->config.n_seats ? st->seat[f->held.seat].faction
                                             : ENGINE_FACTION_COUNT;
}

/* (1) 1 if some Nexus card could, from public facts alone, give `seat` a
 * panel answering `point`: the mode a row needs is the one its card would
 * have for that seat (the roster decides it, not the face held). */
int engine__nexus_could_answer(const engine_state *st, unsigned seat, unsigned user,
                               unsigned point)
{
    for (unsigned f = 0; f < ENGINE_FACTION_COUNT; f++) {
        const engine__power_family *fam = engine__nexus_families[f];
        for (size_t i = 0; i < fam->n; i++) {
            const engine__power_row *r = &fam->rows[i];
            if (engine__nexus_answers(st, r, user, point) &&
                engine_nexus_mode_of(st, seat, r->faction) == (int)r->nexus - 1)
                return 1;
        }
    }
    return 0;
}

const engine_frame *engine_nexus_window(const engine_state *st)
{
    const engine_frame *f = engine_window_top(st);
    return f != NULL && f->point == ENGINE_WINDOW_GENERIC &&
                   f->window == (uint16_t)engine_window_id(window_form.slug)
               ? f
               : NULL;
}

/* 1 while the Nexus window holding an attempt is resuming it. */
static int resuming_own(const engine_state *st)
{
    int16_t id = engine_window_id(window_form.slug);
    for (unsigned i = 0; i < st->n_frames; i++)
        if (st->frame[i].is_resuming && st->frame[i].point == ENGINE_WINDOW_GENERIC &&
            st->frame[i].window == (uint16_t)id)
            return 1;
    return 0;
}

int engine__nexus_hold(engine_state *st, const engine_action *act, unsigned point)
{
    if (!in_force(st) || point >= ENGINE_NEXUS_POINT_COUNT || resuming_own(st))
        return 0;
    uint16_t asked = 0;
    for (unsigned s = 0; s < st->config.n_seats; s++)
        if (s != act->seat && engine_nexus_held(st, s) >= 0 &&
            !(st->nexus_quiet[s] & (1u << point)) &&
            engine__nexus_could_answer(st, s, st->seat[act->seat].faction, point))
            asked |= (uint16_t)ENGINE_SEAT_BIT(s);
    if (asked == 0)
        return 0;
    return engine__window_open(st, engine_window_id(window_form.slug), act->seat, act->seat, act,
                               asked) != NULL;
}

/* The held card's row playing `panel` (its matrix row) for `seat`, or
 * NULL: rows of the card it holds only, in the mode it has for the seat. */
static const engine__power_row *held_panel(const engine_state *st, unsigned seat, int panel,
                                           unsigned *owner)
{
    for (unsigned i = 0; i < ENGINE__POINT_ROWS_MAX; i++) {
        const engine__power_row *r =
            engine__point_row_nth(st, ENGINE__POINT_NEXUS_ANSWER, seat, i, owner);
        if (r == NULL)
            return NULL;
        if (r->nexus && (int)engine_nexus_panel_row(r->faction, r->nexus - 1u) == panel)
            return r;
    }
    return NULL;
}

/* One seat's answer: a pass, or a panel it holds that answers this
 * attempt (checked now, refused to it alone; applied at the close). */
static engine_verdict window_answer(engine_verdict_detail *why, engine_state *st, engine_frame *f,
                                    const engine_action *act, engine_rng *rng)
{
    (void)rng;
    int panel = act->arg[1];
    if (panel == 0)
        return ENGINE_ACCEPTED;
    unsigned owner = act->seat;
    const engine__power_row *r = held_panel(st, act->seat, panel, &owner);
    if (r == NULL)
        return engine__reject(why, ENGINE_REJECT_CARD_NOT_HELD, 1, panel);
    if (!engine__nexus_answers(st, r, user_of(st, f), point_of(f->held.kind)) || r->use == NULL)
        return engine__reject(why, ENGINE_REJECT_ARG_OUT_OF_RANGE, 1, panel);
    st->nexus_played |= (uint16_t)ENGINE_SEAT_BIT(act->seat);
    return ENGINE_ACCEPTED;
}

/* The seat's answers: pass, and each panel of the card it holds that
 * answers the open window's attempt (its own card: a seat's legal actions
 * are its own; the form, and who is asked, are the same for all). */
static size_t window_legal(engine_legal *out, size_t cap, const engine_state *st, unsigned seat,
                           int16_t id)
{
    size_t n = 0;
    const engine_frame *f = engine_window_top(st);
    engine__legal_push1(out, cap, &n, ENGINE_ACTION_ANSWER, (uint8_t)seat, id, id, 0, 0);
    unsigned point = f ? point_of(f->held.kind) : ENGINE_NEXUS_POINT_COUNT;
    for (unsigned i = 0; i < ENGINE__POINT_ROWS_MAX; i++) {
        unsigned owner;
        const engine__power_row *r =
            engine__point_row_nth(st, ENGINE__POINT_NEXUS_ANSWER, seat, i, &owner);
        if (r == NULL)
            break;
        if (!engine__nexus_answers(st, r, f ? user_of(st, f) : ENGINE_FACTION_COUNT, point) ||
            r->use == NULL)
            continue;
        int panel = (int)engine_nexus_panel_row(r->faction, r->nexus - 1u);
        engine__legal_push1(out, cap, &n, ENGINE_ACTION_ANSWER, (uint8_t)seat, id, id, panel,
                            panel);
    }
    return n;
}

static void apply_held(engine_state *st, const engine_action *held, engine_rng *rng)
{
    engine_verdict v = engine__action_rules[held->kind].handle(NULL, st, held, rng);
    assert(v == ENGINE_ACCEPTED); /* it was checked in full before it was held */
    (void)v;
}

/* Every seat asked has answered: the first player in storm order applies
 * its panel to the held attempt (R121); every other player's card is
 * shown and kept (3); nobody played, the attempt applies as it was. */
static void window_close(engine_state *st, const engine_frame *f, const engine_action *answer,
                         engine_rng *rng)
{
    (void)answer;
    uint16_t played = st->nexus_played;
    st->nexus_played = 0;
    uint8_t order[ENGINE_MAX_SEATS];
    unsigned n = engine__storm_order(st, order);
    unsigned first = SEAT_NONE;
    for (unsigned i = 0; i < n; i++) {
        if (!(played & ENGINE_SEAT_BIT(order[i])))
            continue;
        if (first == SEAT_NONE)
            first = order[i];
        else
            engine__nexus_show(st, order[i]);
    }
    if (first == SEAT_NONE) {
        apply_held(st, &f->held, rng);
        return;
    }
    unsigned point = point_of(f->held.kind);
    for (unsigned i = 0; i < ENGINE__POINT_ROWS_MAX; i++) {
        unsigned owner;
        const engine__power_row *r =
            engine__point_row_nth(st, ENGINE__POINT_NEXUS_ANSWER, first, i, &owner);
        assert(r != NULL); /* checked when it answered; nothing changed since */
        if (r == NULL)
            return;
        if (engine__nexus_answers(st, r, user_of(st, f), point) && r->use) {
            engine_verdict v = r->use(NULL, st, owner, &f->held, rng);
            assert(v == ENGINE_ACCEPTED);
            (void)v;
            return;
        }
    }
}

engine_verdict engine__nexus_stop(engine_verdict_detail *why, engine_state *st, unsigned owner,
                                  const engine_action *held, engine_rng *rng)
{
    (void)why;
    engine__nexus_spend(st, owner);
    engine_action instead;
    memset(&instead, 0, sizeof instead);
    instead.seat = held->seat;
    for (size_t i = 0; i < sizeof held_at / sizeof held_at[0]; i++)
        if (held_at[i].kind == held->kind)
            instead.kind = held_at[i].pass;
    assert(instead.kind != ENGINE_ACTION_NONE); /* a row answers only a point of the table */
    apply_held(st, &instead, rng);
    return ENGINE_ACCEPTED;
}

int engine__nexus_at_traitor(const engine_state *st, unsigned user, unsigned seat, int point)
{
    (void)st;
    (void)seat;
    return point == ENGINE_NEXUS_AT_TRAITOR && user == ENGINE_FACTION_HARKONNEN;
}

/* ================================================= the standing policy */

static int may_set_policy(const engine_state *st, unsigned owner, unsigned seat)
{
    (void)owner;
    return in_force(st) && st->turn > 0 && st->nexus_quiet_turn[seat] != st->turn;
}

unsigned engine_nexus_points(const engine_state *st)
{
    return engine__rule(st, ENGINE__RULE_NEXUS_MOMENTS) ? ENGINE_NEXUS_POINTS_ALL
                                                        : ENGINE_NEXUS_POINTS_V7;
}

/* The masks of the points the room's rules version has (the form's box
 * is the newest version's). */
static size_t policy_legal(engine_legal *out, size_t cap, const engine_state *st, unsigned seat,
                           int16_t id)
{
    size_t n = 0;
    engine__nexus_push(out, cap, &n, seat, id, 0, (int16_t)engine_nexus_points(st), 0, 0);
    return n;
}

static engine_verdict set_policy(engine_verdict_detail *why, engine_state *st, unsigned owner,
                                 const engine_action *act, engine_rng *rng)
{
    (void)owner;
    (void)rng;
    if ((unsigned)act->arg[1] & ~engine_nexus_points(st))
        return engine__reject(why, ENGINE_REJECT_ARG_OUT_OF_RANGE, 1, act->arg[1]);
    st->nexus_quiet[act->seat] = (uint8_t)act->arg[1];
    st->nexus_quiet_turn[act->seat] = st->turn;
    return ENGINE_ACCEPTED;
}

static const engine__power_row rows[] = {
    {.point = ENGINE__POINT_WINDOW, .faction = ENGINE_FACTION_ATREIDES, .to = ENGINE__TO_OWNER,
     .since = ENGINE__RULE_SINCE(ENGINE__RULE_NEXUS_WINDOWS),
     .source = "E3 p.11; EXPANSIONS_AND_NEXUS.md 5.2 G5 (docs/RULINGS.md R120)",
     .form = &window_form, .legal = window_legal, .answer = window_answer,
     .close = window_close},
    {.point = ENGINE__POINT_POWER, .faction = ENGINE_FACTION_ATREIDES, .to = ENGINE__TO_OWNER,
     .since = ENGINE__RULE_SINCE(ENGINE__RULE_NEXUS_WINDOWS), .when = may_set_policy,
     .source = "(the Nexus window's standing policy, docs/RULINGS.md R122)",
     .form = &policy_form, .use = set_policy, .legal = policy_legal},
    ENGINE__NEXUS_MOMENT_ROW,
};

/* The module's rows: `faction` is only where the row table wants one; they
 * apply to every seat of a Nexus room (engine/points.c). */
const engine__power_family engine__nexus_module = {rows, sizeof rows / sizeof rows[0]};

/* ========================================================== invariants */

int engine__nexus_window_check(const engine_state *st)
{
    if (!in_force(st)) {
        for (unsigned s = 0; s < ENGINE_MAX_SEATS; s++)
            if (st->nexus_quiet[s] || st->nexus_quiet_turn[s])
                return 0;
        return st->nexus_played == 0;
    }
    for (unsigned s = 0; s < ENGINE_MAX_SEATS; s++)
        if ((st->nexus_quiet[s] & ~engine_nexus_points(st)) || st->nexus_quiet_turn[s] > st->turn ||
            (s >= st->config.n_seats && (st->nexus_quiet[s] || st->nexus_quiet_turn[s])))
            return 0;
    const engine_frame *f = engine_nexus_window(st);
    int16_t id = engine_window_id(window_form.slug);
    int open = f != NULL;
    if (open && point_of(f->held.kind) >= ENGINE_NEXUS_POINT_COUNT)
        return 0;
    for (unsigned i = 0; i < st->n_frames; i++)
        if (st->frame[i].point == ENGINE_WINDOW_GENERIC && st->frame[i].window == (uint16_t)id &&
            &st->frame[i] != f)
            return 0; /* one Nexus window, on top */
    return (st->nexus_played & ~(open ? f->answered : 0)) == 0;
}
