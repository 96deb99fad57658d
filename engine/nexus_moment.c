/*
 * nexus_moment.c - the Nexus window of a seat's own moment (rules version
 * 8 on; the digest's EXPANSIONS_AND_NEXUS.md 5.2 G5; docs/RULINGS.md
 * R140-R141; docs/ARCHITECTURE.md "The Nexus window"). Where a held panel
 * may be played at a moment that is its holder's own and no other seat's
 * attempt (a worm about to strike its forces, the Mentat Pause), the phase
 * asks one named point (engine__nexus_moment) and this ONE generic window
 * asks every seat whose moment it is that could publicly hold a panel
 * played there: a seat holding a Nexus card (public) for which some card
 * could be in the mode such a panel needs, given the seated roster alone,
 * and whose standing policy (`nexus_policy`) asks it there. Every seat
 * asked gets the same form: pass, or play panel N. A play of a panel the
 * seat does not hold, or one not played at this moment, is refused to it
 * alone. A panel played applies at once (its row's `use`, in the card's
 * file): each acts on its holder's own forces or cards, so no two plays
 * contend. Once every seat asked has answered, the phase goes on from the
 * moment (the table `resumes` below).
 *
 * Invariants: (1) who is asked follows from public facts only (who holds
 * a Nexus card, the roster, whose moment it is, the policies), never from
 * a face; (2) pass is always legal, so the window never stalls; (3) a
 * played card is spent once (the panel's `use`); (4) nothing here runs in a
 * room without the module or before rules version 8. Engine layer: no
 * I/O, no allocation, no clock.
 */
#include <string.h>

#include "engine/phase.h"

const engine_power_form engine__nexus_moment_form = {
    .slug = "nexus_moment", .n_args = 1,
    .arg_name = {"panel"}, .arg_type = {ENGINE_ARG_INT},
    .lo = {0}, .hi = {ENGINE_NEXUS_PANEL_COUNT}, /* 0 = pass, else the panel's row (5.2) */
    .fallback = {0},
};

/* What follows each moment once every seat asked has answered: the phase
 * goes on exactly where the point was asked. */
static void after_worm(engine_state *st, const engine_action *moment, engine_rng *rng)
{
    engine__spice_blow_resume(st, (unsigned)moment->arg[1], rng);
}

/* The traitors a panel drew here go back in the Mentat Pause itself: the
 * phase waits on the seats that owe them (their returns are all they may
 * do, engine__nexus_gate), and the storm begins after the last. */
static uint16_t owing(const engine_state *st)
{
    uint16_t seats = 0;
    for (unsigned s = 0; s < st->config.n_seats; s++)
        if (engine__nexus_owed(st, s) > 0)
            seats |= (uint16_t)ENGINE_SEAT_BIT(s);
    return seats;
}

static void after_mentat_pause(engine_state *st, const engine_action *moment, engine_rng *rng)
{
    (void)moment;
    st->awaiting = owing(st);
    st->answered = 0;
    if (st->awaiting == 0)
        engine__storm_begin(st, rng);
}

void engine__nexus_moment_returned(engine_state *st, engine_rng *rng)
{
    if (st->phase != ENGINE_PHASE_MENTAT_PAUSE || st->awaiting == 0 ||
        engine_window_top(st) != NULL)
        return;
    st->answered = (uint16_t)(st->awaiting & ~owing(st));
    if (st->answered == st->awaiting)
        engine__storm_begin(st, rng);
}

static void after_lot(engine_state *st, const engine_action *moment, engine_rng *rng)
{
    (void)moment;
    engine__bidding_lot_resume(st, rng);
}

static const struct {
    uint8_t point;                 /* engine_nexus_point */
    void (*resume)(engine_state *st, const engine_action *moment, engine_rng *rng);
} resumes[] = {
    {ENGINE_NEXUS_AT_WORM, after_worm},
    {ENGINE_NEXUS_AT_MENTAT_PAUSE, after_mentat_pause},
    {ENGINE_NEXUS_AT_LOT_WON, after_lot},
    {ENGINE_NEXUS_AT_ALLY_PURCHASE, after_lot},
};

int engine__nexus_at_worm(const engine_state *st, unsigned owner, unsigned seat, int point)
{
    (void)st;
    (void)owner;
    (void)seat;
    return point == ENGINE_NEXUS_AT_WORM;
}

int engine__nexus_at_mentat_pause(const engine_state *st, unsigned owner, unsigned seat,
                                  int point)
{
    (void)st;
    (void)owner;
    (void)seat;
    return point == ENGINE_NEXUS_AT_MENTAT_PAUSE;
}

const engine_frame *engine_nexus_moment_window(const engine_state *st)
{
    const engine_frame *f = engine_window_top(st);
    return f != NULL && f->point == ENGINE_WINDOW_GENERIC &&
                   f->window == (uint16_t)engine_window_id(engine__nexus_moment_form.slug)
               ? f
               : NULL;
}

