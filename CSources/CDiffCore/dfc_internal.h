/* Private declarations shared by the CDiffCore sources. Not installed. */
#ifndef DFC_INTERNAL_H
#define DFC_INTERNAL_H

#include "dfc.h"

#include <stdbool.h>
#include <string.h>

/* Internal functions stay out of the shared library's exported symbols. */
#if defined(__GNUC__) || defined(__clang__)
#define DFC_HIDDEN __attribute__((visibility("hidden")))
#else
#define DFC_HIDDEN
#endif

/* A condition that is true half the time at random: asks the compiler for a
 * conditional move instead of a branch (clang; other compilers may branch). */
#if defined(__has_builtin)
#if __has_builtin(__builtin_unpredictable)
#define DFC_UNPREDICTABLE(x) __builtin_unpredictable(x)
#endif
#endif
#ifndef DFC_UNPREDICTABLE
#define DFC_UNPREDICTABLE(x) (x)
#endif

#if defined(__GNUC__) || defined(__clang__)
#define DFC_LIKELY(x) __builtin_expect(!!(x), 1)
#define DFC_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define DFC_PREFETCH(p) __builtin_prefetch(p)
#else
#define DFC_LIKELY(x) (x)
#define DFC_UNLIKELY(x) (x)
#define DFC_PREFETCH(p) ((void)0)
#endif

/* How far a loop that prefetches table slots looks ahead (in elements). */
enum { DFC_TABLE_PREFETCH = 16 };

/* Whether a table of `table_bytes` is worth prefetching: one of at most 256 KiB stays in the
 * L2 cache, where a prefetch's own work (about 8 instructions an element: load the key ahead,
 * spread it, prefetch) costs more than the misses it would hide. */
static inline bool dfc__table_outgrows_cache(size_t table_bytes) { return table_bytes > ((size_t)256 << 10); }

/* The end of the range of `count` elements a loop prefetches table slots for, DFC_TABLE_PREFETCH
 * ahead: 0 (none) for a table the cache holds. One compare an element either way. */
static inline size_t dfc__prefetch_end(size_t count, size_t table_bytes) {
    return dfc__table_outgrows_cache(table_bytes) && count > DFC_TABLE_PREFETCH ? count - DFC_TABLE_PREFETCH : 0;
}

/* ---- allocation ---------------------------------------------------------- */

/* An allocator plus the number of successful allocations made through it. */
typedef struct dfc_heap {
    dfc_allocator allocator;
    uint64_t allocation_count;
} dfc_heap;

DFC_HIDDEN void dfc__heap_init(dfc_heap *heap, const dfc_allocator *allocator);
DFC_HIDDEN void *dfc__heap_allocate(dfc_heap *heap, size_t size);
/* As dfc__heap_allocate, the memory cleared to zero (by calloc on the default allocator). */
DFC_HIDDEN void *dfc__heap_allocate_zeroed(dfc_heap *heap, size_t size);
DFC_HIDDEN void dfc__heap_release(dfc_heap *heap, void *pointer);

/* count * size without overflow; false when it would overflow. */
static inline bool dfc__mul_size(size_t count, size_t size, size_t *out) {
    if (size != 0 && count > SIZE_MAX / size) return false;
    *out = count * size;
    return true;
}

/* True when bytes[0 ..< end] cannot be one object: longer than PTRDIFF_MAX or past the
 * end of the address space, so `bytes + offset` would overflow. */
static inline bool dfc__byte_range_overflows(const void *bytes, uint64_t end) {
    return end > (uint64_t)PTRDIFF_MAX || (uintptr_t)bytes > UINTPTR_MAX - (uintptr_t)end;
}

/* A scratch buffer whose contents are not kept when it grows. */
typedef struct dfc_buffer {
    void *data;
    size_t capacity; /* bytes */
} dfc_buffer;

/* Grows `buffer` to at least count * size bytes (contents discarded on growth). */
DFC_HIDDEN int dfc__buffer_reserve(dfc_heap *heap, dfc_buffer *buffer, size_t count, size_t size);
DFC_HIDDEN void dfc__buffer_release(dfc_heap *heap, dfc_buffer *buffer);

