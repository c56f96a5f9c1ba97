/* SPDX-License-Identifier: Zlib */
/*
 * The runner: the frame's phase order, fixed steps at different frame rates, the clamp
 * and the step cap, pauses, a headless run with scripted keys, the scene stack, the UI
 * hook, the stage being rendered headless, and the save written on quit.
 */
#include "earshot/engine.h"
#include "runtime_internal.h"
#include "test.h"

#include <stdio.h>
#include <unistd.h>

/* ---- Frame order ------------------------------------------------------------------ */

typedef struct order_log {
    char names[64][24];
    int count;
} order_log;

static void log_name(order_log *log, const char *name) {
    if (log->count < 64) snprintf(log->names[log->count++], 24, "%s", name);
}

static void record_phase(const char *phase, void *user) {
    log_name(user, phase);
}

static void o_start(ear_ctx *ctx, void *user) {
    (void)ctx;
    log_name(user, "cb:start");
}
static void o_fixed(ear_ctx *ctx, void *user) {
    (void)ctx;
    log_name(user, "cb:fixed_update");
}
static void o_update(ear_ctx *ctx, void *user) {
    (void)ctx;
    log_name(user, "cb:update");
}
static void o_on_ui(ear_ctx *ctx, const ear_ui_event *e, void *user) {
    (void)ctx;
    (void)e;
    log_name(user, "cb:on_ui");
}
static void o_ui_hook(ear_ctx *ctx, void *user) {
    log_name(user, "hook:ui");
    ear_ui_event e = {.kind = EAR_UI_CLICKED, .widget = "menu", .item = "start"};
    ear_ctx_post_ui_event(ctx, &e);
}
static void o_sync_hook(ear_ctx *ctx, void *user) {
    (void)ctx;
    log_name(user, "hook:world_sync");
}

static ear_engine_config test_config(void) {
    ear_engine_config cfg = ear_engine_config_default("test");
    cfg.speech.log_only = true;
    return cfg;
}

TEST(frame_phases_run_in_the_documented_order) {
    static order_log log;
    memset(&log, 0, sizeof log);
    ear_engine_config cfg = test_config();
    cfg.ui = o_ui_hook;
    cfg.world_sync = o_sync_hook;
    cfg.hook_user = &log;
    ear_scene scene = {.start = o_start,
                       .update = o_update,
                       .fixed_update = o_fixed,
                       .on_ui = o_on_ui,
                       .user = &log};
    ear_runner *r;
    ASSERT_OK(ear_runner_create(&cfg, &scene, &r));
    ear__runner_phase_hook = record_phase;
    ear__runner_phase_hook_user = &log;
    ear_runner_frame(r, 10.0);
    ear_runner_frame(r, 10.0 + 2.0 / 60.0); /* two fixed steps */
    ear__runner_phase_hook = NULL;
    ear_runner_destroy(r);
    static const char *const expected[] = {"time",
                                           "start",
                                           "cb:start",
                                           "scene_changes",
                                           "quit_save",
                                           "time",
                                           "input",
                                           "ui",
                                           "hook:ui",
                                           "ui_events",
                                           "cb:on_ui",
                                           "fixed_step",
                                           "fixed_update",
                                           "cb:fixed_update",
                                           "fixed_step",
                                           "fixed_update",
                                           "cb:fixed_update",
                                           "update",
                                           "cb:update",
                                           "world_sync",
                                           "hook:world_sync",
                                           "scene_changes",
                                           "quit_save"};
    size_t n = sizeof expected / sizeof expected[0];
    ASSERT_EQ(log.count, n);
    for (size_t i = 0; i < n; i++) ASSERT_STR_EQ(log.names[i], expected[i]);
}

/* ---- Fixed steps at different frame rates ---------------------------------------------- */

typedef struct ball {
    double y, v;
    uint64_t rng;
    uint64_t hashes[1024];
    uint32_t steps;
    double min_alpha, max_alpha;
} ball;

