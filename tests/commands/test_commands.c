/* SPDX-License-Identifier: Zlib */
/*
 * The command registry through the serve front end (one JSON line in, one out), MCP's
 * messages, and the schemas against docs/commands.md's examples. Every check reads a
 * value out of the reply: a code, a voice id, a measured frequency or level.
 */
#define _DEFAULT_SOURCE        /* mkdtemp, mkfifo, alarm */
#include "commands_internal.h" /* the fast reader and writer */
#include "earshot/analysis.h"
#include "earshot/commands.h"
#include "test.h"

#include <sys/stat.h>
#include <unistd.h>

static ear_commands *make(void) {
    ear_commands *c = NULL;
    if (ear_commands_create(NULL, &c) != EAR_OK) return NULL;
    return c;
}

/* Sends one serve line; returns the parsed reply (caller decrefs). */
static json_t *serve(ear_commands *c, const char *line) {
    char *text = ear_commands_serve_line(c, line, strlen(line));
    json_t *reply = text ? json_loads(text, 0, NULL) : NULL;
    free(text);
    return reply;
}

static bool ok(json_t *reply) {
    return json_is_true(json_object_get(reply, "ok"));
}

static const char *code(json_t *reply) {
    const char *s = json_string_value(json_object_get(json_object_get(reply, "error"), "code"));
    return s ? s : "(none)";
}

static const char *where(json_t *reply) {
    const char *s =
        json_string_value(json_object_get(json_object_get(reply, "error"), "where"));
    return s ? s : "(none)";
}

static double num(json_t *reply, const char *key) {
    return json_number_value(json_object_get(json_object_get(reply, "result"), key));
}

/* ear_log goes to stderr by default; the tests keep it quiet. */
static void quiet(void *user, ear_log_level level, const char *module, const char *message) {
    (void)user, (void)level, (void)module, (void)message;
}

TEST(quick_start_gives_the_doppler_shifted_horn) {
    ear_log_set(quiet, NULL, EAR_LOG_WARN);
    ear_commands *c = make();
    ASSERT_NOT_NULL(c);
    const char *lines[] = {
        "{\"command\": \"audio.clip.define\", \"params\": {\"name\": \"horn\", \"synth\": "
        "{\"waveform\": \"sine\", \"frequency\": 440, \"seconds\": 1}}}",
        "{\"command\": \"audio.listener.set\", \"params\": {\"position\": [0, 0, 0]}}",
        "{\"command\": \"audio.play\", \"params\": {\"sound\": \"horn\", \"looping\": true, "
        "\"position\": [-200, 0, 0], \"velocity\": [30, 0, 0], \"model\": \"none\"}}",
    };
    for (size_t i = 0; i < 3; i++) {
        json_t *r = serve(c, lines[i]);
        ASSERT_TRUE(ok(r));
        json_decref(r);
    }
    json_t *r =
        serve(c, "{\"command\": \"audio.render_offline\", \"params\": {\"seconds\": 1}}");
    ASSERT_TRUE(ok(r));
    double expected = 440.0 * 343.0 / (343.0 - 30.0);
    ASSERT_REL(num(r, "dominant_hz"), expected, 0.005);
    /* From the left: the left ear is louder than the right. */
    json_t *rms = json_object_get(json_object_get(r, "result"), "rms");
    ASSERT_DBL_GT(json_number_value(json_object_get(rms, "left")),
                  2 * json_number_value(json_object_get(rms, "right")));
    ASSERT_EQ(json_array_size(json_object_get(json_object_get(r, "result"), "envelope")), 10);
    json_decref(r);
    ear_commands_destroy(c);
}

/* Every command once, in an order that makes each meaningful, with what each must say. */
TEST(every_command_through_serve) {
    ear_log_set(quiet, NULL, EAR_LOG_WARN);
    ear_commands *c = make();
    ASSERT_NOT_NULL(c);
    json_t *r;
#define SEND(line)                                                                             \
    do {                                                                                       \
        json_decref(r);                                                                        \
        r = serve(c, line);                                                                    \
        if (!ok(r)) {                                                                          \
            char *t_ = json_dumps(r, JSON_COMPACT);                                            \
            fprintf(stderr, "reply: %s\n", t_);                                                \
            free(t_);                                                                          \
        }                                                                                      \
        ASSERT_TRUE(ok(r));                                                                    \
    } while (0)
    r = NULL;
    SEND("{\"command\": \"audio.reset\", \"params\": {\"seed\": 7}}");
    ASSERT_FLOAT_EQ(num(r, "seed"), 7);
    SEND("{\"command\": \"audio.clip.define\", \"params\": {\"name\": \"tone\", \"synth\": "
         "{\"frequency\": 300, \"seconds\": 0.5, \"amplitude\": 0.5}}}");
    ASSERT_FLOAT_EQ(num(r, "frames"), 24000);
    SEND("{\"command\": \"audio.clip.define\", \"params\": {\"name\": \"hi\", \"synth\": "
         "{\"frequency\": 1000, \"seconds\": 0.5}}}");
    SEND(
        "{\"command\": \"audio.blend.define\", \"params\": {\"blend\": {\"name\": \"eng\", "
        "\"params\": [{\"name\": \"rpm\", \"min\": 0, \"max\": 1}], \"layers\": [{\"clip\": "
        "\"tone\", \"gain\": [{\"param\": \"rpm\", \"points\": [[0, 1], [1, 0]]}]}, {\"clip\": "
        "\"hi\", \"gain\": [{\"param\": \"rpm\", \"points\": [[0, 0], [1, 1]]}]}]}}}");
    ASSERT_FLOAT_EQ(num(r, "layers"), 2);
    SEND("{\"command\": \"audio.pool.define\", \"params\": {\"pool\": {\"name\": \"hits\", "
         "\"clips\": [\"tone\", \"hi\"], \"no_repeat\": true}}}");
    ASSERT_FLOAT_EQ(num(r, "clips"), 2);
    SEND("{\"command\": \"audio.bus.set\", \"params\": {\"bus\": \"sfx\", \"volume\": 0.5}}");
    ASSERT_NEAR(num(r, "volume"), 0.5, 1e-6);
    SEND("{\"command\": \"audio.duck.set\", \"params\": {\"name\": \"d\", \"trigger\": "
         "\"ui\", \"target\": \"music\", \"gain_db\": -12}}");
    SEND("{\"command\": \"audio.duck.trigger\", \"params\": {\"name\": \"d\", \"hold\": 0.1}}");
    json_decref(r);
    r = serve(c, "{\"command\": \"audio.play\", \"params\": {\"blend\": \"eng\", \"params\": "
                 "{\"rpn\": 1}}}");
    ASSERT_STR_EQ(code(r), "E_BAD_PARAM");
    ASSERT_STR_EQ(where(r), "params.params.rpn");
    json_decref(r);
    r = serve(c, "{\"command\": \"audio.voices\"}");
    ASSERT_EQ(json_array_size(json_object_get(json_object_get(r, "result"), "voices")), 0);
    SEND("{\"command\": \"audio.play\", \"params\": {\"blend\": \"eng\", \"looping\": true, "
         "\"params\": {\"rpm\": 1}}}");
    json_int_t blend_voice = (json_int_t)num(r, "voice");
    ASSERT_GT(blend_voice, 0);
    SEND("{\"command\": \"audio.render_offline\", \"params\": {\"seconds\": 0.5, \"tones\": "
         "[300, 1000]}}");
    /* rpm 1: only the 1 kHz layer, at the sfx bus's 0.5. */
    json_t *tones = json_object_get(json_object_get(r, "result"), "tone_envelopes");
    json_t *env_hi = json_object_get(json_array_get(tones, 1), "envelope");
    json_t *env_lo = json_object_get(json_array_get(tones, 0), "envelope");
    ASSERT_NEAR(json_number_value(json_array_get(env_hi, 4)), 0.25, 0.01);
    ASSERT_DBL_LT(json_number_value(json_array_get(env_lo, 4)), 0.01);
    char line[300];
    snprintf(line, sizeof line,
             "{\"command\": \"audio.voice.set\", \"params\": {\"voice\": %lld, \"params\": "
             "{\"rpm\": 0}, \"volume\": 1}}",
             (long long)blend_voice);
    SEND(line);
    SEND("{\"command\": \"audio.render_offline\", \"params\": {\"seconds\": 0.5}}");
    SEND("{\"command\": \"audio.analyze\", \"params\": {\"start\": 0.25, \"tone\": 300}}");
    json_t *tone = json_object_get(json_object_get(r, "result"), "tone");
    ASSERT_NEAR(json_number_value(json_object_get(tone, "amplitude")), 0.25, 0.01);
    ASSERT_REL(num(r, "dominant_hz"), 300, 0.005);
    snprintf(line, sizeof line,
             "{\"command\": \"audio.stop\", \"params\": {\"voice\": %lld, \"fade\": 0.01}}",
             (long long)blend_voice);
    SEND(line);
    SEND("{\"command\": \"audio.play\", \"params\": {\"pool\": \"hits\"}}");
    SEND("{\"command\": \"audio.play\", \"params\": {\"sound\": \"synth:square:200:0.2\", "
         "\"position\": [2, 0, 0], \"bus\": \"ui\"}}");
    SEND("{\"command\": \"audio.voices\"}");
    /* The pool's and the square's voices; the stopped blend reads as finished. */
    ASSERT_EQ(json_array_size(json_object_get(json_object_get(r, "result"), "voices")), 2);
    SEND("{\"command\": \"audio.listener.set\", \"params\": {\"position\": [1, 0, 0], "
         "\"forward\": [1, 0, 0]}}");
    SEND("{\"command\": \"audio.music.play\", \"params\": {\"sound\": \"tone\", \"crossfade\": "
         "0.1}}");
    SEND("{\"command\": \"audio.render_offline\", \"params\": {\"seconds\": 0.3}}");
    SEND("{\"command\": \"audio.status\"}");
    json_t *res = json_object_get(r, "result");
    ASSERT_STR_EQ(json_string_value(json_object_get(json_object_get(res, "music"), "name")),
                  "tone");
    ASSERT_EQ(json_array_size(json_object_get(res, "ducks")), 1);
    ASSERT_EQ(json_array_size(json_object_get(json_object_get(res, "names"), "clips")), 2);
    ASSERT_EQ(json_integer_value(json_object_get(res, "seed")), 7);
    ASSERT_NEAR(json_number_value(json_object_get(res, "seconds_rendered")), 1.3, 1e-9);
    SEND("{\"command\": \"audio.music.stop\", \"params\": {\"fade\": 0.05}}");
    SEND("{\"command\": \"audio.render_offline\", \"params\": {\"seconds\": 0.2}}");
    SEND("{\"command\": \"audio.status\"}");
    ASSERT_TRUE(json_is_null(
        json_object_get(json_object_get(json_object_get(r, "result"), "music"), "name")));
    json_decref(r);
#undef SEND
    ear_commands_destroy(c);
}

