import Dispatch
import XCTest

@_spi(Testing) @testable import BatchGeometry

/// `LayerStore` is noncopyable; `copy()` makes an independent store: a copy never sees the
/// original's later mutations (of any kind), nor the original the copy's, and different
/// stores can be processed on different threads at once.
final class ValueSemanticsTests: XCTestCase {
    /// Every kind of mutation, each applied to a fresh copy of the rich store.
    static let mutations: [(name: String, apply: @Sendable (inout LayerStore) throws -> Void)] = [
        ("setBounds", { $0.setBounds(Rect(1, 2, 3, 4), of: 1) }),
        ("setPosition", { $0.setPosition(Point(9, 9), of: 2) }),
        ("setAnchorPoint", { $0.setAnchorPoint(Point(0, 1), of: 3) }),
        ("setZPosition", { $0.setZPosition(42, of: 0) }),
        ("setAnchorPointZ", { $0.setAnchorPointZ(-3, of: 5) }),
        ("setTransform", { $0.setTransform(.perspective(distance: 100), of: 4) }),
        ("setAffineTransform", { $0.setAffineTransform(.rotation(radians: 1), of: 6) }),
        ("setSublayerTransform", { $0.setSublayerTransform(.scale(x: 3, y: 3), of: 0) }),
        ("setFrame", { $0.setFrame(Rect(5, 6, 70, 80), of: 3) }),
        ("setCenter", { $0.setCenter(Point(1, 1), of: 1) }),
        ("setContentOffset", { $0.setContentOffset(Point(0, 30), of: 5) }),
        ("scroll", { _ = try $0.scroll(5, to: Point(0, 10_000)) }),
        ("setScrollView", { $0.setScrollView(nil, of: 5) }),
        ("setGeometryFlipped", { $0.setGeometryFlipped(false, of: 1) }),
        ("setMasksToBounds", { $0.setMasksToBounds(true, of: 2) }),
        ("setHidden", { $0.setHidden(false, of: 6) }),
        ("setTransformLayer", { $0.setTransformLayer(false, of: 2) }),
        ("addLayer", { try $0.addLayer(superlayer: 3) }),
        ("addRoot", { try $0.addLayer() }),
        ("setParent", { try $0.insertSublayer(5, into: 3, at: 0) }),
        ("destroyLayer", { try $0.destroyLayer($0.rootIndices.last!) }),
        ("reserveCapacity", { $0.reserveCapacity(10_000) }),
        ("updateWorld", { _ = $0.updateWorld() }),
    ]

    func testACopyIsUnaffectedByEveryMutationOfTheOriginal() throws {
        for mutation in Self.mutations {
            var original = makeRichStore()
            let copy = original.copy()
            let before = StoreSnapshot(copy)
            let worldBefore = copy.referenceWorldTransforms()
            try mutation.apply(&original)
            XCTAssertEqual(StoreSnapshot(copy), before, mutation.name)
            let worldAfter = copy.referenceWorldTransforms()
            for layer in 0..<copy.count {
                XCTAssertEqual(worldAfter[layer], worldBefore[layer], "\(mutation.name): world of \(layer)")
            }
            // And the other way round: mutating the copy leaves the original alone.
            var second = original.copy()
            let originalSnapshot = StoreSnapshot(original)
            try mutation.apply(&second)
            XCTAssertEqual(StoreSnapshot(original), originalSnapshot, "\(mutation.name), copy mutated")
        }
        // The mutations really change something (else the test above proves nothing).
        for mutation in Self.mutations where !["reserveCapacity", "updateWorld"].contains(mutation.name) {
            var store = makeRichStore()
            try mutation.apply(&store)
            XCTAssertNotEqual(StoreSnapshot(store), StoreSnapshot(makeRichStore()), "\(mutation.name) changed nothing")
        }
    }

