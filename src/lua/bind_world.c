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

/* ---- bodies --------------------------------------------------------------------------- */

static const char *const kind_names[] = {"dynamic", "kinematic", "fixed", NULL};

static float opt_field(lua_State *L, int t, const char *name, float fallback) {
    lua_getfield(L, t, name);
    float v = lua_isnil(L, -1) ? fallback : (float)luaL_checknumber(L, -1);
    lua_pop(L, 1);
    return v;
}

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
                                             {NULL, NULL}};
    static const luaL_Reg body_methods[] = {
        {"position", b_position}, {"set_position", b_set_position},
        {"move", b_move},         {"forward", b_forward},
        {"turn", b_turn},         {"facing", b_facing},
        {"remove", b_remove},     {"exists", b_exists},
        {"sound", b_sound},       {"stop_sound", b_stop_sound},
        {"listen", b_listen},     {NULL, NULL}};
    new_type(L, LEVEL_MT, "level", level_methods, lv_gc);
    new_type(L, BODY_MT, "body", body_methods, NULL);
    static const luaL_Reg fns[] = {
        {"level", l_level}, {"body", l_body}, {"gravity", l_gravity}, {NULL, NULL}};
    lua_getglobal(L, "earshot");
    luaL_setfuncs(L, fns, 0);
    lua_pop(L, 1);
}
