/* Open-addressing identifier table: 64-bit keys to 32-bit values, linear probing over
 * 4-byte slots that hold a value and a few bits of the key's hash, not the key. */
#include "dfc_internal.h"

#if defined(__GNUC__) || defined(__clang__)
#define DFC__OUT_OF_LINE __attribute__((noinline))
#define DFC__ALWAYS_INLINE __attribute__((always_inline))
#else
#define DFC__OUT_OF_LINE
#define DFC__ALWAYS_INLINE
#endif

/* One 4-byte slot, for a table of 2^bits slots: value + 1 in the low `bits` bits, and in the
 * 32 - bits bits above them a fingerprint: the hash bits just below those that pick the home
 * slot. 0 is an empty slot; a value field of all ones a removed one, which keeps
 * the probe runs through it unbroken. The full key stays with the caller (a snapshot keeps
 * every key in an array indexed by value), so the table rehashes from the caller's keys when
 * it grows: storing keys, or enough hash bits to find a slot's home again, would double it. */
typedef uint32_t dfc_slot;

struct dfc_idtable {
    dfc_heap heap;
    dfc_slot *slots;
    size_t capacity;    /* 2^bits, or 0 before the first reserve */
    unsigned bits;      /* log2(capacity): the hash's top `bits` bits pick a key's home slot */
    size_t count;       /* entries */
    size_t removed;     /* slots marked removed; count + removed stays <= 3/4 of capacity */
    size_t value_bound; /* above every entry's value (exact after a rebuild, raised by inserts
                           and updates, never lowered by removals) */
    bool probe_grouped; /* the next batch tests runs 4 slots at once (dfc__idtable_insert_unmarked):
                           the last one's keys passed over one occupied slot in 4 keys */
};

static inline uint32_t dfc__value_mask(unsigned bits) { return (uint32_t)((UINT64_C(1) << bits) - 1); }

static inline size_t dfc__idtable_home(uint64_t key, unsigned bits) { return (size_t)(dfc__spread(key) >> (64u - bits)); }

/* The hash bits [32, 64 - bits): independent of the home, so that keys sharing a run of slots
 * are told apart (none when the table has 2^32 slots). */
static inline uint32_t dfc__idtable_fingerprint(uint64_t key, unsigned bits) {
    return (uint32_t)((dfc__spread(key) >> 32) & ((UINT64_C(1) << (32u - bits)) - 1));
}

/* The slot's fingerprint bits in place (a value field of 0), from the key's spread hash: its
 * bits 32 and up shifted left by `bits`, so that the home bits above the fingerprint fall off
 * the 32-bit slot. A slot holds the key's fingerprint exactly when (slot ^ this) <= the value
 * mask. */
static inline dfc_slot dfc__idtable_fingerprint_bits(uint64_t spread, unsigned bits) {
    return (dfc_slot)((spread >> 32) << bits);
}

static inline dfc_slot dfc__idtable_slot(uint32_t fingerprint, uint32_t value, unsigned bits) {
    return (dfc_slot)(((uint64_t)fingerprint << bits) | ((uint64_t)value + 1));
}

static inline uint32_t dfc__slot_fingerprint(dfc_slot slot, unsigned bits) { return (uint32_t)((uint64_t)slot >> bits); }

/* The slot holds an entry (neither empty nor removed). */
static inline bool dfc__slot_live(dfc_slot slot, uint32_t mask) { return slot != 0 && (slot & mask) != mask; }

static inline bool dfc__slot_removed(dfc_slot slot, uint32_t mask) { return (slot & mask) == mask; }

static inline uint32_t dfc__slot_value(dfc_slot slot, uint32_t mask) { return (slot & mask) - 1; }

/* Whether `value` fits a slot of a 2^bits table: value + 1 must stay below the removed mark. */
static inline bool dfc__value_fits(uint64_t value, unsigned bits) { return value + 1 < dfc__value_mask(bits); }

static inline size_t dfc__idtable_limit(size_t capacity) { return capacity / 4 * 3; }

/* Growth quadruples a table up to this many slots (256 KiB), and doubles it beyond. */
enum { DFC_IDTABLE_QUADRUPLE_SLOTS = 1 << 16 };

