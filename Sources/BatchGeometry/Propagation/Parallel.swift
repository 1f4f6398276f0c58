import CAffineKernels
import Dispatch

// How the batch kernels spread over threads. A split cuts its work into chunks of a
// fixed size (`grain`, rounded up to whole lane groups), decided by the work alone, and
// up to `threads` threads claim chunks one at a time, each first from its own block of
// chunks, then from the others' (`SplitSchedule`). Claiming, rather than one fixed
// chunk per thread, matters on machines where waking a worker takes longer than a chunk
// (measured on a 16-core virtual machine: Benchmarks/README.md, "Results: 16 cores"):
// the threads already running take the late one's share instead of the split waiting
// for it. Each index is processed by exactly one chunk and chunk boundaries do not
// depend on the thread count or on scheduling, so results do not either.

/// The number of chunks `forEachChunk(count:threads:grain:splittingFrom:_:)` cuts `count`
/// items into when it splits them: `count / grain` rounded up, each chunk
/// `chunkLength(count:grain:)` long but the last. 1 when `count < 2 * grain` or `count <
/// minimum` (the work is too small to repay a hand-off, and runs as one chunk on the
/// calling thread).
func chunkCount(count: Int, grain: Int, splittingFrom minimum: Int = 0) -> Int {
    guard count >= 2 * Swift.max(1, grain), count >= minimum else { return count > 0 ? 1 : 0 }
    let length = chunkLength(count: count, grain: grain)
    return (count + length - 1) / length
}

/// The length of every chunk but the last: `grain` rounded up to a multiple of 8, so
/// SIMD loops split cleanly.
@inline(__always)
private func chunkLength(count: Int, grain: Int) -> Int {
    count >= 2 * Swift.max(1, grain) ? (Swift.max(1, grain) + 7) & ~7 : count
}

/// Runs `body` on `0 ..< count` cut into chunks (see `chunkCount(count:grain:splittingFrom:)`)
/// over up to `threads` threads with `DispatchQueue.concurrentPerform`; serially, in one
/// call, when the work is too small (`count < 2 * grain` or `count < minimum`) or
/// `threads` is 1. `minimum` is for kernels so cheap a layer that a split's fixed cost
/// (waking and joining workers, ~45 µs on a 16-core VM) outweighs several chunks.
@inline(__always)
func forEachChunk(
    count: Int, threads: Int, grain: Int = 16_384, splittingFrom minimum: Int = 0, _ body: (Range<Int>) -> Void
) {
    forEachIndexedChunk(count: count, threads: threads, grain: grain, splittingFrom: minimum) { _, range in
        body(range)
    }
}

/// `forEachChunk`, also passing each chunk's number (`0 ..< chunkCount(count:grain:)`),
/// so a chunk can write its own result slot. One thread (or a small `count`) runs the
/// chunks in order on the calling thread, still one call per chunk.
@inline(__always)
func forEachIndexedChunk(
    count: Int, threads: Int, grain: Int = 16_384, splittingFrom minimum: Int = 0, _ body: (Int, Range<Int>) -> Void
) {
    let chunks = chunkCount(count: count, grain: grain, splittingFrom: minimum)
    guard chunks > 1 else {
        if count > 0 { body(0, 0..<count) }
        return
    }
    let length = chunkLength(count: count, grain: grain)
    forEachTask(chunks, threads: threads) { chunk in
        body(chunk, (chunk * length)..<Swift.min(count, (chunk + 1) * length))
    }
}

/// Runs `body(task)` once for every task of `0 ..< tasks` over up to `threads` threads
/// (see `SplitSchedule` for who takes which task); in order on the calling thread when
/// `threads` or `tasks` is 1. `body` must not depend on which thread runs a task or in
/// what order (tasks write disjoint outputs).
func forEachTask(_ tasks: Int, threads: Int, schedule: SplitSchedule = .current, _ body: (Int) -> Void) {
    let workers = Swift.min(Swift.max(1, threads), tasks)
    guard workers > 1 else {
        for task in 0..<tasks { body(task) }
        return
    }
    let blocks = schedule == .claim ? 1 : workers
    withTemporaryColumn(of: CLong.self, capacity: blocks * ClaimCounters.stride) { storage in
        let counters = ClaimCounters(storage: storage, blocks: blocks, tasks: tasks)
        withoutActuallyEscaping(body) { body in
            let shared = TaskBody(run: body)
            DispatchQueue.concurrentPerform(iterations: workers) { iteration in
                let home = iteration % blocks
                for step in 0..<blocks { counters.drain((home + step) % blocks, shared) }
            }
        }
    }
}

/// Who takes which task of a split, read once from `BATCHGEOMETRY_SPLIT` (default
/// `blocks`). Both run each task exactly once and give the same results; they differ
/// only in speed, which only a many-core machine shows. On 16 cores `blocks` ran the
/// world pass 15–30% faster at 10k–100k layers than `claim`, frames the same
/// (Benchmarks/README.md, "Results: 16 cores").
enum SplitSchedule: String, Sendable {
    /// One shared counter: each thread claims the next task.
    case claim
    /// One contiguous block of tasks per thread (by `concurrentPerform`'s iteration),
    /// each block with its own counter on its own cache line; a thread that finishes
    /// its block takes what is left of the next ones, so a late thread's block is
    /// taken by the others instead of the split waiting for it.
    case blocks

    static let current: SplitSchedule =
        environmentValue("BATCHGEOMETRY_SPLIT").flatMap {
            SplitSchedule(rawValue: $0.lowercased())
        } ?? .blocks

    /// What is wrong with a `BATCHGEOMETRY_SPLIT` value, or nil when unset, empty or usable.
    static func environmentProblem(_ value: String?) -> String? {
        guard let value, !value.isEmpty, SplitSchedule(rawValue: value.lowercased()) == nil else { return nil }
        return "BATCHGEOMETRY_SPLIT=\(value) is not a split schedule (expected blocks or claim)"
    }
}

/// The counters of one split's task blocks, each on its own cache line (threads claim
/// from them at once): block `b` holds tasks `b * tasks / blocks ..< (b + 1) * tasks /
/// blocks`, and its counter starts at the first of them.
private struct ClaimCounters: @unchecked Sendable {
    static let stride = 8
    let storage: RawColumn<CLong>
    let blocks: Int
    let tasks: Int

    init(storage: RawColumn<CLong>, blocks: Int, tasks: Int) {
        self.storage = storage
        self.blocks = blocks
        self.tasks = tasks
        for block in 0..<blocks { storage[block * Self.stride] = CLong(block * tasks / blocks) }
    }

    /// Runs the tasks of `block` that no other thread has claimed.
    @inline(__always)
    func drain(_ block: Int, _ shared: TaskBody) {
        let end = (block + 1) * tasks / blocks
        let counter = storage + block * Self.stride
        while true {
            let task = Int(BGClaimNext(counter.base))
            if task >= end { return }
            shared.run(task)
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
