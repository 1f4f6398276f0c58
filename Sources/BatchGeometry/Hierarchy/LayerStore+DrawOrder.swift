// Painter's order (GEOMETRY.md section 6).

extension LayerStore {
    /// Back to front: each layer, then its sublayers sorted by zPosition ascending
    /// (stable: equal zPositions keep sublayer order; NaN sorts as 0), each with its own
    /// subtree; roots in list order whatever their zPosition; hidden subtrees left out.
    /// O(count log sublayers), no recursion.
    public func drawOrder() -> [Int] {
        var order: [Int] = []
        order.reserveCapacity(count)
        // A stack of layers still to draw; pushing a sublayer list in reverse makes the
        // front of the list pop first.
        var stack: [Int32] = []
        // Roots in list order (GEOMETRY.md section 6): only sublayers sort by zPosition.
        stack.append(contentsOf: roots.reversed().map { Int32(truncatingIfNeeded: $0) })
        while let layer = stack.popLast() {
            let index = Int(layer)
            if flags[index].contains(.hidden) { continue }
            order.append(index)
            pushSorted(siblingsFrom: firstSublayers[index], onto: &stack)
        }
        return order
    }

    /// Pushes the sibling list starting at `first` onto `stack`, sorted by zPosition
    /// (stable), so that the first to draw is popped first.
    private func pushSorted(siblingsFrom first: Int32, onto stack: inout [Int32]) {
        var siblings: [Int32] = []
        var current = first
        var needsSort = false
        var previousKey = -Double.infinity
        while current >= 0 {
            let key = drawOrderKey(zPositions[Int(current)])
            if key < previousKey { needsSort = true }
            previousKey = key
            siblings.append(current)
            current = nextSiblings[Int(current)]
        }
        if needsSort {
            // Stable: sort by (key, position in the sublayer list), a strict total order.
            let zPositions = self.zPositions
            let keyed = siblings.enumerated().sorted { lhs, rhs in
                let lz = drawOrderKey(zPositions[Int(lhs.element)]), rz = drawOrderKey(zPositions[Int(rhs.element)])
                return lz < rz || (lz == rz && lhs.offset < rhs.offset)
            }
            siblings = keyed.map(\.element)
        }
        stack.append(contentsOf: siblings.reversed())
    }
}

/// The sort key of a zPosition: itself, except that NaN sorts as 0 (the default), so the
/// comparison is a strict weak order (NaN compares false with everything, which would
/// make the sort's result depend on the algorithm).
@inline(__always)
func drawOrderKey(_ zPosition: Double) -> Double { zPosition.isNaN ? 0 : zPosition }
