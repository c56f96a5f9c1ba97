/* SPDX-License-Identifier: Zlib */
/*
 * Buses and ducks, both sides.
 *
 * Game side: each bus's volume, mute and fades, and the duck rules, kept as the game
 * asked for them (what ear_stage_get_bus and ear_stage_get_duck answer) and sent as
 * commands.
 *
 * Audio side, per block: ear__buses_begin advances the bus fades and works out each
 * bus's gain for this block (volume, mute, ducks, and the master's for every other bus),
 * which the voices' audibility is measured with; voices render into their bus's buffer
 * (ear__bus_buffer, zeroed on first use in a block); ear__buses_mixdown measures the
 * trigger buses' peaks, moves the ducks, and sums every bus into the master with its
 * gain ramped linearly over the block, then the master gain into the output block.
 */
#include "portable_math.h"
#include "reverb.h"
#include "stage_internal.h"

#include <math.h>
#include <string.h>

#define MODULE "mixer"

static const char *const bus_names[EAR_BUS_COUNT] = {"sfx", "master", "music",
                                                     "ui",  "engine", "ambience"};

const char *ear_bus_name(ear_bus bus) {
    return (unsigned)bus < EAR_BUS_COUNT ? bus_names[bus] : NULL;
}

ear_result ear_bus_from_name(const char *name, ear_bus *out_bus) {
    if (!name || !out_bus) return EAR_E_INVALID_ARG;
    for (uint32_t b = 0; b < EAR_BUS_COUNT; b++)
        if (strcmp(name, bus_names[b]) == 0) {
            *out_bus = (ear_bus)b;
            return EAR_OK;
        }
    return EAR_E_NOT_FOUND;
}

/* ---- game side: buses ---------------------------------------------------- */

static ear_result bus_cmd(ear_stage *s, ear_bus bus, const ear__cmd *cmd) {
    if (!s || (unsigned)bus >= EAR_BUS_COUNT) return EAR_E_INVALID_ARG;
    ear__collect(s);
    return ear__send(s, cmd);
}

static ear_result bus_volume(ear_stage *s, ear_bus bus, float volume, float seconds) {
    float v = ear__sane_gain(volume);
    ear__cmd cmd = {.type = EAR__CMD_BUS_VOLUME, .u.bus_volume = {(uint32_t)bus, v, seconds}};
    ear_result r = bus_cmd(s, bus, &cmd);
    if (r == EAR_OK) s->bus_game[bus].volume = v;
    return r;
}

ear_result ear_stage_set_bus_volume(ear_stage *stage, ear_bus bus, float volume) {
    return bus_volume(stage, bus, volume, 0.0f);
}

ear_result ear_stage_set_bus_muted(ear_stage *stage, ear_bus bus, bool muted) {
    ear__cmd cmd = {.type = EAR__CMD_BUS_MUTE, .u.bus_mute = {(uint32_t)bus, muted}};
    ear_result r = bus_cmd(stage, bus, &cmd);
    if (r == EAR_OK) stage->bus_game[bus].muted = muted;
    return r;
}

ear_result ear_stage_fade_bus(ear_stage *stage, ear_bus bus, float volume, float seconds) {
    if (!isfinite(seconds) || seconds < 0.0f) return EAR_E_INVALID_ARG;
    return bus_volume(stage, bus, volume, seconds);
}

ear_bus_state ear_stage_get_bus(const ear_stage *stage, ear_bus bus) {
    ear_bus_state none = {0.0f, false};
    if (!stage || (unsigned)bus >= EAR_BUS_COUNT) return none;
    return stage->bus_game[bus];
}

/* ---- game side: ducks ---------------------------------------------------- */

static int find_duck(const ear_stage *s, const char *name) {
    for (uint32_t k = 0; k < EAR__MAX_DUCKS; k++)
        if (s->duck_game_used[k] && strcmp(s->duck_game[k].name, name) == 0) return (int)k;
    return -1;
}

