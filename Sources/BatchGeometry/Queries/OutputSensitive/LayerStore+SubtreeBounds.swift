// Keeping `SubtreeBounds` up to date: the full build (once), the marks every edit makes,
// and the refresh that redoes the marked layers deepest first, so a superlayer's union
// is recomputed once, after all its changed sublayers.

extension LayerStore {

    /// Brings the subtree bounds up to date: the first call builds them (O(count)); later
    /// ones redo the marked layers and their ancestors up to the first whose extent does
    /// not change: O(changed × depth), plus O(log w) for each sublayer added to a wide
    /// layer (its leaf; a removal freed its leaf when it happened), and O(w log w) for a
    /// wide layer's index that is due for a rebuild (after w/2 edits: O(log w) amortized).
    mutating func refreshSubtreeBounds() {
        // Moved out and back (a copy would retain and release every column, each frame),
        // so the columns are unshared and written in place.
        var bounds = SubtreeBounds()
        swap(&bounds, &caches.subtreeBounds)
        if !bounds.isBuilt || !refresh(&bounds) { build(&bounds) }
        swap(&bounds, &caches.subtreeBounds)
        let room = caches.subtreeBounds.walkCandidateRoom
        if caches.walkScratch.candidates.capacity < room { caches.walkScratch.candidates.reserveCapacity(room) }
    }

    /// Every layer's content and extent, sublayers before superlayers. O(count).
    private func build(_ bounds: inout SubtreeBounds) {
        let count = self.count
        bounds.contentSlots = RemappedColumn(repeating: -1, count: count)
        bounds.contents = []
        bounds.extent = RemappedColumn(repeating: .null, count: count)
        bounds.state = RemappedColumn(repeating: 0, count: count)
        bounds.indexes = []
        bounds.parkedSublayers = []
        bounds.drift = ParkedDrift()
        bounds.drift.referenceSlots = RemappedColumn(repeating: -1, count: count)
        bounds.lastDeferredVisits = 0
        bounds.indexSlot = RemappedColumn(repeating: -1, count: count)
        bounds.reserveColumns(layerCapacity)
        bounds.reserveContents(forCapacity: layerCapacity, joining: layersWithSublayers(), openingAhead: true)
        bounds.drift.reserveReferences(
            forCapacity: layerCapacity, joining: sublayersOfWideLayers(), openingAhead: true)
        bounds.freeIndexSlots = []
        bounds.queue.removeAll()
        bounds.lastRefreshVisits = count
        bounds.lastRefreshIndexRebuilds = 0
        bounds.lastRefreshIndexedSublayers = 0
        bounds.lastRefreshIndexRefits = 0
        bounds.lastRefreshIndexInserts = 0
        for layer in preorderIndices().reversed() {
            updateContent(of: layer, &bounds, list: true, all: false)
            bounds.extent[layer] = computedExtent(of: layer, &bounds)
        }
        for layer in 0..<count where bounds.indexSlot[layer] >= 0 {
            recordMoveReferences(ofSublayersOf: layer, &bounds)
        }
        bounds.isBuilt = true
    }

    /// How many layers have sublayers: the most content entries a build makes (the
    /// others' content is null), so that it reserves them at once. O(count).
    private func layersWithSublayers() -> Int {
        var total = 0
        var layer = 0
        while layer < count {
            if hierarchy.firstSublayers[layer] >= 0 { total += 1 }
            layer += 1
        }
        return total
    }

    /// How many layers lie in lists of at least `SublayerIndex.minimumSublayers`: the
    /// most drift references a build records (the sublayers of the lists it indexes), so
    /// that it reserves them at once, not by doubling. O(count).
    private func sublayersOfWideLayers() -> Int {
        var total = 0
        var layer = 0
        while layer < count {
            var sublayers = 0
            var sublayer = hierarchy.firstSublayers[layer]
            while sublayer >= 0 {
                sublayers += 1
                sublayer = hierarchy.nextSiblings[Int(sublayer)]
            }
            if sublayers >= SublayerIndex.minimumSublayers { total += sublayers }
            layer += 1
        }
        return total
    }

