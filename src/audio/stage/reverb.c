/*
 * The room reverb: one feedback delay network per stage, fed by voices' and buses' sends,
 * its wet output added into the master before the master gain (docs/stage.md, "Room
 * reverb", has every formula).
 *
 * Signal path, per frame, mono in and stereo out:
 *
 *   sends -> pre-delay -> damping low-pass -> 4 series allpasses (diffusion) -> into the
 *   8 lines (signs b_i / sqrt 8) -> each line's two-band decay filter -> Hadamard mix
 *   (orthonormal, H8 / sqrt 8) -> back into the lines; the outputs are two sign patterns
 *   (rows of H8) over the filtered line outputs, times the wet gain.
 *
 * The lines' lengths are distinct primes (so mutually prime) near base_ms x size, the
 * diffusers' fixed primes near their base lengths. Line i's filter has gain g_lo,i below
 * the crossover and g_hi,i above it, g = 10^(-3 d_i / (rate x RT60)), so a round trip
 * through any line loses 60 dB per RT60 in each band: H(z) = g_hi + (g_lo - g_hi) LP(z),
 * LP a second-order Butterworth state-variable low-pass at the crossover (its magnitude
 * never exceeds 1, so |H| <= max(g_lo, g_hi) < 1 and the loop is stable).
 *
 * Every delay read is at least one chunk (32 frames) plus two behind the write position,
 * so the network runs a chunk at a time: read every line's chunk, filter, mix, write. The
 * rings hold the longest delay at the largest size, sized at create from the sample
 * rate; nothing allocates later.
 *
 * Cost and sleep. When nothing sends and the state has died away, the reverb does
 * nothing at all: it sleeps once its input has stayed below 1e-8 (-160 dBFS) for longer
 * than its pre-delay and diffusers, and its line outputs for longer than its longest line
 * (then every float of its state is below 4e-8), and it clears its state to zero. Waking
 * starts from that zero state, so it is deterministic and cannot click. No float of the
 * state ever decays into the subnormal range (filter states are flushed below 1e-20 each
 * block besides), so there is no denormal slowdown however long the silence.
 *
 * Room changes move smoothly: the decay times and crossover geometrically, the other
 * levels linearly over the transition (coefficients recomputed per block), and the line
 * and pre-delay lengths glide at most 1/16 frame per frame with linear interpolation.
 */
#include "reverb.h"

#include <float.h>
#include <math.h>
#include <string.h>

#define MODULE "reverb"
#define EPS    1e-8f /* -160 dBFS: below this a sample counts as silence */

static const float line_ms[EAR__RV_LINES] = {21.1f, 24.7f, 28.3f, 31.3f,
                                             35.9f, 39.7f, 43.1f, 47.3f};
static const float diff_ms[EAR__RV_DIFF] = {4.3f, 5.9f, 7.7f, 10.3f};
/* Injection signs, and the two output rows of H8 (Sylvester order) for left and right. */
static const float in_sign[EAR__RV_LINES] = {1, 1, 1, -1, 1, -1, -1, -1};
static const float out_l[EAR__RV_LINES] = {1, -1, 1, -1, 1, -1, 1, -1};
static const float out_r[EAR__RV_LINES] = {1, 1, -1, -1, 1, 1, -1, -1};
#define ROOM_SIZE_MIN   0.25f
#define ROOM_SIZE_MAX   3.0f
#define PREDELAY_MAX_MS 200.0f
#define GLIDE_MAX       (1.0f / 16.0f) /* frames of delay change per frame */
#define MIN_TRANSITION  0.02f

/* ---- presets and checks ---------------------------------------------------------- */

static const char *const preset_names[EAR_REVERB_PRESET_COUNT] = {"room", "hall", "cave",
                                                                  "corridor", "outdoors"};
static const ear_reverb_params presets[EAR_REVERB_PRESET_COUNT] = {
    /* rt60 low, high, crossover, pre-delay, size, density, damping, wet */
    {0.7f, 0.45f, 1500.0f, 5.0f, 0.6f, 0.9f, 0.2f, 0.5f},   /* room */
    {2.2f, 1.5f, 1200.0f, 25.0f, 2.0f, 1.0f, 0.1f, 0.6f},   /* hall */
    {3.5f, 2.2f, 800.0f, 40.0f, 2.5f, 0.6f, 0.3f, 0.7f},    /* cave */
    {1.4f, 0.9f, 1500.0f, 8.0f, 0.9f, 0.5f, 0.15f, 0.6f},   /* corridor */
    {0.35f, 0.2f, 1000.0f, 20.0f, 1.5f, 0.3f, 0.5f, 0.25f}, /* outdoors */
};

