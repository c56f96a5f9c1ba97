/* SPDX-License-Identifier: Zlib */
/*
 * The bindings of src/lua beyond sound, speech and keys, each against the number or the
 * words it promises: actions (pressed on the frame a scripted key goes down, held after,
 * released on the frame it goes up, an axis from two keys, a pad button, the repeat
 * setting's count), the UI's widgets (a slider speaks its value, a check box its state, a
 * list its choice, a question its answer), the mixer (a duck lowers its bus by its dB, a
 * blend's parameter sets its layer's gain, a pool's volume and its instance limit, all
 * measured as RMS ratios of an offline render), HRTF (a set loaded inside the sandbox and
 * refused outside it; a voice to the right louder in the right ear), and the world (a ray
 * hits the wall at the distance the map gives, a path's length and cost, a vehicle's
 * acceleration by its make).
 */
#include "lua_helpers.h"
#include "test.h"

#include "earshot/hrtf.h"

#include <math.h>

static ear_lua_game *make(const char *name, const char *text, ear_lua_config *c) {
    char path[700];
    lua_test_folder(name, text, path, sizeof path);
    c->script_path = path;
    ear_lua_game *g = NULL;
    char error[1024];
    if (ear_lua_game_create(c, &g, error, sizeof error) != EAR_OK) {
        fprintf(stderr, "create: %s\n", error);
        return NULL;
    }
    return g;
}

/* Runs text for frames frames with keys (a key script's text, may be NULL); returns the
 * summary the script set and the errors it raised. */
static const char *run(const char *name, const char *text, const char *keys, uint64_t frames,
                       uint64_t *errors) {
    static char summary[2048];
    ear_lua_config c = ear_lua_config_default();
    ear_lua_game *g = make(name, text, &c);
    *errors = 1;
    summary[0] = '\0';
    if (!g) return summary;
    ear_script script = {0};
    if (keys && ear_script_parse(keys, &script, NULL, 0) != EAR_OK) {
        ear_lua_game_destroy(g);
        return summary;
    }
    lua_test_run(g, frames, keys ? &script : NULL);
    *errors = ear_lua_game_errors(g);
    if (*errors) fprintf(stderr, "%s\n", ear_lua_game_last_error(g));
    snprintf(summary, sizeof summary, "%s", ear_lua_game_summary(g));
    ear_script_free(&script);
    ear_lua_game_destroy(g);
    return summary;
}

/* ---- actions ------------------------------------------------------------------------- */

/* Each frame the script notes what the actions answer: P pressed, H held, R released,
 * F the pad's fire, T<value> the axis, r a repeat of "up" held from frame 40. */
static const char actions_script[] =
    "local A = earshot.actions\n"
    "A.add('up') A.add('turn', 'axis') A.add('fire') A.add('again')\n"
    "A.profile('walk')\n"
    "A.bind('walk', 'up', 'key:UP')\n"
    "A.bind('walk', 'turn', 'key:LEFT-') A.bind('walk', 'turn', 'key:RIGHT')\n"
    "A.bind('walk', 'fire', 'pad:A')\n"
    "A.bind('walk', 'again', 'key:SPACE')\n"
    "A.use('walk')\n"
    "assert(A.active() == 'walk')\n"
    "local b = A.bindings('walk', 'turn')\n"
    "assert(#b == 2 and b[1] == 'key:LEFT-' and b[2] == 'key:RIGHT', table.concat(b, ','))\n"
    "assert(A.conflict('walk', 'key:UP') == 'up' and A.conflict('walk', 'key:UP', 'up') == "
    "nil)\n"
    "local ok, err = pcall(A.bind, 'walk', 'up', 'key:NOPE')\n"
    "assert(not ok and err:find('EAR_E_FORMAT', 1, true), err)\n"
    "ok, err = pcall(A.pressed, 'jump')\n"
    "assert(not ok and err:find('no action named \"jump\"', 1, true), err)\n"
    /* 0.1 s then every 0.05 s */
    "A.set_repeat(0.1, 0.05)\n"
    "local log, repeats = {}, 0\n"
    "function update()\n"
    "  local f, s = earshot.frame(), ''\n"
    "  if A.pressed('up') then s = s .. 'P' end\n"
    "  if A.held('up') then s = s .. 'H' end\n"
    "  if A.released('up') then s = s .. 'R' end\n"
    "  if A.pressed('fire') then s = s .. 'F' end\n"
    "  local v = A.value('turn') if v ~= 0 then s = s .. string.format('T%g', v) end\n"
    "  if A.repeating('again') then repeats = repeats + 1 end\n"
    "  if s ~= '' and f < 40 then log[#log + 1] = f .. s end\n"
    "  earshot.summary(table.concat(log, ' ') .. ' repeats=' .. repeats)\n"
    "end\n";

