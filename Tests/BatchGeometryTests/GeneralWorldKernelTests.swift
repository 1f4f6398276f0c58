import CAffineKernels
import XCTest

@_spi(Testing) @testable import BatchGeometry

/// The general (4×4) layers' world pass: each general layer's cached local matrix times
/// its superlayer's world, through every backend and C instruction set.
final class GeneralWorldKernelTests: XCTestCase {
    /// A store where most layers are general: a perspective root, random superlayers
    /// (deep chains too), perspective and 3D transforms, transform layers, flips,
    /// sublayerTransforms, z values; special values when `specials` is set.
    private func makeGeneralStore(count: Int, seed: UInt64, specials: Bool) -> LayerStore {
        var random = SplitMix64(seed: seed)
        var store = LayerStore()
        for index in 0..<count {
            let parent: Int? = index == 0 ? nil : (random.chance(40) ? index - 1 : random.below(index))
            _ = try! store.addLayer(superlayer: parent)
            store.setBounds(
                Rect(
                    x: random.value(40, specials: specials), y: random.value(40, specials: specials),
                    width: random.value(300, specials: specials), height: random.value(300, specials: specials)),
                of: index)
            store.setPosition(
                Point(x: random.value(400, specials: specials), y: random.value(400, specials: specials)), of: index)
            store.setAnchorPoint(
                Point(x: random.value(1.5, specials: specials), y: random.value(1.5, specials: specials)), of: index)
            if index == 0 {
                store.setTransform(.perspective(distance: 500), of: index)
            } else {
                store.setTransform(randomTransform(&random, specials: specials), of: index)
            }
            if random.chance(10) { store.setSublayerTransform(randomTransform(&random, specials: specials), of: index) }
            if random.chance(10) { store.setGeometryFlipped(true, of: index) }
            if random.chance(8) { store.setTransformLayer(true, of: index) }
            if random.chance(10) { store.setZPosition(random.value(20, specials: specials), of: index) }
            if random.chance(10) { store.setAnchorPointZ(random.value(20, specials: specials), of: index) }
        }
        return store
    }

    /// A wide store (8 × `perSuperlayer` layers on level 2; 1,100 makes 8,809 layers,
    /// past the 8,192 (2 × `parallelGrain`) from which a pass over threads splits its
    /// levels from a level of at least 8 positions a thread on (`subtreeRunsCut`), and a
    /// level of 8,800 that `runLevelInParallel` would split too; it was 5,000, four times
    /// the layers for the same paths) under a perspective transform-layer root (no
    /// flattening, so its perspective reaches its sublayers): every layer is general.
    private func makeWideGeneralStore(perSuperlayer: Int = 1_100) -> LayerStore {
        let count = 9 + 8 * perSuperlayer
        var store = LayerStore(minimumCapacity: count)
        _ = try! store.addLayer()
        store.setBounds(Rect(x: 0, y: 0, width: 400, height: 300), of: 0)
        store.setTransform(.perspective(distance: 800), of: 0)
        store.setTransformLayer(true, of: 0)
        for i in 1..<count {
            _ = try! store.addLayer(superlayer: i <= 8 ? 0 : 1 + (i - 9) / perSuperlayer)
            store.setBounds(Rect(x: 0, y: 0, width: Double(10 + i % 40), height: Double(5 + i % 20)), of: i)
            store.setPosition(Point(x: Double(i % 97), y: Double(i % 89)), of: i)
            if i % 3 == 0 {
                store.setTransform(.rotation(radians: Double(i % 360) * .pi / 180, x: 0, y: 1, z: 0), of: i)
            }
            if i % 5 == 0 { store.setAffineTransform(.rotation(radians: Double(i % 90)), of: i) }
            if i % 11 == 0 { store.setZPosition(Double(i % 7), of: i) }
            if i <= 8 && i % 2 == 0 { store.setTransformLayer(true, of: i) }
            if i == 3 { store.setSublayerTransform(.rotation(radians: 0.3, x: 1, y: 0, z: 0), of: i) }
            if i == 5 { store.setGeometryFlipped(true, of: i) }
        }
        return store
    }

    private func sameBits(_ x: Double, _ y: Double) -> Bool { x.bitPattern == y.bitPattern || (x.isNaN && y.isNaN) }