ear_reverb_params ear_reverb_params_default(void) {
    return presets[EAR_REVERB_ROOM];
}

ear_result ear_reverb_preset_params(ear_reverb_preset preset, ear_reverb_params *out) {
    if ((unsigned)preset >= EAR_REVERB_PRESET_COUNT || !out) return EAR_E_INVALID_ARG;
    *out = presets[preset];
    return EAR_OK;
}

const char *ear_reverb_preset_name(ear_reverb_preset preset) {
    return (unsigned)preset < EAR_REVERB_PRESET_COUNT ? preset_names[preset] : NULL;
}

ear_result ear_reverb_preset_from_name(const char *name, ear_reverb_preset *out) {
    if (!name || !out) return EAR_E_INVALID_ARG;
    for (uint32_t k = 0; k < EAR_REVERB_PRESET_COUNT; k++)
        if (strcmp(name, preset_names[k]) == 0) {
            *out = (ear_reverb_preset)k;
            return EAR_OK;
        }
    return EAR_E_NOT_FOUND;
}

static bool in_range(float v, float lo, float hi) {
    return isfinite(v) && v >= lo && v <= hi;
}

ear_result ear_reverb_params_check(const ear_reverb_params *p, const char **out_field) {
    const char *bad = NULL;
    if (!p)
        bad = "params";
    else if (!in_range(p->rt60_low_s, 0.1f, 30.0f))
        bad = "rt60_low_s";
    else if (!in_range(p->rt60_high_s, 0.1f, 30.0f))
        bad = "rt60_high_s";
    else if (!in_range(p->crossover_hz, 50.0f, 10000.0f))
        bad = "crossover_hz";
    else if (!in_range(p->predelay_ms, 0.0f, PREDELAY_MAX_MS))
        bad = "predelay_ms";
    else if (!in_range(p->size, ROOM_SIZE_MIN, ROOM_SIZE_MAX))
        bad = "size";
    else if (!in_range(p->density, 0.0f, 1.0f))
        bad = "density";
    else if (!in_range(p->damping, 0.0f, 1.0f))
        bad = "damping";
    else if (!in_range(p->wet, 0.0f, 4.0f))
        bad = "wet";
    if (out_field) *out_field = bad;
    return bad ? EAR_E_INVALID_ARG : EAR_OK;
}

/* ---- lengths -------------------------------------------------------------------- */

static bool is_prime(uint32_t n) {
    if (n < 2) return false;
    if (n % 2 == 0) return n == 2;
    for (uint32_t d = 3; d * d <= n; d += 2)
        if (n % d == 0) return false;
    return true;
}

static uint32_t next_prime(uint32_t n) {
    while (!is_prime(n)) n++;
    return n;
}

/* The lines' lengths for a size at a rate: distinct increasing primes, each at least a
 * chunk and two. A few hundred trial divisions each; only when a room changes size. */
static void line_lengths(float size, uint32_t rate, uint32_t *out) {
    uint32_t prev = EAR__RV_CHUNK + 1u;
    for (uint32_t i = 0; i < EAR__RV_LINES; i++) {
        uint32_t x = (uint32_t)ceilf(line_ms[i] * size * (float)rate / 1000.0f);
        if (x < prev + 1u) x = prev + 1u;
        out[i] = prev = next_prime(x);
    }
}

static uint32_t diff_length(uint32_t k, uint32_t rate) {
    uint32_t x = (uint32_t)ceilf(diff_ms[k] * (float)rate / 1000.0f);
    return next_prime(x < EAR__RV_CHUNK ? EAR__RV_CHUNK : x);
}

static uint32_t predelay_frames(float ms, uint32_t rate) {
    return (uint32_t)lrintf(ms * (float)rate / 1000.0f);
}

/* ---- the layout --------------------------------------------------------------------- */

static uint32_t floats_16(uint32_t n) {
    return (n + 15u) & ~15u;
}

/* Where `count` floats go (NULL while measuring), after the `*f` floats placed so far. */
static float *place(float *base, size_t *f, size_t count) {
    float *p = base ? base + *f : NULL;
    *f += count;
    return p;
}

/* Walks the reverb's block: the struct, the block buffers, then the state (every ring,
 * contiguous, so clearing and scanning it is one pass). With rv NULL it only measures;
 * the pointers of a NULL walk are NULL and unused. */
