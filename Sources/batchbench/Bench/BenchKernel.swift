import BatchGeometry
import BatchGeometryWorkloads

/// The operations `batchbench run` times, each through the library's public API.
enum BenchKernel: String, CaseIterable {
    /// `computeFrames(into:options:)`: every layer's frame, storage reused.
    case frames
    /// `computeWorldTransforms(into:options:)`: every layer's `ToWorld`, a full pass over
    /// the store's cached local transforms into reused storage (the per-frame pass).
    case world
    /// 1% of the layers (spread evenly) get a new position, then `updateWorld(options:)`.
    case worldIncremental = "world-incremental"
    /// `invalidateWorld()` then `updateWorld(options:)`: the full pass `updateWorld` falls
    /// back to when most of the tree changed (local transforms rebuilt from the layer
    /// properties, then propagated): what world-incremental is measured against.
    case worldFullUpdate = "world-full-update"
    /// `computeWorldRects(in:into:options:)` over a world snapshot, into reused storage.
    case worldRects = "world-rects"
    /// `hitTest(points:in:rule:options:)`: `--points` world points against every layer.
    case hitTest = "hit-test"
    /// `convert(points:from:to:in:options:)`: one point per layer, leaf to leaf.
    case convert
    /// `setBounds(_:of:)` on the top layer of a tree in which every layer has an
    /// autoresizing mask (`Workload.autoresizingMask(of:)`), alternating between two
    /// sizes: every layer is resized (a window resize). Serial whatever the options.
    case autoresize
    /// One frame of an app (issue 12), both ways, on two copies of the workload given
    /// the same edits (`FrameScript`): the old path (updateWorld, worldRects + clipRects +
    /// visibility, hitTest(points:in:rule:) of the frame's 5 touches, drawOrder), each
    /// step timed, and the output-sensitive path (visibleLayers(in:into:) and 5 culled
    /// hitTest(_:rule:)); the median over frames. The new path's visible list and hits
    /// are checked against the old path's every frame. Opt-in (`--kernels frame`).
    case frame
    /// The frame kernel on the `app` workload's live tree (issue 22, `LiveFrameScript`):
    /// each frame also inserts a card with 5 sublayers into one list, destroys a card of
    /// another, changes a zPosition, and every 60 frames detaches a list (re-attached 30
    /// frames later). Reports frame time median, p99 and max, allocations per frame and
    /// the cost counters besides the steps. Opt-in; app workloads only.
    case frameLive = "frame-live"
    /// frame-live, and the cards below each insert or removal move (relayout). Opt-in.
    case frameRelayout = "frame-relayout"
    /// The frame kernel on the `app` workload with 10,000 cards animating (issue 23,
    /// `FrameAnimations`: springs and timing curves on position, transform.scale and
    /// opacity, repeating): per frame the previous sample undone, the script's edits, a
    /// sample of the animations applied to the queried store, then the queries; the ratio
    /// to `frame` in the same run is reported. Opt-in; app workloads only.
    case frameAnimated = "frame-animated"
    /// frame-animated with every animation sampled and applied each frame (the full
    /// `sample(at:model:into:)`), not only those that can show in the viewport: the
    /// culled sample's counterpart, side by side in one run. Opt-in; app workloads only.
    case frameAnimatedUnculled = "frame-animated-unculled"
    /// One point per call through `hitTest(_:in:rule:)` on a world snapshot: the walk
    /// over every layer no mask rules out; the median over points. Opt-in.
    case hitTestPoint = "hit-test-point"
    /// One point per call through the culled `hitTest(_:rule:)` (no snapshot); the
    /// median over points. Opt-in.
    case hitTestCulled = "hit-test-culled"
    /// The culled `hitTest(points:rule:into:)` of 10,000 world points (`--points` sets
    /// the count) in one call, into a reused array; the median over calls. Opt-in.
    case hitTestCulledBatch = "hit-test-culled-batch"
    /// One timing function and one spring per layer sampled through
    /// `TimingFunction.values(of:at:into:)` and `Spring.progress(of:at:into:)` into
    /// reused arrays (`CurveFixture`): issue 23's curve hot paths, no layers involved. One
    /// thread, Swift; opt-in.
    case curves
    /// `visibleLayers(in:into:)` of the frame script's viewport on a store whose world
    /// cache is current (`updateWorld()` ran after the last edit, as in an app loop that
    /// updates first), no edits between calls. Opt-in.
    case visibleLayers = "visible-layers"
    /// One animation per layer (`AnimationFixture`: issue 23's mix of basic, spring,
    /// keyframe, additive bounds and whole-transform animations, repeating forever),
    /// sampled per frame with `sample(at:model:into:)` into reused presentation values.
    /// One thread, Swift; opt-in.
    case animations

