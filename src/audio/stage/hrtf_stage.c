/*
 * The HRTF spatializer: placed voices heard through a measured HRTF set (docs/stage.md,
 * "HRTF").
 *
 * Game side. ear_stage_set_hrtf copies the caller's plain arrays into a bank (one
 * allocation through the stage's allocator: the set, its elevation rings for lookup, a
 * table of fractional-delay kernels, and per slot two filter pairs and an input history)
 * and sends it through the command ring. Banks the audio side has let go (retired_below)
 * are freed by the next game-side call that comes here (set, spatializer, status, update).
 *
 * Audio side, per voice and block (ear__hrtf_render):
 *   1. read the clip (or take a blend's premixed layers) and run the occlusion low-pass;
 *   2. the direction in listener space -> SOFA azimuth and elevation; when it has turned
 *      by more than EAR__HRTF_MOVE_DEG since the filters were made (or there are none), a
 *      new pair: the bilinear blend of up to four measured directions' minimum-phase
 *      filters and delays, each ear's delay split into whole samples (read from the
 *      history) and a fraction, which is convolved into the ear's filter as an 8-tap
 *      Kaiser-windowed sinc;
 *   3. the block joins the voice's input history; each ear's convolution reads it at the
 *      ear's whole delay; when the pair changed, the block crossfades linearly from the
 *      old pair's output to the new one's (the same as interpolating the coefficients
 *      sample by sample), so a turning source never steps;
 *   4. the voice's gain (volume, distance, cone, occlusion, fade) ramped over the block
 *      on the output, which is added into the voice's bus.
 * A voice that changes path (pan <-> HRTF, one bank -> another, an HRTF voice leaving or
 * entering the real set) crossfades over one block: the outgoing path's gain ramps to 0
 * while the incoming one's ramps from 0. Nothing here allocates, locks or logs on the
 * audio side.
 */
#include "portable_math.h"
#include "stage_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MODULE "stage"
#define DEG    (180.0 / EAR__PI)

/* ---- the fractional delay ------------------------------------------------ */

static double bessel_i0(double x) {
    double sum = 1.0, term = 1.0;
    for (int k = 1; k < 40; k++) {
        term *= (x / (2.0 * k)) * (x / (2.0 * k));
        sum += term;
    }
    return sum;
}

/* The kernel for fraction fr in [0, 1]: sinc(k - 3 - fr) times a Kaiser window (beta 5)
 * of half-width 4, k = 0..7; at fr = 0 it is a unit impulse at 3 (at 1, at 4). */
static void fd_kernel(double fr, float out[EAR__HRTF_FD_TAPS]) {
    const double beta = 5.0, half = EAR__HRTF_FD_TAPS / 2.0;
    double c = (double)(EAR__HRTF_FD_TAPS / 2u - 1u) + fr;
    for (uint32_t k = 0; k < EAR__HRTF_FD_TAPS; k++) {
        double x = (double)k - c;
        double s = fabs(x) < 1e-12 ? 1.0 : ear__sin(EAR__PI * x) / (EAR__PI * x);
        double r = x / half;
        double w = r * r < 1.0 ? bessel_i0(beta * sqrt(1.0 - r * r)) / bessel_i0(beta) : 0.0;
        out[k] = (float)(s * w);
    }
}

/* ---- making a bank (game side) -------------------------------------------- */

typedef struct dir_key {
    float el, az;
    uint32_t index;
} dir_key;

static int cmp_key(const void *pa, const void *pb) {
    const dir_key *a = pa, *b = pb;
    if (a->el != b->el) return a->el < b->el ? -1 : 1;
    if (a->az != b->az) return a->az < b->az ? -1 : 1;
    return a->index < b->index ? -1 : (a->index > b->index);
}

static bool finite_all(const float *v, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (!isfinite(v[i])) return false;
    return true;
}