/* How many more entries fit: entries and removal marks stay within the limit. */
static inline size_t dfc__idtable_room(const dfc_idtable *table) {
    return table->slots == NULL ? 0 : dfc__idtable_limit(table->capacity) - table->count - table->removed;
}

/* Keeps value_bound above `end` - 1, the largest value just written. */
static inline void dfc__idtable_bound(dfc_idtable *table, size_t end) {
    if (end > table->value_bound) table->value_bound = end;
}

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
    copy->bits = table->bits;
    copy->count = table->count;
    copy->removed = table->removed;
    copy->value_bound = table->value_bound;
    copy->probe_grouped = table->probe_grouped;
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
    table->removed = 0;
    table->value_bound = 0;
}

/* Writes (key -> value) into the first empty slot of its run in a table that has no removed
 * slots (a table being rebuilt). */
static inline void dfc__idtable_place(dfc_slot *slots, size_t mask, unsigned bits, uint64_t key, uint32_t value) {
    size_t position = dfc__idtable_home(key, bits);
    while (slots[position] != 0) position = (position + 1) & mask;
    slots[position] = dfc__idtable_slot(dfc__idtable_fingerprint(key, bits), value, bits);
}

int dfc_idtable_reserve(dfc_idtable *table, size_t count, const uint64_t *keys, size_t key_count) {
    if (table == NULL) return DFC_ERR_NULL_ARGUMENT;
    if (count > DFC_MAX_COUNT || key_count > DFC_MAX_COUNT) return DFC_ERR_TOO_LARGE;
    if (table->slots != NULL && count + table->removed <= dfc__idtable_limit(table->capacity) &&
        key_count <= dfc__idtable_limit(table->capacity))
        return DFC_OK;
    if (table->count > 0 && keys == NULL) return DFC_ERR_NULL_ARGUMENT;
    /* Room for the larger of what is asked and what is held, and for values up to key_count
     * (any value below the limit fits a slot: the limit leaves a quarter of them unused). */
    size_t target = count > table->count ? count : table->count;
    if (key_count > target) target = key_count;
    /* Clearing removal marks keeps the capacity (never shrinks) when that leaves a quarter of
     * the limit free, and grows it as any growth does otherwise (see below): either way the
     * next rebuild is Omega(capacity) inserts away, so a remove and an insert in turn near the
     * limit do not rebuild each time. */
    const size_t limit = dfc__idtable_limit(table->capacity);
    if (table->slots != NULL && target <= limit) target = target > limit / 4 * 3 ? limit + 1 : limit;
    /* Every entry's value below key_count, or the keys cannot name them: checked before anything
     * is allocated, with a pass over the slots only when the bound does not already say so. */
    if (table->value_bound > key_count) {
        const uint32_t old_mask = dfc__value_mask(table->bits);
        size_t bound = 0;
        for (size_t i = 0; i < table->capacity; i++) {
            if (!dfc__slot_live(table->slots[i], old_mask)) continue;
            size_t value = dfc__slot_value(table->slots[i], old_mask);
            if (value >= key_count) return DFC_ERR_INCONSISTENT;
            if (value + 1 > bound) bound = value + 1;
        }
        table->value_bound = bound;
    }
    size_t capacity, bytes;
    unsigned home_shift;
    if (!dfc__fingerprint_slot_capacity_for(target, &capacity, &home_shift)) return DFC_ERR_TOO_LARGE;
    /* A small table that must double quadruples instead: a snapshot built by appends grows
     * its table from the first append's size, and every growth rehashes every entry. Growing
     * 4x while it stays within DFC_IDTABLE_QUADRUPLE_SLOTS rehashes about a third as many
     * (10^4 items appended 100 at a time: 3,800 entries rehashed against 11,700, 17
     * instructions an item), and the emptier table shortens the walks of random keys; it
     * costs at most 128 KiB a table more than doubling, and nothing at the sizes where memory
     * counts. Eightfold rehashed less still but made glibc give its heap top back to the
     * kernel and fault it in again, which cost a 10^4-item snapshot more than it saved. */
    if (table->slots != NULL && capacity == 2 * table->capacity && 2 * capacity <= DFC_IDTABLE_QUADRUPLE_SLOTS &&
        !dfc__fingerprint_slot_capacity_for(dfc__idtable_limit(2 * capacity), &capacity, &home_shift))
        return DFC_ERR_TOO_LARGE;
    if (!dfc__mul_size(capacity, sizeof(dfc_slot), &bytes)) return DFC_ERR_TOO_LARGE;
    const unsigned bits = 32u - home_shift;
    dfc_slot *slots = dfc__heap_allocate_zeroed(&table->heap, bytes);
    if (slots == NULL) return DFC_ERR_OUT_OF_MEMORY;
    const size_t mask = capacity - 1;
    if (table->count == key_count) {
        /* Distinct values (the contract), all below key_count (checked), key_count of them:
         * exactly 0..<key_count. The keys are read in order, and the slots they go to are
         * loaded some keys ahead. */
        const size_t prefetch_end = dfc__prefetch_end(key_count, bytes);
        for (size_t value = 0; value < key_count; value++) {
            if (value < prefetch_end) DFC_PREFETCH(&slots[dfc__idtable_home(keys[value + DFC_TABLE_PREFETCH], bits)]);
            dfc__idtable_place(slots, mask, bits, keys[value], (uint32_t)value);
        }
    } else {
        /* The old slots in order, each entry's key read from keys[value] (checked above). */
        const uint32_t old_mask = dfc__value_mask(table->bits);
        for (size_t i = 0; i < table->capacity; i++) {
            dfc_slot slot = table->slots[i];
            if (!dfc__slot_live(slot, old_mask)) continue;
            uint32_t value = dfc__slot_value(slot, old_mask);
            dfc__idtable_place(slots, mask, bits, keys[value], value);
        }
    }
    dfc__heap_release(&table->heap, table->slots);
    table->slots = slots;
    table->capacity = capacity;
    table->bits = bits;
    table->removed = 0;
    table->value_bound = table->count == key_count ? key_count : table->value_bound;
    return DFC_OK;
}