    /// What a run measures when `--kernels` is not given: the kernels that fit in the
    /// default run's minute on 2 cores. `--kernels all` adds the opt-in ones.
    static let defaultKernels: [BenchKernel] = allCases.filter { !$0.isOptIn }

    /// Run only when asked for: the frame kernel builds two more copies of the workload
    /// and runs whole frames, and one snapshot walk per point costs as much as a
    /// hit-test call of many points.
    var isOptIn: Bool {
        frameMode != nil || self == .hitTestPoint || self == .hitTestCulled || self == .hitTestCulledBatch
            || self == .curves || self == .visibleLayers || self == .animations
    }

    /// The frame script a frame kernel plays; nil for the other kernels.
    /// The frame kernels with animations.
    var isAnimatedFrame: Bool { self == .frameAnimated || self == .frameAnimatedUnculled }

    var frameMode: FrameScriptMode? {
        switch self {
        case .frame, .frameAnimated, .frameAnimatedUnculled: return .still
        case .frameLive: return .live
        case .frameRelayout: return .relayout
        default: return nil
        }
    }

    /// Whether the backend and thread count change how the kernel runs. A kernel that
    /// ignores them (autoresize: setters, one thread; the single-point hit tests, which
    /// take no options) is timed once per workload and size, at the first backend and
    /// thread count asked for. The frame kernel passes them to the old path's calls
    /// (the new path has no options: one thread, Swift).
    var usesKernelOptions: Bool {
        self != .autoresize && self != .hitTestPoint && self != .hitTestCulled && self != .hitTestCulledBatch
            && self != .curves && self != .visibleLayers && self != .animations
    }

    /// Kernels timed one call at a time (each call is one point), reporting the median
    /// over calls rather than over samples of many calls.
    var timesEachCall: Bool { self == .hitTestPoint || self == .hitTestCulled }

    /// What one unit of "layers" in this kernel's layers per second is.
    var unitNote: String? {
        switch self {
        case .worldIncremental:
            return
                "world-incremental: the store's layers per update (1% of them changed), bytes as if a full world pass"
        case .worldFullUpdate:
            return "world-full-update: every layer marked changed, then updateWorld (the full pass it falls back to)"
        case .hitTest:
            return
                "hit-test: layer tests per second (points × layers; the workloads mask nothing, so every point visits every layer)"
        case .convert: return "convert: points converted per second (one point per layer)"
        case .autoresize:
            return
                "autoresize: layers resized per second (the top layer resized, every layer masked; one thread whatever --threads says)"
        case .frame:
            return
                "frame: the new path per frame (visibleLayers(in:into:) + 5 culled hit tests, one thread); rate = the store's layers per second of frames, bytes as if a full world pass; both paths' steps are listed below"
        case .frameLive, .frameRelayout:
            return
                "\(rawValue): as frame, on the app's live tree (rows inserted and destroyed every frame\(self == .frameRelayout ? ", the cards below each edit moved" : "")); frame = the script's edits + the queries"
        case .frameAnimated:
            return
                "frame-animated: as frame, with 10,000 cards animating (keep the previous sample, edits, the sample culled to the viewport + updatePresentation, then the queries); frame = all of it"
        case .frameAnimatedUnculled:
            return
                "frame-animated-unculled: frame-animated with every animation sampled and applied (no culling)"
        case .hitTestPoint:
            return
                "hit-test-point: one point per call, hitTest(_:in:rule:) on a snapshot (median over points); rate = the store's layers per second"
        case .hitTestCulled:
            return
                "hit-test-culled: one point per call, the culled hitTest(_:rule:) (median over points); rate = the store's layers per second, as if each were tested (compare with hit-test-point)"
        case .hitTestCulledBatch:
            return
                "hit-test-culled-batch: the culled hitTest(points:rule:into:) of --points (default 10,000) world points a call; rate = the store's layers per second per point, as hit-test-culled"
        case .curves:
            return
                "curves: curve samples per second (one timing function and one spring per layer: two samples; one thread whatever --threads says)"
        case .animations:
            return
                "animations: animation samples per second (one animation per layer, the mix in turn, one frame = every animation sampled; one thread whatever --threads says)"
        case .visibleLayers:
            return
                "visible-layers: visibleLayers(in:into:) of the script's viewport, world cache current, one thread; rate = the store's layers per second, as if each were visited"
        default: return nil
        }
    }

