/*
 * test_facts.c - the engine's read-only facts (engine.h "Facts") against
 * DUNE_RULES_DIGEST.md and against the fold itself: card classes (2.1),
 * the five strongholds and the terrain (1.2), storm protection with and
 * without the Shield Wall (1.3), faction titles, free revivals and
 * traitors kept and elite forces (3.2), the Fremen's opening (3.2),
 * ornithopters and the collection rate (4.6, 4.8), and the shipping price. Where a fact has a rule
 * behind it, the test plays the rule: the storm spares exactly the
 * territories called safe, exactly the five strongholds count for
 * victory, a shipment costs exactly the price given.
 *
 * Expectations are copied from the digest by hand; the suite includes only
 * the public header, as a client would.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "engine/engine.h"

static const uint8_t SEED[ENGINE_SEED_BYTES] = {47};

/* ========================================================== card kinds */

/* Section 2.1, the "Type" column. */
static void test_facts__card_classes(void **state)
{
    (void)state;
    static const unsigned expected[ENGINE_CARD_KIND_COUNT] = {
        [ENGINE_CARD_LASGUN] = ENGINE_CARD_CLASS_WEAPON_SPECIAL,
        [ENGINE_CARD_CRYSKNIFE] = ENGINE_CARD_CLASS_WEAPON_PROJECTILE,
        [ENGINE_CARD_MAULA_PISTOL] = ENGINE_CARD_CLASS_WEAPON_PROJECTILE,
        [ENGINE_CARD_SLIP_TIP] = ENGINE_CARD_CLASS_WEAPON_PROJECTILE,
        [ENGINE_CARD_STUNNER] = ENGINE_CARD_CLASS_WEAPON_PROJECTILE,
        [ENGINE_CARD_CHAUMAS] = ENGINE_CARD_CLASS_WEAPON_POISON,
        [ENGINE_CARD_CHAUMURKY] = ENGINE_CARD_CLASS_WEAPON_POISON,
        [ENGINE_CARD_ELLACA_DRUG] = ENGINE_CARD_CLASS_WEAPON_POISON,
        [ENGINE_CARD_GOM_JABBAR] = ENGINE_CARD_CLASS_WEAPON_POISON,
        [ENGINE_CARD_SHIELD] = ENGINE_CARD_CLASS_DEFENSE_PROJECTILE,
        [ENGINE_CARD_SNOOPER] = ENGINE_CARD_CLASS_DEFENSE_POISON,
        [ENGINE_CARD_CHEAP_HERO] = ENGINE_CARD_CLASS_LEADER,
        [ENGINE_CARD_TLEILAXU_GHOLA] = ENGINE_CARD_CLASS_SPECIAL,
        [ENGINE_CARD_FAMILY_ATOMICS] = ENGINE_CARD_CLASS_SPECIAL,
        [ENGINE_CARD_WEATHER_CONTROL] = ENGINE_CARD_CLASS_SPECIAL,
        [ENGINE_CARD_HAJR] = ENGINE_CARD_CLASS_SPECIAL,
        [ENGINE_CARD_KARAMA] = ENGINE_CARD_CLASS_SPECIAL,
        [ENGINE_CARD_TRUTHTRANCE] = ENGINE_CARD_CLASS_SPECIAL,
        [ENGINE_CARD_BALISET] = ENGINE_CARD_CLASS_WORTHLESS,
        [ENGINE_CARD_JUBBA_CLOAK] = ENGINE_CARD_CLASS_WORTHLESS,
        [ENGINE_CARD_KULON] = ENGINE_CARD_CLASS_WORTHLESS,
        [ENGINE_CARD_LA_LA_LA] = ENGINE_CARD_CLASS_WORTHLESS,
        [ENGINE_CARD_TRIP_TO_GAMONT] = ENGINE_CARD_CLASS_WORTHLESS,
    };
    for (unsigned k = 0; k < ENGINE_CARD_KIND_COUNT; k++)
        assert_int_equal(engine_card_kind_classes(k), expected[k]);
    assert_int_equal(engine_card_kind_classes(ENGINE_CARD_KIND_COUNT), 0);
    assert_int_equal(engine_card_kind_classes(ENGINE_CARD_KIND_UNKNOWN), 0);
}

/* ========================================================= territories */

/* Section 1.2: the five strongholds of the board (the HMS, a stronghold
 * token of the Ixians, has the terrain but is not one of them). */
