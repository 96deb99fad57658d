/*
 * frame.c - the window stack and the effect records: every "pause and
 * ask a seat" is a frame of one type on a fixed-depth stack in
 * engine_state, and every effect that outlasts its window is a record
 * with its source, owner and expiry. The points a window opens at are a
 * table, one row each: the answers it admits, their families, and the
 * function that resumes when its last answer closes it. The rules of each
 * point live in its own file (the Truthtrance question in engine/side.c,
 * the Karama window in engine/karama.c, a shipment paid with another
 * seat's Karama and the Bene Gesserit send in engine/phase_shipment.c, the
 * Voice and prescience in engine/phase_battle.c, and from rules version 6
 * every window a row declares, in its row: engine/generic.c); this file
 * only keeps the stack, the records and the table.
 *
 * It also maps the stack and the records to the pause, Voice and
 * prescience fields of the canonical encoding of rules versions 2 to 5 and
 * back (engine/state.c writes and reads them),
 * so a stored room re-encodes byte for byte.
 *
 * Invariants: (1) a window is public, and so is every effect record;
 * (2) a frame never touches phase, step, awaiting or answered: the step
 * below keeps its own, and closing the top frame gives it back exactly as
 * it was; (3) is_resuming is 1 only inside the fold resuming a closed
 * frame's attempt, never at rest; (4) the records are kept sorted by kind
 * then source, so equal histories give equal states. Never allocates,
 * never does I/O.
 */
#include <assert.h>
#include <string.h>

#include "engine/phase.h"

#define SEAT_NONE 0xFF

const engine__window_row engine__windows[ENGINE_WINDOW_COUNT] = {
    [ENGINE_WINDOW_NONE] = {0, 0, ENGINE__PHASE_WINDOW, NULL, NULL},
    /* engine/side.c */
    [ENGINE_WINDOW_TRUTHTRANCE] = {1, 0, ENGINE__PHASE_WINDOW, engine__legal_question,
                                  engine__truthtrance_resume},
    /* engine/karama.c */
    [ENGINE_WINDOW_KARAMA] = {0, 0, ENGINE__PHASE_WINDOW, engine__legal_karama,
                             engine__karama_resume},
    /* engine/phase_shipment.c */
    [ENGINE_WINDOW_SHIP_PAYER] = {0, 1, ENGINE_PHASE_SHIPMENT_MOVEMENT,
                                 engine__legal_ship_karama_answer, engine__ship_karama_resume},
    [ENGINE_WINDOW_BG_SEND] = {0, 1, ENGINE_PHASE_SHIPMENT_MOVEMENT, engine__legal_bg_send,
                              engine__bg_send_resume},
    /* engine/phase_battle.c */
    [ENGINE_WINDOW_VOICE] = {0, 1, ENGINE_PHASE_BATTLE, engine__legal_voice, engine__voice_resume},
    [ENGINE_WINDOW_PRESCIENCE] = {0, 1, ENGINE_PHASE_BATTLE, engine__legal_prescience,
                                 engine__prescience_resume},
    [ENGINE_WINDOW_PRESCIENCE_ANSWER] = {0, 1, ENGINE_PHASE_BATTLE,
                                        engine__legal_prescience_answer,
                                        engine__prescience_answer_resume},
    /* engine/phase_spice_blow.c */
    [ENGINE_WINDOW_WORM_ALLY] = {0, 1, ENGINE_PHASE_SPICE_BLOW, engine__legal_fremen_protect_ally,
                                engine__worm_ally_resume},
    /* engine/phase_revival.c */
    [ENGINE_WINDOW_ALLY_REVIVAL] = {0, 1, ENGINE_PHASE_REVIVAL, engine__legal_emperor,
                                   engine__ally_revival_resume},
    /* engine/generic.c: every window a row declares (ENGINE__POINT_WINDOW),
     * its answer's form and handler, and its close, in that row */
    [ENGINE_WINDOW_GENERIC] = {0, 0, ENGINE__PHASE_WINDOW, engine__legal_answer,
                              engine__answer_resume},
};

