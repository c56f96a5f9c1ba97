/* SPDX-License-Identifier: Zlib */
/*
 * Workload W64 on OpenAL Soft, through its loopback device (ALC_SOFT_loopback): the
 * application pulls rendered samples with alcRenderSamplesSOFT, so no sound card and
 * no mixing thread are involved and the render call is timed directly.
 *
 * Setup, mirroring the Earshot side: 48 kHz stereo float output, HRTF off, one
 * AL_FORMAT_MONO_FLOAT32 buffer per voice holding the workload's clip (AL_EXT_FLOAT32),
 * one looping source per voice, AL_INVERSE_DISTANCE_CLAMPED with reference 1 m, maximum
 * 100 m and rolloff 1, speed of sound 343 m/s, doppler factor 1, the listener at the
 * origin looking along -Z with +Y up. Everything else (resampler, output limiter,
 * stereo encoding) stays at OpenAL Soft's defaults and is reported by describe().
 *
 * Updates are batched the way OpenAL Soft recommends for a game frame: between
 * alDeferUpdatesSOFT and alProcessUpdatesSOFT (AL_SOFT_deferred_updates), so each
 * source's new properties are published once per block. Setting the environment
 * variable W64_OPENAL_UPDATES=immediate sets them without batching instead.
 *
 * OpenAL keeps one current context per process; the bench only ever has one OpenAL
 * engine alive at a time, so create() makes its context current and leaves it so.
 */
#include "workload.h"

#include <AL/al.h>
#include <AL/alc.h>
#include <AL/alext.h>

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

typedef struct w64_openal {
    ALCdevice *device;
    ALCcontext *context;
    ALuint *sources;
    ALuint *buffers;
    uint32_t voices;
    bool deferred;
    LPALCRENDERSAMPLESSOFT render_samples;
    LPALDEFERUPDATESSOFT defer_updates;
    LPALPROCESSUPDATESSOFT process_updates;
} w64_openal;

/* alcGetProcAddress returns an object pointer; ISO C has no cast from it to a function
 * pointer, but POSIX guarantees the representations agree, so copy the bits. */
#define W64_LOAD_ALC(device, name, out)                                                        \
    do {                                                                                       \
        void *w64_p = alcGetProcAddress((device), (name));                                     \
        memcpy(&(out), &w64_p, sizeof(out));                                                   \
    } while (0)
#define W64_LOAD_AL(name, out)                                                                 \
    do {                                                                                       \
        void *w64_p = alGetProcAddress((name));                                                \
        memcpy(&(out), &w64_p, sizeof(out));                                                   \
    } while (0)

/* Opens a 48 kHz stereo float loopback device and a context with `sources` mono
 * sources and HRTF off. Returns 0 or -1 (printed), leaving nothing open on failure. */
static int open_loopback(uint32_t sources, ALCdevice **out_device, ALCcontext **out_context) {
    if (!alcIsExtensionPresent(NULL, "ALC_SOFT_loopback")) {
        fprintf(stderr, "bench_w64: OpenAL lacks ALC_SOFT_loopback\n");
        return -1;
    }
    LPALCLOOPBACKOPENDEVICESOFT open_device = NULL;
    LPALCISRENDERFORMATSUPPORTEDSOFT format_supported = NULL;
    W64_LOAD_ALC(NULL, "alcLoopbackOpenDeviceSOFT", open_device);
    W64_LOAD_ALC(NULL, "alcIsRenderFormatSupportedSOFT", format_supported);
    if (!open_device || !format_supported) {
        fprintf(stderr, "bench_w64: OpenAL loopback functions not found\n");
        return -1;
    }
    ALCdevice *device = open_device(NULL);
    if (!device) {
        fprintf(stderr, "bench_w64: alcLoopbackOpenDeviceSOFT failed\n");
        return -1;
    }
    if (!format_supported(device, (ALCsizei)W64_SAMPLE_RATE, ALC_STEREO_SOFT, ALC_FLOAT_SOFT)) {
        fprintf(stderr, "bench_w64: OpenAL loopback cannot render 48 kHz stereo float\n");
        alcCloseDevice(device);
        return -1;
    }
    ALCint attrs[] = {ALC_FREQUENCY,
                      (ALCint)W64_SAMPLE_RATE,
                      ALC_FORMAT_CHANNELS_SOFT,
                      ALC_STEREO_SOFT,
                      ALC_FORMAT_TYPE_SOFT,
                      ALC_FLOAT_SOFT,
                      ALC_MONO_SOURCES,
                      (ALCint)sources,
                      ALC_STEREO_SOURCES,
                      0,
                      ALC_HRTF_SOFT,
                      w64_hrtf() ? ALC_TRUE : ALC_FALSE,
                      0};
    ALCcontext *context = alcCreateContext(device, attrs);
    if (!context || !alcMakeContextCurrent(context)) {
        fprintf(stderr, "bench_w64: OpenAL context creation failed (ALC error 0x%x)\n",
                (unsigned)alcGetError(device));
        if (context) alcDestroyContext(context);
        alcCloseDevice(device);
        return -1;
    }
    *out_device = device;
    *out_context = context;
    return 0;
}

