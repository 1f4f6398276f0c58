import AllocationCounter
import CAffineKernels
import XCTest

@_spi(Testing) @testable import BatchGeometry

/// A frame loop that keeps its storage allocates nothing once warmed up (issue 10): the
/// process's heap allocations, on every thread, are counted (`Tests/AllocationCounter`
/// interposes malloc and friends) while N frames set a few properties, update the world
/// and run every per-frame query into caller-owned storage, and every step must count
/// zero. It runs in the unoptimized build `swift test` makes, which allocates more
/// readily than a release build (array for-in loops, option-set literals and local
/// functions that capture a `var` allocate there), and skips where nothing is counted
/// (a sanitizer's runtime owns malloc; other platforms).
final class FrameLoopAllocationTests: XCTestCase {
    /// The frame loop's steps, in order; `AllocationTally` counts each one apart.
    enum Step: Int, CaseIterable {
        case setters, updateWorld, computeWorldTransforms, computeFrames, computeWorldRects, computeClipRects
        case computeVisibility, hitTest, drawOrder
    }

    /// Skips unless allocations are counted in this build, and checks that they are: a
    /// fresh array's first append must count, so the zeros below cannot pass vacuously.
    static func requireAllocationCounter() throws {
        guard BGAllocationCounterIsActive() != 0 else {
            let reason = BGAllocationCounterInactiveReason().map { String(cString: $0) } ?? "unknown"
            throw XCTSkip("heap allocations are not counted in this build: \(reason)")
        }
        let before = BGAllocationCount()
        var fresh: [Int64] = []
        fresh.append(before)
        let counted = BGAllocationCount() - before
        withExtendedLifetime(fresh) {}
        XCTAssertGreaterThan(counted, 0, "a fresh array's append was not counted: the counter does not see malloc")
    }

    /// With `BATCHGEOMETRY_ALLOCATION_TRACE=1` in the environment, every allocation
    /// counted while tracing is on prints its call stack to standard error (addresses in
    /// the test executable: `llvm-symbolizer --obj=<xctest> <address - 1>` names them).
    static func traceAllocations(_ on: Bool) {
        if getenv("BATCHGEOMETRY_ALLOCATION_TRACE") != nil { BGAllocationTraceSetEnabled(on ? 1 : 0) }
    }

    /// The store every frame works on: a window with a masking scroll view of 300 cells
    /// of 8 items each (every third cell's items in reverse zPosition order, some items
    /// hidden), a container scrolled by its bounds origin, a card in perspective with a
    /// 3D-rotated badge (general layers), and a hidden overlay. 2,726 layers.
    struct Scene: ~Copyable {
        var store = LayerStore()
        var scrollView = LayerHandle(rawValue: 0)
        var container = LayerHandle(rawValue: 0)
        var cells: [LayerHandle] = []
        var items: [LayerHandle] = []
        /// Touches (world space): on cells, items, the card, and outside everything.
        var points: [Point] = []

        init() throws {
            let window = try store.addLayer()
            store.setFrame(Rect(0, 0, 375, 812), of: window)
            scrollView = try store.addLayer(superlayer: window)
            store.setFrame(Rect(0, 100, 375, 600), of: scrollView)
            store.setScrollView(ScrollViewState(contentSize: Size(375, 18_000)), of: scrollView)
            store.setMasksToBounds(true, of: scrollView)
            for row in 0..<300 {
                let cell = try store.addLayer(superlayer: scrollView)
                store.setFrame(Rect(0, Double(row) * 60, 375, 60), of: cell)
                if row % 10 == 0 { store.setMasksToBounds(true, of: cell) }
                cells.append(cell)
                for k in 0..<8 {
                    let item = try store.addLayer(superlayer: cell)
                    store.setFrame(Rect(Double(k) * 45 + 5, 5, 50, 50), of: item)
                    if row % 3 == 0 { store.setZPosition(Double(8 - k), of: item) }
                    if (row + k) % 17 == 0 { store.setHidden(true, of: item) }
                    items.append(item)
                }
            }
            container = try store.addLayer(superlayer: window)
            store.setFrame(Rect(0, 700, 375, 112), of: container)
            store.setMasksToBounds(true, of: container)
            for k in 0..<12 {
                let tab = try store.addLayer(superlayer: container)
                store.setFrame(Rect(Double(k) * 60, 10, 56, 90), of: tab)
            }
            let card = try store.addLayer(superlayer: window)
            store.setFrame(Rect(40, 20, 200, 70), of: card)
            var perspective = Transform3D.identity
            perspective.m34 = -1 / 500
            store.setSublayerTransform(perspective, of: card)
            let badge = try store.addLayer(superlayer: card)
            store.setFrame(Rect(10, 10, 50, 50), of: badge)
            store.setTransform(.rotation(radians: 0.5, x: 0, y: 1, z: 0), of: badge)
            let overlay = try store.addLayer(superlayer: window)
            store.setFrame(Rect(0, 0, 375, 812), of: overlay)
            store.setHidden(true, of: overlay)
            for k in 0..<8 {
                let child = try store.addLayer(superlayer: overlay)
                store.setFrame(Rect(Double(k) * 40, 300, 30, 30), of: child)
            }
            for k in 0..<16 {
                points.append(Point(Double(k) * 23 + 7, Double(k) * 47 + 110))
            }
            points.append(Point(60, 50))  // the card's badge
            points.append(Point(-10, -10))  // nothing
        }