/* ---- slot sizing (the public identifier table and the scratch tables) ------- */

/* Fibonacci hashing spreads sequential integer keys over the slots: a slot's home is the
 * top bits of the key's spread, and tables that keep a fingerprint instead of the key take
 * the spread's high half, whose top bits are that same home. */
static inline uint64_t dfc__spread(uint64_t key) { return key * UINT64_C(0x9E3779B97F4A7C15); }

static inline size_t dfc__slot_home(uint64_t key, unsigned shift) { return (size_t)(dfc__spread(key) >> shift); }

/* Smallest power-of-two slot count keeping the load at or below 3/4 (min 16), and the
 * shift dfc__slot_home takes for it; false when no such count fits in a size_t. With 8-byte
 * slots a probe sequence of a few slots stays in one cache line, so 3/4 costs little time
 * and halves the table against 1/2 whenever n falls between 3/8 and 1/2 of a power of two. */
static inline bool dfc__slot_capacity_for(size_t count, size_t *capacity, unsigned *shift) {
    size_t slots = 16;
    unsigned bits = 4;
    while (slots / 4 * 3 < count) {
        if (slots > SIZE_MAX / 2 || bits >= 63) return false;
        slots *= 2;
        bits++;
    }
    *capacity = slots;
    *shift = 64u - bits;
    return true;
}

/* dfc__slot_capacity_for for a table addressed by a 32-bit fingerprint instead of the key: the
 * home slot is the fingerprint's top bits, so `home_shift` = shift - 32. At most 2^32 slots,
 * all a fingerprint can address (DFC_MAX_COUNT needs 2^32 at 3/4). */
static inline bool dfc__fingerprint_slot_capacity_for(size_t count, size_t *capacity, unsigned *home_shift) {
    unsigned shift;
    if (!dfc__slot_capacity_for(count, capacity, &shift) || shift < 32u) return false;
    *home_shift = shift - 32u;
    return true;
}

/* ---- context ------------------------------------------------------------- */

enum {
    DFC_BUF_SLOTS,
    DFC_BUF_SLOTS_NEW,
    DFC_BUF_OLD_TO_NEW,
    DFC_BUF_NEW_TO_OLD,
    DFC_BUF_DELETES,
    DFC_BUF_INSERTS,
    DFC_BUF_MOVE_FROM,
    DFC_BUF_MOVE_TO,
    DFC_BUF_SEQUENCE,
    DFC_BUF_SEQUENCE_POSITION,
    DFC_BUF_KEEP,
    DFC_BUF_LIS_TAILS,
    DFC_BUF_LIS_TAIL_VALUES,
    DFC_BUF_LIS_PREVIOUS,
    DFC_BUF_DUPLICATES,
    /* sectioned diff */
    DFC_BUF_SECTION_OLD_TO_NEW,
    DFC_BUF_SECTION_NEW_TO_OLD,
    DFC_BUF_SECTION_FLAGS_OLD,
    DFC_BUF_SECTION_FLAGS_NEW,
    DFC_BUF_OLD_ITEM_DELETED,
    DFC_BUF_MATCHED_OLD_SECTION,
    DFC_BUF_ITEM_KEEP,
    DFC_BUF_ITEM_FLAGS,
    DFC_BUF_REFRESH_MARKS,
    DFC_BUF_OUT_SECTIONS,
    DFC_BUF_OUT_PATHS,
    /* steps (dfc_steps.c): never the diff's buffers, so a diff's batch can be listed as steps */
    DFC_BUF_STEPS,
    DFC_BUF_STEP_LISTS,
    DFC_BUF_STEP_MAPS,
    DFC_BUF_STEP_BALANCE,
    DFC_BUF_STEP_TOUCHED,
    DFC_BUF_STEP_GROUPS,
    DFC_BUF_STEP_MOVES,
    DFC_BUF_STEP_FLAT,
    DFC_BUF_COUNT
};

struct dfc_context {
    dfc_heap heap;
    dfc_buffer buffers[DFC_BUF_COUNT];
    size_t duplicate_count;
};

