/* SPDX-License-Identifier: Zlib */
/*
 * Measuring: audio.render_offline renders from the stage's current state (the state goes
 * on from there: two renders of 1 s are the same samples as one of 2 s) and measures the
 * buffer with the analysis module; audio.analyze asks more of that buffer. The buffer is
 * kept until the next render or reset.
 */
#define _POSIX_C_SOURCE 200809L /* lstat */
#include "commands_internal.h"

#include "earshot/analysis.h"
#include "earshot/wav.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A game frame at 60 Hz: how often a render's step hook runs. */
#define STEP_FRAMES 800u
/* What one envelope value costs in a result, counted against the memory budget before a
 * render: a jansson real (32 bytes with malloc's own), its array slot (8) and its text
 * (about 12), rounded up. */
#define RESULT_BYTES_PER_VALUE 64u

/* A JSON number for a measurement; NaN and infinity (a broken render) become null. */
static json_t *number(double v) {
    return isfinite(v) ? json_real(v) : json_null();
}

/* The RMS envelope (hz 0) or a tone's, as a JSON array; NULL with *err set when the
 * memory for its values cannot be had. */
static json_t *envelope(ear_commands *c, const float *buf, size_t frames, uint32_t channel,
                        size_t window, double hz, json_t **err) {
    size_t count = 0;
    ear_result r = hz > 0 ? ear_tone_envelope(buf, frames, 2, channel, EAR__RATE, hz, window,
                                              NULL, 0, &count)
                          : ear_rms_envelope(buf, frames, 2, channel, window, NULL, 0, &count);
    json_t *a = json_array();
    if (!a) {
        *err = ear__cmd_alloc_error(c, "params.window", sizeof(json_t *));
        return NULL;
    }
    if (r != EAR_OK || count == 0) return a;
    double *values = ear__cmd_alloc(c, EAR__PART_RENDER)
                         ->alloc_fn(count * sizeof *values, &c->part_user[EAR__PART_RENDER]);
    if (!values) {
        json_decref(a);
        *err = ear__cmd_alloc_error(c, "params.window", count * sizeof *values);
        return NULL;
    }
    if (hz > 0)
        ear_tone_envelope(buf, frames, 2, channel, EAR__RATE, hz, window, values, count,
                          &count);
    else
        ear_rms_envelope(buf, frames, 2, channel, window, values, count, &count);
    for (size_t i = 0; i < count; i++) json_array_append_new(a, number(values[i]));
    ear__cmd_alloc(c, EAR__PART_RENDER)->free_fn(values, &c->part_user[EAR__PART_RENDER]);
    return a;
}

/* A spectral measure through the budget; false with *err set when it cannot allocate. */
static bool spectral(ear_commands *c, bool centroid, const float *buf, size_t frames,
                     uint32_t channel, const char *where, double *out, json_t **err) {
    ear_result r = centroid
                       ? ear_measure_spectral_centroid(buf, frames, 2, channel, EAR__RATE,
                                                       ear__cmd_alloc(c, EAR__PART_RENDER), out)
                       : ear_measure_dominant_hz(buf, frames, 2, channel, EAR__RATE,
                                                 ear__cmd_alloc(c, EAR__PART_RENDER), out);
    if (r == EAR_OK) return true;
    if (r == EAR_E_OUT_OF_MEMORY)
        *err = ear__cmd_alloc_error(c, where, ear_spectrum_scratch_bytes(frames));
    else
        *err = ear__cmd_result_error(r, where, NULL);
    return false;
}

/* A WAV's bytes beside its samples: RIFF, fmt, the INFO chunk with Earshot's software
 * string, data (about 100 bytes; counted generously). */
#define WAV_HEADER_BYTES 256u

/* Whether what is at path now (lstat: a link is itself) is a file this session wrote. */
static bool written_here(const ear_commands *c, const char *path) {
    struct stat st;
    if (lstat(path, &st) != 0) return errno == ENOENT; /* nothing there: nothing to replace */
    for (size_t i = 0; i < c->written_count; i++)
        if (c->written[i].dev == (uint64_t)st.st_dev &&
            c->written[i].ino == (uint64_t)st.st_ino)
            return true;
    return false;
}

/* Records the file just written at path (its identity, for written_here) and counts its
 * bytes against the output quota. */
