/*
 * engine.h - the Dune rules engine: public interface.
 *
 * The engine is a pure fold: engine_apply(state, action, rng) either accepts
 * the action and advances the state, or rejects it with a reason and leaves
 * the state byte-identical. The state is a flat value (fixed arrays, small
 * integers, no pointers): it copies with memcpy and needs no free.
 *
 * The engine never allocates, never reads a clock, never touches a file and
 * knows nothing of storage or signatures. Its only randomness is the
 * engine_rng handed to it, derived from (room seed, version).
 */
#ifndef MENTAT_ENGINE_H
#define MENTAT_ENGINE_H

#include <stddef.h>
#include <stdint.h>

/* Bumped whenever a rule change alters what a fold produces; recorded in
 * every genesis (engine_config.rules_version) so an old room is always
 * replayed by the rules it was played under. The engine folds every
 * version from ENGINE_RULES_VERSION_MIN to ENGINE_RULES_VERSION (the
 * newest, given to new rooms); what differs between them is the table of
 * rule changes in engine/rules.c. Version 1 is folded, never created
 * (engine_rules_version_is_creatable). */
#define ENGINE_RULES_VERSION 8
#define ENGINE_RULES_VERSION_MIN 1

/* ---------------------------------------------------------------- sizes */

#define ENGINE_MAX_SEATS 6         /* seats at one table */
#define ENGINE_MIN_SEATS 2
#define ENGINE_SECTOR_COUNT 18     /* storm sectors, 0 = Storm Start Sector */
#define ENGINE_LOCATION_COUNT 87   /* 0..85 map locations, 86 the HMS */
#define ENGINE_LEADER_COUNT 62     /* every leader of the twelve factions */
#define ENGINE_TREACHERY_MAX 64    /* physical treachery cards, all sets */
#define ENGINE_SPICE_CARD_MAX 32   /* physical spice cards, all sets */
#define ENGINE_ACTION_MAX_ARGS 8
#define ENGINE_NO_SECTOR (-1)
#define ENGINE_SEAT_ENGINE 0xFF    /* the engine itself (automatic steps) */
#define ENGINE_DIGEST_BYTES 32
#define ENGINE_SEED_BYTES 32
#define ENGINE_DEFAULT_TURN_LIMIT 10
#define ENGINE_MAX_TURN_LIMIT 20

/* ------------------------------------------------------------- factions */

typedef enum engine_faction {
    ENGINE_FACTION_ATREIDES = 0,
    ENGINE_FACTION_BENE_GESSERIT,
    ENGINE_FACTION_EMPEROR,
    ENGINE_FACTION_FREMEN,
    ENGINE_FACTION_HARKONNEN,
    ENGINE_FACTION_GUILD,
    ENGINE_FACTION_IXIANS,
    ENGINE_FACTION_TLEILAXU,
    ENGINE_FACTION_CHOAM,
    ENGINE_FACTION_RICHESE,
    ENGINE_FACTION_ECAZ,
    ENGINE_FACTION_MORITANI,
    ENGINE_FACTION_COUNT,
    ENGINE_FACTION_CLASSIC_FIRST = ENGINE_FACTION_ATREIDES,
    ENGINE_FACTION_CLASSIC_LAST = ENGINE_FACTION_GUILD,
    ENGINE_FACTION_NONE = 0xFF
} engine_faction;

/* ---------------------------------------------------------- territories */

/* Numbering of DUNE_RULES_DIGEST.md section 1.2. */
typedef enum engine_territory {
    ENGINE_TERRITORY_POLAR_SINK = 0,
    ENGINE_TERRITORY_IMPERIAL_BASIN,
    ENGINE_TERRITORY_CARTHAG,
    ENGINE_TERRITORY_ARRAKEEN,
    ENGINE_TERRITORY_TUEKS_SIETCH,
    ENGINE_TERRITORY_SIETCH_TABR,
    ENGINE_TERRITORY_HABBANYA_SIETCH,
    ENGINE_TERRITORY_CIELAGO_NORTH,
    ENGINE_TERRITORY_CIELAGO_DEPRESSION,
    ENGINE_TERRITORY_MERIDIAN,
    ENGINE_TERRITORY_CIELAGO_SOUTH,
    ENGINE_TERRITORY_CIELAGO_EAST,
    ENGINE_TERRITORY_HARG_PASS,
    ENGINE_TERRITORY_FALSE_WALL_SOUTH,
    ENGINE_TERRITORY_FALSE_WALL_EAST,
    ENGINE_TERRITORY_THE_MINOR_ERG,
    ENGINE_TERRITORY_PASTY_MESA,
    ENGINE_TERRITORY_RED_CHASM,
    ENGINE_TERRITORY_SOUTH_MESA,
    ENGINE_TERRITORY_BASIN,
    ENGINE_TERRITORY_RIM_WALL_WEST,
    ENGINE_TERRITORY_HOLE_IN_THE_ROCK,
    ENGINE_TERRITORY_SIHAYA_RIDGE,
    ENGINE_TERRITORY_SHIELD_WALL,
    ENGINE_TERRITORY_GARA_KULON,
    ENGINE_TERRITORY_OLD_GAP,
    ENGINE_TERRITORY_BROKEN_LAND,
    ENGINE_TERRITORY_TSIMPO,
    ENGINE_TERRITORY_ARSUNT,
    ENGINE_TERRITORY_ROCK_OUTCROPPINGS,
    ENGINE_TERRITORY_PLASTIC_BASIN,
    ENGINE_TERRITORY_HAGGA_BASIN,
    ENGINE_TERRITORY_BIGHT_OF_THE_CLIFF,
    ENGINE_TERRITORY_FUNERAL_PLAIN,
    ENGINE_TERRITORY_THE_GREAT_FLAT,
    ENGINE_TERRITORY_WIND_PASS,
    ENGINE_TERRITORY_THE_GREATER_FLAT,
    ENGINE_TERRITORY_HABBANYA_ERG,
    ENGINE_TERRITORY_FALSE_WALL_WEST,
    ENGINE_TERRITORY_WIND_PASS_NORTH,
    ENGINE_TERRITORY_HABBANYA_RIDGE_FLAT,
    ENGINE_TERRITORY_CIELAGO_WEST,
    ENGINE_TERRITORY_HIDDEN_MOBILE_STRONGHOLD,
    ENGINE_TERRITORY_COUNT
} engine_territory;

typedef enum engine_territory_kind {
    ENGINE_TERRAIN_POLAR_SINK = 0,
    ENGINE_TERRAIN_STRONGHOLD,
    ENGINE_TERRAIN_ROCK,
    ENGINE_TERRAIN_SAND,
    ENGINE_TERRAIN_SHIELDED_SAND   /* Imperial Basin: sand behind the Shield Wall */
} engine_territory_kind;

/* ------------------------------------------------------ treachery cards */

typedef enum engine_card_kind {
    ENGINE_CARD_LASGUN = 0,
    ENGINE_CARD_CRYSKNIFE,
    ENGINE_CARD_MAULA_PISTOL,
    ENGINE_CARD_SLIP_TIP,
    ENGINE_CARD_STUNNER,
    ENGINE_CARD_CHAUMAS,
    ENGINE_CARD_CHAUMURKY,
    ENGINE_CARD_ELLACA_DRUG,
    ENGINE_CARD_GOM_JABBAR,
    ENGINE_CARD_SHIELD,
    ENGINE_CARD_SNOOPER,
    ENGINE_CARD_CHEAP_HERO,
    ENGINE_CARD_TLEILAXU_GHOLA,
    ENGINE_CARD_FAMILY_ATOMICS,
    ENGINE_CARD_WEATHER_CONTROL,
    ENGINE_CARD_HAJR,
    ENGINE_CARD_KARAMA,
    ENGINE_CARD_TRUTHTRANCE,
    ENGINE_CARD_BALISET,
    ENGINE_CARD_JUBBA_CLOAK,
    ENGINE_CARD_KULON,
    ENGINE_CARD_LA_LA_LA,
    ENGINE_CARD_TRIP_TO_GAMONT,
    ENGINE_CARD_KIND_COUNT
} engine_card_kind;

/* --------------------------------------------------------------- phases */

/* The phase machine is drawn in engine/phase.h. */
typedef enum engine_phase {
    ENGINE_PHASE_SETUP = 0,
    ENGINE_PHASE_STORM,
    ENGINE_PHASE_SPICE_BLOW,
    ENGINE_PHASE_CHOAM_CHARITY,
    ENGINE_PHASE_BIDDING,
    ENGINE_PHASE_REVIVAL,
    ENGINE_PHASE_SHIPMENT_MOVEMENT,
    ENGINE_PHASE_BATTLE,
    ENGINE_PHASE_SPICE_COLLECTION,
    ENGINE_PHASE_MENTAT_PAUSE,
    ENGINE_PHASE_GAME_OVER,
    ENGINE_PHASE_COUNT
} engine_phase;

/* ------------------------------------------------------------- verdicts */

/* Why an action was refused. A file format (stored in `rejections`, printed
 * by --json): append-only, never renumbered; a retired reason keeps its
 * number with a _RETIRED suffix. */
typedef enum engine_verdict {
    ENGINE_ACCEPTED = 0,
    ENGINE_REJECT_UNKNOWN_KIND = 1,
    ENGINE_REJECT_BAD_SEAT = 2,
    ENGINE_REJECT_WRONG_PHASE = 3,
    ENGINE_REJECT_NOT_AWAITED = 4,
    ENGINE_REJECT_ALREADY_ANSWERED = 5,
    ENGINE_REJECT_ARG_OUT_OF_RANGE = 6,
    ENGINE_REJECT_PHASE_NOT_IMPLEMENTED = 7,
    ENGINE_REJECT_GAME_OVER = 8,
    ENGINE_REJECT_RULE_NOT_IMPLEMENTED = 9,
    ENGINE_REJECT_BAD_CONFIG = 10,
    ENGINE_REJECT_PREDICT_OWN_FACTION = 11,
    ENGINE_REJECT_PREDICT_FACTION_ABSENT = 12,
    ENGINE_REJECT_PREDICT_TURN = 13,
    ENGINE_REJECT_TRAITOR_NOT_DEALT = 14,
    ENGINE_REJECT_FREMEN_PLACEMENT_TOTAL = 15,
    ENGINE_REJECT_BG_PLACEMENT_LOCATION = 16,
    ENGINE_REJECT_STORM_DIAL_RANGE = 17,
    ENGINE_REJECT_NOT_A_DIALER = 18,
    ENGINE_REJECT_ALLY_SELF = 19,
    ENGINE_REJECT_ALREADY_ALLIED = 20,
    ENGINE_REJECT_NOT_ALLIED = 21,
    ENGINE_REJECT_NO_PROPOSAL = 22,
    ENGINE_REJECT_ALREADY_PROPOSED = 23,
    ENGINE_REJECT_ALREADY_BROKE = 24,
    ENGINE_REJECT_RIDE_SOURCE = 25,
    ENGINE_REJECT_RIDE_DESTINATION = 26,
    ENGINE_REJECT_STORM_BLOCKS = 27,
    ENGINE_REJECT_OCCUPANCY_LIMIT = 28,
    ENGINE_REJECT_CHARITY_NOT_ELIGIBLE = 29,
    ENGINE_REJECT_BID_TOO_LOW = 30,
    ENGINE_REJECT_BID_OVER_LIMIT = 31,
    ENGINE_REJECT_NO_KARAMA = 32,
    ENGINE_REJECT_SUPPORT_OVER_SPICE = 33,
    ENGINE_REJECT_REVIVAL_LIMIT = 34,
    ENGINE_REJECT_REVIVAL_TANKS = 35,
    ENGINE_REJECT_CANNOT_PAY = 36,
    ENGINE_REJECT_LEADER_NOT_REVIVABLE = 37,
    ENGINE_REJECT_NO_GHOLA = 38,
    ENGINE_REJECT_NOT_EMPEROR_ALLY = 39,
    ENGINE_REJECT_FREMEN_CANNOT_SHIP = 40,
    ENGINE_REJECT_NOT_ENOUGH_FORCES = 41,
    ENGINE_REJECT_NOT_YOUR_POWER = 42,
    ENGINE_REJECT_SEND_DESTINATION = 43,
    ENGINE_REJECT_NO_PATH = 44,
    ENGINE_REJECT_NO_HAJR = 45,
    ENGINE_REJECT_NO_SUCH_BATTLE = 46,
    ENGINE_REJECT_LEADER_UNAVAILABLE = 47,
    ENGINE_REJECT_LEADER_REQUIRED = 48,
    ENGINE_REJECT_CARD_NOT_HELD = 49,
    ENGINE_REJECT_CARD_WRONG_SLOT = 50,
    ENGINE_REJECT_CARDS_WITHOUT_LEADER = 51,
    ENGINE_REJECT_DIAL_RANGE = 52,
    ENGINE_REJECT_VOICE_DISOBEYED = 53,
    ENGINE_REJECT_PRESCIENCE_MISMATCH = 54,
    ENGINE_REJECT_NOT_A_TRAITOR = 55,
    ENGINE_REJECT_CARD_NOT_KEPT = 56,
    ENGINE_REJECT_NO_CARD = 57,
    ENGINE_REJECT_ATOMICS_OUT_OF_REACH = 58,
    ENGINE_REJECT_ADVANTAGE_CANCELLED = 59,
    ENGINE_REJECT_PAYER_HOLDS_NO_CARDS = 60,
    ENGINE_REJECT_WRONG_STEP = 61,      /* the right phase, another step: detail value = the step */
    ENGINE_REJECT_MOVE_SAME_SECTOR = 62, /* a move must end in a different sector */
    ENGINE_REJECT_ALREADY_MOVED = 63,   /* the seat made its own move this turn */
    ENGINE_REJECT_NEXUS_RETURN_OWED = 64, /* a Nexus panel drew traitors: the seat returns
                                      them before anything else (detail value = how many) */
    ENGINE_VERDICT_COUNT
} engine_verdict;

