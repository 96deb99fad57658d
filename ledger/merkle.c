/*
 * merkle.c - the Merkle tree of RFC 9162 (the hashing of RFC 6962): leaf
 * and node hashes, inclusion and consistency proofs made from any source
 * of subtree hashes, and their verification.
 *
 * Part of ledger/, but pure: no storage, no allocation, no clock. Where the
 * subtree hashes come from is the caller's (ledger/tree.c reads them from
 * the `trees` database; the tests from a list of leaves). Verification
 * reads only its arguments, so a seat checks a proof with nothing but the
 * tree heads it holds.
 *
 *   leaf hash  = SHA-256(0x00 || entry)
 *   node hash  = SHA-256(0x01 || left || right)
 *   empty tree = SHA-256("")
 *
 * Proofs list their hashes from the bottom of the tree up (RFC 9162
 * 2.1.3.1 and 2.1.4.1). The verifiers follow RFC 9162 2.1.3.2 and 2.1.4.2
 * in the bit-decomposed form of transparency-dev/merkle, whose published
 * test vectors tests/ledger/test_merkle.c replays.
 */
#include <string.h>

#include "ledger/internal.h"

void ledger_merkle_leaf_hash(uint8_t out[LEDGER_TREE_HASH_BYTES], const uint8_t *entry,
                             size_t len)
{
    crypto_hash_sha256_state st;
    static const uint8_t prefix = 0x00;
    crypto_hash_sha256_init(&st);
    crypto_hash_sha256_update(&st, &prefix, 1);
    crypto_hash_sha256_update(&st, entry, len);
    crypto_hash_sha256_final(&st, out);
}

void ledger_merkle_node_hash(uint8_t out[LEDGER_TREE_HASH_BYTES],
                             const uint8_t left[LEDGER_TREE_HASH_BYTES],
                             const uint8_t right[LEDGER_TREE_HASH_BYTES])
{
    uint8_t buf[1 + 2 * LEDGER_TREE_HASH_BYTES];
    buf[0] = 0x01;
    memcpy(buf + 1, left, LEDGER_TREE_HASH_BYTES);
    memcpy(buf + 1 + LEDGER_TREE_HASH_BYTES, right, LEDGER_TREE_HASH_BYTES);
    crypto_hash_sha256(out, buf, sizeof buf);
}

void ledger_merkle_empty_root(uint8_t out[LEDGER_TREE_HASH_BYTES])
{
    crypto_hash_sha256(out, NULL, 0);
}

/* ===================================================== compact range */

void ledger__range_push(ledger__range *r, const uint8_t leaf[LEDGER_TREE_HASH_BYTES],
                        uint8_t (*levels)[LEDGER_TREE_HASH_BYTES])
{
    assert(r->n < LEDGER__RANGE_MAX);
    memcpy(r->hash[r->n++], leaf, LEDGER_TREE_HASH_BYTES);
    if (levels != NULL)
        memcpy(levels[0], leaf, LEDGER_TREE_HASH_BYTES);
    /* Each trailing one bit of the old size is a perfect subtree the new
     * leaf's completes. */
    unsigned level = 0;
    for (uint64_t s = r->size; s & 1; s >>= 1) {
        ledger_merkle_node_hash(r->hash[r->n - 2], r->hash[r->n - 2], r->hash[r->n - 1]);
        r->n--;
        if (levels != NULL)
            memcpy(levels[++level], r->hash[r->n - 1], LEDGER_TREE_HASH_BYTES);
    }
    r->size++;
}

void ledger__range_root(const ledger__range *r, uint8_t out[LEDGER_TREE_HASH_BYTES])
{
    if (r->n == 0) {
        ledger_merkle_empty_root(out);
        return;
    }
    memcpy(out, r->hash[r->n - 1], LEDGER_TREE_HASH_BYTES);
    for (size_t i = r->n - 1; i-- > 0;)
        ledger_merkle_node_hash(out, r->hash[i], out);
}

/* ============================================================ making */

