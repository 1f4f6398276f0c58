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
# FrameLoopAllocationTests is in both to show that it skips there: a sanitizer replaces
# malloc, so its counter is off.
set -euo pipefail
cd "$(dirname "$0")/.."
threaded=(
  BatchQueryTests/testWorldRectsThreadCounts
  BatchQueryTests/testWideStoreThreads
  ConformanceTests/testOutputBytesAreTheSameForEveryBackendAndThreadCount
  FrameKernelTests/testThreadCountsBitIdentical
  FrameLoopAllocationTests/testWideStoreFrameLoopOverThreads
  GeneralWorldKernelTests/testWideGeneralLevelOverThreads
  GeneralWorldKernelTests/testEveryBackendAndThreadCountOnRandomGeneralStores
  IncrementalTests/testRangeWalkLevelsSplitOverThreadsMatchFullPass
  IncrementalTests/testDirtySubtreesOnWideStoreAndSnapshotsStayFixed
  IndexOrderPassTests/testRecursiveTreeTakesTheIndexOrderPassOnEveryBackend
  NonFiniteTests/testNonFiniteValuesAcrossThreadChunks
  ParallelSplitTests/
  TransformKindPathTests/testKindPathsMatchAffineKernelOnEveryBackendAndThreadCount
  ValueSemanticsTests/testConcurrentMutationOfCopies
  ValueSemanticsTests/testKernelsOnManyStoresAtOnce
  WorldKernelTests/testThreadCountsAreBitIdentical
)
edits=(
  HierarchyEditingTests/ StoreErrorTests/ NonFiniteTests/testSpecialValuesReachOnlyTheLayersTheyTouch
  FrameQueryTests/testQueriesFollowEdits FrameQueryTests/testCulledHitTestMatchesTheFullWalk
  WideListEditTests/testInsertBurstsRelabelAndRefillTheIndex ParkedDriftTests/
  FrameLoopAllocationTests/
)
join() { local IFS='|'; echo "$*"; }
thread_filter="${BATCHGEOMETRY_SANITIZER_FILTER:-$(join "${threaded[@]}")}"
address_filter="${BATCHGEOMETRY_SANITIZER_FILTER:-$(join "${threaded[@]}" "${edits[@]}")}"
which="${1:-all}"
case "$which" in all | ci | thread | address | c) ;; *)
  echo "error: unknown part '$which' (all | ci | thread | address | c)" >&2; exit 2 ;;
esac

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