        /// Frame `n`'s property changes: two items and a cell move, an item changes its
        /// zPosition (its sublayer list goes in and out of order), the container scrolls
        /// by its bounds origin, and every other frame the scroll view scrolls (its whole
        /// content is then dirty: the update propagates over the cached plan).
        mutating func change(frame n: Int) {
            store.setZPosition(Double(n % 3), of: items[(n * 29 + 3) % items.count])
            store.setPosition(Point(Double(n % 7) * 3 + 30, 30), of: items[(n * 37) % items.count])
            store.setPosition(Point(Double(n % 5) * 2 + 80, 28), of: items[(n * 53 + 11) % items.count])
            store.setPosition(Point(187.5 + Double(n % 3), Double((n * 13) % 300) * 60 + 30), of: cells[(n * 13) % 300])
            store.setBounds(Rect(Double(n % 4) * 20, 0, 375, 112), of: container)
            if n % 2 == 0 { store.setContentOffset(Point(0, Double(n) * 12.5), of: scrollView) }
        }
    }

    /// Every array a frame writes, kept from frame to frame.
    struct FrameStorage {
        var frames = FrameColumns(count: 0)
        var world = WorldTransforms()
        var rects: [RectEdges] = []
        var clips: [RectEdges?] = []
        var visible: [Bool] = []
        var hits: [LayerHandle?] = []
        var order: [LayerHandle] = []
        var scratch = QueryScratch()
    }

    /// Allocations per step, summed over frames (storage allocated before counting).
    struct AllocationTally {
        var counts = [Int64](repeating: 0, count: Step.allCases.count)
        var last = BGAllocationCount()

        /// Starts counting the next step from now.
        mutating func start() { last = BGAllocationCount() }

        /// Adds what was allocated since the previous mark to `step`.
        mutating func mark(_ step: Step) {
            let now = BGAllocationCount()
            counts[step.rawValue] += now - last
            last = BGAllocationCount()
        }

        var description: String {
            Step.allCases.map { "\($0): \(counts[$0.rawValue])" }.joined(separator: ", ")
        }
    }

    /// One frame: the changes, the world update, then every query into `storage`.
    static func runFrame(
        _ n: Int, _ scene: inout Scene, _ storage: inout FrameStorage, _ tally: inout AllocationTally,
        options: KernelOptions
    ) {
        tally.start()
        scene.change(frame: n)
        tally.mark(.setters)
        let world = scene.store.updateWorld(options: options)
        tally.mark(.updateWorld)
        // A second snapshot, in storage the caller keeps (the plan is current, so this is
        // one pass over it); the queries alternate between the two.
        scene.store.computeWorldTransforms(into: &storage.world, options: options)
        tally.mark(.computeWorldTransforms)
        scene.store.computeFrames(into: &storage.frames, options: options)
        tally.mark(.computeFrames)
        let snapshot = n % 2 == 0 ? world : storage.world
        scene.store.computeWorldRects(in: snapshot, into: &storage.rects, options: options)
        tally.mark(.computeWorldRects)
        scene.store.computeClipRects(worldRects: storage.rects, into: &storage.clips, options: options)
        tally.mark(.computeClipRects)
        scene.store.computeVisibility(
            worldRects: storage.rects, clipRects: storage.clips, viewport: Rect(0, 0, 375, 812),
            into: &storage.visible, options: options)
        tally.mark(.computeVisibility)
        scene.store.hitTest(
            points: scene.points, in: snapshot, rule: n % 3 == 0 ? .view : .layer, into: &storage.hits,
            scratch: &storage.scratch, options: options)
        tally.mark(.hitTest)
        scene.store.drawOrder(into: &storage.order, scratch: &storage.scratch)
        tally.mark(.drawOrder)
    }

    /// One warm-up frame, then 12 counted frames, on one thread with each backend: no
    /// step allocates. The frames take both incremental paths of `updateWorld()` (the
    /// range walk, and the dirty entries then the full pass over the cached plan).
    func testFrameLoopAllocatesNothingOnOneThread() throws {
        try Self.requireAllocationCounter()
        for backend in Backend.allCases {
            var scene = try Scene()
            XCTAssertGreaterThan(
                scene.store.hierarchy.zOrderInversions, 0, "some sublayer lists should be out of z order")
            scene.store.updateWorld(options: .serial(backend))
            var storage = FrameStorage()
            var tally = AllocationTally()
            // Warm-up: one frame of each kind (a scroll, then moves only), so that every
            // array has grown to what such a frame needs.
            for n in 0..<2 { Self.runFrame(n, &scene, &storage, &tally, options: .serial(backend)) }
            tally = AllocationTally()
            var paths = [WorldUpdatePath](repeating: .none, count: 12)
            Self.traceAllocations(true)
            for n in 2..<14 {
                Self.runFrame(n, &scene, &storage, &tally, options: .serial(backend))
                paths[n - 2] = scene.store.caches.lastWorldUpdatePath
            }
            Self.traceAllocations(false)
            XCTAssertEqual(
                tally.counts, Array(repeating: 0, count: Step.allCases.count), "\(backend): \(tally.description)")
            XCTAssertTrue(paths.contains(.rangeWalk), "\(backend): \(paths)")
            XCTAssertTrue(paths.contains(.dirtyEntriesThenFullPropagation), "\(backend): \(paths)")
            // The storage holds real answers: the same as the convenient forms'.
            let world = scene.store.updateWorld(options: .serial(backend))
            XCTAssertEqual(storage.rects, scene.store.worldRects(in: world, options: .serial(backend)))
            XCTAssertEqual(storage.order, scene.store.drawOrder())
            XCTAssertTrue(storage.visible.contains(true) && storage.hits.contains { $0 != nil }, "\(backend)")
        }
    }

