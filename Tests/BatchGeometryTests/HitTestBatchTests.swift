import XCTest

@_spi(Testing) @testable import BatchGeometry

/// The culled batch hit test `hitTest(points:rule:into:)`, which walks a batch of 64
/// points or more in a Z order of the points (`HitPointOrder`): every answer is the
/// snapshot walk's (`hitTest(_:in:rule:)` on a fresh snapshot), entry k for point k, for
/// both rules, across edits between batches.
final class HitTestBatchTests: XCTestCase {
    /// Random trees (3D, perspective, masks, transform layers, a masked list, a rotated
    /// wide layer), points on layers, on their edges, anywhere and far out; each round
    /// edits the store (geometry, structure, opacity, interaction) and asks one batch per
    /// rule, half the rounds with the world cache current.
    func testBatchesMatchTheSnapshotWalkAcrossEdits() {
        var hits = 0
        for seed in UInt64(0)..<4 {
            var store = FrameQueryTests.makeStore(seed: 8800 + seed)
            var random = SplitMix64(seed: 300 + seed)
            var batch: [LayerHandle?] = []
            for round in 0..<8 {
                for _ in 0..<(1 + random.below(8)) { FrameQueryTests.randomEdit(&store, &random) }
                Self.randomViewRuleEdit(&store, &random)
                if round % 2 == 1 { _ = store.updateWorld() }
                let world = store.worldTransforms()
                let points = Self.randomPoints(store, world, &random)
                for rule in HitTestRule.allCases {
                    store.hitTest(points: points, rule: rule, into: &batch)
                    XCTAssertEqual(batch.count, points.count)
                    for (k, point) in points.enumerated() {
                        let expected = store.hitTest(point, in: world, rule: rule)
                        XCTAssertEqual(batch[k], expected, "seed \(seed) round \(round) \(rule) point \(k) \(point)")
                        if expected != nil { hits += 1 }
                    }
                }
            }
        }
        XCTAssertGreaterThan(hits, 2000, "most points on layers must hit something")
    }

    /// The packet walk (`HitPacket`): batches of clustered, scattered, duplicated, edge and
    /// non-finite points over random trees with wide lists (R-trees, zPosition inversions)
    /// flat, rotated and in perspective (lanes without a margin share a packet with lanes
    /// that prune), across edits: every answer is the single-point culled walk's and the
    /// snapshot walk's.
    func testPacketsMatchTheSingleWalkAndTheSnapshotWalk() {
        var hits = 0
        for seed in UInt64(0)..<4 {
            var store = Self.makeStoreWithPerspectiveList(seed: 9100 + seed)
            var random = SplitMix64(seed: 700 + seed)
            var batch: [LayerHandle?] = []
            for round in 0..<6 {
                for _ in 0..<(1 + random.below(6)) { FrameQueryTests.randomEdit(&store, &random) }
                Self.randomViewRuleEdit(&store, &random)
                if round % 2 == 0 { _ = store.updateWorld() }
                let world = store.worldTransforms()
                let points = Self.packetPoints(store, world, &random)
                for rule in HitTestRule.allCases {
                    store.hitTest(points: points, rule: rule, into: &batch)
                    XCTAssertEqual(batch.count, points.count)
                    for (k, point) in points.enumerated() {
                        let expected = store.hitTest(point, in: world, rule: rule)
                        let label = "seed \(seed) round \(round) \(rule) point \(k) \(point)"
                        XCTAssertEqual(batch[k], expected, label)
                        XCTAssertEqual(store.hitTest(point, rule: rule), expected, "single walk, " + label)
                        if expected != nil { hits += 1 }
                    }
                }
            }
        }
        XCTAssertGreaterThan(hits, 3000, "most points on layers must hit something")
    }

    /// A packet of one point repeated walks what that point's single walk walks: two
    /// packets of `HitPacket.width` copies visit twice the single walk's layers (the walk
    /// is shared, not repeated per point).
    func testAPacketOfOnePointSharesItsWalk() {
        var store = FrameQueryTests.makeStore(seed: 9200)
        let world = store.worldTransforms()
        var random = SplitMix64(seed: 11)
        var checked = 0
        for point in pointsOnLayers(store, world, count: 20, &random) {
            let before = store.culledHitTestCounts
            let single = store.hitTest(point, rule: .layer)
            let middle = store.culledHitTestCounts
            var batch: [LayerHandle?] = []
            store.hitTest(points: Array(repeating: point, count: 2 * HitPacket.width), rule: .layer, into: &batch)
            let after = store.culledHitTestCounts
            XCTAssertEqual(batch, Array(repeating: single, count: 2 * HitPacket.width))
            XCTAssertEqual(after.points - middle.points, 2 * HitPacket.width)
            XCTAssertEqual(
                after.visitedLayers - middle.visitedLayers, 2 * (middle.visitedLayers - before.visitedLayers))
            if middle.visitedLayers > before.visitedLayers { checked += 1 }
        }
        XCTAssertGreaterThan(checked, 10)
    }