static void test_facts__strongholds(void **state)
{
    (void)state;
    static const unsigned five[ENGINE_STRONGHOLD_COUNT] = {
        ENGINE_TERRITORY_CARTHAG, ENGINE_TERRITORY_ARRAKEEN, ENGINE_TERRITORY_TUEKS_SIETCH,
        ENGINE_TERRITORY_SIETCH_TABR, ENGINE_TERRITORY_HABBANYA_SIETCH,
    };
    for (unsigned i = 0; i < ENGINE_STRONGHOLD_COUNT; i++)
        assert_int_equal(engine_stronghold(i), five[i]);
    assert_int_equal(engine_stronghold(ENGINE_STRONGHOLD_COUNT), ENGINE_TERRITORY_COUNT);
    unsigned n = 0;
    for (unsigned t = 0; t <= ENGINE_TERRITORY_COUNT; t++)
        n += (unsigned)engine_territory_is_stronghold(t);
    assert_int_equal(n, ENGINE_STRONGHOLD_COUNT);
    assert_false(engine_territory_is_stronghold(ENGINE_TERRITORY_HIDDEN_MOBILE_STRONGHOLD));
    assert_int_equal(engine_territory_terrain(ENGINE_TERRITORY_HIDDEN_MOBILE_STRONGHOLD),
                     ENGINE_TERRAIN_STRONGHOLD);
    assert_int_equal(engine_territory_terrain(ENGINE_TERRITORY_POLAR_SINK), ENGINE_TERRAIN_POLAR_SINK);
    assert_int_equal(engine_territory_terrain(ENGINE_TERRITORY_IMPERIAL_BASIN),
                     ENGINE_TERRAIN_SHIELDED_SAND);
    assert_int_equal(engine_territory_terrain(ENGINE_TERRITORY_SHIELD_WALL), ENGINE_TERRAIN_ROCK);
    assert_int_equal(engine_territory_terrain(ENGINE_TERRITORY_THE_GREAT_FLAT), ENGINE_TERRAIN_SAND);
    assert_int_equal(engine_territory_terrain(ENGINE_TERRITORY_COUNT), -1);
}

/* Section 1.3: strongholds, the seven rock territories, the Polar Sink
 * and, while the Shield Wall stands, the Imperial Basin; Family Atomics
 * opens the Imperial Basin, Arrakeen and Carthag. */
static int digest_storm_safe(unsigned t, int is_wall_down)
{
    switch ((engine_territory)t) {
    case ENGINE_TERRITORY_IMPERIAL_BASIN:
    case ENGINE_TERRITORY_ARRAKEEN:
    case ENGINE_TERRITORY_CARTHAG:
        return !is_wall_down;
    case ENGINE_TERRITORY_POLAR_SINK:
    case ENGINE_TERRITORY_TUEKS_SIETCH:
    case ENGINE_TERRITORY_SIETCH_TABR:
    case ENGINE_TERRITORY_HABBANYA_SIETCH:
    case ENGINE_TERRITORY_HIDDEN_MOBILE_STRONGHOLD:
    case ENGINE_TERRITORY_FALSE_WALL_SOUTH:
    case ENGINE_TERRITORY_FALSE_WALL_EAST:
    case ENGINE_TERRITORY_FALSE_WALL_WEST:
    case ENGINE_TERRITORY_PASTY_MESA:
    case ENGINE_TERRITORY_PLASTIC_BASIN:
    case ENGINE_TERRITORY_RIM_WALL_WEST:
    case ENGINE_TERRITORY_SHIELD_WALL:
        return 1;
    default:
        return 0;
    }
}

/* A constructed table of the three seats (positions start with every
 * force in reserve and no card in hand). */
static void table(engine_state *st, const uint8_t factions[3])
{
    engine_config cfg;
    engine_config_init(&cfg);
    cfg.n_seats = 3;
    memcpy(cfg.faction, factions, 3);
    engine_rng rng;
    engine_rng_init(&rng, SEED, 0);
    assert_int_equal(engine_position_new(NULL, st, &cfg, &rng), ENGINE_ACCEPTED);
}

static const uint8_t PLAIN[3] = {ENGINE_FACTION_ATREIDES, ENGINE_FACTION_HARKONNEN,
                                 ENGINE_FACTION_EMPEROR};