static size_t lay_out(ear__reverb *rv, const ear_stage_config *c) {
    size_t at = (sizeof(ear__reverb) + 63u) & ~(size_t)63u;
    float *base = rv ? (float *)(void *)((unsigned char *)rv + at) : NULL;
    ear__reverb probe; /* the measuring walk writes here */
    ear__reverb *r = rv ? rv : &probe;
    size_t f = 0;
    uint32_t b = floats_16(c->block_frames);
    r->in = place(base, &f, b);
    for (uint32_t k = 0; k < EAR_BUS_COUNT; k++) r->bus_in[k] = place(base, &f, b);
    r->dry_l = place(base, &f, b);
    r->dry_r = place(base, &f, b);
    r->wet_l = place(base, &f, b);
    r->wet_r = place(base, &f, b);
    uint32_t lmax[EAR__RV_LINES];
    line_lengths(ROOM_SIZE_MAX, c->sample_rate, lmax);
    for (uint32_t i = 0; i < EAR__RV_LINES; i++) {
        r->line[i].len = floats_16(lmax[i] + EAR__RV_CHUNK + 4u);
        r->line[i].buf = place(base, &f, r->line[i].len);
    }
    for (uint32_t k = 0; k < EAR__RV_DIFF; k++) {
        r->diff[k].len = floats_16(diff_length(k, c->sample_rate) + EAR__RV_CHUNK + 4u);
        r->diff[k].buf = place(base, &f, r->diff[k].len);
    }
    r->pre.len =
        floats_16(predelay_frames(PREDELAY_MAX_MS, c->sample_rate) + EAR__RV_CHUNK + 4u);
    r->pre.buf = place(base, &f, r->pre.len);
    return at + f * sizeof(float);
}

size_t ear__reverb_bytes(const ear_stage_config *c) {
    return lay_out(NULL, c);
}

void ear__reverb_init(ear__reverb *rv, const ear_stage_config *c) {
    (void)lay_out(rv, c);
    uint32_t lmax[EAR__RV_LINES], l[EAR__RV_LINES];
    line_lengths(ROOM_SIZE_MAX, c->sample_rate, lmax);
    rv->line_max = lmax[EAR__RV_LINES - 1];
    rv->game = rv->cur = rv->from = rv->to = ear_reverb_params_default();
    line_lengths(rv->cur.size, c->sample_rate, l);
    for (uint32_t i = 0; i < EAR__RV_LINES; i++) rv->d_cur[i] = rv->d_tgt[i] = (float)l[i];
    for (uint32_t k = 0; k < EAR__RV_DIFF; k++) rv->diff_d[k] = diff_length(k, c->sample_rate);
    rv->pre_cur = rv->pre_tgt = (float)predelay_frames(rv->cur.predelay_ms, c->sample_rate);
    rv->u = 1.0f;
    atomic_init(&rv->awake_flag, 0u);
}

/* ---- game side -------------------------------------------------------------------- */

ear_result ear_stage_set_reverb(ear_stage *stage, const ear_reverb_params *params,
                                float transition_s) {
    if (!stage || !params) return EAR_E_INVALID_ARG;
    if (!stage->reverb) return EAR_E_UNSUPPORTED;
    const char *bad = NULL;
    if (ear_reverb_params_check(params, &bad) != EAR_OK) {
        ear_log(EAR_LOG_WARN, MODULE, "room refused: %s out of range (docs/stage.md)", bad);
        return EAR_E_INVALID_ARG;
    }
    if (!isfinite(transition_s) || transition_s < 0.0f) return EAR_E_INVALID_ARG;
    ear__collect(stage);
    ear_result r = ear__reserve(stage, 2);
    if (r != EAR_OK) return r;
    const ear_reverb_params *p = params;
    ear__cmd a = {.type = EAR__CMD_REVERB_A,
                  .u.f = {p->rt60_low_s, p->rt60_high_s, p->crossover_hz, p->predelay_ms,
                          p->size, p->density}};
    ear__cmd b = {.type = EAR__CMD_REVERB_B,
                  .u.f = {p->damping, p->wet,
                          transition_s < MIN_TRANSITION ? MIN_TRANSITION : transition_s}};
    (void)ear__send(stage, &a);
    (void)ear__send(stage, &b);
    stage->reverb->game = *p;
    return EAR_OK;
}

ear_reverb_params ear_stage_get_reverb(const ear_stage *stage) {
    if (!stage || !stage->reverb) return ear_reverb_params_default();
    return stage->reverb->game;
}

static float sane_send(float v) {
    if (!isfinite(v) || v < 0.0f) return 0.0f;
    return v > 1.0f ? 1.0f : v;
}

