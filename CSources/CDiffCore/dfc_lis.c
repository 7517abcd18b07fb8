/* Longest increasing subsequence, exactly as ALGORITHM.md specifies. */
#include "dfc_internal.h"

/* First k in [low, high] with tails[k] > value, given tails strictly increasing and
 * tails[high] > value. Branch-free where the compiler allows: on a shuffled list a
 * branch on the comparison is a coin toss, mispredicted half the time. */
static inline size_t dfc__first_greater_within(const uint32_t *tails, size_t low, size_t high, uint32_t value) {
    const uint32_t *base = tails + low;
    size_t span = high - low + 1; /* the answer lies in [base, base + span) */
    while (span > 1) {
        size_t half = span / 2;
        base = DFC_UNPREDICTABLE(base[half - 1] <= value) ? base + half : base;
        span -= half;
    }
    return (size_t)(base - tails);
}

/* Tails up to this many entries (16 KiB) stay in the L1 cache: they are searched by
 * counting (below) rather than by the interpolation further down. A shuffle's tails are
 * ~2 sqrt(n) long. */
enum { DFC_LIS_CACHED_TAILS = DFC_LIS_BLOCK * DFC_LIS_ROW, DFC_LIS_PREFETCH = 64 };

/* How many of the `length` values at `values` are <= value: with a constant length, a
 * loop the compiler turns into a few vector compares. */
static inline uint32_t dfc__count_at_most(const uint32_t *values, size_t length, uint32_t value) {
    uint32_t count = 0;
    for (size_t i = 0; i < length; i++) count += values[i] <= value;
    return count;
}

/* First k with tail_values[k] > value, for tails of at most DFC_LIS_CACHED_TAILS entries
 * kept in blocks of DFC_LIS_BLOCK, unused entries UINT32_MAX (above every value), and
 * `block_last` holding each block's last entry (UINT32_MAX until the block is full). The
 * tails are strictly increasing, so the answer is the number of entries <= value: full
 * blocks counted from `block_last`, then entries of the one block the answer lies in.
 * A binary search is a chain of dependent loads and compares per element; these two
 * counts do not depend on each other's loads, so on a shuffle's LIS they overlap where
 * the binary search waits (the cost of each: docs/PERFORMANCE.md). */
static inline size_t dfc__first_greater_counting(const uint32_t *tail_values, const uint32_t *block_last,
                                                 size_t tail_count, uint32_t value) {
    /* Only the first half of the row is in use up to 64 full blocks (a 10^6 shuffle's ~2,000
     * tails): counting it alone keeps that case as fast as a row of 64 was. */
    const size_t block = tail_count <= DFC_LIS_BLOCK * (DFC_LIS_ROW / 2)
                             ? dfc__count_at_most(block_last, DFC_LIS_ROW / 2, value)
                             : dfc__count_at_most(block_last, DFC_LIS_ROW, value);
    return block * DFC_LIS_BLOCK + dfc__count_at_most(tail_values + block * DFC_LIS_BLOCK, DFC_LIS_BLOCK, value);
}

/* Where in tails of `count` entries (count > DFC_LIS_STRIDE) the first one above `value`
 * is likely to be, given value < tails[count - 1] and `strided[s]` = tails[s * STRIDE]. Old
 * indices in new order are nearly sorted, so tails grow almost linearly with their place,
 * but not from first to last: one moved element appended at the end bends that line, so
 * over a long churn it misses by far more than a cache line. A binary search of the
 * strided values (small enough to stay cached) finds the STRIDE entries around the
 * answer, and a line through their ends then misses by a fraction of a stride
 * (docs/PERFORMANCE.md). */
static inline size_t dfc__lis_guess(const uint32_t *tails, const uint32_t *strided, size_t count, uint32_t value) {
    const size_t strides = (count - 1) / DFC_LIS_STRIDE + 1;
    const uint32_t last = tails[count - 1];
    if (value < strided[0]) return 0;
    /* the last stride starting at or below value (strided[0] <= value, so it exists): from a
     * line through the first and last strides, then step to it */
    const uint32_t first_value = strided[0], last_value = strided[strides - 1];
    size_t s = value >= last_value ? strides - 1
                                   : (size_t)(((uint64_t)(value - first_value) * (strides - 1)) /
                                              ((uint64_t)(last_value - first_value) + 1));
    if (strided[s] > value) {
        size_t step = 1;
        while (step <= s && strided[s - step] > value) s -= step, step *= 2;
        s = dfc__first_greater_within(strided, step <= s ? s - step : 0, s, value) - 1;
    } else {
        size_t step = 1;
        while (s + step < strides && strided[s + step] <= value) s += step, step *= 2;
        s = dfc__first_greater_within(strided, s, s + step < strides ? s + step : strides, value) - 1;
    }
    const size_t low = s * DFC_LIS_STRIDE, high = s + 1 < strides ? low + DFC_LIS_STRIDE : count - 1;
    const uint32_t low_value = strided[s], high_value = s + 1 < strides ? strided[s + 1] : last;
    if (high_value <= low_value) return low;
    return low + (size_t)(((uint64_t)(value - low_value) * (high - low)) / ((uint64_t)(high_value - low_value) + 1));
}

