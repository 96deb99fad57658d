/*
 * print_state.c - the auditor's full state of a room as text or JSON: the
 * phase machine, every seat's holdings (hidden ones included: hands,
 * traitors, the prediction), the forces and the spice on the board.
 *
 * Layer: tools. It only reads an engine_state it is given, through the
 * engine's name functions; it never folds. Everything it prints is secret
 * to someone: it is the auditor's view, not a seat's (a per-seat view
 * will print engine_view's output next to it).
 */
#include <string.h>

#include "tools/internal.h"

/* ============================================================ shared */

/* The seat playing faction f, or -1. */
static int seat_of(const engine_state *st, unsigned f)
{
    for (unsigned s = 0; s < st->config.n_seats; s++)
        if (st->config.faction[s] == f)
            return (int)s;
    return -1;
}

static const char *or_unknown(const char *s)
{
    return s != NULL ? s : "?";
}

/* Location as "Arrakeen" or "Arrakeen, sector 9". */
static void location_text(char *out, size_t cap, unsigned loc)
{
    const char *name = or_unknown(engine_territory_name(engine_location_territory(loc)));
    int sector = engine_location_sector(loc);
    if (sector == ENGINE_NO_SECTOR)
        snprintf(out, cap, "%s", name);
    else
        snprintf(out, cap, "%s, sector %d", name, sector);
}

/* How the game was won, for output: a word per engine_victory_kind. */
static const char *victory_name(unsigned v)
{
    switch ((engine_victory_kind)v) {
    case ENGINE_VICTORY_NONE: return "none";
    case ENGINE_VICTORY_STRONGHOLDS: return "strongholds";
    case ENGINE_VICTORY_PREDICTION: return "prediction";
    case ENGINE_VICTORY_FREMEN: return "fremen";
    case ENGINE_VICTORY_GUILD: return "guild";
    case ENGINE_VICTORY_DEFAULT_FREMEN: return "default_fremen";
    case ENGINE_VICTORY_MOST_STRONGHOLDS: return "most_strongholds";
    }
    return "?";
}

/* ============================================================== text */

static void print_seat(FILE *f, const engine_state *st, uint8_t s)
{
    const engine_seat_state *ss = &st->seat[s];
    fprintf(f, "seat %u %s: spice %u, reserves %u", s + 1u,
            or_unknown(engine_faction_name(ss->faction)), ss->spice, ss->reserves);
    if (ss->special_reserves != 0)
        fprintf(f, " (+%u special)", ss->special_reserves);
    fprintf(f, ", tanks %u", ss->tanks);
    if (ss->special_tanks != 0)
        fprintf(f, " (+%u special)", ss->special_tanks);
    fputc('\n', f);

    int n = 0;
    fputs("  hand:", f);
    for (unsigned c = 0; c < st->n_cards && c < ENGINE_TREACHERY_MAX; c++)
        if (st->card[c].place == ENGINE_PLACE_HAND && st->card[c].holder == s)
            fprintf(f, "%s %s (#%u)", n++ != 0 ? "," : "",
                    or_unknown(engine_card_kind_name(st->card_kind[c])), c);
    fputs(n == 0 ? " (none)\n" : "\n", f);

    int n_held = 0, n_dealt = 0;
    for (unsigned l = 0; l < ENGINE_LEADER_COUNT; l++)
        if (st->traitor[l].holder == s) {
            n_held += st->traitor[l].place == ENGINE_PLACE_HAND;
            n_dealt += st->traitor[l].place == ENGINE_PLACE_DEALT;
        }
    if (n_held != 0 || n_dealt == 0) {
        n = 0;
        fputs("  traitors:", f);
        for (unsigned l = 0; l < ENGINE_LEADER_COUNT; l++)
            if (st->traitor[l].place == ENGINE_PLACE_HAND && st->traitor[l].holder == s)
                fprintf(f, "%s %s", n++ != 0 ? "," : "", or_unknown(engine_leader_name(l)));
        fputs(n == 0 ? " (none)\n" : "\n", f);
    }
    if (n_dealt != 0) {
        n = 0;
        fputs("  traitors dealt, to choose from:", f);
        for (unsigned l = 0; l < ENGINE_LEADER_COUNT; l++)
            if (st->traitor[l].place == ENGINE_PLACE_DEALT && st->traitor[l].holder == s)
                fprintf(f, "%s %s", n++ != 0 ? "," : "", or_unknown(engine_leader_name(l)));
        fputc('\n', f);
    }
    n = 0;
    for (unsigned l = 0; l < ENGINE_LEADER_COUNT; l++)
        if (st->leader[l].place == ENGINE_PLACE_TANKS && engine_leader_faction(l) == ss->faction)
            fprintf(f, "%s %s", n++ == 0 ? "  leaders in the tanks:" : ",",
                    or_unknown(engine_leader_name(l)));
    if (n != 0)
        fputc('\n', f);
}