ear_result ear_stage_set_bus_reverb_send(ear_stage *stage, ear_bus bus, float send) {
    if (!stage || (unsigned)bus >= EAR_BUS_COUNT) return EAR_E_INVALID_ARG;
    if (!stage->reverb) return EAR_E_UNSUPPORTED;
    ear__collect(stage);
    float v = sane_send(send);
    ear__cmd cmd = {.type = EAR__CMD_REVERB_BUS, .u.rv_bus = {(uint32_t)bus, v}};
    ear_result r = ear__send(stage, &cmd);
    if (r == EAR_OK) stage->reverb->game_send[bus] = v;
    return r;
}

float ear_stage_get_bus_reverb_send(const ear_stage *stage, ear_bus bus) {
    if (!stage || !stage->reverb || (unsigned)bus >= EAR_BUS_COUNT) return 0.0f;
    return stage->reverb->game_send[bus];
}

ear_result ear_stage_set_reverb_send(ear_stage *stage, ear_voice_id id, float send) {
    if (!stage) return EAR_E_INVALID_ARG;
    if (!stage->reverb) return EAR_E_UNSUPPORTED;
    ear__collect(stage);
    uint32_t slot;
    if (!ear__id_slot(stage, id, &slot)) return EAR_E_STALE_ID;
    ear__cmd cmd = {.type = EAR__CMD_REVERB_SEND, .id = id, .u.value = sane_send(send)};
    return ear__send(stage, &cmd);
}

ear_reverb_state ear_stage_reverb_state(const ear_stage *stage) {
    ear_reverb_state st;
    memset(&st, 0, sizeof st);
    if (!stage || !stage->reverb) return st;
    const ear__reverb *rv = stage->reverb;
    st.awake = atomic_load_explicit(&rv->awake_flag, memory_order_relaxed) != 0u;
    st.blocks = rv->blocks;
    st.sleeps = rv->sleeps;
    const float *from = rv->line[0].buf, *to = rv->pre.buf + rv->pre.len;
    float peak = 0.0f;
    uint32_t sub = 0, count = 0;
    for (const float *p = from; p < to; p++, count++) {
        float a = fabsf(*p);
        if (a > 0.0f && a < FLT_MIN) sub++;
        if (a > peak) peak = a;
    }
    const float *extra[2] = {rv->ic1, rv->ic2};
    for (uint32_t k = 0; k < 2; k++)
        for (uint32_t i = 0; i < EAR__RV_LINES; i++, count++) {
            float a = fabsf(extra[k][i]);
            if (a > 0.0f && a < FLT_MIN) sub++;
            if (a > peak) peak = a;
        }
    float z = fabsf(rv->z_damp);
    if (z > 0.0f && z < FLT_MIN) sub++;
    if (z > peak) peak = z;
    st.subnormals = sub;
    st.peak = peak;
    st.state_floats = count + 1u;
    return st;
}

/* ---- audio side: commands and the room's change ------------------------------------ */

void ear__reverb_apply(ear_stage *s, const ear__cmd *c) {
    ear__reverb *rv = s->reverb;
    if (!rv) return;
    uint32_t rate = s->config.sample_rate;
    switch ((ear__cmd_type)c->type) {
    case EAR__CMD_REVERB_BUS: rv->send[c->u.rv_bus.bus] = c->u.rv_bus.send; return;
    case EAR__CMD_REVERB_A: memcpy(rv->pending, c->u.f, sizeof rv->pending); return;
    case EAR__CMD_REVERB_B: {
        ear_reverb_params p = {rv->pending[0], rv->pending[1], rv->pending[2], rv->pending[3],
                               rv->pending[4], rv->pending[5], c->u.f[0],      c->u.f[1]};
        float seconds = c->u.f[2];
        rv->from = rv->cur;
        rv->to = p;
        rv->u = 0.0f;
        rv->du = (float)(s->block_s / (double)seconds);
        rv->changing = true;
        /* The lengths glide over the transition, at most GLIDE_MAX frames per frame. */
        double frames = (double)seconds * (double)rate;
        uint32_t l[EAR__RV_LINES];
        line_lengths(p.size, rate, l);
        for (uint32_t i = 0; i < EAR__RV_LINES; i++) {
            rv->d_tgt[i] = (float)l[i];
            float r = (float)(fabs((double)rv->d_tgt[i] - (double)rv->d_cur[i]) / frames);
            rv->d_rate[i] = r > GLIDE_MAX ? GLIDE_MAX : r;
        }
        rv->pre_tgt = (float)predelay_frames(p.predelay_ms, rate);
        float r = (float)(fabs((double)rv->pre_tgt - (double)rv->pre_cur) / frames);
        rv->pre_rate = r > GLIDE_MAX ? GLIDE_MAX : r;
        return;
    }
    default: return;
    }
}

