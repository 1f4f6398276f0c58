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

    /// `warmUp()` parks ahead the cards of the wide lists that mask to bounds, so a list's
    /// first row move does no first-time work: every moved card off screen already waits
    /// in its list's drifting cards with a known drift (the move takes the run's path), no
    /// drifting list grows (a never-warmed twin's appends a card per moved card) and the
    /// move allocates nothing. The frames that follow (row moves of every list, a scroll,
    /// queries, hit tests) equal the never-warmed twin's and the full passes', bit for bit.
    func testWarmUpParksTheWideListsCardsSoAFirstRowMoveDoesNoFirstTimeWork() throws {
        var random = SplitMix64(seed: 2210)
        var replay = random
        var twins = OffsetPositionsTests.Twins(&random)
        let viewport = Rect(0, 0, 400, 800)
        var result = VisibleLayers()
        var twinResult = VisibleLayers()
        twins.batch.warmUp(in: viewport, into: &result)
        twins.single.visibleLayers(in: viewport, into: &twinResult)  // the twin's caches, built by a query
        XCTAssertEqual(twins.batch._invariantViolations(), [])
        // The masking lists of 64 cards or more (indexed: an R-tree).
        let masking = twins.lists.prefix(3).filter { twins.batch.caches.subtreeBounds.indexSlot[$0.index] >= 0 }
        XCTAssertGreaterThanOrEqual(masking.count, 2)
        // Off screen: below the viewport and the drifting search's margin around it.
        let ranges = masking.map { list in 30..<twins.batch.sublayerCount(of: list) }
        func driftingCounts(_ store: borrowing LayerStore) -> [Int] {
            let bounds = store.caches.subtreeBounds
            return masking.map { bounds.drift.lists[Int(bounds.indexSlot[$0.index])].count }
        }
        let (before, twinBefore) = (driftingCounts(twins.batch), driftingCounts(twins.single))
        for (list, range) in zip(masking, ranges) {
            let bounds = twins.batch.caches.subtreeBounds
            for card in twins.batch.sublayers(of: list)[range] {
                XCTAssertTrue(
                    OffsetPositionsTests.Twins.isDrifting(card.index, in: list.index, bounds),
                    "card \(card.index) of list \(list.index) waits parked with a known drift")
            }
        }
        // The first row move of each masking list (and its first on the twin). By index:
        // an array's for-in allocates in unoptimized builds.
        let move = Point(x: 0, y: 50)
        for k in masking.indices {
            try twins.batch.offsetPositions(ofSublayersOf: masking[k], in: ranges[k], by: move)
            try twins.single.offsetPositions(ofSublayersOf: masking[k], in: ranges[k], by: move)
        }
        // The same first moves allocate nothing, counted on a store that shares no buffer:
        // the twins come from `copy()`, which shares every column and the edit log until
        // either store writes them, so the warmed twin's first moves above copy its
        // positions, change marks and edit log ring (7 allocations: `copy()`'s documented
        // price, not the row move's). This store is built alike and its twin dropped.
        var alone = OffsetPositionsTests.Twins(&replay)
        alone.single = LayerStore()
        alone.batch.warmUp(in: viewport, into: &result)
        let aloneMasking = alone.lists.prefix(3).filter { alone.batch.caches.subtreeBounds.indexSlot[$0.index] >= 0 }
        XCTAssertEqual(aloneMasking.map(\.index), masking.map(\.index), "the same scene")
        FrameLoopAllocationTests.traceAllocations(true)
        let start = BGAllocationCount()
        for k in masking.indices {
            try alone.batch.offsetPositions(ofSublayersOf: aloneMasking[k], in: ranges[k], by: move)
        }
        let allocations = BGAllocationCount() - start
        FrameLoopAllocationTests.traceAllocations(false)
        if BGAllocationCounterIsActive() != 0 { XCTAssertEqual(allocations, 0, "the first row moves after warmUp()") }
        let aloneBounds = alone.batch.caches.subtreeBounds
        XCTAssertEqual(
            aloneMasking.map { aloneBounds.drift.lists[Int(aloneBounds.indexSlot[$0.index])].count }, before,
            "no card joined a drifting list there either")
        XCTAssertEqual(driftingCounts(twins.batch), before, "no card joined a drifting list: all waited there")
        XCTAssertEqual(
            zip(driftingCounts(twins.single), twinBefore).map { $0 - $1 }, ranges.map(\.count),
            "the never-warmed twin parks each card on its first move")
        // Frames: the twins agree, and both agree with the full passes.
        for frame in 0..<40 {
            let label = "frame \(frame)"
            let list = twins.lists[random.below(twins.lists.count)]
            let count = twins.batch.sublayerCount(of: list)
            let lower = random.below(count + 1)
            let range = lower..<(lower + random.below(count - lower + 1))
            let offset = OffsetPositionsTests.Twins.offset(&random)
            try twins.both { try $0.offsetPositions(ofSublayersOf: list, in: range, by: offset) }
            if frame % 10 == 9 {
                let scroll = Point(x: 0, y: Double(random.below(3000)))
                twins.both { $0.setContentOffset(scroll, of: masking[0]) }
            }
            let frameViewport = Rect(random.unit() * 1600, random.unit() * 400, 400, 400)
            twins.batch.visibleLayers(in: frameViewport, into: &result)
            twins.single.visibleLayers(in: frameViewport, into: &twinResult)
            XCTAssertEqual(result.layers, twinResult.layers, label)
            XCTAssertEqual(result.worldRects, twinResult.worldRects, label)
            XCTAssertEqual(result.clipRects, twinResult.clipRects, label)
            XCTAssertTrue(
                zip(result.worldTransforms, twinResult.worldTransforms).allSatisfy {
                    FrameQueryTests.sameBitPatterns($0, $1)
                }, label)
            FrameQueryTests.assertMatches(
                result, FrameQueryTests.expectedVisible(twins.batch, viewport: frameViewport), label)
            for _ in 0..<6 {
                let point = Point(x: random.unit() * 2000, y: random.unit() * 800)
                for rule in HitTestRule.allCases {
                    let hit = twins.batch.hitTest(point, rule: rule)
                    XCTAssertEqual(hit, twins.single.hitTest(point, rule: rule), label)
                }
            }
            XCTAssertEqual(twins.batch.drawOrder(), twins.single.drawOrder(), label)
            XCTAssertEqual(twins.batch._invariantViolations(), [], label)
        }
    }
    /// The cards `warmUp()` parks ahead are untouched until an edit reaches one: a list
    /// that only scrolls redoes none of them (its frames refresh exactly what a
    /// never-warmed twin's do, and its hit tests search nothing), while a card moved into
    /// the viewport by its setter or by a range move, untouched until then, is redone
    /// before the query reads its list: the queries equal the twin's and the full passes'.
    func testWarmUpParkedCardsAreNotRedoneUntilOneIsTouched() throws {
        var random = SplitMix64(seed: 2211)
        var twins = OffsetPositionsTests.Twins(&random)
        let viewport = Rect(0, 0, 2000, 800)
        var result = VisibleLayers()
        var twinResult = VisibleLayers()
        twins.batch.warmUp(in: viewport, into: &result)
        twins.single.visibleLayers(in: viewport, into: &twinResult)
        let masking = twins.lists.prefix(3).filter { twins.batch.caches.subtreeBounds.indexSlot[$0.index] >= 0 }
        XCTAssertGreaterThanOrEqual(masking.count, 2)
        func untouched(_ store: borrowing LayerStore) -> [Bool] {
            let bounds = store.caches.subtreeBounds
            return masking.map { bounds.drift.isUntouched(Int(bounds.indexSlot[$0.index])) }
        }
        func frame(_ twins: inout OffsetPositionsTests.Twins, _ label: String) {
            twins.batch.visibleLayers(in: viewport, into: &result)
            twins.single.visibleLayers(in: viewport, into: &twinResult)
            XCTAssertEqual(result.layers, twinResult.layers, label)
            XCTAssertEqual(result.worldRects, twinResult.worldRects, label)
            let expected = FrameQueryTests.expectedVisible(twins.batch, viewport: viewport)
            FrameQueryTests.assertMatches(result, expected, label)
            XCTAssertEqual(twins.batch._invariantViolations(), [], label)
        }
        XCTAssertEqual(untouched(twins.batch), masking.map { _ in true })
        // Scrolls: every list's drifting cards come into the frame's margin; none is redone.
        for step in 1...12 {
            let scroll = Point(x: 0, y: Double(step * 170 % 3000))
            for list in masking { twins.both { $0.setContentOffset(scroll, of: list) } }
            frame(&twins, "scroll \(step)")
            XCTAssertEqual(result.cost.refreshedLayers, twinResult.cost.refreshedLayers, "scroll \(step)")
            for _ in 0..<4 {
                let point = Point(x: random.unit() * 2000, y: random.unit() * 800)
                XCTAssertEqual(twins.batch.hitTest(point), twins.single.hitTest(point), "scroll \(step)")
            }
        }
        XCTAssertEqual(untouched(twins.batch), masking.map { _ in true }, "scrolling touches no card")
        let bounds = twins.batch.caches.subtreeBounds
        for list in masking {
            let cards = twins.batch.sublayers(of: list)
            let waiting = cards.filter { OffsetPositionsTests.Twins.isDrifting($0.index, in: list.index, bounds) }
            XCTAssertEqual(waiting.count, cards.count, "list \(list.index): all still wait, none redone")
        }
        // Back to the top. A card's badge moves (the card's box changes, its drift goes:
        // it waits in the parked sublayers, redone on descent): the list stays untouched.
        for list in masking { twins.both { $0.setContentOffset(Point(x: 0, y: 0), of: list) } }
        let card = try XCTUnwrap(twins.batch.sublayers(of: masking[0]).first)
        let badge = try XCTUnwrap(twins.batch.sublayers(of: card).first)
        twins.both { $0.setPosition(Point(x: 420, y: 30), of: badge) }
        frame(&twins, "badge moved")
        XCTAssertTrue(untouched(twins.batch)[0], "a card whose drift went leaves the others untouched")
        // The last card of each list, far below, moves into the viewport.
        let first = try XCTUnwrap(twins.batch.sublayers(of: masking[0]).last)
        twins.both { $0.setPosition(Point(x: 200, y: 100), of: first) }
        let count = twins.batch.sublayerCount(of: masking[1])
        let offset = Point(x: 0, y: -Double(count - 3) * 50)
        try twins.both { try $0.offsetPositions(ofSublayersOf: masking[1], in: (count - 1)..<count, by: offset) }
        XCTAssertFalse(untouched(twins.batch)[0], "a setter touched list 0")
        XCTAssertFalse(untouched(twins.batch)[1], "a range move touched list 1")
        frame(&twins, "moved in")
        XCTAssertTrue(result.layers.contains(first), "the moved card is redone and shows")
    }
}
