/*
 * internal.h - what the files of schema/ share and nothing outside
 * includes: the error writer and the engine-side checks of an action that
 * the protobuf codec (codec.c) and the action JSON (action_json.c) both
 * apply, so that the two never disagree on what an action may hold.
 */
#ifndef MENTAT_SCHEMA_INTERNAL_H
#define MENTAT_SCHEMA_INTERNAL_H

#include "schema/schema.h"

#if defined(__GNUC__)
#define CODEC__PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define CODEC__PRINTF(f, a)
#endif

/* Writes one line into err (SCHEMA_ERRMSG bytes; err may be NULL) and
 * returns SCHEMA_EDECODE: every "the input is wrong" path returns through
 * here. */
int codec__fail(char *err, const char *fmt, ...) CODEC__PRINTF(2, 3);

/* A leader or card argument may say "none" with -1 (engine.h: revive,
 * ghola, battle_plan); the engine decides where none is allowed. */
#define CODEC_NONE (-1)

/* The values argument `i` of action kind `kind` may take, in engine terms
 * (a faction is 0..11 here, 1..12 on the wire): its type's range, less
 * what its wire field cannot hold (CODEC_NONE in a uint32 field). */
void codec__arg_range(int32_t *lo_out, int32_t *hi_out, unsigned kind, unsigned i);

/* 0 if `act` is one the codec can write and read back: a known kind with
 * an Action variant, each used argument within its type's range and its
 * wire field's (a uint32 field holds no CODEC_NONE), each unused
 * argument 0. Else SCHEMA_EDECODE with err naming `path`.<argument>. The
 * seat is not checked (it travels outside the action). Defined in
 * codec.c, which alone knows the wire fields. */
int codec__action_check(const engine_action *act, char *err, const char *path);

#endif
