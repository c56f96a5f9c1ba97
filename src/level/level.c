/* SPDX-License-Identifier: Zlib */
/*
 * ASCII levels: a text map turned into wall boxes and tiles.
 *
 * The level keeps a dense grid of rows x columns code points (0 where a short row has no
 * cell), the wall boxes (one per run of wall characters in a row, in row order) and the
 * tiles (every other cell) sorted by (character, row, column), with one "kind" per
 * distinct character pointing at its first tile. The grid is what the path finder walks;
 * the walls are what ear_level_add_to_world turns into fixed boxes; the tiles answer "where
 * are the doors" without a scan.
 *
 * Parsing runs in two passes over the text: the first splits lines, checks every byte
 * (UTF-8, no tabs, no control characters) and measures indentation and length, so that
 * the second can allocate exactly and cannot fail halfway.
 */
#include "level_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SIDE  65535u
#define MAX_CELLS (16u * 1024u * 1024u)

typedef struct tile {
    uint32_t ch, row, column;
} tile;

typedef struct kind {
    uint32_t ch;
    size_t first, count;
} kind;

struct ear_level {
    ear_allocator alloc;
    ear_level_config config;
    uint32_t rows, columns;
    uint32_t *cells; /* rows * columns, row-major; 0 = no cell */
    ear_level_wall *walls;
    size_t wall_count;
    tile *tiles;
    size_t tile_count;
    kind *kinds;
    size_t kind_count;
};

/* One line of the text as the first pass measured it. */
typedef struct line_info {
    size_t start;    /* byte offset of the line */
    size_t bytes;    /* without its line end */
    uint32_t indent; /* leading spaces */
    uint32_t length; /* code points up to the last one that is not a space */
    bool blank;
} line_info;

ear_level_config ear_level_config_default(void) {
    ear_level_config c;
    memset(&c, 0, sizeof c);
    c.cell_m = 1.0f;
    c.wall_height_m = 3.0f;
    c.wall_char = '#';
    return c;
}

static void set_error(ear_level_error *err, uint32_t row, uint32_t column, const char *format,
                      ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static void set_error(ear_level_error *err, uint32_t row, uint32_t column, const char *format,
                      ...) {
    if (!err) return;
    char what[160];
    va_list args;
    va_start(args, format);
    vsnprintf(what, sizeof what, format, args);
    va_end(args);
    err->row = row;
    err->column = column;
    if (row > 0)
        snprintf(err->message, sizeof err->message, "row %u, column %u: %s", row, column, what);
    else
        snprintf(err->message, sizeof err->message, "%s", what);
}

/* Decodes one UTF-8 code point at text[*i] (advancing *i); 0 when the bytes are not
 * well-formed (the caller reports it). */
static uint32_t next_code_point(const unsigned char *text, size_t size, size_t *i) {
    uint32_t cp = 0;
    size_t n = ear_utf8_decode((const char *)text + *i, size - *i, &cp);
    if (n == 0) return 0;
    *i += n;
    return cp;
}

static const char *char_name(uint32_t cp) {
    return cp == '\t' ? "a tab (indent with spaces)" : "a control character";
}

/* The first pass: lines, their indentation and length; an error at the first bad byte. */
static ear_result measure_lines(const unsigned char *text, size_t size, line_info *lines,
                                size_t *out_count, ear_level_error *err) {
    size_t count = 0, i = 0;
    while (i < size || (i == size && count == 0)) {
        line_info *l = &lines[count];
        l->start = i;
        l->indent = 0;
        l->length = 0;
        l->blank = true;
        uint32_t column = 0;
        bool leading = true;
        while (i < size && text[i] != '\n') {
            if (text[i] == '\r' && (i + 1 == size || text[i + 1] == '\n')) {
                i++;
                continue;
            }
            column++;
            uint32_t cp = next_code_point(text, size, &i);
            if (cp == 0) {
                set_error(err, (uint32_t)(count + 1), column, "bytes that are not UTF-8");
                return EAR_E_FORMAT;
            }
            if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0xa0)) {
                set_error(err, (uint32_t)(count + 1), column, "%s", char_name(cp));
                return EAR_E_FORMAT;
            }
            if (column > MAX_SIDE) {
                set_error(err, (uint32_t)(count + 1), column,
                          "the row is longer than %u characters", MAX_SIDE);
                return EAR_E_INVALID_ARG;
            }
            if (cp == ' ') {
                if (leading) l->indent++;
            } else {
                leading = false;
                l->blank = false;
                l->length = column;
            }
        }
        l->bytes = (i < size ? i : size) - l->start;
        if (l->bytes > 0 && text[l->start + l->bytes - 1] == '\r') l->bytes--;
        count++;
        if (i >= size) break;
        i++; /* the '\n' */
        if (i == size) break;
    }
    *out_count = count;
    return EAR_OK;
}

