import XCTest

@_spi(Testing) @testable import BatchGeometry

/// NaN, ±infinity and ±greatestFiniteMagnitude in any input: no trap anywhere, and the
/// value reaches only the results of the layers it touches (the layer and, through the
/// hierarchy, its subtree), never its siblings or unrelated layers.
final class NonFiniteTests: XCTestCase {
    static let specialValues: [Double] = [
        .nan, .infinity, -.infinity, .greatestFiniteMagnitude,
        -.greatestFiniteMagnitude,
    ]
    /// One thread each: these stores are far below the size at which work is split;
    /// `testNonFiniteValuesAcrossThreadChunks` covers the chunked paths.
    static let allOptions: [KernelOptions] = backendChoices.map { KernelOptions.serial($0) }

    /// Two roots around `touchedRoot` (6, a transform layer, so no flattening hides a
    /// value in its sublayerTransform), a deeper layer `touchedInner` (2) with its own
    /// siblings, and mixed zPositions so drawing order really sorts.
    ///
    ///     0 ── 1, 2 ── 3 ── 4, 5        6 ── 7 ── 8        9
    static let touchedRoot = 6, touchedInner = 2
    static let subtrees: [Int: Set<Int>] = [6: [6, 7, 8], 2: [2, 3, 4]]

    static func makeTree() -> LayerStore {
        var store = LayerStore()
        let parents: [Int?] = [nil, 0, 0, 2, 3, 0, nil, 6, 7, nil]
        let frames = [
            Rect(0, 0, 400, 400), Rect(10, 10, 100, 100), Rect(50, 50, 200, 200), Rect(10, 10, 50, 50),
            Rect(5, 5, 20, 20), Rect(300, 300, 50, 50), Rect(500, 0, 100, 100), Rect(10, 10, 80, 80),
            Rect(5, 5, 40, 40), Rect(0, 500, 100, 100),
        ]
        let z: [Double] = [0, 3, 1, 0, 0, 2, 5, 0, 0, -1]
        for (layer, parent) in parents.enumerated() {
            try! store.addLayer(superlayer: parent)
            store.setFrame(frames[layer], of: layer)
            store.setZPosition(z[layer], of: layer)
        }
        store.setTransformLayer(true, of: touchedRoot)
        return store
    }

    /// Every scalar input of a layer, each as a way to put one value there.
    static let inputs: [(name: String, set: @Sendable (inout LayerStore, Int, Double) -> Void)] = {
        var list: [(String, @Sendable (inout LayerStore, Int, Double) -> Void)] = [
            (
                "bounds.x",
                { s, l, v in
                    var b = s.bounds(of: l)
                    b.origin.x = v
                    s.setBounds(b, of: l)
                }
            ),
            (
                "bounds.y",
                { s, l, v in
                    var b = s.bounds(of: l)
                    b.origin.y = v
                    s.setBounds(b, of: l)
                }
            ),
            (
                "bounds.width",
                { s, l, v in
                    var b = s.bounds(of: l)
                    b.size.width = v
                    s.setBounds(b, of: l)
                }
            ),
            (
                "bounds.height",
                { s, l, v in
                    var b = s.bounds(of: l)
                    b.size.height = v
                    s.setBounds(b, of: l)
                }
            ),
            ("position.x", { s, l, v in s.setPosition(Point(v, s.position(of: l).y), of: l) }),
            ("position.y", { s, l, v in s.setPosition(Point(s.position(of: l).x, v), of: l) }),
            ("anchorPoint.x", { s, l, v in s.setAnchorPoint(Point(v, s.anchorPoint(of: l).y), of: l) }),
            ("anchorPoint.y", { s, l, v in s.setAnchorPoint(Point(s.anchorPoint(of: l).x, v), of: l) }),
            ("zPosition", { s, l, v in s.setZPosition(v, of: l) }),
            ("anchorPointZ", { s, l, v in s.setAnchorPointZ(v, of: l) }),
            ("contentOffset.x", { s, l, v in s.setContentOffset(Point(v, 0), of: l) }),
            (
                "frame.x",
                { s, l, v in
                    var f = s.frame(of: l)
                    f.origin.x = v
                    s.setFrame(f, of: l)
                }
            ),
            (
                "frame.y",
                { s, l, v in
                    var f = s.frame(of: l)
                    f.origin.y = v
                    s.setFrame(f, of: l)
                }
            ),
            (
                "frame.width",
                { s, l, v in
                    var f = s.frame(of: l)
                    f.size.width = v
                    s.setFrame(f, of: l)
                }
            ),
            (
                "frame.height",
                { s, l, v in
                    var f = s.frame(of: l)
                    f.size.height = v
                    s.setFrame(f, of: l)
                }
            ),
        ]
        for entry in 0..<16 {
            list.append(
                (
                    "transform[\(entry)]",
                    { s, l, v in
                        var m = s.transform(of: l).rowMajor
                        m[entry] = v
                        s.setTransform(Transform3D(rowMajor: m), of: l)
                    }
                ))
            list.append(
                (
                    "sublayerTransform[\(entry)]",
                    { s, l, v in
                        var m = s.sublayerTransform(of: l).rowMajor
                        m[entry] = v
                        s.setSublayerTransform(Transform3D(rowMajor: m), of: l)
                    }
                ))
        }
        return list
    }()

