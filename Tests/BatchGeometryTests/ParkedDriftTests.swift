import XCTest

@_spi(Testing) @testable import BatchGeometry

/// Parked cards outside the window (ParkedDrift.swift): a card under a masking list that
/// only moved or scaled waits, with a bound on its drift, until a query's region grown by
/// that bound reaches its old box. Every answer must still be the full passes'.
final class ParkedDriftTests: XCTestCase {
    typealias Scene = DeferredBoundsTests.Scene

    /// Every parked card whose drift is bounded lies, as a fresh build computes it, within
    /// its old box grown by its list's bound, and every parked card of a drifting list
    /// whose drift is unknown waits in the list's parked sublayers (which every descent
    /// redoes): the properties the descent relies on.
    static func assertDriftBounds(
        _ store: borrowing LayerStore, _ label: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        var fresh = store.copy()
        fresh.caches.subtreeBounds = SubtreeBounds()
        fresh.refreshSubtreeBounds()
        let kept = store.caches.subtreeBounds
        let built = fresh.caches.subtreeBounds
        for slot in kept.drift.lists.indices {
            let bound = kept.drift.listBounds[slot]
            for entry in kept.drift.lists[slot] {
                let card = Int(entry)
                guard kept.state[card] & SubtreeBounds.Mark.parked != 0, bound.isFinite else { continue }
                guard kept.drift.drift(of: card) != nil else {
                    XCTAssertTrue(
                        kept.parkedSublayers[kept.drift.parkedSlot(of: card)].contains(entry),
                        "\(label): card \(card) lost its drift but is not in its list's parked sublayers", file: file,
                        line: line)
                    continue
                }
                let old = kept.extent[card]
                let new = built.extent[card]
                if new.isNull { continue }
                let fitsX: Bool = new.minX >= old.minX - bound && new.maxX <= old.maxX + bound
                let fitsY: Bool = new.minY >= old.minY - bound && new.maxY <= old.maxY + bound
                let fits = fitsX && fitsY
                XCTAssertTrue(
                    fits, "\(label): card \(card) drifted from \(old) to \(new), bound \(bound)", file: file, line: line
                )
            }
        }
    }

    /// Hit tests at random points over `viewport` (both rules) equal the full walk's.
    static func assertHits(_ scene: inout Scene, _ viewport: Rect, _ random: inout SplitMix64, _ label: String) {
        let world = scene.store.worldTransforms()
        for _ in 0..<6 {
            let point = Point(
                x: viewport.x + random.unit() * viewport.width, y: viewport.y + random.unit() * viewport.height)
            for rule in HitTestRule.allCases {
                XCTAssertEqual(
                    scene.store.hitTest(point, rule: rule), scene.store.hitTest(point, in: world, rule: rule),
                    "\(label) \(point) \(rule)")
            }
        }
    }

