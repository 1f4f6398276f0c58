import XCTest

@_spi(Testing) @testable import BatchGeometry

/// The output-sensitive queries (issue 12): `visibleLayers(in:into:)` and the culled
/// `hitTest(_:rule:)` answer exactly what the full passes answer (the brute-force walks
/// stay as the reference), while the subtree bounds and drawing order are kept up to date
/// incrementally.
final class FrameQueryTests: XCTestCase {
    /// A random tree (every property, 3D, perspective, transform layers, masks, hidden
    /// layers) with two wide layers added: a masking, scrolled list of 150 cards under an
    /// axis-aligned chain, and a rotated layer with 90 sublayers, some out of zPosition
    /// order.
    static func makeStore(seed: UInt64) -> LayerStore {
        var store = makeRandomStore(count: 60 + Int(seed % 5) * 20, seed: seed, specials: false)
        var random = SplitMix64(seed: seed &+ 17)
        let window = store.addViewWithFrame(Rect(0, 0, 400, 800))
        let list = store.addViewWithFrame(Rect(10, 20, 380, 700), parent: window)
        store.setMasksToBounds(true, of: list)
        for k in 0..<150 {
            let card = store.addViewWithFrame(Rect(5, Double(k) * 60, 370, 50), parent: list)
            if random.chance(10) { _ = store.addViewWithFrame(Rect(10, 10, 30, 30), parent: card) }
            if random.chance(5) { store.setHidden(true, of: card) }
        }
        store.setContentOffset(Point(x: 0, y: 1234.5), of: list)
        let wheel = store.addViewWithFrame(Rect(100, 100, 300, 300), parent: window)
        store.setAffineTransform(.rotation(radians: 0.3), of: wheel)
        for k in 0..<90 {
            let spoke = store.addViewWithFrame(
                Rect(random.unit() * 280, random.unit() * 280, 10 + random.unit() * 40, 10 + random.unit() * 40),
                parent: wheel)
            if k % 7 == 0 { store.setZPosition(Double(k % 3) - 1, of: spoke) }
        }
        return store
    }

    /// The full passes' answer: the visible layers in drawing order with their world
    /// transforms, world rects and clip rects.
    static func expectedVisible(_ store: borrowing LayerStore, viewport: Rect) -> [(
        Int, Transform3D, RectEdges, RectEdges?
    )] {
        let world = store.worldTransforms()
        let rects = store.worldRects(in: world)
        let clips = store.clipRects(worldRects: rects)
        let visible = store.visibility(worldRects: rects, clipRects: clips, viewport: viewport)
        return store.drawOrderIndices().filter { visible[$0] }.map { ($0, world[$0], rects[$0], clips[$0]) }
    }

    static func assertMatches(
        _ result: VisibleLayers, _ expected: [(Int, Transform3D, RectEdges, RectEdges?)], _ label: String,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertEqual(result.layers.map(\.index), expected.map(\.0), label, file: file, line: line)
        guard result.count == expected.count else { return }
        for k in 0..<result.count {
            let (layer, world, rect, clip) = expected[k]
            // The bit arrays only to report a difference (four arrays a layer were much of
            // the edit tests' time in a debug build).
            if !sameBitPatterns(result.worldTransforms[k], world) {
                XCTAssertEqual(
                    result.worldTransforms[k].rowMajor.map(\.bitPattern), world.rowMajor.map(\.bitPattern),
                    "\(label): world transform of layer \(layer)", file: file, line: line)
            }
            XCTAssertEqual(result.worldRects[k], rect, "\(label): world rect of layer \(layer)", file: file, line: line)
            XCTAssertEqual(result.clipRects[k], clip, "\(label): clip rect of layer \(layer)", file: file, line: line)
        }
    }

