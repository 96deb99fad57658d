/*
 * test_bots.c - the bots: every level plays complete games at every table
 * size with no refused action and no broken invariant; a game is a
 * function of its seeds; a bot refuses another seat's view, and decides
 * the same in every world its own view cannot tell apart; the world
 * sampler's worlds are consistent with the view they come from.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "tests/engine/generic.h"
#include "tools/internal.h"

/* A table of n seats, the first n classic factions turned by `turn`. */
static void spec_init(bot_game_spec *sp, unsigned n, unsigned level, unsigned turns,
                      uint64_t seed, unsigned turn)
{
    memset(sp, 0, sizeof *sp);
    engine_config_init(&sp->config);
    sp->config.n_seats = (uint8_t)n;
    sp->config.turn_limit = (uint8_t)turns;
    for (unsigned s = 0; s < n; s++) {
        sp->config.faction[s] = (uint8_t)(ENGINE_FACTION_CLASSIC_FIRST + (s + turn) % 6);
        sp->level[s] = (uint8_t)level;
    }
    bot_game_seeds(sp->room_seed, &sp->bots_seed, seed, turn);
}

/* Plays spec through the public API, checking every step: the bot's
 * action is one of its legal families, the engine accepts it, and the
 * state keeps its invariants. Calls `each` (may be NULL) on each state. */
static unsigned play_checked(engine_state *st, const bot_game_spec *sp, bot_input *in,
                             void (*each)(const engine_state *st, uint32_t version, void *ctx),
                             void *ctx)
{
    bot *bots[ENGINE_MAX_SEATS] = {0};
    for (unsigned s = 0; s < sp->config.n_seats; s++)
        assert_int_equal(bot_new(&bots[s], (uint8_t)s, (bot_level)sp->level[s],
                                 bot__mix(sp->bots_seed, s)), BOT_OK);
    engine_rng rng;
    engine_rng_init(&rng, sp->room_seed, 0);
    assert_int_equal(engine_setup(NULL, st, &sp->config, &rng), ENGINE_ACCEPTED);
    uint32_t version = 0;
    uint8_t last = (uint8_t)(sp->config.n_seats - 1);
    while (st->phase != ENGINE_PHASE_GAME_OVER) {
        assert_true(version < 20000);
        if (each != NULL)
            each(st, version, ctx);
        uint16_t open = engine_state_awaiting(st);
        assert_true(open != 0);
        engine_action act;
        int acted = 0;
        for (int forced = 0; forced < 2 && !acted; forced++)
            for (unsigned k = 1; k <= sp->config.n_seats && !acted; k++) {
                uint8_t seat = (uint8_t)((last + k) % sp->config.n_seats);
                if (!(open & (1u << seat)))
                    continue;
                bot_input_build(in, st, seat, version, forced);
                int rc = bot_decide(&act, bots[seat], in);
                if (rc == BOT_WAIT) {
                    assert_false(forced);
                    continue;
                }
                assert_int_equal(rc, BOT_OK);
                int legal = 0;
                for (size_t i = 0; i < in->n_legal; i++)
                    legal |= engine_legal_contains(&in->legal[i], &act);
                assert_true(legal);
                last = seat;
                acted = 1;
            }
        assert_true(acted);
        engine_rng_init(&rng, sp->room_seed, version + 1);
        engine_verdict_detail why = {-1, 0};
        engine_verdict v = engine_apply(&why, st, &act, &rng);
        if (v != ENGINE_ACCEPTED)
            print_error("version %u: %s refused (arg %d value %d)\n", version + 1,
                        engine_verdict_name(v), why.arg, (int)why.value);
        assert_int_equal(v, ENGINE_ACCEPTED);
        assert_int_equal(engine_state_check(st), 0);
        version++;
    }
    for (unsigned s = 0; s < sp->config.n_seats; s++)
        bot_free(bots[s]);
    assert_true(st->winners != 0);
    return version;
}

static void test_bots__every_level_completes_games_at_every_table_size(void **state)
{
    (void)state;
    bot_input *in = malloc(sizeof *in);
    engine_state *st = malloc(sizeof *st);
    assert_non_null(in);
    assert_non_null(st);
    for (unsigned level = 0; level < BOT_LEVEL_COUNT; level++)
        for (unsigned n = ENGINE_MIN_SEATS; n <= ENGINE_MAX_SEATS; n++) {
            /* Brutal searches every shipment and move: short games keep
             * the suite fast, and they are still complete games. */
            unsigned turns = level == BOT_LEVEL_BRUTAL ? 2 : ENGINE_DEFAULT_TURN_LIMIT;
            bot_game_spec sp;
            spec_init(&sp, n, level, turns, 0x5eed + level, n);
            unsigned actions = play_checked(st, &sp, in, NULL, NULL);
            assert_true(actions > 10);
        }
    free(st);
    free(in);
}

static void test_bots__mixed_levels_complete_games(void **state)
{
    (void)state;
    bot_input *in = malloc(sizeof *in);
    engine_state *st = malloc(sizeof *st);
    assert_non_null(in);
    assert_non_null(st);
    for (unsigned g = 0; g < 3; g++) {
        bot_game_spec sp;
        spec_init(&sp, 4, BOT_LEVEL_EASY, 4, 77, g);
        for (unsigned s = 0; s < 4; s++)
            sp.level[s] = (uint8_t)((s + g) % BOT_LEVEL_COUNT);
        play_checked(st, &sp, in, NULL, NULL);
    }
    free(st);
    free(in);
}

static void test_bots__same_seeds_same_game(void **state)
{
    (void)state;
    bot_input *in = malloc(sizeof *in);
    assert_non_null(in);
    bot_game_spec sp;
    spec_init(&sp, 5, BOT_LEVEL_HARD, ENGINE_DEFAULT_TURN_LIMIT, 2024, 1);
    sp.level[0] = BOT_LEVEL_EASY;
    sp.level[2] = BOT_LEVEL_MEDIUM;
    bot_game_result a, b, c;
    assert_int_equal(bot_game_play_memory(&a, &sp, in), 0);
    assert_int_equal(bot_game_play_memory(&b, &sp, in), 0);
    assert_true(a.is_complete);
    assert_int_equal(a.n_rejected, 0);
    assert_int_equal(a.n_actions, b.n_actions);
    assert_memory_equal(a.digest, b.digest, sizeof a.digest);
    /* Other bot seeds, same room: another game. */
    sp.bots_seed ^= 1;
    assert_int_equal(bot_game_play_memory(&c, &sp, in), 0);
    assert_true(memcmp(a.digest, c.digest, sizeof a.digest) != 0 || a.n_actions != c.n_actions);
    free(in);
}

