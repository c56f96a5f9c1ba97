/* SPDX-License-Identifier: Zlib */
/*
 * The world.* commands end to end through the real `earshot serve` process: each test
 * writes a session of serve lines, runs the binary on it and reads its answers back, then
 * checks the numbers against the formulas (a fall time of sqrt(2h/g), a distance of v * t,
 * a ray's exact distance, path lengths, the sentences) and that failing commands change
 * nothing.
 */
#define _POSIX_C_SOURCE 200809L /* mkfifo */
#include "earshot/commands.h"

#include "test.h"

#include <jansson.h>
#include <stdbool.h>
#include <sys/stat.h>

#define MAX_LINES 64

static json_t *answers[MAX_LINES];
static size_t answer_count;

static void forget(void) {
    for (size_t i = 0; i < answer_count; i++) json_decref(answers[i]);
    answer_count = 0;
}

/* Runs `earshot serve` on the lines and keeps its answers; false when it could not run or
 * did not answer every line. */
static bool session(const char *const *lines, size_t n) {
    forget();
    char in[512], out[512], command[2048];
    snprintf(in, sizeof in, "%s/world_session.in", EAR_BUILD_DIR);
    snprintf(out, sizeof out, "%s/world_session.out", EAR_BUILD_DIR);
    FILE *f = fopen(in, "w");
    if (!f) return false;
    for (size_t i = 0; i < n; i++) fprintf(f, "%s\n", lines[i]);
    fclose(f);
#ifdef _WIN32
    /* cmd.exe takes double quotes only (Wine's, at a path under Z:). */
    snprintf(command, sizeof command, "\"\"%s\" serve < \"%s\" > \"%s\"\"", EAR_EARSHOT, in,
             out);
#else
    snprintf(command, sizeof command, "'%s' serve < '%s' > '%s'", EAR_EARSHOT, in, out);
#endif
    if (system(command) != 0) return false;
    f = fopen(out, "r");
    if (!f) return false;
    static char line[1 << 20];
    while (answer_count < MAX_LINES && fgets(line, sizeof line, f)) {
        json_error_t e;
        answers[answer_count] = json_loads(line, 0, &e);
        if (!answers[answer_count]) {
            fprintf(stderr, "not JSON: %s\n", line);
            break;
        }
        answer_count++;
    }
    fclose(f);
    if (answer_count != n) fprintf(stderr, "%zu answers to %zu lines\n", answer_count, n);
    return answer_count == n;
}

static bool ok(size_t i) {
    bool good = i < answer_count && json_is_true(json_object_get(answers[i], "ok"));
    if (!good && i < answer_count) {
        char *t = json_dumps(answers[i], JSON_COMPACT);
        fprintf(stderr, "answer %zu: %s\n", i, t);
        free(t);
    }
    return good;
}

static json_t *result(size_t i) {
    return json_object_get(answers[i], "result");
}

static const char *error_code(size_t i) {
    return json_string_value(json_object_get(json_object_get(answers[i], "error"), "code"));
}

static const char *error_where(size_t i) {
    return json_string_value(json_object_get(json_object_get(answers[i], "error"), "where"));
}

static double num(const json_t *o, const char *key) {
    return json_number_value(json_object_get(o, key));
}

static double at(const json_t *o, const char *key, size_t i) {
    return json_number_value(json_array_get(json_object_get(o, key), i));
}

static const char *str(const json_t *o, const char *key) {
    return json_string_value(json_object_get(o, key));
}

/* A sphere of radius 0.5 whose bottom is h = 5 m above a floor. */
#define DROP                                                                                   \
    "{\"command\": \"world.load\", \"params\": {\"world\": {\"step_hz\": 60, \"bodies\": ["    \
    "{\"name\": \"floor\", \"shape\": \"box\", \"half_extents\": [10, 0.5, 10], "              \
    "\"position\": [0, -0.5, 0], \"kind\": \"fixed\"},"                                        \
    "{\"name\": \"ball\", \"shape\": \"sphere\", \"radius\": 0.5, \"position\": [0, 5.5, 0], " \
    "\"kind\": \"dynamic\", \"mass\": 2}]}}}"

