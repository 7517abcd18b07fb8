/* The two-level diff (dfc_sections.c, dfc_plan.c): known answers, and the refresh-only planner
 * against the general one. */
#include "dfc.h"
#include "harness.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void test_sections_known_answers(void) {
    dfc_context *ctx = dfc_context_create(NULL);
    dfc_sections_result r;
    /* docs/BATCH_UPDATE_RULES.md test vector 6: x moves into a newly inserted section -> section insert + item delete, no move */
    uint64_t s1[] = {100}, i1[] = {1};
    uint32_t st1[] = {0, 1};
    uint64_t s2[] = {200, 100}, i2[] = {1};
    uint32_t st2[] = {0, 1, 1};
    CHECK_EQ_INT(diff_sections(ctx, s1, 1, i1, st1, s2, 2, i2, st2, NULL, &r), DFC_OK);
    CHECK(r.has_structural && !r.has_refresh);
    CHECK_EQ_INT(r.structural.insert_section_count, 1);
    CHECK_EQ_INT(r.structural.insert_sections[0], 0);
    CHECK_EQ_INT(r.structural.delete_item_count, 1);
    CHECK(r.structural.delete_items[0].section == 0 && r.structural.delete_items[0].item == 0);
    CHECK_EQ_INT(r.structural.move_item_count + r.structural.insert_item_count + r.structural.move_section_count, 0);
    /* docs/BATCH_UPDATE_RULES.md test vector 7, roles reversed: x leaves a deleted section -> section delete + item insert */
    CHECK_EQ_INT(diff_sections(ctx, s2, 2, i2, st2, s1, 1, i1, st1, NULL, &r), DFC_OK);
    CHECK_EQ_INT(r.structural.delete_section_count, 1);
    CHECK_EQ_INT(r.structural.delete_sections[0], 0);
    CHECK_EQ_INT(r.structural.insert_item_count, 1);
    CHECK(r.structural.insert_items[0].section == 0 && r.structural.insert_items[0].item == 0);
    /* same snapshot, a reload and a reconfigure of one item: reload wins, refresh batch only */
    uint32_t reload[] = {0}, reconfigure[] = {0};
    dfc_refresh refresh = {reload, 1, reconfigure, 1, NULL, 0};
    CHECK_EQ_INT(diff_sections(ctx, s1, 1, i1, st1, s1, 1, i1, st1, &refresh, &r), DFC_OK);
    CHECK(!r.has_structural && r.has_refresh);
    CHECK_EQ_INT(r.refresh.reload_item_count, 1);
    CHECK_EQ_INT(r.refresh.reconfigure_item_count, 0);
    /* sections swapped with no item changes: one section move */
    uint64_t s3[] = {1, 2}, i3[] = {10, 20};
    uint32_t st3[] = {0, 1, 2};
    uint64_t s4[] = {2, 1}, i4[] = {20, 10};
    CHECK_EQ_INT(diff_sections(ctx, s3, 2, i3, st3, s4, 2, i4, st3, NULL, &r), DFC_OK);
    CHECK_EQ_INT(r.structural.move_section_count, 1);
    /* LIS of old indices in new order [1, 0] keeps the later run: section 2 (old 1) moves to 0 */
    CHECK(r.structural.move_section_from[0] == 1 && r.structural.move_section_to[0] == 0);
    CHECK_EQ_INT(r.structural.move_item_count, 0);
    CHECK_EQ_INT(r.new_section_to_old[0], 1);
    CHECK_EQ_INT(r.old_item_to_new[0], 1);
    /* 20 goes from old section 1 into new section 1 (another section, at the same raw index):
     * an item delete + insert, not a move. The inserted item is not also refreshed. */
    uint64_t s5[] = {3, 1, 2}, i5[] = {10, 20};
    uint32_t st5[] = {0, 0, 2, 2}, reload_20[] = {1};
    dfc_refresh refresh_20 = {reload_20, 1, reload_20, 1, NULL, 0};
    CHECK_EQ_INT(diff_sections(ctx, s3, 2, i3, st3, s5, 3, i5, st5, &refresh_20, &r), DFC_OK);
    CHECK(r.has_structural && !r.has_refresh);
    CHECK(r.structural.insert_section_count == 1 && r.structural.insert_sections[0] == 0);
    CHECK(r.structural.delete_item_count == 1 && r.structural.delete_items[0].section == 1 &&
          r.structural.delete_items[0].item == 0);
    CHECK(r.structural.insert_item_count == 1 && r.structural.insert_items[0].section == 1 &&
          r.structural.insert_items[0].item == 1);
    CHECK_EQ_INT(r.structural.move_item_count + r.structural.move_section_count, 0);
    CHECK_EQ_INT(r.refresh.reload_item_count + r.refresh.reconfigure_item_count, 0);
    /* bad input */
    uint32_t bad_starts[] = {0, 2};
    dfc_snapshot inconsistent = {{s1, 1, NULL, NULL}, {i1, 1, NULL, NULL}, bad_starts};
    dfc_snapshot consistent = {{s1, 1, NULL, NULL}, {i1, 1, NULL, NULL}, st1};
    CHECK_EQ_INT(dfc_diff_sections(ctx, &inconsistent, &consistent, NULL, &injective, &injective, 0, &r), DFC_ERR_INCONSISTENT);
    uint32_t far[] = {5};
    dfc_refresh out_of_range = {far, 1, NULL, 0, NULL, 0};
    CHECK_EQ_INT(diff_sections(ctx, s1, 1, i1, st1, s1, 1, i1, st1, &out_of_range, &r), DFC_ERR_UNKNOWN_IDENTIFIER);
    dfc_snapshot good = {{s1, 1, NULL, NULL}, {i1, 1, NULL, NULL}, st1};
    dfc_snapshot no_starts = {{s1, 1, NULL, NULL}, {i1, 1, NULL, NULL}, NULL};
    CHECK_EQ_INT(dfc_diff_sections(NULL, &good, &good, NULL, &injective, &injective, 0, &r), DFC_ERR_NULL_ARGUMENT);
    CHECK_EQ_INT(dfc_diff_sections(ctx, &good, &no_starts, NULL, &injective, &injective, 0, &r), DFC_ERR_NULL_ARGUMENT);
    CHECK_EQ_INT(dfc_diff_sections(ctx, &good, &good, NULL, NULL, &injective, 0, &r), DFC_ERR_NULL_ARGUMENT);
    CHECK_EQ_INT(dfc_diff_sections(ctx, &good, &good, NULL, &injective, &injective, 4, &r), DFC_ERR_INVALID_ARGUMENT);
    /* duplicates: a section twice in old, an item twice across sections in new */
    uint64_t dup_sections[] = {1, 1}, dup_items[] = {7, 7};
    uint32_t dup_starts[] = {0, 1, 2};
    size_t count = 0;
    CHECK_EQ_INT(diff_sections(ctx, dup_sections, 2, i3, st3, s3, 2, dup_items, dup_starts, NULL, &r), DFC_ERR_DUPLICATE);
    const dfc_duplicate *d = dfc_context_duplicates(ctx, &count);
    CHECK_EQ_INT(count, 2);
    if (count == 2) {
        CHECK(d[0].side == DFC_SIDE_OLD && d[0].is_section == 1 && d[0].first == 0 && d[0].duplicate == 1);
        CHECK(d[1].side == DFC_SIDE_NEW && d[1].is_section == 0 && d[1].first == 0 && d[1].duplicate == 1);
    }
    dfc_context_free(ctx);
}

