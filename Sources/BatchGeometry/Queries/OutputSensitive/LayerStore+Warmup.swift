// Building the caches the first frame would otherwise build: a warm-up call for loading
// screens, so that the first frame costs what the next ones do.

extension LayerStore {
    /// Builds every cache the per-frame calls keep, ahead of the first frame: the world
    /// plan and the world transforms (`updateWorld(options:)`), the cached drawing order
    /// (even while every sublayer list is in zPosition order: the first out-of-order
    /// zPosition would otherwise build it, O(n), in a frame),
    /// and the subtree bounds with the wide layers' R-trees that `visibleLayers(in:into:)`
    /// and `hitTest(_:rule:)` walk, and the culled hit test's stacks grown to the tree's
    /// depth (else the first hit tests grow them), and the scratch a frame's edits grow
    /// (the refresh queue, ~28 KB in all). Changes no geometry; later edits mark
    /// these caches as usual, and the next frame redoes only what they touched.
    ///
    /// It also parks ahead the sublayers of the wide lists that mask to bounds (the
    /// cards of a scrolling list): each is marked as waiting in its list's drifting cards
    /// with a drift of 0, as its first move would park it (`LayerStore.parksAtOnce`), so
    /// that a list's first row move (an insert or removal that moves the cards below it)
    /// takes the moved-card path every later move takes, not the setter's parking card by
    /// card (1.8–2.9 ms at 1M layers in the first frame of a relayout, Benchmarks/README.md,
    /// "The relayout's first frame"). Results do not change: the first query (or the one
    /// `warmUp(in:into:options:)` runs) redoes the parked cards near its region, whose boxes
    /// come out as they were, and the others wait until a query could meet them.
    ///
    /// Complexity: O(count) the first time (plus O(w log w) for each layer of w ≥ 64
    /// sublayers); O(changed × depth) after edits, as the first query would pay. Parking
    /// ahead is one more pass on every call, O(count): an index-slot read a layer, and a
    /// state byte, a reference lane and a 4-byte entry in its list's drifting list written
    /// a sublayer of a wide masking list. It allocates nothing: 4 bytes a parked card
    /// become resident in room the index build reserved (twice the list's leaves).
    public mutating func warmUp(options: KernelOptions = .default) {
        updateWorld(options: options)
        refreshDrawOrder(building: true)
        refreshSubtreeBounds()
        parkIndexedSublayers()
        if let levels = caches.worldPlan?.levelStarts.count { caches.walkScratch.reserveStacks(levels: levels) }
        reserveEditScratch()
    }

    /// The scratch a frame's edits grow, sized ahead to `warmUpEditScratch` entries (or
    /// kept if larger): the subtree bounds' refresh queue and the refresh's scratch (one
    /// entry a marked layer), the destroyed subtree's slots and the free-slot list, and
    /// room for that many more z value entries (zPositions set on layers that had none). Else
    /// the first frame that edits a few hundred layers grows each of them by doubling
    /// (17 allocations in the live script's first frame at 1M; Benchmarks/README.md, "The
    /// growth frame, third pass"). ~28 KB whatever the store's size; a frame that marks
    /// or destroys more grows them, once. O(1) once grown.
    private mutating func reserveEditScratch() {
        let entries = Self.warmUpEditScratch
        if caches.subtreeBounds.isBuilt && caches.subtreeBounds.queue.capacity < entries {
            caches.subtreeBounds.queue.reserveCapacity(entries)
            caches.subtreeBounds.reserveRefreshScratch()
        }
        caches.structureScratch.reserveCapacity(entries)
        hierarchy.freeSlots.reserveCapacity(hierarchy.freeSlots.count + entries)
        columns.zValues.reserveHeadroom(entries, capacity: layerCapacity)
    }

    /// Entries of each edit scratch `warmUp(options:)` reserves: a frame's marked layers
    /// (the live script's frames mark ~300 at any store size).
    static var warmUpEditScratch: Int { 1_024 }

