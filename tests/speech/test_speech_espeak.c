/* SPDX-License-Identifier: Zlib */
/*
 * espeak-ng into the stage, measured offline: the synthesiser's samples become a clip
 * that ear_speech_update plays on the stage's ui bus; the rendered output is silent
 * before, clearly above a threshold while it speaks, and an interrupting message stops
 * the first one while a queued one waits for it to end. Each line reports on the timeline
 * as the player hears it: it begins with its clip on the stage, ends with the clip's last
 * sample (as long as espeak-ng's synthesis is) and is cut when a later line stops it.
 */
#define _POSIX_C_SOURCE 200809L
#include "earshot/analysis.h"
#include "earshot/mixer.h"
#include "earshot/speech.h"
#include "test.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static void sleep_ms(long ms) {
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* Calls ear_speech_update until the speech has a voice on the stage (or 20 s pass). */
static ear_voice_id wait_voice(ear_speech *sp, ear_voice_id not_this) {
    for (int i = 0; i < 2000; i++) {
        ear_speech_update(sp);
        ear_voice_id v = ear_speech_stage_voice(sp);
        if (v != EAR_VOICE_NONE && v != not_this) return v;
        sleep_ms(10);
    }
    return EAR_VOICE_NONE;
}

static float buf_for_fade[2 * 4800];

static double render_rms(ear_stage *stage, float *buf, uint32_t frames) {
    ear_stage_render(stage, buf, frames);
    return ear_rms(buf, frames, 2, 0);
}

TEST(espeak_speaks_into_the_stage_and_is_measured) {
    ear_stage *stage;
    ASSERT_OK(ear_stage_create(NULL, &stage));
    ear_speech_config cfg = ear_speech_config_default();
    cfg.skip_braille = true; /* never the developer's own display */
    cfg.skip_dispatcher = true;
    cfg.stage = stage;
    ear_speech *sp;
    ASSERT_OK(ear_speech_create(&cfg, &sp));
    ASSERT_EQ(ear_speech_get_output(sp, 10.0), EAR_SPEECH_OUTPUT_ESPEAK);
    ASSERT_GT(ear_speech_voice_count(sp), 0);
    ASSERT_OK(ear_speech_set_voice(sp, ear_speech_voice_name(sp, 0)));
    ASSERT_EQ(ear_speech_set_voice(sp, "no such voice"), EAR_E_NOT_FOUND);

    static float buf[2 * 48000];
    ASSERT_NEAR(render_rms(stage, buf, 9600), 0, 0); /* silent before */

    ASSERT_OK(ear_speech_speak(sp, "Earshot speaks through the stage."));
    ear_voice_id first = wait_voice(sp, EAR_VOICE_NONE);
    ASSERT_NE(first, EAR_VOICE_NONE);
    /* One second of speech: espeak-ng's voice peaks near full scale; its RMS over a
     * spoken second is well above -40 dBFS. */
    double rms = render_rms(stage, buf, 48000);
    ASSERT_DBL_GT(rms, 0.01);
    ASSERT_DBL_GT(ear_peak(buf, 48000, 2, 0), 0.05);

    /* A queued message waits: the first voice keeps playing. */
    ASSERT_OK(ear_speech_speak_queued(sp, "Queued after it."));
    sleep_ms(200);
    ear_speech_update(sp);
    ASSERT_EQ(ear_speech_stage_voice(sp), first);
    ASSERT_TRUE(ear_stage_is_playing(stage, first));

    /* An interrupting message stops the first one (a short fade) and drops the queued. */
    ASSERT_OK(ear_speech_speak(sp, "Interrupted."));
    ear_voice_id third = wait_voice(sp, first);
    ASSERT_NE(third, EAR_VOICE_NONE);
    render_rms(stage, buf, 4800);
    ear_stage_update(stage);
    ASSERT_FALSE(ear_stage_is_playing(stage, first));
    ASSERT_TRUE(ear_stage_is_playing(stage, third));

    /* Stop: the voice fades out and the output goes quiet. */
    ear_speech_stop(sp);
    render_rms(stage, buf, 4800);
    ASSERT_DBL_LT(render_rms(stage, buf, 4800), 1e-6);
    ear_speech_destroy(sp);
    ear_stage_destroy(stage);
}

