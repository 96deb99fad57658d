/*
 * test_data.c - the fact tables of engine/data/ against
 * DUNE_RULES_DIGEST.md: the location graph and territory adjacency
 * (sections 1.2, 1.4, 1.5), the treachery and spice decks (2.1, 2.3),
 * leaders (3.1), faction setup (3.2) and the name look-ups.
 *
 * Expectations written here are copied from the digest by hand, so that a
 * table and its test do not share a typo.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "engine/internal.h"

#define S(n) (UINT32_C(1) << (n))
#define TBIT(t) (UINT64_C(1) << (t))

/* Section 1.2, the "Sectors" column: a bit per sector each territory
 * spans; 0 for the Polar Sink and the HMS, which lie in none. */
static const uint32_t expected_sectors[ENGINE_TERRITORY_COUNT] = {
    [ENGINE_TERRITORY_POLAR_SINK] = 0,
    [ENGINE_TERRITORY_IMPERIAL_BASIN] = S(8) | S(9) | S(10),
    [ENGINE_TERRITORY_CARTHAG] = S(10),
    [ENGINE_TERRITORY_ARRAKEEN] = S(9),
    [ENGINE_TERRITORY_TUEKS_SIETCH] = S(4),
    [ENGINE_TERRITORY_SIETCH_TABR] = S(13),
    [ENGINE_TERRITORY_HABBANYA_SIETCH] = S(16),
    [ENGINE_TERRITORY_CIELAGO_NORTH] = S(0) | S(1) | S(2),
    [ENGINE_TERRITORY_CIELAGO_DEPRESSION] = S(0) | S(1) | S(2),
    [ENGINE_TERRITORY_MERIDIAN] = S(0) | S(1),
    [ENGINE_TERRITORY_CIELAGO_SOUTH] = S(1) | S(2),
    [ENGINE_TERRITORY_CIELAGO_EAST] = S(2) | S(3),
    [ENGINE_TERRITORY_HARG_PASS] = S(3) | S(4),
    [ENGINE_TERRITORY_FALSE_WALL_SOUTH] = S(3) | S(4),
    [ENGINE_TERRITORY_FALSE_WALL_EAST] = S(4) | S(5) | S(6) | S(7) | S(8),
    [ENGINE_TERRITORY_THE_MINOR_ERG] = S(4) | S(5) | S(6) | S(7),
    [ENGINE_TERRITORY_PASTY_MESA] = S(4) | S(5) | S(6) | S(7),
    [ENGINE_TERRITORY_RED_CHASM] = S(6),
    [ENGINE_TERRITORY_SOUTH_MESA] = S(3) | S(4) | S(5),
    [ENGINE_TERRITORY_BASIN] = S(8),
    [ENGINE_TERRITORY_RIM_WALL_WEST] = S(8),
    [ENGINE_TERRITORY_HOLE_IN_THE_ROCK] = S(8),
    [ENGINE_TERRITORY_SIHAYA_RIDGE] = S(8),
    [ENGINE_TERRITORY_SHIELD_WALL] = S(7) | S(8),
    [ENGINE_TERRITORY_GARA_KULON] = S(7),
    [ENGINE_TERRITORY_OLD_GAP] = S(8) | S(9) | S(10),
    [ENGINE_TERRITORY_BROKEN_LAND] = S(10) | S(11),
    [ENGINE_TERRITORY_TSIMPO] = S(10) | S(11) | S(12),
    [ENGINE_TERRITORY_ARSUNT] = S(10) | S(11),
    [ENGINE_TERRITORY_ROCK_OUTCROPPINGS] = S(12) | S(13),
    [ENGINE_TERRITORY_PLASTIC_BASIN] = S(11) | S(12) | S(13),
    [ENGINE_TERRITORY_HAGGA_BASIN] = S(11) | S(12),
    [ENGINE_TERRITORY_BIGHT_OF_THE_CLIFF] = S(13) | S(14),
    [ENGINE_TERRITORY_FUNERAL_PLAIN] = S(14),
    [ENGINE_TERRITORY_THE_GREAT_FLAT] = S(14),
    [ENGINE_TERRITORY_WIND_PASS] = S(13) | S(14) | S(15) | S(16),
    [ENGINE_TERRITORY_THE_GREATER_FLAT] = S(15),
    [ENGINE_TERRITORY_HABBANYA_ERG] = S(15) | S(16),
    [ENGINE_TERRITORY_FALSE_WALL_WEST] = S(15) | S(16) | S(17),
    [ENGINE_TERRITORY_WIND_PASS_NORTH] = S(16) | S(17),
    [ENGINE_TERRITORY_HABBANYA_RIDGE_FLAT] = S(16) | S(17),
    [ENGINE_TERRITORY_CIELAGO_WEST] = S(0) | S(17),
    [ENGINE_TERRITORY_HIDDEN_MOBILE_STRONGHOLD] = 0,
};

static unsigned popcount32(uint32_t x)
{
    unsigned n = 0;
    for (; x != 0; x &= x - 1)
        n++;
    return n;
}

static int is_slug(const char *s)
{
    if (s == NULL || *s == '\0')
        return 0;
    for (; *s != '\0'; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9')
              || *s == '_'))
            return 0;
    return 1;
}

/* ============================================================ the board */

