// Drawing order cached per superlayer: each sublayer list sorted by zPosition once; then a
// structure edit or a zPosition change moves its layer in the cached order, O(1), when a
// list neighbour's zPosition key equals its own (the order is by (key, list position), so
// it goes right after, or before, that neighbour); only other edits re-sort the list.

/// The sublayer lists in drawing order (`SiblingLinks`), valid for every superlayer not
/// marked dirty. Built the first time it is needed while some list is out of zPosition
/// order; from then on the link primitives and `setZPosition` move the layer they edit
/// (`unlink`, then `link`) or mark its list (O(1)), and `refresh` re-sorts only the
/// marked lists.
struct DrawOrderCache: Sendable {
    var links = SiblingLinks(first: [], next: [])
    var isBuilt = false
    /// How many lists `refresh` has sorted, in all (the frame query reports the difference).
    private(set) var sortedListTotal = 0
    /// Per layer: its predecessor in its list's drawing order (-1: first), for `unlink`.
    private(set) var previous: RemappedColumn<Int32> = []
    /// Per layer, one bit: its list is marked for re-sorting (and it is in `dirtyLayers`).
    private var dirty = MarkBits()
    private var dirtyLayers: RemappedColumn<Int32> = []
    /// Scratch for re-sorting one list (the list, and the merge sort's space).
    private var siblings: RemappedColumn<Int32> = []
    private var sortSpace: RemappedColumn<Int32> = []
    /// `sortByFewKeys`'s distinct keys (at most 4).
    private var keys: [Double] = []

    /// Bytes allocated for the cache's arrays (capacity × stride), and for its re-sorting
    /// scratch, apart. `links` and `previous` start as the hierarchy's own link arrays
    /// (shared until a list is re-sorted): one still shared is left out here, so that an
    /// allocation is counted once. O(1).
    func allocatedByteCounts(sharingWith hierarchy: LayerHierarchy) -> (cache: Int, scratch: Int) {
        var cache = allocatedBytes(dirty.words)
        if !sharesStorage(links.first, hierarchy.firstSublayers) { cache += allocatedBytes(links.first) }
        if !sharesStorage(links.next, hierarchy.nextSiblings) { cache += allocatedBytes(links.next) }
        if !sharesStorage(previous, hierarchy.previousSiblings) { cache += allocatedBytes(previous) }
        return (cache, allocatedBytes(dirtyLayers) + allocatedBytes(siblings) + allocatedBytes(sortSpace))
    }

    /// Marks `layer`'s sublayer list as changed. O(1); nothing before the first build
    /// (new slots are covered by `refresh`, which re-sorts every slot it has not seen).
    @inline(__always)
    mutating func markDirty(_ layer: Int) {
        guard isBuilt, layer < dirty.count, !dirty[layer] else { return }
        dirty.set(layer)
        dirtyLayers.append(Int32(truncatingIfNeeded: layer))
    }

    /// Room for `capacity` layers in every per-layer column, once built. O(1) a column (in
    /// place inside its reservation, or one `mremap`; below 256 KiB a realloc), O(n) for a
    /// column still shared with the hierarchy.
    /// The re-sorting scratch is not per layer: `reserveScratch` sizes it.
    mutating func reserveCapacity(_ capacity: Int) {
        guard isBuilt else { return }
        links.first.reserveCapacity(capacity)
        links.next.reserveCapacity(capacity)
        previous.reserveCapacity(capacity)
        dirty.reserveCapacity(capacity)
        if keys.capacity < 4 { keys.reserveCapacity(4) }
    }

