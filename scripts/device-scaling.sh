#!/usr/bin/env bash
# Issue 25's scaling run, for the lent 16-core machine (it has no Swift toolchain):
#   here:   ../shared/tools/static-batchbench.sh        (builds .device/batchbench)
#   device: bash scripts/device-scaling.sh              (carry [".device"])
# Every .device/batchbench* binary (a .gz is unpacked first; the name after
# "batchbench-" labels it) runs the matrix into $OUT/16core-<label>.json, with
# the machine's description in $OUT/machine.txt. KERNELS, LAYERS, THREADS, BACKENDS
# override the matrix. SPLITS (e.g. "blocks,claim") then runs SPLIT_KERNELS at
# SPLIT_LAYERS on the c backend once per BATCHGEOMETRY_SPLIT schedule, one after the
# other in the same lease, into $OUT/16core-<label>-split-<schedule>.json.
set -uo pipefail
SPLITS=${SPLITS:-}
out=${OUT:-/tmp/scaling}
mkdir -p "$out"
{
    lscpu
    echo "nproc: $(nproc)"
    echo "cpu.max: $(cat /sys/fs/cgroup/cpu.max 2>/dev/null)"
    echo "cpuset: $(cat /sys/fs/cgroup/cpuset.cpus.effective 2>/dev/null)"
    command -v numactl >/dev/null && numactl -H
    head -3 /proc/meminfo
} > "$out/machine.txt" 2>&1
for packed in .device/*.gz; do [ -e "$packed" ] && gunzip -k -f "$packed"; done
for bin in .device/batchbench*; do
    case $bin in *.gz) continue ;; esac
    label=${bin#.device/batchbench}
    label=${label#-}
    label=${label:-main}
    start=$(date +%s)
    "$bin" --kernels "${KERNELS:-frames,world,world-incremental,world-rects,hit-test-culled}" \
        --backends "${BACKENDS:-c,simd}" --layers "${LAYERS:-100k,1M,4M}" \
        --threads "${THREADS:-1,2,4,8,16}" --no-baseline --format json \
        > "$out/16core-$label.json" 2> "/tmp/progress-$label.txt"
    echo "$label: exit $?, $(($(date +%s) - start)) s"
    "$bin" show "$out/16core-$label.json" --format markdown 2>&1 | grep -v '^- .*thread: '
    for split in ${SPLITS//,/ }; do
        start=$(date +%s)
        BATCHGEOMETRY_SPLIT=$split "$bin" --kernels "${SPLIT_KERNELS:-world,frames,world-rects}" \
            --backends c --layers "${SPLIT_LAYERS:-100k,1M}" --threads "${THREADS:-1,2,4,8,16}" \
            --no-baseline --format json > "$out/16core-$label-split-$split.json" 2>/dev/null
        echo "$label, split $split: exit $?, $(($(date +%s) - start)) s"
    done
done
