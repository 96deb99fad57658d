/*
 * inspect.h - reading a room the way a referee, an operator or an auditor
 * does: replay to any version as any seat saw it, the per-seat log, the
 * difference between two versions, a picture of Arrakis, and the checks
 * of receipts held outside the ledger.
 *
 * Layer: inspect. It reads the ledger (ledger.h) and drives the engine
 * (engine.h); it never writes an event, a checkpoint or anything else to
 * the ledger. Everything a seat is shown here is computed from that seat's
 * engine_view and from the action fields that seat may see
 * (inspect_action_mask), never from the full state.
 *
 * Viewers: a seat index 0..n_seats-1, ENGINE_VIEW_PUBLIC (a spectator) or
 * ENGINE_SEAT_ENGINE (the auditor: every hidden fact).
 *
 * Return codes: 0, a LEDGER_E* code from the ledger passed through
 * unchanged, or one of INSPECT_E* below. The message of a ledger failure
 * is on the ledger handle (ledger_errmsg).
 */
#ifndef MENTAT_INSPECT_H
#define MENTAT_INSPECT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "engine/engine.h"
#include "ledger/ledger.h"
#include "schema/schema.h"

#define INSPECT_OK 0
#define INSPECT_EINPUT (-30701)      /* bad input from the caller (version past head, bad viewer, bad JSON) */
#define INSPECT_ERROR (-30702)       /* anything else (allocation, a write to a FILE failing) */

#define INSPECT_TEXT_CHARS 480       /* one log line or change, NUL included */

/* ================================================================ replay */

/* The state after `version` of `room` (0 = the opening position) as
 * `viewer` knew it: nearest checkpoint plus a fold (ledger_state_at), then
 * engine_view. Needs the audit key to unseal the room's seed, as
 * ledger_state_at does. INSPECT_EINPUT for a viewer that is not a seat of
 * the room, ENGINE_VIEW_PUBLIC or ENGINE_SEAT_ENGINE; LEDGER_ENOTFOUND for
 * a version past the head or an unknown room. */
int inspect_room_replay(engine_state *out, ledger *db, const char *room, uint32_t version,
                        uint8_t viewer) MENTAT_MUST_CHECK;
/* As inspect_room_replay, for a reader that may not hold the audit key:
 * when the auditor's state or the public view is asked and the room's
 * states are sealed to an audit key not held, *out is the public view
 * stored at the append (ledger_public_view_at) and *is_keyless_out 1 (the
 * caller says so); a seat's view still needs the key. LEDGER_EKEY when the
 * room keeps no public views either (stored by an older build). */
int inspect_room_view(engine_state *out, int *is_keyless_out, ledger *db, const char *room,
                      uint32_t version, uint8_t viewer) MENTAT_MUST_CHECK;

/* 1 if `viewer` names a seat of cfg, the public or the auditor. */
int inspect_viewer_is_valid(const engine_config *cfg, uint8_t viewer);

/* "you" for the viewer's own seat, else the faction's display name
 * ("Bene Gesserit"), "the engine" for ENGINE_SEAT_ENGINE. Static storage. */
const char *inspect_faction_title(unsigned faction);

/* ============================================================ rejections */

/* The JSON field name of argument `arg` of an action of `kind` (the field
 * a rejection's detail points at), or NULL if arg names none. Static. */
const char *inspect_rejection_arg(unsigned kind, int arg);
/* A refusal in one line, the field at fault named as the action's JSON
 * names it: "no_path (to = funeral_plain sector 14)", "predict_own_faction
 * (faction = atreides)", or "reason (value N)" when no field is at fault.
 * Truncated to cap bytes (128 are always enough). */
void inspect_rejection_text(char *out, size_t cap, unsigned verdict, unsigned kind, int arg,
                            int value);

/* =================================================================== log */

/* Which arguments of an action `viewer` may see when it is submitted. The
 * acting seat and the auditor see every argument; others see the public
 * ones (the table at the top of inspect/log.c). Hidden arguments are set
 * to INSPECT_ARG_HIDDEN in *out. Returns the number hidden. */
#define INSPECT_ARG_HIDDEN INT16_MIN
unsigned inspect_action_mask(engine_action *out, const engine_action *act, uint8_t viewer);

/* One event as a seat was told it. */
typedef struct inspect_log_line {
    uint32_t version;              /* the event's version */
    uint8_t seat;                  /* acting seat, or ENGINE_SEAT_ENGINE */
    uint8_t kind;                  /* engine_action_kind */
    engine_action action;          /* masked for the viewer (inspect_action_mask) */
    char text[INSPECT_TEXT_CHARS]; /* sentences, NUL-terminated, no newline */
} inspect_log_line;

/* Describes the event (act, the action as stored) for `viewer` from the
 * viewer's views before and after it (engine_view of the states at
 * version - 1 and version, both for `viewer`): what the seat did, then
 * what followed automatically (the storm's move, spice blows, worms,
 * battles and their results, phase changes, victory). Pure: reads
 * nothing but its arguments, and no hidden argument of act reaches the
 * text unless the after-view reveals it. */
