/*
 * The mixer's audio side: buses and their fades, ducking, the voice manager (which
 * voices are rendered), blend voices (layers following parameter curves), and music
 * streams pulled into a small FIFO each block. Runs inside ear_stage_render: nothing
 * here allocates, locks, logs or touches a file.
 *
 * Per block: ear__buses_begin advances bus fades; every voice's targets are computed;
 * ear__choose_real ranks voices (priority, then audibility with 15 % hysteresis in
 * favour of voices already real, then age) and marks at most max_voices real;
 * ear__voice_block renders each real voice into its bus's buffer (or only moves a
 * virtual one's cursor); ear__buses_mixdown measures each bus's peak, moves the ducks,
 * and sums the buses into the master with their gains ramped over the block.
 */
#include "stage_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- commands --------------------------------------------------------------------- */

static float curve_eval(const ear_curve *c, float x) {
    if (c->count == 0) return 1.0f;
    if (x <= c->x[0]) return c->y[0];
    uint32_t last = c->count - 1;
    if (x >= c->x[last]) return c->y[last];
    uint32_t k = 0;
    while (k + 1 < last && x >= c->x[k + 1]) k++;
    float x0 = c->x[k], x1 = c->x[k + 1], y0 = c->y[k], y1 = c->y[k + 1];
    float t = x1 > x0 ? (x - x0) / (x1 - x0) : 1.0f;
    if (c->shape == EAR_CURVE_EQUAL_POWER) {
        if (y1 >= y0) return y0 + (y1 - y0) * sinf(t * (float)(EAR__PI / 2));
        return y1 + (y0 - y1) * cosf(t * (float)(EAR__PI / 2));
    }
    return y0 + (y1 - y0) * t;
}

void ear__mixer_apply(ear_stage *s, const ear__cmd *c) {
    switch ((ear__cmd_type)c->type) {
    case EAR__CMD_BUS_VOLUME: {
        uint32_t bus = (uint32_t)c->f[0];
        float target = c->f[1], seconds = c->f[2];
        float blocks = seconds > 0.0f ? (float)((double)seconds / s->block_s) : 1.0f;
        if (blocks < 1.0f) blocks = 1.0f;
        s->bus_target[bus] = target;
        s->bus_rate[bus] = fabsf(target - s->bus_vol[bus]) / blocks;
        s->eval_all = true;
        return;
    }
    case EAR__CMD_BUS_MUTE:
        s->bus_muted[(uint32_t)c->f[0]] = c->f[1] != 0.0f;
        s->eval_all = true; /* voices on the bus may turn audible or silent at once */
        return;
    case EAR__CMD_DUCK_SET: {
        ear__duck *d = &s->ducks[c->id & 0xffu];
        float level = d->used ? d->level : 1.0f;
        d->used = true;
        d->trigger = (uint8_t)(c->id >> 8);
        d->target = (uint8_t)(c->id >> 16);
        d->floor = powf(10.0f, c->f[0] / 20.0f);
        d->threshold = c->f[1];
        d->attack_s = c->f[2];
        d->hold_s = c->f[3];
        d->release_s = c->f[4];
        d->level = level;
        return;
    }
    case EAR__CMD_DUCK_REMOVE: s->ducks[c->id].used = false; return;
    case EAR__CMD_DUCK_TRIGGER:
        if (s->ducks[c->id].manual_left_s < c->f[0]) s->ducks[c->id].manual_left_s = c->f[0];
        return;
    case EAR__CMD_ENVELOPE: {
        ear__voice *v = ear__voice_for(s, c->id);
        if (!v) return;
        v->env_kind = (uint8_t)c->f[0];
        v->env_len_s = c->f[1];
        v->env_t_s = 0.0f;
        if (v->env_kind == 2 && !(v->env_len_s > 0.0f)) {
            v->env_kind = 0;
            ear__begin_stop(s, v, EAR__MIN_FADE_S);
        }
        return;
    }
    case EAR__CMD_PARAM: {
        ear__voice *v = ear__voice_for(s, c->id);
        if (!v || v->blend < 0) return;
        uint32_t k = (uint32_t)c->f[0];
        if (k < EAR_BLEND_MAX_PARAMS) v->param_target[k] = c->f[1];
        return;
    }
    default: return;
    }
}

