/*
 * nexus.c - the lifecycle of the Nexus Cards module (E3 p.11; the digest's
 * EXPANSIONS_AND_NEXUS.md 5.1; rulings in docs/RULINGS.md "Nexus Cards"):
 * the twelve cards' deck and discard, at most one held card a seat, the
 * draw opportunity at the end of the Spice Blow and Nexus phase, the
 * own-faction redraw by a policy chosen before the draw, the discard on
 * every alliance formation, the reshuffle of an exhausted deck and the
 * mode of a held card by native roster identity. Panels are rows in
 * engine/nexus_<faction>.c, never here.
 *
 * Invariants: (1) a room without ENGINE_MODULE_NEXUS_CARDS never reaches
 * any function here that mutates (every entry checks the module first),
 * so its state and digests are those of version 4; (2) a Nexus card is
 * not a treachery card: it is in nexus_card[], never in card[], and no
 * treachery rule reads it; (3) the whole opportunity (every draw, every
 * replacement, every own-faction redraw, every reshuffle) is dealt inside
 * the fold of the answer that closes it, with that event's randomness, so
 * no public state ever waits between a draw and a redraw, and replaying,
 * retrying or reading never draws anew; (4) a seat with an ally holds no
 * Nexus card; (5) a panel's lasting effect is an effect record
 * (ENGINE_EFFECT_NEXUS_*, rules version 6 on), never read off who holds
 * which card, and a played card is shown to the table and discarded
 * exactly once (engine__nexus_spend). Engine layer: no I/O, no
 * allocation.
 */
#include <string.h>

#include "engine/phase.h"

#define SEAT_NONE 0xFF

_Static_assert(ENGINE_NEXUS_CARD_COUNT == ENGINE_FACTION_COUNT, "one Nexus card per faction");

static int has_module(const engine_state *st)
{
    return (st->config.modules & ENGINE_MODULE_NEXUS_CARDS) != 0;
}

/* ============================================================ the deck */

void engine__nexus_setup(engine_state *st, engine_rng *rng)
{
    if (!has_module(st))
        return;
    for (unsigned i = 0; i < ENGINE_NEXUS_CARD_COUNT; i++) {
        st->nexus_face[i] = (uint8_t)i;
        st->nexus_card[i].place = ENGINE_PLACE_DECK;
        st->nexus_card[i].holder = SEAT_NONE;
        st->nexus_card[i].known_by = 0;
        st->nexus_deck[i] = (uint8_t)i;
    }
    st->n_nexus_deck = ENGINE_NEXUS_CARD_COUNT;
    st->n_nexus_discard = 0;
    engine__shuffle(st->nexus_face, ENGINE_NEXUS_CARD_COUNT, rng);
    engine__shuffle(st->nexus_deck, ENGINE_NEXUS_CARD_COUNT, rng);
}

/* The discard pile becomes the deck: its faces are dealt anew to its card
 * numbers, so a number seen in the discard says nothing in the deck, and
 * nobody knows any of them (E3 p.11: "shuffle the discard pile"). */
static void reshuffle(engine_state *st, engine_rng *rng)
{
    uint8_t faces[ENGINE_NEXUS_CARD_COUNT];
    unsigned n = st->n_nexus_discard;
    for (unsigned i = 0; i < n; i++)
        faces[i] = st->nexus_face[st->nexus_discard[i]];
    engine__shuffle(faces, n, rng);
    for (unsigned i = 0; i < n; i++) {
        uint8_t c = st->nexus_discard[i];
        st->nexus_face[c] = faces[i];
        st->nexus_card[c].place = ENGINE_PLACE_DECK;
        st->nexus_card[c].known_by = 0;
        st->nexus_deck[st->n_nexus_deck++] = c;
    }
    st->n_nexus_discard = 0;
    engine__shuffle(st->nexus_deck, st->n_nexus_deck, rng);
}

/* Discards a held card. Who knew it still knows it; a card discarded
 * unplayed is not shown to the table (played cards are, by their panel). */
static void discard(engine_state *st, unsigned card)
{
    st->nexus_card[card].place = ENGINE_PLACE_DISCARD;
    st->nexus_card[card].holder = SEAT_NONE;
    st->nexus_discard[st->n_nexus_discard++] = (uint8_t)card;
}

/* The top card to `seat`, known to it alone; -1 if deck and discard are
 * both empty (never with 3..6 seats: at most 6 are held, invariant 4). */
static int draw(engine_state *st, unsigned seat, engine_rng *rng)
{
    if (st->n_nexus_deck == 0)
        reshuffle(st, rng);
    if (st->n_nexus_deck == 0)
        return -1;
    uint8_t c = st->nexus_deck[--st->n_nexus_deck];
    st->nexus_card[c].place = ENGINE_PLACE_HAND;
    st->nexus_card[c].holder = (uint8_t)seat;
    st->nexus_card[c].known_by = (uint16_t)ENGINE_SEAT_BIT(seat);
    return c;
}

