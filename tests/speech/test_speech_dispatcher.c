/* SPDX-License-Identifier: Zlib */
/*
 * The first output of the chain against the real speech-dispatcher daemon (a private
 * one, see speechd_fixture.h): what its output module is asked to say, in which order,
 * with which voice, rate, volume and punctuation; what SSIP's priorities do to it; how
 * characters and keys reach it; and what happens when the daemon dies mid-game and
 * comes back.
 */
#define _GNU_SOURCE
#include "earshot/analysis.h"
#include "earshot/engine.h"
#include "earshot/speech.h"
#include "speechd_fixture.h"
#include "test.h"

static speechd_fixture daemon_ = {{0}, {0}, {0}, {0}, 0};

/* The player's defaults in the daemon's configuration. */
#define PLAYER_RATE   37
#define PLAYER_VOLUME 55

static void cleanup(void) {
    speechd_stop(&daemon_);
    speechd_remove(&daemon_);
}

/* The daemon, started by the first test that needs it (or again after one stopped it);
 * stopped and its folder removed when the process exits. */
static bool daemon_up(void) {
    if (daemon_.pid > 0) return true;
    static bool registered = false;
    if (!registered) {
        atexit(cleanup);
        registered = true;
    }
    return speechd_configure(&daemon_, PLAYER_RATE, PLAYER_VOLUME) && speechd_start(&daemon_);
}

static ear_speech *connect_speech(const char *client) {
    ear_speech_config cfg = ear_speech_config_default();
    cfg.client_name = client;
    cfg.dispatcher_socket = daemon_.socket;
    cfg.skip_braille = true;
    ear_speech *sp = NULL;
    if (ear_speech_create(&cfg, &sp) != EAR_OK) return NULL;
    return sp;
}

/* Waits until the thread has handed n messages to the daemon (at most 10 s). */
static bool delivered(ear_speech *sp, uint64_t n) {
    for (int i = 0; i < 1000 && ear_speech_delivered(sp) < n; i++) speechd_sleep_ms(10);
    return ear_speech_delivered(sp) >= n;
}

TEST(messages_arrive_in_order_with_the_players_settings) {
    ASSERT_TRUE(daemon_up());
    /* Found through libspeechd's own environment, as a game started from a desktop
     * session finds the player's daemon. */
    char address[160];
    snprintf(address, sizeof address, "unix_socket:%s", daemon_.socket);
    setenv("SPEECHD_ADDRESS", address, 1);
    ear_speech_config cfg = ear_speech_config_default();
    cfg.skip_braille = true;
    ear_speech *sp;
    ASSERT_OK(ear_speech_create(&cfg, &sp));
    ear_speech_output out = ear_speech_get_output(sp, 10.0); /* read by then */
    unsetenv("SPEECHD_ADDRESS");
    ASSERT_EQ(out, EAR_SPEECH_OUTPUT_DISPATCHER);
    /* The voices are the daemon's (its module's AddVoice lines). */
    ASSERT_EQ(ear_speech_voice_count(sp), 2);
    ASSERT_STR_EQ(ear_speech_voice_name(sp, 0), "earshot-alpha");
    ASSERT_STR_EQ(ear_speech_voice_name(sp, 1), "earshot-beta");

    ASSERT_OK(ear_speech_speak_queued(sp, "one"));
    ASSERT_OK(ear_speech_speak_queued(sp, "two"));
    ASSERT_OK(ear_speech_speak_queued(sp, "three"));
    /* The game set nothing: the player's voice, rate 37, volume 55, punctuation none. */
    int one = speechd_wait(&daemon_, "say|one|earshot-alpha|37|none|55", false);
    int two = speechd_wait(&daemon_, "say|two|earshot-alpha|37|none|55", false);
    int three = speechd_wait(&daemon_, "say|three|earshot-alpha|37|none|55", false);
    ASSERT_GE(one, 0);
    ASSERT_LT(one, two);
    ASSERT_LT(two, three);
    ASSERT_GE(speechd_wait(&daemon_, "done|three", false), 0);
    ear_speech_destroy(sp);
}

