/*
 * test_nexus.c - the lifecycle of the Nexus Cards module (engine/nexus.c;
 * EXPANSIONS_AND_NEXUS.md 5.1, E3 p.11): which rooms may carry it, the
 * draw opportunity at the end of the Spice Blow and Nexus phase (trigger
 * and non-trigger), draw, replace and decline as one opportunity, the
 * own-faction policies, the discard on an alliance formation, the
 * reshuffle of an exhausted deck, the modes by roster identity, what each
 * view shows, and the encoding. Positions are constructed (engine/
 * position.c) and then folded by engine_apply, as a room would be.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "engine/phase.h"

static const uint8_t SEED[ENGINE_SEED_BYTES] = {11};

/* Seats: Atreides and Harkonnen allied, Fremen and Guild unallied. */
enum { ATREIDES = 0, HARKONNEN = 1, FREMEN = 2, GUILD = 3, N_SEATS = 4 };

static void config(engine_config *cfg, uint32_t modules)
{
    engine_config_init(cfg);
    cfg->n_seats = N_SEATS;
    cfg->faction[ATREIDES] = ENGINE_FACTION_ATREIDES;
    cfg->faction[HARKONNEN] = ENGINE_FACTION_HARKONNEN;
    cfg->faction[FREMEN] = ENGINE_FACTION_FREMEN;
    cfg->faction[GUILD] = ENGINE_FACTION_GUILD;
    cfg->modules = modules;
}

static void act(engine_state *st, unsigned kind, unsigned seat, int a0, int a1, engine_rng *rng)
{
    engine_action a;
    memset(&a, 0, sizeof a);
    a.kind = (uint8_t)kind;
    a.seat = (uint8_t)seat;
    a.arg[0] = (int16_t)a0;
    a.arg[1] = (int16_t)a1;
    engine_verdict_detail why;
    engine_verdict v = engine_apply(&why, st, &a, rng);
    if (v != ENGINE_ACCEPTED)
        fail_msg("%s by seat %u refused: %s (arg %d)", engine_action_spec_of(kind)->name, seat,
                 engine_verdict_name(v), why.arg);
    assert_int_equal(engine_state_check(st), 0);
}

/* A position of turn 2 whose Spice Blow turns up a worm (so a Nexus) and
 * then a territory card; `allied`: Atreides and Harkonnen allied before
 * it. The game waits in the Nexus. */
static void nexus_position(engine_state *st, engine_rng *rng, uint32_t modules, int allied,
                           int worm)
{
    engine_config cfg;
    config(&cfg, modules);
    engine_rng_init(rng, SEED, 0);
    assert_int_equal(engine_position_new(NULL, st, &cfg, rng), ENGINE_ACCEPTED);
    if (allied)
        assert_int_equal(engine_position_alliance(st, ATREIDES, HARKONNEN), 0);
    int devoured = engine_spice_card_of(ENGINE_TERRITORY_CIELAGO_NORTH);
    int placed = engine_spice_card_of(ENGINE_TERRITORY_THE_GREAT_FLAT);
    assert_true(devoured >= 0 && placed >= 0);
    assert_int_equal(engine_position_spice_discard(st, (unsigned)devoured), 0);
    assert_int_equal(engine_position_spice_top(st, (unsigned)placed), 0);
    if (worm)
        assert_int_equal(engine_position_spice_top(st, (unsigned)engine_spice_worm(0)), 0);
    assert_int_equal(engine_position_enter(st, ENGINE_PHASE_SPICE_BLOW, 2, 9, rng), 0);
}

/* Every seat ends the Nexus; the game goes on to the draw or beyond. */
static void end_nexus(engine_state *st, engine_rng *rng)
{
    assert_int_equal(st->step, BLOW_STEP_NEXUS);
    for (unsigned s = 0; s < N_SEATS; s++)
        act(st, ENGINE_ACTION_NEXUS_DONE, s, 0, 0, rng);
}

static int face_of(const engine_state *st, int card)
{
    assert_true(card >= 0 && card < ENGINE_NEXUS_CARD_COUNT);
    return st->nexus_face[card];
}

/* ================================================= rooms that carry it */