    /// The cached world transforms travel with the value: a copy taken after
    /// `updateWorld()` keeps returning its own, even when the original's cache is
    /// brought up to date after a change.
    func testWorldCachesAreCopiedNotShared() throws {
        var original = makeRichStore()
        let stale = original.updateWorld(options: .serial(.scalar))
        var copy = original.copy()
        original.setPosition(Point(1000, 1000), of: 0)
        let fresh = original.updateWorld(options: .serial(.scalar))
        XCTAssertNotEqual(fresh[0], stale[0])
        let copyWorld = copy.updateWorld(options: .serial(.scalar))
        for layer in 0..<copy.count { XCTAssertEqual(copyWorld[layer], stale[layer], "layer \(layer)") }
        // The copy's own change is tracked on its own, too.
        copy.setPosition(Point(-5, -5), of: 1)
        let copyUpdated = copy.updateWorld(options: .serial(.scalar))
        let reference = copy.referenceWorldTransforms()
        for layer in 0..<copy.count { XCTAssertEqual(copyUpdated[layer], reference[layer], "layer \(layer)") }
        XCTAssertEqual(original.updateWorld(options: .serial(.scalar))[1], fresh[1])
        // A copy taken with pending changes keeps them pending independently.
        var pending = original.copy()
        pending.setPosition(Point(7, 7), of: 2)
        let copyOfPending = pending.copy()
        var copyOfPendingMutable = copyOfPending.copy()
        _ = pending.updateWorld()
        let expected = copyOfPending.referenceWorldTransforms()
        let got = copyOfPendingMutable.updateWorld(options: .serial(.scalar))
        for layer in 0..<expected.count { XCTAssertEqual(got[layer], expected[layer]) }
    }

    func testStoreAndResultsAreSendable() {
        func requireSendable<T: ~Copyable & Sendable>(_: T.Type) {}
        requireSendable(LayerStore.self)
        requireSendable(WorldTransforms.self)
        requireSendable(FrameColumns.self)
        requireSendable(KernelOptions.self)
        requireSendable(LayerStoreError.self)
    }

    /// Eight stores processed at once from eight threads (each kernel given three
    /// threads: the frames of 17,000 layers, past `framesSplitMinimum` (16,384), and the
    /// six hit points, in chunks of 65,536 / 17,000 = 3, are split over them; it was
    /// 33,000 layers, twice the time): every result equals the serial one, bit for bit.
    /// The serial results are the scalar backend's, once per store (every backend gives
    /// the same bits, so each backend's concurrent results are held to them; the serial
    /// pass per backend was a third of this test's time).
    func testKernelsOnManyStoresAtOnce() throws {
        // A noncopyable store goes into an array inside a class, as an app holding several would.
        final class StoreBox: Sendable {
            let store: LayerStore
            init(_ store: consuming LayerStore) { self.store = store }
        }
        let count = 17_000
        XCTAssertGreaterThanOrEqual(count, LayerStore.framesSplitMinimum, "the frames must be split over threads")
        let stores = (0..<8).map { StoreBox(Self.makeRandomStore(seed: UInt64($0) + 100, count: count)) }
        struct Outcome: @unchecked Sendable {
            var frames: FrameColumns?
            var world = WorldTransforms()
            var hits: [Int?] = []
            var order: [Int] = []
        }
        @Sendable func run(_ store: borrowing LayerStore, _ options: KernelOptions) -> Outcome {
            var store = store.copy()
            let world = store.updateWorld(options: options)
            // A few points: each walks all the layers (a debug build visits ~1M per second).
            let points: [Point] = (0..<6).map { (k: Int) -> Point in
                let x = Double(k * 67 % 400)
                let y = Double(k * 131 % 800)
                return Point(x, y)
            }
            return Outcome(
                frames: store.frames(options: options),
                world: world,
                hits: store.hitTestIndices(points: points, in: world, options: options),
                order: store.drawOrderIndices())
        }
        let serial = stores.map { run($0.store, .serial(.scalar)) }
        for backend in Backend.allCases {
            let results = UnsafeMutableBufferPointer<Outcome>.allocate(capacity: stores.count)
            results.initialize(repeating: Outcome())
            // deallocate() alone would leak the outcomes' arrays (LeakSanitizer finds it).
            defer {
                _ = results.deinitialize()
                results.deallocate()
            }
            let sharedResults = SendableBuffer(results)
            DispatchQueue.concurrentPerform(iterations: stores.count) { index in
                sharedResults.buffer[index] = run(stores[index].store, KernelOptions(backend: backend, threads: 3))
            }
            for index in stores.indices {
                XCTAssertTrue(
                    results[index].frames!.isBitIdentical(to: serial[index].frames!), "\(backend) store \(index)")
                XCTAssertTrue(
                    worldsBitIdentical(results[index].world, serial[index].world), "\(backend) store \(index) world")
                XCTAssertEqual(results[index].hits, serial[index].hits, "\(backend) store \(index)")
                XCTAssertEqual(results[index].order, serial[index].order, "\(backend) store \(index)")
            }
        }
    }

