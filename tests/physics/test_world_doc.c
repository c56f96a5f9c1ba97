/* SPDX-License-Identifier: Zlib */
/*
 * World documents through the public parser: defaults, a vehicle's parameters and their
 * defaults, the keys a caller lets through for its own objects, and errors that name
 * their field.
 */
#include "earshot/level.h"
#include "earshot/physics.h"

#include "test.h"

static ear_result load(const char *text, const ear_level_doc_options *o, ear_level_doc *doc,
                       ear_level_doc_error *err) {
    return ear_level_doc_load(text, strlen(text), o, doc, err);
}

TEST(defaults_and_order) {
    ear_level_doc doc;
    ear_level_doc_error err;
    ASSERT_OK(load("{\"level\": {\"map\": \"###\\n#.#\\n###\", \"origin\": [10, 0, 20]},"
                   " \"bodies\": [{\"name\": \"p\", \"shape\": \"sphere\", \"radius\": 0.4,"
                   " \"position\": [11.5, 0.4, 21.5], \"kind\": \"dynamic\"}]}",
                   NULL, &doc, &err));
    ASSERT_NEAR(doc.step_hz, 60, 0);
    ASSERT_EQ(doc.wall_count, 4); /* "###", "#" and "#", "###" */
    ASSERT_EQ(doc.body_count, 1);
    ASSERT_NEAR(ear_physics_get_config(doc.world).gravity_mps2.y, -9.81, 1e-6);
    /* Walls first, then the document's bodies. */
    ASSERT_EQ(ear_physics_find(doc.world, "p"), ear_physics_body_at(doc.world, 4));
    ear_body_info info;
    ASSERT_OK(ear_body_get(doc.world, ear_physics_find(doc.world, "wall:1:2"), &info));
    ASSERT_NEAR(info.desc.position_m.x, 12.5, 1e-6);
    ASSERT_NEAR(info.desc.position_m.z, 21.5, 1e-6);
    ASSERT_OK(ear_body_get(doc.world, ear_physics_find(doc.world, "p"), &info));
    ear_body_desc d = ear_body_desc_default();
    ASSERT_NEAR(info.desc.mass_kg, d.mass_kg, 0);
    ASSERT_NEAR(info.desc.friction, d.friction, 0);
    ASSERT_EQ(ear_level_tile_count(doc.level, '.'), 1);
    ear_level_doc_unload(&doc);
    ear_level_doc_unload(&doc); /* emptied: harmless */
}

TEST(vehicle_parameters) {
    ear_level_doc doc;
    ear_level_doc_error err;
    ASSERT_OK(
        load("{\"bodies\": [{\"name\": \"car\", \"shape\": \"box\", \"half_extents\":"
             " [1, 0.7, 2], \"position\": [0, 0.7, 0], \"kind\": \"kinematic\", \"mass\":"
             " 900, \"vehicle\": {\"load\": 80, \"engine_force\": 5000, \"brake_force\":"
             " 9000, \"top_speed\": 33, \"grip\": 7, \"rolling_resistance\": 0.2,"
             " \"turn_radius\": 6, \"max_turn_rate\": 70, \"gears\": 6, \"idle_rpm\": 700,"
             " \"max_rpm\": 5000, \"fuel_capacity\": 45, \"consumption\": 6.5}}]}",
             NULL, &doc, &err));
    ear_vehicle_state vs;
    ASSERT_OK(ear_vehicle_get_state(doc.world, ear_physics_find(doc.world, "car"), &vs));
    ASSERT_NEAR(vs.config.load_kg, 80, 0);
    ASSERT_NEAR(vs.config.engine_force_n, 5000, 0);
    ASSERT_NEAR(vs.config.brake_force_n, 9000, 0);
    ASSERT_NEAR(vs.config.top_speed_mps, 33, 0);
    ASSERT_NEAR(vs.config.grip_mps2, 7, 0);
    ASSERT_NEAR(vs.config.rolling_resistance_mps2, 0.2, 1e-7);
    ASSERT_NEAR(vs.config.turn_radius_m, 6, 0);
    ASSERT_NEAR(vs.config.max_turn_rate_dps, 70, 0);
    ASSERT_EQ(vs.config.gears, 6);
    ASSERT_NEAR(vs.config.idle_rpm, 700, 0);
    ASSERT_NEAR(vs.config.max_rpm, 5000, 0);
    ASSERT_NEAR(vs.config.fuel_capacity_l, 45, 0);
    ASSERT_NEAR(vs.config.consumption_l_per_100km, 6.5, 0);
    /* Fuel not given: a full tank. Engine braking not given: the default. */
    ASSERT_NEAR(vs.fuel_l, 45, 0);
    ASSERT_NEAR(vs.config.engine_braking_mps2, ear_vehicle_config_default().engine_braking_mps2,
                0);
    ASSERT_TRUE(vs.engine_on);
    ear_level_doc_unload(&doc);
}

