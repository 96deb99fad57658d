/*
 * audit_leaks.c - the planted leaks of `mentat audit --self-test`: leaky
 * observers, each the genuine one (inspect_audit_genuine) with one
 * function replaced by a version that lets a hidden fact through, the
 * way leaks have happened in other game systems.
 *
 * A plant compares only the output paths it plants (none for most: their
 * leak is elsewhere), so the self-test stays quick.
 *
 * Layer: inspect. These functions are reachable only through
 * inspect_audit_plants, which only the self-test and the tests call; the
 * audit compares what they return and shows it to nobody. Nothing here
 * is a switch on the genuine path: `mentat log`, replay and every view a
 * seat is sent never go through an observer.
 */
#include <string.h>

#include "inspect/internal.h"

static int is_weapon(unsigned kind)
{
    return (engine_card_kind_classes(kind) &
            (ENGINE_CARD_CLASS_WEAPON_PROJECTILE | ENGINE_CARD_CLASS_WEAPON_POISON |
             ENGINE_CARD_CLASS_WEAPON_SPECIAL)) != 0;
}

static int holds(const engine_state *st, unsigned card, unsigned seat)
{
    return st->card[card].place == ENGINE_PLACE_HAND && st->card[card].holder == seat;
}

/* ---- a hand card in the public view */

static void view_hand_public(engine_state *out, const engine_state *st, uint8_t viewer)
{
    engine_view(out, st, viewer);
    if (viewer != ENGINE_VIEW_PUBLIC)
        return;
    for (unsigned i = 0; i < st->n_cards; i++)
        if (st->card[i].place == ENGINE_PLACE_HAND)
            out->card_kind[i] = st->card_kind[i];
}

/* ---- a traitor in another seat's view: each seat sees the next one's */

static void view_neighbour_traitors(engine_state *out, const engine_state *st, uint8_t viewer)
{
    engine_view(out, st, viewer);
    if (viewer >= st->config.n_seats)
        return;
    uint8_t next = (uint8_t)((viewer + 1) % st->config.n_seats);
    for (unsigned l = 0; l < ENGINE_LEADER_COUNT; l++)
        if ((st->traitor[l].place == ENGINE_PLACE_HAND ||
             st->traitor[l].place == ENGINE_PLACE_DEALT) && st->traitor[l].holder == next)
            out->traitor[l] = st->traitor[l];
}

/* The seats holding a card they could spend as a Karama (a worthless
 * card of the Advanced Bene Gesserit too, engine_karama_card). */
static uint16_t karama_holders(const engine_state *st)
{
    uint16_t holders = 0;
    for (unsigned s = 0; s < st->config.n_seats; s++)
        if (engine_karama_card(st, s) != 0xFF)
            holders = (uint16_t)(holders | (1u << s));
    return holders;
}

/* ---- a prompt offered only to the holder of a secret card: every
 * holder of a Karama is shown as asked */

static void view_karama_prompt(engine_state *out, const engine_state *st, uint8_t viewer)
{
    engine_view(out, st, viewer);
    out->awaiting = (uint16_t)(out->awaiting | karama_holders(st));
}

/* ---- a window's prompt that depends on a hidden hand: an open Karama
 * window shown as asking only the seats that hold a Karama */

static void view_window_prompt(engine_state *out, const engine_state *st, uint8_t viewer)
{
    engine_view(out, st, viewer);
    if (out->n_frames == 0 || out->frame[out->n_frames - 1].point != ENGINE_WINDOW_KARAMA)
        return;
    engine_frame *f = &out->frame[out->n_frames - 1];
    uint16_t holders = karama_holders(st);
    if ((f->asked & holders) == 0)
        return;
    f->asked = (uint16_t)(f->asked & holders);
    f->answered = (uint16_t)(f->answered & f->asked);
}

/* ---- a view whose size depends on a hidden identity: a byte of padding
 * for each weapon in another seat's hand */

static size_t encode_weapon_padding(uint8_t *out, size_t cap, const engine_state *view,
                                    const engine_state *st)
{
    size_t n = engine_state_encode(out, cap, view);
    for (unsigned i = 0; i < st->n_cards; i++)
        if (st->card[i].place == ENGINE_PLACE_HAND && st->card[i].holder != view->viewer &&
            is_weapon(st->card_kind[i])) {
            if (n < cap)
                out[n] = 0;
            n++;
        }
    return n;
}

/* ---- the Nexus Cards: a prompt offered only to the real holder (every
 * seat holding a Betrayal, which could answer its faction's power, shown
 * as asked) */

