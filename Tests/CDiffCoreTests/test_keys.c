/* XXH3-64 keys (dfc_keys.c): known answers for every length class, and dfc_hash_bytes's arguments. */
#include "dfc.h"
#include "harness.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void test_xxh3_known_answers(void) {
    CHECK(dfc_hash_one("abc", 3, 0) == UINT64_C(0x78af5f94892f3950));
    CHECK(dfc_hash_one("", 0, 0) == UINT64_C(0x2D06800538D394C2));
    CHECK(dfc_hash_one(NULL, 0, 0) == UINT64_C(0x2D06800538D394C2));
    CHECK(dfc_hash_one("abc", 3, 1) != dfc_hash_one("abc", 3, 0));
    /* One buffer, many identifiers: each equals hashing it alone (every length class 0..300). */
    static unsigned char bytes[300 * 301 / 2];
    uint64_t offsets[302], keys[301];
    size_t total = 0;
    for (size_t length = 0; length <= 300; length++) {
        offsets[length] = total;
        for (size_t k = 0; k < length; k++) bytes[total + k] = (unsigned char)(length * 31 + k);
        total += length;
    }
    offsets[301] = total;
    CHECK_EQ_INT(dfc_hash_bytes(bytes, offsets, 301, 0, keys), DFC_OK);
    for (size_t length = 0; length <= 300; length++)
        CHECK(keys[length] == dfc_hash_one(bytes + offsets[length], length, 0));
}

void test_hash_bytes_arguments(void) {
    uint64_t offsets[3] = {0, 2, 1}, keys[2] = {7, 7};
    CHECK_EQ_INT(dfc_hash_bytes("ab", offsets, 2, 0, keys), DFC_ERR_INCONSISTENT);
    CHECK(keys[0] == 7 && keys[1] == 7);
    CHECK_EQ_INT(dfc_hash_bytes(NULL, NULL, 0, 0, NULL), DFC_OK);
    CHECK_EQ_INT(dfc_hash_bytes("ab", NULL, 2, 0, keys), DFC_ERR_NULL_ARGUMENT);
    CHECK_EQ_INT(dfc_hash_bytes("ab", offsets, 2, 0, NULL), DFC_ERR_NULL_ARGUMENT);
    uint64_t good[3] = {0, 1, 2};
    CHECK_EQ_INT(dfc_hash_bytes(NULL, good, 2, 0, keys), DFC_ERR_NULL_ARGUMENT);
    CHECK_EQ_INT(dfc_hash_bytes("ab", good, DFC_MAX_COUNT + 1, 0, keys), DFC_ERR_TOO_LARGE);
}

/* dfc_hash_if_nfc_many decides and keys every string as dfc_hash_if_nfc does: ASCII of
 * every length 0..300 (each word-size class of the ASCII scan), the same with one
 * non-ASCII sequence at each position (an NFC-stable é, a combining mark, a lone
 * continuation byte), each string in its own allocation so that reading past one is a
 * sanitizer error. */
void test_hash_if_nfc_many_agrees_with_one(void) {
    enum { LONGEST = 300, SEQUENCES = 4 };
    static const char *const inserts[SEQUENCES] = {"", "\xC3\xA9", "\xCC\x81", "\x80"};
    size_t capacity = (size_t)(LONGEST + 1) * (LONGEST + 3) * SEQUENCES;
    const void **starts = malloc(capacity * sizeof *starts);
    size_t *lengths = malloc(capacity * sizeof *lengths), *unhashed = malloc(capacity * sizeof *unhashed);
    uint64_t *keys = malloc(capacity * sizeof *keys);
    CHECK(starts != NULL && lengths != NULL && unhashed != NULL && keys != NULL);
    if (starts == NULL || lengths == NULL || unhashed == NULL || keys == NULL) return;
    size_t count = 0;
    for (size_t length = 0; length <= LONGEST; length++)
        for (size_t sequence = 0; sequence < SEQUENCES; sequence++) {
            size_t insert_length = strlen(inserts[sequence]);
            for (size_t at = 0; at <= (insert_length == 0 ? 0 : length); at++) {
                size_t total = length + insert_length;
                unsigned char *bytes = malloc(total == 0 ? 1 : total);
                CHECK(bytes != NULL);
                if (bytes == NULL) return;
                for (size_t k = 0; k < length; k++) bytes[k < at ? k : k + insert_length] = (unsigned char)(0x20 + (length * 7 + k) % 0x5F);
                memcpy(bytes + at, inserts[sequence], insert_length);
                starts[count] = bytes;
                lengths[count] = total;
                keys[count] = 0;
                count++;
            }
        }
    size_t misses = 0;
    CHECK_EQ_INT(dfc_hash_if_nfc_many(starts, lengths, count, 0, keys, unhashed, &misses), DFC_OK);
    size_t next_miss = 0, expected_misses = 0;
    for (size_t i = 0; i < count; i++) {
        uint64_t key = 0;
        int hashed = dfc_hash_if_nfc(starts[i], lengths[i], 0, &key);
        if (hashed) {
            CHECK(keys[i] == key);
        } else {
            expected_misses++;
            CHECK(next_miss < misses && unhashed[next_miss] == i);
            next_miss++;
        }
    }
    CHECK(misses == expected_misses);
    CHECK(expected_misses > 0 && expected_misses < count); /* both answers were exercised */
    for (size_t i = 0; i < count; i++) free((void *)starts[i]);
    free(starts);
    free(lengths);
    free(unhashed);
    free(keys);
}
