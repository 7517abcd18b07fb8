/* XXH3-64 keys for byte identifiers (compiled inline: no -lxxhash needed). */
#include "dfc_internal.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

uint64_t dfc_hash_one(const void *bytes, size_t length, uint64_t seed) {
    if (bytes == NULL) {
        static const unsigned char empty = 0;
        bytes = &empty;
        length = 0;
    }
    return XXH3_64bits_withSeed(bytes, length, seed);
}

int dfc_hash_bytes(const void *bytes, const uint64_t *offsets, size_t count, uint64_t seed,
                   uint64_t *keys) {
    if (count == 0) return DFC_OK;
    if (offsets == NULL || keys == NULL) return DFC_ERR_NULL_ARGUMENT;
    if (count > DFC_MAX_COUNT) return DFC_ERR_TOO_LARGE;
    for (size_t i = 0; i < count; i++)
        if (offsets[i + 1] < offsets[i]) return DFC_ERR_INCONSISTENT;
    if (offsets[count] > offsets[0] && bytes == NULL) return DFC_ERR_NULL_ARGUMENT;
    if (dfc__byte_range_overflows(bytes, offsets[count])) return DFC_ERR_TOO_LARGE;
    const unsigned char *base = bytes;
    for (size_t i = 0; i < count; i++) {
        size_t length = (size_t)(offsets[i + 1] - offsets[i]);
        keys[i] = length == 0 ? XXH3_64bits_withSeed("", 0, seed)
                              : XXH3_64bits_withSeed(base + offsets[i], length, seed);
    }
    return DFC_OK;
}