    /// Redoes the marked layers, deepest first, level by level: every layer of a depth
    /// before any layer above it, so a superlayer's union is redone once, after all its
    /// changed sublayers. False (nothing done) when finding their depths would cost more
    /// than a full build: many marks, or marks deep in a chain.
    ///
    /// The marked layers are sorted by depth by counting (not a heap: a relayout marks
    /// thousands of cards, and a heap's O(log n) pushes and pops were a fifth of the
    /// refresh); the superlayers the redo marks go to the next level's list.
    private func refresh(_ bounds: inout SubtreeBounds) -> Bool {
        bounds.lastRefreshVisits = 0
        bounds.lastDeferredVisits = 0
        bounds.lastRefreshIndexRebuilds = 0
        bounds.lastRefreshIndexedSublayers = 0
        bounds.lastRefreshIndexRefits = 0
        bounds.lastRefreshIndexInserts = 0
        guard !bounds.queue.isEmpty else { return true }
        guard sortQueueByDepth(&bounds) else { return false }
        var level = bounds.levelStarts.count - 2
        while level >= 0 {
            // The superlayers the level below marked are at this depth.
            swap(&bounds.carried, &bounds.carrying)
            bounds.carrying.removeAll(keepingCapacity: true)
            var k = bounds.levelStarts[level]
            while k < bounds.levelStarts[level + 1] {
                redoMarked(Int(bounds.sortedQueue[k]), &bounds)
                k += 1
            }
            k = 0
            while k < bounds.carried.count {
                redoMarked(Int(bounds.carried[k]), &bounds)
                k += 1
            }
            level -= 1
        }
        bounds.carried.removeAll(keepingCapacity: true)
        bounds.carrying.removeAll(keepingCapacity: true)
        return true
    }

    /// Sorts `bounds.queue` by depth into `sortedQueue` (level d's layers at
    /// `levelStarts[d] ..< levelStarts[d + 1]`) and empties the queue. False (queue kept)
    /// when the depths cost more than `count` steps to find. O(marked + depth).
    private func sortQueueByDepth(_ bounds: inout SubtreeBounds) -> Bool {
        var budget = count
        var deepest = 0
        bounds.reserveRefreshScratch()
        bounds.depths.removeAll(keepingCapacity: true)
        var k = 0
        while k < bounds.queue.count {  // not `for in`: its iterator allocates unoptimized
            let depth = depth(of: Int(bounds.queue[k]), limit: budget)
            guard depth < budget else { return false }
            budget -= depth + 1
            deepest = Swift.max(deepest, depth)
            bounds.depths.append(Int32(truncatingIfNeeded: depth))
            k += 1
        }
        bounds.levelStarts.removeAll(keepingCapacity: true)
        while bounds.levelStarts.count < deepest + 2 { bounds.levelStarts.append(0) }
        k = 0
        while k < bounds.depths.count {
            bounds.levelStarts[Int(bounds.depths[k]) + 1] += 1
            k += 1
        }
        k = 1
        while k < bounds.levelStarts.count {
            bounds.levelStarts[k] += bounds.levelStarts[k - 1]
            k += 1
        }
        bounds.sortedQueue.removeAll(keepingCapacity: true)
        while bounds.sortedQueue.count < bounds.queue.count { bounds.sortedQueue.append(0) }
        // Place each at its level's next free position (levelStarts[d] counts up to the
        // start of level d + 1, then is restored from level d - 1's end).
        k = 0
        while k < bounds.queue.count {
            let depth = Int(bounds.depths[k])
            bounds.sortedQueue[bounds.levelStarts[depth]] = bounds.queue[k]
            bounds.levelStarts[depth] += 1
            k += 1
        }
        k = bounds.levelStarts.count - 1
        while k > 0 {
            bounds.levelStarts[k] = bounds.levelStarts[k - 1]
            k -= 1
        }
        bounds.levelStarts[0] = 0
        bounds.queue.removeAll(keepingCapacity: true)
        return true
    }

