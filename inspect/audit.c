/*
 * audit.c - the hidden-information audit: non-interference by
 * counterfactual replay (DESIGN.md "Hidden information").
 *
 * For a sampled version v and viewer s (a seat or the public) it builds a
 * second world that differs from the room only in a fact s cannot know
 * (two treachery card faces, where two traitor cards lie or which one a
 * seat keeps, the order of the unseen spice deck, the prediction, the
 * other side's battle plan, another dialer's storm dial), checks it with
 * engine_state_check, and replays the room's following actions in both
 * worlds with the same engine_rng(seed, version) while both accept them.
 * At every step what s receives must be identical in both: the canonical
 * encoding of its view, who is asked, its legal action families, its log
 * line of the event, the verdicts of probe actions (every family's
 * extremes, values out of range, every card and traitor named in an
 * argument), and their sizes. A pair stops when s legitimately learns the
 * changed fact (the changed components' known_by come to include s, or the
 * rules reveal it: plans once both are in, dials once the storm moves, the
 * prediction at the game's end); a difference before that is a leak.
 * At every step it also compares the bytes of every output path the
 * observer lists (what `mentat log`, `state`, `replay`, `diff`, `render`
 * and the bots' input give the viewer). Once per room, beside the pairs:
 * every event's known_by marks against the rules' table (audit_marks.c),
 * what each viewer can link across time (a face it saw must stay marked
 * until its number is re-dealt), and whether reshuffles deal faces afresh
 * (audit_deals.c). The card faces changed are only ever ones the viewer
 * has not seen since their numbers were dealt, and never one a prescience
 * answer has bound.
 *
 * Layer: inspect. It reads the ledger (genesis, events, the opening
 * state) and the audit key file, folds in memory, and writes nothing
 * anywhere. What the audit compares comes through an observer
 * (inspect_audit_genuine here, planted leaks in audit_leaks.c), never
 * through a global switch, so nothing here can change what a seat is
 * shown elsewhere.
 *
 * Invariants: (1) both worlds fold the same events with the same
 * randomness, so any difference a seat sees comes from the changed fact;
 * (2) the sampling is a pure function of the room and sample_seed, so an
 * audit repeats exactly; (3) a counterfactual world is only ever a state
 * the game could have reached: it passes engine_state_check, or is made by
 * engine_apply of a legal action.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sodium.h>

#include "inspect/internal.h"

#define AUDIT_KEY_FILE "audit.key"     /* docs/FORMAT.md: X25519 secret (32) then public (32) */
#define AUDIT_KEY_BYTES 64
#define PROBES_MAX 640
#define PROBE_FAMILIES_MAX 24
#define CHOICE_TRIES 64
#define NONE8 0xFF
#define OUTPUT_CAP (512u * 1024u) /* bytes of one output path compared (an SVG is the largest) */

/* ============================================================== names */

static const char *const fact_names[INSPECT_FACT_COUNT] = {
    [INSPECT_FACT_CARD_FACES] = "card_faces",
    [INSPECT_FACT_TRAITORS] = "traitors",
    [INSPECT_FACT_SPICE_DECK] = "spice_deck",
    [INSPECT_FACT_PREDICTION] = "prediction",
    [INSPECT_FACT_BATTLE_PLAN] = "battle_plan",
    [INSPECT_FACT_STORM_DIAL] = "storm_dial",
    [INSPECT_FACT_NEXUS_CARDS] = "nexus_cards",
};

static const char *const channel_names[INSPECT_CHANNEL_COUNT] = {
    [INSPECT_CHANNEL_VIEW] = "view",
    [INSPECT_CHANNEL_PROMPT] = "prompt",
    [INSPECT_CHANNEL_LEGAL] = "legal_actions",
    [INSPECT_CHANNEL_LOG] = "log",
    [INSPECT_CHANNEL_REJECTION] = "rejection",
    [INSPECT_CHANNEL_SIZE] = "size",
    [INSPECT_CHANNEL_MARKS] = "marks",
    [INSPECT_CHANNEL_HISTORY] = "history",
    [INSPECT_CHANNEL_OUTPUT] = "output",
};

const char *inspect_audit_fact_name(unsigned fact)
{
    return fact < INSPECT_FACT_COUNT ? fact_names[fact] : NULL;
}

const char *inspect_audit_channel_name(unsigned channel)
{
    return channel < INSPECT_CHANNEL_COUNT ? channel_names[channel] : NULL;
}

/* ================================================== the genuine observer */

static size_t genuine_encode(uint8_t *out, size_t cap, const engine_state *view,
                             const engine_state *st)
{
    (void)st;
    return engine_state_encode(out, cap, view);
}

/* The seat's log line: from its own views before and after, as
 * `mentat log --seat` tells it. */
static void genuine_log(inspect_log_line *out, const engine_state *before,
                        const engine_state *after, const engine_action *act, uint32_t version,
                        uint8_t viewer)
{
    engine_state vb, va;
    engine_view(&vb, before, viewer);
    engine_view(&va, after, viewer);
    inspect_log_describe(out, &vb, &va, act, version, viewer);
}

const inspect_audit_observer inspect_audit_genuine = {
    "genuine", engine_view, genuine_encode, engine_legal_actions, genuine_log, engine_apply,
    inspect__outputs, INSPECT__N_OUTPUTS,
};

void inspect_audit_options_init(inspect_audit_options *opt)
{
    memset(opt, 0, sizeof *opt);
    opt->seat = INSPECT_AUDIT_ALL_SEATS;
}

/* ============================================== fields of engine_state */

/* A field of engine_state (or of a struct inside it), for naming what
 * differed between two views: "card[12].known_by". */
typedef struct field_desc {
    const char *name;
    size_t offset;                 /* in the enclosing struct */
    size_t size;                   /* of one element */
    size_t count;                  /* elements; 1 for a scalar */
    size_t cols;                   /* > 0: a 2-D array printed [i / cols][i % cols] */
    int is_signed;                 /* 1 = a signed integer */
    const struct field_desc *sub;  /* the fields of a struct element, or NULL */
    size_t n_sub;
} field_desc;

#define MEMBER(T, f) (((T *)0)->f)
#define SCALAR(T, f) {#f, offsetof(T, f), sizeof MEMBER(T, f), 1, 0, 0, NULL, 0}
#define SIGNED(T, f) {#f, offsetof(T, f), sizeof MEMBER(T, f), 1, 0, 1, NULL, 0}
#define ARRAY(T, f)                                                                  \
    {#f, offsetof(T, f), sizeof MEMBER(T, f)[0],                                     \
     sizeof MEMBER(T, f) / sizeof MEMBER(T, f)[0], 0, 0, NULL, 0}
#define GRID(T, f)                                                                   \
    {#f, offsetof(T, f), sizeof MEMBER(T, f)[0][0],                                  \
     sizeof MEMBER(T, f) / sizeof MEMBER(T, f)[0][0],                                \
     sizeof MEMBER(T, f)[0] / sizeof MEMBER(T, f)[0][0], 0, NULL, 0}
#define STRUCTS(T, f, table)                                                         \
    {#f, offsetof(T, f), sizeof MEMBER(T, f)[0],                                     \
     sizeof MEMBER(T, f) / sizeof MEMBER(T, f)[0], 0, 0, (table),                    \
     sizeof(table) / sizeof((table)[0])}
