/* libFuzzer target over both diffs, with oracles (docs/RELIABILITY_METHOD.md, G5).
 *
 * Input bytes become two snapshots of small integer identifiers (duplicates and
 * empty sections included) plus refresh requests; the flat diff of the item lists
 * must replay exactly with minimal moves, or report duplicates that really exist;
 * the sectioned diff must succeed or fail with the same verdict, its two-level batch
 * must replay onto the old sections under UIKit's rules to exactly the new ones, with
 * UIKit's counts and minimal moves (oracle.h), and the trusted path must give the same
 * batch; matched on keys of 3 bits with deferred checks (DFC_MATCH_DEFERRED), the diff
 * is refused, or a matched pair is unequal, or it is that same batch. Built by `make fuzz` with the toolchain's clang; `make fuzz-replay` runs the
 * corpus through a plain main (fuzz_main.c). */
#include "dfc.h"
#include "../harness.h"
#include "../oracle.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ITEMS 48
#define MAX_SECTIONS 8

typedef struct side {
    uint64_t sections[MAX_SECTIONS];
    uint32_t starts[MAX_SECTIONS + 1];
    uint64_t items[MAX_ITEMS];
    size_t section_count, item_count;
} side;

static size_t take(const uint8_t **data, size_t *size) {
    if (*size == 0) return 0;
    uint8_t value = **data;
    (*data)++;
    (*size)--;
    return value;
}

static void read_side(const uint8_t **data, size_t *size, side *s) {
    s->section_count = take(data, size) % (MAX_SECTIONS + 1);
    s->starts[0] = 0;
    s->item_count = 0;
    for (size_t k = 0; k < s->section_count; k++) {
        s->sections[k] = take(data, size) % 12;
        size_t n = take(data, size) % 9;
        for (size_t i = 0; i < n && s->item_count < MAX_ITEMS; i++) s->items[s->item_count++] = take(data, size) % 64;
        s->starts[k + 1] = (uint32_t)s->item_count;
    }
}

static bool has_duplicates(const uint64_t *values, size_t count) {
    for (size_t i = 0; i < count; i++)
        for (size_t j = i + 1; j < count; j++)
            if (values[i] == values[j]) return true;
    return false;
}

static void check_flat(dfc_context *ctx, const side *a, const side *b) {
    dfc_list old_list = {a->items, a->item_count, NULL, NULL}, new_list = {b->items, b->item_count, NULL, NULL};
    dfc_match match = {DFC_MATCH_INJECTIVE, NULL, NULL};
    dfc_flat_result r;
    int status = dfc_diff_flat(ctx, &old_list, &new_list, &match, 0, &r);
    bool duplicates = has_duplicates(a->items, a->item_count) || has_duplicates(b->items, b->item_count);
    CHECK(duplicates == (status == DFC_ERR_DUPLICATE));
    if (status != DFC_OK) return;
    CHECK(oracle_flat_replay(a->items, a->item_count, b->items, b->item_count, &r));
}

/* Two results' batches are the same operations (the trusted path against the validated one). */
static bool same_batch(const dfc_batch *x, const dfc_batch *y) {
#define SAME(list, count, type) (x->count == y->count && (x->count == 0 || memcmp(x->list, y->list, x->count * sizeof(type)) == 0))
    return SAME(delete_sections, delete_section_count, uint32_t) && SAME(insert_sections, insert_section_count, uint32_t) &&
           SAME(move_section_from, move_section_count, uint32_t) && SAME(move_section_to, move_section_count, uint32_t) &&
           SAME(reload_sections, reload_section_count, uint32_t) && SAME(delete_items, delete_item_count, dfc_index_path) &&
           SAME(insert_items, insert_item_count, dfc_index_path) && SAME(move_item_from, move_item_count, dfc_index_path) &&
           SAME(move_item_to, move_item_count, dfc_index_path) && SAME(reload_items, reload_item_count, dfc_index_path) &&
           SAME(reconfigure_items, reconfigure_item_count, dfc_index_path);
#undef SAME
}

/* Whether every pair a map matched holds equal values, both ways. */
static bool pairs_equal(const uint64_t *old_values, const uint64_t *new_values, size_t new_count, const int32_t *new_to_old,
                        const int32_t *old_to_new) {
    for (size_t j = 0; j < new_count; j++)
        if (new_to_old[j] != DFC_NOT_FOUND && (old_values[new_to_old[j]] != new_values[j] || old_to_new[new_to_old[j]] != (int32_t)j))
            return false;
    return true;
}

/* Keys of 3 bits (most elements share one with another), matches checked afterwards as a
 * caller of DFC_MATCH_DEFERRED checks them: a result whose pairs all hold equal values is
 * the exact diff's batch (`expected`). */
