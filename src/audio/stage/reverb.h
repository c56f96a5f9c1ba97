/* SPDX-License-Identifier: Zlib */
/*
 * The room reverb's private interface (reverb.c): its state, which lives in the stage's
 * one allocation (create.c carves ear__reverb_bytes for it), and the hooks the block loop
 * calls: the commands, the send buffers voices mix their sends into, the gather of every
 * send before the buses are summed, and the wet output added into the master.
 */
#ifndef EAR_STAGE_REVERB_H
#define EAR_STAGE_REVERB_H

#include "stage_internal.h"

#define EAR__RV_LINES 8
#define EAR__RV_DIFF  4
/* The reverb runs in chunks of at most this many frames; every delay it reads is at
 * least a chunk (plus two frames for interpolation) long, so a chunk's reads never touch
 * what the chunk writes, and each step runs over a whole chunk at once. */
#define EAR__RV_CHUNK 32u

/* A ring of floats: the write position w, and delays read behind it. */
typedef struct ear__rv_ring {
    float *buf;
    uint32_t len; /* capacity, frames: at least the longest delay plus a chunk and two */
    uint32_t w;
} ear__rv_ring;

/* One feedback delay network and the room it renders. A room's lengths (size,
 * pre-delay) are fixed while it rings; its levels (decay times, crossover, density,
 * damping, wet) move smoothly in place. */
typedef struct ear__fdn {
    ear__rv_ring line[EAR__RV_LINES], diff[EAR__RV_DIFF], pre;
    float *state; /* every ring of this network, contiguous: state_floats floats */
    uint32_t state_floats;
    ear_reverb_params cur, from, to; /* cur: this block's room; from -> to over u */
    float u, du;
    bool changing, coeffs_valid;
    uint32_t d[EAR__RV_LINES];                     /* line lengths, frames */
    uint32_t el[EAR__RV_LINES], er[EAR__RV_LINES]; /* the output taps inside the lines */
    uint32_t pre_d, diff_d[EAR__RV_DIFF];
    float g_lo[EAR__RV_LINES], g_hi[EAR__RV_LINES];
    float a1, a2, a3; /* the crossover's state-variable low-pass */
    float ic1[EAR__RV_LINES], ic2[EAR__RV_LINES];
    float diff_g;
    float damp_G, z_damp;
    float out_gain;                 /* wet x the energy normaliser */
    float in_p, in_tgt, in_rate;    /* input share: position 0 .. 1 (gain sin(p pi/2)) */
    float out_g, out_tgt, out_rate; /* output gain (1; 0 when it is being evicted) */
    bool awake;
    uint32_t quiet_in, quiet_taps; /* frames of silence at its input, at its taps */
} ear__fdn;

typedef struct ear__reverb {
    /* ---- game side ---- */
    ear_reverb_params game;         /* the room last set */
    float game_send[EAR_BUS_COUNT]; /* bus sends last set */
    /* ---- audio side ---- */
    _Atomic uint32_t awake_flag; /* for ear_stage_reverb_state */
    ear__fdn fdn[2];
    uint32_t active; /* the network the room is in; the other rings out or waits */
    bool pending;    /* a room waiting for the other network to be evicted */
    ear_reverb_params pending_room;
    float pending_s;
    float pending_a[6]; /* the first half of a room command (REVERB_A) */
    uint32_t rate, block;
    float send[EAR_BUS_COUNT], send_g[EAR_BUS_COUNT]; /* bus sends: target, last block's */
    float *in;                                        /* this block's reverb input (mono) */
    float *slot_in;                                   /* one network's share of it */
    float *bus_in[EAR_BUS_COUNT];                     /* voices' sends, per bus, this block */
    bool bus_in_used[EAR_BUS_COUNT];
    float *dry_l, *dry_r; /* scratch: a sending voice's dry block (voice.c) */
    float *wet_l, *wet_r; /* this block's wet output */
    bool in_live;         /* this block's input has signal */
    /* Each network's input and output gains at the start and end of this block. */
    float blk_in0[2], blk_in1[2], blk_out0[2], blk_out1[2];
    uint64_t blocks, sleeps;
} ear__reverb;

/* create.c: the bytes of the reverb's block in the heap (the struct and its buffers), and
 * its set-up inside that (zeroed) block. */
size_t ear__reverb_bytes(const ear_stage_config *c);
void ear__reverb_init(ear__reverb *rv, const ear_stage_config *c);

/* block.c: a reverb command (REVERB_A, REVERB_B, REVERB_BUS). */
void ear__reverb_apply(ear_stage *s, const ear__cmd *c);

/* voice.c: the send buffer of a bus for this block (n frames, zeroed on its first use in
 * the block), which a sending voice mixes its send into, as it mixes its dry block into its
 * bus. The reverb never renders a voice. */
float *ear__reverb_send_buffer(ear_stage *s, uint8_t bus, uint32_t n);
static inline bool ear__reverb_sends(const ear_stage *s, const ear__voice *v) {
    (void)s;
    return v->rv_on; /* one byte read per voice-block: the pan path's only reverb cost */
}
/* Whenever v->rv_send or v->rv_g is written: v->rv_on, which ear__reverb_sends reads. */
static inline void ear__reverb_send_set(const ear_stage *s, ear__voice *v) {
    v->rv_on = s->reverb && (v->rv_send > 0.0f || v->rv_g > 0.0f);
}

/* buses.c: before the buses are summed into the master, every send into the input (the
 * bus gains g0 -> g1 of this block); then, with the sum in ml/mr, the wet output is added
 * there. gather returns false when the reverb sleeps and nothing sends (render is then
 * skipped: the block is untouched). */
bool ear__reverb_gather(ear_stage *s, const float *gains1);
void ear__reverb_render(ear_stage *s, float *ml, float *mr);

#endif