int dfc_idtable_insert(dfc_idtable *table, uint64_t key, uint32_t value) {
    if (table == NULL) return DFC_ERR_NULL_ARGUMENT;
    if (dfc__idtable_room(table) < 1) return DFC_ERR_NO_ROOM;
    if (!dfc__value_fits(value, table->bits)) return DFC_ERR_TOO_LARGE;
    const size_t mask = table->capacity - 1;
    const uint32_t value_mask = dfc__value_mask(table->bits);
    size_t position = dfc__idtable_home(key, table->bits);
    while (dfc__slot_live(table->slots[position], value_mask)) position = (position + 1) & mask;
    if (table->slots[position] != 0) table->removed--;
    table->slots[position] = dfc__idtable_slot(dfc__idtable_fingerprint(key, table->bits), value, table->bits);
    table->count++;
    dfc__idtable_bound(table, (size_t)value + 1);
    return DFC_OK;
}

/* What confirms a batch's shared fingerprints: the caller's keys by value (below
 * known_count), and whether the batch's own entries are confirmed against its keys (value
 * first_value + j holds keys[j] while no key of the batch has conflicted). NULL and false for
 * dfc_idtable_insert_batch, where fingerprints decide. */
typedef struct {
    const uint64_t *value_keys;
    size_t known_count;
    bool batch_confirms;
} dfc__batch_keys;

/* Whether keys[i], sharing a fingerprint with the entry holding `value`, conflicts with it:
 * the keys are equal, or the entry's key is not known (a fingerprint alone must then count).
 * `next` is the next value the batch gives. Inline: out of line, the call kept the probe
 * loop's values out of caller-saved registers (with clang 1.5 instructions a key more than
 * without the check, with gcc 8; inline, clang's loop is as short as before it and gcc's 5.5
 * longer). */
static inline bool dfc__batch_conflict(const dfc__batch_keys *known, const uint64_t *keys, size_t i, uint32_t value,
                                       uint32_t first_value, uint32_t next) {
    if (known->value_keys != NULL && value < known->known_count) return known->value_keys[value] == keys[i];
    const bool in_order = next - first_value == i;
    if (known->batch_confirms && in_order && value >= first_value && value < next) return keys[value - first_value] == keys[i];
    return true;
}

