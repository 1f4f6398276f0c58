import XCTest

@_spi(Testing) @testable import BatchGeometry

/// Structure edits at an index in O(log w) (issue 22 item 2): a wide list's rank tree
/// (`SublayerRanks.swift`) finds the sibling at an index for `insertSublayer(_:into:at:)`,
/// `addLayer(superlayer:at:)` and `sublayer(at:of:)`. After every step of random edit
/// sequences the tree answers what the walk of the linked list answers (the walk is the
/// reference: `walkedSibling(at:under:skipping:)` and `sublayers(of:)`), and
/// `_invariantViolations()` (which checks each tree's links, left sizes, priorities and
/// every position) is empty.
final class SublayerRankTests: XCTestCase {
    /// Adds two wide lists (`cards` cards each, some with a sublayer) in a window, and a
    /// narrow one, to `store`; returns the lists.
    private static func build(_ store: inout LayerStore, cards: Int) throws -> [LayerHandle] {
        let window = try store.addLayer()
        store.setFrame(Rect(0, 0, 900, 800), of: window)
        var lists: [LayerHandle] = []
        for (k, count) in [cards, cards, 20].enumerated() {
            let list = try store.addLayer(superlayer: window)
            store.setFrame(Rect(Double(k) * 300, 0, 290, 800), of: list)
            store.setMasksToBounds(true, of: list)
            lists.append(list)
            for row in 0..<count {
                let card = try store.addLayer(superlayer: list)
                store.setFrame(Rect(5, Double(row) * 40, 280, 36), of: card)
                if row % 7 == 0 { try store.addLayer(superlayer: card) }
            }
        }
        return lists
    }

    /// `sublayerCount(of:)` and `sublayer(at:of:)` at a few positions and past the end
    /// equal the walked list, and `sibling(at:under:skipping:)` equals the walk for a few
    /// indexes, with and without a sublayer left out.
    private static func checkPositions(
        _ store: borrowing LayerStore, _ lists: [LayerHandle], _ random: inout SplitMix64, _ label: String
    ) {
        for list in lists {
            let walked = store.sublayers(of: list)
            XCTAssertEqual(store.sublayerCount(of: list), walked.count, label)
            var indexes = [0, walked.count - 1, walked.count, walked.count + 1, -1]
            for _ in 0..<4 { indexes.append(random.below(walked.count + 1)) }
            for index in indexes {
                let expected = walked.indices.contains(index) ? walked[index] : nil
                XCTAssertEqual(store.sublayer(at: index, of: list), expected, "\(label): \(index) of \(list)")
            }
            let left = walked.isEmpty ? -1 : walked[random.below(walked.count)].index
            for skipping in [-1, left] {
                for index in indexes {
                    let ranked = Result { () throws(LayerStoreError) in
                        try store.sibling(at: index, under: Int32(list.index), skipping: skipping)
                    }
                    let reference = Result { () throws(LayerStoreError) in
                        try store.walkedSibling(at: index, under: Int32(list.index), skipping: skipping)
                    }
                    XCTAssertEqual(ranked, reference, "\(label): sibling \(index) of \(list) without \(skipping)")
                }
            }
        }
    }

    /// One random structure edit on the lists; returns what it did.
    private static func edit(
        _ store: inout LayerStore, _ lists: [LayerHandle], _ detached: inout [LayerHandle],
        _ random: inout SplitMix64
    ) throws -> String {
        let list = lists[random.below(lists.count)]
        let count = store.sublayerCount(of: list)
        let row = random.below(count + 1)
        let card = count > 0 ? store.sublayers(of: list)[random.below(count)] : nil
        switch random.below(8) {
        case 0, 1:
            let added = try store.addLayer(superlayer: list, at: row)
            store.setFrame(Rect(5, random.value(in: 0...4000), 280, 36), of: added)
            return "add at \(row) of \(list)"
        case 2:
            let added = try store.addLayer(superlayer: list)
            try store.addLayer(superlayer: added)
            return "append to \(list)"
        case 3:
            guard let card else { return "none" }
            try store.insertSublayer(card, into: list, at: random.below(count))
            return "move \(card) within \(list)"
        case 4:
            guard let card else { return "none" }
            let other = lists[random.below(lists.count)]
            let at = random.below(store.sublayerCount(of: other) + (other == list ? 0 : 1))
            try store.insertSublayer(card, into: other, at: at)
            return "move \(card) to \(other) at \(at)"
        case 5:
            guard let card else { return "none" }
            try store.removeFromSuperlayer(card)
            detached.append(card)
            return "detach \(card)"
        case 6:
            guard !detached.isEmpty else { return "none" }
            let back = detached.remove(at: random.below(detached.count))
            try store.insertSublayer(back, into: list, at: row)
            return "re-attach \(back) at \(row) of \(list)"
        default:
            guard let card else { return "none" }
            try store.destroyLayer(card)
            return "destroy \(card)"
        }
    }

