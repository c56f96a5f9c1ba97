/* SPDX-License-Identifier: Zlib */
/*
 * ASCII levels and A* paths: how many boxes a map's wall runs make, where the boxes and
 * tiles are (row 0 north, at -Z), which errors name which row and column, and path lengths
 * and costs on known mazes (4- and 8-connected, costs per character, no way), with a
 * Dijkstra written here as the reference on random maps.
 */
#include "earshot/level.h"
#include "earshot/physics.h"

#include "test.h"

static ear_level *build(const char *text, float cell, float height) {
    ear_level *level = NULL;
    ear_level_error err;
    ear_result r = ear_level_build(text, cell, height, &level, &err);
    if (r != EAR_OK) fprintf(stderr, "build: %s\n", err.message);
    return level;
}

static const char *const ROOM = "\n"
                                "\n"
                                "    ######\n"
                                "    #..D.#\n"
                                "    #.##.#   \n"
                                "    ######\n"
                                "\n";

TEST(wall_runs_become_one_box_each) {
    ear_level *level = build(ROOM, 2.0f, 3.0f);
    ASSERT_NOT_NULL(level);
    ASSERT_EQ(ear_level_rows(level), 4);
    ASSERT_EQ(ear_level_columns(level), 6);
    /* Row 0: one run; row 1: two; row 2: three; row 3: one. */
    ASSERT_EQ(ear_level_wall_count(level), 7);
    ear_level_wall w;
    ASSERT_TRUE(ear_level_wall_at(level, 0, &w));
    ASSERT_EQ(w.row, 0);
    ASSERT_EQ(w.cells, 6);
    ASSERT_NEAR(w.center.x, 6.0, 1e-6);
    ASSERT_NEAR(w.center.y, 1.5, 1e-6);
    ASSERT_NEAR(w.center.z, 1.0, 1e-6);
    ASSERT_NEAR(w.half_extents.x, 6.0, 1e-6);
    ASSERT_NEAR(w.half_extents.y, 1.5, 1e-6);
    ASSERT_NEAR(w.half_extents.z, 1.0, 1e-6);
    /* The middle run of row 2 (columns 2 and 3). */
    ASSERT_TRUE(ear_level_wall_at(level, 4, &w));
    ASSERT_EQ(w.row, 2);
    ASSERT_EQ(w.column, 2);
    ASSERT_EQ(w.cells, 2);
    ASSERT_NEAR(w.center.x, 6.0, 1e-6);
    ASSERT_NEAR(w.center.z, 5.0, 1e-6);
    ASSERT_NEAR(w.half_extents.x, 2.0, 1e-6);
    /* Row 0 is the northmost: the smallest Z. */
    ear_level_wall last;
    ASSERT_TRUE(ear_level_wall_at(level, 6, &last));
    ASSERT_EQ(last.row, 3);
    ASSERT_DBL_LT(w.center.z, last.center.z);
    ASSERT_NEAR(last.center.z, 7.0, 1e-6);
    ASSERT_FALSE(ear_level_wall_at(level, 7, &w));
    ear_level_destroy(level);
}

TEST(tiles_by_character) {
    ear_level *level = build(ROOM, 2.0f, 3.0f);
    ASSERT_NOT_NULL(level);
    ASSERT_EQ(ear_level_tile_kinds(level), 2);
    uint32_t ch;
    size_t count;
    ASSERT_TRUE(ear_level_tile_kind(level, 0, &ch, &count));
    ASSERT_EQ(ch, '.');
    ASSERT_EQ(count, 5);
    ASSERT_TRUE(ear_level_tile_kind(level, 1, &ch, &count));
    ASSERT_EQ(ch, 'D');
    ASSERT_EQ(count, 1);
    ASSERT_EQ(ear_level_tile_count(level, 'D'), 1);
    ASSERT_EQ(ear_level_tile_count(level, 'X'), 0);
    ear_vec3 c;
    uint32_t row, column;
    ASSERT_TRUE(ear_level_tile(level, 'D', 0, &c, &row, &column));
    ASSERT_EQ(row, 1);
    ASSERT_EQ(column, 3);
    ASSERT_NEAR(c.x, 7.0, 1e-6);
    ASSERT_NEAR(c.y, 0.0, 1e-6);
    ASSERT_NEAR(c.z, 3.0, 1e-6);
    /* '.' tiles in row order: (1,1) (1,2) (1,4) (2,1) (2,4). */
    ASSERT_TRUE(ear_level_tile(level, '.', 4, &c, &row, &column));
    ASSERT_EQ(row, 2);
    ASSERT_EQ(column, 4);
    ASSERT_FALSE(ear_level_tile(level, '.', 5, &c, NULL, NULL));
    ASSERT_TRUE(ear_level_cell_at(level, c, &row, &column));
    ASSERT_EQ(row, 2);
    ASSERT_EQ(column, 4);
    ASSERT_FALSE(ear_level_cell_at(level, ear_vec3_make(-0.1f, 0, 1), &row, &column));
    ASSERT_FALSE(ear_level_cell_at(level, ear_vec3_make(1, 0, 8.01f), &row, &column));
    ASSERT_EQ(ear_level_char_at(level, 1, 3), 'D');
    ear_level_destroy(level);
}

