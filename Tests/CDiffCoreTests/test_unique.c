/* Duplicates (dfc_unique.c, dfc_context.c's list): every one reported, in every matching
 * shape, in lists long enough to be checked in many partitions. */
#include "dfc.h"
#include "harness.h"
#include "oracle.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void test_duplicates_reported(void) {
    dfc_context *ctx = dfc_context_create(NULL);
    dfc_flat_result r;
    memset(&r, 0xAB, sizeof(r));
    dfc_flat_result untouched = r;
    size_t count = 0;
    const dfc_duplicate *d;
    /* old has 5 twice and 7 three times */
    uint64_t a[] = {5, 7, 5, 7, 1, 7}, b[] = {1, 2};
    CHECK_EQ_INT(diff_keys(ctx, a, 6, b, 2, 0, &r), DFC_ERR_DUPLICATE);
    CHECK(memcmp(&r, &untouched, sizeof(r)) == 0);
    d = dfc_context_duplicates(ctx, &count);
    CHECK_EQ_INT(count, 3);
    if (count == 3) {
        CHECK(d[0].side == DFC_SIDE_OLD && d[0].first == 0 && d[0].duplicate == 2);
        CHECK(d[1].side == DFC_SIDE_OLD && d[1].first == 1 && d[1].duplicate == 3);
        CHECK(d[2].side == DFC_SIDE_OLD && d[2].first == 1 && d[2].duplicate == 5);
    }
    /* new duplicates: in the common prefix, in the suffix, among inserts */
    uint64_t c[] = {1, 2, 3}, e[] = {1, 9, 1, 9, 3, 3};
    CHECK_EQ_INT(diff_keys(ctx, c, 3, e, 6, 0, &r), DFC_ERR_DUPLICATE);
    d = dfc_context_duplicates(ctx, &count);
    CHECK_EQ_INT(count, 3);
    if (count == 3) {
        CHECK(d[0].side == DFC_SIDE_NEW && d[0].first == 0 && d[0].duplicate == 2);
        CHECK(d[1].side == DFC_SIDE_NEW && d[1].first == 1 && d[1].duplicate == 3);
        CHECK(d[2].side == DFC_SIDE_NEW && d[2].first == 4 && d[2].duplicate == 5);
    }
    /* both lists: old reported, new too */
    uint64_t f[] = {4, 4}, g[] = {6, 6};
    CHECK_EQ_INT(diff_keys(ctx, f, 2, g, 2, 0, &r), DFC_ERR_DUPLICATE);
    d = dfc_context_duplicates(ctx, &count);
    CHECK_EQ_INT(count, 2);
    if (count == 2) CHECK(d[0].side == DFC_SIDE_OLD && d[1].side == DFC_SIDE_NEW);
    /* a clean diff clears the list */
    CHECK_EQ_INT(diff_keys(ctx, c, 3, c, 3, 0, &r), DFC_OK);
    CHECK(dfc_context_duplicates(ctx, &count) == NULL && count == 0);
    /* so does a diff refused for its arguments (dfc.h: after any other return, there is none),
     * flat and sectioned */
    const dfc_list with_repeats = {f, 2, NULL, NULL}, other = {g, 2, NULL, NULL};
    const uint64_t one_section = 1;
    const uint32_t starts[] = {0, 2};
    const dfc_snapshot repeated = {{&one_section, 1, NULL, NULL}, with_repeats, starts};
    dfc_sections_result sections;
    for (int refusal = 0; refusal < 4; refusal++) {
        CHECK_EQ_INT(dfc_diff_flat(ctx, &with_repeats, &other, &injective, 0, &r), DFC_ERR_DUPLICATE);
        CHECK(dfc_context_duplicates(ctx, &count) != NULL && count == 2);
        int status = refusal == 0   ? dfc_diff_flat(ctx, &with_repeats, &other, &injective, 0x80000000u, &r)
                     : refusal == 1 ? dfc_diff_flat(ctx, NULL, &other, &injective, 0, &r)
                     : refusal == 2 ? dfc_diff_flat(ctx, &with_repeats, &other, &injective, 0, NULL)
                                    : dfc_diff_sections(ctx, &repeated, &repeated, NULL, &injective, &injective, 0x80000000u,
                                                        &sections);
        CHECK(status == DFC_ERR_INVALID_ARGUMENT || status == DFC_ERR_NULL_ARGUMENT);
        CHECK(dfc_context_duplicates(ctx, &count) == NULL && count == 0);
    }
    dfc_context_free(ctx);
}

