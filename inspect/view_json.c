/*
 * view_json.c - a state as text or JSON: the phase machine, every seat's
 * holdings, the auction and the battle under way, a Truthtrance question
 * (public), the forces and the spice on the board, and, for a seat's view,
 * what that seat is asked to decide.
 * `mentat state` prints the auditor's full state and per-seat and public
 * views through these same functions, `mentat scenario --state` the final
 * state of a scenario, and the server sends each viewer this same JSON.
 *
 * Layer: inspect. It only reads the engine_state it is given, through the
 * engine's name functions; it never folds and never looks past a view:
 * what a view marks unknown (ENGINE_CARD_KIND_UNKNOWN, ENGINE_UNKNOWN,
 * ENGINE_PLACE_HIDDEN) is printed as "?" in text and null in JSON, and
 * facts a view blanks without a mark (the prediction, an opponent's plan
 * before both are in, a prescience answer) are printed as hidden from
 * public facts alone (the viewer, the phase, which plans are committed).
 */
#include <string.h>

#include "inspect/internal.h"

/* engine_state.kh_state, as text and JSON name it. */
static const char *const kh_states[] = {"alive", "dead", "revived"};

#define SEAT_NONE 0xFF

/* ============================================================ shared */

/* The seat playing faction f, or -1. */
static int seat_of(const engine_state *st, unsigned f)
{
    for (unsigned s = 0; s < st->config.n_seats; s++)
        if (st->config.faction[s] == f)
            return (int)s;
    return -1;
}

static const char *or_unknown(const char *s)
{
    return s != NULL ? s : "?";
}

static int is_full(const engine_state *st)
{
    return st->viewer == ENGINE_SEAT_ENGINE;
}

/* 1 if the viewer may know what seat s knows privately (its own view). */
static int sees_seat(const engine_state *st, unsigned s)
{
    return is_full(st) || st->viewer == s;
}

/* Location as "Arrakeen" or "Arrakeen, sector 9". */
static void location_text(char *out, size_t cap, unsigned loc)
{
    const char *name = or_unknown(engine_territory_name(engine_location_territory(loc)));
    int sector = engine_location_sector(loc);
    if (sector == ENGINE_NO_SECTOR)
        snprintf(out, cap, "%s", name);
    else
        snprintf(out, cap, "%s, sector %d", name, sector);
}

const char *inspect_victory_name(unsigned v)
{
    switch ((engine_victory_kind)v) {
    case ENGINE_VICTORY_NONE: return "none";
    case ENGINE_VICTORY_STRONGHOLDS: return "strongholds";
    case ENGINE_VICTORY_PREDICTION: return "prediction";
    case ENGINE_VICTORY_FREMEN: return "fremen";
    case ENGINE_VICTORY_GUILD: return "guild";
    case ENGINE_VICTORY_DEFAULT_FREMEN: return "default_fremen";
    case ENGINE_VICTORY_MOST_STRONGHOLDS: return "most_strongholds";
    }
    return NULL;
}

/* Spice card c of the engine's table: its territory, SPICE_WORM for a
 * Shai-Hulud card, or -1 (ENGINE_UNKNOWN in a view). */
#define SPICE_WORM (-2)
static int spice_card_territory(unsigned c)
{
    for (unsigned t = 0; t < ENGINE_TERRITORY_COUNT; t++)
        if (engine_spice_card_of(t) == (int)c)
            return (int)t;
    for (unsigned k = 0;; k++) {
        int w = engine_spice_worm(k);
        if (w < 0)
            return -1;
        if (w == (int)c)
            return SPICE_WORM;
    }
}

static const char *spice_card_name(unsigned c)
{
    int t = spice_card_territory(c);
    return t == SPICE_WORM ? "Shai-Hulud" : t >= 0 ? engine_territory_name((unsigned)t) : NULL;
}

static const char *spice_card_slug(unsigned c)
{
    int t = spice_card_territory(c);
    return t == SPICE_WORM ? "shai_hulud" : t >= 0 ? engine_territory_slug((unsigned)t) : NULL;
}

static unsigned hand_count(const engine_state *st, unsigned s)
{
    unsigned n = 0;
    for (unsigned c = 0; c < st->n_cards && c < ENGINE_TREACHERY_MAX; c++)
        n += st->card[c].place == ENGINE_PLACE_HAND && st->card[c].holder == s;
    return n;
}

/* The prediction is hidden from everyone but the Bene Gesserit until the
 * game ends (engine/view.c blanks it). */
static int prediction_hidden(const engine_state *st)
{
    int bg = seat_of(st, ENGINE_FACTION_BENE_GESSERIT);
    return !is_full(st) && bg >= 0 && st->viewer != (unsigned)bg &&
           st->phase != ENGINE_PHASE_GAME_OVER;
}

static int battle_on(const engine_state *st)
{
    return st->phase == ENGINE_PHASE_BATTLE && st->battle_territory < ENGINE_TERRITORY_COUNT &&
           st->battle_seat[0] < st->config.n_seats && st->battle_seat[1] < st->config.n_seats;
}

/* Plans are secret until both are in (LR 1.07.04): a view shows the other
 * side's plan only once both are committed. */
static int plan_hidden(const engine_state *st, unsigned side)
{
    return !is_full(st) && st->battle_seat[side] != st->viewer &&
           !(st->plan[0].is_committed && st->plan[1].is_committed);
}

/* Whether the view keeps the prescience answer: until the plans are
 * revealed, only the Atreides side's views do (engine/view.c blanks it for
 * every other viewer, the seat that answered included). */
static int prescience_known(const engine_state *st)
{
    if (is_full(st) || (st->plan[0].is_committed && st->plan[1].is_committed))
        return 1;
    int atreides = seat_of(st, ENGINE_FACTION_ATREIDES);
    for (unsigned i = 0; i < 2 && atreides >= 0; i++) {
        unsigned s = st->battle_seat[i];
        int atreides_side = s == (unsigned)atreides || st->ally[s] == (unsigned)atreides;
        if (atreides_side && (st->viewer == s || st->viewer == (unsigned)atreides))
            return 1;
    }
    return 0;
}

static void print_card(FILE *f, const engine_state *st, int card);

/* The Atreides Cunning's element is the Atreides' and the other side's
 * (engine/view.c (6)), everyone's once both plans are in. */
static int nexus_prescience_known(const engine_state *st, const engine_effect *e)
{
    return is_full(st) || (st->plan[0].is_committed && st->plan[1].is_committed) ||
           st->viewer == e->owner || st->viewer == st->battle_seat[0] ||
           st->viewer == st->battle_seat[1];
}

static const char *const voice_classes[ENGINE_VOICE_CLASS_COUNT] = {
    [ENGINE_VOICE_NONE] = "none",
    [ENGINE_VOICE_POISON_WEAPON] = "poison_weapon",
    [ENGINE_VOICE_PROJECTILE_WEAPON] = "projectile_weapon",
    [ENGINE_VOICE_POISON_DEFENSE] = "poison_defense",
    [ENGINE_VOICE_PROJECTILE_DEFENSE] = "projectile_defense",
    [ENGINE_VOICE_WORTHLESS] = "worthless",
    [ENGINE_VOICE_CHEAP_HERO] = "cheap_hero",
    [ENGINE_VOICE_LASGUN] = "lasgun",
};

static const char *const prescience_elements[ENGINE_PRESCIENCE_ELEMENT_COUNT] = {
    "none", "leader", "weapon", "defense", "dial",
};

/* ====================================================== legal families */

void inspect_arg_value_text(char *out, size_t cap, const engine_state *st, unsigned type, int v)
{
    const char *name = NULL;
    switch ((engine_arg_type)type) {
    case ENGINE_ARG_FACTION:
        name = v >= 0 ? engine_faction_name((unsigned)v) : NULL;
        break;
    case ENGINE_ARG_LEADER:
        name = v == -1 ? "none" : v >= 0 ? engine_leader_slug((unsigned)v) : NULL;
        break;
    case ENGINE_ARG_TERRITORY:
        name = v >= 0 ? engine_territory_slug((unsigned)v) : NULL;
        break;
    case ENGINE_ARG_LOCATION:
        if (v >= 0 && v < ENGINE_LOCATION_COUNT) {
            const char *t = or_unknown(engine_territory_slug(engine_location_territory((unsigned)v)));
            int sector = engine_location_sector((unsigned)v);
            if (sector == ENGINE_NO_SECTOR)
                snprintf(out, cap, "%s", t);
            else
                snprintf(out, cap, "%s sector %d", t, sector);
            return;
        }
        break;
    case ENGINE_ARG_CARD:
        if (v == -1) {
            name = "none";
        } else if (v >= 0 && v < st->n_cards) {
            const char *kind = engine_card_kind_slug(st->card_kind[v]);
            if (kind != NULL)
                snprintf(out, cap, "#%d (%s)", v, kind);
            else
                snprintf(out, cap, "#%d", v);
            return;
        }
        break;
    case ENGINE_ARG_INT:
    case ENGINE_ARG_SIGNED:
        break;
    case ENGINE_ARG_COUNT1:
        v--; /* held as n + 1 */
        break;
    }
    if (name != NULL)
        snprintf(out, cap, "%s", name);
    else
        snprintf(out, cap, "%d", v);
}