void inspect_log_describe(inspect_log_line *out, const engine_state *before_view,
                          const engine_state *after_view, const engine_action *act,
                          uint32_t version, uint8_t viewer);

/* Calls fn for every event from..to (inclusive, to 0 = head) of room with
 * its line for `viewer`; stops early when fn returns non-zero and returns
 * that value. Folds once from the state at from - 1. */
int inspect_log_walk(ledger *db, const char *room, uint8_t viewer, uint32_t from, uint32_t to,
                     int (*fn)(void *ctx, const inspect_log_line *line),
                     void *ctx) MENTAT_MUST_CHECK;

/* ================================================================== diff */

typedef enum inspect_change_kind {
    INSPECT_CHANGE_TURN = 0,       /* before/after: turn */
    INSPECT_CHANGE_PHASE,          /* engine_phase */
    INSPECT_CHANGE_STORM,          /* storm sector */
    INSPECT_CHANGE_AWAITING,       /* bit mask of seats */
    INSPECT_CHANGE_FORCES,         /* seat, where = location: plain forces */
    INSPECT_CHANGE_ELITE,          /* seat, where = location: Sardaukar / Fedaykin */
    INSPECT_CHANGE_ADVISORS,       /* where = location: BG advisors */
    INSPECT_CHANGE_BOARD_SPICE,    /* where = location: spice tokens */
    INSPECT_CHANGE_SEAT_SPICE,     /* seat: spice behind the shield */
    INSPECT_CHANGE_RESERVES,       /* seat: forces off-planet (plain) */
    INSPECT_CHANGE_ELITE_RESERVES, /* seat */
    INSPECT_CHANGE_TANKS,          /* seat: forces in the Tanks (plain) */
    INSPECT_CHANGE_ELITE_TANKS,    /* seat */
    INSPECT_CHANGE_CARD_GAINED,    /* seat, where = card number, after = kind or ENGINE_CARD_KIND_UNKNOWN */
    INSPECT_CHANGE_CARD_LOST,      /* seat, where = card number, before = kind or unknown */
    INSPECT_CHANGE_CARD_SEEN,      /* seat holds where = card, whose face the viewer now knows: after = kind */
    INSPECT_CHANGE_TRAITOR,        /* seat, where = leader: 1 held, 0 not (as the viewer knows) */
    INSPECT_CHANGE_ALLIANCE,       /* seat: ally seat before/after, 0xFF none */
    INSPECT_CHANGE_LEADER,         /* where = leader: engine_place before/after */
    INSPECT_CHANGE_PREDICTION,     /* before/after: faction * 256 + turn, 0 unknown */
    INSPECT_CHANGE_WINNERS,        /* bit mask of seats */
    INSPECT_CHANGE_KIND_COUNT
} inspect_change_kind;

typedef struct inspect_change {
    uint8_t kind;                  /* inspect_change_kind */
    uint8_t seat;                  /* the seat concerned, 0xFF none */
    int16_t where;                 /* location, card or leader number; -1 none */
    int32_t before;                /* value at the first version */
    int32_t after;                 /* value at the second */
    char text[INSPECT_TEXT_CHARS]; /* one sentence for a person */
} inspect_change;

/* Stable snake_case name of a change kind ("board_spice"). */
const char *inspect_change_kind_name(unsigned kind);

/* Writes the changes from view a to view b (both for the same viewer and
 * room) into out[0..cap) in a fixed order (kind, then seat, then where);
 * returns how many there are in all. Pure. */
size_t inspect_diff(inspect_change *out, size_t cap, const engine_state *a,
                    const engine_state *b);

/* ================================================================ render */

typedef struct inspect_render_options {
    const char *title;             /* first line of the caption, e.g. "room ab12cd34 at version 40"; may be NULL */
    unsigned size;                 /* width and height in pixels; 0 = 900 */
} inspect_render_options;

void inspect_render_options_init(inspect_render_options *opt);

/* Writes a standalone SVG picture of the board in `view` (a view for any
 * viewer, or the full state) to f: the 18 storm sectors as a ring, every
 * territory as one shape labelled with its engine_territory_name as SVG
 * text (the Polar Sink in the centre; the Hidden Mobile Stronghold only
 * when the Ixians play), the storm's sector shaded beneath the names,
 * forces as markers coloured by faction with their counts, spice amounts
 * and the leaders that fought this phase, each inside its own territory
 * and sector, the battle under way outlined, and a caption (turn, phase,
 * who is awaited, the battle or auction under way, each seat's spice,
 * cards and leaders as the view knows them). Shapes and markers carry
 * data-territory / data-location attributes (render.c's header) for
 * clients that read the picture. INSPECT_ERROR if a write to f failed. */
int inspect_render_svg(FILE *f, const engine_state *view,
                       const inspect_render_options *opt) MENTAT_MUST_CHECK;

/* Display colour of a faction ("#2e7d32"). Static storage. */
const char *inspect_faction_colour(unsigned faction);

