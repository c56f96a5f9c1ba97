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

/* A game whose update fails on frame 10, loops forever on frame 900 and asks for 2 GB on
 * frame 2400: each reported with its line, the menu() started again after each once its
 * line was said (about 5, 12 and 18 s long, each said before the next error comes), and
 * the engine runs all 4200 frames. */
TEST(errors_in_callbacks_are_reported_and_the_game_goes_back_to_its_menu) {
    ear_lua_game *g =
        make("callbacks",
             "menus = 0\n"
             "function menu() menus = menus + 1 while true do earshot.wait(10) end end\n"
             "function update(dt)\n"
             "  local f = earshot.frame()\n"
             "  if f == 10 then error('the door is stuck') end\n"
             "  if f == 900 then while true do end end\n"
             "  if f == 2400 then local s = string.rep('y', 2 ^ 31 - 2) end\n"
             "  earshot.summary('menus=' .. menus)\n"
             "end\n"
             "menu()\n");
    ASSERT_TRUE(g != NULL);
    ASSERT_EQ(lua_test_run(g, 4200, NULL), 4200);
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

/* A menu() that fails at once is started once after the first error (when its line has
 * been said, about 4 s), not in a loop. */
TEST(a_menu_that_fails_at_once_is_not_restarted_forever) {
    ear_lua_game *g =
        make("bad_menu",
             "frames = 0\n"
             "function update() frames = frames + 1 earshot.summary('frames=' .. frames) end\n"
             "function menu() error('the menu is broken') end\n"
             "menu()\n");
    ASSERT_TRUE(g != NULL);
    ASSERT_EQ(lua_test_run(g, 600, NULL), 600);
    ASSERT_EQ(ear_lua_game_errors(g), 2); /* the body's call, and the one restart */
    ASSERT_STR_CONTAINS(ear_lua_game_last_error(g), "game.lua:3: the menu is broken");
    ASSERT_STR_EQ(ear_lua_game_summary(g), "frames=599"); /* the first frame starts it */
    ear_lua_game_destroy(g);
}

/* What a player hears of an error: its line whole, and then the menu that starts again
 * (the menu's title interrupts, as menus do; it waits for the error's line instead of
 * cutting it at once, which left the player hearing only the title). */
typedef struct heard_log {
    char lines[8][200];
    int fates[8]; /* 1 heard, 2 cut */
    double start[8];
    int count;
} heard_log;

static void hear(void *user, const ear_speech_event *e) {
    heard_log *h = user;
    if (e->kind == EAR_SPEECH_EVENT_START || h->count >= 8) return;
    snprintf(h->lines[h->count], sizeof h->lines[0], "%s", e->text);
    h->fates[h->count] = e->kind == EAR_SPEECH_EVENT_END ? 1 : 2;
    h->start[h->count] = e->start_s;
    h->count++;
}

TEST(an_error_is_heard_whole_before_the_menu_starts_again) {
    char path[700];
    lua_test_folder("heard_error",
                    "function menu() earshot.say('Main menu') while true do earshot.wait(10) "
                    "end end\n"
                    "function update(dt)\n"
                    "  if earshot.frame() == 90 then error('the door is stuck') end\n"
                    "end\n"
                    "menu()\n",
                    path, sizeof path);
    heard_log h = {0};
    ear_lua_config c = ear_lua_config_default();
    c.script_path = path;
    c.on_speech = hear;
    c.speech_user = &h;
    ear_lua_game *g = NULL;
    char error[1024];
    ASSERT_OK(ear_lua_game_create(&c, &g, error, sizeof error));
    ASSERT_EQ(lua_test_run(g, 60 * 12, NULL), 60 * 12);
    ear_lua_game_destroy(g);
    ASSERT_EQ(h.count, 3);
    ASSERT_STR_EQ(h.lines[0], "Main menu");
    ASSERT_STR_CONTAINS(h.lines[1], "Script error: ");
    ASSERT_STR_CONTAINS(h.lines[1], "game.lua:3: the door is stuck");
    ASSERT_EQ(h.fates[1], 1); /* heard whole */
    ASSERT_STR_EQ(h.lines[2], "Main menu");
    ASSERT_EQ(h.fates[2], 1);
    ASSERT_DBL_GT(h.start[2], h.start[1] + 1.0); /* after the error's line, not with it */
}

TEST_MAIN(TEST_ENTRY(an_error_is_heard_whole_before_the_menu_starts_again),
          TEST_ENTRY(a_menu_that_fails_at_once_is_not_restarted_forever),
          TEST_ENTRY(each_escape_is_refused_with_a_clear_error_at_its_line),
          TEST_ENTRY(files_only_under_the_game_folder_and_the_save_folder),
          TEST_ENTRY(memory_budget_stops_a_2_gb_allocation_with_file_and_line),
          TEST_ENTRY(endless_loop_is_stopped_with_file_and_line),
          TEST_ENTRY(syntax_error_fails_creation_with_file_and_line),
          TEST_ENTRY(errors_in_callbacks_are_reported_and_the_game_goes_back_to_its_menu),
          TEST_ENTRY(on_error_gets_the_message_with_its_line))
