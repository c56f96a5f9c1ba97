/* SPDX-License-Identifier: Zlib */
/*
 * The input bindings (docs/lua.md, "earshot.actions" and "gamepads"), thin over the
 * engine's actions (include/earshot/actions.h) and its gamepads (input.h). A script names
 * actions and profiles by strings and binds them in the actions' text form ("key:UP",
 * "pad:A", "axis:LEFTX", "axis:LEFTY-"); the engine's ear_actions (the runner's, updated
 * once a frame right after the input) does the rest, so a script's action answers exactly
 * as a C game's would: pressed on the frame its control goes down, held after, repeating
 * by the repeat setting, nothing while a UI widget is open. Ids never reach the script:
 * every call looks its names up, and an unknown name is an error naming it.
 */
#include "lua_internal.h"

#include "earshot/actions.h"

#include <string.h>

static ear_actions *actions_of(lua_State *L) {
    return ear_ctx_actions(ear__lua_ctx(L));
}

/* Raises an error carrying the result's name when r (an id or an ear_result) is negative. */
static int check_id(lua_State *L, int r, const char *what, const char *name) {
    if (r < 0)
        luaL_error(L, "%s(\"%s\"): %s: %s", what, name, ear_result_name((ear_result)r),
                   ear_result_string((ear_result)r));
    return r;
}

static int action_id(lua_State *L, int index, const char *what) {
    const char *name = luaL_checkstring(L, index);
    int id = ear_actions_find(actions_of(L), name);
    if (id < 0)
        luaL_error(L, "%s: no action named \"%s\" (earshot.actions.add it)", what, name);
    return id;
}

static int profile_id(lua_State *L, int index, const char *what) {
    const char *name = luaL_checkstring(L, index);
    int id = ear_actions_find_profile(actions_of(L), name);
    if (id < 0)
        luaL_error(L, "%s: no profile named \"%s\" (earshot.actions.profile makes it)", what,
                   name);
    return id;
}

static ear_binding check_binding(lua_State *L, int index, const char *what) {
    const char *text = luaL_checkstring(L, index);
    ear_binding b;
    if (ear_binding_parse(text, &b) != EAR_OK)
        luaL_error(L,
                   "%s: \"%s\": EAR_E_FORMAT: not a binding (\"key:UP\", \"key:LEFT-\", "
                   "\"pad:A\", \"axis:LEFTX\", \"axis:LEFTY-\")",
                   what, text);
    return b;
}

/* earshot.actions.add(name [, "button" | "axis"]) */
static int a_add(lua_State *L) {
    static const char *const kinds[] = {"button", "axis", NULL};
    const char *name = luaL_checkstring(L, 1);
    ear_action_kind kind = (ear_action_kind)(luaL_checkoption(L, 2, "button", kinds) + 1);
    check_id(L, ear_actions_add(actions_of(L), name, kind), "earshot.actions.add", name);
    return 0;
}
/* earshot.actions.profile(name): names a profile (the first one named is not active
 * until earshot.actions.use). */
