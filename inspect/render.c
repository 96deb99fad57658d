/*
 * render.c - a picture of Arrakis as one viewer saw it: a standalone SVG
 * with the 18 storm sectors as a ring around the Polar Sink, every
 * territory drawn as the cells it has in each sector and labelled with its
 * name, the storm's sector shaded, forces as markers in each faction's
 * colour with their counts, spice amounts, and a panel with the turn, the
 * phase, who is awaited and each seat's holdings as the viewer knows them.
 *
 * Layer: inspect. Pure output: reads the engine_state it is given (a view,
 * or the auditor's full state) and writes text to a FILE; never reads the
 * ledger. Everything drawn is a field of that state, so a seat's picture
 * shows nothing its view does not hold (a card face the view marks unknown
 * is counted, not named).
 *
 * The layout is schematic, not the printed board: each location (a
 * territory in one sector) is a cell of the ring, placed in its sector at a
 * band from 1 (by the Polar Sink) to 5 (the rim) and a slice of the sector
 * (the table below); a territory is the set of its cells and is labelled
 * once, on its middle cell. Sector 0 (the Storm Start Sector) is at the
 * bottom and sectors count counter-clockwise, the way the storm moves. The
 * Hidden Mobile Stronghold has no sector and is drawn beside the ring.
 *
 * Invariants: (1) every territory of engine_territory_name appears once as
 * an SVG <text> carrying its exact name; (2) no floating point reaches
 * anything but coordinates: the picture is for people, never compared.
 */
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "inspect/internal.h"

#define SVG_DEFAULT_SIZE 900u
#define BANDS 5
#define SLICES 20                  /* a sector's width, in slices */
#define PANEL_WIDTH 360.0
#define PI 3.14159265358979323846

/* =========================================================== the layout */

/* Where a location's cell lies: bands lo..hi, slices lo..hi of its sector. */
typedef struct cell_row {
    uint8_t band_lo, band_hi;      /* 1..BANDS; 0 = not on the ring */
    uint8_t slice_lo, slice_hi;    /* 0..SLICES */
} cell_row;

#define CELL(b0, b1, s0, s1) {b0, b1, s0, s1}
#define FULL(b0, b1) {b0, b1, 0, SLICES}