TEST(the_games_own_settings_reach_the_module) {
    ASSERT_TRUE(daemon_up());
    ear_speech_config cfg = ear_speech_config_default();
    cfg.dispatcher_socket = daemon_.socket;
    cfg.skip_braille = true;
    cfg.voice = "earshot-beta";
    cfg.use_rate = true;
    cfg.rate = -40;
    cfg.use_volume = true;
    cfg.volume = 20;
    cfg.punctuation = EAR_SPEECH_PUNCT_ALL;
    ear_speech *sp;
    ASSERT_OK(ear_speech_create(&cfg, &sp));
    ASSERT_EQ(ear_speech_get_output(sp, 10.0), EAR_SPEECH_OUTPUT_DISPATCHER);
    /* Punctuation "all": the daemon says the marks itself (its symbol tables) and
     * tells the module to say none. */
    ASSERT_OK(ear_speech_speak_queued(sp, "Hi, there!"));
    ASSERT_GE(
        speechd_wait(&daemon_, "say|Hi comma, there bang!|earshot-beta|-40|none|20", false), 0);
    ear_speech_set_rate(sp, 15);
    ear_speech_set_volume(sp, -10);
    ASSERT_OK(ear_speech_set_voice(sp, "earshot-alpha"));
    ASSERT_EQ(ear_speech_set_voice(sp, "carol"), EAR_E_NOT_FOUND);
    ear_speech_set_punctuation(sp, EAR_SPEECH_PUNCT_NONE);
    ASSERT_OK(ear_speech_speak_queued(sp, "Bye, now!"));
    ASSERT_GE(speechd_wait(&daemon_, "say|Bye, now!|earshot-alpha|15|none|-10", false), 0);
    ear_speech_destroy(sp);
}

TEST(saved_settings_reach_the_module_at_the_next_start) {
    ASSERT_TRUE(daemon_up());
    /* What a settings menu saved (ear_ctx_set_speech_*), read as the runner does. */
    ear_storage *st;
    ASSERT_OK(ear_storage_create(NULL, &st));
    ASSERT_OK(ear_storage_set_int(st, "speech.rate", 12));
    ASSERT_OK(ear_storage_set_string(st, "speech.voice", "earshot-beta"));
    ear_speech_config cfg = ear_speech_config_default();
    cfg.dispatcher_socket = daemon_.socket;
    cfg.skip_braille = true;
    ear_speech_settings_load(st, &cfg);
    ear_speech *sp;
    ASSERT_OK(ear_speech_create(&cfg, &sp));
    ear_storage_destroy(st); /* the speech object copied what it needs */
    ASSERT_OK(ear_speech_speak(sp, "saved"));
    /* Rate and voice the game's; volume the player's (55). */
    ASSERT_GE(speechd_wait(&daemon_, "say|saved|earshot-beta|12|none|55", false), 0);
    ear_speech_destroy(sp);
}

