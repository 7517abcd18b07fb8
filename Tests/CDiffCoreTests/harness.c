/* The shared harness of the C tests (harness.h). */
#include "harness.h"

#include <stdlib.h>

int harness_failures_in_test = 0;
int harness_fatal = 0;

void harness_check_failed(const char *file, int line, const char *condition) {
    if (harness_fatal) {
        fprintf(stderr, "fuzz oracle failed: %s:%d: %s\n", file, line, condition);
        abort();
    }
    fprintf(stderr, "  %s:%d: CHECK failed: %s\n", file, line, condition);
    harness_failures_in_test++;
}

void harness_check_equal_failed(const char *file, int line, const char *actual_text, long long actual,
                                long long expected) {
    if (harness_fatal) {
        fprintf(stderr, "fuzz oracle failed: %s:%d: %s == %lld, expected %lld\n", file, line, actual_text, actual,
                expected);
        abort();
    }
    fprintf(stderr, "  %s:%d: %s == %lld, expected %lld\n", file, line, actual_text, actual, expected);
    harness_failures_in_test++;
}

/* ---- the test allocator ------------------------------------------------------------------- */

void *test_allocate(void *user, size_t size) {
    test_heap *heap = user;
    heap->calls++;
    if (heap->calls == heap->fail_at || size > (heap->limit ? heap->limit : (size_t)1 << 30)) return NULL;
    void *pointer = malloc(size);
    if (pointer != NULL) heap->live++;
    return pointer;
}

void test_release(void *user, void *pointer) {
    test_heap *heap = user;
    if (pointer == NULL) return;
    CHECK(heap->live > 0); /* a block released twice, or one the heap never gave */
    heap->live--;
    free(pointer);
}

/* ---- deterministic random numbers ------------------------------------------------------------ */

uint64_t rng_state;

uint64_t rng_next(void) {
    uint64_t z = (rng_state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

size_t rng_below(size_t bound) { return bound == 0 ? 0 : (size_t)(rng_next() % bound); }

void shuffle(uint64_t *values, size_t count) {
    for (size_t i = count; i > 1; i--) {
        size_t j = rng_below(i);
        uint64_t t = values[i - 1];
        values[i - 1] = values[j];
        values[j] = t;
    }
}

/* ---- diff calls ------------------------------------------------------------------------------- */

const dfc_match injective = {DFC_MATCH_INJECTIVE, NULL, NULL};

int diff_keys(dfc_context *ctx, const uint64_t *a, size_t n, const uint64_t *b, size_t m, unsigned flags,
              dfc_flat_result *r) {
    dfc_list old_list = {a, n, NULL, NULL}, new_list = {b, m, NULL, NULL};
    return dfc_diff_flat(ctx, &old_list, &new_list, &injective, flags, r);
}

int diff_sections_flags(dfc_context *ctx, unsigned flags, const uint64_t *os, size_t so, const uint64_t *oi,
                        const uint32_t *ostarts, const uint64_t *ns, size_t sn, const uint64_t *ni,
                        const uint32_t *nstarts, const dfc_refresh *refresh, dfc_sections_result *r) {
    dfc_snapshot a = {{os, so, NULL, NULL}, {oi, ostarts[so], NULL, NULL}, ostarts};
    dfc_snapshot b = {{ns, sn, NULL, NULL}, {ni, nstarts[sn], NULL, NULL}, nstarts};
    return dfc_diff_sections(ctx, &a, &b, refresh, &injective, &injective, flags, r);
}

int diff_sections(dfc_context *ctx, const uint64_t *os, size_t so, const uint64_t *oi, const uint32_t *ostarts,
                  const uint64_t *ns, size_t sn, const uint64_t *ni, const uint32_t *nstarts,
                  const dfc_refresh *refresh, dfc_sections_result *r) {
    return diff_sections_flags(ctx, 0, os, so, oi, ostarts, ns, sn, ni, nstarts, refresh, r);
}
