/* SPDX-License-Identifier: Zlib */
/*
 * Earshot physics for audio games: one world of axis-aligned boxes and spheres that never
 * rotate, contacts resolved by pushing bodies apart, events for what a player hears
 * (landings, hits, sensors, gear changes, crashes), ray casts, and arcade vehicles.
 *
 * The world (ear_physics) keeps its bodies in id order, which is the order they were
 * added: every loop of a step visits them in that order, so the same calls give the same
 * state, bit for bit (ear_physics_hash). Handles carry a generation: the id of a removed
 * body is refused with EAR_E_STALE_ID, never undefined behaviour, and is never handed
 * out again by the same world.
 *
 * Coordinates are core.h's: +X east (right), +Y up, -Z north (forward). Units are metres,
 * seconds, kilograms, newtons; angles in degrees. `facing` is a yaw in degrees, 0 =
 * north = -Z, growing clockwise seen from above (90 = east = +X); `pitch` is degrees up.
 * Neither rotates a shape: they are numbers for the game, the move helpers and the
 * listener.
 *
 * One step (ear_physics_step), in this order:
 *
 *   0. vehicles are driven (pedals, engine, brakes, steering, fuel, gearbox) and moved
 *      with move_by; a blocked vehicle slides along the obstacle and may crash;
 *   1. kinematic bodies (vehicles excluded) move by velocity * dt; the displacement is
 *      remembered;
 *   2. each dynamic body, in id order: carried by its ground's displacement; velocity +=
 *      (gravity * gravity_scale + force / mass) * dt (the force is then cleared);
 *      damping; ground friction (horizontal); the max-speed clamp; moved in sub-steps
 *      no longer than its smallest half extent, resolved after each; bounced off each
 *      contact; ground detection (contact normal . up > 0.7), air -> ground is Landed;
 *   3. contact pairs new this step that closed with some speed give CollisionStarted,
 *      pairs that ended give CollisionEnded;
 *   4. sensor overlaps compared with the last step give Entered and Left.
 *
 * Events accumulate across steps until ear_physics_clear_events; the runner clears them
 * once a frame, before the frame's fixed steps, so a scene's update sees every step's
 * events. docs/modules/physics.md gives every rule and formula with units and defaults.
 *
 * What the audio world (src/world) relies on, all declared below: iterating bodies in
 * order (ear_physics_body_count, ear_physics_body_at); reading a body's pose, velocity,
 * facing, pitch, name and user tag (ear_body_get); this frame's events with impact speed,
 * normal and contact point (CollisionStarted), GearChanged and Crashed with the lost
 * speed (ear_physics_events); a vehicle's rpm, speed, load, gear and engine state
 * (ear_vehicle_get_state); counting the bodies along a segment (ear_physics_ray_cast_all
 * with no room for hits); a removed body seen through its stale id (ear_body_exists
 * false, ear_body_get EAR_E_STALE_ID).
 *
 * Levels, paths, the words for positions and world documents build on this API in
 * earshot/level.h (the level module); the physics itself builds on core alone.
 *
 * Thread: a world belongs to one thread (the game thread in the runtime); nothing here
 * locks. Pure functions (penetration, forward vectors) are Thread: any.
 */
#ifndef EARSHOT_PHYSICS_H
#define EARSHOT_PHYSICS_H

#include "earshot/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Ids, kinds and shapes ------------------------------------------------------------ */

/* A body's handle: its slot in the low 32 bits, the slot's generation (from 1) in the
 * high 32 bits. EAR_BODY_NONE (0) is never a body. */
typedef uint64_t ear_body_id;
#define EAR_BODY_NONE ((ear_body_id)0)

/* How a body moves. */
typedef enum ear_body_kind {
    EAR_BODY_DYNAMIC = 0,   /* gravity, forces, velocity; pushed out of what it hits */
    EAR_BODY_KINEMATIC = 1, /* moves by its velocity and is never pushed; shoves dynamic
                               bodies fully (players, platforms, vehicles) */
    EAR_BODY_FIXED = 2,     /* never moves by itself (walls, floors) */
} ear_body_kind;

typedef enum ear_shape {
    EAR_SHAPE_BOX = 0,    /* axis-aligned box: half_extents_m */
    EAR_SHAPE_SPHERE = 1, /* sphere: radius_m */
} ear_shape;

