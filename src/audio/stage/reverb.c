/* SPDX-License-Identifier: Zlib */
/*
 * The room reverb: a feedback delay network per stage (two of them, for room changes), fed
 * by voices' and buses' sends, its wet output added into the master before the master gain
 * (docs/stage.md, "Room reverb", has every formula).
 *
 * Signal path, per frame, mono in and stereo out:
 *
 *   sends -> pre-delay -> damping low-pass -> 4 series allpasses (diffusion) -> into the
 *   8 lines (signs b_i / sqrt 8) -> each line's two-band decay filter -> Hadamard mix
 *   (orthonormal, H8 / sqrt 8) -> back into the lines; the outputs are two sign patterns
 *   (rows of H8) over the filtered line outputs and over taps inside the lines (so a
 *   first pass already reaches each ear 16 times), times the wet gain.
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
 * Room changes. A network's lengths (size, pre-delay) never change while it rings: a room
 * of the same lengths moves its levels in place (decay times and crossover geometrically,
 * the rest linearly, coefficients recomputed per block). A room of other lengths goes to
 * the other network (cleared, asleep): the input crossfades to it over the transition
 * (sin / cos), while the old room's tail rings out in its own room, as in a real doorway.
 * When the other network is still ringing from an older room, its tail first fades out
 * over 50 ms (smoothstep), then the switch happens. Walking back into the room just left
 * reuses the network still ringing with it. Delay lengths never glide, so no tail bends in
 * pitch and nothing clicks (tests/stage/test_reverb.c measures it).
 *
 * Memory: the two networks' rings at the largest size (3) and pre-delay (200 ms), about
 * 400 KB at 48 kHz (proportional to the rate), carved from the stage's one allocation.
 */
#include "portable_math.h"
#include "reverb.h"

#include <float.h>
#include <math.h>
#include <string.h>

#define MODULE "reverb"
#if defined(__GNUC__) && !defined(EAR_REVERB_PORTABLE)
typedef float rv_v4 __attribute__((vector_size(16)));
#endif
#define EPS 1e-8f /* -160 dBFS: below this a sample counts as silence */

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
/* Measured: the tail's energy over the formula's (docs/stage.md). */
#define RV_ENERGY_TRIM 1.09f
#define MIN_TRANSITION 0.02f
#define EVICT_S        0.05f /* an older room's tail fades out over this, smoothstep */

/* ---- presets and checks ---------------------------------------------------------- */

static const char *const preset_names[EAR_REVERB_PRESET_COUNT] = {"room", "hall", "cave",
                                                                  "corridor", "outdoors"};
