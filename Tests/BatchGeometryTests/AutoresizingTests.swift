import XCTest

@testable import BatchGeometry

/// Autoresizing masks (GEOMETRY.md sections 2 and 4, section 9 X6). Expectations from the
/// evidence (AppKit's recorded values before its flooring; the device conformance case)
/// or worked by hand from the rule; random trees against a recursive reference.
final class AutoresizingTests: XCTestCase {
    private func makeSuperlayer(_ frame: Rect = Rect(x: 0, y: 0, width: 100, height: 100)) -> Fixture<LayerHandle> {
        var store = LayerStore()
        let superlayer = store.addViewWithFrame(frame)
        return Fixture(store: store, handles: superlayer)
    }

    private func addSublayer(
        _ store: inout LayerStore, _ superlayer: LayerHandle, _ frame: Rect, _ mask: AutoresizingMask
    )
        -> LayerHandle
    {
        let layer = store.addViewWithFrame(frame, parent: superlayer)
        store.setAutoresizingMask(mask, of: layer)
        return layer
    }

    private func resize(_ store: inout LayerStore, _ layer: LayerHandle, width: Double, height: Double) {
        var bounds = store.bounds(of: layer)
        bounds.size = Size(width: width, height: height)
        store.setBounds(bounds, of: layer)
    }

    /// X6: flexible left and right margins, frame (10, 10, 30, 30), width 100 → 200:
    /// the margins 10 and 60 share 100 in proportion, x = 10 + 100·10/70 = 24.285714285714285
    /// (AppKit floors this to 24; UIKit and this engine do not round).
    func testProportionalMarginsMatchTheRecordedValue() {
        let storeFixture = makeSuperlayer()
        let superlayer = storeFixture.handles
        var store = storeFixture.store
        let centered = addSublayer(
            &store, superlayer, Rect(x: 10, y: 10, width: 30, height: 30),
            [.flexibleLeftMargin, .flexibleRightMargin])
        resize(&store, superlayer, width: 200, height: 100)
        XCTAssertEqual(store.frame(of: centered), Rect(x: 24.285714285714285, y: 10, width: 30, height: 30))
    }

    /// The device conformance case (conformance/device/x6-*): superview 100×100 → 200×150.
    func testDeviceCase() {
        let storeFixture = makeSuperlayer()
        let superlayer = storeFixture.handles
        var store = storeFixture.store
        let sub = Rect(x: 10, y: 10, width: 30, height: 30)
        let stretchy = addSublayer(&store, superlayer, sub, [.flexibleWidth, .flexibleHeight])
        let everything = addSublayer(&store, superlayer, sub, AutoresizingMask(rawValue: 63))
        let pinned = addSublayer(&store, superlayer, sub, [])
        resize(&store, superlayer, width: 200, height: 150)
        XCTAssertEqual(store.frame(of: stretchy), Rect(x: 10, y: 10, width: 130, height: 80))
        XCTAssertEqual(store.frame(of: everything), Rect(x: 20, y: 15, width: 60, height: 45))
        XCTAssertEqual(store.frame(of: pinned), sub)
        XCTAssertEqual(store.position(of: everything), Point(x: 50, y: 37.5))
    }

    /// X6: a zero-size subview with flexible width and height, 100×100 → 200×150: the
    /// flexible parts sum to 0, so each gets the whole difference: 100×50. With a flexible
    /// left margin of 0 too, the two share it: margin 50, width 50.
    func testZeroSumOfFlexiblePartsSharesTheDifferenceEvenly() {
        let storeFixture = makeSuperlayer()
        let superlayer = storeFixture.handles
        var store = storeFixture.store
        let empty = addSublayer(
            &store, superlayer, Rect(x: 10, y: 10, width: 0, height: 0), [.flexibleWidth, .flexibleHeight])
        let corner = addSublayer(
            &store, superlayer, Rect(x: 0, y: 0, width: 0, height: 0), [.flexibleLeftMargin, .flexibleWidth])
        resize(&store, superlayer, width: 200, height: 150)
        XCTAssertEqual(store.bounds(of: empty).size, Size(width: 100, height: 50))
        XCTAssertEqual(store.frame(of: empty), Rect(x: 10, y: 10, width: 100, height: 50))
        XCTAssertEqual(store.frame(of: corner), Rect(x: 50, y: 0, width: 50, height: 0))
    }

