/*
 * phase_storm.c - the Storm phase (DUNE_RULES_DIGEST.md 4.1; rulings in
 * docs/RULINGS.md "Storm"): who dials, the dials kept secret until both
 * are in, the storm's move, and what it destroys: every force in a sand
 * sector it passes over or stops in goes to the Tanks and the spice there
 * is lost. Storm order (the First Player) follows from the storm's sector
 * and the player markers.
 */
#include <string.h>

#include <assert.h>

#include "engine/phase.h"

#define TURN1_DIAL_MAX 20
#define LATER_DIAL_MIN 1
#define LATER_DIAL_MAX 3
#define STORM_DECK_CARDS 6
#define WEATHER_CONTROL_MAX 10

/* Sectors from the storm's sector forward to a marker: the First Player is
 * the seat whose marker the storm reaches next (LR 1.01.02). */
static unsigned ahead(const engine_state *st, unsigned seat)
{
    unsigned position = st->seat[seat].position, storm = st->storm_sector;
    return (position + ENGINE_SECTOR_COUNT - storm - 1) % ENGINE_SECTOR_COUNT;
}

static void nearest_dialers(const engine_state *st, uint8_t out[2])
{
    /* The seats nearest the storm on either side: the first and the last in
     * storm order (docs/RULINGS.md "Storm dialers"). */
    unsigned first = 0, last = 0;
    for (unsigned s = 1; s < st->config.n_seats; s++) {
        if (ahead(st, s) < ahead(st, first))
            first = s;
        if (ahead(st, s) > ahead(st, last))
            last = s;
    }
    out[0] = (uint8_t)first;
    out[1] = (uint8_t)last;
}

/* The Fremen's storm losses at location `l` (of `seat`, the owner of
 * ENGINE__POINT_STORM_LOSS_CHOICE): how many die, and the Fedaykin among
 * them, lo..hi; 1 if that is a choice (lo < hi), which the Fremen make
 * (Advanced, rules version 7, LR 2.04.16; D5: each Fedaykin one token). */
static int loss_choice(const engine_state *st, unsigned l, unsigned seat, unsigned *lose,
                       unsigned *lo, unsigned *hi)
{
    unsigned plain = st->forces[l][seat], elite = st->special[l][seat];
    *lose = (unsigned)engine__point_value(st, ENGINE__POINT_STORM_LOSSES, seat, (int)(plain + elite));
    *lo = *lose > plain ? *lose - plain : 0;
    *hi = *lose < elite ? *lose : elite;
    return *lo < *hi;
}

/* The seat choosing its storm losses, or -1. */
static int loss_chooser(const engine_state *st)
{
    return engine__point_owner(st, ENGINE__POINT_STORM_LOSS_CHOICE);
}

/* Moves the storm `move` sectors, destroying in each sector entered; the
 * losses the Fremen choose wait (loss_choice). */
static void storm_move(engine_state *st, unsigned move)
{
    int chooser = loss_chooser(st);
    unsigned hits = move < ENGINE_SECTOR_COUNT ? move : ENGINE_SECTOR_COUNT;
    for (unsigned i = 1; i <= hits; i++) {
        unsigned sector = (st->storm_sector + i) % ENGINE_SECTOR_COUNT;
        for (unsigned l = 0; l < ENGINE_LOCATION_COUNT; l++) {
            const engine__location_row *loc = &engine__locations[l];
            if (loc->sector != (int)sector)
                continue;
            /* Family Atomics lays the Shield Wall's shelter open (1.3). */
            if (engine_territory_is_storm_safe(st, loc->territory))
                continue;
            for (uint8_t s = 0; s < st->config.n_seats; s++) {
                unsigned plain = st->forces[l][s], elite = st->special[l][s], due, lo, hi;
                if ((int)s == chooser && loss_choice(st, l, s, &due, &lo, &hi))
                    continue; /* asked once the storm has moved (R14) */
                /* The rows may spare some: Advanced Fremen lose half, rounded
                 * up, plain forces first where they have no choice (LR 2.04.16;
                 * docs/RULINGS.md R14). */
                unsigned lose = (unsigned)engine__point_value(st, ENGINE__POINT_STORM_LOSSES, s,
                                                              (int)(plain + elite));
                plain = lose < plain ? lose : plain;
                elite = lose - plain;
                engine__forces_to_tanks(st, l, s, plain, elite);
            }
            if (st->advisors[l]) {
                int bg = engine__point_owner(st, ENGINE__POINT_ADVISORS);
                st->seat[bg].tanks = (uint8_t)(st->seat[bg].tanks + st->advisors[l]);
                st->advisors[l] = 0;
            }
            st->spice_burned += st->spice[l];
            st->spice[l] = 0;
        }
    }
    st->storm_sector = (uint8_t)((st->storm_sector + move) % ENGINE_SECTOR_COUNT);
    st->last_storm_move = (uint8_t)move;
}