static ear_result invalid(const char *why) {
    ear_log(EAR_LOG_WARN, MODULE, "ignored an HRTF set: %s", why);
    return EAR_E_INVALID_ARG;
}

static ear_result check_set(const ear_stage *s, const ear_stage_hrtf *h) {
    if (h->sample_rate != s->config.sample_rate)
        return invalid("its sample rate is not the stage's");
    if (h->taps < 8 || h->taps > 256) return invalid("taps outside 8..256");
    if (h->count < 1 || h->count > 1000000u) return invalid("no directions, or too many");
    if (!h->azimuth_deg || !h->elevation_deg || !h->left || !h->right || !h->delay_left ||
        !h->delay_right)
        return invalid("an array is missing");
    size_t n = h->count, f = (size_t)h->count * h->taps;
    if (!finite_all(h->azimuth_deg, n) || !finite_all(h->elevation_deg, n) ||
        !finite_all(h->left, f) || !finite_all(h->right, f) || !finite_all(h->delay_left, n) ||
        !finite_all(h->delay_right, n))
        return invalid("a value is not finite");
    float dmax = 0.005f * (float)h->sample_rate;
    for (size_t i = 0; i < n; i++) {
        if (h->elevation_deg[i] < -90.0f || h->elevation_deg[i] > 90.0f)
            return invalid("an elevation outside -90..90 degrees");
        if (!(h->delay_left[i] >= 0.0f && h->delay_left[i] <= dmax) ||
            !(h->delay_right[i] >= 0.0f && h->delay_right[i] <= dmax))
            return invalid("a delay outside 0..5 ms");
    }
    return EAR_OK;
}

/* Carves `bytes` (to 64s) out of the bank's allocation; with base NULL only counts. */
static void *carve(char *base, size_t *at, size_t bytes) {
    void *p = base ? base + *at : NULL;
    *at += (bytes + 63u) & ~(size_t)63u;
    return p;
}

/* The bank's layout: measures (base NULL) or places every array. */
static size_t lay_out(ear__hrtf_bank *b, char *base) {
    size_t at = 0, n = b->count, f = (size_t)b->count * b->taps;
    (void)carve(base, &at, sizeof *b);
    b->az = carve(base, &at, n * sizeof(float));
    b->el = carve(base, &at, n * sizeof(float));
    b->dl = carve(base, &at, n * sizeof(float));
    b->dr = carve(base, &at, n * sizeof(float));
    b->left = carve(base, &at, f * sizeof(float));
    b->right = carve(base, &at, f * sizeof(float));
    b->ring_el = carve(base, &at, n * sizeof(float));
    b->ring_start = carve(base, &at, (n + 1) * sizeof(uint32_t));
    b->ring_index = carve(base, &at, n * sizeof(uint32_t));
    b->fd = carve(base, &at, (EAR__HRTF_FD_STEPS + 1u) * EAR__HRTF_FD_TAPS * sizeof(float));
    b->voice = carve(base, &at, b->slots * sizeof(ear__hrtf_voice));
    for (uint32_t i = 0; i < b->slots; i++) {
        ear__hrtf_voice *hv = base ? &b->voice[i] : NULL;
        for (int p = 0; p < 2; p++)
            for (int e = 0; e < 2; e++) {
                float *m = carve(base, &at, b->len * sizeof(float));
                if (hv) hv->filter[p][e] = m;
            }
        float *hist = carve(base, &at, b->hist * sizeof(float));
        if (hv) hv->hist = hist;
    }
    b->buf = carve(base, &at, (b->hist + b->block + 8u) * sizeof(float));
    b->x = carve(base, &at, b->block * sizeof(float));
    for (int k = 0; k < 4; k++) b->y[k] = carve(base, &at, b->block * sizeof(float));
    return at;
}

