// c-interface-bench: what calling a batch operation through the C interface costs over
// calling the Swift API, in one process (Benchmarks/README.md, "C interface overhead").
//
// Each side holds the standard workload (Benchmarks/README.md): a `LayerStore` built in
// Swift, and a `bg_store` built through batchgeometry.h. Each C call goes through the C
// symbol declared by the header (imported from CBatchGeometry), as a C program calls it.
//
// Where a store's columns and results happen to lie in memory changes a 100,000-layer
// kernel's time by up to 15% between two stores built the same way (alignment of the
// arrays against the vector width and cache lines), more than the interface could cost.
// So each side gets several copies of the workload (`--instances`), and the samples of
// all copies are pooled: rounds visit every copy, and on it every variant, in rotating
// orders, so drift in the machine's speed is shared too. The report gives each variant's
// median time per call and its difference from the Swift call. A second part measures
// the fixed cost of a call at 8 layers, where the kernels have almost nothing to do.
// The output-sensitive queries are timed too: the frame query over the frame script's
// viewport (`FrameScript.viewport`, which shows most of the standard tree: the most the
// C interface has to copy) and the culled hit test of 5 touches.
//
// The last part times the curve calls (Curves.swift).
//
// usage: scripts/c-examples.sh --bench [--layers N] [--rounds R] [--threads T] [--instances K]
//        (or swift run -c release c-interface-bench ...)

import BatchGeometry
import BatchGeometryWorkloads
import CBatchGeometry

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The options: `--layers N` (default 100,000), `--rounds R` (11), `--threads T` (1),
/// `--instances K` (6: copies of the workload on each side; see the note at the top).
struct Options {
    var layers = 100_000
    var rounds = 11
    var threads = 1
    var instances = 6

    init(_ arguments: [String]) {
        var k = 0
        while k + 1 < arguments.count {
            let text = arguments[k + 1]
            let value = text.hasSuffix("k") ? (Int(text.dropLast()) ?? 0) * 1000 : Int(text) ?? 0
            switch arguments[k] {
            case "--layers": layers = value
            case "--rounds": rounds = value
            case "--threads": threads = value
            case "--instances": instances = value
            default: break
            }
            k += 2
        }
        guard layers > 0, rounds > 0, threads > 0, instances > 0 else {
            print("usage: c-interface-bench [--layers N] [--rounds R] [--threads T] [--instances K]")
            exit(2)
        }
    }
}

/// Stops with the library's message when a C call fails.
func check(_ status: bg_status, _ what: String) {
    guard status == BG_OK else {
        print("error: \(what): \(String(cString: bg_last_error_message()))")
        exit(1)
    }
}

/// The workload built through the C interface: the same calls a C engine would make.
func makeCStore(_ workload: Workload, threads: Int32) -> OpaquePointer {
    var store: OpaquePointer?
    check(bg_store_create(workload.layerCount, &store), "bg_store_create")
    check(bg_store_set_options(store, Int32(BG_BACKEND_C), threads), "bg_store_set_options")
    var handles: [bg_layer] = []
    handles.reserveCapacity(workload.layerCount)
    for (i, parent) in workload.parents().enumerated() {
        var layer: bg_layer = 0
        check(bg_layer_add(store, parent.map { handles[$0] } ?? bg_layer.max, &layer), "bg_layer_add")
        handles.append(layer)
        let recipe = workload.recipe(of: i)
        let bounds = [recipe.bounds.x, recipe.bounds.y, recipe.bounds.width, recipe.bounds.height]
        let anchor = [recipe.anchorPoint.x, recipe.anchorPoint.y]
        let position = [recipe.position.x, recipe.position.y]
        check(bg_layer_set_bounds(store, layer, bounds), "bg_layer_set_bounds")
        check(bg_layer_set_anchor_point(store, layer, anchor), "bg_layer_set_anchor_point")
        check(bg_layer_set_position(store, layer, position), "bg_layer_set_position")
        if recipe.transform != .identity {
            check(bg_layer_set_transform(store, layer, recipe.transform.rowMajor), "bg_layer_set_transform")
        }
    }
    return store!
}

/// One copy of the workload on each side, with the storage each side's calls reuse.
final class Instance {
    var store: LayerStore
    var frames = FrameColumns(count: 0)
    var world = WorldTransforms()
    let cStore: OpaquePointer
    var buffer: [Double]
    var x: UnsafePointer<Double>?
    var y: UnsafePointer<Double>?
    var width: UnsafePointer<Double>?
    var height: UnsafePointer<Double>?
    var count = 0
    let swiftOptions: KernelOptions
    // The output-sensitive queries' storage, on each side.
    var visible = VisibleLayers()
    var hits: [LayerHandle?] = []
    var handles: [bg_layer]
    var rects: [Double]
    var clips: [Double]
    var masked: [Bool]

