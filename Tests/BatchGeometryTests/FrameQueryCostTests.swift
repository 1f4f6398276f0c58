import XCTest

@_spi(Testing) @testable import BatchGeometry

/// `VisibleLayers.cost` (issue 22 item 4) against counts made by hand from a small scene
/// whose geometry leaves no doubt: a window, a masking list of 100 cards 1,000 points
/// apart (so only card 0 is on screen and the list gets an R-tree), each card with one
/// badge.
final class FrameQueryCostTests: XCTestCase {
    struct Scene: ~Copyable {
        var store = LayerStore()
        var list = LayerHandle(rawValue: 0)
        var cards: [LayerHandle] = []
        let viewport = Rect(0, 0, 400, 800)

        init() throws {
            let window = try store.addLayer()
            store.setFrame(Rect(0, 0, 400, 800), of: window)
            list = try store.addLayer(superlayer: window)
            store.setFrame(Rect(0, 0, 400, 800), of: list)
            store.setMasksToBounds(true, of: list)
            for k in 0..<100 {
                let card = try store.addLayer(superlayer: list)
                store.setFrame(Rect(0, Double(k) * 1_000, 400, 100), of: card)
                let badge = try store.addLayer(superlayer: card)
                store.setFrame(Rect(10, 10, 20, 20), of: badge)
                cards.append(card)
            }
        }
    }

    func testTheWalkCountsWhatTheViewportShows() throws {
        var scene = try Scene()
        var result = VisibleLayers()
        scene.store.visibleLayers(in: scene.viewport, into: &result)
        XCTAssertEqual(result.count, 4, "window, list, card 0, its badge")
        // Entered: the window, the list, card 0 and its badge. Tested: the window's one
        // sublayer (the list), the list's R-tree candidate (card 0 alone: card 1 starts at
        // y = 1,000, past the list's clip), card 0's badge.
        XCTAssertEqual(result.cost.visitedLayers, 4)
        XCTAssertEqual(result.cost.testedSublayers, 3)
        XCTAssertEqual(result.visitedLayerCount, result.cost.visitedLayers)
        XCTAssertEqual(result.testedSublayerCount, result.cost.testedSublayers)
        // The first query built the boxes of all 202 layers and the list's R-tree of 100.
        XCTAssertEqual(result.cost.refreshedLayers, 202)
        XCTAssertEqual(result.cost.rebuiltIndexes, 1)
        XCTAssertEqual(result.cost.rebuiltIndexEntries, 100)

        // Whole screen scrolled to card 3: the list's candidates are card 3 alone.
        scene.store.setContentOffset(Point(0, 3_000), of: scene.list)
        scene.store.visibleLayers(in: scene.viewport, into: &result)
        XCTAssertEqual(result.layers.map(\.index), [0, 1, scene.cards[3].index, scene.cards[3].index + 1])
        XCTAssertEqual(result.cost.visitedLayers, 4)
        XCTAssertEqual(result.cost.testedSublayers, 3)
    }

    func testTheRefreshCountsWhatTheEditsChanged() throws {
        var scene = try Scene()
        var result = VisibleLayers()
        scene.store.visibleLayers(in: scene.viewport, into: &result)
        // Nothing changed: nothing refreshed.
        scene.store.visibleLayers(in: scene.viewport, into: &result)
        XCTAssertEqual(result.cost.refreshedLayers, 0)
        XCTAssertEqual(result.cost.refitIndexLeaves, 0)

        // One card moved 50 points, far off screen: it waits, parked in the masking list
        // with that drift (ParkedDrift), which cannot bring it near the viewport; the
        // descent redoes only the list's content. No leaf refitted.
        scene.store.setPosition(Point(200, 50_000), of: scene.cards[50])
        scene.store.visibleLayers(in: scene.viewport, into: &result)
        XCTAssertEqual(result.cost.refreshedLayers, 1)
        XCTAssertEqual(result.cost.refitIndexLeaves, 0)
        // Moved onto the screen: its box and leaf are redone on descent.
        scene.store.setPosition(Point(200, 400), of: scene.cards[50])
        scene.store.visibleLayers(in: scene.viewport, into: &result)
        XCTAssertEqual(result.cost.refreshedLayers, 2)
        XCTAssertEqual(result.cost.refitIndexLeaves, 1)
        XCTAssertTrue(result.layers.contains { $0.index == scene.cards[50].index })
        XCTAssertEqual(result.cost.insertedIndexLeaves, 0)
        XCTAssertEqual(result.cost.rebuiltIndexes, 0)
        XCTAssertEqual(result.cost.sortedLists, 0)

        // Three cards added to the list: three leaves inserted (free leaves are left in
        // every bottom node), no rebuild.
        for k in 0..<3 {
            let card = try scene.store.addLayer(superlayer: scene.list, at: 10)
            scene.store.setFrame(Rect(0, 60_000 + Double(k) * 1_000, 400, 100), of: card)
        }
        scene.store.visibleLayers(in: scene.viewport, into: &result)
        XCTAssertEqual(result.cost.insertedIndexLeaves, 3)
        XCTAssertEqual(result.cost.rebuiltIndexes, 0)

        // A zPosition that neither neighbour shares: the list's cached order is stale, but
        // the list is indexed, so the frame query orders its candidates by key and label
        // and leaves the re-sort to a reader of the whole order (`refreshDrawOrder()`).
        scene.store.setZPosition(1, of: scene.cards[30])
        scene.store.visibleLayers(in: scene.viewport, into: &result)
        XCTAssertEqual(result.cost.sortedLists, 0)
        XCTAssertTrue(scene.store.caches.drawOrderCache.isDeferred(scene.list.index))
        scene.store.refreshDrawOrder()
        XCTAssertFalse(scene.store.caches.drawOrderCache.isDeferred(scene.list.index))
        scene.store.visibleLayers(in: scene.viewport, into: &result)
        XCTAssertEqual(result.cost.sortedLists, 0)
    }

    func testPhaseTimesOnlyWhenAsked() throws {
        var scene = try Scene()
        var result = VisibleLayers()
        scene.store.visibleLayers(in: scene.viewport, into: &result)
        XCTAssertEqual(result.cost.refreshSeconds, 0)
        XCTAssertEqual(result.cost.walkSeconds, 0)
        result.measuresPhaseTimes = true
        scene.store.setPosition(Point(200, 50_000), of: scene.cards[50])
        scene.store.visibleLayers(in: scene.viewport, into: &result)
        XCTAssertGreaterThan(result.cost.refreshSeconds, 0)
        XCTAssertGreaterThan(result.cost.walkSeconds, 0)
        XCTAssertEqual(result.cost.refreshedLayers, 1, "the counts are the same either way: the list's union")
    }
}
