/* SPDX-License-Identifier: Zlib */
/*
 * The web backend (the web build only): the page's game area (an element with
 * role="application", id "earshot-game") gives the keys and the focus, the browser's
 * animation frames give the frames, and the runner does the rest exactly as natively:
 * the same accumulator turns 60, 120 or 144 animation frames a second into 60 fixed
 * steps (frame time clamped, at most max_steps a frame; the page's earOneStepPerFrame
 * asks for exactly one a frame instead). Sound and speech are the
 * engine's hooks and modules (audio_web.c, src/speech/speech_web.c).
 *
 * Key mapping, as the SDL2 backend's: letters and digits follow the keyboard layout
 * (KeyboardEvent.key, so Z on a German keyboard is EAR_KEY_Z), everything else is the
 * physical key (KeyboardEvent.code); a letter key whose layout gives no Latin letter
 * (Cyrillic, Greek) is its physical key. A release maps to the key its press reported.
 * The keys the game gets are kept from the browser (no scrolling, no F1 help), except
 * Tab, which still moves the player out of the game area, and Ctrl/Meta with a letter
 * or digit (the browser's own shortcuts).
 *
 * The page's language follows the game's: after each frame the translations' language
 * (ear_lang_language) is compared with the one the page was last given, and a change is
 * handed to it (earLanguage: the page's lang and its live regions', so the player's
 * screen reader reads German with a German voice).
 */
#include "runtime_internal.h"

#include <emscripten.h>
#include <emscripten/html5.h>

#include <string.h>

#define GAME_AREA "#earshot-game"
#define HELD_MAX  32

ear_result ear__run_web(ear_runner *r, const ear_engine_config *cfg);
ear_key ear__web_map_key(const char *key, const char *code);

typedef struct held_key {
    char code[EM_HTML5_SHORT_STRING_LEN_BYTES];
    ear_key key;
} held_key;

typedef struct web_state {
    ear_runner *runner;
    held_key held[HELD_MAX];
    bool focused;
    char language[16]; /* the language the page was last given ("" before the first) */
    bool one_step;     /* the page's earOneStepPerFrame: a step a frame, on its own clock */
    uint64_t frames;   /* frames run, the one-step clock */
} web_state;

/* One game per page. */
static web_state web;

/* The page's side (web/page/earshot-web.js): the game ended, the focus changed. */
EM_JS(void, ear__web_page_ended, (int failed), {
    if (Module["earEnded"]) Module["earEnded"](!!failed);
})
EM_JS(void, ear__web_page_paused, (int paused), {
    if (Module["earPaused"]) Module["earPaused"](!!paused);
})
EM_JS(void, ear__web_page_frame, (double steps), {
    if (Module["earFrame"]) Module["earFrame"](steps);
})
/* The page's option Module.earOneStepPerFrame, read when the game starts: each animation
 * frame runs exactly one fixed step (none while paused) on a clock that moves a step a
 * frame, as the native headless loop does, instead of the steps the frame's time asks for
 * (0, 1 or 2 in headless Chromium). A test sets it to play keys frame by frame as a
 * native script does and get the native run's times. */
EM_JS(int, ear__web_page_one_step, (void), { return Module["earOneStepPerFrame"] ? 1 : 0; })
EM_JS(void, ear__web_page_language, (const char *code), {
    if (Module["earLanguage"]) Module["earLanguage"](UTF8ToString(code));
})
EM_JS(int, ear__web_game_area_focused, (void), {
    var area = document.querySelector("#earshot-game");
    return area && document.activeElement == area && !document.hidden ? 1 : 0;
})

static const struct {
    const char *code;
    ear_key key;
} physical[] = {
    {"F1", EAR_KEY_F1},
    {"F2", EAR_KEY_F2},
    {"F3", EAR_KEY_F3},
    {"F4", EAR_KEY_F4},
    {"F5", EAR_KEY_F5},
    {"F6", EAR_KEY_F6},
    {"F7", EAR_KEY_F7},
    {"F8", EAR_KEY_F8},
    {"F9", EAR_KEY_F9},
    {"F10", EAR_KEY_F10},
    {"F11", EAR_KEY_F11},
    {"F12", EAR_KEY_F12},
    {"Escape", EAR_KEY_ESCAPE},
    {"Enter", EAR_KEY_ENTER},
    {"NumpadEnter", EAR_KEY_ENTER},
    {"Space", EAR_KEY_SPACE},
    {"Tab", EAR_KEY_TAB},
    {"Backspace", EAR_KEY_BACKSPACE},
    {"Delete", EAR_KEY_DELETE},
    {"Insert", EAR_KEY_INSERT},
    {"Home", EAR_KEY_HOME},
    {"End", EAR_KEY_END},
    {"PageUp", EAR_KEY_PAGE_UP},
    {"PageDown", EAR_KEY_PAGE_DOWN},
    {"ArrowUp", EAR_KEY_UP},
    {"ArrowDown", EAR_KEY_DOWN},
    {"ArrowLeft", EAR_KEY_LEFT},
    {"ArrowRight", EAR_KEY_RIGHT},
    {"ShiftLeft", EAR_KEY_LSHIFT},
    {"ShiftRight", EAR_KEY_RSHIFT},
    {"ControlLeft", EAR_KEY_LCTRL},
    {"ControlRight", EAR_KEY_RCTRL},
    {"AltLeft", EAR_KEY_LALT},
    {"AltRight", EAR_KEY_RALT},
    {"Minus", EAR_KEY_MINUS},
    {"Equal", EAR_KEY_EQUALS},
    {"Comma", EAR_KEY_COMMA},
    {"Period", EAR_KEY_PERIOD},
    {"Slash", EAR_KEY_SLASH},
    {"Semicolon", EAR_KEY_SEMICOLON},
    {"Quote", EAR_KEY_APOSTROPHE},
    {"BracketLeft", EAR_KEY_LEFT_BRACKET},
    {"BracketRight", EAR_KEY_RIGHT_BRACKET},
    {"Backslash", EAR_KEY_BACKSLASH},
    {"Backquote", EAR_KEY_GRAVE},
};

