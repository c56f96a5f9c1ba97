/* SPDX-License-Identifier: Zlib */
/*
 * The SDL2 backend under SDL's dummy video driver (no display): key events injected with
 * SDL_PushEvent reach the game the way a keyboard's would. Letters follow the layout's
 * keycode, other keys the scancode; a release maps to the key its press reported; text,
 * focus loss (keys released, game time paused) and the window closing all arrive.
 */
#define _POSIX_C_SOURCE 200809L
#include "earshot/engine.h"
#include "earshot/analysis.h"
#include <math.h>
#include <unistd.h>
#include <stdio.h>
#include "test.h"

#include <SDL2/SDL.h>

#include <stdlib.h>

typedef struct sdl_probe {
    uint64_t last_frame;
    bool a_pressed, left_pressed, q_pressed;
    bool a_released, q_released, a_held_after;
    uint32_t a_repeats;
    char text[16];
    bool left_released_on_focus_loss, paused_on_focus_loss, resumed;
    bool quit_seen;
} sdl_probe;

static void push_key(Uint32 type, SDL_Scancode sc, SDL_Keycode sym, Uint8 repeat) {
    SDL_Event e;
    SDL_zero(e);
    e.type = type;
    e.key.state = type == SDL_KEYDOWN ? SDL_PRESSED : SDL_RELEASED;
    e.key.repeat = repeat;
    e.key.keysym.scancode = sc;
    e.key.keysym.sym = sym;
    SDL_PushEvent(&e);
}

static void push_window(Uint8 event) {
    SDL_Event e;
    SDL_zero(e);
    e.type = SDL_WINDOWEVENT;
    e.window.event = event;
    SDL_PushEvent(&e);
}

static void probe_update(ear_ctx *ctx, void *user) {
    sdl_probe *p = user;
    uint64_t f = ear_ctx_frame(ctx);
    p->last_frame = f;
    switch (f) {
    case 2:
        /* An AZERTY keyboard: the physical Q key types 'a'. */
        push_key(SDL_KEYDOWN, SDL_SCANCODE_Q, SDLK_a, 0);
        push_key(SDL_KEYDOWN, SDL_SCANCODE_LEFT, SDLK_LEFT, 0);
        break;
    case 3:
        p->a_pressed = ear_key_pressed(ctx, EAR_KEY_A);
        p->q_pressed = ear_key_pressed(ctx, EAR_KEY_Q);
        p->left_pressed = ear_key_pressed(ctx, EAR_KEY_LEFT);
        push_key(SDL_KEYDOWN, SDL_SCANCODE_Q, SDLK_a, 1); /* OS repeat */
        /* The layout switched meanwhile: the same key now reports 'q' on release. */
        push_key(SDL_KEYUP, SDL_SCANCODE_Q, SDLK_q, 0);
        break;
    case 4: {
        p->a_released = ear_key_released(ctx, EAR_KEY_A);
        p->q_released = ear_key_released(ctx, EAR_KEY_Q);
        p->a_held_after = ear_key_held(ctx, EAR_KEY_A);
        p->a_repeats = ear_input_os_repeats(ear_ctx_input(ctx), EAR_KEY_A);
        SDL_Event e;
        SDL_zero(e);
        e.type = SDL_TEXTINPUT;
        SDL_strlcpy(e.text.text, "\xc3\xa9", sizeof e.text.text);
        SDL_PushEvent(&e);
        push_window(SDL_WINDOWEVENT_FOCUS_LOST);
        break;
    }
    case 5:
        SDL_strlcpy(p->text, ear_text_typed(ctx), sizeof p->text);
        p->left_released_on_focus_loss = ear_key_released(ctx, EAR_KEY_LEFT);
        p->paused_on_focus_loss = (ear_ctx_time(ctx)->pause_reasons & EAR_PAUSE_FOCUS) != 0;
        push_window(SDL_WINDOWEVENT_FOCUS_GAINED);
        break;
    case 6: {
        p->resumed = !ear_time_paused(ear_ctx_time(ctx));
        SDL_Event e;
        SDL_zero(e);
        e.type = SDL_QUIT;
        SDL_PushEvent(&e);
        break;
    }
    default: break;
    }
    if (f > 50) ear_quit(ctx); /* never reached when the events work */
}

