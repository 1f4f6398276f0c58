#!/usr/bin/env bash
# Builds and runs the libFuzzer targets in Fuzz/ (see docs/ROBUSTNESS.md).
#
#   scripts/fuzz.sh                 each target for 5 minutes (FUZZ_SECONDS to change)
#   scripts/fuzz.sh --ci            each target for about 25 seconds from a fixed seed (the CI smoke run)
#   scripts/fuzz.sh kernels         only one target (kernels | scene)
#   scripts/fuzz.sh --replay DIR    run a target over files (e.g. a crash) without fuzzing
#
# Each target is one executable compiled by swiftc directly (no change to Package.swift):
# the library's Swift sources plus the target's files in one module, with
# -sanitize=fuzzer,address, and the C kernels compiled by clang with ASan. Builds go to
# .build-fuzz/ (rebuilt when a source is newer). The corpus grows in Fuzz/corpus-work/
# (seeded from Fuzz/corpus/), crashes land in Fuzz/crashes/<target>/ (both ignored by
# git). Exits non-zero when a target crashes or fails an oracle.
#
# FUZZ_SEED picks libFuzzer's seed. --ci fixes it (1) so that CI on a clean checkout
# explores the same inputs each time and a red run can be replayed; other runs draw a
# new seed, which is how new inputs are found. An input that found a bug is kept in
# Fuzz/corpus/<target>/ so that every later run, CI included, starts from it.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"

seconds="${FUZZ_SECONDS:-300}"
seed="${FUZZ_SEED:-0}"                       # 0: libFuzzer draws one
targets=()
replay=""
while [ $# -gt 0 ]; do
  case "$1" in
    --ci) seconds="${FUZZ_SECONDS:-25}"; seed="${FUZZ_SEED:-1}" ;;
    --replay) replay="$2"; shift ;;
    kernels|scene) targets+=("$1") ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    *) echo "error: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done
[ ${#targets[@]} -gt 0 ] || targets=(kernels scene)

swiftc="${SWIFTC:-$(command -v swiftc)}"
toolchain_bin="$(dirname "$(readlink -f "$swiftc")")"
clang="${CC:-$toolchain_bin/clang}"
build="$root/.build-fuzz"
mkdir -p "$build"

# The C kernels, once for all targets, with a module map so Swift can import them.
build_c() {
  local out="$build/c"
  mkdir -p "$out/include"
  local header="$root/Sources/CAffineKernels/include/CAffineKernels.h"
  printf 'module CAffineKernels {\n  header "%s"\n  export *\n}\n' "$header" >"$out/include/module.modulemap"
  local source
  for source in Sources/CAffineKernels/*.c; do
    local object="$out/$(basename "$source" .c).o"
    if [ ! -f "$object" ] || [ "$source" -nt "$object" ] || [ Sources/CAffineKernels/internal.h -nt "$object" ] \
        || [ Sources/CAffineKernels/simd_template.h -nt "$object" ] || [ "$header" -nt "$object" ]; then
      "$clang" -O2 -g -fPIC -fsanitize=fuzzer-no-link,address -std=c11 \
        -I Sources/CAffineKernels/include -c "$source" -o "$object"
    fi
  done
}

# target name → its sources (besides the library).
target_sources() {
  case "$1" in
    kernels) echo Fuzz/Common/*.swift Fuzz/Kernels/*.swift ;;
    scene) echo Fuzz/Common/*.swift Fuzz/Scene/*.swift ;;
  esac
}

build_target() {
  local name="$1" binary="$build/fuzz-$1"
  local sources
  sources="$(target_sources "$name")"
  local library
  library="$(find Sources/BatchGeometry -name '*.swift' | sort)"
  local newest
  # shellcheck disable=SC2086
  newest="$(ls -t $sources $library "$0" | head -n 1)"
  if [ ! -x "$binary" ] || [ "$newest" -nt "$binary" ]; then
    echo "--- building $name (swiftc -sanitize=fuzzer,address)"
    # shellcheck disable=SC2086
    "$swiftc" -O -g -parse-as-library -module-name "Fuzz_$name" \
      -sanitize=fuzzer,address \
      -Xcc -fmodule-map-file="$build/c/include/module.modulemap" -I "$build/c/include" \
      $sources $library "$build"/c/*.o -o "$binary" >"$build/$name.build.log" 2>&1 \
      || { grep -v "Cannot export local symbol" "$build/$name.build.log" >&2; return 2; }
  fi
  return 0
}

build_c
status=0
for name in "${targets[@]}"; do
  built=0
  build_target "$name" || built=$?
  if [ "$built" -ne 0 ]; then
    echo "error: building the $name fuzzer failed" >&2
    status=1
    continue
  fi
  binary="$build/fuzz-$name"
  if [ -n "$replay" ]; then
    echo "--- replaying $replay with $name"
    SWIFT_BACKTRACE=enable=no ASAN_OPTIONS="detect_leaks=0:${ASAN_OPTIONS:-}" "$binary" -runs=1 "$replay"/* || status=1
    continue
  fi
  work="Fuzz/corpus-work/$name"
  crashes="Fuzz/crashes/$name"
  mkdir -p "$work" "$crashes" "Fuzz/corpus/$name"
  echo "--- fuzzing $name for ${seconds}s, seed $seed (corpus $work, crashes $crashes/)"
  # -rss_limit_mb: kernels stores are at most ~35,000 layers; the scene decoder must
  # stay bounded too. -timeout: one input taking 20 s is a hang.
  # SWIFT_BACKTRACE: the Swift crash handler trips ASan after a fatalError; libFuzzer reports anyway.
  if ! SWIFT_BACKTRACE=enable=no ASAN_OPTIONS="detect_leaks=0:${ASAN_OPTIONS:-}" "$binary" \
      -max_total_time="$seconds" -seed="$seed" -timeout=20 -rss_limit_mb=3072 -max_len=8192 \
      -artifact_prefix="$crashes/" -print_final_stats=1 "$work" "Fuzz/corpus/$name" 2>"$build/$name.log"; then
    status=1
    echo "error: $name crashed or failed an oracle; artifacts in $crashes/:" >&2
    ls -l "$crashes" >&2 || true
    grep -E "oracle failed|ERROR: |SUMMARY|Fatal error|==[0-9]+==" "$build/$name.log" | head -20 >&2 || true
  else
    grep -E "^stat::number_of_executed_units|^stat::new_units_added|^stat::peak_rss_mb" "$build/$name.log" \
      | sed "s/^/  $name /" || true
  fi
done
exit $status
