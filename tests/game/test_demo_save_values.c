/* SPDX-License-Identifier: Zlib */
/*
 * The demo's plain save is checked where its values enter (session.c's save_number): an
 * edited save with settings.master = 1e30 plays at 100 percent (the master bus at 1) and
 * the settings menu says "100 percent"; settings.speech = 1e300 (once cast to an int
 * unchecked: undefined behaviour, which this test's build traps: -fsanitize=
 * float-cast-overflow) is 100 percent too; a NaN is the default; a value below the range
 * is its least. The game's own scene, through the runner, keys as a player presses them.
 */
#include "demo.h"
#include "test.h"

#include "earshot/engine.h"
#include "earshot/mixer.h"
#include "earshot/speech.h"

#include <stdio.h>
#include <string.h>

#define SAVE_FILE "test_demo_save_values.save"

typedef struct run {
    char lines[64][256];
    int count;
} run;

/* Every line whose fate is known, heard whole or cut (a menu item moved past is cut). */
static void on_line(void *user, const ear_speech_event *e) {
    run *r = user;
    if (r->count < 64) snprintf(r->lines[r->count++], sizeof r->lines[0], "%s", e->text);
}

static bool said(const run *r, const char *text) {
    for (int i = 0; i < r->count; i++)
        if (strcmp(r->lines[i], text) == 0) return true;
    return false;
}

/* Starts the game on the plain save `text`, opens Settings (Down, Down, Enter in the main
 * menu) and reads the buses the stage plays at. */
static bool run_with_save(const char *text, run *r, ear_bus_state *master, ear_bus_state *sfx,
                          ear_bus_state *music) {
    memset(r, 0, sizeof *r);
    FILE *f = fopen(SAVE_FILE, "wb");
    if (!f || fputs(text, f) < 0 || fclose(f) != 0) return false;
    demo_options o = {0};
    o.save_path = SAVE_FILE;
    o.assets_dir = DEMO_ASSETS;
    o.on_line = on_line;
    o.line_user = r;
    demo *d = demo_create(&o);
    ear_ui *ui = NULL;
    if (!d || ear_ui_create(NULL, &ui) != EAR_OK) return false;
    ear_engine_config cfg = ear_engine_config_default("Three Errands save values");
    demo_configure(d, &cfg);
    ear_ui_attach(ui, &cfg);
    cfg.backend = EAR_BACKEND_HEADLESS;
    cfg.audio_attach = NULL;
    cfg.audio_update = NULL;
    cfg.audio_detach = NULL;
    ear_scene scene = demo_scene(d);
    ear_runner *rn = NULL;
    if (ear_runner_create(&cfg, &scene, &rn) != EAR_OK) return false;
    ear_runner_set_one_step_per_frame(rn, true);
    const int keys[][2] = {{5, EAR_KEY_DOWN}, {10, EAR_KEY_DOWN}, {15, EAR_KEY_ENTER}};
    for (int frame = 0; frame < 300; frame++) {
        for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
            if (keys[k][0] == frame) {
                ear_runner_key_down(rn, (ear_key)keys[k][1]);
                ear_runner_key_up(rn, (ear_key)keys[k][1]);
            }
        ear_runner_frame(rn, frame / 60.0);
    }
    ear_stage *st = ear_ctx_stage(ear_runner_ctx(rn));
    *master = ear_stage_get_bus(st, EAR_BUS_MASTER);
    *sfx = ear_stage_get_bus(st, EAR_BUS_SFX);
    *music = ear_stage_get_bus(st, EAR_BUS_MUSIC);
    ear_runner_destroy(rn);
    ear_ui_destroy(ui);
    demo_destroy(d);
    remove(SAVE_FILE);
    remove(SAVE_FILE ".broken");
    return true;
}

TEST(a_huge_master_volume_plays_and_is_said_as_100_percent) {
    run r;
    ear_bus_state master, sfx, music;
    ASSERT_TRUE(run_with_save("settings.master = 1e30\nsettings.speech = 1e300\n"
                              "settings.sound = nan\nsettings.music = -5\n"
                              "settings.rate = 1e30\n",
                              &r, &master, &sfx, &music));
    for (int i = 0; i < r.count; i++) printf("  %s\n", r.lines[i]);
    ASSERT_NEAR(master.volume, 1.0f, 1e-6f);
    ASSERT_NEAR(sfx.volume, 1.0f, 1e-6f);   /* NaN: the default, 100 percent */
    ASSERT_NEAR(music.volume, 0.0f, 1e-6f); /* -5: the least, 0 percent */
    /* (no HRTF loader here: no Headphones item, ten in all) */
    ASSERT_TRUE(said(&r, "Master volume, slider, 100 percent, 1 of 11"));
}

TEST(values_within_the_range_are_kept) {
    run r;
    ear_bus_state master, sfx, music;
    ASSERT_TRUE(run_with_save("settings.master = 40\nsettings.sound = 70\n", &r, &master, &sfx,
                              &music));
    ASSERT_NEAR(master.volume, 0.4f, 1e-6f);
    ASSERT_NEAR(sfx.volume, 0.7f, 1e-6f);
    ASSERT_TRUE(said(&r, "Master volume, slider, 40 percent, 1 of 11"));
}

TEST_MAIN(TEST_ENTRY(a_huge_master_volume_plays_and_is_said_as_100_percent),
          TEST_ENTRY(values_within_the_range_are_kept))