/* ---- starting and ending voices ------------------------------------------------------- */

void ear__mixer_start_voice(ear_stage *s, ear__voice *v, const ear__start *st) {
    v->bus = (uint8_t)st->p.bus;
    v->priority = st->p.priority;
    v->serial = s->serial++;
    uint32_t slot = (v->id & 0xffffu) - 1u;
    s->vflags[slot] = EAR__VF_NEW | (st->stream >= 0 ? EAR__VF_ALWAYS : 0u);
    s->state_at[slot] = (uint32_t)s->block_index; /* the block about to render */
    s->aud[slot] = 0.0f;
    s->prio[slot] = v->priority;
    s->serial_of[slot] = v->serial;
    v->env = 1.0f;
    if (st->env_in_s > 0.0f) {
        v->env_kind = 1;
        v->env_len_s = st->env_in_s;
        v->env = 0.0f;
    }
    if (st->stream >= 0) {
        ear__stream_slot *ss = &s->streams[st->stream];
        ss->stream = s->stream_game[st->stream];
        ss->count = 0;
        v->stream = st->stream;
        v->channels = ss->stream.channels;
        v->base_step = (double)ss->stream.sample_rate / (double)s->config.sample_rate;
        v->looping = false;
        v->data = ss->fifo;
        v->frames = 0;
    }
    if (st->blend >= 0 && s->layer_free_count > 0) {
        const ear__blend *bl = &s->blends[st->blend];
        v->blend = st->blend;
        v->layers = (int32_t)s->layer_free[--s->layer_free_count];
        v->param_k = ear__smoothing_k(s, bl->def.smoothing_ms);
        for (uint32_t k = 0; k < bl->def.param_count; k++)
            v->param_target[k] = v->param_s[k] = bl->def.params[k].initial;
        for (uint32_t l = 0; l < bl->def.layer_count; l++) {
            ear__voice *lv = &s->layer_voices[(size_t)v->layers * EAR_BLEND_MAX_LAYERS + l];
            const ear_blend_layer *L = &bl->def.layers[l];
            memset(lv, 0, sizeof *lv);
            lv->clip = NULL; /* the blend table holds the reference */
            lv->data = ear_clip_data(L->clip);
            lv->frames = ear_clip_frames(L->clip);
            lv->channels = ear_clip_channels(L->clip);
            lv->active = true;
            lv->looping = true;
            lv->placed = v->placed;
            lv->base_step =
                (double)ear_clip_sample_rate(L->clip) / (double)s->config.sample_rate;
            uint64_t xf = (uint64_t)llround((double)L->loop_crossfade_s *
                                            (double)ear_clip_sample_rate(L->clip));
            if (xf * 2u > lv->frames) xf = lv->frames / 2u;
            lv->xfade = xf;
            lv->loop_len = lv->frames - xf;
            lv->fade = 1.0f;
            lv->env = 1.0f;
        }
    }
}

void ear__mixer_release_voice(ear_stage *s, ear__voice *v) {
    if (v->layers >= 0) s->layer_free[s->layer_free_count++] = (uint32_t)v->layers;
    v->layers = -1;
    v->blend = -1;
}

/* ---- buses ------------------------------------------------------------------------------ */

static float duck_product(const ear_stage *s, uint32_t bus);

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

static float duck_product(const ear_stage *s, uint32_t bus) {
    float g = 1.0f;
    for (uint32_t k = 0; k < EAR__MAX_DUCKS; k++)
        if (s->ducks[k].used && s->ducks[k].target == bus) g *= s->ducks[k].level;
    return g;
}

float ear__bus_gain_now(const ear_stage *s, uint8_t bus) {
    return s->bus_now[bus];
}

