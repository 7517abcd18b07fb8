/*
 * dfc.h — the Diffable C core: identifier keys, identifier tables, longest
 * increasing subsequence and list diffing over flat arrays.
 *
 * This is the only public header of CDiffCore. Every exported symbol starts
 * with `dfc_`, every macro with `DFC_`. The core is plain C11, has no global
 * mutable state and needs only libc and the xxhash.h header (XXH3 is compiled
 * inline, so no -lxxhash is needed at link time).
 *
 * Overview
 * --------
 * Identifiers are reduced to 64-bit keys:
 *   - byte identifiers (NFC UTF-8 strings, raw bytes): XXH3-64 of the bytes,
 *     seed 0 being the canonical, cross-language seed (dfc_hash_bytes);
 *   - 64-bit integers: the integer itself, which is injective;
 *   - anything else: a host-language hash value.
 * Hashed keys can collide, so a key match between two identifiers is only a
 * candidate: the core confirms it by comparing the identifiers' bytes (when it
 * was given them) or by asking the caller (dfc_match.equal). Two different
 * identifiers are never matched.
 *
 * A dfc_context owns every scratch buffer and every output array. Create one,
 * reuse it for many diffs (one per thread), free it at the end. Its buffers
 * only grow: after dfc_context_reserve, a flat diff up to the reserved sizes
 * allocates nothing; otherwise each call grows what it needs, and one that
 * needs no more room than earlier calls allocates nothing.
 * Outputs (result structs) point into the context and stay valid until the
 * next call that takes the same context, or until it is reset or freed.
 *
 * Complete example (flat lists of integer identifiers):
 *
 *     #include <dfc.h>
 *     #include <stdio.h>
 *
 *     int main(void) {
 *         uint64_t old_keys[] = {1, 2, 3, 4};
 *         uint64_t new_keys[] = {2, 3, 4, 1, 5};
 *         dfc_list old_list = { old_keys, 4, NULL, NULL };
 *         dfc_list new_list = { new_keys, 5, NULL, NULL };
 *         dfc_match match = { DFC_MATCH_INJECTIVE, NULL, NULL };
 *         dfc_flat_result result;
 *         dfc_context *ctx = dfc_context_create(NULL);
 *         if (ctx == NULL) return 1;
 *         int status = dfc_diff_flat(ctx, &old_list, &new_list, &match, 0, &result);
 *         if (status != DFC_OK) {
 *             fprintf(stderr, "diff failed: %s\n", dfc_status_string(status));
 *         } else {
 *             for (size_t i = 0; i < result.move_count; i++)   // prints "move 0 -> 3"
 *                 printf("move %u -> %u\n", result.move_from[i], result.move_to[i]);
 *             for (size_t i = 0; i < result.insert_count; i++) // prints "insert 4"
 *                 printf("insert %u\n", result.inserts[i]);
 *         }
 *         dfc_context_free(ctx);
 *         return status == DFC_OK ? 0 : 1;
 *     }
 *
 * Complexity of every public function. n, m = old and new element counts
 * (items, in a sectioned diff); s = old + new section count; r = refresh
 * requests; k = matched elements left after trimming the common prefix and
 * suffix; c = a table's slot count (a power of two, 2 to 4 slots per entry,
 * at least 16). "Expected" assumes keys that spread: colliding keys cost
 * extra probes, and confirming a key match with DFC_MATCH_BYTES also reads
 * the two identifiers' bytes (DFC_MATCH_CALLBACK: one call).
 *
 *     dfc_version                   O(1)
 *     dfc_version_string            O(1)
 *     dfc_status_string             O(1)
 *     dfc_default_allocator         O(1)
 *     dfc_context_create            O(1)
 *     dfc_context_free              O(1) (one release per buffer, a fixed number)
 *     dfc_context_reset             O(1)
 *     dfc_context_shrink            O(1) (one release per buffer)
 *     dfc_context_reserve           O(1) besides the allocator; O(n + m) memory
 *     dfc_context_sizeof            O(1)
 *     dfc_context_allocation_count  O(1)
 *     dfc_context_duplicates        O(1)
 *     dfc_hash_one                  O(length)
 *     dfc_hash_16                   O(1)
 *     dfc_hash_strided              O(count * size)
 *     dfc_hash_bytes                O(count + bytes hashed)
 *     dfc_hash_if_nfc               O(length)
 *     dfc_hash_if_nfc_many          O(count + bytes checked and hashed)
 *     dfc_idtable_create            O(1)
 *     dfc_idtable_copy              O(c)
 *     dfc_idtable_free              O(1)
 *     dfc_idtable_clear             O(c)
 *     dfc_idtable_reserve           O(count + key_count) when it grows, O(1) otherwise
 *     dfc_idtable_insert            O(1) expected
 *     dfc_idtable_insert_batch      O(count) expected
 *     dfc_idtable_insert_batch_confirmed O(count) expected
 *     dfc_idtable_find              O(1) expected per call, O(c) at worst
 *     dfc_idtable_remove            O(1) expected
 *     dfc_idtable_update            O(1) expected
 *     dfc_idtable_prefetch          O(1)
 *     dfc_idtable_count             O(1)
 *     dfc_idtable_room              O(1)
 *     dfc_idtable_sizeof            O(1)
 *     dfc_lis                       O(count log count) time, O(count) memory
 *     dfc_diff_flat                 O(n + m) expected + O(k log k); O(n + m)
 *                                   memory in the context
 *     dfc_batch_steps               O(s + k log k + r log r); k = the batch's
 *                                   operations, r = rows of the sections items
 *                                   move into or out of; O(s + k + r) memory
 *     dfc_flat_steps                O(k log k + r), as dfc_batch_steps with one
 *                                   section (r = n when anything moves)
 *     dfc_diff_sections             O(n + m + s + r) expected
 *                                   + O(k log k + s log s); O(n + m + s)
 *                                   memory in the context
 *     dfc_diff_sections_deciding    as dfc_diff_sections, + one call of the
 *                                   decider and O(m) to read its marks
 *
 * Thread safety: functions touching a context or table must not run
 * concurrently on the same object; distinct objects are independent. The
 * pure functions (dfc_hash_*, dfc_status_string) are always thread-safe.
 *
 * Sizes: every count is limited to DFC_MAX_COUNT (INT32_MAX) elements; a
 * larger count, or byte offsets that no object can span, is rejected with
 * DFC_ERR_TOO_LARGE before anything is allocated. Every pointer argument that
 * may address `count` elements may be NULL only when that count is 0. What
 * each function promises for NULL, zero, oversized and overflowing arguments
 * and for a failing allocator is tabled in CSources/CDiffCore/README.md.
 */
