/*
 * log.c - the per-seat log: each event as one seat was told it, a few
 * sentences derived from the action and that seat's views before and
 * after it ("Harkonnen bought a card for 3 spice" for the table, "you
 * bought a Lasgun for 3 spice" for the buyer), then what followed
 * automatically in the same fold: the storm's move, spice blows and
 * worms, plans revealed, battles and their results, cards drawn and
 * discarded, forces lost, spice changing hands, leaders killed and
 * revived, alliances, phase changes and the game's end.
 *
 * Layer: inspect. Reads the ledger and folds in memory; never writes to
 * the ledger.
 *
 * Invariants:
 *   (1) A line is a function of the viewer's two views and of the action
 *       masked for the viewer (inspect_action_mask) and of nothing else:
 *       inspect_log_describe masks the action first and never reads the
 *       stored arguments again. Two worlds the viewer cannot tell apart
 *       give the same line.
 *   (2) A card is named only when the view gives its face; otherwise it is
 *       "a card". Card numbers are never printed (they say nothing, and
 *       a reader would take them for something).
 *
 * Which action arguments a seat other than the actor sees when the action
 * is submitted (the auditor and the actor see all of them); the secret
 * ones are the engine's (engine_action_secret_mask), this table says what
 * the log makes of them:
 *
 *   kind                 public arguments     secret arguments
 *   predict              -                    faction, turn (the BG's until the game ends)
 *   traitor_pick         -                    leader
 *   fremen_place         all                  -
 *   bg_place             all                  -
 *   storm_dial           -                    value (only the storm's total move is public)
 *   alliance_*           all                  -
 *   nexus_done           (none)               -
 *   worm_ride(_pass)     all                  -
 *   charity_*            (none)               -
 *   ally_support         spice                -
 *   bid                  spice, karama        - (a Karama bid is declared openly)
 *   bid_pass, karama_take (none)              -
 *   emperor_revival      forces               -
 *   revive, ghola        all                  -
 *   ship, fremen_send, cross_ship, ship_back  all  -
 *   ship_pass, bg_send   all                  -
 *   move, hajr_move, move_pass  all           -
 *   battle_choose        all                  -
 *   prescience(_pass)    element              - (asked aloud)
 *   prescience_answer    -                    value (the Atreides side learns it from its view)
 *   voice(_pass)         all                  - (spoken aloud)
 *   karama_cancel/allow  advantage            -
 *   battle_plan          -                    leader, cheap_hero, weapon, defense, dial,
 *                                             half, elite, elite_half (Advanced: the
 *                                             forces by strength and so the spice
 *                                             support; the reveal is read from the views)
 *   traitor_call         call                 - (called aloud)
 *   keep_cards           all                  -
 *   weather_control      sectors              -
 *   family_atomics, storm_cards_pass (none)   -
 *   truthtrance          target               -
 *   truthtrance_answer   yes                  - (answered aloud)
 *   ship_karama_from     all                  - (proposed aloud)
 *   ship_karama_answer   pay                  - (answered aloud)
 *   power, answer        (its row's form: engine_generic_secret_mask)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inspect/internal.h"

/* ============================================================ masking */

unsigned inspect_action_mask(engine_action *out, const engine_action *act, uint8_t viewer)
{
    *out = *act;
    if (viewer == ENGINE_SEAT_ENGINE || viewer == act->seat)
        return 0;
    uint8_t secret = engine_action_secret_args(act);
    unsigned n = 0;
    for (unsigned i = 0; i < ENGINE_ACTION_MAX_ARGS; i++)
        if (secret & (1u << i)) {
            out->arg[i] = INSPECT_ARG_HIDDEN;
            n++;
        }
    return n;
}

/* ======================================================== small words */

typedef struct line_ctx {
    const engine_state *b;         /* the viewer's view before the event */
    const engine_state *a;         /* the viewer's view after it */
    const engine_action *act;      /* the action, masked for the viewer (1) */
    inspect__text *t;
} line_ctx;

static int hidden(const engine_action *act, unsigned i)
{
    return act->arg[i] == INSPECT_ARG_HIDDEN;
}

static void loc_text(char *out, size_t cap, int loc)
{
    inspect__location_text(out, cap, loc < 0 ? ENGINE_LOCATION_COUNT : (unsigned)loc);
}

/* "5 forces", "5 forces and 2 Fedaykin", "2 Fedaykin", "no forces". */
static void forces_text(char *out, size_t cap, const engine_state *st, uint8_t seat, int plain,
                        int elite)
{
    if (plain > 0 && elite > 0)
        snprintf(out, cap, "%d force%s and %d %s", plain, plain == 1 ? "" : "s", elite,
                 inspect__elite_name(st, seat));
    else if (elite > 0)
        snprintf(out, cap, "%d %s", elite, inspect__elite_name(st, seat));
    else if (plain > 0)
        snprintf(out, cap, "%d force%s", plain, plain == 1 ? "" : "s");
    else
        snprintf(out, cap, "no forces");
}

/* The face of card `card` if the view knows it, else "a card". */
static const char *card_words(const engine_state *v, int card, char *buf, size_t cap)
{
    const char *face = inspect__card_face(v, card);
    if (face == NULL)
        return "a card";
    snprintf(buf, cap, "%s %s", strchr("AEIOU", face[0]) != NULL ? "an" : "a", face);
    return buf;
}

static const char *element_name(int e)
{
    switch (e) {
    case 1: return "leader";
    case 2: return "weapon";
    case 3: return "defense";
    case 4: return "dial";
    default: return "?";
    }
}

static const char *voice_class_name(int c)
{
    switch (c) {
    case ENGINE_VOICE_POISON_WEAPON: return "a poison weapon";
    case ENGINE_VOICE_PROJECTILE_WEAPON: return "a projectile weapon";
    case ENGINE_VOICE_POISON_DEFENSE: return "a poison defense";
    case ENGINE_VOICE_PROJECTILE_DEFENSE: return "a projectile defense";
    case ENGINE_VOICE_WORTHLESS: return "a worthless card";
    case ENGINE_VOICE_CHEAP_HERO: return "a cheap hero";
    case ENGINE_VOICE_LASGUN: return "a lasgun";
    default: return "?";
    }
}

static const char *victory_words(unsigned v)
{
    switch ((engine_victory_kind)v) {
    case ENGINE_VICTORY_NONE: return "no victory";
    case ENGINE_VICTORY_STRONGHOLDS: return "by holding strongholds";
    case ENGINE_VICTORY_PREDICTION: return "by the Bene Gesserit prediction";
    case ENGINE_VICTORY_FREMEN: return "by the Fremen special victory";
    case ENGINE_VICTORY_GUILD: return "by the Guild's default victory";
    case ENGINE_VICTORY_DEFAULT_FREMEN: return "by the Fremen default victory";
    case ENGINE_VICTORY_MOST_STRONGHOLDS: return "by holding the most strongholds";
    }
    return "?";
}

static const char *phase_title(unsigned p)
{
    switch ((engine_phase)p) {
    case ENGINE_PHASE_SETUP: return "setup";
    case ENGINE_PHASE_STORM: return "the Storm phase";
    case ENGINE_PHASE_SPICE_BLOW: return "the Spice Blow";
    case ENGINE_PHASE_CHOAM_CHARITY: return "CHOAM Charity";
    case ENGINE_PHASE_BIDDING: return "the Bidding phase";
    case ENGINE_PHASE_REVIVAL: return "the Revival phase";
    case ENGINE_PHASE_SHIPMENT_MOVEMENT: return "Shipment and Movement";
    case ENGINE_PHASE_BATTLE: return "the Battle phase";
    case ENGINE_PHASE_SPICE_COLLECTION: return "Spice Collection";
    case ENGINE_PHASE_MENTAT_PAUSE: return "the Mentat Pause";
    case ENGINE_PHASE_GAME_OVER: return "the end of the game";
    case ENGINE_PHASE_COUNT: break;
    }
    return "?";
}