void tool_state_print(FILE *f, const char *room, uint32_t version, uint32_t head,
                      const engine_state *st)
{
    const engine_config *cfg = &st->config;
    fprintf(f, "room %s at version %u (head %u), %s rules, %u turns\n", room, version, head,
            cfg->is_advanced ? "advanced" : "basic", cfg->turn_limit);
    fprintf(f, "turn %u, phase %s, storm in sector %u\n", st->turn,
            or_unknown(engine_phase_name(st->phase)), st->storm_sector);
    uint16_t awaiting = engine_state_awaiting(st);
    fputs("awaiting:", f);
    int n = 0;
    for (uint8_t s = 0; s < cfg->n_seats; s++)
        if (awaiting & (1u << s))
            fprintf(f, "%s seat %u %s", n++ != 0 ? "," : "", s + 1u,
                    tool_seat_faction(cfg, s));
    fputs(n == 0 ? " nobody\n" : "\n", f);
    n = 0;
    for (uint8_t s = 0; s < cfg->n_seats && s < ENGINE_MAX_SEATS; s++)
        if (st->ally[s] < cfg->n_seats && st->ally[s] > s)
            fprintf(f, "%s %s + %s", n++ == 0 ? "alliances:" : ",", tool_seat_faction(cfg, s),
                    tool_seat_faction(cfg, st->ally[s]));
    if (n != 0)
        fputc('\n', f);
    if (st->phase == ENGINE_PHASE_GAME_OVER) {
        fputs("winners:", f);
        n = 0;
        for (uint8_t s = 0; s < cfg->n_seats; s++)
            if (st->winners & (1u << s))
                fprintf(f, "%s seat %u %s", n++ != 0 ? "," : "", s + 1u,
                        tool_seat_faction(cfg, s));
        fprintf(f, "%s (victory: %s)\n", n == 0 ? " nobody" : "", victory_name(st->victory_kind));
    }
    if (st->prediction_turn != 0)
        fprintf(f, "prediction (Bene Gesserit): %s wins on turn %u\n",
                or_unknown(engine_faction_name(st->prediction_faction)), st->prediction_turn);
    fprintf(f, "treachery deck %u, discard %u; spice deck %u, discard %u\n", st->n_deck,
            st->n_discard, st->n_spice_deck, st->n_spice_discard);

    fputc('\n', f);
    for (uint8_t s = 0; s < cfg->n_seats && s < ENGINE_MAX_SEATS; s++)
        print_seat(f, st, s);

    int bg = seat_of(st, ENGINE_FACTION_BENE_GESSERIT);
    fputs("\nforces on the board:\n", f);
    n = 0;
    for (unsigned loc = 0; loc < ENGINE_LOCATION_COUNT; loc++) {
        char where[96];
        location_text(where, sizeof where, loc);
        for (uint8_t s = 0; s < cfg->n_seats && s < ENGINE_MAX_SEATS; s++) {
            unsigned plain = st->forces[loc][s], special = st->special[loc][s];
            unsigned advisors = (int)s == bg ? st->advisors[loc] : 0;
            if (plain == 0 && special == 0 && advisors == 0)
                continue;
            n++;
            fprintf(f, "  %-34s seat %u %-14s %3u", where, s + 1u, tool_seat_faction(cfg, s),
                    plain);
            if (special != 0)
                fprintf(f, " (+%u special)", special);
            if (advisors != 0)
                fprintf(f, " (advisors %u)", advisors);
            fputc('\n', f);
        }
    }
    if (n == 0)
        fputs("  (none)\n", f);

    fputs("\nspice on the board:\n", f);
    n = 0;
    for (unsigned loc = 0; loc < ENGINE_LOCATION_COUNT; loc++) {
        if (st->spice[loc] == 0)
            continue;
        char where[96];
        location_text(where, sizeof where, loc);
        fprintf(f, "  %-34s %3u\n", where, st->spice[loc]);
        n++;
    }
    if (n == 0)
        fputs("  (none)\n", f);
}

