/* SPDX-License-Identifier: Zlib */
/*
 * Internal to the level module (levels, paths, words, world documents): what its files
 * share.
 */
#ifndef EAR_LEVEL_INTERNAL_H
#define EAR_LEVEL_INTERNAL_H

#include "earshot/core.h"
#include "earshot/lang.h"

#include "earshot/level.h"

/* The level's grid: rows * columns code points, row-major, 0 where there is no cell. */
const uint32_t *ear__level_cells(const ear_level *level);

#endif
