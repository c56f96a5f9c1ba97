/* SPDX-License-Identifier: Zlib */
/*
 * Arcade vehicles. A vehicle is a kinematic body that drives itself at the start of each
 * step: pedals and the engine set a signed speed along the facing, steering turns the
 * facing, the gearbox follows the speed, and the move goes through move_by so walls,
 * crates and the obstructed rule apply as to any mover.
 *
 * The speed s (m/s, negative when reversing) changes once a step:
 *
 *   weight = mass + load
 *   moving forward (s > 0.3): gas drives, brake brakes;
 *   moving backward (s < -0.3): brake drives (backward), gas brakes;
 *   standing (|s| <= 0.3): gas - brake drives, except a held pedal (one that braked the
 *     vehicle into standing) counts as a brake until it is released;
 *   engine:  a = engine_force * drive * max(0, 1 - (s / top)^2) / weight, at most grip;
 *   braking: brake_force * pedal / weight (handbrake: grip), at most grip;
 *   always rolling_resistance; when no pedal drives, engine_braking (engine on) and air
 *     drag 0.3 * engine_force / weight * (s / top)^2;
 *   the decelerations shrink |s| and never carry it across zero.
 *
 * Then the turn rate min(|s| / turn_radius * 180 / pi, max_turn_rate) * steer * sign(s)
 * degrees a second, fuel at consumption / 100000 litres per metre times (0.3 + 0.7 *
 * pedal) and weight / mass (an empty tank stops the engine), the gearbox (bands of top *
 * g / gears: up above 95 % of the band, down below 70 % of the band below) and rpm =
 * idle + (max - idle) * |s| / band (at least 30 % of the throttle's range while the pedal
 * revs it). A blocked move probes 2 cm ahead for the obstacle, removes the velocity into
 * its normal (the rest slides; the speed along the facing becomes that of what is left)
 * and reports Crashed when more than 0.5 m/s were lost against an obstacle it was not
 * already touching.
 */
#include "physics_internal.h"

#include <string.h>

#define STANDING_MPS  0.3f
#define CRASH_MIN_MPS 0.5f
#define PROBE_M       0.02f
#define HOLD_BRAKE    1
#define HOLD_GAS      (-1)
#define RAD_TO_DEG    57.29577951308232f

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

static bool nonneg(float x) {
    return isfinite(x) && x >= 0;
}

static bool positive(float x) {
    return isfinite(x) && x > 0;
}

ear_result ear__vehicle_validate(const ear_vehicle_config *c) {
    if (!nonneg(c->load_kg) || !positive(c->engine_force_n) || !nonneg(c->brake_force_n) ||
        !positive(c->top_speed_mps) || !positive(c->grip_mps2) ||
        !nonneg(c->rolling_resistance_mps2) || !nonneg(c->engine_braking_mps2) ||
        !positive(c->turn_radius_m) || !positive(c->max_turn_rate_dps) || c->gears < 1 ||
        c->gears > 20 || !nonneg(c->idle_rpm) || !positive(c->max_rpm) ||
        !(c->idle_rpm < c->max_rpm) || !nonneg(c->fuel_l) || !nonneg(c->fuel_capacity_l) ||
        !nonneg(c->consumption_l_per_100km))
        return EAR_E_INVALID_ARG;
    return EAR_OK;
}

void ear__vehicle_init(ear__vehicle *v, const ear_vehicle_config *cfg) {
    memset(v, 0, sizeof *v);
    v->cfg = *cfg;
    if (v->cfg.fuel_l > v->cfg.fuel_capacity_l) v->cfg.fuel_l = v->cfg.fuel_capacity_l;
    if (v->cfg.consumption_l_per_100km > 0 && v->cfg.fuel_l <= 0) v->cfg.engine_on = false;
    v->gear = 1;
    v->rpm = v->cfg.engine_on ? v->cfg.idle_rpm : 0;
}

static float clamp01(float x) {
    return x < 0 ? 0 : x > 1 ? 1 : x;
}

static float band(const ear_vehicle_config *c, uint32_t g) {
    return c->top_speed_mps * (float)g / (float)c->gears;
}