static void check_deferred(dfc_context *ctx, const side *a, const side *b, const dfc_refresh *refresh,
                           const dfc_sections_result *expected) {
    side ka = *a, kb = *b;
    for (size_t k = 0; k < ka.section_count; k++) ka.sections[k] &= 7;
    for (size_t k = 0; k < kb.section_count; k++) kb.sections[k] &= 7;
    for (size_t i = 0; i < ka.item_count; i++) ka.items[i] &= 7;
    for (size_t i = 0; i < kb.item_count; i++) kb.items[i] &= 7;
    dfc_snapshot old_s = {{ka.sections, ka.section_count, NULL, NULL}, {ka.items, ka.item_count, NULL, NULL}, ka.starts};
    dfc_snapshot new_s = {{kb.sections, kb.section_count, NULL, NULL}, {kb.items, kb.item_count, NULL, NULL}, kb.starts};
    const dfc_match deferred = {DFC_MATCH_DEFERRED, NULL, NULL};
    dfc_sections_result r;
    int status = dfc_diff_sections(ctx, &old_s, &new_s, refresh, &deferred, &deferred, DFC_DIFF_ASSUME_UNIQUE, &r);
    CHECK(status == DFC_OK || status == DFC_ERR_SHARED_KEY);
    if (status != DFC_OK) return;
    if (!pairs_equal(a->sections, b->sections, b->section_count, r.new_section_to_old, r.old_section_to_new) ||
        !pairs_equal(a->items, b->items, b->item_count, r.new_item_to_old, r.old_item_to_new))
        return;
    CHECK(same_batch(&r.structural, &expected->structural) && same_batch(&r.refresh, &expected->refresh));
}

static void check_sections(dfc_context *ctx, const side *a, const side *b, const uint8_t *data, size_t size) {
    dfc_snapshot old_s = {{a->sections, a->section_count, NULL, NULL}, {a->items, a->item_count, NULL, NULL}, a->starts};
    dfc_snapshot new_s = {{b->sections, b->section_count, NULL, NULL}, {b->items, b->item_count, NULL, NULL}, b->starts};
    uint32_t reload[4], reconfigure[4], reload_sections[2];
    size_t nr = 0, nc = 0, ns = 0;
    for (size_t k = 0; k < 4 && b->item_count && k < size; k++) reload[nr++] = data[k] % b->item_count;
    for (size_t k = 4; k < 8 && b->item_count && k < size; k++) reconfigure[nc++] = data[k] % b->item_count;
    if (b->section_count && size > 8) reload_sections[ns++] = data[8] % b->section_count;
    dfc_refresh refresh = {reload, nr, reconfigure, nc, reload_sections, ns};
    dfc_match match = {DFC_MATCH_INJECTIVE, NULL, NULL};
    dfc_sections_result r;
    int status = dfc_diff_sections(ctx, &old_s, &new_s, &refresh, &match, &match, 0, &r);
    bool duplicates = has_duplicates(a->sections, a->section_count) || has_duplicates(b->sections, b->section_count) ||
                      has_duplicates(a->items, a->item_count) || has_duplicates(b->items, b->item_count);
    CHECK(duplicates == (status == DFC_ERR_DUPLICATE));
    if (status != DFC_OK) return;
    const oracle_snapshot before = {a->sections, a->section_count, a->items, a->starts};
    const oracle_snapshot after = {b->sections, b->section_count, b->items, b->starts};
    const char *problem = oracle_sections_replay(&before, &after, &r);
    if (problem != NULL) fprintf(stderr, "sectioned batch: %s\n", problem);
    CHECK(problem == NULL);
    /* The trusted path gives the same batches (a second context: the first one's arrays stay). */
    dfc_context *trusted = dfc_context_create(NULL);
    CHECK(trusted != NULL);
    dfc_sections_result again;
    CHECK(dfc_diff_sections(trusted, &old_s, &new_s, &refresh, &match, &match, DFC_DIFF_ASSUME_UNIQUE, &again) == DFC_OK);
    CHECK(same_batch(&r.structural, &again.structural) && same_batch(&r.refresh, &again.refresh));
    check_deferred(trusted, a, b, &refresh, &r);
    dfc_context_free(trusted);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    harness_fatal = 1;
    const uint8_t *cursor = data;
    size_t left = size;
    side a, b;
    read_side(&cursor, &left, &a);
    read_side(&cursor, &left, &b);
    dfc_context *ctx = dfc_context_create(NULL);
    if (ctx == NULL) return 0;
    check_flat(ctx, &a, &b);
    check_sections(ctx, &a, &b, data, size);
    dfc_context_free(ctx);
    return 0;
}
