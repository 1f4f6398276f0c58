// Painter's order (GEOMETRY.md section 6).

extension LayerStore {
    /// Back to front: each layer, then its sublayers sorted by zPosition ascending
    /// (stable: equal zPositions keep sublayer order), each with its own subtree; roots in
    /// order; hidden subtrees left out. A NaN zPosition sorts after every number (drawn
    /// frontmost among its siblings), so the others keep their order. O(count log
    /// sublayers), no recursion.
    public func drawOrder() -> [Int] {
        var order: [Int] = []
        order.reserveCapacity(count)
        // A stack of layers still to draw; pushing a sublayer list in reverse makes the
        // front of the list pop first.
        var stack: [Int32] = []
        pushSorted(siblingsFrom: firstRoot, onto: &stack)
        while let layer = stack.popLast() {
            let index = Int(layer)
            if flags[index].contains(.hidden) { continue }
            order.append(index)
            pushSorted(siblingsFrom: firstSublayers[index], onto: &stack)
        }
        return order
    }

    private func pushSorted(siblingsFrom first: Int32, onto stack: inout [Int32]) {
        var siblings: [Int32] = []
        var current = first
        var needsSort = false
        while current >= 0 {
            if let last = siblings.last, drawsBefore(zPositions[Int(current)], zPositions[Int(last)]) { needsSort = true }
            siblings.append(current)
            current = nextSiblings[Int(current)]
        }
        if needsSort {
            // Stable: sort by (zPosition, position in the sublayer list).
            let keyed = siblings.enumerated().sorted { lhs, rhs in
                let lz = zPositions[Int(lhs.element)], rz = zPositions[Int(rhs.element)]
                return drawsBefore(lz, rz) || (!drawsBefore(rz, lz) && lhs.offset < rhs.offset)
            }
            siblings = keyed.map(\.element)
        }
        stack.append(contentsOf: siblings.reversed())
    }
}

/// `<` on zPositions made a strict weak order by putting NaN after every number (all NaNs
/// equal): with plain `<` a NaN would be "equal" to everything, which is not transitive,
/// and the sort could then scramble the other siblings.
@inline(__always)
func drawsBefore(_ lhs: Double, _ rhs: Double) -> Bool {
    lhs < rhs || (rhs.isNaN && !lhs.isNaN)
}
