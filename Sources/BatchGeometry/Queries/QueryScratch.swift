// Caller-owned storage for the per-frame queries' `into:` forms: the resizing rule they
// share, and the working storage of batch hit tests and drawing order (`QueryScratch`),
// so that a frame loop that keeps its arrays allocates nothing once they have grown.

/// Working storage that `LayerStore.hitTest(points:in:rule:into:scratch:options:)` and
/// `LayerStore.drawOrder(into:scratch:)` reuse from one call to the next, so that a frame
/// loop which keeps one allocates nothing in them once it has grown to the store's size.
///
/// It holds what those queries build on the way to their answers: a batch hit test's
/// per-layer unprojections (computed once per call and shared by all its points, when
/// there are 4 points or more), and, while some sublayer list is out of zPosition order,
/// a copy of the sublayer lists sorted into drawing order. Every call overwrites what it
/// uses, so one scratch may serve several stores of any sizes, one call at a time (it
/// is passed `inout`). It grows to the largest store it served (80 bytes per
/// layer after hit tests with 4 or more points, 20 bytes per layer for the sorted
/// lists, reserved for the worst case on first use) and never shrinks; a new one is
/// empty. The answers never depend on it.
public struct QueryScratch: Sendable {
    /// Each layer's `Homography` of its world matrix, for hit tests of 4 or more points.
    var unprojections: [Homography] = []
    /// The sublayer lists in drawing order (`SiblingLinks`), while some list is unsorted.
    var first: RemappedColumn<Int32> = []
    var next: RemappedColumn<Int32> = []
    /// The superlayers whose lists are out of order, one unsorted list's sublayers, and
    /// the merge space of `stableSort`.
    var unsortedParents: [Int32] = []
    var siblings: [Int32] = []
    var sortSpace: [Int32] = []

    /// An empty scratch: the first calls that use it size it. O(1).
    public init() {}
}

extension RemappedColumn {
    /// `Array.resize(to:filler:)` for a remapped column: `newCount` long, the room kept.
    /// No allocation when the capacity suffices and the block is not shared.
    mutating func resize(to newCount: Int, filler: Element) {
        if count > newCount {
            while count > newCount { removeLast() }
        } else if count < newCount {
            reserveCapacity(newCount)
            for _ in count..<newCount { append(filler) }
        }
    }
}

extension Array {
    /// Makes the array `newCount` long, keeping its storage: drops entries from the end,
    /// or appends copies of `filler` (an empty array without the capacity gets new
    /// storage filled with `filler`). Entries below both counts keep their values. No
    /// allocation when the capacity suffices and the storage is not shared.
    ///
    /// (One element at a time: `append(contentsOf:)` with a `repeatElement`, and
    /// `removeLast(_:)`, allocate in unoptimized builds when called from generic code
    /// like this.)
    @inline(__always)
    mutating func resize(to newCount: Int, filler: Element) {
        if count > newCount {
            while count > newCount { removeLast() }
        } else if count < newCount {
            if isEmpty && capacity < newCount {
                self = Array(repeating: filler, count: newCount)
                return
            }
            reserveCapacity(newCount)
            for _ in count..<newCount { append(filler) }
        }
    }

    /// Replaces the contents with `source`'s, keeping this array's storage (no
    /// allocation when its capacity suffices and it is not shared).
    @inline(__always)
    mutating func overwrite(with source: [Element]) {
        removeAll(keepingCapacity: true)
        append(contentsOf: source)
    }
}

extension LayerStore {
    /// The sublayer lists in drawing order, as `drawOrderLinks()` gives them, built in
    /// `scratch`'s storage: the store's own lists when every list is sorted
    /// (`zOrderInversions == 0`, O(1)), else a copy with each unsorted list stably sorted
    /// by zPosition key, O(count + k log k per unsorted list of k sublayers), allocating
    /// nothing once `scratch` has grown to `count`. The order is the same as
    /// `drawOrderLinks()`'s: both sort by (key, position in the list), a strict total
    /// order, so any stable sort gives it (tests compare the two).
    ///
    /// The returned links share `scratch`'s arrays: drop them before the next call that
    /// writes `scratch`, or that call copies them.
    func drawOrderLinks(reusing scratch: inout QueryScratch) -> SiblingLinks {
        guard hierarchy.zOrderInversions > 0 else {
            return SiblingLinks(first: hierarchy.firstSublayers, next: hierarchy.nextSiblings)
        }
        // The store's cache, when no list changed since `updateWorld()` or an
        // output-sensitive query brought it up to date: no copy, no sorting.
        if caches.drawOrderCache.isCurrent(count: count) { return caches.drawOrderCache.links }
        // Room for the worst case up front (each list holds at most `count` entries), so
        // a frame with more unsorted lists than the ones before allocates nothing.
        scratch.unsortedParents.reserveCapacity(count)
        scratch.siblings.reserveCapacity(count)
        scratch.sortSpace.reserveCapacity(count)
        scratch.first.overwrite(with: hierarchy.firstSublayers)
        scratch.next.overwrite(with: hierarchy.nextSiblings)
        scratch.unsortedParents.removeAll(keepingCapacity: true)
        for layer in 0..<count
        where hierarchy.parents[layer] >= 0 && zInversion(hierarchy.previousSiblings[layer], Int32(layer)) == 1 {
            scratch.unsortedParents.append(hierarchy.parents[layer])
        }
        // Each unsorted list once: its superlayer may be listed once per inversion.
        stableSort(&scratch.unsortedParents, space: &scratch.sortSpace) { $0 < $1 }
        var previousParent: Int32 = -1
        for index in scratch.unsortedParents.indices {
            let parent = scratch.unsortedParents[index]
            if parent == previousParent { continue }
            previousParent = parent
            sortSublayers(of: Int(parent), &scratch)
        }
        return SiblingLinks(first: scratch.first, next: scratch.next)
    }