/* The windows over a step that waits on nobody while they are open, the
 * step each is asked in (the encoding tells the frame's seats as the
 * step's). */
static const struct {
    uint8_t point, phase, step;
} asked_over_step[] = {
    {ENGINE_WINDOW_WORM_ALLY, ENGINE_PHASE_SPICE_BLOW, BLOW_STEP_WORM_ALLY},
    {ENGINE_WINDOW_ALLY_REVIVAL, ENGINE_PHASE_REVIVAL, REVIVAL_STEP_EMPEROR},
};

static unsigned point_over_step(unsigned phase, unsigned step)
{
    for (size_t i = 0; i < sizeof asked_over_step / sizeof asked_over_step[0]; i++)
        if (asked_over_step[i].phase == phase && asked_over_step[i].step == step)
            return asked_over_step[i].point;
    return ENGINE_WINDOW_NONE;
}

/* The battle's questions: windows over the plans that were steps before. */
static int is_battle_question(unsigned point)
{
    return point == ENGINE_WINDOW_VOICE || point == ENGINE_WINDOW_PRESCIENCE ||
           point == ENGINE_WINDOW_PRESCIENCE_ANSWER;
}

/* The windows a question (a Truthtrance) may be asked over: those whose
 * asked seats may play side actions. */
static int admits_question(unsigned point)
{
    return point == ENGINE_WINDOW_SHIP_PAYER || point == ENGINE_WINDOW_BG_SEND ||
           is_battle_question(point) || point == ENGINE_WINDOW_WORM_ALLY ||
           point == ENGINE_WINDOW_ALLY_REVIVAL;
}

/* The windows a Karama window may stand over at rest: an advantage used
 * in answer to them. */
static int admits_karama(unsigned point)
{
    return point == ENGINE_WINDOW_BG_SEND || point == ENGINE_WINDOW_VOICE ||
           point == ENGINE_WINDOW_PRESCIENCE || point == ENGINE_WINDOW_ALLY_REVIVAL;
}

/* ============================================================== frames */

unsigned engine__lowest_seat(uint16_t seats)
{
    unsigned s = 0;
    while (s < ENGINE_MAX_SEATS && !(seats & ENGINE_SEAT_BIT(s)))
        s++;
    return s < ENGINE_MAX_SEATS ? s : SEAT_NONE;
}

const engine_frame *engine_window_top(const engine_state *st)
{
    for (unsigned i = st->n_frames; i-- > 0;)
        if (!st->frame[i].is_resuming)
            return &st->frame[i];
    return NULL;
}

const engine_frame *engine_window_find(const engine_state *st, unsigned point)
{
    for (unsigned i = st->n_frames; i-- > 0;)
        if (!st->frame[i].is_resuming && st->frame[i].point == point)
            return &st->frame[i];
    return NULL;
}

int engine__frame_insert(engine_state *st, unsigned index, const engine_frame *f)
{
    if (st->n_frames >= ENGINE_FRAME_MAX || index > st->n_frames)
        return -1;
    memmove(&st->frame[index + 1], &st->frame[index], (st->n_frames - index) * sizeof st->frame[0]);
    st->frame[index] = *f;
    st->n_frames++;
    return 0;
}

engine_frame *engine__frame_top(engine_state *st)
{
    return (engine_frame *)engine_window_top(st);
}

int engine__frame_resuming(const engine_state *st)
{
    for (unsigned i = 0; i < st->n_frames; i++)
        if (st->frame[i].is_resuming)
            return 1;
    return 0;
}

engine_frame *engine__frame_push(engine_state *st, unsigned point, unsigned owner, unsigned user,
                                 const engine_action *held, uint16_t asked)
{
    assert(st->n_frames < ENGINE_FRAME_MAX);
    engine_frame *f = &st->frame[st->n_frames++];
    memset(f, 0, sizeof *f);
    f->point = (uint8_t)point;
    f->owner = (uint8_t)owner;
    f->user = (uint8_t)user;
    if (held)
        f->held = *held;
    f->asked = asked;
    return f;
}

