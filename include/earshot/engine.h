/* SPDX-License-Identifier: Zlib */
/*
 * Earshot's game runtime: engine settings, the runner that owns one frame, scenes and
 * the scene stack, and the context a scene sees.
 *
 * ear_engine_config collects settings; ear_engine_run hands a runner to a window backend
 * (SDL2, or headless for tests, smoke runs and replays). A backend only feeds the
 * runner: key events, text, focus, and "a frame is due now". The frame, in this order
 * (ear_runner_frame, one function):
 *
 *   1. time: both clocks advance (the frame clamped to 0.25 s) and the scheduler fires;
 *      then a window close since the last frame goes to the top scene's close_requested
 *      (without one the game quits: the frame's UI events and scene changes are dropped);
 *   2. input: the queued events become pressed / released / held;
 *   3. ui: the optional UI hook updates the top widget (and may block input);
 *   4. ui events: each event it posted goes to the top scene's on_ui;
 *   5. fixed steps: the physics world's events of the last frame are cleared, then as
 *      many steps of 1 / step_hz as the accumulator holds (game time; at most 8 a frame,
 *      the excess dropped): the physics world steps, then fixed_update;
 *   6. update: the top scene's update;
 *   7. world sync: the audio world (ear_ctx_world) is paused with the game clock (its
 *      sounds only: the UI and speech play on) and synced, then the optional hook,
 *      then the stage's and speech's housekeeping;
 *   8. scene changes: push / pop / switch, looping while start asks for more;
 *   9. quit and save: on quit every scene ends and the save is written if dirty.
 *
 * The very first frame only advances the clocks, starts the first scene and applies
 * scene changes. Frames are never caught up: the next one is scheduled from now.
 * Drawing may blend the last two steps by ear_ctx_alpha.
 *
 * Thread: every function here is for the game thread (the one that calls
 * ear_engine_run or owns the runner) unless its comment says otherwise. Scene callbacks
 * and hooks run on that thread; nothing here locks.
 */
#ifndef EARSHOT_ENGINE_H
#define EARSHOT_ENGINE_H

#include "earshot/actions.h"
#include "earshot/assets.h"
#include "earshot/core.h"
#include "earshot/input.h"
#include "earshot/lang.h"
#include "earshot/physics.h"
#include "earshot/speech.h"
#include "earshot/stage.h"
#include "earshot/storage.h"
#include "earshot/time.h"
#include "earshot/world.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ear_ctx ear_ctx;

/* What a UI event reports (ear_ui_event.kind; include/earshot/ui.h says when each is
 * posted). */
typedef enum ear_ui_event_kind {
    EAR_UI_EVENT_NONE = 0,
    EAR_UI_CLICKED,   /* a button was pressed (a slider or choice: Enter on it) */
    EAR_UI_CHANGED,   /* a value changed */
    EAR_UI_CONFIRMED, /* a dialog's closing button; a submitted form's fields and button;
                         a text input submitted */
    EAR_UI_CANCELLED, /* Escape, or a button that cancels */
    EAR_UI_CLOSED,    /* a widget left the stack */
    EAR_UI_EVENT_KIND_COUNT
} ear_ui_event_kind;

/* One event from the UI module (include/earshot/ui.h): what happened, in which widget,
 * to which item, and the item's value as a value: a slider's number, a choice's index,
 * a toggle's state, a text's text. Nothing in it needs parsing. The strings are copied
 * when posted and live until the end of the frame. */
typedef struct ear_ui_event {
    ear_ui_event_kind kind;
    const char *widget; /* the widget's id */
    const char *item;   /* the item's id; "" when the event concerns the whole widget */
    int position;       /* the item's place among the widget's items, from 0; -1 when
                           there is no item */
    bool checked;       /* toggles: checked */
    double number;      /* sliders: the value */
    int index;          /* choices: the chosen choice's index */
    const char *text;   /* text items and inputs: the text; choices: the choice's key;
                           "" otherwise */
} ear_ui_event;

