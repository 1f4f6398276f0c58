import XCTest

@_spi(Testing) @testable import BatchGeometry

/// `offsetPositions(ofSublayersOf:in:by:)`, the row move of a list: the same store as
/// `setPosition(_:of:)` with `position + offset` on each sublayer of the range in turn,
/// on a twin store. Compared after every step: every position's bits, the world
/// transforms, the frame query (against the twin's and the full passes'), hit tests,
/// the drawing order, the parked lists' drift bounds and marks, and the invariants.
final class OffsetPositionsTests: XCTestCase {
    /// A window of four lists: three masking ones of 40–139 cards (an R-tree from 64 on),
    /// some cards with a badge, and a narrow one that does not mask.
    struct Twins: ~Copyable {
        var batch = LayerStore()
        var single: LayerStore
        var lists: [LayerHandle] = []
        var window: LayerHandle
        /// Sublayers that a range move found parked in their list's drifting cards with a
        /// known drift (its run's path; the others take the setter's).
        var drifting = 0

        init(_ random: inout SplitMix64) {
            var store = LayerStore()
            let window = store.addViewWithFrame(Rect(0, 0, 2000, 800))
            var lists: [LayerHandle] = []
            for k in 0..<4 {
                let list = store.addViewWithFrame(Rect(Double(k) * 500, 0, 400, 800), parent: window)
                store.setMasksToBounds(k < 3, of: list)
                lists.append(list)
                for n in 0..<(k < 3 ? 40 + random.below(100) : 10) {
                    let card = store.addViewWithFrame(Rect(5, Double(n) * 50, 390, 44), parent: list)
                    if n % 4 == 0 { _ = store.addViewWithFrame(Rect(350, 4, 30, 30), parent: card) }
                }
            }
            single = store.copy()
            batch = store
            self.window = window
            self.lists = lists
        }

        /// `edit` on both stores.
        mutating func both(_ edit: (inout LayerStore) throws -> Void) rethrows {
            try edit(&batch)
            try edit(&single)
        }

        /// One random step on both stores: a range move (batch: the call; single: the
        /// setter per sublayer), or another edit, or a frame query over a random viewport.
        mutating func step(_ random: inout SplitMix64, _ label: String) throws {
            let list = lists[random.below(lists.count)]
            let count = batch.sublayerCount(of: list)
            switch random.below(10) {
            case 0..<6:
                let lower = random.below(count + 1)
                let range = lower..<(lower + random.below(count - lower + 1))
                let offset = Self.offset(&random)
                let bounds = batch.caches.subtreeBounds
                drifting +=
                    single.sublayers(of: list)[range].filter { Self.isDrifting($0.index, in: list.index, bounds) }.count
                try batch.offsetPositions(ofSublayersOf: list, in: range, by: offset)
                for layer in single.sublayers(of: list)[range] {
                    let p = single.position(of: layer)
                    single.setPosition(Point(x: p.x + offset.x, y: p.y + offset.y), of: layer)
                }
            case 6:
                let viewport = Rect(random.unit() * 1500, random.unit() * 3000, 200 + random.unit() * 600, 800)
                var result = VisibleLayers()
                batch.visibleLayers(in: viewport, into: &result)
                var twin = VisibleLayers()
                single.visibleLayers(in: viewport, into: &twin)
                XCTAssertEqual(result.layers, twin.layers, label)
                FrameQueryTests.assertMatches(result, FrameQueryTests.expectedVisible(batch, viewport: viewport), label)
            case 7 where count > 0:
                let card = batch.sublayers(of: list)[random.below(count)]
                switch random.below(3) {
                case 0: both { $0.setZPosition(1, of: card) }
                case 1: both { $0.setTransform(.scale(x: 1.1, y: 0.9), of: card) }
                default: both { $0.setContentOffset(Point(x: 0, y: 400), of: list) }
                }
            case 8:
                let card = try batch.addLayer(superlayer: list)
                XCTAssertEqual(try single.addLayer(superlayer: list), card, label)
                let frame = Rect(5, random.unit() * 5000, 390, 44)
                let at = random.below(count + 1)
                try both {
                    $0.setFrame(frame, of: card)
                    try $0.insertSublayer(card, into: list, at: at)
                }
            default:
                guard count > 1 else { return }
                let card = batch.sublayers(of: list)[random.below(count)]
                XCTAssertEqual(try batch.destroyLayer(card), try single.destroyLayer(card), label)
            }
        }

