/* SPDX-License-Identifier: Zlib */
/*
 * The world bindings (docs/lua.md, "levels and bodies"): ASCII levels, bodies in the
 * engine's physics world, and the audio world's sources and listener on them. A level is
 * a userdata owning its ear_level (its __gc frees it: a level is plain data, it needs no
 * engine). A body is a userdata holding only the physics body id (generation-checked, so
 * a removed body answers EAR_E_STALE_ID); the world owns the body, and a body a script
 * drops stays in the world until body:remove(). Rows and columns count from 0, as the
 * engine's cells do (docs/modules/physics.md); positions are metres.
 */
#include "lua_internal.h"

#include "earshot/level.h"

#include <math.h>
#include <string.h>

#define LEVEL_MT "earshot.level"
#define BODY_MT  "earshot.body"

typedef struct lua_level {
    ear_level *level;
} lua_level;

typedef struct lua_body {
    ear_body_id id;
} lua_body;

static ear_physics *physics_of(lua_State *L) {
    return ear_ctx_physics(ear__lua_ctx(L));
}

static void push_vec(lua_State *L, ear_vec3 v) {
    lua_pushnumber(L, v.x);
    lua_pushnumber(L, v.y);
    lua_pushnumber(L, v.z);
}

static ear_vec3 check_vec(lua_State *L, int i) {
    return ear_vec3_make((float)luaL_checknumber(L, i), (float)luaL_checknumber(L, i + 1),
                         (float)luaL_checknumber(L, i + 2));
}

static float opt_field(lua_State *L, int t, const char *name, float fallback) {
    lua_getfield(L, t, name);
    float v = lua_isnil(L, -1) ? fallback : (float)luaL_checknumber(L, -1);
    lua_pop(L, 1);
    return v;
}

/* ---- levels --------------------------------------------------------------------------- */

/* earshot.level(map [, cell_m=1, wall_height_m=3]) */
static int l_level(lua_State *L) {
    size_t size;
    const char *text = luaL_checklstring(L, 1, &size);
    ear_level_config c = ear_level_config_default();
    c.cell_m = (float)luaL_optnumber(L, 2, 1);
    c.wall_height_m = (float)luaL_optnumber(L, 3, 3);
    lua_level *lv = lua_newuserdatauv(L, sizeof *lv, 0);
    lv->level = NULL;
    luaL_setmetatable(L, LEVEL_MT);
    ear_level_error err;
    memset(&err, 0, sizeof err);
    ear_result r = ear_level_build_with(text, size, &c, &lv->level, &err);
    if (r != EAR_OK)
        return luaL_error(L, "earshot.level: %s: %s", ear_result_name(r),
                          err.message[0] ? err.message : ear_result_string(r));
    return 1;
}

static ear_level *check_level(lua_State *L) {
    lua_level *lv = luaL_checkudata(L, 1, LEVEL_MT);
    if (!lv->level) luaL_error(L, "a level that was not built");
    return lv->level;
}