#define STRUCT1(T, f, table)                                                         \
    {#f, offsetof(T, f), sizeof MEMBER(T, f), 1, 0, 0, (table), sizeof(table) / sizeof((table)[0])}

static const field_desc config_fields[] = {
    SCALAR(engine_config, n_seats),   ARRAY(engine_config, faction),
    SCALAR(engine_config, is_advanced), SCALAR(engine_config, turn_limit),
    SCALAR(engine_config, modules),   SCALAR(engine_config, is_constructed),
    SCALAR(engine_config, rules_version),
};

static const field_desc seat_fields[] = {
    SCALAR(engine_seat_state, faction),  SCALAR(engine_seat_state, position),
    SCALAR(engine_seat_state, spice),    SCALAR(engine_seat_state, reserves),
    SCALAR(engine_seat_state, special_reserves), SCALAR(engine_seat_state, tanks),
    SCALAR(engine_seat_state, special_tanks), SCALAR(engine_seat_state, storm_dial),
};

static const field_desc plan_fields[] = {
    SIGNED(engine_battle_plan, leader), SIGNED(engine_battle_plan, cheap_hero),
    SIGNED(engine_battle_plan, weapon), SIGNED(engine_battle_plan, defense),
    SCALAR(engine_battle_plan, dial),   SCALAR(engine_battle_plan, is_committed),
    SCALAR(engine_battle_plan, half),   SCALAR(engine_battle_plan, elite),
    SCALAR(engine_battle_plan, elite_half), SCALAR(engine_battle_plan, kwisatz_haderach),
};

static const field_desc card_fields[] = {
    SCALAR(engine_card_state, place), SCALAR(engine_card_state, holder),
    SCALAR(engine_card_state, known_by),
};

static const field_desc leader_fields[] = {
    SCALAR(engine_leader_state, place), SCALAR(engine_leader_state, deaths),
};

static const field_desc action_fields[] = {
    SCALAR(engine_action, kind), SCALAR(engine_action, seat), ARRAY(engine_action, arg),
};

static const field_desc frame_fields[] = {
    SCALAR(engine_frame, point), SCALAR(engine_frame, owner), SCALAR(engine_frame, user),
    SCALAR(engine_frame, is_resuming), SCALAR(engine_frame, rows),
    STRUCT1(engine_frame, held, action_fields), SCALAR(engine_frame, asked),
    SCALAR(engine_frame, answered), SCALAR(engine_frame, window),
};

static const field_desc effect_fields[] = {
    SCALAR(engine_effect, kind), SCALAR(engine_effect, source), SCALAR(engine_effect, owner),
    SCALAR(engine_effect, value), SCALAR(engine_effect, expiry), SIGNED(engine_effect, arg),
};

static const field_desc state_fields[] = {
    SCALAR(engine_state, viewer),
    STRUCT1(engine_state, config, config_fields),
    SCALAR(engine_state, phase),
    SCALAR(engine_state, step),
    SCALAR(engine_state, turn),
    SCALAR(engine_state, awaiting),
    SCALAR(engine_state, answered),
    SCALAR(engine_state, storm_sector),
    SCALAR(engine_state, last_storm_move),
    SCALAR(engine_state, next_storm),
    ARRAY(engine_state, last_wheel),
    SCALAR(engine_state, is_shield_wall_down),
    ARRAY(engine_state, karama_ask),
    ARRAY(engine_state, karama_ask_own),
    SCALAR(engine_state, karama_policy_set),
    SCALAR(engine_state, fremen_gifts),
    SCALAR(engine_state, storm_pending),
    GRID(engine_state, forces),
    GRID(engine_state, special),
    ARRAY(engine_state, advisors),
    ARRAY(engine_state, spice),
    STRUCTS(engine_state, seat, seat_fields),
    ARRAY(engine_state, ally),
    SCALAR(engine_state, worm_territory),
    SCALAR(engine_state, is_nexus_this_phase),
    ARRAY(engine_state, nexus_proposals),
    SCALAR(engine_state, nexus_broken),
    ARRAY(engine_state, nexus_refused),
    SCALAR(engine_state, n_auction),
    ARRAY(engine_state, auction),
    SCALAR(engine_state, auction_index),
    SCALAR(engine_state, bid_opener),
    SCALAR(engine_state, bid_turn),
    SCALAR(engine_state, high_bidder),
    SCALAR(engine_state, high_bid_karama),
    SCALAR(engine_state, high_bid),
    SCALAR(engine_state, bid_passes),
    ARRAY(engine_state, ally_support),
    SCALAR(engine_state, emperor_ally_revivals),
    ARRAY(engine_state, elite_revival_turn),
    SCALAR(engine_state, ship_index),
    SCALAR(engine_state, has_moved),
    SCALAR(engine_state, battle_territory),
    ARRAY(engine_state, battle_seat),
    SCALAR(engine_state, aggressor_index),
    STRUCTS(engine_state, plan, plan_fields),
    SCALAR(engine_state, traitor_called),
    SCALAR(engine_state, battle_winner),
    ARRAY(engine_state, leader_territory),
    SCALAR(engine_state, kh_losses),
    SCALAR(engine_state, kh_state),
    SCALAR(engine_state, kh_territory),
    SCALAR(engine_state, karama_power_used),
    SCALAR(engine_state, karama_plan_seen),
    STRUCTS(engine_state, frame, frame_fields),
    SCALAR(engine_state, n_frames),
    SCALAR(engine_state, storm_loss_at),
    STRUCTS(engine_state, effect, effect_fields),
    SCALAR(engine_state, n_effects),
    SCALAR(engine_state, guild_turn),
    SCALAR(engine_state, karama_ship_named),
    SCALAR(engine_state, bg_accompany),
    SCALAR(engine_state, weather_control),
    SCALAR(engine_state, winners),
    SCALAR(engine_state, victory_kind),
    SCALAR(engine_state, prediction_faction),
    SCALAR(engine_state, prediction_turn),
    SCALAR(engine_state, n_cards),
    ARRAY(engine_state, card_kind),
    STRUCTS(engine_state, card, card_fields),
    SCALAR(engine_state, n_deck),
    ARRAY(engine_state, deck),
    SCALAR(engine_state, n_discard),
    ARRAY(engine_state, discard),
    STRUCTS(engine_state, traitor, card_fields),
    SCALAR(engine_state, n_traitor_deck),
    ARRAY(engine_state, traitor_deck),
    STRUCTS(engine_state, leader, leader_fields),
    SCALAR(engine_state, n_spice_cards),
    STRUCTS(engine_state, spice_card, card_fields),
    SCALAR(engine_state, n_spice_deck),
    ARRAY(engine_state, spice_deck),
    SCALAR(engine_state, n_spice_discard),
    ARRAY(engine_state, spice_discard),
    SCALAR(engine_state, n_spice_discard_b),
    ARRAY(engine_state, spice_discard_b),
    SCALAR(engine_state, blow_pile),
    SCALAR(engine_state, pile_worms),
    SCALAR(engine_state, capture_leader),
    SCALAR(engine_state, worms_struck),
    SCALAR(engine_state, captives),
    SCALAR(engine_state, spice_minted),
    SCALAR(engine_state, spice_burned),
    SCALAR(engine_state, karama_stopped),
    ARRAY(engine_state, nexus_face),
    STRUCTS(engine_state, nexus_card, card_fields),
    SCALAR(engine_state, n_nexus_deck),
    ARRAY(engine_state, nexus_deck),
    SCALAR(engine_state, n_nexus_discard),
    ARRAY(engine_state, nexus_discard),
    SCALAR(engine_state, nexus_drawing),
    ARRAY(engine_state, nexus_policy),
    ARRAY(engine_state, nexus_quiet),
    ARRAY(engine_state, nexus_quiet_turn),
    SCALAR(engine_state, nexus_played),
};

static int64_t leaf_value(const uint8_t *p, size_t size, int is_signed)
{
    switch (size) {
    case 1: {
        uint8_t v;
        memcpy(&v, p, 1);
        return is_signed ? (int64_t)(int8_t)v : (int64_t)v;
    }
    case 2: {
        uint16_t v;
        memcpy(&v, p, 2);
        return is_signed ? (int64_t)(int16_t)v : (int64_t)v;
    }
    case 4: {
        uint32_t v;
        memcpy(&v, p, 4);
        return is_signed ? (int64_t)(int32_t)v : (int64_t)v;
    }
    default:
        return 0;
    }
}

/* Finds the first leaf of `table` where a and b differ; writes its path
 * (after `prefix`) and the two values. 1 if one differs. */
static int field_diff(char *path, size_t path_cap, int64_t *va, int64_t *vb,
                      const field_desc *table, size_t n, const uint8_t *a, const uint8_t *b,
                      const char *prefix)
{
    for (size_t i = 0; i < n; i++) {
        const field_desc *f = &table[i];
        for (size_t e = 0; e < f->count; e++) {
            const uint8_t *pa = a + f->offset + e * f->size, *pb = b + f->offset + e * f->size;
            char here[INSPECT_AUDIT_FIELD_CHARS];
            if (f->count == 1)
                snprintf(here, sizeof here, "%s%s", prefix, f->name);
            else if (f->cols > 0)
                snprintf(here, sizeof here, "%s%s[%zu][%zu]", prefix, f->name, e / f->cols,
                         e % f->cols);
            else
                snprintf(here, sizeof here, "%s%s[%zu]", prefix, f->name, e);
            if (f->sub != NULL) {
                char dot[INSPECT_AUDIT_FIELD_CHARS + 1];
                snprintf(dot, sizeof dot, "%s.", here);
                if (field_diff(path, path_cap, va, vb, f->sub, f->n_sub, pa, pb, dot))
                    return 1;
                continue;
            }
            if (memcmp(pa, pb, f->size) != 0) {
                snprintf(path, path_cap, "%s", here);
                *va = leaf_value(pa, f->size, f->is_signed);
                *vb = leaf_value(pb, f->size, f->is_signed);
                return 1;
            }
        }
    }
    return 0;
}

/* Marks in `covered` (sizeof(engine_state) bytes) every byte the field
 * table names; for the test that the table misses no field. */
static void field_cover(uint8_t *covered, const field_desc *table, size_t n, size_t base)
{
    for (size_t i = 0; i < n; i++) {
        const field_desc *f = &table[i];
        for (size_t e = 0; e < f->count; e++) {
            size_t at = base + f->offset + e * f->size;
            if (f->sub != NULL)
                field_cover(covered, f->sub, f->n_sub, at);
            else
                memset(covered + at, 1, f->size);
        }
    }
}

size_t inspect__audit_uncovered_bytes(void)
{
    static const size_t n = sizeof state_fields / sizeof state_fields[0];
    uint8_t covered[sizeof(engine_state)];
    memset(covered, 0, sizeof covered);
    field_cover(covered, state_fields, n, 0);
    size_t missing = 0;
    for (size_t i = 0; i < sizeof covered; i++)
        missing += covered[i] == 0;
    return missing;
}

/* ========================================================= the game */

/* A room held in memory for the audit: every state, so a pair can start
 * anywhere without a fold. */
typedef struct audit_game {
    char room[SCHEMA_ROOM_CHARS + 1];
    uint8_t seed[ENGINE_SEED_BYTES];
    uint32_t n_events;
    engine_action *action;         /* owned: action[v - 1] is event v */
    engine_state *state;           /* owned: state[v] after event v, state[0] the opening */
} audit_game;

static void game_free(audit_game *g)
{
    free(g->action);
    free(g->state);
    g->action = NULL;
    g->state = NULL;
}

static int game_alloc(audit_game *g, uint32_t n_events)
{
    g->n_events = n_events;
    g->action = malloc(((size_t)n_events + 1) * sizeof *g->action);
    g->state = malloc(((size_t)n_events + 1) * sizeof *g->state);
    return g->action != NULL && g->state != NULL ? 0 : INSPECT_ERROR;
}

static int fail(inspect_audit_report *out, int rc, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static int fail(inspect_audit_report *out, int rc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out->errmsg, sizeof out->errmsg, fmt, ap);
    va_end(ap);
    return rc;
}

/* The room's seed, unsealed from its genesis with the audit key in
 * keys_dir (the same key ledger_state_at uses) and checked against the
 * genesis commitment. */
static int room_seed(inspect_audit_report *out, uint8_t seed[ENGINE_SEED_BYTES],
                     const codec_genesis *g, const char *keys_dir)
{
    char path[4096];
    if ((size_t)snprintf(path, sizeof path, "%s/%s", keys_dir, AUDIT_KEY_FILE) >= sizeof path)
        return fail(out, LEDGER_EKEY, "key path too long: %s", keys_dir);
    uint8_t key[AUDIT_KEY_BYTES + 1];
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return fail(out, LEDGER_EKEY, "cannot read the audit key %s (the audit needs the "
                    "room's seed)", path);
    ssize_t n = read(fd, key, sizeof key);
    close(fd);
    int rc = 0;
    uint8_t pk[SCHEMA_KEY_BYTES], h[crypto_generichash_BYTES];
    if (n != AUDIT_KEY_BYTES || crypto_scalarmult_base(pk, key) != 0 ||
        sodium_memcmp(pk, key + 32, sizeof pk) != 0) {
        rc = fail(out, LEDGER_EKEY, "%s is not an X25519 key pair", path);
        goto out;
    }
    crypto_generichash(h, sizeof h, pk, sizeof pk, NULL, 0);
    uint32_t id = (uint32_t)h[0] << 24 | (uint32_t)h[1] << 16 | (uint32_t)h[2] << 8 | h[3];
    if (id != g->audit_key_id) {
        rc = fail(out, LEDGER_EKEY, "the room is sealed to audit key %08x; %s is %08x",
                  g->audit_key_id, path, id);
        goto out;
    }
    if (crypto_box_seal_open(seed, g->sealed_seed, SCHEMA_SEALED_SEED_BYTES, pk, key) != 0) {
        rc = fail(out, LEDGER_ECORRUPT, "the sealed seed does not open");
        goto out;
    }
    crypto_generichash(h, sizeof h, seed, ENGINE_SEED_BYTES, NULL, 0);
    if (sodium_memcmp(h, g->seed_commitment, sizeof h) != 0)
        rc = fail(out, LEDGER_EBADSIG, "the seed does not match its commitment");
out:
    sodium_memzero(key, sizeof key);
    return rc;
}

typedef struct collect_ctx {
    audit_game *g;
    uint32_t n;                    /* events collected */
    uint8_t (*digest)[ENGINE_DIGEST_BYTES]; /* owned by the caller */
} collect_ctx;

static int collect(void *vctx, const codec_event *ev)
{
    collect_ctx *c = vctx;
    if (ev->version != c->n + 1 || c->n >= c->g->n_events)
        return LEDGER_ECORRUPT;
    c->g->action[c->n] = ev->action;
    c->g->action[c->n].seat = ev->seat;
    memcpy(c->digest[c->n], ev->state_digest, ENGINE_DIGEST_BYTES);
    c->n++;
    return 0;
}

/* Folds events 1..n_events from state[0]; each must be accepted and, when
 * digests are given, reproduce its stored digest. */
static int game_fold(inspect_audit_report *out, audit_game *g,
                     const uint8_t (*digest)[ENGINE_DIGEST_BYTES])
{
    for (uint32_t v = 1; v <= g->n_events; v++) {
        engine_rng rng;
        engine_rng_init(&rng, g->seed, v);
        g->state[v] = g->state[v - 1];
        engine_verdict_detail why = {-1, 0};
        engine_verdict r = engine_apply(&why, &g->state[v], &g->action[v - 1], &rng);
        if (r != ENGINE_ACCEPTED)
            return fail(out, digest != NULL ? LEDGER_EBADSIG : INSPECT_EINPUT,
                        "event %u is refused on replay (%s)", v, engine_verdict_name(r));
        if (digest != NULL) {
            uint8_t d[ENGINE_DIGEST_BYTES];
            engine_state_digest(d, &g->state[v]);
            if (memcmp(d, digest[v - 1], sizeof d) != 0)
                return fail(out, LEDGER_EBADSIG, "the fold of event %u does not match its stored "
                            "digest (run mentat verify)", v);
        }
    }
    return 0;
}

static int game_load(inspect_audit_report *out, audit_game *g, ledger *db, const char *room,
                     const char *keys_dir)
{
    codec_genesis gen;
    int rc = ledger_genesis_get(db, &gen, room);
    if (rc == 0) /* a resealed room opens with the key it was resealed to */
        rc = ledger_room_seal(db, &gen.audit_key_id, gen.sealed_seed, room);
    if (rc != 0)
        return fail(out, rc, "%s", ledger_errmsg(db));
    snprintf(g->room, sizeof g->room, "%s", gen.room);
    /* A revealed room is audited from its archive alone: the revealed seed
     * (checked against the commitment by the ledger) needs no audit key. */
    out->is_revealed_seed = ledger_room_revealed_seed(db, g->seed, room) == 0;
    if (!out->is_revealed_seed) {
        rc = room_seed(out, g->seed, &gen, keys_dir);
        if (rc != 0)
            return rc;
    }
    uint32_t head;
    uint8_t hash[SCHEMA_HASH_BYTES];
    rc = ledger_head(db, room, &head, hash);
    if (rc != 0)
        return fail(out, rc, "%s", ledger_errmsg(db));
    if (game_alloc(g, head) != 0)
        return fail(out, INSPECT_ERROR, "out of memory for %u states", head);
    rc = ledger_state_at(db, &g->state[0], room, 0);
    if (rc != 0)
        return fail(out, rc, "%s", ledger_errmsg(db));
    collect_ctx c = {g, 0, NULL};
    c.digest = malloc(((size_t)head + 1) * sizeof *c.digest);
    if (c.digest == NULL)
        return fail(out, INSPECT_ERROR, "out of memory");
    if (head > 0)
        rc = ledger_event_foreach(db, room, 1, head, collect, &c);
    if (rc != 0)
        rc = fail(out, rc, "%s", ledger_errmsg(db));
    else if (c.n != head)
        rc = fail(out, LEDGER_ECORRUPT, "%u events read, the head is %u", c.n, head);
    else
        rc = game_fold(out, g, (const uint8_t(*)[ENGINE_DIGEST_BYTES])c.digest);
    free(c.digest);
    return rc;
}

/* ========================================================= knowledge */

static uint64_t prng_next(uint64_t *s)
{
    uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static uint32_t prng_below(uint64_t *s, uint32_t n)
{
    return n <= 1 ? 0 : (uint32_t)(prng_next(s) % n);
}

/* Whether `viewer` knows a fact known to the seats of known_by (a fact
 * shown face up is public). */
static int knows(const engine_state *st, uint8_t viewer, uint16_t known_by)
{
    (void)st;
    if (known_by & ENGINE_KNOWN_PUBLIC)
        return 1;
    return viewer < st->config.n_seats && ((unsigned)known_by >> viewer & 1u) != 0;
}

static int seat_of(const engine_state *st, unsigned faction)
{
    for (unsigned s = 0; s < st->config.n_seats; s++)
        if (st->seat[s].faction == faction)
            return (int)s;
    return -1;
}

static const char *seat_name(const engine_state *st, uint8_t seat)
{
    if (seat == ENGINE_VIEW_PUBLIC)
        return "the public";
    if (seat >= st->config.n_seats)
        return "?";
    const char *n = engine_faction_name(st->seat[seat].faction);
    return n != NULL ? n : "?";
}

static const char *place_name(unsigned place)
{
    switch ((engine_place)place) {
    case ENGINE_PLACE_OUT:
        return "out of the game";
    case ENGINE_PLACE_DECK:
        return "in the deck";
    case ENGINE_PLACE_DISCARD:
        return "discarded";
    case ENGINE_PLACE_HAND:
        return "held";
    case ENGINE_PLACE_DEALT:
        return "dealt";
    case ENGINE_PLACE_POOL:
        return "in the pool";
    case ENGINE_PLACE_TANKS:
        return "in the Tanks";
    case ENGINE_PLACE_SET_ASIDE:
        return "set aside";
    case ENGINE_PLACE_AUCTION:
        return "up for auction";
    case ENGINE_PLACE_REMOVED:
        return "removed";
    case ENGINE_PLACE_PLAYED:
        return "in a battle plan";
    case ENGINE_PLACE_HIDDEN:
        return "hidden";
    }
    return "?";
}

static void where_text(char *out, size_t cap, const engine_state *st, const engine_card_state *c)
{
    if (c->place == ENGINE_PLACE_HAND || c->place == ENGINE_PLACE_DEALT)
        snprintf(out, cap, "%s %s", place_name(c->place), seat_name(st, c->holder));
    else
        snprintf(out, cap, "%s", place_name(c->place));
}

static void action_text(char *out, size_t cap, const engine_state *st, const engine_action *a)
{
    const engine_action_spec *spec = engine_action_spec_of(a->kind);
    inspect__text t;
    inspect__text_init(&t, out, cap);
    inspect__text_add(&t, "%s %s", seat_name(st, a->seat), spec != NULL ? spec->name : "?");
    for (unsigned i = 0; spec != NULL && i < spec->n_args; i++)
        inspect__text_add(&t, " %s=%d", spec->arg_name[i], a->arg[i]);
}

/* ================================================== counterfactual pairs */

/* A pair: the room's world A at `version` and a world B differing in one
 * hidden fact, and how to tell when the viewer has learned it. */
typedef struct pair {
    uint8_t fact;                  /* inspect_audit_fact */
    uint8_t viewer;
    uint32_t version;
    int has_substitute;            /* 1 = B plays `substitute` instead of event version + 1 */
    engine_action substitute;
    uint8_t n_cards;               /* treachery cards changed */
    uint8_t cards[2];
    uint8_t n_traitors;            /* traitor cards changed (by leader) */
    uint8_t traitors[2];
    uint8_t n_spice;               /* spice cards moved */
    uint8_t spice[ENGINE_SPICE_CARD_MAX];
    uint8_t dialer;                /* STORM_DIAL: the seat whose dial changed */
    uint8_t is_storm_card;         /* STORM_DIAL: 1 = the Fremen's next storm card changed */
    uint8_t turn;                  /* the turn at `version` */
    uint8_t battle_territory;      /* BATTLE_PLAN: the battle */
    uint8_t battle_seat[2];
    uint8_t n_nexus;               /* NEXUS_CARDS: Nexus card numbers whose faces were swapped */
    uint8_t nexus[2];
    uint16_t nexus_known;          /* NEXUS_CARDS: the Nexus cards the viewer knew then */
    char hidden[INSPECT_TEXT_CHARS];
} pair;

/* Draws an action of family l: each argument uniform in its range, the
 * last one forced when the family requires a sum. 0, or -1. */
static int draw_from(engine_action *out, const engine_legal *l, uint64_t *prng)
{
    const engine_action_spec *spec = engine_action_spec_of(l->kind);
    if (spec == NULL)
        return -1;
    memset(out, 0, sizeof *out);
    out->kind = l->kind;
    out->seat = l->seat;
    unsigned n = spec->n_args;
    for (int tries = 0; tries < CHOICE_TRIES; tries++) {
        int total = 0;
        for (unsigned i = 0; i < n; i++) {
            uint32_t span = (uint32_t)(l->hi[i] - l->lo[i] + 1);
            out->arg[i] = (int16_t)(l->lo[i] + (int)prng_below(prng, span));
            total += out->arg[i];
        }
        if (l->sum < 0) {
            engine_legal_clip(l, out->arg); /* the caps, if any */
            return 0;
        }
        if (n == 0)
            return l->sum == 0 ? 0 : -1;
        int need = l->sum - (total - out->arg[n - 1]);
        if (need >= l->lo[n - 1] && need <= l->hi[n - 1]) {
            out->arg[n - 1] = (int16_t)need;
            return 0;
        }
    }
    return -1;
}

/* Another legal action of the same kind and seat as `orig` in st, or -1. */
static int other_action(engine_action *out, const engine_state *st, const engine_action *orig,
                        engine_legal *scratch, uint64_t *prng)
{
    size_t n = engine_legal_actions(scratch, ENGINE_LEGAL_MAX, st, orig->seat);
    if (n > ENGINE_LEGAL_MAX)
        n = ENGINE_LEGAL_MAX;
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (scratch[i].kind == orig->kind)
            scratch[m++] = scratch[i];
    if (m == 0)
        return -1;
    for (int tries = 0; tries < CHOICE_TRIES; tries++) {
        const engine_legal *l = &scratch[prng_below(prng, (uint32_t)m)];
        if (draw_from(out, l, prng) == 0 && memcmp(out->arg, orig->arg, sizeof out->arg) != 0)
            return 0;
    }
    return -1;
}

static int apply_ok(engine_state *st, const engine_action *act, const uint8_t *seed,
                    uint32_t version)
{
    engine_rng rng;
    engine_rng_init(&rng, seed, version);
    return engine_apply(NULL, st, act, &rng) == ENGINE_ACCEPTED;
}

/* ---- treachery card faces */

/* Whether card i's face is bound by what the game has already settled:
 * a prescience answer naming it as the weapon or defense its side must
 * play (the answer was accepted because the face fits), for as long as
 * the battle lasts. Another face there is a world the game cannot reach
 * (engine_state_check refuses it too: engine/phase.h invariant (8)). */
static int is_bound_card(const engine_state *a, unsigned i)
{
    return a->phase == ENGINE_PHASE_BATTLE && engine_battle_prescience_answer(a) == (int)i &&
           (engine_battle_prescience(a) == ENGINE_PRESCIENCE_WEAPON ||
            engine_battle_prescience(a) == ENGINE_PRESCIENCE_DEFENSE);
}

static int seen_since_dealt(const audit_game *g, uint32_t v, uint8_t viewer, unsigned card);

/* Two faces swapped among the cards the viewer has not seen since their
 * numbers were dealt (history-consistent: every earlier view of the
 * viewer is the same in both worlds). */
static int make_card_faces(pair *p, engine_state *b, const audit_game *g, uint64_t *prng)
{
    const engine_state *a = &g->state[p->version];
    uint8_t cand[ENGINE_TREACHERY_MAX], soon[ENGINE_TREACHERY_MAX];
    unsigned n = 0, n_soon = 0;
    for (unsigned i = 0; i < a->n_cards; i++) {
        if (knows(a, p->viewer, a->card[i].known_by) || a->card[i].place == ENGINE_PLACE_PLAYED ||
            i == a->high_bid_karama || is_bound_card(a, i) ||
            seen_since_dealt(g, p->version, p->viewer, i))
            continue;
        cand[n++] = (uint8_t)i;
        /* Cards about to move (up for auction, the top of the deck) are
         * where a draw would leak: one pair in three starts with one. */
        if (a->card[i].place == ENGINE_PLACE_AUCTION ||
            (a->card[i].place == ENGINE_PLACE_DECK && a->n_deck > 0 &&
             (a->deck[a->n_deck - 1] == i || (a->n_deck > 1 && a->deck[a->n_deck - 2] == i))))
            soon[n_soon++] = (uint8_t)i;
    }
    if (n < 2)
        return 0;
    for (int tries = 0; tries < CHOICE_TRIES; tries++) {
        unsigned x = n_soon > 0 && prng_below(prng, 3) == 0 ? soon[prng_below(prng, n_soon)]
                                                            : cand[prng_below(prng, n)];
        unsigned y = cand[prng_below(prng, n)];
        if (x == y || a->card_kind[x] == a->card_kind[y])
            continue;
        *b = *a;
        b->card_kind[x] = a->card_kind[y];
        b->card_kind[y] = a->card_kind[x];
        if (engine_state_check(b) != 0)
            continue;
        p->n_cards = 2;
        p->cards[0] = (uint8_t)x;
        p->cards[1] = (uint8_t)y;
        char wx[64], wy[64];
        where_text(wx, sizeof wx, a, &a->card[x]);
        where_text(wy, sizeof wy, a, &a->card[y]);
        snprintf(p->hidden, sizeof p->hidden,
                 "faces of treachery cards %u (%s, %s) and %u (%s, %s) swapped", x,
                 engine_card_kind_slug(a->card_kind[x]), wx, y,
                 engine_card_kind_slug(a->card_kind[y]), wy);
        return 1;
    }
    return 0;
}

/* ---- traitor cards */

static int make_traitors(pair *p, engine_state *b, const engine_state *a, const audit_game *g,
                         engine_legal *scratch, uint64_t *prng)
{
    /* Which traitor another seat keeps: its pick, changed. */
    if (p->version < g->n_events) {
        const engine_action *next = &g->action[p->version];
        if (next->kind == ENGINE_ACTION_TRAITOR_PICK && next->seat != p->viewer &&
            prng_below(prng, 2) == 0 && other_action(&p->substitute, a, next, scratch, prng) == 0) {
            *b = *a;
            p->has_substitute = 1;
            p->n_traitors = 2;
            p->traitors[0] = (uint8_t)next->arg[0];
            p->traitors[1] = (uint8_t)p->substitute.arg[0];
            snprintf(p->hidden, sizeof p->hidden, "%s keeps traitor %s instead of %s",
                     seat_name(a, next->seat), engine_leader_slug((unsigned)p->traitors[1]),
                     engine_leader_slug((unsigned)p->traitors[0]));
            return 1;
        }
    }
    uint8_t cand[ENGINE_LEADER_COUNT];
    unsigned n = 0;
    for (unsigned l = 0; l < ENGINE_LEADER_COUNT; l++)
        if (a->traitor[l].place != ENGINE_PLACE_OUT && !knows(a, p->viewer, a->traitor[l].known_by))
            cand[n++] = (uint8_t)l;
    if (n < 2)
        return 0;
    for (int tries = 0; tries < CHOICE_TRIES; tries++) {
        unsigned x = cand[prng_below(prng, n)], y = cand[prng_below(prng, n)];
        if (x == y || (a->traitor[x].place == a->traitor[y].place &&
                       a->traitor[x].holder == a->traitor[y].holder &&
                       a->traitor[x].place != ENGINE_PLACE_DECK))
            continue;
        *b = *a;
        b->traitor[x] = a->traitor[y];
        b->traitor[y] = a->traitor[x];
        for (unsigned i = 0; i < b->n_traitor_deck; i++) {
            if (b->traitor_deck[i] == x)
                b->traitor_deck[i] = (uint8_t)y;
            else if (b->traitor_deck[i] == y)
                b->traitor_deck[i] = (uint8_t)x;
        }
        if (engine_state_check(b) != 0)
            continue;
        p->n_traitors = 2;
        p->traitors[0] = (uint8_t)x;
        p->traitors[1] = (uint8_t)y;
        char wx[64], wy[64];
        where_text(wx, sizeof wx, a, &a->traitor[x]);
        where_text(wy, sizeof wy, a, &a->traitor[y]);
        snprintf(p->hidden, sizeof p->hidden, "traitor cards %s (%s) and %s (%s) swapped",
                 engine_leader_slug(x), wx, engine_leader_slug(y), wy);
        return 1;
    }
    return 0;
}

/* ---- the spice deck */

static int make_spice_deck(pair *p, engine_state *b, const engine_state *a, uint64_t *prng)
{
    uint8_t pos[ENGINE_SPICE_CARD_MAX];
    unsigned n = 0;
    for (unsigned i = 0; i < a->n_spice_deck; i++)
        if (!knows(a, p->viewer, a->spice_card[a->spice_deck[i]].known_by))
            pos[n++] = (uint8_t)i;
    if (n < 2)
        return 0;
    for (int tries = 0; tries < CHOICE_TRIES; tries++) {
        *b = *a;
        p->n_spice = 0;
        if (prng_below(prng, 2) == 0) {
            /* Two unseen cards swapped. */
            unsigned x = pos[prng_below(prng, n)], y = pos[prng_below(prng, n)];
            if (x == y)
                continue;
            b->spice_deck[x] = a->spice_deck[y];
            b->spice_deck[y] = a->spice_deck[x];
        } else {
            /* The whole unseen part reordered. */
            uint8_t cards[ENGINE_SPICE_CARD_MAX];
            for (unsigned i = 0; i < n; i++)
                cards[i] = a->spice_deck[pos[i]];
            for (unsigned i = n; i > 1; i--) {
                unsigned j = prng_below(prng, i);
                uint8_t t = cards[i - 1];
                cards[i - 1] = cards[j];
                cards[j] = t;
            }
            for (unsigned i = 0; i < n; i++)
                b->spice_deck[pos[i]] = cards[i];
        }
        for (unsigned i = 0; i < a->n_spice_deck; i++)
            if (b->spice_deck[i] != a->spice_deck[i])
                p->spice[p->n_spice++] = a->spice_deck[i];
        if (p->n_spice == 0 || engine_state_check(b) != 0)
            continue;
        snprintf(p->hidden, sizeof p->hidden, "the unseen part of the spice deck reordered (%u of "
                 "its %u cards moved)", p->n_spice, a->n_spice_deck);
        return 1;
    }
    return 0;
}

/* ---- the prediction */

static int make_prediction(pair *p, engine_state *b, const engine_state *a, const audit_game *g,
                           engine_legal *scratch, uint64_t *prng)
{
    int bg = seat_of(a, ENGINE_FACTION_BENE_GESSERIT);
    if (bg < 0 || p->viewer == bg || a->phase == ENGINE_PHASE_GAME_OVER)
        return 0;
    if (a->prediction_turn == 0) {
        /* Not made yet: the prediction BG is about to make, changed. */
        if (p->version >= g->n_events)
            return 0;
        const engine_action *next = &g->action[p->version];
        if (next->kind != ENGINE_ACTION_PREDICT ||
            other_action(&p->substitute, a, next, scratch, prng) != 0)
            return 0;
        *b = *a;
        p->has_substitute = 1;
        snprintf(p->hidden, sizeof p->hidden, "the prediction made is %s on turn %d, not %s on "
                 "turn %d", engine_faction_name((unsigned)p->substitute.arg[0]),
                 p->substitute.arg[1], engine_faction_name((unsigned)next->arg[0]), next->arg[1]);
        return 1;
    }
    for (int tries = 0; tries < CHOICE_TRIES; tries++) {
        unsigned s = prng_below(prng, a->config.n_seats);
        unsigned f = a->seat[s].faction;
        unsigned turn = 1 + prng_below(prng, a->config.turn_limit);
        if (f == ENGINE_FACTION_BENE_GESSERIT ||
            (f == a->prediction_faction && turn == a->prediction_turn))
            continue;
        *b = *a;
        b->prediction_faction = (uint8_t)f;
        b->prediction_turn = (uint8_t)turn;
        if (engine_state_check(b) != 0)
            continue;
        snprintf(p->hidden, sizeof p->hidden, "the prediction is %s on turn %u, not %s on turn %u",
                 engine_faction_name(f), turn, engine_faction_name(a->prediction_faction),
                 a->prediction_turn);
        return 1;
    }
    return 0;
}

/* ---- battle plans */

static void plan_action(engine_action *out, const engine_battle_plan *pl, uint8_t seat,
                        int is_advanced)
{
    memset(out, 0, sizeof *out);
    out->kind = ENGINE_ACTION_BATTLE_PLAN;
    out->seat = seat;
    out->arg[0] = pl->leader;
    out->arg[1] = pl->cheap_hero;
    out->arg[2] = pl->weapon;
    out->arg[3] = pl->defense;
    out->arg[4] = pl->dial;
    if (is_advanced) {
        /* the forces by strength, held as n + 1 (ENGINE_ARG_COUNT1) */
        out->arg[5] = (int16_t)(pl->half + 1);
        out->arg[6] = (int16_t)(pl->elite + 1);
        out->arg[7] = (int16_t)(pl->elite_half + 1);
    }
}

static int make_battle_plan(pair *p, engine_state *b, const engine_state *a, const audit_game *g,
                            engine_legal *scratch, uint64_t *prng)
{
    if (a->phase != ENGINE_PHASE_BATTLE || a->battle_territory >= ENGINE_TERRITORY_COUNT)
        return 0;
    p->battle_territory = a->battle_territory;
    p->battle_seat[0] = a->battle_seat[0];
    p->battle_seat[1] = a->battle_seat[1];
    /* The plan the other side is about to commit, changed. */
    if (p->version < g->n_events) {
        const engine_action *next = &g->action[p->version];
        if (next->kind == ENGINE_ACTION_BATTLE_PLAN && next->seat != p->viewer &&
            other_action(&p->substitute, a, next, scratch, prng) == 0) {
            *b = *a;
            p->has_substitute = 1;
            char x[160], y[160];
            action_text(x, sizeof x, a, next);
            action_text(y, sizeof y, a, &p->substitute);
            snprintf(p->hidden, sizeof p->hidden, "the secret battle plan committed is [%s], not "
                     "[%s]", y, x);
            return 1;
        }
    }
    /* The prescience answer about to be given, known to the one asked and
     * the Atreides side only (engine/view.c), changed. */
    if (p->version < g->n_events) {
        const engine_action *next = &g->action[p->version];
        int atreides = seat_of(a, ENGINE_FACTION_ATREIDES);
        int knower = next->seat == p->viewer || atreides == p->viewer;
        for (unsigned i = 0; i < 2 && atreides >= 0; i++) {
            unsigned s = a->battle_seat[i];
            if (s < a->config.n_seats && (s == (unsigned)atreides || a->ally[s] == atreides) &&
                s == p->viewer)
                knower = 1;
        }
        if (next->kind == ENGINE_ACTION_PRESCIENCE_ANSWER && !knower &&
            other_action(&p->substitute, a, next, scratch, prng) == 0) {
            *b = *a;
            p->has_substitute = 1;
            snprintf(p->hidden, sizeof p->hidden, "%s answers the prescience question with %d, "
                     "not %d", seat_name(a, next->seat), p->substitute.arg[0], next->arg[0]);
            return 1;
        }
    }
    /* The Kwisatz Haderach's declaration about to be made (its use
     * secret, docs/RULINGS.md R103), made the other way; and one made but
     * not yet revealed, made the other way. */
    int kh = engine_power_from_slug("kwisatz_haderach");
    if (p->version < g->n_events && kh >= 0) {
        const engine_action *next = &g->action[p->version];
        if (next->kind == ENGINE_ACTION_POWER && next->arg[0] == kh && next->seat != p->viewer &&
            other_action(&p->substitute, a, next, scratch, prng) == 0 &&
            p->substitute.arg[0] == kh) {
            *b = *a;
            p->has_substitute = 1;
            snprintf(p->hidden, sizeof p->hidden, "%s declares the Kwisatz Haderach with use "
                     "%d, not %d", seat_name(a, next->seat), p->substitute.arg[1], next->arg[1]);
            return 1;
        }
    }
    /* (half the time: the plan committed, below, is the other fact) */
    for (unsigned side = 0; side < 2 && a->step == ENGINE_BATTLE_STEP_PLAN &&
                            prng_below(prng, 2) == 0; side++) {
        uint8_t seat = a->battle_seat[side];
        uint8_t declared = a->plan[side].kwisatz_haderach;
        if (declared == ENGINE_KH_UNDECLARED || seat == p->viewer || seat >= a->config.n_seats)
            continue;
        *b = *a;
        b->plan[side].kwisatz_haderach =
            declared == ENGINE_KH_WITH ? ENGINE_KH_WITHOUT : ENGINE_KH_WITH;
        if (engine_state_check(b) != 0)
            continue;
        snprintf(p->hidden, sizeof p->hidden, "%s declared the Kwisatz Haderach %s, not %s",
                 seat_name(a, seat), declared == ENGINE_KH_WITH ? "without" : "with",
                 declared == ENGINE_KH_WITH ? "with" : "without");
        return 1;
    }
    /* A plan committed but not yet revealed, committed otherwise. */
    if (a->plan[0].is_committed == a->plan[1].is_committed)
        return 0;
    unsigned side = a->plan[0].is_committed ? 0 : 1;
    uint8_t seat = a->battle_seat[side];
    if (seat == p->viewer || seat >= a->config.n_seats)
        return 0;
    engine_action orig;
    plan_action(&orig, &a->plan[side], seat, engine_is_advanced(a));
    engine_state undone = *a;
    undone.plan[side].leader = undone.plan[side].cheap_hero = -1;
    undone.plan[side].weapon = undone.plan[side].defense = -1;
    undone.plan[side].dial = 0;
    undone.plan[side].is_committed = 0;
    undone.answered = (uint16_t)(undone.answered & ~(1u << seat));
    engine_action alt;
    if (other_action(&alt, &undone, &orig, scratch, prng) != 0)
        return 0;
    *b = undone;
    if (!apply_ok(b, &alt, g->seed, p->version) || engine_state_check(b) != 0)
        return 0;
    char x[160], y[160];
    action_text(x, sizeof x, a, &orig);
    action_text(y, sizeof y, a, &alt);
    snprintf(p->hidden, sizeof p->hidden, "the committed battle plan is [%s], not [%s]", y, x);
    return 1;
}

/* ---- storm dials */

static int make_storm_dial(pair *p, engine_state *b, const engine_state *a, const audit_game *g,
                           engine_legal *scratch, uint64_t *prng)
{
    if (a->phase != ENGINE_PHASE_STORM)
        return 0;
    if (p->version < g->n_events) {
        const engine_action *next = &g->action[p->version];
        if (next->kind == ENGINE_ACTION_STORM_DIAL && next->seat != p->viewer &&
            other_action(&p->substitute, a, next, scratch, prng) == 0) {
            *b = *a;
            p->has_substitute = 1;
            p->dialer = next->seat;
            snprintf(p->hidden, sizeof p->hidden, "%s dials %d, not %d", seat_name(a, next->seat),
                     p->substitute.arg[0], next->arg[0]);
            return 1;
        }
    }
    for (uint8_t s = 0; s < a->config.n_seats; s++) {
        if (s == p->viewer || a->seat[s].storm_dial == NONE8)
            continue;
        engine_action orig;
        memset(&orig, 0, sizeof orig);
        orig.kind = ENGINE_ACTION_STORM_DIAL;
        orig.seat = s;
        orig.arg[0] = a->seat[s].storm_dial;
        engine_state undone = *a;
        undone.seat[s].storm_dial = NONE8;
        undone.answered = (uint16_t)(undone.answered & ~(1u << s));
        engine_action alt;
        if (other_action(&alt, &undone, &orig, scratch, prng) != 0)
            continue;
        *b = undone;
        if (!apply_ok(b, &alt, g->seed, p->version) || engine_state_check(b) != 0)
            continue;
        p->dialer = s;
        snprintf(p->hidden, sizeof p->hidden, "%s dialled %d, not %d", seat_name(a, s),
                 alt.arg[0], orig.arg[0]);
        return 1;
    }
    return 0;
}

/* The Advanced storm deck's next card, seen by the Fremen only, and by
 * nobody once a Karama stopped their look at it (rules version 8). */
static int make_storm_card(pair *p, engine_state *b, const engine_state *a, uint64_t *prng)
{
    int fremen = seat_of(a, ENGINE_FACTION_FREMEN);
    int unseen = (a->karama_stopped & ENGINE_ADVANTAGE_BIT(ENGINE_ADVANTAGE_FREMEN_STORM_PEEK)) != 0;
    if (a->next_storm == 0 || fremen < 0 || (fremen == p->viewer && !unseen))
        return 0;
    *b = *a;
    b->next_storm = (uint8_t)(1 + (a->next_storm + prng_below(prng, 5)) % 6);
    if (engine_state_check(b) != 0)
        return 0;
    p->is_storm_card = 1;
    snprintf(p->hidden, sizeof p->hidden, "the next storm card (the Fremen's) is %u, not %u",
             b->next_storm, a->next_storm);
    return 1;
}

/* ---- the Nexus Cards */

static uint16_t nexus_known(const engine_state *st, uint8_t viewer)
{
    uint16_t m = 0;
    for (unsigned c = 0; c < ENGINE_NEXUS_CARD_COUNT; c++)
        if (st->nexus_card[c].place != ENGINE_PLACE_OUT && knows(st, viewer, st->nexus_card[c].known_by))
            m = (uint16_t)(m | 1u << c);
    return m;
}

/* 1 while the neutral Nexus window (rules version 7 on) is open: whom it
 * asks must not follow from the held Nexus cards. */
static int nexus_window_open(const engine_state *st)
{
    return engine_nexus_window(st) != NULL;
}

/* In the Spice Blow and Nexus phase of a room with the module (where
 * cards are drawn, replaced and discarded), mostly in the draw
 * opportunity: the own-faction policy of another seat's next draw
 * answer, changed; or the faces of two Nexus cards the viewer has not
 * seen swapped, often the card on top of the deck against the own card of
 * a seat that may draw, so that a redraw happens in one world and not in
 * the other. */
static int make_nexus(pair *p, engine_state *b, const engine_state *a, const audit_game *g,
                      uint64_t *prng)
{
    int window = nexus_window_open(a); /* and while the neutral Nexus window asks */
    if (!(a->config.modules & ENGINE_MODULE_NEXUS_CARDS) ||
        (a->phase != ENGINE_PHASE_SPICE_BLOW && !window))
        return 0;
    /* Mostly in the draw opportunity itself, where the cards move. */
    int drawing = a->step == ENGINE_BLOW_STEP_NEXUS_DRAW;
    if (!drawing && !window && prng_below(prng, 8) != 0)
        return 0;
    p->nexus_known = nexus_known(a, p->viewer);
    if (p->version < g->n_events && prng_below(prng, 2) == 0) {
        const engine_action *next = &g->action[p->version];
        if (next->kind == ENGINE_ACTION_NEXUS_DRAW && next->seat != p->viewer) {
            *b = *a;
            p->has_substitute = 1;
            p->substitute = *next;
            p->substitute.arg[1] = (int16_t)(next->arg[1] == ENGINE_NEXUS_KEEP
                                                 ? ENGINE_NEXUS_REDRAW_ALWAYS
                                                 : ENGINE_NEXUS_KEEP);
            /* ... its own card on top too, where the viewer cannot tell,
             * so the policy decides something. */
            int top = a->n_nexus_deck > 0 ? a->nexus_deck[a->n_nexus_deck - 1] : -1;
            for (unsigned c = 0; c < ENGINE_NEXUS_CARD_COUNT && top >= 0; c++)
                if (a->nexus_face[c] == a->seat[next->seat].faction && (int)c != top &&
                    a->nexus_card[c].place == ENGINE_PLACE_DECK &&
                    !knows(a, p->viewer, a->nexus_card[c].known_by) &&
                    !knows(a, p->viewer, a->nexus_card[top].known_by)) {
                    b->nexus_face[c] = a->nexus_face[top];
                    b->nexus_face[top] = a->nexus_face[c];
                    if (engine_state_check(b) != 0) {
                        *b = *a;
                        break;
                    }
                    p->n_nexus = 2;
                    p->nexus[0] = (uint8_t)top;
                    p->nexus[1] = (uint8_t)c;
                }
            snprintf(p->hidden, sizeof p->hidden, "the own-faction policy of seat %u's Nexus "
                     "draw is %d, not %d", next->seat + 1u, p->substitute.arg[1], next->arg[1]);
            return 1;
        }
    }
    uint8_t cand[ENGINE_NEXUS_CARD_COUNT];
    unsigned n = 0;
    for (unsigned c = 0; c < ENGINE_NEXUS_CARD_COUNT; c++)
        if (!knows(a, p->viewer, a->nexus_card[c].known_by))
            cand[n++] = (uint8_t)c;
    if (n < 2)
        return 0;
    int top = a->n_nexus_deck > 0 ? a->nexus_deck[a->n_nexus_deck - 1] : -1;
    for (int tries = 0; tries < CHOICE_TRIES; tries++) {
        unsigned x = cand[prng_below(prng, n)], y = cand[prng_below(prng, n)];
        if (window && prng_below(prng, 2) == 0) {
            /* While the Nexus window asks: the card of the faction whose
             * attempt it holds against a card another seat holds, so that
             * whoever holds that Betrayal differs between the worlds. */
            unsigned faction = a->seat[engine_window_top(a)->owner].faction;
            for (unsigned c = 0; c < ENGINE_NEXUS_CARD_COUNT; c++) {
                if (knows(a, p->viewer, a->nexus_card[c].known_by))
                    continue;
                if (a->nexus_face[c] == faction)
                    x = c;
                else if (a->nexus_card[c].place == ENGINE_PLACE_HAND && prng_below(prng, 2) == 0)
                    y = c;
            }
        } else if (top >= 0 && !knows(a, p->viewer, a->nexus_card[top].known_by) &&
                   prng_below(prng, drawing ? 2 : 3) == 0) {
            unsigned s = prng_below(prng, a->config.n_seats);
            /* In the opportunity: the first seat in storm order that may
             * still draw (one still to answer, or one drawing), the one
             * the top card goes to. */
            uint8_t order[ENGINE_MAX_SEATS];
            unsigned n_order = drawing ? engine_storm_order(a, order) : 0;
            for (unsigned i = 0; i < n_order; i++) {
                unsigned t = order[i];
                if (((unsigned)a->awaiting & ~(unsigned)a->answered) >> t & 1u ||
                    (unsigned)a->nexus_drawing >> t & 1u) {
                    s = t;
                    break;
                }
            }
            for (unsigned c = 0; c < ENGINE_NEXUS_CARD_COUNT; c++)
                if (a->nexus_face[c] == a->seat[s].faction && s != p->viewer &&
                    !knows(a, p->viewer, a->nexus_card[c].known_by))
                    x = (unsigned)top, y = c;
        }
        if (x == y)
            continue;
        *b = *a;
        b->nexus_face[x] = a->nexus_face[y];
        b->nexus_face[y] = a->nexus_face[x];
        if (engine_state_check(b) != 0)
            continue;
        p->n_nexus = 2;
        p->nexus[0] = (uint8_t)x;
        p->nexus[1] = (uint8_t)y;
        snprintf(p->hidden, sizeof p->hidden, "faces of Nexus cards %u (%s) and %u (%s) swapped",
                 x, engine_faction_name(a->nexus_face[x]), y, engine_faction_name(a->nexus_face[y]));
        return 1;
    }
    return 0;
}

static int pair_make(pair *p, engine_state *b, const audit_game *g, uint32_t version,
                     uint8_t viewer, unsigned fact, engine_legal *scratch, uint64_t *prng)
{
    memset(p, 0, sizeof *p);
    p->fact = (uint8_t)fact;
    p->viewer = viewer;
    p->version = version;
    const engine_state *a = &g->state[version];
    p->turn = a->turn;
    switch ((inspect_audit_fact)fact) {
    case INSPECT_FACT_CARD_FACES:
        return make_card_faces(p, b, g, prng);
    case INSPECT_FACT_TRAITORS:
        return make_traitors(p, b, a, g, scratch, prng);
    case INSPECT_FACT_SPICE_DECK:
        return make_spice_deck(p, b, a, prng);
    case INSPECT_FACT_PREDICTION:
        return make_prediction(p, b, a, g, scratch, prng);
    case INSPECT_FACT_BATTLE_PLAN:
        return make_battle_plan(p, b, a, g, scratch, prng);
    case INSPECT_FACT_STORM_DIAL:
        return make_storm_dial(p, b, a, g, scratch, prng) || make_storm_card(p, b, a, prng);
    case INSPECT_FACT_NEXUS_CARDS:
        return make_nexus(p, b, a, g, prng);
    case INSPECT_FACT_COUNT:
        break;
    }
    return 0;
}

/* 1 if the Atreides Cunning told the viewer an element of the other
 * side's plan in this battle. */
static int nexus_prescience_told(const engine_state *st, uint8_t viewer)
{
    const engine_effect *e = engine_effect_find(st, ENGINE_EFFECT_NEXUS_PRESCIENCE);
    return e != NULL && e->owner == viewer;
}

/* Whether the viewer has, in state st, legitimately learned the fact the
 * pair changed. */
static int learned_in(const pair *p, const engine_state *st, int after_change)
{
    for (unsigned i = 0; i < p->n_cards; i++)
        if (knows(st, p->viewer, st->card[p->cards[i]].known_by))
            return 1;
    for (unsigned i = 0; i < p->n_traitors; i++)
        if (knows(st, p->viewer, st->traitor[p->traitors[i]].known_by))
            return 1;
    for (unsigned i = 0; i < p->n_spice; i++)
        if (knows(st, p->viewer, st->spice_card[p->spice[i]].known_by))
            return 1;
    /* A Nexus card the viewer draws comes from a deck whose order the
     * change (a face, a redraw before it) may have moved: what it then
     * holds it has seen, legitimately (docs/RULINGS.md R80). */
    if (p->fact == INSPECT_FACT_NEXUS_CARDS && (nexus_known(st, p->viewer) & ~p->nexus_known))
        return 1;
    switch ((inspect_audit_fact)p->fact) {
    case INSPECT_FACT_PREDICTION:
        /* Revealed when the game ends (and so when it comes true). */
        return st->phase == ENGINE_PHASE_GAME_OVER;
    case INSPECT_FACT_BATTLE_PLAN:
        /* Revealed once both plans are in; over with its battle; told in
         * part to the Atreides by their Nexus Cunning (docs/RULINGS.md
         * R128), legitimately... */
        if (nexus_prescience_told(st, p->viewer))
            return 1;
        /* ... or shown whole to the Atreides by their Karama power
         * (docs/RULINGS.md R139), legitimately */
        for (unsigned side = 0; side < 2; side++)
            if (engine_karama_plan_shown(st, p->viewer, side))
                return 1;
        return st->phase != ENGINE_PHASE_BATTLE || st->battle_territory != p->battle_territory ||
               st->battle_seat[0] != p->battle_seat[0] || st->battle_seat[1] != p->battle_seat[1] ||
               (st->plan[0].is_committed && st->plan[1].is_committed);
    case INSPECT_FACT_STORM_DIAL:
        /* The storm card moves the storm on the next turn, revealed when
         * its move is calculated (from rules version 3 on the storm cards
         * are asked with that move public, storm_pending); a dial is
         * revealed when the storm moves (the dials are cleared then). */
        if (p->is_storm_card)
            return st->phase == ENGINE_PHASE_GAME_OVER ||
                   (st->turn != p->turn &&
                    (st->phase != ENGINE_PHASE_STORM || st->storm_pending != 0));
        return st->phase != ENGINE_PHASE_STORM ||
               (after_change && st->seat[p->dialer].storm_dial == NONE8);
    case INSPECT_FACT_CARD_FACES:
    case INSPECT_FACT_TRAITORS:
    case INSPECT_FACT_SPICE_DECK:
    case INSPECT_FACT_NEXUS_CARDS:
    case INSPECT_FACT_COUNT:
        break;
    }
    return 0;
}

/* The Ecaz Secret Ally's answer (docs/RULINGS.md R87) told to the viewer
 * (the asker or the asked), 0 for none: whether a seat holds a traitor of
 * the asker's leaders is disclosed to them, legitimately. */
static int nexus_answer_told(const engine_state *st, uint8_t viewer)
{
    const engine_effect *e = engine_effect_find(st, ENGINE_EFFECT_NEXUS_ANSWER);
    return e != NULL && (e->owner == viewer || e->value == viewer) ? e->arg : 0;
}

static int learned(const pair *p, const engine_state *a, const engine_state *b, int after_change)
{
    if (p->fact == INSPECT_FACT_TRAITORS &&
        nexus_answer_told(a, p->viewer) != nexus_answer_told(b, p->viewer))
        return 1;
    return learned_in(p, a, after_change) || learned_in(p, b, after_change);
}

/* ======================================================== comparing */

/* Scratch space of one audit run (large: kept off the stack). */
typedef struct audit_run {
    const audit_game *g;
    const inspect_audit_observer *obs;
    inspect_audit_report *out;
    uint32_t first_version;        /* options.first_version */
    uint32_t last_version;         /* options.last_version */
    engine_state a, b, prev_a, prev_b, va, vb, pa, pb;
    uint8_t ea[ENGINE_STATE_ENCODED_MAX + 256], eb[ENGINE_STATE_ENCODED_MAX + 256];
    engine_legal la[ENGINE_LEGAL_MAX], lb[ENGINE_LEGAL_MAX];
    engine_action probe[PROBES_MAX];
    inspect_log_line log_a, log_b;
    const inspect_audit_output *outputs; /* the output paths compared */
    size_t n_outputs;
    char out_a[OUTPUT_CAP], out_b[OUTPUT_CAP];
} audit_run;

static void leak_record(audit_run *r, const pair *p, uint32_t at_version, unsigned channel,
                        const char *field, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;

static void leak_record(audit_run *r, const pair *p, uint32_t at_version, unsigned channel,
                        const char *field, const char *fmt, ...)
{
    inspect_audit_report *out = r->out;
    if (out->n_leaks < INSPECT_AUDIT_MAX_LEAKS) {
        inspect_audit_leak *l = &out->leak[out->n_leaks];
        memset(l, 0, sizeof *l);
        snprintf(l->room, sizeof l->room, "%s", r->g->room);
        l->version = p->version;
        l->at_version = at_version;
        l->seat = p->viewer;
        l->fact = p->fact;
        l->channel = (uint8_t)channel;
        snprintf(l->hidden, sizeof l->hidden, "%s", p->hidden);
        snprintf(l->field, sizeof l->field, "%s", field);
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(l->detail, sizeof l->detail, fmt, ap);
        va_end(ap);
    }
    out->n_leaks++;
}

static int ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), m = strlen(tail);
    return n >= m && strcmp(s + n - m, tail) == 0;
}

/* 1 for a field saying who is asked: the step's seats, or a window's. */
static int is_prompt_field(const char *path)
{
    return strcmp(path, "awaiting") == 0 || strcmp(path, "answered") == 0 ||
           (strncmp(path, "frame[", 6) == 0 &&
            (ends_with(path, "].asked") || ends_with(path, "].answered")));
}

/* A leaf's value in words where its field says what it means. */
static void value_text(char *out, size_t cap, const char *path, int64_t v,
                       const engine_state *view)
{
    if (strstr(path, "card_kind[") != NULL) {
        const char *k = v >= 0 && v < ENGINE_CARD_KIND_COUNT ? engine_card_kind_slug((unsigned)v)
                                                              : NULL;
        snprintf(out, cap, "%s", k != NULL ? k : v == ENGINE_CARD_KIND_UNKNOWN ? "unknown" : "?");
    } else if (ends_with(path, ".place")) {
        snprintf(out, cap, "%s", place_name((unsigned)v));
    } else if (ends_with(path, "known_by") || is_prompt_field(path)) {
        inspect__text t;
        inspect__text_init(&t, out, cap);
        inspect__text_add(&t, "{");
        for (uint8_t s = 0; s < view->config.n_seats; s++)
            if ((uint64_t)v >> s & 1u)
                inspect__text_add(&t, "%s%s", t.len > 1 ? ", " : "", seat_name(view, s));
        inspect__text_add(&t, "}");
    } else if (ends_with(path, "prediction_faction")) {
        const char *f = v >= 0 ? engine_faction_name((unsigned)v) : NULL;
        snprintf(out, cap, "%s", f != NULL ? f : "none");
    } else {
        snprintf(out, cap, "%lld", (long long)v);
    }
}

/* Compares the viewer's views of x and y (what it is sent): 0 if equal,
 * else records the leak and returns 1. `what` prefixes the field. */
static int compare_views(audit_run *r, const pair *p, uint32_t at, const engine_state *x,
                         const engine_state *y, const char *what)
{
    const inspect_audit_observer *o = r->obs;
    o->view(&r->va, x, p->viewer);
    o->view(&r->vb, y, p->viewer);
    size_t na = o->encode(r->ea, sizeof r->ea, &r->va, x);
    size_t nb = o->encode(r->eb, sizeof r->eb, &r->vb, y);
    r->out->n_comparisons += 2;
    if (na == nb && na <= sizeof r->ea && memcmp(r->ea, r->eb, na) == 0)
        return 0;
    char path[INSPECT_AUDIT_FIELD_CHARS];
    int64_t xa = 0, xb = 0;
    if (field_diff(path, sizeof path, &xa, &xb, state_fields,
                   sizeof state_fields / sizeof state_fields[0], (const uint8_t *)&r->va,
                   (const uint8_t *)&r->vb, "")) {
        char field[INSPECT_AUDIT_FIELD_CHARS + 16];
        snprintf(field, sizeof field, "%s.%s", what, path);
        unsigned ch = is_prompt_field(path) ? INSPECT_CHANNEL_PROMPT : INSPECT_CHANNEL_VIEW;
        char ta[120], tb[120];
        value_text(ta, sizeof ta, path, xa, &r->va);
        value_text(tb, sizeof tb, path, xb, &r->vb);
        leak_record(r, p, at, ch, field, "%s in the room, %s in the counterfactual (encodings "
                    "of %zu and %zu bytes)", ta, tb, na, nb);
        return 1;
    }
    char field[INSPECT_AUDIT_FIELD_CHARS];
    if (na != nb) {
        snprintf(field, sizeof field, "%s.size", what);
        leak_record(r, p, at, INSPECT_CHANNEL_SIZE, field, "%zu bytes in the room, %zu in the "
                    "counterfactual, the view's fields being equal", na, nb);
        return 1;
    }
    size_t i = 0;
    while (i < na && r->ea[i] == r->eb[i])
        i++;
    snprintf(field, sizeof field, "%s.encoding", what);
    leak_record(r, p, at, INSPECT_CHANNEL_VIEW, field, "byte %zu of %zu differs, the view's "
                "fields being equal", i, na);
    return 1;
}

static void family_text(char *out, size_t cap, const engine_legal *l)
{
    const engine_action_spec *spec = engine_action_spec_of(l->kind);
    inspect__text t;
    inspect__text_init(&t, out, cap);
    inspect__text_add(&t, "%s", spec != NULL ? spec->name : "?");
    for (unsigned i = 0; spec != NULL && i < spec->n_args; i++)
        inspect__text_add(&t, " %s=%d..%d", spec->arg_name[i], l->lo[i], l->hi[i]);
    if (l->sum >= 0)
        inspect__text_add(&t, " sum=%d", l->sum);
    for (unsigned k = 0; k < ENGINE_LEGAL_CAPS; k++)
        if (l->cap_mask[k])
            inspect__text_add(&t, " cap(0x%02x)<=%d", l->cap_mask[k], l->cap[k]);
}

static int legal_equal(const engine_legal *x, const engine_legal *y)
{
    return x->kind == y->kind && x->seat == y->seat && x->sum == y->sum &&
           memcmp(x->lo, y->lo, sizeof x->lo) == 0 && memcmp(x->hi, y->hi, sizeof x->hi) == 0 &&
           memcmp(x->cap_mask, y->cap_mask, sizeof x->cap_mask) == 0 &&
           memcmp(x->cap, y->cap, sizeof x->cap) == 0;
}

/* The viewer's legal families in both worlds; leaves them in r->la (count
 * in *n_out). 0 if equal. */
static int compare_legal(audit_run *r, const pair *p, uint32_t at, size_t *n_out)
{
    *n_out = 0;
    if (p->viewer >= r->a.config.n_seats)
        return 0;
    size_t na = r->obs->legal(r->la, ENGINE_LEGAL_MAX, &r->a, p->viewer);
    size_t nb = r->obs->legal(r->lb, ENGINE_LEGAL_MAX, &r->b, p->viewer);
    r->out->n_comparisons++;
    size_t m = na < nb ? na : nb;
    if (m > ENGINE_LEGAL_MAX)
        m = ENGINE_LEGAL_MAX;
    for (size_t i = 0; i < m; i++) {
        if (legal_equal(&r->la[i], &r->lb[i]))
            continue;
        char x[200], y[200], field[INSPECT_AUDIT_FIELD_CHARS];
        family_text(x, sizeof x, &r->la[i]);
        family_text(y, sizeof y, &r->lb[i]);
        snprintf(field, sizeof field, "legal_actions[%zu]", i);
        leak_record(r, p, at, INSPECT_CHANNEL_LEGAL, field, "[%s] in the room, [%s] in the "
                    "counterfactual", x, y);
        return 1;
    }
    if (na != nb) {
        leak_record(r, p, at, INSPECT_CHANNEL_LEGAL, "legal_actions.count", "%zu families in the "
                    "room, %zu in the counterfactual", na, nb);
        return 1;
    }
    *n_out = m;
    return 0;
}

static int compare_log(audit_run *r, const pair *p, uint32_t at, const engine_action *act_a,
                       const engine_action *act_b)
{
    r->obs->log(&r->log_a, &r->prev_a, &r->a, act_a, at, p->viewer);
    r->obs->log(&r->log_b, &r->prev_b, &r->b, act_b, at, p->viewer);
    r->out->n_comparisons++;
    const inspect_log_line *x = &r->log_a, *y = &r->log_b;
    if (x->seat != y->seat || x->kind != y->kind || x->version != y->version) {
        const engine_action_spec *sx = engine_action_spec_of(x->kind);
        const engine_action_spec *sy = engine_action_spec_of(y->kind);
        leak_record(r, p, at, INSPECT_CHANNEL_LOG, "log.action", "a %s by seat %u in the room, "
                    "a %s by seat %u in the counterfactual", sx != NULL ? sx->name : "?",
                    x->seat, sy != NULL ? sy->name : "?", y->seat);
        return 1;
    }
    for (unsigned i = 0; i < ENGINE_ACTION_MAX_ARGS; i++)
        if (x->action.arg[i] != y->action.arg[i]) {
            char field[INSPECT_AUDIT_FIELD_CHARS];
            snprintf(field, sizeof field, "log.action.arg[%u]", i);
            leak_record(r, p, at, INSPECT_CHANNEL_LOG, field, "%d in the room, %d in the "
                        "counterfactual", x->action.arg[i], y->action.arg[i]);
            return 1;
        }
    /* The text is what the seat receives: its length is compared with it. */
    if (strcmp(x->text, y->text) != 0) {
        leak_record(r, p, at, INSPECT_CHANNEL_LOG, "log.text", "\"%s\" in the room, \"%s\" in "
                    "the counterfactual", x->text, y->text);
        return 1;
    }
    return 0;
}

/* ---- probes: actions the viewer could submit now */

static void probe_push(audit_run *r, size_t *n, const engine_action *a)
{
    if (*n < PROBES_MAX)
        r->probe[(*n)++] = *a;
}

/* An action of family l with every argument at its low (hi = 0) or high
 * end, the last ones adjusted to meet a required sum. */
static void family_extreme(engine_action *out, const engine_legal *l, int hi)
{
    const engine_action_spec *spec = engine_action_spec_of(l->kind);
    unsigned n = spec != NULL ? spec->n_args : 0;
    memset(out, 0, sizeof *out);
    out->kind = l->kind;
    out->seat = l->seat;
    int total = 0;
    for (unsigned i = 0; i < n; i++) {
        out->arg[i] = hi ? l->hi[i] : l->lo[i];
        total += out->arg[i];
    }
    if (l->sum < 0) {
        engine_legal_clip(l, out->arg); /* the high end within the caps */
        return;
    }
    for (unsigned k = n; k-- > 0 && total != l->sum;) {
        int want = out->arg[k] + (l->sum - total);
        if (want < l->lo[k])
            want = l->lo[k];
        if (want > l->hi[k])
            want = l->hi[k];
        total += want - out->arg[k];
        out->arg[k] = (int16_t)want;
    }
}

/* The probe actions for the viewer: every legal family's extremes and a
 * value just out of its range; every kind with zero arguments; every
 * treachery card and every traitor leader named in each argument that
 * takes one. */
static size_t probes_build(audit_run *r, uint8_t seat, size_t n_legal)
{
    size_t n = 0;
    engine_action a;
    size_t step = n_legal > PROBE_FAMILIES_MAX ? n_legal / PROBE_FAMILIES_MAX + 1 : 1;
    for (size_t i = 0; i < n_legal; i += step) {
        const engine_legal *l = &r->la[i];
        family_extreme(&a, l, 0);
        probe_push(r, &n, &a);
        family_extreme(&a, l, 1);
        probe_push(r, &n, &a);
        const engine_action_spec *spec = engine_action_spec_of(l->kind);
        if (spec != NULL && spec->n_args > 0) {
            family_extreme(&a, l, 1);
            a.arg[0] = (int16_t)(l->hi[0] + 1);
            probe_push(r, &n, &a);
            a.arg[0] = (int16_t)(l->lo[0] - 1);
            probe_push(r, &n, &a);
        }
    }
    for (unsigned k = ENGINE_ACTION_NONE + 1; k < ENGINE_ACTION_KIND_COUNT; k++) {
        const engine_action_spec *spec = engine_action_spec_of(k);
        memset(&a, 0, sizeof a);
        a.kind = (uint8_t)k;
        a.seat = seat;
        probe_push(r, &n, &a);
        for (unsigned j = 0; spec != NULL && j < spec->n_args; j++) {
            if (spec->arg_type[j] != ENGINE_ARG_CARD && spec->arg_type[j] != ENGINE_ARG_LEADER)
                continue;
            engine_action base = a;
            for (unsigned o = 0; o < spec->n_args; o++)
                if (spec->arg_type[o] == ENGINE_ARG_CARD || spec->arg_type[o] == ENGINE_ARG_LEADER)
                    base.arg[o] = -1;
            if (spec->arg_type[j] == ENGINE_ARG_CARD) {
                for (unsigned c = 0; c < r->a.n_cards; c++) {
                    base.arg[j] = (int16_t)c;
                    probe_push(r, &n, &base);
                }
            } else {
                for (unsigned l = 0; l < ENGINE_LEADER_COUNT; l++) {
                    if (r->a.traitor[l].place == ENGINE_PLACE_OUT)
                        continue;
                    base.arg[j] = (int16_t)l;
                    probe_push(r, &n, &base);
                }
            }
        }
    }
    return n;
}

static int compare_probes(audit_run *r, const pair *p, uint32_t at, size_t n_legal)
{
    uint8_t seat = p->viewer;
    if (seat >= r->a.config.n_seats)
        return 0;
    size_t n = probes_build(r, seat, n_legal);
    engine_rng rng0, rng;
    engine_rng_init(&rng0, r->g->seed, at + 1);
    for (size_t i = 0; i < n; i++) {
        const engine_action *act = &r->probe[i];
        engine_verdict_detail wa = {-1, 0}, wb = {-1, 0};
        r->pa = r->a;
        r->pb = r->b;
        rng = rng0;
        engine_verdict xa = r->obs->apply(&wa, &r->pa, act, &rng);
        rng = rng0;
        engine_verdict xb = r->obs->apply(&wb, &r->pb, act, &rng);
        r->out->n_comparisons++;
        if (xa != xb || (xa != ENGINE_ACCEPTED && (wa.arg != wb.arg || wa.value != wb.value))) {
            char text[200];
            action_text(text, sizeof text, &r->a, act);
            leak_record(r, p, at, INSPECT_CHANNEL_REJECTION, "rejection",
                        "[%s]: %s (arg %d, value %d) in the room, %s (arg %d, value %d) in the "
                        "counterfactual", text, engine_verdict_name(xa), wa.arg, (int)wa.value,
                        engine_verdict_name(xb), wb.arg, (int)wb.value);
            return 1;
        }
        if (xa != ENGINE_ACCEPTED || learned(p, &r->pa, &r->pb, 1))
            continue;
        /* What the seat would be shown after doing it. */
        char what[INSPECT_AUDIT_FIELD_CHARS];
        const engine_action_spec *spec = engine_action_spec_of(act->kind);
        snprintf(what, sizeof what, "after_%s.view", spec != NULL ? spec->name : "?");
        if (compare_views(r, p, at, &r->pa, &r->pb, what))
            return 1;
    }
    return 0;
}

/* The bytes of every output path the viewer reaches, in both worlds. */
static int compare_outputs(audit_run *r, const pair *p, uint32_t at, const engine_action *act_a,
                           const engine_action *act_b)
{
    uint32_t step = at - p->version; /* steps into the pair */
    int all = step < 2 || step % 32 == 0;
    const engine_state *ba = act_a != NULL ? &r->prev_a : &r->a;
    const engine_state *bb = act_b != NULL ? &r->prev_b : &r->b;
    for (size_t i = 0; i < r->n_outputs; i++) {
        const inspect_audit_output *o = &r->outputs[i];
        if (o->is_costly && !all)
            continue;
        size_t na = o->emit(r->out_a, sizeof r->out_a, ba, &r->a, act_a, at, p->viewer);
        size_t nb = o->emit(r->out_b, sizeof r->out_b, bb, &r->b, act_b, at, p->viewer);
        r->out->n_comparisons++;
        size_t m = na < nb ? na : nb;
        if (m > sizeof r->out_a)
            m = sizeof r->out_a;
        if (na == nb && memcmp(r->out_a, r->out_b, m) == 0)
            continue;
        size_t k = 0;
        while (k < m && r->out_a[k] == r->out_b[k])
            k++;
        size_t from = k > 24 ? k - 24 : 0;
        char field[INSPECT_AUDIT_FIELD_CHARS];
        snprintf(field, sizeof field, "output.%s", o->name);
        leak_record(r, p, at, INSPECT_CHANNEL_OUTPUT, field,
                    "printed by mentat %s: %zu bytes in the room, %zu in the counterfactual, "
                    "first difference at byte %zu: \"%.48s\" against \"%.48s\"", o->commands, na,
                    nb, k,
                    from < na ? r->out_a + from : "", from < nb ? r->out_b + from : "");
        return 1;
    }
    return 0;
}

/* Everything the viewer receives at this step, compared. */
static int compare_step(audit_run *r, const pair *p, uint32_t at, const engine_action *act_a,
                        const engine_action *act_b)
{
    if (compare_views(r, p, at, &r->a, &r->b, "view"))
        return 1;
    if (compare_outputs(r, p, at, act_a, act_b))
        return 1;
    size_t n_legal;
    if (compare_legal(r, p, at, &n_legal))
        return 1;
    if (act_a != NULL && compare_log(r, p, at, act_a, act_b))
        return 1;
    return compare_probes(r, p, at, n_legal);
}

/* Replays one pair; counts it in the report. */
static void pair_run(audit_run *r, const pair *p, uint32_t max_steps)
{
    const audit_game *g = r->g;
    inspect_audit_report *out = r->out;
    out->n_trials++;
    out->n_by_fact[p->fact]++;
    r->a = g->state[p->version];
    if (compare_step(r, p, p->version, NULL, NULL))
        return;
    for (uint32_t k = 1; k <= max_steps && p->version + k <= g->n_events; k++) {
        uint32_t w = p->version + k;
        const engine_action *act_a = &g->action[w - 1];
        const engine_action *act_b = k == 1 && p->has_substitute ? &p->substitute : act_a;
        r->prev_a = r->a;
        r->prev_b = r->b;
        r->a = g->state[w];
        engine_rng rng;
        engine_rng_init(&rng, g->seed, w);
        engine_verdict_detail why = {-1, 0};
        engine_verdict v = engine_apply(&why, &r->b, act_b, &rng);
        out->n_steps++;
        if (v != ENGINE_ACCEPTED) {
            r->b = r->prev_b;
            if (act_b->seat == p->viewer && !learned(p, &r->prev_a, &r->prev_b, 1)) {
                /* The viewer's own action, accepted in the room, refused in
                 * a world it cannot tell from it. */
                char text[200];
                action_text(text, sizeof text, &r->a, act_b);
                leak_record(r, p, w, INSPECT_CHANNEL_REJECTION, "rejection",
                            "its own [%s]: accepted in the room, %s (arg %d, value %d) in the "
                            "counterfactual", text, engine_verdict_name(v), why.arg,
                            (int)why.value);
                return;
            }
            out->n_diverged++;
            return;
        }
        if (learned(p, &r->a, &r->b, 1)) {
            out->n_learned++;
            return;
        }
        if (compare_step(r, p, w, act_a, act_b))
            return;
    }
}

/* ============================================================ sampling */

static uint64_t room_hash(const char *room)
{
    uint64_t h = UINT64_C(1469598103934665603);
    for (const char *c = room; *c; c++)
        h = (h ^ (uint8_t)*c) * UINT64_C(1099511628211);
    return h;
}

/* Picks a version where `fact` can be changed for `viewer` and builds the
 * pair there. 1 if one was built. */
static int pair_pick(pair *p, audit_run *r, uint8_t viewer, unsigned fact, int at_opening,
                     uint64_t *prng)
{
    const audit_game *g = r->g;
    uint32_t lo = r->first_version;
    uint32_t hi = r->last_version != 0 && r->last_version < g->n_events ? r->last_version
                                                                         : g->n_events;
    if (lo > hi)
        return 0;
    if (at_opening)
        return pair_make(p, &r->b, g, lo, viewer, fact, r->lb, prng);
    uint32_t n = hi + 1 - lo;
    /* The neutral Nexus window is rare and short: one pair in two of the
     * Nexus cards is made while it asks, if it ever does. */
    if (fact == INSPECT_FACT_NEXUS_CARDS && prng_below(prng, 2) == 0) {
        uint32_t start = prng_below(prng, n);
        for (uint32_t i = 0; i < n; i++) {
            uint32_t v = lo + (start + i) % n;
            if (nexus_window_open(&g->state[v]) &&
                pair_make(p, &r->b, g, v, viewer, fact, r->lb, prng))
                return 1;
        }
    }
    for (int tries = 0; tries < 24; tries++) {
        uint32_t v = lo + prng_below(prng, n);
        if (pair_make(p, &r->b, g, v, viewer, fact, r->lb, prng))
            return 1;
    }
    /* Rare facts (a plan, a dial, the prediction): scan from a random start. */
    uint32_t start = prng_below(prng, n);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t v = lo + (start + i) % n;
        const engine_state *a = &g->state[v];
        int maybe = fact == INSPECT_FACT_BATTLE_PLAN ? a->phase == ENGINE_PHASE_BATTLE
                  : fact == INSPECT_FACT_STORM_DIAL ? a->phase == ENGINE_PHASE_STORM
                  : fact == INSPECT_FACT_PREDICTION ? a->phase != ENGINE_PHASE_GAME_OVER
                  : fact == INSPECT_FACT_NEXUS_CARDS ? a->phase == ENGINE_PHASE_SPICE_BLOW ||
                                                           nexus_window_open(a)
                                                         : 1;
        if (maybe && pair_make(p, &r->b, g, v, viewer, fact, r->lb, prng))
            return 1;
    }
    return 0;
}