unsigned engine__storm_order(const engine_state *st, uint8_t out[ENGINE_MAX_SEATS])
{
    unsigned n = st->config.n_seats;
    for (unsigned i = 0; i < n; i++)
        out[i] = (uint8_t)i;
    /* Insertion sort by distance ahead of the storm; markers are distinct. */
    for (unsigned i = 1; i < n; i++)
        for (unsigned j = i; j > 0 && ahead(st, out[j]) < ahead(st, out[j - 1]); j--) {
            uint8_t t = out[j];
            out[j] = out[j - 1];
            out[j - 1] = t;
        }
    return n;
}

/* The seat whose storm losses a power spares in the sectors a move of
 * `move` enters (the Advanced Fremen's half), or -1: from rules version 7
 * a Karama may stop that, so the move is held first. */
static int spared_in_path(const engine_state *st, unsigned move)
{
    if (!engine__rule(st, ENGINE__RULE_ADVANCED_KARAMA))
        return -1;
    unsigned hits = move < ENGINE_SECTOR_COUNT ? move : ENGINE_SECTOR_COUNT;
    for (unsigned i = 1; i <= hits; i++) {
        unsigned sector = (st->storm_sector + i) % ENGINE_SECTOR_COUNT;
        for (unsigned l = 0; l < ENGINE_LOCATION_COUNT; l++) {
            const engine__location_row *loc = &engine__locations[l];
            if (loc->sector != (int)sector || engine_territory_is_storm_safe(st, loc->territory))
                continue;
            for (uint8_t s = 0; s < st->config.n_seats; s++) {
                int n = st->forces[l][s] + st->special[l][s];
                if (n > 0 && engine__point_value(st, ENGINE__POINT_STORM_LOSSES, s, n) < n)
                    return s;
            }
        }
    }
    return -1;
}

static void storm_end(engine_state *st, engine_rng *rng);
static void storm_losses(engine_state *st, unsigned from, engine_rng *rng);

/* The storm moves `move` sectors, its losses are taken (those the Fremen
 * choose asked first) and the Spice Blow follows, unless the
 * move is held in a Karama window first (engine__storm_resume). */
static void storm_moves(engine_state *st, unsigned move, engine_rng *rng)
{
    int seat = spared_in_path(st, move);
    if (seat >= 0) {
        engine_action step = {ENGINE_ACTION_NONE, (uint8_t)seat, {(int16_t)move}};
        unsigned a = engine__point_advantage(st, ENGINE__POINT_STORM_LOSSES, (unsigned)seat);
        if (engine__karama_hold(st, &step, ENGINE_ADVANTAGE_BIT(a), (unsigned)seat))
            return;
    }
    engine__storm_resume(st, move, rng);
}

/* Advanced with Fremen: the storm deck replaces the dials from turn 2;
 * its first card is drawn right after the turn-1 storm, seen by the
 * Fremen only (LR 2.04.13); then the Spice Blow. */
static void deck_drawn(engine_state *st, engine_rng *rng)
{
    if (engine__point_owner(st, ENGINE__POINT_STORM_DECK) >= 0)
        st->next_storm = (uint8_t)(1 + engine_rng_uniform(rng, STORM_DECK_CARDS));
    engine__spice_blow_begin(st, rng);
}

void engine__storm_resume(engine_state *st, unsigned move, engine_rng *rng)
{
    if (move == ENGINE__STORM_RESUME_DRAW) {
        deck_drawn(st, rng);
        return;
    }
    storm_move(st, move);
    storm_losses(st, 0, rng);
}

/* After the storm, the storm deck's draw: from rules version 8 the
 * Fremen's look at it waits on a Karama window first, which may stop it
 * (the card is drawn all the same, engine/karama_stops.c). */
static void storm_end(engine_state *st, engine_rng *rng)
{
    int fremen = engine__point_owner(st, ENGINE__POINT_STORM_DECK);
    unsigned a = engine__point_owner_advantage(st, ENGINE__POINT_STORM_DECK);
    if (fremen >= 0 && a != ENGINE_ADVANTAGE_NONE) {
        st->step = STORM_STEP_CARDS; /* the losses are taken: the step asks nobody now */
        st->awaiting = st->answered = 0;
        engine_action step = {ENGINE_ACTION_NONE, (uint8_t)fremen, {ENGINE__STORM_RESUME_DRAW}};
        if (engine__karama_hold(st, &step, ENGINE_ADVANTAGE_BIT(a), (unsigned)fremen))
            return;
    }
    deck_drawn(st, rng);
}