#ifndef DFC_H
#define DFC_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__clang__)
#define DFC_NONNULL _Nonnull
#define DFC_NULLABLE _Nullable
#else
#define DFC_NONNULL
#define DFC_NULLABLE
#endif

/*
 * Version. Compare dfc_version() (the library actually linked) with
 * DFC_VERSION_NUMBER (the header compiled against) to catch a mismatched
 * libdfc.so. Before 1.0 a minor release may change the ABI, so the shared
 * library's soname carries major and minor: libdfc.so.0.5.
 */
#define DFC_VERSION_MAJOR 0
#define DFC_VERSION_MINOR 5
#define DFC_VERSION_RELEASE 0
/** MAJOR * 10000 + MINOR * 100 + RELEASE: 0.5.0 is 500. */
#define DFC_VERSION_NUMBER (DFC_VERSION_MAJOR * 100 * 100 + DFC_VERSION_MINOR * 100 + DFC_VERSION_RELEASE)
#define DFC_QUOTE(text) #text
#define DFC_EXPAND_AND_QUOTE(text) DFC_QUOTE(text)
/** "MAJOR.MINOR.RELEASE", e.g. "0.5.0". */
#define DFC_VERSION_STRING DFC_EXPAND_AND_QUOTE(DFC_VERSION_MAJOR.DFC_VERSION_MINOR.DFC_VERSION_RELEASE)

/** Largest element count any entry point accepts (indices are 32-bit). */
#define DFC_MAX_COUNT ((size_t)INT32_MAX)

/** Marks "no index" in the old<->new maps. */
#define DFC_NOT_FOUND (-1)

/*
 * Status codes. The numbers are fixed forever: a retired code is never
 * reused. 0 is success; every error is positive.
 */
enum {
    DFC_OK = 0,
    DFC_ERR_NULL_ARGUMENT = 1,   /**< a required pointer was NULL */
    DFC_ERR_TOO_LARGE = 2,       /**< a count above DFC_MAX_COUNT, or size overflow */
    DFC_ERR_OUT_OF_MEMORY = 3,   /**< the allocator returned NULL */
    DFC_ERR_DUPLICATE = 4,       /**< an identifier occurs twice; see dfc_context_duplicates */
    DFC_ERR_INVALID_ARGUMENT = 5, /**< an enum or flag value is out of range */
    DFC_ERR_INCONSISTENT = 6,    /**< arrays disagree (e.g. section starts not ascending) */
    DFC_ERR_UNKNOWN_IDENTIFIER = 7, /**< an index names no element of its list */
    DFC_ERR_NO_ROOM = 8,         /**< a table is full: dfc_idtable_reserve first */
    DFC_ERR_SHARED_KEY = 9       /**< DFC_MATCH_DEFERRED: one list's elements share a key the matching must tell apart */
};

/**
 * @brief A readable name for a status code ("DFC_ERR_DUPLICATE: ...").
 * @return a static string; never NULL (unknown codes give a generic text).
 * Complexity O(1). Thread-safe.
 */
const char *DFC_NONNULL dfc_status_string(int status);

/**
 * @brief The version of the library linked: DFC_VERSION_NUMBER as it was
 * when the library was built. Complexity O(1). Thread-safe.
 */
unsigned dfc_version(void);

/**
 * @brief The version of the library linked as text: DFC_VERSION_STRING as
 * it was when the library was built. @return a static string; never NULL.
 * Complexity O(1). Thread-safe.
 */
const char *DFC_NONNULL dfc_version_string(void);

/* ------------------------------------------------------------------------ */
/* Allocation                                                               */
/* ------------------------------------------------------------------------ */

/**
 * A caller-supplied allocator. `allocate` returns NULL on failure; `release`
 * accepts NULL. Both receive `user_data`. Pass NULL wherever a
 * `const dfc_allocator *` is taken to use malloc/free.
 */
typedef struct dfc_allocator {
    void *DFC_NULLABLE (*DFC_NONNULL allocate)(void *DFC_NULLABLE user_data, size_t size);
    void (*DFC_NONNULL release)(void *DFC_NULLABLE user_data, void *DFC_NULLABLE pointer);
    void *DFC_NULLABLE user_data;
} dfc_allocator;

/**
 * @brief The allocator used where NULL is passed: malloc/free, except that a
 * block of 8 MiB or more goes on 2 MiB-aligned memory advised for huge pages
 * (Linux, madvise MADV_HUGEPAGE), since identifier tables are probed at
 * random and 4 KiB pages would miss the TLB on nearly every probe. Callers
 * that manage their own large tables (an allocator hook, a parser's intern
 * table) allocate through it so that one policy holds everywhere.
 * @return a static allocator; never NULL. Its `release` is free().
 * Complexity O(1); each allocation O(1) besides the system allocator.
 * Thread-safe.
 */
const dfc_allocator *DFC_NONNULL dfc_default_allocator(void);

/* ------------------------------------------------------------------------ */
/* Context                                                                  */
/* ------------------------------------------------------------------------ */

/** Opaque reusable workspace; owns scratch memory and result arrays. */
typedef struct dfc_context dfc_context;

/**
 * @brief Creates a context.
 * @param allocator NULL for malloc/free; otherwise copied into the context.
 * @return the context, or NULL when allocation fails.
 * Complexity O(1). The caller owns the context and frees it with
 * dfc_context_free.
 */
dfc_context *DFC_NULLABLE dfc_context_create(const dfc_allocator *DFC_NULLABLE allocator);

/**
 * @brief Frees a context and everything it owns. NULL is a no-op.
 * Complexity O(1) (one release per buffer).
 */
void dfc_context_free(dfc_context *DFC_NULLABLE context);

/**
 * @brief Forgets the last result but keeps every buffer's capacity.
 * Results previously returned become invalid. NULL is a no-op.
 * Complexity O(1).
 */
void dfc_context_reset(dfc_context *DFC_NULLABLE context);

/**
 * @brief Releases every buffer (capacity goes back to zero).
 * Results previously returned become invalid. NULL is a no-op.
 * Complexity O(1) (one release per buffer, a fixed number).
 */
void dfc_context_shrink(dfc_context *DFC_NULLABLE context);