/* A scene: callbacks with user data, every one optional. The runner copies the struct.
 * Only the top scene of the stack gets update, fixed_update and on_ui. */
typedef struct ear_scene {
    const char *name; /* for messages; borrowed, must outlive the scene */
    void (*start)(ear_ctx *ctx, void *user);
    void (*update)(ear_ctx *ctx, void *user);
    void (*fixed_update)(ear_ctx *ctx, void *user);
    void (*on_ui)(ear_ctx *ctx, const ear_ui_event *event, void *user);
    void (*end)(ear_ctx *ctx, void *user);
    /* The scene's declared state as a hash, for replays: equal hashes at every step
     * mean the replay reproduced the run. NULL: the scene declares no state. */
    uint64_t (*hash_state)(ear_ctx *ctx, void *user);
    void *user;
    /* The window was closed (or a script's quit): called once per close at the start of
     * the next frame, before its input and UI, so the scene can answer before anything
     * else in the frame acts: write a save and ear_quit, or ask the player and quit
     * later (the close is then theirs to refuse). NULL: the game quits at the end of that
     * frame, and the frame's UI events and scene changes are dropped, so a route chosen
     * in the same frame as the close never loads. Only the top scene is asked. */
    void (*close_requested)(ear_ctx *ctx, void *user);
} ear_scene;

typedef enum ear_backend {
    EAR_BACKEND_SDL2 = 0, /* a window, keyboard and a frame timer (the default) */
    EAR_BACKEND_HEADLESS, /* scripted keys, one fixed step per frame, no window */
    /* The browser (the web build only): keys and focus from the page's game area, one
     * frame per animation frame, sound through the page's audio, speech into its live
     * regions (docs/web.md). The web build runs EAR_BACKEND_SDL2 games here too. */
    EAR_BACKEND_WEB,
} ear_backend;

/* ---- Headless scripts ------------------------------------------------------------- */

typedef enum ear_script_action {
    EAR_SCRIPT_DOWN = 1, /* key goes down */
    EAR_SCRIPT_UP,       /* key goes up */
    EAR_SCRIPT_PRESS,    /* down and up in the same frame */
    EAR_SCRIPT_TEXT,     /* text typed */
    EAR_SCRIPT_FOCUS_LOST,
    EAR_SCRIPT_FOCUS_GAINED,
    EAR_SCRIPT_QUIT,           /* the window is closed */
    EAR_SCRIPT_PAD_CONNECT,    /* a gamepad is plugged in (slot 0) */
    EAR_SCRIPT_PAD_DISCONNECT, /* and unplugged */
    EAR_SCRIPT_PAD_DOWN,       /* its button `control` goes down */
    EAR_SCRIPT_PAD_UP,
    EAR_SCRIPT_PAD_PRESS, /* down and up in the same frame */
    EAR_SCRIPT_PAD_AXIS,  /* its axis `control` moves to `value` (-1..1) */
} ear_script_action;

typedef struct ear_script_event {
    uint64_t frame; /* queued before this frame (frames count from 0) */
    ear_script_action action;
    ear_key key;
    const char *text; /* EAR_SCRIPT_TEXT */
    int control;      /* pad events: an ear_pad_button or ear_pad_axis */
    float value;      /* EAR_SCRIPT_PAD_AXIS */
} ear_script_event;

/* What a headless run does, frame by frame. Events need not be sorted. */
typedef struct ear_script {
    const ear_script_event *events;
    size_t count;
} ear_script;

/* Parses the text form, one event per line ('#' starts a comment):
 *
 *     <frame> down <KEY>       10 down SPACE
 *     <frame> up <KEY>         12 up SPACE
 *     <frame> press <KEY>      20 press F1
 *     <frame> text <text>      30 text hello world
 *     <frame> focus_lost | focus_gained | quit
 *
 * Key names are ear_key_name's. Writes a script that owns its events and texts; free it
 * with ear_script_free. EAR_E_FORMAT with the line number in `error` (may be NULL) for a
 * bad line; EAR_E_OUT_OF_MEMORY. Thread: any. */