static void ball_fixed(ear_ctx *ctx, void *user) {
    ball *b = user;
    double dt = ear_ctx_dt(ctx);
    b->v -= 9.81 * dt;
    b->y += b->v * dt;
    if (b->y < 0) {
        b->y = -b->y;
        b->v = -b->v * 0.9;
        b->rng = b->rng * 6364136223846793005ull + 1442695040888963407ull;
    }
    uint64_t h;
    memcpy(&h, &b->y, sizeof h);
    if (b->steps < 1024) b->hashes[b->steps] = h ^ (b->rng * 31u);
    b->steps++;
}

static void ball_update(ear_ctx *ctx, void *user) {
    ball *b = user;
    double a = ear_ctx_alpha(ctx);
    if (a < b->min_alpha) b->min_alpha = a;
    if (a > b->max_alpha) b->max_alpha = a;
}

static uint64_t ball_hash(ear_ctx *ctx, void *user) {
    (void)ctx;
    ball *b = user;
    uint64_t h;
    memcpy(&h, &b->y, sizeof h);
    return h ^ b->rng;
}

static void run_ball(ball *b, int frame_hz, double seconds) {
    memset(b, 0, sizeof *b);
    b->y = 10;
    b->min_alpha = 1e9;
    b->max_alpha = -1e9;
    ear_engine_config cfg = test_config();
    ear_scene scene = {
        .fixed_update = ball_fixed, .update = ball_update, .hash_state = ball_hash, .user = b};
    ear_runner *r;
    if (ear_runner_create(&cfg, &scene, &r) != EAR_OK) return;
    int frames = (int)(frame_hz * seconds);
    for (int k = 0; k <= frames; k++) ear_runner_frame(r, 5.0 + (double)k / frame_hz);
    ear_runner_destroy(r);
}

TEST(fixed_steps_give_the_same_simulation_at_30_60_and_144_hz) {
    static ball b30, b60, b144;
    run_ball(&b30, 30, 10);
    run_ball(&b60, 60, 10);
    run_ball(&b144, 144, 10);
    /* 10 s of game time is 600 steps of 1/60 s at every frame rate. */
    ASSERT_EQ(b30.steps, 600);
    ASSERT_EQ(b60.steps, 600);
    ASSERT_EQ(b144.steps, 600);
    for (uint32_t i = 0; i < 600; i++) {
        ASSERT_U64_EQ(b30.hashes[i], b60.hashes[i]);
        ASSERT_U64_EQ(b144.hashes[i], b60.hashes[i]);
    }
    ASSERT_NEAR(b30.y, b144.y, 0);
    /* At 144 Hz some frames take no step: drawing blends, alpha spans most of 0..1. */
    ASSERT_DBL_LT(b144.min_alpha, 0.1);
    ASSERT_DBL_GT(b144.max_alpha, 0.8);
    ASSERT_DBL_LE(b144.max_alpha, 1.0);
}

TEST(long_frame_is_clamped_and_steps_are_capped_at_eight) {
    static ball b;
    memset(&b, 0, sizeof b);
    ear_engine_config cfg = test_config();
    ear_scene scene = {.fixed_update = ball_fixed, .user = &b};
    ear_runner *r;
    ASSERT_OK(ear_runner_create(&cfg, &scene, &r));
    ear_ctx *ctx = ear_runner_ctx(r);
    ear_runner_frame(r, 0);
    ear_runner_frame(r, 3.0); /* a debugger pause: 3 s */
    ASSERT_NEAR(ear_ctx_time(ctx)->game_dt_s, 0.25, 1e-12);
    /* 0.25 s would be 15 steps; 8 run and the excess is dropped. */
    ASSERT_EQ(ear_runner_steps(r), 8);
    ASSERT_DBL_LT(ear_ctx_alpha(ctx), 1.0);
    ear_runner_frame(r, 3.0 + 1.0 / 60.0);
    ASSERT_LE(ear_runner_steps(r), 10);
    ASSERT_GE(ear_runner_steps(r), 9);
    /* Frames are never caught up: the next is due one period after this one. */
    ASSERT_NEAR(ear_runner_next_frame_s(r), 3.0 + 2.0 / 60.0, 1e-9);
    ear_runner_destroy(r);
}

