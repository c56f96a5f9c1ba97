/* SPDX-License-Identifier: Zlib */
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
 *   4. the voice's gain (volume, distance, cone, occlusion, fade) ramped over the block on
 *      the input, before the block joins the history (a block whose target is 0 holds the
 *      input's gain and ramps the output to 0 instead); the products go into the bus's
 *      frequency-domain sums, which ear__hrtf_flush turns into sound once a block.
 * A voice that changes path (pan <-> HRTF, one bank -> another, an HRTF voice leaving or
 * entering the real set) crossfades over one block: the outgoing path's gain ramps to 0
 * while the incoming one's ramps from 0. Nothing here allocates, locks or logs on the
 * audio side.
 */
#include "portable_math.h"
#include "hrtf_fast.h"
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
    size_t spec = 2u * (size_t)b->kpad, fn = b->fft_n;
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
    b->mspec = carve(base, &at, n * 2u * spec * sizeof(float));
    b->fdspec = carve(base, &at, (EAR__HRTF_FD_STEPS + 1u) * spec * sizeof(float));
    b->phase = carve(base, &at, (b->dmax + 1u) * spec * sizeof(float));
    float *tab = carve(base, &at, ear__fft_table_floats(b->fft_n) * sizeof(float));
    if (base) ear__fft_init(&b->fft, b->fft_n, tab);
    b->voice = carve(base, &at, b->slots * sizeof(ear__hrtf_voice));
    for (uint32_t i = 0; i < b->slots; i++) {
        float *sp = carve(base, &at, 2u * spec * sizeof(float));
        float *hist = carve(base, &at, fn * sizeof(float));
        if (base) {
            b->voice[i].spec = sp;
            b->voice[i].hist = hist;
        }
    }
    b->acc =
        carve(base, &at,
              (size_t)b->sub * EAR_BUS_COUNT * EAR__HRTF_TERMS * 2u * spec * sizeof(float));
    b->win = carve(base, &at, (fn + b->block + 8u) * sizeof(float));
    b->x = carve(base, &at, b->block * sizeof(float));
    b->xs = carve(base, &at, spec * sizeof(float));
    b->spec_new = carve(base, &at, 2u * spec * sizeof(float));
    b->tfilt = carve(base, &at, fn * sizeof(float));
    b->work = carve(base, &at, EAR__FFT_WORK(b->fft_n) * sizeof(float));
    for (int k = 0; k < 4; k++)
        b->y[k] = carve(base, &at, (fn > spec ? fn : spec) * sizeof(float));
    for (int k = 0; k < 4; k++) b->direct[k] = carve(base, &at, b->block * sizeof(float));
    return at;
}

/* The transform length for a block of `block` frames and filters reaching `reach`: the
 * one with the least transform work per frame, parts * n log2 n / block, where a part is
 * at most n - reach + 1 frames (the rest of a window is the filters' overlap), n a power
 * of two or three or five times one; on a tie the longer one (fewer parts, fewer sums to keep).
 */
static void choose_fft(ear__hrtf_bank *b) {
    double best = 0.0;
    for (uint32_t n = EAR__FFT_MIN; n <= EAR__FFT_MAX; n += 32u) {
        if (!ear__fft_length_ok(n) || n < b->reach + 1u) continue;
        uint32_t hmax = n - b->reach + 1u;
        uint32_t parts = (b->block + hmax - 1u) / hmax;
        if (parts > EAR__HRTF_MAX_SUB) continue;
        uint32_t odd = n % 3u == 0 ? 3u : n % 5u == 0 ? 5u : 1u, p2 = n / odd, lg = 0;
        while ((1u << lg) < p2) lg++;
        double bits = (double)lg + (odd == 3u   ? 1.5849625007211562
                                    : odd == 5u ? 2.3219280948873623
                                                : 0.0); /* log2 n */
        double cost = (double)parts * (double)n * bits / (double)b->block;
        if (b->fft_n == 0 || cost <= best * 1.0001) {
            best = cost;
            b->fft_n = n;
            b->sub = parts;
        }
    }
    b->kpad = (b->fft_n / 2u + 1u + 7u) & ~7u;
    for (uint32_t i = 0; i <= b->sub; i++)
        b->sub_at[i] = (uint32_t)(((uint64_t)b->block * i) / b->sub);
}