TEST(a_dropped_sphere_lands_at_the_fall_time) {
    const char *lines[] = {
        DROP,
        "{\"command\": \"world.step\", \"params\": {\"steps\": 180}}",
        "{\"command\": \"world.get\", \"params\": {\"body\": \"ball\"}}",
        "{\"command\": \"world.status\"}",
    };
    ASSERT_TRUE(session(lines, 4));
    ASSERT_TRUE(ok(0) && ok(1) && ok(2) && ok(3));
    ASSERT_FLOAT_EQ(num(result(0), "bodies"), 2);
    const json_t *events = json_object_get(result(1), "events");
    int landed = 0;
    double t = -1;
    for (size_t i = 0; i < json_array_size(events); i++) {
        const json_t *e = json_array_get(events, i);
        if (strcmp(str(e, "type"), "landed") != 0) continue;
        landed++;
        t = num(e, "time_s");
        ASSERT_STR_EQ(str(e, "body"), "ball");
        ASSERT_STR_EQ(str(e, "other"), "floor");
        ASSERT_NEAR(at(e, "normal", 1), 1.0, 1e-6);
        /* The impact speed is g * t. */
        ASSERT_NEAR(num(e, "speed"), 9.81 * sqrt(2 * 5 / 9.81), 9.81 / 60 + 1e-3);
    }
    ASSERT_EQ(landed, 1);
    ASSERT_NEAR(t, sqrt(2 * 5 / 9.81), 1.0 / 60 + 1e-9);
    /* Three seconds later it rests on the floor. */
    ASSERT_TRUE(json_is_true(json_object_get(result(2), "on_ground")));
    ASSERT_STR_EQ(str(result(2), "ground"), "floor");
    ASSERT_NEAR(at(result(2), "position", 1), 0.5, 0.01);
    ASSERT_NEAR(num(result(3), "time_s"), 3.0, 1e-5);
    ASSERT_FLOAT_EQ(num(result(3), "steps"), 180);
    forget();
}

TEST(a_level_makes_one_box_per_run_and_counts_tiles) {
    const char *lines[] = {
        "{\"command\": \"world.load\", \"params\": {\"world\": {\"level\": {\"map\": ["
        "\"  ######\", \"  #..D.#\", \"  #.##.#\", \"  ######\"], \"cell\": 2, \"height\": "
        "3}}}}",
        "{\"command\": \"world.status\"}",
        "{\"command\": \"world.get\", \"params\": {\"body\": \"wall:2:2\"}}",
        "{\"command\": \"world.get\", \"params\": {\"body\": \"wall:0:0\"}}",
    };
    ASSERT_TRUE(session(lines, 4));
    ASSERT_TRUE(ok(0) && ok(1) && ok(2) && ok(3));
    ASSERT_FLOAT_EQ(num(result(0), "walls"), 7);
    ASSERT_FLOAT_EQ(num(result(1), "bodies"), 7);
    const json_t *level = json_object_get(result(1), "level");
    ASSERT_FLOAT_EQ(num(level, "rows"), 4);
    ASSERT_FLOAT_EQ(num(level, "columns"), 6);
    ASSERT_FLOAT_EQ(num(json_object_get(level, "tiles"), "."), 5);
    ASSERT_FLOAT_EQ(num(json_object_get(level, "tiles"), "D"), 1);
    /* The middle run of row 2: columns 2-3 of 2 m cells; row 0 is north (smaller Z). */
    ASSERT_NEAR(at(result(2), "position", 0), 6.0, 1e-6);
    ASSERT_NEAR(at(result(2), "position", 2), 5.0, 1e-6);
    ASSERT_NEAR(at(result(2), "half_extents", 0), 2.0, 1e-6);
    ASSERT_STR_EQ(str(result(2), "kind"), "fixed");
    ASSERT_NEAR(at(result(3), "position", 2), 1.0, 1e-6);
    forget();
}

