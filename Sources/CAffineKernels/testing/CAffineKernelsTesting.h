/*
 * CAffineKernelsTesting.h: for the C kernel tests (Tests/CKernelTests) only.
 *
 * Not in include/, so SwiftPM does not export it and Swift never sees it: the library
 * calls the dispatching entry points of CAffineKernels.h, which go through one
 * implementation table chosen once per process (dispatch.c). This header exposes that
 * table's type and a lookup by name, so that the tests run each instruction set's
 * kernels on their own (differential tests against the portable code) through the same
 * scheme the library uses, and the elementwise concat that only the tests use.
 * Tests/CKernelTests includes it by a relative path.
 */
#ifndef CAFFINEKERNELS_TESTING_H
#define CAFFINEKERNELS_TESTING_H

#include "CAffineKernels.h"
#include "CAffineKernelsGeneral.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Elementwise product, no hierarchy: out[i] = A[i] * B[i] ("A[i] then
/// B[i]") for i in [0, n), with the selected backend. Exactly:
///
///     r.a  = (A.a*B.a) + (A.b*B.c)
///     r.b  = (A.a*B.b) + (A.b*B.d)
///     r.c  = (A.c*B.a) + (A.d*B.c)
///     r.d  = (A.c*B.b) + (A.d*B.d)
///     r.tx = ((A.tx*B.a) + (A.ty*B.c)) + B.tx
///     r.ty = ((A.tx*B.b) + (A.ty*B.d)) + B.ty
///
/// Aliasing: each `out` column may be exactly the same pointer as the
/// corresponding column of A or B (in place); partial overlap is not allowed.
/// With n == 0 nothing is dereferenced (the struct pointers may be NULL).
/// Complexity: O(n), streaming. The vector form of the planar product
/// (simd_template.h), tested against the world kernels' scalar one.
void BGAffineConcat(size_t n, const BGAffineColumns *A, const BGAffineColumns *B, BGAffineColumns *out);

/// The planar world kernels (internal.h): the same portable loops on every table.
struct ca_world_kernels;

/// One instruction set's implementation table: the kernels every dispatching entry
/// point of CAffineKernels.h (and `BGAffineConcat`) calls once this table is selected.
/// Same contracts as those entry points.
typedef struct BGKernelTable {
    const char *name; /* "avx512", "avx2", "neon" or "portable" */
    int (*available)(void); /* 1 when this CPU runs it */
    void (*frames)(const BGFrameColumns *columns, size_t start, size_t end);
    void (*concat)(size_t n, const BGAffineColumns *A, const BGAffineColumns *B, BGAffineColumns *out);
    void (*general)(const BGGeneralWorld *k, const ptrdiff_t *positions, size_t count);
    const struct ca_world_kernels *world;
    unsigned (*timing_newton8)(const double *coefficients, const int32_t *functions, double *values);
    int (*lane_times)(const BGLaneTimings *timings, size_t count, double time, int divide, double *progress,
                      double *iterations);
    void (*transform_lanes)(const BGTransformLanes *lanes, size_t count);
    void (*spring_progress)(const double *table, const int32_t *springs, double *values, size_t count);
    void (*slerp_lanes)(const double *slerp, const double *progress, double *rotation, size_t count);
} BGKernelTable;

/// The table named `name` (ASCII case-insensitive) when this build has it and this
/// CPU runs it, else NULL. Selects nothing: `BGKernelSetBackend` does that.
const BGKernelTable *BGKernelTableNamed(const char *name);

#ifdef __cplusplus
}
#endif

#endif /* CAFFINEKERNELS_TESTING_H */
