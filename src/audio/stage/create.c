/*
 * The stage's lifetime: its configuration and defaults, creating it (every buffer it will
 * ever use is allocated here, sized from the configuration, so that nothing allocates
 * once it runs) and destroying it (the references a stage holds: live voices' clips,
 * PLAY commands never applied, blend and pool tables, streams).
 *
 * Every allocation goes through the configuration's allocator. The buffers the kernels
 * read and write 32 bytes at a time, and the voices, start on cache lines
 * (ear__zalloc_lines), so a vector never straddles two lines and each voice's delay line
 * starts on one.
 */
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
        c->kernel != EAR_KERNEL_AVX2)
        return EAR_E_INVALID_ARG;
    if (!ear__kernel_select(c->kernel)) return EAR_E_UNSUPPORTED;
    return EAR_OK;
}

/* The kernel table for a configuration's choice: the only place that tells kernels apart
 * (OpenAL Soft's SelectMixer). AUTO takes AVX2+FMA where the CPU runs both. */
const ear__kernel *ear__kernel_select(ear_kernel kind) {
    const ear__kernel *avx2 = ear__kernel_avx2_available() ? ear__kernel_avx2 : NULL;
    if (kind == EAR_KERNEL_SCALAR) return &ear__kernel_scalar;
    if (kind == EAR_KERNEL_AVX2) return avx2;
    return avx2 ? avx2 : &ear__kernel_scalar;
}

/* ---- allocation ---------------------------------------------------------- */

void *ear__zalloc(const ear_allocator *a, size_t size) {
    void *p = a->alloc_fn(size ? size : 1, a->user);
    if (p) memset(p, 0, size);
    return p;
}

void ear__dealloc(const ear_allocator *a, void *p) {
    if (p) a->free_fn(p, a->user);
}

void *ear__zalloc_lines(const ear_allocator *a, size_t size) {
    unsigned char *raw = ear__zalloc(a, size + 64u + sizeof(void *));
    if (!raw) return NULL;
    uintptr_t at = ((uintptr_t)(raw + sizeof(void *)) + 63u) & ~(uintptr_t)63u;
    unsigned char *p = raw + (at - (uintptr_t)raw);
    memcpy(p - sizeof(void *), &raw, sizeof raw);
    return p;
}

void ear__dealloc_lines(const ear_allocator *a, void *p) {
    if (!p) return;
    void *raw;
    memcpy(&raw, (unsigned char *)p - sizeof(void *), sizeof raw);
    ear__dealloc(a, raw);
}

uint32_t ear__hist_len(const ear_stage *s) {
    return (uint32_t)ceilf(EAR__ITD_S * (float)s->config.sample_rate) + 2u;
}

static uint32_t stream_capacity(const ear_stage *s) {
    /* Enough for one block of the fastest stream (384 kHz) plus interpolation. */
    return (uint32_t)((uint64_t)s->config.block_frames * 384000u / s->config.sample_rate) + 8u;
}

static bool mixer_create(ear_stage *s) {
    const ear_allocator *a = &s->alloc;
    uint32_t n = s->slot_count, b = s->config.block_frames;
    s->stolen = ear__zalloc(a, n);
    s->slot_priority = ear__zalloc(a, n);
    s->aud_bits = ear__zalloc(a, n * sizeof *s->aud_bits);
    s->real_flag = ear__zalloc(a, n * sizeof *s->real_flag);
    s->rank = ear__zalloc(a, n * sizeof *s->rank);
    s->ended_scratch = ear__zalloc(a, n);
    s->blend_sum = ear__zalloc_lines(a, (b + 8u) * sizeof(float));
    s->layer_buf = ear__zalloc_lines(a, (b + 8u) * sizeof(float));
    s->vflags = ear__zalloc(a, n);
    s->work = ear__zalloc(a, n * sizeof *s->work);
    s->motion = ear__zalloc(a, n * sizeof *s->motion);
    s->slot_id = ear__zalloc(a, n * sizeof *s->slot_id);
    s->state_at = ear__zalloc(a, n * sizeof *s->state_at);
    s->aud = ear__zalloc(a, n * sizeof *s->aud);
    s->prio = ear__zalloc(a, n);
    s->serial_of = ear__zalloc(a, n * sizeof *s->serial_of);
    s->real_idx = ear__zalloc(a, n);
    s->eff = ear__zalloc(a, n * sizeof *s->eff);
    s->blends = ear__zalloc(a, EAR__MAX_BLENDS * sizeof *s->blends);
    s->pools = ear__zalloc(a, EAR__MAX_POOLS * sizeof *s->pools);
    bool ok = s->stolen && s->slot_priority && s->aud_bits && s->real_flag && s->rank &&
              s->ended_scratch && s->blend_sum && s->layer_buf && s->vflags && s->work &&
              s->motion && s->slot_id && s->state_at && s->aud && s->prio && s->serial_of &&
              s->real_idx && s->eff && s->blends && s->pools;
    for (uint32_t k = 0; k < EAR_BUS_COUNT; k++) {
        s->bus_l[k] = ear__zalloc_lines(a, b * sizeof(float));
        s->bus_r[k] = ear__zalloc_lines(a, b * sizeof(float));
        ok = ok && s->bus_l[k] && s->bus_r[k];
    }
    for (uint32_t k = 0; k < EAR__MAX_STREAMS; k++) {
        s->streams[k].capacity = stream_capacity(s);
        s->streams[k].fifo = ear__zalloc(a, (size_t)s->streams[k].capacity * 2 * sizeof(float));
        ok = ok && s->streams[k].fifo;
    }
    uint32_t blends = s->config.max_blend_voices;
    if (blends) {
        s->layer_voices = ear__zalloc_lines(a, (size_t)blends * EAR_BLEND_MAX_LAYERS *
                                                   sizeof *s->layer_voices);
        s->layer_free = ear__zalloc(a, blends * sizeof *s->layer_free);
        ok = ok && s->layer_voices && s->layer_free;
    }
    return ok;
}

