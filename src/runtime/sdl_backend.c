/* SPDX-License-Identifier: Zlib */
/*
 * The SDL2 backend: one window (its title is the game's), the keyboard, text input,
 * focus, and a frame timer. It only feeds the runner. It never opens an audio device:
 * that is src/audio/device's job, reached through the config's audio_attach hook.
 *
 * Key mapping: letters and digits follow the keyboard layout (the SDL keycode, so Z on a
 * German keyboard is EAR_KEY_Z); everything else is physical (the scancode). The key a
 * press reported is remembered per scancode, so its release maps to the same key even
 * if the layout's answer changed in between (Shift, a layout switch).
 *
 * Gamepads go through SDL's GameController API: a controller that is added is opened and
 * given the lowest free slot (0..EAR_PAD_MAX-1), its buttons and axes reach the input
 * under SDL's standard names, its removal frees the slot. After each frame a rumble the
 * game asked for (ear_input_pad_rumble) is passed to SDL_GameControllerRumble.
 *
 * A script's pad lines move a real SDL virtual gamepad here (SDL_JoystickAttachVirtualEx,
 * type GAMECONTROLLER): "pad_connect" attaches it and SDL reports it as any pad, so a
 * window smoke test goes through the whole SDL path.
 */
#include "runtime_internal.h"

#include <SDL2/SDL.h>

#include <math.h>
#include <string.h>

ear_key ear__sdl_map_key(SDL_Keycode sym, SDL_Scancode scancode);

ear_key ear__sdl_map_key(SDL_Keycode sym, SDL_Scancode scancode) {
    if (sym >= SDLK_a && sym <= SDLK_z) return (ear_key)(EAR_KEY_A + (sym - SDLK_a));
    if (sym >= SDLK_0 && sym <= SDLK_9) return (ear_key)(EAR_KEY_0 + (sym - SDLK_0));
    switch (scancode) {
    case SDL_SCANCODE_F1: return EAR_KEY_F1;
    case SDL_SCANCODE_F2: return EAR_KEY_F2;
    case SDL_SCANCODE_F3: return EAR_KEY_F3;
    case SDL_SCANCODE_F4: return EAR_KEY_F4;
    case SDL_SCANCODE_F5: return EAR_KEY_F5;
    case SDL_SCANCODE_F6: return EAR_KEY_F6;
    case SDL_SCANCODE_F7: return EAR_KEY_F7;
    case SDL_SCANCODE_F8: return EAR_KEY_F8;
    case SDL_SCANCODE_F9: return EAR_KEY_F9;
    case SDL_SCANCODE_F10: return EAR_KEY_F10;
    case SDL_SCANCODE_F11: return EAR_KEY_F11;
    case SDL_SCANCODE_F12: return EAR_KEY_F12;
    case SDL_SCANCODE_ESCAPE: return EAR_KEY_ESCAPE;
    case SDL_SCANCODE_RETURN: return EAR_KEY_ENTER;
    case SDL_SCANCODE_KP_ENTER: return EAR_KEY_ENTER;
    case SDL_SCANCODE_SPACE: return EAR_KEY_SPACE;
    case SDL_SCANCODE_TAB: return EAR_KEY_TAB;
    case SDL_SCANCODE_BACKSPACE: return EAR_KEY_BACKSPACE;
    case SDL_SCANCODE_DELETE: return EAR_KEY_DELETE;
    case SDL_SCANCODE_INSERT: return EAR_KEY_INSERT;
    case SDL_SCANCODE_HOME: return EAR_KEY_HOME;
    case SDL_SCANCODE_END: return EAR_KEY_END;
    case SDL_SCANCODE_PAGEUP: return EAR_KEY_PAGE_UP;
    case SDL_SCANCODE_PAGEDOWN: return EAR_KEY_PAGE_DOWN;
    case SDL_SCANCODE_UP: return EAR_KEY_UP;
    case SDL_SCANCODE_DOWN: return EAR_KEY_DOWN;
    case SDL_SCANCODE_LEFT: return EAR_KEY_LEFT;
    case SDL_SCANCODE_RIGHT: return EAR_KEY_RIGHT;
    case SDL_SCANCODE_LSHIFT: return EAR_KEY_LSHIFT;
    case SDL_SCANCODE_RSHIFT: return EAR_KEY_RSHIFT;
    case SDL_SCANCODE_LCTRL: return EAR_KEY_LCTRL;
    case SDL_SCANCODE_RCTRL: return EAR_KEY_RCTRL;
    case SDL_SCANCODE_LALT: return EAR_KEY_LALT;
    case SDL_SCANCODE_RALT: return EAR_KEY_RALT;
    case SDL_SCANCODE_MINUS: return EAR_KEY_MINUS;
    case SDL_SCANCODE_EQUALS: return EAR_KEY_EQUALS;
    case SDL_SCANCODE_COMMA: return EAR_KEY_COMMA;
    case SDL_SCANCODE_PERIOD: return EAR_KEY_PERIOD;
    case SDL_SCANCODE_SLASH: return EAR_KEY_SLASH;
    case SDL_SCANCODE_SEMICOLON: return EAR_KEY_SEMICOLON;
    case SDL_SCANCODE_APOSTROPHE: return EAR_KEY_APOSTROPHE;
    case SDL_SCANCODE_LEFTBRACKET: return EAR_KEY_LEFT_BRACKET;
    case SDL_SCANCODE_RIGHTBRACKET: return EAR_KEY_RIGHT_BRACKET;
    case SDL_SCANCODE_BACKSLASH: return EAR_KEY_BACKSLASH;
    case SDL_SCANCODE_GRAVE: return EAR_KEY_GRAVE;
    default: break;
    }
    /* A layout whose letter keys report no letter (Cyrillic, Greek): the physical key. */
    if (scancode >= SDL_SCANCODE_A && scancode <= SDL_SCANCODE_Z)
        return (ear_key)(EAR_KEY_A + (scancode - SDL_SCANCODE_A));
    if (scancode >= SDL_SCANCODE_1 && scancode <= SDL_SCANCODE_9)
        return (ear_key)(EAR_KEY_1 + (scancode - SDL_SCANCODE_1));
    if (scancode == SDL_SCANCODE_0) return EAR_KEY_0;
    return EAR_KEY_UNKNOWN;
}