/* Scratch array `which` with room for count elements of size bytes, or NULL
 * with *status set. */
DFC_HIDDEN void *dfc__context_scratch(dfc_context *context, int which, size_t count, size_t size, int *status);

/* Appends a duplicate report, growing (and keeping) the list. */
DFC_HIDDEN int dfc__context_add_duplicate(dfc_context *context, int side, int is_section, uint32_t first,
                               uint32_t duplicate);

/* Sorts the duplicate list by (side, is_section, duplicate). */
DFC_HIDDEN void dfc__context_sort_duplicates(dfc_context *context);

/* The LIS searches tails of up to DFC_LIS_BLOCK * DFC_LIS_ROW entries by counting, in
 * blocks of DFC_LIS_BLOCK, and longer tails from a guess that every DFC_LIS_STRIDE-th
 * tail refines (dfc_lis.c): its tail-values buffer holds `count` values rounded up to
 * whole blocks, then a row of DFC_LIS_ROW block maxima, then one value per stride. */
enum { DFC_LIS_BLOCK = 64, DFC_LIS_ROW = 128, DFC_LIS_STRIDE = 1024 };
static inline size_t dfc__lis_tail_value_count(size_t count) {
    return (count + DFC_LIS_BLOCK - 1) / DFC_LIS_BLOCK * DFC_LIS_BLOCK + DFC_LIS_ROW + count / DFC_LIS_STRIDE + 1;
}

/* LIS over values[0..count) into keep[], using the context's scratch. */
DFC_HIDDEN int dfc__lis(dfc_context *context, const uint32_t *values, size_t count, uint8_t *keep,
             size_t *length);

/* Every flag a diff knows. */
#define DFC_DIFF_FLAGS (DFC_DIFF_ASSUME_UNIQUE | DFC_DIFF_ASSUME_OLD_UNIQUE)

/* ---- identity ------------------------------------------------------------ */

/* The two lists of a diff plus its match policy. */
typedef struct dfc_identity {
    const dfc_list *lists[2]; /* indexed by DFC_SIDE_* */
    dfc_match match;
} dfc_identity;

/* Validates one list: keys present, offsets ascending when bytes are needed. */
DFC_HIDDEN int dfc__check_list(const dfc_list *list, const dfc_match *match);
/* Validates a match rule: a known kind, a callback when one is asked for. */
DFC_HIDDEN int dfc__check_match(const dfc_match *match);

/* Whether n bytes at a and b are equal. Identifiers are mostly short, and a call to
 * memcmp costs more than comparing them: up to 16 bytes are compared as two words
 * that may overlap, every load within the n bytes. */
static inline bool dfc__bytes_equal(const unsigned char *a, const unsigned char *b, size_t n) {
    if (n >= 8 && n <= 16) {
        uint64_t a0, b0, a1, b1;
        memcpy(&a0, a, 8), memcpy(&b0, b, 8), memcpy(&a1, a + n - 8, 8), memcpy(&b1, b + n - 8, 8);
        return ((a0 ^ b0) | (a1 ^ b1)) == 0;
    }
    if (n >= 4 && n < 8) {
        uint32_t a0, b0, a1, b1;
        memcpy(&a0, a, 4), memcpy(&b0, b, 4), memcpy(&a1, a + n - 4, 4), memcpy(&b1, b + n - 4, 4);
        return ((a0 ^ b0) | (a1 ^ b1)) == 0;
    }
    if (n < 4) {
        for (size_t i = 0; i < n; i++)
            if (a[i] != b[i]) return false;
        return true;
    }
    return memcmp(a, b, n) == 0;
}

/* Whether equal keys are taken as a match with no check here (integers, or the caller
 * checking afterwards). */
static inline bool dfc__keys_decide(const dfc_match *match) {
    return match->kind == DFC_MATCH_INJECTIVE || match->kind == DFC_MATCH_DEFERRED;
}

/* True when element a of side sa and element b of side sb are the same identifier,
 * given that their keys are equal. */
