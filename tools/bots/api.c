/*
 * bots/api.c - the bots' API: the only way a bot is handed the game
 * (bot_input_build: one seat's view and that seat's legal actions), the
 * bot handle, the decision table that sends each decision to the level
 * that makes it, and the helpers every level reads the view with.
 *
 * Layer: tools. A bot sees what engine_view shows its seat and what
 * engine_legal_actions offers it, nothing else: bot_decide refuses an
 * input made for another seat, or a state that is not a view, so a bot
 * cannot be handed hidden facts even by mistake. What a bot must never do:
 * read the full state, keep state between decisions (its randomness is a
 * stream keyed by its seed and the version acted on, so a game replays from
 * its seeds and continues identically in another ledger), or submit an
 * action outside its legal families (bot_decide checks the answer and
 * falls back to a legal one, which the tests require never happens).
 *
 * Facts (card classes, strongholds, storm protection, shipping prices)
 * come from the engine's read-only accessors (engine.h "Facts"), never
 * from a copy here.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "tools/internal.h"

struct bot {
    uint8_t seat;                  /* the seat it plays, 0..n_seats-1 */
    uint8_t level;                 /* bot_level */
    uint64_t seed;                 /* its own randomness: keyed with the version */
    bot_scratch *scratch;          /* owned: search buffers (Brutal), NULL until needed */
};

static const char *const level_names[BOT_LEVEL_COUNT] = {
    "easy", "medium", "hard", "brutal",
};

const char *bot_level_name(unsigned level)
{
    return level < BOT_LEVEL_COUNT ? level_names[level] : NULL;
}

int bot_level_from_name(const char *s)
{
    for (unsigned i = 0; i < BOT_LEVEL_COUNT; i++)
        if (strcmp(s, level_names[i]) == 0)
            return (int)i;
    return -1;
}

int bot_levels_parse(uint8_t *out, size_t cap, size_t *n_out, const char *list)
{
    size_t n = 0;
    const char *p = list;
    if (list == NULL || *list == '\0')
        return -1;
    for (;;) {
        const char *end = strchr(p, ',');
        size_t len = end != NULL ? (size_t)(end - p) : strlen(p);
        char name[16];
        if (len == 0 || len >= sizeof name || n == cap)
            return -1;
        memcpy(name, p, len);
        name[len] = '\0';
        int l = bot_level_from_name(name);
        if (l < 0)
            return -1;
        out[n++] = (uint8_t)l;
        if (end == NULL)
            break;
        p = end + 1;
    }
    *n_out = n;
    return 0;
}

/* ============================================================ input */

void bot_input_build(bot_input *out, const engine_state *st, uint8_t seat, uint32_t version,
                     int is_forced)
{
    assert(st->viewer == ENGINE_SEAT_ENGINE);
    assert(seat < st->config.n_seats);
    engine_view(&out->view, st, seat);
    out->version = version;
    out->seat = seat;
    out->is_forced = is_forced != 0;
    size_t n = engine_legal_actions(out->legal, ENGINE_LEGAL_MAX, st, seat);
    out->n_legal = bot__plain_families(out->legal, n < ENGINE_LEGAL_MAX ? n : ENGINE_LEGAL_MAX);
}

size_t bot__plain_families(engine_legal *legal, size_t n)
{
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        const engine_action_spec *spec = engine_action_spec_of(legal[i].kind);
        /* The Advanced battle plan's forces by strength are its only form,
         * not an alternative to a plain one, and so are a generic kind's
         * arguments, which its row's form names (all of them given), and the
         * Advanced advisor sent with a shipment (a send naming another place
         * than the Polar Sink), the Advanced dial's prescience answer with
         * its spice support, and the standing policy's advantages after the
         * Basic twenty (rules version 7), and a Karama cancel's advantage
         * (optional only so that rules version 1's, which has none, reads):
         * kept. */
        int only_form = legal[i].kind == ENGINE_ACTION_BATTLE_PLAN ||
                        legal[i].kind == ENGINE_ACTION_KARAMA_CANCEL ||
                        legal[i].kind == ENGINE_ACTION_KARAMA_POLICY ||
                        engine_action_is_generic(legal[i].kind) ||
                        (legal[i].kind == ENGINE_ACTION_BG_SEND && legal[i].lo[1] > 0) ||
                        (legal[i].kind == ENGINE_ACTION_PRESCIENCE_ANSWER && legal[i].lo[1] > 0);
        if (spec != NULL && !only_form &&
            engine_legal_n_given(&legal[i]) > (unsigned)(spec->n_args - spec->n_optional))
            continue;
        legal[kept++] = legal[i];
    }
    return kept;
}