static const cell_row cells[ENGINE_LOCATION_COUNT] = {
    [0] = {0, 0, 0, 0},            /* the Polar Sink: the centre */
    /* sector 0 */
    [9] = FULL(1, 1), [12] = FULL(2, 2), [85] = FULL(3, 3), [15] = FULL(4, 5),
    /* sector 1 */
    [10] = FULL(1, 1), [13] = FULL(2, 2), [16] = CELL(3, 5, 0, 10), [17] = CELL(3, 5, 10, 20),
    /* sector 2 */
    [11] = FULL(1, 1), [14] = CELL(2, 2, 0, 12), [18] = CELL(3, 5, 0, 12),
    [19] = CELL(2, 5, 12, 20),
    /* sector 3 */
    [21] = FULL(1, 1), [23] = FULL(2, 2), [20] = FULL(3, 4), [39] = FULL(5, 5),
    /* sector 4 */
    [22] = CELL(1, 1, 0, 10), [25] = CELL(1, 1, 10, 20), [24] = CELL(2, 2, 0, 10),
    [30] = CELL(2, 2, 10, 20), [6] = CELL(3, 3, 0, 10), [34] = CELL(3, 3, 10, 20),
    [40] = FULL(4, 5),
    /* sector 5 */
    [26] = FULL(1, 1), [31] = FULL(2, 2), [35] = FULL(3, 3), [41] = FULL(4, 5),
    /* sector 6 */
    [27] = FULL(1, 1), [32] = FULL(2, 2), [36] = FULL(3, 3), [38] = FULL(4, 5),
    /* sector 7 */
    [28] = FULL(1, 1), [33] = CELL(2, 2, 0, 10), [46] = CELL(2, 2, 10, 20),
    [37] = CELL(3, 5, 0, 10), [48] = CELL(3, 5, 10, 20),
    /* sector 8 */
    [29] = CELL(1, 1, 0, 10), [1] = CELL(1, 1, 10, 20), [47] = CELL(2, 2, 0, 7),
    [44] = CELL(2, 2, 7, 14), [43] = CELL(2, 2, 14, 20), [45] = CELL(3, 5, 0, 7),
    [42] = CELL(3, 5, 7, 14), [49] = CELL(3, 5, 14, 20),
    /* sector 9 */
    [2] = FULL(1, 2), [5] = FULL(3, 3), [50] = FULL(4, 5),
    /* sector 10 */
    [57] = FULL(1, 1), [3] = CELL(2, 2, 0, 10), [4] = CELL(2, 3, 10, 20),
    [51] = CELL(3, 3, 0, 10), [52] = CELL(4, 5, 0, 10), [54] = CELL(4, 5, 10, 20),
    /* sector 11 */
    [58] = FULL(1, 1), [64] = FULL(2, 2), [55] = CELL(3, 3, 0, 10), [61] = CELL(3, 3, 10, 20),
    [53] = FULL(4, 5),
    /* sector 12 */
    [65] = FULL(1, 1), [56] = CELL(2, 2, 0, 10), [62] = CELL(2, 2, 10, 20), [59] = FULL(3, 5),
    /* sector 13 */
    [70] = FULL(1, 1), [63] = FULL(2, 2), [7] = CELL(3, 5, 0, 10), [66] = CELL(3, 3, 10, 20),
    [60] = CELL(4, 5, 10, 20),
    /* sector 14 */
    [71] = FULL(1, 1), [69] = FULL(2, 2), [68] = FULL(3, 3), [67] = FULL(4, 5),
    /* sector 15 */
    [72] = FULL(1, 1), [74] = FULL(2, 2), [75] = CELL(3, 5, 0, 10), [77] = CELL(3, 5, 10, 20),
    /* sector 16 */
    [73] = CELL(1, 1, 0, 10), [80] = CELL(1, 1, 10, 20), [76] = CELL(2, 3, 0, 10),
    [78] = CELL(2, 3, 10, 20), [8] = CELL(4, 5, 0, 10), [82] = CELL(4, 5, 10, 20),
    /* sector 17 */
    [81] = FULL(1, 1), [79] = CELL(2, 2, 0, 10), [84] = CELL(2, 2, 10, 20), [83] = FULL(3, 5),
    [86] = {0, 0, 0, 0},           /* the HMS: beside the ring */
};

/* Territory kinds for the fill: the engine's territory table, restated
 * for styling only (engine.h has no accessor for it). */
static int is_stronghold(unsigned t)
{
    return t == ENGINE_TERRITORY_CARTHAG || t == ENGINE_TERRITORY_ARRAKEEN ||
           t == ENGINE_TERRITORY_TUEKS_SIETCH || t == ENGINE_TERRITORY_SIETCH_TABR ||
           t == ENGINE_TERRITORY_HABBANYA_SIETCH || t == ENGINE_TERRITORY_HIDDEN_MOBILE_STRONGHOLD;
}

static int is_rock(unsigned t)
{
    return t == ENGINE_TERRITORY_FALSE_WALL_SOUTH || t == ENGINE_TERRITORY_FALSE_WALL_EAST ||
           t == ENGINE_TERRITORY_FALSE_WALL_WEST || t == ENGINE_TERRITORY_PASTY_MESA ||
           t == ENGINE_TERRITORY_RIM_WALL_WEST || t == ENGINE_TERRITORY_SHIELD_WALL ||
           t == ENGINE_TERRITORY_PLASTIC_BASIN;
}

static const char *territory_fill(unsigned t)
{
    if (t == ENGINE_TERRITORY_POLAR_SINK)
        return "#e8e2d0";
    if (is_stronghold(t))
        return "#b9c7d6";
    if (is_rock(t))
        return "#b39b7d";
    if (t == ENGINE_TERRITORY_IMPERIAL_BASIN)
        return "#efd9a4";
    return "#f3dfa8";
}

static const char *const faction_colours[ENGINE_FACTION_COUNT] = {
    [ENGINE_FACTION_ATREIDES] = "#2e7d32",
    [ENGINE_FACTION_BENE_GESSERIT] = "#7b1fa2",
    [ENGINE_FACTION_EMPEROR] = "#c62828",
    [ENGINE_FACTION_FREMEN] = "#b8860b",
    [ENGINE_FACTION_HARKONNEN] = "#212121",
    [ENGINE_FACTION_GUILD] = "#e65100",
    [ENGINE_FACTION_IXIANS] = "#00838f",
    [ENGINE_FACTION_TLEILAXU] = "#6d4c41",
    [ENGINE_FACTION_CHOAM] = "#1565c0",
    [ENGINE_FACTION_RICHESE] = "#757575",
    [ENGINE_FACTION_ECAZ] = "#ad1457",
    [ENGINE_FACTION_MORITANI] = "#37474f",
};
_Static_assert(sizeof faction_colours / sizeof faction_colours[0] == ENGINE_FACTION_COUNT,
               "one colour per faction");

