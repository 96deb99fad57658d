/*
 * cmd_act.c - `mentat act`: submits one action of one seat to a room at
 * the version the seat acted on, and prints the signed receipt, or the
 * engine's reason for refusing it, or the conflict with the current head.
 *
 * Layer: tools. The action goes through codec_action_from_json and
 * ledger_append, the same path as every other writer; nothing here judges
 * whether an action is legal.
 */
#include <string.h>

#include <sodium.h>

#include "inspect/inspect.h"
#include "tools/internal.h"

static const char help[] =
    "usage: mentat act ROOM --seat S --version V --action JSON [--seat-key FILE [--bind]]\n"
    "\n"
    "Appends one action to ROOM. S is the seat, 1..N in the order the room's\n"
    "factions were given, or a faction name. V is the version the seat acted\n"
    "on (the room's head version): if the head has moved since, nothing is\n"
    "written and the current head is printed (exit 2); resubmitting the very\n"
    "same action at the same V returns the original receipt (retry: true).\n"
    "\n"
    "Accepted: prints the signed receipt (room, version, event hash, key id,\n"
    "signature, and the signed tree head: the Merkle root of versions\n"
    "1..version and its time), which the seat can keep as proof: `mentat\n"
    "verify --receipts` and `mentat proof` check it later. Refused by the rules: prints\n"
    "the reason and the argument at fault, and exits 2.\n"
    "\n"
    "--seat-key FILE signs the action with the seat's secret key (`mentat seat\n"
    "keygen`): the signature covers the room, V, the chain hash of V and the\n"
    "action. A seat the room binds to a key (`room create --seat-keys`) must\n"
    "sign; one it does not bind must not. A missing, wrong or replayed seat\n"
    "signature is refused with the reason (exit 2), nothing written.\n"
    "\n"
    "--bind (with --seat-key) binds the seat, not bound yet, to that key as\n"
    "its player joins: the action carries the key's public half and its\n"
    "signature of the binding, and from then on every action of the seat\n"
    "must be signed with it. A seat already bound, a key already another\n"
    "seat's, or an action the rules refuse binds nothing (exit 2).\n"
    "\n"
    "JSON is {\"kind\": NAME, field: value, ...}; docs/CLI.md lists every kind.\n"
    "Factions, leaders and territories are named by slug, locations as\n"
    "{\"territory\": SLUG, \"sector\": N}.\n"
    "\n"
    "Examples:\n"
    "  mentat act K7QX2M9P --seat bene_gesserit --version 0 \\\n"
    "      --action '{\"kind\":\"predict\",\"faction\":\"fremen\",\"turn\":5}'\n"
    "  # keep one of the four traitors dealt to seat 1 (mentat state shows them)\n"
    "  mentat act K7QX2M9P --seat 1 --version 1 \\\n"
    "      --action '{\"kind\":\"traitor_pick\",\"leader\":\"feyd_rautha\"}'\n"
    "  mentat act K7QX2M9P --seat fremen --version 7 --seat-key fremen.seat \\\n"
    "      --action '{\"kind\":\"storm_dial\",\"value\":3}'\n"
    "  # join seat 2 with a key of its own: its first signed action binds it\n"
    "  mentat seat keygen atreides.seat\n"
    "  mentat act K7QX2M9P --seat 2 --version 1 --seat-key atreides.seat --bind \\\n"
    "      --action '{\"kind\":\"traitor_pick\",\"leader\":\"duncan_idaho\"}'\n"
    "  mentat act K7QX2M9P --seat fremen --version 7 --json \\\n"
    "      --action '{\"kind\":\"storm_dial\",\"value\":3}'\n";

