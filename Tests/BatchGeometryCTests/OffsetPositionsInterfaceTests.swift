// `bg_layer_offset_positions` (batchgeometry.h) checked against a twin store driven through
// the C interface by `bg_layer_get_position` + `bg_layer_set_position` per sublayer: the
// same position bits for every layer, the same world rects and frame query after every
// step, the invariants kept; and each error's status and message, with nothing changed.

import CBatchGeometry
import XCTest

@_spi(Testing) @testable import BatchGeometry
@testable import BatchGeometryC

final class OffsetPositionsInterfaceTests: XCTestCase {
    /// A window with a masking list of `wide` cards (a rank tree from 64 on once the caches
    /// are built; every third card with a badge) and a narrow list of 10 that does not mask.
    private static func store(wide: Int) throws -> Fixture<(window: LayerHandle, lists: [LayerHandle])> {
        var store = LayerStore()
        let window = try store.addLayer()
        store.setFrame(Rect(0, 0, 1000, 800), of: window)
        var lists: [LayerHandle] = []
        for (k, cards) in [wide, 10].enumerated() {
            let list = try store.addLayer(superlayer: window)
            store.setFrame(Rect(Double(k) * 500, 0, 400, 800), of: list)
            store.setMasksToBounds(k == 0, of: list)
            lists.append(list)
            for n in 0..<cards {
                let card = try store.addLayer(superlayer: list)
                store.setFrame(Rect(5, Double(n) * 50, 390, 44), of: card)
                if n % 3 == 0 { store.setFrame(Rect(350, 4, 30, 30), of: try store.addLayer(superlayer: card)) }
            }
        }
        return Fixture(store: store, handles: (window, lists))
    }

    /// `read` of the `CStore` behind `pointer`, given back after (debug builds hold a
    /// store from `CStore.from` until the end of the C call: DebugChecks.swift).
    private static func box<Result>(_ pointer: OpaquePointer, _ read: (CStore) throws -> Result) throws -> Result {
        #if DEBUG
        defer { StoreOwnership.leave() }
        #endif
        return try read(try CStore.from(pointer))
    }

    /// Every layer's position, as bits.
    private static func positions(_ pointer: OpaquePointer) throws -> [UInt64] {
        try box(pointer) { box in
            (0..<box.store.count).flatMap { slot -> [UInt64] in
                guard let handle = box.store.handle(at: slot) else { return [] }
                let p = box.store.position(of: handle)
                return [p.x.bitPattern, p.y.bitPattern]
            }
        }
    }

    /// The world rects and the frame query over `viewport`, as bits and handles.
    private static func frame(_ pointer: OpaquePointer, _ viewport: [Double]) -> [UInt64] {
        var count = 0
        XCTAssertEqual(bgStoreLayerCount(pointer, &count), bg_status(BG_OK))
        var slots = 0
        XCTAssertEqual(bgStoreSlotCount(pointer, &slots), bg_status(BG_OK))
        var rects = [Double](repeating: 0, count: 4 * slots)
        XCTAssertEqual(bgStoreWorldRects(pointer, &rects, slots), bg_status(BG_OK))
        var visible = [UInt64](repeating: 0, count: slots)
        var shown = 0
        XCTAssertEqual(bgStoreFrameQuery(pointer, viewport, &visible, slots, &shown), bg_status(BG_OK))
        return rects.map(\.bitPattern) + visible[..<shown]
    }

    func testRangeMovesEqualTheSetterPerSublayer() throws {
        for (wide, warm) in [(100, true), (100, false), (40, true)] {
            let fixture = try Self.store(wide: wide)
            let lists = fixture.handles.lists
            let batch = CStore.make(fixture.store.copy(), options: .serial(.scalar))
            let single = CStore.make(fixture.store.copy(), options: .serial(.scalar))
            defer {
                bgStoreDestroy(batch)
                bgStoreDestroy(single)
            }
            if warm {
                for pointer in [batch, single] { XCTAssertEqual(bgStoreWarmUp(pointer, nil), bg_status(BG_OK)) }
            }
            var random: UInt64 = 0x9E37_79B9_7F4A_7C15 &+ UInt64(wide)
            func next(_ bound: Int) -> Int {
                random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return Int((random >> 33) % UInt64(bound))
            }
            let offsets: [[Double]] = [[0, 232], [0, -232], [0.1, -0.3], [-0.0, 0.5], [13.25, -3000], [0, 1e6]]
            for step in 0..<60 {
                let list = lists[next(2)]
                let n = try Self.box(batch) { $0.store.sublayerCount(of: list) }
                let start = next(n + 1)
                let count = next(n - start + 1)
                let offset = offsets[next(offsets.count)]
                XCTAssertEqual(
                    bgLayerOffsetPositions(batch, list.rawValue, Int64(start), Int64(count), offset), bg_status(BG_OK))
                var sublayers = [UInt64](repeating: 0, count: n)
                var written = 0
                XCTAssertEqual(bgLayerGetSublayers(single, list.rawValue, &sublayers, n, &written), bg_status(BG_OK))
                for layer in sublayers[start..<(start + count)] {
                    var p = [0.0, 0.0]
                    XCTAssertEqual(bgLayerGetPosition(single, layer, &p), bg_status(BG_OK))
                    XCTAssertEqual(
                        bgLayerSetPosition(single, layer, [p[0] + offset[0], p[1] + offset[1]]), bg_status(BG_OK))
                }
                let label = "wide \(wide), warm \(warm), step \(step): \(start)..<\(start + count) by \(offset)"
                XCTAssertEqual(try Self.positions(batch), try Self.positions(single), label)
                if step % 4 == 0 {
                    let viewport = [0, Double(next(5000)), 1000, 800]
                    XCTAssertEqual(Self.frame(batch, viewport), Self.frame(single, viewport), label)
                    XCTAssertEqual(try Self.box(batch) { $0.store._invariantViolations() }, [], label)
                }
            }
        }
    }