        /// The change tracker (its list, states and full-update flag) and the edit log (its
        /// ring and count) of the two stores agree: what `updateWorld()` and the culled
        /// sample read of the moves. Read before anything updates the world.
        static func assertSameLogs(
            _ batch: borrowing LayerStore, _ single: borrowing LayerStore, _ label: String,
            file: StaticString = #filePath,
            line: UInt = #line
        ) {
            let (changes, twin) = (batch.caches.changes, single.caches.changes)
            XCTAssertEqual(changes.needsFullUpdate, twin.needsFullUpdate, "\(label): full", file: file, line: line)
            XCTAssertTrue(changes.dirtyLayers == twin.dirtyLayers, "\(label): dirty list", file: file, line: line)
            XCTAssertTrue(changes.dirtyStates == twin.dirtyStates, "\(label): dirty states", file: file, line: line)
            XCTAssertEqual(batch.caches.editLog.written, single.caches.editLog.written, label, file: file, line: line)
            XCTAssertEqual(batch.caches.editLog.ring, single.caches.editLog.ring, label, file: file, line: line)
        }

        /// Whether `layer`, a sublayer of `list`, waits parked in the list's drifting cards
        /// with a known drift.
        static func isDrifting(_ layer: Int, in list: Int, _ bounds: SubtreeBounds) -> Bool {
            guard bounds.isBuilt, bounds.indexSlot[list] >= 0 else { return false }
            let reference = Int(bounds.drift.referenceSlots[layer])
            return bounds.state[layer] & SubtreeBounds.Mark.parked != 0 && reference >= 0
                && bounds.drift.parkedSlot(atReference: reference) == Int(bounds.indexSlot[list])
                && bounds.drift.drift(atReference: reference) != nil
        }

        /// Whole points, halves, and fractions whose sums round (a pitch of 232, 0.1, …);
        /// now and then a jump of thousands (a bound past the list's height).
        static func offset(_ random: inout SplitMix64) -> Point {
            switch random.below(8) {
            case 0..<3: return Point(x: 0, y: 232 * (random.chance(50) ? 1 : -1))
            case 3: return Point(x: 0.1, y: -0.3)
            case 4, 5: return Point(x: random.unit() * 40 - 20, y: random.unit() * 600 - 300)
            case 6: return Point(x: -0.0, y: Double(random.below(5)) * 0.5)
            default: return Point(x: random.unit() * 40 - 20, y: random.unit() * 6000 - 3000)
            }
        }

        /// The two stores agree, bit for bit where it matters.
        mutating func assertSame(
            _ random: inout SplitMix64, _ label: String, file: StaticString = #filePath, line: UInt = #line
        ) {
            XCTAssertEqual(batch.count, single.count, label, file: file, line: line)
            Self.assertSameLogs(batch, single, label, file: file, line: line)
            for slot in 0..<batch.count where batch.isLiveSlot(slot) {
                let (a, b) = (batch.position(of: slot), single.position(of: slot))
                XCTAssertTrue(
                    a.x.bitPattern == b.x.bitPattern && a.y.bitPattern == b.y.bitPattern,
                    "\(label): position of layer \(slot): \(a) against \(b)", file: file, line: line)
            }
            let world = batch.worldTransforms()
            let twinWorld = single.worldTransforms()
            for slot in 0..<batch.count where batch.isLiveSlot(slot) {
                XCTAssertTrue(
                    FrameQueryTests.sameBitPatterns(world[slot], twinWorld[slot]),
                    "\(label): world transform of layer \(slot)", file: file, line: line)
            }
            XCTAssertEqual(batch.drawOrder(), single.drawOrder(), label, file: file, line: line)
            // The fast path's writes are the setter's: the same marks, lists and bounds.
            let (kept, twin) = (batch.caches.subtreeBounds, single.caches.subtreeBounds)
            XCTAssertEqual(kept.drift.listBounds.map(\.bitPattern), twin.drift.listBounds.map(\.bitPattern), label)
            XCTAssertEqual(kept.drift.lists, twin.drift.lists, label, file: file, line: line)
            XCTAssertEqual(kept.drift.cleanRegions, twin.drift.cleanRegions, label, file: file, line: line)
            XCTAssertEqual(kept.parkedSublayers, twin.parkedSublayers, label, file: file, line: line)
            XCTAssertTrue(kept.state == twin.state, "\(label): marks", file: file, line: line)
            for _ in 0..<8 {
                let point = Point(x: random.unit() * 2000, y: random.unit() * 800)
                for rule in HitTestRule.allCases {
                    let hit = batch.hitTest(point, rule: rule)
                    XCTAssertEqual(hit, single.hitTest(point, rule: rule), "\(label) \(point)", file: file, line: line)
                    XCTAssertEqual(hit, batch.hitTest(point, in: world, rule: rule), label, file: file, line: line)
                }
            }
            XCTAssertEqual(batch._invariantViolations(), [], label, file: file, line: line)
            XCTAssertEqual(single._invariantViolations(), [], label, file: file, line: line)
        }
    }

