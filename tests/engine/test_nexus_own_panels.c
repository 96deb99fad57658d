/*
 * test_nexus_own_panels.c - the Nexus panels played at their holder's own
 * prompt from rules version 7 (engine/nexus_guild.c rows 17 and 18's
 * board shipments, engine/nexus_fremen.c row 11, engine/nexus_atreides.c
 * row 2; docs/RULINGS.md R92, R126-R128): under version 6 they are not
 * offered (18's board shipments) or refused naming their row (17, 11, 2), so
 * the stored rooms re-fold unchanged; under version 7 each family offered
 * is accepted and spends the card once, and the Guild Cunning's record
 * survives the encoding and holds only in Shipment and Movement, the
 * Fremen Cunning's names the worm it rides, the Atreides Cunning's is
 * told to the two sides alone. The rules scenarios
 * (tests/scenarios/nexus_panel_guild_*.json, _fremen_cunning.json) show the
 * effects themselves. Positions are constructed and folded by
 * engine_apply, as a room would be.
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

static const uint8_t SEED[ENGINE_SEED_BYTES] = {29};
enum { N_SEATS = 4 };

/* Shipment and Movement of turn 2, the card printed for `card` given to
 * the seat whose SHIP step it is; *holder_out that seat. `guild`: the
 * Guild is seated (its card their Cunning when they hold it). */
static void position_at(engine_state *st, engine_rng *rng, unsigned rules_version, int guild,
                        unsigned guild_seat, unsigned *holder_out)
{
    engine_config cfg;
    engine_config_init(&cfg);
    cfg.n_seats = N_SEATS;
    static const uint8_t others[] = {ENGINE_FACTION_ATREIDES, ENGINE_FACTION_HARKONNEN,
                                     ENGINE_FACTION_EMPEROR, ENGINE_FACTION_BENE_GESSERIT};
    for (unsigned s = 0, k = 0; s < N_SEATS; s++)
        cfg.faction[s] = guild && s == guild_seat ? ENGINE_FACTION_GUILD : others[k++];
    cfg.modules = ENGINE_MODULE_NEXUS_CARDS;
    cfg.rules_version = (uint16_t)rules_version;
    engine_rng_init(rng, SEED, 0);
    assert_int_equal(engine_position_new(NULL, st, &cfg, rng), ENGINE_ACCEPTED);
    int tueks = engine_location_find(ENGINE_TERRITORY_TUEKS_SIETCH, 4);
    int basin = engine_location_find(ENGINE_TERRITORY_IMPERIAL_BASIN, 9);
    assert_true(tueks >= 0 && basin >= 0);
    for (unsigned s = 0; s < N_SEATS; s++)
        assert_int_equal(engine_position_seat_spice(st, (uint8_t)s, 6), 0);
    assert_int_equal(engine_position_enter(st, ENGINE_PHASE_SHIPMENT_MOVEMENT, 2, 0, rng), 0);
    unsigned holder = 0;
    while (!(st->awaiting & ENGINE_SEAT_BIT(holder)))
        holder++;
    assert_true(holder < N_SEATS);
    /* 4 forces at Tuek's Sietch, 3 in the Imperial Basin */
    assert_int_equal(engine_position_forces(st, (uint8_t)holder, (unsigned)tueks, 4, 0), 0);
    assert_int_equal(engine_position_forces(st, (uint8_t)holder, (unsigned)basin, 3, 0), 0);
    assert_true(engine_position_nexus_give(st, (uint8_t)holder,
                                           guild ? st->config.faction[holder]
                                                 : ENGINE_FACTION_GUILD) >= 0);
    *holder_out = holder;
}

/* position_at with the Guild, if seated, at the seat that ships first. */
static void position(engine_state *st, engine_rng *rng, unsigned rules_version, int guild,
                     unsigned *holder_out)
{
    unsigned first;
    position_at(st, rng, rules_version, 0, 0, &first);
    position_at(st, rng, rules_version, guild, first, holder_out);
    assert_int_equal(*holder_out, first);
}

static engine_action power(unsigned seat, const char *slug)
{
    engine_action a;
    memset(&a, 0, sizeof a);
    a.kind = ENGINE_ACTION_POWER;
    a.seat = (uint8_t)seat;
    a.arg[0] = (int16_t)engine_power_from_slug(slug);
    return a;
}


