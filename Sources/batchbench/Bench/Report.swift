import Foundation

/// A `batchbench run` report; its JSON form (`--format json`) is what `compare` reads and
/// what Benchmarks/results/ keeps. Field names are part of the format.
struct BenchReport: Codable {
    var tool = "batchbench"
    var formatVersion = 1
    /// "release" or "debug" (debug numbers mean nothing).
    var build: String
    /// When the run finished, ISO 8601 in UTC.
    var date: String
    var machine: MachineInfo
    var settings: Settings
    var ceiling: Ceiling
    var results: [Result]
    var baselines: [Baseline]
    /// `--soak N`: long live-frame runs with resident memory (absent otherwise).
    var soak: [Soak]? = nil

    /// N live frames of the app on one store (new path only), with the process's
    /// resident memory (/proc/self/statm) at the start (after the first frame), after
    /// 1,000 frames and at the end.
    struct Soak: Codable {
        var workload: String
        var layers: Int
        var script: String
        var frames: Int
        var residentBytesStart: Int
        var residentBytesAfter1000: Int?
        var residentBytesEnd: Int
        /// The store's slots and live layers at the start and the end.
        var slotsStart: Int
        var slotsEnd: Int
        var layersStart: Int
        var layersEnd: Int
        var frameTime: FrameDetail.Distribution
        var allocationsMeanPerFrame: Double
        /// The last frame's answers matched the full passes'.
        var verified: Bool
    }

    struct Settings: Codable {
        var minTime: Double
        /// `--points`, or nil when chosen per size (see each hit-test result's `points`).
        var hitTestPoints: Int?
        var seed: UInt64
    }

    /// The memory ceiling: a copy loop's bytes (read + written) per second.
    struct Ceiling: Codable {
        /// The headline figure: at the largest size and the most threads measured, over
        /// 128 bytes per layer (64 read, 64 written: the frames kernel's footprint).
        var copyBytesPerSecond: Double
        var layers: Int
        var threads: Int
        var bytesPerLayer: Int
        /// Every copy measured: one per size, thread count and kernel footprint; each
        /// result is compared with the copy of its own size, threads and bytes per layer.
        var measurements: [CeilingMeasurement]
    }

    struct CeilingMeasurement: Codable, Hashable {
        var layers: Int
        var threads: Int
        var bytesPerLayer: Int
        var copyBytesPerSecond: Double
    }

    struct Result: Codable {
        var workload: String
        var kernel: String
        var backend: String
        var layers: Int
        var threads: Int
        /// Query points per call (hit-test, convert); nil for the other kernels.
        var points: Int?
        var medianSeconds: Double
        var minSeconds: Double
        var maxSeconds: Double
        /// Median absolute deviation of the samples (the table's ± spread).
        var madSeconds: Double
        var samples: Int
        var layersPerSecond: Double
        var bytesPerLayer: Int
        var bytesPerSecond: Double
        var ceilingFraction: Double
        /// layersPerSecond over the object graph's for the same kernel and size; nil when
        /// the kernel has no object-graph counterpart or the baseline was skipped.
        var speedupOverObjectGraph: Double?
        /// layersPerSecond over the scalar backend's at the same size and threads.
        var speedupOverScalar: Double?
        /// The last timed call's output matched the reference (see `KernelFixture.verify`).
        var verified: Bool?
        /// The frame kernel's steps, both paths; nil (absent) for the other kernels.
        var frame: FrameDetail? = nil
    }

    /// What one frame cost, the old way and the output-sensitive way (the `frame`
    /// kernel): each step's median over the timed frames, in seconds, and what the new
    /// path saw. The result's `medianSeconds` is `new.totalSeconds`.
    struct FrameDetail: Codable {
        /// Frames timed (after the warm-up frames, which build the caches).
        var frames: Int
        /// Frames on which the old path ran and checked the new one (`--check-every`; absent
        /// in reports from before it, where every frame was checked). `old`'s medians are
        /// over these.
        var checkedFrames: Int? = nil
        /// The viewport asked for, x, y, width, height.
        var viewport: [Double]
        /// Touches hit-tested per frame.
        var touches: Int
        /// Layers the frame's edits set (median).
        var changedLayers: Int
        /// Layers in the visible list (median).
        var visibleLayers: Int
        /// `VisibleLayers.cost.visitedLayers` (median): layers whose world transform the
        /// frame query computed.
        var visitedLayers: Int
        var old: OldPath
        var new: NewPath
        /// `old.totalSeconds / new.totalSeconds`.
        var speedup: Double
        /// Issue 22's view of the same frames; absent in reports from before it.
        /// The script: still, live or relayout (`FrameScriptMode`).
        var script: String? = nil
        /// The new path's whole frame: the script's edits, then visibleLayers(in:into:)
        /// and the culled hit tests; over every timed frame (the first one after
        /// `warmUp()` included).
        var frameTime: Distribution? = nil
        /// visibleLayers(in:into:) + the culled hit tests (`new.totalSeconds` is its median).
        var queryTime: Distribution? = nil
        /// The script's edits alone (setters, inserts, destroys, detaches).
        var editTime: Distribution? = nil
        /// frame-animated: the animations running, the time of restoring the previous
        /// sample + sampling + applying (and the model's copy of the edits), and the
        /// frame time's median, p99 and max over those of the `frame` result with the
        /// same workload and size in the same run.
        var animations: Int? = nil
        var animationTime: Distribution? = nil
        /// frame-animated: the medians of its parts (keeping the previous sample, the
        /// model's edits, sample, updatePresentation), in seconds.
        var animationParts: [String: Double]? = nil
        var ratioToStill: StillRatio? = nil
        var allocations: Allocations? = nil
        /// `VisibleLayers.cost.testedSublayers` (median).
        var testedSublayers: Int? = nil
        /// What the frame query's refresh of the subtree bounds redid (medians): layers
        /// whose boxes it recomputed, wide layers' indexes rebuilt, and their sublayers.
        var refreshedLayers: Int? = nil
        var rebuiltIndexes: Int? = nil
        var rebuiltIndexEntries: Int? = nil
        /// The new store's slots (`count`) after the first and the last timed frame.
        var slotsFirst: Int? = nil
        var slotsLast: Int? = nil
        /// Frames slower than 3× the median frame (at most 20, slowest first).
        var stalls: [Stall]? = nil