/* The state of a Medium game after `version` actions. */
static void state_at(engine_state *out, unsigned version, uint64_t seed)
{
    bot_input *in = malloc(sizeof *in);
    assert_non_null(in);
    bot_game_spec sp;
    spec_init(&sp, 6, BOT_LEVEL_MEDIUM, ENGINE_DEFAULT_TURN_LIMIT, seed, 0);
    sp.max_actions = version;
    bot *bots[ENGINE_MAX_SEATS];
    for (unsigned s = 0; s < 6; s++)
        assert_int_equal(bot_new(&bots[s], (uint8_t)s, BOT_LEVEL_MEDIUM, s), BOT_OK);
    engine_rng rng;
    engine_rng_init(&rng, sp.room_seed, 0);
    assert_int_equal(engine_setup(NULL, out, &sp.config, &rng), ENGINE_ACCEPTED);
    for (uint32_t v = 0; v < version && out->phase != ENGINE_PHASE_GAME_OVER; v++) {
        uint16_t open = engine_state_awaiting(out);
        engine_action act;
        int rc = BOT_WAIT;
        for (int forced = 0; forced < 2 && rc != BOT_OK; forced++)
            for (uint8_t s = 0; s < 6 && rc != BOT_OK; s++)
                if (open & (1u << s)) {
                    bot_input_build(in, out, s, v, forced);
                    rc = bot_decide(&act, bots[s], in);
                }
        assert_int_equal(rc, BOT_OK);
        engine_rng_init(&rng, sp.room_seed, v + 1);
        assert_int_equal(engine_apply(NULL, out, &act, &rng), ENGINE_ACCEPTED);
    }
    for (unsigned s = 0; s < 6; s++)
        bot_free(bots[s]);
    free(in);
}

static void test_bots__another_seats_view_is_refused(void **state)
{
    (void)state;
    engine_state *st = malloc(sizeof *st);
    bot_input *in = malloc(sizeof *in);
    assert_non_null(st);
    assert_non_null(in);
    state_at(st, 40, 9);
    bot *b;
    assert_int_equal(bot_new(&b, 0, BOT_LEVEL_BRUTAL, 1), BOT_OK);
    engine_action act;
    /* Seat 1's input handed to seat 0's bot. */
    bot_input_build(in, st, 1, 40, 0);
    assert_int_equal(bot_decide(&act, b, in), BOT_EREFUSED);
    /* Seat 0's input whose view was swapped for seat 1's, or the full state. */
    bot_input_build(in, st, 0, 40, 0);
    engine_view(&in->view, st, 1);
    assert_int_equal(bot_decide(&act, b, in), BOT_EREFUSED);
    in->view = *st;
    assert_int_equal(bot_decide(&act, b, in), BOT_EREFUSED);
    engine_view(&in->view, st, ENGINE_VIEW_PUBLIC);
    assert_int_equal(bot_decide(&act, b, in), BOT_EREFUSED);
    bot_free(b);
    free(st);
    free(in);
}

typedef struct sampler_ctx {
    engine_state *view, *world, *again;
    tool_prng r;
    unsigned n_checked, n_differ;
} sampler_ctx;

/* Every few states: each seat's view and the public view, completed into
 * worlds that keep the invariants and show that viewer the same view. */
static void check_samples(const engine_state *st, uint32_t version, void *vctx)
{
    sampler_ctx *c = vctx;
    if (version % 5 != 0)
        return;
    for (unsigned viewer = 0; viewer <= st->config.n_seats; viewer++) {
        uint8_t who = viewer == st->config.n_seats ? ENGINE_VIEW_PUBLIC : (uint8_t)viewer;
        engine_view(c->view, st, who);
        for (int k = 0; k < 2; k++) {
            int rc = bot_world_sample(c->world, c->view, &c->r);
            if (rc != 0)
                print_error("version %u, viewer %u: no world\n", version, who);
            assert_int_equal(rc, 0);
            assert_int_equal(engine_state_check(c->world), 0);
            engine_view(c->again, c->world, who);
            /* views are flat values, padding zeroed: their bytes compare */
            if (memcmp(c->again, c->view, sizeof *c->view) != 0) /* NOLINT(bugprone-suspicious-memory-comparison) */
                print_error("version %u viewer %u phase %u step %u element %u value %d/%d/%d "
                            "seats %u %u atreides-seat %d\n", version, who, st->phase, st->step,
                            engine_battle_prescience(st), engine_battle_prescience_answer(st), engine_battle_prescience_answer(c->view),
                            engine_battle_prescience_answer(c->world), st->battle_seat[0], st->battle_seat[1],
                            bot__seat_of(st, ENGINE_FACTION_ATREIDES));
            assert_memory_equal(c->again, c->view, sizeof *c->view);
            c->n_checked++;
            uint8_t a[ENGINE_DIGEST_BYTES], b[ENGINE_DIGEST_BYTES];
            engine_state_digest(a, c->world);
            engine_state_digest(b, st);
            c->n_differ += memcmp(a, b, sizeof a) != 0;
        }
    }
}

static void test_bots__sampled_worlds_match_the_view(void **state)
{
    (void)state;
    bot_input *in = malloc(sizeof *in);
    engine_state *st = malloc(sizeof *st);
    sampler_ctx c;
    c.view = malloc(sizeof *c.view);
    c.world = malloc(sizeof *c.world);
    c.again = malloc(sizeof *c.again);
    assert_non_null(in);
    assert_non_null(st);
    assert_non_null(c.view);
    assert_non_null(c.world);
    assert_non_null(c.again);
    tool_prng_init(&c.r, 5);
    c.n_checked = c.n_differ = 0;
    for (unsigned g = 0; g < 4; g++) {
        bot_game_spec sp;
        spec_init(&sp, 6, BOT_LEVEL_HARD, 5, 31 + g, g);
        sp.level[1] = BOT_LEVEL_EASY; /* odd choices reach odd corners */
        if (g == 3) { /* the Nexus Cards, easy seats allying often */
            sp.config.modules = ENGINE_MODULE_NEXUS_CARDS;
            sp.level[2] = sp.level[3] = BOT_LEVEL_EASY;
        }
        play_checked(st, &sp, in, check_samples, &c);
    }
    assert_true(c.n_checked > 500);
    assert_true(c.n_differ * 10 > c.n_checked * 9); /* hidden facts really redrawn */
    /* The composition is the deck's: 33 base cards. */
    uint8_t counts[ENGINE_CARD_KIND_COUNT];
    unsigned n_cards;
    assert_int_equal(bot_world_composition(counts, &n_cards, &st->config), 0);
    assert_int_equal(n_cards, 33);
    assert_int_equal(counts[ENGINE_CARD_SHIELD], 4);
    free(c.view);
    free(c.world);
    free(c.again);
    free(st);
    free(in);
}