    /// Clears `layer`'s marks and redoes what they ask for.
    @inline(__always)
    private func redoMarked(_ layer: Int, _ bounds: inout SubtreeBounds) {
        let marks = bounds.state[layer]
        guard !parksMarks(of: layer, marks, &bounds) else { return }
        bounds.state[layer] = marks & SubtreeBounds.Mark.kept
        guard marks & SubtreeBounds.Mark.pending != 0 else { return }
        bounds.lastRefreshVisits += 1
        redo(layer, marks: marks, &bounds)
    }

    /// Redoes `layer`'s content and extent for `marks`. When its extent changes, or it
    /// waits for a leaf in its superlayer's index (it joined the list since the last
    /// refresh), updates that index and marks the superlayer (for the next level up).
    private func redo(_ layer: Int, marks: UInt8, _ bounds: inout SubtreeBounds) {
        guard let superlayer = redoBox(layer, marks: marks | redoParkedIfRead(layer, marks, &bounds), &bounds) else {
            return
        }
        typealias Mark = SubtreeBounds.Mark
        let old = bounds.state[superlayer]
        bounds.state[superlayer] = old | Mark.content | Mark.queued
        if old & Mark.queued == 0 { bounds.carrying.append(Int32(truncatingIfNeeded: superlayer)) }
    }

    /// `redo`'s own part: `layer`'s content, extent and leaf in its superlayer's index;
    /// returns the superlayer when its content may have changed (nil: nothing to carry).
    func redoBox(_ layer: Int, marks: UInt8, _ bounds: inout SubtreeBounds) -> Int? {
        typealias Mark = SubtreeBounds.Mark
        let contentChanged =
            marks & (Mark.content | Mark.sublayerList | Mark.allSublayers) != 0
            && updateContent(
                of: layer, &bounds, list: marks & Mark.sublayerList != 0, all: marks & Mark.allSublayers != 0)
        // A rotated layer's extent reads each sublayer's (`sublayerWiseExtent`), which
        // may change while their union does not.
        let sublayerChanged = marks & (Mark.content | Mark.sublayerList | Mark.allSublayers) != 0
        guard contentChanged || marks & Mark.extent != 0 || (sublayerChanged && !bounds.content(of: layer).isNull)
        else { return nil }
        let extent = computedExtent(of: layer, &bounds)
        let superlayer = Int(hierarchy.parents[layer])
        let indexedSuperlayer = superlayer >= 0 && bounds.state[superlayer] & Mark.indexed != 0
        let needsLeaf = indexedSuperlayer && bounds.indexEntry(of: layer) < 0
        if indexedSuperlayer { recordMoveReference(of: layer, extent: extent, superlayer: superlayer, &bounds) }
        guard extent != bounds.extent[layer] || needsLeaf else { return nil }
        bounds.extent[layer] = extent
        guard superlayer >= 0 else { return nil }
        if needsLeaf {
            bounds.insertLeaf(of: layer, into: superlayer, box: extent)
        } else if indexedSuperlayer {
            bounds.refitIndex(of: superlayer, leaf: Int(bounds.indexEntry(of: layer)), to: extent)
        }
        return superlayer
    }

    /// The number of ancestors of `layer`, or `limit` when it has at least that many.
    /// O(min(depth, limit)).
    func depth(of layer: Int, limit: Int = .max) -> Int {
        var depth = 0
        var current = hierarchy.parents[layer]
        while current >= 0 && depth < limit {
            depth += 1
            current = hierarchy.parents[Int(current)]
        }
        return depth
    }

