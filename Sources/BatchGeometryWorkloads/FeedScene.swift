// The live feed that list-edit-bench and growth-bench measure (issue 22): `lists`
// masking, scrolling lists of `cards` cards, each card with 5 parts (6 layers), side by
// side in a 1920×1080 window. One builder, so that the two benches time the same tree.
import BatchGeometry

/// Builds and scrolls the feed of the list-edit and growth benches.
package enum FeedScene {
    /// The window, which is also the benches' viewport.
    package static let window = Rect(0, 0, 1920, 1080)

    /// The layers of a feed: the window, its lists, and 6 per card.
    package static func layerCount(lists: Int, cards: Int) -> Int { lists * cards * 6 + lists + 1 }

    /// Adds one card and its 5 parts under `list`, at sublayer `index` (nil: on top),
    /// framed for row `row`. Returns the card.
    @discardableResult
    package static func addCard(
        _ store: inout LayerStore, under list: LayerHandle, at index: Int?, row: Int
    ) -> LayerHandle {
        let card =
            index.map { try! store.addLayer(superlayer: list, at: $0) } ?? (try! store.addLayer(superlayer: list))
        store.setFrame(Rect(8, Double(row) * 96, 80, 88), of: card)
        for k in 0..<5 {
            let part = try! store.addLayer(superlayer: card)
            store.setFrame(Rect(4 + Double(k % 3) * 24, 4 + Double(k / 3) * 40, 20, 36), of: part)
        }
        return card
    }

    /// Builds the feed in `store` and returns its lists. With `reordersCards`, card `l` of
    /// list `l` gets zPosition 1 (cards out of zPosition order), so the drawing-order cache
    /// is built too.
    package static func build(
        in store: inout LayerStore, lists: Int, cards: Int, reordersCards: Bool = false
    ) -> [LayerHandle] {
        let root = try! store.addLayer()
        store.setFrame(window, of: root)
        var handles: [LayerHandle] = []
        for l in 0..<lists {
            let list = try! store.addLayer(superlayer: root)
            store.setFrame(Rect(Double(l % 20) * 96, 0, 96, 1080), of: list)
            store.setMasksToBounds(true, of: list)
            for row in 0..<cards { addCard(&store, under: list, at: nil, row: row) }
            if reordersCards { store.setZPosition(1, of: store.sublayer(at: l, of: list)!) }
            handles.append(list)
        }
        return handles
    }

    /// Frame `n`'s scroll: every list's contentOffset moves to its own place.
    package static func scroll(_ store: inout LayerStore, lists: [LayerHandle], frame n: Int, cards: Int) {
        for (l, list) in lists.enumerated() {
            store.setContentOffset(Point(0, Double((n * 7 + l * 131) % (cards * 90))), of: list)
        }
    }
}

extension SplitMix64 {
    /// A number in `0 ..< n` by remainder (the sequence the recorded bench numbers used).
    package mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}