/* 1 if location `l` lies in a sector the storm's last move entered. */
static int struck(const engine_state *st, unsigned l)
{
    int sector = engine__locations[l].sector;
    if (sector == ENGINE_NO_SECTOR || engine_territory_is_storm_safe(st, engine__locations[l].territory))
        return 0;
    unsigned move = st->last_storm_move, hits = move < ENGINE_SECTOR_COUNT ? move : ENGINE_SECTOR_COUNT;
    unsigned behind = (st->storm_sector + ENGINE_SECTOR_COUNT - (unsigned)sector) % ENGINE_SECTOR_COUNT;
    return hits == ENGINE_SECTOR_COUNT || behind < hits;
}

/* The storm has moved: the Fremen are asked, location by location from
 * `from`, which tokens it takes where that is a choice; then the Spice
 * Blow. */
static void storm_losses(engine_state *st, unsigned from, engine_rng *rng)
{
    int chooser = loss_chooser(st);
    for (unsigned l = from; chooser >= 0 && l < ENGINE_LOCATION_COUNT; l++) {
        unsigned lose, lo, hi;
        if (struck(st, l) && loss_choice(st, l, (unsigned)chooser, &lose, &lo, &hi)) {
            st->step = STORM_STEP_LOSSES;
            st->storm_loss_at = (uint8_t)l;
            st->awaiting = ENGINE_SEAT_BIT((unsigned)chooser);
            st->answered = 0;
            return;
        }
    }
    st->storm_loss_at = 0;
    storm_end(st, rng);
}

int engine__storm_loss_range(const engine_state *st, unsigned *lo, unsigned *hi)
{
    unsigned lose;
    int chooser = loss_chooser(st);
    return st->phase == ENGINE_PHASE_STORM && st->step == STORM_STEP_LOSSES && chooser >= 0 &&
           loss_choice(st, st->storm_loss_at, (unsigned)chooser, &lose, lo, hi);
}

void engine__storm_loss_chosen(engine_state *st, unsigned fedaykin, engine_rng *rng)
{
    unsigned lose, lo, hi, l = st->storm_loss_at;
    unsigned seat = (unsigned)loss_chooser(st);
    loss_choice(st, l, seat, &lose, &lo, &hi);
    assert(fedaykin >= lo && fedaykin <= hi);
    engine__forces_to_tanks(st, l, (uint8_t)seat, lose - fedaykin, fedaykin);
    storm_losses(st, l + 1, rng);
}

/* The two dialers are asked. */
static void ask_dialers(engine_state *st)
{
    st->step = STORM_STEP_DIAL;
    st->answered = 0;
    uint8_t dialers[2];
    if (st->turn > 1 && st->last_wheel[0] != 0xFF && st->last_wheel[1] != 0xFF) {
        /* The two players who last used the battle wheels (LR 1.01.01). */
        dialers[0] = st->last_wheel[0];
        dialers[1] = st->last_wheel[1];
    } else {
        nearest_dialers(st, dialers);
    }
    st->awaiting = (uint16_t)(ENGINE_SEAT_BIT(dialers[0]) | ENGINE_SEAT_BIT(dialers[1]));
}

/* Weather Control and Family Atomics: every seat holding a card is asked,
 * so being asked reveals no card; 1 if some seat was. */
static int ask_storm_cards(engine_state *st)
{
    st->awaiting = st->answered = 0;
    for (unsigned s = 0; s < st->config.n_seats; s++)
        if (engine__holds_cards(st, s))
            st->awaiting |= ENGINE_SEAT_BIT(s);
    if (!st->awaiting)
        return 0;
    st->step = STORM_STEP_CARDS;
    return 1;
}

/* The storm's move is calculated (the dials, or the storm deck). From
 * rules version 3 on the storm cards are asked now, after the calculation
 * and before the storm moves (LR 3.01.07, 3.01.23); under version 2 they
 * were asked before the dials. */
static void storm_calculated(engine_state *st, unsigned move, engine_rng *rng)
{
    if (engine__rule(st, ENGINE__RULE_ATOMICS_AFTER_STORM_DIAL) && st->turn > 1) {
        st->storm_pending = (uint8_t)move;
        if (ask_storm_cards(st))
            return;
        st->storm_pending = 0;
    }
    storm_moves(st, move, rng);
}

/* After the storm cards: Weather Control, else (version 3) the move
 * calculated, else (version 2) the storm deck or the dials. */
