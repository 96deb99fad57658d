/*
 * state.c - the engine state as a value: its canonical encoding (which the
 * digest, checkpoints and archives rely on), its strict decoder, and the
 * invariant checker that runs after every apply in debug builds.
 *
 * The encoding never depends on struct layout, padding or host byte order;
 * it is documented field by field in docs/FORMAT.md ("Engine state"). The
 * decoder treats its input as hostile: every count and index is range
 * checked and the result must pass engine_state_check.
 */
#include <stdio.h>
#include <string.h>

#include <sodium.h>

#include "engine/phase.h"

#define STATE_MAGIC "MNTS"

/* ============================================================ helpers */

int engine__seat_of(const engine_state *st, unsigned faction)
{
    for (int s = 0; s < st->config.n_seats; s++)
        if (st->seat[s].faction == faction)
            return s;
    return -1;
}

int engine__in_storm(const engine_state *st, unsigned loc)
{
    int sector = engine__locations[loc].sector;
    return sector != ENGINE_NO_SECTOR && (unsigned)sector == st->storm_sector;
}

unsigned engine__faction_special(const engine_state *st, unsigned faction)
{
    const engine__faction_row *row = &engine__factions[faction];
    if (faction == ENGINE_FACTION_IXIANS)
        return row->special_forces;
    return st->config.is_advanced ? row->special_forces : 0;
}

unsigned engine__faction_forces(const engine_state *st, unsigned faction)
{
    const engine__faction_row *row = &engine__factions[faction];
    if (faction == ENGINE_FACTION_IXIANS)
        return row->forces;
    return (unsigned)row->forces - engine__faction_special(st, faction);
}

unsigned engine__card_in_hand(const engine_state *st, unsigned seat, unsigned kind)
{
    for (unsigned i = 0; i < st->n_cards; i++)
        if (st->card[i].place == ENGINE_PLACE_HAND && st->card[i].holder == seat &&
            st->card_kind[i] == kind)
            return i;
    return 0xFF;
}

unsigned engine__hand_size(const engine_state *st, unsigned seat)
{
    unsigned n = 0;
    for (unsigned i = 0; i < st->n_cards; i++)
        n += st->card[i].place == ENGINE_PLACE_HAND && st->card[i].holder == seat;
    return n;
}

int engine__holds_cards(const engine_state *st, unsigned seat)
{
    return engine__hand_size(st, seat) > 0;
}

void engine__deal_treachery(engine_state *st, uint8_t seat)
{
    if (st->n_deck == 0)
        return; /* reshuffling the discard pile is the bidding phase's */
    uint8_t card = st->deck[--st->n_deck];
    st->card[card].place = ENGINE_PLACE_HAND;
    st->card[card].holder = seat;
    st->card[card].known_by = ENGINE_SEAT_BIT(seat);
}

void engine__forces_to_tanks(engine_state *st, unsigned loc, uint8_t seat, unsigned n,
                             unsigned n_special)
{
    st->forces[loc][seat] = (uint8_t)(st->forces[loc][seat] - n);
    st->special[loc][seat] = (uint8_t)(st->special[loc][seat] - n_special);
    st->seat[seat].tanks = (uint8_t)(st->seat[seat].tanks + n);
    st->seat[seat].special_tanks = (uint8_t)(st->seat[seat].special_tanks + n_special);
}

uint16_t engine_state_awaiting(const engine_state *st)
{
    /* An open window pauses the step for the seats it asks. */
    const engine_frame *f = engine_window_top(st);
    if (f)
        return (uint16_t)(f->asked & ~f->answered);
    return (uint16_t)(st->awaiting & ~st->answered);
}

/* ============================================================ encoding */

typedef struct writer {
    uint8_t *out;
    size_t cap;
    size_t len;                    /* bytes the full encoding needs so far */
} writer;

static void put_u8(writer *w, unsigned v)
{
    if (w->len < w->cap)
        w->out[w->len] = (uint8_t)v;
    w->len++;
}

static void put_u16(writer *w, unsigned v)
{
    put_u8(w, (v >> 8) & 0xFF);
    put_u8(w, v & 0xFF);
}

static void put_u32(writer *w, uint32_t v)
{
    put_u16(w, v >> 16);
    put_u16(w, v & 0xFFFF);
}

/* inline, as put_component: a writer passed to a call lives in memory, and
 * then every byte stored (which may alias it) reloads it. */
static inline void put_bytes(writer *w, const uint8_t *p, size_t n)
{
    if (w->len + n <= w->cap)
        memcpy(w->out + w->len, p, n);
    else
        for (size_t i = 0; i < n && w->len + i < w->cap; i++)
            w->out[w->len + i] = p[i];
    w->len += n;
}

static inline void put_component(writer *w, const engine_card_state *c)
{
    put_u8(w, c->place);
    put_u8(w, c->holder);
    put_u16(w, c->known_by);
}

/* The Guild's turn (engine_state.guild_turn) and the location of the
 * Fremen's storm losses (storm_loss_at) are encoded only in Advanced
 * rooms of rules version 7 on, so no earlier state's digest changes. */
static int guild_turn_encoded(const engine_state *st)
{
    return engine__advanced(st) && engine__rule(st, ENGINE__RULE_ADVANCED_GUILD_TIMING);
}

static int location_is_empty(const engine_state *st, unsigned loc)
{
    static const uint8_t none[ENGINE_MAX_SEATS];
    return !st->spice[loc] && !st->advisors[loc] &&
           memcmp(st->forces[loc], none, sizeof none) == 0 &&
           memcmp(st->special[loc], none, sizeof none) == 0;
}