/* ============================================================= bots */

int bot_new(bot **out, uint8_t seat, bot_level level, uint64_t seed)
{
    assert(level < BOT_LEVEL_COUNT && seat < ENGINE_MAX_SEATS);
    bot *b = calloc(1, sizeof *b);
    *out = b;
    if (b == NULL)
        return BOT_ERROR;
    b->seat = seat;
    b->level = (uint8_t)level;
    b->seed = seed;
    return BOT_OK;
}

void bot_free(bot *b)
{
    if (b == NULL)
        return;
    bot__scratch_free(b->scratch);
    free(b);
}

uint8_t bot_seat(const bot *b)
{
    return b->seat;
}

bot_level bot_level_of(const bot *b)
{
    return (bot_level)b->level;
}

uint64_t bot__mix(uint64_t a, uint64_t b)
{
    tool_prng r;
    tool_prng_init(&r, a ^ (b * UINT64_C(0xd6e8feb86659fd93)));
    (void)tool_prng_next(&r);
    return tool_prng_next(&r);
}

/* ======================================================== decisions */

/* What each action kind asks of a bot: every family of one step maps to
 * the same decision, read from a seat's first family. Side actions (cards
 * played at any time) follow the step's families (engine_legal_actions),
 * so they never name the decision; a level picks one among the rest, or
 * the generic chooser draws one, which discards the card: never a loop. */
