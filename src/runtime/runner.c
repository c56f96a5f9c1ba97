/* SPDX-License-Identifier: Zlib */
/*
 * The runner: it owns the context (clocks, input, stage, translations, save, speech) and
 * the scene stack, and ear_runner_frame is the one function that holds the order of a
 * frame's phases (engine.h lists them; tests/runtime checks the sequence through
 * ear__runner_phase_hook).
 *
 * Each fixed step steps the physics world (ear_ctx_physics) by 1 / step_hz, then calls
 * fixed_update; the world's events are cleared once a frame, before its steps.
 *
 * Fixed steps come from an accumulator of game time: each frame adds its game delta,
 * whole steps are taken (at most max_steps; the excess is dropped, so a slow machine
 * slows the game down instead of spiralling) and the remainder is the drawing blend
 * ear_ctx_alpha. A tiny tolerance (1e-9 s) counts a step that floating-point sums left a
 * hair short, so 144 frames of 1/144 s make exactly 60 steps of 1/60 s. After a pause the
 * accumulator restarts half a step full, which absorbs frame jitter. Headless runs take
 * exactly one step per frame.
 *
 * Nothing plays the stage until a device is attached; so that commands and ended voices
 * do not pile up, the runner renders it offline and drops the samples: per fixed step
 * when headless (the step's output is hashed for replays), per frame at real time
 * otherwise.
 *
 * Replays: events processed by the input since the previous step are the step's events;
 * recording writes them with the step's hashes, replaying feeds them back before the
 * frame whose step needs them and compares the hashes.
 */
#include "runtime_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void (*ear__runner_phase_hook)(const char *phase, void *user) = NULL;
void *ear__runner_phase_hook_user = NULL;

#define MAX_SCENES       16
#define MAX_CHANGES      16
#define MAX_UI_EVENTS    64
#define UI_ARENA_BYTES   (64 * 1024) /* 64 events with their widget, item and value */
#define MAX_STEP_EVENTS  1024
#define STEP_TOLERANCE_S 1e-9

typedef enum phase { PHASE_IDLE, PHASE_FIXED, PHASE_UI, PHASE_OTHER } phase;

typedef enum change_kind { CHANGE_PUSH, CHANGE_POP, CHANGE_SWITCH } change_kind;

typedef struct change {
    change_kind kind;
    ear_scene scene;
} change;

struct ear_ctx {
    ear_runner *r;
};

struct ear_runner {
    ear_ctx ctx;
    ear_engine_config cfg;
    ear_time time;
    ear_input input;
    ear_actions actions;
    ear_stage *stage;
    ear_lang *lang;
    ear_assets *assets;
    ear_storage *storage;
    ear_speech *speech;
    ear_physics *physics;
    ear_world *world; /* the audio world over stage, assets and physics */
    ear_scene scenes[MAX_SCENES];
    size_t depth;
    change changes[MAX_CHANGES];
    size_t change_count;
    phase phase;
    double step_s, accumulator, frame_period_s, next_frame_s;
    bool one_step, was_paused;
    bool started, running, quit_requested, save_requested;
    bool close_pending; /* the window was closed; the next frame tells the top scene */
    uint64_t frames, steps;
    /* UI events of this frame, their strings in the arena. */
    ear_ui_event ui_events[MAX_UI_EVENTS];
    size_t ui_event_count;
    char ui_arena[UI_ARENA_BYTES];
    size_t ui_arena_used;
    /* Stage rendering while no device plays it. */
    void *device;
    float *scratch;
    uint32_t scratch_frames, channels;
    double sample_rate, stage_frame_debt;
    uint64_t stage_steps_rendered;
    uint64_t last_scene_hash, last_stage_hash, last_hash;
    /* Replays. */
    ear_input_event step_events[MAX_STEP_EVENTS];
    uint32_t step_event_count;
    bool step_events_overflowed;
    ear__replay_writer writer;
    bool recording;
    bool finished; /* ear_runner_finish ran */
    ear_replay *replay;
    uint64_t replay_fed_step, mismatch_step;
};

static void phase_mark(const char *name) {
    if (ear__runner_phase_hook) ear__runner_phase_hook(name, ear__runner_phase_hook_user);
}

static ear_scene *top(ear_runner *r) {
    return r->depth ? &r->scenes[r->depth - 1] : NULL;
}

