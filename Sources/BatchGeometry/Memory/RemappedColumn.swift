import CAffineKernels

// A per-layer column that grows without a copy (issue 22 item 3; Benchmarks/KERNELS.md,
// "Growth by remapping"). A Swift Array grows by allocating a new block and copying the
// old one into it: at a million layers one column's growth cost 0.4–42 ms, mostly the
// first touch of the new block's pages. This column keeps its elements in a block from
// `BGColumnAllocate` (CAffineKernels/column_memory.c): on Linux, from 256 KiB on, an
// anonymous mapping inside a larger reservation of address space, grown in place by
// making more of it writable, or by `mremap` into a larger reservation (transparent huge
// pages for its filled part from 2 MiB, small pages for a grown tail until it fills). Copy-on-write like Array (a store's `copy()` and snapshots share blocks until
// one side writes); trivial elements only, so a block is plain bytes: no element is
// ever initialized or deinitialized, only copied.
//
// One of the library's raw-memory files (ARCHITECTURE.md, "Where raw memory lives"; the
// rule at the top of RawColumns.swift): its openers below follow that rule.

/// The block behind a `RemappedColumn`: its address, the elements in use and the room.
/// Frees the block when the last column holding it goes. `@usableFromInline` (with `base`
/// and `count`), so that the store's `@inlinable` lookups read it in the caller's module.
@usableFromInline
final class RemappedColumnBlock<Element: BitwiseCopyable> {
    // Unchecked: the block is only reached through its column, whose copy-on-write makes
    // every write exclusive; inlined into another module, a checked read of a class's
    // `var` calls `swift_beginAccess` (four a `handle(at:)`).
    @usableFromInline @exclusivity(unchecked) var base: UnsafeMutablePointer<Element>
    @usableFromInline @exclusivity(unchecked) var count: Int
    private(set) var capacity: Int
    /// The bytes writable from `base` (`BGColumnAllocate`/`BGColumnGrow` set it): a
    /// mapping's next doubling is opened ahead, so that its growth makes no system call.
    private var writable: Int = 0

    /// A block with room for `capacity` (> 0) elements, `count` 0. O(1).
    init(capacity: Int) {
        var writable = 0
        base = BGColumnAllocate(Self.bytes(capacity), &writable).bindMemory(to: Element.self, capacity: capacity)
        count = 0
        self.capacity = capacity
        self.writable = writable
    }

    deinit { BGColumnFree(base, Self.bytes(capacity), writable) }

    @inline(__always) static func bytes(_ capacity: Int) -> Int {
        let (bytes, overflow) = capacity.multipliedReportingOverflow(by: MemoryLayout<Element>.stride)
        precondition(!overflow, "RemappedColumn: capacity overflows the address space")
        return bytes
    }

    /// Grows the room to `newCapacity` (> capacity): in place inside the mapping's
    /// reservation (no system call inside the part opened ahead), or by one `mremap` into
    /// a larger one. O(1) for a mapping, a realloc's copy for a heap block.
    func grow(to newCapacity: Int) {
        let raw = BGColumnGrow(base, Self.bytes(capacity), Self.bytes(newCapacity), &writable)
        base = raw!.bindMemory(to: Element.self, capacity: newCapacity)
        capacity = newCapacity
    }

    /// Makes room up to `capacity` elements writable ahead of a growth to it (a mapping
    /// inside its reservation, moved first out of a 2 MiB one; `BGColumnOpenAhead`),
    /// without changing `capacity`. O(1).
    func openAhead(toCapacity aheadCapacity: Int) {
        let raw = BGColumnOpenAhead(base, Self.bytes(capacity), Self.bytes(aheadCapacity), &writable)
        base = raw!.bindMemory(to: Element.self, capacity: capacity)
    }

    /// A new block with the same elements and room for `capacity` (>= count). O(count).
    func copy(capacity: Int) -> RemappedColumnBlock {
        let copy = RemappedColumnBlock(capacity: capacity)
        copy.base.update(from: base, count: count)
        copy.count = count
        return copy
    }
}

/// A growable column of trivial elements with Array's value semantics (copy-on-write)
/// whose growth past 256 KiB grows a mapping in place instead of copying (see the top of this file).
/// Indices are 0..<count. Appending is amortized O(1); growth doubles the room, as
/// Array's does. Nil block: no room yet (an empty column allocates nothing).
@usableFromInline
struct RemappedColumn<Element: BitwiseCopyable> {
    @usableFromInline var block: RemappedColumnBlock<Element>?

    @usableFromInline init() {}

    /// `count` copies of `value`. O(count).
    @usableFromInline init(repeating value: Element, count: Int) {
        precondition(count >= 0, "RemappedColumn: negative count")
        guard count > 0 else { return }
        let block = RemappedColumnBlock<Element>(capacity: count)
        block.base.initialize(repeating: value, count: count)
        block.count = count
        self.block = block
    }