/* One step of the speed, turn, fuel, gearbox and rpm (the move is the caller's). */
static void simulate(ear__vehicle *v, float mass, float dt, float *out_pedal) {
    const ear_vehicle_config *c = &v->cfg;
    float weight = mass + c->load_kg;
    float s = v->speed_mps;
    float gas = v->controls.gas, brake = v->controls.brake;
    if (v->hold == HOLD_BRAKE && brake <= 0) v->hold = 0;
    if (v->hold == HOLD_GAS && gas <= 0) v->hold = 0;

    float drive = 0, brake_pedal = 0;
    int dir = s > STANDING_MPS ? 1 : s < -STANDING_MPS ? -1 : 0;
    if (dir > 0) {
        drive = gas;
        brake_pedal = brake;
    } else if (dir < 0) {
        drive = -brake;
        brake_pedal = gas;
    } else {
        float g = v->hold == HOLD_GAS ? 0 : gas;
        float b = v->hold == HOLD_BRAKE ? 0 : brake;
        drive = g - b;
        if (v->hold == HOLD_GAS) brake_pedal = gas;
        if (v->hold == HOLD_BRAKE) brake_pedal = brake;
    }
    bool engine = c->engine_on;
    if (!engine) drive = 0;
    float pedal = drive < 0 ? -drive : drive;

    /* Engine. */
    if (drive != 0) {
        float r = s / c->top_speed_mps;
        float f = 1.0f - r * r;
        if (f < 0) f = 0;
        /* Pulling against the motion (a standing start in the other direction) is not
         * limited by the top speed. */
        if ((drive > 0) != (s > 0) && s != 0) f = 1;
        float a = c->engine_force_n * pedal * f / weight;
        if (a > c->grip_mps2) a = c->grip_mps2;
        s += (drive > 0 ? a : -a) * dt;
    }
    /* Decelerations, never past zero. */
    float decel = c->rolling_resistance_mps2;
    if (v->controls.handbrake) {
        decel += c->grip_mps2;
    } else if (brake_pedal > 0) {
        float b = c->brake_force_n * brake_pedal / weight;
        decel += b > c->grip_mps2 ? c->grip_mps2 : b;
    }
    if (drive == 0) {
        float r = s / c->top_speed_mps;
        if (engine) decel += c->engine_braking_mps2;
        decel += 0.3f * c->engine_force_n / weight * r * r;
    }
    if (s > 0) {
        s -= decel * dt;
        if (s < 0) s = 0;
    } else if (s < 0) {
        s += decel * dt;
        if (s > 0) s = 0;
    }
    /* A pedal that braked the vehicle into standing is held until released. */
    if (dir != 0 && brake_pedal > 0 && s >= -STANDING_MPS && s <= STANDING_MPS)
        v->hold = dir > 0 ? HOLD_BRAKE : HOLD_GAS;
    v->speed_mps = s;
    v->load = engine ? pedal : 0;
    *out_pedal = pedal;

    /* Turning. */
    float as = s < 0 ? -s : s;
    float rate = as / c->turn_radius_m * RAD_TO_DEG;
    if (rate > c->max_turn_rate_dps) rate = c->max_turn_rate_dps;
    float steer = v->controls.steer;
    v->turn_rate_dps = rate * steer * (s > 0 ? 1.0f : s < 0 ? -1.0f : 0.0f);
}

static void gearbox(ear_physics *w, ear__body *b) {
    ear__vehicle *v = b->vehicle;
    const ear_vehicle_config *c = &v->cfg;
    float as = v->speed_mps < 0 ? -v->speed_mps : v->speed_mps;
    uint32_t g = v->gear, before = g;
    while (g < c->gears && as > 0.95f * band(c, g)) g++;
    while (g > 1 && as < 0.7f * band(c, g - 1)) g--;
    v->gear = g;
    if (g != before) {
        ear_physics_event e;
        memset(&e, 0, sizeof e);
        e.type = EAR_PHYS_GEAR_CHANGED;
        e.body = b->id;
        e.gear = g;
        e.previous_gear = before;
        ear__emit(w, &e);
    }
    if (!c->engine_on) {
        v->rpm = 0;
        return;
    }
    float rpm = c->idle_rpm + (c->max_rpm - c->idle_rpm) * as / band(c, g);
    float revving = c->idle_rpm + (c->max_rpm - c->idle_rpm) * 0.3f * v->load;
    if (rpm < revving) rpm = revving;
    v->rpm = rpm > c->max_rpm ? c->max_rpm : rpm;
}