static void pause_update(ear_ctx *ctx, void *user) {
    (void)user;
    uint64_t f = ear_ctx_frame(ctx);
    if (f == 10) ear_time_pause(ear_ctx_time(ctx), EAR_PAUSE_PLAYER);
    if (f == 20) ear_time_resume(ear_ctx_time(ctx), EAR_PAUSE_PLAYER);
}

TEST(pause_stops_fixed_steps_and_resume_starts_half_a_step_full) {
    static ball b;
    memset(&b, 0, sizeof b);
    ear_engine_config cfg = test_config();
    ear_scene scene = {.fixed_update = ball_fixed, .update = pause_update, .user = &b};
    ear_runner *r;
    ASSERT_OK(ear_runner_create(&cfg, &scene, &r));
    for (int k = 0; k <= 10; k++) ear_runner_frame(r, k / 60.0);
    uint64_t at_pause = ear_runner_steps(r);
    ASSERT_EQ(at_pause, 10);
    for (int k = 11; k <= 20; k++) ear_runner_frame(r, k / 60.0);
    ASSERT_EQ(ear_runner_steps(r),
              at_pause); /* paused frames 11..20 (resumed in 20's update) */
    ear_runner_frame(r, 21 / 60.0);
    ASSERT_EQ(ear_runner_steps(r), at_pause + 1);
    ASSERT_NEAR(ear_ctx_alpha(ear_runner_ctx(r)), 0.5, 1e-6);
    ear_runner_destroy(r);
}

/* ---- Headless run with a script --------------------------------------------------- */

typedef struct play_state {
    int space_update, space_fixed, right_frames, right_steps, f1;
    char text[64];
    bool ended;
    uint64_t frames_seen, history;
    ear_voice_id voice;
    bool voice_ended_in_time;
} play_state;

static void p_fixed(ear_ctx *ctx, void *user) {
    play_state *s = user;
    if (ear_key_pressed(ctx, EAR_KEY_SPACE)) s->space_fixed++;
    if (ear_key_held(ctx, EAR_KEY_RIGHT)) s->right_steps++;
}

static void p_update(ear_ctx *ctx, void *user) {
    play_state *s = user;
    s->frames_seen = ear_ctx_frame(ctx);
    if (ear_key_pressed(ctx, EAR_KEY_SPACE)) s->space_update++;
    if (ear_key_held(ctx, EAR_KEY_RIGHT)) s->right_frames++;
    if (ear_text_typed(ctx)[0]) snprintf(s->text, sizeof s->text, "%s", ear_text_typed(ctx));
    if (ear_key_pressed(ctx, EAR_KEY_F1)) {
        s->f1++;
        ear_say(ctx, "Score: 3");
        ear_say_repeat_last(ctx);
        /* 0.1 s of a clip on the stage: headless renders it one step at a time. */
        static float samples[4800];
        for (int i = 0; i < 4800; i++) samples[i] = 0.1f;
        ear_clip *clip;
        if (ear_clip_create(samples, 4800, 1, 48000, NULL, &clip) == EAR_OK) {
            ear_play p = {0};
            ear_stage_play(ear_ctx_stage(ctx), clip, &p, &s->voice);
            ear_clip_release(clip);
        }
    }
    /* 0.1 s is 6 steps; give it 10 frames. */
    if (s->voice && ear_ctx_frame(ctx) == 310)
        s->voice_ended_in_time = !ear_stage_is_playing(ear_ctx_stage(ctx), s->voice);
    if (ear_key_pressed(ctx, EAR_KEY_ESCAPE)) ear_quit(ctx);
    ear_storage_set_int(ear_ctx_storage(ctx), "frames", (int64_t)ear_ctx_frame(ctx));
}

