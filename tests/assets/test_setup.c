/* SPDX-License-Identifier: Zlib */
/*
 * audio.json: parsed into mixer.h's structs (buses, ducks, clips, blends, pools) with
 * every key checked; each error names the file and the JSON path of the value at fault.
 * Loading it from an assets folder registers its clip names and resolves every blend
 * layer's and pool's sound. (Applying it to a stage is test_setup_apply, which needs the
 * mixer.)
 */
/* mkfifo, symlink, alarm: _POSIX_C_SOURCE (CMakeLists.txt) */
#include "earshot/assets.h"
#include "../decode/sox_util.h"
#include "assets_files.h"
#include "test.h"

#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const char *example =
    "{\"buses\": {\"music\": 0.7, \"sfx\": 0.9},\n"
    " \"ducks\": [{\"name\": \"music_under_announcer\", \"trigger\": \"ui\",\n"
    "             \"target\": \"music\", \"gain_db\": -12, \"attack_s\": 0.1}],\n"
    " \"clips\": {\"horn\": \"horn.wav\"},\n"
    " \"blends\": [{\"name\": \"car_engine\", \"bus\": \"engine\", \"smoothing_ms\": 30,\n"
    "   \"params\": [{\"name\": \"rpm\", \"min\": 800, \"max\": 8000, \"default\": 800},\n"
    "              {\"name\": \"load\", \"min\": 0, \"max\": 1}],\n"
    "   \"layers\": [\n"
    "     {\"clip\": \"synth:engine:55:2\",\n"
    "      \"gain\": [{\"param\": \"rpm\", \"points\": [[800, 1], [3000, 0]],\n"
    "                 \"shape\": \"equal_power\"}],\n"
    "      \"pitch\": [{\"param\": \"rpm\", \"points\": [[800, 0.8], [3000, 1.4]]}]},\n"
    "     {\"clip\": \"synth:engine:110:2\", \"loop_crossfade_ms\": 20,\n"
    "      \"gain\": [{\"param\": \"rpm\", \"points\": [[2000, 0], [5000, 1]],\n"
    "                 \"shape\": \"equal_power\"},\n"
    "                {\"param\": \"load\", \"points\": [[0, 0.4], [1, 1]]}]}]}],\n"
    " \"pools\": [{\"name\": \"tyre_hit\", \"clips\": [\"horn\", \"synth:noise:1:0.1\"],\n"
    "   \"bus\": \"sfx\", \"volume\": [0.8, 1], \"pitch_semitones\": [-2, 2],\n"
    "   \"no_repeat\": true, \"max_instances\": 4, \"priority\": 10}],\n"
    " \"reverb\": {\"preset\": \"cave\", \"wet\": 0.4, \"sends\": {\"ambience\": 0.3}}}\n";