size_t engine_state_encode(uint8_t *out, size_t cap, const engine_state *st)
{
    writer w = {out, cap, 0};
    const engine_config *c = &st->config;
    unsigned n = c->n_seats;
    engine__legacy_pause pause;    /* the windows as versions 2 and 3 encode them */
    engine__pause_encode(&pause, st);
    int v2_pause = engine__rule(st, ENGINE__RULE_WINDOW_ENCODING); /* else version 1's */
    if (!v2_pause)
        engine__pause_to_v1(&pause, st);

    put_bytes(&w, (const uint8_t *)STATE_MAGIC, 4);
    put_u16(&w, c->rules_version);
    put_u8(&w, st->viewer);
    /* configuration */
    put_u8(&w, n);
    for (unsigned s = 0; s < n; s++)
        put_u8(&w, c->faction[s]);
    put_u8(&w, c->is_advanced);
    put_u8(&w, c->turn_limit);
    put_u32(&w, c->modules);
    put_u8(&w, c->is_constructed);
    /* phase machine */
    put_u8(&w, st->phase);
    put_u8(&w, pause.step);
    put_u8(&w, st->turn);
    put_u16(&w, pause.awaiting);
    put_u16(&w, pause.answered);
    put_u8(&w, st->storm_sector);
    put_u8(&w, st->last_storm_move);
    put_u8(&w, st->next_storm);
    put_u8(&w, st->last_wheel[0]);
    put_u8(&w, st->last_wheel[1]);
    put_u8(&w, st->is_shield_wall_down);
    /* seats */
    for (unsigned s = 0; s < n; s++) {
        const engine_seat_state *p = &st->seat[s];
        put_u8(&w, p->faction);
        put_u8(&w, p->position);
        put_u16(&w, p->spice);
        put_u8(&w, p->reserves);
        put_u8(&w, p->special_reserves);
        put_u8(&w, p->tanks);
        put_u8(&w, p->special_tanks);
        put_u8(&w, p->storm_dial);
    }
    /* the board: only locations holding something, their count first
     * (written once the count is known) */
    size_t count_at = w.len;
    unsigned n_used = 0;
    put_u8(&w, 0);
    for (unsigned l = 0; l < ENGINE_LOCATION_COUNT; l++) {
        if (location_is_empty(st, l))
            continue;
        n_used++;
        put_u8(&w, l);
        put_u8(&w, st->spice[l]);
        put_u8(&w, st->advisors[l]);
        for (unsigned s = 0; s < n; s++) {
            put_u8(&w, st->forces[l][s]);
            put_u8(&w, st->special[l][s]);
        }
    }
    if (count_at < w.cap)
        w.out[count_at] = (uint8_t)n_used;
    /* alliances, Nexus, Bidding, Revival */
    for (unsigned s = 0; s < n; s++)
        put_u8(&w, st->ally[s]);
    put_u8(&w, st->worm_territory);
    put_u8(&w, st->is_nexus_this_phase);
    for (unsigned s = 0; s < n; s++)
        put_u16(&w, st->nexus_proposals[s]);
    put_u16(&w, st->nexus_broken);
    for (unsigned s = 0; s < n; s++)
        put_u16(&w, st->nexus_refused[s]);
    put_u8(&w, st->n_auction);
    put_bytes(&w, st->auction, st->n_auction);
    put_u8(&w, st->auction_index);
    put_u8(&w, st->bid_opener);
    put_u8(&w, st->bid_turn);
    put_u8(&w, st->high_bidder);
    put_u8(&w, st->high_bid_karama);
    put_u16(&w, st->high_bid);
    put_u16(&w, st->bid_passes);
    for (unsigned s = 0; s < n; s++)
        put_u16(&w, st->ally_support[s]);
    put_u8(&w, st->emperor_ally_revivals);
    put_u8(&w, st->ship_index);
    put_u8(&w, st->battle_territory);
    put_u8(&w, st->battle_seat[0]);
    put_u8(&w, st->battle_seat[1]);
    put_u8(&w, st->aggressor_index);
    for (unsigned i = 0; i < 2; i++) {
        const engine_battle_plan *b = &st->plan[i];
        put_u8(&w, (uint8_t)b->leader);
        put_u8(&w, (uint8_t)b->cheap_hero);
        put_u8(&w, (uint8_t)b->weapon);
        put_u8(&w, (uint8_t)b->defense);
        put_u8(&w, b->dial);
        put_u8(&w, b->is_committed);
    }
    put_u8(&w, pause.prescience_element);
    put_u16(&w, (uint16_t)pause.prescience_value);
    put_u8(&w, pause.voice_must);
    put_u8(&w, pause.voice_class);
    put_u8(&w, st->traitor_called);
    put_u8(&w, st->battle_winner);
    put_u8(&w, pause.tt_pending);
    if (v2_pause) {
        put_u8(&w, pause.tt_asker);
        put_u8(&w, pause.tt_answer);
    } else {
        put_u8(&w, pause.tt_answer);
        put_u16(&w, pause.tt_saved);
    }
    put_bytes(&w, st->leader_territory, ENGINE_LEADER_COUNT);
    put_u8(&w, st->weather_control);
    put_u16(&w, st->winners);
    put_u8(&w, st->victory_kind);
    put_u8(&w, st->prediction_faction);
    put_u8(&w, st->prediction_turn);
    /* treachery cards */
    put_u8(&w, st->n_cards);
    for (unsigned i = 0; i < st->n_cards; i++) {
        put_u8(&w, st->card_kind[i]);
        put_component(&w, &st->card[i]);
    }
    put_u8(&w, st->n_deck);
    put_bytes(&w, st->deck, st->n_deck);
    put_u8(&w, st->n_discard);
    put_bytes(&w, st->discard, st->n_discard);
    /* traitors and leaders, every leader of the table */
    for (unsigned i = 0; i < ENGINE_LEADER_COUNT; i++)
        put_component(&w, &st->traitor[i]);
    put_u8(&w, st->n_traitor_deck);
    put_bytes(&w, st->traitor_deck, st->n_traitor_deck);
    for (unsigned i = 0; i < ENGINE_LEADER_COUNT; i++) {
        put_u8(&w, st->leader[i].place);
        put_u8(&w, st->leader[i].deaths);
    }
    /* spice cards */
    put_u8(&w, st->n_spice_cards);
    for (unsigned i = 0; i < st->n_spice_cards; i++)
        put_component(&w, &st->spice_card[i]);
    put_u8(&w, st->n_spice_deck);
    put_bytes(&w, st->spice_deck, st->n_spice_deck);
    put_u8(&w, st->n_spice_discard);
    put_bytes(&w, st->spice_discard, st->n_spice_discard);
    put_u32(&w, st->spice_minted);
    put_u32(&w, st->spice_burned);
    if (v2_pause) {
        /* the Karama window (engine/karama.c) */
        put_u32(&w, pause.offered);
        put_u8(&w, pause.owner);
        put_u8(&w, pause.user);
        put_u8(&w, pause.pending.kind);
        put_u8(&w, pause.pending.seat);
        for (unsigned i = 0; i < ENGINE_ACTION_MAX_ARGS; i++)
            put_u16(&w, (uint16_t)pause.pending.arg[i]);
        put_u16(&w, pause.saved_awaiting);
        put_u16(&w, pause.saved_answered);
        put_u32(&w, pause.cancelled);
        put_u8(&w, pause.retake);
        /* a shipment paid with another seat's Karama (engine/phase_shipment.c) */
        put_u8(&w, pause.ship_seat);
        put_u8(&w, pause.ship_payer);
        put_u8(&w, pause.ship_location);
        put_u8(&w, pause.ship_forces);
        put_u8(&w, pause.ship_elite);
        put_u16(&w, st->karama_ship_named);
    }
    /* from rules version 3 on */
    if (c->rules_version >= 3) {
        put_u8(&w, st->has_moved);
        put_u8(&w, st->storm_pending);
        put_u8(&w, st->fremen_gifts);
        for (unsigned s = 0; s < n; s++) {
            put_u32(&w, st->karama_ask[s]);
            put_u32(&w, st->karama_ask_own[s]);
        }
        put_u16(&w, st->karama_policy_set);
    }
    /* Advanced rooms of rules version 5 on (engine/advanced.c): the
     * battle plans' forces by strength */
    if (engine__advanced(st))
        for (unsigned i = 0; i < 2; i++) {
            put_u8(&w, st->plan[i].half);
            put_u8(&w, st->plan[i].elite);
            put_u8(&w, st->plan[i].elite_half);
        }
    /* the Advanced double blow, Advanced rooms of rules version 6 on */
    if (engine__double_blow(st)) {
        put_u8(&w, st->n_spice_discard_b);
        put_bytes(&w, st->spice_discard_b, st->n_spice_discard_b);
        put_u8(&w, st->blow_pile);
        put_u8(&w, st->pile_worms);
        put_u32(&w, (uint32_t)st->worms_struck);
        put_u32(&w, (uint32_t)(st->worms_struck >> 32));
    }
    /* Advanced rooms of rules version 6 on: the Kwisatz Haderach
     * (engine/kwisatz_haderach.c) */
    if (engine__advanced(st) && engine__rule(st, ENGINE__RULE_ADVANCED_KH)) {
        for (unsigned i = 0; i < 2; i++)
            put_u8(&w, st->plan[i].kwisatz_haderach);
        put_u8(&w, st->kh_losses);
        put_u8(&w, st->kh_state);
        put_u8(&w, st->kh_territory);
    }
    /* Advanced rooms of rules version 6 on: one elite revival a turn */
    if (engine__advanced(st) && engine__rule(st, ENGINE__RULE_ADVANCED_ELITE_REVIVAL))
        for (unsigned s = 0; s < n; s++)
            put_u8(&w, st->elite_revival_turn[s]);
    /* Advanced rooms of rules version 7 on: the faction Karama powers used
     * (engine/karama_card.c) */
    if (engine__karama_powers_carried(st))
        put_u16(&w, st->karama_power_used);
    /* ... and from version 8 the Atreides' look at a plan (engine/karama_plan.c) */
    if (engine__karama_plan_carried(st))
        put_u8(&w, st->karama_plan_seen);
    /* Advanced rooms of rules version 6 on (engine/advisors.c) */
    if (engine__advisors_encoded(st))
        put_u8(&w, st->bg_accompany);
    /* Advanced rooms of rules version 7 on: the Guild's turn (LR 2.06.12) */
    if (guild_turn_encoded(st)) {
        put_u8(&w, st->guild_turn);
        put_u8(&w, st->storm_loss_at);
    }
    /* Advanced rooms of rules version 8 on: the Karama stops that last
     * (engine/karama_stops.c) */
    if (engine__karama_stops_encoded(st))
        put_u32(&w, st->karama_stopped);
    /* Advanced rooms of rules version 8 on: the Harkonnen's captives
     * (engine/capture.c) */
    if (engine__capture_encoded(st)) {
        put_u32(&w, (uint32_t)st->captives);
        put_u32(&w, (uint32_t)(st->captives >> 32));
        put_u8(&w, st->capture_leader);
    }
    /* the Nexus Cards (engine/nexus.c), only in a room that carries them */
    if (c->modules & ENGINE_MODULE_NEXUS_CARDS) {
        for (unsigned i = 0; i < ENGINE_NEXUS_CARD_COUNT; i++) {
            put_u8(&w, st->nexus_face[i]);
            put_component(&w, &st->nexus_card[i]);
        }
        put_u8(&w, st->n_nexus_deck);
        put_bytes(&w, st->nexus_deck, st->n_nexus_deck);
        put_u8(&w, st->n_nexus_discard);
        put_bytes(&w, st->nexus_discard, st->n_nexus_discard);
        put_u16(&w, st->nexus_drawing);
        for (unsigned s = 0; s < n; s++)
            put_u8(&w, st->nexus_policy[s]);
        /* rules version 6 on: the panels' effect records (engine/nexus.c) */
        if (engine__rule(st, ENGINE__RULE_NEXUS_PANELS)) {
            unsigned k = 0;
            for (unsigned i = 0; i < st->n_effects; i++)
                k += st->effect[i].kind >= ENGINE_EFFECT_NEXUS_FIRST;
            put_u8(&w, k);
            for (unsigned i = 0; i < st->n_effects; i++) {
                const engine_effect *e = &st->effect[i];
                if (e->kind < ENGINE_EFFECT_NEXUS_FIRST)
                    continue;
                put_u8(&w, e->kind);
                put_u8(&w, e->source);
                put_u8(&w, e->owner);
                put_u8(&w, e->value);
                put_u8(&w, e->expiry);
                put_u16(&w, (uint16_t)e->arg);
            }
        }
        /* rules version 7 on: the neutral Nexus window (engine/nexus_window.c) */
        if (engine__rule(st, ENGINE__RULE_NEXUS_WINDOWS)) {
            for (unsigned s = 0; s < n; s++) {
                put_u8(&w, st->nexus_quiet[s]);
                put_u8(&w, st->nexus_quiet_turn[s]);
            }
            put_u16(&w, st->nexus_played);
        }
    }
    /* Rules version 6 on: the windows rows declare (engine/generic.c),
     * only while one is open, so every other state encodes as it did. It
     * stays the last block: the decoder knows it by the bytes left. */
    unsigned n_generic = 0;
    for (unsigned i = 0; i < st->n_frames; i++)
        n_generic += st->frame[i].point == ENGINE_WINDOW_GENERIC;
    if (n_generic > 0 && engine__rule(st, ENGINE__RULE_GENERIC_WINDOWS)) {
        put_u8(&w, n_generic);
        for (unsigned i = 0; i < st->n_frames; i++) {
            const engine_frame *f = &st->frame[i];
            if (f->point != ENGINE_WINDOW_GENERIC)
                continue;
            put_u8(&w, i);
            put_u16(&w, f->window);
            put_u8(&w, f->owner);
            put_u8(&w, f->user);
            put_u8(&w, f->held.kind);
            put_u8(&w, f->held.seat);
            for (unsigned a = 0; a < ENGINE_ACTION_MAX_ARGS; a++)
                put_u16(&w, (uint16_t)f->held.arg[a]);
            put_u16(&w, f->asked);
            put_u16(&w, f->answered);
        }
    }
    return w.len;
}