ear_result ear_script_parse(const char *text, ear_script *out_script, char *error,
                            size_t error_size);
/* Frees a parsed script. Thread: any (the script's holder). */
void ear_script_free(ear_script *script);

/* ---- Engine settings ---------------------------------------------------------------- */

/* Hooks for modules that arrive later (UI, world, audio device). All optional. */
typedef void (*ear_engine_ui_fn)(ear_ctx *ctx, void *user);
typedef void (*ear_engine_world_sync_fn)(ear_ctx *ctx, void *user);
/* Called once by the SDL2 backend after the window opens, unless muted: starts playing
 * the stage on a sound card (src/audio/device: ear_device_open). Returns EAR_OK and a
 * device handle only when something will be heard (ear_device_is_audible); otherwise an
 * error, having closed what it opened: the runner then renders the stage itself and
 * speech does not choose espeak-ng. */
typedef ear_result (*ear_engine_audio_attach_fn)(ear_stage *stage, void *user,
                                                 void **out_device);
/* Called once a frame in world sync while a device is attached (ear_device_update). */
typedef void (*ear_engine_audio_update_fn)(void *device, void *user);
/* Called when the runner is destroyed, after speech stops (ear_device_close). */
typedef void (*ear_engine_audio_detach_fn)(void *device, void *user);

typedef struct ear_engine_config {
    const char *title;       /* window title; default "Earshot" */
    double step_hz;          /* fixed steps per second; default 60 (1..10000) */
    double frame_hz;         /* SDL2: frames per second; default 60 */
    uint32_t max_steps;      /* fixed steps a frame at most; default 8 */
    double max_frame_s;      /* a frame's time is clamped to this; default 0.25 */
    const char *language;    /* engine language setting; default NULL (locale) */
    const char *lang_dir;    /* translations folder; default NULL (built-in only) */
    const char *assets_dir;  /* sounds are <assets_dir>/sounds/<name>; default NULL:
                                "assets" */
    const char *save_path;   /* save file; default NULL (in memory). Headless: always
                                in memory */
    const void *save_secret; /* encrypts the save when set; default NULL */
    size_t save_secret_size;
    bool mute;                     /* default false. Muted: a stage still exists, nobody
                                      plays it */
    bool pause_on_focus_loss;      /* default true (EAR_PAUSE_FOCUS) */
    ear_backend backend;           /* default EAR_BACKEND_SDL2 */
    const ear_stage_config *stage; /* default NULL: the stage's defaults */
    /* The game's physics world (ear_ctx_physics); default NULL: its defaults. */
    const ear_physics_config *physics;
    ear_speech_config speech; /* default ear_speech_config_default(); headless runs
                                 force log_only */
    /* Headless: the script, and how many frames to run (0: until quit). SDL2 takes them
     * too (a smoke run under SDL's dummy drivers): quit and the frame count close the
     * window's run as its close button does. */
    const ear_script *script;
    uint64_t frames;
    /* Replays: record this run's input per fixed step to record_path, or play
     * replay_path back (headless, checking the state hash at every step). NULL: off. */
    const char *record_path;
    const char *replay_path;
    /* Hooks. */
    ear_engine_ui_fn ui;
    ear_engine_world_sync_fn world_sync;
    ear_engine_audio_attach_fn audio_attach;
    ear_engine_audio_update_fn audio_update;
    ear_engine_audio_detach_fn audio_detach;
    void *hook_user;
    /* The UI module's object (ear_ui_attach sets it): the ui hook gets it instead of
     * hook_user when set, and ear_ctx_ui_user returns it. Default NULL. */
    void *ui_user;
} ear_engine_config;