TEST(the_players_settings_hold_until_the_game_changes_one) {
    ASSERT_TRUE(daemon_up());
    /* The game starts as the runner starts it: what the settings menu saved (nothing
     * yet) read into the config; so nothing of voice, rate or volume is sent. */
    ear_storage *st;
    ASSERT_OK(ear_storage_create(NULL, &st));
    ear_speech_config cfg = ear_speech_config_default();
    cfg.dispatcher_socket = daemon_.socket;
    cfg.skip_braille = true;
    ear_speech_settings_load(st, &cfg);
    ear_storage_destroy(st);
    ASSERT_FALSE(cfg.use_rate);
    ASSERT_FALSE(cfg.use_volume);
    ASSERT_NULL(cfg.voice);
    ear_speech *sp;
    ASSERT_OK(ear_speech_create(&cfg, &sp));
    ASSERT_EQ(ear_speech_get_output(sp, 10.0), EAR_SPEECH_OUTPUT_DISPATCHER);
    /* The daemon's defaults are in force: its voice, rate 37, volume 55. */
    ASSERT_OK(ear_speech_speak_queued(sp, "started"));
    ASSERT_GE(speechd_wait(&daemon_, "say|started|earshot-alpha|37|none|55", false), 0);
    /* The player moves the rate slider (ear_ctx_set_speech_rate sends it so): the rate
     * is the game's from then on, the volume still the player's; then the volume. */
    ear_speech_set_rate(sp, -20);
    ASSERT_OK(ear_speech_speak_queued(sp, "slower"));
    ASSERT_GE(speechd_wait(&daemon_, "say|slower|earshot-alpha|-20|none|55", false), 0);
    ear_speech_set_volume(sp, 10);
    ASSERT_OK(ear_speech_speak_queued(sp, "softer"));
    ASSERT_GE(speechd_wait(&daemon_, "say|softer|earshot-alpha|-20|none|10", false), 0);
    ear_speech_destroy(sp);
}

TEST(an_interrupting_message_cancels_and_a_queued_one_waits) {
    ASSERT_TRUE(daemon_up());
    ear_speech *sp = connect_speech("interrupts");
    ASSERT_NOT_NULL(sp);
    ASSERT_EQ(ear_speech_get_output(sp, 10.0), EAR_SPEECH_OUTPUT_DISPATCHER);
    ASSERT_OK(ear_speech_speak_queued(sp, "hold one"));
    ASSERT_GE(speechd_wait(&daemon_, "say|hold one|", true), 0);
    ASSERT_OK(ear_speech_speak_queued(sp, "after one"));
    ASSERT_TRUE(delivered(sp, 2));
    /* Menu navigation: cancels what is said and what waits. */
    ASSERT_OK(ear_speech_speak(sp, "now"));
    int now = speechd_wait(&daemon_, "say|now|", true);
    ASSERT_GE(now, 0);
    ASSERT_GE(speechd_wait(&daemon_, "done|now", false), 0);
    ASSERT_EQ(speechd_find(&daemon_, "done|hold one", false), -1); /* cut */
    ASSERT_EQ(speechd_find(&daemon_, "say|after one|", true), -1); /* dropped */

    /* A queued message waits for the one being said to end. */
    ASSERT_OK(ear_speech_speak_queued(sp, "hold two"));
    ASSERT_GE(speechd_wait(&daemon_, "say|hold two|", true), 0);
    ASSERT_OK(ear_speech_speak_queued(sp, "after two"));
    ASSERT_TRUE(delivered(sp, 5));
    ASSERT_EQ(speechd_find(&daemon_, "say|after two|", true), -1);
    speechd_release(&daemon_);
    int done_two = speechd_wait(&daemon_, "done|hold two", false);
    int after = speechd_wait(&daemon_, "say|after two|", true);
    ASSERT_GE(done_two, 0);
    ASSERT_GT(after, done_two);
    ASSERT_GE(speechd_wait(&daemon_, "done|after two", false), 0);
    ear_speech_destroy(sp);
}