ear_result ear_stage_set_duck(ear_stage *stage, const ear_duck_rule *rule) {
    if (!stage || !rule || !ear__name_ok(rule->name)) return EAR_E_INVALID_ARG;
    if ((unsigned)rule->trigger >= EAR_BUS_COUNT || (unsigned)rule->target >= EAR_BUS_COUNT ||
        rule->trigger == rule->target) {
        ear_log(EAR_LOG_WARN, MODULE, "duck \"%s\": trigger and target must be two buses",
                rule->name);
        return EAR_E_INVALID_ARG;
    }
    ear__collect(stage);
    ear_duck_rule r = *rule;
    r.gain_db = (r.gain_db == 0.0f || !isfinite(r.gain_db)) ? -12.0f : r.gain_db;
    if (r.gain_db > 0.0f) r.gain_db = -r.gain_db;
    r.threshold = ear__or_default(r.threshold, 0.01f);
    r.attack_s = ear__or_default(r.attack_s, 0.05f);
    r.hold_s = ear__or_default(r.hold_s, 0.2f);
    r.release_s = ear__or_default(r.release_s, 0.5f);
    int k = find_duck(stage, r.name);
    if (k < 0)
        for (uint32_t i = 0; i < EAR__MAX_DUCKS && k < 0; i++)
            if (!stage->duck_game_used[i]) k = (int)i;
    if (k < 0) {
        ear_log(EAR_LOG_WARN, MODULE, "duck \"%s\": all %u duck rules are in use", r.name,
                EAR__MAX_DUCKS);
        return EAR_E_STATE;
    }
    ear__cmd cmd = {.type = EAR__CMD_DUCK_SET,
                    .u.duck_set = {(uint8_t)k, (uint8_t)r.trigger, (uint8_t)r.target, r.gain_db,
                                   r.threshold, r.attack_s, r.hold_s, r.release_s}};
    ear_result res = ear__send(stage, &cmd);
    if (res != EAR_OK) return res;
    stage->duck_game[k] = r;
    stage->duck_game_used[k] = true;
    return EAR_OK;
}

ear_result ear_stage_remove_duck(ear_stage *stage, const char *name) {
    if (!stage || !name) return EAR_E_INVALID_ARG;
    int k = find_duck(stage, name);
    if (k < 0) return EAR_E_NOT_FOUND;
    ear__cmd cmd = {.type = EAR__CMD_DUCK_REMOVE, .u.duck = {(uint32_t)k, 0.0f}};
    ear_result r = ear__send(stage, &cmd);
    if (r == EAR_OK) stage->duck_game_used[k] = false;
    return r;
}

ear_result ear_stage_trigger_duck(ear_stage *stage, const char *name, float hold_s) {
    if (!stage || !name || !isfinite(hold_s) || hold_s < 0.0f) return EAR_E_INVALID_ARG;
    int k = find_duck(stage, name);
    if (k < 0) return EAR_E_NOT_FOUND;
    ear__cmd cmd = {.type = EAR__CMD_DUCK_TRIGGER, .u.duck = {(uint32_t)k, hold_s}};
    return ear__send(stage, &cmd);
}

ear_result ear_stage_get_duck(const ear_stage *stage, const char *name, ear_duck_rule *out) {
    if (!stage || !name || !out) return EAR_E_INVALID_ARG;
    int k = find_duck(stage, name);
    if (k < 0) return EAR_E_NOT_FOUND;
    *out = stage->duck_game[k];
    return EAR_OK;
}

/* ---- audio side ---------------------------------------------------------- */

