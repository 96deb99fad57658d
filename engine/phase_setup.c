/*
 * phase_setup.c - the opening of a game (DUNE_RULES_DIGEST.md 3.2; rulings
 * in docs/RULINGS.md "Setup"): seats and player markers, starting spice and
 * forces, shuffled decks, the Bene Gesserit prediction, traitors dealt and
 * kept, the Fremen and (Advanced) Bene Gesserit placements, the starting
 * treachery cards; then the first Storm phase.
 *
 * Order (steps of phase.h): prediction, then traitors are dealt (so the
 * prediction is made without seeing them), then the placements, then the
 * treachery cards. Every deal draws from decks shuffled at setup with the
 * genesis randomness; no later step draws randomness of its own.
 */
#include <string.h>

#include "engine/phase.h"

/* The first location of a territory (its only one for strongholds, rock
 * start positions and the Polar Sink). */
static unsigned first_location(unsigned territory)
{
    for (unsigned l = 0; l < ENGINE_LOCATION_COUNT; l++)
        if (engine__locations[l].territory == territory)
            return l;
    return 0;
}

/* ======================================================== setup steps */

static void deal_traitors(engine_state *st)
{
    for (uint8_t s = 0; s < st->config.n_seats; s++) {
        const engine__faction_row *f = &engine__factions[st->seat[s].faction];
        if (f->traitors_kept == 0)
            continue;
        for (int i = 0; i < ENGINE_TRAITORS_DEALT && st->n_traitor_deck > 0; i++) {
            uint8_t leader = st->traitor_deck[--st->n_traitor_deck];
            engine_card_state *t = &st->traitor[leader];
            /* Harkonnen keep all four (LR 2.05.02); others choose one. */
            t->place = f->traitors_kept >= ENGINE_TRAITORS_DEALT ? ENGINE_PLACE_HAND : ENGINE_PLACE_DEALT;
            t->holder = s;
            t->known_by = ENGINE_SEAT_BIT(s);
        }
    }
}

/* Enters `step`, or the next step that waits on someone; after the last
 * one deals the starting treachery cards and begins turn 1. */
static void setup_advance(engine_state *st, unsigned step, engine_rng *rng)
{
    int predictor = engine__point_owner(st, ENGINE__POINT_SETUP_PREDICTION);
    int placer = engine__point_owner(st, ENGINE__POINT_SETUP_PLACEMENT);
    int chooser = engine__point_owner(st, ENGINE__POINT_SETUP_CHOSEN_START);
    st->answered = 0;
    st->awaiting = 0;
    for (; step < SETUP_STEP_COUNT; step++) {
        st->step = (uint8_t)step;
        switch ((enum engine__setup_step)step) {
        case SETUP_STEP_PREDICTION:
            /* Prediction before traitors (LR 0.04). */
            if (predictor >= 0)
                st->awaiting = ENGINE_SEAT_BIT(predictor);
            break;
        case SETUP_STEP_TRAITORS:
            deal_traitors(st);
            for (uint8_t s = 0; s < st->config.n_seats; s++)
                for (unsigned l = 0; l < ENGINE_LEADER_COUNT; l++)
                    if (st->traitor[l].place == ENGINE_PLACE_DEALT && st->traitor[l].holder == s)
                        st->awaiting |= ENGINE_SEAT_BIT(s);
            break;
        case SETUP_STEP_FREMEN:
            if (placer >= 0)
                st->awaiting = ENGINE_SEAT_BIT(placer);
            break;
        case SETUP_STEP_BG_PLACE:
            /* Advanced: BG's starting force goes anywhere, chosen after the
             * Fremen place (LR 2.02.08); Basic: it is already in the Polar Sink. */
            if (chooser >= 0)
                st->awaiting = ENGINE_SEAT_BIT(chooser);
            break;
        case SETUP_STEP_COUNT:
            break;
        }
        if (st->awaiting)
            return;
    }
    /* Starting treachery cards, in seat order (DUNE_RULES_DIGEST.md 3.2). */
    for (uint8_t s = 0; s < st->config.n_seats; s++)
        for (unsigned i = 0; i < engine__factions[st->seat[s].faction].start_cards; i++)
            engine__deal_treachery(st, s);
    engine__storm_begin(st, rng);
}