static void probe_end(ear_ctx *ctx, void *user) {
    (void)ctx;
    ((sdl_probe *)user)->quit_seen = true;
}

TEST(sdl2_backend_maps_injected_events) {
    setenv("SDL_VIDEODRIVER", "dummy", 1);
    static sdl_probe p;
    memset(&p, 0, sizeof p);
    ear_engine_config cfg = ear_engine_config_default("Earshot SDL test");
    cfg.frame_hz = 240;
    cfg.speech.log_only = true; /* nothing to hear in a test */
    cfg.mute = true;
    ear_scene scene = {.update = probe_update, .end = probe_end, .user = &p};
    ear_result res = ear_engine_run(&cfg, &scene);
    ASSERT_OK(res);
    ASSERT_TRUE(p.a_pressed);
    ASSERT_FALSE(p.q_pressed);
    ASSERT_TRUE(p.left_pressed);
    ASSERT_TRUE(p.a_released);
    ASSERT_FALSE(p.q_released);
    ASSERT_FALSE(p.a_held_after);
    ASSERT_EQ(p.a_repeats, 1);
    ASSERT_STR_EQ(p.text, "\xc3\xa9");
    ASSERT_TRUE(p.left_released_on_focus_loss);
    ASSERT_TRUE(p.paused_on_focus_loss);
    ASSERT_TRUE(p.resumed);
    ASSERT_TRUE(p.quit_seen);
    ASSERT_EQ(p.last_frame, 7); /* SDL_QUIT pushed in frame 6 ends the game after frame 7 */
}

/* ---- The audio hook ----------------------------------------------------------------- */

typedef struct fake_device {
    int attached, updated, detached;
    ear_stage *stage;
    int marker;
    bool separate_at_attach;
} fake_device;

static ear_result fake_attach(ear_stage *stage, void *user, void **out_device) {
    fake_device *d = user;
    d->attached++;
    d->stage = stage;
    /* A real device's thread may render as soon as it opens: the stage must already be
     * marked, or that thread would also move the game's overflowed commands into the
     * ring (issue 24: ThreadSanitizer's race on render_separate). */
    d->separate_at_attach = ear_stage_render_thread_is_separate(stage);
    *out_device = &d->marker;
    return EAR_OK;
}

static void fake_update(void *device, void *user) {
    fake_device *d = user;
    if (device == &d->marker) d->updated++;
}

static void fake_detach(void *device, void *user) {
    fake_device *d = user;
    if (device == &d->marker) d->detached++;
}

static void quit_at_3(ear_ctx *ctx, void *user) {
    fake_device *d = user;
    if (ear_ctx_stage(ctx) != d->stage) d->marker = -1;
    if (ear_ctx_frame(ctx) == 3) ear_quit(ctx);
}

TEST(sdl2_backend_attaches_audio_through_the_hook_unless_muted) {
    setenv("SDL_VIDEODRIVER", "dummy", 1);
    for (int mute = 0; mute <= 1; mute++) {
        static fake_device d;
        memset(&d, 0, sizeof d);
        ear_engine_config cfg = ear_engine_config_default("hook");
        cfg.frame_hz = 240;
        cfg.speech.log_only = true;
        cfg.mute = mute != 0;
        cfg.audio_attach = fake_attach;
        cfg.audio_update = fake_update;
        cfg.audio_detach = fake_detach;
        cfg.hook_user = &d;
        ear_scene scene = {.update = quit_at_3, .user = &d};
        ASSERT_OK(ear_engine_run(&cfg, &scene));
        ASSERT_EQ(d.attached, mute ? 0 : 1);
        ASSERT_EQ(d.updated, mute ? 0 : 3); /* frames 1..3 have a world sync */
        ASSERT_EQ(d.detached, mute ? 0 : 1);
        if (!mute) ASSERT_EQ(d.marker, 0); /* the hook got the context's stage */
        if (!mute) ASSERT_TRUE(d.separate_at_attach);
    }
}

