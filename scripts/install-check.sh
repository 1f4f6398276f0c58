#!/usr/bin/env bash
# The installed C library as an engine meets it (issue 24): installs into a temporary
# prefix with scripts/install.sh, then checks
#
#   1. the layout: header, libbatchgeometry.so.<ABI> with that SONAME and the unversioned
#      link, RUNPATH exactly $ORIGIN, no Swift runtime library it does not use
#      (_StringProcessing, _RegexParser, ...), every toolchain library it needs beside it;
#   2. the exports: `nm -D` of the shared library and the global symbols of the static one
#      are exactly the functions batchgeometry.h declares;
#   3. the examples (Examples/c, Examples/cpp) built from the prefix alone with pkg-config
#      (batchgeometry, batchgeometry-static) and with CMake (Examples/CMakeLists.txt:
#      BatchGeometry::batchgeometry, BatchGeometry::batchgeometry_static), and Python
#      ctypes on the installed library, print Examples/expected-output.txt when run with an
#      empty environment (no toolchain path, no LD_LIBRARY_PATH) and load nothing from the
#      toolchain;
#   4. a debug install (--debug): use after destroy and destroy twice are messages, and
#      the C tests pass on it;
#   5. shipping: the C example with the files an engine ships (the shared library and
#      libswiftCore.so beside an executable linked with -rpath '$ORIGIN'; the static
#      executable alone) runs from a directory of its own; their sizes are printed.
#
# Needs cc, c++, pkg-config and cmake (.ci/run installs the last two). The last line is
# "N passed, M failed"; the exit status is non-zero on any failure.
#
# usage: scripts/install-check.sh [--no-build]     (CC and CXX override cc and c++)
set -u
cd "$(dirname "$0")/.."
root=$PWD
CC=${CC:-cc}
CXX=${CXX:-c++}
warnings=(-Wall -Wextra -Werror)
work=$(mktemp -d "${TMPDIR:-/tmp}/install-check.XXXXXX")
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
passed=0
failed=0
pass() { passed=$((passed + 1)); echo "ok   $*"; }
fail() { failed=$((failed + 1)); echo "FAIL $*"; }
for tool in pkg-config cmake; do
    command -v $tool >/dev/null || { echo "install-check: $tool not found (apt-get install -y $tool)"; exit 1; }
done

echo "--- scripts/install.sh --prefix $prefix"
scripts/install.sh --prefix "$prefix" "$@" >"$work/install.log" 2>&1 || { cat "$work/install.log"; exit 1; }
sed -n '/^--- installed/,$p' "$work/install.log"
abi=$(sed -n 's/^#define BG_ABI_VERSION \([0-9]*\).*/\1/p' "$root/Sources/CBatchGeometry/include/batchgeometry.h")
lib=$prefix/lib
so=$lib/libbatchgeometry.so.$abi
toolchain=$(dirname "$(swiftc -print-target-info | sed -n 's/.*"runtimeResourcePath": "\(.*\)".*/\1/p')")

echo "--- layout"
if [ -f "$prefix/include/batchgeometry.h" ] && [ -f "$so" ] && [ "$(readlink "$lib/libbatchgeometry.so")" = "libbatchgeometry.so.$abi" ] &&
    [ -f "$lib/libbatchgeometry.a" ] && [ -f "$lib/pkgconfig/batchgeometry.pc" ] &&
    [ -f "$lib/pkgconfig/batchgeometry-static.pc" ] && [ -f "$lib/cmake/BatchGeometry/BatchGeometryConfig.cmake" ]
