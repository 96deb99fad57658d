/*
 * test_audit_outputs.c - the audit's table of output paths
 * (tools/audit_outputs.c) covers every command that shows a seat or a
 * spectator anything: each command the mentat binary lists whose options
 * name a viewer (--public), or whose seats are played by bots, must be
 * printed by some row, and no row names a command that does not exist.
 *
 * Runs the real binary for the list of commands and each one's --help; a
 * new viewer-facing command without a row fails here.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inspect/inspect.h"
#include "tools/internal.h"
#include "tests/support/support.h"

#define MAX_COMMANDS 64

static char mentat_bin[PATH_MAX];

/* Commands that show a viewer something and are not output paths of a
 * game's hidden facts, each with why. */
static const struct {
    const char *name;
    const char *why;
} exempt[] = {
    {"audit", "the auditor's own report (it holds the audit key: every fact)"},
};

static int is_exempt(const char *name)
{
    for (size_t i = 0; i < sizeof exempt / sizeof exempt[0]; i++)
        if (strcmp(exempt[i].name, name) == 0)
            return 1;
    return 0;
}

/* Whether a row's space-separated command list names `cmd`. */
static int row_names(const inspect_audit_output *row, const char *cmd)
{
    size_t n = strlen(cmd);
    for (const char *p = row->commands; *p;) {
        size_t m = strcspn(p, " ");
        if (m == n && strncmp(p, cmd, n) == 0)
            return 1;
        p += m;
        while (*p == ' ')
            p++;
    }
    return 0;
}

typedef struct command {
    char name[32];
    char summary[128];
} command;

/* The commands `mentat --help` lists, as "  name  summary" lines after
 * "Commands:". */
static size_t list_commands(command *out, size_t cap)
{
    test_run_result r;
    const char *args[] = {"--help", NULL};
    assert_int_equal(test_run_argv(&r, mentat_bin, ".out", ".err", args), 0);
    size_t n = 0;
    const char *p = strstr(r.out, "Commands:\n");
    assert_non_null(p);
    p += strlen("Commands:\n");
    while (strncmp(p, "  ", 2) == 0 && p[2] != ' ' && n < cap) {
        const char *eol = strchr(p, '\n');
        assert_non_null(eol);
        const char *name = p + 2;
        size_t len = strcspn(name, " \n");
        assert_true(len > 0 && len < sizeof out[n].name);
        memcpy(out[n].name, name, len);
        out[n].name[len] = '\0';
        const char *s = name + len;
        while (*s == ' ')
            s++;
        size_t sl = (size_t)(eol - s);
        if (sl >= sizeof out[n].summary)
            sl = sizeof out[n].summary - 1;
        memcpy(out[n].summary, s, sl);
        out[n].summary[sl] = '\0';
        n++;
        p = eol + 1;
    }
    test_run_free(&r);
    return n;
}

/* Whether the command shows a viewer anything: its help offers a viewer
 * (--public), or bots play its seats (each is sent its input). */
static int is_viewer_facing(const command *c)
{
    if (strstr(c->summary, "bot") != NULL)
        return 1;
    test_run_result r;
    const char *args[] = {c->name, "--help", NULL};
    assert_int_equal(test_run_argv(&r, mentat_bin, ".out", ".err", args), 0);
    int yes = strstr(r.out, "--public") != NULL;
    test_run_free(&r);
    return yes;
}

static void test_audit_outputs__every_viewer_facing_command_has_a_row(void **state)
{
    (void)state;
    char dir[PATH_MAX], old[PATH_MAX];
    assert_int_equal(test_tmpdir_enter(dir, old, "mentat-audit-outputs"), 0);
    static command cmds[MAX_COMMANDS];
    size_t n = list_commands(cmds, MAX_COMMANDS);
    assert_true(n >= 15);
    size_t n_rows;
    const inspect_audit_output *rows = tool_audit_outputs(&n_rows);
    unsigned facing = 0, missing = 0;
    for (size_t i = 0; i < n; i++) {
        if (!is_viewer_facing(&cmds[i]) || is_exempt(cmds[i].name))
            continue;
        facing++;
        int covered = 0;
        for (size_t k = 0; k < n_rows; k++)
            covered |= row_names(&rows[k], cmds[i].name);
        if (!covered) {
            print_error("`mentat %s` shows a viewer something and no audit output row prints "
                        "it (tools/audit_outputs.c)\n", cmds[i].name);
            missing++;
        }
    }
    assert_int_equal(missing, 0);
    /* log, state, replay, diff, render, scenario; games, tournament */
    assert_true(facing >= 8);
    /* Every row names commands that exist, and has a name of its own. */
    for (size_t k = 0; k < n_rows; k++) {
        for (size_t j = 0; j < k; j++)
            assert_string_not_equal(rows[k].name, rows[j].name);
        int known = 0;
        for (size_t i = 0; i < n; i++)
            known |= row_names(&rows[k], cmds[i].name);
        assert_true(known);
    }
    assert_int_equal(test_tmpdir_leave(dir, old), 0);
}

int main(int argc, char **argv)
{
    (void)argc;
    if (test_find_mentat(mentat_bin, argv[0], "test_audit_outputs") != 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_audit_outputs__every_viewer_facing_command_has_a_row),
    };
    return cmocka_run_group_tests_name("audit_outputs", tests, NULL, NULL);
}
