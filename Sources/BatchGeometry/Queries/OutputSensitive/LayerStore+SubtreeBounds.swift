// Keeping `SubtreeBounds` up to date: the full build (once), the marks every edit makes,
// and the refresh that redoes the marked layers deepest first, so a superlayer's union
// is recomputed once, after all its changed sublayers.

extension LayerStore {
    /// What the last refresh of the subtree bounds (the first output-sensitive query
    /// after edits) redid: the layers whose boxes it recomputed, and the wide layers'
    /// indexes it rebuilt with the sublayers they hold. For batchbench's cost report;
    /// not API. O(1).
    @_spi(Testing)
    public var _lastSubtreeRefresh: (refreshedLayers: Int, rebuiltIndexes: Int, rebuiltIndexEntries: Int) {
        (
            subtreeBounds.lastRefreshVisits, subtreeBounds.lastRefreshIndexRebuilds,
            subtreeBounds.lastRefreshIndexedSublayers
        )
    }

    /// Brings the subtree bounds up to date: the first call builds them (O(count)); later
    /// ones redo the marked layers and their ancestors up to the first whose extent does
    /// not change: O(changed × depth), plus O(w log w) for a wide layer whose sublayer
    /// list changed.
    mutating func refreshSubtreeBounds() {
        var bounds = subtreeBounds
        subtreeBounds = SubtreeBounds()  // unshare the columns before writing them
        if !bounds.isBuilt || !refresh(&bounds) { build(&bounds) }
        subtreeBounds = bounds
    }

    /// Every layer's content and extent, sublayers before superlayers. O(count).
    private func build(_ bounds: inout SubtreeBounds) {
        let count = self.count
        bounds.content = Array(repeating: .null, count: count)
        bounds.extent = Array(repeating: .null, count: count)
        bounds.state = Array(repeating: 0, count: count)
        bounds.indexEntry = Array(repeating: -1, count: count)
        bounds.indexes = []
        bounds.indexSlot = Array(repeating: -1, count: count)
        bounds.freeIndexSlots = []
        bounds.queue.removeAll()
        bounds.lastRefreshVisits = count
        bounds.lastRefreshIndexRebuilds = 0
        bounds.lastRefreshIndexedSublayers = 0
        for layer in preorderIndices().reversed() {
            updateContent(of: layer, &bounds, list: true, all: false)
            bounds.extent[layer] = computedExtent(of: layer, bounds)
        }
        bounds.isBuilt = true
    }

    /// Redoes the marked layers, deepest first. False (nothing done) when finding their
    /// depths would cost more than a full build: many marks, or marks deep in a chain.
    private func refresh(_ bounds: inout SubtreeBounds) -> Bool {
        bounds.lastRefreshVisits = 0
        bounds.lastRefreshIndexRebuilds = 0
        bounds.lastRefreshIndexedSublayers = 0
        guard !bounds.queue.isEmpty else { return true }
        var budget = count
        var k = 0
        while k < bounds.queue.count {  // not `for in`: its iterator allocates unoptimized
            let layer = bounds.queue[k]
            k += 1
            let depth = depth(of: Int(layer), limit: budget)
            guard depth < budget else {
                bounds.heap.removeAll(keepingCapacity: true)
                return false
            }
            budget -= depth + 1
            bounds.pushHeap(UInt64(depth) << 32 | UInt64(UInt32(layer)))
        }
        bounds.queue.removeAll(keepingCapacity: true)
        while let key = bounds.popHeap() {
            let layer = Int(UInt32(truncatingIfNeeded: key))
            let depth = key >> 32
            let marks = bounds.state[layer]
            bounds.state[layer] = marks & SubtreeBounds.Mark.indexed
            guard marks & SubtreeBounds.Mark.pending != 0 else { continue }
            bounds.lastRefreshVisits += 1
            let contentChanged =
                marks & ~(SubtreeBounds.Mark.extent | SubtreeBounds.Mark.queued | SubtreeBounds.Mark.indexed) != 0
                && updateContent(
                    of: layer, &bounds, list: marks & SubtreeBounds.Mark.sublayerList != 0,
                    all: marks & SubtreeBounds.Mark.allSublayers != 0,
                    ranks: marks & SubtreeBounds.Mark.drawOrder != 0)
            guard contentChanged || marks & SubtreeBounds.Mark.extent != 0 else { continue }
            let extent = computedExtent(of: layer, bounds)
            guard extent != bounds.extent[layer] else { continue }
            bounds.extent[layer] = extent
            let superlayer = Int(parents[layer])
            guard superlayer >= 0 else { continue }
            if bounds.indexEntry[layer] >= 0, bounds.state[superlayer] & SubtreeBounds.Mark.indexed != 0 {
                bounds.refitIndex(of: superlayer, leaf: Int(bounds.indexEntry[layer]), to: extent)
            }
            let old = bounds.state[superlayer]
            bounds.state[superlayer] = old | SubtreeBounds.Mark.content | SubtreeBounds.Mark.queued
            if old & SubtreeBounds.Mark.queued == 0 {
                bounds.pushHeap((depth - 1) << 32 | UInt64(superlayer))
            }
        }
        return true
    }