static void frame_remove(engine_state *st, unsigned i)
{
    memmove(&st->frame[i], &st->frame[i + 1], (st->n_frames - i - 1u) * sizeof st->frame[0]);
    st->n_frames--;
    memset(&st->frame[st->n_frames], 0, sizeof st->frame[0]);
}

void engine__frame_close(engine_state *st, const engine_action *answer, engine_rng *rng)
{
    engine_frame *top = engine__frame_top(st);
    assert(top != NULL);
    engine_frame f = *top;
    /* The frame stays below whatever its resumption opens, marked, and is
     * removed once it has resumed (3). */
    top->is_resuming = 1;
    engine__windows[f.point].resume(st, &f, answer, rng);
    for (unsigned i = 0; i < st->n_frames; i++)
        if (st->frame[i].is_resuming) {
            frame_remove(st, i);
            break;
        }
}

/* ============================================================= effects */

const engine_effect *engine_effect_find(const engine_state *st, unsigned kind)
{
    for (unsigned i = 0; i < st->n_effects; i++)
        if (st->effect[i].kind == kind)
            return &st->effect[i];
    return NULL;
}

uint32_t engine_effect_sources(const engine_state *st, unsigned kind)
{
    uint32_t sources = 0;
    for (unsigned i = 0; i < st->n_effects; i++)
        if (st->effect[i].kind == kind && st->effect[i].source < 32)
            sources |= (uint32_t)1u << st->effect[i].source;
    return sources;
}

static void effect_remove(engine_state *st, unsigned i)
{
    memmove(&st->effect[i], &st->effect[i + 1], (st->n_effects - i - 1u) * sizeof st->effect[0]);
    st->n_effects--;
    memset(&st->effect[st->n_effects], 0, sizeof st->effect[0]);
}

/* Field by field into a cleared slot: the padding stays 0, so equal
 * histories give byte-equal states (4). */
static void effect_put(engine_effect *slot, const engine_effect *e)
{
    memset(slot, 0, sizeof *slot);
    slot->kind = e->kind;
    slot->source = e->source;
    slot->owner = e->owner;
    slot->value = e->value;
    slot->expiry = e->expiry;
    slot->arg = e->arg;
}

int engine__effect_add(engine_state *st, const engine_effect *e)
{
    unsigned i = 0;
    while (i < st->n_effects && (st->effect[i].kind < e->kind ||
                                 (st->effect[i].kind == e->kind && st->effect[i].source < e->source)))
        i++;
    if (i < st->n_effects && st->effect[i].kind == e->kind && st->effect[i].source == e->source) {
        effect_put(&st->effect[i], e); /* the same effect again: it is renewed */
        return 0;
    }
    if (st->n_effects >= ENGINE_EFFECT_MAX)
        return -1;
    memmove(&st->effect[i + 1], &st->effect[i], (st->n_effects - i) * sizeof st->effect[0]);
    effect_put(&st->effect[i], e);
    st->n_effects++;
    return 0;
}

int engine__effect_remove(engine_state *st, unsigned kind, int source)
{
    int removed = 0;
    for (unsigned i = st->n_effects; i-- > 0;)
        if (st->effect[i].kind == kind && (source < 0 || st->effect[i].source == source)) {
            effect_remove(st, i);
            removed = 1;
        }
    return removed;
}

void engine__effect_expire(engine_state *st, unsigned phase)
{
    for (unsigned i = st->n_effects; i-- > 0;) {
        unsigned x = st->effect[i].expiry;
        if (x == ENGINE_EXPIRY_STEP || x == ENGINE_EXPIRY_PHASE || x == ENGINE_EXPIRY_BATTLE ||
            (x == ENGINE_EXPIRY_MENTAT_PAUSE && phase == ENGINE_PHASE_MENTAT_PAUSE) ||
            (x == ENGINE_EXPIRY_TURN && phase == ENGINE_PHASE_STORM))
            effect_remove(st, i);
    }
}