    /// Everything the public API computes for a store, with one set of kernel options.
    struct Results {
        var frames: FrameColumns
        var world: WorldTransforms
        var worldRects: [RectEdges]
        var clipRects: [RectEdges?]
        var visible: [Bool]
        var drawOrder: [Int]
        var hits: [[Int?]]  // per rule, per probe point
        var conversions: [Point?]  // probe points from every layer to every layer

        static let probes: [Point] = stride(from: -50.0, through: 650, by: 61).flatMap { x in
            stride(from: -50.0, through: 650, by: 67).map { Point(x, $0) }
        }

        init(_ store: borrowing LayerStore, _ options: KernelOptions) {
            var store = store.copy()
            frames = store.frames(options: options)
            world = store.updateWorld(options: options)
            XCTAssertEqual(store.worldTransforms(options: options).count, store.count)
            worldRects = store.worldRects(in: world, options: options)
            clipRects = store.clipRects(worldRects: worldRects)
            visible = store.visibility(worldRects: worldRects, clipRects: clipRects, viewport: Rect(0, 0, 375, 812))
            drawOrder = store.drawOrderIndices()
            let snapshot = world
            let frozen = store.copy()
            hits = HitTestRule.allCases.map {
                frozen.hitTestIndices(points: Results.probes, in: snapshot, rule: $0, options: options)
            }
            conversions = []
            // Conversions do not depend on the options; do them once, with the reference.
            guard options == .serial(.scalar) else { return }
            for from in [nil] + Array(0..<store.count) as [Int?] {
                for to in [nil] + Array(0..<store.count) as [Int?] {
                    conversions.append(store.convert(Point(7, 9), from: from, to: to, in: world))
                    _ = store.convert(Rect(1, 2, 3, 4), from: from, to: to, in: world)
                }
            }
        }
    }

    static func bits(_ t: Transform3D) -> [UInt64] { t.rowMajor.map(\.bitPattern) }
    static func bits(_ r: RectEdges?) -> [UInt64]? { r.map { [$0.minX, $0.minY, $0.maxX, $0.maxY].map(\.bitPattern) } }