/* A shape placed in space, for the pure contact functions. */
typedef struct ear_collider {
    ear_shape shape;
    ear_vec3 center_m;
    ear_vec3 half_extents_m; /* boxes */
    float radius_m;          /* spheres */
} ear_collider;

/* ---- Vehicles --------------------------------------------------------------------------- */

/* A vehicle's make (docs/modules/physics.md, "Vehicles"). The body's mass is the
 * vehicle's empty mass; a body with a vehicle is always kinematic. */
typedef struct ear_vehicle_config {
    float load_kg;                 /* cargo and passengers on top of the mass; default 0 */
    float engine_force_n;          /* the engine's pull at the wheels; default 6000 */
    float brake_force_n;           /* all brakes at full pedal; default 12000 */
    float top_speed_mps;           /* flat-road top speed; default 50 (180 km/h) */
    float grip_mps2;               /* the most the tyres accelerate or brake; default 8 */
    float rolling_resistance_mps2; /* always against the motion; default 0.15 */
    float engine_braking_mps2;     /* with the engine on and no pedal; default 0.6 */
    float turn_radius_m;           /* tightest turn at low speed; default 5 */
    float max_turn_rate_dps;       /* fastest turn, degrees per second; default 90 */
    uint32_t gears;                /* forward gears (1..20); default 5 */
    float idle_rpm;                /* default 800 */
    float max_rpm;                 /* at the top of each gear's band; default 6000 */
    float fuel_l;                  /* in the tank; default 50 */
    float fuel_capacity_l;         /* the tank; default 50 (fuel is clamped to it) */
    float consumption_l_per_100km; /* at full pedal, empty; default 7; 0: no fuel use */
    bool engine_on;                /* running at creation; default true */
} ear_vehicle_config;

/* The defaults above. Thread: any. */
ear_vehicle_config ear_vehicle_config_default(void);

/* The driver's controls, kept until changed. */
typedef struct ear_vehicle_controls {
    float gas;      /* 0..1 */
    float brake;    /* 0..1 */
    float steer;    /* -1 (left, anticlockwise) .. 1 (right, clockwise) */
    bool handbrake; /* brakes with all the grip */
} ear_vehicle_controls;

/* A vehicle's read-outs after the last step. */
typedef struct ear_vehicle_state {
    float speed_mps;     /* signed speed along the facing (negative: reversing) */
    float rpm;           /* 0 with the engine off */
    uint32_t gear;       /* 1..gears, chosen by |speed| (also 1 when reversing) */
    bool reversing;      /* moving backward */
    float load;          /* 0..1: the pedal that drives the engine this step */
    float fuel_l;        /* left in the tank */
    bool engine_on;      /* false once the tank ran dry or the game stopped it */
    float turn_rate_dps; /* this step's turn, degrees per second (positive clockwise) */
    float odometer_m;    /* distance driven since creation */
    bool holding;        /* a pedal that braked to a stop is held until released */
    ear_vehicle_controls controls;
    ear_vehicle_config config; /* the make, with fuel_l and engine_on as they are now */
} ear_vehicle_state;

/* ---- Bodies ------------------------------------------------------------------------------ */

/* Everything that describes a body; start from ear_body_desc_default(). */
typedef struct ear_body_desc {
    const char *name;        /* copied (up to 63 bytes are kept); default NULL: "" */
    uint64_t user_tag;       /* the game's number for the body (hashed); default 0 */
    void *user_data;         /* the game's pointer (borrowed, never read); default NULL */
    ear_body_kind kind;      /* default EAR_BODY_DYNAMIC */
    ear_shape shape;         /* default EAR_SHAPE_BOX */
    ear_vec3 half_extents_m; /* boxes: each > 0; default (0.5, 0.5, 0.5) */
    float radius_m;          /* spheres: > 0; default 0.5 */
    bool sensor;           /* detects overlaps (Entered/Left), never collides; default false */
    ear_vec3 position_m;   /* the centre; default origin */
    ear_vec3 velocity_mps; /* default 0 */
    float facing_deg;      /* default 0 (north) */
    float pitch_deg;       /* default 0 */
    float mass_kg;         /* > 0 (dynamic bodies and vehicles); default 1 */
    float bounciness;      /* restitution e, 0..1; default 0 */
    float friction;        /* ground friction coefficient mu (>= 0): on the ground the
                              horizontal speed drops by mu * |g| * gravity_scale per second;
                              default 0.5 */
    float damping_per_s;   /* velocity *= max(0, 1 - damping * dt) each step; default 0 */
    float gravity_scale;   /* default 1 */
    float max_speed_mps;   /* speed clamp; default 0: none */
    /* Makes the body a vehicle (kind forced to kinematic), copied; default NULL. */
    const ear_vehicle_config *vehicle;
} ear_body_desc;