/* Detail of a rejection: which argument of the action, and its value.
 * From rules version 3 on a refusal of the game's timing says what it waits
 * for: wrong_phase the phase, wrong_step the step, not_awaited the seats
 * awaited (a bit per seat, as engine_state_awaiting). */
typedef struct engine_verdict_detail {
    int8_t arg;                    /* index into engine_action.arg, -1 none */
    int32_t value;                 /* the offending value, or a limit */
} engine_verdict_detail;

/* -------------------------------------------------------------- actions */

/* Action kinds. A file format: append-only, never renumbered. Each has one
 * row in the action table (engine/action.c) naming its arguments. */
typedef enum engine_action_kind {
    ENGINE_ACTION_NONE = 0,        /* never valid */
    ENGINE_ACTION_PREDICT = 1,     /* BG: faction, turn */
    ENGINE_ACTION_TRAITOR_PICK = 2,/* any seat: leader */
    ENGINE_ACTION_FREMEN_PLACE = 3,/* Fremen: plain then Fedaykin forces in Sietch Tabr, FWS, FWW */
    ENGINE_ACTION_BG_PLACE = 4,    /* BG (Advanced): location */
    ENGINE_ACTION_STORM_DIAL = 5,  /* a dialer: value */
    ENGINE_ACTION_ALLIANCE_PROPOSE = 6, /* Nexus: faction */
    ENGINE_ACTION_ALLIANCE_ACCEPT = 7,  /* Nexus: faction that proposed */
    ENGINE_ACTION_ALLIANCE_REFUSE = 8,  /* Nexus: faction that proposed */
    ENGINE_ACTION_ALLIANCE_BREAK = 9,   /* Nexus: (none) */
    ENGINE_ACTION_NEXUS_DONE = 10,      /* Nexus: (none) */
    ENGINE_ACTION_WORM_RIDE = 11,       /* Fremen: location, forces, elite */
    ENGINE_ACTION_WORM_RIDE_PASS = 12,  /* Fremen: (none) */
    ENGINE_ACTION_CHARITY_CLAIM = 13,   /* (none) */
    ENGINE_ACTION_CHARITY_DECLINE = 14, /* (none) */
    ENGINE_ACTION_ALLY_SUPPORT = 15,    /* Bidding: spice the ally may use */
    ENGINE_ACTION_BID = 16,             /* Bidding: amount, karama (0/1) */
    ENGINE_ACTION_BID_PASS = 17,        /* Bidding: (none) */
    ENGINE_ACTION_KARAMA_TAKE = 18,     /* Bidding: take the card up free */
    ENGINE_ACTION_EMPEROR_REVIVAL = 19, /* Revival: extra ally revivals the Emperor pays, 0..3 */
    ENGINE_ACTION_REVIVE = 20,          /* Revival: forces, elite, leader (-1 none) */
    ENGINE_ACTION_GHOLA = 21,           /* at any time (side action): forces (0..5), leader (-1 none) */
    ENGINE_ACTION_SHIP = 22,            /* Shipment: location, forces, elite, karama */
    ENGINE_ACTION_FREMEN_SEND = 23,     /* Shipment: location, forces, elite */
    ENGINE_ACTION_CROSS_SHIP = 24,      /* Shipment: from, to (locations), forces, elite */
    ENGINE_ACTION_SHIP_BACK = 25,       /* Shipment: from location, forces, elite */
    ENGINE_ACTION_SHIP_PASS = 26,       /* Shipment: (none) */
    ENGINE_ACTION_BG_SEND = 27,         /* BG after another's shipment: 1 send, 0 not; to (v4) */
    ENGINE_ACTION_MOVE = 28,            /* Movement: from territory, to location, forces, elite,
                                           source location (v4) */
    ENGINE_ACTION_HAJR_MOVE = 29,       /* Movement, extra: as MOVE */
    ENGINE_ACTION_MOVE_PASS = 30,       /* Movement: (none) */
    ENGINE_ACTION_BATTLE_CHOOSE = 31,   /* Battle, aggressor: territory, opponent faction */
    ENGINE_ACTION_PRESCIENCE = 32,      /* Battle, Atreides side: element (1 leader, 2 weapon, 3 defense, 4 dial) */
    ENGINE_ACTION_PRESCIENCE_PASS = 33, /* Battle, Atreides side: (none) */
    ENGINE_ACTION_PRESCIENCE_ANSWER = 34, /* Battle, asked: value of the element */
    ENGINE_ACTION_VOICE = 35,           /* Battle, BG side: must (0/1), card class */
    ENGINE_ACTION_VOICE_PASS = 36,      /* Battle, BG side: (none) */
    ENGINE_ACTION_KARAMA_CANCEL = 37,   /* Karama window: advantage (engine_advantage) to cancel */
    ENGINE_ACTION_KARAMA_ALLOW = 38,    /* Karama window: (none) let it stand */
    ENGINE_ACTION_BATTLE_PLAN = 39,     /* Battle: leader, cheap_hero, weapon, defense, dial;
                                           Advanced (rules version 5): half, elite, elite_half */
    ENGINE_ACTION_TRAITOR_CALL = 40,    /* Battle, after the reveal: 1 call, 0 not */
    ENGINE_ACTION_KEEP_CARDS = 41,      /* Battle, winner: keep weapon (0/1), keep defense (0/1) */
    ENGINE_ACTION_WEATHER_CONTROL = 42, /* Storm, before the move: sectors 0..10 */
    ENGINE_ACTION_FAMILY_ATOMICS = 43,  /* Storm, before the move: (none) */
    ENGINE_ACTION_STORM_CARDS_PASS = 44,/* Storm, before the move: (none) */
    ENGINE_ACTION_TRUTHTRANCE = 45,     /* at any time (side action): target faction */
    ENGINE_ACTION_TRUTHTRANCE_ANSWER = 46, /* the target, while asked: 1 yes, 0 no (question asked aloud) */
    ENGINE_ACTION_SHIP_KARAMA_FROM = 47, /* Shipment: location, forces, elite, payer faction (its Karama) */
    ENGINE_ACTION_SHIP_KARAMA_ANSWER = 48, /* the payer named: 1 pays with its Karama, 0 declines */
    ENGINE_ACTION_FREMEN_PROTECT_ALLY = 49, /* Fremen, a worm about to strike their ally: 1 protect, 0 not */
    ENGINE_ACTION_FREMEN_ALLY_REVIVAL = 50, /* Fremen, Revival: 1 the ally revives 3 free, 0 not */
    ENGINE_ACTION_KARAMA_POLICY = 51,   /* side action: the advantages (bits) the seat is asked about,
                                           always (args 0, 1) or in its own battle (2, 3) */
    ENGINE_ACTION_NEXUS_DRAW = 52,      /* Nexus Cards, the draw opportunity: draw (1, replaces a
                                           held card) or decline (0); own-faction policy (secret):
                                           0 keep, 1 redraw once, 2 redraw whenever */
    ENGINE_ACTION_POWER = 53,          /* rules version 5: a power a row declares (generic):
                                          power id (engine_power_id of its slug), then up to
                                          ENGINE_POWER_MAX_ARGS arguments named by the row */
    ENGINE_ACTION_ANSWER = 54,         /* rules version 6: the answer to a window a row declares
                                          (generic): window id (engine_window_id of its slug),
                                          then up to ENGINE_POWER_MAX_ARGS arguments named by
                                          the row */
    ENGINE_ACTION_KIND_COUNT
} engine_action_kind;

/* The Basic game's Karama-able faction advantages (the ones the rules
 * mark with a star, docs/RULINGS.md "Karama"): what a KARAMA_CANCEL names.
 * A file format: append-only, never renumbered. */
