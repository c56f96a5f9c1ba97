/* SPDX-License-Identifier: Zlib */
/*
 * Assets: names resolve to registered clips, synth names and files under
 * <root>/sounds/; the cache loads a file once, counts holders, keeps idle entries until
 * trim, forgets failures so a later acquire retries; a missing sound warns once and
 * plays nothing. Files are made by sox in the test.
 */
#define _DEFAULT_SOURCE /* realpath */
#include "earshot/assets.h"
#include "../decode/sox_util.h"
#include "test.h"

static char root[256];

static const char *at(const char *name) {
    static char paths[8][512];
    static int next = 0;
    char *p = paths[next++ % 8];
    snprintf(p, 512, "%s/%s", root, name);
    return p;
}

static bool write_text_file(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    if (!f) return false;
    fputs(text, f);
    return fclose(f) == 0;
}

static ear_assets *new_assets(void) {
    ear_assets *a = NULL;
    ear_assets_config c = ear_assets_config_default();
    c.root = root;
    if (ear_assets_create(&c, &a) != EAR_OK) return NULL;
    return a;
}

static void remove_files(void) {
    remove_tree(root);
}

/* The files the tests read, made by sox in a scratch folder by the first test that names
 * them (SETUP_ONCE, so each test also runs alone) and removed when the process exits. */
static void make_files(void) {
    ASSERT_TRUE(scratch_dir(root, sizeof root, "assets"));
    atexit(remove_files);
    ASSERT_TRUE(run("mkdir -p '%s'", at("sounds")));
    ASSERT_TRUE(run("sox -n -b 16 -r 48000 -c 1 '%s' synth 0.2 sine 500 gain -6",
                    at("sounds/beep.wav")));
    ASSERT_TRUE(run("sox -n -r 44100 -c 2 '%s' synth 0.3 sine 300 sine 400 gain -6",
                    at("sounds/door.ogg")));
    ASSERT_TRUE(
        run("sox -n -r 22050 -c 1 '%s' synth 0.1 square 200 gain -12", at("sounds/step.flac")));
}

TEST(names_resolve_in_order) {
    SETUP_ONCE(make_files);
    ear_assets *a = new_assets();
    ASSERT_NOT_NULL(a);
    ASSERT_STR_EQ(ear_assets_root(a), root);
    char path[1024];
    ASSERT_OK(ear_assets_resolve(a, "beep", path, sizeof path));
    ASSERT_STR_EQ(path, at("sounds/beep.wav"));
    ASSERT_OK(ear_assets_resolve(a, "beep.wav", path, sizeof path));
    ASSERT_STR_EQ(path, at("sounds/beep.wav"));
    ASSERT_OK(ear_assets_resolve(a, "door", path, sizeof path));
    ASSERT_STR_EQ(path, at("sounds/door.ogg"));
    ASSERT_OK(ear_assets_resolve(a, "step", path, sizeof path));
    ASSERT_STR_EQ(path, at("sounds/step.flac"));
    ASSERT_OK(ear_assets_resolve(a, "synth:sine:440:0.5", path, sizeof path));
    ASSERT_STR_EQ(path, "");
    ASSERT_EQ(ear_assets_resolve(a, "ghost", path, sizeof path), EAR_E_NOT_FOUND);
    /* A registered clip wins over the file of the same name. */
    ear_clip *mine;
    ASSERT_OK(ear_clip_create(NULL, 10, 1, 48000, NULL, &mine));
    ASSERT_OK(ear_assets_register_clip(a, "beep", mine));
    ASSERT_EQ(ear_clip_refcount(mine), 2);
    ASSERT_OK(ear_assets_resolve(a, "beep", path, sizeof path));
    ASSERT_STR_EQ(path, "");
    ear_clip *got;
    ASSERT_OK(ear_assets_acquire(a, "beep", &got));
    ASSERT_PTR_EQ(got, mine);
    ASSERT_EQ(ear_assets_state(a, "beep").holders, 1);
    ASSERT_OK(ear_assets_release(a, got));
    ASSERT_EQ(ear_assets_trim(a), 0);
    ear_assets_destroy(a);
    ASSERT_EQ(ear_clip_refcount(mine), 1);
    ear_clip_release(mine);
}

