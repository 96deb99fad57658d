/*
 * powers_fremen.c - the Fremen's powers as rows (internal.h,
 * engine__power_row; DUNE_RULES_DIGEST.md 3.3, LR 2.04): what the phase
 * files ask of them at their rule points (engine/points.c). A row holds
 * facts and small functions over the state; it never mutates the state
 * and never names another family's faction (but for the factions the
 * special victory bars from Tuek's Sietch, which the rule names).
 */
#include "engine/internal.h"

#define SEAT_NONE 0xFF
#define ALLY_FREE_REVIVALS 3
#define MOVE_TERRITORIES 2
#define FEDAYKIN_TOKENS 3 /* the Fremen's starred tokens (LR 2.04.18) */

/* The Fremen may send reserves to The Great Flat or any territory within
 * two of it (LR 2.04.05; [TO] lists them, DUNE_RULES_DIGEST.md 3.3). */
static const uint8_t send_territories[] = {
    ENGINE_TERRITORY_THE_GREAT_FLAT, ENGINE_TERRITORY_THE_GREATER_FLAT,
    ENGINE_TERRITORY_FUNERAL_PLAIN, ENGINE_TERRITORY_BIGHT_OF_THE_CLIFF,
    ENGINE_TERRITORY_SIETCH_TABR, ENGINE_TERRITORY_PLASTIC_BASIN,
    ENGINE_TERRITORY_ROCK_OUTCROPPINGS, ENGINE_TERRITORY_BROKEN_LAND,
    ENGINE_TERRITORY_TSIMPO, ENGINE_TERRITORY_HAGGA_BASIN, ENGINE_TERRITORY_POLAR_SINK,
    ENGINE_TERRITORY_WIND_PASS, ENGINE_TERRITORY_WIND_PASS_NORTH,
    ENGINE_TERRITORY_CIELAGO_WEST, ENGINE_TERRITORY_FALSE_WALL_WEST,
    ENGINE_TERRITORY_HABBANYA_ERG,
};

/* `loc` (a location on the board) is one the Fremen may send to. */
static int may_send_to(const engine_state *st, unsigned owner, unsigned seat, int loc)
{
    (void)st;
    (void)owner;
    (void)seat;
    unsigned t = engine__locations[loc].territory;
    for (unsigned i = 0; i < sizeof send_territories; i++)
        if (send_territories[i] == t)
            return 1;
    return 0;
}

static int at_least(int value, int floor)
{
    return value < floor ? floor : value;
}

static int move_allowance(const engine_state *st, unsigned owner, unsigned seat, int value)
{
    (void)st;
    (void)owner;
    (void)seat;
    return at_least(value, MOVE_TERRITORIES);
}

/* Advanced: half the forces in a sector the storm enters, rounded up;
 * from rules version 7 also half a send landing in the storm. */
static int storm_losses(const engine_state *st, unsigned owner, unsigned seat, int value)
{
    (void)st;
    (void)owner;
    (void)seat;
    return (value + 1) / 2;
}

/* Under rules version 2 the worm always spared the ally; from version 3
 * on only when the Fremen decided so for this worm. */
static int ally_spared(const engine_state *st, unsigned owner, unsigned seat)
{
    (void)owner;
    (void)seat;
    return !engine__rule(st, ENGINE__RULE_FREMEN_CHOOSE_ALLY_WORM) ||
           (st->fremen_gifts & ENGINE_GIFT_WORM);
}

static int revival_given(const engine_state *st, unsigned owner, unsigned seat)
{
    (void)owner;
    (void)seat;
    return (st->fremen_gifts & ENGINE_GIFT_REVIVAL) != 0;
}

static int ally_free_revivals(const engine_state *st, unsigned owner, unsigned seat, int value)
{
    (void)st;
    (void)owner;
    (void)seat;
    return at_least(value, ALLY_FREE_REVIVALS);
}

/* The Fremen are asked about their ally's free revivals when it has
 * forces in the Tanks and fewer free revivals of its own: public facts. */
static int asks_ally_revival(const engine_state *st, unsigned owner, unsigned seat, int value)
{
    (void)seat;
    (void)value;
    unsigned ally = st->ally[owner];
    if (ally == SEAT_NONE)
        return 0;
    return st->seat[ally].tanks + st->seat[ally].special_tanks > 0 &&
           engine__factions[st->seat[ally].faction].free_revival < ALLY_FREE_REVIVALS;
}

