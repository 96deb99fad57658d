/*
 * audit_marks.c - knowledge by rule: who learns what when a component
 * moves or is shown, written from the rules as a table, against which
 * the engine's known_by marks are checked after every event of an
 * audited game.
 *
 * The counterfactual audit (audit.c) trusts known_by to say what a seat
 * may know: a card marked known to a seat is never changed for it. So a
 * mark the rules do not give (a peek marked known to every seat) would
 * hide a leak from it. Here the marks are recomputed for each event from
 * the state before it, the event's action and where each component went,
 * by the rows of `rules` only (never by calling the engine's marking
 * code), and compared: a seat or the public marked as knowing what no
 * row shows it is a leak (channel "marks"); a seat the rules show a
 * component to whose mark is missing is counted as forgotten (the view
 * then hides less than nothing: not a leak, but a fact the seat can link
 * across time that the marks do not record).
 *
 * Layer: inspect. Pure: reads the two states and the action, writes only
 * the caller's result. Never allocates, never calls the engine's rules.
 */
#include <string.h>

#include "inspect/internal.h"

/* The components whose identity is hidden. */
enum { PART_CARD = 0, PART_TRAITOR, PART_SPICE, PART_COUNT };

/* When a row applies to a component i. */
enum {
    WHEN_MOVED = 0,                /* its place (or holder) changed from `from` to `to` */
    WHEN_UP_FOR_BID,               /* it is the treachery card up for bid after the event */
    WHEN_TOP_AT_SHIPMENT,          /* it is the top spice card during Shipment and Movement */
    WHEN_ANSWER_NAMES,             /* the event is a prescience answer naming it */
    WHEN_KARAMA_BID,               /* it became the Karama set aside for the high bid */
    WHEN_KARAMA_REDEALT,           /* the Karama this event spent, discarded and reshuffled at once */
    WHEN_TRAITOR_CALLED,           /* the event calls its leader, in a plan, as a traitor */
    WHEN_SPENT_AND_REDRAWN,        /* a Karama spent on a window, reshuffled and drawn into
                                      another hand by the action the window held */
    WHEN_GLIMPSED,                 /* in the loser's hand as the CHOAM Secret Ally looks (the
                                      event: a `nexus_glimpse` answer that looks) */
    WHEN_KARAMA_PLAN,              /* it is a card of the committed plan the Atreides' Karama
                                      look names (karama_plan_seen) after the event */
};

/* Who learns. */
enum {
    WHO_HOLDER = 0,                /* the seat now holding it */
    WHO_TABLE,                     /* every seat and the public: shown face up */
    WHO_NOBODY,                    /* nobody: its face (or place) dealt afresh */
    WHO_ATREIDES,                  /* the Atreides seat */
    WHO_ATREIDES_SIDE,             /* the Atreides and the seat of the Atreides' side */
    WHO_ACTOR,                     /* the seat whose action the event is */
    WHO_KARAMA_SEER,               /* the seat whose Karama look names the plan */
};

#define ANY 0xFF                   /* any place */

/* One rule: when it applies, who learns, and whether the learning
 * replaces the marks (a reshuffle, a face-up reveal) or adds to them;
 * `is_optional`: the rules allow it but a Karama may prevent it, so its
 * absence is no fault. */
typedef struct marks_rule {
    uint8_t part;
    uint8_t when;
    uint8_t from, to;              /* WHEN_MOVED: places before and after (ANY) */
    uint8_t who;
    uint8_t is_reset;
    uint8_t is_optional;
    const char *what;
    const char *source;            /* book, section */
} marks_rule;