static float geo(float a, float b, float u) {
    return a * powf(b / a, u);
}

static float lin(float a, float b, float u) {
    return a + (b - a) * u;
}

/* One block of a room transition: this block's room. */
static void advance_room(ear__reverb *rv) {
    if (!rv->changing) return;
    rv->u += rv->du;
    if (rv->u >= 1.0f) {
        rv->u = 1.0f;
        rv->cur = rv->to;
        rv->changing = false;
    } else {
        const ear_reverb_params *a = &rv->from, *b = &rv->to;
        float u = rv->u;
        rv->cur.rt60_low_s = geo(a->rt60_low_s, b->rt60_low_s, u);
        rv->cur.rt60_high_s = geo(a->rt60_high_s, b->rt60_high_s, u);
        rv->cur.crossover_hz = geo(a->crossover_hz, b->crossover_hz, u);
        rv->cur.predelay_ms = lin(a->predelay_ms, b->predelay_ms, u);
        rv->cur.size = lin(a->size, b->size, u);
        rv->cur.density = lin(a->density, b->density, u);
        rv->cur.damping = lin(a->damping, b->damping, u);
        rv->cur.wet = lin(a->wet, b->wet, u);
    }
    rv->coeffs_valid = false;
}

static bool gliding(const ear__reverb *rv) {
    for (uint32_t i = 0; i < EAR__RV_LINES; i++)
        if (rv->d_cur[i] != rv->d_tgt[i]) return true;
    return rv->pre_cur != rv->pre_tgt;
}

/* This block's coefficients from the room and the lines' current lengths. */
static void coefficients(ear__reverb *rv, float rate) {
    const ear_reverb_params *p = &rv->cur;
    float dsum = 0.0f;
    for (uint32_t i = 0; i < EAR__RV_LINES; i++) {
        float d = rv->d_cur[i];
        dsum += d;
        rv->g_lo[i] = powf(10.0f, -3.0f * d / (rate * p->rt60_low_s));
        rv->g_hi[i] = powf(10.0f, -3.0f * d / (rate * p->rt60_high_s));
    }
    float fc = p->crossover_hz < 0.4f * rate ? p->crossover_hz : 0.4f * rate;
    float g = tanf((float)EAR__PI * fc / rate), k = 1.41421356f;
    rv->a1 = 1.0f / (1.0f + g * (g + k));
    rv->a2 = g * rv->a1;
    rv->a3 = g * rv->a2;
    rv->damp_G = ear__lowpass_G(20000.0f * powf(500.0f / 20000.0f, p->damping), rate);
    rv->diff_g = 0.7f * p->density;
    /* The tail's energy per channel, for white input, is wet^2 x RT60 / 1 s: a line
     * passes (1/8) / (1 - g^2) of the injected energy out, 1 - g^2 ~ 6 ln 10 d / (rate
     * RT60), so the rows of H8 are scaled by sqrt(6 ln 10 d_mean / rate). */
    float dmean = dsum / (float)EAR__RV_LINES;
    rv->out_gain = p->wet * sqrtf(13.8155106f * dmean / rate);
    rv->coeffs_valid = true;
}

/* ---- audio side: the network ------------------------------------------------------ */

static void ring_put(ear__rv_ring *r, const float *x, uint32_t n) {
    uint32_t w = r->w;
    for (uint32_t t = 0; t < n; t++) {
        r->buf[w] = x[t];
        if (++w == r->len) w = 0;
    }
    r->w = w;
}

/* n frames at delays d0 + (d1 - d0)(t + 1) / n behind position base + t, into
 * out[t * stride]: whole delays read samples, others interpolate linearly. */
static void ring_tap(const ear__rv_ring *r, uint32_t base, float d0, float d1, uint32_t n,
                     float *out, uint32_t stride) {
    uint32_t len = r->len;
    if (d0 == d1 && d0 == floorf(d0)) {
        uint32_t d = (uint32_t)d0;
        uint32_t j = base >= d ? base - d : base + len - d;
        for (uint32_t t = 0; t < n; t++) {
            out[t * stride] = r->buf[j];
            if (++j == len) j = 0;
        }
        return;
    }
    float dd = (d1 - d0) / (float)n;
    for (uint32_t t = 0; t < n; t++) {
        float d = d0 + dd * (float)(t + 1u);
        uint32_t di = (uint32_t)d;
        float fr = d - (float)di;
        uint32_t p = base + t;
        uint32_t j0 = p >= di ? p - di : p + len - di;
        if (j0 >= len) j0 -= len;
        uint32_t j1 = j0 == 0 ? len - 1u : j0 - 1u;
        out[t * stride] = r->buf[j0] * (1.0f - fr) + r->buf[j1] * fr;
    }
}

