/* SPDX-License-Identifier: Zlib */
/*
 * An executable whose failure is expected (tests/harness/check-harness runs it): two
 * floats one ulp apart are not equal to ASSERT_FLOAT_EQ, the run goes on to the next test,
 * and the executable exits 1 naming the failed test and printing both values.
 */
#include "test.h"

TEST(floats_one_ulp_apart_are_not_equal) {
    ASSERT_FLOAT_EQ(0.1f, nextafterf(0.1f, 1.0f));
}

TEST(the_next_test_still_runs) {
    ASSERT_EQ(1, 1);
}

TEST_MAIN(TEST_ENTRY(floats_one_ulp_apart_are_not_equal), TEST_ENTRY(the_next_test_still_runs))