static const marks_rule rules[] = {
    /* treachery cards */
    {PART_CARD, WHEN_MOVED, ENGINE_PLACE_DISCARD, ANY, WHO_NOBODY, 1, 0,
     "a card leaves the discard pile only reshuffled into a new deck (and may be drawn at "
     "once): faces dealt afresh to the numbers", "[LR] 1.04.09; RULINGS R28"},
    {PART_CARD, WHEN_SPENT_AND_REDRAWN, ANY, ANY, WHO_NOBODY, 1, 0,
     "a Karama spent on a window is discarded; the held action resumed may reshuffle the "
     "discard and draw it into another hand: its face dealt afresh",
     "[LR] 1.04.09, 3.01.11; RULINGS R28, R56"},
    {PART_CARD, WHEN_MOVED, ANY, ENGINE_PLACE_HAND, WHO_HOLDER, 0, 0,
     "a card bought, drawn, taken or kept goes face down to its holder, who sees it",
     "[LR] 1.04.02, 2.05.04; RULINGS R27"},
    {PART_CARD, WHEN_MOVED, ANY, ENGINE_PLACE_DISCARD, WHO_TABLE, 1, 0,
     "a card discarded goes face up on the discard pile", "[LR] 1.04.09; RULINGS R49"},
    {PART_CARD, WHEN_MOVED, ANY, ENGINE_PLACE_PLAYED, WHO_TABLE, 1, 0,
     "a card in a battle plan is revealed with the plans", "[LR] 1.07.05; RULINGS R46"},
    {PART_CARD, WHEN_MOVED, ANY, ENGINE_PLACE_REMOVED, WHO_TABLE, 1, 0,
     "Family Atomics is played face up and removed", "[LR] 3.01.06-07; RULINGS R52"},
    {PART_CARD, WHEN_UP_FOR_BID, ANY, ANY, WHO_ATREIDES, 0, 1,
     "the Atreides see each card up for bid (unless a Karama prevents it)",
     "[LR] 2.01.05; RULINGS R64"},
    {PART_CARD, WHEN_KARAMA_PLAN, ANY, ANY, WHO_KARAMA_SEER, 0, 0,
     "the Atreides' Karama power shows them one player's entire battle plan, its cards among it",
     "[LR] 1.14.01; RULINGS R139"},
    {PART_CARD, WHEN_ANSWER_NAMES, ANY, ANY, WHO_ATREIDES_SIDE, 0, 0,
     "a prescience answer shows the card named to the Atreides side only",
     "[LR] 2.01.05; RULINGS R43"},
    {PART_CARD, WHEN_KARAMA_BID, ANY, ANY, WHO_TABLE, 1, 0,
     "a Karama used to bid or take a card is shown", "[LR] 1.04.04, 3.01.11"},
    {PART_CARD, WHEN_KARAMA_REDEALT, ANY, ANY, WHO_HOLDER, 1, 0,
     "the Karama spent on a card is discarded, and when the Harkonnen's free card empties the "
     "deck it is reshuffled and may be drawn at once: its face dealt afresh",
     "[LR] 1.04.09, 2.05.08; RULINGS R28"},
    {PART_CARD, WHEN_GLIMPSED, ANY, ANY, WHO_ACTOR, 0, 1,
     "after a battle won, the CHOAM Secret Ally's holder sees one random card of the loser's "
     "hand (any of them: the engine draws which)",
     "[E3] p.11, CHOAM Nexus card (Secret Ally, b); RULINGS R153"},
    /* traitor cards */
    {PART_TRAITOR, WHEN_MOVED, ENGINE_PLACE_DECK, ENGINE_PLACE_DEALT, WHO_HOLDER, 1, 0,
     "traitor cards dealt in secret, one to be kept; the others stay known to it alone",
     "[LR] 0.06; RULINGS R5"},
    {PART_TRAITOR, WHEN_MOVED, ENGINE_PLACE_DECK, ENGINE_PLACE_HAND, WHO_HOLDER, 1, 0,
     "the Harkonnen keep all four traitors dealt", "[LR] 2.05.02"},
    {PART_TRAITOR, WHEN_TRAITOR_CALLED, ANY, ANY, WHO_TABLE, 1, 0,
     "a traitor called is revealed to all", "[LR] 1.07.05, 2.05.06; RULINGS R46"},
    /* spice cards */
    {PART_SPICE, WHEN_MOVED, ENGINE_PLACE_DISCARD, ANY, WHO_NOBODY, 1, 0,
     "the spice discard reshuffled into a new deck, known to no one (and may be revealed at "
     "once)", "[LR] 1.13.03; RULINGS R17"},
    {PART_SPICE, WHEN_MOVED, ENGINE_PLACE_SET_ASIDE, ANY, WHO_NOBODY, 1, 0,
     "turn 1: worms set aside are shuffled back", "[LR] 1.02.02"},
    {PART_SPICE, WHEN_MOVED, ANY, ENGINE_PLACE_DISCARD, WHO_TABLE, 1, 0,
     "a spice card is revealed onto its discard pile", "[LR] 1.02; RULINGS R16"},
    {PART_SPICE, WHEN_MOVED, ANY, ENGINE_PLACE_SET_ASIDE, WHO_TABLE, 1, 0,
     "turn 1: a worm revealed is set aside face up", "[LR] 1.02.02"},
    {PART_SPICE, WHEN_TOP_AT_SHIPMENT, ANY, ANY, WHO_ATREIDES, 0, 1,
     "the Atreides see the top card of the spice deck (unless a Karama prevents it)",
     "[LR] 2.01.07; RULINGS R64"},
};

