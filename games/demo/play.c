/* SPDX-License-Identifier: Zlib */
/*
 * A level being played, one fixed step at a time: walking (turns, steps by surface, bumps,
 * the walls' ticks) or driving (the car's pedals and wheel), the guide bell on the shortest
 * path a few metres ahead towards the current objective, the drones, the crates, the car's
 * crashes and fuel, the objectives found in order, completion and game over; and the keys'
 * read-outs (where am I, facing, status, speed).
 */
#include "demo_internal.h"

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
        size_t ahead = d->levels[d->level - 1].drive ? 3 : 2;
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
    const demo_level *def = &d->levels[d->level - 1];
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
    demo__fmt_time(bt, sizeof bt, best, demo__is_german(d));
    ear_lang_arg ba[1] = {demo__arg_s("time", bt)};
    if (ear_lang_format(ear_ctx_lang(ctx), "best", ba, 1, note, sizeof note, NULL) != EAR_OK)
        note[0] = '\0';
    if (demo__write_save(ctx, d)) {
        if (note[0]) snprintf(note + strlen(note), sizeof note - strlen(note), " ");
        snprintf(note + strlen(note), sizeof note - strlen(note), "%s",
                 ear_tr(ctx, "save.done"));
    }
    char t[32], s[32];
    demo__fmt_time(t, sizeof t, d->time_s, demo__is_german(d));
    snprintf(s, sizeof s, "%ld", d->score);
    ear_lang_arg a[2] = {demo__arg_s("time", t), demo__arg_s("score", s)};
    demo__report_fmt(ctx, d, "complete", a, 2);
    d->result.finished = true;
    d->result.time_s = d->time_s;
    d->result.score = d->score;
    d->result.levels_done++;
    ear_time_pause(ear_ctx_time(ctx), EAR_PAUSE_MENU);
    demo__open_end_menu(ctx, d, true, note);
}

static void lose(ear_ctx *ctx, demo *d) {
    d->game_over = true;
    char s[32];
    snprintf(s, sizeof s, "%ld", d->score);
    ear_lang_arg a[1] = {demo__arg_s("score", s)};
    demo__report_fmt(ctx, d, "gameover", a, 1);
    d->result.finished = false;
    d->result.time_s = d->time_s;
    d->result.score = d->score;
    ear_time_pause(ear_ctx_time(ctx), EAR_PAUSE_MENU);
    demo__open_end_menu(ctx, d, false, NULL);
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
    ear_lang_arg a[1] = {demo__arg_s("n", n)};
    char left[200] = "";
    ear_lang_format(ear_ctx_lang(ctx), "found.left", a, 1, left, sizeof left, NULL);
    char text[400];
    snprintf(text, sizeof text, "%s %s",
             ear_tr(ctx, t->kind == THING_RADIO ? "found.radio" : "found.pickup"), left);
    demo__report(ctx, d, text);
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
    if (ear_action_held(ctx, d->ctl.turn_left)) turn -= TURN_DPS * dt;
    if (ear_action_held(ctx, d->ctl.turn_right)) turn += TURN_DPS * dt;
    if (turn != 0) ear_body_turn(ph, d->player, turn);
    float move = 0;
    if (ear_action_held(ctx, d->ctl.walk_forward)) move += WALK_MPS * dt;
    if (ear_action_held(ctx, d->ctl.walk_back)) move -= WALK_MPS * 0.6f * dt;
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
    /* a key is 1, a trigger or the stick how far it is pushed */
    vc.gas = ear_action_value(ctx, d->ctl.gas);
    vc.brake = ear_action_value(ctx, d->ctl.brake);
    vc.steer =
        ear_action_value(ctx, d->ctl.steer_right) - ear_action_value(ctx, d->ctl.steer_left);
    ear_vehicle_set_controls(ph, d->car, &vc);
}

void demo__play_step(ear_ctx *ctx, demo *d) {
    ear_physics *ph = ear_ctx_physics(ctx);
    const demo_level *def = &d->levels[d->level - 1];
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
            ear_lang_arg a[1] = {demo__arg_s("n", n)};
            demo__report_fmt(ctx, d, d->lives == 1 ? "hurt.one" : "hurt", a, 1);
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
    /* the car: a hard crash ducks the music and shakes a pad that can (harder by speed);
     * an empty tank ends the drive */
    if (def->drive) {
        size_t n = 0;
        const ear_physics_event *ev = ear_physics_events(ph, &n);
        for (size_t i = 0; i < n; i++)
            if (ev[i].type == EAR_PHYS_CRASHED && ev[i].body == d->car && ev[i].speed_mps > 3 &&
                ev[i].step + 1 == ear_physics_steps(ph)) {
                ear_stage_trigger_duck(ear_ctx_stage(ctx), "crash", 1.0f);
                float shake = ev[i].speed_mps > 12 ? 1.0f : ev[i].speed_mps / 12;
                ear_pad_rumble(ctx, shake, shake * 0.6f, 350); /* no pad: nothing happens */
                d->score -= 20;
            }
        ear_vehicle_state vs;
        if (ear_vehicle_get_state(ph, d->car, &vs) == EAR_OK && !vs.engine_on &&
            fabsf(vs.speed_mps) < 0.05f) {
            demo__report(ctx, d, ear_tr(ctx, "fuel.out"));
            lose(ctx, d);
            return;
        }
    }
    thing *t = current_thing(d);
    if (t && dist2d(t->pos, pos) < (def->drive ? 2.0f : REACH_M)) reach(ctx, d, t);
}