int engine_nexus_held(const engine_state *st, unsigned seat)
{
    if (!has_module(st))
        return -1;
    for (unsigned c = 0; c < ENGINE_NEXUS_CARD_COUNT; c++)
        if (st->nexus_card[c].place == ENGINE_PLACE_HAND && st->nexus_card[c].holder == seat)
            return (int)c;
    return -1;
}

int engine_nexus_mode_of(const engine_state *st, unsigned seat, unsigned faction)
{
    if (seat >= st->config.n_seats || faction >= ENGINE_NEXUS_CARD_COUNT)
        return -1;
    if (st->seat[seat].faction == faction)
        return ENGINE_NEXUS_CUNNING;
    return engine__seat_of(st, faction) >= 0 ? ENGINE_NEXUS_BETRAYAL : ENGINE_NEXUS_SECRET_ALLY;
}

/* ==================================================== alliance discard */

/* E3 p.11: whoever joins an alliance discards his Nexus card. The hook
 * every alliance formation calls, inside the accepted action. */
void engine__nexus_alliance_formed(engine_state *st, unsigned a, unsigned b)
{
    if (!has_module(st))
        return;
    int held = engine_nexus_held(st, a);
    if (held >= 0)
        discard(st, (unsigned)held);
    held = engine_nexus_held(st, b);
    if (held >= 0)
        discard(st, (unsigned)held);
}

/* ===================================================== the opportunity */

int engine__nexus_draw_begin(engine_state *st)
{
    if (!has_module(st) || !st->is_nexus_this_phase)
        return 0;
    uint16_t unallied = 0;
    int alliance = 0;
    for (unsigned s = 0; s < st->config.n_seats; s++) {
        if (st->ally[s] == SEAT_NONE)
            unallied |= (uint16_t)ENGINE_SEAT_BIT(s);
        else
            alliance = 1;
    }
    if (!alliance || unallied == 0)
        return 0;
    st->step = BLOW_STEP_NEXUS_DRAW;
    st->awaiting = unallied;
    st->answered = 0;
    st->nexus_drawing = 0;
    return 1;
}

/* One seat's draw with its policy (E3 p.11: "may immediately discard it
 * and draw again"): its held card first to the discard, then the top card,
 * again while its own faction's card comes and the policy says so. At
 * most two own-faction cards can come: once its own card is discarded the
 * deck holds it no more, and a reshuffle brings it back at most once
 * before other cards (at least six are neither held nor drawn).
 *
 * Card numbers carry no identity, and nobody knows a face in the deck, so
 * a redraw is dealt by moving faces, not numbers: the faces of the deck
 * move up one place (the next card's face onto the top number, the one
 * the seat will hold), and the own card's face goes to the discard on the
 * bottom number. Every later draw then takes the very numbers it would
 * have taken without the redraw, and no view tells it by which number a
 * seat holds (engine/view.c (5); docs/RULINGS.md R80). */
static void deal_seat(engine_state *st, unsigned seat, unsigned policy, engine_rng *rng)
{
    int held = engine_nexus_held(st, seat);
    if (held >= 0)
        discard(st, (unsigned)held);
    for (unsigned redraws = 0;; redraws++) {
        if (st->n_nexus_deck == 0)
            reshuffle(st, rng);
        if (st->n_nexus_deck == 0)
            return;
        unsigned n = st->n_nexus_deck;
        uint8_t top = st->nexus_deck[n - 1];
        int stop = st->nexus_face[top] != st->seat[seat].faction ||
                   policy == ENGINE_NEXUS_KEEP ||
                   (policy == ENGINE_NEXUS_REDRAW_ONCE && redraws == 1) || redraws == 2;
        if (stop) {
            draw(st, seat, rng);
            return;
        }
        uint8_t own = st->nexus_face[top];
        for (unsigned i = n - 1; i > 0; i--)
            st->nexus_face[st->nexus_deck[i]] = st->nexus_face[st->nexus_deck[i - 1]];
        uint8_t bottom = st->nexus_deck[0];
        st->nexus_face[bottom] = own;
        memmove(st->nexus_deck, st->nexus_deck + 1, n - 1u);
        st->n_nexus_deck = (uint8_t)(n - 1u);
        st->nexus_card[bottom].known_by = (uint16_t)ENGINE_SEAT_BIT(seat);
        discard(st, bottom);
    }
}

/* Every drawer in storm order (docs/RULINGS.md: an implementation
 * convention, the sources name no order), then CHOAM Charity. */
