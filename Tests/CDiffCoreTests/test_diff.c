/* The flat diff (dfc_diff.c, dfc_match.c): known answers, random pairs replayed with moves
 * minimal, both matching paths agreeing, every pair over five identifiers, byte and callback
 * identity, bad arguments. */
#include "dfc.h"
#include "harness.h"
#include "oracle.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void test_flat_known_answers(void) {
    dfc_context *ctx = dfc_context_create(NULL);
    dfc_flat_result r;
    /* header example */
    uint64_t a[] = {1, 2, 3, 4}, b[] = {2, 3, 4, 1, 5};
    CHECK_EQ_INT(diff_keys(ctx, a, 4, b, 5, 0, &r), DFC_OK);
    CHECK_EQ_INT(r.move_count, 1);
    CHECK_EQ_INT(r.move_from[0], 0);
    CHECK_EQ_INT(r.move_to[0], 3);
    CHECK_EQ_INT(r.insert_count, 1);
    CHECK_EQ_INT(r.inserts[0], 4);
    CHECK_EQ_INT(r.delete_count, 0);
    CHECK(oracle_flat_replay(a, 4, b, 5, &r));
    /* abc -> cba: c and b move (b to its own index: still a move), a stays */
    uint64_t c[] = {1, 2, 3}, d[] = {3, 2, 1};
    CHECK_EQ_INT(diff_keys(ctx, c, 3, d, 3, 0, &r), DFC_OK);
    CHECK_EQ_INT(r.move_count, 2);
    CHECK_EQ_INT(r.move_from[0], 2);
    CHECK_EQ_INT(r.move_to[0], 0);
    CHECK_EQ_INT(r.move_from[1], 1);
    CHECK_EQ_INT(r.move_to[1], 1);
    /* identical lists: all prefix, nothing to do */
    CHECK_EQ_INT(diff_keys(ctx, c, 3, c, 3, 0, &r), DFC_OK);
    CHECK_EQ_INT(r.move_count + r.insert_count + r.delete_count, 0);
    CHECK_EQ_INT(r.common_prefix, 3);
    /* empty to something and back */
    CHECK_EQ_INT(diff_keys(ctx, NULL, 0, c, 3, 0, &r), DFC_OK);
    CHECK_EQ_INT(r.insert_count, 3);
    CHECK_EQ_INT(diff_keys(ctx, c, 3, NULL, 0, 0, &r), DFC_OK);
    CHECK_EQ_INT(r.delete_count, 3);
    CHECK_EQ_INT(diff_keys(ctx, NULL, 0, NULL, 0, 0, &r), DFC_OK);
    CHECK_EQ_INT(r.matched, 0);
    /* first moved to the end of a long list is one move */
    enum { N = 5000 };
    static uint64_t x[N], y[N];
    for (size_t i = 0; i < N; i++) x[i] = i, y[i] = (i + 1) % N;
    CHECK_EQ_INT(diff_keys(ctx, x, N, y, N, 0, &r), DFC_OK);
    CHECK_EQ_INT(r.move_count, 1);
    CHECK_EQ_INT(r.move_from[0], 0);
    CHECK_EQ_INT(r.move_to[0], N - 1);
    dfc_context_free(ctx);
}

static void random_pair(uint64_t *a, size_t *n, uint64_t *b, size_t *m, size_t max) {
    size_t count = rng_below(max + 1);
    for (size_t i = 0; i < count; i++) a[i] = i * 2 + 1;
    shuffle(a, count);
    *n = count;
    /* new: keep a random subset, add fresh ids, then perturb by a few random moves or a shuffle */
    size_t k = 0;
    for (size_t i = 0; i < count; i++) if (rng_below(10) < 8) b[k++] = a[i];
    size_t fresh = rng_below(max / 4 + 1);
    for (size_t i = 0; i < fresh && k < max; i++) b[k++] = (count + i) * 2 + 2;
    int style = (int)rng_below(3);
    if (style == 0) shuffle(b, k);
    else {
        size_t swaps = rng_below(k / 3 + 1);
        for (size_t s = 0; s < swaps && k > 1; s++) {
            size_t i = rng_below(k), j = rng_below(k);
            uint64_t t = b[i];
            b[i] = b[j];
            b[j] = t;
        }
    }
    *m = k;
}

