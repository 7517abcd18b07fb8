/* The C tests' runner: one file of tests per C source (test_idtable.c for dfc_idtable.c, …),
 * the API contract table (test_contract.c), the oracles they share (oracle.c) and the harness
 * (harness.c). Prints "ok"/"FAIL" per test and "N passed, N failed"; fails when a test failed
 * or none ran. `--list-contract` prints the functions the contract table covers
 * (check_symbols.sh compares them with the exports). */
#include "harness.h"

#include <string.h>

typedef struct harness_test {
    const char *name;
    void (*run)(void);
} harness_test;

void test_version(void);
void test_xxh3_known_answers(void);
void test_hash_bytes_arguments(void);
void test_hash_if_nfc_many_agrees_with_one(void);
void test_idtable_against_model(void);
void test_idtable_large(void);
void test_idtable_capacities_and_wrap(void);
void test_idtable_growth_steps(void);
void test_idtable_batch_runs_like_one_by_one(void);
void test_idtable_fingerprint_collisions(void);
void test_idtable_batch_and_copy(void);
void test_idtable_remove_insert_cycle(void);
void test_idtable_removed_marks(void);
void test_idtable_home_slot_first(void);
void test_idtable_batch_confirmed_keeps_order(void);
void test_idtable_batch_into_marks(void);
void test_idtable_clearing_marks_keeps_capacity(void);
void test_idtable_room_after_removals(void);
void test_lis_tie_breaks(void);
void test_flat_known_answers(void);
void test_flat_random_replay(void);
void test_flat_large_modes_agree(void);
void test_flat_exhaustive_small(void);
void test_forced_collisions(void);
void test_deferred_match_is_injective_on_unique_keys(void);
void test_deferred_match_with_shared_keys(void);
void test_byte_match_of_empty_identifiers_without_bytes(void);
void test_deferred_match_refuses_one_partner_for_two(void);
void test_deferred_sectioned_maps_are_a_matching(void);
void test_deferred_validated_refuses_repeated_keys(void);
void test_old_unique_check_finds_every_repeat(void);
void test_plan_decided_refresh(void);
void test_callback_identity(void);
void test_bytes_confirm_every_length(void);
void test_duplicates_reported(void);
void test_validated_duplicates_in_every_matching_shape(void);
void test_duplicates_found_in_large_lists(void);
void test_bad_arguments(void);
void test_sections_known_answers(void);
void test_sections_refresh_in_place(void);
void test_plan_random_replay(void);
void test_steps_random_replay(void);
void test_steps_known_answers(void);
void test_steps_hostile_batches(void);
void test_warm_context_allocates_nothing(void);
void test_allocation_failure_every_k(void);
void test_contract(void);
void test_size_guards(void);
int contract_list(void); /* prints every function the contract table covers */

void test_reserve_covers_every_flat_diff(void); /* test_reserve.c */

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "--list-contract") == 0) return contract_list();
    const harness_test tests[] = {
        {"version", test_version},
        {"xxh3_known_answers", test_xxh3_known_answers},
        {"hash_bytes_arguments", test_hash_bytes_arguments},
        {"hash_if_nfc_many_agrees_with_one", test_hash_if_nfc_many_agrees_with_one},
        {"idtable_against_model", test_idtable_against_model},
        {"idtable_large", test_idtable_large},
        {"idtable_capacities_and_wrap", test_idtable_capacities_and_wrap},
        {"idtable_growth_steps", test_idtable_growth_steps},
        {"idtable_batch_runs_like_one_by_one", test_idtable_batch_runs_like_one_by_one},
        {"idtable_fingerprint_collisions", test_idtable_fingerprint_collisions},
        {"idtable_batch_and_copy", test_idtable_batch_and_copy},
        {"idtable_remove_insert_cycle", test_idtable_remove_insert_cycle},
        {"idtable_removed_marks", test_idtable_removed_marks},
        {"idtable_home_slot_first", test_idtable_home_slot_first},
        {"idtable_batch_confirmed_keeps_order", test_idtable_batch_confirmed_keeps_order},
        {"idtable_batch_into_marks", test_idtable_batch_into_marks},
        {"idtable_clearing_marks_keeps_capacity", test_idtable_clearing_marks_keeps_capacity},
        {"idtable_room_after_removals", test_idtable_room_after_removals},
        {"lis_tie_breaks", test_lis_tie_breaks},
        {"flat_known_answers", test_flat_known_answers},
        {"flat_random_replay", test_flat_random_replay},
        {"flat_large_modes_agree", test_flat_large_modes_agree},
        {"flat_exhaustive_small", test_flat_exhaustive_small},
        {"forced_collisions", test_forced_collisions},
        {"deferred_match_is_injective_on_unique_keys", test_deferred_match_is_injective_on_unique_keys},
        {"deferred_match_with_shared_keys", test_deferred_match_with_shared_keys},
        {"byte_match_of_empty_identifiers_without_bytes", test_byte_match_of_empty_identifiers_without_bytes},
        {"deferred_match_refuses_one_partner_for_two", test_deferred_match_refuses_one_partner_for_two},
        {"deferred_sectioned_maps_are_a_matching", test_deferred_sectioned_maps_are_a_matching},
        {"deferred_validated_refuses_repeated_keys", test_deferred_validated_refuses_repeated_keys},
        {"old_unique_check_finds_every_repeat", test_old_unique_check_finds_every_repeat},
        {"plan_decided_refresh", test_plan_decided_refresh},
        {"callback_identity", test_callback_identity},
        {"bytes_confirm_every_length", test_bytes_confirm_every_length},
        {"duplicates_reported", test_duplicates_reported},
        {"validated_duplicates_in_every_matching_shape", test_validated_duplicates_in_every_matching_shape},
        {"duplicates_found_in_large_lists", test_duplicates_found_in_large_lists},
        {"bad_arguments", test_bad_arguments},
        {"sections_known_answers", test_sections_known_answers},
        {"sections_refresh_in_place", test_sections_refresh_in_place},
        {"plan_random_replay", test_plan_random_replay},
        {"steps_known_answers", test_steps_known_answers},
        {"steps_random_replay", test_steps_random_replay},
        {"steps_hostile_batches", test_steps_hostile_batches},
        {"warm_context_allocates_nothing", test_warm_context_allocates_nothing},
        {"reserve_covers_every_flat_diff", test_reserve_covers_every_flat_diff},
        {"allocation_failure_every_k", test_allocation_failure_every_k},
        {"contract", test_contract},
        {"size_guards", test_size_guards},
    };
    int passed = 0, failed = 0;
    for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {
        harness_failures_in_test = 0;
        tests[i].run();
        if (harness_failures_in_test == 0) {
            passed++;
            printf("ok   %s\n", tests[i].name);
        } else {
            failed++;
            printf("FAIL %s (%d checks)\n", tests[i].name, harness_failures_in_test);
        }
    }
    printf("C tests: %d passed, %d failed\n", passed, failed);
    return failed == 0 && passed > 0 ? 0 : 1;
}