    /// The number of ancestors of `layer`, or `limit` when it has at least that many.
    /// O(min(depth, limit)).
    func depth(of layer: Int, limit: Int = .max) -> Int {
        var depth = 0
        var current = parents[layer]
        while current >= 0 && depth < limit {
            depth += 1
            current = parents[Int(current)]
        }
        return depth
    }

    /// Recomputes `layer`'s content; returns whether it changed. `list`: the sublayer
    /// list changed (rebuild or drop the index); `all`: every sublayer's extent is stale;
    /// `ranks`: the drawing order of the sublayers changed.
    @discardableResult
    private func updateContent(
        of layer: Int, _ bounds: inout SubtreeBounds, list: Bool, all: Bool, ranks: Bool = false
    ) -> Bool {
        let indexed = bounds.state[layer] & SubtreeBounds.Mark.indexed != 0
        if all {
            var sublayer = firstSublayers[layer]
            while sublayer >= 0 {
                bounds.extent[Int(sublayer)] = computedExtent(of: Int(sublayer), bounds)
                sublayer = nextSiblings[Int(sublayer)]
            }
        }
        let content: RectEdges
        if indexed && !list && !all {
            if ranks { rankSublayers(of: layer, &bounds) }
            content = bounds.index(of: layer).bounds
        } else {
            content = rebuildSublayerIndex(of: layer, &bounds)
        }
        guard content != bounds.content[layer] else { return false }
        bounds.content[layer] = content
        return true
    }

    /// Builds (or drops) `layer`'s index from its sublayer list and returns the union of
    /// its sublayers' extents. O(w log w) with an index, O(w) without.
    private func rebuildSublayerIndex(of layer: Int, _ bounds: inout SubtreeBounds) -> RectEdges {
        var union = RectEdges.null
        var sublayerCount = 0
        var sublayer = firstSublayers[layer]
        while sublayer >= 0 {
            union = union.union(bounds.extent[Int(sublayer)])
            bounds.indexEntry[Int(sublayer)] = -1
            sublayerCount += 1
            sublayer = nextSiblings[Int(sublayer)]
        }
        guard sublayerCount >= SublayerIndex.minimumSublayers else {
            if bounds.state[layer] & SubtreeBounds.Mark.indexed != 0 {
                bounds.state[layer] &= ~SubtreeBounds.Mark.indexed
                bounds.setIndex(nil, of: layer)
            }
            return union
        }
        let extents = bounds.extent
        let index = SublayerIndex(sublayers: siblingSlots(startingAt: firstSublayers[layer])) { extents[$0] }
        index.forEachLeaf { slot, leaf in bounds.indexEntry[slot] = Int32(leaf) }
        bounds.lastRefreshIndexRebuilds += 1
        bounds.lastRefreshIndexedSublayers += sublayerCount
        bounds.setIndex(index, of: layer)
        bounds.state[layer] |= SubtreeBounds.Mark.indexed
        rankSublayers(of: layer, &bounds)
        return index.bounds
    }

    /// The slots of a sibling list, in order.
    func siblingSlots(startingAt first: Int32) -> [Int32] {
        var slots: [Int32] = []
        var current = first
        while current >= 0 {
            slots.append(current)
            current = nextSiblings[Int(current)]
        }
        return slots
    }

