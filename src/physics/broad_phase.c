/* SPDX-License-Identifier: Zlib */
/*
 * The broad phase: two grids hashed into buckets, one for fixed bodies (rebuilt only when
 * a fixed body is added, removed or changed) and one for moving bodies, and on top of them
 * a neighbour list per moving body. A query visits the buckets of the cells its box
 * covers, so its cost grows with the bodies near it, not with the world.
 *
 * Each grid is a counting sort: entries (a dense body index with the box it was gridded
 * with) are grouped by bucket, and starts[b] .. starts[b + 1] are bucket b's. Different
 * cells may share a bucket; every candidate is tested against the query box anyway, and
 * a stamp per body makes sure each is visited once per query. The fixed grid lists a body
 * in every cell its box covers (one covering more than 4096 cells goes to the `large`
 * list, which every query visits). The moving grid is loose: each body once, in the cell
 * of its fat box's centre, and queries reach out by the largest listed half size.
 *
 * A moving body is gridded with a fat box that lasts several steps (its box grown by a
 * tenth of its smallest half extent, two steps of motion and two of gravity). Its
 * neighbour list holds every solid body whose gridded box overlapped its fat box at the
 * build, so while it stays inside its fat box the list, plus the extras, is all it can
 * touch. A body that leaves its fat box becomes an extra: it gets a new fat box and is
 * linked into the extras' grid (chains over the moving grid's buckets, O(1), no memory
 * taken), which queries and list users walk too (a few are simply scanned); its own list
 * is no longer used. When more than N / 90 (at least 11) are extras at the start of a step, the
 * moving grid and the lists are rebuilt. Rebuilding allocates only past the largest
 * size so far.
 */
#include "physics_internal.h"

#include <string.h>

#define FIXED_MAX_CELLS 4096
#define MIN_BUCKETS     64
/* Up to this many extras are scanned, not looked up by cell. */
#define FEW_EXTRAS 8

void ear__grid_free(ear_physics *w, ear__grid *g) {
    void *blocks[] = {g->starts, g->entries, g->large, g->xhead};
    for (size_t i = 0; i < sizeof blocks / sizeof blocks[0]; i++)
        if (blocks[i]) w->alloc.free_fn(blocks[i], w->alloc.user);
    memset(g, 0, sizeof *g);
}

static int32_t cell_of(float x, float inv_cell) {
    float c = x * inv_cell;
    if (!(c > -1e9f)) c = -1e9f; /* NaN too */
    if (c > 1e9f) c = 1e9f;
    int32_t i = (int32_t)c; /* floor without a libm call */
    return i - (c < (float)i);
}

static uint32_t bucket_of(int32_t x, int32_t y, int32_t z, uint32_t mask) {
    uint32_t h = (uint32_t)x * 73856093u ^ (uint32_t)y * 19349663u ^ (uint32_t)z * 83492791u;
    h ^= h >> 15;
    return h & mask;
}

typedef struct range {
    int32_t x0, y0, z0, x1, y1, z1;
} range;

static range range_of(ear_vec3 lo, ear_vec3 hi, float inv_cell) {
    range r = {cell_of(lo.x, inv_cell), cell_of(lo.y, inv_cell), cell_of(lo.z, inv_cell),
               cell_of(hi.x, inv_cell), cell_of(hi.y, inv_cell), cell_of(hi.z, inv_cell)};
    return r;
}

static uint64_t range_cells(const range *r) {
    return (uint64_t)(r->x1 - r->x0 + 1) * (uint64_t)(r->y1 - r->y0 + 1) *
           (uint64_t)(r->z1 - r->z0 + 1);
}

static bool push_u32(ear_physics *w, uint32_t **list, uint32_t *count, uint32_t *cap,
                     uint32_t v) {
    if (!ear__grow(&w->alloc, (void **)list, cap, *count + 1, sizeof **list)) return false;
    (*list)[(*count)++] = v;
    return true;
}

/* Builds grid g from the fixed (or the moving) bodies, each listed in every cell its box
 * covers (one that covers more than max_cells goes to the large list). */