    /// Nudged and scaled cards far below the viewport of an on-screen list stay parked
    /// frame after frame (the query redoes none of them), and are redone, and shown where
    /// the full passes show them, once one moves into the window.
    func testFarCardsStayParkedUntilTheyMoveIntoTheWindow() throws {
        var scene = try Scene()
        var result = VisibleLayers()
        scene.store.visibleLayers(in: scene.viewport, into: &result)
        let far = Array(scene.cards[0][40..<100])  // y ≥ 2,000, the viewport is 800 high
        for frame in 0..<10 {
            for (k, card) in far.enumerated() {
                let nudge = Double((frame + k) % 5) - 2
                scene.store.setPosition(Point(200 + nudge, 25 + Double(40 + k) * 50 + nudge), of: card)
                if k % 3 == 0 {
                    let scale = 1 + 0.05 * Double((frame + k) % 3)
                    scene.store.setTransform(.scale(x: scale, y: scale), of: card)
                }
            }
            scene.store.visibleLayers(in: scene.viewport, into: &result)
            FrameQueryTests.assertMatches(
                result, FrameQueryTests.expectedVisible(scene.store, viewport: scene.viewport), "frame \(frame)")
            XCTAssertEqual(result.cost.refreshedLayers, 1, "frame \(frame): the list's union; the 60 cards wait")
            XCTAssertEqual(result.cost.refitIndexLeaves, 0)
            Self.assertDriftBounds(scene.store, "frame \(frame)")
        }
        XCTAssertTrue(scene.hasParked(scene.lists[0]))
        XCTAssertEqual(scene.store._invariantViolations(), [])
        // Scrolled to the far cards: the ones the window now shows (and their neighbours
        // within the drift) are redone, not all 60.
        scene.store.setContentOffset(Point(0, 2_500), of: scene.lists[0])
        scene.store.visibleLayers(in: scene.viewport, into: &result)
        FrameQueryTests.assertMatches(
            result, FrameQueryTests.expectedVisible(scene.store, viewport: scene.viewport), "scrolled")
        XCTAssertTrue(result.layers.contains { $0.index == far[20].index })
        XCTAssertGreaterThan(result.cost.refreshedLayers, 10)
        XCTAssertLessThan(result.cost.refreshedLayers, 30, "the cards near the window, not the 60")
        XCTAssertTrue(scene.hasParked(scene.lists[0]))
        XCTAssertEqual(scene.store._invariantViolations(), [])
    }

    /// A relayout: every frame the cards below row 20 move down two rows more, so their
    /// drift passes the list's own height (800) by frame 9, and at frame 6 a far card gets
    /// a zPosition (its drift unknown). Each query redoes only the cards whose leaves lie
    /// near the window grown by the bound, and that card; never the whole list (a bound
    /// past the list's size, or an unknown one, redid all 80: issue 22's relayout stall).
    func testADriftPastTheListsHeightRedoesOnlyTheCardsNearTheWindow() throws {
        var scene = try Scene()
        var result = VisibleLayers()
        scene.store.visibleLayers(in: scene.viewport, into: &result)
        for frame in 1...10 {
            for n in 20..<100 {
                scene.store.setPosition(Point(200, 22 + Double(n + 2 * frame) * 50), of: scene.cards[0][n])
            }
            if frame == 6 { scene.store.setZPosition(1, of: scene.cards[0][90]) }
            scene.store.visibleLayers(in: scene.viewport, into: &result)
            FrameQueryTests.assertMatches(
                result, FrameQueryTests.expectedVisible(scene.store, viewport: scene.viewport), "frame \(frame)")
            XCTAssertLessThan(result.cost.refreshedLayers, 40, "frame \(frame): cards near the window, not all 80")
            Self.assertDriftBounds(scene.store, "frame \(frame)")
            XCTAssertEqual(scene.store._invariantViolations(), [], "frame \(frame)")
        }
        XCTAssertTrue(scene.hasParked(scene.lists[0]), "the far cards still wait")
        let slot = Int(scene.store.caches.subtreeBounds.indexSlot[scene.lists[0].index])
        XCTAssertGreaterThan(scene.store.caches.subtreeBounds.drift.listBounds[slot], 800, "past the list's height")
    }

