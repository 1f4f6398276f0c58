// The typed accessors of the table-driven properties (LayerAttributes.swift), with Core
// Animation's and UIKit's names, and the world opacity derived from opacity (GEOMETRY.md
// sections 2, 6 and 7). Every accessor is O(1) unless it says otherwise and takes a live
// `LayerHandle`; a stale one stops the program with a message naming it.

extension LayerStore {
    /// `CALayer.opacity` (UIView `alpha`), as stored: a 32-bit float, default 1, never
    /// clamped (a value below 0 or above 1, an infinity and NaN are kept as given).
    /// Drawing multiplies it down the tree (`worldOpacity(of:)`); the view rule of hit
    /// testing skips a layer, with its subtree, whose `Double(opacity) < 0.01`. It moves
    /// no geometry: world transforms, world rects, visibility and the layer rule's hit
    /// test do not read it.
    public func opacity(of layer: LayerHandle) -> Float {
        opacity(of: slot(of: layer))
    }
    func opacity(of layer: Int) -> Float {
        checkIndex(layer)
        return attributes.opacities[layer]
    }
    /// Sets the opacity. A `Double` becomes the stored value through `Float(_:)` (round
    /// to nearest; a finite value beyond the float range becomes ±infinity), as setting
    /// `CALayer.opacity` from a `CGFloat` does: setting 0.3 reads back
    /// 0.30000001192092896 once widened. O(1).
    public mutating func setOpacity(_ opacity: Float, of layer: LayerHandle) {
        setOpacity(opacity, of: slotForUpdate(of: layer))
    }
    mutating func setOpacity(_ opacity: Float, of layer: Int) {
        checkIndexForUpdate(layer)
        attributes.opacities[layer] = opacity
        // No geometry cache reads opacity; the view rule's gate does.
        attributesDidChange(layer, LayerProperty.opacity.effects)
    }

    /// UIView `isUserInteractionEnabled`, default true: false makes the view rule of hit
    /// testing skip the layer with its subtree (GEOMETRY.md section 7). The layer rule,
    /// drawing and visibility do not read it.
    public func isUserInteractionEnabled(_ layer: LayerHandle) -> Bool {
        isUserInteractionEnabled(slot(of: layer))
    }
    func isUserInteractionEnabled(_ layer: Int) -> Bool {
        checkIndex(layer)
        return attributes.interactionEnabled[layer]
    }
    /// Sets `userInteractionEnabled`. O(1).
    public mutating func setUserInteractionEnabled(_ value: Bool, of layer: LayerHandle) {
        setUserInteractionEnabled(value, of: slotForUpdate(of: layer))
    }
    mutating func setUserInteractionEnabled(_ value: Bool, of layer: Int) {
        checkIndexForUpdate(layer)
        attributes.interactionEnabled[layer] = value
        attributesDidChange(layer, LayerProperty.userInteractionEnabled.effects)
    }

    // MARK: World opacity (GEOMETRY.md section 6)

    /// The product of the opacities from the root down to `layer`, in `Double`, root
    /// first: `Double(opacity(root))`, then each sublayer's `Double(opacity)` multiplied
    /// in, so the bits are those of `worldOpacities()`. What a compositor multiplies
    /// without group opacity; hidden layers and visibility play no part (a detached
    /// layer is its subtree's root). O(depth); allocates nothing for depths up to a few
    /// thousand (a deeper chain takes one temporary buffer of depth entries).
    public func worldOpacity(of layer: LayerHandle) -> Double {
        worldOpacity(of: slot(of: layer))
    }
    func worldOpacity(of layer: Int) -> Double {
        checkIndex(layer)
        let depth = depth(of: layer)
        let opacities = attributes.opacities
        return withUnsafeTemporaryAllocation(of: Int32.self, capacity: depth + 1) { chain in
            var current = Int32(layer)
            var k = depth
            while current >= 0 {
                chain[k] = current
                k -= 1
                current = parents[Int(current)]
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
        let opacities = attributes.opacities
        let parents = self.parents
        var root = firstRoot
        while root >= 0 {
            let top = root
            var current = root
            while true {
                let layer = Int(current)
                let own = Double(opacities[layer])
                let superlayer = parents[layer]
                result[layer] = current == top || superlayer < 0 ? own : result[Int(superlayer)] * own
                let firstSublayer = firstSublayers[layer]
                if firstSublayer >= 0 {
                    current = firstSublayer
                    continue
                }
                while current != top && nextSiblings[Int(current)] < 0 { current = parents[Int(current)] }
                if current == top { break }
                current = nextSiblings[Int(current)]
            }
            root = nextSiblings[Int(top)]
        }
    }

    /// `worldOpacities(into:)` into a new array. O(count).
    public func worldOpacities() -> [Double] {
        var result: [Double] = []
        worldOpacities(into: &result)
        return result
    }
}
