/*
 * test_args.c - the command-line parsers of tools/: options anywhere,
 * --name=value, globals after the subcommand, strict numbers, faction and
 * module lists, seats by number or faction.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "engine/engine.h"
#include "schema/schema.h"
#include "tools/internal.h"

static void test_args__options_and_globals_anywhere(void **state)
{
    (void)state;
    tool_globals g = {"./mentat.db", "mentat.keys", 0, "act"};
    const char *seat = NULL, *version = NULL;
    int is_all = 0;
    const tool_opt opts[] = {
        {"--seat", "S", &seat, NULL},
        {"--version", "V", &version, NULL},
        {"--all", NULL, NULL, &is_all},
        {NULL, NULL, NULL, NULL},
    };
    char a0[] = "act", a1[] = "ROOM", a2[] = "--seat=3", a3[] = "--json", a4[] = "--db",
         a5[] = "x.db", a6[] = "--version", a7[] = "7", a8[] = "--all", a9[] = "--",
         a10[] = "--odd";
    char *argv[] = {a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10};
    const char *pos[2];
    size_t n_pos = 0;
    assert_int_equal(tool_args_parse(&g, 11, argv, opts, pos, 2, &n_pos, "help\n"),
                     TOOL_PARSED);
    assert_int_equal(n_pos, 2);
    assert_string_equal(pos[0], "ROOM");
    assert_string_equal(pos[1], "--odd");
    assert_string_equal(seat, "3");
    assert_string_equal(version, "7");
    assert_string_equal(g.db_path, "x.db");
    assert_int_equal(g.is_json, 1);
    assert_int_equal(is_all, 1);
}

static void test_args__refusals(void **state)
{
    (void)state;
    tool_globals g = {"./mentat.db", "mentat.keys", 0, "act"};
    const char *seat = NULL;
    const tool_opt opts[] = {
        {"--seat", "S", &seat, NULL},
        {NULL, NULL, NULL, NULL},
    };
    char a0[] = "act", b1[] = "--bogus", c1[] = "--seat", d1[] = "--json=1", e1[] = "extra";
    char s1[] = "--seat=1", s2[] = "--seat=2";
    char *unknown[] = {a0, b1}, *missing[] = {a0, c1}, *flagval[] = {a0, d1},
         *twice[] = {a0, s1, s2}, *extra[] = {a0, e1};
    assert_int_equal(tool_args_parse(&g, 2, unknown, opts, NULL, 0, NULL, ""), TOOL_BAD_USAGE);
    assert_int_equal(tool_args_parse(&g, 2, missing, opts, NULL, 0, NULL, ""), TOOL_BAD_USAGE);
    assert_int_equal(tool_args_parse(&g, 2, flagval, opts, NULL, 0, NULL, ""), TOOL_BAD_USAGE);
    assert_int_equal(tool_args_parse(&g, 3, twice, opts, NULL, 0, NULL, ""), TOOL_BAD_USAGE);
    assert_int_equal(tool_args_parse(&g, 2, extra, opts, NULL, 0, NULL, ""), TOOL_BAD_USAGE);
}

static void test_args__numbers_are_strict(void **state)
{
    (void)state;
    uint32_t v;
    assert_int_equal(tool_parse_uint(&v, "12", 0, 20), 0);
    assert_int_equal(v, 12);
    assert_int_equal(tool_parse_uint(&v, "21", 0, 20), -1);
    assert_int_equal(tool_parse_uint(&v, "-1", 0, 20), -1);
    assert_int_equal(tool_parse_uint(&v, " 1", 0, 20), -1);
    assert_int_equal(tool_parse_uint(&v, "1x", 0, 20), -1);
    assert_int_equal(tool_parse_uint(&v, "", 0, 20), -1);
    assert_int_equal(tool_parse_uint(&v, "99999999999999999999999", 0, UINT32_MAX), -1);
    assert_int_equal(tool_parse_uint(&v, "4294967295", 0, UINT32_MAX), 0);
}

static void test_args__factions_modules_seats(void **state)
{
    (void)state;
    engine_config cfg;
    engine_config_init(&cfg);
    char err[SCHEMA_ERRMSG];
    assert_int_equal(tool_parse_factions(&cfg, "fremen,emperor,guild", err), 0);
    assert_int_equal(cfg.n_seats, 3);
    assert_int_equal(cfg.faction[0], ENGINE_FACTION_FREMEN);
    assert_int_equal(cfg.faction[2], ENGINE_FACTION_GUILD);
    assert_int_equal(tool_parse_factions(&cfg, "fremen,fremen", err), -1);
    assert_int_equal(tool_parse_factions(&cfg, "fremen,,guild", err), -1);
    assert_int_equal(tool_parse_factions(&cfg, "spacing_guild", err), -1);
    assert_non_null(strstr(err, "spacing_guild"));

    uint32_t mask;
    assert_int_equal(tool_parse_modules(&mask, "nexus_cards,expansion_treachery", err), 0);
    assert_int_equal(mask, 1u | (1u << 6));
    assert_int_equal(tool_parse_modules(&mask, "homeworlds", err), 0);
    assert_int_equal(mask, 1u << 4);
    assert_int_equal(tool_parse_modules(&mask, "worms", err), -1);

    assert_int_equal(tool_parse_factions(&cfg, "fremen,emperor,guild", err), 0);
    uint8_t seat;
    assert_int_equal(tool_parse_seat(&seat, "2", &cfg, err), 0);
    assert_int_equal(seat, 1);
    assert_int_equal(tool_parse_seat(&seat, "guild", &cfg, err), 0);
    assert_int_equal(seat, 2);
    assert_int_equal(tool_parse_seat(&seat, "0", &cfg, err), -1);
    assert_int_equal(tool_parse_seat(&seat, "4", &cfg, err), -1);
    assert_int_equal(tool_parse_seat(&seat, "atreides", &cfg, err), -1);
    assert_int_equal(tool_parse_seat(&seat, "nobody", &cfg, err), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_args__options_and_globals_anywhere),
        cmocka_unit_test(test_args__refusals),
        cmocka_unit_test(test_args__numbers_are_strict),
        cmocka_unit_test(test_args__factions_modules_seats),
    };
    return cmocka_run_group_tests_name("args", tests, NULL, NULL);
}