/* ================================================================ verify */

/* Reads one receipt as `mentat act --json` prints it: an object with room,
 * version, event_hash (hex), key_id and signature (hex); other members
 * (verdict, retry) are allowed and ignored. INSPECT_EINPUT with a message
 * in err (SCHEMA_ERRMSG bytes, may be NULL) when it is not one. */
int inspect_receipt_parse(codec_receipt *out, const char *json, size_t len,
                          char *err) MENTAT_MUST_CHECK;

#define INSPECT_RECEIPTS_FILE_MAX ((size_t)16 << 20) /* bytes of a receipts file */
#define INSPECT_RECEIPT_LINE_MAX 4096                /* bytes of one of its lines */

/* Reads a receipts file (inspect/receipts.c): one receipt a line, blank
 * lines and lines starting with '#' skipped. *out is malloc'd (free it;
 * NULL when none), *n_out the count. INSPECT_EINPUT with "line N: why" in
 * err (SCHEMA_ERRMSG bytes, may be NULL) for more than
 * INSPECT_RECEIPTS_FILE_MAX bytes, a NUL byte, a line longer than
 * INSPECT_RECEIPT_LINE_MAX or a line that is not a receipt; INSPECT_ERROR
 * out of memory. */
int inspect_receipts_parse(codec_receipt **out, size_t *n_out, const char *text, size_t len,
                           char *err) MENTAT_MUST_CHECK;

typedef struct inspect_verify_report {
    char room[SCHEMA_ROOM_CHARS + 1];
    int is_ok;                     /* 1 = every check held */
    uint32_t n_events;             /* events examined by ledger_verify_room */
    uint32_t n_seat_signatures;    /* of them, signed by their (bound) seat, each checked */
    uint32_t n_sealed_unopened;    /* sealed actions this reader cannot open (no room key):
                                      their seat signatures unchecked */
    int is_refolded;               /* 1 = digests re-folded */
    int is_head_signed;            /* 1 = the head's signed tree head held (else an older build's) */
    int has_public_views;          /* 1 = every version's stored public view checked (and
                                      re-derived when refolded); 0 = the room keeps none */
    uint32_t n_receipts;           /* receipts of this room checked */
    uint32_t bad_version;          /* first bad version (0 = the genesis); valid if !is_ok */
    int is_receipt_failure;        /* 1 = the failure is a receipt's */
    uint32_t differs_from;         /* a receipt's history parts from the ledger's at a */
    uint32_t differs_to;           /* version in differs_from..differs_to; 0 = not known */
    char reason[320];              /* why, one line */
    int is_nexus_checked;          /* 1 = a Nexus Cards room's opportunities were checked */
    uint32_t n_nexus_opportunities; /* Nexus draw opportunities, each opened and closed once */
    uint32_t n_nexus_answers;      /* their answers, one a seat asked */
    uint32_t n_windows;            /* window frames opened (and closed, or open at the head) */
    uint32_t n_nexus_windows;      /* of them, neutral Nexus windows (rules version 7 on) */
} inspect_verify_report;

/* Verifies room: ledger_verify_room (genesis, dense versions, chain,
 * signatures, re-folded digests and invariants), in a Nexus Cards room
 * its draw opportunities and windows (inspect_room_nexus_check), then every receipt of
 * receipts[0..n_receipts) naming this room: each must verify with
 * ledger_receipt_check (a known key's signature, an existing event, the
 * same hash, and for a receipt with a tree head a consistency proof from
 * it to the head), and no version may be claimed by two different
 * receipts. A receipt the ledger contradicts names where the histories
 * part (differs_from..differs_to: after the last receipt it matches) and
 * whether a later receipt matches (a fork: two histories signed).
 * Receipts of other rooms are skipped. Returns 0 with out->is_ok telling
 * the verdict, or an operational failure's code (nothing decided). */
int inspect_room_verify(inspect_verify_report *out, ledger *db, const char *room,
                        const codec_receipt *receipts, size_t n_receipts,
                        unsigned threads) MENTAT_MUST_CHECK;

/* The receipts of a Nexus Cards room's opportunities (inspect/nexus_receipts.c). */
typedef struct inspect_nexus_report {
    int is_checked;                /* 1 = a Nexus Cards room re-folded (its seed at hand) */
    int is_ok;                     /* 1 = every opportunity and window held */
    uint32_t n_opportunities;      /* Nexus draw opportunities opened */
    uint32_t n_closed;             /* of them, closed */
    uint32_t n_answers;            /* nexus_draw answers folded */
    int is_open;                   /* 1 = one is open at the head (the game waits on it) */
    uint32_t open_version;         /* the version it opened at, if is_open */
    uint32_t n_windows_opened;     /* window frames opened */
    uint32_t n_windows_closed;     /* of them, closed */
    uint32_t n_windows_open;       /* open at the head */
    uint32_t n_nexus_windows_opened; /* of the windows, neutral Nexus windows opened */
    uint32_t n_nexus_windows_closed; /* of them, closed */
    uint32_t bad_version;          /* the version a finding names; valid if !is_ok */
    char reason[240];              /* why, one line */
} inspect_nexus_report;

