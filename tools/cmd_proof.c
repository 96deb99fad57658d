/*
 * cmd_proof.c - `mentat proof`: the Merkle proofs of a room's tree (RFC
 * 9162): that a version is in a tree head, that a smaller tree head is a
 * prefix of a larger one; and the check of such a proof from its JSON
 * alone, without the ledger.
 *
 * Layer: tools. The proofs are inspect_proof_*'s and the ledger's; this
 * file parses options and prints. Every proof it prints it has checked.
 */
#include <stdlib.h>
#include <string.h>

#include "inspect/inspect.h"
#include "tools/internal.h"

static const char help[] =
    "usage: mentat proof ROOM --inclusion V [--size N]\n"
    "       mentat proof ROOM --consistency N1 N2\n"
    "       mentat proof --check FILE [--receipt JSON]\n"
    "\n"
    "A room's events are the leaves of a Merkle tree (RFC 9162, SHA-256):\n"
    "leaf V-1 is SHA-256(0x00 || event hash of version V), and the tree of\n"
    "size N, whose root every receipt of version N signs, covers versions\n"
    "1..N (docs/FORMAT.md).\n"
    "\n"
    "  --inclusion V      prints the proof that version V is in the tree of\n"
    "                     N events (--size, default the head): the event\n"
    "                     hash, its leaf, the root, and the hashes from the\n"
    "                     leaf up\n"
    "  --consistency N1 N2  prints the proof that the tree of N1 events is\n"
    "                     the first N1 events of the tree of N2: a seat\n"
    "                     holding receipts of versions N1 and N2 checks that\n"
    "                     the history it saw at N1 was not rewritten by N2\n"
    "  --check FILE       reads a proof as --json prints it (FILE or - for\n"
    "                     stdin) and checks it with nothing but its own\n"
    "                     bytes: no ledger, no key. Exit 0 if it holds, 1 if not\n"
    "  --receipt JSON     with --check: the receipt (as `mentat act --json`\n"
    "                     prints it) whose signed tree head the proof must\n"
    "                     start or end at: same room, its version one of the\n"
    "                     proof's sizes, its tree_root that size's root\n"
    "\n"
    "--json prints {\"room\",\"kind\":\"inclusion\",\"version\",\"size\",\"event_hash\",\n"
    "\"leaf\",\"root\",\"time\",\"proof\":[hex...]} or {\"room\",\"kind\":\"consistency\",\n"
    "\"size1\",\"size2\",\"root1\",\"root2\",\"time\",\"proof\":[hex...]}; hashes are hex,\n"
    "the proof bottom up, time the larger tree head's (unix ms).\n"
    "\n"
    "Examples:\n"
    "  mentat proof K7QX2M9P --inclusion 17 --size 40\n"
    "  mentat proof K7QX2M9P --consistency 17 40 --json > p.json\n"
    "  mentat proof --check p.json --receipt \"$(sed -n 17p receipts.jsonl)\"\n";

static void print_proof(const tool_globals *g, const inspect_proof *p)
{
    char hex[2 * LEDGER_TREE_HASH_BYTES + 1];
    if (g->is_json) {
        tool_json j;
        tool_json_init(&j, stdout);
        tool_json_object_begin(&j);
        tool_json_member_string(&j, "room", p->room);
        tool_json_member_string(&j, "kind", p->is_consistency ? "consistency" : "inclusion");
        if (p->is_consistency) {
            tool_json_member_uint(&j, "size1", p->size1);
            tool_json_member_uint(&j, "size2", p->size);
            tool_json_key(&j, "root1");
            tool_json_hex(&j, p->root1, sizeof p->root1);
            tool_json_key(&j, "root2");
            tool_json_hex(&j, p->root, sizeof p->root);
        } else {
            tool_json_member_uint(&j, "version", p->version);
            tool_json_member_uint(&j, "size", p->size);
            tool_json_key(&j, "event_hash");
            tool_json_hex(&j, p->event_hash, sizeof p->event_hash);
            tool_json_key(&j, "leaf");
            tool_json_hex(&j, p->leaf, sizeof p->leaf);
            tool_json_key(&j, "root");
            tool_json_hex(&j, p->root, sizeof p->root);
        }
        tool_json_member_uint(&j, "time", p->time);
        tool_json_key(&j, "proof");
        tool_json_array_begin(&j);
        for (size_t i = 0; i < p->proof.n_hashes; i++)
            tool_json_hex(&j, p->proof.hash[i], LEDGER_TREE_HASH_BYTES);
        tool_json_array_end(&j);
        tool_json_object_end(&j);
        tool_json_finish(&j);
        return;
    }
    if (p->is_consistency) {
        printf("room %s: the tree of %u events is the first %u of the tree of %u\n", p->room,
               p->size1, p->size1, p->size);
        tool_hex(hex, p->root1, sizeof p->root1);
        printf("root1  %s  (%u events)\n", hex, p->size1);
        tool_hex(hex, p->root, sizeof p->root);
        printf("root2  %s  (%u events)\n", hex, p->size);
    } else {
        printf("room %s: version %u is in the tree of %u events\n", p->room, p->version,
               p->size);
        tool_hex(hex, p->event_hash, sizeof p->event_hash);
        printf("event  %s\n", hex);
        tool_hex(hex, p->leaf, sizeof p->leaf);
        printf("leaf   %s\n", hex);
        tool_hex(hex, p->root, sizeof p->root);
        printf("root   %s\n", hex);
    }
    printf("proof  %zu hash%s, bottom up%s\n", p->proof.n_hashes,
           p->proof.n_hashes == 1 ? "" : "es", p->proof.n_hashes == 0 ? "" : ":");
    for (size_t i = 0; i < p->proof.n_hashes; i++) {
        tool_hex(hex, p->proof.hash[i], LEDGER_TREE_HASH_BYTES);
        printf("  %2zu   %s\n", i, hex);
    }
}

