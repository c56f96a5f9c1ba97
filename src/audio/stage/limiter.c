/* SPDX-License-Identifier: Zlib */
/*
 * The output limiter on the master: a lookahead peak limiter with linked stereo gain, run
 * by the block loop on each finished output block while it is on (block.c), and its
 * game-side settings (ear_stage_set_limiter). docs/stage.md, "The output limiter", has the
 * model with its formulas and measurements.
 *
 * Per output frame t, with c the ceiling and L the lookahead in frames (window W = L + 1):
 *
 *  1. the required gain r[t] = min(1, c / max(|left[t]|, |right[t]|)) (both channels take
 *     one gain, so the image does not move);
 *  2. its minimum over the window, h[t] = min r[t - L .. t] (a monotonic deque: each value
 *     enters and leaves it once);
 *  3. released, as a reduction d (1 minus the released gain e): d[t] = 1 - h[t] when that is
 * more than d[t - 1] (instant), else d[t] = (1 - h[t]) + (d[t - 1] - (1 - h[t])) * (1 -
 * release_k), so with no peak pending d decays as exp(-t / release). Kept as the reduction, not
 *     the gain, because a gain just under 1 has too few bits: e += (1 - e) k stalls once
 *     (1 - e) k is under half an ulp of 1 (at 1 - e ~ 7e-5 for 50 ms at 48 kHz), d * (1 - k)
 *     does not;
 *  4. the gain g[t] = 1 - the mean of d over the window (a moving sum), applied to the
 *     input L frames back: y[t] = g[t] * x[t - L].
 *
 * The invariant that keeps every sample within the ceiling: d >= 1 - h, and every h[t - j]
 * (j = 0 .. L) is a minimum over a window that holds t - L, so each term 1 - d of the mean,
 * and the mean, is at most r[t - L], and |y[t]| <= c. The attack is therefore a ramp over the
 * lookahead that ends as the peak arrives. A final clamp to +-c absorbs the rounding of the
 * mean and of c / peak (it changes a sample by at most an ulp or two), and keeps the
 * ceiling for the lookahead's frames after the ceiling is lowered while engaged.
 *
 * Bit for bit below the threshold: `below` counts the window's entries with d > 0; when it
 * is 0 the gain is exactly 1 and each sample leaves as it came, L frames later (a gain of 1
 * implies r[t - L] = 1, so the clamp does nothing). The release snaps d to 0 once under
 * 1e-6 (the gain within 1e-6 of 1: a step 120 dB under the signal), so it does not crawl
 * towards 0 for ever, and the moving sum is then reset to 0 exactly, so rounding cannot
 * accumulate across engagements. A block that starts with nothing pending and holds no
 * sample above the ceiling is only delayed (idle_block: the same bits and state as the
 * frame loop, at the cost of two copies).
 *
 * Non-finite input samples are taken as 0 (silence): neither the state nor the output
 * ever holds a NaN. Nothing here allocates: the rings are carved from the stage's heap at
 * create, sized for the longest lookahead at the stage's rate. Everything is per frame and
 * in order, so output does not depend on how renders are split into chunks.
 */
#include "portable_math.h"
#include "stage_internal.h"

#include <math.h>
#include <string.h>

#define MODULE "stage"

#define DEFAULT_CEILING_DB   -1.0f
#define DEFAULT_LOOKAHEAD_MS 2.0f
#define DEFAULT_RELEASE_MS   50.0f
#define MIN_CEILING_DB       -60.0f
#define MAX_LOOKAHEAD_MS     10.0f
#define MAX_RELEASE_MS       10000.0f
/* The release is taken to have ended once the reduction is under this. */
#define SNAP 1e-6f

uint32_t ear__limiter_capacity(uint32_t sample_rate) {
    uint32_t need = (uint32_t)ceil((double)MAX_LOOKAHEAD_MS * 1e-3 * sample_rate) + 2u;
    uint32_t cap = 1;
    while (cap < need) cap <<= 1;
    return cap;
}

/* ---- game side ------------------------------------------------------------------------ */

static uint32_t lookahead_frames(float lookahead_ms, uint32_t sample_rate) {
    long n = lround((double)lookahead_ms * 1e-3 * sample_rate);
    return n < 1 ? 1u : (uint32_t)n;
}