/* A refresh batch copied out of the context (the next diff reuses its buffers). */
typedef struct refresh_copy {
    size_t reload_sections, reload_items, reconfigure_items;
    uint32_t sections[8];
    dfc_index_path reloads[64], reconfigures[64];
} refresh_copy;

static refresh_copy copy_refresh(const dfc_batch *batch) {
    refresh_copy c = {batch->reload_section_count, batch->reload_item_count, batch->reconfigure_item_count, {0}, {{0, 0}}, {{0, 0}}};
    if (c.reload_sections > 8 || c.reload_items > 64 || c.reconfigure_items > 64) return c;
    if (c.reload_sections) memcpy(c.sections, batch->reload_sections, c.reload_sections * sizeof(uint32_t));
    if (c.reload_items) memcpy(c.reloads, batch->reload_items, c.reload_items * sizeof(dfc_index_path));
    if (c.reconfigure_items) memcpy(c.reconfigures, batch->reconfigure_items, c.reconfigure_items * sizeof(dfc_index_path));
    return c;
}

static bool same_refresh(const refresh_copy *a, const refresh_copy *b) {
    return a->reload_sections == b->reload_sections && a->reload_items == b->reload_items &&
           a->reconfigure_items == b->reconfigure_items &&
           memcmp(a->sections, b->sections, sizeof a->sections) == 0 &&
           memcmp(a->reloads, b->reloads, sizeof a->reloads) == 0 &&
           memcmp(a->reconfigures, b->reconfigures, sizeof a->reconfigures) == 0;
}

/* Snapshots whose sections and items all stay in place take the refresh-only planner; its
 * refresh batch must equal the general planner's, reached by giving the new snapshot one
 * more (empty) section at the end. Near misses (an item across a section boundary with the
 * same flat order, two items swapped, a section renamed) must not take it. */
