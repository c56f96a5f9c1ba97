/* SPDX-License-Identifier: Zlib */
/*
 * Resolve and move_by, and the step's pair list they add to: what the step (step.c) and
 * the vehicles' step (vehicle.c) both build on.
 *
 * resolve pushes one body out of the deepest overlap it has, up to resolve_iterations
 * times (corners need more than one push). Who moves follows one table:
 *
 *   mover      other              what moves
 *   any        fixed / kinematic  the mover, fully out
 *   kinematic  dynamic            the other, fully away (a player shoves a crate)
 *   dynamic    dynamic            both, shared by mass (the lighter moves more)
 *
 * and one rule: when pushing the other body would drive it into a third solid in the
 * push's direction (obstructed: a crate against a wall), that push is undone and the
 * mover is pushed out fully instead, and is blocked.
 *
 * The bodies near a mover come from its neighbour list (broad_phase.c) while it stays in
 * its fat box, so resting bodies query no grid; one query per resolve otherwise.
 */
#include "physics_internal.h"

#include <math.h>
#include <string.h>

/* At most this many sub-steps in one move_by. */
#define MAX_SUBSTEPS 256

static float minf(float a, float b) {
    return a < b ? a : b;
}

static float min_half(const ear__body *b) {
    return minf(b->half.x, minf(b->half.y, b->half.z));
}

/* ---- Overlap search ------------------------------------------------------------------- */

/* The solid bodies near a mover, gathered with one broad-phase query per resolve: the
 * mover's box grown by a margin, so the pushes of one resolve stay inside it. */
#define MAX_NEAR 48

typedef struct near_set {
    uint32_t self;
    uint32_t n;
    bool overflow;
    bool from_list; /* gathered from the neighbour list (valid while inside the fat box) */
    uint32_t idx[MAX_NEAR];
} near_set;

static bool collect_near(ear_physics *w, uint32_t k, void *user) {
    near_set *s = user;
    if (k == s->self || w->bodies[k].sensor) return true;
    if (s->n == MAX_NEAR) {
        s->overflow = true;
        return false;
    }
    s->idx[s->n++] = k;
    return true;
}

static bool box_touches(const ear__body *b, ear_vec3 lo, ear_vec3 hi) {
    return b->pos.x + b->half.x >= lo.x && b->pos.x - b->half.x <= hi.x &&
           b->pos.y + b->half.y >= lo.y && b->pos.y - b->half.y <= hi.y &&
           b->pos.z + b->half.z >= lo.z && b->pos.z - b->half.z <= hi.z;
}

static void gather_near(ear_physics *w, uint32_t self, float margin, near_set *s) {
    const ear__body *b = &w->bodies[self];
    ear_vec3 m = ear_vec3_make(margin, margin, margin);
    ear_vec3 lo = ear_vec3_sub(ear_vec3_sub(b->pos, b->half), m);
    ear_vec3 hi = ear_vec3_add(ear_vec3_add(b->pos, b->half), m);
    s->self = self;
    s->n = 0;
    s->overflow = false;
    s->from_list = ear__list_usable(w, self);
    if (s->from_list) {
        /* The neighbour list and the bodies that left their fat boxes cover everything
         * that can touch the body while it stays inside its own fat box. */
        for (uint32_t j = w->nb_start[self]; j < w->nb_start[self + 1]; j++) {
            uint32_t k = w->nb_idx[j];
            if (box_touches(&w->bodies[k], lo, hi) && !collect_near(w, k, s)) return;
        }
        if (ear__near_extra(w, self)) ear__broad_query_extras(w, lo, hi, collect_near, s);
        return;
    }
    ear__broad_query(w, lo, hi, collect_near, s);
}

typedef struct deepest {
    uint32_t self;
    uint32_t best;
    float depth;
    ear_vec3 normal;
    ear_collider me;
} deepest;

static void consider(ear_physics *w, uint32_t k, deepest *d) {
    const ear__body *o = &w->bodies[k];
    ear_collider c = ear__collider_of(o);
    ear_vec3 n;
    float depth;
    w->work++;
    if (!ear_collider_penetration(&d->me, &c, &n, &depth)) return;
    /* Ties go to the earlier body in id order, whatever order the grid lists them. */
    if (depth > d->depth || (depth == d->depth && k < d->best)) {
        d->best = k;
        d->depth = depth;
        d->normal = n;
    }
}

static bool find_deepest(ear_physics *w, uint32_t k, void *user) {
    deepest *d = user;
    if (k == d->self || w->bodies[k].sensor) return true;
    consider(w, k, d);
    return true;
}

/* The deepest overlap of body self: among the gathered bodies, or (when there were too
 * many to gather) from a fresh query. */
static bool deepest_overlap(ear_physics *w, uint32_t self, const near_set *near, deepest *d) {
    const ear__body *b = &w->bodies[self];
    d->self = self;
    d->best = UINT32_MAX;
    d->depth = 0;
    d->me = ear__collider_of(b);
    if (near && !near->overflow) {
        for (uint32_t i = 0; i < near->n; i++) consider(w, near->idx[i], d);
    } else {
        ear__broad_query(w, ear_vec3_sub(b->pos, b->half), ear_vec3_add(b->pos, b->half),
                         find_deepest, d);
    }
    return d->best != UINT32_MAX;
}

