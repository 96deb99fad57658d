/*
 * test_json_out.c - the library's JSON writer (inspect/json_out.c):
 * nesting, commas, escaping, numbers at their limits, strings longer
 * than the writer's chunk; everything it writes must parse back
 * (schema's reader) to what went in.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema/schema.h"
#include "inspect/inspect.h"

/* Runs fn on a writer over a memory stream; returns the text (free it). */
static char *written(void (*fn)(inspect_json *j))
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    inspect_json j;
    inspect_json_init(&j, f);
    fn(&j);
    inspect_json_finish(&j);
    assert_int_equal(fclose(f), 0);
    return buf;
}

static void nested(inspect_json *j)
{
    inspect_json_object_begin(j);
    inspect_json_key(j, "a");
    inspect_json_int(j, -3);
    inspect_json_key(j, "b");
    inspect_json_array_begin(j);
    inspect_json_uint(j, 1);
    inspect_json_bool(j, 1);
    inspect_json_null(j);
    inspect_json_array_begin(j);
    inspect_json_array_end(j);
    inspect_json_object_begin(j);
    inspect_json_object_end(j);
    inspect_json_array_end(j);
    inspect_json_key(j, "c");
    inspect_json_raw(j, "{\"kind\":\"storm_dial\",\"value\":3}");
    inspect_json_key(j, "d");
    static const uint8_t bytes[3] = {0x00, 0xab, 0xff};
    inspect_json_hex(j, bytes, sizeof bytes);
    inspect_json_object_end(j);
}

static void test_json_out__nesting_and_commas(void **state)
{
    (void)state;
    char *s = written(nested);
    assert_string_equal(s, "{\"a\":-3,\"b\":[1,true,null,[],{}],"
                           "\"c\":{\"kind\":\"storm_dial\",\"value\":3},\"d\":\"00abff\"}\n");
    codec_json_token tok[32];
    assert_true(codec_json_parse(tok, 32, s, strlen(s) - 1, NULL) > 0);
    free(s);
}

static const char nasty[] = "q\"uote \\back\\slash\n\t\r\b\f \x01\x1f\x7f end \xc3\xa9";

static void escaped(inspect_json *j)
{
    inspect_json_array_begin(j);
    inspect_json_string(j, nasty);
    inspect_json_string(j, "");
    inspect_json_array_end(j);
}

static void test_json_out__strings_round_trip(void **state)
{
    (void)state;
    char *s = written(escaped);
    for (const char *c = s; *c != '\n'; c++)
        assert_true((unsigned char)*c >= 0x20 && *c != 0x7f);
    codec_json_token tok[8];
    char err[SCHEMA_ERRMSG] = "";
    int n = codec_json_parse(tok, 8, s, strlen(s) - 1, err);
    if (n < 0)
        print_error("%s: %s\n", err, s);
    assert_int_equal(n, 3);
    char back[128];
    assert_int_equal(codec_json_string(back, sizeof back, &tok[1], s), 0);
    assert_string_equal(back, nasty);
    assert_int_equal(codec_json_string(back, sizeof back, &tok[2], s), 0);
    assert_string_equal(back, "");
    free(s);
}

static void limits(inspect_json *j)
{
    inspect_json_object_begin(j);
    inspect_json_member_int(j, "min", INT64_MIN);
    inspect_json_member_int(j, "max", INT64_MAX);
    inspect_json_member_int(j, "zero", 0);
    inspect_json_member_uint(j, "umax", UINT64_MAX);
    inspect_json_member_bool(j, "no", 0);
    inspect_json_member_string(j, "ctl", "\x01\x1f\x7f\"");
    inspect_json_object_end(j);
}

/* The exact text, as printf's %d, %u and the \u escapes write it. */
static void test_json_out__numbers_and_escapes_exact(void **state)
{
    (void)state;
    char *s = written(limits);
    assert_string_equal(s, "{\"min\":-9223372036854775808,\"max\":9223372036854775807,"
                           "\"zero\":0,\"umax\":18446744073709551615,\"no\":false,"
                           "\"ctl\":\"\\u0001\\u001f\\u007f\\\"\"}\n");
    free(s);
}

static char long_text[3000];

static void long_string(inspect_json *j)
{
    inspect_json_array_begin(j);
    inspect_json_string(j, long_text);
    inspect_json_array_end(j);
}

/* A string of a few thousand characters, escapes spread through it,
 * passes the writer's stack chunk whole. */
static void test_json_out__long_string_round_trips(void **state)
{
    (void)state;
    for (size_t i = 0; i + 1 < sizeof long_text; i++)
        long_text[i] = i % 97 == 0 ? '"' : i % 89 == 0 ? '\n' : (char)('a' + i % 26);
    char *s = written(long_string);
    codec_json_token tok[4];
    assert_int_equal(codec_json_parse(tok, 4, s, strlen(s) - 1, NULL), 2);
    static char back[sizeof long_text];
    assert_int_equal(codec_json_string(back, sizeof back, &tok[1], s), 0);
    assert_string_equal(back, long_text);
    free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_json_out__nesting_and_commas),
        cmocka_unit_test(test_json_out__strings_round_trip),
        cmocka_unit_test(test_json_out__numbers_and_escapes_exact),
        cmocka_unit_test(test_json_out__long_string_round_trips),
    };
    return cmocka_run_group_tests_name("json_out", tests, NULL, NULL);
}
