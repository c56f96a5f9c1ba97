/* SPDX-License-Identifier: Zlib */
/*
 * The room reverb through the commands: a short tone played with reverb_send rings on
 * after it ends (measured by audio.analyze) and without it is silence; audio.voice.set
 * changes the send; audio.reverb.set sets the room, a bus's send and a world's zones, and
 * audio.status reports them; bad requests name their field and change nothing.
 */
#include "earshot/commands.h"
#include "test.h"

#include <math.h>

static json_t *run(ear_commands *c, const char *name, json_t *params, json_t **err) {
    json_t *r = ear_commands_run(c, name, params, err);
    json_decref(params);
    return r;
}

static json_t *parse(const char *text) {
    json_error_t e;
    json_t *v = json_loads(text, 0, &e);
    if (!v) fprintf(stderr, "test JSON: line %d: %s\n", e.line, e.text);
    return v;
}

/* RMS of the mix from t0 to t1 s of the last render. */
static double rms(ear_commands *c, double t0, double t1) {
    json_t *err = NULL;
    json_t *r =
        run(c, "audio.analyze",
            json_pack("{s:f, s:f, s:s}", "start", t0, "end", t1, "channel", "mix"), &err);
    double v = r ? json_number_value(json_object_get(r, "rms")) : -1.0;
    json_decref(r);
    json_decref(err);
    return v;
}

/* A 0.1 s tone with this send, rendered for 1 s: the RMS from 0.3 to 0.6 s (the tone is
 * over by 0.1 s, the room's tail is not). */
static double tail_after(double send) {
    ear_commands *c = NULL;
    if (ear_commands_create(NULL, &c) != EAR_OK) return -1.0;
    json_t *err = NULL;
    json_decref(
        run(c, "audio.reverb.set", parse("{\"preset\": \"hall\", \"transition\": 0}"), &err));
    json_decref(run(
        c, "audio.play",
        json_pack("{s:s, s:f}", "sound", "synth:sine:500:0.1:0.5", "reverb_send", send), &err));
    json_decref(run(c, "audio.render_offline", parse("{\"seconds\": 1}"), &err));
    double v = rms(c, 0.3, 0.6);
    ear_commands_destroy(c);
    return v;
}

TEST(reverb_send_rings_on_after_the_sound) {
    double dry = tail_after(0.0), wet = tail_after(1.0);
    printf("  RMS 0.3..0.6 s: send 0 %.3g, send 1 %.3g\n", dry, wet);
    ASSERT_DBL_LE(dry, 0.0);
    ASSERT_DBL_GT(wet, 1e-3);
}

TEST(voice_set_changes_the_send) {
    ear_commands *c = NULL;
    ASSERT_OK(ear_commands_create(NULL, &c));
    json_t *err = NULL;
    json_t *r = run(c, "audio.play",
                    parse("{\"sound\": \"synth:sine:500:0.1:0.5\", \"looping\": true}"), &err);
    ASSERT_NOT_NULL(r);
    json_int_t voice = json_integer_value(json_object_get(r, "voice"));
    json_decref(r);
    r = run(c, "audio.voice.set", json_pack("{s:I, s:f}", "voice", voice, "reverb_send", 0.8),
            &err);
    ASSERT_NOT_NULL(r);
    json_decref(r);
    json_decref(run(c, "audio.render_offline", parse("{\"seconds\": 0.5}"), &err));
    r = run(c, "audio.stop", json_pack("{s:I}", "voice", voice), &err);
    json_decref(r);
    json_decref(run(c, "audio.render_offline", parse("{\"seconds\": 0.5}"), &err));
    /* The voice stopped at the start of this render; its tail is still there. */
    ASSERT_DBL_GT(rms(c, 0.1, 0.4), 1e-3);
    ear_commands_destroy(c);
}