TEST(files_decode_at_their_own_rate) {
    SETUP_ONCE(make_files);
    ear_assets *a = new_assets();
    ear_clip *c;
    ASSERT_OK(ear_assets_acquire(a, "door", &c));
    ASSERT_EQ(ear_clip_sample_rate(c), 44100);
    ASSERT_EQ(ear_clip_channels(c), 2);
    ASSERT_EQ(ear_clip_frames(c), 13230);
    ASSERT_OK(ear_assets_acquire(a, "step", &c));
    ASSERT_EQ(ear_clip_sample_rate(c), 22050);
    ASSERT_EQ(ear_clip_frames(c), 2205);
    ear_assets_destroy(a);
}

TEST(cache_counts_holders_keeps_idle_and_trims) {
    SETUP_ONCE(make_files);
    ear_assets *a = new_assets();
    ear_clip *c1, *c2, *c3;
    ASSERT_OK(ear_assets_acquire(a, "beep", &c1));
    ASSERT_OK(ear_assets_acquire(a, "beep.wav", &c2)); /* the same file: the same entry */
    ASSERT_PTR_EQ(c1, c2);
    ear_assets_stats s = ear_assets_get_stats(a);
    ASSERT_EQ(s.loads, 1);
    ASSERT_EQ(s.entries, 1);
    ASSERT_EQ(s.idle, 0);
    ASSERT_EQ(ear_assets_state(a, "beep").holders, 2);
    ASSERT_EQ(ear_clip_refcount(c1), 1); /* the cache's own reference */

    ASSERT_OK(ear_assets_acquire(a, "door", &c3));
    ASSERT_OK(ear_assets_release(a, c1));
    ASSERT_OK(ear_assets_release(a, c1));
    ASSERT_EQ(ear_assets_release(a, c1), EAR_E_STATE);
    /* Idle: no holders, still loaded; acquiring again reads no file. */
    ear_asset_state st = ear_assets_state(a, "beep");
    ASSERT_TRUE(st.loaded);
    ASSERT_EQ(st.holders, 0);
    s = ear_assets_get_stats(a);
    ASSERT_EQ(s.entries, 2);
    ASSERT_EQ(s.idle, 1);
    ASSERT_OK(ear_assets_acquire(a, "beep", &c2));
    ASSERT_PTR_EQ(c2, c1);
    ASSERT_EQ(ear_assets_get_stats(a).loads, 2);
    ASSERT_OK(ear_assets_release(a, c2));

    /* Trim unloads the idle entry only; the held one stays. */
    ASSERT_EQ(ear_assets_trim(a), 1);
    ASSERT_FALSE(ear_assets_state(a, "beep").loaded);
    ASSERT_TRUE(ear_assets_state(a, "door").loaded);
    s = ear_assets_get_stats(a);
    ASSERT_EQ(s.entries, 1);
    ASSERT_EQ(s.idle, 0);
    /* After a trim the file is read again. */
    ASSERT_OK(ear_assets_acquire(a, "beep", &c1));
    ASSERT_EQ(ear_assets_get_stats(a).loads, 3);
    ASSERT_OK(ear_assets_release(a, c1));
    ASSERT_OK(ear_assets_release(a, c3));
    ASSERT_EQ(ear_assets_trim(a), 2);
    ear_clip *stranger;
    ASSERT_OK(ear_clip_create(NULL, 4, 1, 48000, NULL, &stranger));
    ASSERT_EQ(ear_assets_release(a, stranger), EAR_E_NOT_FOUND);
    ear_clip_release(stranger);
    ear_assets_destroy(a);
}