typedef struct blind_ctx {
    engine_state *world;
    bot_input *a, *b;
    bot *bots[BOT_LEVEL_COUNT];
    tool_prng r;
    unsigned n_checked;
} blind_ctx;

/* A bot's choice depends on its view alone: the real state and a world
 * drawn from the seat's view give it the same input and the same action. */
static void check_blind(const engine_state *st, uint32_t version, void *vctx)
{
    blind_ctx *c = vctx;
    if (version % 9 != 0)
        return;
    uint16_t open = engine_state_awaiting(st);
    for (uint8_t seat = 0; seat < st->config.n_seats; seat++) {
        if (!(open & (1u << seat)))
            continue;
        bot_input_build(c->a, st, seat, version, 1);
        assert_int_equal(bot_world_sample(c->world, &c->a->view, &c->r), 0);
        bot_input_build(c->b, c->world, seat, version, 1);
        assert_memory_equal(&c->a->view, &c->b->view, sizeof c->a->view);
        assert_int_equal(c->a->n_legal, c->b->n_legal);
        assert_memory_equal(c->a->legal, c->b->legal, c->a->n_legal * sizeof c->a->legal[0]);
        for (unsigned l = 0; l < BOT_LEVEL_COUNT; l++) {
            bot *b;
            assert_int_equal(bot_new(&b, seat, (bot_level)l, 99), BOT_OK);
            engine_action x, y;
            assert_int_equal(bot_decide(&x, b, c->a), BOT_OK);
            assert_int_equal(bot_decide(&y, b, c->b), BOT_OK);
            assert_memory_equal(&x, &y, sizeof x);
            bot_free(b);
        }
        c->n_checked++;
    }
}

static void test_bots__choices_depend_on_the_view_alone(void **state)
{
    (void)state;
    bot_input *in = malloc(sizeof *in);
    engine_state *st = malloc(sizeof *st);
    blind_ctx c;
    c.world = malloc(sizeof *c.world);
    c.a = malloc(sizeof *c.a);
    c.b = malloc(sizeof *c.b);
    assert_non_null(in);
    assert_non_null(st);
    assert_non_null(c.world);
    assert_non_null(c.a);
    assert_non_null(c.b);
    tool_prng_init(&c.r, 8);
    c.n_checked = 0;
    bot_game_spec sp;
    spec_init(&sp, 4, BOT_LEVEL_MEDIUM, 3, 12, 2);
    play_checked(st, &sp, in, check_blind, &c);
    assert_true(c.n_checked > 20);
    free(c.world);
    free(c.a);
    free(c.b);
    free(st);
    free(in);
}

/* A bot's decision past its standing Karama policy (rules version 3),
 * which it sets at its first prompt: the policy is applied and the bot
 * decides again, as a game's loop would. */
static void decide_past_policy(engine_action *act, bot *b, engine_state *st, bot_input *in,
                               uint8_t seat, uint32_t version)
{
    assert_int_equal(bot_decide(act, b, in), BOT_OK);
    if (act->kind != ENGINE_ACTION_KARAMA_POLICY)
        return;
    static const uint8_t seed[ENGINE_SEED_BYTES] = {9};
    engine_rng rng;
    engine_rng_init(&rng, seed, version + 1);
    assert_int_equal(engine_apply(NULL, st, act, &rng), ENGINE_ACCEPTED);
    bot_input_build(in, st, seat, version + 1, 0);
    assert_int_equal(bot_decide(act, b, in), BOT_OK);
    assert_int_not_equal(act->kind, ENGINE_ACTION_KARAMA_POLICY);
}

/* Harkonnen hold Carthag, Arrakeen and Tuek's Sietch alone: they win at
 * this turn's Mentat Pause unless someone takes one back. Hard, to ship
 * first, contests one of them. */
static void test_bots__hard_defends_an_imminent_stronghold_victory(void **state)
{
    (void)state;
    engine_config cfg;
    engine_config_init(&cfg);
    cfg.n_seats = 2;
    cfg.faction[0] = ENGINE_FACTION_ATREIDES;
    cfg.faction[1] = ENGINE_FACTION_HARKONNEN;
    engine_state *st = malloc(sizeof *st);
    bot_input *in = malloc(sizeof *in);
    assert_non_null(st);
    assert_non_null(in);
    static const uint8_t seed[ENGINE_SEED_BYTES] = {7};
    engine_rng rng;
    engine_rng_init(&rng, seed, 0);
    assert_int_equal(engine_position_new(NULL, st, &cfg, &rng), ENGINE_ACCEPTED);
    int carthag = engine_location_find(ENGINE_TERRITORY_CARTHAG, 10);
    int arrakeen = engine_location_find(ENGINE_TERRITORY_ARRAKEEN, 9);
    int tueks = engine_location_find(ENGINE_TERRITORY_TUEKS_SIETCH, 4);
    assert_true(carthag >= 0 && arrakeen >= 0 && tueks >= 0);
    assert_int_equal(engine_position_forces(st, 1, (unsigned)carthag, 6, 0), 0);
    assert_int_equal(engine_position_forces(st, 1, (unsigned)arrakeen, 4, 0), 0);
    assert_int_equal(engine_position_forces(st, 1, (unsigned)tueks, 2, 0), 0);
    assert_int_equal(engine_position_seat_spice(st, 0, 15), 0);
    assert_int_equal(engine_position_enter(st, ENGINE_PHASE_SHIPMENT_MOVEMENT, 3, 2, &rng), 0);
    assert_int_equal(engine_state_awaiting(st), 1u); /* the Atreides ship first */
    bot_input_build(in, st, 0, 0, 0);
    bot *b;
    assert_int_equal(bot_new(&b, 0, BOT_LEVEL_HARD, 3), BOT_OK);
    engine_action act;
    decide_past_policy(&act, b, st, in, 0, 0);
    assert_int_equal(act.kind, ENGINE_ACTION_SHIP);
    unsigned t = engine_location_territory((unsigned)act.arg[0]);
    assert_true(t == ENGINE_TERRITORY_CARTHAG || t == ENGINE_TERRITORY_ARRAKEEN ||
                t == ENGINE_TERRITORY_TUEKS_SIETCH);
    assert_true(act.arg[1] >= 3); /* enough to win the battle there */
    bot_free(b);
    free(in);
    free(st);
}


/* An Advanced table (rules version 6) of the Harkonnen and the Bene
 * Gesserit from a cleared position; `advisors` Bene Gesserit advisors
 * beside `harkonnen` Harkonnen forces in Arrakeen, 2 forces in the Tanks. */