/* ============================================================== JSON */

static void json_location(tool_json *j, unsigned loc)
{
    tool_json_key(j, "territory");
    tool_json_string(j, or_unknown(engine_territory_slug(engine_location_territory(loc))));
    tool_json_key(j, "sector");
    int sector = engine_location_sector(loc);
    if (sector == ENGINE_NO_SECTOR)
        tool_json_null(j);
    else
        tool_json_int(j, sector);
}

static void json_seat(tool_json *j, const engine_state *st, uint8_t s)
{
    const engine_seat_state *ss = &st->seat[s];
    tool_json_object_begin(j);
    tool_json_key(j, "seat");
    tool_json_uint(j, s + 1u);
    tool_json_key(j, "faction");
    tool_json_string(j, or_unknown(engine_faction_name(ss->faction)));
    tool_json_key(j, "spice");
    tool_json_uint(j, ss->spice);
    tool_json_key(j, "reserves");
    tool_json_uint(j, ss->reserves);
    tool_json_key(j, "special_reserves");
    tool_json_uint(j, ss->special_reserves);
    tool_json_key(j, "tanks");
    tool_json_uint(j, ss->tanks);
    tool_json_key(j, "special_tanks");
    tool_json_uint(j, ss->special_tanks);
    tool_json_key(j, "hand");
    tool_json_array_begin(j);
    for (unsigned c = 0; c < st->n_cards && c < ENGINE_TREACHERY_MAX; c++)
        if (st->card[c].place == ENGINE_PLACE_HAND && st->card[c].holder == s)
            tool_json_string(j, or_unknown(engine_card_kind_slug(st->card_kind[c])));
    tool_json_array_end(j);
    tool_json_key(j, "hand_cards");
    tool_json_array_begin(j);
    for (unsigned c = 0; c < st->n_cards && c < ENGINE_TREACHERY_MAX; c++)
        if (st->card[c].place == ENGINE_PLACE_HAND && st->card[c].holder == s) {
            tool_json_object_begin(j);
            tool_json_key(j, "card");
            tool_json_uint(j, c);
            tool_json_key(j, "kind");
            tool_json_string(j, or_unknown(engine_card_kind_slug(st->card_kind[c])));
            tool_json_object_end(j);
        }
    tool_json_array_end(j);
    tool_json_key(j, "ally");
    if (st->ally[s] < st->config.n_seats)
        tool_json_uint(j, st->ally[s] + 1u);
    else
        tool_json_null(j);
    tool_json_key(j, "traitors");
    tool_json_array_begin(j);
    for (unsigned l = 0; l < ENGINE_LEADER_COUNT; l++)
        if (st->traitor[l].place == ENGINE_PLACE_HAND && st->traitor[l].holder == s)
            tool_json_string(j, or_unknown(engine_leader_slug(l)));
    tool_json_array_end(j);
    tool_json_key(j, "traitors_dealt");
    tool_json_array_begin(j);
    for (unsigned l = 0; l < ENGINE_LEADER_COUNT; l++)
        if (st->traitor[l].place == ENGINE_PLACE_DEALT && st->traitor[l].holder == s)
            tool_json_string(j, or_unknown(engine_leader_slug(l)));
    tool_json_array_end(j);
    tool_json_key(j, "leaders_in_tanks");
    tool_json_array_begin(j);
    for (unsigned l = 0; l < ENGINE_LEADER_COUNT; l++)
        if (st->leader[l].place == ENGINE_PLACE_TANKS && engine_leader_faction(l) == ss->faction)
            tool_json_string(j, or_unknown(engine_leader_slug(l)));
    tool_json_array_end(j);
    tool_json_object_end(j);
}

