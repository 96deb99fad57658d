/*
 * test_nexus_panels.c - the panels of the Nexus Cards module as power rows
 * (engine/nexus_<faction>.c, engine/points.c, engine/generic.c; docs/
 * ARCHITECTURE.md "Nexus panels", docs/RULINGS.md R85-R90): a seat
 * holding a card is offered that card's panels in its mode and no other,
 * nobody else is; rules version 5 knows none; a panel not built is refused
 * with its row; the families of a built panel are each accepted, and a
 * seat owing traitors back is offered and accepts nothing else; the Ecaz
 * Secret Ally's answer is in the views of the asker and the asked alone;
 * the records survive the encoding. Positions are constructed and folded
 * by engine_apply, as a room would be.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "engine/phase.h"
#include "tests/support/support.h"

static const uint8_t SEED[ENGINE_SEED_BYTES] = {23};

/* Seats: no Ecaz, Tleilaxu or Emperor at the table, so their cards are
 * Secret Allies; the Harkonnen's card is the Harkonnen's Cunning. */
enum { ATREIDES = 0, HARKONNEN = 1, FREMEN = 2, GUILD = 3, N_SEATS = 4 };

static void position(engine_state *st, engine_rng *rng, unsigned rules_version, unsigned phase)
{
    engine_config cfg;
    engine_config_init(&cfg);
    cfg.n_seats = N_SEATS;
    cfg.faction[ATREIDES] = ENGINE_FACTION_ATREIDES;
    cfg.faction[HARKONNEN] = ENGINE_FACTION_HARKONNEN;
    cfg.faction[FREMEN] = ENGINE_FACTION_FREMEN;
    cfg.faction[GUILD] = ENGINE_FACTION_GUILD;
    cfg.modules = ENGINE_MODULE_NEXUS_CARDS;
    cfg.rules_version = (uint16_t)rules_version;
    engine_rng_init(rng, SEED, 0);
    assert_int_equal(engine_position_new(NULL, st, &cfg, rng), ENGINE_ACCEPTED);
    assert_int_equal(engine_position_traitor(st, HARKONNEN,
                                             (unsigned)engine_leader_from_slug("thufir_hawat")), 0);
    assert_int_equal(engine_position_tanks(st, ATREIDES, 5, 0), 0);
    assert_int_equal(engine_position_tanks(st, GUILD, 2, 0), 0);
    assert_true(engine_position_nexus_give(st, ATREIDES, ENGINE_FACTION_ECAZ) >= 0);
    assert_true(engine_position_nexus_give(st, HARKONNEN, ENGINE_FACTION_HARKONNEN) >= 0);
    assert_true(engine_position_nexus_give(st, FREMEN, ENGINE_FACTION_GUILD) >= 0);
    assert_true(engine_position_nexus_give(st, GUILD, ENGINE_FACTION_EMPEROR) >= 0);
    if (phase == ENGINE_PHASE_SPICE_BLOW) {
        /* a worm, so a Nexus: the game waits on every seat */
        int devoured = engine_spice_card_of(ENGINE_TERRITORY_CIELAGO_NORTH);
        int placed = engine_spice_card_of(ENGINE_TERRITORY_THE_GREAT_FLAT);
        assert_int_equal(engine_position_spice_discard(st, (unsigned)devoured), 0);
        assert_int_equal(engine_position_spice_top(st, (unsigned)placed), 0);
        assert_int_equal(engine_position_spice_top(st, (unsigned)engine_spice_worm(0)), 0);
    }
    assert_int_equal(engine_position_enter(st, phase, 2, 9, rng), 0);
}

/* The ids of the power families offered to `seat`, as a set of slugs'
 * ids in `ids` (up to 8); returns how many. */
static unsigned offered(int16_t ids[8], const engine_state *st, unsigned seat)
{
    engine_legal legal[256];
    size_t n = engine_legal_actions(legal, 256, st, (uint8_t)seat);
    assert_true(n <= 256);
    unsigned k = 0;
    for (size_t i = 0; i < n; i++) {
        /* the Nexus window's standing policy is every seat's, not a panel */
        if (legal[i].kind != ENGINE_ACTION_POWER ||
            legal[i].lo[0] == engine_power_from_slug("nexus_policy"))
            continue;
        unsigned j = 0;
        while (j < k && ids[j] != legal[i].lo[0])
            j++;
        if (j == k && k < 8)
            ids[k++] = legal[i].lo[0];
    }
    return k;
}


/* ================================================== who is offered what */