/* Bad input of every kind: the right code, nothing changed, and the next line served. */
TEST(bad_input_gives_the_right_error_and_serving_goes_on) {
    ear_log_set(quiet, NULL, EAR_LOG_WARN);
    ear_commands *c = make();
    ASSERT_NOT_NULL(c);
    static char deep[20000];
    size_t n = 0;
    n += (size_t)snprintf(deep, sizeof deep, "{\"command\": \"audio.status\", \"params\": ");
    for (int i = 0; i < 4000; i++) deep[n++] = '[';
    for (int i = 0; i < 4000; i++) deep[n++] = ']';
    deep[n++] = '}';
    deep[n] = '\0';
    static char deep_param[8000];
    n = (size_t)snprintf(deep_param, sizeof deep_param,
                         "{\"command\": \"audio.status\", \"params\": {\"x\": ");
    for (int i = 0; i < 1000; i++) deep_param[n++] = '[';
    for (int i = 0; i < 1000; i++) deep_param[n++] = ']';
    deep_param[n++] = '}';
    deep_param[n++] = '}';
    deep_param[n] = '\0';
    struct {
        const char *line, *code, *where;
    } cases[] = {
        {"{\"command\": \"audio.status\"", "E_BAD_JSON", "line 1, column 26"},
        {"not json", "E_BAD_JSON", "line 1, column 3"},
        {"[1, 2]", "E_BAD_JSON", ""},
        {"{\"command\": \"audio.staus\"}", "E_UNKNOWN_COMMAND", "command"},
        {"{\"command\": 5}", "E_BAD_PARAM", "command"},
        {"{\"command\": \"audio.status\", \"params\": []}", "E_BAD_PARAM", "params"},
        {"{\"command\": \"audio.status\", \"extra\": 1}", "E_BAD_PARAM", "extra"},
        {"{\"command\": \"audio.play\", \"params\": {\"sound\": 3}}", "E_BAD_PARAM",
         "params.sound"},
        {"{\"command\": \"audio.play\", \"params\": {\"sound\": \"a\", \"position\": [1, 2]}}",
         "E_BAD_PARAM", "params.position"},
        {"{\"command\": \"audio.play\", \"params\": {\"sound\": \"a\", \"position\": [0, "
         "1e300, "
         "0]}}",
         "E_BAD_PARAM", "params.position[1]"},
        {"{\"command\": \"audio.play\", \"params\": {\"sound\": \"a\", \"volume\": -1}}",
         "E_BAD_PARAM", "params.volume"},
        {"{\"command\": \"audio.play\", \"params\": {\"sound\": \"a\", \"blend\": \"b\"}}",
         "E_BAD_PARAM", "params"},
        {"{\"command\": \"audio.play\", \"params\": {}}", "E_BAD_PARAM", "params"},
        {"{\"command\": \"audio.play\", \"params\": {\"sound\": \"a\", \"bus\": \"bass\"}}",
         "E_BAD_PARAM", "params.bus"},
        {"{\"command\": \"audio.play\", \"params\": {\"sound\": \"a\", \"lopping\": true}}",
         "E_BAD_PARAM", "params.lopping"},
        {"{\"command\": \"audio.play\", \"params\": {\"sound\": \"ghost\"}}", "E_NOT_FOUND",
         "params.sound"},
        {"{\"command\": \"audio.play\", \"params\": {\"blend\": \"ghost\"}}", "E_NOT_FOUND",
         "params.blend"},
        {"{\"command\": \"audio.play\", \"params\": {\"pool\": \"ghost\"}}", "E_NOT_FOUND",
         "params.pool"},
        {"{\"command\": \"audio.stop\", \"params\": {\"voice\": 12345}}", "E_NOT_FOUND",
         "params.voice"},
        {"{\"command\": \"audio.stop\", \"params\": {\"voice\": 1.5}}", "E_BAD_PARAM",
         "params.voice"},
        {"{\"command\": \"audio.voice.set\", \"params\": {\"voice\": 99999999999}}",
         "E_BAD_PARAM", "params.voice"},
        {"{\"command\": \"audio.render_offline\", \"params\": {\"seconds\": 1e308}}",
         "E_BAD_PARAM", "params.seconds"},
        {"{\"command\": \"audio.render_offline\", \"params\": {\"tones\": [1, 2, 3, 4, 5, 6, "
         "7, "
         "8, 9, 10, 11, 12, 13, 14, 15, 16, 17]}}",
         "E_BAD_PARAM", "params.tones"},
        {"{\"command\": \"audio.analyze\"}", "E_STATE", "command"},
        {"{\"command\": \"audio.duck.trigger\", \"params\": {\"name\": \"none\"}}",
         "E_NOT_FOUND", "params.name"},
        {"{\"command\": \"audio.clip.define\", \"params\": {\"name\": \"x\", \"path\": "
         "\"/no/such/file.wav\"}}",
         "E_NOT_FOUND", "params.path"},
        {"{\"command\": \"audio.blend.define\", \"params\": {\"blend\": {\"name\": \"b\"}}}",
         "E_BAD_PARAM", "params.blend"},
        {"{\"command\": \"audio.load\", \"params\": {\"path\": \"/no/such/folder\"}}",
         "E_NOT_FOUND", "params.path"},
        {deep, "E_BAD_JSON", NULL},
        {deep_param, "E_BAD_PARAM", "params.x"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        json_t *r = serve(c, cases[i].line);
        ASSERT_NOT_NULL(r);
        if (strcmp(code(r), cases[i].code) != 0 ||
            (cases[i].where && strcmp(where(r), cases[i].where) != 0)) {
            char *t = json_dumps(r, JSON_COMPACT);
            fprintf(stderr, "case %zu: %.300s\n", i, t);
            free(t);
        }
        ASSERT_STR_EQ(code(r), cases[i].code);
        if (cases[i].where) ASSERT_STR_EQ(where(r), cases[i].where);
        ASSERT_TRUE(json_is_string(
            json_object_get(json_object_get(r, "error"), "message"))); /* always a message */
        json_decref(r);
    }
    /* Nothing changed: no voice, nothing rendered; and the server still answers. */
    json_t *r = serve(c, "{\"command\": \"audio.status\", \"id\": 42}");
    ASSERT_TRUE(ok(r));
    ASSERT_EQ(json_integer_value(json_object_get(r, "id")), 42);
    json_t *res = json_object_get(r, "result");
    ASSERT_EQ(json_integer_value(json_object_get(json_object_get(res, "voices"), "count")), 0);
    ASSERT_EQ(json_integer_value(json_object_get(res, "frames_rendered")), 0);
    /* The missing sound is a note. */
    ASSERT_EQ(json_array_size(json_object_get(res, "notes")), 0); /* quiet log: no callback */
    json_decref(r);
    ear_commands_destroy(c);
}

TEST(too_many_voices_is_its_own_error) {
    ear_log_set(quiet, NULL, EAR_LOG_WARN);
    ear_commands *c = make();
    ASSERT_NOT_NULL(c);
    /* 512 voices exist at most; priority 255 voices cannot be stolen by priority 0. */
    json_t *r = NULL;
    for (int i = 0; i < 512; i++) {
        json_decref(r);
        r = serve(c, "{\"command\": \"audio.play\", \"params\": {\"sound\": "
                     "\"synth:sine:440:1\", \"looping\": true, \"priority\": 255}}");
        ASSERT_TRUE(ok(r));
    }
    json_decref(r);
    r = serve(c,
              "{\"command\": \"audio.play\", \"params\": {\"sound\": \"synth:sine:440:1\"}}");
    ASSERT_STR_EQ(code(r), "E_AUDIO_TOO_MANY_VOICES");
    json_decref(r);
    ear_commands_destroy(c);
}

/* Every stage result has its own code: a 17th duck rule is E_STATE, not E_INTERNAL. */
TEST(a_full_duck_table_is_a_state_error) {
    ear_log_set(quiet, NULL, EAR_LOG_WARN);
    ear_commands *c = make();
    ASSERT_NOT_NULL(c);
    char line[256];
    for (int i = 0; i < 17; i++) {
        snprintf(line, sizeof line,
                 "{\"command\": \"audio.duck.set\", \"params\": {\"name\": \"d%d\", "
                 "\"trigger\": \"ui\", \"target\": \"music\"}}",
                 i);
        json_t *r = serve(c, line);
        if (i < 16) {
            ASSERT_TRUE(ok(r));
        } else {
            ASSERT_STR_EQ(code(r), "E_STATE");
            ASSERT_STR_EQ(where(r), "params.name");
        }
        json_decref(r);
    }
    ear_commands_destroy(c);
}

static double peak_of_a_voice_ahead(const char *extra) {
    ear_commands *c = make();
    char line[512];
    snprintf(line, sizeof line,
             "{\"command\": \"audio.play\", \"params\": {\"sound\": \"synth:sine:1000:1\", "
             "\"looping\": true, \"position\": [0, 0, -5], \"model\": \"none\"%s}}",
             extra);
    json_t *r = serve(c, line);
    bool played = ok(r);
    json_decref(r);
    r = serve(c, "{\"command\": \"audio.render_offline\", \"params\": {\"seconds\": 0.5}}");
    double peak = played ? num(r, "peak") : -1.0; /* -1: the play was refused */
    json_decref(r);
    ear_commands_destroy(c);
    return peak;
}

/* audio.play's cone: a source ahead facing away plays at outer_gain; inside the inner
 * angle at full level. */
TEST(audio_play_takes_a_cone) {
    ear_log_set(quiet, NULL, EAR_LOG_WARN);
    double open = peak_of_a_voice_ahead("");
    double away = peak_of_a_voice_ahead(
        ", \"forward\": [0, 0, -1], \"cone\": {\"inner_deg\": 60, \"outer_deg\": 120, "
        "\"outer_gain\": 0.25}");
    double facing = peak_of_a_voice_ahead(
        ", \"forward\": [0, 0, 1], \"cone\": {\"inner_deg\": 60, \"outer_deg\": 120, "
        "\"outer_gain\": 0.25}");
    ASSERT_DBL_GT(open, 0.1);
    ASSERT_NEAR(away / open, 0.25, 1e-3);
    ASSERT_NEAR(facing / open, 1.0, 1e-4);
}

/* The cursors audio.voices reports before the first render: where each voice starts. */
static void start_frames(ear_commands *c, uint64_t *out, size_t n) {
    json_t *r = serve(c, "{\"command\": \"audio.voices\"}");
    json_t *list = json_object_get(json_object_get(r, "result"), "voices");
    ASSERT_EQ(json_array_size(list), n);
    for (size_t i = 0; i < n; i++)
        out[i] =
            (uint64_t)json_integer_value(json_object_get(json_array_get(list, i), "cursor"));
    json_decref(r);
}

/* random_start draws each loop's start from the session's seed: loops started together
 * are out of phase, and the same seed gives the same starts. start is in seconds. */
TEST(audio_play_takes_a_start_and_a_random_start) {
    ear_log_set(quiet, NULL, EAR_LOG_WARN);
    uint64_t first[4], again[4];
    for (int run = 0; run < 2; run++) {
        ear_commands *c = make();
        json_t *r = serve(c, "{\"command\": \"audio.reset\", \"params\": {\"seed\": 5}}");
        json_decref(r);
        for (int i = 0; i < 3; i++) {
            r = serve(c, "{\"command\": \"audio.play\", \"params\": {\"sound\": "
                         "\"synth:sine:1000:1\", \"looping\": true, \"random_start\": true}}");
            ASSERT_TRUE(ok(r));
            json_decref(r);
        }
        r = serve(c, "{\"command\": \"audio.play\", \"params\": {\"sound\": "
                     "\"synth:sine:1000:1\", \"looping\": true, \"start\": 0.25}}");
        ASSERT_TRUE(ok(r));
        json_decref(r);
        start_frames(c, run ? again : first, 4);
        ear_commands_destroy(c);
    }
    for (int i = 0; i < 4; i++) ASSERT_U64_EQ(first[i], again[i]);
    ASSERT_NE(first[0], first[1]);
    ASSERT_NE(first[1], first[2]);
    ASSERT_NE(first[0], first[2]);
    for (int i = 0; i < 3; i++) ASSERT_LT(first[i], 48000);
    ASSERT_U64_EQ(first[3], 12000);
}

TEST(render_writes_a_wav_and_state_goes_on) {
    ear_log_set(quiet, NULL, EAR_LOG_WARN);
    ear_commands *c = make();
    ASSERT_NOT_NULL(c);
    json_t *r = serve(c, "{\"command\": \"audio.play\", \"params\": {\"sound\": "
                         "\"synth:sine:1000:1\", \"looping\": true}}");
    ASSERT_TRUE(ok(r));
    json_decref(r);
    /* A WAV left by a build from before WAVs carried Earshot's mark would be kept. */
    remove(EAR_BUILD_DIR "/commands_test.wav");
    r = serve(c, "{\"command\": \"audio.render_offline\", \"params\": {\"seconds\": 0.5, "
                 "\"path\": \"" EAR_BUILD_DIR "/commands_test.wav\"}}");
    ASSERT_TRUE(ok(r));
    ASSERT_STR_EQ(json_string_value(json_object_get(json_object_get(r, "result"), "path")),
                  EAR_BUILD_DIR "/commands_test.wav");
    ASSERT_NEAR(num(r, "peak"), 0.5, 1e-3); /* a flat voice: unity on both sides */
    json_decref(r);
    FILE *f = fopen(EAR_BUILD_DIR "/commands_test.wav", "rb");
    ASSERT_NOT_NULL(f);
    fseek(f, 0, SEEK_END);
    ASSERT_DBL_GT(ftell(f), 0.5 * 48000 * 2 * 4);
    fclose(f);
    remove(EAR_BUILD_DIR "/commands_test.wav");
    /* Two 0.5 s renders are the same samples as the second half of one 1 s render. */
    ear_commands *d = make();
    r = serve(d, "{\"command\": \"audio.play\", \"params\": {\"sound\": \"synth:sine:1000:1\", "
                 "\"looping\": true}}");
    json_decref(r);
    r = serve(d, "{\"command\": \"audio.render_offline\", \"params\": {\"seconds\": 1}}");
    json_decref(r);
    r = serve(c, "{\"command\": \"audio.render_offline\", \"params\": {\"seconds\": 0.5}}");
    json_decref(r);
    uint64_t fc, fd;
    const float *bc = ear_commands_last_buffer(c, &fc);
    const float *bd = ear_commands_last_buffer(d, &fd);
    ASSERT_EQ(fc, 24000);
    ASSERT_EQ(fd, 48000);
    ASSERT_U64_EQ(ear_hash_samples(bc, 48000), ear_hash_samples(bd + 48000, 48000));
    ear_commands_destroy(d);
    ear_commands_destroy(c);
}

/* The examples of docs/commands.md: each {"command": ...} line validates against its
 * command's schema and, run in order through serve, succeeds. */
TEST(docs_examples_validate_and_run) {
    ear_log_set(quiet, NULL, EAR_LOG_WARN);
    FILE *f = fopen(EAR_DOCS_COMMANDS, "r");
    ASSERT_NOT_NULL(f);
    ear_commands *c = make();
    ASSERT_NOT_NULL(c);
    char line[8192];
    int examples = 0;
    bool seen[64] = {0};
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "{\"command\"", 10) != 0) continue;
        json_t *msg = json_loads(line, 0, NULL);
        ASSERT_NOT_NULL(msg);
        const char *name = json_string_value(json_object_get(msg, "command"));
        long i = ear_commands_find(name);
        if (i < 0) fprintf(stderr, "unknown command in docs: %s\n", name);
        ASSERT_GE(i, 0);
        seen[i] = true;
        json_t *params = json_object_get(msg, "params");
        json_t *empty = json_object();
        json_t *err = ear_schema_check(ear_commands_schema(c, (size_t)i),
                                       params ? params : empty, "params");
        json_decref(empty);
        if (err) {
            char *t = json_dumps(err, JSON_COMPACT);
            fprintf(stderr, "docs example %s: %s\n", name, t);
            free(t);
        }
        ASSERT_NULL(err);
        json_t *r = serve(c, line);
        if (!ok(r)) {
            char *t = json_dumps(r, JSON_COMPACT);
            fprintf(stderr, "docs example %s: %s\n", name, t);
            free(t);
        }
        ASSERT_TRUE(ok(r));
        json_decref(r);
        json_decref(msg);
        examples++;
    }
    fclose(f);
    for (size_t i = 0; i < ear_commands_count(); i++) {
        if (!seen[i]) fprintf(stderr, "no example of %s in docs\n", ear_commands_name(i));
        ASSERT_TRUE(seen[i]);
    }
    ASSERT_GE(examples, (int)ear_commands_count());
    ear_commands_destroy(c);
}

