/* SPDX-License-Identifier: Zlib */
/*
 * A level into the world and out (docs/game.md, "Levels"). Its map (its level file's, or
 * --map's: levels.c builds and checks it) becomes walls (ear_level_add_to_world), the
 * player or the car, the objectives in their order (sensor bodies with looping sources),
 * the drones that patrol their rows, the crates, and the guide bell. Each level is a place
 * with a room (a reverb preset): a reverb zone over its whole map that the ear is in from
 * the first sync; footsteps, bumps, wall ticks, the crate and the level's things send to
 * it; the guide bell, the menus, speech, music and the flat feedback sounds do not. The
 * sounds a level needs are held while it is played (the asset cache). A level that cannot
 * be built is said, and the player stays where they were.
 */
#include "demo_internal.h"

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
    const demo_level *def = &d->levels[level - 1];
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

void demo__release_level_assets(ear_ctx *ctx, demo *d) {
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
static void set_room(demo *d, ear_world *w, const demo_level *def) {
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
void demo__note_room(ear_ctx *ctx, demo *d) {
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

void demo__unload_level(ear_ctx *ctx, demo *d) {
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

/* Builds a level's map (demo_options.maps[level - 1], else the built-in one) and checks
 * that it has what the level needs: its start and its goal. NULL on failure, with the
 * reason in why (the builder's "row 3, column 4: ..." or the missing tile). Nothing of
 * the level being played is touched, so a level that cannot load leaves it whole. */
ear_level *demo__build_map(ear_ctx *ctx, demo *d, int level, char *why, size_t cap) {
    const demo_level *def = &d->levels[level - 1];
    if (!d->level_ok[level - 1]) {
        snprintf(why, cap, "%s", d->level_why[level - 1]);
        return NULL;
    }
    ear_level *map = NULL;
    demo_map_check c;
    const char *file = d->opt.map_files[level - 1];
    if (file) {
        /* a map of its own (--map): read at each load, every line the map */
        char *text = NULL, err[600];
        size_t size = 0;
        if (ear_file_read(file, DEMO_LEVEL_MAX_BYTES, NULL, &text, &size, err, sizeof err) !=
            EAR_OK) {
            snprintf(why, cap, "%s.", err);
            return NULL;
        }
        c = demo_level_build_map(def, text, size, file, 1, &map, why, cap);
        ear_allocator a = ear_allocator_resolve(NULL);
        a.free_fn(text, a.user);
    } else {
        c = demo_level_build_map(def, NULL, 0, NULL, 0, &map, why, cap);
    }
    if (c == DEMO_MAP_NO_START || c == DEMO_MAP_NO_GOAL) {
        /* the builder's reasons are English (as the HRTF loader's); this one is the game's */
        bool no_start = c == DEMO_MAP_NO_START;
        char tile[2] = {
            (char)(no_start ? demo_level_start_tile(def) : demo_level_goal_tile(def)), '\0'};
        ear_lang_arg a[1] = {demo__arg_s("tile", tile)};
        if (ear_lang_format(ear_ctx_lang(ctx), no_start ? "load.no_start" : "load.no_goal", a,
                            1, why, cap, NULL) != EAR_OK)
            snprintf(why, cap, "%s", tile);
    }
    return map; /* a failure is logged and said by load_failed */
}

/* Loads a level from its built map (build_map's, taken). */
void demo__load_level(ear_ctx *ctx, demo *d, int level, ear_level *map) {
    demo__unload_level(ctx, d);
    const demo_level *def = &d->levels[level - 1];
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
    for (size_t k = 0; k < def->objective_count; k++) {
        uint32_t kind = def->objectives[k];
        thing_kind tk = kind == DEMO_TILE_RADIO     ? THING_RADIO
                        : kind == DEMO_TILE_SPARKLE ? THING_PICKUP
                                                    : THING_GOAL;
        for (size_t i = 0; i < ear_level_tile_count(d->map, kind); i++) {
            if (d->thing_count == MAX_THINGS) break;
            ear_level_tile(d->map, kind, i, &c, &row, &col);
            thing *t = &d->things[d->thing_count++];
            t->kind = tk;
            t->pos = (ear_vec3){c.x, 0.5f, c.z};
            t->done = false;
            t->body = add_body(ph, "objective", EAR_BODY_FIXED, t->pos, 0.2f, true);
            const char *sound = tk == THING_PICKUP  ? "sparkle"
                                : tk == THING_RADIO ? "radio"
                                : def->drive        ? "win"
                                                    : "beacon";
            if (!def->drive || tk != THING_GOAL)
                set_loop(w, t->body, sound, tk == THING_RADIO ? 0.8f : 0.35f, tk == THING_RADIO,
                         1.0f, SEND_THING);
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
        demo__report(ctx, d, ear_tr(ctx, def->intro_key));
    else
        demo__say(ctx, ear_tr(ctx, def->intro_key));
    d->screen = SCREEN_GAME;
    d->result.level = level;
    d->result.finished = false;
    ear_time_resume(ear_ctx_time(ctx), EAR_PAUSE_MENU | EAR_PAUSE_PLAYER);
    d->paused_by_player = false;
}
