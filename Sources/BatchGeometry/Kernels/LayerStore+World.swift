// World transforms over the whole store with the selected backend, and the cached,
// incremental update.

extension LayerStore {
    /// `ToWorld` of every layer (GEOMETRY.md section 5), in one pass with superlayers
    /// before sublayers, no recursion (any depth works). Chains of 2D affine transforms
    /// under flattening superlayers are propagated as six doubles per layer with
    /// `options.backend` over `options.threads` (level by level); other layers take the
    /// 4×4 reference expression. Agrees with `referenceWorldTransforms()` to 1e-12
    /// relative (NaN where it has NaN), identically for every thread count.
    ///
    /// When `updateWorld()` has run and nothing changed since, the cached local
    /// transforms are reused and the pass streams about 100 bytes per layer; otherwise
    /// local transforms are computed first from the layer properties. O(count).
    public func worldTransforms(options: KernelOptions = .default) -> WorldTransforms {
        let plan = (changes.hasChanges ? nil : worldPlan) ?? makeWorldPlan()
        var world = WorldTransforms(uninitializedCount: count)
        if propagateWorld(plan: plan, into: &world, options: options) { return world }
        return referenceWorldTransforms()
    }

    /// Computes `ToWorld` of every layer into `world`, reusing its storage (resized to
    /// `count` if needed) so a frame loop allocates nothing; otherwise the same as
    /// `worldTransforms(options:)`. O(count).
    public func computeWorldTransforms(into world: inout WorldTransforms, options: KernelOptions = .default) {
        let plan = (changes.hasChanges ? nil : worldPlan) ?? makeWorldPlan()
        if world.count != count { world = WorldTransforms(uninitializedCount: count) }
        if !propagateWorld(plan: plan, into: &world, options: options) { world = referenceWorldTransforms() }
    }

    /// Brings the cached world transforms up to date and returns them: only the subtrees
    /// of layers changed since the last update are recomputed, unless the hierarchy
    /// changed (layers added, removed or reparented) or many layers did (more than a
    /// quarter): then it is one full pass. Changing `masksToBounds` or `hidden` does not
    /// dirty anything.
    ///
    /// Copy-on-write: the result shares storage with the store's cache. Discarding it
    /// (`_ = store.updateWorld()` once per frame) keeps the next update copy-free; a
    /// caller that keeps the previous result alive while updating makes that update copy
    /// the cache once (O(count)), after which the kept snapshot stays unchanged.
    ///
    /// Complexity: O(size of the dirty subtrees + dirty layers × depth), or O(count) for a
    /// full pass.
    @discardableResult
    public mutating func updateWorld(options: KernelOptions = .default) -> WorldTransforms {
        if let cached = worldCache, !changes.hasChanges { return cached }
        if !changes.needsFullUpdate, worldCache != nil, worldPlan != nil,
           changes.dirtyLayers.count <= count / 4, updateDirtySubtrees() {
            changes.clear()
            return worldCache!
        }
        fullWorldUpdate(options: options)
        changes.clear()
        return worldCache!
    }

    /// Marks every layer dirty, so the next `updateWorld()` is a full pass (local
    /// transforms rebuilt from the properties, then propagated). O(1).
    public mutating func invalidateWorld() {
        changes.markStructureChanged()
    }

    /// Rebuilds the plan and the world in full, reusing the cached world's storage when
    /// nothing else holds it.
    private mutating func fullWorldUpdate(options: KernelOptions) {
        let plan = makeWorldPlan()
        var world = worldCache ?? WorldTransforms(uninitializedCount: count)
        worldCache = nil
        worldPlan = nil
        if world.count != count { world = WorldTransforms(uninitializedCount: count) }
        if propagateWorld(plan: plan, into: &world, options: options) {
            worldPlan = plan
            worldCache = world
        } else {
            // Non-finite values reached a planar chain: keep the reference result and no
            // plan, so the next update is a full pass again.
            worldCache = referenceWorldTransforms()
        }
    }