/* A family's bound as its clients read it: a count held as n + 1 as n. */
static int shown_bound(unsigned type, int v)
{
    return type == ENGINE_ARG_COUNT1 ? v - 1 : v;
}

/* Cap k of family l as its clients read it: less one for each count held
 * as n + 1 it adds up. */
static int shown_cap(const engine_action_spec *spec, const engine_legal *l, unsigned k)
{
    int max = l->cap[k];
    for (unsigned i = 0; i < spec->n_args; i++)
        if ((l->cap_mask[k] & (1u << i)) && spec->arg_type[i] == ENGINE_ARG_COUNT1)
            max--;
    return max;
}

/* The names and types of family l's arguments (a generic power's from
 * its row's form) and how many it gives. */
static const engine_action_spec *family_spec(engine_action_spec *buf, unsigned *n,
                                             const engine_legal *l)
{
    const engine_action_spec *spec = engine_action_spec_for(buf, l->kind, l->lo[0]);
    *n = spec == buf ? spec->n_args : engine_legal_n_given(l);
    return spec;
}

void inspect_legal_example(engine_action *out, const engine_legal *l)
{
    const engine_action_spec *spec = engine_action_spec_of(l->kind);
    memset(out, 0, sizeof *out);
    out->kind = l->kind;
    out->seat = l->seat;
    unsigned n = spec != NULL ? spec->n_args : 0;
    int total = 0;
    for (unsigned i = 0; i < n; i++) {
        out->arg[i] = l->lo[i];
        total += l->lo[i];
    }
    for (unsigned i = 0; l->sum >= 0 && i < n && total < l->sum; i++) {
        int room = l->hi[i] - l->lo[i], want = l->sum - total;
        int add = room < want ? room : want;
        out->arg[i] = (int16_t)(out->arg[i] + add);
        total += add;
    }
}

/* The example of family l as action JSON, or "" when the codec cannot
 * write it (a family the codec does not know: an engine bug). */
static void example_text(char *out, size_t cap, const engine_legal *l)
{
    engine_action a;
    inspect_legal_example(&a, l);
    if (codec_action_to_json(out, cap, &a) != 0)
        out[0] = '\0';
}

/* One family as "bid: spice 3..10, karama 0". */
void inspect_legal_text(char *out, size_t cap, const engine_state *st, const engine_legal *l)
{
    engine_action_spec form_spec;
    unsigned n_args;
    const engine_action_spec *spec = family_spec(&form_spec, &n_args, l);
    size_t n = 0;
    out[0] = '\0';
#define ADD(...) (n < cap ? (void)(n += (size_t)snprintf(out + n, cap - n, __VA_ARGS__)) : (void)0)
    if (spec == NULL) {
        ADD("? (kind %u)", l->kind);
        return;
    }
    ADD("%s", spec->name);
    for (unsigned i = 0; i < n_args; i++) {
        char lo[96], hi[96];
        inspect_arg_value_text(lo, sizeof lo, st, spec->arg_type[i], l->lo[i]);
        ADD("%s %s ", i == 0 ? ":" : ",", spec->arg_name[i]);
        if (l->lo[i] == l->hi[i]) {
            ADD("%s", lo);
        } else {
            inspect_arg_value_text(hi, sizeof hi, st, spec->arg_type[i], l->hi[i]);
            ADD("%s..%s", lo, hi);
        }
    }
    if (l->sum >= 0)
        ADD(" (adding up to %d)", l->sum);
    for (unsigned k = 0; k < ENGINE_LEGAL_CAPS; k++) {
        if (!l->cap_mask[k])
            continue;
        const char *sep = " (";
        for (unsigned i = 0; i < spec->n_args; i++)
            if (l->cap_mask[k] & (1u << i)) {
                ADD("%s%s", sep, spec->arg_name[i]);
                sep = " + ";
            }
        ADD(" at most %d)", shown_cap(spec, l, k));
    }
#undef ADD
}

/* One family as "  bid: spice 3..10, karama 0" and its example. */
static void legal_text(FILE *f, const engine_state *st, const engine_legal *l)
{
    char line[1024], example[1024];
    inspect_legal_text(line, sizeof line, st, l);
    fprintf(f, "  %s", line);
    example_text(example, sizeof example, l);
    if (example[0] != '\0')
        fprintf(f, "\n    e.g. %s", example);
    fputc('\n', f);
}

void inspect_legal_json(inspect_json *j, const engine_state *st, const engine_legal *l)
{
    engine_action_spec form_spec;
    unsigned n_args = 0;
    const engine_action_spec *spec = l->kind < ENGINE_ACTION_KIND_COUNT
                                         ? family_spec(&form_spec, &n_args, l) : NULL;
    const engine_power_form *form = engine_generic_form(l->kind, l->lo[0]);
    inspect_json_object_begin(j);
    inspect_json_key(j, "kind");
    if (spec != NULL)
        inspect_json_string(j, spec->name);
    else
        inspect_json_null(j);
    if (form != NULL && spec != NULL) /* "power" or "window": its row's slug */
        inspect_json_member_string(j, spec->arg_name[0], form->slug);
    inspect_json_member_uint(j, "seat", l->seat + 1u);
    inspect_json_key(j, "args");
    inspect_json_array_begin(j);
    for (unsigned i = 0; spec != NULL && i < n_args; i++) {
        inspect_json_object_begin(j);
        inspect_json_member_string(j, "name", spec->arg_name[i]);
        inspect_json_member_int(j, "lo", shown_bound(spec->arg_type[i], l->lo[i]));
        inspect_json_member_int(j, "hi", shown_bound(spec->arg_type[i], l->hi[i]));
        if (spec->arg_type[i] != ENGINE_ARG_INT && spec->arg_type[i] != ENGINE_ARG_SIGNED &&
            spec->arg_type[i] != ENGINE_ARG_COUNT1) {
            char name[96];
            inspect_arg_value_text(name, sizeof name, st, spec->arg_type[i], l->lo[i]);
            inspect_json_member_string(j, "lo_name", name);
            inspect_arg_value_text(name, sizeof name, st, spec->arg_type[i], l->hi[i]);
            inspect_json_member_string(j, "hi_name", name);
        }
        inspect_json_object_end(j);
    }
    inspect_json_array_end(j);
    inspect_json_key(j, "sum");
    if (l->sum >= 0)
        inspect_json_int(j, l->sum);
    else
        inspect_json_null(j);
    int has_caps = 0;
    for (unsigned k = 0; k < ENGINE_LEGAL_CAPS; k++)
        has_caps |= l->cap_mask[k] != 0;
    if (has_caps && spec != NULL) {
        /* Only a family with caps has the member (the Advanced battle
         * plan): each cap, the arguments it adds and their most. */
        inspect_json_key(j, "caps");
        inspect_json_array_begin(j);
        for (unsigned k = 0; k < ENGINE_LEGAL_CAPS; k++) {
            if (!l->cap_mask[k])
                continue;
            inspect_json_object_begin(j);
            inspect_json_key(j, "args");
            inspect_json_array_begin(j);
            for (unsigned i = 0; i < spec->n_args; i++)
                if (l->cap_mask[k] & (1u << i))
                    inspect_json_string(j, spec->arg_name[i]);
            inspect_json_array_end(j);
            inspect_json_member_int(j, "max", shown_cap(spec, l, k));
            inspect_json_object_end(j);
        }
        inspect_json_array_end(j);
    }
    char example[1024];
    example_text(example, sizeof example, l);
    inspect_json_key(j, "example");
    if (example[0] != '\0')
        inspect_json_raw(j, example);
    else
        inspect_json_null(j);
    inspect_json_object_end(j);
}

/* ============================================================== text */

