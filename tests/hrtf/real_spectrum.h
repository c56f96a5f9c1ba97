/* SPDX-License-Identifier: Zlib */
/*
 * The HRTF tests' spectra: n reals -> n/2 + 1 complex bins through Earshot's real FFT in
 * double (src/audio/fft/real_fft.h; tests/fft measures it against a direct DFT in long double,
 * within 1e-15 of the signal's norm), in the shape the tests used with FFTW before: an
 * input array of n doubles and bins as [k][0] (real) and [k][1] (imaginary).
 */
#ifndef EAR_TEST_HRTF_REAL_SPECTRUM_H
#define EAR_TEST_HRTF_REAL_SPECTRUM_H

#include "real_fft.h"

#include <stdbool.h>
#include <stdlib.h>

typedef struct real_spectrum {
    ear__rfft plan;
    double *table, *re, *im, *work;
    double *in;       /* n: the signal to transform */
    double (*out)[2]; /* n/2 + 1 bins */
} real_spectrum;

/* Makes s for length n (a power of two); false when memory runs out. */
static inline bool real_spectrum_make(real_spectrum *s, uint32_t n) {
    s->table = malloc(sizeof(double) * ear__rfft_table_doubles(n));
    s->re = malloc(sizeof(double) * (n / 2 + 1));
    s->im = malloc(sizeof(double) * (n / 2 + 1));
    s->work = malloc(sizeof(double) * n);
    s->in = malloc(sizeof(double) * n);
    s->out = malloc(sizeof(double[2]) * (n / 2 + 1));
    if (!s->table || !s->re || !s->im || !s->work || !s->in || !s->out) return false;
    ear__rfft_init(&s->plan, n, s->table);
    return true;
}

/* s->in -> s->out. */
static inline void real_spectrum_run(real_spectrum *s) {
    uint32_t m = s->plan.m;
    for (uint32_t j = 0; j < m; j++) {
        s->re[j] = s->in[2 * j];
        s->im[j] = s->in[2 * j + 1];
    }
    ear__rfftd_forward(&s->plan, s->re, s->im, s->work);
    for (uint32_t k = 0; k <= m; k++) {
        s->out[k][0] = s->re[k];
        s->out[k][1] = s->im[k];
    }
}

static inline void real_spectrum_free(real_spectrum *s) {
    free(s->table);
    free(s->re);
    free(s->im);
    free(s->work);
    free(s->in);
    free(s->out);
    s->table = s->re = s->im = s->work = s->in = NULL;
    s->out = NULL;
}

#endif