static ear_result grid_build(ear_physics *w, ear__grid *g, float cell, bool fixed,
                             uint64_t max_cells) {
    g->cell = cell;
    g->inv_cell = 1.0f / cell;
    g->entry_count = 0;
    g->large_count = 0;
    g->reach = 0;
    g->loose = false;
    /* First pass: how many entries. */
    uint32_t entries = 0;
    for (uint32_t k = 0; k < w->count; k++) {
        const ear__body *b = &w->bodies[k];
        if ((b->kind == EAR_BODY_FIXED) != fixed) continue;
        range r = range_of(w->fat_lo[k], w->fat_hi[k], g->inv_cell);
        uint64_t n = range_cells(&r);
        if (n > max_cells) {
            if (!push_u32(w, &g->large, &g->large_count, &g->large_cap, k))
                return EAR_E_OUT_OF_MEMORY;
        } else {
            entries += (uint32_t)n;
        }
    }
    uint32_t buckets = MIN_BUCKETS;
    while (buckets < entries * 2u && buckets < (1u << 30)) buckets *= 2;
    if (!ear__grow(&w->alloc, (void **)&g->starts, &g->bucket_cap, buckets + 1,
                   sizeof *g->starts) ||
        !ear__grow(&w->alloc, (void **)&g->entries, &g->entry_cap, entries,
                   sizeof *g->entries) ||
        !ear__grow(&w->alloc, (void **)&w->scratch, &w->scratch_cap, buckets,
                   sizeof *w->scratch))
        return EAR_E_OUT_OF_MEMORY;
    g->bucket_mask = buckets - 1;
    uint32_t *counts = w->scratch;
    memset(counts, 0, (size_t)buckets * sizeof *counts);
    for (uint32_t k = 0; k < w->count; k++) {
        const ear__body *b = &w->bodies[k];
        if ((b->kind == EAR_BODY_FIXED) != fixed) continue;
        range r = range_of(w->fat_lo[k], w->fat_hi[k], g->inv_cell);
        if (range_cells(&r) > max_cells) continue;
        for (int32_t z = r.z0; z <= r.z1; z++)
            for (int32_t y = r.y0; y <= r.y1; y++)
                for (int32_t x = r.x0; x <= r.x1; x++)
                    counts[bucket_of(x, y, z, g->bucket_mask)]++;
    }
    uint32_t sum = 0;
    for (uint32_t i = 0; i < buckets; i++) {
        g->starts[i] = sum;
        sum += counts[i];
        counts[i] = g->starts[i];
    }
    g->starts[buckets] = sum;
    for (uint32_t k = 0; k < w->count; k++) {
        const ear__body *b = &w->bodies[k];
        if ((b->kind == EAR_BODY_FIXED) != fixed) continue;
        range r = range_of(w->fat_lo[k], w->fat_hi[k], g->inv_cell);
        if (range_cells(&r) > max_cells) continue;
        for (int32_t z = r.z0; z <= r.z1; z++)
            for (int32_t y = r.y0; y <= r.y1; y++)
                for (int32_t x = r.x0; x <= r.x1; x++) {
                    ear__grid_entry *e =
                        &g->entries[counts[bucket_of(x, y, z, g->bucket_mask)]++];
                    e->lo = w->fat_lo[k];
                    e->hi = w->fat_hi[k];
                    e->index = k;
                }
    }
    g->entry_count = entries;
    return EAR_OK;
}

/* The moving grid is loose: each body is listed once, in the cell of its fat box's
 * centre, and a query reaches out by the largest half size listed, so it never meets a
 * body twice in the cells and the build is one entry a body. Bodies larger than a cell
 * go to the large list. */