/**
 * @brief Grows the buffers so that every dfc_diff_flat of up to `old_count`
 * old and `new_count` new elements allocates nothing, whatever the lists hold
 * (nothing in common, a full shuffle, one list empty, colliding keys) and
 * whatever the flags and match kind. Only a diff that finds duplicates may
 * still allocate, to grow the list dfc_context_duplicates returns.
 * dfc_diff_sections is not covered: its buffers depend on the section counts
 * too, and it grows them as it needs.
 * @return DFC_OK; DFC_ERR_NULL_ARGUMENT; DFC_ERR_TOO_LARGE;
 *         DFC_ERR_OUT_OF_MEMORY (capacity is then unchanged or larger).
 * Complexity O(1) besides the allocator (buffers are not cleared);
 * O(old_count + new_count) memory (every step's worst case is set aside at
 * once; bytes per element: docs/PERFORMANCE.md).
 */
int dfc_context_reserve(dfc_context *DFC_NULLABLE context, size_t old_count, size_t new_count);

/**
 * @brief Bytes currently held by the context (struct plus buffers).
 * @return 0 for NULL. Complexity O(1).
 */
size_t dfc_context_sizeof(const dfc_context *DFC_NULLABLE context);

/**
 * @brief Number of allocations the context has made since it was created.
 * Benchmarks and tests use it to prove that a warm context allocates
 * nothing. @return 0 for NULL. Complexity O(1).
 */
uint64_t dfc_context_allocation_count(const dfc_context *DFC_NULLABLE context);

/* ------------------------------------------------------------------------ */
/* Keys                                                                     */
/* ------------------------------------------------------------------------ */

/**
 * @brief XXH3-64 of one byte string.
 * @pre `bytes` may be NULL only if `length` is 0 (NULL hashes as the empty
 *      string whatever `length` says, so it never reads through NULL).
 * @return the key (XXH3_64bits_withSeed). Complexity O(length). Thread-safe.
 */
uint64_t dfc_hash_one(const void *DFC_NULLABLE bytes, size_t length, uint64_t seed);

/**
 * @brief XXH3-64 of 16 bytes (a UUID): dfc_hash_one(bytes, 16, seed), with XXH3's 16-byte
 * path inlined, for callers that key one UUID at a time (a length dispatch and a call
 * cost about as much again as the hash).
 * @return the key; for NULL, the empty string's key (as dfc_hash_one). Complexity O(1).
 * Thread-safe.
 */
uint64_t dfc_hash_16(const void *DFC_NULLABLE bytes, uint64_t seed);

/**
 * @brief XXH3-64 keys of `count` byte identifiers held in one buffer.
 * Identifier i is bytes[offsets[i] ..< offsets[i + 1]].
 * @param offsets `count + 1` ascending offsets; may be NULL only if count is 0.
 * @param keys    receives `count` keys; may be NULL only if count is 0.
 * @return DFC_OK; DFC_ERR_NULL_ARGUMENT; DFC_ERR_TOO_LARGE (count, or
 *         offsets[count] beyond what one object can span); DFC_ERR_INCONSISTENT
 *         (offsets not ascending). On error `keys` is untouched.
 * Complexity O(count + offsets[count] - offsets[0]), the bytes hashed.
 * Thread-safe; allocates nothing.
 */
int dfc_hash_bytes(const void *DFC_NULLABLE bytes, const uint64_t *DFC_NULLABLE offsets,
                   size_t count, uint64_t seed, uint64_t *DFC_NULLABLE keys);

/**
 * @brief XXH3-64 keys of `count` identifiers of `size` bytes each, `stride`
 * bytes apart (an array of fixed-size values: UUIDs are 16 bytes at a stride
 * of 16). Identifier i is bytes[i * stride ..< i * stride + size]; each key is
 * what dfc_hash_one gives those bytes. Hashing the whole array in one call
 * lets a fixed size the compiler knows (8, 16) take XXH3's short path inline.
 * @param bytes may be NULL only if count is 0.
 * @param keys  receives `count` keys; may be NULL only if count is 0.
 * @return DFC_OK; DFC_ERR_NULL_ARGUMENT; DFC_ERR_TOO_LARGE (count above
 *         DFC_MAX_COUNT, or the span beyond what one object can hold);
 *         DFC_ERR_INVALID_ARGUMENT (`size` greater than `stride`). On error
 *         `keys` is untouched.
 * Complexity O(count * size). Thread-safe; allocates nothing.
 */
int dfc_hash_strided(const void *DFC_NULLABLE bytes, size_t size, size_t stride, size_t count, uint64_t seed,
                     uint64_t *DFC_NULLABLE keys);

/**
 * @brief The canonical key of a UTF-8 string whose bytes are certainly in
 * Unicode Normalization Form C, decided by a quick check without normalizing.
 *
 * String identifiers are keyed by XXH3-64 of their NFC UTF-8 (so canonically
 * equivalent strings share a key). Most strings are NFC already; this function
 * recognises them in one pass — eight ASCII bytes at a time, then code points
 * from ranges whose every character is NFC, has canonical combining class 0 and
 * never composes with a preceding character (U+0000–U+02FF, Cyrillic, Hebrew and
 * Arabic letters, kana, CJK ideographs, Hangul syllables, full-width forms,
 * common punctuation and emoji) — and hashes them in place.
 *
 * @param key receives XXH3_64bits_withSeed(bytes, length, seed) when the
 *            function returns 1; untouched otherwise. May not be NULL.
 * @return 1 when the bytes are valid UTF-8 made only of such code points (the
 *         string is its own NFC form, and *key is its canonical key); 0 when the
 *         caller must normalize to NFC and hash with dfc_hash_one (other code
 *         points, invalid UTF-8, or a NULL argument with a non-zero length).
 * Complexity O(length). Thread-safe; allocates nothing.
 */
int dfc_hash_if_nfc(const void *DFC_NULLABLE bytes, size_t length, uint64_t seed, uint64_t *DFC_NULLABLE key);

/**
 * @brief dfc_hash_if_nfc for many strings in one call: the keys of those the
 * quick check finds in NFC, and the positions of the others.
 *
 * String i is the `lengths[i]` bytes at `starts[i]`; the strings need not be in
 * one buffer (a caller passes each string's own storage, read in place). Each is
 * decided and keyed exactly as dfc_hash_if_nfc decides and keys it; all-ASCII
 * strings are recognised a word at a time without decoding.
 *
 * @param starts   `count` pointers; starts[i] may be NULL when lengths[i] is 0
 *                 (the empty string), and a NULL with a length is reported
 *                 unhashed. May be NULL only if count is 0.
 * @param lengths  `count` byte lengths. May be NULL only if count is 0.
 * @param keys     receives keys[i] = XXH3_64bits_withSeed(starts[i], lengths[i],
 *                 seed) for every string found in NFC; the others' slots are
 *                 untouched. May be NULL only if count is 0.
 * @param unhashed receives, ascending, the indices of the strings not found in
 *                 NFC, which the caller normalizes and hashes (dfc_hash_one); room
 *                 for `count`. May be NULL only if count is 0.
 * @param unhashed_count receives how many indices `unhashed` holds (0 on error).
 * @return DFC_OK; DFC_ERR_NULL_ARGUMENT (unhashed_count, or an array when count
 *         > 0); DFC_ERR_TOO_LARGE (count > DFC_MAX_COUNT). On error `keys` and
 *         `unhashed` are untouched.
 * Complexity O(count + the bytes checked and hashed). Thread-safe; allocates nothing.
 */
