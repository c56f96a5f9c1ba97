/* SPDX-License-Identifier: Zlib */
/*
 * The UI bindings (docs/lua.md, "earshot.ui"), thin over the engine's virtual UI
 * (include/earshot/ui.h): menus, forms and dialogs with buttons, check boxes, sliders,
 * lists (choices) and edit fields, questions, message boxes, text inputs and the
 * rebinding prompt, all speaking through the player's screen reader with the UI's words
 * ("Volume, slider, 50 percent, 2 of 3"). The game's UI is the Lua game's own
 * (ear_lua_game_attach plugs it into the runner); without one every call here is an
 * error saying so.
 *
 * A script describes a menu as a table and gets nothing back but its id: the UI owns an
 * opened menu, so no pointer reaches the script. While a menu is being built it sits in a
 * userdata whose __gc frees it, so a Lua error half-way through a description (a bad field)
 * leaks nothing. Results come back as values, read in update (the UI's phase runs before
 * it each frame): earshot.ui.clicked("main", "play"), or the event tables of
 * earshot.ui.events(). Positions and indices are counted from 1, as Lua counts.
 */
#include "lua_internal.h"

#include "earshot/ui.h"

#include <string.h>

#define MENU_MT "earshot.menu_draft"

typedef struct lua_menu_draft {
    ear_ui_menu *menu; /* NULL once opened or taken as a submenu */
} lua_menu_draft;

static int draft_gc(lua_State *L) {
    lua_menu_draft *d = luaL_checkudata(L, 1, MENU_MT);
    ear_ui_menu_destroy(d->menu);
    d->menu = NULL;
    return 0;
}

static ear_ctx *ui_ctx(lua_State *L) {
    ear_ctx *ctx = ear__lua_ctx(L);
    if (!ear_ui_of(ctx))
        luaL_error(L, "earshot.ui: this run has no UI (the runner's config was not given to "
                      "ear_lua_game_attach)");
    return ctx;
}

static const char *opt_string(lua_State *L, int t, const char *name) {
    lua_getfield(L, t, name);
    const char *s = lua_isnil(L, -1) ? NULL : luaL_checkstring(L, -1);
    lua_pop(L, 1); /* the table holds the string */
    return s;
}
static double opt_number(lua_State *L, int t, const char *name, double fallback) {
    lua_getfield(L, t, name);
    double v = lua_isnil(L, -1) ? fallback : luaL_checknumber(L, -1);
    lua_pop(L, 1);
    return v;
}
static bool opt_bool(lua_State *L, int t, const char *name) {
    lua_getfield(L, t, name);
    bool v = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return v;
}

static void build_menu(lua_State *L, int t, lua_menu_draft *draft);

/* Adds item table i to the menu: kind "button", "checkbox" (or "toggle"), "slider",
 * "list" (or "choice"), "text" (or "input"), "submenu". */
