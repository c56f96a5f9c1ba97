/* SPDX-License-Identifier: Zlib */
/*
 * Internal to src/physics: the world's storage, the broad phase and the helpers the step,
 * move_by, ray casts and vehicles share.
 *
 * Bodies live in one dense array in id order (the order they were added; removal closes
 * the gap, so the order never changes). A slot table maps an id's slot to its place in
 * that array and holds the slot's generation: an id is live when its generation matches.
 * Vehicles live in the body record itself (a flag says whether it is one), so the loop
 * over bodies needs no second lookup.
 */
#ifndef EARSHOT_PHYSICS_INTERNAL_H
#define EARSHOT_PHYSICS_INTERNAL_H

#include "earshot/physics.h"

#define EAR__NAME_MAX 64

typedef struct ear__vehicle {
    ear_vehicle_config cfg;
    ear_vehicle_controls controls;
    float speed_mps;
    float rpm;
    uint32_t gear;
    float load;
    float turn_rate_dps;
    float odometer_m;
    /* The pedal that braked to a stop: 1 brake, -1 gas, 0 none. Held until released. */
    int hold;
} ear__vehicle;

typedef struct ear__body {
    /* Hot: read by every contact test (the first cache line). */
    ear_vec3 pos;
    ear_vec3 half; /* the bounding box's half extents ((r, r, r) for spheres) */
    ear_shape shape;
    ear_body_kind kind;
    bool sensor;
    bool on_ground;
    bool is_vehicle;
    float radius;
    float inv_mass; /* 0 for fixed and kinematic bodies */
    /* State. */
    ear_vec3 vel;
    ear_vec3 force;
    ear_vec3 carry; /* displacement gathered during this step (riders follow it); between
                     * steps, the last step's displacement */
    float facing, pitch;
    float mass, bounciness, friction, damping, gravity_scale, max_speed;
    ear_body_id id;
    ear_body_id ground;
    uint64_t user_tag;
    void *user_data;
    /* Cold, out of line so the array stays small: the vehicle (NULL for other bodies)
     * and the name (always allocated, "" when none), both the world's. */
    ear__vehicle *vehicle;
    char *name;
} ear__body;

typedef struct ear__slot {
    uint32_t generation; /* of the current or last body in the slot */
    uint32_t dense;      /* place in the dense array; UINT32_MAX when free */
} ear__slot;

/* A contact pair this step, 24 bytes, so sorting and comparing the step's pairs moves
 * little memory: the ordered ids (the key), the impact speed, and in aux bit 0 whether the
 * mover (the event's body) is hi, in bits 1.. the place of the contact's normal and point
 * in the step's pair_info (only a new pair's event reads them). */
typedef struct ear__pair {
    ear_body_id lo, hi;
    float speed;
    uint32_t aux;
} ear__pair;

typedef struct ear__pair_info {
    ear_vec3 normal; /* from other towards body */
    ear_vec3 point;
} ear__pair_info;

static inline ear_body_id ear__pair_body(const ear__pair *p) {
    return (p->aux & 1u) ? p->hi : p->lo;
}
static inline ear_body_id ear__pair_other(const ear__pair *p) {
    return (p->aux & 1u) ? p->lo : p->hi;
}

/* A grid entry: a body's dense index with the (fat) box it was gridded with, so a query
 * filters candidates without touching the bodies. */
typedef struct ear__grid_entry {
    ear_vec3 lo, hi;
    uint32_t index;
} ear__grid_entry;

/* A uniform grid hashed into buckets: entries sorted by bucket (counting sort). */
typedef struct ear__grid {
    float cell, inv_cell;
    float reach; /* loose grids: how far a listed body reaches from its cell's point */
    bool loose;
    uint32_t bucket_mask; /* buckets - 1 (a power of two) */
    uint32_t *starts;     /* buckets + 1 prefix sums */
    ear__grid_entry *entries;
    uint32_t entry_count, entry_cap, bucket_cap;
    /* Bodies too large for cells: always candidates. */
    uint32_t *large;
    uint32_t large_count, large_cap;
    /* Moving grids: bodies that left their fat boxes since the build (extras), in a
     * second hashed grid of singly linked chains over the same buckets (xhead per
     * bucket, xnext per body), so a body is re-listed in O(1) and without allocating. */
    uint32_t *xhead;
    uint32_t xhead_cap;
    uint32_t extra_count;
    float xreach; /* the largest half size of an extra's fat box */
} ear__grid;