static ear__hrtf_bank *make_bank(ear_stage *s, const ear_stage_hrtf *h) {
    ear__hrtf_bank shape;
    memset(&shape, 0, sizeof shape);
    shape.rate = h->sample_rate;
    shape.taps = h->taps;
    shape.count = h->count;
    shape.len = (h->taps + EAR__HRTF_FD_TAPS - 1u + 7u) & ~7u;
    float dmax = 0.0f;
    for (uint32_t i = 0; i < h->count; i++) {
        if (h->delay_left[i] > dmax) dmax = h->delay_left[i];
        if (h->delay_right[i] > dmax) dmax = h->delay_right[i];
    }
    shape.hist = (shape.len + (uint32_t)ceilf(dmax) + 1u + 7u) & ~7u;
    shape.slots = s->slot_count;
    shape.block = s->config.block_frames;
    size_t bytes = lay_out(&shape, NULL);
    void *raw = s->alloc.alloc_fn(bytes + 64u, s->alloc.user);
    if (!raw) return NULL;
    char *base = (char *)(((uintptr_t)raw + 63u) & ~(uintptr_t)63u);
    memset(base, 0, bytes);
    ear__hrtf_bank *b = (ear__hrtf_bank *)base;
    *b = shape;
    (void)lay_out(b, base);
    b->raw = raw;
    uint32_t n = h->count;
    for (uint32_t i = 0; i < n; i++) {
        float az = fmodf(h->azimuth_deg[i], 360.0f);
        if (az < 0.0f) az += 360.0f;
        if (az >= 360.0f) az = 0.0f;
        b->az[i] = az;
        b->el[i] = h->elevation_deg[i];
    }
    memcpy(b->dl, h->delay_left, n * sizeof(float));
    memcpy(b->dr, h->delay_right, n * sizeof(float));
    memcpy(b->left, h->left, (size_t)n * h->taps * sizeof(float));
    memcpy(b->right, h->right, (size_t)n * h->taps * sizeof(float));
    /* Elevation rings (to a hundredth of a degree), each sorted by azimuth. */
    dir_key *keys = s->alloc.alloc_fn(n * sizeof *keys, s->alloc.user);
    if (!keys) {
        s->alloc.free_fn(raw, s->alloc.user);
        return NULL;
    }
    for (uint32_t i = 0; i < n; i++)
        keys[i] = (dir_key){roundf(b->el[i] * 100.0f), b->az[i], i};
    qsort(keys, n, sizeof *keys, cmp_key);
    uint32_t rings = 0;
    for (uint32_t i = 0; i < n; i++) {
        b->ring_index[i] = keys[i].index;
        if (i == 0 || keys[i].el != keys[i - 1].el) {
            b->ring_start[rings] = i;
            b->ring_el[rings] = b->el[keys[i].index];
            rings++;
        }
    }
    b->ring_start[rings] = n;
    b->rings = rings;
    s->alloc.free_fn(keys, s->alloc.user);
    for (uint32_t k = 0; k <= EAR__HRTF_FD_STEPS; k++)
        fd_kernel((double)k / EAR__HRTF_FD_STEPS, b->fd + k * EAR__HRTF_FD_TAPS);
    b->info.loaded = true;
    b->info.sample_rate = h->sample_rate;
    b->info.taps = h->taps;
    b->info.count = n;
    b->info.filter_taps = b->len;
    if (h->source) {
        size_t m = strlen(h->source);
        if (m >= sizeof b->info.source) m = sizeof b->info.source - 1u;
        memcpy(b->info.source, h->source, m);
        b->info.source[m] = '\0';
    }
    return b;
}

void ear__hrtf_collect(ear_stage *s, bool all) {
    uint64_t below = atomic_load_explicit(&s->hrtf.retired_below, memory_order_acquire);
    ear__hrtf_bank **link = &s->hrtf.sent;
    while (*link) {
        ear__hrtf_bank *b = *link;
        if (all || b->generation < below) {
            *link = b->next;
            if (s->hrtf.game_current == b) s->hrtf.game_current = NULL;
            s->alloc.free_fn(b->raw, s->alloc.user);
        } else {
            link = &b->next;
        }
    }
}