static ear_result loose_build(ear_physics *w, ear__grid *g, float cell) {
    g->cell = cell;
    g->inv_cell = 1.0f / cell;
    g->entry_count = 0;
    g->large_count = 0;
    g->reach = 0;
    uint32_t entries = 0;
    for (uint32_t k = 0; k < w->count; k++) {
        if (w->bodies[k].kind == EAR_BODY_FIXED) continue;
        ear_vec3 h = ear_vec3_scale(ear_vec3_sub(w->fat_hi[k], w->fat_lo[k]), 0.5f);
        float m = h.x > h.y ? h.x : h.y;
        if (h.z > m) m = h.z;
        if (m > cell) {
            if (!push_u32(w, &g->large, &g->large_count, &g->large_cap, k))
                return EAR_E_OUT_OF_MEMORY;
            continue;
        }
        if (m > g->reach) g->reach = m;
        entries++;
    }
    uint32_t buckets = MIN_BUCKETS;
    while (buckets < entries * 2u && buckets < (1u << 30)) buckets *= 2;
    if (!ear__grow(&w->alloc, (void **)&g->starts, &g->bucket_cap, buckets + 1,
                   sizeof *g->starts) ||
        !ear__grow(&w->alloc, (void **)&g->entries, &g->entry_cap, entries,
                   sizeof *g->entries) ||
        !ear__grow(&w->alloc, (void **)&w->scratch, &w->scratch_cap, buckets,
                   sizeof *w->scratch))
        return EAR_E_OUT_OF_MEMORY;
    g->bucket_mask = buckets - 1;
    uint32_t *counts = w->scratch;
    memset(counts, 0, (size_t)buckets * sizeof *counts);
    /* The count pass and the fill pass find each body's bucket the same way. */
    for (uint32_t k = 0; k < w->count; k++) {
        if (w->bodies[k].kind == EAR_BODY_FIXED) continue;
        ear_vec3 lo = w->fat_lo[k], hi = w->fat_hi[k];
        float m = fmaxf(fmaxf(hi.x - lo.x, hi.y - lo.y), hi.z - lo.z) * 0.5f;
        if (m > cell) continue;
        counts[bucket_of(cell_of(0.5f * (lo.x + hi.x), g->inv_cell),
                         cell_of(0.5f * (lo.y + hi.y), g->inv_cell),
                         cell_of(0.5f * (lo.z + hi.z), g->inv_cell), g->bucket_mask)]++;
    }
    uint32_t sum = 0;
    for (uint32_t i = 0; i < buckets; i++) {
        g->starts[i] = sum;
        sum += counts[i];
        counts[i] = g->starts[i];
    }
    g->starts[buckets] = sum;
    for (uint32_t k = 0; k < w->count; k++) {
        if (w->bodies[k].kind == EAR_BODY_FIXED) continue;
        ear_vec3 lo = w->fat_lo[k], hi = w->fat_hi[k];
        float m = fmaxf(fmaxf(hi.x - lo.x, hi.y - lo.y), hi.z - lo.z) * 0.5f;
        if (m > cell) continue;
        uint32_t bk = bucket_of(cell_of(0.5f * (lo.x + hi.x), g->inv_cell),
                                cell_of(0.5f * (lo.y + hi.y), g->inv_cell),
                                cell_of(0.5f * (lo.z + hi.z), g->inv_cell), g->bucket_mask);
        ear__grid_entry *e = &g->entries[counts[bk]++];
        e->lo = lo;
        e->hi = hi;
        e->index = k;
    }
    g->entry_count = entries;
    g->loose = true;
    /* No extras yet. */
    if (!ear__grow(&w->alloc, (void **)&g->xhead, &g->xhead_cap, buckets, sizeof *g->xhead) ||
        !ear__grow(&w->alloc, (void **)&w->xnext, &w->xnext_cap, w->count + 1,
                   sizeof *w->xnext) ||
        !ear__grow(&w->alloc, (void **)&w->xbucket, &w->xbucket_cap, w->count + 1,
                   sizeof *w->xbucket) ||
        !ear__grow(&w->alloc, (void **)&w->xlist, &w->xlist_cap, w->count + 1,
                   sizeof *w->xlist))
        return EAR_E_OUT_OF_MEMORY;
    memset(g->xhead, 0xff, (size_t)buckets * sizeof *g->xhead);
    memset(w->xbucket, 0xff, (size_t)(w->count + 1) * sizeof *w->xbucket);
    g->extra_count = 0;
    g->xreach = 0;
    return EAR_OK;
}

