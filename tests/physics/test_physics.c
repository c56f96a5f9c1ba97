/* SPDX-License-Identifier: Zlib */
/*
 * The physics module measured against its formulas: fall times, resting contact, the
 * bounce impulse, the who-moves table, ray distances, sensors, platforms, vehicles
 * (top speed, braking, hold, fuel, gear bands, crashes), determinism and allocation.
 */
#include "earshot/physics.h"
#include "test.h"

#define G    9.81
#define DT   (1.0f / 60.0f)
#define PI_D 3.14159265358979323846

static ear_physics *world_new(void) {
    ear_physics *w = NULL;
    if (ear_physics_create(NULL, &w) != EAR_OK) return NULL;
    return w;
}

static ear_body_id add_box(ear_physics *w, ear_body_kind kind, ear_vec3 pos, ear_vec3 half) {
    ear_body_desc d = ear_body_desc_default();
    d.kind = kind;
    d.position_m = pos;
    d.half_extents_m = half;
    ear_body_id id = EAR_BODY_NONE;
    ear_physics_add_body(w, &d, &id);
    return id;
}

static ear_body_id add_sphere(ear_physics *w, ear_body_kind kind, ear_vec3 pos, float r) {
    ear_body_desc d = ear_body_desc_default();
    d.kind = kind;
    d.shape = EAR_SHAPE_SPHERE;
    d.radius_m = r;
    d.position_m = pos;
    ear_body_id id = EAR_BODY_NONE;
    ear_physics_add_body(w, &d, &id);
    return id;
}

static ear_physics *open_world_e(void) {
    ear_physics_config c = ear_physics_config_default();
    c.gravity_mps2 = ear_vec3_make(0, 0, 0);
    ear_physics *w = NULL;
    ear_physics_create(&c, &w);
    return w;
}

static ear_body_id add_floor(ear_physics *w) {
    return add_box(w, EAR_BODY_FIXED, ear_vec3_make(0, -0.5f, 0), ear_vec3_make(50, 0.5f, 50));
}

static size_t count_events(ear_physics *w, ear_physics_event_type type, ear_body_id body) {
    size_t n, k = 0;
    const ear_physics_event *e = ear_physics_events(w, &n);
    for (size_t i = 0; i < n; i++)
        if (e[i].type == type && (body == EAR_BODY_NONE || e[i].body == body)) k++;
    return k;
}

static const ear_physics_event *find_event(ear_physics *w, ear_physics_event_type type,
                                           ear_body_id body) {
    size_t n;
    const ear_physics_event *e = ear_physics_events(w, &n);
    for (size_t i = 0; i < n; i++)
        if (e[i].type == type && (body == EAR_BODY_NONE || e[i].body == body)) return &e[i];
    return NULL;
}

static ear_vec3 pos_of(ear_physics *w, ear_body_id id) {
    ear_vec3 p = {NAN, NAN, NAN};
    ear_body_position(w, id, &p);
    return p;
}

static ear_vec3 vel_of(ear_physics *w, ear_body_id id) {
    ear_vec3 v = {NAN, NAN, NAN};
    ear_body_velocity(w, id, &v);
    return v;
}

/* ---- Bodies ------------------------------------------------------------------------------ */

TEST(ids_order_and_stale_ids) {
    ear_physics *w = world_new();
    ASSERT_NOT_NULL(w);
    ear_body_id ids[5];
    for (int i = 0; i < 5; i++) {
        ids[i] = add_box(w, EAR_BODY_FIXED, ear_vec3_make((float)i * 3, 0, 0),
                         ear_vec3_make(1, 1, 1));
        ASSERT_NE(ids[i], EAR_BODY_NONE);
    }
    ASSERT_OK(ear_body_set_name(w, ids[3], "door"));
    ASSERT_OK(ear_physics_remove_body(w, ids[1]));
    ASSERT_EQ(ear_physics_remove_body(w, ids[1]), EAR_E_STALE_ID);
    ASSERT_FALSE(ear_body_exists(w, ids[1]));
    ear_body_info info;
    ASSERT_EQ(ear_body_get(w, ids[1], &info), EAR_E_STALE_ID);
    ASSERT_EQ(ear_body_set_position(w, ids[1], ear_vec3_make(0, 0, 0)), EAR_E_STALE_ID);
    ASSERT_EQ(ear_body_get(w, EAR_BODY_NONE, &info), EAR_E_INVALID_ARG);
    ASSERT_NULL(ear_body_name(w, ids[1]));
    /* The new body takes the freed slot but a new generation, and comes last. */
    ear_body_id n = add_box(w, EAR_BODY_FIXED, ear_vec3_make(20, 0, 0), ear_vec3_make(1, 1, 1));
    ASSERT_NE(n, ids[1]);
    ASSERT_EQ(n & 0xffffffffu, ids[1] & 0xffffffffu);
    ASSERT_FALSE(ear_body_exists(w, ids[1]));
    ASSERT_EQ(ear_physics_body_count(w), 5);
    ear_body_id want[5] = {ids[0], ids[2], ids[3], ids[4], n};
    for (size_t i = 0; i < 5; i++) ASSERT_U64_EQ(ear_physics_body_at(w, i), want[i]);
    ASSERT_U64_EQ(ear_physics_body_at(w, 5), EAR_BODY_NONE);
    ASSERT_U64_EQ(ear_physics_find(w, "door"), ids[3]);
    ASSERT_OK(ear_body_get(w, ids[3], &info));
    ASSERT_EQ(info.index, 2);
    ASSERT_STR_EQ(info.desc.name, "door");
    ASSERT_NEAR(info.desc.position_m.x, 9, 0);
    ear_physics_destroy(w);
}

TEST(bad_descriptions_change_nothing) {
    ear_physics *w = world_new();
    ear_body_id id = EAR_BODY_NONE;
    ear_body_desc d = ear_body_desc_default();
    d.mass_kg = -1;
    ASSERT_EQ(ear_physics_add_body(w, &d, &id), EAR_E_INVALID_ARG);
    d = ear_body_desc_default();
    d.position_m.y = NAN;
    ASSERT_EQ(ear_physics_add_body(w, &d, &id), EAR_E_INVALID_ARG);
    d = ear_body_desc_default();
    d.half_extents_m.z = 0;
    ASSERT_EQ(ear_physics_add_body(w, &d, &id), EAR_E_INVALID_ARG);
    d = ear_body_desc_default();
    d.shape = EAR_SHAPE_SPHERE;
    d.radius_m = 0;
    ASSERT_EQ(ear_physics_add_body(w, &d, &id), EAR_E_INVALID_ARG);
    d = ear_body_desc_default();
    d.bounciness = 1.5f;
    ASSERT_EQ(ear_physics_add_body(w, &d, &id), EAR_E_INVALID_ARG);
    ear_vehicle_config vc = ear_vehicle_config_default();
    vc.gears = 0;
    d = ear_body_desc_default();
    d.vehicle = &vc;
    ASSERT_EQ(ear_physics_add_body(w, &d, &id), EAR_E_INVALID_ARG);
    ASSERT_U64_EQ(id, EAR_BODY_NONE);
    ASSERT_EQ(ear_physics_body_count(w), 0);

    d = ear_body_desc_default();
    d.name = "crate";
    ASSERT_OK(ear_physics_add_body(w, &d, &id));
    uint64_t h = ear_physics_hash(w);
    d.mass_kg = 0;
    ASSERT_EQ(ear_body_set(w, id, &d), EAR_E_INVALID_ARG);
    ASSERT_EQ(ear_body_set_velocity(w, id, ear_vec3_make(INFINITY, 0, 0)), EAR_E_INVALID_ARG);
    ASSERT_U64_EQ(ear_physics_hash(w), h);
    ASSERT_EQ(ear_physics_step(w, 0), EAR_E_INVALID_ARG);
    ASSERT_EQ(ear_physics_step(w, NAN), EAR_E_INVALID_ARG);
    ASSERT_EQ(ear_vehicle_set_controls(w, id, &(ear_vehicle_controls){0}), EAR_E_STATE);
    ear_physics_destroy(w);
    ear_physics_destroy(NULL);
}