ear_result ear_stage_set_hrtf(ear_stage *stage, const ear_stage_hrtf *hrtf) {
    if (!stage) return EAR_E_INVALID_ARG;
    ear__collect(stage);
    ear__hrtf_collect(stage, false);
    ear__hrtf_bank *b = NULL;
    if (hrtf) {
        ear_result r = check_set(stage, hrtf);
        if (r != EAR_OK) return r;
        b = make_bank(stage, hrtf);
        if (!b) return EAR_E_OUT_OF_MEMORY;
    }
    ear_result r = ear__reserve(stage, 1);
    if (r != EAR_OK) {
        if (b) stage->alloc.free_fn(b->raw, stage->alloc.user);
        return r;
    }
    uint64_t gen = ++stage->hrtf.generation;
    if (b) {
        b->generation = gen;
        b->next = stage->hrtf.sent;
        stage->hrtf.sent = b;
    }
    stage->hrtf.game_current = b;
    ear__cmd cmd = {.type = EAR__CMD_HRTF_SET, .u.hrtf = {b, gen}};
    return ear__send(stage, &cmd);
}

ear_result ear_stage_set_spatializer(ear_stage *stage, ear_spatializer spatializer) {
    if (!stage || (unsigned)spatializer > EAR_SPATIALIZER_HRTF) return EAR_E_INVALID_ARG;
    ear__collect(stage);
    ear__hrtf_collect(stage, false);
    ear_spatializer mode =
        spatializer == EAR_SPATIALIZER_DEFAULT ? EAR_SPATIALIZER_PAN : spatializer;
    ear__cmd cmd = {.type = EAR__CMD_SPATIALIZER, .id = 0, .u.spatializer = (uint32_t)mode};
    ear_result r = ear__send(stage, &cmd);
    if (r == EAR_OK) stage->hrtf.mode_game = mode;
    return r;
}

ear_result ear_stage_set_voice_spatializer(ear_stage *stage, ear_voice_id id,
                                           ear_spatializer spatializer) {
    if (!stage || (unsigned)spatializer > EAR_SPATIALIZER_HRTF) return EAR_E_INVALID_ARG;
    ear__collect(stage);
    uint32_t slot;
    if (!ear__id_slot(stage, id, &slot)) return EAR_E_STALE_ID;
    ear__cmd cmd = {
        .type = EAR__CMD_SPATIALIZER, .id = id, .u.spatializer = (uint32_t)spatializer};
    return ear__send(stage, &cmd);
}

ear_result ear_stage_get_hrtf(const ear_stage *stage, ear_stage_hrtf_info *out_info) {
    if (!stage || !out_info) return EAR_E_INVALID_ARG;
    memset(out_info, 0, sizeof *out_info);
    if (stage->hrtf.game_current) *out_info = stage->hrtf.game_current->info;
    out_info->spatializer = stage->hrtf.mode_game == EAR_SPATIALIZER_HRTF ? EAR_SPATIALIZER_HRTF
                                                                          : EAR_SPATIALIZER_PAN;
    return EAR_OK;
}

/* ---- audio side: commands ------------------------------------------------- */

/* Every voice's fine targets are computed afresh: pan and HRTF targets differ. */
static void invalidate_fine(ear_stage *s) {
    for (uint32_t i = 0; i < s->active_count; i++)
        s->voices[s->active[i]].sp_fine_valid = false;
}

void ear__hrtf_apply(ear_stage *s, const ear__cmd *c) {
    ear__hrtf_state *h = &s->hrtf;
    if (c->type == EAR__CMD_HRTF_SET) {
        h->old = h->bank;
        h->bank = c->u.hrtf.bank;
        h->pending = c->u.hrtf.generation;
        invalidate_fine(s);
        return;
    }
    if (c->id == 0) {
        h->mode = c->u.spatializer;
        invalidate_fine(s);
        return;
    }
    ear__voice *v = ear__voice_for(s, c->id);
    if (!v) return; /* it ended before the command arrived */
    v->spatializer = (uint8_t)c->u.spatializer;
    v->sp_fine_valid = false;
}

