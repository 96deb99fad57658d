/*
 * position.c - constructed positions for scenarios: a referee or a rule
 * test starts from a cleared table and places forces, spice, cards,
 * traitors, leaders and alliances, then enters a phase. Every edit keeps
 * every component in exactly one place and the spice accounted for, so a
 * constructed position passes engine_state_check like a genuine one; the
 * configuration is marked constructed, so its digest can never match a
 * genuine room's.
 */
#include <string.h>

#include "engine/phase.h"

#define SEAT_NONE 0xFF

engine_verdict engine_position_new(engine_verdict_detail *why, engine_state *out,
                                   const engine_config *cfg, engine_rng *rng)
{
    engine_config c = *cfg;
    c.is_constructed = 1;
    engine_verdict v = engine_setup(why, out, &c, rng);
    if (v != ENGINE_ACCEPTED)
        return v;
    engine_state *st = out;
    /* Clear the table: forces to reserves, cards and traitors to their decks. */
    for (unsigned l = 0; l < ENGINE_LOCATION_COUNT; l++) {
        for (unsigned s = 0; s < st->config.n_seats; s++) {
            st->seat[s].reserves = (uint8_t)(st->seat[s].reserves + st->forces[l][s]);
            st->seat[s].special_reserves = (uint8_t)(st->seat[s].special_reserves + st->special[l][s]);
            st->forces[l][s] = st->special[l][s] = 0;
        }
        int bg = engine__seat_of(st, ENGINE_FACTION_BENE_GESSERIT);
        if (bg >= 0)
            st->seat[bg].reserves = (uint8_t)(st->seat[bg].reserves + st->advisors[l]);
        st->advisors[l] = 0;
    }
    for (unsigned l = 0; l < ENGINE_LEADER_COUNT; l++) {
        engine_card_state *t = &st->traitor[l];
        if (t->place == ENGINE_PLACE_HAND || t->place == ENGINE_PLACE_DEALT ||
            t->place == ENGINE_PLACE_DISCARD) {
            t->place = ENGINE_PLACE_DECK;
            t->holder = SEAT_NONE;
            t->known_by = 0;
            st->traitor_deck[st->n_traitor_deck++] = (uint8_t)l;
        }
    }
    /* SETUP past its last step: a position under construction, which waits
     * on nobody until engine_position_enter (engine/phase.h guarantee 3). */
    st->phase = ENGINE_PHASE_SETUP;
    st->step = SETUP_STEP_COUNT;
    st->awaiting = st->answered = 0;
    st->turn = 0;
    return ENGINE_ACCEPTED;
}

/* The Bene Gesserit tokens in one territory share one side (LR 2.02.20):
 * 1 if `seat` is the Bene Gesserit with tokens of the other side (advisors
 * when `as_advisors` is 0, fighters when 1) in the territory of `loc`. */
static int other_side_there(const engine_state *st, uint8_t seat, unsigned loc, int as_advisors)
{
    if (engine__seat_of(st, ENGINE_FACTION_BENE_GESSERIT) != (int)seat)
        return 0;
    unsigned t = engine__locations[loc].territory;
    for (unsigned l = 0; l < ENGINE_LOCATION_COUNT; l++)
        if (engine__locations[l].territory == t &&
            (as_advisors ? st->forces[l][seat] || st->special[l][seat] : st->advisors[l]))
            return 1;
    return 0;
}

int engine_position_forces(engine_state *st, uint8_t seat, unsigned loc, unsigned plain,
                           unsigned elite)
{
    if (seat >= st->config.n_seats || loc >= ENGINE_LOCATION_HMS)
        return -1;
    engine_seat_state *p = &st->seat[seat];
    if (plain > p->reserves || elite > p->special_reserves ||
        (plain + elite && other_side_there(st, seat, loc, 0)))
        return -1;
    p->reserves = (uint8_t)(p->reserves - plain);
    p->special_reserves = (uint8_t)(p->special_reserves - elite);
    st->forces[loc][seat] = (uint8_t)(st->forces[loc][seat] + plain);
    st->special[loc][seat] = (uint8_t)(st->special[loc][seat] + elite);
    return 0;
}

