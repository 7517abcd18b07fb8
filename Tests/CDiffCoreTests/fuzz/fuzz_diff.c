/* libFuzzer target over both diffs, with oracles (docs/RELIABILITY.md, G5).
 *
 * Input bytes become two snapshots of small integer identifiers (duplicates and
 * empty sections included) plus refresh requests; the flat diff of the item lists
 * must replay exactly with minimal moves, or report duplicates that really exist;
 * the sectioned diff must succeed or fail with the same verdict, keep every index
 * in range, and be deterministic. Built by `make fuzz` with the toolchain's clang;
 * `make fuzz-replay` runs the corpus through a plain main (fuzz_main.c). */
#include "dfc.h"

#include <stdbool.h>
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

static size_t lis_length(const uint32_t *values, size_t count) {
    size_t best[MAX_ITEMS], longest = 0;
    for (size_t j = 0; j < count; j++) {
        best[j] = 1;
        for (size_t i = 0; i < j; i++)
            if (values[i] < values[j] && best[i] + 1 > best[j]) best[j] = best[i] + 1;
        if (best[j] > longest) longest = best[j];
    }
    return longest;
}

static void check_flat(dfc_context *ctx, const side *a, const side *b) {
    dfc_list old_list = {a->items, a->item_count, NULL, NULL}, new_list = {b->items, b->item_count, NULL, NULL};
    dfc_match match = {DFC_MATCH_INJECTIVE, NULL, NULL};
    dfc_flat_result r;
    int status = dfc_diff_flat(ctx, &old_list, &new_list, &match, 0, &r);
    bool duplicates = has_duplicates(a->items, a->item_count) || has_duplicates(b->items, b->item_count);
    if (duplicates != (status == DFC_ERR_DUPLICATE)) abort();
    if (status != DFC_OK) return;
    /* replay */
    uint64_t out[MAX_ITEMS];
    bool filled[MAX_ITEMS] = {false}, leaves[MAX_ITEMS] = {false};
    for (size_t k = 0; k < r.delete_count; k++) leaves[r.deletes[k]] = true;
    for (size_t k = 0; k < r.insert_count; k++) { out[r.inserts[k]] = b->items[r.inserts[k]]; filled[r.inserts[k]] = true; }
    for (size_t k = 0; k < r.move_count; k++) {
        if (filled[r.move_to[k]]) abort();
        leaves[r.move_from[k]] = true;
        out[r.move_to[k]] = a->items[r.move_from[k]];
        filled[r.move_to[k]] = true;
    }
    size_t slot = 0;
    for (size_t i = 0; i < a->item_count; i++) {
        if (leaves[i]) continue;
        while (slot < b->item_count && filled[slot]) slot++;
        if (slot >= b->item_count) abort();
        out[slot] = a->items[i];
        filled[slot++] = true;
    }
    for (size_t j = 0; j < b->item_count; j++)
        if (!filled[j] || out[j] != b->items[j]) abort();
    uint32_t sequence[MAX_ITEMS];
    size_t matched = 0;
    for (size_t j = 0; j < b->item_count; j++)
        if (r.new_to_old[j] >= 0) sequence[matched++] = (uint32_t)r.new_to_old[j];
    if (r.move_count != matched - lis_length(sequence, matched)) abort();
}

static void check_paths(const dfc_index_path *paths, size_t count, const side *s) {
    for (size_t k = 0; k < count; k++)
        if (paths[k].section >= s->section_count ||
            paths[k].item >= s->starts[paths[k].section + 1] - s->starts[paths[k].section]) abort();
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
    if (duplicates != (status == DFC_ERR_DUPLICATE)) abort();
    if (status != DFC_OK) return;
    const dfc_batch *s = &r.structural;
    for (size_t k = 0; k < s->delete_section_count; k++) if (s->delete_sections[k] >= a->section_count) abort();
    for (size_t k = 0; k < s->insert_section_count; k++) if (s->insert_sections[k] >= b->section_count) abort();
    check_paths(s->delete_items, s->delete_item_count, a);
    check_paths(s->insert_items, s->insert_item_count, b);
    check_paths(s->move_item_from, s->move_item_count, a);
    check_paths(s->move_item_to, s->move_item_count, b);
    check_paths(r.refresh.reload_items, r.refresh.reload_item_count, b);
    /* the section count balances and the result is deterministic */
    if (b->section_count != a->section_count - s->delete_section_count + s->insert_section_count) abort();
    size_t first_total = s->delete_item_count + s->insert_item_count + s->move_item_count;
    dfc_sections_result again;
    if (dfc_diff_sections(ctx, &old_s, &new_s, &refresh, &match, &match, DFC_DIFF_ASSUME_UNIQUE, &again) != DFC_OK) abort();
    if (again.structural.delete_item_count + again.structural.insert_item_count + again.structural.move_item_count != first_total)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
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
