/* SPDX-License-Identifier: Zlib */
/*
 * FFT: the stage's real transform (src/audio/stage/fft.h) against FFTW's single-precision
 * r2c / c2r (libfftw3f, planned with FFTW_MEASURE), on the same inputs in the same run, at
 * the lengths the HRTF path uses (n = 384 at the stage's 160-frame block; 256, 512, 768 for
 * other blocks and sets). Per length and direction, one line:
 *
 *   FFT n=384 dir=forward earshot_ns=.. scalar_ns=.. fftw_ns=.. ratio=..
 *
 * earshot_ns is the AVX2 kernel (the scalar one where the CPU has no AVX2), scalar_ns the
 * portable one, ratio = earshot_ns / fftw_ns. Each figure is the best over the repetitions
 * of a batch's time per transform; the batches of the three transforms alternate, so a
 * busy machine slows all three alike. The inverse's input is the forward transform of the
 * same signal; FFTW's c2r is planned twice, with FFTW_PRESERVE_INPUT (Earshot's inverse
 * keeps its input) and without (it overwrites its input, so each of its transforms is
 * preceded by a copy of the spectrum, whose time is measured on its own and taken off);
 * fftw_ns is the faster of the two, a comment line gives both. A comment line per length
 * gives the largest difference between the two engines' outputs, relative to the largest
 * bin (the inputs and outputs are the same data).
 *
 * Usage: bench_fft [repetitions, 400] [n ...]          (default n = 256 384 512 768)
 *        bench_fft count n forward|inverse avx2|scalar [transforms]
 *                  (only Earshot's transforms, untimed, for callgrind's
 *                   --toggle-collect=count_run)
 * Not part of CI: a loaded machine moves the times.
 */
#define _POSIX_C_SOURCE 200809L
#include "fft.h"

#include <fftw3.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__GNUC__)
#define MEASURED __attribute__((noinline))
#else
#define MEASURED
#endif

/* A batch takes about this long, so that one preemption spoils one batch only. */
#define BATCH_NS 40000.0

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static float *aligned(size_t floats) {
    void *p = NULL;
    if (posix_memalign(&p, 64, floats * sizeof(float) + 64)) {
        fprintf(stderr, "bench_fft: out of memory (%zu floats)\n", floats);
        exit(2);
    }
    memset(p, 0, floats * sizeof(float) + 64);
    return p;
}

static const ear__fft_kernel *avx2_kernel(void) {
#if defined(__x86_64__) && defined(__GNUC__)
    if (ear__fft_avx2 && __builtin_cpu_supports("avx2")) return ear__fft_avx2;
#endif
    return NULL;
}

/* One length's state: Earshot's tables and buffers, FFTW's plans and buffers. */
typedef struct bench_len {
    uint32_t n, kp;
    ear__fft f;
    float *tab, *x, *re, *im, *y, *work;
    float *fx, *fy, *fspec, *fspec_in; /* FFTW: real in, real out, spectrum out, c2r in */
    fftwf_plan fwd, inv, inv_destroy;
} bench_len;

static void setup(bench_len *b, uint32_t n) {
    b->n = n;
    b->kp = (n / 2u + 1u + 7u) & ~7u;
    b->tab = aligned(ear__fft_table_floats(n));
    ear__fft_init(&b->f, n, b->tab);
    b->x = aligned(n);
    b->re = aligned(b->kp);
    b->im = aligned(b->kp);
    b->y = aligned(n);
    b->work = aligned(EAR__FFT_WORK(n));
    b->fx = fftwf_alloc_real(n);
    b->fy = fftwf_alloc_real(n);
    b->fspec = fftwf_alloc_real(2u * (n / 2u + 1u));
    b->fspec_in = fftwf_alloc_real(2u * (n / 2u + 1u));
    fftwf_complex *cs = (fftwf_complex *)b->fspec, *ci = (fftwf_complex *)b->fspec_in;
    /* Planned before the data is filled: FFTW_MEASURE overwrites the arrays. */
    b->fwd = fftwf_plan_dft_r2c_1d((int)n, b->fx, cs, FFTW_MEASURE);
    b->inv = fftwf_plan_dft_c2r_1d((int)n, ci, b->fy, FFTW_MEASURE | FFTW_PRESERVE_INPUT);
    b->inv_destroy = fftwf_plan_dft_c2r_1d((int)n, ci, b->fy, FFTW_MEASURE);
    if (!b->fwd || !b->inv || !b->inv_destroy) {
        fprintf(stderr, "bench_fft: FFTW could not plan n = %u\n", n);
        exit(2);
    }
    uint32_t st = 12345u + n;
    for (uint32_t i = 0; i < n; i++) {
        st = st * 1664525u + 1013904223u;
        b->x[i] = (float)(st >> 8) / 8388608.0f - 1.0f;
        b->fx[i] = b->x[i];
    }
    ear__fft_scalar.forward(&b->f, b->x, b->re, b->im, b->work);
    fftwf_execute(b->fwd);
    memcpy(b->fspec_in, b->fspec, 2u * (n / 2u + 1u) * sizeof(float));
}