static const char *copy_str(ear_runner *r, const char *s) {
    if (!s) return NULL;
    size_t n = strlen(s) + 1;
    if (n > UI_ARENA_BYTES - r->ui_arena_used) return NULL;
    char *d = r->ui_arena + r->ui_arena_used;
    memcpy(d, s, n);
    r->ui_arena_used += n;
    return d;
}

/* ---- Creation ---------------------------------------------------------------------- */

static ear_result make_parts(ear_runner *r) {
    const ear_engine_config *cfg = &r->cfg;
    bool headless = cfg->backend == EAR_BACKEND_HEADLESS;
    ear_storage_config sc = ear_storage_config_default();
    if (!headless) {
        sc.path = cfg->save_path;
        sc.secret = cfg->save_secret;
        sc.secret_size = cfg->save_secret_size;
    }
    ear_result res = ear_storage_create(&sc, &r->storage);
    if (res != EAR_OK) return res;
    if (ear_storage_load_result(r->storage) != EAR_OK)
        ear_log(EAR_LOG_WARN, "runtime", "%s", ear_storage_last_error(r->storage));

    res = ear_lang_create(NULL, &r->lang);
    if (res != EAR_OK) return res;
    if (cfg->lang_dir) {
        ear_lang_load_info info;
        if (ear_lang_load_dir(r->lang, cfg->lang_dir, &info) != EAR_OK)
            ear_log(EAR_LOG_WARN, "runtime", "translations folder '%s' cannot be read",
                    cfg->lang_dir);
    }
    char code[EAR_LANG_CODE_MAX];
    const char *saved = ear_storage_get_string(r->storage, "language", NULL);
    if (ear_lang_choose_start(saved, cfg->language, headless, code, sizeof code) == EAR_OK)
        ear_lang_set_language(r->lang, code);

    res = ear_stage_create(cfg->stage, &r->stage);
    if (res != EAR_OK) return res;
    res = ear_physics_create(cfg->physics, &r->physics);
    if (res != EAR_OK) return res;
    ear_assets_config ac = ear_assets_config_default();
    ac.root = cfg->assets_dir;
    res = ear_assets_create(&ac, &r->assets);
    if (res != EAR_OK) return res;
    ear_world_config wc = ear_world_config_default();
    wc.stage = r->stage;
    wc.assets = r->assets;
    wc.physics = r->physics;
    res = ear_world_create(&wc, &r->world);
    if (res != EAR_OK) return res;
    ear_stage_config stc = ear_stage_get_config(r->stage);
    r->sample_rate = stc.sample_rate;
    r->channels = stc.channels;
    r->scratch_frames = 4096;
    r->scratch = malloc((size_t)r->scratch_frames * r->channels * sizeof *r->scratch);
    if (!r->scratch) return EAR_E_OUT_OF_MEMORY;

    if (cfg->replay_path) {
        res = ear_replay_load(cfg->replay_path, &r->replay, NULL, 0);
        if (res != EAR_OK) return res;
        if (fabs(ear_replay_step_hz(r->replay) - cfg->step_hz) > 1e-9) {
            ear_log(EAR_LOG_ERROR, "runtime",
                    "replay '%s' was recorded at %g steps a second; this run takes %g",
                    cfg->replay_path, ear_replay_step_hz(r->replay), cfg->step_hz);
            return EAR_E_FORMAT;
        }
    }
    if (cfg->record_path) {
        uint32_t flags = headless ? EAR__REPLAY_FLAG_STAGE : 0;
        res = ear__replay_writer_open(&r->writer, cfg->record_path, cfg->step_hz, flags);
        if (res != EAR_OK) return res;
        r->recording = true;
    }
    return EAR_OK;
}