/* The largest power of two below n (n >= 2). */
static uint64_t split_point(uint64_t n)
{
    uint64_t k = 1;
    while (k << 1 < n)
        k <<= 1;
    return k;
}

static int push(ledger_tree_proof *p, ledger__subtree_fn fn, void *ctx, uint64_t begin,
                uint64_t end)
{
    if (p->n_hashes == LEDGER_PROOF_MAX)
        return LEDGER_ERROR; /* cannot happen below 2^32 leaves */
    return fn(ctx, p->hash[p->n_hashes++], begin, end);
}

/* PATH(m, D[begin:end]) of RFC 9162 2.1.3.1, bottom first. */
static int path(ledger_tree_proof *p, ledger__subtree_fn fn, void *ctx, uint64_t m,
                uint64_t begin, uint64_t end)
{
    if (end - begin <= 1)
        return 0;
    uint64_t k = split_point(end - begin);
    int rc = m < k ? path(p, fn, ctx, m, begin, begin + k)
                   : path(p, fn, ctx, m - k, begin + k, end);
    if (rc != 0)
        return rc;
    return m < k ? push(p, fn, ctx, begin + k, end) : push(p, fn, ctx, begin, begin + k);
}

int ledger__merkle_inclusion(ledger_tree_proof *out, ledger__subtree_fn fn, void *ctx,
                             uint64_t index, uint64_t size)
{
    memset(out, 0, sizeof *out);
    if (index >= size)
        return LEDGER_EINPUT;
    return path(out, fn, ctx, index, 0, size);
}

/* SUBPROOF(m, D[begin:end], b) of RFC 9162 2.1.4.1, bottom first. */
static int subproof(ledger_tree_proof *p, ledger__subtree_fn fn, void *ctx, uint64_t m,
                    uint64_t begin, uint64_t end, int is_whole)
{
    uint64_t n = end - begin;
    if (m == n)
        return is_whole ? 0 : push(p, fn, ctx, begin, end);
    uint64_t k = split_point(n);
    int rc = m <= k ? subproof(p, fn, ctx, m, begin, begin + k, is_whole)
                    : subproof(p, fn, ctx, m - k, begin + k, end, 0);
    if (rc != 0)
        return rc;
    return m <= k ? push(p, fn, ctx, begin + k, end) : push(p, fn, ctx, begin, begin + k);
}

int ledger__merkle_consistency(ledger_tree_proof *out, ledger__subtree_fn fn, void *ctx,
                               uint64_t size1, uint64_t size2)
{
    memset(out, 0, sizeof *out);
    if (size1 == 0 || size1 > size2)
        return LEDGER_EINPUT;
    if (size1 == size2)
        return 0;
    return subproof(out, fn, ctx, size1, 0, size2, 1);
}

/* ========================================================= verifying */

static unsigned bit_len(uint64_t x)
{
    unsigned n = 0;
    while (x != 0) {
        n++;
        x >>= 1;
    }
    return n;
}

static unsigned ones(uint64_t x)
{
    unsigned n = 0;
    for (; x != 0; x &= x - 1)
        n++;
    return n;
}

/* x >> n, 0 once n reaches the width (a shift by 64 is undefined in C). */
static uint64_t shr(uint64_t x, unsigned n)
{
    return n >= 64 ? 0 : x >> n;
}

static unsigned trailing_zeros(uint64_t x)
{
    unsigned n = 0;
    while (n < 64 && ((x >> n) & 1) == 0)
        n++;
    return n;
}

/* Hashes seed up through proof[0..n): at level i the seed is the left
 * child when bit i of index is 0 (chain_inner); chain_inner_right only
 * takes the levels where it is the right child. */
static void chain_inner(uint8_t seed[LEDGER_TREE_HASH_BYTES],
                        const uint8_t (*proof)[LEDGER_TREE_HASH_BYTES], size_t n, uint64_t index)
{
    for (size_t i = 0; i < n; i++) {
        if (((index >> i) & 1) == 0)
            ledger_merkle_node_hash(seed, seed, proof[i]);
        else
            ledger_merkle_node_hash(seed, proof[i], seed);
    }
}