typedef enum engine_advantage {
    ENGINE_ADVANTAGE_NONE = 0,
    ENGINE_ADVANTAGE_ATREIDES_CARD_PEEK = 1,     /* A1: see each card on auction */
    ENGINE_ADVANTAGE_ATREIDES_SPICE_PEEK = 2,    /* A2: see the top spice card */
    ENGINE_ADVANTAGE_ATREIDES_PRESCIENCE = 3,    /* A3: ask one element of a plan */
    ENGINE_ADVANTAGE_ATREIDES_ALLY_PRESCIENCE = 4, /* A4: the same in the ally's battle */
    ENGINE_ADVANTAGE_BG_POLAR_SINK_SEND = 5,     /* B1: one force free to the Polar Sink */
    ENGINE_ADVANTAGE_BG_VOICE = 6,               /* B2: the Voice */
    ENGINE_ADVANTAGE_BG_ALLY_VOICE = 7,          /* B3: the Voice in the ally's battle */
    ENGINE_ADVANTAGE_EMPEROR_CARD_PAYMENT = 8,   /* E1: others pay the Emperor for cards */
    ENGINE_ADVANTAGE_EMPEROR_ALLY_REVIVAL = 9,   /* E2: pay for 3 extra ally revivals */
    ENGINE_ADVANTAGE_FREMEN_MOVE = 10,           /* F1: move 2 territories */
    ENGINE_ADVANTAGE_FREMEN_WORM = 11,           /* F2: not devoured by Shai-Hulud */
    ENGINE_ADVANTAGE_FREMEN_ALLY_WORM = 12,      /* F3: the ally not devoured */
    ENGINE_ADVANTAGE_FREMEN_ALLY_REVIVAL = 13,   /* F4: the ally revives 3 free */
    ENGINE_ADVANTAGE_HARKONNEN_FREE_CARD = 14,   /* H1: a free card with each one bought */
    ENGINE_ADVANTAGE_GUILD_PAYMENT = 15,         /* G1: others pay the Guild to ship */
    ENGINE_ADVANTAGE_GUILD_CROSS_SHIP = 16,      /* G2: ship site to site */
    ENGINE_ADVANTAGE_GUILD_SHIP_BACK = 17,       /* G3: ship back to reserves */
    ENGINE_ADVANTAGE_GUILD_HALF_PRICE = 18,      /* G4: ship at half price */
    ENGINE_ADVANTAGE_GUILD_ALLY_HALF_PRICE = 19, /* G5: the ally ships at half price */
    ENGINE_ADVANTAGE_GUILD_ALLY_CROSS_SHIP = 20, /* G6: the ally ships site to site or back */
    /* The Advanced game's (rules version 7 on; FAQ20 pp. 7-8): */
    ENGINE_ADVANTAGE_ATREIDES_KH = 21,           /* the Kwisatz Haderach in one battle */
    ENGINE_ADVANTAGE_BG_CHARITY = 22,            /* the Advanced charity, holding 2 or more */
    ENGINE_ADVANTAGE_FREMEN_STORM_LOSSES = 23,   /* half losses in the storm */
    ENGINE_ADVANTAGE_BG_FLIP = 24,               /* one flip to or from advisors */
    ENGINE_ADVANTAGE_GUILD_OUT_OF_TURN = 25,     /* G7: ships and moves out of storm order */
    /* The Advanced game's, rules version 8 on (FAQ20 pp. 7-8; engine/karama_stops.c): */
    ENGINE_ADVANTAGE_EMPEROR_SARDAUKAR = 26,     /* Sardaukar worth two in one battle */
    ENGINE_ADVANTAGE_FREMEN_FEDAYKIN = 27,       /* Fedaykin worth two in one battle */
    ENGINE_ADVANTAGE_FREMEN_BATTLE_HARDENED = 28, /* full strength without spice, one battle */
    ENGINE_ADVANTAGE_FREMEN_STORM_PEEK = 29,     /* the look at the next storm card */
    ENGINE_ADVANTAGE_FREMEN_WORM_PLACEMENT = 30, /* one placement of a further worm */
    ENGINE_ADVANTAGE_HARKONNEN_CAPTURE = 31,     /* capture or kill a leader after one battle */
    ENGINE_ADVANTAGE_COUNT
} engine_advantage;
#define ENGINE_ADVANTAGE_BIT(a) ((uint32_t)1u << (a))
/* Every advantage's bit (1..COUNT-1; at most 31 fit the 32-bit masks). */
#define ENGINE_ADVANTAGE_ALL ((uint32_t)(((uint64_t)1u << ENGINE_ADVANTAGE_COUNT) - 2u))
/* The Basic game's twenty (1..20): what a seat is asked about from setup
 * and what a `karama_policy` of rules versions 3 to 6 can name. Advantages
 * appended after them (the Advanced game's) never change these. */
#define ENGINE_ADVANTAGE_BASIC_COUNT 21
#define ENGINE_ADVANTAGE_BASIC (((uint32_t)1u << ENGINE_ADVANTAGE_BASIC_COUNT) - 2u)
/* The advantages an Advanced room of rules version 7 offers (1..25): those
 * appended later are offered from the version that has them. */
#define ENGINE_ADVANTAGE_V7_COUNT 26
#define ENGINE_ADVANTAGE_V7 (((uint32_t)1u << ENGINE_ADVANTAGE_V7_COUNT) - 2u)

typedef struct engine_action {
    uint8_t kind;                  /* engine_action_kind */
    uint8_t seat;                  /* 0..n_seats-1, or ENGINE_SEAT_ENGINE */
    int16_t arg[ENGINE_ACTION_MAX_ARGS]; /* meaning per kind (action table) */
} engine_action;

/* What an argument denotes: says how it is named in text and JSON. */
typedef enum engine_arg_type {
    ENGINE_ARG_INT = 0,            /* a plain number */
    ENGINE_ARG_FACTION,            /* engine_faction */
    ENGINE_ARG_LEADER,             /* leader index */
    ENGINE_ARG_TERRITORY,          /* engine_territory */
    ENGINE_ARG_LOCATION,           /* location index */
    ENGINE_ARG_CARD,               /* physical treachery card index, -1 none */
    ENGINE_ARG_SIGNED,             /* a number that may be negative */
    ENGINE_ARG_COUNT1              /* a count n >= 0 held as n + 1, so that 0 stays "absent" for
                                      an optional argument whose presence must not depend on its
                                      value (a secret: the Advanced plan's forces by strength);
                                      JSON and text show n */
} engine_arg_type;

/* The last n_optional of a kind's arguments are optional: added by a later
 * rules version, 0 means absent (the behaviour before it), and an absent
 * one is left out of the signed bytes, the wire and the JSON, so an event
 * of an older version reads and signs exactly as it did. Under a rules
 * version before the one that added it an optional argument must be 0. */
typedef struct engine_action_spec {
    const char *name;              /* snake_case, as in JSON "kind" */
    uint8_t n_args;                /* arguments used, the rest must be 0 */
    const char *arg_name[ENGINE_ACTION_MAX_ARGS]; /* JSON field names */
    uint8_t arg_type[ENGINE_ACTION_MAX_ARGS];     /* engine_arg_type */
    uint8_t n_optional;            /* trailing arguments that may be absent (0), 0..n_args */
} engine_action_spec;

/* The arguments of `act` that are given: its kind's n_args less the
 * trailing optional ones that are 0 (absent). */
unsigned engine_action_n_given(const engine_action *act);

/* Generic actions (rules version 5 on, docs/ARCHITECTURE.md "Generic
 * actions"): a power that declares its form in its row is used with
 * ENGINE_ACTION_POWER, arg[0] its id and arg[1..n_args] the arguments
 * its form names, so a new power adds a row, not an action kind. The
 * codec, the action JSON, the log and the bots read the form. */
#define ENGINE_POWER_MAX_ARGS (ENGINE_ACTION_MAX_ARGS - 1)
typedef struct engine_power_form {
    const char *slug;              /* stable snake_case name, JSON "power"; its id is
                                      engine_power_id(slug) */
    uint8_t n_args;                /* 0..ENGINE_POWER_MAX_ARGS */
    const char *arg_name[ENGINE_POWER_MAX_ARGS]; /* JSON field names */
    uint8_t arg_type[ENGINE_POWER_MAX_ARGS];     /* engine_arg_type: how text names it */
    int16_t lo[ENGINE_POWER_MAX_ARGS], hi[ENGINE_POWER_MAX_ARGS]; /* values accepted */
    int16_t fallback[ENGINE_POWER_MAX_ARGS];     /* a bot's default (within lo..hi) */
    uint8_t secret_args;           /* bit i: argument i (arg[1 + i]) is secret */
} engine_power_form;
/* The wire id of a slug: FNV-1a folded to 1..32767 (stable forever; no two
 * rows share one, tests/engine/test_data.c). */
int16_t engine_power_id(const char *slug);
/* The form of the power with id `id` in any row of any family, or NULL. */
const engine_power_form *engine_power_form_of(int id);
/* The id of the power named `slug`, or -1 if no row declares it. */
int engine_power_from_slug(const char *slug);
/* The names and types of the arguments of an action of `kind` whose
 * arg[0] is `arg0`, for text: the action table's row, or for a power
 * whose row this build has its form's (every argument given, none
 * optional; written into *buf). The signed bytes and the wire never
 * depend on it: they read the table's row. */
const engine_action_spec *engine_action_spec_for(engine_action_spec *buf, unsigned kind,
                                                 int arg0);
/* The secret arguments of a generic action (bit i: act->arg[i]), 0 for any
 * other kind; an unknown power or window hides every argument but its id. */
uint8_t engine_generic_secret_mask(const engine_action *act);
/* Generic window answers (rules version 6 on, docs/ARCHITECTURE.md
 * "Generic window answers"): a window whose row declares its answer's
 * form (the same engine_power_form: slug, arguments, ranges, secret ones,
 * a bot's default) is answered with ENGINE_ACTION_ANSWER, arg[0] the
 * window's id (engine_window_id of its slug, FNV-1a as engine_power_id,
 * its own name space) and arg[1..n_args] the arguments its form names. */
int16_t engine_window_id(const char *slug);
/* The answer form of the window with id `id` in any row, or NULL. */
const engine_power_form *engine_window_form_of(int id);
/* The id of the window named `slug`, or -1 if no row declares it. */
int engine_window_from_slug(const char *slug);
/* The form a generic action of `kind` with arg[0] `id` reads: a power's
 * (ENGINE_ACTION_POWER), a window's (ENGINE_ACTION_ANSWER), NULL for any
 * other kind or an id no row declares. */
const engine_power_form *engine_generic_form(unsigned kind, int id);
/* 1 if `kind` is a generic kind (its arguments named by a row's form). */
int engine_action_is_generic(unsigned kind);
/* The id of a generic action's row named `slug` (engine_power_from_slug
 * or engine_window_from_slug by kind), -1 for none. */
int engine_generic_from_slug(unsigned kind, const char *slug);

/* The row of a kind, or NULL for an unknown kind. Static storage. */
const engine_action_spec *engine_action_spec_of(unsigned kind);
/* The kind named `name`, or ENGINE_ACTION_NONE. */
engine_action_kind engine_action_kind_from_name(const char *name);
/* Bit i set: argument i of an action of `kind` is secret, known to the
 * acting seat (and the auditor) when submitted and to no other seat until
 * a rule reveals it (engine/secret.c: the core rules' table and the power
 * rows' secret_args). 0xFF for an unknown kind: nothing of it is shown. */
uint8_t engine_action_secret_mask(unsigned kind);
/* The same for one action: a generic `power` by its row's form
 * (engine_generic_secret_mask), any other kind by its kind. */
uint8_t engine_action_secret_args(const engine_action *act);

/* ------------------------------------------------------- configuration */

#define ENGINE_MODULE_NONE 0u      /* optional modules: bit mask */
#define ENGINE_MODULE_NEXUS_CARDS 0x01u /* the Nexus Cards (rules version 5 on, 3..6 seats) */
#define ENGINE_NEXUS_MIN_SEATS 3   /* with 2 nobody is unallied while an alliance exists */

typedef struct engine_config {
    uint8_t n_seats;               /* 2..6 */
    uint8_t faction[ENGINE_MAX_SEATS]; /* engine_faction per seat */
    uint8_t is_advanced;           /* 1 = Advanced rules */
    uint8_t turn_limit;            /* 1..ENGINE_MAX_TURN_LIMIT, default 10 */
    uint32_t modules;              /* ENGINE_MODULE_* bits */
    uint8_t is_constructed;        /* 1 = a scenario position, never a genuine room */
    uint16_t rules_version;        /* ENGINE_RULES_VERSION_MIN..ENGINE_RULES_VERSION */
} engine_config;

/* Fills the defaults: no seats, Basic rules, 10 turns, no modules, the
 * newest rules version. */
void engine_config_init(engine_config *cfg);

/* 1 if this build folds rules version `version` (a genesis's). */
int engine_rules_version_is_folded(unsigned version);
/* 1 if a new room may be created under `version`: a folded one from 2 on
 * (version 1's rooms replay, none is made). */
int engine_rules_version_is_creatable(unsigned version);

/* ------------------------------------------------------------------ rng */

/* A deterministic stream keyed by (room seed, version): ChaCha20 keyed with
 * BLAKE2b-256(seed || version). Never reseeded, never read twice. */
typedef struct engine_rng {
    uint8_t key[32];               /* derived stream key */
    uint64_t block;                /* next ChaCha20 block counter */
    uint8_t buf[64];               /* current keystream block */
    uint8_t pos;                   /* bytes of buf consumed, 64 = empty */
} engine_rng;

void engine_rng_init(engine_rng *rng, const uint8_t seed[ENGINE_SEED_BYTES],
                     uint32_t version);
/* A uniform integer in [0, n), n >= 1, without modulo bias. */
uint32_t engine_rng_uniform(engine_rng *rng, uint32_t n);

