/* Allocation: the allocator hooks (malloc/free by default, huge pages for large
 * tables), counted allocations, and scratch buffers that grow without keeping
 * their contents. */
#if defined(__linux__) && !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE /* madvise */
#endif
#include "dfc_internal.h"

#include <stdlib.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

enum { DFC_HUGE_PAGE = 2 * 1024 * 1024 };

/* Whether the default allocator puts a block of `size` bytes on huge pages. Identifier
 * tables are probed at random: on huge pages a large table spans few pages, so its probes
 * rarely miss the TLB, where on 4 KiB pages nearly every probe would. */
static bool dfc__on_huge_pages(size_t size) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    return size >= 4 * (size_t)DFC_HUGE_PAGE && size <= SIZE_MAX - DFC_HUGE_PAGE;
#else
    (void)size;
    return false;
#endif
}

static void *dfc__default_allocate(void *user_data, size_t size) {
    (void)user_data;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (dfc__on_huge_pages(size)) {
        size_t rounded = (size + DFC_HUGE_PAGE - 1) / DFC_HUGE_PAGE * DFC_HUGE_PAGE;
        void *pointer = aligned_alloc(DFC_HUGE_PAGE, rounded);
        if (pointer != NULL) (void)madvise(pointer, rounded, MADV_HUGEPAGE);
        return pointer;
    }
#endif
    return malloc(size);
}

static void dfc__default_release(void *user_data, void *pointer) {
    (void)user_data;
    free(pointer);
}

static const dfc_allocator dfc__default = {dfc__default_allocate, dfc__default_release, NULL};

const dfc_allocator *dfc_default_allocator(void) { return &dfc__default; }

void dfc__heap_init(dfc_heap *heap, const dfc_allocator *allocator) {
    if (allocator != NULL && allocator->allocate != NULL && allocator->release != NULL) {
        heap->allocator = *allocator;
    } else {
        heap->allocator = dfc__default;
    }
    heap->allocation_count = 0;
}

void *dfc__heap_allocate(dfc_heap *heap, size_t size) {
    void *pointer = heap->allocator.allocate(heap->allocator.user_data, size == 0 ? 1 : size);
    if (pointer != NULL) heap->allocation_count++;
    return pointer;
}

void *dfc__heap_allocate_zeroed(dfc_heap *heap, size_t size) {
    if (heap->allocator.allocate != dfc__default_allocate || dfc__on_huge_pages(size)) {
        void *pointer = dfc__heap_allocate(heap, size);
        if (pointer != NULL) memset(pointer, 0, size);
        return pointer;
    }
    /* What the default allocator would do with malloc, through calloc: it knows when its
     * memory comes fresh from the kernel (already zero) and skips the clearing pass, so a
     * table that grows while a snapshot is built is not written twice. */
    void *pointer = calloc(1, size == 0 ? 1 : size);
    if (pointer != NULL) heap->allocation_count++;
    return pointer;
}

void dfc__heap_release(dfc_heap *heap, void *pointer) {
    if (pointer != NULL) heap->allocator.release(heap->allocator.user_data, pointer);
}

int dfc__buffer_reserve(dfc_heap *heap, dfc_buffer *buffer, size_t count, size_t size) {
    size_t bytes;
    if (!dfc__mul_size(count, size, &bytes)) return DFC_ERR_TOO_LARGE;
    if (bytes <= buffer->capacity && buffer->data != NULL) return DFC_OK;
    /* Grow by at least 1.5x so that slowly growing inputs do not reallocate every call. */
    size_t grown = buffer->capacity + buffer->capacity / 2;
    if (grown < bytes || grown < buffer->capacity) grown = bytes;
    void *data = dfc__heap_allocate(heap, grown);
    if (data == NULL && grown != bytes) {
        grown = bytes;
        data = dfc__heap_allocate(heap, grown);
    }
    if (data == NULL) return DFC_ERR_OUT_OF_MEMORY;
    dfc__heap_release(heap, buffer->data);
    buffer->data = data;
    buffer->capacity = grown;
    return DFC_OK;
}

void dfc__buffer_release(dfc_heap *heap, dfc_buffer *buffer) {
    dfc__heap_release(heap, buffer->data);
    buffer->data = NULL;
    buffer->capacity = 0;
}