static void test_nexus_panels__offered_to_the_holder_in_its_mode_only(void **state)
{
    (void)state;
    engine_state st;
    engine_rng rng;
    position(&st, &rng, ENGINE_RULES_VERSION, ENGINE_PHASE_SPICE_BLOW);
    int16_t ids[8];
    /* The Nexus step asks every seat: each is offered its own card's
     * panels that are built and may be played now. */
    assert_int_equal(offered(ids, &st, ATREIDES), 1);
    assert_int_equal(ids[0], engine_power_from_slug("nexus_ecaz_secret_ally"));
    assert_int_equal(offered(ids, &st, HARKONNEN), 1);
    assert_int_equal(ids[0], engine_power_from_slug("nexus_harkonnen_cunning"));
    /* The Guild card held by the Fremen is a Betrayal (the Guild is
     * seated): not built, so not offered; the Emperor's Secret Ally is a
     * Revival panel: not offered in the Spice Blow. */
    assert_int_equal(offered(ids, &st, FREMEN), 0);
    assert_int_equal(offered(ids, &st, GUILD), 0);
    /* Another seat's card is not its power. */
    engine_verdict_detail why;
    engine_action a = test_power(GUILD, "nexus_harkonnen_cunning", 0);
    assert_int_equal(test_try(&why, &st, &a, &rng), ENGINE_REJECT_NOT_YOUR_POWER);
    a = test_power(ATREIDES, "nexus_emperor_secret_ally", 3);
    assert_int_equal(test_try(&why, &st, &a, &rng), ENGINE_REJECT_NOT_YOUR_POWER);
}

static void test_nexus_panels__none_under_rules_version_5(void **state)
{
    (void)state;
    engine_state st;
    engine_rng rng;
    position(&st, &rng, 5, ENGINE_PHASE_SPICE_BLOW);
    int16_t ids[8];
    for (unsigned s = 0; s < N_SEATS; s++)
        assert_int_equal(offered(ids, &st, s), 0);
    engine_verdict_detail why;
    engine_action a = test_power(HARKONNEN, "nexus_harkonnen_cunning", 0);
    assert_int_equal(test_try(&why, &st, &a, &rng), ENGINE_REJECT_NOT_YOUR_POWER);
    a = test_power(HARKONNEN, "nexus_harkonnen_betrayal", 0);
    assert_int_equal(test_try(&why, &st, &a, &rng), ENGINE_REJECT_NOT_YOUR_POWER);
}

static void test_nexus_panels__not_built_refused_with_its_row(void **state)
{
    (void)state;
    engine_state st;
    engine_rng rng;
    position(&st, &rng, ENGINE_RULES_VERSION, ENGINE_PHASE_SPICE_BLOW);
    engine_verdict_detail why;
    /* The Fremen hold the Guild card: its Betrayal is row 16. */
    engine_action a = test_power(FREMEN, "nexus_guild_betrayal", 0);
    assert_int_equal(test_try(&why, &st, &a, &rng), ENGINE_REJECT_RULE_NOT_IMPLEMENTED);
    assert_int_equal(why.value, 16);
    assert_int_equal(why.value, engine_nexus_panel_row(ENGINE_FACTION_GUILD, ENGINE_NEXUS_BETRAYAL));
    /* Its other panels are not the Fremen's to play. */
    a = test_power(FREMEN, "nexus_guild_cunning", 0);
    assert_int_equal(test_try(&why, &st, &a, &rng), ENGINE_REJECT_NOT_YOUR_POWER);
    a = test_power(FREMEN, "nexus_guild_secret_ally", 0);
    assert_int_equal(test_try(&why, &st, &a, &rng), ENGINE_REJECT_NOT_YOUR_POWER);
    /* Every panel of every card is named, and its row is told. */
    for (unsigned f = 0; f < ENGINE_FACTION_COUNT; f++)
        for (unsigned m = 0; m < ENGINE_NEXUS_MODE_COUNT; m++) {
            static const char *const mode[] = {"cunning", "betrayal", "secret_ally"};
            char slug[64];
            snprintf(slug, sizeof slug, "nexus_%s_%s", engine_faction_name(f), mode[m]);
            int id = engine_power_from_slug(slug);
            assert_true(id > 0);
            assert_int_equal(engine_nexus_panel_of_power(id), engine_nexus_panel_row(f, m));
        }
    assert_int_equal(engine_nexus_panel_of_power(engine_power_from_slug("nexus_traitor_return")), 0);
    /* Which are built, as the bots read it. */
    assert_true(engine_nexus_panel_built(ENGINE_FACTION_HARKONNEN, ENGINE_NEXUS_CUNNING));
    assert_true(engine_nexus_panel_built(ENGINE_FACTION_HARKONNEN, ENGINE_NEXUS_BETRAYAL)); /* v7, the window */
    assert_true(engine_nexus_panel_built(ENGINE_FACTION_HARKONNEN, ENGINE_NEXUS_SECRET_ALLY)); /* v8 */
    assert_true(engine_nexus_panel_built(ENGINE_FACTION_EMPEROR, ENGINE_NEXUS_BETRAYAL)); /* v8, 7a */
    assert_true(engine_nexus_panel_built(ENGINE_FACTION_EMPEROR, ENGINE_NEXUS_CUNNING)); /* v8, 8 */
    assert_false(engine_nexus_panel_built(ENGINE_FACTION_BENE_GESSERIT, ENGINE_NEXUS_CUNNING));
    assert_true(engine_nexus_panel_built(ENGINE_FACTION_FREMEN, ENGINE_NEXUS_BETRAYAL));
    assert_false(engine_nexus_panel_built(ENGINE_FACTION_MORITANI, ENGINE_NEXUS_CUNNING));
    assert_false(engine_nexus_panel_built(ENGINE_FACTION_COUNT, ENGINE_NEXUS_CUNNING));
}