static inline bool dfc__confirm(const dfc_identity *identity, int sa, uint32_t a, int sb,
                                uint32_t b) {
    switch (identity->match.kind) {
    case DFC_MATCH_INJECTIVE:
    case DFC_MATCH_DEFERRED: /* the caller confirms afterwards */
        return true;
    case DFC_MATCH_BYTES: {
        const dfc_list *la = identity->lists[sa];
        const dfc_list *lb = identity->lists[sb];
        uint64_t length_a = la->offsets[a + 1] - la->offsets[a];
        uint64_t length_b = lb->offsets[b + 1] - lb->offsets[b];
        if (length_a != length_b) return false;
        /* Two empty identifiers: equal without a read (a list of only empty ones may have no bytes). */
        if (length_a == 0) return true;
        return dfc__bytes_equal((const unsigned char *)la->bytes + la->offsets[a],
                                (const unsigned char *)lb->bytes + lb->offsets[b], (size_t)length_a);
    }
    default:
        return identity->match.equal(identity->match.user_data, sa, a, sb, b) != 0;
    }
}

/* Same identifier: equal keys and confirmed. */
static inline bool dfc__same(const dfc_identity *identity, int sa, uint32_t a, int sb,
                             uint32_t b) {
    return identity->lists[sa]->keys[a] == identity->lists[sb]->keys[b] &&
           dfc__confirm(identity, sa, a, sb, b);
}

/* A table over one list's indices, living in a context scratch buffer. A slot
 * packs the low 32 bits of the key (a fingerprint) above index + 1, so it is
 * 8 bytes; 0 marks an empty slot. The full key is confirmed against the list. */
typedef struct dfc_scratch_table {
    uint64_t *slots;
    size_t mask;
    unsigned shift;
    int side;       /* the list whose indices the table stores */
    int is_section; /* reported with duplicates */
} dfc_scratch_table;

static inline uint64_t dfc__pack_slot(uint64_t key, uint32_t index) {
    return (key << 32) | ((uint64_t)index + 1);
}

/* An empty table for up to `count` indices of `side`. */
DFC_HIDDEN int dfc__scratch_table_init(dfc_context *context, int which, size_t count, int side,
                            dfc_scratch_table *table);

/* Adds an index without looking for an equal identifier. */
DFC_HIDDEN void dfc__scratch_table_insert(dfc_scratch_table *table, uint64_t key, uint32_t index);

/* Builds a table over indices [begin, end) of `side`. Equal identifiers after the
 * first are not inserted; with report_duplicates each is added to the context's
 * duplicate list. table->is_section must be set by the caller. */
DFC_HIDDEN int dfc__scratch_table_build(dfc_context *context, int which, const dfc_identity *identity,
                             int side, size_t begin, size_t end, bool report_duplicates,
                             dfc_scratch_table *table);

/* Index (in the table's side) of the identifier equal to element `query` of
 * `query_side`, or DFC_NOT_FOUND. */
static inline int64_t dfc__scratch_table_find(const dfc_scratch_table *table,
                                              const dfc_identity *identity, int query_side,
                                              uint32_t query) {
    const uint64_t key = identity->lists[query_side]->keys[query];
    const uint64_t *table_keys = identity->lists[table->side]->keys;
    const uint64_t fingerprint = key << 32;
    size_t position = dfc__slot_home(key, table->shift);
    uint64_t slot;
    while ((slot = table->slots[position]) != 0) {
        if ((slot & UINT64_C(0xFFFFFFFF00000000)) == fingerprint) {
            uint32_t index = (uint32_t)(slot & 0xFFFFFFFFu) - 1;
            if (table_keys[index] == key && dfc__confirm(identity, table->side, index, query_side, query))
                return index;
        }
        position = (position + 1) & table->mask;
    }
    return DFC_NOT_FOUND;
}

static inline void dfc__scratch_table_prefetch(const dfc_scratch_table *table, uint64_t key) {
    DFC_PREFETCH(&table->slots[dfc__slot_home(key, table->shift)]);
}

/* The second stage of a lookup's prefetch, once its home slot is cached: when that slot
 * holds the key's fingerprint, prefetches the table side's key (read to confirm) and the
 * entry of `per_element` (one value per table-side element) that the caller will write. */