/* Every schema carries examples (what `earshot help <command>` prints); each one is valid
 * against its own schema and appears in docs/commands.md as a serve line. */
TEST(schema_examples_validate_and_are_documented) {
    ear_commands *c = make();
    ASSERT_NOT_NULL(c);
    FILE *f = fopen(EAR_DOCS_COMMANDS, "r");
    ASSERT_NOT_NULL(f);
    static char docs[1 << 17];
    size_t n = fread(docs, 1, sizeof docs - 1, f);
    docs[n] = '\0';
    fclose(f);
    for (size_t i = 0; i < ear_commands_count(); i++) {
        const json_t *schema = ear_commands_schema(c, i);
        const json_t *examples = json_object_get(schema, "examples");
        ASSERT_TRUE(json_is_array(examples));
        ASSERT_GE(json_array_size(examples), 1);
        size_t k;
        json_t *e;
        json_array_foreach(examples, k, e) {
            json_t *err = ear_schema_check(schema, e, "params");
            ASSERT_NULL(err);
            json_t *line =
                json_pack("{s:s, s:O}", "command", ear_commands_name(i), "params", e);
            json_t *found = NULL;
            /* The docs' line with the same command and params (compared as JSON). */
            for (char *p = docs; (p = strstr(p, "{\"command\"")) != NULL; p++) {
                char *end = strchr(p, '\n');
                json_t *d = json_loadb(p, end ? (size_t)(end - p) : strlen(p), 0, NULL);
                if (d && !json_object_get(d, "params"))
                    json_object_set_new(d, "params", json_object());
                if (d && json_equal(d, line))
                    found = d;
                else
                    json_decref(d);
                if (found) break;
            }
            if (!found)
                fprintf(stderr, "%s: example %zu is not in docs\n", ear_commands_name(i), k);
            ASSERT_NOT_NULL(found);
            json_decref(found);
            json_decref(line);
        }
    }
    ear_commands_destroy(c);
}