    /// The bytes this kernel must move per layer (or per layer test, or per point), the
    /// least any implementation reads and writes from the columns and results (cache
    /// write-allocate traffic not counted). `bytesPerSecond` and the ceiling fraction
    /// come from it; Benchmarks/README.md lists the breakdown.
    func bytesPerLayer(threeD: Bool) -> Int {
        let double = 8
        switch self {
        case .frames:
            // Read bounds.size (2), anchorPoint (2), affine transform (6), position (2); write 4.
            return (2 + 2 + 6 + 2) * double + 4 * double
        case .world, .worldIncremental, .frame, .frameLive, .frameRelayout, .frameAnimated, .frameAnimatedUnculled,
            .visibleLayers:
            // The per-frame pass reads each layer's cached local transform (6 doubles),
            // its mode byte and superlayer index (Int32), and writes its world transform
            // (6 doubles); the superlayer's world is shared by its sublayers (8 in the
            // standard tree) and stays in cache. In `3d`, every tenth layer carries a
            // full 4x4 instead (16 doubles read and written): 2 × 10 × 8 / 10 more.
            // (world-incremental and frame: as if a full pass, which they avoid.)
            let planar = 6 * double + 1 + 4 + 6 * double
            return planar + (threeD ? 16 : 0)
        case .worldFullUpdate:
            // The plan rebuild reads bounds (4), anchorPoint (2), position (2), zPosition and
            // anchorPointZ (2), the affine transform (6) as doubles, the transform kind and
            // the superlayer's flags (1 byte each) and the superlayer index (Int32), and
            // writes the cached local (6 doubles), its translation before the position
            // (2 doubles) and the mode byte; then the per-frame pass (as `world`).
            let plan = (4 + 2 + 2 + 2 + 6) * double + 1 + 1 + 4 + (6 + 2) * double + 1
            return plan + BenchKernel.world.bytesPerLayer(threeD: threeD)
        case .worldRects:
            // Read the planar world transform (6 doubles + mode byte) and bounds (4);
            // write RectEdges (4).
            return 6 * double + 1 + 4 * double + 4 * double
        case .hitTest, .hitTestPoint, .hitTestCulled, .hitTestCulledBatch:
            // Per layer test: the layer's inverted (x, y, w) homography, made once per
            // batch (9 cofactors + determinant), bounds (4), flags (1 byte),
            // first-sublayer and next-sibling links (2 × Int32). (The single-point
            // kernels: per layer of the store, as if every layer were tested.)
            return (10 + 4) * double + 1 + 2 * 4
        case .convert:
            // Read a Point; write a Point?.
            return MemoryLayout<Point>.size + MemoryLayout<Point?>.stride
        case .curves:
            // Per sample (half the samples each): a timing function and its input, a
            // float out; or a spring and its time, a float out.
            let function = MemoryLayout<TimingFunction>.stride + double + 4
            let spring = MemoryLayout<Spring>.stride + double + 4
            return (function + spring) / 2
        case .animations:
            // Per animation: its resolved timing (7 doubles and 3 flags), layer slot and
            // generation, key path, kind and flags, the curve (a timing function 72 or a
            // spring 96: 84 averaged) and three stored values (4 doubles each; a whole
            // transform's 16 counted as 4: one in six); its presentation entry written
            // (the one property written, 4 doubles counted, its touched set and slot).
            let timing = 7 * double + 3
            let columns = 4 + 4 + 3
            let values = 3 * 4 * double
            return timing + columns + 84 + values + 4 * double + 1 + 8
        case .autoresize:
            // Read position (2), anchorPoint (2) and bounds size (2) as doubles, the mask
            // and flags bytes, the next-sibling and first-sublayer links (2 × Int32); write
            // bounds size (2) and position (2); the dirty state byte. The superlayer's
            // bounds stay in cache.
            return (2 + 2 + 2) * double + 1 + 1 + 2 * 4 + (2 + 2) * double + 1
        }
    }
}
