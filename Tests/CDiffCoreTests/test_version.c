/* The version the library reports (dfc_version.c) against dfc.h's macros. */
#include "dfc.h"
#include "harness.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void test_version(void) {
    /* The library linked reports the header's version, and the three forms agree. */
    CHECK_EQ_INT(dfc_version(), DFC_VERSION_NUMBER);
    CHECK(strcmp(dfc_version_string(), DFC_VERSION_STRING) == 0);
    char expected[32];
    snprintf(expected, sizeof(expected), "%d.%d.%d", DFC_VERSION_MAJOR, DFC_VERSION_MINOR, DFC_VERSION_RELEASE);
    CHECK(strcmp(DFC_VERSION_STRING, expected) == 0);
    CHECK_EQ_INT(DFC_VERSION_NUMBER, DFC_VERSION_MAJOR * 10000 + DFC_VERSION_MINOR * 100 + DFC_VERSION_RELEASE);
}