/* A bus or duck command. */
void ear__buses_apply(ear_stage *s, const ear__cmd *c) {
    switch ((ear__cmd_type)c->type) {
    case EAR__CMD_BUS_VOLUME: {
        uint32_t bus = c->u.bus_volume.bus;
        float target = c->u.bus_volume.volume, seconds = c->u.bus_volume.seconds;
        float blocks = seconds > 0.0f ? (float)((double)seconds / s->block_s) : 1.0f;
        if (blocks < 1.0f) blocks = 1.0f;
        s->bus_target[bus] = target;
        s->bus_rate[bus] = fabsf(target - s->bus_vol[bus]) / blocks;
        s->eval_all = true;
        return;
    }
    case EAR__CMD_BUS_MUTE:
        s->bus_muted[c->u.bus_mute.bus] = c->u.bus_mute.muted;
        s->eval_all = true; /* voices on the bus may turn audible or silent at once */
        return;
    case EAR__CMD_DUCK_SET: {
        ear__duck *d = &s->ducks[c->u.duck_set.slot];
        float level = d->used ? d->level : 1.0f;
        d->used = true;
        d->trigger = c->u.duck_set.trigger;
        d->target = c->u.duck_set.target;
        d->floor = ear__exp10f(c->u.duck_set.gain_db / 20.0f);
        d->threshold = c->u.duck_set.threshold;
        d->attack_s = c->u.duck_set.attack_s;
        d->hold_s = c->u.duck_set.hold_s;
        d->release_s = c->u.duck_set.release_s;
        d->level = level;
        return;
    }
    case EAR__CMD_DUCK_REMOVE: s->ducks[c->u.duck.slot].used = false; return;
    case EAR__CMD_DUCK_TRIGGER: {
        ear__duck *d = &s->ducks[c->u.duck.slot];
        if (d->manual_left_s < c->u.duck.hold_s) d->manual_left_s = c->u.duck.hold_s;
        return;
    }
    default: return;
    }
}

static float duck_product(const ear_stage *s, uint32_t bus) {
    float g = 1.0f;
    for (uint32_t k = 0; k < EAR__MAX_DUCKS; k++)
        if (s->ducks[k].used && s->ducks[k].target == bus) g *= s->ducks[k].level;
    return g;
}

/* Advances bus fades, and works out each bus's gain for this block (volume, mute,
 * ducks as of now, and the master's volume for every other bus): the audibility the
 * voice manager ranks by. */
void ear__buses_begin(ear_stage *s) {
    for (uint32_t b = 0; b < EAR_BUS_COUNT; b++) {
        float d = s->bus_target[b] - s->bus_vol[b];
        if (fabsf(d) <= s->bus_rate[b])
            s->bus_vol[b] = s->bus_target[b];
        else
            s->bus_vol[b] += d > 0.0f ? s->bus_rate[b] : -s->bus_rate[b];
        s->bus_used[b] = false;
    }
    uint32_t m = EAR_BUS_MASTER;
    float master = s->bus_muted[m] ? 0.0f : s->bus_vol[m] * duck_product(s, m);
    for (uint32_t b = 0; b < EAR_BUS_COUNT; b++) {
        float g = s->bus_muted[b] ? 0.0f : s->bus_vol[b] * duck_product(s, b);
        s->bus_now[b] = b == m ? g : g * master;
    }
}

float ear__bus_gain_now(const ear_stage *s, uint8_t bus) {
    return s->bus_now[bus];
}

/* A bus's buffer for this block, zeroed at its first use in the block. */
float *ear__bus_buffer(ear_stage *s, uint8_t bus, bool right) {
    if (!s->bus_used[bus]) {
        memset(s->bus_l[bus], 0, s->config.block_frames * sizeof(float));
        memset(s->bus_r[bus], 0, s->config.block_frames * sizeof(float));
        s->bus_used[bus] = true;
    }
    return right ? s->bus_r[bus] : s->bus_l[bus];
}

static void update_ducks(ear_stage *s, const float *peak) {
    float dt = (float)s->block_s;
    for (uint32_t k = 0; k < EAR__MAX_DUCKS; k++) {
        ear__duck *d = &s->ducks[k];
        if (!d->used) continue;
        bool on = peak[d->trigger] > d->threshold || d->manual_left_s > 0.0f;
        if (d->manual_left_s > 0.0f) d->manual_left_s -= dt;
        float depth = 1.0f - d->floor;
        if (on) {
            d->hold_left_s = d->hold_s;
            float step = d->attack_s > 0.0f ? depth * dt / d->attack_s : depth;
            d->level = d->level - step < d->floor ? d->floor : d->level - step;
        } else if (d->hold_left_s > 0.0f) {
            d->hold_left_s -= dt;
        } else {
            float step = d->release_s > 0.0f ? depth * dt / d->release_s : depth;
            d->level = d->level + step > 1.0f ? 1.0f : d->level + step;
        }
    }
}

