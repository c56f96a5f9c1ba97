/* SPDX-License-Identifier: Zlib */
/*
 * The demo game's levels as data (docs/game.md, "Levels"): each level is a text file in
 * games/demo/levels/ (copied into the build's assets folder, where the game reads it at
 * run time): `key = value` lines (its title and intro, on foot or driving, the cell size,
 * the objectives in order, the par time, the fuel, the music and the room) and then, after
 * a `map:` line, its map in the game's tile characters. A map may also come from a file of
 * its own (`--map FILE`: every line is the map). Every error names the file, the line and
 * the column ("level9.level, line 4, column 8: ..."), in English as the map builder's.
 */
#ifndef EARSHOT_DEMO_LEVELS_H
#define EARSHOT_DEMO_LEVELS_H

#include "earshot/level.h"
#include "earshot/physics.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DEMO_LEVEL_MAX_OBJECTIVES 4
#define DEMO_LEVEL_MAX_BYTES      ((uint64_t)1 << 20) /* a level or map file */

/* The objectives a level may list, by their tiles. */
#define DEMO_TILE_RADIO   'R'
#define DEMO_TILE_SPARKLE '*'
#define DEMO_TILE_BEACON  'B' /* the goal on foot */
#define DEMO_TILE_FINISH  'F' /* the goal of a drive */
#define DEMO_TILE_START   'P' /* on foot */
#define DEMO_TILE_CAR     'V' /* driving: the car is the start */
#define DEMO_TILE_HAZARD  'H'
#define DEMO_TILE_CRATE   'C'
#define DEMO_TILE_WALL    '#'

typedef struct demo_level {
    char title_key[40]; /* translation key of the level's name ("level1") */
    char intro_key[40]; /* of its first sentence ("level1.intro") */
    char music[40];     /* the music loop's sound name */
    char place[40];     /* the reverb zone's name */
    char room[40];      /* its reverb preset (ear_reverb_preset_from_name) */
    float cell_m;       /* a map cell's side */
    bool drive;         /* kind = driving (the car), else on foot */
    double par_s;       /* the time bonus counts down from here */
    float fuel_l;       /* driving: the tank, full at the start */
    /* the objectives' tiles in the order they are found; the last is the goal ('B' on
     * foot, 'F' driving) */
    uint32_t objectives[DEMO_LEVEL_MAX_OBJECTIVES];
    size_t objective_count;
    char *map;         /* the map's text (owned) */
    size_t map_size;   /* its bytes */
    uint32_t map_line; /* the file's line of the map's first line */
    char source[256];  /* the file's name, for errors */
} demo_level;

/* Parses a level file's text (size bytes, need not end in NUL); name is the file's name in
 * errors. EAR_OK and *out filled (free with demo_level_free), or EAR_E_FORMAT with
 * "<name>, line L, column C: <what>." in why (cap bytes) and *out empty. Thread: any. */
ear_result demo_level_parse(const char *text, size_t size, const char *name, demo_level *out,
                            char *why, size_t cap);

/* Reads and parses the level file at path (a regular file of at most
 * DEMO_LEVEL_MAX_BYTES, core's check); name as above. Thread: any. */
ear_result demo_level_load(const char *path, const char *name, demo_level *out, char *why,
                           size_t cap);

void demo_level_free(demo_level *level);

/* What demo_level_build_map found. */
typedef enum demo_map_check {
    DEMO_MAP_OK = 0,
    DEMO_MAP_BAD,      /* why says what and where */
    DEMO_MAP_NO_START, /* no 'P' (on foot) or 'V' (driving): the game says it */
    DEMO_MAP_NO_GOAL,  /* no 'B' or 'F' */
} demo_map_check;

/* Builds a map for level (its own, or text: size bytes of another map, named name, whose
 * first line is line first_line of that file) and checks it: every character one of the
 * game's tiles, and a start and a goal for the level's kind. DEMO_MAP_OK and *out, or the
 * failure (DEMO_MAP_BAD with why: "<name>, line L, column C: <what>."). Thread: any. */
demo_map_check demo_level_build_map(const demo_level *level, const char *text, size_t size,
                                    const char *name, uint32_t first_line, ear_level **out,
                                    char *why, size_t cap);

/* A level's start tile and goal tile ('P' and 'B' on foot, 'V' and 'F' driving). */
uint32_t demo_level_start_tile(const demo_level *level);
uint32_t demo_level_goal_tile(const demo_level *level);

#endif