/* ---------------------------------------------------------------- state */

/* Where a physical component is. One place each, always (state check). */
typedef enum engine_place {
    ENGINE_PLACE_OUT = 0,          /* not part of this game */
    ENGINE_PLACE_DECK,             /* in its deck, at deck[] position */
    ENGINE_PLACE_DISCARD,          /* in its discard pile */
    ENGINE_PLACE_HAND,             /* held by `holder` */
    ENGINE_PLACE_DEALT,            /* traitors: dealt to `holder`, not yet chosen */
    ENGINE_PLACE_POOL,             /* leaders: in the owner's leader pool */
    ENGINE_PLACE_TANKS,            /* leaders: in the Tleilaxu Tanks */
    ENGINE_PLACE_SET_ASIDE,        /* spice: worms set aside on turn 1 */
    ENGINE_PLACE_AUCTION,          /* treachery: drawn for this Bidding phase */
    ENGINE_PLACE_REMOVED,          /* removed from the game (Family Atomics) */
    ENGINE_PLACE_PLAYED,           /* treachery: in a battle plan being fought */
    ENGINE_PLACE_HIDDEN            /* in a view: where it is, the viewer does not know */
} engine_place;

/* known_by: bit s set when seat s knows the component's identity;
 * ENGINE_KNOWN_PUBLIC set when it was shown face up to the table, which is
 * not the same as every seat knowing it (with two seats, a card both have
 * seen privately is still hidden from spectators). */
#define ENGINE_KNOWN_PUBLIC 0x8000u

typedef struct engine_card_state {
    uint8_t place;                 /* engine_place */
    uint8_t holder;                /* seat if HAND/DEALT, else 0xFF */
    uint16_t known_by;             /* seats that know its identity, | ENGINE_KNOWN_PUBLIC */
} engine_card_state;

typedef struct engine_leader_state {
    uint8_t place;                 /* engine_place: OUT, POOL or TANKS */
    uint8_t deaths;                /* times killed, 0..255 */
} engine_leader_state;

typedef struct engine_seat_state {
    uint8_t faction;               /* engine_faction */
    uint8_t position;              /* player marker sector, 0..17 */
    uint16_t spice;                /* spice behind the shield */
    uint8_t reserves;              /* forces off-planet */
    uint8_t special_reserves;      /* Sardaukar / Fedaykin off-planet */
    uint8_t tanks;                 /* forces in the Tleilaxu Tanks */
    uint8_t special_tanks;
    uint8_t storm_dial;            /* secret dial this storm (known to this seat), 0xFF none */
} engine_seat_state;

/* Nexus Cards: one card per faction, all twelve in every game with the
 * module, card number i printed with the faction nexus_face[i]. */
#define ENGINE_NEXUS_CARD_COUNT 12

/* How a held Nexus card is played, by native roster identity (E3 p.11). */
typedef enum engine_nexus_mode {
    ENGINE_NEXUS_CUNNING = 0,      /* the holder is that faction */
    ENGINE_NEXUS_BETRAYAL,         /* another seated player is that faction */
    ENGINE_NEXUS_SECRET_ALLY,      /* that faction is not in the game */
    ENGINE_NEXUS_MODE_COUNT
} engine_nexus_mode;

/* The own-faction policy of a draw: what the engine does, inside the same
 * fold, when the seat draws its own faction's card (E3 p.11). */
typedef enum engine_nexus_policy {
    ENGINE_NEXUS_KEEP = 0,         /* keep whatever card comes */
    ENGINE_NEXUS_REDRAW_ONCE,      /* discard its own card and draw again, once */
    ENGINE_NEXUS_REDRAW_ALWAYS,    /* ... each time its own card comes */
    ENGINE_NEXUS_POLICY_COUNT
} engine_nexus_policy;

/* The points at which the neutral Nexus window (rules version 7 on,
 * engine/nexus_window.c) asks every publicly possible holder of a panel
 * that answers there; a seat's standing policy (engine_state.nexus_quiet)
 * is a mask of them. */
typedef enum engine_nexus_point {
    ENGINE_NEXUS_AT_VOICE = 0,     /* a Voice cast (panel 4, the Bene Gesserit Betrayal) */
    ENGINE_NEXUS_AT_PRESCIENCE,    /* a prescience question (panel 1, the Atreides Betrayal) */
    ENGINE_NEXUS_AT_TRAITOR,       /* a traitor called (panel 13, the Harkonnen Betrayal) */
    /* rules version 8 on: a seat's own moments (engine/nexus_moment.c),
     * asking every publicly possible holder whose moment it is */
    ENGINE_NEXUS_AT_WORM,          /* a worm about to strike its forces (panel 12a, the Fremen
                                      Secret Ally) */
    ENGINE_NEXUS_AT_MENTAT_PAUSE,  /* the Mentat Pause (panel 15, the Harkonnen Secret Ally) */
    ENGINE_NEXUS_AT_LOT_WON,       /* a lot it won, before it pays (panel 9a, the Emperor
                                      Secret Ally) */
    ENGINE_NEXUS_AT_ALLY_PURCHASE, /* a lot the Emperor's ally won, before it pays: every seat
                                      but the Emperor's moment (panel 7a, the Emperor
                                      Betrayal) */
    ENGINE_NEXUS_POINT_COUNT
} engine_nexus_point;
#define ENGINE_NEXUS_POINTS_ALL ((1u << ENGINE_NEXUS_POINT_COUNT) - 1u)
/* The points of rules version 7 (the neutral window's only). */
#define ENGINE_NEXUS_POINTS_V7 ((1u << ENGINE_NEXUS_AT_WORM) - 1u)

/* A battle plan (LR 1.07.04): card numbers, -1 for none. */
typedef struct engine_battle_plan {
    int8_t leader;                 /* leader index, -1 none */
    int8_t cheap_hero;             /* card number of a Cheap Hero played as leader, -1 none */
    int8_t weapon;                 /* card number, -1 none */
    int8_t defense;                /* card number, -1 none */
    uint8_t dial;                  /* forces dialled; Advanced: plain forces at full strength,
                                      each supported by 1 spice (LR 1.13.04) */
    uint8_t is_committed;          /* 1 once submitted */
    uint8_t half;                  /* Advanced: plain forces at half strength, unsupported */
    uint8_t elite;                 /* Advanced: elite forces at full strength, supported */
    uint8_t elite_half;            /* Advanced: elite forces at half strength */
    uint8_t kwisatz_haderach;      /* Advanced, rules version 6 on: ENGINE_KH_* the seat
                                      declared for this battle (LR 2.01.11), secret with
                                      the plan */
} engine_battle_plan;

/* engine_battle_plan.kwisatz_haderach: whether the Kwisatz Haderach
 * accompanies the plan's leader or Cheap Hero. */
enum { ENGINE_KH_UNDECLARED = 0, ENGINE_KH_WITHOUT = 1, ENGINE_KH_WITH = 2 };

/* engine_state.kh_state: the Kwisatz Haderach's token. */
enum { ENGINE_KH_ALIVE = 0, ENGINE_KH_DEAD = 1, ENGINE_KH_REVIVED = 2 /* alive, revived this
                                                                        Revival */ };
#define ENGINE_KH_AWAKENING_LOSSES 7 /* forces lost in battles that awaken it (LR 2.01.10) */

/* engine_state.guild_turn: the Guild's turn in Shipment and Movement
 * (Advanced, LR 2.06.12). ACTING: it takes its turn now, out of storm
 * order; DONE: it has had its turn this phase; IN_ORDER: a Karama stopped
 * it acting out of order, it takes its turn at its storm-order place. */
enum { ENGINE_GUILD_TURN_ACTING = 1, ENGINE_GUILD_TURN_DONE = 2, ENGINE_GUILD_TURN_IN_ORDER = 4 };

/* Card classes the Voice may name (LR 2.02.06). */
typedef enum engine_voice_class {
    ENGINE_VOICE_NONE = 0,
    ENGINE_VOICE_POISON_WEAPON,
    ENGINE_VOICE_PROJECTILE_WEAPON,
    ENGINE_VOICE_POISON_DEFENSE,
    ENGINE_VOICE_PROJECTILE_DEFENSE,
    ENGINE_VOICE_WORTHLESS,
    ENGINE_VOICE_CHEAP_HERO,
    ENGINE_VOICE_LASGUN,
    ENGINE_VOICE_CLASS_COUNT
} engine_voice_class;

typedef enum engine_victory_kind {
    ENGINE_VICTORY_NONE = 0,
    ENGINE_VICTORY_STRONGHOLDS,    /* 3 strongholds alone, 4 allied */
    ENGINE_VICTORY_PREDICTION,     /* the Bene Gesserit prediction came true */
    ENGINE_VICTORY_FREMEN,         /* Fremen special victory at the end of the last turn */
    ENGINE_VICTORY_GUILD,          /* Guild default victory */
    ENGINE_VICTORY_DEFAULT_FREMEN, /* no Guild: the Fremen's default */
    ENGINE_VICTORY_MOST_STRONGHOLDS /* neither: most strongholds */
} engine_victory_kind;

/* ------------------------------------------------------------ windows */

/* The points at which a window opens and asks seats to answer (one row
 * each in engine/frame.c: the answers it admits, their families, the
 * function that resumes when it closes). Append only. */
typedef enum engine_window_point {
    ENGINE_WINDOW_NONE = 0,
    ENGINE_WINDOW_TRUTHTRANCE,      /* a Truthtrance question: its target answers yes or no */
    ENGINE_WINDOW_KARAMA,           /* an advantage used: the seats asked may cancel it */
    ENGINE_WINDOW_SHIP_PAYER,       /* a shipment held for another seat's Karama: it pays or not */
    ENGINE_WINDOW_BG_SEND,          /* another seat shipped: the Bene Gesserit send or not */
    ENGINE_WINDOW_VOICE,            /* a battle starts: the Bene Gesserit may use the Voice */
    ENGINE_WINDOW_PRESCIENCE,       /* then the Atreides may ask one element of a plan */
    ENGINE_WINDOW_PRESCIENCE_ANSWER, /* the seat asked answers (held: the question) */
    ENGINE_WINDOW_WORM_ALLY,        /* a worm about to strike the Fremen's ally: the Fremen
                                      spare it or not (LR 2.04.10) */
    ENGINE_WINDOW_ALLY_REVIVAL,     /* Revival starts: the Emperor offers its ally paid
                                      revivals, the Fremen give theirs 3 free or not
                                      (LR 2.03.07, 2.04.11) */
    ENGINE_WINDOW_GENERIC,          /* a window a row declares (rules version 6 on): the frame's
                                      `window` names the row; answered with ENGINE_ACTION_ANSWER */
    ENGINE_WINDOW_COUNT
} engine_window_point;

/* One window: what opened it, the attempt it holds, the seats it asks. */
typedef struct engine_frame {
    uint8_t point;                 /* engine_window_point that opened it */
    uint8_t owner;                 /* seat whose question, advantage or shipment it is */
    uint8_t user;                  /* KARAMA: the seat using the advantage (owner or its
                                      ally); SHIP_PAYER: the payer; TRUTHTRANCE: the owner;
                                      BG_SEND: the Bene Gesserit (owner: the shipper);
                                      VOICE, PRESCIENCE: the seat asked; PRESCIENCE_ANSWER:
                                      the seat that asked (owner: the Atreides); WORM_ALLY:
                                      the ally (owner: the Fremen); ALLY_REVIVAL: the
                                      lowest seat asked (owner too) */
    uint8_t is_resuming;           /* 1 only inside the fold resuming its held attempt */
    uint32_t rows;                 /* KARAMA: ENGINE_ADVANTAGE_BIT of each advantage offered */
    engine_action held;            /* the attempt held; kind NONE: an automatic step (KARAMA)
                                      or nothing (TRUTHTRANCE) */
    uint16_t asked;                /* seats the window asks, bit per seat */
    uint16_t answered;             /* of those, seats that have answered */
    uint16_t window;               /* GENERIC: the window's id (engine_window_id of its row's
                                      slug); 0 for every other point */
} engine_frame;
#define ENGINE_FRAME_MAX 4