    /// Writes each indexed sublayer's drawing rank (its position in `drawOrderLinks`'s
    /// list, which must be current). O(w).
    private func rankSublayers(of layer: Int, _ bounds: inout SubtreeBounds) {
        let links = drawOrderLinks()
        let first = links.first
        let next = links.next
        let slot = Int(bounds.indexSlot[layer])
        var index = SublayerIndex()
        swap(&index, &bounds.indexes[slot])
        var rank: Int32 = 0
        var sublayer = first[layer]
        while sublayer >= 0 {
            let leaf = Int(bounds.indexEntry[Int(sublayer)])
            if leaf >= 0 { index.drawRanks[leaf] = rank }
            rank += 1
            sublayer = next[Int(sublayer)]
        }
        swap(&index, &bounds.indexes[slot])
    }

    /// `layer`'s extent from its properties and its (current) content. Null when nothing
    /// of its subtree can draw or be hit: hidden, or a detached root.
    func computedExtent(of layer: Int, _ bounds: SubtreeBounds) -> RectEdges {
        let layerFlags = flags[layer]
        let superlayer = Int(parents[layer])
        if layerFlags.contains(.hidden) || (superlayer < 0 && layerFlags.contains(.detached)) { return .null }
        var box = ownBox(of: layer)
        if !layerFlags.contains(.masksToBounds) { box = box.union(bounds.content[layer]) }
        if box.isNull { return .null }
        // Under a transform layer the subtree keeps its depth: no plane to bound it in.
        if superlayer >= 0 && flags[superlayer].contains(.transformLayer) { return .unbounded }
        if superlayer >= 0, let planar = planarTransformToSuperlayer(of: layer, superlayer: superlayer) {
            return mappedBox(box, through: PlaneMap(planar))
        }
        return mappedBox(box, through: PlaneMap(transformToSuperlayer(of: layer)))
    }

    /// The layer's bounds rect as a box, whatever the signs of its size: a rect of zero
    /// width still has corners that a rotation or a perspective spreads into an area
    /// (and a world rect with one), so only the 3D walk decides; unbounded when an edge is
    /// not finite (a NaN corner is skipped by the world rect's min and max).
    @inline(__always)
    func ownBox(of layer: Int) -> RectEdges {
        let x0 = boundsX[layer]
        let y0 = boundsY[layer]
        let x1 = x0 + boundsWidth[layer]
        let y1 = y0 + boundsHeight[layer]
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
        guard subtreeBounds.isBuilt else { return }
        var bits = SubtreeBounds.Mark.extent
        if adjustInputs && firstSublayers[layer] >= 0
            && (flags[layer].contains(.geometryFlipped) || sublayerTransforms.kind(at: layer) != .identity)
        {
            bits |= SubtreeBounds.Mark.allSublayers
        }
        subtreeBounds.mark(layer, bits)
    }

    /// `layer`'s sublayer adjustments (flip, sublayerTransform, transform-layer flag)
    /// changed: every sublayer's extent is stale. O(1).
    @inline(__always)
    mutating func sublayerAdjustmentDidChange(_ layer: Int) {
        subtreeBounds.mark(layer, SubtreeBounds.Mark.allSublayers)
    }

    /// `layer` was linked into or out of `superlayer`'s list (-1: the roots). O(1).
    @inline(__always)
    mutating func sublayerListDidChange(_ layer: Int, superlayer: Int32) {
        // Its leaf in the old superlayer's index is gone; the new one's rebuild adds one.
        if subtreeBounds.isBuilt { subtreeBounds.indexEntry[layer] = -1 }
        if superlayer >= 0 {
            subtreeBounds.mark(Int(superlayer), SubtreeBounds.Mark.sublayerList)
            drawOrderCache.markDirty(Int(superlayer))
        }
        subtreeBounds.mark(layer, SubtreeBounds.Mark.extent)
    }

    /// `layer`'s zPosition changed: its extent (through a superlayer's 3D adjustments)
    /// and its superlayer's drawing order. O(1).
    @inline(__always)
    mutating func zPositionDidChange(_ layer: Int) {
        subtreeBounds.mark(layer, SubtreeBounds.Mark.extent)
        let superlayer = parents[layer]
        if superlayer >= 0 {
            subtreeBounds.mark(Int(superlayer), SubtreeBounds.Mark.drawOrder)
            drawOrderCache.markDirty(Int(superlayer))
        }
    }
}