static const uint8_t decision_of[ENGINE_ACTION_KIND_COUNT] = {
    [ENGINE_ACTION_NONE] = BOT__ANY,
    [ENGINE_ACTION_PREDICT] = BOT__PREDICT,
    [ENGINE_ACTION_TRAITOR_PICK] = BOT__TRAITOR_PICK,
    [ENGINE_ACTION_FREMEN_PLACE] = BOT__FREMEN_PLACE,
    [ENGINE_ACTION_BG_PLACE] = BOT__BG_PLACE,
    [ENGINE_ACTION_STORM_DIAL] = BOT__STORM_DIAL,
    [ENGINE_ACTION_ALLIANCE_PROPOSE] = BOT__NEXUS,
    [ENGINE_ACTION_ALLIANCE_ACCEPT] = BOT__NEXUS,
    [ENGINE_ACTION_ALLIANCE_REFUSE] = BOT__NEXUS,
    [ENGINE_ACTION_ALLIANCE_BREAK] = BOT__NEXUS,
    [ENGINE_ACTION_NEXUS_DONE] = BOT__NEXUS,
    [ENGINE_ACTION_WORM_RIDE] = BOT__WORM_RIDE,
    [ENGINE_ACTION_WORM_RIDE_PASS] = BOT__WORM_RIDE,
    [ENGINE_ACTION_CHARITY_CLAIM] = BOT__CHARITY,
    [ENGINE_ACTION_CHARITY_DECLINE] = BOT__CHARITY,
    [ENGINE_ACTION_ALLY_SUPPORT] = BOT__SUPPORT,
    [ENGINE_ACTION_BID] = BOT__AUCTION,
    [ENGINE_ACTION_BID_PASS] = BOT__AUCTION,
    [ENGINE_ACTION_KARAMA_TAKE] = BOT__AUCTION,
    [ENGINE_ACTION_EMPEROR_REVIVAL] = BOT__EMPEROR_REVIVAL,
    [ENGINE_ACTION_REVIVE] = BOT__REVIVE,
    [ENGINE_ACTION_GHOLA] = BOT__SIDE,
    [ENGINE_ACTION_SHIP] = BOT__SHIP,
    [ENGINE_ACTION_FREMEN_SEND] = BOT__SHIP,
    [ENGINE_ACTION_CROSS_SHIP] = BOT__SHIP,
    [ENGINE_ACTION_SHIP_BACK] = BOT__SHIP,
    [ENGINE_ACTION_SHIP_PASS] = BOT__SHIP,
    [ENGINE_ACTION_BG_SEND] = BOT__BG_SEND,
    [ENGINE_ACTION_MOVE] = BOT__MOVE,
    [ENGINE_ACTION_HAJR_MOVE] = BOT__MOVE,
    [ENGINE_ACTION_MOVE_PASS] = BOT__MOVE,
    [ENGINE_ACTION_BATTLE_CHOOSE] = BOT__BATTLE_CHOOSE,
    [ENGINE_ACTION_PRESCIENCE] = BOT__PRESCIENCE,
    [ENGINE_ACTION_PRESCIENCE_PASS] = BOT__PRESCIENCE,
    [ENGINE_ACTION_PRESCIENCE_ANSWER] = BOT__PRESCIENCE_ANSWER,
    [ENGINE_ACTION_VOICE] = BOT__VOICE,
    [ENGINE_ACTION_VOICE_PASS] = BOT__VOICE,
    [ENGINE_ACTION_KARAMA_CANCEL] = BOT__KARAMA,
    [ENGINE_ACTION_KARAMA_ALLOW] = BOT__KARAMA,
    [ENGINE_ACTION_BATTLE_PLAN] = BOT__PLAN,
    [ENGINE_ACTION_TRAITOR_CALL] = BOT__TRAITOR_CALL,
    [ENGINE_ACTION_KEEP_CARDS] = BOT__KEEP,
    [ENGINE_ACTION_WEATHER_CONTROL] = BOT__STORM_CARDS,
    [ENGINE_ACTION_FAMILY_ATOMICS] = BOT__STORM_CARDS,
    [ENGINE_ACTION_STORM_CARDS_PASS] = BOT__STORM_CARDS,
    [ENGINE_ACTION_TRUTHTRANCE] = BOT__SIDE,
    [ENGINE_ACTION_TRUTHTRANCE_ANSWER] = BOT__TRUTH_ANSWER,
    [ENGINE_ACTION_SHIP_KARAMA_FROM] = BOT__SHIP,
    [ENGINE_ACTION_SHIP_KARAMA_ANSWER] = BOT__KARAMA_SHIP,
    /* rules version 3: the Fremen's choices for their ally, the generic chooser's */
    [ENGINE_ACTION_FREMEN_PROTECT_ALLY] = BOT__ANY,
    [ENGINE_ACTION_FREMEN_ALLY_REVIVAL] = BOT__ANY,
    [ENGINE_ACTION_KARAMA_POLICY] = BOT__SIDE,
    [ENGINE_ACTION_NEXUS_DRAW] = BOT__NEXUS_DRAW,
    /* rules version 5: a generic power, a side action used by its row's
     * default (engine_generic_default) when the generic chooser draws it */
    [ENGINE_ACTION_POWER] = BOT__SIDE,
    /* rules version 6: a window a row declares, answered by its row's default */
    [ENGINE_ACTION_ANSWER] = BOT__GENERIC,
};
_Static_assert(sizeof decision_of / sizeof decision_of[0] == ENGINE_ACTION_KIND_COUNT,
               "one decision per action kind");

unsigned bot__decision_of(unsigned kind)
{
    return kind < ENGINE_ACTION_KIND_COUNT ? decision_of[kind] : BOT__DECISION_MISSING;
}

/* A generic family (a power, a window's answer): the default its row
 * gives, whatever the level knows. */
static int generic_default(engine_action *out, bot__ctx *c)
{
    return engine_generic_default(out, &c->legal[0]) == 0 ? BOT_OK : -1;
}

/* Who decides what: a level without its own way falls back to the level
 * below it (NULL), Easy to the generic chooser. */