static engine_state *advanced_bg_position(unsigned advisors, unsigned harkonnen)
{
    engine_config cfg;
    engine_config_init(&cfg);
    cfg.n_seats = 2;
    cfg.faction[0] = ENGINE_FACTION_HARKONNEN;
    cfg.faction[1] = ENGINE_FACTION_BENE_GESSERIT;
    cfg.is_advanced = 1;
    engine_state *st = malloc(sizeof *st);
    assert_non_null(st);
    static const uint8_t seed[ENGINE_SEED_BYTES] = {12};
    engine_rng rng;
    engine_rng_init(&rng, seed, 0);
    assert_int_equal(engine_position_new(NULL, st, &cfg, &rng), ENGINE_ACCEPTED);
    int arrakeen = engine_location_find(ENGINE_TERRITORY_ARRAKEEN, 9);
    assert_true(arrakeen >= 0);
    assert_int_equal(engine_position_forces(st, 0, (unsigned)arrakeen, harkonnen, 0), 0);
    assert_int_equal(engine_position_advisors(st, 1, (unsigned)arrakeen, advisors), 0);
    assert_int_equal(engine_position_tanks(st, 1, 2, 0), 0);
    assert_int_equal(engine_position_seat_spice(st, 0, 20), 0);
    return st;
}

/* Medium decides the Advanced advisors from its view (docs/RULINGS.md
 * R107, R111): it sends an advisor with a shipment into a stronghold, the
 * fighter to the Polar Sink after one onto bare sand; in the Revival it
 * turns to fighters its advisors of Arrakeen when they match the
 * Harkonnen there, and revives instead when they do not. */
static void test_bots__medium_advisors(void **state)
{
    (void)state;
    bot_input *in = malloc(sizeof *in);
    assert_non_null(in);
    static const uint8_t seed[ENGINE_SEED_BYTES] = {12};
    engine_rng rng;
    int carthag = engine_location_find(ENGINE_TERRITORY_CARTHAG, 10);
    int erg = engine_location_find(ENGINE_TERRITORY_HABBANYA_ERG, 15);
    assert_true(carthag >= 0 && erg >= 0);
    static const struct {
        int to;
        int with;
    } ships[] = {{0, 1}, {0, 0}};
    for (size_t i = 0; i < 2; i++) {
        engine_state *st = advanced_bg_position(1, 2);
        engine_rng_init(&rng, seed, 1);
        assert_int_equal(engine_position_enter(st, ENGINE_PHASE_SHIPMENT_MOVEMENT, 3, 0, &rng), 0);
        int to = ships[i].with ? carthag : erg;
        engine_action ship = {.kind = ENGINE_ACTION_SHIP, .seat = 0, .arg = {(int16_t)to, 1}};
        engine_rng_init(&rng, seed, 2);
        assert_int_equal(engine_apply(NULL, st, &ship, &rng), ENGINE_ACCEPTED);
        assert_int_equal(engine_state_awaiting(st), 1u << 1);
        bot *b;
        assert_int_equal(bot_new(&b, 1, BOT_LEVEL_MEDIUM, 5), BOT_OK);
        bot_input_build(in, st, 1, 2, 0);
        engine_action act;
        decide_past_policy(&act, b, st, in, 1, 2);
        assert_int_equal(act.kind, ENGINE_ACTION_BG_SEND);
        assert_int_equal(act.arg[0], 1);
        assert_int_equal(act.arg[1], ships[i].with ? carthag : 0);
        bot_free(b);
        free(st);
    }
    static const struct {
        unsigned advisors, harkonnen;
        int flips;
    } revivals[] = {{2, 2, 1}, {2, 5, 0}};
    for (size_t i = 0; i < 2; i++) {
        engine_state *st = advanced_bg_position(revivals[i].advisors, revivals[i].harkonnen);
        engine_rng_init(&rng, seed, 1);
        assert_int_equal(engine_position_enter(st, ENGINE_PHASE_REVIVAL, 3, 0, &rng), 0);
        assert_true(engine_state_awaiting(st) & (1u << 1));
        bot *b;
        assert_int_equal(bot_new(&b, 1, BOT_LEVEL_MEDIUM, 5), BOT_OK);
        bot_input_build(in, st, 1, 1, 0);
        engine_action act;
        decide_past_policy(&act, b, st, in, 1, 1);
        if (revivals[i].flips) {
            assert_int_equal(act.kind, ENGINE_ACTION_POWER);
            assert_int_equal(act.arg[0], engine_power_id("bg_wartime"));
            assert_int_equal(act.arg[1], ENGINE_TERRITORY_ARRAKEEN);
        } else {
            assert_int_equal(act.kind, ENGINE_ACTION_REVIVE);
        }
        bot_free(b);
        free(st);
    }
    free(in);
}

/* A Basic table of three seats, these factions in seat order. */
static void three_seats(engine_config *cfg, uint8_t a, uint8_t b, uint8_t c)
{
    engine_config_init(cfg);
    cfg->n_seats = 3;
    cfg->faction[0] = a;
    cfg->faction[1] = b;
    cfg->faction[2] = c;
}

/* Advanced: a pile's second worm is the Fremen's to place (LR 2.04.15).
 * From Medium up they send it where it devours the most forces of
 * others: Red Chasm (4 Atreides), not South Mesa (1 Harkonnen) nor The
 * Great Flat where they stand themselves. */
static void test_bots__fremen_place_a_further_worm(void **state)
{
    (void)state;
    engine_config cfg;
    three_seats(&cfg, ENGINE_FACTION_ATREIDES, ENGINE_FACTION_HARKONNEN, ENGINE_FACTION_FREMEN);
    cfg.is_advanced = 1;
    engine_state *st = malloc(sizeof *st);
    bot_input *in = malloc(sizeof *in);
    assert_non_null(st);
    assert_non_null(in);
    static const uint8_t seed[ENGINE_SEED_BYTES] = {8};
    engine_rng rng;
    engine_rng_init(&rng, seed, 0);
    assert_int_equal(engine_position_new(NULL, st, &cfg, &rng), ENGINE_ACCEPTED);
    int flat = engine_location_find(ENGINE_TERRITORY_THE_GREAT_FLAT, 14);
    int chasm = engine_location_find(ENGINE_TERRITORY_RED_CHASM, 6);
    int mesa = engine_location_find(ENGINE_TERRITORY_SOUTH_MESA, 4);
    assert_true(flat >= 0 && chasm >= 0 && mesa >= 0);
    assert_int_equal(engine_position_forces(st, 2, (unsigned)flat, 5, 0), 0);
    assert_int_equal(engine_position_forces(st, 0, (unsigned)chasm, 4, 0), 0);
    assert_int_equal(engine_position_forces(st, 1, (unsigned)mesa, 1, 0), 0);
    assert_int_equal(engine_position_spice_discard(
                         st, (unsigned)engine_spice_card_of(ENGINE_TERRITORY_CIELAGO_NORTH)), 0);
    assert_int_equal(engine_position_spice_top(st, (unsigned)engine_spice_worm(1)), 0);
    assert_int_equal(engine_position_spice_top(st, (unsigned)engine_spice_worm(0)), 0);
    assert_int_equal(engine_position_enter(st, ENGINE_PHASE_SPICE_BLOW, 3, 0, &rng), 0);
    assert_int_equal(engine_state_awaiting(st), 1u << 2); /* the Fremen place the second */
    for (unsigned level = BOT_LEVEL_MEDIUM; level < BOT_LEVEL_COUNT; level++) {
        bot_input_build(in, st, 2, 3, 0);
        bot *b;
        assert_int_equal(bot_new(&b, 2, (bot_level)level, 5), BOT_OK);
        engine_action act;
        engine_state copy = *st;
        decide_past_policy(&act, b, &copy, in, 2, 3);
        assert_int_equal(act.kind, ENGINE_ACTION_POWER);
        assert_int_equal(act.arg[0], engine_power_from_slug("place_worm"));
        assert_int_equal(act.arg[1], ENGINE_TERRITORY_RED_CHASM);
        bot_free(b);
    }
    free(in);
    free(st);
}

