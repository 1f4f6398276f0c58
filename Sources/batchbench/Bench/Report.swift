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

    struct Settings: Codable {
        var minTime: Double
        var hitTestPoints: Int
        var seed: UInt64
    }

    /// The memory ceiling: a copy loop's bytes (read + written) per second.
    struct Ceiling: Codable {
        /// At the largest size and the most threads measured.
        var copyBytesPerSecond: Double
        var layers: Int
        var threads: Int
        /// Every size and thread count measured; each result is compared with the entry
        /// of its own size and thread count.
        var measurements: [CeilingMeasurement]
    }

    struct CeilingMeasurement: Codable {
        var layers: Int
        var threads: Int
        var copyBytesPerSecond: Double
    }

    struct Result: Codable {
        var workload: String
        var kernel: String
        var backend: String
        var layers: Int
        var threads: Int
        var medianSeconds: Double
        var minSeconds: Double
        var maxSeconds: Double
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
    }

    /// The object-graph baseline (one class instance per layer, one thread).
    struct Baseline: Codable {
        var workload: String
        var kernel: String
        var layers: Int
        var medianSeconds: Double
        var layersPerSecond: Double
    }

    func jsonText() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = try encoder.encode(self)
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// One row per result, the JSON result fields as columns.
    func csvText() -> String {
        var lines = ["workload,kernel,backend,layers,threads,medianSeconds,minSeconds,maxSeconds,samples,layersPerSecond,bytesPerLayer,bytesPerSecond,ceilingFraction,speedupOverObjectGraph,speedupOverScalar"]
        for r in results {
            let fields: [String] = [
                r.workload, r.kernel, r.backend, String(r.layers), String(r.threads),
                String(r.medianSeconds), String(r.minSeconds), String(r.maxSeconds), String(r.samples),
                String(r.layersPerSecond), String(r.bytesPerLayer), String(r.bytesPerSecond), String(r.ceilingFraction),
                r.speedupOverObjectGraph.map { String($0) } ?? "", r.speedupOverScalar.map { String($0) } ?? "",
            ]
            lines.append(fields.joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