const char *inspect__marks_rule_source(size_t i, const char **what_out)
{
    if (i >= sizeof rules / sizeof rules[0])
        return NULL;
    *what_out = rules[i].what;
    return rules[i].source;
}

static const engine_card_state *part_of(const engine_state *st, unsigned part, unsigned i)
{
    return part == PART_CARD ? &st->card[i] : part == PART_TRAITOR ? &st->traitor[i]
                                                                     : &st->spice_card[i];
}

static unsigned part_count(const engine_state *st, unsigned part)
{
    return part == PART_CARD ? st->n_cards : part == PART_TRAITOR ? ENGINE_LEADER_COUNT
                                                                  : st->n_spice_cards;
}

static int seat_of_faction(const engine_state *st, unsigned faction)
{
    for (unsigned s = 0; s < st->config.n_seats; s++)
        if (st->seat[s].faction == faction)
            return (int)s;
    return -1;
}

static uint16_t seat_bit(int s)
{
    return (uint16_t)(s >= 0 && s < ENGINE_MAX_SEATS ? 1u << s : 0u);
}

/* The treachery card up for bid in st, or -1. */
static int card_up(const engine_state *st)
{
    if (st->phase != ENGINE_PHASE_BIDDING || st->auction_index >= st->n_auction)
        return -1;
    return st->auction[st->auction_index];
}

