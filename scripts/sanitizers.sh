#!/usr/bin/env bash
# Runs the tests that exercise the parallel kernels under ThreadSanitizer and
# AddressSanitizer (separate build folders, so the normal build stays untouched), and the
# C kernel tests under UBSan/ASan. Used by .ci/run; takes a few minutes on 2 cores.
#   scripts/sanitizers.sh            all of it
#   scripts/sanitizers.sh thread     only one sanitizer (thread | address | c)
set -euo pipefail
cd "$(dirname "$0")/.."
# Tests that run kernels over several threads (ValueSemantics runs eight stores at once,
# and mutates copies of one store from eight threads), the store's structural edits and
# errors, and the non-finite inputs. LimitsTests is left out: its million-layer chains
# take minutes under a sanitizer and exercise no threading the others do not.
filter="${BATCHGEOMETRY_SANITIZER_FILTER:-FrameKernel|WorldKernel|Incremental|BatchQuer|Conformance|HierarchyEditing|StoreError|ValueSemantics|NonFinite}"
which="${1:-all}"

if [ "$which" = all ] || [ "$which" = thread ]; then
  echo "--- swift test --sanitize=thread --filter '$filter'"
  swift test --scratch-path .build-tsan --sanitize=thread --filter "$filter"
fi
if [ "$which" = all ] || [ "$which" = address ]; then
  echo "--- swift test --sanitize=address --filter '$filter'"
  swift test --scratch-path .build-asan --sanitize=address --filter "$filter"
fi
if [ "$which" = all ] || [ "$which" = c ]; then
  echo "--- C kernels under -fsanitize=undefined,address (Tests/CKernelTests/run.sh)"
  Tests/CKernelTests/run.sh
fi
