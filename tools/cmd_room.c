/*
 * cmd_room.c - `mentat room create`, `mentat room list`, `mentat room
 * fork` and `mentat room reseal`.
 *
 * Layer: tools. It turns options into an engine_config and hands it to
 * ledger_room_create, which asks the engine; it never validates a rule
 * itself beyond the shape of the command line (the engine says why it
 * refuses a faction or a module, and we print that).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tools/internal.h"

static const char help[] =
    "usage: mentat room create --players N --factions LIST --rules basic\n"
    "                          [--modules LIST] [--turns T] [--seat-keys LIST]\n"
    "       mentat room list\n"
    "       mentat room fork ROOM --at V\n"
    "       mentat room reseal ROOM|--all --to-audit-key PUBFILE\n"
    "\n"
    "room create deals a new game and prints its room code. Seats are numbered\n"
    "1..N in the order of --factions (N must equal their number). The seed is\n"
    "drawn now, committed to in the signed genesis and sealed to the audit key.\n"
    "\n"
    "  --players N      2..6\n"
    "  --factions LIST  comma-separated: atreides, bene_gesserit, emperor, fremen,\n"
    "                   harkonnen, guild (ixians, tleilaxu, choam, richese, ecaz,\n"
    "                   moritani are refused by the engine for now, with its reason)\n"
    "  --rules R        basic (advanced is refused until the whole Advanced game\n"
    "                   is built; mentat games --rules advanced plays what is)\n"
    "  --modules LIST   nexus_cards (the Nexus Cards, 3..6 seats), tech_tokens,\n"
    "                   leader_skills, stronghold_cards, homeworlds,\n"
    "                   discovery_tokens, expansion_treachery (the engine refuses\n"
    "                   modules it does not have yet, with its reason)\n"
    "  --turns T        game length, 1..20 (default 10)\n"
    "  --seat-keys LIST comma-separated SEAT=PUBFILE: binds each seat (1..N or\n"
    "                   its faction) to the public key in PUBFILE (`mentat seat\n"
    "                   keygen` writes it); that seat's actions are then accepted\n"
    "                   only with its signature (`mentat act --seat-key`). Seats\n"
    "                   not listed stay unbound\n"
    "\n"
    "room list prints every room: code, head version, rules, turn, phase,\n"
    "creation, factions, and whom the game waits on or who won. Turn, phase and\n"
    "status need the audit key or the room's revealed seed, and this build's rules\n"
    "(else ? and why, null in --json).\n"
    "\n"
    "room fork makes a new room that starts from ROOM after version V, for\n"
    "\"what if\" play, and prints its code. Its genesis names ROOM, V and the\n"
    "chain hash of V there, signed; it is a constructed room with a seed of\n"
    "its own, so it can never pass for ROOM (room list shows it as a fork).\n"
    "Needs the audit key.\n"
    "\n"
    "room reseal seals ROOM's seed and room key (or every room's, --all) again to\n"
    "the audit public key in PUBFILE (64 hex digits: `mentat key audit-pub` on the\n"
    "new host prints it), for an operator moving rooms to another host. It needs\n"
    "the audit key each room is sealed to now, checks every room before it writes\n"
    "any, and reseals each in one transaction: a failure leaves every room as it\n"
    "was, and a room already sealed to that key is left as it is. The genesis\n"
    "is signed and keeps its own seal; the new one is kept beside it. Progress\n"
    "on stderr with --all when it is a terminal.\n"
    "\n"
    "Examples:\n"
    "  mentat room create --players 6 --rules basic \\\n"
    "      --factions atreides,bene_gesserit,emperor,fremen,harkonnen,guild\n"
    "  mentat room create --players 2 --factions atreides,harkonnen --rules basic --turns 5\n"
    "  mentat room create --players 4 --factions atreides,fremen,emperor,guild \\\n"
    "      --rules basic --modules nexus_cards\n"
    "  mentat room create --players 2 --factions atreides,harkonnen --rules basic \\\n"
    "      --seat-keys 1=alice.seat.pub,harkonnen=bob.seat.pub\n"
    "  ROOM=$(mentat room create --players 3 --factions fremen,emperor,guild --rules basic)\n"
    "  mentat room list --json\n"
    "  mentat room fork K7QX2M9P --at 120\n"
    "  mentat --keys /srv/new/keys key audit-pub > new-audit.pub\n"
    "  mentat room reseal K7QX2M9P --to-audit-key new-audit.pub\n"
    "  mentat room reseal --all --to-audit-key new-audit.pub --json\n";

/* ============================================================ create */

