import XCTest

@_spi(Testing) @testable import BatchGeometry

/// The translate and scale-translate paths of world propagation (`LocalKind`, chosen per
/// block of 64 layers) against the affine kernel they replace: the same bits whichever
/// path runs, on every backend and thread count, and within 1e-12 of the 4×4 reference.
final class TransformKindPathTests: XCTestCase {
    /// Options that force the affine kernel everywhere (the expected bits).
    private func affineOnly(_ backend: Backend?, threads: Int = 1) -> KernelOptions {
        var options = KernelOptions(backend: backend, threads: threads)
        options.transformKindPaths = false
        return options
    }

    /// An index-order 8-ary tree (level order is index order, so the kind paths apply)
    /// whose blocks of 64 layers are mostly translations, some with a scale, a rotation,
    /// a local with a -0.0 entry, a negative scale, a perspective (general) layer;
    /// some superlayers are flipped or have a sublayerTransform, which makes their
    /// translate sublayers' locals scale-translate or affine. `specials` puts infinities
    /// and NaN into some translations.
    private func makeKindStore(count: Int, seed: UInt64, specials: Bool = false) -> LayerStore {
        var random = SplitMix64(seed: seed)
        var store = LayerStore(minimumCapacity: count)
        for i in 0..<count {
            _ = try! store.addLayer(superlayer: i == 0 ? nil : (i - 1) / 8)
            store.setBounds(
                Rect(x: 0, y: 0, width: Double(10 + random.below(90)), height: Double(10 + random.below(60))), of: i)
            store.setPosition(Point(x: random.value(in: -300...300), y: random.value(in: -300...300)), of: i)
            if random.below(3) == 0 { store.setAnchorPoint(Point(x: random.unit(), y: random.unit()), of: i) }
            let theme = (i >> 6) % 8  // the block's mix
            let oddOne = random.below(64) < 2
            let transform: BatchGeometry.AffineTransform
            switch (theme, oddOne) {
            case (1, true): transform = .scale(x: 1 + random.unit(), y: 0.5 + random.unit())
            case (2, true): transform = .rotation(radians: random.value(in: -3...3))
            case (3, true):  // affine by its bits (c = -0)
                transform = BatchGeometry.AffineTransform(a: 1, b: 0, c: -0.0, d: 1, tx: 3, ty: 4)
            case (4, true): transform = .scale(x: -1, y: 1)
            case (5, true) where i > 8:
                store.setTransform(.perspective(distance: 400), of: i)  // a general layer mid-block
                continue
            case (6, true) where specials:
                transform = .translation(x: [Double.infinity, -.infinity, .nan][random.below(3)], y: 1)
            default:
                transform =
                    random.below(3) == 0
                    ? .identity : .translation(x: random.value(in: -20...20), y: random.value(in: -20...20))
            }
            store.setAffineTransform(transform, of: i)
            if theme == 7 && random.below(8) == 0 { store.setGeometryFlipped(true, of: i) }
            if theme == 7 && random.below(16) == 0 {
                store.setSublayerTransform(
                    Transform3D(random.below(2) == 0 ? .scale(x: 2, y: 3) : .rotation(radians: 0.5)), of: i)
            }
        }
        return store
    }

    /// Every backend and thread count 1...8 gives the affine kernel's bits and agrees
    /// with the reference, on a store big enough to split over threads (from 8,192
    /// layers, 2 × `parallelGrain`, a pass over threads takes runs of subtrees from the
    /// level of 64, whose runs start in the middle of kind blocks; it was 40,000 layers,
    /// the same paths).
    func testKindPathsMatchAffineKernelOnEveryBackendAndThreadCount() {
        var store = makeKindStore(count: 12_000, seed: 7)
        store.updateWorld(options: .serial(.scalar))  // caches the plan the passes below use
        let plan = store.caches.worldPlan!
        XCTAssertNil(plan.order)
        XCTAssertEqual(plan.blockKinds, plan.exactBlockKinds())
        for kind in [LocalKind.translate, LocalKind.scaleTranslate, LocalKind.affine] {
            XCTAssertTrue(plan.blockKinds.contains(kind), "no block of kind \(kind): the test would not exercise it")
        }
        let reference = store.referenceWorldTransforms()
        let expected = store.worldTransforms(options: affineOnly(.scalar))
        assertWorldsAgree(expected, reference, "affine kernel")
        for backend in backendChoices {
            XCTAssertTrue(
                worldsBitIdentical(store.worldTransforms(options: affineOnly(backend)), expected),
                "\(backend.label) affine kernel")
            for threads in 1...8 {
                let world = store.worldTransforms(options: KernelOptions(backend: backend, threads: threads))
                XCTAssertTrue(worldsBitIdentical(world, expected), "\(backend.label) threads \(threads)")
            }
        }
    }