TEST(bad_documents_are_refused_and_change_nothing) {
    const char *lines[] = {
        DROP,
        "{\"command\": \"world.load\", \"params\": {\"world\": {\"bodies\": [{\"name\": \"a\", "
        "\"shape\": \"box\", \"half_extents\": [1, 1, 1], \"position\": [0, 0, 0], \"kind\": "
        "\"dynamic\", \"mass\": -1}]}}}",
        "{\"command\": \"world.load\", \"params\": {\"world\": {\"bodies\": [{\"name\": \"a\", "
        "\"shape\": \"sphere\", \"radius\": 0, \"position\": [0, 0, 0], \"kind\": "
        "\"fixed\"}]}}}",
        "{\"command\": \"world.load\", \"params\": {\"world\": {\"bodies\": [{\"name\": \"a\", "
        "\"shape\": \"sphere\", \"radius\": 1, \"position\": [0, \"x\", 0], \"kind\": "
        "\"fixed\"}]}}}",
        "{\"command\": \"world.load\", \"params\": {\"world\": {\"bodies\": [{\"name\": \"a\", "
        "\"shape\": \"sphere\", \"radius\": 1, \"position\": [0, 0, 0], \"kind\": \"fixed\", "
        "\"mas\": 3}]}}}",
        "{\"command\": \"world.load\", \"params\": {\"world\": {\"level\": {\"map\": [\"###\", "
        "\"#\\t#\"]}}}}",
        "{\"command\": \"world.load\", \"params\": {\"world\": {\"level\": {\"map\": [\"#\"], "
        "\"cell\": 0}}}}",
        "{\"command\": \"world.load\", \"params\": {\"world\": {\"level\": {\"map\": [\"  \"], "
        "\"scale\": 2}}}}",
        "{\"command\": \"world.load\", \"params\": {\"world\": {\"level\": {\"map\": [\"  "
        "\"]}}}}",
        "{\"command\": \"world.load\", \"params\": {\"world\": {\"bodies\": [{\"name\": \"a\", "
        "\"shape\": \"sphere\", \"radius\": 1, \"position\": [0, 0, 0], \"kind\": \"fixed\"}, "
        "{\"name\": \"a\", \"shape\": \"sphere\", \"radius\": 1, \"position\": [0, 3, 0], "
        "\"kind\": \"fixed\"}]}}}",
        "{\"command\": \"world.load\", \"params\": {\"world\": {\"bodies\": [{\"name\": "
        "\"car\", "
        "\"shape\": \"box\", \"half_extents\": [1, 1, 2], \"position\": [0, 0, 0], \"kind\": "
        "\"dynamic\", \"vehicle\": {}}]}}}",
        "{\"command\": \"world.load\", \"params\": {\"path\": \"/nonexistent/world.json\"}}",
        "{\"command\": \"world.get\", \"params\": {\"body\": \"ghost\"}}",
        "{\"command\": \"world.status\"}",
    };
    ASSERT_TRUE(session(lines, 14));
    ASSERT_TRUE(ok(0));
    static const char *const wheres[] = {
        "params.world.bodies[0].mass",        "params.world.bodies[0].radius",
        "params.world.bodies[0].position[1]", "params.world.bodies[0].mas",
        "params.world.level.map[1]",          "params.world.level.cell",
        "params.world.level.scale",           "params.world.level.map[0]",
        "params.world.bodies[1].name",        "params.world.bodies[0].kind",
    };
    for (size_t i = 0; i < 10; i++) {
        ASSERT_FALSE(json_is_true(json_object_get(answers[1 + i], "ok")));
        ASSERT_STR_EQ(error_code(1 + i), "E_BAD_PARAM");
        ASSERT_STR_EQ(error_where(1 + i), wheres[i]);
    }
    const char *tab =
        json_string_value(json_object_get(json_object_get(answers[5], "error"), "message"));
    ASSERT_STR_EQ(tab,
                  "params.world.level.map[1]: row 2, column 2: a tab (indent with spaces)");
    const char *mass =
        json_string_value(json_object_get(json_object_get(answers[1], "error"), "message"));
    ASSERT_STR_EQ(mass, "params.world.bodies[0].mass: must be >= 0.001 (got -1)");
    ASSERT_STR_EQ(error_code(11), "E_NOT_FOUND");
    ASSERT_STR_EQ(error_code(12), "E_NOT_FOUND");
    /* The first world is still there, untouched. */
    ASSERT_FLOAT_EQ(num(result(13), "bodies"), 2);
    ASSERT_FLOAT_EQ(num(result(13), "steps"), 0);
    forget();
}

