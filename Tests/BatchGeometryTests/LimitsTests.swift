import XCTest

@_spi(Testing) @testable import BatchGeometry

#if canImport(Glibc)
import Glibc
#endif

/// Deep hierarchies in every kernel (nothing may recurse per level), and, behind
/// `BATCHGEOMETRY_LIMITS=1`, ten million layers in one store with the memory measured
/// (`scripts/limits.sh` runs it on a release build; docs/ROBUSTNESS.md has the figures).
final class LimitsTests: XCTestCase {
    /// Deep enough that a per-level recursion would overflow the stack in this (debug)
    /// test build: the kernels here run on the calling thread, XCTest's main thread with
    /// its 8 MiB stack (a chain has no level wide enough to split and no two subtrees for
    /// the subtree layout; `concurrentPerform`'s workers, had they run, have 512 KiB to
    /// 8 MiB). At -Onone a recursive call takes at least 32 bytes a level (return address,
    /// saved frame pointer, the spilled layer argument, 16-byte aligned), so 262,144
    /// levels fill 8 MiB; 300,000 need 9.6 MB. (It was 1,000,000: 100 s of a debug run.)
    static let depth = 300_000

    /// A chain `0 → 1 → … → depth-1`, every layer 10×10 and one point right of its
    /// superlayer, so `ToWorld(k)` is the translation `(k + 1, 0)` exactly.
    static func makeChain(depth: Int, parentsFirst: Bool) -> LayerStore {
        var store = LayerStore(minimumCapacity: depth)
        for _ in 0..<depth {
            // parentsFirst: layer k under k-1. Otherwise all roots first, linked below
            // so that layer k sits under k+1 (every superlayer has a larger index).
            let layer = try! store.addLayer(superlayer: parentsFirst && store.count > 0 ? store.count - 1 : nil)
            store.setBounds(Rect(0, 0, 10, 10), of: layer)
            store.setPosition(Point(6, 5), of: layer)  // anchor (0.5, 0.5): Local = T(1, 0)
        }
        if !parentsFirst {
            for layer in 0..<(depth - 1) { try! store.insertSublayer(layer, into: layer + 1) }
        }
        return store
    }

    /// `ToWorld(k)` of the chain: the translation by `(level + 1, 0)`, with the z column
    /// flattened (zero) below the root.
    static func isChainWorld(_ world: Transform3D, level: Int) -> Bool {
        world.m41 == Double(level + 1) && world.m42 == 0 && world.m11 == 1 && world.m22 == 1
            && world.m12 == 0 && world.m21 == 0 && world.m44 == 1 && world.m33 == (level == 0 ? 1 : 0)
    }

    /// `isChainWorld` below the root (where the world is planar: m33 = 0), read from the
    /// six planar columns: the other ten entries of the planar form are its constants,
    /// and a debug build takes seconds to build a matrix for each of 300,000 layers.
    static func isPlanarChainWorld(_ world: WorldTransforms, layer: Int, level: Int) -> Bool {
        world.isPlanar(layer) && world.a[layer] == 1 && world.b[layer] == 0 && world.c[layer] == 0
            && world.d[layer] == 1 && world.tx[layer] == Double(level + 1) && world.ty[layer] == 0
    }

