/* The LIS (dfc_lis.c): ALGORITHM.md's tie-breaks, exactly its positions on random and
 * nearly sorted inputs, lengths against the quadratic reference. */
#include "dfc.h"
#include "harness.h"
#include "oracle.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ALGORITHM.md's LIS pseudo-code, line by line (plain binary search). */
static void spec_lis(const uint32_t *s, size_t m, uint8_t *keep) {
    size_t *tails = malloc((m ? m : 1) * sizeof(size_t));
    long *prev = malloc((m ? m : 1) * sizeof(long));
    size_t len = 0;
    for (size_t j = 0; j < m; j++) {
        size_t lo = 0, hi = len;
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (s[tails[mid]] > s[j]) hi = mid;
            else lo = mid + 1;
        }
        prev[j] = lo > 0 ? (long)tails[lo - 1] : -1;
        tails[lo] = j;
        if (lo == len) len++;
    }
    memset(keep, 0, m);
    for (long j = len ? (long)tails[len - 1] : -1; j != -1; j = prev[j]) keep[j] = 1;
    free(tails);
    free(prev);
}

static void check_lis(dfc_context *ctx, const uint32_t *values, size_t count, const uint8_t *expected) {
    uint8_t keep[16];
    size_t length = 99;
    CHECK_EQ_INT(dfc_lis(ctx, values, count, keep, &length), DFC_OK);
    size_t expected_length = 0;
    for (size_t j = 0; j < count; j++) {
        CHECK_EQ_INT(keep[j], expected[j]);
        expected_length += expected[j];
    }
    CHECK_EQ_INT(length, expected_length);
}