static void test_data__every_row_filled(void **state)
{
    (void)state;
    for (unsigned t = 0; t < ENGINE_TERRITORY_COUNT; t++) {
        assert_non_null(engine__territories[t].name);
        assert_true(is_slug(engine__territories[t].slug));
    }
    for (unsigned loc = 0; loc < ENGINE_LOCATION_COUNT; loc++) {
        assert_non_null(engine__locations[loc].part);
        /* a missing designated row would have no neighbours */
        if (loc != ENGINE_LOCATION_HMS)
            assert_true(engine__locations[loc].n_adj > 0);
    }
    for (unsigned l = 0; l < ENGINE_LEADER_COUNT; l++) {
        assert_non_null(engine__leaders[l].name);
        assert_true(is_slug(engine__leaders[l].slug));
    }
    for (unsigned k = 0; k < ENGINE_CARD_KIND_COUNT; k++) {
        assert_non_null(engine__card_kinds[k].name);
        assert_true(is_slug(engine__card_kinds[k].slug));
    }
    for (unsigned f = 0; f < ENGINE_FACTION_COUNT; f++) {
        assert_non_null(engine__factions[f].name);
        assert_true(is_slug(engine__factions[f].slug));
    }
}

static void test_data__territory_slugs_as_documented(void **state)
{
    const engine__territory_row *t = engine__territories;

    (void)state;
    assert_string_equal(t[ENGINE_TERRITORY_TUEKS_SIETCH].slug, "tueks_sietch");
    assert_string_equal(t[ENGINE_TERRITORY_TUEKS_SIETCH].name,
                        "Tuek's Sietch");
    assert_string_equal(t[ENGINE_TERRITORY_THE_MINOR_ERG].slug,
                        "the_minor_erg");
    assert_string_equal(t[ENGINE_TERRITORY_BIGHT_OF_THE_CLIFF].slug,
                        "bight_of_the_cliff");
    assert_string_equal(t[ENGINE_TERRITORY_CIELAGO_WEST].name, "Cielago West");
    assert_string_equal(t[ENGINE_TERRITORY_HIDDEN_MOBILE_STRONGHOLD].slug,
                        "hidden_mobile_stronghold");
}

/* Section 1.3: strongholds, rock and the Polar Sink are safe from storm
 * and worms; the Imperial Basin only from the storm; sand from neither. */
static void test_data__storm_and_worm_safety_follow_kind(void **state)
{
    unsigned n_strongholds = 0;

    (void)state;
    for (unsigned t = 0; t < ENGINE_TERRITORY_COUNT; t++) {
        const engine__territory_row *row = &engine__territories[t];
        switch ((engine_territory_kind)row->kind) {
        case ENGINE_TERRAIN_POLAR_SINK:
            assert_int_equal(t, ENGINE_TERRITORY_POLAR_SINK);
            assert_int_equal(row->is_storm_safe, 1);
            assert_int_equal(row->is_worm_safe, 1);
            break;
        case ENGINE_TERRAIN_STRONGHOLD:
            n_strongholds++;
            assert_int_equal(row->is_storm_safe, 1);
            assert_int_equal(row->is_worm_safe, 1);
            break;
        case ENGINE_TERRAIN_ROCK:
            assert_int_equal(row->is_storm_safe, 1);
            assert_int_equal(row->is_worm_safe, 1);
            break;
        case ENGINE_TERRAIN_SAND:
            assert_int_equal(row->is_storm_safe, 0);
            assert_int_equal(row->is_worm_safe, 0);
            break;
        case ENGINE_TERRAIN_SHIELDED_SAND:
            assert_int_equal(t, ENGINE_TERRITORY_IMPERIAL_BASIN);
            assert_int_equal(row->is_storm_safe, 1);
            assert_int_equal(row->is_worm_safe, 0);
            break;
        }
    }
    assert_int_equal(n_strongholds, 6); /* five on the map and the HMS */
    assert_int_equal(engine__territories[ENGINE_TERRITORY_SHIELD_WALL].kind,
                     ENGINE_TERRAIN_ROCK);
    assert_int_equal(engine__territories[ENGINE_TERRITORY_RED_CHASM].kind,
                     ENGINE_TERRAIN_SAND);
    assert_int_equal(engine__territories[ENGINE_TERRITORY_PLASTIC_BASIN].kind,
                     ENGINE_TERRAIN_ROCK);
}

static void test_data__location_adjacency_symmetric_and_ascending(void **state)
{
    (void)state;
    for (unsigned loc = 0; loc < ENGINE_LOCATION_COUNT; loc++) {
        const engine__location_row *row = &engine__locations[loc];
        assert_true(row->n_adj <= ENGINE_LOCATION_MAX_ADJ);
        for (unsigned i = 0; i < row->n_adj; i++) {
            unsigned other = row->adj[i];
            assert_true(other < ENGINE_LOCATION_COUNT);
            assert_true(other != loc);
            if (i > 0)
                assert_true(row->adj[i - 1] < other);
            const engine__location_row *back = &engine__locations[other];
            int found = 0;
            for (unsigned j = 0; j < back->n_adj; j++)
                found |= back->adj[j] == loc;
            assert_true(found);
        }
        for (unsigned i = row->n_adj; i < ENGINE_LOCATION_MAX_ADJ; i++)
            assert_int_equal(row->adj[i], 0);
    }
    assert_int_equal(engine__locations[ENGINE_LOCATION_HMS].n_adj, 0);
}

/* The parts of one territory form a connected subgraph through
 * same-territory edges, so a group spread over sectors moves as one. */