TEST(actions_answer_the_frames_their_keys_and_pad_go_down) {
    uint64_t errors = 0;
    /* SPACE held from frame 40 to 70: 30 frames, 0.5 s at 60 frames a second */
    const char *s = run("actions", actions_script,
                        "5 down UP\n8 up UP\n10 down LEFT\n11 up LEFT\n12 down RIGHT\n"
                        "13 up RIGHT\n14 pad_connect\n16 pad_press A\n40 down SPACE\n"
                        "70 up SPACE\n",
                        90, &errors);
    ASSERT_EQ(errors, 0);
    /* the press (1), then 0.1 s later (frame 46) and every 0.05 s (3 frames) while held
     * (frames 46, 49, ..., 67, 70 is the release frame): 1 + 8 */
    ASSERT_STR_EQ(s, "5PH 6H 7H 8R 10T-1 12T1 16F repeats=9");
}

/* ---- the UI -------------------------------------------------------------------------- */

typedef struct heard_lines {
    char text[4096];
} heard_lines;

static void on_line(void *user, const ear_speech_event *e) {
    heard_lines *h = user;
    if (e->kind != EAR_SPEECH_EVENT_START) return;
    size_t n = strlen(h->text);
    snprintf(h->text + n, sizeof h->text - n, "%s|", e->text);
}

/* A menu of a slider, a check box and a list, then a question: what the player hears
 * and the values the script reads back. */
static const char ui_script[] =
    "local U = earshot.ui\n"
    "U.mute_sounds(true)\n"
    "U.menu{id = 'opts', title = 'Options', items = {\n"
    "  {id = 'vol', label = 'Volume', kind = 'slider', value = 50, min = 0, max = 100,\n"
    "   step = 5, unit = 'ui.unit.percent'},\n"
    "  {id = 'snd', label = 'Sound', kind = 'checkbox'},\n"
    "  {id = 'lvl', label = 'Level', kind = 'list', choices = {'Easy', 'Hard'}},\n"
    "  {id = 'done', label = 'Done', kind = 'button', closes = true}}}\n"
    "local ok, err = pcall(U.menu, {id = 'bad', items = {{label = 'no id'}}})\n"
    "assert(not ok and err:find('an item without an id', 1, true), err)\n"
    "local notes, values, heard_by_on_ui = {}, '', 0\n"
    "function on_ui(e) heard_by_on_ui = heard_by_on_ui + 1 end\n"
    "function update()\n"
    "  for _, e in ipairs(U.events()) do\n"
    "    notes[#notes + 1] = e.kind .. ':' .. e.widget .. ':' .. e.item\n"
    "    if e.item == 'vol' then notes[#notes] = notes[#notes] .. string.format('=%g', "
    "e.number) "
    "end\n"
    "    if e.item == 'lvl' then notes[#notes] = notes[#notes] .. '=' .. e.index .. e.text "
    "end\n"
    "  end\n"
    "  if U.is_open('opts') and U.value('opts', 'vol') then\n"
    "    local i, choice = U.value('opts', 'lvl')\n"
    "    values = string.format('vol=%g snd=%s lvl=%d%s', U.value('opts', 'vol'),\n"
    "      tostring(U.value('opts', 'snd')), i, choice)\n"
    "  end\n"
    "  if U.clicked('opts', 'done') then U.question('sure', 'Really?') end\n"
    "  local answer = U.confirmed('sure')\n"
    "  if answer then notes[#notes + 1] = 'answer=' .. answer.item end\n"
    "  earshot.summary(table.concat(notes, ' ') .. ' | ' .. values .. ' on_ui=' ..\n"
    "    heard_by_on_ui)\n"
    "end\n";

