/* SPDX-License-Identifier: Zlib */
/*
 * The Lua sandbox (src/lua/sandbox.c): each escape refused with an error that says so at
 * the script's line; files only under the game's folder and its save folder; the memory
 * budget and the instruction budget stopping a script with its file and line; and a bad
 * script (syntax error, runtime error in a callback, endless loop, a 2 GB allocation)
 * reported while the engine keeps running.
 */
#include "lua_helpers.h"
#include "test.h"

static ear_lua_game *make(const char *name, const char *text) {
    char path[700];
    lua_test_folder(name, text, path, sizeof path);
    char save[700];
    snprintf(save, sizeof save, "%.*s/save", (int)(strrchr(path, '/') - path), path);
    ear_lua_config c = ear_lua_config_default();
    c.script_path = path;
    c.save_dir = save;
    c.memory_budget_bytes = (size_t)16 << 20;
    c.instruction_budget = 20000000u;
    ear_lua_game *g = NULL;
    char error[1024];
    if (ear_lua_game_create(&c, &g, error, sizeof error) != EAR_OK) {
        fprintf(stderr, "create: %s\n", error);
        return NULL;
    }
    return g;
}

/* Runs text; the error it raised (or "" when none). */
static const char *run(ear_lua_game *g, const char *text) {
    static char error[2048];
    ear_result r = ear_lua_game_run_string(g, "chunk", text, error, sizeof error);
    if (r == EAR_OK) error[0] = '\0';
    return error;
}

TEST(each_escape_is_refused_with_a_clear_error_at_its_line) {
    ear_lua_game *g = make("escapes", "");
    ASSERT_TRUE(g != NULL);
    ASSERT_STR_CONTAINS(run(g, "\nos.execute('true')"),
                        "chunk:2: os.execute is not available to Earshot scripts");
    ASSERT_STR_CONTAINS(run(g, "io.popen('ls')"), "chunk:1: io.popen is not available");
    ASSERT_STR_CONTAINS(run(g, "io.open('/etc/passwd')"), "io.open is not available");
    ASSERT_STR_CONTAINS(run(g, "package.loadlib('libc.so.6', 'system')"),
                        "package.loadlib is not available");
    ASSERT_STR_CONTAINS(run(g, "debug.getregistry()"), "debug.getregistry is not available");
    ASSERT_STR_CONTAINS(run(g, "os.exit(1)"), "os.exit is not available");
    ASSERT_STR_CONTAINS(run(g, "os.getenv('HOME')"), "os.getenv is not available");
    ASSERT_STR_CONTAINS(run(g, "string.dump(print)"), "string.dump is not available");
    /* a C module: no C searcher, no cpath */
    ASSERT_STR_CONTAINS(run(g, "require('socket.core')"), "module 'socket.core' not found");
    /* bytecode through load */
    ASSERT_STR_CONTAINS(run(g, "load('\\27Lua', 'x', 'b')"), "binary chunks are not available");
    ASSERT_STR_EQ(run(g, "local f = load(string.char(27) .. 'Lua') assert(f == nil)"), "");
    /* what stays: the clock functions of os, and text load with the globals */
    ASSERT_STR_EQ(run(g, "assert(type(os.time()) == 'number') assert(os.clock() >= 0)"), "");
    ASSERT_STR_EQ(run(g, "x_global = 7 assert(load('return x_global')() == 7)"), "");
    ear_lua_game_destroy(g);
}

TEST(files_only_under_the_game_folder_and_the_save_folder) {
    ear_lua_game *g = make("files", "");
    ASSERT_TRUE(g != NULL);
    /* the script reads its own folder; writes land in the save folder and read back */
    ASSERT_STR_EQ(run(g, "assert(earshot.file.read('game.lua') == '')"), "");
    ASSERT_STR_EQ(run(g, "earshot.file.write('progress.txt', 'level 2')"), "");
    ASSERT_STR_EQ(run(g, "assert(earshot.file.read('save/progress.txt') == 'level 2')"), "");
    /* out of reach: absolute paths, .. climbing, the save folder's parent for writing */
    ASSERT_STR_CONTAINS(run(g, "earshot.file.read('/etc/passwd')"),
                        "/etc/passwd: no such file in reach (scripts read only under the "
                        "game's folder and its save folder)");
    ASSERT_STR_CONTAINS(run(g, "earshot.file.read('../../../etc/passwd')"),
                        "no such file in reach");
    ASSERT_STR_CONTAINS(run(g, "earshot.file.write('../evil.lua', 'x')"),
                        "no such folder to write in in reach");
    ASSERT_STR_CONTAINS(run(g, "earshot.file.write('/tmp/evil', 'x')"), "in reach");
    ASSERT_STR_CONTAINS(run(g, "dofile('/etc/passwd')"), "no such file in reach");
    ear_lua_game_destroy(g);
}

/* 2^31 - 2 bytes: the largest string Lua's string.rep makes (its limit is INT_MAX). */
TEST(memory_budget_stops_a_2_gb_allocation_with_file_and_line) {
    ear_lua_game *g = make("memory", "");
    ASSERT_TRUE(g != NULL);
    const char *e =
        run(g, "local t = {}\nlocal s = string.rep('x', 2 * 1024 * 1024 * 1024 - 2)\n");
    ASSERT_STR_CONTAINS(e, "chunk:2: out of memory: the script asked for");
    ASSERT_STR_CONTAINS(e, "over its budget of 16 MiB");
    /* and the state works on after it */
    ASSERT_STR_EQ(run(g, "local s = string.rep('x', 1000) assert(#s == 1000)"), "");
    /* a table grown without end is stopped the same way */
    e = run(g, "local t = {}\nfor i = 1, 1e9 do t[i] = i end\n");
    ASSERT_STR_CONTAINS(e, "chunk:2: out of memory");
    ASSERT_LE(ear_lua_game_memory_peak_bytes(g), (size_t)16 << 20);
    ear_lua_game_destroy(g);
}

