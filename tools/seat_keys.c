/*
 * seat_keys.c - the seat keys a command signs its appends with (`act
 * --seat-key`, `play --seat-key`): secret key files read and matched to
 * the seats a room binds, and the append that signs a bound seat's action
 * with its key (ledger/seat_sig.c) and leaves an unbound seat's unsigned.
 *
 * Layer: tools. Secret keys live only in a tool_seat_keys and are wiped
 * by tool_seat_keys_wipe; nothing here writes a key, prints one or
 * appends an unbound seat's action with a signature.
 */
#include <string.h>

#include <sodium.h>

#include "tools/internal.h"

#define SEAT_KEY_PATH_MAX 1024

void tool_seat_keys_wipe(tool_seat_keys *k)
{
    sodium_memzero(k, sizeof *k);
}

/* One key file: its secret key joins k at the seat the room binds to its
 * public key. */
static int load_one(tool_seat_keys *k, const tool_globals *g, const ledger_seat_keys *bound,
                    const engine_config *cfg, const char *path)
{
    uint8_t sk[LEDGER_SEAT_SECRET_BYTES], pk[SCHEMA_KEY_BYTES];
    char err[SCHEMA_ERRMSG] = "";
    if (ledger_seat_key_load(sk, pk, path, err) != 0) {
        tool_err(g, "--seat-key: %s", err);
        return TOOL_EXIT_USAGE;
    }
    unsigned seat = 0;
    while (seat < cfg->n_seats &&
           !((bound->bound >> seat & 1) && sodium_memcmp(bound->key[seat], pk, sizeof pk) == 0))
        seat++;
    int ex = TOOL_EXIT_OK;
    if (seat == cfg->n_seats) {
        tool_err(g, "--seat-key: %s is the key of no seat of this room", path);
        ex = TOOL_EXIT_USAGE;
    } else if (k->have >> seat & 1) {
        tool_err(g, "--seat-key: seat %u has two keys", seat + 1u);
        ex = TOOL_EXIT_USAGE;
    } else {
        memcpy(k->sk[seat], sk, sizeof sk);
        k->have |= (uint16_t)(1u << seat);
    }
    sodium_memzero(sk, sizeof sk);
    return ex;
}

int tool_seat_keys_load(tool_seat_keys *k, const tool_globals *g, ledger *db,
                        const ledger_room_info *info, const char *list, uint16_t needed)
{
    memset(k, 0, sizeof *k);
    ledger_seat_keys bound;
    int rc = ledger_room_seat_keys(db, &bound, info->room);
    if (rc != 0)
        return tool_ledger_fail(g, db, rc);
    k->bound = bound.bound;
    for (const char *p = list; p != NULL && *p != '\0';) {
        const char *end = strchr(p, ',');
        size_t n = end != NULL ? (size_t)(end - p) : strlen(p);
        char path[SEAT_KEY_PATH_MAX];
        if (n == 0 || n >= sizeof path) {
            tool_err(g, "--seat-key: %s", n == 0 ? "an empty file name in the list"
                                                 : "a file name too long");
            tool_seat_keys_wipe(k);
            return TOOL_EXIT_USAGE;
        }
        memcpy(path, p, n);
        path[n] = '\0';
        int ex = load_one(k, g, &bound, &info->config, path);
        if (ex != TOOL_EXIT_OK) {
            tool_seat_keys_wipe(k);
            return ex;
        }
        p = end != NULL ? end + 1 : NULL;
    }
    uint16_t missing = (uint16_t)(k->bound & needed & ~k->have);
    if (missing != 0) {
        unsigned s = 0;
        while (!(missing >> s & 1))
            s++;
        tool_err(g, "seat %u (%s) is bound to a key: give its --seat-key FILE; nothing written",
                 s + 1u, tool_seat_faction(&info->config, (uint8_t)s));
        tool_seat_keys_wipe(k);
        return TOOL_EXIT_USAGE;
    }
    return TOOL_EXIT_OK;
}

int tool_seat_keys_append(const tool_seat_keys *k, ledger *db, ledger_append_result *res,
                          const char *room, uint32_t expected, const engine_action *act)
{
    memset(res, 0, sizeof *res);
    if (act->seat >= ENGINE_MAX_SEATS || !(k->bound >> act->seat & 1) ||
        !(k->have >> act->seat & 1))
        return ledger_append_signed(db, res, room, expected, act, NULL);
    uint8_t prev[SCHEMA_HASH_BYTES], sig[SCHEMA_SIG_BYTES];
    int rc = ledger_chain_hash(db, prev, room, expected);
    if (rc == LEDGER_ENOTFOUND)
        return LEDGER_ECONFLICT; /* the version is past the head: stale */
    if (rc != 0)
        return rc;
    rc = ledger_seat_sign(sig, k->sk[act->seat], room, expected, prev, act);
    if (rc != 0)
        return rc;
    return ledger_append_signed(db, res, room, expected, act, sig);
}