TEST(load_from_a_file) {
    char path[512];
    snprintf(path, sizeof path, "%s/world_doc_test.json", EAR_BUILD_DIR);
    FILE *f = fopen(path, "w");
    ASSERT_NOT_NULL(f);
    fprintf(f, "{\"gravity\": [0, 0, 0], \"step_hz\": 50,\n \"bodies\": [{\"name\": \"puck\", "
               "\"shape\": \"sphere\", \"radius\": 0.2, \"position\": [0, 0, 0], \"kind\": "
               "\"dynamic\", \"velocity\": [2, 0, 0]}]}\n");
    fclose(f);
    char load[700];
    snprintf(load, sizeof load, "{\"command\": \"world.load\", \"params\": {\"path\": \"%s\"}}",
             path);
    char bad_path[512];
    snprintf(bad_path, sizeof bad_path, "%s/world_doc_bad.json", EAR_BUILD_DIR);
    f = fopen(bad_path, "w");
    ASSERT_NOT_NULL(f);
    fprintf(f, "{\"bodies\": [\n  {\"name\": \"x\",, }]}\n");
    fclose(f);
    char bad[700];
    snprintf(bad, sizeof bad, "{\"command\": \"world.load\", \"params\": {\"path\": \"%s\"}}",
             bad_path);
    const char *lines[] = {
        load,
        "{\"command\": \"world.step\", \"params\": {\"steps\": 50}}",
        "{\"command\": \"world.get\", \"params\": {\"body\": \"puck\"}}",
        bad,
        "{\"command\": \"world.set\", \"params\": {\"body\": \"puck\", \"velocity\": [0, 0, "
        "-3], "
        "\"position\": [1, 1, 1]}}",
        "{\"command\": \"world.step\", \"params\": {\"steps\": 25}}",
        "{\"command\": \"world.get\", \"params\": {\"body\": \"puck\"}}",
    };
    ASSERT_TRUE(session(lines, 7));
    ASSERT_TRUE(ok(0) && ok(1) && ok(2) && ok(4) && ok(5) && ok(6));
    ASSERT_NEAR(num(result(0), "step_hz"), 50, 0);
    /* 2 m/s for 50 steps of 1/50 s: 2 m. */
    ASSERT_NEAR(at(result(2), "position", 0), 2.0, 1e-4);
    ASSERT_NEAR(num(result(1), "time_s"), 1.0, 1e-6);
    ASSERT_STR_EQ(error_code(3), "E_BAD_PARAM");
    const char *msg =
        json_string_value(json_object_get(json_object_get(answers[3], "error"), "message"));
    ASSERT_STR_CONTAINS(msg, "line 2, column");
    /* Teleported to (1, 1, 1), then 3 m/s north for 0.5 s. */
    ASSERT_NEAR(at(result(6), "position", 0), 1.0, 1e-5);
    ASSERT_NEAR(at(result(6), "position", 2), 1.0 - 1.5, 1e-4);
    forget();
}

/* A corridor along X: walls at x < 0 and x > 10 (cells of 1 m), a player box of half
 * extent 0.3 and two crates for rays. */
#define ROOM                                                                                   \
    "{\"command\": \"world.load\", \"params\": {\"world\": {\"gravity\": [0, 0, 0], "          \
    "\"level\": {\"map\": [\"############\", \"#..........#\", \"#....#.....#\", "             \
    "\"#..~~~~~...#\", \"############\"], \"cell\": 1, \"height\": 2, \"origin\": [-1, 0, "    \
    "-1]}, \"bodies\": [{\"name\": \"player\", \"shape\": \"box\", \"half_extents\": [0.3, "   \
    "0.9, 0.3], \"position\": [0.5, 0.9, 0.5], \"kind\": \"kinematic\", \"facing\": 90}, "     \
    "{\"name\": \"crate\", \"shape\": \"box\", \"half_extents\": [0.25, 0.25, 0.25], "         \
    "\"position\": [4.5, 0.5, 0.5], \"kind\": \"fixed\"}, {\"name\": \"orb\", \"shape\": "     \
    "\"sphere\", \"radius\": 0.5, \"position\": [7.5, 0.5, 0.5], \"kind\": \"fixed\"}, "       \
    "{\"name\": \"gate\", \"shape\": \"box\", \"half_extents\": [0.5, 1, 0.5], \"position\": " \
    "[6.5, 1, 0.5], \"kind\": \"fixed\", \"sensor\": true}]}}}"

