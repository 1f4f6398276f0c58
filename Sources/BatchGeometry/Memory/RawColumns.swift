import CAffineKernels

// The library's raw memory, in one place (issue 21, item 5; the way swift-collections
// keeps a deque's buffer behind `_UnsafeDequeHandle`). The kernels read and write
// struct-of-arrays columns through raw addresses, to skip the bounds checks and the
// copy-on-write checks of `Array` in their inner loops and to hand the columns to the C
// kernels. Only the files of `Memory/` name Swift's unsafe pointer types or call
// `withUnsafe…`: this one, and `RemappedColumn.swift` (the columns that grow by remapping,
// with their openers) (ARCHITECTURE.md, "Where raw memory lives"); every other file takes a `RawColumn` or a
// `RawList`, or a bundle of them (`AffinePointers`, `IncrementalColumns`,
// `WorldPassColumns`, `PlanInputs`, `PlanOutput`, `FrameKernelColumns`, …).
//
// THE RULE: a `RawColumn` or `RawList` is made only by an opener of this file
// (`withRawColumn`, `withRawList`, `withTemporaryColumn`, …), whose closure scopes the
// lifetime of the buffer it points into, or from another one inside that closure (an
// offset, a slice, the fields of a C struct filled from one: `GeneralPropagation`'s
// views). It, and any bundle holding it, is never stored in a property that outlives
// that closure, never returned from it, and never captured by work that outlives it
// (the parallel loops join before they return). Nothing checks this; a column that
// escapes reads freed memory. (`~Escapable` and `Span` would check it; docs/DEBTS.md
// says why they are not used yet.)

/// The address of a column's first element, valid only inside the opener that made it
/// (see the rule at the top of this file). Reading and writing are unchecked: the caller
/// keeps indices inside the column. Sendable because the parallel passes share one
/// column between chunks that touch disjoint elements, and join before the opener returns.
struct RawColumn<Element>: @unchecked Sendable, Equatable {
    /// The first element's address, as the C kernels take it.
    let base: UnsafeMutablePointer<Element>

    @inline(__always) init(_ base: UnsafeMutablePointer<Element>) { self.base = base }

    /// A column opened for reading: typed mutable like the C structs' fields, but the
    /// caller writes nothing through it.
    @inline(__always) init(reading base: UnsafePointer<Element>) { self.base = UnsafeMutablePointer(mutating: base) }

    @inline(__always) subscript(index: Int) -> Element {
        get { base[index] }
        nonmutating set { base[index] = newValue }
    }

    /// The column that starts `offset` elements later (a 4×4 table's row, say).
    @inline(__always) static func + (column: RawColumn, offset: Int) -> RawColumn { RawColumn(column.base + offset) }

    /// A value of type `T` from the bytes that start at element `index` (no alignment
    /// needed): four doubles as one `SIMD4<Double>`, eight mode bytes as one `UInt64`.
    @inline(__always) func load<T>(at index: Int, as type: T.Type) -> T {
        UnsafeRawPointer(base + index).loadUnaligned(as: type)
    }

    /// Stores `value`'s bytes from element `index` on (no alignment needed).
    @inline(__always) func store<T>(_ value: T, at index: Int) {
        UnsafeMutableRawPointer(base + index).storeBytes(of: value, as: T.self)
    }

    /// The first `count` elements as a list.
    @inline(__always) func prefix(_ count: Int) -> RawList<Element> { RawList(base, count: count) }

    /// Hints that element `index` will be read soon (a cache-line prefetch; no effect on
    /// results).
    @inline(__always) func prefetchForRead(_ index: Int) { BGPrefetchForRead(base + index) }

    /// Hints that element `index` will be written soon.
    @inline(__always) func prefetchForWrite(_ index: Int) { BGPrefetchForWrite(base + index) }

    /// Copies `count` elements of `source` over this column's first `count`.
    @inline(__always) func copy(from source: RawColumn, count: Int) { base.update(from: source.base, count: count) }

    /// Sets `count` elements from `index` on to `value`.
    @inline(__always) func fill(_ value: Element, from index: Int, count: Int) {
        (base + index).update(repeating: value, count: count)
    }
}

/// A column's address and length (a list of positions or layers, JSON bytes), valid
/// only inside the opener that made it (see the rule at the top of this file).
struct RawList<Element>: @unchecked Sendable, Sequence {
    /// Nil only when `count` is 0.
    private let base: UnsafeMutablePointer<Element>?
    let count: Int

