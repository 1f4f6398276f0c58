import XCTest

@testable import BatchGeometry

/// Everything observable about a store, read through the public API only (so it stays
/// valid whatever the columns look like inside): every per-layer property, the parent
/// links, every sublayer list and the roots. Doubles are kept as bit patterns, so NaN
/// payloads and signed zeros count, and a snapshot equals itself even with NaN inside.
struct StoreSnapshot: Equatable {
    var count: Int
    var doubles: [[UInt64]]  // one array per column, in a fixed order
    var transforms: [[UInt64]]  // transform(of:) then sublayerTransform(of:), 32 per layer
    var flags: [[Bool]]  // geometryFlipped, masksToBounds, hidden, isTransformLayer
    var parents: [Int?]
    var sublayers: [[Int]]
    var roots: [Int]
    var scrollViews: [ScrollViewState?]

    init(_ store: LayerStore) {
        count = store.count
        let layers = 0..<store.count
        let columns: [[Double]] = [
            store.boundsX, store.boundsY, store.boundsWidth, store.boundsHeight,
            store.positionX, store.positionY, store.anchorX, store.anchorY,
            store.zPositions, store.anchorPointZs,
        ]
        doubles = columns.map { $0.map(\.bitPattern) }
        transforms = layers.map { layer in
            (store.transform(of: layer).rowMajor + store.sublayerTransform(of: layer).rowMajor).map(\.bitPattern)
        }
        flags = layers.map {
            [store.isGeometryFlipped($0), store.masksToBounds($0), store.isHidden($0), store.isTransformLayer($0)]
        }
        parents = layers.map { store.superlayer(of: $0) }
        sublayers = layers.map { store.sublayers(of: $0) }
        roots = store.roots
        scrollViews = layers.map { store.scrollView(of: $0) }
    }
}

/// A small store with every kind of property set, so an unchanged snapshot means
/// something: two roots, a chain, a scroll view, flags, 3D transforms.
func makeRichStore() -> LayerStore {
    var store = LayerStore()
    for parent in [nil, 0, 1, 1, nil, 4, 2] as [Int?] { try! store.addLayer(superlayer: parent) }
    for layer in 0..<store.count {
        let k = Double(layer)
        store.setBounds(Rect(k, -k, 100 + k, 50 + 2 * k), of: layer)
        store.setPosition(Point(10 * k, 20 * k), of: layer)
        store.setAnchorPoint(Point(0.25 * k, 0.5), of: layer)
        store.setZPosition(k - 3, of: layer)
    }
    store.setTransform(.rotation(radians: 0.3, x: 0, y: 1, z: 0), of: 2)
    store.setSublayerTransform(.perspective(distance: 500), of: 1)
    store.setAffineTransform(.scale(x: 2, y: 3), of: 3)
    store.setGeometryFlipped(true, of: 1)
    store.setMasksToBounds(true, of: 4)
    store.setHidden(true, of: 6)
    store.setTransformLayer(true, of: 2)
    store.setScrollView(ScrollViewState(contentSize: Size(500, 900)), of: 5)
    return store
}

/// Every error `LayerStore`'s mutating API can throw: the exact error, and the store
/// (every column, every sublayer list, the cached world transforms) exactly as before.
final class StoreErrorTests: XCTestCase {
    /// Runs `body` on a copy of `store`, expects exactly `expected`, and checks that the
    /// store it ran on is unchanged, including what `updateWorld()` returns afterwards.
    private func assertThrows(
        _ expected: LayerStoreError, on store: LayerStore,
        file: StaticString = #filePath, line: UInt = #line,
        _ body: (inout LayerStore) throws -> Void
    ) {
        var mutated = store
        let before = StoreSnapshot(store)
        XCTAssertThrowsError(try body(&mutated), file: file, line: line) { error in
            XCTAssertEqual(error as? LayerStoreError, expected, file: file, line: line)
        }
        XCTAssertEqual(StoreSnapshot(mutated), before, "store changed by a failed call", file: file, line: line)
        // The incremental world state must not have been disturbed either.
        var reference = store
        let expectedWorld = reference.updateWorld(options: .serial(.scalar))
        let world = mutated.updateWorld(options: .serial(.scalar))
        for layer in 0..<store.count {
            XCTAssertEqual(
                world[layer].rowMajor.map(\.bitPattern), expectedWorld[layer].rowMajor.map(\.bitPattern),
                "world of layer \(layer)", file: file, line: line)
        }
    }