/* ========================================================= invariants */

/* 1 if every byte of an unused slot is 0 (a pop or a removal clears it,
 * so equal histories give equal states). */
static int is_cleared(const void *slot, size_t size)
{
    const uint8_t *b = slot;
    for (size_t i = 0; i < size; i++)
        if (b[i] != 0)
            return 0;
    return 1;
}

/* The first frame of a fixed point below position i, NONE for none. */
static unsigned fixed_below(const engine_state *st, unsigned i)
{
    for (unsigned j = 0; j < i; j++)
        if (st->frame[j].point != ENGINE_WINDOW_GENERIC)
            return st->frame[j].point;
    return ENGINE_WINDOW_NONE;
}

int engine__frames_check(const engine_state *st)
{
    unsigned n = st->config.n_seats;
    uint16_t all = (uint16_t)((1u << n) - 1);
    unsigned generic = 0;          /* windows rows declare, below frame i */
    if (st->n_frames > ENGINE_FRAME_MAX || st->n_effects > ENGINE_EFFECT_MAX)
        return 0;
    for (unsigned i = 0; i < ENGINE_FRAME_MAX; i++) {
        const engine_frame *f = &st->frame[i];
        if (i >= st->n_frames) {
            if (!is_cleared(f, sizeof *f))
                return 0;
            continue;
        }
        if (f->point == ENGINE_WINDOW_NONE || f->point >= ENGINE_WINDOW_COUNT || f->is_resuming ||
            f->owner >= n || f->asked == 0 || (f->asked & ~all) ||
            (f->answered & ~f->asked) || f->answered == f->asked)
            return 0;
        /* A window a row declares names a row in force; the windows of
         * the fixed points name none. */
        if ((f->point == ENGINE_WINDOW_GENERIC) != (f->window != 0) ||
            (f->point == ENGINE_WINDOW_GENERIC &&
             (engine__generic_window(st, f->window) == NULL || f->rows != 0 || f->user >= n ||
              f->held.kind >= ENGINE_ACTION_KIND_COUNT)))
            return 0;
        if (f->point == ENGINE_WINDOW_GENERIC) {
            generic++;
            continue;
        }
        /* The shapes the canonical encoding of the fixed points holds
         * among themselves (the windows rows declare are written apart,
         * engine/state.c): one window, a question asked while a shipment's
         * payer, the Bene Gesserit or a battle's question are asked, or a
         * Karama window over the Bene Gesserit's send, the Voice, the
         * prescience question or the patrons' choices; directly above a
         * window a row declares, only its Karama window. */
        unsigned k = i - generic;  /* its place among the fixed points' frames */
        unsigned below = i > 0 ? st->frame[i - 1].point : ENGINE_WINDOW_NONE;
        unsigned first = fixed_below(st, i);
        if (k > 0 && !(k == 1 && ((f->point == ENGINE_WINDOW_TRUTHTRANCE && admits_question(first)) ||
                                  (f->point == ENGINE_WINDOW_KARAMA && admits_karama(first)))))
            return 0;
        if (below == ENGINE_WINDOW_GENERIC && f->point != ENGINE_WINDOW_KARAMA)
            return 0;
        if (is_battle_question(f->point) && (st->phase != ENGINE_PHASE_BATTLE || i != 0))
            return 0;
        unsigned over = point_over_step(st->phase, st->step);
        if ((f->point == ENGINE_WINDOW_WORM_ALLY || f->point == ENGINE_WINDOW_ALLY_REVIVAL) &&
            (f->point != over || i != 0 || st->awaiting != 0 || st->answered != 0))
            return 0;
    }
    unsigned prev_kind = 0, prev_source = 0;
    for (unsigned i = 0; i < ENGINE_EFFECT_MAX; i++) {
        const engine_effect *e = &st->effect[i];
        if (i >= st->n_effects) {
            if (!is_cleared(e, sizeof *e))
                return 0;
            continue;
        }
        if (e->kind == ENGINE_EFFECT_NONE || e->kind >= ENGINE_EFFECT_KIND_COUNT ||
            e->expiry > ENGINE_EXPIRY_BATTLE ||
            (i > 0 && (e->kind < prev_kind || (e->kind == prev_kind && e->source <= prev_source))))
            return 0;
        prev_kind = e->kind;
        prev_source = e->source;
    }
    return 1;
}