    func testDeepChainInEveryKernel() throws {
        let clock = ContinuousClock()
        var start = clock.now
        func lap(_ what: String) {
            print("deep chain: \(what) \(clock.now - start)")
            start = clock.now
        }
        let store = Self.makeChain(depth: Self.depth, parentsFirst: true)
        let n = store.count
        let deepest = n - 1
        XCTAssertTrue(store.parentsPrecedeChildren)
        lap("build")
        for backend in Backend.allCases {
            let options = KernelOptions(backend: backend, threads: 2)
            let frames = store.frames(options: options)
            XCTAssertEqual(frames[0], Rect(1, 0, 10, 10))
            XCTAssertEqual(frames[deepest], Rect(1, 0, 10, 10))
            let world = store.worldTransforms(options: options)
            XCTAssertEqual(world.count, n)
            var wrong = Self.isChainWorld(world[0], level: 0) ? 0 : 1
            for layer in 1..<n where !Self.isPlanarChainWorld(world, layer: layer, level: layer) { wrong += 1 }
            XCTAssertEqual(wrong, 0, "\(backend) world")
            let rects = store.worldRects(in: world, options: options)
            XCTAssertEqual(rects[deepest], RectEdges(minX: Double(n), minY: 0, maxX: Double(n + 10), maxY: 10))
            lap("\(backend) kernels")
        }
        var updated = store.copy()
        let world = updated.updateWorld(options: .default)
        XCTAssertTrue(Self.isChainWorld(world[deepest], level: deepest))

        // Hit testing walks the whole chain: layer k covers x in [k+1, k+11).
        XCTAssertEqual(store.hitTestIndex(Point(Double(n) + 0.5, 5), in: world, rule: .layer), deepest)
        XCTAssertNil(store.hitTest(Point(Double(n) + 0.5, 5), in: world, rule: .view))  // the root misses it
        XCTAssertEqual(store.hitTestIndices(points: [Point(10.5, 5)], in: world, rule: .view), [9])
        XCTAssertEqual(store.convert(Point(0, 0), from: deepest, to: nil, in: world), Point(Double(n), 0))
        XCTAssertEqual(store.convert(Point(Double(n), 3), from: nil, to: deepest, in: world), Point(0, 3))
        lap("hit tests, conversions")
        let order = store.drawOrder()
        XCTAssertTrue(order.map(\.index).elementsEqual(0..<n), "drawOrder")
        XCTAssertTrue(store.preorderIndices().elementsEqual(0..<n), "preorder")
        lap("drawOrder, preorder")

        // Clipping through the chain: the root masks, so only the first ten levels overlap it.
        var masked = store.copy()
        masked.setMasksToBounds(true, of: 0)
        let maskedWorld = world  // masking does not move anything
        let maskedRects = masked.worldRects(in: maskedWorld)
        let clips = masked.clipRects(worldRects: maskedRects)
        XCTAssertEqual(clips[deepest], RectEdges(minX: 1, minY: 0, maxX: 11, maxY: 10))
        let visible = masked.visibility(worldRects: maskedRects, clipRects: clips, viewport: nil)
        // Levels 0...9: [k+1, k+11) ∩ [1, 11) has positive width only for k < 10.
        XCTAssertEqual(visible.indices.filter { visible[$0] }, Array(0..<10))
        XCTAssertNil(masked.hitTest(Point(Double(n) + 0.5, 5), in: maskedWorld))
        lap("clip, visibility")

        // A cycle check that walks every ancestor of the chain, then the structural edits.
        var edited = store.copy()
        XCTAssertThrowsError(try edited.insertSublayer(0, into: deepest)) {
            XCTAssertEqual(
                $0 as? LayerStoreError,
                .cycle(layer: edited.handle(atSlot: 0), superlayer: edited.handle(atSlot: deepest)))
        }
        try edited.insertSublayer(deepest, into: nil)
        XCTAssertEqual(edited.rootIndices, [0, deepest])
        XCTAssertEqual(try edited.destroyLayer(0), n - 1)
        XCTAssertEqual(edited.layerCount, 1)
        XCTAssertEqual(edited.rootIndices, [deepest])
        var whole = store.copy()
        XCTAssertEqual(try whole.destroyLayer(0), n)
        XCTAssertEqual(whole.layerCount, 0)
        XCTAssertEqual(whole.roots, [])
        XCTAssertEqual(whole.drawOrder(), [])
        XCTAssertEqual(
            try whole.addLayer().index, 0, "slots come back in the destroyed subtree's pre-order: its top first")
        lap("edits, removeLayer of the chain's root")
        try Self.assertFreedSlotsStayCovered()
    }

    /// The freed slots of a destroyed chain stay (as free detached roots) until reused;
    /// the kernels still cover them, and nothing reports them. Nothing is deep once the
    /// chain is gone, so 20,000 slots do (their level of roots is still wide enough, past
    /// 2 × `parallelGrain`, for the default options' threads to split it): on the deep
    /// chain's 300,000 a debug build took 10 s, mostly in the 4×4 locals of the roots.
    static func assertFreedSlotsStayCovered() throws {
        let n = 20_000
        var whole = makeChain(depth: n, parentsFirst: true)
        XCTAssertEqual(try whole.destroyLayer(0), n)
        XCTAssertEqual(whole.layerCount, 0)
        XCTAssertEqual(whole.frames().count, n)
        let emptyWorld = whole.updateWorld()
        XCTAssertEqual(emptyWorld.count, n)
        XCTAssertTrue(whole.worldRects(in: emptyWorld).allSatisfy(\.isNull))
    }