/* Checks, from room's events and their re-fold, that every Nexus draw
 * opportunity opens once (once a Spice Blow and Nexus phase, asking the
 * unallied seats while an alliance exists) and closes once with one
 * answer from each seat it asked, and that every window frame opened is
 * closed exactly once (still open at the head: counted, not failed). A
 * room without the module, or whose seed is not at hand (no audit key, not
 * revealed), is not checked (is_checked 0). Returns 0 with the verdict in
 * out->is_ok, or a ledger code (nothing decided). */
int inspect_room_nexus_check(inspect_nexus_report *out, ledger *db,
                             const char *room) MENTAT_MUST_CHECK;

/* ================================================================ proofs */

/* A Merkle proof as a seat holds it (inspect/proof.c): an inclusion proof
 * of `version` in the tree head (size, root), or a consistency proof from
 * the tree head (size1, root1) to (size, root). */
typedef struct inspect_proof {
    char room[SCHEMA_ROOM_CHARS + 1];
    int is_consistency;            /* 0 = inclusion */
    uint32_t version;              /* inclusion: the version proved, 1..size */
    uint32_t size1;                /* consistency: the smaller tree, 1..size */
    uint32_t size;                 /* the tree the proof leads to */
    int has_event_hash;            /* inclusion: event_hash given (the leaf must be its hash) */
    uint8_t event_hash[SCHEMA_HASH_BYTES];
    uint8_t leaf[LEDGER_TREE_HASH_BYTES];  /* inclusion: SHA-256(0x00 || event hash) */
    uint8_t root1[LEDGER_TREE_HASH_BYTES]; /* consistency: root of the first size1 events */
    uint8_t root[LEDGER_TREE_HASH_BYTES];  /* root of the first `size` events */
    uint64_t time;                 /* made: the tree head's time (unix ms); not read back */
    ledger_tree_proof proof;
} inspect_proof;

/* Makes the proof from the ledger, with the tree heads it leads between
 * (codes of ledger_proof_inclusion, ledger_proof_consistency). */
int inspect_proof_inclusion(inspect_proof *out, ledger *db, const char *room, uint32_t version,
                            uint32_t size) MENTAT_MUST_CHECK;
int inspect_proof_consistency(inspect_proof *out, ledger *db, const char *room,
                              uint32_t size1, uint32_t size2) MENTAT_MUST_CHECK;
/* Reads a proof as `mentat proof --json` prints it. INSPECT_EINPUT with a
 * message in err (SCHEMA_ERRMSG bytes, may be NULL) when it is not one. */
int inspect_proof_parse(inspect_proof *out, const char *json, size_t len,
                        char *err) MENTAT_MUST_CHECK;
/* Checks a proof with nothing but its own bytes: 0, or LEDGER_EBADSIG
 * with why (SCHEMA_ERRMSG bytes, may be NULL) saying what fails. */
int inspect_proof_check(const inspect_proof *p, char *why) MENTAT_MUST_CHECK;
/* Reads a signed audit report: that object, or an output of `mentat audit
 * --json --sign` holding it as "signed_report". Every member is checked
 * and "signed_bytes" must be what the members encode; the signature is
 * not checked here (ledger_audit_report_check does, against the ledger).
 * INSPECT_EINPUT with one line in err (SCHEMA_ERRMSG bytes). */
int inspect_audit_report_parse(ledger_audit_report *out, const char *json, size_t len,
                               char *err) MENTAT_MUST_CHECK;

/* ================================================================ */
/* audit */
/* (the hidden-information audit, inspect/audit.c, declares itself here) */

/*
 * The hidden-information audit (inspect/audit.c; DESIGN.md "Hidden
 * information"). Non-interference by counterfactual replay: for sampled
 * versions and seats, change a fact the seat cannot know (a counterfactual
 * world), check the changed state still passes engine_state_check, replay
 * the room's following actions in both worlds with the same
 * engine_rng(seed, version) while both accept them, and require that
 * everything the seat receives stays identical until it legitimately
 * learns the changed fact (the changed components' known_by come to
 * include it, or the rules reveal it): its view (canonical encoding of
 * engine_view), who is asked (awaiting, answered), its legal action
 * families, its log line for each event, the verdicts of probe actions,
 * and the size of each. Version 0 (the opening position and setup) is
 * always among the versions sampled.
 */

/* A hidden fact the audit changes. */
typedef enum inspect_audit_fact {
    INSPECT_FACT_CARD_FACES = 0,   /* faces of two treachery cards the seat has not seen */
    INSPECT_FACT_TRAITORS,         /* where two traitor cards lie, or which one a seat keeps */
    INSPECT_FACT_SPICE_DECK,       /* the order of the unseen part of the spice deck */
    INSPECT_FACT_PREDICTION,       /* the Bene Gesserit prediction (for a seat other than BG) */
    INSPECT_FACT_BATTLE_PLAN,      /* the other side's plan or prescience answer, unrevealed */
    INSPECT_FACT_STORM_DIAL,       /* another dialer's secret dial, or the next storm card */
    INSPECT_FACT_NEXUS_CARDS,      /* faces of two Nexus cards the seat has not seen, or another
                                      seat's own-faction policy (the Nexus Cards) */
    INSPECT_FACT_COUNT
} inspect_audit_fact;

