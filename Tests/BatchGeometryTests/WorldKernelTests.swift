import XCTest

@_spi(Testing) @testable import BatchGeometry

#if canImport(Glibc)
import Glibc
#endif

/// The kernel tests' draws: special values mixed into ordinary ones.
extension SplitMix64 {
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
    /// Mostly ordinary numbers in -range...range, sometimes a special value.
    mutating func value(_ range: Double, specials: Bool) -> Double {
        if specials && chance(6) {
            let special: [Double] = [
                0, -0.0, .nan, .infinity, -.infinity, 1e300, -1e300, Double.leastNonzeroMagnitude, 1e-300,
            ]
            return special[below(special.count)]
        }
        return (unit() * 2 - 1) * range
    }
}

/// `count` world points that lie on layers: a random spot of a random layer's bounds,
/// mapped to the world through `world`, so hit tests have something to find.
func pointsOnLayers(_ store: borrowing LayerStore, _ world: WorldTransforms, count: Int, _ random: inout SplitMix64)
    -> [Point]
{
    (0..<count).map { _ in
        let layer = random.below(store.count)
        let bounds = store.bounds(of: layer)
        let local = Point(x: bounds.x + random.unit() * bounds.width, y: bounds.y + random.unit() * bounds.height)
        return world[layer].projectPoint(local)
    }
}

/// Random stores for the differential tests: random parents (also after later layers,
/// so index order is not parents-first), deep chains, every layer property, special
/// values when `specials` is set.
func makeRandomStore(count: Int, seed: UInt64, specials: Bool) -> LayerStore {
    var random = SplitMix64(seed: seed)
    var store = LayerStore()
    for index in 0..<count {
        let parent: Int?
        if index == 0 || random.chance(8) {
            parent = nil
        } else if random.chance(40) {
            parent = index - 1
        }  // deep chains
        else {
            parent = random.below(index)
        }
        _ = try! store.addLayer(superlayer: parent)
        store.setBounds(
            Rect(
                x: random.value(50, specials: specials), y: random.value(50, specials: specials),
                width: random.value(300, specials: specials), height: random.value(300, specials: specials)),
            of: index)
        store.setPosition(
            Point(x: random.value(500, specials: specials), y: random.value(500, specials: specials)), of: index)
        store.setAnchorPoint(
            Point(x: random.value(1.5, specials: specials), y: random.value(1.5, specials: specials)), of: index)
        store.setTransform(randomTransform(&random, specials: specials), of: index)
        if random.chance(5) { store.setSublayerTransform(randomTransform(&random, specials: specials), of: index) }
        if random.chance(5) { store.setGeometryFlipped(true, of: index) }
        if random.chance(3) { store.setTransformLayer(true, of: index) }
        if random.chance(5) { store.setZPosition(random.value(20, specials: specials), of: index) }
        if random.chance(5) { store.setAnchorPointZ(random.value(20, specials: specials), of: index) }
        if random.chance(10) { store.setMasksToBounds(true, of: index) }
        if random.chance(5) { store.setHidden(true, of: index) }
    }
    // Move a few layers under later ones (no cycles: only layers outside the moved subtree).
    for _ in 0..<(count / 10) where count > 2 {
        let layer = random.below(count)
        let parent = random.below(count)
        try? store.insertSublayer(layer, into: parent)
    }
    return store
}

func randomTransform(_ random: inout SplitMix64, specials: Bool) -> Transform3D {
    switch random.below(10) {
    case 0: return .identity
    case 1, 2: return .translation(x: random.value(100, specials: specials), y: random.value(100, specials: specials))
    case 3: return .scale(x: random.value(3, specials: specials), y: random.value(3, specials: specials))
    case 4, 5: return Transform3D(AffineTransform.rotation(radians: random.value(7, specials: specials)))
    case 6: return .scale(x: 0, y: random.value(2, specials: false))  // singular
    case 7:
        return .rotation(
            radians: random.value(3, specials: specials), x: random.unit(), y: random.unit(), z: random.unit())
    case 8:
        var m = Transform3D(AffineTransform.rotation(radians: random.value(3, specials: false)))
        m.m34 = -1 / (100 + random.unit() * 1000)  // perspective
        if random.chance(30) { m.m34 = random.value(1, specials: specials) }
        return m
    default:
        return Transform3D(
            AffineTransform(
                a: random.value(2, specials: specials), b: random.value(2, specials: specials),
                c: random.value(2, specials: specials), d: random.value(2, specials: specials),
                tx: random.value(50, specials: specials), ty: random.value(50, specials: specials)))
    }
}