/* Named to pay for a shipment with its Karama (docs/RULINGS.md R67), every
 * level declines a stranger; Medium and above pay for their ally. */
static void test_bots__karama_shipment_answered(void **state)
{
    (void)state;
    engine_config cfg;
    three_seats(&cfg, ENGINE_FACTION_HARKONNEN, ENGINE_FACTION_EMPEROR, ENGINE_FACTION_GUILD);
    engine_state *st = malloc(sizeof *st);
    bot_input *in = malloc(sizeof *in);
    assert_non_null(st);
    assert_non_null(in);
    int loc = engine_location_find(ENGINE_TERRITORY_THE_GREAT_FLAT, 14);
    assert_true(loc >= 0);
    for (int allied = 0; allied <= 1; allied++) {
        static const uint8_t seed[ENGINE_SEED_BYTES] = {8};
        engine_rng rng;
        engine_rng_init(&rng, seed, 0);
        assert_int_equal(engine_position_new(NULL, st, &cfg, &rng), ENGINE_ACCEPTED);
        assert_true(engine_position_give_card(st, 1, ENGINE_CARD_KARAMA) >= 0);
        if (allied)
            assert_int_equal(engine_position_alliance(st, 0, 1), 0);
        assert_int_equal(engine_position_enter(st, ENGINE_PHASE_SHIPMENT_MOVEMENT, 2, 0, &rng), 0);
        engine_action ask = {ENGINE_ACTION_SHIP_KARAMA_FROM, 0,
                             {(int16_t)loc, 2, 0, ENGINE_FACTION_EMPEROR}};
        engine_rng_init(&rng, seed, 1);
        assert_int_equal(engine_apply(NULL, st, &ask, &rng), ENGINE_ACCEPTED);
        engine_state *asked = malloc(sizeof *asked);
        assert_non_null(asked);
        *asked = *st;
        for (unsigned level = 0; level < BOT_LEVEL_COUNT; level++) {
            *st = *asked;
            bot_input_build(in, st, 1, 1, 0);
            bot *b;
            assert_int_equal(bot_new(&b, 1, (bot_level)level, 5), BOT_OK);
            engine_action act;
            decide_past_policy(&act, b, st, in, 1, 1);
            assert_int_equal(act.kind, ENGINE_ACTION_SHIP_KARAMA_ANSWER);
            assert_int_equal(act.arg[0], allied && level >= BOT_LEVEL_MEDIUM ? 1 : 0);
            bot_free(b);
        }
        free(asked);
    }
    free(in);
    free(st);
}

/* Holding a Nexus card whose panel is built (rules version 6), every
 * level from Medium plays it from its own view, and what it plays is
 * accepted: the Harkonnen draw a traitor with their Cunning in the Nexus
 * and shuffle back one of their own faction's leaders first; the Guild,
 * holding the Emperor's card (a Secret Ally) in Revival, revive the 3
 * forces it gives. Easy leaves it to the generic chooser. */
static void test_bots__nexus_panels_played(void **state)
{
    (void)state;
    engine_config cfg;
    three_seats(&cfg, ENGINE_FACTION_HARKONNEN, ENGINE_FACTION_GUILD, ENGINE_FACTION_ATREIDES);
    cfg.modules = ENGINE_MODULE_NEXUS_CARDS;
    engine_state *st = malloc(sizeof *st), *start = malloc(sizeof *start);
    bot_input *in = malloc(sizeof *in);
    assert_non_null(st);
    assert_non_null(start);
    assert_non_null(in);
    static const uint8_t seed[ENGINE_SEED_BYTES] = {12};
    int cunning = engine_power_from_slug("nexus_harkonnen_cunning");
    int back = engine_power_from_slug("nexus_traitor_return");
    int revive = engine_power_from_slug("nexus_emperor_secret_ally");
    unsigned own = (unsigned)engine_leader_from_slug("feyd_rautha");
    for (unsigned phase = 0; phase < 2; phase++) {
        engine_rng rng;
        engine_rng_init(&rng, seed, 0);
        assert_int_equal(engine_position_new(NULL, start, &cfg, &rng), ENGINE_ACCEPTED);
        assert_int_equal(engine_position_traitor(start, 0, own), 0);
        assert_int_equal(engine_position_traitor(start, 0,
                                                 (unsigned)engine_leader_from_slug("thufir_hawat")), 0);
        assert_true(engine_position_nexus_give(start, 0, ENGINE_FACTION_HARKONNEN) >= 0);
        assert_true(engine_position_nexus_give(start, 1, ENGINE_FACTION_EMPEROR) >= 0);
        assert_int_equal(engine_position_tanks(start, 1, 4, 0), 0);
        if (phase == 0) {
            int devoured = engine_spice_card_of(ENGINE_TERRITORY_CIELAGO_NORTH);
            int placed = engine_spice_card_of(ENGINE_TERRITORY_THE_GREAT_FLAT);
            assert_int_equal(engine_position_spice_discard(start, (unsigned)devoured), 0);
            assert_int_equal(engine_position_spice_top(start, (unsigned)placed), 0);
            assert_int_equal(engine_position_spice_top(start, (unsigned)engine_spice_worm(0)), 0);
        }
        assert_int_equal(engine_position_enter(start, phase == 0 ? ENGINE_PHASE_SPICE_BLOW
                                                                 : ENGINE_PHASE_REVIVAL,
                                               2, 9, &rng), 0);
        uint8_t seat = phase == 0 ? 0 : 1;
        for (unsigned level = BOT_LEVEL_MEDIUM; level < BOT_LEVEL_COUNT; level++) {
            *st = *start;
            bot *b;
            assert_int_equal(bot_new(&b, seat, (bot_level)level, 5), BOT_OK);
            engine_action act;
            bot_input_build(in, st, seat, 1, 0);
            decide_past_policy(&act, b, st, in, seat, 1);
            assert_int_equal(act.kind, ENGINE_ACTION_POWER);
            assert_int_equal(act.arg[0], phase == 0 ? cunning : revive);
            if (phase == 1)
                assert_int_equal(act.arg[1], 3);
            engine_rng_init(&rng, seed, 3);
            assert_int_equal(engine_apply(NULL, st, &act, &rng), ENGINE_ACCEPTED);
            if (phase == 0) {
                bot_input_build(in, st, seat, 3, 0);
                assert_int_equal(bot_decide(&act, b, in), BOT_OK);
                assert_int_equal(act.kind, ENGINE_ACTION_POWER);
                assert_int_equal(act.arg[0], back);
                assert_int_equal(act.arg[1], (int)own); /* its own leader goes back */
                engine_rng_init(&rng, seed, 4);
                assert_int_equal(engine_apply(NULL, st, &act, &rng), ENGINE_ACCEPTED);
            } else {
                assert_int_equal(st->seat[1].tanks, 1);
            }
            assert_int_equal(engine_nexus_held(st, seat), -1);
            bot_free(b);
        }
    }
    free(in);
    free(start);
    free(st);
}

