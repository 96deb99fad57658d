/*
 * seed_state.c - writes the seed corpus of the state decoder's fuzz target
 * (tests/fuzz/corpus/fuzz_state): the canonical encoding of real states,
 * taken along seeded random games of 2 to 6 seats (one with the Nexus
 * Cards, so the module's block is fuzzed too, and one Advanced, with the
 * double blow's piles), and an Advanced battle (constructed) with a
 * plan's forces by strength committed.
 *
 * Run by `make fuzz-seeds` whenever the state encoding changes (a corpus of
 * another rules version is refused at its first bytes and fuzzes nothing).
 * It writes only into the directory it is given.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "engine/engine.h"
#include "tests/support/support.h"

#define GAMES 6 /* the fifth with the Nexus Cards, the sixth Advanced */
#define NEXUS_GAME 4
#define ADVANCED_GAME 5
#define MAX_ACTIONS 20000

/* The versions of each game written out; the last state is written too. */
static const unsigned snapshot_at[] = {1, 4, 7, 10, 40, 150, 400};

static int write_state(const char *dir, unsigned game, unsigned version, const engine_state *st)
{
    static uint8_t buf[ENGINE_STATE_ENCODED_MAX];
    size_t len = engine_state_encode(buf, sizeof buf, st);
    char path[4096];
    snprintf(path, sizeof path, "%s/game%u_v%u", dir, game, version);
    FILE *f = fopen(path, "wb");
    if (f == NULL) {
        perror(path);
        return -1;
    }
    int rc = fwrite(buf, 1, len, f) == len ? 0 : -1;
    if (fclose(f) != 0 || rc != 0) {
        fprintf(stderr, "seed_state: writing %s failed\n", path);
        return -1;
    }
    return 0;
}

static int play_game(const char *dir, unsigned game)
{
    uint64_t prng = 0x5eed0000u + game;
    uint8_t seed[ENGINE_SEED_BYTES];
    for (unsigned i = 0; i < ENGINE_SEED_BYTES; i++)
        seed[i] = (uint8_t)test_prng_next(&prng);
    engine_config cfg;
    /* The Advanced game at six seats: the Fremen play, so the double blow
     * and its further worms are in its states. */
    test_random_config(&cfg, game == ADVANCED_GAME ? 6 : 2 + game % 5, game == ADVANCED_GAME,
                       &prng);
    if (game == NEXUS_GAME)
        cfg.modules = ENGINE_MODULE_NEXUS_CARDS;
    static engine_state st;
    engine_rng rng;
    engine_rng_init(&rng, seed, 0);
    if (engine_setup(NULL, &st, &cfg, &rng) != ENGINE_ACCEPTED) {
        fprintf(stderr, "seed_state: game %u: the table is refused\n", game);
        return -1;
    }
    unsigned next = 0, version = 0;
    while (version < MAX_ACTIONS && st.phase != ENGINE_PHASE_GAME_OVER) {
        engine_action act;
        if (test_random_legal(&act, &st, &prng) != 0)
            break;
        version++;
        engine_rng_init(&rng, seed, version);
        if (engine_apply(NULL, &st, &act, &rng) != ENGINE_ACCEPTED) {
            fprintf(stderr, "seed_state: game %u: a legal action was refused\n", game);
            return -1;
        }
        if (next < sizeof snapshot_at / sizeof snapshot_at[0] && version == snapshot_at[next]) {
            if (write_state(dir, game, version, &st) != 0)
                return -1;
            next++;
        }
    }
    return write_state(dir, game, version, &st);
}

/* Writes st's encoding to DIR/name. */
static int write_named(const char *dir, const char *name, const engine_state *st)
{
    static uint8_t buf[ENGINE_STATE_ENCODED_MAX];
    size_t len = engine_state_encode(buf, sizeof buf, st);
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (f == NULL) {
        perror(path);
        return -1;
    }
    int rc = fwrite(buf, 1, len, f) == len ? 0 : -1;
    return fclose(f) != 0 || rc != 0 ? -1 : 0;
}

/* A cleared Advanced table of `faction` (seat 0) and the Harkonnen (seat
 * 1); the location of The Great Flat sector 14, or -1 when refused. */