static void add_item(lua_State *L, ear_ui_menu *menu, int i) {
    static const char *const kinds[] = {"button", "checkbox", "toggle", "slider",  "list",
                                        "choice", "text",     "input",  "submenu", NULL};
    static const ear_ui_item_kind kind_of[] = {EAR_UI_BUTTON, EAR_UI_TOGGLE, EAR_UI_TOGGLE,
                                               EAR_UI_SLIDER, EAR_UI_CHOICE, EAR_UI_CHOICE,
                                               EAR_UI_TEXT,   EAR_UI_TEXT,   EAR_UI_SUBMENU};
    luaL_checktype(L, i, LUA_TTABLE);
    ear_ui_item it;
    memset(&it, 0, sizeof it);
    it.id = opt_string(L, i, "id");
    if (!it.id) luaL_error(L, "earshot.ui.menu: an item without an id");
    it.label = opt_string(L, i, "label");
    lua_getfield(L, i, "kind");
    it.kind = kind_of[luaL_checkoption(L, -1, "button", kinds)];
    lua_pop(L, 1);
    it.disabled = opt_bool(L, i, "disabled");
    it.closes = opt_bool(L, i, "closes");
    it.cancels = opt_bool(L, i, "cancels");
    it.checked = opt_bool(L, i, "checked");
    it.value = opt_number(L, i, "value", 0);
    it.min = opt_number(L, i, "min", 0);
    it.max = opt_number(L, i, "max", 0);
    it.step = opt_number(L, i, "step", 0);
    it.big_step = opt_number(L, i, "big_step", 0);
    it.decimals = (int)opt_number(L, i, "decimals", 0);
    it.unit = opt_string(L, i, "unit");
    it.format = opt_string(L, i, "format");
    it.text = opt_string(L, i, "text");
    it.max_length = (size_t)opt_number(L, i, "max_length", 0);
    it.password = opt_bool(L, i, "password");
    it.multiline = opt_bool(L, i, "multiline");
    if (it.kind == EAR_UI_CHOICE) {
        lua_getfield(L, i, "choices");
        luaL_checktype(L, -1, LUA_TTABLE);
        lua_Integer n = luaL_len(L, -1);
        if (n < 1 || n > 1000)
            luaL_error(L, "earshot.ui.menu: the list \"%s\" has %d choices, 1..1000", it.id,
                       (int)n);
        const char **choices = lua_newuserdatauv(L, (size_t)n * sizeof *choices, 0);
        for (lua_Integer k = 1; k <= n; k++) {
            lua_rawgeti(L, -2, k);
            choices[k - 1] = luaL_checkstring(L, -1);
            lua_pop(L, 1); /* the choices table holds the string */
        }
        it.choices = choices;
        it.choice_count = (size_t)n;
        lua_Integer sel = (lua_Integer)opt_number(L, i, "selected", 1);
        it.selected = sel >= 1 && sel <= n ? (size_t)(sel - 1) : 0;
    }
    if (it.kind == EAR_UI_SUBMENU) {
        lua_getfield(L, i, "menu");
        luaL_checktype(L, -1, LUA_TTABLE);
        lua_menu_draft *sub = lua_newuserdatauv(L, sizeof *sub, 0);
        sub->menu = NULL;
        luaL_setmetatable(L, MENU_MT);
        build_menu(L, lua_gettop(L) - 1, sub);
        it.submenu = sub->menu;
        sub->menu = NULL; /* taken by the item, even when adding fails */
        lua_pop(L, 2);
    }
    ear_result r = ear_ui_menu_add(menu, &it);
    if (it.kind == EAR_UI_CHOICE) lua_pop(L, 2);
    if (r != EAR_OK) {
        luaL_error(L, "earshot.ui.menu: the item \"%s\": %s: %s", it.id, ear_result_name(r),
                   ear_result_string(r));
    }
}

/* Makes the menu of table t into draft->menu (draft is on the stack, so a Lua error frees
 * what was made). */
