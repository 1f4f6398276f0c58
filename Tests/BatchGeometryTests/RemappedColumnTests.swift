import AllocationCounter
import CAffineKernels
import Glibc
import XCTest

@testable import BatchGeometry

/// `RemappedColumn`: Array's value semantics over a block that grows by remapping
/// (CAffineKernels' column_memory.c). Each expectation is checked against an Array
/// built by the same operations.
final class RemappedColumnTests: XCTestCase {
    /// A recognizable value for index `i` (not the index itself, so a shift shows).
    private static func value(_ i: Int) -> Double { Double(i) * 1.5 + 0.25 }

    func testEmptyColumnHoldsNothingAndAllocatesNothing() {
        let column = RemappedColumn<Double>()
        XCTAssertTrue(column.isEmpty)
        XCTAssertEqual(column.count, 0)
        XCTAssertEqual(column.capacity, 0)
        XCTAssertEqual(Array(column), [])
        let literal: RemappedColumn<Int32> = []
        XCTAssertEqual(literal.capacity, 0)
        XCTAssertEqual(withRawList(reading: literal) { $0.count }, 0)
    }

    func testContentIsKeptAcrossGrowthPastTheMappedSize() {
        // 600,000 doubles = 4.8 MB: from the heap into a mapping (256 KiB), grown in its
        // 2 MiB reservation, then moved (mremap) into a 128 MiB one and grown there.
        let mappingsBefore = BGColumnMappingCount()
        var column = RemappedColumn<Double>()
        var capacities: Set<Int> = []
        for i in 0..<600_000 {
            column.append(Self.value(i))
            capacities.insert(column.capacity)
        }
        XCTAssertEqual(column.count, 600_000)
        XCTAssertGreaterThan(capacities.count, 10, "the column grew step by step")
        for i in stride(from: 0, to: 600_000, by: 997) { XCTAssertEqual(column[i], Self.value(i), "element \(i)") }
        XCTAssertEqual(column[599_999], Self.value(599_999))
        XCTAssertEqual(column.reduce(0, +), (0..<600_000).reduce(0) { $0 + Self.value($1) })
        // Linux with glibc and no sanitizer (where the allocation counter runs) is where
        // columns are mapped: one map and at least one growth of the mapping.
        if BGAllocationCounterIsActive() != 0 {
            XCTAssertGreaterThanOrEqual(
                BGColumnMappingCount() - mappingsBefore, 2, "the growth went through mmap and mremap")
        }
    }

    /// Growth inside a mapping's reservation keeps the block where it is (no page moves,
    /// so no TLB shootdown in the frame that grows), and the move to a larger reservation
    /// (past 2 MiB written, past 128 MiB) keeps every element. The address check holds
    /// only where columns are mapped (Linux, glibc, no sanitizer: where the allocation
    /// counter runs).
    func testGrowthInsideTheReservationKeepsTheAddress() {
        var column = RemappedColumn<Double>()
        for i in 0..<20_000 { column.append(Self.value(i)) }  // 160 KB: the heap
        column.reserveCapacity(40_000)  // 320 KB: copied into a mapping (2 MiB reserved)
        let mapped = column.block.unsafelyUnwrapped.base
        column.reserveCapacity(200_000)  // 1.6 MB: still inside the first 2 MiB
        let inFirst = column.block.unsafelyUnwrapped.base
        column.reserveCapacity(400_000)  // 3.2 MB: moved into a 128 MiB reservation
        let moved = column.block.unsafelyUnwrapped.base
        for capacity in [800_000, 1_600_000, 3_200_000] {  // up to 25.6 MB: inside it
            column.reserveCapacity(capacity)
            if BGAllocationCounterIsActive() != 0 {
                XCTAssertEqual(column.block.unsafelyUnwrapped.base, moved, "grown to \(capacity) in place")
            }
        }
        if BGAllocationCounterIsActive() != 0 {
            XCTAssertEqual(inFirst, mapped, "grown inside the first reservation in place")
        }
        for i in 20_000..<3_200_000 { column.append(Self.value(i)) }
        XCTAssertEqual(column.count, 3_200_000)
        for i in stride(from: 0, to: 3_200_000, by: 1_009) { XCTAssertEqual(column[i], Self.value(i), "element \(i)") }
        XCTAssertEqual(column[3_199_999], Self.value(3_199_999))
        var copy = column  // a copy of a mapped block, then both freed at their sizes
        copy[7] = -1
        XCTAssertEqual(column[7], Self.value(7))
        XCTAssertEqual(copy[8], Self.value(8))
    }

