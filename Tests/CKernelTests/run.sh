#!/usr/bin/env bash
# run.sh — the C kernel tests: Sources/CAffineKernels on its own, through SwiftPM.
#
# Builds the executable target c-kernel-tests (this folder; main in test_kernels.c) in
# each configuration below, each in its own scratch path .build-ckernels/<config> so
# that reruns are incremental, and runs it: the differential tests (every implementation
# table this CPU runs, the emulated 8-lane template and the dispatching entry points
# against a reference, bit for bit), the BATCHGEOMETRY_C_KERNEL checks (selection and
# error message) and the concurrent first-use check. Then it disassembles every object
# of that build (the module's and the tests') and fails on any fused multiply-add.
#
#   O0          swift build (SwiftPM's debug flags)
#   O2          swift build -c release
#   asan-ubsan  --sanitize=address -Xcc -fsanitize=undefined -Xcc -fno-sanitize-recover=all
#               (the test's C code too; UBSan stops at its first report). Not
#               --sanitize=undefined: swiftc cannot link that on Linux, and the ASan
#               runtime it links carries UBSan's handlers
#   tsan        --sanitize=thread: the concurrent first-use check
#   fma-stress  -c release -Xcc -O3 -Xcc -march=haswell: FMA allowed everywhere, so the
#               FP_CONTRACT pragmas, not the flags, must prevent fusion
#   avx512      -c release -Xcc -O3 -Xcc -march=skylake-avx512 (run on AVX-512 CPUs only)
#
# No aarch64 (NEON) configuration: SwiftPM cross-builds only with an installed arm64
# Swift SDK, and neither that nor qemu to run the result is on CI; the NEON backend is
# the shared template (exercised by emu8 and the x86 tables) plus its intrinsic mapping.
# The module and the tests get the same flags: every file starts with the FP_CONTRACT
# pragmas, which are what is tested. Exit status is non-zero on any failure; the last
# line is "N passed, M failed".
set -u

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT" || exit 2
SWIFT="${SWIFT:-swift}"
if [ -z "${OBJDUMP:-}" ]; then
    OBJDUMP=objdump
    command -v objdump >/dev/null 2>&1 \
        || OBJDUMP="$(dirname "$(readlink -f "$(command -v "$SWIFT")")")/llvm-objdump"
fi
WORK="$(mktemp -d "${TMPDIR:-/tmp}/ckerneltests.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
LOG="$WORK/run.log"

PASSED=0
FAILED=0
pass() { PASSED=$((PASSED + 1)); }
fail() { FAILED=$((FAILED + 1)); echo "FAIL: $*"; }
cpu_has() { grep -qw "$1" /proc/cpuinfo 2>/dev/null; }

# Runs the test binary and adds its "N passed, M failed" line to the totals.
run_counted() {
    local label="$1"; shift
    "$@" >"$LOG" 2>&1
    local rc=$? line p f
    line="$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$LOG" | tail -n 1)"
    if [ -z "$line" ]; then cat "$LOG"; fail "$label: no result line (exit $rc)"; return; fi
    p="${line%% passed*}"; f="${line#*passed, }"; f="${f%% failed*}"
    PASSED=$((PASSED + p)); FAILED=$((FAILED + f))
    if [ "$rc" -ne 0 ] || [ "$f" -ne 0 ]; then
        cat "$LOG"
        [ "$f" -eq 0 ] && fail "$label: exit status $rc"
    fi
    echo "  $label: $line$(grep -E '^(selected backend|skipped|env )' "$LOG" | sed 's/^/ | /' | tr '\n' ' ')"
}

# The swift build arguments of each configuration (see the top of this file).
CONFIGS=(O0 O2 asan-ubsan tsan)
[ "$(uname -m)" = x86_64 ] && CONFIGS+=(fma-stress avx512)
build_args() {
    case "$1" in
        O0) ;;
        O2) echo -c release ;;
        asan-ubsan) echo --sanitize=address -Xcc -fsanitize=undefined -Xcc -fno-sanitize-recover=all ;;
        tsan) echo --sanitize=thread ;;
        fma-stress) echo -c release -Xcc -O3 -Xcc -march=haswell ;;
        avx512) echo -c release -Xcc -O3 -Xcc -march=skylake-avx512 ;;
    esac
}