    func testRangeMovesMatchThePerLayerSetter() throws {
        var drifting = 0
        for seed in UInt64(0)..<3 {
            var random = SplitMix64(seed: 2200 + seed)
            var twins = Twins(&random)
            if seed > 0 {
                // Caches built (and cards parked by later moves) before the first step; seed 0
                // starts cold, so its first query builds them all.
                var result = VisibleLayers()
                twins.batch.visibleLayers(in: Rect(0, 0, 400, 800), into: &result)
                twins.single.visibleLayers(in: Rect(0, 0, 400, 800), into: &result)
            }
            for step in 0..<60 {
                let label = "seed \(seed) step \(step)"
                try twins.step(&random, label)
                twins.assertSame(&random, label)
            }
            drifting += twins.drifting
        }
        XCTAssertGreaterThan(drifting, 300, "range moves of drifting cards (the run's path)")
    }

    /// A relayout's pattern: the rows below a random row of each masking list move a row
    /// down and back, frame after frame, with a query between; after their first move
    /// the rows off screen wait parked with a known drift, and the range move takes them
    /// in runs. The twins agree after every frame.
    func testRepeatedRowMovesTakeTheParkedRun() throws {
        var random = SplitMix64(seed: 2201)
        var twins = Twins(&random)
        var result = VisibleLayers()
        twins.batch.visibleLayers(in: Rect(0, 0, 400, 800), into: &result)
        twins.single.visibleLayers(in: Rect(0, 0, 400, 800), into: &result)
        var drifting = 0
        for frame in 0..<12 {
            for list in twins.lists.prefix(3) {
                let count = twins.batch.sublayerCount(of: list)
                let range = random.below(count)..<count
                let offset = Point(x: 0, y: frame % 2 == 0 ? 50 : -50)
                let bounds = twins.batch.caches.subtreeBounds
                drifting +=
                    twins.single.sublayers(of: list)[range].filter {
                        Twins.isDrifting($0.index, in: list.index, bounds)
                    }.count
                try twins.batch.offsetPositions(ofSublayersOf: list, in: range, by: offset)
                for layer in twins.single.sublayers(of: list)[range] {
                    let p = twins.single.position(of: layer)
                    twins.single.setPosition(Point(x: p.x + offset.x, y: p.y + offset.y), of: layer)
                }
            }
            twins.batch.visibleLayers(in: Rect(0, 0, 400, 800), into: &result)
            FrameQueryTests.assertMatches(
                result, FrameQueryTests.expectedVisible(twins.batch, viewport: Rect(0, 0, 400, 800)), "frame \(frame)")
            twins.single.visibleLayers(in: Rect(0, 0, 400, 800), into: &result)
            twins.assertSame(&random, "frame \(frame)")
        }
        XCTAssertGreaterThan(drifting, 300, "moved rows that waited parked with a known drift")
    }

    /// Many row moves with no world update between (only frame queries): the change
    /// tracker's list reaches its limit inside a run of drifting rows (the tracker then
    /// asks for a full update and lists nothing more) and the edit log's ring wraps; the
    /// batch store's tracker and log equal the twin's after every call, and its
    /// positions, world transforms and queries after the last.
    func testRunsPastTheTrackersLimitAndTheLogsRing() throws {
        var random = SplitMix64(seed: 2202)
        var twins = Twins(&random)
        var result = VisibleLayers()
        let viewport = Rect(0, 0, 400, 800)
        var filledInARun = 0
        var mostListed = 0
        for frame in 0..<50 {
            twins.batch.visibleLayers(in: viewport, into: &result)
            twins.single.visibleLayers(in: viewport, into: &result)
            if frame % 10 == 0 {  // the tracker starts over now and then
                _ = twins.batch.updateWorld()
                _ = twins.single.updateWorld()
            }
            for list in twins.lists.prefix(3) {
                let count = twins.batch.sublayerCount(of: list)
                let range = random.below(count / 8)..<count
                let offset = Point(x: 0, y: frame % 2 == 0 ? 50 : -50)
                let wasListing = !twins.batch.caches.changes.needsFullUpdate
                mostListed = max(mostListed, twins.batch.caches.changes.dirtyLayers.count)
                try twins.batch.offsetPositions(ofSublayersOf: list, in: range, by: offset)
                for layer in twins.single.sublayers(of: list)[range] {
                    let p = twins.single.position(of: layer)
                    twins.single.setPosition(Point(x: p.x + offset.x, y: p.y + offset.y), of: layer)
                }
                if wasListing && twins.batch.caches.changes.needsFullUpdate { filledInARun += 1 }
                Twins.assertSameLogs(twins.batch, twins.single, "frame \(frame)")
            }
        }
        let limit = ChangeTracker.incrementalLimit(slots: twins.batch.caches.changes.dirtyStates.count)
        XCTAssertGreaterThan(filledInARun, 0, "a move that filled the tracker's list (\(mostListed) of \(limit))")
        XCTAssertGreaterThan(twins.batch.caches.editLog.written, UInt64(2 * EditLog.capacity), "the ring wrapped")
        twins.batch.visibleLayers(in: viewport, into: &result)
        FrameQueryTests.assertMatches(result, FrameQueryTests.expectedVisible(twins.batch, viewport: viewport), "")
        twins.single.visibleLayers(in: viewport, into: &result)
        twins.assertSame(&random, "after the moves")
    }