    /// Each general layer of `world` is, bit for bit, `transformToSuperlayer(of:)` (the
    /// 4×4 reference) concatenated with its superlayer's world in `world`, computed here by
    /// `Transform3D.concatenating`; where every ancestor is general too (so the
    /// superlayer's world is the reference's), it equals `referenceWorldTransforms()` bit
    /// for bit. Returns the number of general layers checked.
    @discardableResult
    private func assertGeneralLayersExact(
        _ world: WorldTransforms, _ store: borrowing LayerStore, _ label: String,
        file: StaticString = #filePath, line: UInt = #line
    ) -> Int {
        let reference = store.referenceWorldTransforms()
        var allGeneralChain = [Bool](repeating: false, count: store.count)
        var checked = 0
        for layer in (store.parentsPrecedeChildren ? Array(0..<store.count) : store.preorderIndices()) {
            let superlayer = store.hierarchy.parents[layer]
            // (The reference stores a matrix of planar form as six doubles, which drops the
            // sign of its structural zeros: only chains it keeps as 4×4 are compared.)
            allGeneralChain[layer] =
                !world.isPlanar(layer) && !reference.isPlanar(layer)
                && (superlayer < 0 || allGeneralChain[Int(superlayer)])
            guard !world.isPlanar(layer) else { continue }
            checked += 1
            let local = store.transformToSuperlayer(of: layer)
            let expected = superlayer < 0 ? local : local.concatenating(world[Int(superlayer)])
            // (Entry by entry first, `sameEntries`; the 16-entry arrays only to report a
            // difference: building them for every layer was much of a debug run's time.)
            let matrix = world[layer]
            if !sameEntries(matrix, expected) {
                for (k, (x, y)) in zip(matrix.rowMajor, expected.rowMajor).enumerated() where !sameBits(x, y) {
                    XCTFail("\(label): layer \(layer) entry \(k): \(x) vs \(y)", file: file, line: line)
                    return checked
                }
            }
            // The affine columns planar sublayers read hold the same bits.
            XCTAssertTrue(
                sameBits(world.a[layer], expected.m11) && sameBits(world.b[layer], expected.m12)
                    && sameBits(world.c[layer], expected.m21) && sameBits(world.d[layer], expected.m22)
                    && sameBits(world.tx[layer], expected.m41) && sameBits(world.ty[layer], expected.m42),
                "\(label): layer \(layer) columns", file: file, line: line)
            if allGeneralChain[layer] && !sameEntries(matrix, reference[layer]) {
                for (k, (x, y)) in zip(matrix.rowMajor, reference[layer].rowMajor).enumerated() where !sameBits(x, y) {
                    XCTFail("\(label): layer \(layer) entry \(k): \(x) vs reference \(y)", file: file, line: line)
                    return checked
                }
            }
        }
        return checked
    }

    /// Every backend, threads 1…8, on random general stores with and without special
    /// values: general layers exact, the rest within the reference's 1e-12, and thread
    /// counts bit-identical.
    func testEveryBackendAndThreadCountOnRandomGeneralStores() {
        for seed in 0..<12 {
            let specials = seed % 3 == 2
            var store = makeGeneralStore(count: 30 + seed * 23, seed: UInt64(500 + seed), specials: specials)
            _ = store.updateWorld(options: .serial(.scalar))  // caches the plan (none after a non-finite planar chain)
            if let plan = store.caches.worldPlan {
                XCTAssertTrue(plan.cachesGeneralLocals, "seed \(seed): general locals are cached")
            }
            let scalar = store.worldTransforms(options: .serial(.scalar))
            XCTAssertGreaterThan(assertGeneralLayersExact(scalar, store, "seed \(seed) scalar"), store.count / 8)
            assertWorldsAgree(scalar, store.referenceWorldTransforms(), "seed \(seed)")
            for backend in backendChoices {
                for threads in 1...8 {
                    let world = store.worldTransforms(options: KernelOptions(backend: backend, threads: threads))
                    XCTAssertTrue(worldsBitIdentical(world, scalar), "seed \(seed) \(backend.label) threads \(threads)")
                }
            }
        }
    }

    /// A level wide enough to be split over threads: every chunk computes its own general
    /// layers; all backends and thread counts give the same bits, exact on general layers.
    func testWideGeneralLevelOverThreads() {
        var store = makeWideGeneralStore()
        _ = store.updateWorld(options: .serial(.c))
        let scalar = store.worldTransforms(options: .serial(.scalar))
        XCTAssertEqual(assertGeneralLayersExact(scalar, store, "wide"), store.count)
        for backend in backendChoices {
            for threads in [1, 2, 3, 8] {
                var world = WorldTransforms()
                store.computeWorldTransforms(into: &world, options: KernelOptions(backend: backend, threads: threads))
                XCTAssertTrue(worldsBitIdentical(world, scalar), "\(backend.label) threads \(threads)")
            }
        }
    }