static void test_nexus__rooms_that_may_carry_it(void **state)
{
    (void)state;
    engine_config cfg;
    engine_state st;
    engine_rng rng;
    engine_rng_init(&rng, SEED, 0);
    config(&cfg, ENGINE_MODULE_NEXUS_CARDS);
    assert_int_equal(engine_setup(NULL, &st, &cfg, &rng), ENGINE_ACCEPTED);
    assert_int_equal(st.n_nexus_deck, ENGINE_NEXUS_CARD_COUNT);
    /* All twelve faces, one each, whatever factions are seated. */
    uint32_t faces = 0;
    for (unsigned c = 0; c < ENGINE_NEXUS_CARD_COUNT; c++)
        faces |= 1u << st.nexus_face[c];
    assert_int_equal(faces, (1u << ENGINE_NEXUS_CARD_COUNT) - 1);
    /* Three seats are enough; two are not (nobody could be unallied). */
    cfg.n_seats = 3;
    assert_int_equal(engine_setup(NULL, &st, &cfg, &rng), ENGINE_ACCEPTED);
    cfg.n_seats = 2;
    assert_int_equal(engine_setup(NULL, &st, &cfg, &rng), ENGINE_REJECT_BAD_CONFIG);
    /* Modules come with rules version 5. */
    config(&cfg, ENGINE_MODULE_NEXUS_CARDS);
    cfg.rules_version = 4;
    assert_int_equal(engine_setup(NULL, &st, &cfg, &rng), ENGINE_REJECT_BAD_CONFIG);
    /* A module the engine does not have is refused as not implemented. */
    config(&cfg, ENGINE_MODULE_NEXUS_CARDS | 0x02u);
    assert_int_equal(engine_setup(NULL, &st, &cfg, &rng), ENGINE_REJECT_RULE_NOT_IMPLEMENTED);
    /* Without the module nothing of it is in the state. */
    config(&cfg, ENGINE_MODULE_NONE);
    assert_int_equal(engine_setup(NULL, &st, &cfg, &rng), ENGINE_ACCEPTED);
    assert_int_equal(st.n_nexus_deck, 0);
    assert_int_equal(engine_nexus_held(&st, 0), -1);
}

/* The module's block is encoded only in a room that carries it, so a
 * Basic version-5 room's encoding (and digests) are those without it. */
static void test_nexus__encoded_only_with_the_module(void **state)
{
    (void)state;
    engine_config cfg;
    engine_state on, off;
    engine_rng rng;
    config(&cfg, ENGINE_MODULE_NEXUS_CARDS);
    engine_rng_init(&rng, SEED, 0);
    assert_int_equal(engine_setup(NULL, &on, &cfg, &rng), ENGINE_ACCEPTED);
    config(&cfg, ENGINE_MODULE_NONE);
    engine_rng_init(&rng, SEED, 0);
    assert_int_equal(engine_setup(NULL, &off, &cfg, &rng), ENGINE_ACCEPTED);
    size_t n_on = engine_state_encode(NULL, 0, &on), n_off = engine_state_encode(NULL, 0, &off);
    /* 12 faces and components, two lists, the drawing mask, a policy a seat,
     * (rules version 6 on) the count of the panels' records, and (rules
     * version 7 on) the Nexus window's policy and its turn a seat and the
     * mask of its players. */
    assert_int_equal(n_on - n_off, 12u * 5u + 1u + 12u + 1u + 2u + N_SEATS + 1u + 2u * N_SEATS + 2u);
    uint8_t buf[ENGINE_STATE_ENCODED_MAX];
    engine_state back;
    assert_int_equal(engine_state_encode(buf, sizeof buf, &on), n_on);
    assert_int_equal(engine_state_decode(&back, buf, n_on), 0);
    uint8_t again[ENGINE_STATE_ENCODED_MAX];
    assert_int_equal(engine_state_encode(again, sizeof again, &back), n_on);
    assert_memory_equal(again, buf, n_on);
    assert_memory_equal(back.nexus_face, on.nexus_face, sizeof on.nexus_face);
    assert_memory_equal(back.nexus_deck, on.nexus_deck, sizeof on.nexus_deck);
    /* A seat holding two cards is not a state. */
    on.nexus_card[on.nexus_deck[0]].place = ENGINE_PLACE_HAND;
    on.nexus_card[on.nexus_deck[0]].holder = 2;
    on.nexus_card[on.nexus_deck[1]].place = ENGINE_PLACE_HAND;
    on.nexus_card[on.nexus_deck[1]].holder = 2;
    on.n_nexus_deck = (uint8_t)(on.n_nexus_deck - 2);
    memmove(on.nexus_deck, on.nexus_deck + 2, on.n_nexus_deck);
    size_t n = engine_state_encode(buf, sizeof buf, &on);
    assert_int_equal(engine_state_decode(&back, buf, n), -1);
}