TEST(ragged_rows_blank_rows_and_utf8) {
    ear_level *level = build("###\n#\n\n#ä###  \n", 1.0f, 2.0f);
    ASSERT_NOT_NULL(level);
    ASSERT_EQ(ear_level_rows(level), 4);
    ASSERT_EQ(ear_level_columns(level), 5);
    ASSERT_EQ(ear_level_char_at(level, 1, 0), '#');
    ASSERT_EQ(ear_level_char_at(level, 1, 1), 0); /* past the short row's end */
    ASSERT_EQ(ear_level_char_at(level, 2, 0), 0); /* the blank row between */
    ASSERT_EQ(ear_level_char_at(level, 3, 1), 0xe4);
    ASSERT_EQ(ear_level_wall_count(level), 4);
    ASSERT_EQ(ear_level_tile_count(level, 0xe4), 1);
    ASSERT_EQ(ear_level_tile_count(level, ' '), 0); /* trailing spaces are not cells */
    ear_level_destroy(level);

    /* Spaces inside a row are cells (tiles of ' '). */
    level = build("# #\n###", 1.0f, 2.0f);
    ASSERT_NOT_NULL(level);
    ASSERT_EQ(ear_level_tile_count(level, ' '), 1);
    ASSERT_EQ(ear_level_wall_count(level), 3);
    ear_level_destroy(level);
}

TEST(errors_name_row_and_column) {
    ear_level *level = NULL;
    ear_level_error err;
    ASSERT_EQ(ear_level_build("\n  ##\n  #\t#\n", 1, 3, &level, &err), EAR_E_FORMAT);
    ASSERT_EQ(err.row, 3);
    ASSERT_EQ(err.column, 4);
    ASSERT_STR_EQ(err.message, "row 3, column 4: a tab (indent with spaces)");
    ASSERT_EQ(ear_level_build("##\n#\x01", 1, 3, &level, &err), EAR_E_FORMAT);
    ASSERT_STR_EQ(err.message, "row 2, column 2: a control character");
    ASSERT_EQ(ear_level_build("#.#\n#\xff#", 1, 3, &level, &err), EAR_E_FORMAT);
    ASSERT_STR_EQ(err.message, "row 2, column 2: bytes that are not UTF-8");
    ASSERT_EQ(ear_level_build("   \n\n  ", 1, 3, &level, &err), EAR_E_FORMAT);
    ASSERT_STR_EQ(err.message, "row 1, column 1: the map has no cells (every row is blank)");
    ASSERT_EQ(ear_level_build("", 1, 3, &level, &err), EAR_E_FORMAT);
    ASSERT_EQ(ear_level_build("#", 0, 3, &level, &err), EAR_E_INVALID_ARG);
    ASSERT_EQ(err.row, 0);
    ASSERT_STR_EQ(err.message, "the cell size must be a number > 0 (got 0)");
    ASSERT_EQ(ear_level_build("#", -1, 3, &level, &err), EAR_E_INVALID_ARG);
    ASSERT_EQ(ear_level_build("#", NAN, 3, &level, &err), EAR_E_INVALID_ARG);
    ASSERT_EQ(ear_level_build("#", 1, 0, &level, &err), EAR_E_INVALID_ARG);
    ASSERT_NULL(level);
}