    /// The same kind of chain with every superlayer at a *larger* index (layer k under
    /// k+1), so the kernels cannot walk in index order and must take the pre-order path.
    /// 300,000 deep: far past any recursion's stack (8 MiB), cheaper than a million in a
    /// debug build.
    func testDeepChainWithParentsAfterChildren() throws {
        var store = Self.makeChain(depth: 300_000, parentsFirst: false)
        let n = store.count
        let root = n - 1
        XCTAssertFalse(store.parentsPrecedeChildren)
        for backend in [Backend.simd, .c] {
            let world = store.worldTransforms(options: KernelOptions(backend: backend, threads: 2))
            var wrong = 0
            for layer in 0..<root where !Self.isPlanarChainWorld(world, layer: layer, level: root - layer) {
                wrong += 1
            }
            if !Self.isChainWorld(world[root], level: 0) { wrong += 1 }
            XCTAssertEqual(wrong, 0, "\(backend) world")
        }
        let world = store.worldTransforms(options: .serial(.scalar))
        XCTAssertTrue(Self.isChainWorld(world[0], level: root))
        XCTAssertEqual(
            store.worldRects(in: world)[0], RectEdges(minX: Double(n), minY: 0, maxX: Double(n + 10), maxY: 10))
        XCTAssertEqual(store.hitTestIndex(Point(Double(n) + 0.5, 5), in: world), 0)
        XCTAssertTrue(store.drawOrderIndices().elementsEqual((0..<n).reversed()))
        XCTAssertEqual(try store.destroyLayer(root), n)
        XCTAssertEqual(store.layerCount, 0)
    }

    /// 100,000 sublayers under one layer, attached by `setParent`: appending is O(1)
    /// each (an O(sublayers) step would make this quadratic: 5 × 10⁹ steps, a hang in a
    /// debug build; it was 300,000, 16 s of one), and the sort in drawOrder handles the
    /// width.
    func testWideFan() throws {
        let width = 100_000
        var store = LayerStore(minimumCapacity: width + 1)
        let root = try store.addLayer()
        for k in 0..<width {
            let layer = try store.addLayer()
            store.setPosition(Point(Double(k), 0), of: layer)
            store.setZPosition(Double(-k), of: layer)  // reverse order: the sort must run
            try store.insertSublayer(layer, into: root)  // reparent path, not addLayer(superlayer:)
        }
        XCTAssertEqual(store.sublayers(of: root).count, width)
        let order = store.drawOrder()
        XCTAssertEqual(order.first, root)
        XCTAssertEqual(order[1].index, width)
        XCTAssertEqual(order.last?.index, 1)
        let world = store.updateWorld()
        XCTAssertEqual(world[50_001].m41, 50_000)
    }

    // MARK: Ten million layers (opt-in)

    /// The bytes each layer takes in the store's columns, from their element sizes
    /// (capacity not counted), with and without non-affine transforms.
    func testBytesPerLayerFromTheColumns() throws {
        var store = LayerStore()
        for _ in 0..<1000 { try store.addLayer() }
        let bytes = Self.columnBytes(store)
        // 10 Double columns, 6 affine Doubles + a kind byte, a flags byte, an autoresizing
        // mask byte, 5 Int32 links, a dirty flag, a Float opacity, an interaction Bool:
        // 80 + 49 + 1 + 1 + 20 + 1 + 4 + 1.
        XCTAssertEqual(bytes / 1000, 157)
        store.setTransform(.perspective(distance: 500), of: 3)
        // An Int32 entry slot each, and one entry of ten Doubles (80 bytes) in all.
        XCTAssertEqual(Self.columnBytes(store), 157_000 + 4000 + 80)
        store.setSublayerTransform(.scale(x: 2, y: 2), of: 4)
        // A kind byte and an entry slot each, and one 16-Double entry.
        XCTAssertEqual(Self.columnBytes(store), 157_000 + 4000 + 80 + 5000 + 128)
    }