const char *inspect_faction_colour(unsigned faction)
{
    return faction < ENGINE_FACTION_COUNT ? faction_colours[faction] : "#9e9e9e";
}

void inspect_render_options_init(inspect_render_options *opt)
{
    opt->title = NULL;
    opt->size = SVG_DEFAULT_SIZE;
}

/* ============================================================ geometry */

typedef struct geometry {
    double cx, cy;                 /* centre of the ring */
    double r_sink;                 /* radius of the Polar Sink */
    double r_rim;                  /* outer radius of band 5 */
    double band;                   /* width of one band */
} geometry;

/* Angle (radians, counter-clockwise from east) of a point `slice` slices
 * into sector `sector`. Sector 0 starts at the bottom. */
static double angle_of(unsigned sector, double slice)
{
    double deg = -90.0 + 20.0 * ((double)sector + slice / SLICES);
    return deg * PI / 180.0;
}

static double radius_of(const geometry *g, double band)
{
    return g->r_sink + band * g->band;
}

static void point(const geometry *g, double r, double a, double *x, double *y)
{
    *x = g->cx + r * cos(a);
    *y = g->cy - r * sin(a);
}

/* An annular sector between radii r0 < r1 and angles a0 < a1. */
static void wedge_path(FILE *f, const geometry *g, double r0, double r1, double a0, double a1)
{
    double x0, y0, x1, y1, x2, y2, x3, y3;
    point(g, r1, a0, &x0, &y0);
    point(g, r1, a1, &x1, &y1);
    point(g, r0, a1, &x2, &y2);
    point(g, r0, a0, &x3, &y3);
    fprintf(f, "M%.1f %.1f A%.1f %.1f 0 0 0 %.1f %.1f L%.1f %.1f A%.1f %.1f 0 0 1 %.1f %.1f Z",
            x0, y0, r1, r1, x1, y1, x2, y2, r0, r0, x3, y3);
}

/* The centre of a location's cell. */
static void cell_centre(const geometry *g, unsigned loc, double *x, double *y)
{
    const cell_row *c = &cells[loc];
    int sector = engine_location_sector(loc);
    if (sector == ENGINE_NO_SECTOR || c->band_lo == 0) {
        *x = g->cx;
        *y = g->cy;
        return;
    }
    double r = radius_of(g, (c->band_lo - 1 + c->band_hi) / 2.0);
    double a = angle_of((unsigned)sector, (c->slice_lo + c->slice_hi) / 2.0);
    point(g, r, a, x, y);
}

/* The location of territory t its label sits on: the middle one of its
 * largest cells (by band span times slice span). */
static int label_location(unsigned t)
{
    int best_area = -1, n_best = 0;
    int best[ENGINE_SECTOR_COUNT * 2];
    for (unsigned loc = 0; loc < ENGINE_LOCATION_COUNT; loc++) {
        if (engine_location_territory(loc) != t)
            continue;
        const cell_row *c = &cells[loc];
        int area = c->band_lo == 0 ? 0 : (c->band_hi - c->band_lo + 1) * (c->slice_hi - c->slice_lo);
        if (area > best_area) {
            best_area = area;
            n_best = 0;
        }
        if (area == best_area && n_best < (int)(sizeof best / sizeof best[0]))
            best[n_best++] = (int)loc;
    }
    if (n_best == 0)
        return -1;
    /* Cielago West spans sectors 17 and 0: "middle" by list order is fine. */
    return best[n_best / 2];
}

/* Characters of the longest line of a label (label() splits long names
 * in two at the space nearest the middle). */
static size_t longest_line(const char *name)
{
    size_t n = strlen(name), best = n;
    if (n <= 11)
        return n;
    for (const char *p = name; *p != '\0'; p++)
        if (*p == ' ') {
            size_t a = (size_t)(p - name), b = n - a - 1;
            size_t m = a > b ? a : b;
            if (m < best)
                best = m;
        }
    return best;
}