TEST(walls_join_a_world_as_fixed_boxes) {
    ear_level *level = build(ROOM, 2.0f, 3.0f);
    ear_physics *world = NULL;
    ASSERT_OK(ear_physics_create(NULL, &world));
    size_t added = 0;
    ASSERT_OK(ear_level_add_to_world(level, world, &added));
    ASSERT_EQ(added, 7);
    ASSERT_EQ(ear_physics_body_count(world), 7);
    ear_body_id id = ear_physics_find(world, "wall:2:2");
    ASSERT_NE(id, EAR_BODY_NONE);
    ear_body_info info;
    ASSERT_OK(ear_body_get(world, id, &info));
    ASSERT_EQ(info.desc.kind, EAR_BODY_FIXED);
    ASSERT_EQ(info.desc.shape, EAR_SHAPE_BOX);
    ASSERT_NEAR(info.desc.position_m.x, 6.0, 1e-6);
    ASSERT_NEAR(info.desc.position_m.z, 5.0, 1e-6);
    ASSERT_NEAR(info.desc.half_extents_m.x, 2.0, 1e-6);
    ear_physics_destroy(world);
    ear_level_destroy(level);
}

/* ---- Paths ------------------------------------------------------------------------------ */

static ear_vec3 at_cell(const ear_level *level, uint32_t row, uint32_t column) {
    return ear_level_cell_center(level, row, column);
}

static const char *const OPEN = "#######\n"
                                "#S....#\n"
                                "#.....#\n"
                                "#.....#\n"
                                "#....G#\n"
                                "#######\n";

TEST(path_in_an_open_room) {
    ear_level *level = build(OPEN, 1.5f, 3.0f);
    ear_path path;
    ear_path_config cfg = ear_path_config_default();
    ASSERT_OK(
        ear_level_find_path(level, at_cell(level, 1, 1), at_cell(level, 4, 5), &cfg, &path));
    /* 4-connected: 3 + 4 steps of 1.5 m. */
    ASSERT_EQ(path.count, 8);
    ASSERT_NEAR(path.length_m, 7 * 1.5, 1e-5);
    ASSERT_NEAR(path.cost, 7 * 1.5, 1e-5);
    ASSERT_NEAR(path.points[0].x, 1.5 * 1.5, 1e-6);
    ASSERT_NEAR(path.points[7].z, 4.5 * 1.5, 1e-6);
    ear_path_release(&path);
    cfg.diagonal = true;
    ASSERT_OK(
        ear_level_find_path(level, at_cell(level, 1, 1), at_cell(level, 4, 5), &cfg, &path));
    /* 8-connected: 3 diagonal steps and 1 straight. */
    ASSERT_EQ(path.count, 5);
    ASSERT_NEAR(path.length_m, (3 * sqrt(2.0) + 1) * 1.5, 1e-5);
    ear_path_release(&path);
    /* Start and goal in one cell. */
    ASSERT_OK(
        ear_level_find_path(level, at_cell(level, 2, 2), at_cell(level, 2, 2), &cfg, &path));
    ASSERT_EQ(path.count, 1);
    ASSERT_NEAR(path.length_m, 0, 0);
    ear_path_release(&path);
    ear_level_destroy(level);
}

static const char *const CORRIDOR = "#######\n"
                                    "#S#...#\n"
                                    "#.#.#.#\n"
                                    "#...#G#\n"
                                    "#######\n";

TEST(path_through_a_corridor_does_not_cut_corners) {
    ear_level *level = build(CORRIDOR, 1.0f, 3.0f);
    ear_path path;
    ear_path_config cfg = ear_path_config_default();
    ASSERT_OK(
        ear_level_find_path(level, at_cell(level, 1, 1), at_cell(level, 3, 5), &cfg, &path));
    ASSERT_EQ(path.count, 11);
    ASSERT_NEAR(path.length_m, 10.0, 1e-5);
    /* The turn at the bottom: (3,3) then (2,3). */
    ASSERT_NEAR(path.points[4].x, 3.5, 1e-6);
    ASSERT_NEAR(path.points[4].z, 3.5, 1e-6);
    ASSERT_NEAR(path.points[5].z, 2.5, 1e-6);
    ear_path_release(&path);
    /* Diagonals would cut past wall corners here; they are refused, so the same 10 m. */
    cfg.diagonal = true;
    ASSERT_OK(
        ear_level_find_path(level, at_cell(level, 1, 1), at_cell(level, 3, 5), &cfg, &path));
    ASSERT_EQ(path.count, 11);
    ASSERT_NEAR(path.length_m, 10.0, 1e-5);
    ear_path_release(&path);
    ear_level_destroy(level);
}