/* The seat that ships first in Shipment and Movement of turn 2 from
 * `cfg` (the storm order decides it). */
static unsigned first_shipper(const engine_config *cfg)
{
    static engine_state st;
    static const uint8_t seed[ENGINE_SEED_BYTES] = {14};
    engine_rng rng;
    engine_rng_init(&rng, seed, 0);
    assert_int_equal(engine_position_new(NULL, &st, cfg, &rng), ENGINE_ACCEPTED);
    assert_int_equal(engine_position_enter(&st, ENGINE_PHASE_SHIPMENT_MOVEMENT, 2, 0, &rng), 0);
    unsigned s = 0;
    while (s < cfg->n_seats && !(st.awaiting & ENGINE_SEAT_BIT(s)))
        s++;
    assert_true(s < cfg->n_seats);
    return s;
}

/* Rules version 7: from Medium up, a seat holding the Guild card plays
 * its shipment panels from its own view, and what it plays is accepted.
 * As a Secret Ally (no Guild seated), with no reserves left to ship, it
 * cross-ships its group outside the strongholds into one (row 18); as the
 * Guild's Cunning, at its MOVE prompt with reserves and spice, it takes
 * the second shipment after its turn (row 17). */
static void test_bots__nexus_guild_shipment_panels_played(void **state)
{
    (void)state;
    static engine_state st, start;
    static bot_input in;
    static const uint8_t seed[ENGINE_SEED_BYTES] = {14};
    int basin = engine_location_find(ENGINE_TERRITORY_IMPERIAL_BASIN, 9);
    assert_true(basin >= 0);
    for (unsigned cunning = 0; cunning < 2; cunning++) {
        engine_config cfg;
        three_seats(&cfg, ENGINE_FACTION_ATREIDES, ENGINE_FACTION_HARKONNEN,
                    ENGINE_FACTION_EMPEROR);
        cfg.modules = ENGINE_MODULE_NEXUS_CARDS;
        unsigned seat = first_shipper(&cfg);
        if (cunning)
            cfg.faction[seat] = ENGINE_FACTION_GUILD;
        engine_rng rng;
        engine_rng_init(&rng, seed, 0);
        assert_int_equal(engine_position_new(NULL, &start, &cfg, &rng), ENGINE_ACCEPTED);
        assert_int_equal(engine_position_enter(&start, ENGINE_PHASE_SHIPMENT_MOVEMENT, 2, 0, &rng), 0);
        assert_true(start.awaiting & ENGINE_SEAT_BIT(seat));
        assert_true(engine_position_nexus_give(&start, (uint8_t)seat, ENGINE_FACTION_GUILD) >= 0);
        assert_int_equal(engine_position_seat_spice(&start, (uint8_t)seat, 10), 0);
        if (!cunning) {
            /* every force of its reserves in the Imperial Basin */
            assert_int_equal(engine_position_forces(&start, (uint8_t)seat, (unsigned)basin,
                                                    start.seat[seat].reserves, 0), 0);
            assert_int_equal(start.seat[seat].reserves, 0);
        } else {
            engine_action pass = {.kind = ENGINE_ACTION_SHIP_PASS, .seat = (uint8_t)seat};
            assert_int_equal(engine_apply(NULL, &start, &pass, &rng), ENGINE_ACCEPTED);
        }
        const char *slug = cunning ? "nexus_guild_cunning" : "nexus_guild_secret_ally_cross";
        for (unsigned level = BOT_LEVEL_MEDIUM; level < BOT_LEVEL_COUNT; level++) {
            st = start;
            bot *b;
            assert_int_equal(bot_new(&b, (uint8_t)seat, (bot_level)level, 5), BOT_OK);
            engine_action act;
            bot_input_build(&in, &st, (uint8_t)seat, 1, 0);
            decide_past_policy(&act, b, &st, &in, (uint8_t)seat, 1);
            assert_int_equal(act.kind, ENGINE_ACTION_POWER);
            assert_int_equal(act.arg[0], engine_power_from_slug(slug));
            if (!cunning) {
                assert_int_equal(act.arg[1], basin);
                assert_true(engine_territory_is_stronghold(engine_location_territory((unsigned)act.arg[2])));
                assert_int_equal(act.arg[3], st.forces[basin][seat]); /* all of them */
            }
            engine_rng_init(&rng, seed, 3);
            assert_int_equal(engine_apply(NULL, &st, &act, &rng), ENGINE_ACCEPTED);
            assert_int_equal(engine_nexus_held(&st, seat), -1);
            bot_free(b);
        }
    }
}

/* The bots price every shipment they weigh as the engine charges it
 * (engine_shipment_cost): the Fremen allied to the Guild pay the Guild's
 * rate for a site-to-site shipment, and their send is free (LR 2.04.05,
 * 2.06.10). Each price is checked against the spice the fold takes. */