TEST(a_failed_load_is_not_remembered) {
    SETUP_ONCE(make_files);
    ear_assets *a = new_assets();
    FILE *f = fopen(at("sounds/late.wav"), "w");
    ASSERT_NOT_NULL(f);
    fputs("not yet a sound\n", f);
    fclose(f);
    log_catcher log;
    start_catching(&log);
    ear_clip *c = NULL;
    ASSERT_EQ(ear_assets_acquire(a, "late", &c), EAR_E_FORMAT);
    ASSERT_EQ(ear_assets_acquire(a, "late", &c), EAR_E_FORMAT);
    stop_catching();
    ASSERT_NULL(c);
    ear_assets_stats s = ear_assets_get_stats(a);
    ASSERT_EQ(s.entries, 0);
    ASSERT_EQ(s.failed_loads, 2); /* tried each time */
    ASSERT_EQ(log.warnings, 1);   /* said once */
    ASSERT_STR_CONTAINS(log.text, "late.wav: is a text file, not a sound file");
    /* The file is fixed: the next acquire loads it. */
    ASSERT_TRUE(run("sox -n -r 48000 -c 1 '%s' synth 0.1 sine 700", at("sounds/late.wav")));
    ASSERT_OK(ear_assets_acquire(a, "late", &c));
    ASSERT_EQ(ear_clip_frames(c), 4800);
    ASSERT_EQ(ear_assets_get_stats(a).loads, 1);
    ear_assets_destroy(a);
}

TEST(a_missing_sound_warns_once_and_plays_nothing) {
    SETUP_ONCE(make_files);
    ear_assets *a = new_assets();
    ear_stage *stage;
    ASSERT_OK(ear_stage_create(NULL, &stage));
    log_catcher log;
    start_catching(&log);
    ear_clip *c = NULL;
    ear_voice_id id = 123;
    for (int i = 0; i < 5; i++) {
        ASSERT_EQ(ear_assets_acquire(a, "ghost", &c), EAR_E_NOT_FOUND);
        ASSERT_EQ(ear_assets_play(a, stage, "ghost", NULL, &id), EAR_E_NOT_FOUND);
        ASSERT_EQ(id, EAR_VOICE_NONE);
    }
    ASSERT_EQ(ear_assets_play(a, stage, "another ghost", NULL, &id), EAR_E_NOT_FOUND);
    stop_catching();
    ASSERT_EQ(log.warnings, 2);
    ASSERT_EQ(ear_assets_get_stats(a).warnings, 2);
    ASSERT_STR_CONTAINS(log.text, "[assets] no sound named \"ghost\"");
    /* What gameplay sees: the sound is finished, nothing plays, the stage is silent. */
    ASSERT_FALSE(ear_stage_is_playing(stage, id));
    ASSERT_EQ(ear_stage_voice_count(stage), 0);
    ear_stage_destroy(stage);
    ear_assets_destroy(a);
}

/* 004: a sound that cannot be found is reported once and not looked up on disk again
 * until a define or load changes something: a file that appears meanwhile is not seen
 * until then. */
TEST(a_missing_sound_is_not_looked_up_again_until_a_define) {
    SETUP_ONCE(make_files);
    ear_assets *a = new_assets();
    ASSERT_NOT_NULL(a);
    ear_clip *c = NULL;
    remove(at("sounds/latecomer.wav"));
    log_catcher log;
    start_catching(&log);
    ASSERT_EQ(ear_assets_acquire(a, "latecomer", &c), EAR_E_NOT_FOUND);
    ASSERT_TRUE(run("sox -n -b 16 -r 48000 -c 1 '%s' synth 0.1 sine 700 gain -6",
                    at("sounds/latecomer.wav")));
    ASSERT_EQ(ear_assets_acquire(a, "latecomer", &c), EAR_E_NOT_FOUND); /* not asked again */
    stop_catching();
    ASSERT_EQ(log.warnings, 1);
    ASSERT_EQ(ear_assets_get_stats(a).loads, 0);
    /* A define changes what names mean: the next request looks again and finds the file. */
    ear_clip *other = NULL;
    float x[4] = {0, 0, 0, 0};
    ASSERT_OK(ear_clip_create(x, 4, 1, 48000, NULL, &other));
    ASSERT_OK(ear_assets_register_clip(a, "other", other));
    ear_clip_release(other);
    ASSERT_OK(ear_assets_acquire(a, "latecomer", &c));
    ASSERT_EQ(ear_clip_frames(c), 4800);
    ASSERT_OK(ear_assets_release(a, c));
    ear_assets_destroy(a);
    remove(at("sounds/latecomer.wav"));
}

