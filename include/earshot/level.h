/* SPDX-License-Identifier: Zlib */
/*
 * Earshot levels: the tools a game builds its physics world with. ASCII levels (a map of
 * text rows into walls and tiles, and the walls into a world), A* paths over a level, the
 * words for positions, directions and speeds through the translation tables, and world
 * documents (a world as JSON, which the command tool's world.load and the audio world
 * share). Everything here builds on the physics API (earshot/physics.h) and the
 * translations (earshot/lang.h); docs/modules/physics.md gives the rules.
 */
#ifndef EARSHOT_LEVEL_H
#define EARSHOT_LEVEL_H

#include "earshot/core.h"
#include "earshot/lang.h"
#include "earshot/physics.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ASCII levels. A level is a map of text rows, one character per cell of cell_m x cell_m
 * metres: row 0 is the northmost (smallest Z, north = -Z), column 0 the westmost (smallest
 * X). The cell at (row r, column c) has its centre at
 *     origin + ((c + 0.5) * cell_m, 0, (r + 0.5) * cell_m)
 * so origin is the map's north-west corner at floor height. Each row's run of wall
 * characters ('#') is one box, wall_height_m tall, standing on the floor; every other
 * character (a space included) is a tile, kept with its centre and queryable by character.
 * Characters are Unicode code points (the text is UTF-8). */
typedef struct ear_level ear_level;

typedef struct ear_level_config {
    float cell_m;                   /* the side of a cell, metres, > 0; default 1 */
    float wall_height_m;            /* the walls' height, metres, > 0; default 3 */
    ear_vec3 origin;                /* the map's north-west corner at floor height; default 0 */
    uint32_t wall_char;             /* the character of walls; default '#' */
    const ear_allocator *allocator; /* default NULL: malloc */
} ear_level_config;

/* Where a level text is wrong: row and column count from 1 in the text as given (before
 * blank lines and indentation are trimmed; columns in characters), both 0 when the error
 * is not about a place (a cell size <= 0). message is one English sentence that starts
 * with "row R, column C: " when it names a place. */
typedef struct ear_level_error {
    uint32_t row, column;
    char message[200];
} ear_level_error;

/* The defaults above. Thread: any. */
ear_level_config ear_level_config_default(void);

/* Builds a level from text (size bytes; need not end in NUL): blank lines before the first
 * and after the last row with a character are dropped, the indentation common to all rows
 * is removed and trailing spaces of each row are ignored (a row between others that is
 * blank stays, as a row without cells). Rows may have different lengths. Fails with
 * EAR_E_INVALID_ARG for NULL text or out, a cell size or wall height that is not > 0 and
 * finite, or a map larger than 65535 x 65535 or 16 M cells; EAR_E_FORMAT for a tab or a
 * control character in a row, bytes that are not UTF-8, or a map with no cells;
 * EAR_E_OUT_OF_MEMORY. On failure *out is untouched and err (may be NULL) says where.
 * The caller owns the level (ear_level_destroy). Thread: any (the level is not shared). */
ear_result ear_level_build_with(const char *text, size_t size, const ear_level_config *config,
                                ear_level **out, ear_level_error *err);

/* ear_level_build_with for a NUL-terminated text with the default origin and '#'.
 * Thread: any (the level is not shared). */
ear_result ear_level_build(const char *text, float cell_m, float wall_height_m, ear_level **out,
                           ear_level_error *err);

/* Frees a level. NULL does nothing. Thread: any. */
void ear_level_destroy(ear_level *level);

/* The level's size in cells (columns: of its longest row) and its settings. Thread: any. */
uint32_t ear_level_rows(const ear_level *level);
uint32_t ear_level_columns(const ear_level *level);
ear_level_config ear_level_config_of(const ear_level *level);

/* The character at (row, column), or 0 where the map has no cell (past the end of a short
 * row, or outside the map). Thread: any. */
uint32_t ear_level_char_at(const ear_level *level, uint32_t row, uint32_t column);

/* The centre of a cell at floor height (see the formula above). Thread: any. */
ear_vec3 ear_level_cell_center(const ear_level *level, uint32_t row, uint32_t column);

/* The cell under a position (its Y ignored). False, leaving the outputs untouched, when the
 * position is outside the map's rows and columns or not finite. Thread: any. */
bool ear_level_cell_at(const ear_level *level, ear_vec3 position, uint32_t *out_row,
                       uint32_t *out_column);

/* One wall box: its row, first column and number of cells, its centre and half extents
 * (metres). Walls are numbered in row order, west to east within a row. */
typedef struct ear_level_wall {
    uint32_t row, column, cells;
    ear_vec3 center, half_extents;
} ear_level_wall;

/* The number of wall boxes, and the i-th (false for i out of range). Thread: any. */
size_t ear_level_wall_count(const ear_level *level);
bool ear_level_wall_at(const ear_level *level, size_t i, ear_level_wall *out);

