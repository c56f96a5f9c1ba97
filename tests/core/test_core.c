#include "earshot/core.h"
#include "test.h"
TEST(results) { ASSERT_STR_EQ(ear_result_string(EAR_OK), "success"); }
TEST_MAIN(TEST_ENTRY(results))