    /// Recomputes `layer`'s content; returns whether it changed. `list`: the sublayer
    /// list changed (an index kept up to date by the edits may now be due for a rebuild,
    /// or to be built or dropped); `all`: every sublayer's extent is stale.
    @discardableResult
    func updateContent(of layer: Int, _ bounds: inout SubtreeBounds, list: Bool, all: Bool) -> Bool {
        let indexed = bounds.state[layer] & SubtreeBounds.Mark.indexed != 0
        if indexed { bounds.refitStaleNodes(of: layer) }
        if all {
            var sublayer = hierarchy.firstSublayers[layer]
            while sublayer >= 0 {
                bounds.extent[Int(sublayer)] = computedExtent(of: Int(sublayer), &bounds)
                sublayer = hierarchy.nextSiblings[Int(sublayer)]
            }
            if indexed { recordMoveReferences(ofSublayersOf: layer, &bounds) }
        }
        var keepsIndex = indexed && !list && !all
        if indexed && !keepsIndex {
            let index = bounds.index(of: layer)
            keepsIndex = index.count >= SublayerIndex.minimumSublayers && !index.needsRebuild
            if keepsIndex && all { bounds.refitAllLeaves(of: layer) }
        }
        let content = keepsIndex ? bounds.indexBounds(of: layer) : rebuildSublayerIndex(of: layer, &bounds)
        guard content != bounds.content(of: layer) else { return false }
        bounds.setContent(content, of: layer)
        return true
    }

    /// Builds (or drops) `layer`'s index from its sublayer list and returns the union of
    /// its sublayers' extents. O(w log w) with an index, O(w) without; allocates nothing
    /// once the index and the build's scratch have grown to the list. An indexed layer's
    /// list (most likely still wide) is walked once, into the build's input; another's is
    /// walked for its count first.
    private func rebuildSublayerIndex(of layer: Int, _ bounds: inout SubtreeBounds) -> RectEdges {
        let indexed = bounds.state[layer] & SubtreeBounds.Mark.indexed != 0
        var union = RectEdges.null
        var sublayerCount = 0
        // Cleared only when filled: most lists here are a card's few sublayers.
        if indexed { bounds.buildScratch.removeAll() }
        var sublayer = hierarchy.firstSublayers[layer]
        while sublayer >= 0 {
            let extent = bounds.extent[Int(sublayer)]
            union = union.union(extent)
            if indexed {
                bounds.buildScratch.sublayers.append(sublayer)
                bounds.buildScratch.extents.append(extent)
            }
            sublayerCount += 1
            sublayer = hierarchy.nextSiblings[Int(sublayer)]
        }
        guard sublayerCount >= SublayerIndex.minimumSublayers else {
            if indexed {
                bounds.state[layer] &= ~SubtreeBounds.Mark.indexed
                bounds.setIndex(nil, of: layer)
                var k = 0
                while k < bounds.buildScratch.sublayers.count {
                    bounds.setIndexEntry(-1, of: Int(bounds.buildScratch.sublayers[k]))
                    k += 1
                }
            }
            return union
        }
        if !indexed {
            bounds.buildScratch.removeAll()
            sublayer = hierarchy.firstSublayers[layer]
            while sublayer >= 0 {
                bounds.buildScratch.sublayers.append(sublayer)
                bounds.buildScratch.extents.append(bounds.extent[Int(sublayer)])
                sublayer = hierarchy.nextSiblings[Int(sublayer)]
            }
        }
        bounds.buildIndex(of: layer)
        recordMoveReferences(ofSublayersOf: layer, &bounds)
        bounds.lastRefreshIndexRebuilds += 1
        bounds.lastRefreshIndexedSublayers += sublayerCount
        return bounds.indexBounds(of: layer)
    }

    /// `layer`'s extent from its properties and its (current) content. Null when nothing
    /// of its subtree can draw or be hit: hidden, or a detached root. (`bounds` is inout,
    /// though only read, so that callers holding it inout pass its address: by value, each
    /// call copied the whole struct, 264 bytes.)
    func computedExtent(of layer: Int, _ bounds: inout SubtreeBounds) -> RectEdges {
        let layerFlags = columns.flags[layer]
        let superlayer = Int(hierarchy.parents[layer])
        if layerFlags.contains(.hidden) || (superlayer < 0 && layerFlags.contains(.detached)) { return .null }
        let own = ownBox(of: layer)
        let content = layerFlags.contains(.masksToBounds) ? RectEdges.null : bounds.content(of: layer)
        let box = own.union(content)
        if box.isNull { return .null }
        // Under a transform layer the subtree keeps its depth: no plane to bound it in.
        if superlayer >= 0 && columns.flags[superlayer].contains(.transformLayer) { return .unbounded }
        // Most boxes a frame redoes (labels, badges, cards) only shift: a translation does
        // not rotate (no sublayer-wise extent) and needs neither the affine's read nor its
        // products (~40% of a box's instructions went there).
        if superlayer >= 0, let shift = translationToSuperlayer(of: layer, superlayer: superlayer) {
            return translatedBox(box, by: shift)
        }
        let map: PlaneMap
        if superlayer >= 0, let planar = planarTransformToSuperlayer(of: layer, superlayer: superlayer) {
            map = PlaneMap(planar)
        } else {
            map = PlaneMap(transformToSuperlayer(of: layer))
        }
        if !content.isNull, map.isRotatingAffine, let tight = sublayerWiseExtent(of: layer, own: own, map, &bounds) {
            return tight
        }
        return mappedBox(box, through: map)
    }

