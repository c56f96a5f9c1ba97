/* SPDX-License-Identifier: Zlib */
/*
 * Internal to the physics module's tools (levels, paths, words, world documents): what
 * their files share.
 */
#ifndef EAR_PHYSICS_TOOLS_INTERNAL_H
#define EAR_PHYSICS_TOOLS_INTERNAL_H

#include "earshot/core.h"
#include "earshot/lang.h"

#include "earshot/physics.h"

/* The level's grid: rows * columns code points, row-major, 0 where there is no cell. */
const uint32_t *ear__level_cells(const ear_level *level);

#endif
