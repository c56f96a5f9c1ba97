/* SPDX-License-Identifier: Zlib */
/*
 * The stage's lifetime: its configuration and defaults, creating it (every buffer it will
 * ever use is allocated here, sized from the configuration, so that nothing allocates
 * once it runs) and destroying it (the references a stage holds: live voices' clips,
 * PLAY commands never applied, blend and pool tables, streams).
 *
 * The stage and every buffer it uses are one allocation through the configuration's
 * allocator, laid out by one walk over the buffers (lay_out) that first measures and then
 * places; every block starts on a cache line, so a kernel's 32-byte vector never
 * straddles two lines and each voice's delay line starts on one. Creating a stage either
 * makes that one allocation or fails with EAR_E_OUT_OF_MEMORY having made none. The only
 * other memory a stage holds is the overflow queue, grown on the game side when the
 * command ring is full.
 */
#include "reverb.h"
#include "stage_internal.h"

#include <math.h>
#include <string.h>

/* ---- configuration ------------------------------------------------------- */

ear_stage_config ear_stage_config_default(void) {
    ear_stage_config c;
    memset(&c, 0, sizeof c);
    c.sample_rate = 48000;
    c.channels = 2;
    c.block_frames = 160;
    c.max_voices = 64;
    c.max_total_voices = 512;
    c.command_capacity = 8192;
    c.max_blend_voices = 32;
    c.seed = 1;
    c.speed_of_sound = 343.0f;
    c.doppler_scale = 1.0f;
    c.allocator = NULL;
    return c;
}

static bool is_pow2(uint32_t v) {
    return v && !(v & (v - 1));
}

static ear_result validate_config(const ear_stage_config *c) {
    if (c->sample_rate < 8000 || c->sample_rate > 384000) return EAR_E_INVALID_ARG;
    if (c->channels != 2) return EAR_E_UNSUPPORTED;
    if (c->block_frames < 16 || c->block_frames > 4096) return EAR_E_INVALID_ARG;
    if (c->max_total_voices < 1 || c->max_total_voices > 65535u - EAR__STEAL_RESERVE)
        return EAR_E_INVALID_ARG;
    if (c->max_voices < 1) return EAR_E_INVALID_ARG;
    if (!is_pow2(c->command_capacity) || c->command_capacity < 16) return EAR_E_INVALID_ARG;
    if (c->max_blend_voices > 4096) return EAR_E_INVALID_ARG;
    if (!(c->speed_of_sound > 0.0f) || !isfinite(c->speed_of_sound)) return EAR_E_INVALID_ARG;
    if (!(c->doppler_scale >= 0.0f) || !isfinite(c->doppler_scale)) return EAR_E_INVALID_ARG;
    if (c->kernel != EAR_KERNEL_AUTO && c->kernel != EAR_KERNEL_SCALAR &&
        c->kernel != EAR_KERNEL_AVX2 && c->kernel != EAR_KERNEL_AVX512)
        return EAR_E_INVALID_ARG;
    if (!ear__kernel_select(c->kernel)) return EAR_E_UNSUPPORTED;
    ear_limiter resolved;
    ear__cmd cmd;
    return ear__limiter_resolve(&c->limiter, c->sample_rate, &resolved, &cmd);
}

/* The kernel table for a configuration's choice: the only place that tells kernels apart
 * (OpenAL Soft's SelectMixer). AUTO takes AVX-512 where the CPU runs it, else AVX2+FMA
 * where it runs both (the two give the same bits). */
const ear__kernel *ear__kernel_select(ear_kernel kind) {
    const ear__kernel *avx2 = ear__kernel_avx2_available() ? ear__kernel_avx2 : NULL;
    const ear__kernel *avx512 = ear__kernel_avx512_available() ? ear__kernel_avx512 : NULL;
    if (kind == EAR_KERNEL_SCALAR) return &ear__kernel_scalar;
    if (kind == EAR_KERNEL_AVX2) return avx2;
    if (kind == EAR_KERNEL_AVX512) return avx512;
    if (avx512) return avx512;
    return avx2 ? avx2 : &ear__kernel_scalar;
}