TEST(ui_widgets_speak_their_values_and_answer_as_values) {
    heard_lines h = {0};
    ear_lua_config c = ear_lua_config_default();
    c.on_speech = on_line;
    c.speech_user = &h;
    ear_lua_game *g = make("ui", ui_script, &c);
    ASSERT_TRUE(g != NULL);
    ear_script keys = {0};
    /* Right moves the slider one step; Down to the check box, Space checks it; Down to the
     * list, Right to its second choice; Down to Done, Enter; the question: Down to No,
     * Enter */
    ASSERT_EQ(ear_script_parse("5 press RIGHT\n8 press DOWN\n11 press SPACE\n14 press DOWN\n"
                               "17 press RIGHT\n20 press DOWN\n23 press RETURN\n"
                               "28 press DOWN\n31 press RETURN\n",
                               &keys, NULL, 0),
              EAR_OK);
    lua_test_run(g, 40, &keys);
    ASSERT_EQ(ear_lua_game_errors(g), 0);
    /* the events as values, in order, and the menu's values read while it was open */
    ASSERT_STR_EQ(ear_lua_game_summary(g),
                  "changed:opts:vol=55 changed:opts:snd changed:opts:lvl=2Hard "
                  "clicked:opts:done closed:opts: clicked:sure:no confirmed:sure:no "
                  "closed:sure: answer=no | vol=55 snd=true lvl=2Hard on_ui=8");
    /* what the player heard: the slider's new value, each item as it is reached */
    ASSERT_STR_EQ(h.text, "Options, menu|55 percent|Sound, check box, not checked, 2 of 4|"
                          "checked|Level, combo box, Easy, 3 of 4|Hard|Done, button, 4 of 4|"
                          "Really?, dialog|No, button, 2 of 2|");
    ear_lua_game_destroy(g);
    ear_script_free(&keys);
}

/* ---- the mixer ----------------------------------------------------------------------- */

static const char tone[] = "local S = 'synth:sine:440:4:0.25'\n";

/* What a script's sounds sum to in each ear over frames 30..89. */
static lua_test_audio heard(const char *name, const char *body) {
    char text[4000];
    snprintf(text, sizeof text, "%s%s", tone, body);
    lua_test_audio a = {.from = 30};
    ear_lua_config c = ear_lua_config_default();
    ear_lua_game *g = make(name, text, &c);
    if (!g) return a;
    lua_test_run_heard(g, 90, NULL, &a);
    if (ear_lua_game_errors(g)) {
        fprintf(stderr, "%s\n", ear_lua_game_last_error(g));
        a.samples = 0;
    }
    ear_lua_game_destroy(g);
    return a;
}

static double db(double ratio_of_sums) {
    return 10.0 * log10(ratio_of_sums);
}

TEST(a_duck_lowers_its_bus_by_its_db) {
    lua_test_audio ref = heard("duck_ref", "earshot.play(S, {loop = true, bus = 'music'})\n");
    lua_test_audio ducked =
        heard("duck", "earshot.play(S, {loop = true, bus = 'music'})\n"
                      "earshot.duck{name = 'talk', trigger = 'ui', target = 'music',\n"
                      "  gain_db = -9, attack_s = 0.02, release_s = 0.02}\n"
                      "earshot.trigger_duck('talk', 10)\n"
                      "local ok, err = pcall(earshot.trigger_duck, 'nobody', 1)\n"
                      "assert(err:find('EAR_E_NOT_FOUND', 1, true), err)\n");
    ASSERT_GT(ref.samples, 0);
    ASSERT_GT(ducked.samples, 0);
    ASSERT_NEAR(db(ducked.sum_l / ref.sum_l), -9.0, 0.05);
    /* the rule removed, nothing is ducked */
    lua_test_audio removed = heard("duck_off", "earshot.play(S, {loop = true, bus = 'music'})\n"
                                               "earshot.duck{name = 'talk', trigger = 'ui',\n"
                                               "  target = 'music', gain_db = -9}\n"
                                               "earshot.trigger_duck('talk', 10)\n"
                                               "assert(earshot.remove_duck('talk'))\n");
    ASSERT_NEAR(db(removed.sum_l / ref.sum_l), 0.0, 0.05);
}