/* The bank's spectra (game side, the scalar transform: both kernels give the same bits):
 * each measured filter scaled by 1/fft_n, each tabulated fractional delay, and the phase
 * ramp e^(-2 pi i k D / fft_n) of each whole delay D. */
static void make_spectra(ear__hrtf_bank *b) {
    uint32_t N = b->fft_n, kp = b->kpad;
    size_t spec = 2u * (size_t)kp;
    float scale = 1.0f / (float)N; /* exact for 2^j, rounded (3e-8) for 3 x 2^j */
    float *t = b->tfilt;
    for (uint32_t i = 0; i < b->count; i++)
        for (uint32_t e = 0; e < 2; e++) {
            const float *h = (e ? b->right : b->left) + (size_t)i * b->taps;
            memset(t, 0, N * sizeof(float));
            for (uint32_t j = 0; j < b->taps; j++) t[j] = h[j] * scale;
            float *o = b->mspec + ((size_t)i * 2u + e) * spec;
            ear__fft_scalar.forward(&b->fft, t, o, o + kp, b->work);
        }
    for (uint32_t f = 0; f <= EAR__HRTF_FD_STEPS; f++) {
        memset(t, 0, N * sizeof(float));
        memcpy(t, b->fd + f * EAR__HRTF_FD_TAPS, EAR__HRTF_FD_TAPS * sizeof(float));
        float *o = b->fdspec + f * spec;
        ear__fft_scalar.forward(&b->fft, t, o, o + kp, b->work);
    }
    for (uint32_t d = 0; d <= b->dmax; d++) {
        float *o = b->phase + d * spec;
        memset(o, 0, spec * sizeof(float));
        for (uint32_t k = 0; k <= N / 2u; k++) {
            double a = -2.0 * EAR__PI * (double)((uint64_t)k * d % N) / (double)N;
            o[k] = (float)ear__cos(a);
            o[kp + k] = (float)ear__sin(a);
        }
    }
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
    shape.dmax = (uint32_t)dmax;
    shape.reach = shape.len + shape.dmax;
    shape.slots = s->slot_count;
    shape.block = s->config.block_frames;
    choose_fft(&shape);
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
    make_spectra(b);
    b->info.loaded = true;
    b->info.sample_rate = h->sample_rate;
    b->info.taps = h->taps;
    b->info.count = n;
    b->info.filter_taps = b->len;
    b->info.fft_length = b->fft_n;
    b->info.fft_parts = b->sub;
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

/* The FFT kernel the stage's kernel goes with. */
static const ear__fft_kernel *fft_kernel(const ear_stage *s) {
    return s->kernel == ear__kernel_avx2 && ear__fft_avx2 ? ear__fft_avx2 : &ear__fft_scalar;
}

static const ear__hf_kernel *hf_kernel(const ear_stage *s);

/* Direction (ux, uy, uz) in listener space (x right, y forward, z up) -> both ears'
 * filters as spectra in spec: each ear's filter with its fraction folded in, placed at its
 * whole delay in fft_n frames, scaled by 1/fft_n (so that the inverse transform gives the
 * convolution itself), transformed. */
typedef struct spec_plan {
    uint32_t idx[4]; /* four measured directions (repeated where fewer) */
    float w[4];      /* and their weights */
    float d[2];      /* each ear's delay */
} spec_plan;

/* The first half of make_spec: the measured directions and weights for (ux, uy, uz), and a
 * request for their spectra (the bank's spectra are megabytes: a voice's four directions
 * are rarely in the caches), so that the voice's transform runs while they arrive. */
static void plan_spec(const ear__hrtf_bank *b, float ux, float uy, float uz, spec_plan *p) {
    float az = (float)(ear__atan2(-(double)ux, (double)uy) * DEG);
    if (az < 0.0f) az += 360.0f;
    if (az >= 360.0f) az = 0.0f;
    float el = (float)(ear__atan2((double)uz, sqrt((double)ux * ux + (double)uy * uy)) * DEG);
    uint32_t n = weights(b, az, el, p->idx, p->w);
    p->d[0] = p->d[1] = 0.0f;
    for (uint32_t k = 0; k < n; k++) {
        p->d[0] += p->w[k] * b->dl[p->idx[k]];
        p->d[1] += p->w[k] * b->dr[p->idx[k]];
    }
#if defined(__GNUC__)
    size_t bytes = 4u * (size_t)b->kpad * sizeof(float); /* a direction's two ears */
    for (uint32_t k = 0; k < n; k++) {
        const char *q = (const char *)(b->mspec + (size_t)p->idx[k] * 4u * b->kpad);
        for (size_t o = 0; o < bytes; o += 64) __builtin_prefetch(q + o);
    }
#endif
    while (n < 4) { /* four terms always, the missing ones weightless */
        p->idx[n] = p->idx[0];
        p->w[n++] = 0.0f;
    }
}

/* The second half: both ears' filter spectra into spec_out. */
static void make_spec(const ear_stage *s, ear__hrtf_bank *b, const spec_plan *p,
                      float *spec_out) {
    const ear__hf_kernel *hk = hf_kernel(s);
    uint32_t kp = b->kpad;
    size_t spec = 2u * (size_t)kp;
    for (uint32_t e = 0; e < 2; e++) {
        float whole = floorf(p->d[e]);
        float x = (p->d[e] - whole) * (float)EAR__HRTF_FD_STEPS;
        uint32_t k0 = (uint32_t)x;
        if (k0 >= EAR__HRTF_FD_STEPS) k0 = EAR__HRTF_FD_STEPS - 1u;
        float fx = x - (float)k0;
        uint32_t D = (uint32_t)whole;
        if (D > b->dmax) D = b->dmax; /* rounding at the largest delay */
        const float *m[4];
        for (uint32_t i = 0; i < 4; i++) m[i] = b->mspec + ((size_t)p->idx[i] * 2u + e) * spec;
        const float *fa = b->fdspec + k0 * spec;
        hk->build(b->fft_n / 2u + 1u, kp, m[0], m[1], m[2], m[3], p->w, fa, fa + spec, fx,
                  b->phase + D * spec, spec_out + e * spec);
    }
}

/* ---- audio side: rendering ------------------------------------------------- */

/* The state of voice v in bank b when it was rendered through b in the last block. */
static ear__hrtf_voice *primed_in(ear__hrtf_bank *b, const ear__voice *v) {
    if (!b) return NULL;
    ear__hrtf_voice *hv = &b->voice[(v->id & 0xffffu) - 1u];
    return hv->id == v->id && hv->primed ? hv : NULL;
}

/* The frequency-domain loops of the stage's kernel (hrtf_fast.h). */
static void mac_scalar(uint32_t k, uint32_t kpad, const float *x, const float *sp, float *a0,
                       float *a1) {
    ear__hf_mac(k, kpad, x, sp, a0, a1);
}
static void mac_xfade_scalar(uint32_t k, uint32_t kpad, const float *x, const float *so,
                             const float *sn, float *a0, float *a1) {
    ear__hf_mac_xfade(k, kpad, x, so, sn, a0, a1);
}
static void combine_scalar(uint32_t h, uint32_t j0, float inv_b, const float *y0,
                           const float *y1, float *out) {
    ear__hf_combine(h, j0, inv_b, y0, y1, out);
}
static void build_scalar(uint32_t k, uint32_t kpad, const float *m0, const float *m1,
                         const float *m2, const float *m3, const float w[4], const float *fa,
                         const float *fb, float fx, const float *q, float *out) {
    ear__hf_build(k, kpad, m0, m1, m2, m3, w, fa, fb, fx, q, out);
}
static void product_scalar(uint32_t k, uint32_t kpad, const float *x, const float *sp,
                           float *y) {
    ear__hf_product(k, kpad, x, sp, y);
}
static void gain_scalar(uint32_t n, uint32_t j0, float g0, float d, const float *x,
                        float *out) {
    ear__hf_gain(n, j0, g0, d, x, out);
}
const ear__hf_kernel ear__hf_scalar = {mac_scalar,   mac_xfade_scalar, combine_scalar,
                                       build_scalar, product_scalar,   gain_scalar};

static const ear__hf_kernel *hf_kernel(const ear_stage *s) {
    return s->kernel == ear__kernel_avx2 && ear__hf_avx2 ? ear__hf_avx2 : &ear__hf_scalar;
}

/* Part i's sum for bus and term (both ears, 2 x 2 kpad floats), zeroed on first use in a
 * block. */
static float *acc_of(ear__hrtf_bank *b, uint32_t i, uint32_t bus, uint32_t term) {
    size_t spec = 2u * (size_t)b->kpad;
    float *a =
        b->acc + (((size_t)i * EAR_BUS_COUNT + bus) * EAR__HRTF_TERMS + term) * 2u * spec;
    uint8_t bit = (uint8_t)(1u << term);
    if (!(b->used[i][bus] & bit)) {
        memset(a, 0, 2u * spec * sizeof(float));
        b->used[i][bus] |= bit;
    }
    return a;
}

/* One block of x through hv's filters in bank b. The voice's gain is applied to its input
 * (ramped from hv->gain to g1 across the block), which is what the history keeps: a gain
 * that changes is a source getting louder, heard through the ears' filters. A block whose
 * target is 0 instead holds the input's gain and ramps the output to 0, so that the path
 * ends silent with nothing of its filters' tails left to cut; its history is cleared after.
 * The filters are made again for direction u when it turned enough (or when fresh), the
 * old filters' output crossfaded into the new ones' (not in a block that fades out). With
 * bus >= 0 the products go into the bank's sums for that bus (ear__hrtf_flush turns them
 * into sound once a block); with bus < 0 the voice's own output is made here and added
 * into mix_l / mix_r. */
static void run_path(ear_stage *s, ear__hrtf_bank *b, ear__hrtf_voice *hv, bool fresh,
                     const float *x, uint32_t n, float g1, const float u[3], int bus,
                     float *mix_l, float *mix_r) {
    const ear__fft_kernel *fk = fft_kernel(s);
    const ear__hf_kernel *hk = hf_kernel(s);
    uint32_t N = b->fft_n, kp = b->kpad, k = N / 2u + 1u;
    size_t spec = 2u * (size_t)kp;
    bool fade = g1 == 0.0f, xfade = false;
    spec_plan plan;
    float *pending = NULL; /* filters to make once the first transform is under way */
    if (fresh) {
        memset(hv->hist, 0, N * sizeof(float));
        hv->head = 0;
        plan_spec(b, u[0], u[1], u[2], &plan);
        pending = hv->spec;
        hv->ux = u[0];
        hv->uy = u[1];
        hv->uz = u[2];
    } else if (u && !fade) {
        float dot = hv->ux * u[0] + hv->uy * u[1] + hv->uz * u[2];
        if (dot < EAR__HRTF_MOVE_COS) {
            plan_spec(b, u[0], u[1], u[2], &plan);
            pending = b->spec_new;
            xfade = true;
        }
    }
    float g0 = hv->gain, d = fade ? 0.0f : (g1 - g0) / (float)n;
    float *R = hv->hist;
    for (uint32_t i = 0; i < b->sub; i++) {
        /* The part's frames, gained, join the ring (over its oldest): the ring from head on
         * is then the part's window, the fft_n frames up to its end. */
        uint32_t at = b->sub_at[i], h = b->sub_at[i + 1] - at, w = hv->head;
        uint32_t first = N - w < h ? N - w : h;
        hk->gain(first, at + 1u, g0, d, x + at, R + w);
        hk->gain(h - first, at + first + 1u, g0, d, x + at + first, R);
        w = w + h >= N ? w + h - N : w + h;
        hv->head = w;
        if (w % 2u == 0) { /* read in place, in pieces of even lengths */
            const float *seg[2] = {R + w, R};
            uint32_t len[2] = {N - w, w};
            if (w)
                fk->forward_segs(&b->fft, seg, len, 2u, b->xs, b->xs + kp, b->work);
            else
                fk->forward(&b->fft, R, b->xs, b->xs + kp, b->work);
        } else {
            memcpy(b->win, R + w, (N - w) * sizeof(float));
            memcpy(b->win + (N - w), R, w * sizeof(float));
            fk->forward(&b->fft, b->win, b->xs, b->xs + kp, b->work);
        }
        if (pending) {
            make_spec(s, b, &plan, pending);
            pending = NULL;
        }
        if (bus >= 0) {
            uint32_t bu = (uint32_t)bus;
            float *a0 = acc_of(b, i, bu, 0);
            float *a1 = fade || xfade ? acc_of(b, i, bu, 1) : NULL;
            if (xfade)
                hk->mac_xfade(k, kp, b->xs, hv->spec, b->spec_new, a0, a1);
            else
                hk->mac(k, kp, b->xs, hv->spec, a0, a1);
            continue;
        }
        /* The voice's own output: each ear's product with the old (and new) filters,
         * transformed back in place; its last h frames are this part's. */
        for (uint32_t e = 0; e < (xfade ? 4u : 2u); e++) {
            float *y = b->y[e];
            const float *sp = e < 2 ? hv->spec + e * spec : b->spec_new + (e - 2u) * spec;
            hk->product(k, kp, b->xs, sp, y);
            fk->inverse(&b->fft, y, y + kp, y, b->work);
            memcpy(b->direct[e] + at, y + (N - h), h * sizeof(float));
        }
    }
    if (xfade) {
        memcpy(hv->spec, b->spec_new, 2u * spec * sizeof(float));
        hv->ux = u[0];
        hv->uy = u[1];
        hv->uz = u[2];
    }
    hv->gain = fade ? 0.0f : g1;
    if (fade) { /* silent from here on: the next block starts from silence */
        memset(R, 0, N * sizeof(float));
        hv->head = 0;
    }
    if (bus >= 0) return;
    float inv = 1.0f / (float)n;
    float *const *y = b->direct;
    for (uint32_t j = 0; j < n; j++) {
        float r = (float)(j + 1u) * inv;
        float l = y[0][j], rr = y[1][j];
        if (xfade) {
            l += r * (y[2][j] - l);
            rr += r * (y[3][j] - rr);
        }
        if (fade) {
            l -= r * l;
            rr -= r * rr;
        }
        mix_l[j] += l;
        mix_r[j] += rr;
    }
}

/* Turns a bank's sums into sound: per part, bus and ear, the inverse transform of each
 * term, weighted by powers of r = (j + 1) / B, added into the bus. */
static void flush_bank(ear_stage *s, ear__hrtf_bank *b) {
    const ear__fft_kernel *fk = fft_kernel(s);
    const ear__hf_kernel *hk = hf_kernel(s);
    uint32_t N = b->fft_n, kp = b->kpad;
    size_t spec = 2u * (size_t)kp;
    float inv_b = 1.0f / (float)b->block;
    for (uint32_t i = 0; i < b->sub; i++) {
        uint32_t at = b->sub_at[i], h = b->sub_at[i + 1] - at;
        for (uint32_t bus = 0; bus < EAR_BUS_COUNT; bus++) {
            uint8_t used = b->used[i][bus];
            if (!used) continue;
            b->used[i][bus] = 0;
            for (uint32_t e = 0; e < 2; e++) {
                const float *yt[EAR__HRTF_TERMS] = {NULL, NULL};
                for (uint32_t t = 0; t < EAR__HRTF_TERMS; t++) {
                    if (!(used & (1u << t))) continue;
                    const float *a =
                        b->acc +
                        (((size_t)i * EAR_BUS_COUNT + bus) * EAR__HRTF_TERMS + t) * 2u * spec +
                        e * spec;
                    fk->inverse(&b->fft, a, a + kp, b->y[t], b->work);
                    yt[t] = b->y[t] + (N - h);
                }
                float *out = ear__bus_buffer(s, (uint8_t)bus, e == 1) + at;
                hk->combine(h, at, inv_b, yt[0], yt[1], out);
            }
        }
    }
}

void ear__hrtf_prefetch(ear_stage *s, const ear__voice *v) {
#if defined(__GNUC__)
    ear__hrtf_bank *b = s->hrtf.bank;
    if (!b || !ear__hrtf_wants(s, v)) return;
    const ear__hrtf_voice *hv = &b->voice[(v->id & 0xffffu) - 1u];
    if (hv->id != v->id) return;
    const char *p = (const char *)hv->spec, *end = p + 4u * (size_t)b->kpad * sizeof(float);
    for (; p < end; p += 64) __builtin_prefetch(p);
    p = (const char *)hv->hist;
    end = p + (size_t)b->fft_n * sizeof(float);
    for (; p < end; p += 64) __builtin_prefetch(p);
#else
    (void)s, (void)v;
#endif
}

void ear__hrtf_flush(ear_stage *s) {
    if (s->hrtf.bank) flush_bank(s, s->hrtf.bank);
    if (s->hrtf.old) flush_bank(s, s->hrtf.old);
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

    /* Into the voice's bus: the products join the bus's sums; into anything else (a
     * reverb send's dry part), the voice's own output is made at once. */
    int bus = io->mix_l == s->bus_l[v->bus] && io->mix_r == s->bus_r[v->bus] ? (int)v->bus : -1;
    float *x = sb->x;
    bool ended = false;
    if (s->kernel->read_grouped) {
        /* The kernel's own read and occlusion (the AVX2 one reads eight frames at once) */
        ear__kernel_io rio = *io;
        rio.hist_len = 0;
        ended = s->kernel->read_grouped(v, &rio, t, x);
    } else {
        if (v->premixed)
            memcpy(x, v->premixed, n * sizeof(float)); /* a blend's summed layers */
        else
            ended = ear__read_block(v, t->step_fx, n, x, io->right);
        ear__lowpass_ramp(x, n, &v->z_occ1, v->occ_G, t->occ_G);
        ear__lowpass_ramp(x, n, &v->z_occ2, v->occ_G, t->occ_G);
    }

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
            /* A first block starts at its gain (ear__voice_prime set it); one that comes
             * from another path or from virtual fades in. */
            in->gain = (pan_out || out || v->was_real) ? 0.0f : v->gain_l;
        }
        run_path(s, h->bank, in, fresh, x, n, t->gain_l, u, bus, io->mix_l, io->mix_r);
        in->primed = v->real; /* a voice leaving the real set faded out: start afresh */
        v->gain_l = t->gain_l;
        v->gain_r = t->gain_r;
        v->delay_l = v->delay_r = 0.0f;
    }
    if (out) {
        run_path(s, out_bank, out, false, x, n, 0.0f, NULL, bus, io->mix_l, io->mix_r);
        out->primed = false;
    }
    v->via_hrtf = want && v->real;
    return ended;
}