/* Where a territory's name goes on its cell, and where the markers go. */
typedef struct placement {
    double x, y;                   /* centre of the label */
    double size;                   /* font size */
    double rotate;                 /* degrees clockwise; 0 = level */
    double mx, my;                 /* centre of the force markers */
    double sx, sy;                 /* centre of the spice marker */
} placement;

/* Fits a name on cell `loc`: level across the cell's middle arc, or, when
 * the cell is narrow and tall, along its radius (turned to read upright),
 * whichever gives the larger type (about 0.58 em a character). */
static void place_on_cell(placement *out, const geometry *g, unsigned loc, const char *name,
                          int is_big)
{
    const cell_row *c = &cells[loc];
    int sector = engine_location_sector(loc);
    double r0 = radius_of(g, c->band_lo - 1), r1 = radius_of(g, c->band_hi);
    double rm = (r0 + r1) / 2.0;
    double a = angle_of((unsigned)sector, (c->slice_lo + c->slice_hi) / 2.0);
    double width = rm * (20.0 * PI / 180.0) * (c->slice_hi - c->slice_lo) / SLICES;
    double height = r1 - r0;
    double chars = 0.58 * (double)longest_line(name);
    double lines = strlen(name) > 11 ? 2.3 : 1.2;
    double level = (width - 4.0) / chars;
    if (level > (height - 16.0) / lines)
        level = (height - 16.0) / lines;
    double along = (height - 8.0) / chars;
    if (along > (width - 2.0) / lines)
        along = (width - 2.0) / lines;
    double max = is_big ? 10.5 : 9.0;
    int is_along = along > level * 1.25 && level < 8.0;
    double size = is_along ? along : level;
    out->size = size > max ? max : size < 6.0 ? 6.0 : size;
    if (!is_along) {
        point(g, rm, a, &out->x, &out->y);
        out->rotate = 0.0;
        out->mx = out->x;
        out->my = out->y + out->size * (lines > 2 ? 1.6 : 1.1) + 4.0;
        out->sx = out->x;
        out->sy = out->y - out->size * (lines > 2 ? 1.6 : 1.1) - 6.0;
        return;
    }
    /* Along the radius: the name on the outer part, markers inward. */
    double deg = a * 180.0 / PI;
    double rot = -deg;
    if (deg > 90.0 && deg < 270.0)
        rot += 180.0;
    else if (deg < -90.0)
        rot += 180.0;
    point(g, rm + height * 0.12, a, &out->x, &out->y);
    out->rotate = rot;
    point(g, r0 + 12.0, a, &out->mx, &out->my);
    point(g, r1 - 12.0, a, &out->sx, &out->sy);
}

/* ============================================================== writing */

/* Writes s with &, <, > and quotes escaped. */
static void xml_text(FILE *f, const char *s)
{
    for (; *s != '\0'; s++)
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f); break;
        }
}

/* A territory's label: its exact name as one <text>, in two lines (two
 * <tspan>s, the space kept at the end of the first) when it is long. */
static void label(FILE *f, double x, double y, double size, double rotate, const char *name)
{
    size_t n = strlen(name);
    const char *split = NULL;
    if (n > 11) {
        /* The space nearest the middle. */
        for (const char *p = name; *p != '\0'; p++)
            if (*p == ' ' && (split == NULL || labs((long)(p - name) - (long)n / 2) <
                                                   labs((long)(split - name) - (long)n / 2)))
                split = p;
    }
    fprintf(f, "<text class=\"name\" x=\"%.1f\" y=\"%.1f\" font-size=\"%.1f\"", x,
            (split ? y - size * 0.55 : y) + size * 0.35, size);
    if (rotate != 0.0)
        fprintf(f, " transform=\"rotate(%.1f %.1f %.1f)\"", rotate, x, y);
    fputc('>', f);
    if (split == NULL) {
        xml_text(f, name);
    } else {
        char first[64];
        size_t k = (size_t)(split - name) + 1;
        if (k >= sizeof first)
            k = sizeof first - 1;
        memcpy(first, name, k);
        first[k] = '\0';
        fprintf(f, "<tspan x=\"%.1f\">", x);
        xml_text(f, first);
        fprintf(f, "</tspan><tspan x=\"%.1f\" dy=\"%.1f\">", x, size * 1.1);
        xml_text(f, split + 1);
        fputs("</tspan>", f);
    }
    fputs("</text>\n", f);
}