/* First k in [0, count) with tails[k] > value, given tails strictly increasing and
 * tails[count - 1] > value: start at `guess` and gallop outwards, which touches
 * O(log distance) entries instead of O(log count) cold ones. The answer is the same as a
 * plain binary search's, whatever the guess. */
static size_t dfc__first_greater(const uint32_t *tails, size_t count, uint32_t value, size_t guess) {
    if (guess >= count) guess = count - 1;
    size_t low, high; /* the answer lies in [low, high] */
    if (tails[guess] > value) {
        high = guess;
        size_t step = 1;
        while (step <= high && tails[high - step] > value) {
            high -= step;
            step *= 2;
        }
        low = step <= high ? high - step + 1 : 0;
    } else {
        low = guess + 1;
        size_t step = 1;
        while (low + step < count && tails[low + step - 1] <= value) {
            low += step;
            step *= 2;
        }
        high = low + step - 1 < count ? low + step - 1 : count - 1;
    }
    return dfc__first_greater_within(tails, low, high, value);
}

/* Marks in `keep` the LIS ending at tails[tail_count - 1], following `previous`. */
static void dfc__lis_mark(const uint32_t *tails, const int32_t *previous, size_t tail_count, uint8_t *keep, size_t count) {
    if (count > 0) memset(keep, 0, count); /* keep may be NULL when count is 0 */
    if (tail_count == 0) return;
    for (int32_t j = (int32_t)tails[tail_count - 1]; j != -1; j = previous[j]) keep[j] = 1;
}

/* Up to this many values, the LIS keeps plain tails searched by bisection: the blocks, the
 * block maxima and the strides below cost more to set up and keep (about 42 instructions a
 * value for a section of 100) than they save on tails this short. */
enum { DFC_LIS_SMALL = 256 };

/* dfc__lis for count <= DFC_LIS_SMALL: the same k for every value (the first tail above
 * it, or the last tail for a value equal to it), so the same LIS. */
static int dfc__lis_small(dfc_context *context, const uint32_t *values, size_t count, uint8_t *keep, size_t *length) {
    int status = DFC_OK;
    uint32_t *tails = dfc__context_scratch(context, DFC_BUF_LIS_TAILS, count, sizeof(uint32_t), &status);
    uint32_t *tail_values = tails ? dfc__context_scratch(context, DFC_BUF_LIS_TAIL_VALUES, count, sizeof(uint32_t), &status) : NULL;
    int32_t *previous = tail_values ? dfc__context_scratch(context, DFC_BUF_LIS_PREVIOUS, count, sizeof(int32_t), &status) : NULL;
    if (previous == NULL && count > 0) return status;
    size_t tail_count = 0;
    for (size_t j = 0; j < count; j++) {
        const uint32_t value = values[j];
        const size_t k = tail_count == 0 || tail_values[tail_count - 1] < value
                             ? tail_count
                             : dfc__first_greater_within(tail_values, 0, tail_count - 1, value);
        previous[j] = k > 0 ? (int32_t)tails[k - 1] : -1;
        tails[k] = (uint32_t)j;
        tail_values[k] = value;
        tail_count += k == tail_count;
    }
    dfc__lis_mark(tails, previous, tail_count, keep, count);
    if (length != NULL) *length = tail_count;
    return DFC_OK;
}