void test_flat_random_replay(void) {
    dfc_context *ctx = dfc_context_create(NULL);
    rng_state = 42;
    enum { MAX = 120 };
    uint64_t a[MAX], b[MAX];
    for (int round = 0; round < 3000; round++) {
        size_t n, m;
        random_pair(a, &n, b, &m, MAX);
        dfc_flat_result r, r_unique;
        CHECK_EQ_INT(diff_keys(ctx, a, n, b, m, 0, &r), DFC_OK);
        if (!oracle_flat_replay(a, n, b, m, &r)) {
            fprintf(stderr, "  replay failed in round %d (seed 42)\n", round);
            harness_failures_in_test++;
            break;
        }
        /* the trusted path gives the same answer */
        size_t moves = r.move_count;
        CHECK_EQ_INT(diff_keys(ctx, a, n, b, m, DFC_DIFF_ASSUME_UNIQUE, &r_unique), DFC_OK);
        CHECK_EQ_INT(r_unique.move_count, moves);
        CHECK(oracle_flat_replay(a, n, b, m, &r_unique));
    }
    dfc_context_free(ctx);
}

/* Large lists with long removed stretches, inserted runs and scattered moves: the
 * trusted path (run following) and the validated path (full table) must agree
 * exactly, and replay. */
void test_flat_large_modes_agree(void) {
    dfc_context *ctx = dfc_context_create(NULL), *ctx2 = dfc_context_create(NULL);
    rng_state = 777;
    enum { N = 30000 };
    uint64_t *a = malloc(N * sizeof(uint64_t)), *b = malloc(2 * N * sizeof(uint64_t));
    for (int round = 0; round < 24; round++) {
        for (size_t i = 0; i < N; i++) a[i] = i;
        size_t m = 0;
        size_t churn = 1 + rng_below(30); /* percent */
        for (size_t i = 0; i < N; i++) {
            if (rng_below(1000) < 2) i += rng_below(round % 2 ? 2000 : 40); /* removed stretch */
            if (i >= N) break;
            if (rng_below(100) < churn / 2) b[m++] = N + i; /* inserted */
            if (rng_below(100) >= churn / 2) b[m++] = a[i];
        }
        for (size_t k = 0; k < m * churn / 200; k++) { /* scattered moves */
            size_t i = rng_below(m), j = rng_below(m);
            uint64_t t = b[i];
            b[i] = b[j];
            b[j] = t;
        }
        if (round % 6 == 5) shuffle(b, m);
        dfc_flat_result r1, r2;
        CHECK_EQ_INT(diff_keys(ctx, a, N, b, m, 0, &r1), DFC_OK);
        CHECK_EQ_INT(diff_keys(ctx2, a, N, b, m, DFC_DIFF_ASSUME_UNIQUE, &r2), DFC_OK);
        CHECK(oracle_flat_replay(a, N, b, m, &r2));
        CHECK_EQ_INT(r1.move_count, r2.move_count);
        CHECK_EQ_INT(r1.delete_count, r2.delete_count);
        CHECK_EQ_INT(r1.insert_count, r2.insert_count);
        CHECK(r1.move_count == r2.move_count && memcmp(r1.move_from, r2.move_from, r1.move_count * 4) == 0 &&
              memcmp(r1.move_to, r2.move_to, r1.move_count * 4) == 0);
        CHECK(memcmp(r1.old_to_new, r2.old_to_new, N * 4) == 0);
    }
    free(a);
    free(b);
    dfc_context_free(ctx);
    dfc_context_free(ctx2);
}

