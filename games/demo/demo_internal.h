/* SPDX-License-Identifier: Zlib */
/*
 * The demo game's insides, shared by its files (docs/game.md, "Files"): the session's state
 * (struct demo) and the calls its parts make into each other. session.c (the scene, saves,
 * settings, texts, routes) calls into menus.c (the UI widgets and their events), play.c (a
 * level being played: steps, goals, the keys' read-outs) and level_world.c (a level into
 * the world and out: its sounds, bodies, room); those three use session.c's small helpers
 * (say, report, the save), play.c and level_world.c open menus and menus.c closes a level,
 * so the calls do not yet go one way (docs/game.md, "Not done yet"). levels.c reads the
 * level files. Only the engine's public headers, as every game.
 */
#ifndef EARSHOT_DEMO_INTERNAL_H
#define EARSHOT_DEMO_INTERNAL_H

#include "demo.h"
#include "levels.h"

#include "earshot/assets.h"
#include "earshot/mixer.h"
#include "earshot/level.h"
#include "earshot/physics.h"
#include "earshot/storage.h"
#include "earshot/world.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_THINGS 16
#define WALK_MPS   2.0f
#define TURN_DPS   90.0f
#define STEP_M     0.6f
#define REACH_M    0.8f
#define LIVES      3

/* Sends to the level's room (mixer.h's reverb): what happens in the place rings in it. The
 * cues to act on stay dry: the guide bell (to steer by) and the drone's hum (its approach:
 * with a send of 0.25 the cave's tail filled the hall with its hum and the bot, which waits
 * while the hum rises, took 45.3 s for the cellar instead of 31.3); so do the menus,
 * speech, music and the flat feedback sounds (collect, fanfare, hurt). */
#define SEND_STEP   0.5f /* footsteps */
#define SEND_BUMP   0.6f /* walking into a wall */
#define SEND_WALL   0.2f /* the near-wall ticks */
#define SEND_CRATE  0.6f /* the crate's knock and scrape */
#define SEND_THING  0.3f /* sparkles, the radio, the beacon */
#define SEND_HAZARD 0.0f /* dry: see above */

/* The languages the game speaks: their labels' keys and codes (session.c). */
extern const char *const demo__language_choices[2];
extern const char *const demo__language_codes[2];

/* ---- State ---------------------------------------------------------------------------- */

typedef enum thing_kind { THING_PICKUP, THING_RADIO, THING_GOAL } thing_kind;

typedef struct thing {
    thing_kind kind;
    ear_vec3 pos;
    ear_body_id body;
    bool done;
} thing;

typedef struct hazard {
    ear_body_id body;
    float min_x, max_x, speed;
} hazard;

typedef struct settings {
    double master, music, sound, speech; /* percent */
    int rate;                            /* -100 .. 100 */
    /* Whether the player moved the speech volume / rate slider: until then the screen
     * reader's own settings are heard and nothing is sent (docs/modules/speech.md). */
    bool speech_chosen, rate_chosen;
    int language;                          /* index into demo__language_codes */
    bool headphones;                       /* 3D sound (HRTF) on headphones */
    double repeat_delay_s, repeat_every_s; /* menus: a held Up / Down repeats after, every */
} settings;

typedef enum screen { SCREEN_MENU, SCREEN_GAME } screen;

/* The action and profile ids of controls.c. */
typedef struct demo_controls {
    int menus, foot, drive;
    int ui_up, ui_down, ui_left, ui_right, ui_confirm, ui_back;
    int walk_forward, walk_back, turn_left, turn_right;
    int gas, brake, steer_left, steer_right;
    int pause, repeat, where, status;
} demo_controls;

struct demo {
    demo_options opt;
    char data_dir[512]; /* levels/ and lang/ are in it */
    /* the levels, read from their files at the start; a level whose file could not be
     * read or is wrong cannot be played: why says why, when it is chosen */
    demo_level levels[DEMO_LEVELS];
    bool level_ok[DEMO_LEVELS];
    char level_why[DEMO_LEVELS][400];
    ear_lang *texts; /* the game's texts (the .lang files in lang/) for demo_text */
    bool texts_ok;
    ear_storage *save;
    bool save_broken;
    settings set;
    demo_controls ctl;
    ear_actions *actions; /* the engine's (the Controls screen reads and changes them) */
    int rebinding;        /* the Controls screen's action being rebound, -1: none */
    ear_binding pending;  /* its new binding while a conflict is asked about */
    screen screen;
    demo_route route;
    int route_level; /* 1-based for DEMO_ROUTE_PLAY */
    bool closing;
    uint64_t audio_hash;
    bool reported; /* the game reported something this frame: the next menu waits for it */