/* ============================================================== setup */

static engine_verdict check_config(engine_verdict_detail *why, const engine_config *cfg)
{
    if (cfg->n_seats < ENGINE_MIN_SEATS || cfg->n_seats > ENGINE_MAX_SEATS)
        return engine__reject(why, ENGINE_REJECT_BAD_CONFIG, -1, cfg->n_seats);
    for (unsigned s = 0; s < cfg->n_seats; s++) {
        unsigned f = cfg->faction[s];
        if (f >= ENGINE_FACTION_COUNT)
            return engine__reject(why, ENGINE_REJECT_BAD_CONFIG, (int)s, (int32_t)f);
        for (unsigned t = 0; t < s; t++)
            if (cfg->faction[t] == f)
                return engine__reject(why, ENGINE_REJECT_BAD_CONFIG, (int)s, (int32_t)f);
        if (!engine__factions[f].is_classic)
            return engine__reject(why, ENGINE_REJECT_RULE_NOT_IMPLEMENTED, (int)s, (int32_t)f);
    }
    if (cfg->turn_limit < 1 || cfg->turn_limit > ENGINE_MAX_TURN_LIMIT)
        return engine__reject(why, ENGINE_REJECT_BAD_CONFIG, -1, cfg->turn_limit);
    if (cfg->is_advanced > 1 || cfg->is_constructed > 1)
        return engine__reject(why, ENGINE_REJECT_BAD_CONFIG, -1, 0);
    if (!engine_rules_version_is_folded(cfg->rules_version))
        return engine__reject(why, ENGINE_REJECT_BAD_CONFIG, -1, cfg->rules_version);
    if (cfg->modules & ~ENGINE_MODULE_NEXUS_CARDS)
        return engine__reject(why, ENGINE_REJECT_RULE_NOT_IMPLEMENTED, -1, (int32_t)cfg->modules);
    /* A room may carry modules from rules version 5 on; the Nexus Cards need
     * someone unallied while an alliance exists, so three seats at least
     * (EXPANSIONS_AND_NEXUS.md 5.1). */
    if (cfg->modules != ENGINE_MODULE_NONE &&
        (cfg->rules_version < engine__rule_changes[ENGINE__RULE_ROOM_OPTIONS].from ||
         cfg->n_seats < ENGINE_NEXUS_MIN_SEATS))
        return engine__reject(why, ENGINE_REJECT_BAD_CONFIG, -1, (int32_t)cfg->modules);
    return ENGINE_ACCEPTED;
}

