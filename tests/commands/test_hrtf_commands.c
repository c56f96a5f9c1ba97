/* SPDX-License-Identifier: Zlib */
/*
 * audio.hrtf.load and the spatializer params through serve: errors that change nothing
 * (a missing file, a file that is not SOFA, a file outside the allowed folders), the set
 * reported by audio.status, and HRTF heard where pan cannot tell: a source in front and
 * the same source behind (behind cue off) render alike when panned and differently
 * through the KEMAR set (5 kHz: the pinna makes the front louder).
 */
#include "earshot/commands.h"
#include "test.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static json_t *serve(ear_commands *c, const char *line) {
    char *text = ear_commands_serve_line(c, line, strlen(line));
    json_t *reply = text ? json_loads(text, 0, NULL) : NULL;
    free(text);
    return reply;
}

static const char *code(json_t *reply) {
    const char *s = json_string_value(json_object_get(json_object_get(reply, "error"), "code"));
    return s ? s : "(none)";
}

static json_t *result(json_t *reply) {
    return json_object_get(reply, "result");
}

static void quiet(void *user, ear_log_level level, const char *module, const char *message) {
    (void)level, (void)module, (void)message, (void)user;
}

/* RMS of the left and right ears over a render of `seconds`. */
static void render_rms(ear_commands *c, double *l, double *r) {
    json_t *reply =
        serve(c, "{\"command\": \"audio.render_offline\", \"params\": {\"seconds\": 0.3}}");
    json_t *rms = json_object_get(result(reply), "rms");
    *l = json_number_value(json_object_get(rms, "left"));
    *r = json_number_value(json_object_get(rms, "right"));
    json_decref(reply);
}

TEST(load_errors_change_nothing) {
    ear_log_set(quiet, NULL, EAR_LOG_WARN);
    ear_commands *c = NULL;
    ASSERT_EQ(ear_commands_create(NULL, &c), EAR_OK);
    json_t *r = serve(c, "{\"command\": \"audio.hrtf.load\", \"params\": {\"path\": "
                         "\"/nonexistent/kemar.sofa\"}}");
    ASSERT_STR_EQ(code(r), "E_NOT_FOUND");
    json_decref(r);
    r = serve(c, "{\"command\": \"audio.hrtf.load\", \"params\": {\"path\": \"" EAR_NOT_SOFA
                 "\"}}");
    ASSERT_STR_EQ(code(r), "E_BAD_PARAM");
    const char *msg =
        json_string_value(json_object_get(json_object_get(r, "error"), "message"));
    ASSERT_STR_CONTAINS(msg, "not a SOFA");
    json_decref(r);
    r = serve(c, "{\"command\": \"audio.hrtf.load\", \"params\": {\"path\": \"x\", \"taps\": "
                 "4}}");
    ASSERT_STR_EQ(code(r), "E_BAD_PARAM");
    json_decref(r);
    r = serve(c, "{\"command\": \"audio.status\"}");
    json_t *h = json_object_get(result(r), "hrtf");
    ASSERT_TRUE(json_is_false(json_object_get(h, "loaded")));
    ASSERT_STR_EQ(json_string_value(json_object_get(h, "spatializer")), "pan");
    json_decref(r);
    ear_commands_destroy(c);

    /* Confined to a folder that does not hold the set: answered as missing. */
    ear_commands_config config = ear_commands_config_default();
    config.confine_paths = true;
    const char *roots[] = {EAR_BUILD_DIR};
    config.allowed_roots = roots;
    config.allowed_root_count = 1;
    ASSERT_EQ(ear_commands_create(&config, &c), EAR_OK);
    r = serve(c, "{\"command\": \"audio.hrtf.load\", \"params\": {\"path\": "
                 "\"/usr/share/libmysofa/default.sofa\"}}");
    ASSERT_STR_EQ(code(r), "E_NOT_FOUND");
    json_decref(r);
    ear_commands_destroy(c);
}