TEST(callers_extra_keys_are_tolerated) {
    const char *text = "{\"sounds\": {}, \"bodies\": [{\"name\": \"radio\", \"shape\": "
                       "\"sphere\", \"radius\": 0.2, \"position\": [0, 1, 0], \"kind\": "
                       "\"fixed\", \"source\": {\"sound\": \"music\"}}]}";
    ear_level_doc doc;
    ear_level_doc_error err;
    ASSERT_EQ(load(text, NULL, &doc, &err), EAR_E_FORMAT);
    ASSERT_STR_EQ(err.where, "sounds");
    static const char *const top[] = {"sounds", NULL};
    ear_level_doc_options o = ear_level_doc_options_default();
    o.extra_keys = top;
    ASSERT_EQ(load(text, &o, &doc, &err), EAR_E_FORMAT);
    ASSERT_STR_EQ(err.where, "bodies[0].source");
    static const char *const per_body[] = {"source", "impact", "listener", NULL};
    o.extra_body_keys = per_body;
    ASSERT_OK(load(text, &o, &doc, &err));
    ASSERT_EQ(ear_physics_body_count(doc.world), 1);
    ear_level_doc_unload(&doc);
}

TEST(errors_name_the_field) {
    static const struct {
        const char *text, *where, *message;
    } cases[] = {
        {"[]", "", "expected an object {gravity, step_hz, level, bodies}, got an array"},
        /* Valid JSON that is no object is told what it is, not "not valid JSON". */
        {"42", "", "expected an object {gravity, step_hz, level, bodies}, got a number"},
        {"true", "", "expected an object {gravity, step_hz, level, bodies}, got true"},
        {"{\"step_hz\": 0}", "step_hz", "step_hz: must be >= 1 (got 0)"},
        {"{\"gravity\": [0, -9.81]}", "gravity", "gravity: expected [x, y, z] (three numbers)"},
        {"{\"bodies\": [{\"shape\": \"box\"}]}", "bodies[0].name",
         "bodies[0].name: missing: every body needs a name"},
        {"{\"bodies\": [{\"name\": \"a\", \"kind\": \"solid\"}]}", "bodies[0].kind",
         "bodies[0].kind: expected \"fixed\", \"kinematic\" or \"dynamic\""},
        {"{\"bodies\": [{\"name\": \"a\", \"kind\": \"fixed\", \"shape\": \"box\", "
         "\"half_extents\": [1, 1, 1], \"radius\": 1, \"position\": [0, 0, 0]}]}",
         "bodies[0].radius",
         "bodies[0].radius: only a sphere has a radius (this body is a box)"},
        {"{\"bodies\": [{\"name\": \"a\", \"kind\": \"dynamic\", \"shape\": \"sphere\", "
         "\"radius\": 1, \"position\": [0, 0, 0], \"bounciness\": 1.5}]}",
         "bodies[0].bounciness", "bodies[0].bounciness: must be <= 1 (got 1.5)"},
        {"{\"bodies\": [{\"name\": \"c\", \"kind\": \"kinematic\", \"shape\": \"sphere\", "
         "\"radius\": 1, \"position\": [0, 0, 0], \"vehicle\": {\"gears\": 2.5}}]}",
         "bodies[0].vehicle.gears",
         "bodies[0].vehicle.gears: expected a whole number of gears (got 2.5)"},
        {"{\"bodies\": [{\"name\": \"c\", \"kind\": \"kinematic\", \"shape\": \"sphere\", "
         "\"radius\": 1, \"position\": [0, 0, 0], \"vehicle\": {\"idle_rpm\": 7000}}]}",
         "bodies[0].vehicle.idle_rpm",
         "bodies[0].vehicle.idle_rpm: must be below max_rpm (7000 >= 6000)"},
        {"{\"level\": {\"map\": [\"##\", \"#\\u0001\"]}}", "level.map[1]",
         "level.map[1]: row 2, column 2: a control character"},
        {"{\"level\": {\"map\": [\"#\"], \"wall\": \"##\"}}", "level.wall",
         "level.wall: expected one character"},
        {"{\"level\": {\"map\": [\"#.\"]}, \"bodies\": [{\"name\": \"wall:0:0\", \"kind\": "
         "\"fixed\", \"shape\": \"sphere\", \"radius\": 1, \"position\": [0, 0, 0]}]}",
         "bodies[0].name",
         "bodies[0].name: names starting with \"wall:\" belong to the level's walls"},
        /* Issue 24: a mass of 1e-40 was accepted and made the world NaN on its first
         * step; a radius of 1e-30 would take the sub-step limit every step. */
        {"{\"bodies\": [{\"name\": \"a\", \"kind\": \"dynamic\", \"shape\": \"sphere\", "
         "\"radius\": 1, \"position\": [0, 0, 0], \"mass\": 1e-40}]}",
         "bodies[0].mass", "bodies[0].mass: must be >= 0.001 (got 1e-40)"},
        {"{\"bodies\": [{\"name\": \"a\", \"kind\": \"dynamic\", \"shape\": \"sphere\", "
         "\"radius\": 1e-30, \"position\": [0, 0, 0]}]}",
         "bodies[0].radius", "bodies[0].radius: must be >= 0.001 (got 1e-30)"},
        {"{\"bodies\": [{\"name\": \"a\", \"kind\": \"dynamic\", \"shape\": \"box\", "
         "\"half_extents\": [1, 0, 1], \"position\": [0, 0, 0]}]}",
         "bodies[0].half_extents[1]", "bodies[0].half_extents[1]: must be >= 0.001 (got 0)"},
        {"{\"bodies\": 3", "line 1, column 12", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ear_level_doc doc = {0};
        ear_level_doc_error err;
        ASSERT_EQ(load(cases[i].text, NULL, &doc, &err), EAR_E_FORMAT);
        ASSERT_NULL(doc.world);
        ASSERT_STR_EQ(err.where, cases[i].where);
        if (cases[i].message) ASSERT_STR_EQ(err.message, cases[i].message);
    }
}

/* The smallest mass and size a document may give step to finite numbers. */
TEST(smallest_mass_and_size_stay_finite) {
    ear_level_doc doc = {0};
    ear_level_doc_error err;
    ASSERT_EQ(load("{\"step_hz\": 60, \"bodies\": [{\"name\": \"f\", \"kind\": \"fixed\", "
                   "\"shape\": \"box\", \"half_extents\": [5, 0.5, 5], \"position\": [0, -0.5, "
                   "0]}, {\"name\": \"a\", \"kind\": \"dynamic\", \"shape\": \"sphere\", "
                   "\"radius\": 0.001, \"position\": [0, 0.0005, 0], \"mass\": 0.001}]}",
                   NULL, &doc, &err),
              EAR_OK);
    for (int i = 0; i < 120; i++) ASSERT_EQ(ear_physics_step(doc.world, 1.0f / 60), EAR_OK);
    ear_vec3 p;
    ASSERT_EQ(ear_body_position(doc.world, ear_physics_find(doc.world, "a"), &p), EAR_OK);
    ASSERT_TRUE(ear_vec3_is_finite(p));
    ear_level_doc_unload(&doc);
}

TEST_MAIN(TEST_ENTRY(defaults_and_order), TEST_ENTRY(vehicle_parameters),
          TEST_ENTRY(callers_extra_keys_are_tolerated), TEST_ENTRY(errors_name_the_field),
          TEST_ENTRY(smallest_mass_and_size_stay_finite))