/* Markers of the forces in a location: one per seat, centred on x. */
static void force_markers(FILE *f, const engine_state *v, unsigned loc, double x, double y)
{
    int bg = inspect__seat_of(v, ENGINE_FACTION_BENE_GESSERIT);
    char text[ENGINE_MAX_SEATS][24];
    uint8_t seat[ENGINE_MAX_SEATS];
    unsigned n = 0;
    double width = 0;
    for (uint8_t s = 0; s < v->config.n_seats && s < ENGINE_MAX_SEATS; s++) {
        unsigned plain = v->forces[loc][s], elite = v->special[loc][s];
        unsigned advisors = (int)s == bg ? v->advisors[loc] : 0;
        if (plain + elite + advisors == 0)
            continue;
        if (elite != 0 && plain != 0)
            snprintf(text[n], sizeof text[n], "%u+%u*", plain, elite);
        else if (elite != 0)
            snprintf(text[n], sizeof text[n], "%u*", elite);
        else
            snprintf(text[n], sizeof text[n], "%u", plain);
        if (advisors != 0) {
            size_t k = strlen(text[n]);
            snprintf(text[n] + k, sizeof text[n] - k, "%s%ua", plain + elite ? "/" : "", advisors);
            if (plain + elite == 0)
                snprintf(text[n], sizeof text[n], "%ua", advisors);
        }
        seat[n] = s;
        width += 8.0 + 6.0 * (double)strlen(text[n]) + 2.0;
        n++;
    }
    double at = x - width / 2.0;
    for (unsigned i = 0; i < n; i++) {
        double w = 8.0 + 6.0 * (double)strlen(text[i]);
        unsigned faction = v->config.faction[seat[i]];
        fprintf(f, "<g class=\"forces\" data-faction=\"%s\" data-location=\"%u\">"
                   "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"13\" rx=\"6\" fill=\"%s\" "
                   "stroke=\"#fff\" stroke-width=\"0.8\"/>"
                   "<text class=\"count\" x=\"%.1f\" y=\"%.1f\">%s</text>"
                   "<title>%s: %s</title></g>\n",
                engine_faction_name(faction), loc, at, y - 6.5, w, inspect_faction_colour(faction),
                at + w / 2.0, y + 3.5, text[i], inspect_faction_title(faction), text[i]);
        at += w + 2.0;
    }
}

static void spice_marker(FILE *f, unsigned amount, unsigned loc, double x, double y)
{
    fprintf(f, "<g class=\"spice\" data-location=\"%u\"><path d=\"M%.1f %.1fl8 -8l8 8l-8 8z\" "
               "fill=\"#e67e22\" stroke=\"#7a3e00\" stroke-width=\"0.8\"/>"
               "<text class=\"amount\" x=\"%.1f\" y=\"%.1f\">%u</text>"
               "<title>spice: %u</title></g>\n",
            loc, x - 8.0, y, x, y + 3.5, amount, amount);
}

/* ============================================================== sections */