static void view_nexus_holder_prompt(engine_state *out, const engine_state *st, uint8_t viewer)
{
    engine_view(out, st, viewer);
    if (!(st->config.modules & ENGINE_MODULE_NEXUS_CARDS))
        return;
    for (unsigned c = 0; c < ENGINE_NEXUS_CARD_COUNT; c++)
        if (st->nexus_card[c].place == ENGINE_PLACE_HAND &&
            engine_nexus_mode_of(st, st->nexus_card[c].holder, st->nexus_face[c]) ==
                ENGINE_NEXUS_BETRAYAL)
            out->awaiting = (uint16_t)(out->awaiting | (1u << st->nexus_card[c].holder));
}

/* ---- ... the neutral Nexus window (rules version 7 on) asking only the
 * real holder of the Betrayal that answers the attempt (the card of the
 * faction whose power it holds), not every publicly possible holder */

static void view_nexus_window_to_holder(engine_state *out, const engine_state *st, uint8_t viewer)
{
    engine_view(out, st, viewer);
    const engine_frame *f = engine_window_top(st);
    if (f == NULL || f->point != ENGINE_WINDOW_GENERIC ||
        f->window != (uint16_t)engine_window_from_slug("nexus") || f->owner >= st->config.n_seats)
        return;
    unsigned faction = st->seat[f->owner].faction;
    uint16_t holder = 0;
    for (unsigned c = 0; c < ENGINE_NEXUS_CARD_COUNT; c++)
        if (st->nexus_card[c].place == ENGINE_PLACE_HAND && st->nexus_face[c] == faction &&
            engine_nexus_mode_of(st, st->nexus_card[c].holder, faction) == ENGINE_NEXUS_BETRAYAL)
            holder = (uint16_t)(holder | (1u << st->nexus_card[c].holder));
    engine_frame *top = &out->frame[f - st->frame];
    top->asked = (uint16_t)(holder ? holder : top->asked);
    top->answered = (uint16_t)(top->answered & top->asked);
}

/* ---- ... a public view showing an own-faction redraw: the deck and
 * discard piles told apart */

static void view_nexus_piles(engine_state *out, const engine_state *st, uint8_t viewer)
{
    engine_view(out, st, viewer);
    if (!(st->config.modules & ENGINE_MODULE_NEXUS_CARDS))
        return;
    out->n_nexus_discard = st->n_nexus_discard;
    for (unsigned c = 0; c < ENGINE_NEXUS_CARD_COUNT; c++)
        if (st->nexus_card[c].place == ENGINE_PLACE_DISCARD)
            out->nexus_card[c].place = ENGINE_PLACE_DISCARD;
}

/* ---- ... a log line naming a held card */

static void log_nexus_held(inspect_log_line *out, const engine_state *before,
                           const engine_state *after, const engine_action *act, uint32_t version,
                           uint8_t viewer)
{
    inspect_audit_genuine.log(out, before, after, act, version, viewer);
    if (!(after->config.modules & ENGINE_MODULE_NEXUS_CARDS))
        return;
    inspect__text t;
    inspect__text_init(&t, out->text, sizeof out->text);
    t.len = strlen(out->text);
    for (unsigned s = 0; s < after->config.n_seats; s++) {
        int c = engine_nexus_held(after, s);
        if (c >= 0 && engine_nexus_held(before, s) != c)
            inspect__text_sentence(&t, "Seat %u holds the %s Nexus card.", s + 1u,
                                   engine_faction_title(after->nexus_face[c]));
    }
}

/* ---- a drawn card named in the public log */

static void log_drawn_card(inspect_log_line *out, const engine_state *before,
                           const engine_state *after, const engine_action *act, uint32_t version,
                           uint8_t viewer)
{
    inspect_audit_genuine.log(out, before, after, act, version, viewer);
    if (viewer != ENGINE_VIEW_PUBLIC)
        return;
    inspect__text t;
    inspect__text_init(&t, out->text, sizeof out->text);
    t.len = strlen(out->text);
    for (unsigned i = 0; i < after->n_cards; i++)
        if (after->card[i].place == ENGINE_PLACE_HAND && before->card[i].place != ENGINE_PLACE_HAND)
            inspect__text_sentence(&t, "Card %u drawn was a %s.", i,
                                   engine_card_kind_name(after->card_kind[i]));
}

/* ---- a secret action's arguments in everyone's log */

static void log_unmasked(inspect_log_line *out, const engine_state *before,
                         const engine_state *after, const engine_action *act, uint32_t version,
                         uint8_t viewer)
{
    inspect_audit_genuine.log(out, before, after, act, version, viewer);
    out->action = *act;
}

/* ---- a rejection reason that reveals a hidden card: naming a card not
 * in one's hand is refused as "wrong slot" when it is a weapon */

