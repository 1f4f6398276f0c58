// Hierarchical bounds (Flutter's paint bounds, Chromium's property trees): per layer, a
// conservative box around everything its subtree can draw or be hit in, kept in the
// superlayer's bounds space. A layer's own scroll offset (bounds.origin) and transform
// move its box as a whole, so scrolling a masking list changes one box, not the list's
// content; a change updates the ancestors' boxes up to the first that does not change.

/// The boxes, the layers whose boxes are out of date, and the spatial indexes of wide
/// layers. Built on the first output-sensitive query; from then on every edit marks what
/// it affects (O(1)) and the next query brings the marked boxes up to date.
struct SubtreeBounds: Sendable {
    /// Per layer: its content's position in `contents` (-1: none, which reads as null).
    /// A layer gets one the first time its content is not null (it gained a sublayer that
    /// can draw) and keeps it while the cache lives, so that a list whose sublayers come
    /// and go never grows the table. A side table (issue 22's bytes target): a layer
    /// without sublayers, three in four of the `app` workload's, holds 4 bytes, not 32.
    var contentSlots: RemappedColumn<Int32> = []
    /// Per position in `contentSlots`, in the layer's bounds space: the union of its
    /// sublayers' `extents` (null: no sublayer can draw). Read with `content(of:)`.
    var contents: RemappedColumn<RectEdges> = []
    /// Per layer, in its superlayer's bounds space (the world for a root): its own bounds
    /// when they have a positive area, plus `content` unless it masks to bounds, mapped by
    /// `transformToSuperlayer`. Null when the layer is hidden, a detached root or draws
    /// nothing; `.unbounded` when its subtree cannot be bounded in a plane.
    var extent: RemappedColumn<RectEdges> = []
    /// Per layer: the `Mark` bits waiting for the next refresh, plus `indexed`.
    var state: RemappedColumn<UInt8> = []
    /// The spatial indexes of the layers with at least `SublayerIndex.minimumSublayers`
    /// sublayers, by layer.
    /// (An array with a slot per indexed layer, not a dictionary: a dictionary's in-place
    /// update allocates in unoptimized builds, on every refit.)
    var indexes: [SublayerIndex] = []
    /// Per layer: its index's position in `indexes` (-1: none).
    var indexSlot: RemappedColumn<Int32> = []
    /// Positions in `indexes` that no layer uses.
    var freeIndexSlots: [Int32] = []
    /// Per position in `indexes`: the sublayers of that indexed layer, which masks to
    /// bounds, whose redo the refresh deferred (`Mark.parked`; LayerStore+DeferredBounds).
    /// An entry whose layer has since left the list, or was redone, is skipped.
    var parkedSublayers: [[Int32]] = []
    /// The parked sublayers that only moved or scaled, with a bound on how far (`ParkedDrift`).
    var drift = ParkedDrift()
    /// How many parked layers the queries redid since the last refresh (on descent).
    var lastDeferredVisits = 0
    /// The most leaves an index has had (`reserveParkedLists`).
    var widestIndexLeaves = 0
    /// The build's input and sort space, kept so that a rebuild allocates nothing.
    var buildScratch = IndexBuildScratch()
    /// Marked layers, each once (the `queued` bit).
    var queue: [Int32] = []
    /// Scratch for the refresh: the depth of each queued layer, the queue sorted by depth
    /// (level d at `levelStarts[d] ..< levelStarts[d + 1]`), and the superlayers marked
    /// while redoing one level (`carrying`), redone with the next (`carried`).
    var depths: [Int32] = []
    var sortedQueue: [Int32] = []
    var levelStarts: [Int] = []
    var carried: [Int32] = []
    var carrying: [Int32] = []
    /// False until the first full build; marks are ignored until then.
    var isBuilt = false
    /// How many layers the last refresh redid (a test hook for the cost of an edit).
    var lastRefreshVisits = 0
    /// How many wide layers' indexes the last refresh (or build) rebuilt from their
    /// sublayer lists, and how many sublayers those indexes hold in all (batchbench's
    /// cost report: the O(w log w) part of a frame).
    var lastRefreshIndexRebuilds = 0
    var lastRefreshIndexedSublayers = 0
    /// How many leaves the last refresh refitted (a sublayer's extent changed) and how many
    /// it inserted (a sublayer added to an indexed list took a free leaf).
    var lastRefreshIndexRefits = 0
    var lastRefreshIndexInserts = 0

