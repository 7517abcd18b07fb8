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

/* Refresh requests for a new side of m items in `sections` sections: a few reloads and
 * reconfigures (repeats allowed), sometimes a section reload. The lists live in `lists`. */
typedef struct plan_refresh {
    uint32_t reloads[4], reconfigures[4], section_reloads[2];
} plan_refresh;

static dfc_refresh plan_random_refresh(plan_refresh *lists, size_t m, size_t sections) {
    dfc_refresh refresh = {lists->reloads, m ? rng_below(4) : 0, lists->reconfigures, m ? rng_below(4) : 0,
                           lists->section_reloads, sections ? rng_below(2) : 0};
    for (size_t k = 0; k < refresh.reload_item_count; k++) lists->reloads[k] = (uint32_t)rng_below(m);
    for (size_t k = 0; k < refresh.reconfigure_item_count; k++) lists->reconfigures[k] = (uint32_t)rng_below(m);
    for (size_t k = 0; k < refresh.reload_section_count; k++) lists->section_reloads[k] = (uint32_t)rng_below(sections);
    return refresh;
}

void test_plan_random_replay(void) {
    dfc_context *ctx = dfc_context_create(NULL);
    rng_state = 2929;
    static plan_side a, b;
    size_t structural = 0, section_moves = 0, item_moves = 0, refreshed = 0;
    for (int round = 0; round < 4000; round++) {
        plan_random_pair(&a, &b);
        const size_t m = b.starts[b.section_count];
        plan_refresh refresh_lists;
        const dfc_refresh refresh = plan_random_refresh(&refresh_lists, m, b.section_count);
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

/* ---- refresh decided once the items are matched (dfc_diff_sections_deciding) ---------------- */

typedef struct plan_decision {
    const uint8_t *marks;   /* what the decider sets, one per new item */
    size_t new_count, old_count;
    int32_t new_to_old[2 * PLAN_ITEMS], old_to_new[2 * PLAN_ITEMS]; /* the maps it was shown */
    int status;             /* what it returns */
    int calls;
} plan_decision;

static int plan_decide(void *user, const int32_t *new_to_old, size_t new_count, const int32_t *old_to_new,
                       size_t old_count, uint8_t *marks) {
    plan_decision *decision = user;
    decision->calls++;
    decision->new_count = new_count;
    decision->old_count = old_count;
    for (size_t j = 0; j < new_count; j++) {
        CHECK(marks[j] == 0); /* handed over zeroed */
        decision->new_to_old[j] = new_to_old[j];
        marks[j] = decision->marks[j];
    }
    for (size_t i = 0; i < old_count; i++) decision->old_to_new[i] = old_to_new[i];
    return decision->status;
}

static bool plan_same_paths(const dfc_index_path *x, const dfc_index_path *y, size_t count) {
    return count == 0 || memcmp(x, y, count * sizeof *x) == 0;
}

static bool plan_same_batch(const dfc_batch *x, const dfc_batch *y) {
    return x->delete_section_count == y->delete_section_count && x->insert_section_count == y->insert_section_count &&
           x->move_section_count == y->move_section_count && x->reload_section_count == y->reload_section_count &&
           x->delete_item_count == y->delete_item_count && x->insert_item_count == y->insert_item_count &&
           x->move_item_count == y->move_item_count && x->reload_item_count == y->reload_item_count &&
           x->reconfigure_item_count == y->reconfigure_item_count &&
           plan_same_paths(x->delete_items, y->delete_items, x->delete_item_count) &&
           plan_same_paths(x->insert_items, y->insert_items, x->insert_item_count) &&
           plan_same_paths(x->move_item_to, y->move_item_to, x->move_item_count) &&
           plan_same_paths(x->reload_items, y->reload_items, x->reload_item_count) &&
           plan_same_paths(x->reconfigure_items, y->reconfigure_items, x->reconfigure_item_count);
}

/* Marks a decider sets once the items are matched give the batches the same requests give
 * up front (requests and marks together, reload winning); the decider sees the result's maps
 * and zeroed marks; a status it returns stops the diff and leaves the result alone; a mark
 * other than the two refresh bits is refused. Both matching paths, the in-place one included
 * (a pair whose new side is its old side). */
void test_plan_decided_refresh(void) {
    dfc_context *ctx = dfc_context_create(NULL), *other = dfc_context_create(NULL);
    rng_state = 3131;
    static plan_side a, b;
    size_t refreshed = 0, in_place = 0;
    for (int round = 0; round < 3000; round++) {
        plan_random_pair(&a, &b);
        if (round % 10 == 0) b = a; /* everything matched in place */
        const size_t m = b.starts[b.section_count];
        uint8_t marks[2 * PLAN_ITEMS] = {0};
        uint32_t reloads[2 * PLAN_ITEMS + 4], reconfigures[2 * PLAN_ITEMS + 4];
        plan_refresh refresh_lists;
        const dfc_refresh requested = plan_random_refresh(&refresh_lists, m, b.section_count);
        dfc_refresh merged = requested;
        merged.reload_items = reloads;
        merged.reconfigure_items = reconfigures;
        memcpy(reloads, requested.reload_items, requested.reload_item_count * sizeof(uint32_t));
        memcpy(reconfigures, requested.reconfigure_items, requested.reconfigure_item_count * sizeof(uint32_t));
        for (size_t j = 0; j < m; j++) {
            const size_t pick = rng_below(8);
            marks[j] = pick < 5 ? 0 : (uint8_t)(pick - 4); /* 1 reload, 2 reconfigure, 3 both */
            if (marks[j] & DFC_REFRESH_RELOAD) reloads[merged.reload_item_count++] = (uint32_t)j;
            if (marks[j] & DFC_REFRESH_RECONFIGURE) reconfigures[merged.reconfigure_item_count++] = (uint32_t)j;
        }
        dfc_snapshot old_s = {{a.sections, a.section_count, NULL, NULL}, {a.items, a.starts[a.section_count], NULL, NULL},
                              a.starts};
        dfc_snapshot new_s = {{b.sections, b.section_count, NULL, NULL}, {b.items, m, NULL, NULL}, b.starts};
        const unsigned flags = round % 2 == 0 ? 0 : DFC_DIFF_ASSUME_UNIQUE;
        plan_decision decision = {marks, 0, 0, {0}, {0}, DFC_OK, 0};
        dfc_sections_result decided, expected;
        CHECK_EQ_INT(dfc_diff_sections_deciding(ctx, &old_s, &new_s, &requested, plan_decide, &decision, &injective,
                                                &injective, flags, &decided),
                     DFC_OK);
        CHECK_EQ_INT(dfc_diff_sections(other, &old_s, &new_s, &merged, &injective, &injective, flags, &expected), DFC_OK);
        CHECK(decision.calls == 1 && decision.new_count == m && decision.old_count == a.starts[a.section_count]);
        CHECK(m == 0 || memcmp(decision.new_to_old, decided.new_item_to_old, m * sizeof(int32_t)) == 0);
        CHECK(plan_same_batch(&decided.structural, &expected.structural) && plan_same_batch(&decided.refresh, &expected.refresh));
        CHECK(decided.has_refresh == expected.has_refresh);
        refreshed += decided.has_refresh != 0;
        in_place += decided.has_structural == 0;
        /* A refusal stops the diff; a stray bit is refused. */
        dfc_sections_result untouched;
        memset(&untouched, 0xA5, sizeof untouched);
        const dfc_sections_result before = untouched;
        decision.status = DFC_ERR_SHARED_KEY;
        CHECK_EQ_INT(dfc_diff_sections_deciding(ctx, &old_s, &new_s, NULL, plan_decide, &decision, &injective, &injective,
                                                flags, &untouched),
                     DFC_ERR_SHARED_KEY);
        CHECK(memcmp(&untouched, &before, sizeof before) == 0);
        if (m > 0) {
            decision.status = DFC_OK;
            marks[rng_below(m)] = 4;
            CHECK_EQ_INT(dfc_diff_sections_deciding(ctx, &old_s, &new_s, NULL, plan_decide, &decision, &injective,
                                                    &injective, flags, &untouched),
                         DFC_ERR_INVALID_ARGUMENT);
        }
    }
    CHECK(refreshed > 1000 && in_place > 100);
    dfc_context_free(ctx);
    dfc_context_free(other);
}

/* ---- steps (dfc_steps.c) replayed onto plain arrays ------------------------------------------ */

typedef struct steps_state {
    uint64_t sections[2 * PLAN_SECTIONS];
    uint64_t items[2 * PLAN_SECTIONS][2 * PLAN_ITEMS];
    size_t counts[2 * PLAN_SECTIONS];
    size_t section_count;
} steps_state;

static void steps_state_remove_section(steps_state *s, size_t at) {
    for (size_t i = at; i + 1 < s->section_count; i++) {
        s->sections[i] = s->sections[i + 1];
        s->counts[i] = s->counts[i + 1];
        memcpy(s->items[i], s->items[i + 1], sizeof(s->items[i]));
    }
    s->section_count--;
}

static void steps_state_insert_section(steps_state *s, size_t at, uint64_t id, const uint64_t *items, size_t count) {
    for (size_t i = s->section_count; i > at; i--) {
        s->sections[i] = s->sections[i - 1];
        s->counts[i] = s->counts[i - 1];
        memcpy(s->items[i], s->items[i - 1], sizeof(s->items[i]));
    }
    s->sections[at] = id;
    s->counts[at] = count;
    memcpy(s->items[at], items, count * sizeof(uint64_t));
    s->section_count++;
}

static uint64_t steps_state_remove_item(steps_state *s, dfc_index_path at) {
    uint64_t id = s->items[at.section][at.item];
    memmove(&s->items[at.section][at.item], &s->items[at.section][at.item + 1],
            (s->counts[at.section] - at.item - 1) * sizeof(uint64_t));
    s->counts[at.section]--;
    return id;
}

static void steps_state_insert_item(steps_state *s, dfc_index_path at, uint64_t id) {
    memmove(&s->items[at.section][at.item + 1], &s->items[at.section][at.item],
            (s->counts[at.section] - at.item) * sizeof(uint64_t));
    s->items[at.section][at.item] = id;
    s->counts[at.section]++;
}

/* Applies steps to `s` one at a time, each index checked against the state the steps before it
 * left; inserted sections and rows come from `after`. NULL, or what went wrong. */
static const char *steps_replay(steps_state *s, const plan_side *after, const dfc_steps *steps, size_t *moves) {
    for (size_t k = 0; k < steps->count; k++) {
        const dfc_step st = steps->steps[k];
        const bool section_ok = st.at.section < s->section_count;
        const bool item_ok = section_ok && st.at.item < s->counts[st.at.section];
        switch (st.kind) {
        case DFC_STEP_DELETE_ITEM:
            if (!item_ok) return "item delete out of range";
            steps_state_remove_item(s, st.at);
            break;
        case DFC_STEP_DELETE_SECTION:
            if (!section_ok) return "section delete out of range";
            steps_state_remove_section(s, st.at.section);
            break;
        case DFC_STEP_MOVE_SECTION: {
            if (!section_ok) return "section move source out of range";
            steps_state section = {0};
            uint64_t id = s->sections[st.at.section];
            size_t count = s->counts[st.at.section];
            memcpy(section.items[0], s->items[st.at.section], sizeof(section.items[0]));
            steps_state_remove_section(s, st.at.section);
            if (st.to.section > s->section_count) return "section move target out of range";
            steps_state_insert_section(s, st.to.section, id, section.items[0], count);
            ++*moves;
            break;
        }
        case DFC_STEP_INSERT_SECTION:
            if (st.at.section > s->section_count || st.at.section >= after->section_count) return "section insert out of range";
            steps_state_insert_section(s, st.at.section, after->sections[st.at.section],
                                       after->items + after->starts[st.at.section],
                                       after->starts[st.at.section + 1] - after->starts[st.at.section]);
            break;
        case DFC_STEP_MOVE_ITEM: {
            if (!item_ok) return "item move source out of range";
            uint64_t id = steps_state_remove_item(s, st.at);
            if (st.to.section >= s->section_count || st.to.item > s->counts[st.to.section])
                return "item move target out of range";
            steps_state_insert_item(s, st.to, id);
            ++*moves;
            break;
        }
        case DFC_STEP_INSERT_ITEM:
            if (!section_ok || st.at.item > s->counts[st.at.section] || st.at.section >= after->section_count)
                return "item insert out of range";
            steps_state_insert_item(s, st.at, after->items[after->starts[st.at.section] + st.at.item]);
            break;
        case DFC_STEP_RELOAD_SECTION:
            if (!section_ok) return "section reload out of range";
            break;
        case DFC_STEP_RELOAD_ITEM:
        case DFC_STEP_RECONFIGURE_ITEM:
            if (!item_ok) return "refresh out of range";
            break;
        default:
            return "unknown step kind";
        }
    }
    return NULL;
}

static bool steps_state_equals(const steps_state *s, const plan_side *side) {
    if (s->section_count != side->section_count) return false;
    for (size_t t = 0; t < side->section_count; t++) {
        const size_t count = side->starts[t + 1] - side->starts[t];
        if (s->sections[t] != side->sections[t] || s->counts[t] != count) return false;
        if (count && memcmp(s->items[t], side->items + side->starts[t], count * sizeof(uint64_t)) != 0) return false;
    }
    return true;
}

/* Every random pair's batches, listed by dfc_batch_steps and replayed one step at a time onto
 * plain arrays (not the oracle's batch replay), give the new sections exactly; every move of
 * the batch is one move step; a refresh batch's steps are its requests, each once. */
void test_steps_random_replay(void) {
    dfc_context *ctx = dfc_context_create(NULL);
    rng_state = 3131;
    static plan_side a, b;
    static steps_state state;
    size_t steps_total = 0, move_steps = 0;
    for (int round = 0; round < 4000; round++) {
        plan_random_pair(&a, &b);
        const size_t m = b.starts[b.section_count];
        plan_refresh refresh_lists;
        const dfc_refresh refresh = plan_random_refresh(&refresh_lists, m, b.section_count);
        dfc_sections_result r;
        CHECK_EQ_INT(diff_sections(ctx, a.sections, a.section_count, a.items, a.starts, b.sections, b.section_count,
                                   b.items, b.starts, &refresh, &r),
                     DFC_OK);
        uint32_t old_counts[2 * PLAN_SECTIONS], new_counts[2 * PLAN_SECTIONS];
        for (size_t s = 0; s < a.section_count; s++) old_counts[s] = a.starts[s + 1] - a.starts[s];
        for (size_t t = 0; t < b.section_count; t++) new_counts[t] = b.starts[t + 1] - b.starts[t];
        memset(&state, 0, sizeof(state));
        state.section_count = a.section_count;
        for (size_t s = 0; s < a.section_count; s++) {
            state.sections[s] = a.sections[s];
            state.counts[s] = old_counts[s];
            memcpy(state.items[s], a.items + a.starts[s], old_counts[s] * sizeof(uint64_t));
        }
        const char *problem = NULL;
        dfc_steps steps = {0};
        if (r.has_structural) {
            size_t moves = 0;
            CHECK_EQ_INT(dfc_batch_steps(ctx, &r.structural, old_counts, a.section_count, new_counts, b.section_count, &steps),
                         DFC_OK);
            problem = steps_replay(&state, &b, &steps, &moves);
            if (problem == NULL && moves != r.structural.move_section_count + r.structural.move_item_count)
                problem = "a move of the batch is not one move step";
            steps_total += steps.count;
            move_steps += moves;
        }
        if (problem == NULL && !steps_state_equals(&state, &b)) problem = "the steps do not give the new sections";
        if (problem == NULL && r.has_refresh) {
            size_t moves = 0;
            CHECK_EQ_INT(dfc_batch_steps(ctx, &r.refresh, new_counts, b.section_count, new_counts, b.section_count, &steps),
                         DFC_OK);
            problem = steps_replay(&state, &b, &steps, &moves);
            if (problem == NULL && steps.count != r.refresh.reload_section_count + r.refresh.reload_item_count +
                                                      r.refresh.reconfigure_item_count)
                problem = "a refresh batch's steps are not its requests";
        }
        if (problem != NULL) {
            fprintf(stderr, "  round %d (seed 3131): %s\n", round, problem);
            harness_failures_in_test++;
            break;
        }
    }
    printf("     steps replay: 4000 pairs, %zu steps, %zu of them moves\n", steps_total, move_steps);
    CHECK(move_steps > 1000);
    dfc_context_free(ctx);
}