static void close_loopback(ALCdevice *device, ALCcontext *context) {
    alcMakeContextCurrent(NULL);
    alcDestroyContext(context);
    alcCloseDevice(device);
}

int w64_openal_probe(uint32_t max_voices) {
    ALCdevice *device;
    ALCcontext *context;
    if (open_loopback(max_voices, &device, &context) != 0) return -1;
    ALuint *sources = calloc(max_voices, sizeof(ALuint));
    if (!sources) {
        close_loopback(device, context);
        return -1;
    }
    alGetError();
    alGenSources((ALsizei)max_voices, sources);
    int needs_config = alGetError() != AL_NO_ERROR;
    if (!needs_config) alDeleteSources((ALsizei)max_voices, sources);
    free(sources);
    close_loopback(device, context);
    return needs_config;
}

static void openal_destroy(void *engine) {
    w64_openal *e = engine;
    if (!e) return;
    if (e->context) {
        if (e->sources) {
            alSourceStopv((ALsizei)e->voices, e->sources);
            alDeleteSources((ALsizei)e->voices, e->sources);
        }
        if (e->buffers) alDeleteBuffers((ALsizei)e->voices, e->buffers);
        close_loopback(e->device, e->context);
    }
    free(e->sources);
    free(e->buffers);
    free(e);
}

static int openal_create(const w64_workload *w, void **out_engine) {
    w64_openal *e = calloc(1, sizeof(*e));
    if (!e) return -1;
    e->voices = w->voices;
    if (open_loopback(w->voices, &e->device, &e->context) != 0) {
        free(e);
        return -1;
    }
    W64_LOAD_ALC(e->device, "alcRenderSamplesSOFT", e->render_samples);
    const char *mode = getenv("W64_OPENAL_UPDATES");
    e->deferred = !(mode && strcmp(mode, "immediate") == 0);
    if (alIsExtensionPresent("AL_SOFT_deferred_updates")) {
        W64_LOAD_AL("alDeferUpdatesSOFT", e->defer_updates);
        W64_LOAD_AL("alProcessUpdatesSOFT", e->process_updates);
    }
    if (!e->defer_updates || !e->process_updates) e->deferred = false;
    if (!e->render_samples || !alIsExtensionPresent("AL_EXT_FLOAT32")) {
        fprintf(stderr, "bench_w64: OpenAL lacks alcRenderSamplesSOFT or AL_EXT_FLOAT32\n");
        openal_destroy(e);
        return -1;
    }

    alDistanceModel(AL_INVERSE_DISTANCE_CLAMPED);
    alSpeedOfSound(W64_SPEED_OF_SOUND);
    alDopplerFactor(1.0f);
    const ALfloat orientation[6] = {0.0f, 0.0f, -1.0f, 0.0f, 1.0f, 0.0f};
    alListener3f(AL_POSITION, 0.0f, 0.0f, 0.0f);
    alListener3f(AL_VELOCITY, 0.0f, 0.0f, 0.0f);
    alListenerfv(AL_ORIENTATION, orientation);
    alListenerf(AL_GAIN, 1.0f);

    e->sources = calloc(w->voices, sizeof(ALuint));
    e->buffers = calloc(w->voices, sizeof(ALuint));
    if (!e->sources || !e->buffers) {
        openal_destroy(e);
        return -1;
    }
    alGetError();
    alGenBuffers((ALsizei)w->voices, e->buffers);
    alGenSources((ALsizei)w->voices, e->sources);
    ALenum err = alGetError();
    if (err != AL_NO_ERROR) {
        fprintf(stderr,
                "bench_w64: OpenAL could not make %u sources and buffers (AL error 0x%x)\n",
                (unsigned)w->voices, (unsigned)err);
        /* Nothing was generated, so nothing may be deleted. */
        free(e->sources);
        free(e->buffers);
        e->sources = e->buffers = NULL;
        openal_destroy(e);
        return -1;
    }
    for (uint32_t i = 0; i < w->voices; i++) {
        ALuint s = e->sources[i];
        alBufferData(e->buffers[i], AL_FORMAT_MONO_FLOAT32,
                     w->clips + (size_t)i * W64_CLIP_FRAMES,
                     (ALsizei)(W64_CLIP_FRAMES * sizeof(float)), (ALsizei)W64_SAMPLE_RATE);
        alSourcei(s, AL_BUFFER, (ALint)e->buffers[i]);
        alSourcei(s, AL_LOOPING, AL_TRUE);
        alSourcei(s, AL_SOURCE_RELATIVE, AL_FALSE);
        alSourcef(s, AL_REFERENCE_DISTANCE, W64_REF_DISTANCE_M);
        alSourcef(s, AL_MAX_DISTANCE, W64_MAX_DISTANCE_M);
        alSourcef(s, AL_ROLLOFF_FACTOR, W64_ROLLOFF);
        alSourcef(s, AL_GAIN, 1.0f);
        alSourcef(s, AL_PITCH, 1.0f);
        alSource3f(s, AL_POSITION, w->positions[i].x, w->positions[i].y, w->positions[i].z);
        alSource3f(s, AL_VELOCITY, w->velocities[i].x, w->velocities[i].y, w->velocities[i].z);
    }
    alSourcePlayv((ALsizei)w->voices, e->sources);
    err = alGetError();
    if (err != AL_NO_ERROR) {
        fprintf(stderr, "bench_w64: OpenAL setup failed (AL error 0x%x)\n", (unsigned)err);
        openal_destroy(e);
        return -1;
    }
    *out_engine = e;
    return 0;
}

