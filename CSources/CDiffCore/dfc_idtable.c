/* Open-addressing identifier table: 64-bit keys to 32-bit values, linear probing. */
#include "dfc_internal.h"

/* One slot: value_plus_one == 0 marks an empty slot. */
typedef struct dfc_slot {
    uint64_t key;
    uint32_t value_plus_one;
    uint32_t reserved;
} dfc_slot;

struct dfc_idtable {
    dfc_heap heap;
    dfc_slot *slots;
    size_t capacity; /* power of two, or 0 before the first insert */
    unsigned shift;  /* 64 - log2(capacity) */
    size_t count;
};

dfc_idtable *dfc_idtable_create(const dfc_allocator *allocator) {
    dfc_heap heap;
    dfc__heap_init(&heap, allocator);
    dfc_idtable *table = dfc__heap_allocate(&heap, sizeof(dfc_idtable));
    if (table == NULL) return NULL;
    memset(table, 0, sizeof(*table));
    table->heap = heap;
    return table;
}

dfc_idtable *dfc_idtable_copy(const dfc_idtable *table, const dfc_allocator *allocator) {
    if (table == NULL) return NULL;
    dfc_idtable *copy = dfc_idtable_create(allocator);
    if (copy == NULL || table->capacity == 0) return copy;
    size_t bytes = table->capacity * sizeof(dfc_slot);
    copy->slots = dfc__heap_allocate(&copy->heap, bytes);
    if (copy->slots == NULL) {
        dfc_idtable_free(copy);
        return NULL;
    }
    memcpy(copy->slots, table->slots, bytes);
    copy->capacity = table->capacity;
    copy->shift = table->shift;
    copy->count = table->count;
    return copy;
}

void dfc_idtable_free(dfc_idtable *table) {
    if (table == NULL) return;
    dfc_heap heap = table->heap;
    dfc__heap_release(&heap, table->slots);
    dfc__heap_release(&heap, table);
}

void dfc_idtable_clear(dfc_idtable *table) {
    if (table == NULL) return;
    if (table->slots != NULL) memset(table->slots, 0, table->capacity * sizeof(dfc_slot));
    table->count = 0;
}

static void dfc__idtable_place(dfc_slot *slots, size_t mask, unsigned shift, uint64_t key,
                               uint32_t value_plus_one) {
    size_t position = dfc__slot_home(key, shift);
    while (slots[position].value_plus_one != 0) position = (position + 1) & mask;
    slots[position].key = key;
    slots[position].value_plus_one = value_plus_one;
}

int dfc_idtable_reserve(dfc_idtable *table, size_t count) {
    if (table == NULL) return DFC_ERR_NULL_ARGUMENT;
    if (count > DFC_MAX_COUNT) return DFC_ERR_TOO_LARGE;
    if (count <= table->capacity / 2 && table->slots != NULL) return DFC_OK;
    size_t capacity, bytes;
    unsigned shift;
    if (!dfc__slot_capacity_for(count, &capacity, &shift) ||
        !dfc__mul_size(capacity, sizeof(dfc_slot), &bytes))
        return DFC_ERR_TOO_LARGE;
    dfc_slot *slots = dfc__heap_allocate_zeroed(&table->heap, bytes);
    if (slots == NULL) return DFC_ERR_OUT_OF_MEMORY;
    for (size_t i = 0; i < table->capacity; i++) {
        if (table->slots[i].value_plus_one != 0)
            dfc__idtable_place(slots, capacity - 1, shift, table->slots[i].key,
                               table->slots[i].value_plus_one);
    }
    dfc__heap_release(&table->heap, table->slots);
    table->slots = slots;
    table->capacity = capacity;
    table->shift = shift;
    return DFC_OK;
}

int dfc_idtable_insert(dfc_idtable *table, uint64_t key, uint32_t value) {
    if (table == NULL) return DFC_ERR_NULL_ARGUMENT;
    if (table->count >= DFC_MAX_COUNT || value >= UINT32_MAX) return DFC_ERR_TOO_LARGE;
    if (table->count + 1 > table->capacity / 2) {
        size_t target = table->count < 8 ? 8 : table->count * 2;
        if (target > DFC_MAX_COUNT) target = DFC_MAX_COUNT;
        int status = dfc_idtable_reserve(table, target);
        if (status != DFC_OK) return status;
    }
    dfc__idtable_place(table->slots, table->capacity - 1, table->shift, key, value + 1);
    table->count++;
    return DFC_OK;
}

