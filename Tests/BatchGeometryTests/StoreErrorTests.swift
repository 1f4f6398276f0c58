import XCTest

@_spi(Testing) @testable import BatchGeometry

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
    var generations: [UInt32]
    var freeSlots: [Int32]
    var scrollViews: [ScrollViewState?]

    init(_ store: borrowing LayerStore) {
        count = store.count
        let layers = 0..<store.count
        let columns: [GeometryColumn] = [
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
        roots = store.rootIndices
        generations = Array(store.hierarchy.generations)
        freeSlots = store.hierarchy.freeSlots
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
        _ expected: LayerStoreError, on store: borrowing LayerStore,
        file: StaticString = #filePath, line: UInt = #line,
        _ body: (inout LayerStore) throws -> Void
    ) {
        var mutated = store.copy()
        let before = StoreSnapshot(store)
        XCTAssertThrowsError(try body(&mutated), file: file, line: line) { error in
            XCTAssertEqual(error as? LayerStoreError, expected, file: file, line: line)
        }
        XCTAssertEqual(StoreSnapshot(mutated), before, "store changed by a failed call", file: file, line: line)
        // The incremental world state must not have been disturbed either.
        var reference = store.copy()
        let expectedWorld = reference.updateWorld(options: .serial(.scalar))
        let world = mutated.updateWorld(options: .serial(.scalar))
        for layer in 0..<store.count {
            XCTAssertEqual(
                world[layer].rowMajor.map(\.bitPattern), expectedWorld[layer].rowMajor.map(\.bitPattern),
                "world of layer \(layer)", file: file, line: line)
        }
    }

    /// Handles of the rich store's layers (slot k holds layer k, generation 0).
    private func handles(_ store: borrowing LayerStore) -> [LayerHandle] {
        (0..<store.count).map { store.handle(at: $0)! }
    }

    /// A handle the rich store never issued (slot out of range), and one to a layer
    /// destroyed after the snapshot was taken.
    private let missing = [
        LayerHandle(rawValue: 7), LayerHandle(rawValue: 1 << 32 | 3), LayerHandle(rawValue: 2 << 32 | 3),
        LayerHandle(rawValue: .max),
    ]

    func testAddLayerWithStaleSuperlayer() {
        let store = makeRichStore()
        for superlayer in missing {
            assertThrows(.staleSuperlayer(superlayer), on: store) { try $0.addLayer(superlayer: superlayer) }
        }
        var empty = LayerStore()
        XCTAssertThrowsError(try empty.addLayer(superlayer: LayerHandle(rawValue: 0))) {
            XCTAssertEqual($0 as? LayerStoreError, .staleSuperlayer(LayerHandle(rawValue: 0)))
        }
    }

    func testAddLayerPastTheLimit() throws {
        var store = makeRichStore()
        let layers = handles(store)
        store.hierarchy.layerLimit = 8
        try store.addLayer(superlayer: layers[3])  // the 8th layer fits
        assertThrows(.tooManyLayers(limit: 8), on: store) { try $0.addLayer() }
        assertThrows(.tooManyLayers(limit: 8), on: store) { try $0.addLayer(superlayer: layers[0]) }
        // A bad superlayer is reported first: it is the caller's mistake, not the store's size.
        assertThrows(.staleSuperlayer(missing[2]), on: store) { try $0.addLayer(superlayer: self.missing[2]) }
        // Destroying a layer makes room again: its slot is reused under a new generation.
        try store.destroyLayer(store.handle(at: 7)!)
        let reused = try store.addLayer()
        XCTAssertEqual(reused.index, 7)
        XCTAssertEqual(reused.generation, 2, "odd while free, the next even value once reused")
    }

    func testTheRealLimitFitsInt32Indices() {
        XCTAssertEqual(LayerStore.maximumLayerCount, 2_147_483_646)
        XCTAssertEqual(LayerStore().hierarchy.layerLimit, LayerStore.maximumLayerCount)
    }

    func testInsertStaleLayer() {
        let store = makeRichStore()
        let layers = handles(store)
        for layer in missing {
            assertThrows(.staleLayer(layer), on: store) { try $0.insertSublayer(layer, into: layers[0]) }
            assertThrows(.staleLayer(layer), on: store) { try $0.insertSublayer(layer, into: nil) }
            assertThrows(.staleLayer(layer), on: store) { try $0.removeFromSuperlayer(layer) }
            assertThrows(.staleLayer(layer), on: store) { try $0.destroyLayer(layer) }
        }
    }

    func testInsertIntoStaleSuperlayer() {
        let store = makeRichStore()
        let layers = handles(store)
        for superlayer in missing {
            assertThrows(.staleSuperlayer(superlayer), on: store) { try $0.insertSublayer(layers[3], into: superlayer) }
        }
    }

    func testInsertThatMakesACycle() {
        let store = makeRichStore()
        let l = handles(store)
        // 0 -> 1 -> {2, 3}, 2 -> 6: each of these puts a layer under itself or a descendant.
        for (layer, superlayer) in [(0, 0), (0, 1), (0, 2), (0, 6), (1, 3), (1, 6), (2, 6), (4, 5), (6, 6)] {
            assertThrows(.cycle(layer: l[layer], superlayer: l[superlayer]), on: store) {
                try $0.insertSublayer(l[layer], into: l[superlayer])
            }
            assertThrows(.cycle(layer: l[layer], superlayer: l[superlayer]), on: store) {
                try $0.insertSublayer(l[layer], into: l[superlayer], at: 0)
            }
        }
    }

    func testInsertWithSublayerIndexOutOfRange() {
        let store = makeRichStore()
        let l = handles(store)
        // Layer 1 has sublayers [2, 3]; moving 5 there allows positions 0...2.
        assertThrows(.sublayerIndexOutOfRange(index: 3, sublayerCount: 2), on: store) {
            try $0.insertSublayer(l[5], into: l[1], at: 3)
        }
        assertThrows(.sublayerIndexOutOfRange(index: -1, sublayerCount: 2), on: store) {
            try $0.insertSublayer(l[5], into: l[1], at: -1)
        }
        // Moving 3 within its own superlayer: the list without it is [2], positions 0...1.
        assertThrows(.sublayerIndexOutOfRange(index: 2, sublayerCount: 1), on: store) {
            try $0.insertSublayer(l[3], into: l[1], at: 2)
        }
        // Roots are [0, 4]; making 5 a root allows positions 0...2.
        assertThrows(.sublayerIndexOutOfRange(index: 3, sublayerCount: 2), on: store) {
            try $0.insertSublayer(l[5], into: nil, at: 3)
        }
        assertThrows(.sublayerIndexOutOfRange(index: Int.min, sublayerCount: 2), on: store) {
            try $0.insertSublayer(l[5], into: nil, at: Int.min)
        }
    }

    func testErrorsAreCheckedInAFixedOrder() {
        let store = makeRichStore()
        let l = handles(store)
        // A stale layer is reported before a stale superlayer, that before a cycle or an index.
        assertThrows(.staleLayer(missing[0]), on: store) {
            try $0.insertSublayer(self.missing[0], into: self.missing[1], at: 99)
        }
        assertThrows(.staleSuperlayer(missing[1]), on: store) {
            try $0.insertSublayer(l[3], into: self.missing[1], at: 99)
        }
        assertThrows(.cycle(layer: l[1], superlayer: l[2]), on: store) {
            try $0.insertSublayer(l[1], into: l[2], at: 99)
        }
    }

    /// A handle to a destroyed layer is stale for every structure edit, also after its
    /// slot is reused; the new layer's handle works.
    func testDestroyedLayersHandlesAreStaleEverywhere() throws {
        var store = makeRichStore()
        let l = handles(store)
        try store.destroyLayer(l[1])  // 1 with 2, 3 and 6
        for layer in [l[1], l[2], l[3], l[6]] {
            XCTAssertFalse(store.contains(layer))
            assertThrows(.staleLayer(layer), on: store) { try $0.destroyLayer(layer) }
            assertThrows(.staleSuperlayer(layer), on: store) { try $0.addLayer(superlayer: layer) }
        }
        let newcomer = try store.addLayer(superlayer: l[4])
        XCTAssertTrue([1, 2, 3, 6].contains(newcomer.index))
        XCTAssertEqual(newcomer.generation, 2)
        XCTAssertFalse(store.contains(l[newcomer.index]))
        assertThrows(.staleLayer(l[newcomer.index]), on: store) { try $0.removeFromSuperlayer(l[newcomer.index]) }
        XCTAssertEqual(store.superlayer(of: newcomer), l[4])
    }

    func testScrollErrors() {
        let store = makeRichStore()
        let l = handles(store)
        assertThrows(.notAScrollView(layer: l[3]), on: store) { _ = try $0.scroll(l[3], to: Point(1, 1)) }
        for layer in missing {
            assertThrows(.staleLayer(layer), on: store) { _ = try $0.scroll(layer, to: Point(1, 1)) }
        }
    }

    func testErrorDescriptionsNameWhatAndWhere() {
        let layer4 = LayerHandle(rawValue: 4)
        let layer1 = LayerHandle(rawValue: 1 << 32 | 1)
        XCTAssertEqual(
            LayerStoreError.staleSuperlayer(layer1).description,
            "superlayer layer 1#1 is stale: no live layer of this store has that handle (destroyed, or never this store's)"
        )
        XCTAssertEqual(
            LayerStoreError.staleLayer(layer4).description,
            "layer 4#0 is stale: no live layer of this store has that handle (destroyed, or never this store's)")
        XCTAssertEqual(
            LayerStoreError.cycle(layer: layer4, superlayer: layer4).description,
            "layer 4#0 cannot be its own superlayer")
        XCTAssertEqual(
            LayerStoreError.cycle(layer: layer1, superlayer: layer4).description,
            "making layer 4#0 the superlayer of layer 1#1 would make a cycle (it is inside layer 1#1's subtree)")
        XCTAssertEqual(
            LayerStoreError.sublayerIndexOutOfRange(index: 3, sublayerCount: 2).description,
            "sublayer index 3 is out of range (2 sublayers)")
        XCTAssertEqual(LayerStoreError.tooManyLayers(limit: 8).description, "a store holds at most 8 layers")
        XCTAssertEqual(
            LayerStoreError.notAScrollView(layer: layer4).description,
            "layer 4#0 is not a scroll view (it has no contentSize)"
        )
    }

    /// A failed call after a successful one must not undo or disturb the successful one.
    func testFailureAfterSuccessKeepsTheSuccess() throws {
        var store = makeRichStore()
        let l = handles(store)
        try store.insertSublayer(l[5], into: l[1], at: 0)
        let after = StoreSnapshot(store)
        XCTAssertThrowsError(try store.insertSublayer(l[1], into: l[5]))
        XCTAssertEqual(StoreSnapshot(store), after)
        XCTAssertEqual(store.sublayers(of: l[1]), [l[5], l[2], l[3]])
    }
}