static void print_seat(FILE *f, const engine_state *st, uint8_t s)
{
    const engine_seat_state *ss = &st->seat[s];
    fprintf(f, "seat %u %s: spice %u, reserves %u", s + 1u,
            or_unknown(engine_faction_name(ss->faction)), ss->spice, ss->reserves);
    if (ss->special_reserves != 0)
        fprintf(f, " (+%u special)", ss->special_reserves);
    fprintf(f, ", tanks %u", ss->tanks);
    if (ss->special_tanks != 0)
        fprintf(f, " (+%u special)", ss->special_tanks);
    if (ss->storm_dial != ENGINE_UNKNOWN)
        fprintf(f, ", storm dial %u", ss->storm_dial);
    fputc('\n', f);

    unsigned held = hand_count(st, s);
    int n = 0;
    fprintf(f, "  hand: %u card%s", held, held == 1 ? "" : "s");
    for (unsigned c = 0; c < st->n_cards && c < ENGINE_TREACHERY_MAX; c++) {
        if (st->card[c].place != ENGINE_PLACE_HAND || st->card[c].holder != s)
            continue;
        const char *kind = engine_card_kind_name(st->card_kind[c]);
        if (kind != NULL)
            fprintf(f, "%s %s (#%u)", n++ != 0 ? "," : ":", kind, c);
        else
            fprintf(f, "%s ?", n++ != 0 ? "," : ":");
    }
    fputc('\n', f);

    int n_held = 0, n_dealt = 0;
    for (unsigned l = 0; l < ENGINE_LEADER_COUNT; l++)
        if (st->traitor[l].holder == s) {
            n_held += st->traitor[l].place == ENGINE_PLACE_HAND;
            n_dealt += st->traitor[l].place == ENGINE_PLACE_DEALT;
        }
    if (!sees_seat(st, s)) {
        /* Another seat's traitors: only those revealed are known. */
        fputs("  traitors: hidden", f);
        n = 0;
        for (unsigned l = 0; l < ENGINE_LEADER_COUNT; l++)
            if (st->traitor[l].place == ENGINE_PLACE_HAND && st->traitor[l].holder == s)
                fprintf(f, "%s %s", n++ == 0 ? "; revealed:" : ",",
                        or_unknown(engine_leader_name(l)));
        fputc('\n', f);
    } else {
        if (n_held != 0 || n_dealt == 0) {
            n = 0;
            fputs("  traitors:", f);
            for (unsigned l = 0; l < ENGINE_LEADER_COUNT; l++)
                if (st->traitor[l].place == ENGINE_PLACE_HAND && st->traitor[l].holder == s)
                    fprintf(f, "%s %s", n++ != 0 ? "," : "", or_unknown(engine_leader_name(l)));
            fputs(n == 0 ? " (none)\n" : "\n", f);
        }
        if (n_dealt != 0) {
            n = 0;
            fputs("  traitors dealt, to choose from:", f);
            for (unsigned l = 0; l < ENGINE_LEADER_COUNT; l++)
                if (st->traitor[l].place == ENGINE_PLACE_DEALT && st->traitor[l].holder == s)
                    fprintf(f, "%s %s", n++ != 0 ? "," : "", or_unknown(engine_leader_name(l)));
            fputc('\n', f);
        }
    }
    n = 0;
    for (unsigned l = 0; l < ENGINE_LEADER_COUNT; l++)
        if (st->leader[l].place == ENGINE_PLACE_TANKS && engine_leader_faction(l) == ss->faction)
            fprintf(f, "%s %s", n++ == 0 ? "  leaders in the tanks:" : ",",
                    or_unknown(engine_leader_name(l)));
    if (n != 0)
        fputc('\n', f);
    n = 0;
    for (unsigned l = 0; l < ENGINE_LEADER_COUNT; l++)
        if ((st->captives >> l & 1u) && engine_leader_holder(st, l) == (int)s)
            fprintf(f, "%s %s (from the %s)", n++ == 0 ? "  captives:" : ",",
                    or_unknown(engine_leader_name(l)), inspect_faction_title(engine_leader_faction(l)));
    if (n != 0)
        fputc('\n', f);
}

/* The Nexus Cards as the viewer knows them (engine/view.c (5)): who holds
 * one (public) and which, where the viewer knows; the cards it knows in
 * the discard; how many are neither held nor known to it. */
static int has_nexus(const engine_state *st)
{
    return (st->config.modules & ENGINE_MODULE_NEXUS_CARDS) != 0;
}

static const char *nexus_face(const engine_state *st, unsigned c)
{
    return st->nexus_face[c] < ENGINE_NEXUS_CARD_COUNT ? engine_faction_name(st->nexus_face[c])
                                                       : NULL;
}

static unsigned nexus_unseen(const engine_state *st)
{
    unsigned n = 0;
    for (unsigned c = 0; c < ENGINE_NEXUS_CARD_COUNT; c++)
        n += st->nexus_card[c].place != ENGINE_PLACE_HAND &&
             !(st->nexus_card[c].place == ENGINE_PLACE_DISCARD && nexus_face(st, c) != NULL);
    return n;
}

/* The traitors a Nexus panel drew that `seat` owes back (a public record). */
static unsigned nexus_owed(const engine_state *st, unsigned seat)
{
    for (unsigned i = 0; i < st->n_effects; i++)
        if (st->effect[i].kind == ENGINE_EFFECT_NEXUS_RETURN && st->effect[i].owner == seat)
            return st->effect[i].value;
    return 0;
}

static void print_nexus(FILE *f, const engine_state *st)
{
    const engine_config *cfg = &st->config;
    fputs("nexus cards:", f);
    unsigned n = 0;
    for (uint8_t s = 0; s < cfg->n_seats && s < ENGINE_MAX_SEATS; s++) {
        int c = engine_nexus_held(st, s);
        if (c < 0)
            continue;
        const char *face = nexus_face(st, (unsigned)c);
        fprintf(f, "%s seat %u %s holds %s", n++ != 0 ? "," : "", s + 1u,
                inspect_seat_faction(cfg, s), face != NULL ? face : "one");
    }
    fprintf(f, "%s; %u in the deck or unseen; discard:", n == 0 ? " nobody holds one" : "",
            nexus_unseen(st));
    n = 0;
    for (unsigned c = 0; c < ENGINE_NEXUS_CARD_COUNT; c++)
        if (st->nexus_card[c].place == ENGINE_PLACE_DISCARD && nexus_face(st, c) != NULL)
            fprintf(f, "%s %s", n++ != 0 ? "," : "", nexus_face(st, c));
    fputs(n == 0 ? " none seen\n" : "\n", f);
    const engine_effect *a = engine_effect_find(st, ENGINE_EFFECT_NEXUS_ANSWER);
    if (a != NULL)
        fprintf(f, "  nexus question: seat %u %s asked seat %u %s whether it holds any of its "
                "leaders as traitors: %s\n", a->owner + 1u, inspect_seat_faction(cfg, a->owner),
                a->value + 1u, inspect_seat_faction(cfg, a->value),
                a->arg == 2 ? "yes" : a->arg == 1 ? "no" : "(its answer is theirs)");
    for (uint8_t s = 0; s < cfg->n_seats && s < ENGINE_MAX_SEATS; s++) {
        unsigned owed = nexus_owed(st, s);
        if (owed != 0)
            fprintf(f, "  seat %u %s shuffles %u traitor%s back before anything else\n", s + 1u,
                    inspect_seat_faction(cfg, s), owed, owed == 1 ? "" : "s");
    }
    const engine_effect *e = engine_effect_find(st, ENGINE_EFFECT_NEXUS_PRESCIENCE);
    if (e != NULL && e->value < ENGINE_PRESCIENCE_ELEMENT_COUNT) {
        fprintf(f, "  nexus prescience: seat %u %s learns the other side's %s: ", e->owner + 1u,
                inspect_seat_faction(cfg, e->owner), prescience_elements[e->value]);
        if (!nexus_prescience_known(st, e))
            fputs("(theirs)", f);
        else if (e->value == ENGINE_PRESCIENCE_DIAL)
            fprintf(f, "%d", e->arg);
        else if (e->arg == -1)
            fputs("none", f);
        else if (e->value == ENGINE_PRESCIENCE_LEADER) /* or a Cheap Hero */
            fputs(e->arg >= 0 ? or_unknown(engine_leader_name((unsigned)e->arg)) : "a Cheap Hero", f);
        else
            print_card(f, st, e->arg);
        fputc('\n', f);
    }
}

static void json_string_or_null(inspect_json *j, const char *s);

static void json_nexus(inspect_json *j, const engine_state *st)
{
    const engine_config *cfg = &st->config;
    inspect_json_object_begin(j);
    inspect_json_key(j, "held");
    inspect_json_array_begin(j);
    for (uint8_t s = 0; s < cfg->n_seats && s < ENGINE_MAX_SEATS; s++) {
        int c = engine_nexus_held(st, s);
        if (c < 0)
            continue;
        inspect_json_object_begin(j);
        inspect_json_member_uint(j, "seat", s + 1u);
        inspect_json_key(j, "card");
        json_string_or_null(j, nexus_face(st, (unsigned)c));
        inspect_json_object_end(j);
    }
    inspect_json_array_end(j);
    inspect_json_key(j, "discard_seen");
    inspect_json_array_begin(j);
    for (unsigned c = 0; c < ENGINE_NEXUS_CARD_COUNT; c++)
        if (st->nexus_card[c].place == ENGINE_PLACE_DISCARD && nexus_face(st, c) != NULL)
            inspect_json_string(j, nexus_face(st, c));
    inspect_json_array_end(j);
    inspect_json_member_uint(j, "unseen", nexus_unseen(st));
    /* the Ecaz Secret Ally's question: its answer as the viewer knows it */
    inspect_json_key(j, "question");
    const engine_effect *a = engine_effect_find(st, ENGINE_EFFECT_NEXUS_ANSWER);
    if (a == NULL) {
        inspect_json_null(j);
    } else {
        inspect_json_object_begin(j);
        inspect_json_member_uint(j, "asker", a->owner + 1u);
        inspect_json_member_uint(j, "asked", a->value + 1u);
        inspect_json_key(j, "answer");
        json_string_or_null(j, a->arg == 2 ? "yes" : a->arg == 1 ? "no" : NULL);
        inspect_json_object_end(j);
    }
    /* the Atreides Cunning's element, as the viewer knows it */
    inspect_json_key(j, "prescience");
    const engine_effect *e = engine_effect_find(st, ENGINE_EFFECT_NEXUS_PRESCIENCE);
    if (e == NULL || e->value >= ENGINE_PRESCIENCE_ELEMENT_COUNT) {
        inspect_json_null(j);
    } else {
        inspect_json_object_begin(j);
        inspect_json_member_uint(j, "seat", e->owner + 1u);
        inspect_json_member_string(j, "element", prescience_elements[e->value]);
        inspect_json_key(j, "value");
        if (nexus_prescience_known(st, e))
            inspect_json_int(j, e->arg);
        else
            inspect_json_null(j);
        inspect_json_object_end(j);
    }
    inspect_json_key(j, "traitors_owed");
    inspect_json_array_begin(j);
    for (uint8_t s = 0; s < cfg->n_seats && s < ENGINE_MAX_SEATS; s++)
        if (nexus_owed(st, s) != 0) {
            inspect_json_object_begin(j);
            inspect_json_member_uint(j, "seat", s + 1u);
            inspect_json_member_uint(j, "count", nexus_owed(st, s));
            inspect_json_object_end(j);
        }
    inspect_json_array_end(j);
    inspect_json_object_end(j);
}