static void openal_update(void *engine, const w64_workload *w) {
    w64_openal *e = engine;
    if (e->deferred) e->defer_updates();
    for (uint32_t i = 0; i < e->voices; i++) {
        const w64_vec3 p = w->positions[i], v = w->velocities[i];
        alSource3f(e->sources[i], AL_POSITION, p.x, p.y, p.z);
        alSource3f(e->sources[i], AL_VELOCITY, v.x, v.y, v.z);
    }
    if (e->deferred) e->process_updates();
}

static void openal_render(void *engine, float *out, uint32_t frames) {
    w64_openal *e = engine;
    e->render_samples(e->device, out, (ALCsizei)frames);
}

static void openal_describe(void *engine, FILE *to) {
    w64_openal *e = engine;
    ALCint hrtf = 0;
    alcGetIntegerv(e->device, ALC_HRTF_SOFT, 1, &hrtf);
    const ALCchar *hrtf_name =
        hrtf ? alcGetString(e->device, ALC_HRTF_SPECIFIER_SOFT) : (const ALCchar *)"";
    fprintf(to, "# openal: %s (%s), loopback 48000 Hz stereo float, HRTF %s%s%s\n",
            alGetString(AL_VERSION), alGetString(AL_RENDERER), hrtf ? "on: " : "off",
            hrtf_name ? hrtf_name : "", "");
    const char *resampler = "unknown (no AL_SOFT_source_resampler)";
    if (alIsExtensionPresent("AL_SOFT_source_resampler")) {
        LPALGETSTRINGISOFT get_stringi = NULL;
        W64_LOAD_AL("alGetStringiSOFT", get_stringi);
        ALint index = alGetInteger(AL_DEFAULT_RESAMPLER_SOFT);
        if (get_stringi) resampler = get_stringi(AL_RESAMPLER_NAME_SOFT, index);
    }
    ALCint limiter = -1, mono = -1;
    if (alcIsExtensionPresent(e->device, "ALC_SOFT_output_limiter")) {
        alcGetIntegerv(e->device, ALC_OUTPUT_LIMITER_SOFT, 1, &limiter);
    }
    alcGetIntegerv(e->device, ALC_MONO_SOURCES, 1, &mono);
    const char *conf = getenv("ALSOFT_CONF");
    fprintf(to,
            "# openal: default resampler \"%s\", output limiter %s, mono sources %d, "
            "updates %s, config %s%s\n",
            resampler,
            limiter < 0 ? "unknown"
            : limiter   ? "on"
                        : "off",
            (int)mono,
            e->deferred ? "deferred (alDeferUpdatesSOFT/alProcessUpdatesSOFT)" : "immediate",
            conf ? "ALSOFT_CONF=" : "system defaults (ALSOFT_CONF unset)", conf ? conf : "");
}

const w64_engine_ops w64_openal_ops = {
    .name = "openal",
    .create = openal_create,
    .update = openal_update,
    .render = openal_render,
    .destroy = openal_destroy,
    .describe = openal_describe,
};