static const char *const WATER = "#######\n"
                                 "#S~~~G#\n"
                                 "#.....#\n"
                                 "#######\n";

static void water_path(const ear_level *level, float water_cost, ear_path *path) {
    ear_path_cost costs[1] = {{'~', water_cost}};
    ear_path_config cfg = ear_path_config_default();
    cfg.costs = costs;
    cfg.cost_count = 1;
    if (ear_level_find_path(level, at_cell(level, 1, 1), at_cell(level, 1, 5), &cfg, path) !=
        EAR_OK)
        path->count = 0;
}

TEST(path_costs_per_character) {
    ear_level *level = build(WATER, 1.0f, 3.0f);
    ear_path path;
    /* Straight through the water: 3 cells at the water's cost, then G at 1. */
    water_path(level, 1.0f, &path);
    ASSERT_NEAR(path.length_m, 4, 1e-5);
    ASSERT_NEAR(path.cost, 4, 1e-5);
    ear_path_release(&path);
    water_path(level, 1.5f, &path);
    ASSERT_NEAR(path.length_m, 4, 1e-5);
    ASSERT_NEAR(path.cost, 3 * 1.5 + 1, 1e-5);
    ear_path_release(&path);
    /* At 2 the water costs 7 and the way round 6 steps of 1. */
    water_path(level, 2.0f, &path);
    ASSERT_NEAR(path.length_m, 6, 1e-5);
    ASSERT_NEAR(path.cost, 6, 1e-5);
    ear_path_release(&path);
    /* Impassable water: round it too. */
    water_path(level, -1.0f, &path);
    ASSERT_EQ(path.count, 7);
    ear_path_release(&path);
    /* Only the water is passable (default cost negative). */
    ear_path_cost costs[3] = {{'~', 1}, {'S', 1}, {'G', 1}};
    ear_path_config cfg = ear_path_config_default();
    cfg.costs = costs;
    cfg.cost_count = 3;
    cfg.default_cost = -1;
    ASSERT_OK(
        ear_level_find_path(level, at_cell(level, 1, 1), at_cell(level, 1, 5), &cfg, &path));
    ASSERT_NEAR(path.length_m, 4, 1e-5);
    ear_path_release(&path);
    /* A cost of 0 or NaN is refused. */
    costs[0].cost = 0;
    ASSERT_EQ(
        ear_level_find_path(level, at_cell(level, 1, 1), at_cell(level, 1, 5), &cfg, &path),
        EAR_E_INVALID_ARG);
    ear_level_destroy(level);
}

TEST(no_path) {
    ear_level *level = build("#####\n#S#G#\n#####\n", 1.0f, 3.0f);
    ear_path path;
    ASSERT_EQ(
        ear_level_find_path(level, at_cell(level, 1, 1), at_cell(level, 1, 3), NULL, &path),
        EAR_E_NOT_FOUND);
    ASSERT_EQ(path.count, 0);
    ASSERT_NULL(path.points);
    /* Into a wall, out of the map. */
    ASSERT_EQ(
        ear_level_find_path(level, at_cell(level, 1, 1), at_cell(level, 1, 2), NULL, &path),
        EAR_E_NOT_FOUND);
    ASSERT_EQ(
        ear_level_find_path(level, at_cell(level, 1, 1), ear_vec3_make(-3, 0, 1), NULL, &path),
        EAR_E_INVALID_ARG);
    ear_level_destroy(level);
}