#if defined(__SSE2__) && (defined(__GNUC__) || defined(__clang__))
#include <emmintrin.h>
#define DFC_IDTABLE_GROUP 4
#define DFC_IDTABLE_CAN_GROUP true

/* Whether the run from `position` ends among the DFC_IDTABLE_GROUP slots there (which must all
 * lie inside the table) with no slot before its end holding the fingerprint bits `wanted`
 * (slots compared under `fingerprint_mask`); if so *end is the offset of that first empty slot.
 * Otherwise (a longer run, or a shared fingerprint to resolve) the caller walks slot by slot.
 * Why: a random key's run ends at a slot no branch predictor can guess, and the slot-by-slot
 * walk's exit mispredicted about 0.86 times an insert (UUID keys appended 100 at a time to
 * 10^4, by cachegrind's branch simulation); tested together, the only branch is on a long run
 * or a repeated fingerprint, both rare at the loads the table keeps. */
static inline bool dfc__idtable_group_end(const dfc_slot *slots, size_t position, dfc_slot wanted,
                                          dfc_slot fingerprint_mask, unsigned *end) {
    const __m128i group = _mm_loadu_si128((const __m128i *)(const void *)(slots + position));
    const __m128i zero = _mm_setzero_si128();
    const unsigned empty = (unsigned)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(group, zero)));
    const __m128i differing = _mm_and_si128(_mm_xor_si128(group, _mm_set1_epi32((int)wanted)),
                                            _mm_set1_epi32((int)fingerprint_mask));
    const unsigned same = (unsigned)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(differing, zero)));
    /* The slots before the first empty one: all four when none is empty. */
    const unsigned before_empty = (empty & (0u - empty)) - 1u;
    *end = (unsigned)__builtin_ctz(empty | 16u);
    return ((same & before_empty) | (empty == 0)) == 0;
}
#else
#define DFC_IDTABLE_CAN_GROUP false
#endif

/* dfc__idtable_insert_batch for a table with no removal marks (any table built by appends
 * alone): one test a slot of the run, its fingerprint bits against the key's, and the insert
 * at the run's end; with `grouped` (SSE2 only), the first 4 slots of the run are tested at once
 * (dfc__idtable_group_end) and the walk is left for the rare longer runs and shared
 * fingerprints. Random keys pass about one occupied slot an insert at the loads the table
 * keeps (consecutive integers almost none), so the walk is much of an insert: with the general
 * loop's two tests a slot, random keys cost 107 instructions an insert and consecutive ones 75,
 * in a table grown by batches of 100 to 10^4 entries. Neither way wins everywhere: the group's
 * test costs about 12 instructions an insert more, and saves the walk's exit branch, which
 * mispredicts whenever run lengths vary (random keys; consecutive integers almost never pass a
 * slot, and a walk of nothing predicts well). *passed_slots counts the occupied slots the
 * batch's keys passed, so that the caller picks the next batch's way. Returns the next unused
 * value. */