    /// `warmUp(options:)`, then the frame query over `viewport` into `result`, the result an
    /// engine keeps for its frame loop: the Swift form of `bg_store_warm_up` with a viewport.
    /// Call it last in loading, just before the first frame, with the first frame's viewport.
    ///
    /// Besides the caches, it does the two things `warmUp(options:)` leaves to the first
    /// frame: `result`'s storage grows to what `viewport` shows (the first frame's query
    /// then allocates nothing), and the layers, columns and index nodes that viewport's
    /// query reads are the last memory touched, so the first frame finds them in the CPU
    /// caches. After the O(count) build alone they are not: at 1M layers the first frame
    /// after `warmUp(options:)` costs 3–4 times a later one in cache and TLB misses
    /// (Benchmarks/README.md, "The first frame after warmUp").
    /// `result` holds the query's answer for the store as it is, as after
    /// `visibleLayers(in:into:)`. Changes no geometry.
    ///
    /// Complexity: `warmUp(options:)`'s, plus one frame query: O(visible + visited).
    /// Allocates what the build and `result`'s growth need (nothing once both have grown).
    public mutating func warmUp(
        in viewport: Rect, into result: inout VisibleLayers, options: KernelOptions = .default
    ) {
        warmUp(options: options)
        frameQuery(in: viewport, into: &result, readingWorldCache: false)
    }

    /// `warmUp(options:)`'s last step: parks every sublayer of an indexed list that masks
    /// to bounds which waits for nothing, has a leaf and a known drift (a reference
    /// recorded by the build), in its list's drifting cards, exactly as `parksAtOnce`
    /// would on its first move (the same state bits, list slot, drifting entry and
    /// bound); a card that could not take the drifting list is left as it is. A list whose
    /// drifting cards are then all untouched is marked so (`ParkedDrift.cleanRegions`): a
    /// descent has none of them to redo until one changes. O(count);
    /// allocates nothing (the drifting lists have the room of twice their leaves).
    mutating func parkIndexedSublayers() {
        typealias Mark = SubtreeBounds.Mark
        guard caches.subtreeBounds.isBuilt else { return }
        var bounds = SubtreeBounds()
        swap(&bounds, &caches.subtreeBounds)  // moved out and back: written in place
        var list = 0
        while list < count {
            let slot = Int(bounds.indexSlot[list])
            if slot >= 0, bounds.state[list] & Mark.indexed != 0, columns.flags[list].contains(.masksToBounds) {
                parkSublayersAhead(of: list, slot: slot, &bounds)
            }
            list += 1
        }
        swap(&bounds, &caches.subtreeBounds)
    }

    /// The sublayers of `list` (index position `slot`) that `parkIndexedSublayers` parks.
    private func parkSublayersAhead(of list: Int, slot: Int, _ bounds: inout SubtreeBounds) {
        typealias Mark = SubtreeBounds.Mark
        var sublayer = hierarchy.firstSublayers[list]
        var parkedAny = false
        // Untouched after: every card it parks has its box as its leaf (the refresh ran),
        // and so had those that waited already, if none (or only untouched ones) did.
        let untouched = bounds.drift.lists[slot].isEmpty || bounds.drift.isUntouched(slot)
        while sublayer >= 0 {
            let card = Int(sublayer)
            sublayer = hierarchy.nextSiblings[card]
            guard bounds.state[card] & Mark.waiting == 0, bounds.indexEntry(of: card) >= 0,
                bounds.drift.drift(of: card) != nil, bounds.drift.lists[slot].count < bounds.drift.lists[slot].capacity
            else { continue }
            bounds.state[card] |= Mark.extent | Mark.parked
            bounds.drift.setParkedSlot(slot, of: card)
            let parked = bounds.parkDrifting(card, slot: slot)
            assert(parked, "a card with a leaf, a drift and room parks")
            parkedAny = true
        }
        if parkedAny { bounds.state[list] |= Mark.hasParked }
        // (`parkDrifting` forgot the clean region: a card that joins may lie anywhere.)
        if untouched && !bounds.drift.lists[slot].isEmpty { bounds.drift.cleanRegions[slot] = .untouched }
    }
}