/* The ledger refused cfg: asks the engine why (engine_setup with a
 * throwaway stream; nothing is kept) and names the faction or module it
 * does not play yet. 0 if it printed that, -1 to fall back on the
 * ledger's message. */
static int explain_refusal(const tool_globals *g, const engine_config *cfg)
{
    static const uint8_t zero_seed[ENGINE_SEED_BYTES];
    engine_rng rng;
    engine_state st;
    engine_verdict_detail why = {-1, 0};
    engine_rng_init(&rng, zero_seed, 0);
    engine_verdict v = engine_setup(&why, &st, cfg, &rng);
    if (v == ENGINE_REJECT_BAD_CONFIG && (cfg->modules & ENGINE_MODULE_NEXUS_CARDS) &&
        cfg->n_seats < ENGINE_NEXUS_MIN_SEATS) {
        tool_err(g, "nexus_cards needs %u to %u seats: with %u nobody is unallied while an "
                 "alliance exists", ENGINE_NEXUS_MIN_SEATS, ENGINE_MAX_SEATS, cfg->n_seats);
        return 0;
    }
    if (v != ENGINE_REJECT_RULE_NOT_IMPLEMENTED)
        return -1;
    const char *reason = engine_verdict_name(v);
    if (why.arg >= 0 && why.arg < cfg->n_seats) {
        tool_err(g, "the engine does not play %s yet (%s)",
                 tool_seat_faction(cfg, (uint8_t)why.arg), reason);
        return 0;
    }
    uint32_t unbuilt = cfg->modules & ~(uint32_t)ENGINE_MODULE_NEXUS_CARDS;
    if (unbuilt != 0) {
        fprintf(stderr, "mentat %s: the engine does not have the module%s", g->cmd,
                (unbuilt & (unbuilt - 1)) != 0 ? "s" : "");
        int n = 0;
        for (unsigned m = 0; m < TOOL_MODULE_COUNT; m++)
            if (unbuilt & (1u << m))
                fprintf(stderr, "%s %s", n++ != 0 ? "," : "", tool_module_names[m]);
        fprintf(stderr, " yet (%s)\n", reason);
        return 0;
    }
    return -1;
}

/* --seat-keys SEAT=PUBFILE,...: each seat once, each key read. */
static int seat_keys_parse(ledger_seat_keys *out, const char *list, const engine_config *cfg,
                           char *err)
{
    char item[4200];
    memset(out, 0, sizeof *out);
    for (const char *p = list;;) {
        const char *end = strchr(p, ',');
        size_t len = end != NULL ? (size_t)(end - p) : strlen(p);
        if (len == 0 || len >= sizeof item) {
            snprintf(err, SCHEMA_ERRMSG, "expected SEAT=PUBFILE, comma-separated");
            return -1;
        }
        memcpy(item, p, len);
        item[len] = '\0';
        char *eq = strchr(item, '=');
        if (eq == NULL || eq == item || eq[1] == '\0') {
            snprintf(err, SCHEMA_ERRMSG, "'%.60s' is not SEAT=PUBFILE", item);
            return -1;
        }
        *eq = '\0';
        uint8_t seat;
        char why[SCHEMA_ERRMSG];
        if (tool_parse_seat(&seat, item, cfg, why) != 0) {
            snprintf(err, SCHEMA_ERRMSG, "%.150s", why);
            return -1;
        }
        if ((unsigned)out->bound >> seat & 1u) {
            snprintf(err, SCHEMA_ERRMSG, "seat %u is given two keys", seat + 1u);
            return -1;
        }
        if (ledger_seat_public_load(out->key[seat], eq + 1, why) != 0) {
            snprintf(err, SCHEMA_ERRMSG, "%.150s", why);
            return -1;
        }
        out->bound |= (uint16_t)(1u << seat);
        if (end == NULL)
            return 0;
        p = end + 1;
    }
}