/* Where a seat could tell the two worlds apart. */
typedef enum inspect_audit_channel {
    INSPECT_CHANNEL_VIEW = 0,      /* a field of the seat's view */
    INSPECT_CHANNEL_PROMPT,        /* who is asked: awaiting, answered */
    INSPECT_CHANNEL_LEGAL,         /* the seat's legal action families */
    INSPECT_CHANNEL_LOG,           /* the seat's log line of an event (name, arguments, timing) */
    INSPECT_CHANNEL_REJECTION,     /* the verdict of an action the seat could submit */
    INSPECT_CHANNEL_SIZE,          /* the size of what the seat receives */
    INSPECT_CHANNEL_MARKS,         /* known_by says a seat knows what no rule shows it */
    INSPECT_CHANNEL_HISTORY,       /* what the seat can link across time: a number seen with its face */
    INSPECT_CHANNEL_OUTPUT,        /* the bytes an output path (a command, the bots' input) prints */
    INSPECT_CHANNEL_COUNT
} inspect_audit_channel;

/* Stable snake_case names ("card_faces", "view"), NULL out of range. */
const char *inspect_audit_fact_name(unsigned fact);
const char *inspect_audit_channel_name(unsigned channel);

#define INSPECT_AUDIT_ALL_SEATS 0xFD   /* options.seat: every seat and the public */
#define INSPECT_AUDIT_TRIALS_PER_VIEWER 32 /* default pairs per viewer audited */
#define INSPECT_AUDIT_MAX_LEAKS 16     /* leaks kept in a report (all are counted) */
#define INSPECT_AUDIT_FIELD_CHARS 96

/* Numbers against faces through reshuffles (inspect/audit_deals.c): how
 * many re-dealt numbers kept the face they had, against the exact mean
 * and variance of that count under a uniform deal. */
typedef struct inspect_audit_redeal {
    uint32_t n_reshuffles;         /* reshuffles of the treachery discard pile seen */
    uint32_t n_cards;              /* numbers re-dealt in them */
    uint32_t kept;                 /* of them, numbers that kept their face */
    double mean, variance;         /* of `kept` under a uniform deal */
} inspect_audit_redeal;

#define INSPECT_AUDIT_REDEAL_Z 6.0 /* |z| past this in one room: numbers link faces across a reshuffle */
#define INSPECT_AUDIT_DEAL_Z 3.09  /* upper tail of the setup chi-square: p = 0.001 */

/* (kept - mean) / sqrt(variance); 0 with no variance. */
double inspect_audit_redeal_z(const inspect_audit_redeal *acc);
void inspect_audit_redeal_merge(inspect_audit_redeal *acc, const inspect_audit_redeal *more);

/* Number against face over the setups of n_rooms rooms of cfg (seeds
 * from seed0): a chi-square of the table of counts, its degrees of
 * freedom and the critical value at INSPECT_AUDIT_DEAL_Z. */
typedef struct inspect_audit_deals {
    unsigned n_rooms;
    unsigned df;
    double chi2;
    double critical;               /* chi2 above it: numbers tell faces at setup (p < 0.001) */
} inspect_audit_deals;

int inspect_audit_setup_deals(inspect_audit_deals *out, const engine_config *cfg,
                              unsigned n_rooms, uint64_t seed0) MENTAT_MUST_CHECK;

/* One leak: a pair of worlds the seat could tell apart. */
typedef struct inspect_audit_leak {
    char room[SCHEMA_ROOM_CHARS + 1];
    uint32_t version;              /* the version whose state (or next action) was changed */
    uint32_t at_version;           /* the version at which the seat could tell the worlds apart */
    uint8_t seat;                  /* the seat, or ENGINE_VIEW_PUBLIC */
    uint8_t fact;                  /* inspect_audit_fact */
    uint8_t channel;               /* inspect_audit_channel */
    char hidden[INSPECT_TEXT_CHARS]; /* the hidden fact changed, in words */
    char field[INSPECT_AUDIT_FIELD_CHARS]; /* what differed: "view.card_kind[12]", "log", ... */
    char detail[INSPECT_TEXT_CHARS]; /* the values: the room's, then the counterfactual's */
} inspect_audit_leak;

/* An output path a seat or spectator reaches (a command's printing, the
 * bots' input): the bytes it gives `viewer` after the event `act` took
 * the full state `before` to `after` (act NULL at a pair's first version,
 * before == after), made by the very function its command calls. Returns
 * the byte count; past cap the bytes are cut. */
