// The store's heap bytes array by array: `memoryFootprint`'s parts broken down, for
// batchbench's `BATCHBENCH_MEMORY_INVENTORY` line (issue 22's bytes-per-layer target).

extension LayerStore {
    /// Every array (or group of arrays) `memoryFootprint` counts, with its part's name and
    /// its bytes (`capacity × stride`), in that part's order; the entries of a part sum to
    /// the part. Zero entries are left out. O(number of arrays); allocates the list.
    package var memoryInventory: [(part: String, array: String, bytes: Int)] {
        var list: [(part: String, array: String, bytes: Int)] = []
        func add(_ part: String, _ array: String, _ bytes: Int) {
            if bytes != 0 { list.append((part, array, bytes)) }
        }
        let c = columns
        add(
            "columns", "eight Double columns (bounds, position, anchor)",
            allocatedBytes(c.boundsX) + allocatedBytes(c.boundsY) + allocatedBytes(c.boundsWidth)
                + allocatedBytes(c.boundsHeight) + allocatedBytes(c.positionX) + allocatedBytes(c.positionY)
                + allocatedBytes(c.anchorX) + allocatedBytes(c.anchorY))
        add("columns", "z, anchorZ (slots and side table)", c.zValues.allocatedBytes)
        add("columns", "transform", c.transforms.allocatedByteCount)
        add("columns", "sublayerTransform", c.sublayerTransforms.allocatedByteCount)
        add(
            "columns", "flags, masks, opacity, interaction",
            allocatedBytes(c.flags) + allocatedBytes(c.autoresizingMasks) + allocatedBytes(c.attributes.opacities)
                + allocatedBytes(c.attributes.interactionEnabled))
        let entryStride = MemoryLayout<Int32>.stride + MemoryLayout<ScrollViewState>.stride
        add("columns", "scroll views", c.scrollViews.capacity * entryStride)
        add("hierarchy", "generations, free slots, five links", hierarchy.allocatedByteCount)
        let footprint = memoryFootprint
        let worldOnly = footprint.worldCache - (caches.worldPlan?.allocatedByteCount ?? 0)
        add("world", "plan (locals, modes, pairs, order, general locals)", caches.worldPlan?.allocatedByteCount ?? 0)
        add("world", "world snapshot, change tracker and edit log", worldOnly)
        addQueryCaches(footprint.queryCaches, add)
        add("scratch", "stacks, lists, sort space", footprint.scratch)
        return list
    }

    /// The query caches' entries of `memoryInventory`: the subtree bounds' columns, the
    /// R-trees, the parked lists, the drift references and the drawing-order cache.
    private func addQueryCaches(_ total: Int, _ add: (String, String, Int) -> Void) {
        let b = caches.subtreeBounds
        add("query", "subtree extent boxes", allocatedBytes(b.extent))
        add(
            "query", "subtree content (slots and side table)",
            allocatedBytes(b.contentSlots) + allocatedBytes(b.contents))
        add(
            "query", "state, index slot", allocatedBytes(b.state) + allocatedBytes(b.indexSlot))
        add(
            "query", "order labels and index entries (side table)",
            allocatedBytes(b.drift.orderLabels) + allocatedBytes(b.drift.leaves))
        var trees = allocatedBytes(b.indexes) + allocatedBytes(b.freeIndexSlots)
        var boxes = 0
        var parked = allocatedBytes(b.parkedSublayers) + allocatedBytes(b.drift.lists)
        var position = 0
        while position < b.indexes.count {
            trees += b.indexes[position].allocatedByteCount
            boxes += allocatedBytes(b.indexes[position].boxes)
            parked += allocatedBytes(b.parkedSublayers[position]) + allocatedBytes(b.drift.lists[position])
            position += 1
        }
        add("query", "R-trees: node boxes", boxes)
        add("query", "R-trees: leaves, free counts, levels, marks", trees - boxes)
        let lists = parked + allocatedBytes(b.drift.listBounds) + allocatedBytes(b.drift.cleanRegions)
        add("query", "parked and drifting lists", lists)
        add("query", "drift references", b.drift.allocatedReferenceBytes)
        let ranks =
            allocatedBytes(b.drift.rankLinks) + allocatedBytes(b.drift.rankRoots) + allocatedBytes(b.drift.rankCounts)
        add("query", "rank trees (side table)", ranks)
        let drawOrder = caches.drawOrderCache.allocatedByteCounts(sharingWith: hierarchy).cache
        add("query", "drawing-order cache", drawOrder)
        let listed =
            allocatedBytes(b.contentSlots) + allocatedBytes(b.contents) + allocatedBytes(b.extent)
            + allocatedBytes(b.state)
            + allocatedBytes(b.indexSlot) + allocatedBytes(b.drift.orderLabels) + allocatedBytes(b.drift.leaves)
            + trees + lists + b.drift.allocatedReferenceBytes + ranks + drawOrder
        add("query", "(not listed above)", total - listed)
    }
}
