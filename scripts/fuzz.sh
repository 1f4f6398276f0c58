#!/usr/bin/env bash
# Builds and runs the libFuzzer targets in Fuzz/ (see docs/ROBUSTNESS.md).
#
#   scripts/fuzz.sh                 each target for 5 minutes (FUZZ_SECONDS to change)
#   scripts/fuzz.sh --ci            each target for about 25 seconds from a fixed seed, debug build (the CI smoke run)
#   scripts/fuzz.sh kernels         only one target (kernels | scene)
#   scripts/fuzz.sh --replay DIR    run a target over files (e.g. a crash) without fuzzing
#
# Each target is a SwiftPM executable target (fuzz-kernels, fuzz-scene) that Package.swift
# declares only when BATCHGEOMETRY_FUZZ is set, built by `swift build -c release
# --sanitize=fuzzer --sanitize=address` into .build-fuzz/ (the library and the C kernels
# with it, instrumented the same way). The corpus grows in Fuzz/corpus-work/
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
config="${FUZZ_CONFIG:-release}"             # --ci: debug (see build_flags)
seed="${FUZZ_SEED:-0}"                       # 0: libFuzzer draws one
targets=()
replay=""
while [ $# -gt 0 ]; do
  case "$1" in
    --ci) seconds="${FUZZ_SECONDS:-25}"; seed="${FUZZ_SEED:-1}"; config="${FUZZ_CONFIG:-debug}" ;;
    --replay) replay="$2"; shift ;;
    kernels|scene) targets+=("$1") ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    *) echo "error: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done
[ ${#targets[@]} -gt 0 ] || targets=(kernels scene)

swift="${SWIFT:-swift}"
build="$root/.build-fuzz"
# The hand-written build before SwiftPM's left these; they are stale now.
rm -rf "$build/c" "$build/fuzz-kernels" "$build/fuzz-scene"

# SwiftPM builds the fuzzers: BATCHGEOMETRY_FUZZ=1 adds the targets fuzz-kernels and
# fuzz-scene to Package.swift. Release, as a user's build would be, plus -enable-testing
# because fuzz-kernels compares the public API with the library's internal slot-index API
# and references (`@testable import`). Incremental: only what changed is rebuilt.
# --sanitize=fuzzer --sanitize=address instrument the C kernels and link libFuzzer and ASan,
# but SwiftPM hands swiftc the two as separate -sanitize= flags, of which the Swift 6.3
# driver passes only the last to the compiler (which one varies by module): the Swift code
# then lacked either ASan or the coverage that guides libFuzzer (a kernels run saw 34
# coverage points instead of ~4,400). -Xswiftc -sanitize=fuzzer,address comes last and
# names both.
# --ci builds debug instead: the release build (whole-module optimization, one job) took
# 810 s on the 2-core machine against 247 s for debug, and CI must stay under 45 minutes.
# A debug fuzzer runs ~10x fewer inputs (scene ~11,000 in 25 s, kernels ~120), enough for
# CI's smoke run over the corpus; the long runs (no --ci) stay release.
build_flags=(-c "$config" --sanitize=fuzzer --sanitize=address -Xswiftc -sanitize=fuzzer,address
  -Xswiftc -enable-testing --scratch-path "$build")
build_target() {
  local name="$1"
  echo "--- building $name (swift build -c $config --sanitize=fuzzer --sanitize=address --product fuzz-$name)"
  if ! BATCHGEOMETRY_FUZZ=1 "$swift" build "${build_flags[@]}" --product "fuzz-$name" >"$build/$name.build.log" 2>&1; then
    grep -v "Cannot export local symbol" "$build/$name.build.log" >&2
    return 2
  fi
}

mkdir -p "$build"
status=0
for name in "${targets[@]}"; do
  built=0
  build_target "$name" || built=$?
  if [ "$built" -ne 0 ]; then
    echo "error: building the $name fuzzer failed" >&2
    status=1
    continue
  fi
  binary="$build/$config/fuzz-$name"
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