static void p_end(ear_ctx *ctx, void *user) {
    play_state *s = user;
    s->ended = true;
    s->history = ear_speech_history_count(ear_ctx_speech(ctx));
}

TEST(headless_runs_600_frames_with_scripted_keys) {
    ear_script script;
    char err[128];
    ASSERT_OK(ear_script_parse("10 press SPACE\n"
                               "20 press SPACE\n"
                               "30 down SPACE\n31 up SPACE\n"
                               "100 down RIGHT\n160 up RIGHT\n"
                               "200 text hi\n"
                               "300 press F1\n"
                               "599 press ESCAPE\n",
                               &script, err, sizeof err));
    static play_state s;
    memset(&s, 0, sizeof s);
    ear_engine_config cfg = ear_engine_config_default("headless");
    cfg.backend = EAR_BACKEND_HEADLESS;
    cfg.script = &script;
    cfg.frames = 1000; /* ESCAPE quits first */
    ear_scene scene = {.fixed_update = p_fixed, .update = p_update, .end = p_end, .user = &s};
    ASSERT_OK(ear_engine_run(&cfg, &scene));
    ear_script_free(&script);
    ASSERT_TRUE(s.ended);
    ASSERT_EQ(s.frames_seen, 599);
    ASSERT_EQ(s.space_update, 3);
    ASSERT_EQ(s.space_fixed, 3);
    ASSERT_EQ(s.right_frames, 60);
    ASSERT_EQ(s.right_steps, 60);
    ASSERT_STR_EQ(s.text, "hi");
    ASSERT_EQ(s.f1, 1);
    ASSERT_EQ(s.history, 1); /* repeat_last does not add to the history */
    ASSERT_TRUE(s.voice_ended_in_time);
}

/* ---- Sounds by name -------------------------------------------------------------------- */

typedef struct sound_state {
    ear_voice_id placed, missing;
    bool playing_at_2, ended_by_20;
} sound_state;

static void sound_update(ear_ctx *ctx, void *user) {
    sound_state *s = user;
    uint64_t f = ear_ctx_frame(ctx);
    if (f == 1) {
        s->placed = ear_play_at(ctx, "synth:sine:440:0.1", ear_vec3_make(1, 0, 0));
        s->missing = ear_play_sound(ctx, "no-such-sound");
    }
    if (f == 2) s->playing_at_2 = ear_stage_is_playing(ear_ctx_stage(ctx), s->placed);
    if (f == 20) s->ended_by_20 = !ear_stage_is_playing(ear_ctx_stage(ctx), s->placed);
}

TEST(sounds_play_by_name_on_the_engine_stage) {
    static sound_state s;
    memset(&s, 0, sizeof s);
    ear_engine_config cfg = ear_engine_config_default("sounds");
    cfg.backend = EAR_BACKEND_HEADLESS;
    cfg.frames = 21;
    cfg.assets_dir = "/nonexistent-earshot-assets";
    ear_scene scene = {.update = sound_update, .user = &s};
    ASSERT_OK(ear_engine_run(&cfg, &scene));
    ASSERT_NE(s.placed, EAR_VOICE_NONE);
    ASSERT_EQ(s.missing, EAR_VOICE_NONE); /* warned, and the game goes on */
    ASSERT_TRUE(s.playing_at_2);
    ASSERT_TRUE(s.ended_by_20); /* 0.1 s is 6 steps, rendered headless */
}

/* ---- Scene stack -------------------------------------------------------------------- */

typedef struct stack_log {
    char text[512];
    int updates_a, updates_b;
} stack_log;

