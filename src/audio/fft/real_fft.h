/* SPDX-License-Identifier: Zlib */
/*
 * Earshot's general real FFT (src/audio/fft, target earshot_fft): a real transform of any
 * power-of-two length n (2 .. 2^30) in single precision (ear__rfft_*) and in double
 * (ear__rfftd_*), for the analysis module's spectra and the HRTF loader's minimum-phase
 * filters. Internal (`ear__` names): not exported by the shared libraries, not installed.
 *
 * The algorithm is the stage's (src/audio/stage/fft.h): the n reals packed as m = n/2
 * complex points z = x_even + i x_odd on split real and imaginary arrays, a complex
 * Stockham transform of m points (every pass reads and writes in order, no bit
 * reversal), and the real split. The stage's own kernels stay where they are: they keep
 * per-element twiddle tables and AVX2 bodies for its few short lengths (64 .. 8192, with
 * factors 3 and 5), and their bits are fixed by the stage's output hashes. This one takes
 * any power of two: radix-4 passes while four divides what is left, then a radix 2 (the
 * stage's order and butterflies), twiddles from one table of m entries up to
 * m = 2^EAR__RFFT_FULL_BITS and from two short ones beyond (about 2 sqrt(m) entries:
 * e^(-2 pi i t/n) for t = hi 2^b + lo is hi's entry times lo's), all computed in double,
 * so its memory beyond the data stays a few tens of kilobytes even at 2^21.
 *
 *   forward: X[k] = sum_j x[j] e^(-2 pi i jk/n), k = 0..n/2 (n/2 + 1 bins);
 *   inverse: given the n/2 + 1 bins of a real signal's spectrum (the imaginary parts of
 *            bins 0 and n/2 are ignored), y = n * x (unnormalised, as FFTW's c2r).
 *
 * Thread: any (a plan is read-only once made; each call's arrays are its own).
 */
#ifndef EARSHOT_REAL_FFT_H
#define EARSHOT_REAL_FFT_H

#include <stddef.h>
#include <stdint.h>

/* Lengths the transform takes: powers of two from 2 to 2^30. */
#define EAR__RFFT_MIN 2u
#define EAR__RFFT_MAX ((uint32_t)1 << 30)
/* Up to m = n/2 = 2^12 the twiddles are one table of m entries (64 KiB at most), read
 * directly; beyond, two tables whose entries are multiplied. */
#define EAR__RFFT_FULL_BITS 12u

typedef struct ear__rfft {
    uint32_t n, m;               /* real length, complex length n/2 */
    uint32_t lo_bits;            /* twiddle t = (hi << lo_bits) + lo */
    const double *lo_re, *lo_im; /* 2^lo_bits entries: e^(-2 pi i lo / n) */
    const double *hi_re, *hi_im; /* m >> lo_bits entries: e^(-2 pi i (hi << lo_bits) / n) */
} ear__rfft;

/* Whether the transform takes length n (a power of two in EAR__RFFT_MIN..MAX). */
int ear__rfft_length_ok(size_t n);
/* The doubles of twiddle table ear__rfft_init needs for length n (ear__rfft_length_ok):
 * n up to 2^13 (one table), about 4 sqrt(n / 2) beyond. */
size_t ear__rfft_table_doubles(uint32_t n);
/* Makes the plan for length n in f, its tables in table (ear__rfft_table_doubles(n)
 * doubles, borrowed: it must outlive the plan's use). */
void ear__rfft_init(ear__rfft *f, uint32_t n, double *table);

/* Single precision. re and im hold n/2 + 1 floats each; work holds n floats.
 *
 * forward: on entry re[j] = x[2j] and im[j] = x[2j + 1] (j < n/2: the signal packed);
 *          on return the n/2 + 1 bins, re[k] + i im[k].
 * inverse: on entry the n/2 + 1 bins; on return the signal times n, packed as the
 *          forward's input (re[j] = n x[2j], im[j] = n x[2j + 1]).
 * work is scratch (the Stockham passes' other array); nothing else is touched. */
void ear__rfft_forward(const ear__rfft *f, float *re, float *im, float *work);
void ear__rfft_inverse(const ear__rfft *f, float *re, float *im, float *work);

/* The same in double (re, im: n/2 + 1 doubles each; work: n doubles). */
void ear__rfftd_forward(const ear__rfft *f, double *re, double *im, double *work);
void ear__rfftd_inverse(const ear__rfft *f, double *re, double *im, double *work);

#endif
