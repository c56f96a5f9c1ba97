/* SPDX-License-Identifier: Zlib */
/*
 * The block loop: ear_stage_render and one control block, which calls everything else in
 * order (docs/architecture.md, "One control block"). Nothing here or below allocates,
 * locks, logs or touches a file.
 *
 * ear_stage_render serves frames from a one-block buffer; whenever it is empty it renders
 * the next control block:
 *
 *  1. apply every published command (offline, first move the overflow queue into the
 *     ring, repeatedly), each to its owner: moves to the compact motion table, bus and
 *     duck commands to buses.c, a PLAY to voice.c (and music.c, blends.c), the listener
 *     and master gain here, everything else to the voice it names;
 *  2. buses.c: advance bus fades, this block's bus gains;
 *  3. the work list: voices that render or may (real in the last block, new, changed,
 *     streams) and, in turn, one virtual voice in EAR__VIRTUAL_EVERY; each is brought up
 *     to date (voice.c: catch up on skipped blocks, then this block's coarse targets);
 *  4. voice_manager.c: choose the real set (when the choice changed, voices ranked real
 *     on an old state are brought up to date too);
 *  5. each voice's block (voice.c, or blends.c for a blend), prefetching the clips and
 *     states a few voices ahead; finish the SIMD group; publish cursors and audibility;
 *  6. voices that ended go back to the game side through the return ring;
 *  7. buses.c: ducks and the mixdown into the output block;
 *  8. limiter.c, while it is on: the output limiter on the finished block.
 *
 * Because commands apply only at block boundaries and blocks are always whole, the output
 * does not depend on how the caller splits its render calls.
 */
#include "reverb.h"
#include "stage_internal.h"

#include <math.h>
#include <string.h>

/* ---- commands ------------------------------------------------------------ */

/* One command, to its owner: moves to the motion table, bus and duck commands to
 * buses.c, a PLAY to voice.c (then music.c and blends.c), the listener and the master gain
 * here, and what names a voice to that voice (voice.c). */
static void apply_command(ear_stage *s, const ear__cmd *c) {
    switch ((ear__cmd_type)c->type) {
    /* Moves, the commonest commands, go to the compact motion table without touching the
     * voice: with thousands of voices, most of them virtual, the voice would be a cache
     * miss. A move for a voice that ended before it arrived is dropped. */
    case EAR__CMD_MOTION: {
        uint32_t slot = (c->id & 0xffffu) - 1u;
        if (s->slot_id[slot] != c->id) return;
        s->motion[slot].position = c->u.motion.position;
        s->motion[slot].velocity = c->u.motion.velocity;
        return;
    }
    case EAR__CMD_POSITION: {
        uint32_t slot = (c->id & 0xffffu) - 1u;
        if (s->slot_id[slot] == c->id) s->motion[slot].position = c->u.vec;
        return;
    }
    case EAR__CMD_VELOCITY: {
        uint32_t slot = (c->id & 0xffffu) - 1u;
        if (s->slot_id[slot] == c->id) s->motion[slot].velocity = c->u.vec;
        return;
    }
    case EAR__CMD_BUS_VOLUME:
    case EAR__CMD_BUS_MUTE:
    case EAR__CMD_DUCK_SET:
    case EAR__CMD_DUCK_REMOVE:
    case EAR__CMD_DUCK_TRIGGER: ear__buses_apply(s, c); return;
    case EAR__CMD_REVERB_BUS:
    case EAR__CMD_REVERB_A:
    case EAR__CMD_REVERB_B: ear__reverb_apply(s, c); return;
    case EAR__CMD_PLAY: {
        uint32_t slot = (c->id & 0xffffu) - 1u;
        const ear__start *st = &s->start[slot];
        ear__voice_start(s, c->id);
        ear__stream_start(s, &s->voices[slot], st);
        ear__blend_start(s, &s->voices[slot], st);
        s->active[s->active_count++] = slot;
        s->sel_valid = false;
        return;
    }
    case EAR__CMD_LISTENER:
    case EAR__CMD_LISTENER_AXES: {
        ear_listener *l = &s->listener_audio;
        if (c->type == EAR__CMD_LISTENER)
            l->position = c->u.motion.position, l->velocity = c->u.motion.velocity;
        else
            l->forward = c->u.axes.forward, l->up = c->u.axes.up;
        ear__ears_from_listener(l, &s->ears);
        s->ears_version++; /* every cached placement is now out of date */
        return;
    }
    case EAR__CMD_MASTER_GAIN: s->master_target = c->u.value; return;
    case EAR__CMD_LIMITER: ear__limiter_apply(s, c); return;
    case EAR__CMD_HRTF_SET: ear__hrtf_apply(s, c); return;
    case EAR__CMD_STOP_ALL:
        for (uint32_t i = 0; i < s->active_count; i++) {
            ear__begin_stop(s, &s->voices[s->active[i]], c->u.fade_s);
            s->vflags[s->active[i]] |= EAR__VF_TOUCHED;
        }
        return;
    case EAR__CMD_VOLUME:
    case EAR__CMD_PITCH:
    case EAR__CMD_PAN:
    case EAR__CMD_FORWARD:
    case EAR__CMD_OCCLUSION:
    case EAR__CMD_STOP:
    case EAR__CMD_ENVELOPE:
    case EAR__CMD_SPATIALIZER:
        if (c->id == 0) { /* the stage's (a voice's own goes to the voice, below) */
            ear__hrtf_apply(s, c);
            return;
        }
        ear__voice *sv = ear__voice_for(s, c->id);
        if (sv) ear__voice_apply(s, sv, c);
        return;
    case EAR__CMD_PARAM:
    case EAR__CMD_REVERB_SEND: {
        ear__voice *v = ear__voice_for(s, c->id);
        if (v) ear__voice_apply(s, v, c); /* else it ended before the command arrived */
        return;
    }
    }
}

