/* Open-addressing identifier table: 64-bit keys to 32-bit values, linear probing over
 * 8-byte slots that hold a fingerprint of the key, not the key. */
#include "dfc_internal.h"

/* One 8-byte slot: the key's 32-bit fingerprint in the high half, value + 1 in the low half
 * (0: empty). The full key stays with the caller (a snapshot keeps every key in an array
 * indexed by value), so storing it again here would double the table for nothing: callers
 * confirm each candidate, as they already must for identifiers whose keys collide. */
typedef uint64_t dfc_slot;

struct dfc_idtable {
    dfc_heap heap;
    dfc_slot *slots;
    size_t capacity;      /* power of two, or 0 before the first insert */
    unsigned home_shift;  /* 32 - log2(capacity): a fingerprint's top bits pick its home slot */
    size_t count;
};

/* The high half of the key's spread: its top log2(capacity) bits are the home slot, so a
 * slot alone says where it belongs when the table grows or backward-shift deletion moves it;
 * the lower bits tell keys apart. */
static inline uint32_t dfc__fingerprint(uint64_t key) { return (uint32_t)(dfc__spread(key) >> 32); }

static inline size_t dfc__fingerprint_home(uint32_t fingerprint, unsigned home_shift) {
    return (size_t)(fingerprint >> home_shift);
}

static inline dfc_slot dfc__idtable_slot(uint32_t fingerprint, uint32_t value) {
    return ((uint64_t)fingerprint << 32) | ((uint64_t)value + 1);
}

static inline uint32_t dfc__slot_fingerprint(dfc_slot slot) { return (uint32_t)(slot >> 32); }

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
    copy->home_shift = table->home_shift;
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

/* The first empty slot of `slot`'s probe sequence. */
static void dfc__idtable_place(dfc_slot *slots, size_t mask, unsigned home_shift, dfc_slot slot) {
    size_t position = dfc__fingerprint_home(dfc__slot_fingerprint(slot), home_shift);
    while (slots[position] != 0) position = (position + 1) & mask;
    slots[position] = slot;
}

int dfc_idtable_reserve(dfc_idtable *table, size_t count) {
    if (table == NULL) return DFC_ERR_NULL_ARGUMENT;
    if (count > DFC_MAX_COUNT) return DFC_ERR_TOO_LARGE;
    if (table->slots != NULL && count <= table->capacity / 4 * 3) return DFC_OK;
    size_t capacity, bytes;
    unsigned home_shift;
    if (!dfc__fingerprint_slot_capacity_for(count, &capacity, &home_shift) ||
        !dfc__mul_size(capacity, sizeof(dfc_slot), &bytes))
        return DFC_ERR_TOO_LARGE;
    dfc_slot *slots = dfc__heap_allocate_zeroed(&table->heap, bytes);
    if (slots == NULL) return DFC_ERR_OUT_OF_MEMORY;
    for (size_t i = 0; i < table->capacity; i++) {
        if (table->slots[i] != 0) dfc__idtable_place(slots, capacity - 1, home_shift, table->slots[i]);
    }
    dfc__heap_release(&table->heap, table->slots);
    table->slots = slots;
    table->capacity = capacity;
    table->home_shift = home_shift;
    return DFC_OK;
}

int dfc_idtable_insert(dfc_idtable *table, uint64_t key, uint32_t value) {
    if (table == NULL) return DFC_ERR_NULL_ARGUMENT;
    if (table->count >= DFC_MAX_COUNT || value >= UINT32_MAX) return DFC_ERR_TOO_LARGE;
    if (table->slots == NULL || table->count + 1 > table->capacity / 4 * 3) {
        size_t target = table->count < 8 ? 8 : table->count * 2;
        if (target > DFC_MAX_COUNT) target = DFC_MAX_COUNT;
        int status = dfc_idtable_reserve(table, target);
        if (status != DFC_OK) return status;
    }
    dfc__idtable_place(table->slots, table->capacity - 1, table->home_shift,
                       dfc__idtable_slot(dfc__fingerprint(key), value));
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
    const unsigned home_shift = table->home_shift;
    dfc_slot *slots = table->slots;
    uint32_t next = first_value;
    for (size_t i = 0; i < count; i++) {
        if (i + PREFETCH < count)
            DFC_PREFETCH(&slots[dfc__fingerprint_home(dfc__fingerprint(keys[i + PREFETCH]), home_shift)]);
        uint32_t fingerprint = dfc__fingerprint(keys[i]);
        size_t position = dfc__fingerprint_home(fingerprint, home_shift);
        bool taken = false;
        while (slots[position] != 0) {
            if (dfc__slot_fingerprint(slots[position]) == fingerprint) {
                taken = true;
                break;
            }
            position = (position + 1) & mask;
        }
        conflicts[i] = taken ? 1 : 0;
        if (taken) continue;
        slots[position] = dfc__idtable_slot(fingerprint, next);
        next++;
    }
    table->count += next - first_value;
    if (inserted != NULL) *inserted = next - first_value;
    return DFC_OK;
}

