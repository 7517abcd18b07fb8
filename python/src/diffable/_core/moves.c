/*
 * moves.c — turning a reordering into moves a view applies one at a time (the order Diffable's
 * Swift `steps` uses). Elements that stay keep their group and relative order; every other
 * element moves once, in target order, and is put directly after the staying element that
 * precedes it in its target group (or at the group's front), behind the elements already put
 * there. Slots: per group a head chain, then each current element followed by its chain; a
 * Fenwick tree counts the occupied slots before a slot, which is the element's index.
 */
#include "binding.h"

#include <stdlib.h>

static void fenwick_add(uint32_t *tree, size_t size, size_t position, int delta) {
    for (size_t i = position + 1; i <= size; i += i & (~i + 1)) tree[i] = (uint32_t)((int64_t)tree[i] + delta);
}

/* Occupied slots in [0, position). */
static uint32_t fenwick_prefix(const uint32_t *tree, size_t position) {
    uint32_t sum = 0;
    for (size_t i = position; i > 0; i -= i & (~i + 1)) sum += tree[i];
    return sum;
}

int sequential_moves(size_t group_count, const uint32_t *current_starts, const uint32_t *current,
                     const uint32_t *target_starts, const uint32_t *target, const uint8_t *stays,
                     size_t element_count, uint32_t *out, size_t *move_count) {
    *move_count = 0;
    size_t groups = group_count ? group_count : 1;
    size_t elements = element_count ? element_count : 1;
    uint32_t *group_of = calloc(elements, sizeof(uint32_t));
    int64_t *anchor = malloc(elements * sizeof(int64_t));
    uint32_t *place = calloc(elements, sizeof(uint32_t));
    uint32_t *chain_length = calloc(elements, sizeof(uint32_t));
    uint32_t *slot = calloc(elements, sizeof(uint32_t));
    uint32_t *chain_start = calloc(elements, sizeof(uint32_t));
    uint32_t *head_length = calloc(groups, sizeof(uint32_t));
    uint32_t *group_start = calloc(groups, sizeof(uint32_t));
    size_t slot_count = current_starts[group_count] + (target_starts[group_count]);
    uint32_t *tree = calloc(slot_count + 1, sizeof(uint32_t));
    int status = -1;
    if (!group_of || !anchor || !place || !chain_length || !slot || !chain_start || !head_length || !group_start || !tree)
        goto done;
    for (size_t g = 0; g < group_count; g++)
        for (uint32_t k = current_starts[g]; k < current_starts[g + 1]; k++) group_of[current[k]] = (uint32_t)g;
    for (size_t g = 0; g < group_count; g++) {
        int64_t last = -1;
        for (uint32_t k = target_starts[g]; k < target_starts[g + 1]; k++) {
            uint32_t element = target[k];
            anchor[element] = -1;
            if (stays[element]) {
                last = element;
            } else if (last < 0) {
                place[element] = head_length[g]++;
            } else {
                anchor[element] = last;
                place[element] = chain_length[last]++;
            }
        }
    }
    /* Slot layout; only current elements are occupied at first. */
    size_t next = 0;
    for (size_t g = 0; g < group_count; g++) {
        group_start[g] = (uint32_t)next;
        next += head_length[g];
        for (uint32_t k = current_starts[g]; k < current_starts[g + 1]; k++) {
            uint32_t element = current[k];
            slot[element] = (uint32_t)next;
            fenwick_add(tree, slot_count, next, 1);
            next++;
            chain_start[element] = (uint32_t)next;
            next += chain_length[element];
        }
    }
    for (size_t g = 0; g < group_count; g++) {
        for (uint32_t k = target_starts[g]; k < target_starts[g + 1]; k++) {
            uint32_t element = target[k];
            if (stays[element]) continue;
            uint32_t from = group_of[element];
            uint32_t from_index = fenwick_prefix(tree, slot[element]) - fenwick_prefix(tree, group_start[from]);
            fenwick_add(tree, slot_count, slot[element], -1);
            size_t destination = (anchor[element] < 0 ? group_start[g] : chain_start[anchor[element]]) + place[element];
            uint32_t to_index = fenwick_prefix(tree, destination) - fenwick_prefix(tree, group_start[g]);
            fenwick_add(tree, slot_count, destination, 1);
            uint32_t *move = out + 4 * *move_count;
            move[0] = from, move[1] = from_index, move[2] = (uint32_t)g, move[3] = to_index;
            ++*move_count;
        }
    }
    status = 0;
done:
    free(group_of), free(anchor), free(place), free(chain_length), free(slot), free(chain_start);
    free(head_length), free(group_start), free(tree);
    return status;
}