/// `x` and `y` agree to 1e-12 relative: equal (zeros of either sign, same infinity),
/// both NaN, or `|x - y| <= 1e-12 * max(|x|, |y|)`.
func agreesRelative(_ x: Double, _ y: Double) -> Bool {
    if x == y || (x.isNaN && y.isNaN) { return true }
    guard x.isFinite && y.isFinite else { return false }
    return abs(x - y) <= 1e-12 * max(abs(x), abs(y))
}

func assertWorldsAgree(
    _ actual: WorldTransforms, _ expected: WorldTransforms, _ label: String,
    file: StaticString = #filePath, line: UInt = #line
) {
    XCTAssertEqual(actual.count, expected.count, label, file: file, line: line)
    guard actual.count == expected.count else { return }
    for layer in 0..<actual.count {
        // Two planar layers differ only in their six columns (the other ten entries of the
        // planar form are the same constants): compare those first, without building two
        // matrices and their 16-entry arrays (most of this check's time in a debug build).
        if actual.isPlanar(layer) && expected.isPlanar(layer)
            && agreesRelative(actual.a[layer], expected.a[layer]) && agreesRelative(actual.b[layer], expected.b[layer])
            && agreesRelative(actual.c[layer], expected.c[layer]) && agreesRelative(actual.d[layer], expected.d[layer])
            && agreesRelative(actual.tx[layer], expected.tx[layer])
            && agreesRelative(actual.ty[layer], expected.ty[layer])
        {
            continue
        }
        let p = actual[layer].rowMajor
        let q = expected[layer].rowMajor
        for k in 0..<16 where !agreesRelative(p[k], q[k]) {
            XCTFail("\(label): layer \(layer) entry \(k): \(p[k]) vs reference \(q[k])", file: file, line: line)
            return
        }
    }
}

/// The same bytes (a whole column at once: a debug build compares element by element
/// through closures, seconds for the big stores; the callers fall back to that only
/// when the bytes differ).
func sameBytes<T>(_ x: [T], _ y: [T]) -> Bool {
    x.count == y.count
        && x.withUnsafeBytes { p in
            y.withUnsafeBytes { q in p.count == 0 || memcmp(p.baseAddress!, q.baseAddress!, p.count) == 0 }
        }
}

/// Bit-identical worlds (NaN matches NaN): what thread counts are held to.
func worldsBitIdentical(_ p: WorldTransforms, _ q: WorldTransforms) -> Bool {
    guard p.count == q.count, sameBytes(p.modes, q.modes) || p.modes.map({ $0 & 1 }) == q.modes.map({ $0 & 1 })
    else { return false }
    func same(_ x: [Double], _ y: [Double]) -> Bool {
        sameBytes(x, y) || zip(x, y).allSatisfy { $0.bitPattern == $1.bitPattern || ($0.isNaN && $1.isNaN) }
    }
    guard same(p.a, q.a), same(p.b, q.b), same(p.c, q.c), same(p.d, q.d), same(p.tx, q.tx), same(p.ty, q.ty) else {
        return false
    }
    guard p.generalCount == q.generalCount else { return false }
    for layer in 0..<p.count where !p.isPlanar(layer) && !sameEntries(p[layer], q[layer]) { return false }
    return true
}

/// Every entry of `x` has the bits of `y`'s (NaN matches NaN), entry by entry without the
/// two 16-entry arrays `rowMajor` makes (a debug build's time in the all-general stores).
func sameEntries(_ x: Transform3D, _ y: Transform3D) -> Bool {
    func same(_ a: Double, _ b: Double) -> Bool { a.bitPattern == b.bitPattern || (a.isNaN && b.isNaN) }
    return same(x.m11, y.m11) && same(x.m12, y.m12) && same(x.m13, y.m13) && same(x.m14, y.m14)
        && same(x.m21, y.m21) && same(x.m22, y.m22) && same(x.m23, y.m23) && same(x.m24, y.m24)
        && same(x.m31, y.m31) && same(x.m32, y.m32) && same(x.m33, y.m33) && same(x.m34, y.m34)
        && same(x.m41, y.m41) && same(x.m42, y.m42) && same(x.m43, y.m43) && same(x.m44, y.m44)
}