TEST(parses_every_part) {
    ear_audio_setup *s = NULL;
    ear_io_error err = {{0}};
    ear_result r =
        ear_audio_setup_parse(example, strlen(example), "assets/audio.json", &s, &err);
    if (r) fprintf(stderr, "%s\n", err.message);
    ASSERT_OK(r);
    ASSERT_TRUE(s->has_bus_volume[EAR_BUS_MUSIC]);
    ASSERT_NEAR(s->bus_volume[EAR_BUS_MUSIC], 0.7, 1e-6);
    ASSERT_NEAR(s->bus_volume[EAR_BUS_SFX], 0.9, 1e-6);
    ASSERT_FALSE(s->has_bus_volume[EAR_BUS_UI]);
    /* The room: the cave preset with its wet level given. */
    ear_reverb_params cave;
    ear_reverb_preset_params(EAR_REVERB_CAVE, &cave);
    ASSERT_TRUE(s->has_reverb);
    ASSERT_NEAR(s->reverb.rt60_low_s, cave.rt60_low_s, 0);
    ASSERT_NEAR(s->reverb.size, cave.size, 0);
    ASSERT_NEAR(s->reverb.wet, 0.4, 1e-6);
    ASSERT_TRUE(s->has_reverb_send[EAR_BUS_AMBIENCE]);
    ASSERT_NEAR(s->reverb_send[EAR_BUS_AMBIENCE], 0.3, 1e-6);
    ASSERT_FALSE(s->has_reverb_send[EAR_BUS_SFX]);

    ASSERT_EQ(s->duck_count, 1);
    ASSERT_STR_EQ(s->ducks[0].name, "music_under_announcer");
    ASSERT_EQ(s->ducks[0].trigger, EAR_BUS_UI);
    ASSERT_EQ(s->ducks[0].target, EAR_BUS_MUSIC);
    ASSERT_NEAR(s->ducks[0].gain_db, -12, 0);
    ASSERT_NEAR(s->ducks[0].attack_s, 0.1, 1e-7);
    ASSERT_NEAR(s->ducks[0].hold_s, 0, 0); /* zero: the mixer's default */

    ASSERT_EQ(s->clip_count, 1);
    ASSERT_STR_EQ(s->clips[0].name, "horn");
    ASSERT_STR_EQ(s->clips[0].file, "horn.wav");

    ASSERT_EQ(s->blend_count, 1);
    const ear_blend_def *b = &s->blends[0].def;
    ASSERT_STR_EQ(b->name, "car_engine");
    ASSERT_EQ(b->bus, EAR_BUS_ENGINE);
    ASSERT_NEAR(b->smoothing_ms, 30, 0);
    ASSERT_EQ(b->param_count, 2);
    ASSERT_STR_EQ(b->params[0].name, "rpm");
    ASSERT_NEAR(b->params[0].min, 800, 0);
    ASSERT_NEAR(b->params[0].max, 8000, 0);
    ASSERT_NEAR(b->params[0].initial, 800, 0);
    ASSERT_NEAR(b->params[1].initial, 0, 0); /* no default: min */
    ASSERT_EQ(b->layer_count, 2);
    ASSERT_STR_EQ(s->blends[0].clip_names[0], "synth:engine:55:2");
    ASSERT_NULL(b->layers[0].clip);
    ASSERT_EQ(b->layers[0].gain_count, 1);
    ASSERT_EQ(b->layers[0].pitch_count, 1);
    ASSERT_EQ(b->layers[0].gain[0].shape, EAR_CURVE_EQUAL_POWER);
    ASSERT_EQ(b->layers[0].pitch[0].shape, EAR_CURVE_LINEAR);
    ASSERT_EQ(b->layers[0].gain[0].count, 2);
    ASSERT_NEAR(b->layers[0].gain[0].x[1], 3000, 0);
    ASSERT_NEAR(b->layers[0].pitch[0].y[1], 1.4, 1e-6);
    ASSERT_EQ(b->layers[1].gain_count, 2);
    ASSERT_STR_EQ(b->layers[1].gain[1].param, "load");
    ASSERT_NEAR(b->layers[1].loop_crossfade_s, 0.02, 1e-7);

    ASSERT_EQ(s->pool_count, 1);
    const ear_pool_def *p = &s->pools[0].def;
    ASSERT_STR_EQ(p->name, "tyre_hit");
    ASSERT_EQ(p->clip_count, 2);
    ASSERT_STR_EQ(s->pools[0].clip_names[1], "synth:noise:1:0.1");
    ASSERT_NEAR(p->volume_min, 0.8, 1e-6);
    ASSERT_NEAR(p->pitch_semitones_min, -2, 0);
    ASSERT_NEAR(p->pitch_semitones_max, 2, 0);
    ASSERT_TRUE(p->no_repeat);
    ASSERT_EQ(p->max_instances, 4);
    ASSERT_EQ(p->priority, 10);
    ear_audio_setup_destroy(s);
}

/* Each bad text fails with EAR_E_FORMAT and a message that starts with the file and
 * holds the path and the reason. */