int dfc_hash_if_nfc_many(const void *DFC_NULLABLE const *DFC_NULLABLE starts, const size_t *DFC_NULLABLE lengths,
                         size_t count, uint64_t seed, uint64_t *DFC_NULLABLE keys, size_t *DFC_NULLABLE unhashed,
                         size_t *DFC_NULLABLE unhashed_count);

/* ------------------------------------------------------------------------ */
/* Lists and identity                                                       */
/* ------------------------------------------------------------------------ */

/**
 * An ordered list of identifiers given by their keys. When the identifiers
 * are byte strings, `bytes` + `offsets` (count + 1 ascending offsets) let the
 * core confirm key matches itself (DFC_MATCH_BYTES); otherwise both are NULL.
 */
typedef struct dfc_list {
    const uint64_t *DFC_NULLABLE keys;
    size_t count;
    const void *DFC_NULLABLE bytes;
    const uint64_t *DFC_NULLABLE offsets;
} dfc_list;

/** Which list an index refers to, in equality callbacks and reports. */
enum { DFC_SIDE_OLD = 0, DFC_SIDE_NEW = 1 };

/** How a key match is confirmed. */
enum {
    DFC_MATCH_INJECTIVE = 0, /**< keys are the identifiers (integers): no check */
    DFC_MATCH_BYTES = 1,     /**< compare the lists' bytes */
    DFC_MATCH_CALLBACK = 2,  /**< ask dfc_match.equal */
    DFC_MATCH_DEFERRED = 3   /**< keys decide; the caller confirms every match afterwards */
};

/*
 * DFC_MATCH_DEFERRED is for callers whose keys are hashes and whose equality is
 * cheap in bulk but dear through a callback (a call per key match). Keys decide
 * as with DFC_MATCH_INJECTIVE; the caller then checks each matched pair (the
 * result's maps) with its own equality and, if a pair differs (two identifiers
 * with one key), diffs again with DFC_MATCH_CALLBACK. With
 * DFC_DIFF_ASSUME_UNIQUE, when two elements of one list share a key and two
 * elements of the other list both find the first one, the maps could not be a
 * matching at all: the diff stops with DFC_ERR_SHARED_KEY, for the caller to
 * diff again confirming. Without it (a validated diff) the diff stops with
 * DFC_ERR_SHARED_KEY whenever one list holds two equal keys: keys alone cannot
 * tell a repeated identifier from two that share a key, so the caller finds out
 * (and reports the repeats) before diffing again; no DFC_ERR_DUPLICATE then.
 * A result returned with DFC_OK is always a matching, whatever keys repeat:
 * new_to_old and old_to_new are each other's inverse (no old element has two
 * partners), so the caller checks each pair once, from either map. A result
 * whose every matched pair the caller finds equal is the result DFC_MATCH_CALLBACK
 * gives: identifiers are unique, so every element's partner is decided by
 * identity, and no element is left unmatched while an equal one is free (its key
 * would have found it, or found a different identifier the check rejects).
 */

/**
 * Equality callback: nonzero when element `a_index` of list `a_side` equals
 * element `b_index` of list `b_side` (sides are DFC_SIDE_OLD/NEW). Called only
 * for elements whose keys are equal. Must not call back into the context.
 */
typedef int (*dfc_equal_fn)(void *DFC_NULLABLE user_data, int a_side, uint32_t a_index,
                            int b_side, uint32_t b_index);

/** The identity policy of one diff. */
typedef struct dfc_match {
    int kind;                          /**< DFC_MATCH_* */
    dfc_equal_fn DFC_NULLABLE equal;   /**< required for DFC_MATCH_CALLBACK */
    void *DFC_NULLABLE user_data;
} dfc_match;

/** One duplicate: element `duplicate` equals the earlier element `first`. */
typedef struct dfc_duplicate {
    int side;          /**< DFC_SIDE_OLD or DFC_SIDE_NEW */
    int is_section;    /**< 1 for a section identifier (sectioned diffs) */
    uint32_t first;    /**< index of the first occurrence */
    uint32_t duplicate;/**< index of the later occurrence */
} dfc_duplicate;

/**
 * @brief Every duplicate found by the last diff on the context, when it
 * returned DFC_ERR_DUPLICATE, in the order they were found (ascending
 * `duplicate` per list, old list first). After a diff that returned anything
 * else (out of memory while listing them included), there is none.
 * @param count receives the number of entries (0 for NULL context).
 * @return borrowed array valid until the next call on the context; NULL when
 *         there is none. Complexity O(1).
 */
const dfc_duplicate *DFC_NULLABLE dfc_context_duplicates(const dfc_context *DFC_NULLABLE context,
                                                          size_t *DFC_NULLABLE count);

/* ------------------------------------------------------------------------ */
/* Identifier table                                                         */
/* ------------------------------------------------------------------------ */

/**
 * Open-addressing table (linear probing, power-of-two 4-byte slots, load <= 3/4)
 * from 64-bit keys to 32-bit values, for a caller that keeps each entry's key
 * itself, in an array indexed by value (as a snapshot keeps its identifiers'
 * keys by slot). A slot holds the value and a fingerprint of the key, not the
 * key: dfc_idtable_find returns *candidates*, every entry whose key shares the
 * fingerprint, and the caller confirms each one against its own key (and
 * identifier). The fingerprint has 32 - log2(slots) bits (11 for a table of
 * 10^6 entries, 8 for 10^7), so about one probe in 2,000 (in 256) shows the
 * caller an extra candidate. Several entries may also share a key (hash
 * collisions between different identifiers). 4 bytes a slot: 5.3 to 10.7
 * bytes an entry, up to 21.3 in a table of at most 65,536 slots (one that
 * must grow then quadruples, rather than doubles).
 *
 * The caller's keys are how the table grows: dfc_idtable_reserve rehashes every
 * entry from keys[value], and inserts never grow the table (they return
 * DFC_ERR_NO_ROOM when it is full), so reserve before inserting. Give every
 * entry its own value, below the count last reserved (positions in your key
 * array are): the table tells entries with the same key apart by value.
 * A removed entry leaves a mark that the next growing reserve clears.
 */