ear_result ear__limiter_resolve(const ear_limiter *in, uint32_t sample_rate,
                                ear_limiter *resolved, ear__cmd *cmd) {
    ear_limiter l = *in;
    if (l.ceiling_db == 0.0f) l.ceiling_db = DEFAULT_CEILING_DB;
    if (l.lookahead_ms == 0.0f) l.lookahead_ms = DEFAULT_LOOKAHEAD_MS;
    if (l.release_ms == 0.0f) l.release_ms = DEFAULT_RELEASE_MS;
    if (!isfinite(l.ceiling_db) || l.ceiling_db > 0.0f || l.ceiling_db < MIN_CEILING_DB) {
        ear_log(EAR_LOG_WARN, MODULE, "limiter ceiling_db %g: must be in -60 .. 0",
                (double)l.ceiling_db);
        return EAR_E_INVALID_ARG;
    }
    if (!isfinite(l.lookahead_ms) || l.lookahead_ms < 0.0f ||
        l.lookahead_ms > MAX_LOOKAHEAD_MS) {
        ear_log(EAR_LOG_WARN, MODULE, "limiter lookahead_ms %g: must be in 0 .. 10",
                (double)l.lookahead_ms);
        return EAR_E_INVALID_ARG;
    }
    if (!isfinite(l.release_ms) || l.release_ms < 0.0f || l.release_ms > MAX_RELEASE_MS) {
        ear_log(EAR_LOG_WARN, MODULE, "limiter release_ms %g: must be in 0 .. 10000",
                (double)l.release_ms);
        return EAR_E_INVALID_ARG;
    }
    *resolved = l;
    memset(cmd, 0, sizeof *cmd);
    cmd->type = EAR__CMD_LIMITER;
    cmd->u.limiter.on = l.enabled ? 1u : 0u;
    cmd->u.limiter.look = lookahead_frames(l.lookahead_ms, sample_rate);
    cmd->u.limiter.ceiling = (float)ear__exp10((double)l.ceiling_db / 20.0);
    cmd->u.limiter.release_k =
        (float)-ear__expm1(-1.0 / ((double)l.release_ms * 1e-3 * (double)sample_rate));
    return EAR_OK;
}

ear_result ear_stage_set_limiter(ear_stage *stage, const ear_limiter *limiter) {
    if (!stage || !limiter) return EAR_E_INVALID_ARG;
    ear__collect(stage);
    ear_limiter resolved;
    ear__cmd cmd;
    ear_result r = ear__limiter_resolve(limiter, stage->config.sample_rate, &resolved, &cmd);
    if (r != EAR_OK) return r;
    r = ear__send(stage, &cmd);
    if (r == EAR_OK) stage->limiter_game = resolved;
    return r;
}

ear_limiter ear_stage_get_limiter(const ear_stage *stage) {
    return stage->limiter_game;
}

float ear_stage_limiter_gain_db(const ear_stage *stage) {
    if (!stage) return 0.0f;
    uint32_t bits = atomic_load_explicit(&stage->limiter_gain_bits, memory_order_relaxed);
    float g;
    memcpy(&g, &bits, sizeof g);
    return g >= 1.0f ? 0.0f : 20.0f * ear__log10f(g);
}

uint32_t ear_stage_latency_frames(const ear_stage *stage) {
    if (!stage || !stage->limiter_game.enabled) return 0;
    return lookahead_frames(stage->limiter_game.lookahead_ms, stage->config.sample_rate);
}

