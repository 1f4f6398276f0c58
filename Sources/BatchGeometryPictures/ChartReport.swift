// The part of a `batchbench run --format json` report (Benchmarks/results/*.json) that
// the charts read. Field names are those of the report format.

/// A benchmark report as the charts see it: results and the memory-copy ceiling.
/// Decodes from a `batchbench` JSON report (other fields are ignored).
package struct ChartReport: Codable, Sendable, Equatable {
    /// "release" or "debug".
    package var build: String
    /// When the run finished, ISO 8601.
    package var date: String
    /// The machine, as the report names it.
    package var machine: Machine
    /// Every copy measured for the ceiling.
    package var ceiling: Ceiling
    /// One entry per (workload, kernel, backend, layers, threads) measured.
    package var results: [Result]

    /// The report's machine fields used in chart titles.
    package struct Machine: Codable, Sendable, Equatable {
        /// The CPU model.
        package var cpu: String
        /// Active processor count.
        package var cores: Int
        /// A machine described by its CPU and core count.
        package init(cpu: String, cores: Int) {
            self.cpu = cpu
            self.cores = cores
        }
    }

    /// The memory-copy ceiling: `measurements` has one copy per size, threads and bytes
    /// per layer.
    package struct Ceiling: Codable, Sendable, Equatable {
        /// Every copy measured.
        package var measurements: [CeilingMeasurement]
        /// A ceiling made of these copies.
        package init(measurements: [CeilingMeasurement]) {
            self.measurements = measurements
        }
    }

    /// One copy: bytes read plus written per second over `layers × bytesPerLayer`.
    package struct CeilingMeasurement: Codable, Sendable, Equatable {
        /// Layers the copy's footprint stands for.
        package var layers: Int
        /// Threads the copy ran on.
        package var threads: Int
        /// Bytes per layer of the footprint.
        package var bytesPerLayer: Int
        /// Bytes read plus written per second.
        package var copyBytesPerSecond: Double
        /// A copy measurement.
        package init(layers: Int, threads: Int, bytesPerLayer: Int, copyBytesPerSecond: Double) {
            self.layers = layers
            self.threads = threads
            self.bytesPerLayer = bytesPerLayer
            self.copyBytesPerSecond = copyBytesPerSecond
        }
    }

    /// One measurement of one kernel.
    package struct Result: Codable, Sendable, Equatable {
        /// The workload (`standard`, `3d`, …).
        package var workload: String
        /// The kernel (`frames`, `world`, …).
        package var kernel: String
        /// The backend (`scalar`, `simd`, `c`).
        package var backend: String
        /// Layers in the store.
        package var layers: Int
        /// Threads asked for.
        package var threads: Int
        /// The rate, in the units the kernel counts (Benchmarks/README.md).
        package var layersPerSecond: Double
        /// The least bytes per layer the kernel reads and writes.
        package var bytesPerLayer: Int
        /// A result.
        package init(
            workload: String, kernel: String, backend: String, layers: Int, threads: Int, layersPerSecond: Double,
            bytesPerLayer: Int
        ) {
            self.workload = workload
            self.kernel = kernel
            self.backend = backend
            self.layers = layers
            self.threads = threads
            self.layersPerSecond = layersPerSecond
            self.bytesPerLayer = bytesPerLayer
        }
    }

    /// A report made of these parts.
    package init(build: String, date: String, machine: Machine, ceiling: Ceiling, results: [Result]) {
        self.build = build
        self.date = date
        self.machine = machine
        self.ceiling = ceiling
        self.results = results
    }

    /// The ceiling in layers per second for a kernel touching `bytesPerLayer` at this
    /// size and thread count: the matching copy's bytes per second over bytes per
    /// layer; nil when that copy was not measured.
    func ceilingLayersPerSecond(layers: Int, threads: Int, bytesPerLayer: Int) -> Double? {
        guard bytesPerLayer > 0,
            let copy = ceiling.measurements.first(where: {
                $0.layers == layers && $0.threads == threads && $0.bytesPerLayer == bytesPerLayer
            })
        else { return nil }
        return copy.copyBytesPerSecond / Double(bytesPerLayer)
    }
}

/// Which results a chart shows: one workload; the bars at one size and thread count.
/// nil picks: the first result's workload, its largest size, its most threads.
package struct ChartSelection: Equatable, Sendable {
    /// The workload shown.
    package var workload: String?
    /// The size of the bars (and of the thread-scaling lines).
    package var layers: Int?
    /// The thread count of the bars (and of the size-scaling lines).
    package var threads: Int?
    /// A selection; nil fields are chosen from the report.
    package init(workload: String? = nil, layers: Int? = nil, threads: Int? = nil) {
        self.workload = workload
        self.layers = layers
        self.threads = threads
    }
}
