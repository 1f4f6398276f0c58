/*
 * internal.h — private to CAffineKernels (not in include/, not visible to
 * Swift). Shared scalar element functions, so that the portable loops and
 * the scalar tails of every SIMD backend run literally the same code, and
 * the backend table used by dispatch.c.
 *
 * Every .c file of the module starts with the FP_CONTRACT pragmas itself;
 * they are repeated here so that nothing included after this header can be
 * contracted into FMA even if a file forgot them.
 */
#ifndef CAFFINEKERNELS_INTERNAL_H
#define CAFFINEKERNELS_INTERNAL_H

#pragma STDC FP_CONTRACT OFF
#if defined(__clang__)
#pragma clang fp contract(off)
#endif

#include "CAffineKernels.h"
#include "CAffineKernelsGeneral.h"
#include "testing/CAffineKernelsTesting.h" /* BGKernelTable, and BGAffineConcat defined here */

/* Bit-identical results need every double operation rounded to double once.
 * 32-bit x86 with x87 math evaluates in extended precision (and rounds
 * twice); build such targets with -msse2 -mfpmath=sse. */
#if defined(__FLT_EVAL_METHOD__) && __FLT_EVAL_METHOD__ != 0 && __FLT_EVAL_METHOD__ != -1
#error "CAffineKernels requires FLT_EVAL_METHOD == 0 (e.g. SSE2 math on i386) for bit-identical results"
#endif

#if defined(__x86_64__) || defined(__i386__)
#define CA_ARCH_X86 1
#else
#define CA_ARCH_X86 0
#endif

#if defined(__aarch64__) || defined(_M_ARM64)
#define CA_ARCH_ARM64 1
#else
#define CA_ARCH_ARM64 0
#endif

#if defined(__GNUC__) || defined(__clang__)
#define CA_HIDDEN __attribute__((visibility("hidden")))
#define CA_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define CA_HIDDEN
#define CA_ALWAYS_INLINE inline
#endif

/* MIN/MAX with the exact select semantics of the spec (NaN and signed
 * zeros: when the comparison is false the FIRST argument wins). */
#define CA_MIN(p, q) (((q) < (p)) ? (q) : (p))
#define CA_MAX(p, q) (((q) > (p)) ? (q) : (p))

/* One layer's frame, in the spec's exact operation order. The products that
 * two corners share (a*x0 == a*x1, c*y0 == c*y2, ...) are computed once:
 * they are the same operation on the same operands, hence the same bits. */
static CA_ALWAYS_INLINE void ca_frame_scalar(double w, double h, double ax, double ay,
                                             double a, double b, double c, double d,
                                             double tx, double ty, double px, double py,
                                             double *fx, double *fy, double *fw, double *fh) {
    const double rx = (-w) * ax;
    const double ry = (-h) * ay;
    const double xr = rx + w; /* x of corners 2 and 3 */
    const double yt = ry + h; /* y of corners 1 and 3 */

    const double aL = a * rx, aR = a * xr, cB = c * ry, cT = c * yt;
    const double bL = b * rx, bR = b * xr, dB = d * ry, dT = d * yt;

    const double X0 = (aL + cB) + tx, Y0 = (bL + dB) + ty;
    const double X1 = (aL + cT) + tx, Y1 = (bL + dT) + ty;
    const double X2 = (aR + cB) + tx, Y2 = (bR + dB) + ty;
    const double X3 = (aR + cT) + tx, Y3 = (bR + dT) + ty;

    const double minX = CA_MIN(CA_MIN(CA_MIN(X0, X1), X2), X3);
    const double maxX = CA_MAX(CA_MAX(CA_MAX(X0, X1), X2), X3);
    const double minY = CA_MIN(CA_MIN(CA_MIN(Y0, Y1), Y2), Y3);
    const double maxY = CA_MAX(CA_MAX(CA_MAX(Y0, Y1), Y2), Y3);

    *fx = minX + px;
    *fy = minY + py;
    *fw = maxX - minX;
    *fh = maxY - minY;
}

/* Frames of [start, end) one layer at a time (portable backend and the
 * scalar tails of the SIMD backends). */