static void draw_ring(FILE *f, const geometry *g, const engine_state *v)
{
    /* Sector spokes and numbers. */
    for (unsigned s = 0; s < ENGINE_SECTOR_COUNT; s++) {
        double a = angle_of(s, 0), x0, y0, x1, y1;
        point(g, g->r_sink, a, &x0, &y0);
        point(g, g->r_rim + 10.0, a, &x1, &y1);
        fprintf(f, "<line class=\"spoke\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", x0,
                y0, x1, y1);
        double xm, ym;
        point(g, g->r_rim + 18.0, angle_of(s, SLICES / 2.0), &xm, &ym);
        fprintf(f, "<text class=\"sector\" x=\"%.1f\" y=\"%.1f\">%u</text>\n", xm, ym + 4.0, s);
    }
    /* The cells, one path per location, grouped by territory. */
    for (unsigned t = 0; t < ENGINE_TERRITORY_COUNT; t++) {
        if (t == ENGINE_TERRITORY_POLAR_SINK || t == ENGINE_TERRITORY_HIDDEN_MOBILE_STRONGHOLD)
            continue;
        fprintf(f, "<g class=\"territory\" data-territory=\"%s\">", engine_territory_slug(t));
        for (unsigned loc = 0; loc < ENGINE_LOCATION_COUNT; loc++) {
            const cell_row *c = &cells[loc];
            int sector = engine_location_sector(loc);
            if (engine_location_territory(loc) != t || c->band_lo == 0 || sector < 0)
                continue;
            fprintf(f, "<path class=\"cell\" fill=\"%s\" d=\"", territory_fill(t));
            wedge_path(f, g, radius_of(g, c->band_lo - 1), radius_of(g, c->band_hi),
                       angle_of((unsigned)sector, c->slice_lo),
                       angle_of((unsigned)sector, c->slice_hi));
            fputs("\"/>", f);
        }
        fputs("</g>\n", f);
    }
    fprintf(f, "<circle class=\"cell\" cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\"/>\n", g->cx,
            g->cy, g->r_sink, territory_fill(ENGINE_TERRITORY_POLAR_SINK));
    /* The storm: its sector shaded over the cells. */
    fputs("<path class=\"storm\" d=\"", f);
    wedge_path(f, g, g->r_sink, g->r_rim + 26.0, angle_of(v->storm_sector, 0),
               angle_of(v->storm_sector, SLICES));
    fputs("\"/>\n", f);
    double sx, sy;
    point(g, g->r_rim + 36.0, angle_of(v->storm_sector, SLICES / 2.0), &sx, &sy);
    fprintf(f, "<text class=\"storm-label\" x=\"%.1f\" y=\"%.1f\">STORM</text>\n", sx, sy + 4.0);
}

static void draw_contents(FILE *f, const geometry *g, const engine_state *v, double hms_x,
                          double hms_y)
{
    placement at[ENGINE_TERRITORY_COUNT];
    int label_loc[ENGINE_TERRITORY_COUNT];
    /* (1): one label per territory. */
    for (unsigned t = 0; t < ENGINE_TERRITORY_COUNT; t++) {
        placement *p = &at[t];
        label_loc[t] = -1;
        if (t == ENGINE_TERRITORY_HIDDEN_MOBILE_STRONGHOLD) {
            *p = (placement){hms_x, hms_y - 6.0, 10.0, 0.0, hms_x, hms_y + 14.0, hms_x - 60.0,
                             hms_y + 14.0};
        } else if (t == ENGINE_TERRITORY_POLAR_SINK) {
            *p = (placement){g->cx, g->cy - 18.0, 11.0, 0.0, g->cx, g->cy + 8.0, g->cx,
                             g->cy - 40.0};
        } else {
            label_loc[t] = label_location(t);
            if (label_loc[t] < 0)
                continue;
            place_on_cell(p, g, (unsigned)label_loc[t], inspect__territory(t), is_stronghold(t));
        }
        label(f, p->x, p->y, p->size, p->rotate, inspect__territory(t));
    }
    /* Spice and forces: on a labelled cell where its placement says, on
     * any other cell in its middle. */
    for (unsigned loc = 0; loc < ENGINE_LOCATION_COUNT; loc++) {
        unsigned t = engine_location_territory(loc);
        if (t >= ENGINE_TERRITORY_COUNT)
            continue;
        double mx, my, sx, sy;
        if (label_loc[t] == (int)loc || label_loc[t] < 0) {
            mx = at[t].mx, my = at[t].my, sx = at[t].sx, sy = at[t].sy;
        } else {
            cell_centre(g, loc, &mx, &my);
            sx = mx;
            sy = my - 9.0;
            my += 7.0;
        }
        if (v->spice[loc] != 0)
            spice_marker(f, v->spice[loc], loc, sx, sy);
        force_markers(f, v, loc, mx, my);
    }
}

/* The panel: title, turn, phase, awaited seats, and each seat's holdings
 * as the view gives them. */
