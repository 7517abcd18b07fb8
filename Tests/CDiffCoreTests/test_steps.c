/* dfc_batch_steps and dfc_flat_steps (dfc_steps.c): known answers that pin ALGORITHM.md's
 * step order, and hostile batches that must give an error code or steps that stay in range,
 * never a crash (the suite runs under ASan and UBSan). The random replay of the diff's own
 * batches is test_plan.c's test_steps_random_replay. */
#include "dfc.h"
#include "harness.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

static bool step_is(const dfc_step *s, uint32_t kind, uint32_t section, uint32_t item, uint32_t to_section,
                    uint32_t to_item) {
    return s->kind == kind && s->at.section == section && s->at.item == item && s->to.section == to_section &&
           s->to.item == to_item;
}

void test_steps_known_answers(void) {
    dfc_context *ctx = dfc_context_create(NULL);
    dfc_steps steps;
    /* A, B, C -> B, C, A: A is off the LIS; it moves after C, the last survivor: 0 -> 2. */
    {
        const uint32_t from[] = {0}, to[] = {2}, counts[] = {0, 0, 0};
        dfc_batch batch = {0};
        batch.move_section_from = from, batch.move_section_to = to, batch.move_section_count = 1;
        CHECK_EQ_INT(dfc_batch_steps(ctx, &batch, counts, 3, counts, 3, &steps), DFC_OK);
        CHECK_EQ_INT(steps.count, 1);
        CHECK(step_is(&steps.steps[0], DFC_STEP_MOVE_SECTION, 0, 0, 2, 0));
    }
    /* Every phase once, in order: old [[a b c] [d]] [X] -> [[Y] [d] [c e b]]:
     * section X (old 1... here old sections S0=[a b c], S1=[d], S2=[x]); new: Y inserted at 0,
     * S1 at 1, S0 at 2 with c, e, b (a deleted, e inserted, c moved before b); S2 deleted. */
    {
        const uint32_t old_counts[] = {3, 1, 1}, new_counts[] = {1, 1, 3};
        const uint32_t delete_sections[] = {2}, insert_sections[] = {0}, msf[] = {0}, mst[] = {2};
        const dfc_index_path deletes[] = {{0, 0}}, inserts[] = {{2, 1}}, mif[] = {{0, 2}}, mit[] = {{2, 0}};
        const dfc_index_path reconfigures[] = {{1, 0}};
        dfc_batch batch = {0};
        batch.delete_sections = delete_sections, batch.delete_section_count = 1;
        batch.insert_sections = insert_sections, batch.insert_section_count = 1;
        batch.move_section_from = msf, batch.move_section_to = mst, batch.move_section_count = 1;
        batch.delete_items = deletes, batch.delete_item_count = 1;
        batch.insert_items = inserts, batch.insert_item_count = 1;
        batch.move_item_from = mif, batch.move_item_to = mit, batch.move_item_count = 1;
        batch.reconfigure_items = reconfigures, batch.reconfigure_item_count = 1;
        /* A moved section touched by items is not what a diff emits (it would be delete +
         * insert), but UIKit accepts it and so do steps. */
        CHECK_EQ_INT(dfc_batch_steps(ctx, &batch, old_counts, 3, new_counts, 3, &steps), DFC_OK);
        CHECK_EQ_INT(steps.count, 7);
        if (steps.count == 7) {
            CHECK(step_is(&steps.steps[0], DFC_STEP_DELETE_ITEM, 0, 0, 0, 0));       /* a */
            CHECK(step_is(&steps.steps[1], DFC_STEP_DELETE_SECTION, 2, 0, 2, 0));    /* x */
            CHECK(step_is(&steps.steps[2], DFC_STEP_MOVE_SECTION, 0, 0, 1, 0));      /* S0 after S1 */
            CHECK(step_is(&steps.steps[3], DFC_STEP_INSERT_SECTION, 0, 0, 0, 0));    /* Y */
            CHECK(step_is(&steps.steps[4], DFC_STEP_MOVE_ITEM, 2, 1, 2, 0));         /* c to the front of S0 */
            CHECK(step_is(&steps.steps[5], DFC_STEP_INSERT_ITEM, 2, 1, 2, 1));       /* e */
            CHECK(step_is(&steps.steps[6], DFC_STEP_RECONFIGURE_ITEM, 1, 0, 1, 0)); /* d, at its final path */
        }
    }
    /* Flat: 1 2 3 4 5 -> 5 1 2 4 6: delete 3 (index 2), move 5 (4 -> 0), insert 6 at 4. */
    {
        const uint64_t old_keys[] = {1, 2, 3, 4, 5}, new_keys[] = {5, 1, 2, 4, 6};
        dfc_flat_result r;
        CHECK_EQ_INT(diff_keys(ctx, old_keys, 5, new_keys, 5, 0, &r), DFC_OK);
        CHECK_EQ_INT(dfc_flat_steps(ctx, &r, &steps), DFC_OK);
        CHECK_EQ_INT(steps.count, 3);
        if (steps.count == 3) {
            CHECK(step_is(&steps.steps[0], DFC_STEP_DELETE_ITEM, 0, 2, 0, 2));
            CHECK(step_is(&steps.steps[1], DFC_STEP_MOVE_ITEM, 0, 3, 0, 0));
            CHECK(step_is(&steps.steps[2], DFC_STEP_INSERT_ITEM, 0, 4, 0, 4));
        }
    }
    /* Moved elements are placed in target order, each after its target predecessor:
     * a b c d -> d c b a keeps one element (a, the LIS tie-break's pick) and moves three. */
    {
        const uint64_t old_keys[] = {1, 2, 3, 4}, new_keys[] = {4, 3, 2, 1};
        dfc_flat_result r;
        CHECK_EQ_INT(diff_keys(ctx, old_keys, 4, new_keys, 4, 0, &r), DFC_OK);
        CHECK_EQ_INT(dfc_flat_steps(ctx, &r, &steps), DFC_OK);
        CHECK_EQ_INT(steps.count, 3);
        if (steps.count == 3) {
            CHECK(step_is(&steps.steps[0], DFC_STEP_MOVE_ITEM, 0, 3, 0, 0)); /* 4 to the front: 4 1 2 3 */
            CHECK(step_is(&steps.steps[1], DFC_STEP_MOVE_ITEM, 0, 3, 0, 1)); /* 3 after 4: 4 3 1 2 */
            CHECK(step_is(&steps.steps[2], DFC_STEP_MOVE_ITEM, 0, 3, 0, 2)); /* 2 after 3: 4 3 2 1 */
        }
    }
    /* A refresh batch: its requests sorted, each once. */
    {
        const uint32_t counts[] = {2, 2}, sections[] = {1, 1};
        const dfc_index_path reloads[] = {{1, 1}, {0, 1}, {1, 1}}, reconfigures[] = {{0, 0}};
        dfc_batch batch = {0};
        batch.reload_sections = sections, batch.reload_section_count = 2;
        batch.reload_items = reloads, batch.reload_item_count = 3;
        batch.reconfigure_items = reconfigures, batch.reconfigure_item_count = 1;
        CHECK_EQ_INT(dfc_batch_steps(ctx, &batch, counts, 2, counts, 2, &steps), DFC_OK);
        CHECK_EQ_INT(steps.count, 4);
        if (steps.count == 4) {
            CHECK(step_is(&steps.steps[0], DFC_STEP_RELOAD_SECTION, 1, 0, 1, 0));
            CHECK(step_is(&steps.steps[1], DFC_STEP_RELOAD_ITEM, 0, 1, 0, 1));
            CHECK(step_is(&steps.steps[2], DFC_STEP_RELOAD_ITEM, 1, 1, 1, 1));
            CHECK(step_is(&steps.steps[3], DFC_STEP_RECONFIGURE_ITEM, 0, 0, 0, 0));
        }
    }
    dfc_context_free(ctx);
}