static void print_card(FILE *f, const engine_state *st, int card)
{
    if (card < 0 || card >= st->n_cards) {
        fputs("-", f);
        return;
    }
    const char *kind = engine_card_kind_name(st->card_kind[card]);
    fprintf(f, "%s (#%d)", or_unknown(kind), card);
}

static void print_plan(FILE *f, const engine_state *st, unsigned side)
{
    const engine_battle_plan *p = &st->plan[side];
    unsigned s = st->battle_seat[side];
    fprintf(f, "  %s seat %u %s: ", side == 0 ? "aggressor" : "defender", s + 1u,
            inspect_seat_faction(&st->config, (uint8_t)s));
    if (!p->is_committed) {
        fputs("plan not yet committed\n", f);
        return;
    }
    if (plan_hidden(st, side)) {
        fputs("plan committed, hidden\n", f);
        return;
    }
    fputs("leader ", f);
    if (p->leader >= 0)
        fputs(or_unknown(engine_leader_name((unsigned)p->leader)), f);
    else if (p->cheap_hero >= 0)
        print_card(f, st, p->cheap_hero);
    else
        fputs("-", f);
    fputs(", weapon ", f);
    print_card(f, st, p->weapon);
    fputs(", defense ", f);
    print_card(f, st, p->defense);
    if (engine_kh_in_force(st) && p->kwisatz_haderach == ENGINE_KH_WITH)
        fputs(", with the Kwisatz Haderach", f);
    if (!engine_is_advanced(st)) {
        fprintf(f, ", dial %u\n", p->dial);
        return;
    }
    fprintf(f, ", forces %u at full strength and %u at half, elite %u at full and %u at half "
               "(strength %u%s, %u spice in support)\n", p->dial, p->half, p->elite, p->elite_half,
            engine_plan_forces_strength2(st, side) / 2,
            engine_plan_forces_strength2(st, side) % 2 ? ".5" : "", engine_plan_support(st, side));
}

static void print_battle(FILE *f, const engine_state *st)
{
    fprintf(f, "battle in %s:\n", or_unknown(engine_territory_name(st->battle_territory)));
    for (unsigned side = 0; side < 2; side++)
        print_plan(f, st, side);
    if (engine_battle_voice(st) != ENGINE_VOICE_NONE && engine_battle_voice(st) < ENGINE_VOICE_CLASS_COUNT)
        fprintf(f, "  voice: %s play %s\n", engine_battle_voice_must(st) ? "must" : "must not",
                voice_classes[engine_battle_voice(st)]);
    if (engine_battle_prescience(st) != ENGINE_PRESCIENCE_NONE &&
        engine_battle_prescience(st) < ENGINE_PRESCIENCE_ELEMENT_COUNT) {
        int v = engine_battle_prescience_answer(st);
        fprintf(f, "  prescience: %s = ", prescience_elements[engine_battle_prescience(st)]);
        if (!prescience_known(st))
            fputs("hidden", f);
        else if (engine_battle_prescience(st) == ENGINE_PRESCIENCE_DIAL && engine_is_advanced(st))
            fprintf(f, "forces of strength %d%s with %d spice in support", v / 2, v % 2 ? ".5" : "",
                    engine_battle_prescience_support(st));
        else if (engine_battle_prescience(st) == ENGINE_PRESCIENCE_DIAL)
            fprintf(f, "%d", v);
        else if (v == -1)
            fputs("none", f);
        else if (engine_battle_prescience(st) == ENGINE_PRESCIENCE_LEADER) /* or a Cheap Hero */
            fputs(v >= 0 ? or_unknown(engine_leader_name((unsigned)v)) : "a Cheap Hero", f);
        else
            print_card(f, st, v);
        fputc('\n', f);
    }
    for (unsigned side = 0; side < 2; side++)
        if (st->traitor_called & (1u << side))
            fprintf(f, "  traitor called by the %s's side\n", side == 0 ? "aggressor" : "defender");
    if (st->capture_leader != 0)
        fprintf(f, "  drawn to capture or kill: %s\n",
                or_unknown(engine_leader_name(st->capture_leader - 1u)));
}

/* The public windows and records of a state, as the view prints them
 * (engine_window_find, engine_effect_find): 0xFF for none. */
typedef struct windows {
    uint8_t asker, target, answer;   /* the Truthtrance question pending or last answered */
    const engine_frame *karama;      /* the Karama window, or NULL */
    uint32_t cancelled;              /* advantages cancelled until the retake */
    uint8_t retake;
    const engine_frame *ship;        /* a shipment held for another seat's Karama, or NULL */
} windows;

static void windows_read(windows *w, const engine_state *st)
{
    const engine_frame *q = engine_window_find(st, ENGINE_WINDOW_TRUTHTRANCE);
    const engine_effect *a = engine_effect_find(st, ENGINE_EFFECT_ANSWER);
    const engine_effect *c = engine_effect_find(st, ENGINE_EFFECT_CANCELLED);
    w->asker = q ? q->owner : a ? a->owner : 0xFF;
    w->target = 0xFF;
    for (uint8_t s = 0; q && s < ENGINE_MAX_SEATS; s++)
        if (q->asked & (1u << s))
            w->target = s;
    w->answer = q ? 0xFF : a ? a->value : 0xFF;
    w->karama = engine_window_find(st, ENGINE_WINDOW_KARAMA);
    w->cancelled = engine_effect_sources(st, ENGINE_EFFECT_CANCELLED);
    w->retake = c ? c->owner : 0xFF;
    w->ship = engine_window_find(st, ENGINE_WINDOW_SHIP_PAYER);
}

/* A Truthtrance question, public: pending, or the last one answered. */
static void print_truthtrance(FILE *f, const engine_state *st, const windows *w)
{
    const engine_config *cfg = &st->config;
    uint8_t a = w->asker, t = w->target;
    if (t < cfg->n_seats)
        fprintf(f, "truthtrance: seat %u %s asked seat %u %s, who must answer now\n", a + 1u,
                inspect_seat_faction(cfg, a), t + 1u, inspect_seat_faction(cfg, t));
    else
        fprintf(f, "truthtrance: the last question, by seat %u %s, was answered %s\n", a + 1u,
                inspect_seat_faction(cfg, a), w->answer == 1 ? "yes" : "no");
}

/* A Karama window, public: the advantages offered, whose, and the action
 * held (docs/RULINGS.md "Karama"); the stops that last (rules version 8);
 * or a cancellation awaiting its retake. */
static void print_karama(FILE *f, const engine_state *st, const windows *w)
{
    const engine_config *cfg = &st->config;
    const engine_frame *k = w->karama;
    if (k != NULL) {
        fprintf(f, "karama window: seat %u %s's", k->owner + 1u, inspect_seat_faction(cfg, k->owner));
        for (unsigned a = 1; a < ENGINE_ADVANTAGE_COUNT; a++)
            if (k->rows & ENGINE_ADVANTAGE_BIT(a))
                fprintf(f, " %s", engine_advantage_name(a));
        const engine_action_spec *spec = engine_action_spec_of(k->held.kind);
        if (spec != NULL)
            fprintf(f, ", holding %s by seat %u %s\n", spec->name, k->held.seat + 1u,
                    inspect_seat_faction(cfg, k->held.seat));
        else /* kind NONE: the window stands before one of the game's own steps */
            fprintf(f, ", before the game's next step (no seat's action is held)\n");
    }
    if (st->karama_stopped != 0) {
        fprintf(f, "karama stopped:");
        for (unsigned a = 1; a < ENGINE_ADVANTAGE_COUNT; a++)
            if (st->karama_stopped & ENGINE_ADVANTAGE_BIT(a))
                fprintf(f, " %s (%s)", engine_advantage_name(a),
                        a == ENGINE_ADVANTAGE_FREMEN_STORM_PEEK ? "until the next storm"
                                                                 : "for this battle");
        fprintf(f, "\n");
    }
    if (w->retake < cfg->n_seats) {
        fprintf(f, "karama cancelled:");
        for (unsigned a = 1; a < ENGINE_ADVANTAGE_COUNT; a++)
            if (w->cancelled & ENGINE_ADVANTAGE_BIT(a))
                fprintf(f, " %s", engine_advantage_name(a));
        fprintf(f, ", until seat %u %s retakes its action\n", w->retake + 1u,
                inspect_seat_faction(cfg, w->retake));
    }
}

