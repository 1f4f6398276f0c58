import XCTest

@testable import BatchGeometry

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
}
