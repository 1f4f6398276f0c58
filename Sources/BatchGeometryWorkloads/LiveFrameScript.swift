import BatchGeometry

/// Which frames the `app` workload's frame script plays (batchbench's frame kernels).
package enum FrameScriptMode: String, Sendable, CaseIterable {
    /// `FrameScript`: the tree keeps its shape; about 280 layers change a frame.
    case still
    /// `LiveFrameScript` without relayout: the still frame's edits plus rows inserted
    /// and destroyed, a zPosition change, and a panel detached and re-attached.
    case live
    /// `LiveFrameScript` with relayout: as `live`, and the cards below each insert or
    /// removal move (as a list does after an insert).
    case relayout
}

/// The `app` frame script on a live tree (issue 22): what a chat or a feed does between
/// two frames. Frame k (k = 1, 2, 3, … in that order; frame 0 is the built store):
///
/// 1. **Insert:** a new card (`AppLayout.cardSize`, with 5 sublayers: icon, label, badge
///    as the built cards have, plus a caption and a separator; with `settled`, only the
///    built cards' 3) goes into list `a` at a
///    random position p (`addLayer(superlayer:)`, then `insertSublayer(_:into:at:)`),
///    placed where position p of the list is (`cardTop + cardPitch · p`).
/// 2. **Destroy:** a random card of another list `b` is destroyed (`destroyLayer`, with
///    its sublayers); a list keeps at least one card.
/// 3. **zPosition:** a random card of a random list gets zPosition 0, 1 or 2.
/// 4. **Panel:** every 60 frames (k = 60, 120, …) list (k / 60) mod 20 is detached
///    (`removeFromSuperlayer`); 30 frames later it is re-attached at its place among
///    the window's sublayers (`insertSublayer(_:into:at:)`).
/// 5. With **relayout**, after the insert the cards below p in list `a` move down a
///    pitch, and after the removal those below it in list `b` move up one (one
///    `offsetPositions(ofSublayersOf:in:by:)` each): every card of a changed list sits at
///    `cardTop + cardPitch · (its position)`. Without it, no other card moves (the new
///    card overlaps the one it was inserted before).
/// 6. The still script's edits (`FrameScript`), on the cards as the lists now hold them:
///    every list scrolls to `contentOffset(ofList:frame:)`; the cards at the positions
///    `visibleCards(ofList:offset:)` names (cut to the list's length) get their label
///    width, badge position and badge visibility; the first one's icon spins; the strip
///    cards turn. A card keeps the number it was built with (inserted cards are numbered
///    from `cardCount` on) for `labelWidth(card:frame:)` and friends.
///
/// The random choices come from `SplitMix64` seeded with the frame number and the
/// script's seed, and the lists' lengths; so two stores built alike and given the same
/// frames in the same order end up equal (the same slots are freed and reused). The
/// store grows by about 2 layers a frame (6 inserted, 4 or 6 destroyed), so it outgrows
/// the capacity it was built with in frame 1. A `settled` script inserts cards of the
/// built shape (4 layers), so the layer count stays where it was built (a soak's
/// resident memory then measures what the store keeps, not a tree that grows). The script keeps every list's cards as
/// 4-byte numbers into one table of cards (a destroyed card's entry is reused), in
/// arrays with room reserved for 1,024 more, so its own bookkeeping allocates nothing
/// unless a list grows past that, and an insert or removal in its array moves 4 bytes a
/// card below it rather than the whole `Card` (a 56-byte memmove of half a list, twice a
/// frame, was ~30 µs of a 1M-layer frame: the script's cost, not the store's).
///
/// The viewport and the touches are the still script's (`FrameScript`).
package struct LiveFrameScript: Sendable {
    /// Sublayers of an inserted card (a `settled` script's: the built cards' 3).
    package static let insertedSublayerCount = 5
    /// A panel is detached every `detachPeriod` frames, and re-attached `detachedFrames`
    /// frames later.
    package static let detachPeriod = 60
    package static let detachedFrames = 30
    /// Room reserved in each list's card array beyond its built length.
    package static let reservedCards = 1_024

    /// One card of a list: its handle and those of the sublayers the edits touch.
    package struct Card: Sendable, Hashable {
        /// The card's number for the per-frame values (`AppLayout.labelWidth` and friends).
        package var number: Int
        package var layer: LayerHandle
        package var icon: LayerHandle?
        package var label: LayerHandle?
        package var badge: LayerHandle?
    }

    /// The still script: the viewport and the touches.
    package let still: FrameScript
    package let relayout: Bool
    /// Inserted cards have the built cards' shape (icon, label, badge), not 5 sublayers.
    package let settled: Bool
    private let layout: AppLayout
    private let seed: UInt64
    /// The lists and the window, and every list's cards in sublayer order.
    private let window: LayerHandle
    private let listLayers: [LayerHandle]
    /// Every list's cards in sublayer order, as positions in `cards`.
    private var listCards: [[Int32]]
    /// The cards, live and free (`freeCards`), in no order.
    private var cards: [Card]
    /// Positions in `cards` whose card was destroyed, for the next inserts.
    private var freeCards: [Int32]
    private var nextCardNumber: Int
    private var lastFrame = 0
    /// The list detached now, if any.
    package private(set) var detachedList: Int?

    /// The script for `store`, a store just built by `workload.makeStore()` (an `app`
    /// workload with at least one card: `layerCount > AppLayout.firstCardLayer`). O(n).
    package init(
        _ workload: Workload, relayout: Bool, settled: Bool = false, store: borrowing LayerStore, seed: UInt64 = 22
    ) {
        precondition(workload.shape == .app, "the live frame script plays the app workload")
        precondition(workload.layerCount > AppLayout.firstCardLayer, "the live frame script needs cards")
        still = FrameScript(workload)
        self.relayout = relayout
        self.settled = settled
        self.seed = seed
        let layout = AppLayout(layerCount: workload.layerCount)
        self.layout = layout
        window = store.layer(AppLayout.window)
        listLayers = (0..<AppLayout.listCount).map { store.layer(AppLayout.list($0)) }
        nextCardNumber = layout.cardCount
        var listCards: [[Int32]] = []
        var cards: [Card] = []
        cards.reserveCapacity(layout.cardCount + Self.reservedCards)
        for j in 0..<AppLayout.listCount {
            var list: [Int32] = []
            list.reserveCapacity(layout.cardsInList(j) + Self.reservedCards)
            for card in layout.firstCard(ofList: j)..<layout.firstCard(ofList: j) + layout.cardsInList(j) {
                let base = layout.cardLayer(card)
                func part(_ k: Int) -> LayerHandle? { base + k < layout.layerCount ? store.layer(base + k) : nil }
                list.append(Int32(cards.count))
                cards.append(
                    Card(number: card, layer: store.layer(base), icon: part(1), label: part(2), badge: part(3)))
            }
            listCards.append(list)
        }
        self.listCards = listCards
        self.cards = cards
        freeCards = []
        freeCards.reserveCapacity(Self.reservedCards)
    }

    /// Every list's cards in sublayer order (a new array: for tests and checks). O(cards).
    package var lists: [[Card]] { listCards.map { $0.map { cards[Int($0)] } } }

    /// Entries in the script's table of cards, live and free: after a frame, the cards
    /// the lists hold and at most one free entry (each frame's insert takes the entry the
    /// previous frame's removal freed). O(1).
    package var cardTableCount: Int { cards.count }

    /// The card at `position` of list `j`. O(1).
    private func cardAt(_ j: Int, _ position: Int) -> Card { cards[Int(listCards[j][position])] }

    /// The world rect the frame query asks for: the window.
    package var viewport: Rect { still.viewport }

    /// Frame `frame`'s touches (`FrameScript.touches(frame:)`).
    package func touches(frame: Int) -> [Point] { still.touches(frame: frame) }

    /// Applies frame `frame` (the one after the last applied; the first is 1) to `store`,
    /// the store this script was made for, and returns how many layers the frame set,
    /// added or destroyed. O(edits), plus O(list length) for the insert's
    /// `insertSublayer(_:into:at:)` and, with relayout, the cards moved.
    @discardableResult
    package mutating func apply(frame: Int, to store: inout LayerStore) -> Int {
        precondition(
            frame == lastFrame + 1, "live frames are applied in order from 1 (got \(frame) after \(lastFrame))")
        lastFrame = frame
        var random = SplitMix64(seed: seed &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(frame))
        let target = random.next(below: AppLayout.listCount)
        var changed = insertCard(frame: frame, list: target, random: &random, store: &store)
        let other = (target + 1 + random.next(below: AppLayout.listCount - 1)) % AppLayout.listCount
        changed += destroyCard(list: other, random: &random, store: &store)
        changed += changeZPosition(random: &random, store: &store)
        changed += moveMembers(frame: frame, store: &store)
        changed += applyStillEdits(frame: frame, store: &store)
        return changed
    }

    // MARK: The structure edits

    private mutating func insertCard(frame: Int, list j: Int, random: inout SplitMix64, store: inout LayerStore) -> Int
    {
        let position = random.next(below: listCards[j].count + 1)
        let number = nextCardNumber
        nextCardNumber += 1
        let list = listLayers[j]
        let card = mustSucceed { try store.addLayer(superlayer: list) }
        mustSucceed { try store.insertSublayer(card, into: list, at: position) }
        place(card, Rect(origin: Point(x: 4, y: cardY(position)), size: AppLayout.cardSize), in: &store)
        func sublayer(_ frame: Rect) -> LayerHandle {
            let layer = mustSucceed { try store.addLayer(superlayer: card) }
            place(layer, frame, in: &store)
            return layer
        }
        let icon = sublayer(Rect(x: 8, y: 8, width: 72, height: 72))
        // The label centered at (44, 98), the badge at its position: as built cards.
        let width = layout.labelWidth(card: number, frame: frame)
        let label = sublayer(Rect(x: 44 - width / 2, y: 88, width: width, height: 20))
        let center = layout.badgePosition(card: number, frame: frame)
        let badge = sublayer(Rect(x: center.x - 12, y: center.y - 12, width: 24, height: 24))
        store.setHidden(layout.badgeHidden(card: number, frame: frame), of: badge)
        if !settled {
            _ = sublayer(Rect(x: 8, y: 112, width: 72, height: 16))  // caption
            _ = sublayer(Rect(x: 0, y: 218, width: 88, height: 2))  // separator
        }
        let entry = Card(number: number, layer: card, icon: icon, label: label, badge: badge)
        if let free = freeCards.popLast() {
            cards[Int(free)] = entry
            listCards[j].insert(free, at: position)
        } else {
            listCards[j].insert(Int32(cards.count), at: position)
            cards.append(entry)
        }
        let moved = relayout ? moveCards(ofList: j, from: position + 1, rows: 1, store: &store) : 0
        return 1 + (settled ? AppLayout.layersPerCard - 1 : Self.insertedSublayerCount) + moved
    }

    private mutating func destroyCard(list j: Int, random: inout SplitMix64, store: inout LayerStore) -> Int {
        guard listCards[j].count > 1 else { return 0 }
        let position = random.next(below: listCards[j].count)
        let entry = listCards[j].remove(at: position)
        freeCards.append(entry)
        let destroyed = mustSucceed { try store.destroyLayer(cards[Int(entry)].layer) }
        let moved = relayout ? moveCards(ofList: j, from: position, rows: -1, store: &store) : 0
        return destroyed + moved
    }

    private func changeZPosition(random: inout SplitMix64, store: inout LayerStore) -> Int {
        let j = random.next(below: AppLayout.listCount)
        guard !listCards[j].isEmpty else { return 0 }
        let card = cardAt(j, random.next(below: listCards[j].count))
        store.setZPosition(Double(random.next(below: 3)), of: card.layer)
        return 1
    }

    /// Detaches a list every `detachPeriod` frames and re-attaches it `detachedFrames` later.
    private mutating func moveMembers(frame: Int, store: inout LayerStore) -> Int {
        if frame % Self.detachPeriod == 0 {
            let j = (frame / Self.detachPeriod) % AppLayout.listCount
            mustSucceed { try store.removeFromSuperlayer(listLayers[j]) }
            detachedList = j
            return 1
        }
        if frame % Self.detachPeriod == Self.detachedFrames, let j = detachedList {
            // Lists 0 ..< j come before it among the window's sublayers, the rest after.
            mustSucceed { try store.insertSublayer(listLayers[j], into: window, at: j) }
            detachedList = nil
            return 1
        }
        return 0
    }

    /// Moves the cards of list `j` from position `start` on by `rows` pitches: one
    /// `offsetPositions(ofSublayersOf:in:by:)` call over the list's sublayers (its cards,
    /// in the script's order), as an engine moves the rows below an edit. Each card sat at
    /// its old position's place, and its coordinates and the pitch are whole numbers, so
    /// the sums are exact: the bits `setPosition` with the new place's center would store.
    private func moveCards(ofList j: Int, from start: Int, rows: Double, store: inout LayerStore) -> Int {
        let count = listCards[j].count
        guard start < count else { return 0 }
        let offset = Point(x: 0, y: AppLayout.cardPitch * rows)
        mustSucceed { try store.offsetPositions(ofSublayersOf: listLayers[j], in: start..<count, by: offset) }
        return count - start
    }

    private func cardY(_ position: Int) -> Double { AppLayout.cardTop + AppLayout.cardPitch * Double(position) }

    /// Gives `layer` frame `frame` (anchor point (0.5, 0.5), no transform).
    private func place(_ layer: LayerHandle, _ frame: Rect, in store: inout LayerStore) {
        store.setBounds(Rect(x: 0, y: 0, width: frame.width, height: frame.height), of: layer)
        store.setPosition(Point(x: frame.x + frame.width / 2, y: frame.y + frame.height / 2), of: layer)
    }

    // MARK: The still script's edits

    private func applyStillEdits(frame: Int, store: inout LayerStore) -> Int {
        var changed = 0
        for j in 0..<AppLayout.listCount {
            let offset = layout.contentOffset(ofList: j, frame: frame)
            store.setContentOffset(Point(x: 0, y: offset), of: listLayers[j])
            changed += 1
            let shown = layout.visibleCards(ofList: j, offset: offset).clamped(to: 0..<listCards[j].count)
            for position in shown {
                let card = cardAt(j, position)
                if let label = card.label {
                    let width = layout.labelWidth(card: card.number, frame: frame)
                    store.setBounds(Rect(x: 0, y: 0, width: width, height: 20), of: label)
                    changed += 1
                }
                if let badge = card.badge {
                    store.setPosition(layout.badgePosition(card: card.number, frame: frame), of: badge)
                    store.setHidden(layout.badgeHidden(card: card.number, frame: frame), of: badge)
                    changed += 1
                }
            }
            if let first = shown.first, let icon = cardAt(j, first).icon {
                store.setAffineTransform(layout.spinnerRotation(frame: frame), of: icon)
                changed += 1
            }
        }
        for i in 0..<AppLayout.stripCardCount {
            let angle = layout.stripAngle(card: i, frame: frame)
            store.setTransform(.rotation(radians: angle, x: 0, y: 1, z: 0), of: store.layer(AppLayout.stripCard(i)))
            changed += 1
        }
        return changed
    }
}

/// The value of `body`, which the script's edits only call where it cannot throw (live
/// handles, no cycle, an index in range); a throw is a bug in the script.
@discardableResult
private func mustSucceed<T>(_ body: () throws -> T) -> T {
    do {
        return try body()
    } catch {
        fatalError("the live frame script made an edit the store refused: \(error)")
    }
}
