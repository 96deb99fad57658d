/*
 * nexus_bene_gesserit.c - the panels of the Bene Gesserit Nexus card (E3
 * p.11; the digest's EXPANSIONS_AND_NEXUS.md 5.2 rows 4-6; docs/RULINGS.md
 * R121, R150; the card's readable reference is engine/data/nexus_cards.c)
 * as power and window rows: engine/points.c offers them to the seat
 * holding the card, in the mode the card has for it. The Betrayal (row 4)
 * answers the neutral Nexus window from rules version 7
 * (engine/nexus_window.c). The Secret Ally (row 6, from rules version 8):
 * with the Bene Gesserit absent, a battle whose sides hold a Nexus card
 * opens one window before the plans and the prescience, asking each side
 * that holds one the same question (pass, or Voice the opponent); only the
 * holder of this card may cast, and the Voice is an effect record binding
 * the opponent's plan as the faction's own does. The Cunning (row 5) is
 * named and refused with its row. A row never mutates but through its
 * `use` or `answer`, and never names another card's panel.
 */
#include "engine/internal.h"

#define SEAT_NONE 0xFF

static const engine_power_form voice_form = {
    .slug = "nexus_voice", .n_args = 2,
    .arg_name = {"must", "class"}, .arg_type = {ENGINE_ARG_INT, ENGINE_ARG_INT},
    .lo = {0, ENGINE_VOICE_NONE}, .hi = {1, ENGINE_VOICE_CLASS_COUNT - 1},
    .fallback = {0, ENGINE_VOICE_NONE}, /* class none: pass */
};

/* 1 if `seat` holds this card as its Secret Ally. */
static int holds_secret_ally(const engine_state *st, unsigned seat)
{
    return engine__nexus_holds_as(st, seat, ENGINE_FACTION_BENE_GESSERIT, ENGINE_NEXUS_SECRET_ALLY);
}

/* From public facts alone, whether `seat` could hold this card as its
 * Secret Ally, and its standing policy asks it at a Voice. */
static int could_voice(const engine_state *st, unsigned seat)
{
    return !(st->nexus_quiet[seat] & (1u << ENGINE_NEXUS_AT_VOICE)) &&
           engine__nexus_could_hold(st, seat, ENGINE_FACTION_BENE_GESSERIT,
                                    ENGINE_NEXUS_SECRET_ALLY);
}

int engine__nexus_voice_ask(engine_state *st)
{
    if (!engine__nexus_in_force(st, ENGINE__RULE_NEXUS_BORROWED_VOICE))
        return 0;
    uint16_t asked = 0;
    for (unsigned i = 0; i < 2; i++)
        if (st->battle_seat[i] < st->config.n_seats && could_voice(st, st->battle_seat[i]))
            asked |= (uint16_t)ENGINE_SEAT_BIT(st->battle_seat[i]);
    return asked != 0 && engine__window_open(st, engine_window_id(voice_form.slug),
                                             st->battle_seat[0], st->battle_seat[0], NULL,
                                             asked) != NULL;
}

/* Row 6: "Voice your opponent" (R150): the command list of the faction's
 * own (any class, must or must not); class none passes. Cast at once: the
 * other side asked holds no such card. */
static engine_verdict voice_answer(engine_verdict_detail *why, engine_state *st, engine_frame *f,
                                   const engine_action *act, engine_rng *rng)
{
    (void)f;
    (void)rng;
    int must = act->arg[1], vclass = act->arg[2];
    if (vclass == ENGINE_VOICE_NONE)
        return must == 0 ? ENGINE_ACCEPTED
                         : engine__reject(why, ENGINE_REJECT_ARG_OUT_OF_RANGE, 1, must);
    if (!holds_secret_ally(st, act->seat))
        return engine__reject(why, ENGINE_REJECT_CARD_NOT_HELD, 2, vclass);
    unsigned side = st->battle_seat[0] == act->seat ? 0u : 1u;
    engine_effect e = {ENGINE_EFFECT_NEXUS_VOICE, ENGINE_FACTION_BENE_GESSERIT,
                       st->battle_seat[1 - side], (uint8_t)vclass, ENGINE_EXPIRY_BATTLE,
                       (int16_t)must};
    if (engine_effect_find(st, ENGINE_EFFECT_NEXUS_VOICE) != NULL ||
        engine__effect_add(st, &e) != 0)
        return engine__reject(why, ENGINE_REJECT_WRONG_STEP, -1, 0);
    engine__nexus_spend(st, act->seat);
    return ENGINE_ACCEPTED;
}

