#!/usr/bin/env bash
# The C interface (batchgeometry.h, issue 13) from the outside: builds the SwiftPM products
# BatchGeometryC (shared) and BatchGeometryCStatic in release, then checks, with the
# system's cc and c++ and warnings as errors (-Wall -Wextra -Werror):
#
#   1. the header compiles alone as C99 and as C++17 (-pedantic), and twice in one file;
#   2. the API is one list everywhere: the functions the header declares, the @_cdecl
#      definitions, the symbols the shared library exports and the lines of
#      SignatureCheck.swift are the same set, and the C tests call every function and
#      name every status code;
#   3. Tests/CInterface/test_c_api.c (every function with good and bad input, every error
#      path's status and message, a warmed-up frame loop that must allocate nothing;
#      docs/SCENE-FORMAT.md's example scene and output are its input) passes;
#   4. the examples (Examples/c, Examples/cpp with its RAII wrapper, Examples/python with
#      ctypes) print Examples/expected-output.txt, the C one also linked statically;
#   5. with --asan, the C example and the C tests once more under AddressSanitizer and
#      UBSan (the careless callers' cases: the message pointer of the printf idiom, huge
#      counts and scene sizes, long messages).
#
# Each check counts once, test_c_api's checks each count; the last line is
# "N passed, M failed", and the exit status is non-zero on any failure.
#
# usage: scripts/c-examples.sh [--asan]      (CC and CXX override cc and c++)
#        scripts/c-examples.sh --bench       the C-interface overhead benchmark
#                                            (Tests/CInterfaceBench; Benchmarks/README.md)
#        scripts/c-examples.sh --first-frame the first frame with and without
#                                            bg_store_warm_up (Tests/CInterface/first_frame.c)
set -u
cd "$(dirname "$0")/.."
root=$PWD
asan=0
case "${1:-}" in
    --asan) asan=1 ;;
    --bench)
        swift build -c release --product c-interface-bench >/dev/null || { echo "c-examples: build failed"; exit 1; }
        exec "$(swift build -c release --show-bin-path)/c-interface-bench" "${@:2}"
        ;;
    --first-frame)
        # The first frame with and without bg_store_warm_up (Tests/CInterface/first_frame.c),
        # each mode in fresh processes, alternating, 5 times.
        swift build -c release --product BatchGeometryC >/dev/null || { echo "c-examples: build failed"; exit 1; }
        bin=$(swift build -c release --show-bin-path)
        out=$(mktemp "${TMPDIR:-/tmp}/first-frame.XXXXXX")
        ${CC:-cc} -std=c99 -O2 -I Sources/CBatchGeometry/include Tests/CInterface/first_frame.c -L"$bin" \
            -lBatchGeometryC -Wl,-rpath,"$bin" -o "$out" || exit 1
        for run in 1 2 3 4 5; do "$out"; "$out" --warm-up; done
        rm -f "$out"
        exit 0
        ;;
    "") ;;
    *) echo "usage: scripts/c-examples.sh [--asan | --bench | --first-frame]"; exit 2 ;;
esac
CC=${CC:-cc}
CXX=${CXX:-c++}
warnings=(-Wall -Wextra -Werror)
include=$root/Sources/CBatchGeometry/include
header=$include/batchgeometry.h
work=$(mktemp -d "${TMPDIR:-/tmp}/c-examples.XXXXXX")
trap 'rm -rf "$work"' EXIT
passed=0
failed=0
pass() { passed=$((passed + 1)); echo "ok   $*"; }
fail() { failed=$((failed + 1)); echo "FAIL $*"; }

echo "--- swift build -c release --product BatchGeometryC / BatchGeometryCStatic"
swift build -c release --product BatchGeometryC >"$work/build.log" 2>&1 &&
    swift build -c release --product BatchGeometryCStatic >>"$work/build.log" 2>&1 ||
    { cat "$work/build.log"; echo "c-examples: swift build failed"; exit 1; }
bin=$(swift build -c release --show-bin-path)
shared=$bin/libBatchGeometryC.so
static=$bin/libBatchGeometryCStatic.a
link=(-L"$bin" -lBatchGeometryC -Wl,-rpath,"$bin")

echo "--- the header alone"
printf '#include "batchgeometry.h"\n' >"$work/alone.c"
printf '#include "batchgeometry.h"\n#include "batchgeometry.h"\nint main(void) { return bg_layer_slot(BG_LAYER_NONE) == 0; }\n' \
    >"$work/twice.c"
if "$CC" -std=c99 -pedantic "${warnings[@]}" -I"$include" -c "$work/alone.c" -o "$work/alone.o"; then
    pass "header as C99"; else fail "header as C99"; fi
