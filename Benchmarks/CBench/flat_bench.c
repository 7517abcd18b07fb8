/* Plain-C timing of dfc_diff_flat on the churn scenario (no Swift involved):
 *   make c-bench                       (n = 1,000,000)
 *   flat_bench [N] [RUNS]              (validated and trusted, alternated, RUNS each, default 15)
 *   DFC_BENCH_REPEAT=30 perf record …  (each timed run repeats the diff, so a profile
 *                                       is not dominated by building the input)
 * Each run is timed on the wall clock and in the thread's CPU time (which leaves out the
 * time other processes take the core); the two modes alternate so that both see the same
 * machine, and the validated/trusted ratio is of the same run's medians.
 * Useful with perf/callgrind when the Swift bench shows a regression. */
#define _POSIX_C_SOURCE 199309L
#include "dfc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t state = 1;
static uint64_t next_random(void) {
    uint64_t z = (state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

static double seconds(clockid_t clock) {
    struct timespec t;
    clock_gettime(clock, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int compare_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* churn: delete 5%, move 5%, insert 5% (moved and inserted elements at random places).
 * O(n): the kept elements stay in order; each moved or inserted one gets a random gap
 * among them, and the gaps are filled in one merge (a counting sort by gap). */
static size_t make_churn(size_t n, uint64_t *out) {
    const size_t share = n / 20;
    unsigned char *fate = calloc(n, 1); /* 1 deleted, 2 moved */
    for (size_t i = 0; i < share; i++) fate[next_random() % n] = 1;
    for (size_t i = 0; i < share; i++) {
        size_t at = (size_t)(next_random() % n);
        if (fate[at] == 0) fate[at] = 2;
    }
    size_t kept = 0, extra = 0;
    for (size_t i = 0; i < n; i++) kept += fate[i] == 0, extra += fate[i] == 2;
    extra += share;
    uint64_t *extras = malloc(extra * sizeof(uint64_t));
    size_t *gap = malloc(extra * sizeof(size_t)), *first = calloc(kept + 2, sizeof(size_t));
    size_t e = 0;
    for (size_t i = 0; i < n; i++) if (fate[i] == 2) extras[e++] = i;
    for (size_t i = 0; i < share; i++) extras[e++] = n + i;
    for (e = 0; e < extra; e++) first[(gap[e] = (size_t)(next_random() % (kept + 1))) + 1]++;
    for (size_t g = 0; g <= kept; g++) first[g + 1] += first[g];
    uint64_t *by_gap = malloc(extra * sizeof(uint64_t));
    size_t *place = malloc((kept + 1) * sizeof(size_t));
    memcpy(place, first, (kept + 1) * sizeof(size_t));
    for (e = 0; e < extra; e++) by_gap[place[gap[e]]++] = extras[e];
    size_t k = 0, g = 0;
    for (size_t i = 0; i <= n; i++) {
        if (i < n && fate[i] != 0) continue;
        for (size_t x = first[g]; x < first[g + 1]; x++) out[k++] = by_gap[x];
        g++;
        if (i < n) out[k++] = i;
    }
    free(fate), free(extras), free(gap), free(first), free(by_gap), free(place);
    return k;
}

int main(int argc, char **argv) {
    size_t n = argc > 1 ? (size_t)strtoull(argv[1], NULL, 10) : 1000000;
    int runs = argc > 2 ? atoi(argv[2]) : 15;
    if (runs < 1 || runs > 1000) runs = 15;
    uint64_t *old = malloc(n * sizeof(uint64_t)), *new_keys = malloc((n + n / 10 + 1) * sizeof(uint64_t));
    for (size_t i = 0; i < n; i++) old[i] = i;
    size_t m = make_churn(n, new_keys);
    dfc_context *ctx = dfc_context_create(NULL);
    dfc_list a = {old, n, NULL, NULL}, b = {new_keys, m, NULL, NULL};
    dfc_match match = {DFC_MATCH_INJECTIVE, NULL, NULL};
    dfc_flat_result r;
    static const unsigned modes[2] = {0, DFC_DIFF_ASSUME_UNIQUE};
    double *wall[2], *cpu[2];
    for (int mode = 0; mode < 2; mode++) {
        wall[mode] = malloc((size_t)runs * sizeof(double));
        cpu[mode] = malloc((size_t)runs * sizeof(double));
        dfc_diff_flat(ctx, &a, &b, &match, modes[mode], &r); /* warm-up */
    }
    int repeat = getenv("DFC_BENCH_REPEAT") ? atoi(getenv("DFC_BENCH_REPEAT")) : 1;
    if (repeat < 1) repeat = 1;
    for (int run = 0; run < runs; run++) {
        for (int mode = 0; mode < 2; mode++) {
            double start = seconds(CLOCK_MONOTONIC), start_cpu = seconds(CLOCK_THREAD_CPUTIME_ID);
            int status = DFC_OK;
            for (int k = 0; k < repeat && status == DFC_OK; k++)
                status = dfc_diff_flat(ctx, &a, &b, &match, modes[mode], &r);
            cpu[mode][run] = (seconds(CLOCK_THREAD_CPUTIME_ID) - start_cpu) / repeat;
            wall[mode][run] = (seconds(CLOCK_MONOTONIC) - start) / repeat;
            if (status != DFC_OK) { fprintf(stderr, "%s\n", dfc_status_string(status)); return 1; }
        }
    }
    double median_cpu[2];
    for (int mode = 0; mode < 2; mode++) {
        qsort(wall[mode], (size_t)runs, sizeof(double), compare_double);
        qsort(cpu[mode], (size_t)runs, sizeof(double), compare_double);
        median_cpu[mode] = cpu[mode][runs / 2];
        printf("flat churn n=%zu %-9s: median %.2f ms (thread CPU %.2f ms) of %d runs\n", n,
               mode == 0 ? "validated" : "trusted", wall[mode][runs / 2] * 1000, median_cpu[mode] * 1000, runs);
        free(wall[mode]), free(cpu[mode]);
    }
    printf("validated / trusted (thread CPU medians): %.2f; %zu moves, %zu inserts, %zu deletes, workspace %.1f MB\n",
           median_cpu[0] / median_cpu[1], r.move_count, r.insert_count, r.delete_count,
           (double)dfc_context_sizeof(ctx) / 1048576.0);
    dfc_context_free(ctx);
    free(old);
    free(new_keys);
    return 0;
}