static void mixer_init(ear_stage *s) {
    for (uint32_t b = 0; b < EAR_BUS_COUNT; b++) {
        s->bus_vol[b] = s->bus_target[b] = s->bus_gain[b] = 1.0f;
        s->bus_game[b].volume = 1.0f;
        s->bus_game[b].muted = false;
    }
    s->music_bus = EAR_BUS_MUSIC;
    for (uint32_t k = 0; k < EAR__MAX_STREAMS; k++) s->stream_free[k] = 1;
    for (uint32_t k = 0; k < s->config.max_blend_voices; k++)
        s->layer_free[k] = s->config.max_blend_voices - 1 - k;
    s->layer_free_count = s->config.max_blend_voices;
    for (uint32_t i = 0; i < s->slot_count; i++) {
        atomic_init(&s->aud_bits[i], 0u);
        atomic_init(&s->real_flag[i], 0u);
    }
    atomic_init(&s->stat_real, 0u);
    atomic_init(&s->stat_virtual, 0u);
}

static void mixer_free(ear_stage *s) {
    const ear_allocator *a = &s->alloc;
    if (s->blends)
        for (uint32_t k = 0; k < EAR__MAX_BLENDS; k++)
            if (s->blends[k].used)
                for (uint32_t l = 0; l < s->blends[k].def.layer_count; l++)
                    ear_clip_release(s->blends[k].def.layers[l].clip);
    if (s->pools)
        for (uint32_t k = 0; k < EAR__MAX_POOLS; k++)
            if (s->pools[k].used)
                for (uint32_t c = 0; c < s->pools[k].def.clip_count; c++)
                    ear_clip_release(s->pools[k].def.clips[c]);
    ear__dealloc(a, s->stolen);
    ear__dealloc(a, s->slot_priority);
    ear__dealloc(a, (void *)s->aud_bits);
    ear__dealloc(a, (void *)s->real_flag);
    ear__dealloc(a, s->rank);
    ear__dealloc(a, s->ended_scratch);
    ear__dealloc_lines(a, s->blend_sum);
    ear__dealloc_lines(a, s->layer_buf);
    ear__dealloc(a, s->vflags);
    ear__dealloc(a, s->work);
    ear__dealloc(a, s->motion);
    ear__dealloc(a, s->slot_id);
    ear__dealloc(a, s->state_at);
    ear__dealloc(a, s->aud);
    ear__dealloc(a, s->prio);
    ear__dealloc(a, s->serial_of);
    ear__dealloc(a, s->real_idx);
    ear__dealloc(a, s->eff);
    ear__dealloc(a, s->blends);
    ear__dealloc(a, s->pools);
    for (uint32_t k = 0; k < EAR_BUS_COUNT; k++) {
        ear__dealloc_lines(a, s->bus_l[k]);
        ear__dealloc_lines(a, s->bus_r[k]);
    }
    for (uint32_t k = 0; k < EAR__MAX_STREAMS; k++) ear__dealloc(a, s->streams[k].fifo);
    ear__dealloc_lines(a, s->layer_voices);
    ear__dealloc(a, s->layer_free);
}

static void free_buffers(ear_stage *s) {
    const ear_allocator *a = &s->alloc;
    ear__dealloc(a, s->gen);
    ear__dealloc(a, s->alive);
    ear__dealloc(a, s->free_slots);
    ear__dealloc(a, s->start);
    ear__dealloc(a, s->overflow);
    ear__dealloc(a, s->commands.entries);
    ear__dealloc(a, s->returns.entries);
    ear__dealloc(a, (void *)s->cursor);
    ear__dealloc(a, (void *)s->ended_id);
    ear__dealloc_lines(a, s->voices);
    ear__dealloc(a, s->active);
    ear__dealloc_lines(a, s->block_out);
    ear__dealloc_lines(a, s->mix_l);
    ear__dealloc_lines(a, s->mix_r);
    ear__dealloc_lines(a, s->mono);
    ear__dealloc_lines(a, s->right);
    ear__dealloc_lines(a, s->lanes);
    ear__dealloc(a, s->tgt);
    mixer_free(s);
}