struct ear_physics {
    ear_physics_config cfg;
    ear_allocator alloc;
    ear__body *bodies; /* dense, id order */
    uint32_t count, cap;
    ear__slot *slots;
    uint32_t slot_count, slot_cap;
    uint32_t *free_slots;
    uint32_t free_count, free_cap;
    /* Broad phase: fixed bodies in their own grid, rebuilt only when they change;
     * moving bodies in a grid rebuilt every step around their fat boxes. */
    ear__grid fixed_grid, moving_grid;
    bool fixed_dirty;
    bool grid_valid;           /* false after a body was added, removed or reshaped */
    ear_vec3 *fat_lo, *fat_hi; /* per dense body: the box it was gridded with */
    uint32_t fat_cap;
    /* Neighbour lists (Verlet lists): for each moving body, the solid bodies whose boxes
     * overlapped its fat box at the last rebuild (CSR: nb_start[k] .. nb_start[k + 1] in
     * nb_idx). Valid for a body until it leaves its fat box (EAR__EXITED). A body whose
     * fat box some extra's fat box overlaps is EAR__NEAR_EXTRA: only those walk the extras
     * (the flags are cleared when the lists are rebuilt). */
    uint32_t *nb_start, *nb_idx;
    uint32_t nb_start_cap, nb_idx_cap, nb_count;
    uint8_t *exited; /* per dense body: EAR__EXITED | EAR__NEAR_EXTRA */
    uint32_t exited_cap;
    uint32_t *xnext, *xbucket; /* per dense body: its extra chain link and bucket */
    uint32_t *xlist;           /* the extras in the order they left (extra_count) */
    uint32_t xnext_cap, xbucket_cap, xlist_cap;
    bool lists_valid;
    uint32_t stamp;
    uint32_t *stamps; /* per dense body: the last query that visited it */
    uint32_t stamp_cap;
    /* Scratch for grid building. */
    uint32_t *scratch;
    uint32_t scratch_cap;
    /* Contacts of this and the last step. */
    ear__pair *pairs, *last_pairs;
    uint32_t pair_count, last_pair_count, pair_cap, last_pair_cap;
    ear__pair_info *pair_info; /* this step's, in the order found */
    uint32_t pair_info_count, pair_info_cap;
    /* Sensor overlaps (lo = sensor id, hi = visitor id) of this and the last step. */
    ear__pair *sense, *last_sense;
    uint32_t sense_count, last_sense_count, sense_cap, last_sense_cap;
    /* The pair sort's buffer and its digit counts. */
    ear__pair *sort_tmp;
    uint32_t *sort_count;
    uint32_t sort_tmp_cap, sort_count_cap;
    /* Events since the last clear. */
    ear_physics_event *events;
    size_t event_count, event_cap, events_dropped;
    uint64_t steps;
    /* The work of stepping (ear_physics_work): one unit per body a step walks and per
     * collider test a step makes; the last whole step's share. */
    uint64_t work, last_step_work;
    double time_s;
    float dt; /* of the step in progress */
    bool stepping;
};

/* ---- body.c (the base: calls nothing else of the module) ---- */
ear__body *ear__body_lookup(const ear_physics *w, ear_body_id id);
void ear__emit(ear_physics *w, const ear_physics_event *e);
ear_collider ear__collider_of(const ear__body *b);
/* The error for an id that names no body: EAR_E_INVALID_ARG (NONE, or never handed out)
 * or EAR_E_STALE_ID. */
ear_result ear__missing(const ear_physics *w, ear_body_id id);

/* ---- broad_phase.c ---- */
void ear__grid_free(ear_physics *w, ear__grid *g);
/* Rebuilds the fixed grid if fixed bodies changed, and the moving grid around each
 * moving body's box grown by its motion this step. */