typedef struct probe_ctx {
    uint32_t self;
    ear_collider me;
    uint32_t best;
    float depth;
    ear_vec3 normal;
} probe_ctx;

static bool probe_visit(ear_physics *w, uint32_t k, void *user) {
    probe_ctx *p = user;
    if (k == p->self || w->bodies[k].sensor) return true;
    ear_collider c = ear__collider_of(&w->bodies[k]);
    ear_vec3 n;
    float depth;
    w->work++;
    if (!ear_collider_penetration(&p->me, &c, &n, &depth)) return true;
    if (depth > p->depth || (depth == p->depth && k < p->best)) {
        p->best = k;
        p->depth = depth;
        p->normal = n;
    }
    return true;
}

void ear__vehicle_step(ear_physics *w, uint32_t i, float dt) {
    ear__body *b = &w->bodies[i];
    ear__vehicle *v = b->vehicle;
    float pedal = 0;
    simulate(v, b->mass, dt, &pedal);
    b->facing = fmodf(b->facing + v->turn_rate_dps * dt, 360.0f);
    if (b->facing < 0) b->facing += 360.0f;

    ear_vec3 fwd =
        ear_vec3_normalize_or(ear_forward_from_facing(b->facing, 0), ear_vec3_make(0, 0, -1));
    float s = v->speed_mps;
    float dist = (s < 0 ? -s : s) * dt;
    /* Fuel by the metre. */
    const ear_vehicle_config *c = &v->cfg;
    if (c->engine_on && c->consumption_l_per_100km > 0 && dist > 0) {
        float used = c->consumption_l_per_100km / 100000.0f * dist * (0.3f + 0.7f * pedal) *
                     ((b->mass + c->load_kg) / b->mass);
        v->cfg.fuel_l -= used;
        if (v->cfg.fuel_l <= 0) {
            v->cfg.fuel_l = 0;
            v->cfg.engine_on = false;
        }
    }
    v->odometer_m += dist;

    ear__resolve_out r;
    memset(&r, 0, sizeof r);
    ear_vec3 vel = ear_vec3_scale(fwd, s);
    if (s != 0) ear__move_by(w, i, ear_vec3_scale(vel, dt), &r);
    if (r.blocked) {
        /* What is in the way, 2 cm further along the motion. */
        probe_ctx p;
        memset(&p, 0, sizeof p);
        p.self = i;
        p.best = UINT32_MAX;
        p.me = ear__collider_of(b);
        p.me.center_m = ear_vec3_add(b->pos, ear_vec3_scale(fwd, s > 0 ? PROBE_M : -PROBE_M));
        ear_vec3 lo = ear_vec3_sub(p.me.center_m, b->half);
        ear_vec3 hi = ear_vec3_add(p.me.center_m, b->half);
        ear__broad_query(w, lo, hi, probe_visit, &p);
        if (p.best != UINT32_MAX) {
            ear_vec3 n = p.normal;
            float vn = ear_vec3_dot(vel, n);
            if (vn < 0) {
                vel = ear_vec3_sub(vel, ear_vec3_scale(n, vn));
                float lost = -vn;
                v->speed_mps = ear_vec3_dot(vel, fwd);
                const ear__body *o = &w->bodies[p.best];
                ear_collider co = ear__collider_of(o);
                ear_vec3 point = ear__contact_point(&p.me, &co, n, p.depth);
                ear__record_pair(w, b->id, o->id, n, point, lost);
                /* A crash is the impact; scraping along the same wall is not another. */
                if (lost > CRASH_MIN_MPS && !ear__was_touching(w, b->id, o->id)) {
                    ear_physics_event e;
                    memset(&e, 0, sizeof e);
                    e.type = EAR_PHYS_CRASHED;
                    e.body = b->id;
                    e.other = o->id;
                    e.speed_mps = lost;
                    e.normal = n;
                    e.point_m = point;
                    ear__emit(w, &e);
                }
            }
        }
    }
    /* Contacts with what it shoved or touched are the step's pairs too. */
    for (uint32_t k = 0; k < r.count; k++) {
        const ear__body *o = &w->bodies[r.c[k].other];
        float closing =
            -ear_vec3_dot(ear_vec3_sub(ear_vec3_scale(fwd, s), o->vel), r.c[k].normal);
        ear__record_pair(w, b->id, o->id, r.c[k].normal, r.c[k].point,
                         closing > 0 ? closing : 0);
    }
    b->vel = vel;
    gearbox(w, b);
}