    /// What the columns hold, element sizes times counts.
    static func columnBytes(_ store: borrowing LayerStore) -> Int {
        func size<T>(_ column: [T]) -> Int { MemoryLayout<T>.stride * column.count }
        func size<T>(_ column: RemappedColumn<T>) -> Int { MemoryLayout<T>.stride * column.count }
        let doubles: [GeometryColumn] = [
            store.boundsX, store.boundsY, store.boundsWidth, store.boundsHeight, store.positionX,
            store.positionY, store.anchorX, store.anchorY, store.zPositions, store.anchorPointZs,
        ]
        var total = doubles.map { 8 * $0.count }.reduce(0, +)
        for columns in [store.columns.transforms, store.columns.sublayerTransforms] {
            total += size(columns.kind) + size(columns.a) + size(columns.b) + size(columns.c) + size(columns.d)
            total += size(columns.tx) + size(columns.ty) + size(columns.entrySlots) + size(columns.entries)
        }
        total +=
            size(store.columns.flags) + size(store.columns.autoresizingMasks) + size(store.hierarchy.parents)
            + size(store.hierarchy.firstSublayers)
            + size(store.hierarchy.lastSublayers)
        total +=
            size(store.hierarchy.nextSiblings) + size(store.hierarchy.previousSiblings)
            + size(store.caches.changes.dirtyStates)
        total += size(store.columns.attributes.opacities) + size(store.columns.attributes.interactionEnabled)
        return total
    }

    /// Peak resident memory of this process so far, in bytes (Linux `VmHWM`).
    static func peakResidentBytes() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let kilobytes = line.split(separator: " ").compactMap { Int($0) }.first
            return kilobytes.map { $0 * 1024 }
        }
        return nil
    }

    func testTenMillionLayers() throws {
        guard ProcessInfo.processInfo.environment["BATCHGEOMETRY_LIMITS"] == "1" else {
            throw XCTSkip("set BATCHGEOMETRY_LIMITS=1 (scripts/limits.sh) to run the 10M-layer test")
        }
        let n = 10_000_000
        let clock = ContinuousClock()
        var start = clock.now
        func lap(_ what: String) {
            print("limits: \(what): \(clock.now - start), peak RSS \((Self.peakResidentBytes() ?? 0) >> 20) MiB")
            start = clock.now
        }
        // A UI-like forest: 1000 windows, each with 9999 sublayers in rows of cards.
        var store = LayerStore(minimumCapacity: n)
        var window = LayerHandle(rawValue: 0)
        for layer in 0..<n {
            if layer % 10_000 == 0 {
                window = try store.addLayer()
                store.setBounds(Rect(0, 0, 375, 812), of: window)
                store.setPosition(Point(187.5, 406), of: window)  // frame at the origin: ToWorld = identity
            } else {
                try store.addLayer(superlayer: window)
                store.setBounds(Rect(0, 0, 40, 40), of: layer)
                store.setPosition(Point(Double(layer % 100) * 4, Double(layer % 10_000 / 100) * 8), of: layer)
            }
        }
        XCTAssertEqual(store.count, n)
        lap("build \(n) layers")
        let bytes = Self.columnBytes(store)
        print("limits: columns \(bytes >> 20) MiB = \(Double(bytes) / Double(n)) bytes per layer")

        for backend in Backend.allCases {
            let options = KernelOptions(backend: backend, threads: activeProcessorCount)
            let frames = store.frames(options: options)
            XCTAssertEqual(frames[n - 1], Rect(376, 772, 40, 40))
            lap("frames \(backend)")
            let world = store.worldTransforms(options: options)
            XCTAssertEqual(world[n - 1].m41, 376)
            lap("world \(backend)")
        }
        let world = store.updateWorld()
        lap("updateWorld")
        let rects = store.worldRects(in: world, options: .default)
        XCTAssertEqual(rects[n - 1], RectEdges(minX: 376, minY: 772, maxX: 416, maxY: 812))
        lap("worldRects")
        let clips = store.clipRects(worldRects: rects)
        let visible = store.visibility(worldRects: rects, clipRects: clips, viewport: Rect(0, 0, 375, 812))
        XCTAssertTrue(visible[1])
        lap("clip + visibility")
        // In the last window, card k (row k/100, column k%100) spans x in [4c-20, 4c+20),
        // y in [8r-20, 8r+20): (1, 1) is inside for c <= 5, r <= 2; the last such is 205.
        XCTAssertEqual(store.hitTestIndex(Point(1, 1), in: world), n - 10_000 + 205)
        lap("hitTest")
        XCTAssertEqual(store.drawOrder().count, n)
        lap("drawOrder")
        try store.destroyLayer(0)
        XCTAssertEqual(store.count, n - 10_000)
        lap("removeLayer of the first window")
        print("limits: peak RSS \((Self.peakResidentBytes() ?? 0) >> 20) MiB for \(n) layers")
    }
}