static void teardown(bench_len *b) {
    fftwf_destroy_plan(b->fwd);
    fftwf_destroy_plan(b->inv);
    fftwf_destroy_plan(b->inv_destroy);
    fftwf_free(b->fx), fftwf_free(b->fy), fftwf_free(b->fspec), fftwf_free(b->fspec_in);
    free(b->tab), free(b->x), free(b->re), free(b->im), free(b->y), free(b->work);
}

/* The largest difference between Earshot's and FFTW's forward bins and inverse samples,
 * relative to the largest bin / sample. */
static void agreement(bench_len *b, const ear__fft_kernel *K, double *fwd, double *inv) {
    uint32_t k = b->n / 2u + 1u;
    float *re = aligned(b->kp), *im = aligned(b->kp);
    K->forward(&b->f, b->x, re, im, b->work);
    fftwf_execute(b->fwd);
    double worst = 0.0, top = 0.0;
    for (uint32_t i = 0; i < k; i++) {
        worst = fmax(worst, hypot(re[i] - b->fspec[2u * i], im[i] - b->fspec[2u * i + 1u]));
        top = fmax(top, hypot(b->fspec[2u * i], b->fspec[2u * i + 1u]));
    }
    *fwd = worst / top;
    K->inverse(&b->f, b->re, b->im, b->y, b->work);
    fftwf_execute(b->inv);
    worst = top = 0.0;
    for (uint32_t i = 0; i < b->n; i++) {
        worst = fmax(worst, fabs((double)b->y[i] - b->fy[i]));
        top = fmax(top, fabs((double)b->fy[i]));
    }
    *inv = worst / top;
    free(re), free(im);
}

/* A batch of `count` transforms of one kind; returns ns per transform. */
enum { EARSHOT_FWD, EARSHOT_INV, FFTW_FWD, FFTW_INV, FFTW_INV_DESTROY, COPY, KINDS };

MEASURED static double batch(bench_len *b, const ear__fft_kernel *K, int kind, uint32_t count) {
    size_t spec = 2u * (b->n / 2u + 1u) * sizeof(float);
    double t0 = now_ns();
    for (uint32_t r = 0; r < count; r++) {
        switch (kind) {
        case EARSHOT_FWD: K->forward(&b->f, b->x, b->re, b->im, b->work); break;
        case EARSHOT_INV: K->inverse(&b->f, b->re, b->im, b->y, b->work); break;
        case FFTW_FWD: fftwf_execute(b->fwd); break;
        case FFTW_INV: fftwf_execute(b->inv); break;
        case FFTW_INV_DESTROY:
            memcpy(b->fspec_in, b->fspec, spec);
            fftwf_execute(b->inv_destroy);
            break;
        default:
            memcpy(b->fspec_in, b->fspec, spec);
            /* Keeps the copy from being taken out of the loop. */
            __asm__ volatile("" : : "r"(b->fspec_in) : "memory");
            break;
        }
    }
    return (now_ns() - t0) / (double)count;
}