/* A shipment held for another seat's Karama, public (docs/RULINGS.md R67). */
static void print_karama_ship(FILE *f, const engine_state *st, const windows *w)
{
    const engine_config *cfg = &st->config;
    const engine_frame *h = w->ship;
    char where[96];
    location_text(where, sizeof where, (unsigned)h->held.arg[0]);
    fprintf(f, "karama shipment: seat %u %s ships %u forces (%u elite) to %s if seat %u %s pays "
               "with a Karama\n",
            h->owner + 1u, inspect_seat_faction(cfg, h->owner), (unsigned)h->held.arg[1],
            (unsigned)h->held.arg[2], where, h->user + 1u, inspect_seat_faction(cfg, h->user));
}

/* The windows rows declare (rules version 6), public: each open one by
 * its row's slug, whose it is, the seats it still asks and the attempt it
 * holds. */
static void print_generic_windows(FILE *f, const engine_state *st)
{
    const engine_config *cfg = &st->config;
    for (unsigned i = 0; i < st->n_frames; i++) {
        const engine_frame *g = &st->frame[i];
        if (g->point != ENGINE_WINDOW_GENERIC)
            continue;
        const engine_power_form *form = engine_window_form_of(g->window);
        fprintf(f, "window %s: seat %u %s's, asking", form ? form->slug : "(unknown)",
                g->owner + 1u, inspect_seat_faction(cfg, g->owner));
        for (uint8_t s = 0; s < cfg->n_seats && s < ENGINE_MAX_SEATS; s++)
            if (g->asked & ~g->answered & (1u << s))
                fprintf(f, " seat %u %s", s + 1u, inspect_seat_faction(cfg, s));
        const engine_action_spec *spec = engine_action_spec_of(g->held.kind);
        if (spec != NULL && g->held.kind != ENGINE_ACTION_NONE)
            fprintf(f, ", holding %s by seat %u %s", spec->name, g->held.seat + 1u,
                    inspect_seat_faction(cfg, g->held.seat));
        fputc('\n', f);
    }
}

static void print_auction(FILE *f, const engine_state *st)
{
    if (st->bid_turn >= st->config.n_seats || st->auction_index >= st->n_auction) {
        fprintf(f, "auction: %u card%s drawn\n", st->n_auction, st->n_auction == 1 ? "" : "s");
        return;
    }
    fprintf(f, "auction: card %u of %u up, ", st->auction_index + 1u, st->n_auction);
    print_card(f, st, st->auction[st->auction_index]);
    if (st->high_bidder < st->config.n_seats)
        fprintf(f, "; high bid %u by seat %u %s%s", st->high_bid, st->high_bidder + 1u,
                inspect_seat_faction(&st->config, st->high_bidder),
                st->high_bid_karama != SEAT_NONE ? " (with Karama)" : "");
    else
        fputs("; no bid yet", f);
    fprintf(f, "; seat %u %s to bid\n", st->bid_turn + 1u,
            inspect_seat_faction(&st->config, st->bid_turn));
}

void inspect_state_print(FILE *f, const inspect_state_doc *d)
{
    const engine_state *st = d->st;
    const engine_config *cfg = &st->config;
    if (d->room != NULL)
        fprintf(f, "room %s at version %u (head %u), ", d->room, d->version, d->head);
    else
        fprintf(f, "position after %u accepted action%s, ", d->version,
                d->version == 1 ? "" : "s");
    fprintf(f, "%s rules, %u turns%s\n", cfg->is_advanced ? "advanced" : "basic", cfg->turn_limit,
            cfg->is_constructed ? ", constructed" : "");
    if (st->viewer == ENGINE_VIEW_PUBLIC)
        fputs("public view: public facts only; ? marks what is hidden\n", f);
    if (d->is_keyless)
        fputs("(no audit key: the public view stored with the event, all a reader without "
              "the key may see)\n", f);
    else if (st->viewer < cfg->n_seats)
        fprintf(f, "view of seat %u %s: what it knows; ? marks what it does not\n",
                st->viewer + 1u, inspect_seat_faction(cfg, st->viewer));
    fprintf(f, "turn %u, phase %s, storm in sector %u\n", st->turn,
            or_unknown(engine_phase_name(st->phase)), st->storm_sector);
    uint16_t awaiting = engine_state_awaiting(st);
    fputs("awaiting:", f);
    int n = 0;
    for (uint8_t s = 0; s < cfg->n_seats; s++)
        if (awaiting & (1u << s))
            fprintf(f, "%s seat %u %s", n++ != 0 ? "," : "", s + 1u, inspect_seat_faction(cfg, s));
    fputs(n == 0 ? " nobody\n" : "\n", f);
    n = 0;
    for (uint8_t s = 0; s < cfg->n_seats && s < ENGINE_MAX_SEATS; s++)
        if (st->ally[s] < cfg->n_seats && st->ally[s] > s)
            fprintf(f, "%s %s + %s", n++ == 0 ? "alliances:" : ",", inspect_seat_faction(cfg, s),
                    inspect_seat_faction(cfg, st->ally[s]));
    if (n != 0)
        fputc('\n', f);
    if (st->phase == ENGINE_PHASE_GAME_OVER) {
        fputs("winners:", f);
        n = 0;
        for (uint8_t s = 0; s < cfg->n_seats; s++)
            if (st->winners & (1u << s))
                fprintf(f, "%s seat %u %s", n++ != 0 ? "," : "", s + 1u,
                        inspect_seat_faction(cfg, s));
        fprintf(f, "%s (victory: %s)\n", n == 0 ? " nobody" : "",
                or_unknown(inspect_victory_name(st->victory_kind)));
    }
    if (has_nexus(st))
        print_nexus(f, st);
    if (prediction_hidden(st))
        fputs("prediction (Bene Gesserit): hidden\n", f);
    else if (st->prediction_turn != 0)
        fprintf(f, "prediction (Bene Gesserit): %s wins on turn %u\n",
                or_unknown(engine_faction_name(st->prediction_faction)), st->prediction_turn);
    fprintf(f, "treachery deck %u", st->n_deck);
    if (st->n_deck != 0) {
        fputs(" (top ", f);
        const char *kind = engine_card_kind_name(st->card_kind[st->deck[st->n_deck - 1]]);
        fprintf(f, "%s)", or_unknown(kind));
    }
    fprintf(f, ", discard %u; spice deck %u", st->n_discard, st->n_spice_deck);
    if (st->n_spice_deck != 0)
        fprintf(f, " (top %s)", or_unknown(spice_card_name(st->spice_deck[st->n_spice_deck - 1])));
    fprintf(f, ", discard %u", st->n_spice_discard);
    if (st->n_spice_discard != 0)
        fprintf(f, " (top %s)",
                or_unknown(spice_card_name(st->spice_discard[st->n_spice_discard - 1])));
    /* the Advanced double blow's pile B (the discard above is pile A) */
    if (cfg->is_advanced) {
        fprintf(f, ", pile B %u", st->n_spice_discard_b);
        if (st->n_spice_discard_b != 0 && st->n_spice_discard_b <= ENGINE_SPICE_CARD_MAX)
            fprintf(f, " (top %s)",
                    or_unknown(spice_card_name(st->spice_discard_b[st->n_spice_discard_b - 1])));
    }
    fputc('\n', f);
    if (st->phase == ENGINE_PHASE_BIDDING && st->n_auction != 0)
        print_auction(f, st);
    if (battle_on(st))
        print_battle(f, st);
    if (engine_kh_in_force(st))
        fprintf(f, "kwisatz haderach: %u forces lost in battles, %s, %s\n", st->kh_losses,
                st->kh_losses >= ENGINE_KH_AWAKENING_LOSSES ? "awake" : "asleep",
                st->kh_state < 3 ? kh_states[st->kh_state] : "?");
    windows w;
    windows_read(&w, st);
    if (w.asker < cfg->n_seats)
        print_truthtrance(f, st, &w);
    if (w.karama != NULL || w.retake < cfg->n_seats || st->karama_stopped != 0)
        print_karama(f, st, &w);
    if (w.ship != NULL)
        print_karama_ship(f, st, &w);
    print_generic_windows(f, st);

    fputc('\n', f);
    for (uint8_t s = 0; s < cfg->n_seats && s < ENGINE_MAX_SEATS; s++)
        print_seat(f, st, s);

    int bg = seat_of(st, ENGINE_FACTION_BENE_GESSERIT);
    fputs("\nforces on the board:\n", f);
    n = 0;
    for (unsigned loc = 0; loc < ENGINE_LOCATION_COUNT; loc++) {
        char where[96];
        location_text(where, sizeof where, loc);
        for (uint8_t s = 0; s < cfg->n_seats && s < ENGINE_MAX_SEATS; s++) {
            unsigned plain = st->forces[loc][s], special = st->special[loc][s];
            unsigned advisors = (int)s == bg ? st->advisors[loc] : 0;
            if (plain == 0 && special == 0 && advisors == 0)
                continue;
            n++;
            fprintf(f, "  %-34s seat %u %-14s %3u", where, s + 1u, inspect_seat_faction(cfg, s),
                    plain);
            if (special != 0)
                fprintf(f, " (+%u special)", special);
            if (advisors != 0)
                fprintf(f, " (advisors %u)", advisors);
            fputc('\n', f);
        }
    }
    if (n == 0)
        fputs("  (none)\n", f);

    fputs("\nspice on the board:\n", f);
    n = 0;
    for (unsigned loc = 0; loc < ENGINE_LOCATION_COUNT; loc++) {
        if (st->spice[loc] == 0)
            continue;
        char where[96];
        location_text(where, sizeof where, loc);
        fprintf(f, "  %-34s %3u\n", where, st->spice[loc]);
        n++;
    }
    if (n == 0)
        fputs("  (none)\n", f);

    if (st->viewer < cfg->n_seats) {
        fprintf(f, "\nseat %u %s ", st->viewer + 1u, inspect_seat_faction(cfg, st->viewer));
        if (d->n_legal == 0) {
            fputs("has nothing to decide\n", f);
            return;
        }
        fputs("is asked to decide; its legal actions:\n", f);
        for (size_t i = 0; i < d->n_legal; i++)
            legal_text(f, st, &d->legal[i]);
    } else if (st->viewer == ENGINE_VIEW_PUBLIC) {
        fputs("\nthe game waits on:", f);
        n = 0;
        for (uint8_t s = 0; s < cfg->n_seats; s++)
            if (awaiting & (1u << s))
                fprintf(f, "%s seat %u %s", n++ != 0 ? "," : "", s + 1u,
                        inspect_seat_faction(cfg, s));
        fputs(n == 0 ? " nobody\n" : "\n", f);
    }
}