static void test_facts__storm_safety_is_the_digests(void **state)
{
    (void)state;
    engine_state st;
    table(&st, PLAIN);
    for (int down = 0; down <= 1; down++) {
        st.is_shield_wall_down = (uint8_t)down;
        for (unsigned t = 0; t < ENGINE_TERRITORY_COUNT; t++)
            assert_int_equal(engine_territory_is_storm_safe(&st, t), digest_storm_safe(t, down));
        assert_false(engine_territory_is_storm_safe(&st, ENGINE_TERRITORY_COUNT));
    }
}

/* The storm's fold agrees: a force on every location of a sector, the
 * first storm sweeping the whole map (a move of 18 or more), and the
 * survivors are the forces on storm-safe territories, with and without
 * the wall. */
static void test_facts__storm_spares_the_safe(void **state)
{
    (void)state;
    for (int down = 0; down <= 1; down++) {
        unsigned next = 0; /* next location to try */
        while (next < ENGINE_LOCATION_COUNT) {
            engine_state st;
            table(&st, PLAIN);
            st.is_shield_wall_down = (uint8_t)down;
            unsigned placed[ENGINE_LOCATION_COUNT], n = 0;
            for (; next < ENGINE_LOCATION_COUNT && st.seat[0].reserves > 0; next++)
                if (engine_location_sector(next) != ENGINE_NO_SECTOR) {
                    assert_int_equal(engine_position_forces(&st, 0, next, 1, 0), 0);
                    placed[n++] = next;
                }
            engine_rng rng;
            engine_rng_init(&rng, SEED, 1);
            assert_int_equal(engine_position_enter(&st, ENGINE_PHASE_STORM, 1, 0, &rng), 0);
            assert_int_equal(st.is_shield_wall_down, down);
            engine_state before = st;
            for (uint8_t s = 0; s < 3; s++) {
                if (!(engine_state_awaiting(&st) & (1u << s)))
                    continue;
                engine_action dial = {ENGINE_ACTION_STORM_DIAL, s, {10}};
                engine_rng_init(&rng, SEED, 2u + s);
                assert_int_equal(engine_apply(NULL, &st, &dial, &rng), ENGINE_ACCEPTED);
            }
            assert_int_equal(st.last_storm_move, 20);
            for (unsigned i = 0; i < n; i++) {
                unsigned t = engine_location_territory(placed[i]);
                assert_int_equal(st.forces[placed[i]][0],
                                 engine_territory_is_storm_safe(&before, t) ? 1 : 0);
            }
        }
    }
}

/* The victory rule agrees: a seat alone in any three of the five wins at
 * the Mentat Pause; two of them and any other territory do not. */
static void pause_with(engine_state *st, const unsigned *territories, unsigned n)
{
    table(st, PLAIN);
    for (unsigned i = 0; i < n; i++) {
        int sector = -1;
        for (int s = 0; s < ENGINE_SECTOR_COUNT && sector < 0; s++)
            if (engine_location_find(territories[i], s) >= 0)
                sector = s;
        int loc = engine_location_find(territories[i], sector < 0 ? ENGINE_NO_SECTOR : sector);
        assert_true(loc >= 0);
        assert_int_equal(engine_position_forces(st, 1, (unsigned)loc, 1, 0), 0);
    }
    engine_rng rng;
    engine_rng_init(&rng, SEED, 1);
    assert_int_equal(engine_position_enter(st, ENGINE_PHASE_MENTAT_PAUSE, 2, 0, &rng), 0);
}

static void test_facts__the_five_win(void **state)
{
    (void)state;
    for (unsigned a = 0; a < ENGINE_STRONGHOLD_COUNT; a++)
        for (unsigned b = a + 1; b < ENGINE_STRONGHOLD_COUNT; b++)
            for (unsigned c = b + 1; c < ENGINE_STRONGHOLD_COUNT; c++) {
                unsigned three[3] = {engine_stronghold(a), engine_stronghold(b),
                                     engine_stronghold(c)};
                engine_state st;
                pause_with(&st, three, 3);
                assert_int_equal(st.phase, ENGINE_PHASE_GAME_OVER);
                assert_int_equal(st.winners, 1u << 1);
                assert_int_equal(st.victory_kind, ENGINE_VICTORY_STRONGHOLDS);
            }
    for (unsigned t = 0; t < ENGINE_TERRITORY_HIDDEN_MOBILE_STRONGHOLD; t++) {
        if (engine_territory_is_stronghold(t))
            continue;
        unsigned three[3] = {engine_stronghold(0), engine_stronghold(1), t};
        engine_state st;
        pause_with(&st, three, 3);
        assert_true(st.phase != ENGINE_PHASE_GAME_OVER || st.victory_kind != ENGINE_VICTORY_STRONGHOLDS);
    }
}