static const struct {
    const char *json;
    const char *expect;
} bad[] = {
    {"[1, 2]", "assets/audio.json: expected an object, got an array"},
    /* Valid JSON that is no object is told what it is, not called "not valid JSON". */
    {"42", "assets/audio.json: expected an object, got a number"},
    {"\"x\"", "assets/audio.json: expected an object, got a string"},
    {"null", "assets/audio.json: expected an object, got null"},
    {"{\"buses\": {\"music\": 0.7,}}", "assets/audio.json: line 1, column"},
    {"{\"busses\": {}}",
     "assets/audio.json: busses: unknown key (expected one of: buses, ducks"},
    {"{\"buses\": {\"musik\": 1}}", "assets/audio.json: buses.musik: no bus of that name"},
    {"{\"buses\": {\"music\": \"loud\"}}", "assets/audio.json: buses.music: expected a number"},
    {"{\"buses\": {\"music\": -1}}", "assets/audio.json: buses.music: -1 is outside 0..1000"},
    {"{\"ducks\": [{\"name\": \"d\", \"trigger\": \"ui\"}]}",
     "assets/audio.json: ducks[0].target: missing"},
    {"{\"ducks\": [{\"name\": \"d\", \"trigger\": \"ui\", \"target\": \"ui\"}]}",
     "assets/audio.json: ducks[0].target: a bus cannot duck itself"},
    {"{\"ducks\": [{\"name\": \"d\", \"trigger\": \"ui\", \"target\": \"music\", \"gain\": "
     "3}]}",
     "assets/audio.json: ducks[0].gain: unknown key"},
    {"{\"ducks\": [{\"name\": \"d\", \"trigger\": \"ui\", \"target\": \"music\"},"
     " {\"name\": \"d\", \"trigger\": \"sfx\", \"target\": \"music\"}]}",
     "assets/audio.json: ducks[1].name: a second entry named \"d\""},
    {"{\"clips\": {\"horn\": 3}}", "assets/audio.json: clips.horn: expected a string"},
    {"{\"blends\": [{\"name\": \"b\", \"params\": [{\"name\": \"rpm\", \"min\": 0, \"max\": "
     "1}],"
     " \"layers\": [{\"clip\": \"a\"}, {\"clip\": \"b\", \"gain\": [{\"param\": \"rpm\","
     " \"points\": [1, 2]}]}]}]}",
     "assets/audio.json: blends[0].layers[1].gain[0].points: expected an array of [x, y] "
     "pairs"},
    {"{\"blends\": [{\"name\": \"b\", \"params\": [{\"name\": \"rpm\", \"min\": 0, \"max\": "
     "1}],"
     " \"layers\": [{\"clip\": \"a\", \"pitch\": [{\"param\": \"rpmm\", \"points\": [[0, "
     "1]]}]}]}]}",
     "assets/audio.json: blends[0].layers[0].pitch[0].param: no parameter named \"rpmm\""},
    {"{\"blends\": [{\"name\": \"b\", \"params\": [{\"name\": \"rpm\", \"min\": 0, \"max\": "
     "1}],"
     " \"layers\": [{\"clip\": \"a\", \"gain\": [{\"param\": \"rpm\","
     " \"points\": [[0, 1], [0, 0]]}]}]}]}",
     "assets/audio.json: blends[0].layers[0].gain[0].points[1]: x must increase"},
    {"{\"blends\": [{\"name\": \"b\", \"params\": [{\"name\": \"rpm\", \"min\": 0, \"max\": "
     "1}],"
     " \"layers\": [{\"clip\": \"a\", \"gain\": [{\"param\": \"rpm\", \"points\": [[0, 1]],"
     " \"shape\": \"cubic\"}]}]}]}",
     "assets/audio.json: blends[0].layers[0].gain[0].shape: \"cubic\" is not a shape"},
    {"{\"blends\": [{\"name\": \"b\", \"params\": [{\"name\": \"rpm\", \"min\": 5, \"max\": "
     "1}],"
     " \"layers\": [{\"clip\": \"a\"}]}]}",
     "assets/audio.json: blends[0].params[0].max: max 1 is below min 5"},
    {"{\"blends\": [{\"name\": \"b\", \"layers\": []}]}",
     "assets/audio.json: blends[0].layers: expected an array of one or more layers"},
    {"{\"blends\": [{\"name\": \"b\", \"bus\": \"radio\", \"layers\": [{\"clip\": \"a\"}]}]}",
     "assets/audio.json: blends[0].bus: no bus named \"radio\""},
    {"{\"blends\": [{\"name\": \"a_name_that_is_far_too_long_for_a_blend\","
     " \"layers\": [{\"clip\": \"a\"}]}]}",
     "assets/audio.json: blends[0].name: too long (at most 31 bytes)"},
    {"{\"pools\": [{\"name\": \"p\", \"clips\": [\"a\", 7]}]}",
     "assets/audio.json: pools[0].clips[1]: expected a sound name"},
    {"{\"pools\": [{\"name\": \"p\", \"clips\": [\"a\"], \"volume\": [1, 0.5]}]}",
     "assets/audio.json: pools[0].volume: min 1 is above max 0.5"},
    {"{\"pools\": [{\"name\": \"p\", \"clips\": [\"a\"], \"priority\": 300}]}",
     "assets/audio.json: pools[0].priority: 300 is outside 0..255"},
    {"{\"pools\": [{\"name\": \"p\", \"clips\": [\"a\"], \"no_repeat\": 1}]}",
     "assets/audio.json: pools[0].no_repeat: expected true or false"},
    {"{\"reverb\": 1}", "assets/audio.json: reverb: expected an object"},
    {"{\"reverb\": {\"preset\": \"bathroom\"}}",
     "assets/audio.json: reverb.preset: no preset named \"bathroom\""},
    {"{\"reverb\": {\"rt60\": 2}}", "assets/audio.json: reverb.rt60: unknown key"},
    {"{\"reverb\": {\"size\": 5}}", "assets/audio.json: reverb.size: 5 is outside 0.25..3"},
    {"{\"reverb\": {\"sends\": {\"musik\": 0.5}}}",
     "assets/audio.json: reverb.sends.musik: no bus of that name"},
    {"{\"reverb\": {\"sends\": {\"music\": 2}}}",
     "assets/audio.json: reverb.sends.music: 2 is outside 0..1"},
};

