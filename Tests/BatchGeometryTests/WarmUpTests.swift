import XCTest

@_spi(Testing) @testable import BatchGeometry

/// `warmUp(options:)` builds the caches the first frame would build, and changes no answer.
final class WarmUpTests: XCTestCase {
    func testWarmUpBuildsEveryCacheAndChangesNoAnswer() throws {
        var store = FrameQueryTests.makeStore(seed: 7)
        let first = try XCTUnwrap(store.roots.first)
        try store.setZPosition(1, of: XCTUnwrap(store.sublayers(of: first).first))  // a sorted list to cache
        var cold = store.copy()
        store.warmUp(options: .serial(.scalar))
        XCTAssertNotNil(store.caches.worldCache)
        XCTAssertNotNil(store.caches.worldPlan)
        XCTAssertTrue(store.caches.subtreeBounds.isBuilt)
        XCTAssertTrue(store.caches.drawOrderCache.isCurrent(count: store.count))
        let viewport = Rect(x: 0, y: 0, width: 400, height: 800)
        let warm = store.visibleLayers(in: viewport)
        let expected = cold.visibleLayers(in: viewport)
        XCTAssertEqual(warm.layers, expected.layers)
        XCTAssertEqual(warm.worldRects, expected.worldRects)
        XCTAssertEqual(store.drawOrder(), cold.drawOrder())
        XCTAssertEqual(store.hitTest(Point(x: 50, y: 60)), cold.hitTest(Point(x: 50, y: 60)))
        // After an edit, the next query sees it: warming up marks nothing as current that is not.
        let layer = try XCTUnwrap(store.sublayers(of: first).last)
        store.setPosition(Point(x: 300, y: 300), of: layer)
        cold.setPosition(Point(x: 300, y: 300), of: layer)
        store.warmUp()
        XCTAssertEqual(store.visibleLayers(in: viewport).layers, cold.visibleLayers(in: viewport).layers)
        let (warmWorld, coldWorld) = (store.worldTransforms(options: .serial(.scalar)), cold.worldTransforms())
        XCTAssertEqual(warmWorld[layer], coldWorld[layer])
    }

    /// A store whose every list is in zPosition order gets its drawing-order cache from
    /// `warmUp()` too: the first out-of-order zPosition (a live tree's frame) then moves one
    /// layer in it instead of building it, O(n), in that frame; answers are unchanged.
    func testWarmUpBuildsTheDrawingOrderCacheOfAnInOrderStore() throws {
        var store = LayerStore()
        let first = try store.addLayer()
        store.setBounds(Rect(0, 0, 400, 800), of: first)
        for k in 0..<100 {
            let card = try store.addLayer(superlayer: first)
            store.setFrame(Rect(5, Double(k) * 30, 300, 40), of: card)  // overlapping neighbours
        }
        XCTAssertEqual(store.hierarchy.zOrderInversions, 0, "every list in zPosition order")
        store.warmUp()
        XCTAssertTrue(store.caches.drawOrderCache.isCurrent(count: store.count))
        XCTAssertEqual(store._invariantViolations(), [])
        let sublayers = store.sublayers(of: first)
        store.setZPosition(-1, of: try XCTUnwrap(sublayers.last))  // drawn first now
        XCTAssertGreaterThan(store.hierarchy.zOrderInversions, 0)
        var cold = store.copy()
        cold.caches = LayerCaches()  // an independent build from the columns alone
        let viewport = Rect(x: 0, y: 0, width: 400, height: 800)
        XCTAssertEqual(store.visibleLayers(in: viewport).layers, cold.visibleLayers(in: viewport).layers)
        XCTAssertEqual(store.drawOrder(), cold.drawOrder())
        XCTAssertEqual(store.drawOrder().firstIndex(of: sublayers.last!), store.drawOrder().firstIndex(of: first)! + 1)
        XCTAssertEqual(store._invariantViolations(), [])
    }
}