    /// `planarTransformToSuperlayer(of:superlayer:)`'s translation when `layer`'s transform
    /// is an identity or a translation and the superlayer neither flips nor has a
    /// sublayerTransform: the same expressions with a = d = 1 and b = c = 0 (so the same
    /// values; `x · 1` is `x` exactly, `x · 0` is kept for its sign and NaN). Else nil.
    @inline(__always)
    private func translationToSuperlayer(of layer: Int, superlayer: Int) -> (x: Double, y: Double)? {
        let kind = columns.transforms.kind(at: layer)
        guard kind <= .translate, columns.zValues.areFinite(at: layer),
            !columns.flags[superlayer].contains(.geometryFlipped),
            columns.sublayerTransforms.kind(at: superlayer) == .identity
        else { return nil }
        var mtx = 0.0
        var mty = 0.0
        if kind != .identity {
            let m = columns.transforms.affine(at: layer)
            // Bit for bit: a -0 would give a zero product another sign than the constant's.
            guard m.a == 1 && m.b.bitPattern == 0 && m.c.bitPattern == 0 && m.d == 1 else { return nil }
            (mtx, mty) = (m.tx, m.ty)
        }
        let ax = -(columns.boundsX[layer] + columns.anchorX[layer] * columns.boundsWidth[layer])
        let ay = -(columns.boundsY[layer] + columns.anchorY[layer] * columns.boundsHeight[layer])
        return (((ax + ay * 0) + mtx) + columns.positionX[layer], ((ax * 0 + ay) + mty) + columns.positionY[layer])
    }

    /// The extent of `layer` under a rotating (or shearing) affine map, from its own box
    /// and each sublayer's extent mapped one by one: the box around a rotated union of
    /// boxes is far larger than the union of the boxes around each (the corners of the
    /// union's box, empty, swing out), and those corners are what made the culled hit
    /// test enter subtrees it could not hit. Nil when the layer has more than
    /// `sublayerWiseLimit` sublayers (one box for the whole content then). O(sublayers).
    private func sublayerWiseExtent(
        of layer: Int, own: RectEdges, _ map: PlaneMap, _ bounds: inout SubtreeBounds
    ) -> RectEdges? {
        var box = mappedBox(own, through: map)
        var sublayer = hierarchy.firstSublayers[layer]
        var count = 0
        while sublayer >= 0 {
            count += 1
            guard count <= sublayerWiseLimit else { return nil }
            box = box.union(mappedBox(bounds.extent[Int(sublayer)], through: map))
            sublayer = hierarchy.nextSiblings[Int(sublayer)]
        }
        return box
    }

    /// How many sublayers a rotated layer maps one by one (`sublayerWiseExtent`): a
    /// refresh of it then reads them all, so only short lists.
    var sublayerWiseLimit: Int { 16 }

    /// The layer's bounds rect as a box, whatever the signs of its size: a rect of zero
    /// width still has corners that a rotation or a perspective spreads into an area
    /// (and a world rect with one), so only the 3D walk decides; unbounded when an edge is
    /// not finite (a NaN corner is skipped by the world rect's min and max).
    @inline(__always)
    func ownBox(of layer: Int) -> RectEdges {
        let x0 = columns.boundsX[layer]
        let y0 = columns.boundsY[layer]
        let x1 = x0 + columns.boundsWidth[layer]
        let y1 = y0 + columns.boundsHeight[layer]
        guard x0.isFinite && y0.isFinite && x1.isFinite && y1.isFinite else { return .unbounded }
        return RectEdges(
            minX: Swift.min(x0, x1), minY: Swift.min(y0, y1), maxX: Swift.max(x0, x1), maxY: Swift.max(y0, y1))
    }
}