    /// The elements of `elements`, in order. O(n).
    @usableFromInline init(_ elements: some Sequence<Element>) {
        self.init()
        append(contentsOf: elements)
    }

    @inlinable @inline(__always) var count: Int { block?.count ?? 0 }

    /// Element `index` (`0..<count`): the subscript's read, `@inlinable` without its
    /// copy-on-write setter, for the store's lookups that inline into other modules. O(1).
    @inlinable @inline(__always)
    func element(at index: Int) -> Element {
        precondition(UInt(bitPattern: index) < UInt(bitPattern: count), "RemappedColumn: index out of range")
        return block.unsafelyUnwrapped.base[index]
    }

    /// Elements the column holds without growing.
    @inline(__always) var capacity: Int { block?.capacity ?? 0 }

    /// Makes the block this column's own, copied if shared, with room for at least
    /// `minimumCapacity`; a shared block is copied at its own capacity or more.
    @inline(never)
    private mutating func reallocate(minimumCapacity: Int) {
        // Uniqueness first: a local reference to the block would count as a second owner.
        if isKnownUniquelyReferenced(&block) {
            let block = self.block.unsafelyUnwrapped
            if minimumCapacity > block.capacity { block.grow(to: minimumCapacity) }
        } else if let shared = block {
            block = shared.copy(capacity: Swift.max(minimumCapacity, shared.capacity))
        } else if minimumCapacity > 0 {
            block = RemappedColumnBlock(capacity: minimumCapacity)
        }
    }

    /// Copies a shared block before a write (Array's copy-on-write). O(1) when unique.
    @inline(__always)
    private mutating func makeUnique() {
        if _slowPath(!isKnownUniquelyReferenced(&block)) { reallocate(minimumCapacity: 0) }
    }

    /// Room for at least `minimumCapacity` elements, and the block this column's own (as
    /// `Array.reserveCapacity` makes it). O(1) for a mapping that grows, O(n) for a copy.
    @usableFromInline mutating func reserveCapacity(_ minimumCapacity: Int) {
        if _slowPath(minimumCapacity > capacity || !isKnownUniquelyReferenced(&block)) {
            reallocate(minimumCapacity: minimumCapacity)
        }
    }

    /// Opens a unique mapped block's room up to `capacity` elements ahead of a growth to
    /// it, so that the growth makes no system call (column_memory.c), without growing
    /// `capacity` (the footprint) or touching a page. A shared or heap block: nothing.
    /// O(1), no allocation.
    mutating func openAhead(toCapacity aheadCapacity: Int) {
        guard aheadCapacity > capacity, isKnownUniquelyReferenced(&block) else { return }
        block.unsafelyUnwrapped.openAhead(toCapacity: aheadCapacity)
    }

    /// Adds `element` at the end; doubles the room when full (in place from 256 KiB on).
    /// Amortized O(1).
    @inline(__always)
    @usableFromInline mutating func append(_ element: Element) {
        let count = self.count
        if _slowPath(count == capacity || !isKnownUniquelyReferenced(&block)) {
            reallocate(minimumCapacity: count == capacity ? Swift.max(2 * capacity, 16) : capacity)
        }
        let block = self.block.unsafelyUnwrapped
        (block.base + count).initialize(to: element)
        block.count = count + 1
    }

    /// Removes and returns the last element, which must exist. O(1).
    @discardableResult
    mutating func removeLast() -> Element {
        precondition(count > 0, "RemappedColumn: removeLast from an empty column")
        makeUnique()
        let block = self.block.unsafelyUnwrapped
        block.count -= 1
        return block.base[block.count]
    }

    /// Removes every element; keeps the room when asked (and the block is not shared).
    /// O(1).
    @usableFromInline mutating func removeAll(keepingCapacity keepCapacity: Bool = false) {
        guard keepCapacity, block != nil, isKnownUniquelyReferenced(&block) else {
            block = keepCapacity && capacity > 0 ? RemappedColumnBlock(capacity: capacity) : nil
            return
        }
        block.unsafelyUnwrapped.count = 0
    }

    /// Replaces the elements with `source`'s, keeping the room (a frame's scratch copy of
    /// a column). O(n); allocates only when `source` is longer than the room.
    mutating func overwrite(with source: RemappedColumn) {
        let count = source.count
        if count > capacity || !isKnownUniquelyReferenced(&block) { reallocate(minimumCapacity: count) }
        guard let block, let from = source.block else {
            block?.count = 0
            return
        }
        block.base.update(from: from.base, count: count)
        block.count = count
    }

