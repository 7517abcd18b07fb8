/* The batch planner (dfc_plan.c) through dfc_diff_sections: random two-level pairs (sections
 * deleted, inserted, moved; items deleted, inserted, moved within and across sections, into
 * new sections and out of deleted ones; refresh requests) must give batches that replay onto
 * the old sections under UIKit's rules to exactly the new ones, pass UIKit's count check and
 * move no more than the LIS allows (oracle_sections_replay), on both matching paths. */
#include "dfc.h"
#include "harness.h"
#include "oracle.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { PLAN_SECTIONS = 8, PLAN_ITEMS = 48 };

typedef struct plan_side {
    uint64_t sections[2 * PLAN_SECTIONS];
    uint32_t starts[2 * PLAN_SECTIONS + 1];
    uint64_t items[2 * PLAN_ITEMS];
    size_t section_count;
} plan_side;

/* Items per section before they are laid out in `starts` and `items`. */
typedef struct plan_layout {
    uint64_t items[2 * PLAN_SECTIONS][2 * PLAN_ITEMS];
    size_t counts[2 * PLAN_SECTIONS];
} plan_layout;

static void plan_lay_out(plan_side *side, const plan_layout *layout) {
    side->starts[0] = 0;
    for (size_t s = 0; s < side->section_count; s++) {
        memcpy(side->items + side->starts[s], layout->items[s], layout->counts[s] * sizeof(uint64_t));
        side->starts[s + 1] = side->starts[s] + (uint32_t)layout->counts[s];
    }
}

/* An old side, and a new one made from it: sections kept (most), some new, the order shuffled
 * or a few swapped; items kept (most) in their section or moved to another, some new, a few
 * swapped within their section. */
static void plan_random_pair(plan_side *old_side, plan_side *new_side) {
    static plan_layout before, after;
    uint64_t next_id = 1000;
    old_side->section_count = rng_below(PLAN_SECTIONS + 1);
    size_t items = 0;
    for (size_t s = 0; s < old_side->section_count; s++) {
        old_side->sections[s] = s + 1;
        before.counts[s] = 0;
        const size_t count = rng_below(8);
        for (size_t i = 0; i < count && items < PLAN_ITEMS; i++, items++) before.items[s][before.counts[s]++] = next_id++;
    }
    plan_lay_out(old_side, &before);
    /* sections: survivors (with the old index each came from, or -1 when new) */
    int64_t from[2 * PLAN_SECTIONS];
    size_t sn = 0;
    for (size_t s = 0; s < old_side->section_count; s++)
        if (rng_below(10) < 8) from[sn] = (int64_t)s, new_side->sections[sn++] = old_side->sections[s];
    for (size_t k = rng_below(3); k > 0 && sn < 2 * PLAN_SECTIONS - 1; k--, sn++) {
        from[sn] = -1;
        new_side->sections[sn] = 100 + sn;
    }
    const int style = (int)rng_below(3);
    for (size_t k = 0; sn > 1 && k < (style == 0 ? sn : style == 1 ? 1 : 0); k++) {
        size_t i = rng_below(sn), j = rng_below(sn);
        uint64_t t = new_side->sections[i];
        new_side->sections[i] = new_side->sections[j];
        new_side->sections[j] = t;
        int64_t f = from[i];
        from[i] = from[j];
        from[j] = f;
    }
    new_side->section_count = sn;
    /* items: each survivor keeps most of its items; some move to another new section */
    for (size_t t = 0; t < sn; t++) after.counts[t] = 0;
    size_t total = 0;
    for (size_t t = 0; t < sn; t++) {
        if (from[t] < 0) continue;
        for (size_t i = 0; i < before.counts[from[t]]; i++) {
            const uint64_t id = before.items[from[t]][i];
            if (rng_below(10) == 0) continue; /* deleted */
            const size_t to = rng_below(6) == 0 ? rng_below(sn) : t;
            after.items[to][after.counts[to]++] = id;
            total++;
        }
    }
    /* items of deleted sections that live on elsewhere */
    for (size_t s = 0; s < old_side->section_count && sn > 0; s++) {
        bool kept = false;
        for (size_t t = 0; t < sn; t++) kept |= from[t] == (int64_t)s;
        for (size_t i = 0; !kept && i < before.counts[s]; i++)
            if (rng_below(3) == 0) {
                const size_t to = rng_below(sn);
                after.items[to][after.counts[to]++] = before.items[s][i];
                total++;
            }
    }
    for (size_t k = rng_below(6); k > 0 && sn > 0 && total < 2 * PLAN_ITEMS - 1; k--, total++) {
        const size_t to = rng_below(sn);
        after.items[to][after.counts[to]++] = next_id++;
    }
    /* shuffle within sections: a few swaps, or the whole section */
    for (size_t t = 0; t < sn; t++) {
        const size_t count = after.counts[t];
        if (count < 2) continue;
        if (rng_below(4) == 0) {
            shuffle(after.items[t], count);
            continue;
        }
        for (size_t k = rng_below(3); k > 0; k--) {
            size_t i = rng_below(count), j = rng_below(count);
            uint64_t x = after.items[t][i];
            after.items[t][i] = after.items[t][j];
            after.items[t][j] = x;
        }
    }
    plan_lay_out(new_side, &after);
}

