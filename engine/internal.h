/*
 * internal.h - what the files of engine/ share and nothing outside includes:
 * the rows of the fact tables (engine/data/), the phase handlers, the rule
 * points and power rows (engine/points.c, engine/powers_*.c) and the
 * helpers they have in common.
 */
#ifndef MENTAT_ENGINE_INTERNAL_H
#define MENTAT_ENGINE_INTERNAL_H

#include "engine.h"

/* ======================================================== fact tables */

/* Territories (engine/data/territories.c), indexed by engine_territory. */
typedef struct engine__territory_row {
    const char *name;              /* "Sietch Tabr" */
    const char *slug;              /* "sietch_tabr" */
    uint8_t kind;                  /* engine_territory_kind */
    uint8_t is_storm_safe;         /* 1 = the storm never harms it (with the Shield Wall standing) */
    uint8_t is_worm_safe;          /* 1 = Shai-Hulud never appears there */
} engine__territory_row;
extern const engine__territory_row engine__territories[ENGINE_TERRITORY_COUNT];
/* Territory sets (bit t for territory t) and the Fremen's opening
 * territories (engine/data/territories.c). */
extern const uint64_t engine__shield_wall_shelters;
extern const uint64_t engine__ornithopter_cities;
extern const uint64_t engine__fremen_sietches;
extern const uint8_t engine__fremen_start[ENGINE_FREMEN_START_TERRITORIES];

/* Locations: one territory in one sector (engine/data/locations.c),
 * numbered as DUNE_RULES_DIGEST.md section 1.5; 86 is the HMS. */
#define ENGINE_LOCATION_MAX_ADJ 20
typedef struct engine__location_row {
    uint8_t territory;             /* engine_territory */
    int8_t sector;                 /* 0..17, ENGINE_NO_SECTOR for Polar Sink and HMS */
    const char *part;              /* "East", "Far North" or "" */
    uint8_t n_adj;                 /* neighbours */
    uint8_t adj[ENGINE_LOCATION_MAX_ADJ]; /* neighbouring locations, ascending */
} engine__location_row;
extern const engine__location_row engine__locations[ENGINE_LOCATION_COUNT];
#define ENGINE_LOCATION_HMS 86

/* Territory adjacency (section 1.4), a literal table that the tests
 * check against the location graph: bit t of engine__territory_adj[u] set when u and t border each other. */
extern const uint64_t engine__territory_adj[ENGINE_TERRITORY_COUNT];

/* Leaders (engine/data/leaders.c): five per faction in faction order, then
 * the CHOAM Auditor and Duke Vidal. */
typedef struct engine__leader_row {
    const char *name;              /* "Thufir Hawat" */
    const char *slug;              /* "thufir_hawat" */
    uint8_t faction;               /* engine_faction; Vidal: ENGINE_FACTION_NONE */
    uint8_t strength;              /* 0..7; Zoal's is variable and listed as 0 */
    uint8_t revival_cost;          /* spice to revive */
    uint8_t is_traitor_card;       /* 1 = has a card in the traitor deck */
    uint8_t is_optional;           /* 1 = only with an optional rule (Auditor, Vidal) */
} engine__leader_row;
extern const engine__leader_row engine__leaders[ENGINE_LEADER_COUNT];

/* Treachery card kinds (engine/data/treachery_cards.c), indexed by
 * engine_card_kind: what a card does is a column (ENGINE_CARD_CLASS_*,
 * engine.h), not an if. */
typedef struct engine__card_kind_row {
    const char *name;              /* "Maula Pistol" */
    const char *slug;              /* "maula_pistol" */
    uint8_t classes;               /* ENGINE_CARD_CLASS_* bits */
    uint8_t is_kept;               /* 1 = a winner may keep it after battle */
    uint8_t base_copies;           /* copies in the base-game deck */
} engine__card_kind_row;
extern const engine__card_kind_row engine__card_kinds[ENGINE_CARD_KIND_COUNT];

/* A Nexus card (engine/data/nexus_cards.c), indexed by the faction it is
 * printed for, panels indexed by engine_nexus_mode. */
typedef struct engine__nexus_card_row {
    const char *panel[ENGINE_NEXUS_MODE_COUNT]; /* the readable reference of each panel */
    uint8_t row[ENGINE_NEXUS_MODE_COUNT];        /* its row in EXPANSIONS_AND_NEXUS.md 5.2 */
} engine__nexus_card_row;
extern const engine__nexus_card_row engine__nexus_cards[ENGINE_NEXUS_CARD_COUNT];

/* Spice cards (engine/data/spice_cards.c): the base deck of 21. */
#define ENGINE_SPICE_BASE_CARDS 21
typedef struct engine__spice_card_row {
    const char *name;              /* "Cielago North" or "Shai-Hulud" */
    uint8_t is_worm;               /* 1 = Shai-Hulud */
    uint8_t territory;             /* engine_territory (unused for a worm) */
    uint8_t location;              /* the icon location (unused for a worm) */
    uint8_t amount;                /* spice placed */
} engine__spice_card_row;
extern const engine__spice_card_row engine__spice_cards[ENGINE_SPICE_BASE_CARDS];

/* Factions (engine/data/factions.c), indexed by engine_faction. */
typedef struct engine__faction_row {
    const char *name;              /* "Bene Gesserit" */
    const char *slug;              /* "bene_gesserit" */
    const char *title;             /* how sentences name it: "Guild" */
    const char *elite;             /* its elite forces: "Sardaukar"; NULL none */
    uint8_t spice;                 /* starting spice */
    uint8_t forces;                /* forces of the Basic game (Ixians: suboids) */
    uint8_t special_forces;        /* elite forces: Emperor and Fremen turn that many of
                                      their forces elite in the Advanced game; Ixian
                                      cyborgs come in addition to the suboids */
    uint8_t start_territory;       /* where forces start, ENGINE_TERRITORY_COUNT = none or chosen */
    uint8_t start_forces;          /* how many start there */
    uint8_t free_revival;          /* free force revivals per turn */
    uint8_t hand_limit;            /* treachery cards */
    uint8_t start_cards;           /* treachery cards dealt at setup */
    uint8_t traitors_kept;         /* of the 4 dealt: 1, Harkonnen 4, Tleilaxu 0 */
    uint8_t is_classic;            /* 1 = one of the six base-game factions */
} engine__faction_row;
extern const engine__faction_row engine__factions[ENGINE_FACTION_COUNT];

/* ================================================================ rng */

/* Fisher-Yates with engine_rng_uniform: every order equally likely. */
void engine__shuffle(uint8_t *items, size_t n, engine_rng *rng);

/* ====================================================== action rules */

/* The rule half of the action table (engine/apply.c): in which phase and
 * step a kind is legal, and the function that checks and performs it. The
 * generic checks (known kind, seat, phase, step, awaited) run before
 * `handle`, which checks its own rule and only then mutates. What a seat
 * may do is asked of the step (engine__step_legal in engine/apply.c).
 * Two phase values are not phases: ENGINE__PHASE_ANY marks a side action
 * (a card played at any time, engine/side.c), legal in every step of a
 * built phase after setup for an awaited seat that has not answered, which
 * it does not answer; ENGINE__PHASE_WINDOW marks the answer to an open
 * window (engine/frame.c), its step the engine_window_point it answers: while a
 * window is open its answers are the only kinds accepted (and the side
 * actions, where its point admits them), from the seats it asks. */
#define ENGINE__PHASE_ANY 0xFE
#define ENGINE__PHASE_WINDOW 0xFD
typedef engine_verdict (*engine__handler)(engine_verdict_detail *why, engine_state *st,
                                         const engine_action *act, engine_rng *rng);
typedef size_t (*engine__legal_fn)(engine_legal *out, size_t cap, const engine_state *st,
                                   uint8_t seat);
typedef struct engine__action_rule {
    uint8_t phase;                 /* engine_phase in which it is legal, or ENGINE__PHASE_* */
    uint8_t step;                  /* and the step of that phase (0 for ENGINE__PHASE_*) */
    engine__handler handle;        /* checks the kind's own rule, then mutates */
} engine__action_rule;
extern const engine__action_rule engine__action_rules[ENGINE_ACTION_KIND_COUNT];
/* The phase an action kind belongs to: its own, or its window's home
 * phase (ENGINE__PHASE_ANY, ENGINE__PHASE_WINDOW for neither). */
unsigned engine__action_home_phase(unsigned kind);

/* Handlers, one file per phase. */
#define ENGINE__HANDLER(name) \
    engine_verdict name(engine_verdict_detail *, engine_state *, const engine_action *, engine_rng *)
ENGINE__HANDLER(engine__predict);
ENGINE__HANDLER(engine__power); /* engine/generic.c */
ENGINE__HANDLER(engine__traitor_pick);
ENGINE__HANDLER(engine__fremen_place);
ENGINE__HANDLER(engine__bg_place);
ENGINE__HANDLER(engine__storm_dial);
ENGINE__HANDLER(engine__alliance_propose);
ENGINE__HANDLER(engine__alliance_accept);
ENGINE__HANDLER(engine__alliance_refuse);
ENGINE__HANDLER(engine__alliance_break);
ENGINE__HANDLER(engine__nexus_done);
ENGINE__HANDLER(engine__worm_ride);
ENGINE__HANDLER(engine__worm_ride_pass);
ENGINE__HANDLER(engine__charity_claim);
ENGINE__HANDLER(engine__charity_decline);
ENGINE__HANDLER(engine__ally_support);
ENGINE__HANDLER(engine__bid);
ENGINE__HANDLER(engine__bid_pass);
ENGINE__HANDLER(engine__karama_take);
ENGINE__HANDLER(engine__emperor_revival);
ENGINE__HANDLER(engine__fremen_ally_revival);
ENGINE__HANDLER(engine__fremen_protect_ally);
ENGINE__HANDLER(engine__revive);
ENGINE__HANDLER(engine__ghola);
ENGINE__HANDLER(engine__ship);
ENGINE__HANDLER(engine__fremen_send);
ENGINE__HANDLER(engine__cross_ship);
ENGINE__HANDLER(engine__ship_back);
ENGINE__HANDLER(engine__ship_pass);
ENGINE__HANDLER(engine__bg_send);
ENGINE__HANDLER(engine__move);
ENGINE__HANDLER(engine__hajr_move);
ENGINE__HANDLER(engine__move_pass);
ENGINE__HANDLER(engine__battle_choose);
ENGINE__HANDLER(engine__prescience);
ENGINE__HANDLER(engine__prescience_pass);
ENGINE__HANDLER(engine__prescience_answer);
ENGINE__HANDLER(engine__voice);
ENGINE__HANDLER(engine__voice_pass);
ENGINE__HANDLER(engine__karama_cancel);
ENGINE__HANDLER(engine__karama_allow);
ENGINE__HANDLER(engine__karama_policy);
ENGINE__HANDLER(engine__battle_plan);
ENGINE__HANDLER(engine__traitor_call);
ENGINE__HANDLER(engine__keep_cards);
ENGINE__HANDLER(engine__weather_control);
ENGINE__HANDLER(engine__family_atomics);
ENGINE__HANDLER(engine__storm_cards_pass);
ENGINE__HANDLER(engine__truthtrance);
ENGINE__HANDLER(engine__truthtrance_answer);
ENGINE__HANDLER(engine__ship_karama_from);
ENGINE__HANDLER(engine__ship_karama_answer);
ENGINE__HANDLER(engine__nexus_draw);
ENGINE__HANDLER(engine__answer); /* engine/generic.c */