    /// The standard library's fast path for contiguous elements (`Array(column)`,
    /// `append(contentsOf:)`). O(1) plus `body`.
    @usableFromInline func withContiguousStorageIfAvailable<R>(_ body: (UnsafeBufferPointer<Element>) throws -> R)
        rethrows -> R?
    {
        guard let block else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
        return try withExtendedLifetime(block) { try body(UnsafeBufferPointer(start: block.base, count: block.count)) }
    }

    /// Hints that element `index` will be read soon (nothing outside the column). O(1).
    @inline(__always)
    func prefetchForRead(_ index: Int) {
        guard let block, UInt(bitPattern: index) < UInt(bitPattern: block.count) else { return }
        BGPrefetchForRead(block.base + index)
    }

    /// Whether the two columns hold one block (one was assigned from the other and
    /// neither has been written since). O(1).
    func sharesBlock(with other: RemappedColumn) -> Bool {
        guard let block, let otherBlock = other.block else { return false }
        return block === otherBlock
    }
}

extension RemappedColumn: RandomAccessCollection, MutableCollection {
    // `@usableFromInline` like the type, as its conformances require of their witnesses.
    @usableFromInline typealias Index = Int
    @usableFromInline typealias Indices = Range<Int>

    @usableFromInline @inline(__always) var startIndex: Int { 0 }
    @usableFromInline @inline(__always) var endIndex: Int { count }

    @usableFromInline @inline(__always)
    subscript(index: Int) -> Element {
        get {
            precondition(UInt(bitPattern: index) < UInt(bitPattern: count), "RemappedColumn: index out of range")
            return block.unsafelyUnwrapped.base[index]
        }
        set {
            precondition(UInt(bitPattern: index) < UInt(bitPattern: count), "RemappedColumn: index out of range")
            makeUnique()
            block.unsafelyUnwrapped.base[index] = newValue
        }
    }
}

extension RemappedColumn: RangeReplaceableCollection {
    /// Replaces `subrange` with `newElements`. O(count + new elements).
    @usableFromInline mutating func replaceSubrange<C: Collection<Element>>(_ subrange: Range<Int>, with newElements: C)
    {
        precondition(subrange.lowerBound >= 0 && subrange.upperBound <= count, "RemappedColumn: range out of bounds")
        let oldCount = count
        let inserted = newElements.count
        let newCount = oldCount - subrange.count + inserted
        if newCount > capacity || !isKnownUniquelyReferenced(&block) {
            reallocate(minimumCapacity: newCount > capacity ? Swift.max(newCount, 2 * capacity) : capacity)
        }
        guard let block else { return }
        let tail = oldCount - subrange.upperBound
        (block.base + subrange.lowerBound + inserted).update(from: block.base + subrange.upperBound, count: tail)
        var position = subrange.lowerBound
        for element in newElements {
            block.base[position] = element
            position += 1
        }
        block.count = newCount
    }
}

extension RemappedColumn: ExpressibleByArrayLiteral {
    @usableFromInline init(arrayLiteral elements: Element...) { self.init(elements) }
}

extension RemappedColumn: Equatable where Element: Equatable {
    @usableFromInline static func == (lhs: RemappedColumn, rhs: RemappedColumn) -> Bool { lhs.elementsEqual(rhs) }
}

// The block is only read through a shared column and copied before any write, as Array's
// buffer is: safe to send when the elements are.
extension RemappedColumn: @unchecked Sendable where Element: Sendable {}

// MARK: - Openers (the rule at the top of RawColumns.swift)

extension RemappedColumn {
    /// Calls `body` with the elements' address for writing (the block made unique
    /// first), or nil when the column is empty. O(1) unless shared.
    @inline(__always)
    mutating func withMutableBaseAddress<R>(_ body: (RawColumn<Element>?) -> R) -> R {
        guard count > 0 else { return body(nil) }
        makeUnique()
        let block = self.block.unsafelyUnwrapped
        return withExtendedLifetime(block) { body(RawColumn(block.base)) }
    }

    /// Calls `body` with the elements' address for reading, or nil when empty. O(1).
    @inline(__always)
    func withBaseAddress<R>(reading body: (RawColumn<Element>?) -> R) -> R {
        guard let block, block.count > 0 else { return body(nil) }
        return withExtendedLifetime(block) { body(RawColumn(block.base)) }
    }
}

extension RemappedColumn where Element: BitwiseCopyable {
    /// Calls `body` with the address of the column's room (`capacity` elements, the first
    /// `count` of them its elements; `RawColumn.empty` when it has no room) and its
    /// count, which `body` may raise up to `capacity` by writing the elements past it:
    /// appends in place, with the uniqueness and room checks made once rather than once
    /// an element. O(1) unless shared (then a copy).
    @inline(__always)
    mutating func withAppendingRoom<R>(_ body: (RawColumn<Element>, inout Int) -> R) -> R {
        guard capacity > 0 else {
            var count = 0
            return body(.empty, &count)
        }
        makeUnique()
        let block = self.block.unsafelyUnwrapped
        var count = block.count
        let result = withExtendedLifetime(block) { body(RawColumn(block.base), &count) }
        precondition(count >= block.count && count <= block.capacity, "RemappedColumn: appended past the room")
        block.count = count
        return result
    }
}

