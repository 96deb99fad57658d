/*
 * nexus.c - how the bots play their held Nexus card (engine/nexus_*.c; the
 * panels built: Harkonnen Cunning and the traitors it returns, the Ecaz
 * Secret Ally's question, the revivals of the Emperor's, the Fremen's and
 * the Tleilaxu's Secret Allies, the Guild's and the Richese's shipments,
 * the Guild's site to site and back to reserves, the Guild Cunning's
 * second shipment, the Fremen Betrayal and the Fremen Cunning's ride, the
 * Atreides Cunning's second element; from rules version 8 the Bene
 * Gesserit Secret Ally's Voice, the CHOAM Secret Ally's worthless card
 * for spice and its look at a loser's card, and the Ixian Secret Ally's replacement of a card bought; from
 * rules version 7 the Bene
 * Gesserit's and the Atreides' Betrayals in the neutral Nexus window, and
 * the window's standing policy; from rules version 8 the Fremen Secret
 * Ally's (a) and the Harkonnen Secret Ally in the window of their own
 * moment), from their own view and legal families only.
 * Medium and up play by these heuristics (Hard and Brutal as Medium);
 * Easy leaves a panel to the generic chooser, which may draw one at any
 * prompt. Tools layer: never reads the engine's state beyond the view.
 */
#include "tools/internal.h"

/* The family of power `slug` among the seat's, or NULL. */
static const engine_legal *power_family(const bot__ctx *c, const char *slug, size_t from)
{
    int id = engine_power_from_slug(slug);
    for (size_t i = from; id >= 0 && i < c->n_legal; i++)
        if (c->legal[i].kind == ENGINE_ACTION_POWER && c->legal[i].lo[0] == id)
            return &c->legal[i];
    return NULL;
}

/* The traitor to shuffle back: a leader of its own faction first (it can
 * never betray the seat's opponent), then the weakest. */
static int choose_return(engine_action *out, const bot__ctx *c)
{
    const engine_legal *best = NULL;
    unsigned best_score = 0;
    for (size_t i = 0; i < c->n_legal; i++) {
        const engine_legal *l = &c->legal[i];
        if (power_family(c, "nexus_traitor_return", i) != l)
            continue;
        unsigned leader = (unsigned)l->lo[1];
        unsigned score = engine_leader_faction(leader) == c->faction
                             ? 100
                             : 10 - engine_leader_strength(leader);
        if (best == NULL || score > best_score) {
            best = l;
            best_score = score;
        }
    }
    if (best == NULL)
        return -1;
    bot__action_lo(out, best);
    return BOT_OK;
}

/* Whom to ask: the seat's battle opponent, else the seat with the most
 * forces on the board. */
static int ask_whom(const bot__ctx *c)
{
    const engine_state *v = c->v;
    if (v->phase == ENGINE_PHASE_BATTLE)
        for (unsigned i = 0; i < 2; i++)
            if (v->battle_seat[i] == c->seat && v->battle_seat[1 - i] < v->config.n_seats)
                return v->battle_seat[1 - i];
    int best = -1;
    unsigned most = 0;
    for (unsigned s = 0; s < v->config.n_seats; s++) {
        if (s == c->seat)
            continue;
        unsigned n = 0;
        for (unsigned l = 0; l < ENGINE_LOCATION_COUNT; l++)
            n += bot__forces_at(v, l, s);
        if (best < 0 || n > most) {
            best = (int)s;
            most = n;
        }
    }
    return best;
}

/* The neutral Nexus window (rules version 7 on): the attempts a held
 * panel stops, by the panel's row of the matrix. */
static const struct {
    uint8_t panel;                 /* EXPANSIONS_AND_NEXUS.md 5.2 row */
    uint8_t kind;                  /* the attempt it stops */
} stops[] = {
    {4, ENGINE_ACTION_VOICE},      /* Bene Gesserit Betrayal */
    {1, ENGINE_ACTION_PRESCIENCE}, /* Atreides Betrayal */
    {13, ENGINE_ACTION_TRAITOR_CALL}, /* Harkonnen Betrayal */
};