/* A validated diff runs the trusted matcher, then one uniqueness check over the old list
 * and the new elements left unmatched. Every way two equal elements can be matched must
 * still come out as a duplicate: both matched in the middle (to two equal old elements),
 * one matched and one inserted, both inserted, the two in the trimmed prefix and suffix,
 * and a duplicate far from the rest in a long list that the walk follows. */
void test_validated_duplicates_in_every_matching_shape(void) {
    dfc_context *ctx = dfc_context_create(NULL);
    dfc_flat_result r;
    size_t count = 0;
    const dfc_duplicate *d;
    /* both lists hold 7 twice and the walk pairs them up: old and new both reported */
    uint64_t a[] = {9, 7, 3, 7, 8}, b[] = {9, 7, 3, 7, 5};
    CHECK_EQ_INT(diff_keys(ctx, a, 5, b, 5, 0, &r), DFC_ERR_DUPLICATE);
    d = dfc_context_duplicates(ctx, &count);
    CHECK_EQ_INT(count, 2);
    if (count == 2) CHECK(d[0].side == DFC_SIDE_OLD && d[1].side == DFC_SIDE_NEW && d[1].first == 1 && d[1].duplicate == 3);
    /* old unique; new: 4 matched at 0, and again as an insert at 3 */
    uint64_t c[] = {4, 5, 6}, e[] = {4, 5, 6, 4, 1};
    CHECK_EQ_INT(diff_keys(ctx, c, 3, e, 5, 0, &r), DFC_ERR_DUPLICATE);
    d = dfc_context_duplicates(ctx, &count);
    CHECK_EQ_INT(count, 1);
    if (count == 1) CHECK(d[0].side == DFC_SIDE_NEW && d[0].first == 0 && d[0].duplicate == 3);
    /* old unique; new: 8 inserted twice, nothing else changed */
    uint64_t f[] = {1, 2, 3}, g[] = {1, 8, 2, 8, 3};
    CHECK_EQ_INT(diff_keys(ctx, f, 3, g, 5, 0, &r), DFC_ERR_DUPLICATE);
    d = dfc_context_duplicates(ctx, &count);
    CHECK_EQ_INT(count, 1);
    if (count == 1) CHECK(d[0].side == DFC_SIDE_NEW && d[0].first == 1 && d[0].duplicate == 3);
    /* 10,000 unique elements followed in order, with one new element equal to an old one
     * far away (matched by the walk elsewhere): one new duplicate */
    enum { LONG = 10000 };
    uint64_t *old_keys = malloc(LONG * sizeof(uint64_t)), *new_keys = malloc((LONG + 1) * sizeof(uint64_t));
    CHECK(old_keys != NULL && new_keys != NULL);
    if (old_keys != NULL && new_keys != NULL) {
        for (size_t i = 0; i < LONG; i++) old_keys[i] = new_keys[i] = (uint64_t)i * 2654435761u + 17;
        new_keys[LONG] = old_keys[1234];
        CHECK_EQ_INT(diff_keys(ctx, old_keys, LONG, new_keys, LONG + 1, 0, &r), DFC_ERR_DUPLICATE);
        d = dfc_context_duplicates(ctx, &count);
        CHECK_EQ_INT(count, 1);
        if (count == 1) CHECK(d[0].side == DFC_SIDE_NEW && d[0].first == 1234 && d[0].duplicate == LONG);
        /* the last element made new again: unique lists, diffed */
        new_keys[LONG] = 1;
        CHECK_EQ_INT(diff_keys(ctx, old_keys, LONG, new_keys, LONG + 1, 0, &r), DFC_OK);
        CHECK_EQ_INT(r.insert_count, 1);
    }
    free(old_keys);
    free(new_keys);
    dfc_context_free(ctx);
}

/* The duplicates of one list as the core reports them: each later occurrence with the
 * first one, in (duplicate, first) order. O(n^2) but only over the planted ones. */
static size_t reference_duplicates(const uint64_t *values, size_t count, uint32_t *first, uint32_t *later,
                                   size_t limit) {
    size_t found = 0;
    for (size_t j = 1; j < count && found < limit; j++)
        for (size_t i = 0; i < j; i++)
            if (values[i] == values[j]) {
                first[found] = (uint32_t)i;
                later[found++] = (uint32_t)j;
                break;
            }
    return found;
}

