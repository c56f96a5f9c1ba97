/* Vehicles (being written: controls and read-outs refuse with EAR_E_UNSUPPORTED). */
#include "physics_internal.h"

#include <string.h>

ear_vehicle_config ear_vehicle_config_default(void) {
    ear_vehicle_config c;
    memset(&c, 0, sizeof c);
    c.load_kg = 0;
    c.engine_force_n = 6000;
    c.brake_force_n = 12000;
    c.top_speed_mps = 50;
    c.grip_mps2 = 8;
    c.rolling_resistance_mps2 = 0.15f;
    c.engine_braking_mps2 = 0.6f;
    c.turn_radius_m = 5;
    c.max_turn_rate_dps = 90;
    c.gears = 5;
    c.idle_rpm = 800;
    c.max_rpm = 6000;
    c.fuel_l = 50;
    c.fuel_capacity_l = 50;
    c.consumption_l_per_100km = 7;
    c.engine_on = true;
    return c;
}

void ear__vehicle_init(ear__vehicle *v, const ear_vehicle_config *cfg) {
    memset(v, 0, sizeof *v);
    v->cfg = *cfg;
    v->gear = 1;
}

ear_result ear__vehicle_validate(const ear_vehicle_config *c) {
    (void)c;
    return EAR_OK;
}

void ear__vehicle_step(ear_physics *w, uint32_t i, float dt) {
    (void)w, (void)i, (void)dt;
}

ear_result ear_vehicle_set_controls(ear_physics *w, ear_body_id id,
                                    const ear_vehicle_controls *controls) {
    (void)w, (void)id, (void)controls;
    return EAR_E_UNSUPPORTED;
}

ear_result ear_vehicle_set_engine(ear_physics *w, ear_body_id id, bool on) {
    (void)w, (void)id, (void)on;
    return EAR_E_UNSUPPORTED;
}

ear_result ear_vehicle_set_fuel(ear_physics *w, ear_body_id id, float fuel_l) {
    (void)w, (void)id, (void)fuel_l;
    return EAR_E_UNSUPPORTED;
}

ear_result ear_vehicle_get_state(const ear_physics *w, ear_body_id id, ear_vehicle_state *out) {
    (void)w, (void)id, (void)out;
    return EAR_E_UNSUPPORTED;
}