TEST(a_blend_parameter_sets_its_layer_gain) {
    static const char blend[] =
        "earshot.blend{name = 'engine', params = {{name = 'speed', min = 0, max = 1,\n"
        "  initial = 1}}, layers = {{sound = S, gain = {{param = 'speed',\n"
        "  points = {{0, 0}, {1, 1}}}}}}}\n"
        "local v = earshot.play_blend('engine')\n";
    char half[1000];
    snprintf(half, sizeof half, "%sassert(v:set_param('speed', 0.5))\n", blend);
    lua_test_audio full = heard("blend_full", blend);
    lua_test_audio halved = heard("blend_half", half);
    ASSERT_GT(full.samples, 0);
    ASSERT_GT(halved.samples, 0);
    ASSERT_NEAR(db(halved.sum_l / full.sum_l), 20.0 * log10(0.5), 0.05); /* -6.02 dB */
    uint64_t errors = 0;
    run("blend_bad",
        "local ok, err = pcall(earshot.play_blend, 'none')\n"
        "assert(err:find('EAR_E_NOT_FOUND', 1, true), err)\n"
        "ok, err = pcall(earshot.blend, {name = 'x', params = {}, layers = {{sound = "
        "'no-such.wav'}}})\n"
        "assert(err:find('the sound \"no-such.wav\"', 1, true), err)\n",
        NULL, 3, &errors);
    ASSERT_EQ(errors, 0);
}

TEST(a_pool_plays_at_its_volume_and_keeps_its_instance_limit) {
    lua_test_audio ref = heard("pool_ref", "earshot.play(S)\n");
    lua_test_audio pooled =
        heard("pool", "earshot.pool{name = 'steps', sounds = {S, S}, volume_db_min = -6,\n"
                      "  volume_db_max = -6}\n"
                      "earshot.play_pool('steps')\n");
    ASSERT_GT(pooled.samples, 0);
    ASSERT_NEAR(db(pooled.sum_l / ref.sum_l), -6.0, 0.05);
    uint64_t errors = 0;
    const char *s =
        run("pool_limit",
            "local S = 'synth:sine:440:4:0.25'\n"
            "earshot.pool{name = 'p', sounds = {S}, max_instances = 2}\n"
            "for i = 1, 3 do earshot.play_pool('p') end\n"
            "function update() earshot.summary('voices=' .. earshot.voices()) end\n",
            NULL, 30, &errors);
    ASSERT_EQ(errors, 0);
    ASSERT_STR_EQ(s, "voices=2");
}

TEST(an_offset_starts_a_sound_that_far_into_it) {
    /* a 0.5 s tone played whole, from 0.4 s in, and through compat's extended form with
     * 400 ms: the frame each is heard to end (60 frames a second) */
    uint64_t errors = 0;
    const char *s =
        run("offset",
            "local C = require('earshot.compat')\n"
            "local S = 'synth:sine:440:0.5:0.25'\n"
            "local whole, late = earshot.play(S), earshot.play(S, {offset_s = 0.4})\n"
            "local pool = C.sound_pool()\n"
            "local slot = pool:play_stationary_extended(S, false, 400, 0, 0, 100)\n"
            "local ended, start = {}, earshot.frame()\n"
            "local ok, err = pcall(earshot.play, S, {offset_s = -1})\n"
            "assert(not ok and err:find('offset_s', 1, true), err)\n"
            "function update()\n"
            "  local f = earshot.frame() - start\n"
            "  if not whole:playing() and not ended.w then ended.w = f end\n"
            "  if not late:playing() and not ended.l then ended.l = f end\n"
            "  if not pool:sound_is_playing(slot) and not ended.p then ended.p = f end\n"
            "  if ended.w and ended.l and ended.p then\n"
            "    earshot.summary(string.format('%d %d', ended.w - ended.l,\n"
            "      ended.w - ended.p))\n"
            "  end\n"
            "end\n",
            NULL, 60, &errors);
    ASSERT_EQ(errors, 0);
    ASSERT_STR_EQ(s, "24 24"); /* 0.4 s sooner: 24 frames */
}