/* ---- The one-function game ----------------------------------------------------------- */

static int fn_frames;

static void one_function_game(ear_ctx *ctx, void *user) {
    (void)user;
    fn_frames++;
    if (ear_ctx_frame(ctx) == 5) ear_quit(ctx);
}

TEST(one_function_game_runs_and_quits) {
    setenv("SDL_VIDEODRIVER", "dummy", 1);
    fn_frames = 0;
    ASSERT_EQ(ear_run_fn("One function", one_function_game), 0);
    ASSERT_EQ(fn_frames, 5); /* frames 1..5: update does not run on the first frame */
    ASSERT_EQ(ear_run_fn("no function", NULL), 1);
}

/* ---- The default hooks: the game's sound reaches the sound card ------------------------ */

static void tone_game(ear_ctx *ctx, void *user) {
    (void)user;
    if (ear_ctx_frame(ctx) == 1) ear_play_sound(ctx, "synth:sine:440:3");
    if (ear_ctx_frame(ctx) == 90) ear_quit(ctx);
}

/* With the default engine config the SDL2 backend opens the sound card through the device
 * module; SDL's disk driver stands in for it and writes what it is given (32-bit float
 * stereo at 48 kHz) to a file. The game plays synth:sine:440 and the file holds it: its
 * dominant frequency is 440 Hz within 0.2 % and its level that of the synth's 0.5 sine
 * played flat and centred (RMS 0.5 / sqrt 2, within 2 %, over a stretch where it plays). */
TEST(default_hooks_play_the_stage_on_the_sound_card) {
    char path[] = "/tmp/earshot-disk-XXXXXX";
    int fd = mkstemp(path);
    ASSERT_GE(fd, 0);
    close(fd);
    setenv("SDL_VIDEODRIVER", "dummy", 1);
    setenv("SDL_AUDIODRIVER", "disk", 1);
    setenv("SDL_DISKAUDIOFILE", path, 1);
    unsetenv("EARSHOT_MUTE");
    ear_engine_config cfg = ear_engine_config_default("tone");
    cfg.frame_hz = 60;
    cfg.speech.log_only = true;
    ear_scene scene = {.update = tone_game};
    ASSERT_OK(ear_engine_run(&cfg, &scene));
    unsetenv("SDL_AUDIODRIVER");
    unsetenv("SDL_DISKAUDIOFILE");

    FILE *f = fopen(path, "rb");
    ASSERT_NOT_NULL(f);
    static float buf[2 * 48000 * 4];
    size_t n = fread(buf, sizeof(float) * 2, 48000 * 4, f);
    fclose(f);
    remove(path);
    ASSERT_GT(n, 24000); /* at least half a second reached the card */
    /* Find the first sounding frame, then measure 0.25 s from 0.05 s after it. */
    size_t start = 0;
    while (start < n && fabsf(buf[2 * start]) < 1e-4f) start++;
    ASSERT_LT(start + 2400 + 12000, n);
    const float *w = buf + 2 * (start + 2400);
    ASSERT_REL(ear_dominant_hz(w, 12000, 2, 0, 48000), 440.0, 0.002);
    ASSERT_REL(ear_rms(w, 12000, 2, 0), 0.5 / sqrt(2.0), 0.02);
    ASSERT_REL(ear_rms(w, 12000, 2, 1), 0.5 / sqrt(2.0), 0.02);
}

/* ---- A script in a window run ----------------------------------------------------------- */

typedef struct script_probe {
    uint64_t last_frame, space_frame, paused_frames;
    bool ended;
} script_probe;

