/*
 * transform_portable.c — the whole-transform lanes' write (BGTransformLanesWrite) for
 * the portable and NEON tables: transform_lanes.h's body, its four-lane vectors as the
 * baseline's (two SSE2 registers on x86-64, two NEON ones on arm64). The bits of the
 * AVX2 instance (simd_avx2.c) and of Swift's `TransformMix.matrix(at:rotation:)`.
 */
#pragma STDC FP_CONTRACT OFF
#if defined(__clang__)
#pragma clang fp contract(off)
#endif

#include "transform_lanes.h"

void ca_transform_lanes_portable(const BGTransformLanes *lanes, size_t count) {
    ca_transform_lanes_body(lanes, count);
}