    @inline(__always) init(_ base: UnsafeMutablePointer<Element>?, count: Int) {
        self.base = base
        self.count = count
    }

    @inline(__always) init(reading buffer: UnsafeBufferPointer<Element>) {
        base = buffer.baseAddress.map { UnsafeMutablePointer(mutating: $0) }
        count = buffer.count
    }

    @inline(__always) var isEmpty: Bool { count == 0 }

    @inline(__always) var last: Element? { count == 0 ? nil : self[count - 1] }

    /// The first element's address as a column; nil when the list is empty.
    @inline(__always) var column: RawColumn<Element>? { count == 0 ? nil : base.map { RawColumn($0) } }

    @inline(__always) subscript(index: Int) -> Element {
        get { base.unsafelyUnwrapped[index] }
        nonmutating set { base.unsafelyUnwrapped[index] = newValue }
    }

    /// Elements `range` (within `0..<count`) as a list of their own.
    @inline(__always) func slice(_ range: Range<Int>) -> RawList {
        RawList(range.isEmpty ? base : base.unsafelyUnwrapped + range.lowerBound, count: range.count)
    }

    /// The list as a buffer, for the standard library's algorithms over bytes (the JSON
    /// reader's `String(decoding:as:)`) and for `Sequence`.
    @inline(__always) var buffer: UnsafeBufferPointer<Element> { UnsafeBufferPointer(start: base, count: count) }

    @inline(__always) func makeIterator() -> UnsafeBufferPointer<Element>.Iterator { buffer.makeIterator() }

    /// The standard library's fast path for contiguous elements (`String(validating:)`).
    @inline(__always)
    func withContiguousStorageIfAvailable<R>(_ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows -> R? {
        try body(buffer)
    }
}

extension RawList where Element == UInt8 {
    /// The bytes `range` decoded as UTF-8 (invalid sequences become U+FFFD).
    func string(_ range: Range<Int>) -> String { String(decoding: slice(range).buffer, as: UTF8.self) }
}

extension RawColumn where Element == Transform3D {
    /// The matrices as 16 doubles each, row-major (`m11 … m44`), for a C kernel:
    /// `Transform3D` is its sixteen stored doubles in that order, a homogeneous
    /// aggregate of `Double` (TransformLaneKernelTests checks the layout).
    @inline(__always) var elements: RawColumn<Double> {
        RawColumn<Double>(UnsafeMutableRawPointer(base).assumingMemoryBound(to: Double.self))
    }
}

// MARK: - Openers

/// Calls `body` with the address of `array`'s elements for writing. `array` must not be
/// empty.
@inline(__always)
func withRawColumn<T, R>(_ array: inout [T], _ body: (RawColumn<T>) -> R) -> R {
    array.withUnsafeMutableBufferPointer { body(RawColumn($0.baseAddress!)) }
}

/// Calls `body` with the address of `array`'s elements for reading. `array` must not be
/// empty.
@inline(__always)
func withRawColumn<T, R>(reading array: [T], _ body: (RawColumn<T>) -> R) -> R {
    array.withUnsafeBufferPointer { body(RawColumn(reading: $0.baseAddress!)) }
}

/// Calls `body` with the address of `array`'s elements for writing, or nil when `array`
/// is empty.
@inline(__always)
func withOptionalRawColumn<T, R>(_ array: inout [T], _ body: (RawColumn<T>?) -> R) -> R {
    array.withUnsafeMutableBufferPointer { buffer in
        body(buffer.isEmpty ? nil : buffer.baseAddress.map { RawColumn($0) })
    }
}

/// Calls `body` with the address of `array`'s elements for reading, or nil when `array`
/// is empty or nil.
@inline(__always)
func withOptionalRawColumn<T, R>(reading array: [T]?, _ body: (RawColumn<T>?) -> R) -> R {
    guard let array else { return body(nil) }
    return array.withUnsafeBufferPointer { buffer in
        body(buffer.isEmpty ? nil : buffer.baseAddress.map { RawColumn(reading: $0) })
    }
}

/// Calls `body` with the bytes of `array`'s elements for writing (0 for false, 1 for
/// true; `body` may store other bytes but must leave 0 or 1 in each), or nil when
/// `array` is empty.
@inline(__always)
func withOptionalRawBytes<R>(_ array: inout [Bool], _ body: (RawColumn<UInt8>?) -> R) -> R {
    array.withUnsafeMutableBufferPointer { buffer in
        guard !buffer.isEmpty else { return body(nil) }
        return buffer.withMemoryRebound(to: UInt8.self) { body(RawColumn($0.baseAddress!)) }
    }
}

/// A new array of `count` elements of a trivial type, which `body` writes, each exactly
/// once, through the column (nil when `count` is 0) before anything reads them: no
/// fill first (a serial fill of a big array cost as much as a parallel pass).
@inline(__always)
func makeArrayUninitialized<T>(count: Int, _ body: (RawColumn<T>?) -> Void) -> [T] {
    [T](unsafeUninitializedCapacity: count) { buffer, initialized in
        body(count == 0 ? nil : buffer.baseAddress.map { RawColumn($0) })
        initialized = count
    }
}

/// Calls `body` with `array`'s elements as a list for writing (empty arrays allowed).
@inline(__always)
func withRawList<T, R>(_ array: inout [T], _ body: (RawList<T>) -> R) -> R {
    array.withUnsafeMutableBufferPointer { body(RawList($0.baseAddress, count: $0.count)) }
}

/// Calls `body` with `array`'s elements as a list for reading (empty arrays allowed).
@inline(__always)
func withRawList<T, R>(reading array: [T], _ body: (RawList<T>) -> R) -> R {
    array.withUnsafeBufferPointer { body(RawList(reading: $0)) }
}

/// `withRawList(reading:_:)` for a `body` that throws (the scene decoder).
@inline(__always)
func withThrowingRawList<T, R, E: Error>(reading array: [T], _ body: (RawList<T>) throws(E) -> R) throws(E) -> R {
    try array.withUnsafeBufferPointer { (buffer) throws(E) -> R in try body(RawList(reading: buffer)) }
}

extension Array where Element == Double {
    /// The 16 doubles from `offset` on as a row-major matrix (a matrix table's entry).
    /// (The closure is written here, inside the standard library's opener, rather than
    /// passed through `withRawColumn`: through two closures the release build left it
    /// outlined, and the 3D hit test read matrices 35% slower.)
    @inline(__always) func rowMajorMatrix(at offset: Int) -> Transform3D {
        withUnsafeBufferPointer { Transform3D(rowMajorAt: RawColumn(reading: $0.baseAddress! + offset)) }
    }