int engine_position_advisors(engine_state *st, uint8_t seat, unsigned loc, unsigned n)
{
    if (!n)
        return 0;
    if (seat >= st->config.n_seats || loc >= ENGINE_LOCATION_HMS || !st->config.is_advanced ||
        engine__seat_of(st, ENGINE_FACTION_BENE_GESSERIT) != (int)seat ||
        n > st->seat[seat].reserves || other_side_there(st, seat, loc, 1))
        return -1;
    st->seat[seat].reserves = (uint8_t)(st->seat[seat].reserves - n);
    st->advisors[loc] = (uint8_t)(st->advisors[loc] + n);
    return 0;
}

int engine_position_tanks(engine_state *st, uint8_t seat, unsigned plain, unsigned elite)
{
    if (seat >= st->config.n_seats)
        return -1;
    engine_seat_state *p = &st->seat[seat];
    if (plain > p->reserves || elite > p->special_reserves)
        return -1;
    p->reserves = (uint8_t)(p->reserves - plain);
    p->special_reserves = (uint8_t)(p->special_reserves - elite);
    p->tanks = (uint8_t)(p->tanks + plain);
    p->special_tanks = (uint8_t)(p->special_tanks + elite);
    return 0;
}

/* Spice appears from or returns to the bank: the accounts record it. */
static void set_spice(engine_state *st, uint16_t *where, unsigned n)
{
    if (n >= *where)
        st->spice_minted += n - *where;
    else
        st->spice_burned += *where - n;
    *where = (uint16_t)n;
}

int engine_position_spice(engine_state *st, unsigned loc, unsigned n)
{
    if (loc >= ENGINE_LOCATION_HMS || n > 255)
        return -1;
    uint16_t v = st->spice[loc];
    set_spice(st, &v, n);
    st->spice[loc] = (uint8_t)v;
    return 0;
}

int engine_position_seat_spice(engine_state *st, uint8_t seat, unsigned n)
{
    if (seat >= st->config.n_seats || n > 9999)
        return -1;
    set_spice(st, &st->seat[seat].spice, n);
    return 0;
}

/* Takes a card of `kind` out of the deck; -1 if none is left there. */
static int take_from_deck(engine_state *st, unsigned kind)
{
    for (unsigned i = 0; i < st->n_deck; i++) {
        unsigned c = st->deck[i];
        if (st->card_kind[c] != kind)
            continue;
        memmove(&st->deck[i], &st->deck[i + 1], st->n_deck - 1u - i);
        st->n_deck--;
        return (int)c;
    }
    return -1;
}

int engine_position_give_card(engine_state *st, uint8_t seat, unsigned kind)
{
    if (seat >= st->config.n_seats || kind >= ENGINE_CARD_KIND_COUNT)
        return -1;
    unsigned held = 0;
    for (unsigned i = 0; i < st->n_cards; i++)
        held += st->card[i].place == ENGINE_PLACE_HAND && st->card[i].holder == seat;
    if (held >= engine__factions[st->seat[seat].faction].hand_limit)
        return -1;
    int c = take_from_deck(st, kind);
    if (c < 0)
        return -1;
    st->card[c].place = ENGINE_PLACE_HAND;
    st->card[c].holder = seat;
    st->card[c].known_by = ENGINE_SEAT_BIT(seat);
    return c;
}

int engine_position_deck_top(engine_state *st, unsigned kind)
{
    if (kind >= ENGINE_CARD_KIND_COUNT)
        return -1;
    int c = take_from_deck(st, kind);
    if (c < 0)
        return -1;
    st->deck[st->n_deck++] = (uint8_t)c;
    return c;
}

int engine_position_spice_top(engine_state *st, unsigned card)
{
    for (unsigned i = 0; i < st->n_spice_deck; i++)
        if (st->spice_deck[i] == card) {
            memmove(&st->spice_deck[i], &st->spice_deck[i + 1], st->n_spice_deck - 1u - i);
            st->spice_deck[st->n_spice_deck - 1] = (uint8_t)card;
            return 0;
        }
    return -1;
}