/* Speech plays on the ui bus, so a duck rule lowers the music under it: a 300 Hz music
 * tone measured in 20 ms windows holds its level before the speech and sits at the duck's
 * -12 dB (within 0.5 dB) while espeak-ng speaks; the ui bus alone (music muted) carries
 * the voice. While the duck is measured the ui bus plays at 1/1000 (the trigger is the
 * bus's peak after its volume, so the threshold is 1e-5): the voice's own energy near
 * 300 Hz is then 46 dB under the tone and cannot pass for music. */
TEST(speech_is_on_the_ui_bus_and_ducks_the_music) {
    ear_stage *stage;
    ASSERT_OK(ear_stage_create(NULL, &stage));
    ear_duck_rule duck = {.name = "music_under_speech",
                          .trigger = EAR_BUS_UI,
                          .target = EAR_BUS_MUSIC,
                          .gain_db = -12.0f,
                          .threshold = 1e-5f,
                          .attack_s = 0.05f,
                          .hold_s = 0.3f,
                          .release_s = 0.3f};
    ASSERT_OK(ear_stage_set_duck(stage, &duck));
    float tone[4800];
    for (int i = 0; i < 4800; i++)
        tone[i] = 0.2f * (float)sin(2.0 * 3.14159265358979 * 300.0 * i / 48000.0);
    ear_clip *music;
    ASSERT_OK(ear_clip_create(tone, 4800, 1, 48000, NULL, &music));
    ASSERT_OK(ear_stage_music_play(
        stage, &(ear_music_params){.name = "tone", .source = {.clip = music}, .loop = true}));

    ear_speech_config cfg = ear_speech_config_default();
    cfg.skip_braille = true; /* never the developer's own display */
    cfg.skip_dispatcher = true;
    cfg.stage = stage;
    ear_speech *sp;
    ASSERT_OK(ear_speech_create(&cfg, &sp));
    ASSERT_EQ(ear_speech_get_output(sp, 10.0), EAR_SPEECH_OUTPUT_ESPEAK);

    ASSERT_OK(ear_stage_set_bus_volume(stage, EAR_BUS_UI, 0.001f));
    static float buf[2 * 48000];
    ear_stage_render(stage, buf, 9600);
    double before = ear_tone_amplitude(buf + 2 * 4800, 960, 2, 0, 48000, 300.0);
    ASSERT_NEAR(before, 0.2, 0.002);

    ASSERT_OK(ear_speech_speak(sp, "The music steps back while I talk."));
    ASSERT_NE(wait_voice(sp, EAR_VOICE_NONE), EAR_VOICE_NONE);
    /* After the 50 ms attack, while speaking: -12 dB in most 20 ms windows (the voice
     * pauses between words, where the duck holds for 0.3 s). */
    ear_stage_render(stage, buf, 4800);
    ear_stage_render(stage, buf, 24000);
    int at_floor = 0, windows = 0;
    for (uint32_t w = 0; w + 960 <= 24000; w += 960, windows++) {
        double a = ear_tone_amplitude(buf + 2 * w, 960, 2, 0, 48000, 300.0);
        if (fabs(20.0 * log10(a / 0.2) + 12.0) <= 0.5) at_floor++;
    }
    ASSERT_GE(at_floor, windows * 8 / 10);
    /* The voice itself is on the ui bus: with the music bus muted, what is left is
     * speech, well above -40 dBFS. */
    ASSERT_OK(ear_stage_set_bus_muted(stage, EAR_BUS_MUSIC, true));
    ASSERT_OK(ear_stage_set_bus_volume(stage, EAR_BUS_UI, 1.0f));
    ear_stage_render(stage, buf, 480);
    ear_stage_render(stage, buf, 9600);
    ASSERT_DBL_GT(ear_rms(buf, 9600, 2, 0), 0.01);
    /* And muting ui silences it: nothing else plays. */
    ASSERT_OK(ear_stage_set_bus_muted(stage, EAR_BUS_UI, true));
    ear_stage_render(stage, buf, 480);
    ear_stage_render(stage, buf, 4800);
    ASSERT_DBL_LE(ear_peak(buf, 4800, 2, EAR_ALL_CHANNELS), 0.0);

    ear_speech_destroy(sp);
    ear_stage_destroy(stage);
    ear_clip_release(music);
}

