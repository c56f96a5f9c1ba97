/* SPDX-License-Identifier: Zlib */
/*
 * Earshot's portable elementary functions (the math module, src/math), in place of libm's
 * wherever bits must not depend on the build: the stage's audio path, the synth's clips
 * and the physics world's direction vectors (ear_forward_from_facing); the HRTF loader
 * uses ear__sincos for speed.
 *
 * Internal to the engine: `ear__` names, not exported by the shared libraries
 * (cmake/earshot.map), kept out of the public include folder (include/earshot) and so never
 * installed; a module that uses them names this header in its rule in
 * scripts/check-architecture.
 *
 * glibc (native) and emscripten's musl (wasm) round sinf, cosf, tanf, acosf and exp
 * differently in the last bit, and glibc's x86-64 builds pick FMA variants at run time,
 * so a scene whose voices, listener or occlusion move rendered different bits on the
 * two builds, and could on two x86-64 CPUs (a synth clip made with libm's double sin
 * flipped about 2 samples in 10^9). These are written with IEEE +, -, *, / and sqrt only
 * (each correctly rounded on every target), in one fixed order, in double
 * precision: the same inputs give the same bits on every build that keeps C's
 * evaluation (no -ffast-math, no contraction into fused multiply-adds; docs/web.md).
 *
 * Accuracy (tests/math/test_portable_math.c measures it against the double-precision
 * libm): the float functions are within 0.5 ulp plus 1e-4 ulp of the exact value, that
 * is the nearest float except for values within a hair of half-way between two floats,
 * over the whole domain for expf, exp2f, exp10f, acosf, asinf and the logarithms; for
 * |x| <= 65536 for sinf, cosf and tanf (the reduction by pi / 2 is exact to |x| < 2^20
 * and loses accuracy slowly beyond; |x| >= 2^50 gives sin 0, cos 1, tan 0); for powf
 * with x in [e^-10, e^10] and |y| <= 8 as measured (its error is exp's of y log x in
 * double, so the same wherever the result is a normal float); for atan2f over
 * directions of every sign with components from 1e-9 to 1e9 (and C's special cases);
 * ear__exp and ear__log are within 4 ulp of a double, ear__sin, ear__cos and ear__atan2
 * within 5e-14 relative. Every function is pure and allocation-free. Thread: any.
 */
#ifndef EARSHOT_PORTABLE_MATH_H
#define EARSHOT_PORTABLE_MATH_H

/* e^x and the natural logarithm in double (NaN in, NaN out; log of x < 0 is NaN, of 0
 * is -inf). */
double ear__exp(double x);
double ear__log(double x);
/* 10^x (within 3 + 2.3 |x| ulp of a double: x ln 10 rounds once; for a float result,
 * far inside half an ulp) and e^x - 1 keeping the digits of a small x (within 4 ulp). */
double ear__exp10(double x);
double ear__expm1(double x);

/* e^x, 2^x and 10^x; 2^n is exact for integer n in the normal range. */
float ear__expf(float x);
float ear__exp2f(float x);
float ear__exp10f(float x);
/* x^y for x >= 0 (x^0 = 1^y = 1; 0^y is 0 for y > 0 and +inf for y < 0; x < 0 is NaN:
 * the stage raises only positive ratios to powers). */
float ear__powf(float x, float y);

/* Sine, cosine and tangent of x radians; NaN for infinite or NaN x. */
float ear__sinf(float x);
float ear__cosf(float x);
float ear__tanf(float x);
/* sin(t pi / 2) and cos(t pi / 2) for t in [0, 1] (clamped into it; NaN is 0): the
 * quarter turns of fades and equal-power curves, with pi / 2 in double and no
 * reduction (cheaper than ear__sinf(t * (float)(pi / 2)), and as accurate). */
float ear__sin_quarter(float t);
float ear__cos_quarter(float t);
/* Arc cosine in [0, pi]; NaN outside [-1, 1]. */
float ear__acosf(float x);
/* Arc sine in [-pi/2, pi/2]; NaN outside [-1, 1]. */
float ear__asinf(float x);
/* The angle of (x, y) in [-pi, pi], with C's atan2 for zeros and infinities (signed
 * zeros included): the double one within 5e-14 relative (asin's series; not a correctly
 * rounded double), the float one as the float functions above. */
double ear__atan2(double y, double x);
float ear__atan2f(float y, float x);
/* sin and cos of a double, within 3e-14 relative for |x| < 2^20 (for results rounded to
 * float, or set-up tables; not correctly rounded doubles). */
double ear__sin(double x);
double ear__cos(double x);
/* Both at once, one reduction: the same bits as ear__sin(x) and ear__cos(x). */
void ear__sincos(double x, double *out_sin, double *out_cos);
/* Logarithms (NaN for x < 0, -inf for 0). */
float ear__logf(float x);
float ear__log2f(float x);
float ear__log10f(float x);

#endif