/* serve_line_at: every error names the request's line; bad JSON's where too. */
TEST(serve_errors_name_the_request_line) {
    ear_log_set(quiet, NULL, EAR_LOG_WARN);
    ear_commands *c = make();
    const char *bad = "{\"command\": ";
    char *text = ear_commands_serve_line_at(c, bad, strlen(bad), 17);
    json_t *r = json_loads(text, 0, NULL);
    free(text);
    json_t *e = json_object_get(r, "error");
    ASSERT_STR_EQ(json_string_value(json_object_get(e, "code")), "E_BAD_JSON");
    ASSERT_EQ(json_integer_value(json_object_get(e, "line")), 17);
    ASSERT_STR_STARTS(json_string_value(json_object_get(e, "where")), "line 17, column ");
    json_decref(r);
    const char *ghost = "{\"command\": \"audio.play\", \"params\": {\"sound\": \"ghost\"}}";
    text = ear_commands_serve_line_at(c, ghost, strlen(ghost), 18);
    r = json_loads(text, 0, NULL);
    free(text);
    e = json_object_get(r, "error");
    ASSERT_STR_EQ(json_string_value(json_object_get(e, "code")), "E_NOT_FOUND");
    ASSERT_EQ(json_integer_value(json_object_get(e, "line")), 18);
    json_decref(r);
    ear_commands_destroy(c);
}

static json_t *mcp(ear_commands *c, const char *line) {
    char *text = ear_mcp_handle_line(c, line, strlen(line));
    json_t *reply = text ? json_loads(text, 0, NULL) : NULL;
    free(text);
    return reply;
}