typedef struct dfc_idtable dfc_idtable;

/**
 * @brief Creates an empty table. @return NULL when allocation fails.
 * Complexity O(1).
 */
dfc_idtable *DFC_NULLABLE dfc_idtable_create(const dfc_allocator *DFC_NULLABLE allocator);

/**
 * @brief A copy of `table` (same entries, same capacity) made with `allocator`
 * (NULL: malloc/free). @return NULL for a NULL table or when allocation fails.
 * Complexity O(capacity).
 */
dfc_idtable *DFC_NULLABLE dfc_idtable_copy(const dfc_idtable *DFC_NULLABLE table,
                                           const dfc_allocator *DFC_NULLABLE allocator);

/** @brief Frees the table; NULL is a no-op. Complexity O(1). */
void dfc_idtable_free(dfc_idtable *DFC_NULLABLE table);

/** @brief Removes every entry, keeping capacity. Complexity O(capacity). */
void dfc_idtable_clear(dfc_idtable *DFC_NULLABLE table);

/**
 * @brief Ensures that `count` entries in all fit, and values below `count` and
 * below `key_count`, so that inserts up to it return DFC_OK. When the table has to
 * grow (or clear the marks removals left), it rebuilds from the caller's keys.
 * @param keys      the key of every entry the table holds, keys[value] (NULL
 *                  allowed while the table is empty).
 * @param key_count the length of `keys`: every entry's value must be below it.
 *                  When it equals the entry count, the values must be exactly
 *                  0 ..< key_count (as they are for an array filled in order), and
 *                  the rebuild reads `keys` in order instead of the table's slots.
 * @return DFC_OK; DFC_ERR_NULL_ARGUMENT (table, or keys of a non-empty table);
 *         DFC_ERR_TOO_LARGE (count or key_count above DFC_MAX_COUNT);
 *         DFC_ERR_INCONSISTENT (when it grows: an entry's value is not below
 *         key_count, found before anything is allocated);
 *         DFC_ERR_OUT_OF_MEMORY. On any error the table is unchanged.
 * Complexity O(count + key_count) when the table grows, O(1) otherwise.
 */
int dfc_idtable_reserve(dfc_idtable *DFC_NULLABLE table, size_t count, const uint64_t *DFC_NULLABLE keys,
                        size_t key_count);

/**
 * @brief Adds (key -> value). Does not look for an existing equal
 * identifier: callers check with dfc_idtable_find first. Never grows the table.
 * @return DFC_OK; DFC_ERR_NULL_ARGUMENT; DFC_ERR_NO_ROOM (the table is full:
 *         reserve first); DFC_ERR_TOO_LARGE (a value too large for the table's
 *         slots: values below the count reserved always fit). Table unchanged
 *         on error. Complexity O(1) expected.
 */
int dfc_idtable_insert(dfc_idtable *DFC_NULLABLE table, uint64_t key, uint32_t value);

/**
 * @brief Inserts many new entries at once (never growing the table; reserve
 * first): keys[i] -> the next value from `first_value` on, for every key that has no entry in the table and does not
 * repeat an earlier key of the batch, as far as fingerprints tell. A key that
 * does (or merely shares an entry's fingerprint) is not inserted; its
 * `conflicts[i]` is set to 1 (otherwise 0) so the caller can decide (an existing
 * identifier, a repeat, or a collision to confirm and insert itself).
 * Values are consecutive over the inserted keys, in batch order.
 * @param conflicts `count` flags; may be NULL only if count is 0.
 * @param inserted  receives the number of entries inserted (may be NULL).
 * @return DFC_OK; DFC_ERR_NULL_ARGUMENT; DFC_ERR_TOO_LARGE (table or values
 *         would pass DFC_MAX_COUNT, or a value too large for the slots);
 *         DFC_ERR_NO_ROOM (fewer than `count` free entries: reserve first).
 *         Table unchanged on error.
 * Complexity O(count) expected (probes are prefetched).
 */
int dfc_idtable_insert_batch(dfc_idtable *DFC_NULLABLE table, const uint64_t *DFC_NULLABLE keys,
                             size_t count, uint32_t first_value, uint8_t *DFC_NULLABLE conflicts,
                             size_t *DFC_NULLABLE inserted);

/**
 * @brief dfc_idtable_insert_batch with every shared fingerprint checked against
 * the full keys: only a key equal to an entry's (or to an earlier key of the
 * batch) is a conflict. Keys that merely share a fingerprint are inserted, so
 * when no key repeats, keys[i] gets value first_value + i: a batch appended to a
 * snapshot keeps its slots in the order of its identifiers. (With fingerprints
 * alone, a key conflicted without cause about once per 10^4 keys entered at 10^4
 * entries, and hundreds of times per 10^5 at 10^6, and was placed after the rest.)
 * @param value_keys  the key of the entry with value v, for every v < known_count
 *                    (a snapshot's keys by slot); may be NULL only if known_count is 0.
 *                    known_count must not pass first_value. The batch's own entries are
 *                    confirmed against `keys` while no key of the batch has conflicted
 *                    yet; a match with any other entry is a conflict, as in
 *                    dfc_idtable_insert_batch. No entry may hold a value the batch gives
 *                    (every entry's value is its own, as for dfc_idtable_insert_batch).
 * @return as dfc_idtable_insert_batch, and DFC_ERR_INCONSISTENT (table unchanged) when
 *         known_count passes first_value.
 * Other parameters and results as dfc_idtable_insert_batch.
 * Complexity O(count) expected (probes are prefetched).
 */
int dfc_idtable_insert_batch_confirmed(dfc_idtable *DFC_NULLABLE table, const uint64_t *DFC_NULLABLE keys,
                                       size_t count, uint32_t first_value, const uint64_t *DFC_NULLABLE value_keys,
                                       size_t known_count, uint8_t *DFC_NULLABLE conflicts,
                                       size_t *DFC_NULLABLE inserted);

/**
 * @brief Finds the candidate entries for `key`, one per call: every entry with
 * the key, and the rare entry whose different key shares its fingerprint
 * (confirm each against the key you keep for that value).
 * @param cursor start with 0; the call advances it. Pass it back unchanged to
 *        get the next candidate.
 * @return the candidate's value, or DFC_NOT_FOUND when there is no (further)
 *         candidate (also for a NULL table or cursor).
 * Complexity O(1) expected per call, O(capacity) at worst.
 */
int64_t dfc_idtable_find(const dfc_idtable *DFC_NULLABLE table, uint64_t key,
                         size_t *DFC_NULLABLE cursor);

