/*
 * bots/world.c - the world sampler: from what one seat (or the public) may
 * know, a full game state consistent with it, every hidden fact drawn at
 * random among the possibilities.
 *
 * Layer: tools. Brutal searches over such worlds; the privacy audit can
 * use the same function to make counterfactual worlds a seat cannot tell
 * apart from the real one. The promise, checked by the tests over states
 * from real games: engine_view(sample, viewer) equals the view sampled
 * from, byte for byte, and the sample keeps every engine invariant.
 *
 * What is hidden in a view (engine/view.c) and how each is drawn:
 *   (1) card faces unseen: the multiset of kinds not accounted for (the
 *       game's deck composition, got by dealing a table of the same
 *       configuration with engine_setup, less the faces seen), dealt to
 *       the unseen card numbers in random order;
 *   (2) traitors unseen: each other seat holds what the rules give it
 *       (four dealt while it chooses; then one kept and three discarded,
 *       the Harkonnen four kept), less the ones seen; the rest make the
 *       traitor deck, in random order;
 *   (3) the spice deck's unseen positions: the spice cards in the deck not
 *       seen there, in random order;
 *   (4) the Bene Gesserit prediction, once made: a faction at the table
 *       and a turn;
 *   (5) storm dials already given: a value in the dial's range;
 *   (6) committed battle plans not yet revealed: a legal plan of that
 *       seat in the sampled world, and the prescience answer it implies;
 *       a prescience answer the viewer saw (a card number) makes that
 *       card's face fit the slot it was named for, and "no leader" deals
 *       the asked seat no Cheap Hero;
 *   (7) Nexus Cards: the faces unseen, dealt to the unseen numbers in
 *       random order; every card neither held nor known in the discard is
 *       in the deck, in random order; another seat's own-faction policy
 *       in an open draw opportunity, one of the three.
 * The steps read below are the engine's (engine.h "Facts").
 */
#include <stdlib.h>
#include <string.h>

#include "tools/internal.h"

static void shuffle(uint8_t *items, unsigned n, tool_prng *r)
{
    for (unsigned i = n; i > 1; i--) {
        unsigned j = (unsigned)tool_prng_range(r, 0, (int32_t)i - 1);
        uint8_t t = items[i - 1];
        items[i - 1] = items[j];
        items[j] = t;
    }
}

int bot_world_composition(uint8_t counts[ENGINE_CARD_KIND_COUNT], unsigned *n_cards_out,
                          const engine_config *cfg)
{
    static const uint8_t seed[ENGINE_SEED_BYTES] = {0};
    engine_config c = *cfg;
    engine_rng rng;
    engine_state *st = malloc(sizeof *st);
    if (st == NULL)
        return -1;
    c.is_constructed = 0;
    engine_rng_init(&rng, seed, 0);
    engine_verdict v = engine_setup(NULL, st, &c, &rng);
    int rc = -1;
    if (v == ENGINE_ACCEPTED) {
        memset(counts, 0, ENGINE_CARD_KIND_COUNT);
        for (unsigned i = 0; i < st->n_cards; i++)
            if (st->card_kind[i] < ENGINE_CARD_KIND_COUNT)
                counts[st->card_kind[i]]++;
        *n_cards_out = st->n_cards;
        rc = 0;
    }
    free(st);
    return rc;
}

/* (1) */
static int sample_faces(engine_state *w, tool_prng *r)
{
    uint8_t counts[ENGINE_CARD_KIND_COUNT];
    unsigned n_cards;
    if (bot_world_composition(counts, &n_cards, &w->config) != 0 || n_cards != w->n_cards)
        return -1;
    uint8_t unseen[ENGINE_TREACHERY_MAX], kinds[ENGINE_TREACHERY_MAX];
    unsigned n_unseen = 0, n_kinds = 0;
    for (unsigned i = 0; i < w->n_cards; i++) {
        unsigned k = w->card_kind[i];
        if (k == ENGINE_CARD_KIND_UNKNOWN) {
            unseen[n_unseen++] = (uint8_t)i;
            continue;
        }
        if (k >= ENGINE_CARD_KIND_COUNT || counts[k] == 0)
            return -1;
        counts[k]--;
    }
    for (unsigned k = 0; k < ENGINE_CARD_KIND_COUNT; k++)
        for (unsigned j = 0; j < counts[k]; j++)
            kinds[n_kinds++] = (uint8_t)k;
    if (n_kinds != n_unseen)
        return -1;
    shuffle(kinds, n_kinds, r);
    for (unsigned i = 0; i < n_unseen; i++)
        w->card_kind[unseen[i]] = kinds[i];
    return 0;
}