/* Medium and up: a panel they hold that stops the attempt, used against
 * their own battle (they fight it and are not its user); else pass, the
 * window's default. Only the seat's own card and the public window are
 * read. */
static int answer_window(engine_action *out, const bot__ctx *c)
{
    const engine_legal *l = &c->legal[0];
    const engine_frame *f = engine_nexus_window(c->v);
    if (l->kind != ENGINE_ACTION_ANSWER || f == NULL || l->lo[0] != (int16_t)f->window)
        return -1;
    const engine_state *v = c->v;
    int card = engine_nexus_held(v, c->seat);
    int fights = v->battle_seat[0] == c->seat || v->battle_seat[1] == c->seat;
    if (card < 0 || v->nexus_face[card] >= ENGINE_FACTION_COUNT || !fights ||
        f->held.seat == c->seat)
        return -1;
    unsigned face = v->nexus_face[card];
    int mode = engine_nexus_mode_of(v, c->seat, face);
    unsigned panel = mode >= 0 ? engine_nexus_panel_row(face, (unsigned)mode) : 0;
    for (size_t i = 0; i < sizeof stops / sizeof stops[0]; i++) {
        if (stops[i].panel != panel || stops[i].kind != f->held.kind)
            continue;
        for (size_t k = 0; k < c->n_legal; k++) /* the family playing it, if offered */
            if (c->legal[k].kind == ENGINE_ACTION_ANSWER && c->legal[k].lo[0] == l->lo[0] &&
                (int)panel >= c->legal[k].lo[1] && (int)panel <= c->legal[k].hi[1]) {
                bot__action_lo(out, &c->legal[k]);
                out->arg[1] = (int16_t)panel;
                return BOT_OK;
            }
    }
    return -1;
}

/* The Nexus window of the seat's own moment (rules version 8 on): the
 * panel its own card plays there, if offered (rows 12a, 15, 9a: its forces
 * kept from the worm, two traitors more to choose from, a card free, each
 * for nothing but the card; 7a, the Emperor paying for his ally's card,
 * unless the seat is that ally); else pass, the window's default. Only the
 * public window and the legal families, which are the seat's own, are
 * read. */
static int answer_moment(engine_action *out, const bot__ctx *c)
{
    const engine_frame *f = engine_nexus_moment_window(c->v);
    if (f == NULL)
        return -1;
    if (f->held.arg[0] == ENGINE_NEXUS_AT_ALLY_PURCHASE && f->held.arg[1] == (int16_t)c->seat)
        return -1; /* its own purchase, as the Emperor's ally: it passes */
    for (size_t k = 0; k < c->n_legal; k++)
        if (c->legal[k].kind == ENGINE_ACTION_ANSWER && c->legal[k].lo[0] == (int16_t)f->window &&
            c->legal[k].lo[1] > 0) {
            bot__action_lo(out, &c->legal[k]);
            return BOT_OK;
        }
    return -1;
}

int bot__nexus_policy(engine_action *out, const bot__ctx *c)
{
    /* Easy never plays a panel in the window: it asks to be asked nowhere.
     * The others keep the default, asked at every point. From the level
     * alone, never from the card. */
    unsigned quiet = c->level == BOT_LEVEL_EASY ? engine_nexus_points(c->v) : 0;
    const engine_legal *l = power_family(c, "nexus_policy", 0);
    if (l == NULL || c->v->nexus_quiet[c->seat] == quiet)
        return -1;
    bot__action_lo(out, l);
    out->arg[1] = (int16_t)quiet;
    return BOT_OK;
}

/* Row 6, the Bene Gesserit Secret Ally's window before the plans: the
 * holder's family (it alone is offered commands) Voices the opponent as
 * the faction would; every other seat asked passes, the default. */