/* An effect that outlasts its window, whoever holds which card. */
typedef enum engine_effect_kind {
    ENGINE_EFFECT_NONE = 0,
    ENGINE_EFFECT_CANCELLED,       /* source: an advantage a Karama cancelled; owner: the
                                      seat that must retake its action without it */
    ENGINE_EFFECT_ANSWER,          /* the last Truthtrance question: owner its asker (0xFF
                                      none), value its answer (0 no, 1 yes, 0xFF none) */
    ENGINE_EFFECT_VOICE,           /* the Voice on the battle being fought: source the
                                      advantage used, owner the seat bound, value the
                                      engine_voice_class, arg 1 must, 0 must not */
    ENGINE_EFFECT_PRESCIENCE,      /* a prescience answer: source the advantage used, owner
                                      the seat bound, value the engine_prescience_element,
                                      arg the answer */
    /* Nexus Cards (engine/nexus*.c; rules version 6 on, encoded in the
     * module's block): */
    ENGINE_EFFECT_NEXUS_RETURN,    /* a panel drew traitors and the seat must shuffle some
                                      back: source the card's faction, owner the seat, value
                                      how many it still owes */
    ENGINE_EFFECT_NEXUS_ANSWER,    /* the Ecaz Secret Ally's question: source the card's
                                      faction, owner the asker, value the seat asked, arg 2
                                      holds a leader of the asker's as a traitor, 1 holds
                                      none, 0 hidden (a view tells it to those two only) */
    ENGINE_EFFECT_NEXUS_REVIVED,   /* forces a panel revived that count among the seat's
                                      revivals this turn (Fremen Secret Ally): source the
                                      card's faction, owner the seat, value how many;
                                      expires with the Revival phase */
    ENGINE_EFFECT_NEXUS_BANNED,    /* a Betrayal took a faction's power for a while (the
                                      Fremen's worm ride, their two-territory move): source
                                      the card's faction, owner the seat whose rows at the
                                      point `value` (engine__point) are set aside */
    ENGINE_EFFECT_NEXUS_TRAITOR_OWED, /* rules version 7: a traitor a Betrayal cancelled went
                                      back to the deck; owner draws `value` replacements in
                                      the Mentat Pause (source the card's faction) */
    ENGINE_EFFECT_NEXUS_SHIPMENT,  /* the Guild Cunning's second shipment (rules version 7
                                      on): source the card's faction, owner the seat, value
                                      1 owed after its turn, 2 being made; expires with the
                                      Shipment and Movement phase */
    ENGINE_EFFECT_NEXUS_RIDE,      /* the Fremen Cunning's ride (rules version 7 on): source
                                      the card's faction, owner the seat, value the desert
                                      territory its group rides from, arg the territory of
                                      the worm it rides; expires with the phase */
    ENGINE_EFFECT_NEXUS_PRESCIENCE, /* the Atreides Cunning's second element (rules version 7
                                      on): source the card's faction, owner the Atreides
                                      seat, value the engine_prescience_element, arg the
                                      value in the other side's plan (as a prescience
                                      answer; a view tells it to those two only); expires
                                      with the battle */
    ENGINE_EFFECT_NEXUS_SPARED,    /* the Fremen Secret Ally's (a) (rules version 8 on): source
                                      the card's faction, owner the seat whose forces the worm
                                      striking territory `value` does not devour; used up by
                                      that worm, expires with the phase */
    ENGINE_EFFECT_NEXUS_PAYMENT,   /* who pays for the lot being sold (rules version 8 on):
                                      source the card's faction, owner the buyer, value 1
                                      nobody (the Emperor Secret Ally's a), 2 the Emperor
                                      (the Emperor Betrayal's a); used up by the payment,
                                      expires with the phase */
    ENGINE_EFFECT_NEXUS_ELITE,     /* the Emperor Cunning (rules version 8 on, Advanced):
                                      source the card's faction, owner the seat, value how
                                      many of its ordinary forces count as Sardaukar in the
                                      battle being fought; expires with the battle */
    ENGINE_EFFECT_NEXUS_VOICE,     /* the Bene Gesserit Secret Ally's Voice (rules version 8
                                      on): source the card's faction, owner the seat bound,
                                      value the engine_voice_class, arg 1 must, 0 must not;
                                      expires with the battle */
    ENGINE_EFFECT_KIND_COUNT,
    ENGINE_EFFECT_NEXUS_FIRST = ENGINE_EFFECT_NEXUS_RETURN
} engine_effect_kind;

/* When an effect ends at the latest (it may be used up before). */
typedef enum engine_expiry {
    ENGINE_EXPIRY_STEP = 0,        /* the end of the step */
    ENGINE_EXPIRY_PHASE,           /* the end of the phase */
    ENGINE_EXPIRY_TURN,            /* the end of the turn */
    ENGINE_EXPIRY_MENTAT_PAUSE,    /* the next Mentat Pause */
    ENGINE_EXPIRY_REPLACED,        /* when the next effect of its kind replaces it */
    ENGINE_EXPIRY_BATTLE           /* the end of the battle being fought (it binds the
                                      plans until they are revealed) */
} engine_expiry;

typedef struct engine_effect {
    uint8_t kind;                  /* engine_effect_kind */
    uint8_t source;                /* the advantage or card it comes from */
    uint8_t owner;                 /* the seat it binds or serves, 0xFF none */
    uint8_t value;                 /* the kind's own fact, 0xFF none */
    uint8_t expiry;                /* engine_expiry */
    int16_t arg;                   /* the kind's second fact, 0 none */
} engine_effect;
#define ENGINE_EFFECT_MAX 8