/* (1), continued: the prescience answer the viewer saw names a card of
 * the asked seat's plan (a weapon or defense card number, or "a Cheap
 * Hero"); the card's face stays unseen, but it must fit. When the faces
 * drawn do not, swap kinds with another unseen card that does. */
static int fits(unsigned element, unsigned kind)
{
    unsigned c = engine_card_kind_classes(kind);
    if (element == ENGINE_PRESCIENCE_WEAPON)
        return (c & (ENGINE_CARD_CLASS_WEAPON_PROJECTILE | ENGINE_CARD_CLASS_WEAPON_POISON | ENGINE_CARD_CLASS_WEAPON_SPECIAL |
                     ENGINE_CARD_CLASS_WORTHLESS)) != 0;
    if (element == ENGINE_PRESCIENCE_DEFENSE)
        return (c & (ENGINE_CARD_CLASS_DEFENSE_PROJECTILE | ENGINE_CARD_CLASS_DEFENSE_POISON | ENGINE_CARD_CLASS_WORTHLESS)) != 0;
    return kind == ENGINE_CARD_CHEAP_HERO;
}

/* Whether the viewer sees the prescience answer (engine/view.c): the
 * Atreides, the side that asked and the side that answered. -1 when no
 * question stands. */
static int answer_seen(const engine_state *view, int *atreides_side)
{
    int atreides = bot__seat_of(view, ENGINE_FACTION_ATREIDES);
    *atreides_side = -1;
    if (atreides < 0 || view->phase != ENGINE_PHASE_BATTLE || engine_battle_prescience(view) == ENGINE_PRESCIENCE_NONE ||
        view->step >= ENGINE_BATTLE_STEP_TRAITOR)
        return -1;
    int seen = 0;
    for (unsigned i = 0; i < 2; i++) {
        unsigned s = view->battle_seat[i];
        int a_side = s == (unsigned)atreides || (s < view->config.n_seats && view->ally[s] == atreides);
        if (!a_side)
            continue;
        *atreides_side = (int)i;
        if (view->viewer == s || view->viewer == (unsigned)atreides ||
            view->viewer == view->battle_seat[1 - i])
            seen = 1;
    }
    return seen;
}

/* A leader answered "none" (no leader, no Cheap Hero): the asked seat
 * holds no Cheap Hero in the sampled world either, else it would have to
 * play one (LR 1.07.04.02) and could keep to the answer with no plan. A
 * Cheap Hero drawn for one of its unseen cards trades faces with another
 * unseen card, not its own, that is none. */
static int no_cheap_hero(engine_state *w, const engine_state *view, unsigned asked, tool_prng *r)
{
    for (unsigned i = 0; i < w->n_cards; i++) {
        if (w->card[i].place != ENGINE_PLACE_HAND || w->card[i].holder != asked ||
            w->card_kind[i] != ENGINE_CARD_CHEAP_HERO)
            continue;
        if (view->card_kind[i] != ENGINE_CARD_KIND_UNKNOWN)
            return -1;
        uint8_t cand[ENGINE_TREACHERY_MAX];
        unsigned n = 0;
        for (unsigned j = 0; j < w->n_cards; j++)
            if (view->card_kind[j] == ENGINE_CARD_KIND_UNKNOWN &&
                w->card_kind[j] != ENGINE_CARD_CHEAP_HERO &&
                !(w->card[j].place == ENGINE_PLACE_HAND && w->card[j].holder == asked))
                cand[n++] = (uint8_t)j;
        if (n == 0)
            return -1;
        unsigned other = cand[tool_prng_range(r, 0, (int32_t)n - 1)];
        w->card_kind[i] = w->card_kind[other];
        w->card_kind[other] = ENGINE_CARD_CHEAP_HERO;
    }
    return 0;
}