    func testAddLayerWithParentOutOfRange() {
        let store = makeRichStore()
        for parent in [7, 8, -1, Int.min, Int.max] {
            assertThrows(.parentOutOfRange(parent: parent, count: 7), on: store) { try $0.addLayer(superlayer: parent) }
        }
        var empty = LayerStore()
        XCTAssertThrowsError(try empty.addLayer(superlayer: 0)) {
            XCTAssertEqual($0 as? LayerStoreError, .parentOutOfRange(parent: 0, count: 0))
        }
    }

    func testAddLayerPastTheLimit() throws {
        var store = makeRichStore()
        store.layerLimit = 8
        try store.addLayer(superlayer: 3)  // the 8th layer fits
        assertThrows(.tooManyLayers(limit: 8), on: store) { try $0.addLayer() }
        assertThrows(.tooManyLayers(limit: 8), on: store) { try $0.addLayer(superlayer: 0) }
        // A bad parent is reported first: it is the caller's mistake, not the store's size.
        assertThrows(.parentOutOfRange(parent: 99, count: 8), on: store) { try $0.addLayer(superlayer: 99) }
        // Removing a layer makes room again.
        try store.destroyLayer(7)
        XCTAssertEqual(try store.addLayer(), 7)
    }

    func testTheRealLimitFitsInt32Indices() {
        XCTAssertEqual(LayerStore.maximumLayerCount, 2_147_483_646)
        XCTAssertEqual(LayerStore().layerLimit, LayerStore.maximumLayerCount)
    }

    func testSetParentOfMissingLayer() {
        let store = makeRichStore()
        for layer in [7, -1, 1_000_000] {
            assertThrows(.layerOutOfRange(layer: layer, count: 7), on: store) { try $0.insertSublayer(layer, into: 0) }
            assertThrows(.layerOutOfRange(layer: layer, count: 7), on: store) {
                try $0.insertSublayer(layer, into: nil)
            }
        }
    }

    func testSetParentToMissingParent() {
        let store = makeRichStore()
        for parent in [7, -1, -2, Int.max] {
            assertThrows(.parentOutOfRange(parent: parent, count: 7), on: store) {
                try $0.insertSublayer(3, into: parent)
            }
        }
    }

    func testSetParentThatMakesACycle() {
        let store = makeRichStore()
        // 0 -> 1 -> {2, 3}, 2 -> 6: each of these puts a layer under itself or a descendant.
        for (layer, parent) in [(0, 0), (0, 1), (0, 2), (0, 6), (1, 3), (1, 6), (2, 6), (4, 5), (6, 6)] {
            assertThrows(.cycle(layer: layer, parent: parent), on: store) { try $0.insertSublayer(layer, into: parent) }
            assertThrows(.cycle(layer: layer, parent: parent), on: store) {
                try $0.insertSublayer(layer, into: parent, at: 0)
            }
        }
    }