static void storm_decide(engine_state *st, engine_rng *rng)
{
    if (engine__rule(st, ENGINE__RULE_ATOMICS_AFTER_STORM_DIAL)) {
        unsigned move = st->weather_control != 0xFF ? st->weather_control : st->storm_pending;
        st->storm_pending = 0;
        storm_moves(st, move, rng);
        return;
    }
    if (st->weather_control != 0xFF) {
        storm_moves(st, st->weather_control, rng);
        return;
    }
    if (st->turn > 1 && st->next_storm) {
        /* The storm deck's card, drawn last turn, moves the storm. */
        storm_moves(st, st->next_storm, rng);
        return;
    }
    ask_dialers(st);
}

void engine__storm_begin(engine_state *st, engine_rng *rng)
{
    st->turn++;
    engine__phase_enter(st, ENGINE_PHASE_STORM);
    st->karama_policy_set = 0; /* a standing Karama policy may change once a turn */
    engine__karama_stops_storm_begins(st); /* the card the Fremen did not see is revealed */
    st->weather_control = 0xFF;
    for (unsigned s = 0; s < st->config.n_seats; s++)
        st->seat[s].storm_dial = 0xFF;
    if (engine__rule(st, ENGINE__RULE_ATOMICS_AFTER_STORM_DIAL)) {
        if (st->turn > 1 && st->next_storm)
            storm_calculated(st, st->next_storm, rng); /* the storm deck's card, drawn last turn */
        else
            ask_dialers(st);
        return;
    }
    /* Version 2: the storm cards before the dials. */
    if (st->turn > 1 && ask_storm_cards(st))
        return;
    storm_decide(st, rng);
}

static void cards_answered(engine_state *st, uint8_t seat, engine_rng *rng)
{
    st->answered |= ENGINE_SEAT_BIT(seat);
    if (st->answered == st->awaiting)
        storm_decide(st, rng);
}

/* Weather Control: the storm moves 0..10 sectors as its player says,
 * instead of the dials (LR 3.01.07; docs/RULINGS.md "Weather Control"). */
engine_verdict engine__weather_control(engine_verdict_detail *why, engine_state *st,
                                       const engine_action *act, engine_rng *rng)
{
    int sectors = act->arg[0];
    unsigned card = engine__card_in_hand(st, act->seat, ENGINE_CARD_WEATHER_CONTROL);
    if (card == 0xFF)
        return engine__reject(why, ENGINE_REJECT_NO_CARD, -1, 0);
    if (sectors < 0 || sectors > WEATHER_CONTROL_MAX)
        return engine__reject(why, ENGINE_REJECT_ARG_OUT_OF_RANGE, 0, sectors);
    engine__treachery_discard(st, card);
    st->weather_control = (uint8_t)sectors;
    cards_answered(st, act->seat, rng);
    return ENGINE_ACCEPTED;
}

/* Family Atomics may be played by a seat with forces on the Shield Wall or
 * in a territory next to it, no storm between (LR 3.01.06): some of its
 * forces out of the storm reach a Shield Wall sector out of the storm
 * without leaving their territory and the wall, nor crossing the storm. */
static int atomics_in_reach(const engine_state *st, unsigned seat)
{
    uint8_t seen[ENGINE_LOCATION_COUNT] = {0}, stack[ENGINE_LOCATION_COUNT];
    for (unsigned start = 0; start < ENGINE_LOCATION_HMS; start++) {
        if (!(st->forces[start][seat] || st->special[start][seat]) || engine__in_storm(st, start))
            continue;
        unsigned home = engine__locations[start].territory;
        if (home != ENGINE_TERRITORY_SHIELD_WALL &&
            !(engine__territory_adj[home] >> ENGINE_TERRITORY_SHIELD_WALL & 1))
            continue;
        memset(seen, 0, sizeof seen);
        unsigned top = 0;
        stack[top++] = (uint8_t)start;
        seen[start] = 1;
        while (top) {
            unsigned l = stack[--top];
            if (engine__locations[l].territory == ENGINE_TERRITORY_SHIELD_WALL)
                return 1;
            const engine__location_row *row = &engine__locations[l];
            for (unsigned i = 0; i < row->n_adj; i++) {
                unsigned m = row->adj[i], t = engine__locations[m].territory;
                if (!seen[m] && !engine__in_storm(st, m) &&
                    (t == home || t == ENGINE_TERRITORY_SHIELD_WALL)) {
                    seen[m] = 1;
                    stack[top++] = (uint8_t)m;
                }
            }
        }
    }
    return 0;
}

