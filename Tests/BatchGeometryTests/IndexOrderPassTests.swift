import XCTest

@_spi(Testing) @testable import BatchGeometry

/// Trees whose superlayers come before their sublayers in index order but are not
/// breadth-first (built depth first, or a random recursive tree): the plan keeps a level
/// order, and a serial pass runs in index order instead (`runInIndexOrder`), with the C
/// backend prefetching scattered superlayers. Every backend and thread count must give
/// the same bits, within 1e-12 of the reference.
final class IndexOrderPassTests: XCTestCase {
    /// A random recursive tree (layer i's superlayer uniform in 0..<i, a few roots) with
    /// the standard workload's transforms, a perspective layer every 37th layer (general
    /// layers in the middle of planar runs) and a flip every 23rd.
    private func makeRecursiveTree(count: Int, seed: UInt64) -> LayerStore {
        var random = SplitMix64(seed: seed)
        var store = LayerStore(minimumCapacity: count)
        for i in 0..<count {
            _ = try! store.addLayer(superlayer: i == 0 || random.chance(1) ? nil : random.below(i))
            store.setBounds(Rect(x: 0, y: 0, width: Double(20 + i % 50), height: Double(10 + i % 30)), of: i)
            store.setPosition(Point(x: Double(3 * (i % 97)), y: Double(5 * (i % 89))), of: i)
            switch i % 10 {
            case 0...4: store.setAffineTransform(.translation(x: Double(i % 13), y: Double(i % 17 - 8)), of: i)
            case 5, 6: store.setAffineTransform(.scale(x: 1 + Double(i % 5) * 0.25, y: 1.5), of: i)
            case 7, 8: store.setAffineTransform(.rotation(radians: Double(i % 360) * .pi / 180), of: i)
            default: break
            }
            if i % 37 == 36 { store.setTransform(.perspective(distance: 400), of: i) }
            if i % 23 == 22 { store.setGeometryFlipped(true, of: i) }
        }
        return store
    }

    func testRecursiveTreeTakesTheIndexOrderPassOnEveryBackend() {
        for count in [1, 2, 7, 64, 300, 5_000] {
            var store = makeRecursiveTree(count: count, seed: UInt64(count))
            XCTAssertTrue(store.parentsPrecedeChildren)
            let reference = store.referenceWorldTransforms()
            let expected = store.worldTransforms(options: .serial(.scalar))
            assertWorldsAgree(expected, reference, "\(count) layers, scalar")
            for backend in backendChoices {
                for threads in 1...4 {
                    let options = KernelOptions(backend: backend, threads: threads)
                    XCTAssertTrue(
                        worldsBitIdentical(store.worldTransforms(options: options), expected),
                        "\(count) layers, \(backend.label), \(threads) threads")
                }
            }
            _ = store.updateWorld(options: .serial(.c))
            if count >= 300 {
                let plan = store.caches.worldPlan!
                XCTAssertNotNil(plan.order, "a random tree is not breadth first")
                XCTAssertTrue(plan.scatteredParents, "\(count) layers")
            }
            // Moving a few layers (the incremental walk over the same plan) changes nothing
            // about the agreement.
            for layer in stride(from: count / 3, to: count, by: Swift.max(1, count / 5)) {
                store.setPosition(Point(x: Double(layer % 11), y: -2), of: layer)
            }
            for backend in backendChoices {
                var copy = store.copy()
                let updated = copy.updateWorld(options: .serial(backend))
                var fresh = store.copy()
                fresh.invalidateWorld()
                XCTAssertTrue(
                    worldsBitIdentical(updated, fresh.updateWorld(options: .serial(.scalar))),
                    "\(count) layers, update, \(backend.label)")
            }
        }
    }

    /// Breadth-first trees and chains keep their superlayers close: no prefetching.
    func testScatteredParentsIsFalseForBreadthFirstTreesAndChains() {
        var wide = makeWideStore(count: 5_000)
        _ = wide.updateWorld(options: .serial(.c))
        XCTAssertFalse(wide.caches.worldPlan!.scatteredParents)
        XCTAssertNil(wide.caches.worldPlan!.order)
        var chain = LayerStore()
        for i in 0..<2_000 { _ = try! chain.addLayer(superlayer: i == 0 ? nil : i - 1) }
        XCTAssertFalse(chain.parentsAreScattered())
        var tree = makeRecursiveTree(count: 5_000, seed: 3)
        XCTAssertTrue(tree.parentsAreScattered())
        _ = tree.updateWorld(options: .serial(.simd))
        XCTAssertTrue(tree.caches.worldPlan!.scatteredParents)
    }