typedef struct sdl_state {
    ear_runner *runner;
    ear_key pressed_as[SDL_NUM_SCANCODES];
    SDL_GameController *pads[EAR_PAD_MAX];
    SDL_JoystickID pad_ids[EAR_PAD_MAX];
    SDL_Joystick *virtual_stick; /* the script's virtual gamepad, once attached */
} sdl_state;

static int pad_slot(const sdl_state *st, SDL_JoystickID id) {
    for (int i = 0; i < EAR_PAD_MAX; i++)
        if (st->pads[i] && st->pad_ids[i] == id) return i;
    return -1;
}

static void pad_added(sdl_state *st, int device_index) {
    SDL_GameController *gc = SDL_GameControllerOpen(device_index);
    if (!gc) {
        ear_log(EAR_LOG_WARN, "runtime", "a gamepad could not be opened: %s", SDL_GetError());
        return;
    }
    SDL_JoystickID id = SDL_JoystickInstanceID(SDL_GameControllerGetJoystick(gc));
    if (pad_slot(st, id) >= 0) { /* reported twice (at start and as an event) */
        SDL_GameControllerClose(gc);
        return;
    }
    for (int i = 0; i < EAR_PAD_MAX; i++) {
        if (st->pads[i]) continue;
        st->pads[i] = gc;
        st->pad_ids[i] = id;
        ear_runner_pad_added(st->runner, (uint8_t)i, SDL_GameControllerHasRumble(gc));
        const char *name = SDL_GameControllerName(gc);
        ear_log(EAR_LOG_INFO, "runtime", "gamepad %d connected: %s", i, name ? name : "?");
        return;
    }
    ear_log(EAR_LOG_WARN, "runtime", "more than %d gamepads: one is ignored", EAR_PAD_MAX);
    SDL_GameControllerClose(gc);
}