/* Sietch Tabr and Habbanya Sietch held by none but the Fremen, and no
 * Atreides, Harkonnen nor Emperor in Tuek's Sietch. */
static int special_victory(const engine_state *st, unsigned owner, unsigned seat, int value)
{
    (void)seat;
    (void)value;
    for (unsigned s = 0; s < st->config.n_seats; s++)
        for (unsigned t = 0; t < ENGINE_TERRITORY_COUNT && s != owner; t++)
            if (engine_territory_is_fremen_sietch(t) && engine__occupies(st, t, s))
                return 0;
    static const uint8_t barred[] = {ENGINE_FACTION_ATREIDES, ENGINE_FACTION_HARKONNEN,
                                     ENGINE_FACTION_EMPEROR};
    for (unsigned i = 0; i < sizeof barred; i++) {
        int s = engine__seat_of(st, barred[i]);
        if (s >= 0 && engine__occupies(st, ENGINE_TERRITORY_TUEKS_SIETCH, (unsigned)s))
            return 0;
    }
    return ENGINE_VICTORY_FREMEN;
}

static int default_victory(const engine_state *st, unsigned owner, unsigned seat, int value)
{
    (void)st;
    (void)owner;
    (void)seat;
    (void)value;
    return ENGINE_VICTORY_DEFAULT_FREMEN;
}

/* Advanced: a Fedaykin is worth two forces, against everyone (LR 2.04.18;
 * half points). */
#define FEDAYKIN_HALF_POINTS 4

static int fedaykin_value(const engine_state *st, unsigned owner, unsigned seat, int value)
{
    (void)st;
    (void)owner;
    (void)seat;
    (void)value;
    return FEDAYKIN_HALF_POINTS;
}

/* Rules version 8 on a Karama may stop, each for one battle and before
 * the plans are revealed, the Fedaykin's worth (they count as normal
 * forces) and BATTLE HARDENED (the Fremen pay for full strength): FAQ20
 * pp. 7-8, engine/karama_stops.c, R131-R132. */
static int fedaykin_unstopped(const engine_state *st, unsigned owner, unsigned seat)
{
    (void)owner;
    (void)seat;
    return !engine__karama_stopped(st, ENGINE_ADVANTAGE_FREMEN_FEDAYKIN);
}

static int hardened_unstopped(const engine_state *st, unsigned owner, unsigned seat)
{
    (void)owner;
    (void)seat;
    return !engine__karama_stopped(st, ENGINE_ADVANTAGE_FREMEN_BATTLE_HARDENED);
}

/* Advanced: every worm of a pile's blow after its first is placed by the
 * Fremen in a sand territory of their choice (LR 2.04.15; sand per
 * DUNE_RULES_DIGEST.md 1.2, the Imperial Basin included: every territory
 * a worm can appear in). Its one argument names the territory; the step
 * waiting on it offers one family per sand territory. */
static const engine_power_form place_worm_form = {
    .slug = "place_worm",
    .n_args = 1,
    .arg_name = {"territory"},
    .arg_type = {ENGINE_ARG_TERRITORY},
    .lo = {0},
    .hi = {ENGINE_TERRITORY_COUNT - 1},
    .fallback = {ENGINE_TERRITORY_THE_GREAT_FLAT},
};

static int is_sand(unsigned territory)
{
    return territory < ENGINE_TERRITORY_COUNT && !engine__territories[territory].is_worm_safe;
}

static int placing(const engine_state *st, unsigned owner, unsigned seat)
{
    (void)owner;
    (void)seat;
    return engine__worm_placing(st);
}

/* One family of power `slug` per sand territory, its one argument. */
static size_t sand_families(engine_legal *out, size_t cap, uint8_t seat, const char *slug)
{
    size_t n = 0;
    for (unsigned t = 0; t < ENGINE_TERRITORY_COUNT; t++) {
        if (!is_sand(t))
            continue;
        engine_legal l;
        engine__legal_init(&l, ENGINE_ACTION_POWER, seat);
        l.lo[0] = l.hi[0] = engine_power_id(slug);
        l.lo[1] = l.hi[1] = (int16_t)t;
        engine__legal_push(out, cap, &n, &l);
    }
    return n;
}