/* The configuration's name for a kernel table. */
static ear_kernel kernel_kind(const ear__kernel *k) {
    if (k == &ear__kernel_scalar) return EAR_KERNEL_SCALAR;
    return k == ear__kernel_avx512 ? EAR_KERNEL_AVX512 : EAR_KERNEL_AVX2;
}

/* ---- the heap layout ----------------------------------------------------------------- */

uint32_t ear__hist_len(const ear_stage *s) {
    return (uint32_t)ceilf(EAR__ITD_S * (float)s->config.sample_rate) + 2u;
}

static uint32_t stream_capacity(const ear_stage *s) {
    /* Enough for one block of the fastest stream (384 kHz) plus interpolation. */
    return (uint32_t)((uint64_t)s->config.block_frames * 384000u / s->config.sample_rate) + 8u;
}

/* The return ring holds one entry per slot (so a push never fails), rounded up to a power
 * of two. */
static uint32_t return_capacity(uint32_t slots) {
    uint32_t cap = 1;
    while (cap < slots) cap <<= 1;
    return cap;
}

/* Carves blocks out of one heap, each on a cache line. With no base it only counts: the
 * same walk (lay_out) computes the size and then places every block, so the two cannot
 * disagree (miniaudio's *_get_heap_layout / *_init_preallocated). */
typedef struct heap {
    unsigned char *base; /* NULL: measuring */
    size_t used;
} heap;

static void *carve(heap *h, size_t bytes) {
    size_t at = h->used;
    h->used += (bytes + 63u) & ~(size_t)63u;
    return h->base ? h->base + at : NULL;
}

#define CARVE(field, count) (s->field = carve(h, (size_t)(count) * sizeof *s->field))

/* Every buffer of the stage, sized from s->config and s->slot_count, in one walk: the
 * game side's id table and start parameters, the rings, the published atomics, the
 * voices, the mix and scratch buffers, the mixer's per-slot arrays, bus buffers, stream
 * FIFOs and blend layer voices. The kernels' buffers start on lines (a 32-byte vector
 * across two lines costs two accesses), and so does each voice's delay line. */
static void lay_out(ear_stage *s, heap *h) {
    uint32_t n = s->slot_count, b = s->config.block_frames;
    uint32_t room = ear__hist_room(ear__hist_len(s));
    CARVE(tgt, n);
    CARVE(gen, n);
    CARVE(alive, n);
    CARVE(free_slots, n);
    CARVE(start, n);
    s->commands.entries = carve(h, (size_t)s->config.command_capacity * sizeof(ear__cmd));
    s->returns.entries = carve(h, (size_t)return_capacity(n) * sizeof(ear__ret));
    CARVE(cursor, n);
    CARVE(ended_id, n);
    CARVE(voices, n);
    CARVE(active, n);
    CARVE(block_out, (size_t)b * s->config.channels);
    CARVE(mix_l, b);
    CARVE(mix_r, b);
    CARVE(mono, room + b + 4u);
    CARVE(right, b + 4u);
    CARVE(lanes, EAR__LANE_FLOATS);
    CARVE(stolen, n);
    CARVE(stopping, n);
    CARVE(slot_priority, n);
    CARVE(aud_bits, n);
    CARVE(real_flag, n);
    CARVE(rank, n);
    CARVE(ended_scratch, n);
    CARVE(blend_sum, b + 8u);
    CARVE(layer_buf, b + 8u);
    CARVE(vflags, n);
    CARVE(work, n);
    CARVE(motion, n);
    CARVE(slot_id, n);
    CARVE(state_at, n);
    CARVE(aud, n);
    CARVE(prio, n);
    CARVE(serial_of, n);
    CARVE(real_idx, n);
    CARVE(eff, n);
    CARVE(blends, EAR__MAX_BLENDS);
    CARVE(pools, EAR__MAX_POOLS);
    for (uint32_t k = 0; k < EAR_BUS_COUNT; k++) {
        CARVE(bus_l[k], b);
        CARVE(bus_r[k], b);
    }
    for (uint32_t k = 0; k < EAR__MAX_STREAMS; k++) {
        s->streams[k].capacity = stream_capacity(s);
        CARVE(streams[k].fifo, (size_t)s->streams[k].capacity * 2u);
    }
    uint32_t blends = s->config.max_blend_voices;
    CARVE(layer_voices, (size_t)blends * EAR_BLEND_MAX_LAYERS);
    CARVE(layer_free, blends);
    if (!s->config.no_reverb) s->reverb = carve(h, ear__reverb_bytes(&s->config));
    s->lim.cap = ear__limiter_capacity(s->config.sample_rate);
    s->lim.mask = s->lim.cap - 1u;
    CARVE(lim.delay, (size_t)s->lim.cap * 2u);
    CARVE(lim.box, s->lim.cap);
    CARVE(lim.dq_val, s->lim.cap);
    CARVE(lim.dq_at, s->lim.cap);
}