    enum Mark {
        /// The layer's own inputs changed: recompute its extent.
        static let extent: UInt8 = 1
        /// A sublayer's extent changed: recompute the union.
        static let content: UInt8 = 2
        /// The sublayer list changed: its index (already updated) may have to be built,
        /// rebuilt or dropped, or its union recounted.
        static let sublayerList: UInt8 = 4
        /// The layer's sublayer adjustments changed: every sublayer's extent is stale.
        static let allSublayers: UInt8 = 8
        /// In `queue`.
        static let queued: UInt8 = 32
        /// Has an entry in `indexes` (kept across refreshes).
        static let indexed: UInt8 = 64
        /// Its marks wait in its superlayer's `parkedSublayers` (the superlayer masks to
        /// bounds, so nothing above it depends on them) for a query that descends into
        /// the superlayer, or for a redo of the superlayer that reads its sublayers.
        static let parked: UInt8 = 16
        /// Has parked sublayers.
        static let hasParked: UInt8 = 128
        /// The bits a redo of the layer keeps.
        static let kept: UInt8 = indexed | hasParked
        static let pending: UInt8 = extent | content | sublayerList | allSublayers
        /// A layer with none of these waits for nothing (`LayerStore.parksAtOnce`).
        static let waiting: UInt8 = pending | queued | parked
    }

    /// Records that `layer` needs `bits` redone. O(1); nothing before the first build.
    @inline(__always)
    mutating func mark(_ layer: Int, _ bits: UInt8) {
        guard isBuilt else { return }
        let old = state[layer]
        // A parked layer's new box marks wait with it; its drift was raised in its list
        // by the setter (`LayerStore.raiseParkedDrift`), so the refresh need not see it.
        if bits == Mark.extent && old & Mark.parked != 0 {
            // (A relayout moves the same parked cards frame after frame: most already
            // have the bit, and the write was a uniqueness check and a store each.)
            if old & Mark.extent == 0 { state[layer] = old | bits }
            return
        }
        state[layer] = old | bits | Mark.queued
        if old & Mark.queued == 0 { queue.append(Int32(truncatingIfNeeded: layer)) }
    }

    /// Sizes the refresh's scratch to the queue's capacity, all at once: each list holds
    /// at most as many layers as were marked (a level's carried superlayers have
    /// disjoint subtrees, each with a marked layer), so a refresh allocates only when
    /// the queue itself has grown. O(1) unless it grows.
    mutating func reserveRefreshScratch() {
        let capacity = queue.capacity
        depths.reserveCapacity(capacity)
        sortedQueue.reserveCapacity(capacity)
        carried.reserveCapacity(capacity)
        carrying.reserveCapacity(capacity)
        levelStarts.reserveCapacity(64)
    }

    /// `layer`'s content: the union of its sublayers' extents, in its bounds space (null:
    /// no sublayer can draw). O(1).
    @inline(__always)
    func content(of layer: Int) -> RectEdges {
        let slot = contentSlots[layer]
        return slot >= 0 ? contents[Int(slot)] : .null
    }

    /// Stores `box` as `layer`'s content; a layer without an entry gets one unless `box`
    /// is the null box itself (which it reads as already). O(1) amortized: the table
    /// grows only past the room `reserveContents` left.
    @inline(__always)
    mutating func setContent(_ box: RectEdges, of layer: Int) {
        let slot = contentSlots[layer]
        if slot >= 0 {
            contents[Int(slot)] = box
        } else if box != .null {  // all four edges +infinity: the null box's bits exactly
            contentSlots[layer] = Int32(truncatingIfNeeded: contents.count)
            contents.append(box)
        }
    }