static CA_ALWAYS_INLINE void ca_frames_scalar_range(const BGFrameColumns *k, size_t start, size_t end) {
    if (start >= end) return; /* empty: touch nothing (k may be NULL) */
    const double *restrict W = k->width, *restrict H = k->height;
    const double *restrict AX = k->anchorX, *restrict AY = k->anchorY;
    const double *restrict A = k->a, *restrict B = k->b, *restrict C = k->c, *restrict D = k->d;
    const double *restrict TX = k->tx, *restrict TY = k->ty;
    const double *restrict PX = k->positionX, *restrict PY = k->positionY;
    double *restrict FX = k->frameX, *restrict FY = k->frameY;
    double *restrict FW = k->frameWidth, *restrict FH = k->frameHeight;
    for (size_t i = start; i < end; i++) {
        ca_frame_scalar(W[i], H[i], AX[i], AY[i], A[i], B[i], C[i], D[i], TX[i], TY[i],
                        PX[i], PY[i], &FX[i], &FY[i], &FW[i], &FH[i]);
    }
}

/* The planar product, defined once for C: out = A * B ("A then B") for the
 * six-double planar form, world = local * parentWorld, in the spec's exact
 * operation order. MUL and ADD are the element operations: the scalar
 * CA_SMUL/CA_SADD below (CA_AFFINE_PRODUCT, CA_AFFINE_TRANSLATION: the
 * portable, kind, chain, list and scattered-parent world loops through
 * ca_world_layer, the translation list in world_scattered.c, the scalar concat)
 * or a SIMD backend's CA_VMUL/CA_VADD (simd_template.h's concat). It must stay
 * the expression of Swift's `planarProduct` (Model/AffineTransform.swift):
 * same operation order, every product rounded before its sum (no FMA: the
 * FP_CONTRACT pragmas, checked by Tests/CKernelTests/run.sh), so that every
 * backend, instruction set and thread count gives the same bits. All inputs
 * are read before anything is written, so out may be A or B. */
#define CA_SMUL(x, y) ((x) * (y))
#define CA_SADD(x, y) ((x) + (y))
#define CA_AFFINE_TRANSLATION_OPS(MUL, ADD, Atx, Aty, Ba, Bb, Bc, Bd, Btx, Bty, Rtx, Rty) \
    do {                                                                            \
        Rtx = ADD(ADD(MUL(Atx, Ba), MUL(Aty, Bc)), Btx);                            \
        Rty = ADD(ADD(MUL(Atx, Bb), MUL(Aty, Bd)), Bty);                            \
    } while (0)
#define CA_AFFINE_PRODUCT_OPS(MUL, ADD, Aa, Ab, Ac, Ad, Atx, Aty, Ba, Bb, Bc, Bd, Btx, Bty, \
                              Ra, Rb, Rc, Rd, Rtx, Rty)                                   \
    do {                                                                                  \
        Ra = ADD(MUL(Aa, Ba), MUL(Ab, Bc));                                               \
        Rb = ADD(MUL(Aa, Bb), MUL(Ab, Bd));                                               \
        Rc = ADD(MUL(Ac, Ba), MUL(Ad, Bc));                                               \
        Rd = ADD(MUL(Ac, Bb), MUL(Ad, Bd));                                               \
        CA_AFFINE_TRANSLATION_OPS(MUL, ADD, Atx, Aty, Ba, Bb, Bc, Bd, Btx, Bty, Rtx, Rty); \
    } while (0)
#define CA_AFFINE_PRODUCT(Aa, Ab, Ac, Ad, Atx, Aty, Ba, Bb, Bc, Bd, Btx, Bty, Ra, Rb, Rc, Rd, Rtx, Rty) \
    CA_AFFINE_PRODUCT_OPS(CA_SMUL, CA_SADD, Aa, Ab, Ac, Ad, Atx, Aty, Ba, Bb, Bc, Bd, Btx, Bty,         \
                          Ra, Rb, Rc, Rd, Rtx, Rty)
#define CA_AFFINE_TRANSLATION(Atx, Aty, Ba, Bb, Bc, Bd, Btx, Bty, Rtx, Rty) \
    CA_AFFINE_TRANSLATION_OPS(CA_SMUL, CA_SADD, Atx, Aty, Ba, Bb, Bc, Bd, Btx, Bty, Rtx, Rty)

/* The column pointers of one propagation loop as restrict locals La..Lty,
 * Wa..Wty and P (local and world never overlap, by precondition), so the
 * compiler keeps values in registers and does not reload column pointers. */
#define CA_PROPAGATION_COLUMNS(local, parent, world)                                                  \
    const double *restrict La = (local)->a, *restrict Lb = (local)->b, *restrict Lc = (local)->c;      \
    const double *restrict Ld = (local)->d, *restrict Ltx = (local)->tx, *restrict Lty = (local)->ty;  \
    double *restrict Wa = (world)->a, *restrict Wb = (world)->b, *restrict Wc = (world)->c;            \
    double *restrict Wd = (world)->d, *restrict Wtx = (world)->tx, *restrict Wty = (world)->ty;        \
    const int32_t *restrict P = (parent)