    /// A relayout's move: the rows below an insert, a pitch down, keep their bits as the
    /// positions the setter would be given computed apart (integers: the sums are exact).
    func testAPitchMoveGivesThePositionsOfTheRowsBelow() throws {
        var random = SplitMix64(seed: 22)
        var twins = Twins(&random)
        var result = VisibleLayers()
        twins.batch.visibleLayers(in: Rect(0, 0, 400, 800), into: &result)
        let list = twins.lists[0]
        let count = twins.batch.sublayerCount(of: list)
        try twins.batch.offsetPositions(ofSublayersOf: list, in: 10..<count, by: Point(x: 0, y: 50))
        for (n, card) in twins.batch.sublayers(of: list).enumerated() {
            let row = Double(n < 10 ? n : n + 1)
            XCTAssertEqual(twins.batch.position(of: card), Point(x: 200, y: row * 50 + 22), "card \(n)")
        }
        twins.batch.visibleLayers(in: Rect(0, 0, 400, 800), into: &result)
        FrameQueryTests.assertMatches(
            result, FrameQueryTests.expectedVisible(twins.batch, viewport: Rect(0, 0, 400, 800)), "")
        XCTAssertEqual(twins.batch._invariantViolations(), [])
    }

    /// Each error is thrown before anything changes: the store equals its twin, given nothing.
    func testErrorsChangeNothing() throws {
        var random = SplitMix64(seed: 7)
        var twins = Twins(&random)
        var result = VisibleLayers()
        twins.batch.visibleLayers(in: Rect(0, 0, 400, 800), into: &result)
        twins.single.visibleLayers(in: Rect(0, 0, 400, 800), into: &result)
        let list = twins.lists[1]
        let count = twins.batch.sublayerCount(of: list)
        let move = Point(x: 0, y: 50)
        Self.expect(.sublayerIndexOutOfRange(index: count + 1, sublayerCount: count), &twins, &random) {
            try $0.offsetPositions(ofSublayersOf: list, in: 0..<(count + 1), by: move)
        }
        Self.expect(.sublayerIndexOutOfRange(index: count + 1, sublayerCount: count), &twins, &random) {
            try $0.offsetPositions(ofSublayersOf: list, in: (count + 1)..<(count + 1), by: move)
        }
        Self.expect(.sublayerIndexOutOfRange(index: -1, sublayerCount: count), &twins, &random) {
            try $0.offsetPositions(ofSublayersOf: list, in: -1..<3, by: move)
        }
        let gone = twins.batch.sublayers(of: twins.lists[3])[0]
        XCTAssertEqual(try twins.batch.destroyLayer(gone), try twins.single.destroyLayer(gone))
        Self.expect(.staleSuperlayer(gone), &twins, &random) {
            try $0.offsetPositions(ofSublayersOf: gone, in: 0..<0, by: move)
        }
        var other = LayerStore()
        let foreign = try other.addLayer(superlayer: nil)
        Self.expect(.foreignSuperlayer(foreign), &twins, &random) {
            try $0.offsetPositions(ofSublayersOf: foreign, in: 0..<0, by: move)
        }
        // The messages name the index and the count (they are `description`s: kept in release builds).
        XCTAssertEqual(
            LayerStoreError.sublayerIndexOutOfRange(index: count + 1, sublayerCount: count).description,
            "sublayer index \(count + 1) is out of range (\(count) sublayers)")
        // An empty range in bounds, and the end of the list, move nothing.
        try twins.batch.offsetPositions(ofSublayersOf: list, in: count..<count, by: move)
        try twins.batch.offsetPositions(ofSublayersOf: list, in: 0..<0, by: move)
        twins.assertSame(&random, "empty ranges")
    }

    /// `call` on the batch store throws `expected`, and the twins still agree.
    private static func expect(
        _ expected: LayerStoreError, _ twins: inout Twins, _ random: inout SplitMix64,
        _ call: (inout LayerStore) throws -> Void, line: UInt = #line
    ) {
        do {
            try call(&twins.batch)
            XCTFail("no error, expected \(expected)", line: line)
        } catch {
            XCTAssertEqual(error as? LayerStoreError, expected, line: line)
        }
        twins.assertSame(&random, "after \(expected)", line: line)
    }
}