static int repair_prescience(engine_state *w, const engine_state *view, tool_prng *r)
{
    int a_side;
    if (answer_seen(view, &a_side) != 1)
        return 0;
    unsigned element = engine_battle_prescience(view);
    int value = engine_battle_prescience_answer(view);
    if (view->phase != ENGINE_PHASE_BATTLE || engine_state_step(view) <= ENGINE_BATTLE_STEP_PRESCIENCE_ANSWER ||
        view->step >= ENGINE_BATTLE_STEP_TRAITOR || element < ENGINE_PRESCIENCE_LEADER ||
        element > ENGINE_PRESCIENCE_DEFENSE)
        return 0;
    /* The asked seat: the side that is not the Atreides'. */
    int asked = (int)view->battle_seat[1 - a_side];
    if (asked >= view->config.n_seats)
        return 0;
    int target = -1; /* the card that must fit */
    if (element == ENGINE_PRESCIENCE_LEADER) {
        if (value == -1) /* no leader */
            return no_cheap_hero(w, view, (unsigned)asked, r);
        if (value != ENGINE_PRESCIENCE_CHEAP_HERO)
            return 0;
        for (unsigned i = 0; i < w->n_cards; i++)
            if (w->card[i].place == ENGINE_PLACE_HAND && w->card[i].holder == (unsigned)asked) {
                if (w->card_kind[i] == ENGINE_CARD_CHEAP_HERO)
                    return 0;
                if (target < 0 && view->card_kind[i] == ENGINE_CARD_KIND_UNKNOWN)
                    target = (int)i;
            }
    } else if (value >= 0 && (unsigned)value < w->n_cards) {
        if (fits(element, w->card_kind[value]))
            return 0;
        if (view->card_kind[value] == ENGINE_CARD_KIND_UNKNOWN)
            target = value;
    } else {
        return 0;
    }
    if (target < 0)
        return -1;
    /* Another unseen card whose drawn face fits, chosen at random. */
    uint8_t cand[ENGINE_TREACHERY_MAX];
    unsigned n = 0;
    for (unsigned i = 0; i < w->n_cards; i++)
        if ((int)i != target && view->card_kind[i] == ENGINE_CARD_KIND_UNKNOWN &&
            fits(element, w->card_kind[i]))
            cand[n++] = (uint8_t)i;
    if (n == 0)
        return -1;
    unsigned other = cand[tool_prng_range(r, 0, (int32_t)n - 1)];
    uint8_t k = w->card_kind[target];
    w->card_kind[target] = w->card_kind[other];
    w->card_kind[other] = k;
    return 0;
}

