/* SPDX-License-Identifier: Zlib */
/*
 * The demo game's sounds made in memory (games/demo/sounds.c, what the web build
 * registers at start) are the very samples make_sounds wrote as WAVs (what the native
 * game reads): each clip against its file, bit for bit, and the registered clips are
 * what the asset cache hands out, with nothing read from disk.
 */
#include "sounds.h"
#include "test.h"

#include "earshot/assets.h"
#include "earshot/decode.h"

#include <stdio.h>
#include <string.h>

#define MAX_SOUNDS 64

typedef struct made {
    char names[MAX_SOUNDS][40];
    ear_clip *clips[MAX_SOUNDS];
    size_t count;
    int failed;
} made;

static void keep(void *user, const char *name, ear_result r, ear_clip *clip) {
    made *m = user;
    if (r != EAR_OK || m->count == MAX_SOUNDS) {
        m->failed++;
        ear_clip_release(clip);
        return;
    }
    snprintf(m->names[m->count], sizeof m->names[0], "%s", name);
    m->clips[m->count++] = clip;
}

static void release_all(made *m) {
    for (size_t i = 0; i < m->count; i++) ear_clip_release(m->clips[i]);
}

TEST(made_in_memory_equals_the_files_bit_for_bit) {
    made m = {0};
    ASSERT_EQ(demo_sounds_make(keep, &m), 0);
    ASSERT_EQ(m.failed, 0);
    /* 9 footsteps, the wall tick, the bump, the guide, the beacon, the radio, sparkle,
     * collect, fanfare, hazard, hurt, scrape, crate_hit, two engines, shift, crash, win
     * and four music loops */
    ASSERT_EQ(m.count, 30);
    for (size_t i = 0; i < m.count; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/sounds/%s.wav", DEMO_ASSETS, m.names[i]);
        ear_clip *file = NULL;
        ear_io_error err = {0};
        ASSERT_EQ(ear_decode_file(path, NULL, &file, &err), EAR_OK);
        ASSERT_EQ(ear_clip_channels(file), 1);
        ASSERT_EQ(ear_clip_channels(m.clips[i]), 1);
        ASSERT_EQ(ear_clip_sample_rate(m.clips[i]), DEMO_SOUNDS_RATE);
        ASSERT_EQ(ear_clip_sample_rate(file), DEMO_SOUNDS_RATE);
        ASSERT_U64_EQ(ear_clip_frames(file), ear_clip_frames(m.clips[i]));
        bool same = memcmp(ear_clip_data(file), ear_clip_data(m.clips[i]),
                           (size_t)ear_clip_frames(file) * sizeof(float)) == 0;
        if (!same) printf("%s: the samples differ from %s\n", m.names[i], path);
        ASSERT_TRUE(same);
        ear_clip_release(file);
    }
    release_all(&m);
}

TEST(registered_clips_are_what_the_cache_hands_out) {
    made m = {0};
    ASSERT_EQ(demo_sounds_make(keep, &m), 0);
    ear_assets_config ac = ear_assets_config_default();
    ac.root = "/nonexistent-earshot-assets"; /* no files: only what is registered */
    ear_assets *as = NULL;
    ASSERT_EQ(ear_assets_create(&ac, &as), EAR_OK);
    for (size_t i = 0; i < m.count; i++)
        ASSERT_EQ(ear_assets_register_clip(as, m.names[i], m.clips[i]), EAR_OK);
    for (size_t i = 0; i < m.count; i++) {
        ear_clip *got = NULL;
        ASSERT_EQ(ear_assets_acquire(as, m.names[i], &got), EAR_OK);
        ASSERT_PTR_EQ(got, m.clips[i]);
        ASSERT_EQ(ear_assets_release(as, got), EAR_OK);
    }
    ear_assets_trim(as); /* registered clips stay */
    ear_clip *guide = NULL;
    ASSERT_EQ(ear_assets_acquire(as, "guide", &guide), EAR_OK);
    ASSERT_EQ(ear_assets_release(as, guide), EAR_OK);
    ear_assets_stats st = ear_assets_get_stats(as);
    ASSERT_U64_EQ(st.loads, 0);
    ASSERT_U64_EQ(st.warnings, 0);
    ear_assets_destroy(as);
    release_all(&m);
}

TEST_MAIN(TEST_ENTRY(made_in_memory_equals_the_files_bit_for_bit),
          TEST_ENTRY(registered_clips_are_what_the_cache_hands_out))