TEST(notifications_and_progress_never_pile_up) {
    ASSERT_TRUE(daemon_up());
    ear_speech *sp = connect_speech("priorities");
    ASSERT_NOT_NULL(sp);
    ASSERT_EQ(ear_speech_get_output(sp, 10.0), EAR_SPEECH_OUTPUT_DISPATCHER);
    ASSERT_OK(ear_speech_speak_queued(sp, "hold three"));
    ASSERT_GE(speechd_wait(&daemon_, "say|hold three|", true), 0);
    /* While a message is said: notifications are dropped, progress messages are held
     * and only the last of them is said, a newer text replaces an older one. */
    ASSERT_OK(ear_speech_say(sp, "note one", EAR_SPEECH_NOTIFICATION));
    ASSERT_OK(ear_speech_say(sp, "note two", EAR_SPEECH_NOTIFICATION));
    ASSERT_OK(ear_speech_say(sp, "loading 10", EAR_SPEECH_PROGRESS));
    ASSERT_OK(ear_speech_say(sp, "loading 50", EAR_SPEECH_PROGRESS));
    ASSERT_OK(ear_speech_say(sp, "loading 100", EAR_SPEECH_PROGRESS));
    ASSERT_TRUE(delivered(sp, 6));
    speechd_release(&daemon_);
    ASSERT_GE(speechd_wait(&daemon_, "done|hold three", false), 0);
    ASSERT_GE(speechd_wait(&daemon_, "done|loading 100", false), 0);
    ASSERT_EQ(speechd_find(&daemon_, "say|note one|", true), -1);
    ASSERT_EQ(speechd_find(&daemon_, "say|note two|", true), -1);
    ASSERT_EQ(speechd_find(&daemon_, "say|loading 10|", true), -1);
    ASSERT_EQ(speechd_find(&daemon_, "say|loading 50|", true), -1);

    ASSERT_OK(ear_speech_speak_queued(sp, "hold four"));
    ASSERT_GE(speechd_wait(&daemon_, "say|hold four|", true), 0);
    ASSERT_OK(ear_speech_say(sp, "page one", EAR_SPEECH_TEXT));
    ASSERT_OK(ear_speech_say(sp, "page two", EAR_SPEECH_TEXT));
    ASSERT_TRUE(delivered(sp, 9));
    speechd_release(&daemon_);
    ASSERT_GE(speechd_wait(&daemon_, "done|page two", false), 0);
    ASSERT_EQ(speechd_find(&daemon_, "say|page one|", true), -1);
    /* Alone, a notification is said. The module's "done" line comes a moment before the
     * daemon hears the message ended, and a notification that arrives in between is
     * dropped (as SSIP says), so it is sent again until the daemon is idle. */
    int said = -1;
    for (int i = 0; i < 50 && said < 0; i++) {
        ASSERT_OK(ear_speech_say(sp, "note three", EAR_SPEECH_NOTIFICATION));
        for (int k = 0; k < 20 && said < 0; k++) {
            speechd_sleep_ms(10);
            said = speechd_find(&daemon_, "done|note three", false);
        }
    }
    ASSERT_GE(said, 0);
    /* Progress stays out of the history; the rest is in it. */
    ASSERT_GE(ear_speech_history_count(sp), 7);
    ASSERT_STR_EQ(ear_speech_history_at(sp, 2), "note two");
    ASSERT_STR_EQ(ear_speech_history_at(sp, 3), "hold four");
    ear_speech_destroy(sp);
}

TEST(characters_and_keys_go_through_ssip) {
    ASSERT_TRUE(daemon_up());
    ear_speech *sp = connect_speech("typing");
    ASSERT_NOT_NULL(sp);
    ASSERT_EQ(ear_speech_get_output(sp, 10.0), EAR_SPEECH_OUTPUT_DISPATCHER);
    /* SSIP CHAR: the daemon names the character with the player's symbol tables (the
     * player's synthesiser adds "capital" for capitals, per CAP_LET_RECOGN). */
    ASSERT_OK(ear_speech_say_char(sp, "!"));
    ASSERT_GE(speechd_wait(&daemon_, "done| bang ", false), 0);
    ASSERT_OK(ear_speech_say_char(sp, " "));
    ASSERT_GE(speechd_wait(&daemon_, "done|space", false), 0);
    ASSERT_OK(ear_speech_say_char(sp, "A"));
    ASSERT_GE(speechd_wait(&daemon_, "done|A", false), 0);
    ASSERT_OK(ear_speech_say_char(sp, "\xc3\xa9")); /* é */
    ASSERT_GE(speechd_wait(&daemon_, "done|\xc3\xa9", false), 0);
    /* SSIP KEY: the key's name. */
    ASSERT_OK(ear_speech_say_key(sp, "shift_a"));
    ASSERT_GE(speechd_wait(&daemon_, "done|shift_a", false), 0);
    /* A typed letter interrupts a message being said. */
    ASSERT_OK(ear_speech_speak_queued(sp, "hold five"));
    ASSERT_GE(speechd_wait(&daemon_, "say|hold five|", true), 0);
    ASSERT_OK(ear_speech_say_char(sp, "b"));
    ASSERT_GE(speechd_wait(&daemon_, "done|b", false), 0);
    ASSERT_EQ(speechd_find(&daemon_, "done|hold five", false), -1);
    /* Not characters or keys. */
    ASSERT_EQ(ear_speech_say_char(sp, "ab"), EAR_E_INVALID_ARG);
    ASSERT_EQ(ear_speech_say_char(sp, ""), EAR_E_INVALID_ARG);
    ASSERT_EQ(ear_speech_say_char(sp, "\n"), EAR_E_INVALID_ARG);
    ASSERT_EQ(ear_speech_say_char(sp, "\xc3"), EAR_E_INVALID_ARG);
    ASSERT_EQ(ear_speech_say_key(sp, "a b"), EAR_E_INVALID_ARG);
    ASSERT_EQ(ear_speech_say_key(sp, ""), EAR_E_INVALID_ARG);
    /* Typing does not fill the history. */
    ASSERT_EQ(ear_speech_history_count(sp), 1);
    ear_speech_destroy(sp);
}

