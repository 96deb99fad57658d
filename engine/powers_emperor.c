/*
 * powers_emperor.c - the Emperor's powers as rows (internal.h,
 * engine__power_row; DUNE_RULES_DIGEST.md 3.3, LR 2.03): what the phase
 * files ask of them at their rule points (engine/points.c). A row holds
 * facts and small functions over the state; it never mutates the state
 * and never names another family's faction.
 */
#include "engine/internal.h"

/* The ally may revive beyond the limit as many forces as the Emperor
 * offered to pay for this Revival (the offer was the advantage, answered
 * by its Karama window: a cancel left it at 0). */
static int ally_extra_revivals(const engine_state *st, unsigned owner, unsigned seat, int value)
{
    (void)owner;
    (void)seat;
    return value + st->emperor_ally_revivals;
}

/* Advanced: a Sardaukar is worth two forces at full strength (LR 2.03.08;
 * half points: 4, and 2 unsupported), but only one against the Fremen
 * (LR 2.03.09, which names them; not against their ally, ADVANCED_RULES.md
 * 8 item 9). The opponent is the other side of the battle under way. */
#define SARDAUKAR_HALF_POINTS 4

static int sardaukar_value(const engine_state *st, unsigned owner, unsigned seat, int value)
{
    (void)seat;
    unsigned opponent = st->battle_seat[0] == owner ? st->battle_seat[1] : st->battle_seat[0];
    if (opponent < st->config.n_seats && st->seat[opponent].faction == ENGINE_FACTION_FREMEN)
        return value;
    return SARDAUKAR_HALF_POINTS;
}

/* Rules version 8 on: a Karama may stop it for one battle, before the
 * plans are revealed (FAQ20 pp. 7-8; engine/karama_stops.c, R131): the
 * Sardaukar then count as normal forces. */
static int sardaukar_unstopped(const engine_state *st, unsigned owner, unsigned seat)
{
    (void)owner;
    (void)seat;
    return !engine__karama_stopped(st, ENGINE_ADVANTAGE_EMPEROR_SARDAUKAR);
}

/* Advanced, rules version 7 on: the Emperor's Karama power (LR 1.14.02;
 * docs/RULINGS.md R114), once a game, with a Karama card spent: in the
 * Revival phase up to 3 forces or 1 leader revived free, beyond the
 * normal revival, of the forces at most the one elite the turn still
 * allows (the cap every source shares, R106). Arguments: forces (plain),
 * elite, leader (-1 none); forces or a leader, not both. */
#define KARAMA_REVIVAL_FORCES 3
#define LEADER_NONE (-1)

static int karama_revival_when(const engine_state *st, unsigned owner, unsigned seat)
{
    (void)owner;
    (void)seat;
    return st->phase == ENGINE_PHASE_REVIVAL;
}

/* Any of the seat's leaders in the Tanks ([TO] KarmaFreeRevival; the
 * revival order of LR 1.05.04 binds normal revival only, R114). */
static int karama_leader(const engine_state *st, unsigned owner, int leader)
{
    return leader >= 0 && leader < ENGINE_LEADER_COUNT &&
           engine__leaders[leader].faction == st->seat[owner].faction &&
           st->leader[leader].place == ENGINE_PLACE_TANKS;
}

static unsigned karama_elite_most(const engine_state *st, unsigned owner)
{
    unsigned left = engine__revival_elite_left(st, owner);
    return st->seat[owner].special_tanks < left ? st->seat[owner].special_tanks : left;
}

static engine_verdict karama_revival(engine_verdict_detail *why, engine_state *st,
                                     unsigned owner, const engine_action *act, engine_rng *rng)
{
    (void)rng;
    engine_seat_state *p = &st->seat[owner];
    int plain = act->arg[1], elite = act->arg[2], leader = act->arg[3];
    if (st->karama_power_used & ENGINE_SEAT_BIT(owner))
        return engine__reject(why, ENGINE_REJECT_ALREADY_ANSWERED, 0, act->arg[0]);
    if (!engine__karama_power_ready(st, owner))
        return engine__reject(why, ENGINE_REJECT_NO_KARAMA, -1, 0);
    if (plain > p->tanks)
        return engine__reject(why, ENGINE_REJECT_REVIVAL_TANKS, 1, plain);
    if ((unsigned)elite > karama_elite_most(st, owner))
        return engine__reject(why, ENGINE_REJECT_REVIVAL_TANKS, 2, elite);
    if (plain + elite > KARAMA_REVIVAL_FORCES)
        return engine__reject(why, ENGINE_REJECT_REVIVAL_LIMIT, 1, plain + elite);
    if (leader != LEADER_NONE && (plain + elite > 0 || !karama_leader(st, owner, leader)))
        return engine__reject(why, ENGINE_REJECT_LEADER_NOT_REVIVABLE, 3, leader);
    if (leader == LEADER_NONE && plain + elite == 0)
        return engine__reject(why, ENGINE_REJECT_REVIVAL_LIMIT, 1, 0);
    p->tanks = (uint8_t)(p->tanks - plain);
    p->reserves = (uint8_t)(p->reserves + plain);
    p->special_tanks = (uint8_t)(p->special_tanks - elite);
    p->special_reserves = (uint8_t)(p->special_reserves + elite);
    engine__revival_elite_revived(st, owner, (unsigned)elite);
    if (leader != LEADER_NONE)
        st->leader[leader].place = ENGINE_PLACE_POOL;
    engine__karama_power_spend(st, owner);
    return ENGINE_ACCEPTED;
}