ear_result ear_runner_create(const ear_engine_config *config, const ear_scene *first_scene,
                             ear_runner **out_runner) {
    if (!config || !first_scene || !out_runner) return EAR_E_INVALID_ARG;
    if (!(config->step_hz >= 1 && config->step_hz <= 10000)) return EAR_E_INVALID_ARG;
    ear_runner *r = calloc(1, sizeof *r);
    if (!r) return EAR_E_OUT_OF_MEMORY;
    r->ctx.r = r;
    r->cfg = *config;
    /* A replay is always played back headless: one step a frame, nothing from outside. */
    if (r->cfg.replay_path) r->cfg.backend = EAR_BACKEND_HEADLESS;
    if (r->cfg.max_steps == 0) r->cfg.max_steps = 8;
    if (!(r->cfg.max_frame_s > 0)) r->cfg.max_frame_s = 0.25;
    if (!(r->cfg.frame_hz > 0)) r->cfg.frame_hz = 60;
    r->step_s = 1.0 / r->cfg.step_hz;
    r->frame_period_s = 1.0 / r->cfg.frame_hz;
    r->one_step = r->cfg.backend == EAR_BACKEND_HEADLESS;
    r->mismatch_step = UINT64_MAX;
    r->replay_fed_step = UINT64_MAX;
    ear_time_init(&r->time);
    r->time.max_frame_s = r->cfg.max_frame_s;
    ear_input_init(&r->input);
    ear_actions_init(&r->actions);
    ear_result res = make_parts(r);
    if (res != EAR_OK) {
        ear_runner_destroy(r);
        return res;
    }
    r->scenes[0] = *first_scene;
    r->depth = 1;
    r->running = true;
    *out_runner = r;
    return EAR_OK;
}

/* Speech takes time on the runner's real clock (a headless run's comes from its fixed
 * frames, so the same run gives the same times), timed in the language the game speaks. */
static void speech_clock(ear_runner *r) {
    if (!r->speech) return;
    const char *code = ear_lang_language(r->lang);
    if (code) ear_speech_set_language(r->speech, code);
    ear_speech_advance(r->speech, r->time.real_s);
}

/* Speech starts with the first frame: by then the backend has attached the audio
 * device or not, which decides whether espeak-ng can be heard. */
static void start_speech(ear_runner *r) {
    ear_speech_config sc = r->cfg.speech;
    ear_speech_settings_load(r->storage, &sc); /* the settings menu's, when saved */
    if (r->cfg.backend == EAR_BACKEND_HEADLESS) sc.log_only = true;
    sc.stage = r->device ? r->stage : NULL;
    if (ear_speech_create(&sc, &r->speech) != EAR_OK)
        ear_log(EAR_LOG_ERROR, "runtime", "speech could not start; messages are not spoken");
    speech_clock(r);
}

static void shutdown_scenes(ear_runner *r) {
    r->phase = PHASE_OTHER;
    while (r->depth) {
        ear_scene s = r->scenes[r->depth - 1];
        r->depth--;
        if (s.end) s.end(&r->ctx, s.user);
    }
}

static void save_if_dirty(ear_runner *r) {
    if (!r->storage || !ear_storage_is_dirty(r->storage)) return;
    if (ear_storage_save(r->storage) != EAR_OK)
        ear_log(EAR_LOG_ERROR, "runtime", "save failed: %s",
                ear_storage_last_error(r->storage));
}

ear_result ear_runner_finish(ear_runner *r) {
    if (!r) return EAR_E_INVALID_ARG;
    if (r->finished) return EAR_OK;
    r->finished = true;
    if (r->started) shutdown_scenes(r);
    r->started = false;
    ear_result res = EAR_OK;
    if (r->storage && ear_storage_is_dirty(r->storage) &&
        ear_storage_save(r->storage) != EAR_OK) {
        ear_log(EAR_LOG_ERROR, "runtime", "save failed: %s",
                ear_storage_last_error(r->storage));
        res = EAR_E_IO;
    }
    if (r->recording) {
        r->recording = false;
        if (ear__replay_writer_close(&r->writer) != EAR_OK) res = EAR_E_IO;
    }
    return res;
}

void ear_runner_destroy(ear_runner *r) {
    if (!r) return;
    (void)ear_runner_finish(r);
    ear_speech_destroy(r->speech);
    if (r->device && r->cfg.audio_detach) r->cfg.audio_detach(r->device, r->cfg.hook_user);
    ear_world_destroy(r->world);
    ear_stage_destroy(r->stage);
    ear_physics_destroy(r->physics);
    ear_assets_destroy(r->assets);
    ear_storage_destroy(r->storage);
    ear_lang_destroy(r->lang);
    ear_replay_free(r->replay);
    ear_time_deinit(&r->time);
    free(r->scratch);
    free(r);
}

/* ---- Pieces of the frame ------------------------------------------------------------ */