/* ============================================================== JSON */

static void json_string_or_null(inspect_json *j, const char *s)
{
    if (s != NULL)
        inspect_json_string(j, s);
    else
        inspect_json_null(j);
}

static void json_location(inspect_json *j, unsigned loc)
{
    inspect_json_member_string(j, "territory",
                            or_unknown(engine_territory_slug(engine_location_territory(loc))));
    inspect_json_key(j, "sector");
    int sector = engine_location_sector(loc);
    if (sector == ENGINE_NO_SECTOR)
        inspect_json_null(j);
    else
        inspect_json_int(j, sector);
}

/* A card as {"card":N,"kind":slug|null}, or null for none. */
static void json_card(inspect_json *j, const engine_state *st, int card)
{
    if (card < 0 || card >= st->n_cards) {
        inspect_json_null(j);
        return;
    }
    inspect_json_object_begin(j);
    inspect_json_member_int(j, "card", card);
    inspect_json_key(j, "kind");
    json_string_or_null(j, engine_card_kind_slug(st->card_kind[card]));
    inspect_json_object_end(j);
}

static void json_seat(inspect_json *j, const engine_state *st, uint8_t s)
{
    const engine_seat_state *ss = &st->seat[s];
    inspect_json_object_begin(j);
    inspect_json_member_uint(j, "seat", s + 1u);
    inspect_json_member_string(j, "faction", or_unknown(engine_faction_name(ss->faction)));
    inspect_json_member_uint(j, "spice", ss->spice);
    inspect_json_member_uint(j, "reserves", ss->reserves);
    inspect_json_member_uint(j, "special_reserves", ss->special_reserves);
    inspect_json_member_uint(j, "tanks", ss->tanks);
    inspect_json_member_uint(j, "special_tanks", ss->special_tanks);
    inspect_json_key(j, "storm_dial");
    if (ss->storm_dial != ENGINE_UNKNOWN)
        inspect_json_uint(j, ss->storm_dial);
    else
        inspect_json_null(j);
    inspect_json_member_uint(j, "hand_size", hand_count(st, s));
    inspect_json_key(j, "hand");
    inspect_json_array_begin(j);
    for (unsigned c = 0; c < st->n_cards && c < ENGINE_TREACHERY_MAX; c++)
        if (st->card[c].place == ENGINE_PLACE_HAND && st->card[c].holder == s)
            json_string_or_null(j, engine_card_kind_slug(st->card_kind[c]));
    inspect_json_array_end(j);
    inspect_json_key(j, "hand_cards");
    inspect_json_array_begin(j);
    for (unsigned c = 0; c < st->n_cards && c < ENGINE_TREACHERY_MAX; c++)
        if (st->card[c].place == ENGINE_PLACE_HAND && st->card[c].holder == s)
            json_card(j, st, (int)c);
    inspect_json_array_end(j);
    inspect_json_key(j, "ally");
    if (st->ally[s] < st->config.n_seats)
        inspect_json_uint(j, st->ally[s] + 1u);
    else
        inspect_json_null(j);
    /* Another seat's traitors are unknown to a view: null, and the
     * revealed ones apart. */
    int is_known = sees_seat(st, s);
    inspect_json_key(j, "traitors");
    if (is_known) {
        inspect_json_array_begin(j);
        for (unsigned l = 0; l < ENGINE_LEADER_COUNT; l++)
            if (st->traitor[l].place == ENGINE_PLACE_HAND && st->traitor[l].holder == s)
                inspect_json_string(j, or_unknown(engine_leader_slug(l)));
        inspect_json_array_end(j);
    } else {
        inspect_json_null(j);
    }
    inspect_json_key(j, "traitors_revealed");
    inspect_json_array_begin(j);
    for (unsigned l = 0; l < ENGINE_LEADER_COUNT; l++)
        if (st->traitor[l].place == ENGINE_PLACE_HAND && st->traitor[l].holder == s &&
            (st->traitor[l].known_by & ENGINE_KNOWN_PUBLIC))
            inspect_json_string(j, or_unknown(engine_leader_slug(l)));
    inspect_json_array_end(j);
    inspect_json_key(j, "traitors_dealt");
    if (is_known) {
        inspect_json_array_begin(j);
        for (unsigned l = 0; l < ENGINE_LEADER_COUNT; l++)
            if (st->traitor[l].place == ENGINE_PLACE_DEALT && st->traitor[l].holder == s)
                inspect_json_string(j, or_unknown(engine_leader_slug(l)));
        inspect_json_array_end(j);
    } else {
        inspect_json_null(j);
    }
    inspect_json_key(j, "leaders_in_tanks");
    inspect_json_array_begin(j);
    for (unsigned l = 0; l < ENGINE_LEADER_COUNT; l++)
        if (st->leader[l].place == ENGINE_PLACE_TANKS && engine_leader_faction(l) == ss->faction)
            inspect_json_string(j, or_unknown(engine_leader_slug(l)));
    inspect_json_array_end(j);
    /* Advanced, rules version 8: the leaders this seat holds captive, each
     * with the faction it was taken from (public, docs/RULINGS.md R158) */
    if (engine_captives_in_force(st)) {
        inspect_json_key(j, "captives");
        inspect_json_array_begin(j);
        for (unsigned l = 0; l < ENGINE_LEADER_COUNT; l++)
            if ((st->captives >> l & 1u) && engine_leader_holder(st, l) == (int)s) {
                inspect_json_object_begin(j);
                inspect_json_member_string(j, "leader", or_unknown(engine_leader_slug(l)));
                inspect_json_member_string(j, "from", engine_faction_name(engine_leader_faction(l)));
                inspect_json_object_end(j);
            }
        inspect_json_array_end(j);
    }
    inspect_json_object_end(j);
}

/* The Kwisatz Haderach's token (Advanced, rules version 6 on): public. */
static void json_kh(inspect_json *j, const engine_state *st)
{
    inspect_json_key(j, "kwisatz_haderach");
    inspect_json_object_begin(j);
    inspect_json_member_uint(j, "losses", st->kh_losses);
    inspect_json_member_bool(j, "awake", st->kh_losses >= ENGINE_KH_AWAKENING_LOSSES);
    inspect_json_member_string(j, "state", st->kh_state < 3 ? kh_states[st->kh_state] : "?");
    inspect_json_key(j, "territory");
    json_string_or_null(j, st->kh_territory ? engine_territory_slug(st->kh_territory - 1u) : NULL);
    inspect_json_object_end(j);
}

