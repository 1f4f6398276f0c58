import BatchGeometry
import BatchGeometryWorkloads

/// The frame kernel (issue 12): two copies of one workload given the same frames of its
/// `FrameScript`, one drawn and hit-tested the old way (full passes over a world
/// snapshot), one the output-sensitive way. Each frame times every step, then checks the
/// new path's answers against the old path's, outside the timed regions.
final class FrameFixture {
    let script: FrameScript
    /// Queried the old way, and the output-sensitive way. Each gets the frame's edits
    /// just before its own queries, so neither path's caches see the other's work.
    private var oldStore: LayerStore
    private var newStore: LayerStore
    /// The frame query's result, reused every frame as an engine would.
    private var visible = VisibleLayers()
    private var newHits: [LayerHandle?] = []
    /// The next frame of the script to run (frame 0 is the built state).
    private var nextFrame = 1
    /// The first wrong answer found (nil while every frame agreed).
    private(set) var problem: String?
    private(set) var sink = 0.0

    /// One frame's step times in seconds and what the frame query saw.
    struct Times {
        var updateWorld = 0.0
        var rectsClipsVisibility = 0.0
        var hitTest = 0.0
        var drawOrder = 0.0
        var visibleLayers = 0.0
        var culledHitTests = 0.0
        var changed = 0
        var visible = 0
        var visited = 0
        var oldTotal: Double { updateWorld + rectsClipsVisibility + hitTest + drawOrder }
        var newTotal: Double { visibleLayers + culledHitTests }
    }

    init(workload: Workload) {
        script = FrameScript(workload)
        oldStore = workload.makeStore()
        newStore = workload.makeStore()
        newHits.reserveCapacity(FrameScript.touchCount)
    }

    /// Runs the next frame of the script on both stores. O(count) for the old path,
    /// O(visible + visited + changed) for the new one.
    @discardableResult
    func runFrame(options: KernelOptions) -> Times {
        let frame = nextFrame
        nextFrame += 1
        let touches = script.touches(frame: frame)
        let viewport = script.viewport
        let clock = ContinuousClock()
        var times = Times()
        times.changed = script.apply(frame: frame, to: &newStore)
        let newStart = clock.now
        newStore.visibleLayers(in: viewport, into: &visible)
        let newVisible = clock.now
        newHits.removeAll(keepingCapacity: true)
        for touch in touches { newHits.append(newStore.hitTest(touch, rule: .layer)) }
        let newEnd = clock.now
        times.visibleLayers = seconds(from: newStart, to: newVisible)
        times.culledHitTests = seconds(from: newVisible, to: newEnd)
        times.visible = visible.count
        times.visited = visible.visitedLayerCount

        script.apply(frame: frame, to: &oldStore)
        let oldStart = clock.now
        let world = oldStore.updateWorld(options: options)
        let oldWorld = clock.now
        let rects = oldStore.worldRects(in: world, options: options)
        let clips = oldStore.clipRects(worldRects: rects, options: options)
        let shown = oldStore.visibility(worldRects: rects, clipRects: clips, viewport: viewport, options: options)
        let oldRects = clock.now
        let hits = oldStore.hitTest(points: touches, in: world, rule: .layer, options: options)
        let oldHits = clock.now
        let order = oldStore.drawOrder()
        let oldEnd = clock.now
        times.updateWorld = seconds(from: oldStart, to: oldWorld)
        times.rectsClipsVisibility = seconds(from: oldWorld, to: oldRects)
        times.hitTest = seconds(from: oldRects, to: oldHits)
        times.drawOrder = seconds(from: oldHits, to: oldEnd)

        sink += Double(visible.count + order.count) + (rects.last?.minX ?? 0)
        if problem == nil {
            let old = OldFrame(world: world, rects: rects, clips: clips, shown: shown, hits: hits, order: order)
            problem = compare(old, touches: touches).map { "frame \(frame): \($0)" }
        }
        return times
    }

