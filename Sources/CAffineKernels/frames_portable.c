/*
 * frames_portable.c — the portable frames backend: plain C in the exact
 * order of the spec (the scalar code in internal.h). It is the reference the
 * SIMD backends must match bit for bit, and the fallback on every CPU. The
 * compiler may auto-vectorize it for the baseline ISA; that cannot change
 * results because contraction is off and no fast-math is in effect.
 */
#pragma STDC FP_CONTRACT OFF
#if defined(__clang__)
#pragma clang fp contract(off)
#endif

#include "internal.h"

void ca_frames_portable(const BGFrameColumns *columns, size_t start, size_t end) {
    ca_frames_scalar_range(columns, start, end);
}
