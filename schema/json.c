/*
 * json.c - a small strict JSON reader (RFC 8259): a tokenizer into the
 * caller's token array, and helpers to read the tokens (member lookup,
 * integers, unescaped strings).
 *
 * Layer: schema. Used for action JSON and scenario files. It never
 * allocates, never reads past `len`, and accepts only what RFC 8259
 * accepts: no comments, no trailing commas, no leading zeros, no control
 * characters or invalid UTF-8 in strings, no lone surrogates, no bytes
 * after the value. Nesting is limited to JSON_MAX_DEPTH.
 *
 * Invariants:
 * (1) Tokens are in document order; a container is followed by its
 *     children, an object's children alternate name, value. tok[i].next is
 *     the index after token i and all its children.
 * (2) Every STRING token spans text the tokenizer has validated, so the
 *     readers below decode escapes without re-checking them.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "schema/internal.h"
#include "schema/schema.h"

#define JSON_MAX_DEPTH 32

/* ========================================================== tokenizer */

typedef struct parser {
    const char *s;             /* the text */
    size_t len;                /* its length, <= INT_MAX */
    size_t pos;                /* next byte to read */
    codec_json_token *tok;     /* the caller's array */
    size_t cap;                /* its length */
    size_t n;                  /* tokens so far; past cap they are counted, not stored */
    char *err;                 /* SCHEMA_ERRMSG bytes, or NULL */
} parser;

static int fail_at(parser *p, const char *what)
{
    return codec__fail(p->err, "JSON: %s at byte %zu", what, p->pos);
}

static void skip_ws(parser *p)
{
    while (p->pos < p->len) {
        char c = p->s[p->pos];
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
            return;
        p->pos++;
    }
}

/* The token at index i, or NULL if the array has no room for it. */
static codec_json_token *tok_at(parser *p, size_t i)
{
    return i < p->cap ? &p->tok[i] : NULL;
}

static size_t new_token(parser *p, codec_json_type type, size_t start)
{
    codec_json_token *t = tok_at(p, p->n);
    if (t != NULL) {
        t->type = (uint8_t)type;
        t->start = (uint32_t)start;
        t->end = (uint32_t)start;
        t->size = 0;
        t->next = (uint32_t)(p->n + 1);
    }
    return p->n++;
}

static void close_token(parser *p, size_t i, size_t end, uint32_t size)
{
    codec_json_token *t = tok_at(p, i);
    if (t != NULL) {
        t->end = (uint32_t)end;
        t->size = size;
        t->next = (uint32_t)p->n;
    }
}