    func testSpecialValuesReachOnlyTheLayersTheyTouch() {
        let base = Self.makeTree()
        let baseline = Dictionary(uniqueKeysWithValues: Self.allOptions.map { ($0, Results(base, $0)) })
        var checked = 0
        for touched in [Self.touchedRoot, Self.touchedInner] {
            let subtree = Self.subtrees[touched]!
            let outside = (0..<base.count).filter { !subtree.contains($0) }
            for input in Self.inputs {
                for value in Self.specialValues {
                    var store = base.copy()
                    input.set(&store, touched, value)
                    let context = "\(input.name) = \(value) on layer \(touched)"
                    let reference = Results(store, .serial(.scalar))
                    for options in Self.allOptions {
                        let results = options == .serial(.scalar) ? reference : Results(store, options)
                        let before = baseline[options]!
                        XCTAssertTrue(
                            results.frames.isBitIdentical(to: reference.frames), "frames, \(options), \(context)")
                        for layer in outside {
                            XCTAssertEqual(results.frames[layer], before.frames[layer], "frame of \(layer), \(context)")
                            XCTAssertEqual(
                                Self.bits(results.world[layer]), Self.bits(before.world[layer]),
                                "world of \(layer), \(options), \(context)")
                            XCTAssertEqual(
                                Self.bits(results.worldRects[layer]), Self.bits(before.worldRects[layer]),
                                "world rect of \(layer), \(context)")
                            XCTAssertEqual(
                                results.visible[layer], before.visible[layer], "visibility of \(layer), \(context)")
                        }
                        // Other layers' frames are local: only the touched layer's own frame may move.
                        for layer in 0..<base.count where layer != touched {
                            XCTAssertEqual(results.frames[layer], before.frames[layer], "frame of \(layer), \(context)")
                        }
                        // A hit either stays what it was or lands in the touched subtree.
                        for (rule, ruleHits) in results.hits.enumerated() {
                            for (k, hit) in ruleHits.enumerated() where hit != before.hits[rule][k] {
                                XCTAssertTrue(
                                    hit.map(subtree.contains) ?? false
                                        || before.hits[rule][k].map(subtree.contains) ?? false,
                                    "hit at \(Results.probes[k]) moved from \(String(describing: before.hits[rule][k])) to \(String(describing: hit)), \(context)"
                                )
                            }
                        }
                        // Drawing order: a permutation of the visible layers; the others keep their order.
                        XCTAssertEqual(results.drawOrder.sorted(), before.drawOrder.sorted(), context)
                        XCTAssertEqual(
                            results.drawOrder.filter { !subtree.contains($0) },
                            before.drawOrder.filter { !subtree.contains($0) }, "draw order, \(context)")
                        checked += 1
                    }
                    if value.isNaN || value.isInfinite { assertReaches(store, touched, input.name, reference, context) }
                }
            }
        }
        XCTAssertEqual(checked, 2 * Self.inputs.count * Self.specialValues.count * Self.allOptions.count)
    }

    /// NaN and infinities are not lost on the way: they show up in the touched layer's
    /// frame or world transform (or, for what a layer applies to its sublayers, in its
    /// sublayer's world transform).
    private func assertReaches(
        _ store: borrowing LayerStore, _ touched: Int, _ input: String, _ results: Results, _ context: String
    ) {
        guard touched == Self.touchedRoot else { return }  // below a flattening parent z entries vanish, by the spec
        func nonFinite(_ t: Transform3D) -> Bool { t.rowMajor.contains { !$0.isFinite } }
        let frame = results.frames[touched]
        let frameHasIt = ![frame.x, frame.y, frame.width, frame.height].allSatisfy(\.isFinite)
        if input.hasPrefix("sublayerTransform") {
            XCTAssertTrue(nonFinite(results.world[touched + 1]), "not in the sublayer's world: \(context)")
        } else if input.hasPrefix("contentOffset") {
            XCTAssertTrue(nonFinite(results.world[touched + 1]), "not in the sublayer's world: \(context)")
        } else if input.hasPrefix("frame.") || input.hasPrefix("position") || input.hasPrefix("bounds.width")
            || input.hasPrefix("bounds.height") || input.hasPrefix("anchorPoint.")
        {
            XCTAssertTrue(frameHasIt, "not in the frame: \(context)")
            XCTAssertTrue(nonFinite(results.world[touched]), "not in the world: \(context)")
        } else {
            XCTAssertTrue(nonFinite(results.world[touched]), "not in the world: \(context)")
        }
    }

    /// When a planar chain overflows, the world pass redoes the store as full 4×4
    /// products (`propagateWorldInFull`): every entry of every layer, and which layers are
    /// stored as 4×4 matrices, must then be the scalar reference's, bit for bit, on every
    /// entry point (`worldTransforms`, `computeWorldTransforms(into:)`, `updateWorld`) and
    /// backend. A planar result would differ: it has no `0 × inf` NaNs in its z entries.
    func testNonFinitePassIsTheReferenceBitForBit() {
        var fellBack = 0
        for input in Self.inputs {
            for value in [Double.nan, .infinity, -.infinity] {
                for touched in [Self.touchedRoot, Self.touchedInner] {
                    var store = Self.makeTree()
                    input.set(&store, touched, value)
                    let reference = store.referenceWorldTransforms()
                    let context = "\(input.name) = \(value) on layer \(touched)"
                    for options in Self.allOptions {
                        let plan = store.makeWorldPlan()
                        var probe = WorldTransforms(uninitializedCount: store.count)
                        guard !store.propagateWorld(plan: plan, into: &probe, options: options) else { continue }
                        fellBack += 1
                        var into = WorldTransforms()
                        store.computeWorldTransforms(into: &into, options: options)
                        var updated = store.copy()
                        let results = [
                            ("worldTransforms", store.worldTransforms(options: options)), ("into", into),
                            ("updateWorld", updated.updateWorld(options: options)),
                        ]
                        for (name, world) in results {
                            for layer in 0..<store.count {
                                XCTAssertEqual(
                                    Self.bits(world[layer]), Self.bits(reference[layer]),
                                    "\(name), layer \(layer), \(options), \(context)")
                                XCTAssertEqual(
                                    world.isPlanar(layer), reference.isPlanar(layer),
                                    "\(name), storage of layer \(layer), \(options), \(context)")
                            }
                        }
                    }
                }
            }
        }
        XCTAssertGreaterThan(fellBack, 0, "no input made a planar chain overflow: the test checks nothing")
    }

