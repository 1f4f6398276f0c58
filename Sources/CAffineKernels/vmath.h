/*
 * vmath.h — the package's own exp and sincos (BGExp, BGSinCos; docs/ANIMATION.md
 * section 5.2): one definition of each algorithm, as macros over a type T (double, or
 * a vector of doubles through the compiler's vector extension) and the unsigned
 * integer type U of the same width, so that the scalar functions (vmath.c) and every
 * lane kernel (spring_lanes.h, in each instruction set's file) perform the same IEEE
 * operations in the same order: the same bits on every backend. No FMA (the pragmas),
 * no table, no libm in the fast paths; round-to-nearest by the 1.5·2^52 trick (adds,
 * not a rounding instruction), integers from that sum's bits.
 *
 * The algorithms are fdlibm's (Sun Microsystems, 1993; "permission to use, copy,
 * modify, and distribute this software is freely granted"), with its published
 * coefficients: e_exp.c (Cody–Waite reduction by ln 2, the Remez rational form), and
 * e_rem_pio2.c's medium reduction by π/2 (three 33-bit parts of π/2, always all three
 * rounds here: 151 bits, branch-free) feeding k_sin.c and k_cos.c. fdlibm bounds each
 * below 1 ulp; Tests/CKernelTests measures them against the C library.
 *
 * Fast ranges: exp for |x| <= 708 (2^k normal), sincos for |x| < 1.5·2^20 (k·pio2_i
 * exact). Outside them (and NaN) the scalar functions take their slow paths and the
 * lane kernels call the scalar functions for those lanes.
 */
#ifndef CAFFINEKERNELS_VMATH_H
#define CAFFINEKERNELS_VMATH_H

#pragma STDC FP_CONTRACT OFF
#if defined(__clang__)
#pragma clang fp contract(off)
#endif

#include "internal.h"

/* 1.5·2^52: x + toint − toint is x rounded to an integer (|x| < 2^51), and the bits
 * of x + toint minus toint's bits are that integer, two's complement. */
#define CA_TOINT 0x1.8p52
#define CA_TOINT_BITS 0x4338000000000000ull

/* e_exp.c */
#define CA_EXP_INVLN2 0x1.71547652b82fep+0 /* 1.44269504088896338700e+00 */
#define CA_EXP_LN2HI 0x1.62e42feep-1       /* 6.93147180369123816490e-01: 32 bits */
#define CA_EXP_LN2LO 0x1.a39ef35793c76p-33 /* 1.90821492927058770002e-10 */
#define CA_EXP_P1 0x1.555555555553ep-3     /* 1.66666666666666019037e-01 */
#define CA_EXP_P2 -0x1.6c16c16bebd93p-9    /* -2.77777777770155933842e-03 */
#define CA_EXP_P3 0x1.1566aaf25de2cp-14    /* 6.61375632143793436117e-05 */
#define CA_EXP_P4 -0x1.bbd41c5d26bf1p-20   /* -1.65339022054652515390e-06 */
#define CA_EXP_P5 0x1.6376972bea4d0p-25    /* 4.13813679705723846039e-08 */
#define CA_EXP_FAST_MAX 708.0

/* e_rem_pio2.c */
#define CA_INVPIO2 0x1.45f306dc9c883p-1  /* 6.36619772367581382433e-01 */
#define CA_PIO2_1 0x1.921fb544p+0        /* 1.57079632673412561417e+00: 33 bits */
#define CA_PIO2_1T 0x1.0b4611a626331p-34 /* 6.07710050650619224932e-11 */
#define CA_PIO2_2 0x1.0b4611a6p-34       /* 6.07710050630396597660e-11: 33 bits */
#define CA_PIO2_2T 0x1.3198a2e037073p-69 /* 2.02226624879595063154e-21 */
#define CA_PIO2_3 0x1.3198a2ep-69        /* 2.02226624871116645580e-21: 33 bits */
#define CA_PIO2_3T 0x1.b839a252049c1p-104 /* 8.47842766036889956997e-32 */
#define CA_TRIG_FAST_MAX 0x1.8p20

