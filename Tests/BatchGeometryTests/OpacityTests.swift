import XCTest

@testable import BatchGeometry

/// opacity, userInteractionEnabled, world opacity and the view rule's skips (GEOMETRY.md
/// sections 2, 6, 7), checked against the plainest recursive implementations written
/// here (independent of the library's walks) on random trees, under both hit-test rules,
/// for the single, batch and culled forms.
final class OpacityTests: XCTestCase {
    // MARK: The references: recursion straight from the contract's wording

    /// GEOMETRY.md section 6: `Double(opacity(root))`, then superlayer's × own, root first.
    static func referenceWorldOpacities(_ store: borrowing LayerStore) -> [Double?] {
        var result = [Double?](repeating: nil, count: store.count)
        func visit(_ layer: Int, _ inherited: Double?) {
            let own = Double(store.opacity(of: layer))
            let value = inherited.map { $0 * own } ?? own
            result[layer] = value
            for sublayer in store.sublayers(of: layer) { visit(sublayer, value) }
        }
        var root = store.hierarchy.firstRoot
        while root >= 0 {  // every root, detached ones (and free slots) included
            visit(Int(root), nil)
            root = store.hierarchy.nextSiblings[Int(root)]
        }
        return result
    }

    /// GEOMETRY.md section 7, both rules, as written there.
    static func referenceHitTest(
        _ store: borrowing LayerStore, _ world: WorldTransforms, _ point: Point, _ rule: HitTestRule
    )
        -> Int?
    {
        func hit(_ layer: Int) -> Int? {
            if store.isHidden(layer) { return nil }
            if rule == .view && (!store.isUserInteractionEnabled(layer) || Double(store.opacity(of: layer)) < 0.01) {
                return nil
            }
            let bounds = store.bounds(of: layer)
            let local = world[layer].unprojectPointInFrontOfEye(point)
            let inside =
                local.map {
                    bounds.x <= $0.x && $0.x < bounds.x + bounds.width && bounds.y <= $0.y
                        && $0.y < bounds.y + bounds.height
                } ?? false
            if rule == .view && !inside { return nil }
            if rule == .layer && store.masksToBounds(layer) && !inside { return nil }
            var sublayers = store.sublayers(of: layer)
            if rule == .layer {
                // Drawing order: stable by zPosition, NaN as 0; tried in reverse.
                func key(_ z: Double) -> Double { z.isNaN ? 0 : z }
                sublayers = sublayers.enumerated().sorted {
                    (key(store.zPosition(of: $0.element)), $0.offset) < (
                        key(store.zPosition(of: $1.element)), $1.offset
                    )
                }.map(\.element)
            }
            for sublayer in sublayers.reversed() {
                if let found = hit(sublayer) { return found }
            }
            return inside ? layer : nil
        }
        for root in store.rootIndices.reversed() {
            if let found = hit(root) { return found }
        }
        return nil
    }

    // MARK: Random trees with the new properties

    /// One of the values that matter: the defaults, the 0.01 boundary on both sides (as
    /// floats), zero, NaN, out-of-range values, an ordinary fade.
    static func randomOpacity(_ random: inout SplitMix64) -> Float {
        let values: [Float] = [1, 1, 1, 0.5, 0.3, 0, 0.01, 0.011, 0.005, .nan, 1.5, -0.2]
        return values[random.below(values.count)]
    }

    /// FrameQueryTests' random stores (every geometric property, wide indexed layers) with
    /// random opacities and disabled interaction on a fifth of the layers.
    static func makeStore(seed: UInt64) -> LayerStore {
        var store = FrameQueryTests.makeStore(seed: seed)
        var random = SplitMix64(seed: seed &* 31)
        for layer in 0..<store.count where store.isLiveSlot(layer) {
            if random.chance(25) { store.setOpacity(randomOpacity(&random), of: layer) }
            if random.chance(12) { store.setUserInteractionEnabled(false, of: layer) }
        }
        return store
    }

