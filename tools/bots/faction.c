/*
 * bots/faction.c - what each classic faction does its own way: the Bene
 * Gesserit prediction and its steering, the traitor kept, the Fremen
 * placement, Atreides prescience, the Voice, what a treachery card is
 * worth to a faction in the auction (the Harkonnen draw a free card, the
 * Emperor is paid for others' cards, the Guild hoards), whom a faction
 * wants as an ally and when.
 *
 * Layer: tools; read by every level from Medium up. Like all bot code it
 * reads the seat's view only.
 */
#include <string.h>

#include "tools/internal.h"

/* ========================================================== setup */

/* The Bene Gesserit predict the faction most likely to win a stronghold
 * victory early: the Harkonnen and Atreides start in a stronghold with
 * ornithopters; then the turn when such a win comes. */
int bot__faction_predict(engine_action *out, bot__ctx *c)
{
    static const uint8_t favourites[] = {
        ENGINE_FACTION_HARKONNEN, ENGINE_FACTION_ATREIDES, ENGINE_FACTION_EMPEROR,
        ENGINE_FACTION_FREMEN, ENGINE_FACTION_GUILD,
    };
    for (size_t f = 0; f < sizeof favourites; f++)
        for (size_t i = 0; i < c->n_legal; i++) {
            const engine_legal *l = &c->legal[i];
            if (l->kind != ENGINE_ACTION_PREDICT || l->lo[0] != favourites[f])
                continue;
            bot__action_lo(out, l);
            int turn = tool_prng_range(&c->rng, 3, 6);
            out->arg[1] = (int16_t)bot__clamp(turn, l->lo[1], l->hi[1]);
            return BOT_OK;
        }
    return -1;
}

/* The strongest traitor of another faction. */
int bot__faction_traitor(engine_action *out, bot__ctx *c)
{
    const engine_legal *best = NULL;
    int best_score = -1;
    for (size_t i = 0; i < c->n_legal; i++) {
        const engine_legal *l = &c->legal[i];
        if (l->kind != ENGINE_ACTION_TRAITOR_PICK)
            continue;
        unsigned leader = (unsigned)l->lo[0];
        int score = (int)engine_leader_strength(leader) * 4;
        if (engine_leader_faction(leader) == c->faction)
            score = 0; /* one's own leader never betrays one */
        score += tool_prng_range(&c->rng, 0, 3);
        if (score > best_score) {
            best = l;
            best_score = score;
        }
    }
    if (best == NULL)
        return -1;
    bot__action_lo(out, best);
    return BOT_OK;
}

/* Fremen: a garrison in Sietch Tabr, the rest on the two False Walls,
 * next to Tuek's Sietch and Habbanya Sietch. */
int bot__faction_fremen_place(engine_action *out, bot__ctx *c)
{
    const engine_legal *l = bot__family(c, ENGINE_ACTION_FREMEN_PLACE);
    if (l == NULL || l->sum != ENGINE_FREMEN_START_FORCES)
        return -1;
    static const int16_t split[ENGINE_FREMEN_START_TERRITORIES] = {4, 3, 3};
    bot__action_lo(out, l);
    for (unsigned i = 0; i < ENGINE_FREMEN_START_TERRITORIES; i++) {
        if (split[i] < l->lo[i] || split[i] > l->hi[i])
            return -1;
        out->arg[i] = split[i];
    }
    return BOT_OK;
}

/* ========================================================= battle */

/* Atreides prescience: the weapon when the opponent holds cards (the
 * thing that kills a leader), else the dial. */
int bot__faction_prescience(engine_action *out, bot__ctx *c)
{
    const engine_legal *l = bot__family(c, ENGINE_ACTION_PRESCIENCE);
    if (l == NULL)
        return bot__plain(out, c, ENGINE_ACTION_PRESCIENCE_PASS);
    const engine_state *v = c->v;
    unsigned side = v->battle_seat[0] == c->seat || (int)v->battle_seat[0] == bot__ally(v, c->seat)
                        ? 0 : 1;
    unsigned opponent = v->battle_seat[1 - side];
    uint8_t hand[ENGINE_TREACHERY_MAX];
    unsigned n = opponent < v->config.n_seats ? bot__hand(hand, v, opponent) : 0;
    bot__action_lo(out, l);
    out->arg[0] = (int16_t)bot__clamp(n > 0 ? 2 : 4, l->lo[0], l->hi[0]);
    return BOT_OK;
}

/* The class a Voice forbids: the weapon class `fighter` cannot defend
 * against (or the one `opponent` is known to hold). */
int bot__voice_class(bot__ctx *c, unsigned fighter, unsigned opponent)
{
    const engine_state *v = c->v;
    unsigned mine = bot__hand_classes(v, fighter), known = 0;
    for (unsigned i = 0; i < v->n_cards; i++)
        if (v->card[i].place == ENGINE_PLACE_HAND && v->card[i].holder == opponent)
            known |= engine_card_kind_classes(v->card_kind[i] == ENGINE_CARD_KIND_UNKNOWN
                                           ? ENGINE_CARD_KIND_COUNT : v->card_kind[i]);
    if ((known & ENGINE_CARD_CLASS_WEAPON_POISON) && !(mine & ENGINE_CARD_CLASS_DEFENSE_POISON))
        return ENGINE_VOICE_POISON_WEAPON;
    if ((known & ENGINE_CARD_CLASS_WEAPON_PROJECTILE) && !(mine & ENGINE_CARD_CLASS_DEFENSE_PROJECTILE))
        return ENGINE_VOICE_PROJECTILE_WEAPON;
    if ((mine & ENGINE_CARD_CLASS_DEFENSE_PROJECTILE) && !(mine & ENGINE_CARD_CLASS_DEFENSE_POISON))
        return ENGINE_VOICE_POISON_WEAPON;
    if ((mine & ENGINE_CARD_CLASS_DEFENSE_POISON) && !(mine & ENGINE_CARD_CLASS_DEFENSE_PROJECTILE))
        return ENGINE_VOICE_PROJECTILE_WEAPON;
    return tool_prng_range(&c->rng, 0, 1) ? ENGINE_VOICE_POISON_WEAPON
                                          : ENGINE_VOICE_PROJECTILE_WEAPON;
}