/* ====================================================== the opportunity */

static void test_nexus__draw_opportunity_after_a_nexus_with_an_alliance(void **state)
{
    (void)state;
    engine_state st;
    engine_rng rng;
    nexus_position(&st, &rng, ENGINE_MODULE_NEXUS_CARDS, 1, 1);
    assert_true(st.is_nexus_this_phase);
    end_nexus(&st, &rng);
    /* The unallied seats are asked, the allies are not. */
    assert_int_equal(st.phase, ENGINE_PHASE_SPICE_BLOW);
    assert_int_equal(st.step, BLOW_STEP_NEXUS_DRAW);
    assert_int_equal(engine_state_awaiting(&st), (1u << FREMEN) | (1u << GUILD));
    engine_action a = {ENGINE_ACTION_NEXUS_DRAW, ATREIDES, {1, 0}};
    engine_state before = st;
    assert_int_equal(engine_apply(NULL, &st, &a, &rng), ENGINE_REJECT_NOT_AWAITED);
    a.seat = FREMEN;
    a.arg[0] = 2;
    assert_int_equal(engine_apply(NULL, &st, &a, &rng), ENGINE_REJECT_ARG_OUT_OF_RANGE);
    a.arg[0] = 1;
    a.arg[1] = ENGINE_NEXUS_POLICY_COUNT;
    assert_int_equal(engine_apply(NULL, &st, &a, &rng), ENGINE_REJECT_ARG_OUT_OF_RANGE);
    assert_memory_equal(&before, &st, sizeof st);
    /* Fremen draw, the Guild decline; nothing is dealt before the last answer. */
    act(&st, ENGINE_ACTION_NEXUS_DRAW, FREMEN, 1, ENGINE_NEXUS_KEEP, &rng);
    assert_int_equal(engine_nexus_held(&st, FREMEN), -1);
    assert_int_equal(st.step, BLOW_STEP_NEXUS_DRAW);
    act(&st, ENGINE_ACTION_NEXUS_DRAW, GUILD, 0, ENGINE_NEXUS_KEEP, &rng);
    int card = engine_nexus_held(&st, FREMEN);
    assert_true(card >= 0);
    assert_int_equal(engine_nexus_held(&st, GUILD), -1);
    assert_int_equal(st.nexus_card[card].known_by, 1u << FREMEN);
    assert_int_equal(st.n_nexus_deck, ENGINE_NEXUS_CARD_COUNT - 1);
    /* The phase is over: CHOAM Charity (or beyond) follows. */
    assert_int_not_equal(st.phase, ENGINE_PHASE_SPICE_BLOW);
}

/* An Advanced room (rules version 6) with the module: the double blow
 * has a Nexus after pile A and another after pile B (its worm strikes
 * nothing: pile B holds no territory card), and the draw opportunity comes
 * once, at the end of the whole phase, not after pile A; a pile B without
 * a worm does not clear the Nexus of pile A (ADVANCED_RULES.md 2.4, 8
 * item 1). */