/* "Atreides, Fremen and you". */
static void seats_words(inspect__text *t, const engine_state *v, uint16_t mask)
{
    unsigned n = 0, total = 0;
    for (uint8_t s = 0; s < v->config.n_seats && s < ENGINE_MAX_SEATS; s++)
        total += ((unsigned)mask >> s) & 1u;
    for (uint8_t s = 0; s < v->config.n_seats && s < ENGINE_MAX_SEATS; s++)
        if (mask & (1u << s)) {
            n++;
            inspect__text_add(t, "%s%s", n == 1 ? "" : n == total ? " and " : ", ",
                              inspect__who(v, s));
        }
    if (total == 0)
        inspect__text_add(t, "nobody");
}

/* ===================================================== the action itself */

/* The leader a plan names, as words: "Duncan Idaho", "Cheap Hero",
 * "no leader". */
static void plan_leader(char *out, size_t cap, const engine_state *v, int leader, int cheap_hero)
{
    if (leader >= 0)
        snprintf(out, cap, "%s", inspect__leader((unsigned)leader));
    else if (cheap_hero >= 0) {
        const char *face = inspect__card_face(v, cheap_hero);
        snprintf(out, cap, "%s", face != NULL ? face : "a cheap hero");
    } else
        snprintf(out, cap, "no leader");
}

/* A plan's words from its leader, Cheap Hero, cards and forces (arg[0..7]
 * as the plan holds them, the counts plain: not as the action's arguments
 * hold them, plus one). */
static void plan_words(inspect__text *t, const engine_state *v, const int16_t *arg)
{
    char who[64], cw[48], cd[48];
    int weapon = arg[2], defense = arg[3];
    plan_leader(who, sizeof who, v, arg[0], arg[1]);
    const char *w = weapon >= 0 ? inspect__card_face(v, weapon) : "no weapon";
    const char *d = defense >= 0 ? inspect__card_face(v, defense) : "no defense";
    snprintf(cw, sizeof cw, "%s", w != NULL ? w : "a weapon");
    snprintf(cd, sizeof cd, "%s", d != NULL ? d : "a defense");
    if (!engine_is_advanced(v)) {
        inspect__text_add(t, "%s, %s, %s, dial %d", who, cw, cd, arg[4]);
        return;
    }
    /* Advanced: the forces by strength; the spice support follows from
     * them (one for each force at full strength, LR 1.13.04). */
    inspect__text_add(t, "%s, %s, %s, forces %d at full strength and %d at half, elite %d "
                         "at full and %d at half", who, cw, cd, arg[4], arg[5], arg[6], arg[7]);
}

static void plan_args(int16_t *arg, const engine_battle_plan *p)
{
    arg[0] = p->leader;
    arg[1] = p->cheap_hero;
    arg[2] = p->weapon;
    arg[3] = p->defense;
    arg[4] = p->dial;
    arg[5] = p->half;
    arg[6] = p->elite;
    arg[7] = p->elite_half;
}

/* The viewer is the Atreides or fights on the Atreides side of the battle:
 * its view holds the prescience answer (the rule engine_view applies). */
static int is_atreides_side(const engine_state *v)
{
    int atreides = inspect__seat_of(v, ENGINE_FACTION_ATREIDES);
    if (atreides < 0 || v->viewer >= v->config.n_seats)
        return 0;
    if (v->viewer == atreides)
        return 1;
    for (unsigned i = 0; i < 2; i++)
        if (v->battle_seat[i] == v->viewer && v->ally[v->viewer] == atreides)
            return 1;
    return 0;
}

/* A generic action from its row's form: a power, "Harkonnen used
 * harkonnen_bribe (territory The Great Flat, spice secret)."; a window's
 * answer, "Emperor answered levy (defy 1, tithe secret)."; an argument
 * masked for the viewer is told as secret. */
static void generic_text(inspect__text *t, const char *who, const engine_action *x)
{
    const engine_power_form *form = engine_generic_form(x->kind, x->arg[0]);
    int is_power = x->kind == ENGINE_ACTION_POWER;
    const char *verb = is_power ? "used" : "answered";
    char args[320], one[160], place[96];
    size_t len = 0;
    if (!form) {
        inspect__text_sentence(t, "%s %s a %s this build does not know.", who, verb,
                               is_power ? "power" : "window");
        return;
    }
    args[0] = '\0';
    for (unsigned i = 0; i < form->n_args && i < ENGINE_POWER_MAX_ARGS; i++) {
        int v = x->arg[1 + i];
        const char *name = NULL;
        if (hidden(x, 1 + i))
            snprintf(one, sizeof one, "%.48s secret", form->arg_name[i]);
        else {
            switch ((engine_arg_type)form->arg_type[i]) {
            case ENGINE_ARG_FACTION: name = inspect_faction_title((unsigned)v); break;
            case ENGINE_ARG_LEADER: name = engine_leader_name((unsigned)v); break;
            case ENGINE_ARG_TERRITORY: name = engine_territory_name((unsigned)v); break;
            case ENGINE_ARG_LOCATION: loc_text(place, sizeof place, v); name = place; break;
            case ENGINE_ARG_COUNT1: v--; break;
            case ENGINE_ARG_INT:
            case ENGINE_ARG_CARD:
            case ENGINE_ARG_SIGNED: break;
            }
            if (name)
                snprintf(one, sizeof one, "%.48s %.96s", form->arg_name[i], name);
            else
                snprintf(one, sizeof one, "%.48s %d", form->arg_name[i], v);
        }
        int w = snprintf(args + len, sizeof args - len, "%s%s", i ? ", " : "", one);
        if (w < 0 || (size_t)w >= sizeof args - len)
            break;
        len += (size_t)w;
    }
    if (len)
        inspect__text_sentence(t, "%s %s %s (%s).", who, verb, form->slug, args);
    else
        inspect__text_sentence(t, "%s %s %s.", who, verb, form->slug);
}