    func testSetParentWithSublayerIndexOutOfRange() {
        let store = makeRichStore()
        // Layer 1 has sublayers [2, 3]; moving 5 there allows positions 0...2.
        assertThrows(.sublayerIndexOutOfRange(index: 3, sublayerCount: 2), on: store) {
            try $0.insertSublayer(5, into: 1, at: 3)
        }
        assertThrows(.sublayerIndexOutOfRange(index: -1, sublayerCount: 2), on: store) {
            try $0.insertSublayer(5, into: 1, at: -1)
        }
        // Moving 3 within its own superlayer: the list without it is [2], positions 0...1.
        assertThrows(.sublayerIndexOutOfRange(index: 2, sublayerCount: 1), on: store) {
            try $0.insertSublayer(3, into: 1, at: 2)
        }
        // Roots are [0, 4]; making 5 a root allows positions 0...2.
        assertThrows(.sublayerIndexOutOfRange(index: 3, sublayerCount: 2), on: store) {
            try $0.insertSublayer(5, into: nil, at: 3)
        }
        assertThrows(.sublayerIndexOutOfRange(index: Int.min, sublayerCount: 2), on: store) {
            try $0.insertSublayer(5, into: nil, at: Int.min)
        }
    }

    func testErrorsAreCheckedInAFixedOrder() {
        let store = makeRichStore()
        // A missing layer is reported before a missing parent, a missing parent before an index.
        assertThrows(.layerOutOfRange(layer: 9, count: 7), on: store) { try $0.insertSublayer(9, into: 99, at: 99) }
        assertThrows(.parentOutOfRange(parent: 99, count: 7), on: store) { try $0.insertSublayer(3, into: 99, at: 99) }
        assertThrows(.cycle(layer: 1, parent: 2), on: store) { try $0.insertSublayer(1, into: 2, at: 99) }
    }

    func testRemoveMissingLayer() {
        let store = makeRichStore()
        for layer in [7, -1, Int.max, Int.min] {
            assertThrows(.layerOutOfRange(layer: layer, count: 7), on: store) { try $0.destroyLayer(layer) }
        }
        var empty = LayerStore()
        XCTAssertThrowsError(try empty.destroyLayer(0)) {
            XCTAssertEqual($0 as? LayerStoreError, .layerOutOfRange(layer: 0, count: 0))
        }
    }

    func testScrollErrors() {
        let store = makeRichStore()
        assertThrows(.notAScrollView(layer: 3), on: store) { _ = try $0.scroll(3, to: Point(1, 1)) }
        assertThrows(.layerOutOfRange(layer: 7, count: 7), on: store) { _ = try $0.scroll(7, to: Point(1, 1)) }
        assertThrows(.layerOutOfRange(layer: -1, count: 7), on: store) { _ = try $0.scroll(-1, to: Point(1, 1)) }
    }

    func testErrorDescriptionsNameWhatAndWhere() {
        XCTAssertEqual(
            LayerStoreError.parentOutOfRange(parent: 7, count: 7).description, "parent 7 is out of range (7 layers)")
        XCTAssertEqual(
            LayerStoreError.layerOutOfRange(layer: -1, count: 3).description, "layer -1 is out of range (3 layers)")
        XCTAssertEqual(LayerStoreError.cycle(layer: 4, parent: 4).description, "layer 4 cannot be its own superlayer")
        XCTAssertEqual(
            LayerStoreError.cycle(layer: 1, parent: 6).description,
            "making layer 6 the superlayer of layer 1 would make a cycle (6 is inside 1's subtree)")
        XCTAssertEqual(
            LayerStoreError.sublayerIndexOutOfRange(index: 3, sublayerCount: 2).description,
            "sublayer index 3 is out of range (2 sublayers)")
        XCTAssertEqual(LayerStoreError.tooManyLayers(limit: 8).description, "a store holds at most 8 layers")
        XCTAssertEqual(
            LayerStoreError.notAScrollView(layer: 3).description, "layer 3 is not a scroll view (it has no contentSize)"
        )
    }

    /// A failed call after a successful one must not undo or disturb the successful one.
    func testFailureAfterSuccessKeepsTheSuccess() throws {
        var store = makeRichStore()
        try store.insertSublayer(5, into: 1, at: 0)
        let after = StoreSnapshot(store)
        XCTAssertThrowsError(try store.insertSublayer(1, into: 5))
        XCTAssertEqual(StoreSnapshot(store), after)
        XCTAssertEqual(store.sublayers(of: 1), [5, 2, 3])
    }
}