/* The defaults above with that title (borrowed). Thread: any. */
ear_engine_config ear_engine_config_default(const char *title);

/* Runs the game until it quits: builds a runner, hands it to the backend, destroys it
 * (every scene ends, the save is written). Returns EAR_OK, a creation error, the
 * backend's error (EAR_E_UNSUPPORTED: no display), EAR_E_STATE when a replay diverged
 * (the step is logged), or EAR_E_IO when the last save or the recording could not be
 * written (ear_runner_finish). Thread: the one that will own the game (the main thread).
 * The web build: a windowed game does not return while it runs; the browser's animation
 * frames run it (main's locals stay valid) and the runner ends when the game quits. */
ear_result ear_engine_run(const ear_engine_config *config, const ear_scene *first_scene);

/* ear_engine_run as a process exit code: 0 on success, 1 on failure (logged).
 * Thread: the one that will own the game (the main thread). */
int ear_run(const ear_engine_config *config, const ear_scene *first_scene);

/* The smallest game: a scene whose update is fn, with the default settings.
 * Thread: the one that will own the game (the main thread). */
typedef void (*ear_update_fn)(ear_ctx *ctx, void *user);
int ear_run_fn(const char *title, ear_update_fn fn);

/* ---- The runner (for backends and tests) --------------------------------------------- */

typedef struct ear_runner ear_runner;

/* Builds the context (storage, language, stage, speech, input, time) and the stack with
 * first_scene, which starts on the first frame. Fails with EAR_E_INVALID_ARG (NULL
 * scene, bad step rate), EAR_E_OUT_OF_MEMORY, or the error of a part (the replay file,
 * the stage). Thread: game. */
ear_result ear_runner_create(const ear_engine_config *config, const ear_scene *first_scene,
                             ear_runner **out_runner);
/* Ends the scenes still running, saves when dirty and finishes the recording (renames it
 * over record_path): EAR_E_IO (logged) when the save or the recording could not be
 * written (a full disk, /dev/full), else EAR_OK. Done once; later calls return EAR_OK.
 * ear_engine_run returns its error when the run itself succeeded. Thread: game. */
ear_result ear_runner_finish(ear_runner *runner);
/* ear_runner_finish unless it ran, then frees everything. NULL does nothing.
 * Thread: game. */
void ear_runner_destroy(ear_runner *runner);

/* One frame at real time now_s (seconds, any monotonic origin). Does nothing once the
 * runner stopped. Thread: game. */
void ear_runner_frame(ear_runner *runner, double now_s);
/* False once the game quit (or the scene stack emptied). Thread: game. */
bool ear_runner_running(const ear_runner *runner);
/* When the next frame is due: the last frame's time plus one period (frame_hz).
 * Thread: game. */
double ear_runner_next_frame_s(const ear_runner *runner);

/* What a backend reports. Thread: game. */
void ear_runner_key_down(ear_runner *runner, ear_key key);
void ear_runner_key_up(ear_runner *runner, ear_key key);
void ear_runner_text(ear_runner *runner, const char *utf8);
void ear_runner_focus_lost(ear_runner *runner);
void ear_runner_focus_gained(ear_runner *runner);
/* Gamepads (see input.h): a pad plugged into slot `pad` (0..EAR_PAD_MAX-1), unplugged,
 * a button, an axis's raw value. Thread: game. */
void ear_runner_pad_added(ear_runner *runner, uint8_t pad, bool can_rumble);
void ear_runner_pad_removed(ear_runner *runner, uint8_t pad);
void ear_runner_pad_button(ear_runner *runner, uint8_t pad, ear_pad_button button, bool down);
void ear_runner_pad_axis(ear_runner *runner, uint8_t pad, ear_pad_axis axis, int16_t value);
/* Queues one script line the way the headless backend does (a game with its own frame
 * loop uses it): a press is a down and an up in the same frame, pad lines drive pad
 * slot 0, quit closes the runner. Thread: game. */
