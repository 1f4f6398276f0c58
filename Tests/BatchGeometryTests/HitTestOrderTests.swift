import XCTest

@_spi(Testing) @testable import BatchGeometry

/// Hit-test order (GEOMETRY.md section 7, section 9 X3): the layer rule tries sublayers in
/// reverse drawing order, so zPosition counts; the view rule keeps sublayer order.
final class HitTestOrderTests: XCTestCase {
    /// The device case (conformance/device/x3-*): `lower` has zPosition 10 and was added
    /// before `upper`; both cover the point. CALayer's -hitTest: answers `lower` (drawn in
    /// front), UIView's -hitTest:withEvent: answers `upper` (the later subview).
    func testLayerRuleFollowsZPositionAndViewRuleDoesNot() {
        var store = LayerStore()
        let root = store.addViewWithFrame(Rect(x: 0, y: 0, width: 100, height: 100))
        let lower = store.addViewWithFrame(Rect(x: 0, y: 0, width: 100, height: 100), parent: root)
        let upper = store.addViewWithFrame(Rect(x: 0, y: 0, width: 100, height: 100), parent: root)
        store.setZPosition(10, of: lower)
        let world = store.referenceWorldTransforms()
        XCTAssertEqual(store.drawOrder(), [root, upper, lower])
        XCTAssertEqual(store.hitTest(Point(x: 50, y: 50), in: world, rule: .layer), lower)
        XCTAssertEqual(store.hitTest(Point(x: 50, y: 50), in: world, rule: .view), upper)
        // Equal zPositions: the later sublayer first, under both rules.
        store.setZPosition(0, of: lower)
        XCTAssertEqual(store.hitTest(Point(x: 50, y: 50), in: world, rule: .layer), upper)
        // A negative zPosition puts the later sublayer behind.
        store.setZPosition(-1, of: upper)
        XCTAssertEqual(store.hitTest(Point(x: 50, y: 50), in: world, rule: .layer), lower)
        XCTAssertEqual(store.hitTest(Point(x: 50, y: 50), in: world, rule: .view), upper)
    }

    /// NaN sorts as 0: siblings a (NaN), b (-1), c (0) draw b, a, c; hit order is c, a, b.
    /// A NaN zPosition also enters a's world matrix (0 × NaN stays NaN through the
    /// flattening), so a itself is never hit: with c hidden the hit falls through to b.
    func testNaNZPositionSortsAsZero() {
        var store = LayerStore()
        let root = store.addViewWithFrame(Rect(x: 0, y: 0, width: 100, height: 100))
        let a = store.addViewWithFrame(Rect(x: 0, y: 0, width: 100, height: 100), parent: root)
        let b = store.addViewWithFrame(Rect(x: 0, y: 0, width: 100, height: 100), parent: root)
        let c = store.addViewWithFrame(Rect(x: 0, y: 0, width: 100, height: 100), parent: root)
        store.setZPosition(.nan, of: a)
        store.setZPosition(-1, of: b)
        XCTAssertEqual(store.drawOrder(), [root, b, a, c])
        let world = store.referenceWorldTransforms()
        let point = Point(x: 50, y: 50)
        XCTAssertEqual(store.hitTest(point, in: world), c)
        XCTAssertNil(store.convert(point, from: nil, to: a, in: world).flatMap { $0.x.isNaN ? nil : $0 })
        store.setHidden(true, of: c)
        XCTAssertEqual(store.hitTest(point, in: world), b)
        XCTAssertEqual(store.hitTest(points: [point, point, point, point], in: world), [b, b, b, b])
    }