static const bot__fn decide_table[BOT__DECISION_COUNT][BOT_LEVEL_COUNT] = {
    /*                        easy                 medium                  hard              brutal */
    [BOT__GENERIC] =         {generic_default,     bot__medium_answer,     NULL,             NULL},
    [BOT__PREDICT] =         {NULL,                bot__faction_predict,   NULL,             NULL},
    [BOT__TRAITOR_PICK] =    {NULL,                bot__faction_traitor,   NULL,             NULL},
    [BOT__FREMEN_PLACE] =    {NULL,                bot__faction_fremen_place, NULL,          NULL},
    [BOT__BG_PLACE] =        {NULL,                NULL,                   NULL,             NULL},
    [BOT__STORM_DIAL] =      {NULL,                bot__medium_storm_dial, NULL,             NULL},
    [BOT__STORM_CARDS] =     {bot__easy_pass,      bot__medium_storm_cards, NULL,            NULL},
    [BOT__NEXUS] =           {bot__easy_nexus,     bot__medium_nexus,      NULL,             NULL},
    [BOT__WORM_RIDE] =       {NULL,                bot__medium_worm_ride,  NULL,             NULL},
    [BOT__CHARITY] =         {bot__easy_charity,   NULL,                   NULL,             NULL},
    [BOT__SUPPORT] =         {bot__easy_support,   bot__medium_support,    NULL,             NULL},
    [BOT__AUCTION] =         {bot__easy_auction,   bot__medium_auction,    NULL,             NULL},
    [BOT__EMPEROR_REVIVAL] = {NULL,                bot__medium_emperor_revival, NULL,        NULL},
    [BOT__REVIVE] =          {bot__easy_revive,    bot__medium_revive,     NULL,             NULL},
    [BOT__SHIP] =            {bot__easy_ship,      bot__medium_ship,       bot__hard_ship,   bot__brutal_ship},
    [BOT__BG_SEND] =         {NULL,                bot__medium_bg_send,    NULL,             NULL},
    [BOT__MOVE] =            {bot__easy_move,      bot__medium_move,       bot__hard_move,   bot__brutal_move},
    [BOT__BATTLE_CHOOSE] =   {NULL,                bot__medium_battle_choose, NULL,          NULL},
    [BOT__PRESCIENCE] =      {NULL,                bot__faction_prescience, NULL,            NULL},
    [BOT__PRESCIENCE_ANSWER] = {NULL,              bot__medium_prescience_answer, NULL,      NULL},
    [BOT__VOICE] =           {bot__easy_pass,      bot__faction_voice,     NULL,             NULL},
    [BOT__KARAMA] =          {bot__easy_pass,      bot__medium_karama,     NULL,             NULL},
    [BOT__PLAN] =            {bot__easy_plan,      bot__medium_plan,       bot__hard_plan,   bot__brutal_plan},
    [BOT__TRUTH_ANSWER] =    {NULL,                NULL,                   NULL,             NULL},
    [BOT__TRAITOR_CALL] =    {bot__always_max,     NULL,                   NULL,             NULL},
    [BOT__KEEP] =            {bot__always_max,     NULL,                   NULL,             NULL},
    [BOT__SIDE] =            {NULL,                NULL,                   NULL,             NULL},
    [BOT__NEXUS_DRAW] =      {NULL,                bot__medium_nexus_draw, NULL,             NULL},
    [BOT__KARAMA_SHIP] =     {bot__easy_pass,      bot__medium_karama_ship, NULL,            NULL},
};

void bot__ctx_init(bot__ctx *c, const engine_state *view, const engine_legal *legal,
                   size_t n_legal, uint8_t seat, unsigned level, uint64_t seed, uint32_t version,
                   int is_forced, bot_scratch *scratch)
{
    memset(c, 0, sizeof *c);
    c->v = view;
    c->legal = legal;
    c->n_legal = n_legal;
    c->seat = seat;
    c->faction = view->seat[seat].faction;
    c->level = (uint8_t)level;
    c->seed = seed;
    c->version = version;
    c->is_forced = is_forced != 0;
    c->scratch = scratch;
    tool_prng_init(&c->rng, bot__mix(seed, version));
}

/* Rules version 3: a bot's standing Karama policy is the advantages its
 * level's Karama decision ever cancels (bot__medium_karama: the Voice and
 * prescience in its own battle, the Fremen's own worm immunity, and where
 * the room offers it (an Advanced room of rules version 7) the Kwisatz
 * Haderach in its own battle, from version 8 the stops of
 * bots/karama_stops.c and the Harkonnen's capture or kill after it; Easy
 * cancels none). It follows from the
 * level and the room alone, never from the hand, and is set at the first
 * prompt where the engine offers it. */
