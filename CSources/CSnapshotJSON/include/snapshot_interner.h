/*
 * snapshot_interner.h: identifiers (byte strings) to dense numbers 0, 1, 2, ... in order of
 * first appearance, so that the diffable CLI diffs two large snapshot files as integers
 * instead of making a Swift String per item. Equal bytes get equal numbers; the caller
 * merges canonically equivalent Unicode spellings afterwards (only identifiers with a byte
 * >= 0x80 can have several, and the interner lists those).
 *
 * Complexity (n identifiers interned, u of them distinct, b their bytes):
 *     snapshot_interner_create / free     O(1) / O(1)
 *     snapshot_interner_intern_batch      O(bytes of the batch) expected, plus O(u) when it grows
 *     snapshot_interner_reserve           O(u + b) when it grows, else O(1)
 *     snapshot_interner_find              O(length) expected
 *     snapshot_interner_count, _string    O(1)
 *     snapshot_interner_non_ascii         O(1)
 * Memory: b + 8u bytes for the strings and their ends, 8 bytes per table entry (load <= 0.7).
 */
#ifndef SNAPSHOT_INTERNER_H
#define SNAPSHOT_INTERNER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct snapshot_interner snapshot_interner;

/* A byte string that is not NUL-terminated. */
typedef struct snapshot_string {
    const char *bytes;
    size_t length;
} snapshot_string;

/* snapshot_interner_find's answer when the string was never interned. */
#define SNAPSHOT_INTERNER_NOT_FOUND UINT32_MAX

/* A new, empty interner, or NULL when out of memory. Complexity: O(1). */
snapshot_interner *snapshot_interner_create(void);

/* Releases the interner; NULL is fine. Complexity: O(1) (frees three buffers). */
void snapshot_interner_free(snapshot_interner *interner);

/*
 * Writes the number of strings[i] to ids[i] for every i < count, giving the next number to
 * each string not seen before (an earlier element of the same batch included).
 * Returns 0, or -1 when out of memory or past 2^32 - 2 distinct strings; then ids are
 * unspecified and the interner still holds every string it numbered before.
 * Complexity: O(total length) expected: every hash is computed first, then each table line
 * is prefetched some strings ahead of its probe, so a large batch is not bound by latency.
 */
int snapshot_interner_intern_batch(snapshot_interner *interner, const snapshot_string *strings, size_t count,
                                   uint32_t *ids);

/*
 * Room for `strings` more strings of `bytes` bytes in all without moving what is stored (an
 * upper bound costs address space only: pages are touched as strings arrive). The table
 * still grows with the distinct strings. Returns 0, or -1 when out of memory.
 */
int snapshot_interner_reserve(snapshot_interner *interner, size_t strings, size_t bytes);

/* The number of `bytes[0..<length]`, or SNAPSHOT_INTERNER_NOT_FOUND. Complexity: O(length) expected. */
uint32_t snapshot_interner_find(const snapshot_interner *interner, const char *bytes, size_t length);

/* How many distinct strings were interned. Complexity: O(1). */
size_t snapshot_interner_count(const snapshot_interner *interner);

/* The bytes of number `id` (< count), valid until the next intern call. Complexity: O(1). */
snapshot_string snapshot_interner_string(const snapshot_interner *interner, uint32_t id);

/* The numbers of the strings holding a byte >= 0x80, ascending; *count receives how many.
 * Valid until the next intern call. Complexity: O(1). */
const uint32_t *snapshot_interner_non_ascii(const snapshot_interner *interner, size_t *count);

#ifdef __cplusplus
}
#endif

#endif