int engine__nexus_moment(engine_state *st, unsigned point, uint16_t seats, int arg)
{
    if (!(st->config.modules & ENGINE_MODULE_NEXUS_CARDS) ||
        !engine__rule(st, ENGINE__RULE_NEXUS_MOMENTS) || point >= ENGINE_NEXUS_POINT_COUNT)
        return 0;
    uint16_t asked = 0;
    for (unsigned s = 0; s < st->config.n_seats; s++)
        if ((seats & ENGINE_SEAT_BIT(s)) && engine_nexus_held(st, s) >= 0 &&
            !(st->nexus_quiet[s] & (1u << point)) &&
            engine__nexus_could_answer(st, s, ENGINE_FACTION_COUNT, point))
            asked |= (uint16_t)ENGINE_SEAT_BIT(s);
    if (asked == 0)
        return 0;
    unsigned first = 0;
    while (!(asked & ENGINE_SEAT_BIT(first)))
        first++;
    engine_action moment;
    memset(&moment, 0, sizeof moment);
    moment.seat = (uint8_t)first;
    moment.arg[0] = (int16_t)point;
    moment.arg[1] = (int16_t)arg;
    return engine__window_open(st, engine_window_id(engine__nexus_moment_form.slug), first, first,
                               &moment, asked) != NULL;
}

/* The row of the card `seat` holds (its face, in the mode it has for the
 * seat) played at the moment of frame `f`, or NULL; *panel_out that
 * mode's panel (its matrix row), 0 if the seat holds no card. Its `when`
 * is not asked: it says when the panel is offered, its `use` refuses what
 * the face does not allow, naming why. */
static const engine__power_row *moment_row(const engine_state *st, const engine_frame *f,
                                           unsigned seat, unsigned *panel_out)
{
    *panel_out = 0;
    int card = engine_nexus_held(st, seat);
    unsigned face = card >= 0 ? st->nexus_face[card] : ENGINE_FACTION_COUNT;
    int mode = face < ENGINE_FACTION_COUNT ? engine_nexus_mode_of(st, seat, face) : -1;
    if (mode < 0)
        return NULL;
    *panel_out = engine_nexus_panel_row(face, (unsigned)mode);
    const engine__power_family *fam = engine__nexus_families[face];
    for (size_t i = 0; i < fam->n; i++) {
        const engine__power_row *r = &fam->rows[i];
        if (r->nexus == 1u + (unsigned)mode && r->use != NULL &&
            engine__nexus_answers(st, r, ENGINE_FACTION_COUNT, (unsigned)f->held.arg[0]))
            return r;
    }
    return NULL;
}

/* A pass, or the panel of the card the seat holds played at this moment:
 * applied now (its `use` checks the face's limits and refuses what they
 * do not allow). Naming a panel it does not hold is card_not_held; one
 * that is not played at this moment, arg_out_of_range. */
engine_verdict engine__nexus_moment_answer(engine_verdict_detail *why, engine_state *st,
                                           engine_frame *f, const engine_action *act,
                                           engine_rng *rng)
{
    int panel = act->arg[1];
    if (panel == 0)
        return ENGINE_ACCEPTED;
    unsigned held;
    const engine__power_row *r = moment_row(st, f, act->seat, &held);
    if (held != (unsigned)panel)
        return engine__reject(why, ENGINE_REJECT_CARD_NOT_HELD, 1, panel);
    if (r == NULL)
        return engine__reject(why, ENGINE_REJECT_ARG_OUT_OF_RANGE, 1, panel);
    return r->use(why, st, act->seat, &f->held, rng);
}

/* Pass, and the panel of the seat's own card it may play at this moment
 * now (its row's `when`). */
size_t engine__nexus_moment_legal(engine_legal *out, size_t cap, const engine_state *st,
                                  unsigned seat, int16_t id)
{
    size_t n = 0;
    const engine_frame *f = engine_window_top(st);
    engine__legal_push1(out, cap, &n, ENGINE_ACTION_ANSWER, (uint8_t)seat, id, id, 0, 0);
    unsigned panel;
    const engine__power_row *r = f != NULL ? moment_row(st, f, seat, &panel) : NULL;
    if (r != NULL && (r->when == NULL || r->when(st, seat, seat)))
        engine__legal_push1(out, cap, &n, ENGINE_ACTION_ANSWER, (uint8_t)seat, id, id, (int)panel,
                            (int)panel);
    return n;
}

void engine__nexus_moment_close(engine_state *st, const engine_frame *f,
                                const engine_action *answer, engine_rng *rng)
{
    (void)answer;
    for (size_t i = 0; i < sizeof resumes / sizeof resumes[0]; i++)
        if (resumes[i].point == f->held.arg[0])
            resumes[i].resume(st, &f->held, rng);
}