    /// A relayout's first move of a list's cards (after a query built the bounds) parks
    /// each card in the setter, as the refresh would have: none waits in the refresh's
    /// queue, each is parked in its list's drifting cards, and the query then redoes only
    /// the cards near the window and equals the full passes. A card with other marks
    /// waiting (a sublayer added to it) is queued as before.
    func testAFirstMoveParksTheCardAtOnce() throws {
        var scene = try Scene()
        var result = VisibleLayers()
        scene.store.visibleLayers(in: scene.viewport, into: &result)
        let moved = scene.cards[0][20..<100]
        let added = try scene.store.addLayer(superlayer: moved.last!)
        scene.store.setBounds(Rect(0, 0, 20, 20), of: added)
        for (k, card) in moved.enumerated() { scene.store.setPosition(Point(200, 22 + Double(k + 22) * 50), of: card) }
        let bounds = scene.store.caches.subtreeBounds
        let slot = Int(bounds.indexSlot[scene.lists[0].index])
        for card in moved.dropLast() {
            XCTAssertEqual(
                bounds.state[card.index] & (SubtreeBounds.Mark.parked | SubtreeBounds.Mark.queued),
                SubtreeBounds.Mark.parked, "card \(card.index)")
            XCTAssertTrue(bounds.drift.lists[slot].contains(Int32(card.index)), "card \(card.index)")
        }
        XCTAssertEqual(
            bounds.queue.map(Int.init).sorted(),
            [moved.last!.index, added.index].sorted(), "only the card with a new sublayer, and that sublayer, wait")
        XCTAssertGreaterThanOrEqual(bounds.drift.listBounds[slot], 100, "the moves' drift")
        scene.store.visibleLayers(in: scene.viewport, into: &result)
        FrameQueryTests.assertMatches(
            result, FrameQueryTests.expectedVisible(scene.store, viewport: scene.viewport), "after the first move")
        XCTAssertLessThan(result.cost.refreshedLayers, 30, "cards near the window, not all 80")
        Self.assertDriftBounds(scene.store, "after the first move")
        XCTAssertEqual(scene.store._invariantViolations(), [])
        scene.check(Rect(0, 2_000, 400, 800), "the far cards' region")
    }

    /// A list that drops its index (below 64 cards) and gets it back: the cards moved
    /// meanwhile, unindexed, get references that match their new boxes, so their later
    /// drifts are bounded from there.
    func testAListThatLosesAndRegainsItsIndex() throws {
        var scene = try Scene()
        var result = VisibleLayers()
        let list = scene.lists[0]
        scene.store.visibleLayers(in: scene.viewport, into: &result)
        let removed = Array(scene.cards[0][60..<100])
        for card in removed { try scene.store.removeFromSuperlayer(card) }
        scene.check(scene.viewport, "60 cards: no index")
        XCTAssertEqual(scene.store.caches.subtreeBounds.indexSlot[list.index], -1)
        for (k, card) in scene.cards[0][20..<60].enumerated() {
            scene.store.setPosition(Point(200, 3_000 + Double(k) * 50), of: card)
        }
        scene.check(scene.viewport, "moved while unindexed")
        for card in removed { try scene.store.insertSublayer(card, into: list, at: nil) }
        scene.check(scene.viewport, "100 cards: indexed again")
        for frame in 0..<6 {
            for (k, card) in scene.cards[0][20..<60].enumerated() {
                scene.store.setPosition(Point(200, 3_000 + Double(k) * 50 - Double(frame) * 120), of: card)
            }
            scene.check(scene.viewport, "frame \(frame)")
            Self.assertDriftBounds(scene.store, "frame \(frame)")
        }
    }

    /// Random frames of an animated list: small nudges and scales (uniform or not) of
    /// many cards, jumps into and out of the window, rotations (no bound), list scrolls,
    /// parked cards removed, added back, the list detached and re-attached, lists moved:
    /// after every frame the frame query (visible layers, drawing order) and hit tests
    /// equal the full passes, the drift bounds hold, and redone boxes equal a fresh build.
    func testRandomDriftsMatchTheFullPasses() throws {
        var parkedFrames = 0
        for seed in UInt64(0)..<3 {
            var scene = try Scene()
            var random = SplitMix64(seed: 2323 + seed)
            var result = VisibleLayers()
            scene.store.visibleLayers(in: scene.viewport, into: &result)
            let window = try XCTUnwrap(scene.store.superlayer(of: scene.lists[0]))
            for round in 0..<50 {
                // List 0 detached for three rounds in ten, its cards drifting meanwhile.
                if round % 10 == 4 { try scene.store.removeFromSuperlayer(scene.lists[0]) }
                if round % 10 == 7 { try scene.store.insertSublayer(scene.lists[0], into: window, at: 0) }
                for _ in 0..<(20 + random.below(40)) { try Self.drift(&scene, &random) }
                for _ in 0..<random.below(3) { try Self.edit(&scene, &random) }
                let viewport = Rect(random.unit() * 200, random.unit() * 200, 300 + random.unit() * 500, 600)
                scene.check(viewport, "seed \(seed) round \(round)")
                Self.assertDriftBounds(scene.store, "seed \(seed) round \(round)")
                if scene.lists.contains(where: { scene.hasParked($0) }) { parkedFrames += 1 }
                Self.assertHits(&scene, viewport, &random, "seed \(seed) round \(round)")
            }
        }
        XCTAssertGreaterThan(parkedFrames, 100, "cards stay parked across frames")
    }