void engine_state_digest(uint8_t out[ENGINE_DIGEST_BYTES], const engine_state *st)
{
    uint8_t buf[ENGINE_STATE_ENCODED_MAX];
    size_t len = engine_state_encode(buf, sizeof buf, st);
    /* ENGINE_STATE_ENCODED_MAX bounds every encoding (test_state checks the
     * largest possible one). */
    crypto_generichash(out, ENGINE_DIGEST_BYTES, buf, len, NULL, 0);
}

static int check(const engine_state *st, int is_quiet);

/* ============================================================ decoding */

typedef struct reader {
    const uint8_t *in;
    size_t len;
    size_t pos;
    int is_bad;                    /* 1 once any read ran past the end or failed a range */
    int is_view;                   /* 1 = a public view's bytes: ENGINE_UNKNOWN passes a range */
} reader;

static unsigned get_u8(reader *r)
{
    if (r->pos >= r->len) {
        r->is_bad = 1;
        return 0;
    }
    return r->in[r->pos++];
}

static unsigned get_u16(reader *r)
{
    unsigned hi = get_u8(r);
    return hi << 8 | get_u8(r);
}

static uint32_t get_u32(reader *r)
{
    uint32_t hi = get_u16(r);
    return hi << 16 | get_u16(r);
}

/* Reads a byte that must be below `limit`; 0 (and the reader marked bad)
 * when it is not. In a public view the unknown mark passes too: a field
 * read here is stored, never used as an index by the decoder. */
static uint8_t get_below(reader *r, unsigned limit)
{
    unsigned v = get_u8(r);
    if (v >= limit && !(r->is_view && v == ENGINE_UNKNOWN)) {
        r->is_bad = 1;
        return 0;
    }
    return (uint8_t)v;
}

/* Reads a byte the decoder uses as an index or a count: below `limit` in
 * a public view too, else 0 and the reader marked bad. */
static uint8_t get_index(reader *r, unsigned limit)
{
    unsigned v = get_u8(r);
    if (v >= limit) {
        r->is_bad = 1;
        return 0;
    }
    return (uint8_t)v;
}

static void get_component(reader *r, engine_card_state *c, unsigned n_seats)
{
    c->place = get_below(r, r->is_view ? ENGINE_PLACE_HIDDEN + 1 : ENGINE_PLACE_PLAYED + 1);
    c->holder = (uint8_t)get_u8(r);
    c->known_by = (uint16_t)get_u16(r);
    if (c->holder != 0xFF && c->holder >= n_seats)
        r->is_bad = 1;
    if ((c->known_by & ~ENGINE_KNOWN_PUBLIC) >> n_seats)
        r->is_bad = 1;
}

static void get_list(reader *r, uint8_t *n_out, uint8_t *items, unsigned max, unsigned limit)
{
    unsigned n = get_u8(r);
    if (n > max) {
        r->is_bad = 1;
        n = 0;
    }
    *n_out = (uint8_t)n;
    for (unsigned i = 0; i < n; i++)
        items[i] = get_below(r, limit);
}

/* The decoder of states (is_view 0) and of public views (is_view 1: the
 * viewer is ENGINE_VIEW_PUBLIC, an unknown mark passes where a range is
 * read, and the invariants, which a view does not keep, are not asked). */
