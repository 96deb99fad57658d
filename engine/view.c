/*
 * view.c - what a seat, or a spectator, may know of the game: the state
 * with every hidden fact the viewer does not know replaced by an unknown
 * mark. The privacy audit compares views across worlds the viewer cannot
 * tell apart, so a view must depend on nothing else.
 *
 * Invariants it relies on: (1) treachery card numbers carry no identity
 * (faces are dealt to numbers at random at setup and at every reshuffle);
 * (2) every hidden fact records in known_by the seats that know it, and
 * ENGINE_KNOWN_PUBLIC once shown face up (a fact every seat has seen in
 * private is still hidden from spectators); (3) which seats the game waits
 * on is computed from public facts only; (4) a Truthtrance question (asker,
 * target) and its answer are public, copied into every view as they are;
 * (5) Nexus card numbers carry no identity either, and a Nexus card neither
 * held nor known to the viewer is only "somewhere in the deck or the
 * discard": which of the two, and the piles' sizes, would show an
 * own-faction redraw (engine/nexus.c); a seat's own-faction policy is its own;
 * (6) a Nexus panel's effect record is public but for the answer a seat
 * gave the Ecaz Secret Ally, told to the asker and the asked only; (7) an
 * action held in a Karama window is public but for the arguments its form
 * keeps secret (the Kwisatz Haderach's use), its user's alone.
 */
#include <string.h>

#include "engine/phase.h"

static int knows(const engine_state *st, uint8_t viewer, uint16_t known_by)
{
    if (viewer == ENGINE_SEAT_ENGINE || (known_by & ENGINE_KNOWN_PUBLIC))
        return 1;
    return viewer < st->config.n_seats && (known_by & ENGINE_SEAT_BIT(viewer));
}