TEST(errors_name_the_file_and_the_key) {
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ear_audio_setup *s = NULL;
        ear_io_error err = {{0}};
        ear_result r = ear_audio_setup_parse(bad[i].json, strlen(bad[i].json),
                                             "assets/audio.json", &s, &err);
        printf("  %s\n", err.message);
        ASSERT_EQ(r, EAR_E_FORMAT);
        ASSERT_NULL(s);
        if (strncmp(err.message, bad[i].expect, strlen(bad[i].expect)) != 0)
            ASSERT_STR_EQ(err.message, bad[i].expect);
    }
}

TEST(a_blend_file_parses_alone) {
    const char *text =
        "{\"name\": \"wind\", \"bus\": \"ambience\",\n"
        " \"params\": [{\"name\": \"speed\", \"min\": 0, \"max\": 40}],\n"
        " \"layers\": [{\"clip\": \"synth:noise:1:2\",\n"
        "   \"gain\": [{\"param\": \"speed\", \"points\": [[0, 0.1], [40, 1]]}]}]}";
    ear_blend_source b;
    ear_io_error err = {{0}};
    ASSERT_OK(ear_blend_parse(text, strlen(text), "sounds/wind.blend.json", &b, &err));
    ASSERT_STR_EQ(b.def.name, "wind");
    ASSERT_EQ(b.def.bus, EAR_BUS_AMBIENCE);
    ASSERT_EQ(b.def.layers[0].gain[0].count, 2);
    const char *broken = "{\"name\": \"wind\", \"layers\": [{\"clip\": 1}]}";
    ASSERT_EQ(ear_blend_parse(broken, strlen(broken), "sounds/wind.blend.json", &b, &err),
              EAR_E_FORMAT);
    ASSERT_STR_EQ(err.message, "sounds/wind.blend.json: layers[0].clip: expected a string");
}

TEST(loading_resolves_clip_names_through_the_assets) {
    ASSERT_TRUE(scratch_dir(root, sizeof root, "setup"));
    ASSERT_TRUE(run("mkdir -p '%s'", at("sounds")));
    ASSERT_TRUE(run("sox -n -r 48000 -c 1 '%s' synth 0.25 sine 300", at("sounds/horn.wav")));
    ASSERT_TRUE(write_text(at("audio.json"), example));
    ear_assets *a;
    ear_assets_config c = {.root = root};
    ASSERT_OK(ear_assets_create(&c, &a));
    ear_audio_setup *s = NULL;
    ear_io_error err = {{0}};
    ear_result r = ear_assets_load_setup(a, &s, &err);
    if (r) fprintf(stderr, "%s\n", err.message);
    ASSERT_OK(r);
    ASSERT_TRUE(s->clips_resolved);
    /* "horn" is now a name the assets know, and the pool's first clip is that file. */
    char path[1024];
    ASSERT_OK(ear_assets_resolve(a, "horn", path, sizeof path));
    ASSERT_STR_EQ(path, at("sounds/horn.wav"));
    ear_clip *horn = s->pools[0].def.clips[0];
    ASSERT_NOT_NULL(horn);
    ASSERT_EQ(ear_clip_frames(horn), 12000);
    ASSERT_EQ(ear_clip_refcount(horn), 2); /* the cache's and the setup's */
    ASSERT_NOT_NULL(s->blends[0].def.layers[0].clip);
    ASSERT_NOT_NULL(s->blends[0].def.layers[1].clip);
    ASSERT_EQ(ear_clip_frames(s->blends[0].def.layers[0].clip), 96000);
    ear_audio_setup_destroy(s);
    ASSERT_EQ(ear_clip_refcount(horn), 1);
    ear_assets_destroy(a);

    /* A name nothing answers to is named with its key. */
    ASSERT_TRUE(write_text(at("audio.json"), "{\"pools\": [{\"name\": \"p\","
                                             " \"clips\": [\"horn.wav\", \"thud\"]}]}"));
    ASSERT_OK(ear_assets_create(&c, &a));
    log_catcher log;
    start_catching(&log);
    ASSERT_EQ(ear_assets_load_setup(a, &s, &err), EAR_E_FORMAT);
    stop_catching();
    printf("  %s\n", err.message);
    char want[600];
    snprintf(want, sizeof want, "%s: pools[0].clips[1]: no sound named \"thud\"",
             at("audio.json"));
    ASSERT_STR_EQ(err.message, want);
    /* A clip name whose file is missing. */
    ASSERT_TRUE(write_text(at("audio.json"), "{\"clips\": {\"bell\": \"bell.ogg\"}}"));
    ASSERT_EQ(ear_assets_load_setup(a, &s, &err), EAR_E_FORMAT);
    printf("  %s\n", err.message);
    ASSERT_STR_CONTAINS(err.message, "audio.json: clips.bell: no file");
    /* No audio.json at all: not found, and not an error to report. */
    remove(at("audio.json"));
    ASSERT_EQ(ear_assets_load_setup(a, &s, &err), EAR_E_NOT_FOUND);
    ear_assets_destroy(a);
    remove_tree(root);
}