static void draw_panel(FILE *f, const engine_state *v, double x0, double height,
                       const inspect_render_options *opt)
{
    double y = 34.0;
    fprintf(f, "<g class=\"panel\"><rect x=\"%.1f\" y=\"0\" width=\"%.1f\" height=\"%.1f\" "
               "fill=\"#fbf7ee\"/>\n",
            x0, PANEL_WIDTH, height);
    x0 += 16.0;
    if (opt->title != NULL) {
        fprintf(f, "<text class=\"title\" x=\"%.1f\" y=\"%.1f\">", x0, y);
        xml_text(f, opt->title);
        fputs("</text>\n", f);
        y += 24.0;
    }
    const char *viewer = v->viewer == ENGINE_SEAT_ENGINE ? "the auditor (everything)"
                         : v->viewer == ENGINE_VIEW_PUBLIC ? "the public"
                                                           : NULL;
    fprintf(f, "<text class=\"info\" x=\"%.1f\" y=\"%.1f\">as seen by ", x0, y);
    if (viewer != NULL)
        fputs(viewer, f);
    else
        fprintf(f, "seat %u, %s", v->viewer + 1u, inspect__seat_title(v, v->viewer));
    fputs("</text>\n", f);
    y += 20.0;
    fprintf(f, "<text class=\"info\" x=\"%.1f\" y=\"%.1f\">turn %u of %u, %s</text>\n", x0, y,
            v->turn, v->config.turn_limit, engine_phase_name(v->phase));
    y += 18.0;
    fprintf(f, "<text class=\"info\" x=\"%.1f\" y=\"%.1f\">storm in sector %u (moved %u)</text>\n",
            x0, y, v->storm_sector, v->last_storm_move);
    y += 18.0;
    uint16_t awaiting = engine_state_awaiting(v);
    fprintf(f, "<text class=\"info\" x=\"%.1f\" y=\"%.1f\">%s", x0, y,
            v->phase == ENGINE_PHASE_GAME_OVER ? "winners: " : "awaiting: ");
    uint16_t mask = v->phase == ENGINE_PHASE_GAME_OVER ? v->winners : awaiting;
    unsigned n = 0;
    for (uint8_t s = 0; s < v->config.n_seats && s < ENGINE_MAX_SEATS; s++)
        if (mask & (1u << s)) {
            if (n != 0 && n % 3 == 0) {
                /* Three names a line: the panel is narrow. */
                y += 16.0;
                fprintf(f, ",</text>\n<text class=\"info\" x=\"%.1f\" y=\"%.1f\">", x0 + 12.0,
                        y);
            } else if (n != 0) {
                fputs(", ", f);
            }
            fputs(inspect__seat_title(v, s), f);
            n++;
        }
    fprintf(f, "%s</text>\n", n ? "" : "nobody");
    y += 30.0;
    for (uint8_t s = 0; s < v->config.n_seats && s < ENGINE_MAX_SEATS; s++) {
        unsigned faction = v->config.faction[s];
        const engine_seat_state *ss = &v->seat[s];
        fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"14\" rx=\"3\" fill=\"%s\"/>"
                   "<text class=\"seat\" x=\"%.1f\" y=\"%.1f\">seat %u %s",
                x0, y - 11.0, inspect_faction_colour(faction), x0 + 20.0, y, s + 1u,
                inspect_faction_title(faction));
        if (v->ally[s] < v->config.n_seats)
            fprintf(f, " (ally %s)", inspect__seat_title(v, v->ally[s]));
        fputs("</text>\n", f);
        y += 16.0;
        fprintf(f, "<text class=\"info\" x=\"%.1f\" y=\"%.1f\">spice %u, reserves %u", x0 + 20.0,
                y, ss->spice, ss->reserves);
        if (ss->special_reserves)
            fprintf(f, "+%u*", ss->special_reserves);
        fprintf(f, ", tanks %u", ss->tanks);
        if (ss->special_tanks)
            fprintf(f, "+%u*", ss->special_tanks);
        fputs("</text>\n", f);
        y += 16.0;
        unsigned n_hand = 0, n_unknown = 0;
        fprintf(f, "<text class=\"info\" x=\"%.1f\" y=\"%.1f\">hand: ", x0 + 20.0, y);
        for (unsigned c = 0; c < v->n_cards && c < ENGINE_TREACHERY_MAX; c++) {
            if (v->card[c].place != ENGINE_PLACE_HAND || v->card[c].holder != s)
                continue;
            const char *face = inspect__card_face(v, (int)c);
            if (face == NULL) {
                n_unknown++;
                continue;
            }
            fprintf(f, "%s%s", n_hand++ ? ", " : "", face);
        }
        if (n_unknown)
            fprintf(f, "%s%u unseen", n_hand ? ", " : "", n_unknown);
        else if (n_hand == 0)
            fputs("empty", f);
        fputs("</text>\n", f);
        y += 24.0;
    }
    y += 6.0;
    fprintf(f, "<text class=\"info\" x=\"%.1f\" y=\"%.1f\">markers: forces per faction; * elite, "
               "a advisors</text>\n", x0, y);
    y += 16.0;
    fprintf(f, "<path d=\"M%.1f %.1fl6 -6l6 6l-6 6z\" fill=\"#e67e22\"/>"
               "<text class=\"info\" x=\"%.1f\" y=\"%.1f\">spice on the board</text>\n",
            x0, y - 4.0, x0 + 18.0, y);
    y += 16.0;
    fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"12\" fill=\"#6b3f1d\" "
               "fill-opacity=\"0.32\"/><text class=\"info\" x=\"%.1f\" y=\"%.1f\">the storm's "
               "sector</text>\n",
            x0, y - 10.0, x0 + 18.0, y);
    y += 16.0;
    static const struct { const char *fill, *what; } keys[] = {
        {"#b9c7d6", "stronghold"}, {"#b39b7d", "rock"}, {"#f3dfa8", "sand"}};
    for (unsigned i = 0; i < 3; i++) {
        fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"12\" fill=\"%s\" "
                   "stroke=\"#7a6a50\" stroke-width=\"0.6\"/><text class=\"info\" x=\"%.1f\" "
                   "y=\"%.1f\">%s</text>\n",
                x0, y - 10.0, keys[i].fill, x0 + 18.0, y, keys[i].what);
        y += 16.0;
    }
    fputs("</g>\n", f);
}

