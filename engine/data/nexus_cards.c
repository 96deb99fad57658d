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

const engine__nexus_card_row engine__nexus_cards[ENGINE_NEXUS_CARD_COUNT] = {
    [ENGINE_FACTION_ATREIDES] = {{
        "Stop one attempt by the Atreides to see an element of a battle plan.",
        "Learn a second, different element of your battle opponent's plan.",
        "In your battle, name leader, weapon, defense or dial: your opponent reveals it.",
    }, {1, 2, 3}},
    [ENGINE_FACTION_BENE_GESSERIT] = {{
        "Stop one use of the Voice.",
        "(Advanced) In your Shipment and Movement, flip chosen advisor groups to fighters.",
        "Use the Voice on your battle opponent (before prescience).",
    }, {4, 5, 6}},
    [ENGINE_FACTION_EMPEROR] = {{
        "The Emperor pays for a card his ally buys; or (Advanced) no Sardaukar bonus.",
        "(Advanced) Up to five of your forces count as Sardaukar in a battle without any.",
        "Keep the spice of a card you buy; or revive 3 extra forces free in Revival.",
    }, {7, 8, 9}},
    [ENGINE_FACTION_FREMEN] = {{
        "The Fremen may not ride a worm this turn; or lose their two-territory move.",
        "A worm where nobody stands lets a group of one desert territory ride.",
        "Your forces are safe from a worm; or revive 3 forces free in Revival.",
    }, {10, 11, 12}},
    [ENGINE_FACTION_HARKONNEN] = {{
        "Cancel a revealed Harkonnen traitor; the Harkonnen draw another at the Mentat Pause.",
        "At any time draw a traitor card, then shuffle one held traitor back.",
        "At the Mentat Pause draw two traitor cards, then shuffle two held ones back.",
    }, {13, 14, 15}},
    [ENGINE_FACTION_GUILD] = {{
        "Take one whole shipment payment owed to the Guild or the bank.",
        "Right after your Shipment and Movement make a second shipment (it may not move).",
        "Ship at Guild rates, or cross-ship, or ship back to reserves.",
    }, {16, 17, 18}},
    [ENGINE_FACTION_IXIANS] = {{
        "Prevent the Ixian Bidding advantage or (Advanced) the Technology swap.",
        "Your Suboids count full strength unsupported for the rest of the turn.",
        "Discard the treachery card you just bought and draw the deck's top card.",
    }, {19, 20, 21}},
    [ENGINE_FACTION_TLEILAXU] = {{
        "Cancel a Face Dancer reveal.",
        "Replace all revealed Face Dancers secretly.",
        "In Revival, revive a leader free and up to 5 forces at 1 spice each.",
    }, {22, 23, 24}},
    [ENGINE_FACTION_CHOAM] = {{
        "CHOAM discards a random card and is paid nothing for it.",
        "Spend any treachery card as a worthless one for one of its powers.",
        "Discard a worthless card for 2 spice; or after a battle you win see a card "
        "of the loser's hand.",
    }, {25, 26, 27}},
    [ENGINE_FACTION_RICHESE] = {{
        "Richese's own cache purchase is discarded unpaid; or a Richese sale pays the bank.",
        "Ship two No-Field tokens for the price of one force.",
        "Instead of normal shipping, ship up to 5 forces for the price of one.",
    }, {28, 29, 30}},
    [ENGINE_FACTION_ECAZ] = {{
        "Where Ecaz and its ally share a territory, the ally's forces go to reserves.",
        "Take Duke Vidal for the turn.",
        "A player says truthfully whether he holds any of your leaders as traitors.",
    }, {31, 32, 33}},
    [ENGINE_FACTION_MORITANI] = {{
        "Return a Terror token from the board to Moritani unrevealed.",
        "Place a Terror token in any territory of Arrakis.",
        "After losing a battle with a winner, keep one card you played.",
    }, {34, 35, 36}},
};