if "$CXX" -std=c++17 -pedantic "${warnings[@]}" -Wold-style-cast -Wconversion -I"$include" -x c++ -c "$work/twice.c" \
    -o "$work/alone-cpp.o"; then
    pass "header as C++17 (included twice, -Wold-style-cast -Wconversion)"; else fail "header as C++17"; fi
if "$CC" -std=c99 -pedantic "${warnings[@]}" -Wconversion -I"$include" -c "$work/twice.c" -o "$work/twice.o"; then
    pass "header included twice, -Wconversion"; else fail "header included twice, -Wconversion"; fi

echo "--- one list of functions: header, @_cdecl, exported symbols, SignatureCheck.swift, C tests"
nm -D --defined-only "$shared" | awk '$2 == "T" && $3 ~ /^bg_/ { print $3 }' | sort >"$work/exported.txt"
if python3 - "$header" "$work/exported.txt" <<'PY'
import glob, re, sys
header = re.sub(r"/\*.*?\*/", "", open(sys.argv[1]).read(), flags=re.S)
declared = set(re.findall(r"^(?!static)[A-Za-z_][\w ]*?[\s*](bg_\w+)\s*\(", header, flags=re.M))
swift = "".join(open(f).read() for f in glob.glob("Sources/BatchGeometryC/*.swift"))
defined = set(re.findall(r'@_cdecl\("(bg_\w+)"\)', swift))
checked = set(re.findall(r"same\(CBatchGeometry\.(bg_\w+),", open("Sources/BatchGeometryC/SignatureCheck.swift").read()))
exported = set(open(sys.argv[2]).read().split())
tests = "".join(open(f).read() for f in glob.glob("Tests/CInterface/*.[ch]"))
called = {name for name in declared if re.search(r"\b%s\(" % name, tests)}
statuses = set(re.findall(r"\b(BG_OK|BG_ERROR_\w+)\s*=", header))
named = {status for status in statuses if re.search(r"\b%s\b" % status, tests)}
problems = []
for label, names in (("@_cdecl definitions", defined), ("exported symbols", exported),
                     ("SignatureCheck.swift", checked), ("calls in Tests/CInterface", called)):
    if names != declared:
        problems.append("%s differ from the header: missing %s, extra %s"
                        % (label, sorted(declared - names), sorted(names - declared)))
if named != statuses:
    problems.append("status codes the C tests never name: %s" % sorted(statuses - named))
for problem in problems:
    print("  " + problem)
print("  %d functions, %d status codes" % (len(declared), len(statuses)))
sys.exit(1 if problems else 0)
PY
then pass "API lists agree"; else fail "API lists agree"; fi