    /// A chain (each layer's superlayer just before it) takes the C kernel for dependent
    /// layers, which tests finiteness on the exponent bits: in index order and through a
    /// level order (a chain whose indices run bottom up), with the same bits as the
    /// scalar pass, and the reference's infinities and NaN once the chain overflows.
    /// Breadth-first and random trees keep the streaming kernels.
    func testChainsTakeTheChainKernelWithTheSameBits() throws {
        func setTransforms(_ store: inout LayerStore, _ layer: Int) {
            store.setPosition(Point(x: Double(layer % 7) - 3, y: 1.5), of: layer)
            switch layer % 3 {
            case 0: store.setAffineTransform(.rotation(radians: Double(layer) * 0.01), of: layer)
            case 1: store.setAffineTransform(.scale(x: 1.001, y: 0.999), of: layer)
            default: break
            }
        }
        let n = 3_000
        var chain = LayerStore()
        for i in 0..<n {
            _ = try chain.addLayer(superlayer: i == 0 ? nil : i - 1)
            setTransforms(&chain, i)
        }
        var bottomUp = LayerStore()
        for i in 0..<n {
            _ = try bottomUp.addLayer()
            setTransforms(&bottomUp, i)
        }
        for i in 0..<(n - 1) { try bottomUp.insertSublayer(i, into: i + 1) }
        func check(_ label: String, _ store: borrowing LayerStore) {
            var copy = store.copy()
            let scalar = copy.updateWorld(options: .serial(.scalar))
            XCTAssertTrue(copy.caches.worldPlan!.chainedParents, label)
            XCTAssertEqual(copy.caches.worldPlan!.order == nil, label == "index order", label)
            XCTAssertTrue(worldsBitIdentical(copy.worldTransforms(options: .serial(.c)), scalar), label)
            assertWorldsAgree(scalar, store.referenceWorldTransforms(), label)
        }
        check("index order", chain)
        check("level order", bottomUp)
        // Overflow half way down: the kernel must report it, as the streaming one does.
        for layer in stride(from: 1_500, to: 1_510, by: 1) {
            chain.setAffineTransform(.scale(x: 1e200, y: 1e200), of: layer)
        }
        let reference = chain.referenceWorldTransforms()
        XCTAssertFalse(reference[n - 1].m11.isFinite)
        let world = chain.updateWorld(options: .serial(.c))
        XCTAssertTrue(chain.caches.worldPlan?.chainedParents ?? true)
        assertWorldsAgree(world, reference, "overflow")

        var wide = makeWideStore(count: 5_000)
        _ = wide.updateWorld(options: .serial(.c))
        XCTAssertFalse(wide.caches.worldPlan!.chainedParents)
        var tree = makeRecursiveTree(count: 5_000, seed: 3)
        _ = tree.updateWorld(options: .serial(.c))
        XCTAssertFalse(tree.caches.worldPlan!.chainedParents)
    }

    /// A depth-first build under a perspective layer: 600 general layers in a row in index
    /// order, more than one batch of the index-order pass's general kernel calls (128),
    /// between planar layers. Same bits on every backend, agreeing with the reference.
    func testLongRunsOfGeneralLayersInIndexOrder() throws {
        var store = LayerStore()
        let root = try store.addLayer(superlayer: nil)
        store.setBounds(Rect(x: 0, y: 0, width: 400, height: 400), of: root)
        for block in 0..<3 {
            let planar = try store.addLayer(superlayer: root)
            store.setPosition(Point(x: Double(block * 10), y: 5), of: planar)
            let card = try store.addLayer(superlayer: root)
            store.setBounds(Rect(x: 0, y: 0, width: 100, height: 80), of: card)
            store.setTransform(.perspective(distance: 300 + Double(block) * 50), of: card)
            for k in 0..<300 {
                let child = try store.addLayer(superlayer: card)
                store.setBounds(Rect(x: 0, y: 0, width: 20, height: 10), of: child)
                store.setPosition(Point(x: Double(k % 17), y: Double(k % 13)), of: child)
                let leaf = try store.addLayer(superlayer: child)
                store.setAffineTransform(.rotation(radians: Double(k) * 0.01), of: leaf)
            }
        }
        XCTAssertTrue(store.parentsPrecedeChildren)
        _ = store.updateWorld(options: .serial(.c))
        XCTAssertNotNil(store.caches.worldPlan!.order, "a depth-first build is not breadth first")
        XCTAssertGreaterThan(store.caches.worldPlan!.generalPositions?.count ?? 0, 1_800)
        let expected = store.worldTransforms(options: .serial(.scalar))
        assertWorldsAgree(expected, store.referenceWorldTransforms(), "scalar")
        for backend in backendChoices {
            XCTAssertTrue(
                worldsBitIdentical(store.worldTransforms(options: .serial(backend)), expected), "\(backend.label)")
        }
    }
}
