/*
 * diff.c - what changed between two views of one room: the turn, phase and
 * storm, who is awaited, forces and spice per location, each seat's spice,
 * reserves and Tanks, hands as the viewer knows them, traitors the viewer
 * can see, alliances, leaders, the prediction and the winners.
 *
 * Layer: inspect. Pure: compares the two engine_states it is given and
 * nothing else. Given two views for one viewer, it can say nothing that
 * viewer does not know: a card whose face the view marks unknown is "a
 * card", a traitor the view hides is not compared at all.
 *
 * Invariants: (1) changes come in a fixed order (kind, then seat, then
 * where), so two runs on the same views give the same list; (2) a change
 * is reported only when a field differs between the views.
 */
#include <string.h>

#include "inspect/internal.h"

static const char *const kind_names[INSPECT_CHANGE_KIND_COUNT] = {
    [INSPECT_CHANGE_TURN] = "turn",
    [INSPECT_CHANGE_PHASE] = "phase",
    [INSPECT_CHANGE_STORM] = "storm",
    [INSPECT_CHANGE_AWAITING] = "awaiting",
    [INSPECT_CHANGE_FORCES] = "forces",
    [INSPECT_CHANGE_ELITE] = "elite_forces",
    [INSPECT_CHANGE_ADVISORS] = "advisors",
    [INSPECT_CHANGE_BOARD_SPICE] = "board_spice",
    [INSPECT_CHANGE_SEAT_SPICE] = "seat_spice",
    [INSPECT_CHANGE_RESERVES] = "reserves",
    [INSPECT_CHANGE_ELITE_RESERVES] = "elite_reserves",
    [INSPECT_CHANGE_TANKS] = "tanks",
    [INSPECT_CHANGE_ELITE_TANKS] = "elite_tanks",
    [INSPECT_CHANGE_CARD_GAINED] = "card_gained",
    [INSPECT_CHANGE_CARD_LOST] = "card_lost",
    [INSPECT_CHANGE_CARD_SEEN] = "card_seen",
    [INSPECT_CHANGE_TRAITOR] = "traitor",
    [INSPECT_CHANGE_ALLIANCE] = "alliance",
    [INSPECT_CHANGE_LEADER] = "leader",
    [INSPECT_CHANGE_PREDICTION] = "prediction",
    [INSPECT_CHANGE_WINNERS] = "winners",
};
_Static_assert(sizeof kind_names / sizeof kind_names[0] == INSPECT_CHANGE_KIND_COUNT,
               "one name per change kind");

const char *inspect_change_kind_name(unsigned kind)
{
    return kind < INSPECT_CHANGE_KIND_COUNT ? kind_names[kind] : "?";
}

/* ========================================================= collecting */

typedef struct diff_out {
    inspect_change *out;           /* the caller's array */
    size_t cap;                    /* its length */
    size_t n;                      /* changes found, possibly more than cap */
    inspect_change scratch;        /* written to, unread, past cap */
} diff_out;

/* Adds a change and points t at its text (the scratch one past cap). */
static void push(diff_out *d, unsigned kind, uint8_t seat, int where, int32_t before,
                 int32_t after, inspect__text *t)
{
    inspect_change *c = d->n < d->cap ? &d->out[d->n] : &d->scratch;
    d->n++;
    c->kind = (uint8_t)kind;
    c->seat = seat;
    c->where = (int16_t)where;
    c->before = before;
    c->after = after;
    inspect__text_init(t, c->text, sizeof c->text);
}

static void seats_text(inspect__text *t, const engine_state *v, uint16_t mask)
{
    int n = 0;
    for (uint8_t s = 0; s < v->config.n_seats && s < ENGINE_MAX_SEATS; s++)
        if (mask & (1u << s))
            inspect__text_add(t, "%s%s", n++ ? ", " : "", inspect__seat_title(v, s));
    if (n == 0)
        inspect__text_add(t, "nobody");
}

