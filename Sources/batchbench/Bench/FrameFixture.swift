import AllocationCounter
@_spi(Testing) import BatchGeometry
import BatchGeometryWorkloads

#if canImport(Glibc)
import Glibc
#endif

/// The frame kernels (issue 12; live trees, issue 22): two copies of one workload given
/// the same frames of a script (`FramePlayer`: the still `FrameScript`, or the live one
/// with or without relayout), one drawn and hit-tested the old way (full passes over a
/// world snapshot), one the output-sensitive way. Each frame times every step, counts
/// the new path's heap allocations and reads its cost counters, then checks the new
/// path's answers against the old path's, outside the timed regions.
final class FrameFixture {
    let mode: FrameScriptMode
    /// The still script: the viewport and the touches (every mode's).
    let script: FrameScript
    /// Queried the old way, and the output-sensitive way. Each gets the frame's edits
    /// just before its own queries, so neither path's caches see the other's work.
    private var oldStore: LayerStore
    private var newStore: LayerStore
    private var oldPlayer: FramePlayer
    private var newPlayer: FramePlayer
    /// The frame query's result, reused every frame as an engine would.
    private var visible = VisibleLayers()
    private var newHits: [LayerHandle?] = []
    /// The next frame of the script to run (frame 0 is the built state).
    private var nextFrame = 1
    /// The old path runs, and the new path is checked against it, on every `checkEvery`th
    /// frame (`--check-every`) and on the last frame `measure` times, after it; the others
    /// only edit the old store. (Not on the first frame: the old path's full passes evict
    /// the caches, and the frame after a check starts cold, a cost of this harness and not
    /// of the library; Benchmarks/README.md, "The first frame after warmUp".)
    var checkEvery = 1
    /// The first wrong answer found (nil while every frame agreed).
    private(set) var problem: String?
    private(set) var sink = 0.0
    /// `frame-animated`: the cards' animations and the model store; the new store is then
    /// the presentation tree (the old one gets each frame's presentation for its queries).
    let animations: FrameAnimations?
    /// The new store's heap bytes after `warmUp()`, and after the first frame (issue 22's
    /// bytes-per-layer target), for `memoryLine`; printed once per fixture.
    let footprintAfterWarmUp: LayerStoreFootprint
    private(set) var footprintAfterFirstFrame: LayerStoreFootprint?
    private var memoryReported = false
    private let layerCount: Int

    /// One frame's step times in seconds, its allocations and what the frame query saw.
    struct Times {
        var frame = 0
        /// Whether the old path ran (and checked the new one) this frame.
        var checked = false
        /// Minor page faults (first touches of memory) during the new path, timed or not:
        /// `getrusage`'s `ru_minflt`, read outside the timed regions.
        var pageFaults = 0
        var updateWorld = 0.0
        var rectsClipsVisibility = 0.0
        var hitTest = 0.0
        var drawOrder = 0.0
        /// The new path: the script's edits, the frame query, the culled hit tests.
        var edits = 0.0
        /// frame-animated: keeping the previous sample, sampling, updating the
        /// presentation (and the model's copy of the edits); 0 otherwise.
        var animation = 0.0
        /// Its parts: keeping the previous sample (a swap), the model's edits, sample,
        /// updatePresentation (the restore and the apply in one pass).
        var restore = 0.0
        var modelEdits = 0.0
        var sample = 0.0
        var apply = 0.0
        /// frame-animated: the animations the sample culled (timed, not sampled).
        var culled = 0
        var visibleLayers = 0.0
        var culledHitTests = 0.0
        /// Heap allocations (every thread) during the new path's edits, and its queries.
        var editAllocations = 0
        var animationAllocations = 0
        var queryAllocations = 0
        var changed = 0
        var visible = 0
        var visited = 0
        var tested = 0
        /// The frame query's `VisibleLayers.cost` (its refresh of the subtree bounds).
        var refreshed = 0
        var rebuiltIndexes = 0
        var rebuiltIndexEntries = 0
        /// The new store's slots after the frame.
        var slots = 0
        var oldTotal: Double { updateWorld + rectsClipsVisibility + hitTest + drawOrder }
        var newTotal: Double { visibleLayers + culledHitTests }
        var frameTotal: Double { edits + animation + newTotal }
        var allocations: Int { editAllocations + animationAllocations + queryAllocations }
    }