engine_verdict engine_setup(engine_verdict_detail *why, engine_state *out,
                            const engine_config *cfg, engine_rng *rng)
{
    if (why) {
        why->arg = -1;
        why->value = 0;
    }
    engine_verdict v = check_config(why, cfg);
    if (v != ENGINE_ACCEPTED)
        return v;

    engine_state *st = out;
    memset(st, 0, sizeof *st);
    st->config = *cfg;
    st->viewer = ENGINE_SEAT_ENGINE;
    for (unsigned s = cfg->n_seats; s < ENGINE_MAX_SEATS; s++)
        st->config.faction[s] = ENGINE_FACTION_NONE;
    st->prediction_faction = ENGINE_FACTION_NONE;
    st->last_wheel[0] = st->last_wheel[1] = 0xFF;
    memset(st->ally, 0xFF, sizeof st->ally);
    st->worm_territory = ENGINE_TERRITORY_COUNT;
    st->bid_opener = st->bid_turn = st->high_bidder = st->high_bid_karama = 0xFF;
    for (unsigned i = 0; i < ENGINE_TREACHERY_MAX; i++)
        st->card[i].holder = 0xFF;
    for (unsigned i = 0; i < ENGINE_LEADER_COUNT; i++)
        st->traitor[i].holder = 0xFF;
    for (unsigned i = 0; i < ENGINE_SPICE_CARD_MAX; i++)
        st->spice_card[i].holder = 0xFF;

    /* Seats: player markers spaced evenly, the Storm Start Sector between
     * the last seat and the first (docs/RULINGS.md "Player markers"). */
    unsigned n = cfg->n_seats;
    for (unsigned s = 0; s < n; s++) {
        engine_seat_state *p = &st->seat[s];
        unsigned f = cfg->faction[s];
        const engine__faction_row *row = &engine__factions[f];
        p->faction = (uint8_t)f;
        p->position = (uint8_t)((ENGINE_SECTOR_COUNT * s) / n + ENGINE_SECTOR_COUNT / (2 * n));
        p->spice = row->spice;
        st->spice_minted += row->spice;
        p->reserves = (uint8_t)engine__faction_forces(st, f);
        p->special_reserves = (uint8_t)engine__faction_special(st, f);
        p->storm_dial = 0xFF;
        /* Rules version 3: every seat starts asked about every advantage
         * its room can offer, as under version 2, until it sets its policy
         * (engine/karama.c). */
        if (engine__rule(st, ENGINE__RULE_KARAMA_POLICY))
            st->karama_ask[s] = engine_karama_offered(st);
        /* Fixed starting positions; the BG start force is chosen in the
         * Advanced game (SETUP_STEP_BG_PLACE). */
        int fixed = row->start_territory < ENGINE_TERRITORY_COUNT && row->start_forces > 0 &&
                    !engine__point_holds(st, ENGINE__POINT_SETUP_CHOSEN_START, s);
        if (fixed) {
            unsigned loc = first_location(row->start_territory);
            st->forces[loc][s] = row->start_forces;
            p->reserves = (uint8_t)(p->reserves - row->start_forces);
        }
    }

    /* Leaders of the seated factions go to their pools, their traitor
     * cards into the traitor deck. */
    for (unsigned i = 0; i < ENGINE_LEADER_COUNT; i++) {
        const engine__leader_row *l = &engine__leaders[i];
        if (l->is_optional || engine__seat_of(st, l->faction) < 0)
            continue;
        st->leader[i].place = ENGINE_PLACE_POOL;
        if (l->is_traitor_card) {
            st->traitor[i].place = ENGINE_PLACE_DECK;
            st->traitor_deck[st->n_traitor_deck++] = (uint8_t)i;
        }
    }
    /* The base treachery deck of 33 (DUNE_RULES_DIGEST.md 2.1). */
    for (unsigned k = 0; k < ENGINE_CARD_KIND_COUNT; k++)
        for (unsigned c = 0; c < engine__card_kinds[k].base_copies; c++) {
            st->card_kind[st->n_cards] = (uint8_t)k;
            st->card[st->n_cards].place = ENGINE_PLACE_DECK;
            st->deck[st->n_deck++] = st->n_cards;
            st->n_cards++;
        }
    /* The spice deck of 21 (2.3). */
    for (unsigned i = 0; i < ENGINE_SPICE_BASE_CARDS; i++) {
        st->spice_card[i].place = ENGINE_PLACE_DECK;
        st->spice_deck[st->n_spice_deck++] = (uint8_t)i;
    }
    st->n_spice_cards = ENGINE_SPICE_BASE_CARDS;
    engine__shuffle(st->traitor_deck, st->n_traitor_deck, rng);
    /* Card numbers carry no identity: kinds are dealt to numbers at random,
     * so a view may name a face-down card by its number (invariant of
     * engine/view.c). The deck then lies in number order. */
    engine__shuffle(st->card_kind, st->n_cards, rng);
    engine__shuffle(st->spice_deck, st->n_spice_deck, rng);
    engine__nexus_setup(st, rng); /* nothing without the module */

    st->phase = ENGINE_PHASE_SETUP;
    st->turn = 0;
    st->storm_sector = 0; /* the Storm Start Sector */
    setup_advance(st, SETUP_STEP_PREDICTION, rng);
    return ENGINE_ACCEPTED;
}

/* =========================================================== handlers */

/* Bene Gesserit prediction: another faction in the game and a turn
 * (LR 2.02.01). */
