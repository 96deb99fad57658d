/*
 * test_render.c - the picture of Arrakis: every territory of
 * engine_territory_name (but the Hidden Mobile Stronghold, without the
 * Ixians) is one shape and one SVG text with its exact name, the storm's
 * sector is shaded, forces and spice are drawn, a seat's picture names no
 * card it has not seen, the six classic factions' colours are far apart;
 * and a real browser (headless Chromium) lays out pictures of real games
 * at several moments (a battle under way, an auction, the end): in its
 * DOM every name lies inside its territory's shape and every marker
 * inside its own location's cell and territory, and it paints each one to
 * a screenshot kept in the build folder (build/tests/inspect/render/).
 * The browser test skips when chromium is not installed (scripts/deps.sh
 * installs it).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <limits.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "tests/inspect/helpers.h"

static char shots_dir[512]; /* where the screenshots are kept */

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

/* Every territory in the text, and the HMS only when is_hms. */
static void assert_every_territory(const char *text, int is_hms)
{
    for (unsigned t = 0; t < ENGINE_TERRITORY_COUNT; t++) {
        int shown = strstr(text, engine_territory_name(t)) != NULL;
        if (t == ENGINE_TERRITORY_HIDDEN_MOBILE_STRONGHOLD && !is_hms) {
            if (shown)
                fail_msg("the Hidden Mobile Stronghold is drawn without the Ixians");
            continue;
        }
        if (!shown)
            fail_msg("territory %s is not in the picture", engine_territory_name(t));
    }
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
    assert_int_equal(n_names, ENGINE_TERRITORY_COUNT - 1); /* no HMS without the Ixians */
    size_t n_shapes = 0;
    for (const char *p = strstr(svg, "class=\"territory\""); p != NULL;
         p = strstr(p + 1, "class=\"territory\""))
        n_shapes++;
    assert_int_equal(n_shapes, ENGINE_TERRITORY_COUNT - 1);
    text_of(svg);
    assert_every_territory(svg, 0);
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
        assert_every_territory(svg, 0);
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
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "chromium --headless --no-sandbox --disable-gpu --disable-background-networking "
             "--disable-component-update --disable-sync --no-first-run --user-data-dir=%s/profile "
             "%s file://%s > %s 2>/dev/null",
             dir, arg, path, out_path);
    int rc = system(cmd);
    return rc == -1 ? -1 : WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

/* The six classic factions' colours: no two closer than 90 in RGB. */
static void test_render__faction_colours_are_distinct(void **state)
{
    (void)state;
    unsigned rgb[6][3];
    for (unsigned f = 0; f < 6; f++) {
        const char *c = inspect_faction_colour(ENGINE_FACTION_CLASSIC_FIRST + f);
        assert_int_equal(sscanf(c, "#%2x%2x%2x", &rgb[f][0], &rgb[f][1], &rgb[f][2]), 3);
    }
    for (unsigned a = 0; a < 6; a++)
        for (unsigned b = a + 1; b < 6; b++) {
            double d = 0;
            for (unsigned k = 0; k < 3; k++)
                d += ((double)rgb[a][k] - rgb[b][k]) * ((double)rgb[a][k] - rgb[b][k]);
            if (d < 90.0 * 90.0)
                fail_msg("%s and %s are too close", engine_faction_name(a), engine_faction_name(b));
        }
}

/* The page the browser lays out: the SVG inline, then a script that
 * checks every name against its territory's shape and every marker
 * against its location's cell and territory, and writes one verdict line
 * per problem and a summary into <pre id="result">. */
static const char page_head[] = "<!DOCTYPE html><html><body style=\"margin:0\">\n";
static const char page_tail[] =
    "<pre id=\"result\"></pre><script>\n"
    "const svg = document.querySelector('svg'), out = [];\n"
    "let markers = 0, names = 0;\n"
    "function pt(x, y) { const p = svg.createSVGPoint(); p.x = x; p.y = y; return p; }\n"
    "function shape(t) { return svg.querySelector('.territory[data-territory=\"' + t + '\"]'); }\n"
    "function cell(l) { return svg.querySelector('path.loc[data-location=\"' + l + '\"]'); }\n"
    "function corners(b) { const e = 0.6; return [[b.x + e, b.y + e], [b.x + b.width - e, b.y + e],\n"
    "  [b.x + e, b.y + b.height - e], [b.x + b.width - e, b.y + b.height - e]]; }\n"
    "function within(el, b) { return corners(b).every(c => el.isPointInFill(pt(c[0], c[1]))); }\n"
    "function box(el) { if (el.tagName === 'circle') { const r = +el.getAttribute('r'),\n"
    "  x = +el.getAttribute('cx'), y = +el.getAttribute('cy');\n"
    "  return {inside: b => corners(b).every(c => (c[0]-x)*(c[0]-x) + (c[1]-y)*(c[1]-y) < r*r)}; }\n"
    "  if (el.tagName === 'rect') { const b2 = el.getBBox();\n"
    "  return {inside: b => b.x >= b2.x && b.y >= b2.y && b.x + b.width <= b2.x + b2.width &&\n"
    "    b.y + b.height <= b2.y + b2.height}; }\n"
    "  return {inside: b => within(el, b)}; }\n"
    "for (const t of svg.querySelectorAll('text.name')) {\n"
    "  names++; const s = shape(t.dataset.territory);\n"
    "  if (!s) { out.push('NO SHAPE ' + t.dataset.territory); continue; }\n"
    "  const b = t.getBBox(), m = t.getCTM(), root = svg.getCTM().inverse();\n"
    "  const ok = corners(b).every(c => { const q = pt(c[0], c[1]).matrixTransform(m)\n"
    "    .matrixTransform(root); return box(s).inside({x: q.x - 0.6, y: q.y - 0.6, width: 1.2,\n"
    "    height: 1.2}); });\n"
    "  if (!ok) out.push('NAME OUTSIDE ' + t.dataset.territory); }\n"
    "for (const g of svg.querySelectorAll('g.forces, g.spice, g.leader')) {\n"
    "  markers++; const b = g.firstElementChild.getBBox(), l = g.dataset.location;\n"
    "  const s = shape(g.dataset.territory), c = cell(l);\n"
    "  if (!s) { out.push('NO SHAPE FOR MARKER ' + l); continue; }\n"
    "  if (!box(s).inside(b)) out.push('MARKER OUTSIDE TERRITORY ' + g.dataset.territory + ' ' + l);\n"
    "  if (c && !within(c, b)) out.push('MARKER OUTSIDE CELL ' + l); }\n"
    "out.push('checked ' + names + ' names ' + markers + ' markers');\n"
    "document.getElementById('result').textContent = out.join('\\n');\n"
    "</script></body></html>\n";