/* ---- create and destroy -------------------------------------------------- */

ear_result ear_stage_create(const ear_stage_config *config, ear_stage **out_stage) {
    if (!out_stage) return EAR_E_INVALID_ARG;
    ear_stage_config c = config ? *config : ear_stage_config_default();
    ear_result r = validate_config(&c);
    if (r != EAR_OK) return r;
    if (c.max_voices > c.max_total_voices) c.max_voices = c.max_total_voices;
    const ear__kernel *kernel = ear__kernel_select(c.kernel);
    c.kernel = kernel == &ear__kernel_scalar ? EAR_KERNEL_SCALAR : EAR_KERNEL_AVX2;

    ear_allocator a = ear_allocator_resolve(c.allocator);
    /* On a cache line: the struct's rings are aligned to lines (producer and consumer
     * indices apart). */
    ear_stage *s = ear__zalloc_lines(&a, sizeof *s);
    if (!s) return EAR_E_OUT_OF_MEMORY;
    s->config = c;
    s->alloc = a;
    s->block_s = (double)c.block_frames / (double)c.sample_rate;
    s->kernel = kernel;
    ear_rng_seed(&s->rng, c.seed);

    /* Slots beyond the voice budget hold voices that fade out after being stolen. */
    uint32_t n = c.max_total_voices + EAR__STEAL_RESERVE, b = c.block_frames;
    s->slot_count = n;
    uint32_t h = ear__hist_len(s);
    s->tgt = ear__zalloc(&a, n * sizeof *s->tgt);
    s->gen = ear__zalloc(&a, n * sizeof *s->gen);
    s->alive = ear__zalloc(&a, n * sizeof *s->alive);
    s->free_slots = ear__zalloc(&a, n * sizeof *s->free_slots);
    s->start = ear__zalloc(&a, n * sizeof *s->start);
    void *cmd_mem = ear__zalloc(&a, (size_t)c.command_capacity * sizeof(ear__cmd));
    uint32_t ret_cap = 1;
    while (ret_cap < n) ret_cap <<= 1;
    void *ret_mem = ear__zalloc(&a, (size_t)ret_cap * sizeof(ear__ret));
    s->cursor = ear__zalloc(&a, n * sizeof *s->cursor);
    s->ended_id = ear__zalloc(&a, n * sizeof *s->ended_id);
    s->voices = ear__zalloc_lines(&a, n * sizeof *s->voices);
    s->active = ear__zalloc(&a, n * sizeof *s->active);
    s->block_out = ear__zalloc_lines(&a, (size_t)b * c.channels * sizeof(float));
    s->mix_l = ear__zalloc_lines(&a, b * sizeof(float));
    s->mix_r = ear__zalloc_lines(&a, b * sizeof(float));
    s->mono = ear__zalloc_lines(&a, (ear__hist_room(h) + b + 4u) * sizeof(float));
    s->right = ear__zalloc_lines(&a, (b + 4u) * sizeof(float));
    s->lanes = ear__zalloc_lines(&a, EAR__LANE_FLOATS * sizeof(float));
    if (cmd_mem) ear__ring_init(&s->commands, cmd_mem, c.command_capacity, sizeof(ear__cmd));
    if (ret_mem) ear__ring_init(&s->returns, ret_mem, ret_cap, sizeof(ear__ret));
    if (!s->gen || !s->alive || !s->free_slots || !s->start || !cmd_mem || !ret_mem ||
        !s->cursor || !s->ended_id || !s->voices || !s->active || !s->block_out || !s->mix_l ||
        !s->mix_r || !s->mono || !s->right || !s->lanes || !s->tgt || !mixer_create(s)) {
        if (!cmd_mem) s->commands.entries = NULL;
        if (!ret_mem) s->returns.entries = NULL;
        free_buffers(s);
        ear__dealloc_lines(&a, s);
        return EAR_E_OUT_OF_MEMORY;
    }
    for (uint32_t i = 0; i < n; i++) {
        s->gen[i] = 1;
        s->free_slots[i] = n - 1 - i; /* slot 0 is handed out first */
        atomic_init(&s->cursor[i], 0);
        atomic_init(&s->ended_id[i], 0);
    }
    s->free_count = n;
    ear_listener l = {{0, 0, 0}, {0, 0, 0}, {0, 0, -1}, {0, 1, 0}};
    s->listener_game = l;
    s->listener_audio = l;
    ear__ears_from_listener(&l, &s->ears);
    s->master_target = s->master_gain = 1.0f;
    mixer_init(s);
    s->block_pos = b; /* empty: the first render makes a block */
    *out_stage = s;
    return EAR_OK;
}

ear_stage_config ear_stage_get_config(const ear_stage *stage) {
    return stage->config;
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
    ear_allocator a = stage->alloc;
    free_buffers(stage);
    ear__dealloc_lines(&a, stage);
}