static void test_data__territory_parts_connected(void **state)
{
    (void)state;
    for (unsigned t = 0; t < ENGINE_TERRITORY_COUNT; t++) {
        uint8_t seen[ENGINE_LOCATION_COUNT] = { 0 };
        uint8_t queue[ENGINE_LOCATION_COUNT];
        unsigned head = 0, tail = 0, n_parts = 0;

        for (unsigned loc = 0; loc < ENGINE_LOCATION_COUNT; loc++) {
            if (engine__locations[loc].territory != t)
                continue;
            if (n_parts++ == 0) {
                seen[loc] = 1;
                queue[tail++] = (uint8_t)loc;
            }
        }
        assert_true(n_parts > 0);
        while (head < tail) {
            const engine__location_row *row =
                &engine__locations[queue[head++]];
            for (unsigned i = 0; i < row->n_adj; i++) {
                unsigned other = row->adj[i];
                if (engine__locations[other].territory == t && !seen[other]) {
                    seen[other] = 1;
                    queue[tail++] = (uint8_t)other;
                }
            }
        }
        assert_int_equal(tail, n_parts);
    }
}

static void test_data__territory_adjacency_matches_locations(void **state)
{
    uint64_t derived[ENGINE_TERRITORY_COUNT] = { 0 };

    (void)state;
    for (unsigned loc = 0; loc < ENGINE_LOCATION_COUNT; loc++) {
        const engine__location_row *row = &engine__locations[loc];
        for (unsigned i = 0; i < row->n_adj; i++) {
            unsigned other = engine__locations[row->adj[i]].territory;
            if (other != row->territory)
                derived[row->territory] |= TBIT(other);
        }
    }
    for (unsigned t = 0; t < ENGINE_TERRITORY_COUNT; t++) {
        assert_int_equal(derived[t], engine__territory_adj[t]);
        assert_int_equal(engine__territory_adj[t] & TBIT(t), 0);
        for (unsigned u = 0; u < ENGINE_TERRITORY_COUNT; u++)
            assert_int_equal((engine__territory_adj[t] >> u) & 1,
                             (engine__territory_adj[u] >> t) & 1);
    }
    /* spot checks against section 1.4 */
    assert_int_equal(engine__territory_adj[ENGINE_TERRITORY_HABBANYA_SIETCH],
                     TBIT(ENGINE_TERRITORY_HABBANYA_RIDGE_FLAT));
    assert_int_equal(engine__territory_adj[ENGINE_TERRITORY_ARRAKEEN],
                     TBIT(ENGINE_TERRITORY_IMPERIAL_BASIN)
                         | TBIT(ENGINE_TERRITORY_OLD_GAP)
                         | TBIT(ENGINE_TERRITORY_RIM_WALL_WEST));
    assert_int_equal(
        engine__territory_adj[ENGINE_TERRITORY_HIDDEN_MOBILE_STRONGHOLD], 0);
}

static void test_data__location_sectors_in_range(void **state)
{
    (void)state;
    for (unsigned loc = 0; loc < ENGINE_LOCATION_COUNT; loc++) {
        const engine__location_row *row = &engine__locations[loc];
        if (row->territory == ENGINE_TERRITORY_POLAR_SINK
            || row->territory == ENGINE_TERRITORY_HIDDEN_MOBILE_STRONGHOLD)
            assert_int_equal(row->sector, ENGINE_NO_SECTOR);
        else
            assert_true(row->sector >= 0
                        && row->sector < ENGINE_SECTOR_COUNT);
    }
    assert_int_equal(engine__locations[0].territory,
                     ENGINE_TERRITORY_POLAR_SINK);
    assert_int_equal(engine__locations[ENGINE_LOCATION_HMS].territory,
                     ENGINE_TERRITORY_HIDDEN_MOBILE_STRONGHOLD);
}

static void test_data__territory_sectors_match_digest(void **state)
{
    (void)state;
    for (unsigned t = 0; t < ENGINE_TERRITORY_COUNT; t++) {
        uint32_t got = 0;
        unsigned n_locs = 0;
        for (unsigned loc = 0; loc < ENGINE_LOCATION_COUNT; loc++) {
            const engine__location_row *row = &engine__locations[loc];
            if (row->territory != t)
                continue;
            n_locs++;
            if (row->sector != ENGINE_NO_SECTOR)
                got |= S((unsigned)row->sector);
        }
        assert_int_equal(got, expected_sectors[t]);
        /* one location per sector, or a single sectorless one */
        assert_int_equal(n_locs, expected_sectors[t] == 0
                                     ? 1 : popcount32(expected_sectors[t]));
    }
}

/* Parts the digest names, spot-checked. */
static void test_data__location_parts(void **state)
{
    (void)state;
    assert_string_equal(engine__locations[29].part, "Far North");
    assert_int_equal(engine__locations[29].territory,
                     ENGINE_TERRITORY_FALSE_WALL_EAST);
    assert_int_equal(engine__locations[29].sector, 8);
    assert_string_equal(engine__locations[2].part, "Center");
    assert_string_equal(engine__locations[73].part, "Far South");
    assert_string_equal(engine__locations[4].part, "");
    assert_string_equal(engine__locations[0].part, "");
    assert_string_equal(engine__locations[ENGINE_LOCATION_HMS].part, "");
}

