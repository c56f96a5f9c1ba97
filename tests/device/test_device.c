/* SPDX-License-Identifier: Zlib */
/*
 * The device player, with SDL's disk and dummy audio drivers (no sound card needed):
 * a scripted sequence of commands played through the device gives the very samples an
 * offline render of the same sequence gives; the mute rule opens nothing; without a device
 * every sound reads as finished; a lost device is reopened and what was playing carries on.
 */
#define _POSIX_C_SOURCE 200809L

#include "earshot/device.h"
#include "earshot/mixer.h"
#include "earshot/synth.h"
#include "../decode/sox_util.h"
#include "test.h"

#include <SDL2/SDL.h>
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

static void nap_ms(long ms) {
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* ---- The script: commands at chosen stage frames ------------------------------------ */

#define EVENTS 17

typedef struct script {
    ear_clip *sine, *noise, *blip;
    ear_voice_id a, b, c, h, p;
    uint64_t at[EVENTS];      /* the frame each event is due */
    uint64_t applied[EVENTS]; /* the frame it was applied at (a callback's first frame) */
    int next;
    uint64_t frames_seen; /* by the hook: the end of the last callback */
    int failures;         /* events the stage refused */
} script;

/* Event k, in the order of their frames: the stage's own commands and the mixer's. */
static void apply(script *s, ear_stage *stage, int k) {
    ear_result r = EAR_OK;
    switch (k) {
    case 0:
        r = ear_stage_play(stage, s->sine,
                           &(ear_play){.looping = true, .volume = 0.5f, .pan = -0.3f}, &s->a);
        break;
    case 1:
        r = ear_stage_play(stage, s->noise,
                           &(ear_play){.looping = true,
                                       .placed = true,
                                       .volume = 0.3f,
                                       .position = {2, 0, -1},
                                       .velocity = {-5, 0, 0}},
                           &s->b);
        break;
    case 2: r = ear_stage_set_volume(stage, s->a, 0.1f); break;
    case 3: r = ear_stage_set_bus_volume(stage, EAR_BUS_SFX, 0.6f); break;
    case 4:
        r = ear_stage_set_motion(stage, s->b, (ear_vec3){-3, 0, 0}, (ear_vec3){0, 0, 4});
        break;
    case 5:
        r = ear_stage_play_pool(stage, "hits",
                                &(ear_play){.placed = true, .position = {1, 0, 1}}, &s->p);
        break;
    case 6:
        r = ear_stage_play(stage, s->blip, &(ear_play){.placed = true, .position = {0, 0, -2}},
                           &s->c);
        break;
    case 7: r = ear_stage_play_blend(stage, "hum", &(ear_play){0}, &s->h); break;
    case 8: r = ear_stage_stop(stage, s->a, 0.05f); break;
    case 9: r = ear_stage_set_param(stage, s->h, "x", 0.8f); break;
    case 10: r = ear_stage_set_pitch(stage, s->b, 1.5f); break;
    case 11: r = ear_stage_fade_bus(stage, EAR_BUS_SFX, 1.0f, 0.3f); break;
    case 12: r = ear_stage_set_occlusion(stage, s->b, 0.7f); break;
    case 13:
        r = ear_stage_play_event(stage, s->blip,
                                 &(ear_play){.placed = true, .position = {1, 0, -1}}, NULL);
        break;
    case 14: ear_stage_set_master_gain(stage, 0.8f); break;
    case 15: r = ear_stage_trigger_duck(stage, "d", 0.2f); break;
    case 16: /* far above full scale (on the master: the duck is on sfx): the device's
              * output limiter engages */
        r = ear_stage_play(stage, s->sine, &(ear_play){.volume = 8.0f, .bus = EAR_BUS_MASTER},
                           NULL);
        break;
    }
    if (r != EAR_OK) s->failures++;
}

static bool make_script(script *s) {
    memset(s, 0, sizeof *s);
    if (ear_synth_clip(&(ear_synth){.frequency_hz = 440, .seconds = 1}, NULL, &s->sine) ||
        ear_synth_clip(&(ear_synth){.waveform = EAR_WAVE_NOISE, .seconds = 0.5f, .seed = 3},
                       NULL, &s->noise) ||
        ear_synth_clip(&(ear_synth){.waveform = EAR_WAVE_SQUARE,
                                    .frequency_hz = 900,
                                    .seconds = 0.2f,
                                    .envelope = {.attack_s = 0.01f, .release_s = 0.05f}},
                       NULL, &s->blip))
        return false;
    const uint64_t at[EVENTS] = {0,     0,     9600,  12000, 20000, 24000, 30000, 36000, 48000,
                                 50000, 60000, 66000, 70001, 75000, 80000, 85000, 88000};
    memcpy(s->at, at, sizeof at);
    return true;
}

/* What both stages are given before any render: a blend, a pool and a duck rule. */
static bool prepare(script *s, ear_stage *stage) {
    ear_blend_def *b = calloc(1, sizeof *b);
    if (!b) return false;
    snprintf(b->name, sizeof b->name, "hum");
    b->param_count = 1;
    snprintf(b->params[0].name, sizeof b->params[0].name, "x");
    b->params[0].max = 1;
    b->layer_count = 2;
    for (int i = 0; i < 2; i++) {
        b->layers[i].clip = i == 0 ? s->sine : s->noise;
        b->layers[i].gain_count = 1;
        ear_curve *c = &b->layers[i].gain[0];
        snprintf(c->param, sizeof c->param, "x");
        c->count = 2;
        c->x[0] = 0;
        c->x[1] = 1;
        c->y[0] = i == 0 ? 1.0f : 0.0f;
        c->y[1] = i == 0 ? 0.0f : 0.5f;
        c->shape = EAR_CURVE_EQUAL_POWER;
    }
    ear_result r = ear_stage_register_blend(stage, b);
    free(b);
    ear_pool_def pool = {.clip_count = 2,
                         .clips = {s->blip, s->noise},
                         .volume_min = 0.5f,
                         .volume_max = 1.0f,
                         .pitch_semitones_min = -3,
                         .pitch_semitones_max = 3,
                         .no_repeat = true};
    snprintf(pool.name, sizeof pool.name, "hits");
    ear_duck_rule duck = {.trigger = EAR_BUS_UI, .target = EAR_BUS_SFX, .gain_db = -12};
    snprintf(duck.name, sizeof duck.name, "d");
    return r == EAR_OK && ear_stage_register_pool(stage, &pool) == EAR_OK &&
           ear_stage_set_duck(stage, &duck) == EAR_OK;
}

static void free_script(script *s) {
    ear_clip_release(s->sine);
    ear_clip_release(s->noise);
    ear_clip_release(s->blip);
}

/* The device's hook: at each callback, the events now due. */
static void on_callback(void *user, ear_stage *stage, uint64_t frame, uint32_t frames) {
    script *s = user;
    s->frames_seen = frame + frames;
    while (s->next < EVENTS && s->at[s->next] <= frame) {
        s->applied[s->next] = frame;
        apply(s, stage, s->next);
        s->next++;
    }
}

#define TARGET_FRAMES 96000u

TEST(device_plays_what_the_offline_render_gives) {
    char dir[256];
    ASSERT_TRUE(scratch_dir(dir, sizeof dir, "device"));
    char out_path[512];
    snprintf(out_path, sizeof out_path, "%s/mix.raw", dir);
    setenv("SDL_AUDIODRIVER", "disk", 1);
    setenv("SDL_DISKAUDIOFILE", out_path, 1);
    setenv("SDL_DISKAUDIODELAY", "0", 1); /* as fast as it can: no real time needed */

    script live;
    ASSERT_TRUE(make_script(&live));
    ear_stage *stage;
    ASSERT_OK(ear_stage_create(NULL, &stage));
    ASSERT_TRUE(prepare(&live, stage));
    ear_device_config cfg = ear_device_config_default();
    cfg.buffer_frames = 512;
    cfg.before_render = on_callback;
    cfg.hook_user = &live;
    ear_device *dev;
    ASSERT_FALSE(ear_stage_get_limiter(stage).enabled); /* off offline, as created */
    ASSERT_OK(ear_device_open(stage, &cfg, &dev));
    ASSERT_TRUE(ear_stage_get_limiter(stage).enabled); /* the device turned it on */
    ASSERT_EQ(ear_device_get_state(dev), EAR_DEVICE_PLAYING);
    ASSERT_TRUE(ear_device_is_audible(dev));
    double give_up = now_s() + 60;
    while (ear_device_get_stats(dev).frames < TARGET_FRAMES + 4096 && now_s() < give_up)
        nap_ms(2);
    ear_device_stats st = ear_device_get_stats(dev);
    ear_device_close(dev);
    ASSERT_FALSE(ear_stage_get_limiter(stage).enabled); /* and close gave it back */
    ASSERT_GE(st.frames, TARGET_FRAMES);
    ASSERT_EQ(live.next, EVENTS);
    ASSERT_EQ(live.failures, 0);
    printf("  %llu callbacks of %u frames; events applied at", (unsigned long long)st.callbacks,
           st.buffer_frames);
    for (int k = 0; k < EVENTS; k++) printf(" %llu", (unsigned long long)live.applied[k]);
    printf("\n");

    /* Offline: a fresh stage with the limiter the device turned on (the stage's defaults,
     * enabled), the same events at the same frames, rendered in other chunk sizes. */
    script off;
    ASSERT_TRUE(make_script(&off));
    ear_stage *offline;
    ASSERT_OK(ear_stage_create(NULL, &offline));
    ASSERT_OK(ear_stage_set_limiter(offline, &(ear_limiter){.enabled = true}));
    ASSERT_TRUE(prepare(&off, offline));
    float *want = calloc((size_t)TARGET_FRAMES * 2, sizeof(float));
    uint64_t done = 0;
    for (int k = 0; k <= EVENTS; k++) {
        uint64_t until = k < EVENTS ? live.applied[k] : TARGET_FRAMES;
        while (done < until) {
            uint32_t n = until - done < 333 ? (uint32_t)(until - done) : 333;
            ASSERT_OK(ear_stage_render(offline, want + done * 2, n));
            done += n;
        }
        if (k < EVENTS) apply(&off, offline, k);
    }

    /* SDL's audio thread starts before the device is unpaused and writes silence until
     * then: the callbacks' output is the file's last frames_seen frames. */
    long leading = file_size(out_path) / (long)(2 * sizeof(float)) - (long)live.frames_seen;
    printf("  %ld frames of silence before the first callback\n", leading);
    ASSERT_GE(leading, 0);
    ASSERT_EQ(leading % 512, 0);
    ASSERT_EQ(off.failures, 0);
    FILE *f = fopen(out_path, "rb");
    ASSERT_NOT_NULL(f);
    fseek(f, leading * (long)(2 * sizeof(float)), SEEK_SET);
    float *got = calloc((size_t)TARGET_FRAMES * 2, sizeof(float));
    size_t read = fread(got, sizeof(float) * 2, TARGET_FRAMES, f);
    fclose(f);
    ASSERT_EQ(read, TARGET_FRAMES);
    double max_diff = 0, rms = 0;
    for (size_t i = 0; i < (size_t)TARGET_FRAMES * 2; i++) {
        double d = fabs((double)got[i] - want[i]);
        if (d > max_diff) max_diff = d;
        rms += (double)want[i] * want[i];
    }
    for (size_t i = 0; i < (size_t)TARGET_FRAMES * 2; i++)
        if (got[i] != want[i]) {
            printf("  first difference at frame %zu: %g vs %g\n", i / 2, (double)got[i],
                   (double)want[i]);
            break;
        }
    printf("  max difference %g over %u frames (rms %.4f)\n", max_diff, TARGET_FRAMES,
           sqrt(rms / (2.0 * TARGET_FRAMES)));
    ASSERT_DBL_GT(rms, 1.0); /* the script is audible */
    /* The last event is far above full scale: the limiter held it at -1 dBFS, no higher. */
    float peak = 0.0f, ceiling = (float)pow(10.0, -1.0 / 20.0);
    for (size_t i = 0; i < (size_t)TARGET_FRAMES * 2; i++)
        peak = fabsf(want[i]) > peak ? fabsf(want[i]) : peak;
    printf("  peak %.6f, the ceiling %.6f\n", (double)peak, (double)ceiling);
    ASSERT_DBL_LE(peak, ceiling);
    ASSERT_DBL_GT(peak, 0.99 * ceiling);
    ASSERT_EQ(memcmp(got, want, (size_t)TARGET_FRAMES * 2 * sizeof(float)), 0);
    free(got);
    free(want);
    ear_stage_destroy(offline);
    ear_stage_destroy(stage);
    free_script(&off);
    free_script(&live);
    remove_tree(dir);
    unsetenv("SDL_DISKAUDIOFILE");
    unsetenv("SDL_DISKAUDIODELAY");
}

TEST(mute_opens_nothing_and_otherwise_runs) {
    setenv("SDL_AUDIODRIVER", "dummy", 1);
    setenv("EARSHOT_MUTE", "1", 1);
    ear_stage *stage;
    ASSERT_OK(ear_stage_create(NULL, &stage));
    ear_device *dev;
    ASSERT_OK(ear_device_open(stage, NULL, &dev));
    ASSERT_EQ(ear_device_get_state(dev), EAR_DEVICE_MUTED);
    ASSERT_FALSE(ear_device_is_audible(dev));
    ASSERT_EQ(SDL_WasInit(SDL_INIT_AUDIO), 0);
    /* A 0.1 s sound ends about 0.1 s later, as it would with a device. */
    ear_clip *blip;
    ASSERT_OK(ear_synth_clip(&(ear_synth){.seconds = 0.1f}, NULL, &blip));
    /* Bring the muted clock up to now first: it counts from the open, and on a loaded
     * machine the time since then would otherwise be rendered into the new sound. */
    ear_device_update(dev);
    double start = now_s();
    ear_voice_id id;
    ASSERT_OK(ear_stage_play(stage, blip, NULL, &id));
    ear_clip_release(blip);
    double ended_after = -1;
    while (now_s() - start < 1.0) {
        ear_device_update(dev);
        if (!ear_stage_is_playing(stage, id)) {
            ended_after = now_s() - start;
            break;
        }
        nap_ms(5);
    }
    printf("  muted: the 0.1 s sound ended after %.3f s\n", ended_after);
    ASSERT_DBL_GE(ended_after, 0.09);
    ASSERT_DBL_LT(ended_after, 0.5);
    ear_device_stats st = ear_device_get_stats(dev);
    ASSERT_EQ(st.callbacks, 0);
    ASSERT_EQ(st.opens, 0);
    ear_device_close(dev);
    unsetenv("EARSHOT_MUTE");
    /* The flag does the same. */
    ear_device_config cfg = ear_device_config_default();
    cfg.mute = true;
    ASSERT_OK(ear_device_open(stage, &cfg, &dev));
    ASSERT_EQ(ear_device_get_state(dev), EAR_DEVICE_MUTED);
    ASSERT_EQ(SDL_WasInit(SDL_INIT_AUDIO), 0);
    ear_device_close(dev);
    /* EARSHOT_MUTE=0 does not mute. */
    setenv("EARSHOT_MUTE", "0", 1);
    ASSERT_OK(ear_device_open(stage, NULL, &dev));
    ASSERT_EQ(ear_device_get_state(dev), EAR_DEVICE_PLAYING);
    ear_device_close(dev);
    unsetenv("EARSHOT_MUTE");
    ear_stage_destroy(stage);
}

TEST(without_a_device_every_sound_reads_as_finished) {
    setenv("SDL_AUDIODRIVER", "no_such_driver", 1);
    ear_stage *stage;
    ASSERT_OK(ear_stage_create(NULL, &stage));
    log_catcher log;
    start_catching(&log);
    ear_device *dev;
    ASSERT_OK(ear_device_open(stage, NULL, &dev));
    ASSERT_EQ(ear_device_get_state(dev), EAR_DEVICE_NO_DEVICE);
    ASSERT_FALSE(ear_device_is_audible(dev));
    ear_clip *tone;
    ASSERT_OK(ear_synth_clip(&(ear_synth){.seconds = 2}, NULL, &tone));
    for (int frame = 0; frame < 3; frame++) {
        ear_voice_id id;
        ASSERT_OK(ear_stage_play(stage, tone, &(ear_play){.looping = true}, &id));
        ear_device_update(dev);
        ASSERT_FALSE(ear_stage_is_playing(stage, id));
        ASSERT_EQ(ear_stage_voice_count(stage), 0);
    }
    stop_catching();
    printf("  %s", log.text);
    ASSERT_EQ(log.warnings, 1); /* said once */
    ASSERT_STR_CONTAINS(log.text, "[device] no audio device");
    ASSERT_EQ(ear_clip_refcount(tone), 1); /* the ended voices' references are gone */
    ear_clip_release(tone);
    ear_device_close(dev);
    ear_stage_destroy(stage);
    unsetenv("SDL_AUDIODRIVER");
}

TEST(a_lost_device_is_reopened_and_playing_carries_on) {
    setenv("SDL_AUDIODRIVER", "dummy", 1);
    ear_stage *stage;
    ASSERT_OK(ear_stage_create(NULL, &stage));
    ear_clip *tone;
    ASSERT_OK(ear_synth_clip(&(ear_synth){.seconds = 1}, NULL, &tone));
    ear_voice_id id;
    ASSERT_OK(ear_stage_play(stage, tone, &(ear_play){.looping = true}, &id));
    ear_clip_release(tone);
    ear_device_config cfg = ear_device_config_default();
    cfg.reopen_interval_s = 0.05f;
    ear_device *dev;
    ASSERT_OK(ear_device_open(stage, &cfg, &dev));
    ASSERT_EQ(ear_device_get_state(dev), EAR_DEVICE_PLAYING);
    uint64_t cursor = 0;
    double give_up = now_s() + 10;
    while (cursor < 4800 && now_s() < give_up) {
        ear_device_update(dev);
        ASSERT_OK(ear_stage_get_cursor(stage, id, &cursor));
        nap_ms(5);
    }
    ASSERT_GE(cursor, 4800);

    log_catcher log;
    start_catching(&log);
    /* Lost, and the first two attempts to reopen find no device. */
    ASSERT_OK(ear_device_simulate_loss(dev, 2));
    ASSERT_EQ(ear_device_get_state(dev), EAR_DEVICE_LOST);
    ASSERT_FALSE(ear_device_is_audible(dev));
    uint64_t at_loss;
    ASSERT_OK(ear_stage_get_cursor(stage, id, &at_loss));
    double lost_at = now_s();
    ear_device_update(dev); /* tries at once, and fails */
    ASSERT_EQ(ear_device_get_state(dev), EAR_DEVICE_LOST);
    nap_ms(20);
    uint64_t held;
    ASSERT_OK(ear_stage_get_cursor(stage, id, &held));
    ASSERT_EQ(held, at_loss); /* nothing renders while lost */
    while (ear_device_get_state(dev) != EAR_DEVICE_PLAYING && now_s() < give_up) {
        ear_device_update(dev);
        nap_ms(2);
    }
    double back_after = now_s() - lost_at;
    stop_catching();
    ASSERT_EQ(ear_device_get_state(dev), EAR_DEVICE_PLAYING);
    ear_device_stats st = ear_device_get_stats(dev);
    printf("  back after %.3f s: %u opens, %u failed, %u lost\n", back_after, st.opens,
           st.failed_opens, st.losses);
    ASSERT_EQ(st.opens, 2);
    ASSERT_EQ(st.failed_opens, 2);
    ASSERT_EQ(st.losses, 1);
    ASSERT_DBL_GE(back_after, 0.09); /* two intervals of 0.05 s */
    ASSERT_EQ(log.warnings, 1);
    /* The voice carries on from where it stopped. */
    ASSERT_TRUE(ear_stage_is_playing(stage, id));
    while (cursor < at_loss + 9600 && cursor >= at_loss && now_s() < give_up) {
        ear_device_update(dev);
        ASSERT_OK(ear_stage_get_cursor(stage, id, &cursor));
        nap_ms(5);
    }
    ear_device_close(dev);
    ASSERT_TRUE(cursor >= at_loss + 9600 || cursor < at_loss); /* moved on (or wrapped) */
    ASSERT_EQ(ear_device_simulate_loss(NULL, 0), EAR_E_INVALID_ARG);
    ear_stage_destroy(stage);
    unsetenv("SDL_AUDIODRIVER");
}

/* An allocator that notes which thread frees. */
static pthread_t game_thread;
static atomic_int frees_on_game_thread, frees_elsewhere;

static void *note_alloc(size_t size, void *user) {
    (void)user;
    return malloc(size);
}
static void *note_realloc(void *p, size_t size, void *user) {
    (void)user;
    return realloc(p, size);
}
static void note_free(void *p, void *user) {
    (void)user;
    if (!p) return;
    if (pthread_equal(pthread_self(), game_thread))
        atomic_fetch_add(&frees_on_game_thread, 1);
    else
        atomic_fetch_add(&frees_elsewhere, 1);
    free(p);
}

TEST(clips_are_freed_on_the_game_thread) {
    setenv("SDL_AUDIODRIVER", "dummy", 1);
    game_thread = pthread_self();
    atomic_store(&frees_on_game_thread, 0);
    atomic_store(&frees_elsewhere, 0);
    ear_allocator noting = {note_alloc, note_realloc, note_free, NULL};
    ear_stage *stage;
    ASSERT_OK(ear_stage_create(NULL, &stage));
    ear_device *dev;
    ASSERT_OK(ear_device_open(stage, NULL, &dev));
    ASSERT_EQ(ear_device_get_state(dev), EAR_DEVICE_PLAYING);
    /* Ten short clips whose last reference is their voice's: each is freed when its voice
     * ends, and that must happen on this thread (in update or another game-side call). */
    ear_voice_id ids[10];
    for (int i = 0; i < 10; i++) {
        ear_clip *c;
        ASSERT_OK(
            ear_synth_clip(&(ear_synth){.seconds = 0.02f + 0.01f * (float)i}, &noting, &c));
        ASSERT_OK(ear_stage_play(stage, c, NULL, &ids[i]));
        ear_clip_release(c);
    }
    /* On a loaded machine the first voices may end while the later ones are started, and a
     * game-side call then frees their clips at once: still on this thread, which is what
     * is tested. So no count is asserted here, only where the clips were freed. */
    double give_up = now_s() + 10;
    while (atomic_load(&frees_on_game_thread) < 10 && now_s() < give_up) {
        ear_device_update(dev);
        nap_ms(5);
    }
    ear_device_close(dev);
    for (int i = 0; i < 10; i++) ASSERT_FALSE(ear_stage_is_playing(stage, ids[i]));
    ASSERT_EQ(atomic_load(&frees_on_game_thread), 10);
    ASSERT_EQ(atomic_load(&frees_elsewhere), 0);
    ear_stage_destroy(stage);
    unsetenv("SDL_AUDIODRIVER");
}

TEST(bad_arguments) {
    ear_device *dev;
    ASSERT_EQ(ear_device_open(NULL, NULL, &dev), EAR_E_INVALID_ARG);
    ear_stage *stage;
    ASSERT_OK(ear_stage_create(NULL, &stage));
    ear_device_config cfg = ear_device_config_default();
    cfg.buffer_frames = 3;
    ASSERT_EQ(ear_device_open(stage, &cfg, &dev), EAR_E_INVALID_ARG);
    ear_device_close(NULL);
    ASSERT_STR_EQ(ear_device_state_name(EAR_DEVICE_LOST), "lost");
    ear_stage_destroy(stage);
}

TEST_MAIN(TEST_ENTRY(device_plays_what_the_offline_render_gives),
          TEST_ENTRY(mute_opens_nothing_and_otherwise_runs),
          TEST_ENTRY(without_a_device_every_sound_reads_as_finished),
          TEST_ENTRY(a_lost_device_is_reopened_and_playing_carries_on),
          TEST_ENTRY(clips_are_freed_on_the_game_thread), TEST_ENTRY(bad_arguments))