/* ---- What the daemon reports ------------------------------------------------------------ */

/* The lines a listener heard: kind, text, said and full seconds. */
typedef struct heard_log {
    int count;
    ear_speech_event_kind kind[16];
    char text[16][64];
    double said_s[16], full_s[16];
} heard_log;

static void on_line(void *user, const ear_speech_event *e) {
    heard_log *h = user;
    if (h->count >= 16) return;
    h->kind[h->count] = e->kind;
    snprintf(h->text[h->count], sizeof h->text[0], "%s", e->text);
    h->said_s[h->count] = e->said_s;
    h->full_s[h->count] = e->full_s;
    h->count++;
}

static double mono_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Advances the speech's clock (seconds since t0) every 10 ms until the listener has heard
 * n events, at most 10 s. */
static bool heard_by(ear_speech *sp, heard_log *h, int n, double t0) {
    for (int i = 0; i < 1000 && h->count < n; i++) {
        speechd_sleep_ms(10);
        ear_speech_advance(sp, mono_s() - t0);
    }
    return h->count >= n;
}

/* Another client cancels everything every client says (SSIP "CANCEL all"), over a raw
 * connection: the daemon, not the game, cuts the game's line. */
static bool cancel_all_from_another_client(void) {
    int s = socket(AF_UNIX, SOCK_STREAM, 0);
    if (s < 0) return false;
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    snprintf(addr.sun_path, sizeof addr.sun_path, "%s", daemon_.socket);
    bool ok = connect(s, (struct sockaddr *)&addr, sizeof addr) == 0;
    const char *lines[] = {"SET SELF CLIENT_NAME test:other:main\r\n", "CANCEL all\r\n"};
    char reply[512];
    for (int i = 0; ok && i < 2; i++) {
        ok = write(s, lines[i], strlen(lines[i])) == (ssize_t)strlen(lines[i]);
        ssize_t n = ok ? read(s, reply, sizeof reply - 1) : -1;
        ok = n > 0 && reply[0] == '2'; /* 2xx: done */
    }
    close(s);
    return ok;
}