    /// Room in the re-sorting scratch for what the store's lists need: a mark for every
    /// list (`dirtyLayers`) and the longest list twice (`siblings`, `sortSpace`). Sized to
    /// the lists, not to the store's capacity (12 bytes a layer at 1M): a later frame
    /// that marks more lists, or sorts a longer list, than any before grows them once
    /// (doubling). O(count).
    private mutating func reserveScratch(_ store: borrowing LayerStore) {
        let (firstSublayers, nextSiblings) = (store.hierarchy.firstSublayers, store.hierarchy.nextSiblings)
        var (lists, longest, layer) = (0, 0, 0)
        while layer < firstSublayers.count {
            var current = firstSublayers[layer]
            var length = 0
            while current >= 0 {
                length += 1
                current = nextSiblings[Int(current)]
            }
            if length > 0 { lists += 1 }
            longest = Swift.max(longest, length)
            layer += 1
        }
        dirtyLayers.reserveCapacity(Swift.max(lists, 16))
        siblings.reserveCapacity(Swift.max(longest, 16))
        sortSpace.reserveCapacity(Swift.max(longest, 16))
    }

    /// True when `links` is the drawing order of a store with `count` slots.
    func isCurrent(count: Int) -> Bool { isBuilt && dirtyLayers.isEmpty && links.first.count == count }

    /// Brings `links` up to date with `store`: O(count log w) the first time, then
    /// O(w log w) per marked list (O(w · keys) with few keys). `deferringIndexed`: the
    /// marked lists of layers with an R-tree stay marked (`isDeferred`), unsorted: the
    /// output-sensitive walks order such a list's sublayers themselves (by key and order
    /// label), so a frame whose zPosition change lands in a 12k-card list does not walk
    /// the list; a reader of the whole order sorts it later (`refreshDrawOrder()`).
    mutating func refresh(_ store: borrowing LayerStore, deferringIndexed: Bool = false) {
        let count = store.count
        if !isBuilt {
            // The store's lists, with every unsorted one marked: the loop below sorts them.
            links = SiblingLinks(first: store.hierarchy.firstSublayers, next: store.hierarchy.nextSiblings)
            previous = store.hierarchy.previousSiblings
            dirty = MarkBits(count: count)
            dirtyLayers.removeAll()
            // The per-layer columns for the store's capacity, so that they grow when the
            // columns do; the scratch for the lists there are.
            isBuilt = true
            reserveCapacity(store.layerCapacity)
            reserveScratch(store)
            for layer in 0..<count where store.hierarchy.parents[layer] >= 0 {
                if store.zInversion(store.hierarchy.previousSiblings[layer], Int32(layer)) == 1 {
                    markDirty(Int(store.hierarchy.parents[layer]))
                }
            }
        }
        // The marks' words keep room for the store's (their own doubling, from a capacity in
        // words, would fall in an add that grows nothing else).
        if links.first.count < count { dirty.reserveCapacity(store.layerCapacity) }
        for layer in links.first.count..<Swift.max(count, links.first.count) {
            links.first.append(-1)
            links.next.append(-1)
            previous.append(-1)
            dirty.append()
            markDirty(layer)
        }
        // Index loops: an unoptimized build allocates in the generic iterator.
        var k = 0
        var kept = 0
        while k < dirtyLayers.count {
            let layer = Int(dirtyLayers[k])
            k += 1
            if deferringIndexed && store.caches.subtreeBounds.hasIndex(layer) {
                dirtyLayers[kept] = Int32(truncatingIfNeeded: layer)
                kept += 1
                continue
            }
            sortList(of: layer, store)
            dirty.clear(layer)
            sortedListTotal += 1
        }
        dirtyLayers.removeLast(dirtyLayers.count - kept)
    }

    /// Whether `layer`'s list is marked and not sorted: its `links` are stale (after a
    /// deferring refresh, only an indexed list's). O(1).
    @inline(__always)
    func isDeferred(_ layer: Int) -> Bool { layer < dirty.count && dirty[layer] }