    /// The huge-page advice a growth leaves (column_memory.c): the full part asks for
    /// huge pages, the grown tail and the reservation's inaccessible rest for small ones
    /// (the reservation is advised once, when it is made, and mprotect keeps the advice,
    /// so the growth itself makes no madvise call for its tail). Read from
    /// /proc/self/smaps' VmFlags (`hg`, `nh`); checked only where columns are mapped
    /// (Linux, glibc, no sanitizer: where the allocation counter runs).
    func testGrowthLeavesHugePagesOnTheFullPartAndSmallOnTheTail() throws {
        guard BGAllocationCounterIsActive() != 0 else { return }
        let huge = 2 << 20
        var column = RemappedColumn<Double>()
        column.reserveCapacity(300_000)  // 2.4 MB: a mapping, 4 MiB writable, huge pages
        let base = UInt(bitPattern: column.block.unsafelyUnwrapped.base)
        column.reserveCapacity(600_000)  // 4.8 MB: 6 MiB writable, grown in place
        XCTAssertEqual(UInt(bitPattern: column.block.unsafelyUnwrapped.base), base)
        let full = try XCTUnwrap(Self.mapping(containing: base))
        let tail = try XCTUnwrap(Self.mapping(containing: base + UInt(2 * huge)))
        let rest = try XCTUnwrap(Self.mapping(containing: base + UInt(3 * huge)))
        XCTAssertEqual(full.range, base..<(base + UInt(2 * huge)), "the full part, one mapping")
        XCTAssertEqual(full.permissions, "rw-p")
        XCTAssertTrue(full.flags.contains("hg"), "full part: \(full.flags)")
        XCTAssertEqual(tail.range.upperBound, base + UInt(3 * huge), "the tail ends at 6 MiB")
        XCTAssertEqual(tail.permissions, "rw-p")
        XCTAssertTrue(tail.flags.contains("nh"), "tail: \(tail.flags)")
        XCTAssertEqual(rest.permissions, "---p")
        XCTAssertTrue(rest.flags.contains("nh"), "reserved rest: \(rest.flags)")
        for i in 0..<600_000 { column.append(Self.value(i)) }
        XCTAssertEqual(column[599_999], Self.value(599_999))
    }

    /// The /proc/self/smaps entry whose range holds `address`: its range, permissions
    /// and VmFlags. Read line by line with getline (Foundation's file read stops at the
    /// first chunk of a procfs file, whose size reads as 0).
    private static func mapping(containing address: UInt) -> (
        range: Range<UInt>, permissions: String, flags: [Substring]
    )? {
        guard let file = fopen("/proc/self/smaps", "r") else { return nil }
        defer { fclose(file) }
        var buffer: UnsafeMutablePointer<CChar>?
        var size = 0
        defer { free(buffer) }
        var current: (range: Range<UInt>, permissions: String)?
        while getline(&buffer, &size, file) > 0, let text = buffer {
            let line = Substring(String(cString: text).dropLast())
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if line.hasPrefix("VmFlags:") {
                if let found = current, found.range.contains(address) {
                    return (found.range, found.permissions, Array(fields.dropFirst()))
                }
                continue
            }
            let bounds = fields.first?.split(separator: "-") ?? []
            guard fields.count >= 2, bounds.count == 2, let low = UInt(bounds[0], radix: 16),
                let high = UInt(bounds[1], radix: 16)
            else { continue }
            current = (low..<high, String(fields[1]))
        }
        return nil
    }

