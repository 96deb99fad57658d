/*
 * files.c - removing the directory trees the suites make, and the
 * standard six-seat configuration and three-seat Nexus Cards position
 * several suites play. Test code only; failures are cmocka assertions.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

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

engine_action test_power(unsigned seat, const char *slug, int a1)
{
    engine_action a;
    memset(&a, 0, sizeof a);
    a.kind = ENGINE_ACTION_POWER;
    a.seat = (uint8_t)seat;
    a.arg[0] = (int16_t)engine_power_from_slug(slug);
    a.arg[1] = (int16_t)a1;
    return a;
}

void test_nexus_three_seats(engine_state *st, engine_rng *rng, const uint8_t *seed,
                            unsigned rules_version, unsigned a, unsigned b, unsigned c)
{
    assert_int_equal(test_nexus_room(st, rng, seed, rules_version, a, b, c), ENGINE_ACCEPTED);
}
