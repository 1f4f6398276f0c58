// The store's heap bytes, counted array by array (issue 22's bytes-per-layer target).

/// The heap bytes a `LayerStore` holds, by part: what `LayerStore.memoryFootprint` returns.
///
/// Each part sums, over the arrays it names, `capacity × MemoryLayout<Element>.stride`:
/// what is allocated, not what is used. A dictionary counts
/// `capacity × (key stride + value stride)`, an approximation (its hash table's metadata
/// bits are left out). The allocator's own overhead and the arrays' and classes' headers
/// (about 32 bytes an array) are not counted. An allocation two parts share (a cache that
/// still holds the hierarchy's array, the world cache holding the plan's modes) is counted
/// once, in the part that made it.
public struct LayerStoreFootprint: Hashable, Sendable {
    /// The per-layer property columns (geometry, transforms, flags, attributes) and the
    /// scroll views' table, in bytes.
    public var columns: Int
    /// The slots and links: generations, free slots, parents, sublayer and sibling links,
    /// in bytes.
    public var hierarchy: Int
    /// The world transforms, the world plan behind them and the change tracker that keeps
    /// them current, in bytes (0 for the first two until the first `updateWorld()`).
    public var worldCache: Int
    /// The output-sensitive queries' caches: subtree bounds, the sublayer lists' spatial
    /// indexes (every node array) and the drawing-order cache, in bytes.
    public var queryCaches: Int
    /// Working storage kept between calls so that a warmed-up frame allocates nothing: the
    /// hit test's stacks, the incremental update's lists, the index builds' and refreshes'
    /// sort space, in bytes.
    public var scratch: Int

    /// The sum of the parts, in bytes.
    public var total: Int { columns + hierarchy + worldCache + queryCaches + scratch }
}

extension LayerStore {
    /// The heap bytes the store holds, by part (`LayerStoreFootprint`): each array's
    /// `capacity × stride`, summed over every array the store and its caches own, the
    /// per-list spatial indexes included.
    ///
    /// Excludes the allocator's overhead and the array headers. O(number of arrays): a
    /// few dozen plus six per spatial index; allocates nothing.
    public var memoryFootprint: LayerStoreFootprint {
        let drawOrder = caches.drawOrderCache.allocatedByteCounts(sharingWith: hierarchy)
        let bounds = caches.subtreeBounds.allocatedByteCounts
        return LayerStoreFootprint(
            columns: columns.allocatedByteCount, hierarchy: hierarchy.allocatedByteCount,
            worldCache: worldCacheBytes, queryCaches: bounds.cache + drawOrder.cache,
            scratch: bounds.scratch + drawOrder.scratch + caches.walkScratch.allocatedByteCount
                + caches.hitPointOrder.allocatedByteCount + caches.hitPackets.allocatedByteCount
                + caches.incrementalScratch.allocatedByteCount + allocatedBytes(caches.structureScratch))
    }

    /// The world cache, its plan, the change tracker and the edit log, in bytes; the world cache's modes
    /// left out while they are the plan's own array.
    private var worldCacheBytes: Int {
        let changes =
            allocatedBytes(caches.changes.dirtyLayers) + allocatedBytes(caches.changes.dirtyStates)
            + allocatedBytes(caches.editLog.ring)
        let plan = caches.worldPlan?.allocatedByteCount ?? 0
        guard let world = caches.worldCache else { return changes + plan }
        var worldBytes = world.general.allocatedByteCount
        worldBytes += allocatedBytes(world.a) + allocatedBytes(world.b) + allocatedBytes(world.c)
        worldBytes += allocatedBytes(world.d) + allocatedBytes(world.tx) + allocatedBytes(world.ty)
        if let planModes = caches.worldPlan?.modes, sharesStorage(world.modes, planModes) {
            return changes + plan + worldBytes
        }
        return changes + plan + worldBytes + allocatedBytes(world.modes)
    }
}

/// `array.capacity × MemoryLayout<T>.stride`: the bytes allocated for its elements. O(1).
@inline(__always)
func allocatedBytes<T>(_ array: [T]) -> Int { array.capacity * MemoryLayout<T>.stride }

/// As `allocatedBytes(_:)`, 0 for nil.
@inline(__always)
func allocatedBytes<T>(_ array: [T]?) -> Int { array.map { $0.capacity * MemoryLayout<T>.stride } ?? 0 }

extension LayerColumns {
    /// Bytes allocated for every column and the scroll-view table (its capacity × the
    /// key and value strides). O(1).
    var allocatedByteCount: Int {
        var bytes = allocatedBytes(boundsX) + allocatedBytes(boundsY) + allocatedBytes(boundsWidth)
        bytes += allocatedBytes(boundsHeight) + allocatedBytes(positionX) + allocatedBytes(positionY)
        bytes += allocatedBytes(anchorX) + allocatedBytes(anchorY) + zValues.allocatedBytes
        bytes += allocatedBytes(flags) + allocatedBytes(autoresizingMasks)
        bytes += transforms.allocatedByteCount + sublayerTransforms.allocatedByteCount
        bytes += allocatedBytes(attributes.opacities) + allocatedBytes(attributes.interactionEnabled)
        let entryStride = MemoryLayout<Int32>.stride + MemoryLayout<ScrollViewState>.stride
        return bytes + scrollViews.capacity * entryStride
    }
}