/* Tiles: every cell that is not a wall. The distinct characters are numbered in code point
 * order: ear_level_tile_kinds gives their number, ear_level_tile_kind the i-th character
 * and how many tiles have it (false for i out of range). ear_level_tile_count is the
 * number of tiles of one character, ear_level_tile the centre of the index-th of them in
 * row order (false for index out of range). Thread: any. */
size_t ear_level_tile_kinds(const ear_level *level);
bool ear_level_tile_kind(const ear_level *level, size_t i, uint32_t *out_char,
                         size_t *out_count);
size_t ear_level_tile_count(const ear_level *level, uint32_t ch);
bool ear_level_tile(const ear_level *level, uint32_t ch, size_t index, ear_vec3 *out_center,
                    uint32_t *out_row, uint32_t *out_column);

/* Path finding on a level's cells (A*). Walls and cells past a row's end are never entered.
 * A step into a cell costs its length (metres: cell_m, or cell_m * sqrt 2 diagonally) times
 * the cost of the cell's character: the cost of the first entry of costs naming it, else
 * default_cost. A cost that is negative or infinite makes the character impassable. With
 * diagonal, a diagonal step is taken only when both cells beside it can be entered (no
 * cutting corners). Of the paths of least cost, the one found is the same on every run. */
typedef struct ear_path_cost {
    uint32_t ch;
    float cost;
} ear_path_cost;

typedef struct ear_path_config {
    bool diagonal;              /* 8-connected; default false: 4-connected */
    const ear_path_cost *costs; /* borrowed for the call; default NULL */
    size_t cost_count;
    float default_cost; /* the cost of characters not in costs; 0 means 1 */
    /* The search's memory and the path's points; default NULL: malloc. */
    const ear_allocator *allocator;
} ear_path_config;

/* A path: the centres of its cells from the start's to the goal's (count >= 1), its length
 * in metres along those centres and its cost. Owned by the caller: ear_path_release. */
typedef struct ear_path {
    ear_vec3 *points;
    size_t count;
    float length_m;
    float cost;
    ear_allocator alloc_;
} ear_path;

/* The defaults above. Thread: any. */
ear_path_config ear_path_config_default(void);

/* Finds a cheapest path from the cell under from to the cell under to (config NULL: the
 * defaults). Returns EAR_OK with *out filled; EAR_E_NOT_FOUND when there is no way (the
 * start or goal cannot be entered, or walls separate them); EAR_E_INVALID_ARG for NULL
 * level or out, a position outside the map (or not finite), or a cost of 0 or NaN;
 * EAR_E_OUT_OF_MEMORY. On failure *out is set to an empty path (release is harmless).
 * Thread: any (the level is only read). */
ear_result ear_level_find_path(const ear_level *level, ear_vec3 from, ear_vec3 to,
                               const ear_path_config *config, ear_path *out);

/* Frees a path's points and empties it. NULL does nothing. Thread: any. */
void ear_path_release(ear_path *path);

/* Words for positions, directions and speeds, through the translation tables (keys
 * "position.*", "direction.*", "speed.*", built in for English and German; a game's .lang
 * files override them). lang (borrowed for the call) NULL means the built-in English texts,
 * through a short-lived table made for the call (EAR_E_OUT_OF_MEMORY when it cannot be
 * made). Each writes a sentence to out (the caller's buffer) like ear_lang_format: *out_needed
 * (may be NULL) gets its length; EAR_OK when it fits with its NUL in out_size bytes, else
 * EAR_E_INVALID_ARG with out untouched. Also EAR_E_INVALID_ARG for non-finite numbers. Numbers
 * are rounded to whole units. Thread: game (lang's warn-once memory is written; with lang NULL:
 * any). */

/* Where `to` is seen from a listener at `from` looking along facing_deg (yaw, degrees,
 * 0 = north = -Z, clockwise from above): "3 meters ahead, 2 to the left", "4 meters
 * behind you", "2 meters to the right, 1 up", "right here" (every part rounds to 0).
 * Thread: game (any with lang NULL). */
ear_result ear_describe_position(ear_lang *lang, ear_vec3 from, float facing_deg, ear_vec3 to,
                                 char *out, size_t out_size, size_t *out_needed);

typedef enum ear_direction_style {
    EAR_DIRECTION_CLOCK = 0, /* relative to facing: "3 o'clock" (12 is ahead) */
    EAR_DIRECTION_COMPASS,   /* absolute, 8 points: "north", "southwest" */
} ear_direction_style;

/* The direction from `from` to `to`: a clock hour relative to facing_deg, or a compass point
 * (facing ignored). A `to` straight above or below (no horizontal offset) is "ahead" in
 * clock style ("12 o'clock") and "north" in compass style. EAR_E_INVALID_ARG for an unknown
 * style. Thread: game (any with lang NULL). */
ear_result ear_describe_direction(ear_lang *lang, ear_vec3 from, float facing_deg, ear_vec3 to,
                                  ear_direction_style style, char *out, size_t out_size,
                                  size_t *out_needed);

