/* SPDX-License-Identifier: Zlib */
/*
 * A game process's shared parts (cli_game.h). The headless loop is the one both front
 * ends had: the script's lines sorted by frame (stable: a frame's lines keep their file
 * order), queued before each frame, a quit or the --seconds limit closing the game and
 * then the runner, and the stage rendered by this loop after each frame (the runner is
 * told a device is attached, so it renders nothing itself).
 */
#define _DEFAULT_SOURCE
#include "cli_game.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

uint64_t cli_seconds_to_frames(double seconds, double frame_hz) {
    double frames = ceil(seconds * frame_hz - 1e-9);
    return frames < 1 ? 1 : (uint64_t)frames;
}

bool cli_have_display(void) {
#ifdef _WIN32
    return true;
#else
    const char *x = getenv("DISPLAY"), *w = getenv("WAYLAND_DISPLAY");
    return (x && *x) || (w && *w);
#endif
}

bool cli_have_sound_card(void) {
#ifdef _WIN32
    return true;
#else
    struct stat st;
    return stat("/dev/snd", &st) == 0 && S_ISDIR(st.st_mode) &&
           access("/dev/snd/controlC0", F_OK) == 0;
#endif
}

bool cli_user_data_folder(const char *sub, char *out, size_t cap) {
    int n;
#ifdef _WIN32
    const char *data = getenv("APPDATA"); /* '/' separates folders there too */
    n = snprintf(out, cap, "%s/Earshot", data && *data ? data : ".");
#else
    const char *data = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
    if (data && *data)
        n = snprintf(out, cap, "%s/earshot", data);
    else
        n = snprintf(out, cap, "%s/.local/share/earshot", home && *home ? home : ".");
#endif
    if (n < 0 || (size_t)n >= cap) return false;
    if (sub && *sub) {
        int m = snprintf(out + n, cap - (size_t)n, "/%s", sub);
        if (m < 0 || (size_t)m >= cap - (size_t)n) return false;
    }
    for (char *slash = strchr(out + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
        *slash = '\0'; /* the parents first */
        mkdir(out, 0700);
        *slash = '/';
    }
    return mkdir(out, 0700) == 0 || errno == EEXIST;
}

bool cli_looks_like_speech_log(const char *head, size_t n) {
    size_t i = 0;
    while (i < n && head[i] >= '0' && head[i] <= '9') i++;
    return i > 0 && i + 3 < n && head[i] == '.' && head[i + 3] == '\t';
}

void cli_speech_fate(const ear_speech_event *e, char *fate, size_t cap) {
    if (e->kind == EAR_SPEECH_EVENT_END)
        snprintf(fate, cap, "heard");
    else
        snprintf(fate, cap, "cut %.2f/%.2f", e->said_s, e->full_s);
}

void cli_speech_log_line(FILE *log, const ear_speech_event *e) {
    if (!log || e->kind == EAR_SPEECH_EVENT_START) return;
    char fate[48];
    cli_speech_fate(e, fate, sizeof fate);
    fprintf(log, "%.2f\t%s\t%s\n", e->start_s, e->text, fate);
}

FILE *cli_open_log(ear_file_writer *w, const char *program, const char *flag, const char *path,
                   bool (*ours)(int fd, void *user), void *user, const char *name) {
    ear_file_write_config c = ear_file_write_config_default();
    c.stream_devices = true;
    c.ours = ours;
    c.ours_user = user;
    c.ours_name = name;
    c.overwrite_hint = "";
    char why[600];
    if (ear_file_write_begin(path, &c, w, why, sizeof why) != EAR_OK) {
        fprintf(stderr, "%s: %s %s\n", program, flag, why);
        return NULL;
    }
    FILE *f = ear_file_writer_stream(w);
    if (!f) {
        ear_file_write_abort(w);
        fprintf(stderr, "%s: %s %s: out of memory\n", program, flag, path);
    }
    return f;
}

bool cli_close_log(ear_file_writer *w, const char *program, const char *flag) {
    if (!w->path) return true;
    char why[600];
    if (ear_file_write_commit(w, why, sizeof why) == EAR_OK) return true;
    fprintf(stderr, "%s: %s %s\n", program, flag, why);
    return false;
}

static int by_frame(const void *a, const void *b) {
    const ear_script_event *x = *(const ear_script_event *const *)a;
    const ear_script_event *y = *(const ear_script_event *const *)b;
    if (x->frame != y->frame) return x->frame < y->frame ? -1 : 1;
    return x < y ? -1 : x > y;
}

static void close_game(ear_runner *rn, const cli_headless_hooks *h) {
    if (h && h->close) h->close(h->user);
    ear_runner_close(rn);
}

bool cli_run_headless(const char *program, ear_runner *rn, const ear_script *script,
                      bool replay, uint64_t max_frames, const cli_headless_hooks *h,
                      cli_headless_result *out) {
    size_t count = script ? script->count : 0, next = 0;
    const ear_script_event **order = calloc(count + 1, sizeof *order);
    if (!order) {
        fprintf(stderr, "%s: out of memory for the script's %zu lines\n", program, count);
        return false;
    }
    for (size_t k = 0; k < count; k++) order[k] = &script->events[k];
    qsort(order, count, sizeof *order, by_frame);

    ear_runner_set_one_step_per_frame(rn, true);
    static int rendered_here;
    ear_runner_set_audio_device(rn, &rendered_here); /* this loop renders the stage */
    ear_stage *stage = ear_ctx_stage(ear_runner_ctx(rn));
    enum { PER = 800 }; /* 48 kHz at 60 frames a second */
    float buf[PER * 2];
    uint64_t audio_hash = EAR_FNV1A64_OFFSET, step_audio_hash = audio_hash;
    bool closed = false;
    for (uint64_t frame = 0; ear_runner_running(rn); frame++) {
        if (replay && ear_runner_replay_done(rn)) break;
        if (max_frames && frame >= max_frames && !closed) {
            close_game(rn, h);
            closed = true;
        }
        if (!replay) {
            while (next < count && order[next]->frame <= frame) {
                const ear_script_event *e = order[next++];
                if (e->action == EAR_SCRIPT_QUIT)
                    close_game(rn, h);
                else
                    ear_runner_queue_script_event(rn, e);
            }
            if (h && h->input) h->input(h->user, rn, frame);
        }
        uint64_t steps_before = ear_runner_steps(rn);
        ear_runner_frame(rn, (double)frame / 60.0);
        /* the audio hash the last step's state hash folded in */
        if (ear_runner_steps(rn) != steps_before) step_audio_hash = audio_hash;
        ear_stage_render(stage, buf, PER);
        audio_hash = ear_fnv1a64_floats(audio_hash, buf, PER * 2);
        if (h && h->audio) h->audio(h->user, buf, PER, audio_hash);
    }
    free(order);
    out->audio_hash = audio_hash;
    out->step_audio_hash = step_audio_hash;
    return true;
}