TEST(move_ray_describe_and_path) {
    const char *lines[] = {
        ROOM,
        "{\"command\": \"world.ray\", \"params\": {\"from\": [0.5, 0.5, 0.5], \"to\": [10.5, "
        "0.5, "
        "0.5]}}",
        "{\"command\": \"world.move\", \"params\": {\"body\": \"player\", \"by\": [-3, 0, 0]}}",
        "{\"command\": \"world.describe\", \"params\": {\"from\": \"player\", \"to\": "
        "\"orb\"}}",
        "{\"command\": \"world.describe\", \"params\": {\"from\": \"player\", \"to\": \"orb\", "
        "\"language\": \"de\"}}",
        "{\"command\": \"world.path\", \"params\": {\"from\": [0.5, 0, 0.5], \"to\": [9.5, 0, "
        "2.5]}}",
        "{\"command\": \"world.path\", \"params\": {\"from\": [0.5, 0, 0.5], \"to\": [9.5, 0, "
        "2.5], \"diagonal\": true}}",
        "{\"command\": \"world.path\", \"params\": {\"from\": [0.5, 0, 2.5], \"to\": [8.5, 0, "
        "2.5], \"costs\": {\"~\": 4}}}",
        "{\"command\": \"world.path\", \"params\": {\"from\": [0.5, 0, 0.5], \"to\": [4.5, 0, "
        "1.5]}}",
        "{\"command\": \"world.path\", \"params\": {\"from\": [0.5, 0, 0.5], \"to\": [40, 0, "
        "1.5]}}",
        "{\"command\": \"world.ray\", \"params\": {\"from\": [0.5, 0.5, 0.5], \"to\": [10.5, "
        "0.5, "
        "0.5], \"include_sensors\": true}}",
    };
    ASSERT_TRUE(session(lines, 11));
    for (size_t i = 0; i < 9; i++) ASSERT_TRUE(ok(i));
    /* The ray starts inside the player box: the player is hit at distance 0... */
    const json_t *hit = json_object_get(result(1), "hit");
    ASSERT_STR_EQ(str(hit, "body"), "player");
    /* ...then the crate's west face at x = 4.25 and the orb's at 7.0; the sensor gate is
     * not seen. */
    const json_t *bodies = json_object_get(result(1), "bodies");
    ASSERT_FLOAT_EQ(num(result(1), "count"), 4);
    ASSERT_STR_EQ(json_string_value(json_array_get(bodies, 1)), "crate");
    ASSERT_STR_EQ(json_string_value(json_array_get(bodies, 2)), "orb");
    ASSERT_STR_EQ(json_string_value(json_array_get(bodies, 3)), "wall:1:11");
    /* Moving west 3 m stops at the wall (x = 0 face; the half extent is 0.3). */
    ASSERT_TRUE(json_is_true(json_object_get(result(2), "blocked")));
    ASSERT_NEAR(at(result(2), "position", 0), 0.3, 1e-3);
    /* Facing east, the orb is 7.2 m ahead and 0.4 m lower: "7 meters ahead". */
    ASSERT_STR_EQ(str(result(3), "text"), "7 meters ahead");
    ASSERT_STR_EQ(str(result(3), "clock"), "12 o'clock");
    ASSERT_STR_EQ(str(result(3), "compass"), "east");
    ASSERT_STR_EQ(str(result(4), "text"), "7 Meter vor dir");
    ASSERT_STR_EQ(str(result(4), "compass"), "Osten");
    /* 4-connected: 9 east + 2 south; 8-connected: 2 diagonals + 7 east. */
    ASSERT_NEAR(num(result(5), "length"), 11, 1e-4);
    ASSERT_FLOAT_EQ(num(result(5), "cells"), 12);
    ASSERT_NEAR(num(result(6), "length"), 7 + 2 * sqrt(2.0), 1e-4);
    /* Water at 4: straight along row 3 costs 5 * 4 + 3 = 23; round it, the wall at (2, 5)
     * sends the way up to row 1: 2 + 4 up and east, 4 + 2 east and down, 12 steps. */
    ASSERT_NEAR(num(result(7), "cost"), 12, 1e-4);
    ASSERT_NEAR(num(result(7), "length"), 12, 1e-4);
    /* Into the wall at (2, 5): no way. */
    ASSERT_TRUE(json_is_null(json_object_get(result(8), "path")));
    ASSERT_TRUE(json_is_null(json_object_get(result(8), "length")));
    ASSERT_STR_EQ(error_code(9), "E_BAD_PARAM");
    ASSERT_STR_EQ(error_where(9), "params.to");
    ASSERT_TRUE(ok(10));
    ASSERT_FLOAT_EQ(num(result(10), "count"), 5);
    forget();
}