void engine_view(engine_state *out, const engine_state *st, uint8_t viewer)
{
    memcpy(out, st, sizeof *out);
    out->viewer = viewer;
    if (viewer == ENGINE_SEAT_ENGINE)
        return;
    /* Treachery cards: the face of each card not seen; the deck's order is
     * of numbers only, which say nothing (1). */
    for (unsigned i = 0; i < st->n_cards; i++)
        if (!knows(st, viewer, st->card[i].known_by)) {
            out->card_kind[i] = ENGINE_CARD_KIND_UNKNOWN;
            out->card[i].known_by = 0; /* who has seen it would say what it is */
        }
    /* Traitors: a card's number is its leader, so where each one is stays
     * hidden unless the viewer saw it. */
    for (unsigned l = 0; l < ENGINE_LEADER_COUNT; l++) {
        const engine_card_state *t = &st->traitor[l];
        if (t->place == ENGINE_PLACE_OUT || knows(st, viewer, t->known_by))
            continue;
        out->traitor[l].place = ENGINE_PLACE_HIDDEN;
        out->traitor[l].holder = ENGINE_UNKNOWN;
        out->traitor[l].known_by = 0; /* who saw it would say whose it is */
    }
    memset(out->traitor_deck, ENGINE_UNKNOWN, sizeof out->traitor_deck);
    /* Spice deck: its order, but for cards the viewer has seen. */
    for (unsigned i = 0; i < st->n_spice_deck; i++)
        if (!knows(st, viewer, st->spice_card[st->spice_deck[i]].known_by))
            out->spice_deck[i] = ENGINE_UNKNOWN;
    for (unsigned c = 0; c < st->n_spice_cards; c++)
        if (!knows(st, viewer, st->spice_card[c].known_by))
            out->spice_card[c].known_by = 0; /* a spice card's number is its identity */
    /* The Bene Gesserit prediction is theirs until the game ends. */
    int bg = engine__seat_of(st, ENGINE_FACTION_BENE_GESSERIT);
    if (st->phase != ENGINE_PHASE_GAME_OVER && (bg < 0 || viewer != (unsigned)bg)) {
        out->prediction_faction = ENGINE_FACTION_NONE;
        out->prediction_turn = 0;
    }
    /* Secret storm dials: each known to its dialer only. */
    for (unsigned s = 0; s < st->config.n_seats; s++)
        if (s != viewer)
            out->seat[s].storm_dial = ENGINE_UNKNOWN;
    /* Battle plans are secret until both are in (LR 1.07.04); the
     * prescience answer is the Atreides side's until then. */
    int revealed = st->phase == ENGINE_PHASE_BATTLE && st->step >= BATTLE_STEP_TRAITOR;
    if (st->phase == ENGINE_PHASE_BATTLE && !revealed) {
        for (unsigned i = 0; i < 2; i++) {
            if (st->battle_seat[i] == viewer || engine_karama_plan_shown(st, viewer, i))
                continue; /* its own, or one its Karama sees (R139) */
            engine_battle_plan *p = &out->plan[i];
            p->leader = p->cheap_hero = p->weapon = p->defense = -1;
            p->dial = p->half = p->elite = p->elite_half = 0; /* and the spice support */
            p->kwisatz_haderach = ENGINE_KH_UNDECLARED;
        }
        int atreides = engine__seat_of(st, ENGINE_FACTION_ATREIDES);
        int on_side = 0;
        for (unsigned i = 0; i < 2 && atreides >= 0; i++) {
            unsigned s = st->battle_seat[i];
            int atreides_side = s == (unsigned)atreides ||
                                (s < st->config.n_seats && st->ally[s] == atreides);
            /* The Atreides side asked; the other side gave the answer. */
            if (atreides_side && (viewer == s || viewer == (unsigned)atreides ||
                                  viewer == st->battle_seat[1 - i]))
                on_side = 1;
        }
        for (unsigned i = 0; i < out->n_effects && !on_side; i++)
            if (out->effect[i].kind == ENGINE_EFFECT_PRESCIENCE)
                out->effect[i].arg = 0;
    }
    /* Nexus Cards (5): faces and piles; what each seat holds is public. */
    if (st->config.modules & ENGINE_MODULE_NEXUS_CARDS) {
        for (unsigned c = 0; c < ENGINE_NEXUS_CARD_COUNT; c++) {
            engine_card_state *v = &out->nexus_card[c];
            if (knows(st, viewer, v->known_by))
                continue;
            out->nexus_face[c] = ENGINE_UNKNOWN;
            v->known_by = 0;
            if (v->place != ENGINE_PLACE_HAND)
                v->place = ENGINE_PLACE_HIDDEN;
        }
        out->n_nexus_deck = out->n_nexus_discard = 0;
        memset(out->nexus_deck, ENGINE_UNKNOWN, sizeof out->nexus_deck);
        memset(out->nexus_discard, ENGINE_UNKNOWN, sizeof out->nexus_discard);
        for (unsigned s = 0; s < st->config.n_seats; s++)
            if (s != viewer)
                out->nexus_policy[s] = ENGINE_UNKNOWN;
        /* (6) the Ecaz Secret Ally's answer is the asker's and the asked's;
         * the Atreides Cunning's element, the Atreides' and the other
         * side's (whose plan it is) */
        for (unsigned i = 0; i < out->n_effects; i++) {
            engine_effect *e = &out->effect[i];
            if (e->kind == ENGINE_EFFECT_NEXUS_ANSWER && viewer != e->owner && viewer != e->value)
                e->arg = 0;
            if (e->kind == ENGINE_EFFECT_NEXUS_PRESCIENCE && viewer != e->owner &&
                viewer != st->battle_seat[0] && viewer != st->battle_seat[1])
                e->arg = 0;
        }
    }
    /* (7) A held action's secret arguments are its user's. */
    for (unsigned i = 0; i < out->n_frames; i++) {
        engine_action *held = &out->frame[i].held;
        /* a battle plan held (rules version 8, engine/karama_stops.c): all of it */
        uint8_t secret = held->kind == ENGINE_ACTION_BATTLE_PLAN ? 0xFFu
                                                                 : engine_generic_secret_mask(held);
        if (out->frame[i].point != ENGINE_WINDOW_KARAMA || held->seat == viewer || secret == 0)
            continue;
        for (unsigned a = 0; a < ENGINE_ACTION_MAX_ARGS; a++)
            if (secret & (1u << a))
                held->arg[a] = 0;
    }
    /* The Advanced storm deck's next card is the Fremen's, unless a Karama
     * stopped their look at it (rules version 8, engine/karama_stops.c). */
    int fremen = engine__seat_of(st, ENGINE_FACTION_FREMEN);
    if (fremen < 0 || viewer != (unsigned)fremen ||
        (st->karama_stopped & ENGINE_ADVANTAGE_BIT(ENGINE_ADVANTAGE_FREMEN_STORM_PEEK)))
        out->next_storm = 0;
}