static void describe_action(const line_ctx *c)
{
    const engine_action *x = c->act;
    const engine_state *b = c->b;
    inspect__text *t = c->t;
    const char *who = inspect__who(b, x->seat);
    char w1[96], w2[96], w3[64];
    switch ((engine_action_kind)x->kind) {
    case ENGINE_ACTION_PREDICT:
        /* Setup: the Bene Gesserit prediction (LR 2.02.01). */
        if (hidden(x, 0))
            inspect__text_sentence(t, "%s made a secret prediction.", who);
        else
            inspect__text_sentence(t, "%s predicted that %s wins on turn %d.", who,
                                   inspect_faction_title((unsigned)x->arg[0]), x->arg[1]);
        return;
    case ENGINE_ACTION_TRAITOR_PICK:
        /* Setup: each seat keeps a traitor (LR 1.00.06). */
        if (hidden(x, 0))
            inspect__text_sentence(t, "%s chose a traitor.", who);
        else
            inspect__text_sentence(t, "%s kept %s as a traitor.", who,
                                   inspect__leader((unsigned)x->arg[0]));
        return;
    case ENGINE_ACTION_FREMEN_PLACE: {
        /* Setup: the Fremen's 10 forces (LR 2.04.02). */
        enum { N = ENGINE_FREMEN_START_TERRITORIES };
        inspect__text_sentence(t, "%s placed", who);
        int n = 0;
        for (unsigned i = 0; i < N; i++) {
            if (x->arg[i] <= 0 && x->arg[i + N] <= 0)
                continue;
            forces_text(w1, sizeof w1, b, x->seat, x->arg[i], x->arg[i + N]);
            inspect__text_add(t, "%s %s in %s", n++ ? "," : "", w1,
                              inspect__territory(engine_fremen_start_territory(i)));
        }
        inspect__text_add(t, "%s.", n ? "" : " no forces");
        return;
    }
    case ENGINE_ACTION_BG_PLACE:
        loc_text(w1, sizeof w1, x->arg[0]);
        inspect__text_sentence(t, "%s placed a force in %s.", who, w1);
        return;
    case ENGINE_ACTION_STORM_DIAL:
        /* Storm: a secret dial (LR 1.01.01). */
        if (hidden(x, 0))
            inspect__text_sentence(t, "%s dialled the storm.", who);
        else
            inspect__text_sentence(t, "%s dialled %d for the storm.", who, x->arg[0]);
        return;
    case ENGINE_ACTION_ALLIANCE_PROPOSE:
        inspect__text_sentence(t, "%s proposed an alliance to %s.", who,
                               inspect_faction_title((unsigned)x->arg[0]));
        return;
    case ENGINE_ACTION_ALLIANCE_ACCEPT:
        inspect__text_sentence(t, "%s accepted the alliance %s proposed.", who,
                               inspect_faction_title((unsigned)x->arg[0]));
        return;
    case ENGINE_ACTION_ALLIANCE_REFUSE:
        inspect__text_sentence(t, "%s refused the alliance %s proposed.", who,
                               inspect_faction_title((unsigned)x->arg[0]));
        return;
    case ENGINE_ACTION_ALLIANCE_BREAK:
        inspect__text_sentence(t, "%s broke off an alliance.", who);
        return;
    case ENGINE_ACTION_NEXUS_DONE:
        inspect__text_sentence(t, "%s finished negotiating.", who);
        return;
    case ENGINE_ACTION_WORM_RIDE:
        loc_text(w1, sizeof w1, x->arg[0]);
        forces_text(w2, sizeof w2, b, x->seat, x->arg[1], x->arg[2]);
        inspect__text_sentence(t, "%s rode the worm to %s with %s.", who, w1, w2);
        return;
    case ENGINE_ACTION_WORM_RIDE_PASS:
        inspect__text_sentence(t, "%s did not ride the worm.", who);
        return;
    case ENGINE_ACTION_CHARITY_CLAIM:
        inspect__text_sentence(t, "%s claimed CHOAM Charity.", who);
        return;
    case ENGINE_ACTION_CHARITY_DECLINE:
        inspect__text_sentence(t, "%s declined CHOAM Charity.", who);
        return;
    case ENGINE_ACTION_ALLY_SUPPORT:
        inspect__text_sentence(t, "%s let %s ally bid with up to %d spice.", who,
                               x->seat == b->viewer ? "your" : "their", x->arg[0]);
        return;
    case ENGINE_ACTION_BID:
        inspect__text_sentence(t, "%s bid %d spice%s.", who, x->arg[0],
                               x->arg[1] == 1 ? " with a Karama card" : "");
        return;
    case ENGINE_ACTION_BID_PASS:
        inspect__text_sentence(t, "%s passed.", who);
        return;
    case ENGINE_ACTION_KARAMA_TAKE:
        inspect__text_sentence(t, "%s played a Karama card to take the card up for bid.", who);
        return;
    case ENGINE_ACTION_EMPEROR_REVIVAL:
        inspect__text_sentence(t, "%s paid for %d extra revival%s for %s ally.", who, x->arg[0],
                               x->arg[0] == 1 ? "" : "s",
                               x->seat == b->viewer ? "your" : "their");
        return;
    case ENGINE_ACTION_REVIVE:
    case ENGINE_ACTION_GHOLA: {
        int elite = x->kind == ENGINE_ACTION_REVIVE ? x->arg[1] : 0;
        int leader = x->kind == ENGINE_ACTION_REVIVE ? x->arg[2] : x->arg[1];
        forces_text(w1, sizeof w1, b, x->seat, x->arg[0], elite);
        inspect__text_sentence(t, "%s %s %s", who,
                               x->kind == ENGINE_ACTION_GHOLA ? "played a Tleilaxu Ghola, reviving"
                                                              : "revived", w1);
        if (leader >= 0)
            inspect__text_add(t, " and %s", inspect__leader((unsigned)leader));
        inspect__text_add(t, ".");
        return;
    }
    case ENGINE_ACTION_SHIP:
        loc_text(w1, sizeof w1, x->arg[0]);
        forces_text(w2, sizeof w2, b, x->seat, x->arg[1], x->arg[2]);
        inspect__text_sentence(t, "%s shipped %s to %s%s.", who, w2, w1,
                               x->arg[3] == 1 ? " with a Karama card" : "");
        return;
    case ENGINE_ACTION_FREMEN_SEND:
        loc_text(w1, sizeof w1, x->arg[0]);
        forces_text(w2, sizeof w2, b, x->seat, x->arg[1], x->arg[2]);
        inspect__text_sentence(t, "%s sent %s to %s.", who, w2, w1);
        return;
    case ENGINE_ACTION_CROSS_SHIP:
        loc_text(w1, sizeof w1, x->arg[0]);
        loc_text(w3, sizeof w3, x->arg[1]);
        forces_text(w2, sizeof w2, b, x->seat, x->arg[2], x->arg[3]);
        inspect__text_sentence(t, "%s shipped %s from %s to %s.", who, w2, w1, w3);
        return;
    case ENGINE_ACTION_SHIP_BACK:
        loc_text(w1, sizeof w1, x->arg[0]);
        forces_text(w2, sizeof w2, b, x->seat, x->arg[1], x->arg[2]);
        inspect__text_sentence(t, "%s shipped %s from %s back to reserves.", who, w2, w1);
        return;
    case ENGINE_ACTION_SHIP_PASS:
        inspect__text_sentence(t, "%s did not ship.", who);
        return;
    case ENGINE_ACTION_BG_SEND:
        if (x->arg[0] == 1)
            inspect__text_sentence(t, "%s sent a force to the Polar Sink.", who);
        else
            inspect__text_sentence(t, "%s sent no force to the Polar Sink.", who);
        return;
    case ENGINE_ACTION_MOVE:
    case ENGINE_ACTION_HAJR_MOVE:
        loc_text(w1, sizeof w1, x->arg[1]);
        forces_text(w2, sizeof w2, b, x->seat, x->arg[2], x->arg[3]);
        if (x->arg[4] != 0) /* the source named (rules version 4) */
            loc_text(w3, sizeof w3, x->arg[4]);
        else
            snprintf(w3, sizeof w3, "%s", inspect__territory((unsigned)x->arg[0]));
        inspect__text_sentence(t, "%s moved %s from %s to %s%s.", who, w2, w3, w1,
                               x->kind == ENGINE_ACTION_HAJR_MOVE ? " with a Hajr card" : "");
        return;
    case ENGINE_ACTION_MOVE_PASS:
        /* after its own move a seat is asked only whether to play Hajr
         * (rules version 3 on: has_moved) */
        if (b->has_moved)
            inspect__text_sentence(t, "%s made no further move.", who);
        else
            inspect__text_sentence(t, "%s did not move.", who);
        return;
    case ENGINE_ACTION_BATTLE_CHOOSE: {
        int d = inspect__seat_of(b, (unsigned)x->arg[1]);
        inspect__text_sentence(t, "%s chose to fight %s in %s.", who,
                               d >= 0 ? inspect__who(b, (uint8_t)d) : "?",
                               inspect__territory((unsigned)x->arg[0]));
        return;
    }
    case ENGINE_ACTION_PRESCIENCE:
        inspect__text_sentence(t, "%s used prescience to see the opponent's %s.", who,
                               element_name(x->arg[0]));
        return;
    case ENGINE_ACTION_PRESCIENCE_PASS:
        inspect__text_sentence(t, "%s did not use prescience.", who);
        return;
    case ENGINE_ACTION_PRESCIENCE_ANSWER: {
        /* The answer, when the viewer may know it: its own action, or the
         * value its after-view shows (the Atreides side; the masked action
         * carries it, inspect_log_describe). A card is named from the
         * after-view, which shows its face to the side that asked. */
        int v = x->arg[0];
        if (hidden(x, 0)) {
            inspect__text_sentence(t, "%s answered the prescience question.", who);
            return;
        }
        switch (engine_battle_prescience(b)) {
        case ENGINE_PRESCIENCE_LEADER:
            if (v == ENGINE_PRESCIENCE_CHEAP_HERO)
                snprintf(w1, sizeof w1, "a cheap hero as leader");
            else
                plan_leader(w1, sizeof w1, b, v, -1);
            break;
        case ENGINE_PRESCIENCE_WEAPON:
        case ENGINE_PRESCIENCE_DEFENSE:
            snprintf(w1, sizeof w1, "%s",
                     v < 0 ? (engine_battle_prescience(b) == ENGINE_PRESCIENCE_WEAPON ? "no weapon"
                                                                             : "no defense")
                           : card_words(c->a, v, w3, sizeof w3));
            break;
        default:
            /* The Advanced dial (asked from rules version 7 on): the
             * forces' strength in half points and their spice support. */
            if (engine_is_advanced(b))
                snprintf(w1, sizeof w1, "forces of strength %d%s with %d spice in support",
                         v / 2, v % 2 ? ".5" : "", x->arg[1] > 0 ? x->arg[1] - 1 : 0);
            else
                snprintf(w1, sizeof w1, "a dial of %d", v);
            break;
        }
        inspect__text_sentence(t, "%s answered the prescience question: %s.", who, w1);
        return;
    }
    case ENGINE_ACTION_VOICE:
        inspect__text_sentence(t, "%s used the Voice: the opponent %s play %s.", who,
                               x->arg[0] == 1 ? "must" : "must not", voice_class_name(x->arg[1]));
        return;
    case ENGINE_ACTION_VOICE_PASS:
        inspect__text_sentence(t, "%s did not use the Voice.", who);
        return;
    case ENGINE_ACTION_KARAMA_CANCEL: {
        const char *what = engine_advantage_name((unsigned)x->arg[0]);
        inspect__text_sentence(t, "%s cancelled %s with a Karama card.", who, what ? what : "it");
        return;
    }
    case ENGINE_ACTION_KARAMA_ALLOW: {
        /* what was let stand: the advantages of the window open before */
        const engine_frame *k = engine_window_find(b, ENGINE_WINDOW_KARAMA);
        size_t n = 0;
        w1[0] = '\0';
        for (unsigned a = 1; k != NULL && a < ENGINE_ADVANTAGE_COUNT && n < sizeof w1; a++) {
            const char *name = engine_advantage_name(a);
            if ((k->rows & ENGINE_ADVANTAGE_BIT(a)) && name != NULL)
                n += (size_t)snprintf(w1 + n, sizeof w1 - n, "%s%s", n != 0 ? " and " : "",
                                      name);
        }
        if (w1[0] == '\0') {
            inspect__text_sentence(t, "%s let it stand.", who);
        } else {
            if (k->owner == b->viewer)
                snprintf(w2, sizeof w2, "your");
            else
                snprintf(w2, sizeof w2, "%s's", inspect__seat_title(b, k->owner));
            inspect__text_sentence(t, "%s let %s %s stand.", who, w2,
                                   w1);
        }
        return;
    }
    case ENGINE_ACTION_BATTLE_PLAN:
        if (hidden(x, 0)) {
            inspect__text_sentence(t, "%s committed a battle plan.", who);
            return;
        }
        inspect__text_sentence(t, "%s committed a battle plan: ", who);
        int16_t arg[ENGINE_ACTION_MAX_ARGS];
        memcpy(arg, x->arg, sizeof arg);
        for (unsigned i = 5; i < ENGINE_ACTION_MAX_ARGS; i++)
            arg[i] = (int16_t)(arg[i] ? arg[i] - 1 : 0); /* held as n + 1 */
        plan_words(t, b, arg);
        inspect__text_add(t, ".");
        return;
    case ENGINE_ACTION_TRAITOR_CALL:
        if (x->arg[0] == 1)
            inspect__text_sentence(t, "%s called traitor!", who);
        else
            inspect__text_sentence(t, "%s called no traitor.", who);
        return;
    case ENGINE_ACTION_KEEP_CARDS:
        inspect__text_sentence(t, "%s %s the weapon and %s the defense.", who,
                               x->arg[0] == 1 ? "kept" : "discarded",
                               x->arg[1] == 1 ? "kept" : "discarded");
        return;
    case ENGINE_ACTION_WEATHER_CONTROL:
        inspect__text_sentence(t, "%s played Weather Control: the storm moves %d sector%s.", who,
                               x->arg[0], x->arg[0] == 1 ? "" : "s");
        return;
    case ENGINE_ACTION_FAMILY_ATOMICS:
        inspect__text_sentence(t, "%s played Family Atomics: the Shield Wall is destroyed.", who);
        return;
    case ENGINE_ACTION_STORM_CARDS_PASS:
        inspect__text_sentence(t, "%s played no storm card.", who);
        return;
    case ENGINE_ACTION_TRUTHTRANCE:
        inspect__text_sentence(t, "%s played Truthtrance, asking %s a question.", who,
                               inspect_faction_title((unsigned)x->arg[0]));
        return;
    case ENGINE_ACTION_TRUTHTRANCE_ANSWER:
        inspect__text_sentence(t, "%s answered %s.", who, x->arg[0] == 1 ? "yes" : "no");
        return;
    case ENGINE_ACTION_SHIP_KARAMA_FROM:
        /* Shipment: paid for with another seat's Karama, if it has one and
         * pays (LR 3.01.11.03); asking names no card. */
        loc_text(w1, sizeof w1, x->arg[0]);
        forces_text(w2, sizeof w2, b, x->seat, x->arg[1], x->arg[2]);
        inspect__text_sentence(t, "%s asked %s to buy the shipment of %s to %s at the Guild rate.",
                               who, inspect_faction_title((unsigned)x->arg[3]), w2, w1);
        return;
    case ENGINE_ACTION_SHIP_KARAMA_ANSWER:
        inspect__text_sentence(t, "%s %s.", who,
                               x->arg[0] == 1 ? "paid for the shipment with a Karama card"
                                              : "declined to pay for the shipment");
        return;
    case ENGINE_ACTION_FREMEN_PROTECT_ALLY:
        /* Rules version 3: the Fremen decide for their ally (LR 2.04.10). */
        inspect__text_sentence(t, "%s %s their ally from the worm.", who,
                               x->arg[0] == 1 ? "protected" : "did not protect");
        return;
    case ENGINE_ACTION_FREMEN_ALLY_REVIVAL:
        /* Rules version 3: at the Fremen's discretion (LR 2.04.11). */
        inspect__text_sentence(t, "%s %s their ally 3 free revivals.", who,
                               x->arg[0] == 1 ? "gave" : "did not give");
        return;
    case ENGINE_ACTION_KARAMA_POLICY: {
        /* Rules version 3: a public standing policy (docs/ARCHITECTURE.md
         * "Responses"); it says nothing of the seat's hand. */
        uint32_t ask, own;
        engine_karama_policy_masks(&ask, &own, x);
        uint32_t offered = engine_karama_offered(c->b);
        unsigned n_ask = 0, n_own = 0, n_offered = 0;
        for (unsigned a = 1; a < ENGINE_ADVANTAGE_COUNT; a++) {
            n_ask += (ask >> a) & 1u;
            n_own += (own >> a & 1u) & !(ask >> a & 1u);
            n_offered += (offered >> a) & 1u;
        }
        inspect__text_sentence(t, "%s will be asked in windows of %u of the %u advantages, "
                               "and of %u more in its own battles.", who, n_ask, n_offered,
                               n_own);
        return;
    }
    case ENGINE_ACTION_NEXUS_DRAW: {
        /* Nexus Cards: the draw opportunity (E3 p.11); whether the seat
         * holds a card is public, its policy its own. */
        static const char *const policy[ENGINE_NEXUS_POLICY_COUNT] = {
            "keeping their own faction's card", "redrawing their own faction's card once",
            "redrawing their own faction's card whenever it comes"};
        int holds = engine_nexus_held(b, x->seat) >= 0;
        const char *what = x->arg[0] != 1 ? (holds ? "kept their Nexus card" : "declined a Nexus card")
                                          : (holds ? "will replace their Nexus card"
                                                   : "will draw a Nexus card");
        if (x->arg[0] == 1 && !hidden(x, 1) && x->arg[1] >= 0 &&
            x->arg[1] < ENGINE_NEXUS_POLICY_COUNT)
            inspect__text_sentence(t, "%s %s, %s.", who, what, policy[x->arg[1]]);
        else
            inspect__text_sentence(t, "%s %s.", who, what);
        return;
    }
    case ENGINE_ACTION_POWER:
    case ENGINE_ACTION_ANSWER:
        /* Rules versions 5 and 6: a generic power or window answer, told
         * from its row's form. */
        generic_text(t, who, x);
        return;
    case ENGINE_ACTION_NONE:
    case ENGINE_ACTION_KIND_COUNT:
        break;
    }
    inspect__text_sentence(t, "%s acted.", who);
}