TEST(ray_distances_are_exact) {
    const char *lines[] = {
        "{\"command\": \"world.load\", \"params\": {\"world\": {\"bodies\": [{\"name\": "
        "\"box\", "
        "\"shape\": \"box\", \"half_extents\": [1, 2, 3], \"position\": [10, 0, 0], \"kind\": "
        "\"fixed\"}, {\"name\": \"ball\", \"shape\": \"sphere\", \"radius\": 2, \"position\": "
        "[0, 0, -20], \"kind\": \"fixed\"}]}}}",
        "{\"command\": \"world.ray\", \"params\": {\"from\": [0, 0, 0], \"to\": [20, 0, 0]}}",
        "{\"command\": \"world.ray\", \"params\": {\"from\": [0, 0, 0], \"to\": [0, 0, -40]}}",
        "{\"command\": \"world.ray\", \"params\": {\"from\": [0, 1, 0], \"to\": [0, 1, -40]}}",
        "{\"command\": \"world.ray\", \"params\": {\"from\": [0, 5, 0], \"to\": [20, 5, 0]}}",
    };
    ASSERT_TRUE(session(lines, 5));
    for (size_t i = 0; i < 5; i++) ASSERT_TRUE(ok(i));
    const json_t *hit = json_object_get(result(1), "hit");
    ASSERT_STR_EQ(str(hit, "body"), "box");
    ASSERT_NEAR(num(hit, "distance"), 9.0, 1e-5);
    ASSERT_NEAR(at(hit, "normal", 0), -1.0, 1e-6);
    hit = json_object_get(result(2), "hit");
    ASSERT_STR_EQ(str(hit, "body"), "ball");
    ASSERT_NEAR(num(hit, "distance"), 18.0, 1e-5);
    /* One metre off the sphere's axis: 20 - sqrt(4 - 1). */
    hit = json_object_get(result(3), "hit");
    ASSERT_NEAR(num(hit, "distance"), 20 - sqrt(3.0), 1e-4);
    ASSERT_TRUE(json_is_null(json_object_get(result(4), "hit")));
    ASSERT_FLOAT_EQ(num(result(4), "count"), 0);
    forget();
}