static void script_update(ear_ctx *ctx, void *user) {
    script_probe *p = user;
    p->last_frame = ear_ctx_frame(ctx);
    if (ear_key_pressed(ctx, EAR_KEY_SPACE)) p->space_frame = ear_ctx_frame(ctx);
    if (ear_time_paused(ear_ctx_time(ctx))) p->paused_frames++;
}

static void script_end(ear_ctx *ctx, void *user) {
    (void)ctx;
    ((script_probe *)user)->ended = true;
}

/* The headless script drives a window run too: a press queued before frame 3 is seen in
 * frame 3, focus lost before 5 and gained before 8 pause frames 5..7, quit before frame 12
 * closes the window (frame 12 is the last, as after a close event); cfg.frames closes it
 * the same way. */
TEST(sdl2_backend_takes_the_script_and_the_frame_count) {
    setenv("SDL_VIDEODRIVER", "dummy", 1);
    ear_script script = {0};
    ASSERT_OK(ear_script_parse("3 press SPACE\n5 focus_lost\n8 focus_gained\n12 quit\n",
                               &script, NULL, 0));
    for (int by_count = 0; by_count <= 1; by_count++) {
        static script_probe p;
        memset(&p, 0, sizeof p);
        ear_engine_config cfg = ear_engine_config_default("script");
        cfg.frame_hz = 240;
        cfg.speech.log_only = true;
        cfg.mute = true;
        cfg.script = &script;
        if (by_count) cfg.frames = 9; /* before the script's quit */
        ear_scene scene = {.update = script_update, .end = script_end, .user = &p};
        ASSERT_OK(ear_engine_run(&cfg, &scene));
        ASSERT_TRUE(p.ended);
        ASSERT_EQ(p.space_frame, 3);
        ASSERT_EQ(p.paused_frames, 3);
        ASSERT_EQ(p.last_frame, by_count ? 9 : 12);
    }
    ear_script_free(&script);
}

/* ---- Gamepads through SDL's GameController API, on SDL's virtual joysticks ------------- */

typedef struct pad_probe {
    SDL_Joystick *stick;
    int device;
    uint64_t attached_at, connected_at, pressed_at, held_at, released_at, moved_at, rumbled_at,
        unplugged_at, disconnected_at;
    bool can_rumble, held_after_unplug;
    float left_x, trigger;
    int rumbles;
    Uint16 rumble_low, rumble_high;
} pad_probe;

static pad_probe *the_pad;

static int probe_rumble(void *user, Uint16 low, Uint16 high) {
    pad_probe *p = user;
    if (low || high) {
        p->rumbles++;
        p->rumble_low = low;
        p->rumble_high = high;
    }
    return 0;
}