/* The receipt's tree head must be one end of the proof. */
static int receipt_matches(const inspect_proof *p, const codec_receipt *r, char *why)
{
    if (strncmp(r->room, p->room, SCHEMA_ROOM_CHARS) != 0) {
        snprintf(why, SCHEMA_ERRMSG, "the receipt is for room %s, the proof for %s", r->room,
                 p->room);
        return -1;
    }
    if (!r->has_tree_head) {
        snprintf(why, SCHEMA_ERRMSG, "the receipt carries no tree head (an older receipt)");
        return -1;
    }
    const uint8_t *root = NULL;
    if (r->version == p->size)
        root = p->root;
    else if (p->is_consistency && r->version == p->size1)
        root = p->root1;
    if (root == NULL) {
        snprintf(why, SCHEMA_ERRMSG, "the receipt's tree head has %u events, not a size of the "
                 "proof", r->version);
        return -1;
    }
    if (memcmp(root, r->tree_root, LEDGER_TREE_HASH_BYTES) != 0) {
        snprintf(why, SCHEMA_ERRMSG, "the proof's root of %u events is not the one the receipt "
                 "signs: the history was rewritten", r->version);
        return -1;
    }
    return 0;
}

static int check(const tool_globals *g, const char *path, const char *receipt_json)
{
    char *text = NULL, err[SCHEMA_ERRMSG], why[SCHEMA_ERRMSG] = "";
    size_t len = 0;
    int rc = tool_slurp(&text, &len, path);
    if (rc != 0) {
        tool_err(g, "%s: %s", path, strerror(rc));
        return TOOL_EXIT_USAGE;
    }
    inspect_proof p;
    rc = inspect_proof_parse(&p, text, len, err);
    free(text);
    if (rc != 0) {
        tool_err(g, "%s: %s", path, err);
        return TOOL_EXIT_USAGE;
    }
    codec_receipt r;
    if (receipt_json != NULL &&
        inspect_receipt_parse(&r, receipt_json, strlen(receipt_json), err) != 0) {
        tool_err(g, "--receipt: %s", err);
        return TOOL_EXIT_USAGE;
    }
    int is_ok = inspect_proof_check(&p, why) == 0 &&
                (receipt_json == NULL || receipt_matches(&p, &r, why) == 0);
    if (g->is_json) {
        tool_json j;
        tool_json_init(&j, stdout);
        tool_json_object_begin(&j);
        tool_json_member_string(&j, "room", p.room);
        tool_json_member_string(&j, "kind", p.is_consistency ? "consistency" : "inclusion");
        tool_json_member_bool(&j, "ok", is_ok);
        if (!is_ok)
            tool_json_member_string(&j, "reason", why);
        tool_json_object_end(&j);
        tool_json_finish(&j);
    } else if (is_ok) {
        if (p.is_consistency)
            printf("ok: room %s, the tree of %u events is the first %u of the tree of %u\n",
                   p.room, p.size1, p.size1, p.size);
        else
            printf("ok: room %s, version %u is in the tree of %u events\n", p.room, p.version,
                   p.size);
    } else {
        printf("BAD: room %s: %s\n", p.room, why);
    }
    return is_ok ? TOOL_EXIT_OK : TOOL_EXIT_CHECK;
}