static void apply_changes(ear_runner *r) {
    /* start may ask for another change: loop, with a bound against a scene that
     * switches to itself forever. */
    for (int guard = 0; r->change_count > 0; guard++) {
        if (guard == 64) {
            ear_log(EAR_LOG_ERROR, "runtime", "scene changes did not settle in 64 rounds");
            r->change_count = 0;
            break;
        }
        change c = r->changes[0];
        memmove(r->changes, r->changes + 1, (r->change_count - 1) * sizeof r->changes[0]);
        r->change_count--;
        ear_scene *t = top(r);
        switch (c.kind) {
        case CHANGE_PUSH:
            if (r->depth == MAX_SCENES) {
                ear_log(EAR_LOG_ERROR, "runtime", "scene stack full (%d); push ignored",
                        MAX_SCENES);
                break;
            }
            r->scenes[r->depth++] = c.scene;
            if (c.scene.start) c.scene.start(&r->ctx, c.scene.user);
            break;
        case CHANGE_POP:
            if (!t) break;
            r->depth--;
            if (t->end) t->end(&r->ctx, t->user);
            if (r->depth == 0) r->quit_requested = true;
            break;
        case CHANGE_SWITCH:
            if (t) {
                ear_scene old = *t;
                r->depth--;
                if (old.end) old.end(&r->ctx, old.user);
            }
            r->scenes[r->depth++] = c.scene;
            if (c.scene.start) c.scene.start(&r->ctx, c.scene.user);
            break;
        }
    }
}

/* Renders `frames` frames of the stage into the scratch buffer (dropped) and returns
 * their hash. */
static uint64_t render_offline(ear_runner *r, uint64_t frames) {
    uint64_t h = EAR_FNV1A64_OFFSET;
    while (frames > 0) {
        uint32_t n = frames < r->scratch_frames ? (uint32_t)frames : r->scratch_frames;
        ear_stage_render(r->stage, r->scratch, n);
        h = ear_fnv1a64_floats(h, r->scratch, (size_t)n * r->channels);
        frames -= n;
    }
    return h;
}

/* The frames of step k: floor((k + 1) * rate / hz) - floor(k * rate / hz), so steps
 * whose length is not a whole number of frames still add up exactly. */
static uint64_t step_frames(const ear_runner *r, uint64_t k) {
    double hz = r->cfg.step_hz;
    return (uint64_t)floor((double)(k + 1) * r->sample_rate / hz) -
           (uint64_t)floor((double)k * r->sample_rate / hz);
}

static void feed_replay(ear_runner *r) {
    if (!r->replay || r->replay_fed_step == r->steps) return;
    const ear__replay_row *row = ear__replay_get_row(r->replay, r->steps);
    if (!row) return;
    for (uint32_t i = 0; i < row->event_count; i++)
        ear_input_push(&r->input, &r->replay->events[row->first_event + i]);
    r->replay_fed_step = r->steps;
}

static void note_processed_events(ear_runner *r) {
    for (uint32_t i = 0; i < r->input.processed_count; i++) {
        if (r->step_event_count == MAX_STEP_EVENTS) {
            if (!r->step_events_overflowed)
                ear_log(EAR_LOG_WARN, "runtime",
                        "more than %d input events before one fixed step; the replay "
                        "loses some",
                        MAX_STEP_EVENTS);
            r->step_events_overflowed = true;
            break;
        }
        r->step_events[r->step_event_count++] = r->input.processed[i];
    }
}

static void fixed_step(ear_runner *r) {
    phase_mark("fixed_step");
    ear_physics_step(r->physics, (float)r->step_s);
    ear_world_note_step(r->world); /* drawing's previous / current poses */
    phase_mark("fixed_update");
    ear_scene *t = top(r);
    r->phase = PHASE_FIXED;
    if (t && t->fixed_update) t->fixed_update(&r->ctx, t->user);
    r->phase = PHASE_OTHER;
    uint64_t k = r->steps++;
    ear_input_end_step(&r->input);
    ear_actions_end_step(&r->actions);

    t = top(r);
    r->last_scene_hash = t && t->hash_state ? t->hash_state(&r->ctx, t->user) : 0;
    r->last_stage_hash = 0;
    if (!r->device && r->one_step) {
        r->last_stage_hash = render_offline(r, step_frames(r, r->stage_steps_rendered++));
    }
    r->last_hash = ear__mix64(r->last_scene_hash ^ ear__mix64(r->last_stage_hash) ^
                              ear__mix64(ear__mix64(ear_physics_hash(r->physics))));

    if (r->recording)
        ear__replay_writer_step(&r->writer, r->last_scene_hash, r->last_stage_hash,
                                r->step_events, r->step_event_count);
    r->step_event_count = 0;
    if (r->replay && r->mismatch_step == UINT64_MAX) {
        const ear__replay_row *row = ear__replay_get_row(r->replay, k);
        bool stage_too = ear_replay_hashes_stage(r->replay) && !r->device && r->one_step;
        if (row && (row->scene_hash != r->last_scene_hash ||
                    (stage_too && row->stage_hash != r->last_stage_hash))) {
            r->mismatch_step = k;
            ear_log(EAR_LOG_ERROR, "runtime",
                    "replay '%s' diverged at step %llu (%s hash differs)", r->cfg.replay_path,
                    (unsigned long long)k,
                    row->scene_hash != r->last_scene_hash ? "scene state" : "stage output");
        }
    }
}