engine_verdict engine__predict(engine_verdict_detail *why, engine_state *st,
                               const engine_action *act, engine_rng *rng)
{
    int faction = act->arg[0], turn = act->arg[1];
    if (faction < 0 || faction >= ENGINE_FACTION_COUNT)
        return engine__reject(why, ENGINE_REJECT_ARG_OUT_OF_RANGE, 0, faction);
    if (faction == st->seat[act->seat].faction)
        return engine__reject(why, ENGINE_REJECT_PREDICT_OWN_FACTION, 0, faction);
    if (engine__seat_of(st, (unsigned)faction) < 0)
        return engine__reject(why, ENGINE_REJECT_PREDICT_FACTION_ABSENT, 0, faction);
    if (turn < 1 || turn > st->config.turn_limit)
        return engine__reject(why, ENGINE_REJECT_PREDICT_TURN, 1, turn);
    st->prediction_faction = (uint8_t)faction;
    st->prediction_turn = (uint8_t)turn;
    setup_advance(st, SETUP_STEP_TRAITORS, rng);
    return ENGINE_ACCEPTED;
}

/* Keep one of the four traitors dealt; the other three are discarded face
 * down, still known to the seat that saw them (LR 0.06). */
engine_verdict engine__traitor_pick(engine_verdict_detail *why, engine_state *st,
                                    const engine_action *act, engine_rng *rng)
{
    int leader = act->arg[0];
    if (leader < 0 || leader >= ENGINE_LEADER_COUNT)
        return engine__reject(why, ENGINE_REJECT_ARG_OUT_OF_RANGE, 0, leader);
    const engine_card_state *t = &st->traitor[leader];
    if (t->place != ENGINE_PLACE_DEALT || t->holder != act->seat)
        return engine__reject(why, ENGINE_REJECT_TRAITOR_NOT_DEALT, 0, leader);
    for (unsigned l = 0; l < ENGINE_LEADER_COUNT; l++) {
        engine_card_state *c = &st->traitor[l];
        if (c->place != ENGINE_PLACE_DEALT || c->holder != act->seat)
            continue;
        if ((int)l == leader) {
            c->place = ENGINE_PLACE_HAND;
        } else {
            c->place = ENGINE_PLACE_DISCARD;
            c->holder = 0xFF;
        }
    }
    st->answered |= ENGINE_SEAT_BIT(act->seat);
    if (st->answered == st->awaiting)
        setup_advance(st, SETUP_STEP_FREMEN, rng);
    return ENGINE_ACCEPTED;
}

/* Fremen place 10 forces among Sietch Tabr, False Wall South and False
 * Wall West (LR 2.04.02); in the Advanced game any of the 3 Fedaykin may be
 * among them (LR 2.04.18). */
engine_verdict engine__fremen_place(engine_verdict_detail *why, engine_state *st,
                                    const engine_action *act, engine_rng *rng)
{
    int total = 0, elite = 0;
    engine_seat_state *p = &st->seat[act->seat];
    for (int i = 0; i < 2 * ENGINE_FREMEN_START_TERRITORIES; i++) {
        if (act->arg[i] < 0 || act->arg[i] > ENGINE_FREMEN_START_FORCES)
            return engine__reject(why, ENGINE_REJECT_ARG_OUT_OF_RANGE, i, act->arg[i]);
        total += act->arg[i];
        if (i >= ENGINE_FREMEN_START_TERRITORIES)
            elite += act->arg[i];
    }
    if (elite > p->special_reserves)
        return engine__reject(why, ENGINE_REJECT_ARG_OUT_OF_RANGE, 3, elite);
    if (total != ENGINE_FREMEN_START_FORCES)
        return engine__reject(why, ENGINE_REJECT_FREMEN_PLACEMENT_TOTAL, -1, total);
    for (int i = 0; i < ENGINE_FREMEN_START_TERRITORIES; i++) {
        unsigned loc = first_location(engine__fremen_start[i]);
        st->forces[loc][act->seat] = (uint8_t)(st->forces[loc][act->seat] + act->arg[i]);
        st->special[loc][act->seat] = (uint8_t)(st->special[loc][act->seat] + act->arg[i + ENGINE_FREMEN_START_TERRITORIES]);
    }
    p->reserves = (uint8_t)(p->reserves - (total - elite));
    p->special_reserves = (uint8_t)(p->special_reserves - elite);
    setup_advance(st, SETUP_STEP_BG_PLACE, rng);
    return ENGINE_ACCEPTED;
}

