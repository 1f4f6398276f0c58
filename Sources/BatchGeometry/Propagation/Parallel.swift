import Dispatch

/// Splits `0 ..< count` into contiguous chunks and runs `body` on them over up to
/// `threads` threads with `DispatchQueue.concurrentPerform`; serially when the work is
/// too small to repay the hand-off (`count < minimumPerThread * 2`). Chunk boundaries
/// depend only on `count` and the chunk count, and each index is processed by exactly
/// one call, so results do not depend on scheduling.
@inline(__always)
func forEachChunk(
    count: Int, threads: Int, minimumPerThread: Int = 16_384,
    _ body: (Range<Int>) -> Void
) {
    forEachIndexedChunk(count: count, threads: threads, minimumPerThread: minimumPerThread) { _, range in body(range) }
}

/// `forEachChunk`, also passing each chunk's number (`0 ..< threads`), so a chunk can
/// write its own result slot.
@inline(__always)
func forEachIndexedChunk(
    count: Int, threads: Int, minimumPerThread: Int = 16_384,
    _ body: (Int, Range<Int>) -> Void
) {
    let chunkCount = Swift.min(Swift.max(1, threads), Swift.max(1, count / Swift.max(1, minimumPerThread)))
    if chunkCount <= 1 {
        if count > 0 { body(0, 0..<count) }
        return
    }
    // Chunks of whole lane groups (multiples of 8) so SIMD loops split cleanly.
    let perChunk = ((count + chunkCount - 1) / chunkCount + 7) & ~7
    withoutActuallyEscaping(body) { body in
        let shared = ChunkBody(run: body)
        DispatchQueue.concurrentPerform(iterations: chunkCount) { chunk in
            let start = chunk * perChunk
            let end = Swift.min(count, start + perChunk)
            if start < end { shared.run(chunk, start..<end) }
        }
    }
}

/// A chunk body handed to `concurrentPerform`'s threads. The one place the package lets a
/// non-`Sendable` closure cross threads, and sound: every caller's chunks touch disjoint
/// index ranges of their outputs and only read shared inputs, and `concurrentPerform`
/// returns only after every chunk has, so nothing the body captured outlives the call.
private struct ChunkBody: @unchecked Sendable {
    let run: (Int, Range<Int>) -> Void
}