echo "--- Tests/CInterface/test_c_api.c"
python3 - "$work" <<'PY'
import re, sys
blocks = re.findall(r"```json\n(.*?)```", open("docs/SCENE-FORMAT.md").read(), flags=re.S)
open(sys.argv[1] + "/scene.json", "w").write(blocks[0])
open(sys.argv[1] + "/scene-output.json", "w").write(blocks[1])
PY
if "$CC" -std=c99 -pedantic "${warnings[@]}" -ffp-contract=off -I"$include" -I"$root/Tests/CInterface" \
    "$root/Tests/CInterface/test_c_api.c" "${link[@]}" -lm -pthread -o "$work/test_c_api"; then
    "$work/test_c_api" "$work/scene.json" "$work/scene-output.json" >"$work/test.log" 2>&1
    status=$?
    grep -v '^FAIL' "$work/test.log" | sed 's/^/  /' | grep -v ' passed, ' || true
    grep '^FAIL' "$work/test.log" | head -40
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$work/test.log" | tail -1)
    if [ -z "$line" ]; then
        cat "$work/test.log"
        fail "test_c_api: no result line (exit $status)"
    else
        checks_passed=${line%% passed*}
        checks_failed=${line#*, }
        checks_failed=${checks_failed%% failed}
        passed=$((passed + checks_passed))
        failed=$((failed + checks_failed))
        echo "  test_c_api: $line"
        if [ "$status" -ne 0 ] && [ "$checks_failed" -eq 0 ]; then fail "test_c_api exited with $status"; fi
    fi
else
    fail "test_c_api.c compiles"
fi

echo "--- examples (expected: Examples/expected-output.txt)"
expected=$root/Examples/expected-output.txt
# Runs a built example and compares its standard output with the expected output.
run_example() {
    local label=$1; shift
    if "$@" >"$work/out.txt" 2>"$work/err.txt" && cmp -s "$work/out.txt" "$expected"; then
        pass "$label"
    else
        cat "$work/err.txt"
        diff "$expected" "$work/out.txt" | head -20
        fail "$label"
    fi
}
if "$CC" -std=c99 -pedantic "${warnings[@]}" -I"$include" "$root/Examples/c/ui_tree.c" "${link[@]}" -o "$work/ui_tree_c"
then run_example "Examples/c/ui_tree.c (shared library)" "$work/ui_tree_c"; else fail "Examples/c/ui_tree.c compiles"; fi
if "$CXX" -std=c++17 -pedantic "${warnings[@]}" -I"$include" -I"$root/Examples/cpp" "$root/Examples/cpp/ui_tree.cpp" \
    "${link[@]}" -o "$work/ui_tree_cpp"
then run_example "Examples/cpp/ui_tree.cpp (RAII wrapper)" "$work/ui_tree_cpp"; else fail "Examples/cpp compiles"; fi
run_example "Examples/python/ui_tree.py (ctypes)" python3 "$root/Examples/python/ui_tree.py" "$shared"
# README.md's C example, as printed there: the frame of seed 001's Q1, the hit, the cycle.
python3 - "$work/readme.c" <<'PY'
import re, sys
section = open("README.md").read().split("## The C interface", 1)[1]
open(sys.argv[1], "w").write(re.search(r"```c\n(.*?)```", section, flags=re.S).group(1))
PY
printf '%s\n' "50 50 200 200" "card" \
    "making layer 1#0 the superlayer of layer 0#0 would make a cycle (it is inside layer 0#0's subtree)" \
    >"$work/readme-expected.txt"
if "$CC" -std=c99 -pedantic "${warnings[@]}" -I"$include" "$work/readme.c" "${link[@]}" -o "$work/readme" &&
    "$work/readme" >"$work/readme.txt" && cmp -s "$work/readme.txt" "$work/readme-expected.txt"
then pass "README.md's C example"; else diff "$work/readme-expected.txt" "$work/readme.txt"; fail "README.md's C example"; fi
# The static library needs the Swift runtime's registration object (swiftrt.o) and libraries.
runtime=$(swift -print-target-info | python3 -c 'import json, sys; print(json.load(sys.stdin)["paths"]["runtimeLibraryPaths"][0])')
swiftrt=$runtime/$(uname -m)/swiftrt.o
if "$CC" -std=c99 -pedantic "${warnings[@]}" -I"$include" "$root/Examples/c/ui_tree.c" "$swiftrt" "$static" \
    -L"$runtime" -lswiftCore -lswift_Concurrency -lswiftDispatch -ldispatch -lBlocksRuntime -lswiftGlibc -lm \
    -Wl,-rpath,"$runtime" -o "$work/ui_tree_static"
then run_example "Examples/c/ui_tree.c (static library)" "$work/ui_tree_static"; else fail "static link"; fi

if [ "$asan" -eq 1 ]; then
    echo "--- Examples/c/ui_tree.c under AddressSanitizer and UBSan"
    if "$CC" -std=c99 -pedantic "${warnings[@]}" -g -fsanitize=address,undefined -fno-omit-frame-pointer \
        -I"$include" "$root/Examples/c/ui_tree.c" "${link[@]}" -o "$work/ui_tree_asan"
    then
        ASAN_OPTIONS="detect_leaks=1:abort_on_error=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}" \
        UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1" \
            run_example "Examples/c/ui_tree.c under ASan and UBSan" "$work/ui_tree_asan"
    else
        fail "Examples/c/ui_tree.c compiles with -fsanitize=address,undefined"
    fi
    # The C tests too: the careless callers' cases (the printf idiom's message pointer,
    # huge counts, long messages) must be clean under both sanitizers.
    echo "--- Tests/CInterface/test_c_api.c under AddressSanitizer and UBSan"
    if "$CC" -std=c99 -pedantic "${warnings[@]}" -g -fsanitize=address,undefined -fno-omit-frame-pointer \
        -ffp-contract=off -I"$include" -I"$root/Tests/CInterface" "$root/Tests/CInterface/test_c_api.c" \
        "${link[@]}" -lm -pthread -o "$work/test_c_api_asan"
    then
        if ASAN_OPTIONS="detect_leaks=1:abort_on_error=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}" \
            UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1" \
            "$work/test_c_api_asan" "$work/scene.json" "$work/scene-output.json" >"$work/test-asan.log" 2>&1
        then pass "test_c_api under ASan and UBSan: $(tail -1 "$work/test-asan.log")"
        else grep -E '^FAIL|ERROR|runtime error' "$work/test-asan.log" | head -20; tail -30 "$work/test-asan.log"
            fail "test_c_api under ASan and UBSan"; fi
    else
        fail "test_c_api.c compiles with -fsanitize=address,undefined"
    fi
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