/* The cell edge: twice the mean size (largest extent) of the moving bodies. */
static float choose_cell(const ear_physics *w) {
    if (w->cfg.grid_cell_m > 0) return w->cfg.grid_cell_m;
    double sum = 0;
    uint32_t n = 0;
    for (uint32_t k = 0; k < w->count; k++) {
        const ear__body *b = &w->bodies[k];
        if (b->kind == EAR_BODY_FIXED) continue;
        float m = b->half.x > b->half.y ? b->half.x : b->half.y;
        if (b->half.z > m) m = b->half.z;
        sum += 2.0 * m;
        n++;
    }
    float cell = n ? (float)(2.0 * sum / n) : 4.0f;
    return cell < 0.25f ? 0.25f : cell > 64.0f ? 64.0f : cell;
}

/* A moving body's fat box lasts several steps: its box grown by a tenth of its smallest
 * half extent, two steps of its motion and two of gravity's. */
static void fat_box(ear_physics *w, uint32_t k, float dt) {
    const ear__body *b = &w->bodies[k];
    ear_vec3 lo = ear_vec3_sub(b->pos, b->half), hi = ear_vec3_add(b->pos, b->half);
    if (b->kind != EAR_BODY_FIXED) {
        float h = b->half.x < b->half.y ? b->half.x : b->half.y;
        if (b->half.z < h) h = b->half.z;
        float g = ear_vec3_length(w->cfg.gravity_mps2) * fabsf(b->gravity_scale);
        float m = 0.1f * h + 2.0f * ear_vec3_length(b->vel) * dt + 2.0f * g * dt * dt;
        lo = ear_vec3_sub(lo, ear_vec3_make(m, m, m));
        hi = ear_vec3_add(hi, ear_vec3_make(m, m, m));
    }
    w->fat_lo[k] = lo;
    w->fat_hi[k] = hi;
}

static bool query_grid(ear_physics *w, const ear__grid *g, ear_vec3 lo, ear_vec3 hi, bool exact,
                       ear__visit_fn fn, void *user);

typedef struct list_ctx {
    uint32_t self;
    bool ok;
} list_ctx;

static bool list_visit(ear_physics *w, uint32_t k, void *user) {
    list_ctx *c = user;
    if (k == c->self || w->bodies[k].sensor) return true;
    if (!ear__grow(&w->alloc, (void **)&w->nb_idx, &w->nb_idx_cap, w->nb_count + 1,
                   sizeof *w->nb_idx)) {
        c->ok = false;
        return false;
    }
    w->nb_idx[w->nb_count++] = k;
    return true;
}

static bool next_stamp(ear_physics *w) {
    if (++w->stamp == 0) {
        memset(w->stamps, 0, (size_t)w->stamp_cap * sizeof *w->stamps);
        w->stamp = 1;
    }
    return true;
}

/* Each moving body's neighbours: the gridded boxes that overlap its fat box. */
static ear_result build_lists(ear_physics *w) {
    w->lists_valid = false;
    if (!ear__grow(&w->alloc, (void **)&w->nb_start, &w->nb_start_cap, w->count + 1,
                   sizeof *w->nb_start) ||
        !ear__grow(&w->alloc, (void **)&w->exited, &w->exited_cap, w->count + 1,
                   sizeof *w->exited))
        return EAR_E_OUT_OF_MEMORY;
    memset(w->exited, 0, w->count + 1);
    w->nb_count = 0;
    for (uint32_t k = 0; k < w->count; k++) {
        w->nb_start[k] = w->nb_count;
        const ear__body *b = &w->bodies[k];
        if (b->kind == EAR_BODY_FIXED || b->sensor) continue;
        list_ctx c = {k, true};
        next_stamp(w);
        if (query_grid(w, &w->fixed_grid, w->fat_lo[k], w->fat_hi[k], false, list_visit, &c))
            query_grid(w, &w->moving_grid, w->fat_lo[k], w->fat_hi[k], false, list_visit, &c);
        if (!c.ok) return EAR_E_OUT_OF_MEMORY;
    }
    w->nb_start[w->count] = w->nb_count;
    w->lists_valid = true;
    return EAR_OK;
}

