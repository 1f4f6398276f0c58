import BatchGeometry
import BatchGeometryPictures
import BatchGeometryWorkloads
import Foundation

/// `batchbench run` (the default subcommand): times the batch kernels on generated
/// workloads, with a memory-copy ceiling and an object-graph baseline measured in the
/// same run, and prints a table, JSON or CSV.
enum RunCommand {
    static func run(_ arguments: [String]) -> Int32 {
        let options: RunOptions
        do {
            options = try RunOptions.parse(arguments)
        } catch {
            printError("error: \(error)")
            return 2
        }
        if options.showHelp {
            writeStandardOutput(helpText)
            return 0
        }
        warnIfDebugBuild()
        let report = measureAll(options)
        let wrong = report.results.filter { $0.verified == false }
        let wrongBaselines = report.baselines.filter { $0.verified == false }
        do {
            switch options.format {
            case .table: writeStandardOutput(TableFormatter.text(report))
            case .markdown: writeStandardOutput(TableFormatter.text(report, markdown: true))
            case .json: writeStandardOutput(try report.jsonText())
            case .csv: writeStandardOutput(report.csvText())
            case .svg: writeStandardOutput(try BenchmarkChart.svg(report.chartReport))
            }
        } catch {
            printError("error: could not encode the report: \(error)")
            return 1
        }
        warnIfDebugBuild()
        if !wrongBaselines.isEmpty {
            printError("error: the object-graph animations baseline disagreed with the store (see the warnings above)")
            return 1
        }
        if !wrong.isEmpty {
            printError(
                "error: \(wrong.count) of \(report.results.count) results computed wrong values (see the warnings above); their timings measure broken code"
            )
            return 1
        }
        return 0
    }

    static var buildConfiguration: String {
        #if DEBUG
        return "debug"
        #else
        return "release"
        #endif
    }

    private static func warnIfDebugBuild() {
        #if DEBUG
        printError(
            """
            ************************************************************************
            WARNING: this batchbench is a DEBUG build. Its numbers mean nothing:
            the kernels run unoptimized, tens of times slower than in release.
            Measure with:  swift run -c release batchbench
            ************************************************************************
            """)
        #endif
    }

    private static func measureAll(_ options: RunOptions) -> BenchReport {
        let runsPerSize = options.kernels.map {
            $0.usesKernelOptions ? options.backends.count * options.threadCounts.count : 1
        }
        .reduce(0, +)
        let baselinesPerSize =
            options.measureBaseline
            ? 2 + (options.kernels.contains(.autoresize) ? 1 : 0) + (options.kernels.contains(.animations) ? 1 : 0) : 0
        let progress = Progress(
            enabled: options.showProgress,
            total: options.workloads.count * options.layerCounts.count * (runsPerSize + baselinesPerSize))
        // The ceiling, per size, thread count and footprint (cache-sized copies run faster),
        // measured once each when first needed; the 128-byte one always, as the headline.
        var ceilings: [BenchReport.CeilingMeasurement] = []
        func ceiling(layers: Int, threads: Int, bytesPerLayer: Int) -> Double {
            if let known = ceilings.first(where: {
                $0.layers == layers && $0.threads == threads && $0.bytesPerLayer == bytesPerLayer
            }) {
                return known.copyBytesPerSecond
            }
            progress.note("memory ceiling: copying \(layers) layers × \(bytesPerLayer) bytes on \(threads) threads")
            let rate = measureCopyCeiling(
                layers: layers, bytesPerLayer: bytesPerLayer, threads: threads,
                minTime: Swift.min(options.minTime, 0.2))
            ceilings.append(
                .init(layers: layers, threads: threads, bytesPerLayer: bytesPerLayer, copyBytesPerSecond: rate))
            return rate
        }
        let headlineBytes = BenchKernel.frames.bytesPerLayer(threeD: false)
        for layers in options.layerCounts.sorted() {
            for threads in options.threadCounts {
                _ = ceiling(layers: layers, threads: threads, bytesPerLayer: headlineBytes)
            }
        }
        var results: [BenchReport.Result] = []
        var baselines: [BenchReport.Baseline] = []
        var soaks: [BenchReport.Soak] = []
        for shape in options.workloads {
            for layers in options.layerCounts {
                let workload = Workload(shape, layerCount: layers, seed: options.seed)
                progress.note("building \(workload)")
                if options.measureBaseline {
                    baselines += measureObjectGraph(workload, options: options, progress: progress)
                }
                let points = options.hitTestPointCount(layers: layers)
                let fixture = KernelFixture(
                    workload: workload, hitTestPointCount: points, batchPointCount: options.hitTestPoints ?? 10_000)
                measureKernels(
                    workload, fixture: fixture, options: options, progress: progress, ceiling: ceiling,
                    results: &results, baselines: &baselines)
                soaks += soak(workload, fixture: fixture, options: options, progress: progress)
                if fixture.sink.isNaN { progress.note("(results included NaN)") }
            }
        }
        addSpeedups(&results, baselines: baselines)
        addStillRatios(&results)
        progress.finish()
        let top = ceilings.filter { $0.bytesPerLayer == headlineBytes }.max {
            ($0.layers, $0.threads) < ($1.layers, $1.threads)
        }
        return BenchReport(
            build: buildConfiguration, date: ISO8601DateFormatter().string(from: Date()),
            machine: .current(),
            settings: .init(minTime: options.minTime, hitTestPoints: options.hitTestPoints, seed: options.seed),
            ceiling: .init(
                copyBytesPerSecond: top?.copyBytesPerSecond ?? 0, layers: top?.layers ?? 0,
                threads: top?.threads ?? 0, bytesPerLayer: headlineBytes, measurements: ceilings),
            results: results, baselines: baselines, soak: options.soakFrames > 0 ? soaks : nil)
    }

