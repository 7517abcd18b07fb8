/* XXH3-64 keys for byte identifiers (compiled inline: no -lxxhash needed). */
#include "dfc_internal.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "dfc_hash_inline.h"

uint64_t dfc_hash_one(const void *bytes, size_t length, uint64_t seed) {
    if (bytes == NULL) {
        static const unsigned char empty = 0;
        bytes = &empty;
        length = 0;
    }
    return XXH3_64bits_withSeed(bytes, length, seed);
}

uint64_t dfc_hash_16(const void *bytes, uint64_t seed) {
    if (bytes == NULL) return dfc_hash_one(NULL, 0, seed);
    return dfc_hash_16_inline(bytes, seed);
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

/* One loop per common size, so that XXH3's length dispatch folds away and its short path is inlined. */
#define DFC_HASH_EACH(fixed_size)                                                                  \
    for (size_t i = 0; i < count; i++) keys[i] = XXH3_64bits_withSeed(base + i * stride, (fixed_size), seed)

int dfc_hash_strided(const void *bytes, size_t size, size_t stride, size_t count, uint64_t seed, uint64_t *keys) {
    if (count == 0) return DFC_OK;
    if (bytes == NULL || keys == NULL) return DFC_ERR_NULL_ARGUMENT;
    if (count > DFC_MAX_COUNT) return DFC_ERR_TOO_LARGE;
    if (size > stride) return DFC_ERR_INVALID_ARGUMENT;
    /* The span read is (count - 1) * stride + size bytes (one identifier reads `size`, whatever the stride). */
    if ((count > 1 && stride > (SIZE_MAX - size) / (count - 1)) ||
        dfc__byte_range_overflows(bytes, (uint64_t)((count - 1) * stride + size)))
        return DFC_ERR_TOO_LARGE;
    const unsigned char *base = bytes;
    if (size == 16) DFC_HASH_EACH(16);
    else if (size == 8) DFC_HASH_EACH(8);
    else DFC_HASH_EACH(size);
    return DFC_OK;
}
#undef DFC_HASH_EACH

/* Code points that keep a string in NFC whatever surrounds them: NFC_QC=Yes,
 * canonical combining class 0, and never the second character of a canonical
 * composition (so no neighbour can compose with them or reorder around them).
 * Checked exhaustively against Unicode's data by Tests/python/test_nfc_quick_check.py.
 * Everything below U+0300 qualifies and is tested before this table. */
static const struct { uint32_t first, last; } nfc_stable_ranges[] = {
    {0x0400, 0x0482}, {0x048A, 0x052F}, /* Cyrillic, without its combining marks */
    {0x05D0, 0x05EA},                   /* Hebrew letters */
    {0x0620, 0x064A},                   /* Arabic letters */
    {0x2010, 0x2027},                   /* dashes, quotes, bullets, ellipsis */
    {0x20A0, 0x20BF},                   /* currency signs */
    {0x3000, 0x3029}, {0x3030, 0x303F}, /* CJK symbols and punctuation, without U+302A-U+302F (combining) */
    {0x3041, 0x3096}, {0x309B, 0x30FF}, /* kana, without the combining sound marks */
    {0x4E00, 0x9FFF},                   /* CJK unified ideographs */
    {0xAC00, 0xD7A3},                   /* Hangul syllables */
    {0xFE00, 0xFE0F},                   /* variation selectors */
    {0xFF01, 0xFF60},                   /* full-width forms */
    {0x1F300, 0x1F64F}, {0x1F900, 0x1F9FF}, /* emoji */
};

static bool is_nfc_stable(uint32_t code_point) {
    if (code_point < 0x0300) return true;
    for (size_t i = 0; i < sizeof nfc_stable_ranges / sizeof nfc_stable_ranges[0]; i++) {
        if (code_point < nfc_stable_ranges[i].first) return false;
        if (code_point <= nfc_stable_ranges[i].last) return true;
    }
    return false;
}

/* Decodes the well-formed UTF-8 sequence at *cursor (RFC 3629: no overlong forms,
 * no surrogates, nothing above U+10FFFF); false when it is not one. */
static bool decode_utf8(const unsigned char **cursor, const unsigned char *end, uint32_t *code_point) {
    const unsigned char *p = *cursor;
    unsigned lead = p[0];
    size_t extra;
    uint32_t value, minimum;
    if (lead >= 0xC2 && lead <= 0xDF) { extra = 1; value = lead & 0x1Fu; minimum = 0x80; }
    else if (lead >= 0xE0 && lead <= 0xEF) { extra = 2; value = lead & 0x0Fu; minimum = 0x800; }
    else if (lead >= 0xF0 && lead <= 0xF4) { extra = 3; value = lead & 0x07u; minimum = 0x10000; }
    else return false;
    if ((size_t)(end - p) <= extra) return false;
    for (size_t i = 1; i <= extra; i++) {
        if ((p[i] & 0xC0u) != 0x80u) return false;
        value = (value << 6) | (p[i] & 0x3Fu);
    }
    if (value < minimum || value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF)) return false;
    *cursor = p + extra + 1;
    *code_point = value;
    return true;
}

/* Whether the well-formed UTF-8 that remains after the ASCII prefix is made only of
 * NFC-stable code points (0 for invalid UTF-8 and any other code point). */