static int borrowed_voice(engine_action *out, bot__ctx *c)
{
    int id = engine_window_from_slug("nexus_voice");
    const engine_state *v = c->v;
    for (size_t i = 0; id >= 0 && i < c->n_legal; i++) {
        const engine_legal *l = &c->legal[i];
        if (l->kind != ENGINE_ACTION_ANSWER || l->lo[0] != id || l->hi[2] == ENGINE_VOICE_NONE)
            continue;
        unsigned side = v->battle_seat[0] == c->seat ? 0u : 1u;
        unsigned opponent = v->battle_seat[1 - side];
        if (opponent >= v->config.n_seats)
            return -1;
        bot__action_lo(out, l);
        out->arg[1] = 0; /* must not */
        out->arg[2] = (int16_t)bot__clamp(bot__voice_class(c, c->seat, opponent), l->lo[2],
                                          l->hi[2]);
        return BOT_OK;
    }
    return -1;
}

/* The holder's family of a card's own window `slug` (the first whose
 * argument 1 reaches `least`: a pass is offered to every seat asked, the
 * play to the holder alone), or NULL. */
static const engine_legal *own_window_play(const bot__ctx *c, const char *slug, int least)
{
    int id = engine_window_from_slug(slug);
    for (size_t i = 0; id >= 0 && i < c->n_legal; i++) {
        const engine_legal *l = &c->legal[i];
        if (l->kind == ENGINE_ACTION_ANSWER && l->lo[0] == id && l->hi[1] >= least)
            return l;
    }
    return NULL;
}

/* Row 27 (a), the CHOAM Secret Ally's window as Spice Collection ends: a
 * worthless card has no use a bot makes of it, so the holder trades the
 * first for 2 spice. Row 27 (b), its window after a battle won: a card of
 * the loser's seen costs nothing but the card; the holder looks. */
static int choam_windows(engine_action *out, const bot__ctx *c)
{
    const engine_legal *l = own_window_play(c, "nexus_worthless", 0);
    if (l != NULL && l->lo[1] >= 0) {
        bot__action_lo(out, l);
        return BOT_OK;
    }
    if ((l = own_window_play(c, "nexus_glimpse", 1)) != NULL) {
        bot__action_lo(out, l);
        out->arg[1] = 1;
        return BOT_OK;
    }
    return -1;
}

/* Row 21, the Ixian Secret Ally's window after a purchase: the holder (it
 * alone is offered the replacement) trades a worthless card just bought
 * for the deck top; it keeps any other. */
static int replace_bought(engine_action *out, const bot__ctx *c)
{
    const engine_legal *l = own_window_play(c, "nexus_replace", 1);
    const engine_state *v = c->v;
    if (l == NULL || v->auction_index == 0 || v->auction_index > v->n_auction)
        return -1;
    unsigned card = v->auction[v->auction_index - 1u];
    if (card >= v->n_cards || v->card_kind[card] >= ENGINE_CARD_KIND_COUNT ||
        !(engine_card_kind_classes(v->card_kind[card]) & ENGINE_CARD_CLASS_WORTHLESS))
        return -1;
    bot__action_lo(out, l);
    out->arg[1] = 1;
    return BOT_OK;
}