DFC__ALWAYS_INLINE static inline uint32_t dfc__idtable_insert_unmarked(dfc_slot *slots, size_t mask, unsigned bits,
                                                                       const uint64_t *keys, size_t count,
                                                                       uint32_t first_value, const dfc__batch_keys *known,
                                                                       uint8_t *conflicts, bool grouped,
                                                                       size_t *passed_slots) {
    const uint32_t value_mask = dfc__value_mask(bits);
    const unsigned home_shift = 64u - bits;
    uint32_t next = first_value;
    size_t passed = 0;
    (void)grouped; /* without SSE2 every batch walks */
    const size_t prefetch_end = dfc__prefetch_end(count, (mask + 1) * sizeof(dfc_slot));
    for (size_t i = 0; i < count; i++) {
        if (i < prefetch_end) DFC_PREFETCH(&slots[dfc__spread(keys[i + DFC_TABLE_PREFETCH]) >> home_shift]);
        const uint64_t spread = dfc__spread(keys[i]);
        const dfc_slot wanted = dfc__idtable_fingerprint_bits(spread, bits);
        size_t position = (size_t)(spread >> home_shift);
        uint8_t taken = 0;
#ifdef DFC_IDTABLE_GROUP
        if (grouped && DFC_LIKELY(position + DFC_IDTABLE_GROUP <= mask + 1)) {
            unsigned end;
            if (DFC_LIKELY(dfc__idtable_group_end(slots, position, wanted, ~value_mask, &end))) {
                slots[position + end] = wanted | (next + 1);
                passed += end;
                conflicts[i] = 0;
                next++;
                continue;
            }
        }
#endif
        for (dfc_slot slot; (slot = slots[position]) != 0; position = (position + 1) & mask, passed++) {
            if (DFC_UNLIKELY((slot ^ wanted) <= value_mask) &&
                dfc__batch_conflict(known, keys, i, (slot & value_mask) - 1, first_value, next)) {
                taken = 1;
                break;
            }
        }
        conflicts[i] = taken;
        if (taken) continue;
        slots[position] = wanted | (next + 1);
        next++;
    }
    *passed_slots = passed;
    return next;
}

/* dfc__idtable_insert_unmarked compiled for each way on its own: inlined twice into one
 * function, the grouped loop lost registers to the other (UUID keys about 11 instructions an
 * insert more), and one shared copy tested `grouped` for every key. */
DFC__OUT_OF_LINE static uint32_t dfc__idtable_insert_walked(dfc_slot *slots, size_t mask, unsigned bits,
                                                            const uint64_t *keys, size_t count, uint32_t first_value,
                                                            const dfc__batch_keys *known, uint8_t *conflicts,
                                                            size_t *passed_slots) {
    return dfc__idtable_insert_unmarked(slots, mask, bits, keys, count, first_value, known, conflicts, false,
                                        passed_slots);
}

DFC__OUT_OF_LINE static uint32_t dfc__idtable_insert_grouped(dfc_slot *slots, size_t mask, unsigned bits,
                                                             const uint64_t *keys, size_t count, uint32_t first_value,
                                                             const dfc__batch_keys *known, uint8_t *conflicts,
                                                             size_t *passed_slots) {
    return dfc__idtable_insert_unmarked(slots, mask, bits, keys, count, first_value, known, conflicts, true,
                                        passed_slots);
}

/* dfc__idtable_insert_batch for a table with removal marks: a key goes into the first mark of
 * its run when it has one, else at the run's end. Returns the next unused value. */
static uint32_t dfc__idtable_insert_marked(dfc_idtable *table, const uint64_t *keys, size_t count, uint32_t first_value,
                                           const dfc__batch_keys *known, uint8_t *conflicts) {
    const unsigned bits = table->bits;
    const size_t mask = table->capacity - 1;
    const uint32_t value_mask = dfc__value_mask(bits);
    dfc_slot *slots = table->slots;
    uint32_t next = first_value;
    const size_t prefetch_end = dfc__prefetch_end(count, table->capacity * sizeof(dfc_slot));
    for (size_t i = 0; i < count; i++) {
        if (i < prefetch_end) DFC_PREFETCH(&slots[dfc__idtable_home(keys[i + DFC_TABLE_PREFETCH], bits)]);
        const uint32_t fingerprint = dfc__idtable_fingerprint(keys[i], bits);
        size_t position = dfc__idtable_home(keys[i], bits), free_position = SIZE_MAX;
        bool taken = false;
        for (dfc_slot slot; (slot = slots[position]) != 0; position = (position + 1) & mask) {
            if (dfc__slot_removed(slot, value_mask)) {
                if (free_position == SIZE_MAX) free_position = position;
            } else if (dfc__slot_fingerprint(slot, bits) == fingerprint) {
                /* A shared fingerprint is a conflict only when the keys are equal (or the
                 * entry's key is unknown): an insert past it keeps the batch's values in order. */
                if (dfc__batch_conflict(known, keys, i, dfc__slot_value(slot, value_mask), first_value, next)) {
                    taken = true;
                    break;
                }
            }
        }
        conflicts[i] = taken ? 1 : 0;
        if (taken) continue;
        if (free_position != SIZE_MAX) {
            position = free_position;
            table->removed--;
        }
        slots[position] = dfc__idtable_slot(fingerprint, next, bits);
        next++;
    }
    return next;
}

