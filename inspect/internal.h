/*
 * internal.h - what the files of inspect/ share and nothing outside
 * includes: a bounded text builder, names of seats, locations, cards and
 * spice cards as a viewer may print them.
 *
 * Every helper here reads only the engine_state it is given; called with a
 * view, it can print nothing the viewer does not know.
 */
#ifndef MENTAT_INSPECT_INTERNAL_H
#define MENTAT_INSPECT_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>

#include "inspect/inspect.h"

#define INSPECT__SEAT_NONE 0xFF

/* ======================================================= text builder */

/* Text appended into a caller's buffer; what does not fit is cut, and the
 * buffer is always NUL-terminated. */
typedef struct inspect__text {
    char *buf;                     /* the caller's buffer */
    size_t cap;                    /* its size in bytes, >= 1 */
    size_t len;                    /* bytes written, < cap */
} inspect__text;

void inspect__text_init(inspect__text *t, char *buf, size_t cap);
void inspect__text_add(inspect__text *t, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Appends a sentence: a space first unless the text is empty, and the
 * first letter capitalised. */
void inspect__text_sentence(inspect__text *t, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* ================================================================ hex */

/* Decodes string token tok[i] of text as exactly n bytes of hex into out:
 * 0, or -1 (no token, not a string, another length, not hex). */
int inspect__hex_member(uint8_t *out, size_t n, const codec_json_token *tok, int i,
                        const char *text);

/* ============================================================== names */

/* The seat playing faction f in st, or -1. */
int inspect__seat_of(const engine_state *st, unsigned f);
/* "you" when seat is the view's viewer, else the faction title ("Bene
 * Gesserit"); "the engine" for ENGINE_SEAT_ENGINE; "?" out of range. */
const char *inspect__who(const engine_state *view, uint8_t seat);
/* The faction title of a seat, never "you". */
const char *inspect__seat_title(const engine_state *st, uint8_t seat);
/* Location as "Arrakeen" or "Red Chasm (sector 6)"; "?" out of range. */
void inspect__location_text(char *out, size_t cap, unsigned loc);
/* Territory name or "?". */
const char *inspect__territory(unsigned t);
/* Leader name or "?". */
const char *inspect__leader(unsigned leader);
/* The face of treachery card `card` in the view, or NULL when the viewer
 * does not know it. */
const char *inspect__card_face(const engine_state *view, int card);
/* Name of spice card `card` of the base deck: the territory's name, or
 * "Shai-Hulud" (*is_worm_out set); "?" for none. */
const char *inspect__spice_card_name(unsigned card, int *is_worm_out, unsigned *territory_out);
/* The name of a seat's elite forces: "Sardaukar", "Fedaykin" or "elite
 * forces". */
const char *inspect__elite_name(const engine_state *st, uint8_t seat);
/* Force totals of a seat in a territory (plain and elite, all sectors). */
unsigned inspect__territory_forces(const engine_state *st, unsigned territory, uint8_t seat);

/* ============================================================== audit */

/* Bytes of engine_state that the audit's field table (inspect/audit.c)
 * does not name: padding only, or the table misses a field (a test). */
size_t inspect__audit_uncovered_bytes(void);

/* ---- knowledge by rule (inspect/audit_marks.c) */

/* The first component whose marks disagree with the rules. */
typedef struct inspect__marks_finding {
    int is_set;                    /* 1 when one was found */
    uint8_t part;                  /* 0 treachery card, 1 traitor, 2 spice card */
    uint8_t index;                 /* its number */
    uint8_t seat;                  /* the first seat wrongly marked (or missing), or the public */
    char field[INSPECT_AUDIT_FIELD_CHARS]; /* "marks.card[12].known_by" */
    char detail[INSPECT_TEXT_CHARS]; /* the engine's marks, the rules', and the rule */
} inspect__marks_finding;

typedef struct inspect__marks_result {
    unsigned n_over;               /* components marked known to a seat no rule shows them to */
    unsigned n_forgotten;          /* components a rule shows to a seat whose mark is missing */
    inspect__marks_finding over, forgotten; /* the first of each */
} inspect__marks_result;

/* Recomputes, by the rules' table alone, who may know each treachery
 * card, traitor and spice card after `act` took `before` to `after`, and
 * compares with after's known_by. 1 when a mark says more than the rules
 * give (out->over), else 0. */
int inspect__marks_check(inspect__marks_result *out, const engine_state *before,
                         const engine_state *after, const engine_action *act);
/* Row i of that table: its source (book, section) and in *what_out what
 * it says; NULL past the last row. */
const char *inspect__marks_rule_source(size_t i, const char **what_out);

/* ---- output paths (inspect/audit_outputs.c) */

/* inspect's own rows (log line, diff, render): inspect_audit_outputs, and
 * what the genuine observer compares. */
#define INSPECT__N_OUTPUTS 3
extern const inspect_audit_output inspect__outputs[INSPECT__N_OUTPUTS];

/* ---- links across time (inspect/audit.c) */

/* The first treachery card whose face `viewer` saw in states[..] (a
 * room's states by version) and that is no longer marked known to it at
 * a later version though its number was not dealt a face since (it left
 * no discard pile): 1 with the versions seen and at, and the card. */
int inspect__history_link(uint32_t *seen_out, uint32_t *at_out, unsigned *card_out,
                          const engine_state *states, uint32_t n_states, uint8_t viewer);

/* ---- numbers and faces (inspect/audit_deals.c) */

/* Adds to acc the treachery cards re-dealt between before and after
 * (those that left the discard pile: a reshuffle). */
void inspect__redeal_add(inspect_audit_redeal *acc, const engine_state *before,
                         const engine_state *after);

#endif