/* Would moving body k by push drive it into a third solid (not `mover`)? */
typedef struct obstruct {
    uint32_t self, mover;
    ear_vec3 dir;
    ear_collider me;
    bool hit;
} obstruct;

static bool find_obstacle(ear_physics *w, uint32_t k, void *user) {
    obstruct *o = user;
    if (k == o->self || k == o->mover) return true;
    const ear__body *t = &w->bodies[k];
    if (t->sensor) return true;
    ear_collider c = ear__collider_of(t);
    ear_vec3 n;
    float depth;
    w->work++;
    if (!ear_collider_penetration(&o->me, &c, &n, &depth)) return true;
    if (ear_vec3_dot(n, o->dir) < -0.1f) {
        o->hit = true;
        return false;
    }
    return true;
}

static bool obstructed(ear_physics *w, uint32_t k, uint32_t mover, ear_vec3 push) {
    ear__body *b = &w->bodies[k];
    obstruct o;
    o.self = k;
    o.mover = mover;
    o.dir = ear_vec3_normalize_or(push, ear_vec3_make(0, 0, 0));
    o.hit = false;
    ear_vec3 p = ear_vec3_add(b->pos, push);
    o.me = ear__collider_of(b);
    o.me.center_m = p;
    ear_vec3 lo = ear_vec3_sub(p, b->half), hi = ear_vec3_add(p, b->half);
    if (ear__list_usable(w, k) && lo.x >= w->fat_lo[k].x && lo.y >= w->fat_lo[k].y &&
        lo.z >= w->fat_lo[k].z && hi.x <= w->fat_hi[k].x && hi.y <= w->fat_hi[k].y &&
        hi.z <= w->fat_hi[k].z) {
        /* Pushed within its fat box: its neighbour list (and the extras that may reach it)
         * holds everything the pushed box can meet, as in gather_near. */
        for (uint32_t j = w->nb_start[k]; j < w->nb_start[k + 1]; j++) {
            uint32_t t = w->nb_idx[j];
            if (box_touches(&w->bodies[t], lo, hi) && !find_obstacle(w, t, &o)) return true;
        }
        if (ear__near_extra(w, k)) ear__broad_query_extras(w, lo, hi, find_obstacle, &o);
        return o.hit;
    }
    ear__broad_query(w, lo, hi, find_obstacle, &o);
    return o.hit;
}

/* ---- Contacts -----------------------------------------------------------------------------
 */

static void note_contact(ear_physics *w, uint32_t i, uint32_t other, ear_vec3 n, float depth,
                         ear__resolve_out *out) {
    const ear__body *b = &w->bodies[i], *o = &w->bodies[other];
    ear_collider ca = ear__collider_of(b), cb = ear__collider_of(o);
    ear_vec3 point = ear__contact_point(&ca, &cb, n, depth);
    for (uint32_t c = 0; c < out->count; c++) {
        if (out->c[c].other == other) {
            out->c[c].normal = n;
            out->c[c].point = point;
            return;
        }
    }
    if (out->count < sizeof out->c / sizeof out->c[0]) {
        out->c[out->count].other = other;
        out->c[out->count].normal = n;
        out->c[out->count].point = point;
        out->count++;
    }
}

void ear__resolve(ear_physics *w, uint32_t i, ear__resolve_out *out) {
    ear__body *b = &w->bodies[i];
    if (b->sensor || b->kind == EAR_BODY_FIXED) return;
    near_set near;
    float margin = 0.5f * min_half(b) + 0.01f;
    gather_near(w, i, margin, &near);
    float pushed = 0;
    for (uint32_t iter = 0; iter < w->cfg.resolve_iterations; iter++) {
        deepest d;
        if (pushed > margin) {
            /* Pushed past what was gathered: gather again around the new place. */
            gather_near(w, i, margin, &near);
            pushed = 0;
        }
        if (!deepest_overlap(w, i, &near, &d)) break;
        ear__body *o = &w->bodies[d.best];
        ear_vec3 n = d.normal;
        float depth = d.depth;
        /* How far the mover itself is pushed back. */
        float back = depth;
        if (o->kind == EAR_BODY_DYNAMIC) {
            /* The other is dynamic: it takes all (mover kinematic) or its mass share. */
            float share = b->kind == EAR_BODY_KINEMATIC ? 1.0f : b->mass / (b->mass + o->mass);
            ear_vec3 push = ear_vec3_scale(n, -depth * share);
            if (!obstructed(w, d.best, i, push)) {
                o->pos = ear_vec3_add(o->pos, push);
                o->carry = ear_vec3_add(o->carry, push);
                ear__broad_moved(w, d.best);
                back = depth * (1.0f - share);
            }
        }
        if (back > 0) {
            b->pos = ear_vec3_add(b->pos, ear_vec3_scale(n, back));
            pushed += back;
            /* Out of its fat box: its list no longer covers it. */
            ear__broad_moved(w, i);
            if (near.from_list && !ear__list_usable(w, i)) pushed = margin * 2;
        }
        note_contact(w, i, d.best, n, depth, out);
        /* Blocked: the mover itself was pushed back against its move. */
        if (back > 0 && ear_vec3_dot(n, out->move_dir) < -1e-3f) out->blocked = true;
    }
}