void ear__buses_mixdown(ear_stage *s) {
    uint32_t n = s->config.block_frames;
    /* Peaks only where a duck listens (the trigger's peak after its volume). */
    bool triggers[EAR_BUS_COUNT] = {false};
    for (uint32_t k = 0; k < EAR__MAX_DUCKS; k++)
        if (s->ducks[k].used) triggers[s->ducks[k].trigger] = true;
    float peak[EAR_BUS_COUNT] = {0};
    for (uint32_t b = 0; b < EAR_BUS_COUNT; b++) {
        if (!triggers[b] || !s->bus_used[b] || s->bus_muted[b]) continue;
        float m = 0.0f;
        for (uint32_t j = 0; j < n; j++) {
            float l = fabsf(s->bus_l[b][j]), r = fabsf(s->bus_r[b][j]);
            m = l > m ? l : m;
            m = r > m ? r : m;
        }
        peak[b] = m * s->bus_vol[b];
    }
    update_ducks(s, peak);

    /* The master's own voices, then every bus into it. A lone bus at a steady gain of 1
     * (the usual case: everything on sfx, nothing faded) is the master's sum as it is. */
    uint32_t used = 0, only = EAR_BUS_COUNT;
    for (uint32_t b = 0; b < EAR_BUS_COUNT; b++)
        if (s->bus_used[b]) used++, only = b;
    float *ml, *mr;
    float gains1[EAR_BUS_COUNT];
    for (uint32_t b = 0; b < EAR_BUS_COUNT; b++)
        gains1[b] = s->bus_muted[b] ? 0.0f : s->bus_vol[b] * duck_product(s, b);
    /* The reverb's sends, before the buses are summed into the master's buffer. */
    bool wet = ear__reverb_gather(s, gains1);
    if (used == 1 && only != EAR_BUS_MASTER && gains1[only] == 1.0f &&
        s->bus_gain[only] == 1.0f) {
        ml = s->bus_l[only];
        mr = s->bus_r[only];
        for (uint32_t b = 0; b < EAR_BUS_COUNT; b++)
            if (b != EAR_BUS_MASTER) s->bus_gain[b] = gains1[b];
    } else {
        float *al = ear__bus_buffer(s, EAR_BUS_MASTER, false);
        float *ar = s->bus_r[EAR_BUS_MASTER];
        for (uint32_t b = 0; b < EAR_BUS_COUNT; b++) {
            if (b == EAR_BUS_MASTER) continue;
            float g1 = gains1[b], g0 = s->bus_gain[b];
            s->bus_gain[b] = g1;
            if (!s->bus_used[b]) continue;
            const float *bl = s->bus_l[b], *br = s->bus_r[b];
            if (g0 == g1) {
                for (uint32_t j = 0; j < n; j++) {
                    al[j] += g1 * bl[j];
                    ar[j] += g1 * br[j];
                }
                continue;
            }
            float dg = (g1 - g0) / (float)n;
            for (uint32_t j = 0; j < n; j++) {
                float g = g0 + dg * (float)(j + 1);
                al[j] += g * bl[j];
                ar[j] += g * br[j];
            }
        }
        ml = al;
        mr = ar;
    }
    if (wet) ear__reverb_render(s, ml, mr); /* into the master's sum, before its gain */
    uint32_t mb = EAR_BUS_MASTER;
    float g1 = gains1[mb] * s->master_target;
    float g0 = s->bus_gain[mb];
    s->bus_gain[mb] = g1;
    s->master_gain = s->master_target;
    float *out = s->block_out;
    if (g0 == g1) {
        for (uint32_t j = 0; j < n; j++) {
            out[2 * j] = ml[j] * g1;
            out[2 * j + 1] = mr[j] * g1;
        }
        return;
    }
    float dg = (g1 - g0) / (float)n;
    for (uint32_t j = 0; j < n; j++) {
        float g = g0 + dg * (float)(j + 1);
        out[2 * j] = ml[j] * g;
        out[2 * j + 1] = mr[j] * g;
    }
}