/* Legal families of a step for one seat, one writer per step. */
#define ENGINE__LEGAL(name) size_t name(engine_legal *, size_t, const engine_state *, uint8_t)
ENGINE__LEGAL(engine__legal_predict);
ENGINE__LEGAL(engine__legal_traitor_pick);
ENGINE__LEGAL(engine__legal_fremen_place);
ENGINE__LEGAL(engine__legal_bg_place);
ENGINE__LEGAL(engine__legal_storm_dial);
ENGINE__LEGAL(engine__legal_nexus);
ENGINE__LEGAL(engine__legal_nexus_draw);
ENGINE__LEGAL(engine__legal_worm_ride);
ENGINE__LEGAL(engine__legal_charity);
ENGINE__LEGAL(engine__legal_support);
ENGINE__LEGAL(engine__legal_auction);
ENGINE__LEGAL(engine__legal_emperor);
ENGINE__LEGAL(engine__legal_fremen_protect_ally);
ENGINE__LEGAL(engine__legal_karama_policy);
ENGINE__LEGAL(engine__legal_revive);
ENGINE__LEGAL(engine__legal_ship);
ENGINE__LEGAL(engine__legal_bg_send);
ENGINE__LEGAL(engine__legal_move);
ENGINE__LEGAL(engine__legal_ship_karama_answer);
ENGINE__LEGAL(engine__legal_battle);
ENGINE__LEGAL(engine__legal_storm_cards);
/* Side actions (engine/side.c): every side family of a seat the step
 * waits on; the Ghola's (engine/phase_revival.c); the answer to a pending
 * Truthtrance question, for its target. */
ENGINE__LEGAL(engine__legal_side);
ENGINE__LEGAL(engine__legal_ghola);
ENGINE__LEGAL(engine__legal_truthtrance); /* engine/side.c */
ENGINE__LEGAL(engine__legal_question);
ENGINE__LEGAL(engine__legal_power); /* engine/generic.c */
/* The families of the generic powers that are a step's decision (rows
 * with `legal`), which engine__legal_power leaves out (engine/generic.c). */
ENGINE__LEGAL(engine__legal_power_decision);
ENGINE__LEGAL(engine__legal_answer); /* engine/generic.c: the asked seat's answer */

/* ============================================================ windows */

/* The window points (engine/frame.c), one row each. `resume` runs when
 * the answer `answer` closes frame `f` (already off the stack). */
typedef void (*engine__resume_fn)(engine_state *st, const engine_frame *f,
                                  const engine_action *answer, engine_rng *rng);
typedef struct engine__window_row {
    uint8_t is_question;           /* 1: a pause holding nothing; a seat not asked is refused
                                      before the kind, and invariant (3) looks below it */
    uint8_t admits_side;           /* 1: its asked seats may also play side actions */
    uint8_t home_phase;            /* the phase its answers are told a wrong step in, or
                                      ENGINE__PHASE_WINDOW */
    engine__legal_fn legal;        /* the families of an asked seat */
    engine__resume_fn resume;
} engine__window_row;
extern const engine__window_row engine__windows[ENGINE_WINDOW_COUNT];

/* The stack: the top frame (mutable), 1 while a closed frame resumes, a
 * push (asked seats; held copied when not NULL), and the close an answer
 * makes: pops the top frame and calls its point's resume. */
engine_frame *engine__frame_top(engine_state *st);
int engine__frame_resuming(const engine_state *st);
engine_frame *engine__frame_push(engine_state *st, unsigned point, unsigned owner, unsigned user,
                                 const engine_action *held, uint16_t asked);
void engine__frame_close(engine_state *st, const engine_action *answer, engine_rng *rng);
unsigned engine__lowest_seat(uint16_t seats); /* 0xFF for none */
/* The step a verdict names: as versions 2 and 3 had it, KARAMA_ANSWER
 * while a shipment's payer is asked. */
unsigned engine__told_step(const engine_state *st);
/* The seats still to answer the top window that is not a question, or
 * the step's (engine/apply.c). */
uint16_t engine__open_seats(const engine_state *st);
/* Effect records: add keeps them sorted (-1 when full); remove takes every
 * record of `kind` (of `source`, or all when source < 0), 1 if any; expire
 * ends those whose expiry is reached on entering `phase`. */
int engine__effect_add(engine_state *st, const engine_effect *e);
int engine__effect_remove(engine_state *st, unsigned kind, int source);
void engine__effect_expire(engine_state *st, unsigned phase);
int engine__frames_check(const engine_state *st);
/* A window a row declares (rules version 6 on, engine/generic.c): opens
 * a frame of point GENERIC for the row of window `id` in force, asking
 * `asked` (owner, user and the held attempt as for every frame), or
 * returns NULL and changes nothing when no row of that id is in force or
 * nobody is asked or the stack is full. */
engine_frame *engine__window_open(engine_state *st, int id, unsigned owner, unsigned user,
                                  const engine_action *held, uint16_t asked);
void engine__answer_resume(engine_state *st, const engine_frame *f, const engine_action *answer,
                           engine_rng *rng);
/* Inserts `f` (a GENERIC frame) at stack position `index` (the decoder). */
int engine__frame_insert(engine_state *st, unsigned index, const engine_frame *f);
void engine__truthtrance_resume(engine_state *st, const engine_frame *f,
                                const engine_action *answer, engine_rng *rng);
void engine__karama_resume(engine_state *st, const engine_frame *f, const engine_action *answer,
                           engine_rng *rng);
void engine__bg_send_resume(engine_state *st, const engine_frame *f, const engine_action *answer,
                            engine_rng *rng);
void engine__ship_karama_resume(engine_state *st, const engine_frame *f,
                                const engine_action *answer, engine_rng *rng);
/* The battle's questions (engine/phase_battle.c): the Voice, the
 * prescience question and its answer, each a window over the plans. */
ENGINE__LEGAL(engine__legal_voice);
ENGINE__LEGAL(engine__legal_prescience);
ENGINE__LEGAL(engine__legal_prescience_answer);
void engine__voice_resume(engine_state *st, const engine_frame *f, const engine_action *answer,
                          engine_rng *rng);
void engine__prescience_resume(engine_state *st, const engine_frame *f,
                               const engine_action *answer, engine_rng *rng);
void engine__prescience_answer_resume(engine_state *st, const engine_frame *f,
                                      const engine_action *answer, engine_rng *rng);
/* The Fremen's choices for their ally (engine/phase_spice_blow.c,
 * engine/phase_revival.c): windows over the step that waits on them. */
void engine__worm_ally_resume(engine_state *st, const engine_frame *f, const engine_action *answer,
                              engine_rng *rng);
void engine__ally_revival_resume(engine_state *st, const engine_frame *f,
                                 const engine_action *answer, engine_rng *rng);
/* 1 while the seats of the battle are asked for their plans: its step,
 * no question of the battle still open. */
int engine__plans_asked(const engine_state *st);
/* The prescience window of the battle being fought, if the Atreides side
 * asks one (engine/phase_battle.c). */
void engine__ask_prescience(engine_state *st);
/* The Bene Gesserit Secret Ally's window before the plans (rules version
 * 8 on, engine/nexus_bene_gesserit.c): 1 if opened. */
int engine__nexus_voice_ask(engine_state *st);
int engine__nexus_could_hold(const engine_state *st, unsigned seat, unsigned face, int mode);
/* The pause fields of the canonical encoding of rules versions 2 and 3,
 * as they were before the stack (engine/state.c writes and reads them):
 * encode reads them off the stack; decode builds the stack, -1 when the
 * fields describe no state the stack holds. */
typedef struct engine__legacy_pause {
    uint8_t step;
    uint16_t awaiting, answered;
    uint8_t tt_pending, tt_asker, tt_answer;
    uint16_t tt_saved;             /* version 1: the plan's answers a question kept aside */
    uint8_t tt_kept;               /* version 1: the last answer, standing while a question is */
    uint32_t offered;
    uint8_t owner, user;
    engine_action pending;
    uint16_t saved_awaiting, saved_answered;
    uint32_t cancelled;
    uint8_t retake;
    uint8_t ship_seat, ship_payer, ship_location, ship_forces, ship_elite;
    uint8_t prescience_element, voice_must, voice_class;
    int16_t prescience_value;
} engine__legacy_pause;
void engine__pause_encode(engine__legacy_pause *out, const engine_state *st);
int engine__pause_decode(engine_state *st, const engine__legacy_pause *in);
/* Version 1's pause fields (engine/rules_v1.c): its battle steps, the
 * Karama answer and Truthtrance answer steps; from_v1 -1 for fields no
 * version-1 state holds. */
void engine__pause_to_v1(engine__legacy_pause *p, const engine_state *st);
int engine__pause_from_v1(engine__legacy_pause *p, const engine_state *st);
/* After engine__pause_decode: the last answer standing while a version-1
 * question is pending (tt_kept) becomes its record again. */
int engine__pause_v1_kept(engine_state *st, const engine__legacy_pause *p);