/* ---- The frame ------------------------------------------------------------------------ */

void ear_runner_frame(ear_runner *r, double now_s) {
    if (!r || !r->running) return;
    r->next_frame_s = now_s + r->frame_period_s; /* never caught up: from now */
    r->ui_event_count = 0;
    r->ui_arena_used = 0;
    ear_ctx *ctx = &r->ctx;

    if (!r->started) {
        phase_mark("time");
        ear_time_advance(&r->time, now_s);
        r->started = true;
        start_speech(r);
        phase_mark("start");
        r->phase = PHASE_OTHER;
        ear_scene *first = top(r);
        if (first->start) first->start(ctx, first->user);
        phase_mark("scene_changes");
        apply_changes(r);
        goto quit_and_save;
    }

    /* 1. Time: clocks advance (clamped), the scheduler fires. */
    phase_mark("time");
    ear_time_advance(&r->time, now_s);
    speech_clock(r);

    /* 1b. A close since the last frame, before anything of this frame can act on input:
     * the top scene answers it (a save, a question, ear_quit); without an answer the game
     * quits, and nothing this frame asks for (a UI event, a scene change) is done. */
    if (r->close_pending) {
        r->close_pending = false;
        phase_mark("close");
        ear_scene *t = top(r);
        r->phase = PHASE_OTHER;
        if (t && t->close_requested)
            t->close_requested(ctx, t->user);
        else
            r->quit_requested = true;
    }

    /* 2. Input: queued events become this frame's state. */
    phase_mark("input");
    feed_replay(r);
    ear_input_begin_frame(&r->input, now_s);
    ear_actions_update(&r->actions, &r->input);
    note_processed_events(r);

    /* 3. UI: the top widget (the UI module's hook) may block input and post events. */
    phase_mark("ui");
    r->phase = PHASE_UI;
    if (r->cfg.ui) r->cfg.ui(ctx, r->cfg.ui_user ? r->cfg.ui_user : r->cfg.hook_user);
    r->phase = PHASE_OTHER;

    /* 4. UI events to the top scene. */
    phase_mark("ui_events");
    for (size_t i = 0; i < r->ui_event_count && !r->quit_requested; i++) {
        ear_scene *t = top(r);
        if (t && t->on_ui) t->on_ui(ctx, &r->ui_events[i], t->user);
    }

    /* 5. Fixed steps from the accumulator of game time. Physics events are cleared once
     * a frame, here, so update sees those of every step of this frame. */
    ear_physics_clear_events(r->physics);
    {
        bool paused = ear_time_paused(&r->time);
        uint32_t n = 0;
        if (r->one_step) {
            n = paused ? 0 : 1;
            r->accumulator = 0;
        } else {
            if (r->was_paused && !paused) r->accumulator = r->step_s * 0.5;
            r->accumulator += r->time.game_dt_s;
            while (r->accumulator + STEP_TOLERANCE_S >= r->step_s && n < r->cfg.max_steps) {
                r->accumulator -= r->step_s;
                n++;
            }
            if (r->accumulator < 0) r->accumulator = 0;
            /* Beyond the cap the excess whole steps are dropped. */
            if (r->accumulator >= r->step_s) r->accumulator = fmod(r->accumulator, r->step_s);
        }
        r->was_paused = paused;
        for (uint32_t i = 0; i < n; i++) fixed_step(r);
        /* Headless, the stage is rendered per step; a paused frame takes none, yet the UI,
         * speech and music play on (the world holds its own sounds), so it renders a
         * step's worth too. Not in a recording or a replay: a replay cannot reproduce how
         * many frames a pause lasted (the pause's events arrive in one frame), and the
         * stage's hashes would part. */
        if (paused && n == 0 && r->one_step && !r->device && !r->recording && !r->replay)
            render_offline(r, step_frames(r, r->stage_steps_rendered++));
    }

    /* 6. Update. */
    phase_mark("update");
    {
        ear_scene *t = top(r);
        if (t && t->update) t->update(ctx, t->user);
    }

    /* 7. World sync: the audio world (the ear, impacts, sources, engines, attached
     * sounds, events) in step with the physics, the hook, then the stage's game-side
     * housekeeping and speech clips. */
    phase_mark("world_sync");
    ear_world_set_paused(r->world, ear_time_paused(&r->time)); /* the world's sounds only */
    ear_world_sync(r->world, r->time.game_dt_s);
    if (r->cfg.world_sync) r->cfg.world_sync(ctx, r->cfg.hook_user);
    if (r->device && r->cfg.audio_update) r->cfg.audio_update(r->device, r->cfg.hook_user);
    if (!r->device && !r->one_step) {
        r->stage_frame_debt += r->time.real_dt_s * r->sample_rate;
        uint64_t frames = (uint64_t)r->stage_frame_debt;
        r->stage_frame_debt -= (double)frames;
        render_offline(r, frames);
    }
    ear_stage_update(r->stage);
    ear_speech_update(r->speech);

    /* 8. Scene changes; a quit asked for in this frame drops them (the stack ends below,
     * so a scene pushed now would only start to end: a level loaded to quit). */
    phase_mark("scene_changes");
    if (r->quit_requested) r->change_count = 0;
    apply_changes(r);

quit_and_save:
    /* 9. Quit and save. */
    phase_mark("quit_save");
    if (r->quit_requested) {
        shutdown_scenes(r);
        save_if_dirty(r);
        r->running = false;
    } else if (r->save_requested) {
        save_if_dirty(r);
    }
    r->save_requested = false;
    r->phase = PHASE_IDLE;
    r->frames++;
}