/// Another store's handles: every structure edit throws `.foreignLayer` or
/// `.foreignSuperlayer` (store unchanged), `contains` answers false, and copies keep
/// accepting their original's handles. The accessors stop the program: MisuseMessageTests.
final class ForeignHandleTests: XCTestCase {
    /// Two stores built the same way hand out handles with the same slots and generations;
    /// only the store tag tells them apart.
    func testAnotherStoresHandlesAreRejectedByEveryEdit() throws {
        let store = makeRichStore()
        let other = makeRichStore()
        let mine = (0..<store.count).map { store.handle(at: $0)! }
        let theirs = (0..<other.count).map { other.handle(at: $0)! }
        XCTAssertEqual(mine.map(\.index), theirs.map(\.index))
        XCTAssertEqual(mine.map(\.generation), theirs.map(\.generation))
        XCTAssertNotEqual(mine, theirs)
        let before = StoreSnapshot(store)
        for (layer, own) in zip(theirs, mine) {
            XCTAssertFalse(store.contains(layer))
            XCTAssertTrue(store.contains(own))
            var edited = store.copy()
            let edits: [(LayerStoreError, (inout LayerStore) throws -> Void)] = [
                (.foreignSuperlayer(layer), { _ = try $0.addLayer(superlayer: layer) }),
                (.foreignSuperlayer(layer), { _ = try $0.addLayer(superlayer: layer, at: 0) }),
                (.foreignLayer(layer), { try $0.insertSublayer(layer, into: mine[0]) }),
                (.foreignSuperlayer(layer), { try $0.insertSublayer(mine[6], into: layer) }),
                (.foreignLayer(layer), { try $0.removeFromSuperlayer(layer) }),
                (.foreignLayer(layer), { try $0.destroyLayer(layer) }),
                (.foreignLayer(layer), { _ = try $0.scroll(layer, to: Point(1, 1)) }),
            ]
            for (expected, edit) in edits {
                XCTAssertThrowsError(try edit(&edited)) { XCTAssertEqual($0 as? LayerStoreError, expected) }
            }
            XCTAssertEqual(StoreSnapshot(edited), before, "a rejected edit changed the store")
        }
        XCTAssertEqual(
            LayerStoreError.foreignLayer(theirs[3]).description,
            "layer 3#0 belongs to another store (store tag \(other.hierarchy.storeTag)): a handle works only with "
                + "the store that made it and its copies")
        XCTAssertEqual(
            LayerStoreError.foreignSuperlayer(theirs[1]).description,
            "superlayer layer 1#0 belongs to another store (store tag \(other.hierarchy.storeTag)): a handle works "
                + "only with the store that made it and its copies")
        XCTAssertEqual(
            store.staleHandleMessage(theirs[2]),
            "layer 2#0 belongs to another store (store tag \(other.hierarchy.storeTag); this store's is "
                + "\(store.hierarchy.storeTag)): a handle works only with the store that made it and its copies")
    }