/* Every family offered in a position is accepted (apply.c (2)). */
static void every_family_accepted(const engine_state *st, engine_rng *rng)
{
    engine_legal legal[256];
    for (unsigned s = 0; s < N_SEATS; s++) {
        size_t n = engine_legal_actions(legal, 256, st, (uint8_t)s);
        for (size_t i = 0; i < n; i++) {
            if (legal[i].kind != ENGINE_ACTION_POWER)
                continue;
            for (int hi = 0; hi < 2; hi++) {
                engine_action a;
                memset(&a, 0, sizeof a);
                a.kind = legal[i].kind;
                a.seat = legal[i].seat;
                for (unsigned k = 0; k < ENGINE_ACTION_MAX_ARGS; k++)
                    a.arg[k] = hi ? legal[i].hi[k] : legal[i].lo[k];
                engine_verdict_detail why;
                assert_int_equal(test_try(&why, st, &a, rng), ENGINE_ACCEPTED);
            }
        }
    }
}

static void test_nexus_panels__harkonnen_cunning_owes_a_return(void **state)
{
    (void)state;
    engine_state st;
    engine_rng rng;
    position(&st, &rng, ENGINE_RULES_VERSION, ENGINE_PHASE_SPICE_BLOW);
    every_family_accepted(&st, &rng);
    unsigned deck = st.n_traitor_deck;
    engine_action a = test_power(HARKONNEN, "nexus_harkonnen_cunning", 0);
    engine_verdict_detail why;
    assert_int_equal(engine_apply(&why, &st, &a, &rng), ENGINE_ACCEPTED);
    assert_int_equal(st.n_traitor_deck, deck - 1);
    /* The card is shown (a played card is public), still held until the
     * traitor goes back. */
    int held = engine_nexus_held(&st, HARKONNEN);
    assert_true(held >= 0);
    assert_true(st.nexus_card[held].known_by & ENGINE_KNOWN_PUBLIC);
    /* Only the return is offered, one family per traitor held (2). */
    engine_legal legal[64];
    size_t n = engine_legal_actions(legal, 64, &st, HARKONNEN);
    assert_int_equal(n, 2);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(legal[i].lo[0], engine_power_from_slug("nexus_traitor_return"));
    every_family_accepted(&st, &rng);
    engine_action done = {.kind = ENGINE_ACTION_NEXUS_DONE, .seat = HARKONNEN};
    assert_int_equal(test_try(&why, &st, &done, &rng), ENGINE_REJECT_NEXUS_RETURN_OWED);
    assert_int_equal(why.value, 1);
    /* The other seats go on meanwhile. */
    engine_action other = {.kind = ENGINE_ACTION_NEXUS_DONE, .seat = FREMEN};
    assert_int_equal(test_try(&why, &st, &other, &rng), ENGINE_ACCEPTED);
    /* The drawn one goes back: the deck is as large as before, the
     * Harkonnen hold their one traitor, the card is discarded face up. */
    unsigned drawn = ENGINE_LEADER_COUNT;
    for (unsigned l = 0; l < ENGINE_LEADER_COUNT; l++)
        if (st.traitor[l].place == ENGINE_PLACE_HAND && l != (unsigned)engine_leader_from_slug("thufir_hawat"))
            drawn = l;
    assert_true(drawn < ENGINE_LEADER_COUNT);
    assert_int_equal(st.traitor[drawn].known_by, ENGINE_SEAT_BIT(HARKONNEN)); /* its own */
    a = test_power(HARKONNEN, "nexus_traitor_return", (int)drawn);
    assert_int_equal(engine_apply(&why, &st, &a, &rng), ENGINE_ACCEPTED);
    assert_int_equal(st.n_traitor_deck, deck);
    assert_int_equal(engine_nexus_held(&st, HARKONNEN), -1);
    assert_int_equal(st.nexus_card[held].place, ENGINE_PLACE_DISCARD);
    assert_true(st.nexus_card[held].known_by & ENGINE_KNOWN_PUBLIC);
    assert_int_equal(test_try(&why, &st, &done, &rng), ENGINE_ACCEPTED);
}

