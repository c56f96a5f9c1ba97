/* SPDX-License-Identifier: Zlib */
/*
 * The demo game's session (demo.h): one scene ("session") shows either the menus or a
 * level; a choice becomes a route that the session consumes after the frame (in the
 * world-sync hook). It holds the save (settings and progress,
 * each value checked where it enters), the texts (the .lang files in lang/, through the lang
 * module), the level files (levels.c), the headphones' HRTF set, and the rules applied after
 * each frame (music, focus, the room heard). Speech: what the player asks for interrupts, what
 * the game reports waits (report).
 */
#include "demo_internal.h"
#include "sounds.h"

static const char save_secret[] = "earshot-demo-three-errands-v1";

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
        demo__say(ctx, ear_tr(ctx, "focus.lost")); /* the player's doing: at once */
    else
        demo__say(ctx, ear_tr(ctx, d->paused_by_player ? "focus.still" : "focus.back"));
}

/* The game's texts for demo_text, from lang/ (the same files start() loads into the
 * engine's tables). */
static void load_texts(demo *d) {
    char dir[600];
    snprintf(dir, sizeof dir, "%s/lang", d->data_dir);
    if (ear_lang_create(NULL, &d->texts) != EAR_OK) return;
    ear_lang_load_info info;
    memset(&info, 0, sizeof info);
    ear_result r = ear_lang_load_dir(d->texts, dir, &info);
    d->texts_ok = r == EAR_OK && info.entries > 0 && info.malformed_lines == 0 &&
                  info.unreadable_files == 0;
    if (!d->texts_ok)
        ear_log(EAR_LOG_ERROR, "demo", "the game's texts (%s): %s", dir,
                info.first_error[0] ? info.first_error : ear_result_string(r));
}

/* The levels from levels/level<N>.level. */
static void load_levels(demo *d) {
    for (int i = 0; i < DEMO_LEVELS; i++) {
        char path[700], name[40];
        snprintf(name, sizeof name, "levels/level%d.level", i + 1);
        snprintf(path, sizeof path, "%s/%s", d->data_dir, name);
        d->level_ok[i] = demo_level_load(path, name, &d->levels[i], d->level_why[i],
                                         sizeof d->level_why[i]) == EAR_OK;
        if (!d->level_ok[i]) {
            /* it is still named when it is chosen: "Level 2: the cellar could not ..." */
            snprintf(d->levels[i].title_key, sizeof d->levels[i].title_key, "level%d", i + 1);
            ear_log(EAR_LOG_ERROR, "demo", "%s", d->level_why[i]);
        }
    }
}

demo *demo_create(const demo_options *options) {
    demo *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->opt = *options;
    const char *data = options->data_dir ? options->data_dir : options->assets_dir;
    snprintf(d->data_dir, sizeof d->data_dir, "%s", data ? data : ".");
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
    demo__load_settings(d);
    if (options->language) d->set.language = strcmp(options->language, "de") == 0 ? 1 : 0;
    load_texts(d);
    load_levels(d);
    return d;
}

void demo_destroy(demo *d) {
    if (!d) return;
    ear_storage_destroy(d->save);
    for (int i = 0; i < DEMO_LEVELS; i++) demo_level_free(&d->levels[i]);
    ear_lang_destroy(d->texts);
    free(d);
}

const char *demo_level_title_key(const demo *d, int level) {
    return level >= 1 && level <= DEMO_LEVELS ? d->levels[level - 1].title_key : "";
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
    return demo__language_codes[d->set.language];
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
    char dir[600];
    snprintf(dir, sizeof dir, "%s/lang", d->data_dir);
    ear_lang_load_info info;
    memset(&info, 0, sizeof info);
    if (ear_lang_load_dir(lang, dir, &info) != EAR_OK || info.malformed_lines ||
        info.unreadable_files)
        ear_log(EAR_LOG_ERROR, "demo", "the game's texts (%s): %s", dir,
                info.first_error[0] ? info.first_error : "the folder could not be read");
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
    demo__define_controls(ctx, d);
    demo__apply_settings(ctx, d);
    if (d->save_broken) demo__report(ctx, d, ear_tr(ctx, "save.broken"));
    demo__apply_headphones(ctx, d, false);
    char why[300];
    ear_level *map = NULL;
    if (d->opt.start_level >= 1 && d->opt.start_level <= DEMO_LEVELS &&
        !(map = demo__build_map(ctx, d, d->opt.start_level, why, sizeof why))) {
        demo__play_menu_music(ctx, d);
        demo__load_failed(ctx, d, d->opt.start_level, why); /* to the main menu */
    } else if (map) {
        demo__load_level(ctx, d, d->opt.start_level, map);
    } else {
        demo__play_menu_music(ctx, d);
        demo__open_main_menu(ctx, d, NULL);
    }
    /* the first frame's actions in the profile of the screen started on (a key held
     * from frame 1 on drives a level started with --level at once) */
    demo__choose_profile(ctx, d);
}