    /* the level being played */
    int level; /* 1-based, 0: none */
    ear_level *map;
    ear_body_id player, guide, car;
    thing things[MAX_THINGS];
    size_t thing_count, current;
    hazard hazards[4];
    size_t hazard_count;
    ear_body_id crates[4];
    size_t crate_count;
    double time_s;
    long score;
    int lives;
    double hurt_until_s, bump_ready_s, wall_next_s;
    float walked_m;
    bool completed, game_over, paused_by_player, settings_open;
    bool focus_lost;      /* the focus-loss sentence was said (its return is said once) */
    ear_clip *menu_music; /* the session holds the menu's music from the first menu on */
    int steps_since_guide;
    /* assets held by the current level (names) */
    char held[24][40];
    ear_clip *held_clip[24];
    size_t held_count;
    uint64_t level_loads[64];
    size_t level_starts;
    /* headphones: the HRTF set is loaded once, the first time it is wanted */
    bool hrtf_loaded, hrtf_failed, spatializer_sent;
    ear_spatializer spatializer; /* the stage's, as last set */
    char hrtf_why[512];          /* why it could not be loaded */
    /* the room each level start was heard in (demo_room_at) */
    char rooms[64][96];
    size_t room_count;
    bool room_pending; /* the level started, its room not noted yet */
    /* results */
    demo_result result;
};

/* controls.c: the actions and profiles, the profile of the moment, the pad's hot-plug */
void demo__define_controls(ear_ctx *ctx, demo *d);
void demo__choose_profile(ear_ctx *ctx, demo *d);
void demo__controls_frame(ear_ctx *ctx, demo *d);
void demo__open_controls(ear_ctx *ctx, demo *d);
bool demo__controls_on_ui(ear_ctx *ctx, demo *d, const ear_ui_event *e);

/* session.c: the small helpers (speech, reports, formats) and the save */
void demo__say(ear_ctx *ctx, const char *text);
void demo__say_fmt(ear_ctx *ctx, const char *key, const ear_lang_arg *args, size_t n);
void demo__report(ear_ctx *ctx, demo *d, const char *text);
void demo__report_fmt(ear_ctx *ctx, demo *d, const char *key, const ear_lang_arg *args,
                      size_t n);
ear_lang_arg demo__arg_s(const char *name, const char *value);
void demo__fmt_time(char *out, size_t cap, double s, bool de);
bool demo__is_german(demo *d);
void demo__store_settings(demo *d);
bool demo__write_save(ear_ctx *ctx, demo *d);
void demo__apply_headphones(ear_ctx *ctx, demo *d, bool spoken);
void demo__apply_settings(ear_ctx *ctx, demo *d);
void demo__load_settings(demo *d);

/* level_world.c: a level into the world and out */
void demo__release_level_assets(ear_ctx *ctx, demo *d);
void demo__note_room(ear_ctx *ctx, demo *d);
void demo__unload_level(ear_ctx *ctx, demo *d);
ear_level *demo__build_map(ear_ctx *ctx, demo *d, int level, char *why, size_t cap);
void demo__load_failed(ear_ctx *ctx, demo *d, int level, const char *why);
void demo__load_level(ear_ctx *ctx, demo *d, int level, ear_level *map);

/* menus.c: the menus and their events */
void demo__play_menu_music(ear_ctx *ctx, demo *d);
void demo__open_main_menu(ear_ctx *ctx, demo *d, const char *focus);
void demo__open_level_select(ear_ctx *ctx, demo *d);
void demo__open_menu_route(ear_ctx *ctx, demo *d);
void demo__open_pause_menu(ear_ctx *ctx, demo *d);
void demo__open_end_menu(ear_ctx *ctx, demo *d, bool complete, const char *note);
void demo__on_ui(ear_ctx *ctx, const ear_ui_event *e, void *user);

/* play.c: a level being played */
void demo__play_step(ear_ctx *ctx, demo *d);
void demo__speak_where(ear_ctx *ctx, demo *d);
void demo__speak_facing(ear_ctx *ctx, demo *d);
void demo__speak_status(ear_ctx *ctx, demo *d);
void demo__speak_speed(ear_ctx *ctx, demo *d);

#endif