    /// A wide store (40,000 layers, its last level wider than 32,768) whose batch calls
    /// are split over threads: on one thread its frames allocate nothing either; over two
    /// threads, the allocations `DispatchQueue.concurrentPerform` and the level-parallel
    /// paths make are measured and reported (not asserted: they depend on libdispatch).
    func testWideStoreFrameLoopOverThreads() throws {
        try Self.requireAllocationCounter()
        var scene = try Scene()
        scene.store = makeWideStore(count: 40_000)
        for i in stride(from: 3, to: 40_000, by: 97) { scene.store.setMasksToBounds(true, of: i) }
        for i in stride(from: 11, to: 40_000, by: 389) { scene.store.setHidden(true, of: i) }
        for i in stride(from: 5, to: 40_000, by: 23) { scene.store.setZPosition(Double(i % 5), of: i) }
        scene.scrollView = scene.store.handle(atSlot: 1)
        scene.container = scene.store.handle(atSlot: 2)
        scene.cells = (3..<300).map { scene.store.handle(atSlot: $0) }
        scene.items = (5_000..<5_200).map { scene.store.handle(atSlot: $0) }
        var report: [String] = []
        for threads in [1, 2] {
            let options = KernelOptions(backend: .c, threads: threads)
            var storage = FrameStorage()
            var tally = AllocationTally()
            for n in 0..<2 { Self.runFrame(n, &scene, &storage, &tally, options: options) }
            tally = AllocationTally()
            if threads == 1 { Self.traceAllocations(true) }
            for n in 2..<6 { Self.runFrame(n, &scene, &storage, &tally, options: options) }
            Self.traceAllocations(false)
            report.append("\(threads) thread(s), 4 frames: \(tally.description)")
            if threads == 1 {
                XCTAssertEqual(tally.counts, Array(repeating: 0, count: Step.allCases.count), tally.description)
            }
        }
        print("FrameLoopAllocationTests, wide store of 40,000 layers:\n  " + report.joined(separator: "\n  "))
    }

    /// The output-sensitive frame (issue 12): edits (scrolls, positions, zPositions,
    /// hidden flags), then `visibleLayers(in:into:)` and culled hit tests, allocate
    /// nothing once warmed up, on a tree with a wide list (its R-tree refitted in place)
    /// and a sublayer list out of zPosition order.
    func testOutputSensitiveFrameAllocatesNothing() throws {
        try Self.requireAllocationCounter()
        var store = LayerStore()
        let (list, cards) = try Self.addCardList(to: &store)
        for (k, card) in cards.enumerated() { store.setZPosition(Double(k % 3), of: card) }
        var visible = VisibleLayers()
        var hits: [LayerHandle?] = []
        var opacities: [Double] = []
        let points = [Point(10, 10), Point(200, 450), Point(390, 790)]
        // A batch large enough to be walked in Z order (`HitPointOrder`): its buffers too.
        let many: [Point] = (0..<100).map { (k: Int) -> Point in
            Point(x: Double((k * 37) % 400), y: Double((k * 53) % 800))
        }
        func frame(_ n: Int) {
            store.setContentOffset(Point(0, Double(n * 37 % 4000)), of: list)
            store.setPosition(Point(200, Double(n * 100 + 45)), of: cards[n % 500])
            store.setZPosition(Double(n % 4), of: cards[(n * 7) % 500])
            store.setHidden(n % 2 == 0, of: cards[(n * 11) % 500])
            // A fade and a touch toggle per frame: the view rule's skips and world opacity.
            store.setOpacity(Float(n % 5) * 0.25, of: cards[(n * 13) % 500])
            store.setUserInteractionEnabled(n % 3 != 0, of: cards[(n * 17) % 500])
            store.visibleLayers(in: Rect(0, 0, 400, 800), into: &visible)
            store.hitTest(points: points, rule: .layer, into: &hits)
            store.hitTest(points: points, rule: .view, into: &hits)
            store.hitTest(points: many, rule: .layer, into: &hits)
            store.hitTest(points: many, rule: .view, into: &hits)
            _ = store.hitTest(Point(100, 100), rule: .view)
            store.worldOpacities(into: &opacities)
            _ = store.worldOpacity(of: cards[n % 500])
        }
        for n in 0..<20 { frame(n) }
        // BATCHGEOMETRY_ALLOCATION_TRACE=1 prints the call stack of each allocation of one frame.
        Self.traceAllocations(true)
        frame(20)
        Self.traceAllocations(false)
        let before = BGAllocationCount()
        for n in 20..<60 { frame(n) }
        XCTAssertEqual(BGAllocationCount() - before, 0, "allocations in 40 warmed-up frames")
        XCTAssertGreaterThan(visible.count, 2)
    }

    /// The frame loop with animations (issue 23; Animations.md's loop): undo the previous
    /// sample on the presentation store (`restoreModelValues`), edit the model and the
    /// presentation store alike, sample 100 repeating animations (basic with a timing
    /// function, spring, keyframes, opacity, whole transform), `applyPresentation`, then
    /// `visibleLayers(in:into:)` and culled hit tests on the presentation store: nothing
    /// is allocated once warmed up.
    func testAnimatedFrameLoopAllocatesNothing() throws { try animatedFrameLoop(fused: false) }

    /// The same loop with the previous sample kept and `updatePresentation(from:to:model:)`
    /// in place of the restore and the apply: nothing is allocated once warmed up.
    func testFusedAnimatedFrameLoopAllocatesNothing() throws { try animatedFrameLoop(fused: true) }