    /// Both stores built, the new one warmed up as an engine would at the end of loading
    /// (`warmUp(in:into:)` with the script's viewport and the kept result: every cache
    /// the frame query uses built, the result's storage grown, the first frame's data the
    /// last touched), so that the first timed frame pays only what a frame does: its
    /// edits, growth, and the queries. With `BATCHBENCH_WARMUP=caches`, `warmUp()` only
    /// (the caches; the first frame then starts with cold CPU caches and grows the
    /// result). With `animated`, the cards animate (`FrameAnimations`).
    init(workload: Workload, mode: FrameScriptMode, animated: Bool = false) {
        self.mode = mode
        animations = animated ? FrameAnimations(workload: workload, mode: mode) : nil
        let script = FrameScript(workload)
        self.script = script
        let old = workload.makeStore()
        var new = workload.makeStore()
        oldPlayer = FramePlayer(workload, mode: mode, store: old)
        newPlayer = FramePlayer(workload, mode: mode, store: new)
        var kept = VisibleLayers()
        if Self.warmsUpCachesOnly {
            new.warmUp()
        } else {
            new.warmUp(in: script.viewport, into: &kept)
        }
        footprintAfterWarmUp = new.memoryFootprint
        if getenv("BATCHBENCH_MEMORY_INVENTORY") != nil { Self.printInventory(of: new, layers: workload.layerCount) }
        layerCount = workload.layerCount
        oldStore = old
        newStore = new
        visible = kept
        newHits.reserveCapacity(FrameScript.touchCount)
    }

    private static let warmsUpCachesOnly = getenv("BATCHBENCH_WARMUP").map { String(cString: $0) == "caches" } ?? false

    /// This process's minor page faults so far (`getrusage`).
    private static func minorFaults() -> Int {
        var usage = rusage()
        getrusage(numericCast(RUSAGE_SELF.rawValue), &usage)
        return usage.ru_minflt
    }

    /// With `BATCHBENCH_MEMORY_INVENTORY=1`, the store's bytes after `warmUp()` array by
    /// array (`LayerStore.memoryInventory`), per layer of the workload, on standard error.
    static func printInventory(of store: borrowing LayerStore, layers: Int) {
        let n = Double(Swift.max(1, layers))
        for entry in store.memoryInventory {
            let perLayer = (Double(entry.bytes) / n * 10).rounded() / 10
            printError("memory inventory (\(layers) layers): \(entry.part): \(entry.array): \(perLayer) bytes a layer")
        }
    }

    /// One line of bytes per layer by part (`LayerStore.memoryFootprint` over the workload's
    /// layer count) after `warmUp()` and after the first frame; nil once reported.
    func takeMemoryLine() -> String? {
        guard !memoryReported, let first = footprintAfterFirstFrame else { return nil }
        memoryReported = true
        func parts(_ f: LayerStoreFootprint) -> String {
            let n = Double(Swift.max(1, layerCount))
            let values = [f.columns, f.hierarchy, f.worldCache, f.queryCaches, f.scratch, f.total]
            let names = ["columns", "hierarchy", "world", "query", "scratch", "total"]
            return zip(names, values).map { "\($0) \(Int((Double($1) / n).rounded()))" }.joined(separator: ", ")
        }
        return "memory, bytes per layer (\(layerCount) layers): after warmUp(): \(parts(footprintAfterWarmUp)); "
            + "after the first frame: \(parts(first))"
    }

