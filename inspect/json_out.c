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
#include <string.h>

#include "inspect/internal.h"

void inspect_json_init(inspect_json *j, FILE *f)
{
    memset(j, 0, sizeof *j);
    j->f = f;
}

/* ============================================================ chunks */

/* What one call writes, gathered on the stack and handed to the FILE in
 * one fwrite (a call per character was the writer's main cost): every
 * public call ends with its chunk flushed, so the FILE holds exactly
 * what was written when it returns. */
typedef struct chunk {
    FILE *f;
    size_t n;
    char b[256];
} chunk;

static void chunk_flush(chunk *c)
{
    if (c->n != 0)
        fwrite(c->b, 1, c->n, c->f);
    c->n = 0;
}

static void chunk_put(chunk *c, char ch)
{
    if (c->n == sizeof c->b)
        chunk_flush(c);
    c->b[c->n++] = ch;
}

static void chunk_puts(chunk *c, const char *s, size_t len)
{
    if (len > sizeof c->b - c->n) {
        chunk_flush(c);
        if (len > sizeof c->b) {
            fwrite(s, 1, len, c->f);
            return;
        }
    }
    memcpy(c->b + c->n, s, len);
    c->n += len;
}

/* The comma owed before a value or a key. */
static void separate(inspect_json *j, chunk *c)
{
    if (j->is_after_key) {
        j->is_after_key = 0;
        return;
    }
    if (j->depth > 0) {
        if (j->has_items[j->depth])
            chunk_put(c, ',');
        j->has_items[j->depth] = 1;
    }
}

/* A string, quoted and escaped: the runs that need no escape are copied
 * whole. */
static void chunk_string(chunk *c, const char *s)
{
    static const char hex[] = "0123456789abcdef";
    chunk_put(c, '"');
    const unsigned char *p = (const unsigned char *)s;
    while (*p != '\0') {
        const unsigned char *run = p;
        while (*p >= 0x20 && *p != 0x7f && *p != '"' && *p != '\\')
            p++;
        chunk_puts(c, (const char *)run, (size_t)(p - run));
        if (*p == '\0')
            break;
        switch (*p) {
        case '"': chunk_puts(c, "\\\"", 2); break;
        case '\\': chunk_puts(c, "\\\\", 2); break;
        case '\b': chunk_puts(c, "\\b", 2); break;
        case '\f': chunk_puts(c, "\\f", 2); break;
        case '\n': chunk_puts(c, "\\n", 2); break;
        case '\r': chunk_puts(c, "\\r", 2); break;
        case '\t': chunk_puts(c, "\\t", 2); break;
        default: {
            char u[6] = {'\\', 'u', '0', '0', hex[*p >> 4], hex[*p & 15u]};
            chunk_puts(c, u, sizeof u);
        }
        }
        p++;
    }
    chunk_put(c, '"');
}

/* v in decimal, a minus sign first if is_negative (the digits are of the
 * magnitude): the text printf's %d and %u make. */
static void chunk_decimal(chunk *c, uint64_t v, int is_negative)
{
    char buf[24];
    size_t i = sizeof buf;
    do {
        buf[--i] = (char)('0' + v % 10u);
        v /= 10u;
    } while (v != 0);
    if (is_negative)
        buf[--i] = '-';
    chunk_puts(c, buf + i, sizeof buf - i);
}

static void chunk_key(inspect_json *j, chunk *c, const char *key)
{
    assert(!j->is_after_key && j->depth > 0);
    separate(j, c);
    chunk_string(c, key);
    chunk_put(c, ':');
    j->is_after_key = 1;
}

/* ============================================================ values */

static void open_container(inspect_json *j, char ch)
{
    chunk c = {j->f, 0, {0}};
    separate(j, &c);
    chunk_put(&c, ch);
    chunk_flush(&c);
    assert(j->depth + 1 < INSPECT_JSON_DEPTH);
    j->depth++;
    j->has_items[j->depth] = 0;
}

static void close_container(inspect_json *j, int ch)
{
    assert(j->depth > 0 && !j->is_after_key);
    j->depth--;
    fputc(ch, j->f);
}

void inspect_json_object_begin(inspect_json *j) { open_container(j, '{'); }
void inspect_json_object_end(inspect_json *j) { close_container(j, '}'); }
void inspect_json_array_begin(inspect_json *j) { open_container(j, '['); }
void inspect_json_array_end(inspect_json *j) { close_container(j, ']'); }

void inspect_json_write_string(FILE *f, const char *s)
{
    chunk c = {f, 0, {0}};
    chunk_string(&c, s);
    chunk_flush(&c);
}

void inspect_json_key(inspect_json *j, const char *key)
{
    chunk c = {j->f, 0, {0}};
    chunk_key(j, &c, key);
    chunk_flush(&c);
}

/* The start of one scalar: its key first if key is not NULL, then the
 * comma it is owed. */
static void scalar_begin(inspect_json *j, chunk *c, const char *key)
{
    c->f = j->f;
    c->n = 0;
    if (key != NULL)
        chunk_key(j, c, key);
    separate(j, c);
}

static void scalar_string(inspect_json *j, const char *key, const char *s)
{
    chunk c;
    scalar_begin(j, &c, key);
    chunk_string(&c, s);
    chunk_flush(&c);
}

static void scalar_decimal(inspect_json *j, const char *key, uint64_t v, int is_negative)
{
    chunk c;
    scalar_begin(j, &c, key);
    chunk_decimal(&c, v, is_negative);
    chunk_flush(&c);
}

static void scalar_text(inspect_json *j, const char *key, const char *text)
{
    chunk c;
    scalar_begin(j, &c, key);
    chunk_puts(&c, text, strlen(text));
    chunk_flush(&c);
}

static uint64_t magnitude(int64_t v)
{
    return v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
}

void inspect_json_string(inspect_json *j, const char *s) { scalar_string(j, NULL, s); }
void inspect_json_int(inspect_json *j, int64_t v) { scalar_decimal(j, NULL, magnitude(v), v < 0); }
void inspect_json_uint(inspect_json *j, uint64_t v) { scalar_decimal(j, NULL, v, 0); }
void inspect_json_bool(inspect_json *j, int v) { scalar_text(j, NULL, v ? "true" : "false"); }
void inspect_json_null(inspect_json *j) { scalar_text(j, NULL, "null"); }
void inspect_json_raw(inspect_json *j, const char *json) { scalar_text(j, NULL, json); }

/* A member: its key, then its value. */
void inspect_json_member_string(inspect_json *j, const char *key, const char *s)
{
    scalar_string(j, key, s);
}

void inspect_json_member_int(inspect_json *j, const char *key, int64_t v)
{
    scalar_decimal(j, key, magnitude(v), v < 0);
}

void inspect_json_member_uint(inspect_json *j, const char *key, uint64_t v)
{
    scalar_decimal(j, key, v, 0);
}

void inspect_json_member_bool(inspect_json *j, const char *key, int v)
{
    scalar_text(j, key, v ? "true" : "false");
}

void inspect_json_hex(inspect_json *j, const uint8_t *bytes, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    chunk c;
    scalar_begin(j, &c, NULL);
    chunk_put(&c, '"');
    for (size_t i = 0; i < n; i++) {
        chunk_put(&c, hex[bytes[i] >> 4]);
        chunk_put(&c, hex[bytes[i] & 15u]);
    }
    chunk_put(&c, '"');
    chunk_flush(&c);
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
