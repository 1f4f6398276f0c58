#!/usr/bin/env bash
# Builds the API reference with the toolchain's own tools (no SwiftPM plugin, nothing in
# Package.swift): the BatchGeometry module's symbol graph, then `docc convert` of the
# catalog Sources/BatchGeometry/BatchGeometry.docc into
# .build/docs/BatchGeometry.doccarchive, with warnings as errors. Then two checks docc
# does not make (scripts/docs-check.py): every public symbol is in a topic group of the
# catalog, and the GettingStarted article's code block is the one
# Tests/BatchGeometryTests/DocCGettingStartedTests.swift runs. Exits non-zero on any
# docc warning or failed check; the last line says where the archive is.
#
# The symbol graph comes from `swift build --target BatchGeometry -Xswiftc
# -emit-symbol-graph ...`, not `swift package dump-symbol-graph`: with Swift 6.3.1 on
# Linux, dump-symbol-graph builds every target (batchbench, the workloads,
# misuse-messages), then exits 1 because it cannot load the test-discovery modules
# (BatchGeometryPackageTests, BatchGeometryPackageDiscoveredTests), and it writes every
# module's graph into one folder. The compiler flag builds BatchGeometry and its
# dependency only, emits graphs for BatchGeometry alone (CAffineKernels is C and gets
# none), and gives the same 378 symbols. It builds in its own scratch path, .build-docs:
# the extra compiler flags in .build would make the next `swift build` / `swift test`
# recompile BatchGeometry and everything above it, and the other way round.
#
# usage: scripts/docs.sh          (docc from PATH, or DOCC=/path/to/docc)
# preview (after a run): docc preview Sources/BatchGeometry/BatchGeometry.docc \
#   --additional-symbol-graph-dir .build-docs/symbol-graphs --output-path .build/docs/preview
set -euo pipefail
cd "$(dirname "$0")/.."

catalog=Sources/BatchGeometry/BatchGeometry.docc
article=$catalog/GettingStarted.md
article_test=Tests/BatchGeometryTests/DocCGettingStartedTests.swift
scratch=.build-docs
emitted=$scratch/symbol-graphs-emitted   # what the compiler wrote
graphs=$scratch/symbol-graphs            # BatchGeometry's graphs only: what docc reads
archive=.build/docs/BatchGeometry.doccarchive
docc=${DOCC:-$(command -v docc || xcrun --find docc 2>/dev/null || true)}
[ -n "$docc" ] || { echo "docs: docc not found (put the toolchain's usr/bin on PATH or set DOCC)"; exit 1; }

# The compiler writes the graph only when it rebuilds the module, so $emitted is kept
# between runs (an up-to-date build leaves it as it is); if it went missing while the
# build is up to date, the scratch path is removed and the module built again.
build_graph() {
    mkdir -p "$emitted"
    swift build --scratch-path "$scratch" --target BatchGeometry \
        -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$PWD/$emitted" \
        >"$scratch/build.log" 2>&1 || { cat "$scratch/build.log"; echo "docs: swift build failed"; exit 1; }
}
echo "docs: symbol graph (swift build --target BatchGeometry, scratch path $scratch)"
mkdir -p "$scratch"
build_graph
if [ ! -f "$emitted/BatchGeometry.symbols.json" ]; then
    echo "docs: no symbol graph from an up-to-date build; building $scratch again from scratch"
    rm -rf "$scratch"; mkdir -p "$scratch"
    build_graph
fi
rm -rf "$graphs"
mkdir -p "$graphs" "$(dirname "$archive")"
# The module's own graph and its extension graphs (BatchGeometry@Swift...), nothing else.
shopt -s nullglob
for graph in "$emitted"/BatchGeometry.symbols.json "$emitted"/BatchGeometry@*.symbols.json; do
    cp "$graph" "$graphs/"
done
shopt -u nullglob
[ -f "$graphs/BatchGeometry.symbols.json" ] || { echo "docs: no BatchGeometry.symbols.json in $emitted"; exit 1; }

echo "docs: docc convert $catalog"
rm -rf "$archive"
status=0
"$docc" convert "$catalog" \
    --additional-symbol-graph-dir "$graphs" \
    --output-path "$archive" \
    --fallback-display-name BatchGeometry \
    --fallback-bundle-identifier org.batchgeometry.BatchGeometry \
    --warnings-as-errors >"$scratch/docc.log" 2>&1 || status=$?
grep -v '^[[:space:]]*$' "$scratch/docc.log" || true
# With --warnings-as-errors every warning prints as "error: ..." (or "Error: ..."); the
# closing "An error was encountered while compiling documentation" is not one of them.
warnings=$(grep -ciE '^(warning|error): ' "$scratch/docc.log" | tr -d ' ' || true)
warnings=$(( warnings - $(grep -ciE '^error: an error was encountered' "$scratch/docc.log" || true) ))
if [ "$status" -ne 0 ] || [ "$warnings" -ne 0 ]; then
    echo "docs: docc convert failed (exit status $status, $warnings warnings)"
    exit 1
fi

echo "docs: checks"
python3 scripts/docs-check.py curation "$graphs" "$archive" "$catalog"
python3 scripts/docs-check.py article "$article" "$article_test"

echo "docs: built $archive, $warnings warnings"