static void build_menu(lua_State *L, int t, lua_menu_draft *draft) {
    static const char *const roles[] = {"menu", "dialog", "form", NULL};
    static const char *const escapes[] = {"close", "cancel", "none", NULL};
    ear_ui_menu_config c;
    memset(&c, 0, sizeof c);
    c.id = opt_string(L, t, "id");
    if (!c.id) luaL_error(L, "earshot.ui.menu: a menu without an id");
    c.title = opt_string(L, t, "title");
    c.message = opt_string(L, t, "message");
    lua_getfield(L, t, "role");
    c.role = (ear_ui_menu_role)luaL_checkoption(L, -1, "menu", roles);
    lua_getfield(L, t, "escape");
    c.escape = (ear_ui_escape)luaL_checkoption(L, -1, "close", escapes);
    lua_pop(L, 2);
    c.no_wrap = opt_bool(L, t, "no_wrap");
    c.hide_position = opt_bool(L, t, "hide_position");
    c.after_speech = opt_bool(L, t, "after_speech");
    c.music = opt_string(L, t, "music");
    c.default_item = opt_string(L, t, "default_item");
    c.escape_item = opt_string(L, t, "escape_item");
    ear_result r = ear_ui_menu_create(&c, &draft->menu);
    if (r != EAR_OK)
        luaL_error(L, "earshot.ui.menu(\"%s\"): %s: %s", c.id, ear_result_name(r),
                   ear_result_string(r));
    lua_getfield(L, t, "items");
    luaL_checktype(L, -1, LUA_TTABLE);
    int items = lua_gettop(L);
    lua_Integer n = luaL_len(L, items);
    for (lua_Integer k = 1; k <= n; k++) {
        lua_rawgeti(L, items, k);
        add_item(L, draft->menu, lua_gettop(L));
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    const char *focus = opt_string(L, t, "focus");
    if (focus && ear_ui_menu_focus(draft->menu, focus) != EAR_OK)
        luaL_error(L, "earshot.ui.menu(\"%s\"): focus: no item \"%s\"", c.id, focus);
}

/* earshot.ui.menu{id=, title=, message=, role=, escape=, items={...}, ...}: opens it at the
 * next frame. */
static int u_menu(lua_State *L) {
    ear_ctx *ctx = ui_ctx(L);
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_menu_draft *d = lua_newuserdatauv(L, sizeof *d, 0);
    d->menu = NULL;
    luaL_setmetatable(L, MENU_MT);
    build_menu(L, 1, d);
    ear_ui_menu *menu = d->menu;
    d->menu = NULL; /* ear_ui_open_menu owns it from here, failing too */
    ear_result r = ear_ui_open_menu(ctx, menu);
    if (r != EAR_OK) return ear__lua_fail(L, r, "earshot.ui.menu");
    return 0;
}

/* earshot.ui.question(id, question [, default_no]) */
static int u_question(lua_State *L) {
    ear_result r = ear_ui_question(ui_ctx(L), luaL_checkstring(L, 1), luaL_checkstring(L, 2),
                                   lua_toboolean(L, 3));
    if (r != EAR_OK) return ear__lua_fail(L, r, "earshot.ui.question");
    return 0;
}
/* earshot.ui.message(id, title, message) */
static int u_message(lua_State *L) {
    ear_result r = ear_ui_message(ui_ctx(L), luaL_checkstring(L, 1), luaL_checkstring(L, 2),
                                  luaL_checkstring(L, 3));
    if (r != EAR_OK) return ear__lua_fail(L, r, "earshot.ui.message");
    return 0;
}
/* earshot.ui.input{id=, label=, text=, max_length=, password=, multiline=} */
static int u_input(lua_State *L) {
    ear_ctx *ctx = ui_ctx(L);
    luaL_checktype(L, 1, LUA_TTABLE);
    ear_ui_text_config c;
    memset(&c, 0, sizeof c);
    c.id = opt_string(L, 1, "id");
    if (!c.id) return luaL_error(L, "earshot.ui.input: no id");
    c.label = opt_string(L, 1, "label");
    c.text = opt_string(L, 1, "text");
    c.max_length = (size_t)opt_number(L, 1, "max_length", 0);
    c.password = opt_bool(L, 1, "password");
    c.multiline = opt_bool(L, 1, "multiline");
    ear_result r = ear_ui_open_text(ctx, &c);
    if (r != EAR_OK) return ear__lua_fail(L, r, "earshot.ui.input");
    return 0;
}
/* earshot.ui.capture_binding(id, prompt): confirmed's text is the binding ("key:SPACE"). */
static int u_capture_binding(lua_State *L) {
    ear_result r =
        ear_ui_capture_binding(ui_ctx(L), luaL_checkstring(L, 1), luaL_checkstring(L, 2));
    if (r != EAR_OK) return ear__lua_fail(L, r, "earshot.ui.capture_binding");
    return 0;
}
static int u_close(lua_State *L) {
    lua_pushboolean(L, ear_ui_close(ui_ctx(L), luaL_checkstring(L, 1)) == EAR_OK);
    return 1;
}
static int u_close_all(lua_State *L) {
    ear_ui_close_all(ui_ctx(L));
    return 0;
}
/* earshot.ui.is_open([id]): that widget (or any) is open or opening. */
static int u_is_open(lua_State *L) {
    lua_pushboolean(L, ear_ui_is_open(ui_ctx(L), luaL_optstring(L, 1, NULL)));
    return 1;
}
static int u_depth(lua_State *L) {
    lua_pushinteger(L, (lua_Integer)ear_ui_depth(ear_ui_of(ui_ctx(L))));
    return 1;
}

/* earshot.ui.value(menu, item) -> a text, a boolean, a number, or a list's index and
 * choice; nil when the menu is not open. */
static int u_value(lua_State *L) {
    ear_ctx *ctx = ui_ctx(L);
    const char *id = luaL_checkstring(L, 1), *item = luaL_checkstring(L, 2);
    ear_ui_menu *menu = ear_ui_find_menu(ctx, id);
    if (!menu) return 0;
    ear_ui_value v;
    ear_result r = ear_ui_menu_value(menu, item, &v);
    if (r != EAR_OK)
        return luaL_error(L, "earshot.ui.value(\"%s\", \"%s\"): %s: %s", id, item,
                          ear_result_name(r), ear_result_string(r));
    switch (v.kind) {
    case EAR_UI_VALUE_TEXT: lua_pushstring(L, v.text); return 1;
    case EAR_UI_VALUE_BOOL: lua_pushboolean(L, v.flag); return 1;
    case EAR_UI_VALUE_NUMBER: lua_pushnumber(L, v.number); return 1;
    case EAR_UI_VALUE_INDEX:
        lua_pushinteger(L, v.index + 1);
        lua_pushstring(L, v.text);
        return 2;
    default: return 0;
    }
}
/* earshot.ui.focus(menu, item): the open menu's focus moves there. */
static int u_focus(lua_State *L) {
    ear_ui_menu *menu = ear_ui_find_menu(ui_ctx(L), luaL_checkstring(L, 1));
    lua_pushboolean(L, menu && ear_ui_menu_focus(menu, luaL_checkstring(L, 2)) == EAR_OK);
    return 1;
}

/* ---- events ----------------------------------------------------------------------------- */

void ear__lua_push_ui_event(lua_State *L, const ear_ui_event *e) {
    lua_createtable(L, 0, 8);
    lua_pushstring(L, ear_ui_event_kind_name(e->kind));
    lua_setfield(L, -2, "kind");
    lua_pushstring(L, e->widget ? e->widget : "");
    lua_setfield(L, -2, "widget");
    lua_pushstring(L, e->item ? e->item : "");
    lua_setfield(L, -2, "item");
    if (e->position >= 0) {
        lua_pushinteger(L, e->position + 1);
        lua_setfield(L, -2, "position");
    }
    lua_pushboolean(L, e->checked);
    lua_setfield(L, -2, "checked");
    lua_pushnumber(L, e->number);
    lua_setfield(L, -2, "number");
    lua_pushinteger(L, e->index + 1);
    lua_setfield(L, -2, "index");
    lua_pushstring(L, e->text ? e->text : "");
    lua_setfield(L, -2, "text");
}

/* earshot.ui.events() -> this frame's events, in order. */
static int u_events(lua_State *L) {
    ear_ctx *ctx = ui_ctx(L);
    size_t n = ear_ui_event_count(ctx);
    lua_createtable(L, (int)n, 0);
    for (size_t i = 0; i < n; i++) {
        ear__lua_push_ui_event(L, ear_ui_event_at(ctx, i));
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    return 1;
}
static int u_clicked(lua_State *L) {
    lua_pushboolean(
        L, ear_ui_clicked(ui_ctx(L), luaL_checkstring(L, 1), luaL_optstring(L, 2, NULL)));
    return 1;
}
/* earshot.ui.changed(widget [, item]) / confirmed: the event table, or nil. */
static int find_event(lua_State *L, ear_ui_event_kind kind) {
    const ear_ui_event *e =
        ear_ui_find_event(ui_ctx(L), kind, luaL_checkstring(L, 1), luaL_optstring(L, 2, NULL));
    if (!e) return 0;
    ear__lua_push_ui_event(L, e);
    return 1;
}
static int u_changed(lua_State *L) {
    return find_event(L, EAR_UI_CHANGED);
}
static int u_confirmed(lua_State *L) {
    return find_event(L, EAR_UI_CONFIRMED);
}
static int u_cancelled(lua_State *L) {
    lua_pushboolean(L, ear_ui_cancelled(ui_ctx(L), luaL_checkstring(L, 1)));
    return 1;
}
static int u_closed(lua_State *L) {
    lua_pushboolean(L, ear_ui_closed(ui_ctx(L), luaL_checkstring(L, 1)));
    return 1;
}

/* ---- settings ------------------------------------------------------------------------- */

static int u_mute_sounds(lua_State *L) {
    ear_ui_set_mute_sounds(ear_ui_of(ui_ctx(L)), lua_toboolean(L, 1));
    return 0;
}
/* earshot.ui.set_sound(slot, name): "open", "navigate", "activate" ... ; "" is silence. */
static int u_set_sound(lua_State *L) {
    const char *slot = luaL_checkstring(L, 1);
    const char *name = luaL_checkstring(L, 2);
    ear_ui *ui = ear_ui_of(ui_ctx(L));
    for (int s = 0; s < EAR_UI_SOUND_COUNT; s++) {
        if (strcmp(ear_ui_sound_slot_name((ear_ui_sound_slot)s), slot) != 0) continue;
        ear_result r = ear_ui_set_sound(ui, (ear_ui_sound_slot)s, name);
        if (r != EAR_OK) return ear__lua_fail(L, r, "earshot.ui.set_sound");
        return 0;
    }
    return luaL_error(L,
                      "earshot.ui.set_sound: no sound slot \"%s\" (open, close, navigate, "
                      "wrap, edge, activate, toggle_on, toggle_off, slider, type, delete, "
                      "error)",
                      slot);
}
static int u_hide_position(lua_State *L) {
    ear_ui_set_hide_position(ear_ui_of(ui_ctx(L)), lua_toboolean(L, 1));
    return 0;
}
static int u_set_repeat(lua_State *L) {
    ear_result r =
        ear_ui_set_repeat(ear_ui_of(ui_ctx(L)), luaL_checknumber(L, 1), luaL_checknumber(L, 2));
    if (r != EAR_OK) return ear__lua_fail(L, r, "earshot.ui.set_repeat");
    return 0;
}
/* earshot.ui.use_actions(profile | nil): widgets navigate by that profile's ui.* actions. */
static int u_use_actions(lua_State *L) {
    ear_ctx *ctx = ui_ctx(L);
    ear_ui *ui = ear_ui_of(ctx);
    if (lua_isnoneornil(L, 1)) {
        ear_ui_use_actions(ui, NULL, -1);
        return 0;
    }
    const char *name = luaL_checkstring(L, 1);
    ear_actions *acts = ear_ctx_actions(ctx);
    int p = ear_actions_find_profile(acts, name);
    if (p < 0) return luaL_error(L, "earshot.ui.use_actions: no profile named \"%s\"", name);
    ear_ui_use_actions(ui, acts, p);
    return 0;
}

void ear__lua_open_ui(lua_State *L) {
    luaL_newmetatable(L, MENU_MT);
    lua_pushcfunction(L, draft_gc);
    lua_setfield(L, -2, "__gc");
    lua_pop(L, 1);
    static const luaL_Reg fns[] = {{"menu", u_menu},
                                   {"question", u_question},
                                   {"message", u_message},
                                   {"input", u_input},
                                   {"capture_binding", u_capture_binding},
                                   {"close", u_close},
                                   {"close_all", u_close_all},
                                   {"is_open", u_is_open},
                                   {"depth", u_depth},
                                   {"value", u_value},
                                   {"focus", u_focus},
                                   {"events", u_events},
                                   {"clicked", u_clicked},
                                   {"changed", u_changed},
                                   {"confirmed", u_confirmed},
                                   {"cancelled", u_cancelled},
                                   {"closed", u_closed},
                                   {"mute_sounds", u_mute_sounds},
                                   {"set_sound", u_set_sound},
                                   {"hide_position", u_hide_position},
                                   {"set_repeat", u_set_repeat},
                                   {"use_actions", u_use_actions},
                                   {NULL, NULL}};
    lua_getglobal(L, "earshot");
    lua_newtable(L);
    luaL_setfuncs(L, fns, 0);
    lua_setfield(L, -2, "ui");
    lua_pop(L, 1);
}