/* ======================================================= what followed */

static int plans_committed(const engine_state *v)
{
    return v->phase == ENGINE_PHASE_BATTLE && v->plan[0].is_committed &&
           v->plan[1].is_committed;
}

/* The plans were revealed by this event: the last plan came in. */
static void plans_revealed(const line_ctx *c)
{
    const engine_state *a = c->a;
    if (c->act->kind != ENGINE_ACTION_BATTLE_PLAN || !plans_committed(a))
        return;
    inspect__text_sentence(c->t, "Battle plans revealed in %s: ",
                           inspect__territory(a->battle_territory));
    for (unsigned i = 0; i < 2; i++) {
        int16_t arg[ENGINE_ACTION_MAX_ARGS];
        plan_args(arg, &a->plan[i]);
        inspect__text_add(c->t, "%s%s: ", i ? "; " : "", inspect__who(a, a->battle_seat[i]));
        plan_words(c->t, a, arg);
        unsigned support = engine_plan_support(a, i);
        if (support)
            inspect__text_add(c->t, ", %u spice in support", support);
    }
    inspect__text_add(c->t, ".");
}

static int card_is(const engine_state *v, int card, unsigned kind)
{
    return card >= 0 && card < ENGINE_TREACHERY_MAX && v->card_kind[card] == kind;
}

