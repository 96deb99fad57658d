/*
 * binary.c - where the CLI suites find the mentat binary they run.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/support/support.h"

int test_find_mentat(char *out, const char *argv0, const char *suite)
{
    const char *env = getenv("MENTAT_BIN");
    char guess[PATH_MAX];
    if (env != NULL && env[0] != '\0') {
        snprintf(guess, sizeof guess, "%s", env);
    } else {
        /* <build>/tests/tools/test_x -> <build>/mentat */
        snprintf(guess, sizeof guess, "%s", argv0);
        int cut = 0;
        for (size_t i = strlen(guess); i > 0 && cut < 3; i--)
            if (guess[i - 1] == '/') {
                guess[i - 1] = '\0';
                cut++;
            }
        size_t len = strlen(guess);
        if (cut == 3 && len + sizeof "/mentat" <= sizeof guess) {
            memcpy(guess + len, "/mentat", sizeof "/mentat");
            if (access(guess, X_OK) != 0)
                snprintf(guess, sizeof guess, "./mentat");
        } else {
            snprintf(guess, sizeof guess, "./mentat");
        }
    }
    if (realpath(guess, out) == NULL || access(out, X_OK) != 0) {
        fprintf(stderr, "%s: no mentat binary at %s (set MENTAT_BIN)\n", suite, guess);
        return -1;
    }
    return 0;
}
