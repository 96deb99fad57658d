/*
 * files.c - removing the directory trees the suites make, and the
 * standard six-seat configuration several suites play.
 */
#include <dirent.h>
#include <string.h>
#include <unistd.h>

#include "tests/support/support.h"

void test_rm_tree(const char *path)
{
    DIR *d = opendir(path);
    if (d == NULL) {
        unlink(path);
        return;
    }
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char sub[1024];
        size_t n = strlen(path), m = strlen(e->d_name);
        if (n + m + 2 > sizeof sub)
            continue;
        memcpy(sub, path, n);
        sub[n] = '/';
        memcpy(sub + n + 1, e->d_name, m + 1);
        test_rm_tree(sub);
    }
    closedir(d);
    rmdir(path);
}

void test_config_six(engine_config *cfg)
{
    engine_config_init(cfg);
    cfg->n_seats = 6;
    cfg->faction[0] = ENGINE_FACTION_ATREIDES;
    cfg->faction[1] = ENGINE_FACTION_BENE_GESSERIT;
    cfg->faction[2] = ENGINE_FACTION_EMPEROR;
    cfg->faction[3] = ENGINE_FACTION_FREMEN;
    cfg->faction[4] = ENGINE_FACTION_HARKONNEN;
    cfg->faction[5] = ENGINE_FACTION_GUILD;
}