/* The defaults above. Thread: any. */
ear_body_desc ear_body_desc_default(void);

/* A body as it is now. */
typedef struct ear_body_info {
    ear_body_id id;
    /* The description as it is now (position, velocity, facing ... current; name
     * borrowed until the body is removed or renamed; vehicle points to the world's copy,
     * valid until the next call that changes the world, NULL for other bodies). Passing
     * it back to ear_body_set is allowed. */
    ear_body_desc desc;
    ear_vec3 force_n;        /* accumulated for the next step */
    bool on_ground;          /* resting on something (contact normal . up > 0.7) */
    ear_body_id ground;      /* what it rests on, or EAR_BODY_NONE */
    ear_vec3 displacement_m; /* how far it moved in the last step (all kinds) */
    uint64_t index;          /* its place in id order (0-based) */
} ear_body_info;

/* ---- The world ----------------------------------------------------------------------------
 */

typedef struct ear_physics ear_physics;

typedef struct ear_physics_config {
    ear_vec3 gravity_mps2; /* default (0, -9.81, 0) */
    /* Edge of a broad-phase grid cell in metres; default 0: chosen from the bodies
     * (twice the mean size of the moving bodies, within 0.25..64 m). */
    float grid_cell_m;
    size_t max_events;              /* kept between clears; beyond, events are counted as
                                       dropped; default 65536 */
    uint32_t resolve_iterations;    /* pushes per resolve (to settle corners); default 4 */
    const ear_allocator *allocator; /* default NULL: malloc, realloc, free */
} ear_physics_config;

/* The defaults above. Thread: any. */
ear_physics_config ear_physics_config_default(void);

/* Creates an empty world (NULL config: defaults); the caller owns *out and frees it with
 * ear_physics_destroy. EAR_E_INVALID_ARG for NULL out or a config value out of range
 * (gravity not finite, grid_cell_m < 0, max_events 0, resolve_iterations 0 or > 64),
 * EAR_E_OUT_OF_MEMORY; *out untouched on failure. Thread: game. */
ear_result ear_physics_create(const ear_physics_config *config, ear_physics **out);

/* Frees the world and every body. NULL does nothing. Thread: game. */
void ear_physics_destroy(ear_physics *world);

/* Removes every body and event and resets time; the memory is kept for reuse. Ids
 * handed out before stay stale. Thread: game. */
void ear_physics_clear(ear_physics *world);

/* The config as created (gravity as last set). Thread: game. */
ear_physics_config ear_physics_get_config(const ear_physics *world);

/* Changes gravity. EAR_E_INVALID_ARG when not finite. Thread: game. */
ear_result ear_physics_set_gravity(ear_physics *world, ear_vec3 gravity_mps2);

/* Reserves room for `bodies` bodies so that adding them later does not allocate.
 * EAR_E_OUT_OF_MEMORY (nothing changes). Thread: game. */
ear_result ear_physics_reserve(ear_physics *world, size_t bodies);

/* ---- Adding, removing, iterating ------------------------------------------------------- */

/* Adds a body (desc copied, with its name and vehicle) at the end of id order.
 * EAR_E_INVALID_ARG with the reason logged (module "physics") for: NULL world, desc or
 * out_id; a position, velocity or number not finite; a box half extent or sphere radius
 * <= 0; mass below 1e-6 kg; bounciness outside 0..1; friction, damping or max speed < 0; a bad
 * vehicle (see ear_vehicle_config: forces, speeds, grip, turn radius and rpm > 0, gears
 * 1..20, fuel >= 0, idle_rpm < max_rpm). EAR_E_OUT_OF_MEMORY. Nothing changes on failure.
 * Does not resolve overlaps (the next step does). Thread: game. */
ear_result ear_physics_add_body(ear_physics *world, const ear_body_desc *desc,
                                ear_body_id *out_id);

/* Removes a body; its id turns stale. Bodies resting on it lose their ground; sensors
 * that held it emit Left at the next step, and its contacts CollisionEnded (with `other`
 * the stale id). EAR_E_STALE_ID for a removed body, EAR_E_INVALID_ARG for NONE.
 * Thread: game. */