void ear__hrtf_block_end(ear_stage *s) {
    ear__hrtf_state *h = &s->hrtf;
    h->old = NULL; /* voices crossfaded out of it in this block */
    if (h->pending) {
        atomic_store_explicit(&h->retired_below, h->pending, memory_order_release);
        h->pending = 0;
    }
}

bool ear__hrtf_wants(const ear_stage *s, const ear__voice *v) {
    if (!v->placed || !s->hrtf.bank) return false;
    uint32_t m = v->spatializer == EAR_SPATIALIZER_DEFAULT ? s->hrtf.mode : v->spatializer;
    return m == EAR_SPATIALIZER_HRTF;
}

bool ear__hrtf_involved(const ear_stage *s, const ear__voice *v) {
    return v->placed && (v->via_hrtf || ear__hrtf_wants(s, v));
}

/* ---- audio side: lookup ---------------------------------------------------- */

/* In ring r, the two measured neighbours of azimuth a and the weight u of the second. */
static void ring_pair(const ear__hrtf_bank *b, uint32_t r, float a, uint32_t *i0, uint32_t *i1,
                      float *u) {
    uint32_t lo = b->ring_start[r], hi = b->ring_start[r + 1];
    const uint32_t *idx = b->ring_index;
    if (hi - lo == 1) {
        *i0 = *i1 = idx[lo];
        *u = 0.0f;
        return;
    }
    float first = b->az[idx[lo]], last = b->az[idx[hi - 1]];
    if (a < first || a >= last) { /* between the last and (across 360) the first */
        float gap = first + 360.0f - last;
        float off = a >= last ? a - last : a + 360.0f - last;
        *i0 = idx[hi - 1];
        *i1 = idx[lo];
        *u = gap > 0.0f ? off / gap : 0.0f;
        return;
    }
    uint32_t a0 = lo, a1 = hi - 1; /* az[a0] <= a < az[a1] */
    while (a1 - a0 > 1) {
        uint32_t mid = a0 + (a1 - a0) / 2;
        if (b->az[idx[mid]] <= a)
            a0 = mid;
        else
            a1 = mid;
    }
    float z0 = b->az[idx[a0]], z1 = b->az[idx[a1]];
    *i0 = idx[a0];
    *i1 = idx[a1];
    *u = z1 > z0 ? (a - z0) / (z1 - z0) : 0.0f;
}

/* Up to four measured directions and weights summing to 1 (bilinear: elevation rings,
 * then azimuth in each ring; outside the measured elevations, the nearest ring). */
static uint32_t weights(const ear__hrtf_bank *b, float az, float el, uint32_t idx[4],
                        float w[4]) {
    uint32_t r0 = 0, r1 = 0;
    float t = 0.0f;
    if (el <= b->ring_el[0]) {
        r0 = r1 = 0;
    } else if (el >= b->ring_el[b->rings - 1]) {
        r0 = r1 = b->rings - 1;
    } else {
        while (r0 + 1 < b->rings && b->ring_el[r0 + 1] <= el) r0++;
        r1 = r0 + 1 < b->rings ? r0 + 1 : r0;
        float e0 = b->ring_el[r0], e1 = b->ring_el[r1];
        t = e1 > e0 ? (el - e0) / (e1 - e0) : 0.0f;
    }
    uint32_t p[4];
    float u0, u1;
    ring_pair(b, r0, az, &p[0], &p[1], &u0);
    ring_pair(b, r1, az, &p[2], &p[3], &u1);
    float pw[4] = {(1.0f - t) * (1.0f - u0), (1.0f - t) * u0, t * (1.0f - u1), t * u1};
    uint32_t n = 0;
    for (int k = 0; k < 4; k++) {
        if (pw[k] <= 0.0f) continue;
        uint32_t j = 0;
        while (j < n && idx[j] != p[k]) j++;
        if (j == n) {
            idx[n] = p[k];
            w[n++] = pw[k];
        } else {
            w[j] += pw[k];
        }
    }
    if (n == 0) {
        idx[0] = p[0];
        w[0] = 1.0f;
        n = 1;
    }
    float sum = 0.0f;
    for (uint32_t k = 0; k < n; k++) sum += w[k];
    for (uint32_t k = 0; k < n; k++) w[k] /= sum;
    return n;
}