/* 1 when x is finite: its exponent bits are not all ones. Integer work, which
 * leaves the FP pipes to the products (see ca_world_layer's check_bits). */
static CA_ALWAYS_INLINE int ca_is_finite_bits(double x) {
    uint64_t bits;
    __builtin_memcpy(&bits, &x, sizeof bits);
    return (bits & 0x7ff0000000000000ull) != 0x7ff0000000000000ull;
}

/* One planar layer of world propagation, the step every checked propagation
 * loop shares (index order, order lists, kind runs, scattered parents), so
 * they all give the same bits:
 *
 *     world[i] = parent < 0 ? local : local * world[parent]
 *
 * with CA_AFFINE_PRODUCT. The local entries come in as values, so the kind
 * paths can pass literals. Adds (x - x) of every result to *poison: 0 for a
 * finite x, NaN otherwise, so the sum stays 0 exactly when all are finite.
 * With check_bits (a constant at each call site) it tests the exponent bits
 * instead and sets *poison to NaN: the same verdict. The sum is 12 FP
 * operations a layer, cheap on a streaming pass but, on a chain, where each
 * layer waits for the world its superlayer just stored, they compete with
 * that dependency for the FP pipes (1M-layer chain: 8.2 ms with the sum, 6.1
 * with the bits; the standard tree: 3.9 ms with the sum, about 5 with the
 * bits). */
static CA_ALWAYS_INLINE void ca_world_layer(double la, double lb, double lc, double ld, double ltx, double lty,
                                            int32_t parent, size_t i,
                                            double *restrict Wa, double *restrict Wb, double *restrict Wc,
                                            double *restrict Wd, double *restrict Wtx, double *restrict Wty,
                                            double *poison, int check_bits) {
    double ra, rb, rc, rd, rtx, rty;
    if (parent < 0) {
        ra = la; rb = lb; rc = lc; rd = ld; rtx = ltx; rty = lty;
    } else {
        const size_t q = (size_t)parent;
        const double pa = Wa[q], pb = Wb[q], pc = Wc[q], pd = Wd[q], ptx = Wtx[q], pty = Wty[q];
        CA_AFFINE_PRODUCT(la, lb, lc, ld, ltx, lty, pa, pb, pc, pd, ptx, pty, ra, rb, rc, rd, rtx, rty);
    }
    Wa[i] = ra; Wb[i] = rb; Wc[i] = rc; Wd[i] = rd; Wtx[i] = rtx; Wty[i] = rty;
    if (check_bits) {
        const int finite = ca_is_finite_bits(ra) & ca_is_finite_bits(rb) & ca_is_finite_bits(rc)
                         & ca_is_finite_bits(rd) & ca_is_finite_bits(rtx) & ca_is_finite_bits(rty);
        if (!finite) *poison = __builtin_nan("");
    } else {
        *poison += ((ra - ra) + (rb - rb)) + ((rc - rc) + (rd - rd)) + ((rtx - rtx) + (rty - rty));
    }
}

/* Elementwise concat of [start, end), scalar (no restrict: in place allowed). */
static CA_ALWAYS_INLINE void ca_concat_scalar_range(const BGAffineColumns *A, const BGAffineColumns *B,
                                                    BGAffineColumns *out, size_t start, size_t end) {
    if (start >= end) return; /* empty: touch nothing (pointers may be NULL) */
    const double *pAa = A->a, *pAb = A->b, *pAc = A->c, *pAd = A->d, *pAtx = A->tx, *pAty = A->ty;
    const double *pBa = B->a, *pBb = B->b, *pBc = B->c, *pBd = B->d, *pBtx = B->tx, *pBty = B->ty;
    double *pRa = out->a, *pRb = out->b, *pRc = out->c, *pRd = out->d, *pRtx = out->tx, *pRty = out->ty;
    for (size_t i = start; i < end; i++) {
        const double aa = pAa[i], ab = pAb[i], ac = pAc[i], ad = pAd[i], atx = pAtx[i], aty = pAty[i];
        const double ba = pBa[i], bb = pBb[i], bc = pBc[i], bd = pBd[i], btx = pBtx[i], bty = pBty[i];
        double ra, rb, rc, rd, rtx, rty;
        CA_AFFINE_PRODUCT(aa, ab, ac, ad, atx, aty, ba, bb, bc, bd, btx, bty, ra, rb, rc, rd, rtx, rty);
        pRa[i] = ra; pRb[i] = rb; pRc[i] = rc; pRd[i] = rd; pRtx[i] = rtx; pRty[i] = rty;
    }
}