void tool_state_json(tool_json *j, const char *room, uint32_t version, uint32_t head,
                     const engine_state *st)
{
    const engine_config *cfg = &st->config;
    tool_json_object_begin(j);
    tool_json_key(j, "room");
    tool_json_string(j, room);
    tool_json_key(j, "version");
    tool_json_uint(j, version);
    tool_json_key(j, "head");
    tool_json_uint(j, head);
    tool_json_key(j, "rules");
    tool_json_string(j, cfg->is_advanced ? "advanced" : "basic");
    tool_json_key(j, "turn_limit");
    tool_json_uint(j, cfg->turn_limit);
    tool_json_key(j, "turn");
    tool_json_uint(j, st->turn);
    tool_json_key(j, "phase");
    tool_json_string(j, or_unknown(engine_phase_name(st->phase)));
    tool_json_key(j, "storm_sector");
    tool_json_uint(j, st->storm_sector);
    tool_json_key(j, "awaiting");
    tool_json_array_begin(j);
    uint16_t awaiting = engine_state_awaiting(st);
    for (uint8_t s = 0; s < cfg->n_seats; s++)
        if (awaiting & (1u << s))
            tool_json_uint(j, s + 1u);
    tool_json_array_end(j);
    tool_json_key(j, "winners");
    tool_json_array_begin(j);
    for (uint8_t s = 0; s < cfg->n_seats; s++)
        if (st->winners & (1u << s))
            tool_json_uint(j, s + 1u);
    tool_json_array_end(j);
    tool_json_key(j, "victory");
    if (st->phase == ENGINE_PHASE_GAME_OVER)
        tool_json_string(j, victory_name(st->victory_kind));
    else
        tool_json_null(j);
    tool_json_key(j, "prediction");
    if (st->prediction_turn != 0) {
        tool_json_object_begin(j);
        tool_json_key(j, "faction");
        tool_json_string(j, or_unknown(engine_faction_name(st->prediction_faction)));
        tool_json_key(j, "turn");
        tool_json_uint(j, st->prediction_turn);
        tool_json_object_end(j);
    } else {
        tool_json_null(j);
    }
    tool_json_key(j, "treachery_deck");
    tool_json_uint(j, st->n_deck);
    tool_json_key(j, "treachery_discard");
    tool_json_uint(j, st->n_discard);
    tool_json_key(j, "spice_deck");
    tool_json_uint(j, st->n_spice_deck);
    tool_json_key(j, "spice_discard");
    tool_json_uint(j, st->n_spice_discard);

    tool_json_key(j, "seats");
    tool_json_array_begin(j);
    for (uint8_t s = 0; s < cfg->n_seats && s < ENGINE_MAX_SEATS; s++)
        json_seat(j, st, s);
    tool_json_array_end(j);

    int bg = seat_of(st, ENGINE_FACTION_BENE_GESSERIT);
    tool_json_key(j, "forces");
    tool_json_array_begin(j);
    for (unsigned loc = 0; loc < ENGINE_LOCATION_COUNT; loc++)
        for (uint8_t s = 0; s < cfg->n_seats && s < ENGINE_MAX_SEATS; s++) {
            unsigned plain = st->forces[loc][s], special = st->special[loc][s];
            unsigned advisors = (int)s == bg ? st->advisors[loc] : 0;
            if (plain == 0 && special == 0 && advisors == 0)
                continue;
            tool_json_object_begin(j);
            json_location(j, loc);
            tool_json_key(j, "seat");
            tool_json_uint(j, s + 1u);
            tool_json_key(j, "faction");
            tool_json_string(j, tool_seat_faction(cfg, s));
            tool_json_key(j, "count");
            tool_json_uint(j, plain);
            tool_json_key(j, "special");
            tool_json_uint(j, special);
            tool_json_key(j, "advisors");
            tool_json_uint(j, advisors);
            tool_json_object_end(j);
        }
    tool_json_array_end(j);

    tool_json_key(j, "spice");
    tool_json_array_begin(j);
    for (unsigned loc = 0; loc < ENGINE_LOCATION_COUNT; loc++) {
        if (st->spice[loc] == 0)
            continue;
        tool_json_object_begin(j);
        json_location(j, loc);
        tool_json_key(j, "amount");
        tool_json_uint(j, st->spice[loc]);
        tool_json_object_end(j);
    }
    tool_json_array_end(j);
    tool_json_object_end(j);
}