/* ============================================== knowledge by rule */

/* Checks the known_by marks after every event against the rules' table
 * (audit_marks.c): each event applied by the observer to the state before
 * it, so a planted mark is seen. A mark the rules do not give is a leak
 * to the seat it names. */
static void marks_run(audit_run *r)
{
    static const uint8_t fact_of_part[3] = {INSPECT_FACT_CARD_FACES, INSPECT_FACT_TRAITORS,
                                            INSPECT_FACT_SPICE_DECK};
    const audit_game *g = r->g;
    for (uint32_t v = 1; v <= g->n_events; v++) {
        const engine_action *act = &g->action[v - 1];
        r->pa = g->state[v - 1];
        engine_rng rng;
        engine_rng_init(&rng, g->seed, v);
        if (r->obs->apply(NULL, &r->pa, act, &rng) != ENGINE_ACCEPTED)
            continue;
        inspect__redeal_add(&r->out->redeal, &g->state[v - 1], &r->pa);
        inspect__marks_result m;
        int over = inspect__marks_check(&m, &g->state[v - 1], &r->pa, act);
        r->out->n_marks_events++;
        if (act->kind < ENGINE_ACTION_KIND_COUNT)
            r->out->n_by_kind[act->kind]++;
        if (m.n_forgotten > 0 && r->out->n_marks_forgotten == 0) {
            inspect__text t;
            inspect__text_init(&t, r->out->marks_forgotten, sizeof r->out->marks_forgotten);
            inspect__text_add(&t, "version %u: %s: %s", v, m.forgotten.field, m.forgotten.detail);
        }
        r->out->n_marks_forgotten += m.n_forgotten;
        if (!over)
            continue;
        pair p;
        memset(&p, 0, sizeof p);
        p.fact = fact_of_part[m.over.part];
        p.viewer = m.over.seat;
        p.version = v;
        const engine_state *a = &r->pa;
        const engine_card_state *c = m.over.part == 0   ? &a->card[m.over.index]
                                   : m.over.part == 1 ? &a->traitor[m.over.index]
                                                      : &a->spice_card[m.over.index];
        char where[64];
        where_text(where, sizeof where, a, c);
        if (m.over.part == 0)
            snprintf(p.hidden, sizeof p.hidden, "treachery card %u (%s, %s)", m.over.index,
                     engine_card_kind_slug(a->card_kind[m.over.index]), where);
        else if (m.over.part == 1)
            snprintf(p.hidden, sizeof p.hidden, "traitor card %s (%s)",
                     engine_leader_slug(m.over.index), where);
        else
            snprintf(p.hidden, sizeof p.hidden, "spice card %u (%s)", m.over.index, where);
        leak_record(r, &p, v, INSPECT_CHANNEL_MARKS, m.over.field, "%s", m.over.detail);
    }
    /* Through the room's reshuffles, numbers keep their faces no more (and
     * no less) often than a uniform deal would. */
    const inspect_audit_redeal *d = &r->out->redeal;
    double z = inspect_audit_redeal_z(d);
    if (z > INSPECT_AUDIT_REDEAL_Z || z < -INSPECT_AUDIT_REDEAL_Z) {
        pair p;
        memset(&p, 0, sizeof p);
        p.fact = INSPECT_FACT_CARD_FACES;
        p.viewer = ENGINE_VIEW_PUBLIC;
        snprintf(p.hidden, sizeof p.hidden, "the faces dealt to treachery card numbers at a "
                 "reshuffle");
        leak_record(r, &p, g->n_events, INSPECT_CHANNEL_HISTORY, "history.reshuffle",
                    "%u of %u numbers re-dealt in %u reshuffles kept their face, %.1f expected "
                    "(variance %.1f, z = %.1f): a number seen before a reshuffle tells its face "
                    "after it", d->kept, d->n_cards, d->n_reshuffles, d->mean, d->variance, z);
    }
}

