/*
 * treachery_cards.c - the kinds of treachery card, one row per
 * engine_card_kind: what class of card it is, whether a battle winner may
 * keep it, and how many copies the base-game deck holds.
 *
 * Facts only, from DUNE_RULES_DIGEST.md section 2.1 (the 33-card base deck:
 * weapons and defenses are kept, every other card is discarded after use).
 * What a card does when played is a rule and lives with the phase that
 * plays it; expansion cards (section 2.2) are not kinds yet.
 */
#include "engine/internal.h"

#define KIND(name, slug, class, is_kept, copies) \
    { name, slug, ENGINE_CARD_CLASS_##class, is_kept, copies }

const engine__card_kind_row engine__card_kinds[ENGINE_CARD_KIND_COUNT] = {
    /* KIND(name, slug, class, is_kept, base_copies) */
    [ENGINE_CARD_LASGUN] =
        KIND("Lasgun", "lasgun", WEAPON_SPECIAL, 1, 1),
    [ENGINE_CARD_CRYSKNIFE] =
        KIND("Crysknife", "crysknife", WEAPON_PROJECTILE, 1, 1),
    [ENGINE_CARD_MAULA_PISTOL] =
        KIND("Maula Pistol", "maula_pistol", WEAPON_PROJECTILE, 1, 1),
    [ENGINE_CARD_SLIP_TIP] =
        KIND("Slip Tip", "slip_tip", WEAPON_PROJECTILE, 1, 1),
    [ENGINE_CARD_STUNNER] =
        KIND("Stunner", "stunner", WEAPON_PROJECTILE, 1, 1),
    [ENGINE_CARD_CHAUMAS] =
        KIND("Chaumas", "chaumas", WEAPON_POISON, 1, 1),
    [ENGINE_CARD_CHAUMURKY] =
        KIND("Chaumurky", "chaumurky", WEAPON_POISON, 1, 1),
    [ENGINE_CARD_ELLACA_DRUG] =
        KIND("Ellaca Drug", "ellaca_drug", WEAPON_POISON, 1, 1),
    [ENGINE_CARD_GOM_JABBAR] =
        KIND("Gom Jabbar", "gom_jabbar", WEAPON_POISON, 1, 1),
    [ENGINE_CARD_SHIELD] =
        KIND("Shield", "shield", DEFENSE_PROJECTILE, 1, 4),
    [ENGINE_CARD_SNOOPER] =
        KIND("Snooper", "snooper", DEFENSE_POISON, 1, 4),
    [ENGINE_CARD_CHEAP_HERO] =
        KIND("Cheap Hero", "cheap_hero", LEADER, 0, 3),
    [ENGINE_CARD_TLEILAXU_GHOLA] =
        KIND("Tleilaxu Ghola", "tleilaxu_ghola", SPECIAL, 0, 1),
    [ENGINE_CARD_FAMILY_ATOMICS] =
        KIND("Family Atomics", "family_atomics", SPECIAL, 0, 1),
    [ENGINE_CARD_WEATHER_CONTROL] =
        KIND("Weather Control", "weather_control", SPECIAL, 0, 1),
    [ENGINE_CARD_HAJR] =
        KIND("Hajr", "hajr", SPECIAL, 0, 1),
    [ENGINE_CARD_KARAMA] =
        KIND("Karama", "karama", SPECIAL, 0, 2),
    [ENGINE_CARD_TRUTHTRANCE] =
        KIND("Truthtrance", "truthtrance", SPECIAL, 0, 2),
    [ENGINE_CARD_BALISET] =
        KIND("Baliset", "baliset", WORTHLESS, 0, 1),
    [ENGINE_CARD_JUBBA_CLOAK] =
        KIND("Jubba Cloak", "jubba_cloak", WORTHLESS, 0, 1),
    [ENGINE_CARD_KULON] =
        KIND("Kulon", "kulon", WORTHLESS, 0, 1),
    [ENGINE_CARD_LA_LA_LA] =
        KIND("La La La", "la_la_la", WORTHLESS, 0, 1),
    [ENGINE_CARD_TRIP_TO_GAMONT] =
        KIND("Trip to Gamont", "trip_to_gamont", WORTHLESS, 0, 1),
};

_Static_assert(sizeof engine__card_kinds / sizeof engine__card_kinds[0]
                   == ENGINE_CARD_KIND_COUNT,
               "one row per card kind");