# Starts every build at once: SwiftPM's planning and linking and the tests run on one
# core, so overlapping the configurations keeps both busy.
declare -A BUILDS
for c in "${CONFIGS[@]}"; do
    # shellcheck disable=SC2046
    "$SWIFT" build --product c-kernel-tests --scratch-path ".build-ckernels/$c" $(build_args "$c") \
        -Xcc -Wall -Xcc -Wextra -Xcc -Werror >"$WORK/$c.log" 2>&1 &
    BUILDS[$c]=$!
done

# Waits for configuration $1's build; sets BIN and OBJS, or fails.
build() {
    local name="$1" scratch=".build-ckernels/$1" config=debug
    case " $(build_args "$name") " in *" release "*) config=release ;; esac
    echo "== $name (swift build $(build_args "$name"))"
    if ! wait "${BUILDS[$name]}"; then
        cat "$WORK/$name.log"; fail "$name: swift build"; return 1
    fi
    BIN="$scratch/$config/c-kernel-tests"
    OBJS=("$scratch/$config"/CAffineKernels.build/*.o "$scratch/$config"/c_kernel_tests.build/*.o)
}

# Fails for every fused multiply-add instruction in the objects of the last build.
check_no_fused() {
    local o count
    for o in "${OBJS[@]}"; do
        count="$("$OBJDUMP" -d "$o" | grep -Ec '\svf(n)?m(add|sub)|\s(fmla|fmls|fmadd|fmsub|fnmadd|fnmsub)\s')"
        if [ "$count" -eq 0 ]; then pass; else fail "$count fused multiply-add instruction(s) in $o"; fi
    done
}

run_suite() {
    local name="$1" v
    run_counted "$name differential" "$BIN"
    for v in UNSET "" portable avx2 avx512 neon AVX2 Portable auto bogus; do
        if [ "$v" = UNSET ]; then
            run_counted "$name env(unset)" env -u BATCHGEOMETRY_C_KERNEL "$BIN" --env-check
        else
            run_counted "$name env($v)" env BATCHGEOMETRY_C_KERNEL="$v" "$BIN" --env-check
        fi
    done
    run_counted "$name threads" env -u BATCHGEOMETRY_C_KERNEL "$BIN" --threads
}

echo "swift: $("$SWIFT" --version 2>&1 | head -n 1)"

if build O0; then check_no_fused; run_suite O0; fi

if build O2; then
    check_no_fused
    run_suite O2
    # The AVX-512 table must really contain 512-bit code, the AVX2 one 256-bit code.
    if [ "$(uname -m)" = x86_64 ]; then
        o=.build-ckernels/O2/release/CAffineKernels.build
        if "$OBJDUMP" -d "$o/simd_avx512.c.o" | grep -q zmm; then pass; else fail "simd_avx512.c.o has no zmm code"; fi
        if "$OBJDUMP" -d "$o/simd_avx2.c.o" | grep -q ymm; then pass; else fail "simd_avx2.c.o has no ymm code"; fi
    fi
fi

if build asan-ubsan; then
    ASAN_OPTIONS=detect_leaks=1:halt_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 run_suite asan-ubsan
fi

if build tsan; then
    for i in 1 2 3 4 5; do
        TSAN_OPTIONS=halt_on_error=1 run_counted "tsan threads #$i" env -u BATCHGEOMETRY_C_KERNEL "$BIN" --threads
    done
fi

if [ "$(uname -m)" = x86_64 ]; then
    if build fma-stress; then
        check_no_fused
        if cpu_has avx2 && cpu_has fma; then run_suite fma-stress; else echo "  (not run: CPU lacks avx2/fma)"; fi
    fi
    if build avx512; then
        check_no_fused
        if cpu_has avx512f; then run_suite avx512; else echo "  (not run: CPU lacks avx512f)"; fi
    fi
fi

echo "$PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
