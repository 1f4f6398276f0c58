#!/usr/bin/env bash
# Benchmark smoke run for CI: every kernel (the opt-in frame kernels, still, live and animated, and
# the single-point hit-test kernels included), backend and workload at small sizes on 1 and 2 threads (run itself
# checks every output against the scalar reference, and the frame kernel its new path
# against its old one, and exits 1 on a wrong one), the JSON report's shape checked with python3, compare of a report with itself
# (exit 0) and with a made-up slower copy (exit 1), and the CLI's error exits (status 2).
# No timing thresholds: it checks that batchbench works, not how fast. Well under a minute.
# usage: scripts/bench-smoke.sh [path/to/batchbench]   (default .build/release/batchbench)
set -euo pipefail
bin="${1:-.build/release/batchbench}"
[ -x "$bin" ] || { echo "error: $bin is not an executable batchbench (build it: swift build -c release)" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

echo "bench-smoke: run (all kernels, backends, workloads; 1,2 threads; small sizes)"
"$bin" run --kernels all --backends scalar,simd,c --threads 1,2 --layers 500,3000 \
  --workload standard,3d,chain,wide,random,ui,app --points 20 --min-time 0.01 --quiet --format json > "$work/run.json"

python3 - "$work/run.json" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
def need(obj, key, kind, where):
    assert key in obj, f"{where}: missing '{key}'"
    assert isinstance(obj[key], kind), f"{where}.{key}: expected {kind}, got {type(obj[key]).__name__}"
    return obj[key]
machine = need(report, "machine", dict, "report")
need(machine, "cpu", str, "machine"); need(machine, "cores", int, "machine")
assert need(machine, "cBackend", str, "machine") in ("avx512", "avx2", "neon", "portable"), machine["cBackend"]
assert need(need(report, "ceiling", dict, "report"), "copyBytesPerSecond", (int, float), "ceiling") > 0
results = need(report, "results", list, "report")
kernels = {"frames", "world", "world-incremental", "world-full-update", "world-rects", "hit-test", "convert",
           "frame"}
workloads = {"standard", "3d", "chain", "wide", "random", "ui", "app"}
expected = {(w, k, b, n, t) for w in workloads for k in kernels for b in ("scalar", "simd", "c")
            for n in (500, 3000) for t in (1, 2)}
# The live and animated frame kernels play the app's lists: app only.
expected |= {("app", k, b, n, t) for k in ("frame-live", "frame-relayout", "frame-animated", "frame-animated-unculled")
             for b in ("scalar", "simd", "c") for n in (500, 3000) for t in (1, 2)}
# autoresize, the hit tests, curves, visible-layers and animations ignore backend and threads: timed once, at the first
# of each asked for.
expected |= {(w, k, "scalar", n, 1) for w in workloads for n in (500, 3000)
             for k in ("autoresize", "hit-test-point", "hit-test-culled", "hit-test-culled-batch", "curves",
                       "visible-layers", "animations")}
seen = set()
for i, r in enumerate(results):
    where = f"results[{i}]"
    key = (need(r, "workload", str, where), need(r, "kernel", str, where), need(r, "backend", str, where),
           need(r, "layers", int, where), need(r, "threads", int, where))
    for field in ("medianSeconds", "layersPerSecond", "bytesPerSecond", "ceilingFraction"):
        value = need(r, field, (int, float), where)
        assert value > 0, f"{where}.{field} = {value} is not positive"
    assert r.get("verified") is True, f"{where} ({' '.join(map(str, key))}): output not verified against the reference"
    if key[1] in ("frame", "frame-live", "frame-relayout", "frame-animated", "frame-animated-unculled"):
        frame = need(r, "frame", dict, where)
        script = {"frame": "still", "frame-live": "live", "frame-relayout": "relayout",
                  "frame-animated": "still+animations", "frame-animated-unculled": "still+animations"}[key[1]]
        assert need(frame, "script", str, f"{where}.frame") == script, frame["script"]
        for dist in ("frameTime", "queryTime", "editTime"):
            d = need(frame, dist, dict, f"{where}.frame")
            assert 0 < d["medianSeconds"] <= d["p99Seconds"] <= d["maxSeconds"], (dist, d)
        allocations = need(frame, "allocations", dict, f"{where}.frame")
        assert allocations["counted"] is True, "allocations are counted on Linux with glibc"
        for field in ("testedSublayers", "refreshedLayers", "rebuiltIndexes", "rebuiltIndexEntries", "slotsLast"):
            need(frame, field, int, f"{where}.frame")
        if script in ("live", "relayout"):
            assert frame["slotsLast"] > frame["slotsFirst"], "live frames add layers"
        if script == "still+animations":
            assert need(frame, "animations", int, f"{where}.frame") > 0, "frame-animated runs animations"
            assert 0 < need(frame, "animationTime", dict, f"{where}.frame")["medianSeconds"]
            need(frame, "ratioToStill", dict, f"{where}.frame")

        for field in ("frames", "touches", "visibleLayers", "visitedLayers", "changedLayers"):
            need(frame, field, int, f"{where}.frame")
        assert frame["frames"] >= 9 and frame["touches"] == 5, frame
        for path, steps in (("old", ("updateWorldSeconds", "rectsClipsVisibilitySeconds", "hitTestSeconds",
                                     "drawOrderSeconds", "totalSeconds")),
                            ("new", ("visibleLayersSeconds", "hitTestSeconds", "totalSeconds"))):
            for step in steps:
                assert need(need(frame, path, dict, f"{where}.frame"), step, (int, float), f"{where}.frame.{path}") > 0
        assert frame["new"]["totalSeconds"] == r["medianSeconds"], "frame: medianSeconds is the new path's total"
        if key[0] == "app":
            assert frame["visibleLayers"] > 100 and frame["changedLayers"] > 100, frame
    else:
        assert "frame" not in r, f"{where}: only the frame kernel reports frame steps"
    seen.add(key)
assert seen == expected, f"missing results: {sorted(expected - seen)[:5]} extra: {sorted(seen - expected)[:5]}"
baselines = need(report, "baselines", list, "report")
# The animations kernel's object-graph baseline (one animator object per animation) too,
# checked against the store's sample.
assert {(b["workload"], b["kernel"], b["layers"]) for b in baselines} == \
    {(w, k, n) for w in workloads for k in ("frames", "world", "autoresize", "animations") for n in (500, 3000)}, \
    "baselines incomplete"
for b in baselines:
    assert b["layersPerSecond"] > 0, b
    if b["kernel"] == "animations":
        assert b.get("verified") is True, f"animations baseline {b['workload']} {b['layers']}: not verified"
print(f"bench-smoke: JSON shape ok ({len(results)} results, {len(baselines)} baselines)")
# A copy 50% slower everywhere, for compare's failure path.
for r in results:
    r["layersPerSecond"] /= 2
json.dump(report, open(sys.argv[1].replace("run.json", "slower.json"), "w"))
PY

echo "bench-smoke: show reads the report back"
"$bin" show "$work/run.json" > "$work/show.txt"
grep -q "frame-relayout" "$work/show.txt"

echo "bench-smoke: --soak (300 live frames, resident memory)"
"$bin" --kernels frame-live --backends c --threads 1 --workload app --layers 3000 --frames 9 --soak 300 \
  --min-time 0.01 -q --no-baseline --format json > "$work/soak.json"
# The soak's inserted cards have the built cards' 4 layers: the layer count stays where it was built.
python3 -c "import json,sys; s=json.load(open(sys.argv[1]))['soak']; assert len(s)==1 and s[0]['frames']==300 and s[0]['verified'] and s[0]['residentBytesEnd']>0 and s[0]['script']=='live-settled' and abs(s[0]['layersEnd']-s[0]['layersStart'])<4, s" "$work/soak.json"

echo "bench-smoke: --check-every (the old path and the check on frames 4, 8 and the last, 9, of 9)"
"$bin" --kernels frame --backends c --threads 1 --workload app --layers 3000 --frames 9 --check-every 4 \
  -q --no-baseline --format json > "$work/check-every.json"
python3 -c "import json,sys; f=json.load(open(sys.argv[1]))['results'][0]['frame']; assert f['frames']==9 and f['checkedFrames']==3 and f['old']['totalSeconds']>0, f" "$work/check-every.json"

echo "bench-smoke: compare with itself (must exit 0)"
"$bin" compare "$work/run.json" "$work/run.json" > "$work/same.txt"
tail -1 "$work/same.txt"

echo "bench-smoke: compare with a 50% slower copy (must exit 1)"
set +e
"$bin" compare "$work/run.json" "$work/slower.json" --threshold 10 > "$work/slower.txt"
status=$?
set -e
[ "$status" -eq 1 ] || { echo "error: compare of a slower report exited $status, expected 1" >&2; exit 1; }
tail -1 "$work/slower.txt"

echo "bench-smoke: the default run leaves out the opt-in kernels (frame, frame-live, frame-relayout, frame-animated, frame-animated-unculled, hit-test-point, hit-test-culled, hit-test-culled-batch, curves, visible-layers, animations)"
"$bin" --backends c --layers 200 --threads 1 --min-time 0.01 -q --no-baseline --format json > "$work/default.json"
python3 -c "import json,sys; k={r['kernel'] for r in json.load(open(sys.argv[1]))['results']}; assert k=={'frames','world','world-incremental','world-full-update','world-rects','hit-test','convert','autoresize'}, k" "$work/default.json"

echo "bench-smoke: csv and table formats"
"$bin" --kernels frames --backends c --layers 200 --threads 1 --min-time 0.01 -q --format csv > "$work/run.csv"
python3 -c "import csv,sys; rows=list(csv.DictReader(open(sys.argv[1]))); assert len(rows)==1 and rows[0]['kernel']=='frames' and float(rows[0]['layersPerSecond'])>0, rows" "$work/run.csv"
# (to a file, not a pipe: grep -q closing the pipe early would kill batchbench with SIGPIPE)
"$bin" --kernels world --backends scalar --layers 200 --threads 1 --min-time 0.01 -q --no-baseline > "$work/table.txt"
grep -q "world" "$work/table.txt"

echo "bench-smoke: usage errors exit 2"
expect_status() {
  local want="$1"; shift
  set +e; "$@" > /dev/null 2> "$work/err.txt"; local got=$?; set -e
  [ "$got" -eq "$want" ] || { echo "error: '$*' exited $got, expected $want" >&2; cat "$work/err.txt" >&2; exit 1; }
  grep -q "error:" "$work/err.txt" || { echo "error: '$*' printed no error message" >&2; exit 1; }
}
expect_status 2 "$bin" --kernals frames
grep -q "did you mean" "$work/err.txt" || { echo "error: no hint for a misspelled option" >&2; exit 1; }
expect_status 2 "$bin" --kernels teleport
expect_status 2 "$bin" --layers 0
expect_status 2 "$bin" --soak 10 --workload standard
expect_status 2 "$bin" --check-every 0
expect_status 2 "$bin" compare "$work/run.json"
expect_status 2 "$bin" compare "$work/run.json" "$work/does-not-exist.json"
echo '{"not": "a report"}' > "$work/bad.json"
expect_status 2 "$bin" compare "$work/run.json" "$work/bad.json"
"$bin" --help > "$work/help.txt"
grep -q -- "--min-time" "$work/help.txt"
echo "bench-smoke: passed"