int dfc__lis(dfc_context *context, const uint32_t *values, size_t count, uint8_t *keep,
             size_t *length) {
    /* Already increasing (a section whose items all stayed in order, the usual case): the
     * whole sequence is the one LIS, found without the tails or the back links. */
    size_t increasing = 1;
    while (increasing < count && values[increasing - 1] < values[increasing]) increasing++;
    if (count > 0 && increasing == count) {
        memset(keep, 1, count);
        if (length != NULL) *length = count;
        return DFC_OK;
    }
    if (count <= DFC_LIS_SMALL) return dfc__lis_small(context, values, count, keep, length);
    int status = DFC_OK;
    /* tail_values gets room for a whole last block, then the block maxima and the strided values. */
    const size_t padded = (count + DFC_LIS_BLOCK - 1) / DFC_LIS_BLOCK * DFC_LIS_BLOCK;
    uint32_t *tails = dfc__context_scratch(context, DFC_BUF_LIS_TAILS, count, sizeof(uint32_t), &status);
    uint32_t *tail_values =
        tails ? dfc__context_scratch(context, DFC_BUF_LIS_TAIL_VALUES, dfc__lis_tail_value_count(count), sizeof(uint32_t), &status)
              : NULL;
    int32_t *previous =
        tail_values ? dfc__context_scratch(context, DFC_BUF_LIS_PREVIOUS, count, sizeof(int32_t), &status)
                    : NULL;
    if (previous == NULL && count > 0) return status;
    /* Unused entries read as UINT32_MAX: the part the counting search reads (up to one
     * block past its limit), and the block maxima. */
    uint32_t *block_last = tail_values + padded, *strided = block_last + DFC_LIS_ROW;
    const size_t counted = padded < DFC_LIS_CACHED_TAILS + DFC_LIS_BLOCK ? padded : DFC_LIS_CACHED_TAILS + DFC_LIS_BLOCK;
    memset(tail_values, 0xFF, counted * sizeof(uint32_t));
    memset(block_last, 0xFF, DFC_LIS_ROW * sizeof(uint32_t));
    size_t tail_count = 0, last_k = 0;
    for (size_t j = 0; j < count; j++) {
        /* Past the cached size (a nearly sorted list of millions), each search starts at
         * the interpolated place in tails far too long for the cache: fetch that place for
         * an element some steps ahead, so the search finds it loaded (a 10^7 churn: see
         * docs/PERFORMANCE_LOG.md). Most elements append and skip the search, so this looks
         * only at those that will search. */
        if (tail_count > DFC_LIS_CACHED_TAILS && j + DFC_LIS_PREFETCH < count) {
            const uint32_t ahead = values[j + DFC_LIS_PREFETCH];
            if (ahead < tail_values[tail_count - 1]) {
                const size_t guess = dfc__lis_guess(tail_values, strided, tail_count, ahead);
                DFC_PREFETCH(&tail_values[guess]);
                DFC_PREFETCH(&tails[guess]);
            }
        }
        uint32_t value = values[j];
        size_t k;
        if (tail_count == 0 || tail_values[tail_count - 1] < value) {
            /* Nearly sorted input takes this branch: the binary search would land here too. */
            k = tail_count;
        } else if (last_k + 1 < tail_count && tail_values[last_k] < value &&
                   tail_values[last_k + 1] > value) {
            /* A run continuing right after the previous element's place (with larger
             * outliers further right) is found without searching; the search would give
             * the same k, since it is the only place with a smaller left and larger right. */
            k = last_k + 1;
        } else if (tail_count <= DFC_LIS_CACHED_TAILS) {
            /* UINT32_MAX marks unused entries, so that one value takes the binary search. */
            k = value != UINT32_MAX ? dfc__first_greater_counting(tail_values, block_last, tail_count, value)
                                    : dfc__first_greater_within(tail_values, 0, tail_count - 1, value);
            /* Only a value equal to the last tail (input not distinct) counts them all:
             * it replaces the last tail, as the binary search's bound made it do. */
            if (k >= tail_count) k = tail_count - 1;
        } else {
            k = dfc__first_greater(tail_values, tail_count, value, dfc__lis_guess(tail_values, strided, tail_count, value));
        }
        previous[j] = k > 0 ? (int32_t)tails[k - 1] : -1;
        tails[k] = (uint32_t)j;
        if (k == tail_count) tail_count++;
        tail_values[k] = value;
        if (k % DFC_LIS_BLOCK == DFC_LIS_BLOCK - 1 && k < DFC_LIS_CACHED_TAILS) block_last[k / DFC_LIS_BLOCK] = value;
        if (k % DFC_LIS_STRIDE == 0) strided[k / DFC_LIS_STRIDE] = value;
        last_k = k;
    }
    dfc__lis_mark(tails, previous, tail_count, keep, count);
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