    /// Every form of the hit test against the reference for `points`, both rules.
    func assertHitTestsMatchTheReference(
        _ store: inout LayerStore, _ points: [Point], _ label: String, file: StaticString = #filePath,
        line: UInt = #line
    ) -> Int {
        let world = store.worldTransforms()
        var hits = 0
        for rule in HitTestRule.allCases {
            let expected = points.map { Self.referenceHitTest(store, world, $0, rule) }
            hits += expected.compactMap { $0 }.count
            var culled: [LayerHandle?] = []
            store.hitTest(points: points, rule: rule, into: &culled)
            for backend in Backend.allCases {
                let batch = store.hitTest(points: points, in: world, rule: rule, options: .serial(backend))
                XCTAssertEqual(
                    batch.map { $0?.index }, expected, "\(label) \(rule) batch \(backend)", file: file, line: line)
            }
            for (k, point) in points.enumerated() {
                let message = "\(label) \(rule) point \(point)"
                XCTAssertEqual(
                    store.hitTest(point, in: world, rule: rule)?.index, expected[k], message, file: file, line: line)
                XCTAssertEqual(
                    store.hitTest(point, rule: rule)?.index, expected[k], "culled " + message, file: file, line: line)
                XCTAssertEqual(culled[k]?.index, expected[k], "culled batch " + message, file: file, line: line)
            }
        }
        return hits
    }

    /// World opacity, every form, against the reference, bit for bit.
    func assertWorldOpacitiesMatchTheReference(
        _ store: inout LayerStore, _ label: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        let expected = Self.referenceWorldOpacities(store)
        let batch = store.worldOpacities()
        XCTAssertEqual(batch.count, store.count, label, file: file, line: line)
        for layer in 0..<store.count {
            let want = expected[layer]?.bitPattern
            XCTAssertEqual(batch[layer].bitPattern, want, "\(label) batch, layer \(layer)", file: file, line: line)
            XCTAssertEqual(
                store.worldOpacity(of: layer).bitPattern, want, "\(label) layer \(layer)", file: file, line: line)
        }
        var visible = VisibleLayers()
        for viewport in FrameQueryTests.viewports {
            store.visibleLayers(in: viewport, into: &visible)
            XCTAssertEqual(visible.worldOpacities.count, visible.count, label, file: file, line: line)
            for k in 0..<visible.count {
                XCTAssertEqual(
                    visible.worldOpacities[k].bitPattern, expected[visible.layers[k].index]?.bitPattern,
                    "\(label) frame query, layer \(visible.layers[k].index)", file: file, line: line)
            }
        }
    }

    func testHitTestsMatchTheRecursiveReferenceOnRandomTrees() {
        var hits = 0
        for seed in UInt64(0)..<5 {
            var store = Self.makeStore(seed: 7100 + seed)
            var random = SplitMix64(seed: seed)
            let world = store.worldTransforms()
            var points = pointsOnLayers(store, world, count: 120, &random)
            points += (0..<30).map { _ in Point(x: random.unit() * 600 - 100, y: random.unit() * 1000 - 100) }
            hits += assertHitTestsMatchTheReference(&store, points, "seed \(seed)")
        }
        XCTAssertGreaterThan(hits, 500, "most points on layers must hit something")
    }

    func testWorldOpacitiesMatchTheRecursiveReferenceOnRandomTrees() {
        for seed in UInt64(0)..<5 {
            var store = Self.makeStore(seed: 7200 + seed)
            assertWorldOpacitiesMatchTheReference(&store, "seed \(seed)")
        }
    }

    /// Edits of every kind, the new properties among them, between queries: the culled
    /// walk and the frame query keep agreeing with the references.
    func testQueriesFollowEditsOfTheNewProperties() {
        for seed in UInt64(0)..<3 {
            var store = Self.makeStore(seed: 7300 + seed)
            var random = SplitMix64(seed: 91 + seed)
            for round in 0..<15 {
                for _ in 0..<(1 + random.below(10)) {
                    let live = (0..<store.count).filter { store.isLiveSlot($0) }
                    let layer = live[random.below(live.count)]
                    switch random.below(4) {
                    case 0: store.setOpacity(Self.randomOpacity(&random), of: layer)
                    case 1: store.setUserInteractionEnabled(random.chance(60), of: layer)
                    default: FrameQueryTests.randomEdit(&store, &random)
                    }
                }
                let world = store.worldTransforms()
                let points = pointsOnLayers(store, world, count: 25, &random)
                _ = assertHitTestsMatchTheReference(&store, points, "seed \(seed) round \(round)")
                assertWorldOpacitiesMatchTheReference(&store, "seed \(seed) round \(round)")
            }
        }
    }