TEST(vehicles_and_sensors) {
    const char *lines[] = {
        "{\"command\": \"world.load\", \"params\": {\"world\": {\"bodies\": ["
        "{\"name\": \"road\", \"shape\": \"box\", \"half_extents\": [500, 0.5, 500], "
        "\"position\": [0, -0.5, 0], \"kind\": \"fixed\"},"
        "{\"name\": \"car\", \"shape\": \"box\", \"half_extents\": [0.9, 0.7, 2.2], "
        "\"position\": [0, 0.7, 0], \"kind\": \"kinematic\", \"mass\": 1000, \"vehicle\": "
        "{\"top_speed\": 30, \"gears\": 4, \"fuel\": 10, \"fuel_capacity\": 40}},"
        "{\"name\": \"cart\", \"shape\": \"box\", \"half_extents\": [0.5, 0.5, 0.5], "
        "\"position\": [5, 0.5, 0], \"kind\": \"kinematic\", \"velocity\": [2, 0, 0]},"
        "{\"name\": \"zone\", \"shape\": \"box\", \"half_extents\": [1, 0.9, 1], \"position\": "
        "[10, 1.5, 0], \"kind\": \"fixed\", \"sensor\": true},"
        "{\"name\": \"empty\", \"shape\": \"box\", \"half_extents\": [0.9, 0.7, 2.2], "
        "\"position\": [-20, 0.7, 0], \"kind\": \"kinematic\", \"vehicle\": {\"fuel\": 0, "
        "\"engine_on\": false}}]}}}",
        "{\"command\": \"world.set\", \"params\": {\"body\": \"car\", \"gas\": 1}}",
        "{\"command\": \"world.step\", \"params\": {\"steps\": 600}}",
        "{\"command\": \"world.get\", \"params\": {\"body\": \"car\"}}",
        "{\"command\": \"world.set\", \"params\": {\"body\": \"cart\", \"gas\": 1}}",
        "{\"command\": \"world.set\", \"params\": {\"body\": \"empty\", \"engine_on\": true}}",
        "{\"command\": \"world.describe\", \"params\": {\"from\": \"car\", \"to\": \"road\"}}",
    };
    ASSERT_TRUE(session(lines, 7));
    ASSERT_TRUE(ok(0) && ok(1) && ok(2) && ok(3) && ok(6));
    const json_t *car = result(3);
    ASSERT_TRUE(json_is_true(json_object_get(car, "vehicle")));
    ASSERT_TRUE(json_is_true(json_object_get(car, "engine_on")));
    /* Ten seconds of full gas: well on the way to the top speed, never past it. */
    ASSERT_DBL_GT(num(car, "speed"), 15);
    ASSERT_DBL_LE(num(car, "speed"), 30 + 1e-3);
    ASSERT_DBL_LT(num(car, "fuel"), 10);
    ASSERT_DBL_GT(num(car, "rpm"), 800);
    /* Facing north, so the car drove along -Z. */
    ASSERT_DBL_LT(at(car, "position", 2), -50);
    int gears = 0, entered = 0, left = 0;
    int last_gear = 1;
    const json_t *events = json_object_get(result(2), "events");
    for (size_t i = 0; i < json_array_size(events); i++) {
        const json_t *e = json_array_get(events, i);
        const char *type = str(e, "type");
        if (strcmp(type, "gear_changed") == 0) {
            ASSERT_STR_EQ(str(e, "body"), "car");
            ASSERT_FLOAT_EQ(num(e, "previous_gear"), last_gear);
            ASSERT_FLOAT_EQ(num(e, "gear"), last_gear + 1);
            last_gear = (int)num(e, "gear");
            gears++;
        }
        if (strcmp(type, "entered") == 0) {
            ASSERT_STR_EQ(str(e, "body"), "zone");
            ASSERT_STR_EQ(str(e, "other"), "cart");
            /* The cart's east face (5.5 + 2 t) reaches the zone's west face (9) at 1.75 s. */
            ASSERT_NEAR(num(e, "time_s"), 1.75, 1.0 / 60 + 1e-9);
            entered++;
        }
        if (strcmp(type, "left") == 0) {
            /* Its west face (4.5 + 2 t) passes the east face (11) at 3.25 s. */
            ASSERT_NEAR(num(e, "time_s"), 3.25, 1.0 / 60 + 1e-9);
            left++;
        }
    }
    ASSERT_GE(gears, 2);
    ASSERT_EQ(entered, 1);
    ASSERT_EQ(left, 1);
    ASSERT_STR_EQ(error_code(4), "E_BAD_PARAM");
    ASSERT_STR_EQ(error_where(4), "params.gas");
    ASSERT_STR_EQ(error_code(5), "E_STATE");
    char speed[64];
    snprintf(speed, sizeof speed, "%.0f kilometers per hour", num(car, "speed") * 3.6);
    ASSERT_STR_EQ(str(result(6), "speed"), speed);
    forget();
}

