/* SPDX-License-Identifier: Zlib */
/*
 * The audio world through the command tool: a world document's per-body source, impact
 * and listener objects, checked field by field (a bad one names its JSON path and changes
 * nothing); audio.render_offline {"scene": true} stepping the world in lockstep (a car's
 * doppler from its physics velocity, read back through audio.analyze); and the bundled
 * example world rendered twice (the crate's hit where the physics lands it, the radio
 * muffled by its wall, the same hash both times).
 */
#include "earshot/commands.h"
#include "earshot/mixer.h"
#include "test.h"

#include <math.h>

static void quiet(void *user, ear_log_level level, const char *module, const char *message) {
    (void)user, (void)level, (void)module, (void)message;
}

static json_t *run(ear_commands *c, const char *name, json_t *params, json_t **err) {
    json_t *r = ear_commands_run(c, name, params, err);
    json_decref(params);
    return r;
}

static const char *where_of(const json_t *err) {
    const char *s = json_string_value(json_object_get(err, "where"));
    return s ? s : "(none)";
}

static json_t *parse(const char *text) {
    json_error_t e;
    json_t *v = json_loads(text, 0, &e);
    if (!v) fprintf(stderr, "test JSON: line %d: %s\n", e.line, e.text);
    return v;
}

/* One listener and one source body; `source` is spliced in as the source's JSON. */
static json_t *doc_with(const char *source) {
    char text[2048];
    snprintf(text, sizeof text,
             "{\"gravity\": [0, 0, 0], \"bodies\": ["
             "{\"name\": \"ear\", \"shape\": \"box\", \"half_extents\": [0.2, 0.2, 0.2], "
             "\"position\": [0, 0, 0], \"kind\": \"fixed\", \"listener\": {}},"
             "{\"name\": \"car\", \"shape\": \"box\", \"half_extents\": [2, 0.7, 1], "
             "\"position\": [-120, 0, -2], \"velocity\": [30, 0, 0], \"kind\": \"dynamic\", "
             "\"source\": %s}]}",
             source);
    return parse(text);
}