extension TransformColumns {
    /// Bytes allocated for the kinds, the six affine columns, the entry slots and the
    /// side table's entries. O(1).
    var allocatedByteCount: Int {
        allocatedBytes(kind) + allocatedBytes(a) + allocatedBytes(b) + allocatedBytes(c) + allocatedBytes(d)
            + allocatedBytes(tx) + allocatedBytes(ty) + allocatedBytes(entrySlots) + allocatedBytes(entries)
    }
}

extension LayerHierarchy {
    /// Bytes allocated for the generations, free slots and links. O(1).
    var allocatedByteCount: Int {
        allocatedBytes(generations) + allocatedBytes(freeSlots) + allocatedBytes(parents)
            + allocatedBytes(firstSublayers) + allocatedBytes(lastSublayers) + allocatedBytes(nextSiblings)
            + allocatedBytes(previousSiblings)
    }
}

extension WorldPlan {
    /// Bytes allocated for the plan's columns, order, layouts, general locals (table and
    /// slots) and range index. O(1).
    var allocatedByteCount: Int {
        var bytes = allocatedBytes(a) + allocatedBytes(b) + allocatedBytes(c) + allocatedBytes(d)
        bytes += allocatedBytes(tx) + allocatedBytes(ty) + allocatedBytes(modes)
        bytes += allocatedBytes(order) + allocatedBytes(levelStarts) + allocatedBytes(subtreeBlocks)
        bytes += allocatedBytes(generalPositions) + allocatedBytes(blockKinds) + allocatedBytes(generalLocals)
        bytes += allocatedBytes(generalLocalSlots) + allocatedBytes(generalLocalLayers)
        if let ranges = subtreeRanges {
            bytes += allocatedBytes(ranges.positions) + allocatedBytes(ranges.childStart)
            bytes += allocatedBytes(ranges.walkCosts)
        }
        return bytes
    }
}

extension SubtreeBounds {
    /// Bytes allocated for the boxes, marks, labels, rank trees and spatial indexes (every index's
    /// arrays and list of parked sublayers), and for the refresh's and builds' working
    /// arrays, apart. O(number of indexes).
    var allocatedByteCounts: (cache: Int, scratch: Int) {
        var cache =
            allocatedBytes(contentSlots) + allocatedBytes(contents) + allocatedBytes(extent) + allocatedBytes(state)
        cache += allocatedBytes(drift.leaves) + allocatedBytes(drift.orderLabels) + allocatedBytes(indexes)
        cache += allocatedBytes(indexSlot) + allocatedBytes(freeIndexSlots)
        var position = 0
        while position < indexes.count {  // an index loop: an unoptimized build's iterator allocates
            cache += indexes[position].allocatedByteCount + allocatedBytes(parkedSublayers[position])
            cache += allocatedBytes(drift.lists[position])
            position += 1
        }
        cache += allocatedBytes(parkedSublayers)
        cache += drift.allocatedReferenceBytes + allocatedBytes(drift.lists) + allocatedBytes(drift.listBounds)
        cache += allocatedBytes(drift.cleanRegions)
        cache += allocatedBytes(drift.rankLinks) + allocatedBytes(drift.rankRoots) + allocatedBytes(drift.rankCounts)
        var scratch = allocatedBytes(queue) + allocatedBytes(depths) + allocatedBytes(sortedQueue)
        scratch += allocatedBytes(drift.candidates)
        scratch += allocatedBytes(levelStarts) + allocatedBytes(carried) + allocatedBytes(carrying)
        scratch += allocatedBytes(buildScratch.sublayers) + allocatedBytes(buildScratch.extents)
        scratch += allocatedBytes(buildScratch.order) + allocatedBytes(buildScratch.space)
        scratch += allocatedBytes(buildScratch.slice) + allocatedBytes(buildScratch.centerX)
        return (cache, scratch + allocatedBytes(buildScratch.centerY))
    }
}

extension SublayerIndex {
    /// Bytes allocated for the leaves, node boxes, free counts, levels and refit marks. O(1).
    var allocatedByteCount: Int {
        allocatedBytes(sublayers) + allocatedBytes(boxes) + allocatedBytes(freeLeaves) + allocatedBytes(levelStarts)
            + allocatedBytes(stale) + allocatedBytes(staleNodes)
    }
}

extension WalkScratch {
    /// Bytes allocated for the hit walk's stacks and candidates. O(1).
    var allocatedByteCount: Int {
        allocatedBytes(frames) + allocatedBytes(steps) + allocatedBytes(candidates)
    }
}

extension IncrementalScratch {
    /// Bytes allocated for the incremental update's lists. O(1).
    var allocatedByteCount: Int {
        allocatedBytes(dirty) + allocatedBytes(movedOnly) + allocatedBytes(sortSpace) + allocatedBytes(levelLayers)
            + allocatedBytes(levelGeneralSlots) + allocatedBytes(levelMovedLayers) + allocatedBytes(runs)
            + allocatedBytes(nextRuns)
    }
}