static void test_nexus_panels__ecaz_answer_told_to_asker_and_asked(void **state)
{
    (void)state;
    engine_state st;
    engine_rng rng;
    position(&st, &rng, ENGINE_RULES_VERSION, ENGINE_PHASE_SPICE_BLOW);
    engine_action a = test_power(ATREIDES, "nexus_ecaz_secret_ally", ENGINE_FACTION_HARKONNEN);
    engine_verdict_detail why;
    assert_int_equal(engine_apply(&why, &st, &a, &rng), ENGINE_ACCEPTED);
    const engine_effect *e = engine_effect_find(&st, ENGINE_EFFECT_NEXUS_ANSWER);
    assert_non_null(e);
    assert_int_equal(e->owner, ATREIDES);
    assert_int_equal(e->value, HARKONNEN);
    assert_int_equal(e->arg, 2); /* yes: Thufir Hawat */
    for (unsigned viewer = 0; viewer <= N_SEATS; viewer++) {
        engine_state v;
        engine_view(&v, &st, viewer < N_SEATS ? (uint8_t)viewer : ENGINE_VIEW_PUBLIC);
        const engine_effect *ve = engine_effect_find(&v, ENGINE_EFFECT_NEXUS_ANSWER);
        assert_non_null(ve);
        int told = viewer == ATREIDES || viewer == HARKONNEN;
        assert_int_equal(ve->arg, told ? 2 : 0);
        assert_int_equal(ve->owner, ATREIDES); /* that it was asked is public */
    }
    /* Expires when the next turn's Storm begins. */
    assert_int_equal(e->expiry, ENGINE_EXPIRY_TURN);
}

static void test_nexus_panels__records_survive_the_encoding(void **state)
{
    (void)state;
    engine_state st;
    engine_rng rng;
    position(&st, &rng, ENGINE_RULES_VERSION, ENGINE_PHASE_SPICE_BLOW);
    engine_verdict_detail why;
    engine_action a = test_power(ATREIDES, "nexus_ecaz_secret_ally", ENGINE_FACTION_FREMEN);
    assert_int_equal(engine_apply(&why, &st, &a, &rng), ENGINE_ACCEPTED);
    a = test_power(HARKONNEN, "nexus_harkonnen_cunning", 0);
    assert_int_equal(engine_apply(&why, &st, &a, &rng), ENGINE_ACCEPTED);
    uint8_t buf[ENGINE_STATE_ENCODED_MAX], again[ENGINE_STATE_ENCODED_MAX];
    size_t n = engine_state_encode(buf, sizeof buf, &st);
    engine_state back;
    assert_int_equal(engine_state_decode(&back, buf, n), 0);
    assert_int_equal(engine_state_encode(again, sizeof again, &back), n);
    assert_memory_equal(again, buf, n);
    assert_int_equal(back.n_effects, st.n_effects);
    assert_memory_equal(back.effect, st.effect, sizeof st.effect);
    assert_int_equal(engine__nexus_owed(&back, HARKONNEN), 1);
    /* A record of the module without the rules version is no state. */
    back.config.rules_version = 5;
    assert_int_not_equal(engine_state_check(&back), 0);
}

static void test_nexus_panels__revival_panels_in_revival_only(void **state)
{
    (void)state;
    engine_state st;
    engine_rng rng;
    position(&st, &rng, ENGINE_RULES_VERSION, ENGINE_PHASE_REVIVAL);
    int16_t ids[8];
    /* The Guild hold the Emperor's card (Secret Ally) with 2 in the Tanks. */
    assert_int_equal(offered(ids, &st, GUILD), 1);
    assert_int_equal(ids[0], engine_power_from_slug("nexus_emperor_secret_ally"));
    every_family_accepted(&st, &rng);
    engine_verdict_detail why;
    engine_action a = test_power(GUILD, "nexus_emperor_secret_ally", 3);
    assert_int_equal(test_try(&why, &st, &a, &rng), ENGINE_REJECT_REVIVAL_TANKS);
    a = test_power(GUILD, "nexus_emperor_secret_ally", 2);
    assert_int_equal(engine_apply(&why, &st, &a, &rng), ENGINE_ACCEPTED);
    assert_int_equal(st.seat[GUILD].tanks, 0);
    assert_int_equal(engine_nexus_held(&st, GUILD), -1);
}