static void advanced_blow(engine_state *st, engine_rng *rng, int worm_b)
{
    engine_config cfg;
    config(&cfg, ENGINE_MODULE_NEXUS_CARDS);
    cfg.is_advanced = 1;
    engine_rng_init(rng, SEED, 0);
    assert_int_equal(engine_position_new(NULL, st, &cfg, rng), ENGINE_ACCEPTED);
    assert_int_equal(engine_position_alliance(st, ATREIDES, HARKONNEN), 0);
    int top_a = engine_spice_card_of(ENGINE_TERRITORY_CIELAGO_NORTH);
    int card_a = engine_spice_card_of(ENGINE_TERRITORY_THE_GREAT_FLAT);
    int card_b = engine_spice_card_of(ENGINE_TERRITORY_SOUTH_MESA);
    assert_int_equal(engine_position_spice_discard(st, (unsigned)top_a), 0);
    /* Revealed from the last pushed: worm, The Great Flat (pile A), then
     * (worm,) South Mesa (pile B). */
    assert_int_equal(engine_position_spice_top(st, (unsigned)card_b), 0);
    if (worm_b)
        assert_int_equal(engine_position_spice_top(st, (unsigned)engine_spice_worm(1)), 0);
    assert_int_equal(engine_position_spice_top(st, (unsigned)card_a), 0);
    assert_int_equal(engine_position_spice_top(st, (unsigned)engine_spice_worm(0)), 0);
    assert_int_equal(engine_position_enter(st, ENGINE_PHASE_SPICE_BLOW, 2, 9, rng), 0);
}

static void test_nexus__advanced_double_blow_one_opportunity(void **state)
{
    (void)state;
    engine_state st;
    engine_rng rng;
    for (int worm_b = 1; worm_b >= 0; worm_b--) {
        advanced_blow(&st, &rng, worm_b);
        /* The Nexus of pile A, before pile B is revealed. */
        assert_int_equal(st.blow_pile, 0);
        assert_true(st.is_nexus_this_phase);
        end_nexus(&st, &rng);
        if (worm_b) {
            /* No draw after pile A: pile B's Nexus, its worm on no card. */
            assert_int_equal(st.step, BLOW_STEP_NEXUS);
            assert_int_equal(st.blow_pile, 1);
            assert_int_equal(st.n_spice_discard_b, 2);
            assert_true(st.is_nexus_this_phase);
            end_nexus(&st, &rng);
        }
        /* One opportunity, for the unallied seats, at the end of the phase. */
        assert_int_equal(st.phase, ENGINE_PHASE_SPICE_BLOW);
        assert_int_equal(st.step, BLOW_STEP_NEXUS_DRAW);
        assert_int_equal(engine_state_awaiting(&st), (1u << FREMEN) | (1u << GUILD));
        act(&st, ENGINE_ACTION_NEXUS_DRAW, FREMEN, 1, ENGINE_NEXUS_KEEP, &rng);
        act(&st, ENGINE_ACTION_NEXUS_DRAW, GUILD, 1, ENGINE_NEXUS_KEEP, &rng);
        assert_int_equal(st.n_nexus_deck, ENGINE_NEXUS_CARD_COUNT - 2);
        assert_int_not_equal(st.phase, ENGINE_PHASE_SPICE_BLOW);
    }
}

static void test_nexus__no_opportunity_without_alliance_nexus_or_module(void **state)
{
    (void)state;
    engine_state st;
    engine_rng rng;
    /* A Nexus, but no alliance at its end. */
    nexus_position(&st, &rng, ENGINE_MODULE_NEXUS_CARDS, 0, 1);
    end_nexus(&st, &rng);
    assert_int_not_equal(st.phase, ENGINE_PHASE_SPICE_BLOW);
    /* An alliance, but no Nexus this phase (no worm). */
    nexus_position(&st, &rng, ENGINE_MODULE_NEXUS_CARDS, 1, 0);
    assert_false(st.is_nexus_this_phase);
    assert_int_not_equal(st.phase, ENGINE_PHASE_SPICE_BLOW);
    /* Both, but no module: the game goes on exactly as before. */
    nexus_position(&st, &rng, ENGINE_MODULE_NONE, 1, 1);
    end_nexus(&st, &rng);
    assert_int_not_equal(st.phase, ENGINE_PHASE_SPICE_BLOW);
}

/* An alliance formed in this Nexus counts: the final alliances are read
 * when the opportunity opens, and the partners' cards are discarded at
 * the formation, in the accepted action. A refusal discards nothing. */