static int hex_digit(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* The four hex digits at s[at..at+4), or -1. */
static long hex4(const char *s, size_t len, size_t at)
{
    long v = 0;
    if (len < 4 || at > len - 4)
        return -1;
    for (size_t i = 0; i < 4; i++) {
        int d = hex_digit((unsigned char)s[at + i]);
        if (d < 0)
            return -1;
        v = v * 16 + d;
    }
    return v;
}

/* Length of the well-formed UTF-8 sequence at s[0..n) (n >= 1, s[0] >=
 * 0x80), or 0: no overlong forms, no surrogates, nothing past U+10FFFF. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
    unsigned char lo = 0x80, hi = 0xBF;
    size_t need;
    if (s[0] >= 0xC2 && s[0] <= 0xDF)
        need = 2;
    else if (s[0] >= 0xE0 && s[0] <= 0xEF) {
        need = 3;
        if (s[0] == 0xE0)
            lo = 0xA0;
        else if (s[0] == 0xED)
            hi = 0x9F;
    } else if (s[0] >= 0xF0 && s[0] <= 0xF4) {
        need = 4;
        if (s[0] == 0xF0)
            lo = 0x90;
        else if (s[0] == 0xF4)
            hi = 0x8F;
    } else
        return 0;
    if (n < need || s[1] < lo || s[1] > hi)
        return 0;
    for (size_t i = 2; i < need; i++)
        if (s[i] < 0x80 || s[i] > 0xBF)
            return 0;
    return need;
}

/* A string at p->pos (its opening quote); sets the span inside the quotes. */
static int parse_string(parser *p, size_t *start, size_t *end)
{
    p->pos++;
    *start = p->pos;
    for (;;) {
        unsigned char c;
        if (p->pos >= p->len)
            return fail_at(p, "unterminated string");
        c = (unsigned char)p->s[p->pos];
        if (c == '"') {
            *end = p->pos++;
            return SCHEMA_OK;
        }
        if (c < 0x20)
            return fail_at(p, "control character in string");
        if (c >= 0x80) {
            size_t n = utf8_len((const unsigned char *)p->s + p->pos, p->len - p->pos);
            if (n == 0)
                return fail_at(p, "invalid UTF-8 in string");
            p->pos += n;
            continue;
        }
        if (c != '\\') {
            p->pos++;
            continue;
        }
        if (p->pos + 1 >= p->len)
            return fail_at(p, "unterminated string");
        switch (p->s[p->pos + 1]) {
        case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't':
            p->pos += 2;
            break;
        case 'u': {
            long cp = hex4(p->s, p->len, p->pos + 2);
            if (cp < 0)
                return fail_at(p, "bad \\u escape");
            if (cp >= 0xDC00 && cp <= 0xDFFF)
                return fail_at(p, "lone low surrogate");
            if (cp >= 0xD800 && cp <= 0xDBFF) {
                long lo;
                if (p->pos + 7 >= p->len || p->s[p->pos + 6] != '\\' || p->s[p->pos + 7] != 'u'
                    || (lo = hex4(p->s, p->len, p->pos + 8)) < 0xDC00 || lo > 0xDFFF)
                    return fail_at(p, "lone high surrogate");
                p->pos += 6;
            }
            p->pos += 6;
            break;
        }
        default:
            return fail_at(p, "bad escape");
        }
    }
}

static int is_digit(parser *p)
{
    return p->pos < p->len && p->s[p->pos] >= '0' && p->s[p->pos] <= '9';
}

static int parse_number(parser *p)
{
    size_t start = p->pos, i;
    if (p->s[p->pos] == '-')
        p->pos++;
    if (!is_digit(p))
        return fail_at(p, "expected a digit");
    if (p->s[p->pos] == '0') {
        p->pos++;
        if (is_digit(p))
            return fail_at(p, "leading zero");
    } else
        while (is_digit(p))
            p->pos++;
    if (p->pos < p->len && p->s[p->pos] == '.') {
        p->pos++;
        if (!is_digit(p))
            return fail_at(p, "expected a digit");
        while (is_digit(p))
            p->pos++;
    }
    if (p->pos < p->len && (p->s[p->pos] == 'e' || p->s[p->pos] == 'E')) {
        p->pos++;
        if (p->pos < p->len && (p->s[p->pos] == '+' || p->s[p->pos] == '-'))
            p->pos++;
        if (!is_digit(p))
            return fail_at(p, "expected a digit");
        while (is_digit(p))
            p->pos++;
    }
    i = new_token(p, CODEC_JSON_NUMBER, start);
    close_token(p, i, p->pos, 0);
    return SCHEMA_OK;
}

static int parse_literal(parser *p, const char *word, codec_json_type type)
{
    size_t n = strlen(word), i;
    if (p->len - p->pos < n || memcmp(p->s + p->pos, word, n) != 0)
        return fail_at(p, "unexpected character");
    i = new_token(p, type, p->pos);
    p->pos += n;
    close_token(p, i, p->pos, 0);
    return SCHEMA_OK;
}

static int parse_value(parser *p, unsigned depth);

/* An object or array at p->pos; depth counts the containers around it. */
static int parse_container(parser *p, unsigned depth)
{
    int is_object = p->s[p->pos] == '{';
    char close = is_object ? '}' : ']';
    size_t i;
    uint32_t size = 0;
    int rc;

    if (depth >= JSON_MAX_DEPTH)
        return fail_at(p, "nesting deeper than 32");
    i = new_token(p, is_object ? CODEC_JSON_OBJECT : CODEC_JSON_ARRAY, p->pos);
    p->pos++;
    skip_ws(p);
    if (p->pos < p->len && p->s[p->pos] == close) {
        p->pos++;
        close_token(p, i, p->pos, 0);
        return SCHEMA_OK;
    }
    for (;;) {
        if (is_object) {
            size_t start = 0, end = 0, k;
            skip_ws(p);
            if (p->pos >= p->len || p->s[p->pos] != '"')
                return fail_at(p, "expected a member name");
            k = new_token(p, CODEC_JSON_STRING, p->pos);
            if ((rc = parse_string(p, &start, &end)) != 0)
                return rc;
            if (tok_at(p, k) != NULL)
                tok_at(p, k)->start = (uint32_t)start;
            close_token(p, k, end, 0);
            skip_ws(p);
            if (p->pos >= p->len || p->s[p->pos] != ':')
                return fail_at(p, "expected ':'");
            p->pos++;
        }
        if ((rc = parse_value(p, depth + 1)) != 0)
            return rc;
        size++;
        skip_ws(p);
        if (p->pos < p->len && p->s[p->pos] == ',') {
            p->pos++;
            continue;
        }
        if (p->pos < p->len && p->s[p->pos] == close) {
            p->pos++;
            close_token(p, i, p->pos, size);
            return SCHEMA_OK;
        }
        return fail_at(p, is_object ? "expected ',' or '}'" : "expected ',' or ']'");
    }
}

static int parse_value(parser *p, unsigned depth)
{
    size_t start = 0, end = 0, i;
    int rc;

    skip_ws(p);
    if (p->pos >= p->len)
        return fail_at(p, "unexpected end of text");
    switch (p->s[p->pos]) {
    case '{':
    case '[':
        return parse_container(p, depth);
    case '"':
        i = new_token(p, CODEC_JSON_STRING, p->pos);
        if ((rc = parse_string(p, &start, &end)) != 0)
            return rc;
        if (tok_at(p, i) != NULL)
            tok_at(p, i)->start = (uint32_t)start;
        close_token(p, i, end, 0);
        return SCHEMA_OK;
    case '-': case '0': case '1': case '2': case '3': case '4':
    case '5': case '6': case '7': case '8': case '9':
        return parse_number(p);
    case 't':
        return parse_literal(p, "true", CODEC_JSON_BOOL);
    case 'f':
        return parse_literal(p, "false", CODEC_JSON_BOOL);
    case 'n':
        return parse_literal(p, "null", CODEC_JSON_NULL);
    default:
        return fail_at(p, "unexpected character");
    }
}

int codec_json_parse(codec_json_token *tok, size_t cap, const char *text, size_t len, char *err)
{
    parser p;
    int rc;

    if (len > INT_MAX)
        return codec__fail(err, "JSON: text longer than %d bytes", INT_MAX);
    p.s = text;
    p.len = len;
    p.pos = 0;
    p.tok = tok;
    p.cap = cap;
    p.n = 0;
    p.err = err;
    if ((rc = parse_value(&p, 0)) != 0)
        return rc;
    skip_ws(&p);
    if (p.pos < p.len)
        return fail_at(&p, "trailing bytes");
    if (p.n > cap) {
        if (err != NULL)
            snprintf(err, SCHEMA_ERRMSG, "JSON: %zu values, room for %zu", p.n, cap);
        return SCHEMA_ESPACE;
    }
    return (int)p.n;
}

/* ============================================================ readers */

/* (2): decodes the character at text[*pos] of a string token into UTF-8
 * bytes out[0..4) and returns how many (0 at a malformed escape). */
static size_t string_char(uint8_t out[4], const char *text, uint32_t *pos, uint32_t end)
{
    long cp;
    char c = text[*pos];
    if (c != '\\') {
        out[0] = (uint8_t)c;
        (*pos)++;
        return 1;
    }
    if (end - *pos < 2)
        return 0;
    c = text[*pos + 1];
    *pos += 2;
    switch (c) {
    case '"': case '\\': case '/':
        out[0] = (uint8_t)c;
        return 1;
    case 'b': out[0] = '\b'; return 1;
    case 'f': out[0] = '\f'; return 1;
    case 'n': out[0] = '\n'; return 1;
    case 'r': out[0] = '\r'; return 1;
    case 't': out[0] = '\t'; return 1;
    case 'u':
        break;
    default:
        return 0;
    }
    if ((cp = hex4(text, end, *pos)) < 0)
        return 0;
    *pos += 4;
    if (cp >= 0xD800 && cp <= 0xDBFF) {
        long lo;
        if (end - *pos < 6 || text[*pos] != '\\' || text[*pos + 1] != 'u'
            || (lo = hex4(text, end, *pos + 2)) < 0xDC00 || lo > 0xDFFF)
            return 0;
        *pos += 6;
        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
    } else if (cp >= 0xDC00 && cp <= 0xDFFF)
        return 0;
    if (cp < 0x80) {
        out[0] = (uint8_t)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (uint8_t)(0xC0 | (cp >> 6));
        out[1] = (uint8_t)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (uint8_t)(0xE0 | (cp >> 12));
        out[1] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (uint8_t)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (uint8_t)(0xF0 | (cp >> 18));
    out[1] = (uint8_t)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (uint8_t)(0x80 | (cp & 0x3F));
    return 4;
}

int codec_json_string(char *out, size_t cap, const codec_json_token *t, const char *text)
{
    uint32_t pos;
    size_t n = 0;

    if (t->type != CODEC_JSON_STRING)
        return SCHEMA_EDECODE;
    for (pos = t->start; pos < t->end;) {
        uint8_t ch[4];
        size_t k = string_char(ch, text, &pos, t->end);
        if (k == 0 || (k == 1 && ch[0] == 0))
            return SCHEMA_EDECODE;         /* \u0000 cannot be in a C string */
        if (cap - n <= k || cap == 0) {
            if (cap > 0)
                out[0] = '\0';
            return SCHEMA_ESPACE;
        }
        memcpy(out + n, ch, k);
        n += k;
    }
    if (cap == 0)
        return SCHEMA_ESPACE;
    out[n] = '\0';
    return SCHEMA_OK;
}

int codec_json_eq(const codec_json_token *t, const char *text, const char *s)
{
    uint32_t pos;
    size_t n = 0;

    if (t->type != CODEC_JSON_STRING)
        return 0;
    for (pos = t->start; pos < t->end;) {
        uint8_t ch[4];
        size_t k = string_char(ch, text, &pos, t->end);
        if (k == 0)
            return 0;
        for (size_t i = 0; i < k; i++, n++)
            if (s[n] == '\0' || (uint8_t)s[n] != ch[i])
                return 0;
    }
    return s[n] == '\0';
}

int codec_json_hex(uint8_t *out, size_t n, const codec_json_token *t, const char *text)
{
    if (t->type != CODEC_JSON_STRING || t->end - t->start != 2 * n)
        return SCHEMA_EDECODE;
    const char *p = text + t->start;
    for (size_t k = 0; k < n; k++) {
        int hi = hex_digit(p[2 * k]), lo = hex_digit(p[2 * k + 1]);
        if (hi < 0 || lo < 0)
            return SCHEMA_EDECODE;
        out[k] = (uint8_t)(hi << 4 | lo);
    }
    return 0;
}

int codec_json_member(const codec_json_token *tok, int obj, const char *text, const char *key)
{
    uint32_t i;
    if (obj < 0 || tok[obj].type != CODEC_JSON_OBJECT)
        return -1;
    i = (uint32_t)obj + 1;
    for (uint32_t m = 0; m < tok[obj].size; m++) {
        if (codec_json_eq(&tok[i], text, key))
            return (int)i + 1;
        i = tok[i + 1].next;
    }
    return -1;
}

int codec_json_int(int64_t *out, const codec_json_token *t, const char *text)
{
    uint64_t mag = 0, limit = (uint64_t)INT64_MAX;
    uint32_t pos = t->start;
    int neg = 0;

    *out = 0;
    if (t->type != CODEC_JSON_NUMBER || t->start == t->end)
        return SCHEMA_EDECODE;
    if (text[pos] == '-') {
        neg = 1;
        limit = (uint64_t)INT64_MAX + 1;
        pos++;
    }
    if (pos == t->end)
        return SCHEMA_EDECODE;
    for (; pos < t->end; pos++) {
        unsigned d;
        if (text[pos] < '0' || text[pos] > '9')
            return SCHEMA_EDECODE;         /* a fraction or an exponent */
        d = (unsigned)(text[pos] - '0');
        if (mag > (limit - d) / 10)
            return SCHEMA_EDECODE;
        mag = mag * 10 + d;
    }
    if (neg)
        *out = mag == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)mag;
    else
        *out = (int64_t)mag;
    return SCHEMA_OK;
}
