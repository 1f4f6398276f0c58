import XCTest

@testable import BatchGeometry

final class BatchQueryTests: XCTestCase {
    private func sameEdges(_ p: RectEdges, _ q: RectEdges) -> Bool {
        func same(_ x: Double, _ y: Double) -> Bool { x.bitPattern == y.bitPattern || (x.isNaN && y.isNaN) }
        return same(p.minX, q.minX) && same(p.minY, q.minY) && same(p.maxX, q.maxX) && same(p.maxY, q.maxY)
    }

    /// Batch world rects equal the single-layer `worldRect(of:in:)` bit for bit, for
    /// every backend, every count 0...67 (special values included) and threads 1...8.
    func testWorldRectsMatchSingleLayer() {
        for count in 0...67 {
            let store = makeRandomStore(count: count, seed: UInt64(3000 + count), specials: count % 2 == 1)
            let world = store.worldTransforms(options: .serial(.c))
            for backend in Backend.allCases {
                let threads = 1 + count % 8
                let rects = store.worldRects(in: world, options: KernelOptions(backend: backend, threads: threads))
                XCTAssertEqual(rects.count, count)
                for layer in 0..<count where !sameEdges(rects[layer], store.worldRect(of: layer, in: world)) {
                    XCTFail(
                        "count \(count) \(backend) layer \(layer): \(rects[layer]) vs \(store.worldRect(of: layer, in: world))"
                    )
                }
            }
        }
    }

    /// World rects of a big store split over threads 1...8 are identical.
    func testWorldRectsThreadCounts() {
        let store = makeWideStore(count: 20_000)
        let world = store.worldTransforms(options: .serial(.c))
        let serial = store.worldRects(in: world, options: .serial(.simd))
        for threads in 2...8 {
            let rects = store.worldRects(in: world, options: KernelOptions(backend: .c, threads: threads))
            XCTAssertTrue(zip(rects, serial).allSatisfy(sameEdges), "threads \(threads)")
        }
    }

    /// Hand-derived: a root at (0, 0) of size 100×50 (anchor (0, 0)) with a child of size
    /// 10×10 at position (20, 30) (anchor (0, 0)): the child's world rect is
    /// (20, 30)…(30, 40), and a point at (25, 35) hits the child, (80, 10) the root.
    func testHandDerivedRectAndHits() throws {
        var store = LayerStore()
        let root = try store.addLayer()
        let child = try store.addLayer(superlayer: root)
        store.setBounds(Rect(x: 0, y: 0, width: 100, height: 50), of: root)
        store.setBounds(Rect(x: 0, y: 0, width: 10, height: 10), of: child)
        store.setAnchorPoint(Point(x: 0, y: 0), of: root)
        store.setAnchorPoint(Point(x: 0, y: 0), of: child)
        store.setPosition(Point(x: 20, y: 30), of: child)
        let world = store.worldTransforms(options: .serial(.simd))
        XCTAssertEqual(
            store.worldRects(in: world, options: .serial(.c))[child], RectEdges(minX: 20, minY: 30, maxX: 30, maxY: 40))
        let hits = store.hitTest(
            points: [Point(x: 25, y: 35), Point(x: 80, y: 10), Point(x: 200, y: 200)], in: world,
            options: KernelOptions(backend: .c, threads: 3))
        XCTAssertEqual(hits, [child, root, nil])
        let converted = store.convert(
            points: [Point(x: 25, y: 35)], from: nil, to: child, in: world, options: .serial(.c))
        XCTAssertEqual(converted, [Point(x: 5, y: 5)])
    }

    /// Batch hit tests equal the single-point answers, both rules, threads 1...8.
    func testHitTestPointsMatchSinglePoint() {
        for seed in 0..<6 {
            let store = makeRandomStore(count: 40 + seed * 10, seed: UInt64(4000 + seed), specials: seed == 5)
            let world = store.worldTransforms(options: .serial(.c))
            var random = SplitMix64(seed: UInt64(seed))
            var points = (0..<150).map { _ in
                Point(x: random.value(600, specials: seed == 5), y: random.value(600, specials: seed == 5))
            }
            points += pointsOnLayers(store, world, count: 150, &random)
            for rule in HitTestRule.allCases {
                let expected = points.map { store.hitTest($0, in: world, rule: rule) }
                XCTAssertTrue(expected.contains { $0 != nil } || seed == 5, "the test should hit something")
                for threads in 1...8 {
                    let hits = store.hitTest(
                        points: points, in: world, rule: rule,
                        options: KernelOptions(backend: Backend.allCases[threads % 3], threads: threads))
                    XCTAssertEqual(hits, expected, "seed \(seed) \(rule) threads \(threads)")
                }
            }
        }
    }

