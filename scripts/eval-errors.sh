#!/usr/bin/env bash
# Checks `batchbench eval` on malformed scenes (SCENE-FORMAT.md "Errors"): exit status 2,
# nothing on stdout, exactly one stderr line starting "error: ". Also a missing file,
# stdin, and one good scene that must exit 0 with JSON on stdout. Then `batchbench render`
# on the same malformed scenes, with -o: the same one line, and no output file created.
# usage: scripts/eval-errors.sh [BIN]     (default .build/release/batchbench)
set -u
BIN=${1:-.build/release/batchbench}
HERE=$(cd "$(dirname "$0")/.." && pwd)
MALFORMED="$HERE/Tests/BatchGeometryTests/Fixtures/malformed"
GOOD="$HERE/Tests/BatchGeometryTests/Fixtures/conformance/seed004-scrollview-content-offset.scene.json"
[ -x "$BIN" ] || { echo "eval-errors: no executable at $BIN (build it first)"; exit 1; }
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
failures=0 checked=0

# expect_error NAME COMMAND...: runs the command, checks status 2, empty stdout, one "error: " line.
expect_error() {
    local name=$1; shift
    "$@" >"$WORK/out" 2>"$WORK/err"
    local status=$? lines problems=""
    lines=$(wc -l <"$WORK/err")
    [ "$status" -eq 2 ] || problems+=" exit status $status (expected 2);"
    [ ! -s "$WORK/out" ] || problems+=" stdout not empty;"
    [ "$lines" -eq 1 ] || problems+=" $lines stderr lines (expected 1);"
    head -c 7 "$WORK/err" | grep -q '^error: ' || problems+=" stderr does not start with 'error: ';"
    checked=$((checked + 1))
    if [ -n "$problems" ]; then
        failures=$((failures + 1))
        echo "FAIL $name:$problems"
        head -c 400 "$WORK/err" | sed 's/^/     /'
    else
        echo "ok   $name: $(cat "$WORK/err")"
    fi
}

for scene in "$MALFORMED"/*.json; do
    expect_error "$(basename "$scene")" "$BIN" eval "$scene"
done
expect_error "missing file" "$BIN" eval "$WORK/no-such-scene.json"
expect_error "a directory" "$BIN" eval "$WORK"
expect_error "no argument" "$BIN" eval
expect_error "stdin" sh -c "'$BIN' eval - < '$MALFORMED/parent-cycle.scene.json'"
# A BATCHGEOMETRY_* value the library cannot use is a usage error, not a silent fallback.
expect_error "BATCHGEOMETRY_BACKEND=gpu" env BATCHGEOMETRY_BACKEND=gpu "$BIN" eval "$GOOD"
expect_error "BATCHGEOMETRY_THREADS=0" env BATCHGEOMETRY_THREADS=0 "$BIN" eval "$GOOD"
expect_error "BATCHGEOMETRY_SPLIT=spread" env BATCHGEOMETRY_SPLIT=spread "$BIN" eval "$GOOD"
expect_error "BATCHGEOMETRY_C_KERNEL=avx9" env BATCHGEOMETRY_C_KERNEL=avx9 "$BIN" eval "$GOOD"

# render: the same errors, and -o must not create its file.
for scene in "$MALFORMED"/*.json; do
    expect_error "render $(basename "$scene")" "$BIN" render "$scene" -o "$WORK/picture.svg"
    if [ -e "$WORK/picture.svg" ]; then
        failures=$((failures + 1))
        echo "FAIL render $(basename "$scene"): created $WORK/picture.svg"
        rm -f "$WORK/picture.svg"
    fi
done
expect_error "render missing file" "$BIN" render "$WORK/no-such-scene.json" -o "$WORK/picture.svg"
expect_error "render bad option" "$BIN" render "$GOOD" --width 5
[ ! -e "$WORK/picture.svg" ] || { failures=$((failures + 1)); echo "FAIL render: created $WORK/picture.svg"; }

checked=$((checked + 1))
if "$BIN" render "$GOOD" -o "$WORK/good.svg" >"$WORK/out" 2>"$WORK/err" && [ ! -s "$WORK/err" ] && [ ! -s "$WORK/out" ] \
    && python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$WORK/good.svg" 2>/dev/null; then
    echo "ok   render good scene: exit 0, well-formed SVG in the -o file"
else
    failures=$((failures + 1))
    echo "FAIL render good scene $(basename "$GOOD"): $(head -c 300 "$WORK/err")"
fi

checked=$((checked + 1))
if "$BIN" eval "$GOOD" >"$WORK/out" 2>"$WORK/err" && [ ! -s "$WORK/err" ] \
    && python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$WORK/out" 2>/dev/null; then
    echo "ok   good scene: exit 0, JSON on stdout"
else
    failures=$((failures + 1))
    echo "FAIL good scene $(basename "$GOOD"): $(head -c 300 "$WORK/err")"
fi

echo "eval-errors: $((checked - failures)) passed, $failures failed"
[ "$failures" -eq 0 ]