    init(_ workload: Workload, threads: Int) {
        swiftOptions = KernelOptions(backend: .c, threads: threads)
        store = workload.makeStore()
        store.updateWorld(options: swiftOptions)
        cStore = makeCStore(workload, threads: Int32(threads))
        check(bg_store_update_world(cStore), "bg_store_update_world")
        buffer = [Double](repeating: 0, count: 16 * workload.layerCount)
        handles = [bg_layer](repeating: 0, count: workload.layerCount)
        rects = [Double](repeating: 0, count: 4 * workload.layerCount)
        clips = [Double](repeating: 0, count: 4 * workload.layerCount)
        masked = [Bool](repeating: false, count: workload.layerCount)
    }

    deinit { bg_store_destroy(cStore) }

    /// Stops unless the C interface's frames are the Swift API's, bit for bit.
    func verifyFrames() {
        store.computeFrames(into: &frames, options: swiftOptions)
        check(bg_store_frames(cStore, &buffer, store.count), "bg_store_frames")
        for i in 0..<store.count {
            let swift = [frames.x[i], frames.y[i], frames.width[i], frames.height[i]]
            if Array(buffer[(4 * i)..<(4 * i + 4)]) != swift {
                print("error: the C interface's frame of layer \(i) differs from the Swift API's")
                exit(1)
            }
        }
    }

    /// Stops unless the C interface's frame query and hit test answer as the Swift API's.
    func verifyQueries() {
        store.visibleLayers(in: viewport, into: &visible)
        check(bg_store_frame_query(cStore, viewportEdges, &handles, handles.count, &count), "bg_store_frame_query")
        store.hitTest(points: touches, into: &hits)
        var cHits = [bg_layer](repeating: 0, count: touches.count)
        check(bg_store_hit_test(cStore, touchCoordinates, touches.count, Int32(BG_HIT_TEST_LAYER), &cHits), "hit test")
        // By slot: the two stores were built alike but are two stores, so their handles
        // differ in the store tag (LayerHandle).
        let slots = handles[0..<count].map(bg_layer_slot)
        let cHitSlots = cHits.map(bg_layer_slot)  // NONE: UInt32.max
        let hitSlots = hits.map { $0.map { UInt32($0.index) } ?? .max }
        if slots != visible.layers.map({ UInt32($0.index) }) || cHitSlots != hitSlots {
            print("error: the C interface's frame query or hit test differs from the Swift API's")
            exit(1)
        }
    }
}

/// One timed variant: a name and one call on an instance.
struct Variant {
    var name: String
    var call: (Instance) -> Void
}

let frameVariants = [
    Variant(name: "Swift  computeFrames(into:options:)") {
        $0.store.computeFrames(into: &$0.frames, options: $0.swiftOptions)
    },
    Variant(name: "C      bg_store_frames_columns (no copy)") {
        check(bg_store_frames_columns($0.cStore, &$0.x, &$0.y, &$0.width, &$0.height, &$0.count), "frames_columns")
    },
    Variant(name: "C      bg_store_frames (copied into a caller buffer)") {
        check(bg_store_frames($0.cStore, &$0.buffer, $0.store.count), "bg_store_frames")
    },
]

let worldVariants = [
    Variant(name: "Swift  computeWorldTransforms(into:options:)") {
        $0.store.computeWorldTransforms(into: &$0.world, options: $0.swiftOptions)
    },
    Variant(name: "C      bg_store_compute_world") {
        check(bg_store_compute_world($0.cStore), "bg_store_compute_world")
    },
    Variant(name: "C      bg_store_compute_world + bg_store_world_transforms") {
        check(bg_store_compute_world($0.cStore), "bg_store_compute_world")
        check(bg_store_world_transforms($0.cStore, &$0.buffer, $0.store.count), "bg_store_world_transforms")
    },
    Variant(name: "C      bg_store_compute_world + ..._world_affine_transforms") {
        check(bg_store_compute_world($0.cStore), "bg_store_compute_world")
        check(bg_store_world_affine_transforms($0.cStore, &$0.buffer, nil, $0.store.count), "affine transforms")
    },
]

let queryVariants = [
    Variant(name: "Swift  visibleLayers(in:into:)") {
        $0.store.visibleLayers(in: viewport, into: &$0.visible)
    },
    Variant(name: "C      bg_store_frame_query (handles)") {
        check(bg_store_frame_query($0.cStore, viewportEdges, &$0.handles, $0.handles.count, &$0.count), "frame query")
    },
    Variant(name: "C      bg_store_frame_query_geometry (every output)") {
        check(
            bg_store_frame_query_geometry(
                $0.cStore, viewportEdges, &$0.handles, &$0.buffer, &$0.rects, &$0.clips, &$0.masked,
                $0.handles.count, &$0.count), "frame query geometry")
    },
]

let hitTestVariants = [
    Variant(name: "Swift  hitTest(points:rule:into:), 5 touches") {
        $0.store.hitTest(points: touches, into: &$0.hits)
    },
    Variant(name: "C      bg_store_hit_test, 5 touches") {
        check(
            bg_store_hit_test($0.cStore, touchCoordinates, touches.count, Int32(BG_HIT_TEST_LAYER), &$0.handles),
            "bg_store_hit_test")
    },
]