static int decode(engine_state *out, const uint8_t *in, size_t len, int is_view)
{
    reader r = {in, len, 0, 0, is_view};
    engine_state *st = out;
    engine__legacy_pause pause;    /* the windows as versions 2 and 3 encode them */
    engine_effect nexus_effects[ENGINE_EFFECT_MAX]; /* the Nexus panels' records */
    unsigned n_nexus_effects = 0;
    memset(st, 0, sizeof *st);
    memset(&pause, 0, sizeof pause);
    memset(nexus_effects, 0, sizeof nexus_effects);

    if (len < 7 || memcmp(in, STATE_MAGIC, 4) != 0)
        goto bad;
    r.pos = 4;
    engine_config *c = &st->config;
    c->rules_version = (uint16_t)get_u16(&r);
    if (!engine_rules_version_is_folded(c->rules_version))
        goto bad;
    st->viewer = (uint8_t)get_u8(&r);
    if (st->viewer != (is_view ? ENGINE_VIEW_PUBLIC : ENGINE_SEAT_ENGINE))
        goto bad; /* views are never decoded as states, nor states as views */
    c->n_seats = (uint8_t)get_u8(&r);
    if (c->n_seats < ENGINE_MIN_SEATS || c->n_seats > ENGINE_MAX_SEATS)
        goto bad;
    unsigned n = c->n_seats;
    for (unsigned s = 0; s < n; s++)
        c->faction[s] = get_index(&r, ENGINE_FACTION_COUNT);
    c->is_advanced = get_below(&r, 2);
    c->turn_limit = (uint8_t)get_u8(&r);
    c->modules = get_u32(&r);
    c->is_constructed = get_below(&r, 2);

    st->phase = get_index(&r, ENGINE_PHASE_COUNT);
    pause.step = (uint8_t)get_u8(&r);
    st->turn = (uint8_t)get_u8(&r);
    pause.awaiting = (uint16_t)get_u16(&r);
    pause.answered = (uint16_t)get_u16(&r);
    st->storm_sector = get_below(&r, ENGINE_SECTOR_COUNT);
    st->last_storm_move = (uint8_t)get_u8(&r);
    st->next_storm = get_below(&r, 7);
    st->last_wheel[0] = (uint8_t)get_u8(&r);
    st->last_wheel[1] = (uint8_t)get_u8(&r);
    st->is_shield_wall_down = get_below(&r, 2);
    for (unsigned i = 0; i < 2; i++)
        if (st->last_wheel[i] != 0xFF && st->last_wheel[i] >= n)
            goto bad;
    for (unsigned s = 0; s < n; s++) {
        engine_seat_state *p = &st->seat[s];
        p->faction = get_index(&r, ENGINE_FACTION_COUNT);
        p->position = get_below(&r, ENGINE_SECTOR_COUNT);
        p->spice = (uint16_t)get_u16(&r);
        p->reserves = (uint8_t)get_u8(&r);
        p->special_reserves = (uint8_t)get_u8(&r);
        p->tanks = (uint8_t)get_u8(&r);
        p->special_tanks = (uint8_t)get_u8(&r);
        p->storm_dial = (uint8_t)get_u8(&r);
    }
    unsigned n_used = get_u8(&r);
    int last = -1;
    for (unsigned i = 0; i < n_used && !r.is_bad; i++) {
        unsigned l = get_index(&r, ENGINE_LOCATION_COUNT);
        if ((int)l <= last)        /* ascending, each once */
            goto bad;
        last = (int)l;
        st->spice[l] = (uint8_t)get_u8(&r);
        st->advisors[l] = (uint8_t)get_u8(&r);
        for (unsigned s = 0; s < n; s++) {
            st->forces[l][s] = (uint8_t)get_u8(&r);
            st->special[l][s] = (uint8_t)get_u8(&r);
        }
        if (location_is_empty(st, l)) /* canonical: empty ones are omitted */
            goto bad;
    }
    for (unsigned s = 0; s < n; s++) {
        st->ally[s] = (uint8_t)get_u8(&r);
        if (st->ally[s] != 0xFF && st->ally[s] >= n)
            goto bad;
    }
    st->worm_territory = get_below(&r, ENGINE_TERRITORY_COUNT + 1);
    st->is_nexus_this_phase = get_below(&r, 2);
    for (unsigned s = 0; s < n; s++)
        st->nexus_proposals[s] = (uint16_t)get_u16(&r);
    st->nexus_broken = (uint16_t)get_u16(&r);
    for (unsigned s = 0; s < n; s++)
        st->nexus_refused[s] = (uint16_t)get_u16(&r);
    st->n_auction = (uint8_t)get_u8(&r);
    if (st->n_auction > ENGINE_MAX_SEATS)
        goto bad;
    for (unsigned i = 0; i < st->n_auction; i++)
        st->auction[i] = get_below(&r, ENGINE_TREACHERY_MAX);
    st->auction_index = (uint8_t)get_u8(&r);
    st->bid_opener = (uint8_t)get_u8(&r);
    st->bid_turn = (uint8_t)get_u8(&r);
    st->high_bidder = (uint8_t)get_u8(&r);
    st->high_bid_karama = (uint8_t)get_u8(&r);
    st->high_bid = (uint16_t)get_u16(&r);
    st->bid_passes = (uint16_t)get_u16(&r);
    for (unsigned s = 0; s < n; s++)
        st->ally_support[s] = (uint16_t)get_u16(&r);
    st->emperor_ally_revivals = get_below(&r, 4);
    st->ship_index = get_below(&r, ENGINE_MAX_SEATS + 1);
    st->battle_territory = get_below(&r, ENGINE_TERRITORY_COUNT + 1);
    st->battle_seat[0] = (uint8_t)get_u8(&r);
    st->battle_seat[1] = (uint8_t)get_u8(&r);
    st->aggressor_index = get_below(&r, ENGINE_MAX_SEATS + 1);
    for (unsigned i = 0; i < 2; i++) {
        engine_battle_plan *b = &st->plan[i];
        b->leader = (int8_t)get_u8(&r);
        b->cheap_hero = (int8_t)get_u8(&r);
        b->weapon = (int8_t)get_u8(&r);
        b->defense = (int8_t)get_u8(&r);
        b->dial = (uint8_t)get_u8(&r);
        b->is_committed = get_below(&r, 2);
        if (b->leader >= ENGINE_LEADER_COUNT || b->cheap_hero >= ENGINE_TREACHERY_MAX ||
            b->weapon >= ENGINE_TREACHERY_MAX || b->defense >= ENGINE_TREACHERY_MAX ||
            b->leader < -1 || b->cheap_hero < -1 || b->weapon < -1 || b->defense < -1)
            goto bad;
    }
    pause.prescience_element = get_index(&r, 5);
    pause.prescience_value = (int16_t)get_u16(&r);
    pause.voice_must = get_below(&r, 2);
    pause.voice_class = get_index(&r, ENGINE_VOICE_CLASS_COUNT);
    st->traitor_called = get_below(&r, 4);
    st->battle_winner = (uint8_t)get_u8(&r);
    int v2_pause = engine__rule(st, ENGINE__RULE_WINDOW_ENCODING); /* else version 1's */
    pause.tt_pending = (uint8_t)get_u8(&r);
    if (v2_pause) {
        pause.tt_asker = (uint8_t)get_u8(&r);
        pause.tt_answer = (uint8_t)get_u8(&r);
    } else {
        pause.tt_answer = (uint8_t)get_u8(&r);
        pause.tt_saved = (uint16_t)get_u16(&r);
    }
    for (unsigned i = 0; i < ENGINE_LEADER_COUNT; i++)
        st->leader_territory[i] = (uint8_t)get_u8(&r);
    st->weather_control = (uint8_t)get_u8(&r);
    st->winners = (uint16_t)get_u16(&r);
    st->victory_kind = get_below(&r, ENGINE_VICTORY_MOST_STRONGHOLDS + 1);
    st->prediction_faction = (uint8_t)get_u8(&r);
    st->prediction_turn = (uint8_t)get_u8(&r);
    st->n_cards = (uint8_t)get_u8(&r);
    if (st->n_cards > ENGINE_TREACHERY_MAX)
        goto bad;
    for (unsigned i = 0; i < st->n_cards; i++) {
        st->card_kind[i] = get_below(&r, ENGINE_CARD_KIND_COUNT);
        get_component(&r, &st->card[i], n);
    }
    get_list(&r, &st->n_deck, st->deck, ENGINE_TREACHERY_MAX, st->n_cards);
    get_list(&r, &st->n_discard, st->discard, ENGINE_TREACHERY_MAX, st->n_cards);
    for (unsigned i = 0; i < ENGINE_LEADER_COUNT; i++)
        get_component(&r, &st->traitor[i], n);
    get_list(&r, &st->n_traitor_deck, st->traitor_deck, ENGINE_LEADER_COUNT, ENGINE_LEADER_COUNT);
    for (unsigned i = 0; i < ENGINE_LEADER_COUNT; i++) {
        st->leader[i].place = get_below(&r, ENGINE_PLACE_PLAYED + 1);
        st->leader[i].deaths = (uint8_t)get_u8(&r);
    }
    st->n_spice_cards = (uint8_t)get_u8(&r);
    if (st->n_spice_cards > ENGINE_SPICE_CARD_MAX)
        goto bad;
    for (unsigned i = 0; i < st->n_spice_cards; i++)
        get_component(&r, &st->spice_card[i], n);
    get_list(&r, &st->n_spice_deck, st->spice_deck, ENGINE_SPICE_CARD_MAX, st->n_spice_cards);
    get_list(&r, &st->n_spice_discard, st->spice_discard, ENGINE_SPICE_CARD_MAX,
             st->n_spice_cards);
    st->spice_minted = get_u32(&r);
    st->spice_burned = get_u32(&r);
    if (v2_pause) {
        pause.offered = get_u32(&r);
        pause.owner = (uint8_t)get_u8(&r);
        pause.user = (uint8_t)get_u8(&r);
        pause.pending.kind = get_index(&r, ENGINE_ACTION_KIND_COUNT);
        pause.pending.seat = (uint8_t)get_u8(&r);
        for (unsigned i = 0; i < ENGINE_ACTION_MAX_ARGS; i++)
            pause.pending.arg[i] = (int16_t)get_u16(&r);
        pause.saved_awaiting = (uint16_t)get_u16(&r);
        pause.saved_answered = (uint16_t)get_u16(&r);
        pause.cancelled = get_u32(&r);
        pause.retake = (uint8_t)get_u8(&r);
        pause.ship_seat = (uint8_t)get_u8(&r);
        pause.ship_payer = (uint8_t)get_u8(&r);
        pause.ship_location = (uint8_t)get_u8(&r);
        pause.ship_forces = (uint8_t)get_u8(&r);
        pause.ship_elite = (uint8_t)get_u8(&r);
        st->karama_ship_named = (uint16_t)get_u16(&r);
    } else if (engine__pause_from_v1(&pause, st) != 0) {
        goto bad;
    }
    if (c->rules_version >= 3) {
        st->has_moved = get_below(&r, 2);
        st->storm_pending = (uint8_t)get_u8(&r);
        st->fremen_gifts = get_below(&r, (ENGINE_GIFT_WORM | ENGINE_GIFT_REVIVAL) + 1u);
        for (unsigned s = 0; s < n; s++) {
            st->karama_ask[s] = get_u32(&r);
            st->karama_ask_own[s] = get_u32(&r);
        }
        st->karama_policy_set = (uint16_t)get_u16(&r);
    }
    if (engine__advanced(st))
        for (unsigned i = 0; i < 2; i++) {
            st->plan[i].half = (uint8_t)get_u8(&r);
            st->plan[i].elite = (uint8_t)get_u8(&r);
            st->plan[i].elite_half = (uint8_t)get_u8(&r);
        }
    if (engine__double_blow(st)) {
        get_list(&r, &st->n_spice_discard_b, st->spice_discard_b, ENGINE_SPICE_CARD_MAX,
                 st->n_spice_cards);
        st->blow_pile = get_below(&r, 2);
        st->pile_worms = (uint8_t)get_u8(&r);
        st->worms_struck = get_u32(&r);
        st->worms_struck |= (uint64_t)get_u32(&r) << 32;
    }
    if (engine__advanced(st) && engine__rule(st, ENGINE__RULE_ADVANCED_KH)) {
        for (unsigned i = 0; i < 2; i++)
            st->plan[i].kwisatz_haderach = get_below(&r, ENGINE_KH_WITH + 1);
        st->kh_losses = (uint8_t)get_u8(&r);
        st->kh_state = get_below(&r, ENGINE_KH_REVIVED + 1);
        st->kh_territory = get_below(&r, ENGINE_TERRITORY_COUNT + 1);
    }
    if (engine__advanced(st) && engine__rule(st, ENGINE__RULE_ADVANCED_ELITE_REVIVAL))
        for (unsigned s = 0; s < n; s++)
            st->elite_revival_turn[s] = (uint8_t)get_u8(&r);
    if (engine__karama_powers_carried(st))
        st->karama_power_used = (uint16_t)get_u16(&r);
    if (engine__karama_plan_carried(st))
        st->karama_plan_seen = (uint8_t)get_u8(&r);
    if (engine__advisors_encoded(st))
        st->bg_accompany = get_below(&r, ENGINE_LOCATION_HMS + 1u);
    if (guild_turn_encoded(st)) {
        st->guild_turn = get_below(&r, 8);
        st->storm_loss_at = get_below(&r, ENGINE_LOCATION_COUNT);
    }
    if (engine__karama_stops_encoded(st))
        st->karama_stopped = get_u32(&r);
    if (engine__capture_encoded(st)) {
        st->captives = get_u32(&r);
        st->captives |= (uint64_t)get_u32(&r) << 32;
        st->capture_leader = get_below(&r, ENGINE_LEADER_COUNT + 1);
    }
    if (c->modules & ENGINE_MODULE_NEXUS_CARDS) {
        for (unsigned i = 0; i < ENGINE_NEXUS_CARD_COUNT; i++) {
            st->nexus_face[i] = get_below(&r, ENGINE_NEXUS_CARD_COUNT);
            get_component(&r, &st->nexus_card[i], n);
        }
        get_list(&r, &st->n_nexus_deck, st->nexus_deck, ENGINE_NEXUS_CARD_COUNT,
                 ENGINE_NEXUS_CARD_COUNT);
        get_list(&r, &st->n_nexus_discard, st->nexus_discard, ENGINE_NEXUS_CARD_COUNT,
                 ENGINE_NEXUS_CARD_COUNT);
        st->nexus_drawing = (uint16_t)get_u16(&r);
        for (unsigned s = 0; s < n; s++)
            st->nexus_policy[s] = get_below(&r, ENGINE_NEXUS_POLICY_COUNT);
        if (engine__rule(st, ENGINE__RULE_NEXUS_PANELS)) {
            n_nexus_effects = get_index(&r, ENGINE_EFFECT_MAX + 1u);
            for (unsigned i = 0; i < n_nexus_effects; i++) {
                engine_effect *e = &nexus_effects[i];
                e->kind = get_below(&r, ENGINE_EFFECT_KIND_COUNT);
                e->source = (uint8_t)get_u8(&r);
                e->owner = (uint8_t)get_u8(&r);
                e->value = (uint8_t)get_u8(&r);
                e->expiry = get_below(&r, ENGINE_EXPIRY_BATTLE + 1u);
                e->arg = (int16_t)get_u16(&r);
                if (e->kind < ENGINE_EFFECT_NEXUS_FIRST ||
                    (i > 0 && (e->kind < e[-1].kind ||
                               (e->kind == e[-1].kind && e->source <= e[-1].source))))
                    r.is_bad = 1; /* the canonical order, each record once */
            }
        }
        if (engine__rule(st, ENGINE__RULE_NEXUS_WINDOWS)) {
            for (unsigned s = 0; s < n; s++) {
                st->nexus_quiet[s] = get_below(&r, ENGINE_NEXUS_POINTS_ALL + 1u);
                st->nexus_quiet_turn[s] = (uint8_t)get_u8(&r);
            }
            st->nexus_played = (uint16_t)get_u16(&r);
        }
    }
    /* the windows rows declare, when bytes are left (rules version 6 on) */
    engine_frame generic[ENGINE_FRAME_MAX];
    uint8_t generic_at[ENGINE_FRAME_MAX];
    unsigned n_generic = 0;
    if (!r.is_bad && r.pos < len) {
        if (!engine__rule(st, ENGINE__RULE_GENERIC_WINDOWS))
            goto bad;
        n_generic = get_u8(&r);
        if (n_generic == 0 || n_generic > ENGINE_FRAME_MAX)
            goto bad;
        memset(generic, 0, sizeof generic);
        for (unsigned i = 0; i < n_generic; i++) {
            engine_frame *f = &generic[i];
            generic_at[i] = get_index(&r, ENGINE_FRAME_MAX);
            if (i > 0 && generic_at[i] <= generic_at[i - 1])
                goto bad;
            f->point = ENGINE_WINDOW_GENERIC;
            f->window = (uint16_t)get_u16(&r);
            f->owner = (uint8_t)get_u8(&r);
            f->user = (uint8_t)get_u8(&r);
            f->held.kind = get_index(&r, ENGINE_ACTION_KIND_COUNT);
            f->held.seat = (uint8_t)get_u8(&r);
            for (unsigned a = 0; a < ENGINE_ACTION_MAX_ARGS; a++)
                f->held.arg[a] = (int16_t)get_u16(&r);
            f->asked = (uint16_t)get_u16(&r);
            f->answered = (uint16_t)get_u16(&r);
        }
    }
    if (r.is_bad || r.pos != len)
        goto bad;
    if (engine__pause_decode(st, &pause) != 0 ||
        (!v2_pause && engine__pause_v1_kept(st, &pause) != 0))
        goto bad;
    /* the panels' records join those the pause fields gave, in order */
    for (unsigned i = 0; i < n_nexus_effects; i++)
        if (engine__effect_add(st, &nexus_effects[i]) != 0)
            goto bad;
    for (unsigned i = 0; i < n_generic; i++)
        if (engine__frame_insert(st, generic_at[i], &generic[i]) != 0)
            goto bad;
    if (!is_view && check(st, 1) != 0)
        goto bad;
    return 0;
bad:
    memset(out, 0, sizeof *out);
    return -1;
}

