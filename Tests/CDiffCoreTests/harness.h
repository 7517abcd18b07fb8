/* The C tests' harness, shared by the unit tests, the contract table and the fuzz targets:
 * one CHECK (records a failure and keeps going; aborts instead when harness_fatal is set, as
 * a fuzz target needs), one test allocator, deterministic random numbers, and the two diff
 * calls most tests make. */
#ifndef DFC_TEST_HARNESS_H
#define DFC_TEST_HARNESS_H

#include "dfc.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Failed checks in the running test (the runner resets it); with harness_fatal set, the first
 * failed check prints "fuzz oracle failed: …" and aborts, so libFuzzer keeps the input. */
extern int harness_failures_in_test;
extern int harness_fatal;

void harness_check_failed(const char *file, int line, const char *condition);
void harness_check_equal_failed(const char *file, int line, const char *actual_text, long long actual,
                                long long expected);

#define CHECK(condition)                                                                     \
    do {                                                                                     \
        if (!(condition)) harness_check_failed(__FILE__, __LINE__, #condition);              \
    } while (0)

#define CHECK_EQ_INT(actual, expected)                                                       \
    do {                                                                                     \
        long long harness_a = (long long)(actual), harness_e = (long long)(expected);        \
        if (harness_a != harness_e)                                                          \
            harness_check_equal_failed(__FILE__, __LINE__, #actual, harness_a, harness_e);   \
    } while (0)

/* ---- the test allocator ------------------------------------------------------------------- */

/* Counts the allocations asked for and the blocks still live; fails the fail_at-th request
 * (never when fail_at is 0 or negative) and every request above `limit` bytes (0: 1 GiB), as
 * a real allocator refuses 32 GiB. Hand it to the core as {test_allocate, test_release, &heap}. */
typedef struct test_heap {
    long calls;   /* allocations attempted */
    long fail_at; /* the attempt that fails; 0: none */
    long live;    /* blocks not yet released */
    size_t limit; /* the largest request granted; 0: 1 GiB */
} test_heap;

void *test_allocate(void *user, size_t size);
void test_release(void *user, void *pointer);

/* ---- deterministic random numbers (splitmix64) ------------------------------------------------ */

extern uint64_t rng_state;
uint64_t rng_next(void);
size_t rng_below(size_t bound); /* 0 ..< bound; 0 when bound is 0 */
void shuffle(uint64_t *values, size_t count);

/* ---- diff calls ------------------------------------------------------------------------------- */

extern const dfc_match injective; /* integer identifiers are their own keys */

/* dfc_diff_flat over two lists of integer identifiers. */
int diff_keys(dfc_context *ctx, const uint64_t *a, size_t n, const uint64_t *b, size_t m, unsigned flags,
              dfc_flat_result *r);

/* dfc_diff_sections over integer identifiers, `flags` 0 or DFC_DIFF_ASSUME_UNIQUE (diff_sections: 0). */
int diff_sections_flags(dfc_context *ctx, unsigned flags, const uint64_t *os, size_t so, const uint64_t *oi,
                        const uint32_t *ostarts, const uint64_t *ns, size_t sn, const uint64_t *ni,
                        const uint32_t *nstarts, const dfc_refresh *refresh, dfc_sections_result *r);
int diff_sections(dfc_context *ctx, const uint64_t *os, size_t so, const uint64_t *oi, const uint32_t *ostarts,
                  const uint64_t *ns, size_t sn, const uint64_t *ni, const uint32_t *nstarts,
                  const dfc_refresh *refresh, dfc_sections_result *r);

#endif