/* How many families of power `slug` the seat is offered; each one's
 * lowest and highest actions are accepted, spend the card and pay the
 * bank alone. */
static unsigned families_accepted(const engine_state *st, engine_rng *rng, unsigned seat,
                                  const char *slug)
{
    static engine_legal legal[ENGINE_LEGAL_MAX];
    size_t n = engine_legal_actions(legal, ENGINE_LEGAL_MAX, st, (uint8_t)seat);
    int id = engine_power_from_slug(slug);
    unsigned found = 0;
    for (size_t i = 0; i < n; i++) {
        if (legal[i].kind != ENGINE_ACTION_POWER || legal[i].lo[0] != id)
            continue;
        found++;
        for (int hi = 0; hi < 2; hi++) {
            engine_action a = power(seat, slug);
            for (unsigned k = 1; k < ENGINE_ACTION_MAX_ARGS; k++)
                a.arg[k] = hi ? legal[i].hi[k] : legal[i].lo[k];
            engine_state after = *st;
            engine_verdict_detail why;
            assert_int_equal(engine_apply(&why, &after, &a, rng), ENGINE_ACCEPTED);
            assert_int_equal(engine_nexus_held(&after, seat), -1);
            /* it moves next, but for a Bene Gesserit sending after a
             * shipment from reserves */
            assert_true(after.step == SHIP_STEP_MOVE || engine_window_top(&after) != NULL);
            unsigned paid = (unsigned)(st->seat[seat].spice - after.seat[seat].spice);
            assert_true(paid > 0);
            assert_int_equal(after.spice_burned, st->spice_burned + paid);
            for (unsigned s = 0; s < N_SEATS; s++)
                if (s != seat)
                    assert_int_equal(after.seat[s].spice, st->seat[s].spice);
        }
    }
    return found;
}

/* ======================================================== rules version 6 */

static void test_nexus_own_panels__not_under_version_6(void **state)
{
    (void)state;
    engine_state st;
    engine_rng rng;
    unsigned holder;
    engine_verdict_detail why;
    /* Row 18's board shipments are no power under version 6 ... */
    position(&st, &rng, 6, 0, &holder);
    assert_int_equal(families_accepted(&st, &rng, holder, "nexus_guild_secret_ally_cross"), 0);
    assert_int_equal(families_accepted(&st, &rng, holder, "nexus_guild_secret_ally_back"), 0);
    assert_true(families_accepted(&st, &rng, holder, "nexus_guild_secret_ally") > 0);
    engine_action a = power(holder, "nexus_guild_secret_ally_back");
    a.arg[1] = (int16_t)engine_location_find(ENGINE_TERRITORY_IMPERIAL_BASIN, 9);
    a.arg[2] = 1;
    assert_int_equal(test_try(&why, &st, &a, &rng), ENGINE_REJECT_NOT_YOUR_POWER);
    /* ... and the Guild Cunning is refused naming its row. */
    position(&st, &rng, 6, 1, &holder);
    assert_int_equal(st.config.faction[holder], ENGINE_FACTION_GUILD);
    a = power(holder, "nexus_guild_cunning");
    assert_int_equal(test_try(&why, &st, &a, &rng), ENGINE_REJECT_RULE_NOT_IMPLEMENTED);
    assert_int_equal(why.value, 17);
}

/* ======================================================== rules version 7 */

static void test_nexus_own_panels__board_shipments_accepted(void **state)
{
    (void)state;
    engine_state st;
    engine_rng rng;
    unsigned holder;
    position(&st, &rng, ENGINE_RULES_VERSION, 0, &holder);
    /* From each of its 2 locations, to every location it may land at */
    assert_true(families_accepted(&st, &rng, holder, "nexus_guild_secret_ally_cross") > 10);
    assert_int_equal(families_accepted(&st, &rng, holder, "nexus_guild_secret_ally_back"), 2);
    /* Not in another seat's turn, nor to where it stands */
    engine_verdict_detail why;
    engine_action a = power((holder + 1) % N_SEATS, "nexus_guild_secret_ally_back");
    a.arg[1] = (int16_t)engine_location_find(ENGINE_TERRITORY_IMPERIAL_BASIN, 9);
    a.arg[2] = 1;
    assert_int_not_equal(test_try(&why, &st, &a, &rng), ENGINE_ACCEPTED);
    a = power(holder, "nexus_guild_secret_ally_cross");
    a.arg[1] = a.arg[2] = (int16_t)engine_location_find(ENGINE_TERRITORY_IMPERIAL_BASIN, 9);
    a.arg[3] = 1;
    assert_int_equal(test_try(&why, &st, &a, &rng), ENGINE_REJECT_ARG_OUT_OF_RANGE);
}

