/*
 * simd_avx2.c — AVX2 backend (4 doubles per vector): the shared algorithm of
 * simd_template.h instantiated with AVX intrinsics inside functions carrying
 * __attribute__((target("avx2"))), so the module needs no compiler flags and
 * still runs on older x86 CPUs (dispatch.c only selects it when the CPU has
 * AVX2). Explicit mul + add intrinsics and the pragmas below keep clang from
 * fusing anything into FMA.
 */
#pragma STDC FP_CONTRACT OFF
#if defined(__clang__)
#pragma clang fp contract(off)
#endif

#include "internal.h"
#include "transform_lanes.h"
#define CA_SW 4
#include "spring_lanes.h"

#if CA_ARCH_X86
#include <immintrin.h>

#define CA_V __m256d
#define CA_VW 4
#define CA_VLOAD(p) _mm256_loadu_pd(p)
#define CA_VSTORE(p, v) _mm256_storeu_pd((p), (v))
#define CA_VADD(x, y) _mm256_add_pd((x), (y))
#define CA_VSUB(x, y) _mm256_sub_pd((x), (y))
#define CA_VMUL(x, y) _mm256_mul_pd((x), (y))
#define CA_VNEG(x) _mm256_xor_pd((x), _mm256_set1_pd(-0.0))
/* vminpd(A, B) is exactly A < B ? A : B (NaN or equal -> B), so the spec's
 * MIN(p, q) = (q < p) ? q : p is vminpd(q, p); likewise for max. */
#define CA_VMIN_SEL(p, q) _mm256_min_pd((q), (p))
#define CA_VMAX_SEL(p, q) _mm256_max_pd((q), (p))
#define CA_SIMD_ATTR CA_HIDDEN __attribute__((target("avx2")))
#define CA_SIMD_FRAMES_NAME ca_frames_avx2
#define CA_SIMD_CONCAT_NAME ca_concat_avx2
#include "simd_template.h"

/* The lane timing loop (BGLaneTimes; ca_lane_time's steps lanewise), four members a
 * vector: the floor is vroundpd's (exact, as floor), Swift's max(r, 0) and min(m, I)
 * are compare-and-select in their argument order (signed zeros and NaN as Swift
 * gives them), the tail goes through ca_lane_time. */
CA_HIDDEN __attribute__((target("avx2"))) int ca_lane_times_avx2(const BGLaneTimings *t, size_t count, double time,
                                                               int divide, double *progress, double *iterations) {
    const __m256d now = _mm256_set1_pd(time), zero = _mm256_setzero_pd(), one = _mm256_set1_pd(1);
    const __m256d sign = _mm256_set1_pd(-0.0);
    size_t i = 0;
    for (; count - i >= 4; i += 4) {
        const __m256d b = _mm256_loadu_pd(t->beginTime + i), s = _mm256_loadu_pd(t->speed + i);
        const __m256d D = _mm256_loadu_pd(t->active + i);
        const __m256d tau = _mm256_mul_pd(_mm256_sub_pd(now, b), _mm256_andnot_pd(sign, s));
        const __m256d shows = _mm256_and_pd(_mm256_cmp_pd(now, b, _CMP_GE_OQ), _mm256_cmp_pd(tau, D, _CMP_NGT_UQ));
        if (_mm256_movemask_pd(shows) != 0xf) return 1;
        const __m256d I = _mm256_loadu_pd(t->iteration + i), d = _mm256_loadu_pd(t->duration + i);
        const __m256d backwards = _mm256_cmp_pd(s, zero, _CMP_LT_OQ);
        const __m256d l = _mm256_add_pd(_mm256_blendv_pd(tau, _mm256_xor_pd(tau, sign), backwards),
                                        _mm256_loadu_pd(t->timeOffset + i));
        __m256d k = _mm256_floor_pd(_mm256_div_pd(l, I));
        __m256d r = _mm256_sub_pd(l, _mm256_mul_pd(k, I));
        const __m256d end = _mm256_and_pd(
            _mm256_cmp_pd(tau, D, _CMP_EQ_OQ),
            _mm256_and_pd(_mm256_cmp_pd(s, zero, _CMP_GT_OQ), _mm256_cmp_pd(r, zero, _CMP_EQ_OQ)));
        r = _mm256_blendv_pd(r, I, end);
        k = _mm256_blendv_pd(k, _mm256_sub_pd(k, one), end);
        const __m256d m = _mm256_blendv_pd(r, zero, _mm256_cmp_pd(zero, r, _CMP_GE_OQ)); /* max(r, 0) */
        r = _mm256_blendv_pd(m, I, _mm256_cmp_pd(I, m, _CMP_LT_OQ));                     /* min(m, I) */
        const __m256d reverses = _mm256_cmp_pd(_mm256_loadu_pd(t->autoreverses + i), zero, _CMP_NEQ_UQ);
        const __m256d back = _mm256_blendv_pd(_mm256_sub_pd(I, r), r, _mm256_cmp_pd(r, d, _CMP_LE_OQ));
        const __m256d local = _mm256_blendv_pd(r, back, reverses);
        _mm256_storeu_pd(iterations + i, _mm256_blendv_pd(k, zero, reverses));
        _mm256_storeu_pd(progress + i, divide ? _mm256_div_pd(local, d) : local);
    }
    for (; i < count; i++)
        if (!ca_lane_time(t, i, time, divide, progress, iterations)) return 1;
    return 0;
}