typedef struct engine_state {
    uint8_t viewer;                /* ENGINE_SEAT_ENGINE for the game itself; in a
                                      view, the seat or ENGINE_VIEW_PUBLIC it is for */
    engine_config config;          /* the rules this game is played by */
    /* phase machine (engine/phase.h) */
    uint8_t phase;                 /* engine_phase */
    uint8_t step;                  /* phase-specific step */
    uint8_t turn;                  /* 1..turn_limit; 0 during setup */
    uint16_t awaiting;             /* seats whose decision the game waits on */
    uint16_t answered;             /* of those, seats that have answered */
    /* the storm */
    uint8_t storm_sector;          /* 0..17 */
    uint8_t last_storm_move;       /* sectors the storm last moved, public */
    uint8_t next_storm;            /* Advanced storm deck: next move 1..6 known to Fremen, 0 none */
    uint8_t last_wheel[2];         /* seats that last used battle wheels, 0xFF none */
    uint8_t is_shield_wall_down;   /* 1 after Family Atomics */
    uint32_t karama_ask[ENGINE_MAX_SEATS]; /* rules version 3 on, public: a seat's standing
                                      policy, ENGINE_ADVANTAGE_BIT of each advantage whose
                                      Karama window asks it (engine/karama.c); all at setup */
    uint32_t karama_ask_own[ENGINE_MAX_SEATS]; /* the same, asked only when used against
                                      the seat in its own battle (Voice, prescience) */
    uint16_t karama_policy_set;    /* seats that set their policy this turn (once a turn) */
    uint8_t fremen_gifts;          /* rules version 3 on, public: the Fremen's choices for
                                      their ally, ENGINE_GIFT_* bits */
    uint8_t storm_pending;         /* rules version 3 on: the move the dials or the storm
                                      deck calculated, public, while the storm cards are
                                      asked; 0 none */
    /* the board */
    uint8_t forces[ENGINE_LOCATION_COUNT][ENGINE_MAX_SEATS];  /* per seat */
    uint8_t special[ENGINE_LOCATION_COUNT][ENGINE_MAX_SEATS]; /* elite forces */
    uint8_t advisors[ENGINE_LOCATION_COUNT]; /* BG forces as advisors (Adv) */
    uint8_t spice[ENGINE_LOCATION_COUNT];    /* spice tokens on the board */
    engine_seat_state seat[ENGINE_MAX_SEATS];
    /* alliances: public */
    uint8_t ally[ENGINE_MAX_SEATS];     /* ally seat, 0xFF none */
    /* Spice Blow and Nexus */
    uint8_t worm_territory;        /* territory the last worm struck, ENGINE_TERRITORY_COUNT none */
    uint8_t is_nexus_this_phase;   /* 1 = a Nexus occurred in this phase (for Nexus cards) */
    uint16_t nexus_proposals[ENGINE_MAX_SEATS]; /* bit t: seat proposed to t this Nexus */
    uint16_t nexus_broken;         /* seats that broke an alliance this Nexus */
    uint16_t nexus_refused[ENGINE_MAX_SEATS]; /* bit t: seat's proposal to t was refused */
    /* Bidding */
    uint8_t n_auction;             /* cards drawn for this Bidding phase */
    uint8_t auction[ENGINE_MAX_SEATS]; /* card numbers in auction order */
    uint8_t auction_index;         /* auction[auction_index] is up */
    uint8_t bid_opener;            /* seat that opened bidding on the card up */
    uint8_t bid_turn;              /* seat whose turn it is to bid */
    uint8_t high_bidder;           /* 0xFF none */
    uint8_t high_bid_karama;       /* Karama card set aside for the high bid, 0xFF none */
    uint16_t high_bid;             /* spice */
    uint16_t bid_passes;           /* seats that passed since the last bid */
    uint16_t ally_support[ENGINE_MAX_SEATS]; /* spice a seat lets its ally bid with */
    /* Revival */
    uint8_t emperor_ally_revivals; /* extra ally revivals the Emperor pays for, 0..3 */
    uint8_t elite_revival_turn[ENGINE_MAX_SEATS]; /* Advanced, rules version 6 on, public: the
                                      turn a seat last revived an elite force, 0 none */
    /* Shipment and Movement */
    uint8_t ship_index;            /* index in storm order of the seat whose turn it is */
    uint8_t has_moved;             /* 1 once the seat in turn made its own move and may
                                      still play Hajr (rules version 3 on), else 0 */
    /* Battle (engine/phase_battle.c) */
    uint8_t battle_territory;      /* territory of the battle being fought, ENGINE_TERRITORY_COUNT none */
    uint8_t battle_seat[2];        /* aggressor, defender */
    uint8_t aggressor_index;       /* index in storm order of the current aggressor */
    engine_battle_plan plan[2];    /* aggressor's, defender's: secret until both are in */
    /* The Voice and a prescience answer are effect records, the questions
     * frames (below; engine_voice_class, engine_prescience_element). */
    uint8_t traitor_called;        /* bit 0 aggressor's side called, bit 1 defender's */
    uint8_t battle_winner;         /* 0 or 1 (side), 0xFF none yet */
    uint8_t leader_territory[ENGINE_LEADER_COUNT]; /* where it fought this phase, 0xFF none */
    /* The Kwisatz Haderach (Advanced, rules version 6 on; public;
     * engine/kwisatz_haderach.c): all zero, and never encoded, elsewhere. */
    uint8_t kh_losses;             /* its owner's forces lost in battles, 0..255 (saturates);
                                      awake from ENGINE_KH_AWAKENING_LOSSES on */
    uint8_t kh_state;              /* ENGINE_KH_ALIVE, _DEAD, _REVIVED */
    uint8_t kh_territory;          /* territory + 1 of the battles it joined this turn, 0 none */
    /* Windows (engine/frame.c): public. While n_frames is not 0 the game
     * waits on the top frame's asked seats that have not answered, and
     * phase, step, awaiting and answered (the step's) stay untouched. */
    engine_frame frame[ENGINE_FRAME_MAX]; /* frame[n_frames-1] on top */
    uint8_t n_frames;
    /* Advanced, rules version 7 on, public (engine/phase_storm.c): in the
     * storm's step LOSSES, the location whose Fremen tokens the storm
     * takes, the Fremen choosing which (LR 2.04.16); 0 otherwise. */
    uint8_t storm_loss_at;
    /* Effects that outlast their window (engine/frame.c): public. */
    engine_effect effect[ENGINE_EFFECT_MAX]; /* effect[0..n_effects) */
    uint8_t n_effects;
    /* The Guild's turn in Shipment and Movement (engine/phase_shipment.c;
     * Advanced, rules version 7 on, public): ENGINE_GUILD_TURN_* bits,
     * LR 2.06.12; 0 outside the phase and in every other room. */
    uint8_t guild_turn;
    /* A shipment paid with another seat's Karama (engine/phase_shipment.c) */
    uint16_t karama_ship_named;    /* seats the shipper has named this shipment turn */
    /* Advanced, rules version 6 on (engine/advisors.c): 1 + the location of
     * the off-planet shipment the open BG_SEND window follows, where the
     * Bene Gesserit may send an advisor (LR 2.02.11); 0 none */
    uint8_t bg_accompany;
    /* Storm cards and the game's end */
    uint8_t weather_control;       /* sectors set by Weather Control this storm, 0xFF none */
    uint16_t winners;              /* seats that won (GAME_OVER) */
    uint8_t victory_kind;          /* engine_victory_kind */
    /* Bene Gesserit prediction: secret, known to BG only */
    uint8_t prediction_faction;    /* engine_faction or NONE */
    uint8_t prediction_turn;       /* 0 = not made */
    /* treachery cards */
    uint8_t n_cards;               /* physical cards in this game */
    uint8_t card_kind[ENGINE_TREACHERY_MAX];   /* engine_card_kind per card */
    engine_card_state card[ENGINE_TREACHERY_MAX];
    uint8_t n_deck;                /* treachery deck, deck[n_deck-1] on top */
    uint8_t deck[ENGINE_TREACHERY_MAX];
    uint8_t n_discard;
    uint8_t discard[ENGINE_TREACHERY_MAX];     /* discard[n_discard-1] on top */
    /* traitor cards: one per leader, indexed by leader */
    engine_card_state traitor[ENGINE_LEADER_COUNT];
    uint8_t n_traitor_deck;
    uint8_t traitor_deck[ENGINE_LEADER_COUNT];
    engine_leader_state leader[ENGINE_LEADER_COUNT];
    /* spice deck */
    uint8_t n_spice_cards;         /* physical spice cards in this game */
    engine_card_state spice_card[ENGINE_SPICE_CARD_MAX];
    uint8_t n_spice_deck;
    uint8_t spice_deck[ENGINE_SPICE_CARD_MAX]; /* top is last */
    uint8_t n_spice_discard;
    uint8_t spice_discard[ENGINE_SPICE_CARD_MAX]; /* pile A in the Advanced game */
    /* The Advanced double blow (rules version 6 on, engine/phase_spice_blow.c):
     * all zero, and never encoded, unless the room plays the Advanced game. */
    uint8_t n_spice_discard_b;
    uint8_t spice_discard_b[ENGINE_SPICE_CARD_MAX]; /* pile B, top is last, public */
    uint8_t blow_pile;             /* the pile being revealed: 0 A, 1 B, public */
    uint8_t pile_worms;            /* worms revealed on it in this phase after turn 1, public */
    uint8_t karama_plan_seen;      /* Advanced, rules version 8 on, public: the Atreides'
                                      Karama look at a plan this battle (engine/karama_plan.c):
                                      low 4 bits the seat seen + 1, high 4 the seer + 1; 0
                                      none, and never encoded, elsewhere */
    uint8_t capture_leader;        /* Advanced, rules version 8 on, public (engine/capture.c):
                                      at the Battle's step CAPTURE, 1 + the leader drawn, else
                                      0; 0, and never encoded, elsewhere (it fills the
                                      double blow's padding, as karama_power_used does) */
    /* (the double blow's fields go on below: these fill their padding) */
    uint16_t karama_power_used;    /* Advanced, rules version 7 on, public: seats that used
                                      their faction's Karama power (LR 1.14.00, once a game);
                                      0, and never encoded, elsewhere */
    uint64_t worms_struck;         /* bit t: territory t devoured from this pile, its ride
                                      still to come after the Nexus, public */
    uint64_t captives;             /* Advanced, rules version 8 on, public (engine/capture.c):
                                      bit l, leader l is held in the Harkonnen's pool, taken
                                      from its own faction (LR 2.05.10.01); 0, and never
                                      encoded, elsewhere */
    /* spice accounting: sum of seats and board == minted - burned */
    uint32_t spice_minted;         /* spice ever taken from the bank */
    uint32_t spice_burned;         /* spice ever returned to the bank */
    /* Advanced, rules version 8 on, public (engine/karama_stops.c): the
     * advantages (ENGINE_ADVANTAGE_BIT) a Karama stopped beyond one use:
     * the Sardaukar's and Fedaykin's worth and BATTLE HARDENED until the
     * battle being fought ends, the look at the next storm card until the
     * next Storm phase; 0, and never encoded, elsewhere. */
    uint32_t karama_stopped;
    /* Nexus Cards (engine/nexus.c): all zero, and never encoded, unless the
     * room carries ENGINE_MODULE_NEXUS_CARDS. Card numbers carry no identity
     * (faces are dealt to numbers at random at setup and at every reshuffle). */
    uint8_t nexus_face[ENGINE_NEXUS_CARD_COUNT];  /* engine_faction printed on each card
                                      number; ENGINE_UNKNOWN in a view that
                                      does not know it */
    engine_card_state nexus_card[ENGINE_NEXUS_CARD_COUNT]; /* DECK, DISCARD or HAND
                                      (at most one a seat); known_by its holders, and
                                      ENGINE_KNOWN_PUBLIC once played */
    uint8_t n_nexus_deck;          /* Nexus deck, nexus_deck[n_nexus_deck-1] on top */
    uint8_t nexus_deck[ENGINE_NEXUS_CARD_COUNT];
    uint8_t n_nexus_discard;
    uint8_t nexus_discard[ENGINE_NEXUS_CARD_COUNT]; /* nexus_discard[n-1] on top */
    uint16_t nexus_drawing;        /* the draw opportunity (BLOW_STEP_NEXUS_DRAW), public:
                                      seats that answered draw */
    uint8_t nexus_policy[ENGINE_MAX_SEATS]; /* the same, secret (its seat's): the own-faction
                                      policy a seat answered, ENGINE_NEXUS_KEEP.. */
    /* The neutral Nexus window (engine/nexus_window.c, rules version 7 on),
     * public: */
    uint8_t nexus_quiet[ENGINE_MAX_SEATS]; /* a seat's standing policy: bit i set = not
                                      asked at Nexus point i (engine_nexus_point); 0 = asked
                                      at every point, the default */
    uint8_t nexus_quiet_turn[ENGINE_MAX_SEATS]; /* the turn a seat last set it (once a
                                      turn), 0 = never */
    uint16_t nexus_played;         /* seats whose answer to the open Nexus window plays a
                                      panel (the first in storm order applies at its close) */
} engine_state;

/* engine_state.fremen_gifts: what the Fremen granted their ally (LR
 * 2.04.10-11), from rules version 3 on; under version 2 both are automatic. */
#define ENGINE_GIFT_WORM 0x01u     /* the ally is protected from the worm about to strike */
#define ENGINE_GIFT_REVIVAL 0x02u  /* the ally revives 3 forces free this Revival */

/* ---------------------------------------------------------- operations */

/* Validates `cfg` and deals the opening position (version 0) with `rng`.
 * ENGINE_REJECT_BAD_CONFIG (detail says which field) or
 * ENGINE_REJECT_RULE_NOT_IMPLEMENTED for an unbuilt faction or module. */
engine_verdict engine_setup(engine_verdict_detail *why_out, engine_state *out,
                            const engine_config *cfg, engine_rng *rng);

/* Applies `act`. Accepted: the state advances, automatic steps included.
 * Rejected: `st` is unchanged, byte for byte. why_out may be NULL. */
engine_verdict engine_apply(engine_verdict_detail *why_out, engine_state *st,
                            const engine_action *act, engine_rng *rng);

/* Stable snake_case name of a verdict ("storm_dial_range"). */
const char *engine_verdict_name(engine_verdict v);

/* Canonical encoding of the state: writes at most `cap` bytes to `out` and
 * returns the full length (call with cap 0 to size a buffer). */
size_t engine_state_encode(uint8_t *out, size_t cap, const engine_state *st);
#define ENGINE_STATE_ENCODED_MAX 8192

/* Decodes a canonical encoding. 0 on success; -1 when the bytes are not a
 * well-formed state or break an invariant (out is then zeroed). */
int engine_state_decode(engine_state *out, const uint8_t *in, size_t len);

/* Decodes the canonical encoding of a public view (engine_view with
 * ENGINE_VIEW_PUBLIC, then engine_state_encode): the same layout, its
 * unknown marks accepted, its invariants not asked (a view keeps none).
 * 0 on success; -1 when the bytes are not such a view (out is zeroed). A
 * view decoded is printed or compared, never applied. */
int engine_view_decode(engine_state *out, const uint8_t *in, size_t len);

/* BLAKE2b-256 of the canonical encoding. */
void engine_state_digest(uint8_t out[ENGINE_DIGEST_BYTES], const engine_state *st);

/* Number of broken invariants (each printed to stderr in debug builds). */
int engine_state_check(const engine_state *st);

/* Seats whose decision the game waits on (bit per seat); 0 at game over.
 * While a window is open, its top frame's asked seats that have not
 * answered. */
uint16_t engine_state_awaiting(const engine_state *st);

/* Read-only windows and effects (engine/frame.c). The open window on top,
 * or NULL; the innermost open window of `point`, or NULL; the effect of
 * `kind` (the first), or NULL; the sources (bit per source) of every
 * effect of `kind`. */
const engine_frame *engine_window_top(const engine_state *st);
/* The neutral Nexus window (rules version 7 on, engine/nexus_window.c) if
 * it is the top window, else NULL. */
const engine_frame *engine_nexus_window(const engine_state *st);
/* The Nexus window of a seat's own moment (rules version 8 on,
 * engine/nexus_moment.c) if it is the top window, else NULL; its held
 * action's arg 0 is the engine_nexus_point, arg 1 its territory (a worm's)
 * or 0. And the points a seat's standing policy may name in `st`'s rules
 * version (ENGINE_NEXUS_POINTS_V7 before version 8). */
const engine_frame *engine_nexus_moment_window(const engine_state *st);
unsigned engine_nexus_points(const engine_state *st);

/* The Bene Gesserit's INTRUSION (Advanced, rules version 8,
 * engine/advisors.c): 1 if the top window is bg_intrusion, with the
 * territory its held action enters and the forces entering (public: the
 * held action is); else 0 and nothing written. */
int engine_intrusion_entry(const engine_state *st, unsigned *territory_out,
                           unsigned *forces_out);
const engine_frame *engine_window_find(const engine_state *st, unsigned point);
const engine_effect *engine_effect_find(const engine_state *st, unsigned kind);
uint32_t engine_effect_sources(const engine_state *st, unsigned kind);

/* The Voice and prescience of the battle being fought (engine/phase_battle.c),
 * read off its frames and effect records: the class the Voice named
 * (ENGINE_VOICE_NONE: none) and whether it says "must"; the element the
 * Atreides asked (ENGINE_PRESCIENCE_NONE: none, or no question yet) and
 * its answer (0 until given; a view hides it from seats not told): for
 * the Advanced dial (rules version 7 on) the forces' strength in half
 * points, and the spice supporting them (otherwise 0). */
