/*
 * snapshot_json.h: a snapshot document (the fixture old/new JSON form) parsed by simdjson and
 * turned into identifier numbers by a snapshot_interner, for the diffable CLI's input path.
 * Plain C; the parser is C++.
 *
 *     {"sections": [{"id": "S", "items": ["a", "b"]}],
 *      "reloadItems": ["a"], "reconfigureItems": [], "reloadSections": []}
 *
 * simdjson validates the whole input (JSON grammar and UTF-8) before anything is read from
 * it; identifiers are interned unescaped.
 */
#ifndef SNAPSHOT_JSON_H
#define SNAPSHOT_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "snapshot_interner.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes that must be readable (any value) after the input's last byte. */
#define SNAPSHOT_JSON_PADDING 64

/* Identifier numbers (see snapshot_interner.h). */
typedef struct snapshot_json_ids {
    const uint32_t *ids;
    size_t count;
} snapshot_json_ids;

typedef enum snapshot_json_status {
    SNAPSHOT_JSON_OK = 0,
    /* Not JSON, not UTF-8, or not a snapshot document (wrong type, missing, repeated or unknown key). */
    SNAPSHOT_JSON_INVALID = 1,
    /* Out of memory, or more distinct identifiers than the interner numbers. */
    SNAPSHOT_JSON_OUT_OF_MEMORY = 2,
} snapshot_json_status;

/* A parsed document; every pointer stays valid until snapshot_json_free. */
typedef struct snapshot_json_document {
    snapshot_json_ids sections;
    /* section_item_ends[s]: the end of section s's items in `items` (sections.count entries). */
    const size_t *section_item_ends;
    snapshot_json_ids items;
    snapshot_json_ids reload_items;
    snapshot_json_ids reconfigure_items;
    snapshot_json_ids reload_sections;
    /* On SNAPSHOT_JSON_INVALID: simdjson's words for what went wrong (static text). */
    const char *error_message;
    void *storage;
} snapshot_json_document;

/* The key names of a snapshot document. The reader spells none itself: the caller gives
 * the format's one key table (the CLI passes DiffableTools' SnapshotFormatKeys), so that
 * every reader and writer of the format agrees on them. */
typedef struct snapshot_json_keys {
    /* The document object's keys: the sections (required), then the three refresh lists. */
    snapshot_string sections, reload_items, reconfigure_items, reload_sections;
    /* A section object's keys (both required). */
    snapshot_string id, items;
} snapshot_json_keys;

/* A reusable parser: its buffers (a small multiple of the largest input's size, touched
 * as needed) serve every document it parses. */
typedef struct snapshot_json_parser snapshot_json_parser;

/* A new parser for documents with the key names `keys` (copied; the caller may release
 * them on return), or NULL when out of memory. Complexity: O(total length of the keys). */
snapshot_json_parser *snapshot_json_parser_create(const snapshot_json_keys *keys);

/* Releases the parser and its buffers; NULL is fine. Complexity: O(1). */
void snapshot_json_parser_free(snapshot_json_parser *parser);

/*
 * Parses `length` bytes at `bytes` (followed by SNAPSHOT_JSON_PADDING readable bytes) into
 * `document`, numbering identifiers with `interner` (shared by the documents to be diffed).
 * Keys other than the parser's (snapshot_json_keys) are an error unless `lenient`. On any status, release the document with
 * snapshot_json_free. The caller diagnoses an invalid input separately (position, what was
 * expected); this function only says that it is invalid.
 * Complexity: O(length) time expected; O(length) memory in the parser, O(identifiers) in the document.
 */
snapshot_json_status snapshot_json_parse(snapshot_json_parser *parser, const char *bytes, size_t length, bool lenient,
                                         snapshot_interner *interner, snapshot_json_document *document);

/* Releases what snapshot_json_parse allocated; a zeroed document is fine. Complexity: O(1). */
void snapshot_json_free(snapshot_json_document *document);

#ifdef __cplusplus
}
#endif

#endif