    /// Small stores of every size 1...200 (blocks cut by the range ends, SIMD tails), with
    /// infinities and NaN in translations (then the pass falls back to the reference).
    func testSmallStoresWithSpecialValues() {
        for count in 1...200 {
            for specials in [false, true] {
                let store = makeKindStore(count: count, seed: UInt64(count), specials: specials)
                let reference = store.referenceWorldTransforms()
                let expected = store.worldTransforms(options: affineOnly(.scalar))
                for backend in backendChoices {
                    let world = store.worldTransforms(options: .serial(backend))
                    assertWorldsAgree(world, reference, "count \(count) specials \(specials) \(backend.label)")
                    XCTAssertTrue(
                        worldsBitIdentical(world, expected), "count \(count) specials \(specials) \(backend.label)")
                }
            }
        }
    }

    /// The classification by bits: -0.0 in b or c is not +0 (it changes a product's
    /// sign), a = d = 1 is translate, anything else with zero b, c is scale-translate.
    func testClassificationUsesExactBits() {
        XCTAssertEqual(LocalKind.of(a: 1, b: 0, c: 0, d: 1), LocalKind.translate)
        XCTAssertEqual(LocalKind.of(a: 2, b: 0, c: 0, d: 1), LocalKind.scaleTranslate)
        XCTAssertEqual(LocalKind.of(a: 1, b: 0, c: 0, d: -1), LocalKind.scaleTranslate)
        XCTAssertEqual(LocalKind.of(a: .nan, b: 0, c: 0, d: 1), LocalKind.scaleTranslate)
        XCTAssertEqual(LocalKind.of(a: 1, b: -0.0, c: 0, d: 1), LocalKind.affine)
        XCTAssertEqual(LocalKind.of(a: 1, b: 0, c: -0.0, d: 1), LocalKind.affine)
        XCTAssertEqual(LocalKind.of(a: 1, b: 1e-300, c: 0, d: 1), LocalKind.affine)
        XCTAssertEqual(LocalKind.of(a: 1, b: .nan, c: 0, d: 1), LocalKind.affine)
    }

    /// Hand-derived sign of zero: a layer whose local has c = -0.0 under a superlayer
    /// whose world has a = -1, c = -0.0. The affine expression gives world c =
    /// (-0 × -1) + (1 × -0) = +0 - 0 = +0, where the translate constants would give
    /// (+0 × -1) + (1 × -0) = -0. Every backend must give +0.
    func testNegativeZeroLocalTakesTheAffinePath() throws {
        var store = LayerStore()
        let root = try store.addLayer()
        // The superlayer's local (a -1, b 0, c -0, d -1) under the identity root: world
        // c = (-0 × 1) + (-1 × +0) = -0, a = -1.
        let superlayer = try store.addLayer(superlayer: root)
        store.setAffineTransform(
            BatchGeometry.AffineTransform(a: -1, b: 0, c: -0.0, d: -1, tx: 0, ty: 0), of: superlayer)
        var layers: [Int] = []
        for _ in 0..<70 { layers.append(try store.addLayer(superlayer: superlayer).index) }
        let odd = layers[20]
        store.setAffineTransform(BatchGeometry.AffineTransform(a: 1, b: 0, c: -0.0, d: 1, tx: 0, ty: 0), of: odd)
        store.updateWorld(options: .serial(.scalar))
        XCTAssertEqual(store.caches.worldPlan!.blockKinds, [LocalKind.affine, LocalKind.translate])
        for backend in backendChoices {
            let world = store.worldTransforms(options: .serial(backend))
            XCTAssertEqual(world.c[superlayer].bitPattern, (-0.0).bitPattern, "\(backend.label) superlayer c")
            XCTAssertEqual(world.a[superlayer], -1, "\(backend.label) superlayer a")
            XCTAssertEqual(world.c[odd].bitPattern, 0, "\(backend.label) c of the -0.0 layer must be +0")
            // A translate sibling: world c = (+0 × -1) + (1 × -0) = -0 on every path.
            XCTAssertEqual(world.c[layers[69]].bitPattern, (-0.0).bitPattern, "\(backend.label) translate sibling")
        }
    }