    /// Recomputes the subtrees of the dirty layers in place (serially; they are small by
    /// construction). False when a planar chain became non-finite: the caches are then
    /// dropped and the caller runs a full pass.
    private mutating func updateDirtySubtrees() -> Bool {
        guard var world = worldCache, var plan = worldPlan else { return false }
        worldCache = nil
        worldPlan = nil
        world.modes = [] // shares plan.modes; drop it so writing the plan copies nothing
        guard recomputeDirtySubtrees(plan: &plan, world: &world) else { return false }
        world.modes = plan.modes
        worldCache = world
        worldPlan = plan
        return true
    }

    /// The work of `updateDirtySubtrees`, non-mutating so the store is only borrowed.
    private func recomputeDirtySubtrees(plan: inout WorldPlan, world: inout WorldTransforms) -> Bool {
        let isDirty = changes.isDirty
        for dirtyLayer in changes.dirtyLayers {
            let top = Int(dirtyLayer)
            var ancestor = parents[top]
            var covered = false
            while ancestor >= 0 {
                if isDirty[Int(ancestor)] { covered = true; break }
                ancestor = parents[Int(ancestor)]
            }
            if covered { continue } // an ancestor's subtree includes this one
            // Pre-order over `top`'s subtree (superlayers first), no recursion.
            var current = top
            while true {
                if !recomputeLayer(current, isDirty: isDirty, plan: &plan, world: &world) { return false }
                if firstSublayers[current] >= 0 { current = Int(firstSublayers[current]); continue }
                while current != top && nextSiblings[current] < 0 { current = Int(parents[current]) }
                if current == top { break }
                current = Int(nextSiblings[current])
            }
        }
        return true
    }

    /// One layer of a dirty subtree: its plan entry when its inputs (or its superlayer's
    /// adjustments) changed, else only its mode; then its world. False when non-finite.
    @inline(__always)
    private func recomputeLayer(_ layer: Int, isDirty: [Bool], plan: inout WorldPlan, world: inout WorldTransforms) -> Bool {
        let superlayer = Int(parents[layer])
        let oldMode = plan.modes[layer]
        if isDirty[layer] || (superlayer >= 0 && isDirty[superlayer]) {
            refreshPlanEntry(layer, in: &plan)
        } else if oldMode & WorldMode.eligible != 0 {
            plan.modes[layer] = WorldMode.eligible
                | planarMode(superlayerMode: plan.modes[superlayer], superlayerIsRoot: parents[superlayer] < 0)
        }
        let mode = plan.modes[layer]
        if (mode ^ oldMode) & WorldMode.general != 0 { plan.generalPositions = nil }
        if mode & WorldMode.general == 0 {
            let result = planarCompose(
                AffineTransform(a: plan.a[layer], b: plan.b[layer], c: plan.c[layer], d: plan.d[layer],
                                tx: plan.tx[layer], ty: plan.ty[layer]),
                AffineTransform(a: world.a[superlayer], b: world.b[superlayer], c: world.c[superlayer],
                                d: world.d[superlayer], tx: world.tx[superlayer], ty: world.ty[superlayer]))
            world.a[layer] = result.a; world.b[layer] = result.b; world.c[layer] = result.c
            world.d[layer] = result.d; world.tx[layer] = result.tx; world.ty[layer] = result.ty
            if oldMode & WorldMode.general != 0 { world.general[Int32(truncatingIfNeeded: layer)] = nil }
            return result.a.isFinite && result.b.isFinite && result.c.isFinite && result.d.isFinite
                && result.tx.isFinite && result.ty.isFinite
        }
        var matrix = transformToSuperlayer(of: layer)
        if superlayer >= 0 {
            let superWorld: Transform3D
            if plan.modes[superlayer] & WorldMode.general != 0 {
                superWorld = world.general[Int32(truncatingIfNeeded: superlayer)]!
            } else {
                superWorld = Transform3D(
                    m11: world.a[superlayer], m12: world.b[superlayer], m13: 0, m14: 0,
                    m21: world.c[superlayer], m22: world.d[superlayer], m23: 0, m24: 0,
                    m31: 0, m32: 0, m33: 0, m34: 0,
                    m41: world.tx[superlayer], m42: world.ty[superlayer], m43: 0, m44: 1)
            }
            matrix = matrix.concatenating(superWorld)
        }
        world.setGeneral(matrix, at: layer)
        return true
    }
}