/* Renders (updating speech and stage as a frame does) until voice v has ended; returns
 * the frames it played, at most 20 s. */
static uint32_t play_through(ear_speech *sp, ear_stage *stage, ear_voice_id v) {
    static float chunk[2 * 4800];
    uint32_t frames = 0;
    while (frames < 20 * 48000) {
        ear_stage_render(stage, chunk, 4800);
        ear_stage_update(stage);
        frames += 4800;
        if (!ear_stage_is_playing(stage, v)) break;
        ear_speech_update(sp);
    }
    return frames;
}

/* Waits until the thread has synthesised n messages and hands them to the game side. */
static void wait_delivered(ear_speech *sp, uint64_t n) {
    for (int i = 0; i < 2000 && ear_speech_delivered(sp) < n; i++) sleep_ms(10);
    ear_speech_update(sp);
}

/* SSIP's rules on the stage, with espeak-ng: while a message is said, a notification is
 * dropped, progress messages are held and only the last is said after it, and a newer
 * text replaces an older one. Which message plays is told by its length: the long
 * progress and text messages play for more than 1.5 s, the short ones under 1.5 s (with
 * espeak-ng's trailing silence). */
TEST(espeak_follows_the_priorities_on_the_stage) {
    ear_stage *stage;
    ASSERT_OK(ear_stage_create(NULL, &stage));
    ear_speech_config cfg = ear_speech_config_default();
    cfg.skip_braille = true; /* never the developer's own display */
    cfg.skip_dispatcher = true;
    cfg.stage = stage;
    ear_speech *sp;
    ASSERT_OK(ear_speech_create(&cfg, &sp));
    ASSERT_EQ(ear_speech_get_output(sp, 10.0), EAR_SPEECH_OUTPUT_ESPEAK);

    ASSERT_OK(ear_speech_speak_queued(sp, "A message in play."));
    ear_voice_id first = wait_voice(sp, EAR_VOICE_NONE);
    ASSERT_NE(first, EAR_VOICE_NONE);
    ASSERT_OK(ear_speech_say(sp, "note", EAR_SPEECH_NOTIFICATION));
    ASSERT_OK(ear_speech_say(sp, "ten", EAR_SPEECH_PROGRESS));
    ASSERT_OK(ear_speech_say(sp, "Loading is complete, one hundred percent of it.",
                             EAR_SPEECH_PROGRESS));
    wait_delivered(sp, 4);
    ASSERT_EQ(ear_speech_stage_voice(sp), first);
    play_through(sp, stage, first);
    ear_voice_id last = wait_voice(sp, first);
    ASSERT_NE(last, EAR_VOICE_NONE);
    ASSERT_GT(play_through(sp, stage, last), 72000); /* the long, last progress message */
    /* Nothing else waited: once the last clip ended, nothing is on the stage. */
    ear_speech_update(sp);
    ASSERT_EQ(ear_speech_stage_voice(sp), EAR_VOICE_NONE);

    ASSERT_OK(ear_speech_speak_queued(sp, "Another message."));
    ear_voice_id third = wait_voice(sp, last);
    ASSERT_NE(third, EAR_VOICE_NONE);
    ASSERT_OK(ear_speech_say(sp, "A first page of text, long enough to hear for a while.",
                             EAR_SPEECH_TEXT));
    ASSERT_OK(ear_speech_say(sp, "Page two.", EAR_SPEECH_TEXT));
    wait_delivered(sp, 7);
    play_through(sp, stage, third);
    ear_voice_id page = wait_voice(sp, third);
    ASSERT_NE(page, EAR_VOICE_NONE);
    ASSERT_LT(play_through(sp, stage, page), 72000); /* the short page two */
    ear_speech_update(sp);
    ASSERT_EQ(ear_speech_stage_voice(sp), EAR_VOICE_NONE);

    /* Alone, a notification is said; a newer one replaces it while it is said. */
    ASSERT_OK(ear_speech_say(sp, "A long notification that the next one replaces.",
                             EAR_SPEECH_NOTIFICATION));
    ear_voice_id note = wait_voice(sp, page);
    ASSERT_NE(note, EAR_VOICE_NONE);
    ASSERT_OK(ear_speech_say(sp, "New.", EAR_SPEECH_NOTIFICATION));
    ear_voice_id newer = wait_voice(sp, note);
    ASSERT_NE(newer, EAR_VOICE_NONE);
    ear_stage_render(stage, buf_for_fade, 4800);
    ear_stage_update(stage);
    ASSERT_FALSE(ear_stage_is_playing(stage, note));
    ear_speech_destroy(sp);
    ear_stage_destroy(stage);
}