static float *bus_buffer(ear_stage *s, uint8_t bus, bool right) {
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
    const float *ml, *mr;
    float gains1[EAR_BUS_COUNT];
    for (uint32_t b = 0; b < EAR_BUS_COUNT; b++)
        gains1[b] = s->bus_muted[b] ? 0.0f : s->bus_vol[b] * duck_product(s, b);
    if (used == 1 && only != EAR_BUS_MASTER && gains1[only] == 1.0f &&
        s->bus_gain[only] == 1.0f) {
        ml = s->bus_l[only];
        mr = s->bus_r[only];
        for (uint32_t b = 0; b < EAR_BUS_COUNT; b++)
            if (b != EAR_BUS_MASTER) s->bus_gain[b] = gains1[b];
    } else {
        float *al = bus_buffer(s, EAR_BUS_MASTER, false);
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

/* ---- the voice manager --------------------------------------------------------------- */

/* a before b: higher key, then older. A total order, so the choice is deterministic. */
static bool before(const ear__rank *a, const ear__rank *b) {
    if (a->key != b->key) return a->key > b->key;
    return a->serial < b->serial;
}

/* Moves the `k` best of r[0..n) to the front (quickselect, median-of-three pivots). */
static void select_top(ear__rank *r, uint32_t n, uint32_t k) {
    uint32_t lo = 0, hi = n;
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        ear__rank a = r[lo], b = r[mid], c = r[hi - 1], p;
        if (before(&a, &b))
            p = before(&b, &c) ? b : (before(&a, &c) ? c : a);
        else
            p = before(&a, &c) ? a : (before(&b, &c) ? c : b);
        uint32_t i = lo, j = hi - 1;
        for (;;) {
            while (before(&r[i], &p)) i++;
            while (before(&p, &r[j])) j--;
            if (i >= j) break;
            ear__rank t = r[i];
            r[i] = r[j];
            r[j] = t;
            i++;
            j--;
        }
        uint32_t split = j + 1; /* r[lo..split) are not after p, r[split..hi) not before */
        if (k <= lo || k >= hi) return;
        if (k < split)
            hi = split;
        else if (k > split)
            lo = split;
        else
            return;
        if (split == hi || split == lo) return;
    }
}

/* The exponent byte of a positive float: a coarse, order-preserving bucket. */
static uint32_t exponent_of(float x) {
    uint32_t bits;
    memcpy(&bits, &x, sizeof bits);
    return (bits >> 23) & 0xffu;
}

/* Marks the max_voices best voices real: priority first, then audibility (15 % more
 * for a voice already real), then age. Linear time however many voices there are: a
 * histogram over priority finds the boundary priority, one over the audibility's
 * exponent within it finds the boundary octave, and only the voices in that octave are
 * ranked exactly. */
/* A voice's ranking key: priority, then audibility (15 % more for a voice that was real);
 * -1 for a voice too quiet to be a candidate. */
static double rank_key(const ear_stage *s, uint32_t slot, float *eff_out) {
    float a = s->aud[slot];
    if (!(a >= EAR__INAUDIBLE)) {
        *eff_out = -1.0f;
        return -1.0;
    }
    a *= (s->vflags[slot] & EAR__VF_RENDERED) ? EAR__HYSTERESIS : 1.0f;
    a = a < 1e30f ? a : 1e30f;
    *eff_out = a;
    return (double)s->prio[slot] * 1e9 + (double)a;
}

/* The full choice, in linear time, and the bounds the next blocks check against. */
static void choose_all(ear_stage *s) {
    uint32_t n = s->active_count, max = s->config.max_voices;
    float *eff = s->eff;
    uint32_t by_prio[256] = {0}, by_exp_all[256] = {0}, candidates = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t slot = s->active[i];
        s->real_idx[i] = 0;
        (void)rank_key(s, slot, &eff[i]);
        if (eff[i] < 0.0f) continue;
        by_prio[s->prio[slot]]++;
        by_exp_all[exponent_of(eff[i])]++; /* serves when every candidate shares a priority */
        candidates++;
    }
    uint32_t take = candidates < max ? candidates : max;
    if (candidates <= max) {
        for (uint32_t i = 0; i < n; i++) s->real_idx[i] = eff[i] >= 0.0f;
    } else {
        uint32_t p = 256, above = 0;
        while (p > 0 && above + by_prio[p - 1] <= max) above += by_prio[--p];
        uint32_t P = p - 1, need = max - above; /* 0 < need < by_prio[P] + 1 */
        uint32_t by_exp_one[256] = {0};
        const uint32_t *by_exp = by_exp_all;
        if (by_prio[P] != candidates) {
            for (uint32_t i = 0; i < n; i++)
                if (eff[i] >= 0.0f && s->prio[s->active[i]] == P)
                    by_exp_one[exponent_of(eff[i])]++;
            by_exp = by_exp_one;
        }
        uint32_t e = 256, above_e = 0;
        while (e > 0 && above_e + by_exp[e - 1] <= need) above_e += by_exp[--e];
        uint32_t E = e - 1, need_e = need - above_e;
        ear__rank *r = s->rank;
        uint32_t count = 0;
        for (uint32_t i = 0; i < n; i++) {
            if (eff[i] < 0.0f) continue;
            uint32_t pr = s->prio[s->active[i]];
            if (pr > P) {
                s->real_idx[i] = 1;
                continue;
            }
            if (pr < P) continue;
            uint32_t ex = exponent_of(eff[i]);
            if (ex > E) {
                s->real_idx[i] = 1;
            } else if (ex == E) {
                r[count].key = eff[i];
                r[count].serial = s->serial_of[s->active[i]];
                r[count].index = i;
                count++;
            }
        }
        if (need_e > 0) {
            if (count > need_e) select_top(r, count, need_e);
            for (uint32_t k = 0; k < need_e && k < count; k++) s->real_idx[r[k].index] = 1;
        }
    }
    /* Exact bounds: every real voice's key is at least sel_min_real, every other
     * candidate's at most sel_max_virt. */
    double lo = 1e300, hi = -1.0;
    for (uint32_t i = 0; i < n; i++) {
        if (eff[i] < 0.0f) continue;
        double key = (double)s->prio[s->active[i]] * 1e9 + (double)eff[i];
        if (s->real_idx[i])
            lo = key < lo ? key : lo;
        else
            hi = key > hi ? key : hi;
    }
    /* With room left every candidate is real, so a voice that becomes a candidate later
     * (one started silent and raised) must be taken: no key is below -1. */
    s->sel_min_real = candidates < max ? -1.0 : lo;
    s->sel_max_virt = hi;
    s->sel_valid = true;
    atomic_store_explicit(&s->stat_real, take, memory_order_relaxed);
    atomic_store_explicit(&s->stat_virtual, n - take, memory_order_relaxed);
}