/* Whether `viewer` saw the face of treachery card `card` at some version
 * up to v since the number was last dealt a face (at setup, or when it
 * left the discard pile in a reshuffle): what it can link across time. */
static int seen_since_dealt(const audit_game *g, uint32_t v, uint8_t viewer, unsigned card)
{
    for (uint32_t u = v + 1; u-- > 0;) {
        if (knows(&g->state[u], viewer, g->state[u].card[card].known_by))
            return 1;
        if (u > 0 && g->state[u - 1].card[card].place == ENGINE_PLACE_DISCARD &&
            g->state[u].card[card].place != ENGINE_PLACE_DISCARD)
            return 0;
    }
    return 0;
}

/* What each viewer can link across time: a card whose face it saw, not
 * re-dealt since, must stay marked known to it; otherwise the view hides
 * what the seat remembers, and the counterfactuals would change a face it
 * can name (a world inconsistent with its history). */
int inspect__history_link(uint32_t *seen_out, uint32_t *at_out, unsigned *card_out,
                          const engine_state *states, uint32_t n_states, uint8_t viewer)
{
    uint32_t seen_at[ENGINE_TREACHERY_MAX];
    for (unsigned c = 0; c < ENGINE_TREACHERY_MAX; c++)
        seen_at[c] = UINT32_MAX;
    for (uint32_t v = 0; v < n_states; v++) {
        const engine_state *st = &states[v];
        for (unsigned c = 0; c < st->n_cards; c++) {
            if (v > 0 && states[v - 1].card[c].place == ENGINE_PLACE_DISCARD &&
                st->card[c].place != ENGINE_PLACE_DISCARD)
                seen_at[c] = UINT32_MAX; /* dealt a face afresh */
            if (knows(st, viewer, st->card[c].known_by)) {
                seen_at[c] = v;
                continue;
            }
            if (seen_at[c] == UINT32_MAX)
                continue;
            *seen_out = seen_at[c];
            *at_out = v;
            *card_out = c;
            return 1;
        }
    }
    return 0;
}

