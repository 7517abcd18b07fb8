/* Oracles for the C tests, the fuzz targets and the fixture reader, written from the rules
 * alone (docs/ALGORITHM.md, UIKit's batch rules) and sharing no code with the core: a plain LIS
 * length, the flat replay, and the replay of a two-level batch. */
#ifndef DFC_TEST_ORACLE_H
#define DFC_TEST_ORACLE_H

#include "dfc.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Length of a longest strictly increasing subsequence: the O(n^2) recurrence up to 2,000
 * values, a length-only patience count above. */
size_t oracle_lis_length(const uint32_t *values, size_t count);

/* Replays a flat result on `old_keys` as a list view does (deletes and move sources leave,
 * inserts and move targets take their final slots, every other old element fills the remaining
 * slots in old order): true when that gives `new_keys`, every list ascends, and the moves are
 * minimal (matched - LIS of the old indices in new order). O(n + m) plus the LIS. */
bool oracle_flat_replay(const uint64_t *old_keys, size_t n, const uint64_t *new_keys, size_t m,
                        const dfc_flat_result *r);

/* A snapshot of unique identities: equal values are the same identifier. */
typedef struct oracle_snapshot {
    const uint64_t *sections;
    size_t section_count;
    const uint64_t *items;   /* starts[section_count] of them */
    const uint32_t *starts;  /* section s holds items starts[s] ..< starts[s + 1] */
} oracle_snapshot;

/* Checks a dfc_diff_sections result against the snapshots it came from; NULL when it holds,
 * otherwise what failed (a static buffer, overwritten by the next call).
 * - Replay, in UIKit's order: item deletes and move sources leave at old paths (descending),
 *   then deleted and moved sections at old indices (descending); inserted and moved sections
 *   enter at new indices (ascending; an inserted section brings its items), then item inserts
 *   and move targets at new paths (ascending). The result must be `new_snapshot` exactly.
 *   Strict rules: lists ascend without repeats and stay in bounds; no item operation in a
 *   deleted, inserted or moved section (an item moving out of a deleted or into an inserted
 *   section, a moved section touched by item operations).
 * - Counts as UIKit checks them: sections n == m - deleted + inserted; per surviving section,
 *   new == old - deleted - moved out + inserted + moved in, a move counted only when its raw
 *   old and new section indices differ.
 * - Minimal moves: section moves + matched sections turned into delete + insert == matched
 *   sections - LIS; per section that stays, item moves within it == its items that stay in it
 *   - LIS of their old indices in new order.
 * - The refresh batch: in new bounds, ascending, nothing both reloaded and reconfigured.
 * O((n + m) log(n + m)) plus the moves' shifting. */
const char *oracle_sections_replay(const oracle_snapshot *old_snapshot, const oracle_snapshot *new_snapshot,
                                   const dfc_sections_result *r);

#endif