void test_lis_tie_breaks(void) {
    dfc_context *ctx = dfc_context_create(NULL);
    /* Worked by hand from ALGORITHM.md's pseudo-code. */
    check_lis(ctx, (const uint32_t[]){2, 1}, 2, (const uint8_t[]){0, 1});
    check_lis(ctx, (const uint32_t[]){2, 1, 0}, 3, (const uint8_t[]){0, 0, 1}); /* abc -> cba keeps a */
    check_lis(ctx, (const uint32_t[]){1, 3, 2}, 3, (const uint8_t[]){1, 0, 1});
    check_lis(ctx, (const uint32_t[]){3, 1, 2}, 3, (const uint8_t[]){0, 1, 1});
    check_lis(ctx, (const uint32_t[]){1, 2, 3, 0}, 4, (const uint8_t[]){1, 1, 1, 0}); /* move one to the front */
    check_lis(ctx, (const uint32_t[]){3, 0, 1, 2}, 4, (const uint8_t[]){0, 1, 1, 1});
    check_lis(ctx, (const uint32_t[]){2, 3, 0, 1}, 4, (const uint8_t[]){0, 0, 1, 1}); /* later run wins the tie */
    check_lis(ctx, (const uint32_t[]){4, 5, 0, 1, 2, 3}, 6, (const uint8_t[]){0, 0, 1, 1, 1, 1});
    check_lis(ctx, (const uint32_t[]){0, 4, 1, 5, 2, 6}, 6, (const uint8_t[]){1, 0, 1, 0, 1, 1});
    check_lis(ctx, NULL, 0, (const uint8_t[]){0});
    /* random: length equals the quadratic reference and the kept values increase */
    rng_state = 3;
    for (int round = 0; round < 300; round++) {
        size_t count = rng_below(200);
        uint64_t values64[200];
        uint32_t values[200];
        uint8_t keep[200];
        for (size_t j = 0; j < count; j++) values64[j] = j * 3;
        shuffle(values64, count);
        for (size_t j = 0; j < count; j++) values[j] = (uint32_t)values64[j];
        size_t length = 0;
        CHECK_EQ_INT(dfc_lis(ctx, values, count, keep, &length), DFC_OK);
        CHECK_EQ_INT(length, oracle_lis_length(values, count));
        uint32_t last = 0;
        bool first = true;
        size_t kept = 0;
        for (size_t j = 0; j < count; j++) {
            if (!keep[j]) continue;
            CHECK(first || values[j] > last);
            last = values[j];
            first = false;
            kept++;
        }
        CHECK_EQ_INT(kept, length);
    }
    /* exactly the spec's positions, on nearly sorted and on shuffled inputs up to 5,000 */
    for (int round = 0; round < 200; round++) {
        size_t count = rng_below(5000);
        uint64_t *values64 = malloc((count + 1) * sizeof(uint64_t));
        uint32_t *values = malloc((count + 1) * sizeof(uint32_t));
        uint8_t *expected = malloc(count + 1), *actual = malloc(count + 1);
        for (size_t j = 0; j < count; j++) values64[j] = j * (1 + rng_below(3));
        if (round % 3 == 0) shuffle(values64, count);
        else
            for (size_t k = 0; k < count / 10 + 1 && count > 1; k++) {
                size_t i = rng_below(count), j = rng_below(count);
                uint64_t t = values64[i];
                values64[i] = values64[j];
                values64[j] = t;
            }
        /* make the values distinct: the spec takes distinct integers */
        for (size_t j = 0; j < count; j++) values[j] = (uint32_t)(values64[j] * 5000 + j % 5000);
        spec_lis(values, count, expected);
        CHECK_EQ_INT(dfc_lis(ctx, values, count, actual, NULL), DFC_OK);
        CHECK(memcmp(expected, actual, count) == 0);
        free(values64);
        free(values);
        free(expected);
        free(actual);
    }
    /* nearly sorted lists long enough for the tails to pass the counting search's 8,192
     * entries, so the search from the strided guess runs too: exactly the spec's positions.
     * Rounds 4-5 are longer (hundreds of strides) and begin with their largest values, so
     * the last tail is an outlier far above the line the others follow. */
    for (int round = 0; round < 6; round++) {
        size_t count = round < 4 ? 20000 + (size_t)round * 7000 : 300000;
        uint32_t *values = malloc(count * sizeof(uint32_t));
        uint8_t *expected = malloc(count), *actual = malloc(count);
        for (size_t j = 0; j < count; j++) values[j] = (uint32_t)j * 3;
        for (size_t k = 0; k < count / (20 + (size_t)round * 10); k++) {
            size_t i = rng_below(count), j = rng_below(count);
            uint32_t t = values[i];
            values[i] = values[j];
            values[j] = t;
        }
        if (round >= 4)
            for (size_t k = 0; k < 3; k++) {
                uint32_t t = values[k];
                values[k] = values[count - 1 - k];
                values[count - 1 - k] = t;
            }
        spec_lis(values, count, expected);
        size_t length = 0;
        CHECK_EQ_INT(dfc_lis(ctx, values, count, actual, &length), DFC_OK);
        CHECK(length > 8192);
        CHECK(memcmp(expected, actual, count) == 0);
        free(values);
        free(expected);
        free(actual);
    }
    /* UINT32_MAX, which the counting search uses to mark unused entries, repeated after
     * two blocks of tails: still the first greater entry, never past the tails */
    {
        enum { RISING = 150 };
        uint32_t values[RISING + 3];
        uint8_t kept[RISING + 3];
        for (size_t j = 0; j < RISING; j++) values[j] = (uint32_t)j * 7;
        values[RISING] = UINT32_MAX;
        values[RISING + 1] = UINT32_MAX;
        values[RISING + 2] = 3;
        size_t length = 0;
        CHECK_EQ_INT(dfc_lis(ctx, values, RISING + 3, kept, &length), DFC_OK);
        CHECK_EQ_INT(length, RISING + 1);
        CHECK(kept[RISING + 1] == 1 && kept[RISING] == 0 && kept[RISING + 2] == 0);
        /* and a value equal to a middle tail, in the counting search's range */
        values[RISING] = 7 * 100;
        CHECK_EQ_INT(dfc_lis(ctx, values, RISING + 1, kept, &length), DFC_OK);
        CHECK_EQ_INT(length, RISING);
    }
    uint8_t keep[1];
    CHECK_EQ_INT(dfc_lis(NULL, (const uint32_t[]){1}, 1, keep, NULL), DFC_ERR_NULL_ARGUMENT);
    CHECK_EQ_INT(dfc_lis(ctx, NULL, 1, keep, NULL), DFC_ERR_NULL_ARGUMENT);
    CHECK_EQ_INT(dfc_lis(ctx, (const uint32_t[]){1}, 1, NULL, NULL), DFC_ERR_NULL_ARGUMENT);
    CHECK_EQ_INT(dfc_lis(ctx, (const uint32_t[]){1}, DFC_MAX_COUNT + 1, keep, NULL), DFC_ERR_TOO_LARGE);
    dfc_context_free(ctx);
}