    /// Every kernel asked for on one workload and size, into `results` (and the
    /// animations baseline into `baselines`).
    private static func measureKernels(
        _ workload: Workload, fixture: KernelFixture, options: RunOptions, progress: Progress,
        ceiling: (_ layers: Int, _ threads: Int, _ bytesPerLayer: Int) -> Double,
        results: inout [BenchReport.Result], baselines: inout [BenchReport.Baseline]
    ) {
        let shape = workload.shape
        let layers = workload.layerCount
        let points = options.hitTestPointCount(layers: layers)
        for kernel in options.kernels {
            if kernel.isAnimatedFrame && !FramePlayer.supports(.live, workload) {
                progress.note(
                    "skipping \(kernel.rawValue) on \(workload): it animates the app workload's cards")
                continue
            }
            if let mode = kernel.frameMode, !FramePlayer.supports(mode, workload) {
                progress.note("skipping \(kernel.rawValue) on \(workload): it plays the app workload's lists")
                continue
            }
            for threads in options.threadCounts {
                for backend in options.backends {
                    if !kernel.usesKernelOptions
                        && (backend != options.backends[0] || threads != options.threadCounts[0])
                    {
                        continue
                    }
                    progress.step(
                        "\(shape) \(kernel.rawValue) \(backend.benchName) \(layers) layers, \(threads) threads")
                    let measured = measureKernel(
                        kernel, fixture: fixture, options: KernelOptions(backend: backend, threads: threads),
                        runOptions: options)
                    let bytes = kernel.bytesPerLayer(threeD: shape == .threeD)
                    let ceilingRate = ceiling(layers, threads, bytes)
                    results.append(
                        result(
                            measured, kernel: kernel, fixture: fixture, backend: backend, threads: threads,
                            ceilingRate: ceilingRate, hitTestPoints: points))
                    if kernel == .animations && options.measureBaseline {
                        progress.step("\(shape) object-graph animations, \(layers) layers")
                        baselines.append(animationBaseline(fixture: fixture, options: options))
                    }
                }
            }
        }
    }

    /// `--soak N` on `workload` when asked for and it is an app with lists (the frame
    /// kernels' stores dropped first, so resident memory is the soak's store's).
    private static func soak(_ workload: Workload, fixture: KernelFixture, options: RunOptions, progress: Progress)
        -> [BenchReport.Soak]
    {
        guard options.soakFrames > 0 && FramePlayer.supports(.live, workload) else { return [] }
        fixture.releaseFrameFixture()
        progress.note("soak: \(options.soakFrames) live frames of \(workload)")
        return [SoakRunner.run(workload, frames: options.soakFrames)]
    }