static int choose_policy(engine_action *out, const bot__ctx *c)
{
    static const uint32_t own_battle =
        ENGINE_ADVANTAGE_BIT(ENGINE_ADVANTAGE_ATREIDES_PRESCIENCE) |
        ENGINE_ADVANTAGE_BIT(ENGINE_ADVANTAGE_ATREIDES_ALLY_PRESCIENCE) |
        ENGINE_ADVANTAGE_BIT(ENGINE_ADVANTAGE_BG_VOICE) |
        ENGINE_ADVANTAGE_BIT(ENGINE_ADVANTAGE_BG_ALLY_VOICE) |
        ENGINE_ADVANTAGE_BIT(ENGINE_ADVANTAGE_ATREIDES_KH) |
        ENGINE_ADVANTAGE_BIT(ENGINE_ADVANTAGE_HARKONNEN_CAPTURE);
    int easy = c->level == BOT_LEVEL_EASY;
    uint32_t offered = engine_karama_offered(c->v);
    uint32_t ask = easy ? 0 : ENGINE_ADVANTAGE_BIT(ENGINE_ADVANTAGE_FREMEN_WORM);
    uint32_t own = easy ? 0 : own_battle;
    bot__karama_stops_policy(&ask, &own, c); /* rules version 8's stops */
    ask &= offered;
    own &= offered;
    const engine_legal *l = bot__family(c, ENGINE_ACTION_KARAMA_POLICY);
    if (l == NULL || (c->v->karama_ask[c->seat] == ask && c->v->karama_ask_own[c->seat] == own))
        return -1;
    bot__action_lo(out, l);
    engine_karama_policy_set(out, ask, own);
    return BOT_OK;
}

int bot__choose(engine_action *out, bot__ctx *c)
{
    if (c->n_legal == 0)
        return BOT_ERROR;
    if (choose_policy(out, c) == BOT_OK || bot__nexus_policy(out, c) == BOT_OK)
        return BOT_OK;
    if (bot__nexus_play(out, c) == BOT_OK)
        return BOT_OK;
    if (c->level > BOT_LEVEL_EASY && bot__advanced_kh(out, c) == BOT_OK)
        return BOT_OK;
    if (bot__advanced_intrusion(out, c) == BOT_OK)
        return BOT_OK;
    if (bot__advanced_capture(out, c) == BOT_OK)
        return BOT_OK;
    int powers = bot__karama_powers(out, c); /* Easy: the Harkonnen's, Guild's, Atreides' */
    if (powers == BOT_OK || powers == BOT_WAIT)
        return powers;
    /* Advanced, from Medium up: a step's decision made with a generic
     * power the bot knows (a pile's further worm). */
    if (c->level > BOT_LEVEL_EASY && bot__advanced_place_worm(out, c) == BOT_OK)
        return BOT_OK;
    unsigned d = bot__decision_of(c->legal[0].kind);
    int rc = -1;
    assert(d != BOT__DECISION_MISSING || c->legal[0].kind >= ENGINE_ACTION_KIND_COUNT);
    if (d != BOT__DECISION_MISSING)
        for (int l = c->level; l >= 0 && rc < 0; l--)
            if (decide_table[d][l] != NULL)
                rc = decide_table[d][l](out, c);
    /* Advanced: a plan's dial, from Medium up, is the strength wanted,
     * bought with forces by strength and spice support. */
    if (rc == BOT_OK && out->kind == ENGINE_ACTION_BATTLE_PLAN && c->level > BOT_LEVEL_EASY &&
        engine_is_advanced(c->v) && bot__advanced_plan(out, c) != BOT_OK)
        rc = -1;
    if (rc < 0)
        rc = bot__easy_any(out, c);
    if (rc == BOT_OK)
        bot__nexus_ship(out, c);
    return rc;
}

/* 1 if act lies in one of the families. */
static int is_legal(const bot__ctx *c, const engine_action *act)
{
    for (size_t i = 0; i < c->n_legal; i++)
        if (engine_legal_contains(&c->legal[i], act))
            return 1;
    return 0;
}

