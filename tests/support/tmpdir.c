/*
 * tmpdir.c - the scratch directory a CLI suite runs each case in: made
 * fresh under $TMPDIR (else /tmp), entered, then left and removed.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "tests/support/support.h"

int test_tmpdir_enter(char *dir, char *old_cwd, const char *prefix)
{
    if (getcwd(old_cwd, PATH_MAX) == NULL)
        return -1;
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, PATH_MAX, "%s/%s-XXXXXX", tmp != NULL && tmp[0] != '\0' ? tmp : "/tmp",
             prefix);
    if (mkdtemp(dir) == NULL || chdir(dir) != 0)
        return -1;
    return 0;
}

int test_tmpdir_leave(const char *dir, const char *old_cwd)
{
    int rc = chdir(old_cwd);
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (rc == 0 && system(cmd) != 0)
        rc = -1;
    return rc;
}