static int tile_order(const void *a, const void *b) {
    const tile *x = a, *y = b;
    if (x->ch != y->ch) return x->ch < y->ch ? -1 : 1;
    if (x->row != y->row) return x->row < y->row ? -1 : 1;
    return x->column < y->column ? -1 : x->column > y->column;
}

static void *mem_alloc(const ear_allocator *a, size_t size) {
    return a->alloc_fn(size ? size : 1, a->user);
}

void ear_level_destroy(ear_level *level) {
    if (!level) return;
    ear_allocator a = level->alloc;
    if (level->cells) a.free_fn(level->cells, a.user);
    if (level->walls) a.free_fn(level->walls, a.user);
    if (level->tiles) a.free_fn(level->tiles, a.user);
    if (level->kinds) a.free_fn(level->kinds, a.user);
    a.free_fn(level, a.user);
}

ear_result ear_level_build_with(const char *text, size_t size, const ear_level_config *config,
                                ear_level **out, ear_level_error *err) {
    if (err) memset(err, 0, sizeof *err);
    if (!text || !out) {
        set_error(err, 0, 0, "no text or no place for the level");
        return EAR_E_INVALID_ARG;
    }
    ear_level_config cfg = config ? *config : ear_level_config_default();
    if (!(cfg.cell_m > 0) || !isfinite(cfg.cell_m)) {
        set_error(err, 0, 0, "the cell size must be a number > 0 (got %g)", (double)cfg.cell_m);
        return EAR_E_INVALID_ARG;
    }
    if (!(cfg.wall_height_m > 0) || !isfinite(cfg.wall_height_m)) {
        set_error(err, 0, 0, "the wall height must be a number > 0 (got %g)",
                  (double)cfg.wall_height_m);
        return EAR_E_INVALID_ARG;
    }
    if (!ear_vec3_is_finite(cfg.origin)) {
        set_error(err, 0, 0, "the origin must be finite");
        return EAR_E_INVALID_ARG;
    }
    if (cfg.wall_char == 0) cfg.wall_char = '#';
    ear_allocator alloc = ear_allocator_resolve(cfg.allocator);
    cfg.allocator = NULL;

    /* Lines: at most one per '\n' plus one. */
    const unsigned char *bytes = (const unsigned char *)text;
    size_t max_lines = 1;
    for (size_t i = 0; i < size; i++) max_lines += bytes[i] == '\n';
    line_info *lines = mem_alloc(&alloc, max_lines * sizeof *lines);
    if (!lines) return EAR_E_OUT_OF_MEMORY;
    size_t line_count = 0;
    ear_result r = measure_lines(bytes, size, lines, &line_count, err);
    if (r != EAR_OK) {
        alloc.free_fn(lines, alloc.user);
        return r;
    }
    size_t first = 0, last = 0;
    bool any = false;
    uint32_t indent = UINT32_MAX;
    for (size_t i = 0; i < line_count; i++) {
        if (lines[i].blank) continue;
        if (!any) first = i;
        any = true;
        last = i;
        if (lines[i].indent < indent) indent = lines[i].indent;
    }
    if (!any) {
        alloc.free_fn(lines, alloc.user);
        set_error(err, 1, 1, "the map has no cells (every row is blank)");
        return EAR_E_FORMAT;
    }
    size_t rows = last - first + 1;
    uint32_t columns = 0;
    for (size_t i = first; i <= last; i++)
        if (!lines[i].blank && lines[i].length - indent > columns)
            columns = lines[i].length - indent;
    if (rows > MAX_SIDE || (uint64_t)rows * columns > MAX_CELLS) {
        alloc.free_fn(lines, alloc.user);
        set_error(err, (uint32_t)(first + 1), 1,
                  "the map has %zu rows of up to %u cells; at most %u rows and %u cells", rows,
                  columns, MAX_SIDE, MAX_CELLS);
        return EAR_E_INVALID_ARG;
    }

    ear_level *level = mem_alloc(&alloc, sizeof *level);
    if (!level) {
        alloc.free_fn(lines, alloc.user);
        return EAR_E_OUT_OF_MEMORY;
    }
    memset(level, 0, sizeof *level);
    level->alloc = alloc;
    level->config = cfg;
    level->rows = (uint32_t)rows;
    level->columns = columns;
    size_t cell_count = rows * columns;
    level->cells = mem_alloc(&alloc, cell_count * sizeof *level->cells);
    if (!level->cells) goto oom;
    memset(level->cells, 0, cell_count * sizeof *level->cells);

    /* The second pass fills the grid (the text is known to be good) and counts. */
    size_t walls = 0, tiles = 0;
    for (size_t r0 = 0; r0 < rows; r0++) {
        const line_info *l = &lines[first + r0];
        if (l->blank) continue;
        size_t i = l->start, end = l->start + l->bytes;
        uint32_t column = 0;
        uint32_t *row = level->cells + r0 * columns;
        bool in_wall = false;
        while (i < end && column < l->length) {
            uint32_t cp = next_code_point(bytes, end, &i);
            column++;
            if (column <= indent) continue;
            row[column - indent - 1] = cp;
            if (cp == cfg.wall_char) {
                walls += !in_wall;
                in_wall = true;
            } else {
                tiles++;
                in_wall = false;
            }
        }
    }
    alloc.free_fn(lines, alloc.user);
    lines = NULL;

    level->walls = mem_alloc(&alloc, walls * sizeof *level->walls);
    level->tiles = mem_alloc(&alloc, tiles * sizeof *level->tiles);
    if (!level->walls || !level->tiles) goto oom;
    float cell = cfg.cell_m, half_h = cfg.wall_height_m * 0.5f;
    for (uint32_t r0 = 0; r0 < level->rows; r0++) {
        const uint32_t *row = level->cells + (size_t)r0 * columns;
        for (uint32_t c = 0; c < columns;) {
            if (row[c] == 0) {
                c++;
                continue;
            }
            if (row[c] != cfg.wall_char) {
                level->tiles[level->tile_count++] = (tile){row[c], r0, c};
                c++;
                continue;
            }
            uint32_t start = c;
            while (c < columns && row[c] == cfg.wall_char) c++;
            ear_level_wall *w = &level->walls[level->wall_count++];
            w->row = r0;
            w->column = start;
            w->cells = c - start;
            w->half_extents = ear_vec3_make((float)w->cells * cell * 0.5f, half_h, cell * 0.5f);
            w->center =
                ear_vec3_make(cfg.origin.x + ((float)start + (float)w->cells * 0.5f) * cell,
                              cfg.origin.y + half_h, cfg.origin.z + ((float)r0 + 0.5f) * cell);
        }
    }
    qsort(level->tiles, level->tile_count, sizeof *level->tiles, tile_order);
    size_t kinds = 0;
    for (size_t i = 0; i < level->tile_count; i++)
        kinds += i == 0 || level->tiles[i].ch != level->tiles[i - 1].ch;
    level->kinds = mem_alloc(&alloc, kinds * sizeof *level->kinds);
    if (!level->kinds) goto oom;
    for (size_t i = 0; i < level->tile_count; i++) {
        if (i == 0 || level->tiles[i].ch != level->tiles[i - 1].ch)
            level->kinds[level->kind_count++] = (kind){level->tiles[i].ch, i, 0};
        level->kinds[level->kind_count - 1].count++;
    }
    *out = level;
    return EAR_OK;

oom:
    if (lines) alloc.free_fn(lines, alloc.user);
    ear_level_destroy(level);
    set_error(err, 0, 0, "out of memory");
    return EAR_E_OUT_OF_MEMORY;
}