int bot_decide(engine_action *out, bot *b, const bot_input *in)
{
    /* The API's promise: a bot decides only from its own seat's view. */
    if (in->seat != b->seat || in->view.viewer != b->seat)
        return BOT_EREFUSED;
    if (in->n_legal == 0)
        return BOT_ERROR;
    if (b->level == BOT_LEVEL_BRUTAL && b->scratch == NULL)
        b->scratch = bot__scratch_new();
    bot__ctx c;
    bot__ctx_init(&c, &in->view, in->legal, in->n_legal, b->seat, b->level, b->seed, in->version,
                  in->is_forced, b->scratch);
    int rc = bot__choose(out, &c);
    if (rc == BOT_WAIT)
        return in->is_forced ? bot__easy_any(out, &c) : BOT_WAIT;
    if (rc != BOT_OK || !is_legal(&c, out)) {
        /* A chooser's mistake: never submit it. Debug builds stop here so
         * the tests see it; release builds play a legal action instead. */
        assert(0 && "a bot chose an action outside its legal families");
        return bot__easy_any(out, &c);
    }
    return BOT_OK;
}

/* ========================================================= families */

const engine_legal *bot__family(const bot__ctx *c, unsigned kind)
{
    for (size_t i = 0; i < c->n_legal; i++)
        if (c->legal[i].kind == kind)
            return &c->legal[i];
    return NULL;
}

void bot__action_lo(engine_action *out, const engine_legal *l)
{
    memset(out, 0, sizeof *out);
    out->kind = l->kind;
    out->seat = l->seat;
    for (unsigned i = 0; i < ENGINE_ACTION_MAX_ARGS; i++)
        out->arg[i] = l->lo[i];
}

int bot__plain(engine_action *out, const bot__ctx *c, unsigned kind)
{
    const engine_legal *l = bot__family(c, kind);
    if (l == NULL)
        return -1;
    bot__action_lo(out, l);
    return 0;
}