/* ============================== the encoding of rules versions 2 to 5 */

/* The windows that were steps, and the step each was. */
static const struct {
    uint8_t point, step;
} window_steps[] = {
    {ENGINE_WINDOW_SHIP_PAYER, SHIP_STEP_KARAMA_ANSWER},
    {ENGINE_WINDOW_BG_SEND, SHIP_STEP_BG_SEND},
    {ENGINE_WINDOW_VOICE, BATTLE_STEP_VOICE},
    {ENGINE_WINDOW_PRESCIENCE, BATTLE_STEP_PRESCIENCE},
    {ENGINE_WINDOW_PRESCIENCE_ANSWER, BATTLE_STEP_PRESCIENCE_ANSWER},
};

unsigned engine__told_step(const engine_state *st)
{
    for (size_t i = 0; i < sizeof window_steps / sizeof window_steps[0]; i++)
        if (engine_window_find(st, window_steps[i].point))
            return window_steps[i].step;
    return st->step;
}

unsigned engine_state_step(const engine_state *st)
{
    return engine__told_step(st);
}

void engine__pause_encode(engine__legacy_pause *out, const engine_state *st)
{
    memset(out, 0, sizeof *out);
    out->step = st->step;
    out->awaiting = st->awaiting;
    out->answered = st->answered;
    out->tt_pending = out->tt_asker = out->tt_answer = SEAT_NONE;
    out->owner = out->user = out->retake = SEAT_NONE;
    out->ship_seat = out->ship_payer = SEAT_NONE;
    /* the faction's own Voice; a Nexus card's is in the module's block */
    const engine_effect *voice = engine_effect_find(st, ENGINE_EFFECT_VOICE);
    out->voice_class = voice ? voice->value : ENGINE_VOICE_NONE;
    out->voice_must = voice ? (uint8_t)voice->arg : 0;
    out->prescience_element = (uint8_t)engine_battle_prescience(st);
    /* the effect's own argument: the Advanced dial's answer packed whole */
    const engine_effect *told = engine_effect_find(st, ENGINE_EFFECT_PRESCIENCE);
    out->prescience_value = told ? told->arg : 0;
    const engine_effect *answer = engine_effect_find(st, ENGINE_EFFECT_ANSWER);
    if (answer) {
        out->tt_asker = answer->owner;
        out->tt_answer = answer->value;
    }
    for (unsigned i = 0; i < st->n_effects; i++)
        if (st->effect[i].kind == ENGINE_EFFECT_CANCELLED) {
            out->cancelled |= ENGINE_ADVANTAGE_BIT(st->effect[i].source);
            out->retake = st->effect[i].owner;
        }
    for (unsigned i = 0; i < st->n_frames; i++) {
        const engine_frame *f = &st->frame[i];
        switch ((engine_window_point)f->point) {
        case ENGINE_WINDOW_TRUTHTRANCE:
            out->tt_pending = (uint8_t)engine__lowest_seat(f->asked);
            out->tt_asker = f->owner;
            out->tt_answer = SEAT_NONE;
            break;
        case ENGINE_WINDOW_KARAMA:
            out->offered = f->rows;
            out->owner = f->owner;
            out->user = f->user;
            out->pending = f->held;
            out->saved_awaiting = out->awaiting;
            out->saved_answered = out->answered;
            out->awaiting = f->asked;
            out->answered = f->answered;
            break;
        case ENGINE_WINDOW_SHIP_PAYER:
            out->step = SHIP_STEP_KARAMA_ANSWER;
            out->awaiting = f->asked;
            out->answered = f->answered;
            out->ship_seat = f->owner;
            out->ship_payer = f->user;
            out->ship_location = (uint8_t)f->held.arg[0];
            out->ship_forces = (uint8_t)f->held.arg[1];
            out->ship_elite = (uint8_t)f->held.arg[2];
            break;
        case ENGINE_WINDOW_BG_SEND:
        case ENGINE_WINDOW_VOICE:
        case ENGINE_WINDOW_PRESCIENCE:
        case ENGINE_WINDOW_PRESCIENCE_ANSWER:
            out->step = (uint8_t)engine__told_step(st);
            out->awaiting = f->asked;
            out->answered = f->answered;
            break;
        case ENGINE_WINDOW_WORM_ALLY:
        case ENGINE_WINDOW_ALLY_REVIVAL:
            out->awaiting = f->asked;
            out->answered = f->answered;
            break;
        case ENGINE_WINDOW_GENERIC: /* its own block (engine__frames_encode) */
        case ENGINE_WINDOW_NONE:
        case ENGINE_WINDOW_COUNT:
            break;
        }
    }
}

