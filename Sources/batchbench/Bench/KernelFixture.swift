@_spi(Testing) import BatchGeometry
import BatchGeometryWorkloads

/// One workload at one size, built once, with everything the kernels need prepared
/// outside the timed region (a world snapshot, query points, reusable outputs).
final class KernelFixture {
    let workload: Workload
    private(set) var store: LayerStore
    /// The scalar reference's world pass, computed once: the input of world-rects,
    /// hit-test and convert, and what world results are checked against.
    let world: WorldTransforms
    private(set) var frames: FrameColumns
    let hitTestPoints: [Point]
    let convertPoints: [Point]
    let convertSource: LayerHandle
    let convertDestination: LayerHandle?
    /// The world kernel's output, reused by every call the way a frame loop reuses it
    /// (a second reference to it would make the next call copy it: copy-on-write).
    private(set) var worldOutput = WorldTransforms()
    /// The last call's output of the other kernels, for `verify` (frames stay in
    /// `frames`; world-incremental keeps nothing, see `run`).
    private(set) var lastRects: [RectEdges]?
    private(set) var lastHits: [LayerHandle?]?
    private(set) var lastConverted: [Point?]?
    /// The layers world-incremental moves: 1% of them (at least one), spread evenly.
    private let dirtyLayers: [LayerHandle]
    private let dirtyBasePositions: [Point]
    private var nudge = 0.0
    /// The autoresize kernel's store (every layer masked), built by `prepare`, and
    /// whether the top layer has its larger size now.
    private(set) var autoresizeStore: LayerStore?
    private var autoresizeGrown = false
    /// The frame kernel's two stores and frame loop, built by `prepare` (one script at a
    /// time; `releaseFrameFixture` drops it).
    private(set) var frameFixture: FrameFixture?
    /// The single-point hit tests' points (`FrameScript.touches(frames:)`, cycled), the
    /// snapshot hit-test-point walks (taken by `prepare` from the store as it is then),
    /// and the answer each point got, for `verify`.
    private(set) var singlePoints: [Point] = []
    private(set) var pointWorld: WorldTransforms?
    private(set) var singleHits: [LayerHandle?] = []
    private(set) var singleAnswered: [Bool] = []
    /// hit-test-culled-batch's points (world points, as hit-test's) and reused answers.
    let batchPoints: [Point]
    private(set) var batchHits: [LayerHandle?] = []
    /// The curves kernel's timing functions and springs, built by `prepare`.
    private(set) var curveFixture: CurveFixture?
    /// The animations kernel's animations, built by `prepare`.
    private(set) var animationFixture: AnimationFixture?
    /// The visible-layers kernel's viewport (set by `prepare`) and reused result.
    private var viewport = Rect(x: 0, y: 0, width: 0, height: 0)
    private(set) var visible = VisibleLayers()
    /// Folds in one value of every result so no call can be optimized away.
    private(set) var sink = 0.0

    init(workload: Workload, hitTestPointCount: Int, batchPointCount: Int = 10_000) {
        self.workload = workload
        store = workload.makeStore()
        world = store.referenceWorldTransforms()
        frames = FrameColumns(count: store.count)
        // Bring the store's cached local transforms up to date once, as the first frame
        // of an app would, so `world` times the per-frame pass whatever ran before it.
        _ = store.updateWorld(options: .serial(.scalar))
        let n = store.count
        hitTestPoints = QueryPoints.world(count: hitTestPointCount)
        batchPoints = QueryPoints.world(count: batchPointCount)
        // Leaf to leaf in the standard tree: the last layer to the middle one.
        convertSource = store.layer(n - 1)
        convertDestination = n > 1 ? store.layer(n / 2) : nil
        let sourceBounds = store.bounds(of: convertSource)
        convertPoints = QueryPoints.local(count: n, width: sourceBounds.width, height: sourceBounds.height)
        let dirtyCount = Swift.max(1, n / 100)
        let stride = n / dirtyCount
        let dirtyIndices = (0..<dirtyCount).map { $0 * stride + stride / 2 }
        var dirtyLayers: [LayerHandle] = []
        for index in dirtyIndices { dirtyLayers.append(store.layer(index)) }
        self.dirtyLayers = dirtyLayers
        dirtyBasePositions = dirtyIndices.map { workload.recipe(of: $0).position }
    }

    /// How many "layers" one call of `kernel` processes (see `BenchKernel.unitNote`).
    func units(of kernel: BenchKernel) -> Double {
        switch kernel {
        case .hitTest: return Double(hitTestPoints.count) * Double(store.count)
        case .hitTestCulledBatch: return Double(batchPoints.count) * Double(store.count)
        case .curves: return 2 * Double(store.count)
        case .animations: return Double(animationFixture?.count ?? store.count)
        // frame: the store's layers per frame; the single-point hit tests: per point.
        default: return Double(store.count)
        }
    }

