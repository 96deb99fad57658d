/*
 * scenario_export.c - a room's position at a version written as a
 * scenario document (docs/SCENARIOS.md "Exported positions"): the exact
 * state, every hidden fact, as engine_state_encode writes it, and the
 * readable facts of that state as the document's expectations, so that
 * `mentat scenario` on the file rebuilds the very position and says so.
 *
 * Layer: tools. It reads only the state it is handed (the auditor's full
 * state, from ledger_state_at) and writes JSON; it never opens a ledger.
 * The file it writes holds every secret of the position (hands, traitors,
 * deck orders), and the room's seed when one is given: it is for
 * whoever holds the audit key.
 */
#include <string.h>

#include "tools/internal.h"

/* One {seat, <key>: value} per seat. */
static void per_seat(tool_json *j, const char *list, const char *key, const engine_state *st,
                     unsigned (*value)(const engine_state *st, uint8_t seat))
{
    tool_json_key(j, list);
    tool_json_array_begin(j);
    for (uint8_t s = 0; s < st->config.n_seats; s++) {
        tool_json_object_begin(j);
        tool_json_member_uint(j, "seat", s + 1u);
        tool_json_member_uint(j, key, value(st, s));
        tool_json_object_end(j);
    }
    tool_json_array_end(j);
}

static unsigned seat_spice(const engine_state *st, uint8_t seat)
{
    return st->seat[seat].spice;
}

static unsigned hand_size(const engine_state *st, uint8_t seat)
{
    unsigned n = 0;
    for (unsigned c = 0; c < st->n_cards && c < ENGINE_TREACHERY_MAX; c++)
        n += st->card[c].place == ENGINE_PLACE_HAND && st->card[c].holder == seat;
    return n;
}

int tool_scenario_export(FILE *f, const engine_state *st, const char *room, uint32_t version,
                         const uint8_t *seed)
{
    static uint8_t bytes[ENGINE_STATE_ENCODED_MAX];
    static char hex[2 * ENGINE_STATE_ENCODED_MAX + 1];
    size_t n = engine_state_encode(bytes, sizeof bytes, st);
    if (n == 0)
        return -1;
    tool_hex(hex, bytes, n);
    const engine_config *cfg = &st->config;
    char text[160];
    tool_json j;
    tool_json_init(&j, f);
    tool_json_object_begin(&j);
    snprintf(text, sizeof text, "room %s at version %u", room, version);
    tool_json_member_string(&j, "name", text);
    tool_json_member_string(&j, "description",
                            "Exported by mentat scenario export: the exact position, every "
                            "hidden fact included; the expectations are the position's own "
                            "facts, so replaying it unchanged meets them all.");
    tool_json_member_string(&j, "rules", cfg->is_advanced ? "advanced" : "basic");
    tool_json_key(&j, "factions");
    tool_json_array_begin(&j);
    for (uint8_t s = 0; s < cfg->n_seats; s++)
        tool_json_string(&j, engine_faction_name(cfg->faction[s]));
    tool_json_array_end(&j);
    tool_json_member_uint(&j, "turn_limit", cfg->turn_limit);
    if (seed != NULL) {
        char seed_hex[2 * ENGINE_SEED_BYTES + 1];
        tool_hex(seed_hex, seed, ENGINE_SEED_BYTES);
        tool_json_member_string(&j, "seed_hex", seed_hex);
    }
    tool_json_key(&j, "position");
    tool_json_object_begin(&j);
    tool_json_member_uint(&j, "version", version);
    tool_json_member_string(&j, "state", hex);
    tool_json_object_end(&j);
    tool_json_key(&j, "expect");
    tool_json_object_begin(&j);
    tool_json_member_string(&j, "phase", engine_phase_name(st->phase));
    if (st->phase != ENGINE_PHASE_SETUP)
        tool_json_member_uint(&j, "turn", st->turn);
    tool_json_member_uint(&j, "storm_sector", st->storm_sector);
    tool_json_member_seats(&j, "awaiting", engine_state_awaiting(st), cfg->n_seats);
    tool_json_member_seats(&j, "winners", st->phase == ENGINE_PHASE_GAME_OVER ? st->winners : 0,
              cfg->n_seats);
    per_seat(&j, "seat_spice", "spice", st, seat_spice);
    per_seat(&j, "hand_size", "cards", st, hand_size);
    tool_json_object_end(&j);
    tool_json_object_end(&j);
    tool_json_finish(&j);
    return ferror(f) ? -1 : 0;
}