void test_sections_refresh_in_place(void) {
    dfc_context *ctx = dfc_context_create(NULL);
    dfc_sections_result r;
    rng_state = 1414;
    enum { MAX_SECTIONS = 6, MAX_ITEMS = 1000 };
    uint64_t sections[MAX_SECTIONS + 1], section_copy[MAX_SECTIONS + 1], items[MAX_ITEMS], item_copy[MAX_ITEMS];
    uint64_t changed[MAX_ITEMS];
    uint32_t starts[MAX_SECTIONS + 2], start_copy[MAX_SECTIONS + 2], moved_starts[MAX_SECTIONS + 2];
    uint32_t reloads[24], reconfigures[24], section_reloads[4];
    for (int trial = 0; trial < 600; trial++) {
        const size_t so = rng_below(MAX_SECTIONS);
        const size_t per_section = trial % 50 == 0 ? 160 : 24; /* a few long runs of clear flags */
        starts[0] = 0;
        for (size_t s = 0; s < so; s++) {
            sections[s] = 1 + s;
            starts[s + 1] = starts[s] + (uint32_t)rng_below(per_section);
        }
        const size_t n = starts[so];
        for (size_t i = 0; i < n; i++) items[i] = 5000 + i * 7;
        dfc_refresh refresh = {reloads, n ? rng_below(24) : 0, reconfigures, n ? rng_below(24) : 0, section_reloads,
                               so ? rng_below(4) : 0};
        for (size_t k = 0; k < refresh.reload_item_count; k++) reloads[k] = (uint32_t)rng_below(n);
        for (size_t k = 0; k < refresh.reconfigure_item_count; k++)
            reconfigures[k] = rng_below(3) == 0 && refresh.reload_item_count ? reloads[rng_below(refresh.reload_item_count)]
                                                                             : (uint32_t)rng_below(n);
        for (size_t k = 0; k < refresh.reload_section_count; k++) section_reloads[k] = (uint32_t)rng_below(so);
        const dfc_refresh *request = trial % 7 == 0 ? NULL : &refresh;
        const unsigned flags = trial % 2 ? DFC_DIFF_ASSUME_UNIQUE : 0;
        /* The new side: the old arrays themselves, or equal copies. */
        memcpy(section_copy, sections, sizeof sections);
        memcpy(item_copy, items, n * sizeof(uint64_t));
        memcpy(start_copy, starts, (so + 1) * sizeof(uint32_t));
        const bool shared = trial % 4 < 2;
        const uint64_t *new_sections = shared ? sections : section_copy, *new_items = shared ? items : item_copy;
        const uint32_t *new_starts = shared ? starts : start_copy;

        CHECK_EQ_INT(diff_sections_flags(ctx, flags, sections, so, items, starts, new_sections, so, new_items, new_starts,
                                         request, &r),
                     DFC_OK);
        CHECK(!r.has_structural);
        for (size_t i = 0; i < n; i++) CHECK(r.old_item_to_new[i] == (int32_t)i && r.new_item_to_old[i] == (int32_t)i);
        const refresh_copy fast = copy_refresh(&r.refresh);
        const int fast_has_refresh = r.has_refresh;
        sections[so] = 999; /* the general planner: one more section, empty, at the end */
        starts[so + 1] = starts[so];
        CHECK_EQ_INT(diff_sections_flags(ctx, flags, sections, so, items, starts, sections, so + 1, items, starts, request, &r), DFC_OK);
        CHECK(r.has_structural && r.structural.insert_section_count == 1 && r.structural.insert_sections[0] == so);
        CHECK_EQ_INT(r.structural.delete_item_count + r.structural.insert_item_count + r.structural.move_item_count +
                         r.structural.move_section_count + r.structural.delete_section_count, 0);
        const refresh_copy general = copy_refresh(&r.refresh);
        CHECK(same_refresh(&fast, &general));
        CHECK_EQ_INT(fast_has_refresh, r.has_refresh);

        /* Near misses: each changes the layout, so the batch must have structural operations. */
        if (so >= 2 && starts[1] > 0) { /* the last item of section 0 opens section 1: same flat order */
            memcpy(moved_starts, starts, (so + 1) * sizeof(uint32_t));
            moved_starts[1]--;
            CHECK_EQ_INT(diff_sections_flags(ctx, flags, sections, so, items, starts, sections, so, items, moved_starts, request, &r), DFC_OK);
            CHECK(r.has_structural && r.structural.move_item_count + r.structural.delete_item_count == 1);
        }
        if (n >= 2) { /* two neighbours swapped */
            memcpy(changed, items, n * sizeof(uint64_t));
            size_t i = rng_below(n - 1);
            changed[i] = items[i + 1];
            changed[i + 1] = items[i];
            CHECK_EQ_INT(diff_sections_flags(ctx, flags, sections, so, items, starts, sections, so, changed, starts, NULL, &r), DFC_OK);
            CHECK(r.has_structural);
        }
        if (so >= 1) { /* a section renamed */
            uint64_t renamed[MAX_SECTIONS + 1];
            memcpy(renamed, sections, so * sizeof(uint64_t));
            renamed[rng_below(so)] = 777;
            CHECK_EQ_INT(diff_sections_flags(ctx, flags, sections, so, items, starts, renamed, so, items, starts, NULL, &r), DFC_OK);
            CHECK(r.has_structural && r.structural.delete_section_count == 1 && r.structural.insert_section_count == 1);
        }
    }
    dfc_context_free(ctx);
}