int inspect_render_svg(FILE *f, const engine_state *view, const inspect_render_options *opt)
{
    inspect_render_options defaults;
    if (opt == NULL) {
        inspect_render_options_init(&defaults);
        opt = &defaults;
    }
    double size = opt->size != 0 ? opt->size : SVG_DEFAULT_SIZE;
    geometry g;
    g.cx = size / 2.0;
    g.cy = size / 2.0;
    g.r_rim = size * 0.43;
    g.r_sink = size * 0.12;
    g.band = (g.r_rim - g.r_sink) / BANDS;
    double width = size + PANEL_WIDTH;

    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
               "viewBox=\"0 0 %.0f %.0f\" font-family=\"DejaVu Sans, Helvetica, Arial, "
               "sans-serif\">\n",
            width, size, width, size);
    fputs("<title>", f);
    xml_text(f, opt->title != NULL ? opt->title : "Arrakis");
    fputs("</title>\n<style>\n"
          ".cell{stroke:#7a6a50;stroke-width:0.8}\n"
          ".spoke{stroke:#8d7b5e;stroke-width:0.6;stroke-dasharray:2 2}\n"
          ".sector{font-size:11px;fill:#5d4e37;text-anchor:middle}\n"
          ".name{fill:#3b2f1e;text-anchor:middle;paint-order:stroke;stroke:#fff8e8;"
          "stroke-width:2.2px;stroke-linejoin:round}\n"
          ".count{font-size:9px;font-weight:bold;fill:#fff;text-anchor:middle}\n"
          ".amount{font-size:8.5px;font-weight:bold;fill:#fff;text-anchor:middle}\n"
          ".storm{fill:#6b3f1d;fill-opacity:0.32;stroke:#6b3f1d;stroke-width:1.5}\n"
          ".storm-label{font-size:11px;font-weight:bold;fill:#6b3f1d;text-anchor:middle}\n"
          ".title{font-size:15px;font-weight:bold;fill:#3b2f1e}\n"
          ".info{font-size:12px;fill:#3b2f1e}\n"
          ".seat{font-size:13px;font-weight:bold;fill:#3b2f1e}\n"
          "</style>\n", f);
    fprintf(f, "<rect width=\"%.0f\" height=\"%.0f\" fill=\"#fdf9f0\"/>\n", width, size);
    draw_ring(f, &g, view);
    /* The HMS, which has no sector: a box in the lower right corner. */
    double hx = size - 80.0, hy = size - 40.0;
    fprintf(f, "<rect class=\"cell\" x=\"%.1f\" y=\"%.1f\" width=\"150\" height=\"54\" rx=\"6\" "
               "fill=\"%s\"/>\n",
            hx - 75.0, hy - 30.0, territory_fill(ENGINE_TERRITORY_HIDDEN_MOBILE_STRONGHOLD));
    draw_contents(f, &g, view, hx, hy - 6.0);
    draw_panel(f, view, size, size, opt);
    fputs("</svg>\n", f);
    return ferror(f) ? INSPECT_ERROR : 0;
}