static int room_create(int argc, char **argv, tool_globals *g)
{
    const char *players = NULL, *factions = NULL, *rules = NULL, *modules = NULL,
               *turns = NULL, *seat_keys = NULL;
    const tool_opt opts[] = {
        {"--players", "N", &players, NULL},
        {"--factions", "LIST", &factions, NULL},
        {"--rules", "basic", &rules, NULL},
        {"--modules", "LIST", &modules, NULL},
        {"--turns", "T", &turns, NULL},
        {"--seat-keys", "LIST", &seat_keys, NULL},
        {NULL, NULL, NULL, NULL},
    };
    int r = tool_args_parse(g, argc, argv, opts, NULL, 0, NULL, help);
    if (r != TOOL_PARSED)
        return r == TOOL_HELP ? TOOL_EXIT_OK : TOOL_EXIT_USAGE;
    if (players == NULL || factions == NULL || rules == NULL) {
        tool_err(g, "missing %s (see mentat room --help)",
                 players == NULL ? "--players N" : factions == NULL ? "--factions LIST"
                                                                    : "--rules basic");
        return TOOL_EXIT_USAGE;
    }

    engine_config cfg;
    engine_config_init(&cfg);
    char err[SCHEMA_ERRMSG];
    uint32_t n_players, n_turns;
    if (tool_parse_uint(&n_players, players, ENGINE_MIN_SEATS, ENGINE_MAX_SEATS) != 0) {
        tool_err(g, "--players must be %d..%d, not '%s'", ENGINE_MIN_SEATS, ENGINE_MAX_SEATS,
                 players);
        return TOOL_EXIT_USAGE;
    }
    if (tool_parse_factions(&cfg, factions, err) != 0) {
        tool_err(g, "--factions: %s", err);
        return TOOL_EXIT_USAGE;
    }
    if (cfg.n_seats != n_players) {
        tool_err(g, "--players %u but %u factions listed", n_players, cfg.n_seats);
        return TOOL_EXIT_USAGE;
    }
    if (strcmp(rules, "basic") == 0) {
        cfg.is_advanced = 0;
    } else if (strcmp(rules, "advanced") == 0) {
        /* Refused here, not by the engine: stored Advanced rooms must go on
         * restoring and verifying, but a new one could not be played. */
        tool_err(g, "--rules advanced is refused until the whole Advanced game is built: built "
                    "are its setup, the double spice blow with a Nexus after each pile and the "
                    "Fremen's worms, stronghold income, the Bene Gesserit's charity, battles "
                    "with spice support and the Fremen's storm deck and storm losses (mentat "
                    "games --rules advanced plays it); not yet the faction Karama powers and "
                    "the other faction abilities; use --rules basic");
        return TOOL_EXIT_USAGE;
    } else {
        tool_err(g, "--rules must be basic, not '%s'", rules);
        return TOOL_EXIT_USAGE;
    }
    if (modules != NULL && tool_parse_modules(&cfg.modules, modules, err) != 0) {
        tool_err(g, "--modules: %s", err);
        return TOOL_EXIT_USAGE;
    }
    if (turns != NULL) {
        if (tool_parse_uint(&n_turns, turns, 1, ENGINE_MAX_TURN_LIMIT) != 0) {
            tool_err(g, "--turns must be 1..%d, not '%s'", ENGINE_MAX_TURN_LIMIT, turns);
            return TOOL_EXIT_USAGE;
        }
        cfg.turn_limit = (uint8_t)n_turns;
    }
    ledger_seat_keys seats;
    if (seat_keys != NULL && seat_keys_parse(&seats, seat_keys, &cfg, err) != 0) {
        tool_err(g, "--seat-keys: %s", err);
        return TOOL_EXIT_USAGE;
    }

    ledger *db;
    int ex = tool_ledger_open(&db, g, 0);
    if (ex != TOOL_EXIT_OK)
        return ex;
    char room[SCHEMA_ROOM_CHARS + 1];
    int rc = ledger_room_create_bound(db, room, &cfg, NULL, seat_keys != NULL ? &seats : NULL);
    if (rc == LEDGER_EINPUT && explain_refusal(g, &cfg) == 0) {
        ex = TOOL_EXIT_USAGE;
        goto out;
    }
    if (rc != 0) {
        ex = tool_ledger_fail(g, db, rc);
        goto out;
    }
    if (g->is_json) {
        tool_json j;
        tool_json_init(&j, stdout);
        tool_json_object_begin(&j);
        tool_json_member_string(&j, "room", room);
        tool_json_object_end(&j);
        tool_json_finish(&j);
    } else {
        printf("%s\n", room);
    }
out:
    return tool_ledger_close(g, db, ex);
}