/* Advanced: the Bene Gesserit start force goes to any location but the
 * HMS; an advisor where other factions' forces already are, a fighter
 * where it is alone (LR 2.02.08). */
engine_verdict engine__bg_place(engine_verdict_detail *why, engine_state *st,
                                const engine_action *act, engine_rng *rng)
{
    int loc = act->arg[0];
    if (loc < 0 || loc >= ENGINE_LOCATION_COUNT || loc == ENGINE_LOCATION_HMS)
        return engine__reject(why, ENGINE_REJECT_BG_PLACEMENT_LOCATION, 0, loc);
    unsigned territory = engine__locations[loc].territory;
    int is_shared = 0;
    for (unsigned l = 0; l < ENGINE_LOCATION_COUNT; l++) {
        if (engine__locations[l].territory != territory)
            continue;
        for (unsigned s = 0; s < st->config.n_seats; s++)
            if (s != act->seat && (st->forces[l][s] || st->special[l][s]))
                is_shared = 1;
    }
    if (is_shared)
        st->advisors[loc]++;
    else
        st->forces[loc][act->seat]++;
    st->seat[act->seat].reserves--;
    setup_advance(st, SETUP_STEP_COUNT, rng);
    return ENGINE_ACCEPTED;
}

/* ===================================================== legal families */

size_t engine__legal_predict(engine_legal *out, size_t cap, const engine_state *st, uint8_t seat)
{
    size_t n = 0;
    for (unsigned s = 0; s < st->config.n_seats; s++) {
        unsigned f = st->seat[s].faction;
        if (f == st->seat[seat].faction)
            continue; /* not the predictor's own */
        engine__legal_push1(out, cap, &n, ENGINE_ACTION_PREDICT, seat, (int)f, (int)f, 1,
                            st->config.turn_limit);
    }
    return n;
}

size_t engine__legal_traitor_pick(engine_legal *out, size_t cap, const engine_state *st,
                                  uint8_t seat)
{
    size_t n = 0;
    for (unsigned l = 0; l < ENGINE_LEADER_COUNT; l++) {
        if (st->traitor[l].place != ENGINE_PLACE_DEALT || st->traitor[l].holder != seat)
            continue;
        engine__legal_push1(out, cap, &n, ENGINE_ACTION_TRAITOR_PICK, seat, (int)l, (int)l, 0, 0);
    }
    return n;
}

size_t engine__legal_fremen_place(engine_legal *out, size_t cap, const engine_state *st,
                                  uint8_t seat)
{
    /* One family per way of spreading the Fedaykin (none in the Basic
     * game): the plain forces then make up the rest of the ten. */
    size_t n = 0;
    int elite = st->seat[seat].special_reserves;
    for (int a = 0; a <= elite; a++)
        for (int b = 0; a + b <= elite; b++)
            for (int c = 0; a + b + c <= elite; c++) {
                engine_legal l;
                engine__legal_init(&l, ENGINE_ACTION_FREMEN_PLACE, seat);
                int plain = ENGINE_FREMEN_START_FORCES - (a + b + c);
                for (int i = 0; i < ENGINE_FREMEN_START_TERRITORIES; i++) {
                    l.lo[i] = 0;
                    l.hi[i] = (int16_t)plain;
                }
                l.lo[3] = l.hi[3] = (int16_t)a;
                l.lo[4] = l.hi[4] = (int16_t)b;
                l.lo[5] = l.hi[5] = (int16_t)c;
                l.sum = ENGINE_FREMEN_START_FORCES;
                engine__legal_push(out, cap, &n, &l);
            }
    return n;
}

size_t engine__legal_bg_place(engine_legal *out, size_t cap, const engine_state *st, uint8_t seat)
{
    (void)st;
    size_t n = 0;
    engine__legal_push1(out, cap, &n, ENGINE_ACTION_BG_PLACE, seat, 0, ENGINE_LOCATION_HMS - 1, 0, 0);
    return n;
}