static ear_result rebuild_moving(ear_physics *w) {
    float dt = w->dt > 0 ? w->dt : 1.0f / 60.0f;
    for (uint32_t k = 0; k < w->count; k++)
        if (w->bodies[k].kind != EAR_BODY_FIXED) fat_box(w, k, dt);
    ear_result res = loose_build(w, &w->moving_grid, choose_cell(w));
    if (res == EAR_OK) res = build_lists(w);
    return res;
}

ear_result ear__broad_rebuild(ear_physics *w) {
    uint32_t lo_cap = w->fat_cap, hi_cap = w->fat_cap;
    if (!ear__grow(&w->alloc, (void **)&w->fat_lo, &lo_cap, w->count, sizeof *w->fat_lo) ||
        !ear__grow(&w->alloc, (void **)&w->fat_hi, &hi_cap, lo_cap, sizeof *w->fat_hi))
        return EAR_E_OUT_OF_MEMORY;
    w->fat_cap = lo_cap < hi_cap ? lo_cap : hi_cap;
    uint32_t old = w->stamp_cap;
    if (!ear__grow(&w->alloc, (void **)&w->stamps, &w->stamp_cap, w->count + 1,
                   sizeof *w->stamps))
        return EAR_E_OUT_OF_MEMORY;
    if (w->stamp_cap != old) {
        memset(w->stamps, 0, (size_t)w->stamp_cap * sizeof *w->stamps);
        w->stamp = 0;
    }
    if (w->fixed_dirty || w->fixed_grid.bucket_mask == 0) {
        for (uint32_t k = 0; k < w->count; k++)
            if (w->bodies[k].kind == EAR_BODY_FIXED) fat_box(w, k, 0);
        /* Fixed bodies are mostly long walls and floors: cells twice the moving grid's,
         * at least 4 m, keep a query to a few cells. */
        float cell = 2 * choose_cell(w);
        if (cell < 4) cell = 4;
        ear_result res = grid_build(w, &w->fixed_grid, cell, true, FIXED_MAX_CELLS);
        if (res != EAR_OK) return res;
        w->fixed_dirty = false;
    }
    w->grid_valid = true; /* the lists' queries below read the grids */
    ear_result res = rebuild_moving(w);
    w->grid_valid = res == EAR_OK;
    return res;
}

/* The extras that trigger a rebuild at the start of a step: more than N / 90 of them, at
 * least 11. A fraction of N, so that how often the lists are rebuilt (each rebuild costs
 * a query per body) does not grow with N: 8 + N / 256 (the rule before) rebuilt 70 times in
 * the benchmark's 300 steps at 10,000 bodies against 44 at 1,000. Extras are cheap to
 * carry now (only the bodies an extra can reach walk them). Measured (callgrind, the
 * benchmark at 10,000 bodies): 2,540 instructions per body-step with the old rule, 2,478
 * with N / 90, 2,505 with N / 60; N / 90 keeps the 1,000-body case as it was (11). */
static uint32_t extras_limit(uint32_t n) {
    uint32_t limit = n / 90;
    return limit < 11 ? 11 : limit;
}

ear_result ear__broad_begin_step(ear_physics *w) {
    if (!w->grid_valid || w->fixed_dirty || !w->lists_valid ||
        w->moving_grid.extra_count > extras_limit(w->count))
        return ear__broad_rebuild(w);
    return EAR_OK;
}

static uint32_t center_bucket(const ear__grid *g, ear_vec3 lo, ear_vec3 hi) {
    return bucket_of(cell_of(0.5f * (lo.x + hi.x), g->inv_cell),
                     cell_of(0.5f * (lo.y + hi.y), g->inv_cell),
                     cell_of(0.5f * (lo.z + hi.z), g->inv_cell), g->bucket_mask);
}

static bool boxes_overlap(ear_vec3 alo, ear_vec3 ahi, ear_vec3 lo, ear_vec3 hi);

/* Body k (an extra) has a new fat box: every list user whose gridded (fat) box overlaps it
 * may meet k, so it is marked to walk the extras; the others skip them. The gridded boxes
 * are the moving grid's entries (a list user is inside its own), found by the same cell
 * walk a query makes. */