/* k_sin.c */
#define CA_S1 -0x1.5555555555549p-3 /* -1.66666666666666324348e-01 */
#define CA_S2 0x1.111111110f8a6p-7  /* 8.33333333332248946124e-03 */
#define CA_S3 -0x1.a01a019c161d5p-13 /* -1.98412698298579493134e-04 */
#define CA_S4 0x1.71de357b1fe7dp-19 /* 2.75573137070700676789e-06 */
#define CA_S5 -0x1.ae5e68a2b9cebp-26 /* -2.50507602534068634195e-08 */
#define CA_S6 0x1.5d93a5acfd57cp-33 /* 1.58969099521155010221e-10 */

/* k_cos.c */
#define CA_C1 0x1.555555555554cp-5  /* 4.16666666666666019037e-02 */
#define CA_C2 -0x1.6c16c16c15177p-10 /* -1.38888888888741095749e-03 */
#define CA_C3 0x1.a01a019cb159p-16  /* 2.48015872894767294178e-05 */
#define CA_C4 -0x1.27e4f809c52adp-22 /* -2.75573143513906633035e-07 */
#define CA_C5 0x1.1ee9ebdb4b1c4p-29 /* 2.08757232129817482790e-09 */
#define CA_C6 -0x1.8fae9be8838d4p-37 /* -1.13596475577881948265e-11 */

/* e^x = y · 2^k: k = rint(x / ln 2) (k: U, two's complement), hi − lo = x − k·ln 2
 * (k·ln2HI exact), y = 1 − ((lo − r·c/(2 − c)) − hi), every operation in this order.
 * BITS(v) reinterprets a T as a U. */
#define CA_EXP_REDUCE(T, U, BITS, x, y, k)                                                      \
    do {                                                                                        \
        const T ca_s_ = (x) * CA_EXP_INVLN2 + CA_TOINT;                                         \
        const T ca_kd_ = ca_s_ - CA_TOINT;                                                      \
        (k) = BITS(ca_s_) - CA_TOINT_BITS;                                                      \
        const T ca_hi_ = (x) - ca_kd_ * CA_EXP_LN2HI;                                           \
        const T ca_lo_ = ca_kd_ * CA_EXP_LN2LO;                                                 \
        const T ca_r_ = ca_hi_ - ca_lo_;                                                        \
        const T ca_t_ = ca_r_ * ca_r_;                                                          \
        const T ca_c_ =                                                                         \
            ca_r_ - ca_t_ * (CA_EXP_P1 + ca_t_ * (CA_EXP_P2 + ca_t_ * (CA_EXP_P3 + ca_t_ * (CA_EXP_P4 + ca_t_ * CA_EXP_P5)))); \
        (y) = 1.0 - ((ca_lo_ - (ca_r_ * ca_c_) / (2.0 - ca_c_)) - ca_hi_);                     \
    } while (0)

/* 2^k as a T, for 1 - 1023 <= k <= 1023 (k: U). */
#define CA_POW2(FROM, k) FROM(((k) + 1023) << 52)

/* sin x and cos x for |x| < CA_TRIG_FAST_MAX: n = rint(x / (π/2)), y0 + y1 = x − n·π/2
 * (three rounds of e_rem_pio2.c's medium case), then k_sin and k_cos of (y0, y1) and
 * the quadrant n mod 4 by bit operations (a swap and two sign flips: exact). */