static size_t legal_place_worm(engine_legal *out, size_t cap, const engine_state *st, uint8_t seat)
{
    (void)st;
    return sand_families(out, cap, seat, place_worm_form.slug);
}

/* Rules version 8 on a Karama may stop one placement, when the Fremen
 * make it (FAQ20 pp. 7-8): the placement is held in a Karama window, and
 * stopped the worm strikes where the pile's territory card lies, as a
 * worm no one places (LR 1.02.05; docs/RULINGS.md R135). */
static engine_verdict place_worm(engine_verdict_detail *why, engine_state *st, unsigned owner,
                                 const engine_action *act, engine_rng *rng)
{
    if (!is_sand((unsigned)act->arg[1]))
        return engine__reject(why, ENGINE_REJECT_ARG_OUT_OF_RANGE, 1, act->arg[1]);
    unsigned a = engine__point_owner_advantage(st, ENGINE__POINT_WORM_PLACEMENT);
    if (a != ENGINE_ADVANTAGE_NONE) {
        if (engine__karama_hold(st, act, ENGINE_ADVANTAGE_BIT(a), owner))
            return ENGINE_ACCEPTED;
        if (engine__karama_consume(st, a)) {
            engine__worm_unplaced(st, rng);
            return ENGINE_ACCEPTED;
        }
    }
    engine__worm_placed(st, (unsigned)act->arg[1], rng);
    return ENGINE_ACCEPTED;
}

/* Advanced, rules version 7 on: the Fremen's Karama power (LR 1.14.03;
 * docs/RULINGS.md R115), once a game with a Karama card spent: asked as
 * the Spice Blow begins from turn 2, a worm in any sand territory, a
 * normal worm (fremen_karama_worm), or none (fremen_karama_worm_pass,
 * always legal: being asked says nothing of the hand). */
static const engine_power_form karama_worm_form = {
    .slug = "fremen_karama_worm",
    .n_args = 1,
    .arg_name = {"territory"},
    .arg_type = {ENGINE_ARG_TERRITORY},
    .lo = {0},
    .hi = {ENGINE_TERRITORY_COUNT - 1},
    .fallback = {ENGINE_TERRITORY_THE_GREAT_FLAT},
};

static const engine_power_form karama_worm_pass_form = {.slug = "fremen_karama_worm_pass"};

static int karama_worm_asking(const engine_state *st, unsigned owner, unsigned seat)
{
    (void)owner;
    (void)seat;
    return engine__karama_worm_asking(st);
}

static size_t legal_karama_worm(engine_legal *out, size_t cap, const engine_state *st,
                                uint8_t seat)
{
    return engine__karama_power_ready(st, seat) ? sand_families(out, cap, seat, karama_worm_form.slug)
                                                : 0;
}

static size_t legal_karama_worm_pass(engine_legal *out, size_t cap, const engine_state *st,
                                     uint8_t seat)
{
    (void)st;
    size_t n = 0;
    int id = engine_power_id(karama_worm_pass_form.slug);
    engine__legal_push1(out, cap, &n, ENGINE_ACTION_POWER, seat, id, id, 0, 0);
    return n;
}

/* Advanced (rules version 7): where the storm takes half, rounded up, of
 * Fremen tokens of both kinds and which is a choice, the Fremen say how
 * many Fedaykin die (LR 2.04.16; D5: each one token); the step waiting
 * on it offers exactly the counts possible. 0: plain forces first (a
 * bot's default, clamped to the family). */
static const engine_power_form storm_losses_form = {
    .slug = "fremen_storm_losses",
    .n_args = 1,
    .arg_name = {"fedaykin"},
    .arg_type = {ENGINE_ARG_INT},
    .lo = {0},
    .hi = {FEDAYKIN_TOKENS},
    .fallback = {0},
};

static int choosing_losses(const engine_state *st, unsigned owner, unsigned seat)
{
    (void)owner;
    (void)seat;
    unsigned lo, hi;
    return engine__storm_loss_range(st, &lo, &hi);
}

static size_t legal_storm_losses(engine_legal *out, size_t cap, const engine_state *st, uint8_t seat)
{
    size_t n = 0;
    unsigned lo, hi;
    if (!engine__storm_loss_range(st, &lo, &hi))
        return 0;
    int id = engine_power_id(storm_losses_form.slug);
    engine__legal_push1(out, cap, &n, ENGINE_ACTION_POWER, seat, id, id, (int)lo, (int)hi);
    return n;
}

