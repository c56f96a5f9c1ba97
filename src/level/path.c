/* SPDX-License-Identifier: Zlib */
/*
 * A* on a level's cells.
 *
 * The search keeps, per cell, the best cost found so far (g), the cell it came from and its
 * place in an indexed binary heap of open cells, so a cheaper way to an open cell lowers
 * its key in place and the heap never holds more than one entry per cell. Keys are
 * f = g + h, with h the octile (8-connected) or Manhattan (4-connected) distance in cells
 * times cell_m times the smallest passable cost: never more than the true remaining cost,
 * so the first time the goal leaves the heap its cost is the least. Ties go to the smaller
 * h, then to the smaller cell index, so the same call always returns the same path.
 */
#include "level_internal.h"

#include <stdlib.h>
#include <string.h>

#define NO_PARENT UINT32_MAX
#define SQRT2     1.41421356237309504880

enum { UNSEEN = 0, OPEN = 1, CLOSED = 2 };

typedef struct search {
    const ear_level *level;
    const ear_path_config *config;
    uint32_t rows, columns;
    double *g, *h;
    uint32_t *parent, *heap, *where;
    uint8_t *state;
    size_t heap_count;
} search;

ear_path_config ear_path_config_default(void) {
    ear_path_config c;
    memset(&c, 0, sizeof c);
    c.default_cost = 1.0f;
    return c;
}

void ear_path_release(ear_path *path) {
    if (!path) return;
    if (path->points) path->alloc_.free_fn(path->points, path->alloc_.user);
    memset(path, 0, sizeof *path);
}

/* The cost of entering a cell of character ch: > 0, or a negative number when it cannot be
 * entered. */
static double cell_cost(const ear_level *level, const ear_path_config *cfg, uint32_t ch) {
    if (ch == 0 || ch == ear_level_config_of(level).wall_char) return -1;
    double cost = cfg->default_cost == 0 ? 1.0 : cfg->default_cost;
    for (size_t i = 0; i < cfg->cost_count; i++)
        if (cfg->costs[i].ch == ch) {
            cost = cfg->costs[i].cost;
            break;
        }
    return isfinite(cost) && cost > 0 ? cost : -1;
}

static bool before(const search *s, uint32_t a, uint32_t b) {
    double fa = s->g[a] + s->h[a], fb = s->g[b] + s->h[b];
    if (fa != fb) return fa < fb;
    if (s->h[a] != s->h[b]) return s->h[a] < s->h[b];
    return a < b;
}

static void heap_swap(search *s, size_t i, size_t j) {
    uint32_t t = s->heap[i];
    s->heap[i] = s->heap[j];
    s->heap[j] = t;
    s->where[s->heap[i]] = (uint32_t)i;
    s->where[s->heap[j]] = (uint32_t)j;
}

static void heap_up(search *s, size_t i) {
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (!before(s, s->heap[i], s->heap[p])) break;
        heap_swap(s, i, p);
        i = p;
    }
}

static void heap_down(search *s, size_t i) {
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, best = i;
        if (l < s->heap_count && before(s, s->heap[l], s->heap[best])) best = l;
        if (r < s->heap_count && before(s, s->heap[r], s->heap[best])) best = r;
        if (best == i) return;
        heap_swap(s, i, best);
        i = best;
    }
}

static uint32_t heap_pop(search *s) {
    uint32_t top = s->heap[0];
    s->heap_count--;
    if (s->heap_count > 0) {
        s->heap[0] = s->heap[s->heap_count];
        s->where[s->heap[0]] = 0;
        heap_down(s, 0);
    }
    return top;
}

static double heuristic(uint32_t r, uint32_t c, uint32_t gr, uint32_t gc, bool diagonal,
                        double unit) {
    double dr = r > gr ? r - gr : gr - r, dc = c > gc ? c - gc : gc - c;
    if (!diagonal) return (dr + dc) * unit;
    double lo = dr < dc ? dr : dc, hi = dr < dc ? dc : dr;
    return ((hi - lo) + lo * SQRT2) * unit;
}

