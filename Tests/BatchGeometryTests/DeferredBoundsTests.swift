import XCTest

@_spi(Testing) @testable import BatchGeometry

/// The refresh leaves the changed sublayers of a masking list for the query that
/// descends into it (LayerStore+DeferredBounds.swift): a list off screen costs nothing,
/// and every answer is still the full passes' once a frame query or a hit test enters it.
final class DeferredBoundsTests: XCTestCase {
    struct Scene: ~Copyable {
        var store = LayerStore()
        /// Three masking lists of 100 cards (R-trees): the first on screen, the others to
        /// its right, off the 400 × 800 viewport.
        var lists: [LayerHandle] = []
        var cards: [[LayerHandle]] = []
        var badges: [LayerHandle] = []
        let viewport = Rect(0, 0, 400, 800)

        init() throws {
            let window = store.addViewWithFrame(Rect(0, 0, 1600, 800))
            for k in 0..<3 {
                let list = store.addViewWithFrame(Rect(Double(k) * 500, 0, 400, 800), parent: window)
                store.setMasksToBounds(true, of: list)
                lists.append(list)
                var row: [LayerHandle] = []
                for n in 0..<100 {
                    let card = store.addViewWithFrame(Rect(5, Double(n) * 50, 390, 44), parent: list)
                    if n % 4 == 0 { badges.append(store.addViewWithFrame(Rect(350, 4, 30, 30), parent: card)) }
                    row.append(card)
                }
                cards.append(row)
            }
        }

        func hasParked(_ list: LayerHandle) -> Bool {
            store.caches.subtreeBounds.state[list.index] & SubtreeBounds.Mark.hasParked != 0
        }

        /// The frame query over `viewport` equals the full passes; the store's
        /// invariants (the parked boxes redone equal a fresh build) hold.
        mutating func check(_ viewport: Rect, _ label: String, file: StaticString = #filePath, line: UInt = #line) {
            var result = VisibleLayers()
            store.visibleLayers(in: viewport, into: &result)
            FrameQueryTests.assertMatches(
                result, FrameQueryTests.expectedVisible(store, viewport: viewport), label, file: file, line: line)
            XCTAssertEqual(store._invariantViolations(), [], label, file: file, line: line)
        }
    }

    /// Cards moved and scaled in an off-screen list: the frame query redoes none of their
    /// boxes (only the badges', whose cards do not mask); once the list is moved on screen
    /// the query redoes them and shows them where the full passes do.
    func testAnOffScreenListsCardsWaitUntilItComesOnScreen() throws {
        var scene = try Scene()
        var result = VisibleLayers()
        scene.store.visibleLayers(in: scene.viewport, into: &result)
        for n in stride(from: 0, to: 99, by: 3) {
            scene.store.setPosition(Point(200 + Double(n), 25 + Double(n) * 40), of: scene.cards[1][n])
            scene.store.setTransform(.scale(x: 1.1, y: 0.9), of: scene.cards[1][n + 1])
        }
        let badge = scene.store.sublayers(of: scene.cards[1][8])[0]
        scene.store.setPosition(Point(300, 40), of: badge)
        scene.store.visibleLayers(in: scene.viewport, into: &result)
        FrameQueryTests.assertMatches(
            result, FrameQueryTests.expectedVisible(scene.store, viewport: scene.viewport), "")
        XCTAssertEqual(result.cost.refreshedLayers, 1, "the badge only: its card and the others wait")
        XCTAssertEqual(result.cost.refitIndexLeaves, 0)
        XCTAssertTrue(scene.hasParked(scene.lists[1]))
        XCTAssertFalse(scene.hasParked(scene.lists[0]))
        XCTAssertEqual(scene.store._invariantViolations(), [])

        scene.store.setPosition(Point(200, 400), of: scene.lists[1])  // over the first list
        scene.store.visibleLayers(in: scene.viewport, into: &result)
        FrameQueryTests.assertMatches(
            result, FrameQueryTests.expectedVisible(scene.store, viewport: scene.viewport), "on screen")
        // The list's box and the window's union, then on descent the moved cards whose
        // leaves meet the window grown by the drift bound, and the list's union; the
        // cards moved far below (up to 4,000 points: the bound passes the list's
        // height) keep waiting, as they did not when such a bound redid the whole list.
        XCTAssertTrue(scene.hasParked(scene.lists[1]))
        XCTAssertGreaterThan(result.cost.refitIndexLeaves, 0)
        XCTAssertLessThan(result.cost.refitIndexLeaves, 67)
        XCTAssertEqual(result.cost.refreshedLayers, 1 + 1 + result.cost.refitIndexLeaves + 1)
        XCTAssertEqual(scene.store._invariantViolations(), [])
    }