    /// Runs `kernel` once.
    func run(_ kernel: BenchKernel, options: KernelOptions) {
        switch kernel {
        case .frames:
            store.computeFrames(into: &frames, options: options)
            sink += frames.x[frames.count - 1]
        case .world:
            store.computeWorldTransforms(into: &worldOutput, options: options)
            sink += worldOutput[store.count - 1].m41
        case .worldIncremental:
            // Alternate between two positions so every call really changes the layers.
            nudge = nudge == 0 ? 1 : 0
            for (layer, base) in zip(dirtyLayers, dirtyBasePositions) {
                store.setPosition(Point(x: base.x + nudge, y: base.y), of: layer)
            }
            // The result is dropped at once: holding it would share the store's cache, and
            // the next update would have to copy it (copy-on-write).
            sink += store.updateWorld(options: options)[dirtyLayers[0].index].m41
        case .worldFullUpdate:
            store.invalidateWorld()
            sink += store.updateWorld(options: options)[store.count - 1].m41
        case .worldRects:
            // A frame loop's form, as for frames and world: the rects' storage is reused
            // from call to call (a new 4M-entry array per call timed the page faults).
            var rects = lastRects ?? []
            lastRects = nil
            store.computeWorldRects(in: world, into: &rects, options: options)
            sink += rects[store.count - 1].minX
            lastRects = rects
        case .hitTest:
            lastHits = nil
            lastHits = store.hitTest(points: hitTestPoints, in: world, rule: .layer, options: options)
            sink += Double(lastHits![hitTestPoints.count - 1]?.index ?? -1)
        case .convert:
            lastConverted = nil
            lastConverted = store.convert(
                points: convertPoints, from: convertSource, to: convertDestination,
                in: world, options: options)
            sink += lastConverted![convertPoints.count - 1]?.x ?? 0
        case .autoresize:
            autoresizeGrown.toggle()
            let sizes = workload.autoresizeSizes
            let size = autoresizeGrown ? sizes.1 : sizes.0
            autoresizeStore!.setBounds(
                Rect(x: 0, y: 0, width: size.width, height: size.height), of: autoresizeStore!.layer(0))
            sink += autoresizeStore!.bounds(of: autoresizeStore!.layer(store.count - 1)).width
        case .frame, .frameLive, .frameRelayout, .frameAnimated, .frameAnimatedUnculled:
            sink += Double(frameFixture!.runFrame(options: options).visible)
        case .hitTestPoint, .hitTestCulled:
            runSinglePoint(kernel, call: 0)
        case .hitTestCulledBatch:
            store.hitTest(points: batchPoints, rule: .layer, into: &batchHits)
            sink += Double(batchHits[batchHits.count - 1]?.index ?? -1)
        case .curves:
            curveFixture!.run()
        case .animations:
            animationFixture!.run(model: store)
        case .visibleLayers:
            store.visibleLayers(in: viewport, into: &visible)
            sink += Double(visible.count)
        }
    }

    /// One point of a single-point hit-test kernel: point `call` (cycling).
    func runSinglePoint(_ kernel: BenchKernel, call: Int) {
        let k = call % singlePoints.count
        let hit: LayerHandle?
        if kernel == .hitTestCulled {
            hit = store.hitTest(singlePoints[k], rule: .layer)
        } else {
            hit = store.hitTest(singlePoints[k], in: pointWorld!, rule: .layer)
        }
        singleHits[k] = hit
        singleAnswered[k] = true
        sink += Double(hit?.index ?? -1)
    }

    /// Times `kernel`: `measure` (samples of many calls), one call at a time for the
    /// single-point hit tests, and frame by frame (with every step's times) for frame.
    func time(
        _ kernel: BenchKernel, options: KernelOptions, minTime: Double, frameCount: Int? = nil, checkEvery: Int = 1
    ) -> (Timing, BenchReport.FrameDetail?) {
        switch kernel {
        case .frame, .frameLive, .frameRelayout, .frameAnimated, .frameAnimatedUnculled:
            frameFixture!.checkEvery = checkEvery
            let (timing, detail) = frameFixture!.measure(options: options, minTime: minTime, frameCount: frameCount)
            sink += frameFixture!.sink
            return (timing, detail)
        case .hitTestPoint, .hitTestCulled:
            let before = store.culledHitTestCounts
            let timing = measureEach(minTime: minTime) { runSinglePoint(kernel, call: $0) }
            if kernel == .hitTestCulled { reportCulledHitTestCounts(kernel, since: before) }
            return (timing, nil)
        case .hitTestCulledBatch:
            let before = store.culledHitTestCounts
            let timing = measure(minTime: minTime) { run(kernel, options: options) }
            reportCulledHitTestCounts(kernel, since: before)
            let microseconds = (timing.medianSeconds * 1e9 / Double(batchPoints.count)).rounded() / 1000
            printError(
                "hit-test-culled-batch, \(store.count) layers: \(microseconds) µs a point, median "
                    + "(\(batchPoints.count) points a call)")
            return (timing, nil)
        default:
            return (measure(minTime: minTime) { run(kernel, options: options) }, nil)
        }
    }