/* Direction (ux, uy, uz) in listener space (x right, y forward, z up) -> the voice's
 * pair p: each ear's whole delay and its filter with the fraction folded in. */
static void make_pair(ear__hrtf_bank *b, ear__hrtf_voice *hv, uint32_t p, float ux, float uy,
                      float uz) {
    float az = (float)(ear__atan2(-(double)ux, (double)uy) * DEG);
    if (az < 0.0f) az += 360.0f;
    if (az >= 360.0f) az = 0.0f;
    float el = (float)(ear__atan2((double)uz, sqrt((double)ux * ux + (double)uy * uy)) * DEG);
    uint32_t idx[4];
    float w[4];
    uint32_t n = weights(b, az, el, idx, w);
    uint32_t taps = b->taps;
    float d[2] = {0.0f, 0.0f};
    for (uint32_t i = 0; i < taps; i++) b->tmp[0][i] = b->tmp[1][i] = 0.0f;
    for (uint32_t k = 0; k < n; k++) {
        const float *l = b->left + (size_t)idx[k] * taps, *r = b->right + (size_t)idx[k] * taps;
        for (uint32_t i = 0; i < taps; i++) {
            b->tmp[0][i] += w[k] * l[i];
            b->tmp[1][i] += w[k] * r[i];
        }
        d[0] += w[k] * b->dl[idx[k]];
        d[1] += w[k] * b->dr[idx[k]];
    }
    for (int e = 0; e < 2; e++) {
        float whole = floorf(d[e]);
        float x = (d[e] - whole) * (float)EAR__HRTF_FD_STEPS;
        uint32_t k0 = (uint32_t)x;
        if (k0 >= EAR__HRTF_FD_STEPS) k0 = EAR__HRTF_FD_STEPS - 1u;
        float fx = x - (float)k0;
        const float *fa = b->fd + k0 * EAR__HRTF_FD_TAPS, *fb = fa + EAR__HRTF_FD_TAPS;
        float fd[EAR__HRTF_FD_TAPS];
        for (uint32_t k = 0; k < EAR__HRTF_FD_TAPS; k++) fd[k] = fa[k] + fx * (fb[k] - fa[k]);
        float *g = hv->filter[p][e];
        for (uint32_t i = 0; i < b->len; i++) g[i] = 0.0f;
        for (uint32_t i = 0; i < taps; i++)
            for (uint32_t k = 0; k < EAR__HRTF_FD_TAPS; k++) g[i + k] += b->tmp[e][i] * fd[k];
        hv->delay[p][e] = (uint32_t)whole;
    }
    hv->ux = ux;
    hv->uy = uy;
    hv->uz = uz;
}

/* ---- audio side: rendering ------------------------------------------------- */

void ear__hrtf_conv_scalar(const float *buf, uint32_t x0, uint32_t frames, const float *g,
                           uint32_t len, float *y) {
    for (uint32_t j = 0; j < frames; j++) {
        float acc = 0.0f;
        const float *q = buf + x0 + j;
        for (uint32_t k = 0; k < len; k++) acc += g[k] * q[-(int32_t)k];
        y[j] = acc;
    }
}