    /// Warm-up frames (at least two: the first builds the caches of both paths), then
    /// timed frames until there are at least 9 and `minTime` has passed (at most 1,000).
    /// The timing is the new path's per-frame total; the detail has every step's median.
    func measure(options: KernelOptions, minTime: Double) -> (Timing, BenchReport.FrameDetail) {
        let clock = ContinuousClock()
        let warmUpStart = clock.now
        var warmUps = 0
        while warmUps < 2 || (seconds(from: warmUpStart, to: clock.now) < minTime * 0.1 && warmUps < 100) {
            runFrame(options: options)
            warmUps += 1
        }
        var frames: [Times] = []
        let start = clock.now
        while frames.count < 9 || (seconds(from: start, to: clock.now) < minTime && frames.count < 1_000) {
            frames.append(runFrame(options: options))
        }
        return (summarize(frames.map(\.newTotal)), detail(frames))
    }

    private func detail(_ frames: [Times]) -> BenchReport.FrameDetail {
        func median(_ value: (Times) -> Double) -> Double { medianOf(frames.map(value)) }
        let old = BenchReport.FrameDetail.OldPath(
            updateWorldSeconds: median(\.updateWorld), rectsClipsVisibilitySeconds: median(\.rectsClipsVisibility),
            hitTestSeconds: median(\.hitTest), drawOrderSeconds: median(\.drawOrder), totalSeconds: median(\.oldTotal))
        let new = BenchReport.FrameDetail.NewPath(
            visibleLayersSeconds: median(\.visibleLayers), hitTestSeconds: median(\.culledHitTests),
            totalSeconds: median(\.newTotal))
        let viewport = script.viewport
        return BenchReport.FrameDetail(
            frames: frames.count, viewport: [viewport.x, viewport.y, viewport.width, viewport.height],
            touches: FrameScript.touchCount, changedLayers: Int(median { Double($0.changed) }),
            visibleLayers: Int(median { Double($0.visible) }), visitedLayers: Int(median { Double($0.visited) }),
            old: old, new: new, speedup: old.totalSeconds / new.totalSeconds)
    }

    /// The old path's answers for one frame.
    private struct OldFrame {
        var world: WorldTransforms
        var rects: [RectEdges]
        var clips: [RectEdges?]
        var shown: [Bool]
        var hits: [LayerHandle?]
        var order: [LayerHandle]
    }

    /// Nil when the frame query's list is the old path's drawing order filtered by its
    /// visibility, with the same world transforms (bit for bit), world rects and clip
    /// rects, and the culled hits are the snapshot walk's; else the first difference.
    private func compare(_ old: OldFrame, touches: [Point]) -> String? {
        var k = 0
        for layer in old.order where old.shown[layer.index] {
            guard k < visible.count else {
                return "the frame query found \(visible.count) visible layers; the full passes also show \(layer)"
            }
            let got = visible.layers[k]
            guard got == layer else { return "visible layer \(k) is \(got), the full passes' is \(layer)" }
            let expected = old.world[layer]
            if visible.worldTransforms[k].rowMajor.map(\.bitPattern) != expected.rowMajor.map(\.bitPattern) {
                return "world transform of \(layer) is \(visible.worldTransforms[k]), the full pass's is \(expected)"
            }
            if visible.worldRects[k] != old.rects[layer.index] {
                return
                    "world rect of \(layer) is \(visible.worldRects[k]), the full pass's is \(old.rects[layer.index])"
            }
            if visible.clipRects[k] != old.clips[layer.index] {
                return
                    "clip rect of \(layer) is \(String(describing: visible.clipRects[k])), the full pass's is \(String(describing: old.clips[layer.index]))"
            }
            k += 1
        }
        if k != visible.count { return "the frame query found \(visible.count) visible layers, the full passes \(k)" }
        for (t, touch) in touches.enumerated() where newHits[t] != old.hits[t] {
            return
                "touch \(touch) hit \(newHits[t].map { "\($0)" } ?? "nothing") culled, \(old.hits[t].map { "\($0)" } ?? "nothing") on the snapshot"
        }
        return nil
    }
}