    /// Writes `matrix` in row-major order from `offset` on.
    @inline(__always) mutating func storeRowMajor(_ matrix: Transform3D, at offset: Int) {
        withUnsafeMutableBufferPointer { matrix.storeRowMajor(at: RawColumn($0.baseAddress! + offset)) }
    }
}

/// Calls `body` with the addresses of two columns for reading (neither empty).
@inline(__always)
func withRawColumns<T, R>(reading a: [T], _ b: [T], _ body: (RawColumn<T>, RawColumn<T>) -> R) -> R {
    withRawColumn(reading: a) { a in withRawColumn(reading: b) { b in body(a, b) } }
}

/// Calls `body` with the addresses of four columns for writing (none empty).
@inline(__always)
func withRawColumns<T, R>(
    _ a: inout [T], _ b: inout [T], _ c: inout [T], _ d: inout [T],
    _ body: (RawColumn<T>, RawColumn<T>, RawColumn<T>, RawColumn<T>) -> R
) -> R {
    withRawColumn(&a) { a in
        withRawColumn(&b) { b in withRawColumn(&c) { c in withRawColumn(&d) { d in body(a, b, c, d) } } }
    }
}

/// Calls `body` with the addresses of four columns for reading (none empty).
@inline(__always)
func withRawColumns<T, R>(
    reading a: [T], _ b: [T], _ c: [T], _ d: [T], _ body: (RawColumn<T>, RawColumn<T>, RawColumn<T>, RawColumn<T>) -> R
) -> R {
    withRawColumns(reading: a, b) { a, b in withRawColumns(reading: c, d) { c, d in body(a, b, c, d) } }
}

/// Calls `body` with `capacity` uninitialized elements of stack (or, when large, heap)
/// memory, which `body` must initialize before it reads them; trivial types only.
@inline(__always)
func withTemporaryColumn<T, R>(of type: T.Type, capacity: Int, _ body: (RawColumn<T>) -> R) -> R {
    withUnsafeTemporaryAllocation(of: type, capacity: Swift.max(1, capacity)) { body(RawColumn($0.baseAddress!)) }
}

/// Calls `body` with the address of a copy of `value` (for a C function that takes a
/// struct by pointer).
@inline(__always)
func withRawValue<T, R>(_ value: T, _ body: (UnsafePointer<T>) -> R) -> R {
    withUnsafePointer(to: value, body)
}

/// Calls `body` with `value`'s bytes as a column of `Element` (a SIMD vector's lanes, for
/// a C kernel that takes them as an array): `T` is `Element`s laid end to end, as every
/// `SIMDn<Element>` is. Writes through the column change `value`.
@inline(__always)
func withRawLanes<T, Element, R>(_ value: inout T, of type: Element.Type, _ body: (RawColumn<Element>) -> R) -> R {
    withUnsafeMutableBytes(of: &value) { body(RawColumn($0.baseAddress!.assumingMemoryBound(to: Element.self))) }
}

/// A raw pointer that chunks running on other threads may write through (each chunk
/// writes its own slot). (The tests' and older code's name for a `RawColumn`.)
struct SendablePointer<Element>: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<Element>
    init(_ pointer: UnsafeMutablePointer<Element>) { self.pointer = pointer }
}