    /// A NaN in a large store, across the chunks that threads split it into: every
    /// backend and thread count gives the scalar bits, and only that layer is NaN.
    func testNonFiniteValuesAcrossThreadChunks() {
        var store = LayerStore(minimumCapacity: 70_000)
        for layer in 0..<70_000 {
            try! store.addLayer()
            store.setFrame(Rect(Double(layer), 0, 10, 10), of: layer)
        }
        let touched = [0, 3, 16_383, 16_384, 35_001, 69_999]
        for (k, layer) in touched.enumerated() {
            let value = Self.specialValues[k % Self.specialValues.count]
            store.setAffineTransform(AffineTransform(a: value, b: 0, c: 0, d: 1, tx: 0, ty: 0), of: layer)
        }
        let reference = store.frames(options: .serial(.scalar))
        for layer in 0..<store.count where !touched.contains(layer) {
            if reference[layer] != Rect(Double(layer), 0, 10, 10) {
                XCTFail("frame of \(layer) = \(reference[layer])")
                break
            }
        }
        XCTAssertTrue(reference.x[0].isNaN)
        XCTAssertEqual(reference.width[3], .infinity)
        for backend in Backend.allCases {
            for threads in 1...4 {
                let frames = store.frames(options: KernelOptions(backend: backend, threads: threads))
                XCTAssertTrue(frames.isBitIdentical(to: reference), "\(backend) with \(threads) threads")
            }
        }
    }

    func testSingularTransformsGiveNilConversionsAndNoHits() throws {
        var store = LayerStore()
        let root = try store.addLayer()
        store.setFrame(Rect(0, 0, 100, 100), of: root)
        let flat = try store.addLayer(superlayer: root)
        store.setFrame(Rect(0, 0, 100, 100), of: flat)
        store.setAffineTransform(.scale(x: 0, y: 1), of: flat)  // squashed to a line
        let inside = try store.addLayer(superlayer: flat)
        store.setFrame(Rect(0, 0, 100, 100), of: inside)
        let edgeOn = try store.addLayer(superlayer: root)  // turned 90° about y: seen edge-on
        store.setFrame(Rect(0, 0, 100, 100), of: edgeOn)
        store.setTransform(Transform3D(rowMajor: [0, 0, -1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1]), of: edgeOn)
        let world = store.updateWorld()
        for singular in [flat, inside, edgeOn] {
            XCTAssertNil(store.convert(Point(50, 50), from: nil, to: singular, in: world), "layer \(singular)")
            XCTAssertNil(store.convert(Point(50, 50), from: root, to: singular, in: world), "layer \(singular)")
            XCTAssertNil(store.convert(Rect(10, 10, 5, 5), from: root, to: singular, in: world), "layer \(singular)")
            XCTAssertNil(store.pointInLayer(singular, fromWorld: Point(50, 50), in: world))
            XCTAssertEqual(
                store.convert(points: [Point(1, 1), Point(50, 50)], from: nil, to: singular, in: world), [nil, nil])
        }
        // Converting *from* a singular layer is fine: it maps onto its line.
        XCTAssertEqual(store.convert(Point(30, 70), from: flat, to: nil, in: world), Point(50, 70))
        for rule in HitTestRule.allCases {
            for x in stride(from: 0.0, to: 100, by: 7) {
                for y in stride(from: 0.0, to: 100, by: 7) {
                    XCTAssertEqual(store.hitTest(Point(x, y), in: world, rule: rule), root, "(\(x), \(y)) \(rule)")
                }
            }
        }
    }