    /// The fused loop with the sample culled to the viewport
    /// (`sample(at:model:into:culledTo:)`): nothing is allocated once warmed up, and the
    /// cards out of view are culled.
    func testCulledAnimatedFrameLoopAllocatesNothing() throws { try animatedFrameLoop(fused: true, culled: true) }

    private func animatedFrameLoop(fused: Bool, culled: Bool = false) throws {
        try Self.requireAllocationCounter()
        var model = LayerStore()
        let (list, cards) = try Self.addCardList(to: &model)
        var animations = AnimationStore()
        for k in 0..<100 { try animations.add(Self.repeatingAnimation(k), to: cards[k * 3], in: model) }
        var screen = model.copy()
        var values = PresentationValues()
        var previous = PresentationValues()
        var visible = VisibleLayers()
        var hits: [LayerHandle?] = []
        let points = [Point(10, 10), Point(200, 450), Point(390, 790)]
        // Allocations per step: restore, edits, sample, apply, queries.
        var tally = [Int64](repeating: 0, count: 5)
        func frame(_ n: Int) throws {
            var last = BGAllocationCount()
            func mark(_ step: Int) {
                let now = BGAllocationCount()
                tally[step] += now - last
                last = now
            }
            if fused { swap(&previous, &values) } else { screen.restoreModelValues(of: values, from: model) }
            mark(0)
            // The scroll repeats every 20 frames, so warm-up sees every visible list.
            let offset = Point(0, Double(n % 20 * 197))
            model.setContentOffset(offset, of: list)
            screen.setContentOffset(offset, of: list)
            mark(1)
            if culled {
                try animations.sample(at: Double(n) / 60, model: model, into: &values, culledTo: Rect(0, 0, 400, 800))
            } else {
                try animations.sample(at: Double(n) / 60, model: model, into: &values)
            }
            mark(2)
            if fused {
                screen.updatePresentation(from: previous, to: values, model: model)
            } else {
                screen.applyPresentation(values)
            }
            mark(3)
            screen.visibleLayers(in: Rect(0, 0, 400, 800), into: &visible)
            screen.hitTest(points: points, rule: .layer, into: &hits)
            mark(4)
        }
        for n in 0..<40 { try frame(n) }
        for step in 0..<5 { tally[step] = 0 }
        for n in 40..<80 { try frame(n) }
        XCTAssertEqual(
            tally, [0, 0, 0, 0, 0],
            "allocations in 40 warmed-up animated frames: restore, edits, sample, apply, queries")
        XCTAssertGreaterThan(visible.count, 2)
        if culled {
            // Cards 0, 3, … 297 animate; about nine of the 500 show in the 800-point view.
            XCTAssertGreaterThan(animations.lastCulledCount, 40, "the cards out of view are culled")
            XCTAssertLessThan(values.count, 60)
            return
        }
        XCTAssertEqual(values.count, 100, "every animation shows")
        // The presentation store shows the sample; the model keeps its values.
        let moved = cards[0]
        XCTAssertEqual(screen.position(of: moved), values.values(of: moved, model: model)?.position)
        XCTAssertEqual(model.position(of: moved), Point(200, 45))
        XCTAssertNotEqual(screen.position(of: moved), model.position(of: moved))
        screen.restoreModelValues(of: values, from: model)
        XCTAssertEqual(screen.position(of: moved), Point(200, 45))
    }

    /// A 400×800 window with one masking list of 500 cards of 400×90, 100 points apart:
    /// the scene of the output-sensitive and animated frame loops. Returns the list and
    /// its cards.
    static func addCardList(to store: inout LayerStore) throws -> (LayerHandle, [LayerHandle]) {
        let window = try store.addLayer()
        store.setBounds(Rect(0, 0, 400, 800), of: window)
        let list = try store.addLayer(superlayer: window)
        store.setFrame(Rect(0, 0, 400, 800), of: list)
        store.setMasksToBounds(true, of: list)
        var cards: [LayerHandle] = []
        for k in 0..<500 {
            let card = try store.addLayer(superlayer: list)
            store.setFrame(Rect(0, Double(k) * 100, 400, 90), of: card)
            cards.append(card)
        }
        return (list, cards)
    }

    /// Animation `k` of the animated frame loop: repeating for ever, autoreversing.
    static func repeatingAnimation(_ k: Int) -> Animation {
        var timing = AnimationTiming()
        timing.duration = 0.4 + Double(k % 7) * 0.05
        timing.repeatCount = .infinity
        timing.autoreverses = true
        switch k % 5 {
        case 0:
            return Animation(
                keyPath: .position, content: .basic(from: [20, -10], to: [0, 0], by: nil), timing: timing,
                timingFunction: TimingFunction(.easeInEaseOut), isAdditive: true)
        case 1:
            return Animation(
                keyPath: .transformScale, content: .spring(Spring(damping: 12), from: [0.9], to: [1], by: nil),
                timing: timing)
        case 2:
            let keyframes = Keyframes(
                values: [[0, 0], [10, 5], [0, 0]], keyTimes: [0, 0.4, 1],
                timingFunctions: [TimingFunction(.easeIn), TimingFunction(.easeOut)])
            return Animation(keyPath: .position, content: .keyframe(keyframes), timing: timing, isAdditive: true)
        case 3:
            return Animation(keyPath: .opacity, content: .basic(from: [0.2], to: [1], by: nil), timing: timing)
        default:
            let turn = Transform3D.rotation(radians: 0.3, x: 0, y: 0, z: 1)
            return Animation(
                keyPath: .transform, content: .basic(from: Transform3D.identity.rowMajor, to: turn.rowMajor, by: nil),
                timing: timing)
        }
    }

