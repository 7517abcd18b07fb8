/* dfc_context_reserve's promise: after reserve(n, m), a flat diff of up to n old and m new
 * elements allocates nothing, whatever the lists hold. Every shape that sizes some buffer at
 * its largest is tried (nothing in common, all the same, shuffled, reversed, churned, one side
 * empty or much shorter, keys crowding one hash partition), at sizes on both sides of the
 * table and partition thresholds, with and without DFC_DIFF_ASSUME_UNIQUE, identifiers as
 * integers and as bytes, and counted twice:
 * by the allocator the context was given and by dfc_context_allocation_count. */
#include "dfc.h"
#include "harness.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* The multiplier the core spreads keys with; keys that are multiples of its inverse spread to
 * small numbers, so all land in the first hash partition without being equal. */
static uint64_t crowding_step(void) {
    const uint64_t multiplier = UINT64_C(0x9E3779B97F4A7C15);
    uint64_t inverse = multiplier; /* Newton's iteration doubles the correct low bits each step */
    for (int i = 0; i < 6; i++) inverse *= 2 - multiplier * inverse;
    return inverse;
}

typedef enum {
    SHAPE_ALL_DIFFERENT, /* no element in common: every new element is probed for uniqueness */
    SHAPE_ALL_SAME,      /* the new list is the old one's first m elements */
    SHAPE_SHUFFLE,       /* the old elements (first m) in random order */
    SHAPE_REVERSE,       /* the longest LIS walk is 1 */
    SHAPE_CHURN,         /* 5% replaced, 5% swapped */
    SHAPE_CROWDED,       /* nothing in common, every key in one partition */
    SHAPE_COUNT
} reserve_shape;

static const char *const shape_names[SHAPE_COUNT] = {"all different", "all same", "shuffle", "reverse", "churn",
                                                     "crowded keys"};

/* Fills old (n) and new (m) for `shape`; the expected matched count goes to *matched. */
static void fill_shape(reserve_shape shape, uint64_t *old_keys, size_t n, uint64_t *new_keys, size_t m,
                       size_t *matched) {
    const uint64_t step = shape == SHAPE_CROWDED ? crowding_step() : 1;
    for (size_t i = 0; i < n; i++) old_keys[i] = (uint64_t)(i + 1) * step;
    const size_t shared = m < n ? m : n;
    *matched = 0;
    switch (shape) {
    case SHAPE_ALL_DIFFERENT:
    case SHAPE_CROWDED:
        for (size_t j = 0; j < m; j++) new_keys[j] = (uint64_t)(n + j + 1) * step;
        return;
    case SHAPE_ALL_SAME:
    case SHAPE_SHUFFLE:
    case SHAPE_REVERSE:
    case SHAPE_CHURN:
        for (size_t j = 0; j < m; j++)
            new_keys[j] = j < shared ? old_keys[shape == SHAPE_REVERSE ? shared - 1 - j : j] : (uint64_t)(n + j + 1);
        *matched = shared;
        break;
    case SHAPE_COUNT:
        return;
    }
    if (shape == SHAPE_SHUFFLE) {
        for (size_t j = shared; j > 1; j--) {
            size_t k = rng_below(j);
            uint64_t t = new_keys[j - 1];
            new_keys[j - 1] = new_keys[k], new_keys[k] = t;
        }
    } else if (shape == SHAPE_CHURN) {
        for (size_t j = 0; j < shared; j += 20, (*matched)--) new_keys[j] = (uint64_t)(n + m + j + 1);
        for (size_t s = 0; s < shared / 20; s++) {
            size_t a = rng_below(shared), b = rng_below(shared);
            uint64_t t = new_keys[a];
            new_keys[a] = new_keys[b], new_keys[b] = t;
        }
    }
}

/* One reserve of (n, m), then every shape at (n, m) and at smaller sizes under it, in one
 * context: not one allocation may follow the reserve. */
