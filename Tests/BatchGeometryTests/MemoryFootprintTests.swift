import XCTest

@testable import BatchGeometry

/// `LayerStore.memoryFootprint` against byte counts written out by hand from the
/// declarations of `LayerColumns`, `TransformColumns`, `LayerAttributes`,
/// `LayerHierarchy` and `ChangeTracker`: a column left out of the count (or a new one
/// not added to it) fails here.
final class MemoryFootprintTests: XCTestCase {
    /// The bytes an array of `T` reserved to `capacity` holds: the allocator may round the
    /// capacity up (glibc's usable size), the same way for the store's columns.
    static func reservedBytes<T>(_ type: T.Type, _ capacity: Int) -> Int {
        var probe: [T] = []
        probe.reserveCapacity(capacity)
        return probe.capacity * MemoryLayout<T>.stride
    }

    /// From `LayerColumns`' declarations: ten `Double` columns (bounds x, y, width,
    /// height, position x, y, anchor x, y, zPosition, anchorPointZ), the materialized
    /// `transforms` (a one-byte `TransformKind` and six `Double`s; the unmaterialized
    /// `sublayerTransforms` and the empty non-affine entries cost nothing), a one-byte
    /// `LayerFlags`, a one-byte autoresizing mask, a `Float` opacity and a `Bool`
    /// interaction flag: 136 bytes a slot.
    static func columnBytes(capacity m: Int) -> Int {
        (10 + 6) * reservedBytes(Double.self, m) + 4 * reservedBytes(UInt8.self, m) + reservedBytes(Float.self, m)
    }

    /// From `LayerHierarchy`: a `UInt32` generation and five `Int32` links (parent, first
    /// and last sublayer, next and previous sibling): 24 bytes a slot.
    static func hierarchyBytes(capacity m: Int) -> Int {
        reservedBytes(UInt32.self, m) + 5 * reservedBytes(Int32.self, m)
    }

    func testReservedStoreCountsEveryColumnAtItsCapacity() throws {
        let capacity = 4096
        var store = LayerStore(minimumCapacity: capacity)
        let root = try store.addLayer()
        for _ in 0..<999 { _ = try store.addLayer(superlayer: root) }
        let footprint = store.memoryFootprint
        XCTAssertEqual(footprint.columns, Self.columnBytes(capacity: capacity))
        XCTAssertEqual(footprint.columns / capacity, 136)
        XCTAssertEqual(footprint.hierarchy, Self.hierarchyBytes(capacity: capacity))
        XCTAssertEqual(footprint.hierarchy / capacity, 24)
        // Nothing built yet: only the change tracker's one byte per slot, reserved up front,
        // and its list of the layers added.
        let dirtyList = store.caches.changes.dirtyLayers.capacity * 4
        XCTAssertEqual(footprint.worldCache, Self.reservedBytes(UInt8.self, capacity) + dirtyList)
        XCTAssertEqual(footprint.queryCaches, 0)
        XCTAssertEqual(footprint.total, footprint.columns + footprint.hierarchy + footprint.worldCache)
    }

    func testBuildingTheCachesAddsTheirBytesAndTheTotalIsTheSum() throws {
        var store = FrameQueryTests.makeStore(seed: 7)
        let first = try XCTUnwrap(store.roots.first)
        try store.setZPosition(1, of: XCTUnwrap(store.sublayers(of: first).first))  // a sorted list to cache
        let cold = store.memoryFootprint
        store.warmUp(options: .serial(.scalar))
        let warm = store.memoryFootprint
        let n = store.count
        XCTAssertEqual(warm.columns, cold.columns)
        XCTAssertEqual(warm.hierarchy, cold.hierarchy)
        // The world transforms' and the plan's six affine columns at least.
        XCTAssertGreaterThanOrEqual(warm.worldCache - cold.worldCache, 2 * n * 6 * 8)
        // Subtree bounds: two 32-byte boxes, a state byte, an index entry and an order label.
        XCTAssertGreaterThanOrEqual(warm.queryCaches, n * (2 * 32 + 1 + 4 + 8))
        XCTAssertEqual(warm.total, warm.columns + warm.hierarchy + warm.worldCache + warm.queryCaches + warm.scratch)
        _ = store.visibleLayers(in: Rect(x: 0, y: 0, width: 400, height: 800))
        XCTAssertGreaterThanOrEqual(store.memoryFootprint.total, warm.total)
    }

    func testMaterializingSublayerTransformsAndScrollViewsAddTheirColumns() throws {
        var store = LayerStore(minimumCapacity: 64)
        let root = try store.addLayer()
        for _ in 0..<63 { _ = try store.addLayer(superlayer: root) }
        let before = store.memoryFootprint.columns
        store.setSublayerTransform(.scale(x: 2, y: 2), of: root)
        let materialized = store.memoryFootprint.columns
        XCTAssertGreaterThanOrEqual(materialized - before, 64 * (1 + 6 * 8))
        store.setScrollView(ScrollViewState(contentSize: Size(width: 10, height: 10)), of: root)
        let entryStride = MemoryLayout<Int32>.stride + MemoryLayout<ScrollViewState>.stride
        XCTAssertEqual(store.memoryFootprint.columns - materialized, store.columns.scrollViews.capacity * entryStride)
        XCTAssertGreaterThan(store.columns.scrollViews.capacity, 0)
    }
}