static const char *place_name(unsigned place)
{
    switch ((engine_place)place) {
    case ENGINE_PLACE_OUT: return "out of the game";
    case ENGINE_PLACE_DECK: return "the deck";
    case ENGINE_PLACE_DISCARD: return "the discard pile";
    case ENGINE_PLACE_HAND: return "a hand";
    case ENGINE_PLACE_DEALT: return "dealt";
    case ENGINE_PLACE_POOL: return "the leader pool";
    case ENGINE_PLACE_TANKS: return "the Tanks";
    case ENGINE_PLACE_SET_ASIDE: return "set aside";
    case ENGINE_PLACE_AUCTION: return "the auction";
    case ENGINE_PLACE_REMOVED: return "removed from the game";
    case ENGINE_PLACE_PLAYED: return "played in battle";
    case ENGINE_PLACE_HIDDEN: return "somewhere unseen";
    }
    return "?";
}

/* ====================================================== the sections */

static void diff_phase(diff_out *d, const engine_state *a, const engine_state *b)
{
    inspect__text t;
    if (a->turn != b->turn) {
        push(d, INSPECT_CHANGE_TURN, INSPECT__SEAT_NONE, -1, a->turn, b->turn, &t);
        inspect__text_add(&t, "turn %u -> %u", a->turn, b->turn);
    }
    if (a->phase != b->phase) {
        push(d, INSPECT_CHANGE_PHASE, INSPECT__SEAT_NONE, -1, a->phase, b->phase, &t);
        inspect__text_add(&t, "phase %s -> %s", engine_phase_name(a->phase),
                          engine_phase_name(b->phase));
    }
    if (a->storm_sector != b->storm_sector) {
        push(d, INSPECT_CHANGE_STORM, INSPECT__SEAT_NONE, -1, a->storm_sector, b->storm_sector,
             &t);
        inspect__text_add(&t, "storm sector %u -> %u", a->storm_sector, b->storm_sector);
    }
    uint16_t wa = engine_state_awaiting(a), wb = engine_state_awaiting(b);
    if (wa != wb) {
        push(d, INSPECT_CHANGE_AWAITING, INSPECT__SEAT_NONE, -1, wa, wb, &t);
        inspect__text_add(&t, "awaiting ");
        seats_text(&t, a, wa);
        inspect__text_add(&t, " -> ");
        seats_text(&t, b, wb);
    }
}

static void diff_board(diff_out *d, const engine_state *a, const engine_state *b, unsigned kind)
{
    char where[64];
    inspect__text t;
    int bg = inspect__seat_of(b, ENGINE_FACTION_BENE_GESSERIT);
    for (uint8_t s = 0; s < b->config.n_seats && s < ENGINE_MAX_SEATS; s++)
        for (unsigned loc = 0; loc < ENGINE_LOCATION_COUNT; loc++) {
            int x, y;
            const char *what;
            switch (kind) {
            case INSPECT_CHANGE_FORCES:
                x = a->forces[loc][s], y = b->forces[loc][s], what = "forces";
                break;
            case INSPECT_CHANGE_ELITE:
                x = a->special[loc][s], y = b->special[loc][s];
                what = inspect__elite_name(b, s);
                break;
            default: /* advisors: the Bene Gesserit's only */
                if (s != bg)
                    continue;
                x = a->advisors[loc], y = b->advisors[loc], what = "advisors";
                break;
            }
            if (x == y)
                continue;
            inspect__location_text(where, sizeof where, loc);
            push(d, kind, s, (int)loc, x, y, &t);
            inspect__text_add(&t, "%s %s in %s: %d -> %d", inspect__seat_title(b, s), what,
                              where, x, y);
        }
}

static void diff_board_spice(diff_out *d, const engine_state *a, const engine_state *b)
{
    char where[64];
    inspect__text t;
    for (unsigned loc = 0; loc < ENGINE_LOCATION_COUNT; loc++) {
        if (a->spice[loc] == b->spice[loc])
            continue;
        inspect__location_text(where, sizeof where, loc);
        push(d, INSPECT_CHANGE_BOARD_SPICE, INSPECT__SEAT_NONE, (int)loc, a->spice[loc],
             b->spice[loc], &t);
        inspect__text_add(&t, "spice in %s: %u -> %u", where, a->spice[loc], b->spice[loc]);
    }
}

