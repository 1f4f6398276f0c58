import BatchGeometry
// KEEP IDENTICAL to the Swift code block of
// Sources/BatchGeometry/BatchGeometry.docc/GettingStarted.md ("Getting started: a frame
// loop"): every line of that block appears below, in the same order (the import at the
// top, the rest in the test function, indented), with assertions of the values the
// article's comments state in between. scripts/docs.sh checks this (docs-check.py
// article); edit the article and this test together.
import XCTest

/// The DocC article's frame loop, run as written, so the article cannot drift from what the
/// package does. Plain `import BatchGeometry` (not `@testable`): the article may use only
/// the public API. The incremental update paths are IncrementalTests' concern; the stale
/// snapshot message is MisuseMessageTests'.
final class DocCGettingStartedTests: XCTestCase {
    func testTheGettingStartedArticle() throws {
        // Once: a window (a root) and 100 cards of 90 x 90 points in a 4-column grid.
        var store = LayerStore(minimumCapacity: 128)
        let window = try store.addLayer()  // a handle; window.index == 0
        XCTAssertEqual(window.index, 0)
        store.setFrame(Rect(0, 0, 400, 800), of: window)
        store.setMasksToBounds(true, of: window)  // clips its sublayers
        var cards: [LayerHandle] = []
        for k in 0..<100 {
            let card = try store.addLayer(superlayer: window)  // indices 1...100
            store.setFrame(Rect(Double(k % 4) * 100, Double(k / 4) * 100, 90, 90), of: card)
            cards.append(card)
        }
        XCTAssertEqual(cards.map(\.index), Array(1...100))
        store.setHidden(true, of: cards[3])  // not drawn, not hit, not visible
        store.updateWorld()  // the first update is a full pass
        let screen = Rect(0, 0, 400, 800)
        let options = KernelOptions.default  // C on every core, or BATCHGEOMETRY_*

        // Each frame (a function in an engine). The frame's snapshot is a local: keeping the
        // previous frame's alive while updating would make the update copy it.
        do {
            // 1. Move some layers: drag card 0 over card 5 and lift it above its siblings.
            store.setPosition(Point(150, 150), of: cards[0])
            store.setZPosition(1, of: cards[0])
            // 2. Update the world transforms: only the changed layers' subtrees are recomputed.
            let world = store.updateWorld(options: options)
            XCTAssertEqual(world.count, 101)
            // 3. World rects, clip rects and visibility of every layer, indexed by handle.index.
            let rects = store.worldRects(in: world, options: options)  // rects[cards[0].index]: (105, 105)...(195, 195)
            XCTAssertEqual(rects[cards[0].index], RectEdges(minX: 105, minY: 105, maxX: 195, maxY: 195))
            let clips = store.clipRects(worldRects: rects, options: options)
            // clips[window.index] == nil (no ancestor masks); a card's clip: the window's world rect
            XCTAssertNil(clips[window.index])
            XCTAssertEqual(rects[window.index], RectEdges(minX: 0, minY: 0, maxX: 400, maxY: 800))
            for card in cards { XCTAssertEqual(clips[card.index], rects[window.index]) }
            let visible = store.visibility(worldRects: rects, clipRects: clips, viewport: screen, options: options)
            // 32 layers visible: the window and cards 0...31 (rows 0 to 7) but hidden card 3;
            // row 8 starts at y = 800, where the window's clip ends
            XCTAssertEqual(visible.filter { $0 }.count, 32)
            let expectedVisible: [LayerHandle] = [window] + cards[0...2] + cards[4...31]
            XCTAssertEqual((0..<store.count).filter { visible[$0] }, expectedVisible.map(\.index))
            // 4. Hit-test the frame's touches (world space), front to back as Core Animation does.
            let touches = [Point(150, 150), Point(395, 795), Point(10, 1000)]
            let hits = store.hitTest(points: touches, in: world, rule: .layer, options: options)
            // hits == [cards[0], window, nil]: card 0 covers card 5 (zPosition 1); (395, 795) is
            // between cards; (10, 1000) is outside the window, which masks to its bounds
            XCTAssertEqual(hits, [cards[0], window, nil])
            // Card 5 lies under card 0.
            XCTAssertEqual(rects[cards[5].index], RectEdges(minX: 100, minY: 100, maxX: 190, maxY: 190))
            // The view rule ignores zPosition, as UIKit does: the later sibling, card 5, wins.
            XCTAssertEqual(
                store.hitTest(points: touches, in: world, rule: .view, options: options),
                [cards[5], window, nil])
            // Every backend and thread count answers the same.
            for backend in Backend.allCases {
                XCTAssertEqual(store.worldRects(in: world, options: .serial(backend)), rects, "\(backend)")
                XCTAssertEqual(store.hitTest(points: touches, in: world, options: .serial(backend)), hits, "\(backend)")
            }
            // 5. Painter's order: back to front, hidden subtrees left out.
            let order = store.drawOrder()
            // order == [window] + cards[1...2] + cards[4...99] + [cards[0]] (highest zPosition last)
            let expectedOrder: [LayerHandle] = [window] + cards[1...2] + cards[4...99] + [cards[0]]
            XCTAssertEqual(order, expectedOrder)
        }

        // A later frame changes the structure: a badge on card 1, and card 3 is destroyed.
        do {
            let badge = try store.addLayer(superlayer: cards[1])  // badge.index == 101
            XCTAssertEqual(badge.index, 101)
            store.setFrame(Rect(70, -10, 30, 30), of: badge)
            try store.destroyLayer(cards[3])  // frees card 3's slot; other handles stay
            let gone = cards.remove(at: 3)  // store.contains(gone) == false now
            XCTAssertFalse(store.contains(gone))
            XCTAssertTrue(cards.allSatisfy { store.contains($0) })
            XCTAssertEqual(store.count, 102)
            XCTAssertEqual(store.layerCount, 101)
            XCTAssertEqual(store.superlayer(of: badge), cards[1])
            // A WorldTransforms computed before these edits (the previous frame's) is stale now:
            // handing it to a query stops the program with "stale WorldTransforms: it was
            // computed for structure #… (101 layers), and the store's structure is now #… (102
            // layers); layers were added, removed or moved since, …". World rects, clip rects and
            // visibility from before are stale too.
            let world = store.updateWorld(options: options)  // a full pass: the hierarchy changed
            XCTAssertEqual(world.count, 102)
            let rects = store.worldRects(in: world, options: options)  // rects[badge.index]: (170, -10)...(200, 20)
            XCTAssertEqual(rects[badge.index], RectEdges(minX: 170, minY: -10, maxX: 200, maxY: 20))
            let order = store.drawOrder()
            // order == [window, cards[1], badge] + cards[2...98] + [cards[0]]: 101 layers
            let expectedOrder: [LayerHandle] = [window, cards[1], badge] + cards[2...98] + [cards[0]]
            XCTAssertEqual(order, expectedOrder)
            XCTAssertEqual(order.count, 101)
        }
    }
}