/* ---- Penetration ------------------------------------------------------------------------- */

static ear_collider box_at(float x, float y, float z, float hx, float hy, float hz) {
    ear_collider c = {EAR_SHAPE_BOX, {x, y, z}, {hx, hy, hz}, 0};
    return c;
}

static ear_collider sphere_at(float x, float y, float z, float r) {
    ear_collider c = {EAR_SHAPE_SPHERE, {x, y, z}, {0, 0, 0}, r};
    return c;
}

TEST(penetration_formulas) {
    ear_vec3 n;
    float d;
    /* Box-box: overlaps 0.5 in x, 1.8 in y, 2 in z: out along +x by 0.5. */
    ear_collider a = box_at(1.5f, 0.2f, 0, 1, 1, 1), b = box_at(0, 0, 0, 1, 1, 1);
    ASSERT_TRUE(ear_collider_penetration(&a, &b, &n, &d));
    ASSERT_NEAR(d, 0.5, 1e-6);
    ASSERT_NEAR(n.x, 1, 0);
    ASSERT_NEAR(n.y, 0, 0);
    ASSERT_TRUE(ear_collider_penetration(&b, &a, &n, &d));
    ASSERT_NEAR(n.x, -1, 0);
    /* Touching faces and edges do not overlap. */
    a = box_at(2, 0, 0, 1, 1, 1);
    ASSERT_FALSE(ear_collider_penetration(&a, &b, &n, &d));
    a = box_at(2, 2, 0, 1, 1, 1);
    ASSERT_FALSE(ear_collider_penetration(&a, &b, &n, &d));
    /* Sphere-sphere along the centres: distance 1.5 of radii 1 + 1: depth 0.5. */
    ear_collider s1 = sphere_at(0.9f, 1.2f, 0, 1), s2 = sphere_at(0, 0, 0, 1);
    ASSERT_TRUE(ear_collider_penetration(&s1, &s2, &n, &d));
    ASSERT_NEAR(d, 0.5, 1e-6);
    ASSERT_NEAR(n.x, 0.6, 1e-6);
    ASSERT_NEAR(n.y, 0.8, 1e-6);
    s1 = sphere_at(2, 0, 0, 1);
    ASSERT_FALSE(ear_collider_penetration(&s1, &s2, &n, &d));
    /* Sphere-box from the closest point: a corner at (1, 1, 0), centre 0.3 / 0.4 away. */
    ear_collider s = sphere_at(1.3f, 1.4f, 0, 1);
    ASSERT_TRUE(ear_collider_penetration(&s, &b, &n, &d));
    ASSERT_NEAR(d, 0.5, 1e-6);
    ASSERT_NEAR(n.x, 0.6, 1e-5);
    ASSERT_NEAR(n.y, 0.8, 1e-5);
    /* Box-sphere is the opposite push. */
    ASSERT_TRUE(ear_collider_penetration(&b, &s, &n, &d));
    ASSERT_NEAR(n.x, -0.6, 1e-5);
    /* Centre inside: out through the nearest face (+z is 0.2 away): depth r + 0.2. */
    s = sphere_at(0.1f, -0.3f, 0.8f, 0.5f);
    ASSERT_TRUE(ear_collider_penetration(&s, &b, &n, &d));
    ASSERT_NEAR(n.z, 1, 0);
    ASSERT_NEAR(d, 0.7, 1e-6);
    /* A sphere resting exactly on a face does not overlap. */
    s = sphere_at(0, 1.5f, 0, 0.5f);
    ASSERT_FALSE(ear_collider_penetration(&s, &b, &n, &d));
}

/* ---- Falling, resting, bouncing -------------------------------------------------------- */

TEST(fall_time_and_landed_once) {
    ear_physics *w = world_new();
    add_floor(w);
    const float h = 5.0f, r = 0.25f;
    ear_body_id ball = add_sphere(w, EAR_BODY_DYNAMIC, ear_vec3_make(0, h + r, 0), r);
    int landed_step = -1;
    for (int i = 0; i < 240; i++) {
        ear_physics_clear_events(w);
        ASSERT_OK(ear_physics_step(w, DT));
        size_t n = count_events(w, EAR_PHYS_LANDED, ball);
        if (n) {
            ASSERT_EQ(n, 1);
            ASSERT_EQ(landed_step, -1);
            landed_step = i + 1;
            const ear_physics_event *e = find_event(w, EAR_PHYS_LANDED, ball);
            /* Impact speed: g * t, within one step's worth of gravity. */
            ASSERT_NEAR(e->speed_mps, sqrt(2 * G * h), G * DT * 1.5);
            ASSERT_NEAR(e->normal.y, 1, 1e-6);
            ASSERT_EQ(count_events(w, EAR_PHYS_COLLISION_STARTED, ball), 1);
        }
    }
    double t = sqrt(2 * h / G);
    ASSERT_NEAR(landed_step * (double)DT, t, DT);
    ear_body_info info;
    ASSERT_OK(ear_body_get(w, ball, &info));
    ASSERT_TRUE(info.on_ground);
    ASSERT_NEAR(info.desc.position_m.y, r, 1e-3);
    ear_physics_destroy(w);
}

TEST(resting_bodies_stay_on_ground_10_s) {
    ear_physics *w = world_new();
    ear_body_id floor = add_floor(w);
    ear_body_id box = add_box(w, EAR_BODY_DYNAMIC, ear_vec3_make(1, 0.5f, 2),
                              ear_vec3_make(0.5f, 0.5f, 0.5f));
    ear_body_id top = add_box(w, EAR_BODY_DYNAMIC, ear_vec3_make(1, 1.4f, 2),
                              ear_vec3_make(0.4f, 0.4f, 0.4f));
    ear_body_id ball = add_sphere(w, EAR_BODY_DYNAMIC, ear_vec3_make(-3, 0.3f, 0), 0.3f);
    for (int i = 0; i < 30; i++) ear_physics_step(w, DT); /* settle */
    ear_vec3 p0 = pos_of(w, box), p1 = pos_of(w, top), p2 = pos_of(w, ball);
    ear_physics_clear_events(w);
    for (int i = 0; i < 600; i++) {
        ASSERT_OK(ear_physics_step(w, DT));
        ear_body_info a, b, c;
        ear_body_get(w, box, &a);
        ear_body_get(w, top, &b);
        ear_body_get(w, ball, &c);
        ASSERT_TRUE(a.on_ground && b.on_ground && c.on_ground);
        ASSERT_U64_EQ(a.ground, floor);
        ASSERT_U64_EQ(b.ground, box);
    }
    ear_vec3 q0 = pos_of(w, box), q1 = pos_of(w, top), q2 = pos_of(w, ball);
    ASSERT_NEAR(q0.y, p0.y, 1e-4);
    ASSERT_NEAR(q1.y, p1.y, 1e-4);
    ASSERT_NEAR(q2.y, p2.y, 1e-4);
    ASSERT_NEAR(q0.x, p0.x, 0);
    ASSERT_NEAR(q1.z, p1.z, 0);
    /* Resting sinks by g dt^2 a step at most. */
    ASSERT_NEAR(q0.y, 0.5, G * DT * DT);
    ASSERT_EQ(ear_physics_event_count(w), 0);
    ear_physics_destroy(w);
}