static int a_profile(lua_State *L) {
    const char *name = luaL_checkstring(L, 1);
    check_id(L, ear_actions_add_profile(actions_of(L), name), "earshot.actions.profile", name);
    return 0;
}
/* earshot.actions.bind(profile, action, binding) */
static int a_bind(lua_State *L) {
    int p = profile_id(L, 1, "earshot.actions.bind");
    int a = action_id(L, 2, "earshot.actions.bind");
    ear_binding b = check_binding(L, 3, "earshot.actions.bind");
    ear_result r = ear_actions_bind(actions_of(L), p, a, b);
    if (r != EAR_OK) return ear__lua_fail(L, r, "earshot.actions.bind");
    return 0;
}
/* earshot.actions.unbind(profile, action, binding) -> whether it was bound */
static int a_unbind(lua_State *L) {
    int p = profile_id(L, 1, "earshot.actions.unbind");
    int a = action_id(L, 2, "earshot.actions.unbind");
    ear_binding b = check_binding(L, 3, "earshot.actions.unbind");
    lua_pushboolean(L, ear_actions_unbind(actions_of(L), p, a, b) == EAR_OK);
    return 1;
}
static int a_clear(lua_State *L) {
    int p = profile_id(L, 1, "earshot.actions.clear");
    int a = action_id(L, 2, "earshot.actions.clear");
    ear_actions_clear(actions_of(L), p, a);
    return 0;
}
/* earshot.actions.bindings(profile, action) -> { "key:UP", ... } */
static int a_bindings(lua_State *L) {
    int p = profile_id(L, 1, "earshot.actions.bindings");
    int a = action_id(L, 2, "earshot.actions.bindings");
    ear_actions *acts = actions_of(L);
    uint32_t n = ear_actions_binding_count(acts, p, a);
    lua_createtable(L, (int)n, 0);
    for (uint32_t i = 0; i < n; i++) {
        char text[EAR_BINDING_TEXT_MAX];
        ear_binding_format(ear_actions_binding_at(acts, p, a, i), text, sizeof text);
        lua_pushstring(L, text);
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    return 1;
}
/* earshot.actions.conflict(profile, binding [, except_action]) -> the other action that
 * has the binding, or nil */
static int a_conflict(lua_State *L) {
    int p = profile_id(L, 1, "earshot.actions.conflict");
    ear_binding b = check_binding(L, 2, "earshot.actions.conflict");
    int except = lua_isnoneornil(L, 3) ? -1 : action_id(L, 3, "earshot.actions.conflict");
    ear_actions *acts = actions_of(L);
    int other = ear_actions_conflict(acts, p, b, except);
    if (other < 0) return 0;
    lua_pushstring(L, ear_actions_name(acts, other));
    return 1;
}
/* earshot.actions.use(profile | nil): the active profile (controls held now wait to be
 * let go). */
static int a_use(lua_State *L) {
    const char *name = lua_isnoneornil(L, 1) ? NULL : luaL_checkstring(L, 1);
    ear_result r = ear_ctx_use_profile(ear__lua_ctx(L), name);
    if (r != EAR_OK)
        return luaL_error(L, "earshot.actions.use(\"%s\"): %s: %s", name ? name : "nil",
                          ear_result_name(r), ear_result_string(r));
    return 0;
}
/* earshot.actions.active() -> the active profile's name, or nil */
static int a_active(lua_State *L) {
    ear_actions *acts = actions_of(L);
    int p = ear_actions_profile(acts);
    if (p < 0) return 0;
    lua_pushstring(L, ear_actions_profile_name(acts, p));
    return 1;
}
static int a_set_repeat(lua_State *L) {
    ear_result r =
        ear_actions_set_repeat(actions_of(L), luaL_checknumber(L, 1), luaL_checknumber(L, 2));
    if (r != EAR_OK) return ear__lua_fail(L, r, "earshot.actions.set_repeat");
    return 0;
}
static int a_keep_defaults(lua_State *L) {
    ear_actions_keep_defaults(actions_of(L));
    return 0;
}
/* earshot.actions.reset([profile]): the defaults back (every profile without one). */
static int a_reset(lua_State *L) {
    int p = lua_isnoneornil(L, 1) ? -1 : profile_id(L, 1, "earshot.actions.reset");
    ear_actions_reset(actions_of(L), p);
    return 0;
}
static int a_changed(lua_State *L) {
    int p = lua_isnoneornil(L, 1) ? -1 : profile_id(L, 1, "earshot.actions.changed");
    lua_pushboolean(L, ear_actions_changed(actions_of(L), p));
    return 1;
}
/* earshot.actions.save([prefix="actions."]): the bindings into the game's save. */
static int a_save(lua_State *L) {
    ear_ctx *ctx = ear__lua_ctx(L);
    ear_result r = ear_actions_save(ear_ctx_actions(ctx), ear_ctx_storage(ctx),
                                    luaL_optstring(L, 1, "actions."));
    if (r != EAR_OK) return ear__lua_fail(L, r, "earshot.actions.save");
    return 0;
}
/* earshot.actions.load([prefix="actions."]) -> skipped, first_skipped */
static int a_load(lua_State *L) {
    ear_ctx *ctx = ear__lua_ctx(L);
    char what[128] = "";
    uint32_t skipped = ear_actions_load(ear_ctx_actions(ctx), ear_ctx_storage(ctx),
                                        luaL_optstring(L, 1, "actions."), what, sizeof what);
    lua_pushinteger(L, skipped);
    lua_pushstring(L, what);
    return 2;
}
/* earshot.actions.capture() -> the binding of the control that went down this frame, or
 * nil (a rebinding screen). */
static int a_capture(lua_State *L) {
    ear_binding b;
    if (!ear_actions_capture(ear_ctx_input(ear__lua_ctx(L)), &b)) return 0;
    char text[EAR_BINDING_TEXT_MAX];
    ear_binding_format(b, text, sizeof text);
    lua_pushstring(L, text);
    return 1;
}

static int a_pressed(lua_State *L) {
    int a = action_id(L, 1, "earshot.actions.pressed");
    lua_pushboolean(L, ear_action_pressed(ear__lua_ctx(L), a));
    return 1;
}
static int a_released(lua_State *L) {
    int a = action_id(L, 1, "earshot.actions.released");
    lua_pushboolean(L, ear_action_released(ear__lua_ctx(L), a));
    return 1;
}
static int a_held(lua_State *L) {
    int a = action_id(L, 1, "earshot.actions.held");
    lua_pushboolean(L, ear_action_held(ear__lua_ctx(L), a));
    return 1;
}
static int a_repeating(lua_State *L) {
    int a = action_id(L, 1, "earshot.actions.repeating");
    lua_pushboolean(L, ear_action_repeating(ear__lua_ctx(L), a));
    return 1;
}
static int a_value(lua_State *L) {
    int a = action_id(L, 1, "earshot.actions.value");
    lua_pushnumber(L, ear_action_value(ear__lua_ctx(L), a));
    return 1;
}
static int a_held_s(lua_State *L) {
    int a = action_id(L, 1, "earshot.actions.held_s");
    lua_pushnumber(L, ear_actions_held_s(actions_of(L), a));
    return 1;
}

/* ---- gamepads ------------------------------------------------------------------------- */

static int check_pad(lua_State *L, int index) {
    lua_Integer pad = luaL_optinteger(L, index, 1);
    if (pad < 1 || pad > EAR_PAD_MAX)
        luaL_error(L, "pad %d: expected 1..%d", (int)pad, EAR_PAD_MAX);
    return (int)pad - 1;
}
static ear_pad_button check_button(lua_State *L, int index) {
    const char *name = luaL_checkstring(L, index);
    int b = ear_pad_button_from_name(name);
    if (b < 0) luaL_error(L, "no pad button named \"%s\" (A, B, X, Y, DPUP, START ...)", name);
    return (ear_pad_button)b;
}
static int p_count(lua_State *L) {
    lua_pushinteger(L, ear_input_pad_count(ear_ctx_input(ear__lua_ctx(L))));
    return 1;
}
/* earshot.pad.connected([pad=1]) */
static int p_connected(lua_State *L) {
    int pad = check_pad(L, 1);
    lua_pushboolean(L, ear_input_pad_connected(ear_ctx_input(ear__lua_ctx(L)), pad));
    return 1;
}
/* earshot.pad.pressed(button [, pad=1]), .down, .released */
static int p_pressed(lua_State *L) {
    ear_pad_button b = check_button(L, 1);
    int pad = check_pad(L, 2);
    lua_pushboolean(L, ear_input_pad_pressed(ear_ctx_input(ear__lua_ctx(L)), pad, b));
    return 1;
}
static int p_down(lua_State *L) {
    ear_pad_button b = check_button(L, 1);
    int pad = check_pad(L, 2);
    lua_pushboolean(L, ear_input_pad_held(ear_ctx_input(ear__lua_ctx(L)), pad, b));
    return 1;
}
static int p_released(lua_State *L) {
    ear_pad_button b = check_button(L, 1);
    int pad = check_pad(L, 2);
    lua_pushboolean(L, ear_input_pad_released(ear_ctx_input(ear__lua_ctx(L)), pad, b));
    return 1;
}
/* earshot.pad.axis(axis [, pad=1]) -> -1 .. 1 */
static int p_axis(lua_State *L) {
    const char *name = luaL_checkstring(L, 1);
    int axis = ear_pad_axis_from_name(name);
    if (axis < 0)
        return luaL_error(L, "no pad axis named \"%s\" (LEFTX, LEFTY, RIGHTTRIGGER ...)", name);
    int pad = check_pad(L, 2);
    lua_pushnumber(
        L, ear_input_pad_axis_value(ear_ctx_input(ear__lua_ctx(L)), pad, (ear_pad_axis)axis));
    return 1;
}
/* earshot.pad.rumble(low, high, ms): every connected pad that can. */
static int p_rumble(lua_State *L) {
    lua_Integer ms = luaL_checkinteger(L, 3);
    if (ms < 0 || ms > 60000)
        return luaL_error(L, "earshot.pad.rumble: %d ms, 0..60000", (int)ms);
    ear_result r = ear_pad_rumble(ear__lua_ctx(L), (float)luaL_checknumber(L, 1),
                                  (float)luaL_checknumber(L, 2), (uint32_t)ms);
    if (r != EAR_OK) return ear__lua_fail(L, r, "earshot.pad.rumble");
    return 0;
}

void ear__lua_open_input(lua_State *L) {
    static const luaL_Reg actions[] = {{"add", a_add},
                                       {"profile", a_profile},
                                       {"bind", a_bind},
                                       {"unbind", a_unbind},
                                       {"clear", a_clear},
                                       {"bindings", a_bindings},
                                       {"conflict", a_conflict},
                                       {"use", a_use},
                                       {"active", a_active},
                                       {"set_repeat", a_set_repeat},
                                       {"keep_defaults", a_keep_defaults},
                                       {"reset", a_reset},
                                       {"changed", a_changed},
                                       {"save", a_save},
                                       {"load", a_load},
                                       {"capture", a_capture},
                                       {"pressed", a_pressed},
                                       {"released", a_released},
                                       {"held", a_held},
                                       {"repeating", a_repeating},
                                       {"value", a_value},
                                       {"held_s", a_held_s},
                                       {NULL, NULL}};
    static const luaL_Reg pad[] = {{"count", p_count},       {"connected", p_connected},
                                   {"pressed", p_pressed},   {"down", p_down},
                                   {"released", p_released}, {"axis", p_axis},
                                   {"rumble", p_rumble},     {NULL, NULL}};
    lua_getglobal(L, "earshot");
    lua_newtable(L);
    luaL_setfuncs(L, actions, 0);
    lua_setfield(L, -2, "actions");
    lua_newtable(L);
    luaL_setfuncs(L, pad, 0);
    lua_setfield(L, -2, "pad");
    lua_pop(L, 1);
}