    /// One kernel's timing, frame detail and verification.
    private struct Measured {
        var timing: Timing
        var frame: BenchReport.FrameDetail?
        var problem: String?
    }

    private static func measureKernel(
        _ kernel: BenchKernel, fixture: KernelFixture, options: KernelOptions, runOptions: RunOptions
    ) -> Measured {
        fixture.prepare(kernel, options: options)
        let (timing, frameDetail) = fixture.time(
            kernel, options: options, minTime: runOptions.minTime, frameCount: runOptions.frameCount,
            checkEvery: runOptions.checkEvery)
        let problem = fixture.verify(kernel, options: options)
        if let line = fixture.frameFixture?.takeMemoryLine() {
            printError("\(fixture.workload.shape) \(kernel.rawValue) \(line)")
        }
        if let problem {
            printError(
                "warning: \(fixture.workload.shape) \(kernel.rawValue) \(options.backend.benchName) \(fixture.workload.layerCount) layers \(options.threads) threads computed a wrong result: \(problem)"
            )
        }
        return Measured(timing: timing, frame: frameDetail, problem: problem)
    }

    private static func result(
        _ measured: Measured, kernel: BenchKernel, fixture: KernelFixture, backend: Backend?, threads: Int,
        ceilingRate: Double, hitTestPoints: Int
    ) -> BenchReport.Result {
        let timing = measured.timing
        let bytes = kernel.bytesPerLayer(threeD: fixture.workload.shape == .threeD)
        let perSecond = fixture.units(of: kernel) / timing.medianSeconds
        return .init(
            workload: fixture.workload.shape.rawValue, kernel: kernel.rawValue, backend: backend.benchName,
            layers: fixture.workload.layerCount, threads: threads,
            points: pointsPerCall(kernel, fixture: fixture, hitTestPoints: hitTestPoints),
            medianSeconds: timing.medianSeconds, minSeconds: timing.minSeconds, maxSeconds: timing.maxSeconds,
            madSeconds: timing.madSeconds, samples: timing.samples, layersPerSecond: perSecond, bytesPerLayer: bytes,
            bytesPerSecond: perSecond * Double(bytes), ceilingFraction: perSecond * Double(bytes) / ceilingRate,
            speedupOverObjectGraph: nil, speedupOverScalar: nil, verified: measured.problem == nil,
            frame: measured.frame)
    }

    /// The `points` a result reports: hit-test's points per call, convert's (one per
    /// layer), the frame kernel's touches per frame, and the distinct points the
    /// single-point hit tests cycle through; nil for the other kernels.
    private static func pointsPerCall(_ kernel: BenchKernel, fixture: KernelFixture, hitTestPoints: Int) -> Int? {
        switch kernel {
        case .hitTest: return hitTestPoints
        case .convert: return fixture.workload.layerCount
        case .frame, .frameLive, .frameRelayout, .frameAnimated, .frameAnimatedUnculled: return FrameScript.touchCount
        case .hitTestPoint, .hitTestCulled: return fixture.singlePoints.count
        case .hitTestCulledBatch: return fixture.batchPoints.count
        default: return nil
        }
    }

    /// Times frames and world (and autoresize, when it is measured) through one class
    /// instance per layer, on one thread.
    private static func measureObjectGraph(
        _ workload: Workload, options: RunOptions,
        progress: Progress
    ) -> [BenchReport.Baseline] {
        let graph = workload.makeObjectGraph()
        var frames: [Rect] = []
        progress.step("\(workload.shape) object-graph frames, \(workload.layerCount) layers")
        let frameTiming = measure(minTime: options.minTime) { graph.computeFrames(into: &frames) }
        progress.step("\(workload.shape) object-graph world, \(workload.layerCount) layers")
        let worldTiming = measure(minTime: options.minTime) { graph.updateWorld() }
        var timings = [(BenchKernel.frames, frameTiming), (BenchKernel.world, worldTiming)]
        if options.kernels.contains(.autoresize) {
            let masked = workload.makeObjectGraph(autoresizing: true)
            let sizes = workload.autoresizeSizes
            var grown = false
            progress.step("\(workload.shape) object-graph autoresize, \(workload.layerCount) layers")
            timings.append(
                (
                    .autoresize,
                    measure(minTime: options.minTime) {
                        grown.toggle()
                        masked.resizeLayer(at: 0, to: grown ? sizes.1 : sizes.0)
                    }
                ))
        }
        let n = Double(workload.layerCount)
        return timings.map { kernel, timing in
            .init(
                workload: workload.shape.rawValue, kernel: kernel.rawValue, layers: workload.layerCount,
                medianSeconds: timing.medianSeconds, layersPerSecond: n / timing.medianSeconds)
        }
    }