unsigned engine_battle_voice(const engine_state *st);
int engine_battle_voice_must(const engine_state *st);
unsigned engine_battle_prescience(const engine_state *st);
int engine_battle_prescience_answer(const engine_state *st);
/* 1 if `viewer` is shown the plan of battle side `side` (0, 1) by the
 * Atreides' Karama power (Advanced, rules version 8; engine/karama_plan.c):
 * the plan named, once committed, until the reveal. */
int engine_karama_plan_shown(const engine_state *st, unsigned viewer, unsigned side);
int engine_battle_prescience_support(const engine_state *st);
/* The step as the canonical encoding and the verdicts tell it: a window
 * that was a step in rules versions 2 to 4 (the Voice, prescience, a
 * shipment's payer, the Bene Gesserit send) is told as that step. */
unsigned engine_state_step(const engine_state *st);
/* The card number `seat` holds, or -1 (none, or no module). In a view the
 * number says how many a seat holds, never which face (nexus_face). */
int engine_nexus_held(const engine_state *st, unsigned seat);
/* The mode a card printed for `faction` has in `seat`'s hand, by native
 * roster identity (E3 p.11): an engine_nexus_mode, -1 out of range. */
int engine_nexus_mode_of(const engine_state *st, unsigned seat, unsigned faction);

/* ----------------------------------------------------------- positions */

/* Constructed positions for scenarios (engine/position.c). A position
 * starts as a cleared table (every force in reserve, every card and
 * traitor in its deck, spice as dealt), is edited, then enters a phase.
 * Its configuration is marked constructed. Each edit returns 0, or -1 when
 * it would break an invariant (not enough forces in reserve, no such card
 * left in the deck, a hand already full...), changing nothing. */
engine_verdict engine_position_new(engine_verdict_detail *why_out, engine_state *out,
                                   const engine_config *cfg, engine_rng *rng);
int engine_position_forces(engine_state *st, uint8_t seat, unsigned loc, unsigned plain,
                           unsigned elite);
/* Advanced: n Bene Gesserit forces from reserve as advisors at `loc`
 * (seat must be the Bene Gesserit's; -1 where its fighters stand in that
 * territory, LR 2.02.20, as engine_position_forces refuses fighters where
 * its advisors stand). */
int engine_position_advisors(engine_state *st, uint8_t seat, unsigned loc, unsigned n);
int engine_position_tanks(engine_state *st, uint8_t seat, unsigned plain, unsigned elite);
int engine_position_spice(engine_state *st, unsigned loc, unsigned n);
int engine_position_seat_spice(engine_state *st, uint8_t seat, unsigned n);
/* Deals a card of `kind` from the deck to `seat`; returns its number. */
int engine_position_give_card(engine_state *st, uint8_t seat, unsigned kind);
/* Puts a card of `kind` on top of the treachery deck; returns its number. */
int engine_position_deck_top(engine_state *st, unsigned kind);
/* Puts spice card `card` (index of the spice card table) on top of the
 * spice deck, or on the discard pile. */
int engine_position_spice_top(engine_state *st, unsigned card);
int engine_position_spice_discard(engine_state *st, unsigned card);
int engine_position_traitor(engine_state *st, uint8_t seat, unsigned leader);
int engine_position_leader_dead(engine_state *st, unsigned leader);
int engine_position_alliance(engine_state *st, uint8_t a, uint8_t b);
int engine_position_prediction(engine_state *st, unsigned faction, unsigned turn);
/* Advanced, rules version 6 on (a room with the Atreides): the Kwisatz
 * Haderach's token after `losses` forces lost in battles, in the Tanks
 * when is_dead (awake: losses >= ENGINE_KH_AWAKENING_LOSSES). */
int engine_position_kwisatz_haderach(engine_state *st, unsigned losses, int is_dead);
/* Advanced, rules version 8 on (a room with the Harkonnen): `leader`, in
 * its own faction's pool, held captive in the Harkonnen's (LR 2.05.10.01). */
int engine_position_captive(engine_state *st, unsigned leader);
/* Nexus Cards (a room with the module): the card printed for `faction`
 * from the deck to `seat` (unallied, holding none) and its number; to the
 * top of the deck; from the deck to the discard pile (known to nobody). */
int engine_position_nexus_give(engine_state *st, uint8_t seat, unsigned faction);
int engine_position_nexus_top(engine_state *st, unsigned faction);
int engine_position_nexus_discard(engine_state *st, unsigned faction);
/* Enters `phase` of `turn` with the storm at `storm_sector`, running the
 * phase's automatic steps. */
int engine_position_enter(engine_state *st, unsigned phase, unsigned turn, unsigned storm_sector,
                          engine_rng *rng);
/* Spice cards: the index of the card placing spice in `territory`, or -1;
 * the n-th Shai-Hulud card. */
int engine_spice_card_of(unsigned territory);
int engine_spice_worm(unsigned nth);

/* ---------------------------------------------------------------- views */

#define ENGINE_VIEW_PUBLIC 0xFE        /* a spectator: public facts only */
#define ENGINE_CARD_KIND_UNKNOWN 0xFF  /* in a view: a card whose face the viewer has not seen */
#define ENGINE_UNKNOWN 0xFF            /* in a view: an unknown deck entry, dial or holder */

/* Writes into *out what `viewer` (a seat, ENGINE_VIEW_PUBLIC, or
 * ENGINE_SEAT_ENGINE for the auditor's full state) knows of `st`: the same
 * structure with every fact the viewer does not know replaced by an
 * unknown mark (card faces, deck orders, other seats' traitors, the
 * prediction, secret dials). A view is compared, encoded and printed; it
 * is never applied, and engine_state_check does not hold for it. */
void engine_view(engine_state *out, const engine_state *st, uint8_t viewer);

/* ------------------------------------------------------- legal actions */

/* A family of legal actions: every action of `kind` by `seat` whose
 * argument i lies in [lo[i], hi[i]], when sum >= 0 whose first n_args
 * arguments add up to `sum`, and for each cap k with cap_mask[k] != 0
 * whose arguments of cap_mask[k] add up to at most cap[k], is legal; and
 * only those. A family's lowest arguments (lo) always meet its caps, so
 * lowering arguments toward lo never leaves it (engine_legal_clip). Caps
 * describe the Advanced battle plan's spice support: forces at full and
 * half strength within the forces present, the support within the spice
 * held (LR 1.13.04). */
#define ENGINE_LEGAL_CAPS 3
typedef struct engine_legal {
    uint8_t kind;                  /* engine_action_kind */
    uint8_t seat;                  /* acting seat */
    int16_t lo[ENGINE_ACTION_MAX_ARGS];
    int16_t hi[ENGINE_ACTION_MAX_ARGS];
    int16_t sum;                   /* required total of the args, -1 none */
    uint8_t cap_mask[ENGINE_LEGAL_CAPS]; /* bit i: argument i counts toward cap k; 0 unused */
    int16_t cap[ENGINE_LEGAL_CAPS];      /* the most those arguments may add up to */
} engine_legal;

/* The bots' default use of a generic family (ENGINE_ACTION_POWER,
 * ENGINE_ACTION_ANSWER): the row's fallback for each argument, clipped to
 * the family, so a bot that knows no power or window still answers one. 0, or -1 if `l` is no generic family. */
int engine_generic_default(engine_action *out, const engine_legal *l);
#define ENGINE_LEGAL_MAX 4096

/* Writes the legal families for `seat` (all seats if ENGINE_SEAT_ENGINE)
 * into out[0..cap), returns how many there are in all. */
size_t engine_legal_actions(engine_legal *out, size_t cap,
                            const engine_state *st, uint8_t seat);
/* 1 if `act` belongs to family `l`. */
int engine_legal_contains(const engine_legal *l, const engine_action *act);
/* Lowers arguments of `arg` (each already within [lo, hi] of `l`), the
 * last of a cap's first, until every cap of `l` holds; the sum, if any,
 * is the caller's (no family has both). */
void engine_legal_clip(const engine_legal *l, int16_t arg[ENGINE_ACTION_MAX_ARGS]);
/* 1 if the arguments meet every cap of `l`. */
int engine_legal_caps_hold(const engine_legal *l, const int16_t arg[ENGINE_ACTION_MAX_ARGS]);

/* ----------------------------------------------------- Advanced battle */

/* 1 if `st` (a state or any view of it) plays the Advanced game's rules
 * built so far: an Advanced room of rules version 5 on (engine/advanced.c). */
int engine_is_advanced(const engine_state *st);
/* 1 when the Kwisatz Haderach plays in `st` (an Advanced game of rules
 * version 6 on, with the Atreides; engine/kwisatz_haderach.c): its token
 * is engine_state.kh_*, its use in a plan engine_battle_plan.kwisatz_haderach. */
int engine_kh_in_force(const engine_state *st);
/* The strength, in half points, of the forces side `side` (0 aggressor, 1
 * defender) of the battle under way commits, as the battle counts it:
 * twice the dial in the Basic game; in the Advanced game full and half
 * strength by spice support, elite forces as their faction's rules value
 * them against this opponent (LR 1.13.04, 2.03.08-09, 2.04.18, 2.04.21).
 * Meaningful in any view that shows the plan. */
unsigned engine_plan_forces_strength2(const engine_state *st, unsigned side);
/* The spice side `side`'s plan pays in support (Advanced; 0 in Basic). */
unsigned engine_plan_support(const engine_state *st, unsigned side);
/* The arguments family l gives: its kind's n_args less the trailing
 * optional ones absent (0..0) from it, as engine_action_n_given. */
unsigned engine_legal_n_given(const engine_legal *l);

/* -------------------------------------------------------------- names */

const char *engine_faction_name(unsigned f);        /* "bene_gesserit" or NULL */
engine_faction engine_faction_from_name(const char *s); /* NONE if unknown */
const char *engine_phase_name(unsigned p);          /* "spice_blow" */
const char *engine_territory_name(unsigned t);      /* "Sietch Tabr" or NULL */
const char *engine_territory_slug(unsigned t);      /* "sietch_tabr" or NULL */
int engine_territory_from_slug(const char *s);      /* -1 if unknown */
unsigned engine_location_territory(unsigned loc);
int engine_location_sector(unsigned loc);           /* ENGINE_NO_SECTOR for none */
int engine_location_find(unsigned territory, int sector); /* -1 none */
const char *engine_leader_name(unsigned leader);    /* "Thufir Hawat" or NULL */
const char *engine_leader_slug(unsigned leader);    /* "thufir_hawat" or NULL */
int engine_leader_from_slug(const char *s);         /* -1 if unknown */
unsigned engine_leader_faction(unsigned leader);
unsigned engine_leader_strength(unsigned leader);
/* The seat whose pool holds `leader` (its own faction's, or the
 * Harkonnen's while a captive, engine/capture.c), -1 if none holds it. */
int engine_leader_holder(const engine_state *st, unsigned leader);
/* 1 when the Harkonnen capture or kill leaders in this room (Advanced,
 * rules version 8 on, with the Harkonnen; engine/capture.c). */
int engine_captives_in_force(const engine_state *st);
const char *engine_card_kind_name(unsigned kind);   /* "Lasgun" */
const char *engine_card_kind_slug(unsigned kind);   /* "lasgun" */
const char *engine_advantage_name(unsigned advantage); /* "guild_half_price" or NULL */
int engine_advantage_from_name(const char *name);   /* -1 if unknown */
/* The advantages a Karama window of this room may offer, so those a seat
 * is asked about from setup and a `karama_policy` may name: the Basic
 * twenty; in an Advanced room of rules version 7 the first 25, of
 * version 8 on every one (engine/karama.c). */
uint32_t engine_karama_offered(const engine_state *st);
/* A `karama_policy`'s two masks (ENGINE_ADVANTAGE_BIT each): asked in
 * every window offering it, and only in the seat's own battle. The
 * arguments: ask_1_10, ask_11_20, own_1_10, own_11_20 (bit i is advantage
 * 1 + i, resp. 11 + i), and from rules version 7 ask_21_31, own_21_31
 * (bit i is advantage 21 + i). _set writes `act`'s arguments (kind and
 * seat untouched) for two masks. */