TEST(endless_loop_is_stopped_with_file_and_line) {
    ear_lua_game *g = make("loop", "");
    ASSERT_TRUE(g != NULL);
    const char *e = run(g, "local n = 0\nwhile true do n = n + 1 end\n");
    ASSERT_STR_CONTAINS(e, "chunk:2: the script ran 20000000 instructions without giving the "
                           "frame back to the engine");
    ASSERT_STR_EQ(run(g, "assert(1 + 1 == 2)"), "");
    ear_lua_game_destroy(g);
}

TEST(syntax_error_fails_creation_with_file_and_line) {
    char path[700];
    lua_test_folder("syntax", "earshot.say('hi')\nlocal x = = 3\n", path, sizeof path);
    ear_lua_config c = ear_lua_config_default();
    c.script_path = path;
    ear_lua_game *g = NULL;
    char error[1024];
    ASSERT_EQ(ear_lua_game_create(&c, &g, error, sizeof error), EAR_E_FORMAT);
    ASSERT_TRUE(g == NULL);
    ASSERT_STR_CONTAINS(error, "game.lua:2: unexpected symbol near '='");
}

/* A game whose update fails on frame 10 and loops forever on frame 20: both reported with
 * their line, the menu() started after each, and the engine runs all 60 frames. */
TEST(errors_in_callbacks_are_reported_and_the_game_goes_back_to_its_menu) {
    ear_lua_game *g =
        make("callbacks",
             "menus = 0\n"
             "function menu() menus = menus + 1 while true do earshot.wait(10) end end\n"
             "function update(dt)\n"
             "  local f = earshot.frame()\n"
             "  if f == 10 then error('the door is stuck') end\n"
             "  if f == 20 then while true do end end\n"
             "  if f == 30 then local s = string.rep('y', 2 ^ 31 - 2) end\n"
             "  earshot.summary('menus=' .. menus)\n"
             "end\n"
             "menu()\n");
    ASSERT_TRUE(g != NULL);
    ASSERT_EQ(lua_test_run(g, 60, NULL), 60);
    ASSERT_EQ(ear_lua_game_errors(g), 3);
    ASSERT_STR_CONTAINS(ear_lua_game_last_error(g), "game.lua:7: out of memory");
    /* the first menu() is the main chunk's; each error started one more */
    ASSERT_STR_EQ(ear_lua_game_summary(g), "menus=4");
    ear_lua_game_destroy(g);
}

TEST(on_error_gets_the_message_with_its_line) {
    ear_lua_game *g =
        make("on_error",
             "function on_error(m) earshot.summary('caught: ' .. m:match('[^\\n]*')) end\n"
             "earshot.wait(50)\n"
             "local t = nil\n"
             "print(t.field)\n");
    ASSERT_TRUE(g != NULL);
    ASSERT_EQ(lua_test_run(g, 20, NULL), 20);
    ASSERT_EQ(ear_lua_game_errors(g), 1);
    ASSERT_STR_CONTAINS(ear_lua_game_summary(g), "caught: ");
    ASSERT_STR_CONTAINS(ear_lua_game_summary(g),
                        "game.lua:4: attempt to index a nil value (local 't')");
    ear_lua_game_destroy(g);
}

/* A menu() that fails at once is started once after the first error, not in a loop. */
TEST(a_menu_that_fails_at_once_is_not_restarted_forever) {
    ear_lua_game *g =
        make("bad_menu",
             "frames = 0\n"
             "function update() frames = frames + 1 earshot.summary('frames=' .. frames) end\n"
             "function menu() error('the menu is broken') end\n"
             "menu()\n");
    ASSERT_TRUE(g != NULL);
    ASSERT_EQ(lua_test_run(g, 10, NULL), 10);
    ASSERT_EQ(ear_lua_game_errors(g), 2); /* the body's call, and the one restart */
    ASSERT_STR_CONTAINS(ear_lua_game_last_error(g), "game.lua:3: the menu is broken");
    ASSERT_STR_EQ(ear_lua_game_summary(g), "frames=9"); /* the first frame starts the scene */
    ear_lua_game_destroy(g);
}

TEST_MAIN(TEST_ENTRY(a_menu_that_fails_at_once_is_not_restarted_forever),
          TEST_ENTRY(each_escape_is_refused_with_a_clear_error_at_its_line),
          TEST_ENTRY(files_only_under_the_game_folder_and_the_save_folder),
          TEST_ENTRY(memory_budget_stops_a_2_gb_allocation_with_file_and_line),
          TEST_ENTRY(endless_loop_is_stopped_with_file_and_line),
          TEST_ENTRY(syntax_error_fails_creation_with_file_and_line),
          TEST_ENTRY(errors_in_callbacks_are_reported_and_the_game_goes_back_to_its_menu),
          TEST_ENTRY(on_error_gets_the_message_with_its_line))
