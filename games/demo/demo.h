/* SPDX-License-Identifier: Zlib */
/*
 * The demo game "Earshot: Three Errands": the session (menus, routes, saves, pause
 * reasons) and the levels it plays, on the engine's public API only. main.c owns the
 * process (flags, the headless loop, the WAV and the summary); bot.c is the player that
 * only hears.
 */
#ifndef EARSHOT_DEMO_H
#define EARSHOT_DEMO_H

#include "earshot/engine.h"
#include "earshot/ui.h"

#include <stdbool.h>
#include <stdint.h>

#define DEMO_LEVELS 3

typedef struct demo demo;

/* Where the session goes after the frame that chose it. */
typedef enum demo_route {
    DEMO_ROUTE_NONE = 0,
    DEMO_ROUTE_PLAY,         /* start route_level (from the menu or level select) */
    DEMO_ROUTE_NEXT,         /* the level after this one */
    DEMO_ROUTE_REPLAY,       /* this level again (completion) */
    DEMO_ROUTE_RETRY,        /* this level again (game over, pause restart) */
    DEMO_ROUTE_LEVEL_SELECT, /* back to the main menu's level list */
    DEMO_ROUTE_MENU,         /* back to the main menu (Escape on completion, game over) */
    DEMO_ROUTE_EXIT,         /* quit the game */
} demo_route;

/* Loads an HRTF set into the stage (the native process: the audio/hrtf loader,
 * ear_hrtf_load, then ear_stage_set_hrtf; main.c). EAR_OK, or an error with the reason in
 * why (a sentence naming the file). Called once, the first time the headphones setting is
 * on: loading takes about 1.4 s of CPU. Thread: game. */
typedef ear_result (*demo_hrtf_loader)(void *user, ear_stage *stage, char *why, size_t cap);

typedef struct demo_options {
    const char *save_path;  /* NULL: no save file (in memory) */
    const char *language;   /* NULL: the save's, else English */
    int start_level;        /* 0: the main menu; 1..3: straight into that level */
    const char *assets_dir; /* the folder make_sounds wrote */
    /* The web build (docs/web.md): the sounds are made in memory when the scene starts
     * (demo_sounds_make, the same code make_sounds writes its files with) and registered
     * with the asset cache under their names, since the web build reads no sound files;
     * and the save is plain key = value (the web build has no libsodium). Both false
     * natively: the files, the encrypted save. */
    bool sounds_in_memory;
    bool plain_save;
    /* The web build: speech reaches the player only through their own screen reader (the
     * page's live regions), whose voice, volume and rate the game cannot set, so the
     * settings offer no speech volume or rate. False natively. */
    bool screen_reader_speech;
    /* Headphones (3D sound): the loader of the HRTF set; NULL when the build has none (the
     * web build, which has no libmysofa): the settings then do not offer the option and
     * voices are panned. */
    demo_hrtf_loader load_hrtf;
    void *hrtf_user;
    /* 0: the save's headphones setting (default off); 1: on, -1: off (--headphones,
     * --no-headphones; the setting is not changed in the save). */
    int headphones;
    /* Every line when its fate is known: said whole (EAR_SPEECH_EVENT_END) or cut
     * (EAR_SPEECH_EVENT_CUT, with the time and words said), repeats and history reads
     * included; times on the speech clock (the runner's real clock: the fixed frames in
     * a headless run). The speech log, and the bot's ears. */
    void (*on_line)(void *user, const ear_speech_event *line);
    void *line_user;
    /* A map file for level N + 1 in place of its own (--map FILE; NULL: the level's), in
     * the same characters, every line of it the map; read each time the level loads. A
     * map that is wrong (a character that is not a tile, no start or no goal) is not
     * loaded: the game says why, naming the file, line and column, and stays where it was. */
    const char *map_files[DEMO_LEVELS];
    /* The folder with the game's data: levels/ (level1.level ...) and lang/ (en.lang,
     * de.lang). NULL: assets_dir (the build copies both into the assets folder). */
    const char *data_dir;
} demo_options;

/* Creates the game (its save is read here: a tampered save is set aside as .broken and
 * the game starts from defaults, saying so once the first scene starts). NULL on no
 * memory. Thread: game. */
demo *demo_create(const demo_options *options);
void demo_destroy(demo *d);
/* The session's scene (its callbacks take d). */
ear_scene demo_scene(demo *d);
/* The hooks the session needs in the engine config (world_sync, hook_user). */
void demo_configure(demo *d, ear_engine_config *cfg);
/* The window was closed: one Exit, replacing any route chosen this frame. */
void demo_close(demo *d);
/* The hash of the audio rendered so far (main.c's), folded into the scene's state hash. */
void demo_set_audio_hash(demo *d, uint64_t hash);
/* The game's text for key in language ("en", "de"; else English) into out (cut at cap),
 * from its lang/ files. False (out empty) for an unknown key. Thread: game. */
bool demo_text(demo *d, const char *language, const char *key, char *out, size_t cap);
/* The translation key of level's title ("level1"; 1-based), from its level file. */
const char *demo_level_title_key(const demo *d, int level);
/* The language the game speaks ("en" or "de": --lang, else the save's). Thread: game. */
const char *demo_language(const demo *d);

typedef struct demo_result {
    int level;         /* the last level played (1-based), 0 if none */
    bool finished;     /* it was completed */
    double time_s;     /* its time */
    long score;        /* its score */
    int levels_done;   /* levels completed in this run */
    uint64_t loads;    /* the asset cache's loads */
    int save_failures; /* saves that could not be written (said "Could not save") */
} demo_result;
demo_result demo_get_result(const demo *d);
/* Loads counted by the cache when each level had loaded (for tests, printed by main). */
uint64_t demo_loads_at_level_start(const demo *d, size_t index);
size_t demo_level_starts(const demo *d);
/* The room each level start was heard in, as the stage and the world reported it once the
 * ear was in the level's zone: "level=2 zone=cellar room=cave rt60=3.50" (the room is the
 * preset whose parameters the stage's room equals, else "custom"). NULL past the end.
 * Thread: game. */
const char *demo_room_at(const demo *d, size_t index);
/* Whether the headphones setting is on (the option, else the save's). Thread: game. */
bool demo_headphones(const demo *d);
/* Whether the player is in the car (a level with one is being played). */
bool demo_driving(const demo *d);

#endif
