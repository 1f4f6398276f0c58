#!/usr/bin/env bash
# run.sh — plain-C tests of Sources/CAffineKernels (not a SwiftPM target).
#
# Builds the module sources and test_kernels.c in several configurations and
# runs the differential tests (every available backend vs a reference, bit
# for bit), the BATCHGEOMETRY_C_KERNEL override checks and the concurrent
# first-use check in each. Also disassembles every object the build produced
# (and SwiftPM's .build/{debug,release}/CAffineKernels.build/*.o if present)
# and fails on any fused multiply-add instruction.
#
# Configurations:
#   O0, O2          the flags SwiftPM uses for debug / release
#   fma-stress      module compiled -O3 -march=haswell (FMA everywhere), which
#                   proves the FP_CONTRACT pragmas, not the flags, prevent fusion
#   asan-ubsan      -fsanitize=undefined,address, must run clean
#   tsan            -fsanitize=thread for the concurrent first-use check
#   avx512-compile  -march=skylake-avx512, disassembly check only (no AVX-512 here)
#   aarch64         cross-built and run under qemu-aarch64 when available (NEON)
#
# Only test_kernels.c (the reference) gets -ffp-contract=off; the module
# sources (and emu8.c, which instantiates the module's SIMD template) are
# compiled without it on purpose, so the in-source pragmas are what is tested. Exit status is non-zero on any failure; the
# last line is "N passed, M failed".
set -u

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
SRC="$ROOT/Sources/CAffineKernels"

if [ -z "${CC:-}" ]; then
    if [ -x /opt/swift/usr/bin/clang ]; then CC=/opt/swift/usr/bin/clang
    elif command -v clang >/dev/null 2>&1; then CC=clang
    else CC=cc; fi
fi
OBJDUMP="${OBJDUMP:-objdump}"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/ckerneltests.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT

PASSED=0
FAILED=0

pass() { PASSED=$((PASSED + 1)); }
fail() { FAILED=$((FAILED + 1)); echo "FAIL: $*"; }

# Runs a test binary and adds its "N passed, M failed" line to the totals.
run_counted() {
    local label="$1"; shift
    local log="$WORK/run.log"
    "$@" >"$log" 2>&1
    local rc=$?
    local line
    line="$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1)"
    if [ -z "$line" ]; then
        cat "$log"
        fail "$label: no result line (exit $rc)"
        return
    fi
    local p f
    p="${line%% passed*}"
    f="${line#*passed, }"; f="${f%% failed*}"
    PASSED=$((PASSED + p))
    FAILED=$((FAILED + f))
    if [ "$rc" -ne 0 ] || [ "$f" -ne 0 ]; then
        cat "$log"
        [ "$f" -eq 0 ] && fail "$label: exit status $rc"
    fi
    echo "  $label: $line$(grep -E '^(selected backend|skipped|env )' "$log" | sed 's/^/ | /' | tr '\n' ' ')"
}

# Fails for every fused multiply-add instruction in the given objects.
# $1: label, $2: regex of forbidden mnemonics, $3...: object files.
check_no_fused() {
    local label="$1" pattern="$2"; shift 2
    local o count
    for o in "$@"; do
        [ -f "$o" ] || continue
        count="$("$OBJDUMP" -d "$o" | grep -Ec "$pattern")"
        if [ "$count" -eq 0 ]; then pass; else
            fail "$label: $count fused multiply-add instruction(s) in $o"
            "$OBJDUMP" -d "$o" | grep -E "$pattern" | head -5
        fi
    done
}
X86_FUSED='\svf(n)?m(add|sub)'
ARM_FUSED='\s(fmla|fmls|fmadd|fmsub|fnmadd|fnmsub|bfmla)\s'