ear_result ear__broad_rebuild(ear_physics *w);
/* Notes that body i moved; lists it with the extras when it left its fat box (and
 * rebuilds the moving grid and the lists when too many did). */
void ear__broad_moved(ear_physics *w, uint32_t i);
/* Rebuilds the moving grid and the neighbour lists when bodies left their fat boxes
 * (called at the start of a step). */
ear_result ear__broad_begin_step(ear_physics *w);
#define EAR__EXITED     1u
#define EAR__NEAR_EXTRA 2u
/* True when body i's neighbour list can stand in for a query. */
static inline bool ear__list_usable(const ear_physics *w, uint32_t i) {
    return w->lists_valid && w->grid_valid && !w->fixed_dirty && !(w->exited[i] & EAR__EXITED);
}
/* True when some extra may reach body i (a list user): only then does it walk the extras. */
static inline bool ear__near_extra(const ear_physics *w, uint32_t i) {
    return (w->exited[i] & EAR__NEAR_EXTRA) != 0;
}
/* Calls fn for each body (dense index) whose box overlaps [lo, hi], once each; stops
 * early when fn returns false. */
typedef bool (*ear__visit_fn)(ear_physics *w, uint32_t index, void *user);
void ear__broad_query(ear_physics *w, ear_vec3 lo, ear_vec3 hi, ear__visit_fn fn, void *user);
/* Calls fn for each extra (a moving body out of its fat box) whose box overlaps [lo, hi],
 * without de-duplication against other visits; stops when fn returns false. */
bool ear__broad_query_extras(ear_physics *w, ear_vec3 lo, ear_vec3 hi, ear__visit_fn fn,
                             void *user);
/* The same for the bodies near a segment (boxes grown by pad), each once. */
void ear__broad_query_segment(ear_physics *w, ear_vec3 from, ear_vec3 to, float pad,
                              ear__visit_fn fn, void *user);

/* ---- contact.c ---- */
/* A contact point between a (pushed along n by depth out of b). */
ear_vec3 ear__contact_point(const ear_collider *a, const ear_collider *b, ear_vec3 n,
                            float depth);

/* ---- resolve.c (what the step and the vehicles' step share) ---- */
/* Pushes body i out of what it overlaps (resolve_iterations pushes, by the who-moves
 * table). The contacts found are added to out (for bounce, ground and the step's pairs);
 * out->blocked is set when the mover itself was pushed back against out->move_dir. The
 * solid bodies near it come from its neighbour list while it is inside its fat box, else
 * from one broad-phase query. */
typedef struct ear__resolve_out {
    ear_vec3 move_dir; /* the mover's direction (zero: none) */
    bool blocked;
    /* The contacts found (for bounce and ground), up to 16. */
    uint32_t count;
    struct {
        uint32_t other;
        ear_vec3 normal;
        ear_vec3 point;
    } c[16];
} ear__resolve_out;
void ear__resolve(ear_physics *w, uint32_t i, ear__resolve_out *out);
void ear__move_by(ear_physics *w, uint32_t i, ear_vec3 delta, ear__resolve_out *out);
/* True when a and b were a contact pair at the end of the last step. */
bool ear__was_touching(const ear_physics *w, ear_body_id a, ear_body_id b);
/* Adds a contact pair to this step's list: body moved into other (normal from other
 * towards body) with this closing speed. */
void ear__record_pair(ear_physics *w, ear_body_id body, ear_body_id other, ear_vec3 normal,
                      ear_vec3 point, float speed);
/* Appends p to a pair list (dropped when out of memory); orders pairs by (lo, hi). */
void ear__add_pair(ear_physics *w, ear__pair **list, uint32_t *count, uint32_t *cap,
                   const ear__pair *p);
int ear__pair_cmp(const ear__pair *x, const ear__pair *y);

/* ---- vehicle.c ---- */
void ear__vehicle_init(ear__vehicle *v, const ear_vehicle_config *cfg);
ear_result ear__vehicle_validate(const ear_vehicle_config *cfg);
void ear__vehicle_step(ear_physics *w, uint32_t i, float dt);

#endif
