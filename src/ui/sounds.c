/* SPDX-License-Identifier: Zlib */
/*
 * The built-in UI sounds: one short sine per slot, each at its own frequency so that
 * they are told apart by ear (and by a Goertzel filter in the tests). Lengths run from
 * 25 ms (a typed character) to 150 ms (an error); every sound rises over 5 ms and falls
 * over its last 15 ms, so none clicks. Frequencies are at least 100 Hz apart.
 */
#include "ui_internal.h"

#include "earshot/synth.h"

#include <string.h>

typedef struct builtin {
    float hz, seconds, decay_s;
} builtin;

static const builtin builtins[EAR_UI_SOUND_COUNT] = {
    [EAR_UI_SOUND_OPEN] = {700, 0.10f, 0},          [EAR_UI_SOUND_CLOSE] = {540, 0.10f, 0},
    [EAR_UI_SOUND_NAVIGATE] = {1000, 0.04f, 0.03f}, [EAR_UI_SOUND_WRAP] = {1320, 0.08f, 0},
    [EAR_UI_SOUND_EDGE] = {200, 0.07f, 0},          [EAR_UI_SOUND_ACTIVATE] = {860, 0.08f, 0},
    [EAR_UI_SOUND_TOGGLE_ON] = {1150, 0.06f, 0},    [EAR_UI_SOUND_TOGGLE_OFF] = {420, 0.06f, 0},
    [EAR_UI_SOUND_SLIDER] = {1560, 0.03f, 0},       [EAR_UI_SOUND_TYPE] = {2100, 0.025f, 0},
    [EAR_UI_SOUND_DELETE] = {1800, 0.03f, 0},       [EAR_UI_SOUND_ERROR] = {300, 0.15f, 0},
};

double ear_ui_builtin_hz(ear_ui_sound_slot slot) {
    if ((unsigned)slot >= EAR_UI_SOUND_COUNT) return 0;
    return builtins[slot].hz;
}

ear_result ear__ui_builtin_clip(ear_ui_sound_slot slot, uint32_t sample_rate, ear_clip **out) {
    if ((unsigned)slot >= EAR_UI_SOUND_COUNT) return EAR_E_INVALID_ARG;
    const builtin *b = &builtins[slot];
    ear_synth s = {0};
    s.waveform = EAR_WAVE_SINE;
    s.frequency_hz = b->hz;
    s.seconds = b->seconds;
    s.amplitude = 0.6f;
    s.sample_rate = sample_rate ? sample_rate : 48000;
    s.envelope.attack_s = 0.005f;
    s.envelope.decay_s = b->decay_s;
    s.envelope.release_s = 0.015f;
    return ear_synth_clip(&s, NULL, out);
}

/* ---- Owned sets ---------------------------------------------------------------------- */

void ear__ui_sounds_copy(ear__ui_owned_sounds *o, const ear_ui_sounds *from) {
    memset(o, 0, sizeof *o);
    if (!from) return;
    for (int s = 0; s < EAR_UI_SOUND_COUNT; s++)
        (void)ear__ui_sounds_set(o, (ear_ui_sound_slot)s, from->names[s]);
    o->view.replace = from->replace;
    o->any = o->any || from->replace;
}

ear_result ear__ui_sounds_set(ear__ui_owned_sounds *o, ear_ui_sound_slot slot,
                              const char *name) {
    if ((unsigned)slot >= EAR_UI_SOUND_COUNT) return EAR_E_INVALID_ARG;
    if (!name) {
        o->view.names[slot] = NULL;
        return EAR_OK;
    }
    if (strlen(name) >= EAR_SOUND_NAME_MAX) return EAR_E_INVALID_ARG;
    ear__ui_copy(o->names[slot], sizeof o->names[slot], name);
    o->view.names[slot] = o->names[slot];
    o->any = true;
    return EAR_OK;
}

const ear_ui_sounds *ear__ui_sounds_view(const ear__ui_owned_sounds *o) {
    return o->any ? &o->view : NULL;
}
