/* SPDX-License-Identifier: Zlib */
/*
 * bench_w64: workload W64 (see workload.h) on Earshot's stage and on OpenAL Soft,
 * in the same process run, and the ratio of their costs.
 *
 *   bench_w64 [seconds] [N...]        defaults: 5 s, N = 64 256 1024
 *
 * For each N both engines are built once. Each runs 0.5 s of the workload untimed
 * (warm-up), then the full workload seven times, the two engines taking turns (and
 * swapping who goes first) so that machine noise hits both. Every repetition restarts
 * the workload's clock, so all of them do identical work. Per block, the position and
 * velocity calls are timed apart from the render call with CLOCK_MONOTONIC; the best
 * (smallest) of the seven repetitions is reported:
 *
 *   ns_per_voice_frame  = render time / (N * frames rendered)
 *   update_ns_per_voice = update time / (N * blocks)
 *
 * Lines starting with '#' are comments: the machine, each engine's setup, a check that
 * both engines pan, attenuate and apply doppler alike, and the RMS of each engine's
 * output over the last second of the last repetition. A silent or non-finite output
 * is an error (exit status 1).
 *
 * OpenAL Soft limits a device's sources to its `sources` setting. When a loopback
 * device cannot give the largest N sources, the bench writes a configuration file that
 * raises the limit, points ALSOFT_CONF at it and starts itself again, because OpenAL
 * Soft reads its configuration once, at its first call.
 */
#define _POSIX_C_SOURCE 200809L

#include "workload.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define W64_REPETITIONS   7
#define W64_WARMUP_S      0.5
#define W64_MAX_N         65535u
#define W64_CONF_MARKER   "EARSHOT_W64_ALSOFT_CONF"
#define W64_BLOCK_SAMPLES (W64_BLOCK_FRAMES * W64_CHANNELS)

typedef struct w64_timing {
    double update_ns; /* summed over the run */
    double render_ns;
    double rms; /* over the last second (or the whole run when shorter) */
    bool finite;
} w64_timing;

static int64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static uint32_t blocks_for(double seconds) {
    double blocks = floor(seconds * W64_SAMPLE_RATE / W64_BLOCK_FRAMES + 0.5);
    return blocks < 1.0 ? 1u : (uint32_t)blocks;
}

/* Runs `seconds` of the workload from t = 0 on one engine and times it. */
static w64_timing run(const w64_engine_ops *ops, void *engine, w64_workload *w, double seconds,
                      float *buf) {
    const uint32_t blocks = blocks_for(seconds);
    const uint32_t rms_blocks = W64_SAMPLE_RATE / W64_BLOCK_FRAMES;
    const uint32_t rms_from = blocks > rms_blocks ? blocks - rms_blocks : 0;
    int64_t update_ns = 0, render_ns = 0;
    double sum_sq = 0.0;
    uint64_t count = 0;
    bool finite = true;
    for (uint32_t b = 0; b < blocks; b++) {
        w64_workload_at(w, (double)b * W64_BLOCK_FRAMES / W64_SAMPLE_RATE);
        int64_t t0 = now_ns();
        ops->update(engine, w);
        int64_t t1 = now_ns();
        ops->render(engine, buf, W64_BLOCK_FRAMES);
        int64_t t2 = now_ns();
        update_ns += t1 - t0;
        render_ns += t2 - t1;
        if (b >= rms_from) {
            for (uint32_t k = 0; k < W64_BLOCK_SAMPLES; k++) {
                double x = buf[k];
                if (!isfinite(x)) finite = false;
                sum_sq += x * x;
            }
            count += W64_BLOCK_SAMPLES;
        }
    }
    w64_timing t = {(double)update_ns, (double)render_ns, sqrt(sum_sq / (double)count), finite};
    return t;
}

/* ---- Behaviour check: both engines should do the same thing to a voice ---------- */

typedef struct w64_scene_result {
    double left_rms, right_rms, frequency_hz;
} w64_scene_result;

/* Renders 1 s of a single 220 Hz voice held at `position` with `velocity` (the position
 * is set again every block, so the distance stays fixed while doppler sees the
 * velocity) and measures the last half second: per-channel RMS and the frequency of
 * the channel sum from its interpolated rising zero crossings. */
