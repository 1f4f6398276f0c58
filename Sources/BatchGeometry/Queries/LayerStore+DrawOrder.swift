// Painter's order (GEOMETRY.md section 6), and the sublayer lists in that order, which
// the layer rule's hit testing walks backwards (section 7).

/// Sublayer lists as linked lists: `first[layer]` is the first sublayer to draw,
/// `next[layer]` the sibling drawn after `layer` (-1 = none). Roots keep their list order.
struct SiblingLinks {
    var first: RemappedColumn<Int32>
    var next: RemappedColumn<Int32>
}

extension LayerStore {
    /// Back to front: each layer, then its sublayers sorted by zPosition ascending
    /// (stable: equal zPositions keep sublayer order; NaN sorts as 0), each with its own
    /// subtree; roots in list order whatever their zPosition; hidden subtrees left out.
    /// O(count) when every sublayer list is already in zPosition order (tracked as
    /// layers are edited), else O(count log sublayers); no recursion.
    /// The convenient form of `drawOrder(into:scratch:)`, returning a new array.
    public func drawOrder() -> [LayerHandle] {
        var order: [LayerHandle] = []
        var scratch = QueryScratch()
        drawOrder(into: &order, scratch: &scratch)
        return order
    }

    /// Writes the painter's order (see `drawOrder()`) into `order`, replacing its
    /// contents (one entry per drawn layer, so fewer than `count` when some are hidden,
    /// detached or free) and keeping its storage. While some sublayer list is out of
    /// zPosition order, the lists sorted into drawing order are built in `scratch`.
    /// Serial (no options): a walk of the sublayer lists.
    ///
    /// Allocates nothing once `order` has the capacity for `count` entries (it reserves
    /// that much) and `scratch` has grown to `count`, when neither shares its storage.
    /// Complexity: O(count) when every sublayer list is in zPosition order, else
    /// O(count log sublayers); no recursion.
    public func drawOrder(into order: inout [LayerHandle], scratch: inout QueryScratch) {
        order.removeAll(keepingCapacity: true)
        order.reserveCapacity(count)
        walkPreorder(drawOrderLinks(reusing: &scratch)) { layer in
            if columns.flags[layer].contains(.hidden) { return false }
            order.append(handle(atSlot: layer))
            return true
        }
    }

    /// The slots of `drawOrder()`.
    func drawOrderIndices() -> [Int] {
        var order: [Int] = []
        order.reserveCapacity(count)
        walkPreorder(drawOrderLinks()) { layer in
            if columns.flags[layer].contains(.hidden) { return false }
            order.append(layer)
            return true
        }
        return order
    }

    /// The sublayer lists in drawing order: the store's own links when every list is
    /// already sorted (`zOrderInversions == 0`, O(1)); else the cached order
    /// (`DrawOrderCache`), O(1) when no list changed since it was last brought up to date
    /// (by `refreshDrawOrder()`, which the output-sensitive queries and `drawOrder(into:)`
    /// call), else a copy of it with the changed lists re-sorted.
    func drawOrderLinks() -> SiblingLinks {
        guard hierarchy.zOrderInversions > 0 else {
            return SiblingLinks(first: hierarchy.firstSublayers, next: hierarchy.nextSiblings)
        }
        if caches.drawOrderCache.isCurrent(count: count) { return caches.drawOrderCache.links }
        var cache = caches.drawOrderCache
        cache.refresh(self)
        return cache.links
    }

    /// Visits every layer of the drawn tree in depth-first pre-order over `links` (roots
    /// first to last, detached ones left out with their subtrees); `visit` returns
    /// whether to enter the layer's sublayers. No recursion.
    @inline(__always)
    func walkPreorder(_ links: SiblingLinks, _ visit: (Int) -> Bool) {
        var root = hierarchy.firstRoot
        while root >= 0 {
            if columns.flags[Int(root)].contains(.detached) {
                root = hierarchy.nextSiblings[Int(root)]
                continue
            }
            let top = root
            var current = root
            while true {
                let firstSublayer = links.first[Int(current)]
                if visit(Int(current)) && firstSublayer >= 0 {
                    current = firstSublayer
                    continue
                }
                // Climb to the nearest ancestor (below `top`) that has a next sibling.
                while current != top && links.next[Int(current)] < 0 { current = hierarchy.parents[Int(current)] }
                if current == top { break }
                current = links.next[Int(current)]
            }
            root = hierarchy.nextSiblings[Int(top)]
        }
    }

    /// 1 when `previous` and `next` are both layers and `next` sorts before `previous` in
    /// drawing order (a smaller zPosition key), else 0.
    @inline(__always)
    func zInversion(_ previous: Int32, _ next: Int32) -> Int {
        guard previous >= 0 && next >= 0 else { return 0 }
        let z = columns.zValues
        return drawOrderKey(z.zPosition(at: Int(next))) < drawOrderKey(z.zPosition(at: Int(previous))) ? 1 : 0
    }

    /// `zOrderInversions` counted from scratch. O(count).
    func countZOrderInversions() -> Int {
        var inversions = 0
        for layer in 0..<count where hierarchy.parents[layer] >= 0 {
            inversions += zInversion(hierarchy.previousSiblings[layer], Int32(layer))
        }
        return inversions
    }
}

/// The sort key of a zPosition: itself, except that NaN sorts as 0 (the default), so the
/// comparison is a strict weak order (NaN compares false with everything, which would
/// make the sort's result depend on the algorithm).
@inline(__always)
func drawOrderKey(_ zPosition: Double) -> Double { zPosition.isNaN ? 0 : zPosition }