static void diff_seats(diff_out *d, const engine_state *a, const engine_state *b, unsigned kind)
{
    inspect__text t;
    for (uint8_t s = 0; s < b->config.n_seats && s < ENGINE_MAX_SEATS; s++) {
        const engine_seat_state *x = &a->seat[s], *y = &b->seat[s];
        int32_t before, after;
        const char *what;
        switch (kind) {
        case INSPECT_CHANGE_SEAT_SPICE:
            before = x->spice, after = y->spice, what = "spice";
            break;
        case INSPECT_CHANGE_RESERVES:
            before = x->reserves, after = y->reserves, what = "reserves";
            break;
        case INSPECT_CHANGE_ELITE_RESERVES:
            before = x->special_reserves, after = y->special_reserves;
            what = "elite reserves";
            break;
        case INSPECT_CHANGE_TANKS:
            before = x->tanks, after = y->tanks, what = "forces in the Tanks";
            break;
        default: /* INSPECT_CHANGE_ELITE_TANKS */
            before = x->special_tanks, after = y->special_tanks;
            what = "elite forces in the Tanks";
            break;
        }
        if (before == after)
            continue;
        push(d, kind, s, -1, before, after, &t);
        inspect__text_add(&t, "%s %s: %d -> %d", inspect__seat_title(b, s), what, before, after);
    }
}

static int holds(const engine_state *v, unsigned card, uint8_t s)
{
    return v->card[card].place == ENGINE_PLACE_HAND && v->card[card].holder == s;
}

static int32_t face_value(const engine_state *v, unsigned card)
{
    return v->card_kind[card];
}

static void diff_hands(diff_out *d, const engine_state *a, const engine_state *b, unsigned kind)
{
    inspect__text t;
    unsigned n_cards = b->n_cards < ENGINE_TREACHERY_MAX ? b->n_cards : ENGINE_TREACHERY_MAX;
    for (uint8_t s = 0; s < b->config.n_seats && s < ENGINE_MAX_SEATS; s++)
        for (unsigned c = 0; c < n_cards; c++) {
            int was = holds(a, c, s), is = holds(b, c, s);
            const char *who = inspect__seat_title(b, s);
            if (kind == INSPECT_CHANGE_CARD_GAINED && is && !was) {
                const char *face = inspect__card_face(b, (int)c);
                push(d, kind, s, (int)c, -1, face_value(b, c), &t);
                inspect__text_add(&t, "%s gained %s%s ", who, face ? "a " : "a card",
                                  face ? face : "");
                if (a->card[c].place == ENGINE_PLACE_HAND)
                    inspect__text_add(&t, "(from %s)", inspect__seat_title(a, a->card[c].holder));
                else
                    inspect__text_add(&t, "(from %s)", place_name(a->card[c].place));
            } else if (kind == INSPECT_CHANGE_CARD_LOST && was && !is) {
                /* The face as known before, or as revealed by where it went. */
                const char *face = inspect__card_face(a, (int)c);
                if (face == NULL)
                    face = inspect__card_face(b, (int)c);
                push(d, kind, s, (int)c, face_value(a, c), -1, &t);
                inspect__text_add(&t, "%s lost %s%s ", who, face ? "a " : "a card",
                                  face ? face : "");
                if (b->card[c].place == ENGINE_PLACE_HAND)
                    inspect__text_add(&t, "(to %s)", inspect__seat_title(b, b->card[c].holder));
                else
                    inspect__text_add(&t, "(to %s)", place_name(b->card[c].place));
            } else if (kind == INSPECT_CHANGE_CARD_SEEN && was && is &&
                       a->card_kind[c] == ENGINE_CARD_KIND_UNKNOWN &&
                       b->card_kind[c] != ENGINE_CARD_KIND_UNKNOWN) {
                push(d, kind, s, (int)c, -1, face_value(b, c), &t);
                inspect__text_add(&t, "a card in %s's hand is now known: %s", who,
                                  inspect__card_face(b, (int)c));
            }
        }
}

static void diff_traitors(diff_out *d, const engine_state *a, const engine_state *b)
{
    inspect__text t;
    for (uint8_t s = 0; s < b->config.n_seats && s < ENGINE_MAX_SEATS; s++)
        for (unsigned l = 0; l < ENGINE_LEADER_COUNT; l++) {
            int was = a->traitor[l].place == ENGINE_PLACE_HAND && a->traitor[l].holder == s;
            int is = b->traitor[l].place == ENGINE_PLACE_HAND && b->traitor[l].holder == s;
            if (was == is)
                continue;
            push(d, INSPECT_CHANGE_TRAITOR, s, (int)l, was, is, &t);
            if (is)
                inspect__text_add(&t, "%s holds %s as a traitor", inspect__seat_title(b, s),
                                  inspect__leader(l));
            else
                inspect__text_add(&t, "%s no longer holds %s as a traitor",
                                  inspect__seat_title(b, s), inspect__leader(l));
        }
}