    /// Random edits in two wide lists and a narrow one, the caches refreshed every few
    /// steps (so indexes are rebuilt when worn or full, dropped below 64 sublayers and
    /// built again), in a store reserved for exactly its first layers (so it grows past
    /// its capacity with the trees built). Each step: every position equals the walk's,
    /// and the invariants hold.
    func testRandomEditsAgreeWithTheWalk() throws {
        for seed in UInt64(0)..<2 {
            var probe = LayerStore()
            _ = try Self.build(&probe, cards: 70)
            var store = LayerStore(minimumCapacity: probe.count)
            let lists = try Self.build(&store, cards: 70)
            let capacity = store.layerCapacity
            var random = SplitMix64(seed: 2202 + seed)
            var detached: [LayerHandle] = []
            Self.checkPositions(store, lists, &random, "seed \(seed), before the caches")
            XCTAssertNil(store.caches.subtreeBounds.rankedList(of: lists[0].index), "no rank tree before a query")
            store.warmUp()
            XCTAssertNotNil(store.caches.subtreeBounds.rankedList(of: lists[0].index), "70 sublayers: ranked")
            XCTAssertNil(store.caches.subtreeBounds.rankedList(of: lists[2].index), "20 sublayers: walked")
            for step in 0..<150 {
                let what = try Self.edit(&store, lists, &detached, &random)
                let label = "seed \(seed) step \(step): \(what)"
                Self.checkPositions(store, lists, &random, label)
                XCTAssertEqual(store._invariantViolations(), [], label)
                if step % 4 == 3 {
                    var visible = VisibleLayers()
                    store.visibleLayers(in: Rect(0, 0, 900, 800), into: &visible)
                }
            }
            XCTAssertGreaterThan(store.layerCapacity, capacity, "seed \(seed): the store grew past its capacity")
        }
    }

    /// A list shrunk below 64 sublayers loses its index and rank tree at the next query
    /// (the walk answers then), and one grown past it gains them; both answer as the walk.
    func testTheTreeFollowsTheIndexAcrossTheThreshold() throws {
        var store = LayerStore()
        let lists = try Self.build(&store, cards: 66)
        var random = SplitMix64(seed: 22)
        store.warmUp()
        XCTAssertNotNil(store.caches.subtreeBounds.rankedList(of: lists[0].index))
        for _ in 0..<4 { try store.destroyLayer(store.sublayer(at: 3, of: lists[0])!) }
        Self.checkPositions(store, lists, &random, "62 sublayers, before the query")
        store.warmUp()
        XCTAssertNil(store.caches.subtreeBounds.rankedList(of: lists[0].index), "62 sublayers: no index")
        Self.checkPositions(store, lists, &random, "62 sublayers")
        for k in 0..<50 { try store.addLayer(superlayer: lists[2], at: (k * 7) % (20 + k)) }
        store.warmUp()
        XCTAssertNotNil(store.caches.subtreeBounds.rankedList(of: lists[2].index), "70 sublayers: indexed")
        Self.checkPositions(store, lists, &random, "grown")
        XCTAssertEqual(store._invariantViolations(), [])
    }

    /// The errors are the walk's: an index below 0 or past the end names the count
    /// without the layer moved (it is in the list already), and the store is unchanged.
    func testOutOfRangeIndexesInAWideList() throws {
        var store = LayerStore()
        let lists = try Self.build(&store, cards: 80)
        store.warmUp()
        let card = store.sublayer(at: 10, of: lists[0])!
        for index in [-1, 80, 200] {
            XCTAssertThrowsError(try store.insertSublayer(card, into: lists[0], at: index)) { error in
                XCTAssertEqual(error as? LayerStoreError, .sublayerIndexOutOfRange(index: index, sublayerCount: 79))
            }
        }
        for index in [-1, 81] {
            XCTAssertThrowsError(try store.addLayer(superlayer: lists[1], at: index)) { error in
                XCTAssertEqual(error as? LayerStoreError, .sublayerIndexOutOfRange(index: index, sublayerCount: 80))
            }
        }
        XCTAssertEqual(store.sublayer(at: 10, of: lists[0]), card)
        try store.insertSublayer(card, into: lists[0], at: 79)
        XCTAssertEqual(store.sublayers(of: lists[0]).last, card, "index 79 without the card: the end")
        XCTAssertEqual(store._invariantViolations(), [])
    }

    /// The tree stays shallow (the priorities are hashes of the slots): a list of 4,096
    /// cards appended in slot order, then 2,000 inserted at random positions and 1,000
    /// destroyed, has no node deeper than 3 log2(w), where a walk reaches w / 2 on average.
    func testTheTreeStaysShallow() throws {
        var store = LayerStore()
        let list = try store.addLayer()
        for _ in 0..<4096 { try store.addLayer(superlayer: list) }
        store.warmUp()
        var random = SplitMix64(seed: 4096)
        for _ in 0..<2000 {
            try store.addLayer(superlayer: list, at: random.below(store.sublayerCount(of: list) + 1))
        }
        for _ in 0..<1000 {
            try store.destroyLayer(store.sublayer(at: random.below(store.sublayerCount(of: list)), of: list)!)
        }
        let drift = store.caches.subtreeBounds.drift
        var deepest = 0
        for sublayer in store.sublayers(of: list) {
            var depth = 0
            var current = Int32(sublayer.index)
            while current >= 0 {
                depth += 1
                current = drift.rankNode(current)[ParkedDrift.rankParent]
            }
            deepest = max(deepest, depth)
        }
        let w = store.sublayerCount(of: list)
        XCTAssertEqual(w, 5096)
        XCTAssertLessThanOrEqual(deepest, 3 * (Int.bitWidth - w.leadingZeroBitCount), "deepest of \(w) nodes")
        XCTAssertEqual(store.sublayers(of: list), (0..<w).map { store.sublayer(at: $0, of: list)! })
    }
}