/* Every arrangement of every subset of {0..4}: 326 sequences. */
static size_t all_sequences(uint64_t sequences[][5], size_t lengths[]) {
    size_t count = 0;
    for (unsigned code = 0; code < 6 * 6 * 6 * 6 * 6; code++) {
        /* digits in base 6: 0 ends the sequence, d > 0 is identifier d - 1 */
        uint64_t seq[5];
        size_t length = 0;
        unsigned rest = code, used = 0;
        bool valid = true, ended = false;
        for (int k = 0; k < 5; k++, rest /= 6) {
            unsigned digit = rest % 6;
            if (digit == 0) { ended = true; continue; }
            if (ended || (used & (1u << digit))) { valid = false; break; }
            used |= 1u << digit;
            seq[length++] = digit - 1;
        }
        if (!valid) continue;
        memcpy(sequences[count], seq, sizeof(seq));
        lengths[count++] = length;
    }
    return count;
}

/* docs/RELIABILITY_METHOD.md, G2: all 106,276 pairs of such sequences, both matching paths,
 * replayed, with moves minimal against the quadratic reference. */
void test_flat_exhaustive_small(void) {
    static uint64_t sequences[400][5];
    static size_t lengths[400];
    size_t count = all_sequences(sequences, lengths);
    CHECK_EQ_INT(count, 326);
    dfc_context *ctx = dfc_context_create(NULL);
    size_t pairs = 0;
    for (size_t a = 0; a < count; a++) {
        for (size_t b = 0; b < count; b++) {
            dfc_flat_result r;
            for (unsigned flags = 0; flags <= DFC_DIFF_ASSUME_UNIQUE; flags++) {
                if (diff_keys(ctx, sequences[a], lengths[a], sequences[b], lengths[b], flags, &r) != DFC_OK ||
                    !oracle_flat_replay(sequences[a], lengths[a], sequences[b], lengths[b], &r)) {
                    fprintf(stderr, "  exhaustive pair %zu/%zu (flags %u) failed\n", a, b, flags);
                    harness_failures_in_test++;
                    dfc_context_free(ctx);
                    return;
                }
            }
            pairs++;
        }
    }
    CHECK_EQ_INT(pairs, 106276);
    dfc_context_free(ctx);
}

/* Byte identifiers whose keys are forced to collide: matching must use the bytes. */
void test_forced_collisions(void) {
    dfc_context *ctx = dfc_context_create(NULL);
    rng_state = 99;
    enum { MAX = 80 };
    uint64_t a[MAX], b[MAX];
    for (int round = 0; round < 500; round++) {
        size_t n, m;
        random_pair(a, &n, b, &m, MAX);
        /* identifiers as 8-byte strings; keys masked to 2 bits */
        unsigned char old_bytes[MAX * 8], new_bytes[MAX * 8];
        uint64_t old_offsets[MAX + 1], new_offsets[MAX + 1], old_keys[MAX], new_keys[MAX];
        for (size_t i = 0; i <= n; i++) old_offsets[i] = i * 8;
        for (size_t i = 0; i <= m; i++) new_offsets[i] = i * 8;
        for (size_t i = 0; i < n; i++) { memcpy(old_bytes + i * 8, &a[i], 8); old_keys[i] = a[i] & 3; }
        for (size_t i = 0; i < m; i++) { memcpy(new_bytes + i * 8, &b[i], 8); new_keys[i] = b[i] & 3; }
        dfc_list old_list = {old_keys, n, old_bytes, old_offsets}, new_list = {new_keys, m, new_bytes, new_offsets};
        dfc_match bytes = {DFC_MATCH_BYTES, NULL, NULL};
        dfc_flat_result r;
        CHECK_EQ_INT(dfc_diff_flat(ctx, &old_list, &new_list, &bytes, 0, &r), DFC_OK);
        CHECK(oracle_flat_replay(a, n, b, m, &r));
        size_t moves = r.move_count, deletes = r.delete_count;
        CHECK_EQ_INT(diff_keys(ctx, a, n, b, m, 0, &r), DFC_OK);
        CHECK_EQ_INT(r.move_count, moves);
        CHECK_EQ_INT(r.delete_count, deletes);
    }
    dfc_context_free(ctx);
}