    /// The clean-region tests' start: a query over the viewport, then the first list's
    /// cards 20..<100 moved 100 points down (checked against the full passes); returns
    /// the list's index position.
    static func relayoutFirstList(_ scene: inout Scene) throws -> Int {
        var result = VisibleLayers()
        scene.store.visibleLayers(in: scene.viewport, into: &result)
        try scene.store.offsetPositions(ofSublayersOf: scene.lists[0], in: 20..<100, by: Point(0, 100))
        scene.check(scene.viewport, "after the move")
        return Int(scene.store.caches.subtreeBounds.indexSlot[scene.lists[0].index])
    }

    /// A relayout's list, then frames that only scroll it a little: the first query
    /// searches its R-tree for the drifting cards near the window (a margin more) and
    /// records that region as clean; the next frames' grown regions and the hit tests lie
    /// inside it and skip the search (the clean region stays as it was), scrolling past
    /// it searches again, and every answer is the full passes'.
    func testScrollingInsideTheCleanRegionSkipsTheDriftingSearch() throws {
        var scene = try Scene()
        var random = SplitMix64(seed: 2207)
        let slot = try Self.relayoutFirstList(&scene)
        XCTAssertTrue(scene.hasParked(scene.lists[0]), "the far cards drift")
        let clean = scene.store.caches.subtreeBounds.drift.cleanRegions[slot]
        XCTAssertFalse(clean.isNull)
        XCTAssertTrue(clean.minY <= 0 && clean.maxY >= 900, "the window grown by the bound: \(clean)")
        for frame in 1...10 {
            scene.store.setContentOffset(Point(0, Double(frame) * 8), of: scene.lists[0])
            scene.check(scene.viewport, "frame \(frame)")
            Self.assertHits(&scene, scene.viewport, &random, "frame \(frame)")
            XCTAssertEqual(
                scene.store.caches.subtreeBounds.drift.cleanRegions[slot], clean, "frame \(frame): no new search")
            Self.assertDriftBounds(scene.store, "frame \(frame)")
        }
        scene.store.setContentOffset(Point(0, 1_200), of: scene.lists[0])
        scene.check(scene.viewport, "scrolled past it")
        Self.assertHits(&scene, scene.viewport, &random, "scrolled past it")
        let moved = scene.store.caches.subtreeBounds.drift.cleanRegions[slot]
        XCTAssertNotEqual(moved, clean, "searched again")
        XCTAssertTrue(moved.minY <= 1_200 && moved.maxY >= 2_000, "\(moved)")
        XCTAssertTrue(scene.hasParked(scene.lists[0]), "the cards far from both windows still wait")
    }