TEST(bounce_impulse_conserves_momentum) {
    ear_physics_config c = ear_physics_config_default();
    c.gravity_mps2 = ear_vec3_make(0, 0, 0);
    ear_physics *w = NULL;
    ASSERT_OK(ear_physics_create(&c, &w));
    ear_body_desc d = ear_body_desc_default();
    d.shape = EAR_SHAPE_SPHERE;
    d.radius_m = 0.5f;
    d.mass_kg = 1;
    d.bounciness = 0.5f;
    d.position_m = ear_vec3_make(0, 0, 0);
    d.velocity_mps = ear_vec3_make(3, 0, 0);
    ear_body_id a, b;
    ASSERT_OK(ear_physics_add_body(w, &d, &a));
    d.mass_kg = 3;
    d.bounciness = 0.25f;
    d.position_m = ear_vec3_make(1.2f, 0, 0);
    d.velocity_mps = ear_vec3_make(-1, 0, 0);
    ASSERT_OK(ear_physics_add_body(w, &d, &b));
    const double p_before = 1 * 3.0 + 3 * -1.0, rel_before = -1.0 - 3.0;
    int hit = -1;
    for (int i = 0; i < 30 && hit < 0; i++) {
        ASSERT_OK(ear_physics_step(w, DT));
        if (count_events(w, EAR_PHYS_COLLISION_STARTED, EAR_BODY_NONE)) hit = i;
    }
    ASSERT_GE(hit, 0);
    const ear_physics_event *e = find_event(w, EAR_PHYS_COLLISION_STARTED, EAR_BODY_NONE);
    ASSERT_NEAR(e->speed_mps, 4, 1e-5);
    ear_vec3 va = vel_of(w, a), vb = vel_of(w, b);
    ASSERT_NEAR(1 * va.x + 3 * vb.x, p_before, 1e-5);
    /* e = the larger bounciness (0.5): relative velocity -e times before. */
    ASSERT_NEAR(vb.x - va.x, -0.5 * rel_before, 1e-5);
    ASSERT_NEAR(va.y, 0, 1e-7);
    ear_physics_destroy(w);
}

TEST(bounce_off_a_wall_reflects_by_e) {
    ear_physics *w = world_new();
    add_floor(w);
    ear_body_desc d = ear_body_desc_default();
    d.shape = EAR_SHAPE_SPHERE;
    d.radius_m = 0.2f;
    d.bounciness = 0.8f;
    d.position_m = ear_vec3_make(0, 2.2f, 0);
    ear_body_id ball;
    ASSERT_OK(ear_physics_add_body(w, &d, &ball));
    for (int i = 0; i < 120; i++) {
        ear_physics_clear_events(w);
        ASSERT_OK(ear_physics_step(w, DT));
        const ear_physics_event *e = find_event(w, EAR_PHYS_LANDED, ball);
        if (e) {
            ear_vec3 v = vel_of(w, ball);
            ASSERT_NEAR(v.y, 0.8 * e->speed_mps, 1e-5);
            ear_physics_destroy(w);
            return;
        }
    }
    ASSERT_TRUE(false);
}

TEST(collision_started_then_ended_once) {
    ear_physics *w = open_world_e();
    ear_body_desc d = ear_body_desc_default();
    d.shape = EAR_SHAPE_SPHERE;
    d.radius_m = 0.5f;
    d.bounciness = 1;
    d.velocity_mps = ear_vec3_make(2, 0, 0);
    ear_body_id a, b;
    ASSERT_OK(ear_physics_add_body(w, &d, &a));
    d.position_m = ear_vec3_make(2, 0, 0);
    d.velocity_mps = ear_vec3_make(0, 0, 0);
    ASSERT_OK(ear_physics_add_body(w, &d, &b));
    double between = 0;
    for (int i = 0; i < 120; i++) {
        ASSERT_OK(ear_physics_step(w, DT));
        const ear_physics_event *e = find_event(w, EAR_PHYS_COLLISION_STARTED, EAR_BODY_NONE);
        if (e && e->step == (uint64_t)i) {
            /* The contact point lies on the line between the centres, between them. */
            ASSERT_DBL_GT(e->point_m.x, pos_of(w, a).x);
            ASSERT_DBL_LT(e->point_m.x, pos_of(w, b).x);
            ASSERT_NEAR(e->point_m.y, 0, 1e-6);
            ASSERT_NEAR(e->speed_mps, 2, 1e-5);
            between = 1;
        }
    }
    ASSERT_NEAR(between, 1, 0);
    ASSERT_EQ(count_events(w, EAR_PHYS_COLLISION_STARTED, EAR_BODY_NONE), 1);
    ASSERT_EQ(count_events(w, EAR_PHYS_COLLISION_ENDED, EAR_BODY_NONE), 1);
    const ear_physics_event *s1 = find_event(w, EAR_PHYS_COLLISION_STARTED, EAR_BODY_NONE);
    const ear_physics_event *e1 = find_event(w, EAR_PHYS_COLLISION_ENDED, EAR_BODY_NONE);
    ASSERT_U64_EQ(s1->body, a);
    ASSERT_U64_EQ(s1->other, b);
    ASSERT_NEAR(s1->normal.x, -1, 1e-6);
    ASSERT_GT(e1->step, s1->step);
    /* e = 1, equal masses: the velocities swap. */
    ASSERT_NEAR(vel_of(w, a).x, 0, 1e-5);
    ASSERT_NEAR(vel_of(w, b).x, 2, 1e-5);
    ear_physics_destroy(w);
}

/* ---- Who moves ------------------------------------------------------------------------------
 */

TEST(kinematic_shoves_crate_fully) {
    ear_physics *w = world_new();
    add_floor(w);
    ear_body_id player = add_box(w, EAR_BODY_KINEMATIC, ear_vec3_make(0, 0.5f, 0),
                                 ear_vec3_make(0.3f, 0.5f, 0.3f));
    ear_body_id crate = add_box(w, EAR_BODY_DYNAMIC, ear_vec3_make(1, 0.5f, 0),
                                ear_vec3_make(0.5f, 0.5f, 0.5f));
    for (int i = 0; i < 10; i++) ear_physics_step(w, DT);
    ear_vec3 c0 = pos_of(w, crate);
    /* The gap is 1 - 0.3 - 0.5 = 0.2 m; moving 0.5 m shoves the crate 0.3 m. */
    bool blocked = true;
    ASSERT_OK(ear_body_move_by(w, player, ear_vec3_make(0.5f, 0, 0), &blocked));
    ASSERT_FALSE(blocked);
    ASSERT_NEAR(pos_of(w, player).x, 0.5, 1e-6);
    ASSERT_NEAR(pos_of(w, crate).x - c0.x, 0.3, 1e-5);
    ASSERT_NEAR(pos_of(w, crate).y, c0.y, 1e-6);
    ear_physics_destroy(w);
}