static void test_nexus__alliance_formation_discards_both_cards(void **state)
{
    (void)state;
    engine_state st;
    engine_rng rng;
    nexus_position(&st, &rng, ENGINE_MODULE_NEXUS_CARDS, 0, 1);
    int f = engine_position_nexus_give(&st, FREMEN, ENGINE_FACTION_ECAZ);
    int g = engine_position_nexus_give(&st, GUILD, ENGINE_FACTION_EMPEROR);
    int a = engine_position_nexus_give(&st, ATREIDES, ENGINE_FACTION_MORITANI);
    assert_true(f >= 0 && g >= 0 && a >= 0);
    assert_int_equal(engine_state_check(&st), 0);
    /* A proposal and its refusal: nothing is discarded. */
    act(&st, ENGINE_ACTION_ALLIANCE_PROPOSE, ATREIDES, ENGINE_FACTION_FREMEN, 0, &rng);
    act(&st, ENGINE_ACTION_ALLIANCE_REFUSE, FREMEN, ENGINE_FACTION_ATREIDES, 0, &rng);
    assert_int_equal(engine_nexus_held(&st, FREMEN), f);
    assert_int_equal(engine_nexus_held(&st, ATREIDES), a);
    /* Fremen and Guild ally: both discard, the Atreides keep theirs. */
    act(&st, ENGINE_ACTION_ALLIANCE_PROPOSE, FREMEN, ENGINE_FACTION_GUILD, 0, &rng);
    act(&st, ENGINE_ACTION_ALLIANCE_ACCEPT, GUILD, ENGINE_FACTION_FREMEN, 0, &rng);
    assert_int_equal(engine_nexus_held(&st, FREMEN), -1);
    assert_int_equal(engine_nexus_held(&st, GUILD), -1);
    assert_int_equal(st.nexus_card[f].place, ENGINE_PLACE_DISCARD);
    assert_int_equal(st.nexus_card[g].place, ENGINE_PLACE_DISCARD);
    assert_int_equal(st.n_nexus_discard, 2);
    /* Discarded unplayed: the table is not shown them. */
    assert_false(st.nexus_card[f].known_by & ENGINE_KNOWN_PUBLIC);
    assert_int_equal(engine_nexus_held(&st, ATREIDES), a);
    end_nexus(&st, &rng);
    /* The opportunity asks the unallied Atreides and Harkonnen. */
    assert_int_equal(st.step, BLOW_STEP_NEXUS_DRAW);
    assert_int_equal(engine_state_awaiting(&st), (1u << ATREIDES) | (1u << HARKONNEN));
}

/* A seat holding a card that draws replaces it: its card to the discard
 * first, then the deck's top card. */
static void test_nexus__replace_discards_first(void **state)
{
    (void)state;
    engine_state st;
    engine_rng rng;
    nexus_position(&st, &rng, ENGINE_MODULE_NEXUS_CARDS, 1, 1);
    int old = engine_position_nexus_give(&st, GUILD, ENGINE_FACTION_RICHESE);
    assert_int_equal(engine_position_nexus_top(&st, ENGINE_FACTION_TLEILAXU), 0);
    end_nexus(&st, &rng);
    act(&st, ENGINE_ACTION_NEXUS_DRAW, FREMEN, 0, ENGINE_NEXUS_KEEP, &rng);
    act(&st, ENGINE_ACTION_NEXUS_DRAW, GUILD, 1, ENGINE_NEXUS_KEEP, &rng);
    int now = engine_nexus_held(&st, GUILD);
    assert_int_equal(face_of(&st, now), ENGINE_FACTION_TLEILAXU);
    assert_int_equal(st.nexus_card[old].place, ENGINE_PLACE_DISCARD);
    assert_int_equal(st.nexus_card[old].known_by, 1u << GUILD); /* still its own knowledge */
}

/* Dealing order among several drawers is storm order (docs/RULINGS.md). */
static void test_nexus__drawers_dealt_in_storm_order(void **state)
{
    (void)state;
    engine_state st;
    engine_rng rng;
    nexus_position(&st, &rng, ENGINE_MODULE_NEXUS_CARDS, 1, 1);
    assert_int_equal(engine_position_nexus_top(&st, ENGINE_FACTION_CHOAM), 0);
    assert_int_equal(engine_position_nexus_top(&st, ENGINE_FACTION_ECAZ), 0); /* top */
    end_nexus(&st, &rng);
    uint8_t order[ENGINE_MAX_SEATS];
    engine__storm_order(&st, order);
    unsigned first = 0;
    for (unsigned i = 0; i < N_SEATS; i++)
        if (order[i] == FREMEN || order[i] == GUILD) {
            first = order[i];
            break;
        }
    /* The Guild answer first; dealing still follows storm order. */
    act(&st, ENGINE_ACTION_NEXUS_DRAW, GUILD, 1, ENGINE_NEXUS_KEEP, &rng);
    act(&st, ENGINE_ACTION_NEXUS_DRAW, FREMEN, 1, ENGINE_NEXUS_KEEP, &rng);
    unsigned second = first == FREMEN ? GUILD : FREMEN;
    assert_int_equal(face_of(&st, engine_nexus_held(&st, first)), ENGINE_FACTION_ECAZ);
    assert_int_equal(face_of(&st, engine_nexus_held(&st, second)), ENGINE_FACTION_CHOAM);
}

