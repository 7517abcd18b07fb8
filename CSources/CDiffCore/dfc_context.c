/* The reusable context: its buffers, its memory report and its duplicate list. */
#include "dfc_internal.h"

#include <stdlib.h>

dfc_context *dfc_context_create(const dfc_allocator *allocator) {
    dfc_heap heap;
    dfc__heap_init(&heap, allocator);
    dfc_context *context = dfc__heap_allocate(&heap, sizeof(dfc_context));
    if (context == NULL) return NULL;
    memset(context, 0, sizeof(*context));
    context->heap = heap;
    return context;
}

void dfc_context_free(dfc_context *context) {
    if (context == NULL) return;
    dfc_context_shrink(context);
    dfc_heap heap = context->heap;
    dfc__heap_release(&heap, context);
}

void dfc_context_reset(dfc_context *context) {
    if (context == NULL) return;
    context->duplicate_count = 0;
}

void dfc_context_shrink(dfc_context *context) {
    if (context == NULL) return;
    for (int i = 0; i < DFC_BUF_COUNT; i++) dfc__buffer_release(&context->heap, &context->buffers[i]);
    context->duplicate_count = 0;
}

size_t dfc_context_sizeof(const dfc_context *context) {
    if (context == NULL) return 0;
    size_t total = sizeof(*context);
    for (int i = 0; i < DFC_BUF_COUNT; i++) total += context->buffers[i].capacity;
    return total;
}

uint64_t dfc_context_allocation_count(const dfc_context *context) {
    return context == NULL ? 0 : context->heap.allocation_count;
}

void *dfc__context_scratch(dfc_context *context, int which, size_t count, size_t size, int *status) {
    int result = dfc__buffer_reserve(&context->heap, &context->buffers[which], count, size);
    if (result != DFC_OK) {
        *status = result;
        return NULL;
    }
    return context->buffers[which].data;
}

static size_t dfc__larger(size_t a, size_t b) { return a > b ? a : b; }

int dfc_context_reserve(dfc_context *context, size_t old_count, size_t new_count) {
    if (context == NULL) return DFC_ERR_NULL_ARGUMENT;
    if (old_count > DFC_MAX_COUNT || new_count > DFC_MAX_COUNT) return DFC_ERR_TOO_LARGE;
    size_t larger = dfc__larger(old_count, new_count);
    size_t slots;
    unsigned shift;
    if (!dfc__slot_capacity_for(old_count, &slots, &shift)) return DFC_ERR_TOO_LARGE;
    size_t new_slots;
    if (!dfc__slot_capacity_for(new_count, &new_slots, &shift)) return DFC_ERR_TOO_LARGE;
    /* A validated diff checks uniqueness (dfc_unique.c) over the whole old list and, at worst
     * (no element in common), every new element: that check outgrows the tables' buffers. */
    dfc_unique_scratch unique;
    if (!dfc__unique_scratch_for(old_count, new_count, &unique)) return DFC_ERR_TOO_LARGE;
    int status = DFC_OK;
    /* Each buffer at the largest size any step of a flat diff asks of it (dfc_diff.c, dfc_match.c,
     * dfc_unique.c, dfc_lis.c). */
    const struct { int which; size_t count; size_t size; } plan[] = {
        {DFC_BUF_SLOTS, dfc__larger(slots, unique.bucketed), sizeof(uint64_t)},
        {DFC_BUF_SLOTS_NEW, dfc__larger(new_slots, unique.keys_then_table), sizeof(uint64_t)},
        {DFC_BUF_OLD_TO_NEW, old_count, sizeof(int32_t)},
        {DFC_BUF_NEW_TO_OLD, new_count, sizeof(int32_t)},
        {DFC_BUF_DELETES, old_count, sizeof(uint32_t)},
        {DFC_BUF_INSERTS, new_count, sizeof(uint32_t)},
        {DFC_BUF_MOVE_FROM, larger, sizeof(uint32_t)},
        {DFC_BUF_MOVE_TO, larger, sizeof(uint32_t)},
        {DFC_BUF_SEQUENCE, new_count, sizeof(uint32_t)},
        {DFC_BUF_SEQUENCE_POSITION, new_count, sizeof(uint32_t)},
        {DFC_BUF_KEEP, new_count, sizeof(uint8_t)},
        {DFC_BUF_LIS_TAILS, dfc__larger(new_count, unique.starts), sizeof(uint32_t)},
        {DFC_BUF_LIS_TAIL_VALUES, dfc__lis_tail_value_count(new_count), sizeof(uint32_t)},
        {DFC_BUF_LIS_PREVIOUS, new_count, sizeof(int32_t)},
    };
    for (size_t i = 0; i < sizeof(plan) / sizeof(plan[0]); i++) {
        if (dfc__context_scratch(context, plan[i].which, plan[i].count, plan[i].size, &status) == NULL)
            return status;
    }
    return DFC_OK;
}

int dfc__context_add_duplicate(dfc_context *context, int side, int is_section, uint32_t first,
                               uint32_t duplicate) {
    dfc_buffer *buffer = &context->buffers[DFC_BUF_DUPLICATES];
    size_t needed = context->duplicate_count + 1;
    if (needed * sizeof(dfc_duplicate) > buffer->capacity) {
        /* This list must keep its contents, so grow by copying. */
        size_t capacity = needed < 16 ? 16 : needed * 2;
        size_t bytes;
        if (!dfc__mul_size(capacity, sizeof(dfc_duplicate), &bytes)) return DFC_ERR_TOO_LARGE;
        void *data = dfc__heap_allocate(&context->heap, bytes);
        if (data == NULL) return DFC_ERR_OUT_OF_MEMORY;
        if (context->duplicate_count > 0)
            memcpy(data, buffer->data, context->duplicate_count * sizeof(dfc_duplicate));
        dfc__heap_release(&context->heap, buffer->data);
        buffer->data = data;
        buffer->capacity = bytes;
    }
    dfc_duplicate *list = buffer->data;
    dfc_duplicate entry = {side, is_section, first < duplicate ? first : duplicate,
                           first < duplicate ? duplicate : first};
    list[context->duplicate_count++] = entry;
    return DFC_OK;
}

static int dfc__compare_duplicates(const void *a, const void *b) {
    const dfc_duplicate *x = a, *y = b;
    if (x->side != y->side) return x->side < y->side ? -1 : 1;
    if (x->is_section != y->is_section) return x->is_section > y->is_section ? -1 : 1;
    if (x->duplicate != y->duplicate) return x->duplicate < y->duplicate ? -1 : 1;
    if (x->first != y->first) return x->first < y->first ? -1 : 1;
    return 0;
}

void dfc__context_sort_duplicates(dfc_context *context) {
    if (context->duplicate_count > 1)
        qsort(context->buffers[DFC_BUF_DUPLICATES].data, context->duplicate_count,
              sizeof(dfc_duplicate), dfc__compare_duplicates);
}

const dfc_duplicate *dfc_context_duplicates(const dfc_context *context, size_t *count) {
    if (context == NULL || context->duplicate_count == 0) {
        if (count != NULL) *count = 0;
        return NULL;
    }
    if (count != NULL) *count = context->duplicate_count;
    return context->buffers[DFC_BUF_DUPLICATES].data;
}