void test_plan_random_replay(void) {
    dfc_context *ctx = dfc_context_create(NULL);
    rng_state = 2929;
    static plan_side a, b;
    size_t structural = 0, section_moves = 0, item_moves = 0, refreshed = 0;
    for (int round = 0; round < 4000; round++) {
        plan_random_pair(&a, &b);
        const size_t m = b.starts[b.section_count];
        uint32_t reloads[4], reconfigures[4], section_reloads[2];
        dfc_refresh refresh = {reloads, m ? rng_below(4) : 0, reconfigures, m ? rng_below(4) : 0, section_reloads,
                               b.section_count ? rng_below(2) : 0};
        for (size_t k = 0; k < refresh.reload_item_count; k++) reloads[k] = (uint32_t)rng_below(m);
        for (size_t k = 0; k < refresh.reconfigure_item_count; k++) reconfigures[k] = (uint32_t)rng_below(m);
        for (size_t k = 0; k < refresh.reload_section_count; k++) section_reloads[k] = (uint32_t)rng_below(b.section_count);
        const oracle_snapshot before = {a.sections, a.section_count, a.items, a.starts};
        const oracle_snapshot after = {b.sections, b.section_count, b.items, b.starts};
        for (unsigned flags = 0; flags <= DFC_DIFF_ASSUME_UNIQUE; flags += DFC_DIFF_ASSUME_UNIQUE) {
            dfc_sections_result r;
            CHECK_EQ_INT(diff_sections_flags(ctx, flags, a.sections, a.section_count, a.items, a.starts, b.sections,
                                             b.section_count, b.items, b.starts, &refresh, &r),
                         DFC_OK);
            const char *problem = oracle_sections_replay(&before, &after, &r);
            if (problem != NULL) {
                fprintf(stderr, "  round %d (flags %u, seed 2929): %s\n", round, flags, problem);
                harness_failures_in_test++;
                dfc_context_free(ctx);
                return;
            }
            if (flags) continue;
            structural += r.has_structural != 0;
            section_moves += r.structural.move_section_count;
            item_moves += r.structural.move_item_count;
            refreshed += r.has_refresh != 0;
        }
    }
    printf("     plan replay: 4000 pairs, %zu structural batches, %zu section moves, %zu item moves, %zu refresh batches\n",
           structural, section_moves, item_moves, refreshed);
    CHECK(structural > 2000 && section_moves > 100 && item_moves > 1000 && refreshed > 1000); /* the generator reaches them */
    dfc_context_free(ctx);
}