static void print_receipt(const tool_globals *g, const ledger_append_result *res)
{
    const codec_receipt *rc = &res->receipt;
    char hash[2 * SCHEMA_HASH_BYTES + 1], sig[2 * SCHEMA_SIG_BYTES + 1];
    char root[2 * SCHEMA_HASH_BYTES + 1];
    tool_hex(hash, rc->event_hash, SCHEMA_HASH_BYTES);
    tool_hex(root, rc->tree_root, SCHEMA_HASH_BYTES);
    tool_hex(sig, rc->signature, SCHEMA_SIG_BYTES);
    if (g->is_json) {
        tool_json j;
        tool_json_init(&j, stdout);
        tool_json_object_begin(&j);
        tool_json_member_string(&j, "verdict", "accepted");
        tool_json_member_bool(&j, "retry", res->is_retry);
        inspect_json_receipt_members(&j, rc);
        tool_json_object_end(&j);
        tool_json_finish(&j);
        return;
    }
    printf("accepted%s\n", res->is_retry ? " (a retry: this is the original receipt)" : "");
    printf("room       %s\n", rc->room);
    printf("version    %u\n", rc->version);
    printf("event      %s\n", hash);
    printf("key        %08x\n", rc->key_id);
    printf("signature  %s\n", sig);
    if (rc->has_tree_head)
        printf("tree       %u events, root %s, at %llu\n", rc->version, root,
               (unsigned long long)rc->tree_time);
}

static int print_rejection(const tool_globals *g, const ledger_append_result *res,
                           const engine_action *act)
{
    const char *reason = engine_verdict_name(res->verdict);
    const char *arg = inspect_rejection_arg(act->kind, res->why.arg);
    char text[160];
    inspect_rejection_text(text, sizeof text, res->verdict, act->kind, res->why.arg,
                           res->why.value);
    tool_err(g, "rejected: %s", text);
    if (g->is_json) {
        tool_json j;
        tool_json_init(&j, stdout);
        tool_json_object_begin(&j);
        tool_json_member_string(&j, "verdict", "rejected");
        tool_json_member_string(&j, "reason", reason != NULL ? reason : "unknown_reason");
        tool_json_key(&j, "arg");
        if (arg != NULL)
            tool_json_string(&j, arg);
        else
            tool_json_null(&j);
        tool_json_member_int(&j, "value", res->why.value);
        tool_json_member_string(&j, "detail", text);
        tool_json_object_end(&j);
        tool_json_finish(&j);
    }
    return TOOL_EXIT_USAGE;
}

static int print_conflict(const tool_globals *g, ledger *db, const char *room,
                          uint32_t expected)
{
    uint32_t head = 0;
    uint8_t hash[SCHEMA_HASH_BYTES];
    if (ledger_head(db, room, &head, hash) != 0) {
        tool_err(g, "version %u is not the head of %s", expected, room);
        return TOOL_EXIT_USAGE;
    }
    if (expected > head)
        tool_err(g, "version %u is beyond the head of %s (version %u); nothing written",
                 expected, room, head);
    else
        tool_err(g, "version %u is stale: the head of %s is at version %u; nothing written",
                 expected, room, head);
    if (g->is_json) {
        tool_json j;
        tool_json_init(&j, stdout);
        tool_json_object_begin(&j);
        tool_json_member_string(&j, "verdict", "conflict");
        tool_json_member_uint(&j, "expected_version", expected);
        tool_json_member_uint(&j, "head_version", head);
        tool_json_object_end(&j);
        tool_json_finish(&j);
    }
    return TOOL_EXIT_USAGE;
}

/* sig_out = the seat's signature of act on `expected` with the key in
 * path; with pk_out (a binding), the binding's, and pk_out the key. */
static int seat_sign(uint8_t sig_out[SCHEMA_SIG_BYTES], uint8_t *pk_out, const tool_globals *g,
                     ledger *db, const char *path, const char *room, uint32_t expected,
                     const engine_action *act)
{
    uint8_t sk[LEDGER_SEAT_SECRET_BYTES], pk[SCHEMA_KEY_BYTES], prev[SCHEMA_HASH_BYTES];
    char err[SCHEMA_ERRMSG] = "";
    int rc = ledger_seat_key_load(sk, pk, path, err);
    if (rc != 0) {
        tool_err(g, "--seat-key: %s", err);
        return TOOL_EXIT_USAGE;
    }
    rc = ledger_chain_hash(db, prev, room, expected);
    if (rc == LEDGER_ENOTFOUND)
        rc = print_conflict(g, db, room, expected);
    else if (rc != 0)
        rc = tool_ledger_fail(g, db, rc);
    else if ((pk_out != NULL ? ledger_seat_sign_bind(sig_out, sk, room, expected, prev, act)
                             : ledger_seat_sign(sig_out, sk, room, expected, prev, act)) != 0) {
        tool_err(g, "--seat-key: the action of seat %u has no seat message", act->seat + 1u);
        rc = TOOL_EXIT_USAGE;
    }
    sodium_memzero(sk, sizeof sk);
    if (rc == 0 && pk_out != NULL)
        memcpy(pk_out, pk, sizeof pk);
    return rc;
}