static void history_run(audit_run *r, const uint8_t *viewers, unsigned n_viewers)
{
    const audit_game *g = r->g;
    for (unsigned k = 0; k < n_viewers; k++) {
        uint32_t seen, at;
        unsigned c;
        if (!inspect__history_link(&seen, &at, &c, g->state, g->n_events + 1, viewers[k]))
            continue;
        const engine_state *st = &g->state[at];
        pair p;
        memset(&p, 0, sizeof p);
        p.fact = INSPECT_FACT_CARD_FACES;
        p.viewer = viewers[k];
        p.version = seen;
        char where[64];
        where_text(where, sizeof where, st, &st->card[c]);
        snprintf(p.hidden, sizeof p.hidden, "treachery card %u (%s, %s)", c,
                 engine_card_kind_slug(st->card_kind[c]), where);
        char field[INSPECT_AUDIT_FIELD_CHARS];
        snprintf(field, sizeof field, "history.card[%u]", c);
        leak_record(r, &p, at, INSPECT_CHANNEL_HISTORY, field,
                    "seen face up at version %u and not re-dealt since, no longer marked known "
                    "at version %u: the number names the face", seen, at);
    }
}

static int audit_game_run(inspect_audit_report *out, const audit_game *g,
                          const inspect_audit_options *opt)
{
    audit_run *r = calloc(1, sizeof *r);
    if (r == NULL)
        return fail(out, INSPECT_ERROR, "out of memory");
    r->g = g;
    r->obs = opt->observer != NULL ? opt->observer : &inspect_audit_genuine;
    r->out = out;
    r->first_version = opt->first_version;
    r->last_version = opt->last_version;
    r->outputs = r->obs->outputs;
    r->n_outputs = r->obs->outputs != NULL ? r->obs->n_outputs : 0;
    uint32_t max_steps = opt->max_steps != 0 ? opt->max_steps : UINT32_MAX;
    const engine_config *cfg = &g->state[0].config;
    uint8_t viewers[ENGINE_MAX_SEATS + 1];
    unsigned n_viewers = 0;
    if (opt->seat == INSPECT_AUDIT_ALL_SEATS) {
        for (uint8_t s = 0; s < cfg->n_seats; s++)
            viewers[n_viewers++] = s;
        viewers[n_viewers++] = ENGINE_VIEW_PUBLIC;
    } else {
        viewers[n_viewers++] = opt->seat;
    }
    unsigned trials = opt->trials != 0 ? opt->trials : INSPECT_AUDIT_TRIALS_PER_VIEWER * n_viewers;
    uint32_t facts = opt->facts != 0 ? opt->facts : (1u << INSPECT_FACT_COUNT) - 1;
    marks_run(r);
    history_run(r, viewers, n_viewers);
    uint64_t prng = opt->sample_seed ^ room_hash(g->room);
    for (unsigned t = 0; t < trials; t++) {
        uint64_t tprng = prng ^ (UINT64_C(0x9e3779b97f4a7c15) * (t + 1));
        uint8_t viewer = viewers[t % n_viewers];
        /* The opening first (the initial state and setup), for each viewer. */
        int at_opening = t < n_viewers;
        unsigned first = (t / n_viewers + prng_below(&tprng, INSPECT_FACT_COUNT)) %
                         INSPECT_FACT_COUNT;
        int built = 0;
        pair p;
        for (int pass = at_opening ? 0 : 1; pass < 2 && !built; pass++)
            for (unsigned f = 0; f < INSPECT_FACT_COUNT && !built; f++) {
                unsigned fact = (first + f) % INSPECT_FACT_COUNT;
                if (facts & 1u << fact)
                    built = pair_pick(&p, r, viewer, fact, pass == 0, &tprng);
            }
        if (built)
            pair_run(r, &p, max_steps);
        else
            out->n_unchangeable++;
        if (opt->progress != NULL)
            opt->progress(opt->progress_ctx, t + 1, trials);
    }
    free(r);
    return 0;
}