static int lv_gc(lua_State *L) {
    lua_level *lv = luaL_checkudata(L, 1, LEVEL_MT);
    ear_level_destroy(lv->level);
    lv->level = NULL;
    return 0;
}
static int lv_rows(lua_State *L) {
    lua_pushinteger(L, ear_level_rows(check_level(L)));
    return 1;
}
static int lv_columns(lua_State *L) {
    lua_pushinteger(L, ear_level_columns(check_level(L)));
    return 1;
}
/* level:char_at(row, column): the character there ("" outside the map). */
static int lv_char_at(lua_State *L) {
    ear_level *lv = check_level(L);
    lua_Integer row = luaL_checkinteger(L, 2), col = luaL_checkinteger(L, 3);
    uint32_t ch = row < 0 || col < 0 ? 0 : ear_level_char_at(lv, (uint32_t)row, (uint32_t)col);
    char out[5] = {0};
    if (ch) ear_utf8_encode(ch, out);
    lua_pushstring(L, out);
    return 1;
}
/* level:tiles(char) -> { {x=, y=, z=}, ... }: the centres of that character's cells. */
static int lv_tiles(lua_State *L) {
    ear_level *lv = check_level(L);
    const char *s = luaL_checkstring(L, 2);
    uint32_t ch = 0;
    ear_utf8_decode(s, strlen(s), &ch);
    size_t n = ear_level_tile_count(lv, ch);
    lua_createtable(L, (int)n, 0);
    for (size_t i = 0; i < n; i++) {
        ear_vec3 c;
        uint32_t row, col;
        if (!ear_level_tile(lv, ch, i, &c, &row, &col)) break;
        lua_createtable(L, 0, 5);
        lua_pushnumber(L, c.x);
        lua_setfield(L, -2, "x");
        lua_pushnumber(L, c.y);
        lua_setfield(L, -2, "y");
        lua_pushnumber(L, c.z);
        lua_setfield(L, -2, "z");
        lua_pushinteger(L, row);
        lua_setfield(L, -2, "row");
        lua_pushinteger(L, col);
        lua_setfield(L, -2, "column");
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    return 1;
}
/* level:cell_at(x, y, z) -> row, column (nil outside). */
static int lv_cell_at(lua_State *L) {
    ear_level *lv = check_level(L);
    uint32_t row, col;
    if (!ear_level_cell_at(lv, check_vec(L, 2), &row, &col)) return 0;
    lua_pushinteger(L, row);
    lua_pushinteger(L, col);
    return 2;
}
/* level:add_walls() -> count: the walls as fixed boxes in the engine's physics world. */
static int lv_add_walls(lua_State *L) {
    ear_level *lv = check_level(L);
    size_t added = 0;
    ear_result r = ear_level_add_to_world(lv, physics_of(L), &added);
    if (r != EAR_OK) return ear__lua_fail(L, r, "level:add_walls");
    lua_pushinteger(L, (lua_Integer)added);
    return 1;
}
static int lv_wall_count(lua_State *L) {
    lua_pushinteger(L, (lua_Integer)ear_level_wall_count(check_level(L)));
    return 1;
}

/* level:path(x1, y1, z1, x2, y2, z2 [, {diagonal=, costs={["~"]=5, ...}, default_cost=}])
 * -> { {x=, y=, z=}, ... }, length_m, cost; or nil, "EAR_E_NOT_FOUND" when there is no way.
 * A* over the level's cells: the cheapest path from the cell under the first point to the
 * cell under the second (docs/modules/level.md). */
static int lv_path(lua_State *L) {
    ear_level *lv = check_level(L);
    ear_vec3 from = check_vec(L, 2), to = check_vec(L, 5);
    ear_path_config c = ear_path_config_default();
    ear_path_cost costs[32];
    size_t cost_count = 0;
    if (!lua_isnoneornil(L, 8)) {
        luaL_checktype(L, 8, LUA_TTABLE);
        lua_getfield(L, 8, "diagonal");
        c.diagonal = lua_toboolean(L, -1);
        lua_pop(L, 1);
        c.default_cost = opt_field(L, 8, "default_cost", 0);
        lua_getfield(L, 8, "costs");
        if (!lua_isnil(L, -1)) {
            luaL_checktype(L, -1, LUA_TTABLE);
            lua_pushnil(L);
            while (lua_next(L, -2)) {
                if (cost_count == sizeof costs / sizeof costs[0])
                    return luaL_error(L, "level:path: more than %d costs",
                                      (int)(sizeof costs / sizeof costs[0]));
                size_t len;
                const char *k =
                    lua_type(L, -2) == LUA_TSTRING ? lua_tolstring(L, -2, &len) : NULL;
                uint32_t ch = 0;
                if (!k || ear_utf8_decode(k, len, &ch) != len || !ch)
                    return luaL_error(L, "level:path: a cost's key must be one character");
                costs[cost_count].ch = ch;
                costs[cost_count].cost = (float)luaL_checknumber(L, -1);
                cost_count++;
                lua_pop(L, 1);
            }
        }
        lua_pop(L, 1);
    }
    c.costs = costs;
    c.cost_count = cost_count;
    ear_path path;
    ear_result r = ear_level_find_path(lv, from, to, &c, &path);
    if (r == EAR_E_NOT_FOUND) {
        ear_path_release(&path);
        lua_pushnil(L);
        lua_pushstring(L, ear_result_name(r));
        return 2;
    }
    if (r != EAR_OK) {
        ear_path_release(&path);
        return ear__lua_fail(L, r, "level:path");
    }
    /* the points are copied into Lua before a Lua error could skip the release */
    if (!lua_checkstack(L, 8)) {
        ear_path_release(&path);
        return luaL_error(L, "level:path: no stack");
    }
    lua_createtable(L, path.count > INT_MAX ? INT_MAX : (int)path.count, 0);
    for (size_t i = 0; i < path.count; i++) {
        lua_createtable(L, 0, 3);
        lua_pushnumber(L, path.points[i].x);
        lua_setfield(L, -2, "x");
        lua_pushnumber(L, path.points[i].y);
        lua_setfield(L, -2, "y");
        lua_pushnumber(L, path.points[i].z);
        lua_setfield(L, -2, "z");
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    lua_pushnumber(L, path.length_m);
    lua_pushnumber(L, path.cost);
    ear_path_release(&path);
    return 3;
}

/* ---- bodies --------------------------------------------------------------------------- */

static const char *const kind_names[] = {"dynamic", "kinematic", "fixed", NULL};

/* earshot.body{name=, x=, y=, z=, kind=, shape=, radius=, size={x,y,z} half extents,
 * facing=, mass=, sensor=, gravity_scale=, friction=} -> body */
static int l_body(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    ear_body_desc d = ear_body_desc_default();
    lua_getfield(L, 1, "name");
    d.name = lua_tostring(L, -1);
    lua_getfield(L, 1, "kind");
    if (!lua_isnil(L, -1)) d.kind = (ear_body_kind)luaL_checkoption(L, -1, NULL, kind_names);
    lua_getfield(L, 1, "shape");
    if (!lua_isnil(L, -1)) {
        static const char *const shapes[] = {"box", "sphere", NULL};
        d.shape = (ear_shape)luaL_checkoption(L, -1, NULL, shapes);
    }
    lua_getfield(L, 1, "sensor");
    d.sensor = lua_toboolean(L, -1);
    d.position_m = ear_vec3_make(opt_field(L, 1, "x", 0), opt_field(L, 1, "y", 0),
                                 opt_field(L, 1, "z", 0));
    d.radius_m = opt_field(L, 1, "radius", d.radius_m);
    float half = opt_field(L, 1, "half", 0);
    if (half > 0) d.half_extents_m = ear_vec3_make(half, half, half);
    d.facing_deg = opt_field(L, 1, "facing", 0);
    d.mass_kg = opt_field(L, 1, "mass", d.mass_kg);
    d.gravity_scale = opt_field(L, 1, "gravity_scale", d.gravity_scale);
    d.friction = opt_field(L, 1, "friction", d.friction);
    ear_vehicle_config vc = ear_vehicle_config_default();
    lua_getfield(L, 1, "vehicle");
    if (!lua_isnil(L, -1)) {
        luaL_checktype(L, -1, LUA_TTABLE);
        int t = lua_gettop(L);
        vc.load_kg = opt_field(L, t, "load_kg", vc.load_kg);
        vc.engine_force_n = opt_field(L, t, "engine_force_n", vc.engine_force_n);
        vc.brake_force_n = opt_field(L, t, "brake_force_n", vc.brake_force_n);
        vc.top_speed_mps = opt_field(L, t, "top_speed_mps", vc.top_speed_mps);
        vc.grip_mps2 = opt_field(L, t, "grip_mps2", vc.grip_mps2);
        vc.rolling_resistance_mps2 =
            opt_field(L, t, "rolling_resistance_mps2", vc.rolling_resistance_mps2);
        vc.engine_braking_mps2 = opt_field(L, t, "engine_braking_mps2", vc.engine_braking_mps2);
        vc.turn_radius_m = opt_field(L, t, "turn_radius_m", vc.turn_radius_m);
        vc.max_turn_rate_dps = opt_field(L, t, "max_turn_rate_dps", vc.max_turn_rate_dps);
        vc.gears = (uint32_t)opt_field(L, t, "gears", (float)vc.gears);
        vc.idle_rpm = opt_field(L, t, "idle_rpm", vc.idle_rpm);
        vc.max_rpm = opt_field(L, t, "max_rpm", vc.max_rpm);
        vc.fuel_l = opt_field(L, t, "fuel_l", vc.fuel_l);
        vc.fuel_capacity_l = opt_field(L, t, "fuel_capacity_l", vc.fuel_capacity_l);
        vc.consumption_l_per_100km =
            opt_field(L, t, "consumption_l_per_100km", vc.consumption_l_per_100km);
        lua_getfield(L, t, "engine_on");
        if (!lua_isnil(L, -1)) vc.engine_on = lua_toboolean(L, -1);
        lua_pop(L, 1);
        d.vehicle = &vc;
    }
    lua_pop(L, 1);
    ear_body_id id = EAR_BODY_NONE;
    ear_result r = ear_physics_add_body(physics_of(L), &d, &id);
    lua_pop(L, 4);
    if (r != EAR_OK) return ear__lua_fail(L, r, "earshot.body");
    lua_body *b = lua_newuserdatauv(L, sizeof *b, 0);
    b->id = id;
    luaL_setmetatable(L, BODY_MT);
    return 1;
}

static ear_body_id check_body(lua_State *L) {
    return ((lua_body *)luaL_checkudata(L, 1, BODY_MT))->id;
}

static int b_position(lua_State *L) {
    ear_body_id id = check_body(L);
    ear_vec3 p;
    ear_result r = ear_body_position(physics_of(L), id, &p);
    if (r != EAR_OK) return ear__lua_fail(L, r, "body:position");
    push_vec(L, p);
    return 3;
}
static int b_set_position(lua_State *L) {
    ear_body_id id = check_body(L);
    ear_result r = ear_body_set_position(physics_of(L), id, check_vec(L, 2));
    if (r != EAR_OK) return ear__lua_fail(L, r, "body:set_position");
    return 0;
}
/* body:move(dx, dy, dz) -> blocked: moves through the physics, stopped by walls. */
static int b_move(lua_State *L) {
    ear_body_id id = check_body(L);
    bool blocked = false;
    ear_result r = ear_body_move_by(physics_of(L), id, check_vec(L, 2), &blocked);
    if (r != EAR_OK) return ear__lua_fail(L, r, "body:move");
    lua_pushboolean(L, blocked);
    return 1;
}
static int b_forward(lua_State *L) {
    ear_body_id id = check_body(L);
    bool blocked = false;
    ear_result r =
        ear_body_move_forward(physics_of(L), id, (float)luaL_checknumber(L, 2), &blocked);
    if (r != EAR_OK) return ear__lua_fail(L, r, "body:forward");
    lua_pushboolean(L, blocked);
    return 1;
}
static int b_turn(lua_State *L) {
    ear_body_id id = check_body(L);
    ear_result r = ear_body_turn(physics_of(L), id, (float)luaL_checknumber(L, 2));
    if (r != EAR_OK) return ear__lua_fail(L, r, "body:turn");
    return 0;
}
static int b_facing(lua_State *L) {
    ear_body_id id = check_body(L);
    ear_body_info info;
    ear_result r = ear_body_get(physics_of(L), id, &info);
    if (r != EAR_OK) return ear__lua_fail(L, r, "body:facing");
    lua_pushnumber(L, info.desc.facing_deg);
    return 1;
}
static int b_remove(lua_State *L) {
    ear_body_id id = check_body(L);
    ear_result r = ear_physics_remove_body(physics_of(L), id);
    lua_pushboolean(L, r == EAR_OK);
    return 1;
}
static int b_exists(lua_State *L) {
    ear_body_id id = check_body(L);
    lua_pushboolean(L, ear_body_exists(physics_of(L), id));
    return 1;
}
/* body:sound{sound=, loop=, volume_db=, pitch=, bus=, max_distance=, ref_distance=,
 * model=, occlusion=}: the audio world plays it on the body. */
static int b_sound(lua_State *L) {
    ear_body_id id = check_body(L);
    luaL_checktype(L, 2, LUA_TTABLE);
    ear_source s = ear_source_default();
    lua_getfield(L, 2, "sound");
    const char *name = luaL_checkstring(L, -1);
    if (strlen(name) >= sizeof s.sound)
        return luaL_error(L, "body:sound: the name \"%s\" is over %d bytes", name,
                          (int)sizeof s.sound - 1);
    memcpy(s.sound, name, strlen(name) + 1);
    lua_pop(L, 1);
    lua_getfield(L, 2, "loop");
    s.looping = lua_toboolean(L, -1);
    lua_getfield(L, 2, "occlusion");
    s.occlusion = lua_toboolean(L, -1);
    lua_pop(L, 2);
    double db = opt_field(L, 2, "volume_db", 0);
    s.volume = db <= -200 ? 0.0f : (float)pow(10.0, db / 20.0);
    s.pitch = opt_field(L, 2, "pitch", 1);
    s.attenuation.max_distance_m = opt_field(L, 2, "max_distance", 0);
    s.attenuation.ref_distance_m = opt_field(L, 2, "ref_distance", 0);
    lua_getfield(L, 2, "model");
    if (!lua_isnil(L, -1)) {
        static const char *const models[] = {"default", "inverse", "linear", "exponential",
                                             "none",    "fade",    NULL};
        s.attenuation.model = (ear_distance_model)luaL_checkoption(L, -1, NULL, models);
    }
    lua_pop(L, 1);
    ear_result r = ear_world_set_source(ear_ctx_world(ear__lua_ctx(L)), id, &s);
    if (r != EAR_OK) return ear__lua_fail(L, r, "body:sound");
    return 0;
}
static int b_stop_sound(lua_State *L) {
    ear_body_id id = check_body(L);
    lua_pushboolean(L, ear_world_remove_source(ear_ctx_world(ear__lua_ctx(L)), id) == EAR_OK);
    return 1;
}
/* body:listen(): the ears are on this body (the audio world's listener). */
static int b_listen(lua_State *L) {
    ear_body_id id = check_body(L);
    ear_listener_component c = ear_listener_component_default();
    ear_result r = ear_world_set_listener(ear_ctx_world(ear__lua_ctx(L)), id, &c);
    if (r != EAR_OK) return ear__lua_fail(L, r, "body:listen");
    return 0;
}

static void push_body(lua_State *L, ear_body_id id) {
    lua_body *b = lua_newuserdatauv(L, sizeof *b, 0);
    b->id = id;
    luaL_setmetatable(L, BODY_MT);
}

/* body:name() -> the name it was given ("" when none) */
static int b_name(lua_State *L) {
    ear_body_id id = check_body(L);
    ear_body_info info;
    ear_result r = ear_body_get(physics_of(L), id, &info);
    if (r != EAR_OK) return ear__lua_fail(L, r, "body:name");
    lua_pushstring(L, info.desc.name ? info.desc.name : "");
    return 1;
}

/* ---- vehicles ----------------------------------------------------------------------- */

/* body:drive{gas=, brake=, steer=, handbrake=}: the driver's controls, kept until changed
 * (fields left out keep their value). */
static int b_drive(lua_State *L) {
    ear_body_id id = check_body(L);
    luaL_checktype(L, 2, LUA_TTABLE);
    ear_physics *w = physics_of(L);
    ear_vehicle_state st;
    ear_result r = ear_vehicle_get_state(w, id, &st);
    if (r != EAR_OK) return ear__lua_fail(L, r, "body:drive");
    ear_vehicle_controls c = st.controls;
    c.gas = opt_field(L, 2, "gas", c.gas);
    c.brake = opt_field(L, 2, "brake", c.brake);
    c.steer = opt_field(L, 2, "steer", c.steer);
    lua_getfield(L, 2, "handbrake");
    if (!lua_isnil(L, -1)) c.handbrake = lua_toboolean(L, -1);
    lua_pop(L, 1);
    r = ear_vehicle_set_controls(w, id, &c);
    if (r != EAR_OK) return ear__lua_fail(L, r, "body:drive");
    return 0;
}
/* body:engine(on) */
static int b_engine(lua_State *L) {
    ear_body_id id = check_body(L);
    ear_result r = ear_vehicle_set_engine(physics_of(L), id, lua_toboolean(L, 2));
    if (r != EAR_OK) return ear__lua_fail(L, r, "body:engine");
    return 0;
}
/* body:refuel(litres) */
static int b_refuel(lua_State *L) {
    ear_body_id id = check_body(L);
    ear_result r = ear_vehicle_set_fuel(physics_of(L), id, (float)luaL_checknumber(L, 2));
    if (r != EAR_OK) return ear__lua_fail(L, r, "body:refuel");
    return 0;
}
/* body:vehicle() -> {speed_mps=, rpm=, gear=, reversing=, load=, fuel_l=, engine_on=,
 * turn_rate_dps=, odometer_m=}, or nil for a body that is no vehicle. */
static int b_vehicle(lua_State *L) {
    ear_body_id id = check_body(L);
    ear_physics *w = physics_of(L);
    if (!ear_body_is_vehicle(w, id)) return 0;
    ear_vehicle_state st;
    ear_result r = ear_vehicle_get_state(w, id, &st);
    if (r != EAR_OK) return ear__lua_fail(L, r, "body:vehicle");
    lua_createtable(L, 0, 9);
    lua_pushnumber(L, st.speed_mps);
    lua_setfield(L, -2, "speed_mps");
    lua_pushnumber(L, st.rpm);
    lua_setfield(L, -2, "rpm");
    lua_pushinteger(L, st.gear);
    lua_setfield(L, -2, "gear");
    lua_pushboolean(L, st.reversing);
    lua_setfield(L, -2, "reversing");
    lua_pushnumber(L, st.load);
    lua_setfield(L, -2, "load");
    lua_pushnumber(L, st.fuel_l);
    lua_setfield(L, -2, "fuel_l");
    lua_pushboolean(L, st.engine_on);
    lua_setfield(L, -2, "engine_on");
    lua_pushnumber(L, st.turn_rate_dps);
    lua_setfield(L, -2, "turn_rate_dps");
    lua_pushnumber(L, st.odometer_m);
    lua_setfield(L, -2, "odometer_m");
    return 1;
}

/* ---- rays ---------------------------------------------------------------------------- */

/* The ray options at index t: {ignore={body, ...}, sensors=true}; ids into ignore. */
static void read_ray(lua_State *L, int t, ear_ray_options *o, ear_body_id *ignore, size_t cap) {
    memset(o, 0, sizeof *o);
    if (lua_isnoneornil(L, t)) return;
    luaL_checktype(L, t, LUA_TTABLE);
    lua_getfield(L, t, "sensors");
    o->include_sensors = lua_toboolean(L, -1);
    lua_getfield(L, t, "ignore");
    if (!lua_isnil(L, -1)) {
        luaL_checktype(L, -1, LUA_TTABLE);
        lua_Integer n = luaL_len(L, -1);
        if (n > (lua_Integer)cap)
            luaL_error(L, "earshot.ray: more than %d to ignore", (int)cap);
        for (lua_Integer i = 1; i <= n; i++) {
            lua_rawgeti(L, -1, i);
            ignore[i - 1] = ((lua_body *)luaL_checkudata(L, -1, BODY_MT))->id;
            lua_pop(L, 1);
        }
        o->ignore = ignore;
        o->ignore_count = (size_t)n;
    }
    lua_pop(L, 2);
}

/* earshot.ray(x1, y1, z1, x2, y2, z2 [, options]) -> distance_m, body, x, y, z, nx, ny, nz
 * of the nearest body the segment touches, or nil. */
static int l_ray(lua_State *L) {
    ear_vec3 from = check_vec(L, 1), to = check_vec(L, 4);
    ear_body_id ignore[16];
    ear_ray_options o;
    read_ray(L, 7, &o, ignore, 16);
    ear_ray_hit hit;
    bool found = false;
    ear_result r = ear_physics_ray_cast(physics_of(L), from, to, &o, &hit, &found);
    if (r != EAR_OK) return ear__lua_fail(L, r, "earshot.ray");
    if (!found) return 0;
    lua_pushnumber(L, hit.distance_m);
    push_body(L, hit.body);
    push_vec(L, hit.point_m);
    push_vec(L, hit.normal);
    return 8;
}
/* earshot.ray_count(x1, y1, z1, x2, y2, z2 [, options]) -> the bodies along the segment */
static int l_ray_count(lua_State *L) {
    ear_vec3 from = check_vec(L, 1), to = check_vec(L, 4);
    ear_body_id ignore[16];
    ear_ray_options o;
    read_ray(L, 7, &o, ignore, 16);
    size_t n = 0;
    ear_result r = ear_physics_ray_cast_all(physics_of(L), from, to, &o, NULL, 0, &n);
    if (r != EAR_OK) return ear__lua_fail(L, r, "earshot.ray_count");
    lua_pushinteger(L, (lua_Integer)n);
    return 1;
}
/* earshot.find_body(name) -> the body of that name, or nil */
static int l_find_body(lua_State *L) {
    ear_body_id id = ear_physics_find(physics_of(L), luaL_checkstring(L, 1));
    if (id == EAR_BODY_NONE) return 0;
    push_body(L, id);
    return 1;
}

static int l_gravity(lua_State *L) {
    ear_result r = ear_physics_set_gravity(physics_of(L), check_vec(L, 1));
    if (r != EAR_OK) return ear__lua_fail(L, r, "earshot.gravity");
    return 0;
}

static void new_type(lua_State *L, const char *mt, const char *name, const luaL_Reg *methods,
                     lua_CFunction gc) {
    luaL_newmetatable(L, mt);
    lua_newtable(L);
    luaL_setfuncs(L, methods, 0);
    lua_setfield(L, -2, "__index");
    lua_pushstring(L, name);
    lua_setfield(L, -2, "__name");
    if (gc) {
        lua_pushcfunction(L, gc);
        lua_setfield(L, -2, "__gc");
    }
    lua_pop(L, 1);
}

void ear__lua_open_world(lua_State *L) {
    static const luaL_Reg level_methods[] = {{"rows", lv_rows},
                                             {"columns", lv_columns},
                                             {"char_at", lv_char_at},
                                             {"tiles", lv_tiles},
                                             {"cell_at", lv_cell_at},
                                             {"add_walls", lv_add_walls},
                                             {"wall_count", lv_wall_count},
                                             {"path", lv_path},
                                             {NULL, NULL}};
    static const luaL_Reg body_methods[] = {{"position", b_position},
                                            {"set_position", b_set_position},
                                            {"move", b_move},
                                            {"forward", b_forward},
                                            {"turn", b_turn},
                                            {"facing", b_facing},
                                            {"remove", b_remove},
                                            {"exists", b_exists},
                                            {"sound", b_sound},
                                            {"stop_sound", b_stop_sound},
                                            {"listen", b_listen},
                                            {"name", b_name},
                                            {"drive", b_drive},
                                            {"engine", b_engine},
                                            {"refuel", b_refuel},
                                            {"vehicle", b_vehicle},
                                            {NULL, NULL}};
    new_type(L, LEVEL_MT, "level", level_methods, lv_gc);
    new_type(L, BODY_MT, "body", body_methods, NULL);
    static const luaL_Reg fns[] = {
        {"level", l_level}, {"body", l_body},           {"gravity", l_gravity},
        {"ray", l_ray},     {"ray_count", l_ray_count}, {"find_body", l_find_body},
        {NULL, NULL}};
    lua_getglobal(L, "earshot");
    luaL_setfuncs(L, fns, 0);
    lua_pop(L, 1);
}