static void pad_removed(sdl_state *st, SDL_JoystickID id) {
    int i = pad_slot(st, id);
    if (i < 0) return;
    SDL_GameControllerClose(st->pads[i]);
    st->pads[i] = NULL;
    ear_runner_pad_removed(st->runner, (uint8_t)i);
    ear_log(EAR_LOG_INFO, "runtime", "gamepad %d disconnected", i);
}

/* Carries out the rumbles the game asked for in the frame. */
static void pad_rumbles(sdl_state *st) {
    ear_input *in = ear_ctx_input(ear_runner_ctx(st->runner));
    for (int i = 0; i < EAR_PAD_MAX; i++) {
        ear_pad *p = &in->pads[i];
        if (!p->rumble_pending) continue;
        p->rumble_pending = false;
        if (!st->pads[i]) continue;
        if (SDL_GameControllerRumble(st->pads[i], (Uint16)(p->rumble_low * 65535.0f),
                                     (Uint16)(p->rumble_high * 65535.0f), p->rumble_ms) != 0)
            ear_log(EAR_LOG_WARN, "runtime", "gamepad %d: no rumble: %s", i, SDL_GetError());
    }
}

static void handle_event(sdl_state *st, const SDL_Event *e) {
    ear_runner *r = st->runner;
    switch (e->type) {
    case SDL_QUIT: ear_runner_close(r); break;
    case SDL_KEYDOWN: {
        SDL_Scancode sc = e->key.keysym.scancode;
        if (sc < 0 || sc >= SDL_NUM_SCANCODES) break;
        /* A repeat (or a second Down) keeps the key its first press reported. */
        ear_key k = st->pressed_as[sc];
        if (k == EAR_KEY_UNKNOWN) k = ear__sdl_map_key(e->key.keysym.sym, sc);
        if (k == EAR_KEY_UNKNOWN) break;
        st->pressed_as[sc] = k;
        ear_runner_key_down(r, k);
        break;
    }
    case SDL_KEYUP: {
        SDL_Scancode sc = e->key.keysym.scancode;
        if (sc < 0 || sc >= SDL_NUM_SCANCODES) break;
        ear_key k = st->pressed_as[sc];
        if (k == EAR_KEY_UNKNOWN) k = ear__sdl_map_key(e->key.keysym.sym, sc);
        st->pressed_as[sc] = EAR_KEY_UNKNOWN;
        if (k != EAR_KEY_UNKNOWN) ear_runner_key_up(r, k);
        break;
    }
    case SDL_TEXTINPUT: ear_runner_text(r, e->text.text); break;
    case SDL_CONTROLLERDEVICEADDED: pad_added(st, e->cdevice.which); break;
    case SDL_CONTROLLERDEVICEREMOVED: pad_removed(st, e->cdevice.which); break;
    case SDL_CONTROLLERBUTTONDOWN:
    case SDL_CONTROLLERBUTTONUP: {
        int i = pad_slot(st, e->cbutton.which);
        if (i < 0 || e->cbutton.button >= EAR_PAD_BUTTON_COUNT) break;
        ear_runner_pad_button(r, (uint8_t)i, (ear_pad_button)e->cbutton.button,
                              e->type == SDL_CONTROLLERBUTTONDOWN);
        break;
    }
    case SDL_CONTROLLERAXISMOTION: {
        int i = pad_slot(st, e->caxis.which);
        if (i < 0 || e->caxis.axis >= EAR_PAD_AXIS_COUNT) break;
        ear_runner_pad_axis(r, (uint8_t)i, (ear_pad_axis)e->caxis.axis, e->caxis.value);
        break;
    }
    case SDL_WINDOWEVENT:
        switch (e->window.event) {
        case SDL_WINDOWEVENT_FOCUS_LOST:
            memset(st->pressed_as, 0, sizeof st->pressed_as);
            ear_runner_focus_lost(r);
            break;
        case SDL_WINDOWEVENT_FOCUS_GAINED: ear_runner_focus_gained(r); break;
        case SDL_WINDOWEVENT_CLOSE: ear_runner_close(r); break;
        default: break;
        }
        break;
    default: break;
    }
}

ear_result ear__run_sdl(ear_runner *r, const ear_engine_config *cfg, ear_stage *stage);