/* The side (0 aggressor, 1 defender) a traitor call by `seat` serves. */
static int caller_side(const engine_state *v, uint8_t seat)
{
    for (unsigned i = 0; i < 2; i++)
        if (v->battle_seat[i] == seat)
            return (int)i;
    for (unsigned i = 0; i < 2; i++)
        if (v->battle_seat[i] < v->config.n_seats && v->ally[v->battle_seat[i]] == seat)
            return (int)i;
    return -1;
}

/* The battle of the before-view was resolved by this event: who won, from
 * the revealed plans (public in both views from the reveal on). */
static void battle_result(const line_ctx *c)
{
    const engine_state *b = c->b, *a = c->a;
    /* From rules version 7 a traitor call the neutral Nexus window held is
     * resolved by the answer closing it: as called, or, a panel spent
     * there, as not called. */
    const engine_action *call = c->act;
    const engine_frame *f = engine_nexus_window(b);
    engine_action no_call;
    if (call->kind == ENGINE_ACTION_ANSWER && f != NULL &&
        f->held.kind == ENGINE_ACTION_TRAITOR_CALL) {
        call = &f->held;
        if (a->n_nexus_discard > b->n_nexus_discard) {
            no_call = *call;
            no_call.arg[0] = 0;
            call = &no_call;
        }
    }
    if (call->kind != ENGINE_ACTION_TRAITOR_CALL || !plans_committed(b))
        return;
    int resolved = a->phase != ENGINE_PHASE_BATTLE || a->battle_winner != 0xFF ||
                   !plans_committed(a) || a->battle_territory != b->battle_territory;
    if (!resolved)
        return;
    const char *where = inspect__territory(b->battle_territory);
    unsigned called = b->traitor_called;
    int side = caller_side(b, call->seat);
    if (call->arg[0] == 1 && side >= 0)
        called |= 1u << side;
    if (called == 3) {
        inspect__text_sentence(c->t, "Both leaders were traitors: both sides lost everything "
                                     "in %s.", where);
        return;
    }
    int win;
    if (called != 0) {
        win = called == 1 ? 0 : 1;
    } else {
        const engine_battle_plan *p = b->plan;
        int lasgun = card_is(b, p[0].weapon, ENGINE_CARD_LASGUN) ||
                     card_is(b, p[1].weapon, ENGINE_CARD_LASGUN);
        int shield = 0;
        for (unsigned i = 0; i < 2; i++)
            shield |= card_is(b, p[i].defense, ENGINE_CARD_SHIELD) ||
                      card_is(b, p[i].weapon, ENGINE_CARD_SHIELD);
        if (lasgun && shield) {
            inspect__text_sentence(c->t, "Lasgun and shield exploded: everything in %s was "
                                         "lost.", where);
            return;
        }
        if (a->phase == ENGINE_PHASE_BATTLE && a->battle_winner <= 1 &&
            a->battle_territory == b->battle_territory) {
            win = a->battle_winner;
        } else {
            /* Dial plus a surviving leader's strength, in half points (the
             * Advanced forces at half strength); the aggressor wins ties
             * (LR 1.07.06). A leader killed is in the Tanks after. */
            unsigned total[2];
            for (unsigned i = 0; i < 2; i++) {
                int l = p[i].leader;
                int alive = l >= 0 && a->leader[l].place != ENGINE_PLACE_TANKS;
                total[i] = engine_plan_forces_strength2(b, i) +
                           (alive ? 2u * engine_leader_strength((unsigned)l) : 0u);
            }
            win = total[0] >= total[1] ? 0 : 1;
        }
    }
    inspect__text_sentence(c->t, "%s won the battle in %s against %s.",
                           inspect__who(b, b->battle_seat[win]), where,
                           inspect__who(b, b->battle_seat[1 - win]));
}

/* Did the storm move during this fold? */
static int storm_moved(const engine_state *b, const engine_state *a)
{
    if (a->storm_sector != b->storm_sector)
        return 1;
    if (b->phase == ENGINE_PHASE_STORM && a->phase != ENGINE_PHASE_STORM)
        return 1;
    return a->turn > b->turn && a->phase > ENGINE_PHASE_STORM;
}

static void storm(const line_ctx *c)
{
    if (!storm_moved(c->b, c->a))
        return;
    unsigned m = c->a->last_storm_move;
    inspect__text_sentence(c->t, "The storm moved %u sector%s to sector %u.", m,
                           m == 1 ? "" : "s", c->a->storm_sector);
}

/* Spice cards turned up by this fold onto one discard pile: the entries
 * of the after-view's pile (acards, na) that the before-view's (bcards,
 * nb) did not hold (is_pile_a: the Basic pile, or the Advanced pile A).
 * In the Advanced game a worm straight on a worm is a
 * pile's further one, which the Fremen may place (LR 2.04.15): its strike
 * is told by the placement, not here. */
