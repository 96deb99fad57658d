/*
 * support.h - helpers shared by the test suites: a seeded PRNG and a
 * uniformly random legal action drawn from engine_legal_actions.
 */
#ifndef MENTAT_TESTS_SUPPORT_H
#define MENTAT_TESTS_SUPPORT_H

#include <stdint.h>

#include "engine/engine.h"

/* splitmix64: the tests' own randomness, never the engine's. */
uint64_t test_prng_next(uint64_t *state);
uint32_t test_prng_below(uint64_t *state, uint32_t n);

/* Draws a uniformly chosen legal family, then its arguments, into *out.
 * Returns 0, or -1 if no seat has a legal action. */
int test_random_legal(engine_action *out, const engine_state *st, uint64_t *prng);

/* The mentat binary the CLI suites run, as an absolute path in out
 * (PATH_MAX bytes): $MENTAT_BIN, else <build>/mentat beside the test
 * binary argv0 (<build>/tests/tools/test_x), else ./mentat. 0, or -1 with
 * a message on stderr naming the suite. */
int test_find_mentat(char *out, const char *argv0, const char *suite);

/* A configuration of n seats with a random choice of classic factions. */
void test_random_config(engine_config *cfg, unsigned n_seats, int is_advanced, uint64_t *prng);

#endif