/* (2) */
static int sample_traitors(engine_state *w, const engine_state *view, tool_prng *r)
{
    uint8_t hidden[ENGINE_LEADER_COUNT];
    unsigned n_hidden = 0, in_play = 0;
    for (unsigned l = 0; l < ENGINE_LEADER_COUNT; l++) {
        if (view->traitor[l].place != ENGINE_PLACE_OUT)
            in_play++;
        if (view->traitor[l].place == ENGINE_PLACE_HIDDEN)
            hidden[n_hidden++] = (uint8_t)l;
    }
    if (n_hidden == 0)
        return view->n_traitor_deck == 0 ? 0 : -1;
    /* What each seat the viewer is not holds, by the rules. */
    unsigned quota[ENGINE_MAX_SEATS][3]; /* dealt, hand, discard */
    memset(quota, 0, sizeof quota);
    int dealt = view->n_traitor_deck < in_play;
    for (unsigned s = 0; s < view->config.n_seats && dealt; s++) {
        if (s == view->viewer)
            continue;
        int choosing = view->phase == ENGINE_PHASE_SETUP &&
                       view->step == ENGINE_SETUP_STEP_TRAITORS && !(view->answered & (1u << s));
        unsigned kept = engine_faction_traitors_kept(view->seat[s].faction);
        if (kept >= ENGINE_TRAITORS_DEALT)
            quota[s][1] = ENGINE_TRAITORS_DEALT;
        else if (choosing)
            quota[s][0] = ENGINE_TRAITORS_DEALT;
        else {
            quota[s][1] = kept;
            quota[s][2] = ENGINE_TRAITORS_DEALT - kept;
        }
        for (unsigned l = 0; l < ENGINE_LEADER_COUNT; l++) {
            const engine_card_state *t = &view->traitor[l];
            if (t->place == ENGINE_PLACE_HIDDEN || t->holder != s)
                continue;
            if (t->place == ENGINE_PLACE_DEALT && quota[s][0] > 0)
                quota[s][0]--;
            if (t->place == ENGINE_PLACE_HAND && quota[s][1] > 0)
                quota[s][1]--;
        }
    }
    unsigned assigned = 0;
    for (unsigned s = 0; s < ENGINE_MAX_SEATS; s++)
        assigned += quota[s][0] + quota[s][1] + quota[s][2];
    if (assigned > n_hidden || n_hidden - assigned != view->n_traitor_deck)
        return -1;
    shuffle(hidden, n_hidden, r);
    static const uint8_t places[3] = {ENGINE_PLACE_DEALT, ENGINE_PLACE_HAND, ENGINE_PLACE_DISCARD};
    unsigned next = 0;
    for (unsigned s = 0; s < ENGINE_MAX_SEATS; s++)
        for (unsigned p = 0; p < 3; p++)
            for (unsigned q = 0; q < quota[s][p]; q++) {
                engine_card_state *t = &w->traitor[hidden[next++]];
                t->place = places[p];
                t->holder = p == 2 ? 0xFF : (uint8_t)s;
                t->known_by = (uint16_t)(1u << s);
            }
    for (unsigned i = 0; i < w->n_traitor_deck; i++) {
        uint8_t l = hidden[next++];
        w->traitor_deck[i] = l;
        w->traitor[l].place = ENGINE_PLACE_DECK;
        w->traitor[l].holder = 0xFF;
        w->traitor[l].known_by = 0;
    }
    return 0;
}

/* (3) */
static int sample_spice_deck(engine_state *w, tool_prng *r)
{
    uint8_t in_deck[ENGINE_SPICE_CARD_MAX], seen[ENGINE_SPICE_CARD_MAX] = {0};
    unsigned n = 0, unknown = 0;
    for (unsigned i = 0; i < w->n_spice_deck; i++) {
        if (w->spice_deck[i] == ENGINE_UNKNOWN)
            unknown++;
        else if (w->spice_deck[i] < ENGINE_SPICE_CARD_MAX)
            seen[w->spice_deck[i]] = 1;
        else
            return -1;
    }
    for (unsigned c = 0; c < w->n_spice_cards; c++)
        if (w->spice_card[c].place == ENGINE_PLACE_DECK && !seen[c])
            in_deck[n++] = (uint8_t)c;
    if (n != unknown)
        return -1;
    shuffle(in_deck, n, r);
    unsigned next = 0;
    for (unsigned i = 0; i < w->n_spice_deck; i++)
        if (w->spice_deck[i] == ENGINE_UNKNOWN)
            w->spice_deck[i] = in_deck[next++];
    return 0;
}