typedef struct inspect_audit_output {
    const char *name;              /* "log_line", "state_json", ... */
    const char *commands;          /* the commands that print it, space-separated: "games tournament" */
    size_t (*emit)(char *out, size_t cap, const engine_state *before, const engine_state *after,
                   const engine_action *act, uint32_t version, uint8_t viewer);
    int is_costly;                 /* 1 = compared at a pair's first two steps and every 32nd */
} inspect_audit_output;

/* The output rows of inspect/ (inspect/audit_outputs.c): log, diff,
 * render. The tools layer adds its own (tools/audit_outputs.c). */
const inspect_audit_output *inspect_audit_outputs(size_t *n_out);

/* What the audit observes a seat receive, as functions. The genuine
 * observer (inspect_audit_genuine) is exactly what Mentat shows a seat:
 * engine_view and its canonical encoding, engine_legal_actions,
 * inspect_log_describe over the seat's views, and engine_apply's verdicts.
 * The self-test's planted leaks (inspect/audit_leaks.c) replace one of
 * them with a leaky one; they are reachable only through the audit, which
 * shows nobody anything, so they cannot change what any seat is sent.
 * Each function may read the full state st; `view` is the seat's view of
 * it as `view` produced. */
typedef struct inspect_audit_observer {
    const char *name;              /* "genuine", or the planted leak's name */
    void (*view)(engine_state *out, const engine_state *st, uint8_t viewer);
    size_t (*encode)(uint8_t *out, size_t cap, const engine_state *view, const engine_state *st);
    size_t (*legal)(engine_legal *out, size_t cap, const engine_state *st, uint8_t seat);
    void (*log)(inspect_log_line *out, const engine_state *before, const engine_state *after,
                const engine_action *act, uint32_t version, uint8_t viewer);
    engine_verdict (*apply)(engine_verdict_detail *why, engine_state *st,
                            const engine_action *act, engine_rng *rng);
    const inspect_audit_output *outputs; /* the output paths compared (genuine: inspect's own); NULL none */
    size_t n_outputs;
} inspect_audit_observer;

extern const inspect_audit_observer inspect_audit_genuine;

typedef struct inspect_audit_options {
    const char *keys_dir;          /* holds audit.key (the seed); NULL = LEDGER_DEFAULT_KEYS_DIR */
    unsigned trials;               /* pairs per room; 0 = TRIALS_PER_VIEWER per viewer */
    uint32_t max_steps;            /* events replayed per pair at most; 0 = up to the head */
    uint8_t seat;                  /* a seat, ENGINE_VIEW_PUBLIC, or INSPECT_AUDIT_ALL_SEATS */
    uint64_t sample_seed;          /* chooses versions, seats and facts: same seed, same pairs */
    uint32_t facts;                /* bit 1 << inspect_audit_fact per fact changed; 0 = all */
    uint32_t first_version;        /* pairs start at this version or later (0: the opening too) */
    uint32_t last_version;         /* ... and at this version or earlier; 0 = the head */
    const inspect_audit_observer *observer; /* NULL = inspect_audit_genuine */
    void (*progress)(void *ctx, unsigned done, unsigned total); /* after each pair; may be NULL */
    void *progress_ctx;
} inspect_audit_options;

void inspect_audit_options_init(inspect_audit_options *opt);

typedef struct inspect_audit_report {
    char room[SCHEMA_ROOM_CHARS + 1];
    uint32_t n_events;             /* events in the room */
    int is_revealed_seed;          /* 1 = folded with the revealed seed, not the audit key */
    uint32_t n_trials;             /* pairs built and replayed */
    uint32_t n_unchangeable;       /* pairs asked for where the seat knew everything changeable */
    uint32_t n_learned;            /* pairs stopped when the seat legitimately learned the fact */
    uint32_t n_diverged;           /* pairs stopped when one world refused another seat's action */
    uint64_t n_steps;              /* events replayed in both worlds */
    uint64_t n_comparisons;        /* observations compared (views, prompts, logs, probes, sizes) */
    uint32_t n_by_fact[INSPECT_FACT_COUNT]; /* pairs per fact changed */
    uint32_t n_by_kind[ENGINE_ACTION_KIND_COUNT]; /* the room's events of each action kind */
    uint32_t n_marks_events;       /* events whose known_by marks were checked by rule */
    uint32_t n_marks_forgotten;    /* marks a rule gives that the engine does not set */
    inspect_audit_redeal redeal;   /* numbers against faces through the room's reshuffles */
    char marks_forgotten[INSPECT_TEXT_CHARS]; /* the first of them, or "" */
    uint32_t n_leaks;              /* pairs the seat could tell apart */
    inspect_audit_leak leak[INSPECT_AUDIT_MAX_LEAKS]; /* the first of them, up to the max */
    char errmsg[240];              /* why the room could not be audited (operational failure) */
} inspect_audit_report;

