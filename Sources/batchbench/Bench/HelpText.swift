@_spi(Testing) import BatchGeometry

/// `batchbench --help`.
let helpText = """
    batchbench: BatchGeometry's command-line tool.

    USAGE
      batchbench [run] [OPTIONS]            throughput report (the default command)
      batchbench eval SCENE.json            evaluate a scene file (- for standard input)
      batchbench compare OLD.json NEW.json [--threshold PERCENT]
                                            compare two `run --format json` reports
      batchbench render SCENE.json [-o OUT.svg] [OPTIONS]
                                            draw a scene as SVG (render --help)
      batchbench render --timing-function F ... | --spring S ... [-o OUT.svg]
                                            chart timing functions or springs as SVG
      batchbench show REPORT.json [--format table|markdown|csv|json|svg]
                 [--workload W] [--layers N] [--threads N]
                                            print a saved JSON report again; svg: charts
                                            of one workload, bars at one size and thread
                                            count (default: the first workload, its
                                            largest size, its most threads)
      batchbench help                       this text

    RUN: times the batch kernels through the public API on generated workloads, after a
    warm-up, in several samples (the median is reported with its spread, the median
    absolute deviation; JSON also has the fastest and slowest sample). In the same run it
    measures two references on the same sizes: the memory ceiling (a copy loop over arrays
    as large as each kernel's own bytes per layer, bytes read + written per second),
    reported as the fraction of it each kernel reaches; and an object-graph baseline (one
    class instance per layer holding its superlayer, as app code holds CALayers; frames,
    world and autoresize, one thread; for animations, one animator object per animation
    with its own curve object, checked against the store's sample within 1e-9), for the
    speed-up. Every result's output is checked against the
    scalar reference (frames bit for bit, the rest within 1e-9): a wrong one is flagged
    WRONG and the run exits 1. Build it in release (swift run -c release batchbench); a
    debug build warns that its numbers mean nothing.

    OPTIONS (lists are comma-separated; repeats are dropped)
      --kernels LIST     frames, world, world-incremental, world-full-update, world-rects,
                         hit-test, convert, autoresize, frame, frame-live,
                         frame-relayout, frame-animated, frame-animated-unculled,
                         hit-test-point,
                         hit-test-culled, hit-test-culled-batch, curves,
                         visible-layers, animations, or all (default: all but the
                         opt-in frame, single-point, curves, visible-layers and
                         animations kernels)
                           frames             computeFrames(into:options:), every frame
                           world              computeWorldTransforms(into:options:), the
                                              per-frame full pass (cached locals)
                           world-incremental  1% of the layers (evenly spread) move, then
                                              updateWorld(options:); rate = store layers/s
                           world-full-update  invalidateWorld(), then updateWorld(options:):
                                              locals rebuilt, then propagated
                           world-rects        computeWorldRects(in:into:options:) on a world
                                              snapshot, the rects' storage reused
                           hit-test           hitTest(points:in:rule:options:), --points
                                              points; rate = layer tests/s (points × layers)
                           convert            convert(points:from:to:in:options:), one
                                              point per layer, leaf to leaf; rate = points/s
                           autoresize         setBounds(_:of:) on the top layer, every layer
                                              masked, so all are resized; serial: timed once
                                              (first backend and thread count asked for)
                           frame              opt-in: one frame of an app both ways, on two
                                              copies of the workload given the same edits
                                              (FrameScript: scrolls, ~300 layers, 5 touches):
                                              old = updateWorld, worldRects + clipRects +
                                              visibility, hitTest(points:in:rule:),
                                              drawOrder; new = visibleLayers(in:into:) + 5
                                              culled hitTest(_:rule:); each step's median
                                              over frames, new checked against old every
                                              frame; rate = store layers per second of new
                                              frames. Meant for --workload app. Every
                                              frame kernel also reports the frame (edits +
                                              queries) median, p99 and max, allocations
                                              per frame and the cost counters (visited,
                                              tested, refreshed, index rebuilds)
                           frame-live         opt-in, app only: frame on a live tree
                                              (LiveFrameScript): per frame a card with 5
                                              sublayers inserted in one list, one
                                              destroyed in another, a zPosition change,
                                              a list detached every 60 frames for 30
                           frame-relayout     opt-in, app only: frame-live, and the cards
                                              below each insert or removal move
                           frame-animated     opt-in, app only: frame with 10,000 cards
                                              animating (position, spring scale, opacity;
                                              repeating): per frame the edits (model
                                              and presentation store), the sample
                                              culled to the viewport,
                                              updatePresentation (restore and apply in
                                              one pass), then the
                                              queries on the presentation store; reports
                                              each part and the ratio of its frame time
                                              to frame's in the same run (--kernels
                                              frame,frame-animated)
                           frame-animated-unculled
                                              opt-in, app only: frame-animated with
                                              every animation sampled and applied
                           hit-test-point     opt-in: one point per call, hitTest(_:in:rule:)
                                              on a snapshot; median over points
                           visible-layers     opt-in: visibleLayers(in:into:) of the
                                              frame script's viewport, world cache
                                              current (updateWorld ran), no edits
                           hit-test-culled    opt-in: one point per call, the culled
                                              hitTest(_:rule:); median over points (both
                                              rates: the store's layers per second)
                           hit-test-culled-batch
                                              opt-in: the culled hitTest(points:rule:
                                              into:) of --points (default 10,000) world
                                              points a call; µs a point on stderr
                           curves             opt-in: per layer one timing function and one
                                              spring sampled, TimingFunction.values(of:at:
                                              into:) and Spring.progress(of:at:into:) into
                                              reused arrays; one thread; rate = samples/s
                           animations         opt-in: one animation per layer (basic
                                              position with a timing function, spring
                                              transform.scale, 3-segment keyframes,
                                              additive bounds, whole transform, opacity;
                                              repeating), sample(at:model:into:) per
                                              frame; one thread; rate = samples/s;
                                              checked against each animation sampled
                                              alone, and 0 allocations once warm; its
                                              object-graph baseline (unless
                                              --no-baseline) runs right after it
      --backends LIST    auto, scalar, simd, c, or all (default: all). auto is the
                         library's default (each kernel on its measured best); the
                         others force one backend for every kernel
      --layers LIST      layer counts, e.g. 10000,100k,1M (default: 100k)
      --threads LIST     thread counts, or max (default: 1 and every core: 1,\(activeProcessorCount))
      --workload LIST    standard, 3d, chain, wide, random, ui, app, or all (default: standard)
                           standard  complete 8-ary tree, breadth-first (parent (i-1)/8),
                                     the issue's per-layer bounds/position/anchor/transform
                           3d        standard, every tenth layer rotated about y under
                                     perspective (m34 = -1/500)
                           chain     each layer the sublayer of the previous (depth = N)
                           wide      one root, ceil((N-1)/101) sublayers with 100 each
                                     (1,000 × 100 at N = 101,001)
                           random    seeded random tree (parent uniform among earlier)
                           ui        standard tree, transforms as in a UIKit view tree:
                                     mostly identity or translate, rare scales/rotations
                           app       a UI app: a 1920x1080 window, 20 masking scrolled
                                     lists of cards (card, icon, label, badge), a strip
                                     of 12 cards flipping in 3D; ~430 layers visible
      --min-time SECONDS sampling time per measurement after the warm-up (default: 0.3);
                         at least 5 samples (3 when one call takes over a third of it)
      --points N         points per hit-test call (default: 10,000, capped at
                         10,000,000 / layers so one call stays near 0.3 s: 100 points
                         at 100k layers; a call costs points × layers layer tests)
      --seed N           seed of the random workload (default: 42)
      --frames N         the frame kernels time exactly N frames (default: at least 9,
                         then until --min-time has passed, at most 1,000)
      --check-every N    the frame kernels run the old path and check the new one
                         against it on every Nth frame only (frames N, 2N, ...) and
                         on the last frame timed (default: 1, every frame). The old
                         path's full passes evict the caches, so the frame after a
                         checked one starts cold; N > 1 also shows the new path
                         warm, as a frame right after the last one
      --soak N           after each app workload's kernels, N live frames on one store
                         (new path only; inserted cards have the built cards' 4 layers,
                         so the layer count settles), with resident memory
                         (/proc/self/statm) after the first frame, after 1,000 and at
                         the end; needs --workload app
      --format FORMAT    table (default), json, csv, markdown (the table as Markdown) or
                         svg (charts: bars by kernel and backend, scaling lines)
      --no-baseline      skip the object-graph baseline
      --quiet, -q        no progress lines on standard error
      --help, -h         this text

    OUTPUT
      table: layers/s with SI prefixes, GB/s moved, % of the memory ceiling at the same size
      and thread count, speed-up over the object graph and over the scalar backend.
      json: {machine: {cpu, cores, cBackend, os, architecture}, ceiling: {copyBytesPerSecond,
      layers, threads, bytesPerLayer, measurements}, results: [{workload, kernel, backend, layers, threads,
      points, medianSeconds, minSeconds, maxSeconds, madSeconds, samples, layersPerSecond, bytesPerLayer,
      bytesPerSecond, ceilingFraction, speedupOverObjectGraph, speedupOverScalar, verified,
      frame (frame kernel only: {frames, viewport, touches, changedLayers, visibleLayers,
      visitedLayers, old: {updateWorldSeconds, rectsClipsVisibilitySeconds, hitTestSeconds,
      drawOrderSeconds, totalSeconds}, new: {visibleLayersSeconds, hitTestSeconds,
      totalSeconds}, speedup, script, frameTime, queryTime, editTime ({medianSeconds,
      p99Seconds, maxSeconds, firstSeconds}), allocations: {counted, medianPerFrame,
      meanPerFrame, maxPerFrame, firstFrame, editsMeanAfterFirst, animationMeanAfterFirst,
      queriesMeanAfterFirst, framesWithAllocations}, frame-animated only: animations,
      animationTime, animationParts {restore, modelEdits, sample, apply}, ratioToStill
      {median, p99, max}; testedSublayers, refreshedLayers, rebuiltIndexes,
      rebuiltIndexEntries, slotsFirst, slotsLast, checkedFrames, stalls: [{frame, seconds,
      allocations, slots, editSeconds, querySeconds, refreshedLayers, rebuiltIndexes,
      rebuiltIndexEntries}]})}], soak (with --soak): [{workload, layers, script, frames,
      residentBytesStart, residentBytesAfter1000, residentBytesEnd, slotsStart, slotsEnd,
      layersStart, layersEnd, frameTime, allocationsMeanPerFrame, verified}],
      baselines: [{workload, kernel, layers, medianSeconds, layersPerSecond, verified
      (animations only)}], build, date,
      settings}. csv: one line per result, the result fields as columns.
      Bytes per layer (the least each kernel must read + write): frames 128, world 101
      (117 with 3D transforms), world-rects 113, hit-test 121 per layer test, convert 40
      per point, autoresize 91, curves 96 per sample; frame and visible-layers as world,
      hit-test-point and hit-test-culled(-batch) as hit-test, per layer of the store. Progress goes
      to standard error.

    COMPARE
      batchbench compare OLD.json NEW.json [--threshold PERCENT]
      Matches results by workload, kernel, backend, layers and threads, prints the change
      in layers/s, and exits 1 when any got slower by more than PERCENT (default 10).
      Exit 2 for unreadable files or bad arguments.

    EXIT STATUS
      0 success; 1 a regression (compare), a wrong kernel result (run) or a failure;
      2 a usage error.

    ENVIRONMENT
      BATCHGEOMETRY_C_KERNEL=portable|avx2|avx512|neon forces the C backend's instruction
      set; BATCHGEOMETRY_BACKEND (scalar, simd, c, auto) and BATCHGEOMETRY_THREADS set the
      defaults of eval; BATCHGEOMETRY_SPLIT=blocks|claim sets how the threads of a
      split share its tasks. A value that cannot be used is a usage error (exit status 2).

    EXAMPLES
      swift run -c release batchbench
      batchbench --kernels frames,world --layers 1M --threads 1,2,4,8,16 --format json > new.json
      batchbench compare Benchmarks/results/baseline.json new.json --threshold 5

    """