/* ---- Public controls and read-outs --------------------------------------------------------
 */

static ear_result vehicle_of(const ear_physics *w, ear_body_id id, ear__body **out) {
    ear__body *b = ear__body_lookup(w, id);
    if (!b) return ear__missing(w, id);
    if (!b->is_vehicle) return EAR_E_STATE;
    *out = b;
    return EAR_OK;
}

ear_result ear_vehicle_set_controls(ear_physics *w, ear_body_id id,
                                    const ear_vehicle_controls *controls) {
    if (!controls) return EAR_E_INVALID_ARG;
    ear__body *b = NULL;
    ear_result res = vehicle_of(w, id, &b);
    if (res != EAR_OK) return res;
    if (isnan(controls->gas) || isnan(controls->brake) || isnan(controls->steer))
        return EAR_E_INVALID_ARG;
    ear_vehicle_controls c = *controls;
    c.gas = clamp01(c.gas);
    c.brake = clamp01(c.brake);
    c.steer = c.steer < -1 ? -1 : c.steer > 1 ? 1 : c.steer;
    b->vehicle->controls = c;
    return EAR_OK;
}

ear_result ear_vehicle_set_engine(ear_physics *w, ear_body_id id, bool on) {
    ear__body *b = NULL;
    ear_result res = vehicle_of(w, id, &b);
    if (res != EAR_OK) return res;
    ear_vehicle_config *c = &b->vehicle->cfg;
    if (on && c->consumption_l_per_100km > 0 && c->fuel_l <= 0) return EAR_E_STATE;
    c->engine_on = on;
    b->vehicle->rpm = on ? c->idle_rpm : 0;
    return EAR_OK;
}

ear_result ear_vehicle_set_fuel(ear_physics *w, ear_body_id id, float fuel_l) {
    ear__body *b = NULL;
    ear_result res = vehicle_of(w, id, &b);
    if (res != EAR_OK) return res;
    if (!nonneg(fuel_l)) return EAR_E_INVALID_ARG;
    ear_vehicle_config *c = &b->vehicle->cfg;
    c->fuel_l = fuel_l > c->fuel_capacity_l ? c->fuel_capacity_l : fuel_l;
    return EAR_OK;
}

ear_result ear_vehicle_get_state(const ear_physics *w, ear_body_id id, ear_vehicle_state *out) {
    if (!out) return EAR_E_INVALID_ARG;
    ear__body *b = NULL;
    ear_result res = vehicle_of(w, id, &b);
    if (res != EAR_OK) return res;
    const ear__vehicle *v = b->vehicle;
    ear_vehicle_state s;
    memset(&s, 0, sizeof s);
    s.speed_mps = v->speed_mps;
    s.rpm = v->rpm;
    s.gear = v->gear;
    s.reversing = v->speed_mps < 0;
    s.load = v->load;
    s.fuel_l = v->cfg.fuel_l;
    s.engine_on = v->cfg.engine_on;
    s.turn_rate_dps = v->turn_rate_dps;
    s.odometer_m = v->odometer_m;
    s.holding = v->hold != 0;
    s.controls = v->controls;
    s.config = v->cfg;
    *out = s;
    return EAR_OK;
}
