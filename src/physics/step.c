/* The step, resolve and move_by (being written: they refuse with EAR_E_UNSUPPORTED). */
#include "physics_internal.h"

ear_result ear_physics_step(ear_physics *w, float dt_s) {
    (void)w;
    (void)dt_s;
    return EAR_E_UNSUPPORTED;
}

ear_result ear_body_move_by(ear_physics *w, ear_body_id id, ear_vec3 delta_m,
                            bool *out_blocked) {
    (void)w;
    (void)id;
    (void)delta_m;
    (void)out_blocked;
    return EAR_E_UNSUPPORTED;
}

ear_result ear_body_move_forward(ear_physics *w, ear_body_id id, float distance_m,
                                 bool *out_blocked) {
    (void)distance_m;
    return ear_body_move_by(w, id, ear_vec3_make(0, 0, 0), out_blocked);
}

ear_result ear_body_strafe(ear_physics *w, ear_body_id id, float distance_m,
                           bool *out_blocked) {
    (void)distance_m;
    return ear_body_move_by(w, id, ear_vec3_make(0, 0, 0), out_blocked);
}