/* The Karama window (engine/karama.c). At the moment an advantage is
 * used, after its action was checked in full and before it mutates
 * anything, its handler calls engine__karama_hold with the advantages the
 * action uses (ENGINE_ADVANTAGE_BIT mask) and the seat using them: 1 means
 * the action is now held in an open window and the handler must return
 * ENGINE_ACCEPTED at once; 0 means go ahead (no window: resuming a held
 * action, nothing offered, nobody to ask). An action of kind
 * ENGINE_ACTION_NONE holds an automatic step, resumed by
 * engine__bidding_resume or engine__shipment_resume (engine/phase.h);
 * `seat` is then the user, args the step's. engine__karama_cancelled says
 * whether a Karama took the advantage away for the retake;
 * engine__karama_consume says so and uses the cancellation up (for an
 * advantage that only decides who is paid or what is gained);
 * engine__karama_after runs after every accepted step action;
 * engine__karama_check is 1 when the Karama window and the cancellation
 * records are consistent. */
int engine__karama_hold(engine_state *st, const engine_action *act, uint32_t offered,
                        unsigned user);
int engine__karama_cancelled(const engine_state *st, unsigned advantage);
int engine__karama_consume(engine_state *st, unsigned advantage);
/* engine__karama_consume for every advantage granted by a row at `point`. */
int engine__karama_consume_at(engine_state *st, unsigned point);
void engine__karama_after(engine_state *st, const engine_action *act);
int engine__karama_check(const engine_state *st);
ENGINE__LEGAL(engine__legal_karama);

/* The Karama stops of the Emperor's and Fremen's Advanced abilities
 * (engine/karama_stops.c; rules version 8 on, FAQ20 pp. 7-8).
 * engine__karama_stopped: the advantage is cancelled for the retake or
 * stopped for a while (engine_state.karama_stopped); _stop_lasts records a
 * cancel of a LASTS row's advantage by `seat`'s use; _plan_offered, the
 * advantages a plan of `seat` in the battle under way uses (public facts);
 * _battle_ends and _storm_begins end the stops that last that long;
 * _stops_encoded, whether the room carries karama_stopped; _stops_check,
 * 1 when it is consistent. */
int engine__karama_stopped(const engine_state *st, unsigned advantage);
void engine__karama_stop_lasts(engine_state *st, unsigned advantage, unsigned seat);
uint32_t engine__karama_plan_offered(const engine_state *st, unsigned seat);
void engine__karama_stops_battle_ends(engine_state *st);
void engine__karama_stops_storm_begins(engine_state *st);
int engine__karama_stops_encoded(const engine_state *st);
int engine__karama_stops_check(const engine_state *st);

/* 1 when the fields of a shipment paid with another seat's Karama are
 * consistent (engine/phase_shipment.c): a held proposal is still valid and
 * waits on its payer alone; phase.h invariant (7). */
int engine__shipment_check(const engine_state *st);

/* The price of shipping n forces to `loc` (engine/phase_shipment.c). */
unsigned engine__ship_cost(const engine_state *st, unsigned seat, unsigned loc, unsigned n, int karama);

/* 1 if `seat`, asked for its battle plan, has a legal plan in `st`
 * (engine/phase_battle.c): a side action may not take the last one away. */
int engine__battle_plan_exists(const engine_state *st, uint8_t seat);

/* 1 if some seat the step waits on (awaiting, not answered; a pending
 * Truthtrance question aside) has a legal action of the step (stops at the
 * first such seat). */
int engine__any_legal(const engine_state *st);
/* Writes one family into out[*n] if there is room, and counts it. */
void engine__legal_push(engine_legal *out, size_t cap, size_t *n, const engine_legal *l);
/* A family of `kind` by `seat` with every argument fixed at 0 and no sum. */
void engine__legal_init(engine_legal *l, unsigned kind, uint8_t seat);
/* engine__legal_push of one family of `kind` by `seat` whose argument 0
 * runs lo0..hi0 and argument 1 lo1..hi1, every other fixed at 0, no sum:
 * the one family of most steps and windows. */
void engine__legal_push1(engine_legal *out, size_t cap, size_t *n, unsigned kind, uint8_t seat,
                         int lo0, int hi0, int lo1, int hi1);

/* ======================================================= rule changes */

/* Behaviours that differ between rules versions (engine/rules.c): one row
 * each, append-only. */
typedef enum engine__rule_change {
    ENGINE__RULE_HAJR_AFTER_OWN_MOVE = 0,
    ENGINE__RULE_ALLY_TANKS_AFTER_MOVEMENT,
    ENGINE__RULE_TRAITOR_LEADER_RETURNS,
    ENGINE__RULE_FREMEN_CHOOSE_ALLY_WORM,
    ENGINE__RULE_FREMEN_CHOOSE_ALLY_REVIVAL,
    ENGINE__RULE_ATOMICS_AFTER_STORM_DIAL,
    ENGINE__RULE_MOVE_TO_DIFFERENT_SECTOR,
    ENGINE__RULE_WRONG_STEP,
    ENGINE__RULE_KARAMA_POLICY,
    ENGINE__RULE_OPTIONAL_ARGS,
    ENGINE__RULE_ROOM_OPTIONS,
    ENGINE__RULE_GENERIC_ACTIONS,
    ENGINE__RULE_NEXUS_PANELS,
    ENGINE__RULE_ADVANCED_DOUBLE_BLOW,
    ENGINE__RULE_ADVANCED_FREMEN_WORMS,
    ENGINE__RULE_ADVANCED_KH,
    ENGINE__RULE_ADVANCED_ELITE_REVIVAL,
    ENGINE__RULE_ADVANCED_ADVISORS,
    ENGINE__RULE_GENERIC_WINDOWS,
    ENGINE__RULE_ADVANCED_WORTHLESS_KARAMA,
    ENGINE__RULE_ADVANCED_KARAMA_EMPEROR,
    ENGINE__RULE_ADVANCED_KARAMA_FREMEN,
    ENGINE__RULE_ADVANCED_ELITE_FAMILIES,
    ENGINE__RULE_ADVANCED_PRESCIENCE_DIAL,
    ENGINE__RULE_ADVANCED_KARAMA,
    ENGINE__RULE_NEXUS_WINDOWS,
    ENGINE__RULE_ADVANCED_GUILD_TIMING,
    ENGINE__RULE_ADVANCED_FREMEN_MIGRATION,
    ENGINE__RULE_ADVANCED_FREMEN_STORM_CHOICE,
    ENGINE__RULE_NEXUS_OWN_PANELS,
    ENGINE__RULE_FREE_CARD_KNOWN,
    ENGINE__RULE_KARAMA_SPARES_PLAN_CARD,
    /* the changes of rules version 2 (engine/rules_v1.c folds version 1) */
    ENGINE__RULE_KARAMA_WINDOW,
    ENGINE__RULE_KARAMA_SHIPMENT,
    ENGINE__RULE_CARDS_WHEN_ASKED,
    ENGINE__RULE_WINDOW_ENCODING,
    ENGINE__RULE_NEXUS_MOMENTS,
    ENGINE__RULE_NEXUS_BORROWED_VOICE,
    ENGINE__RULE_NEXUS_WORTHLESS_SPICE,
    ENGINE__RULE_NEXUS_REPLACEMENT,
    ENGINE__RULE_NEXUS_GLIMPSE,
    ENGINE__RULE_ADVANCED_KARAMA_STOPS,
    ENGINE__RULE_ADVANCED_INTRUSION,
    ENGINE__RULE_ADVANCED_KARAMA_HARKONNEN,
    ENGINE__RULE_ADVANCED_KARAMA_GUILD,
    ENGINE__RULE_ADVANCED_KARAMA_ATREIDES,
    ENGINE__RULE_ADVANCED_CAPTURE,
    ENGINE__RULE_COUNT
} engine__rule_change;

typedef struct engine__rule_row {
    uint16_t from;                 /* first rules version it holds in */
    uint16_t until;                /* last, 0 = still in force */
    const char *source;            /* "LR 3.01.09": the rule it follows */
    const char *summary;           /* one line: what holds from `from` on */
} engine__rule_row;
extern const engine__rule_row engine__rule_changes[ENGINE__RULE_COUNT];

/* 1 if `change` holds under the rules version st is played by. */
int engine__rule(const engine_state *st, engine__rule_change change);

/* Rules version 1, where the rows of version 2 do not hold
 * (engine/rules_v1.c): whether `kind` is in the action table; how many of
 * its arguments may be given; the seats a Karama window asks (only the
 * seat a Voice or prescience question is used against); whether a Ghola
 * or Truthtrance is played in this step, and their families. */
int engine__kind_in_force(const engine_state *st, unsigned kind);
unsigned engine__args_in_force(const engine_state *st, unsigned kind);
uint16_t engine__karama_asked_v1(const engine_state *st, uint32_t offered, unsigned user);
int engine__card_step_v1(const engine_state *st, unsigned kind);
size_t engine__legal_side_v1(engine_legal *out, size_t cap, const engine_state *st, uint8_t seat);

/* ======================================================== rule points */

/* The places where phase code asks what the powers say (engine/points.c):
 * phase code calls a point and never names a faction. Append-only: a
 * point's number is never reused; docs/ARCHITECTURE.md "Rule points"
 * draws them in the phase machine. A value point folds the rows that
 * apply to a seat over a base value; an owner point names the seat whose
 * power it is; a seat point says whether a power applies to a seat; a
 * decision point asks its rows in order until one decides. */
