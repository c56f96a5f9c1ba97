/* SPDX-License-Identifier: Zlib */
/*
 * libFuzzer target for ASCII levels (src/physics/level.c) and the path finder on them. The
 * first byte picks the cell size (0 gives 0, which must be refused) and whether paths are
 * 8-connected; the rest is the map text. For a level that builds, checked: every cell is a
 * wall or a tile and the counts add up (walls cover exactly the wall cells, tiles of each
 * character are all found), each wall box spans its cells, an error names a row and column
 * inside the text; then a path between two cells picked from the input either does not
 * exist or starts and ends in those cells with a length no shorter than the straight line.
 * Seeds: tests/fuzz/seeds/level.
 */
#include "earshot/level.h"
#include "earshot/physics.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(bool ok) {
    if (!ok) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    float cell = (float)(data[0] & 7) * 0.5f;
    bool diagonal = (data[0] & 8) != 0;
    const char *text = (const char *)data + 1;
    size_t n = size - 1;
    ear_level_config cfg = ear_level_config_default();
    cfg.cell_m = cell;
    ear_level *level = NULL;
    ear_level_error err;
    ear_result r = ear_level_build_with(text, n, &cfg, &level, &err);
    if (r != EAR_OK) {
        check(level == NULL);
        check(err.message[0] != '\0');
        if (cell == 0) check(err.row == 0);
        size_t lines = 1;
        for (size_t i = 0; i < n; i++) lines += text[i] == '\n';
        check(err.row <= lines);
        return 0;
    }
    check(cell > 0);
    uint32_t rows = ear_level_rows(level), cols = ear_level_columns(level);
    check(rows > 0 && cols > 0);
    size_t wall_cells = 0, cells = 0;
    for (uint32_t row = 0; row < rows; row++)
        for (uint32_t c = 0; c < cols; c++) {
            uint32_t ch = ear_level_char_at(level, row, c);
            cells += ch != 0;
            wall_cells += ch == '#';
        }
    size_t covered = 0;
    for (size_t i = 0; i < ear_level_wall_count(level); i++) {
        ear_level_wall w;
        check(ear_level_wall_at(level, i, &w));
        check(w.cells > 0 && w.column + w.cells <= cols);
        for (uint32_t k = 0; k < w.cells; k++)
            check(ear_level_char_at(level, w.row, w.column + k) == '#');
        check(fabsf(w.half_extents.x - 0.5f * cell * (float)w.cells) <=
              1e-3f * cell * (float)w.cells);
        covered += w.cells;
    }
    check(covered == wall_cells);
    size_t tiles = 0;
    for (size_t i = 0; i < ear_level_tile_kinds(level); i++) {
        uint32_t ch;
        size_t count;
        check(ear_level_tile_kind(level, i, &ch, &count));
        check(count == ear_level_tile_count(level, ch));
        uint32_t row, c;
        check(ear_level_tile(level, ch, count - 1, NULL, &row, &c));
        check(ear_level_char_at(level, row, c) == ch);
        tiles += count;
    }
    check(tiles + wall_cells == cells);

    /* A path between two cells chosen by the input's last bytes (on maps small enough to
     * search many times a second). */
    if ((uint64_t)rows * cols > 1u << 20) {
        ear_level_destroy(level);
        return 0;
    }
    uint32_t a = size > 2 ? data[size - 1] : 0, b = size > 3 ? data[size - 2] : 0;
    uint32_t sr = a % rows, sc = (a / 7) % cols, gr = b % rows, gc = (b / 5) % cols;
    ear_path_cost costs[2] = {{'~', 3.0f}, {'X', -1.0f}};
    ear_path_config pc = ear_path_config_default();
    pc.diagonal = diagonal;
    pc.costs = costs;
    pc.cost_count = 2;
    ear_path path;
    ear_vec3 from = ear_level_cell_center(level, sr, sc),
             to = ear_level_cell_center(level, gr, gc);
    r = ear_level_find_path(level, from, to, &pc, &path);
    check(r == EAR_OK || r == EAR_E_NOT_FOUND);
    if (r == EAR_OK) {
        check(path.count >= 1);
        check(memcmp(&path.points[0], &from, sizeof from) == 0);
        check(memcmp(&path.points[path.count - 1], &to, sizeof to) == 0);
        float straight = ear_vec3_length(ear_vec3_sub(to, from));
        check(path.length_m >= straight * 0.999f - 1e-3f);
        check(path.cost >= path.length_m * 0.999f - 1e-3f);
    } else {
        check(path.count == 0 && path.points == NULL);
    }
    ear_path_release(&path);
    ear_level_destroy(level);
    return 0;
}