ear_result ear_level_build(const char *text, float cell_m, float wall_height_m, ear_level **out,
                           ear_level_error *err) {
    ear_level_config cfg = ear_level_config_default();
    cfg.cell_m = cell_m;
    cfg.wall_height_m = wall_height_m;
    return ear_level_build_with(text, text ? strlen(text) : 0, &cfg, out, err);
}

uint32_t ear_level_rows(const ear_level *level) {
    return level ? level->rows : 0;
}

uint32_t ear_level_columns(const ear_level *level) {
    return level ? level->columns : 0;
}

ear_level_config ear_level_config_of(const ear_level *level) {
    return level ? level->config : ear_level_config_default();
}

uint32_t ear_level_char_at(const ear_level *level, uint32_t row, uint32_t column) {
    if (!level || row >= level->rows || column >= level->columns) return 0;
    return level->cells[(size_t)row * level->columns + column];
}

ear_vec3 ear_level_cell_center(const ear_level *level, uint32_t row, uint32_t column) {
    if (!level) return ear_vec3_make(0, 0, 0);
    float cell = level->config.cell_m;
    ear_vec3 o = level->config.origin;
    return ear_vec3_make(o.x + ((float)column + 0.5f) * cell, o.y,
                         o.z + ((float)row + 0.5f) * cell);
}

