#!/usr/bin/env bash
# Runs the tests that exercise the parallel kernels under ThreadSanitizer and
# AddressSanitizer (separate build folders, so the normal build stays untouched), and the
# C kernel tests (SwiftPM builds in .build-ckernels/: debug, release, ASan+UBSan, TSan, FMA
# stress). Used by .ci/run; takes a few minutes on 2 cores.
#   scripts/sanitizers.sh            all of it
#   scripts/sanitizers.sh thread     only one sanitizer (thread | address | c)
set -euo pipefail
cd "$(dirname "$0")/.."
# ThreadSanitizer: the tests that run kernels over several threads (ValueSemantics runs
# eight stores at once and mutates copies of one store from eight threads).
# (WorldKernel also matches GeneralWorldKernelTests.)
# AddressSanitizer: those plus the store's structural edits and errors and the
# non-finite inputs (single-threaded, so TSan would add only time).
# LimitsTests is left out of both: its million-layer chains take many minutes under a
# sanitizer and use no code path the others do not. FrameLoopAllocationTests is in both
# to show that it skips there: a sanitizer replaces malloc, so its counter is off.
threaded="FrameKernel|WorldKernel|Incremental|BatchQuer|IntoQuer|Conformance|ValueSemantics|TransformKindPath|IndexOrderPass"
thread_filter="${BATCHGEOMETRY_SANITIZER_FILTER:-$threaded|HierarchyEditing|FrameLoopAllocation}"
address_filter="${BATCHGEOMETRY_SANITIZER_FILTER:-$threaded|HierarchyEditing|StoreError|NonFinite|FrameQuery|FrameLoopAllocation}"
which="${1:-all}"

if [ "$which" = all ] || [ "$which" = thread ]; then
  echo "--- swift test --sanitize=thread --filter '$thread_filter'"
  swift test --scratch-path .build-tsan --sanitize=thread --filter "$thread_filter"
fi
if [ "$which" = all ] || [ "$which" = address ]; then
  echo "--- swift test --sanitize=address --filter '$address_filter'"
  # XCTest leaks a few objects of its own on Linux; suppress exactly those (see the file).
  LSAN_OPTIONS="suppressions=$PWD/scripts/lsan-xctest.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}" \
  ASAN_OPTIONS="malloc_context_size=8${ASAN_OPTIONS:+:$ASAN_OPTIONS}" \
    swift test --scratch-path .build-asan --sanitize=address --filter "$address_filter"
fi
if [ "$which" = all ] || [ "$which" = c ]; then
  echo "--- C kernel tests, sanitizers and FMA check included (Tests/CKernelTests/run.sh)"
  Tests/CKernelTests/run.sh
fi
