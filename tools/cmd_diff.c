/*
 * cmd_diff.c - `mentat diff`: what changed between two versions of a room
 * as one viewer could see it: turn, phase, storm, who is awaited, forces
 * and spice per location, each seat's spice, reserves and Tanks, hands as
 * known, traitors, alliances, leaders, the prediction and the winners.
 *
 * Layer: tools. Both states come from inspect_room_view (each a view for
 * the same viewer; without the audit key the public views stored at the
 * appends); the comparing is inspect_diff's. Nothing is written.
 */
#include <stdlib.h>

#include "inspect/inspect.h"
#include "tools/internal.h"

static const char help[] =
    "usage: mentat diff ROOM V1 V2 [--seat S | --public | --auditor]\n"
    "\n"
    "Replays ROOM to versions V1 and V2 and prints, one a line, what changed\n"
    "from the first to the second as one viewer could see it: turn, phase,\n"
    "storm sector, seats awaited, forces (plain, elite, advisors) and spice per\n"
    "location, each seat's spice, reserves and forces in the Tanks, cards\n"
    "gained, lost or newly seen in each hand (named only when the viewer knows\n"
    "the face), traitors the viewer can see, alliances, leaders, the prediction\n"
    "and the winners. V1 may be after V2 (the change backwards).\n"
    "\n"
    "  --seat S    as seat S (1..N or a faction of the room) could see it\n"
    "  --public    as a spectator could see it\n"
    "  --auditor   everything (the default)\n"
    "\n"
    "Without the audit key the auditor's and the public's diff compares the\n"
    "public views stored with the events, and says so (\"keyless\": true in\n"
    "--json); --seat needs the key.\n"
    "\n"
    "--json prints {\"room\",\"from\",\"to\",\"viewer\",\"changes\":[{\"kind\",\"seat\",\n"
    "\"faction\",\"where\",\"before\",\"after\",\"text\"}]}: \"where\" names the\n"
    "location ({\"territory\",\"sector\"}), card number or leader slug the change\n"
    "is about, or is null; before and after are numbers, card kinds (null: no\n"
    "card, \"unknown\": a face the viewer has not seen), seats (1-based) or lists\n"
    "of seats (awaiting, winners).\n"
    "\n"
    "Examples:\n"
    "  mentat diff K7QX2M9P 41 42 --seat harkonnen\n"
    "  mentat diff K7QX2M9P 0 100 --public --json | jq '.changes[].text'\n";

#define DIFF_MAX 2048

static void where_json(tool_json *j, const inspect_change *c)
{
    switch ((inspect_change_kind)c->kind) {
    case INSPECT_CHANGE_FORCES:
    case INSPECT_CHANGE_ELITE:
    case INSPECT_CHANGE_ADVISORS:
    case INSPECT_CHANGE_BOARD_SPICE: {
        unsigned loc = (unsigned)c->where;
        tool_json_object_begin(j);
        tool_json_key(j, "territory");
        const char *slug = engine_territory_slug(engine_location_territory(loc));
        tool_json_string(j, slug != NULL ? slug : "?");
        tool_json_key(j, "sector");
        int sector = engine_location_sector(loc);
        if (sector == ENGINE_NO_SECTOR)
            tool_json_null(j);
        else
            tool_json_int(j, sector);
        tool_json_object_end(j);
        return;
    }
    case INSPECT_CHANGE_CARD_GAINED:
    case INSPECT_CHANGE_CARD_LOST:
    case INSPECT_CHANGE_CARD_SEEN:
        tool_json_object_begin(j);
        tool_json_member_int(j, "card", c->where);
        tool_json_object_end(j);
        return;
    case INSPECT_CHANGE_TRAITOR:
    case INSPECT_CHANGE_LEADER: {
        const char *slug = engine_leader_slug((unsigned)c->where);
        tool_json_object_begin(j);
        tool_json_member_string(j, "leader", slug != NULL ? slug : "?");
        tool_json_object_end(j);
        return;
    }
    case INSPECT_CHANGE_TURN:
    case INSPECT_CHANGE_PHASE:
    case INSPECT_CHANGE_STORM:
    case INSPECT_CHANGE_AWAITING:
    case INSPECT_CHANGE_SEAT_SPICE:
    case INSPECT_CHANGE_RESERVES:
    case INSPECT_CHANGE_ELITE_RESERVES:
    case INSPECT_CHANGE_TANKS:
    case INSPECT_CHANGE_ELITE_TANKS:
    case INSPECT_CHANGE_ALLIANCE:
    case INSPECT_CHANGE_PREDICTION:
    case INSPECT_CHANGE_WINNERS:
    case INSPECT_CHANGE_KIND_COUNT:
        break;
    }
    tool_json_null(j);
}

/* A card's face in before/after: its kind slug, or null when unknown. */
static void value_json(tool_json *j, const inspect_change *c, int32_t v)
{
    if (c->kind == INSPECT_CHANGE_AWAITING || c->kind == INSPECT_CHANGE_WINNERS) {
        /* A mask of seats: the seats, 1-based. */
        tool_json_array_begin(j);
        for (unsigned s = 0; s < ENGINE_MAX_SEATS; s++)
            if ((uint32_t)v & (1u << s))
                tool_json_uint(j, s + 1u);
        tool_json_array_end(j);
        return;
    }
    if (c->kind == INSPECT_CHANGE_ALLIANCE) {
        if (v >= 0 && v < ENGINE_MAX_SEATS)
            tool_json_uint(j, (uint64_t)v + 1u);
        else
            tool_json_null(j);
        return;
    }
    int is_card = c->kind == INSPECT_CHANGE_CARD_GAINED || c->kind == INSPECT_CHANGE_CARD_LOST ||
                  c->kind == INSPECT_CHANGE_CARD_SEEN;
    if (!is_card) {
        tool_json_int(j, v);
        return;
    }
    const char *slug = v >= 0 && v != ENGINE_CARD_KIND_UNKNOWN
                           ? engine_card_kind_slug((unsigned)v) : NULL;
    if (v < 0)
        tool_json_null(j);
    else if (slug == NULL)
        tool_json_string(j, "unknown");
    else
        tool_json_string(j, slug);
}