/* Row 10 (a): the Fremen may not ride this turn's worm (R94). A worm
 * strikes Cielago North where Fremen forces stand: without the Betrayal
 * they are asked to ride after the Nexus; with it, the game goes on. */
static void test_nexus_panels__fremen_betrayal_no_ride(void **state)
{
    (void)state;
    for (int betray = 0; betray <= 1; betray++) {
        engine_state st;
        engine_rng rng;
        engine_config cfg;
        engine_config_init(&cfg);
        cfg.n_seats = 3;
        cfg.faction[0] = ENGINE_FACTION_ATREIDES;
        cfg.faction[1] = ENGINE_FACTION_HARKONNEN;
        cfg.faction[2] = ENGINE_FACTION_FREMEN;
        cfg.modules = ENGINE_MODULE_NEXUS_CARDS;
        engine_rng_init(&rng, SEED, 0);
        assert_int_equal(engine_position_new(NULL, &st, &cfg, &rng), ENGINE_ACCEPTED);
        int loc = engine_location_find(ENGINE_TERRITORY_CIELAGO_NORTH, 1);
        assert_true(loc >= 0);
        assert_int_equal(engine_position_forces(&st, 2, (unsigned)loc, 3, 0), 0);
        assert_true(engine_position_nexus_give(&st, 1, ENGINE_FACTION_FREMEN) >= 0);
        int devoured = engine_spice_card_of(ENGINE_TERRITORY_CIELAGO_NORTH);
        int placed = engine_spice_card_of(ENGINE_TERRITORY_THE_GREAT_FLAT);
        assert_int_equal(engine_position_spice_discard(&st, (unsigned)devoured), 0);
        assert_int_equal(engine_position_spice_top(&st, (unsigned)placed), 0);
        assert_int_equal(engine_position_spice_top(&st, (unsigned)engine_spice_worm(0)), 0);
        assert_int_equal(engine_position_enter(&st, ENGINE_PHASE_SPICE_BLOW, 2, 9, &rng), 0);
        assert_int_equal(st.step, BLOW_STEP_NEXUS);
        engine_verdict_detail why;
        if (betray) {
            engine_action a = test_power(1, "nexus_fremen_betrayal", 1);
            assert_int_equal(engine_apply(&why, &st, &a, &rng), ENGINE_ACCEPTED);
            assert_true(engine__nexus_banned(&st, 2, ENGINE__POINT_WORM_RIDE));
            assert_int_equal(engine_nexus_held(&st, 1), -1);
        }
        for (uint8_t s = 0; s < 3; s++) {
            engine_action done = {.kind = ENGINE_ACTION_NEXUS_DONE, .seat = s};
            assert_int_equal(engine_apply(&why, &st, &done, &rng), ENGINE_ACCEPTED);
        }
        int rides = st.phase == ENGINE_PHASE_SPICE_BLOW && st.step == BLOW_STEP_WORM_RIDE;
        assert_int_equal(rides, !betray);
        if (betray) {
            /* the record lasts the turn, not the card */
            assert_non_null(engine_effect_find(&st, ENGINE_EFFECT_NEXUS_BANNED));
            assert_int_equal(engine_effect_find(&st, ENGINE_EFFECT_NEXUS_BANNED)->expiry,
                             ENGINE_EXPIRY_TURN);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nexus_panels__offered_to_the_holder_in_its_mode_only),
        cmocka_unit_test(test_nexus_panels__none_under_rules_version_5),
        cmocka_unit_test(test_nexus_panels__not_built_refused_with_its_row),
        cmocka_unit_test(test_nexus_panels__harkonnen_cunning_owes_a_return),
        cmocka_unit_test(test_nexus_panels__ecaz_answer_told_to_asker_and_asked),
        cmocka_unit_test(test_nexus_panels__records_survive_the_encoding),
        cmocka_unit_test(test_nexus_panels__revival_panels_in_revival_only),
        cmocka_unit_test(test_nexus_panels__fremen_betrayal_no_ride),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
