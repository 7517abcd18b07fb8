/* Longest increasing subsequence, exactly as ALGORITHM.md specifies. */
#include "dfc_internal.h"

int dfc__lis(dfc_context *context, const uint32_t *values, size_t count, uint8_t *keep,
             size_t *length) {
    int status = DFC_OK;
    uint32_t *tails = dfc__context_scratch(context, DFC_BUF_LIS_TAILS, count, sizeof(uint32_t), &status);
    uint32_t *tail_values =
        tails ? dfc__context_scratch(context, DFC_BUF_LIS_TAIL_VALUES, count, sizeof(uint32_t), &status)
              : NULL;
    int32_t *previous =
        tail_values ? dfc__context_scratch(context, DFC_BUF_LIS_PREVIOUS, count, sizeof(int32_t), &status)
                    : NULL;
    if (previous == NULL && count > 0) return status;
    size_t tail_count = 0;
    for (size_t j = 0; j < count; j++) {
        uint32_t value = values[j];
        size_t k;
        if (tail_count == 0 || tail_values[tail_count - 1] < value) {
            /* Nearly sorted input takes this branch: the binary search would land here too. */
            k = tail_count;
        } else {
            /* first k with tail_values[k] > value */
            size_t low = 0, high = tail_count;
            while (low < high) {
                size_t middle = low + (high - low) / 2;
                if (tail_values[middle] > value) high = middle;
                else low = middle + 1;
            }
            k = low;
        }
        previous[j] = k > 0 ? (int32_t)tails[k - 1] : -1;
        tails[k] = (uint32_t)j;
        tail_values[k] = value;
        if (k == tail_count) tail_count++;
    }
    memset(keep, 0, count);
    if (tail_count > 0) {
        int32_t j = (int32_t)tails[tail_count - 1];
        while (j != -1) {
            keep[j] = 1;
            j = previous[j];
        }
    }
    if (length != NULL) *length = tail_count;
    return DFC_OK;
}

int dfc_lis(dfc_context *context, const uint32_t *values, size_t count, uint8_t *keep,
            size_t *length) {
    if (context == NULL) return DFC_ERR_NULL_ARGUMENT;
    if (count > DFC_MAX_COUNT) return DFC_ERR_TOO_LARGE;
    if (count > 0 && (values == NULL || keep == NULL)) return DFC_ERR_NULL_ARGUMENT;
    return dfc__lis(context, values, count, keep, length);
}
