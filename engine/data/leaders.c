/*
 * leaders.c - every leader of the twelve factions, one row each: five per
 * faction in engine_faction order, then the CHOAM Auditor (row 60) and Duke
 * Prad Vidal (row 61).
 *
 * Facts only, from DUNE_RULES_DIGEST.md section 3.1 (names, strengths, each
 * faction's leaders in the digest's order) and section 2.4 (who has a
 * traitor card). Revival cost is the strength, except Zoal, whose strength
 * varies in battle (listed as 0) and who costs 6 to revive, and Vidal (5).
 * Halving a cost for the Tleilaxu, and when the optional leaders join a
 * game, are rules and live elsewhere.
 */
#include "engine/internal.h"

/* A leader whose revival cost is its strength, with a traitor card. */
#define LEADER(name, slug, faction, strength) \
    { name, slug, ENGINE_FACTION_##faction, strength, strength, 1, 0 }

const engine__leader_row engine__leaders[ENGINE_LEADER_COUNT] = {
    /* Atreides */
    [0] = LEADER("Thufir Hawat", "thufir_hawat", ATREIDES, 5),
    [1] = LEADER("Lady Jessica", "lady_jessica", ATREIDES, 5),
    [2] = LEADER("Gurney Halleck", "gurney_halleck", ATREIDES, 4),
    [3] = LEADER("Duncan Idaho", "duncan_idaho", ATREIDES, 2),
    [4] = LEADER("Dr. Wellington Yueh", "dr_wellington_yueh", ATREIDES, 1),
    /* Bene Gesserit */
    [5] = LEADER("Alia", "alia", BENE_GESSERIT, 5),
    [6] = LEADER("Margot Lady Fenring", "margot_lady_fenring", BENE_GESSERIT,
                 5),
    [7] = LEADER("Mother Ramallo", "mother_ramallo", BENE_GESSERIT, 5),
    [8] = LEADER("Princess Irulan", "princess_irulan", BENE_GESSERIT, 5),
    [9] = LEADER("Wanna Yueh", "wanna_yueh", BENE_GESSERIT, 5),
    /* Emperor */
    [10] = LEADER("Hasimir Fenring", "hasimir_fenring", EMPEROR, 6),
    [11] = LEADER("Captain Aramsham", "captain_aramsham", EMPEROR, 5),
    [12] = LEADER("Caid", "caid", EMPEROR, 3),
    [13] = LEADER("Burseg", "burseg", EMPEROR, 3),
    [14] = LEADER("Bashar", "bashar", EMPEROR, 2),
    /* Fremen */
    [15] = LEADER("Stilgar", "stilgar", FREMEN, 7),
    [16] = LEADER("Chani", "chani", FREMEN, 6),
    [17] = LEADER("Otheym", "otheym", FREMEN, 5),
    [18] = LEADER("Shadout Mapes", "shadout_mapes", FREMEN, 3),
    [19] = LEADER("Jamis", "jamis", FREMEN, 2),
    /* Harkonnen */
    [20] = LEADER("Feyd Rautha", "feyd_rautha", HARKONNEN, 6),
    [21] = LEADER("Beast Rabban", "beast_rabban", HARKONNEN, 4),
    [22] = LEADER("Piter de Vries", "piter_de_vries", HARKONNEN, 3),
    [23] = LEADER("Captain Iakin Nefud", "captain_iakin_nefud", HARKONNEN, 2),
    [24] = LEADER("Umman Kudu", "umman_kudu", HARKONNEN, 1),
    /* Spacing Guild */
    [25] = LEADER("Staban Tuek", "staban_tuek", GUILD, 5),
    [26] = LEADER("Master Bewt", "master_bewt", GUILD, 3),
    [27] = LEADER("Esmar Tuek", "esmar_tuek", GUILD, 3),
    [28] = LEADER("Soo-Soo Sook", "soo_soo_sook", GUILD, 2),
    [29] = LEADER("Guild Rep.", "guild_rep", GUILD, 1),
    /* Ixians */
    [30] = LEADER("C'Tair Pilru", "ctair_pilru", IXIANS, 5),
    [31] = LEADER("Tessia Vernius", "tessia_vernius", IXIANS, 5),
    [32] = LEADER("Dominic Vernius", "dominic_vernius", IXIANS, 4),
    [33] = LEADER("Kailea Vernius", "kailea_vernius", IXIANS, 2),
    [34] = LEADER("Cammar Pilru", "cammar_pilru", IXIANS, 1),
    /* Tleilaxu; Zoal's strength is the opposing leader's (0 here) */
    [35] = { "Zoal", "zoal", ENGINE_FACTION_TLEILAXU, 0, 6, 1, 0 },
    [36] = LEADER("Hidar Fen Ajidica", "hidar_fen_ajidica", TLEILAXU, 4),
    [37] = LEADER("Master Zaaf", "master_zaaf", TLEILAXU, 3),
    [38] = LEADER("Wykk", "wykk", TLEILAXU, 2),
    [39] = LEADER("Blin", "blin", TLEILAXU, 1),
    /* CHOAM */
    [40] = LEADER("Lady Jalma", "lady_jalma", CHOAM, 4),
    [41] = LEADER("Frankos Aru", "frankos_aru", CHOAM, 4),
    [42] = LEADER("Duke Verdun", "duke_verdun", CHOAM, 3),
    [43] = LEADER("Rajiv Londine", "rajiv_londine", CHOAM, 3),
    [44] = LEADER("Viscount Tull", "viscount_tull", CHOAM, 2),
    /* Richese */
    [45] = LEADER("Premier Ein Calimar", "premier_ein_calimar", RICHESE, 5),
    [46] = LEADER("Lady Helena", "lady_helena", RICHESE, 4),
    [47] = LEADER("Flinto Kinnis", "flinto_kinnis", RICHESE, 3),
    [48] = LEADER("Talis Balt", "talis_balt", RICHESE, 2),
    [49] = LEADER("Haloa Rund", "haloa_rund", RICHESE, 2),
    /* Ecaz */
    [50] = LEADER("Sanya Ecaz", "sanya_ecaz", ECAZ, 4),
    [51] = LEADER("Whitmore Bludd", "whitmore_bludd", ECAZ, 4),
    [52] = LEADER("Rivvy Dinari", "rivvy_dinari", ECAZ, 3),
    [53] = LEADER("Ilesa Ecaz", "ilesa_ecaz", ECAZ, 3),
    [54] = LEADER("Bindikk Narvi", "bindikk_narvi", ECAZ, 2),
    /* Moritani */
    [55] = LEADER("Lupino Ord", "lupino_ord", MORITANI, 5),
    [56] = LEADER("Hiih Resser", "hiih_resser", MORITANI, 4),
    [57] = LEADER("Grieu Kronos", "grieu_kronos", MORITANI, 4),
    [58] = LEADER("Trin Kronos", "trin_kronos", MORITANI, 2),
    [59] = LEADER("Vando Terboli", "vando_terboli", MORITANI, 1),
    /* optional leaders: CHOAM's Auditor (Advanced "Auditor" rule) and Duke
     * Vidal, a floating leader of no faction who is never a traitor */
    [60] = { "Auditor", "auditor", ENGINE_FACTION_CHOAM, 2, 2, 1, 1 },
    [61] = { "Duke Prad Vidal", "duke_prad_vidal", ENGINE_FACTION_NONE,
             6, 5, 0, 1 },
};

_Static_assert(sizeof engine__leaders / sizeof engine__leaders[0]
                   == ENGINE_LEADER_COUNT,
               "one row per leader");
_Static_assert(ENGINE_LEADER_COUNT == 5 * ENGINE_FACTION_COUNT + 2,
               "five leaders per faction, then the Auditor and Vidal");
