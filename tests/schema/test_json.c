/*
 * test_json.c - the strict JSON reader of schema/json.c (RFC 8259 edge
 * cases: numbers, strings, escapes, UTF-8, nesting, trailing bytes) and
 * the action JSON of schema/action_json.c: a round trip for every action
 * kind, the exact text written, and every way an action text is refused.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "schema/schema.h"

#define TOKENS 128

/* Parses `text` (NUL-terminated) and returns the token count or code. */
static int parse(codec_json_token *tok, const char *text, char *err)
{
    return codec_json_parse(tok, TOKENS, text, strlen(text), err);
}

static void expect_parse_error(const char *text, const char *msg)
{
    codec_json_token tok[TOKENS];
    char err[SCHEMA_ERRMSG] = "";
    int n = parse(tok, text, err);
    if (n != SCHEMA_EDECODE)
        fail_msg("'%s' parsed (%d), expected \"%s\"", text, n, msg);
    assert_string_equal(err, msg);
}

static void expect_parse_ok(const char *text, int n_tokens)
{
    codec_json_token tok[TOKENS];
    char err[SCHEMA_ERRMSG] = "";
    int n = parse(tok, text, err);
    if (n < 0)
        fail_msg("'%s': %s", text, err);
    assert_int_equal(n, n_tokens);
}

/* ========================================================== tokenizer */

static void test_json__tokens_of_a_document(void **state)
{
    const char *text = " {\"a\": [1, -2.5e+3, true], \"b\" : {\"c\": null}, \"d\": \"x\\n\"} ";
    codec_json_token tok[TOKENS];
    char err[SCHEMA_ERRMSG] = "";
    int n;
    (void)state;
    n = parse(tok, text, err);
    assert_int_equal(n, 12);
    assert_int_equal(tok[0].type, CODEC_JSON_OBJECT);
    assert_int_equal(tok[0].size, 3);
    assert_int_equal(tok[0].start, 1);
    assert_int_equal(tok[0].end, strlen(text) - 1);
    assert_int_equal(tok[0].next, 12);
    assert_true(codec_json_eq(&tok[1], text, "a"));
    assert_int_equal(tok[2].type, CODEC_JSON_ARRAY);
    assert_int_equal(tok[2].size, 3);
    assert_int_equal(tok[2].next, 6);
    assert_int_equal(tok[3].type, CODEC_JSON_NUMBER);
    assert_int_equal(tok[4].type, CODEC_JSON_NUMBER);
    assert_int_equal(tok[4].end - tok[4].start, strlen("-2.5e+3"));
    assert_int_equal(tok[5].type, CODEC_JSON_BOOL);
    assert_true(codec_json_eq(&tok[6], text, "b"));
    assert_int_equal(tok[7].type, CODEC_JSON_OBJECT);
    assert_int_equal(tok[7].next, 10);
    assert_int_equal(tok[9].type, CODEC_JSON_NULL);
    assert_int_equal(tok[11].type, CODEC_JSON_STRING);
    assert_int_equal(tok[11].end - tok[11].start, 3);
    assert_int_equal(codec_json_member(tok, 0, text, "b"), 7);
    assert_int_equal(codec_json_member(tok, 0, text, "d"), 11);
    assert_int_equal(codec_json_member(tok, 0, text, "c"), -1);
    assert_int_equal(codec_json_member(tok, 7, text, "c"), 9);
    assert_int_equal(codec_json_member(tok, 2, text, "a"), -1);
}