TEST(hrtf_tells_front_from_back_where_pan_cannot) {
    ear_log_set(quiet, NULL, EAR_LOG_WARN);
    ear_commands *c = NULL;
    ASSERT_EQ(ear_commands_create(NULL, &c), EAR_OK);
    json_t *r = serve(c, "{\"command\": \"audio.hrtf.load\", \"params\": {\"path\": "
                         "\"/usr/share/libmysofa/default.sofa\"}}");
    ASSERT_TRUE(json_is_true(json_object_get(r, "ok")));
    ASSERT_EQ(json_integer_value(json_object_get(result(r), "directions")), 710);
    ASSERT_EQ(json_integer_value(json_object_get(result(r), "taps")), 112);
    ASSERT_EQ(json_integer_value(json_object_get(result(r), "filter_taps")), 120);
    /* 160-frame blocks and KEMAR's 159 frames of reach: one transform of 320 a block */
    ASSERT_EQ(json_integer_value(json_object_get(result(r), "fft_length")), 320);
    ASSERT_EQ(json_integer_value(json_object_get(result(r), "fft_parts")), 1);
    ASSERT_STR_EQ(json_string_value(json_object_get(result(r), "spatializer")), "hrtf");
    json_decref(r);
    r = serve(c, "{\"command\": \"audio.status\"}");
    json_t *h = json_object_get(result(r), "hrtf");
    ASSERT_TRUE(json_is_true(json_object_get(h, "loaded")));
    ASSERT_STR_EQ(json_string_value(json_object_get(h, "source")),
                  "/usr/share/libmysofa/default.sofa");
    ASSERT_EQ(json_integer_value(json_object_get(h, "sample_rate")), 48000);
    json_decref(r);
    r = serve(c, "{\"command\": \"audio.play\", \"params\": {\"sound\": \"synth:sine:5000:5\", "
                 "\"looping\": true, \"position\": [0, 0, -2], \"model\": \"none\", "
                 "\"no_behind_cue\": true, \"spatializer\": \"hrtf\"}}");
    ASSERT_TRUE(json_is_true(json_object_get(r, "ok")));
    json_int_t voice = json_integer_value(json_object_get(result(r), "voice"));
    json_decref(r);
    double fl, fr, bl, br;
    render_rms(c, &fl, &fr);
    char line[256];
    snprintf(line, sizeof line,
             "{\"command\": \"audio.voice.set\", \"params\": {\"voice\": %lld, \"position\": "
             "[0, 0, 2]}}",
             (long long)voice);
    json_decref(serve(c, line));
    render_rms(c, &bl, &br);
    double hrtf_db = 20.0 * log10((fl + fr) / (bl + br));
    snprintf(
        line, sizeof line,
        "{\"command\": \"audio.voice.set\", \"params\": {\"voice\": %lld, \"spatializer\": "
        "\"pan\", \"position\": [0, 0, -2]}}",
        (long long)voice);
    json_decref(serve(c, line));
    render_rms(c, &fl, &fr); /* the first block crossfades from the HRTF */
    render_rms(c, &fl, &fr);
    snprintf(line, sizeof line,
             "{\"command\": \"audio.voice.set\", \"params\": {\"voice\": %lld, \"position\": "
             "[0, 0, 2]}}",
             (long long)voice);
    json_decref(serve(c, line));
    render_rms(c, &bl, &br);
    double pan_db = 20.0 * log10((fl + fr) / (bl + br));
    fprintf(stderr, "5 kHz front over back: hrtf %.2f dB, pan %.4f dB\n", hrtf_db, pan_db);
    ASSERT_DBL_GT(fabs(hrtf_db), 1.5); /* measured 2.34 dB */
    ASSERT_DBL_LT(fabs(pan_db), 0.05);
    snprintf(
        line, sizeof line,
        "{\"command\": \"audio.voice.set\", \"params\": {\"voice\": %lld, \"spatializer\": "
        "\"stereo\"}}",
        (long long)voice);
    r = serve(c, line);
    ASSERT_STR_EQ(code(r), "E_BAD_PARAM");
    json_decref(r);
    ear_commands_destroy(c);
}

/* An HRTF voice with a reverb send: its dry part goes through the HRTF, its send feeds the
 * room, whose tail rings on after the voice stops. */
TEST(an_hrtf_voice_sends_to_the_room) {
    ear_log_set(quiet, NULL, EAR_LOG_WARN);
    ear_commands *c = NULL;
    ASSERT_EQ(ear_commands_create(NULL, &c), EAR_OK);
    json_t *r = serve(c, "{\"command\": \"audio.hrtf.load\", \"params\": {\"path\": "
                         "\"/usr/share/libmysofa/default.sofa\"}}");
    ASSERT_TRUE(json_is_true(json_object_get(r, "ok")));
    json_decref(r);
    r = serve(c, "{\"command\": \"audio.reverb.set\", \"params\": {\"preset\": \"hall\"}}");
    ASSERT_TRUE(json_is_true(json_object_get(r, "ok")));
    json_decref(r);
    r = serve(c,
              "{\"command\": \"audio.play\", \"params\": {\"sound\": \"synth:sine:700:0.2\", "
              "\"position\": [-1, 0, -1], \"model\": \"none\", \"reverb_send\": 0.8, "
              "\"spatializer\": \"hrtf\"}}");
    ASSERT_TRUE(json_is_true(json_object_get(r, "ok")));
    json_decref(r);
    double l, rr;
    render_rms(c, &l, &rr); /* 0.3 s: the tone, then the tail */
    ASSERT_TRUE(isfinite(l) && isfinite(rr));
    ASSERT_DBL_GT(l, rr); /* from the left front */
    r = serve(c, "{\"command\": \"audio.analyze\", \"params\": {\"start\": 0.22, \"channel\": "
                 "\"left\"}}");
    double tail = json_number_value(json_object_get(json_object_get(r, "result"), "rms"));
    json_decref(r);
    fprintf(stderr, "hrtf + hall: rms left %.4f right %.4f, tail after the tone %.5f\n", l, rr,
            tail);
    ASSERT_DBL_GT(tail, 1e-4);
    ear_commands_destroy(c);
}

TEST_MAIN(TEST_ENTRY(load_errors_change_nothing),
          TEST_ENTRY(hrtf_tells_front_from_back_where_pan_cannot),
          TEST_ENTRY(an_hrtf_voice_sends_to_the_room))