void ear_runner_queue_script_event(ear_runner *runner, const ear_script_event *event);
/* The window was closed: the next frame asks the top scene (ear_scene.close_requested)
 * or, without one, quits at its end. Thread: game. */
void ear_runner_close(ear_runner *runner);

/* Headless mode: each frame runs exactly one fixed step whatever the clock says (smoke
 * runs, scripts and replays). Set by the headless backend, and by the web backend when
 * the page asks (Module.earOneStepPerFrame, docs/web.md). Thread: game. */
void ear_runner_set_one_step_per_frame(ear_runner *runner, bool on);

/* The runner's context (borrowed, valid while the runner lives). Thread: game. */
ear_ctx *ear_runner_ctx(ear_runner *runner);
/* Frames run and fixed steps taken. Thread: game. */
uint64_t ear_runner_frames(const ear_runner *runner);
uint64_t ear_runner_steps(const ear_runner *runner);
/* The hash of the last fixed step (scene state, the physics world's state and, when
 * recording or replaying headless, the stage's output during that step); 0 before the
 * first step. Thread: game. */
uint64_t ear_runner_step_hash(const ear_runner *runner);
/* A replay's first diverging step, or UINT64_MAX when none diverged (or no replay).
 * Thread: game. */
uint64_t ear_runner_replay_mismatch(const ear_runner *runner);
/* True once a replay has no more steps (the headless backend then stops). Thread: game. */
bool ear_runner_replay_done(const ear_runner *runner);
/* Attaches a device handle (from audio_attach) so destroy detaches it. Thread: game. */
void ear_runner_set_audio_device(ear_runner *runner, void *device);

/* ---- Replays ------------------------------------------------------------------------ */

/* Replay files: "EARSHOT-REPLAY\n\0" magic, a format version, the step rate and one row
 * per fixed step (its state hash and the input events that step saw). The layout is in
 * docs/modules/runtime.md. */
#define EAR_REPLAY_VERSION 1

typedef struct ear_replay ear_replay;

/* Reads a replay file. A file that is not a replay, or a capture from an older or
 * unknown format version, is refused with EAR_E_FORMAT and a message in error (may be
 * NULL) that names the file and the version ("replay 'x.rep' is format version 0; this
 * engine reads version 1: record it again"); also logged. EAR_E_NOT_FOUND, EAR_E_IO,
 * EAR_E_OUT_OF_MEMORY. Thread: any. */
ear_result ear_replay_load(const char *path, ear_replay **out_replay, char *error,
                           size_t error_size);
/* Frees a replay (NULL does nothing); its steps and step rate. Thread: any (a loaded
 * replay is read-only; free it where it is held). */
void ear_replay_free(ear_replay *replay);
uint64_t ear_replay_steps(const ear_replay *replay);
double ear_replay_step_hz(const ear_replay *replay);
/* The recorded hash of step index (0-based); 0 out of range.
 * Thread: any (a loaded replay is read-only). */
uint64_t ear_replay_step_hash(const ear_replay *replay, uint64_t index);
/* Whether the hashes include the stage's output (recorded headless).
 * Thread: any (a loaded replay is read-only). */
bool ear_replay_hashes_stage(const ear_replay *replay);

/* ---- The context: what a scene sees ------------------------------------------------- */

/* The engine's clocks and input (owned by the runner, borrowed). Thread: game. */
ear_time *ear_ctx_time(ear_ctx *ctx);
ear_input *ear_ctx_input(ear_ctx *ctx);
/* The engine's actions (actions.h; owned by the runner, updated once a frame right after
 * the input, step edges cleared after each fixed step). Thread: game. */
ear_actions *ear_ctx_actions(ear_ctx *ctx);
/* Makes the profile of that name active (NULL: none); a control held now is ignored
 * until let go. Activating the active profile again changes nothing. EAR_E_NOT_FOUND for
 * an unknown name. Thread: game. */
