/* SPDX-License-Identifier: Zlib */
/*
 * audio.json applied to a stage through the mixer (buses, ducks, blends, pools), once per
 * assets folder; blends found in <root>/sounds/<name>.blend.json on first use; music by
 * name streamed through the stage. Needs the mixer's functions (mixer.h).
 */
#define _POSIX_C_SOURCE 200809L

#include "earshot/assets.h"
#include "../decode/sox_util.h"
#include "assets_files.h"
#include "test.h"

#include <time.h>

static const char *setup =
    "{\"buses\": {\"music\": 0.5, \"ui\": 0.25},\n"
    " \"ducks\": [{\"name\": \"music_under_announcer\", \"trigger\": \"ui\",\n"
    "             \"target\": \"music\", \"gain_db\": -12}],\n"
    " \"clips\": {\"horn\": \"horn.wav\"},\n"
    " \"blends\": [{\"name\": \"car_engine\", \"bus\": \"engine\",\n"
    "   \"params\": [{\"name\": \"rpm\", \"min\": 800, \"max\": 8000, \"default\": 800}],\n"
    "   \"layers\": [{\"clip\": \"synth:engine:55:2\",\n"
    "      \"gain\": [{\"param\": \"rpm\", \"points\": [[800, 1], [3000, 0]]}]},\n"
    "     {\"clip\": \"synth:engine:110:2\",\n"
    "      \"gain\": [{\"param\": \"rpm\", \"points\": [[800, 0], [3000, 1]]}]}]}],\n"
    " \"pools\": [{\"name\": \"hits\", \"clips\": [\"horn\", \"synth:square:200:0.1\"],\n"
    "   \"volume\": [0.5, 1], \"no_repeat\": true}],\n"
    " \"reverb\": {\"preset\": \"hall\", \"rt60_high_s\": 1.25, \"sends\": {\"ui\": 0.5}}}\n";

static double rms_of(const float *s, size_t n) {
    double sum = 0;
    for (size_t i = 0; i < n; i++) sum += (double)s[i] * s[i];
    return sqrt(sum / (double)n);
}

static void remove_files(void) {
    remove_tree(root);
}

/* The files the tests read, made by sox in a scratch folder by the first test that names
 * them (SETUP_ONCE, so each test also runs alone) and removed when the process exits. */
static void make_files(void) {
    ASSERT_TRUE(scratch_dir(root, sizeof root, "apply"));
    atexit(remove_files);
    ASSERT_TRUE(run("mkdir -p '%s' '%s'", at("sounds"), at("music")));
    ASSERT_TRUE(run("sox -n -r 48000 -c 1 '%s' synth 0.3 sine 300", at("sounds/horn.wav")));
    ASSERT_TRUE(run("sox -n -r 48000 -c 2 '%s' synth 1 sine 440 sine 660 gain -6",
                    at("music/menu.ogg")));
    ASSERT_TRUE(write_text(at("audio.json"), setup));
    ASSERT_TRUE(write_text(at("sounds/wind.blend.json"),
                           "{\"name\": \"wind\", \"bus\": \"ambience\",\n"
                           " \"params\": [{\"name\": \"speed\", \"min\": 0, \"max\": 40}],\n"
                           " \"layers\": [{\"clip\": \"synth:noise:1:1\",\n"
                           "   \"gain\": [{\"param\": \"speed\", \"points\": [[0, 0.1], [40, "
                           "1]]}]}]}\n"));
}