    /// Structure edits in a frame loop (issue 22): a card with five sublayers inserted at
    /// an index (`addLayer(superlayer:at:)`), another destroyed with its subtree, one
    /// moved within its list, a panel detached and re-attached, then the frame query and
    /// a culled hit test. Destroyed slots are reused, so once warmed up nothing allocates.
    /// (Fewer than 64 sublayers: no R-tree; `testStructureEditsInWideListsAllocateNothingOnceWarm`
    /// has two.)
    func testStructureEditsAllocateNothingOnceWarm() throws {
        try Self.requireAllocationCounter()
        var store = LayerStore()
        let window = try store.addLayer()
        store.setBounds(Rect(0, 0, 400, 800), of: window)
        let list = try store.addLayer(superlayer: window)
        store.setFrame(Rect(0, 0, 400, 800), of: list)
        let panel = try store.addLayer(superlayer: window)
        store.setFrame(Rect(0, 700, 400, 100), of: panel)
        for k in 0..<40 { try addCard(&store, under: list, at: k) }
        var visible = VisibleLayers()
        func frame(_ n: Int) throws {
            let cards = store.sublayerCount(of: list)
            try addCard(&store, under: list, at: (n * 7) % (cards + 1))
            let doomed = try XCTUnwrap(store.sublayer(at: (n * 13) % (cards + 1), of: list))
            try store.destroyLayer(doomed)
            let moved = try XCTUnwrap(store.sublayer(at: (n * 3) % cards, of: list))
            try store.insertSublayer(moved, into: list, at: (n * 5) % cards)
            if n % 2 == 0 {
                try store.removeFromSuperlayer(panel)
            } else {
                try store.insertSublayer(panel, into: window, at: 0)
            }
            store.visibleLayers(in: Rect(0, 0, 400, 800), into: &visible)
            _ = store.hitTest(Point(200, 300), rule: .layer)
        }
        for n in 0..<20 { try frame(n) }
        Self.traceAllocations(true)
        try frame(20)
        Self.traceAllocations(false)
        let before = BGAllocationCount()
        for n in 21..<61 { try frame(n) }
        XCTAssertEqual(BGAllocationCount() - before, 0, "allocations in 40 warmed-up frames of structure edits")
        XCTAssertEqual(store.sublayerCount(of: list), 40)
        XCTAssertGreaterThan(visible.count, 10)
    }

    /// The same structure edits in two wide lists (100 cards each, over the 64 that get an
    /// R-tree), some cards out of zPosition order: each frame a card inserted at an index
    /// and one destroyed, one moved within its list and one to the other list, a
    /// zPosition changed, a panel detached or re-attached, then the frame query and hit
    /// tests under both rules. The indexes take and free leaves, and are rebuilt into
    /// their own arrays when worn, so once warmed up nothing allocates (issue 22 item 1).
    func testStructureEditsInWideListsAllocateNothingOnceWarm() throws {
        try Self.requireAllocationCounter()
        var store = LayerStore()
        let window = try store.addLayer()
        store.setBounds(Rect(0, 0, 800, 800), of: window)
        var lists: [LayerHandle] = []
        for k in 0..<2 {
            let list = try store.addLayer(superlayer: window)
            store.setFrame(Rect(Double(k) * 400, 0, 400, 800), of: list)
            lists.append(list)
            for row in 0..<100 { try addCard(&store, under: list, at: row) }
        }
        let panel = try store.addLayer(superlayer: window)
        store.setFrame(Rect(0, 700, 800, 100), of: panel)
        var visible = VisibleLayers()
        func frame(_ n: Int) throws {
            let (list, other) = (lists[n % 2], lists[(n + 1) % 2])
            let cards = store.sublayerCount(of: list)
            try addCard(&store, under: list, at: (n * 7) % (cards + 1))
            try store.destroyLayer(try XCTUnwrap(store.sublayer(at: (n * 13) % (cards + 1), of: list)))
            let moved = try XCTUnwrap(store.sublayer(at: (n * 3) % cards, of: list))
            try store.insertSublayer(moved, into: list, at: (n * 5) % cards)
            let across = try XCTUnwrap(store.sublayer(at: (n * 11) % cards, of: list))
            try store.insertSublayer(across, into: other, at: (n * 17) % store.sublayerCount(of: other))
            let raised = try XCTUnwrap(store.sublayer(at: (n * 19) % store.sublayerCount(of: other), of: other))
            store.setZPosition(Double(n % 3) - 1, of: raised)
            if n % 2 == 0 {
                try store.removeFromSuperlayer(panel)
            } else {
                try store.insertSublayer(panel, into: window, at: 0)
            }
            store.visibleLayers(in: Rect(0, 0, 800, 800), into: &visible)
            _ = store.hitTest(Point(200, 300), rule: .layer)
            _ = store.hitTest(Point(600, 300), rule: .view)
        }
        for n in 0..<40 { try frame(n) }
        XCTAssertGreaterThanOrEqual(store.caches.subtreeBounds.indexSlot[lists[0].index], 0, "the list has an R-tree")
        XCTAssertTrue(store.caches.drawOrderCache.isBuilt, "some list is out of zPosition order")
        Self.traceAllocations(true)
        try frame(40)
        Self.traceAllocations(false)
        let before = BGAllocationCount()
        for n in 41..<101 { try frame(n) }
        XCTAssertEqual(BGAllocationCount() - before, 0, "allocations in 60 warmed-up frames of wide-list edits")
        XCTAssertEqual(store.sublayerCount(of: lists[0]) + store.sublayerCount(of: lists[1]), 200)
        XCTAssertGreaterThan(visible.count, 10)
        XCTAssertEqual(store._invariantViolations(), [])
    }

