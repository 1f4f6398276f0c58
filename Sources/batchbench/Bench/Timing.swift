import Dispatch

/// The per-call times of one measurement: the median of several samples and their spread.
struct Timing {
    var medianSeconds: Double
    var minSeconds: Double
    var maxSeconds: Double
    var samples: Int
    var callsPerSample: Int

    /// Half the range of the samples relative to the median, the `±` the table shows.
    var spread: Double { medianSeconds > 0 ? (maxSeconds - minSeconds) / 2 / medianSeconds : 0 }
}

/// Times `body`: a warm-up (at least one call and a tenth of `minTime`), then samples of
/// enough calls each that timer resolution does not matter, until there are at least 5
/// samples (3 when one call alone takes longer than `minTime / 3`) and `minTime` has
/// passed. Returns the per-call time of each sample's median.
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
    // Aim for samples of ~minTime/minimumSamples each, and never shorter than ~1 ms.
    let targetSample = Swift.max(minTime / Double(minimumSamples), 0.001)
    let callsPerSample = Swift.max(1, Int(targetSample / perCall))
    var samples: [Double] = []
    let start = clock.now
    while samples.count < minimumSamples || (seconds(since: start, clock) < minTime && samples.count < 1_000) {
        let sampleStart = clock.now
        for _ in 0..<callsPerSample { body() }
        samples.append(seconds(since: sampleStart, clock) / Double(callsPerSample))
    }
    samples.sort()
    let middle = samples.count / 2
    let median = samples.count % 2 == 1 ? samples[middle] : (samples[middle - 1] + samples[middle]) / 2
    return Timing(medianSeconds: median, minSeconds: samples[0], maxSeconds: samples[samples.count - 1],
                  samples: samples.count, callsPerSample: callsPerSample)
}

private func seconds(since start: ContinuousClock.Instant, _ clock: ContinuousClock) -> Double {
    let elapsed = clock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
}

/// The memory ceiling: copying an array as large as `layers` layers of 16 doubles (one
/// Transform3D each, 128 bytes) into another, split over `threads` threads. Counts the
/// bytes read plus the bytes written, as the kernels' byte counts do.
func measureCopyCeiling(layers: Int, threads: Int, minTime: Double) -> Double {
    let count = layers * 16
    let source = [Double](repeating: 1.5, count: count)
    var destination = [Double](repeating: 0, count: count)
    let timing = destination.withUnsafeMutableBufferPointer { target in
        source.withUnsafeBufferPointer { origin in
            let from = SendablePointer(origin.baseAddress!), to = SendableMutablePointer(target.baseAddress!)
            return measure(minTime: minTime) {
                let chunks = Swift.min(threads, Swift.max(1, count / 4096))
                let perChunk = (count + chunks - 1) / chunks
                DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                    let start = chunk * perChunk, end = Swift.min(count, start + perChunk)
                    if start < end { (to.pointer + start).update(from: from.pointer + start, count: end - start) }
                }
            }
        }
    }
    return Double(2 * count * MemoryLayout<Double>.size) / timing.medianSeconds
}

/// Raw pointers handed to worker threads that touch disjoint ranges.
struct SendablePointer: @unchecked Sendable { let pointer: UnsafePointer<Double>; init(_ p: UnsafePointer<Double>) { pointer = p } }
struct SendableMutablePointer: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<Double>
    init(_ p: UnsafeMutablePointer<Double>) { pointer = p }
}