static const ear_reverb_params presets[EAR_REVERB_PRESET_COUNT] = {
    /* rt60 low, high, crossover, pre-delay, size, density, damping, wet */
    {0.7f, 0.45f, 1500.0f, 5.0f, 0.6f, 0.9f, 0.2f, 0.5f},   /* room */
    {2.2f, 1.5f, 1200.0f, 25.0f, 2.0f, 1.0f, 0.1f, 0.6f},   /* hall */
    {3.5f, 2.2f, 800.0f, 40.0f, 1.8f, 0.8f, 0.3f, 0.7f},    /* cave */
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

/* The diffusers' lengths (the same in every room: measured, scaling them with the size
 * made a hall's echo density build later, not sooner). */
static uint32_t diff_length(uint32_t k, float size, uint32_t rate) {
    (void)size;
    uint32_t x = (uint32_t)ceilf(diff_ms[k] * (float)rate / 1000.0f);
    return next_prime(x < EAR__RV_CHUNK ? EAR__RV_CHUNK : x);
}

static uint32_t predelay_frames(float ms, uint32_t rate) {
    return (uint32_t)lrintf(ms * (float)rate / 1000.0f);
}

/* Where inside each line the outputs also tap (fractions of its length): a first pass
 * already reaches the output at 16 different times, so the echo density builds early. */
static const float tap_l[EAR__RV_LINES] = {0.31f, 0.57f, 0.43f, 0.73f,
                                           0.37f, 0.61f, 0.47f, 0.67f};
static const float tap_r[EAR__RV_LINES] = {0.59f, 0.33f, 0.71f, 0.41f,
                                           0.63f, 0.39f, 0.53f, 0.45f};

static uint32_t inner_tap(uint32_t d, float f) {
    uint32_t e = (uint32_t)lrintf((float)d * f);
    return e < EAR__RV_CHUNK + 2u ? EAR__RV_CHUNK + 2u : e;
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

/* Walks the reverb's block: the struct, the block buffers, then each network's rings
 * (contiguous, so clearing and scanning one is one pass). With rv NULL it only measures;
 * the pointers of that walk are NULL and unused. */
static size_t lay_out(ear__reverb *rv, const ear_stage_config *c) {
    size_t at = (sizeof(ear__reverb) + 63u) & ~(size_t)63u;
    float *base = rv ? (float *)(void *)((unsigned char *)rv + at) : NULL;
    ear__reverb probe; /* the measuring walk writes here */
    ear__reverb *r = rv ? rv : &probe;
    size_t f = 0;
    uint32_t b = floats_16(c->block_frames);
    r->in = place(base, &f, b);
    r->slot_in = place(base, &f, b);
    for (uint32_t k = 0; k < EAR_BUS_COUNT; k++) r->bus_in[k] = place(base, &f, b);
    r->dry_l = place(base, &f, b);
    r->dry_r = place(base, &f, b);
    r->wet_l = place(base, &f, b);
    r->wet_r = place(base, &f, b);
    uint32_t lmax[EAR__RV_LINES];
    line_lengths(ROOM_SIZE_MAX, c->sample_rate, lmax);
    for (uint32_t k = 0; k < 2; k++) {
        ear__fdn *n = &r->fdn[k];
        size_t first = f;
        for (uint32_t i = 0; i < EAR__RV_LINES; i++) {
            n->line[i].len = floats_16(lmax[i] + EAR__RV_CHUNK + 4u);
            n->line[i].buf = place(base, &f, n->line[i].len);
        }
        for (uint32_t d = 0; d < EAR__RV_DIFF; d++) {
            n->diff[d].len =
                floats_16(diff_length(d, ROOM_SIZE_MAX, c->sample_rate) + EAR__RV_CHUNK + 4u);
            n->diff[d].buf = place(base, &f, n->diff[d].len);
        }
        n->pre.len =
            floats_16(predelay_frames(PREDELAY_MAX_MS, c->sample_rate) + EAR__RV_CHUNK + 4u);
        n->pre.buf = place(base, &f, n->pre.len);
        n->state = n->line[0].buf;
        n->state_floats = (uint32_t)(f - first);
    }
    return at + f * sizeof(float);
}

size_t ear__reverb_bytes(const ear_stage_config *c) {
    return lay_out(NULL, c);
}

/* A network takes a room at once (its state must be silent: asleep). */
static void set_room(ear__reverb *rv, ear__fdn *n, const ear_reverb_params *room) {
    n->cur = n->from = n->to = *room;
    n->changing = false;
    n->coeffs_valid = false;
    line_lengths(room->size, rv->rate, n->d);
    for (uint32_t i = 0; i < EAR__RV_LINES; i++) {
        n->el[i] = inner_tap(n->d[i], tap_l[i]);
        n->er[i] = inner_tap(n->d[i], tap_r[i]);
    }
    n->pre_d = predelay_frames(room->predelay_ms, rv->rate);
    for (uint32_t d = 0; d < EAR__RV_DIFF; d++)
        n->diff_d[d] = diff_length(d, room->size, rv->rate);
}

void ear__reverb_init(ear__reverb *rv, const ear_stage_config *c) {
    (void)lay_out(rv, c);
    rv->rate = c->sample_rate;
    rv->block = c->block_frames;
    rv->game = ear_reverb_params_default();
    for (uint32_t k = 0; k < 2; k++) {
        ear__fdn *n = &rv->fdn[k];
        set_room(rv, n, &rv->game);
        n->in_p = n->in_tgt = k == 0 ? 1.0f : 0.0f;
        n->out_g = n->out_tgt = 1.0f;
    }
    rv->active = 0;
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

static void scan(float v, float *peak, uint32_t *sub) {
    float a = fabsf(v);
    if (a > 0.0f && a < FLT_MIN) (*sub)++;
    if (a > *peak) *peak = a;
}

ear_reverb_state ear_stage_reverb_state(const ear_stage *stage) {
    ear_reverb_state st;
    memset(&st, 0, sizeof st);
    if (!stage || !stage->reverb) return st;
    const ear__reverb *rv = stage->reverb;
    st.awake = atomic_load_explicit(&rv->awake_flag, memory_order_relaxed) != 0u;
    st.blocks = rv->blocks;
    st.sleeps = rv->sleeps;
    float peak = 0.0f;
    uint32_t sub = 0, count = 0;
    for (uint32_t k = 0; k < 2; k++) {
        const ear__fdn *n = &rv->fdn[k];
        for (uint32_t i = 0; i < n->state_floats; i++) scan(n->state[i], &peak, &sub);
        for (uint32_t i = 0; i < EAR__RV_LINES; i++) {
            scan(n->ic1[i], &peak, &sub);
            scan(n->ic2[i], &peak, &sub);
        }
        scan(n->z_damp, &peak, &sub);
        count += n->state_floats + 2u * EAR__RV_LINES + 1u;
    }
    st.subnormals = sub;
    st.peak = peak;
    st.state_floats = count;
    return st;
}

/* ---- audio side: rooms -------------------------------------------------------------- */

static bool same_lengths(const ear_reverb_params *a, const ear_reverb_params *b) {
    return a->size == b->size && a->predelay_ms == b->predelay_ms;
}

/* Moves a network's levels to the room's over `seconds` (its lengths are the room's). */
static void change_in_place(ear__reverb *rv, ear__fdn *n, const ear_reverb_params *room,
                            float seconds) {
    n->from = n->cur;
    n->to = *room;
    n->u = 0.0f;
    n->du = (float)((double)rv->block / ((double)seconds * (double)rv->rate));
    n->changing = true;
}

/* The room moves to network k: its input share rises over `seconds` (sin), the other's
 * falls (and its tail rings out in its own room). */
static void switch_to(ear__reverb *rv, uint32_t k, float seconds) {
    float rate = (float)((double)rv->block / ((double)seconds * (double)rv->rate));
    ear__fdn *n = &rv->fdn[k], *o = &rv->fdn[1u - k];
    n->in_tgt = 1.0f;
    n->in_rate = rate;
    n->out_tgt = 1.0f;
    n->out_rate = rate;
    o->in_tgt = 0.0f;
    o->in_rate = rate;
    rv->active = k;
}

static void clear_state(ear__fdn *n) {
    memset(n->state, 0, (size_t)n->state_floats * sizeof(float));
    memset(n->ic1, 0, sizeof n->ic1);
    memset(n->ic2, 0, sizeof n->ic2);
    n->z_damp = 0.0f;
    n->awake = false;
    n->quiet_in = n->quiet_taps = 0;
}

/* A new room. Same lengths as the active network's: its levels move in place. The active
 * network silent: it takes the room at once. The other network holding the same lengths
 * (walking back into the room just left): its levels move and the room moves back to it.
 * The other silent: it takes the room and the inputs crossfade. Else the other is still
 * ringing from an older room: it fades out over 20 ms first (evicted), then as before. */
static void new_room(ear__reverb *rv, const ear_reverb_params *p, float seconds) {
    uint32_t k = rv->active;
    ear__fdn *a = &rv->fdn[k], *o = &rv->fdn[1u - k];
    rv->pending = false;
    if (same_lengths(&a->to, p)) {
        change_in_place(rv, a, p, seconds);
        switch_to(rv, k, seconds); /* undoes an eviction or a switch in progress */
        return;
    }
    if (!a->awake) {
        set_room(rv, a, p);
        switch_to(rv, k, seconds);
        return;
    }
    if (o->awake && o->out_tgt > 0.0f && same_lengths(&o->to, p)) {
        change_in_place(rv, o, p, seconds);
        switch_to(rv, 1u - k, seconds);
        return;
    }
    if (!o->awake) {
        set_room(rv, o, p);
        switch_to(rv, 1u - k, seconds);
        return;
    }
    float evict = (float)((double)rv->block / ((double)EVICT_S * (double)rv->rate));
    o->out_tgt = 0.0f;
    o->out_rate = evict;
    o->in_tgt = 0.0f;
    o->in_rate = evict > o->in_rate ? evict : o->in_rate;
    rv->pending = true;
    rv->pending_room = *p;
    rv->pending_s = seconds;
}

void ear__reverb_apply(ear_stage *s, const ear__cmd *c) {
    ear__reverb *rv = s->reverb;
    if (!rv) return;
    switch ((ear__cmd_type)c->type) {
    case EAR__CMD_REVERB_BUS: rv->send[c->u.rv_bus.bus] = c->u.rv_bus.send; return;
    case EAR__CMD_REVERB_A: memcpy(rv->pending_a, c->u.f, sizeof rv->pending_a); return;
    case EAR__CMD_REVERB_B: {
        const float *x = rv->pending_a;
        ear_reverb_params p = {x[0], x[1], x[2], x[3], x[4], x[5], c->u.f[0], c->u.f[1]};
        new_room(rv, &p, c->u.f[2]);
        return;
    }
    default: return;
    }
}

static float geo(float a, float b, float u) {
    return a * ear__powf(b / a, u);
}

static float lin(float a, float b, float u) {
    return a + (b - a) * u;
}

/* One block of a network's level change: this block's room. */
static void advance_room(ear__fdn *n) {
    if (!n->changing) return;
    n->u += n->du;
    if (n->u >= 1.0f) {
        n->u = 1.0f;
        n->cur = n->to;
        n->changing = false;
    } else {
        const ear_reverb_params *a = &n->from, *b = &n->to;
        float u = n->u;
        n->cur.rt60_low_s = geo(a->rt60_low_s, b->rt60_low_s, u);
        n->cur.rt60_high_s = geo(a->rt60_high_s, b->rt60_high_s, u);
        n->cur.crossover_hz = geo(a->crossover_hz, b->crossover_hz, u);
        n->cur.density = lin(a->density, b->density, u);
        n->cur.damping = lin(a->damping, b->damping, u);
        n->cur.wet = lin(a->wet, b->wet, u);
    }
    n->coeffs_valid = false;
}

static float step_to(float cur, float tgt, float rate) {
    if (fabsf(tgt - cur) <= rate) return tgt;
    return cur + (tgt > cur ? rate : -rate);
}

/* This block's coefficients from the network's room. */
static void coefficients(ear__fdn *n, float rate) {
    const ear_reverb_params *p = &n->cur;
    float dsum = 0.0f;
    for (uint32_t i = 0; i < EAR__RV_LINES; i++) {
        float d = (float)n->d[i];
        dsum += d;
        n->g_lo[i] = ear__exp10f(-3.0f * d / (rate * p->rt60_low_s));
        n->g_hi[i] = ear__exp10f(-3.0f * d / (rate * p->rt60_high_s));
    }
    float fc = p->crossover_hz < 0.4f * rate ? p->crossover_hz : 0.4f * rate;
    float g = ear__tanf((float)EAR__PI * fc / rate), k = 1.41421356f;
    n->a1 = 1.0f / (1.0f + g * (g + k));
    n->a2 = g * n->a1;
    n->a3 = g * n->a2;
    n->damp_G = ear__lowpass_G(20000.0f * ear__powf(500.0f / 20000.0f, p->damping), rate);
    n->diff_g = 0.7f * p->density;
    /* The tail's energy per channel, for white input, is about wet^2 x RT60 / 1 s: a line
     * passes (1/8) / (1 - g^2) of the injected energy out per tap, 1 - g^2 ~ 6 ln 10 d /
     * (rate RT60), and each channel reads two taps a line; so the rows of H8 are scaled by
     * sqrt(6 ln 10 d_mean / (2 rate)) (docs/stage.md has the measured energies). */
    float dmean = dsum / (float)EAR__RV_LINES;
    n->out_gain = p->wet * sqrtf(13.8155106f * dmean / (2.0f * rate)) * RV_ENERGY_TRIM;
    n->coeffs_valid = true;
}

/* ---- audio side: the network ------------------------------------------------------ */

/* The rings are read and written in at most two contiguous runs (before and after the
 * wrap), so the loops vectorise. */
static void ring_put(ear__rv_ring *r, const float *x, uint32_t n) {
    uint32_t w = r->w, first = r->len - w < n ? r->len - w : n;
    memcpy(r->buf + w, x, first * sizeof(float));
    memcpy(r->buf, x + first, (n - first) * sizeof(float));
    w += n;
    r->w = w >= r->len ? w - r->len : w;
}

static uint32_t tap_start(const ear__rv_ring *r, uint32_t base, uint32_t d) {
    return base >= d ? base - d : base + r->len - d;
}

/* n frames at delay d behind position base + t, into out[t * stride]. */
static void ring_tap(const ear__rv_ring *r, uint32_t base, uint32_t d, uint32_t n, float *out,
                     uint32_t stride) {
    uint32_t j = tap_start(r, base, d), first = r->len - j < n ? r->len - j : n;
    const float *a = r->buf + j;
    for (uint32_t t = 0; t < first; t++) out[t * stride] = a[t];
    for (uint32_t t = first; t < n; t++) out[t * stride] = r->buf[t - first];
}

/* And added in, times g. */
static void ring_tap_add(const ear__rv_ring *r, uint32_t base, uint32_t d, uint32_t n,
                         float *acc, float g) {
    uint32_t j = tap_start(r, base, d), first = r->len - j < n ? r->len - j : n;
    const float *a = r->buf + j;
    for (uint32_t t = 0; t < first; t++) acc[t] += g * a[t];
    for (uint32_t t = first; t < n; t++) acc[t] += g * r->buf[t - first];
}

/* One chunk of one network: in[n] through it, its output added into ol/or. Returns the
 * largest line output (for the sleep rule). */
static float chunk(ear__fdn *nw, const float *in, float *ol, float *or_, uint32_t n) {
    float x[EAR__RV_CHUNK], r[EAR__RV_CHUNK], el[EAR__RV_CHUNK], er[EAR__RV_CHUNK];
    float tap[EAR__RV_CHUNK][EAR__RV_LINES];
    /* Pre-delay (no feedback: written first, so a delay of 0 reads this chunk). */
    uint32_t base = nw->pre.w;
    for (uint32_t t = 0; t < n; t++) x[t] = fabsf(in[t]) < 1e-20f ? 0.0f : in[t];
    ring_put(&nw->pre, x, n);
    ring_tap(&nw->pre, base, nw->pre_d, n, x, 1);
    /* Damping: a one-pole TPT low-pass. */
    float G = nw->damp_G, z = nw->z_damp;
    if (G < 1.0f) {
        for (uint32_t t = 0; t < n; t++) {
            float v = (x[t] - z) * G;
            float y = v + z;
            z = y + v;
            x[t] = y;
        }
        nw->z_damp = z;
    }
    /* Diffusion: allpasses w = x + g r, y = r - g w, r = w delayed by D >= a chunk. */
    float g = nw->diff_g;
    if (g > 0.0f) {
        for (uint32_t k = 0; k < EAR__RV_DIFF; k++) {
            ear__rv_ring *ap = &nw->diff[k];
            ring_tap(ap, ap->w, nw->diff_d[k], n, r, 1);
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
    /* The lines' outputs side by side, and the inner taps summed per channel. */
    memset(el, 0, n * sizeof(float));
    memset(er, 0, n * sizeof(float));
    for (uint32_t i = 0; i < EAR__RV_LINES; i++) {
        const ear__rv_ring *l = &nw->line[i];
        ring_tap(l, l->w, nw->d[i], n, &tap[0][i], EAR__RV_LINES);
        ring_tap_add(l, l->w, nw->el[i], n, el, out_l[i]);
        ring_tap_add(l, l->w, nw->er[i], n, er, out_r[i]);
    }
    float peak = 0.0f;
    if (nw->quiet_in > 0u)
        for (uint32_t t = 0; t < n; t++)
            for (uint32_t i = 0; i < EAR__RV_LINES; i++) {
                float a = fabsf(tap[t][i]);
                peak = a > peak ? a : peak;
            }
    /* Two-band decay filters, every line at once per frame. */
    float ic1[EAR__RV_LINES], ic2[EAR__RV_LINES], ghi[EAR__RV_LINES], gd[EAR__RV_LINES];
    for (uint32_t i = 0; i < EAR__RV_LINES; i++) {
        ic1[i] = nw->ic1[i], ic2[i] = nw->ic2[i];
        ghi[i] = nw->g_hi[i], gd[i] = nw->g_lo[i] - nw->g_hi[i];
    }
    float a1 = nw->a1, a2 = nw->a2, a3 = nw->a3;
#if defined(__GNUC__) && !defined(EAR_REVERB_PORTABLE)
    /* The same operations in the same order on two vectors of four lines (GCC and clang's
     * vector extension: the compiler does not find this on its own, as the states carry
     * from frame to frame). Bit for bit the portable loop below (checked by building with
     * -DEAR_REVERB_PORTABLE: the same impulse response hash). */
    rv_v4 s1[2], s2[2], hi[2], gdv[2];
    memcpy(s1, ic1, sizeof s1);
    memcpy(s2, ic2, sizeof s2);
    memcpy(hi, ghi, sizeof hi);
    memcpy(gdv, gd, sizeof gdv);
    const rv_v4 A1 = {a1, a1, a1, a1}, A2 = {a2, a2, a2, a2}, A3 = {a3, a3, a3, a3};
    const rv_v4 two = {2.0f, 2.0f, 2.0f, 2.0f};
    for (uint32_t t = 0; t < n; t++) {
        for (uint32_t q = 0; q < 2; q++) {
            rv_v4 v;
            memcpy(&v, &tap[t][4 * q], sizeof v);
            rv_v4 v3 = v - s2[q];
            rv_v4 v1 = A1 * s1[q] + A2 * v3;
            rv_v4 v2 = s2[q] + A2 * s1[q] + A3 * v3;
            s1[q] = two * v1 - s1[q];
            s2[q] = two * v2 - s2[q];
            rv_v4 y = hi[q] * v + gdv[q] * v2;
            memcpy(&tap[t][4 * q], &y, sizeof y);
        }
    }
    memcpy(ic1, s1, sizeof s1);
    memcpy(ic2, s2, sizeof s2);
#else
    for (uint32_t t = 0; t < n; t++) {
        for (uint32_t i = 0; i < EAR__RV_LINES; i++) {
            float v = tap[t][i];
            float v3 = v - ic2[i];
            float v1 = a1 * ic1[i] + a2 * v3;
            float v2 = ic2[i] + a2 * ic1[i] + a3 * v3;
            ic1[i] = 2.0f * v1 - ic1[i];
            ic2[i] = 2.0f * v2 - ic2[i];
            tap[t][i] = ghi[i] * v + gd[i] * v2;
        }
    }
#endif
    for (uint32_t i = 0; i < EAR__RV_LINES; i++) nw->ic1[i] = ic1[i], nw->ic2[i] = ic2[i];
    /* Output rows, then the Hadamard mix and the input back into the lines. */
    float og = nw->out_gain, h = 0.35355339f; /* 1 / sqrt 8 */
    for (uint32_t t = 0; t < n; t++) {
        float *v = tap[t];
        float sl = el[t], sr = er[t];
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
        ear__rv_ring *l = &nw->line[i];
        uint32_t w = l->w, first = l->len - w < n ? l->len - w : n;
        float *a = l->buf + w;
        for (uint32_t t = 0; t < first; t++) a[t] = tap[t][i];
        for (uint32_t t = first; t < n; t++) l->buf[t - first] = tap[t][i];
        w += n;
        l->w = w >= l->len ? w - l->len : w;
    }
    return peak;
}

float *ear__reverb_send_buffer(ear_stage *s, uint8_t bus, uint32_t n) {
    ear__reverb *rv = s->reverb;
    if (!rv->bus_in_used[bus]) {
        memset(rv->bus_in[bus], 0, n * sizeof(float));
        rv->bus_in_used[bus] = true;
    }
    return rv->bus_in[bus];
}

/* An output fade's gain at position q: 3q^2 - 2q^3, flat at both ends (no kink). */
static float smoothstep(float q) {
    return q * q * (3.0f - 2.0f * q);
}

static float share(float p) {
    return p >= 1.0f ? 1.0f : (p <= 0.0f ? 0.0f : ear__sin_quarter(p));
}

bool ear__reverb_gather(ear_stage *s, const float *gains1) {
    ear__reverb *rv = s->reverb;
    if (!rv) return false;
    uint32_t n = s->config.block_frames;
    /* The rooms' changes go on whether or not anything sounds. */
    ear__fdn *o = &rv->fdn[1u - rv->active];
    if (rv->pending && o->out_g <= 0.0f) {
        clear_state(o);
        set_room(rv, o, &rv->pending_room);
        switch_to(rv, 1u - rv->active, rv->pending_s);
        rv->pending = false;
    }
    bool busy = false;
    for (uint32_t k = 0; k < 2; k++) {
        ear__fdn *f = &rv->fdn[k];
        advance_room(f);
        rv->blk_in0[k] = share(f->in_p);
        f->in_p = step_to(f->in_p, f->in_tgt, f->in_rate);
        rv->blk_in1[k] = share(f->in_p);
        rv->blk_out0[k] = smoothstep(f->out_g);
        f->out_g = step_to(f->out_g, f->out_tgt, f->out_rate);
        rv->blk_out1[k] = smoothstep(f->out_g);
        busy = busy || f->awake;
    }
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
    rv->in_live = peak > EPS;
    return busy || rv->in_live;
}

/* A network's block: its share of the input, its chunks, its output faded by out_g, and
 * the sleep rule. */
static void network_block(ear__reverb *rv, uint32_t k, uint32_t n) {
    ear__fdn *f = &rv->fdn[k];
    float i0 = rv->blk_in0[k], i1 = rv->blk_in1[k];
    bool gets = rv->in_live && (i0 > 0.0f || i1 > 0.0f);
    if (!f->awake && !gets) return;
    float *x = rv->slot_in;
    if (gets) {
        float di = (i1 - i0) / (float)n;
        for (uint32_t j = 0; j < n; j++) x[j] = (i0 + di * (float)(j + 1u)) * rv->in[j];
        if (!f->awake) f->awake = true, f->quiet_taps = 0;
        f->quiet_in = 0;
    } else {
        memset(x, 0, n * sizeof(float));
        f->quiet_in += n;
    }
    if (!f->coeffs_valid) coefficients(f, (float)rv->rate);
    float *tl = rv->dry_l, *tr = rv->dry_r; /* free once the voices are mixed */
    memset(tl, 0, n * sizeof(float));
    memset(tr, 0, n * sizeof(float));
    float peak = 0.0f;
    for (uint32_t at = 0; at < n; at += EAR__RV_CHUNK) {
        uint32_t c = n - at < EAR__RV_CHUNK ? n - at : EAR__RV_CHUNK;
        float p = chunk(f, x + at, tl + at, tr + at, c);
        peak = p > peak ? p : peak;
    }
    float o0 = rv->blk_out0[k], o1 = rv->blk_out1[k];
    if (o0 == 1.0f && o1 == 1.0f) {
        for (uint32_t j = 0; j < n; j++) rv->wet_l[j] += tl[j], rv->wet_r[j] += tr[j];
    } else {
        float d = (o1 - o0) / (float)n;
        for (uint32_t j = 0; j < n; j++) {
            float g = o0 + d * (float)(j + 1u);
            rv->wet_l[j] += g * tl[j];
            rv->wet_r[j] += g * tr[j];
        }
    }
    /* Filter states that have died away go to zero before they can turn subnormal. */
    for (uint32_t i = 0; i < EAR__RV_LINES; i++) {
        if (fabsf(f->ic1[i]) < 1e-20f) f->ic1[i] = 0.0f;
        if (fabsf(f->ic2[i]) < 1e-20f) f->ic2[i] = 0.0f;
    }
    if (fabsf(f->z_damp) < 1e-20f) f->z_damp = 0.0f;
    /* The sleep rule (see the top of the file); an evicted network sleeps once silent. */
    if (o1 <= 0.0f && f->out_tgt <= 0.0f) {
        clear_state(f);
        rv->sleeps++;
        return;
    }
    if (f->quiet_in == 0u || peak > EPS) {
        f->quiet_taps = 0;
        return;
    }
    f->quiet_taps += n;
    uint32_t feed = f->pre_d + n;
    for (uint32_t d = 0; d < EAR__RV_DIFF; d++) feed += f->diff_d[d];
    if (f->quiet_in >= feed && f->quiet_taps >= f->d[EAR__RV_LINES - 1] + n) {
        clear_state(f);
        rv->sleeps++;
    }
}

void ear__reverb_render(ear_stage *s, float *ml, float *mr) {
    ear__reverb *rv = s->reverb;
    uint32_t n = s->config.block_frames;
    memset(rv->wet_l, 0, n * sizeof(float));
    memset(rv->wet_r, 0, n * sizeof(float));
    for (uint32_t k = 0; k < 2; k++) network_block(rv, k, n);
    for (uint32_t j = 0; j < n; j++) {
        ml[j] += rv->wet_l[j];
        mr[j] += rv->wet_r[j];
    }
    rv->blocks++;
    bool awake = rv->fdn[0].awake || rv->fdn[1].awake;
    atomic_store_explicit(&rv->awake_flag, awake ? 1u : 0u, memory_order_relaxed);
}
