/* SPDX-License-Identifier: Zlib */
/*
 * The game side of the HRTF spatializer (docs/stage.md, "HRTF"): making a bank from a set,
 * handing it to the audio side, freeing the banks it has let go, the stage-wide and
 * per-voice spatializer settings, and the direction lookup every HRTF user shares.
 *
 * ear_stage_set_hrtf copies the caller's plain arrays into a bank (one allocation through
 * the stage's allocator: the set, its elevation rings for lookup, a table of
 * fractional-delay kernels, the spectra of every measured filter, and per slot two filter
 * pairs and an input history) and sends it through the command ring. Banks the audio side
 * has let go (retired_below) are freed by the next game-side call that comes here (set,
 * spatializer, status, update).
 *
 * The lookup (ear_hrtf_rings_weights) is the one place a direction becomes measured
 * directions and weights: the audio side (hrtf_stage.c) asks it when a voice's filters are
 * made again, and the audio/hrtf module's ear_hrtf_weights is it over a loaded set. It is a
 * pure function of its arguments, so the audio thread may call it.
 */
#include "portable_math.h"
#include "stage_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MODULE "stage"

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

/* ---- the direction lookup ---------------------------------------------------- */

/* In ring r, the two measured neighbours of azimuth a and the weight u of the second. */
static void ring_pair(const ear_hrtf_rings *g, uint32_t r, float a, uint32_t *i0, uint32_t *i1,
                      float *u) {
    uint32_t lo = g->ring_start[r], hi = g->ring_start[r + 1];
    const uint32_t *idx = g->ring_index;
    const float *az = g->azimuth_deg;
    if (hi - lo == 1) {
        *i0 = *i1 = idx[lo];
        *u = 0.0f;
        return;
    }
    float first = az[idx[lo]], last = az[idx[hi - 1]];
    if (a < first || a >= last) { /* between the last and (across 360) the first */
        float gap = first + 360.0f - last;
        float off = a >= last ? a - last : a + 360.0f - last;
        *i0 = idx[hi - 1];
        *i1 = idx[lo];
        *u = gap > 0.0f ? off / gap : 0.0f;
        return;
    }
    uint32_t a0 = lo, a1 = hi - 1; /* binary search: az[a0] <= a < az[a1] */
    while (a1 - a0 > 1) {
        uint32_t mid = a0 + (a1 - a0) / 2;
        if (az[idx[mid]] <= a)
            a0 = mid;
        else
            a1 = mid;
    }
    float z0 = az[idx[a0]], z1 = az[idx[a1]];
    *i0 = idx[a0];
    *i1 = idx[a1];
    *u = z1 > z0 ? (a - z0) / (z1 - z0) : 0.0f;
}

/* Bilinear: elevation rings, then azimuth in each ring; outside the measured elevations,
 * the nearest ring. The weights of a direction met twice add up; rounding that leaves
 * every weight at 0 gives the nearest direction alone. */
uint32_t ear_hrtf_rings_weights(const ear_hrtf_rings *g, float azimuth_deg, float elevation_deg,
                                uint32_t idx[4], float w[4]) {
    float az = fmodf(azimuth_deg, 360.0f);
    if (az < 0.0f) az += 360.0f;
    if (az >= 360.0f) az = 0.0f;
    float el = elevation_deg;
    const float *ring_el = g->ring_elevation_deg;
    uint32_t r0 = 0, r1 = 0;
    float t = 0.0f;
    if (el <= ring_el[0]) {
        r0 = r1 = 0;
    } else if (el >= ring_el[g->rings - 1]) {
        r0 = r1 = g->rings - 1;
    } else {
        while (r0 + 1 < g->rings && ring_el[r0 + 1] <= el) r0++;
        r1 = r0 + 1 < g->rings ? r0 + 1 : r0;
        float e0 = ring_el[r0], e1 = ring_el[r1];
        t = e1 > e0 ? (el - e0) / (e1 - e0) : 0.0f;
    }
    uint32_t p[4];
    float u0, u1;
    ring_pair(g, r0, az, &p[0], &p[1], &u0);
    ring_pair(g, r1, az, &p[2], &p[3], &u1);
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