    /// Batch conversions equal the single-point answers (nil for singular destinations).
    func testConvertPointsMatchSinglePoint() {
        let store = makeRandomStore(count: 50, seed: 77, specials: true)
        let world = store.worldTransforms(options: .serial(.c))
        var random = SplitMix64(seed: 78)
        let points = (0..<40_000).map { _ in
            Point(x: random.value(300, specials: true), y: random.value(300, specials: true))
        }
        for (source, destination) in [(nil, 3), (7, nil), (2, 40), (nil, nil), (11, 11)] as [(Int?, Int?)] {
            let expected = points.map { store.convert($0, from: source, to: destination, in: world) }
            for threads in [1, 2, 5, 8] {
                let converted = store.convert(
                    points: points, from: source, to: destination, in: world,
                    options: KernelOptions(backend: .c, threads: threads))
                let same = zip(converted, expected).allSatisfy { p, q in
                    switch (p, q) {
                    case (nil, nil): return true
                    case (let p?, let q?):
                        return (p.x.bitPattern == q.x.bitPattern || (p.x.isNaN && q.x.isNaN))
                            && (p.y.bitPattern == q.y.bitPattern || (p.y.isNaN && q.y.isNaN))
                    default: return false
                    }
                }
                XCTAssertTrue(
                    same, "\(String(describing: source)) -> \(String(describing: destination)) threads \(threads)")
            }
        }
    }
}

final class BatchQueryClippingTests: XCTestCase {
    private func same(_ p: RectEdges?, _ q: RectEdges?) -> Bool {
        switch (p, q) {
        case (nil, nil): return true
        case (let p?, let q?):
            func same(_ x: Double, _ y: Double) -> Bool { x.bitPattern == y.bitPattern || (x.isNaN && y.isNaN) }
            return same(p.minX, q.minX) && same(p.minY, q.minY) && same(p.maxX, q.maxX) && same(p.maxY, q.maxY)
        default: return false
        }
    }

    /// Batch clip rects and visibility equal the sequential ones for counts 0...67
    /// (random parents, masks, hidden layers, special values) and thread counts 1...8.
    func testClipRectsAndVisibilityMatchSequential() {
        for count in 0...67 {
            let store = makeRandomStore(count: count, seed: UInt64(6000 + count), specials: count % 3 == 0)
            let world = store.worldTransforms(options: .serial(.c))
            let rects = store.referenceWorldRects(in: world)
            let clips = store.referenceClipRects(worldRects: rects)
            let viewport = count % 2 == 0 ? Rect(x: -100, y: -100, width: 700, height: 700) : nil
            let visible = store.referenceVisibility(worldRects: rects, clipRects: clips, viewport: viewport)
            let options = KernelOptions(backend: .simd, threads: 1 + count % 8)
            let batchClips = store.clipRects(worldRects: rects, options: options)
            XCTAssertTrue(zip(batchClips, clips).allSatisfy { same($0, $1) }, "count \(count)")
            XCTAssertEqual(
                store.visibility(worldRects: rects, clipRects: clips, viewport: viewport, options: options),
                visible, "count \(count)")
        }
    }

    /// A wide store (levels split over threads) with masks and hidden subtrees.
    func testWideStoreThreads() {
        var store = makeWideStore(count: 40_000)
        for layer in stride(from: 1, to: 40_000, by: 37) { store.setMasksToBounds(true, of: layer) }
        for layer in stride(from: 5, to: 40_000, by: 501) { store.setHidden(true, of: layer) }
        let world = store.worldTransforms(options: .serial(.c))
        let rects = store.referenceWorldRects(in: world)
        let clips = store.referenceClipRects(worldRects: rects)
        let visible = store.referenceVisibility(
            worldRects: rects, clipRects: clips, viewport: Rect(x: 0, y: 0, width: 400, height: 300))
        XCTAssertTrue(visible.contains(true) && visible.contains(false))
        for threads in [1, 2, 3, 8] {
            let options = KernelOptions(backend: .c, threads: threads)
            XCTAssertTrue(zip(store.clipRects(worldRects: rects, options: options), clips).allSatisfy { same($0, $1) })
            XCTAssertEqual(
                store.visibility(
                    worldRects: rects, clipRects: clips,
                    viewport: Rect(x: 0, y: 0, width: 400, height: 300), options: options), visible)
        }
    }

    /// Hand-derived: a masking root 100×100 at the origin with a child at (50, 50) of
    /// size 100×100: the child's clip is the root's rect, it is visible; a hidden root
    /// hides both.
    func testHandDerivedClip() throws {
        var store = LayerStore()
        let root = try store.addLayer()
        let child = try store.addLayer(superlayer: root)
        store.setFrame(Rect(x: 0, y: 0, width: 100, height: 100), of: root)
        store.setFrame(Rect(x: 50, y: 50, width: 100, height: 100), of: child)
        store.setMasksToBounds(true, of: root)
        let world = store.worldTransforms(options: .serial(.c))
        let rects = store.worldRects(in: world, options: .serial(.c))
        let clips = store.clipRects(worldRects: rects, options: .serial(.c))
        XCTAssertNil(clips[root])
        XCTAssertEqual(clips[child], RectEdges(minX: 0, minY: 0, maxX: 100, maxY: 100))
        XCTAssertEqual(
            store.visibility(worldRects: rects, clipRects: clips, viewport: nil, options: .serial(.c)), [true, true])
        store.setHidden(true, of: root)
        XCTAssertEqual(
            store.visibility(worldRects: rects, clipRects: clips, viewport: nil, options: .serial(.c)), [false, false])
    }
}
