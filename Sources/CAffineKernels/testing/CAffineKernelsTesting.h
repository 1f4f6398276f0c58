/*
 * CAffineKernelsTesting.h: entry points for the C kernel tests and benchmarks only.
 *
 * Not in include/, so SwiftPM does not export it and Swift never sees these: the
 * library calls the dispatching entry points of CAffineKernels.h, which choose one
 * implementation table per process. Here are each instruction set's kernels on their
 * own (for differential tests against the portable code) and the elementwise concat
 * that only the tests use. Tests/CKernelTests/run.sh adds this folder to the include
 * path.
 */
#ifndef CAFFINEKERNELS_TESTING_H
#define CAFFINEKERNELS_TESTING_H

#include "CAffineKernels.h"
#include "CAffineKernelsGeneral.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The individual backends of `CAFramesCompute`, for differential tests and
/// benchmarks. Same contract as `CAFramesCompute`. Each returns 1 after
/// computing, or 0 (having done nothing) when that backend is not compiled
/// for this architecture or not supported by this CPU; calling one with
/// start == end (columns may be NULL) is therefore an availability probe.
int CAFramesComputePortable(const CAFrameColumns *columns, size_t start, size_t end); /* always 1 */
int CAFramesComputeAVX2(const CAFrameColumns *columns, size_t start, size_t end);
int CAFramesComputeAVX512(const CAFrameColumns *columns, size_t start, size_t end);
int CAFramesComputeNEON(const CAFrameColumns *columns, size_t start, size_t end);

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
/// Complexity: O(n), streaming. Use it for level-at-a-time propagation
/// (gather parents' world transforms into B, then concat).
void CAAffineConcat(size_t n, const CAAffineColumns *A, const CAAffineColumns *B, CAAffineColumns *out);

/// The individual backends of `CAAffineConcat` (same contract). Each returns
/// 1 after computing, or 0 (having done nothing) when not available here.
int CAAffineConcatPortable(size_t n, const CAAffineColumns *A, const CAAffineColumns *B, CAAffineColumns *out); /* always 1 */
int CAAffineConcatAVX2(size_t n, const CAAffineColumns *A, const CAAffineColumns *B, CAAffineColumns *out);
int CAAffineConcatAVX512(size_t n, const CAAffineColumns *A, const CAAffineColumns *B, CAAffineColumns *out);
int CAAffineConcatNEON(size_t n, const CAAffineColumns *A, const CAAffineColumns *B, CAAffineColumns *out);

/// The individual backends of `CAWorldGeneralPropagate` (same contract), for
/// differential tests: each returns 1 after computing, or 0 (having done
/// nothing) when not available on this CPU/build.
int CAWorldGeneralPropagatePortable(const CAGeneralWorld *k, const ptrdiff_t *positions, size_t count); /* always 1 */
int CAWorldGeneralPropagateAVX2(const CAGeneralWorld *k, const ptrdiff_t *positions, size_t count);
int CAWorldGeneralPropagateAVX512(const CAGeneralWorld *k, const ptrdiff_t *positions, size_t count);

#ifdef __cplusplus
}
#endif

#endif /* CAFFINEKERNELS_TESTING_H */