/* One TPT one-pole low-pass over x in place, G ramped from g0 to g1 (voice_render.c's). */
static void lowpass(float *x, uint32_t frames, float *state, float g0, float g1) {
    if (g0 >= 1.0f && g1 >= 1.0f) {
        *state = x[frames - 1];
        return;
    }
    float s = *state;
    float dg = (g1 - g0) / (float)frames;
    float g = g0;
    for (uint32_t j = 0; j < frames; j++) {
        g += dg;
        float vv = (x[j] - s) * g;
        float y = vv + s;
        s = y + vv;
        x[j] = y;
    }
    *state = isfinite(s) ? s : 0.0f;
}

/* The state of voice v in bank b when it was rendered through b in the last block. */
static ear__hrtf_voice *primed_in(ear__hrtf_bank *b, const ear__voice *v) {
    if (!b) return NULL;
    ear__hrtf_voice *hv = &b->voice[(v->id & 0xffffu) - 1u];
    return hv->id == v->id && hv->primed ? hv : NULL;
}

/* One block of x through hv's filters in bank b into mix_l/mix_r: the output gain ramped
 * from hv->gain to g1, the filters made again for direction u when it turned enough (or
 * when fresh), the old pair's output crossfaded into the new one's. */
static void run_path(ear_stage *s, ear__hrtf_bank *b, ear__hrtf_voice *hv, bool fresh,
                     const float *x, uint32_t n, float g1, const float u[3], float *mix_l,
                     float *mix_r) {
    uint32_t H = b->hist;
    bool xfade = false;
    if (fresh) {
        memset(hv->hist, 0, H * sizeof(float));
        make_pair(b, hv, hv->cur, u[0], u[1], u[2]);
    } else if (u) {
        float dot = hv->ux * u[0] + hv->uy * u[1] + hv->uz * u[2];
        if (dot < EAR__HRTF_MOVE_COS) {
            make_pair(b, hv, hv->cur ^ 1u, u[0], u[1], u[2]);
            xfade = true;
        }
    }
    float *buf = b->buf;
    memcpy(buf, hv->hist, H * sizeof(float));
    memcpy(buf + H, x, n * sizeof(float));
    ear__hrtf_conv cv = s->kernel == ear__kernel_avx2 && ear__hrtf_conv_avx2
                            ? ear__hrtf_conv_avx2
                            : ear__hrtf_conv_scalar;
    uint32_t c = hv->cur, len = b->len;
    cv(buf, H - hv->delay[c][0], n, hv->filter[c][0], len, b->y[0]);
    cv(buf, H - hv->delay[c][1], n, hv->filter[c][1], len, b->y[1]);
    /* The gain is ramped on the output (after the delays and filters), so that a path
     * faded to 0 ends silent: nothing of it is left in a delay line to be cut. */
    float g0 = hv->gain, dg = (g1 - g0) / (float)n;
    if (xfade) {
        uint32_t c1 = c ^ 1u;
        cv(buf, H - hv->delay[c1][0], n, hv->filter[c1][0], len, b->y[2]);
        cv(buf, H - hv->delay[c1][1], n, hv->filter[c1][1], len, b->y[3]);
        float inv = 1.0f / (float)n;
        for (uint32_t j = 0; j < n; j++) {
            float t = (float)(j + 1) * inv, g = g0 + dg * (float)(j + 1);
            mix_l[j] += g * (b->y[0][j] + t * (b->y[2][j] - b->y[0][j]));
            mix_r[j] += g * (b->y[1][j] + t * (b->y[3][j] - b->y[1][j]));
        }
        hv->cur = c1;
    } else if (g0 == g1) {
        for (uint32_t j = 0; j < n; j++) {
            mix_l[j] += g1 * b->y[0][j];
            mix_r[j] += g1 * b->y[1][j];
        }
    } else {
        for (uint32_t j = 0; j < n; j++) {
            float g = g0 + dg * (float)(j + 1);
            mix_l[j] += g * b->y[0][j];
            mix_r[j] += g * b->y[1][j];
        }
    }
    memcpy(hv->hist, buf + n, H * sizeof(float));
    hv->gain = g1;
}