# Compiles the module sources with $MOD_FLAGS into $WORK/$1/ and links the test.
build() {
    local name="$1" mod_flags="$2" test_flags="$3" link_flags="$4"
    local dir="$WORK/$name"
    mkdir -p "$dir"
    local f log="$dir/build.log"
    for f in "$SRC"/*.c; do
        # shellcheck disable=SC2086
        if ! $CC $mod_flags -std=c11 -Wall -Wextra -Werror -I"$SRC/include" -c "$f" \
            -o "$dir/$(basename "$f" .c).o" >"$log" 2>&1; then
            cat "$log"
            fail "$name: compiling $(basename "$f")"
            return 1
        fi
    done
    # The emulated 8-lane instantiation is module code too: module flags.
    # shellcheck disable=SC2086
    if ! $CC $mod_flags -std=c11 -Wall -Wextra -Werror -I"$SRC/include" -I"$SRC/testing" -I"$SRC" -I"$HERE" -c "$HERE/emu8.c" \
        -o "$dir/emu8.o" >"$log" 2>&1; then
        cat "$log"
        fail "$name: compiling emu8.c"
        return 1
    fi
    # Linker chatter (e.g. gold's notes about ASan symbols) is shown only on failure.
    # shellcheck disable=SC2086
    if ! $CC $test_flags -std=c11 -Wall -Wextra -Werror -ffp-contract=off -I"$SRC/include" -I"$SRC/testing" -I"$SRC" -I"$HERE" \
        "$HERE/test_kernels.c" "$dir"/*.o $link_flags -lm -lpthread -o "$dir/test_kernels" \
        >"$log" 2>&1; then
        cat "$log"
        fail "$name: linking the test"
        return 1
    fi
    return 0
}

run_suite() {
    local name="$1"; shift # remaining: launcher prefix (e.g. qemu)
    local bin="$WORK/$name/test_kernels"
    run_counted "$name differential" "$@" "$bin"
    local v
    for v in UNSET "" portable avx2 avx512 neon AVX2 Portable auto bogus; do
        if [ "$v" = UNSET ]; then
            run_counted "$name env(unset)" env -u BATCHGEOMETRY_C_KERNEL "$@" "$bin" --env-check
        else
            run_counted "$name env($v)" env BATCHGEOMETRY_C_KERNEL="$v" "$@" "$bin" --env-check
        fi
    done
    run_counted "$name threads" env -u BATCHGEOMETRY_C_KERNEL "$@" "$bin" --threads
}

cpu_has() { grep -qw "$1" /proc/cpuinfo 2>/dev/null; }

echo "compiler: $CC ($($CC --version | head -n 1))"
ARCH="$(uname -m)"

if [ "$ARCH" = x86_64 ]; then
    X86_PATTERN="$X86_FUSED"
else
    X86_PATTERN="$ARM_FUSED"
fi

echo "== O2 (SwiftPM release flags)"
if build O2 "-O2 -fPIC" "-O2" ""; then
    check_no_fused O2 "$X86_PATTERN" "$WORK/O2"/*.o
    run_suite O2
fi

echo "== O0 (SwiftPM debug flags)"
if build O0 "-O0 -g -fPIC" "-O0 -g" ""; then
    check_no_fused O0 "$X86_PATTERN" "$WORK/O0"/*.o
    run_suite O0
fi

echo "== asan-ubsan"
SAN="-O1 -g -fno-omit-frame-pointer -fsanitize=undefined,address -fno-sanitize-recover=all"
if build asan-ubsan "$SAN" "$SAN" "-fsanitize=undefined,address"; then
    ASAN_OPTIONS=detect_leaks=1:halt_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
        run_suite asan-ubsan
fi

echo "== tsan (concurrent first use)"
# The Swift toolchain's TSan runtime also intercepts libdispatch, so linking a
# plain C program with it needs the toolchain's libdispatch and BlocksRuntime.
TSAN_LINK="-fsanitize=thread"
SWIFT_LIBS="$(dirname "$(command -v "$CC")")/../lib/swift/linux"
if [ -f "$SWIFT_LIBS/libdispatch.so" ]; then
    TSAN_LINK="$TSAN_LINK -L$SWIFT_LIBS -ldispatch -lBlocksRuntime -Wl,-rpath,$SWIFT_LIBS"
fi
if $CC -fsanitize=thread -x c - -o "$WORK/tsan-probe" $TSAN_LINK <<<'int main(void){return 0;}' 2>/dev/null \
    && "$WORK/tsan-probe"; then
    if build tsan "-O1 -g -fsanitize=thread" "-O1 -g -fsanitize=thread" "$TSAN_LINK"; then
        for i in 1 2 3 4 5; do
            TSAN_OPTIONS=halt_on_error=1 run_counted "tsan threads #$i" env -u BATCHGEOMETRY_C_KERNEL \
                "$WORK/tsan/test_kernels" --threads
        done
    fi
else
    echo "  skipped: this compiler cannot link a ThreadSanitizer program here"
fi

if [ "$ARCH" = x86_64 ]; then
    echo "== fma-stress (module built with -march=haswell: the pragmas alone must prevent fusion)"
    if build fma-stress "-O3 -march=haswell" "-O2" ""; then
        check_no_fused fma-stress "$X86_FUSED" "$WORK/fma-stress"/*.o
        if cpu_has avx2 && cpu_has fma; then run_suite fma-stress; else echo "  (not run: CPU lacks avx2/fma)"; fi
    fi

    echo "== avx512-compile (disassembly only unless the CPU has avx512f)"
    if build avx512-compile "-O3 -march=skylake-avx512" "-O2 -march=skylake-avx512" ""; then
        check_no_fused avx512-compile "$X86_FUSED" "$WORK/avx512-compile"/*.o
        if cpu_has avx512f; then run_suite avx512-compile; else echo "  (not run: CPU lacks avx512f)"; fi
    fi
    # The AVX-512 backend must really contain 512-bit code, the AVX2 one 256-bit code.
    if "$OBJDUMP" -d "$WORK/O2/simd_avx512.o" | grep -q zmm; then pass; else fail "simd_avx512.o has no zmm code"; fi
    if "$OBJDUMP" -d "$WORK/O2/simd_avx2.o" | grep -q ymm; then pass; else fail "simd_avx2.o has no ymm code"; fi
fi

# Cross-check the NEON backend when an arm64 toolchain and qemu are installed
# (Debian: qemu-user gcc-aarch64-linux-gnu libc6-dev-arm64-cross).
if [ "$ARCH" = x86_64 ] && command -v qemu-aarch64 >/dev/null 2>&1 && [ -d /usr/aarch64-linux-gnu/lib ] \
    && $CC --target=aarch64-linux-gnu -x c -c /dev/null -o /dev/null 2>/dev/null; then
    echo "== aarch64 (NEON, under qemu-aarch64)"
    SAVED_CC="$CC"
    CC="$SAVED_CC --target=aarch64-linux-gnu"
    if build aarch64 "-O2 -fPIC" "-O2" "-static"; then
        AOBJDUMP="$(command -v aarch64-linux-gnu-objdump || echo "$OBJDUMP")"
        SAVED_OBJDUMP="$OBJDUMP"; OBJDUMP="$AOBJDUMP"
        check_no_fused aarch64 "$ARM_FUSED" "$WORK/aarch64"/*.o
        OBJDUMP="$SAVED_OBJDUMP"
        run_suite aarch64 qemu-aarch64 -L /usr/aarch64-linux-gnu
    fi
    CC="$SAVED_CC"
else
    echo "== aarch64: skipped (needs qemu-aarch64 and an arm64 cross sysroot)"
fi

echo "== SwiftPM objects (if built)"
found=0
for cfg in debug release; do
    for o in "$ROOT"/.build/"$cfg"/CAffineKernels.build/*.o; do
        [ -f "$o" ] || continue
        found=1
        check_no_fused "swiftpm-$cfg" "$X86_PATTERN" "$o"
    done
done
[ "$found" -eq 1 ] && echo "  checked .build/{debug,release}/CAffineKernels.build/*.o" || echo "  none found (run swift build first)"

echo "$PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