/* The Voice cast and the prescience answer of the battle being fought:
 * effect records binding the seat on the other side from their user. */
static int battle_effects_decode(engine_state *st, const engine__legacy_pause *in)
{
    unsigned n = st->config.n_seats;
    int answered = in->prescience_element != ENGINE_PRESCIENCE_NONE &&
                   !engine_window_find(st, ENGINE_WINDOW_PRESCIENCE_ANSWER);
    if ((in->voice_class == ENGINE_VOICE_NONE && in->voice_must != 0) ||
        (!answered && in->prescience_value != 0))
        return -1;
    if (in->voice_class == ENGINE_VOICE_NONE && !answered)
        return 0;
    unsigned a = st->battle_seat[0], d = st->battle_seat[1];
    if (st->phase != ENGINE_PHASE_BATTLE || a >= n || d >= n || a == d)
        return -1;
    if (in->voice_class != ENGINE_VOICE_NONE) {
        int bg = engine__point_owner(st, ENGINE__POINT_VOICE);
        if (bg < 0 || in->voice_class >= ENGINE_VOICE_CLASS_COUNT)
            return -1;
        int bg_side = a == (unsigned)bg || st->ally[a] == bg; /* side 0, else 1 */
        if (!bg_side && d != (unsigned)bg && st->ally[d] != bg)
            return -1;
        engine_effect e = {ENGINE_EFFECT_VOICE,
                           (uint8_t)engine__point_advantage(st, ENGINE__POINT_VOICE,
                                                            bg_side ? a : d),
                           (uint8_t)(bg_side ? d : a), in->voice_class, ENGINE_EXPIRY_BATTLE,
                           in->voice_must};
        if (engine__effect_add(st, &e) != 0)
            return -1;
    }
    if (answered) {
        int atreides = engine__point_owner(st, ENGINE__POINT_PRESCIENCE);
        if (atreides < 0 || in->prescience_element >= ENGINE_PRESCIENCE_ELEMENT_COUNT)
            return -1;
        int at_side = a == (unsigned)atreides || st->ally[a] == atreides;
        if (!at_side && d != (unsigned)atreides && st->ally[d] != atreides)
            return -1;
        engine_effect e = {ENGINE_EFFECT_PRESCIENCE,
                           (uint8_t)engine__point_advantage(st, ENGINE__POINT_PRESCIENCE,
                                                            at_side ? a : d),
                           (uint8_t)(at_side ? d : a), in->prescience_element,
                           ENGINE_EXPIRY_BATTLE, in->prescience_value};
        if (engine__effect_add(st, &e) != 0)
            return -1;
    }
    return 0;
}