static void json_battle(inspect_json *j, const engine_state *st)
{
    if (!battle_on(st)) {
        inspect_json_null(j);
        return;
    }
    inspect_json_object_begin(j);
    inspect_json_member_string(j, "territory",
                            or_unknown(engine_territory_slug(st->battle_territory)));
    inspect_json_key(j, "plans");
    inspect_json_array_begin(j);
    for (unsigned side = 0; side < 2; side++) {
        const engine_battle_plan *p = &st->plan[side];
        int hidden = p->is_committed && plan_hidden(st, side);
        int shown = p->is_committed && !hidden;
        inspect_json_object_begin(j);
        inspect_json_member_uint(j, "seat", st->battle_seat[side] + 1u);
        inspect_json_member_string(j, "side", side == 0 ? "aggressor" : "defender");
        inspect_json_member_bool(j, "committed", p->is_committed);
        inspect_json_member_bool(j, "hidden", hidden);
        inspect_json_key(j, "leader");
        json_string_or_null(j, shown && p->leader >= 0 ? engine_leader_slug((unsigned)p->leader)
                                                       : NULL);
        inspect_json_key(j, "cheap_hero");
        json_card(j, st, shown ? p->cheap_hero : -1);
        inspect_json_key(j, "weapon");
        json_card(j, st, shown ? p->weapon : -1);
        inspect_json_key(j, "defense");
        json_card(j, st, shown ? p->defense : -1);
        inspect_json_key(j, "dial");
        if (shown)
            inspect_json_uint(j, p->dial);
        else
            inspect_json_null(j);
        if (engine_is_advanced(st)) {
            /* The Advanced forces by strength, their strength in half
             * points and the spice supporting them (LR 1.13.04). */
            static const char *const names[] = {"half", "elite", "elite_half"};
            const uint8_t values[] = {p->half, p->elite, p->elite_half};
            for (unsigned k = 0; k < 3; k++) {
                inspect_json_key(j, names[k]);
                if (shown)
                    inspect_json_uint(j, values[k]);
                else
                    inspect_json_null(j);
            }
            inspect_json_key(j, "strength_half_points");
            if (shown)
                inspect_json_uint(j, engine_plan_forces_strength2(st, side));
            else
                inspect_json_null(j);
            inspect_json_key(j, "support");
            if (shown)
                inspect_json_uint(j, engine_plan_support(st, side));
            else
                inspect_json_null(j);
        }
        if (engine_kh_in_force(st)) {
            inspect_json_key(j, "kwisatz_haderach");
            if (shown)
                inspect_json_bool(j, p->kwisatz_haderach == ENGINE_KH_WITH);
            else
                inspect_json_null(j);
        }
        inspect_json_member_bool(j, "traitor_called", (st->traitor_called >> side) & 1u);
        inspect_json_object_end(j);
    }
    inspect_json_array_end(j);
    /* Advanced, rules version 8: the leader drawn for the Harkonnen's
     * capture or kill, while they decide (public, R158) */
    if (engine_captives_in_force(st)) {
        inspect_json_key(j, "capture_drawn");
        json_string_or_null(j, st->capture_leader ? engine_leader_slug(st->capture_leader - 1u)
                                                  : NULL);
    }
    inspect_json_key(j, "voice");
    if (engine_battle_voice(st) != ENGINE_VOICE_NONE && engine_battle_voice(st) < ENGINE_VOICE_CLASS_COUNT) {
        inspect_json_object_begin(j);
        inspect_json_member_bool(j, "must", engine_battle_voice_must(st));
        inspect_json_member_string(j, "class", voice_classes[engine_battle_voice(st)]);
        inspect_json_object_end(j);
    } else {
        inspect_json_null(j);
    }
    inspect_json_key(j, "prescience");
    if (engine_battle_prescience(st) != ENGINE_PRESCIENCE_NONE &&
        engine_battle_prescience(st) < ENGINE_PRESCIENCE_ELEMENT_COUNT) {
        inspect_json_object_begin(j);
        inspect_json_member_string(j, "element", prescience_elements[engine_battle_prescience(st)]);
        inspect_json_key(j, "value");
        if (prescience_known(st))
            inspect_json_int(j, engine_battle_prescience_answer(st));
        else
            inspect_json_null(j);
        /* the Advanced dial's answer: value in half points, and its support */
        if (engine_battle_prescience(st) == ENGINE_PRESCIENCE_DIAL && engine_is_advanced(st)) {
            inspect_json_key(j, "support");
            if (prescience_known(st))
                inspect_json_int(j, engine_battle_prescience_support(st));
            else
                inspect_json_null(j);
        }
        inspect_json_object_end(j);
    } else {
        inspect_json_null(j);
    }
    inspect_json_object_end(j);
}

/* An array of the advantage names whose bits are set in `mask`. */
static void json_advantages(inspect_json *j, uint32_t mask)
{
    inspect_json_array_begin(j);
    for (unsigned a = 1; a < ENGINE_ADVANTAGE_COUNT; a++)
        if (mask & ENGINE_ADVANTAGE_BIT(a))
            inspect_json_string(j, engine_advantage_name(a));
    inspect_json_array_end(j);
}

/* The Karama window, public: null when none is open; the advantages a
 * Karama cancelled for a retake either way. */
static void json_karama(inspect_json *j, const engine_state *st)
{
    uint8_t n = st->config.n_seats;
    windows w;
    windows_read(&w, st);
    const engine_frame *k = w.karama;
    inspect_json_object_begin(j);
    inspect_json_key(j, "window");
    if (k == NULL) {
        inspect_json_null(j);
    } else {
        inspect_json_object_begin(j);
        inspect_json_key(j, "offered");
        json_advantages(j, k->rows);
        inspect_json_member_uint(j, "owner", k->owner + 1u);
        inspect_json_member_uint(j, "user", k->user + 1u);
        const engine_action_spec *spec = engine_action_spec_of(k->held.kind);
        inspect_json_key(j, "held");
        if (spec)
            inspect_json_string(j, spec->name);
        else
            inspect_json_null(j);
        inspect_json_object_end(j);
    }
    inspect_json_key(j, "cancelled");
    json_advantages(j, w.cancelled);
    /* the Advanced abilities a Karama stopped for the battle or until the
     * next storm (rules version 8, docs/RULINGS.md R131-R134) */
    inspect_json_key(j, "stopped");
    json_advantages(j, st->karama_stopped);
    inspect_json_key(j, "retake");
    if (w.retake < n)
        inspect_json_uint(j, w.retake + 1u);
    else
        inspect_json_null(j);
    /* a shipment held for another seat's Karama (R67), or null */
    inspect_json_key(j, "shipment");
    if (w.ship != NULL) {
        const engine_frame *h = w.ship;
        inspect_json_object_begin(j);
        inspect_json_member_uint(j, "seat", h->owner + 1u);
        inspect_json_member_uint(j, "payer", h->user + 1u);
        inspect_json_key(j, "location");
        inspect_json_object_begin(j);
        json_location(j, (unsigned)h->held.arg[0]);
        inspect_json_object_end(j);
        inspect_json_member_uint(j, "forces", (uint8_t)h->held.arg[1]);
        inspect_json_member_uint(j, "elite", (uint8_t)h->held.arg[2]);
        inspect_json_object_end(j);
    } else {
        inspect_json_null(j);
    }
    inspect_json_object_end(j);
}

/* 1 if a window a row declares is open (rules version 6). */
static int has_generic_window(const engine_state *st)
{
    for (unsigned i = 0; i < st->n_frames; i++)
        if (st->frame[i].point == ENGINE_WINDOW_GENERIC)
            return 1;
    return 0;
}

/* The windows rows declare, public, as print_generic_windows tells them:
 * [{"window","owner","asking":[seats],"held","held_seat"}], innermost
 * last; `held` null for a window holding no seat's action. */
static void json_generic_windows(inspect_json *j, const engine_state *st)
{
    uint8_t n = st->config.n_seats;
    inspect_json_array_begin(j);
    for (unsigned i = 0; i < st->n_frames; i++) {
        const engine_frame *g = &st->frame[i];
        if (g->point != ENGINE_WINDOW_GENERIC)
            continue;
        const engine_power_form *form = engine_window_form_of(g->window);
        inspect_json_object_begin(j);
        inspect_json_key(j, "window");
        json_string_or_null(j, form ? form->slug : NULL);
        inspect_json_member_uint(j, "owner", g->owner + 1u);
        inspect_json_key(j, "asking");
        inspect_json_array_begin(j);
        for (uint8_t s = 0; s < n && s < ENGINE_MAX_SEATS; s++)
            if (g->asked & ~g->answered & (1u << s))
                inspect_json_uint(j, s + 1u);
        inspect_json_array_end(j);
        const engine_action_spec *spec =
            g->held.kind != ENGINE_ACTION_NONE ? engine_action_spec_of(g->held.kind) : NULL;
        inspect_json_key(j, "held");
        json_string_or_null(j, spec ? spec->name : NULL);
        inspect_json_key(j, "held_seat");
        if (spec)
            inspect_json_uint(j, g->held.seat + 1u);
        else
            inspect_json_null(j);
        inspect_json_object_end(j);
    }
    inspect_json_array_end(j);
}