/* ============================================================== list */

/* Where a room's game stands at its head: from ledger_state_at, which
 * needs the audit key (or a revealed seed) and this build's rules; else
 * is_known 0 and why_unknown says why. */
typedef struct room_status {
    int is_known;                  /* 1 = the fields below are read from the head state */
    char why_unknown[64];          /* is_known 0: "needs the audit key", ... */
    unsigned turn;                 /* 1..turn_limit; 0 before the first turn */
    unsigned phase;                /* engine_phase */
    uint16_t awaiting;             /* seats the game waits on, bit per seat */
    uint16_t winners;              /* seats that won (phase GAME_OVER) */
    unsigned victory_kind;         /* engine_victory_kind (phase GAME_OVER) */
} room_status;

/* 0 with out filled: is_known 0 when the seed cannot be unsealed, the
 * room is played by other rules than this build's, or its state cannot be
 * read (damage is for `mentat verify` to name); a room list goes on. */
static int room_status_get(room_status *out, ledger *db, const ledger_room_info *room)
{
    static engine_state st;
    memset(out, 0, sizeof *out);
    int rc = ledger_state_at(db, &st, room->room, room->version);
    if (rc != 0) {
        codec_genesis g;
        if (rc == LEDGER_EKEY)
            snprintf(out->why_unknown, sizeof out->why_unknown, "needs the audit key");
        else if (ledger_genesis_get(db, &g, room->room) == 0 &&
                 !engine_rules_version_is_folded(g.config.rules_version))
            snprintf(out->why_unknown, sizeof out->why_unknown, "played by rules version %u",
                     (unsigned)g.config.rules_version);
        else
            snprintf(out->why_unknown, sizeof out->why_unknown, "unreadable: see mentat verify");
        return 0;
    }
    out->is_known = 1;
    out->turn = st.turn;
    out->phase = st.phase;
    out->awaiting = engine_state_awaiting(&st);
    if (st.phase == ENGINE_PHASE_GAME_OVER) {
        out->winners = st.winners;
        out->victory_kind = st.victory_kind;
    }
    return 0;
}

/* The seats of mask as "1 atreides, 3 emperor". */
static void print_seats(uint16_t mask, const engine_config *cfg)
{
    int n = 0;
    for (uint8_t s = 0; s < cfg->n_seats; s++)
        if (mask & (1u << s))
            printf("%s%u %s", n++ != 0 ? ", " : "", s + 1u, tool_seat_faction(cfg, s));
}

static void list_json(tool_json *j, const ledger_room_info *room, const room_status *rs)
{
    const engine_config *cfg = &room->config;
    char when[TOOL_ISO_TIME_CHARS];
    tool_iso_time(when, room->created_at);
    tool_json_object_begin(j);
    tool_json_member_string(j, "room", room->room);
    tool_json_member_uint(j, "version", room->version);
    tool_json_member_string(j, "rules", cfg->is_advanced ? "advanced" : "basic");
    tool_json_key(j, "factions");
    tool_json_array_begin(j);
    for (uint8_t s = 0; s < cfg->n_seats; s++)
        tool_json_string(j, tool_seat_faction(cfg, s));
    tool_json_array_end(j);
    tool_json_key(j, "modules");
    tool_json_array_begin(j);
    for (unsigned m = 0; m < TOOL_MODULE_COUNT; m++)
        if (cfg->modules & (1u << m))
            tool_json_string(j, tool_module_names[m]);
    tool_json_array_end(j);
    tool_json_member_uint(j, "turn_limit", cfg->turn_limit);
    tool_json_member_string(j, "created_at", when);
    tool_json_key(j, "fork_of");
    if (room->is_fork) {
        tool_json_object_begin(j);
        tool_json_member_string(j, "room", room->fork_room);
        tool_json_member_uint(j, "version", room->fork_version);
        tool_json_object_end(j);
    } else {
        tool_json_null(j);
    }
    if (!rs->is_known) {
        static const char *const unknown[] = {"turn", "phase", "awaiting", "winners", "victory"};
        for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
            tool_json_key(j, unknown[i]);
            tool_json_null(j);
        }
        tool_json_member_string(j, "unknown_because", rs->why_unknown);
    } else {
        tool_json_member_uint(j, "turn", rs->turn);
        tool_json_member_string(j, "phase", engine_phase_name(rs->phase));
        tool_json_member_seats(j, "awaiting", rs->awaiting, cfg->n_seats);
        tool_json_member_seats(j, "winners", rs->winners, cfg->n_seats);
        tool_json_key(j, "victory");
        if (rs->phase == ENGINE_PHASE_GAME_OVER)
            tool_json_string(j, tool_victory_name(rs->victory_kind));
        else
            tool_json_null(j);
    }
    tool_json_object_end(j);
}