ear_result ear_ctx_use_profile(ear_ctx *ctx, const char *profile);
/* The engine's stage (always one, created with the config's stage settings). Thread: game. */
ear_stage *ear_ctx_stage(ear_ctx *ctx);
/* The engine's asset cache (sounds by name; see assets.h). Thread: game. */
ear_assets *ear_ctx_assets(ear_ctx *ctx);
/* The engine's translations, save store and speech (owned by the runner, borrowed).
 * Thread: game. */
ear_lang *ear_ctx_lang(ear_ctx *ctx);
ear_storage *ear_ctx_storage(ear_ctx *ctx);
ear_speech *ear_ctx_speech(ear_ctx *ctx);
/* The game's physics world: stepped once per fixed step before fixed_update, its events
 * cleared once a frame before the steps, so update sees the events of every step of the
 * frame. Owned by the runner. Thread: game. */
ear_physics *ear_ctx_physics(ear_ctx *ctx);
/* The audio world over the engine's stage, assets and physics (world.h): sources,
 * listeners, impact sounds and vehicles' sounds on the physics bodies. The runner syncs it
 * at the start of the world-sync phase, before the world_sync hook, and notes its drawing
 * poses after each fixed step. Owned by the runner. Thread: game. */
ear_world *ear_ctx_world(ear_ctx *ctx);

/* Seconds: in fixed_update the step (1 / step_hz), elsewhere this frame's game delta.
 * Thread: game. */
double ear_ctx_dt(const ear_ctx *ctx);
double ear_ctx_step_s(const ear_ctx *ctx);
/* How far drawing is between the last two steps: accumulator / step, in 0..1 (1 in
 * headless runs, which draw the latest step). Thread: game. */
double ear_ctx_alpha(const ear_ctx *ctx);
/* The frame number (0 on the first frame) and fixed steps taken so far. Thread: game. */
uint64_t ear_ctx_frame(const ear_ctx *ctx);
uint64_t ear_ctx_step(const ear_ctx *ctx);
/* True in a headless run (no window, one fixed step per frame). Thread: game. */
bool ear_ctx_headless(const ear_ctx *ctx);
/* The runner's hook user pointer. Thread: game. */
void *ear_ctx_hook_user(const ear_ctx *ctx);
/* The config's ui_user (the UI module's object), or NULL. Thread: game. */
void *ear_ctx_ui_user(const ear_ctx *ctx);

/* Keys. In fixed_update pressed / released are the step's edges (each press is seen by
 * exactly one step); elsewhere the frame's. Thread: game. */
bool ear_key_pressed(const ear_ctx *ctx, ear_key key);
bool ear_key_released(const ear_ctx *ctx, ear_key key);
bool ear_key_held(const ear_ctx *ctx, ear_key key);
bool ear_key_repeating(const ear_ctx *ctx, ear_key key, double delay_s, double every_s);
const char *ear_text_typed(const ear_ctx *ctx);

/* Actions (actions.h) of the active profile, by id. In fixed_update pressed / released
 * are the step's edges, as for keys; repeating follows the actions' repeat setting.
 * Thread: game. */
bool ear_action_pressed(const ear_ctx *ctx, int action);
bool ear_action_released(const ear_ctx *ctx, int action);
bool ear_action_held(const ear_ctx *ctx, int action);
bool ear_action_repeating(const ear_ctx *ctx, int action);
float ear_action_value(const ear_ctx *ctx, int action);
/* Rumbles every connected pad that can (see ear_input_pad_rumble). Thread: game. */
ear_result ear_pad_rumble(ear_ctx *ctx, float low, float high, uint32_t ms);

/* Sounds by name (ear_assets_play on the engine's assets and stage): a file under
 * <assets_dir>/sounds/, a registered clip, or a "synth:..." name. Returns the voice, or
 * EAR_VOICE_NONE when the sound cannot be found or played (warned once per name; the game
 * goes on, and EAR_VOICE_NONE reads as finished). ear_play_sound plays it flat and
 * centred, ear_play_at placed at a position in metres, ear_play_sound_with with params
 * (NULL: defaults). Thread: game. */