static void json_truthtrance(inspect_json *j, const engine_state *st)
{
    uint8_t n = st->config.n_seats;
    windows w;
    windows_read(&w, st);
    if (w.asker >= n) {
        inspect_json_null(j);
        return;
    }
    inspect_json_object_begin(j);
    inspect_json_member_uint(j, "asker", w.asker + 1u);
    inspect_json_key(j, "pending_target");
    if (w.target < n)
        inspect_json_uint(j, w.target + 1u);
    else
        inspect_json_null(j);
    inspect_json_key(j, "answer");
    if (w.answer <= 1)
        inspect_json_bool(j, w.answer);
    else
        inspect_json_null(j);
    inspect_json_object_end(j);
}

static void json_auction(inspect_json *j, const engine_state *st)
{
    if (st->phase != ENGINE_PHASE_BIDDING || st->n_auction == 0) {
        inspect_json_null(j);
        return;
    }
    int up = st->bid_turn < st->config.n_seats && st->auction_index < st->n_auction;
    inspect_json_object_begin(j);
    inspect_json_member_uint(j, "cards", st->n_auction);
    inspect_json_member_uint(j, "index", st->auction_index);
    inspect_json_key(j, "card");
    json_card(j, st, up ? st->auction[st->auction_index] : -1);
    inspect_json_member_uint(j, "high_bid", st->high_bid);
    inspect_json_key(j, "high_bidder");
    if (st->high_bidder < st->config.n_seats)
        inspect_json_uint(j, st->high_bidder + 1u);
    else
        inspect_json_null(j);
    inspect_json_key(j, "to_bid");
    if (up)
        inspect_json_uint(j, st->bid_turn + 1u);
    else
        inspect_json_null(j);
    inspect_json_object_end(j);
}

void inspect_state_json(inspect_json *j, const inspect_state_doc *d)
{
    const engine_state *st = d->st;
    const engine_config *cfg = &st->config;
    inspect_json_object_begin(j);
    inspect_json_key(j, "room");
    json_string_or_null(j, d->room);
    inspect_json_member_uint(j, "version", d->version);
    inspect_json_member_uint(j, "head", d->head);
    inspect_json_member_string(j, "view",
                            is_full(st) ? "full" : st->viewer == ENGINE_VIEW_PUBLIC ? "public" : "seat");
    if (d->is_keyless)
        inspect_json_member_bool(j, "keyless", 1);
    inspect_json_key(j, "viewer");
    if (st->viewer < cfg->n_seats)
        inspect_json_uint(j, st->viewer + 1u);
    else
        inspect_json_null(j);
    inspect_json_member_string(j, "rules", cfg->is_advanced ? "advanced" : "basic");
    inspect_json_member_uint(j, "turn_limit", cfg->turn_limit);
    inspect_json_member_bool(j, "constructed", cfg->is_constructed);
    inspect_json_member_uint(j, "turn", st->turn);
    inspect_json_member_string(j, "phase", or_unknown(engine_phase_name(st->phase)));
    inspect_json_member_uint(j, "storm_sector", st->storm_sector);
    inspect_json_key(j, "awaiting");
    inspect_json_array_begin(j);
    uint16_t awaiting = engine_state_awaiting(st);
    for (uint8_t s = 0; s < cfg->n_seats; s++)
        if (awaiting & (1u << s))
            inspect_json_uint(j, s + 1u);
    inspect_json_array_end(j);
    inspect_json_key(j, "winners");
    inspect_json_array_begin(j);
    for (uint8_t s = 0; s < cfg->n_seats; s++)
        if (st->winners & (1u << s))
            inspect_json_uint(j, s + 1u);
    inspect_json_array_end(j);
    inspect_json_key(j, "victory");
    if (st->phase == ENGINE_PHASE_GAME_OVER)
        json_string_or_null(j, inspect_victory_name(st->victory_kind));
    else
        inspect_json_null(j);
    inspect_json_key(j, "prediction");
    if (st->prediction_turn != 0 && !prediction_hidden(st)) {
        inspect_json_object_begin(j);
        inspect_json_member_string(j, "faction",
                                or_unknown(engine_faction_name(st->prediction_faction)));
        inspect_json_member_uint(j, "turn", st->prediction_turn);
        inspect_json_object_end(j);
    } else {
        inspect_json_null(j);
    }
    inspect_json_member_uint(j, "treachery_deck", st->n_deck);
    inspect_json_key(j, "treachery_deck_order");
    inspect_json_array_begin(j);
    for (unsigned i = 0; i < st->n_deck && i < ENGINE_TREACHERY_MAX; i++)
        json_string_or_null(j, engine_card_kind_slug(st->card_kind[st->deck[i]]));
    inspect_json_array_end(j);
    inspect_json_member_uint(j, "treachery_discard", st->n_discard);
    inspect_json_member_uint(j, "spice_deck", st->n_spice_deck);
    inspect_json_key(j, "spice_deck_order");
    inspect_json_array_begin(j);
    for (unsigned i = 0; i < st->n_spice_deck && i < ENGINE_SPICE_CARD_MAX; i++)
        json_string_or_null(j, st->spice_deck[i] == ENGINE_UNKNOWN ? NULL
                                                                   : spice_card_slug(st->spice_deck[i]));
    inspect_json_array_end(j);
    inspect_json_member_uint(j, "spice_discard", st->n_spice_discard);
    inspect_json_key(j, "spice_discard_order");
    inspect_json_array_begin(j);
    for (unsigned i = 0; i < st->n_spice_discard && i < ENGINE_SPICE_CARD_MAX; i++)
        json_string_or_null(j, spice_card_slug(st->spice_discard[i]));
    inspect_json_array_end(j);
    if (st->config.is_advanced) {
        /* the double blow's pile B; spice_discard above is pile A */
        inspect_json_member_uint(j, "spice_discard_b", st->n_spice_discard_b);
        inspect_json_key(j, "spice_discard_b_order");
        inspect_json_array_begin(j);
        for (unsigned i = 0; i < st->n_spice_discard_b && i < ENGINE_SPICE_CARD_MAX; i++)
            json_string_or_null(j, spice_card_slug(st->spice_discard_b[i]));
        inspect_json_array_end(j);
    }
    inspect_json_key(j, "auction");
    json_auction(j, st);
    inspect_json_key(j, "battle");
    json_battle(j, st);
    if (engine_kh_in_force(st))
        json_kh(j, st);
    inspect_json_key(j, "truthtrance");
    json_truthtrance(j, st);
    inspect_json_key(j, "karama");
    json_karama(j, st);
    if (has_generic_window(st)) {
        inspect_json_key(j, "windows");
        json_generic_windows(j, st);
    }
    if (has_nexus(st)) {
        inspect_json_key(j, "nexus_cards");
        json_nexus(j, st);
    }

    inspect_json_key(j, "seats");
    inspect_json_array_begin(j);
    for (uint8_t s = 0; s < cfg->n_seats && s < ENGINE_MAX_SEATS; s++)
        json_seat(j, st, s);
    inspect_json_array_end(j);

    int bg = seat_of(st, ENGINE_FACTION_BENE_GESSERIT);
    inspect_json_key(j, "forces");
    inspect_json_array_begin(j);
    for (unsigned loc = 0; loc < ENGINE_LOCATION_COUNT; loc++)
        for (uint8_t s = 0; s < cfg->n_seats && s < ENGINE_MAX_SEATS; s++) {
            unsigned plain = st->forces[loc][s], special = st->special[loc][s];
            unsigned advisors = (int)s == bg ? st->advisors[loc] : 0;
            if (plain == 0 && special == 0 && advisors == 0)
                continue;
            inspect_json_object_begin(j);
            json_location(j, loc);
            inspect_json_member_uint(j, "seat", s + 1u);
            inspect_json_member_string(j, "faction", inspect_seat_faction(cfg, s));
            inspect_json_member_uint(j, "count", plain);
            inspect_json_member_uint(j, "special", special);
            inspect_json_member_uint(j, "advisors", advisors);
            inspect_json_object_end(j);
        }
    inspect_json_array_end(j);

    inspect_json_key(j, "spice");
    inspect_json_array_begin(j);
    for (unsigned loc = 0; loc < ENGINE_LOCATION_COUNT; loc++) {
        if (st->spice[loc] == 0)
            continue;
        inspect_json_object_begin(j);
        json_location(j, loc);
        inspect_json_member_uint(j, "amount", st->spice[loc]);
        inspect_json_object_end(j);
    }
    inspect_json_array_end(j);

    /* What the viewer is asked: a seat's legal families; null otherwise
     * (the public part, who is awaited, is "awaiting" above). */
    inspect_json_key(j, "legal");
    if (st->viewer < cfg->n_seats) {
        inspect_json_array_begin(j);
        for (size_t i = 0; i < d->n_legal; i++)
            inspect_legal_json(j, st, &d->legal[i]);
        inspect_json_array_end(j);
    } else {
        inspect_json_null(j);
    }
    inspect_json_object_end(j);
}