/* Dijkstra over the same rules (O(n^2), fine for 900 cells): the reference cost. */
static double reference_cost(const ear_level *level, uint32_t sr, uint32_t sc, uint32_t gr,
                             uint32_t gc, bool diagonal, float water) {
    uint32_t rows = ear_level_rows(level), cols = ear_level_columns(level);
    size_t n = (size_t)rows * cols;
    double *dist = malloc(n * sizeof *dist);
    char *done = calloc(n, 1);
    for (size_t i = 0; i < n; i++) dist[i] = INFINITY;
    dist[sr * cols + sc] = 0;
    for (;;) {
        size_t best = n;
        for (size_t i = 0; i < n; i++)
            if (!done[i] && isfinite(dist[i]) && (best == n || dist[i] < dist[best])) best = i;
        if (best == n) break;
        done[best] = 1;
        uint32_t r = (uint32_t)(best / cols), c = (uint32_t)(best % cols);
        for (int dr = -1; dr <= 1; dr++)
            for (int dc = -1; dc <= 1; dc++) {
                if (!dr && !dc) continue;
                if (!diagonal && dr && dc) continue;
                int64_t nr = (int64_t)r + dr,
                        nc = (int64_t)c + dc; /* long is 32 bits on Windows */
                if (nr < 0 || nc < 0 || nr >= rows || nc >= cols) continue;
                uint32_t ch = ear_level_char_at(level, (uint32_t)nr, (uint32_t)nc);
                if (ch == '#' || ch == 0) continue;
                if (dr && dc) {
                    uint32_t a = ear_level_char_at(level, r, (uint32_t)nc);
                    uint32_t b = ear_level_char_at(level, (uint32_t)nr, c);
                    if (a == '#' || b == '#') continue;
                }
                double cost = (ch == '~' ? water : 1.0) * (dr && dc ? sqrt(2.0) : 1.0);
                size_t next = (size_t)nr * cols + (size_t)nc;
                if (dist[best] + cost < dist[next]) dist[next] = dist[best] + cost;
            }
    }
    double d = dist[gr * cols + gc];
    free(dist);
    free(done);
    return d;
}

TEST(paths_are_the_cheapest_on_random_maps) {
    ear_rng rng;
    ear_rng_seed(&rng, 7);
    char text[31 * 30 + 1];
    int found = 0, none = 0;
    for (int map = 0; map < 40; map++) {
        size_t at = 0;
        for (int r = 0; r < 30; r++) {
            for (int c = 0; c < 30; c++) {
                double u = ear_rng_uniform(&rng);
                text[at++] = u < 0.28 ? '#' : u < 0.4 ? '~' : '.';
            }
            text[at++] = '\n';
        }
        text[at] = '\0';
        ear_level *level = build(text, 1.0f, 2.0f);
        ASSERT_NOT_NULL(level);
        uint32_t sr = ear_rng_below(&rng, 30), sc = ear_rng_below(&rng, 30);
        uint32_t gr = ear_rng_below(&rng, 30), gc = ear_rng_below(&rng, 30);
        bool diagonal = map % 2 == 1;
        ear_path_cost costs[1] = {{'~', 3.0f}};
        ear_path_config cfg = ear_path_config_default();
        cfg.diagonal = diagonal;
        cfg.costs = costs;
        cfg.cost_count = 1;
        ear_path path;
        ear_result r = ear_level_find_path(level, at_cell(level, sr, sc),
                                           at_cell(level, gr, gc), &cfg, &path);
        uint32_t sch = ear_level_char_at(level, sr, sc), gch = ear_level_char_at(level, gr, gc);
        double want = sch == '#' || gch == '#'
                          ? INFINITY
                          : reference_cost(level, sr, sc, gr, gc, diagonal, 3.0f);
        if (isfinite(want)) {
            ASSERT_OK(r);
            ASSERT_NEAR(path.cost, want, 1e-4 * (1 + want));
            found++;
        } else {
            ASSERT_EQ(r, EAR_E_NOT_FOUND);
            none++;
        }
        ear_path_release(&path);
        ear_level_destroy(level);
    }
    ASSERT_GT(found, 10);
    ASSERT_GT(none, 0);
}

TEST_MAIN(TEST_ENTRY(wall_runs_become_one_box_each), TEST_ENTRY(tiles_by_character),
          TEST_ENTRY(ragged_rows_blank_rows_and_utf8), TEST_ENTRY(errors_name_row_and_column),
          TEST_ENTRY(walls_join_a_world_as_fixed_boxes), TEST_ENTRY(path_in_an_open_room),
          TEST_ENTRY(path_through_a_corridor_does_not_cut_corners),
          TEST_ENTRY(path_costs_per_character), TEST_ENTRY(no_path),
          TEST_ENTRY(paths_are_the_cheapest_on_random_maps))