    /// Runs the next frame of the script on both stores. O(count) for the old path,
    /// O(visible + visited + changed) for the new one.
    @discardableResult
    func runFrame(options: KernelOptions) -> Times {
        let frame = nextFrame
        nextFrame += 1
        let touches = script.touches(frame: frame)
        var times = Times()
        times.frame = frame
        let faults = Self.minorFaults()
        runNewPath(frame: frame, touches: touches, &times)
        times.pageFaults = Self.minorFaults() - faults
        if footprintAfterFirstFrame == nil { footprintAfterFirstFrame = newStore.memoryFootprint }
        oldPlayer.apply(frame: frame, to: &oldStore)
        if frame % checkEvery == 0 { check(touches: touches, options: options, &times) }
        return times
    }

    /// Runs the old path on `times.frame`, the last frame run (its edits applied to both
    /// stores), and checks the new path's answers, still in `visible` and `newHits`.
    private func check(touches: [Point], options: KernelOptions, _ times: inout Times) {
        let frame = times.frame
        times.checked = true
        let old = runOldPath(frame: frame, touches: touches, options: options, &times)
        sink += Double(visible.count + old.order.count) + (old.rects.last?.minX ?? 0)
        if problem == nil, let wrong = animations?.problem { problem = "frame \(frame): \(wrong)" }
        if problem == nil {
            problem = FrameCheck.compare(old, visible, hits: newHits, touches: touches).map { "frame \(frame): \($0)" }
        }
    }

    /// The new path: the edits, `visibleLayers(in:into:)`, one culled hit test per touch;
    /// allocations counted around each part (`touches` is made before, outside).
    private func runNewPath(frame: Int, touches: [Point], _ times: inout Times) {
        let clock = ContinuousClock()
        let viewport = script.viewport
        Self.traceAllocations(frame: frame, true)
        let before = BGAllocationCount()
        let start = clock.now
        animations?.restore(&newStore)
        let restored = clock.now
        let afterRestore = BGAllocationCount()
        Self.traceMark(frame: frame, "edits")
        times.changed = newPlayer.apply(frame: frame, to: &newStore)
        let screenEdited = clock.now
        let afterScreenEdits = BGAllocationCount()
        Self.traceMark(frame: frame, "animation")
        if let animations {
            animations.edit(frame: frame)
            let modelEdited = clock.now
            animations.sample(frame: frame)
            let sampled = clock.now
            animations.apply(to: &newStore)
            times.restore = seconds(from: start, to: restored)
            times.modelEdits = seconds(from: screenEdited, to: modelEdited)
            times.sample = seconds(from: modelEdited, to: sampled)
            times.apply = seconds(from: sampled, to: clock.now)
            times.culled = animations.lastCulledCount
        }
        let edited = clock.now
        let afterEdits = BGAllocationCount()
        Self.traceMark(frame: frame, "queries")
        newStore.visibleLayers(in: viewport, into: &visible)
        let queried = clock.now
        newHits.removeAll(keepingCapacity: true)
        for touch in touches { newHits.append(newStore.hitTest(touch, rule: .layer)) }
        let end = clock.now
        Self.traceAllocations(frame: frame, false)
        let afterQueries = BGAllocationCount()
        times.edits = seconds(from: restored, to: screenEdited)
        times.animation = seconds(from: start, to: restored) + seconds(from: screenEdited, to: edited)
        times.visibleLayers = seconds(from: edited, to: queried)
        times.culledHitTests = seconds(from: queried, to: end)
        times.editAllocations = Int(afterScreenEdits - afterRestore)
        times.animationAllocations = Int(afterRestore - before) + Int(afterEdits - afterScreenEdits)
        times.queryAllocations = Int(afterQueries - afterEdits)
        times.visible = visible.count
        times.visited = visible.cost.visitedLayers
        times.tested = visible.cost.testedSublayers
        times.refreshed = visible.cost.refreshedLayers
        times.rebuiltIndexes = visible.cost.rebuiltIndexes
        times.rebuiltIndexEntries = visible.cost.rebuiltIndexEntries
        times.slots = newStore.count
    }

