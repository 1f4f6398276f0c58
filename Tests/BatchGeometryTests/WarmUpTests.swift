import AllocationCounter
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

    /// `warmUp(in:into:)` (the Swift form of `bg_store_warm_up` with a viewport): the
    /// caches built as by `warmUp()`, `result` holds the frame query's answer (its world
    /// transforms computed from the columns: the same bits as read from the world cache),
    /// and the first frame's query into it and its hit test allocate nothing, where after
    /// `warmUp()` alone the query grows the result. Answers equal a store never warmed
    /// up, before and after an edit.
    func testWarmUpInAViewportGrowsTheResultAndAnswersTheFrameQuery() throws {
        // Stores built alike (not copies, which share columns until written).
        func build(_ store: inout LayerStore) throws -> LayerHandle {
            let (list, cards) = try FrameLoopAllocationTests.addCardList(to: &store)
            for (k, card) in cards.enumerated() where k % 7 == 0 {
                let badge = try store.addLayer(superlayer: card)
                store.setFrame(Rect(300, 10, 40, 40), of: badge)
                store.setTransform(.rotation(radians: 0.3, x: 0, y: 0, z: 1), of: badge)
                store.setZPosition(Double(k % 3), of: card)  // lists out of zPosition order
            }
            store.setContentOffset(Point(0, 1234), of: list)
            return list
        }
        let viewport = Rect(0, 0, 400, 800)
        let touch = Point(200, 400)
        // The first frame without edits: the query into the kept result, a hit test.
        func firstFrame(_ s: inout LayerStore, _ r: inout VisibleLayers, trace: Bool) -> [Int64] {
            FrameLoopAllocationTests.traceAllocations(trace)
            let before = BGAllocationCount()
            s.visibleLayers(in: viewport, into: &r)
            let queried = BGAllocationCount()
            _ = s.hitTest(touch, rule: .layer)
            let end = BGAllocationCount()
            FrameLoopAllocationTests.traceAllocations(false)
            return [queried - before, end - queried]
        }
        // The Swift runtime's one-time costs in this process (lazy metadata and witness
        // tables, first met by these calls) are paid on a store of their own first.
        var other = LayerStore()
        _ = try build(&other)
        var otherResult = VisibleLayers()
        other.warmUp(in: viewport, into: &otherResult)
        _ = firstFrame(&other, &otherResult, trace: false)

        var store = LayerStore()
        let list = try build(&store)
        var result = VisibleLayers()
        store.warmUp(in: viewport, into: &result)
        let warmUpAnswer = result.layers.map(\.index)
        let warmAllocations = firstFrame(&store, &result, trace: true)
        var cachesOnly = LayerStore()
        _ = try build(&cachesOnly)
        cachesOnly.warmUp()
        var fresh = VisibleLayers()
        let cachesOnlyAllocations = firstFrame(&cachesOnly, &fresh, trace: false)
        if BGAllocationCounterIsActive() != 0 {
            XCTAssertEqual(warmAllocations, [0, 0], "the first frame after warmUp(in:into:): query, hit test")
            XCTAssertGreaterThan(cachesOnlyAllocations[0], 0, "the first query after warmUp() grows its result")
        }
        XCTAssertNotNil(store.caches.worldCache)
        XCTAssertTrue(store.caches.subtreeBounds.isBuilt)
        XCTAssertTrue(store.caches.drawOrderCache.isCurrent(count: store.count))

        var cold = LayerStore()
        let coldList = try build(&cold)
        let expected = cold.visibleLayers(in: viewport)
        XCTAssertGreaterThan(expected.count, 4)
        XCTAssertEqual(warmUpAnswer, expected.layers.map(\.index))
        XCTAssertEqual(result.layers.map(\.index), expected.layers.map(\.index))
        XCTAssertEqual(result.worldTransforms, expected.worldTransforms)
        XCTAssertEqual(result.worldRects, expected.worldRects)
        XCTAssertEqual(result.clipRects, expected.clipRects)
        XCTAssertEqual(result.worldOpacities, expected.worldOpacities)
        XCTAssertEqual(fresh.layers.map(\.index), expected.layers.map(\.index))
        XCTAssertEqual(store.hitTest(touch)?.index, cold.hitTest(touch)?.index)
        // After an edit (a scroll), the next frame sees it.
        store.setContentOffset(Point(0, 1240), of: list)
        cold.setContentOffset(Point(0, 1240), of: coldList)
        store.visibleLayers(in: viewport, into: &result)
        let next = cold.visibleLayers(in: viewport)
        XCTAssertEqual(result.layers.map(\.index), next.layers.map(\.index))
        XCTAssertEqual(result.worldRects, next.worldRects)
        XCTAssertEqual(store.hitTest(touch)?.index, cold.hitTest(touch)?.index)
        XCTAssertEqual(store._invariantViolations(), [])
    }
}