static void list_text(const ledger_room_info *room, const room_status *rs, int is_first)
{
    const engine_config *cfg = &room->config;
    char when[TOOL_ISO_TIME_CHARS];
    tool_iso_time(when, room->created_at);
    if (is_first)
        printf("%-8s  %7s  %-8s  %4s  %-14s  %-24s  %-53s  %s\n", "ROOM", "VERSION", "RULES",
               "TURN", "PHASE", "CREATED", "FACTIONS", "STATUS");
    char turn[8] = "?";
    if (rs->is_known)
        snprintf(turn, sizeof turn, "%u", rs->turn);
    char factions[ENGINE_MAX_SEATS * 16] = "";
    for (uint8_t s = 0; s < cfg->n_seats; s++)
        snprintf(factions + strlen(factions), sizeof factions - strlen(factions), "%s%s",
                 s != 0 ? "," : "", tool_seat_faction(cfg, s));
    printf("%-8s  %7u  %-8s  %4s  %-14s  %-24s  %-53s  ", room->room, room->version,
           cfg->is_advanced ? "advanced" : "basic", turn,
           rs->is_known ? engine_phase_name(rs->phase) : "?", when, factions);
    if (room->is_fork)
        printf("fork of %s at %u; ", room->fork_room, room->fork_version);
    if (!rs->is_known) {
        printf("? (%s)", rs->why_unknown);
    } else if (rs->phase == ENGINE_PHASE_GAME_OVER && rs->winners == 0) {
        fputs("over, no winner", stdout);
    } else if (rs->phase == ENGINE_PHASE_GAME_OVER) {
        fputs("won by ", stdout);
        print_seats(rs->winners, cfg);
        printf(" (%s)", tool_victory_name(rs->victory_kind));
    } else if (rs->awaiting == 0) {
        fputs("awaiting nobody", stdout);
    } else {
        fputs("awaiting ", stdout);
        print_seats(rs->awaiting, cfg);
    }
    putchar('\n');
}

static int room_list(int argc, char **argv, tool_globals *g)
{
    int r = tool_args_parse(g, argc, argv, NULL, NULL, 0, NULL, help);
    if (r != TOOL_PARSED)
        return r == TOOL_HELP ? TOOL_EXIT_OK : TOOL_EXIT_USAGE;
    ledger *db;
    int ex = tool_ledger_open(&db, g, 1);
    if (ex != TOOL_EXIT_OK)
        return ex;
    char (*codes)[SCHEMA_ROOM_CHARS + 1] = NULL;
    size_t n = 0;
    int rc = tool_room_codes(&codes, &n, db);
    tool_json j;
    if (rc == 0 && g->is_json) {
        tool_json_init(&j, stdout);
        tool_json_array_begin(&j);
    }
    for (size_t i = 0; i < n && rc == 0; i++) {
        ledger_room_info info;
        room_status rs;
        rc = ledger_room_info_get(db, &info, codes[i]);
        if (rc == 0)
            rc = room_status_get(&rs, db, &info);
        if (rc != 0)
            break;
        if (g->is_json)
            list_json(&j, &info, &rs);
        else
            list_text(&info, &rs, i == 0);
    }
    if (rc != 0) {
        ex = tool_ledger_fail(g, db, rc);
    } else if (g->is_json) {
        tool_json_array_end(&j);
        tool_json_finish(&j);
    } else if (n == 0) {
        printf("no rooms in %s\n", g->db_path);
    }
    free(codes);
    ledger_close(db);
    return ex;
}

/* ============================================================== fork */