/* Audits `room` of db: reads its genesis, takes the revealed seed if the
 * room's seed was revealed, else unseals its seed with the audit key in
 * opt->keys_dir (either checked against the genesis commitment), folds
 * every event (each digest must match), then replays the pairs. Returns 0
 * with the leaks in *out (n_leaks 0: none found); LEDGER_EKEY without the
 * room's audit key, LEDGER_EBADSIG when the fold disagrees with a stored
 * digest, another ledger code, or INSPECT_ERROR (out of memory); then
 * out->errmsg says why. Reads only; writes nothing to the ledger. */
int inspect_audit_room(inspect_audit_report *out, ledger *db, const char *room,
                       const inspect_audit_options *opt) MENTAT_MUST_CHECK;

/* The same audit of a game held in memory: the position engine_setup deals
 * for cfg with engine_rng(seed, 0), then actions[0..n_actions) as events
 * 1..n_actions (each must be accepted: INSPECT_EINPUT otherwise). `name`
 * labels the report (at most SCHEMA_ROOM_CHARS characters). */
int inspect_audit_game(inspect_audit_report *out, const char *name, const engine_config *cfg,
                       const uint8_t seed[ENGINE_SEED_BYTES], const engine_action *actions,
                       uint32_t n_actions, const inspect_audit_options *opt) MENTAT_MUST_CHECK;

/* ---- the self-test: planted leaks (inspect/audit_leaks.c) */

/* A planted leak and where the audit must catch it: the genuine observer
 * with the one function `leak` sets put in its place. */
typedef struct inspect_audit_plant {
    const char *name;              /* "hand_card_public_view" */
    uint8_t channel;               /* inspect_audit_channel it must be caught in: its class */
    const char *what;              /* "a hand card in the public view" */
    inspect_audit_observer leak;   /* the function planted (other functions NULL: genuine);
                                      outputs: the paths it plants, NULL none */
    const char *field_prefix;      /* the field named must start so ("view.card_kind[") */
    uint8_t viewer;                /* audited as options.seat: where the leak shows */
    uint32_t facts;                /* options.facts: the hidden facts it lets through */
} inspect_audit_plant;

/* The planted leaks, *n_out of them. Static storage. */
const inspect_audit_plant *inspect_audit_plants(size_t *n_out);

/* The observer the audit runs for `plant`: inspect_audit_genuine with the
 * plant's function in place, named for the plant, comparing only the
 * output paths it plants. */
void inspect_audit_plant_observer(inspect_audit_observer *out, const inspect_audit_plant *plant);

typedef struct inspect_audit_self_result {
    const inspect_audit_plant *plant; /* borrowed: static storage */
    int is_caught;                 /* 1 = caught in the expected channel and field */
    uint32_t n_leaks;              /* leaks reported with this plant (genuine ones included) */
    inspect_audit_leak first;      /* the leak that caught it (valid when is_caught) */
} inspect_audit_self_result;

#define INSPECT_AUDIT_MAX_PLANTS 16

typedef struct inspect_audit_self_report {
    size_t n_plants;               /* planted leaks tried */
    size_t n_caught;               /* of those, caught as expected */
    uint32_t n_genuine_leaks;      /* leaks reported with the genuine observer: real ones */
    inspect_audit_leak genuine;    /* the first of them (valid when n_genuine_leaks > 0) */
    uint64_t n_comparisons;        /* observations compared in all */
    inspect_audit_self_result result[INSPECT_AUDIT_MAX_PLANTS];
} inspect_audit_self_report;

/* Plays a few complete 6-seat games in memory (fixed seeds, random legal
 * actions) and audits them with the genuine observer and with each
 * planted leak. A plant is caught when a leak is reported in its channel
 * and field. Returns 0 (the self-test passed when n_caught == n_plants;
 * leaks of the genuine observer are real findings, reported beside) or
 * INSPECT_ERROR. */
int inspect_audit_self_test(inspect_audit_self_report *out) MENTAT_MUST_CHECK;

/* ============================================ what a viewer receives, as text */
/* The one JSON and text form of views, legal families and log lines that
 * every client reads (`mentat state`, `log`, `replay`, the server): a
 * client is never shown a second rendering made elsewhere. */

#define INSPECT_JSON_DEPTH 16

/* A streaming JSON writer (json_out.c): compact RFC 8259, strings
 * escaped, commas placed by a per-depth flag. It writes to a FILE and
 * never allocates; misuse (a value where a key is due, nesting past
 * INSPECT_JSON_DEPTH) is a programming error and asserted. */
typedef struct inspect_json {
    FILE *f;                       /* where it writes */
    int depth;                     /* open containers, 0..INSPECT_JSON_DEPTH-1 */
    uint8_t has_items[INSPECT_JSON_DEPTH]; /* 1 = the container at this depth has a member */
    int is_after_key;              /* 1 = a key was written; its value comes next */
} inspect_json;