static void test_data__location_find(void **state)
{
    (void)state;
    for (unsigned loc = 0; loc < ENGINE_LOCATION_COUNT; loc++)
        assert_int_equal(engine_location_find(engine__locations[loc].territory,
                                              engine__locations[loc].sector),
                         (int)loc);
    assert_int_equal(engine_location_find(ENGINE_TERRITORY_POLAR_SINK,
                                          ENGINE_NO_SECTOR), 0);
    assert_int_equal(engine_location_find(
                         ENGINE_TERRITORY_HIDDEN_MOBILE_STRONGHOLD,
                         ENGINE_NO_SECTOR), ENGINE_LOCATION_HMS);
    assert_int_equal(engine_location_find(ENGINE_TERRITORY_ARRAKEEN, 9), 5);
    assert_int_equal(engine_location_find(ENGINE_TERRITORY_CARTHAG, 0), -1);
    assert_int_equal(engine_location_find(ENGINE_TERRITORY_COUNT, 0), -1);
    assert_int_equal(engine_location_find(ENGINE_TERRITORY_WIND_PASS, 18), -1);
    assert_int_equal(engine_location_territory(50), ENGINE_TERRITORY_OLD_GAP);
    assert_int_equal(engine_location_sector(50), 9);
    assert_int_equal(engine_location_sector(0), ENGINE_NO_SECTOR);
}

/* ================================================================ decks */

static void test_data__treachery_base_copies(void **state)
{
    unsigned total = 0, n_worthless = 0;

    (void)state;
    for (unsigned k = 0; k < ENGINE_CARD_KIND_COUNT; k++) {
        const engine__card_kind_row *row = &engine__card_kinds[k];
        total += row->base_copies;
        assert_true(row->classes != 0);
        /* weapons and defenses are kept, nothing else */
        int is_fight = (row->classes & (ENGINE_CARD_CLASS_WEAPON_PROJECTILE
                                        | ENGINE_CARD_CLASS_WEAPON_POISON
                                        | ENGINE_CARD_CLASS_WEAPON_SPECIAL
                                        | ENGINE_CARD_CLASS_DEFENSE_PROJECTILE
                                        | ENGINE_CARD_CLASS_DEFENSE_POISON))
                       != 0;
        assert_int_equal(row->is_kept, is_fight);
        if (row->classes & ENGINE_CARD_CLASS_WORTHLESS)
            n_worthless += row->base_copies;
    }
    assert_int_equal(total, 33);
    assert_int_equal(n_worthless, 5);
    assert_int_equal(engine__card_kinds[ENGINE_CARD_SHIELD].base_copies, 4);
    assert_int_equal(engine__card_kinds[ENGINE_CARD_SNOOPER].base_copies, 4);
    assert_int_equal(engine__card_kinds[ENGINE_CARD_CHEAP_HERO].base_copies,
                     3);
    assert_int_equal(engine__card_kinds[ENGINE_CARD_KARAMA].base_copies, 2);
    assert_int_equal(engine__card_kinds[ENGINE_CARD_TRUTHTRANCE].base_copies,
                     2);
    assert_int_equal(engine__card_kinds[ENGINE_CARD_LASGUN].classes,
                     ENGINE_CARD_CLASS_WEAPON_SPECIAL);
    assert_int_equal(engine__card_kinds[ENGINE_CARD_CHEAP_HERO].classes,
                     ENGINE_CARD_CLASS_LEADER);
    assert_int_equal(engine__card_kinds[ENGINE_CARD_GOM_JABBAR].classes,
                     ENGINE_CARD_CLASS_WEAPON_POISON);
    assert_int_equal(engine__card_kinds[ENGINE_CARD_HAJR].classes,
                     ENGINE_CARD_CLASS_SPECIAL);
    assert_int_equal(engine__card_kinds[ENGINE_CARD_KULON].classes,
                     ENGINE_CARD_CLASS_WORTHLESS);
    assert_int_equal(ENGINE_TREACHERY_MAX >= 33, 1);
}

/* Section 2.3, in its order: territory, icon sector, spice. */
static const struct {
    unsigned territory;
    int sector;
    unsigned amount;
} expected_spice[15] = {
    { ENGINE_TERRITORY_CIELAGO_NORTH, 2, 8 },
    { ENGINE_TERRITORY_CIELAGO_SOUTH, 1, 12 },
    { ENGINE_TERRITORY_SOUTH_MESA, 4, 10 },
    { ENGINE_TERRITORY_RED_CHASM, 6, 8 },
    { ENGINE_TERRITORY_THE_MINOR_ERG, 7, 8 },
    { ENGINE_TERRITORY_SIHAYA_RIDGE, 8, 6 },
    { ENGINE_TERRITORY_OLD_GAP, 9, 6 },
    { ENGINE_TERRITORY_BROKEN_LAND, 11, 8 },
    { ENGINE_TERRITORY_HAGGA_BASIN, 12, 6 },
    { ENGINE_TERRITORY_ROCK_OUTCROPPINGS, 13, 6 },
    { ENGINE_TERRITORY_FUNERAL_PLAIN, 14, 6 },
    { ENGINE_TERRITORY_THE_GREAT_FLAT, 14, 10 },
    { ENGINE_TERRITORY_HABBANYA_ERG, 15, 8 },
    { ENGINE_TERRITORY_WIND_PASS_NORTH, 16, 6 },
    { ENGINE_TERRITORY_HABBANYA_RIDGE_FLAT, 17, 10 },
};