static void pile_blow(const line_ctx *c, const uint8_t *bcards, unsigned nb,
                      const uint8_t *acards, unsigned na, int is_pile_a)
{
    const engine_state *b = c->b, *a = c->a;
    unsigned from = 0;
    if (na >= nb && memcmp(acards, bcards, nb) == 0)
        from = nb;
    /* An Advanced reshuffle keeps pile A's topmost territory card and what
     * lies on it, at the bottom now (LR 1.13.03): those are not new. */
    for (unsigned k = nb < na ? nb : na; from == 0 && is_pile_a && a->config.is_advanced && k > 0;
         k--)
        if (memcmp(acards, bcards + (nb - k), k) == 0)
            from = k;
    for (unsigned i = from; i < na && i < ENGINE_SPICE_CARD_MAX; i++) {
        int is_worm;
        unsigned territory;
        const char *name = inspect__spice_card_name(acards[i], &is_worm, &territory);
        if (is_worm) {
            int w = 0;
            unsigned tt;
            if (a->config.is_advanced && i > 0)
                inspect__spice_card_name(acards[i - 1], &w, &tt);
            if (w) {
                inspect__text_sentence(c->t, "Shai-Hulud appeared again.");
                continue;
            }
            /* Shai-Hulud strikes the territory of the topmost territory
             * card under it (LR 1.02.05). */
            unsigned struck = ENGINE_TERRITORY_COUNT;
            for (unsigned k = i; k-- > 0;) {
                inspect__spice_card_name(acards[k], &w, &tt);
                if (!w) {
                    struck = tt;
                    break;
                }
            }
            if (struck < ENGINE_TERRITORY_COUNT)
                inspect__text_sentence(c->t, "Shai-Hulud! A worm struck %s.",
                                       inspect__territory(struck));
            else
                inspect__text_sentence(c->t, "Shai-Hulud appeared.");
            continue;
        }
        int before = 0, after = 0;
        for (unsigned loc = 0; loc < ENGINE_LOCATION_COUNT; loc++)
            if (engine_location_territory(loc) == territory) {
                before += b->spice[loc];
                after += a->spice[loc];
            }
        if (after > before)
            inspect__text_sentence(c->t, "Spice blow: %d spice in %s.", after - before, name);
        else
            inspect__text_sentence(c->t, "Spice blow: %s, but the storm is there: no spice.",
                                   name);
    }
}

/* Spice cards turned up by this fold: onto the discard pile, in the
 * Advanced double blow pile A then pile B. */
static void spice_blow(const line_ctx *c)
{
    const engine_state *b = c->b, *a = c->a;
    pile_blow(c, b->spice_discard, b->n_spice_discard, a->spice_discard, a->n_spice_discard, 1);
    pile_blow(c, b->spice_discard_b, b->n_spice_discard_b, a->spice_discard_b,
              a->n_spice_discard_b, 0);
}

/* "a Lasgun", "an Ellaca Drug". */
static const char *article(const char *name)
{
    return strchr("AEIOU", name[0]) != NULL ? "an" : "a";
}

/* Cards changing places, as the viewer sees them: sales first, then cards
 * drawn (per seat, faces the viewer knows named), then the rest. */
static void cards(const line_ctx *c)
{
    const engine_state *b = c->b, *a = c->a;
    unsigned n = a->n_cards < ENGINE_TREACHERY_MAX ? a->n_cards : ENGINE_TREACHERY_MAX;
    char buf[48];
    /* Bidding: the card up was sold (LR 1.04.05). */
    for (unsigned k = 0; k < n; k++) {
        const engine_card_state *x = &b->card[k], *y = &a->card[k];
        if (x->place != ENGINE_PLACE_AUCTION || y->place != ENGINE_PLACE_HAND ||
            y->holder >= a->config.n_seats)
            continue;
        const char *who = inspect__who(a, y->holder);
        const char *what = card_words(a, (int)k, buf, sizeof buf);
        if (c->act->kind == ENGINE_ACTION_KARAMA_TAKE)
            inspect__text_sentence(c->t, "%s took %s for free.", who, what);
        else if (b->high_bid_karama != 0xFF)
            inspect__text_sentence(c->t, "%s bought %s with a Karama card, for free.", who, what);
        else
            inspect__text_sentence(c->t, "%s bought %s for %u spice.", who, what,
                                   c->act->kind == ENGINE_ACTION_BID && c->act->arg[0] > 0
                                       ? (unsigned)c->act->arg[0] : b->high_bid);
    }
    /* Cards drawn from the deck into hands. */
    for (uint8_t s = 0; s < a->config.n_seats && s < ENGINE_MAX_SEATS; s++) {
        unsigned n_drawn = 0, n_named = 0;
        for (unsigned k = 0; k < n; k++)
            if (b->card[k].place == ENGINE_PLACE_DECK && a->card[k].place == ENGINE_PLACE_HAND &&
                a->card[k].holder == s) {
                n_drawn++;
                n_named += inspect__card_face(a, (int)k) != NULL;
            }
        if (n_drawn == 0)
            continue;
        inspect__text_sentence(c->t, "%s drew ", inspect__who(a, s));
        unsigned i = 0;
        for (unsigned k = 0; k < n; k++) {
            const char *face = inspect__card_face(a, (int)k);
            if (face == NULL || b->card[k].place != ENGINE_PLACE_DECK ||
                a->card[k].place != ENGINE_PLACE_HAND || a->card[k].holder != s)
                continue;
            i++;
            inspect__text_add(c->t, "%s%s %s",
                              i == 1 ? "" : i == n_drawn ? " and " : ", ", article(face), face);
        }
        if (n_drawn - n_named == 1)
            inspect__text_add(c->t, "%sa card", n_named ? " and " : "");
        else if (n_named < n_drawn)
            inspect__text_add(c->t, "%s%u cards", n_named ? " and " : "", n_drawn - n_named);
        inspect__text_add(c->t, ".");
    }
    unsigned n_up = 0, n_back = 0;
    for (unsigned k = 0; k < n; k++) {
        const engine_card_state *x = &b->card[k], *y = &a->card[k];
        if (x->place == y->place && x->holder == y->holder)
            continue;
        if (y->place == ENGINE_PLACE_HAND && y->holder < a->config.n_seats) {
            const char *who = inspect__who(a, y->holder);
            const char *what = card_words(a, (int)k, buf, sizeof buf);
            if (x->place == ENGINE_PLACE_PLAYED)
                inspect__text_sentence(c->t, "%s kept %s.", who, what);
            else if (x->place == ENGINE_PLACE_HAND && x->holder < a->config.n_seats)
                inspect__text_sentence(c->t, "%s took %s from %s.", who, what,
                                       inspect__who(a, x->holder));
            else if (x->place != ENGINE_PLACE_AUCTION && x->place != ENGINE_PLACE_DECK)
                inspect__text_sentence(c->t, "%s got %s.", who, what);
            continue;
        }
        if (y->place == ENGINE_PLACE_DISCARD && x->place != ENGINE_PLACE_DISCARD) {
            const char *face = inspect__card_face(a, (int)k);
            if (x->place == ENGINE_PLACE_HAND && x->holder < a->config.n_seats)
                inspect__text_sentence(c->t, "%s discarded %s %s.", inspect__who(a, x->holder),
                                       face ? article(face) : "a", face ? face : "card");
            else
                inspect__text_sentence(c->t, "%s %s went to the discard pile.",
                                       face ? article(face) : "a", face ? face : "card");
            continue;
        }
        if (y->place == ENGINE_PLACE_AUCTION)
            n_up++;
        else if (x->place == ENGINE_PLACE_AUCTION && y->place == ENGINE_PLACE_DECK)
            n_back++;
    }
    if (n_up != 0)
        inspect__text_sentence(c->t, "%u card%s drawn for bidding.", n_up,
                               n_up == 1 ? " was" : "s were");
    if (n_back != 0)
        inspect__text_sentence(c->t, "%u unsold card%s went back on the deck.", n_back,
                               n_back == 1 ? "" : "s");
    /* The card up for bid, as the viewer knows it (the Atreides see it). */
    if (a->phase == ENGINE_PHASE_BIDDING && a->n_auction != 0 &&
        a->auction_index < a->n_auction &&
        (b->phase != ENGINE_PHASE_BIDDING || b->auction_index != a->auction_index ||
         b->n_auction != a->n_auction)) {
        const char *face = inspect__card_face(a, a->auction[a->auction_index]);
        if (face != NULL)
            inspect__text_sentence(c->t, "Card %u of %u up for bid: %s %s.",
                                   a->auction_index + 1u, a->n_auction, article(face), face);
        else
            inspect__text_sentence(c->t, "Card %u of %u is up for bid.", a->auction_index + 1u,
                                   a->n_auction);
    }
}