typedef enum engine__point {
    ENGINE__POINT_SETUP_PREDICTION = 0, /* owner: predicts the winner and turn (B, LR 2.02.01) */
    ENGINE__POINT_SETUP_PLACEMENT,   /* owner: places its starting forces (F, LR 2.04.02) */
    ENGINE__POINT_SETUP_CHOSEN_START, /* seat: its starting force is placed after the others
                                        instead of at its fixed start (B Advanced, LR 2.02.08) */
    ENGINE__POINT_STORM_LOSSES,      /* value: forces a storm kills of `base` standing there
                                        (F Advanced, LR 2.04.15) */
    ENGINE__POINT_STORM_DECK,        /* owner: the storm deck replaces the dials and the next
                                        card is seen by the owner (F Advanced, LR 2.04.13) */
    ENGINE__POINT_ADVISORS,          /* owner: whose advisors stand on the board; killed, they
                                        go to its Tanks (B) */
    ENGINE__POINT_WORM_STRIKES,      /* seat: its forces are not devoured (F own, F ally) */
    ENGINE__POINT_WORM_ALLY_CHOICE,  /* owner: asked whether the worm spares its ally (F v3) */
    ENGINE__POINT_WORM_RIDE,         /* owner: may ride the worm (F, LR 2.04.08) */
    ENGINE__POINT_CARD_UP,           /* owner: sees each card up for bid (A1, LR 2.01.05) */
    ENGINE__POINT_CARD_PAYEE,        /* owner: others pay it for cards (E1, LR 2.03.04) */
    ENGINE__POINT_CARD_BOUGHT,       /* seat: draws a free card with each one bought (H1) */
    ENGINE__POINT_ALLY_REVIVAL_PAID, /* owner: may pay for extra revivals of its ally (E2) */
    ENGINE__POINT_ALLY_REVIVAL_GIFT, /* decision: asked whether its ally revives free (F v3) */
    ENGINE__POINT_FREE_REVIVAL,      /* value: free force revivals of a seat (F4 ally) */
    ENGINE__POINT_REVIVAL_LIMIT,     /* value: revivals a seat may add beyond the limit (E2 ally);
                                        the owner pays for them */
    ENGINE__POINT_SPICE_PEEK,        /* owner: sees the top spice card (A2, LR 2.01.07) */
    ENGINE__POINT_SHIP_SEND,         /* seat: sends reserves free instead of shipping, to the
                                        places the row allows (F, LR 2.04.05) */
    ENGINE__POINT_SHIPPING_HALF,     /* seat: ships at half price (G4 own, G5 ally) */
    ENGINE__POINT_SHIPPING_PAYEE,    /* owner: others pay it to ship (G1, LR 2.06.04) */
    ENGINE__POINT_SHIP_ACROSS,       /* seat: ships site to site (G2 own, G6 ally) */
    ENGINE__POINT_SHIP_BACK,         /* seat: ships back to its reserves (G3) */
    ENGINE__POINT_SHIPMENT_MADE,     /* owner: may send a force free after another's
                                        off-planet shipment (B1, LR 2.02.05) */
    ENGINE__POINT_MOVE_ALLOWANCE,    /* value: territories a group crosses without
                                        ornithopters (F1, LR 2.04.06) */
    ENGINE__POINT_VOICE,             /* owner: casts the Voice in its or its ally's battle
                                        (B2, B3, LR 2.02.06) */
    ENGINE__POINT_PRESCIENCE,        /* owner: asks one element of the opponent's plan in its
                                        or its ally's battle (A3, A4, LR 2.01.08) */
    ENGINE__POINT_TRAITOR_REVEALED,  /* owner: may call a traitor in its ally's battle too
                                        (H, LR 2.05.06) */
    ENGINE__POINT_MENTAT_PAUSE,      /* decision over the stronghold winners: a row may take
                                        the win for its owner alone (B prediction) */
    ENGINE__POINT_LAST_TURN,         /* decision at the end of the last turn: special
                                        victories, in order (F, G; LR 2.04.09, 2.06.08) */
    ENGINE__POINT_CHARITY_GRANT,     /* value: spice a seat receives at the start of CHOAM
                                        Charity whatever it holds, instead of claiming
                                        (B Advanced, LR 2.02.09); base 0 */
    ENGINE__POINT_ELITE_VALUE,       /* value: half points an elite force of a seat is worth at
                                        full strength in the battle under way; base 2 (E, F
                                        Advanced, LR 2.03.08-09, 2.04.18) */
    ENGINE__POINT_BATTLE_HARDENED,   /* seat: its forces fight at full strength without spice
                                        (F Advanced, LR 2.04.21) */
    ENGINE__POINT_POWER,             /* seat: the row's power is used with the generic
                                        ENGINE_ACTION_POWER (its `form`, `use`), offered when
                                        its `when` agrees (rules version 5 on) */
    ENGINE__POINT_WORM_PLACEMENT,    /* owner: places every worm of a pile's blow after its
                                        first, in a sand territory, with its power at
                                        ENGINE__POINT_POWER (F Advanced, LR 2.04.15) */
    ENGINE__POINT_KWISATZ_HADERACH,  /* owner: its forces lost in battles awaken the Kwisatz
                                        Haderach, who may then accompany its leader (A
                                        Advanced, LR 2.01.10-15; engine/kwisatz_haderach.c) */
    ENGINE__POINT_ADVISORS_ARRIVE,   /* owner: its tokens arriving where its advisors stand
                                        are advisors (Advanced B v6, LR 2.02.20, D1) */
    ENGINE__POINT_ADVISORS_ACCOMPANY, /* owner: may send an advisor with another's
                                        off-planet shipment (Advanced B v6, LR 2.02.11) */
    ENGINE__POINT_ADVISORS_STEWARDS, /* owner: its advisors alone in a territory become
                                        fighters as the Battle phase begins (Advanced B v6,
                                        LR 2.02.21) */
    ENGINE__POINT_WINDOW,            /* a window the row declares (rules version 6 on): opened by
                                        engine__window_open, answered with the generic
                                        ENGINE_ACTION_ANSWER (its `form`, `answer`, `close`) */
    ENGINE__POINT_WORTHLESS_KARAMA,  /* seat: plays a worthless card as a Karama, for every
                                        Karama use (B Advanced v7, LR 1.14.06, 2.02.22;
                                        engine__karama_card) */
    ENGINE__POINT_KARAMA_WORM,       /* owner: is asked as the Spice Blow begins whether it
                                        places a worm with its Karama power (F Advanced v7,
                                        LR 1.14.03), with its power at ENGINE__POINT_POWER */
    ENGINE__POINT_NEXUS_ANSWER,      /* a Nexus panel that answers the neutral Nexus window
                                        (rules version 7 on, engine/nexus_window.c): `fn` 1 for
                                        the engine_nexus_point it answers (a pure function of
                                        it), `use` what playing it does to the held attempt */
    ENGINE__POINT_SHIP_ANY_TIME,     /* owner: takes its Shipment and Movement turn at any one
                                        boundary of the phase, asked there by its windows (G7,
                                        Advanced v7, LR 2.06.12; engine__guild_turn_answered) */
    ENGINE__POINT_SEND_INTO_STORM,   /* value: of `base` forces a seat's send lands in the storm,
                                        those that die at once; a row lets the send land there
                                        (F Advanced v7, LR 2.04.17) */
    ENGINE__POINT_STORM_LOSS_CHOICE, /* owner: chooses which of its tokens the storm takes where
                                        that makes a difference, with its POWER row
                                        fremen_storm_losses (F Advanced v7, LR 2.04.16) */
    ENGINE__POINT_CAPTURE,           /* owner: having won a battle, captures or kills one of
                                        the loser's leaders drawn at random, with its POWER row
                                        capture_or_kill (H Advanced v8, LR 2.05.10;
                                        engine/capture.c) */
    ENGINE__POINT_COUNT
} engine__point;

/* How a Karama cancels a row's advantage (LR 3.01.11.01): CANCELS, a
 * Karama may; STANDS, the action held stands without it (it only decides
 * who is paid, what is gained or seen), else it is retaken; BY_ALLY, the
 * owner's ally uses it, and is not asked; LASTS, the stop outlasts the
 * retake (engine_state.karama_stopped, engine/karama_stops.c). */
enum { ENGINE__KARAMA_CANCELS = 1u << 0, ENGINE__KARAMA_STANDS = 1u << 1,
       ENGINE__KARAMA_BY_ALLY = 1u << 2, ENGINE__KARAMA_LASTS = 1u << 3 };
#define ENGINE__KARAMA_STANDING (ENGINE__KARAMA_CANCELS | ENGINE__KARAMA_STANDS)

/* Whom a row applies to (bits), and in which game. */
enum { ENGINE__TO_OWNER = 1u << 0, ENGINE__TO_ALLY = 1u << 1 };
enum { ENGINE__GAME_ANY = 0, ENGINE__GAME_ADVANCED = 1, ENGINE__GAME_BASIC = 2 };
/* A row's version range as an engine__rule_change (engine/rules.c) that
 * must hold (since) or must not (until); 0 = every version. */
#define ENGINE__RULE_SINCE(change) ((uint8_t)((change) + 1))

/* When a row applies to `seat` beyond its fields (NULL = always). */
typedef int (*engine__power_when)(const engine_state *st, unsigned owner, unsigned seat);
/* What a row does at its point: a value point's new value from `value`;
 * a decision point's answer (0 = the row does not decide); a seat point's
 * check of an argument (0 = refused). */
typedef int (*engine__power_fn)(const engine_state *st, unsigned owner, unsigned seat, int value);
/* A generic power used (ENGINE__POINT_POWER): its arguments are in its
 * form's range; it validates the rest before it mutates (apply.c (1)). */
typedef engine_verdict (*engine__power_use)(engine_verdict_detail *why, engine_state *st,
                                            unsigned owner, const engine_action *act,
                                            engine_rng *rng);
/* The legal families of a generic power whose arguments are not one box
 * (a traitor held, another seat), each with argument 0 = `id`. */
typedef size_t (*engine__power_legal)(engine_legal *out, size_t cap, const engine_state *st,
                                      unsigned seat, int16_t id);

/* A window's answer (ENGINE__POINT_WINDOW): its arguments are in its
 * form's range and its seat is asked by frame `f`, the top one; it
 * validates the rest before it mutates (apply.c (1)), and may set
 * f->answered to f->asked to close the window at once. An answer that
 * uses an advantage a Karama may cancel calls engine__karama_hold and
 * returns at once when held: the seat answers when the Karama window
 * resumes it. */
typedef engine_verdict (*engine__window_answer)(engine_verdict_detail *why, engine_state *st,
                                                engine_frame *f, const engine_action *act,
                                                engine_rng *rng);

/* One faction power (or, later, card effect or module rule), a row of the
 * table in the file of its source (engine/powers_*.c). */