ear_key ear__web_map_key(const char *key, const char *code) {
    /* The layout's letter or digit (one ASCII character; Shift gives the capital). */
    if (key[0] && !key[1]) {
        char c = key[0];
        if (c >= 'a' && c <= 'z') return (ear_key)(EAR_KEY_A + (c - 'a'));
        if (c >= 'A' && c <= 'Z') return (ear_key)(EAR_KEY_A + (c - 'A'));
        if (c >= '0' && c <= '9') return (ear_key)(EAR_KEY_0 + (c - '0'));
    }
    for (size_t i = 0; i < sizeof physical / sizeof physical[0]; i++)
        if (strcmp(code, physical[i].code) == 0) return physical[i].key;
    /* A layout whose letter keys give no Latin letter: the physical key. */
    if (strncmp(code, "Key", 3) == 0 && code[3] >= 'A' && code[3] <= 'Z' && !code[4])
        return (ear_key)(EAR_KEY_A + (code[3] - 'A'));
    if (strncmp(code, "Digit", 5) == 0 && code[5] >= '0' && code[5] <= '9' && !code[6])
        return (ear_key)(EAR_KEY_0 + (code[5] - '0'));
    return EAR_KEY_UNKNOWN;
}

static held_key *find_held(const char *code) {
    for (int i = 0; i < HELD_MAX; i++)
        if (web.held[i].key != EAR_KEY_UNKNOWN && strcmp(web.held[i].code, code) == 0)
            return &web.held[i];
    return NULL;
}

/* One printable character (no control characters): the text it types. */
static bool is_one_character(const char *s) {
    size_t len = strlen(s);
    uint32_t cp = 0;
    if (len == 0 || ear_utf8_decode(s, len, &cp) != len) return false;
    return cp >= 0x20 && cp != 0x7F;
}

static EM_BOOL on_key_down(int type, const EmscriptenKeyboardEvent *e, void *user) {
    (void)type, (void)user;
    if (!web.runner) return EM_FALSE;
    held_key *h = find_held(e->code);
    ear_key k = h ? h->key : ear__web_map_key(e->key, e->code);
    bool shortcut = (e->ctrlKey || e->metaKey) && k >= EAR_KEY_A && k <= EAR_KEY_9;
    if (k != EAR_KEY_UNKNOWN) {
        if (!h) {
            for (int i = 0; i < HELD_MAX; i++)
                if (web.held[i].key == EAR_KEY_UNKNOWN) {
                    h = &web.held[i];
                    break;
                }
            if (h) {
                memcpy(h->code, e->code, sizeof h->code);
                h->code[sizeof h->code - 1] = '\0';
                h->key = k;
            }
        }
        /* A repeat (or a second down) keeps the key its first press reported. */
        ear_runner_key_down(web.runner, k);
    }
    if (!e->ctrlKey && !e->metaKey && is_one_character(e->key))
        ear_runner_text(web.runner, e->key);
    return k != EAR_KEY_UNKNOWN && k != EAR_KEY_TAB && !shortcut;
}

static EM_BOOL on_key_up(int type, const EmscriptenKeyboardEvent *e, void *user) {
    (void)type, (void)user;
    if (!web.runner) return EM_FALSE;
    held_key *h = find_held(e->code);
    ear_key k = h ? h->key : ear__web_map_key(e->key, e->code);
    if (h) h->key = EAR_KEY_UNKNOWN;
    if (k != EAR_KEY_UNKNOWN) ear_runner_key_up(web.runner, k);
    return k != EAR_KEY_UNKNOWN && k != EAR_KEY_TAB;
}

/* Focus follows the game area and the tab's visibility: either lost pauses the game
 * (EAR_PAUSE_FOCUS, unless the config says otherwise), both back resumes it. */
static void focus_changed(void) {
    if (!web.runner) return;
    bool now = ear__web_game_area_focused() != 0;
    if (now == web.focused) return;
    web.focused = now;
    if (now) {
        ear_runner_focus_gained(web.runner);
    } else {
        /* Keys held when the focus left are released by the runner; forget them here. */
        memset(web.held, 0, sizeof web.held);
        ear_runner_focus_lost(web.runner);
    }
    ear__web_page_paused(now ? 0 : 1);
}