    /// Every entry of `x` has exactly the bits of `y`'s.
    static func sameBitPatterns(_ x: Transform3D, _ y: Transform3D) -> Bool {
        func same(_ a: Double, _ b: Double) -> Bool { a.bitPattern == b.bitPattern }
        return same(x.m11, y.m11) && same(x.m12, y.m12) && same(x.m13, y.m13) && same(x.m14, y.m14)
            && same(x.m21, y.m21) && same(x.m22, y.m22) && same(x.m23, y.m23) && same(x.m24, y.m24)
            && same(x.m31, y.m31) && same(x.m32, y.m32) && same(x.m33, y.m33) && same(x.m34, y.m34)
            && same(x.m41, y.m41) && same(x.m42, y.m42) && same(x.m43, y.m43) && same(x.m44, y.m44)
    }

    static let viewports = [
        Rect(0, 0, 400, 800), Rect(-1000, -1000, 5000, 5000), Rect(50, 300, 60, 40), Rect(200, 150, 1, 1),
        Rect(-300, 600, 900, 100),
    ]

    func testVisibleLayersMatchTheFullPassesOnRandomTrees() {
        var nonEmpty = 0
        for seed in UInt64(0)..<6 {
            var store = Self.makeStore(seed: 4200 + seed)
            var result = VisibleLayers()
            for viewport in Self.viewports {
                store.visibleLayers(in: viewport, into: &result)
                let expected = Self.expectedVisible(store, viewport: viewport)
                Self.assertMatches(result, expected, "seed \(seed), viewport \(viewport)")
                if !expected.isEmpty { nonEmpty += 1 }
            }
        }
        XCTAssertGreaterThan(nonEmpty, 20, "the random scenes must show something")
    }

    /// With a current world cache (`updateWorld()` ran after the last edit) the walk reads
    /// each visited layer's world from it instead of computing it: the same bits as the
    /// walk that computes (cache stale) and as the full passes, after full and
    /// incremental updates.
    func testVisibleLayersReadTheCurrentWorldCache() {
        var cachedQueries = 0
        for seed in UInt64(0)..<4 {
            var store = Self.makeStore(seed: 7400 + seed)
            var random = SplitMix64(seed: 91 + seed)
            var computed = VisibleLayers()
            var cached = VisibleLayers()
            for round in 0..<15 {
                for _ in 0..<(1 + random.below(6)) { Self.randomEdit(&store, &random) }
                if round % 5 == 0 { store.invalidateWorld() }  // the next update is a full pass
                let viewport = Self.viewports[round % Self.viewports.count]
                let label = "seed \(seed) round \(round)"
                store.visibleLayers(in: viewport, into: &computed)
                _ = store.updateWorld()
                XCTAssertTrue(store.worldCacheIsCurrent, label)
                store.visibleLayers(in: viewport, into: &cached)
                let expected = Self.expectedVisible(store, viewport: viewport)
                Self.assertMatches(cached, expected, label + " (cache)")
                Self.assertMatches(computed, expected, label + " (computed)")
                XCTAssertEqual(cached.worldOpacities, computed.worldOpacities, label)
                XCTAssertEqual(store._invariantViolations(), [], label)
                if !expected.isEmpty { cachedQueries += 1 }
            }
        }
        XCTAssertGreaterThan(cachedQueries, 30, "the cached walk must show layers")
    }

    /// Random points (on layers, on their corners and edges, and anywhere), both rules:
    /// the culled walk answers what the walk over every layer answers with a full
    /// snapshot, whether it computes world transforms on the way or reads them from a
    /// current world cache (where planar layers take the shorter unprojection); batches
    /// equal single calls.
    func testCulledHitTestMatchesTheFullWalk() {
        var hits = 0
        for seed in UInt64(0)..<6 {
            var store = Self.makeStore(seed: 5100 + seed)
            var random = SplitMix64(seed: seed)
            let world = store.worldTransforms()
            var points = pointsOnLayers(store, world, count: 150, &random)
            points += Self.pointsOnLayerEdges(store, world, count: 100, &random)
            points += (0..<50).map { _ in Point(x: random.unit() * 600 - 100, y: random.unit() * 1000 - 100) }
            for cached in [false, true] {
                if cached { _ = store.updateWorld() }
                XCTAssertEqual(store.worldCacheIsCurrent, cached)
                for rule in HitTestRule.allCases {
                    var batch: [LayerHandle?] = []
                    store.hitTest(points: points, rule: rule, into: &batch)
                    for (k, point) in points.enumerated() {
                        let expected = store.hitTest(point, in: world, rule: rule)
                        let label = "seed \(seed) \(rule) cached \(cached) point \(point)"
                        XCTAssertEqual(store.hitTest(point, rule: rule), expected, label)
                        XCTAssertEqual(batch[k], expected, "batch, " + label)
                        if expected != nil { hits += 1 }
                    }
                }
            }
        }
        XCTAssertGreaterThan(hits, 1000, "most points on layers must hit something")
    }