/* One lane of BGTimingNewton8 (CAffineKernels.h): the Newton loop of Swift's
 * TimingFunction.value(at:), operation for operation. Returns 1 with *y the float
 * result (as a double) when a step lands within 1e-5, else 0 (a flat slope, or 8
 * steps without: the caller's bisection). c: ax, bx, cx, ay, by, cy. The portable
 * backend's lanes; the SIMD ones do the same operations lanewise. */
static CA_ALWAYS_INLINE int ca_timing_newton_lane(const double *c, double input, double *y) {
    const double ax = c[0], bx = c[1], cx = c[2], ay = c[3], by = c[4], cy = c[5];
    const double x = (double)(float)input;
    double t = x;
    for (int step = 0; step < 8; step++) {
        const double e = ((ax * t + bx) * t + cx) * t - x;
        if (__builtin_fabs(e) < 1e-5) {
            *y = (double)(float)(((ay * t + by) * t + cy) * t);
            return 1;
        }
        const double g = ((3 * ax) * t + 2 * bx) * t + cx;
        if (__builtin_fabs(g) < 1e-6) return 0;
        t = t - e / g;
    }
    return 0;
}

/* floor(x), as Swift's roundedDown (Time/AnimationTiming.swift) computes it: below
 * 2^52 in magnitude by truncation (one less when that is above x; a zero keeps x's
 * sign); from 2^52 on every double is an integer, and an infinity or NaN is its own
 * floor, so x itself. The same number as floor for every x, without libm (the module
 * links nothing). */
static CA_ALWAYS_INLINE double ca_floor(double x) {
    if (!(__builtin_fabs(x) < 0x1p52)) return x;
    const double t = (double)(int64_t)x;
    if (t > x) return t - 1;
    return t == 0 ? x * 0 : t;
}

/* One member of BGLaneTimes (CAffineKernels.h), the steps of the Swift lane timing
 * loop in its order: 0 when it does not show inside its active duration (nothing
 * written), else 1 with its progress and iteration written. */
static CA_ALWAYS_INLINE int ca_lane_time(const BGLaneTimings *t, size_t i, double time, int divide,
                                         double *progress, double *iterations) {
    const double b = t->beginTime[i], s = t->speed[i], D = t->active[i];
    if (!(time >= b)) return 0;
    const double tau = (time - b) * __builtin_fabs(s);
    if (tau > D) return 0;
    const double I = t->iteration[i], d = t->duration[i];
    const double l = (s < 0 ? -tau : tau) + t->timeOffset[i];
    double k = ca_floor(l / I);
    double r = l - k * I;
    if (tau == D && s > 0 && r == 0) {
        r = I;
        k = k - 1;
    }
    const double m = 0 >= r ? 0 : r; /* Swift.max(r, 0) */
    r = I < m ? I : m;               /* Swift.min(m, I) */
    double local = r;
    if (t->autoreverses[i] != 0) {
        local = r <= d ? r : I - r;
        k = 0;
    }
    iterations[i] = k;
    progress[i] = divide ? local / d : local;
    return 1;
}

/* ---- implementation tables (dispatch.c) -------------------------------- */

/* The planar world kernels (world_portable.c, world_kinds.c, world_scattered.c), with
 * the contracts of the public entry points of the same names. One instance, shared by
 * every BGKernelTable: see ca_world_kernels_portable in dispatch.c for why. */
struct ca_world_kernels {
    int (*checked)(const BGAffineColumns *local, const int32_t *parent, const int32_t *order,
                   BGAffineColumns *world, size_t start, size_t end);
    int (*chain_checked)(const BGAffineColumns *local, const int32_t *parent, const int32_t *order,
                         BGAffineColumns *world, size_t start, size_t end);
    int (*kinds_checked)(const BGAffineColumns *local, const int32_t *parent, const uint8_t *blockKind,
                         BGAffineColumns *world, size_t start, size_t end);
    int (*scattered_parents_checked)(const BGAffineColumns *local, const int32_t *parent,
                                     BGAffineColumns *world, size_t start, size_t end);
    int (*list_checked)(const BGAffineColumns *local, const int32_t *parent, const int32_t *layers,
                        BGAffineColumns *world, size_t count);
    int (*translation_list_checked)(const BGAffineColumns *local, const int32_t *parent, const int32_t *layers,
                                    BGAffineColumns *world, size_t count);
};
CA_HIDDEN int ca_world_checked(const BGAffineColumns *local, const int32_t *parent, const int32_t *order,
                               BGAffineColumns *world, size_t start, size_t end);