/* ---- HRTF ---------------------------------------------------------------------------- */

TEST(an_hrtf_set_loads_inside_the_sandbox_and_places_a_voice) {
    FILE *f = fopen(EAR_HRTF_DEFAULT_PATH, "rb");
    if (!f) {
        printf("no %s: skipped\n", EAR_HRTF_DEFAULT_PATH);
        return;
    }
    fclose(f);
    /* the set beside the script (inside the game's folder) loads; one outside is refused */
    char script[1500];
    snprintf(script, sizeof script,
             "local T = 'synth:sine:3000:4:0.25'\n"
             "local n = earshot.hrtf('set.sofa') assert(n > 100, n)\n"
             "local ok, err = pcall(earshot.hrtf, '%s')\n"
             "assert(not ok and err:find('only under the game', 1, true), err)\n"
             "earshot.play(T, {loop = true, x = 2, y = 0, z = 0, spatializer = 'hrtf'})\n",
             EAR_HRTF_DEFAULT_PATH);
    char path[700];
    lua_test_folder("hrtf", "", path, sizeof path);
    char sofa[800];
    snprintf(sofa, sizeof sofa, "%.*s/set.sofa", (int)(strrchr(path, '/') - path), path);
    char cmd[2000];
    snprintf(cmd, sizeof cmd, "cp '%s' '%s'", EAR_HRTF_DEFAULT_PATH, sofa);
    ASSERT_EQ(system(cmd), 0);
    lua_test_audio a = heard("hrtf", script);
    ASSERT_GT(a.samples, 0);
    /* a voice 2 m to the right, at 3 kHz (the head shadows it): the far (left) ear hears it
     * well below the near one */
    double ild = db(a.sum_r / a.sum_l);
    printf("hrtf ILD at 90 degrees right: %.2f dB\n", ild);
    ASSERT_DBL_GT(ild, 6.0);
    /* the same voice panned instead: a different sound (the set was in use) */
    snprintf(script, sizeof script,
             "earshot.hrtf('set.sofa')\n"
             "local T = 'synth:sine:3000:4:0.25'\n"
             "earshot.play(T, {loop = true, x = 2, y = 0, z = 0, spatializer = 'pan'})\n");
    lua_test_audio p = heard("hrtf", script);
    ASSERT_DBL_GT(fabs(db(p.sum_r / p.sum_l) - ild), 0.5);
}

/* ---- the world ----------------------------------------------------------------------- */