static void pad_update(ear_ctx *ctx, void *user) {
    pad_probe *p = user;
    uint64_t f = ear_ctx_frame(ctx);
    ear_input *in = ear_ctx_input(ctx);
    if (f == 2) {
        SDL_VirtualJoystickDesc desc;
        SDL_zero(desc);
        desc.version = SDL_VIRTUAL_JOYSTICK_DESC_VERSION;
        desc.type = SDL_JOYSTICK_TYPE_GAMECONTROLLER;
        desc.naxes = SDL_CONTROLLER_AXIS_MAX;
        desc.nbuttons = SDL_CONTROLLER_BUTTON_DPAD_RIGHT + 1;
        desc.button_mask = (1u << desc.nbuttons) - 1; /* the standard buttons, in order */
        desc.axis_mask = (1u << desc.naxes) - 1;
        desc.name = "test pad";
        desc.userdata = p;
        desc.Rumble = probe_rumble;
        p->device = SDL_JoystickAttachVirtualEx(&desc);
        p->stick = p->device >= 0 ? SDL_JoystickOpen(p->device) : NULL;
        p->attached_at = f;
    }
    if (!p->connected_at && ear_input_pad_connected_now(in, 0)) {
        p->connected_at = f;
        p->can_rumble = in->pads[0].can_rumble;
        SDL_JoystickSetVirtualButton(p->stick, SDL_CONTROLLER_BUTTON_A, SDL_PRESSED);
    }
    if (!p->pressed_at && ear_input_pad_pressed(in, 0, EAR_PAD_A)) {
        p->pressed_at = f;
        SDL_JoystickSetVirtualAxis(p->stick, SDL_CONTROLLER_AXIS_LEFTX, -32768);
        SDL_JoystickSetVirtualAxis(p->stick, SDL_CONTROLLER_AXIS_TRIGGERRIGHT, 32767);
    }
    if (p->pressed_at && f == p->pressed_at + 1 && ear_input_pad_held(in, 0, EAR_PAD_A))
        p->held_at = f;
    if (!p->moved_at && ear_input_pad_axis_value(in, 0, EAR_PAD_LEFT_X) < -0.99f) {
        p->moved_at = f;
        p->left_x = ear_input_pad_axis_value(in, 0, EAR_PAD_LEFT_X);
        p->trigger = ear_input_pad_axis_value(in, 0, EAR_PAD_RIGHT_TRIGGER);
        SDL_JoystickSetVirtualButton(p->stick, SDL_CONTROLLER_BUTTON_A, SDL_RELEASED);
        ear_pad_rumble(ctx, 1.0f, 0.5f, 200);
        p->rumbled_at = f;
    }
    if (!p->released_at && ear_input_pad_released(in, 0, EAR_PAD_A)) {
        p->released_at = f;
        /* Held down again, then unplugged: the unplugging releases it. */
        SDL_JoystickSetVirtualButton(p->stick, SDL_CONTROLLER_BUTTON_B, SDL_PRESSED);
    }
    if (p->released_at && !p->unplugged_at && ear_input_pad_held(in, 0, EAR_PAD_B)) {
        SDL_JoystickClose(p->stick);
        p->stick = NULL;
        SDL_JoystickDetachVirtual(p->device);
        p->unplugged_at = f;
    }
    if (!p->disconnected_at && ear_input_pad_disconnected_now(in, 0)) {
        p->disconnected_at = f;
        p->held_after_unplug = ear_input_pad_held(in, 0, EAR_PAD_B);
        ear_quit(ctx);
    }
    if (f > 60) ear_quit(ctx); /* never reached when the pad works */
}

/* A virtual gamepad plugged in mid-game is opened and reported; its button, stick and
 * trigger reach the input each in the frame after SDL reports them; a rumble the game
 * asks for reaches the pad's motors; unplugging it mid-game releases what it held. */
TEST(sdl2_backend_reads_a_virtual_gamepad_plugged_in_mid_game) {
    setenv("SDL_VIDEODRIVER", "dummy", 1);
    /* The dummy driver's window never has keyboard focus, and SDL drops pad events of an
     * unfocused window unless told to keep them. */
    setenv("SDL_JOYSTICK_ALLOW_BACKGROUND_EVENTS", "1", 1);
    static pad_probe p;
    memset(&p, 0, sizeof p);
    the_pad = &p;
    ear_engine_config cfg = ear_engine_config_default("pads");
    cfg.frame_hz = 240;
    cfg.speech.log_only = true;
    cfg.mute = true;
    ear_scene scene = {.update = pad_update, .user = &p};
    ASSERT_OK(ear_engine_run(&cfg, &scene));
    ASSERT_GE(p.device, 0);
    ASSERT_EQ(p.connected_at, 3);
    ASSERT_TRUE(p.can_rumble);
    ASSERT_EQ(p.pressed_at, 4);
    ASSERT_EQ(p.held_at, 5);
    ASSERT_EQ(p.moved_at, 5);
    ASSERT_NEAR(p.left_x, -1, 1e-6);
    ASSERT_NEAR(p.trigger, 1, 1e-6);
    ASSERT_EQ(p.released_at, 6);
    ASSERT_EQ(p.rumbles, 1);
    ASSERT_EQ(p.rumble_low, 65535);
    ASSERT_EQ(p.rumble_high, 32767);
    ASSERT_EQ(p.unplugged_at, 7);
    ASSERT_EQ(p.disconnected_at, 8);
    ASSERT_FALSE(p.held_after_unplug);
}