/// Seconds per call of each variant: one sample per instance and round. Each round visits
/// the instances, and on each the variants, in rotating orders.
func time(_ variants: [Variant], on instances: [Instance], rounds: Int, calls: Int) -> [[Double]] {
    let clock = ContinuousClock()
    var samples = Array(repeating: [Double](), count: variants.count)
    for (i, instance) in instances.enumerated() {
        // Warm-up (storage sized, caches filled), half the copies in the reverse order, so
        // neither side's results are always allocated first.
        for variant in i % 2 == 0 ? variants : variants.reversed() { variant.call(instance) }
    }
    for round in 0..<rounds {
        for i in 0..<instances.count {
            let instance = instances[(i + round) % instances.count]
            for k in 0..<variants.count {
                let index = (k + round + i) % variants.count
                let start = clock.now
                for _ in 0..<calls { variants[index].call(instance) }
                let elapsed = clock.now - start
                let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
                samples[index].append(seconds / Double(calls))
            }
        }
    }
    return samples
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// Prints each variant's median and spread (median absolute deviation), and its
/// difference from the first variant (the Swift call): in percent, or in nanoseconds.
func report(_ title: String, _ variants: [Variant], _ samples: [[Double]], nanoseconds: Bool = false) {
    print("\n\(title)")
    let baseline = median(samples[0])
    for (k, (variant, times)) in zip(variants, samples).enumerated() {
        let middle = median(times)
        let spread = median(times.map { abs($0 - middle) })
        let shown = variant.name + String(repeating: " ", count: max(0, 58 - variant.name.count))
        let scale = nanoseconds ? 1e9 : 1e6
        let unit = nanoseconds ? "ns" : "us"
        let difference =
            k == 0
            ? "(baseline)"
            : nanoseconds ? "\(format((middle - baseline) * 1e9)) ns" : "\(format((middle / baseline - 1) * 100))%"
        print("  \(shown) \(format(middle * scale)) \(unit) +- \(format(spread * scale))  \(difference)")
    }
}

func format(_ value: Double) -> String {
    String((value * 10).rounded() / 10)
}

let options = Options(Array(CommandLine.arguments.dropFirst()))
let workload = Workload(.standard, layerCount: options.layers)
let viewport = FrameScript(workload).viewport
let viewportEdges = [viewport.x, viewport.y, viewport.width, viewport.height]
let touches = QueryPoints.world(count: FrameScript.touchCount, seed: 1000)
let touchCoordinates = touches.flatMap { [$0.x, $0.y] }
let instances = (0..<options.instances).map { _ in Instance(workload, threads: options.threads) }
for instance in instances {
    instance.verifyFrames()
    instance.verifyQueries()
}
let calls = max(1, 2_000_000 / options.layers)
print(
    "c-interface-bench: standard workload, \(options.layers) layers, backend c (\(KernelOptions.cInstructionSet)), "
        + "\(options.threads) thread(s); \(options.instances) copies of the workload on each side, "
        + "\(options.rounds) rounds of \(calls) calls on each; median time per call")
report("frames", frameVariants, time(frameVariants, on: instances, rounds: options.rounds, calls: calls))
report(
    "world transforms (full pass)", worldVariants,
    time(worldVariants, on: instances, rounds: options.rounds, calls: calls))
instances[0].store.visibleLayers(in: viewport, into: &instances[0].visible)
print(
    "\nthe frame query shows \(instances[0].visible.count) layers, visiting \(instances[0].visible.visitedLayerCount)")
report("frame query", queryVariants, time(queryVariants, on: instances, rounds: options.rounds, calls: calls))
report(
    "hit test (culled), 5 touches", hitTestVariants,
    time(hitTestVariants, on: instances, rounds: options.rounds, calls: 100 * calls), nanoseconds: true)

// The fixed cost of a call, where the kernels have next to nothing to do.
let small = [Instance(Workload(.standard, layerCount: 8), threads: 1)]
print("\nfixed cost per call (8 layers, 1 thread, \(options.rounds) rounds of 100,000 calls)")
report(
    "frames", frameVariants, time(frameVariants, on: small, rounds: options.rounds, calls: 100_000), nanoseconds: true)
report(
    "world transforms", worldVariants, time(worldVariants, on: small, rounds: options.rounds, calls: 100_000),
    nanoseconds: true)

// The curve calls (no store): the C "each" forms against the Swift batch samplers. The
// differences are from the Swift timing-function call (the first variant).
let curveData = CurveBenchData(count: options.layers)
curveData.verify()
print("\ncurves: \(options.layers) timing functions and springs, each at its own input or time")
report(
    "curves (differences from the Swift timing-function call)", curveVariants(curveData),
    time(curveVariants(curveData), on: [instances[0]], rounds: options.rounds, calls: max(1, calls / 2)))