typedef struct engine__power_row {
    uint8_t point;                 /* engine__point */
    uint8_t faction;               /* engine_faction that owns it */
    uint8_t to;                    /* ENGINE__TO_* bits: the owner, its ally */
    uint8_t game;                  /* ENGINE__GAME_* */
    uint8_t since, until;          /* ENGINE__RULE_SINCE(change) or 0 */
    uint8_t advantage;             /* engine_advantage it grants, or NONE */
    uint8_t karama;                /* ENGINE__KARAMA_* bits: whether and how a Karama
                                      cancels the advantage (engine/karama.c) */
    uint8_t retake;                /* engine_action_kind applied for the user in place of a
                                      cancelled action, every argument 0 (a pass), or NONE:
                                      the user is asked again at the same step */
    uint8_t order;                 /* among rows at one point, lower first */
    uint8_t secret_args;           /* bit i: argument i of the power's action is secret */
    engine__power_when when;       /* NULL = whenever the fields say */
    engine__power_fn fn;           /* NULL = the row only holds; at ENGINE__POINT_POWER,
                                      the values of the form's first argument the power
                                      allows now: one legal family each (its `use`
                                      refuses the others) */
    const char *source;            /* "LR 2.04.06": the rule it follows */
    const engine_power_form *form; /* ENGINE__POINT_POWER: its generic action's arguments */
    engine__power_use use;         /* ENGINE__POINT_POWER: what using it does; NULL for a
                                      Nexus panel not built (refused, naming its row) */
    engine__power_legal legal;     /* ENGINE__POINT_POWER: its families, NULL = the form's box */
    uint8_t nexus;                 /* a Nexus panel (engine/nexus_<faction>.c, `faction` the
                                      card's): 1 + the engine_nexus_mode it is played in, and
                                      it applies to the seat holding that card in that mode;
                                      0 a faction power */
    engine__legal_fn decision;     /* ENGINE__POINT_POWER, NULL but for a power that is the
                                      decision of a step: writes its families exactly (one
                                      range per argument cannot), as that step's own
                                      (engine__legal_power_decision), never as a side action */
    engine__window_answer answer;  /* ENGINE__POINT_WINDOW: what one seat's answer does */
    engine__resume_fn close;       /* ENGINE__POINT_WINDOW: once every seat asked has answered
                                      (the last answer given), NULL: nothing more */
} engine__power_row;

/* At most this many rows at one point (engine/points.c collects them on
 * its stack; tests/engine/test_data.c checks the tables keep to it). */
#define ENGINE__POINT_ROWS_MAX 16

/* The rows of one faction family (engine/powers_<family>.c). */
typedef struct engine__power_family {
    const engine__power_row *rows;
    size_t n;
} engine__power_family;
extern const engine__power_family engine__powers_atreides, engine__powers_bene_gesserit,
    engine__powers_emperor, engine__powers_fremen, engine__powers_guild,
    engine__powers_harkonnen;
/* Every family by owning faction, NULL for a faction with none. */
extern const engine__power_family *const engine__power_families[ENGINE_FACTION_COUNT];
/* The panels of each Nexus card (engine/nexus_<faction>.c), by the faction
 * printed on it. */
extern const engine__power_family engine__nexus_atreides, engine__nexus_bene_gesserit,
    engine__nexus_emperor, engine__nexus_fremen, engine__nexus_harkonnen, engine__nexus_guild,
    engine__nexus_ixians, engine__nexus_tleilaxu, engine__nexus_choam, engine__nexus_richese,
    engine__nexus_ecaz, engine__nexus_moritani;
extern const engine__power_family *const engine__nexus_families[ENGINE_FACTION_COUNT];
/* A panel not built yet: its slug, so that a seat may name it and be told
 * which it is (engine__power refuses it with rule_not_implemented, the
 * detail's value its row in EXPANSIONS_AND_NEXUS.md 5.2). */
#define ENGINE__NEXUS_NOT_BUILT(fac, mode, form_)                                             \
    {.point = ENGINE__POINT_POWER, .faction = (fac), .to = ENGINE__TO_OWNER,                  \
     .since = ENGINE__RULE_SINCE(ENGINE__RULE_NEXUS_PANELS), .nexus = 1 + (mode),             \
     .source = "E3 p.11 (not built)", .form = (form_)}
/* A panel built from a later rules version: named and refused under the
 * versions before `change` (its built row carries since = that change). */
#define ENGINE__NEXUS_NOT_BUILT_UNTIL(fac, mode, form_, change)                               \
    {.point = ENGINE__POINT_POWER, .faction = (fac), .to = ENGINE__TO_OWNER,                  \
     .since = ENGINE__RULE_SINCE(ENGINE__RULE_NEXUS_PANELS),                                  \
     .until = ENGINE__RULE_SINCE(change), .nexus = 1 + (mode),                                \
     .source = "E3 p.11 (not built)", .form = (form_)}
/* The Guild Cunning's second shipment (engine/nexus_guild.c, an effect
 * record): asked as `seat`'s Shipment and Movement turn ends, 1 if the
 * seat ships once more now (the record marked being made); asked as a
 * shipment of `seat` is over, 1 if it was that second one (the record
 * gone: the seat is then offered no move but a Hajr's). */
/* The territory the Fremen ride the worm of `worm` from: the one the
 * Fremen Cunning named for it (engine/nexus_fremen.c, an effect record),
 * else `worm` itself. And the Fremen forces out of the storm in
 * territory `t` (engine/phase_spice_blow.c), elite ones in *elite_out. */
unsigned engine__nexus_ride_from(const engine_state *st, unsigned worm);
unsigned engine__worm_riders_in(const engine_state *st, unsigned t, unsigned *elite_out);
int engine__nexus_ship_again(engine_state *st, unsigned seat);
int engine__nexus_shipped_again(engine_state *st, unsigned seat);
/* The shuffle back of the traitors a panel drew (engine/nexus.c): a row of
 * the card's file in the panel's mode, offered while the seat owes one. */
#define ENGINE__NEXUS_RETURN_ROW(fac, mode)                                                   \
    {.point = ENGINE__POINT_POWER, .faction = (fac), .to = ENGINE__TO_OWNER,                  \
     .since = ENGINE__RULE_SINCE(ENGINE__RULE_NEXUS_PANELS), .nexus = 1 + (mode),             \
     .when = engine__nexus_owes, .source = "E3 p.11 (the traitors drawn go back)",            \
     .form = &engine__nexus_return_form, .use = engine__nexus_traitor_return,                 \
     .legal = engine__nexus_traitor_return_legal}
extern const engine_power_form engine__nexus_return_form;
int engine__nexus_owes(const engine_state *st, unsigned owner, unsigned seat);
engine_verdict engine__nexus_traitor_return(engine_verdict_detail *why, engine_state *st,
                                            unsigned owner, const engine_action *act,
                                            engine_rng *rng);
size_t engine__nexus_traitor_return_legal(engine_legal *out, size_t cap, const engine_state *st,
                                          unsigned seat, int16_t id);
/* Panels (engine/nexus.c): the held card shown to the table; shown and
 * discarded (a played card, once); traitors a panel may draw now (none
 * owed, enough in the deck, room for the record); drawn, with the record
 * of how many are owed back; how many `seat` owes. */
void engine__nexus_show(engine_state *st, unsigned seat);
/* A panel's family: power `id`, arguments 1 and 2 in lo..hi. */
void engine__nexus_push(engine_legal *out, size_t cap, size_t *n, unsigned seat, int16_t id,
                        int16_t lo1, int16_t hi1, int16_t lo2, int16_t hi2);
void engine__nexus_spend(engine_state *st, unsigned seat);
int engine__nexus_can_draw_traitors(const engine_state *st, unsigned seat, unsigned count);
void engine__nexus_draw_traitors(engine_state *st, unsigned seat, unsigned count);
unsigned engine__nexus_owed(const engine_state *st, unsigned seat);
/* 1 while a Nexus Betrayal sets aside `owner`'s faction rows at `point`
 * (engine/points.c skips them). */
int engine__nexus_banned(const engine_state *st, unsigned owner, unsigned point);
/* The neutral Nexus window (engine/nexus_window.c, rules version 7 on):
 * an attempt `act` checked in full, at Nexus point `point`, is held in one
 * generic window asking every publicly possible holder of a panel
 * answering there whose policy asks it; 1 if held (the handler returns at
 * once: the window's close applies the attempt, or the panel played
 * instead). Never holds the attempt its own window resumes. */
int engine__nexus_hold(engine_state *st, const engine_action *act, unsigned point);
/* A stop panel's use: the card spent, the held attempt's pass applied for
 * its seat in its place (G3: that attempt only). The `fn` of a panel row
 * answering the Voice, or a prescience question (`owner`: the faction of
 * the attempt's user; a pure function of it and the point). A stop
 * panel's row. */
engine_verdict engine__nexus_stop(engine_verdict_detail *why, engine_state *st, unsigned owner,
                                  const engine_action *held, engine_rng *rng);
int engine__nexus_at_voice(const engine_state *st, unsigned owner, unsigned seat, int point);
int engine__nexus_at_prescience(const engine_state *st, unsigned owner, unsigned seat, int point);
/* ... a traitor the Harkonnen call (`owner`: the caller's faction). */
int engine__nexus_at_traitor(const engine_state *st, unsigned owner, unsigned seat, int point);
/* The traitor `leader`, held by `seat`, back into the traitor deck,
 * shuffled (the seat still knows it lies there); the replacements owed by
 * records of ENGINE_EFFECT_NEXUS_TRAITOR_OWED drawn as the Mentat Pause
 * begins (engine/nexus.c). */
void engine__nexus_traitor_to_deck(engine_state *st, unsigned seat, unsigned leader,
                                   engine_rng *rng);
void engine__nexus_mentat_pause(engine_state *st);
/* The leader a traitor call by `seat` would reveal now, -1 if it may not
 * call (engine/phase_battle.c). */
int engine__battle_traitor_of(const engine_state *st, unsigned seat);
#define ENGINE__NEXUS_STOP_ROW(fac, mode, at, source_)                                       \
    {.point = ENGINE__POINT_NEXUS_ANSWER, .faction = (fac), .to = ENGINE__TO_OWNER,          \
     .since = ENGINE__RULE_SINCE(ENGINE__RULE_NEXUS_WINDOWS), .nexus = 1 + (mode),           \
     .fn = (at), .source = (source_), .use = engine__nexus_stop}
/* A panel answering the neutral Nexus window: until then named, not built. */
#define ENGINE__NEXUS_NOT_BUILT_UNTIL_WINDOWS(fac, mode, form_)                               \
    ENGINE__NEXUS_NOT_BUILT_UNTIL(fac, mode, form_, ENGINE__RULE_NEXUS_WINDOWS)
/* The neutral window's tests (engine/nexus_window.c), which the moment
 * window shares: row `r` answers `point` for an attempt by faction `user`;
 * some card could, from public facts, give `seat` such a row. */