#define CA_SINCOS(T, U, BITS, FROM, x, sinx, cosx)                                              \
    do {                                                                                        \
        const T ca_s_ = (x) * CA_INVPIO2 + CA_TOINT;                                            \
        const T ca_fn_ = ca_s_ - CA_TOINT;                                                      \
        const U ca_n_ = BITS(ca_s_) - CA_TOINT_BITS;                                            \
        T ca_r_ = (x) - ca_fn_ * CA_PIO2_1;                                                     \
        T ca_t_ = ca_r_, ca_w_ = ca_fn_ * CA_PIO2_2;                                            \
        ca_r_ = ca_t_ - ca_w_;                                                                  \
        ca_w_ = ca_fn_ * CA_PIO2_2T - ((ca_t_ - ca_r_) - ca_w_);                                \
        ca_t_ = ca_r_;                                                                          \
        ca_w_ = ca_fn_ * CA_PIO2_3;                                                             \
        ca_r_ = ca_t_ - ca_w_;                                                                  \
        ca_w_ = ca_fn_ * CA_PIO2_3T - ((ca_t_ - ca_r_) - ca_w_);                                \
        const T ca_y0_ = ca_r_ - ca_w_;                                                         \
        const T ca_y1_ = (ca_r_ - ca_y0_) - ca_w_;                                              \
        const T ca_z_ = ca_y0_ * ca_y0_;                                                        \
        const T ca_zz_ = ca_z_ * ca_z_;                                                         \
        const T ca_rs_ = CA_S2 + ca_z_ * (CA_S3 + ca_z_ * CA_S4) + ca_z_ * ca_zz_ * (CA_S5 + ca_z_ * CA_S6); \
        const T ca_v_ = ca_z_ * ca_y0_;                                                         \
        const T ca_ks_ = ca_y0_ - ((ca_z_ * (0.5 * ca_y1_ - ca_v_ * ca_rs_) - ca_y1_) - ca_v_ * CA_S1); \
        const T ca_rc_ = ca_z_ * (CA_C1 + ca_z_ * (CA_C2 + ca_z_ * CA_C3))                     \
                         + ca_zz_ * ca_zz_ * (CA_C4 + ca_z_ * (CA_C5 + ca_z_ * CA_C6));       \
        const T ca_hz_ = 0.5 * ca_z_;                                                           \
        const T ca_wc_ = 1.0 - ca_hz_;                                                          \
        const T ca_kc_ = ca_wc_ + (((1.0 - ca_wc_) - ca_hz_) + (ca_z_ * ca_rc_ - ca_y0_ * ca_y1_)); \
        const U ca_swap_ = 0 - (ca_n_ & 1);                                                     \
        const U ca_a_ = (BITS(ca_kc_) & ca_swap_) | (BITS(ca_ks_) & ~ca_swap_);                 \
        const U ca_b_ = (BITS(ca_ks_) & ca_swap_) | (BITS(ca_kc_) & ~ca_swap_);                 \
        (sinx) = FROM(ca_a_ ^ ((ca_n_ & 2) << 62));                                             \
        (cosx) = FROM(ca_b_ ^ (((ca_n_ + 1) & 2) << 62));                                       \
    } while (0)

/* The scalar bit casts. */
static CA_ALWAYS_INLINE uint64_t ca_bits(double x) {
    uint64_t u;
    __builtin_memcpy(&u, &x, sizeof u);
    return u;
}
static CA_ALWAYS_INLINE double ca_from_bits(uint64_t u) {
    double x;
    __builtin_memcpy(&x, &u, sizeof x);
    return x;
}

/* The scalar functions (vmath.c): whole double range. */
CA_HIDDEN double ca_exp(double x);
CA_HIDDEN void ca_sincos(double x, double *sinx, double *cosx);

/* One spring's x(t) (spring_lanes.h's table layout: regime, ω0, ζ, ωd or σ, A, B, h):
 * Swift's Spring.value(at:) in its operation order. */
static CA_ALWAYS_INLINE double ca_spring_value(const double *c, double t) {
    const double regime = c[0], w0 = c[1], zeta = c[2], f = c[3], A = c[4], B = c[5], h = c[6];
    if (regime == 0) {
        double s, co;
        ca_sincos(f * t, &s, &co);
        return 1 - (s * B + co * A) * ca_exp(-(t * zeta) * w0);
    }
    if (regime == 1) return 1 - ca_exp(-(t * w0)) * (A + B * t);
    return 1 - (ca_exp((f - h) * t) * B + ca_exp(-(t * (h + f))) * A);
}

#endif /* CAFFINEKERNELS_VMATH_H */