    /// A hit test into an off-screen list with parked cards redoes them first (the moved
    /// ones near the point): every answer (both rules, on the moved cards and around
    /// them) is the full walk's.
    func testAHitTestIntoAListRedoesItsParkedCards() throws {
        var scene = try Scene()
        var result = VisibleLayers()
        scene.store.visibleLayers(in: scene.viewport, into: &result)
        for n in 0..<100 where n % 2 == 0 {
            scene.store.setPosition(Point(200, 25 + Double(n) * 50 + 30), of: scene.cards[2][n])
        }
        scene.store.setHidden(true, of: scene.cards[2][5])
        scene.store.visibleLayers(in: scene.viewport, into: &result)
        XCTAssertTrue(scene.hasParked(scene.lists[2]))
        let world = scene.store.worldTransforms()
        var random = SplitMix64(seed: 23)
        var hits = 0
        for k in 0..<200 {
            let point = Point(x: 1000 + random.unit() * 400, y: random.unit() * 800)
            for rule in HitTestRule.allCases {
                let expected = scene.store.hitTest(point, in: world, rule: rule)
                XCTAssertEqual(scene.store.hitTest(point, rule: rule), expected, "point \(k) \(point) \(rule)")
                if expected.map({ scene.store.superlayer(of: $0) == scene.lists[2] }) ?? false { hits += 1 }
            }
        }
        XCTAssertGreaterThan(hits, 100, "most points hit a card")
        // The hidden card (no drift bound) was redone on the first descent; the moved ones
        // (30 points each) only where a point came near them (ParkedDrift).
        let hidden = scene.cards[2][5].index
        XCTAssertEqual(scene.store.caches.subtreeBounds.state[hidden] & SubtreeBounds.Mark.parked, 0)
        XCTAssertEqual(scene.store._invariantViolations(), [])
    }

    /// Random edits to cards, badges and lists (moves, scales, hiding, z order, cards
    /// moved between lists, removed and added, lists scrolled, moved on and off screen,
    /// unmasked and masked again) with frame queries over viewports that show some lists
    /// and not others, and hit tests: every answer equals the full passes, and the kept
    /// boxes, redone, equal a fresh build.
    func testRandomEditsUnderMaskingListsMatchTheFullPasses() throws {
        var waiting = 0
        for seed in UInt64(0)..<3 {
            var scene = try Scene()
            var random = SplitMix64(seed: 2300 + seed)
            for round in 0..<60 {
                for _ in 0..<(1 + random.below(12)) { try Self.edit(&scene, &random) }
                let viewport = Rect(random.unit() * 1200, random.unit() * 400, 100 + random.unit() * 400, 400)
                scene.check(viewport, "seed \(seed) round \(round)")
                if scene.lists.contains(where: { scene.hasParked($0) }) { waiting += 1 }
                if round % 4 == 3 {
                    let world = scene.store.worldTransforms()
                    for _ in 0..<8 {
                        let point = Point(x: random.unit() * 1500, y: random.unit() * 800)
                        XCTAssertEqual(
                            scene.store.hitTest(point, rule: .layer),
                            scene.store.hitTest(point, in: world, rule: .layer),
                            "seed \(seed) round \(round) \(point)")
                    }
                }
            }
        }
        XCTAssertGreaterThan(waiting, 30, "most rounds leave cards waiting below a list off screen")
    }

    private static func edit(_ scene: inout Scene, _ random: inout SplitMix64) throws {
        let list = scene.lists[random.below(3)]
        let sublayers = scene.store.sublayers(of: list)
        guard let card = sublayers.isEmpty ? nil : sublayers[random.below(sublayers.count)] else { return }
        switch random.below(12) {
        case 0, 1, 2: scene.store.setPosition(Point(200 + random.unit() * 40, random.unit() * 5000), of: card)
        case 3: scene.store.setTransform(.scale(x: 0.8 + random.unit() * 0.4, y: 0.8 + random.unit() * 0.4), of: card)
        case 4: scene.store.setHidden(random.chance(30), of: card)
        case 5: scene.store.setZPosition(Double(random.below(3)) - 1, of: card)
        case 6:
            let badge = scene.badges[random.below(scene.badges.count)]
            scene.store.setPosition(Point(random.unit() * 400, random.unit() * 44), of: badge)
        case 7:
            try scene.store.insertSublayer(card, into: scene.lists[random.below(3)], at: random.chance(50) ? 0 : nil)
        case 8:
            if random.chance(50) {
                try scene.store.removeFromSuperlayer(card)
            } else {
                _ = try scene.store.addLayer(superlayer: list)
            }
        case 9: scene.store.setContentOffset(Point(x: 0, y: random.unit() * 4000), of: list)
        case 10: scene.store.setPosition(Point(200 + Double(random.below(4)) * 500, 400), of: list)
        default:
            if random.chance(50) {
                scene.store.setMasksToBounds(random.chance(70), of: list)
            } else {
                scene.store.setSublayerTransform(random.chance(50) ? .identity : .scale(x: 1, y: 1.5), of: list)
            }
        }
    }
}
