import AllocationCounter
import BatchGeometry
import BatchGeometryWorkloads

/// `--soak N`: N live frames (`LiveFrameScript`, no relayout, `settled`: inserted cards
/// have the built cards' 4 layers, so the layer count stays where it was built and
/// resident memory measures what the store keeps) of the app on one store, the new path
/// only (edits, `visibleLayers(in:into:)`, 5 culled hit tests), with the process's
/// resident memory after the first frame, after 1,000 frames and at the end. The last
/// frame is checked against the full passes on the same store.
enum SoakRunner {
    static func run(_ workload: Workload, frames: Int) -> BenchReport.Soak {
        var store = workload.makeStore()
        var player = FramePlayer(workload, mode: .live, settled: true, store: store)
        store.warmUp()
        let script = FrameScript(workload)
        let layersStart = store.layerCount
        let slotsStart = store.count
        var visible = VisibleLayers()
        var hits: [LayerHandle?] = []
        hits.reserveCapacity(FrameScript.touchCount)
        var times: [Double] = []
        times.reserveCapacity(frames)
        var touches: [Point] = []
        var allocations = 0
        var resident: (start: Int, after1000: Int?) = (0, nil)
        let clock = ContinuousClock()
        for frame in 1...frames {
            touches = script.touches(frame: frame)
            let before = BGAllocationCount()
            let start = clock.now
            player.apply(frame: frame, to: &store)
            store.visibleLayers(in: script.viewport, into: &visible)
            hits.removeAll(keepingCapacity: true)
            for touch in touches { hits.append(store.hitTest(touch, rule: .layer)) }
            times.append(seconds(from: start, to: clock.now))
            allocations += Int(BGAllocationCount() - before)
            if frame == 1 { resident.start = residentBytes() ?? 0 }
            if frame == 1_000 { resident.after1000 = residentBytes() }
        }
        let residentEnd = residentBytes() ?? 0
        let old = fullPasses(&store, viewport: script.viewport, touches: touches)
        let problem = FrameCheck.compare(old, visible, hits: hits, touches: touches)
        if let problem { printError("warning: soak of \(workload), frame \(frames): \(problem)") }
        return BenchReport.Soak(
            workload: workload.shape.rawValue, layers: workload.layerCount,
            script: FrameScriptMode.live.rawValue + "-settled",
            frames: frames, residentBytesStart: resident.start, residentBytesAfter1000: resident.after1000,
            residentBytesEnd: residentEnd, slotsStart: slotsStart, slotsEnd: store.count, layersStart: layersStart,
            layersEnd: store.layerCount, frameTime: FrameReport.distribution(times),
            allocationsMeanPerFrame: Double(allocations) / Double(frames), verified: problem == nil)
    }

    /// The old path's answers for the store as it is (untimed).
    private static func fullPasses(_ store: inout LayerStore, viewport: Rect, touches: [Point]) -> OldFrame {
        let world = store.updateWorld()
        let rects = store.worldRects(in: world)
        let clips = store.clipRects(worldRects: rects)
        let shown = store.visibility(worldRects: rects, clipRects: clips, viewport: viewport)
        let hits = store.hitTest(points: touches, in: world, rule: .layer)
        return OldFrame(
            world: world, rects: rects, clips: clips, shown: shown, hits: hits, order: store.drawOrder())
    }
}