        /// frame-animated over frame: frame time ratios.
        struct StillRatio: Codable {
            var median: Double
            var p99: Double
            var max: Double
        }

        struct Distribution: Codable {
            var medianSeconds: Double
            /// The 99th percentile (nearest rank: the 10th slowest of 1,000 frames).
            var p99Seconds: Double
            var maxSeconds: Double
            /// The first timed frame's.
            var firstSeconds: Double
        }

        /// Heap allocations of the new path per frame, every thread, counted by
        /// interposing malloc (`counted` false: not counted in this build, all zero).
        struct Allocations: Codable {
            var counted: Bool
            var medianPerFrame: Double
            var meanPerFrame: Double
            var maxPerFrame: Int
            /// The first timed frame's (growth and first-use scratch land there).
            var firstFrame: Int
            /// Means over the frames after the first: in the edits, in the queries.
            var editsMeanAfterFirst: Double
            /// frame-animated: in the restore, sample and apply (0 for the others).
            var animationMeanAfterFirst: Double? = nil
            var queriesMeanAfterFirst: Double
            var framesWithAllocations: Int
        }

        struct Stall: Codable {
            var frame: Int
            var seconds: Double
            var allocations: Int
            var slots: Int
            /// Where the frame went (absent in reports from before them): the script's
            /// edits, the queries, and the query's cost counters of that frame.
            var editSeconds: Double? = nil
            var querySeconds: Double? = nil
            var refreshedLayers: Int? = nil
            var rebuiltIndexes: Int? = nil
            var rebuiltIndexEntries: Int? = nil
        }

        /// updateWorld, then worldRects + clipRects + visibility, hitTest(points:in:rule:)
        /// of the touches, drawOrder; `totalSeconds` is the median of the per-frame sums.
        struct OldPath: Codable {
            var updateWorldSeconds: Double
            var rectsClipsVisibilitySeconds: Double
            var hitTestSeconds: Double
            var drawOrderSeconds: Double
            var totalSeconds: Double
        }

        /// visibleLayers(in:into:), then one culled hitTest(_:rule:) per touch.
        struct NewPath: Codable {
            var visibleLayersSeconds: Double
            var hitTestSeconds: Double
            var totalSeconds: Double
        }
    }

    /// The object-graph baseline (one class instance per layer, one thread).
    struct Baseline: Codable {
        var workload: String
        var kernel: String
        var layers: Int
        var medianSeconds: Double
        var layersPerSecond: Double
        /// The animations baseline only: whether it computed the store's values (checked
        /// on one more frame, within 1e-9); nil for the others (not checked per run).
        var verified: Bool? = nil
    }

    func jsonText() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = try encoder.encode(self)
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// One row per result, the JSON result fields as columns.
    func csvText() -> String {
        var lines = [
            "workload,kernel,backend,layers,threads,points,medianSeconds,minSeconds,maxSeconds,madSeconds,samples,layersPerSecond,bytesPerLayer,bytesPerSecond,ceilingFraction,speedupOverObjectGraph,speedupOverScalar,verified"
        ]
        for r in results {
            let fields: [String] = [
                r.workload, r.kernel, r.backend, String(r.layers), String(r.threads), r.points.map { String($0) } ?? "",
                String(r.medianSeconds), String(r.minSeconds), String(r.maxSeconds), String(r.madSeconds),
                String(r.samples),
                String(r.layersPerSecond), String(r.bytesPerLayer), String(r.bytesPerSecond), String(r.ceilingFraction),
                r.speedupOverObjectGraph.map { String($0) } ?? "", r.speedupOverScalar.map { String($0) } ?? "",
                r.verified.map { String($0) } ?? "",
            ]
            lines.append(fields.joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