int engine__nexus_answers(const engine_state *st, const engine__power_row *r, unsigned user,
                          unsigned point);
int engine__nexus_could_answer(const engine_state *st, unsigned seat, unsigned user,
                               unsigned point);
/* A seat's own moment (engine/nexus_moment.c, rules version 8 on): the
 * phase asks it at Nexus point `point` for the seats `seats` whose moment
 * it is (`arg`: the worm's territory, else 0); 1 if the window opened (the
 * phase returns at once: the window's close goes on from the moment). The
 * `fn` of a panel row played at a worm's strike, at the Mentat Pause. */
int engine__nexus_moment(engine_state *st, unsigned point, uint16_t seats, int arg);
int engine__nexus_at_worm(const engine_state *st, unsigned owner, unsigned seat, int point);
int engine__nexus_at_mentat_pause(const engine_state *st, unsigned owner, unsigned seat,
                                  int point);
/* The lot `buyer` won, before it pays (engine/nexus_emperor.c): the moment
 * of every seat but the Emperor when the buyer is his ally, else the
 * buyer's; 1 if its window opened. And the payment of `amount` a panel
 * decided (an effect record), 1 if made. The `fn` of a panel row played
 * at those moments. */
int engine__nexus_lot_won(engine_state *st, unsigned buyer);
int engine__nexus_pays(engine_state *st, unsigned buyer, unsigned amount);
int engine__nexus_at_lot_won(const engine_state *st, unsigned owner, unsigned seat, int point);
int engine__nexus_at_ally_purchase(const engine_state *st, unsigned owner, unsigned seat,
                                   int point);
/* The Emperor's Advanced panels (engine/nexus_emperor.c, rules version 8):
 * the half points `seat`'s plan `p` gains from ordinary forces the Emperor
 * Cunning counts as Sardaukar (each worth `elite2` half points at full
 * strength); their records, and the Betrayal's ban of the Sardaukar
 * bonus, removed as the battle ends. */
unsigned engine__nexus_elite_bonus2(const engine_state *st, unsigned seat,
                                    const engine_battle_plan *p, unsigned elite2);
void engine__nexus_battle_over(engine_state *st);
/* 1 if a panel spared `seat`'s forces in `territory` from the worm striking
 * it now (engine/nexus_fremen.c, an effect record). */
int engine__nexus_spared(const engine_state *st, unsigned seat, unsigned territory);
/* A traitor a panel drew went back: in the Mentat Pause of a moment's
 * panel the phase goes on once no seat owes one (engine/nexus_moment.c). */
void engine__nexus_moment_returned(engine_state *st, engine_rng *rng);
extern const engine_power_form engine__nexus_moment_form;
engine_verdict engine__nexus_moment_answer(engine_verdict_detail *why, engine_state *st,
                                           engine_frame *f, const engine_action *act,
                                           engine_rng *rng);
size_t engine__nexus_moment_legal(engine_legal *out, size_t cap, const engine_state *st,
                                  unsigned seat, int16_t id);
void engine__nexus_moment_close(engine_state *st, const engine_frame *f,
                                const engine_action *answer, engine_rng *rng);
#define ENGINE__NEXUS_MOMENT_ROW                                                              \
    {.point = ENGINE__POINT_WINDOW, .faction = ENGINE_FACTION_ATREIDES, .to = ENGINE__TO_OWNER, \
     .since = ENGINE__RULE_SINCE(ENGINE__RULE_NEXUS_MOMENTS),                                 \
     .source = "E3 p.11; EXPANSIONS_AND_NEXUS.md 5.2 G5 (docs/RULINGS.md R140)",              \
     .form = &engine__nexus_moment_form, .legal = engine__nexus_moment_legal,                 \
     .answer = engine__nexus_moment_answer, .close = engine__nexus_moment_close}
/* The module's rows every seat of a Nexus room owns (the window, the
 * standing policy): engine/points.c and engine/generic.c walk them. */
extern const engine__power_family engine__nexus_module;
/* The window's fields hold together (engine__nexus_check calls it). */
int engine__nexus_window_check(const engine_state *st);
/* The CHOAM Secret Ally's window as Spice Collection ends (rules version
 * 8 on, engine/nexus_choam.c): 1 if opened; its close begins the Mentat
 * Pause. */
int engine__nexus_collection_ask(engine_state *st);
/* The Ixian Secret Ally's window right after a card is sold (rules
 * version 8 on, engine/nexus_ixians.c): 1 if opened; its close brings the
 * next card up (engine__bidding_card_up). */
int engine__nexus_purchase_ask(engine_state *st, unsigned buyer);
/* The CHOAM Secret Ally's (b) window after a battle won (rules version 8
 * on, engine/nexus_choam.c): 1 if opened; its close goes on to the next
 * battle (engine__battle_next). */
int engine__nexus_battle_won_ask(engine_state *st);
/* A card's own window (engine/nexus.c): 1 if `seat` holds the card printed
 * for `face` in `mode` (its own hand: a seat's legal actions are its own);
 * 1 if, from public facts alone, it could (it holds a Nexus card not shown
 * to be another, that card is not in the discard, the roster gives it that
 * mode), the test of who a card's own window asks. */
int engine__nexus_holds_as(const engine_state *st, unsigned seat, unsigned face, int mode);
/* The one family of a yes-or-no window of a card's own (argument 1: 0
 * pass, 1 play): 0..1 for the seat holding the card printed for `face` as
 * its Secret Ally, 0 for every other seat asked. */
size_t engine__nexus_yes_no_legal(engine_legal *out, size_t cap, const engine_state *st,
                                  unsigned seat, int16_t id, unsigned face);
/* 1 in a Nexus Cards room whose rules version has `change`. */
int engine__nexus_in_force(const engine_state *st, engine__rule_change change);
/* Revival panels (engine/nexus.c): forces of `seat` in the Tanks; `forces`
 * of them revived free, plain first (`counted`: they count among its
 * revivals this turn, a record engine/phase_revival.c reads through
 * engine__nexus_revived); a panel's `when` in the Revival phase; its one
 * family, 1 up to `most` forces. */
unsigned engine__nexus_dead(const engine_state *st, unsigned seat);
void engine__nexus_revive(engine_state *st, unsigned seat, unsigned forces, int counted);
unsigned engine__nexus_revived(const engine_state *st, unsigned seat);
/* A panel's use reviving arg[1] forces free, then spending the card. */
engine_verdict engine__nexus_revive_panel(engine_verdict_detail *why, engine_state *st,
                                          unsigned owner, const engine_action *act, int counted);
int engine__nexus_in_revival(const engine_state *st, unsigned owner, unsigned seat);
size_t engine__nexus_forces_legal(engine_legal *out, size_t cap, const engine_state *st,
                                  unsigned seat, int16_t id, unsigned most);
/* Shipments a Nexus panel prices (engine/phase_shipment.c): whether the
 * seat may ship from reserves now, may land at `loc`, the price of one
 * force there (1 a stronghold, else 2), and the shipment, checked, paid
 * and landed (a verdict; nothing changed unless accepted). */
/* The seat whose Shipment and Movement turn it is (the Guild acting out
 * of storm order included, LR 2.06.12), 0xFF once every seat has had it. */
unsigned engine__ship_seat(const engine_state *st);
/* The Fremen's choice of their storm losses (engine/phase_storm.c,
 * Advanced v7, LR 2.04.16): 1 while the storm's step LOSSES waits on it,
 * with the Fedaykin that may die at storm_loss_at (lo..hi); the choice
 * made, the next location or the Spice Blow. */
int engine__storm_loss_range(const engine_state *st, unsigned *lo, unsigned *hi);
void engine__storm_loss_chosen(engine_state *st, unsigned fedaykin, engine_rng *rng);
/* The windows asking the owner of ENGINE__POINT_SHIP_ANY_TIME at a
 * boundary of the phase (rows in engine/powers_guild.c), and what their
 * close tells the phase: out of order (acts now, or delays), a Karama
 * stopped it. */
#define ENGINE__WINDOW_TURN_NOW "guild_act_now"
#define ENGINE__WINDOW_TURN_DELAY "guild_delay"
void engine__guild_turn_answered(engine_state *st, int out_of_order, int stopped, engine_rng *rng);
int engine__panel_may_ship(const engine_state *st, unsigned seat);
/* The seat's own SHIP step, no window open, and it ships: the shipment a
 * panel may replace, from reserves or (engine__ship_board_by_panel) from
 * the board: site to site, or back to reserves when `to` is -1, `cost`
 * paid to the bank. */
int engine__panel_shipment_turn(const engine_state *st, unsigned seat);
engine_verdict engine__ship_board_by_panel(engine_verdict_detail *why, engine_state *st,
                                           unsigned seat, int from, int to, int forces,
                                           unsigned cost);
int engine__panel_may_land(const engine_state *st, unsigned seat, unsigned loc);
unsigned engine__ship_price(unsigned loc);
engine_verdict engine__ship_by_panel(engine_verdict_detail *why, engine_state *st, unsigned seat,
                                     int loc, int forces, unsigned cost, int to_bank);
/* A shipment panel's families (engine/nexus.c): per location, 1..most
 * forces; its `when`: the holder may ship from reserves now. */
size_t engine__nexus_ship_legal(engine_legal *out, size_t cap, const engine_state *st,
                                unsigned seat, int16_t id,
                                unsigned (*most)(const engine_state *st, unsigned seat,
                                                 unsigned loc));
int engine__nexus_may_ship(const engine_state *st, unsigned owner, unsigned seat);
/* A shipment panel used: its action's location (argument 1) and forces
 * (argument 2) shipped for what `price` asks of them, to the bank or not
 * (engine__ship_by_panel); the card is spent once the shipment is made. */
engine_verdict engine__nexus_ship(engine_verdict_detail *why, engine_state *st, unsigned owner,
                                  const engine_action *act,
                                  unsigned (*price)(unsigned loc, unsigned forces), int to_bank);
/* engine_apply's check after the generic ones: a seat owing traitors back
 * may only return them, unless a window admitting no side action is open
 * (its answers stand); the families it is offered meanwhile. */
engine_verdict engine__nexus_gate(engine_verdict_detail *why, const engine_state *st,
                                  const engine_action *act, int is_closed_window);
size_t engine__nexus_legal_owed(engine_legal *out, size_t cap, const engine_state *st,
                                uint8_t seat);