static void check_reserved_sizes(size_t n, size_t m) {
    test_heap heap = {0};
    const dfc_allocator allocator = {test_allocate, test_release, &heap};
    dfc_context *ctx = dfc_context_create(&allocator);
    CHECK(ctx != NULL);
    if (ctx == NULL) return;
    uint64_t *old_keys = malloc((n + 1) * sizeof(uint64_t)), *new_keys = malloc((m + 1) * sizeof(uint64_t));
    /* For DFC_MATCH_BYTES each key's own 8 bytes are its identifier: offsets 0, 8, 16, ... */
    const size_t longer = n > m ? n : m;
    uint64_t *offsets = malloc((longer + 1) * sizeof(uint64_t));
    for (size_t i = 0; i <= longer; i++) offsets[i] = i * sizeof(uint64_t);
    CHECK_EQ_INT(dfc_context_reserve(ctx, n, m), DFC_OK);
    const long reserved_calls = heap.calls;
    const uint64_t reserved_count = dfc_context_allocation_count(ctx);
    const size_t sizes[][2] = {{n, m}, {n / 2, m}, {n, m / 3}, {n / 3, m / 2}, {0, m}, {n, 0}};
    for (size_t z = 0; z < sizeof(sizes) / sizeof(sizes[0]); z++) {
        const size_t on = sizes[z][0], om = sizes[z][1];
        for (int shape = 0; shape < SHAPE_COUNT; shape++) {
            /* crowded keys cost quadratic probing: the smaller sizes show the fallback enough */
            if (shape == SHAPE_CROWDED && on + om > 12000) continue;
            /* the match kind only changes how key matches are confirmed: byte checks at full size suffice */
            const int last_kind = z == 0 ? DFC_MATCH_BYTES : DFC_MATCH_INJECTIVE;
            for (int kind = DFC_MATCH_INJECTIVE; kind <= last_kind; kind++)
            for (unsigned flags = 0; flags <= DFC_DIFF_ASSUME_UNIQUE; flags++) {
                size_t matched = 0;
                fill_shape((reserve_shape)shape, old_keys, on, new_keys, om, &matched);
                const dfc_list old_list = {old_keys, on, old_keys, offsets}, new_list = {new_keys, om, new_keys, offsets};
                const dfc_match match = {kind, NULL, NULL};
                dfc_flat_result r;
                const long before = heap.calls;
                const int status = dfc_diff_flat(ctx, &old_list, &new_list, &match, flags, &r);
                const bool allocated = heap.calls != before;
                const bool right = status == DFC_OK && r.matched == matched && r.insert_count == om - matched &&
                                   r.delete_count == on - matched;
                if (allocated || !right)
                    fprintf(stderr, "  reserve(%zu, %zu), %s %zu -> %zu, match %d, flags %u: %ld allocations, status %d\n",
                            n, m, shape_names[shape], on, om, kind, flags, heap.calls - before, status);
                CHECK(!allocated);
                CHECK(right);
            }
        }
    }
    CHECK_EQ_INT(heap.calls, reserved_calls);
    CHECK_EQ_INT(dfc_context_allocation_count(ctx), reserved_count);
    dfc_context_free(ctx);
    free(old_keys);
    free(new_keys);
    free(offsets);
}

void test_reserve_covers_every_flat_diff(void) {
    rng_state = 1; /* the shuffles and churn are the same every run */
    /* Around the small tables (16 slots), one partition (4,096), a partition limit (8,192), and
     * the ratios between a list's table and both lists bucketed; n != m both ways. */
    const size_t sizes[][2] = {{0, 0},       {1, 1},       {10, 10},     {100, 100},     {1000, 1000},
                               {1500, 1500}, {3000, 3000}, {5000, 5000}, {20000, 20000}, {100000, 100000},
                               {10, 30000},  {30000, 10},  {0, 20000},   {20000, 0},     {5000, 60000}};
    for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) check_reserved_sizes(sizes[s][0], sizes[s][1]);
}