typedef enum ear_speed_unit {
    EAR_SPEED_KMH = 0, /* "50 kilometers per hour" */
    EAR_SPEED_MPH,     /* "31 miles per hour" */
    EAR_SPEED_MPS,     /* "14 meters per second" */
} ear_speed_unit;

/* A speed given in m/s: "50 kilometers per hour"; a negative speed is reversing
 * ("5 kilometers per hour, reversing"). EAR_E_INVALID_ARG for an unknown unit.
 * Thread: game (any with lang NULL). */
ear_result ear_describe_speed(ear_lang *lang, float speed_mps, ear_speed_unit unit, char *out,
                              size_t out_size, size_t *out_needed);

/* Adds a level's walls to a world as fixed boxes (default friction and bounciness), one
 * per wall in ear_level_wall_at order, named "wall:<row>:<column>" (0-based, the run's
 * first cell). *out_added (may be NULL) gets their number. EAR_E_INVALID_ARG for NULL
 * level or world, EAR_E_OUT_OF_MEMORY; on failure the walls added by this call are removed
 * again. Thread: game. */
ear_result ear_level_add_to_world(const ear_level *level, ear_physics *world,
                                  size_t *out_added);

/* ---- World documents ----------------------------------------------------------------------
 * A world as JSON (docs/modules/physics.md, "World documents"):
 *   {"gravity": [0, -9.81, 0], "step_hz": 60,
 *    "level": {"map": ["#####", "#..P#", "#####"], "cell": 1, "height": 3,
 *              "origin": [0, 0, 0], "wall": "#"},
 *    "bodies": [{"name": "crate", "shape": "box", "half_extents": [0.5, 0.5, 0.5],
 *                "position": [2, 0.5, 1.5], "kind": "dynamic", "mass": 20}, ...]}
 * Every body needs name (unique, 1..63 bytes), shape ("box" with half_extents > 0, or
 * "sphere" with radius > 0), position and kind ("fixed", "kinematic", "dynamic"); the
 * other fields are optional with ear_body_desc's defaults: sensor, mass, bounciness,
 * friction, damping, gravity_scale, max_speed, velocity, facing, pitch, tag, and vehicle
 * (kinematic bodies only) with load, engine_force, brake_force, top_speed, grip,
 * rolling_resistance, engine_braking, turn_radius, max_turn_rate, gears, idle_rpm,
 * max_rpm, fuel (default: fuel_capacity), fuel_capacity, consumption, engine_on, defaults
 * as in ear_vehicle_config. Unknown keys are errors unless the options list them. */
typedef struct ear_level_doc_options {
    /* Keys tolerated (and ignored) at the top level and in each body, so that a caller can
     * read its own objects from the same document (the audio world's "source", "impact",
     * "listener"). NULL-terminated lists, borrowed for the call; default NULL. */
    const char *const *extra_keys;
    const char *const *extra_body_keys;
    size_t max_bodies;              /* walls and bodies together; 0 means 100000 */
    const ear_allocator *allocator; /* for the world; default NULL: malloc */
} ear_level_doc_options;

/* A loaded document: the world (its first wall_count bodies are the level's walls, then
 * the document's bodies in order), the level or NULL, and the document's step rate. The
 * caller owns it: ear_level_doc_unload. */
typedef struct ear_level_doc {
    ear_physics *world;
    ear_level *level;
    float step_hz; /* default 60 */
    size_t wall_count;
    size_t body_count;
} ear_level_doc;

/* The first problem of a document: where is the JSON path of the field ("bodies[2].mass",
 * "level.map[3]", "" for the whole document) or, for bad JSON, "line L, column C";
 * message is an English sentence that starts with where. */
typedef struct ear_level_doc_error {
    char where[160];
    char message[480];
} ear_level_doc_error;

/* The defaults above. Thread: any. */
ear_level_doc_options ear_level_doc_options_default(void);

/* Reads a world document (size bytes of JSON) and builds its world (options NULL: the
 * defaults). EAR_E_FORMAT for bad JSON or a bad field (err says which and why: an unknown
 * key, a missing name, a name given twice, a NaN or out-of-range number, mass below 0.001, a
 * half extent or radius below 0.001, a vehicle on a body that is not kinematic, a bad level
 * naming its row and column), EAR_E_INVALID_ARG for NULL text or out,
 * EAR_E_OUT_OF_MEMORY. Nothing is built and *out is untouched on failure.
 * Thread: any (the new world then belongs to the calling thread). */
ear_result ear_level_doc_load(const char *text, size_t size,
                              const ear_level_doc_options *options, ear_level_doc *out,
                              ear_level_doc_error *err);

/* Destroys the world and the level and empties doc. NULL does nothing. Thread: game. */
void ear_level_doc_unload(ear_level_doc *doc);

#ifdef __cplusplus
}
#endif

#endif /* EARSHOT_LEVEL_H */