ear_result ear_physics_remove_body(ear_physics *world, ear_body_id id);

/* Bodies in the world. Thread: game. */
size_t ear_physics_body_count(const ear_physics *world);

/* The index-th body in id order (0-based), or EAR_BODY_NONE past the end. Indices
 * shift when a body is removed. Thread: game. */
ear_body_id ear_physics_body_at(const ear_physics *world, size_t index);

/* True while id names a body of this world. Thread: game. */
bool ear_body_exists(const ear_physics *world, ear_body_id id);

/* The first body (in id order) with that name, or EAR_BODY_NONE. Thread: game. */
ear_body_id ear_physics_find(const ear_physics *world, const char *name);

/* ---- Reading and changing a body ------------------------------------------------------ */

/* Writes the body's state to *out. EAR_E_STALE_ID / EAR_E_INVALID_ARG; *out untouched.
 * Thread: game. */
ear_result ear_body_get(const ear_physics *world, ear_body_id id, ear_body_info *out);

/* Replaces the whole description (validated as in add_body; name and vehicle copied;
 * a NULL desc->vehicle removes the vehicle; a vehicle whose config is unchanged keeps
 * its state). Contacts, ground and events are kept. Nothing changes on failure.
 * Thread: game. */
ear_result ear_body_set(ear_physics *world, ear_body_id id, const ear_body_desc *desc);

/* Single fields. Each validates (finite numbers) and changes nothing on failure:
 * EAR_E_STALE_ID, EAR_E_INVALID_ARG. set_position teleports (no resolve; the ground is
 * forgotten). Thread: game. */
ear_result ear_body_set_position(ear_physics *world, ear_body_id id, ear_vec3 position_m);
ear_result ear_body_set_velocity(ear_physics *world, ear_body_id id, ear_vec3 velocity_mps);
ear_result ear_body_set_facing(ear_physics *world, ear_body_id id, float facing_deg);
ear_result ear_body_set_pitch(ear_physics *world, ear_body_id id, float pitch_deg);
ear_result ear_body_set_name(ear_physics *world, ear_body_id id, const char *name);
ear_result ear_body_set_user_tag(ear_physics *world, ear_body_id id, uint64_t tag);
/* Adds to the force for the next step (cleared by it); set_force replaces it. Thread: game. */
ear_result ear_body_add_force(ear_physics *world, ear_body_id id, ear_vec3 force_n);
ear_result ear_body_set_force(ear_physics *world, ear_body_id id, ear_vec3 force_n);

/* Shorthands that read one thing (EAR_E_STALE_ID / EAR_E_INVALID_ARG; out untouched).
 * Thread: game. */
ear_result ear_body_position(const ear_physics *world, ear_body_id id, ear_vec3 *out_m);
ear_result ear_body_velocity(const ear_physics *world, ear_body_id id, ear_vec3 *out_mps);
/* The name, borrowed until the body is removed or renamed; NULL for a stale id.
 * Thread: game. */
const char *ear_body_name(const ear_physics *world, ear_body_id id);

/* ---- Moving a body directly ------------------------------------------------------------ */

/* Moves the body now by delta, in the step's sub-steps with resolve after each, without
 * touching its velocity. *out_blocked (may be NULL) is true when the mover itself was
 * pushed back against the move (a wall, or a crate that could not be pushed because a
 * third solid is behind it); a crate that gives way does not block. A fixed body or a
 * sensor moves without resolving. Contacts made here are not events (only steps make
 * events); a kinematic body's motion here carries its riders at the next step.
 * EAR_E_STALE_ID, EAR_E_INVALID_ARG (delta not finite). Thread: game. */
ear_result ear_body_move_by(ear_physics *world, ear_body_id id, ear_vec3 delta_m,
                            bool *out_blocked);
/* move_by along the facing (horizontal), or to the right of it (strafe, negative: left).
 * Thread: game. */
ear_result ear_body_move_forward(ear_physics *world, ear_body_id id, float distance_m,
                                 bool *out_blocked);
ear_result ear_body_strafe(ear_physics *world, ear_body_id id, float distance_m,
                           bool *out_blocked);
/* Adds degrees to the facing (positive clockwise), kept in [0, 360). Thread: game. */
ear_result ear_body_turn(ear_physics *world, ear_body_id id, float degrees);

/* The unit vector of a facing and pitch: (sin f cos p, sin p, -cos f cos p).
 * Thread: any. */
