/*
 * nexus_receipts.c - the receipts of a Nexus Cards room's opportunities
 * (`mentat verify`): from its events and their re-fold, every Nexus draw
 * opportunity opens once (at most one a Spice Blow and Nexus phase, asking
 * exactly the unallied seats of a game with an alliance) and closes once,
 * with one answer from each seat it asked, and every window frame that
 * opens is closed exactly once.
 *
 * Layer: inspect. Reads the ledger and folds the engine; never writes.
 * The events are not trusted: an answer the engine would refuse (a seat
 * answering twice, an allied seat, no opportunity open) is named as what
 * it is before the fold refuses it, and an event refused while an
 * opportunity still waits is the opportunity's missing close. The walk
 * stops at the first finding or at any other refused event (which
 * ledger_verify_room names).
 *
 * What it checks, each failure named with its version:
 *   (1) an opportunity opens only in the Spice Blow and Nexus phase of a
 *       Nexus Cards room, once a phase, asking every unallied seat and
 *       only them, while an alliance exists;
 *   (2) while it is open, each seat it asked answers (nexus_draw) once and
 *       no other seat answers; no answer comes while none is open;
 *   (3) it closes once, at the answer that completes it, and with every
 *       asked seat's answer; an event the fold refuses while it is open is
 *       its missing close;
 *   (4) each window frame opened is closed exactly once: between two
 *       versions the frames below the first that changed are the same
 *       window, those above it closed, the new ones opened; a frame never
 *       records an answer of a seat it did not ask, and no window closes
 *       and opens again as the very same window in one event;
 *   (5) each Nexus window (counted apart, opened and closed as every
 *       window by (4)): the neutral one and, from rules version 8, a
 *       seat's own moment's, asks only seats holding a Nexus card, the
 *       neutral one never the seat whose attempt it holds.
 * At the head an opportunity or windows may still be open: the game waits
 * on them (counted, not failed).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "inspect/internal.h"

#define NO_ALLY 0xFF               /* engine_state.ally: none */
#define SEAT_BIT(s) ((uint16_t)(1u << (s)))

typedef struct walk {
    inspect_nexus_report *out;
    uint8_t seed[ENGINE_SEED_BYTES];
    engine_state prev, next;       /* before and after the event being walked */
    uint32_t n_seen;               /* events walked */
    int is_stopped;                /* 1 = a finding or a refused event ended the walk */
    uint16_t asked;                /* the open opportunity's seats, 0 = none open */
    uint16_t answered;             /* of them, those that answered */
    uint32_t opened_at;            /* the version it opened at */
    uint32_t last_turn;            /* turn of the last opportunity, 0 = none yet */
} walk;

static int is_drawing(const engine_state *st)
{
    return st->phase == ENGINE_PHASE_SPICE_BLOW &&
           engine_state_step(st) == ENGINE_BLOW_STEP_NEXUS_DRAW;
}

static void find(walk *w, uint32_t version, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void find(walk *w, uint32_t version, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->out->reason, sizeof w->out->reason, fmt, ap);
    va_end(ap);
    w->out->is_ok = 0;
    w->out->bad_version = version;
    w->is_stopped = 1;
}

/* The seats of mask as "2, 3" (1-based). */
static const char *seats_text(char buf[32], uint16_t mask)
{
    inspect__text t;
    inspect__text_init(&t, buf, 32);
    for (unsigned s = 0; s < ENGINE_MAX_SEATS; s++)
        if (mask & SEAT_BIT(s))
            inspect__text_add(&t, "%s%u", t.len == 0 ? "" : ", ", s + 1u);
    return buf;
}

/* The neutral Nexus window (rules version 7 on, engine/nexus_window.c). */
static int is_attempt_window(const engine_frame *f)
{
    return f->point == ENGINE_WINDOW_GENERIC &&
           f->window == (uint16_t)engine_window_from_slug("nexus");
}

/* A Nexus window: the neutral one, or a seat's own moment's (rules
 * version 8 on, engine/nexus_moment.c), which holds no seat's attempt. */
static int is_nexus_window(const engine_frame *f)
{
    return is_attempt_window(f) ||
           (f->point == ENGINE_WINDOW_GENERIC &&
            f->window == (uint16_t)engine_window_from_slug("nexus_moment"));
}

