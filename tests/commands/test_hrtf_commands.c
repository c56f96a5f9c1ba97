/* SPDX-License-Identifier: Zlib */
/*
 * audio.hrtf.load and the spatializer params through serve: errors that change nothing
 * (a missing file, a file that is not SOFA, a file outside the allowed folders), the set
 * reported by audio.status, and HRTF heard where pan cannot tell: a source in front and
 * the same source behind (behind cue off) render alike when panned and differently
 * through the KEMAR set (5 kHz: the pinna makes the front louder).
 */
#define _POSIX_C_SOURCE 200809L
#include "earshot/commands.h"
#include "test.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

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

/* Issue 24: KEMAR's 1.17 MB file with every dataspace dimension of 710 (its directions)
 * declared as 32,000 took 276 MB to load at --memory-mb 64. Now it is refused from what it
 * declares, before libmysofa reads it, in well under a second, and nothing changes. */
TEST(declared_directions_past_the_budget_are_refused_at_once) {
    ear_log_set(quiet, NULL, EAR_LOG_WARN);
    char *data = NULL;
    size_t n = 0;
    ASSERT_OK(ear_file_read("/usr/share/libmysofa/default.sofa", EAR_FILE_MAX_HRTF_BYTES, NULL,
                            &data, &n, NULL, 0));
    int patched = 0;
    unsigned char *d = (unsigned char *)data;
    for (size_t i = 0; i + 8 < n; i++) {
        /* A version 1 dataspace: 1, rank, flags, five zeros; its dimensions (and maxima). */
        if (d[i] != 1 || d[i + 1] < 1 || d[i + 1] > 3 || d[i + 2] > 1 || d[i + 3] || d[i + 4] ||
            d[i + 5] || d[i + 6] || d[i + 7])
            continue;
        size_t count = (size_t)d[i + 1] * (d[i + 2] ? 2u : 1u);
        for (size_t k = 0; k < count && i + 16 + 8 * k <= n; k++) {
            unsigned char *v = d + i + 8 + 8 * k;
            if (v[0] == 0xc6 && v[1] == 0x02 && !v[2] && !v[3] && !v[4] && !v[5] && !v[6] &&
                !v[7]) {
                v[0] = 0x00; /* 32000 = 0x7d00 */
                v[1] = 0x7d;
                patched++;
            }
        }
    }
    ASSERT_EQ(patched, 6); /* M's own dataset, and M in SourcePosition, Data.IR, each twice */
    const char *path = EAR_BUILD_DIR "/ear_hrtf_32000.sofa";
    FILE *f = fopen(path, "wb");
    ASSERT_TRUE(f != NULL);
    ASSERT_EQ(fwrite(data, 1, n, f), n);
    ASSERT_EQ(fclose(f), 0);
    free(data);

    ear_commands_config config = ear_commands_config_default();
    config.max_memory_bytes = (uint64_t)64 << 20;
    ear_commands *c = NULL;
    ASSERT_EQ(ear_commands_create(&config, &c), EAR_OK);
    ear_commands_memory before = ear_commands_get_memory(c);
    json_t *r =
        serve(c, "{\"command\": \"audio.hrtf.load\", \"params\": {\"path\": \"" EAR_BUILD_DIR
                 "/ear_hrtf_32000.sofa\"}}");
    ASSERT_STR_EQ(code(r), "E_TOO_BIG");
    json_t *e = json_object_get(r, "error");
    ASSERT_STR_CONTAINS(json_string_value(json_object_get(e, "message")),
                        "libmysofa did not read it");
    /* 32,000 x 2 x 512 elements of Data.IR at 8 bytes, and more. */
    ASSERT_GE(json_integer_value(json_object_get(e, "needed_bytes")), 32000LL * 2 * 512 * 8);
    json_decref(r);
    /* Nothing but the request's own line was counted. */
    ASSERT_LT(ear_commands_get_memory(c).peak_bytes, before.peak_bytes + 65536);
    r = serve(c, "{\"command\": \"audio.status\"}");
    ASSERT_TRUE(json_is_false(json_object_get(json_object_get(result(r), "hrtf"), "loaded")));
    json_decref(r);
    ear_commands_destroy(c);
    remove(path);
    ear_log_set(NULL, NULL, EAR_LOG_WARN);
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
    /* The set counts in the budget: the stage's bank of it (two 112-tap filters for each
     * of 710 directions, at least), libmysofa's load (Data.IR alone is 710 x 2 x 512
     * floats) as the load's peak; the set itself is freed once the stage has its bank. */
    json_t *mem = json_object_get(result(r), "memory");
    json_t *parts = json_object_get(mem, "parts");
    ASSERT_GE(json_integer_value(json_object_get(parts, "stage")), 710 * 112 * 2 * 4);
    ASSERT_EQ(json_integer_value(json_object_get(parts, "hrtf")), 0);
    ASSERT_GE(json_integer_value(json_object_get(mem, "hrtf_load_peak_bytes")),
              710 * 2 * 512 * 4);
    ASSERT_GE(json_integer_value(json_object_get(mem, "peak_bytes")),
              json_integer_value(json_object_get(mem, "hrtf_load_peak_bytes")));
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
          TEST_ENTRY(declared_directions_past_the_budget_are_refused_at_once),
          TEST_ENTRY(hrtf_tells_front_from_back_where_pan_cannot),
          TEST_ENTRY(an_hrtf_voice_sends_to_the_room))