TEST(mcp_messages) {
    ear_log_set(quiet, NULL, EAR_LOG_WARN);
    ear_commands_config config = ear_commands_config_default();
    config.confine_paths = true;
    ear_commands *c = NULL;
    ASSERT_OK(ear_commands_create(&config, &c));
    json_t *r =
        mcp(c, "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"initialize\", "
               "\"params\": {\"protocolVersion\": \"2025-11-25\", \"capabilities\": {}, "
               "\"clientInfo\": {\"name\": \"t\", \"version\": \"1\"}}}");
    json_t *res = json_object_get(r, "result");
    ASSERT_STR_EQ(json_string_value(json_object_get(res, "protocolVersion")), "2025-11-25");
    ASSERT_TRUE(json_is_object(json_object_get(json_object_get(res, "capabilities"), "tools")));
    json_decref(r);
    r = mcp(c, "{\"jsonrpc\": \"2.0\", \"id\": 2, \"method\": \"initialize\", \"params\": "
               "{\"protocolVersion\": \"2025-03-26\"}}");
    ASSERT_STR_EQ(
        json_string_value(json_object_get(json_object_get(r, "result"), "protocolVersion")),
        "2025-03-26");
    json_decref(r);
    ASSERT_NULL(mcp(c, "{\"jsonrpc\": \"2.0\", \"method\": \"notifications/initialized\"}"));
    r = mcp(c, "{\"jsonrpc\": \"2.0\", \"id\": \"p\", \"method\": \"ping\"}");
    ASSERT_TRUE(json_is_object(json_object_get(r, "result")));
    ASSERT_STR_EQ(json_string_value(json_object_get(r, "id")), "p");
    json_decref(r);
    r = mcp(c, "{\"jsonrpc\": \"2.0\", \"id\": 3, \"method\": \"tools/list\"}");
    json_t *tools = json_object_get(json_object_get(r, "result"), "tools");
    ASSERT_EQ(json_array_size(tools), ear_commands_count());
    bool found = false;
    size_t i;
    json_t *t;
    json_array_foreach(tools, i, t) {
        if (strcmp(json_string_value(json_object_get(t, "name")), "audio_bus_set") == 0)
            found = true;
        ASSERT_STR_EQ(
            json_string_value(json_object_get(json_object_get(t, "inputSchema"), "type")),
            "object");
    }
    ASSERT_TRUE(found);
    json_decref(r);
    r = mcp(c, "{\"jsonrpc\": \"2.0\", \"id\": 4, \"method\": \"tools/call\", \"params\": "
               "{\"name\": \"audio_play\", \"arguments\": {\"sound\": \"nothing\"}}}");
    res = json_object_get(r, "result");
    ASSERT_TRUE(json_is_true(json_object_get(res, "isError")));
    ASSERT_STR_EQ(
        json_string_value(json_object_get(
            json_object_get(json_object_get(res, "structuredContent"), "error"), "code")),
        "E_NOT_FOUND");
    json_decref(r);
    r = mcp(c, "{\"jsonrpc\": \"2.0\", \"id\": 5, \"method\": \"tools/call\", \"params\": "
               "{\"name\": \"audio_render_offline\", \"arguments\": {\"seconds\": 0.1, "
               "\"path\": \"../outside.wav\"}}}");
    res = json_object_get(r, "result");
    ASSERT_TRUE(json_is_true(json_object_get(res, "isError")));
    ASSERT_STR_EQ(
        json_string_value(json_object_get(
            json_object_get(json_object_get(res, "structuredContent"), "error"), "where")),
        "params.path");
    json_decref(r);
    r = mcp(c, "{\"jsonrpc\": \"2.0\", \"id\": 6, \"method\": \"tools/call\", \"params\": "
               "{\"name\": \"audio_clip_define\", \"arguments\": {\"name\": \"x\", \"path\": "
               "\"/etc/passwd\"}}}");
    ASSERT_TRUE(json_is_true(json_object_get(json_object_get(r, "result"), "isError")));
    json_decref(r);
    r = mcp(c, "{\"jsonrpc\": \"2.0\", \"id\": 7, \"method\": \"tools/call\", \"params\": "
               "{\"name\": \"audio_status\"}}");
    res = json_object_get(r, "result");
    ASSERT_TRUE(json_is_false(json_object_get(res, "isError")));
    ASSERT_EQ(json_integer_value(
                  json_object_get(json_object_get(res, "structuredContent"), "sample_rate")),
              48000);
    json_decref(r);
    r = mcp(c, "{\"jsonrpc\": \"2.0\", \"id\": 8, \"method\": \"tools/call\", \"params\": "
               "{\"name\": \"audio_nope\"}}");
    ASSERT_EQ(json_integer_value(json_object_get(json_object_get(r, "error"), "code")), -32602);
    json_decref(r);
    r = mcp(c, "{\"jsonrpc\": \"2.0\", \"id\": 9, \"method\": \"resources/list\"}");
    ASSERT_EQ(json_integer_value(json_object_get(json_object_get(r, "error"), "code")), -32601);
    json_decref(r);
    r = mcp(c, "{\"jsonrpc\": \"2.0\", \"id\": 10, ");
    ASSERT_EQ(json_integer_value(json_object_get(json_object_get(r, "error"), "code")), -32700);
    json_decref(r);
    ear_commands_destroy(c);
}

/* The fast reader accepts only what jansson reads to an equal value, and gives up (NULL) on
 * everything else; the writer's text reads back equal. */