/* The worm of turn 2 strikes Cielago North, where no Fremen stand; 4 of
 * theirs in the Funeral Plain; they hold their own card. The Nexus. */
static void worm_position(engine_state *st, engine_rng *rng, unsigned rules_version)
{
    test_nexus_three_seats(st, rng, SEED, rules_version, ENGINE_FACTION_ATREIDES,
                           ENGINE_FACTION_FREMEN, ENGINE_FACTION_HARKONNEN);
    int plain = engine_location_find(ENGINE_TERRITORY_FUNERAL_PLAIN, 14);
    assert_true(plain >= 0);
    assert_int_equal(engine_position_forces(st, 1, (unsigned)plain, 4, 0), 0);
    assert_true(engine_position_nexus_give(st, 1, ENGINE_FACTION_FREMEN) >= 0);
    int devoured = engine_spice_card_of(ENGINE_TERRITORY_CIELAGO_NORTH);
    int placed = engine_spice_card_of(ENGINE_TERRITORY_THE_GREAT_FLAT);
    assert_int_equal(engine_position_spice_discard(st, (unsigned)devoured), 0);
    assert_int_equal(engine_position_spice_top(st, (unsigned)placed), 0);
    assert_int_equal(engine_position_spice_top(st, (unsigned)engine_spice_worm(0)), 0);
    assert_int_equal(engine_position_enter(st, ENGINE_PHASE_SPICE_BLOW, 2, 0, rng), 0);
    assert_int_equal(st->step, BLOW_STEP_NEXUS);
}

/* Row 11: refused naming its row under version 6; from version 7 a family
 * per desert territory holding Fremen (the Funeral Plain among them), each
 * accepted: the card spent, the ride recorded for this worm. */
static void test_nexus_own_panels__fremen_cunning(void **state)
{
    (void)state;
    engine_state st;
    engine_rng rng;
    engine_verdict_detail why;
    worm_position(&st, &rng, 6);
    engine_action a = power(1, "nexus_fremen_cunning");
    a.arg[1] = ENGINE_TERRITORY_FUNERAL_PLAIN;
    assert_int_equal(test_try(&why, &st, &a, &rng), ENGINE_REJECT_RULE_NOT_IMPLEMENTED);
    assert_int_equal(why.value, 11);
    worm_position(&st, &rng, ENGINE_RULES_VERSION);
    static engine_legal legal[ENGINE_LEGAL_MAX];
    size_t n = engine_legal_actions(legal, ENGINE_LEGAL_MAX, &st, 1);
    unsigned found = 0, plain = 0;
    for (size_t i = 0; i < n; i++) {
        if (legal[i].kind != ENGINE_ACTION_POWER || legal[i].lo[0] != a.arg[0])
            continue;
        found++;
        plain += legal[i].lo[1] == ENGINE_TERRITORY_FUNERAL_PLAIN;
        a.arg[1] = legal[i].lo[1];
        engine_state after = st;
        assert_int_equal(engine_apply(&why, &after, &a, &rng), ENGINE_ACCEPTED);
        assert_int_equal(engine_nexus_held(&after, 1), -1);
        const engine_effect *e = engine_effect_find(&after, ENGINE_EFFECT_NEXUS_RIDE);
        assert_non_null(e);
        assert_int_equal(e->value, legal[i].lo[1]);
        assert_int_equal(e->arg, ENGINE_TERRITORY_CIELAGO_NORTH);
        assert_int_equal(engine_state_check(&after), 0);
    }
    assert_true(found >= 1);
    assert_int_equal(plain, 1);
    /* not the worm's territory, nor a stronghold */
    a.arg[1] = ENGINE_TERRITORY_CIELAGO_NORTH;
    assert_int_equal(test_try(&why, &st, &a, &rng), ENGINE_REJECT_RIDE_SOURCE);
    a.arg[1] = ENGINE_TERRITORY_SIETCH_TABR;
    assert_int_equal(test_try(&why, &st, &a, &rng), ENGINE_REJECT_RIDE_SOURCE);
}