    /// Every C instruction set this CPU has (portable, AVX2, AVX-512) gives the bits of
    /// the Swift scalar expression.
    func testEveryCInstructionSetMatchesScalar() {
        var store = makeGeneralStore(count: 400, seed: 77, specials: true)
        _ = store.updateWorld(options: .serial(.scalar))
        let scalar = store.worldTransforms(options: .serial(.scalar))
        defer { _ = BGKernelSetBackend("auto") }
        var tried = 0
        for name in ["portable", "avx2", "avx512", "neon"] where BGKernelSetBackend(name) == 1 {
            tried += 1
            XCTAssertEqual(KernelOptions.cInstructionSet, name)
            XCTAssertTrue(worldsBitIdentical(store.worldTransforms(options: .serial(.c)), scalar), name)
        }
        XCTAssertGreaterThanOrEqual(tried, 1)
    }

    /// Hand-derived: a transform-layer root with perspective m34 = -1/500 about its centre
    /// (50, 50), and a sublayer at position (20, 30), zPosition 10. The root's world is
    /// T(-50, -50) * P * T(50, 50): rows (1 0 0 0), (0 1 0 0), (-0.1 -0.1 1 -0.002),
    /// (0 0 0 1); the sublayer's local is T(20, 30, 10) (no flattening under a transform
    /// layer), so its world's last row is 20*r1 + 30*r2 + 10*r3 + r4 = (19, 29, 10, 0.98).
    func testPerspectiveChildHandDerived() throws {
        var store = LayerStore()
        let root = try store.addLayer()
        store.setBounds(Rect(x: 0, y: 0, width: 100, height: 100), of: root)
        store.setPosition(Point(x: 50, y: 50), of: root)
        store.setTransform(.perspective(distance: 500), of: root)
        store.setTransformLayer(true, of: root)
        let child = try store.addLayer(superlayer: root)
        store.setBounds(Rect(x: 0, y: 0, width: 10, height: 10), of: child)
        store.setAnchorPoint(Point(x: 0, y: 0), of: child)
        store.setPosition(Point(x: 20, y: 30), of: child)
        store.setZPosition(10, of: child)
        _ = store.updateWorld()
        for backend in backendChoices {
            let world = store.worldTransforms(options: .serial(backend))[child]
            let expected: [Double] = [1, 0, 0, 0, 0, 1, 0, 0, -0.1, -0.1, 1, -0.002, 19, 29, 10, 0.98]
            for (k, (x, y)) in zip(world.rowMajor, expected).enumerated() {
                XCTAssertEqual(x, y, accuracy: 1e-12, "\(backend.label) entry \(k)")
            }
        }
    }

    /// A store without 3D caches no 4×4 locals (roots alone are general).
    func testPlanarStoreCachesNoGeneralLocals() {
        var store = makeWideStore(count: 3_000)
        _ = store.updateWorld()
        XCTAssertEqual(store.caches.worldPlan?.generalLocals.count, 0)
        XCTAssertEqual(store.worldTransforms().generalCount, 1)
    }

    /// A full pass from scratch on a copy (plan rebuilt from the properties).
    private func fullPass(_ store: borrowing LayerStore, _ backend: Backend = .scalar) -> WorldTransforms {
        var copy = store.copy()
        copy.invalidateWorld()
        return copy.worldTransforms(options: .serial(backend))
    }

    /// After `update`, the incremental result and a pass over the maintained plan (every
    /// backend, 1 and 3 threads) equal a fresh full pass bit for bit.
    private func checkIncremental(
        _ store: inout LayerStore, _ label: String, round: Int,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        let backend = backendChoices[round % backendChoices.count]
        let world = store.updateWorld(options: .serial(backend))
        let fresh = fullPass(store)
        XCTAssertTrue(
            worldsBitIdentical(world, fresh), "\(label): incremental (\(backend.label))", file: file, line: line)
        for backend in backendChoices {
            for threads in [1, 3] {
                XCTAssertTrue(
                    worldsBitIdentical(
                        store.worldTransforms(options: KernelOptions(backend: backend, threads: threads)), fresh),
                    "\(label): pass over the maintained plan (\(backend.label), \(threads) threads)", file: file,
                    line: line)
            }
        }
        assertGeneralLayersExact(world, store, label, file: file, line: line)
    }