static int scene(const w64_engine_ops *ops, w64_vec3 position, w64_vec3 velocity,
                 w64_scene_result *out) {
    w64_workload w;
    if (w64_workload_init(&w, 1) != 0) return -1;
    w.positions[0] = position;
    w.velocities[0] = velocity;
    void *engine = NULL;
    if (ops->create(&w, &engine) != 0) {
        w64_workload_deinit(&w);
        return -1;
    }
    const uint32_t blocks = W64_SAMPLE_RATE / W64_BLOCK_FRAMES;
    float buf[W64_BLOCK_SAMPLES];
    double sl = 0.0, sr = 0.0, prev = 0.0, first_t = -1.0, last_t = -1.0;
    uint64_t n = 0, crossings = 0;
    for (uint32_t b = 0; b < blocks; b++) {
        ops->update(engine, &w);
        ops->render(engine, buf, W64_BLOCK_FRAMES);
        if (b < blocks / 2) continue;
        for (uint32_t k = 0; k < W64_BLOCK_FRAMES; k++) {
            double l = buf[2 * k], r = buf[2 * k + 1], m = l + r;
            sl += l * l;
            sr += r * r;
            if (n > 0 && prev < 0.0 && m >= 0.0) {
                double t = (double)(n - 1) + prev / (prev - m);
                if (first_t < 0.0) first_t = t;
                last_t = t;
                crossings++;
            }
            prev = m;
            n++;
        }
    }
    ops->destroy(engine);
    w64_workload_deinit(&w);
    out->left_rms = sqrt(sl / (double)n);
    out->right_rms = sqrt(sr / (double)n);
    out->frequency_hz = crossings > 1 && last_t > first_t
                            ? (double)(crossings - 1) * W64_SAMPLE_RATE / (last_t - first_t)
                            : 0.0;
    return 0;
}

static double db(double ratio) {
    return 20.0 * log10(ratio);
}

static int check_behaviour(const w64_engine_ops *ops) {
    const w64_vec3 still = {0.0f, 0.0f, 0.0f};
    const float approach_mps = 34.3f;
    w64_scene_result right, near_m, far_m, doppler;
    if (scene(ops, (w64_vec3){10.0f, 0.0f, 0.0f}, still, &right) != 0 ||
        scene(ops, (w64_vec3){0.0f, 0.0f, -10.0f}, still, &near_m) != 0 ||
        scene(ops, (w64_vec3){0.0f, 0.0f, -20.0f}, still, &far_m) != 0 ||
        scene(ops, (w64_vec3){0.0f, 0.0f, -10.0f}, (w64_vec3){0.0f, 0.0f, approach_mps},
              &doppler) != 0) {
        return -1;
    }
    double level = (far_m.left_rms + far_m.right_rms) / (near_m.left_rms + near_m.right_rms);
    double expected_hz = 220.0 * W64_SPEED_OF_SOUND / (W64_SPEED_OF_SOUND - approach_mps);
    printf("# check engine=%s source_at_+x_right_over_left_db=%.1f level_20m_over_10m_db=%.2f "
           "(inverse: -6.02) still_hz=%.1f approaching_hz=%.1f (doppler: %.1f)\n",
           ops->name, db(right.right_rms / right.left_rms), db(level), near_m.frequency_hz,
           doppler.frequency_hz, expected_hz);
    return 0;
}

/* ---- OpenAL's source limit ------------------------------------------------------ */

/* Writes an alsoft.conf raising `sources` to at least max_n, points ALSOFT_CONF at it
 * and executes this program again. Returns only on failure. */
static void restart_with_config(uint32_t max_n, char **argv) {
    char path[] = "/tmp/earshot_w64_alsoft_XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) return;
    FILE *f = fdopen(fd, "w");
    if (!f) return;
    fprintf(f, "# Written by Earshot's bench_w64 for one run.\n[general]\nsources = %u\n",
            (unsigned)(max_n > 2048 ? max_n : 2048));
    fclose(f);
    setenv("ALSOFT_CONF", path, 1);
    setenv(W64_CONF_MARKER, path, 1);
    fflush(stdout);
    execv("/proc/self/exe", argv);
    unlink(path);
}

/* ---- Main ----------------------------------------------------------------------- */

static void print_machine(void) {
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[512];
    const char *model = "unknown";
    while (f && fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) == 0) {
            char *colon = strchr(line, ':');
            if (colon) {
                model = colon + 2;
                line[strcspn(line, "\n")] = '\0';
            }
            break;
        }
    }
    printf("# machine: %s, %ld online CPUs\n", model, sysconf(_SC_NPROCESSORS_ONLN));
    if (f) fclose(f);
}

static int usage(void) {
    fprintf(stderr, "usage: bench_w64 [seconds] [N...]   (default: 5 64 256 1024)\n");
    return 2;
}

