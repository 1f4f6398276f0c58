import XCTest

@testable import BatchGeometry

/// Painter's order (GEOMETRY.md section 6).
final class DrawOrderTests: XCTestCase {
    func testSublayersSortByZPositionStably() {
        var store = LayerStore()
        let root = try! store.addLayer()
        let a = try! store.addLayer(superlayer: root)
        let b = try! store.addLayer(superlayer: root)
        let c = try! store.addLayer(superlayer: root)
        let d = try! store.addLayer(superlayer: root)
        let inB = try! store.addLayer(superlayer: b)
        XCTAssertEqual(store.drawOrder(), [root, a, b, inB, c, d])
        store.setZPosition(1, of: a)
        store.setZPosition(-1, of: d)
        store.setZPosition(1, of: c)
        // d (-1), then b (0) with its subtree, then a and c (1) in sublayer order.
        XCTAssertEqual(store.drawOrder(), [root, d, b, inB, a, c])
        // A sublayer's zPosition orders it among its siblings only.
        store.setZPosition(-100, of: inB)
        XCTAssertEqual(store.drawOrder(), [root, d, b, inB, a, c])
    }

    func testHiddenSubtreesAreLeftOutAndRootsKeepTheirOrder() {
        var store = LayerStore()
        let first = try! store.addLayer()
        let second = try! store.addLayer()
        let hidden = try! store.addLayer(superlayer: first)
        let inHidden = try! store.addLayer(superlayer: hidden)
        let shown = try! store.addLayer(superlayer: first)
        store.setZPosition(-5, of: second)  // roots are not sorted by zPosition
        store.setHidden(true, of: hidden)
        XCTAssertEqual(store.drawOrder(), [first, shown, second])
        XCTAssertEqual(inHidden.index, 3)
        store.setHidden(true, of: first)
        XCTAssertEqual(store.drawOrder(), [second])
    }

    /// NaN compares false with everything, which would make the order depend on the
    /// sort algorithm; it sorts as 0, the default (docs/SEMANTICS.md).
    func testNaNZPositionSortsAsZero() {
        var store = LayerStore()
        let root = try! store.addLayer()
        let children = (0..<5).map { _ in try! store.addLayer(superlayer: root) }
        let zs: [Double] = [1, .nan, -1, 0, .nan]
        for (child, z) in zip(children, zs) { store.setZPosition(z, of: child) }
        // Keys 1, 0, -1, 0, 0: -1 first, then the zeros in sublayer order, then 1.
        XCTAssertEqual(store.drawOrder(), [root, children[2], children[1], children[3], children[4], children[0]])
    }

    /// A large sibling list with many equal zPositions keeps sublayer order within each.
    func testStabilityOnManySiblings() {
        var store = LayerStore()
        let root = try! store.addLayer()
        var expected: [[LayerHandle]] = [[], [], []]
        for k in 0..<300 {
            let layer = try! store.addLayer(superlayer: root)
            store.setZPosition(Double(2 - k % 3), of: layer)
            expected[2 - k % 3].append(layer)
        }
        XCTAssertEqual(store.drawOrder(), [root] + expected[0] + expected[1] + expected[2])
    }

    /// The cached drawing order (`refreshDrawOrder()`; `drawOrder()` reads it when
    /// current) re-sorts a list when a zPosition change has no list neighbour with its
    /// key: with at most four distinct keys by a pass a key, with more by the merge sort.
    /// Either way it is the stable sort by key (NaN as 0, -0 equal to 0), computed here
    /// independently after every change.
    func testCachedOrderAfterResortsIsTheStableSortByKey() {
        let fewKeys: [Double] = [0, -0.0, .nan, 1, 2]
        let manyKeys: [Double] = [0, -3, 1, 2, 5, 8, .nan, -0.0]
        for values in [fewKeys, manyKeys] {
            var store = LayerStore()
            let root = try! store.addLayer()
            let layers = (0..<150).map { _ in try! store.addLayer(superlayer: root) }
            var zs = [Double](repeating: 0, count: layers.count)
            var random: UInt64 = 0x9E37_79B9
            let viewport = Rect(x: 0, y: 0, width: 10, height: 10)
            for _ in 0..<80 {
                random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let k = Int(random >> 33) % layers.count
                let z = values[Int(random >> 20) % values.count]
                zs[k] = z
                store.setZPosition(z, of: layers[k])
                _ = store.visibleLayers(in: viewport)  // leaves the indexed list deferred
                store.refreshDrawOrder()  // sorts it: drawOrder() then reads the cache
                // (No cache while every list is in order: drawOrder() reads the lists then.)
                let cached = store.caches.drawOrderCache.isCurrent(count: store.count)
                XCTAssertTrue(store.hierarchy.zOrderInversions == 0 || cached)
                let keys = zs.map { $0.isNaN ? 0 : $0 }
                let sorted = layers.indices.sorted { keys[$0] < keys[$1] || (keys[$0] == keys[$1] && $0 < $1) }
                XCTAssertEqual(store.drawOrder(), [root] + sorted.map { layers[$0] })
            }
        }
    }
}