    /// Re-links `layer`'s sublayers in drawing order: stable by zPosition key (NaN as 0),
    /// as `sortedDrawOrderLinks` (the reference tests compare with) does. O(w) when already in order, else O(w log w).
    private mutating func sortList(of layer: Int, _ store: borrowing LayerStore) {
        // Locals, not calls on `store`: an unoptimized build copies a borrowed struct
        // into each call, an allocation per sublayer.
        let nextSiblings = store.hierarchy.nextSiblings
        let zValues = store.columns.zValues
        siblings.removeAll(keepingCapacity: true)
        var current = store.hierarchy.firstSublayers[layer]
        var sorted = true
        var previous: Int32 = -1
        while current >= 0 {
            if previous >= 0
                && drawOrderKey(zValues.zPosition(at: Int(current)))
                    < drawOrderKey(zValues.zPosition(at: Int(previous)))
            {
                sorted = false
            }
            previous = current
            siblings.append(current)
            current = nextSiblings[Int(current)]
        }
        if !sorted && !sortByFewKeys({ drawOrderKey(zValues.zPosition(at: Int($0))) }) {
            // The same stable merge sort as the scratch path: no allocation once grown.
            stableSort(&siblings, space: &sortSpace) {
                drawOrderKey(zValues.zPosition(at: Int($0))) < drawOrderKey(zValues.zPosition(at: Int($1)))
            }
        }
        links.first[layer] = siblings.isEmpty ? -1 : siblings[0]
        var k = 0
        while k < siblings.count {
            links.next[Int(siblings[k])] = k + 1 < siblings.count ? siblings[k + 1] : -1
            self.previous[Int(siblings[k])] = k > 0 ? siblings[k - 1] : -1
            k += 1
        }
    }

    /// Sorts `siblings` by `key`, stably, when they hold at most `fewKeys` distinct keys:
    /// one pass a key, in increasing key order, each keeping list order, which is what the
    /// stable merge sort gives (`key` never NaN: `<` is then a strict weak order whose
    /// ties are the `==` keys). A list an app raises a few cards in has 2 or 3 keys; this
    /// is O(w · keys) with sequential reads, where the merge sort's comparisons load
    /// zPositions at random (a re-sort was most of a live frame's extra cost). False,
    /// nothing done, with more keys. No allocation once the scratch has grown.
    private mutating func sortByFewKeys(_ key: (Int32) -> Double) -> Bool {
        let fewKeys = 4
        keys.removeAll(keepingCapacity: true)
        var k = 0
        while k < siblings.count {
            let value = key(siblings[k])
            k += 1
            var known = false
            var j = 0
            while j < keys.count && !known {
                known = keys[j] == value
                j += 1
            }
            guard !known else { continue }
            guard keys.count < fewKeys else { return false }
            keys.append(value)
        }
        insertionSort(&keys)
        if sortSpace.count < siblings.count { sortSpace.resize(to: siblings.count, filler: 0) }
        var placed = 0
        var j = 0
        while j < keys.count {
            k = 0
            while k < siblings.count {
                if key(siblings[k]) == keys[j] {
                    sortSpace[placed] = siblings[k]
                    placed += 1
                }
                k += 1
            }
            j += 1
        }
        k = 0
        while k < siblings.count {
            siblings[k] = sortSpace[k]
            k += 1
        }
        return true
    }

    /// Takes `layer` out of `parent`'s cached drawing order, before it leaves the list (or
    /// its zPosition key changes). O(1); nothing when the list is to be re-sorted anyway.
    mutating func unlink(_ layer: Int, from parent: Int) {
        guard isBuilt, parent < dirty.count, !dirty[parent] else { return }
        guard layer < previous.count else { return markDirty(parent) }
        let before = previous[layer]
        let after = links.next[layer]
        if before >= 0 { links.next[Int(before)] = after } else { links.first[parent] = after }
        if after >= 0 { previous[Int(after)] = before }
        previous[layer] = -1
        links.next[layer] = -1
    }

