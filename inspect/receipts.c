/*
 * receipts.c - a receipts file (`mentat verify --receipts FILE`): the
 * receipts a seat kept, one JSON object a line as `mentat act --json`
 * prints them, read strictly.
 *
 * Layer: inspect. The text comes from outside: nothing in it is trusted.
 * It must be at most INSPECT_RECEIPTS_FILE_MAX bytes with lines of at most
 * INSPECT_RECEIPT_LINE_MAX, hold no NUL byte, and every line that is not
 * blank or a '#' comment must be one receipt (inspect_receipt_parse);
 * anything else is refused with the line that is wrong, never skipped.
 * Never touches a ledger.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inspect/internal.h"

static int fail_line(char *err, size_t line, const char *what)
{
    /* A long reason is cut short: the return value says by how much. */
    if (err != NULL && snprintf(err, SCHEMA_ERRMSG, "line %zu: %s", line, what) < 0)
        err[0] = '\0';
    return INSPECT_EINPUT;
}

int inspect_receipts_parse(codec_receipt **out, size_t *n_out, const char *text, size_t len,
                           char *err)
{
    *out = NULL;
    *n_out = 0;
    if (len > INSPECT_RECEIPTS_FILE_MAX) {
        if (err != NULL)
            snprintf(err, SCHEMA_ERRMSG, "larger than %zu bytes", INSPECT_RECEIPTS_FILE_MAX);
        return INSPECT_EINPUT;
    }
    const char *nul = memchr(text, '\0', len);
    if (nul != NULL) {
        size_t line = 1;
        for (const char *p = text; p < nul; p++)
            line += *p == '\n';
        return fail_line(err, line, "a NUL byte (not a receipts file)");
    }
    codec_receipt *r = NULL;
    size_t n = 0, cap = 0, line = 0;
    char why[SCHEMA_ERRMSG];
    int rc = 0;
    for (size_t at = 0; at < len && rc == 0;) {
        const char *start = text + at;
        const char *nl = memchr(start, '\n', len - at);
        size_t n_line = nl != NULL ? (size_t)(nl - start) : len - at;
        at += n_line + (nl != NULL);
        line++;
        if (n_line > INSPECT_RECEIPT_LINE_MAX) {
            char what[64];
            snprintf(what, sizeof what, "longer than %d bytes", INSPECT_RECEIPT_LINE_MAX);
            rc = fail_line(err, line, what);
            break;
        }
        while (n_line > 0 && (start[n_line - 1] == '\r' || start[n_line - 1] == ' ' ||
                              start[n_line - 1] == '\t'))
            n_line--;
        while (n_line > 0 && (*start == ' ' || *start == '\t')) {
            start++;
            n_line--;
        }
        if (n_line == 0 || *start == '#')
            continue;
        if (n == cap) {
            size_t c = cap != 0 ? 2 * cap : 16;
            codec_receipt *p = realloc(r, c * sizeof *p);
            if (p == NULL) {
                rc = INSPECT_ERROR;
                if (err != NULL)
                    snprintf(err, SCHEMA_ERRMSG, "out of memory");
                break;
            }
            r = p;
            cap = c;
        }
        if (inspect_receipt_parse(&r[n], start, n_line, why) != 0) {
            rc = fail_line(err, line, why);
            break;
        }
        n++;
    }
    if (rc != 0) {
        free(r);
        return rc;
    }
    *out = r;
    *n_out = n;
    return 0;
}