TEST(crate_against_wall_blocks_the_mover) {
    ear_physics *w = world_new();
    add_floor(w);
    add_box(w, EAR_BODY_FIXED, ear_vec3_make(2, 1, 0),
            ear_vec3_make(0.5f, 1, 2)); /* wall at x 1.5 */
    ear_body_id crate = add_box(w, EAR_BODY_DYNAMIC, ear_vec3_make(1, 0.5f, 0),
                                ear_vec3_make(0.5f, 0.5f, 0.5f));
    ear_body_id player = add_box(w, EAR_BODY_KINEMATIC, ear_vec3_make(0, 0.5f, 0),
                                 ear_vec3_make(0.3f, 0.5f, 0.3f));
    for (int i = 0; i < 10; i++) ear_physics_step(w, DT);
    ear_vec3 c0 = pos_of(w, crate);
    bool blocked = false;
    ASSERT_OK(ear_body_move_by(w, player, ear_vec3_make(0.5f, 0, 0), &blocked));
    ASSERT_TRUE(blocked);
    /* The player stops at the crate's face (x = 0.5 - 0.3 = 0.2); the crate stays. */
    ASSERT_NEAR(pos_of(w, player).x, 0.2, 1e-5);
    ASSERT_NEAR(pos_of(w, crate).x, c0.x, 1e-6);
    /* Walking into the wall directly is blocked too; sideways is not. */
    ASSERT_OK(ear_body_move_by(w, player, ear_vec3_make(0, 0, 0.2f), &blocked));
    ASSERT_FALSE(blocked);
    ear_physics_destroy(w);
}

TEST(dynamic_overlap_shared_by_mass) {
    ear_physics_config c = ear_physics_config_default();
    c.gravity_mps2 = ear_vec3_make(0, 0, 0);
    ear_physics *w = NULL;
    ASSERT_OK(ear_physics_create(&c, &w));
    ear_body_desc d = ear_body_desc_default();
    d.mass_kg = 1;
    d.position_m = ear_vec3_make(0, 0, 0);
    ear_body_id a, b;
    ASSERT_OK(ear_physics_add_body(w, &d, &a));
    d.mass_kg = 3;
    d.position_m = ear_vec3_make(0.8f, 0, 0); /* overlap 0.2 m in x */
    ASSERT_OK(ear_physics_add_body(w, &d, &b));
    ASSERT_OK(ear_physics_step(w, DT));
    /* a moves 3/4 of the overlap, b 1/4. */
    ASSERT_NEAR(pos_of(w, a).x, -0.15, 1e-6);
    ASSERT_NEAR(pos_of(w, b).x, 0.85, 1e-6);
    ear_vec3 n;
    float depth;
    ASSERT_FALSE(ear_body_penetration(w, a, b, &n, &depth));
    ear_physics_destroy(w);
}

/* ---- Ray casts ------------------------------------------------------------------------------
 */

TEST(ray_distances_from_many_angles) {
    ear_physics *w = world_new();
    ear_body_id box =
        add_box(w, EAR_BODY_FIXED, ear_vec3_make(0, 0, 0), ear_vec3_make(1, 2, 0.5f));
    ear_body_id ball = add_sphere(w, EAR_BODY_FIXED, ear_vec3_make(20, 0, 0), 1.5f);
    for (int i = 0; i < 64; i++) {
        double th = PI_D * (i + 0.5) / 64.0;
        for (int j = 0; j < 16; j++) {
            double ph = 2 * PI_D * j / 16.0;
            ear_vec3 dir = {(float)(sin(th) * cos(ph)), (float)cos(th),
                            (float)(sin(th) * sin(ph))};
            /* Box: the surface along dir is at min over axes of half_k / |dir_k|. */
            double hx = 1 / fabs(dir.x), hy = 2 / fabs(dir.y), hz = 0.5 / fabs(dir.z);
            double s = hx < hy ? (hx < hz ? hx : hz) : (hy < hz ? hy : hz);
            ear_vec3 from = ear_vec3_scale(dir, 10);
            ear_ray_hit hit;
            bool found;
            ASSERT_OK(
                ear_physics_ray_cast(w, from, ear_vec3_make(0, 0, 0), NULL, &hit, &found));
            ASSERT_TRUE(found);
            ASSERT_U64_EQ(hit.body, box);
            ASSERT_NEAR(hit.distance_m, 10 - s, 2e-5);
            ASSERT_NEAR(ear_vec3_dot(hit.normal, dir),
                        s == hx   ? fabs(dir.x)
                        : s == hy ? fabs(dir.y)
                                  : fabs(dir.z),
                        1e-5);
            /* Sphere: 10 - r from every direction. */
            ear_vec3 c = {20, 0, 0};
            ASSERT_OK(ear_physics_ray_cast(w, ear_vec3_add(c, from), c, NULL, &hit, &found));
            ASSERT_TRUE(found);
            ASSERT_U64_EQ(hit.body, ball);
            ASSERT_NEAR(hit.distance_m, 8.5, 2e-5);
            ASSERT_NEAR(ear_vec3_dot(hit.normal, dir), 1, 1e-5);
        }
    }
    /* A miss, a segment that stops short, a start inside. */
    ear_ray_hit hit;
    bool found = true;
    ASSERT_OK(ear_physics_ray_cast(w, ear_vec3_make(-5, 3, 0), ear_vec3_make(5, 3, 0), NULL,
                                   &hit, &found));
    ASSERT_FALSE(found);
    ASSERT_OK(ear_physics_ray_cast(w, ear_vec3_make(-5, 0, 0), ear_vec3_make(-1.5f, 0, 0), NULL,
                                   &hit, &found));
    ASSERT_FALSE(found);
    ASSERT_OK(ear_physics_ray_cast(w, ear_vec3_make(0.5f, 0, 0), ear_vec3_make(5, 0, 0), NULL,
                                   &hit, &found));
    ASSERT_TRUE(found);
    ASSERT_NEAR(hit.distance_m, 0, 0);
    ASSERT_EQ(ear_physics_ray_cast(w, ear_vec3_make(NAN, 0, 0), ear_vec3_make(5, 0, 0), NULL,
                                   &hit, &found),
              EAR_E_INVALID_ARG);
    ear_physics_destroy(w);
}

TEST(ray_all_along_segment_and_sensors_ignored) {
    ear_physics *w = world_new();
    ear_body_id walls[4];
    for (int i = 0; i < 4; i++)
        walls[i] = add_box(w, EAR_BODY_FIXED, ear_vec3_make((float)(3 - i) * 4, 0, 0),
                           ear_vec3_make(0.5f, 2, 2));
    ear_body_desc d = ear_body_desc_default();
    d.kind = EAR_BODY_FIXED;
    d.sensor = true;
    d.position_m = ear_vec3_make(6, 0, 0);
    ear_body_id sensor;
    ASSERT_OK(ear_physics_add_body(w, &d, &sensor));
    size_t count = 0;
    ASSERT_OK(ear_physics_ray_cast_all(w, ear_vec3_make(-2, 0, 0), ear_vec3_make(20, 0, 0),
                                       NULL, NULL, 0, &count));
    ASSERT_EQ(count, 4);
    ear_ray_hit hits[2];
    ASSERT_OK(ear_physics_ray_cast_all(w, ear_vec3_make(-2, 0, 0), ear_vec3_make(20, 0, 0),
                                       NULL, hits, 2, &count));
    ASSERT_EQ(count, 4);
    ASSERT_U64_EQ(hits[0].body, walls[3]); /* x = 0 */
    ASSERT_NEAR(hits[0].distance_m, 1.5, 1e-6);
    ASSERT_U64_EQ(hits[1].body, walls[2]); /* x = 4 */
    ASSERT_NEAR(hits[1].distance_m, 5.5, 1e-6);
    ear_ray_options opt = {walls + 3, 1, true};
    ASSERT_OK(ear_physics_ray_cast_all(w, ear_vec3_make(-2, 0, 0), ear_vec3_make(20, 0, 0),
                                       &opt, hits, 2, &count));
    ASSERT_EQ(count, 4); /* three walls and the sensor */
    ASSERT_U64_EQ(hits[0].body, walls[2]);
    ASSERT_U64_EQ(hits[1].body, sensor);
    /* Segment stopping in the second wall counts two. */
    ASSERT_OK(ear_physics_ray_cast_all(w, ear_vec3_make(-2, 0, 0), ear_vec3_make(4, 0, 0), NULL,
                                       NULL, 0, &count));
    ASSERT_EQ(count, 2);
    ear_physics_destroy(w);
}