static bool rest_is_nfc_stable(const unsigned char *p, const unsigned char *end) {
    while (p < end) {
        if (*p < 0x80) { p++; continue; }
        uint32_t code_point;
        if (!decode_utf8(&p, end, &code_point) || !is_nfc_stable(code_point)) return false;
    }
    return true;
}

/* Whether all `length` bytes are ASCII: the bytes ORed together a word at a time, the
 * last word overlapping the one before it, so an identifier of 8 to 16 bytes costs two
 * loads and no loop. */
__attribute__((always_inline)) static inline bool is_ascii(const unsigned char *p, size_t length) {
    uint64_t any = 0, word;
    if (length >= 8) {
        const unsigned char *last = p + length - 8;
        if (length > 16) {
            for (; p < last; p += 8) {
                memcpy(&word, p, 8);
                any |= word;
            }
        } else {
            memcpy(&any, p, 8);
        }
        memcpy(&word, last, 8);
        any |= word;
    } else if (length >= 4) {
        uint32_t first, last;
        memcpy(&first, p, 4);
        memcpy(&last, p + length - 4, 4);
        any = first | last;
    } else if (length > 0) {
        any = (uint64_t)p[0] | p[length / 2] | p[length - 1]; /* every index of 1..3 bytes */
    }
    return (any & UINT64_C(0x8080808080808080)) == 0;
}

/* XXH3_64bits_withSeed, with its short-input cases inlined (identifiers are mostly
 * under 128 bytes): the same function of the bytes, without the call and dispatch. */
__attribute__((always_inline)) static inline uint64_t key_of(const unsigned char *bytes, size_t length, uint64_t seed) {
    if (length <= 16) return XXH3_len_0to16_64b(bytes, length, XXH3_kSecret, seed);
    if (length <= 128) return XXH3_len_17to128_64b(bytes, length, XXH3_kSecret, sizeof XXH3_kSecret, seed);
    return XXH3_64bits_withSeed(bytes, length, seed);
}

/* Whether the quick check finds the `length` bytes at `p` (length > 0) in NFC: all ASCII
 * (two loads for up to 16 bytes), or ASCII words and then only NFC-stable code points. */
__attribute__((always_inline)) static inline bool is_quick_nfc(const unsigned char *p, size_t length) {
    if (is_ascii(p, length)) return true;
    const unsigned char *end = p + length;
    while ((size_t)(end - p) >= 8) {
        uint64_t word;
        memcpy(&word, p, 8);
        if (word & UINT64_C(0x8080808080808080)) break;
        p += 8;
    }
    return rest_is_nfc_stable(p, end);
}

int dfc_hash_if_nfc(const void *bytes, size_t length, uint64_t seed, uint64_t *key) {
    if (key == NULL || (bytes == NULL && length != 0)) return 0;
    if (length == 0) {
        *key = key_of(NULL, 0, seed); /* reads no byte */
        return 1;
    }
    if (!is_quick_nfc(bytes, length)) return 0;
    *key = seed == 0 ? key_of(bytes, length, 0) : key_of(bytes, length, seed); /* seed 0 folded, as below */
    return 1;
}

/* dfc_hash_if_nfc_many's loop; inlined twice (forced: the compiler declines for a loop
 * this size), once with the canonical seed 0 as a constant, so that XXH3's
 * seed-dependent values fold away instead of being computed on every call. */
__attribute__((always_inline)) static inline size_t hash_if_nfc_batch(const void *const *starts, const size_t *lengths, size_t count, uint64_t seed,
                                       uint64_t *keys, size_t *unhashed) {
    size_t misses = 0;
    /* The strings may lie anywhere (each in its own allocation, cold when they are the few
     * a diff could not pair): their first lines are fetched together, so the misses overlap
     * instead of coming one after another (a prefetch of NULL is harmless). */
    for (size_t i = 0; i < count; i++) DFC_PREFETCH(starts[i]);
    for (size_t i = 0; i < count; i++) {
        const unsigned char *bytes = starts[i];
        size_t length = lengths[i];
        if (length == 0) {
            keys[i] = key_of(NULL, 0, seed); /* reads no byte */
        } else if (bytes != NULL && is_quick_nfc(bytes, length)) {
            keys[i] = key_of(bytes, length, seed);
        } else {
            unhashed[misses++] = i;
        }
    }
    return misses;
}

int dfc_hash_if_nfc_many(const void *const *starts, const size_t *lengths, size_t count, uint64_t seed,
                         uint64_t *keys, size_t *unhashed, size_t *unhashed_count) {
    if (unhashed_count == NULL) return DFC_ERR_NULL_ARGUMENT;
    *unhashed_count = 0;
    if (count == 0) return DFC_OK;
    if (starts == NULL || lengths == NULL || keys == NULL || unhashed == NULL) return DFC_ERR_NULL_ARGUMENT;
    if (count > DFC_MAX_COUNT) return DFC_ERR_TOO_LARGE;
    *unhashed_count = seed == 0 ? hash_if_nfc_batch(starts, lengths, count, 0, keys, unhashed)
                                : hash_if_nfc_batch(starts, lengths, count, seed, keys, unhashed);
    return DFC_OK;
}
