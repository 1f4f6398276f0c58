import XCTest

@_spi(Testing) @testable import BatchGeometry

/// A store that grows past its capacity, its caches built before and grown with it
/// (through the remapped columns' mapping path: 70,000 subtree-bounds boxes are 2.2 MB),
/// answers exactly as a store given the same layers with the capacity reserved up front
/// and queried only at the end (an independent build: no growth, no cache history).
final class GrowthEquivalenceTests: XCTestCase {
    private static let layerCount = 70_000

    /// The same random scene in each store: layer k under one of the last 300 layers (so
    /// lists of a few to hundreds of sublayers, some wide enough for an R-tree), random
    /// frames, some rotated, some masking, some out of zPosition order. `query` runs after
    /// every 10,000 layers: the caches are built before each growth of the columns (at
    /// 16,385, 32,769 and 65,537 layers) and grow with them, as with a query every 5,000
    /// (which rebuilt the subtree bounds twice as often: half this test's debug time).
    private static func build(_ store: inout LayerStore, query: (inout LayerStore) -> Void) throws -> [LayerHandle] {
        var random = SplitMix64(seed: 22_3)
        var layers = [try store.addLayer()]
        store.setBounds(Rect(0, 0, 4_000, 4_000), of: layers[0])
        for k in 1..<layerCount {
            let parent = layers[Swift.max(0, k - 1 - random.below(300))]
            let layer = try store.addLayer(superlayer: parent)
            let size = random.value(in: 2...400)
            store.setFrame(Rect(random.value(in: -50...600), random.value(in: -50...600), size, size * 0.7), of: layer)
            switch random.below(12) {
            case 0: store.setTransform(Transform3D(AffineTransform(0.8, 0.6, -0.6, 0.8, 3, -2)), of: layer)
            case 1: store.setZPosition(random.value(in: -2...2), of: layer)
            case 2: store.setMasksToBounds(true, of: layer)
            default: break
            }
            layers.append(layer)
            if k % 10_000 == 0 { query(&store) }
        }
        return layers
    }

    func testAStoreGrownPastItsCapacityAnswersAsAReservedOne() throws {
        var grown = LayerStore()
        var visible = VisibleLayers()
        let viewport = Rect(100, 100, 900, 700)
        let layers = try Self.build(&grown) { store in
            _ = store.updateWorld()
            store.visibleLayers(in: viewport, into: &visible)
            _ = store.hitTest(Point(300, 300), rule: .layer)
            _ = store.drawOrder()
        }
        var reserved = LayerStore(minimumCapacity: Self.layerCount)
        let reservedLayers = try Self.build(&reserved) { _ in }
        // Two stores, so two store tags (LayerHandle): their layers are compared by slot, and
        // each store is given its own handles.
        XCTAssertEqual(layers.map(\.index), reservedLayers.map(\.index))
        XCTAssertEqual(layers.map(\.generation), reservedLayers.map(\.generation))
        XCTAssertGreaterThan(grown.caches.subtreeBounds.extent.capacity * 32, 2 << 20, "the boxes went past 2 MiB")
        XCTAssertEqual(reserved.layerCapacity, Self.layerCount, "the reserved store did not grow")

        let (a, b) = (grown.visibleLayers(in: viewport), reserved.visibleLayers(in: viewport))
        XCTAssertGreaterThan(a.layers.count, 50, "the viewport shows part of the scene")
        XCTAssertEqual(a.layers.map(\.index), b.layers.map(\.index))
        XCTAssertEqual(a.worldRects, b.worldRects)
        XCTAssertEqual(a.worldTransforms, b.worldTransforms)
        XCTAssertEqual(grown.drawOrder().map(\.index), reserved.drawOrder().map(\.index))
        var random = SplitMix64(seed: 7)
        for _ in 0..<200 {
            let point = Point(random.value(in: 0...1_000), random.value(in: 0...1_000))
            XCTAssertEqual(
                grown.hitTest(point, rule: .layer)?.index, reserved.hitTest(point, rule: .layer)?.index, "\(point)")
            XCTAssertEqual(
                grown.hitTest(point, rule: .view)?.index, reserved.hitTest(point, rule: .view)?.index, "\(point)")
        }
        _ = grown.updateWorld()
        _ = reserved.updateWorld()
        for k in stride(from: 0, to: layers.count, by: 97) {
            XCTAssertEqual(grown.frame(of: layers[k]), reserved.frame(of: reservedLayers[k]))
            XCTAssertEqual(grown.worldTransform(of: layers[k]), reserved.worldTransform(of: reservedLayers[k]))
        }
        XCTAssertEqual(grown._invariantViolations(), [])
        // Every geometry column grew by remapping (no array left): equal through the public
        // views, value for value.
        XCTAssertGreaterThanOrEqual(grown.columns.positionX.capacity, Self.layerCount)
        for (name, column) in Self.geometryColumns {
            XCTAssertEqual(column(grown).count, Self.layerCount, name)
            XCTAssertTrue(column(grown).elementsEqual(column(reserved)), name)
        }
    }

    /// The public geometry columns, by name.
    private static let geometryColumns: [(String, @Sendable (borrowing LayerStore) -> GeometryColumn)] = [
        ("boundsX", { $0.boundsX }), ("boundsY", { $0.boundsY }), ("boundsWidth", { $0.boundsWidth }),
        ("boundsHeight", { $0.boundsHeight }), ("positionX", { $0.positionX }), ("positionY", { $0.positionY }),
        ("anchorX", { $0.anchorX }), ("anchorY", { $0.anchorY }), ("zPositions", { $0.zPositions }),
        ("anchorPointZs", { $0.anchorPointZs }),
    ]

    /// A `GeometryColumn` is the column when it was taken (copy-on-write, as the arrays
    /// these getters returned were): a later edit leaves it as it was and shows in a new
    /// view.
    func testAGeometryColumnKeepsTheValuesItWasTakenWith() throws {
        var store = LayerStore()
        let root = try store.addLayer()
        let layer = try store.addLayer(superlayer: root)
        store.setPosition(Point(3, 4), of: layer)
        let before = store.positionX
        XCTAssertEqual(Array(before), [0, 3])
        store.setPosition(Point(7, 8), of: layer)
        XCTAssertEqual(Array(before), [0, 3], "the view kept its values")
        XCTAssertEqual(Array(store.positionX), [0, 7])
        XCTAssertEqual(store.positionY[layer.index], 8)
        XCTAssertEqual(store.anchorX.indices, 0..<2)
    }
}