static void report_init(inspect_audit_report *out, const char *room)
{
    memset(out, 0, sizeof *out);
    snprintf(out->room, sizeof out->room, "%s", room);
}

int inspect_audit_room(inspect_audit_report *out, ledger *db, const char *room,
                       const inspect_audit_options *opt)
{
    report_init(out, room);
    audit_game g;
    memset(&g, 0, sizeof g);
    const char *keys = opt->keys_dir != NULL ? opt->keys_dir : LEDGER_DEFAULT_KEYS_DIR;
    int rc = game_load(out, &g, db, room, keys);
    if (rc == 0) {
        snprintf(out->room, sizeof out->room, "%s", g.room);
        out->n_events = g.n_events;
        rc = audit_game_run(out, &g, opt);
    }
    sodium_memzero(g.seed, sizeof g.seed);
    game_free(&g);
    return rc;
}

int inspect_audit_game(inspect_audit_report *out, const char *name, const engine_config *cfg,
                       const uint8_t seed[ENGINE_SEED_BYTES], const engine_action *actions,
                       uint32_t n_actions, const inspect_audit_options *opt)
{
    report_init(out, name);
    audit_game g;
    memset(&g, 0, sizeof g);
    snprintf(g.room, sizeof g.room, "%s", name);
    memcpy(g.seed, seed, ENGINE_SEED_BYTES);
    int rc = game_alloc(&g, n_actions);
    if (rc != 0) {
        rc = fail(out, INSPECT_ERROR, "out of memory for %u states", n_actions);
        goto out;
    }
    engine_rng rng;
    engine_rng_init(&rng, seed, 0);
    engine_verdict v = engine_setup(NULL, &g.state[0], cfg, &rng);
    if (v != ENGINE_ACCEPTED) {
        rc = fail(out, INSPECT_EINPUT, "the configuration is refused (%s)", engine_verdict_name(v));
        goto out;
    }
    if (n_actions > 0)
        memcpy(g.action, actions, (size_t)n_actions * sizeof *actions);
    rc = game_fold(out, &g, NULL);
    if (rc == 0) {
        out->n_events = n_actions;
        rc = audit_game_run(out, &g, opt);
    }
out:
    game_free(&g);
    return rc;
}

