/* Allocation failure (dfc_heap.c): every k-th allocation failing in every entry point that
 * allocates, nothing leaked, every object usable afterwards. */
#include "dfc.h"
#include "harness.h"
#include "oracle.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void test_allocation_failure_every_k(void) {
    uint64_t a[64], b[64];
    for (size_t i = 0; i < 64; i++) a[i] = i, b[i] = 63 - i;
    a[0] = 5, a[5] = 0; /* break the prefix so the table runs */
    /* An old list of 8 identifiers, each 8 times: 56 duplicates, whose list grows while they are
     * found. A diff that runs out of memory while listing them must leave no list behind; one
     * that finishes lists all 56. */
    uint64_t repeats[64];
    for (size_t i = 0; i < 64; i++) repeats[i] = i % 8;
    size_t all_duplicates = 0;
    {
        dfc_context *ctx = dfc_context_create(NULL);
        dfc_flat_result r;
        CHECK_EQ_INT(diff_keys(ctx, repeats, 64, a, 64, 0, &r), DFC_ERR_DUPLICATE);
        dfc_context_duplicates(ctx, &all_duplicates);
        CHECK_EQ_INT(all_duplicates, 56);
        dfc_context_free(ctx);
    }
    for (long fail_at = 1; fail_at < 60; fail_at++) {
        test_heap state = {.fail_at = fail_at};
        dfc_allocator allocator = {test_allocate, test_release, &state};
        dfc_context *ctx = dfc_context_create(&allocator);
        if (ctx == NULL) {
            CHECK_EQ_INT(state.live, 0);
            continue;
        }
        dfc_flat_result r;
        memset(&r, 0x5A, sizeof(r));
        dfc_flat_result untouched = r;
        int status = diff_keys(ctx, a, 64, b, 64, 0, &r);
        CHECK(status == DFC_OK || status == DFC_ERR_OUT_OF_MEMORY);
        if (status != DFC_OK) CHECK(memcmp(&r, &untouched, sizeof(r)) == 0);
        /* a failed call leaves the context usable */
        state.fail_at = -1;
        CHECK_EQ_INT(diff_keys(ctx, a, 64, b, 64, 0, &r), DFC_OK);
        CHECK(oracle_flat_replay(a, 64, b, 64, &r));
        dfc_context_free(ctx);
        CHECK_EQ_INT(state.live, 0);

        /* duplicates: all of them, or (out of memory) none, flat and sectioned */
        state = (test_heap){.fail_at = fail_at};
        ctx = dfc_context_create(&allocator);
        if (ctx != NULL) {
            size_t listed = 99;
            status = diff_keys(ctx, repeats, 64, a, 64, 0, &r);
            CHECK(status == DFC_ERR_DUPLICATE || status == DFC_ERR_OUT_OF_MEMORY);
            const dfc_duplicate *list = dfc_context_duplicates(ctx, &listed);
            CHECK_EQ_INT(listed, status == DFC_ERR_DUPLICATE ? all_duplicates : 0);
            CHECK((list == NULL) == (status != DFC_ERR_DUPLICATE));
            uint64_t sections[] = {1, 2};
            uint32_t starts[] = {0, 32, 64};
            dfc_snapshot repeated = {{sections, 2, NULL, NULL}, {repeats, 64, NULL, NULL}, starts};
            dfc_snapshot plain = {{sections, 2, NULL, NULL}, {a, 64, NULL, NULL}, starts};
            dfc_sections_result sr;
            status = dfc_diff_sections(ctx, &repeated, &plain, NULL, &injective, &injective, 0, &sr);
            CHECK(status == DFC_ERR_DUPLICATE || status == DFC_ERR_OUT_OF_MEMORY);
            list = dfc_context_duplicates(ctx, &listed);
            CHECK_EQ_INT(listed, status == DFC_ERR_DUPLICATE ? all_duplicates : 0);
            CHECK((list == NULL) == (status != DFC_ERR_DUPLICATE));
            dfc_context_free(ctx);
        }
        CHECK_EQ_INT(state.live, 0);

        /* the sectioned diff: fails cleanly at every allocation, works afterwards */
        state = (test_heap){.fail_at = fail_at};
        ctx = dfc_context_create(&allocator);
        if (ctx != NULL) {
            uint64_t sections_old[] = {1, 2, 3}, sections_new[] = {3, 1, 4};
            uint32_t starts[] = {0, 20, 40, 64}, starts_new[] = {0, 30, 50, 64};
            dfc_snapshot so = {{sections_old, 3, NULL, NULL}, {a, 64, NULL, NULL}, starts};
            dfc_snapshot sn = {{sections_new, 3, NULL, NULL}, {b, 64, NULL, NULL}, starts_new};
            dfc_sections_result sr;
            int status2 = dfc_diff_sections(ctx, &so, &sn, NULL, &injective, &injective, 0, &sr);
            CHECK(status2 == DFC_OK || status2 == DFC_ERR_OUT_OF_MEMORY);
            state.fail_at = -1;
            CHECK_EQ_INT(dfc_diff_sections(ctx, &so, &sn, NULL, &injective, &injective, 0, &sr), DFC_OK);
            dfc_context_free(ctx);
        }
        CHECK_EQ_INT(state.live, 0);

        /* ... and in place (the refresh-only planner), trusted or checked */
        state = (test_heap){.fail_at = fail_at};
        ctx = dfc_context_create(&allocator);
        if (ctx != NULL) {
            uint64_t sections[] = {1, 2, 3};
            uint32_t starts[] = {0, 20, 40, 64}, reloads[] = {3, 30, 3};
            dfc_snapshot snapshot = {{sections, 3, NULL, NULL}, {a, 64, NULL, NULL}, starts};
            dfc_refresh refresh = {reloads, 3, reloads, 1, NULL, 0};
            dfc_sections_result sr;
            const unsigned flags = fail_at % 2 ? DFC_DIFF_ASSUME_UNIQUE : 0;
            int status2 = dfc_diff_sections(ctx, &snapshot, &snapshot, &refresh, &injective, &injective, flags, &sr);
            CHECK(status2 == DFC_OK || status2 == DFC_ERR_OUT_OF_MEMORY);
            state.fail_at = -1;
            CHECK_EQ_INT(dfc_diff_sections(ctx, &snapshot, &snapshot, &refresh, &injective, &injective, flags, &sr), DFC_OK);
            CHECK(!sr.has_structural && sr.refresh.reload_item_count == 2 && sr.refresh.reconfigure_item_count == 0);
            dfc_context_free(ctx);
        }
        CHECK_EQ_INT(state.live, 0);

        state = (test_heap){.fail_at = fail_at};
        dfc_idtable *table = dfc_idtable_create(&allocator);
        if (table != NULL) {
            /* a failed reserve leaves no slots (inserts find no room); a later one works */
            uint64_t keys[200];
            for (uint32_t i = 0; i < 200; i++) keys[i] = i;
            int reserved = dfc_idtable_reserve(table, 200, NULL, 0);
            CHECK(reserved == DFC_OK || reserved == DFC_ERR_OUT_OF_MEMORY);
            for (uint32_t i = 0; i < 100; i++) CHECK_EQ_INT(dfc_idtable_insert(table, i, i), reserved == DFC_OK ? DFC_OK : DFC_ERR_NO_ROOM);
            state.fail_at = -1;
            size_t held = dfc_idtable_count(table);
            CHECK_EQ_INT(dfc_idtable_reserve(table, 400, keys, 100), DFC_OK);
            CHECK_EQ_INT(dfc_idtable_count(table), held);
            dfc_idtable_free(table);
        }
        CHECK_EQ_INT(state.live, 0);
    }
}