/* (7) */
static int sample_nexus(engine_state *w, const engine_state *view, tool_prng *r)
{
    if (!(view->config.modules & ENGINE_MODULE_NEXUS_CARDS))
        return 0;
    uint8_t faces[ENGINE_NEXUS_CARD_COUNT], hidden[ENGINE_NEXUS_CARD_COUNT];
    unsigned seen = 0, n_faces = 0, n_hidden = 0;
    for (unsigned c = 0; c < ENGINE_NEXUS_CARD_COUNT; c++)
        if (view->nexus_face[c] < ENGINE_NEXUS_CARD_COUNT)
            seen |= 1u << view->nexus_face[c];
    for (unsigned f = 0; f < ENGINE_NEXUS_CARD_COUNT; f++)
        if (!(seen & (1u << f)))
            faces[n_faces++] = (uint8_t)f;
    shuffle(faces, n_faces, r);
    unsigned next = 0;
    w->n_nexus_deck = w->n_nexus_discard = 0;
    for (unsigned c = 0; c < ENGINE_NEXUS_CARD_COUNT; c++) {
        engine_card_state *k = &w->nexus_card[c];
        if (view->nexus_face[c] >= ENGINE_NEXUS_CARD_COUNT) {
            if (next >= n_faces)
                return -1;
            w->nexus_face[c] = faces[next++];
            if (k->place == ENGINE_PLACE_HAND && k->holder < view->config.n_seats)
                k->known_by = (uint16_t)(1u << k->holder);
        }
        if (k->place == ENGINE_PLACE_HIDDEN) {
            k->place = ENGINE_PLACE_DECK;
            hidden[n_hidden++] = (uint8_t)c;
        } else if (k->place == ENGINE_PLACE_DISCARD) {
            w->nexus_discard[w->n_nexus_discard++] = (uint8_t)c;
        }
    }
    shuffle(hidden, n_hidden, r);
    memcpy(w->nexus_deck, hidden, n_hidden);
    w->n_nexus_deck = (uint8_t)n_hidden;
    for (unsigned s = 0; s < view->config.n_seats; s++)
        if (view->nexus_policy[s] == ENGINE_UNKNOWN)
            w->nexus_policy[s] = (view->nexus_drawing | view->answered) & (1u << s) &&
                                         view->phase == ENGINE_PHASE_SPICE_BLOW &&
                                         view->step == ENGINE_BLOW_STEP_NEXUS_DRAW
                                     ? (uint8_t)tool_prng_range(r, 0, ENGINE_NEXUS_POLICY_COUNT - 1)
                                     : 0;
    return 0;
}

/* (6): a committed plan for side i, drawn among its legal plans with the
 * prescience binding lifted when the answer is to be drawn too. */
static int sample_plan(engine_state *w, unsigned i, int unbind, tool_prng *r)
{
    static const size_t cap = 512;
    engine_legal legal[512];
    unsigned s = w->battle_seat[i];
    engine_state *probe = malloc(sizeof *probe);
    if (probe == NULL)
        return -1;
    *probe = *w;
    probe->step = ENGINE_BATTLE_STEP_PLAN;
    probe->plan[i].is_committed = 0;
    probe->awaiting |= (uint16_t)(1u << s);
    probe->answered &= (uint16_t)~(1u << s);
    if (unbind)
        bot__lift_answer(probe);
    size_t n = engine_legal_actions(legal, cap, probe, (uint8_t)s);
    free(probe);
    if (n > cap)
        n = cap;
    size_t plans = 0;
    for (size_t k = 0; k < n; k++)
        plans += legal[k].kind == ENGINE_ACTION_BATTLE_PLAN;
    if (plans == 0)
        return -1;
    size_t pick = (size_t)tool_prng_range(r, 0, (int32_t)plans - 1);
    for (size_t k = 0; k < n; k++) {
        if (legal[k].kind != ENGINE_ACTION_BATTLE_PLAN || pick-- != 0)
            continue;
        engine_action a;
        if (tool_action_draw(&a, &legal[k], r) != 0)
            return -1;
        engine_battle_plan *p = &w->plan[i];
        p->leader = (int8_t)a.arg[0];
        p->cheap_hero = (int8_t)a.arg[1];
        p->weapon = (int8_t)a.arg[2];
        p->defense = (int8_t)a.arg[3];
        p->dial = (uint8_t)a.arg[4];
        p->is_committed = 1;
        return 0;
    }
    return -1;
}

