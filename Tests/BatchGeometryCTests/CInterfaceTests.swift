// The C interface (batchgeometry.h) checked from Swift, where only Swift can reach: that
// its stale-handle messages are the accessors' (the accessors stop the program, so the C
// layer asks the store for the wording without calling them), the one error path C
// cannot reach (2^31 layers), and that the header's constants are the library's values.
// Everything else is tested from C: Tests/CInterface/test_c_api.c (scripts/c-examples.sh).

import CBatchGeometry
import XCTest

@testable import BatchGeometry
@testable import BatchGeometryC

final class CInterfaceTests: XCTestCase {
    /// A store whose slot 0 is live, slot 2 free, and slot 1 reused twice (generation 4).
    private func storeWithHistory() throws -> Fixture<[LayerHandle]> {
        var store = LayerStore()
        let root = try store.addLayer()
        let freed = try store.addLayer(superlayer: root)
        let reused = try store.addLayer(superlayer: root)
        try store.destroyLayer(reused)
        try store.destroyLayer(freed)
        let again = try store.addLayer()
        XCTAssertEqual(again.index, freed.index)
        try store.destroyLayer(again)
        let last = try store.addLayer()  // slot 1 again: free slots are reused last freed first
        XCTAssertEqual([last.index, Int(last.generation)], [1, 4])
        return Fixture(store: store, handles: [root, freed, reused, again])
    }

    func testStaleMessagesAreTheAccessorsMessages() throws {
        let storeFixture = try storeWithHistory()
        let handles = storeFixture.handles
        let store = storeFixture.store
        // Another store built the same way: its root has the live root's slot and generation.
        let other = try storeWithHistory()
        let rule = "a handle works only with the store that made it and its copies"
        let cases: [(LayerHandle, String)] = [
            (
                other.handles[0],
                "layer 0#0 belongs to another store (store tag \(other.store.hierarchy.storeTag); this store's is "
                    + "\(store.hierarchy.storeTag)): \(rule)"
            ),
            (handles[1], "layer 1#0 is stale: the layer was destroyed and slot 1 now holds generation 4"),
            (handles[2], "layer 2#0 is stale: the layer was destroyed and its slot is free"),
            (handles[3], "layer 1#2 is stale: the layer was destroyed and slot 1 now holds generation 4"),
            (LayerHandle(rawValue: 9), "layer 9#0 is stale: this store has no slot 9 (3 slots)"),
            (
                LayerHandle(rawValue: 1 << 32),  // slot 0 with an odd generation
                "layer 0#1 is stale: no layer ever had this handle (slot 0 is at generation 0, "
                    + "and live layers' generations are even)"
            ),
            (
                LayerHandle(rawValue: 6 << 32 | 1),  // slot 1 with a generation newer than its own
                "layer 1#6 is stale: no layer ever had this handle (slot 1 is at generation 4, "
                    + "and live layers' generations are even)"
            ),
            (
                LayerHandle(rawValue: 4 << 32 | 2),  // free slot 2 (generation 1) with a newer one
                "layer 2#4 is stale: no layer ever had this handle (slot 2 is at generation 1, "
                    + "and live layers' generations are even)"
            ),
        ]
        let pointer = CStore.make(store.copy(), options: .serial(.scalar))
        defer { bgStoreDestroy(pointer) }
        var frame = [Double](repeating: 0, count: 4)
        for (handle, message) in cases {
            XCTAssertFalse(store.contains(handle))
            XCTAssertEqual(store.staleHandleMessage(handle), message)
            XCTAssertEqual(bgLayerGetFrame(pointer, handle.rawValue, &frame), bg_status(BG_ERROR_STALE_LAYER))
            XCTAssertEqual(String(cString: bgLastErrorMessage()!), message)
        }
    }

    func testTooManyLayersIsAStatusAndChangesNothing() throws {
        var store = LayerStore()
        store.hierarchy.layerLimit = 2
        let root = try store.addLayer()
        try store.addLayer(superlayer: root)
        let pointer = CStore.make(store, options: .serial(.scalar))
        defer { bgStoreDestroy(pointer) }
        var layer: UInt64 = 7
        XCTAssertEqual(bgLayerAdd(pointer, root.rawValue, &layer), bg_status(BG_ERROR_TOO_MANY_LAYERS))
        XCTAssertEqual(String(cString: bgLastErrorMessage()!), "a store holds at most 2 layers")
        XCTAssertEqual(layer, 7)
        var count = 0
        XCTAssertEqual(bgStoreLayerCount(pointer, &count), bg_status(BG_OK))
        XCTAssertEqual(count, 2)
        XCTAssertEqual(String(cString: bgStatusName(bg_status(BG_ERROR_TOO_MANY_LAYERS))!), "BG_ERROR_TOO_MANY_LAYERS")
    }

