// The full pass for non-finite values. A planar chain skips the 4×4 product's
// structural zeros, which is exact only while every value is finite: once an infinity
// reaches a chain, `0 × inf` is NaN in the 4×4 product and absent from the planar one
// (Benchmarks/KERNELS.md, "Non-finite input"). The planar kernels report a non-finite
// value they wrote; the pass is then redone here, every layer as a full 4×4 product.

extension LayerStore {
    /// `ToWorld` of every layer as `transformToSuperlayer(of:)` times the superlayer's
    /// world (GEOMETRY.md section 5, structural zeros included), in `plan`'s order
    /// (superlayers first). Each matrix is stored in its cheapest exact form, so a
    /// sublayer multiplies by the same superlayer matrix `referenceWorldTransforms()`
    /// does: the same bits. Replaces `world`. O(count).
    func propagateWorldInFull(plan: WorldPlan, into world: inout WorldTransforms) {
        world = WorldTransforms(count: count)
        world.structureVersion = hierarchy.structureVersion
        for position in 0..<count {
            let layer = plan.layer(atPosition: position)
            let toSuperlayer = transformToSuperlayer(of: layer)
            let superlayer = Int(hierarchy.parents[layer])
            world[layer] = superlayer < 0 ? toSuperlayer : toSuperlayer.concatenating(world[superlayer])
        }
    }
}
