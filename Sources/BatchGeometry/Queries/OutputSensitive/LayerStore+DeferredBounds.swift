// Deferring the subtree-bounds refresh below masking lists: a layer that masks to bounds
// has its own bounds as its extent, whatever its sublayers do, so a changed sublayer's
// box matters only to a query that descends into that layer. The refresh parks such a
// sublayer's marks in the masking layer's list (wide, indexed layers only: the lists of
// an interface, where the saving is), and the queries redo a list's parked sublayers when
// they are about to read its R-tree or its sublayers' boxes: a list on screen pays for
// its changed sublayers, one off screen pays nothing. Kept apart from the refresh itself
// (LayerStore+SubtreeBounds.swift), which calls in at two points: `parksMarks` and
// `redoParkedIfRead`; and the edits' marks at one, `parksAtOnce` (a change of a card's own
// box that waits for nothing else is parked by the setter, not queued).

extension LayerStore {
    /// Parks `layer`'s `marks` when its superlayer is indexed and masks to bounds (or
    /// keeps them parked when they already are): it leaves the refresh's queue, marked
    /// `parked`, and its superlayer `hasParked`. True when parked. O(1) amortized.
    @inline(__always)
    func parksMarks(of layer: Int, _ marks: UInt8, _ bounds: inout SubtreeBounds) -> Bool {
        typealias Mark = SubtreeBounds.Mark
        if marks & Mark.parked != 0 {  // already in its superlayer's list: new marks wait with the old
            bounds.state[layer] = marks & ~Mark.queued
            parkAgain(layer, marks, &bounds)
            return true
        }
        guard marks & Mark.pending != 0 else { return false }
        let superlayer = Int(hierarchy.parents[layer])
        guard superlayer >= 0, bounds.state[superlayer] & Mark.indexed != 0,
            columns.flags[superlayer].contains(.masksToBounds)
        else { return false }
        bounds.state[layer] = (marks & ~Mark.queued) | Mark.parked
        bounds.state[superlayer] |= Mark.hasParked
        parkInList(layer, marks, slot: Int(bounds.indexSlot[superlayer]), &bounds)
        return true
    }

    /// `layer`'s own box changed and it waited for nothing (no `Mark.waiting` bit; the
    /// caller tests that): when its superlayer is an
    /// indexed masking list, parks it now, as the refresh would (`parksMarks`), and
    /// returns true; else false (the caller marks it). A relayout's first move of a list's
    /// cards used to queue thousands, whose depths, sort and parking the next query paid
    /// for on columns gone cold (up to twice a median frame). O(1) amortized.
    @inline(never)
    mutating func parksAtOnce(_ layer: Int) -> Bool {
        typealias Mark = SubtreeBounds.Mark
        let old = caches.subtreeBounds.state[layer]
        let superlayer = Int(hierarchy.parents[layer])
        guard superlayer >= 0, caches.subtreeBounds.state[superlayer] & Mark.indexed != 0,
            columns.flags[superlayer].contains(.masksToBounds)
        else { return false }
        caches.subtreeBounds.state[layer] = old | Mark.extent | Mark.parked
        caches.subtreeBounds.state[superlayer] |= Mark.hasParked
        let slot = Int(caches.subtreeBounds.indexSlot[superlayer])
        caches.subtreeBounds.drift.setParkedSlot(slot, of: layer)
        // Written through the store's own bounds: a call of the store's non-mutating
        // `parkInList` from here passed it a copy of the whole store, each card.
        guard !caches.subtreeBounds.parkDrifting(layer, slot: slot) else { return true }
        var bounds = SubtreeBounds()
        swap(&bounds, &caches.subtreeBounds)  // moved out and back: `appendParked` reads the links
        appendParked(layer, slot: slot, &bounds)
        swap(&bounds, &caches.subtreeBounds)
        return true
    }

    /// Before the refresh redoes `layer` for `marks`: when that reads its sublayers'
    /// boxes (its content is redone, or it no longer masks to bounds), redoes its parked
    /// sublayers first (of a masking list that keeps its index, the parked ones but not
    /// the drifting ones) and returns `Mark.content` (its union is then redone too); else 0.
    @inline(__always)
    func redoParkedIfRead(_ layer: Int, _ marks: UInt8, _ bounds: inout SubtreeBounds) -> UInt8 {
        typealias Mark = SubtreeBounds.Mark
        guard bounds.state[layer] & Mark.hasParked != 0,
            marks & (Mark.content | Mark.sublayerList | Mark.allSublayers) != 0
                || !columns.flags[layer].contains(.masksToBounds)
        else { return 0 }
        // A list that keeps masking and keeps its index (at least the minimum of leaves
        // taken) reads only its leaves, which its drifting cards' old boxes still are:
        // they keep waiting (a row inserted or removed must not redo a whole relayout).
        let slot = Int(bounds.indexSlot[layer])
        if slot >= 0, marks & Mark.allSublayers == 0, columns.flags[layer].contains(.masksToBounds),
            bounds.indexes[slot].count >= SublayerIndex.minimumSublayers
        {
            _ = redoParkedList(of: layer, drifting: false, &bounds)
            if bounds.drift.lists[slot].isEmpty { bounds.state[layer] &= ~Mark.hasParked }
            return Mark.content
        }
        redoParkedSublayers(of: layer, &bounds)
        return Mark.content
    }