    /// Shrinking past zero: flexible width 30 with the superlayer 100 → 50 gives
    /// w = 30 + (-50·30)/30 = -20, kept as it is; position.x = (0 + 10) + 0.5·(-20) = 0.
    func testShrinkingBelowZeroKeepsTheNegativeSize() {
        let storeFixture = makeSuperlayer()
        let superlayer = storeFixture.handles
        var store = storeFixture.store
        let layer = addSublayer(&store, superlayer, Rect(x: 10, y: 10, width: 30, height: 30), .flexibleWidth)
        resize(&store, superlayer, width: 50, height: 100)
        XCTAssertEqual(store.bounds(of: layer).size, Size(width: -20, height: 30))
        XCTAssertEqual(store.position(of: layer), Point(x: 0, y: 25))
    }

    /// Margins are measured from the superlayer's bounds origin: scrolled by 50, a
    /// sublayer at y = 60 has top margin 10; with a flexible top margin and height
    /// 100 → 200 it becomes 10 + 100·10/10 = 110, so y = 50 + 110 = 160.
    func testMarginsOnAScrolledSuperlayer() {
        let storeFixture = makeSuperlayer()
        let superlayer = storeFixture.handles
        var store = storeFixture.store
        store.setBounds(Rect(x: 0, y: 50, width: 100, height: 100), of: superlayer)
        let layer = addSublayer(&store, superlayer, Rect(x: 10, y: 60, width: 30, height: 30), .flexibleTopMargin)
        resize(&store, superlayer, width: 100, height: 200)
        XCTAssertEqual(store.frame(of: layer), Rect(x: 10, y: 160, width: 30, height: 30))
    }

    /// Nothing resizes when: autoresizesSubviews is false; only bounds.origin changed;
    /// the size is set to what it was; the layer has no mask.
    func testWhatDoesNotResize() {
        let storeFixture = makeSuperlayer()
        let superlayer = storeFixture.handles
        var store = storeFixture.store
        let frame = Rect(x: 10, y: 10, width: 30, height: 30)
        let layer = addSublayer(&store, superlayer, frame, .all)
        XCTAssertTrue(store.autoresizesSubviews(superlayer))
        store.setAutoresizesSubviews(false, of: superlayer)
        resize(&store, superlayer, width: 200, height: 200)
        XCTAssertEqual(store.frame(of: layer), frame)
        store.setAutoresizesSubviews(true, of: superlayer)
        store.setBounds(Rect(x: 30, y: -20, width: 200, height: 200), of: superlayer)
        XCTAssertEqual(store.frame(of: layer), frame, "a new bounds.origin alone resizes nothing")
        store.setFrame(store.frame(of: superlayer), of: superlayer)
        XCTAssertEqual(store.frame(of: layer), frame, "the same size again resizes nothing")
        store.setContentOffset(Point(x: 5, y: 5), of: superlayer)
        XCTAssertEqual(store.frame(of: layer), frame)
        // The frame setter autoresizes too: 200 → 100 wide with every part flexible.
        store.setBounds(Rect(x: 0, y: 0, width: 200, height: 200), of: superlayer)
        store.setFrame(Rect(x: 0, y: 0, width: 100, height: 200), of: superlayer)
        XCTAssertEqual(store.frame(of: layer), Rect(x: 5, y: 10, width: 15, height: 30))
    }

