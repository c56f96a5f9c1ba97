/* SPDX-License-Identifier: Zlib */
/*
 * The stage's name for the shared portable math (include/earshot/portable_math.h, the
 * math module in src/math): the stage's files include "portable_math.h" as they did when
 * the functions lived here.
 */
#ifndef EAR_STAGE_PORTABLE_MATH_FORWARD_H
#define EAR_STAGE_PORTABLE_MATH_FORWARD_H

#include "earshot/portable_math.h"

#endif
