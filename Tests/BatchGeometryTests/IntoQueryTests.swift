import XCTest

@testable import BatchGeometry

/// The caller-owned (`into:`) forms of the per-frame queries give, bit for bit, what the
/// convenient array forms and the one-at-a-time references give, on random trees and a
/// wide one, on one and four threads, while one set of destination arrays and one
/// `QueryScratch` go from store to store of other sizes (growing and shrinking).
final class IntoQueryTests: XCTestCase {
    /// Bit-identical (NaN matches NaN of any payload, as the batch tests compare).
    private func same(_ p: RectEdges?, _ q: RectEdges?) -> Bool {
        switch (p, q) {
        case (nil, nil): return true
        case (let p?, let q?):
            func same(_ x: Double, _ y: Double) -> Bool { x.bitPattern == y.bitPattern || (x.isNaN && y.isNaN) }
            return same(p.minX, q.minX) && same(p.minY, q.minY) && same(p.maxX, q.maxX) && same(p.maxY, q.maxY)
        default: return false
        }
    }

    private func assertSame(_ p: [RectEdges?], _ q: [RectEdges?], _ label: String, line: UInt = #line) {
        XCTAssertEqual(p.count, q.count, label, line: line)
        if p.count == q.count, let k = p.indices.first(where: { !same(p[$0], q[$0]) }) {
            XCTFail("\(label): entry \(k): \(String(describing: p[k])) vs \(String(describing: q[k]))", line: line)
        }
    }

    /// Random trees (random parents, some after their sublayers, deep chains, every
    /// property, special values), with more sublayer lists out of zPosition order (ties
    /// and NaN among them), some layers detached and some destroyed (free slots).
    private func makeStore(count: Int, seed: UInt64) -> LayerStore {
        var store = makeRandomStore(count: count, seed: seed, specials: seed % 2 == 1)
        var random = SplitMix64(seed: seed &+ 99)
        for layer in 0..<count where random.chance(30) {
            let z: Double = random.chance(10) ? .nan : Double(random.below(4))
            store.setZPosition(z, of: layer)
        }
        for _ in 0..<(count / 20) {
            try? store.removeFromSuperlayer(random.below(count))
        }
        for _ in 0..<(count / 40) {
            let layer = random.below(count)
            if store.isLiveSlot(layer) { _ = try? store.destroyLayer(layer) }
        }
        return store
    }

    /// One parent with 300 sublayers whose zPositions come from a few values (many ties,
    /// NaN sorting as 0), so the sorted lists need more than one merge pass.
    private func makeShuffledSiblings(seed: UInt64) -> LayerStore {
        var store = LayerStore()
        var random = SplitMix64(seed: seed)
        let root = try! store.addLayer(superlayer: nil)
        store.setBounds(Rect(0, 0, 400, 400), of: root)
        for k in 0..<300 {
            let layer = try! store.addLayer(superlayer: root)
            store.setBounds(Rect(0, 0, 40 + Double(k % 7), 40), of: layer)
            store.setPosition(Point(Double(k % 20) * 20, Double(k / 20) * 25), of: layer)
            let values: [Double] = [-1, 0, 0.5, 2, .nan]
            store.setZPosition(values[random.below(values.count)], of: layer)
        }
        return store
    }

    /// The stores the destinations travel through: sizes up and down, an empty store,
    /// the shuffled siblings, and a wide store whose levels are split over threads.
    private func stores() -> [(String, () -> LayerStore)] {
        func wide() -> LayerStore {
            var wide = makeWideStore(count: 40_000)
            for i in stride(from: 3, to: 40_000, by: 97) { wide.setMasksToBounds(true, of: i) }
            for i in stride(from: 11, to: 40_000, by: 389) { wide.setHidden(true, of: i) }
            for i in stride(from: 5, to: 40_000, by: 23) { wide.setZPosition(Double(i % 5), of: i) }
            return wide
        }
        return [
            ("random 67", { self.makeStore(count: 67, seed: 1) }),
            ("random 500", { self.makeStore(count: 500, seed: 2) }),
            ("random 3", { self.makeStore(count: 3, seed: 3) }),
            ("shuffled siblings", { self.makeShuffledSiblings(seed: 4) }),
            ("empty", { LayerStore() }), ("wide 40000", wide),
            ("random 1200", { self.makeStore(count: 1_200, seed: 5) }),
            ("random 1", { self.makeStore(count: 1, seed: 7) }),
        ]
    }