TEST(fast_json_agrees_with_jansson) {
    struct {
        const char *text;
        bool fast;
    } cases[] = {
        {"{\"a\": 1, \"b\": [1.5, -0, -0.0, 1e3, 2E-2, 0.1, 123456789012345.5], \"c\": null}",
         true},
        {"{\"s\": \"tab\\t quote\\\" \\u00e9 \\ud83d\\ude00 caf\u00c3\u00a9\"}", true},
        {" {\"x\": {\"y\": [true, false, {}, []]}} ", true},
        {"{\"big\": 9223372036854775807, \"r\": 0.30000000000000004}", true},
        {"{\"a\": 1, \"a\": 2}", false},          /* duplicate key */
        {"{\"a\": 01}", false},                   /* leading zero */
        {"{\"a\": 1,}", false},                   /* trailing comma */
        {"{\"a\": \"\\u0000\"}", false},          /* NUL */
        {"{\"a\": \"\\ud800\"}", false},          /* lone surrogate */
        {"{\"a\": \"\xff\"}", false},             /* invalid UTF-8 */
        {"{\"a\": \"\xc0\xaf\"}", false},         /* overlong */
        {"{\"a\": 1e999}", false},                /* real overflow */
        {"{\"a\": 99999999999999999999}", false}, /* integer overflow */
        {"{\"a\": tru}", false},
        {"[1, 2]", false}, /* not an object at the top */
        {"{\"a\": 1} x", false},
        {"{\"a\": \"unterminated}", false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *t = cases[i].text;
        json_t *fast = ear__json_read_fast(t, strlen(t));
        json_t *ref = json_loadb(t, strlen(t), JSON_REJECT_DUPLICATES, NULL);
        if ((fast != NULL) != cases[i].fast) fprintf(stderr, "case %zu: %s\n", i, t);
        ASSERT_EQ(fast != NULL, cases[i].fast);
        if (fast) {
            ASSERT_TRUE(ref != NULL && json_equal(fast, ref));
            char *text = ear__json_write(fast);
            json_t *back = json_loads(text, 0, NULL);
            /* Reals are written to 9 digits: compare the structure through jansson's own
             * text at the same precision. */
            char *a = json_dumps(back, JSON_COMPACT | JSON_REAL_PRECISION(9));
            char *b = json_dumps(fast, JSON_COMPACT | JSON_REAL_PRECISION(9));
            ASSERT_STR_EQ(a, b);
            free(a);
            free(b);
            free(text);
            json_decref(back);
        }
        json_decref(fast);
        json_decref(ref);
    }
}

/* ---- The memory budget ----------------------------------------------------------------- */

static ear_commands *make_with_budget(uint64_t bytes) {
    ear_commands_config config = ear_commands_config_default();
    config.max_memory_bytes = bytes;
    ear_commands *c = NULL;
    if (ear_commands_create(&config, &c) != EAR_OK) return NULL;
    return c;
}

static json_t *error_of(json_t *reply) {
    return json_object_get(reply, "error");
}

/* Past the budget a command is E_TOO_BIG with its numbers, and what was there stays: the
 * clip of that name, the last render (audio.analyze still reads it), the memory used. */
TEST(past_the_budget_is_too_big_and_nothing_is_lost) {
    ear_log_set(quiet, NULL, EAR_LOG_WARN);
    ear_commands *c = make_with_budget(4u << 20);
    ASSERT_NOT_NULL(c);
    json_t *r = serve(c, "{\"command\": \"audio.clip.define\", \"params\": {\"name\": \"a\", "
                         "\"synth\": {\"waveform\": \"sine\", \"frequency\": 500, "
                         "\"seconds\": 1}}}");
    ASSERT_TRUE(ok(r));
    json_decref(r);
    r = serve(c, "{\"command\": \"audio.play\", \"params\": {\"sound\": \"a\", \"looping\": "
                 "true}}");
    ASSERT_TRUE(ok(r));
    json_decref(r);
    r = serve(c, "{\"command\": \"audio.render_offline\", \"params\": {\"seconds\": 0.5}}");
    ASSERT_TRUE(ok(r));
    json_decref(r);
    ear_commands_memory before = ear_commands_get_memory(c);
    ASSERT_U64_EQ(before.budget_bytes, 4u << 20);
    /* One 1 s mono clip (48000 floats) and one 0.5 s stereo render (48000 floats). */
    ASSERT_GE(before.used_bytes, 2 * 48000 * sizeof(float));

    /* A 30 s clip of the same name: 5.5 MiB, refused; "a" is still the 1 s clip. */
    r = serve(c, "{\"command\": \"audio.clip.define\", \"params\": {\"name\": \"a\", "
                 "\"synth\": {\"waveform\": \"sine\", \"frequency\": 500, \"seconds\": 30}}}");
    ASSERT_STR_EQ(code(r), "E_TOO_BIG");
    ASSERT_STR_EQ(where(r), "params.synth");
    ASSERT_U64_EQ((uint64_t)json_integer_value(json_object_get(error_of(r), "budget_bytes")),
                  4u << 20);
    ASSERT_GE(json_integer_value(json_object_get(error_of(r), "needed_bytes")), 30 * 48000 * 4);
    json_decref(r);
    /* A synth name of 30 s through play: the same. */
    r = serve(c, "{\"command\": \"audio.play\", \"params\": {\"sound\": "
                 "\"synth:saw:300:30\"}}");
    ASSERT_STR_EQ(code(r), "E_TOO_BIG");
    ASSERT_STR_EQ(where(r), "params.sound");
    json_decref(r);
    /* A 30 s render: refused before rendering; the stage has not moved. */
    ear_commands_memory mid = ear_commands_get_memory(c);
    uint64_t frames_before = 0;
    ear_commands_last_buffer(c, &frames_before);
    r = serve(c, "{\"command\": \"audio.render_offline\", \"params\": {\"seconds\": 30}}");
    ASSERT_STR_EQ(code(r), "E_TOO_BIG");
    ASSERT_STR_EQ(where(r), "params.seconds");
    json_decref(r);
    uint64_t frames_after = 0;
    ear_commands_last_buffer(c, &frames_after);
    ASSERT_U64_EQ(frames_after, frames_before);
    ASSERT_U64_EQ(ear_commands_get_memory(c).used_bytes, mid.used_bytes);
    static const char status_line[] = "{\"command\": \"audio.status\"}";
    r = serve(c, status_line);
    json_t *res = json_object_get(r, "result");
    ASSERT_EQ(json_integer_value(json_object_get(res, "frames_rendered")), 24000);
    json_t *mem = json_object_get(res, "memory");
    ASSERT_EQ(json_integer_value(json_object_get(mem, "budget_bytes")), 4 << 20);
    /* While it runs, the status line's own parse counts (the json part). */
    uint64_t line_cost = ear_json_measure(status_line, strlen(status_line)).bytes;
    ASSERT_EQ(json_integer_value(json_object_get(mem, "used_bytes")),
              (json_int_t)(mid.used_bytes + line_cost));
    ASSERT_EQ(json_integer_value(json_object_get(json_object_get(mem, "parts"), "json")),
              (json_int_t)line_cost);
    /* The stage's fixed part is reported, not counted: it alone is more than 1 MiB. */
    ASSERT_GT(json_integer_value(json_object_get(json_object_get(mem, "parts"), "stage_fixed")),
              1 << 20);
    json_decref(r);
    /* The last render is still there, and the 1 s clip still sounds at 500 Hz. */
    r = serve(c, "{\"command\": \"audio.analyze\", \"params\": {}}");
    ASSERT_TRUE(ok(r));
    ASSERT_REL(num(r, "dominant_hz"), 500.0, 1e-3);
    json_decref(r);
    ear_commands_destroy(c);
}

/* A render's envelopes count too: 10 s at 1 ms windows with 16 tones (170017 values, 10.9 MB
 * as JSON) does not fit a 24 MiB budget beside its 3.84 MB buffer and 12.6 MB transform;
 * at 0.1 s windows it does. */
TEST(a_render_counts_its_envelopes) {
    ear_log_set(quiet, NULL, EAR_LOG_WARN);
    ear_commands *c = make_with_budget(24u << 20);
    ASSERT_NOT_NULL(c);
    json_t *r =
        serve(c, "{\"command\": \"audio.render_offline\", \"params\": {\"seconds\": 10, "
                 "\"window\": 0.001, \"tones\": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, "
                 "12, 13, 14, 15, 16]}}");
    ASSERT_STR_EQ(code(r), "E_TOO_BIG");
    ASSERT_GE(json_integer_value(json_object_get(error_of(r), "needed_bytes")),
              3840000 + 170017 * 64);
    json_decref(r);
    r = serve(c, "{\"command\": \"audio.render_offline\", \"params\": {\"seconds\": 10, "
                 "\"tones\": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]}}");
    ASSERT_TRUE(ok(r));
    ASSERT_EQ(json_array_size(json_object_get(json_object_get(r, "result"), "envelope")), 100);
    json_decref(r);
    ear_commands_destroy(c);
}

/* Synth names played and ended are idle cache entries; the budget trims them when a new
 * one needs the room. 60 one-second names (11 MiB in all) in a 4 MiB budget all play. */
TEST(ended_synth_names_are_trimmed_for_room) {
    ear_log_set(quiet, NULL, EAR_LOG_WARN);
    ear_commands *c = make_with_budget(4u << 20);
    ASSERT_NOT_NULL(c);
    for (int i = 0; i < 60; i++) {
        char line[200];
        snprintf(line, sizeof line,
                 "{\"command\": \"audio.play\", \"params\": {\"sound\": "
                 "\"synth:sine:%d:1\"}}",
                 300 + i);
        json_t *r = serve(c, line);
        if (!ok(r)) fprintf(stderr, "play %d: %s\n", i, code(r));
        ASSERT_TRUE(ok(r));
        json_decref(r);
        /* 1.05 s: the voice ends, and its clip goes back to the cache alone. */
        r = serve(c, "{\"command\": \"audio.render_offline\", \"params\": {\"seconds\": "
                     "0.01}}");
        ASSERT_TRUE(ok(r));
        json_decref(r);
        r = serve(c, "{\"command\": \"audio.render_offline\", \"params\": {\"seconds\": "
                     "1.05}}");
        ASSERT_TRUE(ok(r));
        json_decref(r);
        ASSERT_LE(ear_commands_get_memory(c).used_bytes, 4u << 20);
    }
    json_t *r = serve(c, "{\"command\": \"audio.status\"}");
    json_t *mem = json_object_get(json_object_get(r, "result"), "memory");
    json_int_t cached = json_integer_value(json_object_get(mem, "cached_sounds"));
    printf("  60 names played; %lld cached at the end, peak %lld bytes\n", (long long)cached,
           (long long)json_integer_value(json_object_get(mem, "peak_bytes")));
    ASSERT_LT(cached, 30); /* 60 would be 11 MiB */
    ASSERT_LE(json_integer_value(json_object_get(mem, "peak_bytes")), 4 << 20);
    json_decref(r);
    ear_commands_destroy(c);
}

/* An analysis that cannot have its memory is an error, not 0 Hz with ok: a budget where
 * the render fits but, once a clip fills the rest, the analysis's transform does not. */
TEST(an_analysis_without_memory_is_an_error) {
    ear_log_set(quiet, NULL, EAR_LOG_WARN);
    /* 0.5 s: a 192000-byte buffer; its transforms need ear_spectrum_scratch_bytes(24000). */
    size_t scratch = ear_spectrum_scratch_bytes(24000);
    ear_commands *c = make_with_budget(8u << 20);
    ASSERT_NOT_NULL(c);
    json_t *r = serve(c, "{\"command\": \"audio.play\", \"params\": {\"sound\": "
                         "\"synth:sine:700:1\", \"looping\": true}}");
    ASSERT_TRUE(ok(r));
    json_decref(r);
    r = serve(c, "{\"command\": \"audio.render_offline\", \"params\": {\"seconds\": 0.5}}");
    ASSERT_TRUE(ok(r));
    ASSERT_REL(num(r, "dominant_hz"), 700.0, 1e-3);
    json_decref(r);
    /* Fill the budget to within half a transform with a defined clip. */
    ear_commands_memory m = ear_commands_get_memory(c);
    double room_s = (double)((8u << 20) - m.used_bytes - scratch / 2) / (4.0 * 48000);
    char line[256];
    snprintf(line, sizeof line,
             "{\"command\": \"audio.clip.define\", \"params\": {\"name\": \"fill\", "
             "\"synth\": {\"waveform\": \"sine\", \"frequency\": 100, \"seconds\": %.4f}}}",
             room_s);
    r = serve(c, line);
    ASSERT_TRUE(ok(r));
    json_decref(r);
    r = serve(c, "{\"command\": \"audio.analyze\", \"params\": {}}");
    ASSERT_FALSE(ok(r));
    ASSERT_STR_EQ(code(r), "E_TOO_BIG");
    ASSERT_NULL(json_object_get(r, "result"));
    json_decref(r);
    /* With the clip gone (reset keeps nothing), the same analysis measures. */
    r = serve(c, "{\"command\": \"audio.reset\"}");
    ASSERT_TRUE(ok(r));
    json_decref(r);
    ASSERT_LE(ear_commands_get_memory(c).used_bytes, 4096); /* the empty cache's tables */
    ear_commands_destroy(c);
}

/* Ogg/FLAC headers that claim more than they hold, by every route to a decode: the
 * decode's own error (truncated), never E_TOO_BIG, and a peak near the file's size. The
 * claim, 10 M frames, would be 40 MB, over the 8 MiB budget. */
static bool flac_claiming(const char *from, const char *to, uint64_t total) {
    FILE *f = fopen(from, "rb");
    if (!f) return false;
    unsigned char b[1 << 20];
    size_t n = fread(b, 1, sizeof b, f);
    fclose(f);
    if (n < 42 || n == sizeof b || memcmp(b, "fLaC", 4) != 0) return false;
    b[21] = (unsigned char)((b[21] & 0xf0) | ((total >> 32) & 0x0f));
    for (int i = 0; i < 4; i++) b[22 + i] = (unsigned char)(total >> (24 - 8 * i));
    f = fopen(to, "wb");
    if (!f) return false;
    bool written = fwrite(b, 1, n, f) == n;
    return fclose(f) == 0 && written;
}

TEST(overclaiming_files_by_every_route) {
    ear_log_set(quiet, NULL, EAR_LOG_WARN);
    char dir[] = "/tmp/earshot-claims-XXXXXX";
    ASSERT_NOT_NULL(mkdtemp(dir));
    char cmd[1024], wav[128], good[128], bad[128];
    snprintf(wav, sizeof wav, "%s/c.wav", dir);
    snprintf(cmd, sizeof cmd,
             "mkdir -p '%s/sounds' && sox -n -b 16 -r 48000 -c 1 '%s' synth 2 "
             "sine 440 >/dev/null 2>&1 && sox '%s' '%s/c.flac' >/dev/null 2>&1",
             dir, wav, wav, dir);
    ASSERT_EQ(system(cmd), 0);
    snprintf(good, sizeof good, "%s/c.flac", dir);
    snprintf(bad, sizeof bad, "%s/sounds/mid.flac", dir);
    ASSERT_TRUE(flac_claiming(good, bad, 10000000));
    snprintf(cmd, sizeof cmd, "%s/audio.json", dir);
    FILE *f = fopen(cmd, "w");
    ASSERT_NOT_NULL(f);
    fprintf(f, "{\"clips\": {\"mid\": \"mid.flac\"}, \"pools\": [{\"name\": \"p\", \"clips\": "
               "[\"mid\"]}]}\n");
    fclose(f);

    ear_commands *c = make_with_budget(8u << 20);
    ASSERT_NOT_NULL(c);
    char line[1400];
    /* audio.clip.define of the file */
    snprintf(line, sizeof line,
             "{\"command\": \"audio.clip.define\", \"params\": {\"name\": \"x\", \"path\": "
             "\"%s\"}}",
             bad);
    json_t *r = serve(c, line);
    ASSERT_STR_EQ(code(r), "E_BAD_PARAM");
    ASSERT_STR_CONTAINS(json_string_value(json_object_get(error_of(r), "message")),
                        "truncated: the header promises 10000000 frames");
    json_decref(r);
    /* audio.load: the pool's clip is decoded while loading */
    snprintf(line, sizeof line,
             "{\"command\": \"audio.load\", \"params\": {\"path\": \"%s/audio.json\"}}", dir);
    r = serve(c, line);
    ASSERT_FALSE(ok(r));
    printf("  audio.load: %s\n", json_string_value(json_object_get(error_of(r), "message")));
    ASSERT_STR_EQ(code(r), "E_BAD_PARAM");
    ASSERT_STR_CONTAINS(json_string_value(json_object_get(error_of(r), "message")),
                        "truncated");
    json_decref(r);
    /* audio.play of a file name under <assets>/sounds (the asset cache) */
    ear_commands_destroy(c);
    ear_commands_config config = ear_commands_config_default();
    config.max_memory_bytes = 8u << 20;
    config.assets_root = dir;
    ASSERT_OK(ear_commands_create(&config, &c));
    r = serve(c, "{\"command\": \"audio.play\", \"params\": {\"sound\": \"mid\"}}");
    ASSERT_FALSE(ok(r));
    ASSERT_STR_EQ(code(r), "E_BAD_PARAM");
    printf("  audio.play: %s\n", json_string_value(json_object_get(error_of(r), "message")));
    ASSERT_STR_CONTAINS(json_string_value(json_object_get(error_of(r), "message")),
                        "truncated: the header promises 10000000 frames");
    json_decref(r);
    r = serve(c, "{\"command\": \"audio.play\", \"params\": {\"sound\": \"mid.flac\"}}");
    ASSERT_FALSE(ok(r));
    ASSERT_STR_EQ(code(r), "E_BAD_PARAM");
    json_decref(r);
    ear_commands_memory m = ear_commands_get_memory(c);
    long bytes = 0;
    f = fopen(bad, "rb");
    ASSERT_NOT_NULL(f);
    fseek(f, 0, SEEK_END);
    bytes = ftell(f);
    fclose(f);
    printf("  %ld-byte file claiming 10 M frames: peak %llu bytes\n", bytes,
           (unsigned long long)m.peak_bytes);
    /* The first guess (8 frames a byte + 65536) or twice the 96000 real frames. */
    size_t guess = (size_t)bytes * 8 + 65536;
    ASSERT_LE(m.peak_bytes, (guess > 2 * 96000 ? guess : 2 * 96000) * 4 + 65536);
    ASSERT_U64_EQ(m.used_bytes <= 65536, 1);
    ear_commands_destroy(c);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ASSERT_EQ(system(cmd), 0);
}

/* audio.limiter.set: off by default (a loud sound renders above full scale), on it holds
 * the ceiling to the sample, audio.status reports it, and a bad value is the schema's
 * E_BAD_PARAM naming the field. */
TEST(the_limiter_through_serve) {
    ear_log_set(quiet, NULL, EAR_LOG_WARN);
    ear_commands *c = make();
    ASSERT_NOT_NULL(c);
    const char *loud = "{\"command\": \"audio.play\", \"params\": {\"sound\": "
                       "\"synth:sine:440:1\", \"volume\": 6}}";
    const char *render = "{\"command\": \"audio.render_offline\", \"params\": "
                         "{\"seconds\": 0.3}}";
    json_t *r = serve(c, loud);
    ASSERT_TRUE(ok(r));
    json_decref(r);
    r = serve(c, render);
    ASSERT_TRUE(ok(r));
    double unlimited = num(r, "peak");
    json_decref(r);
    ASSERT_DBL_GT(unlimited, 2.0);
    r = serve(c, "{\"command\": \"audio.limiter.set\", \"params\": {\"enabled\": true, "
                 "\"ceiling_db\": -6}}");
    ASSERT_TRUE(ok(r));
    ASSERT_NEAR(num(r, "ceiling_db"), -6.0, 0);
    ASSERT_NEAR(num(r, "lookahead_ms"), 2.0, 0);
    ASSERT_NEAR(num(r, "latency_frames"), 96.0, 0);
    json_decref(r);
    r = serve(c, loud);
    json_decref(r);
    r = serve(c, render);
    ASSERT_TRUE(ok(r));
    double limited = num(r, "peak");
    json_decref(r);
    printf("  peak %.4f unlimited, %.6f limited to -6 dBFS\n", unlimited, limited);
    ASSERT_DBL_LE(limited, (double)(float)pow(10.0, -6.0 / 20.0));
    ASSERT_DBL_GT(limited, 0.49);
    r = serve(c, "{\"command\": \"audio.status\"}");
    json_t *lim = json_object_get(json_object_get(r, "result"), "limiter");
    ASSERT_TRUE(json_is_true(json_object_get(lim, "enabled")));
    ASSERT_NEAR(json_number_value(json_object_get(lim, "release_ms")), 50.0, 0);
    ASSERT_DBL_LT(json_number_value(json_object_get(lim, "gain_db")), -6.0);
    /* the latency a device at its default 256-frame buffer would give: the 160-frame block's
     * wait (at most 160 - gcd(160, 256) = 128), the lookahead, the buffer (docs/commands.md) */
    json_t *lat = json_object_get(json_object_get(r, "result"), "latency");
    ASSERT_EQ(json_integer_value(json_object_get(lat, "buffer_frames")), 256);
    ASSERT_EQ(json_integer_value(json_object_get(lat, "best_frames")), 96);
    ASSERT_EQ(json_integer_value(json_object_get(lat, "worst_frames")), 128 + 96 + 256);
    ASSERT_NEAR(json_number_value(json_object_get(lat, "worst_ms")), 10.0, 1e-9);
    ASSERT_TRUE(strstr(json_string_value(json_object_get(lat, "device")), "offline") != NULL);
    json_decref(r);
    r = serve(c, "{\"command\": \"audio.limiter.set\", \"params\": {\"ceiling_db\": 1}}");
    ASSERT_STR_EQ(code(r), "E_BAD_PARAM");
    ASSERT_STR_EQ(where(r), "params.ceiling_db");
    json_decref(r);
    ear_commands_destroy(c);
}

/* Valid JSON that is no object is told what it is: a serve line "42" is not "not valid
 * JSON" but "expected a JSON object ..., got a number"; over MCP it is an Invalid Request
 * (-32600), not a Parse error (-32700). */
TEST(valid_json_that_is_no_object_is_named) {
    ear_log_set(quiet, NULL, EAR_LOG_WARN);
    ear_commands *c = make();
    ASSERT_TRUE(c != NULL);
    static const struct {
        const char *line, *kind;
    } lines[] = {{"42", "got a number"},
                 {"[1, 2]", "got an array"},
                 {"\"audio.status\"", "got a string"},
                 {"null", "got null"}};
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        json_t *r = serve(c, lines[i].line);
        ASSERT_STR_EQ(code(r), "E_BAD_JSON");
        const char *m =
            json_string_value(json_object_get(json_object_get(r, "error"), "message"));
        ASSERT_TRUE(m && strstr(m, "expected a JSON object") && strstr(m, lines[i].kind));
        ASSERT_TRUE(strstr(m, "not valid JSON") == NULL);
        json_decref(r);
    }
    json_t *r = mcp(c, "42");
    ASSERT_EQ(json_integer_value(json_object_get(json_object_get(r, "error"), "code")), -32600);
    json_decref(r);
    r = mcp(c, "{not json");
    ASSERT_EQ(json_integer_value(json_object_get(json_object_get(r, "error"), "code")), -32700);
    json_decref(r);
    ear_commands_destroy(c);
    ear_log_set(NULL, NULL, EAR_LOG_WARN);
}