    /// Copies of one store made and mutated on different threads at once: each thread's
    /// copy gets its own storage (the columns' copy-on-write must not race), the shared
    /// original is untouched.
    func testConcurrentMutationOfCopies() {
        let original = Self.makeRandomStore(seed: 9, count: 5_000)
        let before = StoreSnapshot(original)
        let results = UnsafeMutableBufferPointer<Double>.allocate(capacity: 8)
        results.initialize(repeating: 0)
        defer { results.deallocate() }
        let shared = SendableBuffer(results)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            var copy = original.copy()
            for layer in stride(from: thread, to: copy.count, by: 8) {
                copy.setPosition(Point(Double(thread), 0), of: layer)
            }
            _ = try? copy.addLayer(superlayer: 0)
            // What this thread wrote, read back through its own copy's world transforms:
            // layer `thread` is a root or not, either way its position is now (thread, 0).
            let world = copy.updateWorld(options: .serial(.c))
            let reference = copy.referenceWorldTransforms()
            let mine = stride(from: thread, to: original.count, by: 8)
            let ownWrites = mine.allSatisfy { copy.position(of: $0).x == Double(thread) }
            let consistent = (0..<copy.count).allSatisfy { world[$0] == reference[$0] }
            shared.buffer[thread] = ownWrites && consistent && copy.count == 5_001 ? 1 : 0
        }
        XCTAssertEqual(Array(results), Array(repeating: 1, count: 8))
        XCTAssertEqual(StoreSnapshot(original), before)
        XCTAssertEqual(original.count, 5_000)
    }

    /// A random forest with varied geometry, some 3D, some flags; parents first.
    static func makeRandomStore(seed: UInt64, count: Int) -> LayerStore {
        var generator = SplitMix64(seed: seed)
        var store = LayerStore(minimumCapacity: count)
        for layer in 0..<count {
            let parent: Int? =
                layer == 0 || Int.random(in: 0..<50, using: &generator) == 0
                ? nil : Int.random(in: Swift.max(0, layer - 20)..<layer, using: &generator)
            try! store.addLayer(superlayer: parent)
            store.setFrame(
                Rect(
                    Double.random(in: -50...350, using: &generator), Double.random(in: -50...750, using: &generator),
                    Double.random(in: 0...120, using: &generator), Double.random(in: 0...120, using: &generator)),
                of: layer)
            store.setZPosition(Double(Int.random(in: -3...3, using: &generator)), of: layer)
            switch Int.random(in: 0..<10, using: &generator) {
            case 0:
                store.setAffineTransform(.rotation(radians: Double.random(in: -3...3, using: &generator)), of: layer)
            case 1: store.setTransform(.rotation(radians: 0.4, x: 0, y: 1, z: 0), of: layer)
            case 2: store.setSublayerTransform(.perspective(distance: 800), of: layer)
            case 3: store.setMasksToBounds(true, of: layer)
            case 4: store.setGeometryFlipped(true, of: layer)
            default: break
            }
        }
        return store
    }
}

/// A buffer written at disjoint indices from `concurrentPerform` (each iteration owns
/// its slot), so sharing it is safe.
struct SendableBuffer<Element>: @unchecked Sendable {
    let buffer: UnsafeMutableBufferPointer<Element>
    init(_ buffer: UnsafeMutableBufferPointer<Element>) { self.buffer = buffer }
}