TEST(the_daemon_reports_when_a_line_ends) {
    ASSERT_TRUE(daemon_up());
    ear_speech *sp = connect_speech("reports");
    ASSERT_NOT_NULL(sp);
    ASSERT_EQ(ear_speech_get_output(sp, 10.0), EAR_SPEECH_OUTPUT_DISPATCHER);
    heard_log h;
    memset(&h, 0, sizeof h);
    ear_speech_set_listener(sp, on_line, &h);
    double t0 = mono_s();
    ear_speech_advance(sp, 0.001);
    ASSERT_OK(ear_speech_speak_queued(sp, "hold eight"));
    ASSERT_GE(speechd_wait(&daemon_, "say|hold eight|", true), 0);
    /* Its estimate (0.62 s) is long past, but the daemon is still saying it. */
    speechd_sleep_ms(1500);
    ear_speech_advance(sp, mono_s() - t0);
    ASSERT_TRUE(ear_speech_speaking(sp));
    ASSERT_EQ(h.count, 1);
    ASSERT_EQ(h.kind[0], EAR_SPEECH_EVENT_START);
    /* The module is done: the daemon's END ends the line whole, as long as it took. */
    speechd_release(&daemon_);
    ASSERT_GE(speechd_wait(&daemon_, "done|hold eight", false), 0);
    ASSERT_TRUE(heard_by(sp, &h, 2, t0));
    ASSERT_EQ(h.kind[1], EAR_SPEECH_EVENT_END);
    ASSERT_STR_EQ(h.text[1], "hold eight");
    ASSERT_DBL_GE(h.full_s[1], 1.5);
    ASSERT_NEAR(h.said_s[1], h.full_s[1], 1e-9);
    ASSERT_FALSE(ear_speech_speaking(sp));
    ear_speech_destroy(sp);
}

TEST(an_interrupting_line_reports_the_first_as_cut) {
    ASSERT_TRUE(daemon_up());
    ear_speech *sp = connect_speech("cuts");
    ASSERT_NOT_NULL(sp);
    ASSERT_EQ(ear_speech_get_output(sp, 10.0), EAR_SPEECH_OUTPUT_DISPATCHER);
    heard_log h;
    memset(&h, 0, sizeof h);
    ear_speech_set_listener(sp, on_line, &h);
    double t0 = mono_s();
    ear_speech_advance(sp, 0.001);
    ASSERT_OK(ear_speech_speak_queued(sp, "hold nine and a long tail of words"));
    ASSERT_GE(speechd_wait(&daemon_, "say|hold nine", true), 0);
    speechd_sleep_ms(300);
    ear_speech_advance(sp, mono_s() - t0);
    ASSERT_OK(ear_speech_speak(sp, "now nine"));
    ASSERT_GE(h.count, 3);
    ASSERT_EQ(h.kind[1], EAR_SPEECH_EVENT_CUT);
    ASSERT_STR_EQ(h.text[1], "hold nine and a long tail of words");
    ASSERT_DBL_LT(h.said_s[1], h.full_s[1]);
    ASSERT_EQ(h.kind[2], EAR_SPEECH_EVENT_START);
    /* The interrupting line ends when the daemon says so. */
    ASSERT_GE(speechd_wait(&daemon_, "done|now nine", false), 0);
    ASSERT_TRUE(heard_by(sp, &h, 4, t0));
    ASSERT_EQ(h.kind[3], EAR_SPEECH_EVENT_END);
    ASSERT_STR_EQ(h.text[3], "now nine");
    ASSERT_EQ(speechd_find(&daemon_, "done|hold nine and a long tail of words", false), -1);

    /* A cut the game did not make: another client cancels every client's speech. */
    ASSERT_OK(ear_speech_speak_queued(sp, "hold ten"));
    ASSERT_GE(speechd_wait(&daemon_, "say|hold ten|", true), 0);
    ear_speech_advance(sp, mono_s() - t0);
    ASSERT_EQ(h.count, 5);
    ASSERT_TRUE(cancel_all_from_another_client());
    ASSERT_TRUE(heard_by(sp, &h, 6, t0));
    ASSERT_EQ(h.kind[5], EAR_SPEECH_EVENT_CUT);
    ASSERT_STR_EQ(h.text[5], "hold ten");
    ASSERT_FALSE(ear_speech_speaking(sp));
    ear_speech_destroy(sp);
}

static double render_rms(ear_stage *stage, float *buf, uint32_t frames) {
    ear_stage_render(stage, buf, frames);
    return ear_rms(buf, frames, 2, 0);
}

