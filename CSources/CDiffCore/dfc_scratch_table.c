/* The scratch identifier table a diff matches through: one list's indices in a
 * context buffer, 8-byte slots, duplicates found while it is built. */
#include "dfc_internal.h"

int dfc__scratch_table_init(dfc_context *context, int which, size_t count, int side,
                            dfc_scratch_table *table) {
    int status = DFC_OK;
    size_t capacity;
    unsigned shift;
    if (!dfc__slot_capacity_for(count, &capacity, &shift)) return DFC_ERR_TOO_LARGE;
    uint64_t *slots = dfc__context_scratch(context, which, capacity, sizeof(uint64_t), &status);
    if (slots == NULL) return status;
    memset(slots, 0, capacity * sizeof(uint64_t));
    table->slots = slots;
    table->mask = capacity - 1;
    table->shift = shift;
    table->side = side;
    return DFC_OK;
}

void dfc__scratch_table_insert(dfc_scratch_table *table, uint64_t key, uint32_t index) {
    size_t position = dfc__slot_home(key, table->shift);
    while (table->slots[position] != 0) position = (position + 1) & table->mask;
    table->slots[position] = dfc__pack_slot(key, index);
}

int dfc__scratch_table_build(dfc_context *context, int which, const dfc_identity *identity,
                             int side, size_t begin, size_t end, bool report_duplicates,
                             dfc_scratch_table *table) {
    int status = dfc__scratch_table_init(context, which, end - begin, side, table);
    if (status != DFC_OK) return status;
    uint64_t *slots = table->slots;
    const size_t mask = table->mask;
    const unsigned shift = table->shift;
    const uint64_t *keys = identity->lists[side]->keys;
    const size_t prefetch_end = begin + dfc__prefetch_end(end - begin, (mask + 1) * sizeof(uint64_t));
    for (size_t i = begin; i < end; i++) {
        if (i < prefetch_end) DFC_PREFETCH(&slots[dfc__slot_home(keys[i + DFC_TABLE_PREFETCH], shift)]);
        const uint64_t key = keys[i], fingerprint = key << 32;
        size_t position = dfc__slot_home(key, shift);
        uint64_t slot;
        int64_t earlier = DFC_NOT_FOUND;
        while ((slot = slots[position]) != 0) {
            if ((slot & UINT64_C(0xFFFFFFFF00000000)) == fingerprint) {
                uint32_t index = (uint32_t)(slot & 0xFFFFFFFFu) - 1;
                if (keys[index] == key && dfc__confirm(identity, side, index, side, (uint32_t)i)) {
                    earlier = index;
                    break;
                }
            }
            position = (position + 1) & mask;
        }
        if (earlier != DFC_NOT_FOUND) {
            if (!report_duplicates) continue;
            status = dfc__context_add_duplicate(context, side, table->is_section, (uint32_t)earlier,
                                                (uint32_t)i);
            if (status != DFC_OK) return status;
            continue;
        }
        slots[position] = dfc__pack_slot(key, (uint32_t)i);
    }
    return DFC_OK;
}