    /// Each error: its status and message, and nothing changed (positions, the store's
    /// version, the frame, the invariants).
    func testErrorsReportAndChangeNothing() throws {
        let fixture = try Self.store(wide: 100)
        let (window, lists) = fixture.handles
        let pointer = CStore.make(fixture.store.copy(), options: .serial(.scalar))
        defer { bgStoreDestroy(pointer) }
        XCTAssertEqual(bgStoreWarmUp(pointer, nil), bg_status(BG_OK))
        // A destroyed card with sublayers of its own (its badge), and another store's list.
        let card = try XCTUnwrap(try Self.box(pointer) { $0.store.sublayer(at: 3, of: lists[0]) })
        var destroyed = 0
        XCTAssertEqual(bgLayerDestroy(pointer, card.rawValue, &destroyed), bg_status(BG_OK))
        XCTAssertEqual(destroyed, 2)
        var other = try Self.store(wide: 100)
        let foreign = try other.store.addLayer()
        let rule = "a handle works only with the store that made it and its copies"
        let tag = try Self.box(pointer) { $0.store.hierarchy.storeTag }
        let none = try Self.box(pointer) { $0.store.staleError(LayerHandle(rawValue: noLayer), superlayer: true) }
        let move = [0.0, 50.0]
        let wide = lists[0].rawValue
        let cases: [(UInt64, Int64, Int64, Bool, bg_status, String)] = [
            (wide, 0, 1, false, Status.nullArgument, "bg_layer_offset_positions: offset is NULL"),
            (wide, 0, -1, true, Status.invalidArgument, "bg_layer_offset_positions: count is negative (-1)"),
            (
                wide, 5, .max, true, Status.invalidArgument,
                "bg_layer_offset_positions: start + count (5 + 9223372036854775807) overflows int64_t"
            ),
            (
                card.rawValue, 0, 0, true, Status.staleSuperlayer,
                "superlayer \(card) is stale: no live layer of this store has that handle (destroyed, or never this "
                    + "store's)"
            ),
            (
                foreign.rawValue, 0, 0, true, Status.staleSuperlayer,
                "superlayer \(foreign) belongs to another store (store tag \(foreign.storeTag)): \(rule)"
            ),
            (
                noLayer, 0, 0, true, Status.staleSuperlayer,
                try XCTUnwrap(none).description
            ),
            (wide, 0, 100, true, Status.sublayerIndexOutOfRange, "sublayer index 100 is out of range (99 sublayers)"),
            (wide, 100, 0, true, Status.sublayerIndexOutOfRange, "sublayer index 100 is out of range (99 sublayers)"),
            (wide, -1, 3, true, Status.sublayerIndexOutOfRange, "sublayer index -1 is out of range (99 sublayers)"),
            (
                wide, .min, 1, true, Status.sublayerIndexOutOfRange,
                "sublayer index \(Int.min) is out of range (99 sublayers)"
            ),
            (
                lists[1].rawValue, 4, 7, true, Status.sublayerIndexOutOfRange,
                "sublayer index 11 is out of range (10 sublayers)"
            ),
            (
                window.rawValue, 3, 0, true, Status.sublayerIndexOutOfRange,
                "sublayer index 3 is out of range (2 sublayers)"
            ),
        ]
        XCTAssertNotEqual(foreign.storeTag, tag)
        let viewport = [0.0, 0, 1000, 800]
        let before = (try Self.positions(pointer), Self.frame(pointer, viewport), try Self.box(pointer) { $0.version })
        for (superlayer, start, count, hasOffset, status, message) in cases {
            let label = "\(superlayer) \(start) \(count)"
            let result =
                hasOffset
                ? bgLayerOffsetPositions(pointer, superlayer, start, count, move)
                : bgLayerOffsetPositions(pointer, superlayer, start, count, nil)
            XCTAssertEqual(result, status, label)
            XCTAssertEqual(String(cString: bgLastErrorMessage()!), message, label)
            XCTAssertEqual(try Self.box(pointer) { $0.version }, before.2, label)
            XCTAssertEqual(try Self.positions(pointer), before.0, label)
        }
        XCTAssertEqual(Self.frame(pointer, viewport), before.1)
        XCTAssertEqual(try Self.box(pointer) { $0.store._invariantViolations() }, [])
        // The edges: an empty range at either end, and the whole list, succeed.
        for (start, count) in [(0, 0), (99, 0), (0, 99)] {
            XCTAssertEqual(bgLayerOffsetPositions(pointer, wide, Int64(start), Int64(count), move), Status.ok)
        }
        XCTAssertEqual(try Self.box(pointer) { $0.store._invariantViolations() }, [])
    }
}
