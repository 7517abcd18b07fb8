/* A program built against an installed libdfc (check_install.sh): what a user of the C core
 * writes first. Prints the version it runs with and one flat diff's counts. */
#include <dfc.h>
#include <stdio.h>

int main(void) {
    const uint64_t before[] = {1, 2, 3, 4}, after[] = {2, 3, 4, 1, 5};
    dfc_list old_list = {before, 4, NULL, NULL}, new_list = {after, 5, NULL, NULL};
    dfc_match integers = {DFC_MATCH_INJECTIVE, NULL, NULL};
    dfc_context *context = dfc_context_create(NULL);
    dfc_flat_result result;
    int status = dfc_diff_flat(context, &old_list, &new_list, &integers, 0, &result);
    if (status != DFC_OK) {
        fprintf(stderr, "dfc_diff_flat: %s\n", dfc_status_string(status));
        return 1;
    }
    printf("dfc %s: %zu moves, %zu inserts, %zu deletes\n", dfc_version_string(), result.move_count,
           result.insert_count, result.delete_count);
    dfc_context_free(context);
    return 0;
}