    /// A mapping opens its next doubling ahead when it is made or grown with a system
    /// call (column_memory.c; Benchmarks/KERNELS.md, "Growth opened ahead"), so the growth
    /// into it makes no system call: no mapping counted, the address kept, every element
    /// kept, the opened part writable with small pages (smaps: `rw-p`, `nh`) and the
    /// reservation's rest still inaccessible. The growth past it opens the next doubling
    /// again (one counted growth). Checked where columns are mapped (Linux, glibc, no
    /// sanitizer: where the allocation counter runs).
    func testGrowthIntoThePartOpenedAheadMakesNoSystemCall() throws {
        try FrameLoopAllocationTests.requireAllocationCounter()
        let huge = 2 << 20
        var column = RemappedColumn<Int64>(repeating: 3, count: 300_000)  // 2.4 MB: 4 MiB, 6 MiB opened
        let base = UInt(bitPattern: column.block.unsafelyUnwrapped.base)
        let opened = try XCTUnwrap(Self.mapping(containing: base + UInt(2 * huge)))
        XCTAssertEqual(opened.range, (base + UInt(2 * huge))..<(base + UInt(3 * huge)), "opened ahead to 6 MiB")
        XCTAssertEqual(opened.permissions, "rw-p")
        XCTAssertTrue(opened.flags.contains("nh"), "opened ahead: \(opened.flags)")
        XCTAssertEqual(try XCTUnwrap(Self.mapping(containing: base + UInt(3 * huge))).permissions, "---p")
        let before = BGColumnMappingCount()
        column.reserveCapacity(600_000)  // 4.8 MB: inside the 6 MiB opened
        XCTAssertEqual(BGColumnMappingCount() - before, 0, "no system call inside the opened part")
        XCTAssertEqual(UInt(bitPattern: column.block.unsafelyUnwrapped.base), base)
        for i in 300_000..<600_000 { column.append(Int64(i)) }  // writes up to 4.8 MB
        column.reserveCapacity(1_200_000)  // 9.6 MB: past it, 10 MiB, 20 MiB opened
        XCTAssertEqual(BGColumnMappingCount() - before, 1, "one growth past the opened part")
        XCTAssertEqual(UInt(bitPattern: column.block.unsafelyUnwrapped.base), base)
        let next = try XCTUnwrap(Self.mapping(containing: base + UInt(9 * huge)))
        XCTAssertEqual(next.range.upperBound, base + UInt(10 * huge), "opened ahead to 20 MiB")
        XCTAssertEqual(next.permissions, "rw-p")
        XCTAssertEqual(try XCTUnwrap(Self.mapping(containing: base + UInt(10 * huge))).permissions, "---p")
        // The full part at that growth asks for huge pages (the part opened ahead and
        // filled since may stay a mapping of its own: its pages' anon_vma differs).
        let first = try XCTUnwrap(Self.mapping(containing: base))
        let filled = try XCTUnwrap(Self.mapping(containing: base + UInt(2 * huge)))
        XCTAssertTrue(first.flags.contains("hg"), "full part: \(first.flags)")
        XCTAssertTrue(filled.flags.contains("hg"), "full part, opened ahead: \(filled.flags)")
        XCTAssertEqual(filled.range.upperBound, base + UInt(3 * huge), "the full part ends at 6 MiB")
        XCTAssertEqual(column.count, 600_000)
        XCTAssertEqual(column[299_999], 3)
        XCTAssertEqual(column[599_999], 599_999)
        for i in 600_000..<1_200_000 { column.append(Int64(i)) }
        XCTAssertEqual(column[1_199_999], 1_199_999)
    }