/* ---- one block ----------------------------------------------------------- */

/* Active voice `index` ended: it goes back to the game side through the return ring, and
 * the last active voice takes its place in the list. */
static void end_voice(ear_stage *s, uint32_t index) {
    uint32_t slot = s->active[index];
    ear__voice *v = &s->voices[slot];
    ear__ret ret = {.id = v->id, .stream = v->stream, .clip = v->clip};
    ear__blend_release(s, v);
    atomic_store_explicit(&s->ended_id[slot], v->id, memory_order_release);
    s->slot_id[slot] = 0;
    /* The return ring holds one entry per slot, so this push cannot fail. */
    (void)ear__ring_push(&s->returns, &ret);
    v->active = false;
    v->clip = NULL;
    v->data = NULL;
    s->active[index] = s->active[--s->active_count];
}

/* How many voices ahead of its turn a voice's clip frames are asked for, and its first
 * frame read (touch_clip). Each voice reads a fresh stretch of its own clip every block
 * (hundreds of clips do not stay in the caches), and without the hint the read waits on
 * memory: without it W64 rendered at half the speed it does with one clip shared by every
 * voice (W64_ONE_CLIP=1). Three to eight voices ahead measured alike, two and twelve a
 * little slower (docs/performance.md). */
#define EAR__PREFETCH_AHEAD 5u
#define EAR__TOUCH_AHEAD    7u

/* Asks for the clip frames a voice is about to read, EAR__PREFETCH_AHEAD voices before its
 * turn. A hint only; it changes no result. */
static void prefetch_clip(const ear__voice *v, uint32_t block_frames) {
    /* A blend has no data (its layers read their own clips); a one-shot or a stream may
     * be at its end. */
    if (!v->data || v->pos >= v->frames) return;
    /* The frames its block reads (at the last block's step; a ramp moves it by little)
     * and the 33 a SIMD read's window reaches past them: only what the block needs, so
     * that five voices' worth of lines can be in flight at once. */
    uint64_t frames = ((v->step_fx * block_frames) >> 32) + 34u;
    if (frames > v->frames - v->pos) frames = v->frames - v->pos;
    size_t bytes = v->s16 ? sizeof(int16_t) : sizeof(float);
    ear__prefetch_lines((const char *)v->data + v->pos * v->channels * bytes,
                        (size_t)(frames * v->channels * bytes));
}

/* Reads the first clip frame a voice is about to read, EAR__TOUCH_AHEAD voices before its
 * turn: a load, where prefetch_clip's hints are not enough. With a thousand clips the page
 * that frame sits on is rarely in the TLB, and a prefetch that misses the TLB does not help
 * (measured again with the prefetch working: without this load W64 at N = 1024 is about
 * a fifth slower); the load walks the page tables early. The value goes nowhere that matters.
 */
static void touch_clip(ear_stage *s, const ear__voice *v) {
    if (!v->data || v->pos >= v->frames) return;
    uint32_t bits;
    if (v->s16) {
        uint16_t b16;
        memcpy(&b16, (const int16_t *)v->data + v->pos * v->channels, sizeof b16);
        bits = b16;
    } else {
        memcpy(&bits, (const float *)v->data + v->pos * v->channels, sizeof bits);
    }
    s->touch_sink ^= bits;
}