    /// Room in `contents` for `joining` more layers plus one per slot of a store of
    /// `capacity` layers still to come, so that a frame within the reserved capacity never
    /// grows the table. O(1) unless it grows. `openingAhead` (the build): the room the
    /// store's next doubling will ask for is opened ahead too (not reserved: the footprint
    /// keeps `room`), since the table's growth then jumps past a doubling of its own
    /// (~5× at 1M) and would make system calls in the growing `addLayer`.
    mutating func reserveContents(forCapacity capacity: Int, joining: Int = 0, openingAhead: Bool = false) {
        let room = contents.count + joining + Swift.max(0, capacity - contentSlots.count)
        if contents.capacity < room { contents.reserveCapacity(room) }
        if openingAhead { contents.openAhead(toCapacity: room + capacity) }
    }

    /// A new slot at the end of the store.
    mutating func appendLayer() {
        guard isBuilt else { return }
        let contentRoom = contentSlots.capacity
        contentSlots.append(-1)
        // The side table's room grows with the slots (the store grew past its capacity),
        // in the same add, so that no later add finds it full.
        if contentSlots.capacity != contentRoom { reserveContents(forCapacity: contentSlots.capacity) }
        extent.append(.null)
        state.append(0)
        indexSlot.append(-1)
        drift.appendLayer()
    }

    /// Room for `capacity` layers in every per-layer column, once built (the build
    /// reserves the store's capacity itself). O(1) a column (in place inside its reservation,
    /// or one `mremap`; below 256 KiB a realloc).
    mutating func reserveCapacity(_ capacity: Int) {
        guard isBuilt else { return }
        reserveColumns(capacity)
    }

    /// `reserveCapacity(_:)` whether built or not: the build calls it with the store's
    /// capacity, so the columns grow with the store's, not to exactly `count`.
    mutating func reserveColumns(_ capacity: Int) {
        contentSlots.reserveCapacity(capacity)
        reserveContents(forCapacity: capacity)
        extent.reserveCapacity(capacity)
        state.reserveCapacity(capacity)
        indexSlot.reserveCapacity(capacity)
        drift.referenceSlots.reserveCapacity(capacity)
        drift.reserveReferences(forCapacity: capacity)
    }

    /// `layer`'s order label in its superlayer's list, when the superlayer is indexed:
    /// strictly increasing along the list (`LayerStore.labelJoiningSublayer`), so that
    /// sorting candidates by label puts them in list order, and by (zPosition key, label)
    /// in drawing order, without ranks to renumber on an insert. Kept in the drift side
    /// table (`ParkedDrift.orderLabels`): only the sublayers of indexed lists have one.
    /// O(1).
    @inline(__always)
    func orderLabel(of layer: Int) -> UInt64 { drift.orderLabel(of: layer) }

    /// Sets `layer`'s order label (its side-table entry made if it has none). O(1) amortized.
    @inline(__always)
    mutating func setOrderLabel(_ label: UInt64, of layer: Int) { drift.setOrderLabel(label, of: layer) }

    /// `layer`'s entry in its superlayer's `SublayerIndex` (-1: none; a sublayer linked
    /// into an indexed list since the last refresh gets its leaf there). Kept in the drift
    /// side table (`ParkedDrift.leaves`): only the sublayers of indexed lists have one, so
    /// a layer pays no 4-byte column for it. O(1).
    @inline(__always)
    func indexEntry(of layer: Int) -> Int32 { drift.leaf(of: layer) }

    /// Sets `layer`'s index entry (a leaf makes its side-table entry if it has none; -1 on
    /// a layer without one writes nothing). O(1) amortized.
    @inline(__always)
    mutating func setIndexEntry(_ leaf: Int32, of layer: Int) { drift.setLeaf(leaf, of: layer) }

    /// The index of `layer`, which must have one. O(1).
    func index(of layer: Int) -> SublayerIndex { indexes[Int(indexSlot[layer])] }

    /// Whether `layer` has an index. O(1).
    @inline(__always)
    func hasIndex(_ layer: Int) -> Bool { layer < indexSlot.count && indexSlot[layer] >= 0 }

    /// The union of the sublayers' extents of `layer`, which must have an index, read in
    /// place (`index(of:)` copies the index: a retain and release of each of its arrays).
    /// O(1).
    func indexBounds(of layer: Int) -> RectEdges { indexes[Int(indexSlot[layer])].bounds }