static float glide(float cur, float tgt, float rate, uint32_t n) {
    float step = rate * (float)n;
    if (fabsf(tgt - cur) <= step) return tgt;
    return cur + (tgt > cur ? step : -step);
}

/* One chunk: in[n] into the network, its output added into ol/or. Returns the largest
 * line output (for the sleep rule). */
static float chunk(ear__reverb *rv, const float *in, float *ol, float *or_, uint32_t n) {
    float x[EAR__RV_CHUNK], r[EAR__RV_CHUNK];
    float tap[EAR__RV_CHUNK][EAR__RV_LINES];
    /* Pre-delay (no feedback: written first, so a delay of 0 reads this chunk). */
    uint32_t base = rv->pre.w;
    for (uint32_t t = 0; t < n; t++) x[t] = fabsf(in[t]) < 1e-20f ? 0.0f : in[t];
    ring_put(&rv->pre, x, n);
    float p1 = glide(rv->pre_cur, rv->pre_tgt, rv->pre_rate, n);
    ring_tap(&rv->pre, base, rv->pre_cur, p1, n, x, 1);
    rv->pre_cur = p1;
    /* Damping: a one-pole TPT low-pass. */
    float G = rv->damp_G, z = rv->z_damp;
    if (G < 1.0f) {
        for (uint32_t t = 0; t < n; t++) {
            float v = (x[t] - z) * G;
            float y = v + z;
            z = y + v;
            x[t] = y;
        }
        rv->z_damp = z;
    }
    /* Diffusion: allpasses w = x + g r, y = r - g w, r = w delayed by D >= a chunk. */
    float g = rv->diff_g;
    if (g > 0.0f) {
        for (uint32_t k = 0; k < EAR__RV_DIFF; k++) {
            ear__rv_ring *ap = &rv->diff[k];
            uint32_t b0 = ap->w;
            ring_tap(ap, b0, (float)rv->diff_d[k], (float)rv->diff_d[k], n, r, 1);
            for (uint32_t t = 0; t < n; t++) {
                float w = x[t] + g * r[t];
                x[t] = r[t] - g * w;
                /* The allpass's own loop decays by g every D frames: flushed long
                 * before it could turn subnormal. */
                r[t] = fabsf(w) < 1e-20f ? 0.0f : w;
            }
            ring_put(ap, r, n);
        }
    }
    /* The lines' outputs, chunk by chunk, side by side. */
    uint32_t lb[EAR__RV_LINES];
    for (uint32_t i = 0; i < EAR__RV_LINES; i++) {
        lb[i] = rv->line[i].w;
        float d1 = glide(rv->d_cur[i], rv->d_tgt[i], rv->d_rate[i], n);
        ring_tap(&rv->line[i], lb[i], rv->d_cur[i], d1, n, &tap[0][i], EAR__RV_LINES);
        rv->d_cur[i] = d1;
    }
    float peak = 0.0f;
    if (rv->quiet_in > 0u)
        for (uint32_t t = 0; t < n; t++)
            for (uint32_t i = 0; i < EAR__RV_LINES; i++) {
                float a = fabsf(tap[t][i]);
                peak = a > peak ? a : peak;
            }
    /* Two-band decay filters, every line at once per frame. */
    float ic1[EAR__RV_LINES], ic2[EAR__RV_LINES], glo[EAR__RV_LINES], gd[EAR__RV_LINES];
    for (uint32_t i = 0; i < EAR__RV_LINES; i++) {
        ic1[i] = rv->ic1[i], ic2[i] = rv->ic2[i];
        glo[i] = rv->g_hi[i], gd[i] = rv->g_lo[i] - rv->g_hi[i];
    }
    float a1 = rv->a1, a2 = rv->a2, a3 = rv->a3;
    for (uint32_t t = 0; t < n; t++) {
        for (uint32_t i = 0; i < EAR__RV_LINES; i++) {
            float v = tap[t][i];
            float v3 = v - ic2[i];
            float v1 = a1 * ic1[i] + a2 * v3;
            float v2 = ic2[i] + a2 * ic1[i] + a3 * v3;
            ic1[i] = 2.0f * v1 - ic1[i];
            ic2[i] = 2.0f * v2 - ic2[i];
            tap[t][i] = glo[i] * v + gd[i] * v2;
        }
    }
    for (uint32_t i = 0; i < EAR__RV_LINES; i++) rv->ic1[i] = ic1[i], rv->ic2[i] = ic2[i];
    /* Output rows, then the Hadamard mix and the input back into the lines. */
    float og = rv->out_gain, h = 0.35355339f; /* 1 / sqrt 8 */
    for (uint32_t t = 0; t < n; t++) {
        float *v = tap[t];
        float sl = 0.0f, sr = 0.0f;
        for (uint32_t i = 0; i < EAR__RV_LINES; i++) {
            sl += out_l[i] * v[i];
            sr += out_r[i] * v[i];
        }
        ol[t] += og * sl;
        or_[t] += og * sr;
        float b0 = v[0] + v[1], b1 = v[0] - v[1], b2 = v[2] + v[3], b3 = v[2] - v[3];
        float b4 = v[4] + v[5], b5 = v[4] - v[5], b6 = v[6] + v[7], b7 = v[6] - v[7];
        float c0 = b0 + b2, c2 = b0 - b2, c1 = b1 + b3, c3 = b1 - b3;
        float c4 = b4 + b6, c6 = b4 - b6, c5 = b5 + b7, c7 = b5 - b7;
        float xi = x[t];
        v[0] = h * (c0 + c4 + in_sign[0] * xi);
        v[1] = h * (c1 + c5 + in_sign[1] * xi);
        v[2] = h * (c2 + c6 + in_sign[2] * xi);
        v[3] = h * (c3 + c7 + in_sign[3] * xi);
        v[4] = h * (c0 - c4 + in_sign[4] * xi);
        v[5] = h * (c1 - c5 + in_sign[5] * xi);
        v[6] = h * (c2 - c6 + in_sign[6] * xi);
        v[7] = h * (c3 - c7 + in_sign[7] * xi);
    }
    for (uint32_t i = 0; i < EAR__RV_LINES; i++) {
        ear__rv_ring *l = &rv->line[i];
        uint32_t w = lb[i];
        for (uint32_t t = 0; t < n; t++) {
            l->buf[w] = tap[t][i];
            if (++w == l->len) w = 0;
        }
        l->w = w;
    }
    return peak;
}