static void deal(engine_state *st, engine_rng *rng)
{
    uint8_t order[ENGINE_MAX_SEATS];
    unsigned n = engine__storm_order(st, order);
    for (unsigned i = 0; i < n; i++)
        if (st->nexus_drawing & ENGINE_SEAT_BIT(order[i]))
            deal_seat(st, order[i], st->nexus_policy[order[i]], rng);
    st->nexus_drawing = 0;
    memset(st->nexus_policy, 0, sizeof st->nexus_policy);
    engine__charity_begin(st, rng);
}

/* A seat's answer: draw (replacing a held card) or decline, and its
 * own-faction policy (secret); the last answer deals the opportunity. */
engine_verdict engine__nexus_draw(engine_verdict_detail *why, engine_state *st,
                                  const engine_action *act, engine_rng *rng)
{
    int answer = act->arg[0], policy = act->arg[1];
    if (answer < 0 || answer > 1)
        return engine__reject(why, ENGINE_REJECT_ARG_OUT_OF_RANGE, 0, answer);
    if (policy < 0 || policy >= ENGINE_NEXUS_POLICY_COUNT)
        return engine__reject(why, ENGINE_REJECT_ARG_OUT_OF_RANGE, 1, policy);
    uint16_t bit = (uint16_t)ENGINE_SEAT_BIT(act->seat);
    if (answer)
        st->nexus_drawing |= bit;
    st->nexus_policy[act->seat] = (uint8_t)policy;
    st->answered |= bit;
    if (st->answered == st->awaiting)
        deal(st, rng);
    return ENGINE_ACCEPTED;
}

size_t engine__legal_nexus_draw(engine_legal *out, size_t cap, const engine_state *st,
                                uint8_t seat)
{
    (void)st;
    size_t n = 0;
    engine__legal_push1(out, cap, &n, ENGINE_ACTION_NEXUS_DRAW, seat, 0, 1, 0,
                        ENGINE_NEXUS_POLICY_COUNT - 1);
    return n;
}

/* ============================================================= panels */

/* A panel is rows of the card's file, engine/nexus_<faction>.c, played
 * with the generic `power` action (engine/points.c walks the held card's
 * rows for its mode; docs/ARCHITECTURE.md "Nexus panels"). What follows
 * is what every panel shares: the card shown and discarded once, the
 * traitors a panel draws and the seat shuffles back. */
const engine__power_family *const engine__nexus_families[ENGINE_FACTION_COUNT] = {
    [ENGINE_FACTION_ATREIDES] = &engine__nexus_atreides,
    [ENGINE_FACTION_BENE_GESSERIT] = &engine__nexus_bene_gesserit,
    [ENGINE_FACTION_EMPEROR] = &engine__nexus_emperor,
    [ENGINE_FACTION_FREMEN] = &engine__nexus_fremen,
    [ENGINE_FACTION_HARKONNEN] = &engine__nexus_harkonnen,
    [ENGINE_FACTION_GUILD] = &engine__nexus_guild,
    [ENGINE_FACTION_IXIANS] = &engine__nexus_ixians,
    [ENGINE_FACTION_TLEILAXU] = &engine__nexus_tleilaxu,
    [ENGINE_FACTION_CHOAM] = &engine__nexus_choam,
    [ENGINE_FACTION_RICHESE] = &engine__nexus_richese,
    [ENGINE_FACTION_ECAZ] = &engine__nexus_ecaz,
    [ENGINE_FACTION_MORITANI] = &engine__nexus_moritani,
};

void engine__nexus_show(engine_state *st, unsigned seat)
{
    int held = engine_nexus_held(st, seat);
    if (held >= 0)
        st->nexus_card[held].known_by |= ENGINE_KNOWN_PUBLIC;
}

void engine__nexus_spend(engine_state *st, unsigned seat)
{
    int held = engine_nexus_held(st, seat);
    if (held < 0)
        return;
    st->nexus_card[held].known_by |= ENGINE_KNOWN_PUBLIC;
    discard(st, (unsigned)held);
}

void engine__nexus_push(engine_legal *out, size_t cap, size_t *n, unsigned seat, int16_t id,
                        int16_t lo1, int16_t hi1, int16_t lo2, int16_t hi2)
{
    engine_legal f;
    engine__legal_init(&f, ENGINE_ACTION_POWER, (uint8_t)seat);
    f.lo[0] = f.hi[0] = id;
    f.lo[1] = lo1;
    f.hi[1] = hi1;
    f.lo[2] = lo2;
    f.hi[2] = hi2;
    engine__legal_push(out, cap, n, &f);
}

static const engine_effect *owed_record(const engine_state *st, unsigned seat)
{
    for (unsigned i = 0; i < st->n_effects; i++)
        if (st->effect[i].kind == ENGINE_EFFECT_NEXUS_RETURN && st->effect[i].owner == seat)
            return &st->effect[i];
    return NULL;
}