    /// Points where a layer's corners and edges land in the world: where containment
    /// (half-open) turns on the last bit of the unprojected point (also `HitTestBatchTests`').
    static func pointsOnLayerEdges(
        _ store: borrowing LayerStore, _ world: WorldTransforms, count: Int, _ random: inout SplitMix64
    ) -> [Point] {
        (0..<count).map { _ in
            let layer = random.below(store.count)
            let bounds = store.bounds(of: layer)
            let along = random.chance(50) ? random.unit() : Double(random.below(2))
            let local =
                random.chance(50)
                ? Point(x: bounds.x + Double(random.below(2)) * bounds.width, y: bounds.y + along * bounds.height)
                : Point(x: bounds.x + along * bounds.width, y: bounds.y + Double(random.below(2)) * bounds.height)
            return world[layer].projectPoint(local)
        }
    }

    /// Edits of every kind between queries: after each round the queries still match the
    /// full passes, and the incrementally kept subtree bounds equal a fresh build's.
    func testQueriesFollowEdits() {
        for seed in UInt64(0)..<4 {
            var store = Self.makeStore(seed: 6300 + seed)
            var random = SplitMix64(seed: 77 + seed)
            var result = VisibleLayers()
            store.visibleLayers(in: Self.viewports[0], into: &result)
            for round in 0..<25 {
                for _ in 0..<(1 + random.below(12)) { Self.randomEdit(&store, &random) }
                let viewport = Self.viewports[round % Self.viewports.count]
                store.visibleLayers(in: viewport, into: &result)
                Self.assertMatches(
                    result, Self.expectedVisible(store, viewport: viewport), "seed \(seed) round \(round)")
                Self.assertBoundsEqualAFreshBuild(store, "seed \(seed) round \(round)")
                XCTAssertEqual(store._invariantViolations(), [], "seed \(seed) round \(round)")
                let world = store.worldTransforms()
                for point in pointsOnLayers(store, world, count: 20, &random) {
                    for rule in HitTestRule.allCases {
                        XCTAssertEqual(
                            store.hitTest(point, rule: rule), store.hitTest(point, in: world, rule: rule),
                            "seed \(seed) round \(round) \(rule)")
                    }
                }
            }
        }
    }

    /// One random edit: a property of a random live layer, a scroll, or a structure edit.
    static func randomEdit(_ store: inout LayerStore, _ random: inout SplitMix64) {
        let live = (0..<store.count).filter { store.isLiveSlot($0) }
        guard let layer = live.isEmpty ? nil : live[random.below(live.count)] else { return }
        switch random.below(14) {
        case 0: store.setPosition(Point(x: random.value(in: -50...450), y: random.value(in: -50...850)), of: layer)
        case 1:
            store.setBounds(
                Rect(random.unit() * 20, random.unit() * 900, random.unit() * 300, random.unit() * 200), of: layer)
        case 2: store.setContentOffset(Point(x: 0, y: random.unit() * 3000), of: layer)
        case 3: store.setTransform(randomTransform(&random, specials: false), of: layer)
        case 4: store.setZPosition(Double(random.below(3)) - 1, of: layer)
        case 5: store.setHidden(random.chance(30), of: layer)
        case 6: store.setMasksToBounds(random.chance(50), of: layer)
        case 7: store.setGeometryFlipped(random.chance(50), of: layer)
        case 8:
            store.setSublayerTransform(
                random.chance(50) ? .identity : randomTransform(&random, specials: false), of: layer)
        case 9: store.setAnchorPoint(Point(x: random.unit(), y: random.unit()), of: layer)
        case 10: _ = try? store.addLayer(superlayer: live[random.below(live.count)])
        case 11: try? store.insertSublayer(layer, into: live[random.below(live.count)], at: random.chance(50) ? 0 : nil)
        case 12:
            if random.chance(50) { try? store.removeFromSuperlayer(layer) } else { _ = try? store.destroyLayer(layer) }
        default: store.setTransformLayer(random.chance(20), of: layer)
        }
    }