/* The moments to picture: a battle under way, an auction, the end. */
static void moments(uint32_t out[3], ifix *f)
{
    static engine_state st;
    out[0] = out[1] = 0;
    out[2] = f->head;
    for (uint32_t v = 1; v <= f->head && (out[0] == 0 || out[1] == 0); v++) {
        ifix_state(f, &st, v);
        if (out[0] == 0 && st.phase == ENGINE_PHASE_BATTLE &&
            st.battle_territory < ENGINE_TERRITORY_COUNT)
            out[0] = v;
        if (out[1] == 0 && st.phase == ENGINE_PHASE_BIDDING && st.n_auction != 0 &&
            st.high_bidder != 0xFF)
            out[1] = v;
    }
}

static void test_render__chromium_lays_out_real_games(void **state)
{
    (void)state;
    if (system("command -v chromium > /dev/null 2>&1") != 0)
        skip();
    engine_config cfg;
    test_config_six(&cfg);
    ifix *f = ifix_new(&cfg, 0x5e9e0002u, 1500, 32);
    uint32_t at[3];
    moments(at, f);
    assert_true(at[0] != 0 && at[1] != 0);
    static const char *const what[] = {"battle", "auction", "end"};
    mkdir(shots_dir, 0755);
    for (unsigned i = 0; i < 3; i++) {
        size_t len;
        char *svg = render(f, at[i], ENGINE_SEAT_ENGINE, &len);
        if (i == 0)
            assert_non_null(strstr(svg, "class=\"battle\""));
        if (i == 1)
            assert_non_null(strstr(svg, "class=\"auction\""));
        char page[256], svg_path[256], dom[256], png[640], arg[720];
        snprintf(page, sizeof page, "%s/board-%s.html", f->dir, what[i]);
        snprintf(svg_path, sizeof svg_path, "%s/board-%s.svg", f->dir, what[i]);
        snprintf(dom, sizeof dom, "%s/dom-%s.html", f->dir, what[i]);
        FILE *out = fopen(page, "w");
        assert_non_null(out);
        fputs(page_head, out);
        const char *body = strstr(svg, "<svg");
        assert_non_null(body);
        fputs(body, out);
        fputs(page_tail, out);
        assert_int_equal(fclose(out), 0);
        out = fopen(svg_path, "w");
        assert_non_null(out);
        assert_int_equal(fwrite(svg, 1, len, out), len);
        assert_int_equal(fclose(out), 0);
        free(svg);

        assert_int_equal(chromium("--dump-dom", page, dom, f->dir), 0);
        char *text = test_slurp(dom, NULL);
        char *res = strstr(text, "<pre id=\"result\">");
        assert_non_null(res);
        char *end = strstr(res, "</pre>");
        assert_non_null(end);
        *end = '\0'; /* the verdicts, not the script that wrote them */
        if (strstr(res, "OUTSIDE") != NULL || strstr(res, "NO SHAPE") != NULL)
            fail_msg("version %u (%s): %.2000s", at[i], what[i], res);
        unsigned names = 0, markers = 0;
        char *sum = strstr(res, "checked ");
        assert_non_null(sum);
        assert_int_equal(sscanf(sum, "checked %u names %u markers", &names, &markers), 2);
        assert_int_equal(names, ENGINE_TERRITORY_COUNT - 1);
        assert_true(markers > 6);
        assert_null(strstr(end + 1, "parsererror"));
        free(text);

        /* And it paints: a screenshot kept in the build folder. */
        snprintf(png, sizeof png, "%s/%s-v%u.png", shots_dir, what[i], at[i]);
        snprintf(arg, sizeof arg, "--window-size=1260,900 --screenshot=%s", png);
        assert_int_equal(chromium(arg, svg_path, "/dev/null", f->dir), 0);
        struct stat st;
        assert_int_equal(stat(png, &st), 0);
        assert_true(st.st_size > 10000);
    }
    ifix_free(f);
}

int main(int argc, char **argv)
{
    /* Screenshots go beside this binary: <build>/tests/inspect/render/. */
    (void)argc;
    const char *slash = strrchr(argv[0], '/');
    snprintf(shots_dir, sizeof shots_dir, "%.*s/render", slash != NULL ? (int)(slash - argv[0]) : 1,
             slash != NULL ? argv[0] : ".");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_render__every_territory_storm_forces_spice),
        cmocka_unit_test(test_render__a_seat_sees_only_its_cards),
        cmocka_unit_test(test_render__faction_colours_are_distinct),
        cmocka_unit_test(test_render__chromium_lays_out_real_games),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