#undef CARVE

/* The one allocation's size for configuration c (already checked), the stage's struct
 * first. */
static size_t heap_size(const ear_stage_config *c, uint32_t slot_count) {
    ear_stage probe; /* only its config and slot count are read; its pointers stay NULL */
    ear_stage *s = &probe;
    memset(s, 0, sizeof *s);
    s->config = *c;
    s->slot_count = slot_count;
    heap h = {NULL, 0};
    (void)carve(&h, sizeof(ear_stage));
    lay_out(s, &h);
    return h.used;
}

/* The clips a stage's tables hold (blends, pools), released before its heap goes. */
static void release_tables(ear_stage *s) {
    for (uint32_t k = 0; k < EAR__MAX_BLENDS; k++)
        if (s->blends[k].used)
            for (uint32_t l = 0; l < s->blends[k].def.layer_count; l++)
                ear_clip_release(s->blends[k].def.layers[l].clip);
    for (uint32_t k = 0; k < EAR__MAX_POOLS; k++)
        if (s->pools[k].used)
            for (uint32_t c = 0; c < s->pools[k].def.clip_count; c++)
                ear_clip_release(s->pools[k].def.clips[c]);
}

/* ---- create and destroy --------------------------------------------------------------- */

ear_result ear_stage_create(const ear_stage_config *config, ear_stage **out_stage) {
    if (!out_stage) return EAR_E_INVALID_ARG;
    ear_stage_config c = config ? *config : ear_stage_config_default();
    ear_result r = validate_config(&c);
    if (r != EAR_OK) return r;
    if (c.max_voices > c.max_total_voices) c.max_voices = c.max_total_voices;
    const ear__kernel *kernel = ear__kernel_select(c.kernel);
    c.kernel = kernel_kind(kernel);
    ear__cmd limiter_cmd;
    (void)ear__limiter_resolve(&c.limiter, c.sample_rate, &c.limiter, &limiter_cmd);

    /* Slots beyond the voice budget hold voices that fade out after being stolen. */
    uint32_t n = c.max_total_voices + EAR__STEAL_RESERVE, b = c.block_frames;
    ear_allocator a = ear_allocator_resolve(c.allocator);
    /* One allocation, zeroed, its first line-aligned byte where the stage begins. */
    size_t size = heap_size(&c, n);
    unsigned char *raw = a.alloc_fn(size + 64u, a.user);
    if (!raw) return EAR_E_OUT_OF_MEMORY;
    unsigned char *base = raw + ((64u - ((uintptr_t)raw & 63u)) & 63u);
    memset(base, 0, size);
    heap h = {base, 0};
    ear_stage *s = carve(&h, sizeof *s);
    s->heap = raw;
    s->config = c;
    s->alloc = a;
    s->slot_count = n;
    s->block_s = (double)c.block_frames / (double)c.sample_rate;
    s->kernel = kernel;
    ear_rng_seed(&s->rng, c.seed);
    lay_out(s, &h);
    if (s->reverb) ear__reverb_init(s->reverb, &c);
    ear__ring_init(&s->commands, s->commands.entries, c.command_capacity, sizeof(ear__cmd));
    ear__ring_init(&s->returns, s->returns.entries, return_capacity(n), sizeof(ear__ret));

    for (uint32_t i = 0; i < n; i++) {
        s->gen[i] = 1;
        s->free_slots[i] = n - 1 - i; /* slot 0 is handed out first */
        atomic_init(&s->cursor[i], 0);
        atomic_init(&s->ended_id[i], 0);
        atomic_init(&s->aud_bits[i], 0u);
        atomic_init(&s->real_flag[i], 0u);
    }
    s->free_count = n;
    ear_listener l = {{0, 0, 0}, {0, 0, 0}, {0, 0, -1}, {0, 1, 0}};
    s->listener_game = l;
    s->listener_audio = l;
    ear__ears_from_listener(&l, &s->ears);
    s->master_target = s->master_gain = 1.0f;
    for (uint32_t k = 0; k < EAR_BUS_COUNT; k++) {
        s->bus_vol[k] = s->bus_target[k] = s->bus_gain[k] = 1.0f;
        s->bus_game[k].volume = 1.0f;
        s->bus_game[k].muted = false;
    }
    s->music_bus = EAR_BUS_MUSIC;
    for (uint32_t k = 0; k < EAR__MAX_STREAMS; k++) s->stream_free[k] = 1;
    for (uint32_t k = 0; k < c.max_blend_voices; k++)
        s->layer_free[k] = c.max_blend_voices - 1 - k;
    s->layer_free_count = c.max_blend_voices;
    atomic_init(&s->stat_real, 0u);
    atomic_init(&s->stat_virtual, 0u);
    uint32_t unity;
    float one = 1.0f;
    memcpy(&unity, &one, sizeof unity);
    atomic_init(&s->limiter_gain_bits, unity);
    s->limiter_game = c.limiter;
    ear__limiter_apply(s, &limiter_cmd);
    s->block_pos = b; /* empty: the first render makes a block */
    *out_stage = s;
    return EAR_OK;
}