/* A typed character and a key are spoken too (espeak_Char, "capital" before a
 * capital), each cutting what was being said. */
TEST(espeak_speaks_characters_and_keys) {
    ear_stage *stage;
    ASSERT_OK(ear_stage_create(NULL, &stage));
    ear_speech_config cfg = ear_speech_config_default();
    cfg.skip_braille = true; /* never the developer's own display */
    cfg.skip_dispatcher = true;
    cfg.stage = stage;
    ear_speech *sp;
    ASSERT_OK(ear_speech_create(&cfg, &sp));
    ASSERT_EQ(ear_speech_get_output(sp, 10.0), EAR_SPEECH_OUTPUT_ESPEAK);
    static float buf[2 * 24000];
    ASSERT_OK(ear_speech_speak_queued(sp, "A sentence that the letter cuts short."));
    ear_voice_id sentence = wait_voice(sp, EAR_VOICE_NONE);
    ASSERT_NE(sentence, EAR_VOICE_NONE);
    ASSERT_OK(ear_speech_say_char(sp, "A"));
    ear_voice_id letter = wait_voice(sp, sentence);
    ASSERT_NE(letter, EAR_VOICE_NONE);
    ASSERT_DBL_GT(render_rms(stage, buf, 24000), 0.01);
    ear_stage_update(stage);
    ASSERT_FALSE(ear_stage_is_playing(stage, sentence));
    ASSERT_OK(ear_speech_say_key(sp, "shift_a"));
    ear_voice_id key = wait_voice(sp, letter);
    ASSERT_NE(key, EAR_VOICE_NONE);
    ASSERT_DBL_GT(render_rms(stage, buf, 24000), 0.01);
    ear_speech_destroy(sp);
    ear_stage_destroy(stage);
}

/* ---- What espeak-ng's clips report ------------------------------------------------------ */

typedef struct heard_log {
    int count;
    ear_speech_event_kind kind[16];
    char text[16][96];
    double start_s[16], said_s[16], full_s[16];
    size_t said_len[16];
} heard_log;

static void on_line(void *user, const ear_speech_event *e) {
    heard_log *h = user;
    if (h->count >= 16) return;
    h->kind[h->count] = e->kind;
    snprintf(h->text[h->count], sizeof h->text[0], "%s", e->text);
    h->start_s[h->count] = e->start_s;
    h->said_s[h->count] = e->said_s;
    h->full_s[h->count] = e->full_s;
    h->said_len[h->count] = e->said_len;
    h->count++;
}

/* One 10 ms frame as a game runs it: the stage renders 10 ms, the speech's clock moves
 * 10 ms on, then the speech updates (a real clock: while no clip plays yet, 10 ms of
 * real time pass for the synthesis on the speech thread). */