/* A window run may take the headless script too (a smoke test of the window mode under
 * SDL's dummy drivers): the events of frame f are queued just before it, "quit" is the
 * window's close, and cfg->frames ends the run as a close does. */
static int virtual_rumble(void *user, Uint16 low, Uint16 high) {
    (void)user;
    (void)low;
    (void)high;
    return 0; /* the virtual pad has motors that go nowhere */
}

/* Detaches the virtual pad by its current device index (indices shift as devices come
 * and go). */
static void detach_virtual(sdl_state *st) {
    SDL_JoystickID id = SDL_JoystickInstanceID(st->virtual_stick);
    SDL_JoystickClose(st->virtual_stick);
    st->virtual_stick = NULL;
    for (int i = 0; i < SDL_NumJoysticks(); i++) {
        if (SDL_JoystickGetDeviceInstanceID(i) == id) {
            SDL_JoystickDetachVirtual(i);
            return;
        }
    }
}

/* A script's pad line on the virtual gamepad; its SDL events arrive at the next poll. */
static void script_pad(sdl_state *st, const ear_script_event *e) {
    if (e->action == EAR_SCRIPT_PAD_CONNECT) {
        if (st->virtual_stick) return;
        SDL_VirtualJoystickDesc desc;
        SDL_zero(desc);
        desc.version = SDL_VIRTUAL_JOYSTICK_DESC_VERSION;
        desc.type = SDL_JOYSTICK_TYPE_GAMECONTROLLER;
        desc.naxes = SDL_CONTROLLER_AXIS_MAX;
        desc.nbuttons = EAR_PAD_BUTTON_COUNT;
        desc.button_mask = (1u << EAR_PAD_BUTTON_COUNT) - 1; /* SDL's standard ones, in order */
        desc.axis_mask = (1u << SDL_CONTROLLER_AXIS_MAX) - 1;
        desc.name = "Earshot script gamepad";
        desc.Rumble = virtual_rumble;
        int index = SDL_JoystickAttachVirtualEx(&desc);
        st->virtual_stick = index >= 0 ? SDL_JoystickOpen(index) : NULL;
        if (!st->virtual_stick) {
            ear_log(EAR_LOG_ERROR, "runtime", "the script's gamepad could not be attached: %s",
                    SDL_GetError());
            return;
        }
        /* A virtual trigger spans the joystick's whole range (SDL maps -32768 to a
         * trigger at rest): let go at first. */
        SDL_JoystickSetVirtualAxis(st->virtual_stick, SDL_CONTROLLER_AXIS_TRIGGERLEFT, -32768);
        SDL_JoystickSetVirtualAxis(st->virtual_stick, SDL_CONTROLLER_AXIS_TRIGGERRIGHT, -32768);
        SDL_JoystickUpdate();
        return;
    }
    if (!st->virtual_stick) {
        ear_log(EAR_LOG_WARN, "runtime", "a script pad line before pad_connect is ignored");
        return;
    }
    SDL_Joystick *j = st->virtual_stick;
    switch (e->action) {
    case EAR_SCRIPT_PAD_DISCONNECT: detach_virtual(st); break;
    case EAR_SCRIPT_PAD_DOWN: SDL_JoystickSetVirtualButton(j, e->control, SDL_PRESSED); break;
    case EAR_SCRIPT_PAD_UP: SDL_JoystickSetVirtualButton(j, e->control, SDL_RELEASED); break;
    case EAR_SCRIPT_PAD_PRESS:
        /* Two states between two updates would be one: the down goes out now. */
        SDL_JoystickSetVirtualButton(j, e->control, SDL_PRESSED);
        SDL_JoystickUpdate();
        SDL_JoystickSetVirtualButton(j, e->control, SDL_RELEASED);
        break;
    case EAR_SCRIPT_PAD_AXIS: {
        int16_t raw = ear__axis_raw(e->value);
        if (e->control >= EAR_PAD_LEFT_TRIGGER) /* 0..1 over the whole range, as above */
            raw = (int16_t)((long)lround((double)(e->value < 0 ? 0 : e->value) * 65535.0) -
                            32768);
        SDL_JoystickSetVirtualAxis(j, e->control, raw);
        break;
    }
    default: break;
    }
    SDL_JoystickUpdate();
}

