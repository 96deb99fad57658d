/*
 * nexus_guild.c - the panels of the Spacing Guild Nexus card (E3 p.11; the
 * digest's EXPANSIONS_AND_NEXUS.md 5.2 rows 16-18; docs/RULINGS.md R85,
 * R92) as power rows: engine/points.c offers them to the seat holding the
 * card, in the mode the card has for it. Secret Ally (row 18) is built for
 * its first alternative: the holder's shipment of its turn, from its
 * reserves, at the Guild's rates (half price, rounded up), paid to the
 * bank. Its cross-ship and ship-back alternatives, Betrayal (16, a window
 * on another's payment) and Cunning (17) are named and refused with their
 * rows. A row never mutates but through its `use`.
 */
#include "engine/internal.h"

static unsigned guild_rate(unsigned loc, unsigned forces)
{
    return (engine__ship_price(loc) * forces + 1) / 2;
}

/* The most forces of its reserves the seat can pay for at `loc`. */
static unsigned most_at_rates(const engine_state *st, unsigned seat, unsigned loc)
{
    unsigned n = st->seat[seat].reserves;
    while (n > 0 && guild_rate(loc, n) > st->seat[seat].spice)
        n--;
    return n;
}

/* Row 18 (first alternative): "use Guild shipping prices" as the
 * shipment of its turn; the Guild is absent, so the bank is paid. */
static engine_verdict secret_ally(engine_verdict_detail *why, engine_state *st, unsigned owner,
                                  const engine_action *act, engine_rng *rng)
{
    (void)rng;
    return engine__nexus_ship(why, st, owner, act, guild_rate, 1);
}

static size_t secret_ally_legal(engine_legal *out, size_t cap, const engine_state *st,
                                unsigned seat, int16_t id)
{
    return engine__nexus_ship_legal(out, cap, st, seat, id, most_at_rates);
}

static const engine_power_form betrayal_form = {.slug = "nexus_guild_betrayal"};
static const engine_power_form cunning_form = {.slug = "nexus_guild_cunning"};
static const engine_power_form secret_ally_form = {
    .slug = "nexus_guild_secret_ally", .n_args = 2,
    .arg_name = {"to", "forces"}, .arg_type = {ENGINE_ARG_LOCATION, ENGINE_ARG_INT},
    .lo = {0, 1}, .hi = {ENGINE_LOCATION_HMS - 1, 20}, .fallback = {0, 1},
};

static const engine__power_row rows[] = {
    ENGINE__NEXUS_NOT_BUILT(ENGINE_FACTION_GUILD, ENGINE_NEXUS_BETRAYAL, &betrayal_form),
    ENGINE__NEXUS_NOT_BUILT(ENGINE_FACTION_GUILD, ENGINE_NEXUS_CUNNING, &cunning_form),
    {.point = ENGINE__POINT_POWER, .faction = ENGINE_FACTION_GUILD, .to = ENGINE__TO_OWNER,
     .since = ENGINE__RULE_SINCE(ENGINE__RULE_NEXUS_PANELS), .nexus = 1 + ENGINE_NEXUS_SECRET_ALLY,
     .when = engine__nexus_may_ship,
     .source = "E3 p.11, Spacing Guild Nexus card (Secret Ally); digest 5.2 row 18",
     .form = &secret_ally_form, .use = secret_ally, .legal = secret_ally_legal},
};

const engine__power_family engine__nexus_guild = {rows, sizeof rows / sizeof rows[0]};
