/*
 * rules.c - the rules versions this build folds, and the table of rule
 * changes between them: each row is one behaviour that changed, the
 * first version it holds in, the last (0 = still in force) and the
 * Landsraad rule it follows. Phase code asks engine__rule(st, RULE_X),
 * never compares a version number itself, so what each version does is
 * read from this one table. Rules versions are forever: a row is never
 * edited once a version that has it has shipped; a new change is a new
 * row and, when the newest version has already shipped, a new version.
 * Engine layer: no I/O, no allocation.
 */
#include "engine/internal.h"

/* One row per change, indexed by engine__rule_change. */
const engine__rule_row engine__rule_changes[ENGINE__RULE_COUNT] = {
    [ENGINE__RULE_HAJR_AFTER_OWN_MOVE] = {3, 0, "LR 3.01.09",
        "a Hajr move may follow the seat's own move and move a group already moved"},
    [ENGINE__RULE_ALLY_TANKS_AFTER_MOVEMENT] = {3, 0, "LR 1.06.07",
        "allies' forces in one territory go to the Tanks at the end of the seat's "
        "Shipment and Movement, not after its shipment"},
    [ENGINE__RULE_TRAITOR_LEADER_RETURNS] = {3, 0, "LR 1.07.06.07.01",
        "the leader of a player calling a traitor returns to its pool, available "
        "again this phase"},
    [ENGINE__RULE_FREMEN_CHOOSE_ALLY_WORM] = {3, 0, "LR 2.04.10",
        "the Fremen decide whether their ally's forces are protected from a worm"},
    [ENGINE__RULE_FREMEN_CHOOSE_ALLY_REVIVAL] = {3, 0, "LR 2.04.11",
        "the Fremen decide whether their ally revives 3 forces free"},
    [ENGINE__RULE_ATOMICS_AFTER_STORM_DIAL] = {3, 0, "LR 3.01.07",
        "Family Atomics may be played after the storm's movement is calculated"},
    [ENGINE__RULE_MOVE_TO_DIFFERENT_SECTOR] = {3, 0, "LR 1.06.08",
        "a move must end in a different sector"},
    [ENGINE__RULE_WRONG_STEP] = {3, 0, "(verdicts)",
        "an action of the right phase but another step is refused as wrong_step, "
        "and a refusal says what the game waits for"},
    [ENGINE__RULE_KARAMA_POLICY] = {3, 0, "LR 3.01.11.01 (docs/ARCHITECTURE.md \"Responses\")",
        "a Karama window asks only the seats whose public standing policy wants one of "
        "its advantages"},
    [ENGINE__RULE_OPTIONAL_ARGS] = {4, 0, "LR 1.06.05, 2.02.05",
        "a move may name the sector of its territory the group leaves (source), and the "
        "Bene Gesserit send its destination (to: the Polar Sink in the Basic game)"},
    [ENGINE__RULE_ROOM_OPTIONS] = {5, 0, "(room options)",
        "a room may be created for the Advanced game or with optional modules (the Nexus "
        "Cards); a Basic room without modules plays as under version 4"},
    [ENGINE__RULE_GENERIC_ACTIONS] = {5, 0, "(generic actions)",
        "a power whose row declares its form is used with the generic `power` action"},
    [ENGINE__RULE_NEXUS_PANELS] = {6, 0, "E3 p.11 (docs/RULINGS.md R85)",
        "a held Nexus card is played: its panels are power rows (engine/nexus_<faction>.c) "
        "used with the generic `power` action"},
    [ENGINE__RULE_ADVANCED_DOUBLE_BLOW] = {6, 0, "LR 1.13.02-1.13.03",
        "an Advanced room plays the double spice blow: piles A and B, a Nexus after each "
        "pile that had a worm, the rides after each Nexus, and a reshuffle that keeps "
        "pile A's topmost territory card"},
    [ENGINE__RULE_ADVANCED_FREMEN_WORMS] = {6, 0, "LR 2.04.15",
        "in an Advanced room the Fremen place every worm after the first of a pile's blow "
        "in a sand territory of their choice"},
    [ENGINE__RULE_ADVANCED_KH] = {6, 0, "LR 2.01.10-15",
        "Advanced: the Kwisatz Haderach awakens when the Atreides have lost 7 forces in "
        "battles, adds 2 to the leader it accompanies, and is revived for 2 spice"},
    [ENGINE__RULE_ADVANCED_ELITE_REVIVAL] = {6, 0, "LR 2.03.10, 2.04.20",
        "Advanced: one elite force (Sardaukar, Fedaykin) revived a turn from every source, "
        "the Tleilaxu Ghola included"},
    [ENGINE__RULE_ADVANCED_ADVISORS] = {6, 0, "LR 2.02.11, 2.02.13, 2.02.20, 2.02.21",
        "Advanced: the Bene Gesserit's tokens arriving where their advisors stand are "
        "advisors, an advisor may accompany another's off-planet shipment, and advisors "
        "alone in a territory become fighters as the Battle phase begins"},
    [ENGINE__RULE_GENERIC_WINDOWS] = {6, 0, "(generic windows)",
        "a window whose row declares its answer's form is answered with the generic `answer` "
        "action"},
    [ENGINE__RULE_ADVANCED_WORTHLESS_KARAMA] = {7, 0, "LR 1.14.06, 2.02.22",
        "Advanced: the Bene Gesserit may play a worthless card as a Karama card, for every "
        "Karama use"},
    [ENGINE__RULE_ADVANCED_KARAMA_EMPEROR] = {7, 0, "LR 1.14.00, 1.14.02",
        "Advanced: a faction Karama power once a game, spending a Karama card (a record per "
        "seat); the Emperor's: in the Revival phase up to 3 forces or 1 leader revived free"},
    [ENGINE__RULE_ADVANCED_KARAMA_FREMEN] = {7, 0, "LR 1.14.03",
        "Advanced: the Fremen's Karama power: as the Spice Blow begins, from turn 2, a worm in "
        "any sand territory, a normal worm (it devours, causes a Nexus, may be ridden)"},
    [ENGINE__RULE_ADVANCED_ELITE_FAMILIES] = {7, 0, "LR 2.03.08, 2.04.18 (ADVANCED_RULES.md 6.3)",
        "Advanced: the legal families of a shipment from reserves, a Fremen send, a move and "
        "a Hajr move offer the elite forces (Sardaukar, Fedaykin) alone or with plain forces, "
        "as those actions accept them"},
    [ENGINE__RULE_ADVANCED_PRESCIENCE_DIAL] = {7, 0, "LR 2.01.05, 1.13.04",
        "Advanced: prescience may ask the dial, answered as the forces' strength and the spice "
        "supporting them, which then bind the plan"},
    [ENGINE__RULE_ADVANCED_KARAMA] = {7, 0, "LR 1.13.06, 3.01.11; FAQ20 pp. 7-8",
        "Advanced: a Karama may stop one use of an Advanced ability (the Kwisatz Haderach in "
        "one battle, the Bene Gesserit's charity holding 2 or more, a flip to or from "
        "advisors, the Fremen's half storm losses), a seat starts asked "
        "about every advantage its room can offer, and a "
        "standing policy may name them (karama_policy's ask_21_31, own_21_31)"},
    [ENGINE__RULE_NEXUS_WINDOWS] = {7, 0, "E3 p.11 (docs/RULINGS.md R120)",
        "a Nexus panel answering another seat's attempt is played in one neutral window asking "
        "every publicly possible holder, whose standing policy (nexus_policy) says where it is "
        "asked"},
    [ENGINE__RULE_ADVANCED_GUILD_TIMING] = {7, 0, "LR 2.06.12",
        "Advanced: the Guild takes its Shipment and Movement turn at the start of the phase or "
        "after any other seat's complete turn, asked at each boundary, once a phase"},
    [ENGINE__RULE_ADVANCED_FREMEN_MIGRATION] = {7, 0, "LR 2.04.17",
        "Advanced: the Fremen send may land in the storm, where half the forces sent, rounded "
        "up, die at once"},
    [ENGINE__RULE_ADVANCED_FREMEN_STORM_CHOICE] = {7, 0, "LR 2.04.16",
        "Advanced: the Fremen choose which of their tokens the storm takes, plain forces or "
        "Fedaykin, where that makes a difference"},
    [ENGINE__RULE_NEXUS_OWN_PANELS] = {7, 0, "E3 p.11 (docs/RULINGS.md R92, R126-R128)",
        "more Nexus panels played at their holder's own prompt: the Guild Secret Ally's "
        "cross-ship and ship-back, the Guild Cunning's second shipment, the Fremen Cunning's "
        "ride of a worm where no Fremen stand, the Atreides Cunning's second element"},
    [ENGINE__RULE_FREE_CARD_KNOWN] = {8, 0, "LR 2.05.08, 2.01.05 (docs/RULINGS.md R129)",
        "the Harkonnen's free card keeps what other seats knew of it (the Atreides saw it come "
        "up and go back unsold); before, drawing it made every other seat forget it"},
    [ENGINE__RULE_KARAMA_SPARES_PLAN_CARD] = {8, 0, "LR 2.01.05, 2.02.22 (docs/RULINGS.md R130)",
        "Advanced: the Bene Gesserit may not spend as a Karama the worthless card a prescience "
        "answer named for their plan, nor one of their committed plan; before, spending it left "
        "them no plan to make"},
    [ENGINE__RULE_KARAMA_WINDOW] = {2, 0, "LR 3.01.11.01",
        "a Karama window opens at each use of a starred advantage and asks every other seat "
        "holding a card, karama_cancel naming the advantage; under version 1 only the Voice and "
        "prescience, asking the seat they are used against when it holds a card"},
    [ENGINE__RULE_KARAMA_SHIPMENT] = {2, 0, "LR 3.01.11.03",
        "a seat's Karama may pay for another seat's shipment (ship_karama_from, "
        "ship_karama_answer)"},
    [ENGINE__RULE_CARDS_WHEN_ASKED] = {2, 0, "D 2.1 (docs/RULINGS.md R32, R50, R55)",
        "the Tleilaxu Ghola and Truthtrance are played whenever their holder is asked, and a "
        "Truthtrance question pauses the game until its target answers; under version 1 a Ghola "
        "only in the Revival phase, a Truthtrance only while the plans are asked"},
    [ENGINE__RULE_WINDOW_ENCODING] = {2, 0, "(state encoding)",
        "the state encoding writes the Truthtrance asker and the Karama window's fields, and the "
        "battle's steps without the Karama and Truthtrance answer steps of version 1"},
    [ENGINE__RULE_NEXUS_MOMENTS] = {8, 0, "E3 p.11 (docs/RULINGS.md R140-R141)",
        "Nexus panels played at a seat's own moment, in a window asking every publicly "
        "possible holder whose moment it is: the Fremen Secret Ally's forces not devoured "
        "by a worm, the Harkonnen Secret Ally's two traitors in the Mentat Pause"},
    [ENGINE__RULE_NEXUS_BORROWED_VOICE] = {8, 0, "E3 p.11; E3 FAQ (docs/RULINGS.md R150)",
        "the Bene Gesserit Secret Ally: with the Bene Gesserit absent, a battle whose sides "
        "hold a Nexus card opens one neutral window before the plans and the prescience, in "
        "which the card's holder may Voice its opponent"},
    [ENGINE__RULE_NEXUS_WORTHLESS_SPICE] = {8, 0, "E3 p.11 (docs/RULINGS.md R151)",
        "the CHOAM Secret Ally: as Spice Collection ends, one neutral window asks every seat "
        "that holds a Nexus card and a treachery card; the card's holder may discard a "
        "worthless card for 2 spice from the bank"},
    [ENGINE__RULE_NEXUS_REPLACEMENT] = {8, 0, "E3 p.11; seed 004 (docs/RULINGS.md R152)",
        "the Ixian Secret Ally: right after each card the auction sells, the buyer holding a "
        "Nexus card is asked; the card's holder may discard the card bought and draw the deck "
        "top in its place"},
    [ENGINE__RULE_NEXUS_GLIMPSE] = {8, 0, "E3 p.11 (docs/RULINGS.md R153)",
        "the CHOAM Secret Ally (b): after a battle won, the winner holding a Nexus card is "
        "asked while the loser holds a card; the card's holder may secretly see one random "
        "card of the loser's hand"},
    [ENGINE__RULE_ADVANCED_KARAMA_STOPS] = {8, 0, "LR 2.03.09, 2.04.14-15, 2.04.21; FAQ20 pp. 7-8",
        "Advanced: a Karama may stop, before the plans are revealed, the Sardaukar's worth, "
        "the Fedaykin's worth or BATTLE HARDENED in one battle (the side redoes its plan), "
        "the Fremen's look at the next storm card this turn, and one Fremen placement of a "
        "further worm (it strikes where the pile's territory card lies)"},
    [ENGINE__RULE_ADVANCED_INTRUSION] = {8, 0, "LR 2.02.15 (docs/RULINGS.md R136)",
        "Advanced: when forces of a faction neither the Bene Gesserit nor their ally enter a "
        "territory where the Bene Gesserit have fighters (a shipment, a Fremen send, a Guild "
        "site-to-site shipment, a move, a worm ride), the Bene Gesserit are asked at once "
        "whether all those fighters become advisors (window bg_intrusion), a flip a Karama "
        "may stop"},
    [ENGINE__RULE_ADVANCED_KARAMA_HARKONNEN] = {8, 0, "LR 1.14.04 (docs/RULINGS.md R137)",
        "Advanced: the Harkonnen's Karama power: in the Bidding phase they take another player's "
        "whole hand, then give back as many cards, chosen from their hand"},
    [ENGINE__RULE_ADVANCED_KARAMA_GUILD] = {8, 0, "LR 1.14.05 (docs/RULINGS.md R138)",
        "Advanced: the Guild's Karama power: in Shipment and Movement they may cancel one "
        "off-planet shipment of another player as it is made (the forces stay in reserves, "
        "nothing is paid, the shipper goes on to its move)"},
    [ENGINE__RULE_ADVANCED_KARAMA_ATREIDES] = {8, 0, "LR 1.14.01 (docs/RULINGS.md R139)",
        "Advanced: the Atreides' Karama power: in the Battle phase, while plans are made, they "
        "see the other side's entire battle plan once it is committed, before the reveal"},
    [ENGINE__RULE_ADVANCED_CAPTURE] = {8, 0, "LR 2.05.10-2.05.13",
        "Advanced: the Harkonnen, winning a battle, capture or kill one of the loser's leaders "
        "drawn at random (a Karama may stop it); a captive fights for them and goes back after "
        "a battle it survives, or when all their own leaders are dead"},
};

int engine_rules_version_is_folded(unsigned version)
{
    return version >= ENGINE_RULES_VERSION_MIN && version <= ENGINE_RULES_VERSION;
}

int engine__rule(const engine_state *st, engine__rule_change change)
{
    const engine__rule_row *r = &engine__rule_changes[change];
    unsigned v = st->config.rules_version;
    return v >= r->from && (r->until == 0 || v <= r->until);
}
