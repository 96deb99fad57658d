/*
 * play.c - a small game server's use of the installed library, built by
 * scripts/install-test.sh against `make install` with `pkg-config
 * --cflags --libs mentat` and nothing of the source tree: it makes keys
 * and a ledger in DIR, creates a room, and plays it through the public
 * API (the head's state, the awaited seat's view and legal actions, the
 * append with its receipt) until the game ends or MAX actions, then
 * verifies the room and draws its board. Prints one summary line; exit 0
 * when every action was accepted and the room verifies.
 *
 * It is built from the installed headers and library alone, so it keeps
 * its own first-legal-action chooser rather than the suites' helpers
 * (tests/ledger/helpers.h), which need the source tree and cmocka.
 *
 * Usage: play DIR [MAX]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "inspect/inspect.h"
#include "ledger/ledger.h"
#include "schema/schema.h"

/* The awaited seat's first legal action: family 0 of its legal actions,
 * its lowest arguments, raised in order to meet a required sum. */
static int first_legal(engine_action *out, const engine_state *st, uint8_t seat)
{
    static engine_legal legal[ENGINE_LEGAL_MAX];
    size_t n = engine_legal_actions(legal, ENGINE_LEGAL_MAX, st, seat);
    if (n == 0)
        return 0;
    const engine_legal *l = &legal[0];
    const engine_action_spec *spec = engine_action_spec_of(l->kind);
    memset(out, 0, sizeof *out);
    out->kind = l->kind;
    out->seat = l->seat;
    int total = 0;
    for (unsigned i = 0; i < spec->n_args; i++) {
        out->arg[i] = l->lo[i];
        total += l->lo[i];
    }
    for (unsigned i = 0; l->sum >= 0 && i < spec->n_args && total < l->sum; i++) {
        int room_left = l->hi[i] - out->arg[i];
        int add = l->sum - total < room_left ? l->sum - total : room_left;
        out->arg[i] = (int16_t)(out->arg[i] + add);
        total += add;
    }
    return engine_legal_contains(l, out);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: play DIR [MAX]\n");
        return 2;
    }
    unsigned max = argc > 2 ? (unsigned)atoi(argv[2]) : 4000;
    char keys[512], path[512], err[SCHEMA_ERRMSG];
    snprintf(keys, sizeof keys, "%s/keys", argv[1]);
    snprintf(path, sizeof path, "%s/game.db", argv[1]);
    if (ledger_keygen(keys, err) != 0) {
        fprintf(stderr, "play: keygen: %s\n", err);
        return 1;
    }
    ledger_options opt;
    ledger_options_init(&opt);
    opt.path = path;
    opt.keys_dir = keys;
    ledger *db = NULL;
    if (ledger_open(&db, &opt) != 0) {
        fprintf(stderr, "play: open: %s\n", ledger_errmsg(db));
        return 1;
    }
    engine_config cfg;
    engine_config_init(&cfg);
    cfg.n_seats = 3;
    cfg.faction[0] = ENGINE_FACTION_ATREIDES;
    cfg.faction[1] = ENGINE_FACTION_HARKONNEN;
    cfg.faction[2] = ENGINE_FACTION_FREMEN;
    cfg.turn_limit = 3;
    char room[SCHEMA_ROOM_CHARS + 1];
    if (ledger_room_create(db, room, &cfg) != 0) {
        fprintf(stderr, "play: create: %s\n", ledger_errmsg(db));
        return 1;
    }
    static engine_state st, view;
    unsigned n = 0, refused = 0;
    for (; n < max; n++) {
        uint32_t head;
        if (ledger_head(db, room, &head, NULL) != 0 || ledger_state_at(db, &st, room, head) != 0) {
            fprintf(stderr, "play: head: %s\n", ledger_errmsg(db));
            return 1;
        }
        uint16_t awaiting = engine_state_awaiting(&st);
        if (st.phase == ENGINE_PHASE_GAME_OVER || awaiting == 0)
            break;
        uint8_t seat = 0;
        while (!(awaiting & (1u << seat)))
            seat++;
        engine_view(&view, &st, seat); /* what the seat is shown */
        engine_action act;
        if (!first_legal(&act, &st, seat))
            break;
        ledger_append_result res;
        if (ledger_append(db, &res, room, head, &act) != 0) {
            fprintf(stderr, "play: append: %s\n", ledger_errmsg(db));
            return 1;
        }
        refused += res.verdict != ENGINE_ACCEPTED;
        if (res.verdict != ENGINE_ACCEPTED || res.receipt.version != head + 1)
            break;
    }
    ledger_verify_report rep;
    int bad = ledger_verify_room(db, &rep, room, 1);
    FILE *board = fopen("/dev/null", "w");
    int drawn = board != NULL && inspect_render_svg(board, &view, NULL) == 0;
    if (board != NULL)
        fclose(board);
    printf("played room %s: %u actions, %u refused, phase %s, turn %u, %s, board %s\n", room, n,
           refused, engine_phase_name(st.phase), st.turn, bad == 0 ? "verified" : rep.reason,
           drawn ? "drawn" : "not drawn");
    ledger_close(db);
    return bad == 0 && refused == 0 && n > 50 && drawn ? 0 : 1;
}
