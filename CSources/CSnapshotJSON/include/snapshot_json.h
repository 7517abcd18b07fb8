/*
 * snapshot_json.h: a snapshot document (the fixture old/new JSON form) parsed by simdjson
 * into flat arrays, for the diffable CLI's fast input path. Plain C; the parser is C++.
 *
 *     {"sections": [{"id": "S", "items": ["a", "b"]}],
 *      "reloadItems": ["a"], "reconfigureItems": [], "reloadSections": []}
 *
 * Every identifier is unescaped UTF-8 (simdjson validates the whole input), stored back to
 * back in one byte buffer per list with the end offset of each.
 */
#ifndef SNAPSHOT_JSON_H
#define SNAPSHOT_JSON_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes that must be readable (any value) after the input's last byte. */
#define SNAPSHOT_JSON_PADDING 64

/* A list of identifiers: identifier i is bytes[ends[i-1] ..< ends[i]] (ends[-1] = 0). */
typedef struct snapshot_json_strings {
    const char *bytes;
    const size_t *ends;
    size_t count;
} snapshot_json_strings;

typedef enum snapshot_json_status {
    SNAPSHOT_JSON_OK = 0,
    /* Not JSON, not UTF-8, or not a snapshot document (wrong type, missing or unknown key). */
    SNAPSHOT_JSON_INVALID = 1,
    SNAPSHOT_JSON_OUT_OF_MEMORY = 2,
} snapshot_json_status;

/* A parsed document; every pointer stays valid until snapshot_json_free. */
typedef struct snapshot_json_document {
    snapshot_json_strings section_ids;
    /* section_item_ends[s]: the end of section s's items in `items` (section_ids.count entries). */
    const size_t *section_item_ends;
    snapshot_json_strings items;
    snapshot_json_strings reload_items;
    snapshot_json_strings reconfigure_items;
    snapshot_json_strings reload_sections;
    /* On SNAPSHOT_JSON_INVALID: simdjson's words for what went wrong (static text). */
    const char *error_message;
    void *storage;
} snapshot_json_document;

/*
 * Parses `length` bytes at `bytes` (followed by SNAPSHOT_JSON_PADDING readable bytes) into
 * `document`. Keys other than sections/reloadItems/reconfigureItems/reloadSections (and
 * id/items in a section) are an error unless `lenient`. On any status, release the document
 * with snapshot_json_free. The CLI diagnoses an invalid input separately (position, what was
 * expected); this function only says that it is invalid.
 * Complexity: O(length) time; O(length) memory.
 */
snapshot_json_status snapshot_json_parse(const char *bytes, size_t length, bool lenient, snapshot_json_document *document);

/* Releases what snapshot_json_parse allocated; a zeroed document is fine. Complexity: O(1). */
void snapshot_json_free(snapshot_json_document *document);

#ifdef __cplusplus
}
#endif

#endif