static void diff_alliances(diff_out *d, const engine_state *a, const engine_state *b)
{
    inspect__text t;
    for (uint8_t s = 0; s < b->config.n_seats && s < ENGINE_MAX_SEATS; s++) {
        if (a->ally[s] == b->ally[s])
            continue;
        push(d, INSPECT_CHANGE_ALLIANCE, s, -1, a->ally[s], b->ally[s], &t);
        if (b->ally[s] < b->config.n_seats)
            inspect__text_add(&t, "%s is allied with %s", inspect__seat_title(b, s),
                              inspect__seat_title(b, b->ally[s]));
        else
            inspect__text_add(&t, "%s is no longer allied with %s", inspect__seat_title(b, s),
                              inspect__seat_title(a, a->ally[s]));
    }
}

static void diff_leaders(diff_out *d, const engine_state *a, const engine_state *b)
{
    inspect__text t;
    for (unsigned l = 0; l < ENGINE_LEADER_COUNT; l++) {
        if (a->leader[l].place == b->leader[l].place)
            continue;
        push(d, INSPECT_CHANGE_LEADER, INSPECT__SEAT_NONE, (int)l, a->leader[l].place,
             b->leader[l].place, &t);
        inspect__text_add(&t, "%s (%s): %s -> %s", inspect__leader(l),
                          inspect_faction_title(engine_leader_faction(l)),
                          place_name(a->leader[l].place), place_name(b->leader[l].place));
    }
}

static void diff_end(diff_out *d, const engine_state *a, const engine_state *b)
{
    inspect__text t;
    int32_t pa = a->prediction_turn ? a->prediction_faction * 256 + a->prediction_turn : 0;
    int32_t pb = b->prediction_turn ? b->prediction_faction * 256 + b->prediction_turn : 0;
    if (pa != pb) {
        push(d, INSPECT_CHANGE_PREDICTION, INSPECT__SEAT_NONE, -1, pa, pb, &t);
        if (pb != 0)
            inspect__text_add(&t, "the Bene Gesserit predict %s wins on turn %u",
                              inspect_faction_title(b->prediction_faction), b->prediction_turn);
        else
            inspect__text_add(&t, "the prediction is no longer known");
    }
    if (a->winners != b->winners) {
        push(d, INSPECT_CHANGE_WINNERS, INSPECT__SEAT_NONE, -1, a->winners, b->winners, &t);
        inspect__text_add(&t, "winners: ");
        seats_text(&t, b, b->winners);
    }
}

size_t inspect_diff(inspect_change *out, size_t cap, const engine_state *a,
                    const engine_state *b)
{
    diff_out d;
    d.out = out;
    d.cap = cap;
    d.n = 0;
    /* (1): the order of inspect_change_kind. */
    diff_phase(&d, a, b);
    diff_board(&d, a, b, INSPECT_CHANGE_FORCES);
    diff_board(&d, a, b, INSPECT_CHANGE_ELITE);
    diff_board(&d, a, b, INSPECT_CHANGE_ADVISORS);
    diff_board_spice(&d, a, b);
    diff_seats(&d, a, b, INSPECT_CHANGE_SEAT_SPICE);
    diff_seats(&d, a, b, INSPECT_CHANGE_RESERVES);
    diff_seats(&d, a, b, INSPECT_CHANGE_ELITE_RESERVES);
    diff_seats(&d, a, b, INSPECT_CHANGE_TANKS);
    diff_seats(&d, a, b, INSPECT_CHANGE_ELITE_TANKS);
    diff_hands(&d, a, b, INSPECT_CHANGE_CARD_GAINED);
    diff_hands(&d, a, b, INSPECT_CHANGE_CARD_LOST);
    diff_hands(&d, a, b, INSPECT_CHANGE_CARD_SEEN);
    diff_traitors(&d, a, b);
    diff_alliances(&d, a, b);
    diff_leaders(&d, a, b);
    diff_end(&d, a, b);
    return d.n;
}