unsigned engine__nexus_owed(const engine_state *st, unsigned seat)
{
    const engine_effect *e = owed_record(st, seat);
    return e ? e->value : 0;
}

int engine__nexus_can_draw_traitors(const engine_state *st, unsigned seat, unsigned count)
{
    return owed_record(st, seat) == NULL && st->n_traitor_deck >= count &&
           st->n_effects < ENGINE_EFFECT_MAX;
}

/* The card shown to the table, `count` traitors off the top of the deck
 * to `seat` (known to it alone), and a record of the `count` it now owes
 * back (G4: the record, not the card, says what is owed). The caller
 * checked engine__nexus_can_draw_traitors. */
void engine__nexus_draw_traitors(engine_state *st, unsigned seat, unsigned count)
{
    engine__nexus_show(st, seat);
    int held = engine_nexus_held(st, seat);
    for (unsigned i = 0; i < count; i++) {
        uint8_t l = st->traitor_deck[--st->n_traitor_deck];
        st->traitor[l].place = ENGINE_PLACE_HAND;
        st->traitor[l].holder = (uint8_t)seat;
        st->traitor[l].known_by = (uint16_t)ENGINE_SEAT_BIT(seat);
    }
    engine_effect e = {ENGINE_EFFECT_NEXUS_RETURN, held >= 0 ? st->nexus_face[held] : 0,
                       (uint8_t)seat, (uint8_t)count, ENGINE_EXPIRY_REPLACED, 0};
    (void)engine__effect_add(st, &e);
}

/* A traitor held goes back into the deck, which is shuffled; the seat
 * still knows where that card is (in the deck), nobody else does. The
 * last one owed spends the card. */
engine_verdict engine__nexus_traitor_return(engine_verdict_detail *why, engine_state *st, unsigned owner,
                                     const engine_action *act, engine_rng *rng)
{
    (void)owner;
    int leader = act->arg[1];
    const engine_effect *e = owed_record(st, act->seat);
    if (!e)
        return engine__reject(why, ENGINE_REJECT_NOT_YOUR_POWER, 0, act->arg[0]);
    const engine_card_state *t = &st->traitor[leader];
    if (t->place != ENGINE_PLACE_HAND || t->holder != act->seat)
        return engine__reject(why, ENGINE_REJECT_CARD_NOT_HELD, 1, leader);
    engine__nexus_traitor_to_deck(st, act->seat, (unsigned)leader, rng);
    engine_effect left = *e;
    engine__effect_remove(st, ENGINE_EFFECT_NEXUS_RETURN, left.source);
    if (--left.value > 0)
        (void)engine__effect_add(st, &left);
    else
        engine__nexus_spend(st, act->seat);
    engine__nexus_moment_returned(st, rng); /* the Mentat Pause may go on (rules version 8) */
    return ENGINE_ACCEPTED;
}

void engine__nexus_traitor_to_deck(engine_state *st, unsigned seat, unsigned leader,
                                   engine_rng *rng)
{
    engine_card_state *t = &st->traitor[leader];
    t->place = ENGINE_PLACE_DECK;
    t->holder = SEAT_NONE;
    t->known_by = (uint16_t)ENGINE_SEAT_BIT(seat);
    st->traitor_deck[st->n_traitor_deck++] = (uint8_t)leader;
    engine__shuffle(st->traitor_deck, st->n_traitor_deck, rng);
}

/* Rules version 7: a cancelled traitor's replacement, drawn off the top
 * of the traitor deck as the Mentat Pause begins (digest 5.2 row 13). */
void engine__nexus_mentat_pause(engine_state *st)
{
    for (unsigned i = st->n_effects; i-- > 0;) {
        engine_effect e = st->effect[i];
        if (e.kind != ENGINE_EFFECT_NEXUS_TRAITOR_OWED)
            continue;
        for (unsigned k = 0; k < e.value && st->n_traitor_deck > 0; k++) {
            uint8_t l = st->traitor_deck[--st->n_traitor_deck];
            st->traitor[l].place = ENGINE_PLACE_HAND;
            st->traitor[l].holder = e.owner;
            st->traitor[l].known_by = (uint16_t)ENGINE_SEAT_BIT(e.owner);
        }
        engine__effect_remove(st, ENGINE_EFFECT_NEXUS_TRAITOR_OWED, e.source);
    }
}

/* One family per traitor the seat holds. */
size_t engine__nexus_traitor_return_legal(engine_legal *out, size_t cap, const engine_state *st,
                                   unsigned seat, int16_t id)
{
    size_t n = 0;
    for (unsigned l = 0; l < ENGINE_LEADER_COUNT; l++) {
        const engine_card_state *t = &st->traitor[l];
        if (t->place != ENGINE_PLACE_HAND || t->holder != seat)
            continue;
        engine__nexus_push(out, cap, &n, seat, id, (int16_t)l, (int16_t)l, 0, 0);
    }
    return n;
}