CA_HIDDEN int ca_world_chain_checked(const BGAffineColumns *local, const int32_t *parent, const int32_t *order,
                                     BGAffineColumns *world, size_t start, size_t end);
CA_HIDDEN int ca_world_kinds_checked(const BGAffineColumns *local, const int32_t *parent, const uint8_t *blockKind,
                                     BGAffineColumns *world, size_t start, size_t end);
CA_HIDDEN int ca_world_scattered_parents_checked(const BGAffineColumns *local, const int32_t *parent,
                                                 BGAffineColumns *world, size_t start, size_t end);
CA_HIDDEN int ca_world_list_checked(const BGAffineColumns *local, const int32_t *parent, const int32_t *layers,
                                    BGAffineColumns *world, size_t count);
CA_HIDDEN int ca_world_translation_list_checked(const BGAffineColumns *local, const int32_t *parent,
                                                const int32_t *layers, BGAffineColumns *world, size_t count);

/* Each instruction set's frames, concat and 4x4 kernels (the fields of BGKernelTable,
 * testing/CAffineKernelsTesting.h). Unchecked: callers must know the CPU runs them. */
CA_HIDDEN void ca_frames_portable(const BGFrameColumns *k, size_t start, size_t end);
CA_HIDDEN void ca_concat_portable(size_t n, const BGAffineColumns *A, const BGAffineColumns *B, BGAffineColumns *out);
CA_HIDDEN void ca_general_portable(const BGGeneralWorld *k, const ptrdiff_t *positions, size_t count);
CA_HIDDEN int ca_lane_times_portable(const BGLaneTimings *timings, size_t count, double time, int divide,
                                     double *progress, double *iterations);
CA_HIDDEN unsigned ca_timing_newton8_portable(const double *coefficients, const int32_t *functions, double *values);
CA_HIDDEN void ca_transform_lanes_portable(const BGTransformLanes *lanes, size_t count);
CA_HIDDEN void ca_spring_progress_portable(const double *table, const int32_t *springs, double *values, size_t count);
CA_HIDDEN void ca_slerp_lanes_portable(const double *slerp, const double *progress, double *rotation, size_t count);
#if CA_ARCH_X86
CA_HIDDEN void ca_frames_avx2(const BGFrameColumns *k, size_t start, size_t end);
CA_HIDDEN void ca_concat_avx2(size_t n, const BGAffineColumns *A, const BGAffineColumns *B, BGAffineColumns *out);
CA_HIDDEN void ca_general_avx2(const BGGeneralWorld *k, const ptrdiff_t *positions, size_t count);
CA_HIDDEN void ca_frames_avx512(const BGFrameColumns *k, size_t start, size_t end);
CA_HIDDEN void ca_concat_avx512(size_t n, const BGAffineColumns *A, const BGAffineColumns *B, BGAffineColumns *out);
CA_HIDDEN void ca_general_avx512(const BGGeneralWorld *k, const ptrdiff_t *positions, size_t count);
CA_HIDDEN int ca_lane_times_avx2(const BGLaneTimings *timings, size_t count, double time, int divide,
                                 double *progress, double *iterations);
CA_HIDDEN void ca_transform_lanes_avx2(const BGTransformLanes *lanes, size_t count);
CA_HIDDEN unsigned ca_timing_newton8_avx2(const double *coefficients, const int32_t *functions, double *values);
CA_HIDDEN unsigned ca_timing_newton8_avx512(const double *coefficients, const int32_t *functions, double *values);
CA_HIDDEN void ca_spring_progress_avx2(const double *table, const int32_t *springs, double *values, size_t count);
CA_HIDDEN void ca_slerp_lanes_avx2(const double *slerp, const double *progress, double *rotation, size_t count);
CA_HIDDEN void ca_spring_progress_avx512(const double *table, const int32_t *springs, double *values, size_t count);
#endif
#if CA_ARCH_ARM64
CA_HIDDEN void ca_frames_neon(const BGFrameColumns *k, size_t start, size_t end);
CA_HIDDEN void ca_concat_neon(size_t n, const BGAffineColumns *A, const BGAffineColumns *B, BGAffineColumns *out);
#endif

#endif /* CAFFINEKERNELS_INTERNAL_H */