/**
 * @brief Removes the entry (key -> value) if present. The table tells entries
 * apart by value, so give every entry its own value (a position in your key
 * array, as a snapshot does).
 * @return 1 when removed, 0 when absent (or NULL table). Complexity O(1) expected.
 */
int dfc_idtable_remove(dfc_idtable *DFC_NULLABLE table, uint64_t key, uint32_t value);

/**
 * @brief Replaces the value of the entry (key -> old_value) by new_value
 * (entries told apart as dfc_idtable_remove says). Keep values distinct at
 * every step: when renumbering a run of entries, move the last first if the
 * values grow, the first first if they shrink.
 * @return 1 when found and changed, 0 otherwise (also for a new value too large
 * for the slots). Complexity O(1) expected.
 */
int dfc_idtable_update(dfc_idtable *DFC_NULLABLE table, uint64_t key, uint32_t old_value,
                       uint32_t new_value);

/**
 * @brief Asks the CPU to start loading the slot where a lookup of `key` begins, so a
 * find, remove or update of it a few calls later finds the slot cached. For batches
 * of random keys: prefetch key i + 16 while working on key i, and the table's cache
 * misses overlap instead of following one another. A hint only: the table is not
 * read or changed; a NULL or empty table is ignored. Complexity O(1).
 */
void dfc_idtable_prefetch(const dfc_idtable *DFC_NULLABLE table, uint64_t key);

/** @brief Number of entries; 0 for NULL. Complexity O(1). */
size_t dfc_idtable_count(const dfc_idtable *DFC_NULLABLE table);

/**
 * @brief How many entries can be inserted before the table needs a reserve: a reserve
 * of up to count + room entries (count: dfc_idtable_count) returns at once, without
 * reading its keys. A removal raises it only when its slot ends a run of
 * occupied slots (the slot, and the removal marks just before it, are emptied); any
 * other removal leaves a mark that holds its slot until a reserve rebuilds the table
 * (one asking for more than count + room). An insert may reuse a mark without
 * lowering the room, so the room is a lower bound on what fits.
 * 0 for NULL or a table never reserved. Complexity O(1).
 */
size_t dfc_idtable_room(const dfc_idtable *DFC_NULLABLE table);

/** @brief Bytes held by the table; 0 for NULL. Complexity O(1). */
size_t dfc_idtable_sizeof(const dfc_idtable *DFC_NULLABLE table);

/* ------------------------------------------------------------------------ */
/* Longest increasing subsequence                                           */
/* ------------------------------------------------------------------------ */

/**
 * @brief The LIS of `values` exactly as ALGORITHM.md specifies (patience
 * sorting; the first tail greater than the value is replaced; the chain is
 * walked back from the last tail).
 * @param values distinct integers; NULL only if count is 0.
 * @param keep   receives `count` flags: 1 when position j is on the LIS.
 * @param length receives the LIS length (may be NULL).
 * @return DFC_OK; DFC_ERR_NULL_ARGUMENT; DFC_ERR_TOO_LARGE;
 *         DFC_ERR_OUT_OF_MEMORY (keep untouched).
 * Complexity O(count log count) time, O(count) scratch in the context.
 */
int dfc_lis(dfc_context *DFC_NULLABLE context, const uint32_t *DFC_NULLABLE values, size_t count,
            uint8_t *DFC_NULLABLE keep, size_t *DFC_NULLABLE length);

/* ------------------------------------------------------------------------ */
/* Flat diff                                                                */
/* ------------------------------------------------------------------------ */

/** dfc_diff_flat flag: the caller guarantees both lists hold unique identifiers. */
#define DFC_DIFF_ASSUME_UNIQUE 1u
/**
 * dfc_diff_flat flag: the caller guarantees the old list holds unique identifiers (it was
 * the new list of a validated diff); only the new list is checked. When the matching
 * leaves few new elements unmatched, the check is a table of those few that every old
 * element is looked up in, instead of a table of both lists. With DFC_DIFF_ASSUME_UNIQUE
 * it changes nothing. If the old list does repeat an identifier (under DFC_MATCH_DEFERRED:
 * two old elements share a key), the result is unspecified, and a new identifier repeated
 * as often may go unreported, each copy matched to one of the old ones. Under
 * DFC_MATCH_DEFERRED a caller that confirms every matched pair still finds out when the
 * old elements were different identifiers under one key: one of those pairs differs.
 */
#define DFC_DIFF_ASSUME_OLD_UNIQUE 2u

/**
 * The result of a flat diff; every array is owned by the context.
 *   deletes      old indices not in the new list, ascending
 *   inserts      new indices not in the old list, ascending
 *   move_from/to matched elements off the LIS (old -> new), by ascending `to`;
 *                their number is matched - LIS, the fewest possible
 *   old_to_new   old_count entries, new index or DFC_NOT_FOUND
 *   new_to_old   new_count entries, old index or DFC_NOT_FOUND
 */
typedef struct dfc_flat_result {
    const uint32_t *DFC_NULLABLE deletes;
    size_t delete_count;
    const uint32_t *DFC_NULLABLE inserts;
    size_t insert_count;
    const uint32_t *DFC_NULLABLE move_from;
    const uint32_t *DFC_NULLABLE move_to;
    size_t move_count;
    const int32_t *DFC_NULLABLE old_to_new;
    const int32_t *DFC_NULLABLE new_to_old;
    size_t old_count;
    size_t new_count;
    size_t matched;        /**< elements present in both lists */
    size_t common_prefix;  /**< equal leading elements (trimmed before hashing) */
    size_t common_suffix;  /**< equal trailing elements */
} dfc_flat_result;

/**
 * @brief Diffs two flat lists of identifiers.
 * Equal leading and trailing elements are matched without hashing; the rest
 * is matched through an identifier table; moves are the matched elements
 * off the LIS of old indices in new order, so their number is minimal.
 * Without DFC_DIFF_ASSUME_UNIQUE every element of both lists is checked for
 * duplicates (of the new list only, with DFC_DIFF_ASSUME_OLD_UNIQUE).
 * @param flags 0, DFC_DIFF_ASSUME_UNIQUE or DFC_DIFF_ASSUME_OLD_UNIQUE.
 * @return DFC_OK (result filled); DFC_ERR_NULL_ARGUMENT; DFC_ERR_TOO_LARGE
 *         (a count, or byte offsets beyond what one object can span);
 *         DFC_ERR_INVALID_ARGUMENT (bad match kind, missing callback or
 *         bytes, unknown flag); DFC_ERR_INCONSISTENT (offsets);
 *         DFC_ERR_OUT_OF_MEMORY; DFC_ERR_DUPLICATE (see
 *         dfc_context_duplicates); DFC_ERR_SHARED_KEY (DFC_MATCH_DEFERRED only:
 *         two elements share a key). On error `result` is left untouched.
 * Complexity O(n + m) expected plus O(k log k) for the k matched elements
 * between the common prefix and suffix. Memory: O(n + m) in the context, least
 * for equal lists and most for a full shuffle (bytes per element:
 * docs/PERFORMANCE.md), reused by the next call.
 */
