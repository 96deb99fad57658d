/*
 * view_diff.c - what changed between two views a subscriber was sent: the
 * top-level members of the new view's JSON whose text differs from the
 * old one's ("set"), and the members the old one had that the new one
 * lacks ("unset"). A client that holds the old view replaces those
 * members and has the new view, byte for byte the JSON GET .../view
 * answers (docs/API.md, "The push stream").
 *
 * Layer: server. It reads only JSON that inspect_state_json wrote (never
 * a client's bytes): one object whose keys are plain names. Anything else
 * (more members than it keeps, a key with an escape) is refused by
 * server__members, and the caller then sends the whole view instead; it
 * never guesses.
 */
#include <string.h>

#include "server/internal.h"

/* Splits the top-level object in text into its members: their number,
 * or -1 if text is not one object or has more than cap members. */
int server__members(server__member *out, size_t cap, const char *text, size_t len)
{
    size_t i = 0, n = 0;
    while (i < len && (text[i] == ' ' || text[i] == '\n'))
        i++;
    if (i == len || text[i] != '{')
        return -1;
    i++;
    if (i < len && text[i] == '}')
        return 0;
    for (;;) {
        if (n == cap || i >= len || text[i] != '"')
            return -1;
        size_t key = i + 1;
        while (++i < len && text[i] != '"')
            if (text[i] == '\\')
                return -1; /* the writer's keys need no escape */
        if (i >= len || i + 1 >= len || text[i + 1] != ':')
            return -1;
        out[n].key = key;
        out[n].key_len = i - key;
        i += 2;
        size_t value = i;
        int depth = 0, is_string = 0;
        for (; i < len; i++) {
            char c = text[i];
            if (is_string) {
                if (c == '\\')
                    i++;
                else if (c == '"')
                    is_string = 0;
            } else if (c == '"') {
                is_string = 1;
            } else if (c == '{' || c == '[') {
                depth++;
            } else if (c == '}' || c == ']') {
                if (depth == 0)
                    break;
                depth--;
            } else if (c == ',' && depth == 0) {
                break;
            }
        }
        if (i >= len || is_string)
            return -1;
        out[n].value = value;
        out[n].value_len = i - value;
        n++;
        if (text[i] == '}')
            return (int)n;
        i++; /* the comma */
    }
}

/* The member of m (n of them) whose key is key, trying index hint
 * first (the writer keeps one order): its index, or -1. */
static int find_member(const server__member *m, int n, const char *text, const char *key,
                       size_t key_len, int hint)
{
    if (hint < n && m[hint].key_len == key_len && memcmp(text + m[hint].key, key, key_len) == 0)
        return hint;
    for (int i = 0; i < n; i++)
        if (m[i].key_len == key_len && memcmp(text + m[i].key, key, key_len) == 0)
            return i;
    return -1;
}

static void put_member(FILE *f, const char *text, const server__member *m, int is_first)
{
    if (!is_first)
        fputc(',', f);
    fputc('"', f);
    fwrite(text + m->key, 1, m->key_len, f);
    fputs("\":", f);
    fwrite(text + m->value, 1, m->value_len, f);
}

void server__diff_write(FILE *f, uint32_t base, const char *old, const server__member *a, int na,
                        const char *now, const server__member *b, int nb)
{
    fprintf(f, "\"base\":%u,\"set\":{", base);
    int is_first = 1;
    for (int i = 0; i < nb; i++) {
        int k = find_member(a, na, old, now + b[i].key, b[i].key_len, i);
        if (k >= 0 && a[k].value_len == b[i].value_len &&
            memcmp(old + a[k].value, now + b[i].value, b[i].value_len) == 0)
            continue;
        put_member(f, now, &b[i], is_first);
        is_first = 0;
    }
    fputs("},\"unset\":[", f);
    is_first = 1;
    for (int i = 0; i < na; i++) {
        if (find_member(b, nb, now, old + a[i].key, a[i].key_len, i) >= 0)
            continue;
        fputs(is_first ? "\"" : ",\"", f);
        fwrite(old + a[i].key, 1, a[i].key_len, f);
        fputc('"', f);
        is_first = 0;
    }
    fputc(']', f);
}