/* Pass for every seat asked; the Voice's commands for the holder alone
 * (its legal actions are its own). */
static size_t voice_legal(engine_legal *out, size_t cap, const engine_state *st, unsigned seat,
                          int16_t id)
{
    size_t n = 0;
    engine_legal l;
    engine__legal_init(&l, ENGINE_ACTION_ANSWER, (uint8_t)seat);
    l.lo[0] = l.hi[0] = id;
    engine__legal_push(out, cap, &n, &l);
    if (holds_secret_ally(st, seat)) {
        l.hi[1] = 1;
        l.lo[2] = ENGINE_VOICE_NONE + 1;
        l.hi[2] = ENGINE_VOICE_CLASS_COUNT - 1;
        engine__legal_push(out, cap, &n, &l);
    }
    return n;
}

/* Every side asked has answered: the prescience next, as after the
 * faction's own Voice. */
static void voice_close(engine_state *st, const engine_frame *f, const engine_action *answer,
                        engine_rng *rng)
{
    (void)f;
    (void)answer;
    (void)rng;
    engine__ask_prescience(st);
}

static const engine_power_form betrayal_form = {.slug = "nexus_bene_gesserit_betrayal"};
static const engine_power_form cunning_form = {.slug = "nexus_bene_gesserit_cunning"};
static const engine_power_form secret_ally_form = {.slug = "nexus_bene_gesserit_secret_ally"};

static const engine__power_row rows[] = {
    /* Betrayal (row 4): stops one Voice, in the neutral Nexus window from rules
     * version 7 (engine/nexus_window.c); until then named, not built */
    ENGINE__NEXUS_NOT_BUILT_UNTIL_WINDOWS(ENGINE_FACTION_BENE_GESSERIT, ENGINE_NEXUS_BETRAYAL, &betrayal_form),
    ENGINE__NEXUS_STOP_ROW(ENGINE_FACTION_BENE_GESSERIT, ENGINE_NEXUS_BETRAYAL, engine__nexus_at_voice,
                           "E3 p.11; EXPANSIONS_AND_NEXUS.md 5.2 row 4 (docs/RULINGS.md R121)"),
    ENGINE__NEXUS_NOT_BUILT(ENGINE_FACTION_BENE_GESSERIT, ENGINE_NEXUS_CUNNING, &cunning_form),
    /* Secret Ally (row 6): named until rules version 8, then played in the
     * battle's window below, never as a power */
    ENGINE__NEXUS_NOT_BUILT_UNTIL(ENGINE_FACTION_BENE_GESSERIT, ENGINE_NEXUS_SECRET_ALLY,
                                  &secret_ally_form, ENGINE__RULE_NEXUS_BORROWED_VOICE),
    {.point = ENGINE__POINT_WINDOW, .faction = ENGINE_FACTION_BENE_GESSERIT, .to = ENGINE__TO_OWNER,
     .since = ENGINE__RULE_SINCE(ENGINE__RULE_NEXUS_BORROWED_VOICE),
     .nexus = 1 + ENGINE_NEXUS_SECRET_ALLY,
     .source = "E3 p.11, Bene Gesserit Nexus card (Secret Ally); E3 FAQ; digest 5.2 row 6",
     .form = &voice_form, .legal = voice_legal, .answer = voice_answer, .close = voice_close},
};

const engine__power_family engine__nexus_bene_gesserit = {rows, sizeof rows / sizeof rows[0]};