/* Random batches over small counts, most of them inconsistent: each call returns
 * DFC_ERR_INCONSISTENT or DFC_ERR_INVALID_ARGUMENT, or DFC_OK with steps whose indices stay
 * within the counts as they change; `result` is untouched on error. */
void test_steps_hostile_batches(void) {
    dfc_context *ctx = dfc_context_create(NULL);
    rng_state = 4242;
    size_t accepted = 0, refused = 0;
    for (int round = 0; round < 20000; round++) {
        uint32_t old_counts[4], new_counts[4], ds[3], is[3], msf[3], mst[3], rs[2];
        dfc_index_path di[4], ii[4], mif[4], mit[4], ri[2], ci[2];
        /* Lists are often empty and the shapes often equal, so that some batches are consistent. */
        const size_t so = rng_below(4), sn = rng_below(2) ? so : rng_below(4);
        for (size_t s = 0; s < so; s++) old_counts[s] = (uint32_t)rng_below(4);
        for (size_t s = 0; s < sn; s++) new_counts[s] = (uint32_t)rng_below(4);
        dfc_batch b = {0};
        b.delete_sections = ds, b.delete_section_count = rng_below(2) ? 0 : rng_below(3);
        b.insert_sections = is, b.insert_section_count = rng_below(2) ? 0 : rng_below(3);
        b.move_section_from = msf, b.move_section_to = mst, b.move_section_count = rng_below(2) ? 0 : rng_below(3);
        b.delete_items = di, b.delete_item_count = rng_below(2) ? 0 : rng_below(4);
        b.insert_items = ii, b.insert_item_count = rng_below(2) ? 0 : rng_below(4);
        b.move_item_from = mif, b.move_item_to = mit, b.move_item_count = rng_below(2) ? 0 : rng_below(4);
        b.reload_sections = rs, b.reload_section_count = rng_below(8) == 0 ? rng_below(2) : 0;
        b.reload_items = ri, b.reload_item_count = rng_below(8) == 0 ? rng_below(2) : 0;
        b.reconfigure_items = ci, b.reconfigure_item_count = rng_below(2);
        /* indices mostly in range, sometimes one past, sometimes huge */
#define PICK(bound) ((uint32_t)(rng_below(16) == 0 ? UINT32_MAX - rng_below(2) : rng_below((bound) + 1)))
        for (size_t k = 0; k < 3; k++) ds[k] = PICK(so), is[k] = PICK(sn), msf[k] = PICK(so), mst[k] = PICK(sn);
        for (size_t k = 0; k < 2; k++) rs[k] = PICK(sn);
        for (size_t k = 0; k < 4; k++) {
            di[k].section = PICK(so), di[k].item = PICK(3);
            ii[k].section = PICK(sn), ii[k].item = PICK(3);
            mif[k].section = PICK(so), mif[k].item = PICK(3);
            mit[k].section = PICK(sn), mit[k].item = PICK(3);
        }
        for (size_t k = 0; k < 2; k++) ri[k].section = PICK(sn), ri[k].item = PICK(3), ci[k] = ri[k];
#undef PICK
        dfc_steps steps = {(const dfc_step *)&steps, 12345};
        int status = dfc_batch_steps(ctx, &b, old_counts, so, new_counts, sn, &steps);
        if (status != DFC_OK) {
            CHECK(status == DFC_ERR_INCONSISTENT || status == DFC_ERR_INVALID_ARGUMENT);
            CHECK(steps.count == 12345 && steps.steps == (const dfc_step *)&steps);
            refused++;
            continue;
        }
        accepted++;
        /* Replay on counts alone: sections as counts, every index checked when it is used. A
         * refresh batch's positions are in the new state. */
        /* From the old counts, whatever the batch: a refresh batch is accepted only when they
         * equal the new ones (its positions are then in both). */
        uint32_t counts[8];
        size_t sections = so;
        memcpy(counts, old_counts, sections * sizeof(uint32_t));
        for (size_t k = 0; k < steps.count; k++) {
            const dfc_step st = steps.steps[k];
            switch (st.kind) {
            case DFC_STEP_DELETE_ITEM:
                CHECK(st.at.section < sections && st.at.item < counts[st.at.section]);
                if (st.at.section < sections) counts[st.at.section]--;
                break;
            case DFC_STEP_DELETE_SECTION:
                CHECK(st.at.section < sections);
                if (st.at.section < sections) memmove(&counts[st.at.section], &counts[st.at.section + 1],
                                                      (sections - st.at.section - 1) * sizeof(uint32_t)), sections--;
                break;
            case DFC_STEP_MOVE_SECTION: {
                CHECK(st.at.section < sections && st.to.section < sections);
                if (st.at.section >= sections || st.to.section >= sections) break;
                uint32_t c = counts[st.at.section];
                memmove(&counts[st.at.section], &counts[st.at.section + 1], (sections - st.at.section - 1) * sizeof(uint32_t));
                memmove(&counts[st.to.section + 1], &counts[st.to.section], (sections - 1 - st.to.section) * sizeof(uint32_t));
                counts[st.to.section] = c;
                break;
            }
            case DFC_STEP_INSERT_SECTION:
                CHECK(st.at.section <= sections && st.at.section < sn);
                if (st.at.section > sections || st.at.section >= sn) break;
                memmove(&counts[st.at.section + 1], &counts[st.at.section], (sections - st.at.section) * sizeof(uint32_t));
                counts[st.at.section] = new_counts[st.at.section], sections++;
                break;
            case DFC_STEP_MOVE_ITEM:
                CHECK(st.at.section < sections && st.at.item < counts[st.at.section]);
                if (st.at.section < sections) counts[st.at.section]--;
                CHECK(st.to.section < sections && st.to.item <= counts[st.to.section]);
                if (st.to.section < sections) counts[st.to.section]++;
                break;
            case DFC_STEP_INSERT_ITEM:
                CHECK(st.at.section < sections && st.at.item <= counts[st.at.section]);
                if (st.at.section < sections) counts[st.at.section]++;
                break;
            default:
                CHECK(st.at.section < sections);
                break;
            }
        }
        CHECK_EQ_INT(sections, sn);
        for (size_t t = 0; t < sn && t < sections; t++) CHECK_EQ_INT(counts[t], new_counts[t]);
    }
    /* Counts that change under a batch with no structural operation do not add up: refused,
     * flat or sectioned, empty or refreshing. */
    uint32_t three = 3, five = 5, two_sections[] = {1, 1}, four_sections[] = {1, 1, 1, 1};
    dfc_batch empty = {0}, refresh = {0};
    dfc_index_path last = {0, 2};
    refresh.reconfigure_items = &last, refresh.reconfigure_item_count = 1;
    dfc_steps steps;
    CHECK_EQ_INT(dfc_batch_steps(ctx, &empty, &three, 1, &five, 1, &steps), DFC_ERR_INCONSISTENT);
    CHECK_EQ_INT(dfc_batch_steps(ctx, &refresh, &three, 1, &five, 1, &steps), DFC_ERR_INCONSISTENT);
    CHECK_EQ_INT(dfc_batch_steps(ctx, &empty, two_sections, 2, four_sections, 4, &steps), DFC_ERR_INCONSISTENT);
    CHECK_EQ_INT(dfc_batch_steps(ctx, &refresh, &three, 1, &three, 1, &steps), DFC_OK);
    CHECK(steps.count == 1 && steps.steps[0].kind == DFC_STEP_RECONFIGURE_ITEM);
    dfc_flat_result grown = {0};
    grown.old_count = 3, grown.new_count = 5;
    CHECK_EQ_INT(dfc_flat_steps(ctx, &grown, &steps), DFC_ERR_INCONSISTENT);
    grown.new_count = 3;
    CHECK_EQ_INT(dfc_flat_steps(ctx, &grown, &steps), DFC_OK);
    CHECK(steps.count == 0);
    printf("     hostile steps: %zu batches accepted and replayed in range, %zu refused\n", accepted, refused);
    CHECK(accepted > 100 && refused > 1000);
    dfc_context_free(ctx);
}