TEST(rooms_sends_and_zones_and_their_status) {
    ear_commands *c = NULL;
    ASSERT_OK(ear_commands_create(NULL, &c));
    json_t *err = NULL;
    json_t *r =
        run(c, "audio.reverb.set", parse("{\"preset\": \"cave\", \"wet\": 0.25}"), &err);
    ASSERT_NOT_NULL(r);
    ASSERT_REL(json_number_value(json_object_get(json_object_get(r, "room"), "rt60_low_s")),
               3.5, 1e-6);
    ASSERT_REL(json_number_value(json_object_get(json_object_get(r, "room"), "wet")), 0.25,
               1e-6);
    json_decref(r);
    /* Fields without a preset change the current room only where given. */
    r = run(c, "audio.reverb.set", parse("{\"rt60_high_s\": 1.25}"), &err);
    ASSERT_REL(json_number_value(json_object_get(json_object_get(r, "room"), "rt60_low_s")),
               3.5, 1e-6);
    json_decref(r);
    r = run(c, "audio.reverb.set", parse("{\"bus\": \"music\", \"send\": 0.5}"), &err);
    ASSERT_NOT_NULL(r);
    json_decref(r);
    /* Refusals name their field. */
    struct {
        const char *params, *code, *where;
    } bad[] = {
        {"{\"send\": 0.5}", "E_BAD_PARAM", "params.send"},
        {"{\"bus\": \"sfx\"}", "E_BAD_PARAM", "params.send"},
        {"{\"bus\": \"sfx\", \"send\": 0.1, \"preset\": \"hall\"}", "E_BAD_PARAM",
         "params.bus"},
        {"{\"size\": 9}", "E_BAD_PARAM", "params.size"},
        {"{\"preset\": \"bathroom\"}", "E_BAD_PARAM", "params.preset"},
        {"{\"min\": [0, 0, 0]}", "E_BAD_PARAM", "params.min"},
        {"{\"zone\": \"z\", \"preset\": \"hall\"}", "E_STATE", "params.zone"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err = NULL;
        r = run(c, "audio.reverb.set", parse(bad[i].params), &err);
        ASSERT_NULL(r);
        ASSERT_STR_EQ(json_string_value(json_object_get(err, "code")), bad[i].code);
        ASSERT_STR_EQ(json_string_value(json_object_get(err, "where")), bad[i].where);
        json_decref(err);
    }
    /* A world with the listener inside a zone. */
    err = NULL;
    r = run(c, "world.load",
            parse("{\"world\": {\"gravity\": [0, 0, 0], \"bodies\": [{\"name\": \"ear\", "
                  "\"shape\": \"box\", \"half_extents\": [0.2, 0.2, 0.2], \"position\": [1, "
                  "1, 1], \"kind\": \"fixed\", \"listener\": {}}]}}"),
            &err);
    ASSERT_NOT_NULL(r);
    json_decref(r);
    r = run(c, "audio.reverb.set", parse("{\"zone\": \"tunnel\", \"preset\": \"corridor\"}"),
            &err);
    ASSERT_NULL(r); /* a new zone needs its box */
    ASSERT_STR_EQ(json_string_value(json_object_get(err, "where")), "params.min");
    json_decref(err);
    err = NULL;
    r = run(c, "audio.reverb.set",
            parse("{\"zone\": \"tunnel\", \"min\": [0, 0, 0], \"max\": [4, 3, 40], "
                  "\"preset\": \"corridor\", \"rt60_low_s\": 1.8}"),
            &err);
    ASSERT_NOT_NULL(r);
    json_decref(r);
    r = run(c, "audio.reverb.set",
            parse("{\"zone\": \"tunnel\", \"min\": [5, 0, 0], \"max\": [4, 3, 40]}"), &err);
    ASSERT_NULL(r); /* min above max */
    json_decref(err);
    err = NULL;
    json_decref(run(c, "world.step", parse("{\"steps\": 1}"), &err));
    json_t *st = run(c, "audio.status", json_object(), &err);
    json_t *rv = json_object_get(st, "reverb");
    ASSERT_STR_EQ(json_string_value(json_object_get(rv, "zone")), "tunnel");
    ASSERT_EQ(json_array_size(json_object_get(rv, "zones")), 1u);
    ASSERT_REL(json_number_value(json_object_get(json_object_get(rv, "room"), "rt60_low_s")),
               1.8, 1e-6);
    ASSERT_REL(json_number_value(json_object_get(json_object_get(rv, "sends"), "music")), 0.5,
               1e-6);
    json_decref(st);
    r = run(c, "audio.reverb.set", parse("{\"zone\": \"tunnel\", \"remove\": true}"), &err);
    ASSERT_NOT_NULL(r);
    json_decref(r);
    json_decref(run(c, "world.step", parse("{\"steps\": 1}"), &err));
    st = run(c, "audio.status", json_object(), &err);
    rv = json_object_get(st, "reverb");
    ASSERT_TRUE(json_is_null(json_object_get(rv, "zone")) || !json_object_get(rv, "zone"));
    /* Out of the zone: the cave from before, with its rt60_high_s 1.25. */
    ASSERT_REL(json_number_value(json_object_get(json_object_get(rv, "room"), "rt60_high_s")),
               1.25, 1e-6);
    json_decref(st);
    ear_commands_destroy(c);
}

TEST_MAIN(TEST_ENTRY(reverb_send_rings_on_after_the_sound),
          TEST_ENTRY(voice_set_changes_the_send),
          TEST_ENTRY(rooms_sends_and_zones_and_their_status))