/* The prescience answer a plan implies. */
static int16_t answer_of(const engine_battle_plan *p, unsigned element)
{
    switch (element) {
    case ENGINE_PRESCIENCE_LEADER:
        return p->cheap_hero >= 0 ? ENGINE_PRESCIENCE_CHEAP_HERO : p->leader;
    case ENGINE_PRESCIENCE_WEAPON:
        return p->weapon;
    case ENGINE_PRESCIENCE_DEFENSE:
        return p->defense;
    default:
        return (int16_t)p->dial;
    }
}

static int sample_battle(engine_state *w, const engine_state *view, tool_prng *r)
{
    if (view->phase != ENGINE_PHASE_BATTLE || view->step >= ENGINE_BATTLE_STEP_TRAITOR)
        return 0;
    int asked = -1; /* side asked by prescience, its answer hidden from the viewer */
    int atreides_side;
    if (answer_seen(view, &atreides_side) == 0 && atreides_side >= 0 &&
        engine_state_step(view) > ENGINE_BATTLE_STEP_PRESCIENCE_ANSWER)
        asked = 1 - atreides_side;
    for (unsigned i = 0; i < 2; i++) {
        unsigned s = view->battle_seat[i];
        if (s >= view->config.n_seats)
            continue;
        if (s != view->viewer && view->plan[i].is_committed &&
            sample_plan(w, i, (int)i == asked, r) != 0)
            return -1;
        if ((int)i == asked && w->plan[i].is_committed)
            bot__suppose_answer(w, answer_of(&w->plan[i], engine_battle_prescience(view)));
        else if ((int)i == asked) {
            /* Not committed yet: an answer some plan of the seat has. */
            engine_state *tmp = malloc(sizeof *tmp);
            if (tmp == NULL)
                return -1;
            *tmp = *w;
            int rc = sample_plan(tmp, i, 1, r);
            if (rc == 0)
                bot__suppose_answer(w, answer_of(&tmp->plan[i], engine_battle_prescience(view)));
            free(tmp);
            if (rc != 0)
                return -1;
        }
    }
    return 0;
}

int bot_world_sample(engine_state *out, const engine_state *view, tool_prng *r)
{
    *out = *view;
    out->viewer = ENGINE_SEAT_ENGINE;
    if (view->viewer == ENGINE_SEAT_ENGINE)
        return 0;
    if (sample_faces(out, r) != 0 || repair_prescience(out, view, r) != 0 ||
        sample_traitors(out, view, r) != 0 ||
        sample_spice_deck(out, r) != 0 || sample_nexus(out, view, r) != 0)
        return -1;
    /* (4) */
    int bg = bot__seat_of(view, ENGINE_FACTION_BENE_GESSERIT);
    int predicted = !(view->phase == ENGINE_PHASE_SETUP && view->step == ENGINE_SETUP_STEP_PREDICTION);
    if (bg >= 0 && view->viewer != (unsigned)bg && view->phase != ENGINE_PHASE_GAME_OVER &&
        predicted) {
        uint8_t factions[ENGINE_MAX_SEATS];
        unsigned n = 0;
        for (unsigned s = 0; s < view->config.n_seats; s++)
            if ((int)s != bg)
                factions[n++] = view->seat[s].faction;
        if (n == 0)
            return -1;
        out->prediction_faction = factions[tool_prng_range(r, 0, (int32_t)n - 1)];
        out->prediction_turn = (uint8_t)tool_prng_range(r, 1, view->config.turn_limit);
    }
    /* (5) */
    if (view->phase == ENGINE_PHASE_STORM && view->step == ENGINE_STORM_STEP_DIAL)
        for (unsigned s = 0; s < view->config.n_seats; s++)
            if (s != view->viewer && (view->awaiting & view->answered & (1u << s)))
                out->seat[s].storm_dial = (uint8_t)(view->turn == 1 ? tool_prng_range(r, 0, 20)
                                                                    : tool_prng_range(r, 1, 3));
    /* (6) */
    return sample_battle(out, view, r);
}