static void clear_state(ear__reverb *rv) {
    float *from = rv->line[0].buf, *to = rv->pre.buf + rv->pre.len;
    memset(from, 0, (size_t)(to - from) * sizeof(float));
    memset(rv->ic1, 0, sizeof rv->ic1);
    memset(rv->ic2, 0, sizeof rv->ic2);
    rv->z_damp = 0.0f;
}

static float *bus_in(ear__reverb *rv, uint8_t bus, uint32_t n) {
    if (!rv->bus_in_used[bus]) {
        memset(rv->bus_in[bus], 0, n * sizeof(float));
        rv->bus_in_used[bus] = true;
    }
    return rv->bus_in[bus];
}

bool ear__reverb_voice_render(ear_stage *s, ear__voice *v, const ear__targets *t,
                              const ear__kernel_io *io, ear__group *group) {
    ear__reverb *rv = s->reverb;
    if (group->n) s->kernel->group_finish(group, io);
    uint32_t n = io->frames;
    float *dl = rv->dry_l, *dr = rv->dry_r;
    memset(dl, 0, n * sizeof(float));
    memset(dr, 0, n * sizeof(float));
    ear__kernel_io bio = *io;
    bio.mix_l = dl;
    bio.mix_r = dr;
    bool ended = s->kernel->render(v, &bio, t);
    for (uint32_t j = 0; j < n; j++) {
        io->mix_l[j] += dl[j];
        io->mix_r[j] += dr[j];
    }
    /* Far voices send relatively more: send / sqrt(distance x cone gain). */
    float far = 1.0f;
    if (v->placed) {
        float g = v->sp.distance_gain;
        far = g > 1e-4f ? 1.0f / sqrtf(g) : 100.0f;
    }
    /* A voice's first block sends at once (as its dry part starts at its targets). */
    float g1 = v->rv_send * far, g0 = v->rendered_blocks == 0 ? g1 : v->rv_g;
    if (g0 > 0.0f || g1 > 0.0f) {
        float *acc = bus_in(rv, v->bus, n);
        float dg = (g1 - g0) / (float)n;
        for (uint32_t j = 0; j < n; j++)
            acc[j] += (g0 + dg * (float)(j + 1u)) * 0.5f * (dl[j] + dr[j]);
    }
    v->rv_g = g1;
    return ended;
}