/* The timing-function solve (BGTimingNewton8; the lane loop of ca_timing_newton_lane),
 * eight lanes as two vectors of four, stepped together so that their divisions
 * overlap. A lane stops where the scalar loop stops (converged, or a flat slope) and
 * keeps its t; a vector steps until no lane of either is active. The compares are
 * ordered (NaN fails, as in the scalar |e| < 1e-5). */
static CA_ALWAYS_INLINE __attribute__((target("avx2"))) void ca_timing_coefficients_avx2(
    const double *c, const int32_t *functions, int half, __m256d v[6]) {
    if (functions == NULL) {
        for (int j = 0; j < 6; j++) v[j] = _mm256_broadcast_sd(c + j);
        return;
    }
    const __m128i index = _mm_mullo_epi32(_mm_loadu_si128((const __m128i *)(functions + 4 * half)), _mm_set1_epi32(6));
    for (int j = 0; j < 6; j++) v[j] = _mm256_i32gather_pd(c + j, index, 8);
}

CA_HIDDEN __attribute__((target("avx2"))) unsigned ca_timing_newton8_avx2(const double *coefficients,
                                                                        const int32_t *functions, double *values) {
    __m256d k[2][6], x[2], t[2], sa[2], sb[2], active[2], converged[2];
    const __m256d near = _mm256_set1_pd(1e-5), nearNeg = _mm256_set1_pd(-1e-5);
    const __m256d flat = _mm256_set1_pd(1e-6), flatNeg = _mm256_set1_pd(-1e-6);
    for (int h = 0; h < 2; h++) {
        ca_timing_coefficients_avx2(coefficients, functions, h, k[h]);
        x[h] = _mm256_cvtps_pd(_mm256_cvtpd_ps(_mm256_loadu_pd(values + 4 * h)));
        t[h] = x[h];
        sa[h] = _mm256_mul_pd(_mm256_set1_pd(3), k[h][0]);
        sb[h] = _mm256_mul_pd(_mm256_set1_pd(2), k[h][1]);
        active[h] = _mm256_castsi256_pd(_mm256_set1_epi64x(-1));
        converged[h] = _mm256_setzero_pd();
    }
    for (int step = 0; step < 8; step++) {
        __m256d e[2], g[2];
        int any = 0;
        for (int h = 0; h < 2; h++) {
            const __m256d X = _mm256_mul_pd(
                _mm256_add_pd(_mm256_mul_pd(_mm256_add_pd(_mm256_mul_pd(k[h][0], t[h]), k[h][1]), t[h]), k[h][2]), t[h]);
            e[h] = _mm256_sub_pd(X, x[h]);
            const __m256d in = _mm256_and_pd(
                active[h],
                _mm256_and_pd(_mm256_cmp_pd(e[h], near, _CMP_LT_OQ), _mm256_cmp_pd(e[h], nearNeg, _CMP_GT_OQ)));
            converged[h] = _mm256_or_pd(converged[h], in);
            g[h] = _mm256_add_pd(_mm256_mul_pd(_mm256_add_pd(_mm256_mul_pd(sa[h], t[h]), sb[h]), t[h]), k[h][2]);
            const __m256d level = _mm256_and_pd(_mm256_cmp_pd(g[h], flat, _CMP_LT_OQ),
                                                _mm256_cmp_pd(g[h], flatNeg, _CMP_GT_OQ));
            active[h] = _mm256_andnot_pd(_mm256_or_pd(in, level), active[h]);
            any |= _mm256_movemask_pd(active[h]);
        }
        if (!any) break;
        for (int h = 0; h < 2; h++)
            t[h] = _mm256_blendv_pd(t[h], _mm256_sub_pd(t[h], _mm256_div_pd(e[h], g[h])), active[h]);
    }
    unsigned solved = 0;
    for (int h = 0; h < 2; h++) {
        const __m256d Y = _mm256_mul_pd(
            _mm256_add_pd(_mm256_mul_pd(_mm256_add_pd(_mm256_mul_pd(k[h][3], t[h]), k[h][4]), t[h]), k[h][5]), t[h]);
        const __m256d y = _mm256_cvtps_pd(_mm256_cvtpd_ps(Y));
        const __m256d old = _mm256_loadu_pd(values + 4 * h);
        _mm256_storeu_pd(values + 4 * h, _mm256_blendv_pd(old, y, converged[h]));
        solved |= (unsigned)_mm256_movemask_pd(converged[h]) << (4 * h);
    }
    return ~solved & 0xffu;
}

/* The whole-transform lanes' write (BGTransformLanesWrite): transform_lanes.h's body,
 * its four-lane vectors one AVX register each. */
CA_HIDDEN __attribute__((target("avx2"))) void ca_transform_lanes_avx2(const BGTransformLanes *lanes,
                                                                     size_t count) {
    ca_transform_lanes_body(lanes, count);
}

/* The spring lanes (BGSpringProgress): spring_lanes.h's body, four lanes one AVX
 * register. */
CA_HIDDEN __attribute__((target("avx2"))) void ca_spring_progress_avx2(const double *table, const int32_t *springs,
                                                                     double *values, size_t count) {
    ca_spring_body(table, springs, values, count);
}

/* The whole-transform lanes' slerp (BGSlerpLanes): spring_lanes.h's four-lane body, one
 * AVX register a field (the AVX-512 table runs it too: its blocks are four wide). */
CA_HIDDEN __attribute__((target("avx2"))) void ca_slerp_lanes_avx2(const double *slerp, const double *progress,
                                                                 double *rotation, size_t count) {
    ca_slerp_body(slerp, progress, rotation, count);
}

#endif