static void test_data__spice_deck(void **state)
{
    unsigned n_worms = 0;

    (void)state;
    for (unsigned i = 0; i < 15; i++) {
        const engine__spice_card_row *card = &engine__spice_cards[i];
        assert_int_equal(card->is_worm, 0);
        assert_int_equal(card->territory, expected_spice[i].territory);
        assert_int_equal(card->amount, expected_spice[i].amount);
        assert_true(card->location < ENGINE_LOCATION_COUNT);
        assert_int_equal(engine__locations[card->location].territory,
                         card->territory);
        assert_int_equal(engine__locations[card->location].sector,
                         expected_spice[i].sector);
        assert_string_equal(card->name,
                            engine__territories[card->territory].name);
        /* spice blows only where worms can come */
        assert_int_equal(engine__territories[card->territory].is_worm_safe, 0);
    }
    for (unsigned i = 15; i < ENGINE_SPICE_BASE_CARDS; i++) {
        assert_int_equal(engine__spice_cards[i].is_worm, 1);
        assert_string_equal(engine__spice_cards[i].name, "Shai-Hulud");
        assert_int_equal(engine__spice_cards[i].amount, 0);
        n_worms++;
    }
    assert_int_equal(n_worms, 6);
    /* the icon parts section 2.3 names */
    const engine__spice_card_row *deck = engine__spice_cards;
    assert_string_equal(engine__locations[deck[0].location].part, "East");
    assert_string_equal(engine__locations[deck[4].location].part, "Far North");
    assert_string_equal(engine__locations[deck[9].location].part, "South");
}

/* ============================================================= factions */

static void test_data__leaders(void **state)
{
    /* section 3.1, summed per faction */
    static const unsigned expected_sum[ENGINE_FACTION_COUNT] = {
        [ENGINE_FACTION_ATREIDES] = 17, [ENGINE_FACTION_BENE_GESSERIT] = 25,
        [ENGINE_FACTION_EMPEROR] = 19,  [ENGINE_FACTION_FREMEN] = 23,
        [ENGINE_FACTION_HARKONNEN] = 16, [ENGINE_FACTION_GUILD] = 14,
        [ENGINE_FACTION_IXIANS] = 17,   [ENGINE_FACTION_TLEILAXU] = 10,
        [ENGINE_FACTION_CHOAM] = 16,    [ENGINE_FACTION_RICHESE] = 16,
        [ENGINE_FACTION_ECAZ] = 16,     [ENGINE_FACTION_MORITANI] = 16,
    };
    unsigned count[ENGINE_FACTION_COUNT] = { 0 };
    unsigned sum[ENGINE_FACTION_COUNT] = { 0 };

    (void)state;
    for (unsigned l = 0; l < 5 * ENGINE_FACTION_COUNT; l++) {
        const engine__leader_row *row = &engine__leaders[l];
        assert_int_equal(row->faction, l / 5);
        assert_int_equal(row->is_optional, 0);
        assert_int_equal(row->is_traitor_card, 1);
        assert_true(row->strength <= 7);
        count[row->faction]++;
        sum[row->faction] += row->strength;
        if (strcmp(row->slug, "zoal") != 0)
            assert_int_equal(row->revival_cost, row->strength);
    }
    for (unsigned f = 0; f < ENGINE_FACTION_COUNT; f++) {
        assert_int_equal(count[f], 5);
        assert_int_equal(sum[f], expected_sum[f]);
    }
    /* spot checks */
    assert_string_equal(engine__leaders[0].name, "Thufir Hawat");
    assert_int_equal(engine__leaders[0].strength, 5);
    assert_string_equal(engine__leaders[15].name, "Stilgar");
    assert_int_equal(engine__leaders[15].strength, 7);
    assert_string_equal(engine__leaders[10].name, "Hasimir Fenring");
    assert_int_equal(engine__leaders[10].strength, 6);
    assert_string_equal(engine__leaders[24].name, "Umman Kudu");
    assert_int_equal(engine__leaders[24].strength, 1);
    assert_string_equal(engine__leaders[29].slug, "guild_rep");
    assert_string_equal(engine__leaders[30].slug, "ctair_pilru");
    assert_string_equal(engine__leaders[35].name, "Zoal");
    assert_int_equal(engine__leaders[35].strength, 0);
    assert_int_equal(engine__leaders[35].revival_cost, 6);
    /* the optional leaders */
    assert_int_equal(engine__leaders[60].faction, ENGINE_FACTION_CHOAM);
    assert_int_equal(engine__leaders[60].strength, 2);
    assert_int_equal(engine__leaders[60].revival_cost, 2);
    assert_int_equal(engine__leaders[60].is_traitor_card, 1);
    assert_int_equal(engine__leaders[60].is_optional, 1);
    assert_string_equal(engine__leaders[61].name, "Duke Prad Vidal");
    assert_int_equal(engine__leaders[61].faction, ENGINE_FACTION_NONE);
    assert_int_equal(engine__leaders[61].strength, 6);
    assert_int_equal(engine__leaders[61].revival_cost, 5);
    assert_int_equal(engine__leaders[61].is_traitor_card, 0);
    assert_int_equal(engine__leaders[61].is_optional, 1);
}