ear_vec3 ear_forward_from_facing(float facing_deg, float pitch_deg);
/* The horizontal unit vector to the right of a facing: (cos f, 0, sin f). Thread: any. */
ear_vec3 ear_right_from_facing(float facing_deg);

/* ---- Contacts (pure) ----------------------------------------------------------------------
 */

/* How to push a out of b: *out_normal (unit, from b towards a) times *out_depth_m (> 0).
 * Box-box: the axis of smallest overlap; sphere-sphere: along the centres (+Y when they
 * coincide); sphere-box: from the closest point of the box, through the nearest face when
 * the centre is inside; box-sphere: the opposite of sphere-box. Touching (zero overlap)
 * is no overlap. Returns false (outputs untouched) when they do not overlap.
 * Thread: any. */
bool ear_collider_penetration(const ear_collider *a, const ear_collider *b,
                              ear_vec3 *out_normal, float *out_depth_m);

/* The same for two bodies of the world (false for stale ids). Thread: game. */
bool ear_body_penetration(const ear_physics *world, ear_body_id a, ear_body_id b,
                          ear_vec3 *out_normal, float *out_depth_m);

/* ---- Stepping
 * -------------------------------------------------------------------------------- */

/* Advances the world by dt_s (the runner passes 1 / step_hz). Does not clear events.
 * EAR_E_INVALID_ARG for dt not finite or <= 0, or dt > 1 s. After the first steps with a
 * given set of bodies (warm-up), a step allocates nothing. Thread: game. */
ear_result ear_physics_step(ear_physics *world, float dt_s);

/* Steps taken and simulated seconds since creation or clear. Thread: game. */
uint64_t ear_physics_steps(const ear_physics *world);
double ear_physics_time_s(const ear_physics *world);

/* The work stepping has cost since creation or clear, in units a budget can count before
 * the time is spent: one per body each step walks and one per collider test a step makes
 * (a crowd of n touching bodies costs about n * n a step, a spread-out world about n).
 * ear_physics_last_step_work is the last step's share (0 before any step). The counts
 * depend only on the world, never on the machine. Thread: game. */
uint64_t ear_physics_work(const ear_physics *world);
uint64_t ear_physics_last_step_work(const ear_physics *world);
/* What the next step will cost, at the least, in the units of ear_physics_work: its
 * bodies and, for each moving one, the bodies near enough to be tested; the last step's
 * work when that was more. Counting stops once it passes `limit` (the answer is then some
 * number above limit), so the estimate costs at most about limit box checks. Changes no
 * simulated state (it may build the broad phase's grid, as a ray does). Thread: game. */
uint64_t ear_physics_estimate_step_work(ear_physics *world, uint64_t limit);

/* A hash (FNV-1a, 64 bits) of the whole simulated state in id order: each body's id,
 * kind, shape, position, velocity, force, facing, pitch, on_ground, ground, user tag, and
 * a vehicle's controls and state. Equal hashes: the same world. Thread: game. */
uint64_t ear_physics_hash(const ear_physics *world);

/* ---- Events ---------------------------------------------------------------------------------
 */

typedef enum ear_physics_event_type {
    /* body came down onto other (its new ground) from the air; speed: the impact speed. */
    EAR_PHYS_LANDED = 1,
    /* body and other began touching and closed at speed (> 0.01 m/s); normal: from
     * other towards body; point: the contact point; body is the one that moved into it
     * (the earlier in id order when both moved). Each pair is reported once. */
    EAR_PHYS_COLLISION_STARTED,
    /* body and other stopped touching (other may be stale: it was removed). */
    EAR_PHYS_COLLISION_ENDED,
    /* other began to overlap sensor body. */
    EAR_PHYS_ENTERED,
    /* other stopped overlapping sensor body (or was removed). */
    EAR_PHYS_LEFT,
    /* vehicle body changed gear from previous_gear to gear. */
    EAR_PHYS_GEAR_CHANGED,
    /* vehicle body hit other and lost speed (> 0.5 m/s) into normal; point: the contact. */
    EAR_PHYS_CRASHED,
} ear_physics_event_type;

typedef struct ear_physics_event {
    ear_physics_event_type type;
    ear_body_id body;
    ear_body_id other; /* EAR_BODY_NONE for GearChanged */
    float speed_mps;   /* impact speed (Landed, CollisionStarted), lost speed (Crashed) */
    ear_vec3 normal;   /* from other towards body (Landed, CollisionStarted, Crashed) */
    ear_vec3 point_m;  /* contact point (Landed, CollisionStarted, Crashed) */
    uint32_t gear, previous_gear; /* GearChanged */
    uint64_t step; /* ear_physics_steps() during the step that made it (from 0) */
} ear_physics_event;

