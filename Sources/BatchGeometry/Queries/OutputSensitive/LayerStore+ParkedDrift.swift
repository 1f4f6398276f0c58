// The store's side of `ParkedDrift`: references recorded where a box is computed, drifts
// the setters note, the choice between the two parked lists, and the frame query's
// descent that redoes only the parked cards near its region.

extension LayerStore {
    /// Records `layer`'s reference for the box `extent` just computed (its superlayer is
    /// indexed): no reference when its map is not a planar one (or a scale whose z part
    /// the plane does not see) that moves with its position, or its superlayer adjusts
    /// its sublayers by more than a flip. O(1).
    @inline(__always)
    func recordMoveReference(of layer: Int, extent: RectEdges, superlayer: Int, _ bounds: inout SubtreeBounds) {
        let kind = columns.transforms.kind(at: layer)
        let scale = kind == .identity ? Point(x: 1, y: 1) : ParkedDrift.planeScale(columns.transforms[layer])
        guard kind <= .affine || scale != nil, columns.sublayerTransforms.kind(at: superlayer) == .identity,
            columns.zValues.areFinite(at: layer),
            !columns.flags[superlayer].contains(.transformLayer), extent != .unbounded
        else {
            bounds.drift.forget(layer)
            return
        }
        // An identity's entries are 0 and 1 (of either sign), all read through `abs` below.
        let m = kind == .identity ? AffineTransform.identity : columns.transforms.affine(at: layer)
        let own = ownBox(of: layer)
        let content = columns.flags[layer].contains(.masksToBounds) ? RectEdges.null : bounds.content(of: layer)
        let box = own.union(content)
        let size = Swift.max(
            Swift.max(abs(box.minX), abs(box.maxX)), Swift.max(abs(box.minY), abs(box.maxY)))
        let anchor =
            abs(columns.anchorX[layer] * columns.boundsWidth[layer])
            + abs(columns.anchorY[layer] * columns.boundsHeight[layer])
        let position = Point(x: columns.positionX[layer], y: columns.positionY[layer])
        let magnitude =
            (abs(m.a) + abs(m.b) + abs(m.c) + abs(m.d)) * ((box.isNull ? 0 : size) + anchor) + abs(m.tx)
            + abs(m.ty) + abs(position.x) + abs(position.y)
        let uniform = scale.flatMap { $0.x == $0.y ? $0.x : nil } ?? .nan
        bounds.drift.record(layer, position: position, scale: uniform, box: extent, magnitude: magnitude)
    }

    /// The references of `layer`'s sublayers, after a full build, a redo of them all or
    /// an index built for them (a parked one keeps its own: its box waits). O(sublayers).
    func recordMoveReferences(ofSublayersOf layer: Int, _ bounds: inout SubtreeBounds) {
        var sublayer = hierarchy.firstSublayers[layer]
        while sublayer >= 0 {
            if bounds.state[Int(sublayer)] & SubtreeBounds.Mark.parked == 0 {
                recordMoveReference(of: Int(sublayer), extent: bounds.extent[Int(sublayer)], superlayer: layer, &bounds)
            }
            sublayer = hierarchy.nextSiblings[Int(sublayer)]
        }
    }

    /// A change other than a move or a transform: `layer`'s drift is unknown until its
    /// box is redone. O(1).
    @inline(__always)
    mutating func invalidateMoveReference(_ layer: Int) {
        guard caches.subtreeBounds.isBuilt else { return }
        // No reference: no drift to lose, and not parked (parking gives it one).
        let reference = Int(caches.subtreeBounds.drift.referenceSlots[layer])
        guard reference >= 0 else { return }
        let hadDrift = caches.subtreeBounds.drift.drift(atReference: reference) != nil
        caches.subtreeBounds.drift.invalidate(atReference: reference)
        raiseParkedDrift(layer, reference: reference, hadDrift: hadDrift)
    }

    /// `layer` leaves or joins a list: its reference goes (its box is redone in the new
    /// list; the old list forgets it, so its bound is not raised). O(1).
    @inline(__always)
    mutating func forgetMoveReference(_ layer: Int) {
        guard caches.subtreeBounds.isBuilt else { return }
        caches.subtreeBounds.drift.forget(layer)
    }

