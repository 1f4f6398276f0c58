import XCTest

@_spi(Testing) @testable import BatchGeometry

/// `LayerStore.memoryFootprint` against byte counts written out by hand from the
/// declarations of `LayerColumns`, `TransformColumns`, `LayerAttributes`,
/// `LayerHierarchy` and `ChangeTracker`: a column left out of the count (or a new one
/// not added to it) fails here.
final class MemoryFootprintTests: XCTestCase {
    /// The bytes of one column: its capacity (the allocator may round a reservation up,
    /// by an amount that depends on what it reuses) × its element's stride, written by hand.
    static func bytes<T>(_ column: [T], stride: Int) -> Int { column.capacity * stride }
    static func bytes<T>(_ column: RemappedColumn<T>, stride: Int) -> Int { column.capacity * stride }

    /// From `LayerColumns`' declarations, each array with its element's size: eight `Double`
    /// columns, the sparse z values (an `Int32` slot a layer once one has an entry, and a
    /// side table of two `Double`s an entry: nothing while every z value is zero), the materialized `transforms` (a one-byte `TransformKind` and six
    /// `Double`s; the unmaterialized `sublayerTransforms` and the empty side table hold
    /// nothing), a one-byte `LayerFlags`, a one-byte autoresizing mask, a `Float`
    /// opacity and a `Bool` interaction flag: 120 bytes a slot.
    static func columnBytes(_ c: LayerColumns) -> Int {
        let geometry =
            [c.boundsX, c.boundsY, c.boundsWidth, c.boundsHeight, c.positionX, c.positionY]
            + [c.anchorX, c.anchorY]
        let t = c.transforms
        let affine: [RemappedColumn<Double>] = [t.a, t.b, t.c, t.d, t.tx, t.ty]
        let doubles =
            geometry.map { bytes($0, stride: 8) }.reduce(0, +) + affine.map { bytes($0, stride: 8) }.reduce(0, +)
        let bytesOfFlags: Int =
            bytes(t.kind, stride: 1) + bytes(c.flags, stride: 1) + bytes(c.autoresizingMasks, stride: 1)
        let attributes: Int =
            bytes(c.attributes.opacities, stride: 4) + bytes(c.attributes.interactionEnabled, stride: 1)
        let z = bytes(c.zValues.slots, stride: 4) + bytes(c.zValues.entries, stride: 8)
        return doubles + bytesOfFlags + attributes + z
    }

    /// From `LayerHierarchy`: a `UInt32` generation and five `Int32` links (parent, first
    /// and last sublayer, next and previous sibling): 24 bytes a slot; no free slot yet.
    static func hierarchyBytes(_ h: LayerHierarchy) -> Int {
        let links = [h.parents, h.firstSublayers, h.lastSublayers, h.nextSiblings, h.previousSiblings]
        return bytes(h.generations, stride: 4) + links.map { bytes($0, stride: 4) }.reduce(0, +)
    }

    /// The stored properties the counts above were written from: a property added to one
    /// of these types fails here until it is added to the count (and to the test).
    func testTheCountedTypesHaveTheFieldsTheCountNames() {
        XCTAssertEqual(Mirror(reflecting: LayerColumns()).children.count, 18)
        // count, slots, entries, nonFiniteCount, reservedCapacity: two arrays counted.
        XCTAssertEqual(Mirror(reflecting: ZValueColumns()).children.count, 5)
        XCTAssertEqual(Mirror(reflecting: LayerAttributes()).children.count, 2)
        XCTAssertEqual(Mirror(reflecting: TransformColumns(count: 0, denseAffine: false)).children.count, 14)
        // 14 with `storeTag`, a scalar: nothing a slot, nothing to count.
        XCTAssertEqual(Mirror(reflecting: LayerHierarchy()).children.count, 14)
    }

    func testReservedStoreCountsEveryColumnAtItsCapacity() throws {
        let capacity = 4096
        var store = LayerStore(minimumCapacity: capacity)
        let root = try store.addLayer()
        for _ in 0..<999 { _ = try store.addLayer(superlayer: root) }
        let footprint = store.memoryFootprint
        XCTAssertEqual(footprint.columns, Self.columnBytes(store.columns))
        XCTAssertEqual(footprint.columns / capacity, 120)
        XCTAssertEqual(footprint.hierarchy, Self.hierarchyBytes(store.hierarchy))
        XCTAssertEqual(footprint.hierarchy / capacity, 24)
        // Nothing built yet: only the change tracker's one byte per slot, reserved up front,
        // its list of the layers added, and the edit log's fixed ring.
        let changes = store.caches.changes
        XCTAssertEqual(
            footprint.worldCache,
            Self.bytes(changes.dirtyStates, stride: 1) + Self.bytes(changes.dirtyLayers, stride: 4)
                + Self.bytes(store.caches.editLog.ring, stride: 4))
        XCTAssertEqual(footprint.queryCaches, 0)
        XCTAssertEqual(footprint.total, footprint.columns + footprint.hierarchy + footprint.worldCache)
    }