void demo__speak_where(ear_ctx *ctx, demo *d) {
    ear_physics *ph = ear_ctx_physics(ctx);
    ear_body_info info;
    ear_body_get(ph, d->player, &info);
    ear_vec3 g;
    ear_body_position(ph, d->guide, &g);
    char where[200] = "", t[32], s[32], found[24], total[24];
    ear_describe_position(ear_ctx_lang(ctx), info.desc.position_m, info.desc.facing_deg, g,
                          where, sizeof where, NULL);
    demo__fmt_time(t, sizeof t, d->time_s, demo__is_german(d));
    snprintf(s, sizeof s, "%ld", d->score);
    snprintf(found, sizeof found, "%zu", d->current);
    snprintf(total, sizeof total, "%zu", d->thing_count);
    ear_lang_arg a[6] = {demo__arg_s("level", ear_tr(ctx, d->levels[d->level - 1].title_key)),
                         demo__arg_s("where", where),
                         demo__arg_s("found", found),
                         demo__arg_s("total", total),
                         demo__arg_s("time", t),
                         demo__arg_s("score", s)};
    demo__say_fmt(ctx, "where", a, 6);
}

void demo__speak_facing(ear_ctx *ctx, demo *d) {
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
    ear_lang_arg a[2] = {demo__arg_s("compass", compass), demo__arg_s("clock", clock)};
    demo__say_fmt(ctx, "facing", a, 2);
}

/* T: time, score and lives; in the car what the car has instead of lives (no drone
 * hurts it): its speed, gear and fuel against its tank. */
void demo__speak_status(ear_ctx *ctx, demo *d) {
    char t[32], s[32], l[16];
    demo__fmt_time(t, sizeof t, d->time_s, demo__is_german(d));
    snprintf(s, sizeof s, "%ld", d->score);
    snprintf(l, sizeof l, "%d", d->lives);
    ear_vehicle_state vs;
    if (d->car && ear_vehicle_get_state(ear_ctx_physics(ctx), d->car, &vs) == EAR_OK) {
        char speed[100] = "", gear[16], gears[16], fuel[16], tank[16];
        ear_describe_speed(ear_ctx_lang(ctx), vs.speed_mps, EAR_SPEED_KMH, speed, sizeof speed,
                           NULL);
        snprintf(gear, sizeof gear, "%u", vs.gear);
        snprintf(gears, sizeof gears, "%u", vs.config.gears);
        demo__fmt_time(fuel, sizeof fuel, vs.fuel_l, demo__is_german(d));
        demo__fmt_time(tank, sizeof tank, vs.config.fuel_capacity_l, demo__is_german(d));
        ear_lang_arg a[7] = {demo__arg_s("time", t),      demo__arg_s("score", s),
                             demo__arg_s("speed", speed), demo__arg_s("gear", gear),
                             demo__arg_s("gears", gears), demo__arg_s("fuel", fuel),
                             demo__arg_s("tank", tank)};
        demo__say_fmt(ctx, "status.car", a, 7);
        return;
    }
    ear_lang_arg a[3] = {demo__arg_s("time", t), demo__arg_s("score", s),
                         demo__arg_s("lives", l)};
    demo__say_fmt(ctx, d->lives == 1 ? "status.one" : "status", a, 3);
}

void demo__speak_speed(ear_ctx *ctx, demo *d) {
    ear_vehicle_state vs;
    if (!d->car || ear_vehicle_get_state(ear_ctx_physics(ctx), d->car, &vs) != EAR_OK) {
        demo__say(ctx, ear_tr(ctx, "speed.foot")); /* why S does nothing here */
        return;
    }
    char speed[100] = "", gear[16], fuel[16];
    ear_describe_speed(ear_ctx_lang(ctx), vs.speed_mps, EAR_SPEED_KMH, speed, sizeof speed,
                       NULL);
    snprintf(gear, sizeof gear, "%u", vs.gear);
    demo__fmt_time(fuel, sizeof fuel, vs.fuel_l, demo__is_german(d));
    ear_lang_arg a[3] = {demo__arg_s("speed", speed), demo__arg_s("gear", gear),
                         demo__arg_s("fuel", fuel)};
    demo__say_fmt(ctx, "speed", a, 3);
}