int cmd_act(int argc, char **argv, const tool_globals *gin)
{
    tool_globals g = *gin;
    const char *seat = NULL, *version = NULL, *action = NULL, *seat_key = NULL;
    int is_bind = 0;
    const tool_opt opts[] = {
        {"--seat-key", "FILE", &seat_key, NULL},
        {"--bind", NULL, NULL, &is_bind},
        {"--seat", "S", &seat, NULL},
        {"--version", "V", &version, NULL},
        {"--action", "JSON", &action, NULL},
        {NULL, NULL, NULL, NULL},
    };
    const char *pos[1];
    size_t n_pos = 0;
    int r = tool_args_parse(&g, argc, argv, opts, pos, 1, &n_pos, help);
    if (r != TOOL_PARSED)
        return r == TOOL_HELP ? TOOL_EXIT_OK : TOOL_EXIT_USAGE;
    if (n_pos == 0 || seat == NULL || version == NULL || action == NULL) {
        tool_err(&g, "missing %s (see mentat act --help)",
                 n_pos == 0 ? "ROOM" : seat == NULL ? "--seat S"
                             : version == NULL ? "--version V" : "--action JSON");
        return TOOL_EXIT_USAGE;
    }
    if (is_bind && seat_key == NULL) {
        tool_err(&g, "--bind binds the seat to the key of --seat-key FILE: give it");
        return TOOL_EXIT_USAGE;
    }
    uint32_t expected;
    if (tool_parse_uint(&expected, version, 0, UINT32_MAX) != 0) {
        tool_err(&g, "--version must be a version number, not '%s'", version);
        return TOOL_EXIT_USAGE;
    }
    engine_action act;
    char err[SCHEMA_ERRMSG] = "";
    memset(&act, 0, sizeof act);
    if (codec_action_from_json(&act, action, strlen(action), err) != 0) {
        tool_err(&g, "bad action: %s", err[0] != '\0' ? err : "not a valid action");
        return TOOL_EXIT_USAGE;
    }

    ledger *db;
    ledger_room_info info;
    int ex = tool_open_room_at(&db, &info, NULL, &g, 0, pos[0], NULL);
    if (ex != TOOL_EXIT_OK)
        return ex;
    if (tool_parse_seat(&act.seat, seat, &info.config, err) != 0) {
        tool_err(&g, "--seat: %s", err);
        ex = TOOL_EXIT_USAGE;
        goto out;
    }
    uint8_t sig[SCHEMA_SIG_BYTES], bind_key[SCHEMA_KEY_BYTES];
    if (seat_key != NULL) {
        ex = seat_sign(sig, is_bind ? bind_key : NULL, &g, db, seat_key, info.room, expected,
                       &act);
        if (ex != TOOL_EXIT_OK)
            goto out;
    }
    ledger_append_result res;
    memset(&res, 0, sizeof res);
    int rc = ledger_append_bind(db, &res, info.room, expected, &act,
                                seat_key != NULL ? sig : NULL, is_bind ? bind_key : NULL);
    if (rc == LEDGER_ECONFLICT) {
        ex = print_conflict(&g, db, info.room, expected);
    } else if (rc != 0) {
        ex = tool_ledger_fail(&g, db, rc);
    } else if (res.verdict != ENGINE_ACCEPTED) {
        ex = print_rejection(&g, &res, &act);
    } else {
        print_receipt(&g, &res);
    }
out:
    return tool_ledger_close(&g, db, ex);
}
