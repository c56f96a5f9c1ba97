/* SPDX-License-Identifier: Zlib */
/*
 * The game's own speech settings: applied through the context, kept in the save under
 * speech.*, read back before speech starts, ignored (with the player's own kept) when
 * a saved value is bad, and forgotten on request.
 */
#define _POSIX_C_SOURCE 200809L
#include "earshot/engine.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

typedef struct menu_run {
    ear_result rate, volume, punct, voice, bad_rate, bad_punct;
} menu_run;

static void settings_menu(ear_ctx *ctx, void *user) {
    menu_run *m = user;
    m->rate = ear_ctx_set_speech_rate(ctx, 25);
    m->volume = ear_ctx_set_speech_volume(ctx, -5);
    m->punct = ear_ctx_set_speech_punctuation(ctx, EAR_SPEECH_PUNCT_MOST);
    m->voice = ear_ctx_set_speech_voice(ctx, "no such voice"); /* log output: no voices */
    m->bad_rate = ear_ctx_set_speech_rate(ctx, 150);
    m->bad_punct = ear_ctx_set_speech_punctuation(ctx, EAR_SPEECH_PUNCT_PLAYER);
    ear_quit(ctx);
}

TEST(settings_are_saved_and_read_back_at_the_next_start) {
    char dir[] = "/tmp/earshot-speech-settings-XXXXXX";
    ASSERT_NOT_NULL(mkdtemp(dir));
    char save[96];
    snprintf(save, sizeof save, "%s/save.txt", dir);

    ear_engine_config cfg = ear_engine_config_default("settings");
    cfg.speech.log_only = true;
    cfg.save_path = save;
    menu_run m;
    ear_scene scene = {.start = settings_menu, .user = &m};
    ear_runner *r;
    ASSERT_OK(ear_runner_create(&cfg, &scene, &r));
    ear_runner_frame(r, 1.0);
    ear_runner_destroy(r); /* writes the save */
    ASSERT_OK(m.rate);
    ASSERT_OK(m.volume);
    ASSERT_OK(m.punct);
    ASSERT_EQ(m.voice, EAR_E_NOT_FOUND);
    ASSERT_EQ(m.bad_rate, EAR_E_INVALID_ARG);
    ASSERT_EQ(m.bad_punct, EAR_E_INVALID_ARG);

    /* What the next start reads. */
    ear_storage_config sc = ear_storage_config_default();
    sc.path = save;
    ear_storage *st;
    ASSERT_OK(ear_storage_create(&sc, &st));
    ASSERT_EQ(ear_storage_get_int(st, "speech.rate", 0), 25);
    ASSERT_EQ(ear_storage_get_int(st, "speech.volume", 0), -5);
    ASSERT_STR_EQ(ear_storage_get_string(st, "speech.punctuation", ""), "most");
    ASSERT_FALSE(ear_storage_has(st, "speech.voice"));
    ear_speech_config speech = ear_speech_config_default();
    ear_speech_settings_load(st, &speech);
    ASSERT_TRUE(speech.use_rate);
    ASSERT_EQ(speech.rate, 25);
    ASSERT_TRUE(speech.use_volume);
    ASSERT_EQ(speech.volume, -5);
    ASSERT_EQ(speech.punctuation, EAR_SPEECH_PUNCT_MOST);
    ASSERT_NULL(speech.voice); /* the player's voice */
    ear_storage_destroy(st);
    unlink(save);
    rmdir(dir);
}

static void forget(ear_ctx *ctx, void *user) {
    (void)user;
    ASSERT_OK(ear_ctx_set_speech_rate(ctx, -30));
    ear_ctx_use_player_speech_settings(ctx);
    ear_quit(ctx);
}

TEST(forgetting_brings_the_players_settings_back) {
    ear_engine_config cfg = ear_engine_config_default("settings");
    cfg.backend = EAR_BACKEND_HEADLESS;
    ear_scene scene = {.start = forget};
    ear_runner *r;
    ASSERT_OK(ear_runner_create(&cfg, &scene, &r));
    ear_runner_frame(r, 1.0);
    ear_storage *st = ear_ctx_storage(ear_runner_ctx(r));
    ASSERT_FALSE(ear_storage_has(st, "speech.rate"));
    ear_speech_config speech = ear_speech_config_default();
    ear_speech_settings_load(st, &speech);
    ASSERT_FALSE(speech.use_rate);
    ear_runner_destroy(r);
}

TEST(bad_saved_values_keep_the_players_settings) {
    ear_storage *st;
    ASSERT_OK(ear_storage_create(NULL, &st));
    ASSERT_OK(ear_storage_set_string(st, "speech.rate", "fast"));
    ASSERT_OK(ear_storage_set_int(st, "speech.volume", 300));
    ASSERT_OK(ear_storage_set_string(st, "speech.punctuation", "loud"));
    ASSERT_OK(ear_storage_set_string(st, "speech.voice", "earshot-beta"));
    ear_speech_config speech = ear_speech_config_default();
    ear_speech_settings_load(st, &speech);
    ASSERT_FALSE(speech.use_rate);
    ASSERT_FALSE(speech.use_volume);
    ASSERT_EQ(speech.punctuation, EAR_SPEECH_PUNCT_PLAYER);
    ASSERT_STR_EQ(speech.voice, "earshot-beta");
    ear_speech_settings_load(NULL, &speech); /* nothing happens */
    ear_storage_destroy(st);
}

TEST_MAIN(TEST_ENTRY(settings_are_saved_and_read_back_at_the_next_start),
          TEST_ENTRY(forgetting_brings_the_players_settings_back),
          TEST_ENTRY(bad_saved_values_keep_the_players_settings))