static engine_verdict apply_card_reason(engine_verdict_detail *why, engine_state *st,
                                        const engine_action *act, engine_rng *rng)
{
    const engine_action_spec *spec = engine_action_spec_of(act->kind);
    for (unsigned j = 0; spec != NULL && j < spec->n_args; j++) {
        int c = act->arg[j];
        if (spec->arg_type[j] != ENGINE_ARG_CARD || c < 0 || c >= st->n_cards ||
            holds(st, (unsigned)c, act->seat))
            continue;
        if (why != NULL) {
            why->arg = (int8_t)j;
            why->value = c;
        }
        return is_weapon(st->card_kind[c]) ? ENGINE_REJECT_CARD_WRONG_SLOT
                                           : ENGINE_REJECT_CARD_NOT_HELD;
    }
    return engine_apply(why, st, act, rng);
}

/* ---- a peek marked known to all: the Atreides' look at the top spice
 * card recorded as shown face up */

static engine_verdict apply_peek_public(engine_verdict_detail *why, engine_state *st,
                                        const engine_action *act, engine_rng *rng)
{
    uint16_t before[ENGINE_SPICE_CARD_MAX];
    unsigned n = st->n_spice_cards;
    for (unsigned c = 0; c < n; c++)
        before[c] = st->spice_card[c].known_by;
    engine_verdict v = engine_apply(why, st, act, rng);
    if (v != ENGINE_ACCEPTED)
        return v;
    for (unsigned c = 0; c < n; c++)
        if (st->spice_card[c].place == ENGINE_PLACE_DECK && st->spice_card[c].known_by != 0 &&
            st->spice_card[c].known_by != before[c])
            st->spice_card[c].known_by =
                (uint16_t)(((1u << st->config.n_seats) - 1) | ENGINE_KNOWN_PUBLIC);
    return v;
}

/* ---- a number-to-face link across time: the discard pile reshuffled
 * into the deck with each number keeping the face it had */

static engine_verdict apply_reshuffle_keeps_faces(engine_verdict_detail *why, engine_state *st,
                                                  const engine_action *act, engine_rng *rng)
{
    uint8_t place[ENGINE_TREACHERY_MAX], kind[ENGINE_TREACHERY_MAX];
    unsigned n = st->n_cards;
    for (unsigned c = 0; c < n; c++) {
        place[c] = st->card[c].place;
        kind[c] = st->card_kind[c];
    }
    engine_verdict v = engine_apply(why, st, act, rng);
    if (v != ENGINE_ACCEPTED)
        return v;
    for (unsigned c = 0; c < n; c++)
        if (place[c] == ENGINE_PLACE_DISCARD && st->card[c].place != ENGINE_PLACE_DISCARD)
            st->card_kind[c] = kind[c];
    return v;
}

/* ---- an output path printing the full state where a view was meant:
 * the log line told from the full states, not the viewer's views */

static size_t emit_log_full(char *out, size_t cap, const engine_state *before,
                            const engine_state *after, const engine_action *act, uint32_t version,
                            uint8_t viewer)
{
    if (act == NULL || cap == 0)
        return 0;
    static inspect_log_line line;
    inspect_log_describe(&line, before, after, act, version, viewer);
    int n = snprintf(out, cap, "%s", line.text);
    return n < 0 ? 0 : (size_t)n;
}

static const inspect_audit_output full_state_log_rows[] = {
    {"log_line", "log", emit_log_full, 0},
};

/* ============================================================ the table */

#define FACT(f) (1u << INSPECT_FACT_##f)
#define SECRET_ACTIONS (FACT(TRAITORS) | FACT(PREDICTION) | FACT(BATTLE_PLAN) | FACT(STORM_DIAL))

/* One row per plant: its name, the class of leak (the channel that must
 * catch it), what it plants, the one function it puts in place of the
 * genuine one, and where the audit must see it. Each is audited where it
 * would show (the public, or every viewer) and with the hidden facts it
 * lets through, as an auditor would aim `mentat audit --seat`: the leaks
 * of the genuine engine then cannot crowd it out. */