    /// A unique column's growth is one realloc or remap: no copy into a new block (which
    /// would count a block object and its memory).
    func testGrowingAUniqueColumnReallocatesInPlace() throws {
        try FrameLoopAllocationTests.requireAllocationCounter()
        for _ in 0..<2 {  // the first growth of each element type instantiates generic metadata
            var warm = RemappedColumn<Int32>(repeating: 0, count: 4)
            warm.reserveCapacity(8)
            var warmBytes = RemappedColumn<UInt8>(repeating: 0, count: 4)
            warmBytes.reserveCapacity(8)
        }
        var column = RemappedColumn<UInt8>(repeating: 7, count: 3 << 20)  // a mapping, 6 MiB opened
        column[5] = 8
        let before = BGAllocationCount()
        column.reserveCapacity(12 << 20)  // past the part opened ahead: one growth of the mapping
        XCTAssertEqual(BGAllocationCount() - before, 1, "one growth of the mapping")
        var small = RemappedColumn<Int32>(repeating: 1, count: 1_000)
        let beforeSmall = BGAllocationCount()
        small.reserveCapacity(4_000)
        XCTAssertEqual(BGAllocationCount() - beforeSmall, 1, "one realloc")
        XCTAssertEqual(column[5], 8)
        XCTAssertEqual(column[(3 << 20) - 1], 7)
        XCTAssertEqual(small[999], 1)
    }

    func testWriteToACopyLeavesTheOriginalAndViceVersa() {
        var original = RemappedColumn<Int32>((0..<1_000).map { Int32($0) })
        var copy = original
        XCTAssertTrue(copy.sharesBlock(with: original), "assignment shares the block")
        copy[10] = -1
        XCTAssertFalse(copy.sharesBlock(with: original), "a write copies")
        XCTAssertEqual(original[10], 10)
        XCTAssertEqual(copy[10], -1)
        let second = original
        original[20] = -2
        XCTAssertEqual(second[20], 20, "the copy is unchanged by a write to the original")
        XCTAssertEqual(original[20], -2)
        var appended = second
        appended.append(7)
        XCTAssertEqual(second.count, 1_000)
        XCTAssertEqual(appended.count, 1_001)
        var removed = second
        removed.removeLast()
        XCTAssertEqual(second.last, 999)
        XCTAssertEqual(removed.last, 998)
        var reserved = second
        reserved.reserveCapacity(10)
        XCTAssertFalse(reserved.sharesBlock(with: second), "reserveCapacity makes the block unique, as Array's does")
        XCTAssertEqual(Array(reserved), Array(second))
    }

    func testCopyOfAMappedColumnIsIndependent() {
        var big = RemappedColumn<Double>(repeating: 3, count: 400_000)  // 3.2 MB: a mapping
        let snapshot = big
        big[399_999] = 4
        big.append(5)
        XCTAssertEqual(snapshot[399_999], 3)
        XCTAssertEqual(snapshot.count, 400_000)
        XCTAssertEqual(big[399_999], 4)
        XCTAssertEqual(big[400_000], 5)
    }

    func testReserveKeepsContentAndAppendsWithinItDoNotGrow() {
        var column = RemappedColumn<UInt64>([1, 2, 3])
        column.reserveCapacity(500_000)  // 4 MB
        XCTAssertGreaterThanOrEqual(column.capacity, 500_000)
        XCTAssertEqual(Array(column), [1, 2, 3])
        let capacity = column.capacity
        for i in 3..<500_000 { column.append(UInt64(i + 1)) }
        XCTAssertEqual(column.capacity, capacity, "no growth within the reserved room")
        XCTAssertEqual(column[499_999], 500_000)
        column.reserveCapacity(10)
        XCTAssertEqual(column.capacity, capacity, "a smaller reserve keeps the room")
    }

    func testRemoveAllAndCollectionEditsMatchArray() {
        var column = RemappedColumn<Int>(0..<100)
        var array = Array(0..<100)
        column.replaceSubrange(10..<20, with: [-1, -2, -3])
        array.replaceSubrange(10..<20, with: [-1, -2, -3])
        XCTAssertEqual(Array(column), array)
        column.insert(42, at: 0)
        array.insert(42, at: 0)
        column.swapAt(1, 50)
        array.swapAt(1, 50)
        XCTAssertEqual(Array(column), array)
        let kept = column.capacity
        column.removeAll(keepingCapacity: true)
        XCTAssertTrue(column.isEmpty)
        XCTAssertEqual(column.capacity, kept)
        column.append(1)
        XCTAssertEqual(Array(column), [1])
        column.removeAll()
        XCTAssertEqual(column.capacity, 0)
        XCTAssertEqual(RemappedColumn<Int>(repeating: 9, count: 4), [9, 9, 9, 9])
    }
}
