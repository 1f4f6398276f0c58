/// `ToWorld` of every layer of a store, from one pass over the hierarchy (GEOMETRY.md
/// section 5): the matrix that maps a point of the layer's bounds space to the world
/// (the roots' superlayer space). Index = layer index.
///
/// A snapshot: it does not follow later changes to the store.
public struct WorldTransforms: Sendable {
    var storage: [Transform3D]

    init(count: Int) { storage = Array(repeating: .identity, count: count) }

    /// The number of layers covered.
    public var count: Int { storage.count }

    /// `ToWorld(layer)`. O(1).
    public subscript(layer: Int) -> Transform3D {
        get { storage[layer] }
        set { storage[layer] = newValue }
    }
}

extension LayerStore {
    /// `ToWorld` for every layer, by the scalar reference: one pass in an order where
    /// every superlayer comes before its sublayers (index order when that holds, else a
    /// depth-first pre-order), no recursion. O(count).
    public func referenceWorldTransforms() -> WorldTransforms {
        var world = WorldTransforms(count: count)
        if parentsPrecedeChildren {
            for layer in 0..<count { computeWorld(layer, into: &world) }
        } else {
            for layer in preorder() { computeWorld(Int(layer), into: &world) }
        }
        return world
    }

    @inline(__always)
    private func computeWorld(_ layer: Int, into world: inout WorldTransforms) {
        let toSuperlayer = transformToSuperlayer(of: layer)
        let superlayer = parents[layer]
        world.storage[layer] = superlayer < 0 ? toSuperlayer : toSuperlayer.concatenating(world.storage[Int(superlayer)])
    }
}