    /// The kept extents and unions equal those of a store that builds them from scratch.
    static func assertBoundsEqualAFreshBuild(
        _ store: borrowing LayerStore, _ label: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        var fresh = store.copy()
        fresh.caches.subtreeBounds = SubtreeBounds()
        fresh.refreshSubtreeBounds()
        // The boxes the last query left parked below masking lists, redone.
        var kept = store.copy()
        kept.refreshSubtreeBoundsFully()
        for layer in 0..<store.count
        where kept.caches.subtreeBounds.extent[layer] != fresh.caches.subtreeBounds.extent[layer]
            || kept.caches.subtreeBounds.content(of: layer) != fresh.caches.subtreeBounds.content(of: layer)
        {
            XCTFail(
                "\(label): layer \(layer) extent \(kept.caches.subtreeBounds.extent[layer]) content "
                    + "\(kept.caches.subtreeBounds.content(of: layer)), fresh \(fresh.caches.subtreeBounds.extent[layer]) "
                    + "\(fresh.caches.subtreeBounds.content(of: layer))", file: file, line: line)
            return
        }
    }

    /// Scrolling a masking list of 4,000 cards touches the list's box only, and a frame
    /// visits the cards on screen, not the list.
    func testScrollingAListCostsWhatIsOnScreen() {
        var store = LayerStore()
        let window = store.addViewWithFrame(Rect(0, 0, 400, 800))
        let list = store.addViewWithFrame(Rect(0, 0, 400, 800), parent: window)
        store.setMasksToBounds(true, of: list)
        for k in 0..<4000 {
            let card = store.addViewWithFrame(Rect(0, Double(k) * 100, 400, 90), parent: list)
            _ = store.addViewWithFrame(Rect(10, 10, 50, 50), parent: card)
        }
        var result = VisibleLayers()
        store.visibleLayers(in: Rect(0, 0, 400, 800), into: &result)
        XCTAssertEqual(result.count, 2 + 8 * 2)
        for frame in 1...5 {
            store.setContentOffset(Point(x: 0, y: Double(frame) * 1234), of: list)
            store.visibleLayers(in: Rect(0, 0, 400, 800), into: &result)
            Self.assertMatches(result, Self.expectedVisible(store, viewport: Rect(0, 0, 400, 800)), "frame \(frame)")
            // The window, the list, the cards on screen and their badges, and the cards
            // at the edges that the index returns and the world boxes then rule out.
            XCTAssertLessThanOrEqual(result.visitedLayerCount, result.count + 8, "frame \(frame)")
            // The list's index hands over only the cards near the viewport, not all 4,000.
            XCTAssertLessThanOrEqual(result.testedSublayerCount, 2 * result.count + 16, "frame \(frame)")
            // The list's box, and its superlayer's when the offset enters a new binade
            // (the slack is a power of two of the magnitude): never the cards.
            XCTAssertLessThanOrEqual(
                store.caches.subtreeBounds.lastRefreshVisits, 1 + store.depth(of: list.index), "frame \(frame)")
        }
    }

    /// The drawing order is cached: after a refresh it is current, a zPosition change
    /// re-sorts only its list, and it always equals the order computed from scratch.
    func testDrawingOrderCacheFollowsEdits() {
        var store = Self.makeStore(seed: 9)
        var random = SplitMix64(seed: 3)
        store.setZPosition(5, of: store.sublayers(of: store.roots.last!)[1])
        store.refreshDrawOrder()
        XCTAssertTrue(store.caches.drawOrderCache.isCurrent(count: store.count))
        for round in 0..<40 {
            Self.randomEdit(&store, &random)
            XCTAssertEqual(store._invariantViolations(), [], "round \(round)")
            let fromScratch = store.sortedDrawOrderLinks()
            var expected: [Int] = []
            store.walkPreorder(fromScratch) { layer in
                if store.columns.flags[layer].contains(.hidden) { return false }
                expected.append(layer)
                return true
            }
            XCTAssertEqual(store.drawOrderIndices(), expected, "round \(round), before the refresh")
            store.refreshDrawOrder()
            XCTAssertEqual(store.drawOrderIndices(), expected, "round \(round), after the refresh")
        }
    }