    /// Incremental updates that change layers' kinds (translate -> rotation -> translate,
    /// a flip on and off a superlayer) give the bits of a fresh full pass, and no block
    /// ever claims a cheaper kind than one of its layers has.
    func testIncrementalKindChangesMatchFullPass() throws {
        for backend in backendChoices {
            var store = makeKindStore(count: 5_000, seed: 11)
            store.updateWorld(options: .serial(backend))
            func check(_ label: String) {
                let updated = store.updateWorld(options: .serial(backend))
                XCTAssertTrue(store.caches.worldPlan!.blockKindsCoverLocals(), "\(backend.label) \(label): kinds")
                var fresh = store.copy()
                fresh.invalidateWorld()
                let full = fresh.updateWorld(options: affineOnly(backend))
                XCTAssertEqual(fresh.caches.worldPlan!.blockKinds, fresh.caches.worldPlan!.exactBlockKinds())
                XCTAssertTrue(worldsBitIdentical(updated, full), "\(backend.label) \(label)")
                assertWorldsAgree(updated, store.referenceWorldTransforms(), "\(backend.label) \(label) reference")
            }
            // Layer 100 (block 1) and a leaf in a translate-only block: rotate, then back.
            let translateBlock = (10..<store.count / 64).first {
                store.caches.worldPlan!.blockKinds[$0] == LocalKind.translate
            }!
            let leaf = translateBlock * 64 + 10
            XCTAssertGreaterThan(leaf, 624)  // a leaf: no sublayers in a 5,000-layer 8-ary tree
            for layer in [100, leaf] {
                store.setAffineTransform(.rotation(radians: 0.7), of: layer)
                check("layer \(layer) rotated")
                XCTAssertEqual(store.caches.worldPlan!.blockKinds[layer >> LocalKind.blockShift], LocalKind.affine)
                store.setAffineTransform(.translation(x: 5, y: -3), of: layer)
                check("layer \(layer) translated again")
                store.setPosition(Point(x: 17, y: 4), of: layer)  // the position-only shortcut
                check("layer \(layer) moved")
            }
            // A flip on a superlayer makes its translate sublayers' locals scale-translate.
            store.setGeometryFlipped(true, of: 20)
            check("flip on")
            store.setGeometryFlipped(false, of: 20)
            check("flip off")
            store.setSublayerTransform(Transform3D(.rotation(radians: 0.25)), of: 21)
            check("sublayerTransform on")
        }
    }

    /// A store that is not in index order (a reparented layer) uses a level order, where
    /// the kind paths are not used; the results still match.
    func testLevelOrderStoreMatchesAffineKernel() throws {
        var store = makeKindStore(count: 3_000, seed: 5)
        try store.insertSublayer(40, into: 2_999)
        store.updateWorld(options: .serial(.c))
        XCTAssertNotNil(store.caches.worldPlan!.order)
        let expected = store.worldTransforms(options: affineOnly(.scalar))
        assertWorldsAgree(expected, store.referenceWorldTransforms(), "reference")
        for backend in backendChoices {
            XCTAssertTrue(
                worldsBitIdentical(store.worldTransforms(options: .serial(backend)), expected), "\(backend.label)")
        }
    }
}
