/* Readable names for the fixed status codes. */
#include "dfc_internal.h"

const char *dfc_status_string(int status) {
    switch (status) {
    case DFC_OK: return "DFC_OK: success";
    case DFC_ERR_NULL_ARGUMENT: return "DFC_ERR_NULL_ARGUMENT: a required pointer was NULL";
    case DFC_ERR_TOO_LARGE: return "DFC_ERR_TOO_LARGE: a count exceeds DFC_MAX_COUNT or a size overflows";
    case DFC_ERR_OUT_OF_MEMORY: return "DFC_ERR_OUT_OF_MEMORY: the allocator returned NULL";
    case DFC_ERR_DUPLICATE: return "DFC_ERR_DUPLICATE: an identifier occurs more than once";
    case DFC_ERR_INVALID_ARGUMENT: return "DFC_ERR_INVALID_ARGUMENT: an option, flag or callback is invalid";
    case DFC_ERR_INCONSISTENT: return "DFC_ERR_INCONSISTENT: arrays disagree (offsets or section starts not ascending)";
    case DFC_ERR_UNKNOWN_IDENTIFIER: return "DFC_ERR_UNKNOWN_IDENTIFIER: an index names no element of its list";
    case DFC_ERR_SHARED_KEY: return "DFC_ERR_SHARED_KEY: two elements of one list share a key; diff again confirming matches";
    case DFC_ERR_NO_ROOM: return "DFC_ERR_NO_ROOM: the table is full; reserve room before inserting";
    default: return "DFC_ERR_UNKNOWN_STATUS: not a status code of this library";
    }
}