static int same_window(const engine_frame *a, const engine_frame *b)
{
    return a->point == b->point && a->owner == b->owner && a->user == b->user &&
           a->asked == b->asked && a->held.kind == b->held.kind && a->held.seat == b->held.seat &&
           memcmp(a->held.arg, b->held.arg, sizeof a->held.arg) == 0;
}

/* (4) the frames of prev and next, after the fold of `version`. A window
 * that stays open keeps every answer it had. */
static void windows_step(walk *w, uint32_t version)
{
    const engine_state *p = &w->prev, *n = &w->next;
    unsigned k = 0;
    while (k < p->n_frames && k < n->n_frames && same_window(&p->frame[k], &n->frame[k]) &&
           (p->frame[k].answered & ~n->frame[k].answered) == 0)
        k++;
    for (unsigned i = 0; i < n->n_frames; i++)
        if (n->frame[i].answered & ~n->frame[i].asked) {
            find(w, version, "window %u (point %u) holds an answer of a seat it did not ask",
                 i + 1u, n->frame[i].point);
            return;
        }
    for (unsigned i = k; i < p->n_frames; i++)
        for (unsigned j = k; j < n->n_frames; j++)
            if (p->frame[i].held.kind != ENGINE_ACTION_NONE &&
                same_window(&p->frame[i], &n->frame[j])) {
                find(w, version, "window point %u of seat %u closes and opens again as the "
                     "same window, holding the same attempt", p->frame[i].point,
                     p->frame[i].owner + 1u);
                return;
            }
    w->out->n_windows_closed += p->n_frames - k;
    w->out->n_windows_opened += n->n_frames - k;
    /* (5) the neutral Nexus windows among them */
    for (unsigned i = k; i < p->n_frames; i++)
        w->out->n_nexus_windows_closed += (uint32_t)is_nexus_window(&p->frame[i]);
    for (unsigned i = k; i < n->n_frames; i++) {
        const engine_frame *f = &n->frame[i];
        if (!is_nexus_window(f))
            continue;
        w->out->n_nexus_windows_opened++;
        uint16_t holders = 0;
        for (unsigned s = 0; s < n->config.n_seats; s++)
            if (engine_nexus_held(n, s) >= 0)
                holders |= SEAT_BIT(s);
        char a[32];
        if ((f->asked & ~holders) || (is_attempt_window(f) && f->held.seat < ENGINE_MAX_SEATS &&
                                      (f->asked & SEAT_BIT(f->held.seat)))) {
            find(w, version, "the Nexus window opened over seat %u's attempt asks seats %s: "
                 "not only seats holding a Nexus card, or the attempt's own seat",
                 f->held.seat + 1u, seats_text(a, f->asked));
            return;
        }
    }
}

/* (1) the opportunity that opened at `version`. */
static void opportunity_open(walk *w, uint32_t version)
{
    const engine_state *st = &w->next;
    uint16_t unallied = 0;
    int alliance = 0;
    for (unsigned s = 0; s < st->config.n_seats; s++) {
        if (st->ally[s] == NO_ALLY)
            unallied |= (uint16_t)SEAT_BIT(s);
        else
            alliance = 1;
    }
    char a[32], b[32];
    w->out->n_opportunities++;
    if (!(st->config.modules & ENGINE_MODULE_NEXUS_CARDS) || !alliance) {
        find(w, version, "a Nexus draw opportunity opens %s", !alliance ? "without an alliance"
                                                                       : "outside the module");
        return;
    }
    if (st->awaiting != unallied) {
        find(w, version, "the Nexus draw opportunity asks seats %s, not the unallied seats %s",
             seats_text(a, st->awaiting), seats_text(b, unallied));
        return;
    }
    if (w->last_turn == st->turn) {
        find(w, version, "a second Nexus draw opportunity opens in turn %u", st->turn);
        return;
    }
    w->asked = st->awaiting;
    w->answered = 0;
    w->opened_at = version;
    w->last_turn = st->turn;
}