/* Marks at most max_voices voices real (real_idx, by active index): priority first,
 * then audibility (15 % more for a voice already real), then age. Only the voices
 * brought up to date this block (`work`, `count` of them) have new keys; while each
 * real one still ranks strictly above every other candidate and each other one strictly
 * below every real one, last block's choice stands and nothing else is looked at.
 * Otherwise (or after voices started or ended) the full choice runs; returns true then. */
bool ear__choose_real(ear_stage *s, const uint32_t *work, uint32_t count) {
    if (s->sel_valid) {
        double lo = s->sel_min_real, hi = s->sel_max_virt;
        bool holds = true;
        for (uint32_t k = 0; k < count && holds; k++) {
            uint32_t i = work[k];
            float eff;
            double key = rank_key(s, s->active[i], &eff);
            if (s->real_idx[i]) {
                if (!(eff >= 0.0f && key > hi)) holds = false;
                lo = key < lo ? key : lo;
            } else {
                if (eff >= 0.0f && !(key < lo)) holds = false;
                hi = key > hi ? key : hi;
            }
        }
        if (holds) {
            /* Bounds only loosen (a real key lower, a virtual key higher): still true. */
            s->sel_min_real = lo;
            s->sel_max_virt = hi;
            return false;
        }
    }
    choose_all(s);
    return true;
}