    /// Single and batch hit tests, both rules, every backend and threads 1...8, equal an
    /// independent recursive reference that sorts each sublayer list itself (stable, NaN
    /// as 0), on random trees where half the layers get a zPosition (many ties, -0, and
    /// a few NaN and infinities, which make their subtrees unhittable: see above).
    func testMatchesRecursiveReferenceOnRandomTrees() {
        var hitsPerRule: [HitTestRule: Int] = [:]
        for seed in 0..<8 {
            var store = makeRandomStore(count: 30 + seed * 12, seed: UInt64(7100 + seed), specials: seed % 4 == 3)
            var random = SplitMix64(seed: UInt64(seed))
            let zChoices: [Double] = [0, 1, -1, 2, -0.0]
            let rare: [Double] = [.nan, .infinity, -.infinity]
            for layer in 0..<store.count where random.chance(50) {
                let z = random.chance(4) ? rare[random.below(rare.count)] : zChoices[random.below(zChoices.count)]
                store.setZPosition(z, of: layer)
            }
            let world = store.worldTransforms(options: .serial(.c))
            let points = pointsOnLayers(store, world, count: 120, &random)
            for rule in HitTestRule.allCases {
                let expected = points.map { referenceHit($0, store, world, rule) }
                hitsPerRule[rule, default: 0] += expected.filter { $0 != nil }.count
                XCTAssertEqual(
                    points.map { store.hitTestIndex($0, in: world, rule: rule) }, expected, "seed \(seed) \(rule)")
                for threads in 1...8 {
                    let options = KernelOptions(backend: Backend.allCases[threads % 3], threads: threads)
                    XCTAssertEqual(
                        store.hitTestIndices(points: points, in: world, rule: rule, options: options), expected,
                        "seed \(seed) \(rule) threads \(threads)")
                }
            }
        }
        // The view rule needs every ancestor to contain the point, so it hits less often.
        XCTAssertGreaterThan(hitsPerRule[.layer, default: 0], 100, "the test should hit layers")
        XCTAssertGreaterThan(hitsPerRule[.view, default: 0], 10, "the test should hit views")
    }

    /// The count of out-of-order sibling pairs behind the fast path stays exact through
    /// random edits (insertions at an index, moves, removals, zPosition changes), and the
    /// drawing order equals the recursive reference after every step.
    func testZOrderBookkeepingThroughEdits() {
        var random = SplitMix64(seed: 99)
        var store = LayerStore()
        let zChoices: [Double] = [0, 1, -1, .nan, 3]
        for step in 0..<600 {
            let count = store.count
            switch random.below(6) {
            case 0, 1: _ = try? store.addLayer(superlayer: count == 0 || random.chance(10) ? nil : random.below(count))
            case 2 where count > 0:
                store.setZPosition(zChoices[random.below(zChoices.count)], of: random.below(count))
            case 3 where count > 1:
                let layer = random.below(count)
                let parent = random.below(count)
                try? store.insertSublayer(layer, into: parent, at: random.chance(50) ? 0 : nil)
            case 4 where count > 1 && random.chance(35): _ = try? store.destroyLayer(random.below(count))
            case 5 where count > 0: store.setHidden(random.chance(10), of: random.below(count))
            default: break
            }
            XCTAssertEqual(store.hierarchy.zOrderInversions, store.countZOrderInversions(), "step \(step)")
            XCTAssertEqual(store.drawOrderIndices(), referenceDrawOrder(store), "step \(step)")
        }
    }

    // MARK: The reference, written recursively and independently of the store's walk.

    private func sortedSublayers(_ store: borrowing LayerStore, _ layer: Int) -> [Int] {
        func key(_ z: Double) -> Double { z.isNaN ? 0 : z }
        return store.sublayers(of: layer).enumerated().sorted { lhs, rhs in
            let lz = key(store.zPosition(of: lhs.element))
            let rz = key(store.zPosition(of: rhs.element))
            return lz < rz || (lz == rz && lhs.offset < rhs.offset)
        }.map(\.element)
    }

    private func referenceDrawOrder(_ store: borrowing LayerStore) -> [Int] {
        var order: [Int] = []
        func draw(_ layer: Int) {
            guard !store.isHidden(layer) else { return }
            order.append(layer)
            sortedSublayers(store, layer).forEach(draw)
        }
        store.rootIndices.forEach(draw)
        return order
    }

    private func referenceHit(
        _ point: Point, _ store: borrowing LayerStore, _ world: WorldTransforms, _ rule: HitTestRule
    )
        -> Int?
    {
        func hit(_ layer: Int) -> Int? {
            guard !store.isHidden(layer) else { return nil }
            let bounds = store.bounds(of: layer)
            var inside = false
            if let q = world[layer].unprojectPointInFrontOfEye(point) {
                inside =
                    bounds.x <= q.x && q.x < bounds.x + bounds.width && bounds.y <= q.y
                    && q.y < bounds.y + bounds.height
            }
            if !inside && (rule == .view || store.masksToBounds(layer)) { return nil }
            let order = rule == .layer ? sortedSublayers(store, layer) : store.sublayers(of: layer)
            for sublayer in order.reversed() { if let found = hit(sublayer) { return found } }
            return inside ? layer : nil
        }
        for root in store.rootIndices.reversed() { if let found = hit(root) { return found } }
        return nil
    }
}