then pass "include/, lib/libbatchgeometry.so.$abi and its link, lib/libbatchgeometry.a, .pc and CMake files"
else fail "layout"; find "$prefix"; fi
readelf -d "$so" >"$work/dynamic.txt"
soname=$(sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p' "$work/dynamic.txt")
runpath=$(sed -n 's/.*(RUNPATH).*\[\(.*\)\]/\1/p' "$work/dynamic.txt")
if [ "$soname" = "libbatchgeometry.so.$abi" ]; then pass "SONAME $soname"; else fail "SONAME is '$soname'"; fi
# shellcheck disable=SC2016
if [ "$runpath" = '$ORIGIN' ] && ! grep -q '(RPATH)' "$work/dynamic.txt"; then pass "RUNPATH \$ORIGIN only"
else fail "RUNPATH is '$runpath'"; grep -E 'RPATH|RUNPATH' "$work/dynamic.txt"; fi
needed=$(sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' "$work/dynamic.txt" | tr '\n' ' ')
echo "  NEEDED: $needed"
if ! grep -qE 'swift_StringProcessing|swift_RegexParser|swift_Concurrency|swiftGlibc|swiftDispatch' "$work/dynamic.txt"
then pass "no unused Swift runtime library linked"; else fail "unused Swift runtime libraries linked: $needed"; fi
missing=""
for name in $(sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' "$work/dynamic.txt"); do
    if [ -f "$toolchain/swift/linux/$name" ] && [ ! -f "$lib/$name" ]; then missing="$missing $name"; fi
done
if [ -z "$missing" ]; then pass "every toolchain library it needs is beside it"; else fail "not beside it:$missing"; fi

echo "--- exports: exactly the header's functions"
python3 - "$prefix/include/batchgeometry.h" >"$work/declared.txt" <<'PY'
import re, sys
header = re.sub(r"/\*.*?\*/", "", open(sys.argv[1]).read(), flags=re.S)
print("\n".join(sorted(set(re.findall(r"^(?!static)[A-Za-z_][\w ]*?[\s*](bg_\w+)\s*\(", header, flags=re.M)))))
PY
nm -D --defined-only "$so" | awk '$2 ~ /^[A-Z]$/ { print $3 }' | sort >"$work/exported.txt"
nm -g --defined-only "$lib/libbatchgeometry.a" | awk 'NF == 3 { print $3 }' | sort >"$work/static-exported.txt"
for pair in "shared:exported" "static:static-exported"; do
    kind=${pair%%:*}
    if cmp -s "$work/declared.txt" "$work/${pair#*:}.txt"; then
        pass "$kind library: $(wc -l <"$work/declared.txt") symbols, the header's functions"
    else
        fail "$kind library's global symbols differ from the header's functions"
        diff "$work/declared.txt" "$work/${pair#*:}.txt" | head -10
    fi
done

# Runs a program with an empty environment, compares its output with the examples'
# expected output, and checks that it loads nothing from the toolchain.
expected=$root/Examples/expected-output.txt
run_clean() {
    local label=$1; shift
    if env -i PATH=/usr/bin:/bin "$@" >"$work/out.txt" 2>"$work/err.txt" && cmp -s "$work/out.txt" "$expected"; then
        if env -i LD_TRACE_LOADED_OBJECTS=1 "$1" 2>&1 | grep -F "$toolchain"; then
            fail "$label: loads from the toolchain"
        else
            pass "$label"
        fi
    else
        cat "$work/err.txt"; diff "$expected" "$work/out.txt" | head -10; fail "$label"
    fi
}

echo "--- pkg-config"
export PKG_CONFIG_PATH=$lib/pkgconfig
c_example=$root/Examples/c/ui_tree.c
cpp_example=$root/Examples/cpp/ui_tree.cpp
# shellcheck disable=SC2046
"$CC" -std=c99 -pedantic "${warnings[@]}" $(pkg-config --cflags batchgeometry) "$c_example" \
    $(pkg-config --libs batchgeometry) -Wl,-rpath,"$lib" -o "$work/pc_c" &&
    run_clean "C, pkg-config batchgeometry" "$work/pc_c" || true
[ -x "$work/pc_c" ] || fail "C, pkg-config batchgeometry: build"
# shellcheck disable=SC2046
"$CXX" -std=c++17 -pedantic "${warnings[@]}" $(pkg-config --cflags batchgeometry) -I"$root/Examples/cpp" \
    "$cpp_example" $(pkg-config --libs batchgeometry) -Wl,-rpath,"$lib" -o "$work/pc_cpp" &&
    run_clean "C++, pkg-config batchgeometry" "$work/pc_cpp" || true
[ -x "$work/pc_cpp" ] || fail "C++, pkg-config batchgeometry: build"
# shellcheck disable=SC2046
"$CC" -std=c99 -pedantic "${warnings[@]}" $(pkg-config --cflags batchgeometry-static) "$c_example" \
    $(pkg-config --libs batchgeometry-static) -o "$work/pc_c_static" &&
    run_clean "C, pkg-config batchgeometry-static" "$work/pc_c_static" || true
[ -x "$work/pc_c_static" ] || fail "C, pkg-config batchgeometry-static: build"
run_clean "Python ctypes on the installed library" python3 "$root/Examples/python/ui_tree.py" "$so"

# The C tests (threads included) against each installed library, from an empty environment.
python3 - "$work" <<'EOF'
import re, sys
blocks = re.findall(r"```json\n(.*?)```", open("docs/SCENE-FORMAT.md").read(), flags=re.S)
open(sys.argv[1] + "/scene.json", "w").write(blocks[0])
open(sys.argv[1] + "/scene-output.json", "w").write(blocks[1])
EOF
for kind in batchgeometry batchgeometry-static; do
    # shellcheck disable=SC2046
    if "$CC" -std=c99 -ffp-contract=off $(pkg-config --cflags $kind) -I"$root/Tests/CInterface" \
        "$root/Tests/CInterface/test_c_api.c" $(pkg-config --libs $kind) -Wl,-rpath,"$lib" -lm -pthread \
        -o "$work/test_c_api" &&
        env -i "$work/test_c_api" "$work/scene.json" "$work/scene-output.json" >"$work/test.log" 2>&1
    then pass "Tests/CInterface/test_c_api.c on $kind: $(tail -1 "$work/test.log")"
    else grep '^FAIL' "$work/test.log" | head; tail -1 "$work/test.log"; fail "test_c_api.c on $kind"; fi
done

echo "--- scripts/install.sh --debug: the debug checks (batchgeometry.h, \"Threads\")"
cat >"$work/misuse.c" <<'EOF'
#include "batchgeometry.h"
#include <stdio.h>
int main(void) {
    bg_store *store = NULL;
    size_t count = 0;
    bg_store_create(0, &store);
    bg_store_destroy(store);
    printf("%s: %s\n", bg_status_name(bg_store_layer_count(store, &count)), bg_last_error_message());
    bg_store_destroy(store);
    printf("%s\n", bg_last_error_message());
    return 0;
}
EOF
if scripts/install.sh --prefix "$work/debug" --debug --no-strip >"$work/install-debug.log" 2>&1 &&
    "$CC" -I"$work/debug/include" "$work/misuse.c" "$work/debug/lib/libbatchgeometry.a" -lstdc++ -lm -lpthread -ldl \
        -o "$work/misuse" && env -i "$work/misuse" >"$work/misuse.txt" 2>/dev/null &&
    grep -q '^BG_ERROR_INVALID_ARGUMENT: bg_store_layer_count: store 0x[0-9a-f]* was destroyed by bg_store_destroy' \
        "$work/misuse.txt" && grep -q '^bg_store_destroy: store 0x[0-9a-f]* was already destroyed' "$work/misuse.txt"
then pass "debug build: use after destroy and destroy twice are messages"
else cat "$work/install-debug.log" "$work/misuse.txt" 2>/dev/null | tail -20; fail "debug build: misuse messages"; fi
# shellcheck disable=SC2046
if [ -f "$work/debug/lib/libbatchgeometry.a" ] && "$CC" -std=c99 -ffp-contract=off -I"$work/debug/include" \
    -I"$root/Tests/CInterface" "$root/Tests/CInterface/test_c_api.c" "$work/debug/lib/libbatchgeometry.a" \
    -lstdc++ -lm -lpthread -ldl -o "$work/test_c_api_debug" &&
    env -i BATCHGEOMETRY_TEST_DEBUG_LIBRARY=1 "$work/test_c_api_debug" "$work/scene.json" "$work/scene-output.json" \
        >"$work/test.log" 2>&1
then pass "Tests/CInterface/test_c_api.c on the debug build: $(tail -1 "$work/test.log")"
else grep '^FAIL' "$work/test.log" | head; tail -1 "$work/test.log"; fail "test_c_api.c on the debug build"; fi

echo "--- CMake (Examples/CMakeLists.txt)"
if cmake -S "$root/Examples" -B "$work/cmake" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" >"$work/cmake.log" 2>&1 &&
    cmake --build "$work/cmake" >>"$work/cmake.log" 2>&1
then
    for program in ui_tree_c ui_tree_cpp ui_tree_c_static ui_tree_cpp_static; do
        run_clean "CMake $program" "$work/cmake/$program"
    done
else
    cat "$work/cmake.log"; fail "CMake configure and build"
fi

echo "--- shipping: what an engine copies"
mkdir -p "$work/ship-shared" "$work/ship-static"
# shellcheck disable=SC2016,SC2046
"$CC" -std=c99 $(pkg-config --cflags batchgeometry) "$c_example" $(pkg-config --libs batchgeometry) \
    -Wl,-rpath,'$ORIGIN' -o "$work/ship-shared/ui_tree" && strip "$work/ship-shared/ui_tree"
cp -P "$so" "$work/ship-shared/"
for name in $(sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' "$work/dynamic.txt"); do
    [ -f "$lib/$name" ] && cp "$lib/$name" "$work/ship-shared/"
done
cp "$work/pc_c_static" "$work/ship-static/ui_tree" && strip "$work/ship-static/ui_tree"
mv "$prefix" "$work/prefix-moved" # nothing may come from the prefix either
run_clean "shared: the executable with the library and its runtime beside it" "$work/ship-shared/ui_tree"
run_clean "static: the executable alone" "$work/ship-static/ui_tree"
# The Swift runtime installs its crash handlers (SIGSEGV, SIGABRT, ... and an alternate
# signal stack) at load time only when it finds the swift-backtrace program beside its
# toolchain, or SWIFT_BACKTRACE names one: the shipped files must leave the host's
# signals alone. A handler counts when it is a function: SIG_IGN is inherited from the
# shell (a background job ignores SIGINT and SIGQUIT), never installed by the runtime.
cat >"$work/signals.c" <<'EOF'
#include "batchgeometry.h"
#include <signal.h>
#include <stdio.h>
int main(void) {
    static const int signals[] = {SIGQUIT, SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE, SIGSEGV};
    struct sigaction action;
    stack_t stack;
    int taken = 0;
    for (unsigned k = 0; k < sizeof signals / sizeof signals[0]; k++) {
        sigaction(signals[k], NULL, &action);
        taken += action.sa_handler != SIG_DFL && action.sa_handler != SIG_IGN;
    }
    sigaltstack(NULL, &stack);
    printf("ABI %u: %d crash handlers, alternate stack %s\n", bg_abi_version(), taken,
           stack.ss_flags & SS_DISABLE ? "none" : "set");
    return 0;
}
EOF
# shellcheck disable=SC2016
"$CC" -I"$work/prefix-moved/include" "$work/signals.c" -L"$work/ship-shared" -l:libbatchgeometry.so.$abi \
    -Wl,-rpath,'$ORIGIN' -o "$work/ship-shared/signals" &&
    "$CC" -I"$work/prefix-moved/include" "$work/signals.c" "$work/prefix-moved/lib/libbatchgeometry.a" \
        -lstdc++ -lm -lpthread -ldl -o "$work/ship-static/signals"
for dir in ship-shared ship-static; do
    line=$(env -i "$work/$dir/signals" 2>&1)
    if [ "$line" = "ABI $abi: 0 crash handlers, alternate stack none" ]; then pass "$dir: the host's signal handlers are left alone"
    else fail "$dir: $line"; fi
done
rm -f "$work"/ship-*/signals
for dir in ship-shared ship-static; do
    echo "  $dir: $(cd "$work/$dir" && for f in *; do printf '%s %s bytes; ' "$f" "$(stat -c %s "$f")"; done)"
done
echo "  static executable needs: $(env -i LD_TRACE_LOADED_OBJECTS=1 "$work/ship-static/ui_tree" | awk '{print $1}' | tr '\n' ' ')"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