static void test_data__faction_setup(void **state)
{
    static const unsigned expected_spice_of[ENGINE_FACTION_COUNT] = {
        10, 5, 10, 3, 10, 5, 10, 5, 2, 5, 12, 12,
    };
    unsigned classic_spice = 0, all_spice = 0;

    (void)state;
    for (unsigned f = 0; f < ENGINE_FACTION_COUNT; f++) {
        const engine__faction_row *row = &engine__factions[f];
        assert_int_equal(row->spice, expected_spice_of[f]);
        all_spice += row->spice;
        if (row->is_classic)
            classic_spice += row->spice;
        assert_int_equal(row->is_classic,
                         (int)f >= ENGINE_FACTION_CLASSIC_FIRST
                             && (int)f <= ENGINE_FACTION_CLASSIC_LAST);
        /* 20 forces in all; only the Ixians' cyborgs come on top */
        if (f == ENGINE_FACTION_IXIANS)
            assert_int_equal(row->forces + row->special_forces, 20);
        else
            assert_int_equal(row->forces, 20);
        assert_true(row->start_forces <= row->forces + row->special_forces);
        assert_true(row->start_territory <= ENGINE_TERRITORY_COUNT);
        assert_int_equal(row->start_territory == ENGINE_TERRITORY_COUNT,
                         row->start_forces == 0);
        assert_true(row->hand_limit >= row->start_cards);
    }
    assert_int_equal(classic_spice, 43);
    assert_int_equal(all_spice, 89);
    assert_int_equal(engine__factions[ENGINE_FACTION_ATREIDES].start_territory,
                     ENGINE_TERRITORY_ARRAKEEN);
    assert_int_equal(engine__factions[ENGINE_FACTION_HARKONNEN].start_forces,
                     10);
    assert_int_equal(engine__factions[ENGINE_FACTION_HARKONNEN].hand_limit, 8);
    assert_int_equal(engine__factions[ENGINE_FACTION_HARKONNEN].traitors_kept,
                     4);
    assert_int_equal(engine__factions[ENGINE_FACTION_HARKONNEN].start_cards,
                     2);
    assert_int_equal(engine__factions[ENGINE_FACTION_GUILD].start_territory,
                     ENGINE_TERRITORY_TUEKS_SIETCH);
    assert_int_equal(engine__factions[ENGINE_FACTION_GUILD].start_forces, 5);
    assert_int_equal(
        engine__factions[ENGINE_FACTION_BENE_GESSERIT].start_territory,
        ENGINE_TERRITORY_POLAR_SINK);
    assert_int_equal(engine__factions[ENGINE_FACTION_FREMEN].free_revival, 3);
    assert_int_equal(engine__factions[ENGINE_FACTION_FREMEN].start_territory,
                     ENGINE_TERRITORY_COUNT);
    assert_int_equal(engine__factions[ENGINE_FACTION_EMPEROR].special_forces,
                     5);
    assert_int_equal(engine__factions[ENGINE_FACTION_TLEILAXU].traitors_kept,
                     0);
    assert_int_equal(engine__factions[ENGINE_FACTION_CHOAM].hand_limit, 5);
    assert_int_equal(engine__factions[ENGINE_FACTION_CHOAM].free_revival, 0);
    assert_int_equal(engine__factions[ENGINE_FACTION_ECAZ].start_territory,
                     ENGINE_TERRITORY_IMPERIAL_BASIN);
    assert_int_equal(engine__factions[ENGINE_FACTION_IXIANS].start_territory,
                     ENGINE_TERRITORY_HIDDEN_MOBILE_STRONGHOLD);
}

/* ================================================================ names */

static void test_data__name_round_trips(void **state)
{
    (void)state;
    for (unsigned t = 0; t < ENGINE_TERRITORY_COUNT; t++) {
        const char *slug = engine_territory_slug(t);
        assert_non_null(slug);
        assert_int_equal(engine_territory_from_slug(slug), (int)t);
        assert_string_equal(engine_territory_slug(
                                (unsigned)engine_territory_from_slug(slug)),
                            slug);
        assert_string_equal(engine_territory_name(t),
                            engine__territories[t].name);
    }
    for (unsigned l = 0; l < ENGINE_LEADER_COUNT; l++) {
        const char *slug = engine_leader_slug(l);
        assert_non_null(slug);
        assert_int_equal(engine_leader_from_slug(slug), (int)l);
        assert_string_equal(engine_leader_name(l), engine__leaders[l].name);
        assert_int_equal(engine_leader_faction(l), engine__leaders[l].faction);
        assert_int_equal(engine_leader_strength(l),
                         engine__leaders[l].strength);
    }
    for (unsigned f = 0; f < ENGINE_FACTION_COUNT; f++) {
        const char *name = engine_faction_name(f);
        assert_non_null(name);
        assert_string_equal(name, engine__factions[f].slug);
        assert_int_equal(engine_faction_from_name(name), f);
    }
    for (unsigned k = 0; k < ENGINE_CARD_KIND_COUNT; k++) {
        assert_string_equal(engine_card_kind_name(k),
                            engine__card_kinds[k].name);
        assert_string_equal(engine_card_kind_slug(k),
                            engine__card_kinds[k].slug);
    }
    assert_string_equal(engine_faction_name(ENGINE_FACTION_BENE_GESSERIT),
                        "bene_gesserit");
    assert_string_equal(engine_faction_name(ENGINE_FACTION_GUILD), "guild");
    assert_int_equal(engine_territory_from_slug("sietch_tabr"),
                     ENGINE_TERRITORY_SIETCH_TABR);
    assert_int_equal(engine_leader_from_slug("thufir_hawat"), 0);
    assert_string_equal(engine_card_kind_slug(ENGINE_CARD_MAULA_PISTOL),
                        "maula_pistol");
}