int dfc_diff_flat(dfc_context *DFC_NULLABLE context, const dfc_list *DFC_NULLABLE old_list,
                  const dfc_list *DFC_NULLABLE new_list, const dfc_match *DFC_NULLABLE match,
                  unsigned flags, dfc_flat_result *DFC_NULLABLE result);

/* ------------------------------------------------------------------------ */
/* Sectioned diff (two levels) and the batch plan                           */
/* ------------------------------------------------------------------------ */

/**
 * A snapshot as flat arrays: section identifiers, item identifiers in display
 * order, and `sections.count + 1` ascending `section_starts` (first 0, last
 * `items.count`): section s holds items [section_starts[s], section_starts[s + 1]).
 */
typedef struct dfc_snapshot {
    dfc_list sections;
    dfc_list items;
    const uint32_t *DFC_NULLABLE section_starts;
} dfc_snapshot;

/**
 * Refresh requests carried by the new snapshot: flat item indices and section
 * indices of the new snapshot. Repeats are allowed (they are merged).
 */
typedef struct dfc_refresh {
    const uint32_t *DFC_NULLABLE reload_items;
    size_t reload_item_count;
    const uint32_t *DFC_NULLABLE reconfigure_items;
    size_t reconfigure_item_count;
    const uint32_t *DFC_NULLABLE reload_sections;
    size_t reload_section_count;
} dfc_refresh;

/** An index path: (section, item). */
typedef struct dfc_index_path {
    uint32_t section;
    uint32_t item;
} dfc_index_path;

/**
 * One performBatchUpdates worth of operations, in UIKit's index spaces:
 * deletes, reloads and move sources in the old snapshot; inserts and move
 * targets in the new one (a refresh batch has only reloads/reconfigures, whose
 * old and new spaces coincide). Every list is ascending; moves by destination.
 */
typedef struct dfc_batch {
    const uint32_t *DFC_NULLABLE delete_sections;
    size_t delete_section_count;
    const uint32_t *DFC_NULLABLE insert_sections;
    size_t insert_section_count;
    const uint32_t *DFC_NULLABLE move_section_from;
    const uint32_t *DFC_NULLABLE move_section_to;
    size_t move_section_count;
    const uint32_t *DFC_NULLABLE reload_sections;
    size_t reload_section_count;
    const dfc_index_path *DFC_NULLABLE delete_items;
    size_t delete_item_count;
    const dfc_index_path *DFC_NULLABLE insert_items;
    size_t insert_item_count;
    const dfc_index_path *DFC_NULLABLE move_item_from;
    const dfc_index_path *DFC_NULLABLE move_item_to;
    size_t move_item_count;
    const dfc_index_path *DFC_NULLABLE reload_items;
    size_t reload_item_count;
    const dfc_index_path *DFC_NULLABLE reconfigure_items;
    size_t reconfigure_item_count;
} dfc_batch;

/**
 * The result of dfc_diff_sections; every array is owned by the context.
 * `structural` is the one valid structural batch (when has_structural), then
 * `refresh` holds reloads/reconfigures at final positions (when has_refresh).
 * The maps are flat (items) and by section index; DFC_NOT_FOUND where absent.
 */
typedef struct dfc_sections_result {
    int has_structural;
    int has_refresh;
    dfc_batch structural;
    dfc_batch refresh;
    const int32_t *DFC_NULLABLE old_item_to_new;
    const int32_t *DFC_NULLABLE new_item_to_old;
    const int32_t *DFC_NULLABLE old_section_to_new;
    const int32_t *DFC_NULLABLE new_section_to_old;
} dfc_sections_result;

/**
 * @brief Diffs two snapshots of sections and items (ALGORITHM.md steps 1-4).
 * Sections are matched and their moves found by LIS; items are matched across
 * the whole snapshot (cross-section moves) with a LIS per surviving section;
 * then the batch is made valid under UIKit's rules: a moved section touched by
 * any item operation becomes delete + insert, an item moving out of a deleted
 * section becomes an insert, into an inserted section a delete, and a
 * cross-section move whose raw old and new section indices are equal becomes
 * delete + insert. Reloads and reconfigures come in a second batch at final
 * positions.
 * @param refresh        may be NULL (no refresh requests).
 * @param section_match  identity policy of section identifiers.
 * @param item_match     identity policy of item identifiers.
 * @param flags          0, DFC_DIFF_ASSUME_UNIQUE or DFC_DIFF_ASSUME_OLD_UNIQUE
 *                       (as dfc_diff_flat, for both levels).
 * @return DFC_OK; DFC_ERR_NULL_ARGUMENT; DFC_ERR_TOO_LARGE;
 *         DFC_ERR_INVALID_ARGUMENT; DFC_ERR_INCONSISTENT (section starts);
 *         DFC_ERR_UNKNOWN_IDENTIFIER (a refresh index out of range);
 *         DFC_ERR_OUT_OF_MEMORY; DFC_ERR_DUPLICATE (see dfc_context_duplicates:
 *         sections are tagged is_section, item indices are flat);
 *         DFC_ERR_SHARED_KEY (as dfc_diff_flat). On error `result` is left untouched.
 * Complexity O(n + m + s + r) expected (n, m: old and new items; s: old and
 * new sections; r: refresh requests) plus O(k log k + s log s) for the LIS
 * of the k matched items and of the sections; the validity fixpoint takes at
 * most two passes. Memory O(n + m + s) in the context, reused by the next call.
 */
int dfc_diff_sections(dfc_context *DFC_NULLABLE context, const dfc_snapshot *DFC_NULLABLE old_snapshot,
                      const dfc_snapshot *DFC_NULLABLE new_snapshot, const dfc_refresh *DFC_NULLABLE refresh,
                      const dfc_match *DFC_NULLABLE section_match, const dfc_match *DFC_NULLABLE item_match,
                      unsigned flags, dfc_sections_result *DFC_NULLABLE result);

/** What a refresh decider may set in its marks (see dfc_refresh_decider). */
enum { DFC_REFRESH_RELOAD = 1, DFC_REFRESH_RECONFIGURE = 2 };

