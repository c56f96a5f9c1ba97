/* SPDX-License-Identifier: Zlib */
/*
 * REVERB: one room reverb at 48 kHz stereo, Earshot's against OpenAL Soft's EFX reverb
 * (AL_EFFECT_EAXREVERB on one auxiliary effect slot, a source sending to it), in the same
 * run. Each engine renders one looping mono noise source, centred, through its loopback
 * (OpenAL: ALC_SOFT_loopback, alcRenderSamplesSOFT) or offline render (Earshot) in
 * 480-frame calls, as a device callback would; the same render is timed without the
 * reverb, and the difference over the frames is the reverb's cost:
 *
 *   REVERB engine=earshot|openal ns_per_frame=..   (with reverb - without, per frame)
 *   REVERB ratio earshot_over_openal=..
 *
 * Both rooms are a concert hall: Earshot's "hall" preset, OpenAL's
 * EFX_REVERB_PRESET_CONCERTHALL (efx-presets.h). Runs alternate between the engines and
 * the best of REVERB_RUNS (default 7) is kept, as the machine may be busy.
 *
 * Then the denormal check: Earshot's time per block with noise in, at the start and again
 * after an hour of silent input (rendered in between, the reverb asleep):
 *
 *   REVERB silence_1h ns_per_block_start=.. ns_per_block_after_1h=.. ratio=..
 */
#include "earshot/mixer.h"
#include "earshot/stage.h"

#include <AL/al.h>
#include <AL/alc.h>
#include <AL/alext.h>
#include <AL/efx-presets.h>
#include <AL/efx.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define RATE    48000u
#define CALL    480u
#define SECONDS 10u

/* The thread's CPU time: on a shared, loaded machine, wall time counts other programs'
 * turns too (both engines render on this thread: OpenAL's loopback has no mixer thread). */
/* The RMS of a call 0.1 s after the source stopped, per engine and with/without: the
 * reverb's tail must be heard, and nothing without it (else the bench exits 1). */
static double last_rms[2][2];