TEST(play_by_name_and_trim_while_playing) {
    SETUP_ONCE(make_files);
    ear_assets *a = new_assets();
    ear_stage *stage;
    ASSERT_OK(ear_stage_create(NULL, &stage));
    ear_voice_id id;
    ASSERT_OK(ear_assets_play(a, stage, "door", &(ear_play){.volume = 1}, &id));
    ASSERT_TRUE(ear_stage_is_playing(stage, id));
    /* The cache forgets the clip while the voice plays: the voice's reference keeps it. */
    ASSERT_EQ(ear_assets_trim(a), 1);
    float *out = calloc(2 * 24000, sizeof(float));
    ASSERT_OK(ear_stage_render(stage, out, 24000));
    ear_stage_update(stage);
    double sum = 0;
    for (int i = 0; i < 2 * 14000; i++) sum += (double)out[i] * out[i];
    ASSERT_DBL_GT(sqrt(sum / (2 * 14000)), 0.1);
    ASSERT_FALSE(ear_stage_is_playing(stage, id)); /* 0.3 s clip, 0.5 s rendered */
    free(out);
    ear_stage_destroy(stage);
    ear_assets_destroy(a);
}

TEST(synth_names_are_built_once) {
    SETUP_ONCE(make_files);
    ear_assets *a = new_assets();
    ear_clip *c1, *c2;
    ASSERT_OK(ear_assets_acquire(a, "synth:sine:440:0.5", &c1));
    ASSERT_OK(ear_assets_acquire(a, "synth:sine:440:0.5", &c2));
    ASSERT_PTR_EQ(c1, c2);
    ASSERT_EQ(ear_clip_frames(c1), 24000);
    ASSERT_EQ(ear_assets_get_stats(a).loads, 1);
    log_catcher log;
    start_catching(&log);
    ASSERT_EQ(ear_assets_acquire(a, "synth:wobble:440", &c2), EAR_E_FORMAT);
    ASSERT_EQ(ear_assets_acquire(a, "synth:wobble:440", &c2), EAR_E_FORMAT);
    stop_catching();
    ASSERT_EQ(log.warnings, 1);
    ASSERT_STR_CONTAINS(log.text, "synth:wobble:440");
    ear_assets_destroy(a);
}

/* Counts what an allocator was asked for: the largest single request. */
typedef struct counting {
    size_t largest;
} counting;
static void *count_alloc(size_t n, void *user) {
    counting *c = user;
    if (n > c->largest) c->largest = n;
    return malloc(n);
}
static void *count_realloc(void *p, size_t n, void *user) {
    counting *c = user;
    if (n > c->largest) c->largest = n;
    return realloc(p, n);
}
static void count_free(void *p, void *user) {
    (void)user;
    free(p);
}

/* A name of a few bytes must not ask for an hour of sound (660 MiB): a synth clip may
 * last synth_max_s (60 s by default), a longer one is refused before anything is
 * allocated, said once naming the sound, the field and the limit; in audio.json the
 * error names the file and the JSON path too. */
