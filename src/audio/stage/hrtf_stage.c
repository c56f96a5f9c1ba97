/* SPDX-License-Identifier: Zlib */
/*
 * The audio side of the HRTF spatializer: placed voices heard through a measured HRTF set
 * (docs/stage.md, "HRTF"). Its banks are made and freed on the game side (hrtf_bank.c);
 * here they are switched in by command and rendered with.
 *
 * Audio side, per voice and block (ear__hrtf_render):
 *   1. read the clip (or take a blend's premixed layers) and run the occlusion low-pass;
 *   2. the direction in listener space -> SOFA azimuth and elevation; when it has turned
 *      by more than EAR__HRTF_MOVE_DEG since the filters were made (or there are none), a
 *      new pair: the bilinear blend of up to four measured directions' minimum-phase
 *      filters and delays (the directions and weights from the one lookup,
 *      ear_hrtf_rings_weights in hrtf_bank.c), each ear's delay split into whole
 *      samples (read from the history) and a fraction, which is convolved into the ear's
 *      filter as an 8-tap Kaiser-windowed sinc;
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
 * while the incoming one's ramps from 0. Nothing here allocates, locks or logs.
 */
#include "portable_math.h"
#include "hrtf_fast.h"
#include "stage_internal.h"

#include <math.h>
#include <string.h>

#define DEG (180.0 / EAR__PI)

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
    h->mode = c->u.spatializer; /* the stage's (a voice's own is voice.c's) */
    invalidate_fine(s);
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

/* The FFT kernel the stage's kernel goes with. */
static const ear__fft_kernel *fft_kernel(const ear_stage *s) {
    return ear__kernel_runs_avx2(s->kernel) && ear__fft_avx2 ? ear__fft_avx2 : &ear__fft_scalar;
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
    const ear_hrtf_rings rings = {b->az, b->ring_el, b->ring_start, b->ring_index, b->rings};
    uint32_t n = ear_hrtf_rings_weights(&rings, az, el, p->idx, p->w);
    p->d[0] = p->d[1] = 0.0f;
    for (uint32_t k = 0; k < n; k++) {
        p->d[0] += p->w[k] * b->dl[p->idx[k]];
        p->d[1] += p->w[k] * b->dr[p->idx[k]];
    }
    size_t bytes = 4u * (size_t)b->kpad * sizeof(float); /* a direction's two ears */
    for (uint32_t k = 0; k < n; k++)
        ear__prefetch_lines(b->mspec + (size_t)p->idx[k] * 4u * b->kpad, bytes);
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
    return ear__kernel_runs_avx2(s->kernel) && ear__hf_avx2 ? ear__hf_avx2 : &ear__hf_scalar;
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
    ear__hrtf_bank *b = s->hrtf.bank;
    if (!b || !ear__hrtf_wants(s, v)) return;
    const ear__hrtf_voice *hv = &b->voice[(v->id & 0xffffu) - 1u];
    if (hv->id != v->id) return;
    ear__prefetch_lines(hv->spec, 4u * (size_t)b->kpad * sizeof(float));
    ear__prefetch_lines(hv->hist, (size_t)b->fft_n * sizeof(float));
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
