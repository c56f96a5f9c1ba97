/* Ray casts and overlap queries (being written: they refuse with EAR_E_UNSUPPORTED). */
#include "physics_internal.h"

ear_result ear_physics_ray_cast(const ear_physics *w, ear_vec3 from_m, ear_vec3 to_m,
                                const ear_ray_options *options, ear_ray_hit *out_hit,
                                bool *out_found) {
    (void)w, (void)from_m, (void)to_m, (void)options, (void)out_hit, (void)out_found;
    return EAR_E_UNSUPPORTED;
}

ear_result ear_physics_ray_cast_all(const ear_physics *w, ear_vec3 from_m, ear_vec3 to_m,
                                    const ear_ray_options *options, ear_ray_hit *hits,
                                    size_t capacity, size_t *out_count) {
    (void)w, (void)from_m, (void)to_m, (void)options, (void)hits, (void)capacity,
        (void)out_count;
    return EAR_E_UNSUPPORTED;
}

ear_result ear_physics_query_overlaps(const ear_physics *w, const ear_collider *collider,
                                      const ear_ray_options *options, ear_body_id *ids,
                                      size_t capacity, size_t *out_count) {
    (void)w, (void)collider, (void)options, (void)ids, (void)capacity, (void)out_count;
    return EAR_E_UNSUPPORTED;
}