    /// Sets leaf `leaf` of `layer`'s index to `box`, its ancestors left for
    /// `refitStaleNodes(of:)` (see `SublayerIndex.setLeafBox`). The index is moved out
    /// and back, so it is updated in place.
    mutating func refitIndex(of layer: Int, leaf: Int, to box: RectEdges) {
        let slot = Int(indexSlot[layer])
        var index = SublayerIndex()
        swap(&index, &indexes[slot])
        index.setLeafBox(leaf, to: box)
        swap(&index, &indexes[slot])
        lastRefreshIndexRefits += 1
    }

    /// Brings the inner boxes of `layer`'s index up to date after `refitIndex` calls
    /// (`SublayerIndex.refitStale`); the refresh does it before it reads the index's
    /// bounds, which it does after every sublayer of `layer`.
    mutating func refitStaleNodes(of layer: Int) {
        let slot = Int(indexSlot[layer])
        guard !indexes[slot].staleNodes.isEmpty else { return }
        var index = SublayerIndex()
        swap(&index, &indexes[slot])
        index.refitStale()
        swap(&index, &indexes[slot])
    }

    /// Sets every leaf of `layer`'s index to its sublayer's extent, keeping the tree's
    /// shape (a sublayer adjustment moved them all). O(w).
    mutating func refitAllLeaves(of layer: Int) {
        let slot = Int(indexSlot[layer])
        var index = SublayerIndex()
        swap(&index, &indexes[slot])
        index.refitAll { extent[$0] }
        swap(&index, &indexes[slot])
    }

    /// Frees `sublayer`'s leaf in the index of `layer` (which has one), if it has a leaf.
    /// O(log w).
    mutating func removeLeaf(of sublayer: Int, from layer: Int) {
        let leaf = Int(indexEntry(of: sublayer))
        setIndexEntry(-1, of: sublayer)
        guard leaf >= 0 else { return }
        let slot = Int(indexSlot[layer])
        var index = SublayerIndex()
        swap(&index, &indexes[slot])
        index.remove(leaf: leaf)
        swap(&index, &indexes[slot])
    }

    /// Gives `sublayer` a leaf with `box` in the index of `layer` (which has one); when
    /// none is free, the index is marked full and the next refresh rebuilds it. O(log w).
    mutating func insertLeaf(of sublayer: Int, into layer: Int, box: RectEdges) {
        lastRefreshIndexInserts += 1
        let slot = Int(indexSlot[layer])
        var index = SublayerIndex()
        swap(&index, &indexes[slot])
        let leaf = index.insert(Int32(truncatingIfNeeded: sublayer), box: box)
        swap(&index, &indexes[slot])
        setIndexEntry(leaf.map { Int32(truncatingIfNeeded: $0) } ?? -1, of: sublayer)
    }

    /// Builds `layer`'s index over `buildScratch` (its sublayers in list order, with their
    /// extents), in the arrays of its old index when it has one, records every leaf in
    /// `indexEntry(of:)`, and labels the sublayers evenly over the label space. O(w log w).
    mutating func buildIndex(of layer: Int) {
        if indexSlot[layer] < 0 { setIndex(SublayerIndex(), of: layer) }
        let slot = Int(indexSlot[layer])
        var index = SublayerIndex()
        swap(&index, &indexes[slot])
        index.build(&buildScratch)
        index.forEachLeaf { sublayer, leaf in setIndexEntry(Int32(truncatingIfNeeded: leaf), of: sublayer) }
        swap(&index, &indexes[slot])
        reserveParkedLists(slot)
        state[layer] |= Mark.indexed
        let spacing = orderLabelLimit / UInt64(buildScratch.sublayers.count + 1)
        var k = 0
        while k < buildScratch.sublayers.count {
            drift.setOrderLabel(UInt64(k + 1) * spacing, of: Int(buildScratch.sublayers[k]))
            k += 1
        }
        drift.buildRanks(list: slot, buildScratch.sublayers)
    }

    /// The position in `indexes` of `layer`'s list when it has an index, and so a rank
    /// tree that finds a position in O(log w) (`SublayerRanks.swift`); nil otherwise
    /// (narrow, or the caches not built). O(1).
    @inline(__always)
    func rankedList(of layer: Int) -> Int? { hasIndex(layer) ? Int(indexSlot[layer]) : nil }