    /// Redoes the parked and drifting sublayers of `layer` (their boxes and leaves in its
    /// R-tree, not its union) and empties both lists; an entry that left the list since,
    /// or was redone, is skipped. Returns whether one took a new leaf (it joined the list:
    /// the R-tree may be due for a rebuild). O(parked × their own parked work); allocates
    /// nothing.
    @discardableResult
    func redoParkedSublayers(of layer: Int, _ bounds: inout SubtreeBounds) -> Bool {
        bounds.state[layer] &= ~SubtreeBounds.Mark.hasParked
        guard bounds.indexSlot[layer] >= 0 else { return false }
        let joined = redoParkedList(of: layer, drifting: false, &bounds)
        return redoParkedList(of: layer, drifting: true, &bounds) || joined
    }

    /// Redoes the entries of one of `layer`'s parked lists (`drifting`: the cards parked
    /// with a bounded drift, `ParkedDrift`) and empties it. Returns whether one took a
    /// new leaf.
    func redoParkedList(of layer: Int, drifting: Bool, _ bounds: inout SubtreeBounds) -> Bool {
        let slot = Int(bounds.indexSlot[layer])
        var parked: [Int32] = []
        if drifting {
            swap(&parked, &bounds.drift.lists[slot])
        } else {
            swap(&parked, &bounds.parkedSublayers[slot])
        }
        var joined = false
        var k = 0
        while k < parked.count {
            joined = redoParked(Int(parked[k]), of: layer, &bounds) || joined
            k += 1
        }
        parked.removeAll(keepingCapacity: true)
        if drifting {
            swap(&parked, &bounds.drift.lists[slot])
            bounds.drift.listBounds[slot] = 0
        } else {
            swap(&parked, &bounds.parkedSublayers[slot])
        }
        return joined
    }

    /// Redoes `sublayer` of `layer` when it is still parked there; returns whether it
    /// took a new leaf.
    @inline(__always)
    func redoParked(_ sublayer: Int, of layer: Int, _ bounds: inout SubtreeBounds) -> Bool {
        typealias Mark = SubtreeBounds.Mark
        let marks = bounds.state[sublayer]
        guard marks & Mark.parked != 0, hierarchy.parents[sublayer] == Int32(truncatingIfNeeded: layer) else {
            return false
        }
        bounds.state[sublayer] = marks & Mark.kept
        bounds.lastDeferredVisits += 1
        let joined = bounds.indexEntry(of: sublayer) < 0
        // Its own parked sublayers first when its union is redone; its superlayer
        // (`layer`) is not carried: the caller redoes its union.
        _ = redoBox(sublayer, marks: marks | redoParkedIfRead(sublayer, marks, &bounds), &bounds)
        return joined
    }

    /// Brings the boxes of `layer`'s sublayers, its R-tree and its union up to date
    /// before a query reads them (the refresh parked some: `layer` masks to bounds, so
    /// its own box and everything above it are current already). O(1) when nothing is
    /// parked there; else O(parked sublayers × log w). Allocates nothing once the parked
    /// lists have grown.
    @inline(__always)
    mutating func refreshParkedSublayers(of layer: Int) {
        guard caches.subtreeBounds.state[layer] & SubtreeBounds.Mark.hasParked != 0 else { return }
        redoParkedOnDescent(layer)
    }

    private mutating func redoParkedOnDescent(_ layer: Int) {
        var bounds = SubtreeBounds()
        swap(&bounds, &caches.subtreeBounds)  // moved out, not copied (see refreshSubtreeBounds)
        redoParkedOnDescent(layer, &bounds)
        swap(&bounds, &caches.subtreeBounds)
    }

    /// `refreshParkedSublayers(of:)`'s work on `bounds`, the store's subtree bounds moved
    /// out of it: every parked sublayer of `layer` redone, then its union. Non-mutating, in
    /// one call (see `refreshParkedSublayers(of:near:_:)`).
    func redoParkedOnDescent(_ layer: Int, _ bounds: inout SubtreeBounds) {
        let joined = redoParkedSublayers(of: layer, &bounds)
        bounds.lastDeferredVisits += 1  // its union
        updateContent(of: layer, &bounds, list: joined, all: false)
    }

    /// `refreshSubtreeBounds()`, then every parked sublayer redone: every box, union and
    /// R-tree as a full build makes them (what the invariant checks compare). O(count)
    /// to find the lists with parked sublayers.
    mutating func refreshSubtreeBoundsFully() {
        refreshSubtreeBounds()
        guard caches.subtreeBounds.isBuilt else { return }
        var layer = 0
        while layer < count {
            refreshParkedSublayers(of: layer)
            layer += 1
        }
    }
}