static void fixed_update(ear_ctx *ctx, void *user) {
    demo *d = user;
    /* completion, game over or a route stops the frame's remaining steps; a close's Exit
     * does not: it is set before the frame (main.c) and the run ends after it, and a
     * replay, which has no close, takes that frame's step (else every recording that
     * ended by a close diverged at its last step) */
    if (d->screen != SCREEN_GAME || (d->route != DEMO_ROUTE_NONE && !d->closing) ||
        d->completed || d->game_over || !d->map)
        return;
    demo__play_step(ctx, d);
}

static void update(ear_ctx *ctx, void *user) {
    demo *d = user;
    demo__controls_frame(ctx, d);
    if (d->screen != SCREEN_GAME || d->completed || d->game_over || !d->map) return;
    if (ear_action_pressed(ctx, d->ctl.pause)) {
        d->paused_by_player = true;
        ear_time_pause(ear_ctx_time(ctx), EAR_PAUSE_PLAYER);
        demo__open_pause_menu(ctx, d);
        return;
    }
    /* a repeat and a history read are lines too: the log hears them (heard) */
    if (ear_action_pressed(ctx, d->ctl.repeat)) ear_say_repeat_last(ctx);
    if (ear_key_pressed(ctx, EAR_KEY_H)) ear_speech_history_back(ear_ctx_speech(ctx));
    if (ear_action_pressed(ctx, d->ctl.where)) demo__speak_where(ctx, d);
    if (ear_key_pressed(ctx, EAR_KEY_C)) demo__speak_facing(ctx, d);
    if (ear_action_pressed(ctx, d->ctl.status)) demo__speak_status(ctx, d);
    if (ear_key_pressed(ctx, EAR_KEY_S)) demo__speak_speed(ctx, d);
    if (ear_key_pressed(ctx, EAR_KEY_K))
        demo__say(ctx, ear_tr(ctx, d->car ? "keys.car" : "keys"));
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
        ear_level *map = demo__build_map(ctx, d, level, why, sizeof why);
        if (!map) {
            demo__load_failed(ctx, d, level, why);
            break;
        }
        ear_ui_close_all(ctx);
        demo__load_level(ctx, d, level, map);
        break;
    }
    case DEMO_ROUTE_LEVEL_SELECT: demo__open_level_select(ctx, d); break;
    case DEMO_ROUTE_MENU: demo__open_menu_route(ctx, d); break;
    case DEMO_ROUTE_EXIT:
        demo__write_save(ctx, d);
        ear_quit(ctx);
        break;
    }
    demo__choose_profile(ctx, d); /* for the next frame's actions */
    focus_rule(ctx, d);
    music_rule(ctx, d);
    demo__note_room(ctx, d);
    d->reported = false;
}

static void end(ear_ctx *ctx, void *user) {
    demo *d = user;
    demo__write_save(ctx, d);
    d->result.loads = ear_assets_get_stats(ear_ctx_assets(ctx)).loads;
    if (d->screen == SCREEN_GAME && !d->completed && d->level) {
        d->result.time_s = d->time_s;
        d->result.score = d->score;
    }
    demo__release_level_assets(ctx, d);
    if (d->menu_music) ear_assets_release(ear_ctx_assets(ctx), d->menu_music);
    d->menu_music = NULL;
    demo__unload_level(ctx, d);
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

/* The window's close, told before the frame's input and menus: the close's Exit replaces
 * any route the frame chooses (after_frame writes the save and quits), so a Start chosen
 * in the same frame never loads its level. */
static void close_requested(ear_ctx *ctx, void *user) {
    (void)ctx;
    demo_close(user);
}

ear_scene demo_scene(demo *d) {
    ear_scene s = {.name = "session",
                   .start = start,
                   .update = update,
                   .fixed_update = fixed_update,
                   .on_ui = demo__on_ui,
                   .end = end,
                   .hash_state = hash_state,
                   .user = d,
                   .close_requested = close_requested};
    return s;
}

void demo_configure(demo *d, ear_engine_config *cfg) {
    cfg->world_sync = after_frame;
    cfg->hook_user = d;
    cfg->assets_dir = d->opt.assets_dir;
    cfg->language = demo__language_codes[d->set.language];
    ear_physics_config pc = ear_physics_config_default();
    pc.gravity_mps2 = (ear_vec3){0, 0, 0};
    static ear_physics_config kept;
    kept = pc;
    cfg->physics = &kept;
}
