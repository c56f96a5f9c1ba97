/* SPDX-License-Identifier: Zlib */
#include "earshot/stage.h"
#include "test.h"
TEST(create_destroy) {
    ear_stage *s = NULL;
    ASSERT_OK(ear_stage_create(NULL, &s));
    ear_stage_destroy(s);
}
TEST_MAIN(TEST_ENTRY(create_destroy))