/* ---- streams -------------------------------------------------------------------------- */

/* Tops the voice's FIFO up with what this block will read (plus the interpolation's
 * neighbour). A stream that falls behind is padded with silence so the voice keeps
 * time; only a stream that has ended lets the voice run off the end. */
static void stream_prepare(ear_stage *s, ear__voice *v, uint64_t step_end) {
    ear__stream_slot *ss = &s->streams[v->stream];
    uint32_t ch = ss->stream.channels;
    uint64_t fastest = step_end > v->step_fx ? step_end : v->step_fx;
    uint64_t need64 =
        v->pos + (((uint64_t)v->frac + fastest * s->config.block_frames) >> 32) + 3u;
    uint32_t need = need64 > ss->capacity ? ss->capacity : (uint32_t)need64;
    while (ss->count < need) {
        uint32_t got = ss->stream.read(ss->stream.user, ss->fifo + (size_t)ss->count * ch,
                                       ss->capacity - ss->count);
        if (got == 0) break;
        ss->count += got > ss->capacity - ss->count ? ss->capacity - ss->count : got;
    }
    if (ss->count < need && !(ss->stream.ended && ss->stream.ended(ss->stream.user))) {
        memset(ss->fifo + (size_t)ss->count * ch, 0,
               (size_t)(need - ss->count) * ch * sizeof(float));
        ss->count = need;
        ss->underruns++;
    }
    v->data = ss->fifo;
    v->frames = ss->count;
    v->loop_len = ss->count;
}

/* Drops what the block consumed from the FIFO. */
static void stream_consume(ear_stage *s, ear__voice *v) {
    ear__stream_slot *ss = &s->streams[v->stream];
    uint32_t ch = ss->stream.channels;
    uint64_t used = v->pos < ss->count ? v->pos : ss->count;
    memmove(ss->fifo, ss->fifo + (size_t)used * ch,
            (size_t)(ss->count - used) * ch * sizeof(float));
    ss->count -= (uint32_t)used;
    v->pos -= used;
    v->frames = ss->count;
}

/* ---- one voice's block ---------------------------------------------------------------- */

/* Layer targets of a blend voice from its parent's and its parameters' curves. */
static void layer_targets(ear_stage *s, const ear__voice *v, const ear__blend *bl, uint32_t l,
                          const ear__targets *t, ear__voice *lv, ear__targets *lt) {
    const ear_blend_layer *L = &bl->def.layers[l];
    /* The curves are evaluated again only when a parameter moved (or at the start). */
    if (!lv->curves_valid || memcmp(lv->curve_at, v->param_s, sizeof lv->curve_at) != 0) {
        float g = bl->def.volume, p = 1.0f;
        for (uint32_t c = 0; c < L->gain_count; c++)
            g *= curve_eval(&L->gain[c], v->param_s[bl->gain_param[l][c]]);
        for (uint32_t c = 0; c < L->pitch_count; c++)
            p *= curve_eval(&L->pitch[c], v->param_s[bl->pitch_param[l][c]]);
        lv->curve_gain = g;
        lv->curve_pitch = p;
        memcpy(lv->curve_at, v->param_s, sizeof lv->curve_at);
        lv->curves_valid = true;
    }
    float g = lv->curve_gain, p = lv->curve_pitch;
    *lt = *t;
    lt->gain_l *= g;
    lt->gain_r *= g;
    /* The parent's step carries pitch and doppler (its base step is 1). */
    lt->step_fx = ear__to_fx(lv->base_step * ((double)t->step_fx / 4294967296.0) * (double)p);
    (void)s;
}

/* Before a voice renders: its first block starts at its targets; a voice coming back
 * from virtual starts from silence (its gains fade in over the block, its filters and
 * delay line start clean); every other block ramps from the last one's values. */