int cmd_diff(int argc, char **argv, const tool_globals *gin)
{
    tool_globals g = *gin;
    const char *seat_s = NULL;
    int is_public = 0, is_auditor = 0;
    const tool_opt opts[] = {
        {"--seat", "S", &seat_s, NULL},
        {"--public", NULL, NULL, &is_public},
        {"--auditor", NULL, NULL, &is_auditor},
        {NULL, NULL, NULL, NULL},
    };
    const char *pos[3];
    size_t n_pos = 0;
    int r = tool_args_parse(&g, argc, argv, opts, pos, 3, &n_pos, help);
    if (r != TOOL_PARSED)
        return r == TOOL_HELP ? TOOL_EXIT_OK : TOOL_EXIT_USAGE;
    if (n_pos != 3) {
        tool_err(&g, "give ROOM V1 V2 (see mentat diff --help)");
        return TOOL_EXIT_USAGE;
    }
    uint32_t v[2];
    for (unsigned i = 0; i < 2; i++)
        if (tool_parse_uint(&v[i], pos[1 + i], 0, UINT32_MAX) != 0) {
            tool_err(&g, "V%u must be a version, not '%s'", i + 1, pos[1 + i]);
            return TOOL_EXIT_USAGE;
        }

    ledger *db;
    inspect_change *changes = NULL;
    ledger_room_info info;
    int ex = tool_open_room_at(&db, &info, NULL, &g, 1, pos[0], NULL);
    if (ex != TOOL_EXIT_OK)
        return ex;
    uint8_t viewer;
    ex = tool_viewer_parse(&viewer, &g, &info.config, seat_s, is_public, is_auditor,
                           ENGINE_SEAT_ENGINE);
    if (ex != TOOL_EXIT_OK)
        goto out;
    for (unsigned i = 0; i < 2; i++)
        if (v[i] > info.version) {
            tool_err(&g, "version %u is past the head of %s (version %u)", v[i], info.room,
                     info.version);
            ex = TOOL_EXIT_USAGE;
            goto out;
        }
    static engine_state st[2];
    int is_keyless = 0;
    for (unsigned i = 0; i < 2; i++) {
        int rc = inspect_room_view(&st[i], &is_keyless, db, info.room, v[i], viewer);
        if (rc != 0) {
            ex = tool_ledger_fail(&g, db, rc);
            goto out;
        }
    }
    if (is_keyless) /* both: the key is held for both or neither */
        viewer = ENGINE_VIEW_PUBLIC;
    changes = malloc(DIFF_MAX * sizeof *changes);
    if (changes == NULL) {
        tool_err(&g, "out of memory");
        ex = TOOL_EXIT_USAGE;
        goto out;
    }
    size_t n = inspect_diff(changes, DIFF_MAX, &st[0], &st[1]);
    if (n > DIFF_MAX)
        n = DIFF_MAX;
    if (g.is_json) {
        tool_json j;
        tool_json_init(&j, stdout);
        tool_json_object_begin(&j);
        tool_json_member_string(&j, "room", info.room);
        tool_json_member_uint(&j, "from", v[0]);
        tool_json_member_uint(&j, "to", v[1]);
        tool_json_key(&j, "viewer");
        tool_viewer_json(&j, &info.config, viewer);
        if (is_keyless)
            tool_json_member_bool(&j, "keyless", 1);
        tool_json_key(&j, "changes");
        tool_json_array_begin(&j);
        for (size_t i = 0; i < n; i++) {
            const inspect_change *c = &changes[i];
            tool_json_object_begin(&j);
            tool_json_member_string(&j, "kind", inspect_change_kind_name(c->kind));
            tool_json_key(&j, "seat");
            if (c->seat < info.config.n_seats)
                tool_json_uint(&j, c->seat + 1u);
            else
                tool_json_null(&j);
            tool_json_key(&j, "faction");
            if (c->seat < info.config.n_seats)
                tool_json_string(&j, tool_seat_faction(&info.config, c->seat));
            else
                tool_json_null(&j);
            tool_json_key(&j, "where");
            where_json(&j, c);
            tool_json_key(&j, "before");
            value_json(&j, c, c->before);
            tool_json_key(&j, "after");
            value_json(&j, c, c->after);
            tool_json_member_string(&j, "text", c->text);
            tool_json_object_end(&j);
        }
        tool_json_array_end(&j);
        tool_json_object_end(&j);
        tool_json_finish(&j);
    } else {
        char who[128];
        tool_viewer_keyless_text(who, sizeof who, &info.config, viewer, is_keyless);
        printf("%s from version %u to %u as %s: %zu change%s\n", info.room, v[0], v[1], who, n,
               n == 1 ? "" : "s");
        for (size_t i = 0; i < n; i++)
            printf("  %-14s %s\n", inspect_change_kind_name(changes[i].kind), changes[i].text);
    }
out:
    free(changes);
    ledger_close(db);
    return ex;
}