/* ---- Sensors and platforms -------------------------------------------------------------- */

TEST(sensors_enter_and_leave_once) {
    ear_physics *w = world_new();
    ear_body_desc d = ear_body_desc_default();
    d.kind = EAR_BODY_FIXED;
    d.sensor = true;
    d.half_extents_m = ear_vec3_make(1, 1, 1);
    d.position_m = ear_vec3_make(5, 0, 0);
    ear_body_id zone;
    ASSERT_OK(ear_physics_add_body(w, &d, &zone));
    d = ear_body_desc_default();
    d.kind = EAR_BODY_KINEMATIC;
    d.half_extents_m = ear_vec3_make(0.25f, 0.25f, 0.25f);
    d.velocity_mps = ear_vec3_make(3, 0, 0);
    ear_body_id walker;
    ASSERT_OK(ear_physics_add_body(w, &d, &walker));
    int entered = -1, left = -1;
    for (int i = 0; i < 240; i++) {
        ear_physics_clear_events(w);
        ASSERT_OK(ear_physics_step(w, DT));
        size_t ne = count_events(w, EAR_PHYS_ENTERED, zone),
               nl = count_events(w, EAR_PHYS_LEFT, zone);
        if (ne) {
            ASSERT_EQ(ne, 1);
            ASSERT_EQ(entered, -1);
            ASSERT_U64_EQ(find_event(w, EAR_PHYS_ENTERED, zone)->other, walker);
            entered = i + 1;
        }
        if (nl) {
            ASSERT_EQ(nl, 1);
            ASSERT_EQ(left, -1);
            left = i + 1;
        }
    }
    /* Enters once x + 0.25 > 4 (t > 3.75 / 3), leaves once x - 0.25 >= 6 (t >= 6.25 / 3). */
    ASSERT_EQ(entered, (int)floor(3.75 / 3 * 60) + 1);
    ASSERT_NEAR(left * (double)DT, 6.25 / 3, DT);
    /* Removing a body inside a sensor gives Left with its stale id. */
    ASSERT_OK(ear_body_set_position(w, walker, ear_vec3_make(5, 0, 0)));
    ear_physics_step(w, DT);
    ear_physics_clear_events(w);
    ASSERT_OK(ear_physics_remove_body(w, walker));
    ear_physics_step(w, DT);
    ASSERT_EQ(count_events(w, EAR_PHYS_LEFT, zone), 1);
    ASSERT_U64_EQ(find_event(w, EAR_PHYS_LEFT, zone)->other, walker);
    ear_physics_destroy(w);
}

TEST(platforms_carry_riders) {
    ear_physics *w = world_new();
    ear_body_id plat =
        add_box(w, EAR_BODY_KINEMATIC, ear_vec3_make(0, 0, 0), ear_vec3_make(2, 0.25f, 2));
    ear_body_id crate = add_box(w, EAR_BODY_DYNAMIC, ear_vec3_make(0, 0.75f, 0),
                                ear_vec3_make(0.5f, 0.5f, 0.5f));
    for (int i = 0; i < 10; i++) ear_physics_step(w, DT);
    ear_vec3 c0 = pos_of(w, crate);
    ASSERT_OK(ear_body_set_velocity(w, plat, ear_vec3_make(1.2f, 0.5f, 0)));
    for (int i = 0; i < 60; i++) ear_physics_step(w, DT);
    ear_vec3 c1 = pos_of(w, crate);
    /* One second: carried 1.2 m sideways and lifted 0.5 m, within a step of motion. */
    ASSERT_NEAR(c1.x - c0.x, 1.2, 1.2 * DT + 1e-4);
    ASSERT_NEAR(c1.y - c0.y, 0.5, 0.5 * DT + G * DT * DT);
    ear_body_info info;
    ear_body_get(w, crate, &info);
    ASSERT_TRUE(info.on_ground);
    ASSERT_U64_EQ(info.ground, plat);
    ear_physics_destroy(w);
}

TEST(friction_stops_a_sliding_crate) {
    ear_physics *w = world_new();
    add_floor(w);
    ear_body_desc d = ear_body_desc_default();
    d.position_m = ear_vec3_make(0, 0.5f, 0);
    d.friction = 0.4f;
    ear_body_id crate;
    ASSERT_OK(ear_physics_add_body(w, &d, &crate));
    for (int i = 0; i < 5; i++) ear_physics_step(w, DT);
    ASSERT_OK(ear_body_set_velocity(w, crate, ear_vec3_make(4, 0, 0)));
    float x0 = pos_of(w, crate).x;
    for (int i = 0; i < 180; i++) ear_physics_step(w, DT);
    /* v^2 / (2 mu g) = 16 / 7.848 = 2.039 m, within a step's travel. */
    ASSERT_NEAR(pos_of(w, crate).x - x0, 16 / (2 * 0.4 * G), 4 * DT);
    ASSERT_NEAR(vel_of(w, crate).x, 0, 0);
    ear_physics_destroy(w);
}

/* ---- Vehicles
 * -------------------------------------------------------------------------------- */

static ear_body_id add_car(ear_physics *w, const ear_vehicle_config *vc, float mass,
                           ear_vec3 pos) {
    ear_body_desc d = ear_body_desc_default();
    d.name = "car";
    d.mass_kg = mass;
    d.half_extents_m = ear_vec3_make(0.9f, 0.7f, 2.2f);
    d.position_m = pos;
    d.vehicle = vc;
    ear_body_id id = EAR_BODY_NONE;
    ear_physics_add_body(w, &d, &id);
    return id;
}

static ear_physics *open_world(void) {
    ear_physics_config c = ear_physics_config_default();
    c.gravity_mps2 = ear_vec3_make(0, 0, 0);
    ear_physics *w = NULL;
    ear_physics_create(&c, &w);
    return w;
}

static ear_vehicle_state state_of(ear_physics *w, ear_body_id car) {
    ear_vehicle_state s;
    memset(&s, 0, sizeof s);
    ear_vehicle_get_state(w, car, &s);
    return s;
}

