/* Whether a list holds no two equal identifiers — together with the other list's
 * elements the trusted matcher left unmatched — cheaply: the check that tells a
 * validated diff its trusted matching was exact. Only the answer is computed; the exact
 * duplicate report is the matcher's slow path (dfc_match.c).
 *
 * One table over a long list is far larger than the caches and probed at random: a
 * cache miss an element.
 * Here the elements are first bucketed by the top bits of their hash into partitions
 * of ~4096 (one sequential pass to count, one to scatter, the partitions' write
 * positions all in L1), then each partition is checked with a table of its own that
 * stays in the L2 cache, so its probes hit the cache (the cost of each way:
 * docs/PERFORMANCE.md). */
#include "dfc_internal.h"

/* The partition of a spread key: its top `bits` bits. */
static inline size_t dfc__partition(uint64_t spread, unsigned bits) {
    return bits == 0 ? 0 : (size_t)(spread >> (64u - bits));
}

/* Which list and element a bucketed entry stands for: probes (elements of the other
 * side) carry the top bit, free because counts stay below 2^31 (DFC_MAX_COUNT). */
#define DFC_PROBE_BIT 0x80000000u

static inline bool dfc__entries_equal(const dfc_identity *identity, int side, uint32_t a, uint32_t b) {
    const int side_a = (a & DFC_PROBE_BIT) ? 1 - side : side, side_b = (b & DFC_PROBE_BIT) ? 1 - side : side;
    const uint32_t index_a = a & ~(uint32_t)DFC_PROBE_BIT, index_b = b & ~(uint32_t)DFC_PROBE_BIT;
    return identity->lists[side_a]->keys[index_a] == identity->lists[side_b]->keys[index_b] &&
           dfc__confirm(identity, side_a, index_a, side_b, index_b);
}

/* Writes `entry` with the key's fingerprint (the 32 spread bits below its partition's) at
 * its partition's next place. */
static inline void dfc__scatter(uint64_t *bucketed, uint32_t *starts, unsigned bits, uint64_t key, uint32_t entry) {
    const uint64_t spread = dfc__spread(key);
    const uint32_t fingerprint = (uint32_t)(spread >> (32u - bits));
    bucketed[starts[dfc__partition(spread, bits)]++] = ((uint64_t)fingerprint << 32) | (uint64_t)entry;
}

int dfc__list_is_unique(dfc_context *context, const dfc_identity *identity, int side, const uint32_t *probes,
                        size_t probe_count, bool *unique) {
    const size_t n = identity->lists[side]->count;
    const uint64_t *keys = identity->lists[side]->keys;
    const uint64_t *other_keys = identity->lists[1 - side]->keys;
    *unique = true;
    const size_t total = n + probe_count;
    if (total < 2) return DFC_OK;
    const unsigned bits = dfc__partition_bits(total);
    const size_t partitions = (size_t)1 << bits;
    dfc_unique_scratch sizes;
    if (!dfc__unique_scratch_for(n, probe_count, &sizes)) return DFC_ERR_TOO_LARGE;
    int status = DFC_OK;
    /* Every buffer here is sized by dfc__unique_scratch_for, as dfc_context_reserve sizes them:
     * the partitions' starts; every element bucketed; the probes' keys, read once from their
     * scattered places, then (once scattered) the table of one partition in the same buffer. */
    uint32_t *starts = dfc__context_scratch(context, DFC_BUF_LIS_TAILS, sizes.starts, sizeof(uint32_t), &status);
    if (starts == NULL) return status;
    uint64_t *bucketed = dfc__context_scratch(context, DFC_BUF_SLOTS, sizes.bucketed, sizeof(uint64_t), &status);
    if (bucketed == NULL) return status;
    uint64_t *probe_keys = dfc__context_scratch(context, DFC_BUF_SLOTS_NEW, sizes.keys_then_table, sizeof(uint64_t), &status);
    if (probe_keys == NULL) return status;

    /* Count, then scatter each element as (the 32 spread bits below its partition's, entry). */
    memset(starts, 0, (partitions + 1) * sizeof(uint32_t));
    for (size_t i = 0; i < n; i++) starts[dfc__partition(dfc__spread(keys[i]), bits) + 1]++;
    for (size_t k = 0; k < probe_count; k++) {
        probe_keys[k] = other_keys[probes[k]];
        starts[dfc__partition(dfc__spread(probe_keys[k]), bits) + 1]++;
    }
    size_t largest = 0;
    for (size_t p = 0; p < partitions; p++) {
        if (starts[p + 1] > largest) largest = starts[p + 1];
        starts[p + 1] += starts[p];
    }
    /* A partition this crowded holds many equal (or colliding) keys: rather than a table
     * larger than reserved, say "maybe not unique" and let the caller's exact matcher decide. */
    if (largest > dfc__partition_limit(total)) {
        *unique = false;
        return DFC_OK;
    }
    for (size_t i = 0; i < n; i++) dfc__scatter(bucketed, starts, bits, keys[i], (uint32_t)i);
    for (size_t k = 0; k < probe_count; k++)
        dfc__scatter(bucketed, starts, bits, probe_keys[k], probes[k] | DFC_PROBE_BIT);
    /* starts[p] is now where partition p ends (and p + 1 begins); the probe keys are no longer needed. */

    uint64_t *table = probe_keys;
    size_t begin = 0;
    for (size_t p = 0; p < partitions; begin = starts[p], p++) {
        const size_t end = starts[p];
        if (end - begin < 2) continue;
        size_t slots = 0;
        unsigned home_shift = 0;
        /* no larger than the buffer: end - begin is within the partition limit */
        (void)dfc__fingerprint_slot_capacity_for(end - begin, &slots, &home_shift);
        const size_t mask = slots - 1;
        memset(table, 0, slots * sizeof(uint64_t));
        for (size_t e = begin; e < end; e++) {
            const uint32_t fingerprint = (uint32_t)(bucketed[e] >> 32), entry = (uint32_t)bucketed[e];
            size_t position = fingerprint >> home_shift;
            uint64_t slot;
            while ((slot = table[position]) != 0) {
                if ((uint32_t)(slot >> 32) == fingerprint &&
                    dfc__entries_equal(identity, side, (uint32_t)slot - 1, entry)) {
                    *unique = false;
                    return DFC_OK;
                }
                position = (position + 1) & mask;
            }
            table[position] = ((uint64_t)fingerprint << 32) | ((uint64_t)entry + 1);
        }
    }
    return DFC_OK;
}