TEST(audio_json_is_applied_once) {
    SETUP_ONCE(make_files);
    ear_assets *a;
    ASSERT_OK(ear_assets_create(&(ear_assets_config){.root = root}, &a));
    ear_stage *stage;
    ASSERT_OK(ear_stage_create(NULL, &stage));
    ear_io_error err = {{0}};
    ear_result r = ear_assets_apply_setup(a, stage, &err);
    if (r) fprintf(stderr, "%s\n", err.message);
    ASSERT_OK(r);
    ASSERT_NEAR(ear_stage_get_bus(stage, EAR_BUS_MUSIC).volume, 0.5, 1e-6);
    ASSERT_NEAR(ear_stage_get_bus(stage, EAR_BUS_UI).volume, 0.25, 1e-6);
    ear_reverb_params hall;
    ear_reverb_preset_params(EAR_REVERB_HALL, &hall);
    ASSERT_NEAR(ear_stage_get_reverb(stage).rt60_low_s, hall.rt60_low_s, 0);
    ASSERT_NEAR(ear_stage_get_reverb(stage).rt60_high_s, 1.25, 1e-6);
    ASSERT_NEAR(ear_stage_get_bus_reverb_send(stage, EAR_BUS_UI), 0.5, 1e-6);
    ear_duck_rule duck;
    ASSERT_OK(ear_stage_get_duck(stage, "music_under_announcer", &duck));
    ASSERT_EQ(duck.trigger, EAR_BUS_UI);
    ASSERT_EQ(duck.target, EAR_BUS_MUSIC);
    ASSERT_NEAR(duck.gain_db, -12, 0);

    /* Applied once: a later change of the volume by the game stays. */
    ASSERT_OK(ear_stage_set_bus_volume(stage, EAR_BUS_MUSIC, 0.9f));
    ASSERT_OK(ear_assets_apply_setup(a, stage, &err));
    ASSERT_NEAR(ear_stage_get_bus(stage, EAR_BUS_MUSIC).volume, 0.9, 1e-6);

    /* The blend and the pool play and are heard. */
    ear_voice_id blend, hit;
    ASSERT_OK(ear_assets_play_blend(a, stage, "car_engine", NULL, &blend));
    ASSERT_OK(ear_stage_set_param(stage, blend, "rpm", 3000));
    ASSERT_OK(ear_stage_play_pool(stage, "hits", NULL, &hit));
    float *out = calloc(2 * 9600, sizeof(float));
    ASSERT_OK(ear_stage_render(stage, out, 9600));
    double level = rms_of(out, 2 * 9600);
    printf("  blend and pool: rms %.4f\n", level);
    ASSERT_DBL_GT(level, 0.01);
    free(out);
    ear_stage_destroy(stage);
    ear_assets_destroy(a);
}

TEST(a_blend_file_is_read_on_first_use) {
    SETUP_ONCE(make_files);
    ear_assets *a;
    ASSERT_OK(ear_assets_create(&(ear_assets_config){.root = root}, &a));
    ear_stage *stage;
    ASSERT_OK(ear_stage_create(NULL, &stage));
    ear_voice_id id;
    ASSERT_OK(ear_assets_play_blend(a, stage, "wind", NULL, &id));
    ASSERT_TRUE(ear_stage_is_playing(stage, id));
    ASSERT_OK(ear_stage_set_param(stage, id, "speed", 20));
    ASSERT_OK(ear_assets_play_blend(a, stage, "wind", NULL, &id)); /* registered now */
    log_catcher log;
    start_catching(&log);
    ASSERT_EQ(ear_assets_play_blend(a, stage, "gale", NULL, &id), EAR_E_NOT_FOUND);
    ASSERT_EQ(ear_assets_play_blend(a, stage, "gale", NULL, &id), EAR_E_NOT_FOUND);
    stop_catching();
    ASSERT_EQ(id, EAR_VOICE_NONE);
    ASSERT_EQ(log.warnings, 1);
    ASSERT_STR_CONTAINS(log.text, "no blend named \"gale\"");
    ear_stage_destroy(stage);
    ear_assets_destroy(a);
}

TEST(music_streams_through_the_stage) {
    SETUP_ONCE(make_files);
    ear_assets *a;
    ASSERT_OK(ear_assets_create(&(ear_assets_config){.root = root}, &a));
    ear_stage *stage;
    ASSERT_OK(ear_stage_create(NULL, &stage));
    ASSERT_OK(ear_assets_play_music(a, stage, "menu", false, 1.0f, 0.0f));
    ASSERT_STR_EQ(ear_stage_music_name(stage), "menu");
    /* Rendered a little at a time, as a device would, so the decoder keeps ahead. */
    float *out = calloc(2 * 48000, sizeof(float));
    for (int i = 0; i < 100; i++) {
        ASSERT_OK(ear_stage_render(stage, out + (size_t)i * 960, 480));
        struct timespec nap = {0, 1000000L};
        nanosleep(&nap, NULL);
    }
    double level = rms_of(out + 2 * 4800, 2 * 38400);
    printf("  streamed music: rms %.4f\n", level);
    ASSERT_DBL_GT(level, 0.1);
    log_catcher log;
    start_catching(&log);
    ASSERT_EQ(ear_assets_play_music(a, stage, "no-such-song", false, 1, 0), EAR_E_NOT_FOUND);
    stop_catching();
    ASSERT_EQ(log.warnings, 1);
    free(out);
    ear_stage_destroy(stage);
    ear_assets_destroy(a);
}

TEST_MAIN(TEST_ENTRY(audio_json_is_applied_once), TEST_ENTRY(a_blend_file_is_read_on_first_use),
          TEST_ENTRY(music_streams_through_the_stage))