/* Turn 3's battle in The Great Flat, the Atreides (seat 0, holding their
 * own card) against the Harkonnen (seat 1, with a Crysknife and a Snooper);
 * the Emperor (seat 2) looks on. The Atreides ask the weapon; every Karama
 * window let stand; the Harkonnen answer and commit. */
static void battle_position(engine_state *st, engine_rng *rng, unsigned rules_version,
                            int *knife, int *snooper)
{
    test_nexus_three_seats(st, rng, SEED, rules_version, ENGINE_FACTION_ATREIDES,
                           ENGINE_FACTION_HARKONNEN, ENGINE_FACTION_EMPEROR);
    int flat = engine_location_find(ENGINE_TERRITORY_THE_GREAT_FLAT, 14);
    assert_true(flat >= 0);
    assert_int_equal(engine_position_forces(st, 0, (unsigned)flat, 5, 0), 0);
    assert_int_equal(engine_position_forces(st, 1, (unsigned)flat, 5, 0), 0);
    *knife = engine_position_give_card(st, 1, ENGINE_CARD_CRYSKNIFE);
    *snooper = engine_position_give_card(st, 1, ENGINE_CARD_SNOOPER);
    assert_true(*knife >= 0 && *snooper >= 0);
    assert_true(engine_position_nexus_give(st, 0, ENGINE_FACTION_ATREIDES) >= 0);
    assert_int_equal(engine_position_enter(st, ENGINE_PHASE_BATTLE, 3, 0, rng), 0);
    /* from rules version 8, the Bene Gesserit absent, a side holding a
     * Nexus card is asked first whether it Voices (R150): it passes */
    engine_action voice = {.kind = ENGINE_ACTION_ANSWER, .seat = 0};
    voice.arg[0] = (int16_t)engine_window_from_slug("nexus_voice");
    if (rules_version >= 8)
        assert_int_equal(engine_apply(NULL, st, &voice, rng), ENGINE_ACCEPTED);
    engine_action a = {.kind = ENGINE_ACTION_PRESCIENCE, .seat = 0};
    a.arg[0] = ENGINE_PRESCIENCE_WEAPON;
    assert_int_equal(engine_apply(NULL, st, &a, rng), ENGINE_ACCEPTED);
    for (unsigned s = 0; s < 3; s++) {
        engine_action allow = {.kind = ENGINE_ACTION_KARAMA_ALLOW, .seat = (uint8_t)s};
        if (st->awaiting & ENGINE_SEAT_BIT(s))
            (void)engine_apply(NULL, st, &allow, rng);
    }
    engine_action answer = {.kind = ENGINE_ACTION_PRESCIENCE_ANSWER, .seat = 1};
    answer.arg[0] = (int16_t)*knife;
    assert_int_equal(engine_apply(NULL, st, &answer, rng), ENGINE_ACCEPTED);
}

/* Row 2: refused naming its row under version 6; from version 7, refused
 * until the other plan is committed, then a family per element but the
 * first; the defense told is the Snooper, seen by the Atreides, and the
 * value is the two sides' alone. */