static EM_BOOL on_focus(int type, const EmscriptenFocusEvent *e, void *user) {
    (void)type, (void)e, (void)user;
    focus_changed();
    return EM_FALSE;
}

static EM_BOOL on_visibility(int type, const EmscriptenVisibilityChangeEvent *e, void *user) {
    (void)type, (void)e, (void)user;
    focus_changed();
    return EM_FALSE;
}

static void stop_listening(void) {
    emscripten_set_keydown_callback(GAME_AREA, NULL, EM_FALSE, NULL);
    emscripten_set_keyup_callback(GAME_AREA, NULL, EM_FALSE, NULL);
    emscripten_set_focus_callback(GAME_AREA, NULL, EM_FALSE, NULL);
    emscripten_set_blur_callback(GAME_AREA, NULL, EM_FALSE, NULL);
    emscripten_set_visibilitychange_callback(NULL, EM_FALSE, NULL);
}

static void frame(void *user) {
    (void)user;
    /* One step a frame: on a clock of its own, a step a frame, as the native headless
     * loop's (the game's time, and so a level's time, as natively). */
    double now = web.one_step
                     ? (double)web.frames++ * ear_ctx_step_s(ear_runner_ctx(web.runner))
                     : emscripten_get_now() / 1000.0;
    ear_runner_frame(web.runner, now);
    ear__web_page_frame((double)ear_runner_steps(web.runner));
    const char *code = ear_lang_language(ear_ctx_lang(ear_runner_ctx(web.runner)));
    if (code && code[0] && strncmp(code, web.language, sizeof web.language) != 0) {
        snprintf(web.language, sizeof web.language, "%s", code);
        ear__web_page_language(web.language);
    }
    if (ear_runner_running(web.runner)) return;
    emscripten_cancel_main_loop();
    stop_listening();
    ear_runner *r = web.runner;
    web.runner = NULL;
    ear_runner_destroy(r); /* every scene ends, the save is written, sound stops */
    ear__web_page_ended(0);
}

ear_result ear__run_web(ear_runner *r, const ear_engine_config *cfg) {
    if (web.runner) {
        ear_log(EAR_LOG_ERROR, "runtime", "a game already runs on this page");
        return EAR_E_STATE;
    }
    memset(&web, 0, sizeof web);
    web.runner = r;
    EMSCRIPTEN_RESULT res =
        emscripten_set_keydown_callback(GAME_AREA, NULL, EM_FALSE, on_key_down);
    if (res == EMSCRIPTEN_RESULT_SUCCESS)
        res = emscripten_set_keyup_callback(GAME_AREA, NULL, EM_FALSE, on_key_up);
    if (res == EMSCRIPTEN_RESULT_SUCCESS)
        res = emscripten_set_focus_callback(GAME_AREA, NULL, EM_FALSE, on_focus);
    if (res == EMSCRIPTEN_RESULT_SUCCESS)
        res = emscripten_set_blur_callback(GAME_AREA, NULL, EM_FALSE, on_focus);
    if (res == EMSCRIPTEN_RESULT_SUCCESS)
        res = emscripten_set_visibilitychange_callback(NULL, EM_FALSE, on_visibility);
    if (res != EMSCRIPTEN_RESULT_SUCCESS) {
        ear_log(EAR_LOG_ERROR, "runtime",
                "the page has no game area (an element with id \"earshot-game\"): %d", res);
        stop_listening();
        memset(&web, 0, sizeof web);
        ear__web_page_ended(1);
        return EAR_E_UNSUPPORTED;
    }
    if (!cfg->mute && cfg->audio_attach) {
        void *device = NULL;
        /* Before the hook opens a device, whose thread may render at once: it must never
         * also move the game's overflowed commands into the ring (a race TSan found). */
        ear_stage_set_render_thread_separate(ear_ctx_stage(ear_runner_ctx(r)), true);
        ear_result a =
            cfg->audio_attach(ear_ctx_stage(ear_runner_ctx(r)), cfg->hook_user, &device);
        if (a == EAR_OK) {
            ear_runner_set_audio_device(r, device);
        } else {
            ear_stage_set_render_thread_separate(ear_ctx_stage(ear_runner_ctx(r)), false);
            ear_log(EAR_LOG_WARN, "runtime", "no sound: %s; the game runs silent",
                    ear_result_string(a));
        }
    }
    /* The page focuses the game area when Start is pressed; a game that starts without
     * the focus starts paused, as a native window would. */
    web.focused = true;
    focus_changed();
    if (ear__web_page_one_step()) {
        web.one_step = true;
        ear_runner_set_one_step_per_frame(r, true);
    }
    /* 0: one frame per animation frame. true: main's stack is left as it is (its locals
     * stay valid) and control goes to the browser. */
    emscripten_set_main_loop_arg(frame, NULL, 0, true);
    return EAR_OK; /* not reached */
}