static const inspect_audit_plant plants[] = {
    {"output_prints_full_state", INSPECT_CHANNEL_OUTPUT,
     "an output path printing the full state where a view was meant (the log told from the "
     "full state)",
     {.outputs = full_state_log_rows, .n_outputs = 1},
     "output.log_line", ENGINE_VIEW_PUBLIC, FACT(CARD_FACES)},
    {"hand_card_public_view", INSPECT_CHANNEL_VIEW, "a hand card in the public view",
     {.view = view_hand_public},
     "view.card_kind[", ENGINE_VIEW_PUBLIC, FACT(CARD_FACES)},
    {"traitor_in_other_view", INSPECT_CHANNEL_VIEW, "a traitor in another seat's view",
     {.view = view_neighbour_traitors},
     "view.traitor[", INSPECT_AUDIT_ALL_SEATS, FACT(TRAITORS)},
    {"drawn_card_public_log", INSPECT_CHANNEL_LOG, "a drawn card named in the public log",
     {.log = log_drawn_card},
     "log.text", ENGINE_VIEW_PUBLIC, FACT(CARD_FACES)},
    {"secret_card_prompt", INSPECT_CHANNEL_PROMPT,
     "a prompt offered only to the holder of a secret card",
     {.view = view_karama_prompt},
     "view.awaiting", INSPECT_AUDIT_ALL_SEATS, FACT(CARD_FACES)},
    {"window_prompt_hidden_hand", INSPECT_CHANNEL_PROMPT,
     "a window asking only the seats whose hidden hand can answer it",
     {.view = view_window_prompt},
     "view.frame[", INSPECT_AUDIT_ALL_SEATS, FACT(CARD_FACES)},
    {"rejection_reveals_card", INSPECT_CHANNEL_REJECTION,
     "a rejection reason that reveals a hidden card",
     {.apply = apply_card_reason},
     "rejection", INSPECT_AUDIT_ALL_SEATS, FACT(CARD_FACES)},
    {"view_size_hidden", INSPECT_CHANNEL_SIZE, "a view whose size depends on a hidden identity",
     {.encode = encode_weapon_padding},
     "view.size", INSPECT_AUDIT_ALL_SEATS, FACT(CARD_FACES)},
    {"secret_action_in_log", INSPECT_CHANNEL_LOG,
     "a secret action's arguments in another seat's log",
     {.log = log_unmasked},
     "log.action", INSPECT_AUDIT_ALL_SEATS, SECRET_ACTIONS},
    {"peek_marked_public", INSPECT_CHANNEL_MARKS,
     "a mark that says a peeked card is known to all",
     {.apply = apply_peek_public},
     "marks.spice_card[", INSPECT_AUDIT_ALL_SEATS, FACT(SPICE_DECK)},
    {"nexus_prompt_to_holder", INSPECT_CHANNEL_PROMPT,
     "a prompt offered only to the real holder of a Nexus card",
     {.view = view_nexus_holder_prompt},
     "view.awaiting", INSPECT_AUDIT_ALL_SEATS, FACT(NEXUS_CARDS)},
    {"nexus_window_to_holder", INSPECT_CHANNEL_PROMPT,
     "a Nexus window offered only to the real holder of the panel answering it",
     {.view = view_nexus_window_to_holder},
     "view.frame[", INSPECT_AUDIT_ALL_SEATS, FACT(NEXUS_CARDS)},
    {"nexus_card_in_log", INSPECT_CHANNEL_LOG, "a log line naming a held Nexus card",
     {.log = log_nexus_held},
     "log.text", INSPECT_AUDIT_ALL_SEATS, FACT(NEXUS_CARDS)},
    {"nexus_redraw_public", INSPECT_CHANNEL_VIEW,
     "a public view showing an own-faction redraw (the Nexus deck and discard told apart)",
     {.view = view_nexus_piles},
     "view.", ENGINE_VIEW_PUBLIC, FACT(NEXUS_CARDS)},
    {"number_links_face", INSPECT_CHANNEL_HISTORY,
     "a number-to-face link across time (a reshuffle that keeps faces)",
     {.apply = apply_reshuffle_keeps_faces},
     "history.reshuffle", INSPECT_AUDIT_ALL_SEATS, FACT(CARD_FACES)},
};
_Static_assert(sizeof plants / sizeof plants[0] <= INSPECT_AUDIT_MAX_PLANTS,
               "the self-test report holds every plant");

void inspect_audit_plant_observer(inspect_audit_observer *out, const inspect_audit_plant *plant)
{
    const inspect_audit_observer *leak = &plant->leak;
    *out = inspect_audit_genuine;
    out->name = plant->name;
    if (leak->view != NULL)
        out->view = leak->view;
    if (leak->encode != NULL)
        out->encode = leak->encode;
    if (leak->legal != NULL)
        out->legal = leak->legal;
    if (leak->log != NULL)
        out->log = leak->log;
    if (leak->apply != NULL)
        out->apply = leak->apply;
    out->outputs = leak->outputs;
    out->n_outputs = leak->outputs != NULL ? leak->n_outputs : 0;
}

const inspect_audit_plant *inspect_audit_plants(size_t *n_out)
{
    *n_out = sizeof plants / sizeof plants[0];
    return plants;
}
