/* SPDX-License-Identifier: Zlib */
/*
 * Speech without a sound card: the chain falls back to the console when no
 * speech-dispatcher daemon answers (and espeak-ng has no stage to speak on), messages
 * sent while the thread starts are not lost, and the game-side history, repeat, mute
 * and echo behave as documented.
 */
#define _POSIX_C_SOURCE 200809L
#include "earshot/speech.h"
#include "test.h"

#include <pthread.h>
#include <time.h>

typedef struct lines {
    pthread_mutex_t lock;
    char text[32][64];
    int count;
} lines;

static void capture(void *user, const char *text) {
    lines *l = user;
    pthread_mutex_lock(&l->lock);
    if (l->count < 32) snprintf(l->text[l->count++], 64, "%s", text);
    pthread_mutex_unlock(&l->lock);
}

static int line_count(lines *l) {
    pthread_mutex_lock(&l->lock);
    int n = l->count;
    pthread_mutex_unlock(&l->lock);
    return n;
}

static void sleep_ms(long ms) {
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

TEST(falls_back_to_the_console_when_no_daemon_runs) {
    static lines l = {PTHREAD_MUTEX_INITIALIZER, {{0}}, 0};
    ear_speech_config cfg = ear_speech_config_default();
    cfg.skip_braille = true; /* never the developer's own display */
    /* A socket where no daemon listens, and no autospawn: as on a CI machine. */
    cfg.dispatcher_socket = "/tmp/earshot-test-no-speechd/speechd.sock";
    cfg.dispatcher_autospawn = false;
    cfg.line_fn = capture;
    cfg.line_user = &l;
    ear_speech *sp;
    ASSERT_OK(ear_speech_create(&cfg, &sp));
    /* Sent at once, while the thread is still looking for an output. */
    ASSERT_OK(ear_speech_speak_queued(sp, "one"));
    ASSERT_OK(ear_speech_speak_queued(sp, "two"));
    ASSERT_OK(ear_speech_speak(sp, "three"));
    ASSERT_OK(ear_speech_speak_queued(sp, "four"));
    ASSERT_EQ(ear_speech_get_output(sp, 10.0), EAR_SPEECH_OUTPUT_CONSOLE);
    for (int i = 0; i < 500 && line_count(&l) < 4; i++) sleep_ms(10);
    ASSERT_EQ(line_count(&l), 4);
    ASSERT_STR_EQ(l.text[0], "one");
    ASSERT_STR_EQ(l.text[1], "two");
    ASSERT_STR_EQ(l.text[2], "three");
    ASSERT_STR_EQ(l.text[3], "four");
    ASSERT_EQ(ear_speech_delivered(sp), 4);
    /* The console has no voices. */
    ASSERT_EQ(ear_speech_voice_count(sp), 0);
    ASSERT_EQ(ear_speech_set_voice(sp, "anything"), EAR_E_NOT_FOUND);
    ear_speech_set_rate(sp, 500); /* clamped, harmless on the console */
    ear_speech_update(sp);        /* no stage: nothing to play */
    ASSERT_EQ(ear_speech_stage_voice(sp), EAR_VOICE_NONE);
    ear_speech_destroy(sp);
    ASSERT_STR_EQ(ear_speech_output_name(EAR_SPEECH_OUTPUT_CONSOLE), "console");
}

TEST(the_console_names_characters_and_keys) {
    static lines l = {PTHREAD_MUTEX_INITIALIZER, {{0}}, 0};
    ear_speech_config cfg = ear_speech_config_default();
    cfg.dispatcher_socket = "/tmp/earshot-test-no-speechd/speechd.sock";
    cfg.line_fn = capture;
    cfg.line_user = &l;
    cfg.skip_braille = true;
    ear_speech *sp;
    ASSERT_OK(ear_speech_create(&cfg, &sp));
    ASSERT_OK(ear_speech_say_char(sp, " "));
    ASSERT_OK(ear_speech_say_char(sp, "\xc3\xa9"));
    ASSERT_OK(ear_speech_say_key(sp, "control_x"));
    for (int i = 0; i < 500 && line_count(&l) < 3; i++) sleep_ms(10);
    ASSERT_EQ(line_count(&l), 3);
    ASSERT_STR_EQ(l.text[0], "space");
    ASSERT_STR_EQ(l.text[1], "\xc3\xa9");
    ASSERT_STR_EQ(l.text[2], "control_x");
    ASSERT_EQ(ear_speech_history_count(sp), 0);
    ASSERT_FALSE(ear_speech_braille_connected(sp));
    ear_speech_destroy(sp);
}

TEST(espeak_without_a_stage_is_skipped) {
    /* espeak-ng would speak into nobody's stage: the chain goes on to the console. */
    static lines l = {PTHREAD_MUTEX_INITIALIZER, {{0}}, 0};
    ear_speech_config cfg = ear_speech_config_default();
    cfg.skip_braille = true; /* never the developer's own display */
    cfg.skip_dispatcher = true;
    cfg.line_fn = capture;
    cfg.line_user = &l;
    ear_speech *sp;
    ASSERT_OK(ear_speech_create(&cfg, &sp));
    ASSERT_EQ(ear_speech_get_output(sp, 10.0), EAR_SPEECH_OUTPUT_CONSOLE);
    ear_speech_destroy(sp);
}

TEST(history_keeps_the_last_100_and_repeat_does_not_add) {
    ear_speech_config cfg = ear_speech_config_default();
    cfg.skip_braille = true; /* never the developer's own display */
    cfg.log_only = true;
    ear_speech *sp;
    ASSERT_OK(ear_speech_create(&cfg, &sp));
    ASSERT_EQ(ear_speech_get_output(sp, 0), EAR_SPEECH_OUTPUT_LOG);
    ASSERT_EQ(ear_speech_repeat_last(sp), EAR_E_NOT_FOUND);
    char msg[32];
    for (int i = 0; i < 105; i++) {
        snprintf(msg, sizeof msg, "message %d", i);
        ASSERT_OK(ear_speech_speak(sp, msg));
    }
    ASSERT_EQ(ear_speech_history_count(sp), EAR_SPEECH_HISTORY);
    ASSERT_STR_EQ(ear_speech_history_at(sp, 0), "message 5");
    ASSERT_STR_EQ(ear_speech_history_at(sp, 99), "message 104");
    ASSERT_NULL(ear_speech_history_at(sp, 100));
    ASSERT_EQ(ear_speech_total(sp), 105);
    ASSERT_EQ(ear_speech_delivered(sp), 105);
    ASSERT_OK(ear_speech_repeat_last(sp));
    ASSERT_EQ(ear_speech_delivered(sp), 106);
    ASSERT_EQ(ear_speech_total(sp), 105);
    ASSERT_STR_EQ(ear_speech_history_at(sp, 99), "message 104");
    ASSERT_EQ(ear_speech_speak(sp, NULL), EAR_E_INVALID_ARG);
    ear_speech_destroy(sp);
}

TEST(mute_keeps_history_but_says_nothing_and_echo_writes_lines) {
    static lines l = {PTHREAD_MUTEX_INITIALIZER, {{0}}, 0};
    ear_speech_config cfg = ear_speech_config_default();
    cfg.skip_braille = true; /* never the developer's own display */
    cfg.log_only = true;
    cfg.echo = true;
    cfg.line_fn = capture;
    cfg.line_user = &l;
    ear_speech *sp;
    ASSERT_OK(ear_speech_create(&cfg, &sp));
    ASSERT_OK(ear_speech_speak(sp, "hello"));
    ear_speech_set_mute(sp, true);
    ASSERT_TRUE(ear_speech_muted(sp));
    ASSERT_OK(ear_speech_speak(sp, "quiet"));
    ASSERT_EQ(ear_speech_history_count(sp), 2);
    ASSERT_EQ(ear_speech_delivered(sp), 1);
    ear_speech_set_mute(sp, false);
    ear_speech_set_echo(sp, false);
    ASSERT_OK(ear_speech_speak(sp, "again"));
    ASSERT_EQ(ear_speech_delivered(sp), 2);
    ASSERT_EQ(line_count(&l), 1); /* only "hello" was echoed */
    ASSERT_STR_EQ(l.text[0], "hello");
    ear_speech_destroy(sp);
    ear_speech_destroy(NULL);
}

TEST(long_messages_are_cut_on_a_character_boundary) {
    ear_speech_config cfg = ear_speech_config_default();
    cfg.skip_braille = true; /* never the developer's own display */
    cfg.log_only = true;
    ear_speech *sp;
    ASSERT_OK(ear_speech_create(&cfg, &sp));
    static char big[3001];
    for (int i = 0; i < 1500; i++) {
        big[2 * i] = (char)0xC3;
        big[2 * i + 1] = (char)0xB6; /* ö */
    }
    ASSERT_OK(ear_speech_speak(sp, big));
    ASSERT_EQ(strlen(ear_speech_history_at(sp, 0)), EAR_SPEECH_TEXT_MAX - 2);
    ear_speech_destroy(sp);
}

TEST(the_history_is_read_backwards_and_forwards) {
    static lines l = {PTHREAD_MUTEX_INITIALIZER, {{0}}, 0};
    ear_speech_config cfg = ear_speech_config_default();
    cfg.skip_braille = true; /* never the developer's own display */
    cfg.log_only = true;
    cfg.echo = true; /* each said message as a line: what the player hears */
    cfg.line_fn = capture;
    cfg.line_user = &l;
    ear_speech *sp;
    ASSERT_OK(ear_speech_create(&cfg, &sp));
    ASSERT_EQ(ear_speech_history_back(sp), EAR_E_NOT_FOUND); /* empty: nothing said */
    ASSERT_EQ(ear_speech_history_forward(sp), EAR_E_NOT_FOUND);
    ASSERT_EQ(line_count(&l), 0);
    ASSERT_OK(ear_speech_speak(sp, "first"));
    ASSERT_OK(ear_speech_speak_queued(sp, "second"));
    ASSERT_OK(ear_speech_say(sp, "third", EAR_SPEECH_NOTIFICATION));
    ASSERT_OK(ear_speech_say(sp, "loading", EAR_SPEECH_PROGRESS)); /* not kept */
    ASSERT_EQ(ear_speech_history_count(sp), 3);
    ASSERT_EQ(ear_speech_history_cursor(sp), 2); /* on the newest */
    ASSERT_OK(ear_speech_history_back(sp));
    ASSERT_EQ(ear_speech_history_cursor(sp), 1);
    ASSERT_OK(ear_speech_history_back(sp));
    ASSERT_EQ(ear_speech_history_back(sp), EAR_E_NOT_FOUND); /* the oldest, said again */
    ASSERT_EQ(ear_speech_history_cursor(sp), 0);
    ASSERT_OK(ear_speech_history_forward(sp));
    ASSERT_OK(ear_speech_history_forward(sp));
    ASSERT_EQ(ear_speech_history_forward(sp), EAR_E_NOT_FOUND); /* the newest again */
    ASSERT_EQ(line_count(&l), 10);
    const char *heard[10] = {"first", "second", "third",  "loading", "second",
                             "first", "first",  "second", "third",   "third"};
    for (int i = 0; i < 10; i++) ASSERT_STR_EQ(l.text[i], heard[i]);
    /* Reading does not add to the history; a new message puts the cursor on it. */
    ASSERT_EQ(ear_speech_history_count(sp), 3);
    ASSERT_OK(ear_speech_history_back(sp));
    ASSERT_OK(ear_speech_speak(sp, "fourth"));
    ASSERT_EQ(ear_speech_history_cursor(sp), 3);
    ASSERT_OK(ear_speech_history_back(sp));
    ASSERT_STR_EQ(l.text[12], "third");
    /* Repeat says the newest and puts the cursor back on it. */
    ASSERT_OK(ear_speech_repeat_last(sp));
    ASSERT_EQ(ear_speech_history_cursor(sp), 3);
    ASSERT_STR_EQ(l.text[13], "fourth");
    ASSERT_EQ(ear_speech_say(sp, "x", (ear_speech_priority)9), EAR_E_INVALID_ARG);
    ear_speech_destroy(sp);
}

TEST(priority_and_punctuation_names) {
    ASSERT_STR_EQ(ear_speech_priority_name(EAR_SPEECH_INTERRUPT), "important");
    ASSERT_STR_EQ(ear_speech_priority_name(EAR_SPEECH_MESSAGE), "message");
    ASSERT_STR_EQ(ear_speech_priority_name(EAR_SPEECH_TEXT), "text");
    ASSERT_STR_EQ(ear_speech_priority_name(EAR_SPEECH_NOTIFICATION), "notification");
    ASSERT_STR_EQ(ear_speech_priority_name(EAR_SPEECH_PROGRESS), "progress");
    ASSERT_STR_EQ(ear_speech_priority_name((ear_speech_priority)7), "unknown");
    ear_speech_punctuation p = EAR_SPEECH_PUNCT_PLAYER;
    ASSERT_OK(ear_speech_punctuation_parse("most", &p));
    ASSERT_EQ(p, EAR_SPEECH_PUNCT_MOST);
    ASSERT_STR_EQ(ear_speech_punctuation_name(p), "most");
    ASSERT_EQ(ear_speech_punctuation_parse("loud", &p), EAR_E_NOT_FOUND);
    ASSERT_EQ(p, EAR_SPEECH_PUNCT_MOST);
    ASSERT_STR_EQ(ear_speech_punctuation_name(EAR_SPEECH_PUNCT_PLAYER), "player");
    ASSERT_STR_EQ(ear_speech_punctuation_name((ear_speech_punctuation)9), "unknown");
}

TEST_MAIN(TEST_ENTRY(falls_back_to_the_console_when_no_daemon_runs),
          TEST_ENTRY(the_history_is_read_backwards_and_forwards),
          TEST_ENTRY(priority_and_punctuation_names),
          TEST_ENTRY(the_console_names_characters_and_keys),
          TEST_ENTRY(espeak_without_a_stage_is_skipped),
          TEST_ENTRY(history_keeps_the_last_100_and_repeat_does_not_add),
          TEST_ENTRY(mute_keeps_history_but_says_nothing_and_echo_writes_lines),
          TEST_ENTRY(long_messages_are_cut_on_a_character_boundary))
