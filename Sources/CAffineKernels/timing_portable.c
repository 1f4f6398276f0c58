/*
 * timing_portable.c — the portable timing-function solve (BGTimingNewton8): each
 * lane by ca_timing_newton_lane (internal.h), the Newton loop of Swift's
 * TimingFunction.value(at:), in two-lane vectors; and the lane timing loop
 * (BGLaneTimes), each member by ca_lane_time. Bit for bit what the SIMD backends give,
 * and what NEON runs.
 */
#pragma STDC FP_CONTRACT OFF
#if defined(__clang__)
#pragma clang fp contract(off)
#endif

#include "internal.h"

/* Two-lane vectors (the compiler's vector extension: SSE2 on x86-64's baseline, NEON
 * on arm64), four stepped together so that their divisions overlap: the lanes of the
 * SIMD backends, each doing ca_timing_newton_lane's operations in its order (a lane
 * stops where the scalar loop stops and keeps its t; ordered compares, so NaN fails as
 * in |e| < 1e-5). Measured on the dev machine: ~70 ns a call against ~125 for the
 * lanes one after the other (AVX2: ~55). */
typedef double ca_v2d __attribute__((vector_size(16)));
typedef int64_t ca_v2i __attribute__((vector_size(16)));

unsigned ca_timing_newton8_portable(const double *coefficients, const int32_t *functions, double *values) {
    ca_v2d ax[4], bx[4], cx[4], sa[4], sb[4], x[4], t[4];
    ca_v2i active[4], converged[4];
    for (int h = 0; h < 4; h++) {
        const double *c0 = functions ? coefficients + 6 * (size_t)functions[2 * h] : coefficients;
        const double *c1 = functions ? coefficients + 6 * (size_t)functions[2 * h + 1] : coefficients;
        ax[h] = (ca_v2d){c0[0], c1[0]};
        bx[h] = (ca_v2d){c0[1], c1[1]};
        cx[h] = (ca_v2d){c0[2], c1[2]};
        sa[h] = (ca_v2d){3, 3} * ax[h];
        sb[h] = (ca_v2d){2, 2} * bx[h];
        x[h] = (ca_v2d){(double)(float)values[2 * h], (double)(float)values[2 * h + 1]};
        t[h] = x[h];
        active[h] = (ca_v2i){-1, -1};
        converged[h] = (ca_v2i){0, 0};
    }
    const ca_v2d near = {1e-5, 1e-5}, nearNeg = {-1e-5, -1e-5}, flat = {1e-6, 1e-6}, flatNeg = {-1e-6, -1e-6};
    for (int step = 0; step < 8; step++) {
        ca_v2d e[4], g[4];
        ca_v2i any = {0, 0};
        for (int h = 0; h < 4; h++) {
            e[h] = ((ax[h] * t[h] + bx[h]) * t[h] + cx[h]) * t[h] - x[h];
            const ca_v2i in = active[h] & (e[h] < near) & (e[h] > nearNeg);
            converged[h] |= in;
            g[h] = (sa[h] * t[h] + sb[h]) * t[h] + cx[h];
            const ca_v2i level = (g[h] < flat) & (g[h] > flatNeg);
            active[h] &= ~in & ~level;
            any |= active[h];
        }
        if (!(any[0] | any[1])) break;
        for (int h = 0; h < 4; h++) {
            const ca_v2i next = (ca_v2i)(t[h] - e[h] / g[h]);
            t[h] = (ca_v2d)(((ca_v2i)t[h] & ~active[h]) | (next & active[h]));
        }
    }
    unsigned left = 0;
    for (int k = 0; k < 8; k++) {
        if (!converged[k / 2][k % 2]) {
            left |= 1u << k;
            continue;
        }
        const double *c = functions ? coefficients + 6 * (size_t)functions[k] : coefficients;
        const double tk = t[k / 2][k % 2];
        values[k] = (double)(float)(((c[3] * tk + c[4]) * tk + c[5]) * tk);
    }
    return left;
}

int ca_lane_times_portable(const BGLaneTimings *timings, size_t count, double time, int divide, double *progress,
                           double *iterations) {
    for (size_t i = 0; i < count; i++)
        if (!ca_lane_time(timings, i, time, divide, progress, iterations)) return 1;
    return 0;
}

/* The keyframe lanes' segments (BGKeyframeSegments): Swift's segment search and σ in
 * its order, one member at a time (scalar: no CPU-specific code). The search reads at
 * most the member's last segment's key times; a kept segment skips the value loads. */
void BGKeyframeSegments(const BGKeyframeLanes *k, size_t count) {
    for (size_t m = 0; m < count; m++) {
        const int32_t *set = k->sets + 4 * m;
        const double *kt = k->keyTimes + set[0];
        const double u = k->progress[m];
        int32_t i = 0;
        for (int32_t j = set[1]; j > 0; j--) {
            if (kt[j] <= u) {
                i = j;
                break;
            }
        }
        const double w = kt[i + 1] - kt[i];
        k->progress[m] = w == 0 ? 1 : (u - kt[i]) / w;
        if (k->segments[m] == i) continue;
        const double *a = k->values + (size_t)set[2] + 4 * (size_t)i;
        for (int l = 0; l < 4; l++) {
            k->starts[4 * m + (size_t)l] = a[l];
            k->deltas[4 * m + (size_t)l] = a[4 + l] - a[l];
        }
        k->segments[m] = i;
        k->functions[m] = set[3] + i;
    }
}