/* With confine_paths (MCP), a world document outside the working directory answers as a
 * missing file; a FIFO is refused without waiting on it. */
TEST(mcp_paths_are_confined) {
    ear_commands_config config = ear_commands_config_default();
    config.confine_paths = true;
    ear_commands *c = NULL;
    ASSERT_OK(ear_commands_create(&config, &c));
    json_t *params = json_pack("{s:s}", "path", "/etc/hostname");
    json_t *err = NULL;
    json_t *r = ear_commands_run(c, "world.load", params, &err);
    ASSERT_NULL(r);
    ASSERT_STR_EQ(json_string_value(json_object_get(err, "code")), "E_NOT_FOUND");
    ASSERT_STR_EQ(json_string_value(json_object_get(err, "where")), "params.path");
    json_decref(err);
    json_decref(params);
    ear_commands_destroy(c);
    ASSERT_OK(ear_commands_create(NULL, &c));
    char fifo[512];
    snprintf(fifo, sizeof fifo, "%s/world_fifo", EAR_BUILD_DIR);
    remove(fifo);
    ASSERT_EQ(mkfifo(fifo, 0600), 0);
    params = json_pack("{s:s}", "path", fifo);
    r = ear_commands_run(c, "world.load", params, &err);
    ASSERT_NULL(r);
    ASSERT_STR_EQ(json_string_value(json_object_get(err, "code")), "E_BAD_PARAM");
    json_decref(err);
    json_decref(params);
    remove(fifo);
    /* Both or neither of world and path: the schema's oneOf. */
    params = json_pack("{s:{}, s:s}", "world", "path", "w.json");
    r = ear_commands_run(c, "world.load", params, &err);
    ASSERT_NULL(r);
    ASSERT_STR_EQ(json_string_value(json_object_get(err, "code")), "E_BAD_PARAM");
    json_decref(err);
    json_decref(params);
    ear_commands_destroy(c);
}

/* The world's memory counts in the session's budget: a level of 1 M cells (4 MB of cells)
 * does not fit in 2 MB and is E_TOO_BIG, and the world before it stays. */
TEST(worlds_count_in_the_memory_budget) {
    ear_commands_config config = ear_commands_config_default();
    config.max_memory_bytes = 2u << 20;
    ear_commands *c = NULL;
    ASSERT_OK(ear_commands_create(&config, &c));
    json_t *small = json_loads("{\"world\": {\"level\": {\"map\": [\"#.#\"]}}}", 0, NULL);
    json_t *err = NULL;
    json_t *r = ear_commands_run(c, "world.load", small, &err);
    ASSERT_NOT_NULL(r);
    json_decref(r);
    json_decref(small);
    size_t side = 1000;
    char *row = malloc(side + 1);
    memset(row, '.', side);
    row[side] = '\0';
    json_t *map = json_array();
    for (size_t i = 0; i < side; i++) json_array_append_new(map, json_string(row));
    free(row);
    json_t *big = json_pack("{s:{s:{s:o}}}", "world", "level", "map", map);
    r = ear_commands_run(c, "world.load", big, &err);
    ASSERT_NULL(r);
    ASSERT_STR_EQ(json_string_value(json_object_get(err, "code")), "E_TOO_BIG");
    json_decref(err);
    json_decref(big);
    r = ear_commands_run(c, "world.status", NULL, &err);
    ASSERT_NOT_NULL(r);
    ASSERT_EQ(json_integer_value(json_object_get(r, "bodies")), 2);
    json_decref(r);
    ear_commands_destroy(c);
}

TEST_MAIN(TEST_ENTRY(worlds_count_in_the_memory_budget), TEST_ENTRY(mcp_paths_are_confined),
          TEST_ENTRY(a_dropped_sphere_lands_at_the_fall_time),
          TEST_ENTRY(a_level_makes_one_box_per_run_and_counts_tiles),
          TEST_ENTRY(bad_documents_are_refused_and_change_nothing),
          TEST_ENTRY(load_from_a_file), TEST_ENTRY(move_ray_describe_and_path),
          TEST_ENTRY(ray_distances_are_exact), TEST_ENTRY(vehicles_and_sensors))