    func testBuildingTheCachesAddsTheirBytesAndTheTotalIsTheSum() throws {
        var store = FrameQueryTests.makeStore(seed: 7)
        let first = try XCTUnwrap(store.roots.first)
        try store.setZPosition(1, of: XCTUnwrap(store.sublayers(of: first).first))  // a sorted list to cache
        let cold = store.memoryFootprint
        let coldFreeSlots = store.hierarchy.freeSlots.capacity
        let coldZEntries = store.columns.zValues.entries.capacity
        store.warmUp(options: .serial(.scalar))
        let warm = store.memoryFootprint
        let n = store.count
        // The columns: only the z values' side table, reserved for a frame's zPositions.
        let zEntries = store.columns.zValues.entries
        XCTAssertGreaterThanOrEqual(zEntries.capacity, zEntries.count + 2 * LayerStore.warmUpEditScratch)
        XCTAssertEqual(warm.columns - cold.columns, (zEntries.capacity - coldZEntries) * 8)
        // The hierarchy: only the free-slot list, reserved for a frame's destroys.
        let freeSlots = store.hierarchy.freeSlots
        XCTAssertGreaterThanOrEqual(freeSlots.capacity, freeSlots.count + LayerStore.warmUpEditScratch)
        XCTAssertEqual(warm.hierarchy - cold.hierarchy, (freeSlots.capacity - coldFreeSlots) * 4)
        // The world transforms' and the plan's six affine columns at least.
        XCTAssertGreaterThanOrEqual(warm.worldCache - cold.worldCache, 2 * n * 6 * 8)
        // Subtree bounds, per layer: an extent box, a content slot, a state byte, an index
        // slot and a drift slot (the content boxes, drift references, order labels and
        // index entries are side tables, sized by what uses them).
        XCTAssertGreaterThanOrEqual(warm.queryCaches, n * (32 + 4 + 1 + 4 + 4))
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
        // Sparse: a kind byte and an entry slot a layer, and one 16-Double entry.
        let sublayerTransforms = store.columns.sublayerTransforms
        XCTAssertEqual(
            materialized - before,
            Self.bytes(sublayerTransforms.kind, stride: 1) + Self.bytes(sublayerTransforms.entrySlots, stride: 4)
                + Self.bytes(sublayerTransforms.entries, stride: 8))
        XCTAssertEqual(sublayerTransforms.entries.count, 16)
        XCTAssertLessThan(materialized - before, 64 * (1 + 6 * 8))
        store.setScrollView(ScrollViewState(contentSize: Size(width: 10, height: 10)), of: root)
        let entryStride = MemoryLayout<Int32>.stride + MemoryLayout<ScrollViewState>.stride
        XCTAssertEqual(store.memoryFootprint.columns - materialized, store.columns.scrollViews.capacity * entryStride)
        XCTAssertGreaterThan(store.columns.scrollViews.capacity, 0)
    }

    /// Order labels and index entries only for the sublayers of indexed lists (≥ 64
    /// sublayers), in the drift side table: the layers of a short list and the list layers
    /// themselves get no entry, the labels follow list order through an insert and a
    /// removal, and each entry names the sublayer's leaf in its list's R-tree.
    func testOrderLabelsAreKeptOnlyForTheSublayersOfIndexedLists() throws {
        var store = LayerStore(minimumCapacity: 256)
        let root = try store.addLayer()
        store.setBounds(Rect(x: 0, y: 0, width: 400, height: 800), of: root)
        let wide = try store.addLayer(superlayer: root)
        let short = try store.addLayer(superlayer: root)
        var rows: [LayerHandle] = []
        for k in 0..<100 {
            let row = try store.addLayer(superlayer: wide)
            store.setBounds(Rect(x: 0, y: 0, width: 40, height: 10), of: row)
            store.setPosition(Point(x: 20, y: Double(10 * k)), of: row)
            rows.append(row)
        }
        var shortRows: [LayerHandle] = []
        for _ in 0..<10 { shortRows.append(try store.addLayer(superlayer: short)) }
        store.warmUp(options: .serial(.scalar))
        _ = store.visibleLayers(in: Rect(x: 0, y: 0, width: 400, height: 800))
        let bounds = store.caches.subtreeBounds
        XCTAssertTrue(bounds.hasIndex(wide.index))
        for layer in [root, wide, short] + shortRows {
            XCTAssertEqual(bounds.drift.referenceSlots[layer.index], -1)
            XCTAssertEqual(bounds.indexEntry(of: layer.index), -1)
        }
        XCTAssertFalse(store.caches.subtreeBounds.hasIndex(short.index))
        XCTAssertEqual(bounds.drift.leaves.count, bounds.drift.references.count)
        let index = bounds.index(of: wide.index)
        for row in rows {
            let leaf = Int(bounds.indexEntry(of: row.index))
            XCTAssertTrue(leaf >= 0 && index.sublayers[leaf] == Int32(row.index))
        }
        let labels = rows.map { bounds.orderLabel(of: $0.index) }
        XCTAssertEqual(labels, labels.sorted())
        XCTAssertEqual(Set(labels).count, labels.count)
        XCTAssertEqual(bounds.drift.orderLabels.count, bounds.drift.references.count)
        XCTAssertEqual(bounds.drift.orderLabels.count, rows.count)
        // An insert between two rows gets a label between theirs; the caches stay sound.
        let inserted = try store.addLayer()
        try store.insertSublayer(inserted, into: wide, at: 50)
        try store.removeFromSuperlayer(rows[10])
        _ = store.visibleLayers(in: Rect(x: 0, y: 0, width: 400, height: 800))
        let after = store.caches.subtreeBounds
        let label = after.orderLabel(of: inserted.index)
        XCTAssertGreaterThan(label, after.orderLabel(of: rows[49].index))
        XCTAssertLessThan(label, after.orderLabel(of: rows[50].index))
        // The removed row keeps its side-table entry (a slot is never given back) with no
        // leaf; the inserted one has a leaf in the list's tree.
        XCTAssertGreaterThanOrEqual(after.drift.referenceSlots[rows[10].index], 0)
        XCTAssertEqual(after.indexEntry(of: rows[10].index), -1)
        let leaf = Int(after.indexEntry(of: inserted.index))
        XCTAssertTrue(leaf >= 0 && after.index(of: wide.index).sublayers[leaf] == Int32(inserted.index))
        XCTAssertEqual(after.drift.leaves.count, after.drift.references.count)
        XCTAssertEqual(store._invariantViolations(), [])
    }
}