int engine__pause_decode(engine_state *st, const engine__legacy_pause *in)
{
    static const engine_action none;
    unsigned n = st->config.n_seats;
    st->step = in->step;
    st->awaiting = in->awaiting;
    st->answered = in->answered;
    st->n_frames = 0;
    st->n_effects = 0;
    if (in->ship_seat != SEAT_NONE || in->ship_payer != SEAT_NONE || in->ship_location ||
        in->ship_forces || in->ship_elite ||
        (st->phase == ENGINE_PHASE_SHIPMENT_MOVEMENT && in->step == SHIP_STEP_KARAMA_ANSWER)) {
        if (st->phase != ENGINE_PHASE_SHIPMENT_MOVEMENT || in->step != SHIP_STEP_KARAMA_ANSWER ||
            in->ship_seat >= n || in->ship_payer >= n || in->answered != 0)
            return -1;
        engine_action held = none;
        held.kind = ENGINE_ACTION_SHIP_KARAMA_FROM;
        held.seat = in->ship_seat;
        held.arg[0] = in->ship_location;
        held.arg[1] = in->ship_forces;
        held.arg[2] = in->ship_elite;
        held.arg[3] = st->seat[in->ship_payer].faction;
        engine__frame_push(st, ENGINE_WINDOW_SHIP_PAYER, in->ship_seat, in->ship_payer, &held,
                           in->awaiting);
        st->step = SHIP_STEP_SHIP;
        st->awaiting = ENGINE_SEAT_BIT(in->ship_seat);
        st->answered = 0;
    }
    /* The Bene Gesserit's send is asked over the shipper's SHIP step. */
    uint16_t step_awaiting = in->offered ? in->saved_awaiting : in->awaiting;
    uint16_t step_answered = in->offered ? in->saved_answered : in->answered;
    if (st->phase == ENGINE_PHASE_SHIPMENT_MOVEMENT && in->step == SHIP_STEP_BG_SEND) {
        unsigned bg = engine__lowest_seat(step_awaiting);
        unsigned shipper = engine__ship_seat(st);
        if (st->n_frames != 0 || bg >= n || step_awaiting != ENGINE_SEAT_BIT(bg) ||
            step_answered != 0 || shipper >= n || shipper == bg)
            return -1;
        engine__frame_push(st, ENGINE_WINDOW_BG_SEND, shipper, bg, NULL, step_awaiting);
        st->step = SHIP_STEP_SHIP;
        st->awaiting = ENGINE_SEAT_BIT(shipper);
        st->answered = 0;
    }
    /* The Fremen's choices for their ally, and the Emperor's offer, are
     * asked over a step that waits on nobody meanwhile. */
    unsigned over = point_over_step(st->phase, in->step);
    if (over != ENGINE_WINDOW_NONE && step_awaiting != 0) {
        uint16_t all = (uint16_t)((1u << n) - 1);
        unsigned first = engine__lowest_seat(step_awaiting);
        if (st->n_frames != 0 || (step_awaiting & ~all) || (step_answered & ~step_awaiting) ||
            step_answered == step_awaiting)
            return -1;
        engine__frame_push(st, over, first, over == ENGINE_WINDOW_WORM_ALLY
                                                ? st->ally[first] : first, NULL, step_awaiting);
        st->frame[0].answered = step_answered;
        st->awaiting = st->answered = 0;
    }
    /* The Voice and prescience are asked over both seats' plans. */
    int battle_question = st->phase == ENGINE_PHASE_BATTLE &&
                          (in->step == BATTLE_STEP_VOICE || in->step == BATTLE_STEP_PRESCIENCE ||
                           in->step == BATTLE_STEP_PRESCIENCE_ANSWER);
    if (battle_question) {
        unsigned asked = engine__lowest_seat(step_awaiting);
        unsigned a = st->battle_seat[0], d = st->battle_seat[1];
        int atreides = engine__point_owner(st, ENGINE__POINT_PRESCIENCE);
        if (st->n_frames != 0 || asked >= n || step_awaiting != ENGINE_SEAT_BIT(asked) ||
            step_answered != 0 || a >= n || d >= n || a == d)
            return -1;
        if (in->step == BATTLE_STEP_PRESCIENCE_ANSWER) {
            if (atreides < 0 || in->prescience_element == ENGINE_PRESCIENCE_NONE ||
                in->prescience_element >= ENGINE_PRESCIENCE_ELEMENT_COUNT ||
                in->prescience_value != 0)
                return -1;
            engine_action question = none;
            question.kind = ENGINE_ACTION_PRESCIENCE;
            question.seat = (uint8_t)atreides;
            question.arg[0] = in->prescience_element;
            engine__frame_push(st, ENGINE_WINDOW_PRESCIENCE_ANSWER, (unsigned)atreides,
                               (unsigned)atreides, &question, step_awaiting);
        } else {
            engine__frame_push(st,
                               in->step == BATTLE_STEP_VOICE ? ENGINE_WINDOW_VOICE
                                                             : ENGINE_WINDOW_PRESCIENCE,
                               asked, asked, NULL, step_awaiting);
        }
        st->step = BATTLE_STEP_PLAN;
        st->awaiting = (uint16_t)(ENGINE_SEAT_BIT(a) | ENGINE_SEAT_BIT(d));
        st->answered = 0;
    }
    if (battle_effects_decode(st, in) != 0)
        return -1;
    if (in->offered != 0) {
        int over_send = st->n_frames == 1 && admits_karama(st->frame[0].point);
        if ((st->n_frames != 0 && !over_send) || in->owner >= n || in->user >= n)
            return -1;
        engine_frame *f = engine__frame_push(st, ENGINE_WINDOW_KARAMA, in->owner, in->user,
                                             &in->pending, in->awaiting);
        f->rows = in->offered;
        f->answered = in->answered;
        if (!over_send) {
            st->awaiting = in->saved_awaiting;
            st->answered = in->saved_answered;
        }
    } else if (in->owner != SEAT_NONE || in->user != SEAT_NONE ||
               memcmp(&in->pending, &none, sizeof none) != 0 || in->saved_awaiting ||
               in->saved_answered) {
        return -1;
    }
    if (in->tt_pending != SEAT_NONE) {
        if (in->tt_pending >= n || in->tt_asker >= n || in->tt_answer != SEAT_NONE ||
            st->n_frames > 1 ||
            (st->n_frames != 0 && !admits_question(st->frame[0].point)))
            return -1;
        engine__frame_push(st, ENGINE_WINDOW_TRUTHTRANCE, in->tt_asker, in->tt_asker, NULL,
                           ENGINE_SEAT_BIT(in->tt_pending));
    } else if (in->tt_asker != SEAT_NONE || in->tt_answer != SEAT_NONE) {
        engine_effect e = {ENGINE_EFFECT_ANSWER, ENGINE_CARD_TRUTHTRANCE, in->tt_asker,
                           in->tt_answer, ENGINE_EXPIRY_REPLACED, 0};
        engine__effect_add(st, &e);
    }
    if ((in->cancelled != 0) != (in->retake != SEAT_NONE) || (in->cancelled & ~ENGINE_ADVANTAGE_ALL))
        return -1;
    for (unsigned a = 1; a < ENGINE_ADVANTAGE_COUNT; a++)
        if (in->cancelled & ENGINE_ADVANTAGE_BIT(a)) {
            engine_effect e = {ENGINE_EFFECT_CANCELLED, (uint8_t)a, in->retake, SEAT_NONE,
                               ENGINE_EXPIRY_PHASE, 0};
            if (engine__effect_add(st, &e) != 0)
                return -1;
        }
    return 0;
}
