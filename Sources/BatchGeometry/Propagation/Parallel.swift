import CAffineKernels
import Dispatch

// How the batch kernels spread over threads. A split cuts its work into chunks of a
// fixed size (`grain`, rounded up to whole lane groups), decided by the work alone, and
// up to `threads` threads claim chunks one at a time from a shared counter until none
// is left. Claiming, rather than one fixed chunk per thread, matters on machines where
// waking a worker takes longer than a chunk (measured on a 16-core virtual machine:
// Benchmarks/README.md, "Results: 16 cores"): the threads already running take the late one's share instead
// of the split waiting for it. Each index is processed by exactly one chunk and chunk
// boundaries do not depend on the thread count or on scheduling, so results do not
// either.

/// The number of chunks `forEachChunk(count:threads:grain:_:)` cuts `count` items into
/// when it splits them: `count / grain` rounded up, each chunk `chunkLength(count:grain:)`
/// long but the last. 1 when `count < 2 * grain` (the work is too small to repay a
/// hand-off, and runs as one chunk on the calling thread).
func chunkCount(count: Int, grain: Int) -> Int {
    guard count >= 2 * Swift.max(1, grain) else { return count > 0 ? 1 : 0 }
    let length = chunkLength(count: count, grain: grain)
    return (count + length - 1) / length
}

/// The length of every chunk but the last: `grain` rounded up to a multiple of 8, so
/// SIMD loops split cleanly.
@inline(__always)
private func chunkLength(count: Int, grain: Int) -> Int {
    count >= 2 * Swift.max(1, grain) ? (Swift.max(1, grain) + 7) & ~7 : count
}

/// Runs `body` on `0 ..< count` cut into chunks (see `chunkCount(count:grain:)`) over up
/// to `threads` threads with `DispatchQueue.concurrentPerform`; serially, in one call,
/// when the work is too small (`count < 2 * grain`) or `threads` is 1.
@inline(__always)
func forEachChunk(count: Int, threads: Int, grain: Int = 16_384, _ body: (Range<Int>) -> Void) {
    forEachIndexedChunk(count: count, threads: threads, grain: grain) { _, range in body(range) }
}

/// `forEachChunk`, also passing each chunk's number (`0 ..< chunkCount(count:grain:)`),
/// so a chunk can write its own result slot. One thread (or a small `count`) runs the
/// chunks in order on the calling thread, still one call per chunk.
@inline(__always)
func forEachIndexedChunk(count: Int, threads: Int, grain: Int = 16_384, _ body: (Int, Range<Int>) -> Void) {
    let chunks = chunkCount(count: count, grain: grain)
    guard chunks > 1 else {
        if count > 0 { body(0, 0..<count) }
        return
    }
    let length = chunkLength(count: count, grain: grain)
    forEachTask(chunks, threads: threads) { chunk in
        body(chunk, (chunk * length)..<Swift.min(count, (chunk + 1) * length))
    }
}

/// Runs `body(task)` once for every task of `0 ..< tasks` over up to `threads` threads,
/// each thread claiming the next task until none is left; in order on the calling
/// thread when `threads` or `tasks` is 1. `body` must not depend on which thread runs a
/// task or in what order (tasks write disjoint outputs).
func forEachTask(_ tasks: Int, threads: Int, _ body: (Int) -> Void) {
    let workers = Swift.min(Swift.max(1, threads), tasks)
    guard workers > 1 else {
        for task in 0..<tasks { body(task) }
        return
    }
    withTemporaryColumn(of: CLong.self, capacity: 1) { counter in
        counter[0] = 0
        let next = ClaimCounter(counter: counter)
        withoutActuallyEscaping(body) { body in
            let shared = TaskBody(run: body)
            DispatchQueue.concurrentPerform(iterations: workers) { _ in
                while true {
                    let task = next.claim()
                    if task >= tasks { return }
                    shared.run(task)
                }
            }
        }
    }
}

/// A task body handed to `concurrentPerform`'s threads. The one place the package lets a
/// non-`Sendable` closure cross threads, and sound: every caller's tasks touch disjoint
/// index ranges of their outputs and only read shared inputs, and `concurrentPerform`
/// returns only after every task has, so nothing the body captured outlives the call.
private struct TaskBody: @unchecked Sendable {
    let run: (Int) -> Void
}

/// The shared counter the threads of one split claim tasks from (`BGClaimNext`, atomic);
/// it lives on the splitting thread's stack until `concurrentPerform` returns.
private struct ClaimCounter: @unchecked Sendable {
    let counter: RawColumn<CLong>

    @inline(__always)
    func claim() -> Int { Int(BGClaimNext(counter.base)) }
}