static void run_length(uint32_t n, uint32_t reps) {
    bench_len b;
    setup(&b, n);
    const ear__fft_kernel *fast = avx2_kernel();
    const ear__fft_kernel *K = fast ? fast : &ear__fft_scalar;
    double fa, ia;
    agreement(&b, K, &fa, &ia);
    printf("# n=%u earshot_vs_fftw forward_max_diff=%.2g inverse_max_diff=%.2g "
           "(relative to the largest bin / sample)\n",
           n, fa, ia);
    /* Each kind's batch length from a first timing, for about BATCH_NS a batch. */
    uint32_t count[KINDS][2];
    for (int kind = 0; kind < KINDS; kind++)
        for (int sc = 0; sc < 2; sc++) {
            const ear__fft_kernel *k = sc ? &ear__fft_scalar : K;
            double t = batch(&b, k, kind, 64);
            t = fmin(t, batch(&b, k, kind, 64));
            double c = BATCH_NS / (t > 1.0 ? t : 1.0);
            count[kind][sc] = c < 4.0 ? 4u : c > 100000.0 ? 100000u : (uint32_t)c;
        }
    double best[KINDS][2];
    for (int kind = 0; kind < KINDS; kind++) best[kind][0] = best[kind][1] = INFINITY;
    for (uint32_t r = 0; r < reps; r++)
        for (int kind = 0; kind < KINDS; kind++)
            for (int sc = 0; sc < 2; sc++) {
                if (sc && kind != EARSHOT_FWD && kind != EARSHOT_INV) continue;
                const ear__fft_kernel *k = sc ? &ear__fft_scalar : K;
                best[kind][sc] = fmin(best[kind][sc], batch(&b, k, kind, count[kind][sc]));
            }
    printf("FFT n=%u dir=forward earshot_ns=%.1f scalar_ns=%.1f fftw_ns=%.1f ratio=%.2f\n", n,
           best[EARSHOT_FWD][0], best[EARSHOT_FWD][1], best[FFTW_FWD][0],
           best[EARSHOT_FWD][0] / best[FFTW_FWD][0]);
    /* FFTW's inverse: the faster of its two plans (keeping its input or not). */
    double destroy = best[FFTW_INV_DESTROY][0] - best[COPY][0];
    double fftw_inv = fmin(best[FFTW_INV][0], destroy);
    printf("FFT n=%u dir=inverse earshot_ns=%.1f scalar_ns=%.1f fftw_ns=%.1f ratio=%.2f\n", n,
           best[EARSHOT_INV][0], best[EARSHOT_INV][1], fftw_inv,
           best[EARSHOT_INV][0] / fftw_inv);
    printf("# n=%u fftw_c2r_preserve_input_ns=%.1f fftw_c2r_destroy_input_ns=%.1f (its copy of "
           "the spectrum, %.1f ns, taken off)\n",
           n, best[FFTW_INV][0], destroy, best[COPY][0]);
    fflush(stdout);
    teardown(&b);
}

/* Only Earshot's transforms, for callgrind. */
MEASURED static void count_run(bench_len *b, const ear__fft_kernel *K, int inverse,
                               uint32_t count) {
    for (uint32_t r = 0; r < count; r++) {
        if (inverse)
            K->inverse(&b->f, b->re, b->im, b->y, b->work);
        else
            K->forward(&b->f, b->x, b->re, b->im, b->work);
    }
}

static int usage(void) {
    fprintf(stderr, "usage: bench_fft [repetitions] [n ...]\n"
                    "       bench_fft count n forward|inverse avx2|scalar [transforms]\n");
    return 2;
}

static uint32_t length_arg(const char *s) {
    long v = strtol(s, NULL, 10);
    if (v <= 0 || v > (long)EAR__FFT_MAX || !ear__fft_length_ok((uint32_t)v)) {
        fprintf(stderr,
                "bench_fft: %s is not a length the transform takes "
                "(2^j 64..8192 or 3 x 2^j 192..6144)\n",
                s);
        exit(2);
    }
    return (uint32_t)v;
}

int main(int argc, char **argv) {
    if (argc >= 5 && strcmp(argv[1], "count") == 0) {
        uint32_t n = length_arg(argv[2]);
        int inverse = strcmp(argv[3], "inverse") == 0;
        if (!inverse && strcmp(argv[3], "forward") != 0) return usage();
        const ear__fft_kernel *K = &ear__fft_scalar;
        if (strcmp(argv[4], "avx2") == 0) {
            K = avx2_kernel();
            if (!K) {
                fprintf(stderr, "bench_fft: no AVX2 here\n");
                return 2;
            }
        } else if (strcmp(argv[4], "scalar") != 0) {
            return usage();
        }
        uint32_t count = argc > 5 ? (uint32_t)strtoul(argv[5], NULL, 10) : 1000u;
        bench_len b;
        setup(&b, n);
        count_run(&b, K, inverse, count);
        printf("# count n=%u %s %s transforms=%u y0=%g re1=%g\n", n, argv[3], argv[4], count,
               (double)b.y[0], (double)b.re[1]);
        teardown(&b);
        return 0;
    }
    uint32_t reps = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 10) : 400u;
    if (reps == 0) return usage();
    static const uint32_t def[] = {256u, 384u, 512u, 768u};
    printf("# FFT: Earshot's real transform (%s kernel; scalar_ns the portable one) against "
           "FFTW %s r2c/c2r (FFTW_MEASURE), best of %u batches of about %.0f us each\n",
           avx2_kernel() ? "AVX2" : "scalar", fftwf_version, reps, BATCH_NS / 1000.0);
    if (argc > 2)
        for (int i = 2; i < argc; i++) run_length(length_arg(argv[i]), reps);
    else
        for (size_t i = 0; i < sizeof def / sizeof def[0]; i++) run_length(def[i], reps);
    fftwf_cleanup();
    return 0;
}