bool ear_level_cell_at(const ear_level *level, ear_vec3 position, uint32_t *out_row,
                       uint32_t *out_column) {
    if (!level || !ear_vec3_is_finite(position)) return false;
    double cell = level->config.cell_m;
    double c = floor(((double)position.x - level->config.origin.x) / cell);
    double r = floor(((double)position.z - level->config.origin.z) / cell);
    if (c < 0 || r < 0 || c >= level->columns || r >= level->rows) return false;
    if (out_row) *out_row = (uint32_t)r;
    if (out_column) *out_column = (uint32_t)c;
    return true;
}

size_t ear_level_wall_count(const ear_level *level) {
    return level ? level->wall_count : 0;
}

bool ear_level_wall_at(const ear_level *level, size_t i, ear_level_wall *out) {
    if (!level || i >= level->wall_count || !out) return false;
    *out = level->walls[i];
    return true;
}

size_t ear_level_tile_kinds(const ear_level *level) {
    return level ? level->kind_count : 0;
}

bool ear_level_tile_kind(const ear_level *level, size_t i, uint32_t *out_char,
                         size_t *out_count) {
    if (!level || i >= level->kind_count) return false;
    if (out_char) *out_char = level->kinds[i].ch;
    if (out_count) *out_count = level->kinds[i].count;
    return true;
}

static const kind *find_kind(const ear_level *level, uint32_t ch) {
    if (!level) return NULL;
    size_t lo = 0, hi = level->kind_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (level->kinds[mid].ch < ch)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < level->kind_count && level->kinds[lo].ch == ch ? &level->kinds[lo] : NULL;
}

size_t ear_level_tile_count(const ear_level *level, uint32_t ch) {
    const kind *k = find_kind(level, ch);
    return k ? k->count : 0;
}

bool ear_level_tile(const ear_level *level, uint32_t ch, size_t index, ear_vec3 *out_center,
                    uint32_t *out_row, uint32_t *out_column) {
    const kind *k = find_kind(level, ch);
    if (!k || index >= k->count) return false;
    const tile *t = &level->tiles[k->first + index];
    if (out_center) *out_center = ear_level_cell_center(level, t->row, t->column);
    if (out_row) *out_row = t->row;
    if (out_column) *out_column = t->column;
    return true;
}

const uint32_t *ear__level_cells(const ear_level *level) {
    return level->cells;
}

/* Walls as fixed boxes (here, not in world_doc.c, so that builds without jansson, the web
 * build, have it too). */
ear_result ear_level_add_to_world(const ear_level *level, ear_physics *world,
                                  size_t *out_added) {
    if (out_added) *out_added = 0;
    if (!level || !world) return EAR_E_INVALID_ARG;
    size_t count = ear_level_wall_count(level);
    ear_result r = ear_physics_reserve(world, ear_physics_body_count(world) + count);
    if (r != EAR_OK) return r;
    for (size_t i = 0; i < count; i++) {
        ear_level_wall w;
        ear_level_wall_at(level, i, &w);
        char name[48];
        snprintf(name, sizeof name, "wall:%u:%u", w.row, w.column);
        ear_body_desc d = ear_body_desc_default();
        d.name = name;
        d.kind = EAR_BODY_FIXED;
        d.shape = EAR_SHAPE_BOX;
        d.position_m = w.center;
        d.half_extents_m = w.half_extents;
        ear_body_id id;
        r = ear_physics_add_body(world, &d, &id);
        if (r != EAR_OK) {
            /* Take back what this call added, so a failure changes nothing. */
            for (size_t k = 0; k < i; k++)
                ear_physics_remove_body(
                    world, ear_physics_body_at(world, ear_physics_body_count(world) - 1));
            return r;
        }
    }
    if (out_added) *out_added = count;
    return EAR_OK;
}