/* Exactly what karama_revival accepts: plain forces alone, with one elite,
 * or one leader. */
static size_t karama_revival_legal(engine_legal *out, size_t cap, const engine_state *st,
                                   unsigned seat, int16_t id)
{
    size_t n = 0;
    if (!engine__karama_power_ready(st, seat))
        return 0;
    const engine_seat_state *p = &st->seat[seat];
    for (unsigned elite = 0; elite <= karama_elite_most(st, seat); elite++) {
        unsigned room = KARAMA_REVIVAL_FORCES - elite;
        unsigned most = p->tanks < room ? p->tanks : room;
        unsigned least = elite ? 0 : 1;
        if (most < least)
            continue;
        engine_legal l;
        engine__legal_init(&l, ENGINE_ACTION_POWER, (uint8_t)seat);
        l.lo[0] = l.hi[0] = id;
        l.lo[1] = (int16_t)least;
        l.hi[1] = (int16_t)most;
        l.lo[2] = l.hi[2] = (int16_t)elite;
        l.lo[3] = l.hi[3] = LEADER_NONE;
        engine__legal_push(out, cap, &n, &l);
    }
    for (int leader = 0; leader < ENGINE_LEADER_COUNT; leader++)
        if (karama_leader(st, seat, leader)) {
            engine_legal l;
            engine__legal_init(&l, ENGINE_ACTION_POWER, (uint8_t)seat);
            l.lo[0] = l.hi[0] = id;
            l.lo[3] = l.hi[3] = (int16_t)leader;
            engine__legal_push(out, cap, &n, &l);
        }
    return n;
}

static const engine_power_form karama_revival_form = {
    .slug = "emperor_karama_revival", .n_args = 3,
    .arg_name = {"forces", "elite", "leader"},
    .arg_type = {ENGINE_ARG_INT, ENGINE_ARG_INT, ENGINE_ARG_LEADER},
    .lo = {0, 0, LEADER_NONE}, .hi = {KARAMA_REVIVAL_FORCES, 1, ENGINE_LEADER_COUNT - 1},
    .fallback = {KARAMA_REVIVAL_FORCES, 1, LEADER_NONE},
};

static const engine__power_row rows[] = {
    /* E1: the other factions pay the Emperor for the cards they buy. */
    {.point = ENGINE__POINT_CARD_PAYEE, .faction = ENGINE_FACTION_EMPEROR, .to = ENGINE__TO_OWNER,
     .advantage = ENGINE_ADVANTAGE_EMPEROR_CARD_PAYMENT, .karama = ENGINE__KARAMA_STANDING, .source = "LR 2.03.04"},
    /* E2: the Emperor may pay for up to 3 extra revivals of its ally... */
    {.point = ENGINE__POINT_ALLY_REVIVAL_PAID, .faction = ENGINE_FACTION_EMPEROR,
     .to = ENGINE__TO_OWNER, .advantage = ENGINE_ADVANTAGE_EMPEROR_ALLY_REVIVAL, .karama = ENGINE__KARAMA_CANCELS, .retake = ENGINE_ACTION_EMPEROR_REVIVAL,
     .source = "LR 2.03.07"},
    /* Advanced: the Sardaukar in battle (in force from rules version 5). */
    {.point = ENGINE__POINT_ELITE_VALUE, .faction = ENGINE_FACTION_EMPEROR, .to = ENGINE__TO_OWNER,
     .game = ENGINE__GAME_ADVANCED, .since = ENGINE__RULE_SINCE(ENGINE__RULE_ROOM_OPTIONS),
     .until = ENGINE__RULE_SINCE(ENGINE__RULE_ADVANCED_KARAMA_STOPS),
     .fn = sardaukar_value, .source = "LR 2.03.08-09"},
    {.point = ENGINE__POINT_ELITE_VALUE, .faction = ENGINE_FACTION_EMPEROR, .to = ENGINE__TO_OWNER,
     .game = ENGINE__GAME_ADVANCED, .since = ENGINE__RULE_SINCE(ENGINE__RULE_ADVANCED_KARAMA_STOPS),
     .advantage = ENGINE_ADVANTAGE_EMPEROR_SARDAUKAR,
     .karama = ENGINE__KARAMA_CANCELS | ENGINE__KARAMA_LASTS, .retake = ENGINE_ACTION_NONE,
     .when = sardaukar_unstopped, .fn = sardaukar_value, .source = "LR 2.03.08-09; FAQ20 pp. 7-8"},
    /* Advanced, rules version 7 on: the faction Karama power. */
    {.point = ENGINE__POINT_POWER, .faction = ENGINE_FACTION_EMPEROR, .to = ENGINE__TO_OWNER,
     .game = ENGINE__GAME_ADVANCED, .since = ENGINE__RULE_SINCE(ENGINE__RULE_ADVANCED_KARAMA_EMPEROR),
     .when = karama_revival_when, .form = &karama_revival_form, .use = karama_revival,
     .legal = karama_revival_legal, .source = "LR 1.14.02"},
    /* ...which the ally then revives beyond the limit. */
    {.point = ENGINE__POINT_REVIVAL_LIMIT, .faction = ENGINE_FACTION_EMPEROR, .to = ENGINE__TO_ALLY,
     .fn = ally_extra_revivals, .source = "LR 2.03.07"},
};

const engine__power_family engine__powers_emperor = {rows, sizeof rows / sizeof rows[0]};