static inline void dfc__scratch_table_prefetch_match(const dfc_scratch_table *table, const dfc_identity *identity,
                                                     uint64_t key, const int32_t *per_element) {
    uint64_t slot = table->slots[dfc__slot_home(key, table->shift)];
    if (slot != 0 && (slot & UINT64_C(0xFFFFFFFF00000000)) == key << 32) {
        uint32_t index = (uint32_t)(slot & 0xFFFFFFFFu) - 1;
        DFC_PREFETCH(&identity->lists[table->side]->keys[index]);
        DFC_PREFETCH(&per_element[index]);
    }
}

/* Matches two lists (trimming the common prefix and suffix first), filling
 * old_to_new/new_to_old (caller-owned, n and m entries). `flags` are the diff's: without
 * DFC_DIFF_ASSUME_UNIQUE every duplicate is added to the context's list (tagged
 * is_section); with DFC_DIFF_ASSUME_OLD_UNIQUE only the new list is checked. Uses the
 * context's table and sequence-position scratch buffers. */
DFC_HIDDEN int dfc__match_lists(dfc_context *context, const dfc_identity *identity, unsigned flags, int is_section,
                     int32_t *old_to_new, int32_t *new_to_old, size_t *common_prefix, size_t *common_suffix);

/* Sets *unique to true when no two of these are the same identifier (keys equal and
 * confirmed): every element of `side`, and the `probe_count` elements of the other side
 * at the positions `probes` lists (may be NULL when probe_count is 0). False when two are,
 * or when too many keys crowd one partition to check it in the room reserved (equal or
 * colliding keys): the caller's exact matcher then decides. Reports nothing
 * (dfc_unique.c). Uses the context's two table buffers and its LIS-tails buffer, all
 * free while lists are matched, sized as dfc__unique_scratch_for says. O(n + probe_count). */
DFC_HIDDEN int dfc__list_is_unique(dfc_context *context, const dfc_identity *identity, int side, const uint32_t *probes,
                                   size_t probe_count, bool *unique);

/* What dfc__list_is_unique needs for `count` elements and `probe_count` probes, in
 * elements: 8-byte bucketed entries (the table buffer), 4-byte partition starts (the
 * LIS-tails buffer), 8-byte probe keys and then one partition's table (the new-side table
 * buffer). Never more for smaller counts, so dfc_context_reserve asks for the largest
 * case. False when the sizes overflow. */
typedef struct dfc_unique_scratch {
    size_t bucketed, starts, keys_then_table;
} dfc_unique_scratch;
/* Sizing lives here, not in dfc_unique.c, so that dfc_context_reserve (a lower floor) can ask
 * it without calling up into the uniqueness check. */
enum { DFC_PARTITION_TARGET = 4096, DFC_MAX_PARTITION_BITS = 16 };

/* How many bits of the spread pick a partition for `total` elements: enough for partitions
 * of ~DFC_PARTITION_TARGET, at most DFC_MAX_PARTITION_BITS. */
static inline unsigned dfc__partition_bits(size_t total) {
    unsigned bits = 0;
    while (bits < DFC_MAX_PARTITION_BITS && (total >> bits) > DFC_PARTITION_TARGET) bits++;
    return bits;
}

/* The largest partition checked with a table: twice the average size (spread keys stay far
 * below it: ~4,096 keys a partition vary by ~64), so keys crowding one partition (equal or
 * colliding keys) cannot ask for a table beyond what dfc_context_reserve set aside. Grows
 * with `total`, so a smaller diff never needs more. */
static inline size_t dfc__partition_limit(size_t total) {
    size_t limit = 2 * DFC_PARTITION_TARGET + 2 * (total >> DFC_MAX_PARTITION_BITS);
    return limit < total ? limit : total;
}

static inline bool dfc__unique_scratch_for(size_t count, size_t probe_count, dfc_unique_scratch *scratch) {
    const size_t total = count + probe_count;
    size_t table;
    unsigned home_shift;
    if (!dfc__fingerprint_slot_capacity_for(dfc__partition_limit(total), &table, &home_shift)) return false;
    scratch->bucketed = total;
    scratch->starts = ((size_t)1 << dfc__partition_bits(total)) + 1;
    scratch->keys_then_table = probe_count > table ? probe_count : table;
    return true;
}