TEST(vehicle_reaches_and_holds_top_speed) {
    ear_physics *w = open_world();
    ear_vehicle_config vc = ear_vehicle_config_default();
    vc.consumption_l_per_100km = 0;
    ear_body_id car = add_car(w, &vc, 1000, ear_vec3_make(0, 0, 0));
    ASSERT_TRUE(ear_body_is_vehicle(w, car));
    ear_body_info info;
    ear_body_get(w, car, &info);
    ASSERT_EQ(info.desc.kind, EAR_BODY_KINEMATIC);
    ASSERT_OK(ear_vehicle_set_controls(w, car, &(ear_vehicle_controls){.gas = 1}));
    ASSERT_OK(ear_physics_step(w, DT));
    /* First step: a = 6000 / 1000 = 6 m/s^2 (under the grip), less rolling resistance. */
    ASSERT_NEAR(state_of(w, car).speed_mps, (6.0 - 0.15) * DT, 1e-6);
    for (int i = 0; i < 60 * 60; i++) ear_physics_step(w, DT);
    /* Equilibrium: engine * (1 - (v/top)^2) / weight = rolling. */
    double v_eq = 50 * sqrt(1 - 0.15 * 1000 / 6000.0);
    ear_vehicle_state s = state_of(w, car);
    ASSERT_NEAR(s.speed_mps, v_eq, 0.01);
    for (int i = 0; i < 600; i++) ear_physics_step(w, DT);
    ASSERT_NEAR(state_of(w, car).speed_mps, v_eq, 0.01);
    /* It drove north (facing 0 = -Z) and velocity says so. */
    ear_vec3 v = vel_of(w, car);
    ASSERT_NEAR(v.z, -v_eq, 0.01);
    ASSERT_NEAR(v.x, 0, 1e-4);
    ASSERT_EQ(state_of(w, car).gear, 5);
    ASSERT_NEAR(state_of(w, car).rpm, 800 + 5200 * v_eq / 50, 1);
    ASSERT_EQ(ear_vehicle_get_state(w, car, &(ear_vehicle_state){0}), EAR_OK);
    /* A heavier grip limit: with mass 100 kg, 60 m/s^2 is clamped to grip 8. */
    ear_body_id light = add_car(w, &vc, 100, ear_vec3_make(50, 0, 0));
    ear_vehicle_set_controls(w, light, &(ear_vehicle_controls){.gas = 1});
    ear_physics_step(w, DT);
    ASSERT_NEAR(state_of(w, light).speed_mps, (8.0 - 0.15) * DT, 1e-6);
    /* Revving from standing: rpm at least idle + 30 % of the range times the pedal, above
     * the speed's idle + 5200 * v / 10. */
    ASSERT_NEAR(state_of(w, light).rpm, 800 + 5200 * 0.3, 1e-2);
    ASSERT_NEAR(state_of(w, light).load, 1, 0);
    ear_physics_destroy(w);
}

TEST(vehicle_brakes_to_a_stop_holds_and_reverses_after_release) {
    ear_physics *w = open_world();
    ear_vehicle_config vc = ear_vehicle_config_default();
    ear_body_id car = add_car(w, &vc, 1000, ear_vec3_make(0, 0, 0));
    ASSERT_OK(ear_body_set_velocity(w, car, ear_vec3_make(0, 0, -20)));
    ASSERT_NEAR(state_of(w, car).speed_mps, 20, 1e-5);
    ASSERT_OK(ear_vehicle_set_controls(w, car, &(ear_vehicle_controls){.brake = 1}));
    /* Braking: min(12000 / 1000, grip 8) + rolling 0.15, and (no pedal drives) engine
     * braking 0.6 + drag 0.3 * 6000 / 1000 * (v / 50)^2: dv/dt = -(a + b v^2), which
     * stops after atan(v0 sqrt(b / a)) / sqrt(a b). */
    double a = 8 + 0.15 + 0.6, bq = 0.3 * 6.0 / 2500.0;
    double t_stop = atan(20 * sqrt(bq / a)) / sqrt(a * bq);
    int stopped = -1;
    for (int i = 0; i < 400; i++) {
        ear_physics_step(w, DT);
        ear_vehicle_state s = state_of(w, car);
        ASSERT_DBL_GE(s.speed_mps, 0);
        if (stopped < 0 && s.speed_mps == 0) stopped = i + 1;
    }
    ASSERT_NEAR(stopped * (double)DT, t_stop, DT);
    ear_vehicle_state s = state_of(w, car);
    ASSERT_TRUE(s.holding);
    ASSERT_NEAR(s.speed_mps, 0, 0);
    /* Released, then pressed again: now the brake pedal reverses. */
    ear_vehicle_set_controls(w, car, &(ear_vehicle_controls){0});
    ear_physics_step(w, DT);
    ASSERT_FALSE(state_of(w, car).holding);
    ear_vehicle_set_controls(w, car, &(ear_vehicle_controls){.brake = 1});
    ear_physics_step(w, DT);
    ASSERT_NEAR(state_of(w, car).speed_mps, -(6.0 - 0.15) * DT, 1e-6);
    for (int i = 0; i < 60; i++) ear_physics_step(w, DT);
    s = state_of(w, car);
    ASSERT_TRUE(s.reversing);
    ASSERT_DBL_LT(s.speed_mps, -3);
    ear_physics_destroy(w);
}

TEST(vehicle_coasting_deceleration) {
    ear_physics *w = open_world();
    ear_vehicle_config vc = ear_vehicle_config_default();
    ear_body_id car = add_car(w, &vc, 1000, ear_vec3_make(0, 0, 0));
    ASSERT_OK(ear_body_set_velocity(w, car, ear_vec3_make(0, 0, -25)));
    ear_physics_step(w, DT);
    /* No pedal: rolling + engine braking + 0.3 * F / W * (v / top)^2 (v after... before). */
    double decel = 0.15 + 0.6 + 0.3 * 6.0 * 0.25;
    ASSERT_NEAR(state_of(w, car).speed_mps, 25 - decel * DT, 1e-5);
    ear_physics_destroy(w);
}

TEST(vehicle_turn_rate) {
    ear_physics *w = open_world();
    ear_vehicle_config vc = ear_vehicle_config_default();
    vc.rolling_resistance_mps2 = 0;
    vc.engine_braking_mps2 = 0;
    ear_body_id car = add_car(w, &vc, 1000, ear_vec3_make(0, 0, 0));
    ASSERT_OK(ear_body_set_velocity(w, car, ear_vec3_make(0, 0, -2)));
    ear_vehicle_set_controls(w, car, &(ear_vehicle_controls){.steer = 0.5f});
    ear_physics_step(w, DT);
    ear_vehicle_state s = state_of(w, car);
    /* |v| / r in degrees: 2 / 5 * 57.2958 = 22.918 deg/s, times steer 0.5. */
    double v = s.speed_mps;
    ASSERT_NEAR(s.turn_rate_dps, v / 5 * 180 / PI_D * 0.5, 1e-3);
    ear_body_info info;
    ear_body_get(w, car, &info);
    ASSERT_NEAR(info.desc.facing_deg, s.turn_rate_dps * DT, 1e-4);
    ASSERT_OK(ear_body_set_velocity(w, car, ear_vec3_make(0, 0, -30)));
    ear_vehicle_set_controls(w, car, &(ear_vehicle_controls){.steer = -1});
    ear_physics_step(w, DT);
    ASSERT_NEAR(state_of(w, car).turn_rate_dps, -90, 1e-4);
    ear_physics_destroy(w);
}