static int dfc__idtable_insert_batch(dfc_idtable *table, const uint64_t *keys, size_t count, uint32_t first_value,
                                     const dfc__batch_keys *known, uint8_t *conflicts, size_t *inserted) {
    /* The arguments are checked even for an empty batch, so that a call is refused or
     * accepted for what it says, not for its size; a NULL argument before an inconsistent one. */
    if (table == NULL || (count > 0 && (keys == NULL || conflicts == NULL)) ||
        (known->value_keys == NULL && known->known_count > 0))
        return DFC_ERR_NULL_ARGUMENT;
    /* Keys by value past first_value would stand for the batch's own values. */
    if (known->known_count > first_value) return DFC_ERR_INCONSISTENT;
    if (count == 0) {
        if (inserted != NULL) *inserted = 0;
        return DFC_OK;
    }
    if (count > DFC_MAX_COUNT - table->count || (uint64_t)first_value + count > DFC_MAX_COUNT)
        return DFC_ERR_TOO_LARGE;
    if (dfc__idtable_room(table) < count) return DFC_ERR_NO_ROOM;
    const unsigned bits = table->bits;
    if (!dfc__value_fits((uint64_t)first_value + count - 1, bits)) return DFC_ERR_TOO_LARGE;
    const size_t mask = table->capacity - 1;
    uint32_t next;
    if (table->removed == 0) {
        size_t passed;
        /* The next batch is grouped when this one's keys passed over one occupied slot in 4: UUID
         * keys appended 100 at a time to 10^4 entries then build and diff in about 20% less CPU time,
         * consecutive integers (which pass almost none) in the same time. */
        next = table->probe_grouped
                   ? dfc__idtable_insert_grouped(table->slots, mask, bits, keys, count, first_value, known, conflicts,
                                                 &passed)
                   : dfc__idtable_insert_walked(table->slots, mask, bits, keys, count, first_value, known, conflicts,
                                                &passed);
        table->probe_grouped = DFC_IDTABLE_CAN_GROUP && passed * 4 > count;
    } else {
        next = dfc__idtable_insert_marked(table, keys, count, first_value, known, conflicts);
    }
    table->count += next - first_value;
    if (next > first_value) dfc__idtable_bound(table, next);
    if (inserted != NULL) *inserted = next - first_value;
    return DFC_OK;
}

int dfc_idtable_insert_batch_confirmed(dfc_idtable *table, const uint64_t *keys, size_t count, uint32_t first_value,
                                       const uint64_t *value_keys, size_t known_count, uint8_t *conflicts,
                                       size_t *inserted) {
    const dfc__batch_keys known = {value_keys, known_count, true};
    return dfc__idtable_insert_batch(table, keys, count, first_value, &known, conflicts, inserted);
}

int dfc_idtable_insert_batch(dfc_idtable *table, const uint64_t *keys, size_t count, uint32_t first_value,
                             uint8_t *conflicts, size_t *inserted) {
    const dfc__batch_keys fingerprints_only = {NULL, 0, false};
    return dfc__idtable_insert_batch(table, keys, count, first_value, &fingerprints_only, conflicts, inserted);
}

/* dfc_idtable_find's walk of the key's run from *cursor on: out of line, so that the usual
 * lookup (the entry in its home slot) pays none of its set-up. */
DFC__OUT_OF_LINE static int64_t dfc__idtable_find_walk(const dfc_idtable *table, uint64_t key, size_t *cursor) {
    const size_t mask = table->capacity - 1;
    const unsigned bits = table->bits;
    const uint32_t value_mask = dfc__value_mask(bits);
    const uint32_t fingerprint = dfc__idtable_fingerprint(key, bits);
    const size_t home = dfc__idtable_home(key, bits);
    /* cursor counts the slots already probed from home, so a later call resumes there. */
    for (size_t step = *cursor; step < table->capacity; step++) {
        dfc_slot slot = table->slots[(home + step) & mask];
        if (slot == 0) break;
        if (dfc__slot_fingerprint(slot, bits) == fingerprint && !dfc__slot_removed(slot, value_mask)) {
            *cursor = step + 1;
            return (int64_t)dfc__slot_value(slot, value_mask);
        }
    }
    *cursor = table->capacity;
    return DFC_NOT_FOUND;
}