// MARK: Marks made by edits

extension LayerStore {
    /// `layer`'s own geometry changed; `adjustInputs`: what changed also feeds its
    /// sublayer adjustments (bounds, anchor point, anchorPointZ), which matters only when
    /// it flips or has a sublayerTransform. O(1).
    @inline(__always)
    mutating func boundsDidChange(_ layer: Int, adjustInputs: Bool = false) {
        guard caches.subtreeBounds.isBuilt else { return }
        var bits = SubtreeBounds.Mark.extent
        if adjustInputs && hierarchy.firstSublayers[layer] >= 0
            && (columns.flags[layer].contains(.geometryFlipped)
                || columns.sublayerTransforms.kind(at: layer) != .identity)
        {
            bits |= SubtreeBounds.Mark.allSublayers
        }
        // Only a layer that waits for nothing may be parked here; the test is inline, the
        // park out of line (inlined, it made every setter's hot path slower).
        if bits == SubtreeBounds.Mark.extent
            && caches.subtreeBounds.state[layer] & SubtreeBounds.Mark.waiting == 0 && parksAtOnce(layer)
        {
            return
        }
        caches.subtreeBounds.mark(layer, bits)
    }

    /// `layer`'s sublayer adjustments (flip, sublayerTransform, transform-layer flag)
    /// changed: every sublayer's extent is stale. O(1).
    @inline(__always)
    mutating func sublayerAdjustmentDidChange(_ layer: Int) {
        caches.subtreeBounds.mark(layer, SubtreeBounds.Mark.allSublayers)
    }

    /// `layer` was linked into (`joined`, after the links are set) or out of (before
    /// they are cleared) `superlayer`'s list (-1: the roots). A wide superlayer's index
    /// frees the leaving layer's leaf at once, and labels a joining one (its leaf waits
    /// for the refresh, which knows its extent); its rank tree takes or drops the layer's
    /// node (`SublayerRanks.swift`); the drawing-order cache moves it when it can tell
    /// where (`DrawOrderCache.link`). O(log w) amortized.
    @inline(__always)
    mutating func sublayerListDidChange(_ layer: Int, superlayer: Int32, joined: Bool) {
        if superlayer >= 0 {
            let parent = Int(superlayer)
            // Waiting in the old superlayer's parked list no more: its marks go with it.
            if caches.subtreeBounds.isBuilt { caches.subtreeBounds.state[layer] &= ~SubtreeBounds.Mark.parked }
            if caches.subtreeBounds.isBuilt && caches.subtreeBounds.state[parent] & SubtreeBounds.Mark.indexed != 0 {
                if joined {
                    labelJoiningSublayer(layer)
                    caches.subtreeBounds.insertRank(
                        of: layer, into: parent, previous: hierarchy.previousSiblings[layer],
                        next: hierarchy.nextSiblings[layer])
                } else {
                    caches.subtreeBounds.removeLeaf(of: layer, from: parent)
                    caches.subtreeBounds.removeRank(of: layer, from: parent, next: hierarchy.nextSiblings[layer])
                }
            }
            caches.subtreeBounds.mark(parent, SubtreeBounds.Mark.sublayerList)
            if joined {
                linkInDrawOrder(layer, under: parent)
            } else {
                caches.drawOrderCache.unlink(layer, from: parent)
            }
        }
        if caches.subtreeBounds.isBuilt { caches.subtreeBounds.setIndexEntry(-1, of: layer) }
        caches.subtreeBounds.mark(layer, SubtreeBounds.Mark.extent)
    }