    /// A copy keeps the store tag: it takes the original's handles for every kind of call,
    /// and a layer added to either later is the other's stale handle, not a foreign one.
    func testCopiesAcceptTheOriginalsHandles() throws {
        var store = makeRichStore()
        let l = (0..<store.count).map { store.handle(at: $0)! }
        var copy = store.copy()
        XCTAssertEqual(copy.hierarchy.storeTag, store.hierarchy.storeTag)
        XCTAssertTrue(l.allSatisfy { copy.contains($0) })
        copy.setPosition(Point(7, 8), of: l[3])
        XCTAssertEqual(copy.position(of: l[3]), Point(7, 8))
        try copy.insertSublayer(l[6], into: l[0])
        XCTAssertEqual(copy.superlayer(of: l[6]), l[0])
        let added = try copy.addLayer(superlayer: l[4])
        XCTAssertFalse(store.contains(added))
        XCTAssertThrowsError(try store.destroyLayer(added)) {
            XCTAssertEqual($0 as? LayerStoreError, .staleLayer(added))
        }
        XCTAssertEqual(store.staleHandleMessage(added), "layer 7#0 is stale: this store has no slot 7 (7 slots)")
        // A copy of a copy keeps the tag too, and so do the presentation stores built by copy().
        let again = copy.copy()
        XCTAssertTrue(again.contains(added) && again.contains(l[0]))
        try store.destroyLayer(l[2])
        XCTAssertTrue(copy.contains(l[2]), "the copy's layers live on")
    }

