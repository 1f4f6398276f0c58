/*
 * emu8.c — instantiates the module's shared SIMD algorithm
 * (Sources/CAffineKernels/simd_template.h) with an 8-lane vector emulated in
 * plain C, so that the template's loop and tail logic at the AVX-512 width
 * is exercised on machines without AVX-512. Only the intrinsic mapping of
 * simd_avx512.c itself is then left untested here.
 */
#pragma STDC FP_CONTRACT OFF
#if defined(__clang__)
#pragma clang fp contract(off)
#endif

#include "../../Sources/CAffineKernels/internal.h"
#include "emu8.h"

typedef struct { double v[8]; } emu8_v;

static inline emu8_v emu8_load(const double *p) { emu8_v r; for (int i = 0; i < 8; i++) r.v[i] = p[i]; return r; }
static inline void emu8_store(double *p, emu8_v x) { for (int i = 0; i < 8; i++) p[i] = x.v[i]; }
static inline emu8_v emu8_add(emu8_v x, emu8_v y) { for (int i = 0; i < 8; i++) x.v[i] = x.v[i] + y.v[i]; return x; }
static inline emu8_v emu8_sub(emu8_v x, emu8_v y) { for (int i = 0; i < 8; i++) x.v[i] = x.v[i] - y.v[i]; return x; }
static inline emu8_v emu8_mul(emu8_v x, emu8_v y) { for (int i = 0; i < 8; i++) x.v[i] = x.v[i] * y.v[i]; return x; }
static inline emu8_v emu8_neg(emu8_v x) { for (int i = 0; i < 8; i++) x.v[i] = -x.v[i]; return x; }
/* Same contract as vminpd(A, B) = A < B ? A : B, used as the AVX backends do. */
static inline emu8_v emu8_vminpd(emu8_v A, emu8_v B) { for (int i = 0; i < 8; i++) A.v[i] = A.v[i] < B.v[i] ? A.v[i] : B.v[i]; return A; }
static inline emu8_v emu8_vmaxpd(emu8_v A, emu8_v B) { for (int i = 0; i < 8; i++) A.v[i] = A.v[i] > B.v[i] ? A.v[i] : B.v[i]; return A; }

#define CA_V emu8_v
#define CA_VW 8
#define CA_VLOAD(p) emu8_load(p)
#define CA_VSTORE(p, v) emu8_store((p), (v))
#define CA_VADD(x, y) emu8_add((x), (y))
#define CA_VSUB(x, y) emu8_sub((x), (y))
#define CA_VMUL(x, y) emu8_mul((x), (y))
#define CA_VNEG(x) emu8_neg(x)
#define CA_VMIN_SEL(p, q) emu8_vminpd((q), (p))
#define CA_VMAX_SEL(p, q) emu8_vmaxpd((q), (p))
#define CA_SIMD_ATTR static
#define CA_SIMD_FRAMES_NAME emu8_frames
#define CA_SIMD_CONCAT_NAME emu8_concat
#include "../../Sources/CAffineKernels/simd_template.h"

void test_emu8_frames(const BGFrameColumns *columns, size_t start, size_t end) {
    emu8_frames(columns, start, end);
}

void test_emu8_concat(size_t n, const BGAffineColumns *A, const BGAffineColumns *B, BGAffineColumns *out) {
    emu8_concat(n, A, B, out);
}