    /// The mask keeps only UIKit's six bits; 63 is every flag.
    func testMaskStorage() {
        let storeFixture = makeSuperlayer()
        let superlayer = storeFixture.handles
        var store = storeFixture.store
        XCTAssertEqual(store.autoresizingMask(of: superlayer), [])
        store.setAutoresizingMask(AutoresizingMask(rawValue: 0xFF), of: superlayer)
        XCTAssertEqual(store.autoresizingMask(of: superlayer), .all)
        XCTAssertEqual(AutoresizingMask.all.rawValue, 63)
        XCTAssertEqual(AutoresizingMask.named.map(\.flag.rawValue), [1, 2, 4, 8, 16, 32])
        store.setAutoresizingMask([], of: superlayer)
        XCTAssertEqual(store.columns.autoresizingLayerCount, 0)
    }

    /// Cascade: a flexible layer that grows resizes its own flexible sublayers, under a
    /// transform too (the rule reads the untransformed frame: position and bounds).
    func testCascadeAndTransforms() {
        let storeFixture = makeSuperlayer()
        let top = storeFixture.handles
        var store = storeFixture.store
        let middle = addSublayer(&store, top, Rect(x: 0, y: 0, width: 100, height: 10), .flexibleWidth)
        store.setAffineTransform(.rotation(radians: 0.3), of: middle)
        let bottom = addSublayer(&store, middle, Rect(x: 0, y: 0, width: 100, height: 10), .flexibleWidth)
        resize(&store, top, width: 200, height: 100)
        XCTAssertEqual(store.bounds(of: middle).size, Size(width: 200, height: 10))
        XCTAssertEqual(store.position(of: middle), Point(x: 100, y: 5))
        XCTAssertEqual(store.bounds(of: bottom).size, Size(width: 200, height: 10))
        // A layer that does not autoresize its sublayers stops the cascade there.
        store.setAutoresizesSubviews(false, of: middle)
        resize(&store, top, width: 300, height: 100)
        XCTAssertEqual(store.bounds(of: middle).size, Size(width: 300, height: 10))
        XCTAssertEqual(store.bounds(of: bottom).size, Size(width: 200, height: 10))
    }

    /// No recursion: a chain of flexible layers deep enough that a recursion per level
    /// would overflow the stack (`LimitsTests.depth`: 300,000) resized at the top. Every
    /// layer follows, and the incremental world update sees them all.
    func testDeepChain() {
        let depth = LimitsTests.depth
        var store = LayerStore(minimumCapacity: depth)
        var layer = try! store.addLayer()
        store.setAnchorPoint(.zero, of: layer)  // the top's frame stays at the origin as it grows
        store.setBounds(Rect(x: 0, y: 0, width: 100, height: 100), of: layer)
        for _ in 1..<depth {
            layer = try! store.addLayer(superlayer: layer)
            store.setBounds(Rect(x: 0, y: 0, width: 100, height: 100), of: layer)
            store.setPosition(Point(x: 50, y: 50), of: layer)
            store.setAutoresizingMask(.flexibleWidth, of: layer)
        }
        _ = store.updateWorld()
        store.setBounds(Rect(x: 0, y: 0, width: 200, height: 100), of: 0)
        XCTAssertEqual(store.bounds(of: depth - 1).size, Size(width: 200, height: 100))
        XCTAssertEqual(store.position(of: depth - 1), Point(x: 100, y: 50))
        let world = store.updateWorld()
        XCTAssertEqual(world[depth - 1].m41, 0)  // every layer's left edge stays at 0
        XCTAssertEqual(store.worldRect(of: depth - 1, in: world).maxX, 200)
    }