    func testHeaderConstantsAreTheLibrarysValues() {
        XCTAssertEqual(Int(BG_MAX_LAYER_COUNT), LayerStore.maximumLayerCount)
        XCTAssertEqual(
            [
                BG_TRANSFORM_IDENTITY, BG_TRANSFORM_TRANSLATE, BG_TRANSFORM_SCALE, BG_TRANSFORM_AFFINE,
                BG_TRANSFORM_THREE_DIMENSIONAL, BG_TRANSFORM_PERSPECTIVE,
            ].map { UInt8($0) },
            TransformKind.allCases.map(\.rawValue))
        XCTAssertEqual(
            [
                BG_AUTORESIZING_FLEXIBLE_LEFT_MARGIN, BG_AUTORESIZING_FLEXIBLE_WIDTH,
                BG_AUTORESIZING_FLEXIBLE_RIGHT_MARGIN, BG_AUTORESIZING_FLEXIBLE_TOP_MARGIN,
                BG_AUTORESIZING_FLEXIBLE_HEIGHT, BG_AUTORESIZING_FLEXIBLE_BOTTOM_MARGIN,
            ].map { UInt($0) },
            AutoresizingMask.named.map(\.flag.rawValue))
        XCTAssertEqual(UInt(BG_AUTORESIZING_ALL), AutoresizingMask.all.rawValue)
        XCTAssertEqual(LayerHandle(rawValue: UInt64.max).generation & 1, 1)  // BG_LAYER_NONE is never live
        XCTAssertEqual(Status.names.count, Int(BG_ERROR_ENVIRONMENT) + 1)
        for (code, name) in Status.names.enumerated() {
            XCTAssertEqual(String(cString: bgStatusName(Int32(code))!), name)
        }
        XCTAssertEqual(
            [bgVersion() >> 16, bgVersion() >> 8 & 0xFF, bgVersion() & 0xFF],
            [BG_VERSION_MAJOR, BG_VERSION_MINOR, BG_VERSION_PATCH].map { UInt32($0) })
    }

    /// Every `LayerStoreError` has its status code and keeps its description.
    func testEveryStoreErrorHasItsStatus() {
        let handle = LayerHandle(rawValue: 3)
        let errors: [(LayerStoreError, Int32)] = [
            (.staleLayer(handle), Int32(BG_ERROR_STALE_LAYER)),
            (.staleSuperlayer(handle), Int32(BG_ERROR_STALE_SUPERLAYER)),
            // Another store's handle names no live layer of this one: the stale codes (the
            // ABI rule adds no status to existing functions), with their own message.
            (.foreignLayer(handle), Int32(BG_ERROR_STALE_LAYER)),
            (.foreignSuperlayer(handle), Int32(BG_ERROR_STALE_SUPERLAYER)),
            (.cycle(layer: handle, superlayer: handle), Int32(BG_ERROR_CYCLE)),
            (.sublayerIndexOutOfRange(index: 4, sublayerCount: 2), Int32(BG_ERROR_SUBLAYER_INDEX_OUT_OF_RANGE)),
            (.notAScrollView(layer: handle), Int32(BG_ERROR_NOT_A_SCROLL_VIEW)),
            (.tooManyLayers(limit: 5), Int32(BG_ERROR_TOO_MANY_LAYERS)),
            (.invalidDisplayScale(0), Int32(BG_ERROR_INVALID_DISPLAY_SCALE)),
        ]
        for (error, status) in errors {
            let report = CFailure.store(error).report(in: "bg_test")
            XCTAssertEqual(report.status, status)
            XCTAssertEqual(report.message, error.description)
        }
    }
}