    /// Growth within the reserved capacity (issue 22 item 3): a store made with
    /// `LayerStore(minimumCapacity:)` for more layers than it holds, warmed up by frames
    /// that add a card and destroy it, then frames that each add a card of six layers (so new slots at the end of every column and
    /// every per-layer cache, none reused), move a card between two wide lists, change
    /// a zPosition (so the drawing-order cache is built and grows too), and run the frame
    /// query and hit tests. Every cache built by the first query reserved the store's
    /// capacity, not `count`, so the growing frames allocate nothing.
    func testGrowthWithinTheReservedCapacityAllocatesNothing() throws {
        try Self.requireAllocationCounter()
        var store = LayerStore(minimumCapacity: 2_400)
        let window = try store.addLayer()
        store.setBounds(Rect(0, 0, 800, 800), of: window)
        var lists: [LayerHandle] = []
        for k in 0..<2 {
            let list = try store.addLayer(superlayer: window)
            store.setFrame(Rect(Double(k) * 400, 0, 400, 800), of: list)
            lists.append(list)
            for row in 0..<100 { try addCard(&store, under: list, at: row) }
        }
        // The new cards go off screen, 40 to a shelf (under the 64 that get an R-tree,
        // whose rebuild would take arrays sized by the list), so the result keeps its size.
        var shelves: [LayerHandle] = []
        for k in 0..<4 {
            let shelf = try store.addLayer(superlayer: window)
            store.setFrame(Rect(0, 2_000 + Double(k) * 100, 800, 100), of: shelf)
            shelves.append(shelf)
        }
        shelves.reserveCapacity(4)
        var visible = VisibleLayers()
        func frame(_ n: Int) throws {
            // The warm-up frames add a card and destroy it (its slots are reused, so the
            // store does not grow, but the per-frame scratch sees a frame's marks); then
            // every slot is new.
            let shelf = shelves[n > 20 ? (n - 21) / 40 : 0]
            try addCard(&store, under: shelf, at: store.sublayerCount(of: shelf))
            let (list, other) = (lists[n % 2], lists[(n + 1) % 2])
            let moved = try XCTUnwrap(store.sublayer(at: (n * 11) % store.sublayerCount(of: list), of: list))
            try store.insertSublayer(moved, into: other, at: (n * 17) % store.sublayerCount(of: other))
            store.setZPosition(Double(n % 3) - 1, of: try XCTUnwrap(store.sublayer(at: (n * 19) % 90, of: other)))
            store.visibleLayers(in: Rect(0, 0, 800, 800), into: &visible)
            _ = store.hitTest(Point(200, 300), rule: .layer)
            _ = store.hitTest(Point(600, 300), rule: .view)
            if n <= 20 {
                try store.destroyLayer(try XCTUnwrap(store.sublayer(at: store.sublayerCount(of: shelf) - 1, of: shelf)))
            }
        }
        for n in 0..<20 { try frame(n) }
        XCTAssertTrue(store.caches.drawOrderCache.isBuilt, "some list is out of zPosition order")
        Self.traceAllocations(true)
        try frame(20)
        Self.traceAllocations(false)
        let (slotsBefore, layersBefore) = (store.count, store.layerCount)
        let before = BGAllocationCount()
        for n in 21..<160 { try frame(n) }  // from 1,207 layers to 2,041
        XCTAssertEqual(BGAllocationCount() - before, 0, "allocations in 139 warmed-up frames that grow the store")
        XCTAssertEqual(store.layerCount, layersBefore + 139 * 6, "every frame added six layers")
        XCTAssertGreaterThanOrEqual(store.count, slotsBefore + 138 * 6, "all but the first in new slots")
        XCTAssertLessThanOrEqual(store.count, 2_400)
        XCTAssertGreaterThan(visible.count, 10)
        XCTAssertEqual(store._invariantViolations(), [])
    }

    /// Growth past an exact reservation of mapped columns (issue 22 item 3; Benchmarks/
    /// KERNELS.md, "Growth opened ahead"): a store of 542,701 layers, made with
    /// `LayerStore(minimumCapacity:)` for exactly its layers, so that every per-layer
    /// column and cache and the subtree bounds' and drift table's side tables are
    /// mappings (256 KiB or more) whose doubling stays inside their reservation (a 4-byte
    /// column of 1–2 MiB would still move out of its 2 MiB one), built and warmed up with
    /// `warmUp(in:into:)`. The adds that cross the capacity grow every one of them (the
    /// side tables by more than a doubling) into room their allocation or the build
    /// opened ahead: no allocation, and no mapping made, moved or grown by a system call.
    /// Where columns are mapped (Linux, glibc, no sanitizer: where the allocation counter
    /// runs).
    func testGrowthPastAnExactReservationOfMappedColumnsAllocatesNothing() throws {
        try Self.requireAllocationCounter()
        let (lists, cards) = (2_700, 100)
        var store = LayerStore(minimumCapacity: 1 + lists * (1 + 2 * cards))
        let window = try store.addLayer()
        store.setFrame(Rect(0, 0, 800, 800), of: window)
        var shelves: [LayerHandle] = []
        for k in 0..<lists {
            let list = try store.addLayer(superlayer: window)
            store.setFrame(Rect(0, Double(k) * 800, 400, 800), of: list)
            shelves.append(list)
            for row in 0..<cards {
                let card = try store.addLayer(superlayer: list)
                store.setFrame(Rect(0, Double(row) * 8, 400, 8), of: card)
                store.setFrame(Rect(10, 1, 40, 6), of: try store.addLayer(superlayer: card))
            }
        }
        let capacity = store.layerCapacity
        XCTAssertEqual(store.count, capacity, "reserved exactly")
        var visible = VisibleLayers()
        store.warmUp(in: Rect(0, 0, 800, 800), into: &visible)
        var (allocations, mappings) = (0, 0)
        for n in 0..<12 {
            let before = (BGAllocationCount(), BGColumnMappingCount())
            let card = try store.addLayer(superlayer: shelves[n % 2])
            allocations += Int(BGAllocationCount() - before.0)
            mappings += Int(BGColumnMappingCount() - before.1)
            store.setFrame(Rect(0, Double(100 + n) * 8, 400, 8), of: card)
            store.visibleLayers(in: Rect(0, 0, 800, 800), into: &visible)
        }
        XCTAssertGreaterThan(store.layerCapacity, capacity, "the store grew past its reservation")
        XCTAssertEqual(mappings, 0, "mappings made, moved or grown by a system call in the adds")
        XCTAssertEqual(allocations, 0, "allocations in the adds that grow the store")
        XCTAssertEqual(store.count, capacity + 12)
        XCTAssertGreaterThan(visible.count, 10)
    }