/**
 * Refresh requests decided once the items are matched, for a caller whose refresh
 * depends on the matching: a data source matching values by `id` refreshes the items
 * whose value changed behind a kept `id`, which it knows only once it knows each new
 * item's old partner. Called once by dfc_diff_sections_deciding, after both levels are
 * matched and before anything is planned, with the flat item maps (as the result gives
 * them: DFC_NOT_FOUND where unmatched) and `marks`, one zeroed byte per new item. It sets
 * marks[j] to DFC_REFRESH_RELOAD or DFC_REFRESH_RECONFIGURE (both: reload wins) for the
 * new items to refresh, which then join the `refresh` requests under the same rules
 * (ALGORITHM.md step 4: an item that arrives fresh, or inside a reloaded section, is not
 * listed). It returns DFC_OK, or any other status to stop the diff, which returns that
 * status (a caller that finds a key match it refuses stops here, before the planning).
 * It must not call back into the context; the maps and marks are valid during the call.
 */
typedef int (*dfc_refresh_decider)(void *DFC_NULLABLE user_data, const int32_t *DFC_NULLABLE new_item_to_old,
                                   size_t new_item_count, const int32_t *DFC_NULLABLE old_item_to_new,
                                   size_t old_item_count, uint8_t *DFC_NULLABLE marks);

/**
 * @brief dfc_diff_sections with refresh requests that `decide` adds once the items are
 * matched (see dfc_refresh_decider); `decide` NULL is dfc_diff_sections.
 * @return as dfc_diff_sections, plus whatever status `decide` returns other than DFC_OK,
 *         and DFC_ERR_INVALID_ARGUMENT when it sets a mark other than the two refresh
 *         bits. On error `result` is left untouched.
 * Complexity as dfc_diff_sections, plus one call of `decide` and O(m) to read its marks
 * (eight at a time).
 */
int dfc_diff_sections_deciding(dfc_context *DFC_NULLABLE context, const dfc_snapshot *DFC_NULLABLE old_snapshot,
                               const dfc_snapshot *DFC_NULLABLE new_snapshot,
                               const dfc_refresh *DFC_NULLABLE refresh, dfc_refresh_decider DFC_NULLABLE decide,
                               void *DFC_NULLABLE user_data, const dfc_match *DFC_NULLABLE section_match,
                               const dfc_match *DFC_NULLABLE item_match, unsigned flags,
                               dfc_sections_result *DFC_NULLABLE result);

/* ------------------------------------------------------------------------ */
/* Steps: a batch applied one change at a time                              */
/* ------------------------------------------------------------------------ */

/** What one step does (see dfc_step). */
typedef enum dfc_step_kind {
    DFC_STEP_DELETE_ITEM = 1,  /**< remove the row at `at` */
    DFC_STEP_DELETE_SECTION,   /**< remove section `at.section` with its rows */
    DFC_STEP_MOVE_SECTION,     /**< remove section `at.section`, insert it at `to.section` */
    DFC_STEP_INSERT_SECTION,   /**< insert the new state's section `at.section`, with its rows */
    DFC_STEP_MOVE_ITEM,        /**< remove the row at `at`, insert it at `to` */
    DFC_STEP_INSERT_ITEM,      /**< insert the new state's row at `at` */
    DFC_STEP_RELOAD_SECTION,   /**< replace section `at.section` and its rows */
    DFC_STEP_RELOAD_ITEM,      /**< replace the row at `at` with a fresh one */
    DFC_STEP_RECONFIGURE_ITEM  /**< update the row at `at` in place */
} dfc_step_kind;

/**
 * One change for a view that applies changes one at a time (a GListModel, a DOM
 * list, Android's ListUpdateCallback). Every index is valid in the state the
 * steps before it left; a move's `to` is an index in the state without the
 * moved element. Section steps name sections in `at.section` (and
 * `to.section`), their `item` fields are 0; every step but a move has
 * `to` equal to `at`.
 */
typedef struct dfc_step {
    uint32_t kind; /**< a dfc_step_kind */
    dfc_index_path at;
    dfc_index_path to;
} dfc_step;

/** Steps owned by the context, valid until the context's next steps call. */
typedef struct dfc_steps {
    const dfc_step *DFC_NULLABLE steps;
    size_t count;
} dfc_steps;

/**
 * @brief Lists a batch as steps, in the order ALGORITHM.md's "Steps" section
 * specifies: item deletes (last first), section deletes (last first), section
 * moves, section inserts (first first), item moves, item inserts (first
 * first), reconfigures. A batch of reloads and reconfigures only (a refresh
 * batch) gives its section reloads, item reloads and reconfigures, each
 * sorted. Repeats in a list are one request; item deletes inside deleted
 * sections and inserts inside inserted ones are dropped, as UIKit drops them.
 * The batch may be one of dfc_diff_sections' results (its arrays stay valid:
 * steps use buffers of their own).
 * @param old_counts rows of each old section (old_section_count entries);
 *                   for a refresh batch, the new counts.
 * @param new_counts rows of each new section.
 * @return DFC_OK (result filled); DFC_ERR_NULL_ARGUMENT; DFC_ERR_TOO_LARGE;
 *         DFC_ERR_INVALID_ARGUMENT (reloads in a structural batch: list each
 *         reloaded row or section as a delete plus an insert);
 *         DFC_ERR_INCONSISTENT (an index out of range, a section or row moved
 *         twice, to a taken place, out of a deleted or into an inserted
 *         section, or rows that do not add up in some section). On error
 *         `result` is left untouched.
 * Complexity O(s + k log k + r log r): s sections, k operations in the batch,
 * r old rows of the sections that items move into or out of. Memory O(s + k +
 * r) in the context, reused by the next call.
 */
int dfc_batch_steps(dfc_context *DFC_NULLABLE context, const dfc_batch *DFC_NULLABLE batch,
                    const uint32_t *DFC_NULLABLE old_counts, size_t old_section_count,
                    const uint32_t *DFC_NULLABLE new_counts, size_t new_section_count,
                    dfc_steps *DFC_NULLABLE result);

/**
 * @brief Lists a flat diff as steps (dfc_batch_steps with one section, every
 * index path in section 0): deletes (last first), moves, inserts (first first).
 * @return as dfc_batch_steps. The flat result may be the same context's.
 * Complexity O(k log k + r): k = deletes + inserts + moves, r = old_count when
 * anything moves. Memory O(k + r) in the context.
 */
int dfc_flat_steps(dfc_context *DFC_NULLABLE context, const dfc_flat_result *DFC_NULLABLE flat,
                   dfc_steps *DFC_NULLABLE result);

#ifdef __cplusplus
}
#endif

#endif /* DFC_H */