bool ear_runner_running(const ear_runner *r) {
    return r && r->running;
}

double ear_runner_next_frame_s(const ear_runner *r) {
    return r->next_frame_s;
}

void ear_runner_key_down(ear_runner *r, ear_key key) {
    ear_input_key_down(&r->input, key);
}

void ear_runner_key_up(ear_runner *r, ear_key key) {
    ear_input_key_up(&r->input, key);
}

void ear_runner_text(ear_runner *r, const char *utf8) {
    ear_input_text(&r->input, utf8);
}

void ear_runner_pad_added(ear_runner *r, uint8_t pad, bool can_rumble) {
    ear_input_pad_added(&r->input, pad, can_rumble);
}

void ear_runner_pad_removed(ear_runner *r, uint8_t pad) {
    ear_input_pad_removed(&r->input, pad);
}

void ear_runner_pad_button(ear_runner *r, uint8_t pad, ear_pad_button button, bool down) {
    ear_input_pad_button(&r->input, pad, button, down);
}

void ear_runner_pad_axis(ear_runner *r, uint8_t pad, ear_pad_axis axis, int16_t value) {
    ear_input_pad_axis(&r->input, pad, axis, value);
}

void ear_runner_focus_lost(ear_runner *r) {
    ear_input_focus_lost(&r->input);
    if (r->cfg.pause_on_focus_loss) ear_time_pause(&r->time, EAR_PAUSE_FOCUS);
}

void ear_runner_focus_gained(ear_runner *r) {
    ear_time_resume(&r->time, EAR_PAUSE_FOCUS);
}

void ear_runner_close(ear_runner *r) {
    r->close_pending = true;
}

void ear_runner_set_one_step_per_frame(ear_runner *r, bool on) {
    r->one_step = on;
}

ear_ctx *ear_runner_ctx(ear_runner *r) {
    return &r->ctx;
}

uint64_t ear_runner_frames(const ear_runner *r) {
    return r->frames;
}

uint64_t ear_runner_steps(const ear_runner *r) {
    return r->steps;
}

uint64_t ear_runner_step_hash(const ear_runner *r) {
    return r->steps ? r->last_hash : 0;
}

uint64_t ear_runner_replay_mismatch(const ear_runner *r) {
    return r->mismatch_step;
}