void inspect_json_init(inspect_json *j, FILE *f);
void inspect_json_object_begin(inspect_json *j);
void inspect_json_object_end(inspect_json *j);
void inspect_json_array_begin(inspect_json *j);
void inspect_json_array_end(inspect_json *j);
void inspect_json_key(inspect_json *j, const char *key);
void inspect_json_string(inspect_json *j, const char *s);
void inspect_json_int(inspect_json *j, int64_t v);
void inspect_json_uint(inspect_json *j, uint64_t v);
void inspect_json_bool(inspect_json *j, int v);
/* A key and its value in one call. */
void inspect_json_member_string(inspect_json *j, const char *key, const char *s);
void inspect_json_member_int(inspect_json *j, const char *key, int64_t v);
void inspect_json_member_uint(inspect_json *j, const char *key, uint64_t v);
void inspect_json_member_bool(inspect_json *j, const char *key, int v);
/* key: the seats of mask (bit per seat, seats below n_seats) as an array
 * of seat numbers, 1-based. */
void inspect_json_member_seats(inspect_json *j, const char *key, uint16_t mask, uint8_t n_seats);
/* A signed receipt's members, as `mentat act --json` and `mentat serve`
 * answer an accepted action: room, version, event_hash, key_id, signature
 * and, when it carries its signed tree head, tree_root and tree_time
 * (what `mentat verify --receipts` reads back). */
void inspect_json_receipt_members(inspect_json *j, const codec_receipt *rc);
/* A signed audit report (ledger_audit_report) as one JSON object: room,
 * version, head_hash, tree_root, tree_time, method, seed, viewer, facts,
 * sample_seed, trials, steps, comparisons, leaks, verdict, key_id,
 * public_key, signed_bytes, signature (docs/FORMAT.md "Audit report"). */
void inspect_json_audit_report(inspect_json *j, const ledger_audit_report *r);
void inspect_json_null(inspect_json *j);
void inspect_json_hex(inspect_json *j, const uint8_t *bytes, size_t n);
/* Writes `json`, already a valid JSON value, as the next value. */
void inspect_json_raw(inspect_json *j, const char *json);
/* Ends the document with a newline (all containers must be closed). */
void inspect_json_finish(inspect_json *j);
/* Writes s as a JSON string (quotes included) to f. */
void inspect_json_write_string(FILE *f, const char *s);

/* A state to print (view_json.c): the auditor's full state, or a view
 * made by engine_view (st->viewer says whose), with where it comes from. */
typedef struct inspect_state_doc {
    const char *room;              /* room code; NULL for a constructed position (scenario) */
    uint32_t version;              /* the version the state is after (scenario: actions folded) */
    uint32_t head;                 /* the room's head version */
    const engine_state *st;        /* full state (viewer ENGINE_SEAT_ENGINE) or a view; borrowed */
    const engine_legal *legal;     /* a seat's view: that seat's legal families; else NULL */
    size_t n_legal;                /* entries in legal */
    int is_keyless;                /* 1 = the public view stored at the append, shown to a
                                      reader without the audit key (inspect_room_view) */
} inspect_state_doc;

/* The state as text or as one JSON object: unknown facts of a view as "?"
 * (text) and null (JSON); a seat's view ends with what it is asked to
 * decide (every legal family, each with one example action that
 * codec_action_from_json reads back), the public view with the seats
 * awaited. */
void inspect_state_print(FILE *f, const inspect_state_doc *d);
void inspect_state_json(inspect_json *j, const inspect_state_doc *d);

/* One action of family l, as a seat would submit it: each argument at
 * the low end of its range, raised in argument order until the family's
 * required total (l->sum) is met. */
void inspect_legal_example(engine_action *out, const engine_legal *l);
/* Family l as one line of text: "bid: spice 3..10, karama 0" (names as
 * inspect_arg_value_text gives them, " (adding up to N)" for a sum). */
void inspect_legal_text(char *out, size_t cap, const engine_state *st, const engine_legal *l);
/* Family l as a JSON object {kind, seat, args:[{name, lo, hi, lo_name,
 * hi_name}], sum, example}; st (the seat's view) names the cards. */
void inspect_legal_json(inspect_json *j, const engine_state *st, const engine_legal *l);
/* The value v of an argument of type `type` (engine_arg_type) as text: a
 * slug, "none", a card "#5 (lasgun)" (its face if st knows it), or the
 * number. */
void inspect_arg_value_text(char *out, size_t cap, const engine_state *st, unsigned type, int v);

/* "strongholds", "prediction", ... for an engine_victory_kind; NULL if unknown. */
const char *inspect_victory_name(unsigned v);
/* "atreides" for a seat of cfg, "engine" for ENGINE_SEAT_ENGINE, "?" else. */
const char *inspect_seat_faction(const engine_config *cfg, uint8_t seat);

/* The viewer as a JSON value: {"seat":2,"faction":"bene_gesserit"},
 * "public" or "auditor" (log_json.c). */
void inspect_viewer_json(inspect_json *j, const engine_config *cfg, uint8_t viewer);
/* An action masked by inspect_action_mask as action JSON, each hidden
 * argument null. */
void inspect_masked_action_json(inspect_json *j, const engine_action *masked);
/* One log line as a JSON object {version, seat, faction, action, text}. */
void inspect_log_line_json(inspect_json *j, const engine_config *cfg,
                           const inspect_log_line *line);

#endif