/* The seat owning a row at `p` in force (game, rules version), lowest
 * order first, or -1. */
int engine__point_owner(const engine_state *st, engine__point p);
/* The row at `p` in force that applies to `seat`, as its owner or its
 * owner's ally, or NULL; *owner_out (may be NULL) its owner's seat. */
const engine__power_row *engine__point_row(const engine_state *st, engine__point p,
                                           unsigned seat, unsigned *owner_out);
/* The i-th of the rows at `p` in force that apply to `seat` (in the order
 * engine__point_row takes them), or NULL past the last. */
const engine__power_row *engine__point_row_nth(const engine_state *st, engine__point p,
                                               unsigned seat, unsigned i, unsigned *owner_out);
/* 1 if a row at `p` applies to `seat`. */
int engine__point_holds(const engine_state *st, engine__point p, unsigned seat);
/* `base` folded through the rows at `p` that apply to `seat`, skipping a
 * row whose advantage a Karama cancelled. */
int engine__point_value(const engine_state *st, engine__point p, unsigned seat, int base);
/* 1 if a row at `p` applies to `seat` and its function (if any) accepts
 * `arg`. */
int engine__point_allows(const engine_state *st, engine__point p, unsigned seat, int arg);
/* The first nonzero answer of the rows at `p` in force, asked in order
 * with `arg`, and *owner_out its owner; 0 if none decides. */
int engine__point_decide(const engine_state *st, engine__point p, int arg, unsigned *owner_out);
/* The advantage of the row at `p` that applies to `seat`
 * (engine__point_row), ENGINE_ADVANTAGE_NONE for none: phase code names
 * the advantage it holds in a Karama window through its point. */
unsigned engine__point_advantage(const engine_state *st, engine__point p, unsigned seat);
/* The same for the seat owning the point (engine__point_owner), NONE for
 * none. */
unsigned engine__point_owner_advantage(const engine_state *st, engine__point p);
/* The row granting `advantage` (the first in the families), or NULL. */
const engine__power_row *engine__advantage_row(unsigned advantage);
/* 1 if row `r` is in force in `st`: its game and its version range. */
int engine__row_in_force(const engine_state *st, const engine__power_row *r);
/* The row declaring window `id` in force in `st` (the game and the rules
 * version right), or NULL (engine/generic.c). */
const engine__power_row *engine__generic_window(const engine_state *st, int id);

/* ============================================================ helpers */

#define ENGINE_SEAT_BIT(s) ((uint16_t)(1u << (s)))

/* known_by of a component shown face up to the table: every seat and the
 * public. */
static inline uint16_t engine__shown(const engine_state *st)
{
    return (uint16_t)(((1u << st->config.n_seats) - 1) | ENGINE_KNOWN_PUBLIC);
}

static inline engine_verdict engine__reject(engine_verdict_detail *why, engine_verdict v,
                                            int arg, int32_t value)
{
    if (why) {
        why->arg = (int8_t)arg;
        why->value = value;
    }
    return v;
}

/* Hands: a card of `kind` held by `seat` (its number, or 0xFF), whether
 * the seat holds any card (a public fact), and how many. */
unsigned engine__card_in_hand(const engine_state *st, unsigned seat, unsigned kind);
int engine__holds_cards(const engine_state *st, unsigned seat);
unsigned engine__hand_size(const engine_state *st, unsigned seat);
/* Deals the top card of the treachery deck to `seat` (known to it only). */
void engine__deal_treachery(engine_state *st, uint8_t seat);
/* Sends n plain and n_special forces of `seat` at `loc` to the Tanks. */
void engine__forces_to_tanks(engine_state *st, unsigned loc, uint8_t seat,
                             unsigned n, unsigned n_special);
/* Treachery deck: draw the top card (reshuffling the discard pile when the
 * deck is empty; 0xFF if there is no card at all), discard face up. */
unsigned engine__treachery_draw(engine_state *st, engine_rng *rng);
void engine__treachery_discard(engine_state *st, unsigned card);
/* 1 if a stronghold already holds forces of two factions other than `seat`. */
int engine__stronghold_full(const engine_state *st, unsigned territory, unsigned seat);
/* Total forces (plain + elite) a faction owns in this game. */
unsigned engine__faction_forces(const engine_state *st, unsigned faction);
unsigned engine__faction_special(const engine_state *st, unsigned faction);

/* 1 if `seat` has forces (plain or elite) in `territory`; advisors do not
 * count (engine/phase_mentat_pause.c). */
int engine__occupies(const engine_state *st, unsigned territory, unsigned seat);

/* The faction Karama powers of the Advanced game (LR 1.14; engine/karama_card.c):
 * 1 if the rooms' once-a-game record is carried (encoded, checked); 1 if
 * `seat` may use its power now as far as the card and the record go (it
 * holds a card to spend, engine_karama_card, and has not used it); the
 * power used: its card discarded face up, the seat recorded. */
int engine__karama_powers_carried(const engine_state *st);
int engine__karama_power_ready(const engine_state *st, unsigned seat);
void engine__karama_power_spend(engine_state *st, unsigned seat);
/* The Harkonnen's Karama power (engine/karama_hand.c, LR 1.14.04, rules
 * version 8 on): the take, its row's pieces, and the give-back window's;
 * what a seat taking a hand may hold beyond its limit while it owes cards
 * back (0 outside that window: engine_state_check). */
extern const engine_power_form engine__harkonnen_hand_form, engine__harkonnen_return_form;
/* The form of a faction Karama power naming another faction, `target`
 * (the Harkonnen's hand, the Atreides' look). */
#define ENGINE__TARGET_FORM(name)                                                               \
    {.slug = (name), .n_args = 1, .arg_name = {"target"}, .arg_type = {ENGINE_ARG_FACTION},   \
     .lo = {0}, .hi = {ENGINE_FACTION_COUNT - 1}, .fallback = {0}}
int engine__harkonnen_hand_when(const engine_state *st, unsigned owner, unsigned seat);
size_t engine__harkonnen_hand_legal(engine_legal *out, size_t cap, const engine_state *st,
                                    unsigned seat, int16_t id);
engine_verdict engine__harkonnen_hand(engine_verdict_detail *why, engine_state *st,
                                      unsigned owner, const engine_action *act, engine_rng *rng);
size_t engine__harkonnen_return_legal(engine_legal *out, size_t cap, const engine_state *st,
                                      unsigned seat, int16_t id);
engine_verdict engine__harkonnen_return(engine_verdict_detail *why, engine_state *st,
                                        engine_frame *f, const engine_action *act, engine_rng *rng);
void engine__harkonnen_returned(engine_state *st, const engine_frame *f,
                                const engine_action *answer, engine_rng *rng);
unsigned engine__karama_hand_owed(const engine_state *st, unsigned seat);
/* The Guild's Karama power (engine/karama_shipment.c, LR 1.14.05, rules
 * version 8 on): a shipment from reserves checked in full is held for its
 * owner to cancel (1: held); its window row's pieces. What the phase does
 * with a held shipment (engine/phase_shipment.c): made as it was (`ship`
 * or `ship_karama_from`), or cancelled (the shipper goes on to its move). */
extern const engine_power_form engine__guild_stop_form;
int engine__guild_stop_hold(engine_state *st, const engine_action *shipment);
size_t engine__guild_stop_legal(engine_legal *out, size_t cap, const engine_state *st,
                                unsigned seat, int16_t id);
engine_verdict engine__guild_stop(engine_verdict_detail *why, engine_state *st, engine_frame *f,
                                  const engine_action *act, engine_rng *rng);
void engine__guild_stopped(engine_state *st, const engine_frame *f, const engine_action *answer,
                           engine_rng *rng);
void engine__shipment_made_held(engine_state *st, const engine_action *made, engine_rng *rng);
void engine__shipment_cancelled(engine_state *st, const engine_action *made);
/* The Atreides' Karama power (engine/karama_plan.c, LR 1.14.01, rules
 * version 8 on): whether the state carries its record; the row's pieces;
 * the seer and the seat seen (-1 none); a plan just committed (its cards
 * marked known to the seer when it is the one seen; who is shown it is
 * engine_karama_plan_shown); the record's invariant (1: holds). */
extern const engine_power_form engine__karama_plan_form;
int engine__karama_plan_carried(const engine_state *st);
int engine__karama_plan_when(const engine_state *st, unsigned owner, unsigned seat);
size_t engine__karama_plan_legal(engine_legal *out, size_t cap, const engine_state *st,
                                 unsigned seat, int16_t id);
engine_verdict engine__karama_plan(engine_verdict_detail *why, engine_state *st, unsigned owner,
                                   const engine_action *act, engine_rng *rng);
int engine__karama_plan_seer(const engine_state *st);
int engine__karama_plan_seen_seat(const engine_state *st);
void engine__karama_plan_committed(engine_state *st);
int engine__karama_plan_check(const engine_state *st);
/* engine_karama_card, passing over the card `except` (a Karama set aside
 * for a high bid, which no window may spend too; 0xFF: none). */
unsigned engine__karama_card_except(const engine_state *st, unsigned seat, unsigned except);
/* The Revival phase's one-elite-a-turn cap, shared by every source (LR
 * 2.03.10, 2.04.20; R106; engine/phase_revival.c): the elite forces `seat`
 * may still revive this turn, and `elite` of them revived. */
unsigned engine__revival_elite_left(const engine_state *st, unsigned seat);
void engine__revival_elite_revived(engine_state *st, unsigned seat, unsigned elite);

/* The Advanced game's phase rules (engine/advanced.c): 1 if `st` plays
 * the Advanced game under a rules version that has its built parts
 * (ENGINE__RULE_ROOM_OPTIONS); the spice the strongholds `seat` occupies
 * pay it in the Spice Collection (LR 1.13.01), 0 outside that game. */
int engine__advanced(const engine_state *st);
unsigned engine__stronghold_income(const engine_state *st, unsigned seat);
/* 1 if `st` plays the Advanced double spice blow (engine/advanced.c; LR
 * 1.13.02, rules version 6 on). */
int engine__double_blow(const engine_state *st);
/* The Advanced Spice Blow (engine/phase_spice_blow.c): 1 while the step
 * waits on the placer of a pile's further worm (BLOW_STEP_WORM_PLACE), a
 * public fact; the worm placed in sand `territory`, which strikes it and
 * the blow goes on (the placer's power checked the territory). */