final class WorldKernelTests: XCTestCase {
    /// Every backend against the 4×4 reference for every count 0...67, with and without
    /// special values.
    func testEveryBackendMatchesReferenceForCounts0To67() {
        for count in 0...67 {
            for specials in [false, true] {
                let store = makeRandomStore(
                    count: count, seed: UInt64(count * 2 + (specials ? 1 : 0)), specials: specials)
                let reference = store.referenceWorldTransforms()
                XCTAssertEqual(reference.count, count)
                for backend in backendChoices {
                    let world = store.worldTransforms(options: .serial(backend))
                    assertWorldsAgree(world, reference, "count \(count) specials \(specials) \(backend.label)")
                }
            }
        }
    }

    /// The reference itself against the walk-up `worldTransform(of:)` of the layer model.
    func testReferenceMatchesWalkUp() {
        let store = makeRandomStore(count: 60, seed: 99, specials: false)
        let reference = store.referenceWorldTransforms()
        for layer in 0..<store.count {
            let p = reference[layer].rowMajor
            let q = store.worldTransform(of: layer).rowMajor
            for k in 0..<16 { XCTAssertTrue(agreesRelative(p[k], q[k]), "layer \(layer) entry \(k)") }
        }
    }

    /// Thread counts 1...8 give bit-identical results, on a store big enough to split
    /// across threads (from 8,192 layers, 2 × `parallelGrain`, the pass splits this index
    /// order tree into runs of subtrees from its level of 64; it was 40,000 layers) with
    /// general layers mixed in. The passes share the plan `updateWorld` caches (one
    /// made fresh by a pass is checked first): a debug build spent most of this test
    /// making the plan again for each of its 32 passes.
    func testThreadCountsAreBitIdentical() {
        var store = makeWideStore(count: 20_000)
        store.setTransform(.perspective(distance: 500), of: 3)  // a general subtree
        store.setTransform(.rotation(radians: 0.3, x: 1, y: 0, z: 0), of: 19_000)  // a general leaf
        let reference = store.referenceWorldTransforms()
        let fresh = store.worldTransforms(options: KernelOptions(backend: .c, threads: 3))
        assertWorldsAgree(fresh, reference, "fresh plan")
        _ = store.updateWorld(options: .serial(.c))
        XCTAssertNotNil(store.caches.worldPlan)
        for backend in backendChoices {
            let serial = store.worldTransforms(options: .serial(backend))
            assertWorldsAgree(serial, reference, "\(backend.label) serial")
            XCTAssertTrue(worldsBitIdentical(fresh, serial), "\(backend.label) serial, fresh plan")
            for threads in 2...8 {
                let parallel = store.worldTransforms(options: KernelOptions(backend: backend, threads: threads))
                XCTAssertTrue(worldsBitIdentical(parallel, serial), "\(backend.label) threads \(threads)")
            }
        }
    }

    /// A non-parents-first store (layers reparented under later ones) uses a level order.
    func testReparentedStoreUsesLevelOrder() throws {
        var store = makeWideStore(count: 40_000)
        try store.insertSublayer(5_000, into: 39_999)
        XCTAssertFalse(store.parentsPrecedeChildren)
        let reference = store.referenceWorldTransforms()
        for backend in backendChoices {
            assertWorldsAgree(
                store.worldTransforms(options: KernelOptions(backend: backend, threads: 4)),
                reference, "\(backend.label)")
        }
    }