static double frame(ear_speech *sp, ear_stage *stage, double t) {
    static float chunk[2 * 480];
    if (ear_speech_stage_voice(sp) == EAR_VOICE_NONE) sleep_ms(10);
    ear_stage_render(stage, chunk, 480);
    ear_stage_update(stage);
    t += 0.01;
    ear_speech_advance(sp, t);
    ear_speech_update(sp);
    return t;
}

/* espeak-ng's own length of a line, as a headless run times it (synthesised into memory at
 * the default rate, in English). */
static double espeak_length(const char *text) {
    ear_speech_config cfg = ear_speech_config_default();
    cfg.log_only = true;
    cfg.skip_braille = true;
    ear_speech *sp;
    if (ear_speech_create(&cfg, &sp) != EAR_OK) return -1;
    ear_speech_event e;
    double s = -1;
    if (ear_speech_speak(sp, text) == EAR_OK && ear_speech_current(sp, &e)) s = e.full_s;
    ear_speech_destroy(sp);
    return s;
}

static ear_speech *live_espeak(ear_stage *stage, heard_log *h) {
    ear_speech_config cfg = ear_speech_config_default();
    cfg.skip_braille = true; /* never the developer's own display */
    cfg.skip_dispatcher = true;
    cfg.stage = stage;
    cfg.voice = "en"; /* as a headless run times it (an earlier test chose another) */
    ear_speech *sp;
    if (ear_speech_create(&cfg, &sp) != EAR_OK) return NULL;
    if (ear_speech_get_output(sp, 10.0) != EAR_SPEECH_OUTPUT_ESPEAK) {
        ear_speech_destroy(sp);
        return NULL;
    }
    memset(h, 0, sizeof *h);
    ear_speech_set_listener(sp, on_line, h);
    return sp;
}

/* A long line, spoken live: it lasts as long as its clip played on the stage (within a
 * 10 ms frame) and as espeak-ng synthesises it (within 0.1 s: espeak-ng carries some state
 * from one utterance to the next, measured up to 50 ms on this 8.5 s line), not its
 * estimate (off by more than 0.1 s), and the timeline says it is being said exactly while
 * its clip plays. */
#define LONG_LINE "Level complete. Time 31.25 seconds, score 4096, best 27.5, 3 lives left."

TEST(espeak_reports_a_line_as_long_as_its_synthesis) {
    double synthesised = espeak_length(LONG_LINE);
    ASSERT_DBL_GT(synthesised, 3.0);
    ASSERT_DBL_GT(fabs(ear_speech_estimate_s(LONG_LINE, 0) - synthesised), 0.1);
    ear_stage *stage;
    ASSERT_OK(ear_stage_create(NULL, &stage));
    heard_log h;
    ear_speech *sp = live_espeak(stage, &h);
    ASSERT_NOT_NULL(sp);
    double t = 0;
    ear_speech_advance(sp, t);
    ASSERT_OK(ear_speech_speak_queued(sp, LONG_LINE));
    ASSERT_EQ(h.count, 1);
    ASSERT_EQ(h.kind[0], EAR_SPEECH_EVENT_START);
    ear_voice_id v = EAR_VOICE_NONE;
    int mismatched = 0, played = 0;
    for (int i = 0; i < 3000 && h.count < 2; i++) {
        t = frame(sp, stage, t);
        if (v == EAR_VOICE_NONE) v = ear_speech_stage_voice(sp);
        if (v == EAR_VOICE_NONE) continue;
        bool playing = ear_stage_is_playing(stage, v);
        played += playing;
        if (playing != ear_speech_speaking(sp)) mismatched++;
    }
    ASSERT_NE(v, EAR_VOICE_NONE);
    ASSERT_EQ(h.count, 2);
    ASSERT_EQ(h.kind[1], EAR_SPEECH_EVENT_END);
    ASSERT_STR_EQ(h.text[1], LONG_LINE);
    ASSERT_NEAR(h.full_s[1], (double)played * 0.01, 0.015);
    ASSERT_NEAR(h.full_s[1], synthesised, 0.1);
    ASSERT_NEAR(h.said_s[1], h.full_s[1], 1e-9);
    ASSERT_EQ(h.said_len[1], strlen(LONG_LINE));
    ASSERT_EQ(mismatched, 0);
    ASSERT_FALSE(ear_speech_speaking(sp));
    ear_speech_destroy(sp);
    ear_stage_destroy(stage);
}