    /// The animations kernel's object-graph baseline, measured right after the kernel on
    /// the same animations (see `KernelFixture.timeAnimationBaseline`); a disagreement
    /// with the store is a warning and fails the run as a wrong result does.
    private static func animationBaseline(fixture: KernelFixture, options: RunOptions) -> BenchReport.Baseline {
        let (timing, problem) = fixture.timeAnimationBaseline(minTime: options.minTime)
        if let problem {
            printError("warning: \(fixture.workload.shape) object-graph animations disagree with the store: \(problem)")
        }
        let units = fixture.units(of: .animations)
        return .init(
            workload: fixture.workload.shape.rawValue, kernel: BenchKernel.animations.rawValue,
            layers: fixture.workload.layerCount, medianSeconds: timing.medianSeconds,
            layersPerSecond: units / timing.medianSeconds, verified: problem == nil)
    }

    /// Fills in frame-animated's (and frame-animated-unculled's) frame time over frame's (same workload and size, the
    /// same run): median, p99 and max each over its counterpart.
    private static func addStillRatios(_ results: inout [BenchReport.Result]) {
        for index in results.indices
        where results[index].kernel == BenchKernel.frameAnimated.rawValue
            || results[index].kernel == BenchKernel.frameAnimatedUnculled.rawValue
        {
            let r = results[index]
            guard let animated = r.frame?.frameTime,
                let still = results.first(where: {
                    $0.kernel == BenchKernel.frame.rawValue && $0.workload == r.workload && $0.layers == r.layers
                })?.frame?.frameTime
            else { continue }
            results[index].frame?.ratioToStill = .init(
                median: animated.medianSeconds / still.medianSeconds, p99: animated.p99Seconds / still.p99Seconds,
                max: animated.maxSeconds / still.maxSeconds)
        }
    }

    /// Fills in the speed-ups over the object graph (frames, world, autoresize and animations, whose
    /// work the object graph does too) and over the scalar backend.
    private static func addSpeedups(_ results: inout [BenchReport.Result], baselines: [BenchReport.Baseline]) {
        for index in results.indices {
            let r = results[index]
            if let baseline = baselines.first(where: {
                $0.workload == r.workload && $0.kernel == r.kernel && $0.layers == r.layers
            }) {
                results[index].speedupOverObjectGraph = r.layersPerSecond / baseline.layersPerSecond
            }
            if let scalar = results.first(where: {
                $0.backend == Backend.scalar.rawValue && $0.workload == r.workload && $0.kernel == r.kernel
                    && $0.layers == r.layers && $0.threads == r.threads
            }) {
                results[index].speedupOverScalar = r.layersPerSecond / scalar.layersPerSecond
            }
        }
    }
}

/// Progress lines on standard error (`[3/36] frames simd ...`), so a long run shows it is
/// alive and a redirected report stays clean.
final class Progress {
    private let enabled: Bool
    private let total: Int
    private var done = 0
    private let started = ContinuousClock.now

    init(enabled: Bool, total: Int) {
        self.enabled = enabled
        self.total = total
    }

    func step(_ what: String) {
        done += 1
        note("[\(done)/\(total)] \(what)")
    }

    func note(_ what: String) {
        guard enabled else { return }
        printError("batchbench: \(what)")
    }

    func finish() {
        let elapsed = ContinuousClock.now - started
        note("done in \(elapsed.components.seconds) s")
    }
}