static uint32_t gcd_u32(uint32_t a, uint32_t b) {
    while (b) {
        uint32_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

ear_stage_call_latency ear_stage_get_call_latency(const ear_stage *stage,
                                                  uint32_t buffer_frames) {
    ear_stage_call_latency l = {0};
    if (!stage) return l;
    l.buffer_frames = buffer_frames ? buffer_frames : EAR_DEVICE_BUFFER_FRAMES_DEFAULT;
    l.block_frames = stage->config.block_frames;
    l.lag_frames = ear_stage_latency_frames(stage);
    l.best_frames = l.lag_frames;
    l.worst_frames = l.block_frames - gcd_u32(l.block_frames, l.buffer_frames) + l.lag_frames +
                     l.buffer_frames;
    double rate = (double)stage->config.sample_rate;
    l.best_ms = 1000.0 * l.best_frames / rate;
    l.worst_ms = 1000.0 * l.worst_frames / rate;
    return l;
}

/* ---- audio side ----------------------------------------------------------------------- */

static void publish_gain(ear_stage *s, float g) {
    uint32_t bits;
    memcpy(&bits, &g, sizeof bits);
    atomic_store_explicit(&s->limiter_gain_bits, bits, memory_order_relaxed);
}

/* An empty delay line, a window of gains of 1, no peak pending. */
static void restart(ear__limiter *l) {
    memset(l->delay, 0, (size_t)l->cap * 2u * sizeof *l->delay);
    memset(l->box, 0, (size_t)l->cap * sizeof *l->box);
    l->dq_head = l->dq_count = 0;
    l->t = 0;
    l->reduction = 0.0f;
    l->sum = 0.0;
    l->below = 0;
}

void ear__limiter_apply(ear_stage *s, const ear__cmd *c) {
    ear__limiter *l = &s->lim;
    bool on = c->u.limiter.on != 0;
    bool fresh = on && (!l->on || l->look != c->u.limiter.look);
    l->look = c->u.limiter.look;
    l->ceiling = c->u.limiter.ceiling;
    l->release_k = c->u.limiter.release_k;
    if (fresh) restart(l);
    l->on = on;
    if (!on) publish_gain(s, 1.0f);
}

/* The idle block: nothing in the window reduces (below == 0) and no sample of the block
 * is above the ceiling (nor NaN: the comparison fails), so every gain of the block is 1
 * and the general loop would only delay the block. This does that and leaves the state
 * the general loop would: zero reductions for the block's frames, the deque holding the
 * block's last required gain of 1. */
static bool idle_block(ear__limiter *l, float *out, uint32_t frames) {
    if (l->below != 0) return false;
    /* |x| <= c, compared as bits: for floats of one sign the bit patterns order as the
     * values do, and a NaN's (or an infinity's) is above every finite value's. An integer
     * maximum, which the compiler vectorises. */
    uint32_t c_bits, worst = 0;
    memcpy(&c_bits, &l->ceiling, sizeof c_bits);
    for (uint32_t i = 0; i < 2u * frames; i++) {
        uint32_t b;
        memcpy(&b, &out[i], sizeof b);
        b &= 0x7fffffffu;
        worst = b > worst ? b : worst;
    }
    if (worst > c_bits) return false;
    /* The delay, in runs that neither wrap the ring nor read what they write: the block
     * goes into the ring at t, the output comes from the ring at t - look. */
    const uint32_t mask = l->mask, look = l->look, cap = l->cap;
    uint32_t t = l->t;
    for (uint32_t j = 0; j < frames;) {
        uint32_t w = t & mask, r = (t - look) & mask;
        uint32_t n = frames - j;
        if (n > look) n = look;
        if (n > cap - look) n = cap - look;
        if (n > cap - w) n = cap - w;
        if (n > cap - r) n = cap - r;
        memcpy(&l->delay[2u * w], &out[2u * j], (size_t)n * 2u * sizeof(float));
        memcpy(&out[2u * j], &l->delay[2u * r], (size_t)n * 2u * sizeof(float));
        memset(&l->box[w], 0, (size_t)n * sizeof(float));
        j += n;
        t += n;
    }
    l->dq_val[l->dq_head] = 1.0f;
    l->dq_at[l->dq_head] = t - 1u;
    l->dq_count = 1;
    l->t = t;
    return true;
}

void ear__limiter_block(ear_stage *s, float *out, uint32_t frames) {
    ear__limiter *l = &s->lim;
    if (idle_block(l, out, frames)) {
        publish_gain(s, 1.0f);
        return;
    }
    const uint32_t mask = l->mask, look = l->look, win = look + 1u;
    const float c = l->ceiling, a = 1.0f - l->release_k;
    float *delay = l->delay, *box = l->box, *dq_val = l->dq_val;
    uint32_t *dq_at = l->dq_at;
    uint32_t head = l->dq_head, count = l->dq_count, t = l->t, below = l->below;
    float d = l->reduction, lowest = 1.0f;
    double sum = l->sum;
    const double inv_win = 1.0 / (double)win;
    for (uint32_t j = 0; j < frames; j++, t++) {
        float xl = out[2 * j], xr = out[2 * j + 1];
        if (!isfinite(xl)) xl = 0.0f;
        if (!isfinite(xr)) xr = 0.0f;
        float al = fabsf(xl), ar = fabsf(xr);
        float peak = al > ar ? al : ar;
        float r = peak > c ? c / peak : 1.0f;
        /* The window's minimum: later, smaller gains make earlier, larger ones irrelevant. */
        while (count && dq_val[(head + count - 1u) & mask] >= r) count--;
        uint32_t back = (head + count) & mask;
        dq_val[back] = r;
        dq_at[back] = t;
        count++;
        if (t - dq_at[head] >= win) head = (head + 1u) & mask, count--;
        float dh = 1.0f - dq_val[head];
        if (dh >= d) {
            d = dh;
        } else {
            d = dh + (d - dh) * a;
            if (d < dh) d = dh; /* rounding must not take d under the hold */
            if (dh == 0.0f && d < SNAP) d = 0.0f;
        }
        /* The moving mean of d over the window. */
        uint32_t gone = (t - win) & mask;
        float old = box[gone];
        box[t & mask] = d;
        if (d > 0.0f) below++;
        if (old > 0.0f) below--;
        float g;
        if (below == 0) {
            g = 1.0f;
            sum = 0.0;
        } else {
            sum += (double)d - (double)old;
            g = (float)(1.0 - sum * inv_win);
        }
        float *in = &delay[2u * (t & mask)];
        in[0] = xl;
        in[1] = xr;
        const float *x = &delay[2u * ((t - look) & mask)];
        float yl = x[0] * g, yr = x[1] * g;
        yl = yl > c ? c : (yl < -c ? -c : yl);
        yr = yr > c ? c : (yr < -c ? -c : yr);
        out[2 * j] = yl;
        out[2 * j + 1] = yr;
        lowest = g < lowest ? g : lowest;
    }
    l->dq_head = head;
    l->dq_count = count;
    l->t = t;
    l->below = below;
    l->reduction = d;
    l->sum = sum;
    publish_gain(s, lowest);
}