static void walk_event(walk *w, const codec_event *ev)
{
    inspect_nexus_report *out = w->out;
    uint32_t v = ev->version;
    engine_action act = ev->action;
    act.seat = ev->seat;
    int was_open = w->asked != 0;
    int is_answer = act.kind == ENGINE_ACTION_NEXUS_DRAW;
    uint16_t bit = (uint16_t)(act.seat < ENGINE_MAX_SEATS ? SEAT_BIT(act.seat) : 0u);
    char a[32];
    /* (2) the answer, before the engine judges it */
    if (is_answer && !was_open) {
        find(w, v, "a Nexus draw answer of seat %u while no draw opportunity is open",
             act.seat + 1u);
        return;
    }
    if (is_answer && (w->answered & bit)) {
        find(w, v, "seat %u answers the Nexus draw opportunity opened at version %u a second "
             "time", act.seat + 1u, w->opened_at);
        return;
    }
    if (is_answer && !(w->asked & bit)) {
        find(w, v, "seat %u, which the Nexus draw opportunity opened at version %u does not "
             "ask, answers it", act.seat + 1u, w->opened_at);
        return;
    }
    w->next = w->prev;
    engine_rng rng;
    engine_rng_init(&rng, w->seed, v);
    engine_verdict_detail why = {-1, 0};
    engine_verdict r = engine_apply(&why, &w->next, &act, &rng);
    if (r != ENGINE_ACCEPTED) {
        /* (3) */
        if (was_open)
            find(w, v, "the Nexus draw opportunity opened at version %u never closes: it "
                 "still waits on seat %s when this event comes (refused: %s)", w->opened_at,
                 seats_text(a, (uint16_t)(w->asked & ~w->answered)), engine_verdict_name(r));
        w->is_stopped = 1; /* ledger_verify_room names any other refusal */
        return;
    }
    if (is_answer) {
        w->answered |= bit;
        out->n_answers++;
    }
    int is_open = is_drawing(&w->next);
    if (was_open && !is_open) {
        /* (3) */
        out->n_closed++;
        if (w->answered != w->asked) {
            find(w, v, "the Nexus draw opportunity opened at version %u closes without the "
                 "answer of seat %s", w->opened_at,
                 seats_text(a, (uint16_t)(w->asked & ~w->answered)));
            return;
        }
        w->asked = 0;
    } else if (was_open && is_answer && w->answered == w->asked) {
        find(w, v, "the Nexus draw opportunity opened at version %u has every answer and "
             "stays open", w->opened_at);
        return;
    }
    if (!was_open && is_open)
        opportunity_open(w, v);
    if (!w->is_stopped)
        windows_step(w, v);
    w->prev = w->next;
}

static int walk_cb(void *ctx, const codec_event *ev)
{
    walk *w = ctx;
    if (w->is_stopped)
        return 0;
    if (ev->version != w->n_seen + 1) {
        w->is_stopped = 1; /* a gap: ledger_verify_room names it */
        return 0;
    }
    w->n_seen++;
    walk_event(w, ev);
    return 0;
}

int inspect_room_nexus_check(inspect_nexus_report *out, ledger *db, const char *room)
{
    memset(out, 0, sizeof *out);
    out->is_ok = 1;
    ledger_room_info info;
    int rc = ledger_room_info_get(db, &info, room);
    if (rc != 0)
        return rc;
    if (!(info.config.modules & ENGINE_MODULE_NEXUS_CARDS))
        return 0;
    walk *w = calloc(1, sizeof *w);
    if (w == NULL)
        return INSPECT_ERROR;
    w->out = out;
    rc = ledger_room_seed(db, w->seed, room);
    if (rc == LEDGER_ENOTFOUND || rc == LEDGER_EKEY) {
        rc = 0; /* no seed, no re-fold: not checked */
        goto done;
    }
    if (rc == 0)
        rc = ledger_state_at(db, &w->prev, room, 0);
    if (rc != 0)
        goto done;
    out->is_checked = 1;
    /* Windows open in a constructed opening were opened before version 1. */
    out->n_windows_opened = w->prev.n_frames;
    if (is_drawing(&w->prev))
        opportunity_open(w, 0);
    if (!w->is_stopped && info.version > 0)
        rc = ledger_event_foreach(db, room, 1, info.version, walk_cb, w);
    if (rc == 0 && !w->is_stopped) {
        out->n_windows_open = w->prev.n_frames;
        out->open_version = w->asked != 0 ? w->opened_at : 0;
        out->is_open = w->asked != 0;
    }
done:
    sodium_memzero(w->seed, sizeof w->seed);
    free(w);
    return rc;
}