static int advanced_table(engine_state *st, engine_rng *rng, const uint8_t *seed,
                          unsigned faction)
{
    engine_config cfg;
    engine_config_init(&cfg);
    cfg.n_seats = 2;
    cfg.faction[0] = (uint8_t)faction;
    cfg.faction[1] = ENGINE_FACTION_HARKONNEN;
    cfg.is_advanced = 1;
    engine_rng_init(rng, seed, 0);
    if (engine_position_new(NULL, st, &cfg, rng) != ENGINE_ACCEPTED)
        return -1;
    return engine_location_find(ENGINE_TERRITORY_THE_GREAT_FLAT, 14);
}

/* Emperor (2 Sardaukar) against Harkonnen on The Great Flat, the
 * Harkonnen plan in: 2 forces at full strength, 3 at half. */
static int advanced_battle(const char *dir)
{
    static const uint8_t seed[ENGINE_SEED_BYTES] = {0x5e, 0xed, 0xad};
    static engine_state st;
    engine_rng rng;
    int flat = advanced_table(&st, &rng, seed, ENGINE_FACTION_EMPEROR);
    int feyd = engine_leader_from_slug("feyd_rautha");
    engine_action plan = {ENGINE_ACTION_BATTLE_PLAN, 1, {0, -1, -1, -1, 2, 4, 1, 1}};
    plan.arg[0] = (int16_t)feyd;
    if (flat < 0 || feyd < 0 ||
        engine_position_forces(&st, 0, (unsigned)flat, 4, 2) != 0 ||
        engine_position_forces(&st, 1, (unsigned)flat, 6, 0) != 0 ||
        engine_position_seat_spice(&st, 1, 4) != 0 ||
        engine_position_enter(&st, ENGINE_PHASE_BATTLE, 3, 0, &rng) != 0 ||
        engine_apply(NULL, &st, &plan, &rng) != ENGINE_ACCEPTED) {
        fprintf(stderr, "seed_state: the Advanced battle is refused\n");
        return -1;
    }
    return write_named(dir, "advanced_battle", &st);
}

/* Rules version 6: Atreides against Harkonnen on The Great Flat, the
 * Kwisatz Haderach awake and declared with the Atreides plan. */
static int advanced_kh_battle(const char *dir)
{
    static const uint8_t seed[ENGINE_SEED_BYTES] = {0x6b, 0x68};
    static engine_state st;
    engine_rng rng;
    int flat = advanced_table(&st, &rng, seed, ENGINE_FACTION_ATREIDES);
    int thufir = engine_leader_from_slug("thufir_hawat");
    engine_action pass = {ENGINE_ACTION_PRESCIENCE_PASS, 0, {0}};
    engine_action kh = {ENGINE_ACTION_POWER, 0, {0, ENGINE_KH_WITH}};
    kh.arg[0] = (int16_t)engine_power_from_slug("kwisatz_haderach");
    engine_action plan = {ENGINE_ACTION_BATTLE_PLAN, 0, {0, -1, -1, -1, 2, 2, 1, 1}};
    plan.arg[0] = (int16_t)thufir;
    if (flat < 0 || thufir < 0 ||
        engine_position_forces(&st, 0, (unsigned)flat, 5, 0) != 0 ||
        engine_position_forces(&st, 1, (unsigned)flat, 6, 0) != 0 ||
        engine_position_seat_spice(&st, 0, 4) != 0 ||
        engine_position_kwisatz_haderach(&st, 8, 0) != 0 ||
        engine_position_enter(&st, ENGINE_PHASE_BATTLE, 3, 0, &rng) != 0 ||
        engine_apply(NULL, &st, &pass, &rng) != ENGINE_ACCEPTED ||
        engine_apply(NULL, &st, &kh, &rng) != ENGINE_ACCEPTED ||
        engine_apply(NULL, &st, &plan, &rng) != ENGINE_ACCEPTED) {
        fprintf(stderr, "seed_state: the Kwisatz Haderach's battle is refused\n");
        return -1;
    }
    return write_named(dir, "advanced_kh_battle", &st);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: seed_state DIR\n");
        return 2;
    }
    if (sodium_init() < 0)
        return 1;
    for (unsigned g = 0; g < GAMES; g++)
        if (play_game(argv[1], g) != 0)
            return 1;
    return advanced_battle(argv[1]) != 0 || advanced_kh_battle(argv[1]) != 0;
}
