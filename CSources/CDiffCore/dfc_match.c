/* Identity plumbing shared by the diffs: argument checks and the scratch
 * identifier table that maps one list's keys to its indices. */
#include "dfc_internal.h"

int dfc__check_match(const dfc_match *match) {
    if (match == NULL) return DFC_ERR_NULL_ARGUMENT;
    if (match->kind < DFC_MATCH_INJECTIVE || match->kind > DFC_MATCH_CALLBACK)
        return DFC_ERR_INVALID_ARGUMENT;
    if (match->kind == DFC_MATCH_CALLBACK && match->equal == NULL) return DFC_ERR_INVALID_ARGUMENT;
    return DFC_OK;
}

int dfc__check_list(const dfc_list *list, const dfc_match *match) {
    if (list == NULL) return DFC_ERR_NULL_ARGUMENT;
    if (list->count > DFC_MAX_COUNT) return DFC_ERR_TOO_LARGE;
    if (list->count == 0) return DFC_OK;
    if (list->keys == NULL) return DFC_ERR_NULL_ARGUMENT;
    if (match->kind == DFC_MATCH_BYTES) {
        if (list->offsets == NULL) return DFC_ERR_INVALID_ARGUMENT;
        for (size_t i = 0; i < list->count; i++)
            if (list->offsets[i + 1] < list->offsets[i]) return DFC_ERR_INCONSISTENT;
        if (list->bytes == NULL && list->offsets[list->count] > list->offsets[0])
            return DFC_ERR_INVALID_ARGUMENT;
    }
    return DFC_OK;
}

enum { DFC_PREFETCH_DISTANCE = 16 };

int dfc__scratch_table_init(dfc_context *context, int which, size_t count, int side,
                            dfc_scratch_table *table) {
    int status = DFC_OK;
    size_t capacity;
    unsigned shift;
    if (!dfc__slot_capacity_for(count, &capacity, &shift)) return DFC_ERR_TOO_LARGE;
    dfc_slot *slots = dfc__context_scratch(context, which, capacity, sizeof(dfc_slot), &status);
    if (slots == NULL) return status;
    memset(slots, 0, capacity * sizeof(dfc_slot));
    table->slots = slots;
    table->mask = capacity - 1;
    table->shift = shift;
    table->side = side;
    return DFC_OK;
}

void dfc__scratch_table_insert(dfc_scratch_table *table, uint64_t key, uint32_t index) {
    size_t position = dfc__slot_home(key, table->shift);
    while (table->slots[position].value_plus_one != 0) position = (position + 1) & table->mask;
    table->slots[position].key = key;
    table->slots[position].value_plus_one = index + 1;
}

int dfc__scratch_table_build(dfc_context *context, int which, const dfc_identity *identity,
                             int side, size_t begin, size_t end, bool report_duplicates,
                             dfc_scratch_table *table) {
    int status = dfc__scratch_table_init(context, which, end - begin, side, table);
    if (status != DFC_OK) return status;
    dfc_slot *slots = table->slots;
    const size_t mask = table->mask;
    const unsigned shift = table->shift;
    const uint64_t *keys = identity->lists[side]->keys;
    for (size_t i = begin; i < end; i++) {
        if (i + DFC_PREFETCH_DISTANCE < end)
            DFC_PREFETCH(&slots[dfc__slot_home(keys[i + DFC_PREFETCH_DISTANCE], shift)]);
        uint64_t key = keys[i];
        size_t position = dfc__slot_home(key, shift);
        bool duplicate = false;
        while (slots[position].value_plus_one != 0) {
            if (slots[position].key == key &&
                dfc__confirm(identity, side, slots[position].value_plus_one - 1, side, (uint32_t)i)) {
                duplicate = true;
                break;
            }
            position = (position + 1) & mask;
        }
        if (duplicate) {
            if (!report_duplicates) continue;
            status = dfc__context_add_duplicate(context, side, table->is_section,
                                                slots[position].value_plus_one - 1, (uint32_t)i);
            if (status != DFC_OK) return status;
            continue;
        }
        slots[position].key = key;
        slots[position].value_plus_one = (uint32_t)i + 1;
    }
    return DFC_OK;
}

int64_t dfc__scratch_table_find(const dfc_scratch_table *table, const dfc_identity *identity,
                                int query_side, uint32_t query) {
    uint64_t key = identity->lists[query_side]->keys[query];
    size_t position = dfc__slot_home(key, table->shift);
    while (table->slots[position].value_plus_one != 0) {
        const dfc_slot *slot = &table->slots[position];
        if (slot->key == key &&
            dfc__confirm(identity, table->side, slot->value_plus_one - 1, query_side, query))
            return (int64_t)slot->value_plus_one - 1;
        position = (position + 1) & table->mask;
    }
    return DFC_NOT_FOUND;
}

void dfc__scratch_table_prefetch(const dfc_scratch_table *table, uint64_t key) {
    DFC_PREFETCH(&table->slots[dfc__slot_home(key, table->shift)]);
}