/* A line that interrupts cuts the first where the stage stopped it: what was said is
 * what was played (1 s of it, within a frame), of the first's synthesised length (within
 * 0.1 s, as above), and
 * the words said are the ones before the cut. Then the interrupting line ends with its
 * own clip. */
TEST(espeak_reports_a_line_cut_where_the_next_stops_it) {
    double synthesised = espeak_length(LONG_LINE);
    ASSERT_DBL_GT(synthesised, 3.0);
    ear_stage *stage;
    ASSERT_OK(ear_stage_create(NULL, &stage));
    heard_log h;
    ear_speech *sp = live_espeak(stage, &h);
    ASSERT_NOT_NULL(sp);
    double t = 0;
    ear_speech_advance(sp, t);
    ASSERT_OK(ear_speech_speak_queued(sp, LONG_LINE));
    ear_voice_id first = EAR_VOICE_NONE;
    for (int i = 0; i < 2000 && first == EAR_VOICE_NONE; i++) {
        t = frame(sp, stage, t);
        first = ear_speech_stage_voice(sp);
    }
    ASSERT_NE(first, EAR_VOICE_NONE);
    for (int i = 0; i < 100; i++) t = frame(sp, stage, t); /* 1 s of it played */
    ASSERT_TRUE(ear_stage_is_playing(stage, first));
    ASSERT_EQ(h.count, 1);
    ASSERT_OK(ear_speech_speak(sp, "Next level."));
    ASSERT_EQ(h.count, 3);
    ASSERT_EQ(h.kind[1], EAR_SPEECH_EVENT_CUT);
    ASSERT_STR_EQ(h.text[1], LONG_LINE);
    ASSERT_NEAR(h.said_s[1], 1.0, 0.015);
    ASSERT_NEAR(h.full_s[1], synthesised, 0.1);
    size_t said = ear_speech_said_len(LONG_LINE, h.said_s[1] / h.full_s[1]);
    ASSERT_EQ(h.said_len[1], said);
    ASSERT_GT(h.said_len[1], 0);
    ASSERT_LT(h.said_len[1], strlen(LONG_LINE) / 2);
    ASSERT_EQ(h.kind[2], EAR_SPEECH_EVENT_START);
    ASSERT_STR_EQ(h.text[2], "Next level.");
    for (int i = 0; i < 2000 && h.count < 4; i++) t = frame(sp, stage, t);
    ASSERT_EQ(h.count, 4);
    ASSERT_EQ(h.kind[3], EAR_SPEECH_EVENT_END);
    ASSERT_STR_EQ(h.text[3], "Next level.");
    ASSERT_NEAR(h.full_s[3], espeak_length("Next level."), 0.03);
    ASSERT_FALSE(ear_stage_is_playing(stage, first));
    ear_speech_destroy(sp);
    ear_stage_destroy(stage);
}

TEST_MAIN(TEST_ENTRY(espeak_speaks_into_the_stage_and_is_measured),
          TEST_ENTRY(espeak_speaks_characters_and_keys),
          TEST_ENTRY(espeak_follows_the_priorities_on_the_stage),
          TEST_ENTRY(speech_is_on_the_ui_bus_and_ducks_the_music),
          TEST_ENTRY(espeak_reports_a_line_as_long_as_its_synthesis),
          TEST_ENTRY(espeak_reports_a_line_cut_where_the_next_stops_it))