/* The Voice: must not play the class bot__voice_class names. */
int bot__faction_voice(engine_action *out, bot__ctx *c)
{
    const engine_legal *l = bot__family(c, ENGINE_ACTION_VOICE);
    if (l == NULL)
        return bot__plain(out, c, ENGINE_ACTION_VOICE_PASS);
    const engine_state *v = c->v;
    unsigned side = v->battle_seat[0] == c->seat || (int)v->battle_seat[0] == bot__ally(v, c->seat)
                        ? 0 : 1;
    unsigned fighter = v->battle_seat[side], opponent = v->battle_seat[1 - side];
    if (fighter >= v->config.n_seats || opponent >= v->config.n_seats)
        return bot__plain(out, c, ENGINE_ACTION_VOICE_PASS);
    int cls = bot__voice_class(c, fighter, opponent);
    bot__action_lo(out, l);
    out->arg[0] = 0; /* must not */
    out->arg[1] = (int16_t)bot__clamp(cls, l->lo[1], l->hi[1]);
    if (out->arg[0] < l->lo[0])
        out->arg[0] = l->lo[0];
    return BOT_OK;
}

/* ======================================================== bidding */

/* A card's worth to this seat's faction, in spice; an unseen card its
 * expected worth. */
int bot__faction_card_worth(const bot__ctx *c, unsigned kind)
{
    unsigned have = bot__hand_classes(c->v, c->seat);
    int worth;
    unsigned cls = engine_card_kind_classes(kind);
    if (kind == ENGINE_CARD_KIND_UNKNOWN || kind >= ENGINE_CARD_KIND_COUNT)
        worth = 5;
    else if (cls & (ENGINE_CARD_CLASS_WEAPON_PROJECTILE | ENGINE_CARD_CLASS_WEAPON_POISON | ENGINE_CARD_CLASS_WEAPON_SPECIAL))
        worth = have & (ENGINE_CARD_CLASS_WEAPON_PROJECTILE | ENGINE_CARD_CLASS_WEAPON_POISON) ? 6 : 9;
    else if (cls & (ENGINE_CARD_CLASS_DEFENSE_PROJECTILE | ENGINE_CARD_CLASS_DEFENSE_POISON))
        worth = have & cls ? 4 : 8;
    else if (kind == ENGINE_CARD_KARAMA)
        worth = 8;
    else if (kind == ENGINE_CARD_CHEAP_HERO || kind == ENGINE_CARD_TLEILAXU_GHOLA)
        worth = 5;
    else if (cls & ENGINE_CARD_CLASS_WORTHLESS)
        worth = 0;
    else
        worth = 3;
    switch (c->faction) {
    case ENGINE_FACTION_HARKONNEN:
        return worth + 3; /* a second card comes free with each */
    case ENGINE_FACTION_EMPEROR:
        return worth + 2; /* the spice comes back from everyone else's buys */
    case ENGINE_FACTION_GUILD:
        return worth * 2 / 3; /* hoards spice for the long game */
    case ENGINE_FACTION_FREMEN:
        return worth * 3 / 4;
    default:
        return worth;
    }
}

/* ======================================================== alliances */

int bot__faction_synergy(const engine_state *v, unsigned seat, unsigned other)
{
    /* The Bene Gesserit steer towards their prediction: allied with the
     * predicted faction, its win on that turn is theirs. */
    if (v->seat[seat].faction == ENGINE_FACTION_BENE_GESSERIT && v->prediction_faction == other)
        return 40;
    if (other == ENGINE_FACTION_EMPEROR)
        return 8; /* spice and revivals for its ally */
    if (other == ENGINE_FACTION_GUILD)
        return 6; /* half-price shipping */
    if (other == ENGINE_FACTION_FREMEN)
        return 4;
    return 0;
}

int bot__faction_wants_alliance(const engine_state *v, const bot__board *b, unsigned seat)
{
    unsigned f = v->seat[seat].faction;
    if (v->ally[seat] != 0xFF)
        return 0;
    if (b->held[seat] >= 2)
        return 0; /* close to winning alone */
    /* Guild and Fremen win alone at the end; they ally only when weak. */
    if (f == ENGINE_FACTION_GUILD || f == ENGINE_FACTION_FREMEN)
        return b->held[seat] == 0 && v->turn >= 4;
    return 1;
}

/* 1 if the seat, as Bene Gesserit, wants `winner` to win this turn. */
int bot__faction_prediction_due(const bot__ctx *c, unsigned winner)
{
    const engine_state *v = c->v;
    return c->faction == ENGINE_FACTION_BENE_GESSERIT && v->prediction_turn == v->turn &&
           v->seat[winner].faction == v->prediction_faction;
}