int bot__nexus_play(engine_action *out, bot__ctx *c)
{
    if (c->level == BOT_LEVEL_EASY)
        return -1;
    if (answer_window(out, c) == BOT_OK || answer_moment(out, c) == BOT_OK ||
        borrowed_voice(out, c) == BOT_OK || choam_windows(out, c) == BOT_OK ||
        replace_bought(out, c) == BOT_OK)
        return BOT_OK;
    if (choose_return(out, c) == BOT_OK)
        return BOT_OK;
    /* Row 14: a traitor more to choose from costs nothing but the card. */
    const engine_legal *l = power_family(c, "nexus_harkonnen_cunning", 0);
    if (l != NULL) {
        bot__action_lo(out, l);
        return BOT_OK;
    }
    /* Rows 9b, 12b: forces back free, as many as offered. Row 24: its
     * strongest dead leader, and up to 3 forces at 1 spice. */
    static const char *const revivals[] = {"nexus_emperor_secret_ally",
                                           "nexus_fremen_secret_ally"};
    for (unsigned k = 0; k < sizeof revivals / sizeof revivals[0]; k++)
        if ((l = power_family(c, revivals[k], 0)) != NULL) {
            bot__action_lo(out, l);
            out->arg[1] = l->hi[1];
            return BOT_OK;
        }
    const engine_legal *best = NULL;
    for (size_t i = 0; i < c->n_legal; i++) {
        l = power_family(c, "nexus_tleilaxu_secret_ally", i);
        if (l == NULL)
            break;
        if (best == NULL || (l->lo[1] >= 0 && (best->lo[1] < 0 ||
                                              engine_leader_strength((unsigned)l->lo[1]) >
                                                  engine_leader_strength((unsigned)best->lo[1]))))
            best = l;
        i = (size_t)(l - c->legal);
    }
    if (best != NULL) {
        bot__action_lo(out, best);
        out->arg[2] = (int16_t)bot__clamp(3, best->lo[2], best->hi[2]);
        return BOT_OK;
    }
    /* Row 8 (Advanced): as many ordinary forces as offered count as
     * Sardaukar. Row 7b (Advanced): against the Emperor's Sardaukar in the
     * battle (public: the board). */
    if ((l = power_family(c, "nexus_emperor_cunning", 0)) != NULL) {
        bot__action_lo(out, l);
        out->arg[1] = l->hi[1];
        return BOT_OK;
    }
    if ((l = power_family(c, "nexus_emperor_betrayal", 0)) != NULL) {
        const engine_state *v = c->v;
        unsigned sardaukar = 0;
        for (unsigned s = 0; s < v->config.n_seats; s++)
            for (unsigned loc = 0; v->config.faction[s] == ENGINE_FACTION_EMPEROR &&
                                   loc < ENGINE_LOCATION_COUNT; loc++)
                if (engine_location_territory(loc) == v->battle_territory)
                    sardaukar += v->special[loc][s];
        if (sardaukar > 0) {
            bot__action_lo(out, l);
            return BOT_OK;
        }
    }
    /* Row 10: (b) before the Fremen move, in Bidding or Revival; (a) in
     * the Nexus, one time in two. */
    for (size_t i = 0; i < c->n_legal; i++) {
        l = power_family(c, "nexus_fremen_betrayal", i);
        if (l == NULL)
            break;
        i = (size_t)(l - c->legal);
        int ride = l->lo[1] == 1;
        if ((ride && c->v->phase == ENGINE_PHASE_SPICE_BLOW && tool_prng_range(&c->rng, 0, 1)) ||
            (!ride && (c->v->phase == ENGINE_PHASE_BIDDING || c->v->phase == ENGINE_PHASE_REVIVAL))) {
            bot__action_lo(out, l);
            return BOT_OK;
        }
    }
    /* Row 2: the other plan committed, the card element it does not know
     * yet, weapon or defense first (what its own defense and weapon
     * answer), then the leader, then the dial. */
    static const int16_t elements[] = {ENGINE_PRESCIENCE_WEAPON, ENGINE_PRESCIENCE_DEFENSE,
                                       ENGINE_PRESCIENCE_LEADER, ENGINE_PRESCIENCE_DIAL};
    for (unsigned k = 0; k < sizeof elements / sizeof elements[0]; k++)
        for (size_t i = 0; i < c->n_legal; i++) {
            l = power_family(c, "nexus_atreides_cunning", i);
            if (l == NULL)
                break;
            i = (size_t)(l - c->legal);
            if (l->lo[1] == elements[k]) {
                bot__action_lo(out, l);
                return BOT_OK;
            }
        }
    /* Row 11: the worm struck where none of theirs stand: the largest
     * group of 2 or more in a desert territory rides it. */
    best = NULL;
    unsigned most = 1;
    for (size_t i = 0; i < c->n_legal; i++) {
        l = power_family(c, "nexus_fremen_cunning", i);
        if (l == NULL)
            break;
        i = (size_t)(l - c->legal);
        unsigned here = bot__forces_in(c->v, (unsigned)l->lo[1], c->seat);
        if (here > most) {
            best = l;
            most = here;
        }
    }
    if (best != NULL) {
        bot__action_lo(out, best);
        return BOT_OK;
    }
    /* Row 17: at its MOVE prompt, with reserves and spice for a second
     * shipment after it. */
    if ((l = power_family(c, "nexus_guild_cunning", 0)) != NULL &&
        c->v->seat[c->seat].reserves >= 2 && c->v->seat[c->seat].spice >= 2)
        for (size_t i = 0; i < c->n_legal; i++)
            if (c->legal[i].kind == ENGINE_ACTION_MOVE_PASS) {
                bot__action_lo(out, l);
                return BOT_OK;
            }
    /* Row 33: asked in a battle, or from the third turn on. */
    if (power_family(c, "nexus_ecaz_secret_ally", 0) != NULL &&
        (c->v->phase == ENGINE_PHASE_BATTLE || c->v->turn >= 3)) {
        int whom = ask_whom(c);
        for (size_t i = 0; whom >= 0 && i < c->n_legal; i++) {
            l = power_family(c, "nexus_ecaz_secret_ally", i);
            if (l == NULL)
                break;
            if (l->lo[1] == c->v->seat[whom].faction) {
                bot__action_lo(out, l);
                return BOT_OK;
            }
            i = (size_t)(l - c->legal);
        }
    }
    return -1;
}