    /// A card that joins the list's drifting cards (a redone card moved again) forgets
    /// the clean region; a far drifting card moved into the window raises the bound, so
    /// the grown region leaves the clean one and the search finds it; hit tests (their
    /// own searches, smaller than the frame's) keep the larger clean region.
    func testACardJoiningTheDriftingCardsForgetsTheCleanRegion() throws {
        var scene = try Scene()
        var random = SplitMix64(seed: 2208)
        let slot = try Self.relayoutFirstList(&scene)
        let clean = scene.store.caches.subtreeBounds.drift.cleanRegions[slot]
        XCTAssertFalse(clean.isNull)
        Self.assertHits(&scene, scene.viewport, &random, "hits")
        XCTAssertEqual(scene.store.caches.subtreeBounds.drift.cleanRegions[slot], clean, "kept by the hit tests")
        // Card 20 (now at y 1,100) was redone by the search's margin: its move parks it
        // in the drifting cards, inside the clean region.
        scene.store.setPosition(Point(200, 1_050), of: scene.cards[0][20])
        XCTAssertTrue(scene.store.caches.subtreeBounds.drift.cleanRegions[slot].isNull)
        XCTAssertEqual(scene.store._invariantViolations(), [])
        scene.check(scene.viewport, "after a redone card moved")
        Self.assertHits(&scene, scene.viewport, &random, "after a redone card moved")
        // A far card (y 3,100), drifting, into the window in a run: the bound, not the
        // clean region, brings it in.
        scene.store.setContentOffset(Point(0, 4), of: scene.lists[0])
        scene.check(scene.viewport, "clean again")
        XCTAssertFalse(scene.store.caches.subtreeBounds.drift.cleanRegions[slot].isNull)
        try scene.store.offsetPositions(ofSublayersOf: scene.lists[0], in: 60..<61, by: Point(0, -2_800))
        var shown = VisibleLayers()
        scene.store.visibleLayers(in: scene.viewport, into: &shown)
        FrameQueryTests.assertMatches(
            shown, FrameQueryTests.expectedVisible(scene.store, viewport: scene.viewport), "far card moved in")
        XCTAssertTrue(shown.layers.contains { $0.index == scene.cards[0][60].index }, "shown where it is now")
        Self.assertHits(&scene, scene.viewport, &random, "far card moved in")
        XCTAssertEqual(scene.store._invariantViolations(), [])
        Self.assertDriftBounds(scene.store, "far card moved in")
    }

    /// A card's nudge or scale, as an animation writes it; sometimes a jump.
    private static func drift(_ scene: inout Scene, _ random: inout SplitMix64) throws {
        let list = scene.lists[random.below(4) == 0 ? 1 + random.below(2) : 0]
        let sublayers = scene.store.sublayers(of: list)
        guard !sublayers.isEmpty else { return }
        let card = sublayers[random.below(sublayers.count)]
        let position = scene.store.position(of: card)
        switch random.below(10) {
        case 0..<5:
            scene.store.setPosition(
                Point(position.x + random.unit() * 16 - 8, position.y + random.unit() * 24 - 12), of: card)
        case 5..<8:
            let scale = 0.9 + random.unit() * 0.2
            let other = random.chance(20) ? 0.9 + random.unit() * 0.2 : scale
            scene.store.setTransform(random.chance(10) ? .identity : .scale(x: scale, y: other), of: card)
        case 8: scene.store.setPosition(Point(200, random.unit() * 5000), of: card)  // into or out of the window
        default: scene.store.setTransform(.rotation(radians: random.unit() - 0.5, x: 0, y: 0, z: 1), of: card)
        }
    }

    /// A structure or list edit among the drifts.
    private static func edit(_ scene: inout Scene, _ random: inout SplitMix64) throws {
        let list = scene.lists[random.below(3)]
        let sublayers = scene.store.sublayers(of: list)
        guard let card = sublayers.isEmpty ? nil : sublayers[random.below(sublayers.count)] else { return }
        switch random.below(8) {
        case 0: try scene.store.removeFromSuperlayer(card)
        case 1:
            try scene.store.insertSublayer(card, into: scene.lists[random.below(3)], at: random.chance(50) ? 0 : nil)
        case 2: scene.store.setContentOffset(Point(x: 0, y: random.unit() * 3000), of: list)
        case 3:
            if let window = scene.store.superlayer(of: list) {
                try scene.store.removeFromSuperlayer(list)  // and back, last: re-attached
                try scene.store.insertSublayer(list, into: window, at: nil)
            }
        case 4: scene.store.setPosition(Point(200 + Double(random.below(3)) * 500, 400), of: list)
        case 5: scene.store.setHidden(random.chance(20), of: card)
        case 6: scene.store.setBounds(Rect(0, 0, 390, 30 + random.unit() * 40), of: card)
        default: scene.store.setZPosition(Double(random.below(3)) - 1, of: card)
        }
    }
}