ear_voice_id ear_play_sound(ear_ctx *ctx, const char *name);
ear_voice_id ear_play_at(ear_ctx *ctx, const char *name, ear_vec3 position_m);
ear_voice_id ear_play_sound_with(ear_ctx *ctx, const char *name, const ear_play *params);

/* Speech shortcuts (ear_speech_speak and friends on the engine's speech). Thread: game. */
ear_result ear_say(ear_ctx *ctx, const char *text);
ear_result ear_say_queued(ear_ctx *ctx, const char *text);
ear_result ear_say_repeat_last(ear_ctx *ctx);
/* The game's own speech settings, for its settings menu: each applies to the engine's
 * speech at once and is kept in the save (keys speech.rate, speech.volume, speech.voice,
 * speech.punctuation), so it holds at the next start; a setting never made leaves the
 * player's own (speech-dispatcher's defaults, which Orca users set) alone. Rate and
 * volume -100 .. 100 (EAR_E_INVALID_ARG outside); a voice must be one of
 * ear_speech_voice_name's (EAR_E_NOT_FOUND, nothing saved); punctuation none .. all.
 * Errors of the store (EAR_E_OUT_OF_MEMORY) leave speech unchanged. Thread: game. */
ear_result ear_ctx_set_speech_rate(ear_ctx *ctx, int rate);
ear_result ear_ctx_set_speech_volume(ear_ctx *ctx, int volume);
ear_result ear_ctx_set_speech_voice(ear_ctx *ctx, const char *name);
ear_result ear_ctx_set_speech_punctuation(ear_ctx *ctx, ear_speech_punctuation punctuation);
/* Forgets the game's speech settings (removes the keys): from the next start the
 * player's own apply again (speech-dispatcher has no "back to the default" for a
 * running connection). Thread: game. */
void ear_ctx_use_player_speech_settings(ear_ctx *ctx);
/* Reads those keys from storage into config (the runner does this before speech
 * starts): each key present and valid sets its field (voice borrowed from the store,
 * valid until the key changes); a missing key leaves the field; a bad value is ignored
 * with a warning naming the key. NULL arguments do nothing. Thread: game. */
void ear_speech_settings_load(const ear_storage *storage, ear_speech_config *config);

/* A translated text (ear_lang_get on the engine's translations). Thread: game. */
const char *ear_tr(ear_ctx *ctx, const char *key);

/* Scene changes, applied after update in the order asked (scene copied). push starts
 * the new scene on top; pop ends the top one (an empty stack quits); switch ends the top
 * one and starts the new one in its place. EAR_E_STATE when 16 changes wait already.
 * Thread: game. */
ear_result ear_scene_push(ear_ctx *ctx, const ear_scene *scene);
ear_result ear_scene_pop(ear_ctx *ctx);
ear_result ear_scene_switch(ear_ctx *ctx, const ear_scene *scene);
/* Scenes on the stack. Thread: game. */
size_t ear_scene_depth(const ear_ctx *ctx);

/* Quits at the end of this frame (scenes end, the save is written); scene changes asked
 * for in the same frame are dropped, and so are its UI events not yet delivered. Thread:
 * game. */
void ear_quit(ear_ctx *ctx);
/* Writes the save at the end of this frame if it is dirty. Thread: game. */
void ear_ctx_request_save(ear_ctx *ctx);

/* UI hook side: posts an event for the top scene's on_ui this frame (strings copied).
 * EAR_E_STATE outside the ui phase or when 64 events wait. Thread: game. */
ear_result ear_ctx_post_ui_event(ear_ctx *ctx, const ear_ui_event *event);

#ifdef __cplusplus
}
#endif

#endif /* EARSHOT_ENGINE_H */