static void note_written(ear_commands *c, const char *path) {
    struct stat st;
    if (lstat(path, &st) != 0) return;
    c->output_bytes += (uint64_t)st.st_size;
    for (size_t i = 0; i < c->written_count; i++)
        if (c->written[i].dev == (uint64_t)st.st_dev &&
            c->written[i].ino == (uint64_t)st.st_ino)
            return;
    uint32_t cap = (uint32_t)c->written_cap;
    void *items = c->written;
    /* out of room: then "overwrite" keeps it (the safe side) */
    if (c->written_count >= UINT32_MAX ||
        !ear__grow(NULL, &items, &cap, (uint32_t)c->written_count + 1, sizeof *c->written))
        return;
    c->written = items;
    c->written_cap = cap;
    c->written[c->written_count].dev = (uint64_t)st.st_dev;
    c->written[c->written_count].ino = (uint64_t)st.st_ino;
    c->written_count++;
}

json_t *ear__cmd_render_offline(ear_commands *c, json_t *params, json_t **err) {
    double seconds = ear__num(params, "seconds", 1);
    double window_s = ear__num(params, "window", 0.1);
    if (seconds > c->config.max_render_seconds) {
        char expected[64];
        snprintf(expected, sizeof expected, "at most %g seconds", c->config.max_render_seconds);
        *err = ear_command_error("E_BAD_PARAM", "params.seconds",
                                 "params.seconds: %g is longer than this server renders (%s)",
                                 seconds, expected);
        json_object_set_new(*err, "expected", json_string(expected));
        return NULL;
    }
    const char *path_in = ear__str(params, "path");
    char path[4096] = "";
    if (path_in && (*err = ear__cmd_path(c, path_in, true, "params.path", path, sizeof path)))
        return NULL;
    uint64_t frames = (uint64_t)llround(seconds * EAR__RATE);
    if (frames == 0) frames = 1;
    /* The session's output quota, before anything is rendered: the WAV's samples and its
     * header. */
    uint64_t wav_bytes = frames * 2 * sizeof(float) + WAV_HEADER_BYTES;
    if (*path && wav_bytes > c->config.max_output_bytes - c->output_bytes) {
        *err = ear_command_error(
            "E_TOO_BIG", "params.path",
            "params.path: writing %llu bytes would pass the session's output quota of %llu "
            "bytes (%llu written so far; the quota is set with --max-output-mb); nothing was "
            "rendered or written",
            (unsigned long long)wav_bytes, (unsigned long long)c->config.max_output_bytes,
            (unsigned long long)c->output_bytes);
        if (*err) {
            json_object_set_new(*err, "needed_bytes", json_integer((json_int_t)wav_bytes));
            json_object_set_new(*err, "written_bytes",
                                json_integer((json_int_t)c->output_bytes));
            json_object_set_new(*err, "quota_bytes",
                                json_integer((json_int_t)c->config.max_output_bytes));
        }
        return NULL;
    }
    size_t window = (size_t)llround(window_s * EAR__RATE);
    if (window == 0) window = 1;
    /* What the render will hold at once, beside what is already there (the last buffer
     * stays until this one is made): its buffer, one spectrum's transform, and its
     * envelopes as JSON (RESULT_BYTES_PER_VALUE each: jansson's value, its array slot and
     * its text). Checked, and made room for, before anything changes. */
    size_t bytes = (size_t)frames * 2 * sizeof(float);
    size_t values =
        ((size_t)frames / window + 1) * (1 + json_array_size(json_object_get(params, "tones")));
    size_t need =
        bytes + ear_spectrum_scratch_bytes((size_t)frames) + values * RESULT_BYTES_PER_VALUE;
    bool scene = ear__bool(params, "scene", false);
    if (scene && !c->world.world) {
        *err = ear_command_error("E_STATE", "params.scene",
                                 "params.scene: there is no world to step (world.load first)");
        return NULL;
    }
    /* The work budget: the frames, and in a scene the world's steps (seconds * step_hz,
     * each costing at least what the next step will), before anything changes. */
    uint64_t scene_steps = 0, estimate = 0;
    if (scene) {
        scene_steps = (uint64_t)ceil(seconds * (double)c->world.step_hz);
        uint64_t left = c->config.max_command_work > c->command_work
                            ? c->config.max_command_work - c->command_work
                            : 0;
        estimate = ear_physics_estimate_step_work(c->world.world,
                                                  left / (scene_steps ? scene_steps : 1) + 1);
    }
    if ((*err = ear__cmd_work_admit(c, "params.seconds", scene_steps, estimate + 1, frames)))
        return NULL;
    if (!ear__cmd_room(c, need)) {
        *err = ear__cmd_too_big(c, "params.seconds", need);
        return NULL;
    }
    float *buf =
        ear__cmd_alloc(c, EAR__PART_RENDER)->alloc_fn(bytes, &c->part_user[EAR__PART_RENDER]);
    if (!buf) {
        *err = ear__cmd_alloc_error(c, "params.seconds", bytes);
        return NULL;
    }
    c->rendering = true;
    /* In a scene the world steps in lockstep: one fixed step, the sound brought in step
     * with it, then that step's frames rendered (steps of 1 / step_hz, placed on whole
     * frames: step k ends at frame round(k * rate / step_hz) of this render). */
    double step_hz = scene ? (double)c->world.step_hz : 0;
    uint64_t steps_done = 0, step_end = 0;
    c->changed = true; /* from here on the stage moves: a failure is not run again */
    for (uint64_t done = 0; done < frames;) {
        if (c->config.on_step) c->config.on_step(c->config.step_user, c, done, frames);
        uint64_t limit = STEP_FRAMES, step_work = 0;
        if (scene) {
            if (done >= step_end) {
                ear_physics_clear_events(c->world.world);
                (void)ear_physics_step(c->world.world, (float)(1.0 / step_hz));
                ear__cmd_audio_world_sync(c, 1.0 / step_hz);
                steps_done++;
                step_end = (uint64_t)llround((double)steps_done * EAR__RATE / step_hz);
                step_work = ear_physics_last_step_work(c->world.world) + 1;
            }
            limit = step_end - done;
        }
        uint32_t n = frames - done < limit ? (uint32_t)(frames - done) : (uint32_t)limit;
        ear_stage_render(c->stage, buf + 2 * done, n);
        done += n;
        if (!ear__cmd_work_tick(c, "frames", step_work ? 1 : 0, step_work, n, done, frames,
                                err)) {
            /* Cancelled or past the budget: the stage has moved on, the buffer goes. */
            c->rendering = false;
            ear__cmd_alloc(c, EAR__PART_RENDER)->free_fn(buf, &c->part_user[EAR__PART_RENDER]);
            ear_stage_update(c->stage);
            return NULL;
        }
    }
    if (c->config.on_step) c->config.on_step(c->config.step_user, c, frames, frames);
    c->rendering = false;
    ear_stage_update(c->stage);

    if (c->buffer)
        ear__cmd_alloc(c, EAR__PART_RENDER)
            ->free_fn(c->buffer, &c->part_user[EAR__PART_RENDER]);
    c->buffer = buf;
    c->buffer_frames = frames;

    /* The render has happened (the stage moved on, the buffer is kept for audio.analyze);
     * a measurement that cannot get its memory now is reported as the error, never as
     * 0 Hz with ok. */
    char hash[20];
    snprintf(hash, sizeof hash, "%016" PRIx64, ear_hash_samples(buf, (size_t)frames * 2));
    double dominant = 0;
    if (!spectral(c, false, buf, (size_t)frames, EAR_ALL_CHANNELS, "params.seconds", &dominant,
                  err))
        return NULL;
    json_t *tones = json_array();
    size_t i;
    json_t *t;
    json_array_foreach(json_object_get(params, "tones"), i, t) {
        double hz = json_number_value(t);
        json_t *env = envelope(c, buf, frames, EAR_ALL_CHANNELS, window, hz, err);
        if (!env) {
            json_decref(tones);
            return NULL;
        }
        json_array_append_new(tones, json_pack("{s:f, s:o}", "hz", hz, "envelope", env));
    }
    json_t *rms_env = envelope(c, buf, frames, EAR_ALL_CHANNELS, window, 0, err);
    if (!rms_env) {
        json_decref(tones);
        return NULL;
    }
    json_t *result = json_pack(
        "{s:f, s:I, s:o, s:{s:o, s:o}, s:s, s:o, s:o, s:f, s:o, s:o}", "seconds",
        (double)frames / EAR__RATE, "frames", (json_int_t)frames, "peak",
        number((double)ear_peak(buf, frames, 2, EAR_ALL_CHANNELS)), "rms", "left",
        number(ear_rms(buf, frames, 2, 0)), "right", number(ear_rms(buf, frames, 2, 1)), "hash",
        hash, "max_delta", number((double)ear_max_delta(buf, frames, 2, EAR_ALL_CHANNELS)),
        "dominant_hz", number(dominant), "window", (double)window / EAR__RATE, "envelope",
        rms_env, "tone_envelopes", tones);
    if (result && scene)
        json_object_set_new(result, "world",
                            json_pack("{s:I, s:f}", "steps", (json_int_t)steps_done, "time_s",
                                      ear_physics_time_s(c->world.world)));
    if (result && *path) {
        ear_wav_write_config wc = ear_wav_write_config_default();
        wc.overwrite = ear__bool(params, "overwrite", false);
        wc.overwrite_hint = " (\"overwrite\": true replaces it)";
        /* Confined (MCP), "overwrite" replaces only a file this session wrote: a client
         * never replaces a file Earshot did not write (a WAV Earshot wrote elsewhere is
         * replaced without being asked, as always). */
        if (wc.overwrite && c->config.confine_paths && !written_here(c, path)) {
            wc.overwrite = false;
            wc.overwrite_hint = " (\"overwrite\" replaces only files this session wrote)";
        }
        ear_io_error io = {{0}};
        ear_result r = ear_wav_write_with(path, buf, frames, 2, EAR__RATE, &wc, &io);
        if (r == EAR_OK) note_written(c, path);
        if (r != EAR_OK) {
            json_decref(result);
            /* The render happened (the stage moved on); only the file failed. A file that
             * is kept (a link, a file Earshot did not write) is E_EXISTS. */
            *err = ear_command_error(r == EAR_E_STATE ? "E_EXISTS" : "E_IO", "params.path",
                                     "params.path: %s",
                                     io.message[0] ? io.message : ear_result_string(r));
            if (r == EAR_E_STATE)
                json_object_set_new(*err, "expected",
                                    json_string("a new file, a WAV Earshot wrote, or "
                                                "\"overwrite\": true"));
            return NULL;
        }
        json_object_set_new(result, "path", json_string(path));
    }
    return result;
}