    /// `layer`'s zPosition changed: its extent (through a superlayer's 3D adjustments)
    /// and its place in its superlayer's drawing order, moved in the cache when a list
    /// neighbour has its new key, else re-sorted at the next query. O(1).
    @inline(__always)
    mutating func zPositionDidChange(_ layer: Int) {
        caches.subtreeBounds.mark(layer, SubtreeBounds.Mark.extent)
        let superlayer = hierarchy.parents[layer]
        if superlayer >= 0 {
            caches.drawOrderCache.unlink(layer, from: Int(superlayer))
            linkInDrawOrder(layer, under: Int(superlayer))
        }
    }

    /// Puts `layer`, linked into `superlayer`'s list, in the cached drawing order.
    @inline(__always)
    private mutating func linkInDrawOrder(_ layer: Int, under superlayer: Int) {
        guard caches.drawOrderCache.isBuilt else { return }
        let previous = hierarchy.previousSiblings[layer]
        let next = hierarchy.nextSiblings[layer]
        let key = drawOrderKey(columns.zValues.zPosition(at: layer))
        caches.drawOrderCache.link(
            layer, into: superlayer, listPrevious: previous, listNext: next,
            keyMatchesPrevious: previous >= 0 && drawOrderKey(columns.zValues.zPosition(at: Int(previous))) == key,
            keyMatchesNext: next >= 0 && drawOrderKey(columns.zValues.zPosition(at: Int(next))) == key)
    }

    /// Gives `layer`, just linked into an indexed list, an order label between its
    /// neighbours' (a fixed step past the last label when it is appended, so that appends
    /// do not halve the gap each time). When they leave no room, relabels the smallest
    /// aligned label range around it that is sparse enough: Bender et al.'s list
    /// labelling ("Two simplified algorithms for maintaining order in a list"), O(log w)
    /// amortized.
    mutating func labelJoiningSublayer(_ layer: Int) {
        let previous = hierarchy.previousSiblings[layer]
        let next = hierarchy.nextSiblings[layer]
        let low = previous >= 0 ? caches.subtreeBounds.orderLabel(of: Int(previous)) : 0
        let high = next >= 0 ? caches.subtreeBounds.orderLabel(of: Int(next)) : orderLabelLimit
        guard high > low && high - low >= 2 else { return relabel(around: layer) }
        let half = (high - low) / 2
        let step: UInt64 = 1 << 32
        let label = next < 0 ? low + Swift.min(half, step) : previous < 0 ? high - Swift.min(half, step) : low + half
        caches.subtreeBounds.setOrderLabel(label, of: layer)
    }

    /// Relabels the sublayers whose labels lie in the smallest range of 2^k labels around
    /// `layer`'s neighbour (aligned to 2^k) that holds at most (4/3)^k of them with
    /// `layer`, evenly; `layer` (unlabelled) has a neighbour.
    private mutating func relabel(around layer: Int) {
        let previous = hierarchy.previousSiblings[layer]
        let anchor = caches.subtreeBounds.orderLabel(of: Int(previous >= 0 ? previous : hierarchy.nextSiblings[layer]))
        var first = layer
        var last = layer
        var count: UInt64 = 1
        var limit = 1.0
        var bits: UInt64 = 0
        var size: UInt64 = 1
        var base: UInt64 = 0
        repeat {
            bits += 1
            limit *= 4.0 / 3.0
            size = 1 << bits
            base = anchor & ~(size - 1)
            while hierarchy.previousSiblings[first] >= 0
                && caches.subtreeBounds.orderLabel(of: Int(hierarchy.previousSiblings[first])) >= base
            {
                first = Int(hierarchy.previousSiblings[first])
                count += 1
            }
            while hierarchy.nextSiblings[last] >= 0
                && caches.subtreeBounds.orderLabel(of: Int(hierarchy.nextSiblings[last])) < base + size
            {
                last = Int(hierarchy.nextSiblings[last])
                count += 1
            }
        } while Double(count) > limit && bits < 62
        let spacing = size / (count + 1)
        var label = base
        var current = first
        while true {
            label += spacing
            caches.subtreeBounds.setOrderLabel(label, of: current)
            if current == last { break }
            current = Int(hierarchy.nextSiblings[current])
        }
    }
}