int engine__worm_placing(const engine_state *st);
/* The Fremen's Karama worm (LR 1.14.03): 1 while the step waits on its
 * owner's answer (BLOW_STEP_KARAMA_WORM, no window over it); the answer:
 * a worm striking sand `territory` as if revealed first on pile A (it
 * causes the pile's Nexus and may be ridden after it), or, for -1, none;
 * then the blow goes on. */
int engine__karama_worm_asking(const engine_state *st);
void engine__karama_worm(engine_state *st, int territory, engine_rng *rng);
void engine__worm_placed(engine_state *st, unsigned territory, engine_rng *rng);
/* A further worm whose placement a Karama stopped (rules version 8 on,
 * docs/RULINGS.md R135): it strikes the territory of the pile's topmost
 * territory card, as a worm no one places (LR 1.02.05), then the blow
 * goes on. */
void engine__worm_unplaced(engine_state *st, engine_rng *rng);
/* The Advanced battle plan's forces (engine/advanced.c, LR 1.13.04): its
 * check (the verdict, *arg the argument at fault), its legal ranges and
 * caps written into arguments 4..7 of `l`, its forces' strength in half
 * points, and the spice it pays in support. */
engine_verdict engine__plan_forces_check(const engine_state *st, unsigned seat,
                                         const engine_battle_plan *p, int *arg);
void engine__plan_forces_legal(engine_legal *l, const engine_state *st, unsigned seat);
unsigned engine__plan_strength2(const engine_state *st, unsigned seat, const engine_battle_plan *p);
unsigned engine__plan_support(const engine_state *st, unsigned seat, const engine_battle_plan *p);
/* The elite tokens (Sardaukar, Fedaykin) of `seat` in the battle's territory. */
unsigned engine__battle_elite(const engine_state *st, unsigned seat);
/* The Advanced prescience of the dial (engine/advanced.c, rules version 7
 * on; LR 2.01.05, 1.13.04): whether it is in force; its answer, the
 * forces' strength in half points and their spice support, packed into
 * one effect argument and read back; the next forces part after *cursor
 * (start at 0) that gives exactly that answer, written into p's dial,
 * half, elite and elite_half (1, or 0 when there is none more); and the
 * answers `seat` may give, as legal families. */
#define ENGINE__DIAL_ANSWER_STRENGTH_MAX 127 /* half points; packing unit 128 */
#define ENGINE__DIAL_ANSWER_SUPPORT_MAX 63
int engine__dial_prescience(const engine_state *st);
int16_t engine__dial_answer_pack(unsigned strength2, unsigned support);
unsigned engine__dial_answer_strength2(int packed);
unsigned engine__dial_answer_support(int packed);
int engine__plan_forces_next(engine_battle_plan *p, unsigned *cursor, const engine_state *st,
                             unsigned seat, int packed);
size_t engine__legal_dial_answers(engine_legal *out, size_t cap, size_t n, const engine_state *st,
                                  uint8_t seat);

/* The Kwisatz Haderach (engine/kwisatz_haderach.c; Advanced, LR
 * 2.01.10-15): its owner's seat (-1 when not in force); counting the
 * forces `seat` lost in a battle; awake; may join the battle under way;
 * joins side's plan; the half points it adds to side's total; after a
 * battle (an explosion; the side that alone won by a traitor, else 2);
 * the turn's Battle begins; the Revival ends; revived this Revival by
 * `seat` (no leader revival then); whether `seat` may revive it (the
 * verdict, *arg the argument at fault) and doing so; its invariants. */
int engine__kh_owner(const engine_state *st);
void engine__kh_battle_losses(engine_state *st, unsigned seat, unsigned n);
int engine__kh_is_awake(const engine_state *st);
int engine__kh_may_join(const engine_state *st);
int engine__kh_joins(const engine_state *st, unsigned side);
unsigned engine__kh_strength2(const engine_state *st, unsigned side, int hero_survives);
void engine__kh_after_battle(engine_state *st, int is_explosion, unsigned traitor_winner);
void engine__kh_turn_begins(engine_state *st);
void engine__kh_revival_ends(engine_state *st);
int engine__kh_revived_now(const engine_state *st, unsigned seat);
engine_verdict engine__kh_revivable(const engine_state *st, unsigned seat, int *arg);
void engine__kh_revive(engine_state *st, unsigned seat);
int engine__kh_check(const engine_state *st);
/* The Harkonnen's captives (engine/capture.c; Advanced, rules version 8,
 * LR 2.05.10-13): whether the state encodes their fields; 1 if `leader`
 * is a captive; a leader was killed in a battle; the battle under way is over, its cards back in hand:
 * releases what must go back, draws the leader to capture or kill if the
 * owner of ENGINE__POINT_CAPTURE won it (1 if the step now waits on it);
 * 1 while it is asked; its answer (0 neither, 1 capture, 2 kill; a Karama
 * stopped it: neither) and the battle goes on; its invariants. */
int engine__capture_encoded(const engine_state *st);
int engine__captive(const engine_state *st, unsigned leader);
void engine__capture_leader_killed(engine_state *st, unsigned leader);
int engine__capture_after_battle(engine_state *st, engine_rng *rng);
int engine__capture_asking(const engine_state *st);
void engine__capture_decided(engine_state *st, unsigned choice, engine_rng *rng);
int engine__capture_check(const engine_state *st);
/* The battle phase goes on to the next battle (engine/phase_battle.c). */
void engine__battle_next(engine_state *st, engine_rng *rng);
/* 1 if `seat`, fighting the battle under way, must play a leader or a
 * Cheap Hero (engine/phase_battle.c, LR 1.07.04.02). */
int engine__battle_leader_required(const engine_state *st, unsigned seat);
/* The Bene Gesserit's advisors (engine/advisors.c, Advanced, rules
 * version 6 on): whether the state encodes their fields; 1 if advisors
 * stand in `territory`; 1 if tokens of `seat` arriving there become
 * advisors (LR 2.02.20, D1); tokens arriving at `loc` (from reserves or
 * another place, already taken from it) as the side there decides; 1 + the
 * location an advisor may accompany the shipment of `shipper` to, 0 none
 * (LR 2.02.11); advisors alone in a territory out of the storm become
 * fighters (LR 2.02.19, 2.02.21). */
int engine__advisors_encoded(const engine_state *st);
int engine__advisors_in(const engine_state *st, unsigned territory);
int engine__advisors_arriving(const engine_state *st, unsigned seat, unsigned territory);
void engine__tokens_arrive(engine_state *st, unsigned seat, unsigned loc, unsigned plain,
                           unsigned elite);
/* 1 if the group of `seat` leaving `territory` is advisors; 1 if advisors
 * of `seat` moving into `territory` stay advisors: the Bene Gesserit's
 * advisors or another faction's forces stand there, none of its fighters
 * unless they take up arms (LR 2.02.14 ENLISTMENT, 2.02.20 ADAPTIVE FORCE,
 * 2.02.16 TAKE UP ARMS). */
int engine__advisors_moving(const engine_state *st, unsigned seat, unsigned territory);
int engine__advisors_stay(const engine_state *st, unsigned seat, unsigned territory);
/* 1 if advisors of `seat` moving from `from` into `territory` may take up
 * arms there (TAKE UP ARMS, LR 2.02.16): they would stay advisors, the
 * Bene Gesserit have no advisors there already, and their ally no forces
 * (PEACETIME, 2.02.18). */
int engine__advisors_may_take_up_arms(const engine_state *st, unsigned seat, unsigned from,
                                      unsigned territory);
unsigned engine__advisors_accompany_at(const engine_state *st, unsigned shipper, unsigned loc);
void engine__advisors_stewards(engine_state *st);
/* 1 if some advisors in `territory` stand under the storm (STORMED IN, LR
 * 2.02.19); the advisors of seat `bg` in `territory` all become fighters
 * (the caller checked the rules that allow it). */
int engine__advisors_stormed_in(const engine_state *st, unsigned territory);
void engine__advisors_to_fighters(engine_state *st, unsigned bg, unsigned territory);
/* The advisors at `loc` go to the Tanks of seat `bg`. */
void engine__advisors_lost(engine_state *st, unsigned bg, unsigned loc);
/* Rules version 7: a flip of seat `bg`'s tokens to or from advisors
 * (WARTIME, TAKE UP ARMS, INTRUSION) is one use a Karama may stop (FAQ20
 * pp. 7-8). At the moment of the flip, after `act` was checked in full,
 * engine__advisors_flip_held holds it in a Karama window (1: return
 * ENGINE_ACCEPTED at once); when it is applied, engine__advisors_flip_stopped
 * says whether a Karama stopped the flip (the action stands without it)
 * and uses the cancellation up. */
int engine__advisors_flip_held(engine_state *st, const engine_action *act, unsigned bg);
int engine__advisors_flip_stopped(engine_state *st);
/* Rules version 8: INTRUSION (LR 2.02.15). `act` (a shipment, a send,
 * a site-to-site shipment, a move, a worm ride), checked in full and
 * about to bring forces of its seat into the territory of its
 * destination from outside it (the caller's test), is held in the window bg_intrusion (engine/powers_bene_gesserit.c)
 * when the Bene Gesserit have fighters there and `seat` is neither they
 * nor their ally: 1, return ENGINE_ACCEPTED at once; the window's close
 * flips the fighters (unless a Karama stopped it) and applies `act` as
 * it was. 0 while that window is resuming its own held action. */
#define ENGINE__WINDOW_INTRUSION "bg_intrusion"
int engine__advisors_intrusion_hold(engine_state *st, const engine_action *act);
/* 1 if the open window on top is bg_intrusion holding an action of
 * `seat` (not yet performed: a cancellation it retakes with still binds
 * it, engine/karama.c). */
int engine__advisors_intrusion_holds(const engine_state *st, unsigned seat);
/* The window's answer (flip 1 is held for a Karama first) and close. */
engine_verdict engine__advisors_intrusion_answer(engine_state *st, const engine_action *answer);
void engine__advisors_intrusion_close(engine_state *st, const engine_frame *f,
                                      const engine_action *answer, engine_rng *rng);

/* Index of the seat playing `faction`, or -1. */
int engine__seat_of(const engine_state *st, unsigned faction);
/* 1 if `loc` lies in storm now (sector equal to the storm's). */
int engine__in_storm(const engine_state *st, unsigned loc);

#endif
