/* SPDX-License-Identifier: Zlib */
/*
 * A headless game for the UI tests: a runner driven frame by frame as the headless
 * backend drives it (one fixed step a frame, frame f at f / 60 s, keys queued before a
 * frame), with the UI attached, every on_ui event recorded, and optionally the stage's
 * output captured (the harness stands in for the sound card: it renders 800 frames after
 * each frame, exactly the samples a device would have played).
 */
#ifndef EARSHOT_UI_HARNESS_H
#define EARSHOT_UI_HARNESS_H

#include "earshot/engine.h"
#include "earshot/ui.h"

#include <stdlib.h>
#include <string.h>

#define H_EVENTS    256
#define H_LINES     256
#define H_RATE      48000
#define H_PER_FRAME 800 /* 48000 / 60 */

/* An event as the scene got it, its strings copied. */
typedef struct h_event {
    ear_ui_event_kind kind;
    char widget[EAR_UI_ID_MAX], item[EAR_UI_ID_MAX], text[EAR_UI_TEXT_MAX];
    int position;
    bool checked;
    double number;
    int index;
    uint64_t frame;
} h_event;

typedef struct harness harness;
typedef void (*h_update_fn)(ear_ctx *ctx, harness *h);

struct harness {
    ear_runner *r;
    ear_ui *ui;
    ear_ctx *ctx;
    uint64_t frame;
    h_event events[H_EVENTS];
    size_t event_count;
    h_update_fn on_update;
    void *user;
    /* Everything speech said, text and echoed characters alike (speech's echo lines; a
     * headless engine's speech keeps only its history otherwise). */
    char lines[H_LINES][256];
    uint64_t line_count;
    /* Captured output (stereo, interleaved). */
    float *audio;
    size_t audio_frames, audio_cap;
};

static inline void h_on_ui(ear_ctx *ctx, const ear_ui_event *e, void *user) {
    harness *h = user;
    (void)ctx;
    if (h->event_count == H_EVENTS) return;
    h_event *d = &h->events[h->event_count++];
    d->kind = e->kind;
    snprintf(d->widget, sizeof d->widget, "%s", e->widget);
    snprintf(d->item, sizeof d->item, "%s", e->item);
    snprintf(d->text, sizeof d->text, "%s", e->text);
    d->position = e->position;
    d->checked = e->checked;
    d->number = e->number;
    d->index = e->index;
    d->frame = h->frame;
}

static inline void h_line(void *user, const char *text) {
    harness *h = user;
    snprintf(h->lines[h->line_count % H_LINES], sizeof h->lines[0], "%s", text);
    h->line_count++;
}

static inline void h_scene_update(ear_ctx *ctx, void *user) {
    harness *h = user;
    if (h->on_update) h->on_update(ctx, h);
}

/* capture_s > 0: capture that many seconds of output at most. */
static inline int h_init(harness *h, const ear_ui_config *uc, double capture_s) {
    memset(h, 0, sizeof *h);
    if (ear_ui_create(uc, &h->ui) != EAR_OK) return -1;
    ear_engine_config cfg = ear_engine_config_default("ui test");
    cfg.backend = EAR_BACKEND_HEADLESS;
    cfg.audio_attach = NULL;
    cfg.audio_update = NULL;
    cfg.audio_detach = NULL;
    cfg.speech.echo = true;
    cfg.speech.line_fn = h_line;
    cfg.speech.line_user = h;
    ear_ui_attach(h->ui, &cfg);
    ear_scene scene = {0};
    scene.name = "ui test";
    scene.update = h_scene_update;
    scene.on_ui = h_on_ui;
    scene.user = h;
    if (ear_runner_create(&cfg, &scene, &h->r) != EAR_OK) return -1;
    ear_runner_set_one_step_per_frame(h->r, true);
    h->ctx = ear_runner_ctx(h->r);
    if (capture_s > 0) {
        h->audio_cap = (size_t)(capture_s * H_RATE);
        h->audio = calloc(h->audio_cap * 2, sizeof *h->audio);
        if (!h->audio) return -1;
        /* The harness plays the stage, as a device would. */
        ear_runner_set_audio_device(h->r, h);
    }
    ear_runner_frame(h->r, 0); /* the first frame only starts the scene */
    h->frame = 1;
    return 0;
}

static inline void h_free(harness *h) {
    ear_runner_destroy(h->r);
    ear_ui_destroy(h->ui);
    free(h->audio);
}

static inline void h_frame(harness *h) {
    ear_runner_frame(h->r, (double)h->frame / 60.0);
    h->frame++;
    if (h->audio && h->audio_frames + H_PER_FRAME <= h->audio_cap) {
        ear_stage_render(ear_ctx_stage(h->ctx), h->audio + 2 * h->audio_frames, H_PER_FRAME);
        h->audio_frames += H_PER_FRAME;
    }
}

static inline void h_frames(harness *h, int n) {
    for (int i = 0; i < n; i++) h_frame(h);
}

/* A key pressed (down and up before one frame), then one more frame, so what it
 * pushed or closed has opened or resumed. */
static inline void h_press(harness *h, ear_key key) {
    ear_runner_key_down(h->r, key);
    ear_runner_key_up(h->r, key);
    h_frames(h, 2);
}

/* A key pressed while another is held (Shift+Tab, Ctrl+Left). */
static inline void h_press_with(harness *h, ear_key modifier, ear_key key) {
    ear_runner_key_down(h->r, modifier);
    ear_runner_key_down(h->r, key);
    ear_runner_key_up(h->r, key);
    h_frame(h);
    ear_runner_key_up(h->r, modifier);
    h_frame(h);
}

static inline void h_type(harness *h, const char *text) {
    ear_runner_text(h->r, text);
    h_frames(h, 2);
}

/* What was said, counted from the newest: 0 is the last message or echoed character. */
static inline const char *h_said(harness *h, size_t back) {
    if (back >= h->line_count || back >= H_LINES) return "(nothing)";
    return h->lines[(h->line_count - 1 - back) % H_LINES];
}

static inline uint64_t h_spoken(harness *h) {
    return h->line_count;
}

/* The newest recorded event of that kind (NULL widget / item: any), or NULL. */
static inline const h_event *h_find(harness *h, ear_ui_event_kind kind, const char *widget,
                                    const char *item) {
    for (size_t i = h->event_count; i-- > 0;) {
        const h_event *e = &h->events[i];
        if (e->kind != kind) continue;
        if (widget && strcmp(e->widget, widget) != 0) continue;
        if (item && strcmp(e->item, item) != 0) continue;
        return e;
    }
    return NULL;
}

static inline void h_tr(harness *h, const char *code, const char *key, const char *text) {
    ear_lang_set_text(ear_ctx_lang(h->ctx), code, key, text);
}

#endif
