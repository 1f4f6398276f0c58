#!/usr/bin/env bash
# Runs the tests that exercise the parallel kernels under ThreadSanitizer, the structural
# edits and error paths under AddressSanitizer (separate build folders, so the normal
# build stays untouched), and the C kernel tests (SwiftPM builds in .build-ckernels/:
# debug, release, ASan+UBSan, TSan, FMA stress).
#   scripts/sanitizers.sh            all of it
#   scripts/sanitizers.sh ci         what .ci/run runs: thread and c
#   scripts/sanitizers.sh thread     only one part (thread | address | c)
#
# CI leaves the Swift tests under ASan out (`address`, ~6 minutes on 2 cores for its
# build alone): the CI job must stay under 45 minutes, and Swift code does run under ASan
# there, in the fuzzers (scripts/fuzz.sh --ci builds both with -sanitize=fuzzer,address)
# and the C examples (scripts/c-examples.sh --asan). Run `address` before a change to the
# unsafe-pointer code of the store or the walks.
#
# Each part builds only the test bundle (--product BatchGeometryPackageTests: not
# batchbench or the bench executables) and runs named test cases, not whole suites: the
# suites' large stores took 18 minutes under TSan, and what TSan needs is a kernel split
# over threads, which these cases do on stores past the split thresholds.
# DebugChecksTests' two threads on one store are left out on purpose: that misuse is a
# race by design (it checks the debug build's report of it).
set -euo pipefail
cd "$(dirname "$0")/.."
# The cases CI runs under TSan (each one was seen splitting work over threads: a log of
# every dispatch_apply with more than one iteration during a whole test run): the
# parallel split itself, the kind paths, the general and planar world passes, the
# incremental range walk, the batch queries and clipping, and copies of one store
# mutated on eight threads. About 30 s in a debug build, a few minutes under TSan.
threaded=(
  ParallelSplitTests/
  TransformKindPathTests/testKindPathsMatchAffineKernelOnEveryBackendAndThreadCount
  GeneralWorldKernelTests/testWideGeneralLevelOverThreads
  WorldKernelTests/testReparentedStoreUsesLevelOrder
  IncrementalTests/testRangeWalkLevelsSplitOverThreadsMatchFullPass
  BatchQueryTests/testWorldRectsThreadCounts
  BatchQueryTests/testConvertPointsMatchSinglePoint
  BatchQueryClippingTests/testWideStoreThreads
  ValueSemanticsTests/testConcurrentMutationOfCopies
)
# Also threaded, but each several times longer (FrameKernel's thread-count case alone ran
# 90 s under TSan): `thread` and `all` run them, `ci` does not.
threaded_more=(
  FrameKernelTests/testThreadCountsBitIdentical
  WorldKernelTests/testThreadCountsAreBitIdentical
  NonFiniteTests/testNonFiniteValuesAcrossThreadChunks
  ValueSemanticsTests/testKernelsOnManyStoresAtOnce
  IntoQueryTests/testIntoFormsEqualArrayFormsAndReferences
)
edits=(
  HierarchyEditingTests/ StoreErrorTests/ NonFiniteTests/testSpecialValuesReachOnlyTheLayersTheyTouch
  FrameQueryTests/testQueriesFollowEdits FrameQueryTests/testCulledHitTestMatchesTheFullWalk
  WideListEditTests/testInsertBurstsRelabelAndRefillTheIndex ParkedDriftTests/
  FrameLoopAllocationTests/
)
join() { local IFS='|'; echo "$*"; }
which="${1:-all}"
case "$which" in all | ci | thread | address | c) ;; *)
  echo "error: unknown part '$which' (all | ci | thread | address | c)" >&2; exit 2 ;;
esac
if [ "$which" = ci ]; then all_threaded=("${threaded[@]}"); else all_threaded=("${threaded[@]}" "${threaded_more[@]}"); fi
thread_filter="${BATCHGEOMETRY_SANITIZER_FILTER:-$(join "${all_threaded[@]}")}"
address_filter="${BATCHGEOMETRY_SANITIZER_FILTER:-$(join "${threaded[@]}" "${edits[@]}")}"

# run_sanitized SANITIZER SCRATCH FILTER: build the test bundle, then run the filter.
run_sanitized() {
  echo "--- swift build --sanitize=$1 --product BatchGeometryPackageTests (scratch path $2)"
  swift build --scratch-path "$2" --sanitize="$1" --product BatchGeometryPackageTests
  echo "--- swift test --sanitize=$1 --skip-build --filter '$3'"
  swift test --scratch-path "$2" --sanitize="$1" --skip-build --filter "$3"
}
if [ "$which" = all ] || [ "$which" = ci ] || [ "$which" = thread ]; then
  run_sanitized thread .build-tsan "$thread_filter"
fi
if [ "$which" = all ] || [ "$which" = address ]; then
  # XCTest leaks a few objects of its own on Linux; suppress exactly those (see the file).
  LSAN_OPTIONS="suppressions=$PWD/scripts/lsan-xctest.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}" \
  ASAN_OPTIONS="malloc_context_size=8${ASAN_OPTIONS:+:$ASAN_OPTIONS}" \
    run_sanitized address .build-asan "$address_filter"
fi
if [ "$which" = all ] || [ "$which" = ci ] || [ "$which" = c ]; then
  echo "--- C kernel tests, sanitizers and FMA check included (Tests/CKernelTests/run.sh)"
  Tests/CKernelTests/run.sh
fi
