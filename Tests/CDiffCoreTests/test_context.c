/* The context (dfc_context.c): a warm context allocates nothing; reset and shrink. */
#include "dfc.h"
#include "harness.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void test_warm_context_allocates_nothing(void) {
    dfc_context *ctx = dfc_context_create(NULL);
    enum { N = 20000 };
    static uint64_t a[N], b[N];
    rng_state = 5;
    for (size_t i = 0; i < N; i++) a[i] = b[i] = i;
    shuffle(b, N);
    dfc_flat_result r;
    CHECK_EQ_INT(dfc_context_reserve(ctx, N, N), DFC_OK);
    uint64_t before = dfc_context_allocation_count(ctx);
    for (int round = 0; round < 3; round++) CHECK_EQ_INT(diff_keys(ctx, a, N, b, N, 0, &r), DFC_OK);
    CHECK_EQ_INT(dfc_context_allocation_count(ctx), before);
    CHECK(dfc_context_sizeof(ctx) > N * 16);
    dfc_context_reset(ctx);
    CHECK_EQ_INT(diff_keys(ctx, a, N, b, N, 0, &r), DFC_OK);
    CHECK_EQ_INT(dfc_context_allocation_count(ctx), before);
    dfc_context_shrink(ctx);
    CHECK(dfc_context_sizeof(ctx) < 1024);
    dfc_context_free(ctx);
}
