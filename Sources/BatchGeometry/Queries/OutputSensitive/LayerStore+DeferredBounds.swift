// Deferring the subtree-bounds refresh below masking lists: a layer that masks to bounds
// has its own bounds as its extent, whatever its sublayers do, so a changed sublayer's
// box matters only to a query that descends into that layer. The refresh parks such a
// sublayer's marks in the masking layer's list (wide, indexed layers only: the lists of
// an interface, where the saving is), and the queries redo a list's parked sublayers when
// they are about to read its R-tree or its sublayers' boxes: a list on screen pays for
// its changed sublayers, one off screen pays nothing. Kept apart from the refresh itself
// (LayerStore+SubtreeBounds.swift), which calls in at two points: `parksMarks` and
// `redoParkedIfRead`.

extension LayerStore {
    /// Parks `layer`'s `marks` when its superlayer is indexed and masks to bounds (or
    /// keeps them parked when they already are): it leaves the refresh's queue, marked
    /// `parked`, and its superlayer `hasParked`. True when parked. O(1) amortized.
    @inline(__always)
    func parksMarks(of layer: Int, _ marks: UInt8, _ bounds: inout SubtreeBounds) -> Bool {
        typealias Mark = SubtreeBounds.Mark
        if marks & Mark.parked != 0 {  // already in its superlayer's list: new marks wait with the old
            bounds.state[layer] = marks & ~Mark.queued
            return true
        }
        guard marks & Mark.pending != 0 else { return false }
        let superlayer = Int(hierarchy.parents[layer])
        guard superlayer >= 0, bounds.state[superlayer] & Mark.indexed != 0,
            columns.flags[superlayer].contains(.masksToBounds)
        else { return false }
        bounds.state[layer] = (marks & ~Mark.queued) | Mark.parked
        bounds.state[superlayer] |= Mark.hasParked
        let slot = Int(bounds.indexSlot[superlayer])
        var parked: [Int32] = []
        swap(&parked, &bounds.parkedSublayers[slot])  // moved out and back: appended in place
        parked.append(Int32(truncatingIfNeeded: layer))
        swap(&parked, &bounds.parkedSublayers[slot])
        return true
    }

    /// Before the refresh redoes `layer` for `marks`: when that reads its sublayers'
    /// boxes (its content is redone, or it no longer masks to bounds), redoes its parked
    /// sublayers first and returns `Mark.content` (its union is then redone too); else 0.
    @inline(__always)
    func redoParkedIfRead(_ layer: Int, _ marks: UInt8, _ bounds: inout SubtreeBounds) -> UInt8 {
        typealias Mark = SubtreeBounds.Mark
        guard bounds.state[layer] & Mark.hasParked != 0,
            marks & (Mark.content | Mark.sublayerList | Mark.allSublayers) != 0
                || !columns.flags[layer].contains(.masksToBounds)
        else { return 0 }
        redoParkedSublayers(of: layer, &bounds)
        return Mark.content
    }

    /// Redoes the parked sublayers of `layer` (their boxes and leaves in its R-tree, not
    /// its union) and empties its parked list; an entry that left the list since, or was
    /// redone, is skipped. Returns whether one took a new leaf (it joined the list: the
    /// R-tree may be due for a rebuild). O(parked × their own parked work); allocates
    /// nothing.
    @discardableResult
    func redoParkedSublayers(of layer: Int, _ bounds: inout SubtreeBounds) -> Bool {
        typealias Mark = SubtreeBounds.Mark
        bounds.state[layer] &= ~Mark.hasParked
        let slot = Int(bounds.indexSlot[layer])
        guard slot >= 0 else { return false }
        var parked: [Int32] = []
        swap(&parked, &bounds.parkedSublayers[slot])
        var joined = false
        var k = 0
        while k < parked.count {
            let sublayer = Int(parked[k])
            k += 1
            let marks = bounds.state[sublayer]
            guard marks & Mark.parked != 0, hierarchy.parents[sublayer] == Int32(truncatingIfNeeded: layer) else {
                continue
            }
            bounds.state[sublayer] = marks & Mark.kept
            bounds.lastDeferredVisits += 1
            joined = joined || bounds.indexEntry[sublayer] < 0
            // Its own parked sublayers first when its union is redone; its superlayer
            // (`layer`) is not carried: the caller redoes its union.
            _ = redoBox(sublayer, marks: marks | redoParkedIfRead(sublayer, marks, &bounds), &bounds)
        }
        parked.removeAll(keepingCapacity: true)
        swap(&parked, &bounds.parkedSublayers[slot])
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
        let joined = redoParkedSublayers(of: layer, &bounds)
        bounds.lastDeferredVisits += 1  // its union
        updateContent(of: layer, &bounds, list: joined, all: false)
        swap(&bounds, &caches.subtreeBounds)
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