    /// A 800×800 window over eight wide masking lists side by side (100 cards each, over
    /// the 64 that get an R-tree), built in the empty `store` and warmed up: the store of
    /// the two loops below. Returns the lists.
    private func addMaskingLists(to store: inout LayerStore) throws -> [LayerHandle] {
        let window = try store.addLayer()
        store.setBounds(Rect(0, 0, 800, 800), of: window)
        var lists: [LayerHandle] = []
        for k in 0..<8 {
            let list = try store.addLayer(superlayer: window)
            store.setFrame(Rect(Double(k) * 100, 0, 100, 800), of: list)
            store.setMasksToBounds(true, of: list)
            lists.append(list)
            for row in 0..<100 { try addCard(&store, under: list, at: row) }
        }
        store.warmUp()
        return lists
    }

    /// A list's parked lists used for the first time after the warm-up (issue 22: what
    /// batchbench's live scripts allocated in, once per list and per new longest frame of
    /// a list): eight wide masking lists (100 cards each, over the 64 that get an
    /// R-tree), `warmUp()` and one frame on the first list; then each frame relays out
    /// the next list (every card moves: the moves wait in the list's drifting list),
    /// resizes some of its cards (they wait in its other parked list) and raises one out
    /// of zPosition order, then runs the frame query and hit tests. Those lists, the
    /// drift candidates and the walks' candidate stacks are reserved when the indexes are
    /// built, so a frame that parks in a list for the first time allocates nothing.
    func testFirstParkingInEachListAllocatesNothing() throws {
        try Self.requireAllocationCounter()
        var store = LayerStore()
        let lists = try addMaskingLists(to: &store)
        var visible = VisibleLayers()
        var hits: [LayerHandle?] = [nil, nil, nil]
        func frame(_ n: Int) throws {
            let list = lists[n % lists.count]
            var k = 0
            while k < store.sublayerCount(of: list) {  // not `for in`: unoptimized, it allocates
                let card = try XCTUnwrap(store.sublayer(at: k, of: list))
                store.setPosition(Point(200, Double(k % 8) * 90 + 45 + Double(n % 3) * 7), of: card)
                if k % 10 == n % 10 { store.setBounds(Rect(0, 0, 400, 80 + Double(n % 4)), of: card) }
                k += 1
            }
            store.setZPosition(1, of: try XCTUnwrap(store.sublayer(at: (n * 7) % 100, of: list)))
            // The world update a renderer makes: it consumes the setters' marks, which
            // would otherwise pile up (each layer once) across the frames.
            _ = store.updateWorld(options: .serial(nil))
            store.visibleLayers(in: Rect(0, 0, 800, 800), into: &visible)
            hits[0] = store.hitTest(Point(Double(n % 8) * 100 + 50, 300), rule: .layer)
            hits[1] = store.hitTest(Point(Double(n % 8) * 100 + 20, 700), rule: .view)
            hits[2] = store.hitTest(Point(Double(n % 8) * 100 + 90, 50), rule: .layer)
        }
        try frame(0)
        Self.traceAllocations(true)
        let before = BGAllocationCount()
        for n in 1..<17 { try frame(n) }
        let allocated = BGAllocationCount() - before
        Self.traceAllocations(false)
        XCTAssertEqual(allocated, 0, "allocations in 16 frames that park in lists the warm-up did not")
        XCTAssertGreaterThan(visible.count, 100)
        XCTAssertTrue(hits.contains { $0 != nil })
        XCTAssertEqual(store._invariantViolations(), [])
    }