/* Family Atomics: every force on the Shield Wall dies and the wall no
 * longer shields Arrakeen, Carthag and the Imperial Basin; the card leaves
 * the game (DUNE_RULES_DIGEST.md 1.3). */
engine_verdict engine__family_atomics(engine_verdict_detail *why, engine_state *st,
                                      const engine_action *act, engine_rng *rng)
{
    unsigned card = engine__card_in_hand(st, act->seat, ENGINE_CARD_FAMILY_ATOMICS);
    if (card == 0xFF)
        return engine__reject(why, ENGINE_REJECT_NO_CARD, -1, 0);
    if (!atomics_in_reach(st, act->seat))
        return engine__reject(why, ENGINE_REJECT_ATOMICS_OUT_OF_REACH, -1, 0);
    for (unsigned l = 0; l < ENGINE_LOCATION_COUNT; l++) {
        if (engine__locations[l].territory != ENGINE_TERRITORY_SHIELD_WALL)
            continue;
        for (uint8_t s = 0; s < st->config.n_seats; s++)
            engine__forces_to_tanks(st, l, s, st->forces[l][s], st->special[l][s]);
        if (st->advisors[l]) {
            int bg = engine__point_owner(st, ENGINE__POINT_ADVISORS);
            st->seat[bg].tanks = (uint8_t)(st->seat[bg].tanks + st->advisors[l]);
            st->advisors[l] = 0;
        }
    }
    st->card[card].place = ENGINE_PLACE_REMOVED;
    st->card[card].holder = 0xFF;
    st->card[card].known_by = engine__shown(st);
    st->is_shield_wall_down = 1;
    cards_answered(st, act->seat, rng);
    return ENGINE_ACCEPTED;
}

engine_verdict engine__storm_cards_pass(engine_verdict_detail *why, engine_state *st,
                                        const engine_action *act, engine_rng *rng)
{
    (void)why;
    cards_answered(st, act->seat, rng);
    return ENGINE_ACCEPTED;
}

size_t engine__legal_storm_cards(engine_legal *out, size_t cap, const engine_state *st,
                                 uint8_t seat)
{
    size_t n = 0;
    if (engine__card_in_hand(st, seat, ENGINE_CARD_WEATHER_CONTROL) != 0xFF)
        engine__legal_push1(out, cap, &n, ENGINE_ACTION_WEATHER_CONTROL, seat, 0,
                            WEATHER_CONTROL_MAX, 0, 0);
    if (engine__card_in_hand(st, seat, ENGINE_CARD_FAMILY_ATOMICS) != 0xFF && atomics_in_reach(st, seat))
        engine__legal_push1(out, cap, &n, ENGINE_ACTION_FAMILY_ATOMICS, seat, 0, 0, 0, 0);
    engine__legal_push1(out, cap, &n, ENGINE_ACTION_STORM_CARDS_PASS, seat, 0, 0, 0, 0);
    return n;
}

/* A secret storm dial: 0..20 on turn 1, 1..3 later (LR 1.01.01). */
engine_verdict engine__storm_dial(engine_verdict_detail *why, engine_state *st,
                                  const engine_action *act, engine_rng *rng)
{
    int lo = st->turn == 1 ? 0 : LATER_DIAL_MIN;
    int hi = st->turn == 1 ? TURN1_DIAL_MAX : LATER_DIAL_MAX;
    int value = act->arg[0];
    if (value < lo || value > hi)
        return engine__reject(why, ENGINE_REJECT_STORM_DIAL_RANGE, 0, value);
    st->seat[act->seat].storm_dial = (uint8_t)value;
    st->answered |= ENGINE_SEAT_BIT(act->seat);
    if (st->answered != st->awaiting)
        return ENGINE_ACCEPTED;
    /* Both dials are in: reveal them and move the storm. */
    unsigned move = 0;
    for (unsigned s = 0; s < st->config.n_seats; s++) {
        if (st->seat[s].storm_dial != 0xFF)
            move += st->seat[s].storm_dial;
        st->seat[s].storm_dial = 0xFF;
    }
    storm_calculated(st, move, rng);
    return ENGINE_ACCEPTED;
}

size_t engine__legal_storm_dial(engine_legal *out, size_t cap, const engine_state *st,
                                uint8_t seat)
{
    size_t n = 0;
    engine__legal_push1(out, cap, &n, ENGINE_ACTION_STORM_DIAL, seat,
                        st->turn == 1 ? 0 : LATER_DIAL_MIN,
                        st->turn == 1 ? TURN1_DIAL_MAX : LATER_DIAL_MAX, 0, 0);
    return n;
}
