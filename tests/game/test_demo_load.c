/* SPDX-License-Identifier: Zlib */
/*
 * A next level that cannot be loaded keeps the current one: the game's own scene (games/demo,
 * through the runner as main.c's headless loop drives it) plays level 1 to its goal by
 * keys (the route of keys.sh's goal script: turns of 60 frames are 90 degrees, walks at
 * 2 m/s), with level 2's map replaced by a map file (--map) that does not build (a control
 * character: the file, line and column are said) or has no start. Next level is chosen on the
 * completion menu: the player hears which level could not be loaded and why, stays in level 1
 * (its bodies still in the world, the level still 1) and is back on its completion menu.
 */
#include "demo.h"
#include "test.h"

#include "earshot/engine.h"
#include "earshot/physics.h"
#include "earshot/speech.h"

#include <stdio.h>
#include <string.h>

/* The map file, in the test's working folder (removed at the end). */
#define MAP_FILE "test_demo_load.map"

typedef struct key_event {
    int frame;
    bool down;
    ear_key key;
} key_event;

/* Level 1 from its start to the beacon (keys.sh's goal script). */
static const key_event route[] = {
    {10, true, EAR_KEY_RIGHT},    {70, false, EAR_KEY_RIGHT},   {70, true, EAR_KEY_UP},
    {160, false, EAR_KEY_UP},     {160, true, EAR_KEY_LEFT},    {220, false, EAR_KEY_LEFT},
    {220, true, EAR_KEY_UP},      {520, false, EAR_KEY_UP},     {520, true, EAR_KEY_LEFT},
    {580, false, EAR_KEY_LEFT},   {580, true, EAR_KEY_UP},      {640, false, EAR_KEY_UP},
    {640, true, EAR_KEY_LEFT},    {760, false, EAR_KEY_LEFT},   {760, true, EAR_KEY_UP},
    {820, false, EAR_KEY_UP},     {820, true, EAR_KEY_RIGHT},   {880, false, EAR_KEY_RIGHT},
    {880, true, EAR_KEY_UP},      {1120, false, EAR_KEY_UP},    {1120, true, EAR_KEY_RIGHT},
    {1180, false, EAR_KEY_RIGHT}, {1180, true, EAR_KEY_UP},     {1195, false, EAR_KEY_UP},
    {1195, true, EAR_KEY_RIGHT},  {1255, false, EAR_KEY_RIGHT}, {1255, true, EAR_KEY_UP},
    {1360, false, EAR_KEY_UP},    {1360, true, EAR_KEY_RIGHT},  {1420, false, EAR_KEY_RIGHT},
    {1420, true, EAR_KEY_UP},     {1525, false, EAR_KEY_UP},    {1525, true, EAR_KEY_RIGHT},
    {1585, false, EAR_KEY_RIGHT}, {1585, true, EAR_KEY_UP},     {1750, false, EAR_KEY_UP},
};

typedef struct run {
    char lines[64][512];
    int count;
} run;

/* Only what was heard: a line said whole (a cut one did not reach the player). */
static void on_line(void *user, const ear_speech_event *e) {
    run *r = user;
    if (e->kind != EAR_SPEECH_EVENT_END) return;
    if (r->count < 64) snprintf(r->lines[r->count++], sizeof r->lines[0], "%s", e->text);
}

static bool said(const run *r, const char *text, int from) {
    for (int i = from; i < r->count; i++)
        if (strcmp(r->lines[i], text) == 0) return true;
    return false;
}

/* Plays level 1 to the goal with level 2's map replaced, presses Enter on Next level.
 * Returns the first line index after the Enter. */
