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
# The symbol graph comes from `swift-symbolgraph-extract` run on the module that
# `swift build --target BatchGeometry` leaves in .build (the ordinary debug build, so a
# CI run that built the tests already has it and nothing compiles again). Not `swift
# package dump-symbol-graph`: with Swift 6.3.1 on Linux it builds every target, then exits
# 1 because it cannot load the test-discovery modules. Not the compiler's
# -emit-symbol-graph either: those extra flags need a scratch path of their own, i.e. a
# second compile of the library (~90 s of CI on 2 cores). Both give the same symbols and
# relationships (877 and 1,072 on 2026-11-27).
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
emitted=$scratch/symbol-graphs-emitted   # what swift-symbolgraph-extract wrote
graphs=$scratch/symbol-graphs            # BatchGeometry's graphs only: what docc reads
archive=.build/docs/BatchGeometry.doccarchive
docc=${DOCC:-$(command -v docc || xcrun --find docc 2>/dev/null || true)}
[ -n "$docc" ] || { echo "docs: docc not found (put the toolchain's usr/bin on PATH or set DOCC)"; exit 1; }

echo "docs: symbol graph (swift build --target BatchGeometry, then swift-symbolgraph-extract)"
mkdir -p "$scratch"
swift build --target BatchGeometry >"$scratch/build.log" 2>&1 \
    || { cat "$scratch/build.log"; echo "docs: swift build failed"; exit 1; }
bin=$(swift build --show-bin-path)
extract=${SYMBOLGRAPH_EXTRACT:-$(command -v swift-symbolgraph-extract || true)}
[ -n "$extract" ] || { echo "docs: swift-symbolgraph-extract not found (it ships with the toolchain)"; exit 1; }
triple=$(swiftc -print-target-info | python3 -c 'import json, sys; print(json.load(sys.stdin)["target"]["triple"])')
rm -rf "$emitted"; mkdir -p "$emitted"
# CAffineKernels is a C module: its module map lives in its build folder.
"$extract" -module-name BatchGeometry -target "$triple" -minimum-access-level public \
    -I "$bin/Modules" -I Sources/CAffineKernels/include \
    -Xcc -fmodule-map-file="$bin/CAffineKernels.build/module.modulemap" \
    -output-dir "$emitted" >"$scratch/extract.log" 2>&1 \
    || { cat "$scratch/extract.log"; echo "docs: swift-symbolgraph-extract failed"; exit 1; }
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