ear_result ear_level_find_path(const ear_level *level, ear_vec3 from, ear_vec3 to,
                               const ear_path_config *config, ear_path *out) {
    if (out) memset(out, 0, sizeof *out);
    if (!level || !out) return EAR_E_INVALID_ARG;
    ear_path_config cfg = config ? *config : ear_path_config_default();
    if (cfg.cost_count > 0 && !cfg.costs) return EAR_E_INVALID_ARG;
    if (isnan(cfg.default_cost)) return EAR_E_INVALID_ARG;
    for (size_t i = 0; i < cfg.cost_count; i++)
        if (isnan(cfg.costs[i].cost) || cfg.costs[i].cost == 0) return EAR_E_INVALID_ARG;
    uint32_t sr, sc, gr, gc;
    if (!ear_level_cell_at(level, from, &sr, &sc) || !ear_level_cell_at(level, to, &gr, &gc))
        return EAR_E_INVALID_ARG;

    const uint32_t *cells = ear__level_cells(level);
    uint32_t rows = ear_level_rows(level), columns = ear_level_columns(level);
    ear_level_config lc = ear_level_config_of(level);
    uint32_t start = sr * columns + sc, goal = gr * columns + gc;
    uint32_t start_ch = cells[start];
    if (start_ch == 0 || start_ch == lc.wall_char || cell_cost(level, &cfg, cells[goal]) < 0)
        return EAR_E_NOT_FOUND;

    /* The smallest passable cost keeps the heuristic admissible. */
    double min_cost = cfg.default_cost == 0 ? 1.0 : cfg.default_cost;
    if (!(min_cost > 0) || !isfinite(min_cost)) min_cost = INFINITY;
    for (size_t i = 0; i < cfg.cost_count; i++)
        if (cfg.costs[i].cost > 0 && isfinite(cfg.costs[i].cost) &&
            cfg.costs[i].cost < min_cost)
            min_cost = cfg.costs[i].cost;
    if (!isfinite(min_cost)) min_cost = 1; /* only the start/goal cell itself: h unused */
    double cell = lc.cell_m, unit = cell * min_cost;

    ear_allocator a = ear_allocator_resolve(cfg.allocator);
    size_t n = (size_t)rows * columns;
    search s;
    memset(&s, 0, sizeof s);
    s.level = level;
    s.config = &cfg;
    s.rows = rows;
    s.columns = columns;
    s.g = a.alloc_fn(n * sizeof *s.g, a.user);
    s.h = a.alloc_fn(n * sizeof *s.h, a.user);
    s.parent = a.alloc_fn(n * sizeof *s.parent, a.user);
    s.heap = a.alloc_fn(n * sizeof *s.heap, a.user);
    s.where = a.alloc_fn(n * sizeof *s.where, a.user);
    s.state = a.alloc_fn(n, a.user);
    ear_result result = EAR_E_OUT_OF_MEMORY;
    if (!s.g || !s.h || !s.parent || !s.heap || !s.where || !s.state) goto done;
    memset(s.state, UNSEEN, n);

    s.g[start] = 0;
    s.h[start] = heuristic(sr, sc, gr, gc, cfg.diagonal, unit);
    s.parent[start] = NO_PARENT;
    s.state[start] = OPEN;
    s.heap[0] = start;
    s.where[start] = 0;
    s.heap_count = 1;

    static const int dr[8] = {-1, 0, 1, 0, -1, 1, 1, -1};
    static const int dc[8] = {0, 1, 0, -1, 1, 1, -1, -1};
    result = EAR_E_NOT_FOUND;
    while (s.heap_count > 0) {
        uint32_t at = heap_pop(&s);
        s.state[at] = CLOSED;
        if (at == goal) {
            result = EAR_OK;
            break;
        }
        uint32_t r = at / columns, c = at % columns;
        int directions = cfg.diagonal ? 8 : 4;
        for (int d = 0; d < directions; d++) {
            long nr = (long)r + dr[d], nc = (long)c + dc[d];
            if (nr < 0 || nc < 0 || nr >= (long)rows || nc >= (long)columns) continue;
            uint32_t next = (uint32_t)nr * columns + (uint32_t)nc;
            if (s.state[next] == CLOSED) continue;
            double cost = cell_cost(level, &cfg, cells[next]);
            if (cost < 0) continue;
            double step = cell;
            if (d >= 4) {
                /* No cutting corners: both cells beside the diagonal must be enterable. */
                if (cell_cost(level, &cfg, cells[r * columns + (uint32_t)nc]) < 0 ||
                    cell_cost(level, &cfg, cells[(uint32_t)nr * columns + c]) < 0)
                    continue;
                step = cell * SQRT2;
            }
            double g = s.g[at] + step * cost;
            if (s.state[next] == OPEN) {
                if (!(g < s.g[next])) continue;
                s.g[next] = g;
                s.parent[next] = at;
                heap_up(&s, s.where[next]);
            } else {
                s.g[next] = g;
                s.h[next] = heuristic((uint32_t)nr, (uint32_t)nc, gr, gc, cfg.diagonal, unit);
                s.parent[next] = at;
                s.state[next] = OPEN;
                s.heap[s.heap_count] = next;
                s.where[next] = (uint32_t)s.heap_count;
                s.heap_count++;
                heap_up(&s, s.heap_count - 1);
            }
        }
    }
    if (result != EAR_OK) goto done;

    size_t count = 1;
    for (uint32_t p = goal; s.parent[p] != NO_PARENT; p = s.parent[p]) count++;
    ear_vec3 *points = a.alloc_fn(count * sizeof *points, a.user);
    if (!points) {
        result = EAR_E_OUT_OF_MEMORY;
        goto done;
    }
    double length = 0;
    size_t i = count;
    for (uint32_t p = goal;; p = s.parent[p]) {
        points[--i] = ear_level_cell_center(level, p / columns, p % columns);
        uint32_t q = s.parent[p];
        if (q == NO_PARENT) break;
        bool diagonal = p / columns != q / columns && p % columns != q % columns;
        length += diagonal ? cell * SQRT2 : cell;
    }
    out->points = points;
    out->count = count;
    out->length_m = (float)length;
    out->cost = (float)s.g[goal];
    out->alloc_ = a;

done:
    if (s.g) a.free_fn(s.g, a.user);
    if (s.h) a.free_fn(s.h, a.user);
    if (s.parent) a.free_fn(s.parent, a.user);
    if (s.heap) a.free_fn(s.heap, a.user);
    if (s.where) a.free_fn(s.where, a.user);
    if (s.state) a.free_fn(s.state, a.user);
    return result;
}