static void mark_near_extra(ear_physics *w, uint32_t k) {
    const ear__grid *g = &w->moving_grid;
    ear_vec3 lo = w->fat_lo[k], hi = w->fat_hi[k];
    for (uint32_t i = 0; i < g->large_count; i++) {
        uint32_t j = g->large[i];
        if (boxes_overlap(w->fat_lo[j], w->fat_hi[j], lo, hi)) w->exited[j] |= EAR__NEAR_EXTRA;
    }
    if (g->bucket_mask == 0) return;
    ear_vec3 reach = ear_vec3_make(g->reach, g->reach, g->reach);
    range r = range_of(ear_vec3_sub(lo, reach), ear_vec3_add(hi, reach), g->inv_cell);
    if (range_cells(&r) > (uint64_t)g->bucket_mask + 1) {
        for (uint32_t i = 0; i < g->entry_count; i++) {
            const ear__grid_entry *e = &g->entries[i];
            if (boxes_overlap(e->lo, e->hi, lo, hi)) w->exited[e->index] |= EAR__NEAR_EXTRA;
        }
        return;
    }
    for (int32_t z = r.z0; z <= r.z1; z++)
        for (int32_t y = r.y0; y <= r.y1; y++)
            for (int32_t x = r.x0; x <= r.x1; x++) {
                uint32_t bk = bucket_of(x, y, z, g->bucket_mask);
                for (uint32_t i = g->starts[bk]; i < g->starts[bk + 1]; i++) {
                    const ear__grid_entry *e = &g->entries[i];
                    if (boxes_overlap(e->lo, e->hi, lo, hi))
                        w->exited[e->index] |= EAR__NEAR_EXTRA;
                }
            }
}

void ear__broad_moved(ear_physics *w, uint32_t k) {
    const ear__body *b = &w->bodies[k];
    if (!w->grid_valid) return; /* the next query rebuilds */
    if (b->kind == EAR_BODY_FIXED) {
        w->fixed_dirty = true; /* the next query rebuilds the fixed grid */
        return;
    }
    ear_vec3 lo = ear_vec3_sub(b->pos, b->half), hi = ear_vec3_add(b->pos, b->half);
    ear_vec3 flo = w->fat_lo[k], fhi = w->fat_hi[k];
    if (lo.x >= flo.x && lo.y >= flo.y && lo.z >= flo.z && hi.x <= fhi.x && hi.y <= fhi.y &&
        hi.z <= fhi.z)
        return;
    ear__grid *g = &w->moving_grid;
    /* A new fat box around where it is now, and the extras' grid lists it there. */
    fat_box(w, k, w->dt > 0 ? w->dt : 1.0f / 60.0f);
    ear_vec3 h = ear_vec3_scale(ear_vec3_sub(w->fat_hi[k], w->fat_lo[k]), 0.5f);
    float m = fmaxf(fmaxf(h.x, h.y), h.z);
    if (m > g->xreach) g->xreach = m;
    mark_near_extra(w, k);
    uint32_t nb = center_bucket(g, w->fat_lo[k], w->fat_hi[k]);
    uint32_t ob = w->xbucket[k];
    if (ob == nb) return;
    if (ob != UINT32_MAX) {
        /* Unlink from its old chain (chains are short: a bucket's extras). */
        uint32_t *link = &g->xhead[ob];
        while (*link != k) link = &w->xnext[*link];
        *link = w->xnext[k];
    } else {
        w->exited[k] |= EAR__EXITED;
        w->xlist[g->extra_count++] = k;
    }
    w->xnext[k] = g->xhead[nb];
    g->xhead[nb] = k;
    w->xbucket[k] = nb;
}

static bool overlaps(const ear__body *b, ear_vec3 lo, ear_vec3 hi) {
    return b->pos.x + b->half.x >= lo.x && b->pos.x - b->half.x <= hi.x &&
           b->pos.y + b->half.y >= lo.y && b->pos.y - b->half.y <= hi.y &&
           b->pos.z + b->half.z >= lo.z && b->pos.z - b->half.z <= hi.z;
}