static stack_log slog;
static void sl(const char *s) {
    strncat(slog.text, s, sizeof slog.text - strlen(slog.text) - 1);
}
static void a_start(ear_ctx *c, void *u) {
    (void)c;
    (void)u;
    sl("A+ ");
}
static void a_end(ear_ctx *c, void *u) {
    (void)c;
    (void)u;
    sl("A- ");
}
static void c_start(ear_ctx *c, void *u) {
    (void)c;
    (void)u;
    sl("C+ ");
}
static void c_end(ear_ctx *c, void *u) {
    (void)c;
    (void)u;
    sl("C- ");
}
static void c_update(ear_ctx *c, void *u) {
    (void)u;
    sl("Cu ");
    ear_scene_pop(c);
}
/* B's start asks for another change at once: the runner applies it in the same frame. */
static void b_start(ear_ctx *c, void *u) {
    (void)u;
    sl("B+ ");
    ear_scene next = {.start = c_start, .end = c_end, .update = c_update};
    ear_scene_switch(c, &next);
}
static void b_end(ear_ctx *c, void *u) {
    (void)c;
    (void)u;
    sl("B- ");
}
static void a_update(ear_ctx *c, void *u) {
    (void)u;
    slog.updates_a++;
    sl("Au ");
    if (slog.updates_a == 1) {
        ear_scene b = {.start = b_start, .end = b_end};
        ear_scene_push(c, &b);
        sl("(push) ");
    } else if (slog.updates_a == 2) {
        ear_scene_pop(c);
    }
}

TEST(scene_changes_apply_after_update_and_loop_while_start_asks) {
    memset(&slog, 0, sizeof slog);
    ear_engine_config cfg = test_config();
    ear_scene a = {.start = a_start, .end = a_end, .update = a_update};
    ear_runner *r;
    ASSERT_OK(ear_runner_create(&cfg, &a, &r));
    ear_ctx *ctx = ear_runner_ctx(r);
    for (int k = 0; k < 6 && ear_runner_running(r); k++) ear_runner_frame(r, k / 60.0);
    /* frame 0: A starts. frame 1: A updates and pushes B; after update B starts and
     * switches to C (B ends, C starts). frame 2: C updates and pops itself. frame 3: A
     * updates again and pops: the stack is empty, the game quits. */
    ASSERT_STR_EQ(slog.text, "A+ Au (push) B+ B- C+ Cu C- Au A- ");
    ASSERT_EQ(ear_scene_depth(ctx), 0);
    ASSERT_FALSE(ear_runner_running(r));
    ASSERT_EQ(ear_runner_frames(r), 4);
    ear_runner_destroy(r);
}

/* ---- The UI hook ---------------------------------------------------------------------- */

typedef struct ui_state {
    int events;
    char widget[32], item[32], text[32];
    ear_ui_event_kind kind;
    double number;
    int index;
    bool pressed_seen, raw_seen;
    ear_result post_outside;
} ui_state;

static void ui_hook(ear_ctx *ctx, void *user) {
    (void)user;
    ear_input_set_blocked(ear_ctx_input(ctx), ear_ctx_frame(ctx) >= 2);
    if (ear_ctx_frame(ctx) == 2) {
        char item[8] = "volume";
        ear_ui_event e = {.kind = EAR_UI_CHANGED,
                          .widget = "settings",
                          .item = item,
                          .number = 0.75,
                          .index = 3}; /* text NULL: "" */
        ear_ctx_post_ui_event(ctx, &e);
        item[0] = 'X'; /* posted strings are copies */
    }
}

static void ui_on_ui(ear_ctx *ctx, const ear_ui_event *e, void *user) {
    (void)ctx;
    ui_state *s = user;
    s->events++;
    snprintf(s->widget, sizeof s->widget, "%s", e->widget);
    snprintf(s->item, sizeof s->item, "%s", e->item);
    snprintf(s->text, sizeof s->text, "%s", e->text);
    s->kind = e->kind;
    s->number = e->number;
    s->index = e->index;
}

static void ui_update(ear_ctx *ctx, void *user) {
    ui_state *s = user;
    if (ear_ctx_frame(ctx) == 2) {
        s->pressed_seen = ear_key_pressed(ctx, EAR_KEY_ENTER);
        s->raw_seen = ear_input_raw_pressed(ear_ctx_input(ctx), EAR_KEY_ENTER);
        ear_ui_event e = {.kind = EAR_UI_CLICKED, .widget = "x", .item = "z"};
        s->post_outside = ear_ctx_post_ui_event(ctx, &e);
    }
}