int engine_state_decode(engine_state *out, const uint8_t *in, size_t len)
{
    return decode(out, in, len, 0);
}

int engine_view_decode(engine_state *out, const uint8_t *in, size_t len)
{
    return decode(out, in, len, 1);
}

/* ========================================================== invariants */

/* Counts a breach; prints it in debug builds unless checking quietly
 * (the decoder refusing outside bytes says nothing on stderr). */
#ifdef NDEBUG
#define BROKEN(...) (broken++)
#else
#define BROKEN(...) (is_quiet ? 0 : (fprintf(stderr, "engine_state_check: " __VA_ARGS__), \
                                     fputc('\n', stderr)), broken++)
#endif

/* Each physical card of a pile is listed exactly once, in the pile that
 * its place says (a pile without a list, discard NULL, is unordered: the
 * traitor discards); returns the number of breaches. */
static int check_piles(int is_quiet, const engine_card_state *cards, unsigned n_cards,
                       const uint8_t *deck, unsigned n_deck,
                       const uint8_t *discard, unsigned n_discard,
                       unsigned n_seats, const char *what)
{
    int broken = 0;
    (void)is_quiet;
    (void)what;
    uint8_t seen[256] = {0};
    for (unsigned i = 0; i < n_deck; i++) {
        if (deck[i] >= n_cards || cards[deck[i]].place != ENGINE_PLACE_DECK || seen[deck[i]]++)
            BROKEN("%s deck entry %u (%u) misplaced", what, i, deck[i]);
    }
    for (unsigned i = 0; i < n_discard; i++) {
        if (discard[i] >= n_cards || cards[discard[i]].place != ENGINE_PLACE_DISCARD ||
            seen[discard[i]]++)
            BROKEN("%s discard entry %u (%u) misplaced", what, i, discard[i]);
    }
    for (unsigned i = 0; i < n_cards; i++) {
        const engine_card_state *c = &cards[i];
        int in_pile = c->place == ENGINE_PLACE_DECK ||
                      (c->place == ENGINE_PLACE_DISCARD && discard != NULL);
        if (in_pile && !seen[i])
            BROKEN("%s %u is in a pile it is not listed in", what, i);
        int held = c->place == ENGINE_PLACE_HAND || c->place == ENGINE_PLACE_DEALT ||
                   c->place == ENGINE_PLACE_PLAYED;
        if (held != (c->holder != 0xFF) || (held && c->holder >= n_seats))
            BROKEN("%s %u has holder %u in place %u", what, i, c->holder, c->place);
        if ((c->known_by & ~ENGINE_KNOWN_PUBLIC) >> n_seats)
            BROKEN("%s %u known by seats that do not exist", what, i);
    }
    return broken;
}