static engine_verdict karama_worm(engine_verdict_detail *why, engine_state *st, unsigned owner,
                                  const engine_action *act, engine_rng *rng)
{
    int t = act->arg[1];
    if (!is_sand((unsigned)t))
        return engine__reject(why, ENGINE_REJECT_ARG_OUT_OF_RANGE, 1, t);
    if (!engine__karama_power_ready(st, owner))
        return engine__reject(why, ENGINE_REJECT_NO_KARAMA, 1, t);
    engine__karama_power_spend(st, owner);
    engine__karama_worm(st, t, rng);
    return ENGINE_ACCEPTED;
}

static engine_verdict karama_worm_pass(engine_verdict_detail *why, engine_state *st,
                                       unsigned owner, const engine_action *act, engine_rng *rng)
{
    (void)why;
    (void)owner;
    (void)act;
    engine__karama_worm(st, -1, rng);
    return ENGINE_ACCEPTED;
}

static engine_verdict storm_losses_chosen(engine_verdict_detail *why, engine_state *st,
                                          unsigned owner, const engine_action *act,
                                          engine_rng *rng)
{
    (void)owner;
    unsigned lo, hi;
    if (!engine__storm_loss_range(st, &lo, &hi) || act->arg[1] < (int)lo || act->arg[1] > (int)hi)
        return engine__reject(why, ENGINE_REJECT_ARG_OUT_OF_RANGE, 1, act->arg[1]);
    engine__storm_loss_chosen(st, (unsigned)act->arg[1], rng);
    return ENGINE_ACCEPTED;
}

#define FREMEN .faction = ENGINE_FACTION_FREMEN
#define FROM(change) .since = ENGINE__RULE_SINCE(ENGINE__RULE_##change)
#define UNTIL(change) .until = ENGINE__RULE_SINCE(ENGINE__RULE_##change)