static int applies(const marks_rule *r, const engine_state *before, const engine_state *after,
                   const engine_action *act, unsigned i)
{
    const engine_card_state *b = part_of(before, r->part, i), *a = part_of(after, r->part, i);
    switch (r->when) {
    case WHEN_MOVED:
        return (b->place != a->place || b->holder != a->holder) &&
               (r->from == ANY || r->from == b->place) && (r->to == ANY || r->to == a->place);
    case WHEN_SPENT_AND_REDRAWN:
        return act->kind == ENGINE_ACTION_KARAMA_CANCEL && b->place == ENGINE_PLACE_HAND &&
               b->holder == act->seat && a->place == ENGINE_PLACE_HAND && a->holder != b->holder;
    case WHEN_KARAMA_PLAN: {
        unsigned seen = after->karama_plan_seen & 0x0Fu;
        for (unsigned side = 0; side < 2 && seen != 0 && after->phase == ENGINE_PHASE_BATTLE;
             side++) {
            const engine_battle_plan *pl = &after->plan[side];
            if (after->battle_seat[side] == seen - 1u && pl->is_committed &&
                (pl->weapon == (int)i || pl->defense == (int)i || pl->cheap_hero == (int)i))
                return 1;
        }
        return 0;
    }
    case WHEN_UP_FOR_BID:
        return card_up(after) == (int)i;
    case WHEN_TOP_AT_SHIPMENT:
        return after->phase == ENGINE_PHASE_SHIPMENT_MOVEMENT && after->n_spice_deck > 0 &&
               after->spice_deck[after->n_spice_deck - 1] == i;
    case WHEN_ANSWER_NAMES:
        /* the weapon and defense elements name a card */
        return act->kind == ENGINE_ACTION_PRESCIENCE_ANSWER && act->arg[0] == (int)i &&
               (engine_battle_prescience(before) == ENGINE_PRESCIENCE_WEAPON ||
                engine_battle_prescience(before) == ENGINE_PRESCIENCE_DEFENSE);
    case WHEN_KARAMA_BID:
        return after->high_bid_karama == i && before->high_bid_karama != i;
    case WHEN_GLIMPSED:
        return act->kind == ENGINE_ACTION_ANSWER && act->arg[1] == 1 &&
               act->arg[0] == engine_window_from_slug("nexus_glimpse") &&
               before->battle_winner <= 1 && b->place == ENGINE_PLACE_HAND &&
               b->holder == before->battle_seat[1 - before->battle_winner];
    case WHEN_KARAMA_REDEALT: {
        /* spent: the one a karama_take plays (the seat's lowest-numbered
         * Karama), or the one a high bid set aside, at its sale; the
         * discard pile reshuffled into the deck in the event (only a
         * reshuffle grows the deck while a card is sold); and out of the
         * discard pile after it */
        const engine_card_state *c = &before->card[i];
        int taken = act->kind == ENGINE_ACTION_KARAMA_TAKE && c->place == ENGINE_PLACE_HAND &&
                    c->holder == act->seat && before->card_kind[i] == ENGINE_CARD_KARAMA;
        for (unsigned j = 0; taken && j < i; j++)
            taken = !(before->card[j].place == ENGINE_PLACE_HAND &&
                      before->card[j].holder == act->seat &&
                      before->card_kind[j] == ENGINE_CARD_KARAMA);
        int sold = before->high_bid_karama == i &&
                   (after->auction_index > before->auction_index ||
                    after->phase != ENGINE_PHASE_BIDDING);
        return (taken || sold) && after->n_deck > before->n_deck &&
               after->card[i].place != ENGINE_PLACE_DISCARD;
    }
    case WHEN_TRAITOR_CALLED: {
        /* the caller (a side, or its ally) shows the traitor card it holds
         * of the opposing side's leader, when the call applies: from rules
         * version 7 a call the neutral Nexus window holds applies when the
         * window closes, unless a panel cancelled it (the card then went
         * back to the deck) */
        const engine_card_state *t = &before->traitor[i];
        const engine_frame *held = engine_nexus_window(before);
        const engine_frame *holding = engine_nexus_window(after);
        if (holding != NULL && holding->held.kind == ENGINE_ACTION_TRAITOR_CALL)
            return 0; /* held, not applied yet */
        if (act->kind == ENGINE_ACTION_ANSWER && held != NULL &&
            held->held.kind == ENGINE_ACTION_TRAITOR_CALL &&
            after->traitor[i].place == ENGINE_PLACE_HAND)
            act = &held->held;
        if (act->kind != ENGINE_ACTION_TRAITOR_CALL || act->arg[0] != 1 ||
            t->place != ENGINE_PLACE_HAND || t->holder != act->seat)
            return 0;
        for (unsigned side = 0; side < 2; side++) {
            uint8_t s = before->battle_seat[side];
            if (s < before->config.n_seats && (s == act->seat || before->ally[s] == act->seat) &&
                before->plan[1 - side].leader == (int)i)
                return 1;
        }
        return 0;
    }
    default:
        return 0;
    }
}

