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