/* Lists long enough to be checked in many partitions, with duplicates planted in the
 * old list, the new list (between two unmatched, or an unmatched and a matched
 * element) or both: the verdict and the report are the exhaustive ones, and a clean
 * pair diffs exactly as trusted input does. Keys masked to a few bits (byte identity)
 * make every partition's table confirm through collisions. */
void test_duplicates_found_in_large_lists(void) {
    dfc_context *ctx = dfc_context_create(NULL);
    rng_state = 2024;
    enum { N = 9000, PLANTED = 8 };
    uint64_t *a = malloc(N * sizeof(uint64_t)), *b = malloc(2 * N * sizeof(uint64_t));
    uint64_t *old_keys = malloc(N * sizeof(uint64_t)), *new_keys = malloc(2 * N * sizeof(uint64_t));
    uint64_t *old_offsets = malloc((N + 1) * sizeof(uint64_t)), *new_offsets = malloc((2 * N + 1) * sizeof(uint64_t));
    for (int round = 0; round < 120; round++) {
        const size_t n = N - rng_below(N / 2);
        for (size_t i = 0; i < n; i++) a[i] = round % 2 ? rng_next() : i * 3;
        shuffle(a, n);
        size_t m = 0;
        for (size_t i = 0; i < n; i++) {
            if (rng_below(10) == 0) continue;                      /* deleted */
            if (rng_below(10) == 0) b[m++] = rng_next();           /* inserted */
            b[m++] = a[i];
        }
        for (size_t k = 0; k < m / 20; k++) {                      /* moved */
            size_t x = rng_below(m), y = rng_below(m);
            uint64_t t = b[x]; b[x] = b[y]; b[y] = t;
        }
        const int kind = round % 5; /* 0 none, 1 old, 2 new (any two), 3 new (copy of a kept one), 4 both */
        const int planted = 1 + (round / 5) % PLANTED; /* one alone must be found in any partition */
        for (int k = 0; k < planted && (kind == 1 || kind == 4); k++) a[rng_below(n)] = a[rng_below(n)];
        for (int k = 0; k < planted && (kind == 2 || kind == 4); k++) b[rng_below(m)] = b[rng_below(m)];
        if (kind == 3) b[rng_below(m)] = a[rng_below(n)];
        uint32_t first[2 * PLANTED + 2], later[2 * PLANTED + 2];
        size_t expected_old = reference_duplicates(a, n, first, later, PLANTED + 1);
        size_t expected_new = reference_duplicates(b, m, first + expected_old, later + expected_old, PLANTED + 1);
        size_t expected = expected_old + expected_new;
        for (int bytes = 0; bytes < 2; bytes++) {
            dfc_flat_result r;
            int status;
            if (bytes) {
                for (size_t i = 0; i <= n; i++) old_offsets[i] = i * 8;
                for (size_t i = 0; i <= m; i++) new_offsets[i] = i * 8;
                for (size_t i = 0; i < n; i++) old_keys[i] = a[i] & 63;
                for (size_t i = 0; i < m; i++) new_keys[i] = b[i] & 63;
                dfc_list old_list = {old_keys, n, a, old_offsets}, new_list = {new_keys, m, b, new_offsets};
                dfc_match match = {DFC_MATCH_BYTES, NULL, NULL};
                status = dfc_diff_flat(ctx, &old_list, &new_list, &match, 0, &r);
            } else {
                status = diff_keys(ctx, a, n, b, m, 0, &r);
            }
            CHECK_EQ_INT(status, expected == 0 ? DFC_OK : DFC_ERR_DUPLICATE);
            size_t count = 0;
            const dfc_duplicate *d = dfc_context_duplicates(ctx, &count);
            CHECK_EQ_INT(count, expected);
            for (size_t k = 0; k < count && k < expected; k++) {
                CHECK(d[k].side == (k < expected_old ? DFC_SIDE_OLD : DFC_SIDE_NEW));
                CHECK(d[k].first == first[k] && d[k].duplicate == later[k]);
            }
            if (status == DFC_OK && !bytes) {
                CHECK(oracle_flat_replay(a, n, b, m, &r));
                size_t moves = r.move_count, deletes = r.delete_count, inserts = r.insert_count;
                CHECK_EQ_INT(diff_keys(ctx, a, n, b, m, DFC_DIFF_ASSUME_UNIQUE, &r), DFC_OK);
                CHECK(r.move_count == moves && r.delete_count == deletes && r.insert_count == inserts);
            }
        }
    }
    free(a);
    free(b);
    free(old_keys);
    free(new_keys);
    free(old_offsets);
    free(new_offsets);
    dfc_context_free(ctx);
}