static uint16_t who_set(const marks_rule *r, const engine_state *before,
                        const engine_state *after, const engine_action *act, unsigned i)
{
    int atreides = seat_of_faction(after, ENGINE_FACTION_ATREIDES);
    switch (r->who) {
    case WHO_HOLDER:
        return seat_bit(part_of(after, r->part, i)->holder);
    case WHO_TABLE:
        return (uint16_t)(((1u << after->config.n_seats) - 1) | ENGINE_KNOWN_PUBLIC);
    case WHO_NOBODY:
        return 0;
    case WHO_ACTOR:
        return seat_bit(act->seat);
    case WHO_ATREIDES:
        return seat_bit(atreides);
    case WHO_KARAMA_SEER:
        return seat_bit((int)(after->karama_plan_seen >> 4) - 1);
    case WHO_ATREIDES_SIDE: {
        /* the side that asked: the one the answering seat fights */
        unsigned asked = before->battle_seat[0] == act->seat ? 0 : 1;
        return (uint16_t)(seat_bit(atreides) | seat_bit(before->battle_seat[1 - asked]));
    }
    default:
        return 0;
    }
}

/* The lowest seat of a known_by set, else ENGINE_VIEW_PUBLIC. */
static uint8_t first_knower(uint16_t set)
{
    for (uint8_t s = 0; s < ENGINE_MAX_SEATS; s++)
        if ((unsigned)set >> s & 1u)
            return s;
    return ENGINE_VIEW_PUBLIC;
}

static const char *const part_names[PART_COUNT] = {"card", "traitor", "spice_card"};

static void who_text(inspect__text *t, const engine_state *st, uint16_t set)
{
    inspect__text_add(t, "{");
    const char *sep = "";
    for (uint8_t s = 0; s < st->config.n_seats; s++)
        if ((unsigned)set >> s & 1u) {
            inspect__text_add(t, "%s%s", sep, inspect__seat_title(st, s));
            sep = ", ";
        }
    if (set & ENGINE_KNOWN_PUBLIC)
        inspect__text_add(t, "%sthe public", sep);
    inspect__text_add(t, "}");
}

int inspect__marks_check(inspect__marks_result *out, const engine_state *before,
                         const engine_state *after, const engine_action *act)
{
    memset(out, 0, sizeof *out);
    for (unsigned part = 0; part < PART_COUNT; part++) {
        unsigned n = part_count(after, part);
        for (unsigned i = 0; i < n; i++) {
            uint16_t must = part_of(before, part, i)->known_by, may = must;
            const marks_rule *last = NULL;
            for (size_t k = 0; k < sizeof rules / sizeof rules[0]; k++) {
                const marks_rule *r = &rules[k];
                if (r->part != part || !applies(r, before, after, act, i))
                    continue;
                uint16_t w = who_set(r, before, after, act, i);
                if (r->is_reset) {
                    must = may = w;
                } else {
                    may = (uint16_t)(may | w);
                    if (!r->is_optional)
                        must = (uint16_t)(must | w);
                }
                last = r;
            }
            uint16_t got = part_of(after, part, i)->known_by;
            uint16_t over = (uint16_t)(got & ~may), missing = (uint16_t)(must & ~got);
            if (over == 0 && missing == 0)
                continue;
            inspect__marks_finding *f = over != 0 ? &out->over : &out->forgotten;
            if (over != 0)
                out->n_over++;
            else
                out->n_forgotten++;
            if (f->is_set)
                continue;
            f->is_set = 1;
            f->part = (uint8_t)part;
            f->index = (uint8_t)i;
            f->seat = first_knower(over != 0 ? over : missing);
            snprintf(f->field, sizeof f->field, "marks.%s[%u].known_by", part_names[part], i);
            inspect__text t;
            inspect__text_init(&t, f->detail, sizeof f->detail);
            inspect__text_add(&t, "the engine marks ");
            who_text(&t, after, got);
            inspect__text_add(&t, ", by the rules ");
            who_text(&t, after, must);
            if (may != must) {
                inspect__text_add(&t, " and may ");
                who_text(&t, after, may);
            }
            if (last != NULL)
                inspect__text_add(&t, " (%s, %s)", last->what, last->source);
            else
                inspect__text_add(&t, " (no rule shows it to anyone new)");
        }
    }
    return out->n_over != 0;
}
