/* SPDX-License-Identifier: Zlib */
/*
 * The demo game's session and levels. One scene ("session") shows either the menus or a
 * level; menus are the UI module's widgets; a choice becomes a route that the session
 * consumes after the frame (in the world-sync hook), as 001's AppSession does.
 *
 * A level is an ASCII map (ear_level_build): '#' walls, 'P' the start, ',' grass,
 * '=' wood (else stone) under the feet, '*' a pickup (sparkles), 'R' a radio behind walls,
 * 'B' the beacon (the goal), 'H' a hazard that patrols its row, 'C' a crate, 'V' the car
 * (the player drives it), 'F' the finish of a drive. Objectives are found in order: the
 * radio, the pickups, then the beacon or the finish. A guide bell rings on the shortest
 * path (ear_level_find_path) a few metres ahead of the player, towards the objective.
 *
 * Each level is a place with a room (a reverb preset): a reverb zone over its whole map
 * (ear_world_set_reverb_zone) that the ear is in from the first sync. Footsteps, bumps,
 * wall ticks, the crate and the level's things send to it; the guide bell, the menus,
 * speech, music and the flat feedback sounds do not. On headphones (the setting, or
 * --headphones) placed voices go through the HRTF set (ear_stage_set_spatializer), loaded
 * once, the first time the setting is on.
 */
#include "demo.h"
#include "sounds.h"

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

/* ---- Levels --------------------------------------------------------------------------- */

typedef struct level_def {
    const char *title_key; /* translation key of the level's name */
    const char *intro_key;
    const char *music;
    const char *place; /* the reverb zone's name */
    const char *room;  /* its reverb preset (ear_reverb_preset_from_name) */
    float cell_m;
    bool drive;
    double par_s; /* the time bonus counts down from here */
    float fuel_l;
    const char *map;
} level_def;

static const level_def levels[DEMO_LEVELS] = {
    {"level1", "level1.intro", "garden", "garden", "outdoors", 1.0f, false, 60, 0,
     "##############\n"
     "#P,,,,,,,#...#\n"
     "#,,,,,,,,#.*.#\n"
     "#,,*,,,,,#...#\n"
     "#,,,,,,,,,,..#\n"
     "######==###..#\n"
     "#.....==.....#\n"
     "#.B...==.....#\n"
     "##############\n"},
    {"level2", "level2.intro", "cellar", "cellar", "cave", 1.0f, false, 90, 0,
     "################\n"
     "#P.....#.......#\n"
     "#......#...R...#\n"
     "#..C...#.......#\n"
     "#..............#\n"
     "#......#########\n"
     "#......#########\n"
     "#H.............#\n"
     "#####.##########\n"
     "#....*.........#\n"
     "#.........B....#\n"
     "################\n"},
    {"level3", "level3.intro", "road", "road", "outdoors", 2.0f, true, 60, 1.5f,
     "###############\n"
     "#V............#\n"
     "#.............#\n"
     "#...........  #\n"
     "#########.....#\n"
     "#########.....#\n"
     "#.............#\n"
     "#.............#\n"
     "#F..######....#\n"
     "###############\n"},
};

/* ---- Texts ---------------------------------------------------------------------------- */

static const char english[] =
    "title = Three Errands\n"
    "menu.main = Main menu\n"
    "menu.play = Play\n"
    "menu.levels = Choose a level\n"
    "menu.settings = Settings\n"
    "menu.help = Help\n"
    "menu.quit = Quit\n"
    "menu.back = Back\n"
    "menu.pause = Paused\n"
    "menu.resume = Resume\n"
    "menu.restart = Restart level\n"
    "menu.complete = Level complete\n"
    "menu.next = Next level\n"
    "menu.replay = Replay\n"
    "menu.exit = Exit\n"
    "menu.gameover = Game over\n"
    "menu.retry = Retry\n"
    "set.master = Master volume\n"
    "set.music = Music volume\n"
    "set.sound = Sound volume\n"
    "set.speech = Speech volume\n"
    "set.rate = Speech rate\n"
    "set.language = Language\n"
    "set.keys = Key help\n"
    "set.headphones = Headphones (3D sound)\n"
    "set.repeat_delay = Key repeat delay\n"
    "set.repeat_every = Key repeat interval\n"
    "quit.ask = Quit the game?\n"
    "load.failed = {level} could not be loaded: {why}\n"
    "load.stay = You stay in {current}.\n"
    "load.stay_menu = You are in the main menu.\n"
    "load.no_start = the map has no start ('{tile}').\n"
    "load.no_goal = the map has no goal ('{tile}').\n"
    "best = Best time {time} seconds.\n"
    "best.label = {level}, best time {time} seconds\n"
    "hrtf.unavailable = 3D sound unavailable: {why} Sounds are panned.\n"
    "lang.en = English\n"
    "lang.de = German\n"
    "level1 = Level 1: the garden\n"
    "level2 = Level 2: the cellar\n"
    "level3 = Level 3: the road\n"
    "level1.intro = Level 1: the garden. Follow the bell. Find two sparkles, then the beacon.\n"
    "level2.intro = Level 2: the cellar. Follow the bell. Find the radio, then the sparkle "
    "and the beacon beyond the hall. A humming drone patrols the hall: wait until it has "
    "passed.\n"
    "level3.intro = Level 3: the road. You are in the car. Up is gas, Down brakes, Left and "
    "Right steer. Follow the bell to the finish before the fuel runs out.\n"
    "found.pickup = Sparkle found.\n"
    "found.radio = Radio found.\n"
    "found.left = {n} to go.\n"
    "hurt = Ouch! {n} lives left.\n"
    "hurt.one = Ouch! 1 life left.\n"
    "complete = Level complete. Time {time} seconds. Score {score}.\n"
    "gameover = Game over. Score {score}.\n"
    "fuel.out = Out of fuel.\n"
    "where = {level}. The bell is {where}. {found} of {total} found. Time {time} seconds, "
    "score {score}.\n"
    "facing = Facing {compass}. The bell is at {clock}.\n"
    "speed = {speed}, gear {gear}, {fuel} liters of fuel.\n"
    "status = Time {time} seconds, score {score}, {lives} lives.\n"
    "status.one = Time {time} seconds, score {score}, 1 life.\n"
    "status.car = Time {time} seconds, score {score}. The car: {speed}, gear {gear} of "
    "{gears}, {fuel} of {tank} liters of fuel.\n"
    "speed.foot = You are on foot: S tells the car's speed, gear and fuel when you drive.\n"
    "keys = Up and Down walk, Left and Right turn. C says where you face, W where you are, T "
    "time and score, S the car's speed. F1 repeats, H reads the history. Escape pauses.\n"
    "keys.car = Up is gas, Down brakes and then reverses, Left and Right steer. S says speed, "
    "gear and fuel, T time, score and what the car has, W where you are, C where you face. F1 "
    "repeats, H reads the history. Escape pauses.\n"
    "help = Follow the guide bell: it rings a few steps ahead on the way to your next goal. "
    "Walls tick as you come near. Sparkles, the radio and the beacon are goals. Avoid the "
    "humming drone.\n"
    "save.broken = The save file was damaged and has been set aside. The game starts from the "
    "defaults.\n"
    "save.done = Saved.\n"
    "save.failed = Could not save.\n"
    "hint.follow = Follow the bell\n"
    "hint.car = You are in the car\n"
    "focus.lost = Paused: the window lost focus.\n"
    "focus.back = Resumed.\n"
    "focus.still = The window has focus again. Still paused.\n";

static const char german[] =
    "title = Drei Besorgungen\n"
    "menu.main = Hauptmenü\n"
    "menu.play = Spielen\n"
    "menu.levels = Level wählen\n"
    "menu.settings = Einstellungen\n"
    "menu.help = Hilfe\n"
    "menu.quit = Beenden\n"
    "menu.back = Zurück\n"
    "menu.pause = Pause\n"
    "menu.resume = Weiter\n"
    "menu.restart = Level neu starten\n"
    "menu.complete = Level geschafft\n"
    "menu.next = Nächstes Level\n"
    "menu.replay = Nochmal\n"
    "menu.exit = Ende\n"
    "menu.gameover = Spiel vorbei\n"
    "menu.retry = Neuer Versuch\n"
    "set.master = Gesamtlautstärke\n"
    "set.music = Musiklautstärke\n"
    "set.sound = Geräuschlautstärke\n"
    "set.speech = Sprachlautstärke\n"
    "set.rate = Sprechtempo\n"
    "set.language = Sprache\n"
    "set.keys = Tastenhilfe\n"
    "set.headphones = Kopfhörer (3D-Klang)\n"
    "set.repeat_delay = Tastenwiederholung nach\n"
    "set.repeat_every = Tastenwiederholung alle\n"
    "quit.ask = Spiel beenden?\n"
    "load.failed = {level} konnte nicht geladen werden: {why}\n"
    "load.stay = Du bleibst in {current}.\n"
    "load.stay_menu = Du bist im Hauptmenü.\n"
    "load.no_start = die Karte hat keinen Start ('{tile}').\n"
    "load.no_goal = die Karte hat kein Ziel ('{tile}').\n"
    "best = Bestzeit {time} Sekunden.\n"
    "best.label = {level}, Bestzeit {time} Sekunden\n"
    "hrtf.unavailable = 3D-Klang nicht verfügbar: {why} Die Geräusche werden gepannt.\n"
    "lang.en = Englisch\n"
    "lang.de = Deutsch\n"
    "level1 = Level 1: der Garten\n"
    "level2 = Level 2: der Keller\n"
    "level3 = Level 3: die Straße\n"
    "level1.intro = Level 1: der Garten. Folge der Glocke. Finde zwei Funken, dann das "
    "Leuchtfeuer.\n"
    "level2.intro = Level 2: der Keller. Folge der Glocke. Finde das Radio, dann den Funken "
    "und das Leuchtfeuer hinter der Halle. Eine brummende Drohne streift durch die Halle: "
    "warte, bis sie vorbei ist.\n"
    "level3.intro = Level 3: die Straße. Du sitzt im Auto. Pfeil hoch gibt Gas, Pfeil runter "
    "bremst, links und rechts lenken. Folge der Glocke ins Ziel, bevor der Tank leer ist.\n"
    "found.pickup = Funken gefunden.\n"
    "found.radio = Radio gefunden.\n"
    "found.left = Noch {n}.\n"
    "hurt = Autsch! Noch {n} Leben.\n"
    "hurt.one = Autsch! Noch 1 Leben.\n"
    "complete = Level geschafft. Zeit {time} Sekunden. Punkte {score}.\n"
    "gameover = Spiel vorbei. Punkte {score}.\n"
    "fuel.out = Der Tank ist leer.\n"
    "where = {level}. Die Glocke ist {where}. {found} von {total} gefunden. Zeit {time} "
    "Sekunden, Punkte {score}.\n"
    "facing = Blick nach {compass}. Die Glocke ist auf {clock}.\n"
    "speed = {speed}, Gang {gear}, {fuel} Liter im Tank.\n"
    "status = Zeit {time} Sekunden, Punkte {score}, {lives} Leben.\n"
    "status.one = Zeit {time} Sekunden, Punkte {score}, 1 Leben.\n"
    "status.car = Zeit {time} Sekunden, Punkte {score}. Das Auto: {speed}, Gang {gear} von "
    "{gears}, {fuel} von {tank} Litern im Tank.\n"
    "speed.foot = Du gehst zu Fuß: S sagt Tempo, Gang und Tank, wenn du fährst.\n"
    "keys = Pfeil hoch und runter gehen, links und rechts drehen. C sagt die Blickrichtung, W "
    "wo du bist, T Zeit und Punkte, S das Tempo des Autos. F1 wiederholt, H liest den Verlauf. "
    "Escape pausiert.\n"
    "keys.car = Pfeil hoch gibt Gas, Pfeil runter bremst und fährt dann rückwärts, links und "
    "rechts lenken. S sagt Tempo, Gang und Tank, T Zeit, Punkte und was das Auto hat, W wo du "
    "bist, C die Blickrichtung. F1 wiederholt, H liest den Verlauf. Escape pausiert.\n"
    "help = Folge der Glocke: sie klingt ein paar Schritte voraus auf dem Weg zum nächsten "
    "Ziel. Wände ticken, wenn du ihnen nahe kommst. Funken, das Radio und das Leuchtfeuer sind "
    "Ziele. Weiche der brummenden Drohne aus.\n"
    "save.broken = Der Spielstand war beschädigt und wurde beiseitegelegt. Das Spiel beginnt "
    "mit den Voreinstellungen.\n"
    "save.done = Gespeichert.\n"
    "save.failed = Speichern nicht möglich.\n"
    "hint.follow = Folge der Glocke\n"
    "hint.car = Du sitzt im Auto\n"
    "focus.lost = Pausiert: das Fenster hat den Fokus verloren.\n"
    "focus.back = Fortgesetzt.\n"
    "focus.still = Das Fenster hat wieder den Fokus. Weiter pausiert.\n";