void ear__move_by(ear_physics *w, uint32_t i, ear_vec3 delta, ear__resolve_out *out) {
    ear__body *b = &w->bodies[i];
    ear_vec3 start = b->pos;
    float len = ear_vec3_length(delta);
    out->move_dir = len > 0 ? ear_vec3_scale(delta, 1.0f / len) : ear_vec3_make(0, 0, 0);
    if (b->kind == EAR_BODY_FIXED || b->sensor) {
        b->pos = ear_vec3_add(b->pos, delta);
    } else {
        float h = min_half(b);
        uint32_t n = 1;
        if (len > h) {
            float f = ceilf(len / h);
            n = f > MAX_SUBSTEPS ? MAX_SUBSTEPS : (uint32_t)f;
        }
        w->work += n;
        ear_vec3 part = ear_vec3_scale(delta, 1.0f / (float)n);
        for (uint32_t s = 0; s < n; s++) {
            b->pos = ear_vec3_add(b->pos, part);
            ear__broad_moved(w, i);
            ear__resolve(w, i, out);
        }
        /* A resolve with no motion still settles what overlapped before. */
        if (len == 0) ear__resolve(w, i, out);
    }
    /* Outside a step (a game's move_by) the displacement of the last step stays. */
    if (w->stepping) b->carry = ear_vec3_add(b->carry, ear_vec3_sub(b->pos, start));
    ear__broad_moved(w, i);
}

ear_result ear_body_move_by(ear_physics *w, ear_body_id id, ear_vec3 delta, bool *out_blocked) {
    ear__body *b = ear__body_lookup(w, id);
    if (!b) return ear__missing(w, id);
    if (!ear_vec3_is_finite(delta)) return EAR_E_INVALID_ARG;
    ear__resolve_out out;
    memset(&out, 0, sizeof out);
    ear__move_by(w, (uint32_t)(b - w->bodies), delta, &out);
    if (out_blocked) *out_blocked = out.blocked;
    return EAR_OK;
}

ear_result ear_body_move_forward(ear_physics *w, ear_body_id id, float distance_m,
                                 bool *out_blocked) {
    ear__body *b = ear__body_lookup(w, id);
    if (!b) return ear__missing(w, id);
    if (!isfinite(distance_m)) return EAR_E_INVALID_ARG;
    ear_vec3 f = ear_forward_from_facing(b->facing, 0);
    return ear_body_move_by(w, id, ear_vec3_scale(f, distance_m), out_blocked);
}

ear_result ear_body_strafe(ear_physics *w, ear_body_id id, float distance_m,
                           bool *out_blocked) {
    ear__body *b = ear__body_lookup(w, id);
    if (!b) return ear__missing(w, id);
    if (!isfinite(distance_m)) return EAR_E_INVALID_ARG;
    ear_vec3 r = ear_right_from_facing(b->facing);
    return ear_body_move_by(w, id, ear_vec3_scale(r, distance_m), out_blocked);
}

/* ---- Pair lists ------------------------------------------------------------------- */

void ear__add_pair(ear_physics *w, ear__pair **list, uint32_t *count, uint32_t *cap,
                   const ear__pair *p) {
    if (!ear__grow(&w->alloc, (void **)list, cap, *count + 1, sizeof **list)) return;
    (*list)[(*count)++] = *p;
}

int ear__pair_cmp(const ear__pair *x, const ear__pair *y) {
    if (x->lo != y->lo) return x->lo < y->lo ? -1 : 1;
    if (x->hi != y->hi) return x->hi < y->hi ? -1 : 1;
    return 0;
}

bool ear__was_touching(const ear_physics *w, ear_body_id a, ear_body_id b) {
    ear__pair key;
    key.lo = a < b ? a : b;
    key.hi = a < b ? b : a;
    uint32_t lo = 0, hi = w->last_pair_count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        int c = ear__pair_cmp(&w->last_pairs[mid], &key);
        if (c == 0) return true;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return false;
}

void ear__record_pair(ear_physics *w, ear_body_id body, ear_body_id other, ear_vec3 normal,
                      ear_vec3 point, float speed) {
    if (!ear__grow(&w->alloc, (void **)&w->pair_info, &w->pair_info_cap, w->pair_info_count + 1,
                   sizeof *w->pair_info) ||
        w->pair_info_count >= (1u << 31))
        return;
    ear__pair p;
    p.lo = body < other ? body : other;
    p.hi = body < other ? other : body;
    p.speed = speed;
    p.aux = (w->pair_info_count << 1) | (body < other ? 0u : 1u);
    uint32_t before = w->pair_count;
    ear__add_pair(w, &w->pairs, &w->pair_count, &w->pair_cap, &p);
    if (w->pair_count == before) return;
    w->pair_info[w->pair_info_count].normal = normal;
    w->pair_info[w->pair_info_count].point = point;
    w->pair_info_count++;
}