static int room_fork(int argc, char **argv, tool_globals *g)
{
    const char *at_s = NULL;
    const tool_opt opts[] = {
        {"--at", "V", &at_s, NULL},
        {NULL, NULL, NULL, NULL},
    };
    const char *pos[1];
    size_t n_pos = 0;
    int r = tool_args_parse(g, argc, argv, opts, pos, 1, &n_pos, help);
    if (r != TOOL_PARSED)
        return r == TOOL_HELP ? TOOL_EXIT_OK : TOOL_EXIT_USAGE;
    if (n_pos == 0 || at_s == NULL) {
        tool_err(g, "missing %s (see mentat room --help)", n_pos == 0 ? "ROOM" : "--at V");
        return TOOL_EXIT_USAGE;
    }
    ledger *db;
    ledger_room_info info;
    uint32_t at;
    int ex = tool_open_room_at(&db, &info, &at, g, 0, pos[0], at_s);
    if (ex != TOOL_EXIT_OK)
        return ex;
    char room[SCHEMA_ROOM_CHARS + 1];
    int rc = ledger_room_fork(db, room, info.room, at);
    if (rc != 0) {
        ex = tool_ledger_fail(g, db, rc);
        goto out;
    }
    if (g->is_json) {
        tool_json j;
        tool_json_init(&j, stdout);
        tool_json_object_begin(&j);
        tool_json_member_string(&j, "room", room);
        tool_json_member_string(&j, "fork_of", info.room);
        tool_json_member_uint(&j, "fork_version", at);
        tool_json_object_end(&j);
        tool_json_finish(&j);
    } else {
        printf("%s\n", room);
    }
out:
    return tool_ledger_close(g, db, ex);
}

/* ============================================================ reseal */

static void reseal_json(tool_json *j, const char *room, const ledger_reseal_report *rep)
{
    tool_json_object_begin(j);
    tool_json_member_string(j, "room", room);
    tool_json_member_uint(j, "from_audit_key_id", rep->from_key_id);
    tool_json_member_uint(j, "to_audit_key_id", rep->to_key_id);
    tool_json_member_bool(j, "room_key", rep->has_room_key);
    tool_json_member_bool(j, "resealed", !rep->is_unchanged);
    tool_json_object_end(j);
}

static int room_reseal(int argc, char **argv, tool_globals *g)
{
    const char *pub_path = NULL;
    int is_all = 0;
    const tool_opt opts[] = {
        {"--all", NULL, NULL, &is_all},
        {"--to-audit-key", "PUBFILE", &pub_path, NULL},
        {NULL, NULL, NULL, NULL},
    };
    const char *pos[1];
    size_t n_pos = 0;
    int r = tool_args_parse(g, argc, argv, opts, pos, 1, &n_pos, help);
    if (r != TOOL_PARSED)
        return r == TOOL_HELP ? TOOL_EXIT_OK : TOOL_EXIT_USAGE;
    if ((n_pos == 1) == (is_all != 0)) {
        tool_err(g, "give either ROOM or --all (see mentat room --help)");
        return TOOL_EXIT_USAGE;
    }
    if (pub_path == NULL) {
        tool_err(g, "missing --to-audit-key PUBFILE (see mentat room --help)");
        return TOOL_EXIT_USAGE;
    }
    uint8_t pk[SCHEMA_KEY_BYTES];
    char err[SCHEMA_ERRMSG] = "";
    if (ledger_audit_public_load(pk, pub_path, err) != 0) {
        tool_err(g, "--to-audit-key: %s", err);
        return TOOL_EXIT_USAGE;
    }
    ledger *db;
    int ex = tool_ledger_open(&db, g, 0);
    if (ex != TOOL_EXIT_OK)
        return ex;
    char (*codes)[SCHEMA_ROOM_CHARS + 1] = NULL;
    size_t n = 0;
    int rc = 0;
    ledger_reseal_report rep;
    if (is_all) {
        rc = tool_room_codes(&codes, &n, db);
        if (rc != 0) {
            ex = tool_ledger_fail(g, db, rc);
            goto out;
        }
    } else {
        ledger_room_info info;
        ex = tool_room_get(&info, db, g, pos[0]);
        if (ex != TOOL_EXIT_OK)
            goto out;
        codes = malloc(sizeof *codes);
        if (codes == NULL) {
            tool_err(g, "out of memory");
            ex = TOOL_EXIT_USAGE;
            goto out;
        }
        memcpy(codes[0], info.room, sizeof codes[0]);
        n = 1;
    }
    /* Every room is checked before any is written: one that cannot be
     * resealed leaves them all as they were. */
    for (size_t i = 0; i < n; i++) {
        rc = ledger_room_reseal(db, &rep, codes[i], pk, 1);
        if (rc != 0 && n > 1) {
            tool_err(g, "%s; nothing resealed (%zu rooms)", ledger_errmsg(db), n);
            ex = tool_exit_for(rc);
            goto out;
        }
        if (rc != 0) {
            ex = tool_ledger_fail(g, db, rc);
            goto out;
        }
    }
    int is_progress = is_all && isatty(STDERR_FILENO);
    tool_json j;
    if (g->is_json) {
        tool_json_init(&j, stdout);
        tool_json_object_begin(&j);
        tool_json_key(&j, "rooms");
        tool_json_array_begin(&j);
    }
    size_t n_done = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        if (is_progress) {
            fprintf(stderr, "\rreseal: room %zu of %zu", i + 1, n);
            fflush(stderr);
        }
        rc = ledger_room_reseal(db, &rep, codes[i], pk, 0);
        if (rc != 0)
            break;
        n_done += !rep.is_unchanged;
        if (g->is_json)
            reseal_json(&j, codes[i], &rep);
        else if (rep.is_unchanged)
            printf("%s already sealed to audit key %08x\n", codes[i], rep.to_key_id);
        else
            printf("%s resealed from audit key %08x to %08x%s\n", codes[i], rep.from_key_id,
                   rep.to_key_id, rep.has_room_key ? " (seed and room key)" : " (seed)");
    }
    if (is_progress) {
        fprintf(stderr, "\r%40s\r", "");
        fflush(stderr);
    }
    if (g->is_json) {
        tool_json_array_end(&j);
        tool_json_member_uint(&j, "resealed", n_done);
        tool_json_member_uint(&j, "n_rooms", n);
        tool_json_object_end(&j);
    }
    if (rc != 0) {
        /* Rooms before this one are resealed, this one and the rest are
         * not: each is whole, and a second run finishes the job. */
        if (g->is_json)
            tool_json_finish(&j);
        ex = tool_ledger_fail(g, db, rc);
        goto out;
    }
    if (g->is_json)
        tool_json_finish(&j);