int engine__nexus_owes(const engine_state *st, unsigned owner, unsigned seat)
{
    (void)seat;
    return owed_record(st, owner) != NULL;
}

const engine_power_form engine__nexus_return_form = {
    .slug = "nexus_traitor_return", .n_args = 1,
    .arg_name = {"traitor"}, .arg_type = {ENGINE_ARG_LEADER},
    .lo = {0}, .hi = {ENGINE_LEADER_COUNT - 1},
    .secret_args = 0x01, /* which traitor goes back is the seat's */
};

/* Revival panels: forces from the Tanks to reserves, plain first (as the
 * Ghola takes them), and, where the panel says they count among the
 * seat's revivals this turn, a record of how many (R89). */
unsigned engine__nexus_dead(const engine_state *st, unsigned seat)
{
    return (unsigned)st->seat[seat].tanks + st->seat[seat].special_tanks;
}

void engine__nexus_revive(engine_state *st, unsigned seat, unsigned forces, int counted)
{
    engine_seat_state *p = &st->seat[seat];
    unsigned plain = forces < p->tanks ? forces : p->tanks;
    unsigned elite = forces - plain;
    p->tanks = (uint8_t)(p->tanks - plain);
    p->reserves = (uint8_t)(p->reserves + plain);
    p->special_tanks = (uint8_t)(p->special_tanks - elite);
    p->special_reserves = (uint8_t)(p->special_reserves + elite);
    if (counted) {
        int held = engine_nexus_held(st, seat);
        engine_effect e = {ENGINE_EFFECT_NEXUS_REVIVED, held >= 0 ? st->nexus_face[held] : 0,
                           (uint8_t)seat, (uint8_t)forces, ENGINE_EXPIRY_PHASE, 0};
        (void)engine__effect_add(st, &e);
    }
}

unsigned engine__nexus_revived(const engine_state *st, unsigned seat)
{
    unsigned n = 0;
    for (unsigned i = 0; i < st->n_effects; i++)
        if (st->effect[i].kind == ENGINE_EFFECT_NEXUS_REVIVED && st->effect[i].owner == seat)
            n += st->effect[i].value;
    return n;
}

engine_verdict engine__nexus_revive_panel(engine_verdict_detail *why, engine_state *st,
                                          unsigned owner, const engine_action *act, int counted)
{
    unsigned forces = (unsigned)act->arg[1];
    if (forces > engine__nexus_dead(st, owner))
        return engine__reject(why, ENGINE_REJECT_REVIVAL_TANKS, 1, act->arg[1]);
    engine__nexus_revive(st, owner, forces, counted);
    engine__nexus_spend(st, owner);
    return ENGINE_ACCEPTED;
}

int engine__nexus_in_revival(const engine_state *st, unsigned owner, unsigned seat)
{
    (void)seat;
    return st->phase == ENGINE_PHASE_REVIVAL && engine__nexus_dead(st, owner) > 0 &&
           st->n_effects < ENGINE_EFFECT_MAX;
}

/* One family: 1 up to `most` forces, and no more than are in the Tanks. */
size_t engine__nexus_forces_legal(engine_legal *out, size_t cap, const engine_state *st,
                                  unsigned seat, int16_t id, unsigned most)
{
    size_t n = 0;
    unsigned dead = engine__nexus_dead(st, seat);
    engine__nexus_push(out, cap, &n, seat, id, 1, (int16_t)(dead < most ? dead : most), 0, 0);
    return n;
}

/* Shipment panels: one family per location the seat may land at, 1 up
 * to the forces `most` says it may ship there (0: none). */
size_t engine__nexus_ship_legal(engine_legal *out, size_t cap, const engine_state *st,
                                unsigned seat, int16_t id,
                                unsigned (*most)(const engine_state *st, unsigned seat,
                                                 unsigned loc))
{
    size_t n = 0;
    for (unsigned loc = 0; loc < ENGINE_LOCATION_HMS; loc++) {
        unsigned m = engine__panel_may_land(st, seat, loc) ? most(st, seat, loc) : 0;
        if (m == 0)
            continue;
        engine__nexus_push(out, cap, &n, seat, id, (int16_t)loc, (int16_t)loc, 1, (int16_t)m);
    }
    return n;
}

engine_verdict engine__nexus_ship(engine_verdict_detail *why, engine_state *st, unsigned owner,
                                  const engine_action *act,
                                  unsigned (*price)(unsigned loc, unsigned forces), int to_bank)
{
    int loc = act->arg[1], forces = act->arg[2];
    if (loc < 0 || loc >= ENGINE_LOCATION_HMS)
        return engine__reject(why, ENGINE_REJECT_ARG_OUT_OF_RANGE, 1, loc);
    /* checked in full before anything changes */
    engine_verdict v = engine__ship_by_panel(why, st, owner, loc, forces,
                                             price((unsigned)loc, (unsigned)forces), to_bank);
    if (v == ENGINE_ACCEPTED)
        engine__nexus_spend(st, owner);
    return v;
}