static json_t *run_params(ear_commands *c, const char *name, const char *params, json_t **err) {
    json_t *p = json_loads(params, 0, NULL);
    json_t *result = ear_commands_run(c, name, p, err);
    json_decref(p);
    return result;
}

static const char *err_message(const json_t *err) {
    const char *m = json_string_value(json_object_get(err, "message"));
    return m ? m : "";
}

/* The repro: over MCP, "overwrite": true let a client replace src/main.c with a
 * WAV, and each 80-byte call wrote 230 MB. Now "overwrite" replaces only files this
 * session wrote, a session's files are bounded by its output quota (E_TOO_BIG naming the
 * bytes, before anything is rendered), and no error shows the server's folder. */
TEST(mcp_writes_only_its_own_files_within_its_quota) {
    ear_log_set(quiet, NULL, EAR_LOG_WARN);
    char old[4096];
    ASSERT_TRUE(getcwd(old, sizeof old) != NULL);
    char dir[] = "/tmp/earshot-mcp-files-XXXXXX";
    ASSERT_TRUE(mkdtemp(dir) != NULL);
    ASSERT_EQ(chdir(dir), 0);
    FILE *f = fopen("main.c", "w");
    ASSERT_TRUE(f != NULL);
    fputs("int main(void) { return 0; }\n", f);
    fclose(f);
    ASSERT_EQ(mkfifo("fifo.json", 0600), 0);
    ear_commands_config config = ear_commands_config_default();
    config.confine_paths = true;
    config.max_output_bytes = 200000;
    ear_commands *c = NULL;
    ASSERT_OK(ear_commands_create(&config, &c));
    json_t *err = NULL;
    json_t *r =
        run_params(c, "audio.render_offline",
                   "{\"seconds\": 0.1, \"path\": \"main.c\", \"overwrite\": true}", &err);
    ASSERT_TRUE(r == NULL);
    ASSERT_STR_EQ(json_string_value(json_object_get(err, "code")), "E_EXISTS");
    printf("  %s\n", err_message(err));
    ASSERT_TRUE(
        strstr(err_message(err), "main.c: exists and is not a WAV that Earshot wrote") != NULL);
    ASSERT_TRUE(strstr(err_message(err), "replaces only files this session wrote") != NULL);
    ASSERT_TRUE(strstr(err_message(err), dir) == NULL);
    json_decref(err);
    f = fopen("main.c", "r");
    char text[64] = {0};
    ASSERT_TRUE(f && fgets(text, sizeof text, f));
    fclose(f);
    ASSERT_STR_EQ(text, "int main(void) { return 0; }\n");
    /* Its own file: written, then replaced with "overwrite" (and without). */
    r = run_params(c, "audio.render_offline", "{\"seconds\": 0.1, \"path\": \"out.wav\"}",
                   &err);
    ASSERT_TRUE(r != NULL);
    json_decref(r);
    r = run_params(c, "audio.render_offline",
                   "{\"seconds\": 0.1, \"path\": \"out.wav\", \"overwrite\": true}", &err);
    ASSERT_TRUE(r != NULL);
    json_decref(r);
    /* 0.1 s is 38400 bytes of samples; 1 s (384256 with the header) passes 200000. */
    r = run_params(c, "audio.render_offline", "{\"seconds\": 1, \"path\": \"big.wav\"}", &err);
    ASSERT_TRUE(r == NULL);
    ASSERT_STR_EQ(json_string_value(json_object_get(err, "code")), "E_TOO_BIG");
    printf("  %s\n", err_message(err));
    ASSERT_EQ(json_integer_value(json_object_get(err, "needed_bytes")), 384256);
    ASSERT_EQ(json_integer_value(json_object_get(err, "quota_bytes")), 200000);
    ASSERT_GT(json_integer_value(json_object_get(err, "written_bytes")), 76800);
    ASSERT_TRUE(strstr(err_message(err), "output quota of 200000 bytes") != NULL);
    json_decref(err);
    ASSERT_NE(access("big.wav", F_OK), 0);
    /* A FIFO named as a file is refused at once, and the message is relative. */
    alarm(10);
    r = run_params(c, "world.load", "{\"path\": \"fifo.json\"}", &err);
    ASSERT_TRUE(r == NULL);
    printf("  %s\n", err_message(err));
    ASSERT_TRUE(strstr(err_message(err), "fifo.json: is a FIFO, not a file") != NULL);
    ASSERT_TRUE(strstr(err_message(err), dir) == NULL);
    json_decref(err);
    r = run_params(c, "audio.hrtf.load", "{\"path\": \"fifo.json\"}", &err);
    alarm(0);
    ASSERT_TRUE(r == NULL);
    printf("  %s\n", err_message(err));
    ASSERT_TRUE(strstr(err_message(err), "is a FIFO, not a file") != NULL);
    ASSERT_TRUE(strstr(err_message(err), dir) == NULL);
    json_decref(err);
    ear_commands_destroy(c);
    unlink("main.c");
    unlink("out.wav");
    unlink("fifo.json");
    ASSERT_EQ(chdir(old), 0);
    rmdir(dir);
    ear_log_set(NULL, NULL, EAR_LOG_WARN);
}