    // MARK: Storage, defaults, slot reuse

    func testOpacityIsStoredAsAFloatAndNotClamped() throws {
        var store = LayerStore()
        let layer = try store.addLayer()
        XCTAssertEqual(store.opacity(of: layer), 1)
        XCTAssertTrue(store.isUserInteractionEnabled(layer))
        store.setValue(0.3, of: .opacity, for: layer)
        XCTAssertEqual(store.value(of: .opacity, for: layer), 0.30000001192092896)  // GEOMETRY.md section 2
        XCTAssertEqual(store.opacity(of: layer), Float(0.3))
        store.setValue(1e39, of: .opacity, for: layer)  // beyond Float.greatestFiniteMagnitude
        XCTAssertEqual(store.opacity(of: layer), .infinity)
        for value: Float in [-0.5, 2, 0, .infinity] {
            store.setOpacity(value, of: layer)
            XCTAssertEqual(store.opacity(of: layer), value)
        }
        store.setOpacity(.nan, of: layer)
        XCTAssertTrue(store.opacity(of: layer).isNaN)
        XCTAssertTrue(store.value(of: .opacity, for: layer).isNaN)
        store.setValue(0, of: .userInteractionEnabled, for: layer)
        XCTAssertFalse(store.isUserInteractionEnabled(layer))
        XCTAssertEqual(store.value(of: .userInteractionEnabled, for: layer), 0)
    }

    /// A destroyed layer's slot is reused with the defaults, and the view rule's gate of
    /// the slot's previous layer does not linger.
    func testAReusedSlotStartsWithTheDefaults() throws {
        var store = LayerStore()
        let window = store.addViewWithFrame(Rect(0, 0, 100, 100))
        let doomed = try store.addLayer(superlayer: window)
        store.setOpacity(0, of: doomed)
        store.setUserInteractionEnabled(false, of: doomed)
        _ = try store.destroyLayer(doomed)
        XCTAssertEqual(store.worldOpacities()[doomed.index], 1)
        let reborn = try store.addLayer(superlayer: window)
        XCTAssertEqual(reborn.index, doomed.index)
        XCTAssertEqual(store.opacity(of: reborn), 1)
        XCTAssertTrue(store.isUserInteractionEnabled(reborn))
        store.setFrame(Rect(0, 0, 50, 50), of: reborn)
        XCTAssertEqual(store.hitTest(Point(10, 10), rule: .view), reborn)
        XCTAssertEqual(store.hitTest(Point(10, 10), in: store.worldTransforms(), rule: .view), reborn)
    }

    /// The 0.01 boundary as the contract words it: an alpha of 0.01 is stored as
    /// 0.009999999776482582 and skipped; 0.011 is not; NaN is not. The layer rule reads
    /// neither property; an opacity-0 layer stays visible.
    func testTheViewRuleBoundaryAndTheLayerRule() throws {
        var store = LayerStore()
        let window = store.addViewWithFrame(Rect(0, 0, 200, 200))
        let card = store.addViewWithFrame(Rect(0, 0, 100, 100), parent: window)
        let cases: [(Float, LayerHandle?)] = [
            (0.01, window), (0.011, card), (0.005, window), (.nan, card), (0, window),
        ]
        for (opacity, expected) in cases {
            store.setOpacity(opacity, of: card)
            XCTAssertEqual(store.hitTest(Point(50, 50), rule: .view), expected, "opacity \(opacity)")
            XCTAssertEqual(store.hitTest(Point(50, 50), rule: .layer), card, "layer rule, opacity \(opacity)")
        }
        XCTAssertEqual(store.visibleLayers(in: Rect(0, 0, 200, 200)).layers, [window, card])
        XCTAssertEqual(store.visibleLayers(in: Rect(0, 0, 200, 200)).worldOpacities, [1, 0])
    }
}
