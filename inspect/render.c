/*
 * render.c - a picture of Arrakis as one viewer saw it: a standalone SVG
 * with the 18 storm sectors as a ring around the Polar Sink, every
 * territory drawn as one shape (its cells in each sector, joined) with its
 * name, thin dashed lines where a territory crosses from one sector to the
 * next, the storm's sector shaded beneath the names, forces as markers in
 * each faction's colour with their counts, spice amounts and the leaders
 * that fought this phase, each inside its own territory and sector, the
 * battle under way outlined, and a panel with the turn, the phase, the
 * Advanced abilities a Karama stopped for a while, who is awaited, the
 * battle or the auction under way and each seat's holdings
 * and leaders as the viewer knows them.
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
 * (the table below); a territory is the union of its cells and is labelled
 * once, on its largest cell. Sector 0 (the Storm Start Sector) is at the
 * bottom and sectors count counter-clockwise, the way the storm moves. The
 * Hidden Mobile Stronghold has no sector; it is drawn beside the ring only
 * when the Ixians, whose stronghold it is, play.
 *
 * For whoever reads the SVG (the browser test, a web client): each
 * territory is a <path class="territory" data-territory=SLUG>, each of its
 * cells a transparent <path class="loc" data-location=N>, and every marker
 * a <g class="forces|spice|leader" data-location=N> whose drawing lies
 * inside that cell.
 *
 * Invariants: (1) every territory drawn appears once as an SVG <text>
 * carrying its exact name (all but the HMS unless the Ixians play); (2) no
 * floating point reaches anything but coordinates: the picture is for
 * people, never compared.
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

/* The fill of a territory, by its terrain. */
static const char *territory_fill(unsigned t)
{
    switch ((engine_territory_kind)engine_territory_terrain(t)) {
    case ENGINE_TERRAIN_POLAR_SINK:
        return "#e8e2d0";
    case ENGINE_TERRAIN_STRONGHOLD:
        return "#b9c7d6";
    case ENGINE_TERRAIN_ROCK:
        return "#b39b7d";
    case ENGINE_TERRAIN_SHIELDED_SAND:
        return "#efd9a4";
    case ENGINE_TERRAIN_SAND:
        break;
    }
    return "#f3dfa8";
}

