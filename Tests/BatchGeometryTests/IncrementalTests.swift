import XCTest

@_spi(Testing) @testable import BatchGeometry

final class IncrementalTests: XCTestCase {
    /// A full pass from scratch on a copy (plan rebuilt from the properties).
    private func fullPass(_ store: borrowing LayerStore) -> WorldTransforms {
        var copy = store.copy()
        copy.invalidateWorld()
        return copy.worldTransforms(options: .serial(.scalar))
    }

    private func randomEdit(_ store: inout LayerStore, _ random: inout SplitMix64, specials: Bool) {
        guard store.count > 0 else {
            _ = try? store.addLayer()
            return
        }
        let layer = random.below(store.count)
        switch random.below(16) {
        case 0, 1:
            store.setPosition(
                Point(x: random.value(400, specials: specials), y: random.value(400, specials: specials)), of: layer)
        case 2:
            store.setBounds(
                Rect(
                    x: random.value(40, specials: specials), y: random.value(40, specials: specials),
                    width: random.value(200, specials: specials), height: random.value(200, specials: specials)),
                of: layer)
        case 3, 4: store.setTransform(randomTransform(&random, specials: specials), of: layer)
        case 5:
            store.setAnchorPoint(
                Point(x: random.value(1.5, specials: specials), y: random.value(1.5, specials: specials)), of: layer)
        case 6: store.setSublayerTransform(randomTransform(&random, specials: specials), of: layer)
        case 7: store.setGeometryFlipped(random.chance(50), of: layer)
        case 8: store.setTransformLayer(random.chance(50), of: layer)
        case 9: store.setZPosition(random.value(30, specials: specials), of: layer)
        case 10: store.setAnchorPointZ(random.value(30, specials: specials), of: layer)
        case 11:
            store.setMasksToBounds(random.chance(50), of: layer)
            store.setHidden(random.chance(20), of: layer)
        case 12: try? store.insertSublayer(layer, into: random.chance(20) ? nil : random.below(store.count))
        case 13: _ = try? store.destroyLayer(layer)
        case 14: _ = try? store.addLayer(superlayer: random.below(store.count))
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
                let world = store.updateWorld(options: .serial(backendChoices[step % backendChoices.count]))
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
            XCTAssertNotNil(store.caches.worldPlan, "round \(round): the incremental path keeps the plan")
            XCTAssertTrue(worldsBitIdentical(world, fullPass(store)), "round \(round)")
            // A pass from the incrementally maintained plan gives the same bits.
            for backend in backendChoices {
                XCTAssertTrue(
                    worldsBitIdentical(
                        store.worldTransforms(options: KernelOptions(backend: backend, threads: 3)), world),
                    "round \(round) \(backend.label)")
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
        let address = store.caches.worldCache!.tx.withUnsafeBufferPointer { $0.baseAddress }
        for frame in 0..<5 {
            store.setPosition(Point(x: Double(frame), y: 0), of: 100 + frame)
            _ = store.updateWorld(options: .serial(.c))
            XCTAssertEqual(
                store.caches.worldCache!.tx.withUnsafeBufferPointer { $0.baseAddress }, address, "frame \(frame)")
        }
    }

    /// masksToBounds and hidden do not affect transforms, so they dirty nothing.
    func testClipAndHiddenDoNotDirty() {
        var store = makeWideStore(count: 100)
        _ = store.updateWorld(options: .serial(.scalar))
        store.setMasksToBounds(true, of: 5)
        store.setHidden(true, of: 6)
        XCTAssertFalse(store.caches.changes.hasChanges)
    }

    /// Hand-derived: moving a superlayer moves its sublayer's world translation by the
    /// same amount (identity transforms, anchor (0, 0)).
    func testMovingSuperlayerMovesSublayer() throws {
        var store = LayerStore()
        let root = try store.addLayer()
        let parent = try store.addLayer(superlayer: root)
        let child = try store.addLayer(superlayer: parent)
        for layer in [root, parent, child] { store.setAnchorPoint(Point(x: 0, y: 0), of: layer) }
        store.setPosition(Point(x: 5, y: 7), of: child)
        store.setPosition(Point(x: 10, y: 20), of: parent)
        XCTAssertEqual(store.updateWorld(options: .serial(.c))[child].m41, 15)
        store.setPosition(Point(x: 110, y: 20), of: parent)
        let world = store.updateWorld(options: .serial(.c))
        XCTAssertEqual(world[child].m41, 115)
        XCTAssertEqual(world[child].m42, 27)
    }

    // MARK: The range walk (dirty subtrees as runs of plan positions)

    /// Every backend and thread count: moves `dirty` and checks that the update equals a
    /// full pass from scratch bit for bit (and the reference to 1e-12) and keeps the plan.
    private func assertDirtyUpdateMatchesFullPass(
        _ store: inout LayerStore, dirty: [Int], _ label: String,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        var nudge = 0.0
        for backend in backendChoices {
            for threads in 1...4 {
                nudge += 1
                for layer in dirty {
                    let position = store.position(of: layer)
                    store.setPosition(Point(x: position.x + nudge, y: position.y - 0.5), of: layer)
                }
                let world = store.updateWorld(options: KernelOptions(backend: backend, threads: threads))
                XCTAssertNotNil(store.caches.worldPlan, "\(label) \(backend.label) \(threads)", file: file, line: line)
                XCTAssertTrue(
                    worldsBitIdentical(world, fullPass(store)), "\(label) \(backend.label) \(threads)",
                    file: file, line: line)
                assertWorldsAgree(
                    world, store.referenceWorldTransforms(), "\(label) \(backend.label) \(threads)",
                    file: file, line: line)
            }
        }
    }

    /// Hand-derived CSR index of the complete 8-ary tree in index order: the sublayers of
    /// layer p are 8p + 1 ... 8p + 8, cut at the count.
    func testBreadthFirstTreeGetsTheChildIndexInIndexOrder() {
        var store = makeWideStore(count: 5_000)
        _ = store.updateWorld(options: .serial(.c))
        store.setPosition(Point(x: 1, y: 1), of: 10)
        _ = store.updateWorld(options: .serial(.c))
        let plan = store.caches.worldPlan!
        XCTAssertNil(plan.order)
        let index = try! XCTUnwrap(plan.subtreeRanges)
        XCTAssertNil(index.positions)
        XCTAssertEqual(index.childStart.count, 5_001)
        for p in 0...5_000 { XCTAssertEqual(Int(index.childStart[p]), Swift.min(8 * p + 1, 5_000), "position \(p)") }
        XCTAssertEqual(index.walkCosts.map(Int.init), walkCostsFromParentLinks(store))
        // Levels of 1, 8, 64, 512, 4,096 and 319 layers: the root's subtree has 6 levels;
        // layer 4,999 is a leaf.
        XCTAssertEqual(index.walkCosts[0], 5_000 + 6 * Int32(LayerStore.runWorkCost))
        XCTAssertEqual(index.walkCosts[4_999], 1 + Int32(LayerStore.runWorkCost))
    }

    /// The walk cost of every layer's subtree from the parent links alone, by slot: one
    /// per layer with that layer on its way up (itself included), and `runWorkCost` per
    /// level, the deepest such layer's distance from it plus one. Each layer walks up its
    /// ancestors once and counts itself in each (O(count × depth); asking the same per
    /// top layer, O(count² × depth), took 45 s of a debug run at 5,000 layers).
    private func walkCostsFromParentLinks(_ store: borrowing LayerStore) -> [Int] {
        var sizes = [Int](repeating: 0, count: store.count)
        var levels = [Int](repeating: 0, count: store.count)
        for layer in 0..<store.count {
            var current: Int? = layer
            var distance = 0
            while let top = current {
                sizes[top] += 1
                levels[top] = Swift.max(levels[top], distance + 1)
                current = store.superlayer(of: top)
                distance += 1
            }
        }
        return zip(sizes, levels).map { $0 + LayerStore.runWorkCost * $1 }
    }

    /// Dirty layers at every depth (levels of the 5,000-layer tree: 1, 8, 64, 512, 4,096,
    /// 319 layers), a dirty root, the last layer, a dirty layer with dirty descendants
    /// (overlapping subtrees), adjacent dirty layers whose sublayer runs touch, and
    /// layers of the fifth level whose sublayers are absent (leaves between internal
    /// nodes: 4,680 and 1,000 have none, 600 has all eight).
    func testRangeWalkOnWideTreeMatchesFullPass() {
        var store = makeWideStore(count: 5_000)
        _ = store.updateWorld(options: .serial(.c))
        let cases: [(String, [Int])] = [
            ("root", [0]),
            ("every depth", [0, 3, 20, 100, 700, 4_990]),
            ("last layer", [4_999]),
            ("nested", [2, 17, 137, 1_097, 4_700]),  // 2 → 17 → 137 → 1,097 (no sublayers)
            ("nested, descendant first", [4_700, 137, 17]),
            ("adjacent runs", [600, 601, 602, 9, 10]),
            ("absent sublayers", [1_000, 4_680, 600, 4_681]),
            ("one per level end", [8, 72, 584, 4_680]),
        ]
        for (label, dirty) in cases { assertDirtyUpdateMatchesFullPass(&store, dirty: dirty, label) }
    }

    /// Non-finite positions in a dirty subtree drop to the full pass; a perspective
    /// transform (mode change) and a sublayerTransform (adjusts its sublayers) take the
    /// layer-by-layer walk; all match a full pass.
    func testRangeWalkFallbacksMatchFullPass() {
        var store = makeWideStore(count: 3_000)
        _ = store.updateWorld(options: .serial(.simd))
        store.setPosition(Point(x: .infinity, y: 0), of: 30)
        XCTAssertTrue(worldsBitIdentical(store.updateWorld(options: .serial(.c)), fullPass(store)), "infinite")
        store.setPosition(Point(x: 4, y: 0), of: 30)
        XCTAssertTrue(worldsBitIdentical(store.updateWorld(options: .serial(.c)), fullPass(store)), "finite again")
        store.setTransform(.perspective(distance: 250), of: 12)
        XCTAssertTrue(worldsBitIdentical(store.updateWorld(options: .serial(.simd)), fullPass(store)), "perspective")
        store.setSublayerTransform(.perspective(distance: 400), of: 5)
        XCTAssertTrue(
            worldsBitIdentical(store.updateWorld(options: .serial(.scalar)), fullPass(store)), "sublayerTransform")
        // The general layers under 12 now sit inside later runs.
        assertDirtyUpdateMatchesFullPass(&store, dirty: [12, 100, 1_500], "general layers in runs")
    }

    /// A store whose index order is nothing like its level order (built as roots, then
    /// reparented into a shuffled 8-ary tree): the plan's order groups each level's
    /// sublayers by superlayer in the superlayers' order, and the range walk over it
    /// matches a full pass.
    func testReparentedStoreGetsGroupedOrderAndMatchesFullPass() throws {
        let n = 2_000
        var random = SplitMix64(seed: 99)
        var store = makeRandomStore(count: n, seed: 5, specials: false)
        // Tree slot s holds layer slot[s]; slot s's superlayer is slot (s - 1) / 8.
        var slot = Array(0..<n)
        for i in stride(from: n - 1, to: 0, by: -1) { slot.swapAt(i, random.below(i + 1)) }
        for layer in 0..<n { try store.insertSublayer(layer, into: nil) }
        for s in 1..<n { try store.insertSublayer(slot[s], into: slot[(s - 1) / 8]) }
        _ = store.updateWorld(options: .serial(.c))
        store.setPosition(Point(x: 2, y: 2), of: slot[1])
        _ = store.updateWorld(options: .serial(.c))
        let plan = store.caches.worldPlan!
        let order = try XCTUnwrap(plan.order)
        let index = try XCTUnwrap(plan.subtreeRanges)
        // Independent check of the grouping: superlayer positions never decrease after
        // the roots, and each layer's sublayers are exactly its childStart run.
        var position = [Int](repeating: 0, count: n)
        for (p, layer) in order.enumerated() { position[Int(layer)] = p }
        var previous = -1
        for p in plan.levelStarts[1]..<n {
            let superlayerPosition = position[store.superlayer(of: Int(order[p]))!]
            XCTAssertGreaterThanOrEqual(superlayerPosition, previous)
            previous = superlayerPosition
        }
        for p in 0..<n {
            let run = Int(index.childStart[p])..<Int(index.childStart[p + 1])
            XCTAssertEqual(Set(run.map { Int(order[$0]) }), Set(store.sublayers(of: Int(order[p]))), "position \(p)")
        }
        let costs = walkCostsFromParentLinks(store)
        XCTAssertEqual(index.walkCosts.map(Int.init), order.map { costs[Int($0)] })
        let layersOfTheTree = [slot[0], slot[3], slot[30], slot[250], slot[1_999], slot[1_998], slot[2], slot[17]]
        assertDirtyUpdateMatchesFullPass(&store, dirty: layersOfTheTree, "shuffled")
        var many: [Int] = []
        for _ in 0..<60 { many.append(random.below(n)) }
        assertDirtyUpdateMatchesFullPass(&store, dirty: Array(Set(many)), "shuffled, many")
    }

    /// Depth never decreases in index order, but the sublayers of one level are not in
    /// their superlayers' order: the level order must reorder them.
    func testLevelOrderGroupsSublayersInSuperlayerOrder() throws {
        var store = LayerStore()
        let first = try store.addLayer()
        let second = try store.addLayer()
        let underSecond = try store.addLayer(superlayer: second)
        let underFirst = try store.addLayer(superlayer: first)
        let deeper = try store.addLayer(superlayer: underSecond)
        let (order, levelStarts) = store.levelOrder()
        XCTAssertEqual(levelStarts, [0, 2, 4, 5])
        let layers = try XCTUnwrap(order).map(Int.init)
        XCTAssertEqual(layers, [first, second, underFirst, underSecond, deeper].map(\.index))
        assertDirtyUpdateMatchesFullPass(&store, dirty: [second.index], "small")
    }

    /// A position-only change redoes just the cached translation (the same additions as a
    /// full recompute); mixed with other changes on the same layer, under a flipped
    /// superlayer (no shortcut) and on layers the layer-by-layer walk rewrote, every
    /// update still equals a full pass bit for bit.
    func testPositionOnlyChangesMatchFullPass() {
        var store = makeWideStore(count: 3_000)
        _ = store.updateWorld(options: .serial(.c))
        func check(_ label: String) {
            for backend in backendChoices {
                var copy = store.copy()
                XCTAssertTrue(
                    worldsBitIdentical(copy.updateWorld(options: .serial(backend)), fullPass(store)),
                    "\(label) \(backend.label)")
            }
            _ = store.updateWorld(options: .serial(.c))
        }
        store.setPosition(Point(x: 7, y: -3), of: 40)
        check("position only")
        store.setPosition(Point(x: 8, y: -3), of: 41)
        store.setBounds(Rect(x: 1, y: 2, width: 30, height: 40), of: 41)
        check("position then bounds")
        store.setBounds(Rect(x: 1, y: 2, width: 31, height: 40), of: 42)
        store.setPosition(Point(x: 9, y: -3), of: 42)
        check("bounds then position")
        store.setGeometryFlipped(true, of: 3)  // its sublayers 25...32 get an adjustment
        check("flip")
        store.setPosition(Point(x: 10, y: 11), of: 26)
        store.setPosition(Point(x: 12, y: 13), of: 3)
        check("positions under and of a flipped layer")
        store.setGeometryFlipped(false, of: 3)
        check("unflip")
        store.setPosition(Point(x: 14, y: 15), of: 27)
        store.setAnchorPoint(Point(x: 0.25, y: 1), of: 28)
        store.setPosition(Point(x: 16, y: 17), of: 28)
        check("after unflip")
        store.setPosition(Point(x: .nan, y: 1), of: 29)
        check("NaN position")
        store.setPosition(Point(x: 1, y: 1), of: 29)
        check("finite again")
    }

    // MARK: Which path an update takes

    /// 1% of a 20,000-layer tree moved (every 100th layer, as batchbench does): the range
    /// walk handles it, gathering each level's short runs into one list (the C backend's
    /// list kernel prefetches), and matches a full pass on every backend and thread count.
    func testScatteredDirtyLayersTakeTheRangeWalk() {
        var store = makeWideStore(count: 20_000)
        _ = store.updateWorld(options: .serial(.c))
        let dirty = Array(stride(from: 50, to: 20_000, by: 100))
        store.setPosition(Point(x: 1, y: 2), of: 150)
        _ = store.updateWorld(options: .serial(.c))
        XCTAssertEqual(store.caches.lastWorldUpdatePath, .rangeWalk)
        assertDirtyUpdateMatchesFullPass(&store, dirty: dirty, "every 100th")
        XCTAssertEqual(store.caches.lastWorldUpdatePath, .rangeWalk)
    }

    /// Over several threads a level of the range walk is split into tasks (here from one
    /// layer, in tasks of 7, so every list and long run is cut unevenly): the moved layers'
    /// translations, the short runs' list and the long runs' pieces, each on any thread,
    /// give a full pass's bits; a NaN in one task still makes the whole update the full
    /// pass's (non-finite: the caches are rebuilt).
    func testRangeWalkLevelsSplitOverThreadsMatchFullPass() {
        var store = makeWideStore(count: 20_000)
        _ = store.updateWorld(options: .serial(.c))
        var nudge = 0.0
        for backend in backendChoices {
            for threads in [2, 3, 4] {
                var options = KernelOptions(backend: backend, threads: threads)
                options.levelSplitMinimum = 1
                options.levelSplitGrain = 7
                nudge += 1
                for layer in stride(from: 50, to: 20_000, by: 100) {
                    store.setPosition(Point(x: nudge, y: Double(layer % 31)), of: layer)
                }
                store.setPosition(Point(x: 3, y: nudge), of: 9)  // a subtree of ~2,600: runs of 64 and 512
                let world = store.updateWorld(options: options)
                let label = "\(backend.label), \(threads) threads"
                XCTAssertEqual(store.caches.lastWorldUpdatePath, .rangeWalk, label)
                XCTAssertTrue(worldsBitIdentical(world, fullPass(store)), label)
            }
        }
        var options = KernelOptions(backend: .c, threads: 4)
        options.levelSplitMinimum = 1
        options.levelSplitGrain = 7
        store.setPosition(Point(x: .nan, y: 1), of: 9 * 8 + 3)
        XCTAssertTrue(worldsBitIdentical(store.updateWorld(options: options), fullPass(store)), "NaN")
        store.setPosition(Point(x: 1, y: 1), of: 9 * 8 + 3)
        XCTAssertTrue(worldsBitIdentical(store.updateWorld(options: options), fullPass(store)), "finite again")
    }

    /// A dirty subtree larger than an eighth of the tree (a layer near the top of a chain,
    /// or the root of a big tree) is not walked: the dirty layers' plan entries are
    /// updated, then the full pass over the cached plan runs, with the same bits. A
    /// subtree under the budget but a thousand levels deep starts the walk, which gives
    /// up once its per-level costs pass the budget.
    func testLargeDirtySubtreesFallBackToTheFullPassOverTheCachedPlan() {
        var chain = LayerStore()
        for i in 0..<3_000 {
            _ = try! chain.addLayer(superlayer: i == 0 ? nil : i - 1)
            chain.setPosition(Point(x: Double(i % 7), y: 1), of: i)
            if i % 5 == 0 { chain.setAffineTransform(.rotation(radians: Double(i) * 0.01), of: i) }
        }
        _ = chain.updateWorld(options: .serial(.c))
        chain.setPosition(Point(x: 3, y: 4), of: 2_999)
        _ = chain.updateWorld(options: .serial(.c))
        XCTAssertEqual(chain.caches.lastWorldUpdatePath, .rangeWalk, "a leaf of the chain")
        assertDirtyUpdateMatchesFullPass(&chain, dirty: [10], "chain")
        XCTAssertEqual(chain.caches.lastWorldUpdatePath, .dirtyEntriesThenFullPropagation, "2,990 layers below")
        // 2,800's subtree: 200 layers and 200 runs, 200 + 4 × 200 = 1,000 units, within
        // the budget of max(3,000 / 8, 1,024); the walk starts, and gives up once the
        // bookkeeping of its 200 levels passes the budget. 2,801 and 2,802 lie in that
        // subtree and are not counted again (counted, the estimate would be 2,985).
        assertDirtyUpdateMatchesFullPass(&chain, dirty: [2_800, 2_801, 2_802], "deep chain")
        XCTAssertEqual(chain.caches.lastWorldUpdatePath, .rangeWalkThenFullPropagation)

        // 5,000 layers (it was 20,000: the same paths, 16 passes a case, four times the
        // layers): the budget is max(5,000 / 8, 1,024) = 1,024 units.
        var tree = makeWideStore(count: 5_000)
        _ = tree.updateWorld(options: .serial(.c))
        assertDirtyUpdateMatchesFullPass(&tree, dirty: [0], "root")
        XCTAssertEqual(tree.caches.lastWorldUpdatePath, .dirtyEntriesThenFullPropagation)
        // 1's subtree: 904 layers in 5 levels (924 units), 2's: 585 in 4 (601).
        assertDirtyUpdateMatchesFullPass(&tree, dirty: [1, 2], "a third of the tree")
        XCTAssertEqual(tree.caches.lastWorldUpdatePath, .dirtyEntriesThenFullPropagation)
        // Layer 9's subtree (1 + 8 + 64 + 319 layers) holds the other three.
        assertDirtyUpdateMatchesFullPass(&tree, dirty: [9, 73, 74, 585], "nested in one subtree")
        XCTAssertEqual(tree.caches.lastWorldUpdatePath, .rangeWalk)
        assertDirtyUpdateMatchesFullPass(&tree, dirty: [300, 4_999], "a small subtree")
        XCTAssertEqual(tree.caches.lastWorldUpdatePath, .rangeWalk)
    }

    /// A change that alters a layer's mode takes the layer-by-layer walk; a hierarchy
    /// change takes the full update.
    func testModeAndHierarchyChangesTakeTheirPaths() throws {
        var store = makeWideStore(count: 3_000)
        _ = store.updateWorld(options: .serial(.c))
        store.setTransform(.perspective(distance: 300), of: 40)
        XCTAssertTrue(worldsBitIdentical(store.updateWorld(options: .serial(.simd)), fullPass(store)))
        XCTAssertEqual(store.caches.lastWorldUpdatePath, .subtreeWalk)
        try store.insertSublayer(41, into: 2)
        XCTAssertTrue(worldsBitIdentical(store.updateWorld(options: .serial(.simd)), fullPass(store)))
        XCTAssertEqual(store.caches.lastWorldUpdatePath, .full)
    }
}
