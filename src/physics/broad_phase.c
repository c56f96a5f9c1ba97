/*
 * The broad phase (being written): until the grid lands, a query visits every body whose
 * box overlaps the query box, in id order.
 */
#include "physics_internal.h"

void ear__grid_free(ear_physics *w, ear__grid *g) {
    (void)w;
    (void)g;
}

ear_result ear__broad_rebuild(ear_physics *w) {
    (void)w;
    return EAR_OK;
}

void ear__broad_moved(ear_physics *w, uint32_t i) {
    (void)w;
    (void)i;
}

void ear__broad_query(ear_physics *w, ear_vec3 lo, ear_vec3 hi, ear__visit_fn fn, void *user) {
    for (uint32_t k = 0; k < w->count; k++) {
        const ear__body *b = &w->bodies[k];
        if (b->pos.x + b->half.x < lo.x || b->pos.x - b->half.x > hi.x ||
            b->pos.y + b->half.y < lo.y || b->pos.y - b->half.y > hi.y ||
            b->pos.z + b->half.z < lo.z || b->pos.z - b->half.z > hi.z)
            continue;
        if (!fn(w, k, user)) return;
    }
}
