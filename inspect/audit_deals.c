/*
 * audit_deals.c - whether a treachery card's number tells anything about
 * its face before it is seen: statistics of the faces dealt to numbers at
 * setup (across rooms) and at every reshuffle (the face a number had
 * before against the one it gets).
 *
 * The counterfactual audit takes "numbers carry no identity" from the
 * engine (engine/view.c invariant (1)): it swaps the faces of two unseen
 * cards as if either could be either. That holds only if setup deals the
 * faces to numbers uniformly, the same way in no two rooms, and every
 * reshuffle deals them afresh; a seat that saw number 12 face up before a
 * reshuffle could otherwise link it to number 12 after it. These are the
 * tests of that premise: a chi-square of number against face over many
 * setups, and the count of numbers that keep their face through a
 * reshuffle against its exact mean and variance under a uniform deal.
 *
 * Layer: inspect. Pure arithmetic over states it is given (and, for the
 * setup statistic, states engine_setup deals in memory); writes nothing.
 */
#include <math.h>
#include <string.h>

#include "inspect/internal.h"

/* ------------------------------------------------------ reshuffles */

/* Mean and variance of the number of positions keeping their kind when
 * the n kinds in `kind` are dealt afresh by a uniform permutation. */
static void keep_moments(double *mean, double *var, const uint8_t *kind, unsigned n)
{
    unsigned count[ENGINE_CARD_KIND_COUNT];
    memset(count, 0, sizeof count);
    for (unsigned i = 0; i < n; i++)
        count[kind[i]]++;
    double m = 0, v = 0;
    for (unsigned i = 0; i < n; i++) {
        double p = (double)count[kind[i]] / n;
        m += p;
        v += p * (1 - p);
        for (unsigned j = 0; j < n && n > 1; j++) {
            if (j == i)
                continue;
            double q = (double)count[kind[j]] / n;
            double both = kind[i] == kind[j]
                              ? (double)count[kind[i]] * (count[kind[i]] - 1) / ((double)n * (n - 1))
                              : (double)count[kind[i]] * count[kind[j]] / ((double)n * (n - 1));
            v += both - p * q;
        }
    }
    *mean = m;
    *var = v;
}

void inspect__redeal_add(inspect_audit_redeal *acc, const engine_state *before,
                         const engine_state *after)
{
    uint8_t kind[ENGINE_TREACHERY_MAX];
    unsigned n = 0, kept = 0;
    for (unsigned i = 0; i < before->n_cards; i++) {
        if (before->card[i].place != ENGINE_PLACE_DISCARD ||
            after->card[i].place == ENGINE_PLACE_DISCARD)
            continue;
        kind[n++] = before->card_kind[i];
        kept += after->card_kind[i] == before->card_kind[i];
    }
    if (n == 0)
        return;
    double m, v;
    keep_moments(&m, &v, kind, n);
    acc->n_reshuffles++;
    acc->n_cards += n;
    acc->kept += kept;
    acc->mean += m;
    acc->variance += v;
}

double inspect_audit_redeal_z(const inspect_audit_redeal *acc)
{
    if (acc->variance <= 0)
        return 0;
    return (acc->kept - acc->mean) / sqrt(acc->variance);
}

void inspect_audit_redeal_merge(inspect_audit_redeal *acc, const inspect_audit_redeal *more)
{
    acc->n_reshuffles += more->n_reshuffles;
    acc->n_cards += more->n_cards;
    acc->kept += more->kept;
    acc->mean += more->mean;
    acc->variance += more->variance;
}

/* ----------------------------------------------------------- setup */

/* The chi-square critical value of df degrees of freedom at upper tail z
 * standard deviations (Wilson-Hilferty). */
static double chi2_critical(unsigned df, double z)
{
    double k = 2.0 / (9.0 * df);
    double c = 1 - k + z * sqrt(k);
    return df * c * c * c;
}

int inspect_audit_setup_deals(inspect_audit_deals *out, const engine_config *cfg,
                              unsigned n_rooms, uint64_t seed0)
{
    static unsigned table[ENGINE_TREACHERY_MAX][ENGINE_CARD_KIND_COUNT];
    static engine_state st;
    memset(out, 0, sizeof *out);
    memset(table, 0, sizeof table);
    unsigned n_cards = 0, total[ENGINE_CARD_KIND_COUNT];
    memset(total, 0, sizeof total);
    for (unsigned r = 0; r < n_rooms; r++) {
        uint8_t seed[ENGINE_SEED_BYTES];
        memset(seed, 0, sizeof seed);
        uint64_t x = seed0 + r;
        for (unsigned b = 0; b < 8; b++)
            seed[b] = (uint8_t)(x >> (8 * b));
        seed[8] = 0xde;
        engine_rng rng;
        engine_rng_init(&rng, seed, 0);
        if (engine_setup(NULL, &st, cfg, &rng) != ENGINE_ACCEPTED)
            return INSPECT_EINPUT;
        n_cards = st.n_cards;
        for (unsigned i = 0; i < st.n_cards; i++) {
            table[i][st.card_kind[i]]++;
            total[st.card_kind[i]]++;
        }
    }
    unsigned kinds = 0;
    double chi2 = 0;
    for (unsigned k = 0; k < ENGINE_CARD_KIND_COUNT; k++) {
        if (total[k] == 0)
            continue;
        kinds++;
        double expect = (double)total[k] / n_cards; /* per number: faces are exchangeable */
        for (unsigned i = 0; i < n_cards; i++) {
            double d = table[i][k] - expect;
            chi2 += d * d / expect;
        }
    }
    out->n_rooms = n_rooms;
    out->df = kinds > 1 && n_cards > 1 ? (n_cards - 1) * (kinds - 1) : 0;
    out->chi2 = chi2;
    out->critical = out->df > 0 ? chi2_critical(out->df, INSPECT_AUDIT_DEAL_Z) : 0;
    return 0;
}