int dfc_idtable_insert_batch(dfc_idtable *table, const uint64_t *keys, size_t count,
                             uint32_t first_value, uint8_t *conflicts, size_t *inserted) {
    if (table == NULL) return DFC_ERR_NULL_ARGUMENT;
    if (count == 0) {
        if (inserted != NULL) *inserted = 0;
        return DFC_OK;
    }
    if (keys == NULL || conflicts == NULL) return DFC_ERR_NULL_ARGUMENT;
    if (count > DFC_MAX_COUNT - table->count || (uint64_t)first_value + count > DFC_MAX_COUNT)
        return DFC_ERR_TOO_LARGE;
    int status = dfc_idtable_reserve(table, table->count + count);
    if (status != DFC_OK) return status;
    enum { PREFETCH = 16 };
    const size_t mask = table->capacity - 1;
    uint32_t next = first_value;
    for (size_t i = 0; i < count; i++) {
        if (i + PREFETCH < count) DFC_PREFETCH(&table->slots[dfc__slot_home(keys[i + PREFETCH], table->shift)]);
        size_t position = dfc__slot_home(keys[i], table->shift);
        bool taken = false;
        while (table->slots[position].value_plus_one != 0) {
            if (table->slots[position].key == keys[i]) {
                taken = true;
                break;
            }
            position = (position + 1) & mask;
        }
        conflicts[i] = taken ? 1 : 0;
        if (taken) continue;
        table->slots[position].key = keys[i];
        table->slots[position].value_plus_one = next + 1;
        next++;
        table->count++;
    }
    if (inserted != NULL) *inserted = next - first_value;
    return DFC_OK;
}

int64_t dfc_idtable_find(const dfc_idtable *table, uint64_t key, size_t *cursor) {
    if (table == NULL || cursor == NULL || table->count == 0) return DFC_NOT_FOUND;
    size_t mask = table->capacity - 1;
    size_t home = dfc__slot_home(key, table->shift);
    /* cursor counts the slots already probed from home, so a later call resumes there. */
    for (size_t step = *cursor; step < table->capacity; step++) {
        const dfc_slot *slot = &table->slots[(home + step) & mask];
        if (slot->value_plus_one == 0) {
            *cursor = table->capacity;
            return DFC_NOT_FOUND;
        }
        if (slot->key == key) {
            *cursor = step + 1;
            return (int64_t)slot->value_plus_one - 1;
        }
    }
    *cursor = table->capacity;
    return DFC_NOT_FOUND;
}

static dfc_slot *dfc__idtable_locate(const dfc_idtable *table, uint64_t key, uint32_t value) {
    if (table == NULL || table->count == 0) return NULL;
    size_t mask = table->capacity - 1;
    size_t position = dfc__slot_home(key, table->shift);
    while (table->slots[position].value_plus_one != 0) {
        dfc_slot *slot = &table->slots[position];
        if (slot->key == key && slot->value_plus_one == value + 1) return slot;
        position = (position + 1) & mask;
    }
    return NULL;
}

int dfc_idtable_remove(dfc_idtable *table, uint64_t key, uint32_t value) {
    dfc_slot *slot = dfc__idtable_locate(table, key, value);
    if (slot == NULL) return 0;
    /* Backward-shift deletion keeps every probe chain unbroken without tombstones. */
    size_t mask = table->capacity - 1;
    size_t hole = (size_t)(slot - table->slots);
    size_t position = hole;
    for (;;) {
        position = (position + 1) & mask;
        dfc_slot *next = &table->slots[position];
        if (next->value_plus_one == 0) break;
        size_t home = dfc__slot_home(next->key, table->shift);
        /* Move `next` into the hole unless its home lies cyclically in (hole, position]. */
        bool stays = hole <= position ? (home > hole && home <= position)
                                      : (home > hole || home <= position);
        if (!stays) {
            table->slots[hole] = *next;
            hole = position;
        }
    }
    table->slots[hole].value_plus_one = 0;
    table->slots[hole].key = 0;
    table->count--;
    return 1;
}

int dfc_idtable_update(dfc_idtable *table, uint64_t key, uint32_t old_value, uint32_t new_value) {
    if (new_value >= UINT32_MAX) return 0;
    dfc_slot *slot = dfc__idtable_locate(table, key, old_value);
    if (slot == NULL) return 0;
    slot->value_plus_one = new_value + 1;
    return 1;
}

size_t dfc_idtable_count(const dfc_idtable *table) { return table == NULL ? 0 : table->count; }

size_t dfc_idtable_sizeof(const dfc_idtable *table) {
    return table == NULL ? 0 : sizeof(*table) + table->capacity * sizeof(dfc_slot);
}