TEST(ui_hook_posts_events_and_blocks_game_input) {
    static ui_state s;
    memset(&s, 0, sizeof s);
    ear_engine_config cfg = test_config();
    cfg.ui = ui_hook;
    ear_scene scene = {.on_ui = ui_on_ui, .update = ui_update, .user = &s};
    ear_runner *r;
    ASSERT_OK(ear_runner_create(&cfg, &scene, &r));
    ear_runner_frame(r, 0);
    ear_runner_frame(r, 1 / 60.0);
    ear_runner_key_down(r, EAR_KEY_ENTER);
    ear_runner_frame(r, 2 / 60.0);
    ear_runner_destroy(r);
    ASSERT_EQ(s.events, 1);
    ASSERT_STR_EQ(s.widget, "settings");
    ASSERT_EQ(s.kind, EAR_UI_CHANGED);
    ASSERT_STR_EQ(s.item, "volume");
    ASSERT_STR_EQ(s.text, "");
    ASSERT_NEAR(s.number, 0.75, 0.0);
    ASSERT_EQ(s.index, 3);
    ASSERT_FALSE(s.pressed_seen);
    ASSERT_TRUE(s.raw_seen);
    ASSERT_EQ(s.post_outside, EAR_E_STATE);
}

/* ---- Quit and save ----------------------------------------------------------------------- */

static void save_update(ear_ctx *ctx, void *user) {
    (void)user;
    ear_storage_set_string(ear_ctx_storage(ctx), "best", "42");
    ear_quit(ctx);
}

TEST(quit_ends_scenes_and_writes_the_dirty_save) {
    char path[] = "/tmp/earshot-runner-save-XXXXXX";
    int fd = mkstemp(path);
    ASSERT_GE(fd, 0);
    close(fd);
    unlink(path);
    ear_engine_config cfg = test_config();
    cfg.save_path = path;
    ear_scene scene = {.update = save_update};
    ear_runner *r;
    ASSERT_OK(ear_runner_create(&cfg, &scene, &r));
    ear_runner_frame(r, 0);
    ear_runner_frame(r, 1 / 60.0);
    ASSERT_FALSE(ear_runner_running(r));
    /* Written at the end of the quitting frame, before destroy. */
    FILE *f = fopen(path, "r");
    ASSERT_NOT_NULL(f);
    char line[64] = {0};
    ASSERT_NOT_NULL(fgets(line, sizeof line, f));
    fclose(f);
    ASSERT_STR_EQ(line, "best = 42\n");
    ear_runner_frame(r, 2 / 60.0); /* a stopped runner ignores frames */
    ASSERT_EQ(ear_runner_frames(r), 2);
    ear_runner_destroy(r);
    unlink(path);
}

TEST(bad_settings_are_refused) {
    ear_engine_config cfg = test_config();
    ear_scene scene = {0};
    ear_runner *r;
    cfg.step_hz = 0;
    ASSERT_EQ(ear_runner_create(&cfg, &scene, &r), EAR_E_INVALID_ARG);
    cfg.step_hz = 60;
    ASSERT_EQ(ear_runner_create(&cfg, NULL, &r), EAR_E_INVALID_ARG);
    ASSERT_EQ(ear_engine_run(NULL, &scene), EAR_E_INVALID_ARG);
    ear_runner_destroy(NULL);
}

/* ---- A close beats a route ---------------------------------------------------------- */

typedef struct closer {
    int on_ui, level_starts, closes;
    bool answer_quits;
    ear_scene level;
} closer;

static void level_start(ear_ctx *ctx, void *user) {
    (void)ctx;
    ((closer *)user)->level_starts++;
}