TEST_MAIN(TEST_ENTRY(fast_json_agrees_with_jansson),
          TEST_ENTRY(valid_json_that_is_no_object_is_named),
          TEST_ENTRY(mcp_writes_only_its_own_files_within_its_quota),
          TEST_ENTRY(quick_start_gives_the_doppler_shifted_horn),
          TEST_ENTRY(every_command_through_serve),
          TEST_ENTRY(bad_input_gives_the_right_error_and_serving_goes_on),
          TEST_ENTRY(too_many_voices_is_its_own_error),
          TEST_ENTRY(a_full_duck_table_is_a_state_error), TEST_ENTRY(audio_play_takes_a_cone),
          TEST_ENTRY(the_limiter_through_serve),
          TEST_ENTRY(audio_play_takes_a_start_and_a_random_start),
          TEST_ENTRY(render_writes_a_wav_and_state_goes_on),
          TEST_ENTRY(docs_examples_validate_and_run), TEST_ENTRY(mcp_messages),
          TEST_ENTRY(past_the_budget_is_too_big_and_nothing_is_lost),
          TEST_ENTRY(a_render_counts_its_envelopes),
          TEST_ENTRY(ended_synth_names_are_trimmed_for_room),
          TEST_ENTRY(an_analysis_without_memory_is_an_error),
          TEST_ENTRY(overclaiming_files_by_every_route),
          TEST_ENTRY(schema_examples_validate_and_are_documented),
          TEST_ENTRY(serve_errors_name_the_request_line))