int64_t dfc_idtable_find(const dfc_idtable *table, uint64_t key, size_t *cursor) {
    if (table == NULL || cursor == NULL || table->count == 0) return DFC_NOT_FOUND;
    const size_t mask = table->capacity - 1;
    const uint32_t fingerprint = dfc__fingerprint(key);
    const size_t home = dfc__fingerprint_home(fingerprint, table->home_shift);
    /* cursor counts the slots already probed from home, so a later call resumes there. */
    for (size_t step = *cursor; step < table->capacity; step++) {
        dfc_slot slot = table->slots[(home + step) & mask];
        if (slot == 0) break;
        if (dfc__slot_fingerprint(slot) == fingerprint) {
            *cursor = step + 1;
            return (int64_t)(uint32_t)slot - 1;
        }
    }
    *cursor = table->capacity;
    return DFC_NOT_FOUND;
}

void dfc_idtable_prefetch(const dfc_idtable *table, uint64_t key) {
    if (table == NULL || table->count == 0) return;
    DFC_PREFETCH(&table->slots[dfc__fingerprint_home(dfc__fingerprint(key), table->home_shift)]);
}

/* The position of the entry (key -> value): fingerprint and value together name one entry. */
static bool dfc__idtable_locate(const dfc_idtable *table, uint64_t key, uint32_t value, size_t *found) {
    if (table == NULL || table->count == 0 || value >= UINT32_MAX) return false;
    const size_t mask = table->capacity - 1;
    const uint32_t fingerprint = dfc__fingerprint(key);
    const dfc_slot wanted = dfc__idtable_slot(fingerprint, value);
    for (size_t position = dfc__fingerprint_home(fingerprint, table->home_shift); table->slots[position] != 0;
         position = (position + 1) & mask) {
        if (table->slots[position] == wanted) {
            *found = position;
            return true;
        }
    }
    return false;
}

int dfc_idtable_remove(dfc_idtable *table, uint64_t key, uint32_t value) {
    size_t hole;
    if (!dfc__idtable_locate(table, key, value, &hole)) return 0;
    /* Backward-shift deletion keeps every probe chain unbroken without tombstones. */
    const size_t mask = table->capacity - 1;
    size_t position = hole;
    for (;;) {
        position = (position + 1) & mask;
        dfc_slot next = table->slots[position];
        if (next == 0) break;
        size_t home = dfc__fingerprint_home(dfc__slot_fingerprint(next), table->home_shift);
        /* Move `next` into the hole unless its home lies cyclically in (hole, position]. */
        bool stays = hole <= position ? (home > hole && home <= position)
                                      : (home > hole || home <= position);
        if (!stays) {
            table->slots[hole] = next;
            hole = position;
        }
    }
    table->slots[hole] = 0;
    table->count--;
    return 1;
}

int dfc_idtable_update(dfc_idtable *table, uint64_t key, uint32_t old_value, uint32_t new_value) {
    size_t position;
    if (new_value >= UINT32_MAX || !dfc__idtable_locate(table, key, old_value, &position)) return 0;
    table->slots[position] = dfc__idtable_slot(dfc__fingerprint(key), new_value);
    return 1;
}

size_t dfc_idtable_count(const dfc_idtable *table) { return table == NULL ? 0 : table->count; }

size_t dfc_idtable_sizeof(const dfc_idtable *table) {
    return table == NULL ? 0 : sizeof(*table) + table->capacity * sizeof(dfc_slot);
}