/* Forces that went to the Tanks, per seat and territory. */
static void losses(const line_ctx *c)
{
    const engine_state *b = c->b, *a = c->a;
    char w[96];
    for (uint8_t s = 0; s < a->config.n_seats && s < ENGINE_MAX_SEATS; s++) {
        int plain = a->seat[s].tanks - b->seat[s].tanks;
        int elite = a->seat[s].special_tanks - b->seat[s].special_tanks;
        if (plain <= 0 && elite <= 0)
            continue;
        forces_text(w, sizeof w, a, s, plain > 0 ? plain : 0, elite > 0 ? elite : 0);
        inspect__text_sentence(c->t, "%s lost %s to the Tanks", inspect__who(a, s), w);
        unsigned n = 0;
        for (unsigned t = 0; t < ENGINE_TERRITORY_COUNT; t++) {
            unsigned x = inspect__territory_forces(b, t, s), y = inspect__territory_forces(a, t, s);
            int advisors = 0;
            for (unsigned loc = 0; loc < ENGINE_LOCATION_COUNT; loc++)
                if (engine_location_territory(loc) == t &&
                    a->config.faction[s] == ENGINE_FACTION_BENE_GESSERIT)
                    advisors += b->advisors[loc] - a->advisors[loc];
            if (y < x || advisors > 0)
                inspect__text_add(c->t, "%s %s", n++ ? "," : " from", inspect__territory(t));
        }
        inspect__text_add(c->t, ".");
    }
}

/* The Bene Gesserit's tokens that changed side where they stand (the
 * Advanced game's flips: INTRUSION, WARTIME, UNIVERSAL STEWARDS), per
 * territory: public, as the token is turned on the board. */
static void flips(const line_ctx *c)
{
    const engine_state *b = c->b, *a = c->a;
    for (uint8_t s = 0; s < a->config.n_seats && s < ENGINE_MAX_SEATS; s++) {
        if (a->config.faction[s] != ENGINE_FACTION_BENE_GESSERIT)
            continue;
        for (unsigned t = 0; t < ENGINE_TERRITORY_COUNT; t++) {
            int fighters = (int)inspect__territory_forces(a, t, s) -
                           (int)inspect__territory_forces(b, t, s);
            int advisors = 0;
            for (unsigned loc = 0; loc < ENGINE_LOCATION_COUNT; loc++)
                if (engine_location_territory(loc) == t)
                    advisors += a->advisors[loc] - b->advisors[loc];
            int n = fighters < 0 && advisors > 0   ? (-fighters < advisors ? -fighters : advisors)
                    : fighters > 0 && advisors < 0 ? (fighters < -advisors ? fighters : -advisors)
                                                   : 0;
            const char *from = fighters < 0 ? "fighter" : "advisor";
            const char *to = fighters < 0 ? "advisor" : "fighter";
            if (n != 0)
                inspect__text_sentence(c->t, "%s: %d %s%s became %s%s in %s.", inspect__who(a, s),
                                       n, from, n > 1 ? "s" : "", to, n > 1 ? "s" : "",
                                       inspect__territory(t));
        }
    }
}

/* Spice behind each shield that changed, in one sentence. */
static void seat_spice(const line_ctx *c)
{
    const engine_state *b = c->b, *a = c->a;
    unsigned n = 0;
    for (uint8_t s = 0; s < a->config.n_seats && s < ENGINE_MAX_SEATS; s++) {
        int d = a->seat[s].spice - b->seat[s].spice;
        if (d == 0)
            continue;
        if (n++ == 0)
            inspect__text_sentence(c->t, "Spice: ");
        else
            inspect__text_add(c->t, ", ");
        inspect__text_add(c->t, "%s %+d (now %u)", inspect__who(a, s), d, a->seat[s].spice);
    }
    if (n != 0)
        inspect__text_add(c->t, ".");
}

/* Advanced (rules version 8): the leader drawn for the Harkonnen's
 * decision, the captives taken, and those gone home (all public). */
static void captives(const line_ctx *c)
{
    const engine_state *b = c->b, *a = c->a;
    if (a->capture_leader != 0 && a->capture_leader != b->capture_leader) {
        unsigned l = a->capture_leader - 1u;
        int h = engine_leader_holder(a, l);
        inspect__text_sentence(c->t, "%s drawn from the %s leaders: %s may capture or kill.",
                               inspect__leader(l), inspect_faction_title(engine_leader_faction(l)),
                               a->battle_winner <= 1
                                   ? inspect__who(a, a->battle_seat[a->battle_winner])
                                   : (h >= 0 ? inspect__who(a, (uint8_t)h) : "the winner"));
    }
    for (unsigned l = 0; l < ENGINE_LEADER_COUNT; l++) {
        uint64_t bit = (uint64_t)1u << l;
        int h = engine_leader_holder(a, l);
        if ((a->captives & bit) && !(b->captives & bit) && h >= 0)
            inspect__text_sentence(c->t, "%s captured %s (taken from the %s).",
                                   inspect__who(a, (uint8_t)h), inspect__leader(l),
                                   inspect_faction_title(engine_leader_faction(l)));
        else if ((b->captives & bit) && !(a->captives & bit) && h >= 0)
            inspect__text_sentence(c->t, "%s went back to the %s pool.", inspect__leader(l),
                                   inspect_faction_title(engine_leader_faction(l)));
    }
    if (b->capture_leader != 0 && a->capture_leader == 0) {
        unsigned l = b->capture_leader - 1u;
        if (a->leader[l].place == ENGINE_PLACE_POOL && !(a->captives & ((uint64_t)1u << l)))
            inspect__text_sentence(c->t, "%s stays in the %s pool.", inspect__leader(l),
                                   inspect_faction_title(engine_leader_faction(l)));
    }
}

static void leaders(const line_ctx *c)
{
    const engine_state *b = c->b, *a = c->a;
    for (unsigned l = 0; l < ENGINE_LEADER_COUNT; l++) {
        unsigned x = b->leader[l].place, y = a->leader[l].place;
        if (x == y)
            continue;
        if (y == ENGINE_PLACE_TANKS)
            inspect__text_sentence(c->t, "%s (%s) was killed.", inspect__leader(l),
                                   inspect_faction_title(engine_leader_faction(l)));
        else if (x == ENGINE_PLACE_TANKS && y == ENGINE_PLACE_POOL)
            inspect__text_sentence(c->t, "%s (%s) was revived.", inspect__leader(l),
                                   inspect_faction_title(engine_leader_faction(l)));
    }
    captives(c);
}

static void alliances(const line_ctx *c)
{
    const engine_state *b = c->b, *a = c->a;
    for (uint8_t s = 0; s < a->config.n_seats && s < ENGINE_MAX_SEATS; s++) {
        uint8_t x = b->ally[s], y = a->ally[s];
        if (x == y)
            continue;
        if (y < a->config.n_seats && y > s)
            inspect__text_sentence(c->t, "%s and %s are now allies.", inspect__who(a, s),
                                   inspect__who(a, y));
        else if (y >= a->config.n_seats && x < a->config.n_seats && x > s)
            inspect__text_sentence(c->t, "The alliance of %s and %s is broken.",
                                   inspect__who(a, s), inspect__who(a, x));
    }
}

/* Nexus Cards: who drew (its face for the one who knows it) and who
 * discarded on joining an alliance; never which card another holds. */