bool ear_runner_replay_done(const ear_runner *r) {
    return r->replay && r->steps >= ear_replay_steps(r->replay);
}

void ear_runner_set_audio_device(ear_runner *r, void *device) {
    r->device = device;
    if (device) ear_stage_set_render_thread_separate(r->stage, true);
}

/* ---- The context ---------------------------------------------------------------------- */

ear_time *ear_ctx_time(ear_ctx *ctx) {
    return &ctx->r->time;
}

ear_input *ear_ctx_input(ear_ctx *ctx) {
    return &ctx->r->input;
}

ear_stage *ear_ctx_stage(ear_ctx *ctx) {
    return ctx->r->stage;
}

ear_assets *ear_ctx_assets(ear_ctx *ctx) {
    return ctx->r->assets;
}

ear_voice_id ear_play_sound_with(ear_ctx *ctx, const char *name, const ear_play *params) {
    ear_voice_id id = EAR_VOICE_NONE;
    if (ear_assets_play(ctx->r->assets, ctx->r->stage, name, params, &id) != EAR_OK)
        return EAR_VOICE_NONE;
    return id;
}

ear_voice_id ear_play_sound(ear_ctx *ctx, const char *name) {
    return ear_play_sound_with(ctx, name, NULL);
}

ear_voice_id ear_play_at(ear_ctx *ctx, const char *name, ear_vec3 position_m) {
    ear_play p;
    memset(&p, 0, sizeof p);
    p.placed = true;
    p.position = position_m;
    return ear_play_sound_with(ctx, name, &p);
}

ear_lang *ear_ctx_lang(ear_ctx *ctx) {
    return ctx->r->lang;
}

ear_storage *ear_ctx_storage(ear_ctx *ctx) {
    return ctx->r->storage;
}

ear_speech *ear_ctx_speech(ear_ctx *ctx) {
    return ctx->r->speech;
}

ear_physics *ear_ctx_physics(ear_ctx *ctx) {
    return ctx->r->physics;
}

ear_world *ear_ctx_world(ear_ctx *ctx) {
    return ctx->r->world;
}

double ear_ctx_dt(const ear_ctx *ctx) {
    return ctx->r->phase == PHASE_FIXED ? ctx->r->step_s : ctx->r->time.game_dt_s;
}

double ear_ctx_step_s(const ear_ctx *ctx) {
    return ctx->r->step_s;
}

double ear_ctx_alpha(const ear_ctx *ctx) {
    if (ctx->r->one_step) return 1;
    double a = ctx->r->accumulator / ctx->r->step_s;
    return a < 0 ? 0 : a > 1 ? 1 : a;
}

uint64_t ear_ctx_frame(const ear_ctx *ctx) {
    return ctx->r->frames;
}

uint64_t ear_ctx_step(const ear_ctx *ctx) {
    return ctx->r->steps;
}

bool ear_ctx_headless(const ear_ctx *ctx) {
    return ctx->r->cfg.backend == EAR_BACKEND_HEADLESS;
}

void *ear_ctx_hook_user(const ear_ctx *ctx) {
    return ctx->r->cfg.hook_user;
}

void *ear_ctx_ui_user(const ear_ctx *ctx) {
    return ctx->r->cfg.ui_user;
}

bool ear_key_pressed(const ear_ctx *ctx, ear_key key) {
    const ear_runner *r = ctx->r;
    return r->phase == PHASE_FIXED ? ear_input_step_pressed(&r->input, key)
                                   : ear_input_pressed(&r->input, key);
}

bool ear_key_released(const ear_ctx *ctx, ear_key key) {
    const ear_runner *r = ctx->r;
    return r->phase == PHASE_FIXED ? ear_input_step_released(&r->input, key)
                                   : ear_input_released(&r->input, key);
}

bool ear_key_held(const ear_ctx *ctx, ear_key key) {
    return ear_input_held(&ctx->r->input, key);
}

bool ear_key_repeating(const ear_ctx *ctx, ear_key key, double delay_s, double every_s) {
    return ear_input_repeating(&ctx->r->input, key, delay_s, every_s);
}

ear_actions *ear_ctx_actions(ear_ctx *ctx) {
    return &ctx->r->actions;
}