static const char *const language_choices[] = {"lang.en", "lang.de"};
static const char *const language_codes[] = {"en", "de"};

bool demo_text(const char *language, const char *key, char *out, size_t cap) {
    const char *table = language && strcmp(language, "de") == 0 ? german : english;
    size_t klen = strlen(key);
    for (const char *line = table; *line;) {
        const char *end = strchr(line, '\n');
        if (!end) end = line + strlen(line);
        if (strncmp(line, key, klen) == 0 && strncmp(line + klen, " = ", 3) == 0) {
            const char *v = line + klen + 3;
            snprintf(out, cap, "%.*s", (int)(end - v), v);
            return true;
        }
        line = *end ? end + 1 : end;
    }
    if (cap) out[0] = '\0';
    return false;
}

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
    double master, music, sound, speech;   /* percent */
    int rate;                              /* -100 .. 100 */
    int language;                          /* index into language_codes */
    bool headphones;                       /* 3D sound (HRTF) on headphones */
    double repeat_delay_s, repeat_every_s; /* menus: a held Up / Down repeats after, every */
} settings;

typedef enum screen { SCREEN_MENU, SCREEN_GAME } screen;

struct demo {
    demo_options opt;
    ear_storage *save;
    bool save_broken;
    settings set;
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

/* ---- Small helpers -------------------------------------------------------------------- */

static void say(ear_ctx *ctx, const char *text) {
    ear_say(ctx, text);
    /* Speech that bypasses the stage (speech-dispatcher) still ducks the music. */
    ear_stage_trigger_duck(ear_ctx_stage(ctx), "speech", (float)(0.06 * (double)strlen(text)));
}

static void say_fmt(ear_ctx *ctx, const char *key, const ear_lang_arg *args, size_t n) {
    char text[600];
    if (ear_lang_format(ear_ctx_lang(ctx), key, args, n, text, sizeof text, NULL) != EAR_OK)
        snprintf(text, sizeof text, "%s", ear_tr(ctx, key));
    say(ctx, text);
}

/* What the game reports (a result, an error, a find, a level's intro) is not cut by what
 * follows it: it waits for what is being said (SSIP "message"), and a menu the game opens
 * in the same frame says its title after it (ear_ui_menu_set_after_speech). Only what
 * the player asks for (a key, a menu move) interrupts (docs/game.md, "Speech"). */
static void report(ear_ctx *ctx, demo *d, const char *text) {
    ear_say_queued(ctx, text);
    ear_stage_trigger_duck(ear_ctx_stage(ctx), "speech", (float)(0.06 * (double)strlen(text)));
    d->reported = true;
}

static void report_fmt(ear_ctx *ctx, demo *d, const char *key, const ear_lang_arg *args,
                       size_t n) {
    char text[600];
    if (ear_lang_format(ear_ctx_lang(ctx), key, args, n, text, sizeof text, NULL) != EAR_OK)
        snprintf(text, sizeof text, "%s", ear_tr(ctx, key));
    report(ctx, d, text);
}

static ear_lang_arg arg_s(const char *name, const char *value) {
    ear_lang_arg a = {0};
    a.name = name;
    a.value = value;
    return a;
}

static void fmt_time(char *out, size_t cap, double s, bool de) {
    snprintf(out, cap, "%.1f", s);
    if (de)
        for (char *p = out; *p; p++)
            if (*p == '.') *p = ',';
}

static bool is_german(demo *d) {
    return d->set.language == 1;
}

/* ---- Saves ---------------------------------------------------------------------------- */

static const char save_secret[] = "earshot-demo-three-errands-v1";

static void load_settings(demo *d) {
    ear_storage *s = d->save;
    d->set.master = ear_storage_get_double(s, "settings.master", 100);
    d->set.music = ear_storage_get_double(s, "settings.music", 60);
    d->set.sound = ear_storage_get_double(s, "settings.sound", 100);
    d->set.speech = ear_storage_get_double(s, "settings.speech", 100);
    d->set.rate = (int)ear_storage_get_int(s, "settings.rate", 0);
    const char *lang = ear_storage_get_string(s, "settings.language", "en");
    d->set.language = strcmp(lang, "de") == 0 ? 1 : 0;
    d->set.headphones = ear_storage_get_bool(s, "settings.headphones", false);
    d->set.repeat_delay_s = ear_storage_get_double(s, "settings.repeat_delay", 0.5);
    d->set.repeat_every_s = ear_storage_get_double(s, "settings.repeat_every", 0.08);
    /* a value outside the sliders' ranges (an older or edited save) is the default */
    if (!(d->set.repeat_delay_s >= 0.2 && d->set.repeat_delay_s <= 1.0))
        d->set.repeat_delay_s = 0.5;
    if (!(d->set.repeat_every_s >= 0.04 && d->set.repeat_every_s <= 0.3))
        d->set.repeat_every_s = 0.08;
}

static void store_settings(demo *d) {
    ear_storage *s = d->save;
    ear_storage_set_double(s, "settings.master", d->set.master);
    ear_storage_set_double(s, "settings.music", d->set.music);
    ear_storage_set_double(s, "settings.sound", d->set.sound);
    ear_storage_set_double(s, "settings.speech", d->set.speech);
    ear_storage_set_int(s, "settings.rate", d->set.rate);
    ear_storage_set_string(s, "settings.language", language_codes[d->set.language]);
    ear_storage_set_bool(s, "settings.headphones", d->set.headphones);
    ear_storage_set_double(s, "settings.repeat_delay", d->set.repeat_delay_s);
    ear_storage_set_double(s, "settings.repeat_every", d->set.repeat_every_s);
}

/* Writes the save when it changed and has a file; true when it was written (a run
 * without a save file keeps its progress in memory: nothing is written, nothing said).
 * A save that fails (a full disk) is said to the player and counted (main exits 1). */
static bool write_save(ear_ctx *ctx, demo *d) {
    if (!d->opt.save_path || !ear_storage_is_dirty(d->save) || !ear_storage_can_save(d->save))
        return false;
    if (ear_storage_save(d->save) == EAR_OK) return true;
    d->result.save_failures++;
    ear_log(EAR_LOG_ERROR, "demo", "%s", ear_storage_last_error(d->save));
    report(ctx, d, ear_tr(ctx, "save.failed"));
    return false;
}

bool demo_headphones(const demo *d) {
    return d->opt.headphones > 0 || (d->opt.headphones == 0 && d->set.headphones);
}

/* Headphones: the HRTF set is loaded the first time the setting is on (about 1.4 s of CPU,
 * once a run, never per level); then the stage's placed voices go through it. A set that
 * cannot be loaded is said ("3D sound unavailable: ...", again each time the player turns
 * the setting on) and the game goes on panning. `spoken`: say the failure now. */
static void apply_headphones(ear_ctx *ctx, demo *d, bool spoken) {
    ear_stage *st = ear_ctx_stage(ctx);
    bool on = demo_headphones(d) && d->opt.load_hrtf;
    if (on && !d->hrtf_loaded && !d->hrtf_failed) {
        d->hrtf_why[0] = '\0';
        if (d->opt.load_hrtf(d->opt.hrtf_user, st, d->hrtf_why, sizeof d->hrtf_why) == EAR_OK) {
            d->hrtf_loaded = true;
        } else {
            d->hrtf_failed = true;
            if (!d->hrtf_why[0])
                snprintf(d->hrtf_why, sizeof d->hrtf_why, "the set could not be loaded.");
            spoken = true;
        }
    }
    if (on && d->hrtf_failed && spoken) {
        ear_lang_arg a[1] = {arg_s("why", d->hrtf_why)};
        report_fmt(ctx, d, "hrtf.unavailable", a, 1);
    }
    ear_spatializer want = on && d->hrtf_loaded ? EAR_SPATIALIZER_HRTF : EAR_SPATIALIZER_PAN;
    if (!d->spatializer_sent || want != d->spatializer) {
        if (ear_stage_set_spatializer(st, want) == EAR_OK) {
            d->spatializer = want;
            d->spatializer_sent = true;
        }
    }
}

static void apply_settings(ear_ctx *ctx, demo *d) {
    ear_stage *st = ear_ctx_stage(ctx);
    ear_stage_set_bus_volume(st, EAR_BUS_MASTER, (float)(d->set.master / 100.0));
    ear_stage_set_bus_volume(st, EAR_BUS_SFX, (float)(d->set.sound / 100.0));
    ear_stage_set_bus_volume(st, EAR_BUS_ENGINE, (float)(d->set.sound / 100.0));
    ear_stage_set_bus_volume(st, EAR_BUS_AMBIENCE, (float)(d->set.sound / 100.0));
    ear_speech_set_volume(ear_ctx_speech(ctx), (int)(d->set.speech * 2 - 100));
    ear_speech_set_rate(ear_ctx_speech(ctx), d->set.rate);
    ear_lang_set_language(ear_ctx_lang(ctx), language_codes[d->set.language]);
    ear_ui_set_repeat(ear_ui_of(ctx), d->set.repeat_delay_s, d->set.repeat_every_s);
}

/* Music follows one rule: silent while the pause menu is up, otherwise at the music
 * volume (under completion and game over too, and in the settings, even over the pause
 * menu, so the music volume is heard as it is set). The settings are looked for at every
 * frame: they post no event as they open, so a flag kept from the last event was stale
 * until the first slider move, which then silenced the music. */
static void music_rule(ear_ctx *ctx, demo *d) {
    d->settings_open = ear_ui_is_open(ctx, "settings");
    bool silent = d->paused_by_player && !d->settings_open;
    float target = silent ? 0.0f : (float)(d->set.music / 100.0);
    ear_stage *st = ear_ctx_stage(ctx);
    if (fabsf(ear_stage_get_bus(st, EAR_BUS_MUSIC).volume - target) > 1e-6f)
        ear_stage_fade_bus(st, EAR_BUS_MUSIC, target, 0.2f);
}

/* Focus loss pauses the game clock (the runner's EAR_PAUSE_FOCUS); the player hears it
 * and hears its return: "Resumed", or "Still paused" when a player pause stays. */
static void focus_rule(ear_ctx *ctx, demo *d) {
    bool lost = (ear_ctx_time(ctx)->pause_reasons & EAR_PAUSE_FOCUS) != 0;
    if (lost == d->focus_lost) return;
    d->focus_lost = lost;
    if (lost)
        say(ctx, ear_tr(ctx, "focus.lost")); /* the player's doing: at once */
    else
        say(ctx, ear_tr(ctx, d->paused_by_player ? "focus.still" : "focus.back"));
}

demo *demo_create(const demo_options *options) {
    demo *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->opt = *options;
    ear_storage_config sc = ear_storage_config_default();
    sc.path = options->save_path;
    if (!options->plain_save) {
        sc.secret = save_secret;
        sc.secret_size = sizeof save_secret - 1;
    }
    if (ear_storage_create(&sc, &d->save) != EAR_OK) {
        free(d);
        return NULL;
    }
    d->save_broken = ear_storage_broken_path(d->save) != NULL;
    load_settings(d);
    if (options->language) d->set.language = strcmp(options->language, "de") == 0 ? 1 : 0;
    return d;
}

void demo_destroy(demo *d) {
    if (!d) return;
    ear_storage_destroy(d->save);
    free(d);
}

void demo_close(demo *d) {
    /* A close is never lost to a screen change: it replaces this frame's route. */
    d->route = DEMO_ROUTE_EXIT;
    d->closing = true;
}

void demo_set_audio_hash(demo *d, uint64_t hash) {
    d->audio_hash = hash;
}

const char *demo_language(const demo *d) {
    return language_codes[d->set.language];
}

demo_result demo_get_result(const demo *d) {
    return d->result;
}

uint64_t demo_loads_at_level_start(const demo *d, size_t index) {
    return index < d->level_starts ? d->level_loads[index] : 0;
}

size_t demo_level_starts(const demo *d) {
    return d->level_starts;
}

/* ---- Asset cache per level -------------------------------------------------------------- */

/* The sounds a level holds: acquired when it loads, released after the next has loaded,
 * then the cache trims what nobody holds. A replay acquires the same names again before
 * the release, so nothing is read twice. */
static const char *const walk_sounds[] = {
    "step_stone_1", "step_stone_2", "step_stone_3", "step_grass_1", "step_grass_2",
    "step_grass_3", "step_wood_1",  "step_wood_2",  "step_wood_3",  "wall_near",
    "bump",         "guide",        "beacon",       "sparkle",      "collect",
    "fanfare",      "hurt",         "radio",        "hazard",       "scrape",
    "crate_hit"};
static const char *const drive_sounds[] = {"guide",     "engine_low", "engine_high",
                                           "shift",     "crash",      "win",
                                           "wall_near", "fanfare",    "collect"};

static void swap_level_assets(ear_ctx *ctx, demo *d, int level) {
    ear_assets *a = ear_ctx_assets(ctx);
    const level_def *def = &levels[level - 1];
    const char *const *names = def->drive ? drive_sounds : walk_sounds;
    size_t n = def->drive ? sizeof drive_sounds / sizeof *drive_sounds
                          : sizeof walk_sounds / sizeof *walk_sounds;
    char old[24][40];
    ear_clip *old_clip[24];
    size_t old_count = d->held_count;
    memcpy(old, d->held, sizeof old);
    memcpy(old_clip, d->held_clip, sizeof old_clip);
    d->held_count = 0;
    for (size_t i = 0; i <= n && d->held_count < 24; i++) {
        const char *name = i < n ? names[i] : def->music;
        ear_clip *clip = NULL;
        if (ear_assets_acquire(a, name, &clip) == EAR_OK) {
            snprintf(d->held[d->held_count], sizeof d->held[0], "%s", name);
            d->held_clip[d->held_count++] = clip;
        }
    }
    for (size_t i = 0; i < old_count; i++) ear_assets_release(a, old_clip[i]);
    ear_assets_trim(a);
    if (d->level_starts < 64) d->level_loads[d->level_starts++] = ear_assets_get_stats(a).loads;
}

static ear_clip *held(demo *d, const char *name) {
    for (size_t i = 0; i < d->held_count; i++)
        if (strcmp(d->held[i], name) == 0) return d->held_clip[i];
    return NULL;
}

static void release_level_assets(ear_ctx *ctx, demo *d) {
    for (size_t i = 0; i < d->held_count; i++)
        ear_assets_release(ear_ctx_assets(ctx), d->held_clip[i]);
    d->held_count = 0;
}

/* Pools and blends need clips: registered once per level from the held clips. */
static void register_sound_sets(ear_ctx *ctx, demo *d) {
    ear_stage *st = ear_ctx_stage(ctx);
    const char *surfaces[] = {"stone", "grass", "wood"};
    for (int s = 0; s < 3; s++) {
        ear_pool_def pool = {0};
        snprintf(pool.name, sizeof pool.name, "steps_%s", surfaces[s]);
        for (int i = 1; i <= 3; i++) {
            char name[40];
            snprintf(name, sizeof name, "step_%s_%d", surfaces[s], i);
            ear_clip *c = held(d, name);
            if (c) pool.clips[pool.clip_count++] = c;
        }
        pool.volume_min = 0.6f;
        pool.volume_max = 0.8f;
        pool.pitch_semitones_min = -1;
        pool.pitch_semitones_max = 1;
        pool.no_repeat = true;
        pool.max_instances = 3;
        if (pool.clip_count) ear_stage_register_pool(st, &pool);
    }
    ear_clip *low = held(d, "engine_low"), *high = held(d, "engine_high");
    if (low && high) {
        ear_blend_def b = {0};
        snprintf(b.name, sizeof b.name, "car_engine");
        b.bus = EAR_BUS_ENGINE;
        b.volume = 0.7f;
        b.param_count = 2;
        b.params[0] = (ear_blend_param){"rpm", 800, 6000, 800};
        b.params[1] = (ear_blend_param){"load", 0, 1, 0};
        b.layer_count = 2;
        ear_blend_layer *l = &b.layers[0];
        l->clip = low;
        l->gain_count = 1;
        l->gain[0] =
            (ear_curve){"rpm", 3, {800, 2500, 4500}, {1, 0.6f, 0}, EAR_CURVE_EQUAL_POWER};
        l->pitch_count = 1;
        l->pitch[0] = (ear_curve){"rpm", 2, {800, 4500}, {1, 2.2f}, EAR_CURVE_LINEAR};
        l = &b.layers[1];
        l->clip = high;
        l->gain_count = 2;
        l->gain[0] =
            (ear_curve){"rpm", 3, {1500, 3500, 6000}, {0, 0.8f, 1}, EAR_CURVE_EQUAL_POWER};
        l->gain[1] = (ear_curve){"load", 2, {0, 1}, {0.7f, 1}, EAR_CURVE_LINEAR};
        l->pitch_count = 1;
        l->pitch[0] = (ear_curve){"rpm", 2, {1500, 6000}, {0.8f, 1.9f}, EAR_CURVE_LINEAR};
        ear_stage_register_blend(st, &b);
    }
}

/* ---- Building a level ----------------------------------------------------------------- */

/* The level's room: a reverb zone over its whole map (from a cell's edge to the far cell's,
 * 10 m up and down), the place's preset, reached in 0.25 s. The world sets the stage's room
 * at the next sync, once the ear is inside. */
static void set_room(demo *d, ear_world *w, const level_def *def) {
    ear_reverb_preset preset;
    ear_reverb_zone z = ear_reverb_zone_default(def->place);
    if (ear_reverb_preset_from_name(def->room, &preset) != EAR_OK ||
        ear_reverb_preset_params(preset, &z.room) != EAR_OK) {
        ear_log(EAR_LOG_ERROR, "demo", "level %s: no reverb preset \"%s\"", def->place,
                def->room);
        return;
    }
    uint32_t rows = ear_level_rows(d->map), cols = ear_level_columns(d->map);
    ear_vec3 a = ear_level_cell_center(d->map, 0, 0);
    ear_vec3 b = ear_level_cell_center(d->map, rows - 1, cols - 1);
    float h = def->cell_m * 0.5f;
    z.min_m = (ear_vec3){fminf(a.x, b.x) - h, -10.0f, fminf(a.z, b.z) - h};
    z.max_m = (ear_vec3){fmaxf(a.x, b.x) + h, 10.0f, fmaxf(a.z, b.z) + h};
    z.transition_s = 0.25f;
    if (ear_world_set_reverb_zone(w, &z) != EAR_OK)
        ear_log(EAR_LOG_ERROR, "demo", "level %s: its room could not be set", def->place);
    d->room_pending = true;
}

/* The room the ear is in, as the world and the stage report it, noted once per level
 * start (demo_room_at): the zone's name, the preset the stage's room equals, its RT60. */
static void note_room(ear_ctx *ctx, demo *d) {
    if (!d->room_pending || !d->level) return;
    const char *zone = ear_world_current_zone(ear_ctx_world(ctx));
    if (!zone) return; /* the ear is not in it yet: the next frame */
    d->room_pending = false;
    ear_reverb_params now = ear_stage_get_reverb(ear_ctx_stage(ctx));
    const char *name = "custom";
    for (int i = 0; i < EAR_REVERB_PRESET_COUNT; i++) {
        ear_reverb_params p;
        if (ear_reverb_preset_params((ear_reverb_preset)i, &p) == EAR_OK &&
            memcmp(&p, &now, sizeof p) == 0)
            name = ear_reverb_preset_name((ear_reverb_preset)i);
    }
    if (d->room_count < 64)
        snprintf(d->rooms[d->room_count++], sizeof d->rooms[0],
                 "level=%d zone=%s room=%s rt60=%.2f", d->level, zone, name,
                 (double)now.rt60_low_s);
}

const char *demo_room_at(const demo *d, size_t index) {
    return index < d->room_count ? d->rooms[index] : NULL;
}

static ear_body_id add_body(ear_physics *ph, const char *name, ear_body_kind kind, ear_vec3 pos,
                            float half, bool sensor) {
    ear_body_desc b = ear_body_desc_default();
    b.name = name;
    b.kind = kind;
    b.position_m = pos;
    b.half_extents_m = (ear_vec3){half, 0.5f, half};
    b.sensor = sensor;
    ear_body_id id = EAR_BODY_NONE;
    ear_physics_add_body(ph, &b, &id);
    return id;
}

static void set_loop(ear_world *w, ear_body_id body, const char *sound, float volume,
                     bool occlusion, float ref_m, float send) {
    ear_source s = ear_source_default();
    s.reverb_send = send;
    snprintf(s.sound, sizeof s.sound, "%s", sound);
    s.looping = true;
    s.volume = volume;
    s.occlusion = occlusion;
    s.attenuation.model = EAR_MODEL_INVERSE;
    s.attenuation.ref_distance_m = ref_m;
    s.attenuation.max_distance_m = 60;
    ear_world_set_source(w, body, &s);
}

static void unload_level(ear_ctx *ctx, demo *d) {
    (void)ctx;
    ear_physics *ph = ear_ctx_physics(ctx);
    ear_world *w = ear_ctx_world(ctx);
    ear_world_follow(w, EAR_BODY_NONE);
    /* the level's room goes with it (the stage's room comes back at the next sync) */
    ear_reverb_zone z;
    while (ear_world_reverb_zone_at(w, 0, &z) &&
           ear_world_remove_reverb_zone(w, z.name) == EAR_OK) {
    }
    d->room_pending = false;
    while (ear_physics_body_count(ph) > 0)
        ear_physics_remove_body(ph, ear_physics_body_at(ph, ear_physics_body_count(ph) - 1));
    ear_level_destroy(d->map);
    d->map = NULL;
    d->thing_count = d->hazard_count = d->crate_count = 0;
    d->player = d->guide = d->car = EAR_BODY_NONE;
}

static void open_main_menu(ear_ctx *ctx, demo *d, const char *focus);
static void open_pause_menu(ear_ctx *ctx, demo *d);
static void open_end_menu(ear_ctx *ctx, demo *d, bool complete, const char *note);
static void play_menu_music(ear_ctx *ctx, demo *d);

/* Builds a level's map (demo_options.maps[level - 1], else the built-in one) and checks
 * that it has what the level needs: its start and its goal. NULL on failure, with the
 * reason in why (the builder's "row 3, column 4: ..." or the missing tile). Nothing of
 * the level being played is touched, so a level that cannot load leaves it whole. */
static ear_level *build_map(ear_ctx *ctx, demo *d, int level, char *why, size_t cap) {
    const level_def *def = &levels[level - 1];
    const char *text = d->opt.maps[level - 1] ? d->opt.maps[level - 1] : def->map;
    ear_level *map = NULL;
    ear_level_error err;
    memset(&err, 0, sizeof err);
    if (ear_level_build(text, def->cell_m, 3.0f, &map, &err) != EAR_OK) {
        snprintf(why, cap, "%s.", err.message[0] ? err.message : "the map is not a map");
        return NULL;
    }
    uint32_t start = def->drive ? 'V' : 'P', goal = def->drive ? 'F' : 'B';
    if (ear_level_tile_count(map, start) == 0 || ear_level_tile_count(map, goal) == 0) {
        /* the builder's reasons are English (as the HRTF loader's); this one is the game's */
        bool no_start = ear_level_tile_count(map, start) == 0;
        char tile[2] = {(char)(no_start ? start : goal), '\0'};
        ear_lang_arg a[1] = {arg_s("tile", tile)};
        if (ear_lang_format(ear_ctx_lang(ctx), no_start ? "load.no_start" : "load.no_goal", a,
                            1, why, cap, NULL) != EAR_OK)
            snprintf(why, cap, "%s", tile);
        ear_level_destroy(map);
        return NULL;
    }
    return map;
}

/* A level that could not be loaded is said, with why, and the player stays where they
 * were: the level being played (its menu again: the completion or game-over menu, or the
 * pause menu, each of which closed as it was chosen), or the main menu. */
static void load_failed(ear_ctx *ctx, demo *d, int level, const char *why) {
    ear_log(EAR_LOG_ERROR, "demo", "level %d: %s", level, why);
    char text[800];
    ear_lang_arg a[2] = {arg_s("level", ear_tr(ctx, levels[level - 1].title_key)),
                         arg_s("why", why)};
    if (ear_lang_format(ear_ctx_lang(ctx), "load.failed", a, 2, text, sizeof text, NULL) !=
        EAR_OK)
        snprintf(text, sizeof text, "%s", why);
    char stay[300] = "";
    ear_lang_arg c[1] = {
        arg_s("current", d->map ? ear_tr(ctx, levels[d->level - 1].title_key) : "")};
    ear_lang_format(ear_ctx_lang(ctx), d->map ? "load.stay" : "load.stay_menu", c, 1, stay,
                    sizeof stay, NULL);
    snprintf(text + strlen(text), sizeof text - strlen(text), " %s", stay);
    /* A report: the menu reopened below says its title after it, never over it. */
    report(ctx, d, text);
    if (!d->map) {
        open_main_menu(ctx, d, NULL);
    } else if (d->completed || d->game_over) {
        open_end_menu(ctx, d, d->completed, NULL);
    } else if (d->paused_by_player) {
        open_pause_menu(ctx, d);
    }
}

/* Loads a level from its built map (build_map's, taken). */
static void load_level(ear_ctx *ctx, demo *d, int level, ear_level *map) {
    unload_level(ctx, d);
    const level_def *def = &levels[level - 1];
    swap_level_assets(ctx, d, level);
    register_sound_sets(ctx, d);
    ear_physics *ph = ear_ctx_physics(ctx);
    ear_world *w = ear_ctx_world(ctx);
    ear_physics_set_gravity(ph, (ear_vec3){0, 0, 0});
    d->map = map;
    ear_level_add_to_world(d->map, ph, NULL);
    set_room(d, w, def);
    d->level = level;
    d->time_s = 0;
    d->score = 0;
    d->lives = LIVES;
    d->current = 0;
    d->completed = d->game_over = false;
    d->hurt_until_s = d->bump_ready_s = d->wall_next_s = 0;
    d->walked_m = 0;
    float half_cell = def->cell_m * 0.5f;
    ear_vec3 c;
    uint32_t row, col;
    /* the player, or the car */
    if (def->drive) {
        ear_level_tile(d->map, 'V', 0, &c, &row, &col);
        ear_vehicle_config vc = ear_vehicle_config_default();
        vc.top_speed_mps = 9;
        vc.engine_force_n = 3000;
        vc.turn_radius_m = 3;
        vc.max_turn_rate_dps = 120;
        vc.gears = 3;
        vc.fuel_l = def->fuel_l;
        vc.fuel_capacity_l = def->fuel_l;
        vc.consumption_l_per_100km = 60;
        ear_body_desc b = ear_body_desc_default();
        b.name = "car";
        b.kind = EAR_BODY_KINEMATIC;
        b.position_m = (ear_vec3){c.x, 0.7f, c.z};
        b.half_extents_m = (ear_vec3){0.7f, 0.6f, 0.7f};
        b.mass_kg = 900;
        b.facing_deg = 90;
        b.vehicle = &vc;
        ear_physics_add_body(ph, &b, &d->car);
        d->player = d->car;
        ear_vehicle_sound vs = ear_vehicle_sound_default();
        snprintf(vs.blend, sizeof vs.blend, "car_engine");
        snprintf(vs.shift, sizeof vs.shift, "shift");
        snprintf(vs.crash, sizeof vs.crash, "crash");
        vs.volume = 0.5f;
        ear_world_set_vehicle_sound(w, d->car, &vs);
    } else {
        ear_level_tile(d->map, 'P', 0, &c, &row, &col);
        ear_body_desc b = ear_body_desc_default();
        b.name = "player";
        b.kind = EAR_BODY_KINEMATIC;
        b.position_m = (ear_vec3){c.x, 0.5f, c.z};
        b.half_extents_m = (ear_vec3){0.3f, 0.5f, 0.3f};
        b.facing_deg = 90; /* east */
        ear_physics_add_body(ph, &b, &d->player);
    }
    ear_world_follow(w, d->player);
    /* objectives in order: the radio, the pickups, then the goal */
    const uint32_t kinds[] = {'R', '*', def->drive ? 'F' : 'B'};
    const thing_kind tk[] = {THING_RADIO, THING_PICKUP, THING_GOAL};
    for (int k = 0; k < 3; k++) {
        for (size_t i = 0; i < ear_level_tile_count(d->map, kinds[k]); i++) {
            if (d->thing_count == MAX_THINGS) break;
            ear_level_tile(d->map, kinds[k], i, &c, &row, &col);
            thing *t = &d->things[d->thing_count++];
            t->kind = tk[k];
            t->pos = (ear_vec3){c.x, 0.5f, c.z};
            t->done = false;
            t->body = add_body(ph, "objective", EAR_BODY_FIXED, t->pos, 0.2f, true);
            const char *sound = tk[k] == THING_PICKUP  ? "sparkle"
                                : tk[k] == THING_RADIO ? "radio"
                                : def->drive           ? "win"
                                                       : "beacon";
            if (!def->drive || tk[k] != THING_GOAL)
                set_loop(w, t->body, sound, tk[k] == THING_RADIO ? 0.8f : 0.35f,
                         tk[k] == THING_RADIO, 1.0f, SEND_THING);
        }
    }
    /* hazards patrol their row between the walls */
    for (size_t i = 0; i < ear_level_tile_count(d->map, 'H') && d->hazard_count < 4; i++) {
        ear_level_tile(d->map, 'H', i, &c, &row, &col);
        hazard *h = &d->hazards[d->hazard_count++];
        uint32_t lo = col, hi = col;
        while (lo > 0 && ear_level_char_at(d->map, row, lo - 1) != '#') lo--;
        while (ear_level_char_at(d->map, row, hi + 1) != '#' &&
               hi + 1 < ear_level_columns(d->map))
            hi++;
        h->min_x = ear_level_cell_center(d->map, row, lo).x;
        h->max_x = ear_level_cell_center(d->map, row, hi).x;
        h->speed = 1.5f;
        ear_body_desc b = ear_body_desc_default();
        b.name = "drone";
        b.kind = EAR_BODY_KINEMATIC;
        b.sensor = true;
        b.position_m = (ear_vec3){c.x, 0.5f, c.z};
        b.velocity_mps = (ear_vec3){h->speed, 0, 0};
        b.half_extents_m = (ear_vec3){0.3f, 0.3f, 0.3f};
        ear_physics_add_body(ph, &b, &h->body);
        set_loop(w, h->body, "hazard", 0.6f, false, 1.5f, SEND_HAZARD);
    }
    /* crates slide when pushed, scrape while they move and knock when they hit */
    for (size_t i = 0; i < ear_level_tile_count(d->map, 'C') && d->crate_count < 4; i++) {
        ear_level_tile(d->map, 'C', i, &c, &row, &col);
        ear_body_desc b = ear_body_desc_default();
        b.name = "crate";
        b.position_m = (ear_vec3){c.x, 0.5f, c.z};
        b.half_extents_m = (ear_vec3){0.4f, 0.4f, 0.4f};
        b.mass_kg = 20;
        b.damping_per_s = 4;
        ear_body_id id = EAR_BODY_NONE;
        ear_physics_add_body(ph, &b, &id);
        d->crates[d->crate_count++] = id;
        ear_source s = ear_source_default();
        snprintf(s.sound, sizeof s.sound, "scrape");
        s.looping = true;
        s.volume = 0;
        s.reverb_send = SEND_CRATE;
        ear_world_set_source(w, id, &s);
        ear_impact im = ear_impact_default();
        snprintf(im.sound, sizeof im.sound, "crate_hit");
        im.min_speed_mps = 0.3f;
        im.full_speed_mps = 3;
        im.reverb_send = SEND_CRATE;
        ear_world_set_impact(w, id, &im);
    }
    /* the guide bell */
    d->guide =
        add_body(ph, "guide", EAR_BODY_KINEMATIC, (ear_vec3){c.x, 0.5f, c.z}, 0.1f, true);
    set_loop(w, d->guide, "guide", 0.5f, false, 1.0f, 0.0f); /* dry: the cue to steer by */
    d->steps_since_guide = 1000;
    (void)half_cell;
    /* music */
    ear_clip *m = held(d, def->music);
    if (m) {
        ear_music_params mp = {
            .name = def->music, .source = {.clip = m}, .loop = true, .crossfade_s = 1.0f};
        ear_stage_music_play(ear_ctx_stage(ctx), &mp);
    }
    /* the player chose the level: the intro answers at once; at the start, after a
     * report (a damaged save), it waits for it */
    if (d->reported)
        report(ctx, d, ear_tr(ctx, def->intro_key));
    else
        say(ctx, ear_tr(ctx, def->intro_key));
    d->screen = SCREEN_GAME;
    d->result.level = level;
    d->result.finished = false;
    ear_time_resume(ear_ctx_time(ctx), EAR_PAUSE_MENU | EAR_PAUSE_PLAYER);
    d->paused_by_player = false;
}

/* ---- Menus ---------------------------------------------------------------------------- */

static ear_ui_menu *menu(const char *id, const char *title, ear_ui_escape esc) {
    ear_ui_menu *m = NULL;
    ear_ui_menu_create(&(ear_ui_menu_config){.id = id, .title = title, .escape = esc}, &m);
    return m;
}

static void button(ear_ui_menu *m, const char *id, const char *label, bool closes) {
    ear_ui_menu_add(m, &(ear_ui_item){.id = id, .label = label, .closes = closes});
}

/* The best time of a level in the save, or 0 when it was never finished. */
static double best_time(demo *d, int level) {
    char key[40];
    snprintf(key, sizeof key, "progress.best%d", level);
    return ear_storage_get_double(d->save, key, 0);
}

/* A level's label in the level list: its title, and its best time once it has one
 * ("Level 1: the garden, best time 28.2 seconds"). Labels are translation keys looked up
 * when spoken, so the label is set as a text of its own ("pick.levelN") in both
 * languages: a language switched in the settings speaks it in the new one. */
static const char *level_label(ear_ctx *ctx, demo *d, int level) {
    static const char *const keys[DEMO_LEVELS] = {"pick.level1", "pick.level2", "pick.level3"};
    double best = best_time(d, level);
    if (!(best > 0)) return levels[level - 1].title_key;
    for (int l = 0; l < 2; l++) {
        char title[128], format[128], t[32], text[256];
        demo_text(language_codes[l], levels[level - 1].title_key, title, sizeof title);
        demo_text(language_codes[l], "best.label", format, sizeof format);
        fmt_time(t, sizeof t, best, l == 1);
        /* "{level}, best time {time} seconds": the two fields in order */
        const char *a = strstr(format, "{level}"), *b = strstr(format, "{time}");
        if (!a || !b || b < a) return levels[level - 1].title_key;
        snprintf(text, sizeof text, "%.*s%s%.*s%s%s", (int)(a - format), format, title,
                 (int)(b - (a + 7)), a + 7, t, b + 6);
        ear_lang_set_text(ear_ctx_lang(ctx), language_codes[l], keys[level - 1], text);
    }
    return keys[level - 1];
}

static ear_ui_menu *levels_menu(ear_ctx *ctx, demo *d) {
    ear_ui_menu *m = menu("levels", "menu.levels", EAR_UI_ESCAPE_CLOSE);
    for (int i = 0; i < DEMO_LEVELS; i++) {
        char id[16];
        snprintf(id, sizeof id, "%d", i + 1);
        button(m, id, level_label(ctx, d, i + 1), true);
    }
    return m;
}

static ear_ui_menu *settings_menu(demo *d) {
    ear_ui_menu *m = menu("settings", "menu.settings", EAR_UI_ESCAPE_CLOSE);
    const char *ids[] = {"master", "music", "sound", "speech"};
    const char *labels[] = {"set.master", "set.music", "set.sound", "set.speech"};
    double values[] = {d->set.master, d->set.music, d->set.sound, d->set.speech};
    /* the web's speech is the player's screen reader: no volume or rate of the game's */
    bool speech = !d->opt.screen_reader_speech;
    for (int i = 0; i < (speech ? 4 : 3); i++)
        ear_ui_menu_add(m, &(ear_ui_item){.id = ids[i],
                                          .label = labels[i],
                                          .kind = EAR_UI_SLIDER,
                                          .value = values[i],
                                          .min = 0,
                                          .max = 100,
                                          .step = 10,
                                          .unit = "ui.unit.percent"});
    if (speech)
        ear_ui_menu_add(m, &(ear_ui_item){.id = "rate",
                                          .label = "set.rate",
                                          .kind = EAR_UI_SLIDER,
                                          .value = d->set.rate,
                                          .min = -100,
                                          .max = 100,
                                          .step = 10});
    ear_ui_menu_add(m, &(ear_ui_item){.id = "language",
                                      .label = "set.language",
                                      .kind = EAR_UI_CHOICE,
                                      .choices = language_choices,
                                      .choice_count = 2,
                                      .selected = (size_t)d->set.language});
    if (d->opt.load_hrtf) /* a build without an HRTF loader (the web) does not offer it */
        ear_ui_menu_add(m, &(ear_ui_item){.id = "headphones",
                                          .label = "set.headphones",
                                          .kind = EAR_UI_TOGGLE,
                                          .checked = demo_headphones(d)});
    ear_ui_menu_add(m, &(ear_ui_item){.id = "repeat_delay",
                                      .label = "set.repeat_delay",
                                      .kind = EAR_UI_SLIDER,
                                      .value = d->set.repeat_delay_s,
                                      .min = 0.2,
                                      .max = 1.0,
                                      .step = 0.1,
                                      .unit = "ui.unit.seconds"});
    ear_ui_menu_add(m, &(ear_ui_item){.id = "repeat_every",
                                      .label = "set.repeat_every",
                                      .kind = EAR_UI_SLIDER,
                                      .value = d->set.repeat_every_s,
                                      .min = 0.04,
                                      .max = 0.3,
                                      .step = 0.02,
                                      .unit = "ui.unit.seconds"});
    button(m, "keys", "set.keys", false);
    button(m, "back", "menu.back", true);
    return m;
}

/* The start menu's music: the session takes its own hold when the first menu opens and
 * keeps it to the end (001's session_keep_menu_files), so a level's trim never unloads it
 * and a return to the menus reads nothing again. */
static void play_menu_music(ear_ctx *ctx, demo *d) {
    if (!d->menu_music &&
        ear_assets_acquire(ear_ctx_assets(ctx), "menu", &d->menu_music) != EAR_OK)
        d->menu_music = NULL;
    if (d->menu_music)
        ear_stage_music_play(ear_ctx_stage(ctx),
                             &(ear_music_params){.name = "menu",
                                                 .source = {.clip = d->menu_music},
                                                 .loop = true,
                                                 .crossfade_s = 1.0f});
}

static void open_main_menu(ear_ctx *ctx, demo *d, const char *focus) {
    ear_ui_close_all(ctx);
    /* Escape presses Quit, which asks (the main menu has nothing to go back to) */
    ear_ui_menu *m = NULL;
    ear_ui_menu_create(&(ear_ui_menu_config){.id = "main",
                                             .title = "menu.main",
                                             .escape = EAR_UI_ESCAPE_NONE,
                                             .escape_item = "quit"},
                       &m);
    button(m, "play", "menu.play", true);
    ear_ui_menu_add(m, &(ear_ui_item){.id = "levels",
                                      .label = "menu.levels",
                                      .kind = EAR_UI_SUBMENU,
                                      .submenu = levels_menu(ctx, d)});
    ear_ui_menu_add(m, &(ear_ui_item){.id = "settings",
                                      .label = "menu.settings",
                                      .kind = EAR_UI_SUBMENU,
                                      .submenu = settings_menu(d)});
    button(m, "help", "menu.help", false);
    button(m, "quit", "menu.quit", false); /* it asks first: the menu stays under it */
    if (focus) ear_ui_menu_focus(m, focus);
    ear_ui_menu_set_after_speech(m, d->reported); /* after a damaged save's report */
    ear_ui_open_menu(ctx, m);
    d->screen = SCREEN_MENU;
}

/* Level Select (from the pause, completion and game-over menus): the game closes, the
 * start menu opens with its level list on top (Escape goes back to the start menu); the
 * level's files stay held, idle, until another level opens. */
static void open_level_select(ear_ctx *ctx, demo *d) {
    unload_level(ctx, d);
    d->completed = d->game_over = false;
    d->paused_by_player = false;
    ear_time_resume(ear_ctx_time(ctx), EAR_PAUSE_MENU | EAR_PAUSE_PLAYER);
    play_menu_music(ctx, d);
    open_main_menu(ctx, d, "levels");
    ear_ui_open_menu(ctx, levels_menu(ctx, d));
}

/* Back to the main menu (Escape on the completion or game-over menu): the level closes
 * as for Level Select, the main menu opens focused on Play. */
static void open_menu_route(ear_ctx *ctx, demo *d) {
    unload_level(ctx, d);
    d->completed = d->game_over = false;
    d->paused_by_player = false;
    ear_time_resume(ear_ctx_time(ctx), EAR_PAUSE_MENU | EAR_PAUSE_PLAYER);
    play_menu_music(ctx, d);
    open_main_menu(ctx, d, NULL);
}

static void open_pause_menu(ear_ctx *ctx, demo *d) {
    ear_ui_menu *m = menu("pause", "menu.pause", EAR_UI_ESCAPE_CLOSE);
    button(m, "resume", "menu.resume", true);
    button(m, "restart", "menu.restart", true);
    button(m, "levels", "menu.levels", true); /* the Level Select route */
    ear_ui_menu_add(m, &(ear_ui_item){.id = "settings",
                                      .label = "menu.settings",
                                      .kind = EAR_UI_SUBMENU,
                                      .submenu = settings_menu(d)});
    button(m, "quit", "menu.quit", false); /* it asks first: the level would be lost */
    ear_ui_open_menu(ctx, m);
}

/* "Quit the game?", No first: a stray Enter keeps the game. Yes quits (the confirmed
 * event); No and Escape go back to the menu under it. */
static void ask_quit(ear_ctx *ctx) {
    ear_ui_question(ctx, "quit", "quit.ask", true);
}

/* The completion menu says the level's best time and whether the progress was saved
 * (its message, after its title); `note` is that text, or "" for none. */
static void open_end_menu(ear_ctx *ctx, demo *d, bool complete, const char *note) {
    ear_ui_menu *m = NULL;
    if (note && note[0]) {
        ear_lang_set_text(ear_ctx_lang(ctx), ear_lang_language(ear_ctx_lang(ctx)), "end.note",
                          note);
    }
    /* Escape goes back to the main menu (cancelled) */
    ear_ui_menu_create(
        &(ear_ui_menu_config){.id = complete ? "complete" : "gameover",
                              .title = complete ? "menu.complete" : "menu.gameover",
                              .message = note && note[0] ? "end.note" : NULL,
                              .escape = EAR_UI_ESCAPE_CANCEL},
        &m);
    if (complete && d->level < DEMO_LEVELS) button(m, "next", "menu.next", true);
    if (complete)
        button(m, "replay", "menu.replay", true);
    else
        button(m, "retry", "menu.retry", true);
    button(m, "levels", "menu.levels", true); /* the Level Select route */
    button(m, "exit", "menu.exit", true);
    ear_ui_menu_set_after_speech(m, d->reported); /* the result first, whole */
    ear_ui_open_menu(ctx, m);
}

static void choose(demo *d, demo_route r, int level) {
    if (d->closing) return; /* the close's Exit stands */
    d->route = r;
    d->route_level = level;
}

static void on_ui(ear_ctx *ctx, const ear_ui_event *e, void *user) {
    demo *d = user;
    bool clicked = strcmp(e->kind, EAR_UI_CLICKED) == 0;
    if (clicked && strcmp(e->widget, "levels") == 0) {
        choose(d, DEMO_ROUTE_PLAY, atoi(e->item));
    } else if (clicked && strcmp(e->widget, "main") == 0) {
        if (strcmp(e->item, "play") == 0) {
            int next = 1;
            for (int i = 1; i <= DEMO_LEVELS; i++) {
                char key[32];
                snprintf(key, sizeof key, "progress.level%d", i);
                if (ear_storage_get_bool(d->save, key, false) && i < DEMO_LEVELS) next = i + 1;
            }
            choose(d, DEMO_ROUTE_PLAY, next);
        } else if (strcmp(e->item, "help") == 0) {
            ear_ui_message(ctx, "help", "menu.help", "help");
        } else if (strcmp(e->item, "quit") == 0) {
            ask_quit(ctx);
        }
    } else if (strcmp(e->widget, "quit") == 0) {
        /* the question: Yes quits; No and Escape leave the menu under it as it was */
        if (strcmp(e->kind, EAR_UI_CONFIRMED) == 0 && strcmp(e->item, "yes") == 0)
            choose(d, DEMO_ROUTE_EXIT, 0);
    } else if (clicked && strcmp(e->widget, "pause") == 0) {
        if (strcmp(e->item, "resume") == 0) {
            d->paused_by_player = false;
            ear_time_resume(ear_ctx_time(ctx), EAR_PAUSE_PLAYER);
        } else if (strcmp(e->item, "restart") == 0) {
            choose(d, DEMO_ROUTE_RETRY, d->level);
        } else if (strcmp(e->item, "levels") == 0) {
            choose(d, DEMO_ROUTE_LEVEL_SELECT, 0);
        } else if (strcmp(e->item, "quit") == 0) {
            ask_quit(ctx); /* the level in progress would be lost */
        }
    } else if (strcmp(e->kind, EAR_UI_CLOSED) == 0 && strcmp(e->widget, "pause") == 0) {
        if (d->paused_by_player && d->route == DEMO_ROUTE_NONE) {
            d->paused_by_player = false;
            ear_time_resume(ear_ctx_time(ctx), EAR_PAUSE_PLAYER);
        }
    } else if (clicked &&
               (strcmp(e->widget, "complete") == 0 || strcmp(e->widget, "gameover") == 0)) {
        if (strcmp(e->item, "next") == 0) choose(d, DEMO_ROUTE_NEXT, d->level + 1);
        if (strcmp(e->item, "replay") == 0) choose(d, DEMO_ROUTE_REPLAY, d->level);
        if (strcmp(e->item, "retry") == 0) choose(d, DEMO_ROUTE_RETRY, d->level);
        if (strcmp(e->item, "levels") == 0) choose(d, DEMO_ROUTE_LEVEL_SELECT, 0);
        if (strcmp(e->item, "exit") == 0) choose(d, DEMO_ROUTE_EXIT, 0);
    } else if (strcmp(e->kind, EAR_UI_CANCELLED) == 0 &&
               (strcmp(e->widget, "complete") == 0 || strcmp(e->widget, "gameover") == 0)) {
        choose(d, DEMO_ROUTE_MENU, 0); /* Escape: back to the main menu */
    } else if (strcmp(e->widget, "settings") == 0) {
        if (strcmp(e->kind, EAR_UI_CHANGED) == 0) {
            double v = strtod(e->value, NULL);
            if (strcmp(e->item, "master") == 0) d->set.master = v;
            if (strcmp(e->item, "music") == 0) d->set.music = v;
            if (strcmp(e->item, "sound") == 0) d->set.sound = v;
            if (strcmp(e->item, "speech") == 0) d->set.speech = v;
            if (strcmp(e->item, "rate") == 0) d->set.rate = (int)v;
            if (strcmp(e->item, "repeat_delay") == 0) d->set.repeat_delay_s = v;
            if (strcmp(e->item, "repeat_every") == 0) d->set.repeat_every_s = v;
            if (strcmp(e->item, "language") == 0 && e->index >= 0 && e->index < 2)
                d->set.language = e->index;
            bool headphones = strcmp(e->item, "headphones") == 0;
            if (headphones) {
                d->set.headphones = e->index == 1;
                d->opt.headphones = 0; /* the player's choice now rules, not the flag */
            }
            store_settings(d);
            apply_settings(ctx, d);
            if (headphones) apply_headphones(ctx, d, d->set.headphones);
        } else if (clicked && strcmp(e->item, "keys") == 0) {
            say(ctx, ear_tr(ctx, "keys"));
        }
    }
}

/* ---- Playing ---------------------------------------------------------------------------- */

static thing *current_thing(demo *d) {
    return d->current < d->thing_count ? &d->things[d->current] : NULL;
}

/* The bell goes a few cells ahead on the shortest path to the objective. */
static void place_guide(ear_ctx *ctx, demo *d, ear_vec3 from) {
    thing *t = current_thing(d);
    if (!t || !d->map) return;
    ear_path path;
    ear_path_config pc = ear_path_config_default();
    pc.diagonal = true;
    ear_vec3 target = t->pos;
    if (ear_level_find_path(d->map, from, t->pos, &pc, &path) == EAR_OK) {
        size_t ahead = levels[d->level - 1].drive ? 3 : 2;
        size_t i = path.count - 1 < ahead ? path.count - 1 : ahead;
        target = path.points[i];
        if (i == path.count - 1) target = t->pos;
    }
    ear_path_release(&path);
    ear_body_set_position(ear_ctx_physics(ctx), d->guide, (ear_vec3){target.x, 0.5f, target.z});
}

static float dist2d(ear_vec3 a, ear_vec3 b) {
    float dx = a.x - b.x, dz = a.z - b.z;
    return sqrtf(dx * dx + dz * dz);
}

static void finish_level(ear_ctx *ctx, demo *d) {
    const level_def *def = &levels[d->level - 1];
    d->completed = true;
    double bonus = def->par_s - d->time_s;
    if (bonus > 0) d->score += (long)(bonus * 10);
    char key[40];
    snprintf(key, sizeof key, "progress.level%d", d->level);
    ear_storage_set_bool(d->save, key, true);
    snprintf(key, sizeof key, "progress.best%d", d->level);
    double best = ear_storage_get_double(d->save, key, 0);
    if (best <= 0 || d->time_s < best) {
        ear_storage_set_double(d->save, key, d->time_s);
        best = d->time_s;
    }
    /* the completion menu says the best time, and "Saved." once the save is written */
    char note[256], bt[32];
    fmt_time(bt, sizeof bt, best, is_german(d));
    ear_lang_arg ba[1] = {arg_s("time", bt)};
    if (ear_lang_format(ear_ctx_lang(ctx), "best", ba, 1, note, sizeof note, NULL) != EAR_OK)
        note[0] = '\0';
    if (write_save(ctx, d)) {
        if (note[0]) snprintf(note + strlen(note), sizeof note - strlen(note), " ");
        snprintf(note + strlen(note), sizeof note - strlen(note), "%s",
                 ear_tr(ctx, "save.done"));
    }
    char t[32], s[32];
    fmt_time(t, sizeof t, d->time_s, is_german(d));
    snprintf(s, sizeof s, "%ld", d->score);
    ear_lang_arg a[2] = {arg_s("time", t), arg_s("score", s)};
    report_fmt(ctx, d, "complete", a, 2);
    d->result.finished = true;
    d->result.time_s = d->time_s;
    d->result.score = d->score;
    d->result.levels_done++;
    ear_time_pause(ear_ctx_time(ctx), EAR_PAUSE_MENU);
    open_end_menu(ctx, d, true, note);
}

static void lose(ear_ctx *ctx, demo *d) {
    d->game_over = true;
    char s[32];
    snprintf(s, sizeof s, "%ld", d->score);
    ear_lang_arg a[1] = {arg_s("score", s)};
    report_fmt(ctx, d, "gameover", a, 1);
    d->result.finished = false;
    d->result.time_s = d->time_s;
    d->result.score = d->score;
    ear_time_pause(ear_ctx_time(ctx), EAR_PAUSE_MENU);
    open_end_menu(ctx, d, false, NULL);
}

static void reach(ear_ctx *ctx, demo *d, thing *t) {
    t->done = true;
    ear_world *w = ear_ctx_world(ctx);
    ear_world_remove_source(w, t->body);
    d->current++;
    d->steps_since_guide = 1000;
    if (t->kind == THING_GOAL) {
        /* the bell and the level's hums give way to the fanfare */
        ear_world_remove_source(w, d->guide);
        for (size_t i = 0; i < d->hazard_count; i++)
            ear_world_remove_source(w, d->hazards[i].body);
        ear_world_play_event(w, "fanfare", t->pos,
                             &(ear_event_params){.flat = true, .volume = 0.8f});
        d->score += 250;
        finish_level(ctx, d);
        return;
    }
    ear_world_play_event(w, "collect", t->pos, &(ear_event_params){.flat = true});
    d->score += t->kind == THING_RADIO ? 200 : 100;
    char n[16];
    snprintf(n, sizeof n, "%zu", d->thing_count - d->current);
    ear_lang_arg a[1] = {arg_s("n", n)};
    char left[200] = "";
    ear_lang_format(ear_ctx_lang(ctx), "found.left", a, 1, left, sizeof left, NULL);
    char text[400];
    snprintf(text, sizeof text, "%s %s",
             ear_tr(ctx, t->kind == THING_RADIO ? "found.radio" : "found.pickup"), left);
    report(ctx, d, text);
}

/* Walls within 2.5 m tick where they are (front, left, right), a little before they are
 * touched. */
static void sense_walls(ear_ctx *ctx, demo *d, ear_vec3 pos, float facing) {
    ear_physics *ph = ear_ctx_physics(ctx);
    const float angles[3] = {0, -90, 90};
    for (int i = 0; i < 3; i++) {
        ear_vec3 dir = ear_forward_from_facing(facing + angles[i], 0);
        ear_vec3 to = {pos.x + dir.x * 2.5f, pos.y, pos.z + dir.z * 2.5f};
        ear_ray_hit hit;
        ear_ray_options ro = {.ignore = &d->player, .ignore_count = 1};
        bool found = false;
        if (ear_physics_ray_cast(ph, pos, to, &ro, &hit, &found) == EAR_OK && found) {
            const char *name = ear_body_name(ph, hit.body);
            if (!name || strncmp(name, "wall", 4) != 0) continue;
            float vol = 0.5f * (1.0f - hit.distance_m / 2.5f);
            ear_world_play_event(ear_ctx_world(ctx), "wall_near", hit.point_m,
                                 &(ear_event_params){.volume = vol > 0.02f ? vol : 0.02f,
                                                     .pitch = i == 0 ? 1.25f : 1.0f,
                                                     .reverb_send = SEND_WALL});
        }
    }
}

static const char *surface_pool(demo *d, ear_vec3 pos) {
    uint32_t r, c;
    if (!ear_level_cell_at(d->map, pos, &r, &c)) return "steps_stone";
    uint32_t ch = ear_level_char_at(d->map, r, c);
    return ch == ',' ? "steps_grass" : ch == '=' ? "steps_wood" : "steps_stone";
}

static void walk_step(ear_ctx *ctx, demo *d) {
    ear_physics *ph = ear_ctx_physics(ctx);
    float dt = (float)ear_ctx_dt(ctx);
    ear_body_info info;
    ear_body_get(ph, d->player, &info);
    float turn = 0;
    if (ear_key_held(ctx, EAR_KEY_LEFT)) turn -= TURN_DPS * dt;
    if (ear_key_held(ctx, EAR_KEY_RIGHT)) turn += TURN_DPS * dt;
    if (turn != 0) ear_body_turn(ph, d->player, turn);
    float move = 0;
    if (ear_key_held(ctx, EAR_KEY_UP)) move += WALK_MPS * dt;
    if (ear_key_held(ctx, EAR_KEY_DOWN)) move -= WALK_MPS * 0.6f * dt;
    if (move != 0) {
        ear_vec3 before, after;
        ear_body_position(ph, d->player, &before);
        bool blocked = false;
        ear_body_move_forward(ph, d->player, move, &blocked);
        ear_body_position(ph, d->player, &after);
        float moved = dist2d(before, after);
        d->walked_m += moved;
        if (d->walked_m >= STEP_M) {
            d->walked_m -= STEP_M;
            ear_world_play_event(ear_ctx_world(ctx), surface_pool(d, after),
                                 (ear_vec3){after.x, 0, after.z},
                                 &(ear_event_params){.reverb_send = SEND_STEP});
        }
        if (blocked && moved < fabsf(move) * 0.3f && d->time_s >= d->bump_ready_s) {
            d->bump_ready_s = d->time_s + 0.5;
            ear_vec3 f = ear_forward_from_facing(info.desc.facing_deg, 0);
            ear_world_play_event(ear_ctx_world(ctx), "bump",
                                 (ear_vec3){after.x + f.x * 0.4f, 0.5f, after.z + f.z * 0.4f},
                                 &(ear_event_params){.reverb_send = SEND_BUMP});
        }
    }
}

static void drive_step(ear_ctx *ctx, demo *d) {
    ear_physics *ph = ear_ctx_physics(ctx);
    ear_vehicle_controls vc = {0};
    vc.gas = ear_key_held(ctx, EAR_KEY_UP) ? 1.0f : 0.0f;
    vc.brake = ear_key_held(ctx, EAR_KEY_DOWN) ? 1.0f : 0.0f;
    vc.steer = (ear_key_held(ctx, EAR_KEY_RIGHT) ? 1.0f : 0.0f) -
               (ear_key_held(ctx, EAR_KEY_LEFT) ? 1.0f : 0.0f);
    ear_vehicle_set_controls(ph, d->car, &vc);
}

static void play_step(ear_ctx *ctx, demo *d) {
    ear_physics *ph = ear_ctx_physics(ctx);
    const level_def *def = &levels[d->level - 1];
    d->time_s += ear_ctx_dt(ctx);
    if (def->drive)
        drive_step(ctx, d);
    else
        walk_step(ctx, d);
    ear_body_info info;
    ear_body_get(ph, d->player, &info);
    ear_vec3 pos = info.desc.position_m;
    /* the guide, four times a second */
    if (++d->steps_since_guide >= 15) {
        d->steps_since_guide = 0;
        place_guide(ctx, d, pos);
    }
    if (!def->drive && d->time_s >= d->wall_next_s) {
        d->wall_next_s = d->time_s + 0.4;
        sense_walls(ctx, d, pos, info.desc.facing_deg);
    }
    /* hazards */
    for (size_t i = 0; i < d->hazard_count; i++) {
        hazard *h = &d->hazards[i];
        ear_vec3 hp, hv;
        ear_body_position(ph, h->body, &hp);
        ear_body_velocity(ph, h->body, &hv);
        if ((hp.x >= h->max_x && hv.x > 0) || (hp.x <= h->min_x && hv.x < 0))
            ear_body_set_velocity(ph, h->body, (ear_vec3){-hv.x, 0, 0});
        if (dist2d(hp, pos) < 0.7f && d->time_s >= d->hurt_until_s) {
            d->hurt_until_s = d->time_s + 2.0;
            d->lives--;
            d->score -= 100;
            ear_world_play_event(ear_ctx_world(ctx), "hurt", pos,
                                 &(ear_event_params){.flat = true});
            if (d->lives <= 0) {
                lose(ctx, d);
                return;
            }
            char n[16]; /* room for any int */
            snprintf(n, sizeof n, "%d", d->lives);
            ear_lang_arg a[1] = {arg_s("n", n)};
            report_fmt(ctx, d, d->lives == 1 ? "hurt.one" : "hurt", a, 1);
        }
    }
    /* crates scrape while they move (shoved by the player or sliding on) */
    for (size_t i = 0; i < d->crate_count; i++) {
        ear_body_info ci;
        if (ear_body_get(ph, d->crates[i], &ci) != EAR_OK) continue;
        ear_vec3 m = ci.displacement_m;
        float speed = sqrtf(m.x * m.x + m.z * m.z) / (float)ear_ctx_dt(ctx);
        ear_source s;
        if (ear_world_get_source(ear_ctx_world(ctx), d->crates[i], &s) == EAR_OK) {
            float vol = speed > 0.05f ? fminf(1.0f, speed / 1.5f) * 0.6f : 0.0f;
            if (fabsf(s.volume - vol) > 0.02f) {
                s.volume = vol;
                ear_world_set_source(ear_ctx_world(ctx), d->crates[i], &s);
            }
        }
    }
    /* the car: a hard crash ducks the music; an empty tank ends the drive */
    if (def->drive) {
        size_t n = 0;
        const ear_physics_event *ev = ear_physics_events(ph, &n);
        for (size_t i = 0; i < n; i++)
            if (ev[i].type == EAR_PHYS_CRASHED && ev[i].body == d->car && ev[i].speed_mps > 3 &&
                ev[i].step + 1 == ear_physics_steps(ph)) {
                ear_stage_trigger_duck(ear_ctx_stage(ctx), "crash", 1.0f);
                d->score -= 20;
            }
        ear_vehicle_state vs;
        if (ear_vehicle_get_state(ph, d->car, &vs) == EAR_OK && !vs.engine_on &&
            fabsf(vs.speed_mps) < 0.05f) {
            report(ctx, d, ear_tr(ctx, "fuel.out"));
            lose(ctx, d);
            return;
        }
    }
    thing *t = current_thing(d);
    if (t && dist2d(t->pos, pos) < (def->drive ? 2.0f : REACH_M)) reach(ctx, d, t);
}

static void speak_where(ear_ctx *ctx, demo *d) {
    ear_physics *ph = ear_ctx_physics(ctx);
    ear_body_info info;
    ear_body_get(ph, d->player, &info);
    ear_vec3 g;
    ear_body_position(ph, d->guide, &g);
    char where[200] = "", t[32], s[32], found[24], total[24];
    ear_describe_position(ear_ctx_lang(ctx), info.desc.position_m, info.desc.facing_deg, g,
                          where, sizeof where, NULL);
    fmt_time(t, sizeof t, d->time_s, is_german(d));
    snprintf(s, sizeof s, "%ld", d->score);
    snprintf(found, sizeof found, "%zu", d->current);
    snprintf(total, sizeof total, "%zu", d->thing_count);
    ear_lang_arg a[6] = {arg_s("level", ear_tr(ctx, levels[d->level - 1].title_key)),
                         arg_s("where", where),
                         arg_s("found", found),
                         arg_s("total", total),
                         arg_s("time", t),
                         arg_s("score", s)};
    say_fmt(ctx, "where", a, 6);
}

static void speak_facing(ear_ctx *ctx, demo *d) {
    ear_physics *ph = ear_ctx_physics(ctx);
    ear_body_info info;
    ear_body_get(ph, d->player, &info);
    ear_vec3 g, ahead = ear_forward_from_facing(info.desc.facing_deg, 0);
    ear_body_position(ph, d->guide, &g);
    char compass[64] = "", clock[64] = "";
    ear_vec3 p = info.desc.position_m;
    ear_describe_direction(ear_ctx_lang(ctx), p, 0,
                           (ear_vec3){p.x + ahead.x, p.y, p.z + ahead.z}, EAR_DIRECTION_COMPASS,
                           compass, sizeof compass, NULL);
    ear_describe_direction(ear_ctx_lang(ctx), p, info.desc.facing_deg, g, EAR_DIRECTION_CLOCK,
                           clock, sizeof clock, NULL);
    ear_lang_arg a[2] = {arg_s("compass", compass), arg_s("clock", clock)};
    say_fmt(ctx, "facing", a, 2);
}

/* T: time, score and lives; in the car what the car has instead of lives (no drone
 * hurts it): its speed, gear and fuel against its tank. */
static void speak_status(ear_ctx *ctx, demo *d) {
    char t[32], s[32], l[16];
    fmt_time(t, sizeof t, d->time_s, is_german(d));
    snprintf(s, sizeof s, "%ld", d->score);
    snprintf(l, sizeof l, "%d", d->lives);
    ear_vehicle_state vs;
    if (d->car && ear_vehicle_get_state(ear_ctx_physics(ctx), d->car, &vs) == EAR_OK) {
        char speed[100] = "", gear[16], gears[16], fuel[16], tank[16];
        ear_describe_speed(ear_ctx_lang(ctx), vs.speed_mps, EAR_SPEED_KMH, speed, sizeof speed,
                           NULL);
        snprintf(gear, sizeof gear, "%u", vs.gear);
        snprintf(gears, sizeof gears, "%u", vs.config.gears);
        fmt_time(fuel, sizeof fuel, vs.fuel_l, is_german(d));
        fmt_time(tank, sizeof tank, vs.config.fuel_capacity_l, is_german(d));
        ear_lang_arg a[7] = {arg_s("time", t),    arg_s("score", s),     arg_s("speed", speed),
                             arg_s("gear", gear), arg_s("gears", gears), arg_s("fuel", fuel),
                             arg_s("tank", tank)};
        say_fmt(ctx, "status.car", a, 7);
        return;
    }
    ear_lang_arg a[3] = {arg_s("time", t), arg_s("score", s), arg_s("lives", l)};
    say_fmt(ctx, d->lives == 1 ? "status.one" : "status", a, 3);
}

static void speak_speed(ear_ctx *ctx, demo *d) {
    ear_vehicle_state vs;
    if (!d->car || ear_vehicle_get_state(ear_ctx_physics(ctx), d->car, &vs) != EAR_OK) {
        say(ctx, ear_tr(ctx, "speed.foot")); /* why S does nothing here */
        return;
    }
    char speed[100] = "", gear[16], fuel[16];
    ear_describe_speed(ear_ctx_lang(ctx), vs.speed_mps, EAR_SPEED_KMH, speed, sizeof speed,
                       NULL);
    snprintf(gear, sizeof gear, "%u", vs.gear);
    fmt_time(fuel, sizeof fuel, vs.fuel_l, is_german(d));
    ear_lang_arg a[3] = {arg_s("speed", speed), arg_s("gear", gear), arg_s("fuel", fuel)};
    say_fmt(ctx, "speed", a, 3);
}

/* ---- The scene ------------------------------------------------------------------------ */

/* The web build's sounds: each clip demo_sounds_make makes, registered under its name
 * (a registered name wins over files and is never trimmed). One that cannot be made or
 * registered is warned about and stays missing, as a missing file would. */
static void register_sound(void *user, const char *name, ear_result made, ear_clip *clip) {
    ear_assets *a = user;
    ear_result r = made == EAR_OK ? ear_assets_register_clip(a, name, clip) : made;
    if (r != EAR_OK)
        ear_log(EAR_LOG_WARN, "demo", "the sound \"%s\" could not be made: %s", name,
                ear_result_string(r));
    ear_clip_release(clip);
}

/* What the player heard: each line's fate (said whole, or cut), for the speech log and
 * the bot's ears (main.c). */
static void heard(void *user, const ear_speech_event *e) {
    demo *d = user;
    if (e->kind != EAR_SPEECH_EVENT_START && d->opt.on_line)
        d->opt.on_line(d->opt.line_user, e);
}

static void start(ear_ctx *ctx, void *user) {
    demo *d = user;
    ear_speech_set_listener(ear_ctx_speech(ctx), heard, d);
    if (d->opt.sounds_in_memory) demo_sounds_make(register_sound, ear_ctx_assets(ctx));
    ear_lang *lang = ear_ctx_lang(ctx);
    ear_lang_load_text(lang, "en", english, sizeof english - 1, "demo english", NULL);
    ear_lang_load_text(lang, "de", german, sizeof german - 1, "demo german", NULL);
    ear_stage *st = ear_ctx_stage(ctx);
    ear_duck_rule speech = {.trigger = EAR_BUS_UI, .target = EAR_BUS_MUSIC, .gain_db = -12};
    snprintf(speech.name, sizeof speech.name, "speech");
    ear_stage_set_duck(st, &speech);
    ear_duck_rule crash = {.trigger = EAR_BUS_ENGINE,
                           .target = EAR_BUS_MUSIC,
                           .gain_db = -20,
                           .threshold = 10.0f, /* only by trigger_duck */
                           .release_s = 1.0f};
    snprintf(crash.name, sizeof crash.name, "crash");
    ear_stage_set_duck(st, &crash);
    apply_settings(ctx, d);
    if (d->save_broken) report(ctx, d, ear_tr(ctx, "save.broken"));
    apply_headphones(ctx, d, false);
    char why[300];
    ear_level *map = NULL;
    if (d->opt.start_level >= 1 && d->opt.start_level <= DEMO_LEVELS &&
        !(map = build_map(ctx, d, d->opt.start_level, why, sizeof why))) {
        play_menu_music(ctx, d);
        load_failed(ctx, d, d->opt.start_level, why); /* to the main menu */
    } else if (map) {
        load_level(ctx, d, d->opt.start_level, map);
    } else {
        play_menu_music(ctx, d);
        open_main_menu(ctx, d, NULL);
    }
}

static void fixed_update(ear_ctx *ctx, void *user) {
    demo *d = user;
    /* completion, game over or a route stops the frame's remaining steps */
    if (d->screen != SCREEN_GAME || d->route != DEMO_ROUTE_NONE || d->completed ||
        d->game_over || !d->map)
        return;
    play_step(ctx, d);
}

static void update(ear_ctx *ctx, void *user) {
    demo *d = user;
    if (d->screen != SCREEN_GAME || d->completed || d->game_over || !d->map) return;
    if (ear_key_pressed(ctx, EAR_KEY_ESCAPE)) {
        d->paused_by_player = true;
        ear_time_pause(ear_ctx_time(ctx), EAR_PAUSE_PLAYER);
        open_pause_menu(ctx, d);
        return;
    }
    /* a repeat and a history read are lines too: the log hears them (heard) */
    if (ear_key_pressed(ctx, EAR_KEY_F1)) ear_say_repeat_last(ctx);
    if (ear_key_pressed(ctx, EAR_KEY_H)) ear_speech_history_back(ear_ctx_speech(ctx));
    if (ear_key_pressed(ctx, EAR_KEY_W)) speak_where(ctx, d);
    if (ear_key_pressed(ctx, EAR_KEY_C)) speak_facing(ctx, d);
    if (ear_key_pressed(ctx, EAR_KEY_T)) speak_status(ctx, d);
    if (ear_key_pressed(ctx, EAR_KEY_S)) speak_speed(ctx, d);
    if (ear_key_pressed(ctx, EAR_KEY_K)) say(ctx, ear_tr(ctx, d->car ? "keys.car" : "keys"));
}

/* After the frame: the routes and the music rule (the speech log hears lines as they end:
 * heard). */
static void after_frame(ear_ctx *ctx, void *user) {
    demo *d = user;
    demo_route r = d->route;
    d->route = DEMO_ROUTE_NONE;
    switch (r) {
    case DEMO_ROUTE_NONE: break;
    case DEMO_ROUTE_PLAY:
    case DEMO_ROUTE_NEXT:
    case DEMO_ROUTE_REPLAY:
    case DEMO_ROUTE_RETRY: {
        int level = d->route_level >= 1 && d->route_level <= DEMO_LEVELS ? d->route_level : 1;
        char why[300];
        ear_level *map = build_map(ctx, d, level, why, sizeof why);
        if (!map) {
            load_failed(ctx, d, level, why);
            break;
        }
        ear_ui_close_all(ctx);
        load_level(ctx, d, level, map);
        break;
    }
    case DEMO_ROUTE_LEVEL_SELECT: open_level_select(ctx, d); break;
    case DEMO_ROUTE_MENU: open_menu_route(ctx, d); break;
    case DEMO_ROUTE_EXIT:
        write_save(ctx, d);
        ear_quit(ctx);
        break;
    }
    focus_rule(ctx, d);
    music_rule(ctx, d);
    note_room(ctx, d);
    d->reported = false;
}

static void end(ear_ctx *ctx, void *user) {
    demo *d = user;
    write_save(ctx, d);
    d->result.loads = ear_assets_get_stats(ear_ctx_assets(ctx)).loads;
    if (d->screen == SCREEN_GAME && !d->completed && d->level) {
        d->result.time_s = d->time_s;
        d->result.score = d->score;
    }
    release_level_assets(ctx, d);
    if (d->menu_music) ear_assets_release(ear_ctx_assets(ctx), d->menu_music);
    d->menu_music = NULL;
    unload_level(ctx, d);
}

static uint64_t mix(uint64_t h, uint64_t v) {
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    return h;
}

static uint64_t hash_state(ear_ctx *ctx, void *user) {
    demo *d = user;
    uint64_t h = 0xcbf29ce484222325ull;
    h = mix(h, (uint64_t)d->level);
    h = mix(h, (uint64_t)d->screen);
    h = mix(h, (uint64_t)d->score);
    h = mix(h, (uint64_t)d->lives);
    h = mix(h, d->current);
    h = mix(h, (uint64_t)(d->time_s * 1000.0));
    h = mix(h, (uint64_t)d->completed | ((uint64_t)d->game_over << 1));
    if (d->player && d->map) {
        ear_body_info info;
        if (ear_body_get(ear_ctx_physics(ctx), d->player, &info) == EAR_OK) {
            uint32_t u;
            memcpy(&u, &info.desc.position_m.x, 4);
            h = mix(h, u);
            memcpy(&u, &info.desc.position_m.z, 4);
            h = mix(h, u);
            memcpy(&u, &info.desc.facing_deg, 4);
            h = mix(h, u);
        }
    }
    return mix(h, d->audio_hash);
}

ear_scene demo_scene(demo *d) {
    ear_scene s = {.name = "session",
                   .start = start,
                   .update = update,
                   .fixed_update = fixed_update,
                   .on_ui = on_ui,
                   .end = end,
                   .hash_state = hash_state,
                   .user = d};
    return s;
}

void demo_configure(demo *d, ear_engine_config *cfg) {
    cfg->world_sync = after_frame;
    cfg->hook_user = d;
    cfg->assets_dir = d->opt.assets_dir;
    cfg->language = language_codes[d->set.language];
    ear_physics_config pc = ear_physics_config_default();
    pc.gravity_mps2 = (ear_vec3){0, 0, 0};
    static ear_physics_config kept;
    kept = pc;
    cfg->physics = &kept;
}