TEST(synth_names_are_limited_in_length) {
    SETUP_ONCE(make_files);
    counting count = {0};
    ear_allocator alloc = {count_alloc, count_realloc, count_free, &count};
    ear_assets_config c = ear_assets_config_default();
    c.root = root;
    c.allocator = &alloc;
    ear_assets *a = NULL;
    ASSERT_OK(ear_assets_create(&c, &a));
    ear_clip *clip = NULL;
    log_catcher log;
    start_catching(&log);
    ASSERT_EQ(ear_assets_acquire(a, "synth:sine:440:3600", &clip), EAR_E_UNSUPPORTED);
    ASSERT_EQ(ear_assets_acquire(a, "synth:sine:440:3600", &clip), EAR_E_UNSUPPORTED);
    ASSERT_EQ(ear_assets_acquire(a, "synth:sine:440:60.5", &clip), EAR_E_UNSUPPORTED);
    stop_catching();
    ASSERT_EQ(log.warnings, 2);
    ASSERT_STR_CONTAINS(log.text, "sound \"synth:sine:440:3600\": its seconds field asks for "
                                  "3600 s, more than the 60 s a synth clip may last here "
                                  "(ear_assets_config.synth_max_s)");
    ASSERT_STR_CONTAINS(ear_assets_last_load_error(a), "60.5 s");
    ASSERT_LT(count.largest, 1u << 20); /* nothing near the clip's size was asked for */
    /* Exactly the limit is allowed: 60 s at 48 kHz. */
    ASSERT_OK(ear_assets_acquire(a, "synth:sine:440:60", &clip));
    ASSERT_EQ(ear_clip_frames(clip), 60 * 48000);
    ASSERT_OK(ear_assets_release(a, clip));
    ear_assets_destroy(a);

    /* audio.json: a 51-byte pool asking for an hour fails its parse, naming the file, the
     * place, the sound and the field; so does a blend layer of 61 s. */
    char dir[300], json[320];
    snprintf(dir, sizeof dir, "%s/long", root);
    snprintf(json, sizeof json, "%s/audio.json", dir);
    ASSERT_TRUE(run("mkdir -p '%s'", dir));
    ASSERT_TRUE(write_text_file(
        json, "{\"pools\":[{\"name\":\"p\",\"clips\":[\"synth:sine:1:3600\"]}]}"));
    c.root = dir;
    ASSERT_OK(ear_assets_create(&c, &a));
    ear_stage *stage;
    ASSERT_OK(ear_stage_create(NULL, &stage));
    ear_io_error err = {{0}};
    ASSERT_EQ(ear_assets_apply_setup(a, stage, &err), EAR_E_FORMAT);
    ASSERT_STR_CONTAINS(err.message, "/long/audio.json: pools[0].clips[0]: sound "
                                     "\"synth:sine:1:3600\": its seconds field asks for 3600 "
                                     "s, more than the 60 s a synth clip in a setup file may "
                                     "last");
    ear_blend_source blend;
    const char *layer = "{\"name\":\"car\",\"params\":[{\"name\":\"rpm\",\"min\":0,"
                        "\"max\":1,\"default\":0}],\"layers\":[{\"clip\":\"synth:engine:"
                        "60:61\"}]}";
    ASSERT_EQ(ear_blend_parse(layer, strlen(layer), "car.blend.json", &blend, &err),
              EAR_E_FORMAT);
    ASSERT_STR_CONTAINS(err.message, "car.blend.json: layers[0]: sound \"synth:engine:60:61\": "
                                     "its seconds field asks for 61 s");
    ear_assets_destroy(a);

    /* Within the file's 60 s but past a game's tighter cache: the cache's reason, with the
     * file and the place. */
    ASSERT_TRUE(write_text_file(
        json, "{\"pools\":[{\"name\":\"p\",\"clips\":[\"synth:sine:1:45\"]}]}"));
    c.synth_max_s = 30.0f;
    ASSERT_OK(ear_assets_create(&c, &a));
    start_catching(&log);
    ASSERT_EQ(ear_assets_apply_setup(a, stage, &err), EAR_E_UNSUPPORTED);
    stop_catching();
    ASSERT_STR_CONTAINS(err.message, "/long/audio.json: pools[0].clips[0]: sound "
                                     "\"synth:sine:1:45\" will not load: its seconds field "
                                     "asks for 45 s, more than the 30 s");
    ear_stage_destroy(stage);
    ear_assets_destroy(a);

    /* A game that wants longer drones says so; the synth's own 3600 s stays the top. */
    c.root = root;
    c.synth_max_s = 120.0f;
    ASSERT_OK(ear_assets_create(&c, &a));
    ASSERT_OK(ear_assets_acquire(a, "synth:sine:440:90", &clip));
    ASSERT_EQ(ear_clip_frames(clip), 90 * 48000);
    ASSERT_OK(ear_assets_release(a, clip));
    ear_assets_destroy(a);
    float bad[] = {-1.0f, 3601.0f, NAN};
    for (size_t i = 0; i < 3; i++) {
        c.synth_max_s = bad[i];
        a = NULL;
        ASSERT_EQ(ear_assets_create(&c, &a), EAR_E_INVALID_ARG);
        ASSERT_NULL(a);
    }
}

