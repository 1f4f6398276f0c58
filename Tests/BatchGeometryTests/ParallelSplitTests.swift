import XCTest

@_spi(Testing) @testable import BatchGeometry

/// The splits over threads (Propagation/Parallel.swift and the world pass's subtree
/// runs): every index is processed exactly once whatever the thread count, chunk
/// boundaries depend only on the work, and every strategy gives the serial pass's bits.
final class ParallelSplitTests: XCTestCase {
    /// Each index of `0 ..< count` lands in exactly one chunk, chunk numbers are
    /// `0 ..< chunkCount`, and the chunks are the same for every thread count.
    func testChunksCoverEveryIndexOnce() {
        for (count, grain) in [(0, 16), (1, 16), (31, 16), (32, 16), (33, 16), (1_000, 8), (100_003, 4_096)] {
            let chunks = chunkCount(count: count, grain: grain)
            var reference: [Range<Int>]? = nil
            for threads in [1, 2, 3, 16] {
                let seen = UnsafeMutableBufferPointer<Int>.allocate(capacity: Swift.max(1, count))
                seen.initialize(repeating: 0)
                let ranges = UnsafeMutableBufferPointer<Range<Int>>.allocate(capacity: Swift.max(1, chunks))
                ranges.initialize(repeating: 0..<0)
                let seenPointer = SendablePointer(seen.baseAddress!)
                let rangePointer = SendablePointer(ranges.baseAddress!)
                forEachIndexedChunk(count: count, threads: threads, grain: grain) { chunk, range in
                    rangePointer.pointer[chunk] = range
                    for index in range { seenPointer.pointer[index] += 1 }
                }
                XCTAssertTrue(seen.prefix(count).allSatisfy { $0 == 1 }, "count \(count) threads \(threads)")
                let listed = Array(ranges.prefix(chunks))
                XCTAssertEqual(listed.map(\.count).reduce(0, +), count, "count \(count) threads \(threads)")
                if let reference { XCTAssertEqual(listed, reference, "count \(count) threads \(threads)") }
                reference = listed
                seen.deallocate()
                ranges.deallocate()
            }
            // Below two grains the work runs as one chunk (not worth a hand-off).
            let length = (grain + 7) / 8 * 8
            XCTAssertEqual(chunks, count == 0 ? 0 : (count < 2 * grain ? 1 : (count + length - 1) / length))
        }
    }

    /// A minimum below which the work is not split: one chunk on the calling thread under
    /// it, the grain's chunks from it on (the frames kernel's `framesSplitMinimum`).
    func testMinimumKeepsSmallWorkInOneChunk() {
        XCTAssertEqual(chunkCount(count: 10_000, grain: 4_096), 3)
        XCTAssertEqual(chunkCount(count: 10_000, grain: 4_096, splittingFrom: 16_384), 1)
        XCTAssertEqual(chunkCount(count: 16_383, grain: 4_096, splittingFrom: 16_384), 1)
        XCTAssertEqual(chunkCount(count: 16_384, grain: 4_096, splittingFrom: 16_384), 4)
        XCTAssertEqual(chunkCount(count: 0, grain: 4_096, splittingFrom: 16_384), 0)
        var ranges: [Range<Int>] = []
        forEachChunk(count: 10_000, threads: 16, grain: 4_096, splittingFrom: 16_384) { ranges.append($0) }
        XCTAssertEqual(ranges, [0..<10_000])
    }

    /// `forEachTask` runs each task once, over any number of threads, on every
    /// schedule (blocks of uneven sizes, more threads than tasks).
    func testEveryTaskRunsOnce() {
        for schedule in [SplitSchedule.claim, .blocks] {
            for tasks in [1, 2, 7, 128, 1_001] {
                for threads in [1, 2, 3, 16] {
                    let runs = UnsafeMutableBufferPointer<Int>.allocate(capacity: tasks)
                    runs.initialize(repeating: 0)
                    let pointer = SendablePointer(runs.baseAddress!)
                    forEachTask(tasks, threads: threads, schedule: schedule) { pointer.pointer[$0] += 1 }
                    XCTAssertTrue(runs.allSatisfy { $0 == 1 }, "\(schedule): \(tasks) tasks, \(threads) threads")
                    runs.deallocate()
                }
            }
        }
    }

    /// The subtree runs (a breadth-first store, split at the first level with 8 layers
    /// per thread) on an uneven tree: sublayer counts from 0 to 15, a 3D subtree, a
    /// second root. Every thread count and backend gives the
    /// serial pass's bits, and the serial pass agrees with the reference.
    func testSubtreeRunsGiveTheSerialBits() throws {
        var store = LayerStore()
        var layer = 0
        var next = 0
        _ = try store.addLayer()
        _ = try store.addLayer()
        while store.count < 30_000 {
            let fanout = (next * 7 + 3) % 16
            for _ in 0..<fanout where store.count < 30_000 {
                layer = try store.addLayer(superlayer: next)
                store.setPosition(Point(x: Double(layer % 41), y: Double(layer % 23)), of: layer)
                if layer % 5 == 0 { store.setAffineTransform(.rotation(radians: Double(layer % 90) / 60), of: layer) }
            }
            next += 1
        }
        store.setTransform(.perspective(distance: 400), of: 40)
        let reference = store.referenceWorldTransforms()
        for backend in [Backend.scalar, .simd, .c] {
            let serial = store.worldTransforms(options: .serial(backend))
            assertWorldsAgree(serial, reference, "\(backend) serial")
            for threads in [2, 3, 5, 16] {
                let parallel = store.worldTransforms(options: KernelOptions(backend: backend, threads: threads))
                XCTAssertTrue(worldsBitIdentical(parallel, serial), "\(backend), \(threads) threads")
            }
        }
    }
}
