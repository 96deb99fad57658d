/*
 * powers_harkonnen.c - the Harkonnen's powers as rows (internal.h,
 * engine__power_row; DUNE_RULES_DIGEST.md 3.3, LR 2.05): what the phase
 * files ask of them at their rule points (engine/points.c). A row holds
 * facts and small functions over the state; it never mutates the state
 * and never names another family's faction.
 */
#include "engine/internal.h"

/* ================================= Advanced: capture or kill (LR 2.05.10) */

/* Having won a battle, the Harkonnen decide on the leader drawn from the
 * loser's (engine/capture.c): capture it, kill it, or neither (R155).
 * Three powers without arguments, the step's decision; capture and kill
 * are held for a Karama (FAQ20 pp. 7-8), which stopping them leaves the
 * leader where it was. */
enum { NEITHER = 0, CAPTURE = 1, KILL = 2 };

static const engine_power_form capture_form = {.slug = "capture_leader"};
static const engine_power_form kill_form = {.slug = "kill_leader"};
static const engine_power_form spare_form = {.slug = "spare_leader"};

static int capturing(const engine_state *st, unsigned owner, unsigned seat)
{
    return seat == owner && engine__capture_asking(st);
}

static size_t one_family(engine_legal *out, size_t cap, uint8_t seat, const char *slug)
{
    size_t n = 0;
    int id = engine_power_id(slug);
    engine__legal_push1(out, cap, &n, ENGINE_ACTION_POWER, seat, id, id, 0, 0);
    return n;
}

static size_t legal_capture(engine_legal *out, size_t cap, const engine_state *st, uint8_t seat)
{
    (void)st;
    return one_family(out, cap, seat, capture_form.slug);
}

static size_t legal_kill(engine_legal *out, size_t cap, const engine_state *st, uint8_t seat)
{
    (void)st;
    return one_family(out, cap, seat, kill_form.slug);
}

static size_t legal_spare(engine_legal *out, size_t cap, const engine_state *st, uint8_t seat)
{
    (void)st;
    return one_family(out, cap, seat, spare_form.slug);
}

static engine_verdict decide(engine_state *st, unsigned owner, const engine_action *act,
                             unsigned choice, engine_rng *rng)
{
    if (choice != NEITHER &&
        engine__karama_hold(st, act, ENGINE_ADVANTAGE_BIT(ENGINE_ADVANTAGE_HARKONNEN_CAPTURE),
                            owner))
        return ENGINE_ACCEPTED;
    if (engine__karama_consume(st, ENGINE_ADVANTAGE_HARKONNEN_CAPTURE))
        choice = NEITHER;
    engine__capture_decided(st, choice, rng);
    return ENGINE_ACCEPTED;
}

static engine_verdict capture(engine_verdict_detail *why, engine_state *st, unsigned owner,
                              const engine_action *act, engine_rng *rng)
{
    (void)why;
    return decide(st, owner, act, CAPTURE, rng);
}

static engine_verdict kill(engine_verdict_detail *why, engine_state *st, unsigned owner,
                           const engine_action *act, engine_rng *rng)
{
    (void)why;
    return decide(st, owner, act, KILL, rng);
}

static engine_verdict spare(engine_verdict_detail *why, engine_state *st, unsigned owner,
                            const engine_action *act, engine_rng *rng)
{
    (void)why;
    return decide(st, owner, act, NEITHER, rng);
}

#define HARKONNEN .faction = ENGINE_FACTION_HARKONNEN
#define CAPTURE_ROW(form_, use_, legal_)                                                     \
    {.point = ENGINE__POINT_POWER, HARKONNEN, .to = ENGINE__TO_OWNER,                      \
     .game = ENGINE__GAME_ADVANCED, .since = ENGINE__RULE_SINCE(ENGINE__RULE_ADVANCED_CAPTURE), \
     .when = capturing, .form = &(form_), .use = (use_), .decision = (legal_),              \
     .source = "LR 2.05.10.01"}

static const engine__power_row rows[] = {
    /* H1: a free card with each card bought, when the hand has room. */
    {.point = ENGINE__POINT_CARD_BOUGHT, .faction = ENGINE_FACTION_HARKONNEN, .to = ENGINE__TO_OWNER,
     .advantage = ENGINE_ADVANTAGE_HARKONNEN_FREE_CARD, .karama = ENGINE__KARAMA_STANDING, .source = "LR 2.05.08"},
    /* Traitors may be called in the ally's battle too (no Karama, R66). */
    {.point = ENGINE__POINT_TRAITOR_REVEALED, .faction = ENGINE_FACTION_HARKONNEN,
     .to = ENGINE__TO_OWNER | ENGINE__TO_ALLY, .source = "LR 2.05.06"},
    /* Advanced, rules version 8 on: the faction Karama power, a hand taken
     * and as many cards given back (engine/karama_hand.c). */
    {.point = ENGINE__POINT_POWER, .faction = ENGINE_FACTION_HARKONNEN, .to = ENGINE__TO_OWNER,
     .game = ENGINE__GAME_ADVANCED, .since = ENGINE__RULE_SINCE(ENGINE__RULE_ADVANCED_KARAMA_HARKONNEN),
     .when = engine__harkonnen_hand_when, .form = &engine__harkonnen_hand_form,
     .use = engine__harkonnen_hand, .legal = engine__harkonnen_hand_legal, .source = "LR 1.14.04"},
    {.point = ENGINE__POINT_WINDOW, .faction = ENGINE_FACTION_HARKONNEN, .to = ENGINE__TO_OWNER,
     .game = ENGINE__GAME_ADVANCED, .since = ENGINE__RULE_SINCE(ENGINE__RULE_ADVANCED_KARAMA_HARKONNEN),
     .form = &engine__harkonnen_return_form, .answer = engine__harkonnen_return,
     .close = engine__harkonnen_returned, .legal = engine__harkonnen_return_legal,
     .source = "LR 1.14.04"},
    /* Advanced (rules version 8): capture or kill after a battle won; a
     * Karama may stop one such decision, not the use of a captive. */
    {.point = ENGINE__POINT_CAPTURE, HARKONNEN, .to = ENGINE__TO_OWNER,
     .game = ENGINE__GAME_ADVANCED, .since = ENGINE__RULE_SINCE(ENGINE__RULE_ADVANCED_CAPTURE),
     .advantage = ENGINE_ADVANTAGE_HARKONNEN_CAPTURE, .karama = ENGINE__KARAMA_STANDING,
     .source = "LR 2.05.10; FAQ20 pp. 7-8"},
    CAPTURE_ROW(capture_form, capture, legal_capture),
    CAPTURE_ROW(kill_form, kill, legal_kill),
    CAPTURE_ROW(spare_form, spare, legal_spare),
};

const engine__power_family engine__powers_harkonnen = {rows, sizeof rows / sizeof rows[0]};