static int next_with_map(const char *map2, const char *language, run *r, int *level,
                         size_t *bodies, bool *finished) {
    memset(r, 0, sizeof *r);
    demo_options o = {0};
    o.start_level = 1;
    o.assets_dir = DEMO_ASSETS;
    o.language = language;
    o.on_line = on_line;
    o.line_user = r;
    /* the map file as --map gives it: read when the level loads */
    FILE *f = fopen(MAP_FILE, "wb");
    if (!f || fputs(map2, f) < 0 || fclose(f) != 0) return -1;
    o.map_files[1] = MAP_FILE;
    demo *d = demo_create(&o);
    ear_ui *ui = NULL;
    if (!d || ear_ui_create(NULL, &ui) != EAR_OK) return -1;
    ear_engine_config cfg = ear_engine_config_default("Three Errands load");
    demo_configure(d, &cfg);
    ear_ui_attach(ui, &cfg);
    cfg.backend = EAR_BACKEND_HEADLESS;
    cfg.audio_attach = NULL;
    cfg.audio_update = NULL;
    cfg.audio_detach = NULL;
    ear_scene scene = demo_scene(d);
    ear_runner *rn = NULL;
    if (ear_runner_create(&cfg, &scene, &rn) != EAR_OK) return -1;
    ear_runner_set_one_step_per_frame(rn, true);
    size_t next = 0, n = sizeof route / sizeof route[0];
    int after = -1;
    /* 20 s after the Enter: the reason (a report, said whole before the menu speaks
     * again) and the menu's title and first item are heard in that time. */
    for (int frame = 0; frame < 1800 + 20 * 60; frame++) {
        while (next < n && route[next].frame <= frame) {
            if (route[next].down)
                ear_runner_key_down(rn, route[next].key);
            else
                ear_runner_key_up(rn, route[next].key);
            next++;
        }
        if (frame == 1800) { /* Next level, the completion menu's first item */
            after = r->count;
            ear_runner_key_down(rn, EAR_KEY_ENTER);
            ear_runner_key_up(rn, EAR_KEY_ENTER);
        }
        ear_runner_frame(rn, frame / 60.0);
    }
    demo_result res = demo_get_result(d);
    *level = res.level;
    *finished = res.finished;
    *bodies = ear_physics_body_count(ear_ctx_physics(ear_runner_ctx(rn)));
    ear_runner_destroy(rn);
    ear_ui_destroy(ui);
    demo_destroy(d);
    remove(MAP_FILE);
    return after;
}

TEST(a_next_level_that_does_not_build_keeps_the_current_one_and_says_why) {
    run r;
    int level = 0;
    size_t bodies = 0;
    bool finished = false;
    int after = next_with_map("####\n#P\x01B#\n####\n", NULL, &r, &level, &bodies, &finished);
    ASSERT_GE(after, 0);
    ASSERT_TRUE(said(&r, "Level complete, menu", 0));
    for (int i = after; i < r.count; i++) printf("  after Enter: %s\n", r.lines[i]);
    ASSERT_TRUE(said(&r,
                     "Level 2: the cellar could not be loaded: test_demo_load.map, line 2, "
                     "column 3: a control character. You stay in Level 1: the garden.",
                     after));
    ASSERT_TRUE(said(&r, "Level complete, menu", after));
    ASSERT_TRUE(said(&r, "Next level, button, 1 of 4", after));
    ASSERT_EQ(level, 1);
    ASSERT_TRUE(finished);
    ASSERT_GT(bodies, 10); /* level 1's walls, player, bell: the world is not empty */
}

TEST(a_next_level_without_a_start_is_not_loaded_either_in_german) {
    run r;
    int level = 0;
    size_t bodies = 0;
    bool finished = false;
    int after = next_with_map("#####\n#..B#\n#####\n", "de", &r, &level, &bodies, &finished);
    ASSERT_GE(after, 0);
    for (int i = after; i < r.count; i++) printf("  after Enter: %s\n", r.lines[i]);
    ASSERT_TRUE(said(&r,
                     "Level 2: der Keller konnte nicht geladen werden: die Karte hat keinen "
                     "Start ('P'). Du bleibst in Level 1: der Garten.",
                     after));
    ASSERT_TRUE(said(&r, "Level geschafft, Menü", after));
    ASSERT_EQ(level, 1);
    ASSERT_GT(bodies, 10);
}

TEST_MAIN(TEST_ENTRY(a_next_level_that_does_not_build_keeps_the_current_one_and_says_why),
          TEST_ENTRY(a_next_level_without_a_start_is_not_loaded_either_in_german))
