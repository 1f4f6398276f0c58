import XCTest
@testable import BatchGeometry

final class IncrementalTests: XCTestCase {
    /// A full pass from scratch on a copy (plan rebuilt from the properties).
    private func fullPass(_ store: LayerStore) -> WorldTransforms {
        var copy = store
        copy.invalidateWorld()
        return copy.worldTransforms(options: .serial(.scalar))
    }

    private func randomEdit(_ store: inout LayerStore, _ random: inout SplitMix64, specials: Bool) {
        guard store.count > 0 else { _ = try? store.addLayer(); return }
        let layer = random.below(store.count)
        switch random.below(16) {
        case 0, 1: store.setPosition(Point(x: random.value(400, specials: specials), y: random.value(400, specials: specials)), of: layer)
        case 2: store.setBounds(Rect(x: random.value(40, specials: specials), y: random.value(40, specials: specials),
                                     width: random.value(200, specials: specials), height: random.value(200, specials: specials)), of: layer)
        case 3, 4: store.setTransform(randomTransform(&random, specials: specials), of: layer)
        case 5: store.setAnchorPoint(Point(x: random.value(1.5, specials: specials), y: random.value(1.5, specials: specials)), of: layer)
        case 6: store.setSublayerTransform(randomTransform(&random, specials: specials), of: layer)
        case 7: store.setGeometryFlipped(random.chance(50), of: layer)
        case 8: store.setTransformLayer(random.chance(50), of: layer)
        case 9: store.setZPosition(random.value(30, specials: specials), of: layer)
        case 10: store.setAnchorPointZ(random.value(30, specials: specials), of: layer)
        case 11: store.setMasksToBounds(random.chance(50), of: layer); store.setHidden(random.chance(20), of: layer)
        case 12: try? store.setParent(of: layer, to: random.chance(20) ? nil : random.below(store.count))
        case 13: _ = try? store.removeLayer(layer)
        case 14: _ = try? store.addLayer(parent: random.below(store.count))
        default: store.setAffineTransform(.translation(x: random.value(10, specials: false), y: 1), of: layer)
        }
    }

    /// After random edit sequences (setters, reparenting, removal, additions), the
    /// incremental update equals a full pass bit for bit and the reference to 1e-12.
    func testIncrementalEqualsFullPassAfterRandomEdits() {
        for seed in 0..<24 {
            let specials = seed % 3 == 2
            var store = makeRandomStore(count: 20 + seed * 5, seed: UInt64(1000 + seed), specials: specials)
            var random = SplitMix64(seed: UInt64(seed))
            _ = store.updateWorld(options: .serial(.c))
            for step in 0..<40 {
                for _ in 0..<(1 + random.below(4)) { randomEdit(&store, &random, specials: specials) }
                let world = store.updateWorld(options: .serial(Backend.allCases[step % 3]))
                XCTAssertTrue(worldsBitIdentical(world, fullPass(store)), "seed \(seed) step \(step)")
                assertWorldsAgree(world, store.referenceWorldTransforms(), "seed \(seed) step \(step)")
            }
        }
    }

    /// Few dirty layers in a big store go through the dirty-subtree path (the plan stays)
    /// and still match a full pass; a snapshot kept by the caller does not change.
    func testDirtySubtreesOnWideStoreAndSnapshotsStayFixed() {
        var store = makeWideStore(count: 5_000)
        let before = store.updateWorld(options: .serial(.simd))
        let kept = before[4_000]
        var random = SplitMix64(seed: 7)
        for round in 0..<10 {
            for _ in 0..<20 {
                let layer = 1 + random.below(store.count - 1)
                store.setPosition(Point(x: random.value(100, specials: false), y: 2), of: layer)
                if round == 5 { store.setTransform(.perspective(distance: 300), of: layer) }
            }
            let world = store.updateWorld(options: .serial(.c))
            XCTAssertNotNil(store.worldPlan, "round \(round): the incremental path keeps the plan")
            XCTAssertTrue(worldsBitIdentical(world, fullPass(store)), "round \(round)")
            // A pass from the incrementally maintained plan gives the same bits.
            for backend in Backend.allCases {
                XCTAssertTrue(worldsBitIdentical(store.worldTransforms(options: KernelOptions(backend: backend, threads: 3)), world),
                              "round \(round) \(backend)")
            }
        }
        XCTAssertEqual(before[4_000], kept)
        XCTAssertEqual(before.count, 5_000)
    }

    /// Discarding the result each frame lets the next update write in place: the cache's
    /// columns keep their storage (no copy-on-write copy).
    func testDiscardedResultsLetUpdatesWriteInPlace() {
        var store = makeWideStore(count: 2_000)
        _ = store.updateWorld(options: .serial(.c))
        let address = store.worldCache!.tx.withUnsafeBufferPointer { $0.baseAddress }
        for frame in 0..<5 {
            store.setPosition(Point(x: Double(frame), y: 0), of: 100 + frame)
            _ = store.updateWorld(options: .serial(.c))
            XCTAssertEqual(store.worldCache!.tx.withUnsafeBufferPointer { $0.baseAddress }, address, "frame \(frame)")
        }
    }

    /// masksToBounds and hidden do not affect transforms, so they dirty nothing.
    func testClipAndHiddenDoNotDirty() {
        var store = makeWideStore(count: 100)
        _ = store.updateWorld(options: .serial(.scalar))
        store.setMasksToBounds(true, of: 5)
        store.setHidden(true, of: 6)
        XCTAssertFalse(store.changes.hasChanges)
    }

    /// Hand-derived: moving a superlayer moves its sublayer's world translation by the
    /// same amount (identity transforms, anchor (0, 0)).
    func testMovingSuperlayerMovesSublayer() throws {
        var store = LayerStore()
        let root = try store.addLayer()
        let parent = try store.addLayer(parent: root)
        let child = try store.addLayer(parent: parent)
        for layer in [root, parent, child] { store.setAnchorPoint(Point(x: 0, y: 0), of: layer) }
        store.setPosition(Point(x: 5, y: 7), of: child)
        store.setPosition(Point(x: 10, y: 20), of: parent)
        XCTAssertEqual(store.updateWorld(options: .serial(.c))[child].m41, 15)
        store.setPosition(Point(x: 110, y: 20), of: parent)
        let world = store.updateWorld(options: .serial(.c))
        XCTAssertEqual(world[child].m41, 115)
        XCTAssertEqual(world[child].m42, 27)
    }
}