int engine_position_spice_discard(engine_state *st, unsigned card)
{
    for (unsigned i = 0; i < st->n_spice_deck; i++)
        if (st->spice_deck[i] == card) {
            memmove(&st->spice_deck[i], &st->spice_deck[i + 1], st->n_spice_deck - 1u - i);
            st->n_spice_deck--;
            st->spice_card[card].place = ENGINE_PLACE_DISCARD;
            st->spice_card[card].known_by = engine__shown(st);
            st->spice_discard[st->n_spice_discard++] = (uint8_t)card;
            return 0;
        }
    return -1;
}

int engine_position_traitor(engine_state *st, uint8_t seat, unsigned leader)
{
    if (seat >= st->config.n_seats || leader >= ENGINE_LEADER_COUNT ||
        st->traitor[leader].place != ENGINE_PLACE_DECK)
        return -1;
    for (unsigned i = 0; i < st->n_traitor_deck; i++)
        if (st->traitor_deck[i] == leader) {
            memmove(&st->traitor_deck[i], &st->traitor_deck[i + 1], st->n_traitor_deck - 1u - i);
            st->n_traitor_deck--;
            break;
        }
    st->traitor[leader].place = ENGINE_PLACE_HAND;
    st->traitor[leader].holder = seat;
    st->traitor[leader].known_by = ENGINE_SEAT_BIT(seat);
    return 0;
}

int engine_position_leader_dead(engine_state *st, unsigned leader)
{
    if (leader >= ENGINE_LEADER_COUNT || st->leader[leader].place != ENGINE_PLACE_POOL)
        return -1;
    st->leader[leader].place = ENGINE_PLACE_TANKS;
    st->leader[leader].deaths++;
    return 0;
}

int engine_position_alliance(engine_state *st, uint8_t a, uint8_t b)
{
    if (a >= st->config.n_seats || b >= st->config.n_seats || a == b ||
        st->ally[a] != SEAT_NONE || st->ally[b] != SEAT_NONE)
        return -1;
    st->ally[a] = b;
    st->ally[b] = a;
    engine__nexus_alliance_formed(st, a, b);
    return 0;
}

/* ========================================================= Nexus Cards */

/* The deck position of the card printed for `faction`, or -1. */
static int nexus_in_deck(const engine_state *st, unsigned faction)
{
    if (!(st->config.modules & ENGINE_MODULE_NEXUS_CARDS) || faction >= ENGINE_NEXUS_CARD_COUNT)
        return -1;
    for (unsigned i = 0; i < st->n_nexus_deck; i++)
        if (st->nexus_face[st->nexus_deck[i]] == faction)
            return (int)i;
    return -1;
}

static uint8_t nexus_take(engine_state *st, unsigned i)
{
    uint8_t c = st->nexus_deck[i];
    memmove(&st->nexus_deck[i], &st->nexus_deck[i + 1], st->n_nexus_deck - 1u - i);
    st->n_nexus_deck--;
    return c;
}

int engine_position_nexus_give(engine_state *st, uint8_t seat, unsigned faction)
{
    int i = nexus_in_deck(st, faction);
    if (i < 0 || seat >= st->config.n_seats || st->ally[seat] != SEAT_NONE ||
        engine_nexus_held(st, seat) >= 0)
        return -1;
    uint8_t c = nexus_take(st, (unsigned)i);
    st->nexus_card[c].place = ENGINE_PLACE_HAND;
    st->nexus_card[c].holder = seat;
    st->nexus_card[c].known_by = (uint16_t)ENGINE_SEAT_BIT(seat);
    return c;
}

int engine_position_nexus_top(engine_state *st, unsigned faction)
{
    int i = nexus_in_deck(st, faction);
    if (i < 0)
        return -1;
    uint8_t c = nexus_take(st, (unsigned)i);
    st->nexus_deck[st->n_nexus_deck++] = c;
    return 0;
}