/* ========================================================== self-test */

#define SELF_GAMES 5 /* the last two with the Nexus Cards */
#define SELF_MAX_ACTIONS 2000
#define SELF_TRIALS 140
#define SELF_STEPS 24

/* Plays a game in memory from the opening position with random legal
 * actions (chooser: the self-test's own PRNG) until it ends. */
static int self_game(engine_action **out, uint32_t *n_out, const engine_config *cfg,
                     const uint8_t seed[ENGINE_SEED_BYTES], uint64_t chooser)
{
    engine_state *st = malloc(sizeof *st);
    engine_legal *legal = malloc(ENGINE_LEGAL_MAX * sizeof *legal);
    engine_action *acts = malloc(SELF_MAX_ACTIONS * sizeof *acts);
    int rc = INSPECT_ERROR;
    uint32_t n = 0;
    if (st == NULL || legal == NULL || acts == NULL)
        goto out;
    engine_rng rng;
    engine_rng_init(&rng, seed, 0);
    if (engine_setup(NULL, st, cfg, &rng) != ENGINE_ACCEPTED)
        goto out;
    while (n < SELF_MAX_ACTIONS) {
        size_t k = engine_legal_actions(legal, ENGINE_LEGAL_MAX, st, ENGINE_SEAT_ENGINE);
        if (k == 0)
            break;
        if (k > ENGINE_LEGAL_MAX)
            k = ENGINE_LEGAL_MAX;
        engine_action act;
        if (draw_from(&act, &legal[prng_below(&chooser, (uint32_t)k)], &chooser) != 0)
            continue;
        engine_rng_init(&rng, seed, n + 1);
        if (engine_apply(NULL, st, &act, &rng) != ENGINE_ACCEPTED)
            goto out;
        acts[n++] = act;
    }
    *out = acts;
    *n_out = n;
    acts = NULL;
    rc = 0;
out:
    free(st);
    free(legal);
    free(acts);
    return rc;
}