ear_result ear_ctx_use_profile(ear_ctx *ctx, const char *profile) {
    int p = profile ? ear_actions_find_profile(&ctx->r->actions, profile) : -1;
    if (profile && p < 0) {
        ear_log(EAR_LOG_WARN, "runtime", "no input profile named '%s'", profile);
        return EAR_E_NOT_FOUND;
    }
    if (p == ctx->r->actions.active) return EAR_OK;
    return ear_actions_set_profile(&ctx->r->actions, p, &ctx->r->input);
}

bool ear_action_pressed(const ear_ctx *ctx, int action) {
    const ear_runner *r = ctx->r;
    return r->phase == PHASE_FIXED ? ear_actions_step_pressed(&r->actions, action)
                                   : ear_actions_pressed(&r->actions, action);
}

bool ear_action_released(const ear_ctx *ctx, int action) {
    const ear_runner *r = ctx->r;
    return r->phase == PHASE_FIXED ? ear_actions_step_released(&r->actions, action)
                                   : ear_actions_released(&r->actions, action);
}

bool ear_action_held(const ear_ctx *ctx, int action) {
    return ear_actions_held(&ctx->r->actions, action);
}

bool ear_action_repeating(const ear_ctx *ctx, int action) {
    return ear_actions_repeating(&ctx->r->actions, action);
}

float ear_action_value(const ear_ctx *ctx, int action) {
    return ear_actions_value(&ctx->r->actions, action);
}

ear_result ear_pad_rumble(ear_ctx *ctx, float low, float high, uint32_t ms) {
    return ear_input_pad_rumble(&ctx->r->input, -1, low, high, ms);
}

const char *ear_text_typed(const ear_ctx *ctx) {
    return ear_input_get_text(&ctx->r->input);
}

ear_result ear_say(ear_ctx *ctx, const char *text) {
    return ctx->r->speech ? ear_speech_speak(ctx->r->speech, text) : EAR_E_STATE;
}

ear_result ear_say_queued(ear_ctx *ctx, const char *text) {
    return ctx->r->speech ? ear_speech_speak_queued(ctx->r->speech, text) : EAR_E_STATE;
}

ear_result ear_say_repeat_last(ear_ctx *ctx) {
    return ctx->r->speech ? ear_speech_repeat_last(ctx->r->speech) : EAR_E_STATE;
}

const char *ear_tr(ear_ctx *ctx, const char *key) {
    return ear_lang_get(ctx->r->lang, key);
}

static ear_result add_change(ear_ctx *ctx, change_kind kind, const ear_scene *scene) {
    ear_runner *r = ctx->r;
    if (kind != CHANGE_POP && !scene) return EAR_E_INVALID_ARG;
    if (r->change_count == MAX_CHANGES) return EAR_E_STATE;
    change *c = &r->changes[r->change_count++];
    memset(c, 0, sizeof *c);
    c->kind = kind;
    if (scene) c->scene = *scene;
    return EAR_OK;
}

ear_result ear_scene_push(ear_ctx *ctx, const ear_scene *scene) {
    return add_change(ctx, CHANGE_PUSH, scene);
}

ear_result ear_scene_pop(ear_ctx *ctx) {
    return add_change(ctx, CHANGE_POP, NULL);
}

ear_result ear_scene_switch(ear_ctx *ctx, const ear_scene *scene) {
    return add_change(ctx, CHANGE_SWITCH, scene);
}

size_t ear_scene_depth(const ear_ctx *ctx) {
    return ctx->r->depth;
}

void ear_quit(ear_ctx *ctx) {
    ctx->r->quit_requested = true;
}

void ear_ctx_request_save(ear_ctx *ctx) {
    ctx->r->save_requested = true;
}

ear_result ear_ctx_post_ui_event(ear_ctx *ctx, const ear_ui_event *event) {
    ear_runner *r = ctx->r;
    if (!event) return EAR_E_INVALID_ARG;
    if (r->phase != PHASE_UI || r->ui_event_count == MAX_UI_EVENTS) return EAR_E_STATE;
    ear_ui_event *e = &r->ui_events[r->ui_event_count];
    size_t arena = r->ui_arena_used;
    *e = *event;
    e->widget = copy_str(r, event->widget ? event->widget : "");
    e->item = copy_str(r, event->item ? event->item : "");
    e->text = copy_str(r, event->text ? event->text : "");
    if (!e->widget || !e->item || !e->text) {
        r->ui_arena_used = arena;
        return EAR_E_OUT_OF_MEMORY;
    }
    r->ui_event_count++;
    return EAR_OK;
}