    /// Incremental edits of what a general layer's cached local depends on: its own
    /// transform and position, its superlayer's sublayerTransform, flip, transform-layer
    /// flag and bounds; a general layer turned planar and back; the root turned planar
    /// and back (the whole store's modes flip).
    func testIncrementalUpdatesOfGeneralLayersMatchFullPass() {
        for (name, make) in [
            ("wide", { self.makeWideGeneralStore(perSuperlayer: 300) }),
            ("random", { self.makeGeneralStore(count: 1_500, seed: 42, specials: false) }),
        ] {
            var store = make()
            _ = store.updateWorld(options: .serial(.c))
            var random = SplitMix64(seed: 9)
            var round = 0
            func edit(_ label: String, _ body: (inout LayerStore, Int) -> Void) {
                for _ in 0..<3 {
                    body(&store, 1 + random.below(store.count - 1))
                    checkIncremental(&store, "\(name) \(label)", round: round)
                    round += 1
                }
            }
            edit("transform") {
                $0.setTransform(
                    .rotation(radians: 0.7, x: 0, y: 1, z: 1).concatenating(.perspective(distance: 300)), of: $1)
            }
            edit("position") { $0.setPosition(Point(x: 12.5, y: -3), of: $1) }
            edit("sublayerTransform") { $0.setSublayerTransform(.rotation(radians: 0.4, x: 1, y: 1, z: 0), of: $1) }
            edit("sublayerTransform removed") { $0.setSublayerTransform(.identity, of: $1) }
            edit("flip") { store, layer in store.setGeometryFlipped(!store.isGeometryFlipped(layer), of: layer) }
            edit("transform layer") { store, layer in store.setTransformLayer(!store.isTransformLayer(layer), of: layer)
            }
            edit("superlayer bounds") { store, layer in
                let superlayer = max(0, Int(store.hierarchy.parents[layer]))
                store.setBounds(Rect(x: 3, y: -4, width: 77, height: 55), of: superlayer)
            }
            edit("planar and back") { store, layer in
                let old = store.transform(of: layer)
                store.setAffineTransform(.translation(x: 4, y: 5), of: layer)
                _ = store.updateWorld(options: .serial(.simd))
                store.setTransform(old.kind == .perspective ? old : .perspective(distance: 250), of: layer)
            }
            // The root planar: its sublayers' chains become planar where they can; then back.
            store.setTransform(.identity, of: 0)
            checkIncremental(&store, "\(name) root planar", round: round)
            store.setTransform(.perspective(distance: 600), of: 0)
            checkIncremental(&store, "\(name) root perspective again", round: round + 1)
        }
    }

    /// The cached locals are a compact table: with three 3D leaves among 4,000 layers it
    /// holds an entry for each general layer (the root and the leaves) and nothing for
    /// the rest; a leaf that turns general in an incremental update gets its entry then,
    /// holding its exact transform to its superlayer (the invariant check).
    func testGeneralLocalsHoldAnEntryPerGeneralLayerOnly() throws {
        var store = makeWideStore(count: 4_000)
        for layer in [700, 1_500, 3_999] { store.setTransform(.perspective(distance: 400), of: layer) }
        _ = store.updateWorld(options: .serial(.c))
        var plan = try XCTUnwrap(store.caches.worldPlan)
        XCTAssertEqual(store.worldTransforms().generalCount, 4)
        XCTAssertEqual(plan.generalLocals.count, 4 * 16)
        XCTAssertEqual(plan.generalLocalSlots.filter { $0 >= 0 }.count, 4)
        store.setTransform(.perspective(distance: 250), of: 2_000)
        checkIncremental(&store, "a leaf turned general", round: 1)
        plan = try XCTUnwrap(store.caches.worldPlan)
        XCTAssertEqual(plan.generalLocals.count, 5 * 16)
        XCTAssertGreaterThanOrEqual(plan.generalLocalSlots[2_000], 0)
        XCTAssertEqual(store._invariantViolations(), [])
    }

    /// A store that starts planar (no cached locals) and turns general through incremental
    /// updates caches the locals then, and later passes over its plan stay exact.
    func testStoreTurningGeneralIncrementallyCachesLocals() {
        var store = makeWideStore(count: 4_000)
        _ = store.updateWorld(options: .serial(.c))
        XCTAssertEqual(store.caches.worldPlan?.generalLocals.count, 0)
        for (round, layer) in [1, 2, 9, 100].enumerated() {
            store.setTransform(.perspective(distance: 400), of: layer)
            checkIncremental(&store, "turn general \(layer)", round: round)
        }
        XCTAssertEqual(store.caches.worldPlan?.cachesGeneralLocals, true)
        XCTAssertEqual(store._invariantViolations(), [])
        store.setPosition(Point(x: 1, y: 2), of: 17)  // a general layer below layer 2
        checkIncremental(&store, "position below", round: 0)
        XCTAssertEqual(store._invariantViolations(), [])
    }
}