    /// When `layer` (its reference at `reference` in `ParkedDrift.references`) is parked:
    /// raises its list's bound to its drift, for the marks that
    /// `SubtreeBounds.mark` leaves out of the refresh's queue. When its drift just became
    /// unknown (`hadDrift`), it joins the list's parked sublayers instead, which any
    /// descent redoes: the bound, and the rest of the drifting list, stay (a zPosition
    /// set on one far card of a relayout used to redo the whole list). O(1) amortized.
    @inline(__always)
    mutating func raiseParkedDrift(_ layer: Int, reference: Int, hadDrift: Bool) {
        guard caches.subtreeBounds.state[layer] & SubtreeBounds.Mark.parked != 0 else { return }
        // The list's position, kept in the reference when the card was parked (reading
        // `parents` instead was one more cache miss per set).
        let slot = caches.subtreeBounds.drift.parkedSlot(atReference: reference)
        guard let drift = caches.subtreeBounds.drift.drift(atReference: reference) else {
            // Without a drift it is in the parked sublayers already: parked there, or
            // moved there when its drift went (here or in `parkAgain`).
            guard hadDrift else { return }
            var bounds = SubtreeBounds()  // moved out and back: `appendParked` reads the links
            swap(&bounds, &caches.subtreeBounds)
            appendParked(layer, slot: slot, &bounds)
            swap(&bounds, &caches.subtreeBounds)
            return
        }
        // Drifting still, and its box may differ from its leaf now. (One whose drift went
        // waits in the parked sublayers, which every descent redoes first: the list's
        // other drifting cards may stay untouched.)
        caches.subtreeBounds.drift.forgetUntouched(slot)
        if drift > caches.subtreeBounds.drift.listBounds[slot] { caches.subtreeBounds.drift.listBounds[slot] = drift }
    }

    /// `setPosition`'s note: the bound on `layer`'s anchor's move. O(1).
    @inline(__always)
    mutating func noteMoveDrift(_ layer: Int, to position: Point) {
        guard caches.subtreeBounds.isBuilt else { return }
        // No reference: its drift stays unknown, and it is not parked (parking gives one).
        let reference = Int(caches.subtreeBounds.drift.referenceSlots[layer])
        guard reference >= 0 else { return }
        let hadDrift = caches.subtreeBounds.drift.drift(atReference: reference) != nil
        caches.subtreeBounds.drift.noteMove(atReference: reference, to: position)
        raiseParkedDrift(layer, reference: reference, hadDrift: hadDrift)
    }

    /// `offsetPositions(ofSublayersOf:in:by:)` on the `count` sublayers of `superlayer`
    /// from slot `first` on, in list order (the caller checked they are there): each gets
    /// `setPosition(position + offset)`, but runs of those parked in the list's drifting
    /// cards with a known drift (a relayout's moved cards after their first move) take
    /// `moveParkedRun`, and the list's bound is written once a run rather than card by
    /// card. The bound only grows by comparisons (`drift > bound`), so the one write
    /// leaves what the card by card writes would; it is written back before any other
    /// sublayer's setter, which may read or raise it. O(count).
    mutating func offsetPositions(from first: Int32, count: Int, under superlayer: Int, by offset: Point) {
        let list = caches.subtreeBounds.isBuilt ? Int(caches.subtreeBounds.indexSlot[superlayer]) : -1
        var bound = list >= 0 ? caches.subtreeBounds.drift.listBounds[list] : 0
        var layer = Int(first)
        var moved = 0
        while moved < count {
            if list >= 0 && isDrifting(layer, in: list) {
                let run = moveParkedRun(from: layer, count: count - moved, list: list, by: offset, bound: &bound)
                caches.subtreeBounds.drift.listBounds[list] = bound
                caches.subtreeBounds.drift.forgetUntouched(list)
                layer = run.next
                moved += run.moved
                if run.moved > 0 { continue }  // else its new drift is unknown: the setter's path
            }
            setPosition(
                Point(x: columns.positionX[layer] + offset.x, y: columns.positionY[layer] + offset.y), of: layer)
            if list >= 0 { bound = caches.subtreeBounds.drift.listBounds[list] }
            layer = Int(hierarchy.nextSiblings[layer])
            moved += 1
        }
    }

    /// Whether `layer` is parked in list position `list`'s drifting cards with a known
    /// drift (what `moveParkedRun` takes, a non-finite new drift apart). O(1).
    @inline(__always)
    private func isDrifting(_ layer: Int, in list: Int) -> Bool {
        let reference = Int(caches.subtreeBounds.drift.referenceSlots[layer])
        return caches.subtreeBounds.state[layer] & SubtreeBounds.Mark.parked != 0 && reference >= 0
            && caches.subtreeBounds.drift.parkedSlot(atReference: reference) == list
            && caches.subtreeBounds.drift.drift(atReference: reference) != nil
    }

