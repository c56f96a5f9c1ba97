/*
 * espeak-ng into the stage, measured offline: the synthesiser's samples become a clip
 * that ear_speech_update plays on the stage's ui bus; the rendered output is silent
 * before, clearly above a threshold while it speaks, and an interrupting message stops
 * the first one while a queued one waits for it to end.
 */
#define _POSIX_C_SOURCE 200809L
#include "earshot/analysis.h"
#include "earshot/speech.h"
#include "test.h"

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

static double render_rms(ear_stage *stage, float *buf, uint32_t frames) {
    ear_stage_render(stage, buf, frames);
    return ear_rms(buf, frames, 2, 0);
}

TEST(espeak_speaks_into_the_stage_and_is_measured) {
    ear_stage *stage;
    ASSERT_OK(ear_stage_create(NULL, &stage));
    ear_speech_config cfg = ear_speech_config_default();
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

TEST_MAIN(TEST_ENTRY(espeak_speaks_into_the_stage_and_is_measured))