static const engine__power_row rows[] = {
    {.point = ENGINE__POINT_SETUP_PLACEMENT, FREMEN, .to = ENGINE__TO_OWNER,
     .source = "LR 2.04.02"},
    /* From rules version 7 a Karama may stop it (all die; FAQ20 pp. 7-8). */
    {.point = ENGINE__POINT_STORM_LOSSES, FREMEN, .to = ENGINE__TO_OWNER,
     .game = ENGINE__GAME_ADVANCED, .advantage = ENGINE_ADVANTAGE_FREMEN_STORM_LOSSES,
     .karama = ENGINE__KARAMA_STANDING, .fn = storm_losses, .source = "LR 2.04.16"},
    /* Advanced (rules version 7): which tokens the storm takes is theirs to say. */
    {.point = ENGINE__POINT_STORM_LOSS_CHOICE, FREMEN, .to = ENGINE__TO_OWNER,
     .game = ENGINE__GAME_ADVANCED, FROM(ADVANCED_FREMEN_STORM_CHOICE), .source = "LR 2.04.16"},
    {.point = ENGINE__POINT_POWER, FREMEN, .to = ENGINE__TO_OWNER, .game = ENGINE__GAME_ADVANCED,
     FROM(ADVANCED_FREMEN_STORM_CHOICE), .when = choosing_losses, .form = &storm_losses_form,
     .use = storm_losses_chosen, .decision = legal_storm_losses, .source = "LR 2.04.16"},
    /* Advanced (rules version 7): the send may land in the storm, half of it lost. */
    {.point = ENGINE__POINT_SEND_INTO_STORM, FREMEN, .to = ENGINE__TO_OWNER,
     .game = ENGINE__GAME_ADVANCED, FROM(ADVANCED_FREMEN_MIGRATION), .fn = storm_losses,
     .source = "LR 2.04.17"},
    {.point = ENGINE__POINT_STORM_DECK, FREMEN, .to = ENGINE__TO_OWNER,
     .game = ENGINE__GAME_ADVANCED, UNTIL(ADVANCED_KARAMA_STOPS), .source = "LR 2.04.13"},
    /* From rules version 8 a Karama may stop the look at the next card,
     * drawn all the same (FAQ20 pp. 7-8; R134). */
    {.point = ENGINE__POINT_STORM_DECK, FREMEN, .to = ENGINE__TO_OWNER,
     .game = ENGINE__GAME_ADVANCED, FROM(ADVANCED_KARAMA_STOPS),
     .advantage = ENGINE_ADVANTAGE_FREMEN_STORM_PEEK,
     .karama = ENGINE__KARAMA_STANDING | ENGINE__KARAMA_LASTS, .source = "LR 2.04.13-14"},
    /* F2, F3: the worm spares the Fremen, and their ally. */
    {.point = ENGINE__POINT_WORM_STRIKES, FREMEN, .to = ENGINE__TO_OWNER,
     .advantage = ENGINE_ADVANTAGE_FREMEN_WORM, .karama = ENGINE__KARAMA_STANDING, .source = "LR 2.04.07"},
    {.point = ENGINE__POINT_WORM_STRIKES, FREMEN, .to = ENGINE__TO_ALLY,
     .advantage = ENGINE_ADVANTAGE_FREMEN_ALLY_WORM, .karama = ENGINE__KARAMA_STANDING | ENGINE__KARAMA_BY_ALLY, .when = ally_spared,
     .source = "LR 2.04.10"},
    {.point = ENGINE__POINT_WORM_ALLY_CHOICE, FREMEN, .to = ENGINE__TO_OWNER,
     FROM(FREMEN_CHOOSE_ALLY_WORM), .source = "LR 2.04.10"},
    {.point = ENGINE__POINT_WORM_RIDE, FREMEN, .to = ENGINE__TO_OWNER, .source = "LR 2.04.08"},
    /* Advanced (rules version 6): a pile's further worms are the Fremen's to place. */
    {.point = ENGINE__POINT_WORM_PLACEMENT, FREMEN, .to = ENGINE__TO_OWNER,
     .game = ENGINE__GAME_ADVANCED, FROM(ADVANCED_FREMEN_WORMS), UNTIL(ADVANCED_KARAMA_STOPS),
     .source = "LR 2.04.15"},
    /* From rules version 8 a Karama may stop one placement (FAQ20 pp. 7-8; R135). */
    {.point = ENGINE__POINT_WORM_PLACEMENT, FREMEN, .to = ENGINE__TO_OWNER,
     .game = ENGINE__GAME_ADVANCED, FROM(ADVANCED_KARAMA_STOPS),
     .advantage = ENGINE_ADVANTAGE_FREMEN_WORM_PLACEMENT, .karama = ENGINE__KARAMA_STANDING,
     .source = "LR 2.04.15; FAQ20 pp. 7-8"},
    {.point = ENGINE__POINT_POWER, FREMEN, .to = ENGINE__TO_OWNER, .game = ENGINE__GAME_ADVANCED,
     FROM(ADVANCED_FREMEN_WORMS), .when = placing, .form = &place_worm_form, .use = place_worm,
     .decision = legal_place_worm, .source = "LR 2.04.15"},
    /* Advanced (rules version 7): the faction Karama power, a worm. */
    {.point = ENGINE__POINT_KARAMA_WORM, FREMEN, .to = ENGINE__TO_OWNER,
     .game = ENGINE__GAME_ADVANCED, FROM(ADVANCED_KARAMA_FREMEN), .source = "LR 1.14.03"},
    {.point = ENGINE__POINT_POWER, FREMEN, .to = ENGINE__TO_OWNER, .game = ENGINE__GAME_ADVANCED,
     FROM(ADVANCED_KARAMA_FREMEN), .when = karama_worm_asking, .form = &karama_worm_form,
     .use = karama_worm, .decision = legal_karama_worm, .source = "LR 1.14.03"},
    {.point = ENGINE__POINT_POWER, FREMEN, .to = ENGINE__TO_OWNER, .game = ENGINE__GAME_ADVANCED,
     FROM(ADVANCED_KARAMA_FREMEN), .when = karama_worm_asking, .form = &karama_worm_pass_form,
     .use = karama_worm_pass, .decision = legal_karama_worm_pass, .source = "LR 1.14.03"},
    /* F4: the ally revives 3 free; from version 3 on when the Fremen give it. */
    {.point = ENGINE__POINT_ALLY_REVIVAL_GIFT, FREMEN, .to = ENGINE__TO_OWNER,
     FROM(FREMEN_CHOOSE_ALLY_REVIVAL), .fn = asks_ally_revival, .source = "LR 2.04.11"},
    {.point = ENGINE__POINT_FREE_REVIVAL, FREMEN, .to = ENGINE__TO_ALLY,
     UNTIL(FREMEN_CHOOSE_ALLY_REVIVAL), .advantage = ENGINE_ADVANTAGE_FREMEN_ALLY_REVIVAL, .karama = ENGINE__KARAMA_CANCELS | ENGINE__KARAMA_BY_ALLY,
     .fn = ally_free_revivals, .source = "LR 2.04.11"},
    {.point = ENGINE__POINT_FREE_REVIVAL, FREMEN, .to = ENGINE__TO_ALLY,
     FROM(FREMEN_CHOOSE_ALLY_REVIVAL), .advantage = ENGINE_ADVANTAGE_FREMEN_ALLY_REVIVAL, .karama = ENGINE__KARAMA_CANCELS | ENGINE__KARAMA_BY_ALLY,
     .when = revival_given, .fn = ally_free_revivals, .source = "LR 2.04.11"},
    /* The Fremen never ship: they send their reserves free near the Great Flat. */
    {.point = ENGINE__POINT_SHIP_SEND, FREMEN, .to = ENGINE__TO_OWNER, .fn = may_send_to,
     .source = "LR 2.04.05"},
    /* F1: two territories a move. */
    {.point = ENGINE__POINT_MOVE_ALLOWANCE, FREMEN, .to = ENGINE__TO_OWNER,
     .advantage = ENGINE_ADVANTAGE_FREMEN_MOVE, .karama = ENGINE__KARAMA_CANCELS, .fn = move_allowance, .source = "LR 2.04.06"},
    /* Advanced battle (from rules version 5): Fedaykin worth two, and every
     * Fremen force at full strength without spice (BATTLE HARDENED). */
    {.point = ENGINE__POINT_ELITE_VALUE, FREMEN, .to = ENGINE__TO_OWNER,
     .game = ENGINE__GAME_ADVANCED, FROM(ROOM_OPTIONS), UNTIL(ADVANCED_KARAMA_STOPS),
     .fn = fedaykin_value, .source = "LR 2.04.18"},
    {.point = ENGINE__POINT_BATTLE_HARDENED, FREMEN, .to = ENGINE__TO_OWNER,
     .game = ENGINE__GAME_ADVANCED, FROM(ROOM_OPTIONS), UNTIL(ADVANCED_KARAMA_STOPS),
     .source = "LR 2.04.21"},
    /* From rules version 8 a Karama may stop either for one battle (R131-R132). */
    {.point = ENGINE__POINT_ELITE_VALUE, FREMEN, .to = ENGINE__TO_OWNER,
     .game = ENGINE__GAME_ADVANCED, FROM(ADVANCED_KARAMA_STOPS),
     .advantage = ENGINE_ADVANTAGE_FREMEN_FEDAYKIN,
     .karama = ENGINE__KARAMA_CANCELS | ENGINE__KARAMA_LASTS, .retake = ENGINE_ACTION_NONE,
     .when = fedaykin_unstopped, .fn = fedaykin_value, .source = "LR 2.04.18; FAQ20 pp. 7-8"},
    {.point = ENGINE__POINT_BATTLE_HARDENED, FREMEN, .to = ENGINE__TO_OWNER,
     .game = ENGINE__GAME_ADVANCED, FROM(ADVANCED_KARAMA_STOPS),
     .advantage = ENGINE_ADVANTAGE_FREMEN_BATTLE_HARDENED,
     .karama = ENGINE__KARAMA_CANCELS | ENGINE__KARAMA_LASTS, .retake = ENGINE_ACTION_NONE,
     .when = hardened_unstopped, .source = "LR 2.04.21; FAQ20 pp. 7-8"},
    /* The special victory first, the Guild's default second, the Fremen's last. */
    {.point = ENGINE__POINT_LAST_TURN, FREMEN, .to = ENGINE__TO_OWNER, .order = 0,
     .fn = special_victory, .source = "LR 2.04.09"},
    {.point = ENGINE__POINT_LAST_TURN, FREMEN, .to = ENGINE__TO_OWNER, .order = 2,
     .fn = default_victory, .source = "LR 2.04.09"},
};

const engine__power_family engine__powers_fremen = {rows, sizeof rows / sizeof rows[0]};