TEST(vehicle_fuel_per_meter) {
    ear_physics *w = open_world();
    ear_vehicle_config vc = ear_vehicle_config_default();
    vc.load_kg = 500;
    vc.consumption_l_per_100km = 8;
    ear_body_id car = add_car(w, &vc, 1000, ear_vec3_make(0, 0, 0));
    ear_vehicle_set_controls(w, car, &(ear_vehicle_controls){.gas = 1});
    for (int i = 0; i < 600; i++) ear_physics_step(w, DT);
    ear_vehicle_state s = state_of(w, car);
    /* Full pedal the whole way: 8 / 100000 l/m * (0.3 + 0.7) * 1500 / 1000. */
    double want = 50 - 8 / 100000.0 * s.odometer_m * 1.5;
    ASSERT_DBL_GT(s.odometer_m, 100);
    ASSERT_NEAR(s.fuel_l, want, 1e-4);
    ear_vec3 p = pos_of(w, car);
    ASSERT_NEAR(-p.z, s.odometer_m, 1e-2);
    /* An almost empty tank runs dry and stops the engine. */
    ASSERT_OK(ear_vehicle_set_fuel(w, car, 0.001f));
    for (int i = 0; i < 60; i++) ear_physics_step(w, DT);
    s = state_of(w, car);
    ASSERT_NEAR(s.fuel_l, 0, 0);
    ASSERT_FALSE(s.engine_on);
    ASSERT_NEAR(s.rpm, 0, 0);
    ASSERT_EQ(ear_vehicle_set_engine(w, car, true), EAR_E_STATE);
    ear_physics_destroy(w);
}

TEST(vehicle_shifts_at_band_edges) {
    ear_physics *w = open_world();
    ear_vehicle_config vc = ear_vehicle_config_default();
    vc.consumption_l_per_100km = 0;
    ear_body_id car = add_car(w, &vc, 1000, ear_vec3_make(0, 0, 0));
    ear_vehicle_set_controls(w, car, &(ear_vehicle_controls){.gas = 1});
    uint32_t ups = 0;
    float last_speed = 0;
    for (int i = 0; i < 60 * 40; i++) {
        ear_physics_clear_events(w);
        ear_physics_step(w, DT);
        float sp = state_of(w, car).speed_mps;
        const ear_physics_event *e = find_event(w, EAR_PHYS_GEAR_CHANGED, car);
        if (e) {
            /* Up from g once the speed passed 95 % of top * g / gears (10 m/s a band). */
            ASSERT_EQ(e->gear, e->previous_gear + 1);
            double edge = 0.95 * 10 * e->previous_gear;
            ASSERT_DBL_GT(sp, edge);
            ASSERT_DBL_LE(last_speed, edge);
            ups++;
        }
        last_speed = sp;
    }
    ASSERT_EQ(ups, 4);
    /* Braking down: from 5 to 4 below 70 % of band 4 (28 m/s), and so on. */
    ear_vehicle_set_controls(w, car, &(ear_vehicle_controls){.brake = 1});
    uint32_t downs = 0;
    for (int i = 0; i < 60 * 10; i++) {
        ear_physics_clear_events(w);
        ear_physics_step(w, DT);
        float sp = state_of(w, car).speed_mps;
        const ear_physics_event *e = find_event(w, EAR_PHYS_GEAR_CHANGED, car);
        if (e) {
            ASSERT_EQ(e->gear + 1, e->previous_gear);
            double edge = 0.7 * 10 * e->gear;
            ASSERT_DBL_LT(sp, edge);
            ASSERT_DBL_GE(last_speed, edge);
            downs++;
        }
        last_speed = sp;
    }
    ASSERT_EQ(downs, 4);
    ASSERT_EQ(state_of(w, car).gear, 1);
    ear_physics_destroy(w);
}

TEST(vehicle_crashes_with_lost_speed_and_slides) {
    ear_physics *w = open_world();
    /* A wall along x at z = -10 (its face at z = -9.5). */
    ear_body_id wall =
        add_box(w, EAR_BODY_FIXED, ear_vec3_make(0, 0, -10), ear_vec3_make(200, 2, 0.5f));
    ear_vehicle_config vc = ear_vehicle_config_default();
    vc.consumption_l_per_100km = 0;
    ear_body_desc d = ear_body_desc_default();
    d.mass_kg = 1000;
    d.half_extents_m = ear_vec3_make(1, 1, 1);
    d.facing_deg = 70; /* a glancing hit: 70 degrees east of north */
    d.vehicle = &vc;
    ear_body_id car;
    ASSERT_OK(ear_physics_add_body(w, &d, &car));
    ASSERT_OK(
        ear_body_set_velocity(w, car, ear_vec3_scale(ear_forward_from_facing(70, 0), 12)));
    ASSERT_OK(ear_vehicle_set_controls(w, car, &(ear_vehicle_controls){.gas = 1}));
    int crashed = 0;
    for (int i = 0; i < 600; i++) {
        ear_physics_clear_events(w);
        ear_physics_step(w, DT);
        const ear_physics_event *e = find_event(w, EAR_PHYS_CRASHED, car);
        if (!e) continue;
        crashed++;
        ASSERT_U64_EQ(e->other, wall);
        ASSERT_NEAR(e->normal.z, 1, 1e-6);
        /* What was lost is the velocity into the wall: speed cos 70, where speed is the
         * speed along the facing (after the slide) over 1 - cos^2 70. */
        double c = cos(70 * PI_D / 180);
        double before = state_of(w, car).speed_mps / (1 - c * c);
        ASSERT_NEAR(e->speed_mps, before * c, 1e-3);
        ASSERT_EQ(count_events(w, EAR_PHYS_COLLISION_STARTED, car), 1);
    }
    ASSERT_EQ(crashed, 1);
    /* It keeps scraping east along the wall, out of it, the gas still down. */
    ear_vec3 p = pos_of(w, car);
    ASSERT_NEAR(p.z, -8.5, 1e-3);
    ASSERT_DBL_GT(p.x, 20);
    ear_vec3 v = vel_of(w, car);
    ASSERT_NEAR(v.z, 0, 1e-3);
    /* Each step the speed along the facing grows by a dt (a = 6 - 0.15 m/s^2, far below
     * top speed) and the slide keeps 1 - cos^2 70 of it: s' = (s' (1 - c^2) + a dt), so
     * s' = a dt / c^2 before the slide and the velocity east is s' sin 70. */
    double c = cos(70 * PI_D / 180);
    double s_pre = 5.85 / 60 / (c * c);
    ASSERT_NEAR(v.x, s_pre * sin(70 * PI_D / 180), 0.01);
    ear_physics_destroy(w);
}

/* ---- Determinism, allocation, the broad phase
 * ------------------------------------------------ */

static ear_physics *busy_world(const ear_allocator *alloc, uint64_t seed) {
    ear_physics_config c = ear_physics_config_default();
    c.allocator = alloc;
    ear_physics *w = NULL;
    if (ear_physics_create(&c, &w) != EAR_OK) return NULL;
    add_floor(w);
    add_box(w, EAR_BODY_FIXED, ear_vec3_make(-10, 1, 0), ear_vec3_make(0.5f, 1, 10));
    add_box(w, EAR_BODY_FIXED, ear_vec3_make(10, 1, 0), ear_vec3_make(0.5f, 1, 10));
    ear_rng rng;
    ear_rng_seed(&rng, seed);
    for (int i = 0; i < 300; i++) {
        ear_vec3 p = {ear_rng_range(&rng, -9, 9), ear_rng_range(&rng, 0.5f, 12),
                      ear_rng_range(&rng, -9, 9)};
        ear_body_desc d = ear_body_desc_default();
        d.position_m = p;
        d.bounciness = ear_rng_range(&rng, 0, 0.5f);
        d.mass_kg = ear_rng_range(&rng, 0.5f, 5);
        if (i % 2) {
            d.shape = EAR_SHAPE_SPHERE;
            d.radius_m = ear_rng_range(&rng, 0.2f, 0.5f);
        } else {
            float h = ear_rng_range(&rng, 0.2f, 0.5f);
            d.half_extents_m = ear_vec3_make(h, h, h);
        }
        ear_body_id id;
        ear_physics_add_body(w, &d, &id);
    }
    ear_body_desc d = ear_body_desc_default();
    d.kind = EAR_BODY_KINEMATIC;
    d.half_extents_m = ear_vec3_make(2, 0.25f, 2);
    d.position_m = ear_vec3_make(0, 0.25f, 0);
    d.velocity_mps = ear_vec3_make(0.5f, 0, 0.2f);
    ear_body_id plat;
    ear_physics_add_body(w, &d, &plat);
    ear_vehicle_config vc = ear_vehicle_config_default();
    ear_body_id car = add_car(w, &vc, 900, ear_vec3_make(0, 1, 8));
    ear_vehicle_set_controls(w, car, &(ear_vehicle_controls){.gas = 0.7f, .steer = 0.3f});
    return w;
}

