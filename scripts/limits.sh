#!/usr/bin/env bash
# The large-input limits runs (not part of `swift test`: they need release builds and
# gigabytes of memory). See docs/ROBUSTNESS.md for the figures.
#   scripts/limits.sh            10,000,000 layers in one store: every kernel, peak RSS
#   scripts/limits.sh --scene    a ~100 MB scene file through `batchbench eval`: peak RSS
#                                (needs the scene decoder, Sources/BatchGeometry/Scene)
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" = "--scene" ]; then
  swift build -c release --product batchbench
  scene="${TMPDIR:-/tmp}/batchgeometry-100mb.scene.json"
  # 820,000 layers of ~123 bytes (~100 MB): a window per 1,000 layers, cards with frames and transforms.
  python3 - "$scene" <<'PY'
import sys
with open(sys.argv[1], "w") as out:
    out.write('{"viewport": [0, 0, 375, 812], "layers": [\n')
    count = 820_000
    for k in range(count):
        if k % 1000 == 0:
            layer = '{"name": "window%d", "frame": [0, 0, 375, 812]}' % k
        else:
            layer = ('{"name": "card%d", "parent": %d, "frame": [%d.5, %d.25, 40, 40], '
                     '"transform": [1, 0, 0, 1, %d, -%d], "zPosition": %d}') % (
                k, k - k % 1000, k % 100 * 4, k % 1000 // 100 * 8, k % 7, k % 5, k % 3)
        out.write(layer + (",\n" if k + 1 < count else "\n"))
    out.write('], "hitTests": [[10, 10], [200, 300]]}\n')
PY
  echo "scene: $(du -m "$scene" | cut -f1) MB, $(grep -c '"name"' "$scene") layers"
  /usr/bin/time -v .build/release/batchbench eval "$scene" 2>&1 >/dev/null \
    | grep -E "Maximum resident|Elapsed|error" || true
  rm -f "$scene"
  exit 0
fi

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