static const char *const faction_colours[ENGINE_FACTION_COUNT] = {
    [ENGINE_FACTION_ATREIDES] = "#2e7d32",
    [ENGINE_FACTION_BENE_GESSERIT] = "#7b1fa2",
    [ENGINE_FACTION_EMPEROR] = "#c62828",
    [ENGINE_FACTION_FREMEN] = "#1565c0",
    [ENGINE_FACTION_HARKONNEN] = "#212121",
    [ENGINE_FACTION_GUILD] = "#ff8f00",
    [ENGINE_FACTION_IXIANS] = "#00838f",
    [ENGINE_FACTION_TLEILAXU] = "#6d4c41",
    [ENGINE_FACTION_CHOAM] = "#c0a000",
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

/* Where a territory's name goes: its centre, type size and turn. */
typedef struct placement {
    double x, y;                   /* centre of the label */
    double size;                   /* font size */
    double rotate;                 /* degrees clockwise; 0 = level */
} placement;

/* Whether the point at (x, y) lies in the polar box r0..r1, a0..a1. */
static int in_box(const geometry *g, double x, double y, double r0, double r1, double a0,
                  double a1)
{
    double dx = x - g->cx, dy = g->cy - y;
    double r = sqrt(dx * dx + dy * dy), a = atan2(dy, dx);
    double mid = (a0 + a1) / 2;
    while (a < mid - PI)
        a += 2 * PI;
    while (a > mid + PI)
        a -= 2 * PI;
    return r >= r0 && r <= r1 && a >= a0 && a <= a1;
}

/* Whether a label of w x h centred at radius r, angle a, turned by rot
 * degrees clockwise, lies inside the polar box (points along its edges). */
static int label_fits(const geometry *g, double r, double a, double w, double h, double rot,
                      double r0, double r1, double a0, double a1)
{
    double cx, cy, c = cos(rot * PI / 180.0), sn = sin(rot * PI / 180.0);
    point(g, r, a, &cx, &cy);
    for (int i = 0; i <= 6; i++)
        for (int j = 0; j <= 6; j++) {
            if (i != 0 && i != 6 && j != 0 && j != 6)
                continue;
            double u = w * ((double)i / 6.0 - 0.5), v = h * ((double)j / 6.0 - 0.5);
            /* SVG rotate(rot) turns clockwise on screen (y down). */
            double x = cx + u * c - v * sn, y = cy + u * sn + v * c;
            if (!in_box(g, x, y, r0, r1, a0, a1))
                return 0;
        }
    return 1;
}

/* Fits a name in the polar box of its cell: along the arc (turned to read
 * upright) or along the radius, the largest type that fits, as far out as
 * it fits; *inner_out is the radius inside which the cell is left free
 * for markers. 0, or -1 if even the smallest type does not fit. */
static int place_label(placement *out, double *inner_out, const geometry *g, double r0, double r1,
                       double a0, double a1, const char *name, int is_big)
{
    double chars = (double)longest_line(name), lines = strlen(name) > 11 ? 2.0 : 1.0;
    double a = (a0 + a1) / 2, deg = a * 180.0 / PI;
    /* Along the arc: the baseline tangent, the top toward the rim. */
    double tangent = 90.0 - deg;
    while (tangent > 90.0)
        tangent -= 180.0;
    while (tangent < -90.0)
        tangent += 180.0;
    double radial = -deg;
    while (radial > 90.0)
        radial -= 180.0;
    while (radial < -90.0)
        radial += 180.0;
    for (int half_points = is_big ? 21 : 19; half_points >= 10; half_points--) {
        double size = half_points / 2.0;
        double w = 0.62 * size * chars + 2.0, h = size * (1.1 * lines + 0.25);
        for (int turn = 0; turn < 2; turn++) {
            double rot = turn == 0 ? tangent : radial;
            /* The label's extent along the radius. */
            double depth = turn == 0 ? h : w;
            int steps = (int)(r1 - r0 - depth);
            for (int k = 0; k <= steps; k++) {
                double r = r1 - depth / 2 - k; /* outermost first, a pixel at a time */
                if (!label_fits(g, r, a, w, h, rot, r0, r1, a0, a1))
                    continue;
                point(g, r, a, &out->x, &out->y);
                out->size = size;
                out->rotate = rot;
                *inner_out = r - depth / 2 - 1.0;
                return 0;
            }
        }
    }
    return -1;
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
static void label(FILE *f, double x, double y, double size, double rotate, unsigned t)
{
    const char *name = inspect__territory(t);
    size_t n = strlen(name);
    const char *split = NULL;
    if (n > 11) {
        /* The space nearest the middle. */
        for (const char *p = name; *p != '\0'; p++)
            if (*p == ' ' && (split == NULL || labs((long)(p - name) - (long)n / 2) <
                                                   labs((long)(split - name) - (long)n / 2)))
                split = p;
    }
    fprintf(f, "<text class=\"name\" data-territory=\"%s\" x=\"%.1f\" y=\"%.1f\" "
               "font-size=\"%.1f\"",
            engine_territory_slug(t), x, (split ? y - size * 0.55 : y) + size * 0.35, size);
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

/* ============================================================ the grid */

/* The ring as a grid of units, BANDS x (18 sectors x SLICES): which
 * location covers each, -1 for none. Borders are drawn between units of
 * different territories, sector lines between different locations of one
 * territory. */
#define UNITS (ENGINE_SECTOR_COUNT * SLICES)

typedef struct grid {
    int16_t loc[BANDS][UNITS];     /* location, or -1 */
} grid;

static void grid_fill(grid *gr)
{
    for (unsigned b = 0; b < BANDS; b++)
        for (unsigned u = 0; u < UNITS; u++)
            gr->loc[b][u] = -1;
    for (unsigned loc = 0; loc < ENGINE_LOCATION_COUNT; loc++) {
        const cell_row *c = &cells[loc];
        int sector = engine_location_sector(loc);
        if (c->band_lo == 0 || sector < 0)
            continue;
        for (unsigned b = c->band_lo; b <= c->band_hi; b++)
            for (unsigned k = c->slice_lo; k < c->slice_hi; k++)
                gr->loc[b - 1][(unsigned)sector * SLICES + k] = (int16_t)loc;
    }
}

static int territory_at(int loc)
{
    return loc < 0 ? -1 : (int)engine_location_territory((unsigned)loc);
}

/* Angle of the boundary before unit u (a slice of a sector). */
static double unit_angle(unsigned u)
{
    return angle_of(u / SLICES, (double)(u % SLICES));
}

/* The kind of edge between two units: 0 none, 1 a sector line inside a
 * territory, 2 a territory border; `only` >= 0 keeps only the borders of
 * that territory. */
static int edge_kind(int a, int b, int only)
{
    int ta = territory_at(a), tb = territory_at(b);
    if (a == b)
        return 0;
    if (only >= 0)
        return (ta == only) != (tb == only) ? 2 : 0;
    return ta == tb ? 1 : 2;
}

/* Writes the edges of one kind as one path: arcs between bands (and at the
 * Polar Sink and the rim), radial lines between slices, each run merged. */
static void edges_path(FILE *f, const geometry *g, const grid *gr, int kind, int only)
{
    /* Arcs: between band b-1 and b at radius(b), b = 0..BANDS. */
    for (unsigned b = 0; b <= BANDS; b++) {
        double r = radius_of(g, b);
        unsigned u = 0;
        while (u < UNITS) {
            int in = b < BANDS ? gr->loc[b][u] : -1, out = b > 0 ? gr->loc[b - 1][u] : -1;
            if (edge_kind(in, out, only) != kind) {
                u++;
                continue;
            }
            unsigned v = u + 1;
            while (v < UNITS) {
                int i2 = b < BANDS ? gr->loc[b][v] : -1, o2 = b > 0 ? gr->loc[b - 1][v] : -1;
                if (edge_kind(i2, o2, only) != kind)
                    break;
                v++;
            }
            double x0, y0, x1, y1;
            point(g, r, unit_angle(u), &x0, &y0);
            point(g, r, v < UNITS ? unit_angle(v) : unit_angle(0) + 2.0 * PI, &x1, &y1);
            int is_large = (v - u) * 360u / UNITS > 180u;
            fprintf(f, "M%.1f %.1f A%.1f %.1f 0 %d 0 %.1f %.1f ", x0, y0, r, r, is_large, x1,
                    y1);
            u = v;
        }
    }
    /* Radial lines: before unit u, between u-1 and u, band by band. */
    for (unsigned u = 0; u < UNITS; u++) {
        unsigned w = (u + UNITS - 1) % UNITS;
        unsigned b = 0;
        while (b < BANDS) {
            if (edge_kind(gr->loc[b][w], gr->loc[b][u], only) != kind) {
                b++;
                continue;
            }
            unsigned e = b + 1;
            while (e < BANDS && edge_kind(gr->loc[e][w], gr->loc[e][u], only) == kind)
                e++;
            double x0, y0, x1, y1;
            point(g, radius_of(g, b), unit_angle(u), &x0, &y0);
            point(g, radius_of(g, e), unit_angle(u), &x1, &y1);
            fprintf(f, "M%.1f %.1f L%.1f %.1f ", x0, y0, x1, y1);
            b = e;
        }
    }
}

/* =========================================================== the markers */

/* The part of a cell markers may use, in polar terms. */
typedef struct marker_box {
    double r0, r1;                 /* radii, r0 < r1 */
    double a0, a1;                 /* angles, a0 < a1 */
    double x, y;                   /* no ring cell: the top middle of the rows */
    double width;                  /* no ring cell: the widest row */
} marker_box;

/* One thing to draw in a location. */
typedef struct marker {
    const char *fill;              /* its colour */
    const char *title;             /* the tooltip */
    int kind;                      /* 0 forces, 1 spice, 2 leader */
    unsigned faction;              /* forces, leader: whose */
    unsigned leader;               /* leader: which */
    char text[24];                 /* what it says */
} marker;

#define MARKERS_MAX (ENGINE_MAX_SEATS + 1 + 8)

static void marker_rect(FILE *f, const marker *m, double cx, double cy, double w, double h,
                        unsigned loc)
{
    static const char *const class_of[] = {"forces", "spice", "leader"};
    fprintf(f, "<g class=\"%s\" data-location=\"%u\" data-territory=\"%s\"", class_of[m->kind],
            loc, engine_territory_slug(engine_location_territory(loc)));
    if (m->kind == 0)
        fprintf(f, " data-faction=\"%s\"", engine_faction_name(m->faction));
    if (m->kind == 2)
        fprintf(f, " data-leader=\"%s\"", engine_leader_slug(m->leader));
    fputc('>', f);
    if (m->kind == 1)
        fprintf(f, "<path d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fL%.1f %.1fZ\" fill=\"#e67e22\" "
                   "stroke=\"#7a3e00\" stroke-width=\"0.8\"/>",
                cx - w / 2, cy, cx, cy - h / 2, cx + w / 2, cy, cx, cy + h / 2);
    else
        fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" rx=\"%.1f\" "
                   "fill=\"%s\" stroke=\"%s\" stroke-width=\"%s\"/>",
                cx - w / 2, cy - h / 2, w, h, m->kind == 0 ? h / 2 : 1.5, m->fill,
                m->kind == 2 ? "#3b2f1e" : "#fff", m->kind == 2 ? "1" : "0.8");
    fprintf(f, "<text class=\"%s\" x=\"%.1f\" y=\"%.1f\" font-size=\"%.1f\">", 
            m->kind == 2 ? "lead" : "count", cx, cy + h * 0.24, h * 0.62);
    xml_text(f, m->text);
    fputs("</text><title>", f);
    xml_text(f, m->title);
    fputs("</title></g>\n", f);
}

/* Lays the markers out in rows along the arcs of the box, from the inner
 * radius out, shrinking them until all fit; then writes them. */
static void lay_out(FILE *f, const geometry *g, const marker_box *box, const marker *ms,
                    unsigned n, unsigned loc, double scale)
{
    if (n == 0)
        return;
    double h = 14.0 * scale, gap = 1.5 * scale;
    for (int tries = 0; tries < 12; tries++, h *= 0.88) {
        double widths[MARKERS_MAX];
        for (unsigned i = 0; i < n; i++) {
            double w = h * 0.6 * 0.62 * (double)strlen(ms[i].text) + h * 0.45;
            widths[i] = ms[i].kind == 1 ? h * 1.25 : w < h ? h : w;
        }
        if (box->r1 <= box->r0) {
            /* No ring cell (the Polar Sink, the HMS): centred rows of at
             * most box->width, from y down. */
            double y = box->y + h / 2;
            for (unsigned i = 0; i < n;) {
                double total = 0;
                unsigned k = i;
                while (k < n && (k == i || total + widths[k] <= box->width))
                    total += widths[k++] + gap;
                double x = box->x - (total - gap) / 2;
                for (; i < k; i++) {
                    marker_rect(f, &ms[i], x + widths[i] / 2, y, widths[i], h, loc);
                    x += widths[i] + gap;
                }
                y += h + gap;
            }
            return;
        }
        /* Rows: each at a radius, holding the markers its arc can take. */
        unsigned row_of[MARKERS_MAX], n_rows = 0, i = 0;
        double row_r[MARKERS_MAX];
        double r = box->r0 + h / 2 + gap;
        int fits = 1;
        while (i < n) {
            if (r + h / 2 > box->r1 + 0.01) {
                fits = 0;
                break;
            }
            /* The arc at the row's inner edge is the shortest. */
            double arc = (r - h / 2) * (box->a1 - box->a0) - 2 * gap;
            double used = 0;
            unsigned first = i;
            while (i < n && used + widths[i] <= arc) {
                used += widths[i] + gap;
                row_of[i++] = n_rows;
            }
            if (i == first) {
                fits = 0;
                break;
            }
            row_r[n_rows++] = r;
            r += h + gap;
        }
        if (!fits && tries < 11)
            continue;
        for (unsigned row = 0, k = 0; row < n_rows; row++) {
            double used = 0;
            unsigned first = k;
            while (k < n && row_of[k] == row)
                used += widths[k++] + gap;
            double a = (box->a0 + box->a1) / 2 + (used - gap) / 2 / row_r[row];
            /* Angles grow counter-clockwise; lay out from a down. */
            for (unsigned j = first; j < k; j++) {
                double mid = a - widths[j] / 2 / row_r[row];
                double x, y;
                point(g, row_r[row], mid, &x, &y);
                marker_rect(f, &ms[j], x, y, widths[j], h, loc);
                a -= (widths[j] + gap) / row_r[row];
            }
        }
        return;
    }
}

/* The markers of location loc: each seat's forces, the spice, the leaders
 * that fought there this phase (at the territory's label cell). */
static unsigned markers_of(marker *out, const engine_state *v, unsigned loc, int is_label_cell)
{
    static char titles[MARKERS_MAX][64];
    int bg = inspect__seat_of(v, ENGINE_FACTION_BENE_GESSERIT);
    unsigned n = 0;
    for (uint8_t s = 0; s < v->config.n_seats && s < ENGINE_MAX_SEATS; s++) {
        unsigned plain = v->forces[loc][s], elite = v->special[loc][s];
        unsigned advisors = (int)s == bg ? v->advisors[loc] : 0;
        if (plain + elite + advisors == 0)
            continue;
        marker *m = &out[n];
        memset(m, 0, sizeof *m);
        if (elite != 0 && plain != 0)
            snprintf(m->text, sizeof m->text, "%u+%u*", plain, elite);
        else if (elite != 0)
            snprintf(m->text, sizeof m->text, "%u*", elite);
        else if (plain != 0)
            snprintf(m->text, sizeof m->text, "%u", plain);
        if (advisors != 0) {
            size_t k = strlen(m->text);
            snprintf(m->text + k, sizeof m->text - k, "%s%ua", k != 0 ? "/" : "", advisors);
        }
        m->faction = v->config.faction[s];
        m->fill = inspect_faction_colour(m->faction);
        snprintf(titles[n], sizeof titles[n], "%s: %s", inspect_faction_title(m->faction),
                 m->text);
        m->title = titles[n];
        n++;
    }
    if (v->spice[loc] != 0) {
        marker *m = &out[n];
        memset(m, 0, sizeof *m);
        m->kind = 1;
        snprintf(m->text, sizeof m->text, "%u", v->spice[loc]);
        m->fill = "#e67e22";
        snprintf(titles[n], sizeof titles[n], "spice: %u", v->spice[loc]);
        m->title = titles[n];
        n++;
    }
    unsigned t = engine_location_territory(loc);
    /* leader_territory holds only in the Battle phase. */
    int is_battle = v->phase == ENGINE_PHASE_BATTLE;
    for (unsigned l = 0; is_battle && is_label_cell && l < ENGINE_LEADER_COUNT && n < MARKERS_MAX;
         l++) {
        if (v->leader_territory[l] != t)
            continue;
        marker *m = &out[n];
        memset(m, 0, sizeof *m);
        m->kind = 2;
        m->leader = l;
        const char *name = engine_leader_name(l);
        /* Initials: the first letter of each word. */
        size_t k = 0;
        for (const char *p = name; *p != '\0' && k + 1 < sizeof m->text; p++)
            if (p == name || p[-1] == ' ')
                m->text[k++] = *p;
        m->text[k] = '\0';
        m->faction = engine_leader_faction(l);
        m->fill = "#fff8e8";
        snprintf(titles[n], sizeof titles[n], "%s (%s), fought here",
                 name, inspect_faction_title(m->faction));
        m->title = titles[n];
        n++;
    }
    return n;
}

/* ============================================================== sections */

static int has_hms(const engine_state *v)
{
    return inspect__seat_of(v, ENGINE_FACTION_IXIANS) >= 0;
}

static void draw_ring(FILE *f, const geometry *g, const grid *gr, const engine_state *v)
{
    /* Sector numbers and ticks outside the rim. */
    for (unsigned s = 0; s < ENGINE_SECTOR_COUNT; s++) {
        double a = angle_of(s, 0), x0, y0, x1, y1;
        point(g, g->r_rim, a, &x0, &y0);
        point(g, g->r_rim + 10.0, a, &x1, &y1);
        fprintf(f, "<line class=\"spoke\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", x0,
                y0, x1, y1);
        double xm, ym;
        point(g, g->r_rim + 14.0, angle_of(s, SLICES / 2.0), &xm, &ym);
        fprintf(f, "<text class=\"sector\" x=\"%.1f\" y=\"%.1f\">%u</text>\n", xm, ym + 4.0, s);
    }
    /* Each territory one shape: the union of its cells. */
    for (unsigned t = 0; t < ENGINE_TERRITORY_COUNT; t++) {
        if (t == ENGINE_TERRITORY_POLAR_SINK || t == ENGINE_TERRITORY_HIDDEN_MOBILE_STRONGHOLD)
            continue;
        fprintf(f, "<path class=\"territory\" data-territory=\"%s\" fill=\"%s\" d=\"",
                engine_territory_slug(t), territory_fill(t));
        for (unsigned loc = 0; loc < ENGINE_LOCATION_COUNT; loc++) {
            const cell_row *c = &cells[loc];
            int sector = engine_location_sector(loc);
            if (engine_location_territory(loc) != t || c->band_lo == 0 || sector < 0)
                continue;
            wedge_path(f, g, radius_of(g, c->band_lo - 1), radius_of(g, c->band_hi),
                       angle_of((unsigned)sector, c->slice_lo),
                       angle_of((unsigned)sector, c->slice_hi));
        }
        fputs("\"/>\n", f);
    }
    fprintf(f, "<circle class=\"territory\" data-territory=\"%s\" cx=\"%.1f\" cy=\"%.1f\" "
               "r=\"%.1f\" fill=\"%s\"/>\n",
            engine_territory_slug(ENGINE_TERRITORY_POLAR_SINK), g->cx, g->cy, g->r_sink,
            territory_fill(ENGINE_TERRITORY_POLAR_SINK));
    /* The storm: its sector shaded, beneath the borders and the names,
     * and marked outside the sector numbers. */
    fputs("<path class=\"storm\" d=\"", f);
    wedge_path(f, g, g->r_sink, g->r_rim, angle_of(v->storm_sector, 0),
               angle_of(v->storm_sector, SLICES));
    fputs("\"/>\n<path class=\"storm-rim\" d=\"", f);
    wedge_path(f, g, g->r_rim + 24.0, g->r_rim + 30.0, angle_of(v->storm_sector, 0),
               angle_of(v->storm_sector, SLICES));
    fputs("\"/>\n", f);
    double sx, sy;
    point(g, g->r_rim + 40.0, angle_of(v->storm_sector, SLICES / 2.0), &sx, &sy);
    fprintf(f, "<text class=\"storm-label\" x=\"%.1f\" y=\"%.1f\">STORM</text>\n", sx, sy + 4.0);
    /* Sector lines inside territories, then the territories' borders. */
    fputs("<path class=\"sector-line\" d=\"", f);
    edges_path(f, g, gr, 1, -1);
    fputs("\"/>\n<path class=\"border\" d=\"", f);
    edges_path(f, g, gr, 2, -1);
    fputs("\"/>\n", f);
    fprintf(f, "<circle class=\"border\" cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\"/>\n", g->cx, g->cy,
            g->r_sink);
    /* The battle under way: its territory outlined. */
    if (v->phase == ENGINE_PHASE_BATTLE && v->battle_territory < ENGINE_TERRITORY_COUNT &&
        v->battle_territory != ENGINE_TERRITORY_HIDDEN_MOBILE_STRONGHOLD) {
        fprintf(f, "<path class=\"battle\" data-territory=\"%s\" d=\"",
                engine_territory_slug(v->battle_territory));
        if (v->battle_territory == ENGINE_TERRITORY_POLAR_SINK) {
            double x0, y0;
            point(g, g->r_sink - 2.0, 0.0, &x0, &y0);
            fprintf(f, "M%.1f %.1f A%.1f %.1f 0 1 0 %.1f %.1f A%.1f %.1f 0 1 0 %.1f %.1f",
                    x0, y0, g->r_sink - 2.0, g->r_sink - 2.0, 2 * g->cx - x0, y0,
                    g->r_sink - 2.0, g->r_sink - 2.0, x0, y0);
        } else {
            edges_path(f, g, gr, 2, v->battle_territory);
        }
        fputs("\"/>\n", f);
    }
    /* Every cell, transparent, for whoever checks where things are. */
    for (unsigned loc = 0; loc < ENGINE_LOCATION_COUNT; loc++) {
        const cell_row *c = &cells[loc];
        int sector = engine_location_sector(loc);
        if (c->band_lo == 0 || sector < 0)
            continue;
        fprintf(f, "<path class=\"loc\" data-location=\"%u\" d=\"", loc);
        wedge_path(f, g, radius_of(g, c->band_lo - 1), radius_of(g, c->band_hi),
                   angle_of((unsigned)sector, c->slice_lo), angle_of((unsigned)sector, c->slice_hi));
        fputs("\"/>\n", f);
    }
}

/* The box of a ring cell, less a margin. */
static void cell_box(marker_box *out, const geometry *g, unsigned loc, double margin)
{
    const cell_row *c = &cells[loc];
    int sector = engine_location_sector(loc);
    out->r0 = radius_of(g, c->band_lo - 1) + margin;
    out->r1 = radius_of(g, c->band_hi) - margin;
    double rm = (out->r0 + out->r1) / 2;
    out->a0 = angle_of((unsigned)sector, c->slice_lo) + margin / rm;
    out->a1 = angle_of((unsigned)sector, c->slice_hi) - margin / rm;
    point(g, rm, (out->a0 + out->a1) / 2, &out->x, &out->y);
}

static void draw_contents(FILE *f, const geometry *g, const engine_state *v, double hms_x,
                          double hms_y)
{
    double scale = g->band / 55.8;
    int label_loc[ENGINE_TERRITORY_COUNT];
    marker_box boxes[ENGINE_TERRITORY_COUNT];
    /* (1): one label per territory drawn. A ring cell's label sits in its
     * outer part, leaving the inner part to the markers. */
    for (unsigned t = 0; t < ENGINE_TERRITORY_COUNT; t++) {
        placement p;
        marker_box *box = &boxes[t];
        memset(box, 0, sizeof *box);
        label_loc[t] = -1;
        if (t == ENGINE_TERRITORY_HIDDEN_MOBILE_STRONGHOLD) {
            if (!has_hms(v))
                continue;
            p = (placement){hms_x, hms_y - 8.0, 10.0, 0.0};
            box->x = hms_x;
            box->y = hms_y + 2.0;
            box->width = 136.0;
        } else if (t == ENGINE_TERRITORY_POLAR_SINK) {
            p = (placement){g->cx, g->cy - 22.0 * scale, 11.0, 0.0};
            box->x = g->cx;
            box->y = g->cy - 10.0 * scale;
            box->width = g->r_sink * 1.3;
        } else {
            label_loc[t] = label_location(t);
            if (label_loc[t] < 0)
                continue;
            unsigned loc = (unsigned)label_loc[t];
            const char *name = inspect__territory(t);
            cell_box(box, g, loc, 2.0 * scale);
            double inner;
            if (place_label(&p, &inner, g, box->r0, box->r1, box->a0, box->a1, name,
                            engine_territory_terrain(t) == ENGINE_TERRAIN_STRONGHOLD) != 0) {
                /* Nothing fits: the smallest type, level, in the middle. */
                p = (placement){box->x, box->y, 5.0, 0.0};
            } else if (inner - box->r0 >= 10.0 * scale) {
                box->r1 = inner; /* the name outward, the markers inward */
            }
        }
        label(f, p.x, p.y, p.size, p.rotate, t);
    }
    /* Markers: in the label cell's free part, or in the whole of any other
     * cell, always inside the location's own cell. */
    for (unsigned loc = 0; loc < ENGINE_LOCATION_COUNT; loc++) {
        unsigned t = engine_location_territory(loc);
        if (t >= ENGINE_TERRITORY_COUNT)
            continue;
        if (t == ENGINE_TERRITORY_HIDDEN_MOBILE_STRONGHOLD && !has_hms(v))
            continue;
        int is_label_cell = label_loc[t] == (int)loc || label_loc[t] < 0;
        marker ms[MARKERS_MAX];
        unsigned n = markers_of(ms, v, loc, is_label_cell);
        if (n == 0)
            continue;
        marker_box box;
        if (is_label_cell)
            box = boxes[t];
        else
            cell_box(&box, g, loc, 3.0 * scale);
        lay_out(f, g, &box, ms, n, loc, scale);
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
    /* The Advanced abilities a Karama stopped for a while (rules version 8). */
    for (unsigned a = 1; a < ENGINE_ADVANTAGE_COUNT; a++)
        if (v->karama_stopped & ENGINE_ADVANTAGE_BIT(a)) {
            fprintf(f, "<text class=\"info\" x=\"%.1f\" y=\"%.1f\">stopped by Karama: ", x0, y);
            xml_text(f, engine_advantage_name(a));
            fputs("</text>\n", f);
            y += 18.0;
        }
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
    y += 22.0;
    if (v->phase == ENGINE_PHASE_BATTLE && v->battle_territory < ENGINE_TERRITORY_COUNT &&
        v->battle_seat[0] < v->config.n_seats &&
        v->battle_seat[1] < v->config.n_seats) {
        fprintf(f, "<rect class=\"battle-key\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                   "height=\"36\" rx=\"4\" fill=\"#ffebee\" stroke=\"#d50000\"/>\n",
                x0 - 6.0, y - 14.0, PANEL_WIDTH - 20.0);
        fprintf(f, "<text class=\"info\" x=\"%.1f\" y=\"%.1f\">battle in %s:</text>\n", x0, y,
                inspect__territory(v->battle_territory));
        fprintf(f, "<text class=\"info\" x=\"%.1f\" y=\"%.1f\">%s (aggressor) against %s</text>\n",
                x0 + 12.0, y + 16.0, inspect__seat_title(v, v->battle_seat[0]),
                inspect__seat_title(v, v->battle_seat[1]));
        y += 44.0;
    } else if (v->phase == ENGINE_PHASE_BIDDING && v->n_auction != 0 &&
               v->auction_index < v->n_auction) {
        fprintf(f, "<rect class=\"auction\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"36\" "
                   "rx=\"4\"/>\n",
                x0 - 6.0, y - 14.0, PANEL_WIDTH - 20.0);
        fprintf(f, "<text class=\"info\" x=\"%.1f\" y=\"%.1f\">auction: card %u of %u up for bid",
                x0, y, v->auction_index + 1u, v->n_auction);
        const char *face = inspect__card_face(v, v->auction[v->auction_index]);
        if (face != NULL)
            fprintf(f, " (%s)", face);
        fputs("</text>\n", f);
        if (v->high_bidder < v->config.n_seats)
            fprintf(f, "<text class=\"info\" x=\"%.1f\" y=\"%.1f\">high bid %u by %s</text>\n",
                    x0 + 12.0, y + 16.0, v->high_bid, inspect__seat_title(v, v->high_bidder));
        else
            fprintf(f, "<text class=\"info\" x=\"%.1f\" y=\"%.1f\">no bid yet</text>\n",
                    x0 + 12.0, y + 16.0);
        y += 44.0;
    }
    y += 8.0;
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
            if (n_hand != 0 && n_hand % 3 == 0) {
                /* Three cards a line: the panel is narrow. */
                y += 15.0;
                fprintf(f, ",</text>\n<text class=\"info\" x=\"%.1f\" y=\"%.1f\">%s", x0 + 32.0,
                        y, face);
                n_hand++;
                continue;
            }
            fprintf(f, "%s%s", n_hand++ ? ", " : "", face);
        }
        if (n_unknown)
            fprintf(f, "%s%u unseen", n_hand ? ", " : "", n_unknown);
        else if (n_hand == 0)
            fputs("empty", f);
        fputs("</text>\n", f);
        y += 16.0;
        /* Leaders: the living in the seat's pool counted (its captives
         * among them, named below), those in the Tanks named, two a line. */
        unsigned n_alive = 0, n_dead = 0;
        for (unsigned l = 0; l < ENGINE_LEADER_COUNT; l++)
            n_alive += engine_leader_holder(v, l) == (int)s;
        fprintf(f, "<text class=\"info\" x=\"%.1f\" y=\"%.1f\">leaders: %u alive", x0 + 20.0, y,
                n_alive);
        for (unsigned l = 0; l < ENGINE_LEADER_COUNT; l++) {
            if (engine_leader_faction(l) != faction || v->leader[l].place != ENGINE_PLACE_TANKS)
                continue;
            if (n_dead % 2 == 0) {
                y += 15.0;
                fprintf(f, "%s</text>\n<text class=\"info\" x=\"%.1f\" y=\"%.1f\">%s%s",
                        n_dead ? "," : "", x0 + 32.0, y, n_dead ? "" : "in the tanks: ",
                        engine_leader_name(l));
            } else {
                fprintf(f, ", %s", engine_leader_name(l));
            }
            n_dead++;
        }
        fputs("</text>\n", f);
        /* Advanced, rules version 8: the captives it holds, and whence. */
        for (unsigned l = 0; l < ENGINE_LEADER_COUNT; l++)
            if ((v->captives >> l & 1u) && engine_leader_holder(v, l) == (int)s) {
                y += 15.0;
                fprintf(f, "<text class=\"info\" x=\"%.1f\" y=\"%.1f\">captive: %s (%s)</text>\n",
                        x0 + 32.0, y, engine_leader_name(l),
                        inspect_faction_title(engine_leader_faction(l)));
            }
        y += 22.0;
    }
    y += 6.0;
    fprintf(f, "<text class=\"info\" x=\"%.1f\" y=\"%.1f\">markers: forces per faction; * elite, "
               "a advisors;</text>\n", x0, y);
    y += 16.0;
    fprintf(f, "<text class=\"info\" x=\"%.1f\" y=\"%.1f\">initials: a leader that fought there "
               "this phase</text>\n", x0, y);
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
          ".territory{stroke:none}\n"
          ".border{fill:none;stroke:#5d4e37;stroke-width:1.6}\n"
          "rect.border{stroke-width:1.2}\n"
          ".sector-line{fill:none;stroke:#8d7b5e;stroke-width:0.6;stroke-dasharray:3 3}\n"
          ".battle{fill:none;stroke:#d50000;stroke-width:3.5;stroke-linejoin:round}\n"
          ".loc{fill:#000;fill-opacity:0;stroke:none}\n"
          ".spoke{stroke:#8d7b5e;stroke-width:0.8}\n"
          ".lead{font-weight:bold;fill:#3b2f1e;text-anchor:middle}\n"
          ".auction{fill:#fff3c4;stroke:#c0a000;stroke-width:1.5}\n"
          ".sector{font-size:11px;fill:#5d4e37;text-anchor:middle}\n"
          ".name{fill:#3b2f1e;text-anchor:middle;paint-order:stroke;stroke:#fff8e8;"
          "stroke-width:2.2px;stroke-linejoin:round}\n"
          ".count{font-weight:bold;fill:#fff;text-anchor:middle}\n"
          ".storm{fill:#6b3f1d;fill-opacity:0.36;stroke:none}\n"
          ".storm-rim{fill:#6b3f1d}\n"
          ".storm-label{font-size:11px;font-weight:bold;fill:#6b3f1d;text-anchor:middle}\n"
          ".title{font-size:15px;font-weight:bold;fill:#3b2f1e}\n"
          ".info{font-size:12px;fill:#3b2f1e}\n"
          ".seat{font-size:13px;font-weight:bold;fill:#3b2f1e}\n"
          "</style>\n", f);
    fprintf(f, "<rect width=\"%.0f\" height=\"%.0f\" fill=\"#fdf9f0\"/>\n", width, size);
    static grid gr;
    grid_fill(&gr);
    draw_ring(f, &g, &gr, view);
    /* The HMS, which has no sector: a box in the lower right corner, when
     * the Ixians play. */
    double hx = size - 80.0, hy = size - 40.0;
    if (has_hms(view))
        fprintf(f, "<rect class=\"territory border\" data-territory=\"%s\" x=\"%.1f\" "
                   "y=\"%.1f\" width=\"150\" height=\"54\" rx=\"6\" fill=\"%s\"/>\n",
                engine_territory_slug(ENGINE_TERRITORY_HIDDEN_MOBILE_STRONGHOLD), hx - 75.0,
                hy - 30.0, territory_fill(ENGINE_TERRITORY_HIDDEN_MOBILE_STRONGHOLD));
    draw_contents(f, &g, view, hx, hy - 6.0);
    draw_panel(f, view, size, size, opt);
    fputs("</svg>\n", f);
    return ferror(f) ? INSPECT_ERROR : 0;
}
