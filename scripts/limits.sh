#!/usr/bin/env bash
# The 10,000,000-layer limits run (not part of `swift test`: it needs a release build,
# about 4 GiB of memory and a minute or two). Builds the tests in release mode, then runs
# LimitsTests.testTenMillionLayers with BATCHGEOMETRY_LIMITS=1, which prints the time
# and peak RSS (VmHWM) after each step and the bytes per layer of the store's columns.
#   scripts/limits.sh
set -euo pipefail
cd "$(dirname "$0")/.."
# -enable-testing: the test target uses @testable imports (swift test adds it itself).
swift build -c release --build-tests -Xswiftc -enable-testing
bundle=".build/release/BatchGeometryPackageTests.xctest"
filter="BatchGeometryTests.LimitsTests/testTenMillionLayers"
# Run the test binary itself (not `swift test`), so the peak RSS is this process's alone.
if [ -x /usr/bin/time ]; then
  BATCHGEOMETRY_LIMITS=1 /usr/bin/time -v "$bundle" "$filter" 2>&1 | grep -E "limits:|error|passed|failed|Maximum resident|Elapsed"
else
  BATCHGEOMETRY_LIMITS=1 "$bundle" "$filter" 2>&1 | grep -E "limits:|error|passed|failed"
fi