    /// Hand-derived: a root at position (100, 100) with anchor (0, 0), a child scaled by
    /// 2 about its anchor at position (10, 10): the child's (0, 0) maps to
    /// 100 + 10 - 2 * 5 = 100 on both axes, and the planar form (m33 = 0) applies.
    func testPlanarChildHandDerived() throws {
        var store = LayerStore()
        let root = try store.addLayer()
        store.setBounds(Rect(x: 0, y: 0, width: 200, height: 200), of: root)
        store.setAnchorPoint(Point(x: 0, y: 0), of: root)
        store.setPosition(Point(x: 100, y: 100), of: root)
        let child = try store.addLayer(superlayer: root)
        store.setBounds(Rect(x: 0, y: 0, width: 10, height: 10), of: child)
        store.setPosition(Point(x: 10, y: 10), of: child)
        store.setAffineTransform(.scale(x: 2, y: 2), of: child)
        for backend in backendChoices {
            let world = store.worldTransforms(options: .serial(backend))
            XCTAssertTrue(world.isPlanar(child.index))
            XCTAssertFalse(world.isPlanar(root.index))  // roots keep m33 = 1
            XCTAssertEqual(
                world[child],
                Transform3D(
                    m11: 2, m12: 0, m13: 0, m14: 0, m21: 0, m22: 2, m23: 0, m24: 0,
                    m31: 0, m32: 0, m33: 0, m34: 0, m41: 100, m42: 100, m43: 0, m44: 1))
            XCTAssertEqual(world[root].m33, 1)
        }
    }

    /// A 100,000-deep chain (one layer per level): no recursion, every backend and the
    /// incremental update agree with the hand-derived translation (layer k sits at
    /// x = k + 1: every layer is at position (1, 0) in its zero-size superlayer).
    func testDeepChain() throws {
        var store = LayerStore()
        var parent: Int? = nil
        for _ in 0..<100_000 {
            let layer = try store.addLayer(superlayer: parent)
            store.setPosition(Point(x: 1, y: 0), of: layer)
            parent = layer
        }
        for backend in backendChoices {
            let world = store.worldTransforms(options: KernelOptions(backend: backend, threads: 4))
            XCTAssertEqual(world[99_999].m41, 100_000, "\(backend.label)")
            XCTAssertEqual(world[12_345].m41, 12_346, "\(backend.label)")
        }
        _ = store.updateWorld(options: .serial(.c))
        store.setPosition(Point(x: 11, y: 0), of: 50_000)
        let world = store.updateWorld(options: .serial(.c))
        XCTAssertEqual(world[99_999].m41, 100_010)
        XCTAssertEqual(world[49_999].m41, 50_000)
    }

    /// A deep, narrow tree (a root with four 16,400-deep chains, twigs on some layers):
    /// no level is wide enough to split, so the plan uses the subtree layout (from
    /// 4 × `worldParallelCutoff` = 65,536 layers: here 65,669; the chains were 20,000
    /// deep); every thread count gives the same bits, with and without a general layer
    /// inside a chain.
    func testDeepNarrowTreeUsesSubtreeLayout() throws {
        var store = LayerStore()
        let root = try store.addLayer()
        for chain in 0..<4 {
            var parent = root
            for depth in 0..<16_400 {
                let layer = try store.addLayer(superlayer: parent)
                store.setPosition(Point(x: Double(chain + 1), y: Double(depth % 3)), of: layer)
                if depth % 7 == 0 { store.setAffineTransform(.rotation(radians: 0.001 * Double(chain + 1)), of: layer) }
                if depth % 1_000 == 0 { _ = try store.addLayer(superlayer: layer) }  // a twig
                parent = layer
            }
        }
        XCTAssertGreaterThanOrEqual(store.count, 4 * LayerStore.worldParallelCutoff)
        XCTAssertFalse(store.makeWorldPlan().subtreeBlocks.isEmpty)
        let reference = store.referenceWorldTransforms()
        for round in 0..<2 {
            if round == 1 { store.setTransform(.perspective(distance: 800), of: 30_000) }  // general, inside a chain
            let expected = round == 0 ? reference : store.referenceWorldTransforms()
            // One pass over a plan made for it, then the passes over the plan `updateWorld`
            // caches (making the plan again for each of the 32 passes of a round was most
            // of this test's time in a debug build).
            let fresh = store.worldTransforms(options: KernelOptions(backend: .c, threads: 3))
            assertWorldsAgree(fresh, expected, "round \(round) fresh plan")
            _ = store.updateWorld(options: .serial(.c))
            XCTAssertFalse(try XCTUnwrap(store.caches.worldPlan).subtreeBlocks.isEmpty)
            for backend in backendChoices {
                let serial = store.worldTransforms(options: .serial(backend))
                assertWorldsAgree(serial, expected, "round \(round) \(backend.label)")
                XCTAssertTrue(worldsBitIdentical(fresh, serial), "round \(round) \(backend.label), fresh plan")
                for threads in 2...8 {
                    let parallel = store.worldTransforms(options: KernelOptions(backend: backend, threads: threads))
                    XCTAssertTrue(
                        worldsBitIdentical(parallel, serial), "round \(round) \(backend.label) threads \(threads)")
                }
            }
        }
        // The cached subtree-layout plan also serves clip rects (which need levels).
        let world = store.updateWorld(options: KernelOptions(backend: .c, threads: 2))
        let rects = store.worldRects(in: world)
        XCTAssertEqual(
            store.clipRects(worldRects: rects, options: KernelOptions(backend: .c, threads: 2)).count, store.count)
        store.setPosition(Point(x: 5, y: 5), of: 10)
        XCTAssertTrue(
            worldsBitIdentical(
                store.updateWorld(options: .serial(.c)),
                {
                    var copy = store.copy()
                    copy.invalidateWorld()
                    return copy.worldTransforms(options: .serial(.scalar))
                }()))
    }