/* Updates the speech (as the game does every frame) until espeak-ng's voice is on the
 * stage, at most 20 s. */
static bool stage_speaks(ear_speech *sp) {
    for (int i = 0; i < 2000; i++) {
        ear_speech_update(sp);
        if (ear_speech_stage_voice(sp) != EAR_VOICE_NONE) return true;
        speechd_sleep_ms(10);
    }
    return false;
}

TEST(a_daemon_that_dies_is_noticed_and_one_that_comes_back_is_used) {
    ASSERT_TRUE(daemon_up());
    ear_stage *stage;
    ASSERT_OK(ear_stage_create(NULL, &stage));
    ear_speech_config cfg = ear_speech_config_default();
    cfg.dispatcher_socket = daemon_.socket;
    cfg.skip_braille = true;
    cfg.stage = stage;
    ear_speech *sp;
    ASSERT_OK(ear_speech_create(&cfg, &sp));
    ASSERT_EQ(ear_speech_get_output(sp, 10.0), EAR_SPEECH_OUTPUT_DISPATCHER);
    ASSERT_OK(ear_speech_speak_queued(sp, "hold the door"));
    ASSERT_GE(speechd_wait(&daemon_, "say|hold the door|", true), 0);

    /* The daemon dies mid-message. */
    speechd_stop(&daemon_);
    ear_speech_output out = EAR_SPEECH_OUTPUT_DISPATCHER;
    for (int i = 0; i < 1000 && out == EAR_SPEECH_OUTPUT_DISPATCHER; i++) {
        speechd_sleep_ms(10);
        out = ear_speech_get_output(sp, 0);
    }
    ASSERT_EQ(out, EAR_SPEECH_OUTPUT_ESPEAK);
    /* The message it was saying is said again, by espeak-ng on the stage. */
    static float buf[2 * 48000];
    ASSERT_TRUE(stage_speaks(sp));
    ASSERT_DBL_GT(render_rms(stage, buf, 48000), 0.01);
    ASSERT_U64_EQ(ear_speech_delivered(sp), 2);
    /* And what the game says next too. */
    ear_speech_stop(sp);
    ASSERT_OK(ear_speech_speak(sp, "after the crash"));
    ASSERT_TRUE(stage_speaks(sp));
    ASSERT_DBL_GT(render_rms(stage, buf, 48000), 0.01);
    ASSERT_GT(ear_speech_voice_count(sp), 2); /* espeak-ng's voices now */
    ear_speech_destroy(sp);

    /* The daemon comes back: the next start uses it again. */
    ASSERT_TRUE(speechd_start(&daemon_));
    ASSERT_OK(ear_speech_create(&cfg, &sp));
    ASSERT_EQ(ear_speech_get_output(sp, 10.0), EAR_SPEECH_OUTPUT_DISPATCHER);
    ASSERT_OK(ear_speech_speak(sp, "back again"));
    ASSERT_GE(speechd_wait(&daemon_, "done|back again", false), 0);
    ear_speech_destroy(sp);
    ear_stage_destroy(stage);
}

TEST_MAIN(TEST_ENTRY(messages_arrive_in_order_with_the_players_settings),
          TEST_ENTRY(the_games_own_settings_reach_the_module),
          TEST_ENTRY(saved_settings_reach_the_module_at_the_next_start),
          TEST_ENTRY(the_players_settings_hold_until_the_game_changes_one),
          TEST_ENTRY(an_interrupting_message_cancels_and_a_queued_one_waits),
          TEST_ENTRY(notifications_and_progress_never_pile_up),
          TEST_ENTRY(characters_and_keys_go_through_ssip),
          TEST_ENTRY(the_daemon_reports_when_a_line_ends),
          TEST_ENTRY(an_interrupting_line_reports_the_first_as_cut),
          TEST_ENTRY(a_daemon_that_dies_is_noticed_and_one_that_comes_back_is_used))