static void nexus_cards(const line_ctx *c)
{
    const engine_state *b = c->b, *a = c->a;
    if (!(a->config.modules & ENGINE_MODULE_NEXUS_CARDS))
        return;
    int was_open = b->phase == ENGINE_PHASE_SPICE_BLOW && b->step == ENGINE_BLOW_STEP_NEXUS_DRAW;
    int dealt = was_open && !(a->phase == b->phase && a->step == b->step);
    uint16_t drawing = b->nexus_drawing;
    if (c->act->kind == ENGINE_ACTION_NEXUS_DRAW && c->act->arg[0] == 1 &&
        c->act->seat < ENGINE_MAX_SEATS)
        drawing |= (uint16_t)(1u << c->act->seat);
    for (uint8_t s = 0; s < a->config.n_seats && s < ENGINE_MAX_SEATS; s++) {
        int hb = engine_nexus_held(b, s), ha = engine_nexus_held(a, s);
        if (dealt && ((unsigned)drawing >> s & 1u) && ha >= 0) {
            if (a->nexus_face[ha] < ENGINE_NEXUS_CARD_COUNT)
                inspect__text_sentence(c->t, "%s drew the %s Nexus card.", inspect__who(a, s),
                                       inspect_faction_title(a->nexus_face[ha]));
            else
                inspect__text_sentence(c->t, "%s drew a Nexus card.", inspect__who(a, s));
        } else if (hb >= 0 && ha < 0) {
            inspect__text_sentence(c->t, "%s discarded their Nexus card.", inspect__who(a, s));
        }
    }
}

static void traitors_revealed(const line_ctx *c)
{
    const engine_state *b = c->b, *a = c->a;
    for (unsigned l = 0; l < ENGINE_LEADER_COUNT; l++) {
        const engine_card_state *x = &b->traitor[l], *y = &a->traitor[l];
        if (!(y->known_by & ENGINE_KNOWN_PUBLIC) || (x->known_by & ENGINE_KNOWN_PUBLIC))
            continue;
        if (y->place == ENGINE_PLACE_HAND && y->holder < a->config.n_seats)
            inspect__text_sentence(c->t, "%s revealed %s as a traitor.",
                                   inspect__who(a, y->holder), inspect__leader(l));
    }
}

static void phase_and_end(const line_ctx *c)
{
    const engine_state *b = c->b, *a = c->a;
    if (a->phase == ENGINE_PHASE_GAME_OVER && b->phase != ENGINE_PHASE_GAME_OVER) {
        inspect__text_sentence(c->t, "The game is over: ");
        seats_words(c->t, a, a->winners);
        inspect__text_add(c->t, " won %s.", victory_words(a->victory_kind));
        if (a->prediction_turn != 0 && b->prediction_turn == 0)
            inspect__text_sentence(c->t, "The Bene Gesserit had predicted that %s would win on "
                                         "turn %u.",
                                   inspect_faction_title(a->prediction_faction),
                                   a->prediction_turn);
        return;
    }
    if (a->turn != b->turn)
        inspect__text_sentence(c->t, "Turn %u: now %s.", a->turn, phase_title(a->phase));
    else if (a->phase != b->phase)
        inspect__text_sentence(c->t, "Now %s.", phase_title(a->phase));
}

/* ========================================================== one line */

void inspect_log_describe(inspect_log_line *out, const engine_state *before_view,
                          const engine_state *after_view, const engine_action *act,
                          uint32_t version, uint8_t viewer)
{
    memset(out, 0, sizeof *out);
    out->version = version;
    out->seat = act->seat;
    out->kind = act->kind;
    inspect_action_mask(&out->action, act, viewer);
    /* A seat is told in its log what its view entitles it to: the
     * Atreides side's after-view holds the prescience answer, so its line
     * and its masked action give it too (1). */
    if (act->kind == ENGINE_ACTION_PRESCIENCE_ANSWER &&
        out->action.arg[0] == INSPECT_ARG_HIDDEN && is_atreides_side(after_view)) {
        out->action.arg[0] = (int16_t)engine_battle_prescience_answer(after_view);
        if (out->action.arg[1] == INSPECT_ARG_HIDDEN) /* held as n + 1 */
            out->action.arg[1] = (int16_t)(engine_battle_prescience_support(after_view) + 1);
    }
    /* (1): from here on only the masked action. */
    inspect__text t;
    inspect__text_init(&t, out->text, sizeof out->text);
    line_ctx c = {before_view, after_view, &out->action, &t};
    describe_action(&c);
    plans_revealed(&c);
    traitors_revealed(&c);
    battle_result(&c);
    storm(&c);
    spice_blow(&c);
    cards(&c);
    losses(&c);
    flips(&c);
    leaders(&c);
    seat_spice(&c);
    alliances(&c);
    nexus_cards(&c);
    phase_and_end(&c);
}

/* ============================================================ the walk */

typedef struct collect_ctx {
    engine_action *action;         /* versions from..to, in order */
    uint32_t from;
    uint32_t n;                    /* collected so far */
    uint32_t cap;
} collect_ctx;

static int collect(void *ctx, const codec_event *ev)
{
    collect_ctx *cc = ctx;
    if (cc->n >= cc->cap || ev->version != cc->from + cc->n)
        return LEDGER_ECORRUPT;
    cc->action[cc->n++] = ev->action;
    return 0;
}

int inspect_log_walk(ledger *db, const char *room, uint8_t viewer, uint32_t from, uint32_t to,
                     int (*fn)(void *ctx, const inspect_log_line *line), void *ctx)
{
    uint32_t head;
    int rc = ledger_head(db, room, &head, NULL);
    if (rc != 0)
        return rc;
    if (to == 0)
        to = head;
    if (from == 0)
        from = 1;
    if (to > head || from > to)
        return head == 0 && to == 0 ? 0 : INSPECT_EINPUT;
    /* Events first, then states: ledger_state_at opens its own read
     * transaction, which may not nest inside ledger_event_foreach's. */
    collect_ctx cc = {NULL, from, 0, to - from + 1};
    cc.action = malloc((size_t)cc.cap * sizeof *cc.action);
    engine_state *st = malloc(4 * sizeof *st); /* full before, full after, two views */
    inspect_log_line *line = malloc(sizeof *line);
    if (cc.action == NULL || st == NULL || line == NULL) {
        rc = INSPECT_ERROR;
        goto out;
    }
    rc = ledger_event_foreach(db, room, from, to, collect, &cc);
    if (rc == 0 && cc.n != cc.cap)
        rc = LEDGER_ECORRUPT;
    if (rc != 0)
        goto out;
    /* Without the audit key, the public's lines come from the public
     * views stored at the appends, as the public's views with the key do. */
    int is_keyless = 0;
    rc = ledger_state_at(db, &st[0], room, from - 1);
    if (rc == LEDGER_EKEY && viewer == ENGINE_VIEW_PUBLIC) {
        rc = inspect_room_view(&st[2], &is_keyless, db, room, from - 1, viewer);
        st[0] = st[2];
    }
    if (rc != 0)
        goto out;
    if (!inspect_viewer_is_valid(&st[0].config, viewer)) {
        rc = INSPECT_EINPUT;
        goto out;
    }
    if (!is_keyless)
        engine_view(&st[2], &st[0], viewer);
    for (uint32_t v = from; v <= to; v++) {
        if (is_keyless) {
            rc = ledger_public_view_at(db, &st[3], room, v);
            if (rc != 0)
                break;
        } else {
            rc = ledger_state_at(db, &st[1], room, v);
            if (rc != 0)
                break;
            engine_view(&st[3], &st[1], viewer);
        }
        inspect_log_describe(line, &st[2], &st[3], &cc.action[v - from], v, viewer);
        rc = fn(ctx, line);
        if (rc != 0)
            break;
        st[2] = st[3];
    }
out:
    if (st != NULL)
        memset(st, 0, 4 * sizeof *st);
    free(st);
    free(line);
    free(cc.action);
    return rc;
}