static int check(const engine_state *st, int is_quiet)
{
    int broken = 0;
    (void)is_quiet;
    const engine_config *c = &st->config;
    unsigned n = c->n_seats;
    if (n < ENGINE_MIN_SEATS || n > ENGINE_MAX_SEATS)
        return BROKEN("n_seats %u out of range", n);
    uint16_t all = (uint16_t)((1u << n) - 1);

    /* (1) awaiting and answered */
    if (st->awaiting & ~all)
        BROKEN("awaiting names a seat that does not exist");
    if (st->answered & ~st->awaiting)
        BROKEN("a seat answered that was not awaited");
    /* (4) turn and phase */
    if (st->phase >= ENGINE_PHASE_COUNT)
        BROKEN("phase %u out of range", st->phase);
    if (c->turn_limit < 1 || c->turn_limit > ENGINE_MAX_TURN_LIMIT)
        BROKEN("turn limit %u out of range", c->turn_limit);
    if (st->phase == ENGINE_PHASE_SETUP ? st->turn != 0
                                       : (st->turn < 1 || st->turn > c->turn_limit))
        BROKEN("turn %u in phase %u", st->turn, st->phase);
    int under_construction = st->phase == ENGINE_PHASE_SETUP && st->step == SETUP_STEP_COUNT &&
                             c->is_constructed;
    if (st->phase == ENGINE_PHASE_SETUP && st->step >= SETUP_STEP_COUNT && !under_construction)
        BROKEN("setup step %u out of range", st->step);
    static const uint8_t step_count[ENGINE_PHASE_COUNT] = {
        [ENGINE_PHASE_SETUP] = SETUP_STEP_COUNT + 1, /* + under construction */
        [ENGINE_PHASE_STORM] = STORM_STEP_COUNT,
        [ENGINE_PHASE_SPICE_BLOW] = BLOW_STEP_COUNT,
        [ENGINE_PHASE_CHOAM_CHARITY] = CHARITY_STEP_COUNT,
        [ENGINE_PHASE_BIDDING] = BIDDING_STEP_COUNT,
        [ENGINE_PHASE_REVIVAL] = REVIVAL_STEP_COUNT,
        [ENGINE_PHASE_SHIPMENT_MOVEMENT] = SHIP_STEP_COUNT,
        [ENGINE_PHASE_BATTLE] = BATTLE_STEP_COUNT,
        [ENGINE_PHASE_SPICE_COLLECTION] = 1,
        [ENGINE_PHASE_MENTAT_PAUSE] = 1,
        [ENGINE_PHASE_GAME_OVER] = 1,
    };
    if (st->phase < ENGINE_PHASE_COUNT && st->step >= step_count[st->phase])
        BROKEN("step %u out of range in phase %u", st->step, st->phase);
    /* Every index the rules follow points at something that exists. */
#define SEAT_OR_NONE(x) ((x) == 0xFF || (x) < n)
    if (!SEAT_OR_NONE(st->battle_seat[0]) || !SEAT_OR_NONE(st->battle_seat[1]) ||
        !SEAT_OR_NONE(st->high_bidder) || !SEAT_OR_NONE(st->bid_turn) ||
        !SEAT_OR_NONE(st->bid_opener) ||
        !SEAT_OR_NONE(st->last_wheel[0]) || !SEAT_OR_NONE(st->last_wheel[1]))
        BROKEN("a seat index out of range");
#undef SEAT_OR_NONE
    if (st->high_bid_karama != 0xFF && st->high_bid_karama >= st->n_cards)
        BROKEN("karama card %u out of range", st->high_bid_karama);
    if (st->auction_index > st->n_auction || st->n_auction > ENGINE_MAX_SEATS)
        BROKEN("auction index %u of %u", st->auction_index, st->n_auction);
    if (st->aggressor_index > n || st->ship_index > n)
        BROKEN("turn order index out of range");
    if (st->battle_winner != 0xFF && st->battle_winner > 1)
        BROKEN("battle winner %u", st->battle_winner);
    if (st->weather_control != 0xFF && st->weather_control > 10)
        BROKEN("weather control %u", st->weather_control);
    if ((st->fremen_gifts & ENGINE_GIFT_WORM &&
         !(st->phase == ENGINE_PHASE_SPICE_BLOW && st->step == BLOW_STEP_WORM_ALLY)) ||
        (st->fremen_gifts & ENGINE_GIFT_REVIVAL && st->phase != ENGINE_PHASE_REVIVAL))
        BROKEN("fremen gifts %x in phase %u step %u", st->fremen_gifts, st->phase, st->step);
    for (unsigned s = 0; s < ENGINE_MAX_SEATS; s++)
        if (((st->karama_ask[s] | st->karama_ask_own[s]) & ~engine_karama_offered(st)) ||
            ((s >= n || st->config.rules_version < 3) &&
             (st->karama_ask[s] | st->karama_ask_own[s])))
            BROKEN("karama policy %x, %x of seat %u", st->karama_ask[s], st->karama_ask_own[s], s);
    if (st->karama_policy_set & ~all)
        BROKEN("karama policy set by %x", st->karama_policy_set);
    if (st->storm_pending > 2 * 20 ||
        (st->storm_pending && !(st->phase == ENGINE_PHASE_STORM && st->step == STORM_STEP_CARDS)))
        BROKEN("storm move %u pending in phase %u step %u", st->storm_pending, st->phase,
               st->step);
    /* (5) the windows; a pending Truthtrance question; the last answer */
    if (!engine__frames_check(st))
        BROKEN("%u windows, %u effects", st->n_frames, st->n_effects);
    const engine_frame *question = engine_window_find(st, ENGINE_WINDOW_TRUTHTRANCE);
    if (question &&
        (question->user != question->owner || question->rows != 0 ||
         question->held.kind != ENGINE_ACTION_NONE || question->held.seat != 0 ||
         question->held.arg[0] || question->held.arg[1] || question->held.arg[2] ||
         question->held.arg[3] || engine__lowest_seat(question->asked) == question->owner ||
         question->asked != ENGINE_SEAT_BIT(engine__lowest_seat(question->asked)) ||
         st->phase == ENGINE_PHASE_SETUP || st->phase == ENGINE_PHASE_GAME_OVER ||
         !engine__phase_is_built(st)))
        BROKEN("truthtrance question to %x by %u pending in phase %u", question->asked,
               question->owner, st->phase);
    const engine_effect *answer = engine_effect_find(st, ENGINE_EFFECT_ANSWER);
    if (answer && ((question && engine__rule(st, ENGINE__RULE_CARDS_WHEN_ASKED)) ||
                   answer->source != ENGINE_CARD_TRUTHTRANCE ||
                   answer->expiry != ENGINE_EXPIRY_REPLACED || (answer->owner != 0xFF && answer->owner >= n) ||
                   (answer->value != 0xFF && answer->value > 1) ||
                   (answer->owner == 0xFF && answer->value == 0xFF) ||
                   engine_effect_sources(st, ENGINE_EFFECT_ANSWER) !=
                       (uint32_t)1u << ENGINE_CARD_TRUTHTRANCE))
        BROKEN("truthtrance answer %u by %u", answer->value, answer->owner);
    /* (6) the Karama window */
    if (!engine__karama_check(st))
        BROKEN("karama window, cancelled %x", engine_effect_sources(st, ENGINE_EFFECT_CANCELLED));
    /* the Kwisatz Haderach (engine/kwisatz_haderach.c) */
    if (!engine__capture_check(st))
        BROKEN("captives %llx, leader drawn %u", (unsigned long long)st->captives,
               st->capture_leader);
    if (!engine__kh_check(st))
        BROKEN("kwisatz haderach: losses %u, state %u, territory %u", st->kh_losses,
               st->kh_state, st->kh_territory);
    /* one elite revival a turn: a past or the present turn, and only in
     * the rooms that carry it */
    for (unsigned s = 0; s < ENGINE_MAX_SEATS; s++)
        if (st->elite_revival_turn[s] > st->turn ||
            (st->elite_revival_turn[s] &&
             (s >= c->n_seats || !engine__advanced(st) ||
              !engine__rule(st, ENGINE__RULE_ADVANCED_ELITE_REVIVAL))))
            BROKEN("seat %u revived an elite force in turn %u (turn %u)", s,
                   st->elite_revival_turn[s], st->turn);
    /* the faction Karama powers used, seats at the table, in the rooms
     * that carry them */
    if ((st->karama_power_used && !engine__karama_powers_carried(st)) ||
        (st->karama_power_used >> c->n_seats))
        BROKEN("karama powers used %x", st->karama_power_used);
    if (!engine__karama_plan_check(st))
        BROKEN("karama plan seen %x", st->karama_plan_seen);
    /* the Nexus Cards (engine/nexus.c) */
    if (!engine__nexus_check(st))
        BROKEN("nexus cards: modules %x, deck %u, discard %u, drawing %x", c->modules,
               st->n_nexus_deck, st->n_nexus_discard, st->nexus_drawing);
    /* (7) a shipment paid with another seat's Karama */
    if (!engine__shipment_check(st))
        BROKEN("karama shipment held, named %x", st->karama_ship_named);
    if (st->prediction_faction != ENGINE_FACTION_NONE && st->prediction_faction >= ENGINE_FACTION_COUNT)
        BROKEN("prediction faction %u", st->prediction_faction);
    if (st->phase == ENGINE_PHASE_BATTLE && st->battle_territory < ENGINE_TERRITORY_COUNT &&
        (st->battle_seat[0] == 0xFF || st->battle_seat[1] == 0xFF ||
         st->battle_seat[0] == st->battle_seat[1]))
        BROKEN("a battle without two sides");
    for (unsigned i = 0; i < ENGINE_LEADER_COUNT; i++)
        if (st->leader_territory[i] != 0xFF && st->leader_territory[i] >= ENGINE_TERRITORY_COUNT)
            BROKEN("leader %u fought in territory %u", i, st->leader_territory[i]);
    for (unsigned s = 0; s < n; s++)
        if (st->seat[s].storm_dial != 0xFF && st->seat[s].storm_dial > 20)
            BROKEN("seat %u dialled %u", s, st->seat[s].storm_dial);
    for (unsigned i = 0; i < 2; i++) {
        const engine_battle_plan *b = &st->plan[i];
        int cards[3] = {b->cheap_hero, b->weapon, b->defense};
        for (unsigned k = 0; k < 3; k++)
            if (cards[k] >= st->n_cards)
                BROKEN("battle plan card %d out of range", cards[k]);
        if (!engine__advanced(st) && (b->half || b->elite || b->elite_half))
            BROKEN("battle plan %u has forces by strength outside the Advanced game", i);
    }

    /* (2) factions, forces and spice */
    uint32_t spice = 0;
    for (unsigned s = 0; s < n; s++) {
        const engine_seat_state *p = &st->seat[s];
        if (p->faction != c->faction[s] || p->faction >= ENGINE_FACTION_COUNT) {
            BROKEN("seat %u faction %u differs from the configuration", s, p->faction);
            continue;
        }
        for (unsigned t = 0; t < s; t++)
            if (st->seat[t].faction == p->faction)
                BROKEN("faction %u seated twice", p->faction);
        unsigned plain = p->reserves + p->tanks, special = p->special_reserves + p->special_tanks;
        for (unsigned l = 0; l < ENGINE_LOCATION_COUNT; l++) {
            plain += st->forces[l][s];
            special += st->special[l][s];
            if (p->faction == ENGINE_FACTION_BENE_GESSERIT)
                plain += st->advisors[l];
        }
        if (plain != engine__faction_forces(st, p->faction))
            BROKEN("seat %u has %u forces, not %u", s, plain,
                   engine__faction_forces(st, p->faction));
        if (special != engine__faction_special(st, p->faction))
            BROKEN("seat %u has %u elite forces, not %u", s, special,
                   engine__faction_special(st, p->faction));
        spice += p->spice;
    }
    for (unsigned l = 0; l < ENGINE_LOCATION_COUNT; l++) {
        spice += st->spice[l];
        if (st->advisors[l] && engine__seat_of(st, ENGINE_FACTION_BENE_GESSERIT) < 0)
            BROKEN("advisors at %u without the Bene Gesserit", l);
    }
    for (unsigned l = 0; l < ENGINE_LOCATION_COUNT; l++)
        for (unsigned s = n; s < ENGINE_MAX_SEATS; s++)
            if (st->forces[l][s] || st->special[l][s])
                BROKEN("forces of an empty seat %u", s);
    if (st->spice_burned > st->spice_minted || spice != st->spice_minted - st->spice_burned)
        BROKEN("spice: %u in play, minted %u, burned %u", spice, st->spice_minted,
               st->spice_burned);

    /* (2) cards, traitors, leaders, spice cards */
    if (st->n_cards > ENGINE_TREACHERY_MAX || st->n_spice_cards > ENGINE_SPICE_CARD_MAX)
        return BROKEN("card counts out of range");
    broken += check_piles(is_quiet, st->card, st->n_cards, st->deck, st->n_deck, st->discard,
                          st->n_discard, n, "treachery card");
    for (unsigned i = 0; i < st->n_cards; i++) {
        int listed = 0;
        for (unsigned a = st->auction_index; a < st->n_auction; a++)
            listed += st->auction[a] == i;
        if ((st->card[i].place == ENGINE_PLACE_AUCTION) != (listed == 1))
            BROKEN("treachery card %u: auction place and list disagree", i);
    }
    for (unsigned s = 0; s < n; s++) {
        unsigned a = st->ally[s];
        if (a != 0xFF && (a >= n || a == s || st->ally[a] != s))
            BROKEN("seat %u allied with %u one-sidedly", s, a);
    }
    for (unsigned i = 0; i < st->n_cards; i++)
        if (st->card_kind[i] >= ENGINE_CARD_KIND_COUNT)
            BROKEN("treachery card %u has kind %u", i, st->card_kind[i]);
    for (unsigned s = 0; s < n; s++) {
        unsigned hand = 0;
        for (unsigned i = 0; i < st->n_cards; i++)
            hand += st->card[i].place == ENGINE_PLACE_HAND && st->card[i].holder == s;
        if (hand > engine__factions[st->seat[s].faction].hand_limit + engine__karama_hand_owed(st, s))
            BROKEN("seat %u holds %u cards", s, hand);
    }
    broken += check_piles(is_quiet, st->traitor, ENGINE_LEADER_COUNT, st->traitor_deck,
                          st->n_traitor_deck, NULL, 0, n, "traitor");
    for (unsigned i = 0; i < ENGINE_LEADER_COUNT; i++) {
        int in_play = engine__seat_of(st, engine__leaders[i].faction) >= 0 &&
                      !engine__leaders[i].is_optional;
        if (!in_play && (st->leader[i].place != ENGINE_PLACE_OUT ||
                         st->traitor[i].place != ENGINE_PLACE_OUT))
            BROKEN("leader %u of an absent faction is in play", i);
        if (in_play && st->leader[i].place != ENGINE_PLACE_POOL &&
            st->leader[i].place != ENGINE_PLACE_TANKS)
            BROKEN("leader %u is in place %u", i, st->leader[i].place);
        if (in_play && st->traitor[i].place == ENGINE_PLACE_OUT)
            BROKEN("traitor card of leader %u is missing", i);
    }
    /* both piles of the double blow are discard piles: A then B */
    uint8_t discards[2 * ENGINE_SPICE_CARD_MAX];
    unsigned n_discards = st->n_spice_discard + st->n_spice_discard_b;
    if (st->n_spice_discard > ENGINE_SPICE_CARD_MAX || st->n_spice_discard_b > ENGINE_SPICE_CARD_MAX) {
        BROKEN("spice discard piles of %u and %u", st->n_spice_discard, st->n_spice_discard_b);
        n_discards = 0;
    } else {
        memcpy(discards, st->spice_discard, st->n_spice_discard);
        memcpy(discards + st->n_spice_discard, st->spice_discard_b, st->n_spice_discard_b);
    }
    broken += check_piles(is_quiet, st->spice_card, st->n_spice_cards, st->spice_deck, st->n_spice_deck,
                          discards, n_discards, n, "spice card");
    if (!engine__double_blow(st) && (st->n_spice_discard_b || st->blow_pile || st->pile_worms ||
                                     st->worms_struck))
        BROKEN("double blow fields outside the Advanced double blow");
    if (st->blow_pile > 1 || st->worms_struck >> ENGINE_TERRITORY_COUNT ||
        (st->phase != ENGINE_PHASE_SPICE_BLOW && (st->blow_pile || st->pile_worms || st->worms_struck)))
        BROKEN("double blow: pile %u, %u worms, struck %llx out of the phase", st->blow_pile,
               st->pile_worms, (unsigned long long)st->worms_struck);
    /* the Fremen asked for their storm losses only where that is a choice */
    unsigned loss_lo, loss_hi;
    if (st->phase == ENGINE_PHASE_STORM && st->step == STORM_STEP_LOSSES
            ? !engine__storm_loss_range(st, &loss_lo, &loss_hi)
            : st->storm_loss_at != 0)
        BROKEN("storm losses asked at location %u", st->storm_loss_at);
    if (st->prediction_turn > c->turn_limit)
        BROKEN("prediction turn %u past the limit", st->prediction_turn);
    if (!engine__karama_stops_check(st))
        BROKEN("karama stops %x in phase %u", st->karama_stopped, st->phase);

    /* (3) somebody can act while a built phase waits (the step's own
     * prompt, which a pending question only pauses) */
    if (broken == 0 && st->phase != ENGINE_PHASE_GAME_OVER && engine__phase_is_built(st) &&
        !under_construction) {
        if (engine__open_seats(st) == 0)
            BROKEN("phase %u waits on nobody", st->phase);
        else if (!engine__any_legal(st))
            BROKEN("no awaited seat has a legal action in phase %u", st->phase);
    }
    /* (8) what binds a battle plan is still playable by the seats it binds */
    if (broken == 0 && engine__plans_asked(st) &&
        engine_window_find(st, ENGINE_WINDOW_KARAMA) == NULL) {
        for (unsigned s = 0; s < n; s++)
            if ((st->awaiting & ~st->answered & ENGINE_SEAT_BIT(s)) &&
                !engine__battle_plan_exists(st, (uint8_t)s))
                BROKEN("seat %u must commit a battle plan and has none", s);
    }
    return broken;
}

int engine_state_check(const engine_state *st)
{
    return check(st, 0);
}