json_t *ear__cmd_analyze(ear_commands *c, json_t *params, json_t **err) {
    if (!c->buffer) {
        *err = ear_command_error("E_STATE", "command",
                                 "nothing has been rendered yet (audio.render_offline first)");
        return NULL;
    }
    double total = (double)c->buffer_frames / EAR__RATE;
    double start = ear__num(params, "start", 0);
    double end = ear__num(params, "end", total);
    if (end > total) end = total;
    uint64_t a = (uint64_t)llround(start * EAR__RATE);
    uint64_t b = (uint64_t)llround(end * EAR__RATE);
    if (b > c->buffer_frames) b = c->buffer_frames;
    if (a >= b) {
        char expected[80];
        snprintf(expected, sizeof expected, "start < end <= %.6g (the buffer's length)", total);
        *err = ear_command_error("E_BAD_PARAM", "params.start",
                                 "params.start: an empty span %g..%g (expected %s)", start, end,
                                 expected);
        json_object_set_new(*err, "expected", json_string(expected));
        return NULL;
    }
    const char *ch = ear__str(params, "channel");
    uint32_t channel = EAR_ALL_CHANNELS;
    if (ch && strcmp(ch, "left") == 0) channel = 0;
    if (ch && strcmp(ch, "right") == 0) channel = 1;
    const float *buf = c->buffer + 2 * a;
    size_t n = (size_t)(b - a);
    /* rms of "mix" is the RMS of the mono downmix, like every other measure of it. */
    double rms;
    if (channel == EAR_ALL_CHANNELS) {
        double sum = 0;
        for (size_t i = 0; i < n; i++) {
            double m = 0.5 * ((double)buf[2 * i] + (double)buf[2 * i + 1]);
            sum += m * m;
        }
        rms = sqrt(sum / (double)n);
    } else {
        rms = ear_rms(buf, n, 2, channel);
    }
    double dominant = 0, centroid = 0;
    if (!spectral(c, false, buf, n, channel, "command", &dominant, err) ||
        !spectral(c, true, buf, n, channel, "command", &centroid, err))
        return NULL;
    json_t *result = json_pack(
        "{s:f, s:f, s:s, s:o, s:o, s:o, s:o, s:o, s:o}", "start", (double)a / EAR__RATE, "end",
        (double)b / EAR__RATE, "channel", ch ? ch : "mix", "peak",
        number((double)ear_peak(buf, n, 2, channel)), "rms", number(rms), "max_delta",
        number((double)ear_max_delta(buf, n, 2, channel)), "dominant_hz", number(dominant),
        "zero_crossing_hz", number(ear_zero_crossing_hz(buf, n, 2, channel, EAR__RATE)),
        "centroid_hz", number(centroid));
    json_t *tone = json_object_get(params, "tone");
    if (result && tone)
        json_object_set_new(result, "tone",
                            json_pack("{s:f, s:o}", "hz", json_number_value(tone), "amplitude",
                                      number(ear_tone_amplitude(buf, n, 2, channel, EAR__RATE,
                                                                json_number_value(tone)))));
    return result;
}