static void test_data__names_unique(void **state)
{
    (void)state;
    for (unsigned a = 0; a < ENGINE_TERRITORY_COUNT; a++)
        for (unsigned b = a + 1; b < ENGINE_TERRITORY_COUNT; b++)
            assert_true(strcmp(engine__territories[a].slug,
                               engine__territories[b].slug) != 0);
    for (unsigned a = 0; a < ENGINE_LEADER_COUNT; a++)
        for (unsigned b = a + 1; b < ENGINE_LEADER_COUNT; b++)
            assert_true(strcmp(engine__leaders[a].slug,
                               engine__leaders[b].slug) != 0);
    for (unsigned a = 0; a < ENGINE_CARD_KIND_COUNT; a++)
        for (unsigned b = a + 1; b < ENGINE_CARD_KIND_COUNT; b++)
            assert_true(strcmp(engine__card_kinds[a].slug,
                               engine__card_kinds[b].slug) != 0);
}

static void test_data__lookups_out_of_range(void **state)
{
    (void)state;
    assert_null(engine_faction_name(ENGINE_FACTION_COUNT));
    assert_null(engine_faction_name(ENGINE_FACTION_NONE));
    assert_int_equal(engine_faction_from_name("sardaukar"),
                     ENGINE_FACTION_NONE);
    assert_int_equal(engine_faction_from_name(NULL), ENGINE_FACTION_NONE);
    assert_int_equal(engine_faction_from_name("Atreides"),
                     ENGINE_FACTION_NONE);
    assert_null(engine_territory_name(ENGINE_TERRITORY_COUNT));
    assert_null(engine_territory_slug(ENGINE_TERRITORY_COUNT));
    assert_int_equal(engine_territory_from_slug("arrakis"), -1);
    assert_int_equal(engine_territory_from_slug(""), -1);
    assert_int_equal(engine_territory_from_slug(NULL), -1);
    assert_int_equal(engine_location_territory(ENGINE_LOCATION_COUNT),
                     ENGINE_TERRITORY_COUNT);
    assert_int_equal(engine_location_sector(ENGINE_LOCATION_COUNT),
                     ENGINE_NO_SECTOR);
    assert_null(engine_leader_name(ENGINE_LEADER_COUNT));
    assert_null(engine_leader_slug(ENGINE_LEADER_COUNT));
    assert_int_equal(engine_leader_from_slug("paul_atreides"), -1);
    assert_int_equal(engine_leader_from_slug(NULL), -1);
    assert_int_equal(engine_leader_faction(ENGINE_LEADER_COUNT),
                     ENGINE_FACTION_NONE);
    assert_int_equal(engine_leader_strength(ENGINE_LEADER_COUNT), 0);
    assert_null(engine_card_kind_name(ENGINE_CARD_KIND_COUNT));
    assert_null(engine_card_kind_slug(ENGINE_CARD_KIND_COUNT));
    assert_null(engine_card_kind_slug(~0u));
}

/* Power rows (engine/powers_*.c): each in its owner's family, every field
 * in range, every point asked of at least one row and of no more than
 * engine/points.c collects. */