/// Calls `body` with the address of `column`'s elements for writing (`RawColumn.empty`
/// when it has none).
@inline(__always)
func withRawColumn<T, R>(_ column: inout RemappedColumn<T>, _ body: (RawColumn<T>) -> R) -> R {
    column.withMutableBaseAddress { body($0 ?? .empty) }
}

/// Calls `body` with the address of `column`'s elements for reading (`RawColumn.empty`
/// when it has none).
@inline(__always)
func withRawColumn<T, R>(reading column: RemappedColumn<T>, _ body: (RawColumn<T>) -> R) -> R {
    column.withBaseAddress(reading: { body($0 ?? .empty) })
}

extension RawColumn {
    /// An empty column's address, as an empty Array's is: valid, aligned, not to be read
    /// (the kernels given one read nothing).
    static var empty: RawColumn { RawColumn(UnsafeMutablePointer(bitPattern: MemoryLayout<Element>.alignment)!) }
}

/// Calls `body` with the address of `column`'s elements for writing, or nil when empty.
@inline(__always)
func withOptionalRawColumn<T, R>(_ column: inout RemappedColumn<T>, _ body: (RawColumn<T>?) -> R) -> R {
    column.withMutableBaseAddress(body)
}

/// Calls `body` with the address of `column`'s elements for reading, or nil when it is
/// empty or nil.
@inline(__always)
func withOptionalRawColumn<T, R>(reading column: RemappedColumn<T>?, _ body: (RawColumn<T>?) -> R) -> R {
    guard let column else { return body(nil) }
    return column.withBaseAddress(reading: body)
}

/// Calls `body` with `column`'s elements as a list for writing (empty columns allowed).
@inline(__always)
func withRawList<T, R>(_ column: inout RemappedColumn<T>, _ body: (RawList<T>) -> R) -> R {
    let count = column.count
    return column.withMutableBaseAddress { body(RawList($0?.base, count: count)) }
}

/// Calls `body` with `column`'s elements as a list for reading (empty columns allowed).
@inline(__always)
func withRawList<T, R>(reading column: RemappedColumn<T>, _ body: (RawList<T>) -> R) -> R {
    column.withBaseAddress(reading: { body(RawList($0?.base, count: column.count)) })
}

/// Bytes allocated for `column` (capacity × stride), as the footprint counts an array.
func allocatedBytes<T>(_ column: RemappedColumn<T>) -> Int { column.capacity * MemoryLayout<T>.stride }

/// Hints that `column[index]` will be read soon (nothing for an index outside it). O(1).
@inline(__always)
func prefetchElement<T>(_ column: RemappedColumn<T>, _ index: Int) { column.prefetchForRead(index) }

/// `sharesStorage(_:_:)` for remapped columns: the same block (the footprint counts a
/// cache's column still shared with the hierarchy's once). O(1).
func sharesStorage<T>(_ first: RemappedColumn<T>, _ second: RemappedColumn<T>) -> Bool {
    first.sharesBlock(with: second)
}

/// Calls `body` with the addresses of two columns for reading (neither empty).
@inline(__always)
func withRawColumns<T, R>(
    reading a: RemappedColumn<T>, _ b: RemappedColumn<T>, _ body: (RawColumn<T>, RawColumn<T>) -> R
) -> R {
    withRawColumn(reading: a) { a in withRawColumn(reading: b) { b in body(a, b) } }
}

/// Calls `body` with the addresses of four columns for writing (none empty).
@inline(__always)
func withRawColumns<T, R>(
    _ a: inout RemappedColumn<T>, _ b: inout RemappedColumn<T>, _ c: inout RemappedColumn<T>,
    _ d: inout RemappedColumn<T>, _ body: (RawColumn<T>, RawColumn<T>, RawColumn<T>, RawColumn<T>) -> R
) -> R {
    withRawColumn(&a) { a in
        withRawColumn(&b) { b in withRawColumn(&c) { c in withRawColumn(&d) { d in body(a, b, c, d) } } }
    }
}

/// Calls `body` with the addresses of four columns for reading (none empty).
@inline(__always)
func withRawColumns<T, R>(
    reading a: RemappedColumn<T>, _ b: RemappedColumn<T>, _ c: RemappedColumn<T>, _ d: RemappedColumn<T>,
    _ body: (RawColumn<T>, RawColumn<T>, RawColumn<T>, RawColumn<T>) -> R
) -> R {
    withRawColumns(reading: a, b) { a, b in withRawColumns(reading: c, d) { c, d in body(a, b, c, d) } }
}