    func testIntoFormsEqualArrayFormsAndReferences() {
        var rects: [RectEdges] = []
        var clips: [RectEdges?] = []
        var visible: [Bool] = []
        var hits: [LayerHandle?] = []
        var order: [LayerHandle] = []
        var scratch = QueryScratch()
        var world = WorldTransforms()
        for (name, makeStore) in stores() {
            let store = makeStore()
            var random = SplitMix64(seed: UInt64(store.count))
            let reference = store.worldTransforms(options: .serial(.c))
            // Enough points to be split over 4 threads; fewer on the wide store (each point
            // walks the tree): 4 + 4 there are split one a chunk (65,536 / count points a
            // chunk, at least one) and use the unprojection table (4 or more points); it
            // was 20 + 20, most of this test's minute in a debug build.
            let pointCount = store.count > 10_000 ? 4 : 150
            var points = (0..<pointCount).map { _ in
                Point(random.value(600, specials: false), random.value(600, specials: false))
            }
            if store.count > 0 { points += pointsOnLayers(store, reference, count: pointCount, &random) }
            let expectedHits = HitTestRule.allCases.map { rule in
                points.map { store.hitTest($0, in: reference, rule: rule) }
            }
            let referenceRects = store.referenceWorldRects(in: reference)
            let referenceClips = store.referenceClipRects(worldRects: referenceRects)
            let viewport = Rect(-50, -50, 500, 500)
            let referenceVisible = store.referenceVisibility(
                worldRects: referenceRects, clipRects: referenceClips, viewport: viewport)
            let referenceOrder = store.drawOrderIndices().map { store.handle(atSlot: $0) }
            for threads in [1, 4] {
                for backend in Backend.allCases {
                    let options = KernelOptions(backend: backend, threads: threads)
                    let label = "\(name), \(backend), \(threads) threads"
                    store.computeWorldTransforms(into: &world, options: options)
                    store.computeWorldRects(in: world, into: &rects, options: options)
                    assertSame(rects, referenceRects, "world rects, \(label)")
                    assertSame(rects, store.worldRects(in: world, options: options), "world rects array, \(label)")
                    store.computeClipRects(worldRects: rects, into: &clips, options: options)
                    assertSame(clips, referenceClips, "clip rects, \(label)")
                    assertSame(
                        clips, store.clipRects(worldRects: rects, options: options), "clip rects array, \(label)")
                    store.computeVisibility(
                        worldRects: rects, clipRects: clips, viewport: viewport, into: &visible, options: options)
                    // Every byte a Bool's (the pass's third value is gone).
                    XCTAssertTrue(visible.withUnsafeBytes { $0.allSatisfy { $0 <= 1 } }, "visibility bytes, \(label)")
                    XCTAssertEqual(visible, referenceVisible, "visibility, \(label)")
                    XCTAssertEqual(
                        visible,
                        store.visibility(worldRects: rects, clipRects: clips, viewport: viewport, options: options),
                        "visibility array, \(label)")
                    for (rule, expected) in zip(HitTestRule.allCases, expectedHits) {
                        store.hitTest(
                            points: points, in: world, rule: rule, into: &hits, scratch: &scratch, options: options)
                        XCTAssertEqual(hits, expected, "hit tests \(rule), \(label)")
                        XCTAssertEqual(
                            hits, store.hitTest(points: points, in: world, rule: rule, options: options),
                            "hit tests array \(rule), \(label)")
                        // Fewer than 4 points: no unprojection table.
                        let few = Array(points.prefix(3))
                        store.hitTest(
                            points: few, in: world, rule: rule, into: &hits, scratch: &scratch, options: options)
                        XCTAssertEqual(hits, Array(expected.prefix(3)), "3 hit tests \(rule), \(label)")
                    }
                    store.drawOrder(into: &order, scratch: &scratch)
                    XCTAssertEqual(order, referenceOrder, "draw order, \(label)")
                    XCTAssertEqual(order, store.drawOrder(), "draw order array, \(label)")
                }
            }
            if store.count >= 60 {
                XCTAssertTrue(expectedHits.joined().contains { $0 != nil }, "\(name): the points should hit something")
                XCTAssertTrue(visible.contains(true), "\(name): something should be visible")
            }
        }
    }

    /// The stores above do exercise what the scratch is for.
    func testStoresHaveUnsortedListsAndDetachedLayers() {
        var inverted = 0
        var detached = false
        var freed = false
        var unordered = false
        for (_, makeStore) in stores() {
            let store = makeStore()
            if store.hierarchy.zOrderInversions > 0 { inverted += 1 }
            detached = detached || store.columns.detachedLayerCount > store.count - store.layerCount
            freed = freed || store.layerCount < store.count
            unordered = unordered || !store.parentsPrecedeChildren
        }
        XCTAssertTrue(inverted >= 5)
        XCTAssertTrue(detached)
        XCTAssertTrue(freed)
        XCTAssertTrue(unordered)
    }

    /// The stable sort the scratch uses agrees with the standard library's stable sort
    /// (by key, equal keys in their first order) for sizes around its run length.
    func testStableSortMatchesStandardLibrary() {
        var random = SplitMix64(seed: 42)
        var space: [Int32] = []
        for n in [0, 1, 2, 15, 16, 17, 31, 32, 33, 100, 257, 1000] {
            let values = (0..<n).map { _ in Int32(random.below(1_000)) }
            var sorted = values
            // Key: the value's hundreds; ties keep their order.
            stableSort(&sorted, space: &space) { $0 / 100 < $1 / 100 }
            let expected = values.indices.sorted { (values[$0] / 100, $0) < (values[$1] / 100, $1) }.map { values[$0] }
            XCTAssertEqual(sorted, expected, "n = \(n)")
        }
    }
}