    /// With `BATCHBENCH_ALLOCATION_TRACE=1` in the environment, each allocation the new
    /// path makes in a frame (the first included: a growth frame) prints its call stack to standard error,
    /// after a line naming the frame and part (`BGAllocationTraceSetEnabled`;
    /// `llvm-symbolizer --obj=batchbench` names the offsets): how issue 22's stray
    /// allocations were found. Those lines allocate, and are counted in the edits.
    /// Off: one branch a part.
    private static let tracing = getenv("BATCHBENCH_ALLOCATION_TRACE") != nil

    private static func traceAllocations(frame: Int, _ on: Bool) {
        guard tracing, frame > 0 else { return }
        traceMark(frame: frame, on ? "restore" : "end")
        BGAllocationTraceSetEnabled(on ? 1 : 0)
    }

    private static func traceMark(frame: Int, _ part: String) {
        guard tracing, frame > 0 else { return }
        BGAllocationTraceSetEnabled(0)  // the line below allocates
        var line = "=== frame \(frame) \(part)\n"
        line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
        BGAllocationTraceSetEnabled(1)
    }

    /// The old path (the frame's edits already applied), each step timed: updateWorld,
    /// worldRects + clipRects + visibility, the snapshot hit test of the touches, drawOrder.
    private func runOldPath(frame: Int, touches: [Point], options: KernelOptions, _ times: inout Times) -> OldFrame {
        let clock = ContinuousClock()
        let viewport = script.viewport
        // Every animation's values (the new store may hold only those that can show).
        animations?.sampleForCheck(frame: frame)
        if let animations { oldStore.applyPresentation(animations.checkValues) }
        defer {
            if let animations { oldStore.restoreModelValues(of: animations.checkValues, from: animations.model) }
        }
        let start = clock.now
        let world = oldStore.updateWorld(options: options)
        let worldDone = clock.now
        let rects = oldStore.worldRects(in: world, options: options)
        let clips = oldStore.clipRects(worldRects: rects, options: options)
        let shown = oldStore.visibility(worldRects: rects, clipRects: clips, viewport: viewport, options: options)
        let rectsDone = clock.now
        let hits = oldStore.hitTest(points: touches, in: world, rule: .layer, options: options)
        let hitsDone = clock.now
        let order = oldStore.drawOrder()
        let end = clock.now
        times.updateWorld = seconds(from: start, to: worldDone)
        times.rectsClipsVisibility = seconds(from: worldDone, to: rectsDone)
        times.hitTest = seconds(from: rectsDone, to: hitsDone)
        times.drawOrder = seconds(from: hitsDone, to: end)
        return OldFrame(world: world, rects: rects, clips: clips, shown: shown, hits: hits, order: order)
    }

    /// Timed frames, every one from the next frame on (no untimed warm-up frame: the
    /// store was warmed up when built, and the first frames' costs, growth included,
    /// are part of what is reported), the last one then checked if it was not: `frameCount` of them when given, else until there
    /// are at least 9 and `minTime` has passed (at most 1,000). The timing is the new
    /// path's queries per frame (as before issue 22); the detail has the rest.
    func measure(options: KernelOptions, minTime: Double, frameCount: Int?) -> (Timing, BenchReport.FrameDetail) {
        let clock = ContinuousClock()
        var frames: [Times] = []
        frames.reserveCapacity(frameCount ?? 1_000)
        let start = clock.now
        while frames.count < (frameCount ?? 9)
            || (frameCount == nil && seconds(from: start, to: clock.now) < minTime && frames.count < 1_000)
        {
            frames.append(runFrame(options: options))
        }
        // The last frame is checked after the timed ones (no timed frame follows it cold).
        if let last = frames.indices.last, !frames[last].checked {
            check(touches: script.touches(frame: frames[last].frame), options: options, &frames[last])
        }
        return (
            summarize(frames.map(\.newTotal)),
            FrameReport.detail(frames, mode: mode, viewport: script.viewport, animations: animations?.count)
        )
    }
}