static bool boxes_overlap(ear_vec3 alo, ear_vec3 ahi, ear_vec3 lo, ear_vec3 hi) {
    return ahi.x >= lo.x && alo.x <= hi.x && ahi.y >= lo.y && alo.y <= hi.y && ahi.z >= lo.z &&
           alo.z <= hi.z;
}

/* Visits a candidate whose gridded box overlaps the query; false stops the query. Stamped
 * only once it overlaps, so a segment's later pieces may still reach it. */
static bool visit(ear_physics *w, uint32_t k, ear_vec3 lo, ear_vec3 hi, bool exact,
                  ear__visit_fn fn, void *user) {
    if (w->stamps[k] == w->stamp) return true;
    if (exact && !overlaps(&w->bodies[k], lo, hi)) return true;
    w->stamps[k] = w->stamp;
    return fn(w, k, user);
}

/* The extras' chains in the cells [lo, hi] reaches (visited through `visit` when
 * stamped, else straight to fn after the box test). */
static bool extras_walk(ear_physics *w, const ear__grid *g, ear_vec3 lo, ear_vec3 hi,
                        bool stamped, bool exact, ear__visit_fn fn, void *user) {
    if (g->extra_count <= FEW_EXTRAS) {
        /* A few: scanning them beats walking cells. */
        for (uint32_t i = 0; i < g->extra_count; i++) {
            uint32_t k = w->xlist[i];
            if (stamped) {
                if (!visit(w, k, lo, hi, exact, fn, user)) return false;
            } else if (overlaps(&w->bodies[k], lo, hi) && !fn(w, k, user)) {
                return false;
            }
        }
        return true;
    }
    ear_vec3 reach = ear_vec3_make(g->xreach, g->xreach, g->xreach);
    range r = range_of(ear_vec3_sub(lo, reach), ear_vec3_add(hi, reach), g->inv_cell);
    bool all = range_cells(&r) > (uint64_t)g->bucket_mask + 1;
    if (all) r.x0 = r.x1 = r.y0 = r.y1 = r.z0 = r.z1 = 0;
    for (int32_t z = r.z0; z <= r.z1; z++)
        for (int32_t y = r.y0; y <= r.y1; y++)
            for (int32_t x = r.x0; x <= r.x1; x++) {
                uint32_t first = all ? 0 : bucket_of(x, y, z, g->bucket_mask);
                uint32_t last = all ? g->bucket_mask : first;
                for (uint32_t bk = first; bk <= last; bk++)
                    for (uint32_t k = g->xhead[bk]; k != UINT32_MAX; k = w->xnext[k]) {
                        if (stamped) {
                            if (!visit(w, k, lo, hi, exact, fn, user)) return false;
                        } else if (overlaps(&w->bodies[k], lo, hi) && !fn(w, k, user)) {
                            return false;
                        }
                    }
            }
    return true;
}

static bool query_extras(ear_physics *w, const ear__grid *g, ear_vec3 lo, ear_vec3 hi,
                         bool exact, ear__visit_fn fn, void *user) {
    return extras_walk(w, g, lo, hi, true, exact, fn, user);
}

bool ear__broad_query_extras(ear_physics *w, ear_vec3 lo, ear_vec3 hi, ear__visit_fn fn,
                             void *user) {
    const ear__grid *g = &w->moving_grid;
    if (g->extra_count == 0) return true;
    return extras_walk(w, g, lo, hi, false, true, fn, user);
}