/* Asks for the part of a voice's state that bringing it up to date reads (everything
 * before the blend parameters). A hint only; it changes no result. */
static void prefetch_state(const ear__voice *v) {
    ear__prefetch_lines(v, (size_t)((const char *)&v->param_target - (const char *)v));
}

/* Catches a skipped voice up on the blocks it missed, then computes this block's
 * coarse targets. */
static void bring_up_to_date(ear_stage *s, uint32_t slot, uint32_t i, uint32_t blk) {
    ear__voice *v = &s->voices[slot];
    uint32_t behind = blk - s->state_at[slot];
    if (behind) {
        if (ear__voice_catch_up(s, v, behind)) s->ended_scratch[i] = 1;
    }
    s->state_at[slot] = blk + 1u; /* ear__voice_targets steps it through this block */
    s->vflags[slot] &= (uint8_t) ~(EAR__VF_TOUCHED | EAR__VF_NEW);
    ear__voice_targets(s, v, &s->tgt[i]);
}

static void render_block(ear_stage *s) {
    /* Offline, the caller is also the producer: everything it sent before this block
     * applies now, however many times the ring had to be refilled from the overflow. */
    bool separate = atomic_load_explicit(&s->render_separate, memory_order_acquire);
    do {
        if (!separate) ear__flush_overflow(s);
        /* Every command published so far, read in place, and their room freed in one go. */
        size_t at, end = ear__ring_published(&s->commands, &at);
        for (; at != end; at++)
            apply_command(s, ear__ring_entry(&s->commands, at, sizeof(ear__cmd)));
        ear__ring_release(&s->commands, end);
    } while (!separate && s->overflow_count > s->overflow_head);

    uint32_t b = s->config.block_frames;
    ear__buses_begin(s);
    /* Targets for every voice that renders or may: voices real in the last block, new
     * or changed ones, streams, and one virtual voice in EAR__VIRTUAL_EVERY in turn. The rest
     * stay untouched and catch up (state and cursor) on their turn. */
    uint64_t blk = s->block_index++;
    bool all = s->eval_all;
    s->eval_all = false;
    if (all) s->sel_valid = false;
    uint32_t nwork = 0;
    for (uint32_t i = 0; i < s->active_count; i++) {
        uint32_t slot = s->active[i];
        bool due = all ||
                   (s->vflags[slot] &
                    (EAR__VF_RENDERED | EAR__VF_TOUCHED | EAR__VF_NEW | EAR__VF_ALWAYS)) ||
                   (blk + slot) % EAR__VIRTUAL_EVERY == 0;
        if (!due) continue; /* it catches up on its turn (state_at says how far) */
        s->work[nwork++] = i;
        s->ended_scratch[i] = 0;
    }
    /* Then each due voice in turn, asking for the state of the one four places on when it
     * was virtual: with thousands of voices its state has left the caches since its last
     * turn (a voice that rendered in the last block was here a block ago). */
    for (uint32_t k = 0; k < nwork; k++) {
        if (k + 4u < nwork) {
            uint32_t ahead = s->active[s->work[k + 4u]];
            if (!(s->vflags[ahead] & EAR__VF_RENDERED)) prefetch_state(&s->voices[ahead]);
        }
        uint32_t i = s->work[k];
        bring_up_to_date(s, s->active[i], i, (uint32_t)blk);
    }
    if (ear__choose_real(s, s->work, nwork) && nwork != s->active_count) {
        /* A full choice may have made real a voice that was not brought up to date: the
         * work list becomes every voice that is due or real, still ascending. */
        uint32_t k = 0, merged = 0;
        for (uint32_t i = 0; i < s->active_count; i++) {
            bool due = k < nwork && s->work[k] == i;
            if (due) k++;
            if (!due && !s->real_idx[i]) continue;
            if (!due) {
                /* Ranked real on an older state: catch up on the blocks before this one;
                 * it renders now. */
                uint32_t slot = s->active[i];
                s->ended_scratch[i] = 0;
                bring_up_to_date(s, slot, i, (uint32_t)blk);
            }
            s->rank[merged].index = i; /* scratch: the merged list */
            merged++;
        }
        for (uint32_t m = 0; m < merged; m++) s->work[m] = s->rank[m].index;
        nwork = merged;
    }

    /* A voice's block starts on a cache line in each scratch buffer: its history (hist_len
     * frames) ends where the room for it (ear__hist_room) does. */
    uint32_t h = ear__hist_len(s), room = ear__hist_room(h);
    ear__kernel_io io = {s->mono + (room - h), s->right, NULL, NULL, b, h};
    /* With a SIMD kernel, placed voices are read one by one but filtered and mixed in
     * groups (their serial filters run side by side); a group is finished before any
     * other voice mixes, so every voice adds into its bus in the same order as one by
     * one. */
    ear__group group;
    group.n = 0;
    uint32_t stride = (room + b + 8u + 15u) & ~15u;
    const bool hrtf_on = s->hrtf.bank != NULL; /* no command applies inside the loop */
    uint32_t lanes = EAR__LANE_FLOATS / stride;
    if (lanes > EAR__LANES) lanes = EAR__LANES;
    if (lanes > s->kernel->max_lanes) lanes = s->kernel->max_lanes;
    for (uint32_t k = 0; k < nwork; k++) {
        uint32_t i = s->work[k];
        uint32_t slot = s->active[i];
        ear__voice *v = &s->voices[slot];
        if (k + EAR__PREFETCH_AHEAD < nwork && s->real_idx[s->work[k + EAR__PREFETCH_AHEAD]]) {
            const ear__voice *ahead = &s->voices[s->active[s->work[k + EAR__PREFETCH_AHEAD]]];
            prefetch_clip(ahead, b);
            if (hrtf_on && ahead->placed) ear__hrtf_prefetch(s, ahead);
        }
        if (k + EAR__TOUCH_AHEAD < nwork && s->real_idx[s->work[k + EAR__TOUCH_AHEAD]])
            touch_clip(s, &s->voices[s->active[s->work[k + EAR__TOUCH_AHEAD]]]);
        v->real = s->real_idx[i];
        bool ended = v->blend >= 0
                         ? ear__blend_block(s, v, &s->tgt[i], &io, &group, lanes, stride)
                         : ear__voice_block(s, v, &s->tgt[i], &io, &group, lanes, stride);
        s->ended_scratch[i] =
            (uint8_t)(s->ended_scratch[i] || ended || (v->stopping && v->fade <= 0.0f));
        atomic_store_explicit(&s->cursor[slot], v->pos, memory_order_relaxed);
        float aud = v->audibility;
        uint32_t bits;
        memcpy(&bits, &aud, sizeof bits);
        atomic_store_explicit(&s->aud_bits[slot], bits, memory_order_relaxed);
        atomic_store_explicit(&s->real_flag[slot], (uint8_t)v->real, memory_order_relaxed);
    }
    if (group.n) s->kernel->group_finish(&group, &io);
    /* Voices that ended leave the active list once every group is mixed. Only voices in
     * the work list can have ended; going down it, each removal moves the last active
     * voice into a place no later step looks at again. */
    for (uint32_t k = nwork; k-- > 0;) {
        uint32_t i = s->work[k];
        if (!s->ended_scratch[i]) continue;
        uint32_t last = s->active_count - 1;
        s->tgt[i] = s->tgt[last];
        s->ended_scratch[i] = s->ended_scratch[last];
        s->real_idx[i] = s->real_idx[last];
        end_voice(s, i);
        s->sel_valid = false; /* indices moved: the next block chooses afresh */
    }
    ear__hrtf_flush(s);
    ear__buses_mixdown(s);
    ear__hrtf_block_end(s);
    if (s->lim.on) ear__limiter_block(s, s->block_out, b);
}

/* ---- rendering ----------------------------------------------------------- */

ear_result ear_stage_render(ear_stage *stage, float *out, uint32_t frames) {
    if (!stage || (!out && frames)) return EAR_E_INVALID_ARG;
    uint32_t b = stage->config.block_frames, ch = stage->config.channels;
    while (frames > 0) {
        if (stage->block_pos == b) {
            render_block(stage);
            stage->block_pos = 0;
        }
        uint32_t n = b - stage->block_pos;
        if (n > frames) n = frames;
        memcpy(out, stage->block_out + (size_t)stage->block_pos * ch,
               (size_t)n * ch * sizeof(float));
        out += (size_t)n * ch;
        frames -= n;
        stage->block_pos += n;
        stage->frames_rendered += n;
    }
    return EAR_OK;
}

uint64_t ear_stage_frames_rendered(const ear_stage *stage) {
    return stage ? stage->frames_rendered : 0;
}
