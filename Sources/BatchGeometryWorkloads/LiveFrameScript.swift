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
///    pitch, and after the removal those below it in list `b` move up one: every card
///    of a changed list sits at `cardTop + cardPitch · (its position)`. Without it, no
///    other card moves (the new card overlaps the one it was inserted before).
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
/// resident memory then measures what the store keeps, not a tree that grows). The script keeps every list's cards in an
/// array with room reserved for 1,024 more, so its own bookkeeping allocates nothing
/// unless a list grows past that.
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
    package private(set) var lists: [[Card]]
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
        var lists: [[Card]] = []
        for j in 0..<AppLayout.listCount {
            var cards: [Card] = []
            cards.reserveCapacity(layout.cardsInList(j) + Self.reservedCards)
            for card in layout.firstCard(ofList: j)..<layout.firstCard(ofList: j) + layout.cardsInList(j) {
                let base = layout.cardLayer(card)
                func part(_ k: Int) -> LayerHandle? { base + k < layout.layerCount ? store.layer(base + k) : nil }
                cards.append(
                    Card(number: card, layer: store.layer(base), icon: part(1), label: part(2), badge: part(3)))
            }
            lists.append(cards)
        }
        self.lists = lists
    }

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
        let position = random.next(below: lists[j].count + 1)
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
        lists[j].insert(Card(number: number, layer: card, icon: icon, label: label, badge: badge), at: position)
        let moved = relayout ? moveCards(ofList: j, from: position + 1, store: &store) : 0
        return 1 + (settled ? AppLayout.layersPerCard - 1 : Self.insertedSublayerCount) + moved
    }

    private mutating func destroyCard(list j: Int, random: inout SplitMix64, store: inout LayerStore) -> Int {
        guard lists[j].count > 1 else { return 0 }
        let position = random.next(below: lists[j].count)
        let card = lists[j].remove(at: position)
        let destroyed = mustSucceed { try store.destroyLayer(card.layer) }
        let moved = relayout ? moveCards(ofList: j, from: position, store: &store) : 0
        return destroyed + moved
    }

    private func changeZPosition(random: inout SplitMix64, store: inout LayerStore) -> Int {
        let j = random.next(below: AppLayout.listCount)
        guard !lists[j].isEmpty else { return 0 }
        let card = lists[j][random.next(below: lists[j].count)]
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

    /// Moves the cards of list `j` from position `start` on to their positions' places.
    private func moveCards(ofList j: Int, from start: Int, store: inout LayerStore) -> Int {
        var position = start
        while position < lists[j].count {
            let center = Point(x: 4 + AppLayout.cardSize.width / 2, y: cardY(position) + AppLayout.cardSize.height / 2)
            store.setPosition(center, of: lists[j][position].layer)
            position += 1
        }
        return lists[j].count - start
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
            let shown = layout.visibleCards(ofList: j, offset: offset).clamped(to: 0..<lists[j].count)
            for position in shown {
                let card = lists[j][position]
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
            if let first = shown.first, let icon = lists[j][first].icon {
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