TEST(same_world_same_hash) {
    ear_physics *a = busy_world(NULL, 7), *b = busy_world(NULL, 7);
    ASSERT_U64_EQ(ear_physics_hash(a), ear_physics_hash(b));
    for (int i = 0; i < 300; i++) {
        ear_physics_step(a, DT);
        ear_physics_step(b, DT);
    }
    ASSERT_U64_EQ(ear_physics_hash(a), ear_physics_hash(b));
    ASSERT_EQ(ear_physics_event_count(a), ear_physics_event_count(b));
    ear_physics *c = busy_world(NULL, 8);
    for (int i = 0; i < 300; i++) ear_physics_step(c, DT);
    ASSERT_NE(ear_physics_hash(a), ear_physics_hash(c));
    ear_physics_destroy(a);
    ear_physics_destroy(b);
    ear_physics_destroy(c);
}

static size_t g_allocs;
static void *count_alloc(size_t n, void *u) {
    (void)u;
    g_allocs++;
    return malloc(n);
}
static void *count_realloc(void *p, size_t n, void *u) {
    (void)u;
    g_allocs++;
    return realloc(p, n);
}
static void count_free(void *p, void *u) {
    (void)u;
    free(p);
}

TEST(no_allocation_in_step_after_warm_up) {
    ear_allocator al = {count_alloc, count_realloc, count_free, NULL};
    ear_physics *w = busy_world(&al, 3);
    ASSERT_NOT_NULL(w);
    for (int i = 0; i < 120; i++) ear_physics_step(w, DT);
    ear_physics_clear_events(w);
    g_allocs = 0;
    for (int i = 0; i < 240; i++) {
        ASSERT_OK(ear_physics_step(w, DT));
        if (i % 60 == 59) ear_physics_clear_events(w);
        ear_ray_hit hits[4];
        size_t n;
        ear_physics_ray_cast_all(w, ear_vec3_make(-9, 1, -9), ear_vec3_make(9, 1, 9), NULL,
                                 hits, 4, &n);
    }
    ASSERT_EQ(g_allocs, 0);
    ear_physics_destroy(w);
}

/* The grid finds exactly what a scan over every body finds. */
TEST(broad_phase_matches_brute_force) {
    ear_physics *w = busy_world(NULL, 11);
    for (int i = 0; i < 90; i++) ear_physics_step(w, DT);
    ear_rng rng;
    ear_rng_seed(&rng, 99);
    for (int q = 0; q < 200; q++) {
        ear_collider c = box_at(ear_rng_range(&rng, -10, 10), ear_rng_range(&rng, 0, 4),
                                ear_rng_range(&rng, -10, 10), ear_rng_range(&rng, 0.1f, 3),
                                ear_rng_range(&rng, 0.1f, 3), ear_rng_range(&rng, 0.1f, 3));
        ear_body_id ids[512];
        size_t n = 0;
        ASSERT_OK(ear_physics_query_overlaps(w, &c, NULL, ids, 512, &n));
        size_t m = 0;
        for (size_t k = 0; k < ear_physics_body_count(w); k++) {
            ear_body_info info;
            ear_body_get(w, ear_physics_body_at(w, k), &info);
            ear_collider o = {info.desc.shape, info.desc.position_m, info.desc.half_extents_m,
                              info.desc.radius_m};
            ear_vec3 nn;
            float d;
            if (!info.desc.sensor && ear_collider_penetration(&c, &o, &nn, &d)) {
                ASSERT_LT(m, n);
                ASSERT_U64_EQ(ids[m], info.id);
                m++;
            }
        }
        ASSERT_EQ(m, n);
    }
    ear_physics_destroy(w);
}

TEST(move_helpers_use_facing) {
    ear_physics *w = open_world();
    ear_body_id p =
        add_box(w, EAR_BODY_KINEMATIC, ear_vec3_make(0, 0, 0), ear_vec3_make(0.3f, 0.9f, 0.3f));
    ASSERT_OK(ear_body_turn(w, p, 90));
    ASSERT_OK(ear_body_move_forward(w, p, 2, NULL));
    ASSERT_NEAR(pos_of(w, p).x, 2, 1e-5);
    ASSERT_NEAR(pos_of(w, p).z, 0, 1e-5);
    ASSERT_OK(ear_body_strafe(w, p, 1, NULL));
    ASSERT_NEAR(pos_of(w, p).z, 1, 1e-5); /* right of east is south (+Z) */
    ASSERT_OK(ear_body_turn(w, p, -450));
    ear_body_info info;
    ear_body_get(w, p, &info);
    ASSERT_NEAR(info.desc.facing_deg, 0, 1e-5);
    ear_vec3 f = ear_forward_from_facing(0, 90);
    ASSERT_NEAR(f.y, 1, 1e-6);
    ear_physics_destroy(w);
}

TEST_MAIN(
    TEST_ENTRY(ids_order_and_stale_ids), TEST_ENTRY(bad_descriptions_change_nothing),
    TEST_ENTRY(penetration_formulas), TEST_ENTRY(fall_time_and_landed_once),
    TEST_ENTRY(resting_bodies_stay_on_ground_10_s),
    TEST_ENTRY(bounce_impulse_conserves_momentum), TEST_ENTRY(bounce_off_a_wall_reflects_by_e),
    TEST_ENTRY(collision_started_then_ended_once), TEST_ENTRY(kinematic_shoves_crate_fully),
    TEST_ENTRY(crate_against_wall_blocks_the_mover), TEST_ENTRY(dynamic_overlap_shared_by_mass),
    TEST_ENTRY(ray_distances_from_many_angles),
    TEST_ENTRY(ray_all_along_segment_and_sensors_ignored),
    TEST_ENTRY(sensors_enter_and_leave_once), TEST_ENTRY(platforms_carry_riders),
    TEST_ENTRY(friction_stops_a_sliding_crate), TEST_ENTRY(vehicle_reaches_and_holds_top_speed),
    TEST_ENTRY(vehicle_brakes_to_a_stop_holds_and_reverses_after_release),
    TEST_ENTRY(vehicle_coasting_deceleration), TEST_ENTRY(vehicle_turn_rate),
    TEST_ENTRY(vehicle_fuel_per_meter), TEST_ENTRY(vehicle_shifts_at_band_edges),
    TEST_ENTRY(vehicle_crashes_with_lost_speed_and_slides), TEST_ENTRY(same_world_same_hash),
    TEST_ENTRY(no_allocation_in_step_after_warm_up),
    TEST_ENTRY(broad_phase_matches_brute_force), TEST_ENTRY(move_helpers_use_facing))
