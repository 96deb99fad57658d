/*
 * json_out.c - a small streaming JSON writer for `--json` output: compact
 * RFC 8259 text, strings escaped (quote, backslash, control characters),
 * commas placed by a per-depth "has a member" flag.
 *
 * Layer: inspect. It only writes to a FILE; it never parses (schema.h has
 * the reader) and never allocates. Misuse (a value where a key is due,
 * nesting past INSPECT_JSON_DEPTH) is a programming error and asserted.
 */
#include <assert.h>
#include <inttypes.h>
#include <string.h>

#include "inspect/internal.h"

void inspect_json_init(inspect_json *j, FILE *f)
{
    memset(j, 0, sizeof *j);
    j->f = f;
}

/* Writes the comma owed before a value or a key. */
static void separate(inspect_json *j)
{
    if (j->is_after_key) {
        j->is_after_key = 0;
        return;
    }
    if (j->depth > 0) {
        if (j->has_items[j->depth])
            fputc(',', j->f);
        j->has_items[j->depth] = 1;
    }
}

static void open_container(inspect_json *j, int c)
{
    separate(j);
    fputc(c, j->f);
    assert(j->depth + 1 < INSPECT_JSON_DEPTH);
    j->depth++;
    j->has_items[j->depth] = 0;
}

static void close_container(inspect_json *j, int c)
{
    assert(j->depth > 0 && !j->is_after_key);
    j->depth--;
    fputc(c, j->f);
}

void inspect_json_object_begin(inspect_json *j) { open_container(j, '{'); }
void inspect_json_object_end(inspect_json *j) { close_container(j, '}'); }
void inspect_json_array_begin(inspect_json *j) { open_container(j, '['); }
void inspect_json_array_end(inspect_json *j) { close_container(j, ']'); }

void inspect_json_write_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p != '\0'; p++) {
        switch (*p) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\b': fputs("\\b", f); break;
        case '\f': fputs("\\f", f); break;
        case '\n': fputs("\\n", f); break;
        case '\r': fputs("\\r", f); break;
        case '\t': fputs("\\t", f); break;
        default:
            if (*p < 0x20 || *p == 0x7f)
                fprintf(f, "\\u%04x", (unsigned)*p);
            else
                fputc(*p, f);
        }
    }
    fputc('"', f);
}

void inspect_json_key(inspect_json *j, const char *key)
{
    assert(!j->is_after_key && j->depth > 0);
    separate(j);
    inspect_json_write_string(j->f, key);
    fputc(':', j->f);
    j->is_after_key = 1;
}

void inspect_json_string(inspect_json *j, const char *s)
{
    separate(j);
    inspect_json_write_string(j->f, s);
}

void inspect_json_int(inspect_json *j, int64_t v)
{
    separate(j);
    fprintf(j->f, "%" PRId64, v);
}

void inspect_json_uint(inspect_json *j, uint64_t v)
{
    separate(j);
    fprintf(j->f, "%" PRIu64, v);
}

void inspect_json_bool(inspect_json *j, int v)
{
    separate(j);
    fputs(v ? "true" : "false", j->f);
}

/* A member: its key, then its value. */
void inspect_json_member_string(inspect_json *j, const char *key, const char *s)
{
    inspect_json_key(j, key);
    inspect_json_string(j, s);
}

void inspect_json_member_int(inspect_json *j, const char *key, int64_t v)
{
    inspect_json_key(j, key);
    inspect_json_int(j, v);
}

void inspect_json_member_uint(inspect_json *j, const char *key, uint64_t v)
{
    inspect_json_key(j, key);
    inspect_json_uint(j, v);
}

void inspect_json_member_bool(inspect_json *j, const char *key, int v)
{
    inspect_json_key(j, key);
    inspect_json_bool(j, v);
}

void inspect_json_null(inspect_json *j)
{
    separate(j);
    fputs("null", j->f);
}

void inspect_json_hex(inspect_json *j, const uint8_t *bytes, size_t n)
{
    separate(j);
    fputc('"', j->f);
    for (size_t i = 0; i < n; i++)
        fprintf(j->f, "%02x", (unsigned)bytes[i]);
    fputc('"', j->f);
}

void inspect_json_raw(inspect_json *j, const char *json)
{
    separate(j);
    fputs(json, j->f);
}

void inspect_json_finish(inspect_json *j)
{
    assert(j->depth == 0 && !j->is_after_key);
    fputc('\n', j->f);
    fflush(j->f);
}

void inspect_json_member_seats(inspect_json *j, const char *key, uint16_t mask, uint8_t n_seats)
{
    inspect_json_key(j, key);
    inspect_json_array_begin(j);
    for (uint8_t s = 0; s < n_seats; s++)
        if (mask & (1u << s))
            inspect_json_uint(j, s + 1u);
    inspect_json_array_end(j);
}

void inspect_json_receipt_members(inspect_json *j, const codec_receipt *rc)
{
    inspect_json_member_string(j, "room", rc->room);
    inspect_json_member_uint(j, "version", rc->version);
    inspect_json_key(j, "event_hash");
    inspect_json_hex(j, rc->event_hash, SCHEMA_HASH_BYTES);
    inspect_json_member_uint(j, "key_id", rc->key_id);
    inspect_json_key(j, "signature");
    inspect_json_hex(j, rc->signature, SCHEMA_SIG_BYTES);
    if (rc->has_tree_head) {
        inspect_json_key(j, "tree_root");
        inspect_json_hex(j, rc->tree_root, SCHEMA_HASH_BYTES);
        inspect_json_member_uint(j, "tree_time", rc->tree_time);
    }
}