static void test_json__accepts_edge_cases(void **state)
{
    (void)state;
    expect_parse_ok("0", 1);
    expect_parse_ok("-0", 1);
    expect_parse_ok("0.5", 1);
    expect_parse_ok("1E9", 1);
    expect_parse_ok("1e-9", 1);
    expect_parse_ok("\"\"", 1);
    expect_parse_ok("[]", 1);
    expect_parse_ok("{}", 1);
    expect_parse_ok("[[],{}]", 3);
    expect_parse_ok("\t\r\n null \n", 1);
    expect_parse_ok("\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\uD83D\\uDE00\"", 1);
    expect_parse_ok("\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"", 1);
    expect_parse_ok("{\"\":1,\"\":2}", 5);             /* duplicates are the reader's business */
}

static void test_json__refuses_malformed(void **state)
{
    (void)state;
    expect_parse_error("", "JSON: unexpected end of text at byte 0");
    expect_parse_error("   ", "JSON: unexpected end of text at byte 3");
    expect_parse_error("{} x", "JSON: trailing bytes at byte 3");
    expect_parse_error("1 2", "JSON: trailing bytes at byte 2");
    expect_parse_error("01", "JSON: leading zero at byte 1");
    expect_parse_error("-01", "JSON: leading zero at byte 2");
    expect_parse_error("1.", "JSON: expected a digit at byte 2");
    expect_parse_error(".5", "JSON: unexpected character at byte 0");
    expect_parse_error("+1", "JSON: unexpected character at byte 0");
    expect_parse_error("-", "JSON: expected a digit at byte 1");
    expect_parse_error("1e", "JSON: expected a digit at byte 2");
    expect_parse_error("1e+", "JSON: expected a digit at byte 3");
    expect_parse_error("tru", "JSON: unexpected character at byte 0");
    expect_parse_error("nul", "JSON: unexpected character at byte 0");
    expect_parse_error("True", "JSON: unexpected character at byte 0");
    expect_parse_error("NaN", "JSON: unexpected character at byte 0");
    expect_parse_error("'a'", "JSON: unexpected character at byte 0");
    expect_parse_error("[1,]", "JSON: unexpected character at byte 3");
    expect_parse_error("{\"a\":1,}", "JSON: expected a member name at byte 7");
    expect_parse_error("{\"a\" 1}", "JSON: expected ':' at byte 5");
    expect_parse_error("{a:1}", "JSON: expected a member name at byte 1");
    expect_parse_error("[1 2]", "JSON: expected ',' or ']' at byte 3");
    expect_parse_error("{\"a\":1 \"b\":2}", "JSON: expected ',' or '}' at byte 7");
    expect_parse_error("[1", "JSON: expected ',' or ']' at byte 2");
    expect_parse_error("[1] /* c */", "JSON: trailing bytes at byte 4");
    expect_parse_error("\"abc", "JSON: unterminated string at byte 4");
    expect_parse_error("\"a\nb\"", "JSON: control character in string at byte 2");
    expect_parse_error("\"a\tb\"", "JSON: control character in string at byte 2");
    expect_parse_error("\"\\x\"", "JSON: bad escape at byte 1");
    expect_parse_error("\"\\u12G4\"", "JSON: bad \\u escape at byte 1");
    expect_parse_error("\"\\u12\"", "JSON: bad \\u escape at byte 1");
    expect_parse_error("\"\\uD800\"", "JSON: lone high surrogate at byte 1");
    expect_parse_error("\"\\uD800\\u0041\"", "JSON: lone high surrogate at byte 1");
    expect_parse_error("\"\\uDC00\"", "JSON: lone low surrogate at byte 1");
    expect_parse_error("\"\xc0\x80\"", "JSON: invalid UTF-8 in string at byte 1");
    expect_parse_error("\"\xed\xa0\x80\"", "JSON: invalid UTF-8 in string at byte 1");
    expect_parse_error("\"\xf5\x80\x80\x80\"", "JSON: invalid UTF-8 in string at byte 1");
    expect_parse_error("\"\xe2\x82\"", "JSON: invalid UTF-8 in string at byte 1");
    expect_parse_error("\"\xff\"", "JSON: invalid UTF-8 in string at byte 1");
    expect_parse_error("\xef\xbb\xbf{}", "JSON: unexpected character at byte 0");
}

static void test_json__refuses_nul_byte(void **state)
{
    codec_json_token tok[TOKENS];
    char err[SCHEMA_ERRMSG] = "";
    (void)state;
    assert_int_equal(codec_json_parse(tok, TOKENS, "\"a\0b\"", 5, err), SCHEMA_EDECODE);
    assert_string_equal(err, "JSON: control character in string at byte 2");
    assert_int_equal(codec_json_parse(tok, TOKENS, "{}\0", 3, err), SCHEMA_EDECODE);
    assert_string_equal(err, "JSON: trailing bytes at byte 2");
}

static void test_json__depth_limit(void **state)
{
    char text[200];
    (void)state;
    memset(text, 0, sizeof text);
    for (int i = 0; i < 32; i++) {
        text[i] = '[';
        text[32 + i] = ']';
    }
    expect_parse_ok(text, 32);
    memset(text, 0, sizeof text);
    for (int i = 0; i < 33; i++) {
        text[i] = '[';
        text[33 + i] = ']';
    }
    expect_parse_error(text, "JSON: nesting deeper than 32 at byte 32");
}

static void test_json__token_space(void **state)
{
    codec_json_token tok[4];
    char err[SCHEMA_ERRMSG] = "";
    (void)state;
    assert_int_equal(codec_json_parse(tok, 4, "[1,2,3]", 7, err), 4);
    assert_int_equal(codec_json_parse(tok, 3, "[1,2,3]", 7, err), SCHEMA_ESPACE);
    assert_int_equal(codec_json_parse(NULL, 0, "[1,2,3]", 7, err), SCHEMA_ESPACE);
    /* a syntax error is reported before a lack of space */
    assert_int_equal(codec_json_parse(tok, 2, "[1,2,3,]", 8, err), SCHEMA_EDECODE);
}

static void test_json__string_unescapes(void **state)
{
    const char *text = "[\"a\\\"b\\\\c\\/\\n\\u00e9\\u20AC\\uD83D\\uDE00\", \"\\u0000\", \"plain\"]";
    codec_json_token tok[TOKENS];
    char out[64];
    (void)state;
    assert_int_equal(parse(tok, text, NULL), 4);
    assert_int_equal(codec_json_string(out, sizeof out, &tok[1], text), SCHEMA_OK);
    assert_string_equal(out, "a\"b\\c/\n\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
    assert_true(codec_json_eq(&tok[1], text, "a\"b\\c/\n\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"));
    assert_false(codec_json_eq(&tok[1], text, "a\"b"));
    assert_int_equal(codec_json_string(out, 17, &tok[1], text), SCHEMA_OK);
    assert_int_equal(codec_json_string(out, 16, &tok[1], text), SCHEMA_ESPACE);
    assert_int_equal(codec_json_string(out, sizeof out, &tok[2], text), SCHEMA_EDECODE);
    assert_int_equal(codec_json_string(out, 6, &tok[3], text), SCHEMA_OK);
    assert_string_equal(out, "plain");
    assert_int_equal(codec_json_string(out, 5, &tok[3], text), SCHEMA_ESPACE);
    assert_int_equal(codec_json_string(out, sizeof out, &tok[0], text), SCHEMA_EDECODE);
    assert_true(codec_json_eq(&tok[3], text, "plain"));
    assert_false(codec_json_eq(&tok[3], text, "plai"));
    assert_false(codec_json_eq(&tok[3], text, "plains"));
}

static void test_json__integers(void **state)
{
    static const struct {
        const char *text;
        int rc;
        int64_t value;
    } cases[] = {
        {"0", SCHEMA_OK, 0},
        {"-0", SCHEMA_OK, 0},
        {"32767", SCHEMA_OK, 32767},
        {"-17", SCHEMA_OK, -17},
        {"9223372036854775807", SCHEMA_OK, INT64_MAX},
        {"-9223372036854775808", SCHEMA_OK, INT64_MIN},
        {"9223372036854775808", SCHEMA_EDECODE, 0},
        {"-9223372036854775809", SCHEMA_EDECODE, 0},
        {"99999999999999999999999", SCHEMA_EDECODE, 0},
        {"1.0", SCHEMA_EDECODE, 0},
        {"1e2", SCHEMA_EDECODE, 0},
        {"\"1\"", SCHEMA_EDECODE, 0},
    };
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        codec_json_token tok[2];
        int64_t v = 12345;
        assert_int_equal(codec_json_parse(tok, 2, cases[i].text, strlen(cases[i].text), NULL), 1);
        assert_int_equal(codec_json_int(&v, &tok[0], cases[i].text), cases[i].rc);
        if (cases[i].rc == SCHEMA_OK)
            assert_true(v == cases[i].value);
    }
}

/* ========================================================= action JSON */

static engine_action sample_action(unsigned kind, int high)
{
    const engine_action_spec *spec = engine_action_spec_of(kind);
    engine_action a;
    memset(&a, 0, sizeof a);
    assert_non_null(spec);
    a.kind = (uint8_t)kind;
    for (unsigned i = 0; i < spec->n_args; i++) {
        switch ((engine_arg_type)spec->arg_type[i]) {
        case ENGINE_ARG_INT: a.arg[i] = (int16_t)(high ? INT16_MAX - (int)i : (int)i); break;
        case ENGINE_ARG_FACTION: a.arg[i] = high ? ENGINE_FACTION_MORITANI : ENGINE_FACTION_ATREIDES; break;
        case ENGINE_ARG_LEADER: a.arg[i] = high ? ENGINE_LEADER_COUNT - 1 : 0; break;
        case ENGINE_ARG_TERRITORY: a.arg[i] = high ? ENGINE_TERRITORY_COUNT - 1 : 0; break;
        case ENGINE_ARG_LOCATION: a.arg[i] = high ? ENGINE_LOCATION_COUNT - 1 : 0; break;
        case ENGINE_ARG_CARD: a.arg[i] = high ? ENGINE_TREACHERY_MAX - 1 : 0; break;
        case ENGINE_ARG_SIGNED: a.arg[i] = high ? INT16_MAX : INT16_MIN; break;
        case ENGINE_ARG_COUNT1: a.arg[i] = high ? INT16_MAX : 1; break; /* n + 1: 0 is absent */
        }
    }
    return a;
}

static void action_round_trip(const engine_action *a)
{
    char text[512], err[SCHEMA_ERRMSG] = "";
    engine_action back;
    assert_int_equal(codec_action_to_json(text, sizeof text, a), SCHEMA_OK);
    if (codec_action_from_json(&back, text, strlen(text), err) != SCHEMA_OK)
        fail_msg("%s: %s", text, err);
    assert_memory_equal(&back, a, sizeof back);
}

static void test_json__action_round_trip_every_kind(void **state)
{
    (void)state;
    for (unsigned kind = 1; kind < ENGINE_ACTION_KIND_COUNT; kind++) {
        engine_action a = sample_action(kind, 0);
        action_round_trip(&a);
        a = sample_action(kind, 1);
        action_round_trip(&a);
    }
}

static void test_json__action_round_trip_every_name(void **state)
{
    (void)state;
    for (unsigned kind = 1; kind < ENGINE_ACTION_KIND_COUNT; kind++) {
        const engine_action_spec *spec = engine_action_spec_of(kind);
        for (unsigned i = 0; i < spec->n_args; i++) {
            int32_t n = 0;
            switch ((engine_arg_type)spec->arg_type[i]) {
            case ENGINE_ARG_FACTION: n = ENGINE_FACTION_COUNT; break;
            case ENGINE_ARG_LEADER: n = ENGINE_LEADER_COUNT; break;
            case ENGINE_ARG_TERRITORY: n = ENGINE_TERRITORY_COUNT; break;
            case ENGINE_ARG_LOCATION: n = ENGINE_LOCATION_COUNT; break;
            case ENGINE_ARG_INT:
            case ENGINE_ARG_SIGNED:
            case ENGINE_ARG_CARD:
            case ENGINE_ARG_COUNT1:
                break;
            }
            for (int32_t v = 0; v < n; v++) {
                engine_action a = sample_action(kind, 0);
                a.arg[i] = (int16_t)v;
                action_round_trip(&a);
            }
        }
    }
}

static void expect_to_json(const engine_action *a, const char *want)
{
    char text[512];
    assert_int_equal(codec_action_to_json(text, sizeof text, a), SCHEMA_OK);
    assert_string_equal(text, want);
}

static void test_json__action_text(void **state)
{
    engine_action a;
    (void)state;
    memset(&a, 0, sizeof a);
    a.kind = ENGINE_ACTION_STORM_DIAL;
    a.arg[0] = 7;
    expect_to_json(&a, "{\"kind\":\"storm_dial\",\"value\":7}");
    a.kind = ENGINE_ACTION_PREDICT;
    a.arg[0] = ENGINE_FACTION_HARKONNEN;
    a.arg[1] = 3;
    expect_to_json(&a, "{\"kind\":\"predict\",\"faction\":\"harkonnen\",\"turn\":3}");
    memset(&a, 0, sizeof a);
    a.kind = ENGINE_ACTION_TRAITOR_PICK;
    a.arg[0] = 0;
    expect_to_json(&a, "{\"kind\":\"traitor_pick\",\"leader\":\"thufir_hawat\"}");
    a.kind = ENGINE_ACTION_BG_PLACE;
    a.arg[0] = 7;
    expect_to_json(&a, "{\"kind\":\"bg_place\",\"location\":{\"territory\":\"sietch_tabr\",\"sector\":13}}");
    a.arg[0] = 0;
    expect_to_json(&a, "{\"kind\":\"bg_place\",\"location\":{\"territory\":\"polar_sink\"}}");
}

static void test_json__action_none_values(void **state)
{
    engine_action a;
    (void)state;
    memset(&a, 0, sizeof a);
    a.kind = ENGINE_ACTION_REVIVE;
    a.arg[0] = 3;
    a.arg[1] = 1;
    a.arg[2] = -1;
    expect_to_json(&a, "{\"kind\":\"revive\",\"forces\":3,\"elite\":1,\"leader\":null}");
    action_round_trip(&a);
    a.kind = ENGINE_ACTION_GHOLA;
    a.arg[0] = 0;
    a.arg[1] = 20;
    a.arg[2] = 0;
    expect_to_json(&a, "{\"kind\":\"ghola\",\"forces\":0,\"leader\":\"feyd_rautha\"}");
    memset(&a, 0, sizeof a);
    a.kind = ENGINE_ACTION_BATTLE_PLAN;
    a.arg[0] = 0;
    a.arg[1] = -1;
    a.arg[2] = 12;
    a.arg[3] = -1;
    a.arg[4] = 5;
    expect_to_json(&a, "{\"kind\":\"battle_plan\",\"leader\":\"thufir_hawat\",\"cheap_hero\":null,"
                       "\"weapon\":12,\"defense\":null,\"dial\":5}");
    action_round_trip(&a);
}

static void expect_action(const char *text, const engine_action *want)
{
    engine_action a;
    char err[SCHEMA_ERRMSG] = "";
    if (codec_action_from_json(&a, text, strlen(text), err) != SCHEMA_OK)
        fail_msg("%s: %s", text, err);
    assert_memory_equal(&a, want, sizeof a);
}

static void test_json__action_accepted_forms(void **state)
{
    engine_action want;
    (void)state;
    memset(&want, 0, sizeof want);
    want.kind = ENGINE_ACTION_STORM_DIAL;
    want.arg[0] = 20;
    expect_action("{\"value\":20,\"kind\":\"storm_dial\"}", &want);
    expect_action(" {\n\t\"kind\" : \"storm_dial\" , \"value\" : 20 }\n", &want);
    expect_action("{\"kind\":\"storm_\\u0064ial\",\"v\\u0061lue\":20}", &want);

    memset(&want, 0, sizeof want);
    want.kind = ENGINE_ACTION_TRAITOR_PICK;
    want.arg[0] = 1;
    expect_action("{\"kind\":\"traitor_pick\",\"leader\":\"lady_jessica\"}", &want);
    expect_action("{\"kind\":\"traitor_pick\",\"leader\":1}", &want);

    memset(&want, 0, sizeof want);
    want.kind = ENGINE_ACTION_BG_PLACE;
    want.arg[0] = 7;
    expect_action("{\"kind\":\"bg_place\",\"location\":7}", &want);
    expect_action("{\"kind\":\"bg_place\",\"location\":{\"sector\":13,\"territory\":\"sietch_tabr\"}}", &want);
    want.arg[0] = 0;
    expect_action("{\"kind\":\"bg_place\",\"location\":{\"territory\":\"polar_sink\"}}", &want);
    want.arg[0] = ENGINE_LOCATION_COUNT - 1;
    expect_action("{\"kind\":\"bg_place\",\"location\":{\"territory\":\"hidden_mobile_stronghold\"}}", &want);

    memset(&want, 0, sizeof want);
    want.kind = ENGINE_ACTION_GHOLA;
    want.arg[0] = 5;
    want.arg[1] = -1;
    expect_action("{\"kind\":\"ghola\",\"forces\":5,\"leader\":null}", &want);
    expect_action("{\"kind\":\"ghola\",\"forces\":5,\"leader\":-1}", &want);
    memset(&want, 0, sizeof want);
    want.kind = ENGINE_ACTION_ALLIANCE_BREAK;
    expect_action("{\"kind\":\"alliance_break\"}", &want);
}

static void expect_action_error(const char *text, const char *msg)
{
    engine_action a;
    char err[SCHEMA_ERRMSG] = "";
    int rc = codec_action_from_json(&a, text, strlen(text), err);
    if (rc != SCHEMA_EDECODE)
        fail_msg("'%s' accepted (rc %d), expected \"%s\"", text, rc, msg);
    assert_string_equal(err, msg);
    assert_int_equal(a.kind, ENGINE_ACTION_NONE);
}

static void test_json__action_refusals(void **state)
{
    (void)state;
    /* not an object */
    expect_action_error("[]", "action JSON: not an object");
    expect_action_error("\"storm_dial\"", "action JSON: not an object");
    expect_action_error("7", "action JSON: not an object");
    expect_action_error("", "JSON: unexpected end of text at byte 0");
    /* the kind */
    expect_action_error("{}", "action JSON: missing field \"kind\"");
    expect_action_error("{\"value\":1}", "action JSON: missing field \"kind\"");
    expect_action_error("{\"kind\":\"storm\",\"value\":1}", "action JSON: unknown action kind \"storm\"");
    expect_action_error("{\"kind\":\"none\"}", "action JSON: unknown action kind \"none\"");
    expect_action_error("{\"kind\":\"Storm_Dial\",\"value\":1}", "action JSON: unknown action kind \"Storm_Dial\"");
    expect_action_error("{\"kind\":5,\"value\":1}", "action JSON: \"kind\": expected an action name");
    expect_action_error("{\"kind\":\"storm_dial\",\"kind\":\"storm_dial\",\"value\":1}",
                        "action JSON: duplicate field \"kind\"");
    /* fields */
    expect_action_error("{\"kind\":\"storm_dial\"}", "action JSON: missing field \"value\"");
    expect_action_error("{\"kind\":\"predict\",\"faction\":\"emperor\"}", "action JSON: missing field \"turn\"");
    expect_action_error("{\"kind\":\"storm_dial\",\"value\":1,\"seat\":0}",
                        "action JSON: unknown field \"seat\" for storm_dial");
    expect_action_error("{\"kind\":\"storm_dial\",\"value\":1,\"value\":2}",
                        "action JSON: duplicate field \"value\"");
    expect_action_error("{\"kind\":\"storm_dial\",\"Value\":1}",
                        "action JSON: unknown field \"Value\" for storm_dial");
    /* wrong types */
    expect_action_error("{\"kind\":\"storm_dial\",\"value\":\"7\"}", "action JSON: \"value\": expected an integer");
    expect_action_error("{\"kind\":\"storm_dial\",\"value\":null}", "action JSON: \"value\": expected an integer");
    expect_action_error("{\"kind\":\"storm_dial\",\"value\":7.5}", "action JSON: \"value\": not an integer in range 0..32767");
    expect_action_error("{\"kind\":\"storm_dial\",\"value\":7e0}", "action JSON: \"value\": not an integer in range 0..32767");
    expect_action_error("{\"kind\":\"predict\",\"faction\":2,\"turn\":1}", "action JSON: \"faction\": expected a faction name");
    expect_action_error("{\"kind\":\"predict\",\"faction\":\"Emperor\",\"turn\":1}",
                        "action JSON: \"faction\": unknown faction \"Emperor\"");
    expect_action_error("{\"kind\":\"traitor_pick\",\"leader\":true}",
                        "action JSON: \"leader\": expected a leader name or index");
    expect_action_error("{\"kind\":\"traitor_pick\",\"leader\":\"paul\"}",
                        "action JSON: \"leader\": unknown leader \"paul\"");
    expect_action_error("{\"kind\":\"bg_place\",\"location\":\"sietch_tabr\"}",
                        "action JSON: \"location\": expected a location object or index");
    /* out of range */
    expect_action_error("{\"kind\":\"storm_dial\",\"value\":32768}",
                        "action JSON: \"value\": value 32768 out of range 0..32767");
    expect_action_error("{\"kind\":\"storm_dial\",\"value\":-1}",
                        "action JSON: \"value\": value -1 out of range 0..32767");
    expect_action_error("{\"kind\":\"storm_dial\",\"value\":99999999999999999999}",
                        "action JSON: \"value\": not an integer in range 0..32767");
    expect_action_error("{\"kind\":\"traitor_pick\",\"leader\":62}",
                        "action JSON: \"leader\": value 62 out of range 0..61");
    expect_action_error("{\"kind\":\"traitor_pick\",\"leader\":-1}",
                        "action JSON: \"leader\": value -1 out of range 0..61");
    expect_action_error("{\"kind\":\"traitor_pick\",\"leader\":null}",
                        "action JSON: \"leader\": traitor_pick needs a value, not null");
    expect_action_error("{\"kind\":\"ghola\",\"forces\":5,\"leader\":-2}",
                        "action JSON: \"leader\": value -2 out of range -1..61");
    expect_action_error("{\"kind\":\"alliance_break\",\"faction\":\"fremen\"}",
                        "action JSON: unknown field \"faction\" for alliance_break");
    expect_action_error("{\"kind\":\"bg_place\",\"location\":87}",
                        "action JSON: \"location\": value 87 out of range 0..86");
    /* location objects */
    expect_action_error("{\"kind\":\"bg_place\",\"location\":{\"sector\":13}}",
                        "action JSON: \"location\": missing field \"territory\"");
    expect_action_error("{\"kind\":\"bg_place\",\"location\":{\"territory\":\"sietch_tabr\"}}",
                        "action JSON: \"location\": sietch_tabr needs a \"sector\"");
    expect_action_error("{\"kind\":\"bg_place\",\"location\":{\"territory\":\"sietch_tabr\",\"sector\":12}}",
                        "action JSON: \"location\": sietch_tabr does not lie in sector 12");
    expect_action_error("{\"kind\":\"bg_place\",\"location\":{\"territory\":\"polar_sink\",\"sector\":0}}",
                        "action JSON: \"location\": polar_sink does not lie in sector 0");
    expect_action_error("{\"kind\":\"bg_place\",\"location\":{\"territory\":\"sietch_tabr\",\"sector\":18}}",
                        "action JSON: \"sector\": value 18 out of range 0..17");
    expect_action_error("{\"kind\":\"bg_place\",\"location\":{\"territory\":\"tabr\",\"sector\":13}}",
                        "action JSON: \"location\": unknown territory \"tabr\"");
    expect_action_error("{\"kind\":\"bg_place\",\"location\":{\"territory\":5,\"sector\":13}}",
                        "action JSON: \"location\": \"territory\": expected a territory name");
    expect_action_error("{\"kind\":\"bg_place\",\"location\":{\"territory\":\"sietch_tabr\",\"sector\":13,\"x\":1}}",
                        "action JSON: \"location\": unknown field \"x\"");
    expect_action_error("{\"kind\":\"bg_place\",\"location\":{\"territory\":\"sietch_tabr\",\"sector\":13,\"sector\":13}}",
                        "action JSON: \"location\": duplicate field \"sector\"");
    /* trailing bytes */
    expect_action_error("{\"kind\":\"storm_dial\",\"value\":1} ,", "JSON: trailing bytes at byte 32");
    expect_action_error("{\"kind\":\"storm_dial\",\"value\":1}{}", "JSON: trailing bytes at byte 31");
    /* too much to be an action */
    {
        char text[600];
        size_t n = (size_t)snprintf(text, sizeof text, "{\"kind\":\"storm_dial\",\"value\":1,\"x\":[");
        for (int i = 0; i < 100; i++)
            n += (size_t)snprintf(text + n, sizeof text - n, "%s0", i ? "," : "");
        snprintf(text + n, sizeof text - n, "]}");
        expect_action_error(text, "action JSON: more than 64 values");
    }
    /* a long unknown name is cut in the message */
    expect_action_error("{\"kind\":\"abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz0123456789\"}",
                        "action JSON: unknown action kind \"abcdefghijklmnopqrstuvwxyz012345...\"");
}

static void test_json__action_to_json_space_and_invalid(void **state)
{
    engine_action a;
    char text[64];
    size_t full;
    (void)state;
    memset(&a, 0, sizeof a);
    a.kind = ENGINE_ACTION_STORM_DIAL;
    a.arg[0] = 7;
    assert_int_equal(codec_action_to_json(text, sizeof text, &a), SCHEMA_OK);
    full = strlen(text);
    assert_int_equal(codec_action_to_json(text, full + 1, &a), SCHEMA_OK);
    assert_int_equal(codec_action_to_json(text, full, &a), SCHEMA_ESPACE);
    assert_string_equal(text, "");
    assert_int_equal(codec_action_to_json(NULL, 0, &a), SCHEMA_ESPACE);
    a.arg[0] = -1;
    assert_int_equal(codec_action_to_json(text, sizeof text, &a), SCHEMA_ERROR);
    a.arg[0] = 7;
    a.kind = ENGINE_ACTION_NONE;
    assert_int_equal(codec_action_to_json(text, sizeof text, &a), SCHEMA_ERROR);
    a.kind = ENGINE_ACTION_KIND_COUNT;
    assert_int_equal(codec_action_to_json(text, sizeof text, &a), SCHEMA_ERROR);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_json__tokens_of_a_document),
        cmocka_unit_test(test_json__accepts_edge_cases),
        cmocka_unit_test(test_json__refuses_malformed),
        cmocka_unit_test(test_json__refuses_nul_byte),
        cmocka_unit_test(test_json__depth_limit),
        cmocka_unit_test(test_json__token_space),
        cmocka_unit_test(test_json__string_unescapes),
        cmocka_unit_test(test_json__integers),
        cmocka_unit_test(test_json__action_round_trip_every_kind),
        cmocka_unit_test(test_json__action_round_trip_every_name),
        cmocka_unit_test(test_json__action_text),
        cmocka_unit_test(test_json__action_none_values),
        cmocka_unit_test(test_json__action_accepted_forms),
        cmocka_unit_test(test_json__action_refusals),
        cmocka_unit_test(test_json__action_to_json_space_and_invalid),
    };
    return cmocka_run_group_tests_name("json", tests, NULL, NULL);
}
