/*
 * timing_portable.c — the portable timing-function solve (BGTimingNewton8): each
 * lane by ca_timing_newton_lane (internal.h), the Newton loop of Swift's
 * TimingFunction.value(at:); and the lane timing loop (BGLaneTimes), each member
 * by ca_lane_time. The references the SIMD backends match bit for bit, and what NEON
 * runs.
 */
#pragma STDC FP_CONTRACT OFF
#if defined(__clang__)
#pragma clang fp contract(off)
#endif

#include "internal.h"

unsigned ca_timing_newton8_portable(const double *coefficients, const int32_t *functions, double *values) {
    unsigned left = 0;
    for (int k = 0; k < 8; k++) {
        const double *c = functions ? coefficients + 6 * (size_t)functions[k] : coefficients;
        double y;
        if (ca_timing_newton_lane(c, values[k], &y)) {
            values[k] = y;
        } else {
            left |= 1u << k;
        }
    }
    return left;
}

int ca_lane_times_portable(const BGLaneTimings *timings, size_t count, double time, int divide, double *progress,
                           double *iterations) {
    for (size_t i = 0; i < count; i++)
        if (!ca_lane_time(timings, i, time, divide, progress, iterations)) return 1;
    return 0;
}