static void test_nexus_own_panels__atreides_cunning(void **state)
{
    (void)state;
    static engine_state st;
    engine_rng rng;
    engine_verdict_detail why;
    int knife, snooper;
    engine_action a = power(0, "nexus_atreides_cunning");
    a.arg[1] = ENGINE_PRESCIENCE_DEFENSE;
    battle_position(&st, &rng, 6, &knife, &snooper);
    assert_int_equal(test_try(&why, &st, &a, &rng), ENGINE_REJECT_RULE_NOT_IMPLEMENTED);
    assert_int_equal(why.value, 2);
    battle_position(&st, &rng, ENGINE_RULES_VERSION, &knife, &snooper);
    assert_int_equal(test_try(&why, &st, &a, &rng), ENGINE_REJECT_WRONG_STEP);
    engine_action plan = {.kind = ENGINE_ACTION_BATTLE_PLAN, .seat = 1};
    plan.arg[0] = (int16_t)engine_leader_from_slug("feyd_rautha");
    plan.arg[1] = -1;
    plan.arg[2] = (int16_t)knife;
    plan.arg[3] = (int16_t)snooper;
    plan.arg[4] = 2;
    assert_int_equal(engine_apply(&why, &st, &plan, &rng), ENGINE_ACCEPTED);
    static engine_legal legal[ENGINE_LEGAL_MAX];
    size_t n = engine_legal_actions(legal, ENGINE_LEGAL_MAX, &st, 0);
    unsigned elements = 0;
    for (size_t i = 0; i < n; i++)
        if (legal[i].kind == ENGINE_ACTION_POWER && legal[i].lo[0] == a.arg[0]) {
            assert_int_not_equal(legal[i].lo[1], ENGINE_PRESCIENCE_WEAPON);
            elements++;
        }
    assert_int_equal(elements, 3); /* leader, defense, dial */
    engine_action again = a;
    again.arg[1] = ENGINE_PRESCIENCE_WEAPON;
    assert_int_equal(test_try(&why, &st, &again, &rng), ENGINE_REJECT_ARG_OUT_OF_RANGE);
    assert_int_equal(engine_apply(&why, &st, &a, &rng), ENGINE_ACCEPTED);
    const engine_effect *e = engine_effect_find(&st, ENGINE_EFFECT_NEXUS_PRESCIENCE);
    assert_non_null(e);
    assert_int_equal(e->owner, 0);
    assert_int_equal(e->value, ENGINE_PRESCIENCE_DEFENSE);
    assert_int_equal(e->arg, snooper);
    assert_true(st.card[snooper].known_by & ENGINE_SEAT_BIT(0));
    assert_int_equal(engine_nexus_held(&st, 0), -1);
    assert_int_equal(engine_state_check(&st), 0);
    for (unsigned viewer = 0; viewer <= 3; viewer++) {
        static engine_state v;
        engine_view(&v, &st, viewer < 3 ? (uint8_t)viewer : ENGINE_VIEW_PUBLIC);
        const engine_effect *ve = engine_effect_find(&v, ENGINE_EFFECT_NEXUS_PRESCIENCE);
        assert_non_null(ve);
        assert_int_equal(ve->arg, viewer < 2 ? snooper : 0);
    }
}

/* The Guild Cunning's record: owed once played, the card gone; it survives
 * the encoding, and is no state outside Shipment and Movement or under
 * version 6. */
static void test_nexus_own_panels__guild_cunning_record(void **state)
{
    (void)state;
    engine_state st;
    engine_rng rng;
    unsigned holder;
    position(&st, &rng, ENGINE_RULES_VERSION, 1, &holder);
    assert_int_equal(st.config.faction[holder], ENGINE_FACTION_GUILD);
    engine_verdict_detail why;
    engine_action a = power(holder, "nexus_guild_cunning");
    assert_int_equal(engine_apply(&why, &st, &a, &rng), ENGINE_ACCEPTED);
    assert_int_equal(engine_nexus_held(&st, holder), -1);
    const engine_effect *e = engine_effect_find(&st, ENGINE_EFFECT_NEXUS_SHIPMENT);
    assert_non_null(e);
    assert_int_equal(e->owner, holder);
    assert_int_equal(e->value, 1);
    assert_int_equal(test_try(&why, &st, &a, &rng), ENGINE_REJECT_NOT_YOUR_POWER);
    uint8_t buf[ENGINE_STATE_ENCODED_MAX];
    size_t n = engine_state_encode(buf, sizeof buf, &st);
    engine_state back;
    assert_int_equal(engine_state_decode(&back, buf, n), 0);
    assert_memory_equal(back.effect, st.effect, sizeof st.effect);
    assert_int_equal(engine_state_check(&back), 0);
    assert_int_equal(engine__nexus_check(&back), 1);
    back.config.rules_version = 6;
    assert_int_equal(engine__nexus_check(&back), 0);
    back = st;
    back.phase = ENGINE_PHASE_BATTLE;
    assert_int_equal(engine__nexus_check(&back), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nexus_own_panels__not_under_version_6),
        cmocka_unit_test(test_nexus_own_panels__board_shipments_accepted),
        cmocka_unit_test(test_nexus_own_panels__guild_cunning_record),
        cmocka_unit_test(test_nexus_own_panels__fremen_cunning),
        cmocka_unit_test(test_nexus_own_panels__atreides_cunning),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
