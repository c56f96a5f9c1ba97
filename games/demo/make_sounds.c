/* SPDX-License-Identifier: Zlib */
/*
 * make_sounds: writes every sound and music loop the demo game plays (sounds.c, built
 * from the synth: no downloads) as WAVs into <dir>/sounds/ (and makes <dir>/music/). The
 * build runs it once; the game then loads these files through the engine's asset cache,
 * level by level.
 *
 *     make_sounds <assets folder>
 */
#include "sounds.h"

#include "earshot/wav.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static const char *g_dir;
static int g_failed;

static void write_clip(void *user, const char *name, ear_result made, ear_clip *clip) {
    (void)user;
    char path[1024];
    snprintf(path, sizeof path, "%s/sounds/%s.wav", g_dir, name);
    if (made != EAR_OK) {
        fprintf(stderr, "make_sounds: %s: %s\n", name, ear_result_string(made));
        g_failed = 1;
        return;
    }
    ear_wav_write_config wc = ear_wav_write_config_default();
    wc.overwrite = true;
    ear_io_error err = {0};
    ear_result wr = ear_wav_write_with(path, ear_clip_data(clip), ear_clip_frames(clip), 1,
                                       DEMO_SOUNDS_RATE, &wc, &err);
    if (wr != EAR_OK) {
        fprintf(stderr, "make_sounds: %s: %s %s\n", path, ear_result_string(wr), err.message);
        g_failed = 1;
    }
    ear_clip_release(clip);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: make_sounds <assets folder>\n");
        return 2;
    }
    g_dir = argv[1];
    char path[1024];
    const char *folders[] = {"", "/sounds", "/music"};
    for (size_t i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s%s", g_dir, folders[i]);
        if (mkdir(path, 0755) != 0 && errno != EEXIST) {
            fprintf(stderr, "make_sounds: %s: %s\n", path, strerror(errno));
            return 1;
        }
    }
    demo_sounds_make(write_clip, NULL);
    return g_failed;
}