static bool is_pad_line(ear_script_action a) {
    return a >= EAR_SCRIPT_PAD_CONNECT && a <= EAR_SCRIPT_PAD_AXIS;
}

static void queue_script_frame(sdl_state *st, ear_runner *r, const ear_engine_config *cfg,
                               uint64_t frame) {
    if (cfg->frames && frame >= cfg->frames) ear_runner_close(r);
    if (!cfg->script || cfg->replay_path) return;
    bool pads = false;
    for (size_t i = 0; i < cfg->script->count; i++) {
        const ear_script_event *e = &cfg->script->events[i];
        if (e->frame != frame) continue;
        if (is_pad_line(e->action)) {
            script_pad(st, e);
            pads = true;
        } else {
            ear__script_event_queue(r, e);
        }
    }
    if (!pads) return;
    /* The virtual pad's events belong to this frame, as a key line's do. */
    SDL_Event ev;
    while (SDL_PollEvent(&ev)) handle_event(st, &ev);
}

ear_result ear__run_sdl(ear_runner *r, const ear_engine_config *cfg, ear_stage *stage) {
    const Uint32 systems =
        SDL_INIT_VIDEO | SDL_INIT_EVENTS | SDL_INIT_TIMER | SDL_INIT_GAMECONTROLLER;
    if (SDL_InitSubSystem(systems) != 0) {
        ear_log(EAR_LOG_ERROR, "runtime", "SDL2 could not start: %s", SDL_GetError());
        return EAR_E_UNSUPPORTED;
    }
    SDL_Window *window =
        SDL_CreateWindow(cfg->title ? cfg->title : "Earshot", SDL_WINDOWPOS_CENTERED,
                         SDL_WINDOWPOS_CENTERED, 640, 480, SDL_WINDOW_SHOWN);
    if (!window) {
        ear_log(EAR_LOG_ERROR, "runtime", "no window: %s", SDL_GetError());
        SDL_QuitSubSystem(systems);
        return EAR_E_UNSUPPORTED;
    }
    SDL_StartTextInput();
    if (!cfg->mute && cfg->audio_attach) {
        void *device = NULL;
        /* Before the hook opens a device, whose thread may render at once: it must never
         * also move the game's overflowed commands into the ring (a race TSan found). */
        ear_stage_set_render_thread_separate(stage, true);
        ear_result res = cfg->audio_attach(stage, cfg->hook_user, &device);
        if (res == EAR_OK) {
            ear_runner_set_audio_device(r, device);
        } else {
            ear_stage_set_render_thread_separate(stage, false); /* the runner renders */
            ear_log(EAR_LOG_WARN, "runtime", "no sound: %s; the game runs silent",
                    ear_result_string(res));
        }
    }
    sdl_state *st = SDL_calloc(1, sizeof *st);
    if (!st) {
        SDL_DestroyWindow(window);
        SDL_QuitSubSystem(systems);
        return EAR_E_OUT_OF_MEMORY;
    }
    st->runner = r;
    while (ear_runner_running(r)) {
        SDL_Event e;
        while (SDL_PollEvent(&e)) handle_event(st, &e);
        double now = ear_now_s();
        double due = ear_runner_frames(r) ? ear_runner_next_frame_s(r) : now;
        if (now >= due) {
            queue_script_frame(st, r, cfg, ear_runner_frames(r));
            ear_runner_frame(r, now);
            pad_rumbles(st);
        } else {
            double wait_ms = (due - now) * 1000.0;
            /* Sleep most of the wait, leaving a millisecond for the scheduler's slack. */
            if (wait_ms > 1.5) SDL_Delay((Uint32)(wait_ms - 1.0));
        }
    }
    for (int i = 0; i < EAR_PAD_MAX; i++)
        if (st->pads[i]) SDL_GameControllerClose(st->pads[i]);
    if (st->virtual_stick) detach_virtual(st);
    SDL_free(st);
    SDL_StopTextInput();
    SDL_DestroyWindow(window);
    SDL_QuitSubSystem(systems);
    return EAR_OK;
}