int engine__nexus_may_ship(const engine_state *st, unsigned owner, unsigned seat)
{
    (void)seat;
    return engine__panel_may_ship(st, owner);
}

int engine__nexus_banned(const engine_state *st, unsigned owner, unsigned point)
{
    for (unsigned i = st->n_effects; i-- > 0;) {
        const engine_effect *e = &st->effect[i];
        if (e->kind < ENGINE_EFFECT_NEXUS_BANNED)
            return 0; /* sorted by kind: none further down */
        if (e->kind == ENGINE_EFFECT_NEXUS_BANNED && e->owner == owner && e->value == point)
            return 1;
    }
    return 0;
}

unsigned engine_nexus_panel_of_power(int id)
{
    if (id == engine_power_id(engine__nexus_return_form.slug))
        return 0;
    for (unsigned f = 0; f < ENGINE_FACTION_COUNT; f++) {
        const engine__power_family *fam = engine__nexus_families[f];
        for (size_t i = 0; i < fam->n; i++) {
            const engine__power_row *r = &fam->rows[i];
            if (r->form && r->nexus && engine_power_id(r->form->slug) == id)
                return engine_nexus_panel_row(r->faction, r->nexus - 1u);
        }
    }
    return 0;
}

size_t engine__nexus_yes_no_legal(engine_legal *out, size_t cap, const engine_state *st,
                                  unsigned seat, int16_t id, unsigned face)
{
    size_t n = 0;
    int may = engine__nexus_holds_as(st, seat, face, ENGINE_NEXUS_SECRET_ALLY);
    engine__legal_push1(out, cap, &n, ENGINE_ACTION_ANSWER, (uint8_t)seat, id, id, 0, may);
    return n;
}

int engine__nexus_in_force(const engine_state *st, engine__rule_change change)
{
    return (st->config.modules & ENGINE_MODULE_NEXUS_CARDS) && engine__rule(st, change);
}

int engine__nexus_holds_as(const engine_state *st, unsigned seat, unsigned face, int mode)
{
    int held = engine_nexus_held(st, seat);
    return held >= 0 && st->nexus_face[held] == face && engine_nexus_mode_of(st, seat, face) == mode;
}

int engine__nexus_could_hold(const engine_state *st, unsigned seat, unsigned face, int mode)
{
    int held = engine_nexus_held(st, seat);
    if (held < 0 || engine_nexus_mode_of(st, seat, face) != mode ||
        ((st->nexus_card[held].known_by & ENGINE_KNOWN_PUBLIC) && st->nexus_face[held] != face))
        return 0;
    for (unsigned i = 0; i < st->n_nexus_discard; i++)
        if (st->nexus_face[st->nexus_discard[i]] == face)
            return 0;
    return 1;
}

unsigned engine_nexus_panel_of_answer(const engine_action *act)
{
    if (act->kind != ENGINE_ACTION_ANSWER)
        return 0;
    for (unsigned f = 0; f < ENGINE_FACTION_COUNT; f++) {
        const engine__power_family *fam = engine__nexus_families[f];
        for (size_t i = 0; i < fam->n; i++) {
            const engine__power_row *r = &fam->rows[i];
            if (r->point != ENGINE__POINT_WINDOW || !r->nexus || !r->form ||
                engine_window_id(r->form->slug) != act->arg[0])
                continue;
            for (unsigned a = 0; a < r->form->n_args; a++)
                if (act->arg[1 + a] != r->form->fallback[a])
                    return engine_nexus_panel_row(r->faction, r->nexus - 1u);
            return 0;
        }
    }
    return 0;
}

int engine_nexus_panel_built(unsigned f, unsigned mode)
{
    if (f >= ENGINE_FACTION_COUNT)
        return 0;
    const engine__power_family *fam = engine__nexus_families[f];
    for (size_t i = 0; i < fam->n; i++)
        if (fam->rows[i].nexus == 1 + mode &&
            (fam->rows[i].use != NULL || fam->rows[i].answer != NULL) &&
            fam->rows[i].form != &engine__nexus_return_form)
            return 1;
    return 0;
}

engine_verdict engine__nexus_gate(engine_verdict_detail *why, const engine_state *st,
                            const engine_action *act, int is_closed_window)
{
    unsigned n = engine__nexus_owed(st, act->seat);
    if (n == 0 || is_closed_window ||
        (act->kind == ENGINE_ACTION_POWER && act->arg[0] == engine_power_id(engine__nexus_return_form.slug)))
        return ENGINE_ACCEPTED;
    return engine__reject(why, ENGINE_REJECT_NEXUS_RETURN_OWED, -1, (int32_t)n);
}

