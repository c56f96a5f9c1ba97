/* SPDX-License-Identifier: Zlib */
/*
 * Workload W64, described once so that every engine under test gets exactly the same
 * work: the same float clips, the same positions and velocities at the same blocks,
 * the same output format and block size.
 *
 * W64: 48 kHz stereo float output, rendered in blocks of 480 frames. N mono voices,
 * voice i loops its own 1 s sine (amplitude 0.5, 220 + 660 i / (N - 1) Hz). Voice i
 * starts at angle 2 pi i / N on a 10 m circle around the listener in the X-Z plane and
 * moves in a straight line along the circle's tangent at 5 m/s, so its distance and
 * its radial speed (doppler) change over time. Distance attenuation is inverse,
 * clamped, with reference 1 m, maximum 100 m and rolloff 1. Before each block the game
 * sets every voice's position and velocity, as a game would once a frame.
 *
 * The harness (bench_w64.c) fills `positions` and `velocities` for the block about to
 * be rendered before it starts the update timer, so the timed region holds only the
 * engine's own calls.
 */
#ifndef EARSHOT_BENCH_WORKLOAD_H
#define EARSHOT_BENCH_WORKLOAD_H

#include <stdint.h>
#include <stdio.h>

#define W64_SAMPLE_RATE     48000u
#define W64_CHANNELS        2u
#define W64_BLOCK_FRAMES    480u
#define W64_CLIP_FRAMES     48000u
#define W64_AMPLITUDE       0.5
#define W64_CIRCLE_RADIUS_M 10.0
#define W64_SPEED_MPS       5.0
#define W64_REF_DISTANCE_M  1.0f
#define W64_MAX_DISTANCE_M  100.0f
#define W64_ROLLOFF         1.0f
#define W64_SPEED_OF_SOUND  343.0f

typedef struct w64_vec3 {
    float x, y, z;
} w64_vec3;

typedef struct w64_workload {
    uint32_t voices;      /* N */
    float *clips;         /* voices * W64_CLIP_FRAMES mono samples, voice after voice */
    w64_vec3 *start_m;    /* where each voice is at t = 0 */
    w64_vec3 *velocity;   /* each voice's constant velocity, m/s */
    w64_vec3 *positions;  /* filled by the harness for the block about to be rendered */
    w64_vec3 *velocities; /* likewise */
} w64_workload;

/* The frequency of voice i of n, in Hz. */
double w64_frequency_hz(uint32_t i, uint32_t n);

/* Allocates and fills the workload for n voices (clips, start points, velocities).
 * Returns 0, or -1 when memory runs out (nothing is left allocated). */
int w64_workload_init(w64_workload *w, uint32_t n);
void w64_workload_deinit(w64_workload *w);

/* W64H: W64 with HRTF on in both engines (W64_HRTF=1 in the environment): OpenAL Soft's
 * built-in HRTF (ALC_HRTF_SOFT), Earshot's stage with the KEMAR set libmysofa1 installs. */
int w64_hrtf(void);

/* W64 with Earshot's clips stored as 16 bits (W64_S16=1 in the environment:
 * EAR_CLIP_S16, the same sines quantised); OpenAL Soft keeps its float buffers. */
int w64_s16(void);

/* W64_NO_CUE=1 (a same-binary switch, Earshot's side only): every voice plays without the
 * behind/below cue (ear_play.no_behind_cue), OpenAL Soft having none, to measure the
 * cue's share of W64. */
int w64_no_cue(void);

/* Fills positions and velocities for time t_s (seconds since the voices started). */
void w64_workload_at(w64_workload *w, double t_s);

/* One engine under test. Every function is called from the bench's single thread.
 * create: builds the engine and starts every voice of w looping, placed at
 *   w->positions with w->velocities (filled for t = 0); writes an opaque engine
 *   pointer. Returns 0, or -1 after printing why to stderr.
 * update: sets every voice's position and velocity from w->positions / w->velocities.
 * render: renders `frames` interleaved stereo float frames into out.
 * destroy: frees everything create made.
 * describe: prints `# ...` comment lines about the engine's setup. */
typedef struct w64_engine_ops {
    const char *name;
    int (*create)(const w64_workload *w, void **out_engine);
    void (*update)(void *engine, const w64_workload *w);
    void (*render)(void *engine, float *out, uint32_t frames);
    void (*destroy)(void *engine);
    void (*describe)(void *engine, FILE *to);
} w64_engine_ops;

extern const w64_engine_ops w64_earshot_ops;
extern const w64_engine_ops w64_openal_ops;

/* OpenAL only: before any OpenAL call, checks that a loopback device gives max_voices
 * sources. Returns 0 when it does, 1 when the process must restart with a
 * configuration that raises OpenAL Soft's `sources` limit, -1 when OpenAL lacks what
 * the bench needs (printed to stderr). */
int w64_openal_probe(uint32_t max_voices);

#endif /* EARSHOT_BENCH_WORKLOAD_H */