    /// Moves the sublayers from `layer` on (at most `count`, linked by `nextSiblings`) by
    /// `offset` for as long as each is parked in list position `list`'s drifting cards
    /// with a known drift before and after, raising `bound` (the list's, held by the
    /// caller); returns the first sublayer it did not move and how many it moved. Each
    /// gets the setter's writes for such a card, in its order: the position, the change
    /// tracker's mark, the extent bit (`SubtreeBounds.mark` of a parked layer), the edit
    /// log, the drift (`noteMoveDrift`); its state, reference and list read once, and the
    /// columns, the change tracker's and the edit log's ring through their raw addresses
    /// (`ChangeTracker.markingPositions`, `EditLog.recording`): bounds, uniqueness and
    /// room checked once a run, not several times a card. O(moved).
    private mutating func moveParkedRun(
        from layer: Int, count: Int, list: Int, by offset: Point, bound: inout Double
    ) -> (next: Int, moved: Int) {
        typealias Mark = SubtreeBounds.Mark
        var layer = layer
        var moved = 0
        let slot = UInt32(truncatingIfNeeded: list)
        withRawColumn(reading: hierarchy.nextSiblings) { next in
            withRawColumn(reading: caches.subtreeBounds.drift.referenceSlots) { referenceSlots in
                withRawColumn(&columns.positionX) { x in
                    withRawColumn(&columns.positionY) { y in
                        withRawColumn(&caches.subtreeBounds.state) { states in
                            withRawColumn(&caches.subtreeBounds.drift.references) { references in
                                caches.changes.markingPositions { marks in
                                    caches.editLog.recording { log in
                                        while moved < count {
                                            let state = states[layer]
                                            let reference = Int(referenceSlots[layer])
                                            guard state & Mark.parked != 0, reference >= 0 else { return }
                                            var entry = references[reference]
                                            let position = Point(x: x[layer] + offset.x, y: y[layer] + offset.y)
                                            let moveBound = ParkedDrift.moveBound(entry, to: position)
                                            let drift = Double(moveBound) + Double(entry[6])
                                            // Another list's, no drift before or after: the setter's path.
                                            guard entry[7].bitPattern == slot, ParkedDrift.drift(entry) != nil,
                                                drift.isFinite
                                            else { return }
                                            x[layer] = position.x
                                            y[layer] = position.y
                                            marks.markPositionChanged(layer)
                                            if state & Mark.extent == 0 { states[layer] = state | Mark.extent }
                                            log.record(layer)
                                            entry[5] = moveBound
                                            references[reference] = entry
                                            if drift > bound { bound = drift }
                                            layer = Int(next[layer])
                                            moved += 1
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return (layer, moved)
    }

    /// `setTransform`'s note: the bound on `layer`'s box's growth about its anchor. O(1).
    @inline(__always)
    mutating func noteTransformDrift(_ layer: Int, to transform: Transform3D) {
        guard caches.subtreeBounds.isBuilt else { return }
        // The plane scale, two numbers, crosses the call, not the 4×4.
        noteTransformDrift(layer, planeScale: ParkedDrift.planeScale(transform))
    }

    /// `noteTransformDrift(_:to:)` with the transform's `ParkedDrift.planeScale` (nil:
    /// not a plane scale). O(1).
    mutating func noteTransformDrift(_ layer: Int, planeScale: Point?) {
        // No reference: its drift stays unknown, and it is not parked (parking gives one).
        let reference = Int(caches.subtreeBounds.drift.referenceSlots[layer])
        guard reference >= 0 else { return }
        let hadDrift = caches.subtreeBounds.drift.drift(atReference: reference) != nil
        caches.subtreeBounds.drift.noteTransform(atReference: reference, planeScale: planeScale)
        raiseParkedDrift(layer, reference: reference, hadDrift: hadDrift)
    }

    /// Parks `layer` (under the list at index position `slot`) with its `marks`: in the
    /// list's drifting cards when it only moved or scaled since its leaf was set (it has
    /// one) and the drifting list has room, else in the list's parked sublayers (redone
    /// on any descent, as a full drifting list is). Both lists were reserved when the
    /// index was built (`SubtreeBounds.reserveParkedLists`), so a frame that parks in a
    /// list for the first time allocates nothing. O(1) amortized.
    @inline(__always)
    func parkInList(_ layer: Int, _ marks: UInt8, slot: Int, _ bounds: inout SubtreeBounds) {
        typealias Mark = SubtreeBounds.Mark
        bounds.drift.setParkedSlot(slot, of: layer)
        if marks & Mark.pending == Mark.extent && bounds.parkDrifting(layer, slot: slot) { return }
        appendParked(layer, slot: slot, &bounds)
    }

    /// Appends `layer` to list position `slot`'s parked sublayers (redone on any descent);
    /// a full list is first compacted (`compactParkedList`), so it grows only when more of
    /// the list's sublayers wait there than it has room for. O(1) amortized.
    @inline(__always)
    func appendParked(_ layer: Int, slot: Int, _ bounds: inout SubtreeBounds) {
        if bounds.parkedSublayers[slot].count == bounds.parkedSublayers[slot].capacity {
            compactParkedList(of: Int(hierarchy.parents[layer]), slot: slot, drifting: false, &bounds)
        }
        var parked: [Int32] = []
        swap(&parked, &bounds.parkedSublayers[slot])  // moved out and back: appended in place
        parked.append(Int32(truncatingIfNeeded: layer))
        swap(&parked, &bounds.parkedSublayers[slot])
    }

    /// `layer`, parked already, got new `marks`: its list's bound grows to its drift; when
    /// it no longer only moved or scaled, its drift is forgotten and it joins the list's
    /// parked sublayers (once: those with no drift are there already), which any descent
    /// redoes, rather than sending the bound to infinity and the whole drifting list with
    /// it. O(1) amortized.
    @inline(__always)
    func parkAgain(_ layer: Int, _ marks: UInt8, _ bounds: inout SubtreeBounds) {
        typealias Mark = SubtreeBounds.Mark
        let superlayer = Int(hierarchy.parents[layer])
        guard superlayer >= 0, bounds.indexSlot[superlayer] >= 0 else { return }
        let slot = Int(bounds.indexSlot[superlayer])
        guard let drift = bounds.drift.drift(of: layer) else { return }  // in the parked sublayers
        if marks & Mark.pending == Mark.extent {
            bounds.drift.forgetUntouched(slot)  // drifting still, its box no longer its leaf
            bounds.drift.listBounds[slot] = Swift.max(bounds.drift.listBounds[slot], drift)
        } else {
            bounds.drift.invalidate(layer)
            appendParked(layer, slot: slot, &bounds)
        }
    }

    /// Before the frame query reads `layer`'s R-tree over `region` (nil: it reads every
    /// sublayer): redoes its parked sublayers, and of its drifting ones those whose leaf
    /// meets `region` grown by the list's bound; the rest stay parked. O(1) when nothing
    /// is parked, or when only untouched cards `warmUp` parked ahead wait
    /// (`ParkedDrift.cleanRegions`); else O(parked + drifting near the region × log w). The whole drifting
    /// list is redone (every drift 0 again) only when the bound is unknown or the grown
    /// region took in half the list anyway (at most twice what the region cost), so no
    /// frame pays for a relayout's far cards at once; a drifting list past its limit is
    /// compacted, O(its entries), not redone.
    mutating func refreshParkedSublayers(of layer: Int, near region: RectEdges?) {
        guard caches.subtreeBounds.state[layer] & SubtreeBounds.Mark.hasParked != 0 else { return }
        var bounds = SubtreeBounds()
        swap(&bounds, &caches.subtreeBounds)  // moved out, not copied (see refreshSubtreeBounds)
        refreshParkedSublayers(of: layer, near: region, &bounds)
        swap(&bounds, &caches.subtreeBounds)
    }

    /// `refreshParkedSublayers(of:near:)` on `bounds`, the store's subtree bounds moved out
    /// of it (the store's own are not read). Non-mutating, as the frame walk that holds the
    /// bounds so: a mutating caller passes each non-mutating call it makes out of line a
    /// copy of the whole store (~1.4 KB), and this one made several a redone list.
    func refreshParkedSublayers(of layer: Int, near region: RectEdges?, _ bounds: inout SubtreeBounds) {
        guard bounds.state[layer] & SubtreeBounds.Mark.hasParked != 0 else { return }
        let slot = Int(bounds.indexSlot[layer])
        // Only cards `warmUp` parked ahead drift, untouched since (the cards whose drift
        // went wait in the parked sublayers, redone below): every drifting box is its leaf,
        // so none is redone and the R-tree is not searched for them (a scrolling list used
        // to redo them as they came near the frame, on cold columns, each frame).
        let untouched = slot >= 0 && bounds.drift.isUntouched(slot)
        if untouched && bounds.parkedSublayers[slot].isEmpty { return }  // its union is current too
        guard let region, slot >= 0 else { return redoParkedOnDescent(layer, &bounds) }
        let pad = bounds.drift.listBounds[slot]
        // A bound past the list's own size used to redo it all here: a scrolling list's
        // content is thousands of its heights long, so that was a relayout's whole list
        // (34,812 layers in one frame) for a region that meets a few cards more.
        guard pad.isFinite else { return redoParkedOnDescent(layer, &bounds) }
        if bounds.drift.lists[slot].count >= driftingListLimit(bounds.indexes[slot]) {
            compactParkedList(of: layer, slot: slot, drifting: true, &bounds)
        }
        var joined = redoParkedList(of: layer, drifting: false, &bounds)
        if joined {
            _ = redoParkedList(of: layer, drifting: true, &bounds)  // the index may be rebuilt: all current
            bounds.state[layer] &= ~SubtreeBounds.Mark.hasParked
        } else if !bounds.drift.lists[slot].isEmpty && !untouched {
            // (An empty drifting list has no card to find: every parked card without a
            // drift was in the parked sublayers just redone. Searching the R-tree for it
            // anyway was half the R-tree work of a frame whose lists only change cards.)
            joined = redoDriftingNear(region, pad: pad, of: layer, slot: slot, &bounds)
            // The grown region took in half the list: the rest costs no more, and the
            // bound starts again from 0.
            if 2 * bounds.drift.candidates.count >= bounds.indexes[slot].count {
                joined = redoParkedList(of: layer, drifting: true, &bounds) || joined
            }
        }
        if bounds.drift.lists[slot].isEmpty { bounds.state[layer] &= ~SubtreeBounds.Mark.hasParked }
        bounds.lastDeferredVisits += 1  // its union
        updateContent(of: layer, &bounds, list: joined, all: false)
    }

    /// Appends the sublayers of `index` whose leaf meets `region` to `candidates`. (Its
    /// own function: the copy of the index it holds must be gone before the caller writes
    /// the index, or the write copies its arrays.)
    private static func collect(_ index: SublayerIndex, meeting region: RectEdges, into candidates: inout [Int32]) {
        // The build reserved the widest index's leaves (`reserveParkedLists`): a no-op.
        if candidates.capacity < index.leafCount { candidates.reserveCapacity(index.leafCount) }
        index.forEachCandidate({ $0.meets(region) }, { leaf in candidates.append(index.sublayers[leaf]) })
    }

    /// `outer` holds `inner` (edges included; a null `outer` holds nothing): a leaf that
    /// meets `inner` meets `outer`.
    private static func encloses(_ outer: RectEdges, _ inner: RectEdges) -> Bool {
        !outer.isNull && outer.minX <= inner.minX && outer.minY <= inner.minY && inner.maxX <= outer.maxX
            && inner.maxY <= outer.maxY
    }

    /// `box`'s area (its edges' differences' product).
    private static func area(of box: RectEdges) -> Double { (box.maxX - box.minX) * (box.maxY - box.minY) }

    /// How many entries a list's drifting list holds before a descent compacts it
    /// (`ParkedDrift.listLimit(leaves:)` of its sublayers). The room reserved for it is
    /// that of its leaves, no smaller.
    func driftingListLimit(_ index: SublayerIndex) -> Int { ParkedDrift.listLimit(leaves: index.count) }

    /// Drops from one of the parked lists of `layer` (at index position `slot`: its
    /// drifting list when `drifting`, else its parked sublayers) the entries that wait
    /// there no more (redone since, or gone from the list; a list off screen keeps them
    /// until a descent) and the repeats of those that do: each kept card's `parked` bit is
    /// cleared while the list is read, so its later entries fail the test, and set again
    /// after. Done when the parked sublayers are full, before an append (so they grow
    /// only when more of the list's sublayers wait there than they have room for), and
    /// when a descent finds the drifting list past its limit (whose bound stays: it
    /// bounds what is kept). O(entries); allocates nothing.
    private func compactParkedList(of layer: Int, slot: Int, drifting: Bool, _ bounds: inout SubtreeBounds) {
        let parked = SubtreeBounds.Mark.parked
        let list = Int32(truncatingIfNeeded: layer)
        var entries: [Int32] = []
        bounds.swapParkedList(&entries, slot: slot, drifting: drifting)  // moved out and back: written in place
        var kept = 0
        var k = 0
        while k < entries.count {
            let card = Int(entries[k])
            if bounds.state[card] & parked != 0 && hierarchy.parents[card] == list {
                bounds.state[card] &= ~parked
                entries[kept] = entries[k]
                kept += 1
            }
            k += 1
        }
        // One at a time: `removeLast(_:)` goes through the generic `removeSubrange`, whose
        // first call in a debug build instantiates a witness table (heap) in whichever
        // frame first compacts a list.
        while entries.count > kept { entries.removeLast() }
        k = 0
        while k < kept {
            bounds.state[Int(entries[k])] |= parked
            k += 1
        }
        bounds.swapParkedList(&entries, slot: slot, drifting: drifting)
    }

    /// Redoes the drifting sublayers of `layer` whose leaf meets `region` grown by `pad`.
    /// Returns whether one took a new leaf.
    private func redoDriftingNear(
        _ region: RectEdges, pad: Double, of layer: Int, slot: Int, _ bounds: inout SubtreeBounds
    ) -> Bool {
        bounds.refitStaleNodes(of: layer)  // the parked sublayers just redone moved leaves
        // Plus a rounding's width: the walks test boxes against the region in their own
        // forms (a box widened by a margin against a point).
        let size = Swift.max(
            Swift.max(abs(region.minX), abs(region.maxX)), Swift.max(abs(region.minY), abs(region.maxY)))
        let widened = pad + ParkedDrift.roundingSlack * size + Double.leastNormalMagnitude
        let grown = RectEdges(
            minX: region.minX - widened, minY: region.minY - widened, maxX: region.maxX + widened,
            maxY: region.maxY + widened)
        var candidates: [Int32] = []
        swap(&candidates, &bounds.drift.candidates)
        candidates.removeAll(keepingCapacity: true)
        // No drifting card's leaf meets the list's clean region: inside it there is
        // nothing to find (a scrolling list's next frames, the hit tests after a frame).
        let clean = bounds.drift.cleanRegions[slot]
        if Self.encloses(clean, grown) {
            swap(&candidates, &bounds.drift.candidates)
            return false
        }
        // Else search a margin more (a quarter of the grown region's larger side), which
        // then is clean too: its drifting cards are redone once, not a search a frame.
        let margin = 0.25 * Swift.max(grown.maxX - grown.minX, grown.maxY - grown.minY)
        let searched = RectEdges(
            minX: grown.minX - margin, minY: grown.minY - margin, maxX: grown.maxX + margin,
            maxY: grown.maxY + margin)
        Self.collect(bounds.indexes[slot], meeting: searched, into: &candidates)
        // Clean once the loop below has redone them (set first: a card that joins the
        // drifting cards meanwhile, or a new index, forgets it). A smaller search (a hit
        // test's point) keeps a larger clean region.
        if clean.isNull || !(Self.area(of: clean) > Self.area(of: searched)) {
            bounds.drift.cleanRegions[slot] = searched
        }
        var joined = false
        var k = 0
        while k < candidates.count {
            joined = redoParked(Int(candidates[k]), of: layer, &bounds) || joined
            k += 1
        }
        swap(&candidates, &bounds.drift.candidates)
        return joined
    }
}

extension SubtreeBounds {
    /// Appends `layer`, parked under the list at index position `slot` (lane 7 set), to
    /// that list's drifting cards when it has a leaf, a known drift and room there, and
    /// raises the list's bound to its drift; false (nothing done) otherwise. O(1).
    @inline(__always)
    mutating func parkDrifting(_ layer: Int, slot: Int) -> Bool {
        guard indexEntry(of: layer) >= 0, drift.lists[slot].count < drift.lists[slot].capacity,
            let bound = drift.drift(of: layer)
        else { return false }
        drift.listBounds[slot] = Swift.max(drift.listBounds[slot], bound)
        drift.cleanRegions[slot] = .null  // its leaf may lie there
        var parked: [Int32] = []
        swap(&parked, &drift.lists[slot])  // moved out and back: appended in place
        parked.append(Int32(truncatingIfNeeded: layer))
        swap(&parked, &drift.lists[slot])
        return true
    }

    /// Swaps `entries` with list position `slot`'s drifting list (`drifting`) or its parked
    /// sublayers: how a compaction moves a list out and back to write it in place.
    @inline(__always)
    mutating func swapParkedList(_ entries: inout [Int32], slot: Int, drifting: Bool) {
        if drifting {
            swap(&entries, &drift.lists[slot])
        } else {
            swap(&entries, &parkedSublayers[slot])
        }
    }
}