int engine_position_nexus_discard(engine_state *st, unsigned faction)
{
    int i = nexus_in_deck(st, faction);
    if (i < 0)
        return -1;
    uint8_t c = nexus_take(st, (unsigned)i);
    st->nexus_card[c].place = ENGINE_PLACE_DISCARD;
    st->nexus_discard[st->n_nexus_discard++] = c;
    return 0;
}

int engine_position_prediction(engine_state *st, unsigned faction, unsigned turn)
{
    if (faction >= ENGINE_FACTION_COUNT || engine__seat_of(st, faction) < 0 ||
        faction == ENGINE_FACTION_BENE_GESSERIT || turn < 1 || turn > st->config.turn_limit)
        return -1;
    st->prediction_faction = (uint8_t)faction;
    st->prediction_turn = (uint8_t)turn;
    return 0;
}

int engine_position_kwisatz_haderach(engine_state *st, unsigned losses, int is_dead)
{
    if (engine__kh_owner(st) < 0 || losses > 255 || (is_dead && losses < ENGINE_KH_AWAKENING_LOSSES))
        return -1; /* it dies only once awake */
    st->kh_losses = (uint8_t)losses;
    st->kh_state = is_dead ? ENGINE_KH_DEAD : ENGINE_KH_ALIVE;
    return 0;
}

int engine_position_captive(engine_state *st, unsigned leader)
{
    int h = engine__point_owner(st, ENGINE__POINT_CAPTURE);
    if (h < 0 || engine_leader_holder(st, leader) < 0 || engine__captive(st, leader) ||
        engine__leaders[leader].faction == st->seat[h].faction)
        return -1;
    st->captives |= (uint64_t)1u << leader;
    return 0;
}

/* Each phase is entered through its own entry point, which runs its
 * automatic steps: the position is then one the game could wait in. */
typedef void (*phase_entry)(engine_state *st, engine_rng *rng);
static const phase_entry phase_entries[ENGINE_PHASE_COUNT] = {
    [ENGINE_PHASE_STORM] = engine__storm_begin,
    [ENGINE_PHASE_SPICE_BLOW] = engine__spice_blow_begin,
    [ENGINE_PHASE_CHOAM_CHARITY] = engine__charity_begin,
    [ENGINE_PHASE_BIDDING] = engine__bidding_begin,
    [ENGINE_PHASE_REVIVAL] = engine__revival_begin,
    [ENGINE_PHASE_SHIPMENT_MOVEMENT] = engine__shipment_begin,
    [ENGINE_PHASE_BATTLE] = engine__battle_begin,
    [ENGINE_PHASE_SPICE_COLLECTION] = engine__collection_begin,
    [ENGINE_PHASE_MENTAT_PAUSE] = engine__mentat_pause_begin,
};

int engine_position_enter(engine_state *st, unsigned phase, unsigned turn, unsigned storm_sector,
                          engine_rng *rng)
{
    if (turn < 1 || turn > st->config.turn_limit || storm_sector >= ENGINE_SECTOR_COUNT ||
        phase >= ENGINE_PHASE_COUNT || !phase_entries[phase])
        return -1;
    st->storm_sector = (uint8_t)storm_sector;
    /* The Storm phase's entry begins the next turn itself. */
    st->turn = (uint8_t)(phase == ENGINE_PHASE_STORM ? turn - 1 : turn);
    phase_entries[phase](st, rng);
    return engine_state_check(st) == 0 ? 0 : -1;
}

int engine_spice_card_of(unsigned territory)
{
    for (unsigned c = 0; c < ENGINE_SPICE_BASE_CARDS; c++)
        if (!engine__spice_cards[c].is_worm && engine__spice_cards[c].territory == territory)
            return (int)c;
    return -1;
}

int engine_spice_worm(unsigned nth)
{
    for (unsigned c = 0; c < ENGINE_SPICE_BASE_CARDS; c++)
        if (engine__spice_cards[c].is_worm && nth-- == 0)
            return (int)c;
    return -1;
}
