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