int bot__clamp(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* =========================================================== board */

unsigned bot__forces_at(const engine_state *v, unsigned loc, unsigned seat)
{
    return (unsigned)v->forces[loc][seat] + v->special[loc][seat];
}

unsigned bot__forces_in(const engine_state *v, unsigned t, unsigned seat)
{
    unsigned n = 0;
    for (unsigned l = 0; l < ENGINE_LOCATION_COUNT; l++)
        if (v->forces[l][seat] | v->special[l][seat])
            if (engine_location_territory(l) == t)
                n += bot__forces_at(v, l, seat);
    return n;
}

void bot__territory_forces(unsigned out[ENGINE_TERRITORY_COUNT][ENGINE_MAX_SEATS],
                           const engine_state *v)
{
    memset(out, 0, sizeof(unsigned) * ENGINE_TERRITORY_COUNT * ENGINE_MAX_SEATS);
    for (unsigned l = 0; l < ENGINE_LOCATION_COUNT; l++) {
        unsigned t = engine_location_territory(l);
        if (t >= ENGINE_TERRITORY_COUNT)
            continue;
        for (unsigned s = 0; s < v->config.n_seats; s++)
            out[t][s] += bot__forces_at(v, l, s);
    }
}

unsigned bot__spice_in(const engine_state *v, unsigned t)
{
    unsigned n = 0;
    for (unsigned l = 0; l < ENGINE_LOCATION_COUNT; l++)
        if (v->spice[l] && engine_location_territory(l) == t)
            n += v->spice[l];
    return n;
}

int bot__controller(unsigned tf[ENGINE_TERRITORY_COUNT][ENGINE_MAX_SEATS],
                    const engine_state *v, unsigned t)
{
    int who = -1;
    for (unsigned s = 0; s < v->config.n_seats; s++) {
        if (tf[t][s] == 0)
            continue;
        if (who >= 0)
            return BOT_CONTESTED;
        who = (int)s;
    }
    return who;
}

unsigned bot__strongholds_held(unsigned tf[ENGINE_TERRITORY_COUNT][ENGINE_MAX_SEATS],
                               const engine_state *v, unsigned seat)
{
    unsigned n = 0;
    for (unsigned i = 0; i < ENGINE_STRONGHOLD_COUNT; i++)
        n += bot__controller(tf, v, engine_stronghold(i)) == (int)seat;
    return n;
}

int bot__ally(const engine_state *v, unsigned seat)
{
    unsigned a = v->ally[seat];
    return a < v->config.n_seats ? (int)a : -1;
}

int bot__seat_of(const engine_state *v, unsigned faction)
{
    for (unsigned s = 0; s < v->config.n_seats; s++)
        if (v->seat[s].faction == faction)
            return (int)s;
    return -1;
}

void bot__suppose_answer(engine_state *w, int value)
{
    for (unsigned i = 0; i < w->n_effects; i++)
        if (w->effect[i].kind == ENGINE_EFFECT_PRESCIENCE)
            w->effect[i].arg = (int16_t)value;
}

void bot__lift_answer(engine_state *w)
{
    for (unsigned i = 0; i < w->n_effects; i++)
        if (w->effect[i].kind == ENGINE_EFFECT_PRESCIENCE) {
            memmove(&w->effect[i], &w->effect[i + 1],
                    (w->n_effects - i - 1u) * sizeof w->effect[0]);
            w->n_effects--;
            memset(&w->effect[w->n_effects], 0, sizeof w->effect[0]);
            return;
        }
}

/* ============================================================ cards */

unsigned bot__kind_of(const engine_state *v, unsigned card)
{
    return card < v->n_cards ? v->card_kind[card] : ENGINE_CARD_KIND_UNKNOWN;
}

unsigned bot__hand(uint8_t out[ENGINE_TREACHERY_MAX], const engine_state *v, unsigned seat)
{
    unsigned n = 0;
    for (unsigned i = 0; i < v->n_cards; i++)
        if (v->card[i].place == ENGINE_PLACE_HAND && v->card[i].holder == seat)
            out[n++] = (uint8_t)i;
    return n;
}

unsigned bot__hand_classes(const engine_state *v, unsigned seat)
{
    uint8_t h[ENGINE_TREACHERY_MAX];
    unsigned n = bot__hand(h, v, seat), classes = 0;
    for (unsigned i = 0; i < n; i++)
        classes |= engine_card_kind_classes(bot__kind_of(v, h[i]));
    return classes;
}

/* ========================================================== leaders */

int bot__leader_ready(const engine_state *v, unsigned seat, unsigned leader, unsigned t)
{
    return engine_leader_holder(v, leader) == (int)seat && /* a captive too (LR 2.05.10.01) */
           (v->leader_territory[leader] == 0xFF || v->leader_territory[leader] == t);
}

unsigned bot__best_leader(const engine_state *v, unsigned seat, unsigned t)
{
    unsigned best = 0;
    for (unsigned l = 0; l < ENGINE_LEADER_COUNT; l++)
        if (bot__leader_ready(v, seat, l, t) && engine_leader_strength(l) > best)
            best = engine_leader_strength(l);
    return best;
}

unsigned bot__leaders_ready(const engine_state *v, unsigned seat, unsigned t)
{
    unsigned n = 0;
    for (unsigned l = 0; l < ENGINE_LEADER_COUNT; l++)
        n += (unsigned)bot__leader_ready(v, seat, l, t);
    return n;
}

/* Traitors `s` holds that `viewer` has not seen: as many as its faction
 * keeps, less those called in the open. */
static unsigned hidden_traitors_of(const engine_state *v, unsigned s)
{
    unsigned want = engine_faction_traitors_kept(v->seat[s].faction);
    for (unsigned l = 0; l < ENGINE_LEADER_COUNT && want > 0; l++)
        if (v->traitor[l].place == ENGINE_PLACE_HAND && v->traitor[l].holder == s)
            want--;
    return want;
}

unsigned bot__traitor_risk(const engine_state *v, unsigned seat, unsigned leader,
                           unsigned opponent)
{
    const engine_card_state *t = &v->traitor[leader];
    if (t->place != ENGINE_PLACE_HIDDEN) {
        /* Known to the seat: its own, its discards, or called openly. */
        int against = t->place == ENGINE_PLACE_HAND && t->holder != seat &&
                      (t->holder == opponent || (int)t->holder == bot__ally(v, opponent));
        return against ? 100 : 0;
    }
    unsigned hidden = 0;
    for (unsigned l = 0; l < ENGINE_LEADER_COUNT; l++)
        hidden += v->traitor[l].place == ENGINE_PLACE_HIDDEN;
    if (hidden == 0)
        return 0;
    unsigned held = hidden_traitors_of(v, opponent);
    int a = bot__ally(v, opponent);
    if (a >= 0 && (unsigned)a != seat && v->seat[a].faction == ENGINE_FACTION_HARKONNEN)
        held += hidden_traitors_of(v, (unsigned)a);
    unsigned risk = held * 100 / hidden;
    return risk > 100 ? 100 : risk;
}
