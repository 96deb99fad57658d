/*
 * nexus_cards.c - the twelve Nexus cards of the Nexus Cards module (E3),
 * one row per engine_faction, card i printed for faction i: the readable
 * reference of each face's three panels (Betrayal, Cunning, Secret Ally),
 * public to every seat, and the row of EXPANSIONS_AND_NEXUS.md 5.2 each
 * panel is.
 *
 * Facts only, our paraphrase of the printed faces (the seeds' table and
 * the digest's section 5.2). What a panel does when played is a rule and
 * lives in engine/nexus_<faction>.c; this file never decides anything.
 */
#include "engine/internal.h"

/* A card's three panels as printed (Betrayal, Cunning, Secret Ally), the
 * first of them row `first` of the matrix, indexed by engine_nexus_mode. */
#define CARD(first, betrayal, cunning, secret_ally)                                           \
    {.panel = {[ENGINE_NEXUS_BETRAYAL] = (betrayal), [ENGINE_NEXUS_CUNNING] = (cunning),       \
               [ENGINE_NEXUS_SECRET_ALLY] = (secret_ally)},                                    \
     .row = {[ENGINE_NEXUS_BETRAYAL] = (first), [ENGINE_NEXUS_CUNNING] = (first) + 1,          \
             [ENGINE_NEXUS_SECRET_ALLY] = (first) + 2}}

const engine__nexus_card_row engine__nexus_cards[ENGINE_NEXUS_CARD_COUNT] = {
    [ENGINE_FACTION_ATREIDES] = CARD(1,
        "Stop one attempt by the Atreides to see an element of a battle plan.",
        "Learn a second, different element of your battle opponent's plan.",
        "In your battle, name leader, weapon, defense or dial: your opponent reveals it."),
    [ENGINE_FACTION_BENE_GESSERIT] = CARD(4,
        "Stop one use of the Voice.",
        "(Advanced) In your Shipment and Movement, flip chosen advisor groups to fighters.",
        "Use the Voice on your battle opponent (before prescience)."),
    [ENGINE_FACTION_EMPEROR] = CARD(7,
        "The Emperor pays for a card his ally buys; or (Advanced) no Sardaukar bonus.",
        "(Advanced) Up to five of your forces count as Sardaukar in a battle without any.",
        "Keep the spice of a card you buy; or revive 3 extra forces free in Revival."),
    [ENGINE_FACTION_FREMEN] = CARD(10,
        "The Fremen may not ride a worm this turn; or lose their two-territory move.",
        "A worm where nobody stands lets a group of one desert territory ride.",
        "Your forces are safe from a worm; or revive 3 forces free in Revival."),
    [ENGINE_FACTION_HARKONNEN] = CARD(13,
        "Cancel a revealed Harkonnen traitor; the Harkonnen draw another at the Mentat Pause.",
        "At any time draw a traitor card, then shuffle one held traitor back.",
        "At the Mentat Pause draw two traitor cards, then shuffle two held ones back."),
    [ENGINE_FACTION_GUILD] = CARD(16,
        "Take one whole shipment payment owed to the Guild or the bank.",
        "Right after your Shipment and Movement make a second shipment (it may not move).",
        "Ship at Guild rates, or cross-ship, or ship back to reserves."),
    [ENGINE_FACTION_IXIANS] = CARD(19,
        "Prevent the Ixian Bidding advantage or (Advanced) the Technology swap.",
        "Your Suboids count full strength unsupported for the rest of the turn.",
        "Discard the treachery card you just bought and draw the deck's top card."),
    [ENGINE_FACTION_TLEILAXU] = CARD(22,
        "Cancel a Face Dancer reveal.",
        "Replace all revealed Face Dancers secretly.",
        "In Revival, revive a leader free and up to 5 forces at 1 spice each."),
    [ENGINE_FACTION_CHOAM] = CARD(25,
        "CHOAM discards a random card and is paid nothing for it.",
        "Spend any treachery card as a worthless one for one of its powers.",
        "Discard a worthless card for 2 spice; or after a battle you win see a card "
        "of the loser's hand."),
    [ENGINE_FACTION_RICHESE] = CARD(28,
        "Richese's own cache purchase is discarded unpaid; or a Richese sale pays the bank.",
        "Ship two No-Field tokens for the price of one force.",
        "Instead of normal shipping, ship up to 5 forces for the price of one."),
    [ENGINE_FACTION_ECAZ] = CARD(31,
        "Where Ecaz and its ally share a territory, the ally's forces go to reserves.",
        "Take Duke Vidal for the turn.",
        "A player says truthfully whether he holds any of your leaders as traitors."),
    [ENGINE_FACTION_MORITANI] = CARD(34,
        "Return a Terror token from the board to Moritani unrevealed.",
        "Place a Terror token in any territory of Arrakis.",
        "After losing a battle with a winner, keep one card you played."),
};