int main(int argc, char **argv) {
    double seconds = 5.0;
    uint32_t ns[32] = {64, 256, 1024};
    size_t n_count = 3;
    if (argc > 1) {
        char *end;
        seconds = strtod(argv[1], &end);
        if (*end != '\0' || !(seconds > 0.0) || seconds > 3600.0) return usage();
    }
    if (argc > 2) {
        n_count = 0;
        for (int a = 2; a < argc; a++) {
            char *end;
            unsigned long n = strtoul(argv[a], &end, 10);
            if (*end != '\0' || n < 1 || n > W64_MAX_N || n_count == 32) return usage();
            ns[n_count++] = (uint32_t)n;
        }
    }
    uint32_t max_n = 0;
    for (size_t k = 0; k < n_count; k++) max_n = ns[k] > max_n ? ns[k] : max_n;

    const char *written_conf = getenv(W64_CONF_MARKER);
    int probe = w64_openal_probe(max_n);
    if (probe < 0) return 1;
    if (probe > 0) {
        if (written_conf) {
            fprintf(stderr, "bench_w64: OpenAL gives fewer than %u sources even with %s\n",
                    (unsigned)max_n, written_conf);
            return 1;
        }
        restart_with_config(max_n, argv);
        fprintf(stderr, "bench_w64: could not restart with a raised OpenAL source limit\n");
        return 1;
    }

    const w64_engine_ops *engines[2] = {&w64_earshot_ops, &w64_openal_ops};
    const uint32_t blocks = blocks_for(seconds);
    printf("# W64: 48000 Hz stereo float, %u blocks of %u frames (%.3f s), best of %d after "
           "%.1f s warm-up\n",
           (unsigned)blocks, W64_BLOCK_FRAMES,
           (double)blocks * W64_BLOCK_FRAMES / W64_SAMPLE_RATE, W64_REPETITIONS, W64_WARMUP_S);
    print_machine();
    if (written_conf) {
        printf("# openal: ran with ALSOFT_CONF=%s (written by the bench: sources raised)\n",
               written_conf);
    }
    for (int e = 0; e < 2; e++) {
        if (check_behaviour(engines[e]) != 0) {
            if (written_conf) unlink(written_conf);
            return 1;
        }
    }

    int status = 0;
    float *buf = malloc(W64_BLOCK_SAMPLES * sizeof(float));
    if (!buf) return 1;
    for (size_t k = 0; k < n_count && status == 0; k++) {
        const uint32_t n = ns[k];
        w64_workload w;
        if (w64_workload_init(&w, n) != 0) {
            fprintf(stderr, "bench_w64: out of memory for N=%u\n", (unsigned)n);
            status = 1;
            break;
        }
        void *engine[2] = {NULL, NULL};
        w64_timing best[2], last[2];
        for (int e = 0; e < 2; e++) {
            w64_workload_at(&w, 0.0);
            if (engines[e]->create(&w, &engine[e]) != 0) status = 1;
        }
        for (int e = 0; e < 2 && status == 0; e++) {
            if (k == 0) engines[e]->describe(engine[e], stdout);
            run(engines[e], engine[e], &w, W64_WARMUP_S, buf);
            best[e].update_ns = best[e].render_ns = INFINITY;
        }
        for (int rep = 0; rep < W64_REPETITIONS && status == 0; rep++) {
            for (int turn = 0; turn < 2; turn++) {
                int e = (rep % 2 == 0) ? turn : 1 - turn;
                last[e] = run(engines[e], engine[e], &w, seconds, buf);
                best[e].update_ns = fmin(best[e].update_ns, last[e].update_ns);
                best[e].render_ns = fmin(best[e].render_ns, last[e].render_ns);
            }
        }
        for (int e = 0; e < 2; e++) {
            if (engine[e]) engines[e]->destroy(engine[e]);
        }
        w64_workload_deinit(&w);
        if (status != 0) break;

        double ns_per_voice_frame[2];
        for (int e = 0; e < 2; e++) {
            ns_per_voice_frame[e] =
                best[e].render_ns / ((double)n * (double)blocks * W64_BLOCK_FRAMES);
            printf("%s engine=%s N=%u ns_per_voice_frame=%.3f update_ns_per_voice=%.1f\n",
                   w64_hrtf() ? "W64H" : "W64", engines[e]->name, (unsigned)n,
                   ns_per_voice_frame[e], best[e].update_ns / ((double)n * (double)blocks));
        }
        printf("%s ratio N=%u earshot_over_openal=%.2f\n", w64_hrtf() ? "W64H" : "W64",
               (unsigned)n, ns_per_voice_frame[0] / ns_per_voice_frame[1]);
        printf("# rms N=%u last second: earshot=%.4f openal=%.4f\n", (unsigned)n, last[0].rms,
               last[1].rms);
        for (int e = 0; e < 2; e++) {
            if (!last[e].finite || !(last[e].rms > 1e-6)) {
                fprintf(stderr, "bench_w64: error: %s output at N=%u is %s\n", engines[e]->name,
                        (unsigned)n, last[e].finite ? "silent" : "not finite");
                status = 1;
            }
        }
        if (status == 0 &&
            (last[0].rms > 4.0 * last[1].rms || last[1].rms > 4.0 * last[0].rms)) {
            printf("# warning: the two outputs differ by more than 12 dB\n");
        }
        fflush(stdout);
    }
    free(buf);
    if (written_conf) unlink(written_conf);
    return status;
}