size_t engine__nexus_legal_owed(engine_legal *out, size_t cap, const engine_state *st,
                                uint8_t seat)
{
    return engine__nexus_traitor_return_legal(out, cap, st, seat, engine_power_id(engine__nexus_return_form.slug));
}

/* ========================================================== invariants */

int engine__nexus_check(const engine_state *st)
{
    unsigned n = st->config.n_seats;
    if (!engine__nexus_window_check(st))
        return 0;
    if (!has_module(st)) {
        static const engine_state zero;
        for (unsigned i = 0; i < st->n_effects; i++)
            if (st->effect[i].kind >= ENGINE_EFFECT_NEXUS_FIRST)
                return 0;
        return st->config.modules == ENGINE_MODULE_NONE &&
               memcmp(st->nexus_face, zero.nexus_face, sizeof zero.nexus_face) == 0 &&
               memcmp(st->nexus_card, zero.nexus_card, sizeof zero.nexus_card) == 0 &&
               st->n_nexus_deck == 0 && st->n_nexus_discard == 0 && st->nexus_drawing == 0 &&
               memcmp(st->nexus_policy, zero.nexus_policy, sizeof zero.nexus_policy) == 0;
    }
    if ((st->config.modules & ~ENGINE_MODULE_NEXUS_CARDS) ||
        !engine__rule(st, ENGINE__RULE_ROOM_OPTIONS) || n < ENGINE_NEXUS_MIN_SEATS)
        return 0;
    /* Every face once; every card in one place, listed in its pile. */
    uint16_t faces = 0, holders = 0;
    uint8_t listed[ENGINE_NEXUS_CARD_COUNT] = {0};
    for (unsigned i = 0; i < st->n_nexus_deck; i++)
        if (st->nexus_card[st->nexus_deck[i]].place != ENGINE_PLACE_DECK ||
            listed[st->nexus_deck[i]]++)
            return 0;
    for (unsigned i = 0; i < st->n_nexus_discard; i++)
        if (st->nexus_card[st->nexus_discard[i]].place != ENGINE_PLACE_DISCARD ||
            listed[st->nexus_discard[i]]++)
            return 0;
    for (unsigned c = 0; c < ENGINE_NEXUS_CARD_COUNT; c++) {
        const engine_card_state *k = &st->nexus_card[c];
        faces |= (uint16_t)(1u << st->nexus_face[c]);
        if (k->place == ENGINE_PLACE_HAND) {
            /* (4) at most one a seat, none with an ally */
            if (k->holder >= n || (holders & ENGINE_SEAT_BIT(k->holder)) ||
                st->ally[k->holder] != SEAT_NONE)
                return 0;
            holders |= (uint16_t)ENGINE_SEAT_BIT(k->holder);
        } else if ((k->place != ENGINE_PLACE_DECK && k->place != ENGINE_PLACE_DISCARD) ||
                   k->holder != SEAT_NONE || !listed[c]) {
            return 0;
        }
        if ((k->known_by & ~ENGINE_KNOWN_PUBLIC) >> n)
            return 0;
    }
    if (faces != (1u << ENGINE_NEXUS_CARD_COUNT) - 1)
        return 0;
    /* The opportunity's answers live only while it is open. */
    int drawing = st->phase == ENGINE_PHASE_SPICE_BLOW && st->step == BLOW_STEP_NEXUS_DRAW;
    if (st->nexus_drawing & ~(drawing ? st->answered : 0))
        return 0;
    for (unsigned s = 0; s < ENGINE_MAX_SEATS; s++)
        if (st->nexus_policy[s] >= ENGINE_NEXUS_POLICY_COUNT ||
            (st->nexus_policy[s] != 0 && !(drawing && (st->answered & ENGINE_SEAT_BIT(s)))))
            return 0;
    /* (5) the panels' records: only from rules version 6; a seat owing
     * traitors back holds the card that drew them, shown; forces revived
     * that count live in the Revival phase; an answer names two seats and
     * says yes, no or (in a view) nothing. */
    for (unsigned i = 0; i < st->n_effects; i++) {
        const engine_effect *e = &st->effect[i];
        if (e->kind < ENGINE_EFFECT_NEXUS_FIRST)
            continue;
        if (!engine__rule(st, ENGINE__RULE_NEXUS_PANELS) || e->owner >= n ||
            e->source >= ENGINE_FACTION_COUNT)
            return 0;
        if (e->kind == ENGINE_EFFECT_NEXUS_RETURN) {
            int held = engine_nexus_held(st, e->owner);
            if (held < 0 || st->nexus_face[held] != e->source || e->value == 0 ||
                e->expiry != ENGINE_EXPIRY_REPLACED ||
                !(st->nexus_card[held].known_by & ENGINE_KNOWN_PUBLIC) || e->arg != 0)
                return 0;
        } else if (e->kind == ENGINE_EFFECT_NEXUS_BANNED) {
            if (e->value >= ENGINE__POINT_COUNT || e->arg != 0 ||
                (e->expiry != ENGINE_EXPIRY_TURN && e->expiry != ENGINE_EXPIRY_PHASE &&
                 !(e->expiry == ENGINE_EXPIRY_BATTLE && st->phase == ENGINE_PHASE_BATTLE &&
                   engine__rule(st, ENGINE__RULE_NEXUS_MOMENTS))))
                return 0;
        } else if (e->kind == ENGINE_EFFECT_NEXUS_TRAITOR_OWED) {
            if (!engine__rule(st, ENGINE__RULE_NEXUS_WINDOWS) || e->value == 0 || e->value > 1 ||
                e->arg != 0 || e->expiry != ENGINE_EXPIRY_REPLACED)
                return 0;
        } else if (e->kind == ENGINE_EFFECT_NEXUS_SHIPMENT) {
            if (e->value == 0 || e->value > 2 || e->arg != 0 || e->expiry != ENGINE_EXPIRY_PHASE ||
                st->phase != ENGINE_PHASE_SHIPMENT_MOVEMENT ||
                !engine__rule(st, ENGINE__RULE_NEXUS_OWN_PANELS))
                return 0;
        } else if (e->kind == ENGINE_EFFECT_NEXUS_RIDE) {
            if (e->value >= ENGINE_TERRITORY_COUNT || e->arg < 0 ||
                e->arg >= ENGINE_TERRITORY_COUNT || e->value == e->arg ||
                e->expiry != ENGINE_EXPIRY_PHASE || st->phase != ENGINE_PHASE_SPICE_BLOW ||
                !engine__rule(st, ENGINE__RULE_NEXUS_OWN_PANELS))
                return 0;
        } else if (e->kind == ENGINE_EFFECT_NEXUS_PRESCIENCE) {
            if (e->value < ENGINE_PRESCIENCE_LEADER || e->value > ENGINE_PRESCIENCE_DIAL ||
                e->expiry != ENGINE_EXPIRY_BATTLE || st->phase != ENGINE_PHASE_BATTLE ||
                !engine__rule(st, ENGINE__RULE_NEXUS_OWN_PANELS))
                return 0;
        } else if (e->kind == ENGINE_EFFECT_NEXUS_SPARED) {
            if (e->value >= ENGINE_TERRITORY_COUNT || e->arg != 0 ||
                e->expiry != ENGINE_EXPIRY_PHASE || st->phase != ENGINE_PHASE_SPICE_BLOW ||
                !engine__rule(st, ENGINE__RULE_NEXUS_MOMENTS))
                return 0;
        } else if (e->kind == ENGINE_EFFECT_NEXUS_ELITE) {
            if (e->value < 1 || e->value > 5 || e->arg != 0 || e->expiry != ENGINE_EXPIRY_BATTLE ||
                st->phase != ENGINE_PHASE_BATTLE || !st->config.is_advanced ||
                !engine__rule(st, ENGINE__RULE_NEXUS_MOMENTS))
                return 0;
        } else if (e->kind == ENGINE_EFFECT_NEXUS_PAYMENT) {
            if (e->value < 1 || e->value > 2 || e->arg != 0 || e->expiry != ENGINE_EXPIRY_PHASE ||
                st->phase != ENGINE_PHASE_BIDDING || !engine__rule(st, ENGINE__RULE_NEXUS_MOMENTS))
                return 0;
        } else if (e->kind == ENGINE_EFFECT_NEXUS_VOICE) {
            if (e->value <= ENGINE_VOICE_NONE || e->value >= ENGINE_VOICE_CLASS_COUNT ||
                e->arg < 0 || e->arg > 1 || e->expiry != ENGINE_EXPIRY_BATTLE ||
                st->phase != ENGINE_PHASE_BATTLE ||
                !engine__rule(st, ENGINE__RULE_NEXUS_BORROWED_VOICE))
                return 0;
        } else if (e->kind == ENGINE_EFFECT_NEXUS_REVIVED) {
            if (e->value == 0 || e->value > 3 || e->arg != 0 || e->expiry != ENGINE_EXPIRY_PHASE ||
                st->phase != ENGINE_PHASE_REVIVAL)
                return 0;
        } else if (e->value >= n || e->value == e->owner || e->arg < 0 || e->arg > 2 ||
                   e->expiry != ENGINE_EXPIRY_TURN) {
            return 0;
        }
    }
    return 1;
}