/* ================================================ own-faction policies */

/* The Fremen's own card on top, the Guild's under it: keep keeps it, a
 * redraw discards it and takes the next, inside the same fold. */
static int fremen_draw_with(unsigned policy, engine_state *st)
{
    engine_rng rng;
    nexus_position(st, &rng, ENGINE_MODULE_NEXUS_CARDS, 1, 1);
    assert_int_equal(engine_position_nexus_top(st, ENGINE_FACTION_GUILD), 0);
    assert_int_equal(engine_position_nexus_top(st, ENGINE_FACTION_FREMEN), 0);
    end_nexus(st, &rng);
    act(st, ENGINE_ACTION_NEXUS_DRAW, FREMEN, 1, (int)policy, &rng);
    act(st, ENGINE_ACTION_NEXUS_DRAW, GUILD, 0, ENGINE_NEXUS_KEEP, &rng);
    return face_of(st, engine_nexus_held(st, FREMEN));
}

static void test_nexus__own_faction_policies(void **state)
{
    (void)state;
    engine_state keep, once, always;
    assert_int_equal(fremen_draw_with(ENGINE_NEXUS_KEEP, &keep), ENGINE_FACTION_FREMEN);
    assert_int_equal(fremen_draw_with(ENGINE_NEXUS_REDRAW_ONCE, &once), ENGINE_FACTION_GUILD);
    assert_int_equal(fremen_draw_with(ENGINE_NEXUS_REDRAW_ALWAYS, &always), ENGINE_FACTION_GUILD);
    assert_int_equal(keep.n_nexus_discard, 0);
    assert_int_equal(once.n_nexus_discard, 1); /* the physical intermediate discard */
    /* The policy is gone once the opportunity closes. */
    assert_int_equal(once.nexus_policy[FREMEN], 0);
    /* What the public and the Guild see does not tell a redraw from a
     * keep: the same cards held, the rest only "not held". */
    for (unsigned viewer = GUILD; viewer <= ENGINE_VIEW_PUBLIC; viewer += ENGINE_VIEW_PUBLIC - GUILD) {
        engine_state vk, vo;
        engine_view(&vk, &keep, (uint8_t)viewer);
        engine_view(&vo, &once, (uint8_t)viewer);
        assert_int_equal(vk.n_nexus_deck + vk.n_nexus_discard, 0);
        assert_int_equal(vo.n_nexus_deck + vo.n_nexus_discard, 0);
        for (unsigned c = 0; c < ENGINE_NEXUS_CARD_COUNT; c++) {
            assert_int_equal(vk.nexus_face[c], ENGINE_UNKNOWN);
            assert_int_equal(vo.nexus_face[c], ENGINE_UNKNOWN);
            assert_true(vk.nexus_card[c].place == ENGINE_PLACE_HAND ||
                        vk.nexus_card[c].place == ENGINE_PLACE_HIDDEN);
            assert_true(vo.nexus_card[c].place == ENGINE_PLACE_HAND ||
                        vo.nexus_card[c].place == ENGINE_PLACE_HIDDEN);
            assert_int_equal(vk.nexus_card[c].known_by, 0);
        }
        /* ... and the very same card numbers held. */
        for (unsigned s = 0; s < N_SEATS; s++)
            assert_int_equal(engine_nexus_held(&vk, s), engine_nexus_held(&vo, s));
    }
    /* The Fremen know their card, and the one they discarded. */
    engine_state mine;
    engine_view(&mine, &once, FREMEN);
    assert_int_equal(mine.nexus_face[engine_nexus_held(&once, FREMEN)], ENGINE_FACTION_GUILD);
    assert_int_equal(mine.nexus_face[once.nexus_discard[0]], ENGINE_FACTION_FREMEN);
}