int64_t dfc_idtable_find(const dfc_idtable *table, uint64_t key, size_t *cursor) {
    if (table == NULL || cursor == NULL || table->count == 0) return DFC_NOT_FOUND;
    if (DFC_LIKELY(*cursor == 0)) {
        /* The first call, and the entry in its home slot (most lookups of a present key, at a
         * load of 3/4 or less): about 20 instructions, where the walk's set-up is about 40.
         * The slot holds the key's fingerprint bits, and its value field is neither 0 (empty)
         * nor all ones (removed). */
        const unsigned bits = table->bits;
        const uint64_t spread = dfc__spread(key);
        const dfc_slot slot = table->slots[(size_t)(spread >> (64u - bits))];
        const uint32_t value_mask = dfc__value_mask(bits);
        const uint32_t field = slot & value_mask;
        const dfc_slot wanted = dfc__idtable_fingerprint_bits(spread, bits);
        if ((slot ^ wanted) <= value_mask && field - 1 < value_mask - 1) {
            *cursor = 1;
            return (int64_t)field - 1;
        }
    }
    return dfc__idtable_find_walk(table, key, cursor);
}

void dfc_idtable_prefetch(const dfc_idtable *table, uint64_t key) {
    if (table == NULL || table->count == 0) return;
    DFC_PREFETCH(&table->slots[dfc__idtable_home(key, table->bits)]);
}

/* The position of the entry (key -> value). */
static bool dfc__idtable_locate(const dfc_idtable *table, uint64_t key, uint32_t value, size_t *found) {
    if (table == NULL || table->count == 0 || !dfc__value_fits(value, table->bits)) return false;
    const size_t mask = table->capacity - 1;
    const dfc_slot wanted = dfc__idtable_slot(dfc__idtable_fingerprint(key, table->bits), value, table->bits);
    for (size_t position = dfc__idtable_home(key, table->bits), step = 0;
         table->slots[position] != 0 && step < table->capacity; position = (position + 1) & mask, step++) {
        if (table->slots[position] == wanted) {
            *found = position;
            return true;
        }
    }
    return false;
}

int dfc_idtable_remove(dfc_idtable *table, uint64_t key, uint32_t value) {
    size_t position;
    if (!dfc__idtable_locate(table, key, value, &position)) return 0;
    const size_t mask = table->capacity - 1;
    const uint32_t value_mask = dfc__value_mask(table->bits);
    table->count--;
    if (table->slots[(position + 1) & mask] != 0) {
        /* A run goes on past it: mark it removed, so that lookups keep walking through. */
        table->slots[position] = value_mask;
        table->removed++;
        return 1;
    }
    /* The end of a run: empty it, and the removed marks just before it, which no run needs now. */
    table->slots[position] = 0;
    for (size_t before = (position - 1) & mask; dfc__slot_removed(table->slots[before], value_mask);
         before = (before - 1) & mask) {
        table->slots[before] = 0;
        table->removed--;
    }
    return 1;
}

int dfc_idtable_update(dfc_idtable *table, uint64_t key, uint32_t old_value, uint32_t new_value) {
    size_t position;
    if (!dfc__idtable_locate(table, key, old_value, &position) || !dfc__value_fits(new_value, table->bits)) return 0;
    table->slots[position] = dfc__idtable_slot(dfc__idtable_fingerprint(key, table->bits), new_value, table->bits);
    dfc__idtable_bound(table, (size_t)new_value + 1);
    return 1;
}

size_t dfc_idtable_count(const dfc_idtable *table) { return table == NULL ? 0 : table->count; }

size_t dfc_idtable_room(const dfc_idtable *table) { return table == NULL ? 0 : dfc__idtable_room(table); }

size_t dfc_idtable_sizeof(const dfc_idtable *table) {
    return table == NULL ? 0 : sizeof(*table) + table->capacity * sizeof(dfc_slot);
}