/* Row 18's board shipments, when the level chose not to ship: the
 * largest group outside the strongholds cross-shipped, all of it it can
 * pay for, into a stronghold; else, with no reserves left to ship, that
 * group back to the reserves. 0 if neither is offered. */
static int board_shipment(engine_action *out, const bot__ctx *c)
{
    const engine_legal *best = NULL;
    int best_score = 0;
    for (size_t i = 0; c->legal != NULL && i < c->n_legal; i++) {
        const engine_legal *l = &c->legal[i];
        int cross = power_family(c, "nexus_guild_secret_ally_cross", i) == l;
        int back = !cross && power_family(c, "nexus_guild_secret_ally_back", i) == l;
        if ((!cross && !back) || engine_territory_is_stronghold(
                                     engine_location_territory((unsigned)l->lo[1])))
            continue;
        if (cross && !engine_territory_is_stronghold(engine_location_territory((unsigned)l->lo[2])))
            continue;
        if (back && c->v->seat[c->seat].reserves > 0)
            continue;
        int most = cross ? l->hi[3] : l->hi[2];
        int score = most * 2 + cross;
        if (most >= 2 && score > best_score) {
            best = l;
            best_score = score;
        }
    }
    if (best == NULL)
        return 0;
    bot__action_lo(out, best);
    unsigned k = power_family(c, "nexus_guild_secret_ally_cross", (size_t)(best - c->legal)) == best
                     ? 3 : 2;
    out->arg[k] = best->hi[k];
    return 1;
}

/* Rows 18, 30: a shipment the level chose, of 2 forces or more, made
 * through the card instead (cheaper: half price, the price of one): the
 * same destination and forces; or, with no shipment chosen, a board
 * shipment of row 18 (board_shipment). */
void bot__nexus_ship(engine_action *out, const bot__ctx *c)
{
    static const char *const panels[] = {"nexus_richese_secret_ally", "nexus_guild_secret_ally"};
    if (c->level != BOT_LEVEL_EASY && out->kind == ENGINE_ACTION_SHIP_PASS &&
        board_shipment(out, c))
        return;
    if (c->level == BOT_LEVEL_EASY || out->kind != ENGINE_ACTION_SHIP || out->arg[3] != 0 ||
        out->arg[2] != 0)
        return;
    for (unsigned k = 0; k < sizeof panels / sizeof panels[0]; k++)
        for (size_t i = 0; i < c->n_legal; i++) {
            const engine_legal *l = power_family(c, panels[k], i);
            if (l == NULL)
                break;
            i = (size_t)(l - c->legal);
            if (l->lo[1] != out->arg[0] || out->arg[1] > l->hi[2] || out->arg[1] < 2)
                continue;
            int16_t forces = out->arg[1];
            bot__action_lo(out, l);
            out->arg[2] = forces;
            return;
        }
}