    /// Links `parent`'s sublayers in `scratch.first`/`scratch.next` in drawing order:
    /// stably by zPosition key (equal keys keep sublayer order).
    private func sortSublayers(of parent: Int, _ scratch: inout QueryScratch) {
        scratch.siblings.removeAll(keepingCapacity: true)
        var current = hierarchy.firstSublayers[parent]
        while current >= 0 {
            scratch.siblings.append(current)
            current = hierarchy.nextSiblings[Int(current)]
        }
        let z = columns.zValues
        stableSort(&scratch.siblings, space: &scratch.sortSpace) {
            drawOrderKey(z.zPosition(at: Int($0))) < drawOrderKey(z.zPosition(at: Int($1)))
        }
        let siblings = scratch.siblings
        scratch.first[parent] = siblings[0]
        for k in 0..<siblings.count {
            scratch.next[Int(siblings[k])] = k + 1 < siblings.count ? siblings[k + 1] : -1
        }
    }
}

/// Sorts `values` stably (equal values keep their order) by `areInIncreasingOrder`, a
/// strict weak order, using `space` as the merge space (grown to `values.count` and
/// kept): insertion sort over runs of 16, then bottom-up merges. Allocates nothing once
/// `space` has the capacity (the standard library's sort may allocate its merge
/// buffer). O(n log n).
func stableSort(
    _ values: inout [Int32], space: inout [Int32], by areInIncreasingOrder: (Int32, Int32) -> Bool
) {
    let n = values.count
    guard n > 1 else { return }
    if space.count < n { space.resize(to: n, filler: 0) }
    withRawColumn(&values) { valuesBase in
        withRawColumn(&space) { spaceBase in stableSort(valuesBase, n, space: spaceBase, by: areInIncreasingOrder) }
    }
}

/// `stableSort(_:space:by:)` for remapped columns (the drawing-order cache's scratch).
func stableSort(
    _ values: inout RemappedColumn<Int32>, space: inout RemappedColumn<Int32>,
    by areInIncreasingOrder: (Int32, Int32) -> Bool
) {
    let n = values.count
    guard n > 1 else { return }
    if space.count < n { space.resize(to: n, filler: 0) }
    withRawColumn(&values) { valuesBase in
        withRawColumn(&space) { spaceBase in stableSort(valuesBase, n, space: spaceBase, by: areInIncreasingOrder) }
    }
}

/// The merge sort behind both `stableSort` overloads, on the first `n` elements at
/// `valuesBase`, with `spaceBase` (room for `n`) as the merge space.
@inline(__always)
private func stableSort(
    _ valuesBase: RawColumn<Int32>, _ n: Int, space spaceBase: RawColumn<Int32>,
    by areInIncreasingOrder: (Int32, Int32) -> Bool
) {
    var source = valuesBase
    var target = spaceBase
    let run = 16
    var start = 0
    while start < n {
        let end = Swift.min(start + run, n)
        for i in (start + 1)..<end {
            let value = source[i]
            var j = i
            while j > start && areInIncreasingOrder(value, source[j - 1]) {
                source[j] = source[j - 1]
                j -= 1
            }
            source[j] = value
        }
        start = end
    }
    var width = run
    while width < n {
        var low = 0
        while low < n {
            let middle = Swift.min(low + width, n)
            let high = Swift.min(low + 2 * width, n)
            var i = low
            var j = middle
            for k in low..<high {
                // The left run wins ties: stable.
                if j < high && (i >= middle || areInIncreasingOrder(source[j], source[i])) {
                    target[k] = source[j]
                    j += 1
                } else {
                    target[k] = source[i]
                    i += 1
                }
            }
            low = high
        }
        swap(&source, &target)
        width *= 2
    }
    if source != valuesBase { valuesBase.copy(from: source, count: n) }
}
