/*
 * test_render.c - the picture of Arrakis: every territory of
 * engine_territory_name is an SVG text with its exact name, the storm's
 * sector is shaded, forces and spice are drawn, a seat's picture names no
 * card it has not seen; and a real browser (headless Chromium) parses the
 * SVG and its rendered DOM holds every territory name. The browser test
 * skips when chromium is not installed (scripts/deps.sh installs it).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <sys/wait.h>

#include "tests/inspect/helpers.h"

static int setup(void **state)
{
    engine_config cfg;
    test_config_six(&cfg);
    *state = ifix_new(&cfg, 0x5e9e0001u, 250, 16);
    return 0;
}

static int teardown(void **state)
{
    ifix_free(*state);
    return 0;
}

/* The SVG of room f at version v as viewer, in a new string (free it). */
static char *render(ifix *f, uint32_t v, uint8_t viewer, size_t *len_out)
{
    static engine_state view;
    assert_int_equal(inspect_room_replay(&view, f->db, f->room, v, viewer), 0);
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    assert_non_null(m);
    inspect_render_options opt;
    inspect_render_options_init(&opt);
    opt.title = "test & <render>";
    assert_int_equal(inspect_render_svg(m, &view, &opt), 0);
    assert_int_equal(fclose(m), 0);
    *len_out = len;
    return buf;
}

/* The text of an XML document: tags dropped, entities decoded. */
static void text_of(char *s)
{
    char *w = s;
    for (const char *r = s; *r != '\0';) {
        if (*r == '<') {
            const char *e = strchr(r, '>');
            if (e == NULL)
                break;
            r = e + 1;
            continue;
        }
        static const struct { const char *entity; char c; } ents[] = {
            {"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&#39;", '\''},
            {"&apos;", '\''}};
        int done = 0;
        for (size_t i = 0; i < sizeof ents / sizeof ents[0] && !done; i++)
            if (strncmp(r, ents[i].entity, strlen(ents[i].entity)) == 0) {
                *w++ = ents[i].c;
                r += strlen(ents[i].entity);
                done = 1;
            }
        if (!done)
            *w++ = *r++;
    }
    *w = '\0';
}

static void assert_every_territory(const char *text)
{
    for (unsigned t = 0; t < ENGINE_TERRITORY_COUNT; t++)
        if (strstr(text, engine_territory_name(t)) == NULL)
            fail_msg("territory %s is not in the picture", engine_territory_name(t));
}

static void test_render__every_territory_storm_forces_spice(void **state)
{
    ifix *f = *state;
    size_t len;
    char *svg = render(f, f->head, ENGINE_SEAT_ENGINE, &len);
    assert_true(len > 1000);
    assert_non_null(strstr(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert_non_null(strstr(svg, "class=\"storm\""));
    assert_non_null(strstr(svg, "class=\"forces\""));
    assert_non_null(strstr(svg, "test &amp; &lt;render&gt;")); /* escaped */
    /* One <text class="name"> per territory. */
    size_t n_names = 0;
    for (const char *p = strstr(svg, "class=\"name\""); p != NULL; p = strstr(p + 1, "class=\"name\""))
        n_names++;
    assert_int_equal(n_names, ENGINE_TERRITORY_COUNT);
    text_of(svg);
    assert_every_territory(svg);
    free(svg);
}

static void test_render__a_seat_sees_only_its_cards(void **state)
{
    ifix *f = *state;
    static engine_state full;
    ifix_state(f, &full, f->head);
    for (uint8_t s = 0; s < full.config.n_seats; s++) {
        size_t len;
        char *svg = render(f, f->head, s, &len);
        text_of(svg);
        assert_every_territory(svg);
        /* The panel's hand lines: another seat's cards it has not seen
         * are counted as unseen, never named. */
        for (uint8_t t = 0; t < full.config.n_seats; t++) {
            unsigned n_unseen = 0;
            for (unsigned c = 0; c < full.n_cards; c++)
                n_unseen += full.card[c].place == ENGINE_PLACE_HAND && full.card[c].holder == t &&
                            !(((unsigned)full.card[c].known_by >> s) & 1u);
            if (n_unseen != 0) {
                char want[32];
                snprintf(want, sizeof want, "%u unseen", n_unseen);
                assert_non_null(strstr(svg, want));
            }
        }
        free(svg);
    }
}

/* Runs headless Chromium on file://path with one extra argument; its
 * standard output goes to out_path. Exit status, or -1. */
static int chromium(const char *arg, const char *path, const char *out_path, const char *dir)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "chromium --headless --no-sandbox --disable-gpu --disable-background-networking "
             "--disable-component-update --disable-sync --no-first-run --user-data-dir=%s/profile "
             "%s file://%s > %s 2>/dev/null",
             dir, arg, path, out_path);
    int rc = system(cmd);
    return rc == -1 ? -1 : WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

static void test_render__chromium_shows_every_territory(void **state)
{
    ifix *f = *state;
    if (system("command -v chromium > /dev/null 2>&1") != 0)
        skip();
    size_t len;
    char *svg = render(f, f->head, ENGINE_VIEW_PUBLIC, &len);
    char path[256], dom[256], png[256], arg[400];
    snprintf(path, sizeof path, "%s/board.svg", f->dir);
    snprintf(dom, sizeof dom, "%s/dom.html", f->dir);
    FILE *out = fopen(path, "w");
    assert_non_null(out);
    assert_int_equal(fwrite(svg, 1, len, out), len);
    assert_int_equal(fclose(out), 0);
    free(svg);

    assert_int_equal(chromium("--dump-dom", path, dom, f->dir), 0);
    FILE *in = fopen(dom, "r");
    assert_non_null(in);
    static char text[1 << 20];
    size_t n = fread(text, 1, sizeof text - 1, in);
    fclose(in);
    text[n] = '\0';
    /* A parse error would leave an error page, not our document. */
    assert_non_null(strstr(text, "<svg"));
    assert_null(strstr(text, "parsererror"));
    text_of(text);
    assert_every_territory(text);

    /* And it paints: a screenshot of the board is written. */
    snprintf(png, sizeof png, "%s/board.png", f->dir);
    snprintf(arg, sizeof arg, "--window-size=1260,900 --screenshot=%s", png);
    assert_int_equal(chromium(arg, path, "/dev/null", f->dir), 0);
    struct stat st;
    assert_int_equal(stat(png, &st), 0);
    assert_true(st.st_size > 10000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_render__every_territory_storm_forces_spice),
        cmocka_unit_test(test_render__a_seat_sees_only_its_cards),
        cmocka_unit_test(test_render__chromium_shows_every_territory),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