    /// Every new store takes a tag no other live store in this test has (they repeat only
    /// every `LayerHandle.tagCount` stores), and never 0 or 4,095, the tags of made-up
    /// handles and of BG_LAYER_NONE.
    func testNewStoresTakeNewTags() {
        let tags = (0..<64).map { _ in LayerStore().hierarchy.storeTag }
        XCTAssertEqual(Set(tags).count, tags.count)
        XCTAssertTrue(tags.allSatisfy { $0 >= 1 && $0 <= LayerHandle.tagCount })
        XCTAssertEqual(LayerHandle.tagCount, 4_094)
        XCTAssertEqual(LayerHandle(rawValue: .max).storeTag, 4_095)
        XCTAssertEqual(MemoryLayout<LayerHandle>.size, 8, "the tag lives in the 64 bits")
    }

    /// A made-up handle (tag 0) is stale, not foreign: its message says no layer had it.
    func testMadeUpHandlesAreStale() throws {
        var store = LayerStore()
        let root = try store.addLayer()
        let madeUp = LayerHandle(rawValue: 0)
        XCTAssertEqual(madeUp.index, root.index)
        XCTAssertEqual(madeUp.generation, root.generation)
        XCTAssertFalse(store.contains(madeUp))
        XCTAssertThrowsError(try store.destroyLayer(madeUp)) {
            XCTAssertEqual($0 as? LayerStoreError, .staleLayer(madeUp))
        }
        XCTAssertEqual(
            store.staleHandleMessage(madeUp),
            "layer 0#0 is stale: no layer ever had this handle (slot 0 is at generation 0, and live layers' "
                + "generations are even)")
    }

    /// A slot whose 20-bit generation is used up is retired: its last layer's handle stays
    /// stale, and the next layer takes a new slot.
    func testASlotIsRetiredWhenItsGenerationRunsOut() throws {
        var store = LayerStore()
        let root = try store.addLayer()
        var layer = try store.addLayer(superlayer: root)
        let last = LayerHandle.generationMask - 1  // the last even generation
        store.hierarchy.generations[layer.index] = store.hierarchy.storeTag << LayerHandle.generationBits | last
        layer = store.handle(at: layer.index)!
        XCTAssertEqual(layer.generation, 1_048_574)
        try store.destroyLayer(layer)
        let next = try store.addLayer(superlayer: root)
        XCTAssertEqual(next.index, 2, "slot 1 is retired")
        XCTAssertEqual(next.generation, 0)
        XCTAssertFalse(store.contains(layer))
        XCTAssertNil(store.handle(at: 1))
        XCTAssertEqual(store._invariantViolations(), [])
    }
}