/* ============================================================ factions */

/* Section 3.2: free revivals and traitors kept of the six classic
 * factions; the titles sentences use. */
static void test_facts__factions(void **state)
{
    (void)state;
    static const struct {
        unsigned faction, free_revival, traitors;
        const char *title;
    } rows[] = {
        {ENGINE_FACTION_ATREIDES, 2, 1, "Atreides"},
        {ENGINE_FACTION_BENE_GESSERIT, 1, 1, "Bene Gesserit"},
        {ENGINE_FACTION_EMPEROR, 1, 1, "Emperor"},
        {ENGINE_FACTION_FREMEN, 3, 1, "Fremen"},
        {ENGINE_FACTION_HARKONNEN, 2, 4, "Harkonnen"},
        {ENGINE_FACTION_GUILD, 1, 1, "Guild"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        assert_int_equal(engine_faction_free_revival(rows[i].faction), rows[i].free_revival);
        assert_int_equal(engine_faction_traitors_kept(rows[i].faction), rows[i].traitors);
        assert_true(engine_faction_traitors_kept(rows[i].faction) <= ENGINE_TRAITORS_DEALT);
        assert_string_equal(engine_faction_title(rows[i].faction), rows[i].title);
    }
    assert_string_equal(engine_faction_elite_name(ENGINE_FACTION_EMPEROR), "Sardaukar");
    assert_string_equal(engine_faction_elite_name(ENGINE_FACTION_FREMEN), "Fedaykin");
    assert_null(engine_faction_elite_name(ENGINE_FACTION_ATREIDES));
    assert_null(engine_faction_elite_name(ENGINE_FACTION_COUNT));
    assert_string_equal(engine_faction_title(ENGINE_FACTION_NONE), "?");
    assert_int_equal(engine_faction_free_revival(ENGINE_FACTION_COUNT), 0);
    assert_int_equal(engine_faction_traitors_kept(ENGINE_FACTION_COUNT), 0);
}

/* ===================================================== Fremen opening */

/* Section 3.2: the Fremen place their 10 among Sietch Tabr, False Wall
 * South and False Wall West; the setup's fold lands each argument there
 * and refuses any other total. */
static void test_facts__fremen_opening(void **state)
{
    (void)state;
    static const unsigned where[3] = {ENGINE_TERRITORY_SIETCH_TABR,
                                      ENGINE_TERRITORY_FALSE_WALL_SOUTH,
                                      ENGINE_TERRITORY_FALSE_WALL_WEST};
    assert_int_equal(ENGINE_FREMEN_START_TERRITORIES, 3);
    assert_int_equal(ENGINE_FREMEN_START_FORCES, 10);
    for (unsigned i = 0; i < 3; i++)
        assert_int_equal(engine_fremen_start_territory(i), where[i]);
    assert_int_equal(engine_fremen_start_territory(3), ENGINE_TERRITORY_COUNT);
    /* Section 4.10: the special victory's Sietch Tabr and Habbanya Sietch. */
    for (unsigned t = 0; t <= ENGINE_TERRITORY_COUNT; t++)
        assert_int_equal(engine_territory_is_fremen_sietch(t),
                         t == ENGINE_TERRITORY_SIETCH_TABR || t == ENGINE_TERRITORY_HABBANYA_SIETCH);

    engine_config cfg;
    engine_config_init(&cfg);
    cfg.n_seats = 3;
    memcpy(cfg.faction, (const uint8_t[3]){ENGINE_FACTION_FREMEN, ENGINE_FACTION_ATREIDES,
                                           ENGINE_FACTION_HARKONNEN}, 3);
    engine_rng rng;
    engine_rng_init(&rng, SEED, 0);
    engine_state st;
    assert_int_equal(engine_setup(NULL, &st, &cfg, &rng), ENGINE_ACCEPTED);
    static engine_legal legal[ENGINE_LEGAL_MAX];
    for (unsigned guard = 0; guard < 16 && st.phase == ENGINE_PHASE_SETUP &&
                             st.step != ENGINE_SETUP_STEP_FREMEN; guard++) {
        size_t n = engine_legal_actions(legal, ENGINE_LEGAL_MAX, &st, ENGINE_SEAT_ENGINE);
        size_t i = 0;
        while (i < n && legal[i].kind != ENGINE_ACTION_TRAITOR_PICK)
            i++;
        assert_true(i < n);
        engine_action pick = {legal[i].kind, legal[i].seat, {legal[i].lo[0]}};
        assert_int_equal(engine_apply(NULL, &st, &pick, &rng), ENGINE_ACCEPTED);
    }
    assert_int_equal(st.step, ENGINE_SETUP_STEP_FREMEN);
    engine_state refused = st;
    engine_action wrong = {ENGINE_ACTION_FREMEN_PLACE, 0, {4, 3, 2}};
    assert_int_equal(engine_apply(NULL, &refused, &wrong, &rng), ENGINE_REJECT_FREMEN_PLACEMENT_TOTAL);
    engine_action place = {ENGINE_ACTION_FREMEN_PLACE, 0, {5, 3, 2}};
    assert_int_equal(engine_apply(NULL, &st, &place, &rng), ENGINE_ACCEPTED);
    for (unsigned i = 0; i < 3; i++) {
        unsigned n = 0;
        for (unsigned l = 0; l < ENGINE_LOCATION_COUNT; l++)
            if (engine_location_territory(l) == where[i])
                n += st.forces[l][0];
        assert_int_equal(n, (unsigned)place.arg[i]);
    }
}

/* ======================================================== ornithopters */

/* Sections 4.6 and 4.8: a seat with forces in Arrakeen or Carthag has
 * ornithopters, and nowhere else; at Spice Collection each of its forces
 * collects the rate given (3, else 2). */
static void test_facts__ornithopters_collect_at_the_rate_given(void **state)
{
    (void)state;
    int spice_loc = -1;
    for (unsigned l = 0; l < ENGINE_LOCATION_COUNT && spice_loc < 0; l++)
        if (engine_location_territory(l) == ENGINE_TERRITORY_THE_GREAT_FLAT)
            spice_loc = (int)l;
    assert_true(spice_loc >= 0);
    unsigned with = 0;
    for (unsigned t = 0; t < ENGINE_TERRITORY_HIDDEN_MOBILE_STRONGHOLD; t++) {
        if (t == ENGINE_TERRITORY_THE_GREAT_FLAT)
            continue;
        engine_state st;
        table(&st, PLAIN);
        int loc = -1;
        for (unsigned l = 0; l < ENGINE_LOCATION_COUNT && loc < 0; l++)
            if (engine_location_territory(l) == t)
                loc = (int)l;
        assert_true(loc >= 0);
        assert_int_equal(engine_seat_has_ornithopters(&st, 0), 0);
        assert_int_equal(engine_position_forces(&st, 0, (unsigned)loc, 1, 0), 0);
        assert_int_equal(engine_position_forces(&st, 0, (unsigned)spice_loc, 2, 0), 0);
        assert_int_equal(engine_position_spice(&st, (unsigned)spice_loc, 12), 0);
        int has = t == ENGINE_TERRITORY_ARRAKEEN || t == ENGINE_TERRITORY_CARTHAG;
        assert_int_equal(engine_seat_has_ornithopters(&st, 0), has);
        assert_int_equal(engine_seat_has_ornithopters(&st, 1), 0);
        assert_int_equal(engine_collection_rate(&st, 0), has ? 3u : 2u);
        unsigned rate = engine_collection_rate(&st, 0);
        unsigned before = st.seat[0].spice;
        engine_rng rng;
        engine_rng_init(&rng, SEED, 1);
        assert_int_equal(engine_position_enter(&st, ENGINE_PHASE_SPICE_COLLECTION, 2, 0, &rng), 0);
        assert_int_equal(st.seat[0].spice - before, 2 * rate);
        with += (unsigned)has;
    }
    assert_int_equal(with, 2);
    engine_state st;
    table(&st, PLAIN);
    assert_int_equal(engine_seat_has_ornithopters(&st, 3), 0);
    assert_int_equal(engine_collection_rate(&st, ENGINE_MAX_SEATS), 0);
}

/* ============================================================ shipment */

/* A shipment by the seat the step waits on to every location it may land
 * in costs what engine_shipment_cost said, and that is 1 a force into a
 * stronghold and 2 elsewhere, halved (rounded up) for the Guild and its
 * ally or bought at the Guild's rate with a Karama (LR 1.06.02, 2.06.06,
 * 2.06.09, 3.01.11). */
static unsigned shipped_as_guild, shipped_as_ally; /* shipments checked at half price */

static unsigned ship_and_count(const uint8_t factions[3], int guild_ally, int karama)
{
    engine_state st;
    table(&st, factions);
    engine_rng rng;
    for (uint8_t s = 0; s < 3; s++)
        assert_int_equal(engine_position_seat_spice(&st, s, 40), 0);
    if (guild_ally)
        assert_int_equal(engine_position_alliance(&st, 0, 1), 0);
    /* The seat the shipment step waits on, found on a copy; it gets the
     * Karama when the shipments are bought with one. */
    engine_state probe = st;
    engine_rng_init(&rng, SEED, 1);
    assert_int_equal(engine_position_enter(&probe, ENGINE_PHASE_SHIPMENT_MOVEMENT, 2, 0, &rng), 0);
    uint16_t awaiting = engine_state_awaiting(&probe);
    assert_int_equal(awaiting & (awaiting - 1), 0);
    uint8_t seat = 0;
    while (!(awaiting & (1u << seat)))
        seat++;
    if (karama)
        assert_true(engine_position_give_card(&st, seat, ENGINE_CARD_KARAMA) >= 0);
    engine_rng_init(&rng, SEED, 1);
    assert_int_equal(engine_position_enter(&st, ENGINE_PHASE_SHIPMENT_MOVEMENT, 2, 0, &rng), 0);
    assert_int_equal(engine_state_awaiting(&st), awaiting);
    int guild = -1;
    for (unsigned s = 0; s < 3; s++)
        if (st.seat[s].faction == ENGINE_FACTION_GUILD)
            guild = (int)s;
    int is_half = guild >= 0 && (seat == guild || (guild_ally && seat < 2 && guild < 2));
    unsigned checked = 0;
    for (unsigned loc = 0; loc < ENGINE_LOCATION_COUNT; loc++)
        for (unsigned n = 1; n <= 3; n++) {
            unsigned t = engine_location_territory(loc);
            unsigned full = (engine_territory_terrain(t) == ENGINE_TERRAIN_STRONGHOLD ? 1u : 2u) * n;
            unsigned want = is_half || karama ? (full + 1) / 2 : full;
            unsigned cost = engine_shipment_cost(&st, seat, loc, n, karama);
            engine_state after = st;
            engine_action ship = {ENGINE_ACTION_SHIP, seat, {(int16_t)loc, (int16_t)n, 0, (int16_t)karama}};
            engine_rng_init(&rng, SEED, 2);
            if (engine_apply(NULL, &after, &ship, &rng) != ENGINE_ACCEPTED)
                continue;
            assert_int_equal(cost, want);
            assert_int_equal(st.seat[seat].spice - after.seat[seat].spice, cost);
            checked++;
            shipped_as_guild += (int)seat == guild;
            shipped_as_ally += is_half && (int)seat != guild;
        }
    assert_int_equal(engine_shipment_cost(&st, 3, 1, 1, 0), 0);
    assert_int_equal(engine_shipment_cost(&st, seat, ENGINE_LOCATION_COUNT, 1, 0), 0);
    return checked;
}

static void test_facts__shipment_cost_is_what_a_shipment_pays(void **state)
{
    (void)state;
    const uint8_t guild[3][3] = {
        {ENGINE_FACTION_GUILD, ENGINE_FACTION_ATREIDES, ENGINE_FACTION_HARKONNEN},
        {ENGINE_FACTION_ATREIDES, ENGINE_FACTION_GUILD, ENGINE_FACTION_HARKONNEN},
        {ENGINE_FACTION_ATREIDES, ENGINE_FACTION_HARKONNEN, ENGINE_FACTION_GUILD},
    };
    assert_true(ship_and_count(PLAIN, 0, 0) > 100);
    assert_true(ship_and_count(PLAIN, 0, 1) > 100);
    for (unsigned i = 0; i < 3; i++) {
        assert_true(ship_and_count(guild[i], 0, 0) > 100);
        assert_true(ship_and_count(guild[i], 1, 0) > 100);
    }
    assert_true(shipped_as_guild > 0 && shipped_as_ally > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_facts__card_classes),
        cmocka_unit_test(test_facts__strongholds),
        cmocka_unit_test(test_facts__storm_safety_is_the_digests),
        cmocka_unit_test(test_facts__storm_spares_the_safe),
        cmocka_unit_test(test_facts__the_five_win),
        cmocka_unit_test(test_facts__factions),
        cmocka_unit_test(test_facts__fremen_opening),
        cmocka_unit_test(test_facts__ornithopters_collect_at_the_rate_given),
        cmocka_unit_test(test_facts__shipment_cost_is_what_a_shipment_pays),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