    /// `FrameQueryTests.makeStore` plus a wide list (an R-tree) in perspective, some of its
    /// cards out of zPosition order, and a wide list flipped under a sublayer transform.
    static func makeStoreWithPerspectiveList(seed: UInt64) -> LayerStore {
        var store = FrameQueryTests.makeStore(seed: seed)
        var random = SplitMix64(seed: seed &* 7)
        let stage = store.addViewWithFrame(Rect(20, 300, 360, 400))
        var perspective = Transform3D.perspective(distance: 600)
        perspective.m13 = 0.1
        store.setSublayerTransform(perspective, of: stage)
        let wall = store.addViewWithFrame(Rect(0, 0, 360, 400), parent: stage)
        store.setAffineTransform(.rotation(radians: 0.2), of: wall)
        for k in 0..<100 {
            let tile = store.addViewWithFrame(
                Rect(Double(k % 10) * 36, Double(k / 10) * 40, 30 + random.unit() * 10, 34), parent: wall)
            if k % 9 == 0 { store.setZPosition(Double(k % 2), of: tile) }
        }
        let shelf = store.addViewWithFrame(Rect(0, 600, 400, 200))
        store.setGeometryFlipped(true, of: shelf)
        store.setSublayerTransform(.scale(x: 1.5, y: 0.75), of: shelf)
        for k in 0..<80 {
            _ = store.addViewWithFrame(Rect(Double(k % 20) * 13, Double(k / 20) * 45, 12, 40), parent: shelf)
        }
        return store
    }

    /// `randomPoints` plus clusters (tight groups around a few centers), duplicates (a
    /// point many times) and non-finite points.
    static func packetPoints(_ store: borrowing LayerStore, _ world: WorldTransforms, _ random: inout SplitMix64)
        -> [Point]
    {
        var points = randomPoints(store, world, &random)
        for center in pointsOnLayers(store, world, count: 6, &random) {
            let spread = [0.5, 4, 40][random.below(3)]
            points += (0..<30).map { _ in
                Point(x: center.x + (random.unit() - 0.5) * spread, y: center.y + (random.unit() - 0.5) * spread)
            }
        }
        points += Array(repeating: points[random.below(points.count)], count: 45)
        points += [Point(x: .nan, y: 10), Point(x: 10, y: .infinity), Point(x: -.infinity, y: -.infinity)]
        points.shuffle(using: &random)
        return points
    }

    /// A batch below the sorted size and one above it, of the same points, answer alike
    /// (the order is a permutation of the points, whatever they are).
    func testSmallAndSortedBatchesAgree() {
        var store = FrameQueryTests.makeStore(seed: 8900)
        var random = SplitMix64(seed: 9)
        let world = store.worldTransforms()
        let points = Self.randomPoints(store, world, &random)
        var sorted: [LayerHandle?] = []
        store.hitTest(points: points, rule: .layer, into: &sorted)
        var k = 0
        while k < points.count {
            let end = Swift.min(points.count, k + HitPointOrder.smallestSortedBatch - 1)
            var small: [LayerHandle?] = []
            store.hitTest(points: Array(points[k..<end]), rule: .layer, into: &small)
            XCTAssertEqual(small, Array(sorted[k..<end]), "points \(k)..<\(end)")
            k = end
        }
    }

    /// The order is a permutation of the indices, grouped by Z-order cell: points in the
    /// same corner of the box come together; non-finite points go first (cell 0).
    func testPointOrderIsAPermutationByCell() {
        var order = HitPointOrder()
        var points = [Point(x: 0, y: 0), Point(x: 100, y: 100), Point(x: 1, y: 1), Point(x: 99, y: 99)]
        points += [Point(x: .nan, y: 5), Point(x: 50, y: .infinity), Point(x: 0.5, y: 0.5)]
        points += [Point(x: -1e308, y: 0), Point(x: 1e308, y: 0)]  // a box wider than Double's range
        order.sort(points)
        XCTAssertEqual(order.order.map(Int.init).sorted(), Array(points.indices))
        XCTAssertEqual(order.order.count, points.count)
        var wide = HitPointOrder()
        wide.sort(Array(points[0..<4]))
        // (0,0) and (1,1) share the first cell of a 100-wide box; (99,99) and (100,100) the last.
        XCTAssertEqual(wide.order, [0, 2, 1, 3])
    }

    /// Points on layers (inside), on layer corners and edges, anywhere around the tree,
    /// and far out (beyond every extent).
    static func randomPoints(_ store: borrowing LayerStore, _ world: WorldTransforms, _ random: inout SplitMix64)
        -> [Point]
    {
        var points = pointsOnLayers(store, world, count: 120, &random)
        points += FrameQueryTests.pointsOnLayerEdges(store, world, count: 60, &random)
        points += (0..<40).map { _ in Point(x: random.unit() * 600 - 100, y: random.unit() * 1000 - 100) }
        points += [Point(x: -1e6, y: 3), Point(x: 2e9, y: -2e9)]
        return points
    }

    /// What the view rule looks at: a random layer's opacity (some below 0.01) or
    /// interaction.
    static func randomViewRuleEdit(_ store: inout LayerStore, _ random: inout SplitMix64) {
        let live = (0..<store.count).filter { store.isLiveSlot($0) }
        guard !live.isEmpty else { return }
        let layer = live[random.below(live.count)]
        if random.chance(50) {
            store.setOpacity(random.chance(50) ? 0.005 : Float(random.unit()), of: layer)
        } else {
            store.setUserInteractionEnabled(random.chance(50), of: layer)
        }
    }
}