static void test_data__power_rows(void **state)
{
    (void)state;
    unsigned per_point[ENGINE__POINT_COUNT] = {0};
    for (unsigned f = 0; f < ENGINE_FACTION_COUNT; f++) {
        const engine__power_family *fam = engine__power_families[f];
        if (!engine__factions[f].is_classic) {
            assert_null(fam); /* not built yet */
            continue;
        }
        assert_non_null(fam);
        assert_true(fam->n > 0);
        for (size_t i = 0; i < fam->n; i++) {
            const engine__power_row *r = &fam->rows[i];
            assert_int_equal(r->faction, f);
            assert_true(r->point < ENGINE__POINT_COUNT);
            assert_true(r->to != 0 && (r->to & ~(ENGINE__TO_OWNER | ENGINE__TO_ALLY)) == 0);
            assert_true(r->game <= ENGINE__GAME_BASIC);
            assert_true(r->since <= ENGINE__RULE_COUNT && r->until <= ENGINE__RULE_COUNT);
            assert_true(r->since == 0 || r->since != r->until);
            assert_true(r->advantage < ENGINE_ADVANTAGE_COUNT);
            /* The Karama column goes with an advantage; a retake only
             * for an advantage whose action does not stand without it. */
            assert_true((r->karama != 0) == (r->advantage != ENGINE_ADVANTAGE_NONE));
            assert_true((r->karama & ~(ENGINE__KARAMA_CANCELS | ENGINE__KARAMA_STANDS |
                                       ENGINE__KARAMA_BY_ALLY | ENGINE__KARAMA_LASTS)) == 0);
            assert_true(r->retake == ENGINE_ACTION_NONE || !(r->karama & ENGINE__KARAMA_STANDS));
            assert_true(r->retake < ENGINE_ACTION_KIND_COUNT);
            if (r->advantage != ENGINE_ADVANTAGE_NONE)
                assert_int_equal(engine__advantage_row(r->advantage)->karama, r->karama);
            assert_non_null(r->source);
            assert_true(strlen(r->source) > 0);
            /* A generic power or window declares its form and what it
             * does, its defaults in range, its id no other row's. */
            int is_generic = r->point == ENGINE__POINT_POWER || r->point == ENGINE__POINT_WINDOW;
            assert_true(is_generic == (r->form != NULL));
            assert_true((r->point == ENGINE__POINT_POWER) == (r->use != NULL));
            assert_true((r->point == ENGINE__POINT_WINDOW) == (r->answer != NULL));
            assert_true(r->close == NULL || r->point == ENGINE__POINT_WINDOW);
            if (r->form) {
                assert_true(r->form->n_args <= ENGINE_POWER_MAX_ARGS);
                for (unsigned a = 0; a < r->form->n_args; a++) {
                    assert_true(r->form->lo[a] <= r->form->fallback[a] &&
                                r->form->fallback[a] <= r->form->hi[a]);
                    /* a secret argument is never 0 (absent), so it is
                     * always on the wire and in the signed bytes, at one
                     * size (docs/FORMAT.md "Event") */
                    if (r->form->secret_args & (1u << a))
                        assert_true(r->form->lo[a] >= 1);
                }
                unsigned kind = r->point == ENGINE__POINT_POWER ? ENGINE_ACTION_POWER
                                                                : ENGINE_ACTION_ANSWER;
                assert_ptr_equal(engine_generic_form(kind, engine_power_id(r->form->slug)), r->form);
            }
            per_point[r->point]++;
        }
    }
    /* The Nexus panels answering the neutral Nexus window (rules version 7
     * on, engine/nexus_window.c) or a seat's own moment (version 8 on,
     * engine/nexus_moment.c): each a card's row in a mode, saying
     * which Nexus point it answers and what it does; and the module's
     * rows (the window, its standing policy), every seat's. */
    for (unsigned f = 0; f < ENGINE_FACTION_COUNT; f++) {
        const engine__power_family *fam = engine__nexus_families[f];
        for (size_t i = 0; i < fam->n; i++) {
            const engine__power_row *r = &fam->rows[i];
            assert_int_equal(r->faction, f);
            if (r->point != ENGINE__POINT_NEXUS_ANSWER)
                continue;
            assert_true(r->nexus >= 1 && r->nexus <= ENGINE_NEXUS_MODE_COUNT);
            assert_non_null(r->fn);
            assert_non_null(r->use);
            assert_null(r->form);
            /* the neutral window's (version 7), a seat's own moment's (8) */
            assert_true(r->since == ENGINE__RULE_SINCE(ENGINE__RULE_NEXUS_WINDOWS) ||
                        r->since == ENGINE__RULE_SINCE(ENGINE__RULE_NEXUS_MOMENTS));
            /* one Nexus point, for some factions of the attempt's user */
            unsigned points = 0;
            for (int p = 0; p < ENGINE_NEXUS_POINT_COUNT; p++) {
                unsigned users = 0;
                for (unsigned u = 0; u < ENGINE_FACTION_COUNT; u++)
                    users += r->fn(NULL, u, 0, p) != 0;
                points += users != 0;
            }
            assert_int_equal(points, 1);
            per_point[r->point]++;
        }
    }
    for (size_t i = 0; i < engine__nexus_module.n; i++) {
        const engine__power_row *r = &engine__nexus_module.rows[i];
        assert_true(r->point == ENGINE__POINT_POWER || r->point == ENGINE__POINT_WINDOW);
        assert_non_null(r->form);
        assert_true((r->point == ENGINE__POINT_POWER) == (r->use != NULL));
        assert_true((r->point == ENGINE__POINT_WINDOW) == (r->answer != NULL && r->close != NULL));
        assert_true(r->since == ENGINE__RULE_SINCE(ENGINE__RULE_NEXUS_WINDOWS) ||
                    r->since == ENGINE__RULE_SINCE(ENGINE__RULE_NEXUS_MOMENTS));
        unsigned kind = r->point == ENGINE__POINT_POWER ? ENGINE_ACTION_POWER : ENGINE_ACTION_ANSWER;
        assert_ptr_equal(engine_generic_form(kind, engine_power_id(r->form->slug)), r->form);
        per_point[r->point]++;
    }
    for (unsigned p = 0; p < ENGINE__POINT_COUNT; p++) {
        assert_true(per_point[p] > 0);
        assert_true(per_point[p] <= ENGINE__POINT_ROWS_MAX);
    }
    /* Every advantage a Karama may cancel is granted by a row, named, and
     * owned by the faction of that row alone. */
    for (unsigned a = 1; a < ENGINE_ADVANTAGE_COUNT; a++) {
        const engine__power_row *r = engine__advantage_row(a);
        assert_non_null(r);
        assert_true(r->karama & ENGINE__KARAMA_CANCELS);
        assert_non_null(engine_advantage_name(a));
    }
    assert_null(engine__advantage_row(ENGINE_ADVANTAGE_NONE));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_data__power_rows),
        cmocka_unit_test(test_data__every_row_filled),
        cmocka_unit_test(test_data__territory_slugs_as_documented),
        cmocka_unit_test(test_data__storm_and_worm_safety_follow_kind),
        cmocka_unit_test(
            test_data__location_adjacency_symmetric_and_ascending),
        cmocka_unit_test(test_data__territory_parts_connected),
        cmocka_unit_test(test_data__territory_adjacency_matches_locations),
        cmocka_unit_test(test_data__location_sectors_in_range),
        cmocka_unit_test(test_data__territory_sectors_match_digest),
        cmocka_unit_test(test_data__location_parts),
        cmocka_unit_test(test_data__location_find),
        cmocka_unit_test(test_data__treachery_base_copies),
        cmocka_unit_test(test_data__spice_deck),
        cmocka_unit_test(test_data__leaders),
        cmocka_unit_test(test_data__faction_setup),
        cmocka_unit_test(test_data__name_round_trips),
        cmocka_unit_test(test_data__names_unique),
        cmocka_unit_test(test_data__lookups_out_of_range),
    };
    return cmocka_run_group_tests_name("data", tests, NULL, NULL);
}
