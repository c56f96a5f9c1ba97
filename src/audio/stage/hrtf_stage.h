/* SPDX-License-Identifier: Zlib */
/*
 * The stage's HRTF (hrtf_stage.c, hrtf_conv_avx2.c): a bank is the stage's own copy of an
 * HRTF set (ear_stage_hrtf) plus everything the mixer needs to render voices through it
 * without allocating: each slot's filter pairs and input history, and the block scratch.
 * The game side makes a bank in one allocation and sends it through the command ring; the
 * audio side renders with it and, once it has replaced it (after one crossfade block),
 * says so through `retired_below`; the game side frees banks older than that on its next
 * call. A bank is never written by the game side after it is sent.
 */
#ifndef EAR_HRTF_STAGE_H
#define EAR_HRTF_STAGE_H

#include "earshot/stage.h"
#include "fft.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/* The fractional delay: a Kaiser-windowed sinc (beta 5) of this many taps, tabulated at
 * EAR__HRTF_FD_STEPS + 1 fractions; within 0.05 dB of flat up to 0.3 of the rate. */
#define EAR__HRTF_FD_TAPS  8u
#define EAR__HRTF_FD_STEPS 64u
/* A voice's filters are made again when its direction has turned by more than this. */
#define EAR__HRTF_MOVE_DEG 1.0f
#define EAR__HRTF_MOVE_COS 0.99984769515639f /* cos 1 degree */
/* The longest filter a bank renders: 256 taps + the fractional delay, to 8s. */
#define EAR__HRTF_MAX_LEN 264u

/* The fast convolution splits a control block into at most this many parts. */
#define EAR__HRTF_MAX_SUB 16u
/* Terms of a bus's sum, by the power of r = (j + 1) / B they are weighted with. */
#define EAR__HRTF_TERMS 2u

/* One slot's state in a bank (audio side). */
typedef struct ear__hrtf_voice {
    uint32_t id;      /* the voice it is for (0: none) */
    bool primed;      /* rendered through this bank in the last block */
    float gain;       /* input gain at the end of the last block */
    float ux, uy, uz; /* the current filters' direction (listener space) */
    float *spec;      /* both ears' filter spectra: [ear][re, im][kpad], 1/n folded in */
    float *hist;      /* the last fft_n frames of input, a ring: the oldest at head */
    uint32_t head;
} ear__hrtf_voice;

typedef struct ear__hrtf_bank {
    uint64_t generation;
    struct ear__hrtf_bank *next; /* game side: banks sent and not freed, newest first */
    uint32_t rate, taps, count, rings;
    uint32_t len;   /* taps + EAR__HRTF_FD_TAPS - 1, rounded up to 8 */
    uint32_t reach; /* len + the largest whole delay: the filters' support */
    uint32_t slots, block;
    /* The fast convolution: transforms of fft_n, the block cut in `sub` parts of at most
     * fft_n - reach + 1 frames (sub_at[i] .. sub_at[i + 1]), kpad >= fft_n / 2 + 1. */
    uint32_t fft_n, kpad, sub;
    uint32_t sub_at[EAR__HRTF_MAX_SUB + 1];
    ear__fft fft;
    float *az, *el, *left, *right, *dl, *dr;
    float *ring_el;
    uint32_t *ring_start, *ring_index;
    float *fd; /* (EAR__HRTF_FD_STEPS + 1) * EAR__HRTF_FD_TAPS */
    /* Spectra (2 kpad floats each, 1/fft_n folded into mspec): every measured direction's
     * two filters [count][ear], the fractional delay at each tabulated fraction, and the
     * phase ramp of each whole delay 0..dmax. */
    float *mspec, *fdspec, *phase;
    uint32_t dmax;
    void *raw;              /* the allocation, as alloc_fn returned it */
    ear__hrtf_voice *voice; /* per slot */
    /* Per part, bus, term and ear, a spectrum the block's voices add into; which of a
     * part's (bus, term) are in use this block, a bit per term. */
    float *acc;
    uint8_t used[EAR__HRTF_MAX_SUB][EAR_BUS_COUNT];
    float *win;       /* scratch: fft_n of history + the block */
    float *x;         /* scratch: block (the voice's read, occluded) */
    float *xs;        /* scratch: a window's spectrum */
    float *spec_new;  /* scratch: the new filters' spectra in a block where they change */
    float *tfilt;     /* scratch: fft_n, a filter placed at its delay */
    float *work;      /* scratch: EAR__FFT_WORK(fft_n) */
    float *y[4];      /* scratch: fft_n each, inverse transforms */
    float *direct[4]; /* scratch: block each, a voice's own output (old and new, two ears) */
    float tmp[2][EAR__HRTF_MAX_LEN]; /* scratch: a direction's interpolated filters */
    ear_stage_hrtf_info info;
} ear__hrtf_bank;

typedef struct ear__hrtf_state {
    /* game side */
    ear__hrtf_bank *sent; /* every bank sent and not freed, newest first */
    uint64_t generation;  /* of the last HRTF_SET sent */
    ear_spatializer mode_game;
    const ear__hrtf_bank *game_current; /* the last bank sent (NULL: none) */
    /* shared: banks with a generation below this are no longer read by the audio side */
    _Atomic uint64_t retired_below;
    /* audio side */
    ear__hrtf_bank *bank; /* in use (NULL: none) */
    ear__hrtf_bank *old;  /* replaced in this block: voices crossfade out of it */
    uint64_t pending;     /* generation to publish at the end of this block */
    uint32_t mode;        /* stage-wide: EAR_SPATIALIZER_PAN or _HRTF */
} ear__hrtf_state;

#endif