    /// A frame loop that never updates the world (an engine that draws from the frame
    /// query and `computeFrames`, not from world transforms): each frame relays out one of
    /// eight wide masking lists and resizes some of its cards, then runs the frame query,
    /// hit tests and `computeFrames(into:)`. The change tracker's list of dirty layers
    /// then grows across frames, each layer once, up to the quarter of the store past
    /// which the next update is a full pass anyway; it was reserved for that many, so no
    /// frame allocates, and the update that finally comes equals a full pass.
    func testFramesWithoutAWorldUpdateAllocateNothing() throws {
        try Self.requireAllocationCounter()
        var store = LayerStore()
        let lists = try addMaskingLists(to: &store)
        var visible = VisibleLayers()
        var frames = FrameColumns(count: 0)
        var hits = 0
        func frame(_ n: Int) throws {
            let list = lists[n % lists.count]
            var k = 0
            while k < store.sublayerCount(of: list) {  // not `for in`: unoptimized, it allocates
                let card = try XCTUnwrap(store.sublayer(at: k, of: list))
                store.setPosition(Point(200, Double(k % 8) * 90 + 45 + Double(n % 3) * 7), of: card)
                if k % 10 == n % 10 { store.setBounds(Rect(0, 0, 400, 80 + Double(n % 4)), of: card) }
                // A part of each card too: more than a quarter of the store changes
                // before the loop ends.
                store.setPosition(Point(30, 40 + Double(n)), of: try XCTUnwrap(store.sublayer(at: 0, of: card)))
                k += 1
            }
            store.visibleLayers(in: Rect(0, 0, 800, 800), into: &visible)
            if store.hitTest(Point(Double(n % 4) * 100 + 50, 300), rule: .layer) != nil { hits += 1 }
            if store.hitTest(Point(Double(n % 4) * 100 + 20, 350), rule: .view) != nil { hits += 1 }
            store.computeFrames(into: &frames, options: .serial(nil))
        }
        try frame(0)
        Self.traceAllocations(true)
        let before = BGAllocationCount()
        for n in 1..<40 { try frame(n) }
        let allocated = BGAllocationCount() - before
        Self.traceAllocations(false)
        XCTAssertEqual(allocated, 0, "allocations in 39 frames that mark layers and never update the world")
        XCTAssertTrue(store.caches.changes.hasChanges)
        XCTAssertLessThanOrEqual(store.caches.changes.dirtyLayers.count, store.count / 4)
        XCTAssertGreaterThan(visible.count, 100)
        XCTAssertGreaterThan(hits, 0, "hits: \(hits)")
        XCTAssertEqual(frames.x.count, store.count)
        let world = store.updateWorld(options: .serial(.scalar))
        var fresh = store.copy()
        fresh.invalidateWorld()
        XCTAssertTrue(worldsBitIdentical(world, fresh.worldTransforms(options: .serial(.scalar))))
        XCTAssertEqual(store._invariantViolations(), [])
    }

    /// Growth by remapping (issue 22 item 3): one layer added at a time, each followed by
    /// a frame query, in a store that reserved nothing, to past twice its capacity (two
    /// growths). Once warm, only the add that finds the columns full allocates, once
    /// per per-layer column and cache it grows (a realloc below 256 KiB, a mapping grown above:
    /// never a copy of an array), and every other add and every query allocates nothing.
    func testGrowthAllocatesOnlyInTheAddThatCrossesTheCapacity() throws {
        try Self.requireAllocationCounter()
        var store = LayerStore()
        let (list, cards) = try Self.addCardList(to: &store)
        store.setZPosition(1, of: cards[3])  // a list out of zPosition order: the drawing-order cache is built
        let window = try XCTUnwrap(store.superlayer(of: list))
        let capacity = store.layerCapacity
        var visible = VisibleLayers()
        // Shelves of 32 layers, 32 shelves to a group, off screen: no list reaches the 64
        // sublayers that get an R-tree, whose rebuilds would allocate.
        var (group, shelf, shelves) = (window, list, 32)
        var (growths, adds) = (0, 0)
        while store.count < 2 * capacity + 300 {
            let (before, capacityBefore) = (BGAllocationCount(), store.layerCapacity)
            if store.count % 32 == 0 {
                if shelves == 32 {
                    group = try store.addLayer(superlayer: window)
                    store.setFrame(Rect(0, 2_000, 400, 100), of: group)
                    shelves = 0
                }
                shelf = try store.addLayer(superlayer: group)
                shelves += 1
            }
            let layer = try store.addLayer(superlayer: shelf)
            store.setFrame(Rect(0, 0, 40, 40), of: layer)
            store.visibleLayers(in: Rect(0, 0, 400, 800), into: &visible)
            let allocated = BGAllocationCount() - before
            let grew = store.layerCapacity != capacityBefore
            adds += 1
            guard adds > 100 else { continue }  // warming up: the caches are built
            // Fewer than 64 per-layer columns and caches, each allocating at most once.
            XCTAssertLessThanOrEqual(allocated, grew ? 64 : 0, "add \(adds) at count \(store.count)")
            if grew { growths += 1 }
        }
        XCTAssertTrue(store.caches.drawOrderCache.isBuilt)
        XCTAssertGreaterThanOrEqual(growths, 1, "a growth with every cache built")
        XCTAssertGreaterThanOrEqual(store.layerCapacity, 4 * capacity)
        XCTAssertGreaterThanOrEqual(store.columns.boundsX.capacity, 4 * capacity)
        XCTAssertGreaterThanOrEqual(store.caches.subtreeBounds.extent.capacity, 4 * capacity)
        XCTAssertGreaterThanOrEqual(store.caches.drawOrderCache.previous.capacity, 4 * capacity)
        XCTAssertEqual(store._invariantViolations(), [])
    }

    /// A card of 90 points with five sublayers, as sublayer `index` of `list`; every card
    /// is on screen (the frame query's result keeps one size, so it stops growing).
    private func addCard(_ store: inout LayerStore, under list: LayerHandle, at index: Int) throws {
        let card = try store.addLayer(superlayer: list, at: index)
        store.setFrame(Rect(0, Double(index % 8) * 90, 400, 90), of: card)
        for k in 0..<5 {
            let part = try store.addLayer(superlayer: card)
            store.setFrame(Rect(Double(k) * 70, 10, 60, 60), of: part)
        }
    }
}