TEST(music_opens_as_a_stream) {
    SETUP_ONCE(make_files);
    ASSERT_TRUE(run("mkdir -p '%s'", at("music")));
    ASSERT_TRUE(run("sox -n -r 44100 -c 2 '%s' synth 1 sine 220 sine 330 gain -6",
                    at("music/menu.ogg")));
    ear_assets *a = new_assets();
    ear_stream s;
    ASSERT_OK(ear_assets_open_music(a, "menu", true, &s));
    ASSERT_EQ(s.channels, 2);
    ASSERT_EQ(s.sample_rate, 44100);
    float buf[2 * 1000];
    ASSERT_EQ(s.read(s.user, buf, 1000), 1000); /* prefilled before open returned */
    ASSERT_FALSE(s.ended(s.user));
    s.release(s.user);
    /* "door" is found under sounds/ too. */
    ASSERT_OK(ear_assets_open_music(a, "door", false, &s));
    s.release(s.user);
    log_catcher log;
    start_catching(&log);
    ASSERT_EQ(ear_assets_open_music(a, "no-such-song", false, &s), EAR_E_NOT_FOUND);
    ASSERT_EQ(ear_assets_open_music(a, "no-such-song", false, &s), EAR_E_NOT_FOUND);
    stop_catching();
    ASSERT_EQ(log.warnings, 1);
    ASSERT_STR_CONTAINS(log.text, "no music named \"no-such-song\"");
    ear_assets_destroy(a);
}

TEST(bad_arguments) {
    SETUP_ONCE(make_files);
    ear_assets *a = new_assets();
    ear_clip *c;
    ASSERT_EQ(ear_assets_acquire(a, "", &c), EAR_E_INVALID_ARG);
    ASSERT_EQ(ear_assets_acquire(a, NULL, &c), EAR_E_INVALID_ARG);
    ASSERT_EQ(ear_assets_acquire(NULL, "beep", &c), EAR_E_INVALID_ARG);
    ASSERT_EQ(ear_assets_register_clip(a, "x", NULL), EAR_E_INVALID_ARG);
    ASSERT_EQ(ear_assets_create(NULL, NULL), EAR_E_INVALID_ARG);
    ear_assets_destroy(NULL);
    ear_assets_destroy(a);
    /* Defaults: the folder "assets". */
    ASSERT_OK(ear_assets_create(NULL, &a));
    ASSERT_STR_EQ(ear_assets_root(a), "assets");
    ear_assets_destroy(a);
}

/* With allowed folders, a file outside them (reached by a symbolic link, "..", or an
 * audio.json clip) reads exactly as a missing one: the same result, the same warning
 * but for the name. Without them the very same links load, so the test would catch a
 * route that bypasses the check. */