static void prime(ear__voice *v, const ear__targets *t, bool first, bool entering) {
    if (!first && !entering) return;
    v->delay_l = t->delay_l;
    v->delay_r = t->delay_r;
    v->cue_G = t->cue_G;
    v->occ_G = t->occ_G;
    if (first) {
        v->gain_l = t->gain_l;
        v->gain_r = t->gain_r;
    } else {
        v->gain_l = v->gain_r = 0.0f;
        v->z_cue = v->z_occ1 = v->z_occ2 = 0.0f;
        memset(v->hist, 0, sizeof v->hist);
    }
}

/* Renders one real (or leaving) voice's block into io's buffers: placed voices join the
 * SIMD group when there is one (finishing it when full), others render at once after
 * the group is flushed, so voices always add into their bus in the order they come. */
static bool render_one(ear_stage *s, ear__voice *v, const ear__targets *t,
                       const ear__kernel_io *io, ear__group *group, uint32_t lanes,
                       uint32_t stride) {
    if (v->placed && lanes >= 2) {
        float *buf = s->lanes + (size_t)group->n * stride +
                     (ear__hist_room(io->hist_len) - io->hist_len);
        bool ended = ear__voice_read_avx2(v, io, t, buf);
        group->voice[group->n] = v;
        v->t = *t; /* the group's filters and mix read the voice's own copy */
        group->buf[group->n] = buf;
        group->mix_l[group->n] = io->mix_l;
        group->mix_r[group->n] = io->mix_r;
        if (++group->n == lanes) ear__group_finish_avx2(group, io);
        return ended;
    }
    if (group->n) ear__group_finish_avx2(group, io);
    return s->render_voice(v, io, t);
}

bool ear__voice_block(ear_stage *s, ear__voice *v, ear__targets *t, const ear__kernel_io *io,
                      ear__group *group, uint32_t lanes, uint32_t stride) {
    if (!v->real && !v->was_real && v->blend < 0 && v->stream < 0) {
        /* A clip voice that stays virtual (most voices when thousands play): its cursor
         * moves as rendering would move it; nothing else changes. */
        v->rendered_blocks++;
        return ear__voice_advance(v, s->config.block_frames, t->step_fx);
    }
    if (v->real && v->was_real && v->blend < 0 && v->stream < 0) {
        /* The steady case: a clip voice that stays real. */
        ear__voice_targets_fine(s, v, t);
        ear__kernel_io bio = *io;
        bio.mix_l = bus_buffer(s, v->bus, false);
        bio.mix_r = s->bus_r[v->bus];
        v->rendered_blocks++;
        return render_one(s, v, t, &bio, group, lanes, stride);
    }
    uint32_t n = s->config.block_frames;
    bool render = v->real || v->was_real;
    bool entering = v->real && !v->was_real;
    bool first = v->rendered_blocks == 0;
    ear__kernel_io bio = *io;
    if (render) {
        ear__voice_targets_fine(s, v, t);
        if (!v->real) t->gain_l = t->gain_r = 0.0f; /* leaving the real set: fade out */
        bio.mix_l = bus_buffer(s, v->bus, false);
        bio.mix_r = s->bus_r[v->bus];
    }
    bool ended = false;
    if (v->blend >= 0 && v->placed && render) {
        /* The layers share one position: each is read and scaled by its curves, the sum
         * goes once through the voice's filters, delay line and pan. */
        const ear__blend *bl = &s->blends[v->blend];
        float *sum = s->blend_sum, *buf = s->layer_buf;
        memset(sum, 0, n * sizeof(float));
        for (uint32_t l = 0; l < bl->def.layer_count; l++) {
            ear__voice *lv = &s->layer_voices[(size_t)v->layers * EAR_BLEND_MAX_LAYERS + l];
            ear__targets lt;
            layer_targets(s, v, bl, l, t, lv, &lt);
            if (!lv->started) {
                lv->step_fx = lt.step_fx;
                lv->started = true;
            }
            /* The layer's own gain: its curves (the voice's level and pan come after). */
            float g1 = lv->curve_gain;
            float g0 = (first || entering) ? g1 : lv->gain_l;
            if (s->config.kernel == EAR_KERNEL_AVX2)
                ear__read_layer_avx2(lv, lt.step_fx, n, buf, sum, g0, g1);
            else
                ear__read_layer(lv, lt.step_fx, n, buf, sum, g0, g1);
            lv->gain_l = g1;
        }
        v->pos = s->layer_voices[(size_t)v->layers * EAR_BLEND_MAX_LAYERS].pos;
        prime(v, t, first, entering);
        v->premixed = sum;
        (void)render_one(s, v, t, &bio, group, lanes, stride);
        v->premixed = NULL;
    } else if (v->blend >= 0) {
        const ear__blend *bl = &s->blends[v->blend];
        for (uint32_t l = 0; l < bl->def.layer_count; l++) {
            ear__voice *lv = &s->layer_voices[(size_t)v->layers * EAR_BLEND_MAX_LAYERS + l];
            ear__targets lt;
            layer_targets(s, v, bl, l, t, lv, &lt);
            if (!lv->started) {
                lv->step_fx = lt.step_fx;
                lv->started = true;
            }
            if (render) {
                prime(lv, &lt, first, entering);
                (void)render_one(s, lv, &lt, &bio, group, lanes, stride);
            } else {
                (void)ear__voice_advance(lv, n, lt.step_fx);
            }
        }
        v->pos = s->layer_voices[(size_t)v->layers * EAR_BLEND_MAX_LAYERS].pos;
    } else {
        if (v->stream >= 0) stream_prepare(s, v, t->step_fx);
        if (render) {
            prime(v, t, first, entering);
            ended = render_one(s, v, t, &bio, group, lanes, stride);
        } else {
            ended = ear__voice_advance(v, n, t->step_fx);
        }
        /* The read pass is done (even for a grouped voice): the FIFO may move. */
        if (v->stream >= 0) stream_consume(s, v);
    }
    v->was_real = v->real;
    v->rendered_blocks++;
    uint32_t slot = (v->id & 0xffffu) - 1u;
    if (v->real)
        s->vflags[slot] |= EAR__VF_RENDERED;
    else
        s->vflags[slot] &= (uint8_t)~EAR__VF_RENDERED;
    return ended;
}

