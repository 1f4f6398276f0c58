import XCTest

@_spi(Testing) @testable import BatchGeometry

/// The packet walk's lanes: a packet that splits at a wide layer (lanes that prune by its
/// R-tree, lanes without a margin that take its whole list) answers as the single walk.
final class HitTestLaneTests: XCTestCase {
    /// One packet (64 points) over an indexed root (an R-tree over its 100 cards plus one
    /// card ~1.6e308 wide): 63 lanes on the cards prune by the R-tree, and the lane at
    /// x = 1.6e308 has no margin (it overflows), so it takes the root's whole list in a
    /// second frame and hits the wide card. Every answer is the single walk's and the
    /// snapshot walk's.
    func testAPacketSplitAtAWideLayerByLanesWithoutAMargin() {
        var store = LayerStore()
        let root = store.addViewWithFrame(Rect(0, 0, 1000, 1000))
        var cards: [LayerHandle] = []
        for k in 0..<100 {
            cards.append(
                store.addViewWithFrame(Rect(Double(k % 10) * 100, Double(k / 10) * 100, 90, 90), parent: root))
        }
        let wide = store.addViewWithFrame(Rect(2000, 0, 1.6e308, 50), parent: root)
        var random = SplitMix64(seed: 5)
        var points = (0..<63).map { _ in
            Point(x: Double(random.below(1000)) + 0.5, y: Double(random.below(1000)) + 0.5)
        }
        points.append(Point(x: 1.5e308, y: 10))
        let world = store.worldTransforms()
        var batch: [LayerHandle?] = []
        for rule in HitTestRule.allCases {
            store.hitTest(points: points, rule: rule, into: &batch)
            for (k, point) in points.enumerated() {
                let expected = store.hitTest(point, in: world, rule: rule)
                XCTAssertEqual(batch[k], expected, "\(rule) point \(k) \(point)")
                XCTAssertEqual(store.hitTest(point, rule: rule), expected, "single walk, \(rule) point \(k)")
            }
            XCTAssertEqual(batch[63], rule == .layer ? wide : nil, "\(rule): the lane without a margin")
            // Most lanes prune by the R-tree onto a card.
            XCTAssertGreaterThan(batch.prefix(63).filter { $0.map(cards.contains) ?? false }.count, 40)
        }
    }

    /// The planar visit (a solvable planar world map, read from the world cache) and the
    /// general one (the map computed, or singular: `scale(0, 1)`, masked and not) in one
    /// batch, over cards with sublayers (the visit that stores lanes and their box) and
    /// leaves (containment only): every answer is the single walk's and the snapshot
    /// walk's, with the world cache current and stale, under both rules.
    func testPlanarSingularAndLeafVisitsAnswerAsTheSingleWalk() {
        var store = LayerStore()
        let root = store.addViewWithFrame(Rect(0, 0, 800, 800))
        var random = SplitMix64(seed: 23)
        for k in 0..<40 {
            let card = store.addViewWithFrame(Rect(Double(k % 8) * 100, Double(k / 8) * 150, 90, 140), parent: root)
            switch k % 5 {
            case 1: store.setAffineTransform(.rotation(radians: Double(k) * 0.1), of: card)
            case 2: store.setAffineTransform(.scale(x: 0, y: 1), of: card)  // singular
            case 3:
                store.setAffineTransform(.scale(x: 1, y: 0), of: card)
                store.setMasksToBounds(true, of: card)
            default: break
            }
            for j in 0..<3 {
                _ = store.addViewWithFrame(Rect(Double(j) * 30, Double(j) * 40, 40, 50), parent: card)
            }
        }
        let points = (0..<300).map { _ in Point(x: random.unit() * 820 - 10, y: random.unit() * 920 - 10) }
        var batch: [LayerHandle?] = []
        var hits = 0
        for cached in [false, true] {
            if cached { _ = store.updateWorld() }
            let world = store.worldTransforms()
            for rule in HitTestRule.allCases {
                store.hitTest(points: points, rule: rule, into: &batch)
                for (k, point) in points.enumerated() {
                    let expected = store.hitTest(point, in: world, rule: rule)
                    XCTAssertEqual(batch[k], expected, "cached \(cached) \(rule) point \(k) \(point)")
                    XCTAssertEqual(store.hitTest(point, rule: rule), expected, "single walk, \(rule) point \(k)")
                    if let expected, expected != root { hits += 1 }
                }
            }
        }
        XCTAssertGreaterThan(hits, 200, "many points hit a card or a sublayer")
    }
}