static bool query_grid(ear_physics *w, const ear__grid *g, ear_vec3 lo, ear_vec3 hi, bool exact,
                       ear__visit_fn fn, void *user) {
    for (uint32_t i = 0; i < g->large_count; i++)
        if (!visit(w, g->large[i], lo, hi, exact, fn, user)) return false;
    if (g->extra_count > 0 && !query_extras(w, g, lo, hi, exact, fn, user)) return false;
    if (g->bucket_mask == 0) return true;
    ear_vec3 reach = ear_vec3_make(g->reach, g->reach, g->reach);
    range r = range_of(ear_vec3_sub(lo, reach), ear_vec3_add(hi, reach), g->inv_cell);
    if (range_cells(&r) > (uint64_t)g->bucket_mask + 1) {
        /* A box wider than the table: every entry once. */
        for (uint32_t i = 0; i < g->entry_count; i++) {
            const ear__grid_entry *e = &g->entries[i];
            if (boxes_overlap(e->lo, e->hi, lo, hi) &&
                !visit(w, e->index, lo, hi, exact, fn, user))
                return false;
        }
        return true;
    }
    for (int32_t z = r.z0; z <= r.z1; z++)
        for (int32_t y = r.y0; y <= r.y1; y++)
            for (int32_t x = r.x0; x <= r.x1; x++) {
                uint32_t bk = bucket_of(x, y, z, g->bucket_mask);
                for (uint32_t i = g->starts[bk]; i < g->starts[bk + 1]; i++) {
                    const ear__grid_entry *e = &g->entries[i];
                    if (boxes_overlap(e->lo, e->hi, lo, hi) &&
                        !visit(w, e->index, lo, hi, exact, fn, user))
                        return false;
                }
            }
    return true;
}

static bool begin_query(ear_physics *w) {
    if ((!w->grid_valid || w->fixed_dirty) && ear__broad_rebuild(w) != EAR_OK) return false;
    return next_stamp(w);
}

void ear__broad_query_segment(ear_physics *w, ear_vec3 from, ear_vec3 to, float pad,
                              ear__visit_fn fn, void *user) {
    if (!begin_query(w)) {
        ear_vec3 lo = ear_vec3_make(fminf(from.x, to.x) - pad, fminf(from.y, to.y) - pad,
                                    fminf(from.z, to.z) - pad);
        ear_vec3 hi = ear_vec3_make(fmaxf(from.x, to.x) + pad, fmaxf(from.y, to.y) + pad,
                                    fmaxf(from.z, to.z) + pad);
        for (uint32_t k = 0; k < w->count; k++)
            if (overlaps(&w->bodies[k], lo, hi) && !fn(w, k, user)) return;
        return;
    }
    /* Pieces about two cells long, so a long diagonal ray visits a band of cells rather
     * than its whole bounding box. */
    float cell = w->moving_grid.cell > 0 ? w->moving_grid.cell : 4.0f;
    float len = ear_vec3_length(ear_vec3_sub(to, from));
    uint32_t pieces = 1;
    if (len > 2 * cell) {
        float f = ceilf(len / (2 * cell));
        pieces = f > 4096 ? 4096 : (uint32_t)f;
    }
    ear_vec3 d = ear_vec3_sub(to, from);
    for (uint32_t i = 0; i < pieces; i++) {
        ear_vec3 a = ear_vec3_add(from, ear_vec3_scale(d, (float)i / (float)pieces));
        ear_vec3 b = ear_vec3_add(from, ear_vec3_scale(d, (float)(i + 1) / (float)pieces));
        ear_vec3 lo =
            ear_vec3_make(fminf(a.x, b.x) - pad, fminf(a.y, b.y) - pad, fminf(a.z, b.z) - pad);
        ear_vec3 hi =
            ear_vec3_make(fmaxf(a.x, b.x) + pad, fmaxf(a.y, b.y) + pad, fmaxf(a.z, b.z) + pad);
        if (!query_grid(w, &w->fixed_grid, lo, hi, true, fn, user)) return;
        if (!query_grid(w, &w->moving_grid, lo, hi, true, fn, user)) return;
    }
}

void ear__broad_query(ear_physics *w, ear_vec3 lo, ear_vec3 hi, ear__visit_fn fn, void *user) {
    if (begin_query(w)) {
        if (!query_grid(w, &w->fixed_grid, lo, hi, true, fn, user)) return;
        query_grid(w, &w->moving_grid, lo, hi, true, fn, user);
        return;
    }
    /* No memory for the grid: every body, in id order. */
    for (uint32_t k = 0; k < w->count; k++)
        if (overlaps(&w->bodies[k], lo, hi) && !fn(w, k, user)) return;
}
