/*
 * internal.h - what the files of engine/ share and nothing outside includes:
 * the rows of the fact tables (engine/data/), the phase handlers and the
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
 * it does not answer; ENGINE__PHASE_QUESTION marks the answer to a pending
 * Truthtrance question, legal for its target alone. */
#define ENGINE__PHASE_ANY 0xFE
#define ENGINE__PHASE_QUESTION 0xFD
/* ENGINE__PHASE_KARAMA marks the answers to an open Karama window
 * (engine/karama.c): while one is open they are the only kinds accepted,
 * from the seats it asks. */
#define ENGINE__PHASE_KARAMA 0xFC
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

/* Handlers, one file per phase. */
#define ENGINE__HANDLER(name) \
    engine_verdict name(engine_verdict_detail *, engine_state *, const engine_action *, engine_rng *)
ENGINE__HANDLER(engine__predict);
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

/* Legal families of a step for one seat, one writer per step. */
#define ENGINE__LEGAL(name) size_t name(engine_legal *, size_t, const engine_state *, uint8_t)
ENGINE__LEGAL(engine__legal_predict);
ENGINE__LEGAL(engine__legal_traitor_pick);
ENGINE__LEGAL(engine__legal_fremen_place);
ENGINE__LEGAL(engine__legal_bg_place);
ENGINE__LEGAL(engine__legal_storm_dial);
ENGINE__LEGAL(engine__legal_nexus);
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
ENGINE__LEGAL(engine__legal_question);

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
 * engine__karama_check is 1 when the window fields are consistent. */
int engine__karama_hold(engine_state *st, const engine_action *act, uint32_t offered,
                        unsigned user);
int engine__karama_cancelled(const engine_state *st, unsigned advantage);
int engine__karama_consume(engine_state *st, unsigned advantage);
void engine__karama_after(engine_state *st, const engine_action *act);
int engine__karama_check(const engine_state *st);
ENGINE__LEGAL(engine__legal_karama);

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

/* Index of the seat playing `faction`, or -1. */
int engine__seat_of(const engine_state *st, unsigned faction);
/* 1 if `loc` lies in storm now (sector equal to the storm's). */
int engine__in_storm(const engine_state *st, unsigned loc);

#endif