typedef struct script_pad_probe {
    uint64_t connected, pressed, released, up_at, disconnected;
    float up, trigger_at_rest, trigger_pulled;
} script_pad_probe;

static void script_pad_update(ear_ctx *ctx, void *user) {
    script_pad_probe *p = user;
    uint64_t f = ear_ctx_frame(ctx);
    ear_input *in = ear_ctx_input(ctx);
    if (ear_input_pad_connected_now(in, 0)) p->connected = f;
    if (ear_input_pad_pressed(in, 0, EAR_PAD_START)) p->pressed = f;
    if (ear_input_pad_released(in, 0, EAR_PAD_START)) p->released = f;
    if (!p->up_at && ear_input_pad_axis_value(in, 0, EAR_PAD_LEFT_Y) < 0) {
        p->up_at = f;
        p->up = ear_input_pad_axis_value(in, 0, EAR_PAD_LEFT_Y);
    }
    if (ear_input_pad_disconnected_now(in, 0)) p->disconnected = f;
    if (f == 3) p->trigger_at_rest = ear_input_pad_axis_value(in, 0, EAR_PAD_RIGHT_TRIGGER);
    if (f == 7) p->trigger_pulled = ear_input_pad_axis_value(in, 0, EAR_PAD_RIGHT_TRIGGER);
}

/* In a window run the script's pad lines move a real SDL virtual gamepad, and each line
 * is seen in its own frame, as key lines are. */
TEST(sdl2_backend_script_pad_lines_drive_a_virtual_gamepad) {
    setenv("SDL_VIDEODRIVER", "dummy", 1);
    setenv("SDL_JOYSTICK_ALLOW_BACKGROUND_EVENTS", "1", 1); /* as above */
    ear_script script = {0};
    ASSERT_OK(
        ear_script_parse("2 pad_connect\n4 pad_down START\n6 pad_up START\n"
                         "6 pad_axis LEFTY -1\n7 pad_axis RIGHTTRIGGER 1\n8 pad_disconnect\n"
                         "10 quit\n",
                         &script, NULL, 0));
    static script_pad_probe p;
    memset(&p, 0, sizeof p);
    ear_engine_config cfg = ear_engine_config_default("script pads");
    cfg.frame_hz = 240;
    cfg.speech.log_only = true;
    cfg.mute = true;
    cfg.script = &script;
    ear_scene scene = {.update = script_pad_update, .user = &p};
    ASSERT_OK(ear_engine_run(&cfg, &scene));
    ear_script_free(&script);
    ASSERT_EQ(p.connected, 2);
    ASSERT_EQ(p.pressed, 4);
    ASSERT_EQ(p.released, 6);
    ASSERT_EQ(p.up_at, 6);
    ASSERT_NEAR(p.up, -1, 1e-6);
    ASSERT_NEAR(p.trigger_at_rest, 0, 0);
    ASSERT_NEAR(p.trigger_pulled, 1, 1e-6);
    ASSERT_EQ(p.disconnected, 8);
}

TEST_MAIN(TEST_ENTRY(sdl2_backend_reads_a_virtual_gamepad_plugged_in_mid_game),
          TEST_ENTRY(sdl2_backend_script_pad_lines_drive_a_virtual_gamepad),
          TEST_ENTRY(sdl2_backend_takes_the_script_and_the_frame_count),
          TEST_ENTRY(sdl2_backend_maps_injected_events),
          TEST_ENTRY(default_hooks_play_the_stage_on_the_sound_card),
          TEST_ENTRY(sdl2_backend_attaches_audio_through_the_hook_unless_muted),
          TEST_ENTRY(one_function_game_runs_and_quits))