static void chain_inner_right(uint8_t seed[LEDGER_TREE_HASH_BYTES],
                              const uint8_t (*proof)[LEDGER_TREE_HASH_BYTES], size_t n,
                              uint64_t index)
{
    for (size_t i = 0; i < n; i++)
        if (((index >> i) & 1) == 1)
            ledger_merkle_node_hash(seed, proof[i], seed);
}

static void chain_border_right(uint8_t seed[LEDGER_TREE_HASH_BYTES],
                               const uint8_t (*proof)[LEDGER_TREE_HASH_BYTES], size_t n)
{
    for (size_t i = 0; i < n; i++)
        ledger_merkle_node_hash(seed, proof[i], seed);
}

static int same(const uint8_t a[LEDGER_TREE_HASH_BYTES], const uint8_t b[LEDGER_TREE_HASH_BYTES])
{
    return sodium_memcmp(a, b, LEDGER_TREE_HASH_BYTES) == 0;
}

int ledger_merkle_inclusion_verify(uint64_t index, uint64_t size,
                                   const uint8_t leaf[LEDGER_TREE_HASH_BYTES],
                                   const ledger_tree_proof *proof,
                                   const uint8_t root[LEDGER_TREE_HASH_BYTES])
{
    if (index >= size || proof->n_hashes > LEDGER_PROOF_MAX)
        return LEDGER_EBADSIG;
    unsigned inner = bit_len(index ^ (size - 1));
    unsigned border = ones(shr(index, inner));
    if (proof->n_hashes != (size_t)inner + border)
        return LEDGER_EBADSIG;
    uint8_t h[LEDGER_TREE_HASH_BYTES];
    memcpy(h, leaf, sizeof h);
    chain_inner(h, proof->hash, inner, index);
    chain_border_right(h, proof->hash + inner, border);
    return same(h, root) ? 0 : LEDGER_EBADSIG;
}

int ledger_merkle_consistency_verify(uint64_t size1, uint64_t size2,
                                     const ledger_tree_proof *proof,
                                     const uint8_t root1[LEDGER_TREE_HASH_BYTES],
                                     const uint8_t root2[LEDGER_TREE_HASH_BYTES])
{
    size_t n = proof->n_hashes;
    if (size2 < size1 || size1 == 0 || n > LEDGER_PROOF_MAX)
        return LEDGER_EBADSIG;
    if (size1 == size2)
        return n == 0 && same(root1, root2) ? 0 : LEDGER_EBADSIG;
    if (n == 0)
        return LEDGER_EBADSIG;
    unsigned inner = bit_len((size1 - 1) ^ (size2 - 1));
    unsigned border = ones(shr(size1 - 1, inner));
    unsigned shift = trailing_zeros(size1);
    inner -= shift; /* shift < inner since size1 < size2 */
    /* The proof opens with the root of the subtree of size 2^shift, unless
     * size1 is that very subtree: then the seed is root1. */
    uint8_t seed[LEDGER_TREE_HASH_BYTES];
    size_t start = 1;
    if (size1 == (uint64_t)1 << shift) {
        memcpy(seed, root1, sizeof seed);
        start = 0;
    } else {
        memcpy(seed, proof->hash[0], sizeof seed);
    }
    if (n != start + inner + border)
        return LEDGER_EBADSIG;
    const uint8_t (*p)[LEDGER_TREE_HASH_BYTES] = proof->hash + start;
    uint64_t mask = (size1 - 1) >> shift;
    uint8_t h1[LEDGER_TREE_HASH_BYTES], h2[LEDGER_TREE_HASH_BYTES];
    memcpy(h1, seed, sizeof h1);
    chain_inner_right(h1, p, inner, mask);
    chain_border_right(h1, p + inner, border);
    if (!same(h1, root1))
        return LEDGER_EBADSIG;
    memcpy(h2, seed, sizeof h2);
    chain_inner(h2, p, inner, mask);
    chain_border_right(h2, p + inner, border);
    return same(h2, root2) ? 0 : LEDGER_EBADSIG;
}
