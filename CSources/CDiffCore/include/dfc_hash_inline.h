/* The 16-byte key as a static inline function, for code built together with the core (the
 * Swift layer keys one UUID at a time: an app's value keyed by its `id`, a lookup by UUID).
 * Not installed with dfc.h: it needs xxhash.h, which libdfc's users do not. */
#ifndef DFC_HASH_INLINE_H
#define DFC_HASH_INLINE_H

#include <stdint.h>

#ifndef XXH_INLINE_ALL
#define XXH_INLINE_ALL
#endif
#include <xxhash.h>

/**
 * @brief XXH3-64 of the 16 bytes at `bytes` (non-NULL): the body of dfc_hash_16, inlined
 * where it is called, so that a caller keying one UUID pays neither the call nor its NULL check.
 * @return the key, equal to dfc_hash_16(bytes, seed). Complexity O(1). Thread-safe.
 */
static inline uint64_t dfc_hash_16_inline(const void *bytes, uint64_t seed) {
    return XXH3_64bits_withSeed(bytes, 16, seed);
}

#endif