    /// Random trees (random masks, anchors, scroll offsets, transforms,
    /// autoresizesSubviews, NaN and zero sizes): a resize at a random layer gives what a
    /// recursive reference gives, and the incremental world update then equals a full pass.
    func testRandomTreesAgainstRecursiveReference() {
        for seed in 0..<20 {
            var random = SplitMix64(seed: UInt64(500 + seed))
            var store = makeRandomStore(count: 60, seed: UInt64(900 + seed), specials: seed % 5 == 4)
            for layer in 0..<store.count {
                store.setAutoresizingMask(AutoresizingMask(rawValue: UInt(random.below(64))), of: layer)
                if random.chance(10) { store.setAutoresizesSubviews(false, of: layer) }
            }
            _ = store.updateWorld()
            for _ in 0..<5 {
                let layer = random.below(store.count)
                let newBounds = Rect(
                    x: random.value(20, specials: false), y: random.value(20, specials: false),
                    width: random.value(400, specials: seed % 5 == 4), height: random.value(400, specials: false))
                var expected = store.copy()
                referenceSetBounds(&expected, layer, newBounds)
                store.setBounds(newBounds, of: layer)
                for index in 0..<store.count {
                    assertSameBits(store.bounds(of: index), expected.bounds(of: index), "seed \(seed) layer \(index)")
                    assertSameBits(
                        store.position(of: index).x, expected.position(of: index).x, "seed \(seed) layer \(index)")
                    assertSameBits(
                        store.position(of: index).y, expected.position(of: index).y, "seed \(seed) layer \(index)")
                }
                let incremental = store.updateWorld()
                XCTAssertTrue(
                    worldsBitIdentical(incremental, store.worldTransforms(options: .serial(.scalar))), "seed \(seed)")
            }
        }
    }

    // MARK: Reference: the rule written out again, recursively, on the public API.

    private func referenceSetBounds(_ store: inout LayerStore, _ layer: Int, _ bounds: Rect) {
        let old = store.bounds(of: layer).size
        let autoresizes = store.autoresizesSubviews(layer)
        store.setAutoresizesSubviews(false, of: layer)  // set the bounds alone, then resize here
        store.setBounds(bounds, of: layer)
        store.setAutoresizesSubviews(autoresizes, of: layer)
        referenceResizeSublayers(&store, of: layer, old: old)
    }

    private func referenceResizeSublayers(_ store: inout LayerStore, of superlayer: Int, old: Size) {
        let new = store.bounds(of: superlayer).size
        guard store.autoresizesSubviews(superlayer), old.width != new.width || old.height != new.height else { return }
        let origin = store.bounds(of: superlayer).origin
        for layer in store.sublayers(of: superlayer) {
            let mask = store.autoresizingMask(of: layer)
            if mask.isEmpty { continue }
            var bounds = store.bounds(of: layer)
            var position = store.position(of: layer)
            let anchor = store.anchorPoint(of: layer)
            let before = bounds.size
            func axis(
                _ pos: Double, _ a: Double, _ w: Double, _ o: Double, _ oldW: Double, _ newW: Double,
                _ flex: [Bool]
            ) -> (Double, Double)? {
                guard flex.contains(true) else { return nil }
                let p = (pos - a * w) - o
                let parts = [p, w, (oldW - p) - w]
                let flexible = parts.indices.filter { flex[$0] }.map { parts[$0] }
                let total = flexible.dropFirst().reduce(flexible[0], +)
                let d = newW - oldW
                func grow(_ q: Double) -> Double { total != 0 ? q + (d * q) / total : q + d / Double(flexible.count) }
                let newP = flex[0] ? grow(p) : p
                let newLength = flex[1] ? grow(w) : w
                return (newLength, (o + newP) + a * newLength)
            }
            if let (w, x) = axis(
                position.x, anchor.x, bounds.width, origin.x, old.width, new.width,
                [
                    mask.contains(.flexibleLeftMargin), mask.contains(.flexibleWidth),
                    mask.contains(.flexibleRightMargin),
                ])
            {
                bounds.size.width = w
                position.x = x
            }
            if let (h, y) = axis(
                position.y, anchor.y, bounds.height, origin.y, old.height, new.height,
                [
                    mask.contains(.flexibleTopMargin), mask.contains(.flexibleHeight),
                    mask.contains(.flexibleBottomMargin),
                ])
            {
                bounds.size.height = h
                position.y = y
            }
            // Write without triggering the store's own autoresizing, then recurse.
            let saved = store.autoresizesSubviews(layer)
            store.setAutoresizesSubviews(false, of: layer)
            store.setBounds(bounds, of: layer)
            store.setPosition(position, of: layer)
            store.setAutoresizesSubviews(saved, of: layer)
            referenceResizeSublayers(&store, of: layer, old: before)
        }
    }
}