TEST(a_ray_hits_the_wall_at_the_distance_the_map_gives) {
    uint64_t errors = 0;
    const char *s = run(
        "ray",
        "local lv = earshot.level('#######\\n#P..~.#\\n#.....#\\n#######', 2)\n"
        "lv:add_walls()\n"
        "local p = lv:tiles('P')[1]\n"
        /* east from P's centre (column 1, 2 m cells: x = 3) to the wall at column 6 (x = 12) */
        "local d, body, hx, hy, hz, nx = earshot.ray(p.x, p.y, p.z, p.x + 20, p.y, p.z)\n"
        "assert(body:name() == 'wall:1:6', body:name())\n"
        "local n = earshot.ray_count(p.x, p.y, p.z, p.x, p.y, p.z + 20)\n"
        "assert(earshot.ray(p.x, p.y, p.z, p.x + 1, p.y, p.z) == nil, 'short ray')\n"
        /* a path from P to the far corner, around nothing: 4-connected and diagonal */
        "local pts, len, cost = lv:path(p.x, p.y, p.z, p.x + 8, p.y, p.z + 2)\n"
        "local _, dlen = lv:path(p.x, p.y, p.z, p.x + 8, p.y, p.z + 2, {diagonal = true})\n"
        /* water costs 10 a metre: the path goes round it through the row below */
        "local wpts, wlen, wcost = lv:path(p.x, p.y, p.z, p.x + 8, p.y, p.z,\n"
        "  {costs = {['~'] = 10}})\n"
        "local none, why = lv:path(p.x, p.y, p.z, p.x + 8, p.y, p.z, {costs = {['~'] = -1,\n"
        "  ['.'] = -1}})\n"
        "earshot.summary(string.format('d=%g hit=%g,%g normal=%g down=%d path=%d,%g,%g "
        "diag=%.3f water=%d,%g,%g none=%s', d, hx, hz, nx, n, #pts, len, cost, dlen, "
        "#wpts, wlen, wcost, why))\n",
        NULL, 3, &errors);
    ASSERT_EQ(errors, 0);
    /* P's centre x = 3, the wall's face x = 12: 9 m; the ray south meets the bottom wall
     * only; 5 steps of 2 m (4 east, 1 south); diagonal: 3 straight + 1 diagonal =
     * 6 + 2.828; round the water: 6 steps (12 m, cost 12) against 4 steps with one
     * water cell (8 m, cost 6 + 20) */
    ASSERT_STR_EQ(s, "d=9 hit=12,3 normal=-1 down=1 path=6,10,10 diag=8.828 water=7,12,12 "
                     "none=EAR_E_NOT_FOUND");
}

TEST(a_vehicle_accelerates_as_its_make_says) {
    uint64_t errors = 0;
    /* 3000 N on 800 kg + 200 kg of load: 3 m/s^2, less rolling resistance 0.15: 2.85 m/s
     * gained in a second (60 steps); a top speed of 1000 m/s keeps the pull's fall-off below
     * 1e-5 */
    const char *s = run("vehicle",
                        "earshot.gravity(0, 0, 0)\n"
                        "local car = earshot.body{name = 'car', mass = 800, vehicle = {\n"
                        "  load_kg = 200, engine_force_n = 3000, top_speed_mps = 1000,\n"
                        "  grip_mps2 = 8, consumption_l_per_100km = 0}}\n"
                        "assert(earshot.body{name = 'rock', kind = 'fixed'}:vehicle() == nil)\n"
                        "car:drive{gas = 1}\n"
                        "local start, v0\n"
                        "function update()\n"
                        "  local v = car:vehicle()\n"
                        "  if not start then start, v0 = earshot.frame(), v.speed_mps end\n"
                        "  if earshot.frame() == start + 60 then\n"
                        "    earshot.summary(string.format('%.3f %d %s', v.speed_mps - v0,\n"
                        "      v.gear, tostring(v.engine_on)))\n"
                        "  end\n"
                        "end\n",
                        NULL, 80, &errors);
    ASSERT_EQ(errors, 0);
    ASSERT_STR_EQ(s, "2.850 1 true");
}

TEST_MAIN(TEST_ENTRY(actions_answer_the_frames_their_keys_and_pad_go_down),
          TEST_ENTRY(ui_widgets_speak_their_values_and_answer_as_values),
          TEST_ENTRY(a_duck_lowers_its_bus_by_its_db),
          TEST_ENTRY(a_blend_parameter_sets_its_layer_gain),
          TEST_ENTRY(a_pool_plays_at_its_volume_and_keeps_its_instance_limit),
          TEST_ENTRY(an_offset_starts_a_sound_that_far_into_it),
          TEST_ENTRY(an_hrtf_set_loads_inside_the_sandbox_and_places_a_voice),
          TEST_ENTRY(a_ray_hits_the_wall_at_the_distance_the_map_gives),
          TEST_ENTRY(a_vehicle_accelerates_as_its_make_says))