/* Every frame the menu's "Start" is clicked (the UI hook posts it). */
static void start_click_hook(ear_ctx *ctx, void *user) {
    (void)user;
    ear_ui_event e = {.kind = EAR_UI_CLICKED, .widget = "main", .item = "start"};
    ear_ctx_post_ui_event(ctx, &e);
}

static void closer_on_ui(ear_ctx *ctx, const ear_ui_event *e, void *user) {
    (void)e;
    closer *c = user;
    c->on_ui++;
    ear_scene_switch(ctx, &c->level); /* the route: load the level */
}

static void closer_close(ear_ctx *ctx, void *user) {
    closer *c = user;
    c->closes++;
    if (c->answer_quits) ear_quit(ctx); /* else: it asks the player first */
}

static ear_runner *closer_runner(closer *c, bool with_answer) {
    memset(c, 0, sizeof *c);
    c->level = (ear_scene){.name = "level", .start = level_start, .user = c};
    ear_engine_config cfg = test_config();
    cfg.ui = start_click_hook;
    ear_scene menu = {.name = "menu", .on_ui = closer_on_ui, .user = c};
    if (with_answer) menu.close_requested = closer_close;
    ear_runner *r = NULL;
    if (ear_runner_create(&cfg, &menu, &r) != EAR_OK) return NULL;
    ear_runner_frame(r, 0); /* starts the menu */
    return r;
}

TEST(a_close_in_the_same_frame_as_a_route_quits_without_loading_it) {
    static closer c;
    /* No answer: the close quits, and the frame's click never reaches the scene. */
    ear_runner *r = closer_runner(&c, false);
    ASSERT_TRUE(r != NULL);
    ear_runner_close(r);
    ear_runner_frame(r, 1 / 60.0);
    ASSERT_FALSE(ear_runner_running(r));
    ASSERT_EQ(c.on_ui, 0);
    ASSERT_EQ(c.level_starts, 0);
    ear_runner_destroy(r);

    /* A scene that answers: asked once per close, before the frame's UI events. It first
     * asks the player (no quit: the game runs on and the click routes as usual), then
     * answers the second close with a quit, whose frame loads nothing. */
    r = closer_runner(&c, true);
    ASSERT_TRUE(r != NULL);
    c.level.on_ui = closer_on_ui;
    c.level.close_requested = closer_close;
    ear_runner_close(r);
    ear_runner_frame(r, 1 / 60.0);
    ASSERT_EQ(c.closes, 1);
    ASSERT_TRUE(ear_runner_running(r));
    ASSERT_EQ(c.level_starts, 1);
    ear_runner_frame(r, 2 / 60.0);
    ASSERT_EQ(c.closes, 1);
    ASSERT_EQ(c.level_starts, 2);
    c.answer_quits = true;
    ear_runner_close(r);
    ear_runner_frame(r, 3 / 60.0);
    ASSERT_EQ(c.closes, 2);
    ASSERT_FALSE(ear_runner_running(r));
    ASSERT_EQ(c.level_starts, 2);
    ASSERT_EQ(c.on_ui, 2);
    ear_runner_destroy(r);
}

TEST_MAIN(TEST_ENTRY(frame_phases_run_in_the_documented_order),
          TEST_ENTRY(fixed_steps_give_the_same_simulation_at_30_60_and_144_hz),
          TEST_ENTRY(long_frame_is_clamped_and_steps_are_capped_at_eight),
          TEST_ENTRY(pause_stops_fixed_steps_and_resume_starts_half_a_step_full),
          TEST_ENTRY(headless_runs_600_frames_with_scripted_keys),
          TEST_ENTRY(sounds_play_by_name_on_the_engine_stage),
          TEST_ENTRY(scene_changes_apply_after_update_and_loop_while_start_asks),
          TEST_ENTRY(ui_hook_posts_events_and_blocks_game_input),
          TEST_ENTRY(quit_ends_scenes_and_writes_the_dirty_save),
          TEST_ENTRY(bad_settings_are_refused),
          TEST_ENTRY(a_close_in_the_same_frame_as_a_route_quits_without_loading_it))
