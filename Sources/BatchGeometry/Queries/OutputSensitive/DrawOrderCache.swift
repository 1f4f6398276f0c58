// Drawing order cached per superlayer: each sublayer list sorted by zPosition once, and
// again only after a zPosition change or a structure edit in that list.

/// The sublayer lists in drawing order (`SiblingLinks`), valid for every superlayer not
/// marked dirty. Built the first time it is needed while some list is out of zPosition
/// order; from then on the link primitives and `setZPosition` mark the superlayers whose
/// lists change (O(1)), and `refresh` re-sorts only those.
struct DrawOrderCache: Sendable {
    var links = SiblingLinks(first: [], next: [])
    var isBuilt = false
    /// Per layer: its list is marked for re-sorting (and it is in `dirtyLayers`).
    private var dirty: [Bool] = []
    private var dirtyLayers: [Int32] = []
    /// Scratch for re-sorting one list (the list, and the merge sort's space).
    private var siblings: [Int32] = []
    private var sortSpace: [Int32] = []

    /// Marks `layer`'s sublayer list as changed. O(1); nothing before the first build
    /// (new slots are covered by `refresh`, which re-sorts every slot it has not seen).
    @inline(__always)
    mutating func markDirty(_ layer: Int) {
        guard isBuilt, layer < dirty.count, !dirty[layer] else { return }
        dirty[layer] = true
        dirtyLayers.append(Int32(truncatingIfNeeded: layer))
    }

    /// True when `links` is the drawing order of a store with `count` slots.
    func isCurrent(count: Int) -> Bool { isBuilt && dirtyLayers.isEmpty && links.first.count == count }

    /// Brings `links` up to date with `store`: O(count log w) the first time, then
    /// O(w log w) per marked list.
    mutating func refresh(_ store: borrowing LayerStore) {
        let count = store.count
        if !isBuilt {
            // The store's lists, with every unsorted one marked: the loop below sorts them.
            links = SiblingLinks(first: store.firstSublayers, next: store.nextSiblings)
            dirty = Array(repeating: false, count: count)
            dirtyLayers.removeAll()
            // Room for the worst case now (4 bytes a layer each), so that no later frame
            // allocates: any number of lists may change, each up to every layer long.
            dirtyLayers.reserveCapacity(count)
            siblings.reserveCapacity(count)
            sortSpace.reserveCapacity(count)
            isBuilt = true
            for layer in 0..<count where store.parents[layer] >= 0 {
                if store.zInversion(store.previousSiblings[layer], Int32(layer)) == 1 {
                    markDirty(Int(store.parents[layer]))
                }
            }
        }
        for layer in links.first.count..<Swift.max(count, links.first.count) {
            links.first.append(-1)
            links.next.append(-1)
            dirty.append(false)
            markDirty(layer)
        }
        // Index loops: an unoptimized build allocates in the generic iterator.
        var k = 0
        while k < dirtyLayers.count {
            let layer = Int(dirtyLayers[k])
            sortList(of: layer, store)
            dirty[layer] = false
            k += 1
        }
        dirtyLayers.removeAll(keepingCapacity: true)
    }

    /// Re-links `layer`'s sublayers in drawing order: stable by zPosition key (NaN as 0),
    /// as `sortedDrawOrderLinks` (the reference tests compare with) does. O(w) when already in order, else O(w log w).
    private mutating func sortList(of layer: Int, _ store: borrowing LayerStore) {
        // Locals, not calls on `store`: an unoptimized build copies a borrowed struct
        // into each call, an allocation per sublayer.
        let nextSiblings = store.nextSiblings
        let zPositions = store.zPositions
        siblings.removeAll(keepingCapacity: true)
        var current = store.firstSublayers[layer]
        var sorted = true
        var previous: Int32 = -1
        while current >= 0 {
            if previous >= 0 && drawOrderKey(zPositions[Int(current)]) < drawOrderKey(zPositions[Int(previous)]) {
                sorted = false
            }
            previous = current
            siblings.append(current)
            current = nextSiblings[Int(current)]
        }
        if !sorted {
            // The same stable merge sort as the scratch path: no allocation once grown.
            stableSort(&siblings, space: &sortSpace) {
                drawOrderKey(zPositions[Int($0)]) < drawOrderKey(zPositions[Int($1)])
            }
        }
        links.first[layer] = siblings.isEmpty ? -1 : siblings[0]
        var k = 0
        while k < siblings.count {
            links.next[Int(siblings[k])] = k + 1 < siblings.count ? siblings[k + 1] : -1
            k += 1
        }
    }
}

extension LayerStore {
    /// Brings the cached drawing order up to date when some sublayer list is out of
    /// zPosition order (or the cache exists). O(marked lists × w log w).
    mutating func refreshDrawOrder() {
        guard zOrderInversions > 0 || drawOrderCache.isBuilt else { return }
        if drawOrderCache.isCurrent(count: count) { return }
        var cache = drawOrderCache
        drawOrderCache = DrawOrderCache()  // unshare before writing
        cache.refresh(self)
        drawOrderCache = cache
    }
}