TEST(confined_files_outside_read_as_missing) {
    SETUP_ONCE(make_files);
    ASSERT_TRUE(run("mkdir -p '%s' '%s' '%s'", at("out"), at("game/sounds"), at("game/music")));
    ASSERT_TRUE(run("sox -n -r 48000 -c 1 '%s' synth 0.1 sine 900", at("out/secret.wav")));
    ASSERT_TRUE(run("cp '%s' '%s'", at("out/secret.wav"), at("game/sounds/inside.wav")));
    ASSERT_TRUE(run("ln -s ../../out/secret.wav '%s'", at("game/sounds/leak.wav")));
    ASSERT_TRUE(run("ln -s ../../out/secret.wav '%s'", at("game/music/tune.wav")));
    ASSERT_TRUE(write_text_file(at("out/hum.blend.json"),
                                "{\"name\": \"hum\", \"params\": [{\"name\": \"p\", \"min\": "
                                "0, \"max\": 1}], \"layers\": [{\"clip\": \"inside\"}]}"));
    ASSERT_TRUE(run("ln -s ../../out/hum.blend.json '%s'", at("game/sounds/hum.blend.json")));
    char game[512], real_game[4096];
    snprintf(game, sizeof game, "%s", at("game"));
    ASSERT_NOT_NULL(realpath(game, real_game));
    const char *allowed[] = {game};
    for (int confined = 1; confined >= 0; confined--) {
        ear_assets_config c = ear_assets_config_default();
        c.root = game;
        if (confined) {
            c.allowed_roots = allowed;
            c.allowed_root_count = 1;
        }
        ear_assets *a = NULL;
        ASSERT_OK(ear_assets_create(&c, &a));
        ear_clip *clip = NULL;
        ASSERT_OK(ear_assets_get(a, "inside", &clip));
        log_catcher log;
        start_catching(&log);
        ear_result leak = ear_assets_get(a, "leak", &clip);
        ear_result dots = ear_assets_get(a, "../../out/secret", &clip);
        ear_stream stream;
        ear_result music = ear_assets_open_music(a, "tune", false, &stream);
        ear_stage *stage;
        ASSERT_OK(ear_stage_create(NULL, &stage));
        ear_io_error err = {{0}};
        ear_result blend = ear_assets_load_blend_file(a, stage, "hum", &err);
        stop_catching();
        if (confined) {
            ASSERT_EQ(leak, EAR_E_NOT_FOUND);
            ASSERT_EQ(dots, EAR_E_NOT_FOUND);
            ASSERT_EQ(music, EAR_E_NOT_FOUND);
            ASSERT_EQ(blend, EAR_E_NOT_FOUND);
            /* The words of a missing sound, and no word of the file outside. */
            ASSERT_STR_CONTAINS(log.text, "no sound named \"leak\" (not registered");
            ASSERT_STR_CONTAINS(log.text, "no music named \"tune\"");
            ASSERT_STR_NOT_CONTAINS(log.text, "secret.wav"); /* nothing about it */
            ASSERT_STR_CONTAINS(err.message, "no such file");
        } else {
            ASSERT_OK(leak);
            ASSERT_OK(dots);
            ASSERT_OK(music);
            stream.release(stream.user);
            ASSERT_OK(blend);
        }
        ear_stage_destroy(stage);
        ear_assets_destroy(a);
    }
    /* An audio.json clip outside: the same error as a clip file that is missing. */
    ASSERT_TRUE(write_text_file(at("game/audio.json"),
                                "{\"clips\": {\"c\": \"../../out/secret.wav\"}}"));
    ear_assets_config c = ear_assets_config_default();
    c.root = game;
    c.allowed_roots = allowed;
    c.allowed_root_count = 1;
    ear_assets *a = NULL;
    ASSERT_OK(ear_assets_create(&c, &a));
    ear_audio_setup *setup = NULL;
    ear_io_error err = {{0}};
    ASSERT_EQ(ear_assets_load_setup(a, &setup, &err), EAR_E_FORMAT);
    ASSERT_STR_CONTAINS(err.message, "clips.c: no file");
    ear_assets_destroy(a);
    remove(at("game/audio.json"));
}

TEST_MAIN(TEST_ENTRY(names_resolve_in_order), TEST_ENTRY(files_decode_at_their_own_rate),
          TEST_ENTRY(cache_counts_holders_keeps_idle_and_trims),
          TEST_ENTRY(a_failed_load_is_not_remembered),
          TEST_ENTRY(a_missing_sound_warns_once_and_plays_nothing),
          TEST_ENTRY(a_missing_sound_is_not_looked_up_again_until_a_define),
          TEST_ENTRY(play_by_name_and_trim_while_playing),
          TEST_ENTRY(synth_names_are_built_once), TEST_ENTRY(synth_names_are_limited_in_length),
          TEST_ENTRY(music_opens_as_a_stream), TEST_ENTRY(bad_arguments),
          TEST_ENTRY(confined_files_outside_read_as_missing))