out:
    free(codes);
    return tool_ledger_close(g, db, ex);
}

/* ========================================================= dispatch */

int cmd_room(int argc, char **argv, const tool_globals *gin)
{
    tool_globals g = *gin;
    /* The action word is the first argument that is neither a global
     * option nor its value; the rest goes to the action's own parser. */
    int k = 1;
    while (k < argc) {
        const char *a = argv[k];
        if (strcmp(a, "--json") == 0 || strncmp(a, "--db=", 5) == 0
            || strncmp(a, "--keys=", 7) == 0)
            k++;
        else if ((strcmp(a, "--db") == 0 || strcmp(a, "--keys") == 0) && k + 1 < argc)
            k += 2;
        else
            break;
    }
    int (*run)(int, char **, tool_globals *) = NULL;
    if (k < argc && strcmp(argv[k], "create") == 0) {
        run = room_create;
        g.cmd = "room create";
    } else if (k < argc && strcmp(argv[k], "list") == 0) {
        run = room_list;
        g.cmd = "room list";
    } else if (k < argc && strcmp(argv[k], "fork") == 0) {
        run = room_fork;
        g.cmd = "room fork";
    } else if (k < argc && strcmp(argv[k], "reseal") == 0) {
        run = room_reseal;
        g.cmd = "room reseal";
    }
    if (run == NULL) {
        int r = tool_args_parse(&g, argc, argv, NULL, NULL, 0, NULL, help);
        if (r == TOOL_HELP)
            return TOOL_EXIT_OK;
        if (r == TOOL_PARSED)
            tool_err(&g, "missing subcommand: create, list, fork or reseal (see mentat room --help)");
        return TOOL_EXIT_USAGE;
    }
    /* argv without the action word, argv[0] kept. */
    char **sub = malloc((size_t)argc * sizeof *sub);
    if (sub == NULL) {
        tool_err(&g, "out of memory");
        return TOOL_EXIT_USAGE;
    }
    int n = 0;
    for (int i = 0; i < argc; i++)
        if (i != k)
            sub[n++] = argv[i];
    int ex = run(n, sub, &g);
    free(sub);
    return ex;
}