bool ear__reverb_gather(ear_stage *s, const float *gains1) {
    ear__reverb *rv = s->reverb;
    if (!rv) return false;
    advance_room(rv);
    uint32_t n = s->config.block_frames;
    bool any = false;
    for (uint32_t b = 0; b < EAR_BUS_COUNT; b++) {
        bool vin = rv->bus_in_used[b];
        bool bsend = (rv->send[b] > 0.0f || rv->send_g[b] > 0.0f) && s->bus_used[b];
        float s0 = rv->send_g[b], s1 = rv->send[b];
        rv->send_g[b] = s1;
        rv->bus_in_used[b] = false;
        if (!vin && !bsend) continue;
        if (!any) memset(rv->in, 0, n * sizeof(float));
        any = true;
        /* The master's own voices take the master gain later, with everything else. */
        float g0 = b == EAR_BUS_MASTER ? 1.0f : s->bus_gain[b];
        float g1 = b == EAR_BUS_MASTER ? 1.0f : gains1[b];
        float dg = (g1 - g0) / (float)n, ds = (s1 - s0) / (float)n;
        const float *vs = rv->bus_in[b], *bl = s->bus_l[b], *br = s->bus_r[b];
        for (uint32_t j = 0; j < n; j++) {
            float f = (float)(j + 1u);
            float x = vin ? vs[j] : 0.0f;
            if (bsend) x += (s0 + ds * f) * 0.5f * (bl[j] + br[j]);
            rv->in[j] += (g0 + dg * f) * x;
        }
    }
    float peak = 0.0f;
    if (any)
        for (uint32_t j = 0; j < n; j++) {
            float a = fabsf(rv->in[j]);
            peak = a > peak ? a : peak;
        }
    if (peak > EPS) {
        if (!rv->awake) {
            rv->awake = true;
            rv->quiet_taps = 0;
            atomic_store_explicit(&rv->awake_flag, 1u, memory_order_relaxed);
        }
        rv->quiet_in = 0;
    } else {
        if (!rv->awake) {
            /* Asleep: nothing to bend, the lengths are where the room wants them. */
            memcpy(rv->d_cur, rv->d_tgt, sizeof rv->d_cur);
            rv->pre_cur = rv->pre_tgt;
            return false;
        }
        if (!any) memset(rv->in, 0, n * sizeof(float));
        rv->quiet_in += n;
    }
    return true;
}

void ear__reverb_render(ear_stage *s, float *ml, float *mr) {
    ear__reverb *rv = s->reverb;
    uint32_t n = s->config.block_frames;
    float rate = (float)s->config.sample_rate;
    if (!rv->coeffs_valid || gliding(rv)) coefficients(rv, rate);
    float *wl = rv->wet_l, *wr = rv->wet_r;
    memset(wl, 0, n * sizeof(float));
    memset(wr, 0, n * sizeof(float));
    float peak = 0.0f;
    for (uint32_t at = 0; at < n; at += EAR__RV_CHUNK) {
        uint32_t c = n - at < EAR__RV_CHUNK ? n - at : EAR__RV_CHUNK;
        float p = chunk(rv, rv->in + at, wl + at, wr + at, c);
        peak = p > peak ? p : peak;
    }
    for (uint32_t j = 0; j < n; j++) {
        ml[j] += wl[j];
        mr[j] += wr[j];
    }
    rv->blocks++;
    /* Filter states that have died away go to zero before they can turn subnormal. */
    for (uint32_t i = 0; i < EAR__RV_LINES; i++) {
        if (fabsf(rv->ic1[i]) < 1e-20f) rv->ic1[i] = 0.0f;
        if (fabsf(rv->ic2[i]) < 1e-20f) rv->ic2[i] = 0.0f;
    }
    if (fabsf(rv->z_damp) < 1e-20f) rv->z_damp = 0.0f;
    /* The sleep rule (see the top of the file). */
    if (rv->quiet_in == 0u || peak > EPS) {
        rv->quiet_taps = 0;
        return;
    }
    rv->quiet_taps += n;
    uint32_t feed = (uint32_t)rv->pre_cur + n;
    for (uint32_t k = 0; k < EAR__RV_DIFF; k++) feed += rv->diff_d[k];
    if (rv->quiet_in >= feed && rv->quiet_taps >= rv->line_max + n) {
        clear_state(rv);
        rv->awake = false;
        rv->quiet_in = rv->quiet_taps = 0;
        rv->sleeps++;
        atomic_store_explicit(&rv->awake_flag, 0u, memory_order_relaxed);
    }
}