    /// Non-finite input: an infinite anchorPointZ meets a structural zero (inf * 0) in
    /// the 4×4 reference and makes the translation NaN; the fast paths must agree.
    func testInfiniteAnchorPointZMatchesReference() throws {
        var store = LayerStore()
        let root = try store.addLayer()
        let child = try store.addLayer(superlayer: root)
        let grandchild = try store.addLayer(superlayer: child)
        store.setBounds(Rect(x: 0, y: 0, width: 10, height: 10), of: child)
        store.setAnchorPointZ(.infinity, of: child)
        let reference = store.referenceWorldTransforms()
        XCTAssertTrue(reference[child].m41.isNaN)  // (-inf) * 0 in T(-anchor) * transform
        XCTAssertTrue(reference[grandchild].m41.isNaN)
        for backend in backendChoices {
            assertWorldsAgree(store.worldTransforms(options: .serial(backend)), reference, "\(backend.label)")
        }
    }

    /// An overflow inside a planar chain (finite inputs, infinite product) falls back to
    /// the reference, where the grandchild's 0 * inf terms give NaN.
    func testOverflowInPlanarChainMatchesReference() throws {
        var store = LayerStore()
        let root = try store.addLayer()
        var parent = root
        for _ in 0..<4 {
            let layer = try store.addLayer(superlayer: parent)
            store.setAffineTransform(.scale(x: 1e200, y: 1e200), of: layer)
            store.setPosition(Point(x: 1e200, y: 1), of: layer)
            parent = layer
        }
        let reference = store.referenceWorldTransforms()
        XCTAssertTrue((0..<store.count).contains { reference[$0].m41.isNaN || !reference[$0].m41.isFinite })
        for backend in backendChoices {
            assertWorldsAgree(store.worldTransforms(options: .serial(backend)), reference, "\(backend.label)")
        }
    }
}

/// The benchmark's standard workload shape (parent (i-1)/8) with varied transforms:
/// wide levels, parents first.
func makeWideStore(count: Int) -> LayerStore {
    var store = LayerStore(minimumCapacity: count)
    for i in 0..<count {
        _ = try! store.addLayer(superlayer: i == 0 ? nil : (i - 1) / 8)
        store.setBounds(Rect(x: 0, y: 0, width: Double(20 + i % 50), height: Double(10 + i % 30)), of: i)
        store.setPosition(Point(x: Double(3 * (i % 97)), y: Double(5 * (i % 89))), of: i)
        if i % 7 == 0 { store.setAnchorPoint(Point(x: 0, y: 0), of: i) }
        switch i % 10 {
        case 0...4: store.setAffineTransform(.translation(x: Double(i % 13), y: Double(i % 17 - 8)), of: i)
        case 5, 6: store.setAffineTransform(.scale(x: 1 + Double(i % 5) * 0.25, y: 1.5), of: i)
        case 7, 8: store.setAffineTransform(.rotation(radians: Double(i % 360) * .pi / 180), of: i)
        default: break
        }
    }
    return store
}
