/* SPDX-License-Identifier: Zlib */
/*
 * The command path between the game side and the audio side, and the id table: the base
 * every game-side file builds on (voices.c, buses.c, blends.c, music.c, hrtf_bank.c,
 * reverb.c, limiter.c send through it; it calls none of them).
 *
 * A game-side call sends one 32-byte command (ear__cmd). If the ring is full the command
 * waits, in order, in an overflow queue that later game-side calls (and offline renders,
 * block.c) move into the ring: nothing is lost and the audio side never waits. The
 * sanitisers every sender shares are here too (gains, pitches, vectors).
 *
 * The game side owns the id table: a voice id is a slot and a generation. A slot comes
 * back to the free list only when the audio side returns the voice that ended there
 * (with its clip, so a clip's last reference is dropped here, on the game thread, never
 * on the audio thread); ear__collect takes those returns at the start of every call.
 */
#include "stage_internal.h"

#include <math.h>
#include <string.h>

#define MODULE "stage"

/* ---- ids ----------------------------------------------------------------- */

uint32_t ear__make_id(uint32_t slot, uint16_t gen) {
    return ((uint32_t)gen << 16) | (slot + 1u);
}

/* True when id names a voice that exists in the game's view: handed out and its end
 * not yet collected. */
bool ear__id_slot(const ear_stage *s, ear_voice_id id, uint32_t *slot) {
    uint32_t sl = (id & 0xffffu);
    if (sl == 0 || sl > s->slot_count) return false;
    sl -= 1u;
    if (!s->alive[sl] || s->gen[sl] != (uint16_t)(id >> 16)) return false;
    *slot = sl;
    return true;
}

/* id_slot, and the audio side has not yet reported the voice ended. */
bool ear__id_live(const ear_stage *s, ear_voice_id id, uint32_t *slot) {
    if (!ear__id_slot(s, id, slot)) return false;
    return atomic_load_explicit(&s->ended_id[*slot], memory_order_acquire) != id;
}

/* ---- returns and the overflow queue -------------------------------------- */

/* The mixer's game-side bookkeeping of a voice whose return was collected. */
static void voice_ended(ear_stage *s, uint32_t slot, const ear__ret *ret) {
    if (!s->stolen[slot]) s->counted--;
    s->stolen[slot] = 0;
    if (s->counted < s->config.max_total_voices) s->saturated = false;
    if (s->start[slot].blend >= 0) {
        s->blend_alive--;
        ear__blend *bl = &s->blends[s->start[slot].blend];
        /* blends.c frees a superseded entry once its last voice has ended */
        if (--bl->voices == 0 && bl->superseded) s->blends_reclaimable++;
    }
    if (ret->stream >= 0) {
        ear_stream *st = &s->stream_game[ret->stream];
        if (st->release) st->release(st->user);
        s->stream_free[ret->stream] = 1;
    }
}

void ear__collect_returns(ear_stage *s) {
    ear__ret ret;
    while (ear__ring_pop(&s->returns, &ret)) {
        uint32_t slot = (ret.id & 0xffffu) - 1u;
        s->alive[slot] = 0;
        uint16_t g = (uint16_t)(s->gen[slot] + 1u);
        s->gen[slot] = g ? g : 1u;
        s->free_slots[s->free_count++] = slot;
        s->alive_count--;
        voice_ended(s, slot, &ret);
        ear_clip_release(ret.clip);
    }
}

void ear__flush_overflow(ear_stage *s) {
    while (s->overflow_head < s->overflow_count) {
        if (!ear__ring_push(&s->commands, &s->overflow[s->overflow_head])) return;
        s->overflow_head++;
    }
    s->overflow_head = s->overflow_count = 0;
}

ear_result ear__send(ear_stage *s, const ear__cmd *cmd) {
    s->commands_sent++;
    ear__flush_overflow(s);
    if (s->overflow_count == 0 && ear__ring_push(&s->commands, cmd)) return EAR_OK;
    if (s->overflow_count == s->overflow_cap) {
        size_t cap = s->overflow_cap ? s->overflow_cap * 2 : 256;
        ear__cmd *grown = s->alloc.realloc_fn(s->overflow, cap * sizeof *grown, s->alloc.user);
        if (!grown) return EAR_E_OUT_OF_MEMORY;
        s->overflow = grown;
        s->overflow_cap = cap;
    }
    s->overflow[s->overflow_count++] = *cmd;
    return EAR_OK;
}

ear_result ear__reserve(ear_stage *s, size_t count) {
    ear__flush_overflow(s);
    if (s->overflow_count == 0 &&
        ear__ring_capacity(&s->commands) - ear__ring_count(&s->commands) >= count)
        return EAR_OK;
    if (s->overflow_cap - s->overflow_count >= count) return EAR_OK;
    size_t cap = s->overflow_cap ? s->overflow_cap * 2 : 256;
    while (cap - s->overflow_count < count) cap *= 2;
    ear__cmd *grown = s->alloc.realloc_fn(s->overflow, cap * sizeof *grown, s->alloc.user);
    if (!grown) return EAR_E_OUT_OF_MEMORY;
    s->overflow = grown;
    s->overflow_cap = cap;
    return EAR_OK;
}

/* ---- sanitising ---------------------------------------------------------- */

float ear__sane_gain(float g) {
    if (!isfinite(g) || g < 0.0f) return 0.0f;
    return g > 1000.0f ? 1000.0f : g;
}

float ear__sane_pitch(float p) {
    if (!isfinite(p) || p < EAR__MIN_PITCH) return EAR__MIN_PITCH;
    return p > EAR__MAX_PITCH ? EAR__MAX_PITCH : p;
}

bool ear__sane_vec(ear_vec3 v, const char *what) {
    if (ear_vec3_is_finite(v)) return true;
    ear_log(EAR_LOG_WARN, MODULE, "ignored a %s that is not finite (%g, %g, %g)", what,
            (double)v.x, (double)v.y, (double)v.z);
    return false;
}