/* The repros: an assets folder of 12 KB whose audio.json is a sparse 20 GB file
 * reached 3-6 GB; a link to /dev/zero 11.5 GB; a FIFO waited for ever. Each is refused at
 * once now, naming what it is, and so is a blend file that is a FIFO and a clip file that
 * is one. */
TEST(an_audio_json_that_is_no_regular_file_or_too_big_is_refused_at_once) {
    ASSERT_TRUE(scratch_dir(root, sizeof root, "setup-hostile"));
    ASSERT_TRUE(run("mkdir -p '%s'", at("sounds")));
    ASSERT_TRUE(run("truncate -s 20G '%s'", at("audio.json")));
    alarm(20);
    ear_assets *a;
    ear_assets_config c = {.root = root};
    ASSERT_OK(ear_assets_create(&c, &a));
    ear_audio_setup *s = NULL;
    ear_io_error err = {{0}};
    /* Refused by its size before a byte is read (a read would end by the alarm, or by
     * another error): the message is the size check's own. */
    ASSERT_EQ(ear_assets_load_setup(a, &s, &err), EAR_E_FORMAT);
    printf("  %s\n", err.message);
    ASSERT_STR_CONTAINS(err.message, "audio.json: is 21474836480 bytes, over the 16 MiB limit");
    remove(at("audio.json"));
    ASSERT_EQ(symlink("/dev/zero", at("audio.json")), 0);
    ASSERT_EQ(ear_assets_load_setup(a, &s, &err), EAR_E_IO);
    printf("  %s\n", err.message);
    ASSERT_TRUE(strstr(err.message, "audio.json: is a character device, not a file") != NULL);
    ASSERT_TRUE(strstr(err.message, "empty") == NULL);
    remove(at("audio.json"));
    ASSERT_EQ(mkfifo(at("audio.json"), 0600), 0);
    ASSERT_EQ(ear_assets_load_setup(a, &s, &err), EAR_E_IO);
    ASSERT_TRUE(strstr(err.message, "audio.json: is a FIFO, not a file") != NULL);
    remove(at("audio.json"));
    /* A clip whose file is a FIFO: named, not waited on. */
    ASSERT_EQ(mkfifo(at("sounds/bell.ogg"), 0600), 0);
    ASSERT_TRUE(write_text(at("audio.json"), "{\"clips\": {\"bell\": \"bell.ogg\"}}"));
    ASSERT_EQ(ear_assets_load_setup(a, &s, &err), EAR_E_FORMAT);
    printf("  %s\n", err.message);
    ASSERT_TRUE(strstr(err.message, "clips.bell: ") != NULL);
    ASSERT_TRUE(strstr(err.message, "bell.ogg: is a FIFO, not a file") != NULL);
    /* A blend file that is a FIFO. */
    ASSERT_EQ(mkfifo(at("sounds/hum.blend.json"), 0600), 0);
    ear_stage *stage = NULL;
    ASSERT_OK(ear_stage_create(NULL, &stage));
    ASSERT_EQ(ear_assets_load_blend_file(a, stage, "hum", &err), EAR_E_IO);
    ASSERT_TRUE(strstr(err.message, "hum.blend.json: is a FIFO, not a file") != NULL);
    alarm(0);
    ear_stage_destroy(stage);
    ear_assets_destroy(a);
    remove_tree(root);
}

TEST_MAIN(TEST_ENTRY(parses_every_part), TEST_ENTRY(errors_name_the_file_and_the_key),
          TEST_ENTRY(a_blend_file_parses_alone),
          TEST_ENTRY(loading_resolves_clip_names_through_the_assets),
          TEST_ENTRY(an_audio_json_that_is_no_regular_file_or_too_big_is_refused_at_once))