/* Redraw whenever: its own card is never kept, even when the deck runs
 * out under it and the reshuffle brings it back. */
static void test_nexus__redraw_whenever_through_a_reshuffle(void **state)
{
    (void)state;
    for (uint8_t seed = 0; seed < 16; seed++) {
        engine_state st;
        engine_rng rng;
        nexus_position(&st, &rng, ENGINE_MODULE_NEXUS_CARDS, 1, 1);
        for (unsigned f = 0; f < ENGINE_NEXUS_CARD_COUNT; f++)
            if (f != ENGINE_FACTION_FREMEN)
                assert_int_equal(engine_position_nexus_discard(&st, f), 0);
        assert_int_equal(st.n_nexus_deck, 1);
        end_nexus(&st, &rng);
        uint8_t event_seed[ENGINE_SEED_BYTES] = {seed};
        engine_rng_init(&rng, event_seed, 100u + seed);
        act(&st, ENGINE_ACTION_NEXUS_DRAW, FREMEN, 1, ENGINE_NEXUS_REDRAW_ALWAYS, &rng);
        act(&st, ENGINE_ACTION_NEXUS_DRAW, GUILD, 0, ENGINE_NEXUS_KEEP, &rng);
        int c = engine_nexus_held(&st, FREMEN);
        assert_true(c >= 0);
        assert_int_not_equal(face_of(&st, c), ENGINE_FACTION_FREMEN);
        /* The reshuffled cards are known to nobody, but the one redrawn. */
        for (unsigned k = 0; k < ENGINE_NEXUS_CARD_COUNT; k++)
            if (st.nexus_card[k].place == ENGINE_PLACE_DECK)
                assert_int_equal(st.nexus_card[k].known_by, 0);
    }
}

/* Exhaustion: the discard pile is shuffled into a new deck, its faces
 * dealt anew to its card numbers. */
static void test_nexus__exhausted_deck_reshuffles_the_discard(void **state)
{
    (void)state;
    engine_state st;
    engine_rng rng;
    nexus_position(&st, &rng, ENGINE_MODULE_NEXUS_CARDS, 1, 1);
    for (unsigned f = 0; f < ENGINE_NEXUS_CARD_COUNT; f++)
        if (f != ENGINE_FACTION_IXIANS)
            assert_int_equal(engine_position_nexus_discard(&st, f), 0);
    end_nexus(&st, &rng);
    act(&st, ENGINE_ACTION_NEXUS_DRAW, FREMEN, 1, ENGINE_NEXUS_KEEP, &rng);
    act(&st, ENGINE_ACTION_NEXUS_DRAW, GUILD, 1, ENGINE_NEXUS_KEEP, &rng);
    /* One card was left: one drawer took it, the other drew from the
     * reshuffled discard. */
    assert_true(engine_nexus_held(&st, FREMEN) >= 0 && engine_nexus_held(&st, GUILD) >= 0);
    assert_int_equal(st.n_nexus_discard, 0);
    assert_int_equal(st.n_nexus_deck, ENGINE_NEXUS_CARD_COUNT - 2);
}

/* ================================================================ modes */

