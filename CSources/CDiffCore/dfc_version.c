/* The version the library was built as, for checking an installed libdfc.so against dfc.h. */
#include "dfc_internal.h"

unsigned dfc_version(void) { return DFC_VERSION_NUMBER; }

const char *dfc_version_string(void) { return DFC_VERSION_STRING; }