static void test_bots__shipments_priced_as_the_engine_charges(void **state)
{
    (void)state;
    engine_config cfg;
    three_seats(&cfg, ENGINE_FACTION_FREMEN, ENGINE_FACTION_GUILD, ENGINE_FACTION_HARKONNEN);
    static engine_state st_, after_, view_;
    static engine_legal legal[ENGINE_LEGAL_MAX];
    engine_state *st = &st_, *after = &after_, *view = &view_;
    static const uint8_t seed[ENGINE_SEED_BYTES] = {12};
    int from = engine_location_find(ENGINE_TERRITORY_FALSE_WALL_WEST, 15);
    assert_true(from >= 0);
    unsigned storm = 0;
    engine_rng rng;
    for (; storm < ENGINE_SECTOR_COUNT; storm++) {
        engine_rng_init(&rng, seed, 0);
        assert_int_equal(engine_position_new(NULL, st, &cfg, &rng), ENGINE_ACCEPTED);
        assert_int_equal(engine_position_alliance(st, 0, 1), 0);
        assert_int_equal(engine_position_forces(st, 0, (unsigned)from, 6, 0), 0);
        assert_int_equal(engine_position_seat_spice(st, 0, 20), 0);
        if (engine_position_enter(st, ENGINE_PHASE_SHIPMENT_MOVEMENT, 2, storm, &rng) == 0 &&
            engine_state_awaiting(st) == 1u)
            break;
    }
    assert_true(storm < ENGINE_SECTOR_COUNT); /* the Fremen ship first */
    engine_view(view, st, 0);
    size_t n = engine_legal_actions(legal, ENGINE_LEGAL_MAX, view, 0);
    bot__ctx c;
    bot__ctx_init(&c, view, legal, n, 0, BOT_LEVEL_HARD, 1, 0, 0, NULL);
    unsigned crosses = 0, sends = 0;
    for (size_t i = 0; i < n; i++) {
        const engine_legal *l = &legal[i];
        if (l->kind != ENGINE_ACTION_CROSS_SHIP && l->kind != ENGINE_ACTION_FREMEN_SEND)
            continue;
        engine_action act;
        bot__action_lo(&act, l);
        int is_cross = l->kind == ENGINE_ACTION_CROSS_SHIP;
        unsigned to = (unsigned)act.arg[is_cross ? 1 : 0];
        unsigned forces = (unsigned)act.arg[is_cross ? 2 : 1];
        int priced = bot__ship_cost(&c, l->kind, to, forces, 0);
        *after = *st;
        engine_rng_init(&rng, seed, 1);
        assert_int_equal(engine_apply(NULL, after, &act, &rng), ENGINE_ACCEPTED);
        assert_int_equal(priced, st->seat[0].spice - after->seat[0].spice);
        if (is_cross) {
            assert_int_equal(priced, (int)engine_shipment_cost(view, 0, to, forces, 0));
            assert_true(priced > 0);
            crosses++;
        } else {
            assert_int_equal(priced, 0);
            sends++;
        }
    }
    assert_true(crosses > 0 && sends > 0);
}

/* Advanced battles (docs/RULINGS.md R75) played by bots of every level
 * from their own views, between random classic factions with random
 * forces, elite forces and spice: every decision is legal (bot_decide
 * refuses to return another), every battle ends, and from Medium up the
 * plans buy their strength with spice support while it lasts (a seat
 * holding spice, its forces not BATTLE HARDENED, supports some forces),
 * never more than it holds. */
static void test_bots__advanced_battles(void **state)
{
    (void)state;
    static const uint8_t classic[] = {
        ENGINE_FACTION_ATREIDES, ENGINE_FACTION_BENE_GESSERIT, ENGINE_FACTION_EMPEROR,
        ENGINE_FACTION_FREMEN,   ENGINE_FACTION_HARKONNEN,     ENGINE_FACTION_GUILD,
    };
    engine_state *st = malloc(sizeof *st);
    bot_input *in = malloc(sizeof *in);
    assert_non_null(st);
    assert_non_null(in);
    unsigned plans = 0, supported = 0, could = 0;
    for (unsigned g = 0; g < 24; g++) {
        engine_config cfg;
        engine_config_init(&cfg);
        cfg.n_seats = 2;
        cfg.faction[0] = classic[g % 6];
        cfg.faction[1] = classic[(g % 6 + 1 + g / 6) % 6]; /* g / 6 < 4: never the same */
        cfg.is_advanced = 1;
        uint8_t seed[ENGINE_SEED_BYTES] = {(uint8_t)g, 41};
        engine_rng rng;
        engine_rng_init(&rng, seed, 0);
        assert_int_equal(engine_position_new(NULL, st, &cfg, &rng), ENGINE_ACCEPTED);
        int loc = engine_location_find(ENGINE_TERRITORY_THE_GREAT_FLAT, 14);
        assert_true(loc >= 0);
        for (uint8_t s = 0; s < 2; s++) {
            unsigned elite = st->seat[s].special_reserves < 2 ? st->seat[s].special_reserves : 2;
            assert_int_equal(engine_position_forces(st, s, (unsigned)loc, 3 + (g + s) % 5, elite), 0);
            assert_int_equal(engine_position_seat_spice(st, s, (g * 3 + s * 5) % 9), 0);
        }
        assert_int_equal(engine_position_enter(st, ENGINE_PHASE_BATTLE, 3, 0, &rng), 0);
        bot *b[2];
        for (uint8_t s = 0; s < 2; s++)
            assert_int_equal(bot_new(&b[s], s, (bot_level)((g + s) % BOT_LEVEL_COUNT), g * 7 + s),
                             BOT_OK);
        for (uint32_t version = 1; st->phase == ENGINE_PHASE_BATTLE && version < 100; version++) {
            uint16_t awaiting = engine_state_awaiting(st);
            assert_int_not_equal(awaiting, 0);
            uint8_t seat = (awaiting & 1u) ? 0 : 1;
            bot_input_build(in, st, seat, version, 1);
            engine_action act;
            assert_int_equal(bot_decide(&act, b[seat], in), BOT_OK);
            if (act.kind == ENGINE_ACTION_BATTLE_PLAN && (g + seat) % BOT_LEVEL_COUNT != BOT_LEVEL_EASY) {
                unsigned spice = st->seat[seat].spice;
                int hardened = st->seat[seat].faction == ENGINE_FACTION_FREMEN;
                /* arguments 5..7: counts held as n + 1 (ENGINE_ARG_COUNT1) */
                int full = act.arg[4] + act.arg[6] - 1;
                int half = act.arg[5] - 1 + act.arg[7] - 1;
                plans++;
                if (spice > 0 && !hardened && full + half > 0) {
                    could++;
                    supported += full > 0;
                }
                assert_true(hardened || (unsigned)full <= spice);
            }
            engine_rng_init(&rng, seed, version);
            assert_int_equal(engine_apply(NULL, st, &act, &rng), ENGINE_ACCEPTED);
        }
        assert_int_not_equal(st->phase, ENGINE_PHASE_BATTLE);
        bot_free(b[0]);
        bot_free(b[1]);
    }
    assert_true(plans >= 12);
    assert_true(could > 0 && supported == could);
    free(in);
    free(st);
}

/* The decision table maps every action kind (none silently to the
 * first decision), a generic kind to its row's default, and every power
 * and window row of the families this build links is defaulted. */