/* The first leak of rep in the plant's channel and field, or NULL. */
static const inspect_audit_leak *plant_caught(const inspect_audit_plant *pl,
                                              const inspect_audit_report *rep)
{
    size_t kept = rep->n_leaks < INSPECT_AUDIT_MAX_LEAKS ? rep->n_leaks : INSPECT_AUDIT_MAX_LEAKS;
    for (size_t i = 0; i < kept; i++)
        if (rep->leak[i].channel == pl->channel &&
            strncmp(rep->leak[i].field, pl->field_prefix, strlen(pl->field_prefix)) == 0)
            return &rep->leak[i];
    return NULL;
}

int inspect_audit_self_test(inspect_audit_self_report *out)
{
    memset(out, 0, sizeof *out);
    size_t n_plants;
    const inspect_audit_plant *plants = inspect_audit_plants(&n_plants);
    if (n_plants > INSPECT_AUDIT_MAX_PLANTS)
        n_plants = INSPECT_AUDIT_MAX_PLANTS;
    out->n_plants = n_plants;
    for (size_t i = 0; i < n_plants; i++)
        out->result[i].plant = &plants[i];
    inspect_audit_report *rep = malloc(sizeof *rep);
    if (rep == NULL)
        return INSPECT_ERROR;
    int rc = 0;
    for (unsigned gi = 0; gi < SELF_GAMES && rc == 0; gi++) {
        engine_config cfg;
        engine_config_init(&cfg);
        cfg.n_seats = ENGINE_MAX_SEATS;
        for (unsigned s = 0; s < ENGINE_MAX_SEATS; s++)
            cfg.faction[s] = (uint8_t)((s + gi) % ENGINE_MAX_SEATS);
        if (gi >= SELF_GAMES - 2) { /* five seats: someone unallied, so cards are drawn */
            cfg.n_seats = ENGINE_MAX_SEATS - 1;
            cfg.modules = ENGINE_MODULE_NEXUS_CARDS;
        }
        uint8_t seed[ENGINE_SEED_BYTES];
        memset(seed, 0, sizeof seed);
        seed[0] = 0x5e;
        seed[1] = (uint8_t)gi;
        engine_action *acts = NULL;
        uint32_t n_acts = 0;
        if (self_game(&acts, &n_acts, &cfg, seed, UINT64_C(0xa0d17) + gi) != 0) {
            rc = INSPECT_ERROR;
            break;
        }
        char name[SCHEMA_ROOM_CHARS + 1];
        snprintf(name, sizeof name, "SELF%04u", gi);
        inspect_audit_options opt;
        inspect_audit_options_init(&opt);
        opt.trials = SELF_TRIALS;
        opt.max_steps = SELF_STEPS;
        opt.sample_seed = gi;
        /* The genuine observer first: what it reports is real (and must
         * not be what catches a plant). */
        rc = inspect_audit_game(rep, name, &cfg, seed, acts, n_acts, &opt);
        if (rc == 0) {
            if (out->n_genuine_leaks == 0 && rep->n_leaks > 0)
                out->genuine = rep->leak[0];
            out->n_genuine_leaks += rep->n_leaks;
            out->n_comparisons += rep->n_comparisons;
        }
        for (size_t i = 0; i < n_plants && rc == 0; i++) {
            inspect_audit_self_result *res = &out->result[i];
            if (res->is_caught)
                continue;
            inspect_audit_observer leaky;
            inspect_audit_plant_observer(&leaky, &plants[i]);
            opt.observer = &leaky;
            opt.seat = plants[i].viewer;
            opt.facts = plants[i].facts;
            rc = inspect_audit_game(rep, name, &cfg, seed, acts, n_acts, &opt);
            if (rc != 0)
                break;
            out->n_comparisons += rep->n_comparisons;
            res->n_leaks += rep->n_leaks;
            const inspect_audit_leak *hit = plant_caught(&plants[i], rep);
            if (hit != NULL) {
                res->is_caught = 1;
                res->first = *hit;
            }
        }
        free(acts);
    }
    for (size_t i = 0; i < n_plants; i++)
        out->n_caught += (size_t)out->result[i].is_caught;
    free(rep);
    return rc;
}