/* Byte identifiers with equal keys are told apart by their bytes alone, at every length the
 * word-wise comparison handles differently (under 4, 4-7, 8-16, longer) and with a difference at
 * every position, read from places that are not word-aligned. */
void test_bytes_confirm_every_length(void) {
    dfc_context *ctx = dfc_context_create(NULL);
    enum { LONGEST = 40, SKEW = 3 };
    unsigned char old_bytes[SKEW + LONGEST], new_bytes[SKEW + LONGEST + 5];
    uint64_t key = 0;
    dfc_match bytes = {DFC_MATCH_BYTES, NULL, NULL};
    for (size_t length = 0; length <= LONGEST; length++) {
        for (size_t i = 0; i < length; i++) old_bytes[SKEW + i] = new_bytes[SKEW + 5 + i] = (unsigned char)(0x41 + i);
        uint64_t old_offsets[] = {SKEW, SKEW + length}, new_offsets[] = {SKEW + 5, SKEW + 5 + length};
        dfc_list old_list = {&key, 1, old_bytes, old_offsets}, new_list = {&key, 1, new_bytes, new_offsets};
        dfc_flat_result r;
        CHECK_EQ_INT(dfc_diff_flat(ctx, &old_list, &new_list, &bytes, 0, &r), DFC_OK);
        CHECK_EQ_INT(r.delete_count + r.insert_count, 0); /* equal bytes: the same identifier */
        for (size_t position = 0; position < length; position++) {
            new_bytes[SKEW + 5 + position] ^= 0x20;
            CHECK_EQ_INT(dfc_diff_flat(ctx, &old_list, &new_list, &bytes, 0, &r), DFC_OK);
            CHECK_EQ_INT(r.delete_count, 1);
            CHECK_EQ_INT(r.insert_count, 1);
            new_bytes[SKEW + 5 + position] ^= 0x20;
        }
    }
    dfc_context_free(ctx);
}

/* Equality through a callback: identifiers equal when their values are equal mod 1000. */
static int equal_mod_1000(void *user, int a_side, uint32_t a, int b_side, uint32_t b) {
    const uint64_t *const *lists = user;
    return lists[a_side][a] % 1000 == lists[b_side][b] % 1000;
}

void test_callback_identity(void) {
    dfc_context *ctx = dfc_context_create(NULL);
    uint64_t a[] = {1001, 2002, 3003}, b[] = {3, 1, 4};
    uint64_t ka[] = {7, 7, 7}, kb[] = {7, 7, 7}; /* one key for all: only the callback decides */
    const uint64_t *lists[2] = {a, b};
    dfc_list old_list = {ka, 3, NULL, NULL}, new_list = {kb, 3, NULL, NULL};
    dfc_match callback = {DFC_MATCH_CALLBACK, equal_mod_1000, lists};
    dfc_flat_result r;
    CHECK_EQ_INT(dfc_diff_flat(ctx, &old_list, &new_list, &callback, 0, &r), DFC_OK);
    CHECK_EQ_INT(r.delete_count, 1); /* 2002 */
    CHECK_EQ_INT(r.deletes[0], 1);
    CHECK_EQ_INT(r.insert_count, 1); /* 4 */
    CHECK_EQ_INT(r.inserts[0], 2);
    CHECK_EQ_INT(r.new_to_old[0], 2);
    CHECK_EQ_INT(r.new_to_old[1], 0);
    CHECK_EQ_INT(r.move_count, 1);
    dfc_match missing = {DFC_MATCH_CALLBACK, NULL, NULL};
    CHECK_EQ_INT(dfc_diff_flat(ctx, &old_list, &new_list, &missing, 0, &r), DFC_ERR_INVALID_ARGUMENT);
    dfc_context_free(ctx);
}