    /// Puts `layer`, now between `listPrevious` and `listNext` in `parent`'s list (-1:
    /// none), in the cached drawing order: right after `listPrevious` when their keys are
    /// equal (no layer can sort between them), else right before `listNext` when theirs
    /// are; otherwise the list is marked for re-sorting. O(1).
    mutating func link(
        _ layer: Int, into parent: Int, listPrevious: Int32, listNext: Int32, keyMatchesPrevious: Bool,
        keyMatchesNext: Bool
    ) {
        guard isBuilt, parent < dirty.count, !dirty[parent] else { return }
        guard layer < previous.count else { return markDirty(parent) }
        let before: Int32
        let after: Int32
        if listPrevious < 0 && listNext < 0 {
            (before, after) = (-1, -1)
        } else if keyMatchesPrevious {
            (before, after) = (listPrevious, links.next[Int(listPrevious)])
        } else if keyMatchesNext {
            (before, after) = (previous[Int(listNext)], listNext)
        } else {
            return markDirty(parent)
        }
        let slot = Int32(truncatingIfNeeded: layer)
        previous[layer] = before
        links.next[layer] = after
        if before >= 0 { links.next[Int(before)] = slot } else { links.first[parent] = slot }
        if after >= 0 { previous[Int(after)] = slot }
    }
}

extension LayerStore {
    /// Brings the cached drawing order up to date when some sublayer list is out of
    /// zPosition order (or the cache exists, or `building`: `warmUp`, so that the first
    /// zPosition inversion of a live tree does not build it, O(n), in a frame).
    /// O(marked lists × w log w).
    mutating func refreshDrawOrder(deferringIndexed: Bool = false, building: Bool = false) {
        guard building || hierarchy.zOrderInversions > 0 || caches.drawOrderCache.isBuilt else { return }
        if caches.drawOrderCache.isCurrent(count: count) { return }
        var cache = DrawOrderCache()
        swap(&cache, &caches.drawOrderCache)  // moved out, not copied: written in place
        cache.refresh(self, deferringIndexed: deferringIndexed)
        swap(&cache, &caches.drawOrderCache)
    }
}

/// Sorts a few distinct values in place (insertion sort; no allocation).
private func insertionSort(_ values: inout [Double]) {
    var k = 1
    while k < values.count {
        let value = values[k]
        var position = k
        while position > 0 && value < values[position - 1] {
            values[position] = values[position - 1]
            position -= 1
        }
        values[position] = value
        k += 1
    }
}

/// One bit a layer (`DrawOrderCache.dirty`): 1/8 byte a layer (1/4 with the room reserved)
/// where a `Bool` column took one (issue 22). Bit `i` is bit `i & 63` of word `i >> 6`; bits past `count` are 0.
private struct MarkBits: Sendable {
    private(set) var words: RemappedColumn<UInt64> = []
    /// The layers covered.
    private(set) var count = 0

    init() {}

    /// `count` clear bits. O(count / 64).
    init(count: Int) {
        words = RemappedColumn(repeating: 0, count: (count + 63) >> 6)
        self.count = count
    }

    /// Bit `index` (`0..<count`). O(1).
    @inline(__always)
    subscript(index: Int) -> Bool { (words[index >> 6] >> UInt64(index & 63)) & 1 != 0 }

    @inline(__always)
    mutating func set(_ index: Int) { words[index >> 6] |= 1 << UInt64(index & 63) }

    @inline(__always)
    mutating func clear(_ index: Int) { words[index >> 6] &= ~(1 << UInt64(index & 63)) }

    /// One more layer, its bit clear. O(1) amortized.
    mutating func append() {
        if count & 63 == 0 { words.append(0) }
        count += 1
    }

    /// Room for `capacity` layers, and for the store's next doubling: the words are a
    /// heap block below 256 KiB (2M layers), grown by `realloc`, which a growth frame
    /// would count (the per-layer columns grow by remapping). 1/4 byte a layer.
    mutating func reserveCapacity(_ capacity: Int) { words.reserveCapacity(2 * ((capacity + 63) >> 6)) }
}