/* Advanced: the Guild first in storm order is asked whether it delays
 * (LR 2.06.12.02). Easy keeps storm order (the window's default); from
 * Medium up it delays, to take its turn last. */
static void test_bots__guild_delays_its_turn(void **state)
{
    (void)state;
    engine_config cfg;
    three_seats(&cfg, ENGINE_FACTION_GUILD, ENGINE_FACTION_HARKONNEN, ENGINE_FACTION_ATREIDES);
    cfg.is_advanced = 1;
    engine_state *st = malloc(sizeof *st);
    bot_input *in = malloc(sizeof *in);
    assert_non_null(st);
    assert_non_null(in);
    static const uint8_t seed[ENGINE_SEED_BYTES] = {10};
    engine_rng rng;
    engine_rng_init(&rng, seed, 0);
    assert_int_equal(engine_position_new(NULL, st, &cfg, &rng), ENGINE_ACCEPTED);
    assert_int_equal(engine_position_enter(st, ENGINE_PHASE_SHIPMENT_MOVEMENT, 2, 0, &rng), 0);
    const engine_frame *f = engine_window_top(st);
    assert_non_null(f);
    assert_int_equal(f->window, (uint16_t)engine_window_id("guild_delay"));
    for (unsigned level = BOT_LEVEL_EASY; level < BOT_LEVEL_COUNT; level++) {
        bot_input_build(in, st, 0, 3, 0);
        bot *b;
        assert_int_equal(bot_new(&b, 0, (bot_level)level, 5), BOT_OK);
        engine_action act;
        engine_state copy = *st;
        decide_past_policy(&act, b, &copy, in, 0, 3);
        assert_int_equal(act.kind, ENGINE_ACTION_ANSWER);
        assert_int_equal(act.arg[0], engine_window_id("guild_delay"));
        assert_int_equal(act.arg[1], level == BOT_LEVEL_EASY ? 0 : 1);
        assert_int_equal(engine_apply(NULL, &copy, &act, &rng), ENGINE_ACCEPTED);
        bot_free(b);
    }
    free(in);
    free(st);
}

static void test_bots__every_kind_and_row_has_a_decision(void **state)
{
    (void)state;
    for (unsigned kind = 0; kind < ENGINE_ACTION_KIND_COUNT; kind++) {
        unsigned d = bot__decision_of(kind);
        assert_int_not_equal(d, BOT__DECISION_MISSING);
        assert_true(d < BOT__DECISION_COUNT);
        if (kind == ENGINE_ACTION_ANSWER)
            assert_int_equal(d, BOT__GENERIC);
    }
    assert_int_equal(bot__decision_of(ENGINE_ACTION_KIND_COUNT), BOT__DECISION_MISSING);
    /* the shipped generic powers: the Atreides' two Kwisatz Haderach
     * powers and their Karama look, the Fremen's place_worm, Karama worm (placed or passed) and
     * fremen_storm_losses, the Bene Gesserit's Wartime and their window
     * bg_intrusion (decided by bot__advanced_intrusion), the Emperor's Karama
     * revival, the Guild's two windows on its turn (guild_act_now,
     * guild_delay) and its Karama stop (guild_karama_stop), the Harkonnen's
     * Karama hand and its give-back window, their three decisions on a
     * leader drawn (capture_leader, kill_leader, spare_leader), and the Nexus panels (tests/engine/test_windows.c walks a
     * made-up window) */
    assert_int_equal(generic_rows_defaulted_in(engine__power_families[ENGINE_FACTION_ATREIDES]), 3);
    assert_int_equal(generic_rows_defaulted_in(engine__power_families[ENGINE_FACTION_FREMEN]), 4);
    assert_int_equal(
        generic_rows_defaulted_in(engine__power_families[ENGINE_FACTION_BENE_GESSERIT]), 2);
    assert_int_equal(generic_rows_defaulted_in(engine__power_families[ENGINE_FACTION_EMPEROR]), 1);
    assert_int_equal(generic_rows_defaulted_in(engine__power_families[ENGINE_FACTION_GUILD]), 3);
    assert_int_equal(generic_rows_defaulted_in(engine__power_families[ENGINE_FACTION_HARKONNEN]), 5);
    unsigned panels = 0;
    for (unsigned f = 0; f < ENGINE_FACTION_COUNT; f++)
        panels += generic_rows_defaulted_in(engine__nexus_families[f]);
    assert_true(panels > 0);
    assert_int_equal(generic_rows_defaulted(), 3 + 4 + 2 + 1 + 3 + 5 + panels);
}

static void test_bots__levels_parse(void **state)
{
    (void)state;
    uint8_t l[ENGINE_MAX_SEATS];
    size_t n;
    assert_int_equal(bot_levels_parse(l, ENGINE_MAX_SEATS, &n, "easy,medium,hard,brutal"), 0);
    assert_int_equal(n, 4);
    assert_int_equal(l[3], BOT_LEVEL_BRUTAL);
    assert_int_equal(bot_levels_parse(l, ENGINE_MAX_SEATS, &n, "hard"), 0);
    assert_int_equal(n, 1);
    assert_int_equal(bot_levels_parse(l, ENGINE_MAX_SEATS, &n, "easy,,hard"), -1);
    assert_int_equal(bot_levels_parse(l, ENGINE_MAX_SEATS, &n, "genius"), -1);
    assert_int_equal(bot_levels_parse(l, 2, &n, "easy,easy,easy"), -1);
    assert_string_equal(bot_level_name(BOT_LEVEL_MEDIUM), "medium");
    assert_null(bot_level_name(BOT_LEVEL_COUNT));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bots__every_level_completes_games_at_every_table_size),
        cmocka_unit_test(test_bots__mixed_levels_complete_games),
        cmocka_unit_test(test_bots__same_seeds_same_game),
        cmocka_unit_test(test_bots__another_seats_view_is_refused),
        cmocka_unit_test(test_bots__sampled_worlds_match_the_view),
        cmocka_unit_test(test_bots__choices_depend_on_the_view_alone),
        cmocka_unit_test(test_bots__hard_defends_an_imminent_stronghold_victory),
        cmocka_unit_test(test_bots__medium_advisors),
        cmocka_unit_test(test_bots__karama_shipment_answered),
        cmocka_unit_test(test_bots__nexus_panels_played),
        cmocka_unit_test(test_bots__nexus_guild_shipment_panels_played),
        cmocka_unit_test(test_bots__shipments_priced_as_the_engine_charges),
        cmocka_unit_test(test_bots__advanced_battles),
        cmocka_unit_test(test_bots__fremen_place_a_further_worm),
        cmocka_unit_test(test_bots__guild_delays_its_turn),
        cmocka_unit_test(test_bots__every_kind_and_row_has_a_decision),
        cmocka_unit_test(test_bots__levels_parse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