/* ---- batch planner (dfc_plan.c) --------------------------------------------- */

/* Per-section flags. */
enum {
    DFC_SECTION_GONE = 1,      /* old section: deleted, or converted to delete + insert */
    DFC_SECTION_FRESH = 2,     /* new section: inserted, or converted */
    DFC_SECTION_MOVED = 4,     /* new section: surviving, off the section LIS, not converted */
    DFC_SECTION_TOUCHED = 8,   /* new section: some item operation touches it (this round) */
    DFC_SECTION_RELOADED = 16, /* new section: reload requested */
    DFC_SECTION_LOSES_ITEMS = 32 /* old section: some item of it is in no new section */
};

/* matched_old_section of a new item without a match. */
#define DFC_NO_SECTION UINT32_MAX

/* Per-new-item flags; bits 3-5 hold the planner's operation for the item. */
enum { DFC_ITEM_KEEP = 1, DFC_ITEM_RELOAD = 2, DFC_ITEM_RECONFIGURE = 4, DFC_ITEM_OP_SHIFT = 3 };

/* What the two-level diff hands the planner: both snapshots' shapes, the section and
 * item matches, the old section of every matched new item, the LIS verdicts
 * (DFC_SECTION_MOVED, DFC_ITEM_KEEP), the refresh requests, and GONE/FRESH for
 * unmatched sections.
 *
 * Every pass of the planner walks the new items (or the old ones) in order, section by
 * section: the old section of a new item's match is read from matched_old_section[j],
 * filled once, instead of from an old-indexed array at a random place in every pass
 * (a cache miss per item in each of several passes). */
typedef struct dfc_plan {
    size_t old_section_count, new_section_count, old_count, new_count;
    const uint32_t *old_starts, *new_starts;
    int32_t *section_old_to_new, *section_new_to_old;
    int32_t *old_to_new, *new_to_old;
    uint32_t *matched_old_section; /* per new item; DFC_NO_SECTION when unmatched */
    uint8_t *old_deleted;          /* per old item, filled by dfc__plan_resolve: 1 when a matched item is deleted */
    uint8_t *old_flags, *new_flags, *item_flags;
    /* Left by dfc__plan_resolve's last pass, for dfc__plan_emit to size its output without
     * a counting pass over the items: the new items' operations and refreshes, and the
     * matched old items deleted (the unmatched ones are counted by emit). */
    size_t inserted_items, moved_items, deleted_matched_items, reloaded_items, reconfigured_items;
} dfc_plan;

/* Step 3: every moved section that an item operation touches becomes delete + insert.
 * Its last pass stores each new item's operation, marks old_deleted and counts the
 * operations and refreshes (the plan's counts) for dfc__plan_emit. */
DFC_HIDDEN void dfc__plan_resolve(dfc_plan *plan);

/* Step 4: the structural and the refresh batch, in the context's output buffers, sized
 * from the counts dfc__plan_resolve left (one pass over the items writes them). */
DFC_HIDDEN int dfc__plan_emit(dfc_context *context, dfc_plan *plan, dfc_batch *structural, dfc_batch *refresh);

/* Step 4 when every section and item stayed where it was (same sections and items, same
 * order, same section sizes): no structural operation, and the refresh batch read off the
 * refresh bits of new_flags and item_flags, which must hold nothing else. The bounds are
 * the reload and reconfigure requests (duplicates included). Only the new side of the
 * plan is read. Complexity O(m/8 + s + r) for m items, s sections, r flagged items: the
 * item flags are skipped eight at a time, where the general path classifies every item
 * (dfc__plan_resolve) and writes the batches in a pass over the old and the new items. */
DFC_HIDDEN int dfc__plan_emit_refresh_only(dfc_context *context, const dfc_plan *plan, size_t reload_bound,
                                           size_t reconfigure_bound, dfc_batch *structural, dfc_batch *refresh);

#endif /* DFC_INTERNAL_H */
