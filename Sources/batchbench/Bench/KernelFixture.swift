import BatchGeometry
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
    /// Folds in one value of every result so no call can be optimized away.
    private(set) var sink = 0.0

    init(workload: Workload, hitTestPointCount: Int) {
        self.workload = workload
        store = workload.makeStore()
        world = store.referenceWorldTransforms()
        frames = FrameColumns(count: store.count)
        // Bring the store's cached local transforms up to date once, as the first frame
        // of an app would, so `world` times the per-frame pass whatever ran before it.
        _ = store.updateWorld(options: .serial(.scalar))
        let n = store.count
        hitTestPoints = QueryPoints.world(count: hitTestPointCount)
        // Leaf to leaf in the standard tree: the last layer to the middle one.
        convertSource = store.layer(n - 1)
        convertDestination = n > 1 ? store.layer(n / 2) : nil
        let sourceBounds = store.bounds(of: convertSource)
        convertPoints = QueryPoints.local(count: n, width: sourceBounds.width, height: sourceBounds.height)
        let dirtyCount = Swift.max(1, n / 100)
        let stride = n / dirtyCount
        let dirtyIndices = (0..<dirtyCount).map { $0 * stride + stride / 2 }
        let built = store
        dirtyLayers = dirtyIndices.map { built.layer($0) }
        dirtyBasePositions = dirtyIndices.map { workload.recipe(of: $0).position }
    }

    /// How many "layers" one call of `kernel` processes (see `BenchKernel.unitNote`).
    func units(of kernel: BenchKernel) -> Double {
        switch kernel {
        case .hitTest: return Double(hitTestPoints.count) * Double(store.count)
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
            lastRects = nil
            lastRects = store.worldRects(in: world, options: options)
            sink += lastRects![store.count - 1].minX
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
        }
    }

    /// Work a kernel needs done before its timed calls: world-incremental starts from an
    /// updated world cache rather than timing one full pass in its first sample; the
    /// autoresize kernel's masked store is built (its world cache brought up to date, so
    /// the setters record their changes as in an app's frame loop).
    func prepare(_ kernel: BenchKernel, options: KernelOptions) {
        switch kernel {
        case .worldIncremental: sink += store.updateWorld(options: options)[0].m41
        case .autoresize where autoresizeStore == nil:
            var masked = workload.makeStore(autoresizing: true)
            sink += masked.updateWorld(options: options)[0].m41
            autoresizeStore = masked
        default: break
        }
    }
}