void test_bad_arguments(void) {
    dfc_context *ctx = dfc_context_create(NULL);
    dfc_flat_result r;
    uint64_t k[] = {1, 2};
    dfc_list good = {k, 2, NULL, NULL}, null_keys = {NULL, 2, NULL, NULL}, empty = {NULL, 0, NULL, NULL};
    dfc_list huge = {k, DFC_MAX_COUNT + 1, NULL, NULL};
    dfc_match bad_kind = {7, NULL, NULL}, bytes = {DFC_MATCH_BYTES, NULL, NULL};
    CHECK_EQ_INT(dfc_diff_flat(NULL, &good, &good, &injective, 0, &r), DFC_ERR_NULL_ARGUMENT);
    CHECK_EQ_INT(dfc_diff_flat(ctx, NULL, &good, &injective, 0, &r), DFC_ERR_NULL_ARGUMENT);
    CHECK_EQ_INT(dfc_diff_flat(ctx, &good, NULL, &injective, 0, &r), DFC_ERR_NULL_ARGUMENT);
    CHECK_EQ_INT(dfc_diff_flat(ctx, &good, &good, NULL, 0, &r), DFC_ERR_NULL_ARGUMENT);
    CHECK_EQ_INT(dfc_diff_flat(ctx, &good, &good, &injective, 0, NULL), DFC_ERR_NULL_ARGUMENT);
    CHECK_EQ_INT(dfc_diff_flat(ctx, &null_keys, &good, &injective, 0, &r), DFC_ERR_NULL_ARGUMENT);
    CHECK_EQ_INT(dfc_diff_flat(ctx, &empty, &empty, &injective, 0, &r), DFC_OK);
    CHECK_EQ_INT(dfc_diff_flat(ctx, &huge, &good, &injective, 0, &r), DFC_ERR_TOO_LARGE);
    CHECK_EQ_INT(dfc_diff_flat(ctx, &good, &huge, &injective, 0, &r), DFC_ERR_TOO_LARGE);
    CHECK_EQ_INT(dfc_diff_flat(ctx, &good, &good, &bad_kind, 0, &r), DFC_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(dfc_diff_flat(ctx, &good, &good, &injective, 8, &r), DFC_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(dfc_diff_flat(ctx, &good, &good, &bytes, 0, &r), DFC_ERR_INVALID_ARGUMENT);
    uint64_t backwards[] = {0, 3, 1};
    dfc_list bad_offsets = {k, 2, "abc", backwards};
    CHECK_EQ_INT(dfc_diff_flat(ctx, &bad_offsets, &good, &bytes, 0, &r), DFC_ERR_INCONSISTENT);
    CHECK_EQ_INT(dfc_context_reserve(NULL, 1, 1), DFC_ERR_NULL_ARGUMENT);
    CHECK_EQ_INT(dfc_context_reserve(ctx, DFC_MAX_COUNT + 1, 1), DFC_ERR_TOO_LARGE);
    CHECK(dfc_context_sizeof(NULL) == 0);
    CHECK(dfc_context_allocation_count(NULL) == 0);
    dfc_context_free(NULL);
    dfc_context_reset(NULL);
    dfc_context_shrink(NULL);
    /* every status has a distinct readable name */
    for (int s = DFC_OK; s <= DFC_ERR_UNKNOWN_IDENTIFIER; s++) {
        CHECK(strncmp(dfc_status_string(s), "DFC_", 4) == 0);
        for (int t = DFC_OK; t < s; t++) CHECK(strcmp(dfc_status_string(s), dfc_status_string(t)) != 0);
    }
    CHECK(strstr(dfc_status_string(-5), "UNKNOWN") != NULL);
    dfc_context_free(ctx);
}