static void test_nexus__mode_by_native_roster_identity(void **state)
{
    (void)state;
    engine_state st;
    engine_rng rng;
    nexus_position(&st, &rng, ENGINE_MODULE_NEXUS_CARDS, 1, 1);
    assert_int_equal(engine_nexus_mode_of(&st, FREMEN, ENGINE_FACTION_FREMEN), ENGINE_NEXUS_CUNNING);
    assert_int_equal(engine_nexus_mode_of(&st, FREMEN, ENGINE_FACTION_ATREIDES),
                     ENGINE_NEXUS_BETRAYAL);
    /* The ally's card is a Betrayal too: an alliance changes no identity. */
    assert_int_equal(engine_nexus_mode_of(&st, ATREIDES, ENGINE_FACTION_HARKONNEN),
                     ENGINE_NEXUS_BETRAYAL);
    /* Fewer than six classic factions: an absent classic faction's card,
     * and every expansion faction's, is a Secret Ally. */
    assert_int_equal(engine_nexus_mode_of(&st, FREMEN, ENGINE_FACTION_EMPEROR),
                     ENGINE_NEXUS_SECRET_ALLY);
    assert_int_equal(engine_nexus_mode_of(&st, FREMEN, ENGINE_FACTION_BENE_GESSERIT),
                     ENGINE_NEXUS_SECRET_ALLY);
    assert_int_equal(engine_nexus_mode_of(&st, GUILD, ENGINE_FACTION_MORITANI),
                     ENGINE_NEXUS_SECRET_ALLY);
    assert_int_equal(engine_nexus_mode_of(&st, N_SEATS, ENGINE_FACTION_FREMEN), -1);
    /* Every face has its three panels' reference and matrix rows. */
    for (unsigned f = 0; f < ENGINE_NEXUS_CARD_COUNT; f++)
        for (unsigned m = 0; m < ENGINE_NEXUS_MODE_COUNT; m++) {
            assert_non_null(engine_nexus_panel_text(f, m));
            /* the matrix lists Betrayal, Cunning, Secret Ally */
            assert_int_equal(engine_nexus_panel_row(f, m),
                             3 * f + (m == ENGINE_NEXUS_BETRAYAL ? 1 : m == ENGINE_NEXUS_CUNNING ? 2 : 3));
        }
}

/* ================================================================ views */

/* Held identities and policies are private; who holds a card is public. */
static void test_nexus__views_keep_the_secrets(void **state)
{
    (void)state;
    engine_state st;
    engine_rng rng;
    nexus_position(&st, &rng, ENGINE_MODULE_NEXUS_CARDS, 1, 1);
    int held = engine_position_nexus_give(&st, GUILD, ENGINE_FACTION_ECAZ);
    end_nexus(&st, &rng);
    act(&st, ENGINE_ACTION_NEXUS_DRAW, FREMEN, 1, ENGINE_NEXUS_REDRAW_ONCE, &rng);
    engine_state v;
    engine_view(&v, &st, ENGINE_VIEW_PUBLIC);
    assert_int_equal(v.nexus_policy[FREMEN], ENGINE_UNKNOWN);
    assert_int_equal(v.nexus_drawing, 1u << FREMEN); /* the answer itself is public */
    assert_int_equal(engine_nexus_held(&v, GUILD), held);
    assert_int_equal(v.nexus_face[held], ENGINE_UNKNOWN);
    engine_view(&v, &st, FREMEN);
    assert_int_equal(v.nexus_policy[FREMEN], ENGINE_NEXUS_REDRAW_ONCE);
    assert_int_equal(v.nexus_face[held], ENGINE_UNKNOWN);
    engine_view(&v, &st, GUILD);
    assert_int_equal(v.nexus_face[held], ENGINE_FACTION_ECAZ);
    assert_int_equal(v.nexus_policy[FREMEN], ENGINE_UNKNOWN);
    for (unsigned i = 0; i < ENGINE_NEXUS_CARD_COUNT; i++)
        assert_int_equal(v.nexus_deck[i], ENGINE_UNKNOWN);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nexus__rooms_that_may_carry_it),
        cmocka_unit_test(test_nexus__encoded_only_with_the_module),
        cmocka_unit_test(test_nexus__draw_opportunity_after_a_nexus_with_an_alliance),
        cmocka_unit_test(test_nexus__no_opportunity_without_alliance_nexus_or_module),
        cmocka_unit_test(test_nexus__advanced_double_blow_one_opportunity),
        cmocka_unit_test(test_nexus__alliance_formation_discards_both_cards),
        cmocka_unit_test(test_nexus__replace_discards_first),
        cmocka_unit_test(test_nexus__drawers_dealt_in_storm_order),
        cmocka_unit_test(test_nexus__own_faction_policies),
        cmocka_unit_test(test_nexus__redraw_whenever_through_a_reshuffle),
        cmocka_unit_test(test_nexus__exhausted_deck_reshuffles_the_discard),
        cmocka_unit_test(test_nexus__mode_by_native_roster_identity),
        cmocka_unit_test(test_nexus__views_keep_the_secrets),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
