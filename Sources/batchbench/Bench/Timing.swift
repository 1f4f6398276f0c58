import Dispatch

/// The per-call times of one measurement: the median of several samples and their spread.
struct Timing {
    var medianSeconds: Double
    var minSeconds: Double
    var maxSeconds: Double
    /// The median absolute deviation of the samples from the median: a spread that one
    /// preempted sample (common on a busy machine) does not blow up as the range does.
    var madSeconds: Double
    var samples: Int
    var callsPerSample: Int
}

/// Times `body`: a warm-up (at least one call and a tenth of `minTime`), then samples of
/// enough calls each that timer resolution does not matter, until there are at least 5
/// samples (3 when one call alone takes longer than `minTime / 3`) and `minTime` has
/// passed (about 10 samples for fast kernels). Returns per-call times: the samples'
/// median, extremes and median absolute deviation.
func measure(minTime: Double, _ body: () -> Void) -> Timing {
    let clock = ContinuousClock()
    var warmUpCalls = 0
    let warmUpStart = clock.now
    repeat {
        body()
        warmUpCalls += 1
    } while seconds(since: warmUpStart, clock) < minTime * 0.1 && warmUpCalls < 10_000
    let perCall = Swift.max(1e-9, seconds(since: warmUpStart, clock) / Double(warmUpCalls))
    let minimumSamples = perCall > minTime / 3 ? 3 : 5
    // Aim for samples of ~minTime/10 each, and never shorter than ~1 ms.
    let targetSample = Swift.max(minTime / 10, 0.001)
    let callsPerSample = Swift.max(1, Int(targetSample / perCall))
    var samples: [Double] = []
    let start = clock.now
    while samples.count < minimumSamples || (seconds(since: start, clock) < minTime && samples.count < 1_000) {
        let sampleStart = clock.now
        for _ in 0..<callsPerSample { body() }
        samples.append(seconds(since: sampleStart, clock) / Double(callsPerSample))
    }
    let median = medianOf(samples)
    return Timing(
        medianSeconds: median, minSeconds: samples.min()!, maxSeconds: samples.max()!,
        madSeconds: medianOf(samples.map { abs($0 - median) }),
        samples: samples.count, callsPerSample: callsPerSample)
}

/// Times `body(call)` one call at a time (`call` counts from 0, warm-up included): a
/// warm-up (at least one call and a tenth of `minTime`), then single calls until there
/// are at least `minimumCalls` and `minTime` has passed (at most 100,000). For calls
/// that differ (one point each): the median is over calls, not over samples of many.
func measureEach(minTime: Double, minimumCalls: Int = 9, _ body: (Int) -> Void) -> Timing {
    let clock = ContinuousClock()
    var call = 0
    let warmUpStart = clock.now
    repeat {
        body(call)
        call += 1
    } while seconds(since: warmUpStart, clock) < minTime * 0.1 && call < 10_000
    var samples: [Double] = []
    let start = clock.now
    while samples.count < minimumCalls || (seconds(since: start, clock) < minTime && samples.count < 100_000) {
        let callStart = clock.now
        body(call)
        samples.append(seconds(since: callStart, clock))
        call += 1
    }
    return summarize(samples)
}

/// The median, extremes and median absolute deviation of per-call times (one call per
/// sample).
func summarize(_ samples: [Double]) -> Timing {
    let median = medianOf(samples)
    return Timing(
        medianSeconds: median, minSeconds: samples.min() ?? 0, maxSeconds: samples.max() ?? 0,
        madSeconds: medianOf(samples.map { abs($0 - median) }), samples: samples.count, callsPerSample: 1)
}

func medianOf(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

private func seconds(since start: ContinuousClock.Instant, _ clock: ContinuousClock) -> Double {
    seconds(from: start, to: clock.now)
}

/// The seconds from `start` to `end`.
func seconds(from start: ContinuousClock.Instant, to end: ContinuousClock.Instant) -> Double {
    let elapsed = end - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
}

/// The memory ceiling for a kernel that moves `bytesPerLayer` bytes per layer: copying
/// an array of `layers × bytesPerLayer / 2` bytes into another as large, split over
/// `threads` threads, so the copy touches as much memory as the kernel does (a size that
/// fits in cache copies faster than one that does not). Counts bytes read plus bytes
/// written, as the kernels' byte counts do, at the fastest sample: a ceiling is the best
/// the machine does, and a slower sample only means something else ran.
func measureCopyCeiling(layers: Int, bytesPerLayer: Int, threads: Int, minTime: Double) -> Double {
    let count = Swift.max(512, layers * bytesPerLayer / 2 / MemoryLayout<Double>.size)
    let source = [Double](repeating: 1.5, count: count)
    var destination = [Double](repeating: 0, count: count)
    let timing = destination.withUnsafeMutableBufferPointer { target in
        source.withUnsafeBufferPointer { origin in
            let from = SendablePointer(origin.baseAddress!)
            let to = SendableMutablePointer(target.baseAddress!)
            return measure(minTime: minTime) {
                let chunks = Swift.min(threads, Swift.max(1, count / 4096))
                let perChunk = (count + chunks - 1) / chunks
                DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                    let start = chunk * perChunk
                    let end = Swift.min(count, start + perChunk)
                    if start < end { (to.pointer + start).update(from: from.pointer + start, count: end - start) }
                }
            }
        }
    }
    return Double(2 * count * MemoryLayout<Double>.size) / timing.minSeconds
}

/// Raw pointers handed to worker threads that touch disjoint ranges.
struct SendablePointer: @unchecked Sendable {
    let pointer: UnsafePointer<Double>
    init(_ p: UnsafePointer<Double>) { pointer = p }
}
struct SendableMutablePointer: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<Double>
    init(_ p: UnsafeMutablePointer<Double>) { pointer = p }
}