    func testNaNZPositionsSortWithoutTrappingAndKeepTheOthersInOrder() throws {
        var store = LayerStore()
        let root = try store.addLayer()
        let z: [Double] = [2, .nan, 1, -.infinity, .nan, .infinity, 0, -0.0, .nan, 3]
        for value in z {
            let layer = try store.addLayer(superlayer: root)
            store.setZPosition(value, of: layer)
        }
        XCTAssertEqual(store.drawOrder().first, root)
        let order = store.drawOrderIndices()
        XCTAssertEqual(order.sorted(), Array(0...z.count))
        // The non-NaN sublayers in zPosition order (stable for 0 and -0), whatever the NaNs do.
        let finiteOrder = order.filter { $0 != root.index && !z[$0 - 1].isNaN }
        XCTAssertEqual(finiteOrder, [4, 7, 8, 3, 1, 10, 6])
        // NaN sorts as 0 (docs/SEMANTICS.md): keys [2, 0, 1, -inf, 0, inf, 0, -0, 0, 3],
        // so the NaNs sit among the zeros, all of them in sublayer order.
        XCTAssertEqual(order, [root.index, 4, 2, 5, 7, 8, 9, 3, 1, 10, 6])
        // The same sublayers in a different list order sort the same way around the NaNs.
        var reversed = LayerStore()
        let top = try reversed.addLayer()
        for value in z.reversed() { reversed.setZPosition(value, of: try reversed.addLayer(superlayer: top)) }
        let reversedFinite = reversed.drawOrderIndices().filter { $0 != top.index && !z.reversed()[$0 - 1].isNaN }
        XCTAssertEqual(reversedFinite.map { z.reversed()[$0 - 1] }, [-.infinity, -0.0, 0, 1, 2, 3, .infinity])
        // Many NaNs among many layers: still a permutation (no trap, no endless loop).
        var big = LayerStore()
        let bigRoot = try big.addLayer()
        var generator = SplitMix64(seed: 7)
        for k in 0..<5_000 {
            let layer = try big.addLayer(superlayer: bigRoot)
            big.setZPosition(k % 3 == 0 ? .nan : Double(Int.random(in: -50...50, using: &generator)), of: layer)
        }
        let bigOrder = big.drawOrder()
        XCTAssertEqual(bigOrder.map(\.index).sorted(), Array(0..<big.count))
        let bigZ = bigOrder.dropFirst().map { big.zPosition(of: $0) }
        let finiteZ = bigZ.filter { !$0.isNaN }
        XCTAssertTrue(finiteZ == finiteZ.sorted(), "finite zPositions out of order")
        // NaN sorts as 0: the keys of the whole order are sorted too.
        let keys = bigZ.map { $0.isNaN ? 0 : $0 }
        XCTAssertTrue(keys == keys.sorted(), "NaN zPositions not sorted as 0")
    }

    func testScrollingWithNonFiniteValuesDoesNotTrap() throws {
        for value in Self.specialValues {
            var store = LayerStore()
            let scroller = try store.addLayer()
            store.setFrame(Rect(0, 0, 100, 100), of: scroller)
            store.setScrollView(ScrollViewState(contentSize: Size(value, 500)), of: scroller)
            _ = store.scrollRange(of: scroller)
            let offset = try store.scroll(scroller, to: Point(value, value))
            XCTAssertEqual(store.contentOffset(of: scroller).x.bitPattern, offset.x.bitPattern)
            // y is finite-limited: -0...400, so any request clamps into it or stays NaN.
            XCTAssertTrue(offset.y.isNaN || (0...400).contains(offset.y), "\(value): \(offset)")
            store.setScrollView(
                ScrollViewState(
                    contentSize: Size(500, 500),
                    contentInset: EdgeInsets(top: value, left: value, bottom: value, right: value)),
                of: scroller)
            _ = store.scrollRange(of: scroller)
            _ = try store.scroll(scroller, to: Point(10, 10))
            store.setBounds(Rect(0, 0, value, value), of: scroller)
            _ = store.scrollRange(of: scroller)
            _ = try store.scroll(scroller, to: Point(-value, 3))
        }
        var store = LayerStore()
        let scroller = try store.addLayer()
        store.setFrame(Rect(0, 0, 100, 100), of: scroller)
        store.setScrollView(ScrollViewState(contentSize: Size(300, 300)), of: scroller)
        XCTAssertEqual(try store.scroll(scroller, to: Point(.infinity, -.infinity)), Point(200, 0))
        XCTAssertEqual(try store.scroll(scroller, to: Point(.greatestFiniteMagnitude, 50)), Point(200, 50))
    }
}