static double rms_of(const float *x, uint32_t n) {
    double e = 0.0;
    for (uint32_t i = 0; i < n; i++) e += (double)x[i] * x[i];
    return sqrt(e / n);
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static float *noise(uint32_t frames) {
    float *s = malloc(frames * sizeof *s);
    uint64_t x = 88172645463325252ull;
    for (uint32_t i = 0; i < frames; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        s[i] = 0.25f * ((float)(x >> 40) / 8388608.0f - 1.0f);
    }
    return s;
}

/* ---- Earshot ------------------------------------------------------------------------ */

static double earshot_run(const float *samples, uint32_t frames, bool reverb) {
    ear_stage *s = NULL;
    if (ear_stage_create(NULL, &s) != EAR_OK) return -1.0;
    ear_clip *c = NULL;
    ear_clip_create(samples, frames, 1, RATE, NULL, &c);
    ear_reverb_params hall;
    ear_reverb_preset_params(EAR_REVERB_HALL, &hall);
    ear_stage_set_reverb(s, &hall, 0.0f);
    ear_stage_play(s, c, &(ear_play){.looping = true, .reverb_send = reverb ? 1.0f : 0.0f},
                   NULL);
    float out[2 * CALL];
    for (uint32_t k = 0; k < RATE / CALL; k++) ear_stage_render(s, out, CALL); /* warm */
    double t0 = now_s();
    for (uint32_t k = 0; k < SECONDS * RATE / CALL; k++) ear_stage_render(s, out, CALL);
    double t = now_s() - t0;
    ear_stage_stop_all(s);
    for (uint32_t k = 0; k < RATE / 10 / CALL; k++) ear_stage_render(s, out, CALL);
    last_rms[0][reverb] = rms_of(out, 2 * CALL);
    ear_stage_destroy(s);
    ear_clip_release(c);
    return t;
}

/* ns per 160-frame block with noise in, at the start and after an hour of silent input. */
static void earshot_hour(const float *samples, uint32_t frames) {
    ear_stage *s = NULL;
    ear_stage_create(NULL, &s);
    ear_clip *c = NULL;
    ear_clip_create(samples, frames, 1, RATE, NULL, &c);
    ear_reverb_params hall;
    ear_reverb_preset_params(EAR_REVERB_HALL, &hall);
    ear_stage_set_reverb(s, &hall, 0.0f);
    ear_stage_set_bus_reverb_send(s, EAR_BUS_SFX, 1.0f);
    float out[2 * CALL];
    double best[2] = {1e30, 1e30};
    for (int phase = 0; phase < 2; phase++) {
        ear_voice_id v = 0;
        ear_stage_play(s, c, &(ear_play){.looping = true}, &v);
        for (uint32_t k = 0; k < RATE / CALL; k++) ear_stage_render(s, out, CALL);
        for (int rep = 0; rep < 20; rep++) {
            double t0 = now_s();
            for (uint32_t k = 0; k < RATE / CALL; k++) ear_stage_render(s, out, CALL);
            double t = (now_s() - t0) / (double)(RATE / 160u);
            if (t < best[phase]) best[phase] = t;
        }
        ear_stage_stop(s, v, 0.005f);
        if (phase == 0) {
            /* An hour of silent input (the bus keeps sending), in large calls. */
            float *big = malloc((size_t)RATE * 2 * sizeof(float));
            for (uint32_t sec = 0; sec < 3600; sec++) ear_stage_render(s, big, RATE);
            free(big);
        }
    }
    printf("REVERB silence_1h ns_per_block_start=%.0f ns_per_block_after_1h=%.0f ratio=%.3f\n",
           best[0] * 1e9, best[1] * 1e9, best[1] / best[0]);
    ear_stage_destroy(s);
    ear_clip_release(c);
}

/* ---- OpenAL Soft -------------------------------------------------------------------- */

#define LOAD(name, out)                                                                        \
    do {                                                                                       \
        void *p_ = alGetProcAddress(name);                                                     \
        memcpy(&(out), &p_, sizeof(out));                                                      \
    } while (0)

static double openal_run(const float *samples, uint32_t frames, bool reverb) {
    LPALCLOOPBACKOPENDEVICESOFT open_device = NULL;
    LPALCRENDERSAMPLESSOFT render = NULL;
    void *p = alcGetProcAddress(NULL, "alcLoopbackOpenDeviceSOFT");
    memcpy(&open_device, &p, sizeof p);
    p = alcGetProcAddress(NULL, "alcRenderSamplesSOFT");
    memcpy(&render, &p, sizeof p);
    if (!open_device || !render) return -1.0;
    ALCdevice *dev = open_device(NULL);
    if (!dev) return -1.0;
    ALCint attrs[] = {ALC_FREQUENCY,
                      (ALCint)RATE,
                      ALC_FORMAT_CHANNELS_SOFT,
                      ALC_STEREO_SOFT,
                      ALC_FORMAT_TYPE_SOFT,
                      ALC_FLOAT_SOFT,
                      ALC_HRTF_SOFT,
                      ALC_FALSE,
                      ALC_MAX_AUXILIARY_SENDS,
                      1,
                      0};
    ALCcontext *ctx = alcCreateContext(dev, attrs);
    if (!ctx || !alcMakeContextCurrent(ctx)) return -1.0;
    LPALGENEFFECTS gen_effects;
    LPALEFFECTI effecti;
    LPALEFFECTF effectf;
    LPALEFFECTFV effectfv;
    LPALGENAUXILIARYEFFECTSLOTS gen_slots;
    LPALAUXILIARYEFFECTSLOTI sloti;
    LPALDELETEEFFECTS del_effects;
    LPALDELETEAUXILIARYEFFECTSLOTS del_slots;
    LOAD("alGenEffects", gen_effects);
    LOAD("alEffecti", effecti);
    LOAD("alEffectf", effectf);
    LOAD("alEffectfv", effectfv);
    LOAD("alGenAuxiliaryEffectSlots", gen_slots);
    LOAD("alAuxiliaryEffectSloti", sloti);
    LOAD("alDeleteEffects", del_effects);
    LOAD("alDeleteAuxiliaryEffectSlots", del_slots);
    ALuint buf, src, effect = 0, slot = 0;
    alGenBuffers(1, &buf);
    alBufferData(buf, AL_FORMAT_MONO_FLOAT32, samples, (ALsizei)(frames * sizeof(float)),
                 (ALsizei)RATE);
    alGenSources(1, &src);
    alSourcei(src, AL_BUFFER, (ALint)buf);
    alSourcei(src, AL_LOOPING, AL_TRUE);
    alSourcei(src, AL_SOURCE_RELATIVE, AL_TRUE);
    alSource3f(src, AL_POSITION, 0.0f, 0.0f, 0.0f);
    if (reverb) {
        EFXEAXREVERBPROPERTIES r = EFX_REVERB_PRESET_CONCERTHALL;
        gen_effects(1, &effect);
        effecti(effect, AL_EFFECT_TYPE, AL_EFFECT_EAXREVERB);
        effectf(effect, AL_EAXREVERB_DENSITY, r.flDensity);
        effectf(effect, AL_EAXREVERB_DIFFUSION, r.flDiffusion);
        effectf(effect, AL_EAXREVERB_GAIN, r.flGain);
        effectf(effect, AL_EAXREVERB_GAINHF, r.flGainHF);
        effectf(effect, AL_EAXREVERB_GAINLF, r.flGainLF);
        effectf(effect, AL_EAXREVERB_DECAY_TIME, r.flDecayTime);
        effectf(effect, AL_EAXREVERB_DECAY_HFRATIO, r.flDecayHFRatio);
        effectf(effect, AL_EAXREVERB_DECAY_LFRATIO, r.flDecayLFRatio);
        effectf(effect, AL_EAXREVERB_REFLECTIONS_GAIN, r.flReflectionsGain);
        effectf(effect, AL_EAXREVERB_REFLECTIONS_DELAY, r.flReflectionsDelay);
        effectfv(effect, AL_EAXREVERB_REFLECTIONS_PAN, r.flReflectionsPan);
        effectf(effect, AL_EAXREVERB_LATE_REVERB_GAIN, r.flLateReverbGain);
        effectf(effect, AL_EAXREVERB_LATE_REVERB_DELAY, r.flLateReverbDelay);
        effectfv(effect, AL_EAXREVERB_LATE_REVERB_PAN, r.flLateReverbPan);
        effectf(effect, AL_EAXREVERB_ECHO_TIME, r.flEchoTime);
        effectf(effect, AL_EAXREVERB_ECHO_DEPTH, r.flEchoDepth);
        effectf(effect, AL_EAXREVERB_MODULATION_TIME, r.flModulationTime);
        effectf(effect, AL_EAXREVERB_MODULATION_DEPTH, r.flModulationDepth);
        effectf(effect, AL_EAXREVERB_AIR_ABSORPTION_GAINHF, r.flAirAbsorptionGainHF);
        effectf(effect, AL_EAXREVERB_HFREFERENCE, r.flHFReference);
        effectf(effect, AL_EAXREVERB_LFREFERENCE, r.flLFReference);
        effectf(effect, AL_EAXREVERB_ROOM_ROLLOFF_FACTOR, r.flRoomRolloffFactor);
        effecti(effect, AL_EAXREVERB_DECAY_HFLIMIT, r.iDecayHFLimit);
        gen_slots(1, &slot);
        sloti(slot, AL_EFFECTSLOT_EFFECT, (ALint)effect);
        alSource3i(src, AL_AUXILIARY_SEND_FILTER, (ALint)slot, 0, AL_FILTER_NULL);
    }
    if (alGetError() != AL_NO_ERROR) fprintf(stderr, "bench_reverb: OpenAL setup error\n");
    alSourcePlay(src);
    float out[2 * CALL];
    for (uint32_t k = 0; k < RATE / CALL; k++) render(dev, out, (ALCsizei)CALL);
    double t0 = now_s();
    for (uint32_t k = 0; k < SECONDS * RATE / CALL; k++) render(dev, out, (ALCsizei)CALL);
    double t = now_s() - t0;
    alSourceStop(src);
    for (uint32_t k = 0; k < RATE / 10 / CALL; k++) render(dev, out, (ALCsizei)CALL);
    last_rms[1][reverb] = rms_of(out, 2 * CALL);
    alSourceStop(src);
    alDeleteSources(1, &src);
    alDeleteBuffers(1, &buf);
    if (reverb) {
        del_slots(1, &slot);
        del_effects(1, &effect);
    }
    alcMakeContextCurrent(NULL);
    alcDestroyContext(ctx);
    alcCloseDevice(dev);
    return t;
}

int main(void) {
    const char *r = getenv("REVERB_RUNS");
    int runs = r ? atoi(r) : 7;
    if (runs < 1) runs = 1;
    uint32_t frames = 2 * RATE;
    float *samples = noise(frames);
    /* best[engine][with reverb] */
    double best[2][2] = {{1e30, 1e30}, {1e30, 1e30}};
    for (int k = 0; k < runs; k++)
        for (int with = 0; with < 2; with++) {
            double e = earshot_run(samples, frames, with);
            double o = openal_run(samples, frames, with);
            if (e < 0.0 || o < 0.0) {
                fprintf(stderr, "bench_reverb: an engine failed to start\n");
                return 1;
            }
            if (e < best[0][with]) best[0][with] = e;
            if (o < best[1][with]) best[1][with] = o;
        }
    double n = (double)SECONDS * RATE;
    double ens = (best[0][1] - best[0][0]) / n * 1e9, ons = (best[1][1] - best[1][0]) / n * 1e9;
    printf("REVERB engine=earshot ns_per_frame=%.2f (with %.2f, without %.2f)\n", ens,
           best[0][1] / n * 1e9, best[0][0] / n * 1e9);
    printf("REVERB engine=openal ns_per_frame=%.2f (with %.2f, without %.2f)\n", ons,
           best[1][1] / n * 1e9, best[1][0] / n * 1e9);
    printf("REVERB ratio earshot_over_openal=%.3f\n", ens / ons);
    printf("# RMS 0.1 s after the source stopped, without / with the reverb: earshot %.3g / "
           "%.3g, openal %.3g / %.3g\n",
           last_rms[0][0], last_rms[0][1], last_rms[1][0], last_rms[1][1]);
    for (int k = 0; k < 2; k++)
        if (!isfinite(last_rms[k][1]) || !(last_rms[k][1] > 1e-4) || last_rms[k][0] > 1e-6) {
            fprintf(stderr, "bench_reverb: %s's reverb tail is not heard\n",
                    k ? "openal" : "earshot");
            return 1;
        }
    const char *hour = getenv("REVERB_HOUR"); /* 0: skip the hour (profiling) */
    if (!hour || strcmp(hour, "0") != 0) earshot_hour(samples, frames);
    free(samples);
    return 0;
}