    /// Work a kernel needs done before its timed calls: world-incremental starts from an
    /// updated world cache rather than timing one full pass in its first sample; the
    /// autoresize kernel's masked store is built (its world cache brought up to date, so
    /// the setters record their changes as in an app's frame loop); the frame kernel's
    /// stores are built (once per workload and size: later backends and thread counts
    /// go on with the next frames); the single-point hit tests get their points.
    func prepare(_ kernel: BenchKernel, options: KernelOptions) {
        switch kernel {
        case .worldIncremental: sink += store.updateWorld(options: options)[0].m41
        case .visibleLayers:
            viewport = FrameScript(workload).viewport
            sink += store.updateWorld(options: options)[0].m41
            store.visibleLayers(in: viewport, into: &visible)  // builds the bounds and order caches
        case .autoresize where autoresizeStore == nil:
            var masked = workload.makeStore(autoresizing: true)
            sink += masked.updateWorld(options: options)[0].m41
            autoresizeStore = consume masked
        case .frame, .frameLive, .frameRelayout, .frameAnimated, .frameAnimatedUnculled:
            // One frame fixture at a time (two stores each, three animated): a new script
            // replaces it.
            // The animated kernels share one fixture (its frames go on): the culled
            // sample holds for any previous sample, culled or not.
            let animated = kernel.isAnimatedFrame
            frameFixture?.animations?.culled = kernel == .frameAnimated
            guard let mode = kernel.frameMode,
                frameFixture?.mode != mode || (frameFixture?.animations != nil) != animated
            else { break }
            frameFixture = nil
            frameFixture = FrameFixture(workload: workload, mode: mode, animated: animated)
            frameFixture?.animations?.culled = kernel == .frameAnimated
        case .curves where curveFixture == nil:
            curveFixture = CurveFixture(count: store.count, seed: workload.seed)
        case .animations where animationFixture == nil:
            animationFixture = AnimationFixture(model: store, seed: workload.seed)
        case .hitTestPoint, .hitTestCulled:
            // The points of 200 frames, and a snapshot of the store as it is now (other
            // kernels may have moved layers); the culled walk's caches built once.
            singlePoints = FrameScript(workload).touches(frames: 200)
            singleHits = Array(repeating: nil, count: singlePoints.count)
            singleAnswered = Array(repeating: false, count: singlePoints.count)
            if kernel == .hitTestPoint {
                pointWorld = store.worldTransforms(options: .serial(.scalar))
            } else {
                sink += Double(store.hitTest(singlePoints[0], rule: .layer)?.index ?? -1)
            }
        case .hitTestCulledBatch:
            store.hitTest(points: batchPoints, rule: .layer, into: &batchHits)  // caches and scratch built
        default: break
        }
    }

    /// Times the animations kernel's object-graph baseline (one class instance per
    /// animation, `ObjectAnimator`) over the same animations and frame times, then checks
    /// one more frame of it against the store's sample; nil problem when they agree.
    func timeAnimationBaseline(minTime: Double) -> (Timing, problem: String?) {
        let fixture = animationFixture!
        fixture.prepareBaseline(model: store)
        let timing = measure(minTime: minTime) { fixture.runBaseline() }
        let problem = fixture.baselineProblem(model: store)
        sink += fixture.sink
        return (timing, problem)
    }

    /// Drops the frame kernels' stores (before a soak run measures resident memory).
    func releaseFrameFixture() { frameFixture = nil }
}

extension KernelFixture {
    /// Prints the culled hit test's cost per point over the timed calls (layers visited,
    /// sublayer extents tested) on standard error, so every `--format` stays valid.
    func reportCulledHitTestCounts(
        _ kernel: BenchKernel, since before: (points: Int, visitedLayers: Int, testedSublayers: Int)
    ) {
        let now = store.culledHitTestCounts
        let points = now.points - before.points
        guard points > 0 else { return }
        let visited = Double(now.visitedLayers - before.visitedLayers) / Double(points)
        let tested = Double(now.testedSublayers - before.testedSublayers) / Double(points)
        printError(
            "\(kernel.rawValue), \(store.count) layers: a point visits \(rounded(visited)) layers and tests "
                + "\(rounded(tested)) sublayer extents (\(points) points)")
    }

    private func rounded(_ value: Double) -> String { String(Double((value * 10).rounded()) / 10) }
}
