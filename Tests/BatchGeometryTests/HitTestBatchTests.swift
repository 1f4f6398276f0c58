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