    /// `sublayer` was linked into the indexed list of `layer` between `previous` and
    /// `next`: its rank node joins the tree. Expected O(log w).
    @inline(__always)
    mutating func insertRank(of sublayer: Int, into layer: Int, previous: Int32, next: Int32) {
        drift.insertRank(
            Int32(truncatingIfNeeded: sublayer), list: Int(indexSlot[layer]), previous: previous, next: next)
    }

    /// `sublayer`, before `next` (-1: the last), leaves the indexed list of `layer`: its
    /// rank node leaves the tree. Expected O(log w).
    @inline(__always)
    mutating func removeRank(of sublayer: Int, from layer: Int, next: Int32) {
        drift.removeRank(Int32(truncatingIfNeeded: sublayer), list: Int(indexSlot[layer]), next: next)
    }

    /// Room in the parked lists of the index at `slot` for all that may wait there
    /// between two builds of the index, reserved at the build (in `warmUp()`, or a
    /// rebuild) rather than in the first frames that park: the drifting list up to
    /// `ParkedDrift.listLimit(leaves:)`, the other list one entry per leaf (a parked
    /// layer waits in one of the two, once; no more sublayers than leaves join before a
    /// rebuild), and the shared candidate list the widest index's leaves. A list that
    /// outgrows its leaves is rebuilt into more, which grows these once (amortized with
    /// the rebuild's own O(w log w)). Allocates only when they grow.
    mutating func reserveParkedLists(_ slot: Int) {
        let leaves = indexes[slot].leafCount
        let driftingRoom = ParkedDrift.listLimit(leaves: leaves)
        if drift.lists[slot].capacity < driftingRoom { drift.lists[slot].reserveCapacity(driftingRoom) }
        if parkedSublayers[slot].capacity < leaves { parkedSublayers[slot].reserveCapacity(leaves) }
        if drift.candidates.capacity < leaves { drift.candidates.reserveCapacity(leaves) }
        widestIndexLeaves = Swift.max(widestIndexLeaves, leaves)
    }

    /// Room for the candidate stacks of the walks (`WalkScratch.candidates`,
    /// `VisibleLayers.candidates`), which hold a whole list in drawing order while one is
    /// out of zPosition order, under its superlayers' (narrower) lists: twice the widest
    /// index's leaves, plus an unindexed list's worth. Reserved by the queries when it
    /// grows, so that the first frame that walks a wide unsorted list allocates nothing.
    var walkCandidateRoom: Int { 2 * widestIndexLeaves + SublayerIndex.minimumSublayers }

    /// Stores `index` as `layer`'s (nil: drops it).
    mutating func setIndex(_ index: SublayerIndex?, of layer: Int) {
        let slot = indexSlot[layer]
        guard let index else {
            guard slot >= 0 else { return }
            indexes[Int(slot)] = SublayerIndex()
            parkedSublayers[Int(slot)].removeAll(keepingCapacity: true)
            drift.clearList(Int(slot))
            drift.rankRoots[Int(slot)] = -1
            drift.rankCounts[Int(slot)] = 0
            state[layer] &= ~Mark.hasParked
            freeIndexSlots.append(slot)
            indexSlot[layer] = -1
            return
        }
        if slot >= 0 {
            indexes[Int(slot)] = index
            drift.cleanRegions[Int(slot)] = .null  // new leaves: the drifting cards' may differ
        } else if let free = freeIndexSlots.popLast() {
            indexes[Int(free)] = index
            indexSlot[layer] = free
        } else {
            indexSlot[layer] = Int32(indexes.count)
            indexes.append(index)
            parkedSublayers.append([])
            drift.appendList()
        }
    }
}

/// Order labels lie in 1 ..< `orderLabelLimit` (0 and the limit stand for the ends of a
/// list): 2^62, so that a list of up to 5 · 10^7 sublayers keeps the density the
/// relabelling needs (`LayerStore.labelJoiningSublayer`).
let orderLabelLimit: UInt64 = 1 << 62