/* The events since the last clear, in the order they happened; borrowed until the next
 * step or clear. *out_count (may be NULL) receives their number. Thread: game. */
const ear_physics_event *ear_physics_events(const ear_physics *world, size_t *out_count);
size_t ear_physics_event_count(const ear_physics *world);
/* Events that did not fit (max_events) since the last clear. Thread: game. */
size_t ear_physics_events_dropped(const ear_physics *world);
/* Forgets the events (the runner does it once a frame). Thread: game. */
void ear_physics_clear_events(ear_physics *world);
/* A short lower-case name: "landed", "collision_started", "collision_ended", "entered",
 * "left", "gear_changed", "crashed"; "unknown" otherwise. Thread: any. */
const char *ear_physics_event_name(ear_physics_event_type type);

/* ---- Ray casts
 * -------------------------------------------------------------------------------- */

typedef struct ear_ray_hit {
    ear_body_id body;
    float distance_m; /* from `from` along the segment; 0 when `from` is inside */
    ear_vec3 point_m;
    ear_vec3 normal; /* the surface's outward normal (against the ray when inside) */
} ear_ray_hit;

/* Which bodies a ray sees. NULL options: every non-sensor body. */
typedef struct ear_ray_options {
    const ear_body_id *ignore; /* bodies to pass through (borrowed); default NULL */
    size_t ignore_count;
    bool include_sensors; /* default false: sensors are ignored */
} ear_ray_options;

/* The nearest body the segment from -> to touches (slab method for boxes, the quadratic
 * for spheres). *out_found is false (and *out_hit untouched) when nothing is hit.
 * EAR_E_INVALID_ARG for NULL outputs or points not finite. A zero-length segment hits
 * the bodies that contain its point. Thread: game. */
ear_result ear_physics_ray_cast(const ear_physics *world, ear_vec3 from_m, ear_vec3 to_m,
                                const ear_ray_options *options, ear_ray_hit *out_hit,
                                bool *out_found);

/* Every body along the segment, nearest first (ties in id order): writes up to capacity
 * hits (hits may be NULL when capacity is 0) and the total number along the segment to
 * *out_count, so capacity 0 counts them (the audio world's occlusion). Errors as
 * ear_physics_ray_cast. Allocates nothing. Thread: game. */
ear_result ear_physics_ray_cast_all(const ear_physics *world, ear_vec3 from_m, ear_vec3 to_m,
                                    const ear_ray_options *options, ear_ray_hit *hits,
                                    size_t capacity, size_t *out_count);

/* Bodies overlapping a collider (sensors included when include_sensors), in id order:
 * up to capacity ids and the total in *out_count. Thread: game. */
ear_result ear_physics_query_overlaps(const ear_physics *world, const ear_collider *collider,
                                      const ear_ray_options *options, ear_body_id *ids,
                                      size_t capacity, size_t *out_count);

/* ---- Vehicles (bodies with desc.vehicle) ----------------------------------------------------
 */

/* Sets the controls (clamped to their ranges; NaN is EAR_E_INVALID_ARG). EAR_E_STATE for a
 * body that is not a vehicle. Thread: game. */
ear_result ear_vehicle_set_controls(ear_physics *world, ear_body_id id,
                                    const ear_vehicle_controls *controls);
/* Starts or stops the engine (starting with an empty tank: EAR_E_STATE). Thread: game. */
ear_result ear_vehicle_set_engine(ear_physics *world, ear_body_id id, bool on);
/* Refuels to fuel_l (clamped to the capacity). Thread: game. */
ear_result ear_vehicle_set_fuel(ear_physics *world, ear_body_id id, float fuel_l);
/* The read-outs after the last step. EAR_E_STATE for a body that is not a vehicle.
 * Thread: game. */
ear_result ear_vehicle_get_state(const ear_physics *world, ear_body_id id,
                                 ear_vehicle_state *out);
/* True when the body has a vehicle. Thread: game. */
bool ear_body_is_vehicle(const ear_physics *world, ear_body_id id);

#ifdef __cplusplus
}
#endif

#endif /* EARSHOT_PHYSICS_H */