/// What `bg_store_hit_test` and `bg_store_frame_query_geometry` answer through the culled
/// walks, against the Swift API's full passes, on random trees with what C tests build
/// less easily: 3D rotations, perspective, transform layers, flipped geometry, masks,
/// hidden and detached subtrees, zPositions out of order.
final class CInterfaceQueryTests: XCTestCase {
    /// xorshift64: the same trees on every run.
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return state
        }
        mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
        mutating func chance(_ oneIn: UInt64) -> Bool { next() % oneIn == 0 }
    }

    static func randomStore(seed: UInt64) throws -> LayerStore {
        var random = Random(state: seed)
        var store = LayerStore()
        var layers: [LayerHandle] = []
        for k in 0..<300 {
            let parent = k == 0 || random.chance(40) ? nil : layers[Int(random.next() % UInt64(min(k, 60)))]
            let layer = try store.addLayer(superlayer: parent)
            store.setFrame(
                Rect(random.unit() * 300 - 50, random.unit() * 600 - 50, random.unit() * 200, random.unit() * 120),
                of: layer)
            switch random.next() % 16 {
            case 0: store.setAffineTransform(.rotation(radians: random.unit() * 6), of: layer)
            case 1: store.setTransform(.rotation(radians: random.unit() - 0.5, x: 0, y: 1, z: 0), of: layer)
            case 2: store.setSublayerTransform(.perspective(distance: 500 + random.unit() * 500), of: layer)
            case 3: store.setTransformLayer(true, of: layer)
            case 4: store.setGeometryFlipped(true, of: layer)
            default: break
            }
            if random.chance(6) { store.setZPosition(Double(random.next() % 5) - 2, of: layer) }
            if random.chance(7) { store.setMasksToBounds(true, of: layer) }
            if random.chance(25) { store.setHidden(true, of: layer) }
            layers.append(layer)
        }
        for _ in 0..<3 { try store.removeFromSuperlayer(layers[Int(random.next() % 300)]) }
        return store
    }

    /// `bg_store_hit_test` on `pointer` against `hitTest(points:in:rule:)` with a fresh
    /// world of the store behind it, both rules; returns the hits.
    func assertHitsMatch(_ pointer: OpaquePointer, _ points: [Point], _ label: String) throws -> Int {
        let store = try CStore.from(pointer).store.copy()
        let world = store.worldTransforms()
        let coordinates = points.flatMap { [$0.x, $0.y] }
        var hits = 0
        for (rule, constant) in [(HitTestRule.layer, BG_HIT_TEST_LAYER), (.view, BG_HIT_TEST_VIEW)] {
            var answers = [UInt64](repeating: 7, count: points.count)
            XCTAssertEqual(
                bgStoreHitTest(pointer, coordinates, points.count, Int32(constant), &answers), bg_status(BG_OK))
            let expected = store.hitTest(points: points, in: world, rule: rule)
            XCTAssertEqual(answers, expected.map { $0?.rawValue ?? UInt64.max }, "\(label), \(rule)")
            hits += expected.filter { $0 != nil }.count
        }
        return hits
    }

    /// The store's handle of the layer in `slot` (`bg_store_handle_at`: a handle carries
    /// its store's tag, so it cannot be made from the slot alone).
    static func handle(_ pointer: OpaquePointer, slot: Int) throws -> UInt64 {
        var handle: UInt64 = 0
        XCTAssertEqual(bgStoreHandleAt(pointer, slot, &handle), bg_status(BG_OK))
        return try XCTUnwrap(handle == UInt64.max ? nil : handle, "slot \(slot) is free")
    }

    func testHitTestAnswersTheWalkOverEveryLayer() throws {
        var hits = 0
        for seed in UInt64(1)...4 {
            let pointer = CStore.make(try Self.randomStore(seed: seed &* 0x9E37_79B9_7F4A_7C15), options: .serial(.c))
            defer { bgStoreDestroy(pointer) }
            var random = Random(state: seed)
            let points = (0..<300).map { _ in Point(x: random.unit() * 500 - 100, y: random.unit() * 900 - 100) }
            hits += try assertHitsMatch(pointer, points, "seed \(seed)")
            // Edits through C between hit tests: the culled walk's caches follow them.
            for _ in 0..<30 {
                let layer = try Self.handle(pointer, slot: Int(random.next() % 300))
                let position = [random.unit() * 300, random.unit() * 600]
                XCTAssertEqual(bgLayerSetPosition(pointer, layer, position), bg_status(BG_OK))
                XCTAssertEqual(bgLayerSetZPosition(pointer, layer, random.unit() * 4 - 2), bg_status(BG_OK))
            }
            let hidden = try Self.handle(pointer, slot: Int(random.next() % 300))
            XCTAssertEqual(bgLayerSetHidden(pointer, hidden, true), bg_status(BG_OK))
            hits += try assertHitsMatch(pointer, points, "seed \(seed), after edits")
        }
        XCTAssertGreaterThan(hits, 600, "the points must hit something (873 hits as written)")
    }

    func testFrameQueryAnswersTheFullPasses() throws {
        var shown = 0
        for seed in UInt64(1)...4 {
            let store = try Self.randomStore(seed: seed &* 0xD1B5_4A32_D192_ED03)
            let world = store.worldTransforms()
            let rects = store.worldRects(in: world)
            let clips = store.clipRects(worldRects: rects)
            let pointer = CStore.make(store.copy(), options: .serial(.c))
            defer { bgStoreDestroy(pointer) }
            for viewport in [Rect(0, 0, 375, 812), Rect(-200, -200, 900, 1400), Rect(100, 300, 30, 30)] {
                let visible = store.visibility(worldRects: rects, clipRects: clips, viewport: viewport)
                let expected = store.drawOrder().filter { visible[$0.index] }
                let n = store.count
                var layers = [UInt64](repeating: 0, count: n)
                var transforms = [Double](repeating: 0, count: 16 * n)
                var edges = [Double](repeating: 0, count: 4 * n)
                var clipEdges = [Double](repeating: 0, count: 4 * n)
                var masked = [Bool](repeating: false, count: n)
                var count = 0
                let status = bgStoreFrameQueryGeometry(
                    pointer, [viewport.x, viewport.y, viewport.width, viewport.height], &layers, &transforms, &edges,
                    &clipEdges, &masked, n, &count)
                XCTAssertEqual(status, bg_status(BG_OK))
                XCTAssertEqual(Array(layers[0..<count]), expected.map(\.rawValue), "seed \(seed), \(viewport)")
                guard count == expected.count else { continue }
                for (k, layer) in expected.enumerated() {
                    let clip = clips[layer.index]
                    let expectedValues =
                        world[layer].rowMajor + [rects[layer.index].minX, rects[layer.index].minY]
                        + [rects[layer.index].maxX, rects[layer.index].maxY]
                        + [clip?.minX ?? -.infinity, clip?.minY ?? -.infinity, clip?.maxX ?? .infinity]
                        + [clip?.maxY ?? .infinity]
                    let got =
                        transforms[(16 * k)..<(16 * k + 16)] + edges[(4 * k)..<(4 * k + 4)]
                        + clipEdges[(4 * k)..<(4 * k + 4)]
                    XCTAssertEqual(got.map(\.bitPattern), expectedValues.map(\.bitPattern), "seed \(seed), \(layer)")
                    XCTAssertEqual(masked[k], clip != nil)
                }
                shown += count
            }
        }
        XCTAssertGreaterThan(shown, 200, "the random trees must show something (363 layers as written)")
    }

    /// The queries that refresh the store's caches leave its version, so the cached world
    /// rects stay; an edit still makes them stale.
    func testCullingQueriesKeepTheCachedResults() throws {
        var store = LayerStore()
        let window = try store.addLayer()
        store.setFrame(Rect(0, 0, 100, 100), of: window)
        let pointer = CStore.make(store, options: .serial(.c))
        defer { bgStoreDestroy(pointer) }
        let box = try CStore.from(pointer)
        var edges = [Double](repeating: 0, count: 4)
        var hit: UInt64 = 0
        var count = 0
        XCTAssertEqual(bgStoreWorldRects(pointer, &edges, 1), bg_status(BG_OK))
        let version = box.version
        XCTAssertEqual(bgStoreHitTest(pointer, [5, 5], 1, Int32(BG_HIT_TEST_LAYER), &hit), bg_status(BG_OK))
        XCTAssertEqual(bgStoreFrameQuery(pointer, [0, 0, 10, 10], &hit, 1, &count), bg_status(BG_OK))
        XCTAssertEqual(box.version, version)
        XCTAssertEqual(hit, window.rawValue)
        XCTAssertEqual(bgLayerSetPosition(pointer, window.rawValue, [150, 50]), bg_status(BG_OK))
        XCTAssertEqual(bgStoreFrameQuery(pointer, [0, 0, 10, 10], &hit, 1, &count), bg_status(BG_OK))
        XCTAssertEqual(count, 0)
        XCTAssertEqual(bgStoreWorldRects(pointer, &edges, 1), bg_status(BG_OK))
        XCTAssertEqual(edges, [100, 0, 200, 100])
    }
}