ear_stage_config ear_stage_get_config(const ear_stage *stage) {
    return stage->config;
}

bool ear_stage_render_thread_is_separate(const ear_stage *stage) {
    return stage &&
           atomic_load_explicit(&((ear_stage *)stage)->render_separate, memory_order_acquire);
}

void ear_stage_set_render_thread_separate(ear_stage *stage, bool separate) {
    if (stage) atomic_store_explicit(&stage->render_separate, separate, memory_order_release);
}

void ear_stage_update(ear_stage *stage) {
    if (!stage) return;
    ear__collect(stage);
    ear__flush_overflow(stage);
    ear__hrtf_collect(stage, false);
}

/* What a PLAY command that never ran still holds. */
static void release_start(ear_stage *s, uint32_t id) {
    ear__start *st = &s->start[(id & 0xffffu) - 1u];
    ear_clip_release(st->clip);
    if (st->stream >= 0 && s->stream_game[st->stream].release)
        s->stream_game[st->stream].release(s->stream_game[st->stream].user);
}

void ear_stage_destroy(ear_stage *stage) {
    if (!stage) return;
    ear__collect(stage);
    /* Clips still referenced: by live voices, and by PLAY commands not yet applied. */
    for (uint32_t i = 0; i < stage->active_count; i++) {
        ear__voice *v = &stage->voices[stage->active[i]];
        ear_clip_release(v->clip);
        if (v->stream >= 0 && stage->streams[v->stream].stream.release)
            stage->streams[v->stream].stream.release(stage->streams[v->stream].stream.user);
    }
    ear__cmd cmd;
    while (ear__ring_pop(&stage->commands, &cmd))
        if (cmd.type == EAR__CMD_PLAY) release_start(stage, cmd.id);
    for (size_t i = stage->overflow_head; i < stage->overflow_count; i++)
        if (stage->overflow[i].type == EAR__CMD_PLAY)
            release_start(stage, stage->overflow[i].id);
    release_tables(stage);
    ear__hrtf_collect(stage, true); /* every HRTF bank sent */
    ear_allocator a = stage->alloc;
    if (stage->overflow) a.free_fn(stage->overflow, a.user);
    a.free_fn(stage->heap, a.user); /* the stage itself is in it */
}