/// True when `first` and `second` are the same allocation (one was assigned from the
/// other and neither has been written since): what the footprint count uses so that an
/// array shared between two caches is counted once. Empty arrays share nothing. O(1).
func sharesStorage<T>(_ first: [T], _ second: [T]) -> Bool {
    guard first.capacity > 0, second.capacity > 0 else { return false }
    return first.withUnsafeBufferPointer { a in second.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress } }
}

/// Hints that `array[index]` will be read soon (a cache-line prefetch; no effect on
/// results, nothing for an index outside the array). For loops over scattered layers
/// whose next elements are known ahead (the presentation's restore and apply). O(1);
/// no uniqueness check.
@inline(__always)
func prefetchElement<T>(_ array: [T], _ index: Int) {
    array.withUnsafeBufferPointer { buffer in
        guard index >= 0 && index < buffer.count, let base = buffer.baseAddress else { return }
        BGPrefetchForRead(base + index)
    }
}

/// Calls `body` with `values`' arrays by address (`PresentationCells`), its entries
/// counted without the `room` placeholders `reserveCells(room:)` just added, then keeps
/// the entries `body` added and drops the rest of the room. The slot map must cover the
/// model's slots (`reset(slotCount:)`).
func withPresentationCells<R>(
    _ values: inout PresentationValues, room: Int, _ body: (inout PresentationCells) -> R
) -> R {
    var count = values.layers.count - room
    let result = withRawColumn(&values.entries) { e in
        withRawColumn(&values.layers) { l in
            withRawColumn(&values.touched) { t in
                withRawColumn(&values.boundsColumn) { b in
                    withRawColumn(&values.positionColumn) { p in
                        withRawColumn(&values.anchorPointColumn) { a in
                            withRawColumns(&values.zPositionColumn, &values.anchorPointZColumn) { z, az in
                                withRawColumn(&values.opacityColumn) { o in
                                    withRawColumns(&values.transformColumn, &values.sublayerTransformColumn) { m, s in
                                        withRawColumn(&values.transformFunctionColumn) { f in
                                            withRawColumn(&values.transformArgumentColumn) { g in
                                                var cells = PresentationCells(
                                                    entries: e, layers: l, touched: t, bounds: b, position: p,
                                                    anchorPoint: a, zPosition: z, anchorPointZ: az, opacity: o,
                                                    transform: m, sublayerTransform: s, transformFunction: f,
                                                    transformArgument: g, count: count)
                                                defer { count = cells.count }
                                                return body(&cells)
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    values.finishCells(count: count)
    return result
}

/// Calls `body` with the addresses of two columns for writing (neither empty).
@inline(__always)
func withRawColumns<T, R>(_ a: inout [T], _ b: inout [T], _ body: (RawColumn<T>, RawColumn<T>) -> R) -> R {
    withRawColumn(&a) { a in withRawColumn(&b) { b in body(a, b) } }
}
