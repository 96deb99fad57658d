/*
 * cmd_state.c - `mentat state`: a room after a version, as the auditor
 * sees it (every hidden fact), as one seat sees it (engine_view, and what
 * that seat is asked to decide), or as a spectator sees it.
 *
 * Layer: tools. The state comes from ledger_state_at (checkpoint plus
 * fold, with the room's seed unsealed by the audit key), or without that
 * key the public view stored at the append (inspect_room_view); views come from
 * engine_view and legal families from engine_legal_actions; the printing
 * is the library's (inspect/view_json.c). Nothing is written.
 */
#include <stdlib.h>

#include "inspect/inspect.h"
#include "tools/internal.h"

static const char help[] =
    "usage: mentat state ROOM [--at V] [--seat S | --public]\n"
    "\n"
    "Prints the state of ROOM after version V (default the head; 0 is the\n"
    "opening position): turn, phase, storm sector, the seats the game is\n"
    "waiting on, the auction or battle under way, and per seat its faction,\n"
    "spice, reserves, forces in the tanks, treachery hand and traitors; then\n"
    "the forces and the spice on the board.\n"
    "\n"
    "Without --seat or --public this is the auditor's full state: every hidden\n"
    "fact, which needs the audit key (--keys) to unseal the room's seed.\n"
    "Without the audit key, state (and --public) prints the public view stored\n"
    "with each event, and says so (\"keyless\": true in --json); a room stored\n"
    "by an older build keeps no such views and is refused. --seat needs the key.\n"
    "\n"
    "  --seat S    what seat S (1..N or a faction of the room) knows: cards it\n"
    "              has not seen, other seats' traitors, the deck orders, the\n"
    "              prediction, secret dials and an opponent's uncommitted\n"
    "              battle plan show as ? (null in --json). Then what S is asked\n"
    "              to decide now: every legal family, one a line (kind, then\n"
    "              each argument's range) with an example action that\n"
    "              `mentat act --action` accepts as printed, or \"nothing to\n"
    "              decide\".\n"
    "  --public    what a spectator knows (public facts only), and which seats\n"
    "              the game waits on.\n"
    "\n"
    "--json prints one object; a seat's view adds \"legal\": an array of\n"
    "{\"kind\",\"seat\",\"args\":[{\"name\",\"lo\",\"hi\"}...],\"sum\",\"example\"}.\n"
    "\n"
    "Examples:\n"
    "  mentat state K7QX2M9P\n"
    "  mentat state K7QX2M9P --at 0          # the opening deal\n"
    "  mentat state K7QX2M9P --seat atreides # what the Atreides know and may do\n"
    "  mentat state K7QX2M9P --seat 2 --json | jq '.legal'\n"
    "  mentat state K7QX2M9P --public --json | jq '.awaiting'\n"
    "  mentat --keys /empty state K7QX2M9P --json | jq .keyless  # a copy of the file\n";

void tool_state_doc_for(tool_state_doc *d, engine_state *view, engine_legal *legal,
                        const engine_state *st, uint8_t viewer, const char *room,
                        uint32_t version, uint32_t head)
{
    *d = (tool_state_doc){room, version, head, st, NULL, 0, 0};
    if (viewer != ENGINE_SEAT_ENGINE) {
        engine_view(view, st, viewer);
        d->st = view;
    }
    if (viewer < st->config.n_seats) {
        /* What the seat may do is its own private part: the legal families
         * of the full state for that seat only. */
        size_t n = engine_legal_actions(legal, ENGINE_LEGAL_MAX, st, viewer);
        d->legal = legal;
        d->n_legal = n < ENGINE_LEGAL_MAX ? n : ENGINE_LEGAL_MAX;
    }
}

void tool_state_write(FILE *f, int is_json, const tool_state_doc *d)
{
    if (is_json) {
        tool_json j;
        tool_json_init(&j, f);
        tool_state_json(&j, d);
        tool_json_finish(&j);
    } else {
        tool_state_print(f, d);
    }
}

int cmd_state(int argc, char **argv, const tool_globals *gin)
{
    tool_globals g = *gin;
    const char *at_s = NULL, *seat_s = NULL;
    int is_public = 0;
    const tool_opt opts[] = {
        {"--at", "V", &at_s, NULL},
        {"--seat", "S", &seat_s, NULL},
        {"--public", NULL, NULL, &is_public},
        {NULL, NULL, NULL, NULL},
    };
    const char *pos[1];
    size_t n_pos = 0;
    int r = tool_args_parse(&g, argc, argv, opts, pos, 1, &n_pos, help);
    if (r != TOOL_PARSED)
        return r == TOOL_HELP ? TOOL_EXIT_OK : TOOL_EXIT_USAGE;
    if (n_pos == 0) {
        tool_err(&g, "missing ROOM (see mentat state --help)");
        return TOOL_EXIT_USAGE;
    }
    if (seat_s != NULL && is_public) {
        tool_err(&g, "--seat and --public exclude each other");
        return TOOL_EXIT_USAGE;
    }
    uint32_t at = 0;
    if (at_s != NULL && tool_parse_uint(&at, at_s, 0, UINT32_MAX) != 0) {
        tool_err(&g, "--at must be a version, not '%s'", at_s);
        return TOOL_EXIT_USAGE;
    }

    ledger *db;
    ledger_room_info info;
    int ex = tool_open_room_at(&db, &info, NULL, &g, 1, pos[0], NULL);
    if (ex != TOOL_EXIT_OK)
        return ex;
    uint8_t viewer = ENGINE_SEAT_ENGINE;
    if (is_public) {
        viewer = ENGINE_VIEW_PUBLIC;
    } else if (seat_s != NULL) {
        char err[SCHEMA_ERRMSG];
        if (tool_parse_seat(&viewer, seat_s, &info.config, err) != 0) {
            tool_err(&g, "--seat: %s", err);
            ex = TOOL_EXIT_USAGE;
            goto out;
        }
    }
    if (at_s == NULL)
        at = info.version;
    if (at > info.version) {
        tool_err(&g, "--at %u is past the head of %s (version %u)", at, info.room,
                 info.version);
        ex = TOOL_EXIT_USAGE;
        goto out;
    }
    engine_state st;
    int is_keyless = 0;
    int rc = ledger_state_at(db, &st, info.room, at);
    if (rc == LEDGER_EKEY && viewer >= info.config.n_seats) {
        /* No audit key: the public view stored at the append, said so. */
        rc = inspect_room_view(&st, &is_keyless, db, info.room, at, ENGINE_VIEW_PUBLIC);
        viewer = ENGINE_SEAT_ENGINE; /* st is the view already */
    }
    if (rc != 0) {
        ex = tool_ledger_fail(&g, db, rc);
        goto out;
    }

    static engine_state view;
    static engine_legal legal[ENGINE_LEGAL_MAX];
    tool_state_doc d;
    tool_state_doc_for(&d, &view, legal, &st, viewer, info.room, at, info.version);
    d.is_keyless = is_keyless;
    tool_state_write(stdout, g.is_json, &d);
out:
    ledger_close(db);
    return ex;
}