int cmd_proof(int argc, char **argv, const tool_globals *gin)
{
    tool_globals g = *gin;
    const char *inclusion_s = NULL, *size_s = NULL, *consistency_s = NULL, *check_s = NULL;
    const char *receipt_s = NULL;
    const tool_opt opts[] = {
        {"--inclusion", "V", &inclusion_s, NULL},
        {"--size", "N", &size_s, NULL},
        {"--consistency", "N1", &consistency_s, NULL},
        {"--check", "FILE", &check_s, NULL},
        {"--receipt", "JSON", &receipt_s, NULL},
        {NULL, NULL, NULL, NULL},
    };
    const char *pos[2];
    size_t n_pos = 0;
    int r = tool_args_parse(&g, argc, argv, opts, pos, 2, &n_pos, help);
    if (r != TOOL_PARSED)
        return r == TOOL_HELP ? TOOL_EXIT_OK : TOOL_EXIT_USAGE;
    if (check_s != NULL) {
        if (n_pos != 0 || inclusion_s != NULL || consistency_s != NULL || size_s != NULL) {
            tool_err(&g, "--check reads a proof and takes no ROOM, --inclusion, --consistency "
                     "or --size");
            return TOOL_EXIT_USAGE;
        }
        return check(&g, check_s, receipt_s);
    }
    if (receipt_s != NULL) {
        tool_err(&g, "--receipt goes with --check");
        return TOOL_EXIT_USAGE;
    }
    if (n_pos == 0) {
        tool_err(&g, "missing ROOM (see mentat proof --help)");
        return TOOL_EXIT_USAGE;
    }
    if ((inclusion_s != NULL) == (consistency_s != NULL)) {
        tool_err(&g, "give one of --inclusion V or --consistency N1 N2");
        return TOOL_EXIT_USAGE;
    }
    uint32_t a = 0, b = 0;
    if (consistency_s != NULL) {
        if (size_s != NULL || n_pos != 2) {
            tool_err(&g, "--consistency takes two sizes, N1 N2, and no --size");
            return TOOL_EXIT_USAGE;
        }
        if (tool_parse_uint(&a, consistency_s, 1, UINT32_MAX) != 0 ||
            tool_parse_uint(&b, pos[1], 1, UINT32_MAX) != 0 || a > b) {
            tool_err(&g, "--consistency N1 N2: sizes from 1, N1 no larger than N2");
            return TOOL_EXIT_USAGE;
        }
    } else {
        if (n_pos != 1) {
            tool_err(&g, "unexpected argument \"%s\"", pos[1]);
            return TOOL_EXIT_USAGE;
        }
        if (tool_parse_uint(&a, inclusion_s, 1, UINT32_MAX) != 0 ||
            (size_s != NULL && tool_parse_uint(&b, size_s, 1, UINT32_MAX) != 0)) {
            tool_err(&g, "--inclusion V and --size N are versions from 1");
            return TOOL_EXIT_USAGE;
        }
    }

    ledger *db;
    ledger_room_info info;
    int ex = tool_open_room_at(&db, &info, NULL, &g, 1, pos[0], NULL);
    if (ex != TOOL_EXIT_OK)
        return ex;
    if (consistency_s == NULL && size_s == NULL)
        b = info.version;
    if (b > info.version || a > b) {
        tool_err(&g, "room %s has %u events: no %s", info.room, info.version,
                 consistency_s != NULL ? "such tree sizes" : "such version in such a tree");
        ex = TOOL_EXIT_USAGE;
        goto out;
    }
    inspect_proof p;
    int rc = consistency_s != NULL ? inspect_proof_consistency(&p, db, info.room, a, b)
                                   : inspect_proof_inclusion(&p, db, info.room, a, b);
    if (rc != 0) {
        ex = tool_ledger_fail(&g, db, rc);
        goto out;
    }
    char why[SCHEMA_ERRMSG];
    if (inspect_proof_check(&p, why) != 0) { /* a proof the ledger made must hold */
        tool_err(&g, "room %s: %s", info.room, why);
        ex = TOOL_EXIT_CHECK;
        goto out;
    }
    print_proof(&g, &p);
out:
    ledger_close(db);
    return ex;
}