    /// A rotated layer's extent is the union of its sublayers' boxes rotated one by one,
    /// not the box around its rotated content box: a point in an empty corner of that
    /// box (between two far-apart sublayers) is outside the extent, so the culled hit
    /// test does not enter the layer; every sublayer corner's image is still inside.
    func testRotatedLayersBoundEachSublayer() {
        var store = LayerStore()
        let root = store.addViewWithFrame(Rect(0, 0, 1000, 1000))
        let wheel = store.addViewWithFrame(Rect(300, 300, 10, 10), parent: root)
        store.setAffineTransform(.rotation(radians: .pi / 4), of: wheel)
        let near = store.addViewWithFrame(Rect(0, 0, 10, 10), parent: wheel)
        let far = store.addViewWithFrame(Rect(100, 100, 10, 10), parent: wheel)
        _ = store.hitTest(Point(0, 0))  // builds the subtree bounds
        let extent = store.caches.subtreeBounds.extent[wheel.index]
        let world = store.worldTransforms()
        // wheel's bounds space -> root's: the world map (the root is at the origin).
        let toRoot = world[wheel]
        for sublayer in [near, far] {
            let b = store.bounds(of: sublayer)
            let toWheel = store.transformToSuperlayer(of: sublayer.index)
            for (x, y) in [(b.x, b.y), (b.x + b.width, b.y), (b.x, b.y + b.height), (b.x + b.width, b.y + b.height)] {
                let corner = toRoot.projectPoint(toWheel.projectPoint(Point(x, y)))
                XCTAssertTrue(extent.containsClosed(corner), "sublayer corner \(corner) outside \(extent)")
            }
        }
        // (0, 110) and (110, 0) are the empty corners of the content box (0, 0, 110, 110).
        for emptyCorner in [Point(0, 110), Point(110, 0)] {
            let image = toRoot.projectPoint(emptyCorner)
            XCTAssertFalse(extent.containsClosed(image), "the empty corner \(image) is inside \(extent)")
            XCTAssertEqual(store.hitTest(image), root, "nothing but the root is drawn at \(image)")
        }
    }

    /// Huge, infinite and NaN geometry makes extents unbounded (never a trap: a magnitude
    /// of infinity once overflowed the slack's exponent, found by the fuzzer); the
    /// answers still match the full passes wherever those are finite, and the sibling
    /// with ordinary values is still found.
    func testExtremeValuesGiveUnboundedExtentsNotTraps() {
        for value in [1e308, -1e308, .infinity, -.infinity, .nan] {
            var store = LayerStore()
            let window = store.addViewWithFrame(Rect(0, 0, 400, 800))
            let wild = store.addViewWithFrame(Rect(10, 10, 100, 100), parent: window)
            store.setBounds(Rect(0, 0, value, 100), of: wild)
            store.setAffineTransform(.scale(x: 10, y: 10), of: wild)
            _ = store.addViewWithFrame(Rect(1, 1, 5, 5), parent: wild)
            let plain = store.addViewWithFrame(Rect(200, 300, 50, 50), parent: window)
            var result = VisibleLayers()
            store.visibleLayers(in: Rect(0, 0, 400, 800), into: &result)
            XCTAssertTrue(result.layers.contains(plain), "\(value)")
            XCTAssertEqual(store.hitTest(Point(225, 325)), plain, "\(value)")
            let world = store.worldTransforms()
            if (0..<world.count).allSatisfy({ world[$0].rowMajor.allSatisfy(\.isFinite) }) {
                Self.assertMatches(result, Self.expectedVisible(store, viewport: Rect(0, 0, 400, 800)), "\(value)")
            }
        }
    }
}