TEST(bad_components_name_their_field_and_change_nothing) {
    ear_log_set(quiet, NULL, EAR_LOG_WARN);
    ear_commands *c = NULL;
    ASSERT_OK(ear_commands_create(NULL, &c));
    json_t *err = NULL;
    json_t *r = run(
        c, "world.load",
        json_pack("{s:o}", "world", doc_with("{\"sound\": \"synth:sine:500:1:0.5\"}")), &err);
    ASSERT_NOT_NULL(r);
    json_decref(r);
    struct {
        const char *source, *where;
    } bad[] = {
        {"{\"sound\": \"x\", \"volume\": -1}", "params.world.bodies[1].source.volume"},
        {"{\"sound\": \"x\", \"colume\": 1}", "params.world.bodies[1].source.colume"},
        {"{\"volume\": 1}", "params.world.bodies[1].source.sound"},
        {"{\"sound\": \"x\", \"bus\": \"drums\"}", "params.world.bodies[1].source.bus"},
        {"{\"blend\": \"e\", \"drive\": [{\"param\": \"rpm\"}]}",
         "params.world.bodies[1].source.drive[0].from"},
        {"{\"sound\": \"x\", \"cone\": {\"inner\": 400}}",
         "params.world.bodies[1].source.cone.inner"},
        {"7", "params.world.bodies[1].source"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err = NULL;
        r = run(c, "world.load", json_pack("{s:o}", "world", doc_with(bad[i].source)), &err);
        ASSERT_NULL(r);
        ASSERT_STR_EQ(json_string_value(json_object_get(err, "code")), "E_BAD_PARAM");
        ASSERT_STR_EQ(where_of(err), bad[i].where);
        json_decref(err);
    }
    /* An impact needs full_speed above min_speed; a listener knows two keys. */
    json_t *d = doc_with("{\"sound\": \"x\"}");
    json_object_set_new(
        json_array_get(json_object_get(d, "bodies"), 1), "impact",
        json_pack("{s:s, s:f, s:f}", "sound", "x", "min_speed", 5.0, "full_speed", 2.0));
    err = NULL;
    ASSERT_NULL(run(c, "world.load", json_pack("{s:o}", "world", d), &err));
    ASSERT_STR_EQ(where_of(err), "params.world.bodies[1].impact.full_speed");
    json_decref(err);
    d = doc_with("{\"sound\": \"x\"}");
    json_object_set_new(json_array_get(json_object_get(d, "bodies"), 0), "listener",
                        json_pack("{s:b}", "deaf", 1));
    err = NULL;
    ASSERT_NULL(run(c, "world.load", json_pack("{s:o}", "world", d), &err));
    ASSERT_STR_EQ(where_of(err), "params.world.bodies[0].listener.deaf");
    json_decref(err);
    /* The first world is still there: two bodies, and its source plays. */
    r = run(c, "world.status", json_object(), &err);
    ASSERT_EQ(json_integer_value(json_object_get(r, "bodies")), 2);
    json_decref(r);
    r = run(c, "audio.render_offline", json_pack("{s:f, s:b}", "seconds", 0.5, "scene", 1),
            &err);
    ASSERT_NOT_NULL(r);
    ASSERT_DBL_GT(json_number_value(json_object_get(json_object_get(r, "rms"), "left")), 0.001);
    json_decref(r);
    ear_commands_destroy(c);
}

/* The car of the C test, through commands: f c / (c - v_r) while it approaches. */
TEST(render_offline_scene_steps_the_world_in_lockstep) {
    ear_log_set(quiet, NULL, EAR_LOG_WARN);
    ear_commands *c = NULL;
    ASSERT_OK(ear_commands_create(NULL, &c));
    json_t *err = NULL;
    json_t *r = run(c, "world.load",
                    json_pack("{s:o}", "world",
                              doc_with("{\"sound\": \"synth:sine:500:1:0.5\", \"looping\": "
                                       "true, \"model\": \"none\"}")),
                    &err);
    ASSERT_NOT_NULL(r);
    json_decref(r);
    r = run(c, "audio.render_offline", json_pack("{s:f, s:b}", "seconds", 2.0, "scene", 1),
            &err);
    ASSERT_NOT_NULL(r);
    json_t *world = json_object_get(r, "world");
    ASSERT_EQ(json_integer_value(json_object_get(world, "steps")), 120);
    ASSERT_NEAR(json_number_value(json_object_get(world, "time_s")), 2.0, 1e-5);
    json_decref(r);
    r = run(c, "audio.analyze", json_pack("{s:f, s:f}", "start", 0.5, "end", 1.0), &err);
    ASSERT_NOT_NULL(r);
    double x = -120 + 30 * 0.75, vr = 30 * -x / sqrt(x * x + 4);
    ASSERT_REL(json_number_value(json_object_get(r, "dominant_hz")), 500 * 343 / (343 - vr),
               5e-5);
    json_decref(r);
    /* The physics moved the car by its velocity: 2 s at 30 m/s. */
    r = run(c, "world.get", json_pack("{s:s}", "body", "car"), &err);
    ASSERT_NEAR(json_number_value(json_array_get(json_object_get(r, "position"), 0)), -60,
                1e-3);
    json_decref(r);
    /* Without a world, scene rendering is refused. */
    ear_commands *fresh = NULL;
    ASSERT_OK(ear_commands_create(NULL, &fresh));
    err = NULL;
    ASSERT_NULL(run(fresh, "audio.render_offline", json_pack("{s:b}", "scene", 1), &err));
    ASSERT_STR_EQ(json_string_value(json_object_get(err, "code")), "E_STATE");
    json_decref(err);
    ear_commands_destroy(fresh);
    ear_commands_destroy(c);
}

/* A vehicle's sounds from the document: its engine loop at idle, pitched to idle_pitch; a
 * vehicle_sound on a body without a vehicle is refused. */
TEST(a_documents_vehicle_sound_runs_its_engine_loop) {
    ear_log_set(quiet, NULL, EAR_LOG_WARN);
    ear_commands *c = NULL;
    ASSERT_OK(ear_commands_create(NULL, &c));
    json_t *doc = parse(
        "{\"bodies\": [{\"name\": \"road\", \"shape\": \"box\", \"half_extents\": [50, 0.5, "
        "50], "
        "\"position\": [0, -0.5, 0], \"kind\": \"fixed\"},"
        "{\"name\": \"ear\", \"shape\": \"box\", \"half_extents\": [0.2, 0.2, 0.2], "
        "\"position\": [0, 0.75, 0], \"kind\": \"fixed\", \"listener\": {}},"
        "{\"name\": \"car\", \"shape\": \"box\", \"half_extents\": [1, 0.75, 2], "
        "\"position\": [0, 0.75, -6], \"kind\": \"kinematic\", \"mass\": 1200, \"vehicle\": {},"
        "\"vehicle_sound\": {\"engine\": \"synth:sine:100:1:0.5\", \"idle_pitch\": 1.5, "
        "\"model\": \"none\"}}]}");
    json_t *bad = json_deep_copy(doc);
    json_object_set_new(json_array_get(json_object_get(bad, "bodies"), 1), "vehicle_sound",
                        json_pack("{s:s}", "engine", "synth:sine:100:1:0.5"));
    json_t *err = NULL;
    ASSERT_NULL(run(c, "world.load", json_pack("{s:o}", "world", bad), &err));
    ASSERT_STR_EQ(where_of(err), "params.world.bodies[1].vehicle_sound");
    json_decref(err);
    json_t *r = run(c, "world.load", json_pack("{s:o}", "world", doc), &err);
    ASSERT_NOT_NULL(r);
    json_decref(r);
    r = run(c, "audio.render_offline", json_pack("{s:f, s:b}", "seconds", 0.5, "scene", 1),
            &err);
    ASSERT_NOT_NULL(r);
    json_decref(r);
    r = run(c, "audio.analyze", json_pack("{s:f, s:f}", "start", 0.1, "end", 0.5), &err);
    ASSERT_REL(json_number_value(json_object_get(r, "dominant_hz")), 150, 0.001);
    json_decref(r);
    ear_commands_destroy(c);
}

/* The bundled example as `earshot render` runs it: world.load, its commands, a render in
 * lockstep. `without` names a body left out of the world. */
static json_t *render_example(const char *without) {
    json_error_t e;
    json_t *doc = json_load_file(EAR_EXAMPLE_WORLD, 0, &e);
    if (!doc) return NULL;
    ear_commands *c = NULL;
    if (ear_commands_create(NULL, &c) != EAR_OK) return NULL;
    json_t *world = json_deep_copy(doc);
    json_object_del(world, "commands");
    json_object_del(world, "render");
    json_object_del(world, "description");
    json_t *bodies = json_object_get(world, "bodies");
    for (size_t i = 0; without && i < json_array_size(bodies); i++)
        if (strcmp(json_string_value(json_object_get(json_array_get(bodies, i), "name")),
                   without) == 0)
            json_array_remove(bodies, i);
    json_t *err = NULL, *result = NULL;
    json_t *r = run(c, "world.load", json_pack("{s:o}", "world", world), &err);
    bool ok = r != NULL;
    json_decref(r);
    size_t i;
    json_t *cmd;
    json_array_foreach(json_object_get(doc, "commands"), i, cmd) {
        if (!ok) break;
        r = ear_commands_run(c, json_string_value(json_object_get(cmd, "command")),
                             json_object_get(cmd, "params"), &err);
        ok = r != NULL;
        json_decref(r);
    }
    if (ok) {
        json_t *params = json_deep_copy(json_object_get(doc, "render"));
        json_object_set_new(params, "scene", json_true());
        result = run(c, "audio.render_offline", params, &err);
        /* The radio's level over 5..7 s, the car gone by. */
        json_t *a =
            run(c, "audio.analyze",
                json_pack("{s:f, s:f, s:f}", "start", 6.0, "end", 8.0, "tone", 330.0), &err);
        if (result && a)
            json_object_set(result, "radio",
                            json_object_get(json_object_get(a, "tone"), "amplitude"));
        json_decref(a);
    }
    if (!ok || !result) {
        fprintf(stderr, "example: %s\n", json_string_value(json_object_get(err, "message")));
        json_decref(err);
    }
    ear_commands_destroy(c);
    json_decref(doc);
    return result;
}

TEST(the_example_world_renders_with_its_hit_its_muffled_radio_and_one_hash) {
    ear_log_set(quiet, NULL, EAR_LOG_WARN);
    json_t *a = render_example(NULL), *b = render_example(NULL);
    json_t *open = render_example("wall");
    ASSERT_TRUE(a && b && open);
    ASSERT_STR_EQ(json_string_value(json_object_get(a, "hash")),
                  json_string_value(json_object_get(b, "hash")));
    ASSERT_EQ(json_integer_value(json_object_get(json_object_get(a, "world"), "steps")), 480);
    /* The crate falls 3 m: it lands after sqrt(2 * 3 / 9.81) = 0.78 s, in the 0.75..1.0 s
     * window of the 140 Hz tone, which is otherwise all but silent. */
    json_t *env =
        json_object_get(json_array_get(json_object_get(a, "tone_envelopes"), 0), "envelope");
    double peak = 0;
    size_t at = 0;
    for (size_t i = 0; i < json_array_size(env); i++) {
        double v = json_number_value(json_array_get(env, i));
        if (v > peak) peak = v, at = i;
    }
    ASSERT_EQ(at, 3);
    ASSERT_DBL_GT(peak, 10 * json_number_value(json_array_get(env, 2)));
    /* The radio behind its wall is muffled: its fundamental well below the open room's. */
    double muffled = json_number_value(json_object_get(a, "radio"));
    double clear = json_number_value(json_object_get(open, "radio"));
    ASSERT_DBL_GT(muffled, 0);
    ASSERT_DBL_LT(muffled, 0.5 * clear);
    /* No clicks: the largest step stays below what the loudest moments could make. */
    ASSERT_DBL_LT(json_number_value(json_object_get(a, "max_delta")),
                  json_number_value(json_object_get(a, "peak")));
    json_decref(a);
    json_decref(b);
    json_decref(open);
}

/* The RMS of one channel ("left" or "right") of the last render from 0.1 s to its end. */
static double channel_rms(ear_commands *c, const char *channel, double end_s) {
    json_t *err = NULL;
    json_t *r =
        run(c, "audio.analyze",
            json_pack("{s:s, s:f, s:f}", "channel", channel, "start", 0.1, "end", end_s), &err);
    double v = r ? json_number_value(json_object_get(r, "rms")) : -1;
    json_decref(r);
    json_decref(err);
    return v;
}

static const char *code_of(const json_t *err) {
    const char *s = json_string_value(json_object_get(err, "code"));
    return s ? s : "(none)";
}

/* world.follow, world.attach and world.once: the C API's shortcuts as commands. A sound
 * attached to a body at +X is heard on the right of the listener at the origin; following a
 * body beyond it puts the sound on the left; following nothing gives the ear back to the
 * listener. A finished one-shot is forgotten. once is true once per name. */
TEST(follow_attach_and_once_as_commands) {
    ear_log_set(quiet, NULL, EAR_LOG_WARN);
    ear_commands *c = NULL;
    ASSERT_OK(ear_commands_create(NULL, &c));
    json_t *err = NULL;
    json_t *asks[] = {json_pack("{s:s}", "body", "x"),
                      json_pack("{s:s, s:s}", "body", "x", "sound", "synth:sine:1"),
                      json_pack("{s:s}", "name", "x")};
    const char *names[] = {"world.follow", "world.attach", "world.once"};
    for (size_t i = 0; i < 3; i++) {
        err = NULL;
        ASSERT_NULL(run(c, names[i], asks[i], &err));
        ASSERT_STR_EQ(code_of(err), "E_STATE");
        ASSERT_STR_CONTAINS(json_string_value(json_object_get(err, "message")),
                            "load a world document (world.load) first");
        json_decref(err);
    }
    json_t *doc =
        parse("{\"gravity\": [0, 0, 0], \"bodies\": ["
              "{\"name\": \"ear\", \"shape\": \"box\", \"half_extents\": [0.2, 0.2, 0.2], "
              "\"position\": [0, 0, 0], \"kind\": \"fixed\", \"listener\": {}},"
              "{\"name\": \"post\", \"shape\": \"box\", \"half_extents\": [0.2, 0.2, 0.2], "
              "\"position\": [5, 0, 0], \"kind\": \"fixed\"},"
              "{\"name\": \"far\", \"shape\": \"box\", \"half_extents\": [0.2, 0.2, 0.2], "
              "\"position\": [10, 0, 0], \"kind\": \"fixed\"}]}");
    json_t *r = run(c, "world.load", json_pack("{s:o}", "world", doc), &err);
    ASSERT_NOT_NULL(r);
    json_decref(r);

    r = run(c, "world.attach",
            json_pack("{s:s, s:s, s:b, s:s}", "body", "post", "sound", "synth:sine:440:1",
                      "looping", 1, "model", "none"),
            &err);
    ASSERT_NOT_NULL(r);
    ASSERT_GT(json_integer_value(json_object_get(r, "voice")), 0);
    ASSERT_EQ(json_integer_value(json_object_get(r, "attached")), 1);
    json_decref(r);
    json_t *render = json_pack("{s:f, s:b}", "seconds", 0.5, "scene", 1);
    r = run(c, "audio.render_offline", json_incref(render), &err);
    ASSERT_NOT_NULL(r);
    json_decref(r);
    double left = channel_rms(c, "left", 0.5), right = channel_rms(c, "right", 0.5);
    ASSERT_DBL_GT(right, 4 * left);
    ASSERT_DBL_GT(right, 0.1);

    r = run(c, "world.follow", json_pack("{s:s}", "body", "far"), &err);
    ASSERT_NOT_NULL(r);
    ASSERT_STR_EQ(json_string_value(json_object_get(r, "following")), "far");
    json_decref(r);
    r = run(c, "audio.render_offline", json_incref(render), &err);
    json_decref(r);
    double left2 = channel_rms(c, "left", 0.5), right2 = channel_rms(c, "right", 0.5);
    ASSERT_DBL_GT(left2, 4 * right2);
    /* Mirrored: the same sound at the same distance (no attenuation) on the other side. */
    ASSERT_NEAR(left2, right, 0.01 * right);

    r = run(c, "world.follow", json_object(), &err);
    ASSERT_NOT_NULL(r);
    ASSERT_TRUE(json_is_null(json_object_get(r, "following")));
    json_decref(r);
    r = run(c, "audio.render_offline", json_incref(render), &err);
    json_decref(r);
    ASSERT_DBL_GT(channel_rms(c, "right", 0.5), 4 * channel_rms(c, "left", 0.5));

    /* A one-shot of 0.1 s is tracked, then forgotten once it has ended. */
    r = run(c, "world.attach",
            json_pack("{s:s, s:s}", "body", "far", "sound", "synth:square:200:0.1"), &err);
    ASSERT_EQ(json_integer_value(json_object_get(r, "attached")), 2);
    json_decref(r);
    r = run(c, "audio.render_offline", json_incref(render), &err);
    json_decref(r);
    r = run(c, "world.attach",
            json_pack("{s:s, s:s}", "body", "far", "sound", "synth:square:300:0.1"), &err);
    ASSERT_EQ(json_integer_value(json_object_get(r, "attached")), 2);
    json_decref(r);

    /* once: per name, per audio world. */
    r = run(c, "world.once", json_pack("{s:s}", "name", "hint.door"), &err);
    ASSERT_TRUE(json_is_true(json_object_get(r, "first")));
    json_decref(r);
    r = run(c, "world.once", json_pack("{s:s}", "name", "hint.door"), &err);
    ASSERT_TRUE(json_is_false(json_object_get(r, "first")));
    json_decref(r);
    r = run(c, "world.once", json_pack("{s:s}", "name", "hint.stairs"), &err);
    ASSERT_TRUE(json_is_true(json_object_get(r, "first")));
    json_decref(r);

    /* Unknown bodies and sounds say so, naming the param. */
    err = NULL;
    ASSERT_NULL(run(c, "world.follow", json_pack("{s:s}", "body", "ghost"), &err));
    ASSERT_STR_EQ(code_of(err), "E_NOT_FOUND");
    ASSERT_STR_EQ(where_of(err), "params.body");
    json_decref(err);
    err = NULL;
    ASSERT_NULL(
        run(c, "world.attach", json_pack("{s:s, s:s}", "body", "ghost", "sound", "x"), &err));
    ASSERT_STR_EQ(where_of(err), "params.body");
    json_decref(err);
    err = NULL;
    ASSERT_NULL(
        run(c, "world.attach", json_pack("{s:s, s:s}", "body", "far", "sound", "ghost"), &err));
    ASSERT_STR_EQ(code_of(err), "E_NOT_FOUND");
    ASSERT_STR_EQ(where_of(err), "params.sound");
    json_decref(err);
    json_decref(render);
    ear_commands_destroy(c);
}

/* A world document with its own rooms and ear: "zones" (a cave, a nook in it with a higher
 * priority and a room of its own fields) and "follow" (the ear rides "walker", inside both);
 * one step later audio.status says the ear is in the nook and the stage's room is the
 * nook's. Bad zones and follows name their field and change nothing. */
static json_t *rooms_doc(const char *zones, const char *follow) {
    char text[3072];
    snprintf(text, sizeof text,
             "{\"gravity\": [0, 0, 0], \"bodies\": ["
             "{\"name\": \"post\", \"shape\": \"box\", \"half_extents\": [0.2, 0.2, 0.2], "
             "\"position\": [0, 0, 0], \"kind\": \"fixed\", \"listener\": {}},"
             "{\"name\": \"walker\", \"shape\": \"box\", \"half_extents\": [0.3, 0.5, 0.3], "
             "\"position\": [5, 0, 0], \"kind\": \"kinematic\"}],"
             "\"zones\": %s, \"follow\": %s}",
             zones, follow);
    return parse(text);
}

static json_t *reverb_status(ear_commands *c) {
    json_t *err = NULL;
    json_t *st = run(c, "audio.status", json_object(), &err);
    json_decref(err);
    json_t *rv = json_incref(json_object_get(st, "reverb"));
    json_decref(st);
    return rv;
}

TEST(a_documents_zones_and_follow_set_the_room) {
    ear_log_set(quiet, NULL, EAR_LOG_WARN);
    ear_commands *c = NULL;
    ASSERT_OK(ear_commands_create(NULL, &c));
    const char *good = "[{\"name\": \"cave\", \"min\": [2, -2, -2], \"max\": [8, 2, 2], "
                       "\"preset\": \"cave\"},"
                       "{\"name\": \"nook\", \"min\": [4, -1, -1], \"max\": [6, 1, 1], "
                       "\"preset\": \"room\", \"wet\": 0.5, \"priority\": 1, "
                       "\"transition\": 0.5}]";
    json_t *err = NULL;
    json_t *r =
        run(c, "world.load", json_pack("{s:o}", "world", rooms_doc(good, "\"walker\"")), &err);
    ASSERT_NOT_NULL(r);
    json_decref(r);
    r = run(c, "world.step", json_pack("{s:i}", "steps", 1), &err);
    ASSERT_NOT_NULL(r);
    json_decref(r);
    json_t *rv = reverb_status(c);
    ASSERT_EQ(json_array_size(json_object_get(rv, "zones")), 2);
    ASSERT_STR_EQ(json_string_value(json_object_get(rv, "zone")), "nook");
    const json_t *nook = json_array_get(json_object_get(rv, "zones"), 1);
    ASSERT_EQ(json_integer_value(json_object_get(nook, "priority")), 1);
    ASSERT_NEAR(json_number_value(json_object_get(nook, "transition")), 0.5, 1e-6);
    ear_reverb_params room;
    ASSERT_OK(ear_reverb_preset_params(EAR_REVERB_ROOM, &room));
    const json_t *now = json_object_get(rv, "room");
    ASSERT_NEAR(json_number_value(json_object_get(now, "wet")), 0.5, 1e-6);
    ASSERT_NEAR(json_number_value(json_object_get(now, "rt60_low_s")), room.rt60_low_s, 1e-6);
    json_decref(rv);
    struct {
        const char *zones, *follow, *where;
    } bad[] = {
        {"5", "null", "params.world.zones"},
        {"[7]", "\"walker\"", "params.world.zones[0]"},
        {"[{\"name\": \"a\", \"min\": [0, 0, 0]}]", "\"walker\"", "params.world.zones[0].max"},
        {"[{\"name\": \"a\", \"min\": [0, \"y\", 0], \"max\": [1, 1, 1]}]", "\"walker\"",
         "params.world.zones[0].min[1]"},
        {"[{\"name\": \"a\", \"min\": [2, 0, 0], \"max\": [1, 1, 1]}]", "\"walker\"",
         "params.world.zones[0].max"},
        {"[{\"min\": [0, 0, 0], \"max\": [1, 1, 1]}]", "\"walker\"",
         "params.world.zones[0].name"},
        {"[{\"name\": \"a\", \"min\": [0, 0, 0], \"max\": [1, 1, 1], \"preset\": \"castle\"}]",
         "\"walker\"", "params.world.zones[0].preset"},
        {"[{\"name\": \"a\", \"min\": [0, 0, 0], \"max\": [1, 1, 1], \"colour\": 1}]",
         "\"walker\"", "params.world.zones[0].colour"},
        {"[{\"name\": \"a\", \"min\": [0, 0, 0], \"max\": [1, 1, 1], \"rt60_low_s\": 50}]",
         "\"walker\"", "params.world.zones[0].rt60_low_s"},
        {"[{\"name\": \"a\", \"min\": [0, 0, 0], \"max\": [1, 1, 1], \"priority\": 0.5}]",
         "\"walker\"", "params.world.zones[0].priority"},
        {"[{\"name\": \"a\", \"min\": [0, 0, 0], \"max\": [1, 1, 1]},"
         "{\"name\": \"a\", \"min\": [0, 0, 0], \"max\": [2, 2, 2]}]",
         "\"walker\"", "params.world.zones[1].name"},
        {"[]", "\"nobody\"", "params.world.follow"},
        {"[]", "3", "params.world.follow"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err = NULL;
        r = run(c, "world.load",
                json_pack("{s:o}", "world", rooms_doc(bad[i].zones, bad[i].follow)), &err);
        ASSERT_NULL(r);
        ASSERT_STR_EQ(code_of(err), "E_BAD_PARAM");
        ASSERT_STR_EQ(where_of(err), bad[i].where);
        json_decref(err);
    }
    /* nothing changed: the same zones, the ear still in the nook */
    rv = reverb_status(c);
    ASSERT_EQ(json_array_size(json_object_get(rv, "zones")), 2);
    ASSERT_STR_EQ(json_string_value(json_object_get(rv, "zone")), "nook");
    json_decref(rv);
    ear_commands_destroy(c);
}

/* Rays are in the work budget (issue 24): world.ray casts three, and the audio world's
 * occlusion rays count while a command steps the world; past either budget is E_TOO_BIG
 * naming "ray casts per command" or "per session", and the session goes on. */
TEST(ray_casts_are_budgeted_per_command_and_session) {
    ear_log_set(quiet, NULL, EAR_LOG_WARN);
    ear_commands_config config = ear_commands_config_default();
    config.max_command_rays = 40;
    config.max_session_rays = 100;
    ear_commands *c = NULL;
    ASSERT_OK(ear_commands_create(&config, &c));
    json_t *err = NULL;
    json_t *r =
        run(c, "world.load",
            json_pack("{s:o}", "world",
                      doc_with("{\"sound\": \"synth:sine:500:1:0.5\", \"looping\": true, "
                               "\"occlusion\": true}")),
            &err);
    ASSERT_NOT_NULL(r);
    json_decref(r);
    /* 30 steps with one occluded source: 30 rays (a ray a step), within 40. */
    r = run(c, "world.step", json_pack("{s:i}", "steps", 30), &err);
    ASSERT_NOT_NULL(r);
    json_decref(r);
    ASSERT_EQ(ear_commands_get_work(c).rays, 30u);
    /* 50 more: the 41st ray of one command stops it. */
    r = run(c, "world.step", json_pack("{s:i}", "steps", 50), &err);
    ASSERT_NULL(r);
    ASSERT_STR_EQ(json_string_value(json_object_get(err, "code")), "E_TOO_BIG");
    ASSERT_STR_EQ(json_string_value(json_object_get(err, "budget")), "ray casts");
    ASSERT_STR_CONTAINS(json_string_value(json_object_get(err, "message")), "per command");
    json_decref(err);
    err = NULL;
    uint64_t rays = ear_commands_get_work(c).rays;
    ASSERT_EQ(rays, 71u);
    /* world.ray: three casts a command, until the session's 100 are spent. */
    int rays_ok = 0;
    for (int i = 0; i < 20; i++) {
        r = run(
            c, "world.ray",
            json_pack("{s:[f,f,f], s:[f,f,f]}", "from", 0.0, 0.0, 0.0, "to", 10.0, 0.0, 0.0),
            &err);
        if (!r) break;
        json_decref(r);
        rays_ok++;
    }
    ASSERT_EQ(rays_ok, (int)((100 - rays) / 3));
    ASSERT_NOT_NULL(err);
    ASSERT_STR_EQ(where_of(err), "params.from");
    ASSERT_STR_CONTAINS(json_string_value(json_object_get(err, "message")),
                        "ray casts per session");
    json_decref(err);
    err = NULL;
    r = run(c, "world.status", json_object(), &err);
    ASSERT_NOT_NULL(r); /* the session goes on */
    json_decref(r);
    ear_commands_destroy(c);
    ear_log_set(NULL, NULL, EAR_LOG_WARN);
}

TEST_MAIN(TEST_ENTRY(bad_components_name_their_field_and_change_nothing),
          TEST_ENTRY(render_offline_scene_steps_the_world_in_lockstep),
          TEST_ENTRY(a_documents_vehicle_sound_runs_its_engine_loop),
          TEST_ENTRY(the_example_world_renders_with_its_hit_its_muffled_radio_and_one_hash),
          TEST_ENTRY(follow_attach_and_once_as_commands),
          TEST_ENTRY(a_documents_zones_and_follow_set_the_room),
          TEST_ENTRY(ray_casts_are_budgeted_per_command_and_session))