/* True when a block of the voice's own evolution would change nothing: every smoother
 * at its target, no fade, no envelope. */
static bool settled(const ear_stage *s, const ear__voice *v) {
    if (v->stopping || v->env_kind || v->volume_s != v->volume_target ||
        v->pitch_s != v->pitch_target || v->occ_s != v->occ_target)
        return false;
    if (v->blend >= 0)
        for (uint32_t k = 0; k < s->blends[v->blend].def.param_count; k++)
            if (v->param_s[k] != v->param_target[k]) return false;
    return true;
}

bool ear__voice_catch_up(ear_stage *s, ear__voice *v, uint32_t blocks) {
    uint32_t n = s->config.block_frames;
    bool ended = false;
    /* A settled voice (the common case) moves its cursor over all the blocks in one go:
     * the same sum of equal steps. */
    uint32_t per = settled(s, v) ? blocks : 1u;
    for (uint32_t k = 0; k < blocks && !ended; k += per) {
        if (per == 1u) ear__voice_step_state(s, v);
        uint32_t frames = n * per;
        if (v->blend >= 0) {
            const ear__blend *bl = &s->blends[v->blend];
            for (uint32_t l = 0; l < bl->def.layer_count; l++) {
                ear__voice *lv = &s->layer_voices[(size_t)v->layers * EAR_BLEND_MAX_LAYERS + l];
                (void)ear__voice_advance(lv, frames, lv->step_fx);
            }
            v->pos = s->layer_voices[(size_t)v->layers * EAR_BLEND_MAX_LAYERS].pos;
        } else {
            ended = ear__voice_advance(v, frames, v->step_fx);
        }
        v->rendered_blocks += per;
    }
    return ended;
}
