// World opacity (GEOMETRY.md section 6): the product of the opacities from the root
// down, root first, in doubles. Opacity is not geometry, so these need no world update.

extension LayerStore {
    /// The product of the opacities from the root down to `layer`, in `Double`, root
    /// first: `Double(opacity(root))`, then each sublayer's `Double(opacity)` multiplied
    /// in, so the bits are those of `worldOpacities()`. What a compositor multiplies
    /// without group opacity; hidden layers and visibility play no part (a detached
    /// layer is its subtree's root). O(depth). Its one buffer, the chain of ancestors
    /// (4 bytes a level), is a temporary allocation: on the stack for ordinary depths, on
    /// the heap only for a chain too deep for that.
    public func worldOpacity(of layer: LayerHandle) -> Double {
        worldOpacity(of: slot(of: layer))
    }
    func worldOpacity(of layer: Int) -> Double {
        checkIndex(layer)
        let depth = depth(of: layer)
        let opacities = columns.attributes.opacities
        return withTemporaryColumn(of: Int32.self, capacity: depth + 1) { chain in
            var current = Int32(layer)
            var k = depth
            while current >= 0 {
                chain[k] = current
                k -= 1
                current = hierarchy.parents[Int(current)]
            }
            var product = Double(opacities[Int(chain[0])])
            var level = 1
            while level <= depth {
                product *= Double(opacities[Int(chain[level])])
                level += 1
            }
            return product
        }
    }

    /// Every slot's world opacity (as `worldOpacity(of:)`, bit for bit), written into
    /// `result` (resized to `count`; a free slot's entry is 1). One pre-order pass over
    /// the hierarchy, superlayers before sublayers, no recursion. O(count); allocates
    /// nothing once `result` has grown to the store. Needs no world update: opacity is
    /// not geometry.
    public func worldOpacities(into result: inout [Double]) {
        result.resize(to: count, filler: 1)
        let opacities = columns.attributes.opacities
        let parents = self.hierarchy.parents
        var root = hierarchy.firstRoot
        while root >= 0 {
            let top = root
            var current = root
            while true {
                let layer = Int(current)
                let own = Double(opacities[layer])
                let superlayer = parents[layer]
                result[layer] = superlayer < 0 ? own : result[Int(superlayer)] * own  // a root: its own
                let firstSublayer = hierarchy.firstSublayers[layer]
                if firstSublayer >= 0 {
                    current = firstSublayer
                    continue
                }
                while current != top && hierarchy.nextSiblings[Int(current)] < 0 { current = parents[Int(current)] }
                if current == top { break }
                current = hierarchy.nextSiblings[Int(current)]
            }
            root = hierarchy.nextSiblings[Int(top)]
        }
    }

    /// `worldOpacities(into:)` into a new array. O(count).
    public func worldOpacities() -> [Double] {
        var result: [Double] = []
        worldOpacities(into: &result)
        return result
    }
}
