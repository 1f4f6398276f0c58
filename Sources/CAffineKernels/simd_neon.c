/*
 * simd_neon.c — NEON backend for arm64 (2 doubles per vector): the shared
 * algorithm of simd_template.h with NEON intrinsics. NEON (ASIMD) is part of
 * the arm64 baseline, so no target attribute and no run-time check.
 *
 * MIN/MAX use compare + bit-select, not vminq/vmaxq: FMIN/FMAX propagate
 * NaN from either operand and order signed zeros, which differs from the
 * spec's select semantics. The pragmas keep vmul + vadd from becoming FMLA.
 */
#pragma STDC FP_CONTRACT OFF
#if defined(__clang__)
#pragma clang fp contract(off)
#endif

#include "internal.h"

#if CA_ARCH_ARM64
#include <arm_neon.h>

#define CA_V float64x2_t
#define CA_VW 2
#define CA_VLOAD(p) vld1q_f64(p)
#define CA_VSTORE(p, v) vst1q_f64((p), (v))
#define CA_VADD(x, y) vaddq_f64((x), (y))
#define CA_VSUB(x, y) vsubq_f64((x), (y))
#define CA_VMUL(x, y) vmulq_f64((x), (y))
#define CA_VNEG(x) vnegq_f64(x)
/* MIN(p, q) = (q < p) ? q : p ; MAX(p, q) = (q > p) ? q : p, lanewise. */
#define CA_VMIN_SEL(p, q) ca_neon_min_sel((p), (q))
#define CA_VMAX_SEL(p, q) ca_neon_max_sel((p), (q))
#define CA_SIMD_ATTR CA_HIDDEN
#define CA_SIMD_FRAMES_NAME ca_frames_neon
#define CA_SIMD_CONCAT_NAME ca_concat_neon

static CA_ALWAYS_INLINE float64x2_t ca_neon_min_sel(float64x2_t p, float64x2_t q) {
    return vbslq_f64(vcltq_f64(q, p), q, p);
}
static CA_ALWAYS_INLINE float64x2_t ca_neon_max_sel(float64x2_t p, float64x2_t q) {
    return vbslq_f64(vcgtq_f64(q, p), q, p);
}

#include "simd_template.h"

#endif