void engine_karama_policy_masks(uint32_t *ask_out, uint32_t *own_out, const engine_action *act);
void engine_karama_policy_set(engine_action *act, uint32_t ask, uint32_t own);

/* ==================================================================
 * Facts, read-only (engine/facts.c)
 *
 * The engine's fact tables (engine/data/) as its rules read them, for
 * clients that must not restate them: the bots, the log, the render, the
 * server. Every accessor is pure (no state of its own, no allocation),
 * checks its index and answers the value its comment names for anything
 * out of range. A client that needs a fact the engine has should add an
 * accessor here, never a copy of the table.
 * ================================================================== */

/* Treachery card classes (DUNE_RULES_DIGEST.md 2.1): what a card kind is,
 * as bits, the column the battle's slots and the Voice read. */
enum {
    ENGINE_CARD_CLASS_WEAPON_PROJECTILE = 1u << 0,
    ENGINE_CARD_CLASS_WEAPON_POISON = 1u << 1,
    ENGINE_CARD_CLASS_WEAPON_SPECIAL = 1u << 2,  /* Lasgun */
    ENGINE_CARD_CLASS_DEFENSE_PROJECTILE = 1u << 3,
    ENGINE_CARD_CLASS_DEFENSE_POISON = 1u << 4,
    ENGINE_CARD_CLASS_WORTHLESS = 1u << 5,
    ENGINE_CARD_CLASS_LEADER = 1u << 6,          /* Cheap Hero */
    ENGINE_CARD_CLASS_SPECIAL = 1u << 7
};

/* The ENGINE_CARD_CLASS_* bits of a card kind; 0 for a kind out of range
 * (ENGINE_CARD_KIND_UNKNOWN included). */
unsigned engine_card_kind_classes(unsigned kind);

/* The territory's terrain (engine_territory_kind: the Hidden Mobile
 * Stronghold is ENGINE_TERRAIN_STRONGHOLD), or -1 out of range. */
int engine_territory_terrain(unsigned t);

/* The strongholds of the board whose control wins (LR 1.09): Carthag,
 * Arrakeen, Tuek's Sietch, Sietch Tabr and Habbanya Sietch, in territory
 * order. The Hidden Mobile Stronghold has a stronghold's terrain (its
 * shipping rate and occupancy limit) but joins them only with the Ixians,
 * which are not built. engine_stronghold: the i-th, ENGINE_TERRITORY_COUNT
 * for i out of range; engine_territory_is_stronghold: 1 if t is one. */
#define ENGINE_STRONGHOLD_COUNT 5
unsigned engine_stronghold(unsigned i);
int engine_territory_is_stronghold(unsigned t);

/* 1 if the storm spares forces and spice in territory t in `st` (a state
 * or any view of it: the Shield Wall is public): strongholds, rock, the
 * Polar Sink and the Imperial Basin, less the Imperial Basin, Arrakeen
 * and Carthag once Family Atomics destroyed the Shield Wall
 * (DUNE_RULES_DIGEST.md 1.3). 0 for t out of range. */
int engine_territory_is_storm_safe(const engine_state *st, unsigned t);

/* The Nexus Cards (engine/nexus.c, engine/data/nexus_cards.c): the
 * readable reference of a face's panel (faction f's card in `mode`, an
 * engine_nexus_mode), public to every seat, or NULL out of range; its row
 * in EXPANSIONS_AND_NEXUS.md 5.2 (1..36), 0 out of range. */
const char *engine_nexus_panel_text(unsigned f, unsigned mode);
unsigned engine_nexus_panel_row(unsigned f, unsigned mode);
/* The panel a generic power plays (engine/nexus_<faction>.c): its row in
 * EXPANSIONS_AND_NEXUS.md 5.2 (1..36), 0 for a power that plays none (a
 * faction's, the shuffle back of traitors a panel drew, an unknown id). */
unsigned engine_nexus_panel_of_power(int id);
/* The panel an answer plays in a window of a Nexus card's own
 * (engine/nexus_<faction>.c, rules version 8 on): its row, 0 for a pass
 * (every argument its form's default) or another window's answer. */
unsigned engine_nexus_panel_of_answer(const engine_action *act);
/* 1 if the panel of the card printed for faction `f` in `mode` is built
 * in this version (rules version 6; docs/RULINGS.md R91), else 0. */
int engine_nexus_panel_built(unsigned f, unsigned mode);
#define ENGINE_NEXUS_PANEL_COUNT 36

/* The seats in storm order, First Player first, as the phases take turns
 * (LR 1.01.04); returns how many. `st` may be a view. */
unsigned engine_storm_order(const engine_state *st, uint8_t out[ENGINE_MAX_SEATS]);

/* How sentences name a faction ("Guild"; "?" out of range), beside
 * engine_faction_name's slug. */
const char *engine_faction_title(unsigned f);
/* What the faction's elite forces are called ("Sardaukar", "Fedaykin",
 * "cyborgs"), or NULL: it has none, or f is out of range. */
const char *engine_faction_elite_name(unsigned f);
/* Free force revivals a turn of the faction's own (DUNE_RULES_DIGEST.md
 * 3.2; an ally's gifts are rules, not facts); 0 out of range. */
unsigned engine_faction_free_revival(unsigned f);
/* Traitors the faction keeps of the ENGINE_TRAITORS_DEALT it is dealt at
 * setup (1; the Harkonnen keep all 4); 0 out of range. */
#define ENGINE_TRAITORS_DEALT 4
unsigned engine_faction_traitors_kept(unsigned f);

/* The Fremen's opening (LR 2.04.02): ENGINE_FREMEN_START_FORCES forces
 * placed as they choose among ENGINE_FREMEN_START_TERRITORIES territories,
 * Sietch Tabr, False Wall South and False Wall West in the order of
 * ENGINE_ACTION_FREMEN_PLACE's arguments. engine_fremen_start_territory:
 * the i-th, ENGINE_TERRITORY_COUNT for i out of range. */
#define ENGINE_FREMEN_START_FORCES 10
#define ENGINE_FREMEN_START_TERRITORIES 3
unsigned engine_fremen_start_territory(unsigned i);

/* 1 if t is one of the sietches the Fremen's special victory needs held
 * by none but the Fremen (LR 2.04.09): Sietch Tabr and Habbanya Sietch;
 * 0 otherwise or out of range. */
int engine_territory_is_fremen_sietch(unsigned t);

/* Ornithopters (DUNE_RULES_DIGEST.md 4.6 and 4.8): 1 if `seat` has forces
 * in Arrakeen or Carthag in `st` (a state or any view of it: forces are
 * public), so that its groups move 3 territories and its forces collect 3
 * spice each; 0 otherwise or for a seat out of range. */
int engine_seat_has_ornithopters(const engine_state *st, unsigned seat);
/* The spice each force of `seat` collects in Spice Collection (LR 1.08):
 * 3 with ornithopters, else 2; 0 for a seat out of range. */
unsigned engine_collection_rate(const engine_state *st, unsigned seat);

/* The spice `seat` would pay now to ship n forces from its reserves to
 * location `loc`, as engine_apply charges it (LR 1.06.02: 1 a force into
 * a stronghold, 2 elsewhere; half, rounded up, for the Guild and its ally
 * unless a Karama cancelled it, 2.06.06 and 2.06.09; the Guild's rate for
 * a shipment bought with a Karama when `karama`, 3.01.11). `st` may be a
 * view: the price reads public facts only. A Fremen send is free and is
 * not priced here. 0 for a seat or location out of range. */
unsigned engine_shipment_cost(const engine_state *st, unsigned seat, unsigned loc, unsigned n,
                              int karama);

/* The card `seat` would spend as a Karama card now, 0xFF for none
 * (engine/karama_card.c): a Karama, or in the Advanced game from rules
 * version 7 a worthless card of the Bene Gesserit (LR 1.14.06, 2.02.22;
 * docs/RULINGS.md R113). Every place that asks for a Karama asks this, so
 * the legal families and engine_apply agree; on a view it answers from
 * what the viewer sees. 0xFF for a seat out of range. */
unsigned engine_karama_card(const engine_state *st, unsigned seat);

/* What a prescience question asks of a battle plan (LR 2.01.05): the
 * element of ENGINE_ACTION_PRESCIENCE (engine_battle_prescience). The
 * answer (engine_battle_prescience_answer) is a leader, a card number or -1 for
 * none, ENGINE_PRESCIENCE_CHEAP_HERO for a Cheap Hero played as the
 * leader, or the dial (Advanced, rules version 7 on: the forces' strength
 * in half points, with engine_battle_prescience_support). */
typedef enum engine_prescience_element {
    ENGINE_PRESCIENCE_NONE = 0,
    ENGINE_PRESCIENCE_LEADER = 1,
    ENGINE_PRESCIENCE_WEAPON = 2,
    ENGINE_PRESCIENCE_DEFENSE = 3,
    ENGINE_PRESCIENCE_DIAL = 4,
    ENGINE_PRESCIENCE_ELEMENT_COUNT
} engine_prescience_element;
#define ENGINE_PRESCIENCE_CHEAP_HERO (-2)

/* The steps engine_state_step tells in the phases clients read it in
 * (engine/phase.h draws them all; facts.c asserts these equal its own). */
enum {
    ENGINE_SETUP_STEP_PREDICTION = 0,   /* the Bene Gesserit predict */
    ENGINE_SETUP_STEP_TRAITORS = 1,     /* every seat picks its traitor */
    ENGINE_SETUP_STEP_FREMEN = 2,       /* the Fremen place their forces */
    ENGINE_SETUP_STEP_BG_PLACE = 3,     /* (Advanced) the Bene Gesserit place one force */
    ENGINE_STORM_STEP_DIAL = 0,         /* two dialers dial in secret */
    ENGINE_STORM_STEP_CARDS = 1,        /* Weather Control, Family Atomics, or pass */
    ENGINE_STORM_STEP_LOSSES = 2,       /* (Advanced) the Fremen choose their storm losses */
    ENGINE_BATTLE_STEP_CHOOSE = 0,      /* the aggressor picks a territory and opponent */
    ENGINE_BATTLE_STEP_VOICE = 1,       /* the Bene Gesserit side may use the Voice (the
                                           VOICE window, as engine_state_step tells it) */
    ENGINE_BATTLE_STEP_PRESCIENCE = 2,  /* the Atreides side may ask one element (a window) */
    ENGINE_BATTLE_STEP_PRESCIENCE_ANSWER = 3, /* the one asked answers (a window) */
    ENGINE_BATTLE_STEP_PLAN = 4,        /* both sides commit plans in secret */
    ENGINE_BATTLE_STEP_TRAITOR = 5,     /* plans revealed; each side may call a traitor */
    ENGINE_BATTLE_STEP_KEEP = 6,        /* the winner keeps or discards its cards */
    ENGINE_BATTLE_STEP_CAPTURE = 7,     /* (Advanced) the Harkonnen capture or kill a leader */
    ENGINE_BLOW_STEP_NEXUS_DRAW = 3,    /* (Nexus Cards) the unallied seats draw or decline */
    ENGINE_BLOW_STEP_WORM_PLACE = 4,    /* (Advanced) the Fremen place a pile's further worm */
    ENGINE_BLOW_STEP_KARAMA_WORM = 5    /* (Advanced) the Fremen may place a Karama worm */
};

/* What step `step` of `phase` waits for, as a snake_case slug
 * ("traitor_picks", "movement", "battle_plans"), or NULL when the phase
 * has no such step. Every rules version numbers its steps alike. */
const char *engine_step_name(unsigned phase, unsigned step);

/* The phase a kind of action belongs to, or ENGINE_PHASE_COUNT for a side
 * action (any phase after setup) and an answer to a window. */
unsigned engine_action_phase(unsigned kind);

#endif