bool ear__hrtf_render(ear_stage *s, ear__voice *v, const ear__kernel_io *io,
                      const ear__targets *t) {
    ear__hrtf_state *h = &s->hrtf;
    uint32_t n = io->frames;
    bool want = ear__hrtf_wants(s, v);
    ear__hrtf_voice *in = want ? &h->bank->voice[(v->id & 0xffffu) - 1u] : NULL;
    bool in_primed = in && in->id == v->id && in->primed;
    /* The path the voice leaves, if it leaves one: the bank a swap replaced, or the bank
     * when the voice now pans; or the pan, when it was panned in the last block. */
    ear__hrtf_bank *out_bank = NULL;
    ear__hrtf_voice *out = NULL;
    if (!in_primed) {
        if ((out = primed_in(h->old, v)) != NULL)
            out_bank = h->old;
        else if (!want && (out = primed_in(h->bank, v)) != NULL)
            out_bank = h->bank;
    }
    bool pan_out = want && !in_primed && v->was_real && !v->via_hrtf;
    ear__hrtf_bank *sb = want ? h->bank : out_bank;
    if (!sb) { /* nothing left of the HRTF path (its bank was replaced twice): pan */
        v->via_hrtf = false;
        return s->kernel->render(v, io, t);
    }

    float *x = sb->x;
    bool ended = false;
    if (v->premixed)
        memcpy(x, v->premixed, n * sizeof(float)); /* a blend's summed layers */
    else
        ended = ear__read_block(v, t->step_fx, n, x, io->right);
    lowpass(x, n, &v->z_occ1, v->occ_G, t->occ_G);
    lowpass(x, n, &v->z_occ2, v->occ_G, t->occ_G);

    if (!want || pan_out) {
        /* The pan path, fading out (the voice now goes through HRTF) or in from silence
         * (it leaves HRTF), on the occluded block: its own occlusion stays open. */
        ear__targets tp = *t;
        if (want) {
            tp.gain_l = tp.gain_r = 0.0f;
        } else {
            v->gain_l = v->gain_r = 0.0f;
            v->delay_l = tp.delay_l;
            v->delay_r = tp.delay_r;
            v->cue_G = tp.cue_G;
            v->z_cue = 0.0f;
            memset(v->hist, 0, sizeof v->hist);
        }
        const float *premixed = v->premixed;
        float z1 = v->z_occ1, z2 = v->z_occ2;
        v->occ_G = tp.occ_G = 1.0f;
        v->premixed = x;
        (void)s->kernel->render(v, io, &tp);
        v->premixed = premixed;
        v->z_occ1 = z1;
        v->z_occ2 = z2;
    }
    v->occ_G = t->occ_G;

    const float *u = NULL;
    float dir[3] = {v->sp.lx, v->sp.ly, v->sp.lz};
    if (dir[0] == 0.0f && dir[1] == 0.0f && dir[2] == 0.0f) dir[1] = 1.0f; /* at the ears */
    u = dir;
    if (want) {
        bool fresh = !in_primed;
        if (fresh) {
            in->id = v->id;
            in->cur = 0;
            /* A first block starts at its gain (ear__voice_prime set it); one that comes
             * from another path or from virtual fades in. */
            in->gain = (pan_out || out || v->was_real) ? 0.0f : v->gain_l;
        }
        run_path(s, h->bank, in, fresh, x, n, t->gain_l, u, io->mix_l, io->mix_r);
        in->primed = v->real; /* a voice leaving the real set faded out: start afresh */
        v->gain_l = t->gain_l;
        v->gain_r = t->gain_r;
        v->delay_l = v->delay_r = 0.0f;
    }
    if (out) {
        run_path(s, out_bank, out, false, x, n, 0.0f, NULL, io->mix_l, io->mix_r);
        out->primed = false;
    }
    v->via_hrtf = want && v->real;
    return ended;
}
